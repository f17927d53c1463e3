"""World state: keyed tables of immutable rows plus scalars, with cheap snapshots and diffs.
Transactions stage writes so a failed tool call leaves the state exactly as it was."""

from __future__ import annotations

import hashlib
from collections.abc import ItemsView, Mapping, ValuesView
from typing import Any, Iterator

import attrs

Row = dict  # a row is never mutated after it is stored; updates store a new dict
# A table of at least this many rows is written as changes over its rows (`Layered`) instead of
# copied: a copy costs 20 to 25 bytes a row, which a 10,000-row table would cost every session that
# writes one row of it. Smaller tables are copied: their reads stay at dict speed.
LAYERED_FROM = 1024
INDEXES = 256  # table indexes a lineage of snapshots keeps at most (`State.index`)


@attrs.define(eq=False)
class State:
    """Tables are `"service.table" → {key: row}` in insertion order; scalars are `"service.name" → value`.

    `counters` hold the next generated id number per table, so ids are deterministic.

    A table, once in a state, is never changed in place: a write copies the table, or layers
    its changes over it (`Tx`), and puts the new table in its place. So snapshots share every
    table they have not written, `diff` passes an unwritten table by identity, and a state made
    once (a task's seeded state) can be shared by every episode that plays it.
    """

    tables: dict[str, Mapping[Any, Row]] = attrs.field(factory=dict)
    scalars: dict[str, Any] = attrs.field(factory=dict)
    counters: dict[str, int] = attrs.field(factory=dict)
    # (field, id of a table object) → (that table, {value: its rows in order}): `index`. Shared
    # with every snapshot (tables are shared too, and never changed in place, so an entry is
    # right for whichever state holds that very table); emptied when it grows past INDEXES
    _indexes: dict = attrs.field(factory=dict, kw_only=True, repr=False)

    def snapshot(self) -> "State":
        """An independent copy. Tables and rows are shared (neither is changed in place), so this
        is O(tables) pointers."""
        return State(dict(self.tables), dict(self.scalars), dict(self.counters), indexes=self._indexes)

    def index(self, table: str, field: str) -> dict[Any, list[Row]]:
        """The rows of `table` grouped by their `field`, each group in the table's order (not to
        be changed). Made once per table object and field (a table is never changed in place,
        so the same object has the same rows): a house rule reads the seeded state's tables row
        by row for each record it protects, check after check (`Tx.rows_where`), and every
        state a replay starts from shares them. Raises TypeError when a value cannot be a key
        (a list or record)."""
        rows = self.tables[table]
        hit = self._indexes.get((field, id(rows)))
        if hit is not None and hit[0] is rows:
            return hit[1]
        groups: dict[Any, list[Row]] = {}
        for row in rows.values():
            groups.setdefault(row[field], []).append(row)
        if len(self._indexes) >= INDEXES:
            self._indexes.clear()
        self._indexes[(field, id(rows))] = (rows, groups)
        return groups

    def restore(self, snap: "State") -> None:
        copy = snap.snapshot()
        self.tables, self.scalars, self.counters = copy.tables, copy.scalars, copy.counters

    def rows(self, table: str) -> Iterator[Row]:
        return iter(self.tables[table].values())

    def digest(self, name: str) -> str:
        """16 hex digits of sha256 over what the state holds under `name`: a table's rows in the
        table's order (list results follow it), each row's fields by name (a record's field
        order is not data), and its id counter; or, for a service's name, its scalars by name.
        A task records the digests of the tables its attempt seeded (`initial_state.digest`), so
        a task whose world seeds other rows for them since is named as stale, not played on rows
        its instruction does not describe; a table it never read may change freely."""
        h = hashlib.sha256()
        if name in self.tables:
            for key, row in self.tables[name].items():
                h.update(repr((key, sorted(row.items()))).encode() + b"\n")
            h.update(b"C" + repr(self.counters.get(name)).encode())
        else:
            for s in sorted(n for n in self.scalars if n.split(".", 1)[0] == name):
                h.update(b"S" + repr((s, self.scalars[s])).encode() + b"\n")
        return h.hexdigest()[:16]


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


class Layered(Mapping):
    """A large table as one state's changes over rows it shares with others: `shared`, a table
    that is never changed (the seeded one, shared by every episode of a task). A write costs what
    it changes, not a copy of the table. Lookups, `len` and the order of iteration are exactly
    those of the dict the same writes would have made of a copy: a changed row keeps its place,
    a new key goes last, and a key removed and put back goes last too."""

    __slots__ = ("shared", "changed", "added", "gone")

    def __init__(self, shared: Mapping[Any, Row], changed: dict | None = None, added: dict | None = None, gone: set | None = None):
        self.shared = shared
        self.changed: dict[Any, Row] = {} if changed is None else changed  # keys of `shared` → their new rows
        self.added: dict[Any, Row] = {} if added is None else added  # keys `shared` lacks or `gone` holds, in insertion order
        self.gone: set = set() if gone is None else gone  # keys of `shared` removed

    def __getitem__(self, key: Any) -> Row:
        row = self.added.get(key)
        if row is None:
            row = self.changed.get(key)
            if row is None:
                if key in self.gone:
                    raise KeyError(key)
                return self.shared[key]
        return row

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: Any) -> bool:
        return key in self.added or (key in self.shared and key not in self.gone)

    def __len__(self) -> int:
        return len(self.shared) - len(self.gone) + len(self.added)

    def __iter__(self) -> Iterator:
        if self.gone:
            gone = self.gone
            yield from (k for k in self.shared if k not in gone)
        else:
            yield from self.shared
        yield from self.added

    def values(self) -> ValuesView:
        return _LayeredRows(self)

    def items(self) -> ItemsView:
        return _LayeredItems(self)

    def _pairs(self) -> Iterator[tuple[Any, Row]]:
        changed, gone = self.changed, self.gone
        for k, row in self.shared.items():
            if k not in gone:
                yield k, changed.get(k, row)
        yield from self.added.items()

    # writes: only on a `Tx`'s own copy, before it is published
    def __setitem__(self, key: Any, row: Row) -> None:
        if key in self.added or key not in self.shared or key in self.gone:
            self.added[key] = row
        else:
            self.changed[key] = row

    def __delitem__(self, key: Any) -> None:
        if key in self.added:
            del self.added[key]
        elif key in self.shared and key not in self.gone:
            self.gone.add(key)
            self.changed.pop(key, None)
        else:
            raise KeyError(key)

    def __repr__(self) -> str:
        return f"Layered({dict(self._pairs())!r})"


class _LayeredRows(ValuesView):
    def __iter__(self) -> Iterator[Row]:
        return (row for _, row in self._mapping._pairs())


class _LayeredItems(ItemsView):
    def __iter__(self) -> Iterator[tuple[Any, Row]]:
        return self._mapping._pairs()


def _writable(table: Mapping[Any, Row]) -> dict | Layered:
    """A private copy of a published table for a transaction to write."""
    if isinstance(table, Layered):
        own = len(table.changed) + len(table.added) + len(table.gone)
        if 2 * own > len(table.shared):  # the changes outgrew what they share: a dict is smaller
            return dict(table._pairs())
        return Layered(table.shared, dict(table.changed), dict(table.added), set(table.gone))
    if len(table) >= LAYERED_FROM:
        return Layered(table)
    return dict(table)


class Tx:
    """A transaction over a state: reads see staged writes; `commit` publishes them all at once.

    Tables are copied on their first write only, so a call that touches one table costs
    O(rows of that table), not O(state); a table of `LAYERED_FROM` rows or more is not copied
    but layered (`Layered`), so a write there costs O(rows this state changed in it).
    """

    def __init__(self, state: State):
        self.base = state
        self._tables: dict[str, dict[Any, Row] | Layered] = {}
        self._scalars: dict[str, Any] = {}
        self._counters: dict[str, int] = {}
        self.writes: set[tuple[str, Any]] = set()  # (table, key) of every row changed or removed

    # reads
    def table(self, name: str) -> Mapping[Any, Row]:
        t = self._tables.get(name)
        return t if t is not None else self.base.tables[name]

    def rows(self, name: str) -> list[Row]:
        return list(self.table(name).values())

    def rows_where(self, name: str, field: str, value: Any) -> list[Row]:
        """The rows of `name` whose `field` equals `value`, in the table's order: what
        `[r for r in self.table(name).values() if r[field] == value]` gives, from the state's
        index of a table this transaction has not written (`State.index`). Equal values are
        equal keys (bool, int, Fraction, str and None hash alike when equal)."""
        if name not in self._tables:
            try:
                return self.base.index(name, field).get(value, [])
            except TypeError:  # a value that cannot be a key: read row by row
                pass
        return [r for r in self.table(name).values() if r[field] == value]

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
    def _writable(self, name: str) -> dict[Any, Row] | Layered:
        t = self._tables.get(name)
        if t is None:
            t = self._tables[name] = _writable(self.base.tables[name])
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
