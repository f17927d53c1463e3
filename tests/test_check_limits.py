"""Inputs past what the tool supports get a diagnostic, never an exception (issue #9): number
literals out of range (E010), files over the size limit (E011), seeds that could not be seeded
(E607), imports the operating system cannot read (E009), and checker bugs (E901) in the CLI."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from compoworld_dsl import cli
from compoworld_dsl.check import check_paths, check_source
from compoworld_dsl.check import loader as loader_module
from compoworld_dsl.check.checker import MAX_SEED_ROWS, MAX_WEIGHT
from compoworld_dsl.diagnostics import SourceCache, render_text
from compoworld_dsl.syntax.format import format_source
from compoworld_dsl.syntax.parser import INT_MAX, ParseFailure, parse_expr, parse_module

BIG = "9" * 5000  # past Python's 4,300-digit limit for int(str)


def codes(program) -> list[str]:
    return [d.code for d in program.diagnostics]


def table_world(seed: str, fields: str = "f: text") -> str:
    return f"service s {{\n  record R {{ key id: id  {fields} }}\n  state t: table[R]\n  {seed}\n}}\n"


# ─────────────────────────── E010: number literals ───────────────────────────


@pytest.mark.parametrize(
    "text, line, col",
    [
        (f"service s {{\n  state n: int = {BIG}\n}}\n", 2, 18),
        (f"service s {{\n  state n: int = -{BIG}\n}}\n", 2, 18),
        (f"service s {{\n  tool t() -> int say \"t\" {{ return {BIG} }}\n}}\n", 2, 36),
        (f"pool p = [1, {BIG}]\n", 1, 14),
        (f"service s {{\n  state n: int = {INT_MAX + 1}\n}}\n", 2, 18),
        (f"service s {{\n  state d: decimal = 1.{'5' * 19}\n}}\n", 2, 22),
        (f"service s {{\n  state d: decimal = {'1' * 19}.5\n}}\n", 2, 22),
        (f"service s {{\n  state d: decimal = -1.{'5' * 5000}\n}}\n", 2, 22),
        (table_world(f'seed t: 1..3 rows {{ f: weighted("a": 1, "b": {"9" * 400}) }}'), 4, 48),
    ],
    ids=["int", "negative-int", "expression", "pool", "just-past-int64", "decimal-fraction", "decimal-whole", "negative-decimal", "issue-weight"],
)
def test_a_number_literal_out_of_range_is_E010_where_it_is(text: str, line: int, col: int):
    program = check_source(text, "n.world")
    [d] = program.diagnostics
    assert (d.code, d.span.line, d.span.col) == ("E010", line, col)
    assert "out of range" in d.message or "too many digits" in d.message
    assert len(d.message) < 200  # the literal is abbreviated
    assert d.help
    render_text(d, program.sources)


def test_numbers_at_the_limits_check_clean():
    text = (
        f"service s {{\n  state a: int = {INT_MAX}\n  state b: int = -{INT_MAX}\n  state c: int = 000000000000000000000000042\n"
        f"  state d: decimal = {'9' * 18}.{'9' * 18}\n  state e: money = -{'9' * 18}.5\n}}\n"
    )
    program = check_source(text, "limits.world")
    assert program.ok, [d.message for d in program.diagnostics]
    state = program.model.services["s"].state
    assert state["a"].default.value == INT_MAX and state["b"].default.value == -INT_MAX
    assert state["c"].default.value == 42


def test_parse_expr_and_the_formatter_report_E010_too():
    with pytest.raises(ParseFailure) as e:
        parse_expr(BIG + " + 1")
    assert [d.code for d in e.value.diagnostics] == ["E010"]
    with pytest.raises(ParseFailure) as e:
        format_source(f"service s {{\n  state n: int = {BIG}\n}}\n", "f.world")
    assert [d.code for d in e.value.diagnostics] == ["E010"]
    # in range, the formatter keeps the value
    assert f"= {INT_MAX}" in format_source(f"service s {{\n  state n: int = {INT_MAX}\n}}\n", "f.world")


def test_worldc_fmt_on_a_huge_literal_exits_1_with_E010(tmp_path: Path, capsys):
    path = tmp_path / "big.world"
    path.write_text(f"service s {{\n  state n: int = {BIG}\n}}\n", encoding="utf-8")
    assert cli.main(["fmt", str(path)]) == 1
    err = capsys.readouterr().err
    assert "error[E010]" in err and "Traceback" not in err


# ─────────────────────────── E607: seeds that could not run ───────────────────────────


@pytest.mark.parametrize(
    "seed, message",
    [
        (f'seed t: {MAX_SEED_ROWS + 1} rows {{ f: "x" }}', f"asks for up to {MAX_SEED_ROWS + 1}"),
        ('seed t: 5..50000 rows { f: "x" }', "asks for up to 50000"),
        (f'seed t: 3 rows {{ f: weighted("a": 1, "b": {MAX_WEIGHT + 1}) }}', f"weight {MAX_WEIGHT + 1} is above the limit"),
        (f'seed t: 3 rows {{ f: weighted("a": {INT_MAX}) }}', "is above the limit"),
    ],
    ids=["rows", "row-range", "weight", "weight-int64"],
)
def test_a_seed_past_the_limits_is_E607(seed: str, message: str):
    program = check_source(table_world(seed), "seed.world")
    [d] = program.diagnostics
    assert d.code == "E607" and message in d.message, d.message
    assert (d.span.line, d.span.col) >= (4, 3)


def test_a_seed_at_the_limits_checks_clean_and_seeds():
    from compoworld_dsl.codegen.python import load_world

    text = table_world(f'seed t: {MAX_SEED_ROWS} rows {{ f: weighted("a": 1, "b": {MAX_WEIGHT}) }}')
    program = check_source(text, "seed.world")
    assert program.ok, [d.message for d in program.diagnostics]
    world = load_world(program.model, "seed.world")
    state = world.initial_state(0)
    assert len(state.tables["s.t"]) == MAX_SEED_ROWS


def test_negative_and_empty_row_counts_are_still_E602_and_E603():
    assert codes(check_source(table_world('seed t: -1 rows { f: "x" }'), "n.world")) == ["E602"]
    assert codes(check_source(table_world('seed t: 5..2 rows { f: "x" }'), "n.world")) == ["E603"]


# ─────────────────────────── E009: imports the system cannot read ───────────────────────────


def test_an_import_name_too_long_for_the_file_system_is_E009_at_the_import(tmp_path: Path):
    text = "type A = id\nimport " + "a" * 300 + "\n"
    program = check_source(text, "long.world", base_dir=tmp_path)
    [d] = program.diagnostics
    assert (d.code, d.span.line, d.span.col) == ("E009", 2, 1)
    assert "too long" in d.message.lower()
    assert len(d.message) < 200


def test_a_use_of_a_name_too_long_is_E009_at_the_name(tmp_path: Path):
    text = "world w {\n  use " + "b" * 300 + "\n}\n"
    program = check_source(text, "long.world", base_dir=tmp_path)
    [d] = program.diagnostics
    assert (d.code, d.span.line, d.span.col) == ("E009", 2, 7)


def test_an_import_of_a_folder_is_E009(tmp_path: Path):
    (tmp_path / "lib.world").mkdir()
    program = check_source('import "lib.world"\nimport lib\n', "a.world", base_dir=tmp_path)
    assert [(d.code, d.span.line) for d in program.diagnostics] == [("E009", 1), ("E009", 2)]
    assert all("folder" in d.message for d in program.diagnostics)


def test_an_import_with_a_nul_byte_is_not_found(tmp_path: Path):
    # `\0` decodes to NUL, which no file name holds: Python's `is_file` says no (os.stat raises
    # ValueError, which pathlib swallows), so this is E501, not an exception
    program = check_source('import "a\\0b.world"\n', "a.world", base_dir=tmp_path)
    assert codes(program) == ["E501"]


def test_an_imported_file_without_permission_is_E009_at_the_import(tmp_path: Path, monkeypatch):
    (tmp_path / "secret.world").write_text("type S = id\n", encoding="utf-8")
    real = Path.open

    def open_(self, *args, **kwargs):  # root reads any file, so the refusal is simulated
        if self.name == "secret.world":
            raise PermissionError(13, "Permission denied")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_)
    program = check_source("type A = id\nimport secret\n", "a.world", base_dir=tmp_path)
    [d] = program.diagnostics
    assert (d.code, d.span.file, d.span.line) == ("E009", "a.world", 2)
    assert "Permission denied" in d.message


def test_stat_failing_on_an_import_is_E009_not_an_exception(tmp_path: Path, monkeypatch):
    real = Path.is_file

    def is_file(self):
        if self.name == "locked.world":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "is_file", is_file)
    program = check_source("import locked\n", "a.world", base_dir=tmp_path)
    assert codes(program) == ["E009"]


# ─────────────────────────── E011: the file size limit ───────────────────────────


def test_a_file_over_the_size_limit_is_E011_before_it_is_parsed(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(loader_module, "MAX_FILE_BYTES", 100)
    big = tmp_path / "big.world"
    big.write_text("// " + "x" * 200 + "\ntype A = id\n", encoding="utf-8")
    program = check_paths([big])
    [d] = program.diagnostics
    assert (d.code, d.span.line, d.span.col) == ("E011", 1, 1)
    assert "the limit is 100" in d.message
    # through an import, at the import
    program = check_source("type B = id\nimport big\n", "a.world", base_dir=tmp_path)
    [d] = program.diagnostics
    assert (d.code, d.span.file, d.span.line) == ("E011", "a.world", 2)
    # and in memory
    assert codes(check_source("// " + "x" * 200 + "\n", "mem.world")) == ["E011"]


def test_the_size_limit_holds_a_compact_10000_service_world():
    assert loader_module.MAX_FILE_BYTES >= 8 * 1024 * 1024


@pytest.mark.parametrize("name", ["/dev/zero", "/dev/null"])
def test_a_device_is_E009_not_an_endless_read(name: str):
    if not Path(name).exists():
        pytest.skip(f"no {name} here")
    [d] = check_paths([name]).diagnostics
    assert d.code == "E009" and "not a regular file" in d.message


# ─────────────────────────── huge comments and strings stay small ───────────────────────────


@pytest.mark.parametrize(
    "text",
    [
        "/* " + ("x" * 79 + "\n") * 25_000 + " */\ntype A = id\n",
        "/* " + "x" * 2_000_000 + " */\ntype A = id\n",
        'service s "' + "x" * 2_000_000 + '" {\n}\n',
        'service s "' + "x\\n" * 600_000 + '" {\n}\n',
        "/* " + "* " * 1_000_000 + "*/\ntype A = id\n",
    ],
    ids=["block-comment-lines", "block-comment-one-line", "string", "string-with-escapes", "block-comment-of-stars"],
)
def test_a_two_megabyte_comment_or_string_parses_in_little_memory(text: str):
    # The old `(.|\n)*?` and `([^"\\\n]|\\.)*` terminals kept a regex frame per character:
    # ~150 bytes of memory per byte of comment. A 2 MB one must now stay within a few copies.
    tracemalloc.start()
    try:
        parse_module(text, "big.world")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 12 * len(text), peak / len(text)


def test_comment_edge_cases_still_lex():
    for text in ("/**/ type A = id", "/***/ type A = id", "/* a * b ** / */ type A = id", "/* x **/ type A = id", "/* /* */ type A = id", "/*\n*\n*/type A = id"):
        assert len(parse_module(text).items) == 1, text
    for text in ("/* */ */ type A = id", "/* never closed", "/*/ type A = id"):
        with pytest.raises(ParseFailure):
            parse_module(text)


def test_source_cache_lines():
    cache = SourceCache()
    cache.add("f", "one\r\ntwo\n\nlast")
    assert [cache.line("f", n) for n in range(0, 6)] == [None, "one", "two", "", "last", None]
    assert cache.line("other", 1) is None
    merged = SourceCache()
    merged.add("f", "stale")
    assert merged.line("f", 1) == "stale"
    merged.merge(cache)
    assert merged.line("f", 2) == "two"


# ─────────────────────────── worldc check never prints a traceback ───────────────────────────


def test_worldc_check_json_on_an_unreadable_import_is_json(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "a.world"
    path.write_text("import " + "a" * 300 + "\n", encoding="utf-8")
    assert cli.main(["check", "--format", "json", str(path)]) == 1
    out = capsys.readouterr()
    assert [d["code"] for d in json.loads(out.out)] == ["E009"]
    assert "Traceback" not in out.err


def test_a_checker_bug_is_E901_in_valid_json_and_the_other_files_are_still_checked(tmp_path: Path, capsys, monkeypatch):
    import compoworld_dsl.check as check_package

    (tmp_path / "a.world").write_text("type A = id\n", encoding="utf-8")
    (tmp_path / "b.world").write_text("type B = zz\n", encoding="utf-8")
    real = check_package.check_paths

    def broken(paths):
        if Path(paths[0]).name == "a.world":
            raise KeyError("matters")
        return real(paths)

    monkeypatch.setattr(check_package, "check_paths", broken)
    monkeypatch.delenv("WORLDC_TRACEBACK", raising=False)
    assert cli.main(["check", "--format", "json", str(tmp_path / "a.world"), str(tmp_path / "b.world")]) == 1
    out = capsys.readouterr()
    diags = json.loads(out.out)
    assert sorted(d["code"] for d in diags) == ["E102", "E901"]
    e901 = next(d for d in diags if d["code"] == "E901")
    assert "KeyError" in e901["message"] and e901["notes"] and e901["help"]
    assert "Traceback" not in out.err
    # text output too
    assert cli.main(["check", str(tmp_path / "a.world")]) == 1
    assert "error[E901]" in capsys.readouterr().err
    # and the traceback on request
    monkeypatch.setenv("WORLDC_TRACEBACK", "1")
    with pytest.raises(KeyError):
        cli.main(["check", str(tmp_path / "a.world")])
