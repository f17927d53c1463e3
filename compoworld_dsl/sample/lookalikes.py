"""Look-alikes planted on purpose, so that house rules decide what the right action is. It plants
into a copy of the task's state; it never changes the walk or the state it was given.

A house rule bites when a record that fits the instruction's description as well as the target
does would be the wrong one to work on *because of the rule*: the closed matter with the same
title, the appointment of the deceased pet with the same name. Seeded states rarely hold such a
pair, so after the walk is grown the sampler tries to plant one, next to a record the instruction
names by a description that fits the whole table (an entry's target):

- a copy of the target with one enum or boolean field changed (a matter, closed), with copies of
  the rows that refer to it (its disbursements, documents, notes) pointing at the copy, so that
  the walk can be done on the look-alike as on the target, or
- a copy of the target whose reference points at a copy of the referenced record with one enum
  or boolean field changed (a document of a *closed* matter with the same title and client).

A variant is kept when (1) the walk replays on the state with it exactly as before (the same
calls, the same picks, the same reports), and (2) the walk done on the look-alike instead runs
on the services and breaks a house rule the world declares. The task records the planted rows
under `initial_state.rows` (`CompiledWorld.task_state` adds them after seeding); the proofs that
follow (`necessity.distractors`) find the look-alike again and attach the rule it makes
load-bearing. Seeded by the task seed alone, so `verify` plants the same rows."""

from __future__ import annotations

import random
from typing import Any

from ..runtime.state import State
from . import checker as C
from . import necessity as N
from .attempt import Attempt
from .facts import WorldFacts
from .rejected import Rejected
from .rules import relevant
from .runs import replay
from .steps import Step, output, picks_hold

MAX_VARIANTS = 12  # variants tried per task


def plant(facts: WorldFacts, attempt: Attempt, task_seed: int, state0: State, steps: list[Step], values: dict, results: list) -> tuple[State, list[dict]] | None:
    """A state with one planted look-alike (and the rows as the task records them), or None."""
    written = facts.written(steps)
    if not any(i["state"] and i["tables"] & written for i in facts.constraints):
        return None  # no state rule the walk's writes touch: no variant could break one (`_try` needs one)
    rng = random.Random(f"{task_seed}:lookalike")
    variants = []
    for k, step in enumerate(steps):
        how = step.how
        if how is None or how["by"] != "description" or how.get("within") == "list" or step.pick is None:
            continue
        table = how["table"]
        row = state0.tables[table][step.pick]
        for f, alt in _flips(facts, table, row, set(how["fields"])):
            variants.append((k, table, {f: alt}, None, None))
        for f in how["fields"]:
            rt = facts.people.ref_table(facts.people.fields[table][f])
            ref = state0.tables.get(rt, {}).get(row[f]) if rt else None
            if ref is None:
                continue
            for g, alt in _flips(facts, rt, ref, set(facts.people.known_by[rt][:1])):
                variants.append((k, table, {}, (f, rt, {g: alt}), None))
        # a twin described alike whose own records differ where a rule looks: the duplicate
        # contact whose matters are all closed
        for child, cf in _child_fields(facts, table):
            for g, alt in _flips(facts, child, None, {cf}):
                if g in facts.rule_fields:
                    variants.append((k, table, {}, None, (child, cf, {g: alt})))
    rng.shuffle(variants)
    # fields a house rule's conditions read first (`m.status == closed`): a flip of those is
    # what a rule can tell apart
    def rank(v) -> int:
        """0: flips a field a rule reads on that very table; 1: a field of a rule-read name; 2: other."""
        change, at = (v[2], v[1]) if v[2] else ((v[3][2], v[3][1]) if v[3] else (v[4][2], v[4][0]))
        if any((at, f) in facts.rule_table_fields for f in change):
            return 0
        return 1 if any(f in facts.rule_fields for f in change) else 2

    variants.sort(key=rank)
    # the reference run's outputs, the keys its own inserts get masked (planted rows move them)
    reference = _outputs(facts, steps, results, _new_keys(state0, replay(facts, state0, steps, values, attempt.deadline)[0])) if variants else None
    bases: dict = {}  # the seeded copy each set of tables gives, made once for all variants
    for k, table, change, via, kids in variants[:MAX_VARIANTS]:
        attempt.deadline.check()
        got = _try(facts, attempt, state0, steps, values, reference, k, table, change, via, kids, bases)
        if got is not None:
            return got
    return None


def _flips(facts: WorldFacts, table: str, row: dict | None, keep: set[str]) -> list[tuple[str, Any]]:
    """(field, other value) for each enum or boolean field of a row that a description does not
    use: the fields a house rule's condition reads (status, archived, deceased). Without a row,
    every value of each such field."""
    out = []
    skip = keep | {facts.people.key[table]} | set(facts.world.volatile_fields.get(table, ()))
    for f, t in facts.people.fields[table].items():
        if f in skip:
            continue
        base = facts.world.types.base(t)
        if base == "bool":
            out += [(f, not row[f])] if row is not None else [(f, True), (f, False)]
        elif base.startswith("enum:"):
            out += [(f, m) for m in facts.world.types.enums[base[5:]] if row is None or m != row[f]]
    return out


def _child_fields(facts: WorldFacts, table: str) -> list[tuple[str, str]]:
    """(table, field) of every field in the world that refers to `table` (indexed once per world)."""
    return facts.people.children.get(table, [])


def _try(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step], values: dict, reference: list, k: int, table: str, change: dict, via, kids, bases: dict):
    world = facts.world
    # every table that draws keys from the ones planted into, and every table the rules read, is
    # seeded first, as in a task's state (seeded whole, then planted): none of their rows may
    # point at a planted one. Into the copy only: a variant not kept leaves the state as it was.
    tables = {table} | ({via[1]} if via else set())
    written = facts.written(steps)
    rule_reads = set().union(*[i["reads"] for i in facts.constraints if i["state"] and i["tables"] & written])
    needed = frozenset(tables | rule_reads | {n for t in tables for n in world.referring(t)})
    if needed not in bases:
        bases[needed] = state0.snapshot()
        world.seed_tables(bases[needed], attempt.task_seed, sorted(needed))
    planted = bases[needed].snapshot()
    target = state0.tables[table][steps[k].pick]
    rows = []
    copy = {**target, **change}
    if via is not None:
        f, rt, ref_change = via
        ref = {**state0.tables[rt][target[f]], **ref_change}
        ref[facts.people.key[rt]] = world.next_key(planted, rt)
        if ref[facts.people.key[rt]] is None:
            return None
        rows.append(_put(facts, planted, rt, ref))
        copy[f] = ref[facts.people.key[rt]]
    copy[facts.people.key[table]] = world.next_key(planted, table)
    if copy[facts.people.key[table]] is None:
        return None
    rows.append(_put(facts, planted, table, copy))
    look_alike = copy[facts.people.key[table]]
    if via is None:  # the rows that refer to the target, copied to refer to the look-alike
        for child, field in _children(facts, planted, table):
            for r in list(planted.tables.get(child, {}).values()):
                if r[field] == target[facts.people.key[table]]:
                    twin = {**r, field: look_alike, facts.people.key[child]: world.next_key(planted, child)}
                    if kids is not None and (child, field) == kids[:2]:
                        twin.update(kids[2])
                    if twin[facts.people.key[child]] is None:
                        return None
                    rows.append(_put(facts, planted, child, twin))
    # (1) the walk is the same walk on the planted state
    try:
        final, _, again = replay(facts, planted, steps, values, attempt.deadline)
    except Rejected:  # a call fails there now
        return None
    # the same outputs, but for the keys the walk's own inserts get (the planted rows moved the
    # id counters on)
    if _outputs(facts, steps, again, _new_keys(planted, final)) != reference or not picks_hold(facts.people, planted, steps, again):
        return None
    # (2) the walk on the look-alike runs and breaks a rule the reference keeps
    like = dict(enumerate(output(facts.people, steps, again, j) for j in range(len(steps))))
    run = N.replay(facts, attempt, planted, steps, values, picks={k: look_alike}, like=like)
    if len(run[1]) < len(steps):
        return None
    for info in relevant(facts, attempt, planted, steps):  # the state rules the walk's writes could break, there
        if C._constraint_holds(world, info["name"], planted, final)[0] and not C._constraint_holds(world, info["name"], planted, run[0], run[3])[0]:
            return planted, rows
    return None


def _outputs(facts: WorldFacts, steps: list[Step], results: list, new: set) -> list:
    return [_masked(output(facts.people, steps, results, j), new) for j in range(len(steps))]


def _new_keys(start: State, end: State) -> set:
    """Keys of the rows a run inserted."""
    return {k for t, rows in end.tables.items() for k in rows if k not in start.tables.get(t, {})}


def _masked(value: Any, new: set) -> Any:
    """`value` with every key of a row the run inserted replaced by one placeholder."""
    if isinstance(value, dict):
        return {k: _masked(v, new) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_masked(v, new) for v in value]
    return "<new row>" if isinstance(value, str) and value in new else value


def _children(facts: WorldFacts, st: State, table: str) -> list[tuple[str, str]]:
    """(table, field) of every field, in the tables the state holds, that refers to `table`."""
    return [(t, f) for t, f in _child_fields(facts, table) if t in st.tables]


def _put(facts: WorldFacts, st: State, table: str, row: dict) -> dict:
    """Plant a runtime row; returns it as the task records it."""
    fields = facts.people.fields[table]
    as_json = {f: facts.world.types.to_json(t, row[f]) for f, t in fields.items()}
    facts.world.plant(st, table, as_json)
    return {"table": table, "row": as_json}
