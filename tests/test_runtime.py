"""Compiled services at run time: seeding, snapshots, atomic calls, validation, hostile input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths, check_source
from compoworld_dsl.codegen.package import write_package
from compoworld_dsl.codegen.python import generate_python, load_world
from compoworld_dsl.runtime.state import diff

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def toy():
    program = check_paths([ROOT / "worlds" / "toy.world"])
    assert program.ok
    return load_world(program.model)


def compile_text(text: str):
    program = check_source(text, "t.world")
    assert program.ok, [(d.code, d.message) for d in program.errors]
    return load_world(program.model)


def test_seeding_is_deterministic_and_per_table(toy):
    a, b, c = toy.initial_state(7), toy.initial_state(7), toy.initial_state(8)
    assert a.tables == b.tables and a.scalars == b.scalars
    assert a.tables != c.tables
    # each table has its own stream: the files table does not depend on the tasks table
    assert toy.initial_state("x").tables["files.files"] == toy.initial_state("x").tables["files.files"]


CYCLE = """
type AId = id
type BId = id
service s "Two tables that draw keys from each other" {
  record A { key id: AId  b: BId }
  record B { key id: BId  a: AId }
  state as: table[A]
  state bs: table[B]
  seed as: 2..5 rows { b: ref bs }
  seed bs: 2..5 rows { a: ref as }
}
world w "cycle" { }
"""


# keys drawn (they may repeat, so the table can be smaller), a `same(...)` through a `ref`, and
# tables that refer to each other across `seed_order`
MIXED = """
type AId = id
type BId = id
type CId = id
type DId = id
type FId = id
type GId = id
service s "Seeds of every kind" {
  record B { key id: BId  label: text }
  record A { key id: AId  b: BId }
  record C { key id: CId  a: AId  label: text  tag: text }
  record D { key id: DId  c: CId }
  record F { key id: FId  a: AId }
  record G { key id: GId  f: FId }
  state bs: table[B]
  state as: table[A]
  state cs: table[C]
  state ds: table[D]
  state fs: table[F]
  state gs: table[G]
  seed bs: 3..6 rows { id: pick(["b1", "b2", "b3", "b4"])  label: pick(["x", "y", "z"]) }
  seed as: 2..5 rows { b: ref bs }
  seed cs: 2..4 rows { a: ref as  label: same(a.b.label)  tag: format("{}-{}", ref as, 1..9) }
  seed ds: 2..4 rows { c: ref cs }
  seed fs: 2..4 rows { a: ref as }
  seed gs: 2..4 rows { f: ref fs }
}
world w "mixed" { }
"""


def _chain(n: int) -> str:
    """n services whose tables refer around a cycle (as bench/synth.py's do)."""
    out = []
    for i in range(n):
        j = (i * 7 + 3) % n
        out.append(f"type I{i} = id\nservice s{i} {{\n  record R{i} {{ key id: I{i}  owner: I{j}  n: int }}\n"
                   f"  state items: table[R{i}]\n  seed items: 2..4 rows {{ owner: ref s{j}.items  n: 1..9 }}\n}}")
    return "\n".join(out) + '\nworld w "chain" { }\n'


def _world(name: str):
    if name in ("cycle", "mixed"):
        return compile_text(CYCLE if name == "cycle" else MIXED)
    if name == "chain":
        return compile_text(_chain(30))
    return load_world(check_paths([ROOT / "worlds" / f"{name}.world"]).model)


@pytest.mark.parametrize("world_name", ["toy", "legal_ops", "office", "supply_chain", "support", "vet_clinic", "cycle", "mixed", "chain"])
def test_tables_seeded_one_by_one_match_the_whole_state(world_name):
    """`partial_state` + `seed_tables`, for any tables in any order, gives `initial_state`'s rows
    and counters for every table it adds, even for tables whose `ref`s draw from each other, keys
    that are drawn, and `same(...)` through a `ref` (the sampler seeds tables on demand)."""
    import random

    world = _world(world_name)
    tables = [n for n, d in world.state_decl.items() if d["kind"] == "table"]
    for seed in (0, 1, 99):
        whole = world.initial_state(seed)
        for order in range(4):
            part = world.partial_state(seed)
            assert part.tables == {} and part.scalars == whole.scalars
            names = list(tables)
            rng = random.Random(order)
            rng.shuffle(names)
            for name in names[: rng.randint(1, len(names))]:
                world.seed_tables(part, seed, [name])
                assert name in part.tables
                assert all(part.tables[t] == whole.tables[t] and part.counters[t] == whole.counters[t] for t in part.tables)
            if order == 0:
                for name in names:
                    world.seed_tables(part, seed, [name])
                assert part.tables == whole.tables and part.counters == whole.counters


@pytest.mark.parametrize("drawn", [False, True])
def test_a_scalar_seeded_by_ref_is_as_in_the_whole_state(drawn):
    """`seed current: ref as` picks one of the table's keys in a partial state too (it used to
    find the table missing and say `s.as-none`); keys that are drawn bring the table along."""
    world = compile_text(
        f"""
        type AId = id
        service s "x" {{
          record A {{ key id: AId  n: int }}
          state as: table[A]
          state current: AId = "none"
          seed as: 2..5 rows {{ {'id: pick(["a1", "a2", "a3"])' if drawn else ''}  n: 1..9 }}
          seed current: ref as
        }}
        world w "w" {{ }}
        """
    )
    for seed in range(5):
        whole, part = world.initial_state(seed), world.partial_state(seed)
        assert part.scalars == whole.scalars and part.scalars["s.current"] in whole.tables["s.as"]
        assert list(part.tables) == (["s.as"] if drawn else [])


def test_a_table_brings_its_neighbours_not_its_whole_ref_chain():
    """In a cycle of 30 tables, each referring to the next, a table whose neighbour's keys follow
    from its row count needs only that neighbour's keys: one call seeds the table and the one it
    refers to (for phrasing), not the 30 of the chain. A drawn-key table is seeded before the
    tables that refer to it."""
    world = _world("chain")
    for name in ("s0.items", "s17.items", "s29.items"):
        part = world.partial_state(5)
        added = world.seed_tables(part, 5, [name])
        assert name in added and len(added) == 2, added
    mixed = _world("mixed")
    cases = {
        "s.gs": ["s.fs", "s.gs"],  # fs refers to as, whose keys are as-1.. as-n: as is not seeded
        "s.as": ["s.bs", "s.as"],
        "s.ds": ["s.bs", "s.as", "s.cs", "s.ds"],  # cs reads rows of as and bs (`same(a.b.label)`)
    }
    for name, want in cases.items():
        part = mixed.partial_state(2)
        assert mixed.seed_tables(part, 2, [name]) == want
        whole = mixed.initial_state(2)
        assert all(part.tables[t] == whole.tables[t] for t in want)


def test_snapshot_restore_and_diff(toy):
    state = toy.initial_state(1)
    snap = state.snapshot()
    task = next(iter(k for k, r in state.tables["tasks.tasks"].items() if r["state"] != "done"))
    assert toy.call(state, "tasks.close_task", {"id": task})["success"]
    new = toy.call(state, "tasks.add_task", {"title": "Prep", "due": "2025-03-20"})["data"]
    d = diff(snap, state)
    kinds = {(c.table, c.key, c.kind, c.fields) for c in d.rows}
    assert kinds == {("tasks.tasks", task, "updated", ("state",)), ("tasks.tasks", new, "inserted", ())}
    state.restore(snap)
    assert diff(snap, state).empty


def test_snapshots_share_tables_and_a_write_replaces_only_its_own(toy):
    """A table's dict is never changed in place: a snapshot shares every table, a call on one
    state puts a new dict in place of the table it writes, and the other state keeps its rows."""
    import copy

    state = toy.initial_state(3)
    snap = state.snapshot()
    frozen = copy.deepcopy(snap.tables)
    assert all(snap.tables[t] is state.tables[t] for t in state.tables)
    task = next(k for k, r in state.tables["tasks.tasks"].items() if r["state"] != "done")
    assert toy.call(state, "tasks.close_task", {"id": task})["success"]
    assert toy.call(state, "tasks.add_task", {"title": "Prep", "due": "2025-03-20"})["success"]
    assert not toy.call(state, "tasks.close_task", {"id": "no-such-task"})["success"]
    assert snap.tables == frozen  # the snapshot saw none of it
    assert state.tables["tasks.tasks"] is not snap.tables["tasks.tasks"]
    assert all(state.tables[t] is snap.tables[t] for t in state.tables if t != "tasks.tasks")
    assert [c.table for c in diff(snap, state).rows] == ["tasks.tasks", "tasks.tasks"]


def test_a_failed_call_changes_nothing_even_after_an_effect():
    world = compile_text(
        """
        service s {
          record R { key id: id  n: int }
          state rows: table[R]
          state total: int = 0
          tool add_then_fail(n: int) -> int say "x" {
            let r = insert rows { n: n }
            set total = total + n
            require n < 10 else invalid "too big: {n}"
            return r.n
          }
        }
        """
    )
    state = world.initial_state(0)
    before = state.snapshot()
    res = world.call(state, "s.add_then_fail", {"n": 50})
    assert res == {"success": False, "error": {"code": 400, "message": "too big: 50"}}
    assert diff(before, state).empty and state.counters == before.counters
    assert world.call(state, "add_then_fail", {"n": 3}) == {"success": True, "data": 3}
    assert state.scalars["s.total"] == 3


@pytest.mark.parametrize(
    "tool,args,code",
    [
        ("nope.nothing", {}, 404),
        ("tasks.add_task", {"title": "x"}, 400),  # missing argument
        ("tasks.add_task", {"title": "x", "due": "2025-03-20", "extra": 1}, 400),
        ("tasks.add_task", {"title": 5, "due": "2025-03-20"}, 400),
        ("tasks.add_task", {"title": "x", "due": "2025-02-30"}, 400),
        ("tasks.add_task", {"title": "x", "due": "20-03-2025"}, 400),
        ("tasks.add_task", ["not", "an", "object"], 400),
        ("tasks.add_task", {"title": "x" * 10 + "\U00030000", "due": "2025-03-20"}, 400),
        ("calendar.schedule_event", {"title": "x", "day": "2025-03-20", "start": "25:00"}, 400),
        ("calendar.schedule_event", {"title": "x", "day": "2025-03-20", "start": "09:00", "minutes": True}, 400),
        ("tasks.close_task", {"id": "task-999"}, 404),
    ],
)
def test_bad_calls_get_error_envelopes_and_change_nothing(toy, tool, args, code):
    state = toy.initial_state(2)
    before = state.snapshot()
    res = toy.call(state, tool, args)
    assert res["success"] is False and res["error"]["code"] == code, res
    assert isinstance(res["error"]["message"], str) and res["error"]["message"]
    assert diff(before, state).empty


def test_every_result_is_json(toy):
    state = toy.initial_state(3)
    for name, spec in toy.tools.items():
        args = {}
        for p, t in spec.params:
            if t.endswith("FileId:id"):
                args[p] = next(iter(state.tables["files.files"]))
            elif t.endswith("TaskId:id"):
                args[p] = next(iter(state.tables["tasks.tasks"]))
            elif t.endswith("EventId:id"):
                args[p] = next(iter(state.tables["calendar.events"]))
            elif t == "date":
                args[p] = "2025-03-21"
            elif t == "time":
                args[p] = "10:30"
            elif t == "int":
                args[p] = 30
            else:
                args[p] = "/notes" if "Folder" in t else "hello"
        res = toy.call(state, name, args)
        json.dumps(res)
        assert set(res) in ({"success", "data"}, {"success", "error"})


HOSTILE = (ROOT / "tests" / "fixtures" / "security" / "hostile.world").read_text()



def test_hostile_names_and_strings_compile_to_safe_code_that_round_trips():
    program = check_source(HOSTILE, "hostile.world")
    assert program.ok, [(d.code, d.message) for d in program.errors]
    code = generate_python(program.model, "hostile.world")
    compile(code, "hostile", "exec")  # valid Python
    world = load_world(program.model)
    state = world.initial_state(0)
    rows = list(state.tables["class.__class__"].values())
    assert rows[0]["__import__"] == "\"); __import__('os').system('echo pwned') #"
    res = world.call(state, "class.__init__", {"self": "x\\y\"", "lambda": 1})
    assert res == {"success": True, "data": "__import__(\"os\").system(\"echo pwned\")\n'''\"\"\"\\x\\y\""}
    err = world.call(state, "class.__init__", {"self": "s", "lambda": -1})
    assert err["error"]["message"] == "bad \"s\" \\ -1\n'''"
    assert world.call(state, "class.yield", {"x": "'\n"}) == {"success": True, "data": 1}
    assert world.services["class"].description == 'a "quoted" description \\ with a backslash\nand a newline'


def test_a_compiled_package_imports_without_the_parser(tmp_path):
    program = check_paths([ROOT / "worlds" / "toy.world"])
    write_package(program.model, tmp_path / "toy_pkg", source="worlds/toy.world")
    probe = (
        "import sys; from toy_pkg import WORLD; s = WORLD.initial_state(0);"
        "r = WORLD.call(s, 'tasks.list_open_tasks', {});"
        "bad = [m for m in sys.modules if m.startswith(('lark', 'z3', 'compoworld_dsl.syntax', 'compoworld_dsl.check'))];"
        "print(r['success'], bad)"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True []"
    source_map = json.loads((tmp_path / "toy_pkg" / "source_map.json").read_text())
    assert source_map["services"]["tasks"]["tools"]["close_task"].startswith("stdlib:tasks.world:")
    assert source_map["world_source"].endswith("toy.world")
