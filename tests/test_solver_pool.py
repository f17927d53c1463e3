"""`solve.SolverPool`: the walk proof asks in a scope of one reused solver, and nothing of one
question is left for the next (D39: a fresh solver and its first check cost more than a small
world's folded proof)."""

import z3

from compoworld_dsl.sample.solve import SolverPool
from compoworld_dsl.smt.encode import fresh_context


def test_each_scope_starts_empty_and_sets_its_seed():
    pool = SolverPool()
    x = z3.Int("x")
    with pool.scope(1) as s:
        s.add(x > 3, x < 2)
        assert s.check() == z3.unsat
        first = s
    with pool.scope(2) as s:
        assert s is first  # reused
        assert len(s.assertions()) == 0 and s.check() == z3.sat  # nothing of the last question
        s.add(x == 7)
        assert s.check() == z3.sat and s.model()[x].as_long() == 7


def test_a_fresh_context_gets_a_fresh_solver():
    pool = SolverPool()
    with pool.scope(1) as s:
        old = s
    fresh_context()  # what a Z3 binding does before its question (D15)
    with pool.scope(1) as s:
        assert s is not old and s.ctx is z3.main_ctx()
        s.add(z3.Int("y") == 1)
        assert s.check() == z3.sat
