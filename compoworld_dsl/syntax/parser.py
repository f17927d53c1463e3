"""Parse `.world` text into the AST and turn every Lark error into our diagnostics.
No Lark `Tree` or `Token` leaves this module; it does no name or type checking."""

from __future__ import annotations

import contextvars
import functools
import gc
import re
from datetime import date, datetime, time

import attrs

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..diagnostics import Diagnostic, Label, Span
from ..resources import grammar_path
from . import ast as A

# Deeper trees than this are refused: every later pass walks them recursively.
MAX_NESTING = 120

# Number literals must fit what every back end represents exactly: a signed 64-bit integer, and
# decimals that a 64-bit count of 10**-18 units holds. Python would take more, but would refuse
# to convert one of over 4,300 digits to text, and Z3 and JSON consumers would see other values.
INT_MAX = 2**63 - 1
DECIMAL_DIGITS = 18  # at most this many before the point, and this many after it


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    return Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        strict=True,
        propagate_positions=True,
        maybe_placeholders=False,
        start=["module", "expr"],
        tree_class=_node,
    )


# The builder of the parse running in this thread (or task), if any; see `_node`.
_BUILDER: contextvars.ContextVar["_Builder | None"] = contextvars.ContextVar("world_builder", default=None)


def _node(data: str, children: list) -> Tree:
    """Lark's `tree_class`: builds the AST while the parser reduces, not after.

    A whole Lark tree costs ~150 times the source text (each node carries a Meta object with a
    dict of 13 positions); built and then transformed, it made a 10 MB world need gigabytes.
    Here, when a rule is reduced, the children it got as Lark trees become AST nodes at once,
    so a Lark tree lives only until its parent is reduced. The node returned is still a Lark
    `Tree`, as Lark needs one to attach the rule's positions to after this call; its own
    children are converted when its parent is reduced (or by `_parse`, for the root).

    Lark's helper rules for `x*` (names starting with `_`) are spliced into their parent, so
    their children are left for the parent to convert. Outside a parse of ours (the golden
    tests read raw trees from `_lark()`), this is just `Tree`.
    """
    builder = _BUILDER.get()
    if builder is None or data[0] == "_":
        return Tree(data, children)
    depth, deepest = 0, None
    converted = []
    for c in children:
        # a tree made here and not yet built has a depth; anything else is a built value
        if isinstance(c, Tree) and "depth" in c.__dict__:
            if c.depth > depth:
                depth, deepest = c.depth, c.deepest
            c = builder.build(c)
        converted.append(c)
    tree = Tree(data, converted)
    tree.depth = depth + 1
    # The positions of the innermost node, for E005. Its Meta, not the tree: a tree naming itself
    # would be a reference cycle, and with the collector paused each one would live to the end.
    tree.deepest = deepest if deepest is not None else tree.meta
    return tree


class ParseFailure(Exception):
    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(diagnostics[0].message if diagnostics else "parse failure")
        self.diagnostics = diagnostics


# ─────────────────────────── strings ───────────────────────────

_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r", "0": "\0"}


_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.?)", re.S)


def decode_string(raw: str) -> tuple[str, int | None]:
    """Decode a quoted literal. Returns the value and the offset of a bad escape, if any."""
    body = raw[1:-1]
    if "\\" not in body:
        return body, None
    # pieces between escapes, not a list of characters: a string may be megabytes long
    out: list[str] = []
    last = 0
    for m in _ESCAPE.finditer(body):
        out.append(body[last : m.start()])
        esc = m.group(1)
        if esc in _ESCAPES:
            out.append(_ESCAPES[esc])
        elif len(esc) == 5:
            out.append(chr(int(esc[1:], 16)))
        else:
            return "".join(out), m.start() + 1
        last = m.end()
    out.append(body[last:])
    return "".join(out), None


_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\x7f\u2028\u2029]')


def encode_string(value: str) -> str:
    """The canonical quoted form of a string value (the inverse of `decode_string`)."""
    if not _NEEDS_ESCAPE.search(value):  # the common case, without a list of every character
        return '"' + value + '"'
    out = ['"']
    for c in value:
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif c == "\0":
            out.append("\\0")
        elif ord(c) < 32 or c in "\u2028\u2029\x7f":
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


# ─────────────────────────── tree → AST ───────────────────────────


def _abbrev(text: str, limit: int = 24) -> str:
    """A long literal shown in a message: its start, an ellipsis and its length."""
    return text if len(text) <= limit else f"{text[:limit - 4]}… ({len(text)} characters)"


class _Builder(Transformer):
    """Bottom-up conversion; collects diagnostics for problems the grammar cannot express."""

    def __init__(self, file: str):
        super().__init__(visit_tokens=False)
        self.file = file
        self.diagnostics: list[Diagnostic] = []
        self._calls: dict[str, object] = {}

    def build(self, tree: Tree):
        """One Lark tree whose children are already built → its AST node (or helper value).
        Calls the method named after the rule as Lark's Transformer would."""
        call = self._calls.get(tree.data)
        if call is None:
            f = getattr(self, tree.data, None)
            if f is None:
                call = lambda meta, children, data=tree.data: Tree(data, children, meta)  # noqa: E731
            elif getattr(f, "visit_wrapper", None) is not None:
                call = lambda meta, children, f=f, data=tree.data: f.visit_wrapper(f, data, children, meta)  # noqa: E731
            else:
                call = lambda meta, children, f=f: f(children)  # noqa: E731
            self._calls[tree.data] = call
        return call(tree.meta, tree.children)

    # helpers
    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span.point(self.file, 1, 1)
        return Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, tok: Token) -> Span:
        return Span(self.file, tok.line, tok.column, tok.end_line, tok.end_column)

    def _string(self, tok: Token) -> str:
        value, bad = decode_string(str(tok))
        if bad is not None:
            col = tok.column + bad
            self.diagnostics.append(
                Diagnostic(
                    "E006",
                    f"unknown escape sequence `{str(tok)[bad:bad + 2]}` in a string",
                    Span(self.file, tok.line, col, tok.line, col + 2),
                    help='use one of \\" \\\\ \\n \\t \\r \\0 \\uXXXX',
                )
            )
        return value

    def _literal(self, kind: str, tok: Token, value: object = None, span: Span | None = None) -> A.Literal:
        span = span or self._tok_span(tok)
        text = str(tok)
        if value is None:
            if kind == "int":
                value = self._int(tok, span)
            elif kind == "string":
                value = self._string(tok)
            else:
                value = text
        if kind in ("date", "time", "datetime"):
            self._check_moment(kind, text, span)
        elif kind == "decimal":
            self._check_decimal(text, span)
        return A.Literal(kind, value, span=span)

    def _int(self, tok: Token, span: Span | None = None) -> int:
        """The value of an INT token, or 0 with an E010 when it is out of range. The digits are
        counted before `int()` sees them: Python refuses to convert more than 4,300."""
        digits = str(tok).lstrip("0") or "0"
        if len(digits) <= len(str(INT_MAX)) and int(digits) <= INT_MAX:
            return int(digits)
        self.diagnostics.append(
            Diagnostic(
                "E010",
                f"integer `{_abbrev(str(tok))}` is out of range",
                span or self._tok_span(tok),
                help=f"integers lie between -{INT_MAX} and {INT_MAX}",
            )
        )
        return 0

    def _check_decimal(self, text: str, span: Span) -> None:
        whole, _, frac = text.lstrip("-").partition(".")
        if len(whole.lstrip("0")) > DECIMAL_DIGITS or len(frac) > DECIMAL_DIGITS:
            self.diagnostics.append(
                Diagnostic(
                    "E010",
                    f"decimal `{_abbrev(text)}` has too many digits",
                    span,
                    help=f"decimals have at most {DECIMAL_DIGITS} digits before the point and {DECIMAL_DIGITS} after",
                )
            )

    def _check_moment(self, kind: str, text: str, span: Span) -> None:
        try:
            if kind == "date":
                date.fromisoformat(text)
            elif kind == "time":
                time.fromisoformat(text)
            else:
                datetime.fromisoformat(text)
        except ValueError:
            self.diagnostics.append(
                Diagnostic("E007", f"`{text}` is not a real {kind}", span, help="dates are YYYY-MM-DD, times HH:MM")
            )

    @staticmethod
    def _names(children) -> list[str]:
        return [str(c) for c in children if isinstance(c, Token) and c.type == "NAME"]

    @staticmethod
    def _opt_string(children) -> Token | None:
        for c in children:
            if isinstance(c, Token) and c.type == "STRING":
                return c
        return None

    def _desc(self, children) -> str | None:
        tok = self._opt_string(children)
        return None if tok is None else self._string(tok)

    @staticmethod
    def _nodes(children, *types) -> list:
        return [c for c in children if isinstance(c, types)]

    # files
    @v_args(meta=True)
    def module(self, meta, children):
        return A.Module(tuple(children), span=self._span(meta))

    @v_args(meta=True)
    def import_module(self, meta, children):
        return A.ImportModule(children[0], span=self._span(meta))

    @v_args(meta=True)
    def import_file(self, meta, children):
        return A.ImportFile(self._string(children[0]), span=self._span(meta))

    def dotted(self, children):
        return tuple(str(c) for c in children)

    expr_path = dotted

    # types
    @v_args(meta=True)
    def type_decl(self, meta, children):
        return A.TypeDecl(str(children[0]), children[1], span=self._span(meta))

    @v_args(meta=True)
    def enum_decl(self, meta, children):
        name, *members = children
        return A.EnumDecl(str(name), tuple(A.EnumMember(str(m), span=self._tok_span(m)) for m in members), span=self._span(meta))

    @v_args(meta=True)
    def pool_decl(self, meta, children):
        return A.PoolDecl(str(children[0]), tuple(children[1:]), span=self._span(meta))

    @v_args(meta=True)
    def profile(self, meta, children):
        return A.Profile(tuple(children), span=self._span(meta))

    @v_args(meta=True)
    def profile_field(self, meta, children):
        return A.ProfileField(str(children[0]), children[1], span=self._span(meta))

    @v_args(meta=True)
    def named_type(self, meta, children):
        return A.NamedType(children[0], span=self._span(meta))

    @v_args(meta=True)
    def list_type(self, meta, children):
        return A.ListType(children[0], span=self._span(meta))

    @v_args(meta=True)
    def table_type(self, meta, children):
        return A.TableType(children[0], span=self._span(meta))

    # constants
    def const_int(self, c):
        return self._literal("int", c[0])

    def const_decimal(self, c):
        return self._literal("decimal", c[0])

    @v_args(meta=True)
    def const_neg_int(self, meta, c):
        span = self._span(meta)
        return self._literal("int", c[0], -self._int(c[0], span), span)

    @v_args(meta=True)
    def const_neg_decimal(self, meta, c):
        span = self._span(meta)
        self._check_decimal(str(c[0]), span)
        return A.Literal("decimal", "-" + str(c[0]), span=span)

    def const_string(self, c):
        return self._literal("string", c[0])

    def const_date(self, c):
        return self._literal("date", c[0])

    def const_time(self, c):
        return self._literal("time", c[0])

    def const_datetime(self, c):
        return self._literal("datetime", c[0])

    @v_args(meta=True)
    def const_true(self, meta, c):
        return A.Literal("bool", True, span=self._span(meta))

    @v_args(meta=True)
    def const_false(self, meta, c):
        return A.Literal("bool", False, span=self._span(meta))

    def const_name(self, c):
        return A.Literal("name", str(c[0]), span=self._tok_span(c[0]))

    # services
    @v_args(meta=True)
    def service_decl(self, meta, children):
        members = tuple(c for c in children if not isinstance(c, Token))
        return A.ServiceDecl(str(children[0]), self._desc(children[1:2]), members, span=self._span(meta))

    @v_args(meta=True)
    def record_decl(self, meta, children):
        noun, known = None, ()
        rest = list(children[1:])
        if rest and isinstance(rest[0], Token) and rest[0].type == "STRING":
            noun = self._string(rest.pop(0))
        if rest and isinstance(rest[0], tuple) and rest[0][:1] == ("known_by",):
            known = rest.pop(0)[1]
        return A.RecordDecl(str(children[0]), tuple(rest), span=self._span(meta), noun=noun, known_by=known)

    def known_by(self, children):
        return ("known_by", tuple(str(c) for c in children))

    @v_args(meta=True)
    def field_decl(self, meta, children):
        is_key = isinstance(children[0], Token) and children[0].type == "KEY"
        rest = list(children[1:] if is_key else children)
        label = self._string(rest.pop()) if isinstance(rest[-1], Token) and rest[-1].type == "STRING" else None
        default = rest[2] if len(rest) > 2 else None
        return A.FieldDecl(str(rest[0]), rest[1], is_key, default, span=self._span(meta), label=label)

    @v_args(meta=True)
    def state_decl(self, meta, children):
        rest = list(children[2:])
        retracted = rest.pop() if rest and isinstance(rest[-1], A.Retraction) else None
        default = rest[0] if rest else None
        return A.StateDecl(str(children[0]), children[1], default, span=self._span(meta), retracted=retracted)

    @v_args(meta=True)
    def retraction(self, meta, children):
        return A.Retraction(str(children[0]), children[1] if len(children) > 1 else None, span=self._span(meta))

    @v_args(meta=True)
    def retraction_with(self, meta, children):
        return A.Retraction(str(children[0]), None, span=self._span(meta), with_parent=True)

    @v_args(meta=True)
    def seed_decl(self, meta, children):
        rows = children[2] if len(children) > 2 else None
        profiles, distinct = None, ()
        if isinstance(rows, _RowsFrom):
            rows, profiles, distinct = rows.fields, rows.pool, rows.distinct
        return A.SeedDecl(str(children[0]), children[1], rows, span=self._span(meta), profiles=profiles, distinct=distinct)

    def seed_rows(self, children):
        distinct = children[0] if children and isinstance(children[0], _Distinct) else None
        if distinct is None:
            return tuple(children)
        return _RowsFrom(None, tuple(children[1:]), distinct.fields)

    def seed_rows_from(self, children):
        rest = children[1:]
        distinct = rest[0].fields if rest and isinstance(rest[0], _Distinct) else ()
        return _RowsFrom(str(children[0]), tuple(rest[1:] if distinct else rest), distinct)

    def seed_distinct(self, children):
        return _Distinct(tuple(str(c) for c in children))

    @v_args(meta=True)
    def seed_field(self, meta, children):
        return A.SeedField(str(children[0]), children[1], span=self._span(meta))

    @v_args(meta=True)
    def gen_const(self, meta, c):
        return A.GenConst(c[0], span=self._span(meta))

    @v_args(meta=True)
    def gen_range(self, meta, c):
        return A.GenRange(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def gen_pick_pool(self, meta, c):
        return A.GenPickPool(str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def gen_pick_list(self, meta, c):
        return A.GenPickList(tuple(c), span=self._span(meta))

    @v_args(meta=True)
    def gen_weighted(self, meta, c):
        return A.GenWeighted(tuple(c), span=self._span(meta))

    @v_args(meta=True)
    def weight(self, meta, c):
        return A.Weight(c[0], self._int(c[1]), span=self._span(meta))

    @v_args(meta=True)
    def gen_ref(self, meta, c):
        return A.GenRef(c[0], span=self._span(meta), **self._ref_filter(c))

    @v_args(meta=True)
    def gen_ref_unique(self, meta, c):
        return A.GenRef(c[0], span=self._span(meta), unique=True, **self._ref_filter(c))

    @staticmethod
    def _ref_filter(c) -> dict:
        """`where F == const` / `in [...]` (constants), or `where F == same(path)` (`matches`)."""
        if len(c) < 2:
            return {}
        f, value = c[1]
        return {"matches": (f, value)} if isinstance(value, A.GenSame) else {"where": c[1]}

    def ref_where_eq(self, c):
        return (str(c[0]), (c[1],))

    def ref_where_same(self, c):
        return (str(c[0]), c[1])

    def ref_where_in(self, c):
        return (str(c[0]), tuple(c[1:]))

    @v_args(meta=True)
    def gen_slug(self, meta, c):
        return A.GenSlug(c[0], self._string(c[1]) if len(c) > 1 else ".", span=self._span(meta))

    @v_args(meta=True)
    def same_path(self, meta, c):
        return A.GenSame(tuple(str(n) for n in c), span=self._span(meta))

    def gen_same(self, c):
        return c[0]

    @v_args(meta=True)
    def gen_after(self, meta, c):
        return self._ordered(meta, c, before=False)

    @v_args(meta=True)
    def gen_before(self, meta, c):
        return self._ordered(meta, c, before=True)

    def _ordered(self, meta, c, before: bool) -> A.GenAfter:
        """`after(same(a), ..., lo..hi)` or with a second range, `lo..hi, b_lo..b_hi`."""
        sames = tuple(g for g in c if isinstance(g, A.GenSame))
        lits = c[len(sames):]
        within = (lits[2], lits[3]) if len(lits) == 4 else None
        return A.GenAfter(sames, lits[0], lits[1], span=self._span(meta), before=before, within=within)

    @v_args(meta=True)
    def gen_format(self, meta, c):
        return A.GenFormat(self._string(c[0]), tuple(c[1:]), span=self._span(meta))

    # tools
    @v_args(meta=True)
    def tool_decl(self, meta, children):
        simulated = isinstance(children[0], Token) and children[0].type == "SIMULATED"
        rest = children[1:] if simulated else children
        name = str(rest[0])
        params: tuple = ()
        result = None
        clauses: dict[str, object] = {}
        spans: dict[str, Span] = {}
        body: list = []
        for c in rest[1:]:
            if isinstance(c, tuple) and c and c[0] == "params":
                params = c[1]
            elif isinstance(c, tuple) and c and c[0] == "result":
                result = c[1]
            elif isinstance(c, tuple) and c and c[0] == "clause":
                _, kind, value, span = c
                if kind in clauses:
                    self.diagnostics.append(
                        Diagnostic("E008", f"tool `{name}` has more than one {kind} clause", span, help=f"keep one {kind} clause")
                    )
                else:
                    clauses[kind] = value
                    spans[kind] = span
            else:
                body.append(c)
        return A.ToolDecl(
            name,
            simulated,
            params,
            result,
            clauses.get("description"),
            clauses.get("say"),
            clauses.get("consumes"),
            clauses.get("produces"),
            tuple(body),
            span=self._span(meta),
            say_span=spans.get("say"),
            gives=clauses.get("gives"),
            gives_span=spans.get("gives"),
            pages=clauses.get("pages"),
            pages_span=spans.get("pages"),
        )

    def params(self, children):
        return ("params", tuple(children))

    @v_args(meta=True)
    def param(self, meta, c):
        default = c[2] if len(c) > 2 else None
        return A.Param(str(c[0]), c[1], default, span=self._span(meta))

    def result(self, c):
        return ("result", c[0])

    @v_args(meta=True)
    def tool_doc(self, meta, c):
        return ("clause", "description", self._string(c[0]), self._span(meta))

    @v_args(meta=True)
    def tool_say(self, meta, c):
        return ("clause", "say", self._string(c[0]), self._span(meta))

    @v_args(meta=True)
    def tool_gives(self, meta, c):
        return ("clause", "gives", self._string(c[0]), self._span(meta))

    @v_args(meta=True)
    def tool_pages(self, meta, c):
        return ("clause", "pages", int(c[0]), self._span(meta))

    @v_args(meta=True)
    def tool_consumes(self, meta, c):
        return ("clause", "consumes", c[0], self._span(meta))

    @v_args(meta=True)
    def tool_produces(self, meta, c):
        return ("clause", "produces", c[0], self._span(meta))

    def type_list(self, c):
        return tuple(c)

    @v_args(meta=True)
    def type_ref(self, meta, c):
        return A.NamedType(c[0], span=self._span(meta))

    def error_kind(self, c):
        return str(c[0])

    @v_args(meta=True)
    def require_stmt(self, meta, c):
        return A.Require(c[0], c[1], self._string(c[2]), span=self._span(meta), message_span=self._tok_span(c[2]))

    @v_args(meta=True)
    def let_stmt(self, meta, c):
        return A.Let(str(c[0]), c[1], span=self._span(meta))

    @v_args(meta=True)
    def insert_let_stmt(self, meta, c):
        return A.Insert(str(c[1]), c[2], str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def insert_stmt(self, meta, c):
        return A.Insert(str(c[0]), c[1], None, span=self._span(meta))

    @v_args(meta=True)
    def update_stmt(self, meta, c):
        return A.Update(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def delete_stmt(self, meta, c):
        return A.Delete(c[0], span=self._span(meta))

    @v_args(meta=True)
    def set_stmt(self, meta, c):
        return A.Set(str(c[0]), c[1], span=self._span(meta))

    @v_args(meta=True)
    def return_stmt(self, meta, c):
        return A.Return(c[0], span=self._span(meta))

    @v_args(meta=True)
    def modifies_stmt(self, meta, c):
        fields = c[1] if len(c) > 1 else None
        return A.Modifies(str(c[0]), fields, span=self._span(meta))

    @v_args(meta=True)
    def ensures_stmt(self, meta, c):
        return A.Ensures(c[0], span=self._span(meta))

    @v_args(meta=True)
    def key_target(self, meta, c):
        return A.KeyTarget(str(c[0]), c[1], span=self._span(meta))

    @v_args(meta=True)
    def filter_target(self, meta, c):
        return A.FilterTarget(str(c[0]), str(c[1]), c[2], span=self._span(meta))

    def field_inits(self, c):
        return tuple(c)

    @v_args(meta=True)
    def field_init(self, meta, c):
        return A.FieldInit(str(c[0]), c[1], span=self._span(meta))

    def field_names(self, c):
        return tuple(str(x) for x in c)

    # constraints
    @v_args(meta=True)
    def constraint_decl(self, meta, c):
        clauses = tuple(x for x in c[1:] if not isinstance(x, Token))
        return A.ConstraintDecl(str(c[0]), self._desc(c[1:2]), clauses, False, span=self._span(meta))

    @v_args(meta=True)
    def rule_decl(self, meta, c):
        expr = c[-1]
        clause = A.Invariant(expr, span=expr.span)
        return A.ConstraintDecl(str(c[0]), self._desc(c[1:2]), (clause,), True, span=self._span(meta))

    def where(self, c):
        return ("where", c[0])

    @staticmethod
    def _where(children):
        for c in children:
            if isinstance(c, tuple) and len(c) == 2 and c[0] == "where":
                return c[1]
        return None

    @v_args(meta=True)
    def untouched_bound(self, meta, c):
        return A.Untouched(str(c[0]), c[1], self._where(c), span=self._span(meta))

    @v_args(meta=True)
    def untouched_short(self, meta, c):
        return A.Untouched(None, c[0], self._where(c), span=self._span(meta))

    @v_args(meta=True)
    def forall_clause(self, meta, c):
        body = tuple(x for x in c[2:] if not isinstance(x, tuple) or not x or x[0] != "where")
        return A.ForallClause(str(c[0]), c[1], self._where(c), body, span=self._span(meta))

    @v_args(meta=True)
    def if_clause(self, meta, c):
        cond, *rest = c
        else_ = None
        if rest and isinstance(rest[-1], tuple) and rest[-1] and rest[-1][0] == "else":
            else_ = rest[-1][1]
            rest = rest[:-1]
        return A.IfClause(cond, tuple(rest), else_, span=self._span(meta))

    def else_clauses(self, c):
        return ("else", tuple(c))

    @v_args(meta=True)
    def invariant_clause(self, meta, c):
        return A.Invariant(c[0], span=self._span(meta))

    @v_args(meta=True)
    def order_clause(self, meta, c):
        on = c[2] if len(c) > 2 else ()
        return A.OrderClause(c[0], c[1], on, span=self._span(meta))

    def on_args(self, c):
        return tuple(str(x) for x in c)

    # worlds
    @v_args(meta=True)
    def world_decl(self, meta, children):
        members = tuple(c for c in children if not isinstance(c, Token))
        return A.WorldDecl(str(children[0]), self._desc(children[1:2]), members, span=self._span(meta))

    @v_args(meta=True)
    def use_decl(self, meta, c):
        return A.UseDecl(tuple(p for p, _ in c), span=self._span(meta), module_spans=tuple(s for _, s in c))

    @v_args(meta=True)
    def use_item(self, meta, c):
        return (c[0], self._span(meta))

    # expressions
    @v_args(meta=True)
    def cond(self, meta, c):
        return A.Cond(c[0], c[1], c[2], span=self._span(meta))

    def _binary(self, op, meta, c):
        return A.Binary(op, c[0], c[-1], span=self._span(meta))

    @v_args(meta=True)
    def implies(self, meta, c):
        return self._binary("implies", meta, c)

    @v_args(meta=True)
    def or_op(self, meta, c):
        return self._binary("or", meta, c)

    @v_args(meta=True)
    def and_op(self, meta, c):
        return self._binary("and", meta, c)

    @v_args(meta=True)
    def not_op(self, meta, c):
        return A.Unary("not", c[0], span=self._span(meta))

    @v_args(meta=True)
    def compare(self, meta, c):
        return A.Binary(str(c[1]), c[0], c[2], span=self._span(meta))

    arith = compare

    @v_args(meta=True)
    def member(self, meta, c):
        return self._binary("in", meta, c)

    @v_args(meta=True)
    def not_member(self, meta, c):
        return self._binary("not in", meta, c)

    @v_args(meta=True)
    def contains(self, meta, c):
        return self._binary("contains", meta, c)

    @v_args(meta=True)
    def neg(self, meta, c):
        return A.Unary("-", c[0], span=self._span(meta))

    @v_args(meta=True)
    def field(self, meta, c):
        return A.Field(c[0], str(c[1]), span=self._span(meta))

    @v_args(meta=True)
    def index(self, meta, c):
        return A.Index(c[0], c[1], span=self._span(meta))

    def int_lit(self, c):
        return self._literal("int", c[0])

    def decimal_lit(self, c):
        return self._literal("decimal", c[0])

    def string_lit(self, c):
        return self._literal("string", c[0])

    def date_lit(self, c):
        return self._literal("date", c[0])

    def time_lit(self, c):
        return self._literal("time", c[0])

    def datetime_lit(self, c):
        return self._literal("datetime", c[0])

    @v_args(meta=True)
    def true_lit(self, meta, c):
        return A.Literal("bool", True, span=self._span(meta))

    @v_args(meta=True)
    def false_lit(self, meta, c):
        return A.Literal("bool", False, span=self._span(meta))

    def var(self, c):
        return A.Var(str(c[0]), span=self._tok_span(c[0]))

    @v_args(meta=True)
    def call(self, meta, c):
        args = c[1] if len(c) > 1 else ()
        return A.Call(str(c[0]), args, span=self._span(meta))

    def args(self, c):
        return tuple(c)

    @v_args(meta=True)
    def pos_arg(self, meta, c):
        return A.Arg(None, c[0], span=self._span(meta))

    @v_args(meta=True)
    def named_arg(self, meta, c):
        return A.Arg(str(c[0]), c[1], span=self._span(meta))

    @v_args(meta=True)
    def list_lit(self, meta, c):
        return A.ListLit(tuple(c), span=self._span(meta))

    def select_kind(self, c):
        return ("kind", str(c[0]))

    project_kind = select_kind

    def by(self, c):
        return ("by", c[0])

    @v_args(meta=True)
    def forall(self, meta, c):
        return A.Quant("forall", str(c[0]), c[1], self._where(c), c[-1], span=self._span(meta))

    @v_args(meta=True)
    def exists(self, meta, c):
        return A.Quant("exists", str(c[0]), c[1], self._where(c), None, span=self._span(meta))

    @v_args(meta=True)
    def select(self, meta, c):
        by = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "by"), None)
        return A.Select(c[0][1], str(c[1]), c[2], self._where(c), by, span=self._span(meta))

    @v_args(meta=True)
    def project(self, meta, c):
        return A.Project(c[0][1], c[1], str(c[2]), c[3], self._where(c), span=self._span(meta))


# ─────────────────────────── errors ───────────────────────────

# Labelled bad inputs: Lark's match_examples finds the label whose parser state matches.
ERROR_EXAMPLES: dict[str, list[str]] = {
    "missing `}` to close the block": [
        "service s { record R { key id: id }",
        "service s { tool t() { return 1 }",
        "world w { use stdlib.matters",
        "enum E { a, b",
    ],
    "missing `:` between a field name and its type": [
        "service s { record R { key id id } }",
        'service s "d" { record R { key id id } }',
        "service s { record R { id text } }",
        'service s "d" { record R { id text } }',
        "service s { record R { key id: id  n int } }",
        "service s { state rows table[R] }",
        'service s "d" { state rows table[R] }',
    ],
    "a tool needs a parameter list in parentheses": [
        "service s { tool t { } }",
        "service s { tool t -> int { } }",
    ],
    "a `require` needs `else KIND \"message\"`": [
        "service s { tool t() { require x > 1 } }",
        "service s { tool t() { require x > 1 else } }",
        'service s { tool t() { require x > 1 else oops "m" } }',
        "service s { tool t() { require x > 1 else not_found } }",
    ],
    "an expression is incomplete": [
        "service s { tool t() { return 1 + } }",
        "service s { tool t() { return (1 } }",
        "service s { tool t() { let x = } }",
    ],
    "a top-level item must be `import`, `type`, `enum`, `pool`, `service`, `world`, `constraint` or `rule`": [
        "record R { }",
        "tool t() { }",
        "x = 1",
    ],
}

_ERROR_KINDS = {"NOT_FOUND", "INVALID", "CONFLICT", "FORBIDDEN"}
_EXPR_START = {"INT", "NAME", "LPAR", "STRING"}
_TOP_LEVEL = {"IMPORT", "TYPE", "ENUM", "POOL", "SERVICE", "WORLD", "CONSTRAINT", "RULE", "$END"}
_CLOSERS = {"RBRACE", "RPAR", "RSQB", "$END", "COMMA"}


# Hints for an `if` written as in C or Python. In this language `if COND then A else B` is an
# expression (grammar/world.lark: `cond`), usable wherever a value is; only a constraint has an
# `if COND then { clauses } else { clauses }` block. A tool body has no `if` statement.
IF_MISSING_ELSE = "an `if` expression needs an `else` branch: `if COND then A else B`; both branches give a value"
IF_STATEMENT = (
    "a tool body has no `if` statement; `if COND then A else B` is an expression, as in "
    "`let x = if COND then A else B` or a field value, and `require COND else KIND \"message\"` refuses a call"
)
IF_NEEDS_THEN = "`if` needs `then` after its condition: `if COND then A else B`, without `{ }` around the branches"
IF_NEEDS_THEN_CLAUSE = "`if` needs `then` after its condition: `if COND then { ... } else { ... }`"
IF_BRANCH_BLOCK = "the branches of an `if` expression are values, not `{ }` blocks: write `if COND then A else B`"

_STATEMENT_START = {"LET", "RETURN", "REQUIRE", "SET", "UPDATE", "INSERT", "DELETE"}


def _stack_tokens(err: UnexpectedInput, n: int) -> list[str | None]:
    """The types of the last `n` things the parser had shifted when it failed: a token's type,
    or None for a reduced rule (such as a whole expression). Empty when Lark does not say."""
    try:
        stack = err.interactive_parser.parser_state.value_stack  # type: ignore[union-attr]
    except AttributeError:
        return []
    return [v.type if isinstance(v, Token) else None for v in stack[-n:]]


def _open_if(err: UnexpectedInput, file: str) -> tuple[Label, ...]:
    """For an `if` expression without `else`: a note that points at its `if`."""
    try:
        tok = err.interactive_parser.parser_state.value_stack[-4]  # type: ignore[union-attr]
    except (AttributeError, IndexError):
        return ()
    if not isinstance(tok, Token) or tok.type != "IF" or tok.line is None:
        return ()
    return (Label(Span(file, tok.line, tok.column, tok.line, tok.column + 2), "the `if` without `else`"),)


def _then_would_fit(err: UnexpectedInput) -> bool:
    """Would the token that failed be accepted after a `then`? (A constraint's `if ... then {`.)"""
    try:
        probe = err.interactive_parser.copy()  # type: ignore[union-attr]
        probe.feed_token(Token("THEN", "then"))
        return err.token.type in probe.accepts()  # type: ignore[union-attr]
    except Exception:  # a probe only: any failure means no
        return False


def _if_label(err: UnexpectedInput, expected: set[str], tok_type: str) -> str | None:
    """A hint for an `if` that is written as a statement, or with `{ }`, or without `else`."""
    if tok_type == "IF" and "IF" not in expected and expected & _STATEMENT_START:
        return IF_STATEMENT
    if expected == {"ELSE"} and _stack_tokens(err, 4)[:3] == ["IF", None, "THEN"]:
        return IF_MISSING_ELSE
    top = _stack_tokens(err, 2)
    if "THEN" in expected and top == ["IF", None]:  # `if COND {`, `if COND:`
        return IF_NEEDS_THEN_CLAUSE if tok_type == "LBRACE" and _then_would_fit(err) else IF_NEEDS_THEN
    if tok_type == "LBRACE" and top[-1:] in (["THEN"], ["ELSE"]) and "NAME" in expected:
        return IF_BRANCH_BLOCK
    return None


def _label_from_expected(err: UnexpectedInput) -> str | None:
    """A catalogue label chosen from the expected-token set, which does not depend on what came
    before the error (Lark's match_examples compares parser states, which do); the `if` hints
    look at the last few tokens only."""
    expected = set(getattr(err, "expected", ()) or ())
    tok = getattr(err, "token", None)
    tok_type = getattr(tok, "type", "$END")
    labels = list(ERROR_EXAMPLES)
    if_label = _if_label(err, expected, tok_type)
    if if_label is not None:
        return if_label
    if expected & _ERROR_KINDS or expected == {"ELSE"}:
        return labels[3]  # a `require` needs `else KIND "message"`
    if expected == {"COLON"}:
        return labels[1]  # missing `:`
    if expected == {"LPAR"} and tok_type != "NAME":
        return labels[2]  # a tool needs a parameter list
    if expected == {"RPAR"} or (_EXPR_START <= expected and tok_type in _CLOSERS):
        return labels[4]  # an expression is incomplete
    if expected and expected <= _TOP_LEVEL:
        return labels[5]  # a top-level item must be ...
    return None


_TOKEN_WORDS = {
    "RBRACE": "`}`",
    "LBRACE": "`{`",
    "LPAR": "`(`",
    "RPAR": "`)`",
    "LSQB": "`[`",
    "RSQB": "`]`",
    "COLON": "`:`",
    "COMMA": "`,`",
    "EQUAL": "`=`",
    "NAME": "a name",
    "STRING": "a string",
    "INT": "a number",
    "DECIMAL": "a number",
    "$END": "the end of the file",
}


def _describe_expected(expected: set[str], lark: Lark) -> str:
    words = set()
    for name in expected:
        if name in _TOKEN_WORDS:
            words.add(_TOKEN_WORDS[name])
            continue
        try:
            pattern = lark.get_terminal(name).pattern
        except KeyError:
            words.add(name.lower())
            continue
        if pattern.type == "str":
            words.add(f"`{pattern.value}`")
        else:
            words.add(name.lower())
    shown = sorted(words)
    if len(shown) > 8:
        shown = shown[:8] + ["…"]
    return ", ".join(shown)


def _syntax_diagnostic(err: UnexpectedInput, file: str, text: str, start: str) -> Diagnostic:
    lark = _lark()
    line = getattr(err, "line", None) or 1
    col = getattr(err, "column", None) or 1
    if line < 1:
        line, col = 1, 1
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if err.pos_in_stream < len(text) else ""
        return Diagnostic(
            "E002",
            f"unexpected character `{ch}`" if ch.isprintable() else f"unexpected character U+{ord(ch):04X}",
            Span.point(file, line, col),
            help="remove it, or put it inside a string",
        )
    # What the parser expected says most; the catalogue of examples catches the rest.
    label = _label_from_expected(err)
    if label is None:
        try:
            label = err.match_examples(functools.partial(lark.parse, start="module"), ERROR_EXAMPLES, use_accepts=True)
        except Exception:  # match_examples re-parses examples; a failure there must not hide the real error
            label = None
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
        expected = _describe_expected(set(err.expected), lark)
        return Diagnostic(
            "E003",
            "unexpected end of file",
            Span.point(file, line, col),
            labels=_open_if(err, file) if label == IF_MISSING_ELSE else (),
            notes=(f"expected {expected}",) if expected else (),
            help=label or "finish the declaration that is still open",
        )
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    span = Span(file, line, col, getattr(tok, "end_line", None) or line, getattr(tok, "end_column", None) or col + 1)
    expected = _describe_expected(set(err.expected), lark)
    shown = str(tok) if len(str(tok)) <= 40 else str(tok)[:37] + "…"
    return Diagnostic(
        "E001",
        f"unexpected `{shown}`",
        span,
        labels=_open_if(err, file) if label == IF_MISSING_ELSE else (),
        notes=(f"expected {expected}",) if expected else (),
        help=label or "check the syntax in docs/language.md",
    )


@attrs.frozen
class _RowsFrom:
    """`rows from POOL { ... }` (or `rows distinct by ... { ... }`) while its seed is built: the
    pool (None for none), the fields' generators and the fields no two rows share."""

    pool: str | None
    fields: tuple
    distinct: tuple = ()


@attrs.frozen
class _Distinct:
    """`distinct by F, G` while its seed is built."""

    fields: tuple


_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _keyword_as_name(err: UnexpectedInput) -> bool:
    """Keywords are reserved only where they mean something.

    LALR merges the lookaheads of states with the same core, so the lexer may take a field
    called `state` or `count` for the keyword. Where the parser cannot use the keyword but
    could use a name, feed the word again as a NAME and carry on.
    """
    if not isinstance(err, UnexpectedToken):
        return False
    tok = err.token
    if tok.type == "NAME" or not _NAME_RE.match(str(tok)) or "NAME" not in err.expected:
        return False
    err.interactive_parser.feed_token(Token.new_borrow_pos("NAME", str(tok), tok))
    return True


def _decode(data: bytes | str, file: str) -> tuple[str | None, Diagnostic | None]:
    if isinstance(data, str):
        return data, None
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        before = data[: e.start]
        line = before.count(b"\n") + 1
        # columns count characters, as everywhere else (the line so far is valid UTF-8)
        col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")) + 1
        return None, Diagnostic(
            "E004",
            f"byte 0x{data[e.start]:02x} is not valid UTF-8",
            Span.point(file, line, col),
            help="save the file as UTF-8",
        )


def _parse(data: bytes | str, file: str, start: str):
    text, bad = _decode(data, file)
    if bad is not None:
        raise ParseFailure([bad])
    assert text is not None
    if "\0" in text:
        pos = text.index("\0")
        line = text.count("\n", 0, pos) + 1
        col = pos - (text.rfind("\n", 0, pos) + 1) + 1
        raise ParseFailure([Diagnostic("E002", "unexpected character U+0000", Span.point(file, line, col), help="remove the NUL byte")])
    builder = _Builder(file)
    building = _BUILDER.set(builder)
    # A parse allocates millions of objects that all live on (the AST has no cycles), and the
    # cyclic collector would scan them again and again for nothing: a third of the time of a
    # 5 MB file. Paused for the parse only, and only if it was running.
    collecting = gc.isenabled()
    gc.disable()
    try:
        tree = _lark().parse(text, start=start, on_error=_keyword_as_name)
    except UnexpectedInput as err:
        _BUILDER.reset(building)  # match_examples re-parses: those trees are not ours to build
        if collecting:
            gc.enable()
        raise ParseFailure([_syntax_diagnostic(err, file, text, start)]) from None
    except RecursionError:
        raise ParseFailure([Diagnostic("E005", "the file is nested too deeply to parse", Span.point(file, 1, 1))]) from None
    finally:
        if _BUILDER.get() is builder:
            _BUILDER.reset(building)
        if collecting:
            gc.enable()
    depth, meta = (tree.depth, tree.deepest) if isinstance(tree, Tree) and "depth" in tree.__dict__ else (1, None)
    if depth > MAX_NESTING:
        line = getattr(meta, "line", 1) if meta and not meta.empty else 1
        col = getattr(meta, "column", 1) if meta and not meta.empty else 1
        raise ParseFailure(
            [
                Diagnostic(
                    "E005",
                    f"nesting is {depth} levels deep; the limit is {MAX_NESTING}",
                    Span.point(file, line, col),
                    help="split the expression with `let` or a helper rule",
                )
            ]
        )
    result = builder.build(tree) if isinstance(tree, Tree) and "depth" in tree.__dict__ else tree
    if builder.diagnostics:
        raise ParseFailure(builder.diagnostics)
    return result


def parse_module(data: bytes | str, file: str = "<input>") -> A.Module:
    """Parse a whole `.world` file. Raises ParseFailure with diagnostics on bad input."""
    return _parse(data, file, "module")


def parse_expr(data: bytes | str, file: str = "<expr>") -> A.Expr:
    """Parse one expression (a fragment start symbol, for tests and tools)."""
    return _parse(data, file, "expr")
