"""Build one task from one (seed, index): a walk, Z3 bindings and proofs, a replay, a checker.
Deterministic: everything random comes from a generator named by the seed and the index."""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import math
import random
import re
import time
from fractions import Fraction
from typing import Any

import z3

from ..check import types as T
from ..check.model import Model, Tool
from ..codegen.python import tstr
from ..runtime.service import ToolError
from ..runtime.state import State, Tx
from ..runtime.world import CompiledWorld
from ..smt.encode import Deadline, EncodingUnsupported, OutOfTime, WorldEncoding, _and, _or, assert_success, boolval, constraint_violated, fresh_context, tables_in
from ..syntax import ast as A
from . import checker as C
from . import lookalikes, ruled
from . import necessity as N
from .answers import answer_matches, stated_in
from .people import People, share_a_word, words
from .rejected import Rejected  # (tests import it from here too)
from .phrasing import Phraser, fill
from .walk import Step, Walker, thread_count

from . import CAPABILITIES  # noqa: F401  (tests and run.py import it from here too)
TASK_FORMAT = 2  # goal-level tasks; files without `format` were written by the plan-read-aloud sampler
MAX_REPORTS = 3
RLIMIT = 5_000_000  # Z3 resource limit per check: reproducible, unlike a wall-clock timeout
MAX_SERVICES = 15  # services a session mounts: the task's plus distractors
BRANCH_SHARE = 0.3  # of tasks tried as conditional (if the walk offers a condition and a second branch)
IDEMPOTENT_SHARE = 0.25  # of tasks given a request whose goal already holds (if the state offers one)
DRAWS = 6  # seeded draws of user-given values per candidate step before Z3 is asked
TELLING_SHARE = 0.25  # a reported field's value is held by at most this share of its table's rows, when one is (`_telling`)
DECOY_RECORDS = 12  # other records asked about per argument, for the decoys of a plain reported value (`_plain_elsewhere`)
FINITE_TRIES = 32  # combinations of enum/yes-no values run before Z3 is asked for them (`_no_finite_value`)
_NO_DRAW = object()  # a parameter type no draw covers
_NO_VALUE = object()  # no value a person would write: the candidate step fails
WITNESS_TRIES = 32  # changed reference plans tried as witnesses that a house rule is non-trivial


def _blank(value: Any) -> bool:
    """Empty, zero, false or null, all the way down: what a lazy agent reports without looking."""
    if isinstance(value, (list, dict)):
        return all(_blank(v) for v in (value.values() if isinstance(value, dict) else value))
    return value in (None, "", 0, False)


def _nested(a: Any, b: Any) -> bool:
    """Does one value's text hold the other's (case-insensitive)? Then finding one in an answer
    says nothing about the other."""
    x, y = str(a).casefold(), str(b).casefold()
    return x in y or y in x


def _hashable(v: Any) -> Any:
    """A dict key for a field's value (lists and records by their JSON-like text)."""
    return json.dumps(v, sort_keys=True, default=str) if isinstance(v, (list, dict)) else v


def _held_tables(state: State, fields: dict[str, list[str]], scope: set[str] | None):
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


class Sampler:
    """Everything per world that tasks share: tools, producers, constraint metadata, encodings."""

    def __init__(self, model: Model, world: CompiledWorld, source: str):
        self.model = model
        self.world = world
        self.source = source
        self.enc = WorldEncoding(model)
        services = model.world.services if model.world else list(model.services)
        self.services = services
        self.tools = [t for s in services for t in model.services[s].tools.values() if not t.simulated]
        self.mutating = {t.qualified for t in self.tools if t.writes or t.inserts or t.deletes}
        self.inserts = {t.qualified: _insert_counts(t) for t in self.tools}
        self.tables_written = {t.qualified: _tables_changed(t, with_inserts=True) for t in self.tools}
        self.tables_modified = {t.qualified: _tables_changed(t, with_inserts=False) for t in self.tools}
        # tools an idempotency request can name: state-changing, called with keys and ids only
        self._idempotent_tools = sorted((t.qualified, t) for t in self.tools if t.qualified in self.mutating and t.params and all(isinstance(pt, T.Alias) for _, pt in t.params))
        self._requires = {t.qualified: _require_deps(t) for t in self.tools}
        by_service: dict[str, set[str]] = {}
        for n, d in world.state_decl.items():
            if d["kind"] == "table":
                by_service.setdefault(n.split(".")[0], set()).add(n)
        # the tables a call of each tool can read or write: its service's (a tool body reads no
        # other service's state, E410)
        self.tool_tables = {t.qualified: by_service.get(t.service, set()) for t in self.tools}
        self.constraints = self._constraint_info()
        # names of the fields the house rules read (`m.status == closed`): look-alikes flip these,
        # and those the rules read on a known table first (`matters.matters`' status, not every status)
        self.rule_fields = {n.name for info in self.constraints for n in A.walk(info["decl"]) if isinstance(n, A.Field)}
        self.rule_table_fields = set().union(*[_fields_read(info["decl"], info["svc"]) for info in self.constraints]) if self.constraints else set()
        # table → fields, by runtime type, and the date fields: value pools read only these
        self._fields_of_type: dict[str, dict[str, list[str]]] = {}
        self._date_fields: dict[str, list[str]] = {}
        for table, decl in world.state_decl.items():
            if decl["kind"] != "table":
                continue
            for f, ft in world.types.records[decl["record"]].items():
                self._fields_of_type.setdefault(ft, {}).setdefault(table, []).append(f)
                if world.types.base(ft) == "date":
                    self._date_fields.setdefault(table, []).append(f)
        self.z3_seconds = 0.0  # in Z3's checks
        self.encode_seconds = 0.0  # building Z3 terms (encodings, symbolic states) and reading models
        self.deadline = self.enc.deadline = Deadline()  # the attempt's time budget (`task`); never runs out otherwise
        self._stage = ""  # what the attempt is doing, for a timeout's detail
        self._sym_cache = None
        self._rows_cache: dict = {}  # (id of a state, rule, tables) → (state, protected rows); cleared per task
        self._replay_prefix = None
        self._pools: dict = {}  # `_held_split`'s answers by the tables they read; cleared per task
        self._task_seed: int | None = None  # the seed the task's state draws its tables from
        self.alternative = None  # the branch not taken, found while building a conditional walk
        self.people = People(model, world)
        self.walker = Walker(self)

    def other_values(self, state0: State, t: str, current: Any) -> list:
        """Values of runtime type `t` the seeded state holds, other than `current`: what a plan
        that took a wrong value would have used instead."""
        rt = self.people.ref_table(t)
        if rt is not None:
            return sorted((k for k in state0.tables.get(rt, {}) if k != current), key=repr)
        return [v for v in self._held(state0, t) if v != current]

    # ─────────────────────────── constraints ───────────────────────────

    def _constraint_info(self) -> list[dict]:
        out = []
        world = self.model.world
        decls = [(c.name, c, None) for c in (world.constraints if world else [])]
        for s in self.services:
            svc = self.model.services[s]
            decls += [(f"{s}.{c.name}", c, svc) for c in svc.constraints]
        for name, decl, svc in decls:
            tables = _tables_read(decl, svc, self.model)
            orders = [c for c in A.walk_clauses(decl.clauses) if isinstance(c, A.OrderClause)]
            state_clauses = any(not isinstance(c, A.OrderClause) for c in A.walk_clauses(decl.clauses))
            invariants = set().union(*[tables_in(self.model, c.expr, svc) for c in A.walk_clauses(decl.clauses) if isinstance(c, A.Invariant)])
            reads = {t for t in tables | invariants if self.world.state_decl.get(t, {}).get("kind") == "table"}
            kept = {".".join(c.table) if len(c.table) == 2 else f"{svc.name}.{c.table[0]}" for c in A.walk_clauses(decl.clauses) if isinstance(c, A.Untouched)}
            out.append({"name": name, "decl": decl, "svc": svc, "tables": tables, "inv_tables": invariants, "untouched": kept, "reads": reads, "orders": orders, "state": state_clauses})
        return out

    # ─────────────────────────── walks ───────────────────────────

    def build(self, rng: random.Random, seed: int, state0: State, hops: int, branch: bool = False) -> tuple[list[Step], dict, dict]:
        """Grow the walk (walk.py): goal-level steps, every key from an earlier result."""
        return self.walker.grow(rng, seed, state0, hops, branch)

    def prove_walk(self, seed: int, state0: State, steps: list[Step], values: dict) -> int:
        """Z3 proves the walk satisfiable from the seeded state: every step's checks hold with
        arguments flowing from earlier results (through Z3's own terms) and the user-given ones
        equal to `values`. With every input concrete the encoding is ground, so most of it folds
        to literals while it is built; the solver decides what is left.
        Returns the number of assertions; raises `Rejected` when Z3 does not say sat."""
        solver = self._solver(seed)
        self._chain(solver, state0, steps, bind=True, values=values)
        res = self._check(solver)
        if res == z3.unknown:
            raise Rejected("unknown", f"proving the walk: {solver.reason_unknown()}")
        if res == z3.unsat:
            raise Rejected("unsat", "Z3 does not prove the walk satisfiable with its arguments")
        return len(solver.assertions())

    def bind_step(self, rng: random.Random, seed: int, state0: State, state: State, steps: list[Step], step: Step, k: int, given: dict):
        """User-given values for one candidate step, run on the concrete state. Returns
        (values, post-state, result, used Z3) or, when nothing works, why (a string)."""
        tool = step.tool
        free = [(n, t) for n, t in tool.params if n not in given]
        written = self._written(steps + [step])
        reads = set(self.tool_tables[tool.qualified]).union(*[i["reads"] for i in self.constraints if i["state"] and i["tables"] & written])
        self.ensure(reads, state0, state)
        rules = self.relevant(state0, steps + [step])
        why = "no values tried"
        draws = DRAWS if free else 1
        for d in range(draws):
            self.deadline.check()
            chosen = {}
            for n, t in free:
                v = self._draw(rng, state, t, n, prefer_state=d < DRAWS // 2, near=self.tool_tables[tool.qualified])
                if v is _NO_VALUE:
                    return f"no sensible value for {n}"
                if v is _NO_DRAW:
                    break
                chosen[n] = v
            else:
                got = self.run_step(state0, state, tool, {**given, **chosen}, rules)
                if not isinstance(got, str):
                    return (chosen, *got, 0)
                why = got
                continue
            break  # a type no draw covers: Z3 chooses
        if not free or self._fails_whatever_the_user_gives(tool, why, {n for n, _ in free}):
            return why
        # Text, ids and emails keep the last draw's values: a person writes only text the
        # world's data holds (`_sensible`), the draws have tried those, and Z3 answered with
        # filler ("A") for 9 in 10 such bindings on legal_ops, all thrown away. Z3 chooses the
        # numbers, dates, times and structured values.
        kinds = dict(tool.params)
        fixed = {n: v for n, v in chosen.items() if T.prim_name(kinds[n]) in ("text", "id", "email")}
        if len(fixed) == len(free) or self._fails_whatever_the_user_gives(tool, why, {n for n, _ in free} - set(fixed)):
            return why
        # the draws did not fit: Z3 looks for values over the concrete state the walk reached,
        # keeping the invariants of the rule that refused the last draw (they cost terms). A rule
        # with no invariant over what the call writes (`untouched` rows) is not part of Z3's
        # question, so its answer would be refused again: 0 of 111 such bindings were of use
        # in 300 legal_ops attempts.
        refused_by = [i for i in rules if why.startswith(f"house rule {i['name']}:")]
        if refused_by and not any(i["inv_tables"] & self.tables_written[tool.qualified] for i in refused_by):
            return why
        if self._no_finite_value(state0, state, tool, {**given, **fixed}, [(n, t) for n, t in free if n not in fixed], rules):
            return why
        try:
            near = {n: v for n, v in chosen.items() if n not in fixed and T.prim_name(kinds[n]) in ("int", "decimal", "money", "date", "time")}
            chosen, why = self._z3_bind(seed, state, tool, {**given, **fixed}, k, refused_by, near)
        except EncodingUnsupported as e:
            return f"unsupported: {e}"
        if chosen is None:
            return why
        for n, v in chosen.items():
            if not self._sensible(state, kinds[n], v):
                return f"Z3's value for {n} is not one a person would write"
        chosen = {n: {**fixed, **chosen}[n] for n, _ in free}  # in parameter order
        got = self.run_step(state0, state, tool, {**given, **chosen}, rules)
        return got if isinstance(got, str) else (chosen, *got, 1)

    def _no_finite_value(self, state0: State, state: State, tool: Tool, args: dict, rest: list, rules: list[dict]) -> bool:
        """Do the parameters left to Z3 (`rest`) all take few values (enum members, yes/no), and
        does the call fail with every combination of them? Then Z3's answer, one of those, would
        fail too: it is not asked (a fresh context and an encoding, ~6 ms, for nothing: 14 of 111
        bindings in 300 legal_ops attempts). False when some value works (Z3 chooses, as
        before) or the domain is large."""
        domains = []
        for _, t in rest:
            b = T.base_of(t)
            domains.append(list(b.members) if isinstance(b, T.EnumT) else [False, True] if T.prim_name(t) == "bool" else None)
        if not rest or None in domains or math.prod(len(d) for d in domains) > FINITE_TRIES:
            return False
        for combo in itertools.product(*domains):
            self.deadline.check()
            got = self.run_step(state0, state, tool, {**args, **{n: v for (n, _), v in zip(rest, combo)}}, rules)
            if not isinstance(got, str):
                return False
        return True

    def _holds(self, info: dict, before: State, after: State | None = None) -> bool:
        """Does the house rule hold from `before` to `after` (on `before` alone: its invariants,
        nothing touched)? False when it reads a table the state does not hold."""
        try:
            return C._constraint_holds(self.world, info["name"], before, before if after is None else after)[0]
        except KeyError:
            return False

    def _sensible(self, state: State, t: T.Type, v: Any) -> bool:
        """Would a person write this value? Text and emails: one the world's data holds; numbers:
        positive and under a million; dates: within the seeded state's dates, give or take a year."""
        p = T.prim_name(t)
        if p in ("text", "email", "id"):
            return v in self._held(state, tstr(t))
        if p in ("int", "decimal", "money"):
            return 0 < v < 1_000_000
        if p in ("date", "datetime"):
            lo, hi = self._date_range(state)
            day = v if p == "date" else v // 1440
            return lo is None or lo - 366 <= day <= hi + 366
        return True

    def _fails_whatever_the_user_gives(self, tool: Tool, why: str, free: set[str]) -> bool:
        """Did a draw fail on a `require` whose condition reads none of the user-given parameters
        (directly or through `let`s)? Then every draw fails there or earlier — the state and the
        step-bound arguments are fixed — and Z3 need not be asked. The error message names the
        `require` (matched against each one's message template, in order)."""
        kind, _, message = why.partition(": ")
        matched = [deps for k, pattern, deps in self._requires[tool.qualified] if k == kind and pattern.fullmatch(message)]
        return bool(matched) and all(not deps & free for deps in matched)

    def run_step(self, state0: State, state: State, tool: Tool, args: dict, rules: list[dict]):
        """Run one call on a copy of `state`: (post-state, result), or why it failed."""
        post = state.snapshot()
        try:
            result = self._call(post, tool.qualified, args)
        except ToolError as e:
            return f"{e.kind}: {e.message}"
        for info in rules:
            ok, why = C._constraint_holds(self.world, info["name"], state0, post)
            if not ok:
                return f"house rule {info['name']}: {why}"
        return post, result

    def _z3_bind(self, seed: int, state: State, tool: Tool, given: dict, k: int, rules: list[dict] = (), near: dict | None = None) -> tuple[dict | None, str]:
        """Z3 finds user-given values with which the call succeeds on the concrete `state`, asked
        first for plausible ones: near the last draw's (`near`: half to twice a number, whole
        amounts, a month around a date, two hours around a time), else dates within the state's
        dates, numbers in 1..10000, times in office hours; and first for ones that keep the
        invariants of the house `rules` over the tables the call writes (a deadline that matches
        the newest docket note), judged from `state` on (the caller checks the rules from the
        task's start). Without the first tier Z3 answers with the edge of a range (a budget of
        0.50, a trip that ends the day it starts).

        This is the one place a Z3 model becomes part of a task, and Z3's models depend on every
        term its context has seen — even the shape of a simplified term does, since Z3 orders the
        arguments of `and`, `or` and `+` by term id. So the question is built in a fresh context
        (~4 ms), and a task's bytes do not depend on what the process built before."""
        with self._encoding():
            fresh_context()
            solver = self._solver(seed)
            sym = self.enc.state_from(state, spare=self.inserts[tool.qualified])
            args, user = {}, {}
            for name, t in tool.params:
                if name in given:
                    args[name] = self.enc.value(t, given[name])
                else:
                    v = self.enc.var(t, f"s{k + 1}.{name}")
                    solver.add(self.enc.domain(t, v))
                    user[name] = args[name] = v
            tr = self.enc.encode(tool, sym, args)
            named = assert_success(solver, tr, f"step {k + 1} ")
            written = self.tables_written[tool.qualified]
            keep = [z3.Not(constraint_violated(self.enc, i["decl"], i["svc"], i["name"], sym, tr.post, [], written, held_before=self._holds(i, state))) for i in rules if i["inv_tables"] & written]
            plausible, close = [], []
            lo, hi = self._date_range(state)
            for name, var in user.items():
                p = T.prim_name(dict(tool.params)[name])
                d = (near or {}).get(name)
                if p == "date" and lo is not None:
                    plausible += [var >= lo, var <= hi]
                elif p in ("int", "decimal", "money"):
                    plausible += [var >= 1, var <= 10000]
                elif p == "time":
                    plausible += [var >= 8 * 60, var <= 18 * 60]
                if d is None:
                    continue
                if p == "date":
                    close += [var >= d - 30, var <= d + 30]
                elif p == "time":
                    close += [var >= d - 120, var <= d + 120]
                elif p in ("int", "decimal", "money") and d > 0:
                    close += [var * 2 >= d, var <= d * 2]
                    if p != "int":
                        close.append(z3.IsInt(var))  # whole amounts, as a person would ask
        res = z3.unknown
        for ask in ([*close, *plausible, *keep], [*plausible, *keep], keep, plausible):
            if ask and res != z3.sat:
                res = self._check(solver, *ask)
        if res != z3.sat:
            res = self._check(solver)
        if res == z3.unknown:
            raise Rejected("unknown", f"binding step {k + 1}: {solver.reason_unknown()}")
        if res == z3.unsat:
            core = [named[str(b)].label for b in solver.unsat_core() if str(b) in named]
            return None, "unsat: " + "; ".join(core[:2])
        model = solver.model()
        with self._encoding():
            return {n: self.enc.concrete(dict(tool.params)[n], v, model) for n, v in user.items()}, ""

    def _draw(self, rng: random.Random, state: State, t: T.Type, name: str, prefer_state: bool, near: set[str] | None = None) -> Any:
        """One seeded value for a user-given parameter: a member of an enum; for ids, text and
        emails a value the state holds, by meaning: from fields of the parameter's name, or that
        share a word with it (`new_folder`: `folder`), else from the fields of that type in the
        tool's own service (`near`), and only then from any field of the type — a drug's name is
        not a pet's; for numbers, dates and times a plausible value, or one such a field holds
        (an `amount` like other amounts), dates otherwise within the range the tool's own
        service holds (a rescheduled visit near the visits, not near birth dates)."""
        b = T.base_of(t)
        if isinstance(b, T.EnumT):
            return rng.choice(list(b.members))
        p = T.prim_name(t)
        if p is None:
            return _NO_DRAW  # lists and records: Z3 chooses
        if p == "bool":
            return rng.random() < 0.5
        same, other = self._held_split(state, tstr(t), name)
        if not same:
            same = self._held_split(state, tstr(t), None, near=name)[0]  # a field sharing a word with it
        if not same and near:
            other = self._held(state, tstr(t), scope=near) or other
        if p in ("text", "id", "email"):
            # only values a person would write: ones the world's data holds (its pools), never
            # made-up filler ("title 417"); the same field's values first
            held = same if same and (prefer_state or rng.random() < 0.7) else (same or other)
            return rng.choice(held) if held else _NO_VALUE
        if same and (prefer_state or rng.random() < 0.5):
            return rng.choice(same)
        if p == "int":
            return rng.randint(1, 100)
        if p in ("decimal", "money"):
            return Fraction(rng.randint(1, 10000))
        if p in ("date", "datetime"):
            lo, hi = self._date_range(state, near) if near else (None, None)
            if lo is None:
                lo, hi = self._date_range(state)
            day = rng.randint(lo, hi) if lo is not None else 20000 + rng.randrange(365)
            return day if p == "date" else day * 1440 + rng.randrange(32, 72) * 15
        if p == "time":
            return rng.randrange(32, 72) * 15  # 08:00 to 17:45
        if p == "duration":
            return rng.choice((15, 30, 60, 120, 1440, 2 * 1440, 7 * 1440, 14 * 1440))
        return _NO_DRAW

    def _held(self, state: State, want: str, name: str | None = None, scope: set[str] | None = None) -> tuple:
        """Values of the runtime type `want` the state holds: from fields named `name` if there
        are any, else from every field of that type. Sorted, so a seeded choice is reproducible."""
        same, other = self._held_split(state, want, name, scope)
        return same or other

    def _held_split(self, state: State, want: str, name: str | None, scope: set[str] | None = None, near: str | None = None) -> tuple[tuple, tuple]:
        """Values of type `want` in fields named `name` (or, with `near`, in fields whose name
        shares a word with `near`), and in the other fields of that type, in the tables the state
        has (and, with `scope`, only those tables)."""
        # the pools depend only on the tables read, each of which is never changed in place
        # (`State`): kept per task, keyed by the table dicts the answer came from
        held = list(_held_tables(state, self._fields_of_type.get(want, {}), scope))
        key = (want, name, near, tuple(id(rows) for _, _, rows in held))
        hit = self._pools.get(key)
        if hit is not None:
            return hit[1]
        same, other = set(), set()
        for table, fields, rows in held:
            for f in fields:
                hit = f == name if near is None else share_a_word(near, f)
                (same if hit else other).update(r[f] for r in rows.values())
        out = (tuple(sorted(same, key=repr)), tuple(sorted(other, key=repr)))  # (shared: not to be changed)
        self._pools[key] = ([rows for _, _, rows in held], out)  # (holds the dicts: their ids stay theirs)
        return out

    def branch(self, rng: random.Random, state0: State, steps: list[Step], values: dict, results: list, checks: list[dict]) -> dict | None:
        """Make the last step conditional on a field an earlier step read. The instruction names
        the condition; the reference plan takes the branch the state decides, and the plan of the
        other branch must fail the checker (proven by replaying it)."""
        if self.alternative is None or steps[-1].tool.qualified not in self.mutating:
            return None
        options = []
        outputs = [self.walker.output(steps, results, j) for j in range(len(steps))]
        for j, out in enumerate(outputs[:-1]):
            if steps[j].tool.qualified in self.mutating or not isinstance(out, dict):
                continue  # a condition the agent reads, not one the plan itself just fixed
            t = steps[j].tool.result
            t = t.elem if isinstance(t, T.ListT) else t
            if isinstance(t, T.RecordT):
                # what the instruction already says, or the read itself fixed (the environment of a
                # deployment found among the production deployments)
                described = set((steps[j].how or {}).get("fields", ())) | {n for n, _ in steps[j].tool.params}
                # a field the walk itself writes would be read stale: not a condition to branch on
                written = {f for st in steps if st.tool.qualified in self.mutating for _, f in st.tool.writes}
                for f, ft in t.fields.items():
                    b = T.base_of(ft)
                    if f in described or f in written:
                        continue  # the instruction already says what it is
                    if isinstance(b, T.EnumT) and len(b.members) > 1 or T.prim_name(ft) == "bool":
                        options.append((j, f, ft))
        if not options:
            return None
        j, field, ft = options[rng.randrange(len(options))]
        actual = outputs[j][field]
        b = T.base_of(ft)
        members = list(b.members) if isinstance(b, T.EnumT) else [True, False]
        # name the actual value (true → the reference branch), or another one (false → the other)
        named = actual if rng.random() < 0.5 else rng.choice([m for m in members if m != actual])
        alt_step, alt_values = self.alternative
        k = len(steps) - 1
        prefix_values = {key: v for key, v in values.items() if key[0] < k}
        try:
            final, plan, _ = self.replay(state0, steps[:-1] + [alt_step], {**prefix_values, **{(k, n): v for (_, n), v in alt_values.items()}})
        except Rejected:  # the other branch fails to run: its final state is the prefix's
            final, plan, _ = self.replay(state0, steps[:-1], prefix_values)
            plan = plan + [{"tool": alt_step.tool.qualified, "arguments": None}]
        verdict = C.score(self.world, checks, state0, final, None, [(p["tool"], p["arguments"]) for p in plan if p["arguments"] is not None])
        if verdict["reward"] != 0:
            return None  # both branches reach the goal: not a real condition
        return {
            "step": k + 1,
            "if": {"step": j + 1, "field": field, "equals": self.world.types.to_json(tstr(ft), named)},
            "taken": "then" if named == actual else "else",
            "other_branch": {"tool": alt_step.tool.qualified, "plan": plan[k:]},
            "_alt": (alt_step, alt_values),
            "_proof": {"failed": [f["id"] for f in verdict["failed"]]},
        }

    # ─────────────────────────── Z3 ───────────────────────────

    def _solver(self, seed: int) -> z3.Solver:
        s = z3.Solver()
        s.set("rlimit", RLIMIT)
        s.set("random_seed", seed % (2**31))
        # Z3 would take Ctrl-C for itself (cancel the check, carry on); the job handles it
        s.set("ctrl_c", False)
        return s

    def _sym(self, state0: State, steps: list[Step]):
        """The Z3 image of the seeded state, built once per task and shared by every chain
        (encodings copy only the tables they write)."""
        spare = self._spare(steps)
        key = (id(state0), z3.main_ctx(), tuple(sorted(spare.items())))
        if self._sym_cache is None or self._sym_cache[0] != key:
            self._sym_cache = (key, self.enc.state_from(state0, spare=spare), state0)
        return self._sym_cache[1]

    def _spare(self, steps: list[Step]) -> dict[str, int]:
        """Free slots per table that the walk's inserts need: every slot costs terms in every
        filter, `latest` and rule over the table, so there are no more than the inserts."""
        spare: dict[str, int] = {}
        for s in steps:
            for table, n in self.inserts[s.tool.qualified].items():
                spare[table] = spare.get(table, 0) + n
        return spare

    def _changing(self, steps: list[Step]) -> list[Step]:
        """The steps whose tools can change the state (the plan a state rule's proof is over)."""
        return [s for s in steps if s.tool.qualified in self.mutating]

    def _written(self, steps: list[Step]) -> set[str]:
        return set().union(*[self.tables_written[s.tool.qualified] for s in steps])

    def ensure(self, tables: set[str], state0: State, *states: State) -> None:
        """Seed into `state0` the tables it lacks (a task's state starts with none, see
        `CompiledWorld.partial_state`), and copy them, untouched, into the later `states`."""
        for name in self.world.seed_tables(state0, self._task_seed, sorted(tables)):
            for st in states:
                st.tables[name] = state0.tables[name]  # (shared: tables are not changed in place)
                st.counters[name] = state0.counters[name]

    def relevant(self, state0: State, steps: list[Step]) -> list[dict]:
        """State rules the walk's tools could break, as the Z3 encoding sees them: an invariant
        over a table the walk writes, an `untouched` row (found on the seeded state) in a table
        the walk updates or deletes from, or an `untouched` table the walk inserts into (an added
        row it selects breaks it, D22). Conditions are read on the state before. A rule left out
        here is one Z3 would prove vacuous."""
        written = self._written(steps)
        modified = set().union(*[self.tables_modified[s.tool.qualified] for s in steps])
        inserted = {t for s in steps for t in self.inserts[s.tool.qualified]}
        out = []
        for info in self.constraints:
            if not info["state"] or not info["tables"] & written:
                continue
            rows = self._protected(info, state0)
            if info["inv_tables"] & written or rows is None or modified & {t for t, _ in rows} or inserted & info["untouched"]:
                out.append(info)
        return out

    def _protected(self, info: dict, state0: State) -> list | None:
        """The rows a rule's `untouched` clauses protect on the seeded state (None: the rule
        cannot be evaluated there, so nothing is assumed)."""
        # keyed by identity, and the entry holds the state: a state that died could otherwise
        # pass its id, and its rows, to a later one (a planted variant's, say); and by the tables
        # it holds, since `ensure` seeds more into the same state
        key = (id(state0), info["name"], len(state0.tables))
        hit = self._rows_cache.get(key)
        if hit is None or hit[0] is not state0:
            try:
                rows = self.world.constraints[info["name"]].check(Tx(state0), Tx(state0))[0]
            except ToolError:
                rows = None
            hit = self._rows_cache[key] = (state0, rows)
        return hit[1]

    def violated(self, info: dict, state0: State, steps: list[Step], start, end):
        """The constraint broken between the symbolic start and end of a walk. Its untouched rows
        come from the compiled constraint run on the concrete start state."""
        rows = self._protected(info, state0)
        slots = None
        if rows is not None:
            index = {t: {k: i for i, k in enumerate(state0.tables[t])} for t in {t for t, _ in rows}}
            slots = sorted({(t, index[t][k]) for t, k in rows})
        with self._encoding():
            return constraint_violated(self.enc, info["decl"], info["svc"], info["name"], start, end, slots, self._written(steps))

    @contextlib.contextmanager
    def _encoding(self):
        """Count the time inside as building Z3 terms (`encode_seconds`): with a large table
        that is most of Z3's share of an attempt, and none of it is inside `solver.check`."""
        t = time.perf_counter()
        try:
            yield
        finally:
            self.encode_seconds += time.perf_counter() - t

    def _chain(self, solver: z3.Solver, state0: State, steps: list[Step], bind: bool, tag: str = "", values: dict | None = None) -> tuple[dict, list, Any]:
        """Encode the walk from the concrete `state0`. With `bind`, arguments flow from earlier
        results; without, every argument is free. With `values`, the user-given arguments are
        those constants instead of variables. Returns user variables, results, final state."""
        with self._encoding():
            return self._chain_terms(solver, state0, steps, bind, tag, values)

    def _chain_terms(self, solver: z3.Solver, state0: State, steps: list[Step], bind: bool, tag: str, values: dict | None) -> tuple[dict, list, Any]:
        sym = self._sym(state0, steps)
        start = sym
        user: dict[tuple[int, str], Any] = {}
        results: list[Any] = []
        for k, step in enumerate(steps):
            args = {}
            for name, t in step.tool.params:
                src = step.sources[name]
                if bind and src[0] == "step" and steps[src[1][0]].pick is None:
                    j, field = src[1]
                    args[name] = results[j][field] if field is not None else results[j]
                elif values is not None:
                    args[name] = self.enc.value(t, values[(k, name)])
                    solver.add(self.enc.domain(t, args[name]))
                else:
                    v = self.enc.var(t, f"{tag}s{k + 1}.{name}")
                    solver.add(self.enc.domain(t, v))
                    user[(k, name)] = v
                    args[name] = v
            tr = self.enc.encode(step.tool, sym, args)
            assert_success(solver, tr, f"{tag}step {k + 1} ")
            results.append(tr.result)
            sym = tr.post
        return user, results, (start, sym)

    def _check(self, solver: z3.Solver, *assumptions) -> Any:
        """A check under the resource limit and, with a budget, a timeout of what is left of it.
        An `unknown` that the timeout caused is the budget running out (`OutOfTime`), not Z3's
        answer: only the resource limit gives reproducible unknowns."""
        self.deadline.check()
        left = self.deadline.remaining_ms()
        if left is not None:
            solver.set("timeout", left)
        t = time.perf_counter()
        try:
            res = solver.check(*assumptions)
        finally:
            self.z3_seconds += time.perf_counter() - t
        if res == z3.unknown and self.deadline.expired:
            raise OutOfTime()
        return res

    def _date_range(self, state: State, scope: set[str] | None = None) -> tuple[int | None, int | None]:
        days = [r[f] for _, fields, rows in _held_tables(state, self._date_fields, scope) for f in fields for r in rows.values()]
        return (min(days), max(days)) if days else (None, None)

    def _candidates(self, state: State, t: T.Type) -> list:
        b = T.base_of(t)
        return list(b.members) if isinstance(b, T.EnumT) else self._held(state, tstr(t))

    # ─────────────────────────── replay ───────────────────────────

    def _call(self, state: State, tool: str, args: dict) -> Any:
        """Call the generated method of `tool` with internal-value arguments; `state` changes only
        if it succeeds (raises `ToolError` otherwise)."""
        spec = self.world.tools[tool]
        # through the gateway's own argument validation: a value Z3 or a draw picked that no
        # agent could send (an email without an @, a date past 9999) fails here, not in the task
        return self.world.execute(state, spec, self.world.admit(spec, args), deadline=self.deadline)[0]

    def replay(self, state0: State, steps: list[Step], values: dict) -> tuple[State, list[dict], list[Any]]:
        state = state0.snapshot()
        plan, results = [], []
        for k, step in enumerate(steps):
            spec = self.world.tools[step.tool.qualified]
            args = {}
            for name, t in step.tool.params:
                src = step.sources[name]
                if src[0] == "step":
                    j, field = src[1]
                    out = self.walker.output(steps, results, j)
                    if out is None:
                        raise Rejected("replay_mismatch", f"step {k + 1}: the element step {j + 1} picked is gone")
                    args[name] = out[field] if field is not None else out
                else:
                    args[name] = values[(k, name)]
            try:
                result = self._call(state, spec.qualified, args)
            except ToolError as e:
                raise Rejected("replay_mismatch", f"step {k + 1} {spec.qualified}: {e.kind}: {e.message}") from None
            results.append(result)
            plan.append({"tool": spec.qualified, "arguments": {n: self.world.types.to_json(pt, args[n]) for n, pt in spec.params}})
        return state, plan, results

    # ─────────────────────────── constraints ───────────────────────────

    def attach_constraints(self, seed: int, state0: State, final: State, steps: list[Step], plan: list[dict]) -> tuple[list[dict], dict, set]:
        """Constraints relevant to the walk, each shown non-trivial (a plan over the task's tools
        breaks it) and kept by the reference plan. Returns records, proofs and capabilities.

        A plan "over the task's tools" here is the walk's state-changing steps in walk order (the
        read-only steps cannot break a state rule, and would only add preconditions). It is shown
        by a witness when one is cheap to find: those calls of the reference plan with one or two
        arguments changed (seeded by the task seed and the rule's name), run on the Python
        services, break the rule; the witness is recorded, and `worldc verify` replays it.
        Otherwise Z3 looks for arguments over a free chain of the same steps."""
        attached, proofs, caps = [], {}, set()
        relevant = self.relevant(state0, steps)
        free: list = []  # one free chain for all state rules, built on first need; a push/pop each

        def proven(name: str, proof: dict) -> None:  # a declaration with state and order clauses gets one entry
            if name in proofs:
                proof = {**proofs[name], "non_trivial": proofs[name]["non_trivial"] + "; " + proof["non_trivial"]}
            proofs[name] = proof

        for info in self.constraints:
            self.deadline.check()
            if info in relevant:
                witness = self._break_concretely(seed, info, state0, plan)
                if witness is not None or self._breakable_by_z3(seed, info, state0, steps, free):
                    ok, why = C._constraint_holds(self.world, info["name"], state0, final)
                    if not ok:
                        raise Rejected("constraint_broken", f"{info['name']}: {why}")
                    attached.append({"kind": "state", "name": info["name"], "description": info["decl"].description or ""})
                    if witness is None:
                        proven(info["name"], {"non_trivial": "sat: a plan over the task's tools breaks it", "kept_by_reference": True})
                    else:
                        proven(info["name"], {"non_trivial": "sat: this plan over the task's tools breaks it", "witness": witness, "kept_by_reference": True})
                    if len({t.split(".")[0] for t in info["tables"]}) >= 2:
                        caps.add("cross-env-constraint")  # a rule of one service that binds another
                # else: vacuous for this walk, nothing the task's tools can do breaks it
            for rule in self._order_rules(info, plan):
                tool, after = rule["tool"], rule["after"]
                # non-trivial: the walk without the `after` steps still runs to the end
                skipped = [p for p in plan if p["tool"] != after]
                if self._runs(state0, skipped) is None:
                    solver = self._solver(seed)
                    self._chain(solver, state0, [s for s in steps if s.tool.qualified != after], bind=False, tag="skip ")
                    res = self._check(solver)
                    if res == z3.unknown:
                        raise Rejected("unknown", f"order rule {info['name']}: {solver.reason_unknown()}")
                    if res == z3.unsat:
                        continue
                attached.append(rule)
                proven(info["name"], {"non_trivial": f"sat: {tool} can run without {after} first", "kept_by_reference": True})
                caps.add("ordering")
        return attached, proofs, caps

    def _breakable_by_z3(self, seed: int, info: dict, state0: State, steps: list[Step], free: list) -> bool:
        """Z3: do arguments exist with which the walk's state-changing steps break the rule?
        `free` holds the free chain (solver, start, end) once built, for the next rule."""
        if not free:
            solver = self._solver(seed)
            _, _, (start, end) = self._chain(solver, state0, self._changing(steps), bind=False, tag="free ")
            free += [solver, start, end]
        solver, start, end = free
        solver.push()
        solver.add(self.violated(info, state0, steps, start, end))
        res = self._check(solver)
        why = solver.reason_unknown() if res == z3.unknown else ""
        solver.pop()
        if res == z3.unknown:
            raise Rejected("unknown", f"constraint {info['name']}: {why}")
        return res == z3.sat

    def _order_rules(self, info: dict, plan: list[dict]) -> list[dict]:
        """A constraint's `order` rules whose two tools the plan calls, as task records. Raises
        `Rejected` when the plan breaks one (checked before any Z3 work on the walk)."""
        tools = {p["tool"] for p in plan}
        calls = [(p["tool"], p["arguments"]) for p in plan]
        out = []
        for order in info["orders"]:
            tool, after = ".".join(order.tool), ".".join(order.after)
            if tool in tools and after in tools:
                rule = {"kind": "order", "name": info["name"], "description": info["decl"].description or "", "tool": tool, "after": after, "on": list(order.on)}
                ok, why = C._order_holds(rule, calls)
                if not ok:
                    raise Rejected("constraint_broken", f"{info['name']}: {why}")
                out.append(rule)
        return out

    def _runs(self, state0: State, plan: list[dict]) -> State | None:
        """The final state of a JSON plan run on a copy of `state0`, or None if a call fails."""
        state = state0.snapshot()
        for call in plan:
            if not self.world.call(state, call.get("tool", ""), call.get("arguments"), deadline=self.deadline)["success"]:
                return None
        return state

    def _break_concretely(self, seed: int, info: dict, state0: State, plan: list[dict]) -> list[dict] | None:
        """A plan over the task's tools that breaks a state rule: the reference plan with one or
        two arguments replaced by values the state holds or by extreme ones. Seeded by the task
        seed and the rule's name alone, so `verify` finds the same one."""
        rng = random.Random(f"{seed}:{info['name']}:witness")
        plan = [c for c in plan if c["tool"] in self.mutating]
        # change the arguments of calls that write what the rule reads (any call, if none does)
        protected = self._protected(info, state0) or []
        reads = info["inv_tables"] | {t for t, _ in protected}
        writers = [k for k, call in enumerate(plan) if self.tables_written[call["tool"]] & reads] or range(len(plan))
        params = [(k, n, t) for k in writers for n, t in self.world.tools[plan[k]["tool"]].params]
        if not params:
            return None
        types = self.world.types
        rows = [(state0.tables[t][key], types.records[self.world.state_decl[t]["record"]]) for t, key in protected]
        # values come from the tables of the plan's tools and of the rule: the same set whether
        # the state holds every table (verify) or only those the walk needed (sampling)
        scope = info["reads"].union(*[self.tool_tables[c["tool"]] for c in plan])
        for _ in range(WITNESS_TRIES):
            self.deadline.check()
            trial = [{"tool": c["tool"], "arguments": dict(c["arguments"])} for c in plan]
            for k, n, t in rng.sample(params, min(len(params), rng.choice((1, 1, 2)))):
                trial[k]["arguments"][n] = self.world.types.to_json(t, self._extreme(rng, state0, t, rows, scope))
            final = self._runs(state0, trial)
            if final is not None and not C._constraint_holds(self.world, info["name"], state0, final)[0]:
                return trial
        return None

    def _extreme(self, rng: random.Random, state0: State, t: str, rows: list[tuple[dict, dict]], scope: set[str]) -> Any:
        """A value of runtime type `t` (a type string) for a witness search: often one a protected
        row holds (`rows`), else an edge of the type's range (0, 1, 10⁵ and 10⁶; dates 400 days
        outside the state's; empty text) or a value the state holds, half and half."""
        typ = self.world.types
        base = typ.base(t)
        if base.startswith("enum:"):
            return rng.choice(list(typ.enums[base[5:]]))
        if rows and rng.random() < 0.6:  # a protected row's own key, or its matter, say
            near = sorted({row[f] for row, rec in rows for f, ft in rec.items() if ft == t}, key=repr)
            near = near or sorted({row[f] for row, rec in rows for f, ft in rec.items() if typ.base(ft) == base}, key=repr)
            if near:
                return rng.choice(near)
        held = self._held(state0, t, scope=scope)
        edges: list = []
        if base in ("int", "duration"):
            edges = [0, 1, 100_000, 1_000_000]
        elif base in ("decimal", "money"):
            edges = [Fraction(0), Fraction(1), Fraction(100_000), Fraction(1_000_000)]
        elif base in ("date", "datetime"):
            lo, hi = self._date_range(state0, scope)
            if lo is not None:
                edges = [lo - 400, hi + 400] if base == "date" else [(lo - 400) * 1440, (hi + 400) * 1440]
        elif base in ("text", "email"):
            edges = [""] if base == "text" else []
        elif base == "bool":
            edges = [True, False]
        if edges and (not held or rng.random() < 0.5):  # rules are about thresholds: edges half the time
            return rng.choice(edges)
        return rng.choice(held) if held else None

    # ─────────────────────────── the whole task ───────────────────────────

    def task(self, seed: int, index: int, hops: int, deadline: Deadline | None = None, one_thread: bool = False) -> dict:
        """Attempt `index` of a run. With a `deadline`, an attempt still working when it runs out
        is rejected as `timeout`; any other outcome depends only on (world, seed, index, hops).
        `one_thread` (`--one-thread`): reject, as `filtered`, a walk whose steps do not all hang
        together through data flow, as soon as it is grown; the task an attempt gives is the
        same with it or without, so `worldc verify` needs no flag."""
        self.deadline = self.enc.deadline = deadline or Deadline()
        self._stage = "starting"
        t0 = time.monotonic()
        try:
            return self._task(seed, index, hops, one_thread)
        except OutOfTime:
            raise Rejected("timeout", f"out of time after {time.monotonic() - t0:.1f} s, {self._stage}") from None
        finally:
            self.deadline = self.enc.deadline = Deadline()

    def start_task(self, task_seed: int | None) -> None:
        """Forget what the last task cached (its symbolic state, protected rows, value pools) and
        draw tables from `task_seed` from now on: every task, sampled or verified, starts here."""
        self._sym_cache = None
        self._rows_cache = {}
        self._replay_prefix = None  # necessity._Prefix: the reference run the changed replays share
        self._pools = {}
        self._task_seed = task_seed

    def _task(self, seed: int, index: int, hops: int, one_thread: bool = False) -> dict:
        rng = random.Random(f"{seed}:{hops}:{index}")  # the hops too: walks of other lengths start elsewhere
        task_seed = rng.randrange(2**32)
        self.start_task(task_seed)
        self._stage = "seeding the state"
        state0 = self.world.partial_state(task_seed)
        self.alternative = None
        want_branch = hops >= 2 and rng.random() < BRANCH_SHARE
        try:
            self._stage = "growing the walk"
            steps, values, proofs = self.build(rng, task_seed, state0, hops, branch=want_branch)
            if one_thread:
                n = thread_count([[src[1][0] for src in st.sources.values() if src[0] == "step"] for st in steps])
                if n > 1:
                    raise Rejected("filtered", f"{n} threads: some steps share no value with the others (--one-thread)")
            self._stage = "replaying the walk"
            final, plan, results = self.replay(state0, steps, values)
            self._stage = "planting a look-alike"
            planted = lookalikes.plant(self, task_seed, state0, steps, values, results)
            if planted is not None:  # the task's state from here on: seeded, then these rows
                state0, planted_rows = planted
                final, plan, results = self.replay(state0, steps, values)
            for info in self.constraints:
                self._order_rules(info, plan)  # a broken order rule rejects the walk before Z3 works on it
            self._stage = "choosing the reports"  # before the proofs: they draw nothing from `rng`
            reports = self.reports(rng, state0, steps, results)
            for r in reports:
                r["label"] = Phraser(self, state0, steps, values, results).report(r["step"], r["field"])
            # A reported value the instruction states rejects the task at the end. What the
            # instruction states for sure is known now: everything but the values the house rules
            # might decide. Checking it here rejects such walks before the proofs (with the final
            # check unchanged, no task changes: a value stated now is stated then).
            self._stage = "checking the answer is not stated, early"
            early = Phraser(self, state0, steps, values, results, left=ruled.could_be_left(self, steps))
            self.answer_not_guessable(state0, steps, plan, [], reports, early.instruction([(r["step"], r["field"]) for r in reports], []))
            # A step that a stricter checker does not need, the task's own does not need either:
            # it keeps only some of these house rules and leaves some fields to them. Checking now
            # rejects such walks before the Z3 proofs, most of what a rejected attempt cost; the
            # full check below still runs on the task's own checker, so no task changes.
            self._stage = "proving every step counts, early"
            strict = C.derive(self.world, state0, final, self._rules_to_keep(state0, final, steps, plan), reports=reports)
            early_necessity = N.steps_necessary(self, state0, steps, values, strict, reports, task_seed)
            self._stage = "proving the walk"
            proofs["walk_satisfiable"]["assertions"] = self.prove_walk(task_seed, state0, steps, values)
            self._stage = "proving house rules"
            attached, cproofs, caps = self.attach_constraints(task_seed, state0, final, steps, plan)
        except EncodingUnsupported as e:
            raise Rejected("unsupported", str(e)) from None
        self._stage = "checking the checker"
        calls = [(p["tool"], p["arguments"]) for p in plan]
        answer = N.answer_of(self, reports, dict(enumerate(self.walker.output(steps, results, j) for j in range(len(steps)))))
        # house rules: every non-trivial one first; only those a look-alike or another call order
        # makes decide the reward stay attached (load-bearing)
        self._stage = "finding values the house rules decide"
        left = ruled.find(self, task_seed, state0, steps, values, attached)
        left_rows = ruled.rows(self, state0, steps, values, left) if left else {}
        checks = C.derive(self.world, state0, final, attached, reports=reports, ruled=left_rows)
        self._reference_passes(state0, final, plan, checks, answer, calls)
        self._stage = "finding look-alikes"
        refused, bites = N.distractors(self, state0, steps, values, checks, reports)
        bearing, rule_proofs = [], {}
        for c in attached:
            decided = [{"step": k + 1, "argument": n, "breaking_values": p["alternatives"]} for (k, n), p in sorted(left.items()) if c["name"] in p["rules"]]
            if c["kind"] == "state" and (c["name"] in bites or decided):
                bearing.append(c)
                why = ({"look_alikes": bites[c["name"]]} if c["name"] in bites else {}) | ({"left_to_the_agent": decided} if decided else {})
                rule_proofs[c["name"]] = {**cproofs.get(c["name"], {}), "load_bearing": why}
            elif c["kind"] == "order":
                order = N.order_bites(self, state0, steps, values, checks, reports, c)
                if order is not None:
                    bearing.append(c)
                    rule_proofs[c["name"]] = {**cproofs.get(c["name"], {}), "load_bearing": {"calls_in_order": [k + 1 for k in order]}}
        caps = set()
        if any(c["kind"] == "state" and len({t.split(".")[0] for t in self._rule_tables(c["name"])}) >= 2 for c in bearing):
            caps.add("cross-env-constraint")  # a rule of one service that decides what is done in another
        if any(c["kind"] == "order" for c in bearing):
            caps.add("ordering")
        if len(bearing) != len(attached):
            checks = C.derive(self.world, state0, final, bearing, reports=reports, ruled=left_rows)
        full = self._reference_passes(state0, final, plan, checks, answer, calls)
        empty = C.score(self.world, checks, state0, state0, None, [])
        if empty["reward"] != 0:
            raise Rejected("already_satisfied", "the empty plan passes the checker")
        self._stage = "proving every step counts"
        # the same proof as the early one when the task's checker is the stricter one (no rule
        # dropped, no value left to the rules): it is a function of the checks, so reused
        necessary = early_necessity if checks == strict else N.steps_necessary(self, state0, steps, values, checks, reports, task_seed)
        caps |= self._capabilities(steps)
        branch = self.branch(rng, state0, steps, values, results, checks) if want_branch else None
        idem = self.idempotent(rng, state0, final, steps) if rng.random() < IDEMPOTENT_SHARE else None
        if idem is not None:
            caps.add("idempotency-check")
            proofs["idempotent"] = {"refused_before": 409, "refused_after_reference": 409, "message": idem.pop("refusal")}
        alt = None
        if branch is not None:
            caps.add("conditional-branching")
            proofs["branch_not_taken_fails"] = branch.pop("_proof")
            alt = branch.pop("_alt")
        services = sorted({s.tool.service for s in steps})
        others = [s for s in self.services if s not in services]
        distractors = sorted(random.Random(f"{seed}:{index}:distractors").sample(others, min(len(others), max(0, MAX_SERVICES - len(services)))))
        proofs.update(
            {
                "descriptions_unique": self._descriptions(state0, steps, refused, bites),
                "constraints": rule_proofs,
                "reference_passes": {"reward": 1, "checks": full["total"]},
                "empty_plan_fails": {"failed": [f["id"] for f in empty["failed"]]},
                "steps_necessary": necessary,
            }
        )
        phraser = Phraser(self, state0, steps, values, results, left=set(left))  # afresh: the labels named everything once
        instruction = phraser.instruction([(r["step"], r["field"]) for r in reports], bearing, branch, alt, idem)
        self._flows_not_stated(steps, values, instruction)
        if reports:
            proofs["answer_not_guessable"] = self.answer_not_guessable(state0, steps, plan, checks, reports, instruction)
            self._decoys(state0, final, steps, values, reports, checks, instruction)
        return {
            "id": f"{self.model.world.name if self.model.world else 'world'}-h{hops}-s{seed}-{index:06d}",
            "format": TASK_FORMAT,
            "world": self.model.world.name if self.model.world else "",
            "seed": task_seed,
            "hops": hops,
            "services": services,
            "distractors": distractors,
            "instruction": instruction,
            "capabilities": [c for c in CAPABILITIES if c in caps],
            "initial_state": {"seed": task_seed, "rows": planted_rows} if planted is not None else {"seed": task_seed},
            "reference_plan": plan,
            "bindings": [{n: "house rules" if (k, n) in left else (f"step {src[1][0] + 1}" + (f".{src[1][1]}" if src[1][1] else "")) if src[0] == "step" else "instruction" for n, src in s.sources.items()} for k, s in enumerate(steps)],
            "found_by": [self._found_by(s) for s in steps],
            "reports": [{"step": r["step"] + 1, "field": r["field"], "element": None if r.get("element") is None else {"key": self.people.key[steps[r["step"]].how["table"]], "value": r["element"]}, "label": r["label"], "type": r["type"]} for r in reports],
            "answer": answer,
            "checker": {"checks": checks},
            "constraints": bearing,
            "proofs": proofs,
            "branch": branch,
            "idempotent": {k: v for k, v in idem.items() if not k.startswith("_")} if idem else None,
        }

    def _rules_to_keep(self, state0: State, final: State, steps: list[Step], plan: list[dict]) -> list[dict]:
        """The house rules `attach_constraints` could attach, as `C.derive` takes them: the state
        rules relevant to the walk that the reference keeps (one it breaks rejects the walk there
        anyway) and every order rule the plan's calls are subject to."""
        out: list[dict] = []
        for info in self.relevant(state0, steps):
            if self._holds(info, state0, final):  # (one that reads a table the state lacks is never attached)
                out.append({"kind": "state", "name": info["name"]})
        for info in self.constraints:
            out += self._order_rules(info, plan)
        return out

    def _found_by(self, step: Step) -> str | None:
        how = step.how
        if how is None:
            return None
        return f"rank: the largest {how['field']}" if how["by"] == "rank" else "description: " + ", ".join(how["fields"])

    def _rule_tables(self, name: str) -> set[str]:
        info = next((i for i in self.constraints if i["name"] == name), None)
        return info["tables"] if info else set()

    def _reference_passes(self, state0: State, final: State, plan: list[dict], checks: list[dict], answer: Any, calls: list) -> dict:
        touched: set = set()  # the rows the plan changes on its way: protected ones break their rules
        replayed = state0.snapshot()
        for p in plan:
            self.world.call(replayed, p["tool"], p["arguments"], touched, deadline=self.deadline)
        full = C.score(self.world, checks, state0, final, answer, calls, touched)
        if any(f["kind"] == "constraint" for f in full["failed"]):
            raise Rejected("constraint_broken", f"the reference plan changes a protected row on its way: {full['failed'][0]['reason']}")
        if full["reward"] != 1:
            raise Rejected("replay_mismatch", f"the reference plan fails its own checker: {full['failed'][:2]}")
        return full

    def _descriptions(self, state0: State, steps: list[Step], refused: list[dict], bites: dict) -> list[dict]:
        """Per described record: how many rows of the seeded state fit its description, and why
        each look-alike is not the one meant (the services refuse it, or a house rule forbids it)."""
        out = []
        for k, step in enumerate(steps):
            how = step.how
            if how is None or how["by"] != "description":
                continue
            target = step.pick if step.pick is not None else how.get("key")
            desc = self.people.description(state0, how["table"], target, tuple(how["fields"]))
            fits = self.people.matches(state0, how["table"], desc)
            if how.get("within") == "list":
                continue  # told apart among the list the call shows (walk._pick), not the table
            ruled = sorted({n for n, ev in bites.items() for e in ev if e["step"] == k + 1})
            out.append({"step": k + 1, "table": how["table"], "fields": list(how["fields"]), "fits": len(fits), "z3_fits": self.z3_fits(state0, how["table"], target, tuple(how["fields"])), "refused_by_services": sum(1 for r in refused if r["step"] == k + 1), "ruled_out_by": ruled})
            if out[-1]["z3_fits"] != len(fits):
                raise Rejected("replay_mismatch", f"step {k + 1}: Python finds {len(fits)} rows fitting the description, Z3 {out[-1]['z3_fits']}")
        return out

    def z3_fits(self, state0: State, table: str, target: Any, fields: tuple[str, ...]) -> int:
        """Z3's count of the rows that fit the target's description, over the encoder's own image
        of the seeded state (`state_from`): a row fits when its slot's fields equal the target
        slot's, a reference field through the referenced table's slots (the referenced row's
        first `known by` field equal to the target's). Texts compare exactly here, case-blind in
        Python (`People.matches`); a disagreement rejects the attempt.

        The encoder's connectives decide each row's condition on Z3's own literals as they are
        built (literals are hash-consed: equal values are one term), so over a seeded state the
        count is read off the folded terms; the solver counts whatever does not fold."""
        self.ensure({table} | {rt for f in fields if (rt := self.people.ref_table(self.people.fields[table][f]))}, state0)
        with self._encoding():
            sym = self.enc.state_from(state0, spare=0)
            slots = sym.tables[table]
            mine = slots[list(state0.tables[table]).index(target)].fields
            conds_by_field = []
            for f in fields:
                rt = self.people.ref_table(self.people.fields[table][f])
                if rt is None:
                    conds_by_field.append(lambda sl, f=f: self.enc.eq(sl.fields[f], mine[f]))
                    continue
                kb, key = self.people.known_by[rt][0], self.people.key[rt]
                ref_slots = sym.tables[rt]
                want = ref_slots[list(state0.tables[rt]).index(state0.tables[table][target][f])].fields[kb]
                conds_by_field.append(lambda sl, f=f, ref_slots=ref_slots, kb=kb, key=key, want=want: _or([_and(r.present, self.enc.eq(r.fields[key], sl.fields[f]), self.enc.eq(r.fields[kb], want)) for r in ref_slots]) if ref_slots else boolval(False))
            conds = [_and(sl.present, *[c(sl) for c in conds_by_field]) for sl in slots]
            if all(z3.is_true(c) or z3.is_false(c) for c in conds):
                return sum(1 for c in conds if z3.is_true(c))
            n = z3.Int("fits")
            terms = [z3.If(c, 1, 0) for c in conds]
            solver = self._solver(0)
            solver.add(n == (z3.Sum(*terms) if terms else z3.IntVal(0)))
        if self._check(solver) != z3.sat:
            return -1
        return solver.model()[n].as_long()

    def reports(self, rng: random.Random, state0: State, steps: list[Step], results: list) -> list[dict]:
        """What the task asks the agent to tell: for every read whose output no later step uses,
        one value of it a person would ask for (not an id, not a clock's, not blank, not part of
        the description that found it, not a yes/no). A read with nothing to report rejects the
        walk.

        A yes/no is never reported: `false` is refused as blank, so every yes/no left would be
        `true`, and an agent that answers "yes" without looking would pass (found by a scripted
        guessing agent on supply_chain; DESIGN §5: no reported value is guessable)."""
        out = []
        for j in self.walker.unused_reads(steps):
            step = steps[j]
            value = self.walker.output(steps, results, j)
            table, fields = self.reportable(state0, step, value, j)
            if table is not None:
                f = rng.choice(fields)
                out.append({"step": j, "field": f, "type": self.people.fields[table][f], "element": step.pick, "value": value[f], "table": table})
            else:
                out.append({"step": j, "field": None, "type": tstr(step.tool.result), "element": None, "value": value})
        if len(out) > MAX_REPORTS:
            raise Rejected("too_many_reports", f"{len(out)} reads would each need a report")
        islands = [r["step"] for r in out if self._is_entry(steps[r["step"]])]
        if len(islands) > 1:  # two lookups whose results are only read out: chores, not a task
            raise Rejected("step_not_needed", f"steps {', '.join(str(j + 1) for j in islands)}: lookups whose results nothing uses but a report")
        return out

    def _telling(self, state0: State, table: str, value: dict, fields: list[str]) -> list[str]:
        """The fields of a record that an agent cannot guess by answering with the table's
        commonest value of the field (every matter is "open"), or one of its few values: the
        field takes at least 1 / `TELLING_SHARE` values over the table's rows in `state0`, the
        record's is held by at most `TELLING_SHARE` of the rows (or by one), and, when by more
        than one, by fewer rows than some other value. With any field allowed, an agent that did
        the work but answered with the commonest value passed 26 of 111 office tasks with a
        report (D28)."""
        rows = state0.tables.get(table)
        if not rows:
            return fields
        most = max(1, TELLING_SHARE * len(rows))
        out = []
        for f in fields:
            counts = collections.Counter(_hashable(r[f]) for r in rows.values())
            mine = counts.pop(_hashable(value[f]), 0)
            if len(counts) + 1 < 1 / TELLING_SHARE:
                continue  # a field of few values (a status): a guess among them is too often right
            if mine <= 1 or (mine <= most and mine < max(counts.values(), default=0)):
                out.append(f)
        return out

    def reportable(self, state0: State, step: Step, value: Any, j: int) -> tuple[str | None, list[str]]:
        """What a read's output `value` (step j, used by no later step) offers a report: (its
        table, the fields a person would ask for and could not guess, `_telling`) for a record,
        (None, []) for a plain value. Raises `Rejected` when it offers nothing: an id, a blank,
        a yes/no, only values many rows share, no result at all. The walk asks this of a read it
        would end on (`Walker.grow`), `reports` of every read."""
        table = step.how["table"] if step.how else self.walker.result_table(step.tool)
        if isinstance(value, dict) and table is not None:
            skip = {self.people.key[table]} | set(self.world.volatile_fields.get(table, ())) | set((step.how or {}).get("fields", ())) | {(step.how or {}).get("field")}
            fields = [f for f, ft in self.people.fields[table].items() if f not in skip and self.people.ref_table(ft) is None and not _blank(value[f]) and self.world.types.base(ft) != "bool"]
            if not fields:
                raise Rejected("step_not_needed", f"step {j + 1} {step.tool.qualified}: nothing in its result to report")
            telling = self._telling(state0, table, value, fields)
            if not telling:
                raise Rejected("guessable_answer", f"step {j + 1} {step.tool.qualified}: every field of its result has a value many rows share")
            return table, telling
        if not isinstance(value, (dict, list)) and value is not None and not isinstance(step.tool.result, T.NoneT):
            t = tstr(step.tool.result)
            if self.people.ref_table(t) is not None or _blank(value):
                raise Rejected("step_not_needed", f"step {j + 1} {step.tool.qualified}: its result is nothing a person would ask for")
            if self.world.types.base(t) == "bool":
                raise Rejected("guessable_answer", f"step {j + 1} {step.tool.qualified}: a yes/no answer can be guessed")
            return None, []
        raise Rejected("step_not_needed", f"step {j + 1} {step.tool.qualified}: nothing uses its result")

    def _decoys(self, state0: State, final: State, steps: list[Step], values: dict, reports: list[dict], checks: list[dict], instruction: str) -> None:
        """Give each answer check its `decoys`, so that an answer listing candidates ("the memo is
        one of A; B; C", "1, 2 or 3") fails though it holds the right one (D29): for a field of
        a record, the field's other values in its table, at the start and at the end; for a plain
        value (a count, a total), what the same read gives about the other records its step-bound
        arguments could have named (up to `DECOY_RECORDS` of each). Left out: a value that would
        pass as any reported value, one that holds a reported value or is held by one (as text: a
        good answer holds them all), and one the instruction states (an agent may echo it)."""
        types = self.world.types
        asked = [types.to_json(r["type"], r["value"]) for r in reports]
        for r in reports:
            t = r["type"]
            if r.get("table") is not None:
                found = [types.to_json(t, row[r["field"]]) for st in (state0, final) for row in st.tables[r["table"]].values()]
            elif r["field"] is None:
                found = self._plain_elsewhere(state0, steps, values, r["step"], t)
            else:
                continue
            seen, decoys = set(), []
            for v in found:
                k = json.dumps(v, sort_keys=True)
                if k in seen or _blank(v):
                    continue
                seen.add(k)
                if any(answer_matches(types, t, a, v) or _nested(v, a) for a in asked) or stated_in(types, t, v, instruction):
                    continue
                decoys.append(v)
            if decoys:
                check = next(c for c in checks if c["kind"] == "answer" and c.get("label") == r["label"])
                check["decoys"] = sorted(decoys, key=lambda v: json.dumps(v, sort_keys=True))

    def _plain_elsewhere(self, state0: State, steps: list[Step], values: dict, j: int, t: str) -> list:
        """What read j gives (as JSON) when one argument it took from an earlier result names
        another record: the reference walk replayed with that argument changed."""
        out = []
        for name, pt in steps[j].tool.params:
            if steps[j].sources[name][0] != "step":
                continue
            for other in self.other_values(state0, tstr(pt), values[(j, name)])[:DECOY_RECORDS]:
                self.deadline.check()
                got = N.replay(self, state0, steps, values, args={(j, name): other})[2].get(j)
                if got is not None and not isinstance(got, (dict, list)):
                    out.append(self.world.types.to_json(t, got))
        return out

    def _is_entry(self, step: Step) -> bool:
        return self.walker.is_entry(step.tool)

    def answer_not_guessable(self, state0: State, steps: list[Step], plan: list[dict], checks: list[dict], reports: list[dict], instruction: str) -> dict:
        """Reject a task a lazy agent could pass without doing the work; the proof. Guessable: a
        reported value that is empty, zero, false or null, a yes/no at all, or that the instruction states;
        or, for a task whose only goal is its report, a value the initial state gives the same way
        without the walk (the report's read on the seeded state with the reference's arguments)."""
        for r in reports:
            v = self.world.types.to_json(r["type"], r["value"])
            if _blank(v) or isinstance(v, bool):  # (`reports` chooses no yes/no: this keeps it so)
                raise Rejected("guessable_answer", f"{r['label']} is {json.dumps(v)[:40]}")
            if stated_in(self.world.types, r["type"], v, instruction):
                raise Rejected("guessable_answer", f"the instruction states {r['label']}")
        return {"not_blank": True, "not_in_instruction": True, "reports": len(reports)}

    def _flows_not_stated(self, steps: list[Step], values: dict, instruction: str) -> None:
        """Reject a task whose instruction states a value that a step takes from an earlier result
        (a date, an amount, an email address), as another request's value or part of a description:
        an agent could take it from there, and the read it flows from would not be needed for it."""
        for k, step in enumerate(steps):
            for name, pt in step.tool.params:
                src = step.sources[name]
                if src[0] != "step" or src[1][1] is None or self.people.ref_table(tstr(pt)) is not None:
                    continue
                t = tstr(pt)
                if stated_in(self.world.types, t, self.world.types.to_json(t, values[(k, name)]), instruction):
                    raise Rejected("step_not_needed", f"step {k + 1} {step.tool.qualified}: the instruction states the {name} it takes from step {src[1][0] + 1}")

    def idempotent(self, rng: random.Random, state0: State, final: State, steps: list[Step]) -> dict | None:
        """A call whose goal already holds: the tool refuses it with `conflict` ("already closed")
        before the episode and after the reference plan. The instruction asks for it anyway; a good
        agent checks and changes nothing, and the checker's no-collateral rule holds it to that."""
        in_walk = {s.tool.qualified for s in steps}
        pool = [t for q, t in self._idempotent_tools if q not in in_walk]
        for tool in rng.sample(pool, min(6, len(pool))):
            self.deadline.check()
            self.ensure(self.tool_tables[tool.qualified], state0, final)
            options = [self._candidates(state0, t) for _, t in tool.params]
            if not all(options):
                continue
            args = {n: rng.choice(o) for (n, _), o in zip(tool.params, options)}
            call = {n: self.world.types.to_json(tstr(t), args[n]) for n, t in tool.params}
            before = self.world.call(state0.snapshot(), tool.qualified, call, deadline=self.deadline)
            after = self.world.call(final.snapshot(), tool.qualified, call, deadline=self.deadline)
            if not before["success"] and not after["success"] and before["error"]["code"] == after["error"]["code"] == 409:
                shown, named = {}, []  # named: (table, key) of every record the request names
                for n, t in tool.params:  # each record named as a person would, and uniquely
                    rt = self.people.ref_table(tstr(t))
                    desc = self.people.description(state0, rt, args[n]) if rt else None
                    if rt is None or not desc or self.people.matches(state0, rt, desc) != [args[n]]:
                        break
                    shown[n] = self.people.phrase(state0, rt, desc)
                    named.append((rt, args[n]))  # and those its description names ("with patient "Bella"")
                    named += [(ref, v) for f, v in desc.items() if (ref := self.people.ref_table(self.people.fields[rt][f]))]
                else:
                    phrase = fill(self.people, tool.decl.say or words(tool.name), dict(tool.params), shown.__getitem__)
                    return {"tool": tool.qualified, "arguments": call, "refusal": after["error"]["message"], "_phrase": phrase, "_named": named}
        return None

    def _capabilities(self, steps: list[Step]) -> set[str]:
        """What the agent must do: carry a value from one result into a later call
        (sequential-dependency), pick the latest or largest among the records a call shows it
        (ranked-selection), carry a date, amount or address read from one service into another's
        call, reworded by the instruction as where it comes from (data-transformation)."""
        caps = set()
        for k, s in enumerate(steps):
            for name, src in s.sources.items():
                if src[0] != "step":
                    continue
                caps.add("sequential-dependency")
                pt = tstr(dict(s.tool.params)[name])
                if self.people.ref_table(pt) is None and steps[src[1][0]].tool.service != s.tool.service:
                    caps.add("data-transformation")
            if s.how is not None and s.how["by"] == "rank":
                caps.add("ranked-selection")
        return caps

# ─────────────────────────── AST helpers ───────────────────────────


def _tables_changed(tool: Tool, with_inserts: bool) -> set[str]:
    """Qualified tables a tool updates or deletes from (and, `with_inserts`, inserts into)."""
    out = {f"{tool.service}.{t}" for t, f in tool.writes if f} | {f"{tool.service}.{t}" for t in tool.deletes}
    return out | {f"{tool.service}.{t}" for t in tool.inserts} if with_inserts else out


def _fields_read(decl: A.ConstraintDecl, svc) -> set[tuple[str, str]]:
    """(qualified table, field) a rule reads through a row it ranges over: `forall m in
    matters.matters where m.status == closed` reads (matters.matters, status); a short
    `untouched files.files where folder == ...` reads (files.files, folder)."""

    def qualified(path) -> str | None:
        if isinstance(path, tuple):
            return ".".join(path) if len(path) == 2 else (f"{svc.name}.{path[0]}" if svc else None)
        if isinstance(path, A.Field) and isinstance(path.obj, A.Var):
            return f"{path.obj.name}.{path.name}"
        if isinstance(path, A.Var) and svc is not None:
            return f"{svc.name}.{path.name}"
        return None

    rows: dict[str, str] = {}
    out: set[tuple[str, str]] = set()
    for n in A.walk(decl):
        if isinstance(n, A.ForallClause) and qualified(n.domain):
            rows[n.var] = qualified(n.domain)
        elif isinstance(n, A.Quant) and qualified(n.domain):
            rows[n.var] = qualified(n.domain)
        elif isinstance(n, A.Untouched):
            table = qualified(n.table)
            if n.var is not None and table:
                rows[n.var] = table
            elif table and n.where is not None:
                out |= {(table, v.name) for v in A.walk(n.where) if isinstance(v, A.Var)}
    for n in A.walk(decl):
        if isinstance(n, A.Field) and isinstance(n.obj, A.Var) and n.obj.name in rows:
            out.add((rows[n.obj.name], n.name))
    return out


def _tables_read(decl: A.ConstraintDecl, svc, model: Model) -> set[str]:
    """Qualified tables a constraint mentions (its `untouched`/`forall` tables and `svc.table` reads)."""
    out = set()
    for c in A.walk_clauses(decl.clauses):
        if isinstance(c, A.Untouched):
            out.add(".".join(c.table) if len(c.table) == 2 else f"{svc.name}.{c.table[0]}")
        elif isinstance(c, A.ForallClause):
            out.add(".".join(c.domain) if len(c.domain) == 2 else f"{svc.name}.{c.domain[0]}")
    return out | tables_in(model, decl, svc)


def _require_deps(tool: Tool) -> list[tuple[str, re.Pattern, set[str]]]:
    """(kind, message pattern, parameters the condition depends on) for each `require` of a
    tool, in order. Dependencies go through `let`s; a bound variable that shares a parameter's
    name counts as the parameter (an over-approximation, which only makes Z3 asked more often)."""
    from ..codegen.python import _template_pieces

    params = {n for n, _ in tool.params}
    lets: dict[str, set[str]] = {}

    def deps(node) -> set[str]:
        out: set[str] = set()
        for n in A.walk(node):
            if isinstance(n, A.Var):
                out |= lets.get(n.name, {n.name} & params)
        return out

    out = []
    for stmt in tool.decl.body:
        if isinstance(stmt, A.Let):
            lets[stmt.name] = deps(stmt.value)
        elif isinstance(stmt, A.Insert) and stmt.bind:
            lets[stmt.bind] = set().union(*[deps(f.value) for f in stmt.fields])
        elif isinstance(stmt, A.Require):
            pattern = "".join(re.escape(p) if isinstance(p, str) else ".*" for p in _template_pieces(stmt.message))
            out.append((stmt.kind, re.compile(pattern, re.S), deps(stmt.cond)))
    return out


def _insert_counts(tool: Tool) -> dict[str, int]:
    """Qualified table → how many `insert` statements one call of the tool runs (no statement
    repeats: the language has no loops)."""
    out: dict[str, int] = {}
    for n in A.walk(tool.decl):
        if isinstance(n, A.Insert):
            table = f"{tool.service}.{n.table}"
            out[table] = out.get(table, 0) + 1
    return out


def verify_task(sampler: Sampler, task: dict) -> list[str]:
    """Re-run the replay and the checker from the task record alone, then rebuild the task from
    the world and its seed (every proof re-run) and compare every field. Returns what fails."""
    world = sampler.world
    if task.get("format") != TASK_FORMAT:
        return [f"format: {task.get('format', 1)!r}, written by an older sampler (tasks were plans read aloud before format {TASK_FORMAT}); eval, serve and export still read it, but verify can only check tasks of format {TASK_FORMAT}: sample it again"]
    problems: list[str] = []
    try:
        seed = task["initial_state"]["seed"]
        sampler.start_task(seed)
        plan = task["reference_plan"]
        checks = task["checker"]["checks"]
    except (KeyError, TypeError) as e:
        return [f"malformed task record: missing {e}"]
    try:
        state0 = world.task_state(task["initial_state"])
    except (KeyError, ValueError, ToolError) as e:
        return [f"initial_state.rows: cannot be planted: {e}"]
    state = state0.snapshot()
    calls, datas = [], []
    touched: set = set()
    steps: list[Step] = []
    values: dict = {}
    for k, call in enumerate(plan):
        spec = world.resolve(call.get("tool", "")) if isinstance(call, dict) else None
        if spec is None:
            return [f"step {k + 1}: unknown tool {call.get('tool') if isinstance(call, dict) else call!r}"]
        res = world.call(state, spec.qualified, call.get("arguments"), touched)
        if not res["success"]:
            return [f"step {k + 1} {spec.qualified} fails on replay: {res['error']['message']}"]
        calls.append((spec.qualified, call.get("arguments")))
        datas.append(res.get("data"))
        tool = sampler.model.services[spec.service].tools[spec.name]
        steps.append(Step(tool, {n: ("user", None) for n, _ in tool.params}))
        args = world.convert_arguments(spec, call.get("arguments"))
        for n, _ in tool.params:
            values[(k, n)] = args["v_" + n]
    final = state
    world_name = sampler.model.world.name if sampler.model.world else ""
    if task.get("world") != world_name:
        problems.append(f"the task is for world {task.get('world')!r}, not {world_name!r}")
    if task.get("hops") != len(plan):
        problems.append(f"hops is {task.get('hops')} but the plan has {len(plan)} steps")
    if task.get("services") != sorted({c[0].split(".")[0] for c in calls}):
        problems.append("services do not match the plan's tools")
    if task.get("seed") != seed:
        problems.append("seed and initial_state.seed differ")
    full = C.score(world, checks, state0, final, task.get("answer"), calls, touched)
    if full["reward"] != 1:
        problems.append(f"the reference plan fails the checker: {[f['id'] + ' ' + f['reason'] for f in full['failed']]}")
    empty = C.score(world, checks, state0, state0, None, [])
    if empty["reward"] != 0:
        problems.append("the empty plan passes the checker")
    idem = task.get("idempotent")
    if idem:
        refused = world.call(final.snapshot(), idem.get("tool", ""), idem.get("arguments"))
        if refused["success"] or refused["error"]["code"] != 409:
            problems.append("the idempotent request is not already satisfied after the reference plan")
    # Z3: the plan's own arguments satisfy every precondition from the seeded state
    try:
        sampler.prove_walk(seed, state0, steps, values)
    except Rejected as r:
        problems.append(f"Z3 does not prove the plan satisfiable ({r.reason}: {r.detail})")
    except EncodingUnsupported as e:
        problems.append(f"Z3 cannot encode the plan: {e}")
    from .rebuild import rebuild_problems  # it samples through this module

    # and nothing in the file is trusted: the task the world and its seed give must be this one
    problems.extend(rebuild_problems(sampler, task))
    return problems
