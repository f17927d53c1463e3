"""Error fixtures checked mypy-style: `// E: CODE [message]` at the end of a line expects that diagnostic there.
Also the direct tests for codes a fixture file cannot carry (bad bytes, unreadable files, deep nesting)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths, check_source
from compoworld_dsl.diagnostics import CODES
from compoworld_dsl.syntax.parser import MAX_NESTING, ParseFailure, parse_expr, parse_module

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "err"
LIB = FIXTURES / "lib"  # helper modules that fixtures import; checked only through them

# `// E: E101` or `// W: W002 some message text`; a line may carry several.
ANNOTATION = re.compile(r"//\s*([EW]):\s*([EW]\d{3})\b[ \t]*(.*?)[ \t]*(?=//\s*[EW]:|$)")

# Fixtures whose annotations say what the product should report but does not yet.
# Each is strict: when the bug is fixed the test passes, XPASS fails, and the entry goes.
KNOWN_BUGS: dict[str, str] = {}  # fixture name → reason, for a bug pinned by a strict xfail

def annotations_in(path: Path) -> set[tuple[Path, int, str, str, str]]:
    """(file, line, severity letter, code, message substring) for each annotation in `path`."""
    out = set()
    for lineno, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        for m in ANNOTATION.finditer(line):
            out.add((path, lineno, m.group(1), m.group(2), m.group(3)))
    return out


def fixture_files() -> list[Path]:
    return sorted(FIXTURES.glob("*.world"))


def fixture_params():
    for path in fixture_files():
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[path.name])] if path.name in KNOWN_BUGS else []
        yield pytest.param(path, id=path.stem, marks=marks)


def _file_of(program, display: str) -> Path:
    for mod in program.modules.values():
        if mod.display == display:
            return mod.path
    return Path(display).resolve()


def _where(path: Path, line: int) -> str:
    try:
        return f"{path.relative_to(FIXTURES)}:{line}"
    except ValueError:
        return f"{path}:{line}"


def test_annotation_syntax_reads_several_per_line_and_message_substrings(tmp_path):
    f = tmp_path / "a.world"
    f.write_text('pool p = [2025-02-30]  // E: E007 `2025-02-30` is not // W: W002 // E: E101\nx\n', encoding="utf-8")
    got = sorted((line, sev, code, msg) for _, line, sev, code, msg in annotations_in(f))
    assert got == [(1, "E", "E007", "`2025-02-30` is not"), (1, "E", "E101", ""), (1, "W", "W002", "")]


@pytest.mark.parametrize("path", list(fixture_params()))
def test_error_fixture(path: Path):
    program = check_paths([path])
    files = {m.path for m in program.modules.values()}
    # Annotations count in the fixture and in every helper module it loads.
    expected = set()
    for f in sorted(files):
        if f.is_file() and (f.parent == FIXTURES or LIB in f.parents):
            expected |= annotations_in(f)
    assert expected, f"{path.name} has no annotations"

    actual: dict[tuple[Path, int, str, str], list[str]] = {}
    for d in program.diagnostics:
        key = (_file_of(program, d.span.file), d.span.line, "E" if d.is_error else "W", d.code)
        actual.setdefault(key, []).append(d.message)

    want = {(f, line, sev, code) for f, line, sev, code, _ in expected}
    missing = sorted(want - set(actual))
    unexpected = sorted(set(actual) - want)
    report = [f"missing  {_where(f, line)}: {sev}: {code}" for f, line, sev, code in missing]
    report += [f"extra    {_where(f, line)}: {sev}: {code} {actual[(f, line, sev, code)]}" for f, line, sev, code in unexpected]
    assert not report, "\n".join(report)

    for f, line, sev, code, text in sorted(expected):
        if text:
            messages = actual[(f, line, sev, code)]
            assert any(text in m for m in messages), f"{_where(f, line)}: no {code} message contains {text!r}: {messages}"

    spans = [(d.span.file, d.span.line, d.span.col) for d in program.diagnostics]
    assert spans == sorted(spans), "diagnostics are not sorted by position"


def test_every_registry_code_is_covered_by_a_fixture_or_a_direct_test():
    # Codes no fixture file can carry (bad bytes, an unreadable file, pathological depth),
    # each with the test in this module that triggers it.
    direct_test_codes = {
        "E004": "test_invalid_utf8_is_E004_at_the_first_bad_byte",
        "E005": "test_nesting_deeper_than_the_limit_is_E005",
        "E009": "test_unreadable_file_is_E009",
        "E011": "test_a_file_over_the_size_limit_is_E011",
        "E901": "test_a_checker_bug_is_E901_in_the_cli",
        # `worldc lint`'s warnings need a compiled, seeded world
        "W101": "test_lint_warnings_come_from_compiled_seeded_worlds",
        "W102": "test_lint_warnings_come_from_compiled_seeded_worlds",
        "W103": "test_lint_warnings_come_from_compiled_seeded_worlds",
        "W104": "test_lint_w104_a_table_that_keeps_withdrawn_rows_unsaid",
        "W105": "test_lint_w105_a_pool_that_means_something_else",
        "W106": "test_lint_w106_to_w108_what_tasks_would_say_in_fallback_words",
        "W107": "test_lint_w106_to_w108_what_tasks_would_say_in_fallback_words",
        "W108": "test_lint_w106_to_w108_what_tasks_would_say_in_fallback_words",
        "W109": "test_lint_w109_a_reference_that_finds_no_row",
        "W110": "test_lint_w110_a_rule_out_of_reach",
        "W111": "test_lint_w111_link_rows_that_repeat_their_references",
    }
    annotated = {code for path in FIXTURES.rglob("*.world") for *_, code, _ in annotations_in(path)}
    unknown = annotated - set(CODES)
    assert not unknown, f"fixtures annotate codes the registry does not have: {sorted(unknown)}"
    covered = annotated | set(direct_test_codes)
    missing = sorted(set(CODES) - covered)
    assert not missing, f"no fixture or direct test triggers {missing}"
    for code, test_name in direct_test_codes.items():
        assert code in CODES, f"{code} is listed as directly tested but is not registered"
        assert callable(globals().get(test_name)), f"direct test {test_name} for {code} does not exist"


def test_a_file_with_many_errors_reports_all_of_them_in_position_order():
    program = check_paths([FIXTURES / "types.world"])
    errors = program.errors
    want_lines = {line for _, line, sev, _, _ in annotations_in(FIXTURES / "types.world") if sev == "E"}
    assert {d.span.line for d in errors} == want_lines
    assert len(errors) >= 25
    positions = [(d.span.line, d.span.col) for d in errors]
    assert positions == sorted(positions)


def test_errors_from_different_checker_passes_interleave_by_position():
    # Alias cycles are found before records, records before tools: the report still reads top to bottom.
    src = (
        "service s {\n"
        "  record R { key id: id  n: Nope }\n"  # E102, found while resolving records
        "  state rows: table[R]\n"
        "  tool t() say \"t\" { set zz = 1 }\n"  # E105, found while checking tools
        "}\n"
        "type Loop = Loop\n"  # E306, found first of all
    )
    program = check_source(src, "many.world")
    assert [(d.span.line, d.code) for d in program.diagnostics] == [(2, "E102"), (4, "E105"), (6, "E306")]


def test_a_syntax_error_stops_its_own_file_but_other_files_are_still_checked(tmp_path):
    (tmp_path / "broken.world").write_text("type A = \n", encoding="utf-8")
    (tmp_path / "main.world").write_text('import "broken.world"\ntype B = Nope\n', encoding="utf-8")
    program = check_paths([tmp_path / "main.world"])
    assert sorted((Path(d.span.file).name, d.span.line, d.code) for d in program.diagnostics) == [
        ("broken.world", 1, "E003"),
        ("main.world", 2, "E102"),
    ]


# ─────────────────────────── codes a fixture file cannot carry ───────────────────────────


def test_invalid_utf8_is_E004_at_the_first_bad_byte(tmp_path):
    f = tmp_path / "latin1.world"
    f.write_bytes(b"// ok\nservice s \"caf\xe9\" { }\n")
    program = check_paths([f])
    assert [(d.code, d.span.line, d.span.col) for d in program.diagnostics] == [("E004", 2, 15)]
    assert "0xe9" in program.diagnostics[0].message
    # the same through the in-memory entry point, and a truncated multi-byte sequence at the end
    program = check_source(b"type A = id\n\xc3", "cut.world")
    assert [(d.code, d.span.line, d.span.col) for d in program.diagnostics] == [("E004", 2, 1)]


def test_invalid_utf8_column_counts_characters_like_every_other_diagnostic():
    data = 'service s "日本'.encode("utf-8") + b"\xff" + b'" { }\n'
    program = check_source(data, "wide.world")
    assert [(d.code, d.span.line, d.span.col) for d in program.diagnostics] == [("E004", 1, len('service s "日本') + 1)]


def test_unreadable_file_is_E009(tmp_path):
    folder = tmp_path / "a_folder.world"  # a folder cannot be read as a file, even by root
    folder.mkdir()
    program = check_paths([folder])
    assert [d.code for d in program.diagnostics] == ["E009"]
    assert "a_folder.world" in program.diagnostics[0].message
    assert not program.ok

    missing = check_paths([tmp_path / "never_written.world"])
    assert [d.code for d in missing.diagnostics] == ["E009"]

    if os.name == "posix" and os.geteuid() != 0:
        locked = tmp_path / "locked.world"
        locked.write_text("type A = id\n", encoding="utf-8")
        locked.chmod(0)
        try:
            assert [d.code for d in check_paths([locked]).diagnostics] == ["E009"]
        finally:
            locked.chmod(0o644)


def test_nesting_deeper_than_the_limit_is_E005():
    ok = "not " * (MAX_NESTING // 2) + "true"
    parse_expr(ok)
    deep = "not " * (MAX_NESTING + 10) + "true"
    with pytest.raises(ParseFailure) as exc:
        parse_expr(deep)
    assert [d.code for d in exc.value.diagnostics] == ["E005"]

    src = "service s { tool t() -> int say \"t\" { return " + " + ".join(["1"] * (MAX_NESTING + 10)) + " } }"
    program = check_source(src, "deep.world")
    assert [(d.code, d.span.line) for d in program.diagnostics] == [("E005", 1)]

    clauses = "service s { record R { key id: id } state rs: table[R]\n constraint c {\n"
    clauses += "if true then {\n" * (MAX_NESTING + 5) + "invariant true\n" + "}\n" * (MAX_NESTING + 5) + "} }\n"
    program = check_source(clauses, "deep_clauses.world")
    assert [d.code for d in program.diagnostics] == ["E005"]


def test_a_file_over_the_size_limit_is_E011(tmp_path, monkeypatch):
    # 16 MiB is the real limit; a smaller one keeps the test fast (more in test_check_limits.py)
    from compoworld_dsl.check import loader

    monkeypatch.setattr(loader, "MAX_FILE_BYTES", 64)
    big = tmp_path / "big.world"
    big.write_text("type A = id\n" * 10, encoding="utf-8")
    program = check_paths([big])
    assert [(d.code, d.span.line) for d in program.diagnostics] == [("E011", 1)]


def test_a_checker_bug_is_E901_in_the_cli(tmp_path, monkeypatch, capsys):
    # No input triggers a checker bug on purpose; one is injected (more in test_check_limits.py)
    import json

    import compoworld_dsl.check as check_package
    from compoworld_dsl import cli

    (tmp_path / "a.world").write_text("type A = id\n", encoding="utf-8")
    monkeypatch.setattr(check_package, "check_paths", lambda paths: {}["injected"])
    monkeypatch.delenv("WORLDC_TRACEBACK", raising=False)
    assert cli.main(["check", "--format", "json", str(tmp_path / "a.world")]) == 1
    assert [d["code"] for d in json.loads(capsys.readouterr().out)] == ["E901"]


def test_syntax_fixtures_each_carry_exactly_one_parse_stopping_error():
    # Syntax errors stop a file at the first one, so each case lives in its own file.
    for path in FIXTURES.glob("syntax_*.world"):
        codes = [code for *_, code, _ in annotations_in(path)]
        if set(codes) & {"E001", "E002", "E003"}:
            assert len(codes) == 1, f"{path.name}: a parse error stops the file; put one case per file"
        with pytest.raises(ParseFailure):
            parse_module(path.read_bytes(), path.name)


# ─────────────────────────── syntax error hints from the catalogue ───────────────────────────

LABEL_BRACE = "missing `}` to close the block"
LABEL_COLON = "missing `:` between a field name and its type"
LABEL_PARAMS = "a tool needs a parameter list in parentheses"
LABEL_REQUIRE = 'a `require` needs `else KIND "message"`'
LABEL_EXPR = "an expression is incomplete"
LABEL_ITEM = "a top-level item must be"


def _syntax_help(src: str) -> tuple[str, str]:
    [d] = check_source(src, "syntax.world").diagnostics
    return d.code, d.help or ""


@pytest.mark.parametrize(
    "src, code, label",
    [
        ("service billing {\n  record Payment {\n    key id: id\n  }\n", "E003", LABEL_BRACE),
        ("enum Colour { red, green", "E003", LABEL_BRACE),
        ("service s {\n  tool refund {\n  }\n}\n", "E001", LABEL_PARAMS),
        ("service s {\n  record Payment {\n    key id Text\n  }\n}\n", "E001", LABEL_COLON),
        ("service s {\n  state n: int = 1\n  record R { key id id }\n}\n", "E001", LABEL_COLON),
        ("service s { tool t() { require ok else maybe \"m\" } }", "E001", LABEL_REQUIRE),
        ("service s { tool t() { return total + } }", "E001", LABEL_EXPR),
        ("tool t() { }\n", "E001", LABEL_ITEM),
    ],
)
def test_syntax_errors_carry_the_catalogue_hint(src: str, code: str, label: str):
    got_code, got_help = _syntax_help(src)
    assert got_code == code
    assert got_help.startswith(label), got_help



@pytest.mark.parametrize(
    "src, label",
    [
        pytest.param('service s {\n  tool t(x: int) say "t" {\n    require x > 1 else maybe "m"\n  }\n}\n', LABEL_REQUIRE, id="require-after-params"),
        pytest.param('service s {\n  tool t() {\n    let y = 2\n    require y > 1\n  }\n}\n', LABEL_REQUIRE, id="require-after-let"),
        pytest.param('service s {\n  tool t() -> int say "t" {\n    return (1\n  }\n}\n', LABEL_EXPR, id="paren-after-result"),
        pytest.param('service s {\n  tool t() { let y = 1 + }\n}\n', LABEL_EXPR, id="let-operand"),
        pytest.param("service s { tool t() { return total * } }", LABEL_EXPR, id="mul-operand"),
        pytest.param('service s {\n  tool u() { }\n  tool t { }\n}\n', LABEL_PARAMS, id="params-second-tool"),
    ],
)
def test_syntax_hints_do_not_depend_on_what_comes_before(src: str, label: str):
    _, got_help = _syntax_help(src)
    assert got_help.startswith(label), got_help


def test_lint_warnings_come_from_compiled_seeded_worlds(tmp_path):
    """W101-W103 (more in tests/test_lint.py): a rule every seed breaks, a tool that needs a key
    nothing returns, a simulated tool."""
    from compoworld_dsl.check import check_paths
    from compoworld_dsl.lint import lint

    path = tmp_path / "w.world"
    path.write_text(
        """type ItemId = id
type LockId = id
service shop "A shop" {
  record Item known by name {
    key id: ItemId
    name: text
    price: int
  }
  record Lock known by n {
    key id: LockId
    n: int
  }
  state items: table[Item]
  state locks: table[Lock]
  seed items: 3 rows {
    name: pick(["Mug", "Pen"])
    price: 200..300
  }
  seed locks: 1 rows {
    n: 1
  }
  tool find(name: text) -> list[Item]
    "Find items"
    say "find the items named {name}"
    gives "the items named {name}"
  {
    return filter(i in items where i.name == name)
  }
  tool unlock(lock: LockId) -> bool
    "Remove a lock"
    say "remove lock {lock}"
  {
    require lock in locks else not_found "no lock {lock}"
    delete locks[lock]
    return true
  }
  simulated tool guess(name: text) -> int
    "Guess a price"
    say "guess the price of {name}"
  {
    ensures result > 0
  }
}
world w "W" {
  rule cheap "Everything costs under 100" {
    forall(i in shop.items: i.price < 100)
  }
}
""",
        encoding="utf-8",
    )
    program = check_paths([path])
    assert program.ok, [d.message for d in program.diagnostics]
    codes = sorted(d.code for d in lint(program.model, str(path), seeds=3))
    assert codes == ["W101", "W102", "W103"]


def test_lint_w104_a_table_that_keeps_withdrawn_rows_unsaid(tmp_path):
    """W104 (more in tests/test_lint.py, whose shop world this is): holds are voided, never
    deleted, and the table says nothing; reservations are cancelled and declare it."""
    from compoworld_dsl.check import check_paths
    from compoworld_dsl.lint import lint
    from test_lint import WORLD

    path = tmp_path / "w.world"
    path.write_text(WORLD, encoding="utf-8")
    program = check_paths([path])
    assert program.ok, [d.message for d in program.diagnostics]
    diags = [d for d in lint(program.model, str(path), seeds=2) if d.code == "W104"]
    assert [d.message.split("`")[1] for d in diags] == ["shop.void_hold"]
    assert WORLD.splitlines()[diags[0].span.line - 1].strip() == "state holds: table[Hold]"


def test_lint_w105_a_pool_that_means_something_else(tmp_path):
    """W105 (more in tests/test_seed_coherent.py, whose clinic world this is): a pet named from a
    pool of drugs, at the `pick` that does it."""
    from compoworld_dsl.check import check_paths
    from compoworld_dsl.lint import lint
    from test_seed_coherent import CLINIC

    text = CLINIC.replace("PET", "pick(drugs)").replace("CONTACT", "pick(person_names)")
    path = tmp_path / "w.world"
    path.write_text(text, encoding="utf-8")
    program = check_paths([path])
    assert program.ok, [d.message for d in program.diagnostics]
    diags = [d for d in lint(program.model, str(path), seeds=1) if d.code == "W105"]
    assert [d.message.split("`")[1:4:2] for d in diags] == [["drugs", "pets.name"]]
    assert text.splitlines()[diags[0].span.line - 1].strip() == "name: pick(drugs)"


def test_lint_w106_to_w108_what_tasks_would_say_in_fallback_words(tmp_path):
    """W106-W108 (more in tests/test_lint.py): a record without `known by`, a read without
    `gives`, a tool without `say`, each one a walk uses."""
    from compoworld_dsl.check import check_paths
    from compoworld_dsl.lint import lint

    path = tmp_path / "w.world"
    path.write_text(
        """type ItemId = id
service shop "A shop" {
  record Item {
    key id: ItemId
    name: text
    price: int
  }
  state items: table[Item]
  seed items: 3 rows {
    name: pick(["Mug", "Pen", "Cap"])
    price: 2..30
  }
  tool find(name: text) -> list[Item]
    "Find items"
    say "find the items named {name}"
  {
    return filter(i in items where i.name == name)
  }
  tool reprice(item: ItemId, price: int) -> Item
    "Set a price"
  {
    require item in items else not_found "no item {item}"
    update items[item] { price: price }
    return items[item]
  }
}
world w "W" {
}
""",
        encoding="utf-8",
    )
    program = check_paths([path])
    assert program.ok
    assert sorted({d.code for d in lint(program.model, str(path), seeds=2)}) == ["W106", "W107", "W108"]


def test_lint_w109_a_reference_that_finds_no_row():
    """W109 (more in tests/test_ref_matches.py, whose school world this is): one teacher, so most
    classes' `ref teachers where department == same(course.department)` finds nobody."""
    from compoworld_dsl.lint import lint
    from test_ref_matches import _world

    program, errors = _world(teachers="1", classes="12")
    assert not errors, errors
    warned = [d for d in lint(program.model, "<test>", seeds=3) if d.code == "W109"]
    assert len(warned) == 1 and "department == same(course.department)" in warned[0].message


def test_lint_w110_a_rule_out_of_reach():
    """W110 (more in tests/test_rules_steered.py): the registrar's `closed_term_final` reads what
    lies two references from the rows it protects, where no look-alike reaches."""
    from compoworld_dsl.lint import lint
    from compoworld_dsl.sample.run import load_sampler
    from test_rules_steered import REGISTRAR

    model = load_sampler(REGISTRAR).model
    warned = [d for d in lint(model, REGISTRAR, seeds=1) if d.code == "W110"]
    assert [d.message.split("`")[1] for d in warned] == ["closed_term_final"]


def test_lint_w111_link_rows_that_repeat_their_references():
    """W111 (more in tests/test_seed_distinct.py): a link record seeded by two plain `ref`s makes
    some pair twice; with `rows distinct by` it makes none, and a message (a text of prose) is
    not a link."""
    from compoworld_dsl.check import check_source
    from compoworld_dsl.lint import lint
    from test_seed_distinct import _world

    def warned(text):
        program = check_source(text, "pairs.world")
        assert program.ok, [d.message for d in program.diagnostics]
        return [d for d in lint(program.model, "<test>", seeds=3) if d.code == "W111"]

    got = warned(_world(""))
    assert len(got) == 1 and "repeat the a, b of another row" in got[0].message and "distinct by a, b" in got[0].help
    assert warned(_world("distinct by a, b ")) == []
    note = 'note: text\n  }'
    messages = _world("").replace("    b: PersonId\n  }", "    b: PersonId\n    " + note).replace(
        "    b: ref people\n  }", '    b: ref people\n    note: pick(["Thanks, that settles it for me.", "Could you send the file again please?"])\n  }'
    )
    assert "note: pick" in messages and warned(messages) == []
