"""Values the state holds, by runtime type: what a person could write, what a plan that took a
wrong value would have used, and the tables a step needs seeded. It decides nothing about a task."""

from __future__ import annotations

from typing import Any

from ..check import types as T
from ..codegen.python import tstr
from ..runtime.state import State
from .attempt import Attempt
from .facts import WorldFacts
from .people import share_the_head


def held_tables(state: State, fields: dict[str, list[str]], scope: set[str] | None):
    """(table, fields, rows) for the tables of `fields` that `state` holds with rows (and, with
    `scope`, only those tables). A task's state holds the few tables its walk touched: looping
    over those, not over every table of a 448-service world, keeps a value pool's cost flat."""
    names = state.tables if len(state.tables) < len(fields) else fields
    for table in names:
        fs = fields.get(table)
        if fs and (scope is None or table in scope):
            rows = state.tables.get(table)
            if rows:
                yield table, fs, rows


def other_values(facts: WorldFacts, attempt: Attempt, state0: State, t: str, current: Any) -> list:
    """Values of runtime type `t` the seeded state holds, other than `current`: what a plan
    that took a wrong value would have used instead."""
    rt = facts.people.ref_table(t)
    if rt is not None:
        return sorted((k for k in state0.tables.get(rt, {}) if k != current), key=repr)
    return [v for v in held(facts, attempt, state0, t) if v != current]


def held(facts: WorldFacts, attempt: Attempt, state: State, want: str, name: str | None = None, scope: set[str] | None = None) -> tuple:
    """Values of the runtime type `want` the state holds: from fields named `name` if there
    are any, else from every field of that type. Sorted, so a seeded choice is reproducible."""
    same, other = held_split(facts, attempt, state, want, name, scope)
    return same or other


def held_split(facts: WorldFacts, attempt: Attempt, state: State, want: str, name: str | None, scope: set[str] | None = None, near: str | None = None) -> tuple[tuple, tuple]:
    """Values of type `want` in fields named `name` (or, with `near`, in fields whose name
    ends in the word `near` ends in, `people.share_the_head`), and in the other fields of that type, in the tables the state
    has (and, with `scope`, only those tables)."""
    # the pools depend only on the tables read, each of which is never changed in place
    # (`State`): kept per task, keyed by the table dicts the answer came from
    held = list(held_tables(state, facts.fields_of_type.get(want, {}), scope))
    key = (want, name, near, tuple(id(rows) for _, _, rows in held))
    hit = attempt.pools.get(key)
    if hit is not None:
        return hit[1]
    same, other = set(), set()
    for table, fields, rows in held:
        noun = facts.people.noun.get(table, "").replace(" ", "_")
        for f in fields:
            # a bare `name` is the name of its table's thing: an ACL's name is no parameter's
            hit = f == name if near is None else share_the_head(near, f if "_" in f or not noun else f"{noun}_{f}")
            (same if hit else other).update(r[f] for r in rows.values())
    out = (tuple(sorted(same, key=repr)), tuple(sorted(other, key=repr)))  # (shared: not to be changed)
    attempt.pools[key] = ([rows for _, _, rows in held], out)  # (holds the dicts: their ids stay theirs)
    return out


def date_range(facts: WorldFacts, state: State, scope: set[str] | None = None, times: bool = False) -> tuple[int | None, int | None]:
    """The first and last day the state's dates hold; `times`: its times' days where it holds no
    date (a world of timestamps only, Google's Data Lineage)."""
    days = [r[f] for _, fields, rows in held_tables(state, facts.date_fields, scope) for f in fields for r in rows.values()]
    if not days and times:
        days = [r[f] // 1440 for _, fields, rows in held_tables(state, facts.datetime_fields, scope) for f in fields for r in rows.values() if isinstance(r[f], int)]
    return (min(days), max(days)) if days else (None, None)


def candidates(facts: WorldFacts, attempt: Attempt, state: State, t: T.Type) -> list:
    b = T.base_of(t)
    return list(b.members) if isinstance(b, T.EnumT) else held(facts, attempt, state, tstr(t))


def ensure(facts: WorldFacts, attempt: Attempt, tables: set[str], state0: State, *states: State) -> None:
    """Seed into `state0` the tables it lacks (a task's state starts with none, see
    `CompiledWorld.partial_state`), and copy them, untouched, into the later `states`."""
    for name in facts.world.seed_tables(state0, attempt.task_seed, sorted(tables)):
        for st in states:
            st.tables[name] = state0.tables[name]  # (shared: tables are not changed in place)
            st.counters[name] = state0.counters[name]
