"""The examples in docs/language.md and docs/diagnostics.md are real: they check, parse, or
produce the documented code. Each failure names the docs file and the line of the block.

Conventions in the docs: a `world` block is a whole file; a `world-expr` block is one expression;
in diagnostics.md, `file=NAME` saves the example under NAME and `also=E301,...` lists codes that
necessarily come with the section's code. A `<!-- bug: WHY -->` line right above a block marks
its test xfail(strict=True) until the checker is fixed."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

from compoworld_dsl.check import check_source
from compoworld_dsl.diagnostics import CODES
from compoworld_dsl.syntax.parser import ParseFailure, parse_expr

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE = ROOT / "docs" / "language.md"
DIAGNOSTICS = ROOT / "docs" / "diagnostics.md"

_FENCE = re.compile(r"^```(\S*)(.*)$")
_HEADING = re.compile(r"^#{2,6}\s+`?([EW]\d{3})\b")
_BUG = re.compile(r"^<!--\s*bug:\s*(.*?)\s*-->$")


@attrs.frozen
class Block:
    doc: str  # file name, for messages
    line: int  # 1-based line of the opening fence
    lang: str
    options: dict
    text: str
    heading_code: str | None  # the code of the nearest `## E123 ...` heading above, if any
    bug: str | None  # from a `<!-- bug: ... -->` line right above the fence

    @property
    def where(self) -> str:
        return f"docs/{self.doc}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """Every fenced block of a markdown file, with its line number and context."""
    out: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    code: str | None = None
    bug: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _HEADING.match(line)
        if m:
            code = m.group(1)
        elif line.startswith("#"):
            code = None
        fence = _FENCE.match(line)
        if fence:
            lang, rest = fence.group(1), fence.group(2)
            options = dict(opt.split("=", 1) for opt in rest.split() if "=" in opt)
            start = i + 1
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            assert j < len(lines), f"docs/{path.name}:{i + 1}: a code block is never closed"
            out.append(Block(path.name, i + 1, lang, options, "\n".join(lines[start:j]) + "\n", code, bug))
            bug = None
            i = j + 1
            continue
        b = _BUG.match(line.strip())
        if b:
            bug = b.group(1)
        elif line.strip():
            bug = None
        i += 1
    return out


def _params(path: Path, lang: str) -> list:
    found = [b for b in blocks(path) if b.lang == lang]
    marks = lambda b: [pytest.mark.xfail(strict=True, reason=f"BUG: {b.bug}")] if b.bug else []  # noqa: E731
    return [pytest.param(b, id=b.where, marks=marks(b)) for b in found]


def _render(program) -> str:
    return "\n".join(f"  {d.code} {d.span.line}:{d.span.col} {d.message}" for d in program.diagnostics) or "  (none)"


# ─────────────────────────── language.md ───────────────────────────


@pytest.mark.parametrize("block", _params(LANGUAGE, "world"))
def test_language_world_block_checks_clean(block: Block):
    program = check_source(block.text, f"language_md_line_{block.line}.world", base_dir=ROOT)
    assert program.ok, f"{block.where}: the example does not check:\n{_render(program)}"


@pytest.mark.parametrize("block", _params(LANGUAGE, "world-expr"))
def test_language_expression_block_parses(block: Block):
    try:
        parse_expr(block.text, block.where)
    except ParseFailure as e:
        pytest.fail(f"{block.where}: the expression does not parse: " + "; ".join(f"{d.code} {d.message}" for d in e.diagnostics))


def test_language_doc_has_examples():
    kinds = {b.lang for b in blocks(LANGUAGE)}
    assert {"world", "world-expr"} <= kinds
    assert len([b for b in blocks(LANGUAGE) if b.lang == "world"]) >= 20


# ─────────────────────────── diagnostics.md ───────────────────────────


@pytest.mark.parametrize("block", _params(DIAGNOSTICS, "world"))
def test_diagnostics_example_produces_its_code(block: Block, tmp_path: Path):
    assert block.heading_code is not None, f"{block.where}: a `world` example outside a code's section"
    # Written to disk under its name, so an example may import itself (E502).
    name = block.options.get("file", "example.world")
    (tmp_path / name).write_text(block.text, encoding="utf-8")
    program = check_source(block.text, name, base_dir=tmp_path)
    codes = {d.code for d in program.diagnostics}
    assert block.heading_code in codes, f"{block.where}: expected {block.heading_code}, got:\n{_render(program)}"
    allowed = {block.heading_code, *filter(None, block.options.get("also", "").split(","))}
    assert codes <= allowed, f"{block.where}: other codes than {sorted(allowed)} (list them with also=):\n{_render(program)}"


def test_every_code_has_a_section_in_order():
    headings = [m.group(1) for line in DIAGNOSTICS.read_text(encoding="utf-8").splitlines() if (m := _HEADING.match(line))]
    assert headings == list(CODES), "docs/diagnostics.md must have one section per code in CODES, in registry order"


def test_every_code_that_a_file_can_trigger_has_an_example():
    with_example = {b.heading_code for b in blocks(DIAGNOSTICS) if b.lang == "world"}
    text = DIAGNOSTICS.read_text(encoding="utf-8")
    for code in CODES:
        if code in with_example:
            continue
        section = text.split(f"### {code}", 1)[1].split("\n### ", 1)[0]
        assert "No example" in section, f"{code}: give an example, or say why no file can trigger it (`No example`)"


def test_invalid_utf8_is_E004():
    program = check_source(b"service s \xff {}\n", "latin1.world", base_dir=ROOT)
    assert [d.code for d in program.diagnostics] == ["E004"]


def test_unreadable_file_is_E009(tmp_path: Path):
    from compoworld_dsl.check import check_paths

    program = check_paths([tmp_path / "missing.world"])
    assert [d.code for d in program.diagnostics] == ["E009"]
