"""Decision D39: a symbolic state of Python literals. The ground part of an encoding is computed in
Python with SMT-LIB's semantics, builds no Z3 term, and gives Z3 the same questions as before."""

from fractions import Fraction
from pathlib import Path

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from compoworld_dsl.check import check_paths
from compoworld_dsl.check import types as T
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.smt import encode as E

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def legal():
    program = check_paths([ROOT / "worlds" / "legal_ops.world"])
    assert program.ok
    return program.model, load_world(program.model), E.WorldEncoding(program.model)


def tool(model, name):
    return next(t for t in model.tools() if t.qualified == name)


@settings(max_examples=300, deadline=None)
@given(st.integers(-(10**6), 10**6), st.integers(-500, 500).filter(bool))
def test_integer_division_is_smt_libs(a, b):
    # Euclidean: the remainder is never negative, whatever the signs (Python's // floors instead)
    assert E.smt_div(a, b) == z3.simplify(z3.IntVal(a) / z3.IntVal(b)).as_long()
    assert E.smt_mod(a, b) == z3.simplify(z3.IntVal(a) % z3.IntVal(b)).as_long()


@pytest.fixture(scope="module")
def toy_encoder():
    model = check_paths([ROOT / "worlds" / "toy.world"]).model
    return E._ToolEncoder(E.WorldEncoding(model), None, None)


@settings(max_examples=200, deadline=None)
@given(st.integers(-100, 3_000_000))
def test_values_render_as_the_z3_encoding_renders_them(toy_encoder, n):
    # `str(x)` and `format` of a literal: computed in Python, the same text Z3 gives
    for t in (T.INT, T.DURATION, T.DATE, T.TIME, T.DATETIME, T.BOOL):
        v = bool(n % 2) if t is T.BOOL else n % 1440 if t is T.TIME else n
        assert toy_encoder.text(v, t) == E.pystr(z3.simplify(toy_encoder.text(E._z(v), t))), (t, v)


def test_a_ground_call_on_python_literals_builds_no_z3_term(legal):
    model, world, enc = legal
    state = world.initial_state(2)
    closed = [k for k, r in state.tables["matters.matters"].items() if r["status"] == "closed"]
    for python in (False, True):
        sym = enc.state_from(state, python=python)
        tr = enc.encode(tool(model, "matters.close_matter"), sym, {"id": enc.value(T.TEXT, closed[0], python)})
        kinds = {type(c.fails) for c in tr.checks}
        if python:
            # every check decided in Python: the proof sends Z3 nothing it would have to fold
            assert kinds == {bool}
            assert any(c.fails is True for c in tr.checks)  # closing a closed matter fails
        else:
            assert all(isinstance(c.fails, z3.BoolRef) for c in tr.checks)
            assert any(z3.is_true(c.fails) for c in tr.checks)


def test_a_symbolic_argument_meets_python_rows_as_before(legal):
    # the free chain of a rule proof: the argument is a Z3 variable, the rows Python literals;
    # Z3 must find the same kind of witness as over Z3 literals
    model, world, enc = legal
    state = world.initial_state(1)
    close = tool(model, "matters.close_matter")
    for python in (False, True):
        arg = z3.String("id")
        tr = enc.encode(close, enc.state_from(state, python=python), {"id": arg})
        solver = z3.Solver()
        E.assert_success(solver, tr)
        assert solver.check() == z3.sat
        witness = E.pystr(solver.model().eval(arg, model_completion=True))
        assert state.tables["matters.matters"][witness]["status"] == "open"


def test_folded_assertions_are_counted_not_sent():
    solver = z3.Solver()
    E.assert_term(solver, True)
    E.assert_term(solver, z3.Bool("x"))
    E.assert_term(solver, False)
    assert len(solver.assertions()) == 2  # x, and false: a false one is sent (it decides unsat)
    assert E.assertion_count(solver) == 3
    assert solver.check() == z3.unsat


def test_mixed_literals_lift_to_their_own_sort():
    x = z3.Real("x")
    a, b = E._both(x, 2)
    assert b.sort() == z3.IntSort()  # an int-typed value stays an integer literal, as before
    a, b = E._both(Fraction(1, 2), x)
    assert a.sort() == z3.RealSort()
    assert E._both("a", "b") == ("a", "b")
    assert E._ite(True, 1, 2) == 1 and E._and(True, False) is False and E._or(False, True) is True
