"""A compiled world at run time: its services, seeded initial states, and the tool-call entry point.
Deterministic: the same seed gives the same state; a failed call leaves the state untouched."""

from __future__ import annotations

import itertools
import random
import re
import unicodedata
from fractions import Fraction
from typing import Any

from . import values as V
from .service import Service, Simulator, ToolError, ToolSpec, Types, key_of, next_id
from .state import State, Tx
from ..vocab import article


class StaleTask(ValueError):
    """A task whose recorded seeded state (`initial_state.digest`) is not what its world seeds
    now: the world changed since the task was sampled."""


def key_spelled(*keys: Any) -> re.Pattern | None:
    """A pattern that finds any of `keys` spelled in a text as a word of its own (an imported
    ARN `.../trust-anchor/ta-7` spells the key `ta-7`, not `ta-71`), or None when a key is no
    text of three characters or more (a short or numeric key would be found everywhere)."""
    if not keys or not all(isinstance(k, str) and len(k) >= 3 for k in keys):
        return None
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True)) + r")(?!\w)")


class CompiledWorld:
    """What a generated module's `WORLD` object is: built from the module's data and classes."""

    def __init__(self, name: str, description: str, services: list[type[Service]], types: Types, state: dict, seeds: dict, source: str, constraints: dict | None = None, volatile: dict | None = None):
        self.name = name
        self.description = description
        self.services: dict[str, Service] = {cls.name: cls() for cls in services}
        self.types = types
        self.set_simulator(Simulator(types))
        self.state_decl = state  # "svc.name" → {"kind": "table"|"scalar", "type": ..., "default": ..., "prefix": ...}
        self.seeds = seeds  # "svc.name" → seed spec
        self.source = source
        self.constraints = constraints or {}
        # what a clock or counter decides: {"scalars": [names], "fields": {table: [fields]}}
        volatile = volatile or {}
        self.volatile_scalars: frozenset[str] = frozenset(volatile.get("scalars", ()))
        self.volatile_fields: dict[str, frozenset[str]] = {t: frozenset(fs) for t, fs in volatile.get("fields", {}).items()}
        self._positions: dict[str, int] | None = None  # seed_order positions, computed on first use
        self._referring: dict[str, list[str]] = {}  # table → the seeded tables that draw keys from it
        self._closures: dict[str, frozenset[str]] = {}  # name → `_closure_of(name)`
        self._seed_plans: dict[str, _SeedPlan] = {}  # seeded name → its compiled generators
        self._deps: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {}  # `_seed_deps`
        self._scalar_start: tuple[dict, list[str]] | None = None  # `partial_state`'s defaults and seeded scalars
        self._clock_fields: dict[str, frozenset[str]] | None = None  # `clock_fields_by_record()`
        self._admitted: dict[tuple, dict] = {}  # `admit`'s answers for arguments of plain values
        self._key_notes: dict[str, str] | None = None  # `key_notes()`
        self.tools: dict[str, ToolSpec] = {}
        for svc in self.services.values():
            for spec in svc.tools.values():
                self.tools[spec.qualified] = spec

    def clock_fields_by_record(self) -> dict[str, frozenset[str]]:
        """"service.Record" → the fields a clock decides in the table that holds it (the first,
        if several do). Computed once: a checker asks for it on every answer it compares."""
        if self._clock_fields is None:
            tables: dict[str, str] = {}
            for table, decl in self.state_decl.items():
                if decl["kind"] == "table":
                    tables.setdefault(decl["record"], table)
            self._clock_fields = {rec: self.volatile_fields.get(table, frozenset()) for rec, table in tables.items()}
        return self._clock_fields

    def retracted(self, table: str, row: dict, state: State | None = None) -> bool:
        """Is `row` in its table's retracted state (`state ... retracted when cancelled`): kept on
        file but withdrawn, as the world's cancel or void tools leave a row? With `state`, also a
        row withdrawn with the row it belongs to (`retracted with order`); the checker rejects
        chains that do not end at a `retracted when`."""
        decl = self.state_decl[table]
        r = decl.get("retracted")
        if r is not None and row.get(r[0]) == r[1]:
            return True
        w = decl.get("retracted_with")
        if w is None or state is None:
            return False
        parent = state.tables.get(w[1], {}).get(row.get(w[0]))
        return parent is not None and self.retracted(w[1], parent, state)

    def set_simulator(self, simulator: Simulator) -> None:
        for svc in self.services.values():
            svc.simulator = simulator

    # ─── state ───

    def empty_state(self) -> State:
        st = State()
        for name, decl in self.state_decl.items():
            if decl["kind"] == "table":
                st.tables[name] = {}
                st.counters[name] = 1
            else:
                st.scalars[name] = decl.get("default")
        return st

    def initial_state(self, seed: int | str = 0) -> State:
        """The seeded initial state. Each table draws from its own stream, named by seed and table,
        so adding a table to a world does not change the rows of the others."""
        st = self.empty_state()
        for name in self.seed_order():
            self._seed(st, seed, name)
        return st

    def rows_not_made(self, seed: int | str = 0) -> dict[tuple[str, str], int]:
        """(table, field) → rows `initial_state(seed)` did not make because that field's
        reference found no row: a `ref ... where` no row fits, a `unique ref` whose keys are all
        taken (`worldc lint` W109). Seeds as `initial_state` does."""
        st, lost = self.empty_state(), {}
        for name in self.seed_order():
            self._seed(st, seed, name, lost)
        return lost

    def task_state(self, initial: dict) -> State:
        """A task's initial state from its record's `initial_state`: the seeded state, then the
        rows the sampler planted (look-alikes of the task's records), in order. Raises
        StaleTask when a table's (or a service's scalars') `digest` is not what the world seeds
        now: the world seeds other rows for that seed than the task was sampled on (a seed,
        pool or record edited since), and the task's instruction and checks would describe rows
        that are not there."""
        st = self.initial_state(initial["seed"])
        stale = [n for n, d in sorted(initial.get("digest", {}).items()) if (n in st.tables or n in self.services) and st.digest(n) != d]
        gone = [n for n in sorted(initial.get("digest", {})) if n not in st.tables and n not in self.services]
        if stale or gone:
            what = "; ".join(x for x in (
                f"other rows for {', '.join(f'`{n}`' for n in stale)}" if stale else "",
                f"no {', '.join(f'`{n}`' for n in gone)}" if gone else "") if x)
            raise StaleTask(
                f"the task was sampled on another version of world `{self.name}`: seed {initial['seed']} now seeds "
                f"{what}, so the task's instruction and checks no longer fit them; sample the task again from "
                "this world, or play it on the world it was made from"
            )
        for item in initial.get("rows", ()):
            self.plant(st, item["table"], item["row"])
        for item in initial.get("swaps", ()):
            self.swap_keys(st, item["table"], *item["keys"])
        return st

    def swap_keys(self, st: State, table: str, a_json: Any, b_json: Any) -> None:
        """Two rows of `table` trade keys: every reference to one, in every row and scalar,
        becomes a reference to the other, a text of the two rows that spells either key
        (`key_spelled`) spells the key its row now has, and each key keeps its place in the table. The state
        is the same world renamed, so a planted look-alike's key says nothing of which row it
        is. Raises KeyError for an unknown table, ValueError for keys it does not hold."""
        decl = self.state_decl[table]
        kt = self.types.records[decl["record"]][decl["key"]]
        a, b = (self.types.from_json(kt, k, f"{table} key") for k in (a_json, b_json))
        rows = st.tables[table]
        if a == b or a not in rows or b not in rows:
            raise ValueError(f"{table} cannot swap keys {a_json!r} and {b_json!r}")
        swap = {a: b, b: a}
        alias = kt.split(":")[1] if kt.startswith("alias:") else None

        def renamed(t: str, v: Any) -> Any:
            if v is None or alias is None or f"alias:{alias}:" not in t:
                return v
            if t.startswith(f"alias:{alias}:"):
                return swap.get(v, v)
            if t.startswith("alias:"):
                return renamed(t.split(":", 2)[2], v)
            if t.startswith("list:"):
                return type(v)(renamed(t[5:], x) for x in v)
            if t.startswith("record:"):
                return {f: renamed(ft, v[f]) for f, ft in self.types.records[t[7:]].items()}
            return v

        token = f"alias:{alias}:"
        for name, d in self.state_decl.items():
            if d["kind"] == "scalar" and name in st.scalars:
                st.scalars[name] = renamed(d["type"], st.scalars[name])
            elif d["kind"] == "table" and name in st.tables:
                refs = [(f, ft) for f, ft in self.types.records[d["record"]].items() if token in ft]
                old = st.tables[name]
                if not refs and name != table:
                    continue
                new = {k: {**row, **{f: renamed(ft, row[f]) for f, ft in refs}} for k, row in old.items()}
                if name == table:  # each key keeps its place; the rows move
                    new = {k: {**new[swap.get(k, k)], decl["key"]: k} for k in old}
                    # and a text of the two rows that spells a key (an imported ARN,
                    # `.../eventsource/{}` of `same(id)`) spells the one its row now has: left,
                    # the target's ARN named the look-alike it traded keys with (blind round 43)
                    spelled = key_spelled(a, b)
                    if spelled is not None:
                        skip = {decl["key"], *(f for f, _ in refs)}
                        for k in (a, b):
                            new[k] = {f: spelled.sub(lambda m: swap[m.group(0)], v) if f not in skip and isinstance(v, str) else v for f, v in new[k].items()}
                if any(new[k] != old[k] for k in old):
                    st.tables[name] = new

    def plant(self, st: State, table: str, row_json: dict) -> Any:
        """Add one row, given as JSON, to a seeded table (its key must be new); the table's id
        counter moves past a `prefix-N` key so later inserts do not take it. Returns the key.
        Raises `ToolError(invalid)` for a value of the wrong type, KeyError for an unknown table
        or a missing field, ValueError for a key the table holds."""
        decl = self.state_decl[table]
        fields = self.types.records[decl["record"]]
        row = {f: self.types.from_json(ft, row_json[f], f"{table}.{f}") for f, ft in fields.items()}
        key = row[decl["key"]]
        if key in st.tables[table]:
            raise ValueError(f"{table} already has a row {key!r}")
        st.tables[table] = {**st.tables[table], key: row}
        prefix = decl.get("prefix")
        if prefix and isinstance(key, str) and key.startswith(prefix + "-") and key[len(prefix) + 1 :].isdigit():
            st.counters[table] = max(st.counters.get(table, 1), int(key[len(prefix) + 1 :]) + 1)
        return key

    def next_key(self, st: State, table: str) -> Any:
        """The key the table's next insert would get (`prefix-N` from its counter), or None for a
        table whose keys do not come from a counter."""
        prefix = self.state_decl[table].get("prefix")
        return key_of(prefix, st.counters.get(table, 1)) if prefix else None

    def referring(self, table: str) -> list[str]:
        """The seeded tables whose rows draw keys from `table`, directly or through others
        (computed once per table: the world does not change)."""
        got = self._referring.get(table)
        if got is None:
            got = self._referring[table] = [n for n in self.seeds if n != table and self.state_decl[n]["kind"] == "table" and table in self._refs_closure([n])]
        return list(got)

    def partial_state(self, seed: int | str = 0) -> State:
        """The seeded initial state with its scalars but no table yet (unless a scalar is seeded
        by a `ref` to a table whose keys are drawn: that table comes with it): `seed_tables`
        adds the tables a caller needs, each with exactly the rows `initial_state(seed)` gives
        it. A sampler of a 448-service world pays for the tables its walk touches, not for all."""
        if self._scalar_start is None:  # (computed once: the world does not change)
            defaults = {name: decl.get("default") for name, decl in self.state_decl.items() if decl["kind"] == "scalar"}
            self._scalar_start = (defaults, [name for name in self._seed_position() if self.state_decl[name]["kind"] == "scalar"])
        defaults, seeded = self._scalar_start
        st = State(scalars=dict(defaults))
        for name in seeded:
            self._seed(st, seed, name)
        return st

    def seed_tables(self, st: State, seed: int | str, names) -> list[str]:
        """Add to `st` the named tables it lacks, and the tables their rows refer to (a walk that
        reads a matter names its client), seeded as `initial_state(seed)` seeds them. Returns the
        tables added, in the order seeded.

        A table's rows are exactly `initial_state`'s: they depend on its own stream (named by
        seed and table) and on what it draws from the tables before it in `seed_order` (those
        after it are still empty there, even within a cycle of `ref`s). A `ref` needs only the
        target's keys, and a table whose keys come from its counter, whose rows are never
        dropped and whose row count draws nothing from the state has keys `prefix-1` to
        `prefix-n`, n its stream's first draw: such a target is not seeded for them
        (`_key_list`). A target whose keys are not known so, or whose rows a `same(...)` reads,
        is seeded first. So a table costs its own rows and those of its neighbours, not those of
        every table its `ref`s chain through (17 on average in a 448-service synthetic world)."""
        position = self._seed_position()
        wanted: set[str] = set()
        for name in names:
            if name in self.state_decl:
                wanted.add(name)
                wanted.update(self._seed_deps(name)[0])
        added: list[str] = []
        for name in sorted(wanted, key=lambda n: position.get(n, -1)):
            if self.state_decl[name]["kind"] == "table" and name not in st.tables:
                self._seed_table(st, seed, name, added)
        return added

    def _seed_table(self, st: State, seed: int | str, name: str, added: list[str]) -> None:
        for dep in self._seed_deps(name)[1]:
            if dep not in st.tables:
                self._seed_table(st, seed, dep, added)
        st.tables[name] = {}
        st.counters[name] = 1
        if name in self.seeds:
            self._seed(st, seed, name)
        added.append(name)

    def _seed_deps(self, name: str) -> tuple[frozenset[str], tuple[str, ...]]:
        """(the tables a seeded name's rows refer to, the ones among them that must be seeded
        before it: read by a `same(...)`, or a `ref` target whose keys `_key_list` cannot
        know), computed once. Only tables before it in `seed_order` count: the others are
        empty when it is seeded."""
        got = self._deps.get(name)
        if got is None:
            spec = self.seeds.get(name)
            position = self._seed_position()
            refs: set[str] = set()
            rows: set[str] = set()
            gens = [] if spec is None else [spec["gen"]] if "gen" in spec else [spec["count"], *spec["fields"].values()]
            for g in gens:
                for kind, table in _gen_tables(g):
                    if table not in self.seeds or self.state_decl.get(table, {}).get("kind") != "table":
                        continue
                    refs.add(table)
                    if self._seeded_before(table, name) and (kind == "same" or not self._keys_known(table)):
                        rows.add(table)
            got = self._deps[name] = (frozenset(refs), tuple(sorted(rows, key=lambda n: position[n])))
        return got

    def _keys_known(self, table: str) -> bool:
        """Are the table's seeded keys `prefix-1` .. `prefix-n`, n the first draw of its stream?"""
        spec, decl = self.seeds[table], self.state_decl[table]
        return (
            bool(decl.get("prefix"))
            and decl["key"] not in spec["fields"]
            and not any(_derived(g) or g[0] == "uref" or _filtered(g) for g in spec["fields"].values())  # (rows may be dropped)
            and "profiles" not in spec
            and "distinct" not in spec  # (rows may be dropped)
            and spec["count"][0] in ("const", "range", "pick", "weighted")
        )

    def _key_list(self, st: State, seed: int | str, table: str, seeding: str) -> list:
        """The keys a `ref` in `seeding` draws from: none if `table` comes later in `seed_order`
        (or has no seed), else those of the table as seeded (see `seed_tables`)."""
        if not self._seeded_before(table, seeding):
            return []
        rows = st.tables.get(table)
        if rows is None and not self._keys_known(table):
            # (`_seed_table` seeds such a table first; only a seeded scalar's `ref` gets here)
            self._seed_table(st, seed, table, [])
            rows = st.tables[table]
        if rows is not None:
            return list(rows)
        plan = self._plan(table)
        count = plan.count(random.Random(f"{seed}/{table}"), {})
        return [f"{plan.prefix}-{i}" for i in range(1, count + 1)]

    def derived_fields(self, table: str) -> frozenset:
        """The fields `table`'s seed derives from the row's others (`same(...)`: an email made
        from the person's name) or draws together from one profile (`rows from POOL`): what a
        new row's request should make the same way, never take from another record."""
        if table not in self.seeds:
            return frozenset()
        profiles = self.seeds[table].get("profiles") or ()
        return frozenset(f for f, _ in self._plan(table).echoed) | frozenset(profiles[0] if profiles else ())

    def fresh_value(self, table: str, field: str, rng: random.Random, name: bool = False) -> Any:
        """A new value of `field` drawn as `table`'s seed draws it, for a code its `format` makes
        from a number range ("HM-64743", "x2417"): what a request creating a row states, where a
        value another row holds would be that row's (a part number already in the price list).
        `name`: the field is what the rows are known by, and a `pick` (or a `format` of picks: a
        first and a last name) draws a new one too ("add a client "Summit client"" where a client
        of that name was there: blind play). None when the field is not seeded so (a ref, a
        `same`, a profile; a pick of what is no name)."""
        gen = self.seeds.get(table, {}).get("fields", {}).get(field)
        if gen is None or gen[0] not in ("format", "pick") or _derived(gen) or any(_gen_tables(gen)):
            return None
        if not (gen[0] == "format" and any(g[0] == "range" for g in gen[2])) and not name:
            return None
        # the seed plan's generator, compiled once per world (`_SeedPlan.fields`)
        make = next(m for f, m, _ in self._plan(table).fields if f == field)
        return make(rng, None)

    def derive(self, table: str, row: dict, st: State, rng: random.Random) -> dict:
        """For a new row of `table` that a request states (a lead's name and company): the
        fields the table's seed derives from the others with `same(...)` (the email made from
        the name and the company's domain), from the values `row` has and the rows `st` holds.
        A field whose inputs are missing, or whose reference finds no row, is left out; a value
        `row` gives for a derived field is ignored (it is derived anew)."""
        if table not in self.seeds:
            return {}
        copied = self._plan(table).echoed
        mine = {f for f, _ in copied}
        full = {f: v for f, v in row.items() if f not in mine}  # derived ones are made anew
        _fill_derived(copied, rng, {}, full, _StateRows(st))
        return {f: full[f] for f in mine if full.get(f) is not None}

    def _plan(self, name: str) -> "_SeedPlan":
        plan = self._seed_plans.get(name)
        if plan is None:
            plan = self._seed_plans[name] = _SeedPlan(self.seeds[name], self.state_decl[name], self.types)
        return plan

    def _refs_closure(self, names) -> set[str]:
        """The named state and every seeded table their rows draw keys from, transitively."""
        out: set[str] = set()
        for name in names:
            out |= self._closure_of(name)
        return out

    def _closure_of(self, name: str) -> frozenset[str]:
        """One name's closure, computed once (the world does not change)."""
        got = self._closures.get(name)
        if got is None:
            found: set[str] = set()
            todo = [name]
            while todo:
                n = todo.pop()
                if n in found or n not in self.state_decl:
                    continue
                found.add(n)
                todo.extend(d for d in self.seeds.get(n, {}).get("refs", ()) if d in self.seeds)
            got = self._closures[name] = frozenset(found)
        return got

    def _seed_position(self) -> dict[str, int]:
        """Seeded names → position in `seed_order` (computed once: the world does not change)."""
        if self._positions is None:
            self._positions = {name: i for i, name in enumerate(self.seed_order())}
        return self._positions

    def _seeded_before(self, table: str, name: str) -> bool:
        """Is `table` seeded before `name` in `seed_order`? Only then does `initial_state` show
        its rows to `name`'s generators (a later table, or one with no seed, is empty there)."""
        position = self._seed_position()
        return position.get(table, len(position)) < position.get(name, -1)

    def _seed(self, st: State, seed: int | str, name: str, lost: dict | None = None) -> None:
        rng = random.Random(f"{seed}/{name}")
        plan = self._plan(name)
        keys = _RefKeys(self, st, seed, name)  # a `ref` draws from a table seeded before: its keys do not change here
        if plan.scalar is not None:
            st.scalars[name] = plan.scalar(rng, keys)
            return
        tx = Tx(st)
        key, prefix, copied, profiles = plan.key, plan.prefix, plan.copied, plan.profiles
        hops = _Hops(self, st, name) if copied else None
        deck: list[int] = []  # `rows from POOL`: the profiles not yet used in this round, shuffled
        distinct, seen = plan.distinct, set()  # `rows distinct by F, G`: the values taken
        for _ in range(plan.count(rng, keys)):
            row = {}
            if profiles:
                if not deck:
                    deck = list(range(len(profiles)))
                    rng.shuffle(deck)
                row.update(profiles[deck.pop()])
            for f, make, default in plan.fields:
                if make is not None:
                    row[f] = make(rng, keys)
                elif default is not _NONE:
                    row[f] = default
            if plan.key_first:
                row[key] = next_id(tx, name, prefix)
            _fill_derived(copied, rng, keys, row, hops)
            if plan.unique and any(row.get(f) is _NO_KEY for f in plan.unique):
                if lost is not None:
                    f = next(f for f in plan.unique if row.get(f) is _NO_KEY)
                    lost[(name, f)] = lost.get((name, f), 0) + 1
                continue  # every key of the target is taken: like a repeated key, the table is smaller
            if copied:
                if any(row.get(f) is None for f, _ in copied):
                    continue  # it refers to no row: like a repeated key, the table is smaller
            if distinct:
                taken = tuple(repr(row.get(f)) for f in distinct)
                if taken in seen:
                    continue  # another row holds these already (one invitation a meeting and person)
                seen.add(taken)
            if copied or profiles:
                row = {f: row[f] for f in plan.order if f in row}  # the record's field order
            if not plan.key_drawn and not plan.key_first:
                row[key] = next_id(tx, name, prefix)
            if tx.has(name, row[key]):
                continue  # a drawn key that repeats: keys stay unique, so the table is smaller
            tx.put(name, row[key], row)
        tx.commit()

    def seed_order(self) -> list[str]:
        """Seeded tables in an order where every `ref` target comes first (stable otherwise)."""
        order: list[str] = []
        done: set[str] = set()

        def visit(name: str, stack: tuple = ()) -> None:
            if name in done or name in stack:
                return
            for dep in self.seeds[name].get("refs", ()):
                if dep in self.seeds:
                    visit(dep, stack + (name,))
            done.add(name)
            order.append(name)

        for name in self.seeds:
            visit(name)
        return order

    # ─── calls ───

    def resolve(self, tool: str) -> ToolSpec | None:
        if tool in self.tools:
            return self.tools[tool]
        matches = [s for s in self.tools.values() if s.name == tool]
        return matches[0] if len(matches) == 1 else None

    def call(self, state: State, tool: str, arguments: Any, touched: set | None = None, deadline: Any = None, write: bool = True) -> dict:
        """Run one tool call. Returns the gateway envelope; changes `state` only on success.
        `touched`, when given, gains the (table, key) of every row a successful call changed or
        deleted (a row written back exactly as it was is not touched): protected rows are judged
        on these too, so a change later undone still counts. `deadline` and `write` (False: the
        envelope's `data` is None, for a caller that reads only whether the call succeeded):
        see `execute`."""
        try:
            data = self.call_raw(state, tool, arguments, touched, deadline, write)
        except ToolError as e:
            return {"success": False, "error": {"code": e.code, "message": e.message}}
        return {"success": True, "data": data}

    def call_raw(self, state: State, tool: str, arguments: Any, touched: set | None = None, deadline: Any = None, write: bool = True) -> Any:
        spec = self.resolve(tool) if isinstance(tool, str) else None
        if spec is None:
            raise ToolError("not_found", f"no tool named {str(tool)[:80]!r}")
        args = self.convert_arguments(spec, arguments)
        return self.execute(state, spec, args, touched, deadline, write)[1]

    def execute(self, state: State, spec: ToolSpec, args: dict, touched: set | None = None, deadline: Any = None, write: bool = True) -> tuple[Any, Any]:
        """Run a tool on converted arguments (`v_`-named, internal values). Returns the result
        internal and as JSON; raises `ToolError` and leaves `state` as it was on any failure.
        With `write=False` (the sampler's own replays, which read only the internal result) the
        JSON is None: the result is only checked to write out (`Types.writable`), so a call
        fails or succeeds exactly as with it.
        `deadline` (a `service.TimeLimit`, the sampler's `Deadline`, or None for none) is checked
        each time the tool's code starts a loop; once it is spent the call fails with whatever
        its `check()` raises (`ToolError(timeout)`, or the sampler's `OutOfTime`), unchanged."""
        tx = _CallTx(state, deadline)
        method = getattr(self.services[spec.service], spec.method)
        # The result is built before the commit, so a call that fails anywhere, even while its
        # result is written out, changes nothing; any failure becomes an envelope.
        try:
            result = method(tx, **args)
            data = None
            if spec.result and write:
                data = self.types.to_json(spec.result, result)
            elif spec.result:
                check = self.types.writable(spec.result)
                if check is not None:
                    check(result)
        except ToolError:
            raise
        except V.OutOfRange as e:
            raise ToolError("invalid", str(e)) from None
        except (ArithmeticError, ValueError):  # a value the runtime cannot write out (a huge int)
            raise ToolError("invalid", f"`{spec.name}` produced a value out of range") from None
        except RecursionError:
            raise ToolError("invalid", f"`{spec.name}` nests too deeply") from None
        except Exception as e:  # a defect in the tool or the runtime: still no change, no crash
            if deadline is not None and deadline.expired:
                raise  # the budget's own error, not a defect: the sampler's ends the attempt
            raise ToolError("internal", f"`{spec.name}` failed inside the world ({type(e).__name__})") from None
        if touched is not None:
            touched.update(tx.writes)
        tx.commit()
        return result, data

    def admit(self, spec: ToolSpec, args: dict) -> dict:
        """Internal-value arguments as the gateway would see them: each written out as JSON and
        read back through the same validation an agent's call gets (emails, date ranges, integer
        bounds...). Returns the `v_`-named arguments (shared: not to be changed); raises
        `ToolError(invalid)` for a value no agent could send.

        The answer is a function of the tool and the values, so it is kept for arguments that
        are all text, numbers, flags or None (a key: each value with its Python type, so that 1
        and True stay apart): the sampler's replays admit the same arguments call after call.
        A refusal is not kept."""
        key = _admit_key(spec, args)
        got = self._admitted.get(key) if key is not None else None
        if got is None:
            got = self.convert_arguments(spec, {n: self.types.to_json(t, args[n]) for n, t in spec.params if n in args})
            if key is not None:
                if len(self._admitted) >= ADMITTED:
                    self._admitted.clear()
                self._admitted[key] = got
        return got

    def convert_arguments(self, spec: ToolSpec, arguments: Any) -> dict:
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise ToolError("invalid", "arguments must be a JSON object")
        names = [p for p, _ in spec.params]
        extra = [a for a in arguments if a not in names]
        if extra:
            raise ToolError("invalid", f"`{spec.name}` takes no argument `{str(extra[0])[:60]}`; it takes {', '.join(names) or 'nothing'}")
        out = {}
        for pname, ptype in spec.params:
            if pname in arguments:
                out[_py(pname)] = self.types.from_json(ptype, arguments[pname], pname)
            elif pname in spec.defaults:
                out[_py(pname)] = spec.defaults[pname]
            else:
                raise ToolError("invalid", f"`{spec.name}` needs argument `{pname}`")
        return out

    def key_notes(self) -> dict[str, str]:
        """Key type ("MatterId") → what an argument of that type holds ("a matter's `id`, as its
        records hold it"): an agent reads it in `describe_tool`, so a parameter named
        `service_name` that takes a service's key is not given the service's name. Computed once."""
        if self._key_notes is None:
            self._key_notes = {}
            for decl in self.state_decl.values():
                if decl["kind"] != "table":
                    continue
                kt = self.types.records[decl["record"]][decl["key"]]
                if kt.startswith("alias:"):
                    noun = re.sub(r"(?<!^)(?=[A-Z])", " ", decl["record"].split(".")[-1]).lower().replace("_", " ").strip()
                    # ("an operation's", not "a operation's": blind round 51)
                    self._key_notes.setdefault(kt.split(":")[1], f"{article(noun)} {noun}'s `{decl['key']}`, as its records hold it")
        return self._key_notes

    def schema(self, tool: str) -> dict:
        spec = self.resolve(tool)
        if spec is None:
            raise KeyError(tool)
        notes = self.key_notes()
        props = {p: {**self.types.schema(t), **({"description": notes[t.split(":")[1]]} if t.startswith("alias:") and t.split(":")[1] in notes else {})} for p, t in spec.params}
        required = [p for p, _ in spec.params if p not in spec.defaults]
        if spec.pages:
            # the gateway answers a page at a time (`runtime.paging.page_of`); the tool itself never sees it
            props["page"] = {"type": "integer", "minimum": 1, "default": 1, "description": f"which page of the answer ({spec.pages} a page; 1 first)"}
        return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


class _CallTx(Tx):
    """One tool call's transaction, carrying the call's deadline to the loops of generated code
    (`service.each`): the budget travels with the call, never in a global."""

    def __init__(self, state: State, deadline: Any):
        super().__init__(state)
        self.deadline = deadline


ADMITTED = 4096  # `admit` answers a world keeps at most (then it starts over)
_PLAIN = frozenset((str, int, bool, Fraction, type(None)))


def _admit_key(spec: ToolSpec, args: dict) -> tuple | None:
    """(tool, (name, Python type, value) of each argument given) when every value is plain,
    else None (a list or record is admitted afresh each time)."""
    key: list = [spec.qualified]
    for n, _ in spec.params:
        if n in args:
            v = args[n]
            if v.__class__ not in _PLAIN:
                return None
            key.append((n, v.__class__, v))
    return tuple(key)


def _py(name: str) -> str:
    """The Python parameter name generated code uses for a `.world` name."""
    return "v_" + name


def _same(gen: tuple, row: dict, tables: "_Hops") -> Any:
    """A `same(a.b.c)` seed: the row's field `a`, then field `b` of the row it refers to, and so
    on. `_PENDING` while `a` is itself a `same` field not filled yet; None when a reference
    finds no row."""
    _, first, hops = gen
    if first not in row:
        return _PENDING
    value = row[first]
    for table, field in hops:
        target = tables[table].get(value)
        if target is None:
            return None
        value = target[field]
    return value


_PENDING = object()
_NO_KEY = object()  # a `unique ref` whose target's keys are all taken: the row is not made


_NONE = object()  # a field the seed leaves out (no generator, default or empty list)


class _RefKeys(dict):
    """The keys a `ref` of the table being seeded draws from, by target, taken once per table
    seeded (`ref` draws one per row): `CompiledWorld._key_list`."""

    def __init__(self, world: "CompiledWorld", st: State, seed: int | str, seeding: str):
        super().__init__()
        self.args = (world, st, seed, seeding)
        self._free: dict[tuple, list] = {}
        self._where: dict[tuple, list] = {}

    def __missing__(self, table: str) -> list:
        world, st, seed, seeding = self.args
        got = self[table] = world._key_list(st, seed, table, seeding)
        return got

    def free(self, table: str, where: tuple | None = None) -> list:
        """The keys of `table` no `unique ref` of this seed has taken yet (taken ones are removed);
        with `where`, of the rows that fit it."""
        got = self._free.get((table, where))
        if got is None:
            got = self._free[(table, where)] = list(self[table] if where is None else self.where(table, where))
        return got

    def where(self, table: str, where: tuple) -> list:
        """The keys of the rows of `table` whose field holds one of the values (`ref ... where`):
        the table is seeded before the one that refers to it (`_gen_tables` reads it as rows)."""
        key = (table, where)
        got = self._where.get(key)
        if got is None:
            f, values = where
            rows = self.args[1].tables.get(table, {})
            got = self._where[key] = [k for k in self[table] if k in rows and rows[k][f] in values]
        return got


class _Hops(dict):
    """The rows a `same(...)` of the table being seeded reads, by table: those of the tables
    before it in `seed_order` (seeded first, `_seed_deps`), none of the others."""

    def __init__(self, world: "CompiledWorld", st: State, seeding: str):
        super().__init__()
        self.args = (world, st, seeding)

    def __missing__(self, table: str) -> dict:
        world, st, seeding = self.args
        got = self[table] = st.tables.get(table, {}) if world._seeded_before(table, seeding) else {}
        return got


def _fill_derived(copied: list, rng: random.Random, keys: Any, row: dict, hops: dict) -> None:
    """Fill the derived fields (`same(...)`) `row` lacks, each once the fields it reads are there
    (`same(...)` of `same(...)`: the checker rules out circles); a reference that finds no row
    leaves None."""
    for _ in copied:
        for f, make in copied:
            if f not in row:
                value = make(rng, keys, row, hops)
                if value is not _PENDING:
                    row[f] = value


class _StateRows(dict):
    """The rows a `same(...)` reads for a request's new row: the task state's (none for a table
    it does not hold)."""

    def __init__(self, st: State):
        super().__init__()
        self.st = st

    def __missing__(self, table: str) -> dict:
        return self.st.tables.get(table, {})


def _gen_tables(gen: tuple):
    """(kind, table) of each `ref` target ("ref") and `same(...)` hop table ("same") a seed
    generator reads."""
    if gen[0] in ("ref", "uref"):
        # a `ref ... where` reads the target's rows, as a `same(...)` does
        yield ("same" if len(gen) > 2 else "ref"), gen[1]
    elif gen[0] == "match":  # the target's rows, and those the `same(...)` reads
        yield "same", gen[2]
        yield from _gen_tables(gen[4])
    elif gen[0] == "same":
        for table, _ in gen[2]:
            yield "same", table
    elif gen[0] in ("after", "before"):
        for same in gen[1]:
            yield from _gen_tables(same)
    elif gen[0] == "format":
        for g in gen[2]:
            yield from _gen_tables(g)
    elif gen[0] == "slug":
        yield from _gen_tables(gen[1])


def _heads(gen: tuple) -> set[str]:
    """The fields of the row a derived generator reads first (`same(a.b)` reads `a`)."""
    if gen[0] == "same":
        return {gen[1]}
    if gen[0] in ("after", "before"):
        return set().union(*(_heads(g) for g in gen[1]))
    if gen[0] == "format":
        return set().union(*(_heads(g) for g in gen[2]))
    if gen[0] == "slug":
        return _heads(gen[1])
    if gen[0] == "match":
        return _heads(gen[4])
    return set()


def _filtered(gen: tuple) -> bool:
    """Is the generator a `ref ... where` (a `ref` or `unique ref` with a field's values)?"""
    return gen[0] in ("ref", "uref") and len(gen) > 2


def _derived(gen: tuple) -> bool:
    """Does the generator read the row's other fields (a `same(...)`, maybe inside a `format`)?"""
    if gen[0] in ("same", "after", "before", "match"):
        return True
    if gen[0] == "format":
        return any(_derived(g) for g in gen[2])
    return gen[0] == "slug" and _derived(gen[1])


class _SeedPlan:
    """One seeded name's generators, compiled once into closures `(rng, keys) -> value`, field by
    field in the record's order: the seeder runs them for every table a task touches, so the
    dispatch on generator tuples is paid once per world, not once per value. The draws from
    `rng` are part of the seed's meaning (the same seed, the same rows): change none."""

    def __init__(self, spec: dict, decl: dict, types: Types):
        self.scalar = None
        if decl["kind"] == "scalar":
            self.scalar = _compile(spec["gen"], types)
            return
        self.count = _compile(spec["count"], types)
        self.key, self.prefix = decl["key"], decl.get("prefix")
        self.key_drawn = self.key in spec["fields"]
        # a key the block does not draw is given after the other fields, unless a derived one
        # reads it (an ARN that ends with the row's key): then first, so `same(key)` has it
        self.key_first = not self.key_drawn and any(self.key in _heads(g) for g in spec["fields"].values() if _derived(g))
        record = types.records[decl["record"]]
        self.order = list(record)
        defaults = decl.get("defaults", {})
        # fields that read the row's others: filled after them, a bare `same` drawing nothing
        self.copied = [(f, _compile_derived(g, types)) for f, g in spec["fields"].items() if _derived(g)]
        # those a new row's request makes the same way (`derive`): a name's email, not a date
        # `after(...)` another (a request states its own dates), nor a reference matched to
        # another field (`ref ... where f == same(...)`: a request states its references)
        self.echoed = [(f, make) for f, make in self.copied if spec["fields"][f][0] not in ("after", "before", "match")]
        same = {f for f, _ in self.copied}
        self.profiles = spec.get("profiles") or ()
        self.distinct = tuple(spec.get("distinct") or ())
        profiled = set(self.profiles[0]) if self.profiles else set()
        # fields that may find no key (a `unique ref` whose keys are taken, a `ref ... where` no
        # row fits): the row is then not made
        self.unique = [f for f, g in spec["fields"].items() if g[0] in ("uref", "match") or _filtered(g)]
        self.fields = []  # (field, generator or None, default or _NONE), in the record's order
        for f, ft in record.items():
            if f in same or f in profiled:
                continue  # after the fields it copies; it draws nothing from `rng`
            if f in spec["fields"]:
                self.fields.append((f, _compile(spec["fields"][f], types), _NONE))
            elif f in defaults:
                self.fields.append((f, None, defaults[f]))
            elif types.base(ft).startswith("list:"):
                self.fields.append((f, None, ()))


def _compile(gen: tuple, types: Types):
    """A seed generator (codegen/python.py `_gen`) as a closure `(rng, keys) -> value`."""
    kind = gen[0]
    if kind == "const":
        value = gen[1]
        return lambda rng, keys: value
    if kind == "range":
        _, lo, hi, t = gen
        if t in ("decimal", "money"):
            from fractions import Fraction

            a, b = int(lo * 100), int(hi * 100)
            return lambda rng, keys: Fraction(rng.randint(a, b), 100)
        return lambda rng, keys: rng.randint(lo, hi)
    if kind == "pick":
        values = gen[1]
        return lambda rng, keys: rng.choice(values)
    if kind == "weighted":
        values = [v for v, _ in gen[1]]
        cum = list(itertools.accumulate(w for _, w in gen[1]))  # what `choices(weights=)` builds
        return lambda rng, keys: rng.choices(values, cum_weights=cum, k=1)[0]
    if kind == "ref" and _filtered(gen):
        table, where = gen[1], gen[2]

        def ref_where(rng, keys):
            got = keys.where(table, where)
            return rng.choice(got) if got else _NO_KEY

        return ref_where
    if kind == "ref":
        table, none = gen[1], f"{gen[1]}-none"

        def ref(rng, keys):
            got = keys[table]
            return rng.choice(got) if got else none

        return ref
    if kind == "uref":
        table, none = gen[1], f"{gen[1]}-none"
        where = gen[2] if _filtered(gen) else None

        def unique_ref(rng, keys):
            free = keys.free(table, where)
            if where is not None and not free:
                return _NO_KEY
            if not free:
                return _NO_KEY if keys[table] else none
            i = rng.randrange(len(free))
            free[i], free[-1] = free[-1], free[i]  # take it out in O(1); the order left is still the stream's
            return free.pop()

        return unique_ref
    if kind == "format":
        _, pieces, gens, gtypes = gen
        parts = [(_compile(g, types), gtypes[i], pieces[i + 1]) for i, g in enumerate(gens)]
        first = pieces[0]

        def fmt(rng, keys):
            out = [first]
            for make, t, piece in parts:
                out.append(_render(make(rng, keys), t, types))
                out.append(piece)
            return "".join(out)

        return fmt
    if kind == "slug":
        make, t, sep = _compile(gen[1], types), gen[2], gen[3]
        return lambda rng, keys: slug(_render(make(rng, keys), t, types), sep)
    raise ValueError(f"unknown generator {kind}")


def _compile_derived(gen: tuple, types: Types):
    """A generator that reads the row's other fields, as a closure `(rng, keys, row, hops) ->
    value`: `_PENDING` while a field it reads is not filled yet and None when a `same` finds no
    row, both before anything is drawn, so the draws do not depend on the order fields are tried in."""
    leaves = list(_same_leaves(gen))
    make = _compile_row(gen, types)

    def derived(rng, keys, row, hops):
        for leaf in leaves:
            value = _same(leaf, row, hops)
            if value is _PENDING or value is None:
                return value
        return make(rng, keys, row, hops)

    return derived


def _compile_row(gen: tuple, types: Types):
    """`_compile_derived`'s value once every field it reads is there."""
    kind = gen[0]
    if kind == "same":
        return lambda rng, keys, row, hops: _same(gen, row, hops)
    if kind == "slug":
        inner, t, sep = _compile_row(gen[1], types), gen[2], gen[3]
        return lambda rng, keys, row, hops: slug(_render(inner(rng, keys, row, hops), t, types), sep)
    if kind == "format":
        _, pieces, gens, gtypes = gen
        parts = [(_compile_row(g, types), gtypes[i], pieces[i + 1]) for i, g in enumerate(gens)]

        def fmt(rng, keys, row, hops):
            out = [pieces[0]]
            for make, t, piece in parts:
                out.append(_render(make(rng, keys, row, hops), t, types))
                out.append(piece)
            return "".join(out)

        return fmt
    if kind in ("after", "before"):
        return _compile_ordered(gen)
    if kind == "match":
        return _compile_match(gen)
    drawn = _compile(gen, types)
    return lambda rng, keys, row, hops: drawn(rng, keys)


def _compile_ordered(gen: tuple):
    """`after(same(path), ..., days, bounds)`: one draw, `lo` to `hi` whole days after the latest
    value the `same`s read (any minute of them for a datetime), within the bounds; where the two
    do not meet, the bound nearest (or, where the value itself is past the upper bound, that
    value: the order is what `after` keeps). Without days, anywhere from that value on; without
    bounds, the dates a value may take (0001-01-01 to 9999-12-31). `before(...)` is its mirror:
    the same on negated values."""
    word, sames, followed, kind, days, bounds = gen
    unit = 1440 if kind == "datetime" else 1
    least, most = (V.MIN_MINUTE, V.MAX_MINUTE) if kind == "datetime" else (V.MIN_DAY, V.MAX_DAY)
    if bounds is not None:
        least, most = max(least, bounds[0]), min(most, bounds[1])
    sign = -1 if word == "before" else 1
    if sign < 0:
        least, most = -most, -least
    d_lo, d_hi = (days[0] * unit, days[1] * unit) if days is not None else (0, None)
    pairs = list(zip(sames, followed))

    def value(rng, keys, row, hops):
        refs = []
        for same, was in pairs:
            ref = _same(same, row, hops)
            if was != kind:  # a date read as its midnight, a datetime as its day
                ref = ref * 1440 if kind == "datetime" else ref // 1440
            refs.append(sign * ref)
        ref = max(refs)  # (for `before`, the earliest, negated)
        top = max(most, ref)  # never before `ref`, even past the upper bound
        a = min(max(ref + d_lo, least), top)
        b = top if d_hi is None else min(max(ref + d_hi, a), top)
        return sign * rng.randint(a, b)

    return value


def _compile_match(gen: tuple):
    """`ref T where f == same(path)` (`unique ref` too): the key of a row of T whose `f` is the
    value `same(path)` reads; `_NO_KEY` when none is (or none is left), so the row is not made."""
    _, unique, table, field, same = gen

    def match(rng, keys, row, hops):
        where = (field, (_same(same, row, hops),))
        got = keys.free(table, where) if unique else keys.where(table, where)
        if not got:
            return _NO_KEY
        if not unique:
            return rng.choice(got)
        i = rng.randrange(len(got))
        got[i], got[-1] = got[-1], got[i]  # taken out in O(1), as `unique ref` takes one
        return got.pop()

    return match


def _same_leaves(gen: tuple):
    if gen[0] == "same":
        yield gen
    elif gen[0] == "match":
        yield gen[4]
    elif gen[0] == "format":
        for g in gen[2]:
            yield from _same_leaves(g)
    elif gen[0] == "slug":
        yield from _same_leaves(gen[1])
    elif gen[0] in ("after", "before"):
        yield from gen[1]


def slug(text: str, sep: str = ".") -> str:
    """`Amara Chowdhury` → `amara.chowdhury`, `Zoë O'Neil` → `zoe.o.neil`: ASCII lowercase
    words joined by `sep`, as an address or a handle is made from a name."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return sep.join(re.findall(r"[a-z0-9]+", plain))


def _render(value: Any, t: str, types: Types) -> str:
    j = types.to_json(t, value)
    return str(j).lower() if isinstance(j, bool) else str(j)
