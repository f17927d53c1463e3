"""The Z3 encoding: labelled checks, unsat cores that name the precondition, witnesses that replay."""

from pathlib import Path

import pytest
import z3

from compoworld_dsl.check import check_paths
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.smt.encode import WorldEncoding, assert_success, pystr, zstr

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def legal():
    program = check_paths([ROOT / "worlds" / "legal_ops.world"])
    assert program.ok
    model = program.model
    return model, load_world(model), WorldEncoding(model)


def tool(model, name):
    return next(t for t in model.tools() if t.qualified == name)


def test_unsat_core_names_the_precondition_at_fault(legal):
    model, world, enc = legal
    # the first seed whose matters include a closed one (which seed that is follows the stdlib's seeds)
    state, closed = next((st, c) for st in map(world.initial_state, range(50)) if (c := [k for k, r in st.tables["matters.matters"].items() if r["status"] == "closed"]))
    close = tool(model, "matters.close_matter")
    tr = enc.encode(close, enc.state_from(state), {"id": zstr(closed[0])})
    solver = z3.Solver()
    labels = assert_success(solver, tr)
    assert solver.check() == z3.unsat
    core = [labels[str(b)].label for b in solver.unsat_core()]
    line = close.decl.body[1].span.line
    assert core == [f"matters.close_matter: precondition 2 (stdlib/matters.world:{line})"]


def test_z3_finds_arguments_that_replay_on_python(legal):
    model, world, enc = legal
    state = world.initial_state(1)
    close = tool(model, "matters.close_matter")
    arg = z3.String("id")
    tr = enc.encode(close, enc.state_from(state), {"id": arg})
    solver = z3.Solver()
    assert_success(solver, tr)
    assert solver.check() == z3.sat
    witness = pystr(solver.model().eval(arg, model_completion=True))
    assert state.tables["matters.matters"][witness]["status"] == "open"
    # the witness is trusted only after the Python service agrees
    assert world.call(state, "matters.close_matter", {"id": witness})["success"] is True
    # and a second close of the same matter is the conflict Z3 predicts
    again = world.call(state, "matters.close_matter", {"id": witness})
    assert again["error"]["code"] == 409


def test_checks_are_labelled_with_tool_and_line(legal):
    model, _, enc = legal
    record = tool(model, "billing.record_disbursement")
    sym = enc.state_from(load_world(model).initial_state(0))
    params = {n: enc.var(t, n) for n, t in record.params}
    tr = enc.encode(record, sym, params)
    assert tr.checks
    for c in tr.checks:
        assert c.label.startswith("billing.record_disbursement: ")
        assert c.label.endswith(f"(stdlib/billing.world:{c.span.line})")
        assert c.kind in ("not_found", "invalid", "conflict", "forbidden")


@pytest.mark.parametrize("text", ["plain", "\\u{41}", 'q"uote', "back\\slash", "new\nline", "é😀", ""])
def test_strings_cross_into_z3_and_back_exactly(text):
    assert pystr(z3.simplify(zstr(text))) == text


def test_symbolic_tables_are_built_only_when_read(legal):
    model, world, enc = legal
    state = world.initial_state(2)
    sym = enc.state_from(state)
    assert "docket.notes" in sym.tables and "no.such" not in sym.tables  # membership by name
    assert dict.keys(sym.tables) == set()  # nothing built yet
    matter = next(iter(state.tables["matters.matters"]))
    post = enc.encode(tool(model, "matters.close_matter"), sym, {"id": zstr(matter)}).post
    assert set(dict.keys(post.tables)) == {"matters.matters"}  # a 6-service world, one table paid for
    assert len(post.tables["matters.matters"]) == len(state.tables["matters.matters"]) + 2  # two spare slots


def test_ground_comparisons_fold_to_literals(legal):
    model, world, enc = legal
    state = world.initial_state(2)
    closed = [k for k, r in state.tables["matters.matters"].items() if r["status"] == "closed"]
    tr = enc.encode(tool(model, "matters.close_matter"), enc.state_from(state), {"id": zstr(closed[0])})
    # with a concrete state and argument, the outcome is known while the terms are built
    assert [z3.is_true(c.fails) or z3.is_false(c.fails) for c in tr.checks] == [True] * len(tr.checks)
    assert any(z3.is_true(c.fails) for c in tr.checks)  # closing a closed matter fails
