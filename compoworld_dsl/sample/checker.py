"""Final-state checkers: derived from a replayed reference plan, scored on any final state.
A checker judges outcomes, never the route: it reads the call log only for `order` rules and for
writes to protected rows (a row touched and restored was still touched, a row added and removed
was still added)."""

from __future__ import annotations

import re
from typing import Any

from ..runtime.service import ToolError, key_of
from ..runtime.state import State, Tx, diff
from ..runtime.world import CompiledWorld
from .answers import answer_matches, as_reported, names_a_decoy, same_name
from .rejected import Rejected

# Checks that state a goal of the task (what the reference plan changes or reports); the others
# (`no_collateral`, `constraint`, `order`) are conditions on how the goal is reached.
GOAL_KINDS = ("row_inserted", "row_deleted", "row_updated", "scalar", "answer")


def _json_row(world: CompiledWorld, table: str, row: dict, skip: frozenset | set = frozenset()) -> dict:
    decl = world.state_decl[table]
    fields = world.types.records[decl["record"]]
    return {f: world.types.to_json(t, row[f]) for f, t in fields.items() if f not in skip}


def _generated(world: CompiledWorld, table: str) -> bool:
    """Does the table's key come from its counter (`prefix-N`), so its value is the id generator's?"""
    return bool(world.state_decl[table].get("prefix"))


def _counted(world: CompiledWorld, table: str, before: State, after: State) -> set[str]:
    """The keys the table's id generator handed out between two states (`runtime.service.next_id`)."""
    prefix = world.state_decl[table]["prefix"]
    return {key_of(prefix, n) for n in range(before.counters.get(table, 1), after.counters.get(table, 1))}


def ignored_fields(world: CompiledWorld) -> dict[str, frozenset[str]]:
    """Per record, the fields a clock decides: never compared by value in answers."""
    return world.clock_fields_by_record()


def derive(world: CompiledWorld, before: State, after: State, constraints: list[dict], answer: Any = None, answer_type: str | None = None, reports: list[dict] | None = None, ruled: dict | None = None) -> list[dict]:
    """The checks a final state must pass: every change the reference plan made, nothing else
    changed, the attached constraints kept, and the reported answer if the task asks for one.

    What only a clock, a counter or the id generator decides is checked by relation: a clock's
    fields are listed under `volatile` and only required to exist, clock scalars are not
    checked, and a field (or the answer) that holds a key the reference run generated names the
    check of that inserted row under `refs`, so it must hold the key the agent's own insert got.

    `ruled` maps (table, key) of a written row to the fields the house rules decide there (the
    instruction leaves them to the agent, `ruled.py`), each to how: "rule" ones are listed under
    `ruled` instead of compared; the attached rule judges them, and an updated one must still
    change. "name" ones (a rule only asks that a text contain them, which any fragment of the
    name would pass) are compared with the reference's value as a person's name, under `names`."""
    checks: list[dict] = []
    d = diff(before, after)
    new_keys: dict[Any, int] = {}  # a key the reference run generated → index of its row_inserted check
    for ch in d.rows:
        volatile = world.volatile_fields.get(ch.table, frozenset())
        key = world.state_decl[ch.table]["key"]
        how = (ruled or {}).get((ch.table, ch.key), {})
        how = how if isinstance(how, dict) else dict.fromkeys(how, "rule")
        left = {f for f, h in how.items() if h != "name"}
        named = {f for f, h in how.items() if h == "name"}
        if ch.kind == "updated":
            # a field left to the rules that the reference kept as it was is compared as kept
            left, named = left & set(ch.fields), named & set(ch.fields)
        if ch.kind == "inserted":
            # matched by content: the key an agent's insert gets is not part of the goal; a key
            # the caller chose (`POST /channel/{ChannelName}`, a create-or-update: D53, D55) is
            # the name the instruction states, and is compared like any other field
            generated = _generated(world, ch.table) and ch.key in _counted(world, ch.table, before, after)
            fields = _json_row(world, ch.table, after.tables[ch.table][ch.key], volatile | left | ({key} if generated else set()))
            if generated:
                new_keys[ch.key] = len(checks)
            checks.append({"kind": "row_inserted", "table": ch.table, "fields": fields})
        elif ch.kind == "deleted":
            checks.append({"kind": "row_deleted", "table": ch.table, "key": ch.key})
        else:
            row = _json_row(world, ch.table, after.tables[ch.table][ch.key])
            checks.append({"kind": "row_updated", "table": ch.table, "key": ch.key, "fields": {f: row[f] for f in ch.fields if f not in volatile | left}})
        if volatile and ch.kind != "deleted":
            checks[-1]["volatile"] = sorted(volatile)
        if left and ch.kind != "deleted":
            checks[-1]["ruled"] = sorted(left)
        if named and ch.kind != "deleted":
            checks[-1]["names"] = sorted(named)
    for name in d.scalars:
        if name in world.volatile_scalars:
            continue  # a clock moves with every call: how far is not the task's goal
        t = world.state_decl[name]["type"]
        checks.append({"kind": "scalar", "name": name, "value": world.types.to_json(t, after.scalars[name])})
    checks.append({"kind": "no_collateral"})
    for c in constraints:
        if c["kind"] == "state":
            checks.append({"kind": "constraint", "constraint": c["name"]})
        elif c["kind"] == "order":
            checks.append({"kind": "order", "constraint": c["name"], "tool": c["tool"], "after": c["after"], "on": list(c["on"])})
    for r in reports or ():  # "tell me X, Y and Z": each value checked on its own
        checks.append({"kind": "answer", "label": r["label"], "type": r["type"], "value": world.types.to_json(r["type"], r["value"])})
    if answer_type is not None:
        value = world.types.to_json(answer_type, answer)
        checks.append({"kind": "answer", "type": answer_type, "value": value})
        base = world.types.base(answer_type)
        key = world.types.keys.get(base[7:]) if base.startswith("record:") else None
        shown = value.get(key) if key is not None and isinstance(value, dict) else value
        if isinstance(shown, str) and shown in new_keys:
            checks[-1]["ref"] = f"c{new_keys[shown] + 1}"
    for c in checks:
        if c["kind"] in ("row_inserted", "row_updated"):
            refs = {f: f"c{new_keys[v] + 1}" for f, v in c["fields"].items() if isinstance(v, str) and v in new_keys}
            if refs:
                c["refs"] = refs
    for i, c in enumerate(checks):
        c["id"] = f"c{i + 1}"
    return checks


def _row_matches(world: CompiledWorld, table: str, row: dict, fields: dict, skip: dict | None = None, names=()) -> bool:
    """`names`: fields compared as a person's name (`answers.same_name`), not character by character.
    Each compared field is written out as JSON on its own (a field the row lacks reads as None)."""
    types = world.types.records[world.state_decl[table]["record"]]
    for f, v in fields.items():
        if skip and f in skip:
            continue
        t = types.get(f)
        got = None if t is None else world.types.to_json(t, row[f])
        if not (same_name(v, got) if f in names else got == v):
            return False
    return True


def _kept(world: CompiledWorld, table: str, old: dict, new: dict, skip) -> bool:
    """Does `new` hold `old`'s values, as JSON, in every field but `skip`? Equal values write
    out alike, so only the fields that differ are written out (two decimals can differ and
    still write out alike, to 6 places)."""
    for f, t in world.types.records[world.state_decl[table]["record"]].items():
        if f in skip:
            continue
        a, b = old[f], new[f]
        if a is not b and a != b and world.types.to_json(t, a) != world.types.to_json(t, b):
            return False
    return True


def _as_spelled(world: CompiledWorld, after: State, spelled: list[tuple[str, Any, str, Any]]) -> State:
    """`after` with each (table, key, field, value) written back as the reference spelled it: the
    rules judge a name the agent wrote another way ("r. castillo") as the name it is."""
    if not spelled:
        return after
    state = after.snapshot()
    for table, key, field, value in spelled:
        rows = dict(state.tables[table])
        t = world.types.records[world.state_decl[table]["record"]][field]
        try:
            rows[key] = {**rows[key], field: world.types.from_json(t, value, field)}
        except ToolError:
            continue  # (a task file's value its field cannot hold: the rules see the agent's)
        state.tables[table] = rows
    return state


def score(world: CompiledWorld, checks: list[dict], before: State, after: State, answer: Any = None, calls: list[tuple[str, dict]] | None = None, touched: set | None = None, stated: str | None = None, quick: bool = False) -> dict:
    """Evaluate every check. `calls` is the log of successful calls (tool, JSON arguments);
    `touched` the (table, key) of every row they wrote; `answer` what the agent reported (JSON,
    JSON text or prose); `stated` the instruction, whose values a prose answer may repeat
    without counting as guesses. Returns reward (0/1), partial credit (see `partial_credit`),
    and the failed checks by id with a reason.

    `quick`: for a caller that reads only the reward (the proofs' changed replays). The checks
    are evaluated in the same order, and the first that fails ends the scoring: the reward is
    0 either way, and `failed` holds that check alone (no partial credit: None)."""
    failed: list[dict] = []
    explained: set = set()  # (table, key) of rows the expected changes account for
    matched: dict[str, Any] = {}  # row_inserted check id → the key of the agent's row it matched

    def resolved(c: dict) -> dict | None:
        """The check's fields with each of its `refs` replaced by the key that insert got here."""
        values = dict(c.get("fields", {}))
        for f, ref in c.get("refs", {}).items():
            if ref not in matched:
                return None
            values[f] = matched[ref]
        return values

    asked = [c["id"] for c in checks if c["kind"] == "answer" and "label" in c]  # several reports, in the order asked
    # inserted rows first, those that refer to other new rows after them
    pending = [c for c in checks if c["kind"] == "row_inserted"]
    claimed: dict[str, set] = {}
    spelled: list = []  # names the agent wrote another way, as the reference spells them (for the rules)
    while pending:
        ready = [c for c in pending if resolved(c) is not None] or pending[:1]
        for c in ready:
            pending.remove(c)
            fields = resolved(c)
            new_keys = [k for k in after.tables.get(c["table"], {}) if k not in before.tables.get(c["table"], {})]
            taken = claimed.setdefault(c["table"], set())
            match = None
            if fields is not None:
                match = next((k for k in new_keys if k not in taken and _row_matches(world, c["table"], after.tables[c["table"]][k], fields, names=c.get("names", ()))), None)
            if match is not None:
                taken.add(match)
                matched[c["id"]] = match
                explained.add((c["table"], match))
                spelled += _respelled(world, c, match, after)
            else:
                failed.append({"id": c["id"], "kind": "row_inserted", "reason": "no new row with these fields"})
                if quick:
                    return _failed_first(failed, len(checks))
    for c in checks:
        if c["kind"] == "row_updated" and c["key"] in after.tables.get(c["table"], {}):
            spelled += _respelled(world, c, c["key"], after)
    judged = _as_spelled(world, after, spelled)
    acted: list = []  # `_acted_on`, worked out at the first answer check with decoys
    for c in checks:
        ok, why = True, ""
        kind = c["kind"]
        if kind == "row_deleted":
            ok = c["key"] not in after.tables.get(c["table"], {})
            explained.add((c["table"], c["key"]))
            why = "the row still exists"
        elif kind == "row_updated":
            row = after.tables.get(c["table"], {}).get(c["key"])
            fields = resolved(c)
            ok = row is not None and fields is not None and _row_matches(world, c["table"], row, fields, names=c.get("names", ()))
            old = before.tables.get(c["table"], {}).get(c["key"])
            if ok and old is not None:
                # the fields the task did not ask to change must keep their old values; those the
                # house rules decide must change (the rule check judges the new value)
                ruled = set(c.get("ruled", ()))
                ok = _kept(world, c["table"], old, row, ruled.union(c["fields"], c.get("volatile", ())))
                why = "other fields of the row changed too"
                if ok and any(row[f] == old[f] for f in ruled):
                    ok, why = False, f"{', '.join(sorted(ruled))} did not change"
            else:
                why = "the row is missing" if row is None else "fields differ"
            explained.add((c["table"], c["key"]))
        elif kind == "scalar":
            t = world.state_decl[c["name"]]["type"]
            ok = world.types.to_json(t, after.scalars.get(c["name"])) == c["value"]
            explained.add(("scalar", c["name"]))
            why = "the value differs"
        elif kind == "constraint":
            ok, why = _constraint_holds(world, c["constraint"], before, judged, touched, calls)
        elif kind == "order":
            if calls is None:
                ok, why = False, "no call log to check the order against"
            else:
                log = [((world.resolve(t).qualified if world.resolve(t) else t), a) for t, a in calls]
                ok, why = _order_holds(c, log)
        elif kind == "answer":
            if c.get("decoys") and not acted:
                acted.append(_acted_on(world, checks, before, after, matched))
            ok, why = _answer_holds(world, c, answer, matched, asked, stated, acted[0] if acted else frozenset())
        else:
            continue  # row_inserted above; no_collateral after all: it needs what the others explain
        if not ok:
            failed.append({"id": c["id"], "kind": kind, "reason": why})
            if quick:
                return _failed_first(failed, len(checks))
    stray: list[str] = []
    for c in checks:
        if c["kind"] == "no_collateral":
            stray = _collateral(world, before, after, explained)
            if stray:
                failed.append({"id": c["id"], "kind": "no_collateral", "reason": f"{len(stray)} other change(s), e.g. {stray[0]}"})
    failed.sort(key=lambda f: int(f["id"][1:]) if f["id"][1:].isdigit() else 0)
    n = len(checks)
    passed = n - len(failed)
    return {"reward": 1 if not failed else 0, "partial": partial_credit(checks, failed, len(stray)), "passed": passed, "total": n, "failed": failed}


def _failed_first(failed: list[dict], n: int) -> dict:
    """`score`'s verdict when a `quick` scoring stops at its first failed check."""
    return {"reward": 0, "partial": None, "passed": None, "total": n, "failed": failed}


def _respelled(world: CompiledWorld, c: dict, key: Any, after: State) -> list[tuple[str, Any, str, Any]]:
    """(table, key, field, the reference's value) for each `names` field of the row that names
    the same person as the reference but is written another way."""
    if not c.get("names"):
        return []
    row = after.tables[c["table"]][key]
    got = _json_row(world, c["table"], row)
    return [(c["table"], key, f, c["fields"][f]) for f in c.get("names", ()) if f in c["fields"] and got.get(f) != c["fields"][f] and same_name(c["fields"][f], got.get(f))]


def partial_credit(checks: list[dict], failed: list[dict], collateral: int) -> float:
    """Goal checks passed, less one goal's worth for each stray change and each broken rule:

        partial = max(0, (goals passed − stray changes − rules broken) / goals)

    Only goal checks count (`GOAL_KINDS`: each is a change the reference plan made, or its
    answer), so doing nothing earns exactly 0 and the full goal with no harm earns 1. A task with
    no goal check (nothing to change or report) earns 1 or 0 with the reward."""
    bad = {f["id"] for f in failed}
    goals = [c for c in checks if c["kind"] in GOAL_KINDS]
    broken = sum(1 for c in checks if c["kind"] in ("constraint", "order") and c["id"] in bad)
    if not goals:
        return 0.0 if bad else 1.0
    passed = sum(1 for c in goals if c["id"] not in bad)
    return max(0.0, (passed - collateral - broken) / len(goals))


def _acted_on(world: CompiledWorld, checks: list[dict], before: State, after: State, matched: dict) -> frozenset:
    """The text values (as JSON, `repr`) of the rows the task's goal checks change, delete or insert
    (as the agent's matching rows), and of the rows those name: the records the task acts on. An agent that sums up what it
    did names them ("I changed Farah Murphy's phone ... the customer with the earliest sign-up
    date is Chiara Sato"): such a value is no candidate for a reported field, as a value the
    instruction states is none (a tenth-round player's correct answer failed on it)."""
    tables = {n: d for n, d in world.state_decl.items() if d["kind"] == "table"}
    of_key = {world.types.records[d["record"]][d["key"]]: n for n, d in tables.items()}
    rows = [(c["table"], c["key"]) for c in checks if c["kind"] in ("row_updated", "row_deleted")]
    rows += [(c["table"], matched[c["id"]]) for c in checks if c["kind"] == "row_inserted" and c["id"] in matched]
    # and the records those rows name (a new ticket's requester: "opened a ticket for Jamal Wright")
    for table, key in list(rows):
        fields = world.types.records[tables[table]["record"]]
        for st in (before, after):
            row = st.tables.get(table, {}).get(key)
            rows += [(of_key[t], row[f]) for f, t in fields.items() if row is not None and t in of_key and f != tables[table]["key"]]
    out: set = set()
    for table, key in rows:
        for st in (before, after):
            row = st.tables.get(table, {}).get(key)
            if row is not None:
                # texts only (names, subjects, dates): a number of any row is too common a
                # value to tell a summary from a list of candidates ("one of 1; 2; 4")
                out.update(repr(v) for v in _json_row(world, table, row).values() if isinstance(v, str))
    return frozenset(out)


def _done_words(stated: str | None) -> frozenset[str]:
    """The past forms of the instruction's words ("Undeploy the processor version ..." →
    undeployed, "Close the ticket" → closed, "stop" → stopped), which an agent that says what
    it did writes: a state of that name is no candidate it lists (blind round 52's "Undeployed
    "Atlas processor version" ... the state is "undeploying"" had failed as naming the state
    undeployed too)."""
    out = set()
    for w in re.findall(r"[a-z]+", (stated or "").casefold()):
        if len(w) < 3:
            continue
        out |= {w + "d", w + "ed"} if not w.endswith("e") else {w + "d"}
        if re.search(r"[^aeiou][aeiou][bdglmnprt]$", w):
            out.add(w + w[-1] + "ed")  # stop → stopped, cancel → cancelled
        if w.endswith("y") and len(w) > 3 and w[-2] not in "aeiou":
            out.add(w[:-1] + "ied")  # apply → applied
    return frozenset(out)


def _lists_candidates(world: CompiledWorld, c: dict, expected: Any, answer: Any, acted: frozenset, stated: str | None = None) -> bool:
    """Does an answer that holds the expected value name a decoy too (D29)? A decoy that is a
    value of a record the task acts on (`acted`), or the past form of a verb the instruction
    uses (`_done_words`: "undeployed" where it asks to undeploy), counts only where every sentence of a prose
    answer that holds the expected value names one too: "I suspended Chiara Sato and sent Farah
    Murphy a survey. The customer is Chiara Sato." answers; "the customer is Chiara Sato or Farah
    Murphy" lists candidates. A JSON answer is one sentence."""
    t, label = c.get("type") or "text", c.get("label")
    done = _done_words(stated)
    near = [d for d in c["decoys"] if repr(d) not in acted and not (isinstance(d, str) and d.casefold() in done)]
    far = [d for d in c["decoys"] if d not in near]
    if near and names_a_decoy(world.types, t, near, answer, label):
        return True
    if not far:
        return False
    _, prose = as_reported(answer)
    if prose is None:
        return names_a_decoy(world.types, t, far, answer, label)
    sentences = [x for x in re.split(r"(?<=[.!?;])\s+|\n+", prose) if x.strip()]
    holding = [x for x in sentences if answer_matches(world.types, t, expected, x, ignored_fields(world))]
    return bool(holding) and all(names_a_decoy(world.types, t, far, x, label) for x in holding)


def _answer_holds(world: CompiledWorld, c: dict, answer: Any, matched: dict, asked: list[str] = (), stated: str | None = None, acted: frozenset = frozenset()) -> tuple[bool, str]:
    """`asked`: the ids of the answer checks of several reports, in the order the instruction
    asks for them; an answer that is a list of that many values gives this one at its place.
    `acted`: values of the records the task acts on (`_acted_on`), which are no decoys."""
    if answer is None:
        return False, "no answer"
    expected, t = c["value"], c.get("type") or "text"
    if "ref" in c:  # the answer reports a row the task creates: the key the agent's insert got
        if c["ref"] not in matched:
            return False, "the row it reports was not created"
        key = world.types.keys.get(world.types.base(t)[7:]) if isinstance(expected, dict) else None
        expected = {**expected, key: matched[c["ref"]]} if key else matched[c["ref"]]
    value, _ = as_reported(answer)
    if "label" in c and isinstance(value, list) and len(value) == len(asked) >= 2 and c["id"] in asked:
        # one of several reported values, answered as a list in the order asked: judged at its
        # place alone, so that another report's value is neither needed nor a decoy here
        answer = value[asked.index(c["id"])]
    ok = answer_matches(world.types, t, expected, answer, ignored_fields(world), exact=bool(c.get("exact")), ordered=bool(c.get("ordered")), stated=stated)
    if not ok and "label" in c and isinstance(value, dict):
        # one of several reported values: an answer given as a JSON object holds it under any key
        ok = any(answer_matches(world.types, t, expected, v, ignored_fields(world), exact=bool(c.get("exact")), stated=stated) for v in value.values())
    if ok and c.get("decoys") and _lists_candidates(world, c, expected, answer, acted, stated):
        return False, "the answer names other values of that field too"
    return ok, "" if ok else "wrong answer"


def _collateral(world: CompiledWorld, before: State, after: State, explained: set) -> list[str]:
    """The changes no goal check accounts for. Two are no change, so that an agent that
    corrects its own mistake passes: a row the episode inserted and left retracted (cancelled,
    voided: the world's undo where it has no delete), and a row changed back whose only
    difference left is in fields a clock or the id generator decides (setting the wrong
    matter's deadline and setting it back moves its `set_at`). Rules see the call log still."""
    stray = []
    d = diff(before, after)
    for ch in d.rows:
        if ch.kind == "inserted" and world.retracted(ch.table, after.tables[ch.table][ch.key], after):
            continue
        if ch.kind == "updated" and set(ch.fields) <= world.volatile_fields.get(ch.table, frozenset()):
            continue
        if (ch.table, ch.key) not in explained:
            stray.append(f"{ch.kind} {ch.table}[{ch.key}]")
    for name in d.scalars:
        if ("scalar", name) not in explained and name not in world.volatile_scalars:
            stray.append(f"scalar {name}")
    return stray


_GONE = object()


def _constraint_holds(world: CompiledWorld, name: str, before: State, after: State, touched: set | None = None, calls: list | None = None) -> tuple[bool, str]:
    """Does the rule `name` hold from `before` to `after`? `touched` (rows written on the way)
    and `calls` (the successful calls, replayed from `before`) let it see what the end state no
    longer shows: a protected row changed and changed back, a row it would select added and
    removed again (D22, D35)."""
    c = world.constraints.get(name)
    if c is None:
        return False, f"unknown constraint {name}"
    try:
        untouched, invariants = c.check(Tx(before), Tx(after))
    except ToolError as e:  # a rule that cannot even be evaluated does not hold
        return False, e.message
    for table, key in untouched:
        old = before.tables[table].get(key, _GONE)
        if old is _GONE:
            return False, f"{table}[{key}] was added"
        new = after.tables.get(table, {}).get(key)
        if new is not old and new != old:  # (a row no call wrote is the very same dict)
            return False, f"{table}[{key}] was touched"
        if touched is not None and (table, key) in touched:
            return False, f"{table}[{key}] was written during the episode (undoing it does not count)"
    gone = _added_and_removed(world, c, before, after, touched, calls)
    if gone is not None:
        return False, f"{gone[0]}[{gone[1]}] was added (removing it again does not count)"
    for label, holds in invariants:
        if not holds:
            return False, f"{label} does not hold"
    return True, ""


def _added_and_removed(world: CompiledWorld, c, before: State, after: State, touched: set | None, calls: list | None) -> tuple[str, Any] | None:
    """A row the episode added that the rule `c` would have kept untouched, though it is gone by
    the end (deleted, or voided where voiding deletes): its fields are known only on the way,
    so the calls are replayed from `before` and the rule read after each that wrote such a row.
    Costs nothing unless the episode removed a row it added."""
    gone = {(t, k) for t, k in touched or () if k not in before.tables.get(t, {}) and k not in after.tables.get(t, {})}
    if not gone or not calls:
        return None
    state = before.snapshot()
    for tool, args in calls:
        wrote: set = set()
        world.call(state, tool, args, wrote, write=False)
        if not any(w in gone and w[1] in state.tables.get(w[0], {}) for w in wrote):
            continue
        try:
            untouched = c.check(Tx(before), Tx(state))[0]
        except ToolError:
            continue  # a rule unreadable half-way is judged on the end state alone
        hit = next((row for row in untouched if row in gone), None)
        if hit is not None:
            return hit
    return None


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


def reference_passes(world: CompiledWorld, state0: State, final: State, plan: list[dict], checks: list[dict], answer: Any, calls: list, deadline=None) -> dict:
    """The reference plan's score on its own checker, replayed call by call so that a protected
    row it changes on its way counts; raises `Rejected` unless it passes."""
    touched: set = set()  # the rows the plan changes on its way: protected ones break their rules
    replayed = state0.snapshot()
    for p in plan:
        world.call(replayed, p["tool"], p["arguments"], touched, deadline=deadline, write=False)
    full = score(world, checks, state0, final, answer, calls, touched)
    if any(f["kind"] == "constraint" for f in full["failed"]):
        raise Rejected("constraint_broken", f"the reference plan changes a protected row on its way: {full['failed'][0]['reason']}")
    if full["reward"] != 1:
        raise Rejected("replay_mismatch", f"the reference plan fails its own checker: {full['failed'][:2]}")
    return full
