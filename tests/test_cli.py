"""`worldc check`: exit codes, JSON diagnostics with 1-based positions, and rustc-style text output.
Runs the real entry point in a subprocess where the process boundary matters, `main()` in-process elsewhere."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from compoworld_dsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
CLEAN = FIXTURES / "ok" / "expressions.world"  # imports nothing, so it stays clean whatever stdlib does
ERRORS = FIXTURES / "err" / "types.world"
JSON_KEYS = {"code", "severity", "message", "file", "line", "column", "end_line", "end_column", "help", "notes"}

# One error whose place is known exactly: `zz` on line 6, columns 12-13 (end 14, exclusive).
KNOWN = """service s {
  state n: int = 1
  tool t() -> int
    say "t"
  {
    return zz + n
  }
}
"""


def worldc(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    script = Path(sys.executable).with_name("worldc")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "compoworld_dsl.cli"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=120, cwd=cwd or ROOT)


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as e:  # argparse leaves through SystemExit
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def known(tmp_path: Path) -> Path:
    f = tmp_path / "known.world"
    f.write_text(KNOWN, encoding="utf-8")
    return f


# ─────────────────────────── exit codes (real entry point) ───────────────────────────


def test_exit_0_for_a_clean_file():
    proc = worldc("check", str(CLEAN))
    assert proc.returncode == 0, proc.stderr
    assert "error[" not in proc.stderr
    assert "Traceback" not in proc.stderr


def test_exit_1_for_a_file_with_errors_and_json_on_stdout():
    proc = worldc("check", "--format", "json", str(ERRORS))
    assert proc.returncode == 1
    diags = json.loads(proc.stdout)
    assert diags and all(d["code"].startswith("E") for d in diags if d["severity"] == "error")
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["check", "tests/fixtures/err/no_such_file.world"],
        [],
        ["check"],
        ["frobnicate", "x.world"],
        ["check", "--format", "yaml", str(CLEAN)],
    ],
    ids=["missing-file", "no-verb", "no-path", "unknown-verb", "bad-format"],
)
def test_exit_2_for_bad_usage(args):
    proc = worldc(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip(), "bad usage must say what is wrong"


def test_a_missing_file_is_named_in_the_message(capsys):
    code, out, err = run_main(capsys, "check", str(CLEAN), "nowhere/missing.world")
    assert code == 2
    assert "nowhere/missing.world" in err


def test_a_folder_without_world_files_is_bad_usage(capsys, tmp_path: Path):
    code, _, err = run_main(capsys, "check", str(tmp_path))
    assert code == 2
    assert "no .world files" in err


def test_warnings_alone_exit_0(capsys, tmp_path: Path):
    f = tmp_path / "quiet.world"
    f.write_text('service s {\n  tool t() { }\n}\n', encoding="utf-8")
    code, out, err = run_main(capsys, "check", str(f))
    assert code == 0
    assert "warning[W002]" in out + err
    code, out, _ = run_main(capsys, "check", "--format", "json", str(f))
    assert code == 0
    assert [(d["code"], d["severity"]) for d in json.loads(out)] == [("W002", "warning")]


def test_a_folder_is_checked_file_by_file(capsys, tmp_path: Path):
    # Two worlds in one folder are two programs (docs/decisions.md D6): no E503 between them.
    (tmp_path / "a.world").write_text('world a "A" { }\n', encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.world").write_text('world b "B" { }\ntype T = Nope\n', encoding="utf-8")
    code, out, _ = run_main(capsys, "check", "--format", "json", str(tmp_path))
    assert code == 1
    diags = json.loads(out)
    assert [(Path(d["file"]).name, d["code"]) for d in diags] == [("b.world", "E102")]


def test_one_bad_file_among_good_ones_fails_the_run(capsys):
    code, out, _ = run_main(capsys, "check", "--format", "json", str(CLEAN), str(ERRORS))
    assert code == 1
    assert {Path(d["file"]).name for d in json.loads(out)} == {"types.world"}


# ─────────────────────────── JSON ───────────────────────────


def test_json_for_a_clean_file_is_an_empty_list(capsys):
    code, out, _ = run_main(capsys, "check", "--format", "json", str(CLEAN))
    assert code == 0
    assert json.loads(out) == []


def test_json_objects_have_exactly_the_documented_keys(capsys, known: Path):
    code, out, _ = run_main(capsys, "check", "--format", "json", str(known))
    assert code == 1
    diags = json.loads(out)
    assert isinstance(diags, list) and diags
    for d in diags:
        assert set(d) == JSON_KEYS
        assert isinstance(d["notes"], list)
        assert d["severity"] in ("error", "warning")
        for k in ("line", "column", "end_line", "end_column"):
            assert isinstance(d[k], int) and d[k] >= 1


def test_json_positions_are_1_based_and_point_at_the_name(capsys, known: Path):
    _, out, _ = run_main(capsys, "check", "--format", "json", str(known))
    [d] = json.loads(out)
    assert (d["code"], d["line"], d["column"], d["end_line"], d["end_column"]) == ("E101", 6, 12, 6, 14)
    assert Path(d["file"]).resolve() == known.resolve()
    line = KNOWN.splitlines()[d["line"] - 1]
    assert line[d["column"] - 1 : d["end_column"] - 1] == "zz"
    assert "`zz`" in d["message"]


@pytest.mark.parametrize(
    "text, want",
    [
        ("$", ("E002", 1, 1)),  # the very first character is column 1, not 0
        ("type A = id\n\ttype B = $\n", ("E002", 2, 11)),  # a tab counts as one column
        ('service s "é日本" { state n: int = $ }', ("E002", 1, 34)),  # columns count characters, not bytes
        ("type A = id\r\ntype B = Nope\r\n", ("E102", 2, 10)),
        ("type A =", ("E003", 1, 9)),
    ],
    ids=["first-column", "after-tab", "after-non-ascii", "crlf", "eof"],
)
def test_json_positions_in_awkward_text(capsys, tmp_path: Path, text: str, want):
    f = tmp_path / "awkward.world"
    f.write_bytes(text.encode("utf-8"))
    _, out, _ = run_main(capsys, "check", "--format", "json", str(f))
    [d] = json.loads(out)
    assert (d["code"], d["line"], d["column"]) == want


def test_json_spans_of_every_error_fixture_point_into_the_source(capsys):
    files = sorted((FIXTURES / "err").glob("*.world"))
    _, out, _ = run_main(capsys, "check", "--format", "json", *map(str, files))
    diags = json.loads(out)
    assert len(diags) > 100
    texts: dict[str, list[str]] = {}
    for d in diags:
        path = Path(d["file"]) if Path(d["file"]).is_absolute() else Path.cwd() / d["file"]
        lines = texts.setdefault(d["file"], path.read_text(encoding="utf-8").split("\n"))
        assert 1 <= d["line"] <= d["end_line"] <= len(lines), d
        src = lines[d["line"] - 1]
        assert 1 <= d["column"] <= len(src) + 1, d
        if d["code"] != "E003":  # the end of the file lies past the last character
            assert not src[d["column"] - 1].isspace(), (d, src)
        if d["line"] == d["end_line"]:
            assert d["end_column"] > d["column"], d
        assert isinstance(d["help"], str) and d["help"], f"{d['code']} has no help"


def test_json_is_sorted_by_file_and_position(capsys):
    _, out, _ = run_main(capsys, "check", "--format", "json", str(FIXTURES / "err" / "effects.world"), str(ERRORS))
    keys = [(d["file"], d["line"], d["column"]) for d in json.loads(out)]
    assert keys == sorted(keys)


# ─────────────────────────── text ───────────────────────────


def _caret_under(rendered: str, source_line: str) -> tuple[int, int]:
    """Where the carets sit under the quoted source line: (first column 1-based, count)."""
    lines = rendered.splitlines()
    i = next(k for k, l in enumerate(lines) if re.fullmatch(r"\s*\d+ \| " + re.escape(source_line), l))
    quoted, carets = lines[i], lines[i + 1]
    start = quoted.index("| ") + 2
    assert carets[: start - 2].strip() == "" and carets[start - 2 : start] == "| ", carets
    caret_text = carets[start:]
    return caret_text.index("^") + 1, caret_text.count("^")


def test_text_output_has_code_location_source_caret_and_help(capsys, known: Path):
    code, out, err = run_main(capsys, "check", str(known))
    assert code == 1
    text = out + err
    assert "error[E101]: unknown name `zz`" in text
    assert f"{known}:6:12" in text or f"{known.name}:6:12" in text
    assert "    return zz + n" in text
    assert _caret_under(text, "    return zz + n") == (12, 2)
    assert re.search(r"^\s*= help: \S", text, re.M)
    assert "1 error, 0 warnings" in text


def test_text_output_for_a_syntax_error(capsys, tmp_path: Path):
    f = tmp_path / "syntax.world"
    f.write_text("service s {\n  state n: int = 1 $ 2\n}\n", encoding="utf-8")
    _, out, err = run_main(capsys, "check", str(f))
    text = out + err
    assert "error[E002]" in text and ":2:20" in text
    assert _caret_under(text, "  state n: int = 1 $ 2") == (20, 1)
    assert "help:" in text


def test_text_output_for_a_span_over_several_lines_marks_the_rest_of_the_first_line(capsys, tmp_path: Path):
    f = tmp_path / "multi.world"
    f.write_text('service s {\n  tool t() -> int\n    say "t"\n  {\n  }\n}\n', encoding="utf-8")
    _, out, err = run_main(capsys, "check", str(f))
    text = out + err
    assert "error[E407]" in text and ":2:3" in text
    assert _caret_under(text, "  tool t() -> int") == (3, len("tool t() -> int"))


def test_text_output_names_the_imported_file_where_the_error_is(capsys):
    _, out, err = run_main(capsys, "check", str(FIXTURES / "err" / "imports_cycle.world"))
    text = out + err
    assert "error[E502]" in text
    assert re.search(r"cycle_b\.world:2:1", text)
    assert 'import "cycle_a.world"' in text


def test_text_output_clips_a_long_line_around_the_error(capsys, tmp_path: Path):
    f = tmp_path / "long.world"
    f.write_text('service s "' + "x" * 5000 + '" { state n: int = $ }\n', encoding="utf-8")
    _, out, err = run_main(capsys, "check", str(f))
    text = out + err
    assert "error[E002]" in text
    assert max(len(l) for l in text.splitlines()) < 300
    quoted = next(l for l in text.splitlines() if "state n: int = $" in l)
    carets = text.splitlines()[text.splitlines().index(quoted) + 1]
    assert carets.index("^") == quoted.index("$")


def test_text_caret_lines_up_under_a_tab_indented_line(capsys, tmp_path: Path):
    f = tmp_path / "tabs.world"
    f.write_text("service s {\n\tstate n: int = $\n}\n", encoding="utf-8")
    _, out, err = run_main(capsys, "check", str(f))
    lines = (out + err).splitlines()
    quoted = next(l for l in lines if "state n: int = $" in l)
    carets = lines[lines.index(quoted) + 1]
    assert carets.index("^") == quoted.index("$")


# Lines end at "\n" only, as the parser counts them; str.splitlines() would also break at these.
@pytest.mark.parametrize("separator", ["\f", "\v", "\x1c", "\u2028", "\r"], ids=["form-feed", "vtab", "fs", "u2028", "cr"])
def test_text_quotes_the_line_the_error_is_on_after_unusual_line_breaks(capsys, tmp_path: Path, separator: str):
    f = tmp_path / "breaks.world"
    f.write_text(f"// page one{separator}still line one\nservice s {{\n  state n: int = $\n}}\n", encoding="utf-8")
    _, out, err = run_main(capsys, "check", str(f))
    text = out + err
    assert ":3:18" in text
    assert "3 |   state n: int = $" in text


def test_a_reader_that_goes_away_gets_no_traceback():
    """`worldc graph ... | head -1`: exit 141 (SIGPIPE, as any filter), nothing on stderr."""
    cmd = [str(Path(sys.executable).with_name("worldc")), "graph", str(ROOT / "worlds" / "legal_ops.world")]
    if not Path(cmd[0]).exists():
        cmd = [sys.executable, "-m", "compoworld_dsl", *cmd[1:]]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.readline()
    proc.stdout.close()  # the reader leaves after one line
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_the_reproduce_line_never_wraps(tmp_path):
    env = {**os.environ, "COLUMNS": "40"}
    cmd = [sys.executable, "-m", "compoworld_dsl", "sample", str(ROOT / "worlds" / "toy.world"), "--hops", "2", "-n", "1", "-o", str(tmp_path / "t.jsonl")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stderr.splitlines() if "reproduce with:" in x)
    assert line.endswith(f"-o {tmp_path / 't.jsonl'}") and "--seed 0x0" in line, done.stderr


def test_dash_is_stdout_and_no_special_file_is_replaced(capsys, tmp_path):
    code, out, _ = run_main(capsys, "sample", str(ROOT / "worlds" / "toy.world"), "--hops", "2", "-n", "1", "-o", "-")
    assert code == 0 and json.loads(out)["format"] == 2
    for target in (str(tmp_path), os.devnull):
        code, out, err = run_main(capsys, "sample", str(ROOT / "worlds" / "toy.world"), "--hops", "2", "-n", "1", "-o", target)
        assert code == 2 and out == "" and f"{target} exists and is not a regular file" in err
    assert os.path.exists(os.devnull) and not os.path.isfile(os.devnull)  # still the device


def test_fmt_diff_shows_the_change_and_writes_nothing(capsys, tmp_path):
    path = tmp_path / "s.world"
    path.write_text('service s   "S" {\n  state n: int = 1\n}\n', encoding="utf-8")
    code, out, _ = run_main(capsys, "fmt", "--diff", str(path))
    assert code == 1
    assert '-service s   "S" {\n+service s "S" {\n' in out and out.startswith(f"--- {path}\n+++ {path} (formatted)\n")
    assert path.read_text(encoding="utf-8").startswith('service s   "S"')  # untouched
    path.write_text('service s "S" {\n  state n: int = 1\n}\n', encoding="utf-8")
    assert run_main(capsys, "fmt", "--diff", str(path))[:2] == (0, "")
