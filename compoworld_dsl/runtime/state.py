"""World state: keyed tables of immutable rows plus scalars, with cheap snapshots and diffs.
Transactions stage writes so a failed tool call leaves the state exactly as it was."""

from __future__ import annotations

from typing import Any, Iterator

import attrs

Row = dict  # a row is never mutated after it is stored; updates store a new dict


@attrs.define(eq=False)
class State:
    """Tables are `"service.table" → {key: row}` in insertion order; scalars are `"service.name" → value`.

    `counters` hold the next generated id number per table, so ids are deterministic.

    A table's dict, once in a state, is never changed in place: a write copies the table
    (`Tx`) and puts the new dict in its place. So snapshots share every table they have not
    written, and `diff` passes an unwritten table by identity.
    """

    tables: dict[str, dict[Any, Row]] = attrs.field(factory=dict)
    scalars: dict[str, Any] = attrs.field(factory=dict)
    counters: dict[str, int] = attrs.field(factory=dict)

    def snapshot(self) -> "State":
        """An independent copy. Tables and rows are shared (neither is changed in place), so this
        is O(tables) pointers."""
        return State(dict(self.tables), dict(self.scalars), dict(self.counters))

    def restore(self, snap: "State") -> None:
        copy = snap.snapshot()
        self.tables, self.scalars, self.counters = copy.tables, copy.scalars, copy.counters

    def rows(self, table: str) -> Iterator[Row]:
        return iter(self.tables[table].values())


@attrs.frozen
class RowChange:
    table: str
    key: Any
    kind: str  # inserted, deleted, updated
    fields: tuple[str, ...] = ()  # for updates: the fields that changed


@attrs.frozen
class StateDiff:
    rows: tuple[RowChange, ...]
    scalars: tuple[str, ...]

    @property
    def empty(self) -> bool:
        return not self.rows and not self.scalars


def diff(before: State, after: State) -> StateDiff:
    """What changed from `before` to `after`, row by row, in a stable order."""
    changes: list[RowChange] = []
    olds, news = before.tables, after.tables
    # a table a snapshot shares is the same dict on both sides: only the others are compared
    maybe = [t for t, rows in news.items() if olds.get(t) is not rows] + [t for t in olds if t not in news]
    for table in sorted(maybe):
        old = olds.get(table, {})
        new = news.get(table, {})
        if old == new:  # (rows are shared between snapshots: compared by identity first, in C)
            continue
        for key in old:
            if key not in new:
                changes.append(RowChange(table, key, "deleted"))
            elif old[key] is not new[key] and old[key] != new[key]:
                fields = tuple(sorted(f for f in new[key] if old[key].get(f) != new[key][f]))
                changes.append(RowChange(table, key, "updated", fields))
        for key in new:
            if key not in old:
                changes.append(RowChange(table, key, "inserted"))
    scalars = () if before.scalars == after.scalars else tuple(sorted(k for k in before.scalars.keys() | after.scalars.keys() if before.scalars.get(k) != after.scalars.get(k)))
    return StateDiff(tuple(changes), scalars)


class Tx:
    """A transaction over a state: reads see staged writes; `commit` publishes them all at once.

    Tables are copied on their first write only, so a call that touches one table costs
    O(rows of that table), not O(state).
    """

    def __init__(self, state: State):
        self.base = state
        self._tables: dict[str, dict[Any, Row]] = {}
        self._scalars: dict[str, Any] = {}
        self._counters: dict[str, int] = {}
        self.writes: set[tuple[str, Any]] = set()  # (table, key) of every row changed or removed

    # reads
    def table(self, name: str) -> dict[Any, Row]:
        t = self._tables.get(name)
        return t if t is not None else self.base.tables[name]

    def rows(self, name: str) -> list[Row]:
        return list(self.table(name).values())

    def has(self, name: str, key: Any) -> bool:
        return key in self.table(name)

    def get(self, name: str, key: Any) -> Row | None:
        return self.table(name).get(key)

    def scalar(self, name: str) -> Any:
        if name in self._scalars:
            return self._scalars[name]
        return self.base.scalars[name]

    def counter(self, name: str) -> int:
        return self._counters.get(name, self.base.counters.get(name, 1))

    # writes
    def _writable(self, name: str) -> dict[Any, Row]:
        t = self._tables.get(name)
        if t is None:
            t = dict(self.base.tables[name])
            self._tables[name] = t
        return t

    def put(self, name: str, key: Any, row: Row) -> None:
        table = self._writable(name)
        if table.get(key) != row:  # writing a row back as it is touches nothing
            self.writes.add((name, key))
        table[key] = row

    def remove(self, name: str, key: Any) -> None:
        del self._writable(name)[key]
        self.writes.add((name, key))

    def set_scalar(self, name: str, value: Any) -> None:
        self._scalars[name] = value

    def bump(self, name: str) -> int:
        n = self.counter(name)
        self._counters[name] = n + 1
        return n

    def commit(self) -> None:
        self.base.tables.update(self._tables)
        self.base.scalars.update(self._scalars)
        self.base.counters.update(self._counters)
        self._tables, self._scalars, self._counters = {}, {}, {}
