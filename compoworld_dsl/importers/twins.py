"""Operations on a row by its full id that twin one on its path (D57).

Azure's managed applications are read, written and deleted both on their path
(`PUT /subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/
Microsoft.Solutions/applications/{applicationName}`) and by the whole resource id (`PUT
/{applicationId}`), with one summary ("Creates a new managed application"). No resource owns the
second path, so the import recorded its call and simulated its read. A task made with one twin
failed a player who called the other (a blind player, round 13 of docs/benchmarks.md): the two
tools the API gives for one thing did different things.

Here such an operation becomes what its twin is, on the row its argument names: the row's scope
(the parents its path names) is read from the row, the argument stands for the key, and the rest is
the twin's own body. A write by the id needs the row there: the world names a row by its key
alone, so a create by a full id, which carries the scope, cannot be told here.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..vocab import norm
from .common import ToolIR, safe, snake, unique
from .ops import is_param, pname
from .world_model import row_names

# what a twin may be: an operation on one row by its key, and how a step through it is said when
# the twin's phrase names its scope
_VERBS = {"get": "look up", "delete": "delete", "update": "update", "upsert": "create or update"}
_ON_ONE = tuple(_VERBS)


def _summary(o: Any) -> str:
    """What the spec says an operation does (its summary, or its description where it has none)."""
    return norm(o.summary or o.description or "")


def _param(seg: str) -> str | None:
    """The parameter a path segment is, a `#fragment` (a spec's way to tell two operations of one
    method and path apart, `/{applicationDefinitionId}#disambiguation_dummy`) left out."""
    seg = seg.partition("#")[0]
    return pname(seg) if is_param(seg) else None


def _tool(imp: Any, qualified: str) -> tuple[Any, ToolIR] | None:
    svc_name, _, name = qualified.partition(".")
    svc = imp.services.get(svc_name)
    t = next((t for t in svc.tools if t.name == name), None) if svc is not None else None
    return (svc, t) if t is not None else None


def _twin(o: Any, by_words: dict) -> Any:
    """The one operation on one row of a resource that `o`, on no resource, twins: the same
    method and summary, and `o`'s one path parameter named as a key of that resource's rows."""
    params = [p for p in map(_param, o.segs) if p]
    if len(params) != 1 or not _param(o.segs[-1]) or not _summary(o):
        return None
    found = [t for t in by_words.get((o.method, _summary(o)), ()) if t is not o]
    found = [t for t in found if norm(params[0]) in row_names(t._res) and sum(map(is_param, t.segs)) > 1]
    return found[0] if len(found) == 1 else None


def by_id_twins(imp: Any) -> None:
    """Make each operation that twins an operation on one row (`_twin`) that operation, on the row
    its argument names. Runs after every tool is made: the twin's tool is copied, not made again."""
    by_words: dict[tuple[str, str], list[Any]] = {}
    for o in imp.ops:
        if o.kind in _ON_ONE and o.tool and getattr(o, "_res", None) is not None:
            by_words.setdefault((o.method, _summary(o)), []).append(o)
    for o in imp.ops:
        if o.kind not in ("recorded", "simulated", "answered") or not o.tool:
            continue
        t = _twin(o, by_words)
        if t is None:
            continue
        got, mine = _tool(imp, t.tool), _tool(imp, o.tool)
        if got is None or mine is None:
            continue
        made = _copy(imp, o, t, got[1])
        if made is None:
            continue
        svc, old = mine
        _drop(imp, svc, old)
        home = imp.services[t._res.service]
        home.tools.append(made)
        # a write by the id needs the row there (`_copy`): an upsert's twin only updates
        o.tool, o.kind = f"{t._res.service}.{made.name}", "update" if t.kind == "upsert" else t.kind
        o.why = f"{t.kind} by its id, as {t.label} does"


def _copy(imp: Any, o: Any, t: Any, twin: ToolIR) -> ToolIR | None:
    """`twin` (the tool of `t`) taking the key of the row alone: the scope its path names is read
    from the row. None where a path parameter is no field of the row (the scope cannot be read)."""
    r = t._res
    path, info = imp.path_params(t, r, imp.fresh())
    if [p.name for p in twin.params[: len(path)]] != [p.name for p in path]:
        return None  # not the tool the twin's path makes: leave it be
    key = path[-1].name
    if path[-1].type != r.alias:
        return None  # by a field the path names, not by the key (`get_by`): no key to stand for
    pairs = imp.parent_pairs(r, info, key)
    scope = {p for _, p, _ in pairs}
    if scope | {key} != {p.name for p in path}:
        return None
    rest = twin.params[len(path):]
    taken = {p.name for p in rest} | scope | {key} | set(imp.reserved)
    arg = unique(safe(snake(_param(o.segs[-1]) or "id")), taken)
    body = [
        imp.check_key(r, arg),
        *(f"let {p} = {r.table}[{arg}].{field_}" for field_, p, _ in pairs),
        f"let {key} = {arg}",
        *twin.body,
    ]
    params = [replace(path[-1], name=arg), *rest]
    names = {p.name for p in params}

    def phrase(text: str | None) -> str | None:
        if text is None:
            return None
        text = text.replace("{" + key + "}", "{" + arg + "}")
        return text if set(re.findall(r"\{(\w+)\}", text)) <= names else None

    say = phrase(twin.say) or f"{_VERBS[t.kind]} {r.noun} {{{arg}}}"
    if t.kind == "upsert":  # the row must be there: an update, said so
        say = re.sub(r"^create or update\b", "update", say)
    comments = [f"{o.label}: {t.kind} by its id, the twin of {twin.name} ({t.label}): the same body, its scope read from the row"]
    if t.kind == "upsert":
        comments.append("a row is named here by its key alone, so it must be there (the API may create one by a full id, which carries the scope)")
    return ToolIR(o.tool.partition(".")[2], params, twin.result, twin.description, say, phrase(twin.gives), body, comments=comments)


def _drop(imp: Any, svc: Any, tool: ToolIR) -> None:
    """Take `tool` out of `svc`, with the tables of the world model it alone used: the one its
    calls were recorded in, or the seeded answers it read."""
    svc.tools.remove(tool)
    imp.answered_tools[:] = [t for t in imp.answered_tools if t is not tool]
    mine = {m for line in tool.body for m in re.findall(r"\b(\w+_(?:calls|answers))\b", line)}
    for table in [x for x in svc.tables if x.name in mine]:
        if any(re.search(rf"\b{table.name}\b", line) for t in svc.tools for line in t.body):
            continue  # another tool reads or writes it too
        svc.tables.remove(table)
        imp.answer_tables[:] = [a for a in imp.answer_tables if a[2] is not table.record]
        if not any(x.record is table.record for x in svc.tables) and table.record in svc.records:
            svc.records.remove(table.record)
