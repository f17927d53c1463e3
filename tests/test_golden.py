"""Golden files for valid input: each `tests/fixtures/ok/NAME.world` parses to the AST dumped in NAME.ast.txt.
Run with UPDATE_GOLDEN=1 to rewrite the dumps after an intended change; review the diff before committing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import attrs
import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.syntax import ast as A
from compoworld_dsl.syntax.parser import parse_module

OK = Path(__file__).resolve().parent / "fixtures" / "ok"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def _scalar(v: object) -> str:
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, tuple):
        return "[" + ", ".join(_scalar(x) for x in v) + "]"
    return repr(v)


def _is_node(v: object) -> bool:
    return attrs.has(type(v))


def _dumped_fields(node: object) -> list[tuple[str, object]]:
    # Exactly what AST equality compares: spans (and any other eq=False position data) are left out.
    return [(f.name, getattr(node, f.name)) for f in attrs.fields(type(node)) if f.eq]


def dump(node: object) -> str:
    """An indented, line-per-field dump of an AST; stable across runs and readable in a diff."""
    lines: list[str] = []

    def is_leaf(n: object) -> bool:
        return all(not _is_node(v) and not (isinstance(v, tuple) and any(_is_node(x) for x in v)) for _, v in _dumped_fields(n))

    def one_line(n: object) -> str:
        return f"{type(n).__name__}(" + ", ".join(f"{k}={_scalar(v)}" for k, v in _dumped_fields(n)) + ")"

    def emit(n: object, indent: int, prefix: str = "") -> None:
        pad = "  " * indent
        if is_leaf(n):
            lines.append(f"{pad}{prefix}{one_line(n)}")
            return
        lines.append(f"{pad}{prefix}{type(n).__name__}")
        for name, value in _dumped_fields(n):
            if _is_node(value):
                emit(value, indent + 1, f"{name}: ")
            elif isinstance(value, tuple) and value and all(_is_node(x) for x in value):
                lines.append(f"{pad}  {name}:")
                for item in value:
                    emit(item, indent + 2, "- ")
            else:
                lines.append(f"{pad}  {name}: {_scalar(value)}")

    emit(node, 0)
    return "\n".join(lines) + "\n"


def ok_files() -> list[Path]:
    return sorted(OK.glob("*.world"))


def test_dump_leaves_out_spans_and_shows_every_other_field():
    a = parse_module("pool p = [1, -2]\n", "a.world")
    b = parse_module("\n\n  pool   p = [ 1 ,\n -2 ]", "b.world")
    assert dump(a) == dump(b)
    assert dump(a) == (
        "Module\n"
        "  items:\n"
        "    - PoolDecl\n"
        '      name: "p"\n'
        "      values:\n"
        '        - Literal(kind="int", value=1)\n'
        '        - Literal(kind="int", value=-2)\n'
    )
    assert dump(parse_module("pool p = [1, 3]")) != dump(a)


@pytest.mark.parametrize("path", ok_files(), ids=lambda p: p.stem)
def test_ast_matches_golden_dump(path: Path):
    golden = path.with_suffix(".ast.txt")
    got = dump(parse_module(path.read_bytes(), path.name))
    if UPDATE or not golden.exists():
        golden.write_text(got, encoding="utf-8")
        if not UPDATE:
            pytest.skip(f"wrote {golden.name}; review it and commit it")
        return
    assert got == golden.read_text(encoding="utf-8"), f"AST of {path.name} changed; rerun with UPDATE_GOLDEN=1 if intended"


@pytest.mark.parametrize("path", ok_files(), ids=lambda p: p.stem)
def test_ok_fixture_checks_clean(path: Path):
    program = check_paths([path])
    assert program.errors == [], "\n".join(f"{d.span}: {d.code} {d.message}" for d in program.errors)
    assert program.model is not None


def test_every_golden_dump_has_its_world_file():
    stale = [p.name for p in OK.glob("*.ast.txt") if not p.with_name(p.name.replace(".ast.txt", ".world")).exists()]
    assert not stale


def test_ok_fixtures_use_every_ast_node_class():
    classes = {name for name, obj in vars(A).items() if isinstance(obj, type) and attrs.has(obj) and obj.__module__ == A.__name__}
    seen = set()
    for path in ok_files():
        seen |= {type(n).__name__ for n in A.walk(parse_module(path.read_bytes(), path.name))}
    assert classes - seen == set()


def test_ok_fixtures_use_every_grammar_rule_and_operator():
    # Reaches into the parser module for the cached Lark object: the only way to see which
    # grammar alternatives a parse took, since no Lark tree leaves the public API.
    from compoworld_dsl.syntax.parser import _keyword_as_name, _lark

    lark = _lark()
    rules = set()
    for r in lark.rules:
        name = str(r.alias or r.origin.name)
        if (r.alias is None and r.options.expand1) or name.startswith("_"):
            continue  # inlined `?rule` alternatives and Lark's helper rules make no tree node
        rules.add(name)
    seen_rules: set[str] = set()
    seen_tokens: set[str] = set()
    for path in ok_files():
        tree = lark.parse(path.read_text(encoding="utf-8"), start="module", on_error=_keyword_as_name)
        for sub in tree.iter_subtrees():
            seen_rules.add(str(sub.data))
            seen_tokens |= {str(c) for c in sub.children if not hasattr(c, "data")}
    assert rules - seen_rules == set()
    operators = {"==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"}
    words = {"not_found", "invalid", "conflict", "forbidden", "count", "filter", "latest", "earliest", "sum", "min", "max", "map"}
    assert (operators | words) - seen_tokens == set()


def test_operator_precedence_and_associativity_in_the_ast():
    from compoworld_dsl.syntax.parser import parse_expr

    def shape(e: object) -> object:
        if isinstance(e, A.Binary):
            return (shape(e.left), e.op, shape(e.right))
        if isinstance(e, A.Unary):
            return (e.op, shape(e.operand))
        if isinstance(e, A.Var):
            return e.name
        if isinstance(e, A.Literal):
            return e.value
        return type(e).__name__

    assert shape(parse_expr("a - b - c")) == (("a", "-", "b"), "-", "c")
    assert shape(parse_expr("a + b * c")) == ("a", "+", ("b", "*", "c"))
    assert shape(parse_expr("a implies b implies c")) == ("a", "implies", ("b", "implies", "c"))
    assert shape(parse_expr("a or b and c")) == ("a", "or", ("b", "and", "c"))
    assert shape(parse_expr("not a and b")) == (("not", "a"), "and", "b")
    assert shape(parse_expr("not a == b")) == ("not", ("a", "==", "b"))
    assert shape(parse_expr("a not in b")) == ("a", "not in", "b")
    assert shape(parse_expr("-a * b")) == (("-", "a"), "*", "b")
    assert shape(parse_expr("a + 1 < b")) == (("a", "+", 1), "<", "b")
