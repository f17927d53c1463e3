"""Final-state checkers: derived from a replayed reference plan, scored on any final state.
A checker never looks at which tools were called, except for `order` rules about the call log."""

from __future__ import annotations

from typing import Any

from ..runtime.service import ToolError
from ..runtime.state import State, Tx, diff
from ..runtime.world import CompiledWorld


def _json_row(world: CompiledWorld, table: str, row: dict, skip_key: bool) -> dict:
    decl = world.state_decl[table]
    fields = world.types.records[decl["record"]]
    return {f: world.types.to_json(t, row[f]) for f, t in fields.items() if not (skip_key and f == decl["key"])}


def derive(world: CompiledWorld, before: State, after: State, constraints: list[dict], answer: Any = None, answer_type: str | None = None) -> list[dict]:
    """The checks a final state must pass: every change the reference plan made, nothing else
    changed, the attached constraints kept, and the reported answer if the task asks for one."""
    checks: list[dict] = []
    d = diff(before, after)
    for ch in d.rows:
        if ch.kind == "inserted":
            # matched by content: the key an agent's insert gets is not part of the goal
            checks.append({"kind": "row_inserted", "table": ch.table, "fields": _json_row(world, ch.table, after.tables[ch.table][ch.key], skip_key=True)})
        elif ch.kind == "deleted":
            checks.append({"kind": "row_deleted", "table": ch.table, "key": ch.key})
        else:
            row = _json_row(world, ch.table, after.tables[ch.table][ch.key], skip_key=False)
            checks.append({"kind": "row_updated", "table": ch.table, "key": ch.key, "fields": {f: row[f] for f in ch.fields}})
    for name in d.scalars:
        t = world.state_decl[name]["type"]
        checks.append({"kind": "scalar", "name": name, "value": world.types.to_json(t, after.scalars[name])})
    checks.append({"kind": "no_collateral"})
    for c in constraints:
        if c["kind"] == "state":
            checks.append({"kind": "constraint", "constraint": c["name"]})
        elif c["kind"] == "order":
            checks.append({"kind": "order", "constraint": c["name"], "tool": c["tool"], "after": c["after"], "on": list(c["on"])})
    if answer_type is not None:
        checks.append({"kind": "answer", "value": world.types.to_json(answer_type, answer)})
    for i, c in enumerate(checks):
        c["id"] = f"c{i + 1}"
    return checks


def _row_matches(world: CompiledWorld, table: str, row: dict, fields: dict) -> bool:
    got = _json_row(world, table, row, skip_key=False)
    return all(got.get(f) == v for f, v in fields.items())


def score(world: CompiledWorld, checks: list[dict], before: State, after: State, answer: Any = None, calls: list[tuple[str, dict]] | None = None) -> dict:
    """Evaluate every check. `calls` is the log of successful calls (tool, JSON arguments);
    `answer` is what the agent reported, as JSON. Returns reward (0/1), partial credit, and the
    failed checks by id with a reason."""
    failed: list[dict] = []
    explained: set = set()  # (table, key) of rows the expected changes account for
    claimed_inserts: dict[str, set] = {}
    for c in checks:
        ok, why = True, ""
        kind = c["kind"]
        if kind == "row_inserted":
            new_keys = [k for k in after.tables.get(c["table"], {}) if k not in before.tables.get(c["table"], {})]
            taken = claimed_inserts.setdefault(c["table"], set())
            match = next((k for k in new_keys if k not in taken and _row_matches(world, c["table"], after.tables[c["table"]][k], c["fields"])), None)
            ok = match is not None
            if ok:
                taken.add(match)
                explained.add((c["table"], match))
            why = "no new row with these fields"
        elif kind == "row_deleted":
            ok = c["key"] not in after.tables.get(c["table"], {})
            explained.add((c["table"], c["key"]))
            why = "the row still exists"
        elif kind == "row_updated":
            row = after.tables.get(c["table"], {}).get(c["key"])
            ok = row is not None and _row_matches(world, c["table"], row, c["fields"])
            old = before.tables.get(c["table"], {}).get(c["key"])
            if ok and old is not None:
                # the fields the task did not ask to change must keep their old values
                others = {f: v for f, v in _json_row(world, c["table"], old, skip_key=False).items() if f not in c["fields"]}
                ok = _row_matches(world, c["table"], row, others)
                why = "other fields of the row changed too"
            else:
                why = "the row is missing" if row is None else "fields differ"
            explained.add((c["table"], c["key"]))
        elif kind == "scalar":
            t = world.state_decl[c["name"]]["type"]
            ok = world.types.to_json(t, after.scalars.get(c["name"])) == c["value"]
            explained.add(("scalar", c["name"]))
            why = "the value differs"
        elif kind == "constraint":
            ok, why = _constraint_holds(world, c["constraint"], before, after)
        elif kind == "order":
            if calls is None:
                ok, why = False, "no call log to check the order against"
            else:
                log = [((world.resolve(t).qualified if world.resolve(t) else t), a) for t, a in calls]
                ok, why = _order_holds(c, log)
        elif kind == "answer":
            ok = answer == c["value"]
            why = "no answer" if answer is None else "wrong answer"
        elif kind == "no_collateral":
            continue  # after all others: it needs to know which changes they explain
        if not ok:
            failed.append({"id": c["id"], "kind": kind, "reason": why})
    for c in checks:
        if c["kind"] == "no_collateral":
            stray = _collateral(before, after, explained)
            if stray:
                failed.append({"id": c["id"], "kind": "no_collateral", "reason": f"{len(stray)} other change(s), e.g. {stray[0]}"})
    n = len(checks)
    passed = n - len(failed)
    return {"reward": 1 if not failed else 0, "partial": passed / n if n else 1.0, "passed": passed, "total": n, "failed": failed}


def _collateral(before: State, after: State, explained: set) -> list[str]:
    stray = []
    for ch in diff(before, after).rows:
        if (ch.table, ch.key) not in explained:
            stray.append(f"{ch.kind} {ch.table}[{ch.key}]")
    for name in diff(before, after).scalars:
        if ("scalar", name) not in explained:
            stray.append(f"scalar {name}")
    return stray


def _constraint_holds(world: CompiledWorld, name: str, before: State, after: State) -> tuple[bool, str]:
    c = world.constraints.get(name)
    if c is None:
        return False, f"unknown constraint {name}"
    try:
        untouched, invariants = c.check(Tx(before), Tx(after))
    except ToolError as e:  # a rule that cannot even be evaluated does not hold
        return False, e.message
    for table, key in untouched:
        if after.tables.get(table, {}).get(key) != before.tables[table][key]:
            return False, f"{table}[{key}] was touched"
    for label, holds in invariants:
        if not holds:
            return False, f"{label} does not hold"
    return True, ""


def _order_holds(c: dict, calls: list[tuple[str, dict]]) -> tuple[bool, str]:
    """Every successful call of `tool` comes after a successful `after` call with the same `on` arguments."""
    seen: list[dict] = []
    for tool, args in calls:
        if tool == c["after"]:
            seen.append(args)
        elif tool == c["tool"]:
            if not any(all(a.get(k) == args.get(k) for k in c["on"]) for a in seen):
                return False, f"{c['tool']} was called before {c['after']}"
    return True, ""
