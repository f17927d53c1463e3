"""Any input gives diagnostics, never a Python exception and never a hang: fuzzing and hostile inputs.
Checks the front end only (parse, load, check, render); what the diagnostics say is tested elsewhere."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from compoworld_dsl.check import check_paths, check_source
from compoworld_dsl.diagnostics import is_syntax_code, CODES, render_text
from compoworld_dsl.syntax.parser import ParseFailure, parse_expr, parse_module

ROOT = Path(__file__).resolve().parent.parent
# Read when the tests run, so new stdlib modules and worlds are fuzzed too.
BUNDLED = sorted([*(ROOT / "worlds").glob("*.world"), *(ROOT / "stdlib").glob("*.world")])
SOURCES = {p: p.read_text(encoding="utf-8") for p in BUNDLED}

# A hang guard only, never a speed check: ten times the slowest test's run on a busy 2-core
# machine, so load cannot trip it (speed is measured in bench/, issue 31); only a hang reaches it.
HANG_SECONDS = 600


class Hang(Exception):
    pass


@pytest.fixture(autouse=True)
def no_hang():
    """Fail a test that runs away instead of letting it stall the suite."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def on_alarm(signum, frame):
        raise Hang(f"still running after {HANG_SECONDS} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(HANG_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def assert_well_formed(program, text: str | bytes | None = None, file: str | None = None) -> None:
    """The contract every check result keeps, whatever the input."""
    diags = program.diagnostics
    assert program.ok == (not any(d.is_error for d in diags))
    keys = [(not is_syntax_code(d.code), d.span.file, d.span.line, d.span.col) for d in diags]
    assert keys == sorted(keys)  # syntax and input errors first, then by position (Diagnostic.sort_key)
    for d in diags:
        assert d.code in CODES
        assert d.severity in ("error", "warning")
        assert d.message
        assert "\n" not in d.message, d.message
        s = d.span
        assert s.line >= 1 and s.col >= 1, d
        assert (s.end_line, s.end_col) >= (s.line, s.col), d
        if text is not None and s.file == file:
            lines = (text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text).split("\n")
            assert s.line <= len(lines), (d, len(lines))
            assert s.col <= len(lines[s.line - 1]) + 1, (d, lines[s.line - 1][:80])
        rendered = render_text(d, program.sources)
        assert f"[{d.code}]" in rendered
        json.dumps(d.to_json())


# ─────────────────────────── (a) mutations of the bundled worlds ───────────────────────────

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/|[A-Za-z_0-9]+|\s+|.', re.S)


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


@st.composite
def mutated_source(draw) -> tuple[Path, str]:
    path = draw(st.sampled_from(BUNDLED))
    text = SOURCES[path]
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["del_tok", "dup_tok", "swap_tok", "copy_tok", "del_line", "dup_line", "swap_line", "truncate"]))
        if kind == "truncate":
            text = text[: draw(st.integers(0, len(text)))]
        elif kind.endswith("_line"):
            lines = text.split("\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            if kind == "del_line":
                del lines[i]
            elif kind == "dup_line":
                lines.insert(i, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        else:
            toks = tokens(text)
            solid = [k for k, t in enumerate(toks) if not t.isspace()]
            if not solid:
                continue
            i, j = draw(st.sampled_from(solid)), draw(st.sampled_from(solid))
            if kind == "del_tok":
                del toks[i]
            elif kind == "dup_tok":
                toks.insert(i, toks[i] + " ")
            elif kind == "copy_tok":  # another token of the same file: names stay plausible
                toks[i] = toks[j]
            else:
                toks[i], toks[j] = toks[j], toks[i]
            text = "".join(toks)
    return path, text


def test_the_tokenizer_used_for_mutations_round_trips():
    for text in SOURCES.values():
        assert "".join(tokens(text)) == text
    assert BUNDLED, "no bundled worlds found to fuzz"


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_source())
def test_mutated_bundled_worlds_give_diagnostics_not_exceptions(case):
    path, text = case
    program = check_source(text, path.name, base_dir=path.parent)
    assert_well_formed(program, text, path.name)


def _worldc() -> list[str]:
    script = Path(sys.executable).with_name("worldc")
    return [str(script)] if script.exists() else [sys.executable, "-m", "compoworld_dsl.cli"]


# Each run starts a Python process and builds the parser (about a second), so only a few.
@settings(max_examples=3, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_source(), st.sampled_from(["text", "json"]))
def test_mutated_worlds_through_the_real_cli_exit_0_or_1_without_a_traceback(case, fmt):
    path, text = case
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / path.name
        target.write_text(text, encoding="utf-8")
        proc = subprocess.run([*_worldc(), "check", "--format", fmt, str(target)], capture_output=True, text=True, timeout=600, cwd=tmp)  # a hang guard, not a speed check
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    if fmt == "json":
        assert isinstance(json.loads(proc.stdout), list)


# ─────────────────────────── (b) bytes that are not a world ───────────────────────────


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\n\n\n",
        b"   \t  ",
        b"\x00",
        b"service s { }\x00",
        b"// a comment with a NUL \x00 in it\n",
        b'pool p = ["a\x00b"]',
        b"\xff\xfe\xfd",
        b"\xef\xbb\xbf",  # a lone UTF-8 byte order mark
        b"type A = id\n\xc3",  # a multi-byte sequence cut off at the end
        b"\xed\xa0\x80",  # an encoded surrogate, which UTF-8 forbids
        b"\r\n\r\n",
        b"\r",
        b"\x0c\x0b\x1c\x85",
        "service s \"\u2028\" { }".encode(),
        bytes(range(256)),
        b"{" * 5000,
        b"}" * 5000,
        b'"' * 5001,
        b"/*" * 3000,
    ],
    ids=lambda b: repr(b[:12]),
)
def test_odd_bytes_give_diagnostics_not_exceptions(data: bytes):
    program = check_source(data, "odd.world")
    assert_well_formed(program, data, "odd.world")


def test_nul_bytes_and_bad_utf8_are_reported_where_they_are():
    program = check_source(b"type A = id\ntype B =\x00 id\n", "nul.world")
    assert [(d.code, d.span.line, d.span.col) for d in program.diagnostics] == [("E002", 2, 9)]
    program = check_source(b"type A = id\n  \xff\n", "bad.world")
    assert [(d.code, d.span.line, d.span.col) for d in program.diagnostics] == [("E004", 2, 3)]


def test_an_empty_file_checks_clean():
    for data in (b"", "", "\n", "// only a comment\n", "/* block */"):
        program = check_source(data, "empty.world")
        assert program.diagnostics == []
        assert program.ok


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.binary(max_size=400))
def test_random_bytes_never_raise(data: bytes):
    program = check_source(data, "random.world")
    assert_well_formed(program, data, "random.world")


WORLD_ALPHABET = st.sampled_from(list('{}[]()<>=!:;,."\\/*+-%_\n\t ') + ["service", "tool", "record", "key", "state", "seed", "rows", "not", "in", "where", "forall", "exists", "if", "then", "else", "world", "use", "import", "rule", "constraint", "untouched", "x", "1", "2025-01-01", "09:00", '"s"'])


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(WORLD_ALPHABET, max_size=80).map(" ".join))
def test_random_token_soup_never_raises(text: str):
    program = check_source(text, "soup.world")
    assert_well_formed(program, text, "soup.world")


@pytest.mark.parametrize("text", ['import "a\\nb"\n', 'service s {\n  tool t() say "{a\\nb}" { }\n}\n'], ids=["import", "say"])
def test_messages_stay_on_one_line_whatever_the_strings_hold(text: str):
    program = check_source(text, "escapes.world")
    assert program.diagnostics
    for d in program.diagnostics:
        assert "\n" not in d.message, d.message


# ─────────────────────────── (c) size and depth ───────────────────────────

N = 10_000


def _in_tool(expr: str) -> str:
    return 'service s {\n  state n: int = 1\n  tool t() -> bool say "t" {\n    return ' + expr + "\n  }\n}\n"


@pytest.mark.parametrize(
    "name, expr, codes",
    [
        ("parens around a literal", "(" * N + "true" + ")" * N, {None, "E005"}),
        ("parens around sums", "(" * N + "n" + " + 1)" * N + " > 0", {"E005"}),
        ("nots", "not " * N + "true", {"E005"}),
        ("sum of terms", " + ".join(["n"] * N) + " > 0", {"E005"}),
        ("negations", "-" * N + "n > 0", {"E005"}),
        ("ands", " and ".join(["true"] * N), {"E005"}),
        ("implications", " implies ".join(["true"] * N), {"E005"}),
        ("conditionals", "if true then " * N + "true" + " else false" * N, {"E005"}),
        ("lists", "[" * N + "]" * N + " == []", {"E005"}),
        ("field chain", "n" + ".x" * N + " > 0", {"E005"}),
        ("index chain", "n" + "[0]" * N + " > 0", {"E005"}),
        ("calls", "len(" * N + '"x"' + ")" * N + " > 0", {"E005"}),
        ("quantifiers", "exists(x in n where " * N + "true" + ")" * N, {"E005"}),
        ("unclosed parens", "(" * N, {"E001"}),
        ("unopened parens", "true" + ")" * N, {"E001"}),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 40 else None,
)
def test_deep_nesting_is_reported_not_crashed(name, expr, codes):
    text = _in_tool(expr)
    program = check_source(text, "deep.world")
    assert_well_formed(program, text, "deep.world")
    got = {d.code for d in program.diagnostics} or {None}
    assert got <= codes, (name, got)


def test_deep_nesting_through_parse_expr():
    for expr in ("(" * N + "1" + ")" * N, "not " * N + "true", " + ".join(["a"] * N)):
        try:
            parse_expr(expr)
        except ParseFailure as e:
            assert [d.code for d in e.diagnostics] == ["E005"]


def test_deep_constraint_clauses_are_reported_not_crashed():
    text = "service s {\n  record R { key id: id }\n  state rs: table[R]\n  constraint c {\n"
    text += "    forall r in rs {\n" * 2000 + "invariant true\n" + "}\n" * 2000 + "  }\n}\n"
    program = check_source(text, "deep_clauses.world")
    assert_well_formed(program, text, "deep_clauses.world")
    assert {d.code for d in program.diagnostics} == {"E005"}


MB = 1_000_000


@pytest.mark.parametrize(
    "text",
    [
        "// " + "x" * MB + "\n",
        'service s "' + "x" * MB + '" { }\n',
        'service s "' + "x" * MB + '" { state n: int = $ }\n',  # an error a megabyte into the line
        "/* " + "x" * MB + " */",
        "x" * MB,  # one megabyte-long name where an item should start
        'type A = id\npool p = ["' + "y" * MB + '"',  # unterminated after a long string
    ],
    ids=["comment", "string", "error-at-end", "block-comment", "long-name", "eof-after-long-string"],
)
def test_a_one_megabyte_line(text: str):
    program = check_source(text, "wide.world")
    assert_well_formed(program, text, "wide.world")


def test_a_one_megabyte_line_error_is_at_the_right_column_and_renders_short():
    text = 'service s "' + "x" * MB + '" { state n: int = $ }\n'
    program = check_source(text, "wide.world")
    [d] = program.diagnostics
    assert (d.code, d.span.line, d.span.col) == ("E002", 1, text.index("$") + 1)
    rendered = render_text(d, program.sources)
    assert max(len(line) for line in rendered.splitlines()) < 400


def test_a_one_megabyte_token_gives_a_short_message():
    program = check_source("x" * MB, "wide.world")
    [d] = program.diagnostics
    assert d.code == "E001"
    assert len(d.message) < 400
    assert max(len(line) for line in render_text(d, program.sources).splitlines()) < 400


# ─────────────────────────── (d) unknown names everywhere ───────────────────────────

KEYWORDS = None


def _keywords() -> set[str]:
    from compoworld_dsl.syntax.parser import _lark  # the grammar's own keyword list

    global KEYWORDS
    if KEYWORDS is None:
        word = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
        KEYWORDS = {t.pattern.value for t in _lark().terminals if t.pattern.type == "str" and word.match(t.pattern.value)}
    return KEYWORDS


def _rename(text: str, pick) -> str:
    out, n = [], 0
    for tok in tokens(text):
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", tok) and tok not in _keywords() and pick(n):
            tok = f"zz_unknown_{n}"
        n += 1
        out.append(tok)
    return "".join(out)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_name_unknown(path: Path):
    text = _rename(SOURCES[path], lambda n: True)
    program = check_source(text, path.name, base_dir=path.parent)
    assert_well_formed(program, text, path.name)
    assert not program.ok
    assert all(d.code[0] in "EW" for d in program.diagnostics)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.sampled_from(BUNDLED), st.integers(2, 7), st.integers(0, 6))
def test_some_names_unknown(path: Path, every: int, offset: int):
    text = _rename(SOURCES[path], lambda n: n % every == offset % every)
    program = check_source(text, path.name, base_dir=path.parent)
    assert_well_formed(program, text, path.name)


def test_unknown_names_in_every_position_are_all_reported():
    text = (
        "import zz_mod\n"
        "type A = zz_type\n"
        "pool p = [zz_const]\n"
        "service s {\n"
        "  record R { key id: id  f: zz_type2 = zz_member }\n"
        "  state rs: table[zz_rec]\n"
        "  seed zz_state: 1\n"
        "  tool t(x: zz_param_type) -> zz_result say \"{zz_ph}\" {\n"
        "    require zz_cond else invalid \"{zz_msg}\"\n"
        "    let y = zz_fn(zz_arg)\n"
        "    insert zz_table { zz_field: 1 }\n"
        "    set zz_scalar = 1\n"
        "    return zz_value\n"
        "  }\n"
        "  constraint c { untouched zz_t  order zz_a after zz_b }\n"
        "}\n"
        "world w { use zz_used }\n"
    )
    program = check_source(text, "unknown.world")
    assert_well_formed(program, text, "unknown.world")
    lines_with_errors = {d.span.line for d in program.errors}
    # line 3 is an unused pool: see test_an_unknown_name_in_an_unused_pool_is_reported
    assert lines_with_errors >= set(range(1, 16)) - {3, 4, 14} | {17}


def test_an_unknown_name_in_an_unused_pool_is_reported():
    program = check_source("enum Level { low, high }\npool levels = [low, hihg]\n", "pool.world")
    assert [(d.code, d.span.line) for d in program.errors] == [("E101", 2)]


# ─────────────────────────── (e) import cycles ───────────────────────────


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    "files, cycles",
    [
        ({"a.world": 'import "a.world"\n'}, 1),
        ({"a.world": "import a\n"}, 1),
        ({"a.world": 'import "b.world"\n', "b.world": 'import "a.world"\n'}, 1),
        ({"a.world": "import b\ntype A = id\n", "b.world": "import c\n", "c.world": "import a\n"}, 1),
        ({"a.world": 'import "b.world"\nimport "c.world"\n', "b.world": 'import "a.world"\n', "c.world": 'import "a.world"\n'}, 2),
        ({"a.world": "import sub.b\n", "sub/b.world": 'import "../a.world"\n'}, 1),
        ({"a.world": 'world w { use b }\n', "b.world": 'import "a.world"\nservice s { }\n'}, 1),
        ({"a.world": 'import "b.world"\nimport "c.world"\n', "b.world": 'import "d.world"\n', "c.world": 'import "d.world"\n', "d.world": "type D = id\n"}, 0),
    ],
    ids=["self-file", "self-module", "two", "three", "two-sharing-a", "subfolder", "world-use", "diamond-no-cycle"],
)
def test_import_cycles_terminate_and_are_reported_once_each(tmp_path: Path, files: dict[str, str], cycles: int):
    _write(tmp_path, files)
    program = check_paths([tmp_path / "a.world"])
    assert_well_formed(program)
    assert [d.code for d in program.diagnostics].count("E502") == cycles
    for d in program.diagnostics:
        if d.code == "E502":
            assert d.notes and "→" in d.notes[0]


def test_an_in_memory_file_that_imports_itself(tmp_path: Path):
    program = check_source('import "me.world"\ntype A = id\n', "me.world", base_dir=tmp_path)
    assert_well_formed(program)
    assert {d.code for d in program.diagnostics} <= {"E501", "E502"}


def test_a_long_import_chain_back_to_the_start(tmp_path: Path):
    n = 300  # deeper than any recursion-based loader would survive with a small stack
    _write(tmp_path, {f"m{i}.world": f'import "m{(i + 1) % n}.world"\ntype T{i} = id\n' for i in range(n)})
    program = check_paths([tmp_path / "m0.world"])
    assert [d.code for d in program.diagnostics] == ["E502"]


# ─────────────────────────── (f) grammar fuzzing ───────────────────────────

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _padded(s):
    # from_lark joins terminals with nothing between them; a space keeps `service` and `x` apart.
    return s.map(lambda x: f" {x} ")


def grammar_strategy(start: str):
    """Strings of the project's grammar, drawn from the parser's own Lark object."""
    from compoworld_dsl.syntax.parser import _lark

    lark = _lark()
    keywords = _keywords()
    explicit = {t.name: st.just(f" {t.pattern.value} ") for t in lark.terminals if t.pattern.type == "str"}
    explicit.update(
        {
            "NAME": _padded(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True).filter(lambda s: s not in keywords)),
            "INT": _padded(st.integers(0, 10**12).map(str)),
            "DECIMAL": _padded(st.tuples(st.integers(0, 10**6), st.integers(0, 999)).map(lambda t: f"{t[0]}.{t[1]}")),
            # The grammar's STRING admits any character but a quote, backslash or newline; the
            # product refuses NUL anywhere in a file (E002), and only some escapes are known (E006).
            "STRING": _padded(
                st.lists(
                    st.one_of(
                        st.characters(codec="utf-8", exclude_characters='"\\\n\x00'),
                        st.sampled_from(['\\"', "\\\\", "\\n", "\\t", "\\r", "\\0", "\\u00e9"]),
                    ),
                    max_size=12,
                ).map(lambda cs: '"' + "".join(cs) + '"')
            ),
            # DATE, TIME and DATETIME must name real moments, or the parser reports E007.
            "DATE": _padded(st.dates(min_value=__import__("datetime").date(1000, 1, 1)).map(lambda d: d.isoformat())),
            "TIME": _padded(st.times().map(lambda t: t.strftime("%H:%M"))),
            "DATETIME": _padded(st.datetimes(min_value=__import__("datetime").datetime(1000, 1, 1)).map(lambda d: d.strftime("%Y-%m-%dT%H:%M"))),
            "COMPARE": _padded(st.sampled_from(["==", "!=", "<=", ">=", "<", ">"])),
            "ADD_OP": _padded(st.sampled_from(["+", "-"])),
            "MUL_OP": _padded(st.sampled_from(["*", "/", "%"])),
            "COMMENT": st.just(" // note\n"),
            "BLOCK_COMMENT": st.just(" /* note\n */ "),
            "WS": st.sampled_from([" ", "\n", "\t", "\r\n"]),
        }
    )
    # Only the terminals reachable from `start` may be given (from_lark refuses the others).
    terminals, rules, ignored = lark.grammar.compile([start], ())
    used = {t.name for t in terminals} | set(ignored)
    used |= {sym.name for r in rules for sym in r.expansion if sym.is_term}
    missing = used - set(explicit)
    assert not missing, f"give these terminals a strategy: {sorted(missing)}"
    return from_lark(lark, start=start, explicit={k: v for k, v in explicit.items() if k in used})


# The grammar accepts a few things that the parser then rejects on purpose, each with its own code.
BY_DESIGN = {
    "E005",  # nesting deeper than MAX_NESTING
    "E008",  # a tool clause given twice: `tool_clause*` allows it, the builder reports it
}


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(grammar_strategy("module"))
def test_every_module_the_grammar_generates_parses_and_checks(text: str):
    try:
        parse_module(text, "gen.world")
    except ParseFailure as e:
        codes = {d.code for d in e.diagnostics}
        assert codes <= BY_DESIGN, (codes, [d.message for d in e.diagnostics])
    with tempfile.TemporaryDirectory() as tmp:  # generated imports resolve into an empty folder
        program = check_source(text, "gen.world", base_dir=tmp)
    assert_well_formed(program, text, "gen.world")


def test_the_grammar_strategy_really_produces_varied_modules():
    seen: set[str] = set()

    @settings(max_examples=60, deadline=None, derandomize=True, database=None)
    @given(grammar_strategy("module"))
    def collect(text):
        seen.update(re.findall(r"\b(service|tool|world|record|seed|constraint|rule|import|enum|pool|type)\b", text))

    collect()
    assert len(seen) >= 6, seen
