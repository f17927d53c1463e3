"""After a parse error: syntax and input errors come first, and the errors that are only its
consequences (names the broken file would have declared) are left out; real errors elsewhere
stay. Also the hints for an `if` written as a statement. The rule: docs/diagnostics.md,
"After a syntax error"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths, check_source
from compoworld_dsl.diagnostics import Diagnostic, Span, sort_diagnostics
from compoworld_dsl.resources import stdlib_dir
from compoworld_dsl.syntax.parser import IF_BRANCH_BLOCK, IF_MISSING_ELSE, IF_NEEDS_THEN, IF_NEEDS_THEN_CLAUSE, IF_STATEMENT

ROOT = Path(__file__).resolve().parent.parent
LEGAL_OPS_MODULES = ("matters", "contacts", "billing", "documents", "messaging", "docket", "timekeeping", "invoicing")
NO_ELSE = ("      title: trim(title),", "      title: if len(title) > 0 then trim(title),")


def _codes(program) -> list[tuple[str, str, str]]:
    return [(d.code, Path(d.span.file).name, d.message) for d in program.diagnostics]


@pytest.fixture
def legal_ops(tmp_path: Path) -> Path:
    """legal_ops.world and the stdlib modules it uses, copied side by side as local modules."""
    for name in LEGAL_OPS_MODULES:
        text = (stdlib_dir() / f"{name}.world").read_text(encoding="utf-8")
        (tmp_path / f"{name}.world").write_text(text.replace("stdlib.", ""), encoding="utf-8")
    world = (ROOT / "worlds" / "legal_ops.world").read_text(encoding="utf-8")
    (tmp_path / "legal_ops.world").write_text(world.replace("stdlib.", ""), encoding="utf-8")
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path.name}: `{old}` should occur once"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_copy_checks_clean(legal_ops: Path):
    program = check_paths([legal_ops / "legal_ops.world"])
    assert program.ok, _codes(program)


def test_missing_else_gives_the_parse_error_and_no_cascade(legal_ops: Path):
    # Before: 45 errors, the E001 37th, the rest "unknown type `MatterId`" and the like.
    _edit(legal_ops / "matters.world", *NO_ELSE)
    program = check_paths([legal_ops / "legal_ops.world"])
    [d] = program.diagnostics
    edited = (legal_ops / "matters.world").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(edited, 1) if text == NO_ELSE[1])  # (where the stdlib has it today)
    assert (d.code, Path(d.span.file).name, d.span.line) == ("E001", "matters.world", line)
    assert d.help == IF_MISSING_ELSE
    assert [label.message for label in d.labels] == ["the `if` without `else`"]
    assert d.labels[0].span.col == 14  # the `if`


def test_real_errors_in_importers_are_still_reported(legal_ops: Path):
    _edit(legal_ops / "matters.world", *NO_ELSE)
    _edit(legal_ops / "billing.world", "    matter: MatterId\n    bank:", "    matter: MaterId\n    bank:")  # a typo
    _edit(legal_ops / "legal_ops.world", "m.status == closed {", "m.status == closd {")  # another
    _edit(legal_ops / "contacts.world", "table[Contact]", "table[Contact]\n  state broken: int = \"one\"")  # no import of matters
    got = _codes(check_paths([legal_ops / "legal_ops.world"]))
    assert got[0][:2] == ("E001", "matters.world")
    assert got[1:] == [
        ("E102", "billing.world", "unknown type `MaterId`"),
        ("E307", "contacts.world", got[2][2]),
        ("E101", "legal_ops.world", "unknown name `closd`"),
    ], got


def test_parse_errors_come_first_across_files(tmp_path: Path):
    (tmp_path / "z_broken.world").write_text("service z {\n  state n: int = \n}\n", encoding="utf-8")
    (tmp_path / "a_fine.world").write_text('service a "A" {\n  state n: int = "one"\n}\n', encoding="utf-8")
    program = check_paths([tmp_path / "a_fine.world", tmp_path / "z_broken.world"])
    assert [(c, f) for c, f, _ in _codes(program)] == [("E001", "z_broken.world"), ("E307", "a_fine.world")]


def test_sort_puts_syntax_and_input_codes_first():
    later = Diagnostic("E201", "x", Span.point("a.world", 1, 1))
    first = Diagnostic("E004", "y", Span.point("z.world", 9, 1))
    assert sort_diagnostics([later, first]) == [first, later]


def test_two_files_one_broken_the_other_keeps_its_error(tmp_path: Path):
    """Checked together, neither importing the other: the parseable file's unknown type is real,
    even though the broken file mentions the same word."""
    (tmp_path / "broken.world").write_text("type Amount = money\nservice b {\n  state n: Amount =\n}\n", encoding="utf-8")
    (tmp_path / "other.world").write_text('service o "O" {\n  state total: Amount = 1\n}\n', encoding="utf-8")
    got = _codes(check_paths([tmp_path / "broken.world", tmp_path / "other.world"]))
    assert [(c, f) for c, f, _ in got] == [("E001", "broken.world"), ("E102", "other.world")], got
    assert got[1][2] == "unknown type `Amount`"


def test_importer_of_a_broken_file_has_no_cascade(tmp_path: Path):
    (tmp_path / "money.world").write_text(
        "type Amount = money\nenum Currency { eur, usd }\npool payees = [\"A\"]\nservice ledger {\n  state rate: int = 1 +\n}\n",
        encoding="utf-8",
    )
    (tmp_path / "shop.world").write_text(
        'import money\n\nservice shop "Shop" {\n'
        "  state total: Amount = 1\n"
        "  state currency: Currency = eur\n"
        "  tool pay(amount: Amount) -> Amount\n"
        '    say "pay {amount}"\n'
        "  {\n"
        "    let r = ledger.rate\n"
        "    return amount\n"
        "  }\n"
        "}\n",
        encoding="utf-8",
    )
    program = check_paths([tmp_path / "shop.world"])
    assert [(c, f) for c, f, _ in _codes(program)] == [("E001", "money.world")], _codes(program)


def test_world_using_a_broken_module(tmp_path: Path):
    (tmp_path / "desk.world").write_text("service desk {\n  state n: int = \n}\n", encoding="utf-8")
    (tmp_path / "w.world").write_text(
        'world w "W" {\n  use desk\n  rule r "r" { forall(x in desk.tickets: x.open) }\n}\n', encoding="utf-8"
    )
    got = _codes(check_paths([tmp_path / "w.world"]))
    assert [(c, f) for c, f, _ in got] == [("E001", "desk.world")], got


def test_unknown_name_the_broken_file_never_mentions_is_reported(tmp_path: Path):
    (tmp_path / "money.world").write_text("type Amount = money\nservice ledger {\n  state n: int =\n}\n", encoding="utf-8")
    (tmp_path / "shop.world").write_text('import money\nservice shop "Shop" {\n  state total: Amuont = 1\n}\n', encoding="utf-8")
    got = _codes(check_paths([tmp_path / "shop.world"]))
    assert [(c, f, m) for c, f, m in got][1:] == [("E102", "shop.world", "unknown type `Amuont`")], got


def test_imports_of_a_broken_file_are_still_followed(tmp_path: Path):
    """money.world fails; what it imports (ids.world) stays visible to its importer, and
    the errors in ids.world itself are reported."""
    (tmp_path / "ids.world").write_text('type PayId = id\nservice ids "Ids" {\n  state n: int = "x"\n}\n', encoding="utf-8")
    (tmp_path / "money.world").write_text("import ids\nservice ledger {\n  state n: int =\n}\n", encoding="utf-8")
    (tmp_path / "shop.world").write_text('import money\nservice shop "Shop" {\n  state last: PayId = "p1"\n}\n', encoding="utf-8")
    got = _codes(check_paths([tmp_path / "shop.world"]))
    assert [(c, f) for c, f, _ in got] == [("E001", "money.world"), ("E307", "ids.world")], got


def test_a_cycle_through_a_broken_file_is_not_reported(tmp_path: Path):
    (tmp_path / "a.world").write_text("import b\nservice a {\n  state n: int =\n}\n", encoding="utf-8")
    (tmp_path / "b.world").write_text('import a\nservice b "B" {\n  state n: int = 1\n}\n', encoding="utf-8")
    got = _codes(check_paths([tmp_path / "b.world"]))
    assert [c for c, _, _ in got] == ["E001"], got


def test_a_file_with_a_bad_byte_is_a_failed_file(tmp_path: Path):
    (tmp_path / "bad.world").write_bytes(b"\xff\xfe type Amount = money\n")
    (tmp_path / "shop.world").write_text('import bad\nservice shop "Shop" {\n  state total: Amount = 1\n}\n', encoding="utf-8")
    got = _codes(check_paths([tmp_path / "shop.world"]))
    assert [c for c, _, _ in got] == ["E004"], got


def test_an_import_too_large_to_read_hides_every_unknown_name(tmp_path: Path, monkeypatch):
    """Its text is never read, so any name may be declared there."""
    from compoworld_dsl.check import loader

    monkeypatch.setattr(loader, "MAX_FILE_BYTES", 120)
    (tmp_path / "big.world").write_text("// " + "x" * 200 + "\ntype Amount = money\n", encoding="utf-8")
    (tmp_path / "shop.world").write_text('import big\nservice shop "Shop" {\n  state total: Zzz = 1\n}\n', encoding="utf-8")
    got = _codes(check_paths([tmp_path / "shop.world"]))
    assert [(c, f) for c, f, _ in got] == [("E011", "shop.world")], got  # reported at the import


def test_check_source_of_a_broken_root(tmp_path: Path):
    shutil.copy(stdlib_dir() / "contacts.world", tmp_path / "contacts.world")
    program = check_source("import contacts\nservice s {\n  state c: ContactId =\n}\n", "s.world", base_dir=tmp_path)
    assert [d.code for d in program.diagnostics] == ["E001"]


# ─────────────────────────── `if` written as a statement ───────────────────────────


def _help(src: str) -> tuple[str, str]:
    [d] = check_source(src, "syntax.world").diagnostics
    return d.code, d.help or ""


@pytest.mark.parametrize(
    "src, code, label",
    [
        pytest.param("service s {\n  tool t(x: int) {\n    if x > 1 {\n      return 1\n    }\n  }\n}\n", "E001", IF_STATEMENT, id="c-style-statement"),
        pytest.param("service s {\n  tool t(x: int) {\n    if x > 1 then set n = 1\n  }\n}\n", "E001", IF_STATEMENT, id="statement-with-then"),
        pytest.param("service s {\n  tool t(x: int) {\n    let y = if x > 1 { 1 } else { 2 }\n  }\n}\n", "E001", IF_NEEDS_THEN, id="expr-without-then"),
        pytest.param("service s {\n  tool t(x: int) {\n    let y = if x > 1: 1 else 2\n  }\n}\n", "E001", IF_NEEDS_THEN, id="python-colon"),
        pytest.param("service s {\n  tool t(x: int) {\n    let y = if x > 1 then { 1 } else { 2 }\n  }\n}\n", "E001", IF_BRANCH_BLOCK, id="then-block"),
        pytest.param("service s {\n  tool t(x: int) {\n    let y = if x > 1 then 1 else { 2 }\n  }\n}\n", "E001", IF_BRANCH_BLOCK, id="else-block"),
        pytest.param("service s {\n  tool t(x: int) {\n    let y = if x > 1 then 1\n    return y\n  }\n}\n", "E001", IF_MISSING_ELSE, id="missing-else-let"),
        pytest.param("rule r { if x then y", "E003", IF_MISSING_ELSE, id="missing-else-at-eof"),
        pytest.param("rule r { if x then y }", "E001", IF_MISSING_ELSE, id="missing-else-rule"),
        pytest.param("constraint c {\n  if x {\n    invariant y\n  }\n}\n", "E001", IF_NEEDS_THEN_CLAUSE, id="clause-without-then"),
    ],
)
def test_if_hints(src: str, code: str, label: str):
    got_code, got_help = _help(src)
    assert (got_code, got_help) == (code, label)


def test_require_keeps_its_own_hint():
    _, got_help = _help("service s { tool t() { require x > 1 } }")
    assert got_help.startswith('a `require` needs `else KIND "message"`')


def test_the_hints_fit_where_if_is_allowed():
    """The advice is true: `if ... then ... else` parses as an expression, and a constraint's
    block form parses too."""
    program = check_source(
        'service s "S" {\n  state n: int = 0\n  tool t(x: int) say "t" {\n    set n = if x > 1 then 1 else 2\n  }\n'
        '  constraint c {\n    if n > 1 then {\n      invariant n < 5\n    } else {\n      invariant n >= 0\n    }\n  }\n}\n',
        "ok.world",
    )
    assert program.ok, _codes(program)
