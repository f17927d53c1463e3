"""The sampler's own replays skip work an agent's call needs and no verdict reads: a result not
written out as JSON, a house rule's rows read from an index. Each gives what the full path gives."""

from fractions import Fraction

import pytest

from compoworld_dsl.check import check_source
from compoworld_dsl.codegen.python import generate_python, load_world
from compoworld_dsl.runtime import values as V
from compoworld_dsl.runtime.service import ToolError
from compoworld_dsl.runtime.state import State, Tx

WORLD = """
type PId = id
service s "Projects and their notes" {
  record P { key id: PId  name: text  closed: bool  budget: decimal  start: date  at: datetime }
  record N { key id: id  project: PId  text: text  weight: int }
  state projects: table[P]
  state notes: table[N]
  seed projects: 4..4 rows {
    name: "p"
    closed: false
    budget: 10.5
    start: 2025-01-06
    at: 2025-01-06T09:00
  }
  seed notes: 9..9 rows {
    project: ref projects
    text: "n"
    weight: 1..3
  }
  tool grow(x: decimal) -> decimal say "grow {x}" {
    return x * x / 3
  }
  tool projects_named(name: text) -> list[P] say "the projects named {name}" {
    return filter(p in projects where p.name == name)
  }
  constraint closed_frozen "the notes of a closed project stay as they are" {
    forall p in projects where p.closed {
      untouched notes where project == p.id and weight > 1
      untouched n in notes where n.project == p.id
      untouched notes where text == p.name
      untouched notes where project == id
    }
  }
}
world w "w" { }
"""


@pytest.fixture(scope="module")
def program():
    got = check_source(WORLD, "t.world")
    assert got.ok, [(d.code, d.message) for d in got.errors]
    return got


@pytest.fixture(scope="module")
def world(program):
    return load_world(program.model)


def _raises(f, *args):
    try:
        f(*args)
    except Exception as e:  # noqa: BLE001  (which kind is what is compared)
        return type(e)
    return None


@pytest.mark.parametrize(
    "t,value",
    [
        ("decimal", Fraction(21, 2)),
        ("decimal", Fraction(10**400, 3)),  # past a float: writing it out fails
        ("decimal", Fraction(10**400)),  # a whole number writes out as an int, however large
        ("money", Fraction(-(10**299), 7)),
        ("date", V.MAX_DAY),
        ("date", V.MAX_DAY + 1),
        ("date", Fraction(3)),  # not an int: written, so it fails as writing fails
        ("datetime", V.MIN_MINUTE - 1),
        ("list:record:s.P", ({"id": "p-1", "name": "p", "closed": False, "budget": Fraction(1, 3), "start": 1, "at": 60},)),
        ("list:record:s.P", ({"id": "p-1", "name": "p", "closed": False, "budget": Fraction(1, 3), "start": V.MAX_DAY + 9, "at": 60},)),
        ("list:record:s.N", ({"id": "n-1", "project": "p-1", "text": "x" * 9, "weight": 10**30},)),
        ("text", None),
    ],
)
def test_a_value_is_writable_exactly_when_it_writes_out(world, t, value):
    check = world.types.writable(t)
    written = _raises(world.types.to_json, t, value)
    assert (_raises(check, value) if check is not None else None) is written
    if t == "list:record:s.N":
        assert check is None  # nothing in a note can fail to write out: nothing is looked at


def test_a_replay_call_fails_and_succeeds_as_an_agents_call_does(world):
    spec = world.tools["s.grow"]
    failed = 0
    for x in (Fraction(3, 2), Fraction(10**200) + Fraction(1, 2)):  # the second's square / 3 is past a float
        full, internal = world.initial_state(1), world.initial_state(1)
        args = world.convert_arguments(spec, {"x": float(x)})
        try:
            expected = world.execute(full, spec, args)
        except ToolError as e:
            with pytest.raises(ToolError) as got:
                world.execute(internal, spec, args, write=False)
            assert (got.value.code, got.value.message) == (e.code, e.message)
            failed += 1
            continue
        assert world.execute(internal, spec, args, write=False) == (expected[0], None)
    assert failed == 1
    envelope = world.call(world.initial_state(1), "s.projects_named", {"name": "p"}, write=False)
    assert envelope == {"success": True, "data": None}


def test_rows_where_gives_the_rows_a_scan_gives_and_shares_its_index(world):
    state = world.initial_state(3)
    rows = {**state.tables["s.notes"]}
    keys = list(rows)
    rows[keys[0]] = {**rows[keys[0]], "weight": True}  # equal to 1: found by 1 as by a scan
    rows[keys[1]] = {**rows[keys[1]], "weight": Fraction(2)}
    rows[keys[2]] = {**rows[keys[2]], "weight": None}
    state.tables["s.notes"] = rows
    tx = Tx(state)
    for field in ("project", "weight", "text"):
        for value in {r[field] for r in rows.values()} | {1, 2, None, "nothing"}:
            assert tx.rows_where("s.notes", field, value) == [r for r in rows.values() if r[field] == value]
    assert tx.rows_where("s.notes", "weight", [1]) == []  # a value no key can be: read row by row
    snap = state.snapshot()
    project = rows[keys[0]]["project"]
    assert Tx(snap).rows_where("s.notes", "project", project) is Tx(state).rows_where("s.notes", "project", project)
    # a table the transaction wrote is read row by row, never from the index of the one before
    tx.remove("s.notes", keys[3])
    assert all(r["id"] != keys[3] for r in tx.rows_where("s.notes", "project", rows[keys[3]]["project"]))
    snap.tables["s.notes"] = {k: r for k, r in rows.items() if k != keys[4]}  # another table object
    assert all(r["id"] != keys[4] for r in Tx(snap).rows_where("s.notes", "project", rows[keys[4]]["project"]))


def test_an_untouched_filter_on_a_field_reads_an_index_and_protects_the_same_rows(program, world):
    source = " ".join(generate_python(program.model).split())  # (however the lines are laid out)
    assert "before.rows_where('s.notes', 'project', v_p['id']) if _row1['weight'] > 1" in source
    assert "for v_n in before.rows_where('s.notes', 'project', v_p['id'])" in source
    assert "before.rows_where('s.notes', 'text', v_p['name'])" in source
    assert "if _row3['project'] == _row3['id']" in source  # a bare name is the note's own field: no index
    state = world.initial_state(5)
    projects = state.tables["s.projects"]
    state.tables["s.projects"] = {k: {**r, "closed": i % 2 == 0} for i, (k, r) in enumerate(projects.items())}
    untouched, _ = world.constraints["s.closed_frozen"].check(Tx(state), Tx(state))
    closed = [k for k, r in state.tables["s.projects"].items() if r["closed"]]
    notes = state.tables["s.notes"].values()
    expected = []
    for p in closed:
        expected += [("s.notes", n["id"]) for n in notes if n["project"] == p and n["weight"] > 1]
        expected += [("s.notes", n["id"]) for n in notes if n["project"] == p]
        expected += [("s.notes", n["id"]) for n in notes if n["text"] == state.tables["s.projects"][p]["name"]]
        expected += [("s.notes", n["id"]) for n in notes if n["project"] == n["id"]]
    assert untouched == expected and expected


@pytest.mark.parametrize(
    "t,good,bad",
    [
        ("decimal", [0.1, 3, 10.5, 1e300], [True, "1", float("nan"), float("inf")]),
        ("date", ["2025-01-06", "2024-02-29"], ["2025-02-30", "06/01/2025", 3]),
        ("datetime", ["2025-01-06T09:00"], ["2025-01-06 09:00", "2025-01-06T25:00"]),
        ("text", ["x", ""], [None, 1]),
    ],
)
def test_a_kept_reading_of_json_is_the_reading_made_afresh(world, t, good, bad):
    """`Types.from_json` keeps what it read of a date or an amount: asked again, it gives a value
    equal to (and of the class of) a fresh reading, and a bad value still fails, naming where."""
    from compoworld_dsl.runtime.service import _READ

    for _ in range(2):  # the second time, from what was kept
        for v in good:
            got, fresh = world.types.from_json(t, v, "x"), _READ[t](t, v, "x")
            assert (got, type(got)) == (fresh, type(fresh))
        for v in bad:
            for where in ("first", "second"):
                with pytest.raises(ToolError) as e:
                    world.types.from_json(t, v, where)
                assert f"`{where}`" in e.value.message


@pytest.mark.parametrize("text", ["Draft WILL for Review", "", "ÉCOLE Straße İstanbul", "ǅ ﬁ Ω", "MIXED é and É", "\U00010400x"])
def test_ascii_case_mapping_maps_the_26_letters_only(text):
    """`values.lower`/`upper` (which the Z3 encoding mirrors) change A-Z/a-z and nothing else,
    whether the text is ASCII (the fast path) or not (a translation by table)."""
    low = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)
    up = "".join(chr(ord(c) - 32) if "a" <= c <= "z" else c for c in text)
    assert (V.lower(text), V.upper(text)) == (low, up)
