"""Look-alikes planted on purpose, so that house rules decide what the right action is. It plants
into a copy of the task's state, renames a copy of the walk; never changes the walk or state it was given.

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
on the services and breaks a house rule the world declares. Up to `LOOKALIKES` are planted next
to one target. Where one sits says nothing (D34): its dates are moved by days drawn for every
candidate's place, and the target trades keys with a candidate drawn at random (a key swap:
every reference renamed, the walk's too). The task records the planted rows under
`initial_state.rows` and the swap under `initial_state.swaps` (`CompiledWorld.task_state`
applies both after seeding); the proofs that follow (`necessity.distractors`) find the
look-alikes again and attach the rule they make load-bearing. Seeded by the task seed alone, so
`verify` plants the same rows."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import attrs

from ..runtime.state import State
from ..runtime.world import key_spelled
from . import checker as C
from . import necessity as N
from .attempt import Attempt
from .facts import WorldFacts
from .rules import relevant
from .steps import Step, output, picks_hold

MAX_VARIANTS = 12  # variants tried per task for the first look-alike
MORE_VARIANTS = 4  # variants tried for the look-alikes after the first, all told
LOOKALIKES = 2  # look-alikes planted next to a target where the world allows: with it, 3 candidates
MAX_GAP_DAYS = 14  # between the dates of the target and its look-alikes, in order (drawn from 1 up)


def plant(facts: WorldFacts, attempt: Attempt, task_seed: int, state0: State, steps: list[Step], values: dict, results: list, final: State) -> tuple[State, dict, list[Step], dict] | None:
    """(the state with look-alikes planted, what the task's `initial_state` adds to its seed
    (`rows`, and `swaps` when the target trades keys with one), the walk and its values with
    keys renamed by those swaps), or None. `results` and `final`: the walk's replay from
    `state0` (`runs.replay`), each step's result and the state it ends in."""
    written = facts.written(steps)
    if not any(i["state"] and i["tables"] & written for i in facts.constraints):
        return None  # no state rule the walk's writes touch: no variant could break one (`_works` needs one)
    rng = random.Random(f"{task_seed}:lookalike")
    variants = []
    for k, step in enumerate(steps):
        how = step.how
        if how is None or how["by"] != "description" or how.get("within") == "list" or step.pick is None:
            continue
        table = how["table"]
        row = state0.tables[table][step.pick]
        if any(_spells_key(row[f], step.pick) for f in how["fields"]):
            # described by a text that spells its key (EventBridge's event source by its ARN
            # ".../eventsource-7"): a look-alike would share that text and name the target, and
            # after a key swap the target's ARN named a look-alike (blind round 43)
            continue
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
    if not variants:
        return None
    # the reference run's outputs, the keys its own inserts get masked (planted rows move them)
    reference = _outputs(facts, steps, results, _new_keys(state0, final))
    # where the target's dates fall among its look-alikes': a place drawn for each candidate,
    # so that "the newest" is the target as often as any other
    places = list(itertools.accumulate(rng.randint(1, MAX_GAP_DAYS) for _ in range(LOOKALIKES + 1)))
    rng.shuffle(places)
    bases: dict = {}  # the seeded copy each set of tables gives, made once for all variants
    got = None
    for n, v in enumerate(variants[:MAX_VARIANTS]):
        attempt.deadline.check()
        got = _plant_one(facts, rng, _seeded(facts, attempt, state0, steps, v, bases), steps, v, places[1] - places[0], [])
        if got is not None and _works(facts, attempt, got[0], steps, values, reference, v[0], [got[2]]):
            break
        got = None
    if got is None:
        return None
    planted, rows, look = got
    k, table = v[0], v[1]
    looks = [look]
    # more look-alikes of the same target, on the state the first was planted in: the kept variant
    # again first (another closed matter of that title), then those not tried (a variant that needs
    # a table the state lacks is passed over: a table seeded after planting could point at a planted row)
    same = [v] + [w for w in variants[n + 1 :] if w[0] == k]
    for w in same[:MORE_VARIANTS]:
        if len(looks) == LOOKALIKES:
            break
        attempt.deadline.check()
        if not _needed(facts, steps, w) <= set(planted.tables):
            continue
        more = _plant_one(facts, rng, planted, steps, w, places[len(looks) + 1] - places[0], rows)
        if more is not None and _works(facts, attempt, more[0], steps, values, reference, k, looks + [more[2]]):
            planted, rows, _ = more
            looks.append(more[2])
    # kept only if the walk is the same with every look-alike's dates on the other side of the
    # target's: a tool that ranks by date (the earliest person with this email) would otherwise
    # keep only the look-alikes dated on one side, and "the oldest" would find the target
    if not _works(facts, attempt, _mirrored(facts, planted, table, steps[k].pick, looks), steps, values, reference, k, looks):
        return None
    # the target trades keys with a candidate drawn at random (itself included): a planted row
    # has a key past every seeded one, and a filter lists by key, so without this the target
    # would be the lowest key and first listed (every reference, the walk's too, is renamed)
    target = steps[k].pick
    other = rng.choice([target] + looks)
    added: dict = {"rows": rows}
    if other != target:
        key_type = facts.people.fields[table][facts.people.key[table]]
        keys = [facts.world.types.to_json(key_type, x) for x in (target, other)]
        swapped = planted.snapshot()
        facts.world.swap_keys(swapped, table, *keys)
        swap = {target: other, other: target}
        steps2 = [_renamed_step(st, swap) for st in steps]
        values2 = {key: _renamed(val, swap) for key, val in values.items()}
        reference2 = [_renamed(out, swap) for out in reference]
        if not _works(facts, attempt, swapped, steps2, values2, reference2, k, [swap.get(x, x) for x in looks]):
            return None  # kept only where its key is drawn fairly: an unswapped one would tell
        if attempt.alternative is not None:
            alt_step, alt_values = attempt.alternative
            attempt.alternative = (_renamed_step(alt_step, swap), {key: _renamed(val, swap) for key, val in alt_values.items()})
        added["swaps"] = [{"table": table, "keys": keys}]
        return swapped, added, steps2, values2
    return planted, added, steps, values


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


def _needed(facts: WorldFacts, steps: list[Step], v) -> frozenset:
    """The tables to seed before planting variant `v`: every table that draws keys from the ones
    planted into (none of their rows may point at a planted row, and a swap renames them all),
    and every table the rules the walk's writes touch read."""
    tables = {v[1]} | ({v[3][1]} if v[3] else set())
    written = facts.written(steps)
    rule_reads = set().union(*[i["reads"] for i in facts.constraints if i["state"] and i["tables"] & written])
    return frozenset(tables | rule_reads | {n for t in tables for n in facts.world.referring(t)})


def _seeded(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step], v, bases: dict) -> State:
    """A copy of `state0` with `_needed`'s tables seeded as in a task's state (seeded whole, then
    planted); into the copy only: a variant not kept leaves the state as it was."""
    needed = _needed(facts, steps, v)
    if needed not in bases:
        bases[needed] = state0.snapshot()
        facts.world.seed_tables(bases[needed], attempt.task_seed, sorted(needed))
    return bases[needed]


def _plant_one(facts: WorldFacts, rng: random.Random, start: State, steps: list[Step], v, days: int, rows: list[dict]):
    """(a copy of `start` with variant `v`'s look-alike planted, `rows` and the rows planted, the
    look-alike's key), or None when the table's keys come from no counter. The look-alike's dates
    are the target's moved by `days`, and it may differ in one more field no rule reads."""
    world = facts.world
    k, table, change, via, kids = v
    planted = start.snapshot()
    rows = list(rows)
    target = start.tables[table][steps[k].pick]
    said = set(steps[k].how["fields"]) | set(change)
    if facts.people.named_by_key(table) or via is not None and facts.people.named_by_key(via[1]):
        return None  # a row known by its key (a cluster by its name) has no namesake: keys differ
    copy = {**target, **change, **_vary(facts, rng, start, table, target, said, days)}
    copy.update(_namesakes(facts, start, table, copy, said))
    if via is not None:
        f, rt, ref_change = via
        ref = {**start.tables[rt][target[f]], **ref_change}
        ref.update(_namesakes(facts, planted, rt, ref, set(ref_change) | set(facts.people.known_by.get(rt, ()))))
        ref[facts.people.key[rt]] = world.next_key(planted, rt)
        if ref[facts.people.key[rt]] is None:
            return None
        rows.append(_put(facts, planted, rt, ref))
        copy[f] = ref[facts.people.key[rt]]
    copy[facts.people.key[table]] = world.next_key(planted, table)
    if copy[facts.people.key[table]] is None:
        return None
    copy.update(_rekeyed(facts, table, copy, target[facts.people.key[table]], said))
    rows.append(_put(facts, planted, table, copy))
    look_alike = copy[facts.people.key[table]]
    if via is None:  # the rows that refer to the target, copied to refer to the look-alike
        for child, field in _children(facts, planted, table):
            for r in list(start.tables.get(child, {}).values()):
                if r[field] == target[facts.people.key[table]]:
                    twin = {**r, field: look_alike, facts.people.key[child]: world.next_key(planted, child)}
                    if kids is not None and (child, field) == kids[:2]:
                        twin.update(kids[2])
                    twin.update(_namesakes(facts, planted, child, twin, set(kids[2]) if kids is not None and (child, field) == kids[:2] else set()))
                    if twin[facts.people.key[child]] is None:
                        return None
                    rows.append(_put(facts, planted, child, twin))
    return planted, rows, look_alike


def _vary(facts: WorldFacts, rng: random.Random, state: State, table: str, row: dict, keep: set[str], days: int) -> dict:
    """How a look-alike differs from its target besides the rule's field: its dates and datetimes
    moved by `days` (each look-alike by its own, so that the newest candidate is no more often
    one than the other), and, one time in two (always when the record has no dates), one field no
    rule reads and the description does not use, set to a value another row holds (a look-alike
    need not be a copy but for one field)."""
    world = facts.world
    skip = keep | {facts.people.key[table]} | set(world.volatile_fields.get(table, ()))
    out = {}
    free = []
    for f, t in facts.people.fields[table].items():
        if f in skip or row[f] is None:
            continue
        base = world.types.base(t)
        if base == "date":
            out[f] = row[f] + days
        elif base == "datetime":
            out[f] = row[f] + days * 1440
        elif f not in facts.rule_fields and facts.people.ref_table(t) is None and (base in ("text", "int", "decimal", "money") or base.startswith("enum:")) and not _HANDLE.search(f) and not _spells_key(row[f], row[facts.people.key[table]]):
            free.append(f)
    if free and (not out or rng.random() < 0.5):  # a record without dates always, to differ in two
        f = rng.choice(free)
        others = sorted({r[f] for r in state.tables[table].values()} - {row[f], None}, key=repr)
        if others:
            out[f] = rng.choice(others)
    return out


def _spells_key(value: Any, key: Any) -> bool:
    """Does a text spell its row's key (an imported ARN, `.../trust-anchor/{}` of `same(id)`)?
    Such a text is the row's own: another row's (`_vary`) would name that row (a blind player
    met a trust anchor whose ARN ended with another anchor's id, and that one's with this one's:
    round 42)."""
    spelled = key_spelled(key)
    return isinstance(value, str) and spelled is not None and spelled.search(value) is not None


def _rekeyed(facts: WorldFacts, table: str, row: dict, old: Any, keep: set[str]) -> dict:
    """The row's texts that spell the key it was copied from (an imported ARN,
    `format(".../file-system/{}", same(id))`), spelled with its own key: a blind player met
    three file systems with one ARN between them (round 24). Not the fields the description
    says (`keep`), which the look-alike shares by design."""
    new = row[facts.people.key[table]]
    spelled = key_spelled(old)
    if spelled is None or not isinstance(new, str):
        return {}
    return {f: spelled.sub(new, v) for f, v in row.items() if f not in keep and f != facts.people.key[table] and isinstance(v, str) and spelled.search(v)}


def _namesakes(facts: WorldFacts, state: State, table: str, row: dict, keep: set[str]) -> dict:
    """The row's email addresses that `keep` (what the description says) and the house rules
    leave free, each the namesake's own (`_namesake_email`): a look-alike is another person of
    the same name, and two people do not share an address (the tools that add people refuse a
    taken one; players met three customers "Chiara Sato" with one address between them)."""
    out = {}
    for f, t in facts.people.fields[table].items():
        if f not in keep and f not in facts.rule_fields and row.get(f) is not None and facts.world.types.base(t) == "email":
            out[f] = _namesake_email(row[f], {r[f] for r in state.tables[table].values()})
        elif f not in keep and f not in facts.rule_fields and isinstance(row.get(f), str) and row[f] and _HANDLE.search(f):
            # and a user name, one a person has alone: a namesake SCIM user had the target's
            # "amara.adeyemi" (blind round 24)
            out[f] = _first_free(lambda n, v=row[f]: f"{v}{n}", {r[f] for r in state.tables[table].values()})
        elif f not in keep and f not in facts.rule_fields and isinstance(row.get(f), str) and (m := _NUMBERED.fullmatch(row[f])) and facts.world.types.base(t) == "text" and f != facts.people.key.get(table) and facts.people.ref_table(t) is None:
            # and a text code no other row holds (an API key "PK-9629", an invoice number): the
            # copy's own, the next number free (never an enum's member: "x86_64" is no code). Azure API Management's subscription secrets
            # were copied with their subscription's look-alikes, three rows held one key, and
            # no task could ask for a key (every report was "guessable": stop 67)
            taken = [r[f] for r in state.tables[table].values()]
            if taken.count(row[f]) <= 1:
                head, digits = m.group(1), m.group(2)
                out[f] = _first_free(lambda n, h=head, d=digits: f"{h}{int(d) + n - 1:0{len(d)}d}", set(taken))
    return out


# a code that ends in a number of two digits or more ("PK-9629", "INV-1001"), not a sentence
_NUMBERED = re.compile(r"([A-Za-z][\w.-]{0,20}?[-_ ]?)(\d{2,})")


# a field that holds a user's own name in a system (`user_name`, `login`, `handle`): one a row has
# alone, never copied to a look-alike as it is nor drawn from another row (`_vary`)
_HANDLE = re.compile(r"(?:^|_)(?:user_?name|login|handle|screen_name)$")


def _namesake_email(email: str, taken: set) -> str:
    """`email` with the first number after its local part that gives an address not `taken`."""
    local, at, domain = email.partition("@")
    return _first_free(lambda n: f"{local}{n}{at}{domain}", taken)


def _first_free(numbered, taken: set) -> str:
    """`numbered(n)` for the first n from 2 that is not `taken`: a namesake's own address or
    user name."""
    n = 2
    while numbered(n) in taken:
        n += 1
    return numbered(n)


def _mirrored(facts: WorldFacts, planted: State, table: str, target: Any, looks: list) -> State:
    """`planted` with each look-alike's dates as far from the target's on the other side."""
    st = planted.snapshot()
    rows = dict(st.tables[table])
    mine = rows[target]
    for look in looks:
        row = rows[look]
        rows[look] = {f: 2 * mine[f] - v if facts.world.types.base(t) in ("date", "datetime") and v is not None and mine[f] is not None else v for (f, v), t in zip(row.items(), (facts.people.fields[table][f] for f in row))}
    st.tables[table] = rows
    return st


def _works(facts: WorldFacts, attempt: Attempt, planted: State, steps: list[Step], values: dict, reference: list, k: int, looks: list) -> bool:
    """(1) The walk is the same walk on the planted state (the same outputs, but for the keys the
    walk's own inserts get: the planted rows moved the id counters on; every pick still stands
    out), and (2) the walk done on each look-alike instead runs and breaks a rule the reference
    keeps."""
    world = facts.world
    # the reference run on the planted state, shared with the look-alikes' replays below
    ran = N._Prefix.of(facts, attempt, planted, steps, values).whole(len(steps))
    if ran is None:  # a call fails there now
        return False
    final, again = ran
    if _outputs(facts, steps, again, _new_keys(planted, final)) != reference or not picks_hold(facts.people, planted, steps, again):
        return False
    like = dict(enumerate(output(facts.people, steps, again, j) for j in range(len(steps))))
    kept = [info["name"] for info in relevant(facts, attempt, planted, steps) if C._constraint_holds(world, info["name"], planted, final)[0]]
    for look in looks:
        attempt.deadline.check()
        run = N.replay(facts, attempt, planted, steps, values, picks={k: look}, like=like)
        if len(run[1]) < len(steps) or all(C._constraint_holds(world, name, planted, run[0], run[3])[0] for name in kept):
            return False
    return True


def _renamed(value: Any, swap: dict) -> Any:
    """`value` with every key `swap` names replaced by the one it trades with."""
    if isinstance(value, dict):
        return {k: _renamed(v, swap) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_renamed(v, swap) for v in value)
    return swap.get(value, value) if isinstance(value, str) else value


def _renamed_step(step: Step, swap: dict) -> Step:
    how = step.how
    if how is not None and "key" in how:
        how = {**how, "key": _renamed(how["key"], swap)}
    return attrs.evolve(step, pick=_renamed(step.pick, swap), how=how)


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
