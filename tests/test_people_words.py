"""The words people use: a record's noun and `known by` fields, field labels, and a tool's
`gives` phrase. They parse, check, format and round-trip; their errors point at the right
place; and the bundled worlds use them everywhere the sampler needs them."""

from __future__ import annotations

from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths, check_source
from compoworld_dsl.check import types as T
from compoworld_dsl.cli import main
from compoworld_dsl.syntax import ast as A
from compoworld_dsl.syntax.format import format_source
from compoworld_dsl.syntax.parser import parse_module

ROOT = Path(__file__).resolve().parent.parent
WORLDS = [ROOT / "worlds" / "legal_ops.world", ROOT / "worlds" / "toy.world"]

# Written untidily on purpose (one line per record, odd spacing) so `fmt` has work to do.
SOURCE = """\
type MatterId = id
type NoteId = id

service docket "Notes on matters" {
  record Matter   known by title {
    key id: MatterId
    title: text
  }
  record Note "docket note" known by matter,author {
    key id: NoteId
    matter: MatterId
    author: text
    due: date "due date"
    cosigner: text = "" "co-signatory"
    within_days: int = 30   "notice period in days"
  }
  state matters: table[Matter]
  state notes: table[Note]

  tool latest_note(matter: MatterId) -> Note
    "The newest docket note on a matter"
    say "find the latest docket note on matter {matter}"
    gives "the newest docket note on {matter}"
  {
    require exists(n in notes where n.matter == matter) else not_found "no note on {matter}"
    return latest(n in notes where n.matter == matter by n.due)
  }

  tool count_notes(matter: MatterId) -> int
    gives "the number of docket notes on {matter}"
    say "count the docket notes on matter {matter}"
  {
    return count(n in notes where n.matter == matter)
  }
}
"""


def _records(module: A.Module) -> dict[str, A.RecordDecl]:
    return {m.name: m for item in module.items if isinstance(item, A.ServiceDecl) for m in item.members if isinstance(m, A.RecordDecl)}


def _tools(module: A.Module) -> dict[str, A.ToolDecl]:
    return {m.name: m for item in module.items if isinstance(item, A.ServiceDecl) for m in item.members if isinstance(m, A.ToolDecl)}


def _words(module: A.Module) -> dict:
    """Every noun, `known by` list, label and `gives` phrase of a module."""
    recs, tools = _records(module), _tools(module)
    return {
        "noun": {n: r.noun for n, r in recs.items()},
        "known_by": {n: r.known_by for n, r in recs.items()},
        "labels": {(n, f.name): f.label for n, r in recs.items() for f in r.fields},
        "gives": {n: t.gives for n, t in tools.items()},
    }


EXPECTED = {
    "noun": {"Matter": None, "Note": "docket note"},
    "known_by": {"Matter": ("title",), "Note": ("matter", "author")},
    "labels": {
        ("Matter", "id"): None,
        ("Matter", "title"): None,
        ("Note", "id"): None,
        ("Note", "matter"): None,
        ("Note", "author"): None,
        ("Note", "due"): "due date",
        ("Note", "cosigner"): "co-signatory",
        ("Note", "within_days"): "notice period in days",
    },
    "gives": {"latest_note": "the newest docket note on {matter}", "count_notes": "the number of docket notes on {matter}"},
}


def test_the_ast_carries_nouns_known_by_labels_and_gives():
    module = parse_module(SOURCE, "docket.world")
    assert _words(module) == EXPECTED
    note = _records(module)["Note"]
    cosigner = next(f for f in note.fields if f.name == "cosigner")
    assert cosigner.default is not None and cosigner.label == "co-signatory"  # default, then label
    tool = _tools(module)["latest_note"]
    assert tool.say == "find the latest docket note on matter {matter}"
    assert tool.gives_span is not None and tool.gives_span.line == 23


def test_the_world_checks_clean():
    program = check_source(SOURCE)
    assert program.ok, [d.message for d in program.errors]
    note = program.model.services["docket"].records["Note"]
    assert note.defaults["cosigner"] is not None and note.defaults["within_days"] is not None


def test_format_round_trips_and_is_stable(tmp_path):
    out = format_source(SOURCE)
    assert format_source(out) == out, "formatting is not idempotent"
    assert out != SOURCE
    assert 'record Note "docket note" known by matter, author {' in out
    assert "record Matter known by title {" in out
    assert 'within_days: int = 30 "notice period in days"' in out
    assert 'cosigner: text = "" "co-signatory"' in out
    # `gives` is printed after `say`, whatever order it was written in
    assert 'say "count the docket notes on matter {matter}"\n    gives "the number of docket notes on {matter}"' in out
    assert _words(parse_module(out)) == EXPECTED
    assert parse_module(out) == parse_module(SOURCE)  # spans are not compared

    # and the same through `worldc fmt`
    path = tmp_path / "docket.world"
    path.write_text(SOURCE, encoding="utf-8")
    assert main(["fmt", "--check", str(path)]) == 1
    assert main(["fmt", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == out
    assert main(["fmt", "--check", str(path)]) == 0
    assert check_source(out).ok


def test_labels_and_nouns_with_escapes_survive_formatting():
    src = 'service s {\n  record R "client\'s \\"file\\"" known by name {\n    key id: id\n    name: text "full name \\u00e9"\n  }\n  state rows: table[R]\n}\n'
    out = format_source(src)
    assert format_source(out) == out
    rec = _records(parse_module(out))["R"]
    assert rec.noun == 'client\'s "file"'
    assert rec.fields[1].label == "full name \u00e9"


def test_known_by_a_missing_field_is_e103_at_the_record():
    src = SOURCE.replace("known by matter,author", "known by matter, writer")
    program = check_source(src)
    errors = [d for d in program.errors if d.code == "E103"]
    assert len(errors) == 1, [(d.code, d.message) for d in program.diagnostics]
    assert "writer" in errors[0].message
    note = _records(parse_module(src))["Note"]
    span = errors[0].span
    assert (span.line, span.col) == (note.span.line, note.span.col) == (9, 3)


def test_known_by_a_field_twice_is_an_error():
    program = check_source(SOURCE.replace("known by matter,author", "known by matter, matter"))
    assert [d.code for d in program.errors] == ["E111"]


def test_a_gives_placeholder_naming_no_parameter_is_e110():
    src = SOURCE.replace('gives "the newest docket note on {matter}"', 'gives "the newest docket note on {case}"')
    program = check_source(src)
    errors = [d for d in program.errors if d.code == "E110"]
    assert len(errors) == 1, [(d.code, d.message) for d in program.diagnostics]
    assert "{case}" in errors[0].message and "`gives`" in errors[0].message
    assert errors[0].span.line == 23  # the `gives` clause, not the tool


def test_a_gives_placeholder_may_name_a_field_of_a_record_parameter():
    src = """
    service s {
      record R known by name { key id: id  name: text }
      state rows: table[R]
      tool t(r: R) -> int say "t" gives "the rows named like {r.name}" { return count(x in rows where x.name == r.name) }
    }
    """
    assert check_source(src).ok
    bad = check_source(src.replace("{r.name}", "{r.title}"))
    assert [d.code for d in bad.errors] == ["E110"]


# ─────────────────────────── the bundled worlds ───────────────────────────


@pytest.fixture(scope="module", params=WORLDS, ids=lambda p: p.stem)
def world(request):
    program = check_paths([request.param])
    assert program.ok, [d.message for d in program.errors]
    return program.model


def test_every_table_record_is_known_by_fields_a_person_knows(world):
    from compoworld_dsl.check.clocks import volatile_state

    _, volatile = volatile_state(world)
    decls = {id(svc.records[m.name]): m for svc in world.services.values() for m in svc.decl.members if isinstance(m, A.RecordDecl)}
    tables = [(f"{svc.name}.{name}", var.type.record) for svc in world.services.values() for name, var in svc.state.items() if isinstance(var.type, T.TableT)]
    by_key = {rec.fields[rec.key]: rec for _, rec in tables if isinstance(rec.fields[rec.key], T.Alias)}  # MatterId -> Matter
    assert tables
    for table, rec in tables:
        decl = decls[id(rec)]
        where = f"{table} ({rec.name})"
        assert decl.known_by, f"{where} has no `known by`"
        assert rec.key not in decl.known_by, f"{where} is known by its key"
        clocked = set(decl.known_by) & set(volatile.get(table, ()))
        assert not clocked, f"{where} is known by fields written from a clock: {clocked}"
        for f in decl.known_by:  # a reference is described through the other record's first field
            other = by_key.get(rec.fields[f])
            if other is not None:
                first = decls[id(other)].known_by[0]
                assert other.fields[first] not in by_key, f"{where}: `{f}` is described by `{other.name}.{first}`, itself a reference"


def test_every_read_only_tool_with_a_result_says_what_it_gives(world):
    missing = []
    reads = 0
    for tool in world.tools():
        if tool.writes or tool.inserts or tool.deletes or tool.result == T.NONE:
            continue
        reads += 1
        if not (tool.decl.gives or "").strip():
            missing.append(tool.qualified)
    assert reads > 0
    assert missing == [], f"read-only tools without `gives`: {missing}"
