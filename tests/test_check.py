"""The typed model the checker hands to the back ends: services, tools, types, derivations."""

from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths, check_source
from compoworld_dsl.check import types as T
from compoworld_dsl.syntax import ast as A

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def toy():
    program = check_paths([ROOT / "worlds" / "toy.world"])
    assert program.ok, [d.message for d in program.errors]
    return program.model


def test_toy_world_services_and_tools(toy):
    assert toy.world.name == "toy"
    assert toy.world.services == ["files", "calendar", "tasks"]
    assert set(toy.services["tasks"].tools) == {"list_open_tasks", "add_task", "close_task", "oldest_open_task"}
    assert [c.name for c in toy.world.constraints] == ["keep_archive", "no_weekend_tasks"]


def test_consumes_and_produces_are_derived_from_nominal_types(toy):
    read = toy.services["files"].tools["read_file"]
    assert [a.name for a in read.consumes] == ["FileId"]
    assert [a.name for a in read.produces] == ["FileId", "FolderPath", "Day", "ClockTime"]
    write = toy.services["files"].tools["write_file"]
    assert [a.name for a in write.consumes] == ["FolderPath"]
    assert [a.name for a in write.produces] == ["FileId"]


def test_declared_consumes_override_derivation():
    src = """
    type A = id
    type B = id
    service s {
      record R { key id: A  other: B }
      state rows: table[R]
      tool t(x: A) -> R
        say "t {x}"
        consumes B
      {
        return rows[x]
      }
    }
    """
    program = check_source(src)
    assert program.ok, [d.message for d in program.errors]
    tool = program.model.services["s"].tools["t"]
    assert [a.name for a in tool.consumes] == ["B"]
    assert [a.name for a in tool.produces] == ["A", "B"]


def test_write_sets_record_updates_inserts_and_deletes(toy):
    close = toy.services["tasks"].tools["close_task"]
    assert close.writes == {("tasks", "state")}
    assert toy.services["tasks"].tools["add_task"].inserts == {"tasks"}
    assert toy.services["files"].tools["delete_file"].deletes == {"files"}


def test_every_expression_in_a_tool_has_a_type(toy):
    tool = toy.services["tasks"].tools["oldest_open_task"]
    ret = tool.decl.body[-1]
    assert isinstance(ret, A.Return)
    assert toy.type_of(ret.value) is toy.services["tasks"].records["Task"]
    missing = [n for stmt in tool.decl.body for n in A.walk(stmt) if isinstance(n, (A.Var, A.Binary, A.Select)) and toy.type_of(n) is None]
    assert missing == []


def test_bare_enum_members_resolve_against_the_other_side():
    src = """
    enum Colour { red, green }
    service s {
      record R { key id: id  c: Colour }
      state rows: table[R]
      tool t() -> int say "t" { return count(r in rows where r.c == green) }
    }
    """
    program = check_source(src)
    assert program.ok
    tool = program.model.services["s"].tools["t"]
    sel = tool.decl.body[0].value
    assert program.model.type_of(sel.where.right) == T.EnumT("Colour", ("red", "green"))


def test_nominal_types_do_not_mix():
    src = """
    type MatterId = id
    type ClientId = id
    service s {
      record M { key id: MatterId  client: ClientId }
      state ms: table[M]
      tool t(c: ClientId) -> M say "t" { return ms[c] }
    }
    """
    program = check_source(src)
    assert [(d.code, d.span.line) for d in program.errors] == [("E201", 7)]
    assert "must be `MatterId`, found `ClientId`" in program.errors[0].message


def test_a_literal_branch_of_an_if_stands_for_the_other_branchs_alias():
    """`if had then ts[k].asset else ""` is an AssetId (a blank reference where there is no
    row), as a literal written anywhere else may stand for one; another alias still does not
    mix, nor does a computed text."""
    src = """
    type AssetId = id
    type ThingId = id
    service s {
      record Thing { key id: ThingId  asset: AssetId = ""  note: text = "" }
      state ts: table[Thing]
      tool put(k: ThingId, a: AssetId) say "put {k}" {
        let asset_ = if k in ts then ts[k].asset else ""
        let other_ = if k in ts then ts[k].asset else k
        delete r in ts where r.id == k
        insert ts { id: k, asset: asset_ }
      }
      tool made(k: ThingId) say "made {k}" {
        let made_ = if k in ts then ts[k].asset else trim(" ")
        insert ts { id: k, asset: made_ }
      }
    }
    """
    program = check_source(src)
    assert [(d.code, d.span.line) for d in program.errors] == [("E201", 9), ("E201", 15)]


def test_all_errors_are_reported_sorted():
    src = """
    service s {
      record R { key id: id  n: int }
      state rows: table[R]
      tool a() -> int say "a" { return nope }
      tool b() -> text say "b" { return 1 + "x" }
      tool c() -> int say "c" { return rows["k"].missing }
    }
    """
    program = check_source(src)
    got = [(d.code, d.span.line) for d in program.errors]
    assert got == [("E101", 5), ("E202", 6), ("E103", 7)]


def test_a_name_from_a_module_not_imported_is_an_error(tmp_path):
    (tmp_path / "a.world").write_text("type Thing = id\n")
    (tmp_path / "b.world").write_text("import a\nservice s { record R { key id: Thing } state rs: table[R] }\n")
    (tmp_path / "c.world").write_text("import b\nservice t { record Q { key id: Thing } state qs: table[Q] }\n")
    ok = check_paths([tmp_path / "b.world"])
    assert ok.ok
    # c imports b, which imports a: transitive imports are visible
    assert check_paths([tmp_path / "c.world"]).ok
    (tmp_path / "d.world").write_text('import "b.world"\nimport "e.world"\n')
    (tmp_path / "e.world").write_text("service u { record Z { key id: Thing } state zs: table[Z] }\n")
    bad = check_paths([tmp_path / "d.world"])
    assert [d.code for d in bad.errors] == ["E101"]
    assert "does not import" in bad.errors[0].message


def test_keywords_can_be_field_names():
    src = """
    service s {
      record R { key id: id  state: text  count: int  tool: text }
      state rows: table[R]
      tool t(state: text) -> int say "t {state}" { return sum(r.count for r in rows where r.state == state) }
    }
    """
    program = check_source(src)
    assert program.ok, [d.message for d in program.errors]
