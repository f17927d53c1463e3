"""Python services and the Z3 encoding agree, tool by tool, on random states and arguments.

For every tool of every bundled world: draw a seeded state (then a few random calls to stir
it), draw typed arguments (existing keys, values seen in the state, and arbitrary values), run
the generated Python method and the Z3 transition on the same concrete values, and compare the
error kind, the post-state and the result. Simulated tools: the Python simulator's answer must
satisfy the Z3 contract. Set DIFF_EXAMPLES for a deeper run.

Each runs twice: on a symbolic state of Z3 literals, and on one of Python literals
(`state_from(python=True)`, what the sampler's proofs use), whose ground operations the encoder
computes itself with SMT-LIB's semantics (decision D39)."""

import os
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compoworld_dsl.check import check_paths
from compoworld_dsl.check import types as T
from compoworld_dsl.codegen.python import load_world, tstr
from compoworld_dsl.runtime import values as V
from compoworld_dsl.runtime.service import ToolError
from compoworld_dsl.runtime.state import Tx
from compoworld_dsl.smt.encode import WorldEncoding, _eq, _same_slot, asserted, is_true

ROOT = Path(__file__).resolve().parent.parent
WORLDS = ["toy", "legal_ops"]
EXAMPLES = int(os.environ.get("DIFF_EXAMPLES", "12"))

_cache: dict = {}


def compiled(name):
    if name not in _cache:
        program = check_paths([ROOT / "worlds" / f"{name}.world"])
        assert program.ok
        _cache[name] = (program.model, load_world(program.model), WorldEncoding(program.model))
    return _cache[name]


def all_tools():
    out = []
    for w in WORLDS:
        model, _, _ = compiled(w)
        out += [(w, t.qualified) for t in model.tools()]
    return out


TEXT = st.text(alphabet=st.characters(max_codepoint=0x2FFFF, blacklist_categories=("Cs",)), max_size=12)


def generic(t: T.Type):
    p = T.prim_name(t)
    b = T.base_of(t)
    if isinstance(b, T.EnumT):
        return st.sampled_from(b.members)
    if p in ("text", "id"):
        return TEXT
    if p == "email":
        return st.from_regex(r"\A[a-z]{1,6}@[a-z]{1,6}\.com\Z")
    if p == "int":  # now and then large enough to push a date off the calendar
        return st.one_of(st.integers(-3, 120000), st.sampled_from([-(10**9), 10**9]))
    if p == "duration":  # now and then far enough to leave the calendar from its edges
        return st.one_of(st.integers(-3000, 3000), st.sampled_from([-(10**10), 10**10]))
    if p in ("decimal", "money"):
        return st.fractions(min_value=-10, max_value=200000, max_denominator=100)
    if p == "bool":
        return st.booleans()
    if p == "date":
        return st.one_of(st.integers(19900, 20500), st.sampled_from([V.MIN_DAY, V.MAX_DAY]))
    if p == "time":
        return st.integers(0, 1439)
    if p == "datetime":
        return st.one_of(st.integers(19900 * 1440, 20500 * 1440), st.sampled_from([V.MIN_MINUTE, V.MAX_MINUTE]))
    raise AssertionError(f"no strategy for {t}")


def observed(state, world, t: T.Type) -> list:
    """Values of this exact type already in the state: keys and fields alike."""
    want = tstr(t)
    out = []
    for table, rows in state.tables.items():
        rec = world.types.records[world.state_decl[table]["record"]]
        for f, ft in rec.items():
            if ft == want:
                out.extend(r[f] for r in rows.values())
    return sorted(set(out), key=repr)


def draw_args(data, model, world, tool, state):
    args = {}
    for name, t in tool.params:
        seen = observed(state, world, t)
        strat = generic(t) if not seen else st.one_of(st.sampled_from(seen), generic(t))
        args[name] = data.draw(strat, label=name)
    return args


def run_python(world, tool, state, args):
    spec = world.tools[tool.qualified]
    tx = Tx(state)
    try:
        result = getattr(world.services[spec.service], spec.method)(tx, **{"v_" + k: v for k, v in args.items()})
    except ToolError as e:
        return e.kind, None
    except V.OutOfRange:  # `CompiledWorld.call` answers this as `invalid`
        return "invalid", None
    tx.commit()
    return "", result


@pytest.mark.parametrize("python", [False, True], ids=["z3-literals", "python-literals"])
@pytest.mark.parametrize("world_name,tool_name", all_tools())
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_python_and_z3_agree(world_name, tool_name, python, data):
    model, world, enc = compiled(world_name)
    tool = next(t for t in model.tools() if t.qualified == tool_name)
    state = world.initial_state(data.draw(st.integers(0, 40), label="seed"))
    # stir the state with a few random calls so it is not always freshly seeded
    tools = list(model.tools())
    for _ in range(data.draw(st.integers(0, 2), label="stir")):
        other = data.draw(st.sampled_from([t for t in tools if not t.simulated]), label="stir tool")
        run_python(world, other, state, draw_args(data, model, world, other, state))

    args = draw_args(data, model, world, tool, state)
    pre = state.snapshot()
    sym_pre = enc.state_from(pre, python=python)
    zargs = {k: enc.value(dict(tool.params)[k], v, python) for k, v in args.items()}
    kind, result = run_python(world, tool, state, args)
    tr = enc.encode(tool, sym_pre, zargs)

    assert not is_true(z3.simplify(asserted(tr.overflow))), "the Z3 state had too few spare slots"
    if not tool.simulated:
        assert enc.concrete(None, tr.error_kind()) == kind, f"args={args}"
        if kind:
            return
        # Tables the tool cannot write must be the very same Z3 terms as before; the rest are
        # evaluated and compared with the Python state.
        written = {f"{tool.service}.{t}" for t, f in tool.writes if f} | {f"{tool.service}.{t}" for t in tool.inserts | tool.deletes}
        for table, slots in tr.post.tables.items():
            if table not in written:
                assert all(_same_slot(a, b) for a, b in zip(slots, sym_pre.tables[table]))
                assert state.tables[table] == pre.tables[table]
        post = enc.concrete_state(tr.post, only=written)
        assert {t: post.tables[t] for t in written} == {t: state.tables[t] for t in written}
        assert post.scalars == state.scalars
        assert post.counters == state.counters
        if not isinstance(tool.result, T.NoneT):
            assert enc.concrete(tool.result, tr.result) == result
        return
    # simulated: the Python answer must be one the contract allows
    solver = z3.Solver()
    solver.add(asserted(tr.contract()))
    solver.add(tr.error_kind() == z3.StringVal(kind))
    if not kind:
        if tr.result is not None:
            rv = enc.value(tool.result, result)
            if isinstance(rv, dict):
                solver.add(*[asserted(_eq(tr.result[f], rv[f])) for f in rv])
            else:
                solver.add(asserted(_eq(tr.result, rv)))
        for table, slots in tr.post.tables.items():
            rec = enc.tables[table]
            for slot in slots:
                key = z3.simplify(asserted(slot.fields[rec.key]))
                if z3.is_true(z3.simplify(asserted(slot.present))) and z3.is_string_value(key):
                    row = state.tables[table][enc.concrete(T.TEXT, key)]
                    solver.add(*[asserted(_eq(slot.fields[f], enc.value(ft, row[f]))) for f, ft in rec.fields.items()])
    assert solver.check() == z3.sat, f"the simulator's answer breaks the contract of {tool_name}"


def test_every_bundled_tool_is_covered():
    names = {t for _, t in all_tools()}
    services = {n.split(".")[0] for n in names}
    declared = set()
    for path in (ROOT / "stdlib").glob("*.world"):
        declared |= set(check_paths([path]).model.services)
    assert declared and declared <= services, "a stdlib service is in no bundled world, so no differential test runs it"
