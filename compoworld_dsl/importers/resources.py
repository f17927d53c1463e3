"""More of a REST API's operations as ordinary tools (`worldc import openapi`, issue 30): the rules
`openapi.OpenAPIImporter` asks about beyond "a GET by id returns an object with an id".

- **Examples.** A response whose schema declares nothing (`{type: object}`) but which carries an
  example gets a shape read from the example (`shape_from_example`).
- **Read-only and child collections.** `GET C` listing objects with an id-like property is a
  resource even with no operation on one item (in an API of resource names, keyed by the
  objects' `name`); under an item (`/portouts/{id}/comments`) it is a child table. A `GET C/{x}`
  with no schema takes its fields from `POST C`'s body; one whose object holds no id-like property (AWS: `GET /detector/{detectorId}`) is keyed by `{x}`.
- **Lists across a scope.** A GET whose response lists a resource's own schema, on a path whose
  parameters are all parents of that resource (`/subscriptions/{s}/providers/X/things`), lists
  it, filtered by those parents.
- **Status actions.** `POST C/{id}/cancel` (`:cancel`, `/actions/cancel`) on a record with a
  status enum that has the member the verb leads to (`cancelled`) sets it, and `archive` on a
  record with an `archived` flag sets the flag; with neither the operation stays simulated: an
  effect is never invented.
- **Bodies.** An update's body matches the record's fields through one wrapper level, either
  side (`{fields: {summary}}`; a record read from `{database: {name}}` set by `{name}`).
- **Sibling lists.** AWS's `GET /channels` beside `GET /channel/{ChannelName}` lists the channels.
- **Scopes.** A path parameter no resource owns (Azure's subscription) has one value in every
  table, so a task that states a row's scope states the one it has.
- **Keyed creates.** `POST /channel/{ChannelName}` named CreateChannel inserts under that key
  (a conflict when a row has it), never updates a row that is there."""

from __future__ import annotations

import json
import re
from typing import Any

from ..vocab import norm
from .common import ROW, FieldIR, ParamIR, ToolIR, article, datetime_lit, email_ok, lit, safe, said_as_kind, said_with, singular, snake, stable_hash, text_seed, unique, words
from .ops import DETAIL_WORDS, ENVELOPE_WORDS, MAX_WRITE_PARAMS, SEARCH_WORDS, Op, Resource, id_action, is_param, pattern, pname, split_path
from .schema import Shape, opaque

# `imp: OpenAPIImporter` in the signatures below names openapi.py's importer, which calls these
# functions: it is not imported here (annotations are not evaluated), so neither imports the other back

MAX_EXAMPLE_DEPTH = 6
MAX_EXAMPLE_PROPS = 200

# an action's verb → the status members it leads to, best first (compared without case or
# separators); only a member the record's enum has is ever used
STATUS_VERBS: dict[str, tuple[str, ...]] = {
    "cancel": ("cancelled", "canceled"),
    "archive": ("archived",),
    "unarchive": ("unarchived", "active"),
    "close": ("closed",),
    "reopen": ("reopened", "open"),
    "open": ("open", "opened"),
    "approve": ("approved",),
    "reject": ("rejected",),
    "decline": ("declined", "rejected"),
    "accept": ("accepted",),
    "activate": ("active", "activated", "enabled"),
    "reactivate": ("active", "activated", "enabled"),
    "enable": ("enabled", "active"),
    "deactivate": ("inactive", "deactivated", "disabled"),
    "disable": ("disabled", "inactive"),
    "suspend": ("suspended",),
    "unsuspend": ("active", "unsuspended"),
    "publish": ("published",),
    "unpublish": ("unpublished", "draft"),
    "complete": ("completed", "complete", "done"),
    "finish": ("finished", "completed", "done"),
    "pause": ("paused",),
    "resume": ("active", "running", "resumed"),
    "lock": ("locked",),
    "unlock": ("unlocked",),
    "start": ("started", "running", "in_progress"),
    "stop": ("stopped",),
    "void": ("voided", "void"),
    "submit": ("submitted",),
    "confirm": ("confirmed",),
    "revoke": ("revoked",),
    "expire": ("expired",),
    "block": ("blocked",),
    "unblock": ("unblocked", "active"),
    "verify": ("verified",),
    "resolve": ("resolved",),
    "acknowledge": ("acknowledged",),
    "ack": ("acknowledged",),
    "ship": ("shipped",),
    "refund": ("refunded",),
    "retire": ("retired",),
    "deprecate": ("deprecated",),
    "hold": ("on_hold", "held"),
    "release": ("released",),
    "restore": ("restored", "active"),
    "mute": ("muted",),
    "unmute": ("unmuted", "active"),
}
# an action's verb → (the flags it sets, the value): `archive` sets `archived` (or `is_archived`)
# to true; only a boolean field the record has is ever used
FLAG_VERBS: dict[str, tuple[tuple[str, ...], bool]] = {
    "archive": (("archived",), True),
    "unarchive": (("archived",), False),
    "lock": (("locked",), True),
    "unlock": (("locked",), False),
    "pin": (("pinned",), True),
    "unpin": (("pinned",), False),
    "mute": (("muted",), True),
    "unmute": (("muted",), False),
    "star": (("starred",), True),
    "unstar": (("starred",), False),
    "hide": (("hidden",), True),
    "unhide": (("hidden",), False),
    "read": (("read",), True),
    "unread": (("read",), False),
    "enable": (("enabled",), True),
    "disable": (("enabled",), False),
    "activate": (("active",), True),
    "deactivate": (("active",), False),
    "suspend": (("suspended",), True),
    "unsuspend": (("suspended",), False),
    "block": (("blocked",), True),
    "unblock": (("blocked",), False),
    "publish": (("published",), True),
    "unpublish": (("published",), False),
    "close": (("closed",), True),
    "reopen": (("closed",), False),
    "resolve": (("resolved",), True),
    "acknowledge": (("acknowledged",), True),
    "ack": (("acknowledged",), True),
    "approve": (("approved",), True),
    "verify": (("verified",), True),
    "complete": (("completed",), True),
}
ACTION_WORDS = {"actions", "action", "_actions"}
STATUS_NAMES = ("status", "state", "lifecycle_state", "lifecyclestate", "phase")




# ─── shapes from examples ───


def shape_from_example(v: Any, at: Any = "#", depth: int = 0) -> Shape:
    """The shape a JSON example shows: objects, arrays (of the union of their first items'
    keys), strings (a date, a timestamp or an email by their look), numbers, booleans; the
    value itself is kept as the scalar's example, so seeds draw from it."""
    if depth > MAX_EXAMPLE_DEPTH:
        return opaque("nested too deeply in the example")
    if isinstance(v, dict):
        props = {k: shape_from_example(x, at, depth + 1) for k, x in list(v.items())[:MAX_EXAMPLE_PROPS] if isinstance(k, str) and k.strip()}
        if not props:
            return opaque("an empty object in the example")
        return Shape("object", props=props, at=at)
    if isinstance(v, list):
        objs = [x for x in v[:5] if isinstance(x, dict)]
        if objs:
            merged: dict = {}
            for x in objs:
                for k, y in x.items():
                    merged.setdefault(k, y)
            return Shape("array", items=shape_from_example(merged, at, depth + 1), at=at)
        first = next((x for x in v if x is not None), None)
        return Shape("array", items=shape_from_example(first, at, depth + 1) if first is not None else opaque("an empty array in the example"), at=at)
    if isinstance(v, bool):
        return Shape("scalar", "boolean", example=v, at=at)
    if isinstance(v, int):
        return Shape("scalar", "integer", example=v, at=at)
    if isinstance(v, float):
        return Shape("scalar", "number", example=v, at=at)
    if isinstance(v, str):
        fmt = ""
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
            fmt = "date"
        elif re.match(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}", v) and datetime_lit(v):
            fmt = "date-time"
        elif email_ok(v):
            fmt = "email"
        return Shape("scalar", "string", fmt, example=v, at=at)
    return opaque("null in the example")


# a parameter that takes a record's name, its ARN or either ("The ARN or name of the secret")
_TAKES_NAME = re.compile(r"\b(?:(?:ARN|ID|identifier) or (?:the )?(?:friendly |full |short )?name|name or (?:the )?(?:full )?(?:ARN|ID))\b", re.I)
_TAKES_ARN = re.compile(r"\b(?:the |an )?ARN of\b", re.I)


def _said_key(o: "Op", param: str, shape: Any, word: str) -> str | None:
    """The property a path parameter that names no property stands for, where its description
    says (AWS Secrets Manager's `SecretId`, "The ARN or name of the secret", answered by a
    secret with `Name` and `ARN`): the name, which a person knows a record by, or the ARN.
    None where the description says neither, or the record holds no such property: the
    parameter is then the key of its own (a made-up id the rows are given)."""
    said = next((p.description or p.shape.aside for p in o.params if p.name == param), "") or ""
    props = {norm(p): p for p, s in shape.props.items() if s.kind == "scalar" and s.type == "string"}
    noun = norm(singular(word))
    name = _TAKES_NAME.search(said) is not None
    if name and (got := props.get("name") or props.get(noun + "name")) is not None:
        return got
    if name or _TAKES_ARN.search(said):
        return props.get("arn") or props.get(noun + "arn")
    return None


def _declares_nothing(s: Shape | None) -> bool:
    """A response shape that says nothing a table could hold: none, opaque, or an array of
    opaque items (`{type: array, items: {type: object}}`). A map whose values have a schema
    (`additionalProperties: {type: string}`) says what it is: its example's keys are entries,
    not fields (Jira's project roles by name)."""
    if s is not None and s.kind == "opaque" and s.reason.startswith("a map of names"):
        return False
    if s is None or s.kind == "opaque":
        return True
    return s.kind == "array" and (s.items is None or s.items.kind == "opaque")


def json_example(v: Any) -> Any:
    """An example as JSON: a dict or a list, or JSON text that holds one (a string that starts
    with `{` or `[`: some specs write their examples so); None for anything else."""
    if isinstance(v, str) and v.lstrip()[:1] in ("{", "["):
        try:
            v = json.loads(v)
        except (ValueError, RecursionError):
            return None
    return v if isinstance(v, (dict, list)) else None


def response_example(imp: "OpenAPIImporter", raw: dict) -> Any:
    """The example of an operation's first 2xx response: OpenAPI 3's media `example` or
    `examples.*.value`, Swagger 2.0's `examples: {mime: value}`, or the schema's `example`; each
    may be JSON text (`json_example`)."""
    responses = raw.get("responses")
    if not isinstance(responses, dict):
        return None
    for code in sorted((c for c in responses if str(c).startswith("2")), key=str):
        r = imp.reader.resolve(responses[code])
        if not isinstance(r, dict):
            continue
        medias = []
        if isinstance(r.get("content"), dict):
            medias = [m for c, m in r["content"].items() if "json" in str(c).lower() and isinstance(m, dict)]
        elif isinstance(r.get("examples"), dict):
            got = json_example(next((v for c, v in r["examples"].items() if "json" in str(c).lower()), None))
            if got is not None:
                return got
        if isinstance(r.get("schema"), dict):
            medias.append({"schema": r["schema"]})
        for m in medias:
            if (got := media_example(imp, m)) is not None:
                return got
    return None


def media_example(imp: "OpenAPIImporter", media: Any) -> Any:
    """The example one media object shows: its `example`, its first `examples.*.value`, or its
    schema's `example`; JSON text read as JSON (`json_example`)."""
    if not isinstance(media, dict):
        return None
    if (got := json_example(media.get("example"))) is not None:
        return got
    exs = media.get("examples")
    if isinstance(exs, dict):
        for e in exs.values():
            e = imp.reader.resolve(e)
            if isinstance(e, dict) and (got := json_example(e.get("value"))) is not None:
                return got
    sch = imp.reader.resolve(media.get("schema")) if isinstance(media.get("schema"), dict) else None
    if isinstance(sch, dict) and (got := json_example(sch.get("example"))) is not None:
        return got
    return None


def body_from_example(imp: "OpenAPIImporter", body: Shape, media: Any, at: Any) -> Shape:
    """A JSON request body whose schema declares no properties (Clubhouse's `{type: object}`)
    but whose example shows them (`{"club_id": 1, "user_id": 2}`): the example's shape, as a
    response's (`fill_from_examples`). Else the body as it was."""
    if not (body.kind == "opaque" or body.kind == "object" and not body.props):
        return body
    ex = media_example(imp, media)
    if not isinstance(ex, dict) or not ex:
        return body
    imp.budget.spend(1, "#")
    s = shape_from_example(ex, at)
    if s.kind != "object" or not s.props:
        return body
    s.notes = ["read from the request's example (the schema declares no properties)"]
    return s


def fill_from_examples(imp: "OpenAPIImporter") -> None:
    """Operations whose response schema declares nothing but whose spec shows an example get
    the example's shape (marked, so the record's comment says where its fields came from)."""
    paths = imp.doc.get("paths") or {}
    for o in imp.ops:
        if not _declares_nothing(o.response):
            continue
        item = imp.reader.resolve(paths.get(o.path)) if isinstance(paths, dict) else None
        raw = item.get(o.method) if isinstance(item, dict) else None
        if not isinstance(raw, dict):
            continue
        ex = response_example(imp, raw)
        if ex is None:
            continue
        imp.budget.spend(1, "#")
        s = shape_from_example(ex, (("#", "paths"), o.path))
        if s.kind == "opaque" or (s.kind == "array" and s.items is not None and s.items.kind != "object"):
            continue
        s.notes = ["read from the response's example (the schema declares no properties)"]
        o.response, o.has_response = s, True


def from_example(s: Shape | None) -> bool:
    return s is not None and any(n.startswith("read from the response's example") for n in s.notes)


# ─── more resources ───


def more_resources(imp: "OpenAPIImporter", by_coll: dict, item_ops: dict) -> None:
    """Resources the first two rules miss (openapi.find_resources): a `GET C` listing objects
    with an id-like property (read-only, or a child table under an item), and a `GET C/{x}`
    with no schema whose fields come from `POST C`'s body."""

    named = {r.shape.name for r in by_coll.values() if r.shape.name}
    keyless = []  # lists of objects with no id-like property: child tables, once every item is known
    for o in imp.ops:
        if o.method != "get" or not o.segs or is_param(o.segs[-1]) or o.segs[-1].startswith(":"):
            continue
        pat = pattern(o.segs)
        if pat in by_coll or len(o.segs) > 1 and o.segs[-1].lower() in SEARCH_WORDS and pattern(o.segs[:-1]) in by_coll:
            continue  # `GET C/search` lists C
        shape = imp.unwrap_list(o.response)
        if shape is None or (shape.name and shape.name in named):
            continue  # another resource's objects: a list of it (classify), not a table of its own
        if _searched(imp, o, shape, by_coll.values()) is not None:
            continue  # `GET /search/series` finds series: a list of them (scope_list), not a table
        word = o.segs[-1]
        getter = next((x for x in item_ops.get(pat + "/{}", []) if x.method == "get"), None)
        param = pname(getter.segs[-1]) if getter is not None else singular(re.sub(r"\W", "", word) or "item") + "Id"
        key = imp.key_prop(shape, param, word) or (_stem_key(shape, word, by_coll) or _name_key(imp, shape) if getter is None else None)
        if key is None:
            keyless.append((o, shape, param, getter))
            continue
        how = f"GET {o.path} lists objects " + ("keyed by their resource name (name)" if key == "name" else f"with the id-like property {key}") + (" (from the response's example)" if from_example(o.response) else "") + ("" if getter is not None or item_ops.get(pat + "/{}") else ", and no operation works on one (a read-only collection)")
        by_coll[pat] = Resource(list(o.segs), param, shape, key, how, getter=getter)
        if shape.name:
            named.add(shape.name)
    posts: dict[str, "Op"] = {}  # collection pattern → its first POST with an object body
    for x in imp.ops:
        if x.method == "post" and x.body is not None and x.body.kind == "object" and x.body.props:
            posts.setdefault(pattern(x.segs), x)
    for o in imp.ops:
        if o.method != "get" or len(o.segs) < 2 or not is_param(o.segs[-1]) or is_param(o.segs[-2]):
            continue
        coll = o.segs[:-1]
        pat = pattern(coll)
        if pat in by_coll:
            continue
        param = pname(o.segs[-1])
        if not _declares_nothing(o.response):
            # AWS's REST style: `GET /detector/{detectorId}` returns the detector without its id;
            # the path parameter is the key when it names one (`...Id`, `...Name`, `...Arn`)
            shape = imp.unwrap_item(o.response)
            if shape is None or shape.kind != "object" or len(shape.props) < 2 or not re.search(r"(id|name|key|code|arn|uuid|slug|number)$", norm(param)) or norm(param) in ("name", "key", "code"):
                continue
            said = _said_key(o, param, shape, coll[-1])
            if said is not None:
                how = f"GET {o.path} returns one {shape.name or singular(coll[-1])}; its path parameter {{{param}}} takes its {said}, as the parameter's description says"
                by_coll[pat] = Resource(list(coll), param, shape, said, how, getter=o)
                continue
            how = f"GET {o.path} returns one {shape.name or singular(coll[-1])}; it holds no id-like property, so its key is the path parameter {{{param}}}"
            by_coll[pat] = Resource(list(coll), param, shape, param, how, getter=o)
            continue
        post = posts.get(pat)
        if post is None:
            continue
        key = imp.key_prop(post.body, param, coll[-1]) or param
        how = f"GET {o.path} declares no response: the fields are the body of POST {post.path}"
        by_coll[pat] = Resource(list(coll), param, post.body, key, how, getter=o)
    for o, shape, param, getter in keyless:
        pat = pattern(o.segs)
        if pat in by_coll or (shape.name and shape.name in named) or not _child_rows(o, shape, by_coll) or _singular_beside(imp, o, shape, by_coll):
            continue
        # `GET /properties/{id}/rooms` listing rooms with no id of their own: the rooms of one
        # property, a child table keyed by an id the world gives them (never a tool's argument)
        owner = next(r for r in by_coll.values() if r.item == pattern(o.segs[:-1]))
        of = words(singular(snake(owner.coll_segs[-1])))
        by_coll[pat] = Resource(list(o.segs), param, shape, "", f"GET {o.path} lists objects with no id of their own under one {of}: a child table, keyed by an id the world gives each row", getter=getter)
        by_coll[pat].owner = owner  # type: ignore[attr-defined]  # what its other operations work on (openapi.make_tools)
        if shape.name:
            named.add(shape.name)
    key_only(imp, by_coll)
    singletons(imp, by_coll)


def key_only(imp: "OpenAPIImporter", by_coll: dict) -> None:
    """A collection whose rows are their keys alone: `GET C` lists bare keys (`{ConfigurationSets:
    [string]}`, or a bare array of strings) and operations work on `C/{x}` or under it, but no
    response shows a row's fields. AWS Pinpoint SMS Voice's configuration sets are listed so,
    created by `POST C {ConfigurationSetName}`, deleted by `DELETE C/{ConfigurationSetName}`, and
    hold event destinations at `C/{ConfigurationSetName}/event-destinations`. Unread, the sets
    were no table, and the destinations' `{ConfigurationSetName}` one made-up scope value: no task
    could list the sets and follow one. Read, the table holds the key and nothing else; its list is
    D58's view of the keys, the row is known by its key (D60) where the key is a name."""
    below: dict[str, "Op"] = {}  # a path pattern → the first operation on an item under it (`C/{x}...`)
    getters: dict[str, "Op"] = {}  # an item's pattern → its GET
    for x in imp.ops:
        for i, seg in enumerate(x.segs):
            if is_param(seg):
                below.setdefault(pattern(x.segs[:i]), x)
        if x.method == "get" and x.segs and is_param(x.segs[-1]):
            getters.setdefault(pattern(x.segs), x)
    for o in imp.ops:
        if o.method != "get" or not o.segs or is_param(o.segs[-1]) or o.segs[-1].startswith(":"):
            continue
        pat, n = pattern(o.segs), len(o.segs)
        if pat in by_coll or pat not in below:
            continue
        item = below[pat]
        param = pname(item.segs[n])
        # (a spec that declares no response at all, Fisheye's `/admin/groups` and
        # `/admin/groups/{name}`, was read so too and tried: its tables gave no task, as its
        # actions name nothing but the group, so the rule stays with lists that show keys)
        if not imp.lists_keys(o.response, norm(param)):
            continue
        key = Shape("scalar", "string", description=f"the {words(singular(snake(o.segs[-1])))}'s {words(snake(param))}")
        shape = Shape("object", props={param: key}, required={param})
        by_coll[pat] = Resource(list(o.segs), param, shape, param, f"GET {o.path} lists the keys {{{param}}} of the rows {item.label} works on, and no response shows a row's fields: a table of the keys alone", getter=getters.get(pat + "/{}"))


def _singular_beside(imp: "OpenAPIImporter", o: "Op", shape: Shape, by_coll: dict) -> bool:
    """Is there a resource whose item sits beside this list in the other number (`GET
    /sourceLocation/{s}/liveSources` beside `/sourceLocation/{s}/liveSource/{l}`) and whose key
    the listed objects carry? Then the list is that resource's (`sibling_list`), not a child
    table of its own: MediaTailor's live sources were two tables, and a blind player found the
    live source it added missing from the list."""
    word = norm(singular(snake(o.segs[-1])))
    prefix = pattern(o.segs[:-1])
    return any(
        pattern(r.coll_segs[:-1]) == prefix and r.coll_segs[-1].lower() != o.segs[-1].lower() and norm(singular(snake(r.coll_segs[-1]))) == word and r.key_prop and norm(r.key_prop) in imp.prop_names(shape)
        for r in by_coll.values()
    )


def _stem_key(shape: Shape, word: str, by_coll: dict) -> str | None:
    """The id-like property of a listed object named after the start of the collection's word
    where the word is no plain plural of it: `NewsID` for `/News`, `PlayerSeasonID` for
    `/PlayerSeasonStats`. Never another resource's key (`PlayerID` in player stats names the
    player, not the row)."""
    w = norm(word)
    others = {norm(r.key_prop) for r in by_coll.values() if r.key_prop}
    best = None
    for p, ps in shape.props.items():
        n = norm(p)
        stem = n[:-2]
        if ps.kind != "scalar" or ps.type not in ("string", "integer") or not n.endswith("id") or len(stem) < 3 or n in others:
            continue
        if w.startswith(stem) and (best is None or len(stem) > len(norm(best)) - 2):
            best = p
    return best


# what a description says of a `name` that is the record's key, not its label: Google's "The
# resource name of the ...", "in the form enterprises/{enterpriseId}/devices/{deviceId}", "Format:
# projects/{project}/..."
RESOURCE_NAME = re.compile(r"resource name|\bin the (?:form|format)\b[^.]*/|\bformat:?\s*`?[\w{}*-]+/", re.I)


def _name_key(imp: "OpenAPIImporter", shape: Shape) -> str | None:
    """`name` as the key of a listed object where the API names its records by it (issue 30):
    Google's resource names (`enterprises/e1/devices/d1`) are keys, and a Google API's lists
    (`GET /v1/{parent}/devices`) often have no get of their own left (every item get shares
    `GET /v1/{name}`, which the spec keeps for one of them). Honest only where `name` is an
    identifier, not a label: the API addresses items by resource names (`/v1/{name}`), or the
    property says it is a resource name; and the objects are records (a value or an object of
    them beside the name: apphub's discovered services hold two objects), not a list of names."""
    ps = shape.props.get("name")
    if ps is None or ps.kind != "scalar" or ps.type != "string" or not any(s.kind in ("scalar", "object") for p, s in shape.props.items() if p != "name"):
        return None
    return "name" if RESOURCE_NAME.search(ps.description) or imp.names_items() else None


def _child_rows(o: "Op", shape: Shape, by_coll: dict) -> bool:
    """Is `GET P/{id}/C` a list of rows that belong to one P though they carry no id (a
    property's rooms, a device's latency history)? Its path is a literal word after a
    resource's item, and its objects hold at least two values of their own (not a list of
    names or of links)."""
    if len(o.segs) < 3 or not is_param(o.segs[-2]) or o.segs[-1].lower() in DETAIL_WORDS or o.segs[-1].lower() in SEARCH_WORDS:
        return False
    if not any(r.item == pattern(o.segs[:-1]) and not getattr(r, "singleton", False) for r in by_coll.values()):
        return False
    # not settings of the owner that hold a list beside values of their own (`snmpSettings
    # {access, users: [...]}`)
    if o.response is not None and not _only_a_list(o.response):
        return False
    return sum(1 for s in shape.props.values() if s.kind == "scalar") >= 2


def _one_item(imp: "OpenAPIImporter", r: Shape) -> bool:
    """Is a response an envelope of one object with a key of its own and nothing else that lists
    (`{isError, message, result: Package}`)? The arrays that object holds (a package's
    `availableGyms`) are its own, not a list the GET gives: tl-api's `GET /api/Package?packageId=`
    was read as the list of every gym. Only an envelope: an object that is the response itself
    may be a list's envelope that names its owner (`{playlistId, items: [...]}`)."""
    item = imp.unwrap_item(r)
    if item is None or item is r or not an_item(item):
        return False
    todo = [(r, 0)]
    while todo:  # nothing beside the item lists (`{user: {...}, repos: [...]}` lists the repos)
        s, depth = todo.pop()
        if s is item or depth > 3:
            continue
        if s.kind == "array" and s.items is not None and s.items.kind == "object":
            return False
        if s.kind == "object":
            todo.extend((v, depth + 1) for v in s.props.values() if v.kind in ("object", "array"))
    return True


def an_item(s: Shape) -> bool:
    """Is an object one record, not a list's envelope: a key of its own (`packageId`) and a value
    beside its lists? The lists it holds are its own (a package's `availableGyms`)."""
    return s.kind == "object" and not _only_a_list(s) and any(x.kind == "scalar" and (norm(p) in ("id", "uid", "uuid", "guid", "key") or norm(p).endswith("id")) for p, x in s.props.items())


def _only_a_list(r: Shape) -> bool:
    """Is a response the list itself, or an envelope that holds nothing of its own beside it (a
    count, paging, links)?"""
    if r.kind == "array":
        return True
    return r.kind == "object" and not any(s.kind != "array" and not re.search(ENVELOPE_WORDS, norm(p)) and norm(p) not in ("links", "meta", "metadata", "paging", "pagination") for p, s in r.props.items())


def listed_under(imp: "OpenAPIImporter") -> None:
    """`GET P/{id}/C` listing the records of another resource R whose record names no P
    (`GET /properties/{propertyID}/tenancies` listing `TenancyModel`s, which hold no property
    id): the path says which P each listed R belongs to, so R gets a field for it (`property_id:
    PropertyId`, seeded `ref`), and the GET becomes a list of R by that field
    (`through_reference`). Run after the records are built and before they are seeded."""
    items = {r.item: r for r in imp.resources}
    for o in imp.ops:
        if o.method != "get" or len(o.segs) < 3 or is_param(o.segs[-1]) or o.segs[-1].startswith(":") or not is_param(o.segs[-2]):
            continue
        owner = items.get(pattern(o.segs[:-1]))
        if owner is None or owner.record is None or o.segs[-1].lower() in DETAIL_WORDS:
            continue
        listed = [it for it in imp.listed(o.response) if it.name]
        for r in imp.resources_named({it.name for it in listed}):
            if r is owner or r.record is None or getattr(r, "singleton", False) or r.coll == pattern(o.segs):
                continue
            if any(f.ref == owner.qualified for f in r.record.fields) or any(parent is owner for _, parent in r.parents):
                break  # it names its owner already: the list is one of R by that field
            # a text property named as the owner alone holds its id (Clever's sections hold
            # `school: string` and are listed at `/schools/{id}/sections`; a `school_id` beside it
            # left `school` a text no task could follow, and a task said "the school id of the
            # section"), unless it says it is a name
            bare = {norm(singular(owner.table)), norm(owner.name)}
            own = next((f for f in r.record.fields if not f.key and not f.ref and not f.json and f.base == "text" and "." not in f.src and norm(f.src or f.name) in bare and not re.search(r"\b(?:name|title)\b", getattr(getattr(f, "_shape", None), "description", "") or "", re.I)), None)
            if own is not None:
                own.type, own.base, own.ref, own.default = owner.alias, "id", owner.qualified, '""'
                own.comments = [c for c in own.comments if not c.startswith(("nullable", "JSON text"))] + [f"refers to {article(owner.noun)} {owner.noun}: the {owner.noun} it is listed under ({o.label})"]
                break
            taken = {f.name for f in r.record.fields}
            p = pname(o.segs[-2])  # named as the path names it (`salesInstructionID` → sales_instruction_id)
            name = snake(p) if norm(p).endswith("id") and norm(p) != "id" else snake(singular(owner.table)) + "_id"
            if name in taken:
                # the row's own key's name (PI Web API's `/elements/{webId}/eventframes`: every
                # row's key is a `web_id`): the owner's, `element_id`, not `web_id_2` ("update the
                # web id 2 of the event frame", a fresh draw, stop 72)
                name = snake(owner.noun) + "_id"
            name = unique(safe(name), taken)
            f = FieldIR(name, owner.alias, "id", default='""', ref=owner.qualified)
            f.comments = [f"the {owner.noun} it is listed under ({o.label}); the API's {r.noun} does not name it"]
            r.record.fields.insert(1 + len(r.parent_fields), f)
            break


def singleton_kind(o: "Op", r: "Resource", pat: str) -> str | None:
    """What an operation on a singleton's path is: its GET reads it, a PUT or PATCH updates it."""
    if pat != r.coll:
        return None
    return {"get": "get_one", "put": "update_one", "patch": "update_one"}.get(o.method)


def scope_list(imp: "OpenAPIImporter", o: "Op") -> "Resource | None":
    """The resource a GET on a collection-like path lists: its response holds a list of the
    resource's own schema, and every path parameter is a parent of the resource (so that the
    list filters by them): Azure's `GET /subscriptions/{s}/providers/X/things`."""

    if o.method != "get" or not o.segs or is_param(o.segs[-1]) and (o.response is None or not _only_a_list(o.response)):
        return None  # a path that ends in a parameter lists only when its response is a list
    if o.response is not None and _one_item(imp, o.response):
        return None  # the lists a package holds (its `availableGyms`) are the package's, not the gyms
    params = [pname(s) for s in o.segs if is_param(s)]
    for it in imp.listed(o.response):
        if not it.name:
            continue
        for r in imp.resources_named({it.name}) or _listed_as(imp).get(it.name, []):
            parents = {p for p, _ in r.parents}
            if all(p in parents for p in params):
                return r
            by_ref = through_reference(imp, o, r, params, parents)
            if by_ref:
                o._by_ref = by_ref  # type: ignore[attr-defined]
                return r
    found = sibling_list(imp, o, params)
    if found is None and (found := search_list(imp, o)) is not None:
        o._searched = True  # type: ignore[attr-defined]  # its objects are a view of the rows (openapi.summary_fields)
    return found


def _listed_as(imp: "OpenAPIImporter") -> dict[str, list["Resource"]]:
    """{schema name: the resources whose own list (`GET C`) shows objects of it}: a list
    elsewhere that shows the same objects lists the same rows. Transavia's airports are read by
    `GET /{id}` as `AirportDetailsDto` and listed by `GET /` as `AirportDto`, as is `GET
    /countrycode/{countryCode}`, the airports of one country. Once per import."""
    got = imp._listed_as
    if got is None:
        got = {}
        lists = {pattern(x.segs): x for x in imp.ops if x.method == "get" and x.segs and not is_param(x.segs[-1])}
        for r in imp.resources:
            x = lists.get(r.coll)
            shown = imp.list_of(x.response, r) if x is not None else None
            if shown is not None and shown.name and shown.name != r.shape.name:
                got.setdefault(shown.name, []).append(r)
        imp._listed_as = got
    return got


# path words that say a GET finds objects of the collection named after them (`/search/series`)
_FINDS = ("search", "find", "query", "lookup")


def _searched(imp: "OpenAPIImporter", o: "Op", shape: Shape, resources) -> "Resource | None":
    """The resource `GET .../search/<collection>` finds: one whose collection word is the
    path's last segment and whose objects the listed ones are a view of (they carry its key
    property, and most of their other properties are its). TheTVDB's `GET /search/series?name=`
    lists `SeriesSearchResult`s, series seen in part: read as a table of its own, its rows were
    no series, and a series, which has no other list, could never be found by its name (no task
    in the API). Path parameters must be the resource's parents, as for any list of it.
    The other order, `GET <noun>_summary/search` (eBay's `/item_summary/search`, summaries of
    `/item/{item_id}`'s items), finds them too."""
    raw = split_path(o.path)
    if len(raw) >= 2 and raw[-1].lower() in _FINDS and re.fullmatch(r"\w+_summary", raw[-2], re.I):
        word = norm(singular(snake(raw[-2][: -len("_summary")])))
    elif len(o.segs) < 2 or is_param(o.segs[-1]) or o.segs[-2].lower() not in _FINDS:
        return None
    else:
        word = norm(singular(snake(o.segs[-1])))
    params = {pname(s) for s in o.segs if is_param(s)}
    props = imp.prop_names(shape)
    for r in resources:
        if getattr(r, "singleton", False) or not r.key_prop or norm(singular(snake(r.coll_segs[-1]))) != word:
            continue
        if norm(r.key_prop) not in props or not params <= {p for p, _ in r.parents}:
            continue
        others = props - {norm(r.key_prop)}
        if others and len(others & imp.prop_names(r.shape)) * 2 >= len(others):
            return r
    return None


def search_list(imp: "OpenAPIImporter", o: "Op") -> "Resource | None":
    """The resource a `GET .../search/<collection>` lists (`_searched`)."""
    item = imp.unwrap_list(o.response)
    return None if item is None else _searched(imp, o, item, imp.resources)


def sibling_list(imp: "OpenAPIImporter", o: "Op", params: list[str]) -> "Resource | None":
    """AWS's REST style names an item in the singular and its list in the plural, side by side
    (`GET /channel/{ChannelName}`, `GET /channels`; `/sourceLocation/{s}/liveSource/{l}` and
    `/sourceLocation/{s}/liveSources`), and the list's items are a schema of their own
    (`Channel`, not `DescribeChannelResponse`): a GET whose last segment is the resource's
    collection word in the other number, under the same parent path, listing objects that carry
    the resource's key property, lists it."""
    item = imp.unwrap_list(o.response)
    if item is None:
        return None
    return next((r for r in _other_number(imp, o, params) if norm(r.key_prop) in imp.prop_names(item)), None)


def _other_number(imp: "OpenAPIImporter", o: "Op", params: list[str]) -> list["Resource"]:
    """The resources whose collection word is `o`'s last segment in the other number, under the
    same parent path, every path parameter of `o` a parent of theirs (`/channels` beside
    `/channel/{ChannelName}`)."""
    word = norm(singular(snake(o.segs[-1])))
    prefix = pattern(o.segs[:-1])
    return [
        r
        for r in imp.resources
        if not getattr(r, "singleton", False)
        and pattern(r.coll_segs[:-1]) == prefix
        and r.coll_segs[-1].lower() != o.segs[-1].lower()
        and norm(singular(snake(r.coll_segs[-1]))) == word
        and all(p in {q for q, _ in r.parents} for p in params)
    ]


def sibling_create(imp: "OpenAPIImporter", o: "Op") -> "Resource | None":
    """The resource a `POST` on the other number of its collection word creates: AWS's REST
    style and PayRun.IO name an item in the singular and add one with a POST on the plural, side
    by side (`GET /trustanchor/{trustAnchorId}`, `POST /trustanchors` CreateTrustAnchor;
    `/Employer/{EmployerId}`, `POST /Employers`), as `sibling_list` finds their lists. Only a
    POST with an object body whose id does not say it reads, under the same parent path, every
    path parameter a parent of the resource: it was recorded as no resource's (IAM Roles
    Anywhere's trust anchors, profiles and revocation lists could be listed, changed and
    deleted, never added)."""
    if o.method != "post" or not o.segs or is_param(o.segs[-1]) or o.body is None or o.body.kind != "object" or reads(o):
        return None
    return next(iter(_other_number(imp, o, [pname(s) for s in o.segs if is_param(s)])), None)


def items_of(imp: "OpenAPIImporter") -> dict:
    """Item path → resource, made once per import (the resources are settled by then)."""
    got = getattr(imp, "_resources_by_item", None)
    if got is None:
        got = imp._resources_by_item = {}  # type: ignore[attr-defined]
        for x in imp.resources:
            got.setdefault(x.item, x)
    return got


def through_reference(imp: "OpenAPIImporter", o: "Op", r: "Resource", params: list[str], parents: set) -> dict[str, str]:
    """`GET /albums/{id}/tracks` listing Tracks, whose record refers to an album (`album_id`):
    {path parameter: the field that refers to the resource the path names}; empty unless every
    path parameter is a parent of `r` or the key of one owner that such a field refers to."""

    got = {}
    for i, seg in enumerate(o.segs):
        if not is_param(seg) or pname(seg) in parents:
            continue
        p = pname(seg)
        owner = items_of(imp).get(pattern(o.segs[: i + 1]))
        fields = [f for f in r.record.fields if not f.key and not f.json and f.base != "list"] if r.record is not None else []
        if owner is not None:
            field = next((f for f in fields if f.ref == owner.qualified), None)
        else:
            # no item on the path: a parameter named as a field of the listed record filters by it
            # (`GET /NewsByPlayerID/{playerid}` lists the news whose `PlayerID` is that player)
            field = next((f for f in fields if norm(p) in (norm(f.src), norm(f.name)) and f.name not in r.parent_fields.values()), None)
        if field is None:
            return {}
        got[p] = field.name
    return got


# ─── status actions ───


def action_of(imp: "OpenAPIImporter", o: "Op", r: "Resource") -> tuple[Any, str, str] | None:
    """(field, value, verb) for an action on one row that moves a status enum (`POST
    C/{id}/cancel`, `C/{id}:cancel`, `C/{id}/actions/cancel`, `cancelOrder` → `cancelled`) or
    sets a flag (`archive` → `archived: true`); None when the record has neither the member nor
    the flag the verb leads to."""

    if o.method not in ("post", "put", "patch") or r.record is None:
        return None
    n = len(r.coll_segs)
    if len(o.segs) <= n + 1 or not is_param(o.segs[n]):
        return None
    rest = [s.lstrip(":") for s in o.segs[n + 1 :]]
    if any(is_param(s) for s in rest):
        return None
    rest = [s for s in rest if s.lower() not in ACTION_WORDS]
    if len(rest) != 1:
        return None
    toks = [t for t in snake(rest[0]).split("_") if t]
    if not toks or toks[0] not in STATUS_VERBS and toks[0] not in FLAG_VERBS:
        return None
    own = set(snake(r.name).split("_")) | set(snake(r.table).split("_")) | {singular(t) for t in snake(r.table).split("_")}
    if any(t not in own for t in toks[1:]):
        return None  # `cancel_subscription_item` on an order: not the row's own status
    return status_member(imp, r, toks[0])


def status_member(imp: "OpenAPIImporter", r: "Resource", verb: str) -> tuple[Any, str, str] | None:
    """(field, value, verb): the member of `r`'s status enum the verb leads to (`cancel` →
    `cancelled`), or the flag it sets (`archive` → `archived: true`); None when the record has
    neither. Shared by the actions on an item's path (`action_of`) and the recorded calls that
    name a row (world_model: an RPC `CancelChangeSet {ChangeSetId}`)."""
    if r.record is None or verb not in STATUS_VERBS and verb not in FLAG_VERBS:
        return None
    wanted = [norm(m) for m in STATUS_VERBS.get(verb, ())]
    # a status-like enum only (`status`, `state`, `order_status`): `approve` on a review does not set its `closed_reason`
    fields = [f for f in r.record.fields if f.base == "enum" and f.enum in imp.enums and not f.key and re.search(r"(^|_)(status|state|phase|stage)$", f.name)]
    fields.sort(key=lambda f: (0 if f.name in STATUS_NAMES or f.name.endswith(("_status", "_state")) else 1, f.src.count(".")))
    for f in fields:
        members = imp.enums[f.enum].members if f.enum in imp.enums else []
        for w in wanted:
            m = next((m for m in members if norm(m) == w), None)
            if m is not None:
                return f, m, verb
    flags, value = FLAG_VERBS.get(verb, ((), True))
    for want in flags:
        f = next((f for f in r.record.fields if f.base == "bool" and norm(f.name) in (want, "is" + want) and "." not in f.src), None)
        if f is not None:
            return f, "true" if value else "false", verb
    # or the flag that says the opposite, the other way (Netlify's `enable` on a hook that holds
    # `disabled`: recorded, the hook stayed disabled, and a task "enabled" a hook already
    # enabled, which a blind player puzzled over in round 57)
    for want in flags:
        other = _OPPOSITE_FLAGS.get(want)
        f = next((f for f in r.record.fields if other and f.base == "bool" and norm(f.name) in (other, "is" + other) and "." not in f.src), None)
        if f is not None:
            return f, "false" if value else "true", verb
    return None


# a flag and the one that says its opposite (`status_member`)
_OPPOSITE_FLAGS = {"enabled": "disabled", "active": "inactive", "locked": "unlocked", "hidden": "visible", "published": "unpublished", "read": "unread"}


def tool_action(imp: "OpenAPIImporter", o: "Op", r: "Resource") -> ToolIR | None:
    got = action_of(imp, o, r)
    if got is None:
        return None
    f, member, verb = got
    taken = imp.fresh()
    params, info = imp.path_params(o, r, taken)

    key = info[pname(o.segs[len(r.coll_segs)])][0]
    body = [imp.check_key(r, key), *imp.parent_checks(r, info, key), f"update {r.table}[{key}] {{ {f.name}: {member} }}"]
    result = None
    if o.has_response and imp.returns_resource(o, r):
        body.append(f"return {r.table}[{key}]")
        result = r.name
    what = f"a member of {f.enum}" if f.base == "enum" else "a flag of the record"
    comments = [f"{o.label}: action: {verb} sets {f.name} to {member} ({what}; the verb {verb!r} leads to it)"]
    left = [p.name for p in o.params if p.where == "query"] + (list(o.body.props) if o.body is not None and o.body.kind == "object" else [])
    if left:
        comments.append("the request's other parameters are not modelled: " + ", ".join(left[:12]) + (", ..." if len(left) > 12 else ""))
    o._why = f"sets {f.name} to {member}"  # type: ignore[attr-defined]
    return ToolIR(
        imp.tool_name(o, f"{verb}_{snake(r.name)}"),
        params,
        result,
        imp.describe(o, f"{verb.capitalize()} one {r.noun}"),
        f"{verb} {r.noun} {{{key}}}",
        None,
        body,
        comments=comments,
    )


# ─── bodies through one wrapper level ───


def through_wrappers(r: "Resource", body: Shape, by_src: dict) -> None:
    """A record read from a wrapped response (`{database: {name, dimension}}` → fields
    `database_name`, ...) is set by a body that names the inner properties (`{name, dimension}`):
    the inner names match too, after every direct name."""
    for f in r.record.fields:
        if f.key or f.src.count(".") != 1 or f.ref and f.name in r.parent_fields.values():
            continue
        if r.key_prop and norm(f.src.split(".")[1]) == norm(r.key_prop):
            # the row's own key, named again inside one of its objects (Neptune's
            # `PendingModifiedValues.DBClusterIdentifier`), is no field a create sets: the
            # body's `DBClusterIdentifier` chose a pending value, and the key was made up
            continue
        by_src.setdefault(norm(f.src.split(".")[1]), f)


def unwrap_body(body: Shape, by_src: dict, names: set[str] = frozenset()) -> Shape:
    """A body that wraps the record in a property (`{issue: {...}}`, Jira's `{fields: {...},
    update: {...}}`): the inner object naming the most fields, when no outer property names one;
    or the property named as the record (`names`), beside others that do (AWS Cost Explorer's
    `CreateAnomalyMonitor` takes `{AnomalyMonitor: {...}, ResourceTags: [...]}`, and the tags
    named the record's `resource_tags`: the create was simulated, "the body sets no field")."""
    named = [s for p, s in body.props.items() if norm(p) in names and s.kind == "object" and any(norm(q) in by_src for q in s.props)]
    if len(named) == 1:
        return named[0]
    if any(norm(p) in by_src for p in body.props):
        return body
    hits = [(sum(norm(p) in by_src for p in s.props), i, s) for i, s in enumerate(body.props.values()) if s.kind == "object"]
    best = max(hits, key=lambda h: (h[0], -h[1]), default=None)  # the wrapper naming most fields (Jira: `fields`, not `update`)
    return best[2] if best is not None and best[0] > 0 else body


# ─── one object per row: settings, preferences, configurations ───

ONE = "one_"  # the `let` name of the row a singleton's tools work on


def singletons(imp: "OpenAPIImporter", by_coll: dict) -> None:
    """`GET P/{id}/S` returning one object with no id-like property, where `P/{id}` is a
    resource's item (`GET /networks/{networkId}/alertSettings`): the row's settings, one per row
    at most. A child table keyed by an id of its own, its parent field seeded `unique ref`
    (`unique_parents`); the GET reads it and a PUT or PATCH on the path updates it."""

    items = {r.item: r for r in by_coll.values()}
    named = {r.shape.name for r in by_coll.values() if r.shape.name}
    for o in imp.ops:
        if o.method != "get" or len(o.segs) < 3 or is_param(o.segs[-1]) or o.segs[-1].startswith(":") or not is_param(o.segs[-2]):
            continue
        word = o.segs[-1]
        pat = pattern(o.segs)
        if pat in by_coll or word.lower() in DETAIL_WORDS or pattern(o.segs[:-1]) not in items:
            continue
        shape = imp.unwrap_item(o.response)
        if shape is None or shape.kind != "object" or imp.unwrap_list(o.response) is not None or (shape.name and shape.name in named):
            continue
        scalars = [p for p, s in shape.props.items() if s.kind == "scalar"]
        if len(scalars) < 2 or imp.key_prop(shape, singular(re.sub(r"\W", "", word) or "x") + "Id", word) is not None:
            continue
        owner = items[pattern(o.segs[:-1])]
        of = words(singular(snake(owner.coll_segs[-1])))
        how = f"GET {o.path} returns one object of its {of} with no id of its own: at most one row per {of}"
        r = Resource(list(o.segs), singular(re.sub(r"\W", "", word) or "x") + "Id", shape, "", how, getter=o)
        r.singleton = True  # type: ignore[attr-defined]
        by_coll[pat] = r


def unique_parents(imp: "OpenAPIImporter", tables: dict) -> None:
    """A singleton's nearest parent is seeded `unique ref`: one row per parent at most."""
    for r in imp.resources:
        if not getattr(r, "singleton", False) or r.qualified not in tables:
            continue
        near = [p for p, parent in r.parents if parent is not None][-1:]
        for p in near:
            f = r.parent_fields[p]
            seed = tables[r.qualified].seed
            if seed.get(f, "").startswith("ref "):
                seed[f] = "unique " + seed[f]


def one_of(imp: "OpenAPIImporter", o: "Op", r: "Resource", taken: set) -> tuple[list, dict, str, str, str]:
    """(params, info, condition, the not_found check, what it is called) of a singleton's tool."""

    params, info = imp.path_params(o, r, taken)
    conds = [f"{ROW}.{r.parent_fields[p]} == {info[p][0]}" for p, _ in r.parents if p in info]
    cond = " and ".join(conds) or "true"
    near = [(p, parent) for p, parent in r.parents if p in info][-1:]
    whose = "".join(f" of {parent.noun if parent else words(p)} {{{info[p][0]}}}" for p, parent in near)
    check = f"require exists({ROW} in {r.table} where {cond}) else not_found {lit(f'no {r.noun}{whose}')}"
    return params, info, cond, check, whose


def tool_one(imp: "OpenAPIImporter", o: "Op", r: "Resource") -> ToolIR | None:

    params, info, cond, check, whose = one_of(imp, o, r, imp.fresh())
    if not params:
        return None
    o._why = f"the one {r.noun}{whose.split(' {')[0]}"  # type: ignore[attr-defined]
    return ToolIR(
        imp.tool_name(o, f"get_{snake(r.name)}"),
        params,
        r.name,
        imp.describe(o, f"Get the {r.noun}{whose.split(' {')[0]}"),
        f"look up the {r.noun}{whose}",
        f"the {r.noun}{whose}",
        [check, f"return earliest({ROW} in {r.table} where {cond} by {ROW}.{r.key_field})"],
        comments=[f"{o.label}: get the one {r.noun}{whose.split(' {')[0]} (a row's own object: at most one per row)"] + imp.unused_note(o, info),
    )


def tool_update_one(imp: "OpenAPIImporter", o: "Op", r: "Resource") -> ToolIR | None:

    imp.reserved.add(ONE)
    taken = imp.fresh()
    params, info, cond, check, whose = one_of(imp, o, r, taken)
    fields, left, _ = imp.writable(o, r, imp.sent(o), set(r.parent_fields.values()), update=True)
    if not params or not fields:
        return None
    chosen = imp.rank_writable(r, fields)[:MAX_WRITE_PARAMS]
    req, opt, assigns, phrases = [], [], [], []
    for f in chosen:
        name = unique_name(f.name, taken)
        if f.textlike and f.base != "email" or f.json:
            opt.append(ParamIR(name, f.type, '""'))
            assigns.append(f'{f.name}: if {name} == "" then {r.table}[{ONE}.{r.key_field}].{f.name} else {name}')
        else:
            req.append(ParamIR(name, f.type))
            assigns.append(f"{f.name}: {name}")
        phrases.append((f.base == "bool", f"{words(f.name)} {{{name}}}"))
    body = [check, f"let {ONE} = earliest({ROW} in {r.table} where {cond} by {ROW}.{r.key_field})", f"update {r.table}[{ONE}.{r.key_field}] {{ {', '.join(assigns)} }}"]
    result = None
    if o.has_response:
        body.append(f"return {r.table}[{ONE}.{r.key_field}]")
        result = r.name
    with_ = said_with(phrases)
    comments = [f"{o.label}: update the one {r.noun}{whose.split(' {')[0]} (patch the given fields; a blank text argument keeps the field as it is)"]
    if left:
        comments.append("body properties left out (no field of the record, or read-only): " + ", ".join(left[:15]) + (", ..." if len(left) > 15 else ""))
    return ToolIR(imp.tool_name(o, f"{o.method}_{snake(r.name)}"), params + req + opt, result, imp.describe(o, f"Update the {r.noun}"), f"update the {r.noun}{whose} with {with_}", None, body, comments=comments)


def unique_name(name: str, taken: set) -> str:
    from .common import safe, unique

    return unique(safe(name), taken)


# ─── scopes no resource owns: one tenant ───


def scope_seeds(imp: "OpenAPIImporter", tables: dict) -> None:
    """A path parameter before a row's id that names no resource of the spec (Azure's
    `subscriptionId` and `resourceGroupName`, a GitHub `{owner}`, a `{format}`) is a text field
    of the row that every tool on the row checks. Seeded with one value for the whole spec (the
    world is one tenant: one subscription, one resource group), so that every table's rows share
    it and a call that states the scope of a row it found states the one that row has; seeded
    with a value a row each, a chain of calls could only name a row's scope by luck."""
    values = imp.scope_values  # also the world model's answers' (world_model.answered)
    for r in imp.resources:
        if r.qualified not in tables:
            continue
        seed = tables[r.qualified].seed
        for p, parent in r.parents:
            f = r.record.field(r.parent_fields[p]) if parent is None else None
            if f is None or f.base != "text" or f.name not in seed:
                continue
            n = norm(p)
            if n not in values:
                example = param_example(imp, p)
                if example is None and n in ("version", "apiversion"):
                    # `/v{version}/areas`: the API's own major version ("1"), not "version 31"
                    # (met in a Highways England task)
                    m = re.match(r"\s*v?(\d+)", imp.version)
                    example = m.group(1) if m else "1"
                said = _param_description(imp, p) + (" /providers/" if any(f"{{{p}}}/providers/" in o.path for o in imp.ops) else "")
                if example is None and (kind := said_as_kind(snake(p), said)) != snake(p):
                    seed[f.name] = text_seed(kind, r.noun)  # (Azure's `{scope}`, a resource path)
                values[n] = one_value(seed[f.name], p, example)
            seed[f.name] = values[n]
            if not any(c.startswith("one value") for c in f.comments):
                f.comments.append("one value for every row: a scope no resource of the spec owns (the world is one tenant)")


def _param_description(imp: "OpenAPIImporter", p: str) -> str:
    """What the spec says of a path parameter (its first operation's description of it)."""
    return next((got.description for o in imp.ops if (got := o.param(p)) is not None and got.where == "path" and got.description), "")


def param_example(imp: "OpenAPIImporter", p: str) -> str | None:
    """The value a path parameter's spec gives: its example, else its default or the first member
    of its enum (sportsdata's `/{format}/...`, `enum: [xml, json]`, `default: xml`, was "format 3")."""
    for o in imp.ops:
        got = o.param(p)
        if got is not None and got.where == "path" and isinstance(got.shape.example, str) and got.shape.example.strip() and "{" not in got.shape.example:
            return got.shape.example
    for o in imp.ops:
        got = o.param(p)
        if got is None or got.where != "path":
            continue
        for v in [got.shape.default, *(got.shape.enum or [])[:1]]:
            if isinstance(v, str) and v.strip() and "{" not in v:
                return v
    return None


def one_value(gen: str, name: str, example: str | None) -> str:
    """One literal of what a seed generator draws: the spec's example, the first of a `pick`,
    or a number of a `format`'s range chosen by the name (the same every import)."""
    if example is not None:
        return lit(example)  # whole: a path cut at 80 characters named nothing (".../resourceGroups/myResourceGrou")
    m = re.match(r'pick\(\[("(?:[^"\\]|\\.)*")', gen)
    if m:
        return m.group(1)
    m = re.fullmatch(r'format\(("(?:[^"\\]|\\.)*"), (-?\d+)\.\.(-?\d+)\)', gen)
    if m and m.group(1).count("{}") == 1:
        lo, hi = int(m.group(2)), int(m.group(3))
        n = lo + stable_hash(name) % (hi - lo + 1)
        return m.group(1).replace("{}", str(n))
    if gen.startswith('"'):
        return gen
    return lit(f"{words(snake(name))} 1")


# ─── creates under a key the caller chooses ───

CREATE_VERBS = {"create", "add", "insert", "register", "new"}


def creates(o: "Op") -> bool:
    """Does an operation on one item say it creates it (`CreateChannel`, `channels.create`,
    "Creates a channel")? Not an upsert (`createOrUpdate`, `upsert`): that updates a row that is
    there, which an update tool says."""
    raw = id_action(o.op_id) or o.summary
    toks = [t for t in snake(raw).split("_") if t]
    return bool(toks) and toks[0] in CREATE_VERBS and "or" not in toks[1:3] and "upsert" not in toks


def upserts(o: "Op") -> bool:
    """Does an operation on one item say it creates the item or changes the one there
    (`BastionHosts_CreateOrUpdate`, `upsertThing`, "Creates or updates a bastion host")?"""
    raw = id_action(o.op_id) or o.summary
    toks = [t for t in snake(raw or "").split("_") if t]
    if "upsert" in toks:
        return True
    return "or" in toks and any(t in CREATE_VERBS for t in toks[: toks.index("or")]) and any(t in ("update", "replace") for t in toks[toks.index("or") + 1 :])


# the first word of an operation id that reads: a `POST` so named asks for something, it adds
# nothing (AWS Customer Profiles' `POST /domains/{DomainName}/integrations` is GetIntegration)
READ_IDS = frozenset({"get", "list", "describe", "search", "query", "find", "lookup", "fetch", "retrieve", "count", "read", "show", "view", "export", "download"})


def reads(o: "Op") -> bool:
    """Does the operation's id say it reads (`GetIntegration`, `SearchContacts`)?"""
    toks = [t for t in snake((o.op_id or "").split(".")[-1]).split("_") if t]
    return bool(toks) and toks[0] in READ_IDS


def body_key(o: "Op", r: "Resource") -> str | None:
    """The body property of `POST C` that is the key of the row it creates, where the key is a
    property the item path names with its noun (`/collections/{collectionName}` is keyed by a
    collection's `name`, and `POST /collections {name, source}` chooses it); None otherwise (a
    create whose rows get a generated key)."""
    noun = norm(singular(snake(r.coll_segs[-1])))
    # a natural key (a name, a number, a code) is the caller's to choose; an `id` in a create's
    # body is the server's, whatever the spec says of it (YouTube's inserts)
    # (AWS's `DBClusterIdentifier`, which the caller chooses, "stored as a lowercase string")
    # (and a key named as a name, Kinesis' `ConsumerName` of a stream consumer, which
    # `RegisterStreamConsumer {StreamARN, ConsumerName}` chooses: left out of the create, the
    # consumer was "added" with a made-up key and no name, a fresh draw's task, stop 65)
    natural = norm(r.key_prop) in ("name", "number", "code", "slug") or norm(r.key_prop) == noun + "identifier" or r.said_key or norm(r.key_prop).endswith("name") and len(norm(r.key_prop)) > 4
    # (`{SecretId}` "the ARN or name of the secret" names it by its name too: `_said_key`)
    # (AWS Evidently's `/projects/{project}/experiments/{experiment}`: "the name of the
    # experiment", and `CreateExperiment {name, ...}` names it: `Resource.said_key`)
    if not natural or norm(r.item_param) not in (noun + norm(r.key_prop), noun + "id", norm(r.key_prop)) and not r.said_key or o.body is None or o.body.kind != "object":
        return None
    # (AWS's `CreateCluster {ClusterName, ...}` names it as the path does, not as the row does)
    names = (norm(r.key_prop), norm(r.item_param))
    top = next((p for p, s in o.body.props.items() if norm(p) in names and s.kind == "scalar" and not s.readonly), None)
    if top is not None:
        return top
    # or inside the object the body wraps the row in (AWS Budgets' `CreateBudget {AccountId,
    # Budget: {BudgetName, BudgetLimit, ...}}`: the budget got a made-up key, beside the name)
    wrap = next((p for p, s in o.body.props.items() if norm(singular(snake(p))) == noun and s.kind == "object"), None)
    inner = o.body.props[wrap].props if wrap is not None else {}
    return next((f"{wrap}.{p}" for p, s in inner.items() if norm(p) in names and s.kind == "scalar" and not s.readonly), None)


def tool_create_keyed(imp: "OpenAPIImporter", o: "Op", r: "Resource") -> ToolIR | None:
    """`POST /channel/{ChannelName}` (CreateChannel), `PUT /things/{name}` (createThing), `POST
    /collections {name}` for collections keyed by their name: an insert under the key the path
    or the body names, refused as a conflict when a row has it already."""
    tool = imp.tool_create(o, r, keyed=True)
    if tool is None:
        return None
    prop = body_key(o, r) if pattern(o.segs) == r.coll else None
    if prop is not None:
        named = unique_name(r.key_field, {p.name for p in tool.params} | imp.fresh())
        at = next((i for i, p in enumerate(tool.params) if p.default is not None), len(tool.params))
        tool.params.insert(at, ParamIR(named, r.alias))
    key = next((p.name for p in tool.params if p.type == r.alias), None)
    at = next((i for i, line in enumerate(tool.body) if line.startswith(f"let new_ = insert {r.table} {{ ")), None)
    if key is None or at is None:
        return None
    inner = tool.body[at][len(f"let new_ = insert {r.table} {{ ") :].rstrip().removesuffix("}").strip()
    tool.body[at] = f"let new_ = insert {r.table} {{ " + ", ".join([f"{r.key_field}: {key}"] + ([inner] if inner else [])) + " }"
    tool.body.insert(0, f"require not ({key} in {r.table}) else conflict {lit(f'{r.noun} {{{key}}} exists already')}")
    head = f"add {article(r.noun)} {r.noun}"
    if tool.say.startswith(head) and f"{{{key}}}" not in tool.say:
        # the key names the new row; a value the phrase named it by is said with its field's words
        rest = re.sub(r"^ \{(\w+)\}", lambda m: f", {words(m.group(1))} {{{m.group(1)}}}", tool.say[len(head) :])
        tool.say = f"{head} {{{key}}}{rest}"
    if prop is not None:  # the key is taken, not left out
        tool.comments = [re.sub(rf"\b{re.escape(prop.rsplit('.', 1)[-1])}(, |$)", "", c).removesuffix(": ").rstrip(", ") if c.startswith("body properties left out") else c for c in tool.comments]
        tool.comments = [c for c in tool.comments if not c.endswith("left out (no field of the record, or read-only)")]
    chosen = f"its {prop} in the body" if prop is not None else f"{{{pname(o.segs[-1])}}}"
    tool.comments[0] = f"{o.label}: create under the key the caller chooses ({chosen}; a conflict if a row has it)"
    return tool


# ─── create or update (Azure's `PUT .../bastionHosts/{bastionHostName}`) ───

HAD = "had_"  # the `let` name of "the key names a row already"; no spec name ends in `_`


def tool_upsert(imp: "OpenAPIImporter", o: "Op", r: "Resource") -> ToolIR | None:
    """`PUT` on one item named `createOrUpdate` (an upsert): a new row under the key the caller
    chooses, or, where a row has that key, its given fields patched as the update tool patches
    them (`OpenAPIImporter.update_parts`). The language has no statement that inserts or updates
    (D55): the row there is read into one `let` a field (`location_`: the argument, else the
    row's value, else the field's default), deleted if there, and inserted again whole. None
    where a field has no default to give a new row (a reference, a number with none): the
    operation is then an update as before."""
    parts = imp.update_parts(o, r)
    if parts is None or r.record is None or r.record.key is None:
        return None
    key = parts.key
    if next((p.name for p in parts.params if p.type == r.alias), None) != key:
        return None  # the path's last parameter is not the row's own key
    old = f"{r.table}[{key}]"
    sets = {f: (p, blank_keeps) for f, p, blank_keeps in parts.sets}
    parents = {f: p for f, p, _ in imp.parent_pairs(r, parts.info, key)}
    named_by_key = norm(r.item_param).endswith("name")
    lets, inits = [], [f"{r.key_field}: {key}"]
    for f in r.record.fields:
        if f.key:
            continue
        if f.name in parents:
            inits.append(f"{f.name}: {parents[f.name]}")
            continue
        if f.default is not None:
            default = f.default
        elif f.type.startswith("list["):
            default = "[]"
        else:
            return None
        if f.name == "name" and f.base == "text" and named_by_key and f.name not in sets:
            default = f"str({key})"  # Azure's `name` is the name in the path
        p, blank_keeps = sets.get(f.name, (None, False))
        if p is not None and not blank_keeps:  # a required argument: the new value either way
            inits.append(f"{f.name}: {p}")
            continue
        kept = f"if {HAD} then {old}.{f.name} else {default}"
        lets.append(f"let {f.name}_ = " + (f'if {p} != "" then {p} else {kept}' if p is not None else kept))
        inits.append(f"{f.name}: {f.name}_")
    body = [f"let {HAD} = {key} in {r.table}", *imp.parent_checks(r, parts.info, key, unless=f"not {HAD}"), *parts.checks, *lets]
    body += [f"delete {ROW} in {r.table} where {ROW}.{r.key_field} == {key}", f"insert {r.table} {{ {', '.join(inits)} }}"]
    result = None
    if o.has_response:
        body.append(f"return {old}")
        result = r.name
    say = re.sub(r"^\S+ ", "create or update ", parts.say, count=1)
    comments = [f"{o.label}: create or update (a new row under the key the caller chooses, else patch the given fields; a blank text argument keeps the field as it is)", *parts.comments[1:]]
    return ToolIR(imp.tool_name(o, f"{o.method}_{snake(r.name)}"), parts.params, result, imp.describe(o, f"Update {article(r.noun)} {r.noun}"), say, None, body, comments=comments)
