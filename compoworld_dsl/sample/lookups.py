"""Calls an agent must make that the walk does not: the reference plan as an agent can follow it
from the instruction and what its own calls return, with no value from nowhere.

A walk binds each argument to an earlier step's output or to the instruction. Two kinds of
argument reach the agent by neither:

- **A record named by its own values** (`Phraser.found_by_name`: 'the direct reports of the
  colleague "Chloe Iqbal"', said in place of "of the manager of the colleague ... in office
  Dublin"). The walk took Chloe's key from a field of another record; that field shows an id,
  not a name, so the agent has to find Chloe by her name: a call of a finder (an entry tool
  called with the fields she was named by) before the first call that takes her key, unless an
  earlier call already showed her record with those values.
- **A value the house rules decide** (`ruled.find`: "set the deadline to the due date the
  house rules call for"). The instruction leaves it out; the agent has to read what the rule
  reads (the newest docket note of the matter) before the write, unless an earlier call showed
  it: a read-only tool of the services the rule reads, called with the write's own arguments,
  whose result holds the value. A rule's inputs are read whole (every page): the agent cannot
  know which note is the newest before it has seen them all.

Each such call is a task's `lookups` entry, made before the step it serves (docs/task-format.md#
lookups); it is not a walk step (`reference_plan` stays one call a step), changes no state, and
counts in the task's difficulty as the real calls and reads it is. Where no tool shows the value
the plan is left as it is (the argument is then the agent's to infer, as before). Reads the
record and state it is given; draws nothing, so `worldc verify` rebuilds the same calls."""

from __future__ import annotations

from typing import Any

from ..codegen.python import tstr
from ..runtime.paging import page_count, page_holding
from ..runtime.service import ToolError
from ..runtime.state import State
from .facts import WorldFacts, entry_fields
from .runs import call, runs
from .steps import Step, shown_fields


def lookups(facts: WorldFacts, state0: State, steps: list[Step], values: dict, plan: list[dict], results: list, named: dict, left: dict) -> list[tuple[int, dict, Any]]:
    """(index of the walk step it comes before, the `lookups` entry, its result) for each call
    the agent needs that the walk does not make, in the order an agent makes them."""
    people = facts.people
    wanted: list[tuple[int, str, Any]] = []  # (step, what, detail)
    for (table, key), fields in named.items():
        u = _first_use(facts, steps, plan, table, key)
        if u is not None:
            wanted.append((u, "record", (table, key, fields)))
    for k, name in left:
        wanted.append((k, "rule", (name, left[(k, name)])))
    for k, step in enumerate(steps):
        # a record found in a summary list by what the list does not show (D56): the agent
        # looks it up to see those values, before the first call that takes its key
        how, shown = step.how or {}, shown_fields(people, step.tool)
        if shown is None or step.pick is None or how.get("by") != "description" or set(how.get("fields", ())) <= shown:
            continue
        u = _first_use(facts, steps[k + 1 :], plan[k + 1 :], how["table"], step.pick)
        if u is not None:
            wanted.append((k + 1 + u, "view", (how["table"], step.pick, tuple(how["fields"]))))
    out: list[tuple[int, dict, Any]] = []
    for u, what, detail in sorted(wanted, key=lambda w: (w[0], w[1], repr(w[2][:2]))):
        seen = results[:u] + [r for j, _, r in out if j <= u]
        if what in ("record", "view"):
            table, key, fields = detail
            row = state0.tables[table][key]
            if any(_shows_record(r, people.key[table], key, {f: row[f] for f in fields}) for r in seen):
                continue
            why = {"record": {"table": table, "key": facts.world.types.to_json(_key_type(facts, table), key)}}
        else:
            name, proof = detail
            if any(_shows_value(r, values[(u, name)]) for r in seen):
                continue
            why = {"argument": name}
        state = runs(facts, state0, plan[:u])  # before step u: replayed only where a lookup is needed
        if state is None:
            continue
        got = _finder(facts, state, table, key, fields, row) if what == "record" else _getter(facts, state, table, key, row) if what == "view" else _reader(facts, state, steps[u], plan[u], values[(u, name)], proof["rules"])
        if got is None:
            continue
        tool, args, result, pages = got
        spec = facts.world.tools[tool]
        entry = {"before": u + 1, "tool": tool, "arguments": {n: facts.world.types.to_json(pt, args[n]) for n, pt in spec.params if n in args}}
        if spec.pages:
            entry["pages"] = pages
        entry.update(why)
        if any(e["tool"] == entry["tool"] and e["arguments"] == entry["arguments"] for _, e, _ in out):
            continue  # one call shows both
        out.append((u, entry, result))
    return out


def _key_type(facts: WorldFacts, table: str) -> str:
    return facts.people.fields[table][facts.people.key[table]]


def _first_use(facts: WorldFacts, steps: list[Step], plan: list[dict], table: str, key: Any) -> int | None:
    """The first walk step that takes the record's key as an argument."""
    people = facts.people
    as_json = facts.world.types.to_json(_key_type(facts, table), key)
    for u, (step, call_) in enumerate(zip(steps, plan)):
        for name, pt in step.tool.params:
            if people.ref_table(tstr(pt)) == table and call_["arguments"].get(name) == as_json:
                return u
    return None


def _records(result: Any) -> list[dict]:
    if isinstance(result, dict):
        return [result]
    if isinstance(result, (list, tuple)):
        return [e for e in result if isinstance(e, dict)]
    return []


def _shows_record(result: Any, key_field: str, key: Any, said: dict) -> bool:
    """Does a result show the record with this key together with the values it was named by?"""
    return any(r.get(key_field) == key and all(r.get(f) == v for f, v in said.items()) for r in _records(result))


def _shows_value(result: Any, value: Any) -> bool:
    if result == value and not isinstance(result, bool):
        return True
    return any(value in r.values() for r in _records(result) if not isinstance(value, bool))


def _finder(facts: WorldFacts, state: State, table: str, key: Any, fields: tuple, row: dict):
    """(tool, arguments, result, pages) of the entry that finds the record from the values it
    was named by: called with them, it answers the record (on the page `pages`)."""
    people = facts.people
    best = None
    for t in facts.walks.entries:
        used = entry_fields(people, table, t) if facts.walks.result_table(t) == table else None
        if used is None or not set(used.values()) <= set(fields):
            continue
        args = {name: row[f] for name, f in used.items()}
        got = _called(facts, state, t.qualified, args)
        at = next((i for i, r in enumerate(_records(got)) if r.get(people.key[table]) == key), None)
        if at is None:
            continue
        size = facts.world.tools[t.qualified].pages
        pages = page_holding(at, size) if size and isinstance(got, (list, tuple)) else 1
        rank = (pages, len(_records(got)), t.qualified)
        if best is None or rank < best[0]:
            best = (rank, (t.qualified, args, got, pages))
    return None if best is None else best[1]


def _getter(facts: WorldFacts, state: State, table: str, key: Any, row: dict):
    """(tool, arguments, result, 1) of the read that gives the record whole by its key
    (`WalkGraph.getters`), its other arguments the row's fields of their names (an Azure get's
    scope) or their defaults; None where there is none or it does not answer the record."""
    t = facts.walks.getters.get(table)
    if t is None:
        return None
    spec = facts.world.tools[t.qualified]
    args = {}
    for name, pt in t.params:
        if facts.people.ref_table(tstr(pt)) == table:
            args[name] = key
        elif name in row:
            args[name] = row[name]
        elif name in spec.defaults:
            args[name] = spec.defaults[name]
        else:
            return None
    got = _called(facts, state, t.qualified, args)
    return (t.qualified, args, got, 1) if any(r.get(facts.people.key[table]) == key for r in _records(got)) else None


def _reader(facts: WorldFacts, state: State, step: Step, call_: dict, value: Any, rules: list[str]):
    """(tool, arguments, result, pages) of a read-only tool of the services the rules read,
    called with the write's own arguments, whose result shows `value`: fewest pages, then the
    shortest result."""
    services = {t.split(".")[0] for r in rules for t in facts.rule_checks_tables(r)} | {step.tool.service}
    own = dict(facts.world.tools[step.tool.qualified].params)
    best = None
    for qualified, spec in sorted(facts.world.tools.items()):
        if qualified.split(".")[0] not in services or qualified in facts.mutating or qualified == step.tool.qualified:
            continue
        args = _fill(facts, spec, own, call_["arguments"])
        if args is None:
            continue
        got = _called(facts, state, qualified, args)
        if got is None or not _shows_value(got, value):
            continue
        pages = page_count(len(got), spec.pages) if spec.pages and isinstance(got, (list, tuple)) else 1
        rank = (pages, len(_records(got)), qualified)
        if best is None or rank < best[0]:
            best = (rank, (qualified, args, got, pages))
    return None if best is None else best[1]


def _fill(facts: WorldFacts, spec, own: dict, arguments: dict) -> dict | None:
    """A tool's arguments (internal values) from a write's own (`own`: its parameter types,
    `arguments`: its call's JSON): a parameter of the same name and type, else the one of its
    type; a parameter with a default may go unsaid. None when one cannot be filled, or when
    none is (a tool of no arguments shows everything, not what this write is about)."""
    args = {}
    for name, t in spec.params:
        same = [name] if own.get(name) == t else [n for n, x in own.items() if x == t]
        if len(same) == 1 and same[0] in arguments:
            try:
                args[name] = facts.world.types.from_json(t, arguments[same[0]], name)
            except ToolError:
                return None
        elif name not in spec.defaults:
            return None
    return args or None


def _called(facts: WorldFacts, state: State, tool: str, args: dict) -> Any:
    try:
        return call(facts, state.snapshot(), tool, args)
    except ToolError:
        return None
