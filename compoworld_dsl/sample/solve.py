"""Z3 questions of one attempt: solvers under a resource limit, checks under the attempt's budget,
the encoded chain of a walk and the proof that the walk is satisfiable. It asks; it picks nothing."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import z3

from ..runtime.state import State
from ..smt.encode import OutOfTime, assert_success, assert_term, assertion_count
from .attempt import Attempt
from .facts import WorldFacts
from .rejected import Rejected
from .steps import Step

RLIMIT = 5_000_000  # Z3 resource limit per check: reproducible, unlike a wall-clock timeout


def new_solver(seed: int) -> z3.Solver:
    s = z3.Solver()
    # Z3 would take Ctrl-C for itself (cancel the check, carry on); the job handles it. (One
    # call for the three: each call into Z3 makes and hands over a parameter set.)
    s.set(rlimit=RLIMIT, random_seed=seed % (2**31), ctrl_c=False)
    return s


class SolverPool:
    """One solver a process reuses, a scope at a time, for the questions only sat or unsat is
    asked of (the walk proof): making a solver and its first check costs about 0.7 ms, most of a
    small world's proof once its ground part folds in Python (D39), and a scope pushed and
    popped costs next to nothing. Owned by the `Sampler`, handed to its attempts; a solver of a
    context that is no longer the default one (a binding made a fresh one, D15) is replaced."""

    def __init__(self):
        self._solver: z3.Solver | None = None

    @contextlib.contextmanager
    def scope(self, seed: int):
        s = self._solver
        if s is None or s.ctx is not z3.main_ctx():
            s = self._solver = new_solver(seed)
        s.set(random_seed=seed % (2**31), timeout=NO_TIMEOUT)  # (`check` sets the attempt's budget, if it has one)
        s.push()
        try:
            yield s
        finally:
            s.pop()


NO_TIMEOUT = 2**32 - 1  # Z3's "no timeout"


def check(attempt: Attempt, solver: z3.Solver, *assumptions) -> Any:
    """A check under the resource limit and, with a budget, a timeout of what is left of it.
    An `unknown` that the timeout caused is the budget running out (`OutOfTime`), not Z3's
    answer: only the resource limit gives reproducible unknowns."""
    attempt.deadline.check()
    left = attempt.deadline.remaining_ms()
    if left is not None:
        solver.set("timeout", left)
    t = time.perf_counter()
    try:
        res = solver.check(*assumptions)
    finally:
        attempt.z3_seconds += time.perf_counter() - t
    if res == z3.unknown and attempt.deadline.expired:
        raise OutOfTime()
    return res


def symbolic_state(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step]):
    """The Z3 image of the seeded state, built once per task and shared by every chain
    (encodings copy only the tables they write). Its ground values are Python literals: these
    questions are only ever answered sat or unsat, and their ground part folds in Python
    (decision D39)."""
    spare = spare_slots(facts, steps)
    key = (id(state0), z3.main_ctx(), tuple(sorted(spare.items())))
    if attempt.sym_cache is None or attempt.sym_cache[0] != key:
        attempt.sym_cache = (key, facts.enc.state_from(state0, spare=spare, deadline=attempt.deadline, python=True), state0)
    return attempt.sym_cache[1]


def spare_slots(facts: WorldFacts, steps: list[Step]) -> dict[str, int]:
    """Free slots per table that the walk's inserts need: every slot costs terms in every
    filter, `latest` and rule over the table, so there are no more than the inserts."""
    spare: dict[str, int] = {}
    for s in steps:
        for table, n in facts.inserts[s.tool.qualified].items():
            spare[table] = spare.get(table, 0) + n
    return spare


def chain(facts: WorldFacts, attempt: Attempt, solver: z3.Solver, state0: State, steps: list[Step], bind: bool, tag: str = "", values: dict | None = None) -> tuple[dict, list, Any]:
    """Encode the walk from the concrete `state0`. With `bind`, arguments flow from earlier
    results; without, every argument is free. With `values`, the user-given arguments are
    those constants instead of variables. Returns user variables, results, final state."""
    with attempt.encoding():
        return _chain_terms(facts, attempt, solver, state0, steps, bind, tag, values)


def _chain_terms(facts: WorldFacts, attempt: Attempt, solver: z3.Solver, state0: State, steps: list[Step], bind: bool, tag: str, values: dict | None) -> tuple[dict, list, Any]:
    sym = symbolic_state(facts, attempt, state0, steps)
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
                args[name] = facts.enc.value(t, values[(k, name)], sym.python)
                assert_term(solver, facts.enc.domain(t, args[name]))
            else:
                v = facts.enc.var(t, f"{tag}s{k + 1}.{name}")
                assert_term(solver, facts.enc.domain(t, v))
                user[(k, name)] = v
                args[name] = v
        tr = facts.enc.encode(step.tool, sym, args, attempt.deadline)
        assert_success(solver, tr, f"{tag}step {k + 1} ", fold=True)
        results.append(tr.result)
        sym = tr.post
    return user, results, (start, sym)


def prove_walk(facts: WorldFacts, attempt: Attempt, seed: int, state0: State, steps: list[Step], values: dict) -> int:
    """Z3 proves the walk satisfiable from the seeded state: every step's checks hold with
    arguments flowing from earlier results (through Z3's own terms) and the user-given ones
    equal to `values`. With every input concrete the encoding is ground, so most of it folds
    to literals while it is built; the solver decides what is left.
    Returns the number of assertions; raises `Rejected` when Z3 does not say sat. Asked in a
    scope of the process's reused solver where the attempt has one (`SolverPool`)."""
    with attempt.solvers.scope(seed) if attempt.solvers is not None else contextlib.nullcontext(new_solver(seed)) as solver:
        solver.folded = 0
        chain(facts, attempt, solver, state0, steps, bind=True, values=values)
        res = check(attempt, solver)
        if res == z3.unknown:
            raise Rejected("unknown", f"proving the walk: {solver.reason_unknown()}")
        if res == z3.unsat:
            raise Rejected("unsat", "Z3 does not prove the walk satisfiable with its arguments")
        return assertion_count(solver)
