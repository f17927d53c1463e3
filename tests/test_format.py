"""The canonical formatter: round trips over every example file, parenthesisation, strings,
every construct's canonical form, comments, and `worldc fmt`."""

import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compoworld_dsl.cli import main
from compoworld_dsl.diagnostics import Span
from compoworld_dsl.syntax import ast as A
from compoworld_dsl.syntax.format import format_expr, format_module, format_source, scan_comments
from compoworld_dsl.syntax.parser import ParseFailure, parse_expr, parse_module
from counting import calls_while  # tests/counting.py

ROOT = Path(__file__).resolve().parent.parent
# Globbed at collection time: new example files are covered without touching this test.
CORPUS = sorted(p for d in ("stdlib", "worlds", "tests/fixtures/ok") for p in (ROOT / d).rglob("*.world"))
S = Span("<test>", 1, 1, 1, 2)


def fmt(text: str) -> str:
    """Format, and check the properties every output must have."""
    out = format_source(text)
    assert parse_module(out) == parse_module(text)
    assert format_source(out) == out, "formatting is not idempotent"
    assert out == "" or (out.endswith("\n") and not out.endswith("\n\n"))
    want = scan_comments(text.replace("\r\n", "\n"))
    assert sorted(c.text for c in scan_comments(out)) == sorted(c.text for c in want)
    return out


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# ─────────────────────────── the example files ───────────────────────────


def test_corpus_is_found():
    assert any(p.parent.name == "stdlib" for p in CORPUS)
    assert any(p.parent.name == "worlds" for p in CORPUS)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_corpus_round_trips(path):
    src = path.read_text(encoding="utf-8")
    out = format_source(src, str(path))
    assert parse_module(out) == parse_module(src)
    assert format_source(out) == out
    for c in scan_comments(src):
        assert c.text in out
    assert sorted(c.text for c in scan_comments(out)) == sorted(c.text for c in scan_comments(src))


TRICKY_LEXING = r'''
/* a block with "quotes" and // slashes */
type A = id // a "quoted" word /* not a block */
pool p = ["http://example.com", "/* not a comment */", "esc \" // still string", "\\"] /* after */
// last
'''


@pytest.fixture(scope="module")
def lark_lexer():
    # A separate basic-lexer instance: the shared cached parser is left alone.
    from lark import Lark

    from compoworld_dsl.resources import grammar_path

    return Lark(grammar_path().read_text(encoding="utf-8"), parser="lalr", lexer="basic", start="module")


def test_comment_scanner_agrees_with_lark(lark_lexer):
    sources = [p.read_text(encoding="utf-8") for p in CORPUS] + [TRICKY_LEXING]
    for src in sources:
        want = [str(t) for t in lark_lexer.lex(src, dont_ignore=True) if t.type in ("COMMENT", "BLOCK_COMMENT")]
        assert [c.text for c in scan_comments(src)] == want


def test_tricky_lexing_keeps_strings_and_comments():
    out = fmt(TRICKY_LEXING)
    assert out == dedent(
        r'''
        /* a block with "quotes" and // slashes */
        type A = id // a "quoted" word /* not a block */

        pool p = ["http://example.com", "/* not a comment */", "esc \" // still string", "\\"] /* after */
        // last
        '''
    )


# ─────────────────────────── expressions ───────────────────────────

PARENS = [
    # arithmetic: left-associative, * / % above + -
    ("a + b + c", "a + b + c"),
    ("(a + b) + c", "a + b + c"),
    ("a + (b + c)", "a + (b + c)"),
    ("a - (b - c)", "a - (b - c)"),
    ("a - (b + c)", "a - (b + c)"),
    ("(a + b) * c", "(a + b) * c"),
    ("a + (b * c)", "a + b * c"),
    ("(a * b) % c", "a * b % c"),
    ("a / (b * c)", "a / (b * c)"),
    ("a % (b % c)", "a % (b % c)"),
    # unary minus and postfix
    ("-(a + b)", "-(a + b)"),
    ("-(a * b)", "-(a * b)"),
    ("a * -b", "a * -b"),
    ("a - -b", "a - -b"),
    ("- - a", "--a"),
    ("-(a.b)", "-a.b"),
    ("(-a).b", "(-a).b"),
    ("(a + b)[0]", "(a + b)[0]"),
    ("(xs)[(i + 1)].y", "xs[i + 1].y"),
    ("-5", "-5"),
    ("- 2.50", "-2.50"),
    # comparisons are non-associative
    ("(a == b) == c", "(a == b) == c"),
    ("a == (b < c)", "a == (b < c)"),
    ("(a in b) contains c", "(a in b) contains c"),
    ("(a + b) in c", "a + b in c"),
    ("a not in (b + c)", "a not in b + c"),
    ("(a not in b) == false", "(a not in b) == false"),
    # not, and, or, implies
    ("not (a and b)", "not (a and b)"),
    ("not a == b", "not a == b"),
    ("(not a) == b", "(not a) == b"),
    ("(not a) and b", "not a and b"),
    ("not not a", "not not a"),
    ("-(not a)", "-(not a)"),
    ("(a and b) and c", "a and b and c"),
    ("a and (b and c)", "a and (b and c)"),
    ("a or b and c", "a or b and c"),
    ("(a or b) and c", "(a or b) and c"),
    ("a or (b or c)", "a or (b or c)"),
    ("a implies b implies c", "a implies b implies c"),
    ("(a implies b) implies c", "(a implies b) implies c"),
    ("(a or b) implies c", "a or b implies c"),
    ("a or (b implies c)", "a or (b implies c)"),
    # conditionals bind loosest and swallow what follows `else`
    ("if a then b else c", "if a then b else c"),
    ("if a then b else (c implies d)", "if a then b else c implies d"),
    ("(if a then b else c) implies d", "(if a then b else c) implies d"),
    ("(if a then b else c) + 1", "(if a then b else c) + 1"),
    ("not (if a then b else c)", "not (if a then b else c)"),
    ("if (if a then b else c) then d else e", "if if a then b else c then d else e"),
    # atoms
    ("f(a + b, k: (c), )", "f(a + b, k: c)"),
    ("f()", "f()"),
    ("[(a), [b, c], ]", "[a, [b, c]]"),
    ("[]", "[]"),
    ("forall(x in (a + b) where (x > 1): (x < 2))", "forall(x in (a + b) where x > 1: x < 2)"),
    ("forall(x in t.rows: if x.ok then 1 else 2)", "forall(x in t.rows: if x.ok then 1 else 2)"),
    ("exists(x in (-xs) where x.ok)", "exists(x in (-xs) where x.ok)"),
    ("count(x in t where x.ok by x.k)", "count(x in t where x.ok by x.k)"),
    ("latest(x in t by (x.k + 1))", "latest(x in t by x.k + 1)"),
    ("sum(x.v * 2 for x in (ys) where x.ok)", "sum(x.v * 2 for x in ys where x.ok)"),
    ("map((x) for x in xs[0])", "map(x for x in xs[0])"),
    ("(count(x in t)) + 1", "count(x in t) + 1"),
    ("x.state == done and t.count > 0", "x.state == done and t.count > 0"),
    ("2025-03-01 + days(1) <= 2025-03-01T09:30", "2025-03-01 + days(1) <= 2025-03-01T09:30"),
    ("09:30 != 1.50", "09:30 != 1.50"),
    ("true or false", "true or false"),
]


@pytest.mark.parametrize("source, canonical", PARENS)
def test_parenthesisation(source, canonical):
    tree = parse_expr(source)
    assert format_expr(tree) == canonical
    assert parse_expr(canonical) == tree
    assert format_expr(parse_expr(canonical)) == canonical


NAMES = st.sampled_from(["a", "b", "xs", "n"])
OPS = st.sampled_from(
    ["implies", "or", "and", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "contains", "+", "-", "*", "/", "%"]
)
LEAVES = st.one_of(
    NAMES.map(lambda n: A.Var(n, span=S)),
    st.integers(0, 99).map(lambda i: A.Literal("int", i, span=S)),
    st.sampled_from(["a", 'q"', "\n"]).map(lambda s: A.Literal("string", s, span=S)),
    st.booleans().map(lambda b: A.Literal("bool", b, span=S)),
)


def _compound(sub):
    maybe = st.none() | sub
    return st.one_of(
        st.builds(lambda op, l, r: A.Binary(op, l, r, span=S), OPS, sub, sub),
        st.builds(lambda op, e: A.Unary(op, e, span=S), st.sampled_from(["-", "not"]), sub),
        st.builds(lambda a, b, c: A.Cond(a, b, c, span=S), sub, sub, sub),
        st.builds(lambda e, n: A.Field(e, n, span=S), sub, NAMES),
        st.builds(lambda e, k: A.Index(e, k, span=S), sub, sub),
        st.builds(lambda xs: A.ListLit(tuple(xs), span=S), st.lists(sub, max_size=2)),
        st.builds(
            lambda xs: A.Call("f", tuple(A.Arg(n, x, span=S) for n, x in xs), span=S),
            st.lists(st.tuples(st.none() | NAMES, sub), max_size=2),
        ),
        st.builds(lambda d, w, b: A.Quant("forall", "x", d, w, b, span=S), sub, maybe, sub),
        st.builds(lambda d, w: A.Quant("exists", "x", d, w, None, span=S), sub, maybe),
        st.builds(lambda d, w, by: A.Select("latest", "x", d, w, by, span=S), sub, maybe, maybe),
        st.builds(lambda e, d, w: A.Project("sum", e, "x", d, w, span=S), sub, sub, maybe),
    )


EXPRS = st.recursive(LEAVES, _compound, max_leaves=12)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRS)
def test_any_expression_tree_survives_printing(tree):
    text = format_expr(tree)
    assert parse_expr(text) == tree
    assert format_expr(parse_expr(text)) == text


# ─────────────────────────── strings and constants ───────────────────────────


@pytest.mark.parametrize(
    "value, text",
    [
        ('say "hi"', r'"say \"hi\""'),
        ("back\\slash \\n", r'"back\\slash \\n"'),
        ("line\nbreak\ttab\rcr\0nul", r'"line\nbreak\ttab\rcr\0nul"'),
        ("café ✓ 日本 😀", '"café ✓ 日本 😀"'),
        ("\x01\x7f\u2028", r'"\u0001\u007f\u2028"'),
        ("", '""'),
    ],
)
def test_string_literals_are_reencoded(value, text):
    lit = A.Literal("string", value, span=S)
    assert format_expr(lit) == text
    assert parse_expr(text) == lit


def test_string_escapes_in_every_position():
    src = r'''
    import "lib/a\u0020b.world"
    pool p = ["tab\there", "\u00e9t\u00e9"]
    service s "a \"quoted\" service" {
      tool t(x: text = "back\\slash")
        "line one\nline two"
        say "say \"{x}\""
      {
        require x != "" else invalid "empty \"x\"\r\n"
      }
      seed name: format("\"{}\"", pick(["a\0b"]))
    }
    '''
    out = fmt(dedent(src))
    assert out == dedent(
        r'''
        import "lib/a b.world"

        pool p = ["tab\there", "été"]

        service s "a \"quoted\" service" {
          tool t(x: text = "back\\slash")
            "line one\nline two"
            say "say \"{x}\""
          {
            require x != "" else invalid "empty \"x\"\r\n"
          }

          seed name: format("\"{}\"", pick(["a\0b"]))
        }
        '''
    )


def test_negative_and_decimal_constants():
    src = """
    pool ints = [ - 1, -20, 3 ]
    pool decimals = [-0.50, 1.250, - 2.0]
    service s {
      record R { key id: id  score: int = - 5  ratio: decimal = -0.10 }
      state total: int = -7
      seed total: -9..-1
      seed rows: 1..2 rows { score: weighted(-1: 2, 0: 1)  ratio: pick([-1.5, 2.00]) }
      tool t(limit: int = -3) { return -limit - -2 }
    }
    """
    out = fmt(dedent(src))
    assert out == dedent(
        """
        pool ints = [-1, -20, 3]
        pool decimals = [-0.50, 1.250, -2.0]

        service s {
          record R {
            key id: id
            score: int = -5
            ratio: decimal = -0.10
          }
          state total: int = -7

          seed total: -9..-1
          seed rows: 1..2 rows {
            score: weighted(-1: 2, 0: 1)
            ratio: pick([-1.5, 2.00])
          }

          tool t(limit: int = -3) {
            return -limit - -2
          }
        }
        """
    )


# ─────────────────────────── declarations ───────────────────────────


def test_declarations_one_per_line_with_groups():
    src = """
    import stdlib.tasks import "x.world" type A=id type B = list[table[A]] enum E{a,b,c,}
    enum F { x } pool p=[1,2] pool q = ["a"]
    service s "d" { state n: int record R { key id : A   name:text="n" } state rs:table[R]
    seed rs : 2 rows { name : pick ( p ) } seed n: 3 tool a() {} tool b() -> A { return 1 } }
    world w { use stdlib.tasks, x.y use a
    constraint c { invariant true } rule r { true } }
    """
    out = fmt(dedent(src))
    assert out == dedent(
        """
        import stdlib.tasks
        import "x.world"

        type A = id
        type B = list[table[A]]

        enum E { a, b, c }
        enum F { x }

        pool p = [1, 2]
        pool q = ["a"]

        service s "d" {
          state n: int
          record R {
            key id: A
            name: text = "n"
          }
          state rs: table[R]

          seed rs: 2 rows {
            name: pick(p)
          }
          seed n: 3

          tool a() {}

          tool b() -> A {
            return 1
          }
        }

        world w {
          use stdlib.tasks, x.y
          use a

          constraint c {
            invariant true
          }

          rule r {
            true
          }
        }
        """
    )


def test_seed_generators():
    src = """
    service s { seed rows: 1..3 rows {
      a: 5  b: 1..9  c: 2025-03-01..2025-03-31  d: 09:00..17:30  e: 2025-03-01T09:00..2025-03-02T09:00
      f: pick(pool)  g: pick(["x", "y",])  h: weighted(open: 3, closed: 1,)  i: ref other.rows
      j: format("{}-{}", pick(p), 1..5)  k: format("plain")  l: true  m: open
    } }
    """
    out = fmt(dedent(src))
    assert out == dedent(
        """
        service s {
          seed rows: 1..3 rows {
            a: 5
            b: 1..9
            c: 2025-03-01..2025-03-31
            d: 09:00..17:30
            e: 2025-03-01T09:00..2025-03-02T09:00
            f: pick(pool)
            g: pick(["x", "y"])
            h: weighted(open: 3, closed: 1)
            i: ref other.rows
            j: format("{}-{}", pick(p), 1..5)
            k: format("plain")
            l: true
            m: open
          }
        }
        """
    )


def test_lists_stay_broken_where_their_author_broke_them():
    src = """
    pool short = ["a", "b"]
    pool long = [
      "a", "b"]
    service s { tool t() {
      insert rows { a: 1, b: 2 }
      let r = insert rows {
        a: 1, b: 2 }
      update rows[1] {
        a: 1
      }
    } }
    """
    out = fmt(dedent(src))
    assert out == dedent(
        """
        pool short = ["a", "b"]
        pool long = [
          "a",
          "b",
        ]

        service s {
          tool t() {
            insert rows { a: 1, b: 2 }
            let r = insert rows {
              a: 1,
              b: 2,
            }
            update rows[1] {
              a: 1,
            }
          }
        }
        """
    )


# ─────────────────────────── tools ───────────────────────────


def test_tool_header_clauses_in_canonical_order():
    src = """
    service s { tool t(a: int, b: text = "x",) -> list[R] produces B, C consumes A say "do {a}" "Describe it" {
      return a } }
    """
    out = fmt(dedent(src))
    assert out == dedent(
        """
        service s {
          tool t(a: int, b: text = "x") -> list[R]
            "Describe it"
            say "do {a}"
            consumes A
            produces B, C
          {
            return a
          }
        }
        """
    )


def test_every_statement_kind():
    src = """
    service s { tool t(id: id) -> R "d" {
      require id in rows else not_found "no {id}"
      require a else invalid "i"  require b else conflict "c"  require c else forbidden "f"
      let x = rows[id]
      let r = insert rows { a: 1, b: x.b }
      insert rows {}
      update rows[id] { a: 2 }
      update n in rows where n.a > 1 and n.b { a: 3 }
      delete rows[id]
      delete n in rows where n.a == 0
      set counter = counter + 1
      modifies rows
      modifies rows { a, b, }
      ensures count(n in rows) >= 1
      return r
    } }
    """
    out = fmt(dedent(src))
    assert out == dedent(
        """
        service s {
          tool t(id: id) -> R
            "d"
          {
            require id in rows else not_found "no {id}"
            require a else invalid "i"
            require b else conflict "c"
            require c else forbidden "f"
            let x = rows[id]
            let r = insert rows { a: 1, b: x.b }
            insert rows {}
            update rows[id] { a: 2 }
            update n in rows where n.a > 1 and n.b { a: 3 }
            delete rows[id]
            delete n in rows where n.a == 0
            set counter = counter + 1
            modifies rows
            modifies rows { a, b }
            ensures count(n in rows) >= 1
            return r
          }
        }
        """
    )


def test_simulated_tools():
    src = """
    service s {
      simulated tool summarize(id: id) -> text "Summarise a document" say "summarise {id}" {}
      simulated tool guess() -> int { modifies rows { a }  ensures result >= 0 }
      simulated tool nothing() {}
    }
    """
    out = fmt(dedent(src))
    assert out == dedent(
        """
        service s {
          simulated tool summarize(id: id) -> text
            "Summarise a document"
            say "summarise {id}"
          {}

          simulated tool guess() -> int {
            modifies rows { a }
            ensures result >= 0
          }

          simulated tool nothing() {}
        }
        """
    )
    module = parse_module(out)
    assert [t.simulated for t in module.items[0].members] == [True, True, True]


# ─────────────────────────── constraints ───────────────────────────


def test_every_clause_kind():
    src = """
    constraint c "every clause" { untouched d in docs.docs where d.locked untouched d in docs.docs
    untouched docs.docs where folder == "/a" untouched docs.docs
    forall d in docs.docs where d.size > 0 { invariant d.size < 10 forall e in docs.docs {} }
    if a then { invariant b } else { if c then { invariant d } }
    if a then {} if a then { invariant b } else {}
    invariant forall(d in docs.docs: d.ok)
    order docs.lock after docs.open on id, folder order lock after open }
    rule r "a rule" { forall(d in docs.docs: d.ok) }
    rule bare { (a or b) and c }
    """
    out = fmt(dedent(src))
    assert out == dedent(
        """
        constraint c "every clause" {
          untouched d in docs.docs where d.locked
          untouched d in docs.docs
          untouched docs.docs where folder == "/a"
          untouched docs.docs
          forall d in docs.docs where d.size > 0 {
            invariant d.size < 10
            forall e in docs.docs {}
          }
          if a then {
            invariant b
          } else {
            if c then {
              invariant d
            }
          }
          if a then {}
          if a then {
            invariant b
          } else {}
          invariant forall(d in docs.docs: d.ok)
          order docs.lock after docs.open on id, folder
          order lock after open
        }

        rule r "a rule" {
          forall(d in docs.docs: d.ok)
        }

        rule bare {
          (a or b) and c
        }
        """
    )
    c = parse_module(out).items[0]
    assert [u.var for u in c.clauses[:4]] == ["d", "d", None, None]
    assert c.clauses[7].else_ == () and c.clauses[6].else_ is None


def test_rule_and_one_clause_constraint_stay_distinct():
    out = fmt("rule r { x }\nconstraint c { invariant x }\n")
    assert out == "rule r {\n  x\n}\n\nconstraint c {\n  invariant x\n}\n"
    rule, constraint = parse_module(out).items
    assert rule.is_rule and not constraint.is_rule


# ─────────────────────────── comments ───────────────────────────


def test_leading_trailing_and_block_comments():
    src = """
    /* File header,
       two lines. */

    // About A.
    type A = id // the key type
    type B = text /* inline */ // and a line comment

    service s "d" { // on the service line
      record R {
        key id: A // the key
        // before name
        name: text
        /* last in R */
      } // after R
      state rs: table[R]
    }
    enum E { a, // first
      b }
    // the end

    /* really the end */
    """
    out = fmt(dedent(src))
    assert out == dedent(
        """
        /* File header,
           two lines. */

        // About A.
        type A = id // the key type
        type B = text /* inline */ // and a line comment

        service s "d" { // on the service line
          record R {
            key id: A // the key
            // before name
            name: text
            /* last in R */
          } // after R
          state rs: table[R]
        }

        enum E {
          a, // first
          b,
        }
        // the end

        /* really the end */
        """
    )


def test_comments_in_tools_and_expressions():
    src = """
    service s {
      // about t
      tool t(a: int, // the a
             b: int) -> int // returns an int
        // before the description
        "Describe" // on the description
        say "do it" /* on say */
        // before the body
      { // on the brace
        // first statement
        require a > 0 // why
          and b > 0 else invalid "m"
        let x = a +
          // inside an expression
          b
        // end of body
      } // after t

      tool u() { // on u
      }
    }
    """
    out = fmt(dedent(src))
    assert out == dedent(
        """
        service s {
          // about t
          // the a
          tool t(a: int, b: int) -> int // returns an int
            // before the description
            "Describe" // on the description
            say "do it" /* on say */
            // before the body
          { // on the brace
            // first statement
            require a > 0 and b > 0 else invalid "m" // why
            // inside an expression
            let x = a + b
            // end of body
          } // after t

          tool u() { // on u
          }
        }
        """
    )


def test_comments_in_constraints():
    src = """
    constraint c {
      if a then { // then
        invariant b
        // end of then
      }
      // between the blocks
      else {
        // only in else
      }
      forall x in t.u { /* empty but commented */ }
    }
    rule r {
      // before the expression
      x > 1 // after it
    }
    """
    out = fmt(dedent(src))
    assert out == dedent(
        """
        constraint c {
          if a then { // then
            invariant b
            // end of then
            // between the blocks
          } else {
            // only in else
          }
          forall x in t.u { /* empty but commented */
          }
        }

        rule r {
          // before the expression
          x > 1 // after it
        }
        """
    )


def test_comment_only_and_empty_files():
    assert fmt("") == ""
    assert fmt("\n\n") == ""
    assert fmt("// only a comment") == "// only a comment\n"
    assert fmt("  /* a */   // b\n\n\n") == "/* a */\n// b\n"


def test_windows_line_endings():
    assert fmt("type A = id // key\r\n\r\n// next\r\ntype B = id\r\n") == "type A = id // key\n// next\ntype B = id\n"


def test_format_module_without_comments_matches_format_source():
    src = (ROOT / "worlds" / "toy.world").read_text(encoding="utf-8")
    module = parse_module(src)
    bare = format_module(module)
    assert "//" not in bare
    assert parse_module(bare) == module
    assert format_source(bare) == bare


def test_parse_errors_propagate():
    with pytest.raises(ParseFailure) as e:
        format_source("service s {", "bad.world")
    assert e.value.diagnostics[0].span.file == "bad.world"


def test_comment_placement_is_linear_in_comments():
    """Each comment finds the declarations around it by bisection, not by scanning every one
    before it (a 1.5 MB imported world took 123 s): twice the comments, twice the work."""
    import importlib.util

    from compoworld_dsl.syntax.format import _attach

    spec = importlib.util.spec_from_file_location("import_scale", ROOT / "bench" / "import_scale.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    work = {}
    for n in (400, 800):
        text = bench.commented_world(n)
        assert format_source(text) == text  # canonical: every comment placed where it was
        module, comments = parse_module(text), scan_comments(text)
        assert len(comments) == n + 1
        work[n] = calls_while(_attach, module, comments)
    assert work[800] <= 2.2 * work[400], work  # the scan of every declaration: x3.7


# ─────────────────────────── worldc fmt ───────────────────────────

MESSY = 'type  A=id\nservice s "d"{record R{key id:A}  state rs:table[R] tool t(){return 1}}\n'
CANONICAL = dedent(
    """
    type A = id

    service s "d" {
      record R {
        key id: A
      }
      state rs: table[R]

      tool t() {
        return 1
      }
    }
    """
)


def test_worldc_fmt_check_then_rewrite(tmp_path, capsys):
    messy = tmp_path / "messy.world"
    messy.write_text(MESSY, encoding="utf-8")
    tidy = tmp_path / "sub" / "tidy.world"
    tidy.parent.mkdir()
    tidy.write_text(CANONICAL, encoding="utf-8")

    assert main(["fmt", "--check", str(tmp_path)]) == 1
    assert messy.read_text(encoding="utf-8") == MESSY  # --check changes nothing
    err = capsys.readouterr().err
    assert f"would reformat {messy}" in err and "tidy.world" not in err

    assert main(["fmt", str(messy)]) == 0
    assert messy.read_text(encoding="utf-8") == CANONICAL
    assert f"reformatted {messy}" in capsys.readouterr().err
    assert main(["fmt", "--check", str(tmp_path)]) == 0
    assert main(["fmt", str(tmp_path)]) == 0
    assert "reformatted" not in capsys.readouterr().err


def test_worldc_fmt_reports_parse_errors(tmp_path, capsys):
    bad = tmp_path / "bad.world"
    bad.write_text("service s {\n", encoding="utf-8")
    assert main(["fmt", "--check", str(bad)]) == 1
    assert main(["fmt", str(bad)]) == 1
    assert bad.read_text(encoding="utf-8") == "service s {\n"
    assert "E003" in capsys.readouterr().err


def test_long_expressions_break_at_boolean_operators_and_quantifier_bodies():
    cond = " and ".join(f"count(r in rows where r.n == {i}) > {i}" for i in range(6))
    src = (
        "service s {\n  record R { key id: id  n: int }\n  state rows: table[R]\n"
        f'  tool t() -> bool say "t" {{\n    require {cond} else invalid "no"\n    return forall(r in rows where r.n > 0: {cond})\n  }}\n}}\n'
    )
    out = format_source(src)
    assert format_source(out) == out
    assert parse_module(out) == parse_module(src)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert any(line.strip().startswith("and count(") for line in lines)
    assert any(line.rstrip().endswith("where r.n > 0:") for line in lines)
