"""The world model for operations whose effect the importer cannot infer (docs/import.md, "The world
model for what cannot be inferred"; docs/decisions.md D37), written into the `.world` file as
ordinary DSL: a write on a row records its call in a table of that operation's calls, and a read
on a row returns what the state holds about it. It never invents an effect: an operation with no
row of its own service to hang on (no key argument), or a read whose answer the state does not
hold, stays `simulated`, and every modelled tool says in a comment what is not modelled.

This module is the importer's helper: it reads the importer's resources and declares records and
tables through it; it does not decide what is CRUD (openapi.py does)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from ..check.types import PRIMITIVES
from ..vocab import norm as _norm
from .ops import DOTNET, ITEM_WRAPPERS, MAX_FIELDS, after_other_collection, flattened, is_param, page_token, pattern, pname
from .common import NUMBER_TYPES, _names_noun, _plain_words, _said_as, ROW, VAGUE_KEYS, _tokens, clean_schema_name, drawn_values, FieldIR, Names, ParamIR, RecordIR, TableIR, ToolIR, article, lit, naming, pascal, plural, safe, singular, snake, unique, words
from . import resources

WRITES = ("post", "put", "patch", "delete")
KEYLESS_WRITES = ("put", "patch", "delete")  # writes by their method alone: a batch write on a collection
_PARAM = re.compile(r"\{[^{}]+\}")  # a path parameter in a segment, as openapi.is_param reads it
# path segments after a row's that name a view of the same row, not another thing
VIEW_WORDS = {"details", "detail", "info", "summary", "full", "json", "raw", "view", "overview", "preview", "status", "state", "metadata", "meta"}
# property names any object has: sharing them says nothing about being the same row
GENERIC = {"id", "name", "title", "description", "self", "type", "kind", "object", "url", "uri", "href", "link", "links", "email", "etag", "version", "recordtype",
           "created", "updated", "createdat", "updatedat", "offset", "limit", "page", "hasmore", "next", "previous", "nexturi", "previousuri",
           "startposition", "endposition", "resultsetsize", "totalsetsize", "expires", "expiresat", "expiry", "expiration"}
# an operation's first word that says it changes something (`SendMessage`, "Creates a user").
# Words that run or compute (`run`, `execute`, `invoke`, `generate`, `process`, `sync`) say
# neither: `RunQuery` reads. Not `post` or `put`, which only repeat the method.
WRITE_VERBS = frozenset("""
    create add insert new register upsert save store write send submit publish reply forward resend notify
    update modify set edit change patch replace rename move copy mark flag tag untag label
    delete remove destroy purge clear cancel revoke void discard dismiss drop
    start stop restart pause resume suspend unsuspend terminate reboot shutdown reset retry rotate renew extend regenerate
    enable disable activate deactivate register unregister deregister enroll unenroll subscribe unsubscribe
    upload import attach detach assign unassign associate disassociate link unlink share unshare invite join leave
    approve reject accept decline confirm complete close reopen acknowledge ack resolve capture amend reorder abort append shuffle
    archive unarchive restore lock unlock block unblock ban unban mute unmute follow unfollow like unlike star unstar
    pin unpin favorite unfavorite vote rate review comment
    grant allocate deallocate release reserve book order pay charge refund transfer schedule reschedule
    install uninstall deploy undeploy provision deprovision upgrade downgrade migrate increment decrement
""".split())
READ_WORDS = frozenset("""
    get list search find lookup query describe read fetch retrieve show view browse count check validate verify
    test calculate compute estimate convert translate detect analyze analyse predict preview parse extract
    classify recognize recognise summarize evaluate export download render lookup poll infer
""".split())
_MAKES_FILES = frozenset({"extract", "export", "download"})  # posted, they write files (`POST /resources/extract`)
VALUE = "value"  # answer_shape's mark for an answer that is one scalar value, not an object
FILE_FORMATS = {"uri", "url", "binary", "byte", "base64", "uri-reference", "iri"}
ROW_NAME = "new_"  # the inserted call; never a parameter's name (openapi.py reserves it)
ANSWER = "a_"  # the row an answered read's filter binds; never a parameter's name (openapi.py reserves it)
ANSWER_EACH = 16  # rows of a table answered once per record: more than any imported table is seeded with (8..16)
# what the world model makes of an operation (OpReport.kind): a recorded write, a read derived
# from a row, a read looked up in a table of answers
MODEL_KINDS = ("recorded", "derived", "answered")


@dataclass(frozen=True)
class DerivedRead:
    """What a read on one row returns from the state: the row itself (`fields` empty), or a
    record of the response's properties that the row holds."""

    result: str
    fields: tuple[str, ...] = ()
    left: tuple[str, ...] = ()  # response properties not read from the row




def _after_item(segs: list[str], coll_segs: list[str]) -> list[str]:
    """The path's segments after the row's (`/quotes/{id}/details` → `[details]`), compared as
    openapi.pattern does (parameters alike, case ignored); [] for a path not under the row."""
    def shape(seg: str) -> str:
        return "{}" if _PARAM.search(seg) else seg.lower()

    n = len(coll_segs) + 1
    if len(segs) < n or [shape(x) for x in segs[:n]] != [shape(x) for x in coll_segs] + ["{}"]:
        return []
    return segs[n:]


def own_key(r: Any, info: dict) -> str | None:
    """The parameter that names a row of the operation's own table (its service can check it)."""
    if r is None:
        return None
    return next((name for name, t, res in info.values() if res is r and t == r.alias), None)


def _leaf_paths(shape: Any, prefix: str = "", depth: int = 0) -> list[str]:
    """Property paths as the importer's records name them in `FieldIR.src`: small nested objects
    are flattened (`start.dateTime`), as `TypeMapper.flatten` does for a table's record."""
    out = []
    for prop, ps in shape.props.items():
        path = f"{prefix}.{prop}" if prefix else prop
        if ps.writeonly:
            continue
        if ps.kind == "object" and depth < 2 and 0 < len(ps.props) <= 8 and all(x.kind in ("scalar", "object", "array") for x in ps.props.values()):
            out += _leaf_paths(ps, path, depth + 1)
        else:
            out.append(path)
    return out


def _verb(word: str) -> str:
    """A summary's third-person verb as its operation id writes it (`Creates` → create)."""
    word = word.lower()
    for cut in ("ies", "es", "s"):
        if word.endswith(cut):
            stem = word[: -len(cut)] + ("y" if cut == "ies" else "")
            if stem in WRITE_VERBS or stem in READ_WORDS:
                return stem
    return word


def _split_words(text: str) -> list[str]:
    """`CheckNameAvailability`, `get_air_quality` → lower-case words."""
    return [t.lower() for t in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", text)]


def _name_words(o: Any) -> list[str]:
    """The words of an operation's id (a Google id's last part, an AWS action's name), lower case."""
    if not o.op_id or "/" in o.op_id:
        return []
    part = [p for p in re.split(r"[.#=]", o.op_id) if p]
    return _split_words(part[-1] if part else "")


_BATCH = {"batch", "bulk"}  # `BatchGetImage` gets images: the verb is the next word


def first_verb(o: Any) -> str:
    """The verb an operation is named by: the first of these that is a known verb (a write verb
    or a read word): a .NET-style id's action after its last underscore
    (`Location_CheckNameAvailability`), the operation id's first word (after `Batch` or `Bulk`),
    the summary's first word, the last path segment's first word (`/users/searches`, EPA's
    `/dfr_rest_services.get_air_quality`), a later word of a non-GET's id (`networkUnblock`). A
    `GET`'s write verb counts only from its id's first word or its summary. Else the id's first
    word, or the summary's when the id only repeats the method; '' when there is none."""
    def first(ws: list[str]) -> str:
        ws = ws[1:] if len(ws) > 1 and ws[0] in _BATCH else ws
        return _verb(ws[0]) if ws else ""

    ids = _name_words(o)
    action = _split_words(o.op_id.rsplit("_", 1)[-1]) if o.op_id and DOTNET.fullmatch(o.op_id) else []
    summary = re.findall(r"[A-Za-z]+", o.summary or "")[:2]
    seg = re.sub(r"\.(json|xml|ya?ml|csv|txt|html?|jsp|php)$", "", o.path.rsplit("/", 1)[-1].split("#")[0].split("{")[0])
    last = _split_words(seg.rsplit(".", 1)[-1])  # EPA's `dfr_rest_services.get_air_quality`: the part after the dot
    # `networkUnblock`: a verb after a noun; not for a `GET`, whose later words are more often
    # nouns that are verbs too (Kubernetes' `watchAppsV1NamespacedStatefulSet` sets nothing)
    later = [_verb(w) for w in ids[1:]] if o.method != "get" else []
    # a `GET` is a read unless its id or summary says otherwise: a write verb found in its .NET
    # action or its path is more often a noun (`Prediction_Resolve2`, `/charge-metrics`)
    firm = [first(ids), first([w.lower() for w in summary])]
    for verb in [first(action), *firm, first(last), *later]:
        if verb in READ_WORDS or verb in WRITE_VERBS and (o.method != "get" or verb in firm):
            return verb
    named = first(ids)
    return named if named and named not in ("post", "put", "patch") else first([w.lower() for w in summary]) or named


CREATES = {"create", "add", "insert", "new", "register", "upsert"}


def writes_by_name(o: Any) -> bool:
    """An operation that is a write by what it is called, not only by its method: a `PUT`,
    `PATCH` or `DELETE` whose name is no read, or a `POST` whose name's verb changes something
    (`SendMessage`, "Creates a user"). A `POST` named so that it may read (`LookupEvents`, `POST
    /sentiment`, `RunQuery`, no name at all) is not."""
    verb = first_verb(o)
    if o.method in KEYLESS_WRITES:
        return verb not in READ_WORDS
    return o.method == "post" and verb in WRITE_VERBS


def records(o: Any, r: Any, info: dict, params: list[ParamIR] = (), keys: frozenset[str] = frozenset()) -> bool:
    """A write the importer could not infer whose call is recorded: on a row of its own table;
    or, none of whose `params` has a type or a name in `keys` (the resources' key types and their
    keys' names, `articleid`),
    - a `PUT`, `PATCH` or `DELETE` on a resource's whole collection (a batch write: `DELETE
      /images`, `PUT /articles/status`);
    - a write no resource owns that is a write by its name (`writes_by_name`: `POST /sms/send`
      named SendSms, `PUT /settings`), recorded in the service of the API's other operations.
    Stays simulated:
    - a `POST` on no row that its name does not call a write: RPC APIs post their reads and
      computations too (`LookupEvents`, `POST /sentiment`), and recording one would make a task
      call a read for its own sake;
    - a write that names a row it cannot require (another service's, or its own by a body
      field): recording it would accept a call on a row that does not exist."""
    if o.method not in WRITES:
        return False
    if own_key(r, info) is not None:
        return True
    if any(p.type in keys or _norm(p.name) in keys for p in params):
        return False
    return o.method in KEYLESS_WRITES if r is not None else writes_by_name(o)




def row_names(x: Any) -> set[str]:
    """The names an argument naming a row of resource `x` goes by: `deviceId`, and its key
    property when that is telling (`sku`, not a bare `id` or `name`), or with the noun before it
    (`AppMonitorName` for an app monitor keyed by its `Name`). The nouns are the table's, the
    record's and the collection's word (Highways England's `/sites` hold `SiteResult`s: a
    `site_id` names one, as `OpenAPIImporter.link_references` reads a field so named)."""
    nouns = {_norm(singular(x.table)), _norm(x.name)}
    if x.coll_segs and "{" not in x.coll_segs[-1]:
        nouns.add(_norm(singular(snake(x.coll_segs[-1]))))
    nouns.discard("")
    key = _norm(x.key_prop)
    # (a Google `path`, the resource name of whatever the call is on, is as bare as `name`:
    # Tag Manager's `{path}:set_latest` of a container version was read as on a user permission,
    # the one resource keyed by its `path`; "set latest accounts containers versions of the new
    # user permission", a fresh draw of stop 67)
    # (and Trello's `idOrganization`, the id before its noun: a board was added "with ID
    # organization "Orion Analytics"", an organization's name as text, blind round 52)
    return {n + "id" for n in nouns} | {"id" + n for n in nouns} | ({key} - VAGUE_KEYS - {"path", ""}) | ({n + key for n in nouns if not key.startswith(n)} if key else set())


def _names_as_key(src: str, x: Any) -> bool:
    """Does a property of an answer (its source path) name a row of resource `x`: named as one
    of `row_names`, and, where it is the key of a nested object named as another thing, that
    thing is `x` (Search Ads 360's rows hold `adGroupAd.resourceName`, the resource name of an
    ad group ad, not of the search ads 360 field keyed by `resourceName`: every answer referred
    to one, a fresh draw of stop 74)."""
    parts = [p for p in src.split(".") if p]
    if not parts or _norm(parts[-1]) not in row_names(x):
        return False
    owner = next((_norm(p) for p in reversed(parts[:-1]) if _norm(p) not in ITEM_WRAPPERS), "")
    key, nouns = _norm(x.key_prop), {_norm(singular(x.table)), _norm(x.name)}
    # (a key named after its thing names it wherever it sits: Chime's `ChannelSummary.ChannelArn`)
    if not owner or _norm(parts[-1]) != key or any(key.startswith(n) for n in nouns if n):
        return True
    return owner + key in row_names(x) or owner in nouns


def named_row(imp: Any, o: Any, r: Any, info: dict, params: list[ParamIR]) -> tuple[str, Any] | None:
    """(parameter, resource) when exactly one argument of an operation with no key of its own
    table names a row of exactly one resource: a path parameter typed as a resource's key by
    its place (a parent) or its name (`/devices/{deviceId}/reboot` where no resource owns the
    path), a query or body argument named as a resource's key (`deviceId`, `device_id`, a key
    property such as `sku` that is not a bare `id` or `name`), or a query or body argument
    named as the key of the resource whose collection the path is (YouTube's `DELETE
    /captions?id=`). None when none does, or more than one does (which row the call is on
    would be a guess)."""
    found: dict[str, dict[int, Any]] = {}  # parameter → the resources it may name, by id (a Resource is not hashable)
    for spec_name, (name, t, res) in info.items():
        if res is None or t != res.alias:
            continue
        parent = r is not None and any(x is res for _, x in r.parents)
        if not parent and _norm(spec_name) not in row_names(res):
            # typed by whichever resource calls its item so, not by its place or its name (a
            # bare `{Name}` in CloudTrail's StartLogging is a trail's, not the channel's; Jira's
            # `/workflow/{entityId}` is no avatar's): it names a row, but which is a guess
            return None
        found.setdefault(name, {})[id(res)] = res
    # a text path parameter may still be named as a key (`/rummetrics/{AppMonitorName}/metrics`),
    # unless a path parameter typed by its place names the row already (`/whatsapp_media/
    # {whatsapp_user_id}/{media_id}` is on the user's row, whatever `media_id` is named as)
    path_names = {name for name, t, res in info.values() if res is not None or found}
    on_path = bool(found)
    for p in params:
        if p.name in path_names or (on_path and p.default is not None):
            # an optional reference beside the row the path names is an argument, not a second
            # row (Twilio's number bought under `/Accounts/{AccountSid}` may name an `AddressSid`)
            continue
        n = _norm(p.name)
        spec_name = next((sn for sn, (name, _, _) in info.items() if name == p.name), None)
        for x in imp.resources:
            if n in row_names(x) and not (spec_name is not None and after_other_collection(o.segs, spec_name, x)):
                found.setdefault(p.name, {})[id(x)] = x
        if r is not None and n == _norm(r.key_prop) and pattern(o.segs) == r.coll:
            found.setdefault(p.name, {})[id(r)] = r
    in_path = {name for name, t, res in info.values()}
    if len(found) > 1 and set(found) <= in_path and all(len(v) == 1 for v in found.values()):
        # a path through a row's parents names each of them (`/appcollections/{appCollection}/
        # apps/{appName}/devices/exportTasks/activities`): the call is on the deepest row, the
        # others are where it sits. Not so for body arguments: a transfer's customer and quote
        # are two rows, whatever the quote's customer
        one = {n: next(iter(v.values())) for n, v in found.items()}
        # the row every other one is above
        deepest = [n for n, x in one.items() if all(m == n or any(a is y for a in _ancestors(x)) for m, y in one.items())]
        if len(deepest) == 1:
            found = {deepest[0]: found[deepest[0]]}
    if len(found) != 1:
        return None
    ((name, res),) = found.items()
    if len(res) != 1:
        return None
    (x,) = res.values()
    words_ = _name_words(o)
    if first_verb(o) in CREATES and _norm("".join(words_[1:])) in (_norm(singular(x.table)), _norm(x.name), _norm(x.noun)):
        return None  # `CreateChannel` with the channel's `Name`: the key of the row it makes, not of one that is there
    return name, x


def _ancestors(x: Any) -> list[Any]:
    """The resources above `x`: its parents, theirs, and so on (never `x` itself)."""
    out: list[Any] = []
    todo = [p for _, p in x.parents if p is not None]
    while todo:
        p = todo.pop()
        if p is x or any(p is q for q in out):
            continue
        out.append(p)
        todo += [q for _, q in p.parents if q is not None]
    return out


def derived_read(imp: Any, o: Any, r: Any, info: dict) -> DerivedRead | None:
    """A GET on one row that is a view of that row: the tool returns it, or the fields of it the
    response names, from the state. Same field names are not the same row (the draft of a quote
    is another quote, its owner has a name of its own), so it is derived only when
        - the response is the row's own record and the path ends in a view word (`/details`,
          `/json`), or
        - at least half of the response is fields of the record, one besides the key that is
          neither generic (`name`, `url`, paging) nor JSON text, no path parameter follows the
          row's, and either the path ends in a view word or the response has no id of its own.
    Anything else (a file, a URL, another object, a computed figure) the state does not hold.
    Names the result record (declared by `modelled`) once per operation."""
    if o.method != "get" or not o.has_response or own_key(r, info) is None:
        return None
    got = imp.unwrap_item(o.response)
    if got is None or got.kind != "object" or not got.props:
        return None
    tail = _after_item(o.segs, r.coll_segs)
    if any(_PARAM.search(seg) for seg in tail):
        return None  # about the row and another thing (`/versions/{v}`)
    view = bool(tail) and all(_norm(seg) in VIEW_WORDS for seg in tail)
    if got.name and got.name == r.shape.name:
        return DerivedRead(r.name) if view else None
    paths = _leaf_paths(got)
    by_src = {f.src: f for f in r.record.fields if f.src}
    held = [by_src[p] for p in paths if p in by_src]
    telling = [f for f in held if f.name != r.key_field and not f.json and _norm(f.src.split(".")[-1]) not in GENERIC]
    if not telling or 2 * len(held) < len(paths):
        return None
    own_id = any(_norm(p) in ("id", "uid", "uuid", "guid", "key") or _norm(p).endswith("id") for p in got.props)
    if not view and own_id:
        return None
    if {f.name for f in held} == {f.name for f in r.record.fields}:
        return DerivedRead(r.name)
    # not named a view: a generic property (`url`, `name`) may be the other object's, so only the
    # telling ones are read from the row
    kept = held if view else telling
    name = imp.type_name(got.name if got.name else f"{imp.fallback_name(o, r)}_result")
    return DerivedRead(name, tuple(f.name for f in kept), tuple(p for p in paths if p not in {f.src for f in kept}))


def _key_said_as_the_row(say: str | None, name: str, noun: str) -> str | None:
    """A phrase that gives the row's key as a value ("delete captions with id {id}", YouTube's
    `DELETE /captions?id=`, whose summary "Deletes a resource" names nothing) says the row:
    "delete caption {id}", where the verb's object is the row's plural, else "... for caption
    {id}"; so does "update captions for caption {id}". A task read "delete captions with the
    caption with ..." (a fresh draw, stop 72)."""
    if say is None:
        return say
    # ("update captions for caption {id}": the verb's object and the row said twice)
    say = re.sub(rf"\b{re.escape(plural(noun))} for {re.escape(noun)} (\{{{re.escape(name)}\}})", rf"{noun} \1", say)
    item = rf" with {re.escape(words(name))} \{{{re.escape(name)}\}}(?= and |$)"
    for pat, row in ((rf"\b{re.escape(plural(noun))}{item}", f"{noun} {{{name}}}"), (item, f" for {noun} {{{name}}}")):
        if (m := re.search(pat, say)) is not None:
            rest = say[m.end() :]
            return say[: m.start()] + row + (" with " + rest[len(" and ") :] if rest else "")
    return say


def modelled(imp: Any, o: Any, r: Any, sim: ToolIR, info: dict, derived: DerivedRead | None) -> ToolIR | None:
    """The ordinary tool that replaces the simulated one `sim` (its name, parameters and phrases
    are kept), or None when the operation stays simulated. Sets `o.kind` to `recorded` or
    `derived`."""
    key = own_key(r, info)
    if key is None:
        hit = named_row(imp, o, r, info, sim.params) if o.method in WRITES and writes_by_name(o) else None
        if hit is not None:  # a write on a row its argument names: recorded in that row's service
            name, home = hit
            o.home = home
            # the row is required, so the words say which one (`pause playback for device {device_id}`)
            say = sim.say if sim.say is None or f"{{{name}}}" in sim.say else f"{sim.say} for {home.noun} {{{name}}}"
            say = _key_said_as_the_row(say, name, home.noun)
            sim = replace(sim, say=say, params=[replace(p, type=home.alias, default=None) if p.name == name else p for p in sim.params])
            # the row must sit where the path says (the app in its app collection)
            where = imp.parent_checks(home, info, name) if pattern(o.segs[: len(home.coll_segs) + 1]) == home.item else []
            return _recorded_tool(imp, o, home, sim, [imp.check_key(home, name), *where, *same_row_checks(imp, home, name, sim.params)], (name, _sets(o, home, name, sim.params)))
        if not records(o, r, info, sim.params, imp.key_types()):
            return None
        return _recorded_tool(imp, o, r, sim, [])
    checks = [imp.check_key(r, key), *imp.parent_checks(r, info, key)]
    if derived is not None:
        return _derived_tool(imp, o, r, sim, key, checks, derived)
    if o.method in WRITES:
        path = {name for name, _, _ in info.values()}  # (a parent's, checked by `parent_checks`)
        sim = replace(sim, params=row_typed(r, key, sim.params, path))
        return _recorded_tool(imp, o, r, sim, [*checks, *same_row_checks(imp, r, key, [p for p in sim.params if p.name not in path])], (key, _sets(o, r, key, sim.params, path)))
    return None


def row_typed(home: Any, key: str, params: list[ParamIR], skip: set[str] = frozenset()) -> list[ParamIR]:
    """`params` with a required text identifier named as a reference of the row `key` names typed
    as that reference (AWS Budgets' `ExecuteBudgetAction {ActionId, BudgetName, ...}`: the
    action's own budget, a `BudgetId`, which `same_row_checks` then holds to the action's). As
    text, a task executed an action with budget name "arn:aws:...:definition-policy/...", another
    field's value."""
    if home.record is None:
        return params
    refs = [f for f in home.record.fields if f.ref and not f.key]
    out = []
    for p in params:
        # the reference of the same name, or the one whose name ends in the argument's (SES's
        # `PutConfigurationSetDeliveryOptions {SendingPoolName}` names the set's
        # `delivery_options_sending_pool_name`, a pool: as text, a task "associated the
        # configuration set with a dedicated IP pool" and named none); an optional one stays
        # optional, blank unless given
        same = [f for f in refs if _norm(f.name) == _norm(p.name)] or [f for f in refs if "_" in p.name and f.name.endswith("_" + p.name)]
        f = same[0] if len(same) == 1 else None
        typed = p.name != key and p.name not in skip and p.default in (None, '""') and p.type == "text" and f is not None and _names_ref(p.name, f)
        out.append(replace(p, type=f.type) if typed else p)
    return out


def _derived_tool(imp: Any, o: Any, r: Any, sim: ToolIR, key: str, checks: list[str], d: DerivedRead) -> ToolIR:
    row = f"{r.table}[{key}]"
    if not d.fields:
        ret = row
        what = f"the {r.noun} itself (the response is its record)"
    else:
        fields = [replace(r.record.field(n), key=False, comments=[]) for n in d.fields]
        rec = RecordIR(d.result, fields, comments=[f"what {o.label} returns, read from the {r.noun} it names (a result, not stored in a table)"])
        imp.service_for(r.service, "").records.append(rec)
        ret = f"{d.result}(" + ", ".join(f"{n}: {row}.{n}" for n in d.fields) + ")"
        what = "the fields of the response the " + r.record.name + " record has"
    comments = [f"{o.label}: derived", f"world model: returns what the state holds about the {r.noun} it names: {what}"]
    if d.left:
        comments.append("response properties not read from the row, left out: " + ", ".join(d.left[:15]) + (", ..." if len(d.left) > 15 else ""))
    comments += sim.comments[1:]
    o.kind = "derived"
    return replace(sim, result=d.result, body=[*checks, f"return {ret}"], simulated=False, comments=comments)


def _sets(o: Any, home: Any, key: str, params: list[ParamIR], skip: set[str] = frozenset()) -> list[tuple[str, str]]:
    """(argument, field) for each field of the row a recorded change names that the call's
    arguments set, where the name says so: HDInsight's `RotateDiskEncryptionKey {keyName,
    keyVersion, vaultUri}` sets the cluster's `properties_disk_encryption_properties_key_name`
    and the rest, so a read after it shows the new key, where a blind player re-read the
    cluster, saw the old one and was unsure the call had worked. Only for a verb that changes
    a thing that is there (`ON_EXISTING`, not a delete), a field of the argument's type named
    as it is or ending in `_<argument>` (one such field; an argument of one word only by its
    own name: `type` is no `properties_kind_type`), not the key, a read-only field or JSON; a
    text argument left blank keeps the field (so does a reference's, `row_typed`), another type
    only where the call must give it.
    AWS's `Put...` on one row sets what it names too (SES's `PutDedicatedIpPoolScalingAttributes
    {ScalingMode}` on `/dedicated-ip-pools/{PoolName}/scaling`: the pool's `scaling_mode`, which
    a read after it showed unchanged), though `put` only repeats the method elsewhere."""
    verb = first_verb(o)
    if _name_words(o)[:1] == ["put"] and o.method in ("put", "post", "patch"):
        verb = "set"
    if home is None or home.record is None or verb not in ON_EXISTING or verb in _REMOVES:
        return []
    out, taken = [], set()
    for p in params:
        if p.name == key or p.name in skip or p.type.startswith("list[") or p.type != "text" and p.default not in (None, '""'):
            continue
        fields = [f for f in home.record.fields if not (f.key or f.readonly or f.json) and f.type == p.type and (f.name == p.name or "_" in p.name and f.name.endswith("_" + p.name))]
        if len(fields) == 1 and fields[0].name not in taken:
            taken.add(fields[0].name)
            out.append((p.name, fields[0].name))
    return out


def _recorded_tool(imp: Any, o: Any, r: Any, sim: ToolIR, checks: list[str], sets: tuple[str, list[tuple[str, str]]] | None = None) -> ToolIR:
    svc = imp.service_for(r.service, "") if r is not None else imp.misc()
    params, fields, notes = [], [], []
    # (not a path parameter: Azure's `{subscriptionId}` is the tenant's scope, not an API
    # Management subscription, and typed as one no walk could give it)
    on_path = {safe(snake(pname(seg))) for seg in o.segs if is_param(seg)}
    for p in sim.params:
        other = imp.resource_named(p.name) if p.type == "text" and p.default is None and p.name not in on_path else None
        if other is not None and other.record is not None and other.alias:
            # a required argument named as another resource's key holds one (Twitter's retweet
            # `{tweet_id}`): as text, a task retweeted "tweet ID "London"", another field's value;
            # as the key, the walk hands it a tweet the world holds, or one an earlier step found
            p = replace(p, type=other.alias)
        if p.type.startswith("list["):
            # a table's list field has no Z3 encoding: the call would make its table unsampleable
            notes.append(f"{p.name}: a list of {p.type.removeprefix('list[').removesuffix(']')} in the API, kept as comma-separated text")
            p = ParamIR(p.name, "text", None if p.default is None else '""', p.comment)
        params.append(p)
    # a row's other name, which the API takes instead of its key (Kinesis takes a `StreamName`
    # or a `StreamARN`): the key names the row, and the other, drawn from the state, named
    # another and was written on the row ("update shard count for the stream "Juniper stream",
    # with stream arn ".../stream/Northwind stream"", a fresh draw's task, stop 65)
    for named in [x for x in imp.resources if x.record is not None and any(p.type == x.alias for p in params)]:
        others = {_norm(f.name) for f in named.record.fields if not f.key and re.search(r"(?:arn|id|identifier)$", _norm(f.name))}
        dropped = [p for p in params if p.type == "text" and p.default is not None and _norm(p.name) in others]
        params = [p for p in params if p not in dropped]
        notes += [f"{p.name}: the {named.noun}'s other name, which the API takes instead of its key: left out" for p in dropped]
    fields += [FieldIR(p.name, p.type, "text") for p in params]
    # tool names are unique, so `<tool>_calls` can only meet a resource's table or a parameter
    table = unique(f"{sim.name}_calls", Names((p.name for p in params), reserved=imp.reserved))
    imp.reserved.add(table)  # no later parameter may hide it
    key = unique("id", {f.name for f in fields})
    record = imp.type_name(f"{sim.name}_call")
    rec = RecordIR(record, [FieldIR(key, "id", "id", key=True), *fields], comments=[f"a call of {sim.name} ({o.label}): one row a call, so a task can check it was made"])
    svc.records.append(rec)
    svc.tables.append(TableIR(table, rec))
    assigns = ", ".join(f"{p.name}: {p.name}" for p in params)
    answers = o.has_response and o.response is not None
    # (and that its numbers are in the ranges the API declares, `range_check`; a number only: an
    # argument retyped as a key, by `row_typed` or as a resource's, is compared to none)
    types = {p.name: p.type for p in params}
    checks = [*checks, *(g for n, g in sim.guards.items() if types.get(n) in NUMBER_TYPES)]
    body = [*checks, f"let {ROW_NAME} = insert {table} {{ {assigns} }}" if answers else f"insert {table} {{ {assigns} }}"]
    by = {p.name: p for p in params}
    patched = [(a, f) for a, f in (sets[1] if sets else ()) if a in by and by[a].type == next(x.type for x in sim.params if x.name == a)]
    # and the status its verb leads to (`CancelChangeSet {ChangeSetId}` → the change set's
    # status `cancelled`): recorded alone, the change set stayed "preparing", and a blind player
    # asked for its status after the cancel could not tell which was meant (round 40, stop 65)
    moved = resources.status_member(imp, r, first_verb(o)) if sets and r is not None and sets[0] in by else None
    if moved is not None and any(f == moved[0].name for _, f in patched):
        moved = None
    if moved is not None and not patched:
        # a call that leads the row to the state it holds already is refused: recorded all the
        # same, it was a step a task could ask for with nothing to do (VTEX's "Deactivate the
        # warehouse ..." named an inactive one; the blind player made no call and failed, round
        # 43), and an agent could not tell the call had been needed
        label = words(moved[0].name).removeprefix("is ")
        body.insert(len(checks), f'require {r.table}[{sets[0]}].{moved[0].name} != {moved[1]} else conflict "the {r.noun} {{{sets[0]}}} is {_state_words(label, moved[1])}: {moved[2]} would change nothing"')
    if patched or moved:
        row = f"{r.table}[{sets[0]}]"
        parts = [f"{f}: if {a} == \"\" then {row}.{f} else {a}" if by[a].type == "text" or by[a].default == '""' else f"{f}: {a}" for a, f in patched]
        parts += [f"{moved[0].name}: {moved[1]}"] if moved else []
        body.append(f"update {row} {{ " + ", ".join(parts) + " }")
    if r is None:
        what = "it names no record the importer found, and what it does is not modelled"
    elif patched or moved:
        what = f"it sets the {r.noun}'s " + ", ".join([f for _, f in patched] + ([f"{moved[0].name} to {moved[1]} (the verb {moved[2]!r} leads to it)"] if moved else [])) + (" as the call gives them (a blank text keeps the field)" if patched else "") + "; what else it does is not modelled"
    elif checks:
        what = f"what it does to the {r.noun} is not modelled"
    else:
        what = f"it names no {r.noun}, and what it does to the {plural(r.noun)} is not modelled"
    comments = [f"{o.label}: recorded", f"world model: the call is recorded in {table}; {what}"]
    if answers:  # the agent gets the call's key, not the API's answer, which is not modelled either
        body.append(f"return {ROW_NAME}.{key}")
        comments.append("returns the key of the recorded call (what the API answers is not modelled)")
    comments += notes + sim.comments[1:]
    o.kind = "recorded"
    return replace(sim, params=params, result="id" if answers else None, gives=None, body=body, simulated=False, comments=comments)


def _state_words(label: str, value: str) -> str:
    """How a row's state reads in a message: `active` false → "not active", `status`
    `cancelled` → "cancelled"."""
    return label if value == "true" else f"not {label}" if value == "false" else words(value)


# verbs of a write on a thing that is there already (`DeleteSlackChannelConfiguration`,
# `UpdateWebhook`), not of one that makes, sends or joins something
ON_EXISTING = frozenset("""
    update modify set edit change patch replace rename move mark flag
    delete remove destroy purge clear cancel revoke void discard dismiss drop
    start stop restart pause resume suspend unsuspend terminate reboot shutdown reset rotate renew extend
    enable disable activate deactivate unregister deregister detach unassign disassociate unlink unshare
    approve reject accept decline confirm complete close reopen archive unarchive restore lock unlock
""".split())

# the endings of an argument's name that say it identifies something (`teamId`, `channel_arn`,
# Twilio's `AccountSid`), as `norm` writes them
_IDENTIFIERS = ("id", "key", "arn", "uuid", "guid", "sid")


def _names_a_row(name: str) -> bool:
    return _norm(name).endswith(_IDENTIFIERS)


def _names_ref(name: str, f: FieldIR) -> bool:
    """Does an argument of this name name the row that field `f` (of the same name) holds: an
    identifier, or a name where `f` is a reference (AWS Budgets' `BudgetName`)?"""
    return _names_a_row(name) or bool(f.ref) and _norm(name).endswith("name")


def same_row_checks(imp: Any, home: Any, key: str, params: list[ParamIR]) -> list[str]:
    """`require` that the other identifiers of a write recorded on the row `key` names are the
    row's own: a channel configuration keyed by its channel is deleted with its own team ID, not
    another team's (the call named no configuration the world holds). Only required arguments
    named as identifiers, of a field of the row's record of the same name and type."""
    if home.record is None:
        return []
    fields = {_norm(f.name): f for f in home.record.fields if not f.key}
    out = []
    for p in params:
        f = fields.get(_norm(p.name))
        if p.name != key and p.default is None and f is not None and _names_ref(p.name, f) and f.type == p.type:
            out.append(f"require {home.table}[{key}].{f.name} == {p.name} else not_found {lit(f'{home.noun} {{{key}}} has another {words(p.name)}')}")
    return out


_REMOVES = frozenset({"delete", "remove", "destroy", "purge", "discard", "drop"})


def _noun_of(text: str) -> str:
    """`SlackChannelConfigurations`, `slack channel configuration` → `slackchannelconfiguration`."""
    return _norm("".join(singular(w) for w in _split_words(text)))


def require_named_answers(imp: Any) -> None:
    """A recorded write on a thing that is there already, named by arguments that together are
    fields of the answers of a read of that thing, requires an answer row holding them: AWS
    Support App's `DeleteSlackChannelConfiguration(channelId, teamId)`, where a channel
    configuration is known by its channel and its team together, deletes one that
    `ListSlackChannelConfigurations` shows, not any channel ID with any team ID (a blind player
    failed a task fairly that named a channel of another team; no key names the row, so
    `named_row` finds none). The answers' record must be the thing the operation's name acts on
    (`delete` + `slack channel configuration`), in the same service, and hold each required
    identifier argument (`_names_a_row`) as a field of its name and type; the other arguments
    are what an update sets. A delete also removes the row from the answers; a create whose every
    argument is a field adds one, refused where one holds the identifiers the writes name it by
    (D52). Run after every tool is made (a read may come after the write in the spec)."""
    if not imp.answer_tables:
        return
    tools = {f"{name}.{t.name}": t for name, svc in imp.services.items() for t in svc.tools}
    identity: dict[str, list[str]] = {}  # table → the fields a write on one of its rows names it by
    # the writes on rows first, so a create knows what names the row it adds
    for o in sorted(imp.ops, key=lambda o: first_verb(o) in CREATES):
        words_ = _name_words(o)
        verb = first_verb(o)
        if o.kind != "recorded" or len(words_) < 2 or verb not in ON_EXISTING | CREATES or _verb(words_[0]) != verb:
            continue
        t = tools.get(o.tool)
        if t is None or not t.body or not t.body[0].startswith(("let ", "insert ")):
            continue  # on a row its key names already (the checks come first)
        svc = o.tool.split(".")[0]
        thing = _norm("".join(singular(w) for w in words_[1:]))
        # what names the thing: its required arguments that are identifiers (an update's other
        # required arguments are the values it sets, not the ones the row holds now)
        required = [p for p in t.params if p.default is None and _names_a_row(p.name)]
        for home, table, rec in imp.answer_tables:
            if home != svc or _noun_of(rec.name) != thing:
                continue
            fields = {_norm(f.name): f for f in rec.fields if not f.key}
            pairs = [(p, fields.get(_norm(p.name))) for p in required]
            if not pairs or any(f is None or f.type != p.type for p, f in pairs):
                continue
            conds = " and ".join(f"{ANSWER}.{f.name} == {p.name}" for p, f in pairs)
            said = " and ".join(words(p.name) for p, _ in pairs)
            noun = rec.noun or words(rec.name).lower()
            if verb in CREATES:
                # a new one the read will show, when every argument is a field of it: not one
                # there is already (the same required values)
                every = [(p, fields.get(_norm(p.name))) for p in t.params]
                if any(f is None or f.type != p.type for p, f in every):
                    continue
                what = f"the new {noun} is added to {table} (the rows the read answers)"
                ident = [(p, f) for p, f in every if f.name in identity.get(table, ())]
                if ident and len(ident) == len(identity[table]):
                    # not one there is already: the fields the writes on one name it by
                    same = " and ".join(f"{ANSWER}.{f.name} == {p.name}" for p, f in ident)
                    by = " and ".join(words(p.name) for p, _ in ident)
                    t.body.insert(0, f"require not exists({ANSWER} in {table} where {same}) else conflict {lit(f'a {noun} with that {by} exists already')}")
                    what += f", unless one has its {by} already"
                t.body.insert(1 if ident else 0, f"insert {table} {{ " + ", ".join(f"{f.name}: {p.name}" for p, f in every) + " }")
                t.comments.insert(2, what)
                break
            identity.setdefault(table, [f.name for _, f in pairs])
            t.body.insert(0, f"require exists({ANSWER} in {table} where {conds}) else not_found {lit(f'no {noun} with that {said}')}")
            what = f"the {noun} its {said} name must be one {table} holds (the rows the read answers)"
            if verb in _REMOVES:
                # gone from what the read answers: a later step cannot act on it as if it were there
                t.body.insert(1, f"delete {ANSWER} in {table} where {conds}")
                what += ", and the call removes it from them"
            t.comments.insert(2, what)
            break


# the names of a value that picks out one thing wherever it is asked for or answered
_PICKS_ONE = re.compile(r"(id|code|key|uuid|arn|number|slug|symbol|isbn|ticker)$")


def shared_answer_values(imp: Any) -> None:
    """Seed a field that two or more tables of answers (or of records: a reference to a thing no
    resource of the spec holds, named in two or more words) hold under one name (`RouteID`, `companyId`:
    what a list of routes answers and what the route's schedule is asked for) from one set of
    values: the answers then name the same routes, and a task can carry a route id from the list
    to the schedule (D62). Each table seeded its own (`B30` in one, `RI-4120` in another, `10A`
    in a third), so no value one read gave was one another read answered for: WMATA's bus routes,
    Roaring's companies and the Open Data Network's entities gave no task. Only names that pick
    out one thing (`_PICKS_ONE`: not a date, a query or a latitude, which a person states), text
    the seeds draw from a list or a numbered format, and a set of values no smaller than a table
    that wants its rows distinct by the field. Run after `speak`, which settles the seeds."""
    groups: dict[str, list[tuple[TableIR, str, str]]] = {}
    for s in imp.services.values():
        for t in s.tables:
            answers = f"{s.name}.{t.name}" in imp.answer_seeds
            if not answers and t.name.endswith("_calls"):
                continue  # a log of calls is seeded by the calls
            own = (t.record.noun or "").lower().split()[-1:]
            for f in t.record.fields:
                n = _norm(f.name)
                gen = t.seed.get(f.name)
                if f.key or f.ref or f.json or f.base != "text" or n == "id" or not _PICKS_ONE.search(n) or gen is None:
                    continue
                if not answers and (len(f.name.split("_")) < 2 or f.name in t.record.known_by or f.name.split("_")[:1] == own):
                    # a record's own reference to a thing no resource of the spec holds (Twilio
                    # Monitor's alerts and events both name a `resource_sid`): drawn apart, no
                    # alert's resource was any event's (a fresh draw of stop 69). Not a bare
                    # `code` (a product's is no currency's), a name the row is known by, or the
                    # row's own number (`order_number` on an order)
                    continue
                if gen.startswith(("pick([", "format(")):
                    groups.setdefault(n, []).append((t, f.name, gen))
    for n, members in groups.items():
        if len({id(t) for t, _, _ in members}) < 2:
            continue
        gen = next((g for _, _, g in members if g.startswith("pick([")), members[0][2])
        values = drawn_values(gen, members[0][1], n=8)
        if len(values) < 4:
            continue
        most = max((int(m.group(1)) for t, name, _ in members if name in t.distinct and (m := re.search(r"(\d+)$", t.rows))), default=0)
        if most > len(values):
            continue
        shared = "pick([" + ", ".join(lit(v) for v in values) + "])"
        for t, name, _ in members:
            t.seed[name] = shared


def answer_shape(imp: Any, o: Any, r: Any = None, info: dict | None = None) -> tuple[Any, bool | str] | None:
    """(the object, whether a list of them; or the scalar, `VALUE`) a read answers, when the world model can look it up
    (`answered`): a `GET`, or a `POST` named as a read (RPC APIs post their reads and
    computations: `POST /v1/places:searchText`, `GetQueryResults`, GuardDuty's `POST
    /detector/{detectorId}/member/get`),
    whose answer is an object that holds a value (`_holds_values`), a list of such objects, a
    resource's records (answered by a seeded association of its rows, D47: `rows_of`), or one
    scalar value. None otherwise (a file, a URL, no schema: it stays simulated)."""
    if o.method == "post":
        # only a post named as a read (`SearchText`, "Get the status ..."): `PutPolicy`, `resize`,
        # `claim` and `merge` are writes no verb list names, and a nameless post may be one too
        # (also on a row of its own: GuardDuty's `POST /detector/{detectorId}/member/get` reads,
        # and recording it as a write would make a task call a read for its own sake)
        if first_verb(o) not in READ_WORDS - _MAKES_FILES:
            return None  # recorded when on a row (world_model.modelled), or simulated as before
    elif o.method != "get" or first_verb(o) in WRITE_VERBS:
        return None  # a write, or a write by `GET` (Etherpad's `GET /createSession`): not a read of seeded answers
    if not o.has_response or o.response is None:
        return None
    if o.response.kind == "scalar":
        # one value (a count, a rate, a status word): a row of answers holds it; not a file or a
        # link to one, which the state does not hold
        return None if o.response.format in FILE_FORMATS or o.response.type not in ("string", "integer", "number", "boolean") else (o.response, VALUE)
    for shape, many in ((imp.unwrap_list(o.response), True), (imp.unwrap_item(o.response), False)):
        if shape is None or shape.kind != "object" or not shape.props:
            continue
        if shape.name and (imp.resources_named({shape.name}) or _summarised(imp, shape)):
            # a resource's records (`GET /repos/{owner}/{repo}/teams`, `GET /user`): which rows the
            # API means is seeded as an association (`answered`, `rows_of`); two resources of one
            # schema would make which table a guess
            return (shape, many) if _rows_of(imp, shape) is not None else None
        if _holds_values(shape):
            return shape, many
        return None
    return None


def _holds_values(shape: Any, depth: int = 0) -> bool:
    """Whether an answer of this object has a value a field can hold, as the importer flattens
    it (OpenAPIImporter.flatten): a scalar property, a list of scalars (kept as text), or one in
    a small nested object (`{billable: {UBUNTU: {total_ms}}}`, `{comments: {total: 3}}`).
    Not an object of nothing but objects the flattening keeps as JSON text."""
    for ps in shape.props.values():
        if ps.writeonly:
            continue
        if ps.kind == "scalar" or ps.kind == "array" and ps.items is not None and ps.items.kind == "scalar":
            return True
        if flattened(ps, depth) and _holds_values(ps, depth + 1):
            return True
    return False


# a schema named so after a resource's is a short form of its rows (AWS lists answer
# `AppMonitorSummary`s, bunq's `UserListing`s)
SUMMARY_SUFFIXES = ("summary", "listing", "listitem", "listentry", "item", "entry", "brief")


def _summarised(imp: Any, shape: Any) -> list[Any]:
    """The resources an answer of this schema summarises: its name is a resource's schema or
    record name, less a word of role, and a summary word (`AppMonitorSummary` of `AppMonitor`,
    `UserListing` of `UserRead`), and it names that resource's row: it holds the resource's key
    property (`Name`), or, where the key is the path's alone (bunq's `{itemId}`), it holds no
    property the resource's schema lacks."""
    n = _norm(shape.name or "")
    stems = {n[: -len(x)] for x in SUMMARY_SUFFIXES if n.endswith(x) and len(n) > len(x)}
    if not stems:
        return []
    props = {_norm(p) for p in shape.props}
    out = []
    for x in imp.resources:
        if x.record is None:
            continue
        # the record's name has lost its schema's word of role already (`clean_schema_name`)
        names = {_norm(x.shape.name or ""), _norm(x.name), _norm(clean_schema_name(x.shape.name))}
        if not stems & names:
            continue
        own = {_norm(p) for p in (x.shape.props or {})}
        key = _norm(x.key_prop)
        if key in props or (key not in own and props and props <= own):
            out.append(x)
    return out


def _rows_of(imp: Any, shape: Any) -> Any:
    """The one resource whose records an answer of this schema is (or summarises: `_summarised`),
    or None."""
    named = (imp.resources_named({shape.name}) or _summarised(imp, shape)) if shape.name else []
    return named[0] if len(named) == 1 and named[0].record is not None else None


# names a list's elements take from the envelope they came in (VTEX's order search answers
# `{"list": [...]}` by example: its orders were "the list "Maple call center operator"", stop 65)
_GENERIC_NAMES = frozenset("list lists item items data result results value values entry entries record records element elements content contents object objects row rows response body payload".split())


def _generic_name(name: str) -> bool:
    """Is a schema's name only the word of the envelope it came in (`list`, `items`, `data`)?"""
    return _norm(name) in _GENERIC_NAMES


def _answer_noun(shape: Any, tool: str, summary: str = "") -> str:
    """What one answer is called: the schema's name, else the tool's name less its read verb
    (`list_holidays` → holiday); a name run together (Qualtrics' `Retrievedistributionlinks`,
    "the retrievedistributionlink ...") is read from the summary instead ("Retrieve distribution
    links" → distribution link)."""
    if shape.name and not _generic_name(shape.name):
        return words(clean_schema_name(shape.name) or shape.name)
    toks = [re.sub(r"(?<=[a-z]{3})\d+$", "", t) or t for t in tool.split("_")]  # `list_orders2`: orders
    said = [w.lower() for w in re.findall(r"[A-Za-z]+", summary or "")]
    if len(toks) == 1 and len(tool) > 12 and 2 <= len(said) <= 5 and said[0] in READ_WORDS and "".join(said) == tool.lower():
        toks = said
    if len(toks) > 2 and toks[0] in ("post", "put") and toks[1] in READ_WORDS:
        toks = toks[1:]  # Clubhouse's `POST /get_profile`: "profile", not "post get profile"
    toks = toks[1:] if len(toks) > 1 and toks[0] in READ_WORDS else toks
    if len(toks) > 2 and toks[-2] == "by" and toks[-1] in ("id", "ids", "identifier", "uuid", "key"):
        toks = toks[:-2]  # `get_transcript_by_id`: a transcript, not a "transcript by id"
    return " ".join([*toks[:-1], singular(toks[-1])])


def answered(imp: Any, o: Any, r: Any, sim: ToolIR, info: dict, answer: tuple[Any, bool | str]) -> ToolIR:
    """A read that no CRUD rule and no view of a row explains, whose answer is an object, a
    list of objects or one value (`answer_shape`: `GET /weather?city=`, `GET
    /groups/{id}/memberships`, `GET /settings`, a posted search, a count): answered from a table
    of answers that is seeded with the world (D46). Each row holds what the API returns (the
    response's fields, or a `value`) and the arguments it answers (a field per argument the
    response does not hold). The tool returns the rows whose fields equal its arguments (a
    blank optional text argument matches every row), or for an object or a value the one such
    row, `not_found` when there is none; a path parameter that names a row of its service is
    required to name one. So the read is the same every time for the same arguments and state,
    and a task may pass through it (its arguments come from the rows the world holds). What the
    API computes from the arguments is not modelled: the answers are seeded, not derived. An
    answer that is a resource's records (D47) is a seeded association instead: each row names one
    of the resource's rows for its arguments, the tool returns those rows, and it lives in the
    resource's service (`o.home`). Sets `o.kind` to `answered`."""
    shape, how = answer
    value, many = how == VALUE, how is True
    rows_of = None if value else _rows_of(imp, shape)
    if rows_of is not None and rows_of is r and not many and (o.wire_method or o.method) != "get" and any(res is r and t == r.alias for _, t, res in info.values()):
        # one object of the row's own kind that an action on the row posts back (Stream
        # Analytics' `functions/{name}/retrieveDefaultDefinition`) is no other row: read as
        # one, a task deleted "the function what you find when you retrieve the default
        # definition ..." (a fresh draw, stop 65). A GET of another row (a user's manager) is.
        rows_of = None
    home = rows_of or r  # an association lives with the rows it names: the tool reads their table
    if rows_of is not None:
        o.home = rows_of
    svc = imp.service_for(home.service, "") if home is not None else imp.misc()
    svc_name = home.service if home is not None else imp.misc_service
    if rows_of is not None:  # the answer's schema is the resource's record: the table's record is the association's
        noun, record = f"{words(sim.name)} answer", imp.type_name(pascal(f"{sim.name}_answer"))
    else:
        noun = _answer_noun(shape, sim.name, o.summary)
        record = imp.type_name(pascal(clean_schema_name(shape.name) or shape.name) if shape.name and not _generic_name(shape.name) else f"{noun}_answer")
    fields: list[FieldIR] = []
    taken = Names()
    if value:
        fields.append(imp.field_of(shape, "value", "", record, taken, True))
    elif rows_of is not None:
        # the association: each answer row names one of the resource's rows
        link = FieldIR(unique(safe(snake(rows_of.noun)), taken), rows_of.alias, "id", default='""', ref=rows_of.qualified)
        link.comments = [f"{article(rows_of.noun)} {rows_of.noun} the answer holds"]
        fields.append(link)
    else:
        imp.flatten(shape, record, fields, taken, for_table=True)
    fields = [f for f in fields if f.base != "list" and not page_token(f.src.split(".")[-1])][:MAX_FIELDS]
    keys = {res.alias: res for res in imp.resources}
    for f in fields:
        # a property named as a resource's key (`customerId`) refers to its rows: the answers name
        # rows the world holds, and a task can go on from an answer to the row it names
        named = [x for x in imp.resources if f.textlike and not f.json and _names_as_key(f.src, x)]
        if len(named) == 1:
            f.type, f.base, f.ref, f.default, f.enum = named[0].alias, "id", named[0].qualified, '""', None
            f.comments.append(f"refers to {named[0].noun} rows (named as its key)")
    conds, checks, distinct, left = [], [], [], []
    # a scope every row of the spec shares (Azure's resource group, resources.scope_seeds): the
    # answers hold the same one value, so a call that states the scope of a row it found is answered
    scopes = {name: imp.scope_values[_norm(spec_name)] for spec_name, (name, t, res) in info.items() if res is None and t == "text" and _norm(spec_name) in imp.scope_values}
    scoped: dict[str, str] = {}  # answer field → its one value
    params = [_answer_param(imp, r, p, info) for p in sim.params]
    # the fields that only hold an argument: an answer is known by what it holds before them,
    # where that names it (`_known_by`: Meteosource's hourly air quality was known by the
    # latitude asked for, "the air quality point hourly data "48.8566"", not by its hour)
    argued: list[FieldIR] = []
    for p in params:
        base = p.type if p.type in PRIMITIVES else "enum" if p.type in imp.enums else "id" if p.type in keys else None
        if base is None:
            left.append(p.name)  # a list, or a type no field can hold
            continue
        optional = p.default is not None
        if optional and base not in ("text", "email"):
            left.append(p.name)  # an optional number or flag: what blank would mean is not known
            continue
        spec_name = next((sn for sn, (n, _, _) in info.items() if n == p.name), None)
        f = next((x for x in fields if not x.json and _norm(x.src.split(".")[-1]) == _norm(p.name)), None)
        if f is not None and f.type != p.type:
            if base == "id" and f.textlike:  # the response's `groupId` is the group the path names
                f.type, f.base, f.default = p.type, "id", '""'
            else:
                f = None
        if f is None:
            f = FieldIR(unique(p.name, taken), p.type, base, enum=p.type if base == "enum" else None, default='""' if base in ("text", "email") else None)
            f.comments = [f"the argument {p.name}: the rows answer for the value it holds"]
            # seeded as the parameter's spec says (its examples: SportsData's seasons "2018PRE",
            # not "season 2 38", a fresh draw, stop 66)
            f._shape = next((q.shape for q in o.params if q.name == spec_name), None)
            fields.append(f)
            argued.append(f)
        if p.name in scopes and f.base == "text":
            scoped[f.name] = scopes[p.name]
        elif f.base == "text" and spec_name is not None and _norm(spec_name) in imp.spec_scopes and info[spec_name][2] is None:
            scoped[f.name] = _scope_value(imp, f, noun, _norm(spec_name))
        res = keys.get(p.type)
        if res is not None:
            f.ref = res.qualified
            if res.service == svc_name:
                checks.append(imp.check_key(res, p.name))
        if optional:
            # the argument left at its default (blank, or the spec's own: Musixmatch's `format`
            # is "json") asks for any row: a call that leaves it out is answered
            conds.append(f"({p.name} == {p.default} or {ANSWER}.{f.name} == {p.name})")
        else:
            conds.append(f"{ANSWER}.{f.name} == {p.name}")
            if f.name not in scoped:
                distinct.append(f.name)  # one value for every row: distinct by it would leave one row
    for f in fields:
        # and what an answer holds of such a scope is its one value too: a policy state's own
        # `subscriptionId` is the subscription its read was asked for (the argument's field,
        # which has no `src` of the spec's, is set in the loop above)
        n = _norm(f.src.split(".")[-1])
        if f.name not in scoped and f.base == "text" and not f.json and not f.ref and n in imp.spec_scopes:
            scoped[f.name] = _scope_value(imp, f, noun, n)
    key = FieldIR(unique("id", taken), "id", "id", key=True)
    rec = RecordIR(record, [key, *fields], noun=noun if noun != words(record).lower() else "", known_by=_known_by(imp, [f for f in fields if f.name not in scoped], argued), comments=[f"what {o.label} answers: one row an answer, with the arguments it answers (the world model's table, seeded)"])
    table = unique(f"{sim.name}_answers", Names((p.name for p in sim.params), reserved=imp.reserved))
    imp.reserved.add(table)
    seed = {}
    for f in fields:
        gen = f"ref {f.ref}" if f.ref else scoped.get(f.name) or imp.field_seed(f, noun)
        if gen is not None:
            seed[f.name] = gen
    owners = {x.qualified: x for x in imp.resources}
    for f in fields:
        # what an answer holds of the row it was asked about is that row: Orbit's workspace stats
        # (`GET /{workspace_slug}/reports`) hold `attributes.workspace_id`, and drawn apart "the
        # workspace of the workspace stats of the workspace "Beacon workspace"" was another
        # workspace (a fresh draw, stop 73). As a resource's own reference to its path's parent
        # (`OpenAPIImporter` seeds): only a field whose words name the row's noun
        twin = next((g for g in argued if g is not f and g.ref == f.ref), None) if f.ref and f not in argued else None
        if twin is not None and seed.get(f.name) == f"ref {f.ref}" and f.ref in owners and _names_noun(owners[f.ref].noun, (_plain_words(f.name, id_words=True), _said_as(f))):
            seed[f.name] = f"same({twin.name})"
    # a flattened object a reference names holds that row's values, as in a resource's table
    # (Lake Formation's permissions: `resource_lf_tag_catalog_id` beside the tag they name was
    # another catalog than the tag's own, and a blind player could not tell which to change,
    # round 42)
    imp.copied_from_refs(rec, seed, owners)
    if o.segs and not is_param(o.segs[-1]):
        imp.copied_from_parent(rec, seed, o.segs[-1], owners)
    if rows_of is not None and rows_of.record is not None:
        # the rows an answer names sit where its arguments say: the test keys answered for a
        # service are that service's (`ref test_keys where service_name == same(service_name)`)
        link = fields[0]
        for f in fields[1:]:
            g = next((g for g in rows_of.record.fields if f.ref and g.ref == f.ref and not g.key), None)
            if g is not None:
                seed[link.name] = f"ref {link.ref} where {g.name} == same({f.name})"
                break
        else:
            # or the one row the argument's own row names (Clever's `GET /sections/{id}/district`,
            # a section holding its `district`): the district a section's answer gives is the
            # section's, not one drawn apart (blind round 49 read the section's field after the
            # read said "no district for those arguments")
            for f in fields[1:]:
                held = [g for g in owners[f.ref].record.fields if g.ref == rows_of.qualified and not g.key] if f.ref in owners and owners[f.ref].record is not None and owners[f.ref] is not rows_of else []
                if len(held) == 1:
                    seed[link.name] = f"same({f.name}.{held[0].name})"
                    link.comments.append(f"the {words(held[0].name)} of the {owners[f.ref].noun} in {f.name}")
                    break
    # a list: rows enough to filter; an object: one row an answer, or the one answer there is
    rows = ("6..12" if conds else "4..8") if many else "4..8" if len(conds) > len(scoped) else "1"
    asked = [f for f in fields if f.name in distinct]
    if not many and len(asked) == 1 and asked[0].ref and seed.get(asked[0].name) == f"ref {asked[0].ref}":
        # an object answered for one record alone (Security Center's `automations/{name}/validate`,
        # a key's `regenerateKey`): one answer per record, every record answered. Four to eight
        # answers drawn for six to twelve automations left most of them "not found", and a task
        # could validate only the few that had one (18 one-table imported APIs gave no task).
        # More rows than any seeded table holds; a `unique ref` stops when every row has its answer
        seed[asked[0].name] = f"unique ref {asked[0].ref}"
        rows, distinct = str(ANSWER_EACH), []
    svc.records.append(rec)
    svc.tables.append(TableIR(table, rec, rows, seed, tuple(distinct) if not many else ()))
    imp.answer_seeds.add(f"{svc_name}.{table}")
    if rows_of is None and not value:
        imp.answer_tables.append((svc_name, table, rec))
    where = f" where {' and '.join(conds)}" if conds else ""
    view = None
    if rows_of is not None:
        # the rows the answers name, in the resource's own shape (what the API returns)
        link, rkey = fields[0].name, rows_of.key_field
        named = f"exists({ANSWER} in {table} where {' and '.join([f'{ANSWER}.{link} == {ROW}.{rkey}', *conds])})"
        pick = f"{ROW} in {rows_of.table} where {named}"
        # a summary of each row (D56: the list shows some of the record's fields) is a view
        view = imp.summary_view(o, rows_of, shape) if many else None
        body = [*checks, f"return {imp.summary_map(view[0], view[1], rows_of.table + ' where ' + named)}" if view else f"return filter({pick})"] if many else [
            *checks,
            f"require exists({pick}) else not_found {lit('no ' + rows_of.noun + ' for those arguments')}",
            f"return earliest({pick} by {ROW}.{rkey})",
        ]
    elif many:
        body = [*checks, f"return filter({ANSWER} in {table}{where})"]
    else:
        body = [
            *checks,
            f"require exists({ANSWER} in {table}{where}) else not_found {lit('no ' + noun + ' for those arguments')}",
            f"return earliest({ANSWER} in {table}{where} by {ANSWER}.{key.name})" + (f".{fields[0].name}" if value else ""),
        ]
    if rows_of is not None:
        comments = [f"{o.label}: answered", f"world model: the {plural(rows_of.noun)} the seeded rows of {table} name for these arguments (which the API means is not modelled)"]
    else:
        comments = [f"{o.label}: answered", f"world model: answered from {table}, seeded with the world: " + ("the rows" if many else "the row") + " whose fields equal the arguments; what the API computes from them is not modelled"]
    if left:
        comments.append("arguments the answer does not depend on: " + ", ".join(left))
    comments += sim.comments[1:]
    o.kind = "answered"
    if rows_of is None and not value and not many:
        # what a write on the same path may change (`write_through`): the table, and the field
        # each required argument picks
        o._answers = (svc_name, table, {p.name: next(f.name for f in fields if c == f"{ANSWER}.{f.name} == {p.name}") for p, c in zip([p for p in params if p.name not in left], conds) if c.startswith(ANSWER)}, {f.name: f.type for f in fields})
    shown = view[0] if view is not None else rows_of.name if rows_of is not None else record
    return replace(sim, params=params, result=f"list[{shown}]" if many else fields[0].type if value else shown, body=body, simulated=False, comments=comments)


def state_arguments(t: ToolIR) -> None:
    """Every required argument of an answered read picks the answer, so its `say` and `gives`
    state each one (after the phrase pass, which rewrites both from the summary): a task that
    reports what the read gives must say which purge's status. A blind player met "the status
    for an ongoing purge operation of that components" with its purge id and api version unsaid."""
    for p in t.params:
        if p.default is None:
            ph = f"{words(p.name)} {{{p.name}}}"
            toks = words(p.name).split()
            # a key the summary names by its thing ("Gets an endpoint for a specified stream ..."):
            # in its place, "for stream {stream_name}", not "... for the specified stream ... and
            # stream name {stream_name}" (Kinesis Video, a fresh draw of stop 71)
            thing = " ".join(toks[:-1]) if len(toks) > 1 and toks[-1] in ("name", "id", "arn", "key") else ""
            for attr in ("say", "gives"):
                phrase = getattr(t, attr)
                if phrase is None or f"{{{p.name}}}" in phrase:
                    continue
                hit = naming(thing, phrase) if thing else None
                if hit is not None and "{" not in phrase[hit.start() : hit.end()]:
                    setattr(t, attr, phrase[: hit.start()] + f"{thing} {{{p.name}}}" + phrase[hit.end() :])
                else:
                    setattr(t, attr, phrase + (" and " if " with " in phrase else " with ") + ph)


def _int_key(x: Any) -> bool:
    """Whether resource `x`'s rows are keyed by the API's integer ids (modelled as ids): an
    integer argument named as that key (`gameId: int`) names one of its rows."""
    shape = x.shape.props.get(x.key_prop) if x.shape is not None and x.shape.kind == "object" else None
    return shape is not None and shape.kind == "scalar" and shape.type == "integer"


def _known_by(imp, fields: list[FieldIR], argued: list[FieldIR]) -> list[str]:
    """An answer's `known by`: what it holds before the argument it answers for, where what it
    holds names it (a time, or a name or a title): Meteosource's hourly air quality by its hour,
    not by the latitude asked ("the air quality point hourly data "48.8566"", every row of one
    call alike: a fresh draw, stop 66). Where it holds only tokens and sentences (SQS messages:
    a receipt handle, a body), the argument still tells the answers apart, as before."""
    every = imp.identity_of(fields)
    if not set(every) & {f.name for f in argued}:
        return every
    own = imp.identity_of([f for f in fields if f not in argued])
    first = next((f for f in fields if own and f.name == own[0]), None)
    if first is not None and (first.base in ("date", "datetime") or _tokens(first.name)[-1:] in (["name"], ["title"], ["label"])):
        return own
    return every


def _scope_value(imp: Any, f: FieldIR, noun: str, n: str) -> str:
    """The one value of a scope of the whole spec that no resource's rows hold (`spec_scopes`,
    normalised name `n`), the same in every answer that names it: the spec's example, else the
    first value the field's seed draws (`resources.one_value`), fixed by the first answer met."""
    if n not in imp.scope_values:
        spec_name = imp.spec_scopes[n]
        imp.scope_values[n] = resources.one_value(imp.field_seed(f, noun) or '""', spec_name, resources.param_example(imp, spec_name))
    return imp.scope_values[n]


def _answer_param(imp: Any, r: Any, p: ParamIR, info: dict) -> ParamIR:
    """An answered read's argument, typed as a resource's key only where it names that resource's row by
    its place (a parent of the operation's resource) or its name (`customerId`, also a query
    argument the API types a plain string, or an integer where the resource's ids are integers): the answers then refer to those rows, and a task can
    carry a key from a list to the read. A path parameter typed so only because some resource
    calls its item so (CloudTrail's bare `{Name}`) is text: which row it names is a guess."""
    by_name = [x for x in imp.resources if _norm(p.name) in row_names(x)]
    if len(by_name) > 1:
        # `gameId` names a game rather than the game PPA rows keyed by their game's id
        by_name = [x for x in by_name if _norm(p.name) != _norm(x.key_prop)] or by_name
    path = next(((spec, res) for spec, (name, t, res) in info.items() if name == p.name), None)
    if path is not None and path[1] is not None and p.type == path[1].alias:
        res = path[1]
        parent = r is not None and (res is r or any(x is res for _, x in r.parents))
        if parent or _norm(path[0]) in row_names(res):
            return p
        return replace(p, type="text", default=p.default and '""')
    if len(by_name) == 1 and (path is None or path[1] is None) and (p.type == "text" or p.type == "int" and _int_key(by_name[0])):
        return replace(p, type=by_name[0].alias, default=None)
    return p


def write_through(imp: Any) -> None:
    """A write recorded on the path of an answered read changes that read's answer: GoDaddy's
    `PUT /v1/certificates/{certificateId}/callback` recorded its call, and `GET` of the same path
    still answered the seeded callback URL (a blind player read it back after the write and
    found the old one, round 19). A PUT or POST replaces the row its path's arguments pick with
    the values it sets, a PATCH updates that row, a DELETE removes it. Only the answer's fields
    the write takes, of the same type, are set; the call is still recorded for the checks."""
    reads = {pattern(o.segs): o._answers for o in imp.ops if getattr(o, "_answers", None) is not None and o.method == "get"}
    if not reads:
        return
    for o in imp.ops:
        got = reads.get(pattern(o.segs)) if o.kind == "recorded" and o.method in ("put", "post", "patch", "delete") else None
        if got is None or not getattr(o, "tool", None):
            continue
        svc_name, table, picks, types = got
        write_svc, _, name = o.tool.partition(".")
        if write_svc != svc_name:
            continue
        svc = imp.services[svc_name]
        i, t = next(((i, t) for i, t in enumerate(svc.tools) if t.name == name), (None, None))
        given = {p.name: p.type for p in t.params} if t is not None else {}
        if t is None or not picks or any(given.get(a) != types.get(f) for a, f in picks.items()):
            continue  # the write does not name the row the read answers
        where = " and ".join(f"{ANSWER}.{f} == {a}" for a, f in picks.items())
        sets = {a: a for a, ty in given.items() if a not in picks and types.get(a) == ty}
        if o.method == "delete":
            stmts = [f"delete {ANSWER} in {table} where {where}"]
            did = f"removes the answer of {table} its arguments pick"
        elif not sets:
            continue
        elif o.method == "patch":
            stmts = [f"update {ANSWER} in {table} where {where} {{ " + ", ".join(f"{f}: {a}" for f, a in sets.items()) + " }"]
            did = f"updates the answer of {table} its arguments pick"
        else:
            fields = {**{f: a for a, f in picks.items()}, **sets}
            stmts = [f"delete {ANSWER} in {table} where {where}", f"insert {table} {{ " + ", ".join(f"{f}: {a}" for f, a in fields.items()) + " }"]
            did = f"replaces the answer of {table} its arguments pick"
        at = next((k for k, line in enumerate(t.body) if line.startswith(("insert ", f"let {ROW_NAME} = insert "))), len(t.body))
        svc.tools[i] = replace(t, body=[*t.body[:at], *stmts, *t.body[at:]], comments=[*t.comments, f"world model: the call also {did}, so that read answers what was written"])
