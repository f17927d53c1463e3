"""RPC-style operations read as the REST shapes the resource finder knows (docs/import.md, "RPC-style APIs").

An AWS action (`POST /#X-Amz-Target=SageMaker.DescribeArtifact`), a Google resource-name path
(`GET /v1/{name}`, `keep.notes.get`) or an RPC path (`POST /users.create`, `GET /getUser?id=`) gets
the `segs`, method and parameters of the REST operation it is (`GET /artifacts/{ArtifactArn}`), so
`find_resources` and the CRUD tools treat it like one. The spec's own path stays the operation's
label, and `read_as` says what it was read as. This module only reshapes what the operation's name
says; it never gives an operation an effect: a verb it does not know stays an action
(`POST /clusters/{ClusterName}/:start`), which the importer simulates."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ..vocab import norm
from .common import pascal, plural, singular, snake
from .schema import Shape

CREATE = {"create", "add", "insert", "put", "register", "new"}
GET = {"get", "describe", "read", "fetch", "retrieve", "show"}
LIST = {"list", "search", "query", "find"}
UPDATE = {"update", "modify", "set", "patch", "edit", "change", "replace"}
DELETE = {"delete", "remove", "destroy", "deregister"}
KIND = {**{w: "create" for w in CREATE}, **{w: "get" for w in GET}, **{w: "list" for w in LIST}, **{w: "update" for w in UPDATE}, **{w: "delete" for w in DELETE}}
# the methods of Google's resource-oriented design (AIP-131..135)
GOOGLE_KIND = {"get": "get", "list": "list", "create": "create", "insert": "create", "patch": "update", "update": "update", "delete": "delete"}
# a noun ends at a preposition: `ListTagsForResource` lists tags
PREPOSITIONS = {"for", "by", "from", "in", "of", "on", "to", "with", "at", "into", "as"}
# a view of the noun, not another noun: `GetServerDetails` gets a server
VIEWS = {"details", "detail", "info", "information"}
# a view word or `all` as an RPC path's method (`GET /api/client/details?id=`, `GET /api/client/all`)
VIEW_METHODS = {"details": "get", "detail": "get", "all": "list"}
KEY_SUFFIXES = ("id", "name", "arn", "key", "identifier", "uuid", "number", "slug")  # `IssueNumber`, `ProjectSlug` too
EXTENSIONS = {"json", "xml", "php", "asp", "aspx", "html", "htm", "do", "action"}
AWS_ACTION = re.compile(r"#(?:X-Amz-Target|Action|Operation)=(?:[\w.-]*\.)?([A-Za-z]\w*)")
VERSION = re.compile(r"v\d+(?:[a-z]+\d*)*|\d+(?:\.\d+)*", re.I)




def is_param(seg: str) -> bool:
    return re.search(r"\{[^{}]+\}", seg) is not None


def pname(seg: str) -> str:
    m = re.search(r"\{([^{}]+)\}", seg)
    return m.group(1).strip().lstrip("+") if m else seg


@dataclass
class Reading:
    """What an operation's name says: a kind of CRUD (or an action with its verb) on a noun."""

    style: str  # words for the note: "an AWS RPC action"
    kind: str  # create get list update delete action
    verb: str  # the action's name, for `:verb`
    noun: str  # snake, singular
    coll: str  # the collection segment
    prefix: list[str]  # segments before the collection
    plural_noun: bool = False  # the name says many (`DescribeClusters`)
    key: str | None = None  # an existing path parameter that names the item
    to_query: list[str] = field(default_factory=list)  # path parameters that become query parameters
    name: str = ""  # the RPC name (`DescribeArtifact`): a response schema named after it is the noun's
    keyed_by_path: bool = False  # the item is the path's own parameter or none (Google), never a field
    reads: bool = False  # an action whose name says it only reads (`GetRepositoryPolicy`): a GET
    self_key: bool = False  # a field named as the noun names the item (`users.info?user=U1`)


def words_of(tokens: list[str], explicit: bool) -> tuple[str, str, list[str]] | None:
    """(kind, verb, noun tokens) of an RPC name's snake tokens; `explicit`: the name is known to be
    a method (an AWS action), so an unknown first word is an action's verb."""
    tokens = [t for t in tokens if t]
    if len(tokens) < 2:
        return None
    if tokens[0] == "batch" and len(tokens) > 2 and explicit:
        verb, rest = "batch_" + tokens[1], tokens[2:]
        kind = "action"
    else:
        verb, rest = tokens[0], tokens[1:]
        kind = KIND.get(verb) or ("action" if explicit and verb.isalpha() else "")
    if not kind:
        return None
    noun = []
    for t in rest:
        if t in PREPOSITIONS:
            break
        noun.append(t)
    while len(noun) > 1 and noun[-1] in VIEWS:
        noun.pop()
    if not noun or not noun[-1].isalpha():
        return None
    return kind, verb, noun


def noun_reading(style: str, found: tuple[str, str, list[str]], prefix: list[str], name: str) -> Reading:
    kind, verb, toks = found
    last = toks[-1]
    noun = "_".join(toks[:-1] + [singular(last)])
    return Reading(style, kind, verb, noun, plural(noun), prefix, plural_noun=singular(last) != last, name=name)


def read_aws(o: Any) -> Reading | None:
    """`POST /#X-Amz-Target=SageMaker.DescribeArtifact` (AWS JSON RPC), `/#Action=X` (AWS query)."""
    m = AWS_ACTION.search(o.path)
    if m is None:
        return None
    found = words_of(snake(m.group(1)).split("_"), explicit=True)
    if found is None:
        return None
    prefix = [s for s in o.segs if not s.startswith("#")]
    return noun_reading("an AWS RPC action", found, prefix, m.group(1))


def google_names(o: Any) -> bool:
    """A path of Google resource names: a parameter first, after a version (`/v1/{name}`) or after
    another parameter, where a REST path would name its collection."""
    segs = [s for s in o.segs if not s.startswith(":")]
    # a section of the API between the version and the name (Pub/Sub Lite's `/v1/admin/{name}`,
    # `/v1/cursor/{parent}/cursors`), which the dotted id names right after the API
    # (`pubsublite.admin.projects.locations.topics.get`): no collection of the name's rows
    section = ([p for p in (getattr(o, "op_id", None) or "").split(".") if p][1:2] or [""])[0]
    for i, s in enumerate(segs):
        if is_param(s) and (i == 0 or is_param(segs[i - 1]) or VERSION.fullmatch(segs[i - 1])):
            return True
        if is_param(s) and i >= 2 and VERSION.fullmatch(segs[i - 2]) and segs[i - 1] == section and norm(pname(s)) in ("name", "parent", "resource"):
            return True
    return False


# where a Google resource lives, not what it belongs to: the importer's scopes (one value for
# every row), never a parent row (Vertex AI's jobs "in location locations/3")
GOOGLE_SCOPES = frozenset({"projects", "locations", "organizations", "folders", "zones", "regions"})


def google_collections(ops: list) -> tuple[frozenset[str], frozenset[str]]:
    """The collections a Google API gets, or lists where its rows are keyed by their resource
    names (the API has `/v1/{name}` paths), by a method of their own (`skuGroups` of
    `cloudbilling.skuGroups.list`): the ones whose rows a `{parent}` can name (`read_google`). A
    collection with no key would make the parent text no row holds ("the SKUs of parent 5").
    Also the collections with a method on their items (anything but a list or a create)."""
    named = any(is_param(s) and norm(pname(s)) == "name" for o in ops for s in o.segs)
    out, items = set(), set()
    for o in ops:
        parts = [p for p in (getattr(o, "op_id", None) or "").split(".") if p]
        kind = GOOGLE_KIND.get(parts[-1]) if len(parts) >= 3 else None
        if (kind == "get" or kind == "list" and named) and norm(parts[-2]) not in GOOGLE_SCOPES:
            out.add(norm(parts[-2]))
        if len(parts) >= 3 and kind not in ("list", "create"):
            items.add(norm(parts[-2]))
    # a child with methods on its items (a get, `entityTypes.exportFeatureValues`) keeps the
    # path they share (`/v1/{entityType}`): listed under `featurestores/{parent}` it would be
    # another resource than the one they act on, and Vertex AI's entity types, endpoints, ...
    # fell to simulated. (APIs.guru keeps one `GET /v1/{name}`, so most gets are not there)
    return frozenset(out), frozenset(items)


def read_google(o: Any, colls: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())) -> Reading | None:
    """`keep.notes.get` on `/v1/{name}`: the dotted id names the collection chain and the method.
    A list or create on `{parent}` whose id names the parent's collection (`skuGroups.skus.list`
    on `/v1beta/{parent}/skus`), a collection the API lists or gets (`listed`), is on that
    parent's rows: `/v1beta/skuGroups/{parent}/skus`, so the SKUs are listed under their group,
    when the listed collection has no method on its items (`google_collections`:
    `colls` is what it found). Otherwise the parent is a query parameter that names no field (a
    project, a location)."""
    listed, itemized = colls
    parts = [p for p in (o.op_id or "").split(".") if p]
    if len(parts) < 3 or not google_names(o) or not re.fullmatch(r"[A-Za-z][\w-]*", parts[-2]):
        return None
    method, coll = parts[-1], parts[-2]
    segs = [s for s in o.segs if not s.startswith(":")]
    params = [pname(s) for s in segs if is_param(s)]
    prefix = []
    for s in segs:
        if is_param(s):
            break
        prefix.append(s)
    kind = GOOGLE_KIND.get(method) or ("list" if method == "search" and o.method == "get" else "action")
    # the item the operation names: the last parameter, unless it is the parent or the path goes on
    # to the collection itself (`/v1/{parent}/sessions:batchCreate`)
    key = None
    if kind not in ("list", "create"):
        tail = segs[-1] if segs else ""
        # a custom method of the collection (`/v1/{buyer}/proposals:sendRfp`) names no item: the
        # parameter before it is the collection's parent, whatever it is called
        on_coll = norm(tail.partition(":")[0]) == norm(coll)
        if is_param(tail) and norm(pname(tail)) != "parent":
            key = pname(tail)
        elif not is_param(tail) and not on_coll and params and norm(params[-1]) != "parent":
            key = params[-1]
    if kind in ("get", "update", "delete") and key is None:
        return None
    noun = snake(singular(coll))
    if kind in ("list", "create") and params and norm(params[-1]) == "parent" and len(parts) >= 4 and norm(parts[-3]) in listed and norm(parts[-3]) != norm(coll) and norm(coll) not in itemized and is_param(segs[-2] if len(segs) >= 2 else ""):
        # Cloud Billing's SKUs of a SKU group, prices of a SKU: a chain the rows can follow
        prefix = prefix + [parts[-3], "{" + params[-1] + "}"]
        params = params[:-1]
    elif kind == "action" and key is None and params and len(parts) >= 4:
        # `notes.permissions.batchCreate` on `{parent}`: an action on the parent note's permissions
        prefix = prefix + [parts[-3], "{" + params[-1] + "}"]
        params = params[:-1]
    return Reading("a Google resource-name path", kind, method, noun, coll, prefix, key=key, to_query=[p for p in params if p != key], keyed_by_path=True)


def read_custom_list(o: Any) -> Reading | None:
    """`POST .../workspaces/{w}/experiments:query`, `GET /v3/projects:search`: a custom method of
    a collection (`collection:verb`, AIP-136's form outside a resource-name path) whose verb is a
    list's (`query`, `search`, `list`, `find`, the whole verb) lists that collection; the request
    body's fields become query parameters, as a list's do. Any other verb stays as it is."""
    m = re.fullmatch(r"([A-Za-z][\w-]*):([A-Za-z]+)", o.segs[-1]) if o.segs else None
    if m is None or KIND.get(m.group(2).lower()) != "list" or o.method not in ("get", "post"):
        return None
    coll = m.group(1)
    return Reading("a custom method of a collection", "list", m.group(2), snake(singular(coll)), coll, list(o.segs[:-1]))


def read_generic(o: Any) -> Reading | None:
    """`POST /users.create`, `GET /users.list`, `POST /createUser`, `POST /user/create`,
    `GET /getUser?id=`, `GET /get-assessment/{id}`: a verb in the path's last word."""
    segs = o.segs
    i = len(segs) - 1
    while i >= 0 and is_param(segs[i]):
        i -= 1
    after = [pname(s) for s in segs[i + 1 :]]
    if i < 0 or len(after) > 1 or segs[i].startswith((":", "#")):
        return None
    seg = segs[i].split("#")[0]  # `/getResponsePlan#arn`: what follows `#` tells two variants apart
    base, dot, ext = seg.rpartition(".")
    if dot and ext.lower() in EXTENSIONS:
        seg = base
    key = after[0] if after else None
    style = "an RPC-style path"
    if "." in seg:  # `users.create`, `chat.postMessage`: a noun, then a method
        noun_part, _, method = seg.rpartition(".")
        noun_part = noun_part.rpartition(".")[2]
        mt = snake(method).split("_")
        if not re.fullmatch(r"[A-Za-z][\w-]*", noun_part) or not mt[0].isalpha():
            return None
        kind = KIND.get(mt[0], "action") if len(mt) == 1 else "action"
        if kind == "action" and mt[0] == "info":
            kind = "get"  # `users.info`: a method that reads one
        toks = snake(noun_part).split("_")
        found = (kind, snake(method), toks)
        prefix = segs[:i]
        self_key = True
    else:
        toks = snake(seg).split("_")
        if len(toks) >= 2:  # `createUser`, `get-assessment`
            found = words_of(toks, explicit=False)
            prefix = segs[:i]
            self_key = False
        elif (toks[0] in KIND or toks[0] in VIEW_METHODS and o.method == "get") and i >= 1:  # `/user/create`, `/users/{id}/delete`, `/client/details?id=`
            j = i - 1
            if toks[0] not in KIND and (is_param(segs[j]) or key is not None):
                return None  # `/users/{id}/details` is REST's own details view (openapi.DETAIL_WORDS)
            if is_param(segs[j]):
                if key is not None or j == 0 or is_param(segs[j - 1]):
                    return None
                key, j = pname(segs[j]), j - 1
            noun_seg = segs[j]
            if noun_seg.startswith((":", "#")) or not re.fullmatch(r"[A-Za-z][\w-]*", noun_seg):
                return None
            found = (KIND.get(toks[0]) or VIEW_METHODS[toks[0]], toks[0], snake(noun_seg).split("_"))
            r = noun_reading(style, found, segs[:j], seg)
            r.coll = noun_seg  # as written: its REST siblings (`/user/{id}`) use it so
            r.key = key
            return r if agrees(r.kind, o.method) else None
        else:
            return None
    if found is None:
        return None
    if found[0] not in ("list", "create") and any(is_param(s) for s in prefix):
        # `/t/{id}/change-timestamp`, `/groups/{id}/actions/set_gateway`: the path already names
        # an item, the verb acts on it (a REST action); only a child collection reads as one
        return None
    r = noun_reading(style, found, prefix, seg)
    r.key = key
    r.self_key = self_key
    return r if agrees(r.kind, o.method) else None


def agrees(kind: str, method: str) -> bool:
    """The HTTP method must not contradict the name: a GET called a create, update or delete is a
    REST path that starts with such a word (`/new-releases`); a PATCH called `read` marks
    something read (`PATCH /comments/{id}/read`), it does not get it."""
    allowed = {"get": ("get", "list", "action"), "put": ("update", "create", "action"), "patch": ("update", "action"), "delete": ("delete",)}
    return kind in allowed.get(method, (kind,))


def fields_of(o: Any) -> list[tuple[str, Shape, bool, str]]:
    """(name, shape, required, where) of the body's properties and the query parameters."""
    out = []
    if o.body is not None and o.body.kind == "object":
        out += [(p, s, p in o.body.required, "body") for p, s in o.body.props.items() if not s.readonly]
    out += [(p.name, p.shape, p.required, "query") for p in o.params if p.where == "query"]
    return out


def key_candidates(o: Any, noun: str, self_key: bool = False) -> list[tuple[tuple, str, str]]:
    """The fields that may name one item, best first: `<Noun>Id`, `<Noun>Name`, `<Noun>Arn`,
    `<Noun>Key`, then `Id`, `Name`, `Arn`, `Key`, then the noun itself (`user`), then the noun's
    last words with a suffix (`JobDefinitionName` for a data quality job definition); required
    first. The query's `key` is an API key, not an item's. The noun itself only with `self_key`:
    elsewhere `status` or `password` is a value, not a key."""
    n = norm(noun)
    toks = noun.split("_")
    tails = [norm("".join(toks[i:])) for i in range(1, len(toks))]
    out = []
    for name, s, required, where in fields_of(o):
        if s.kind != "scalar" or s.type not in ("string", "integer"):
            continue
        k = norm(name)
        if where == "query" and k in ("key", "apikey"):
            continue
        tier = None
        for i, suf in enumerate(KEY_SUFFIXES):
            if k == n + suf:
                tier = (0, i)
            elif k == suf and tier is None:
                tier = (1, i)
        if tier is None and k == n and self_key:
            tier = (2, 0)
        if tier is None:
            tier = next(((3, i) for tail in tails for i, suf in enumerate(KEY_SUFFIXES) if k == tail + suf), None)
        if tier is not None:
            out.append(((0 if required else 1, *tier), name, where))
    return sorted(out)


def sole_key(o: Any, others: set[str]) -> list[tuple[tuple, str, str]]:
    """The one required id-like field of an operation none of whose fields is named for its noun:
    Inspector2's `POST /members/get {accountId}` gets the member whose account id it is (AWS
    keys members by account), `POST /members/disassociate {accountId}` acts on it. Only where
    exactly one required field ends as a key does (`Id`, `Name`, `Arn`, ...), and its stem names
    no other collection of the API (a `dashboardId` of `/widgets/update` names the dashboard the
    widget is on, not the widget)."""
    found = []
    for name, s, required, where in fields_of(o):
        k = norm(name)
        if not required or s.kind != "scalar" or s.type not in ("string", "integer") or where == "query" and k in ("key", "apikey"):
            continue
        suf = next((x for x in KEY_SUFFIXES if k.endswith(x) and len(k) > len(x)), None)
        if suf is not None:
            found.append((name, where, k[: -len(suf)]))
    if len(found) != 1 or found[0][2] in others or found[0][2] + "s" in others:
        return []
    return [((0, 4, 0), found[0][0], found[0][1])]


def choose_keys(plans: list[tuple[Any, Reading]], colls: frozenset[str] = frozenset()) -> dict[int, str | None]:
    """One key per collection where the API agrees: the one its get uses, else the commonest;
    an operation without it keeps its own best field, or its sole id-like field (`sole_key`)."""
    nouns = {norm(r.noun) for _, r in plans} | {norm(r.coll) for _, r in plans} | colls
    cands = {}
    for o, r in plans:
        if r.key is None and r.kind not in ("create", "list") and not r.keyed_by_path:
            cands[id(o)] = key_candidates(o, r.noun, r.self_key) or sole_key(o, nouns - {norm(r.noun), norm(r.coll)})
    by_coll: dict[str, list[tuple[Any, Reading]]] = {}
    for o, r in plans:
        by_coll.setdefault(norm("/".join(r.prefix + [r.coll])), []).append((o, r))
    out: dict[int, str | None] = {}
    for group in by_coll.values():
        firsts = [norm(cands[id(o)][0][1]) for o, r in group if cands.get(id(o))]
        gets = [norm(cands[id(o)][0][1]) for o, r in group if r.kind == "get" and cands.get(id(o))]
        want = gets[0] if gets else Counter(firsts).most_common(1)[0][0] if firsts else None
        for o, r in group:
            if r.key is not None or id(o) not in cands:
                continue
            got = cands[id(o)]
            same = next((name for _, name, _ in got if norm(name) == want), None)
            out[id(o)] = same or (got[0][1] if got else None)
    return out


def normalize_ops(ops: list, make_param: Callable[..., Any]) -> None:
    """Rewrite each recognised RPC operation in place (`segs`, `method`, `params`, `body`, and
    `response` for a get whose item sits in a property named after the noun); `make_param(name,
    where, shape, required, description)` builds a parameter. Others are left as they are."""
    plans = []
    colls = google_collections(ops)
    for o in ops:
        r = read_aws(o) or read_google(o, colls) or read_custom_list(o) or read_generic(o)
        if r is not None and r.kind in ("get", "update", "delete", "action") and not r.keyed_by_path and r.key is None and not key_candidates(o, r.noun, r.self_key):
            r = owner_reading(o, r) or r
        if r is not None:
            plans.append((o, r))
    # every word a path of the API names a collection by (`/tracks/{id}`): a `trackId` names a
    # track wherever it is, never the item of `track.lyrics.get`
    colls = frozenset(norm(singular(x)) for o in ops for seg in o.segs if not is_param(seg) for x in [re.split(r"[.:#]", seg)[0]] if x)
    keys = choose_keys(plans, colls | frozenset(w + "s" for w in colls))
    for o, r in plans:
        key = r.key if r.key is not None else keys.get(id(o))
        if key is not None and r.key is None and any(is_param(s) and pname(s) == key for s in o.segs):
            key = None  # already a parameter of the path's prefix (`/{QueueName}/#Action=...`)
        if r.kind == "action" and r.verb in _STARTS_ONE and key is not None and r.key is None and not any(name == key and required for name, _, required, _ in fields_of(o)):
            # a start whose item the caller may leave unnamed starts a new one: Step Functions'
            # `StartExecution {stateMachineArn, name?}` runs a state machine as a new execution.
            # Read as an action on the execution its `name` names, a task deleted an
            # execution's state machine and then "started that execution" (a fresh draw, stop 74)
            r, key = replace(r, kind="create"), None
        apply(o, r, key, make_param)


# verbs that begin something new when the call names no existing item (`normalize_ops`)
_STARTS_ONE = frozenset({"start", "run", "launch", "submit", "execute"})


def owner_reading(o: Any, r: Reading) -> Reading | None:
    """`GetRepositoryPolicy(repositoryName)`: no field names a repository policy, but one names
    the repository that holds it, so the operation is an action on that repository."""
    toks = r.noun.split("_")
    for i in range(len(toks) - 1, 0, -1):
        head = "_".join(toks[:i])
        if any(tier[1] == 0 for tier, _, _ in key_candidates(o, head)):
            rest = "_".join(toks[i:])
            return replace(r, kind="action", verb=f"{r.verb}_{rest}", noun=head, coll=plural(head), plural_noun=False, reads=r.kind == "get")
    return None


def apply(o: Any, r: Reading, key: str | None, make_param: Callable[..., Any]) -> None:
    kind = r.kind
    if kind == "get" and key is None:
        if not r.plural_noun:
            return  # one thing with no name to find it by: the API's own shape says no more
        kind = "list"  # `DescribeClusters`: many at once
    if kind in ("update", "delete") and key is None:
        return
    base = r.prefix + [r.coll]
    extra = ""
    if kind == "create":
        segs, method = base, "post"
    elif kind == "list":
        segs, method = base, "get"
    elif kind == "get":
        segs, method = base + ["{" + key + "}"], "get"
    elif kind == "update":
        segs, method = base + ["{" + key + "}"], "put" if o.method == "put" else "patch"
    elif kind == "delete":
        segs, method = base + ["{" + key + "}"], "delete"
    else:
        segs = base + (["{" + key + "}"] if key else []) + [":" + r.verb]
        method = "get" if r.reads else o.method
    for p in o.params:
        if p.where == "path" and p.name in r.to_query:
            p.where, p.required = "query", False  # a parent in a resource name: not modelled, kept as a filter
    if key is not None and r.key is None:
        take_key(o, key, make_param)
    if kind == "list" and o.body is not None and o.body.kind == "object" and o.body.props:
        body_to_query(o, make_param)
        extra = " (its body's fields as query parameters)"
    if kind == "get":
        extra = item_response(o, r, key) or extra
    o.wire_method = o.wire_method or o.method
    o.method = method
    o.segs = segs
    o.read_as = f"{r.style} read as {method.upper()} /{'/'.join(segs)}{extra}"


def take_key(o: Any, key: str, make_param: Callable[..., Any]) -> None:
    """The item's key becomes a path parameter, out of the body or the query."""
    q = next((p for p in o.params if p.where == "query" and p.name == key), None)
    if q is not None:
        q.where, q.required = "path", True
        return
    body = o.body
    s = body.props[key]
    rest = {p: x for p, x in body.props.items() if p != key}
    o.params.append(make_param(key, "path", s, True, s.description))
    o.body = replace(body, props=rest, required=set(body.required) - {key}) if rest else None


def body_to_query(o: Any, make_param: Callable[..., Any]) -> None:
    """A list's body names its filters: they become query parameters, as a REST list has them."""
    body = o.body
    taken = {p.name for p in o.params}
    for prop, s in body.props.items():
        if not s.readonly and prop not in taken:
            o.params.append(make_param(prop, "query", s, prop in body.required, s.description))
    o.body = None


def item_response(o: Any, r: Reading, key: str) -> str:
    """A get's item: `DescribeClusterResponse {Cluster: {...}}` holds it in the property named after
    the noun; a response schema named after the operation (`DescribeArtifactResponse`) is the
    noun's record (`Artifact`). Returns the words for the note."""
    s = o.response
    if s is None or s.kind != "object":
        return ""
    note = ""
    k = norm(key)
    if k not in {norm(p) for p in s.props}:
        n = norm(r.noun)
        for p, inner in s.props.items():
            if inner.kind == "object" and norm(p) in (n, n + "description", n + "detail", n + "details", n + "info") and k in {norm(x) for x in inner.props}:
                s, note = inner, f" (the {r.noun.replace('_', ' ')} in its {p})"
                break
    if s.name and r.name and norm(s.name).startswith(norm(r.name)):
        s = replace(s, name=pascal(r.noun))
    o.response = s
    return note


def show_readings(ops: list, services: dict) -> None:
    """What each rewritten operation was read as, in its tool's comment and the report's reason."""
    tools = {f"{name}.{t.name}": t for name, svc in services.items() for t in svc.tools}
    for o in ops:
        if not getattr(o, "read_as", ""):
            continue
        t = tools.get(o.tool)
        if t is not None:
            t.comments.insert(1, o.read_as)
        o.why = f"{o.why}; {o.read_as}" if o.why else o.read_as
