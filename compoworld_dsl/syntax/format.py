"""Canonical formatting: print an AST (with the source's comments) as `.world` text.
It must never change what a file means or drop a comment, and it does no name or type checking."""

from __future__ import annotations

import bisect
import re
from typing import Iterable, Sequence

import attrs

from . import ast as A
from .parser import encode_string, parse_module

INDENT = "  "

Pos = tuple[int, int]  # (line, col), 1-based, as in spans

# ─────────────────────────── comments ───────────────────────────


@attrs.frozen
class Comment:
    """One `//` or `/* */` comment and the code around it, as the scanner saw it.

    `prev`/`next` are the positions of the nearest code characters before and after the
    comment (commas are skipped for `prev`, so `a, // x` trails `a`); `depth` counts the
    unclosed `{` before it. The formatter uses these to choose where the comment goes.
    """

    text: str
    line: int
    col: int
    end_line: int
    end_col: int
    prev: Pos | None = None
    prev_token: str = ""
    next: Pos | None = None
    next_token: str = ""
    depth: int = 0
    line_tokens: tuple[str, ...] = ()  # code tokens before the comment on its own line
    blank_before: bool = False
    blank_after: bool = False

    @property
    def start(self) -> Pos:
        return (self.line, self.col)

    @property
    def trailing(self) -> bool:
        """True when code precedes the comment on the line where it starts."""
        return self.prev is not None and self.prev[0] == self.line

    @property
    def joinable(self) -> bool:
        """Whether more text may follow the comment on the same line."""
        return self.text.startswith("/*") and "\n" not in self.text


_WORD = re.compile(r"[A-Za-z0-9_]+")


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Split text into ("code" | "comment", start, end) pieces; whitespace is dropped.

    Code pieces are words, whole string literals, or single other characters: enough to
    find comments, braces and clause keywords without involving the parser.
    """
    out: list[tuple[str, int, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(("comment", i, j))
            i = j
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(("comment", i, j))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1 if j < n and text[j] == '"' else j, n)
            out.append(("code", i, j))
            i = j
        else:
            m = _WORD.match(text, i)
            j = m.end() if m else i + 1
            out.append(("code", i, j))
            i = j
    return out


def scan_comments(text: str) -> list[Comment]:
    """Every comment in `text`, in order, with the context the formatter needs."""
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def pos(offset: int) -> Pos:
        line = bisect.bisect_right(line_starts, offset)
        return (line, offset - line_starts[line - 1] + 1)

    pieces = _tokens(text)
    # The first code piece at or after each index, found in one backward pass.
    next_code: list[tuple[int, int] | None] = [None] * (len(pieces) + 1)
    for k in range(len(pieces) - 1, -1, -1):
        kind, start, end = pieces[k]
        next_code[k] = (start, end) if kind == "code" else next_code[k + 1]

    comments: list[Comment] = []
    depth = 0
    prev_code: tuple[int, int] | None = None  # the last code piece that is not a comma
    line, line_tokens = 0, []  # code pieces so far on the current line
    for k, (kind, start, end) in enumerate(pieces):
        here = pos(start)
        if here[0] != line:
            line, line_tokens = here[0], []
        if kind == "code":
            tok = text[start:end]
            depth += (tok == "{") - (tok == "}")
            if tok != ",":
                prev_code = (start, end)
            line_tokens.append(tok)
            continue
        nxt = next_code[k + 1]
        before = pieces[k - 1][2] if k > 0 else 0
        after = pieces[k + 1][1] if k + 1 < len(pieces) else len(text)
        comments.append(
            Comment(
                text=text[start:end],
                line=here[0],
                col=here[1],
                end_line=pos(end)[0],
                end_col=pos(end)[1],
                prev=pos(prev_code[1] - 1) if prev_code else None,
                prev_token=text[prev_code[0] : prev_code[1]] if prev_code else "",
                next=pos(nxt[0]) if nxt else None,
                next_token=text[nxt[0] : nxt[1]] if nxt else "",
                depth=depth,
                line_tokens=tuple(line_tokens),
                blank_before=k > 0 and text.count("\n", before, start) >= 2,
                blank_after=text.count("\n", end, after) >= 2,
            )
        )
        if "\n" in text[start:end]:
            line, line_tokens = pos(end)[0], []
    return comments


# ─────────────────────────── where comments go ───────────────────────────


def _start(n) -> Pos:
    return (n.span.line, n.span.col)


def _end(n) -> Pos:
    """The exclusive end of a node."""
    return (n.span.end_line, n.span.end_col)


def _last(n) -> Pos:
    """The position of a node's last character."""
    return (n.span.end_line, n.span.end_col - 1)


def _blocks(n) -> list[tuple] | None:
    """The `{ ... }` blocks of line-level children below a line-level node; None for a leaf."""
    if isinstance(n, (A.ServiceDecl, A.WorldDecl)):
        return [n.members]
    if isinstance(n, A.RecordDecl):
        return [n.fields]
    if isinstance(n, A.EnumDecl):
        return [n.members]
    if isinstance(n, A.SeedDecl):
        return None if n.rows is None else [n.rows]
    if isinstance(n, A.ToolDecl):
        return [n.body]
    if isinstance(n, A.ConstraintDecl):
        return [n.clauses]
    if isinstance(n, A.ForallClause):
        return [n.body]
    if isinstance(n, A.IfClause):
        return [n.then] if n.else_ is None else [n.then, n.else_]
    return None


def _kids(n) -> list:
    return [c for b in _blocks(n) or () for c in b]


_TOOL_CLAUSES = ("description", "say", "gives", "pages", "consumes", "produces")


class _Notes:
    """Comments keyed by (node, slot). Slots: lead (own lines before the node), trail (after
    its last line), head (after its `{` line), end/end0/end1 (before a block's `}`), else (after
    `} else {`), and for tools `lead:<clause>`/`trail:<clause>` and `open` (own lines before a
    `{` that stands on its own line)."""

    def __init__(self) -> None:
        self.slots: dict[tuple[int, str], list[Comment]] = {}

    def add(self, node, slot: str, c: Comment) -> None:
        self.slots.setdefault((id(node), slot), []).append(c)

    def get(self, node, slot: str) -> list[Comment]:
        return self.slots.get((id(node), slot), [])

    def has_inside(self, node) -> bool:
        """Comments inside the braces of `node` or on its children (forces a multi-line form)."""
        if any(self.get(node, s) for s in ("head", "end", "end0", "end1", "else")):
            return True
        return any(self.get(k, "lead") or self.get(k, "trail") for k in _kids(node))


class _Outline:
    """The line-level nodes of a module, each block's children with their start positions, so
    that a comment finds the nodes around it by bisection: placing n comments in a file of n
    declarations costs n log n, not n**2 (a scan of every declaration before each comment took
    minutes on a 1.5 MB imported world). A block whose children are not in source order, one
    after another, is scanned instead, as before, so that every answer stays the same."""

    def __init__(self, module: A.Module):
        self.module = module
        self._blocks: dict[int, tuple[Sequence, list[Pos], bool]] = {}

    def _children(self, n) -> tuple[Sequence, list[Pos], bool]:
        got = self._blocks.get(id(n))
        if got is None:
            kids = n.items if n is self.module else _kids(n)
            starts = [_start(k) for k in kids]
            ordered = all(_end(a) <= _start(b) for a, b in zip(kids, kids[1:])) and all(_start(k) <= _end(k) for k in kids)
            got = self._blocks[id(n)] = (kids, starts, ordered)
        return got

    def path(self, pos: Pos) -> list:
        """The line-level nodes whose spans contain `pos`, outermost first."""
        path: list = []
        node = self.module
        while True:
            kids, starts, ordered = self._children(node)
            if ordered:
                i = bisect.bisect_right(starts, pos) - 1
                hit = kids[i] if i >= 0 and pos < _end(kids[i]) else None
            else:
                hit = next((c for c in kids if _start(c) <= pos < _end(c)), None)
            if hit is None:
                return path
            path.append(hit)
            node = hit

    def following(self, n, pos: Pos):
        """The first child of `n` (or of the module) that starts after `pos`, or None."""
        kids, starts, ordered = self._children(n)
        if ordered:
            i = bisect.bisect_right(starts, pos)
            return kids[i] if i < len(kids) else None
        return next((k for k in kids if _start(k) > pos), None)


def _tool_has(tool: A.ToolDecl, kind: str) -> bool:
    return getattr(tool, kind) is not None


def _tool_trail_slot(tool: A.ToolDecl, line_tokens: Sequence[str]) -> str:
    """Which output line of a tool header a trailing comment belongs to, judged from the code
    before it on its source line: the last clause that starts there, else the `tool` line."""
    slot = "h0"
    for i, tok in enumerate(line_tokens):
        before = line_tokens[i - 1] if i else ""
        after = line_tokens[i + 1] if i + 1 < len(line_tokens) else ""
        if tok in ("say", "gives", "pages", "consumes", "produces") and after != ":":
            slot = tok
        elif tok.startswith('"') and before not in ("=", "say", "gives"):
            slot = "description"
        elif tok == "{":
            slot = "open"
    if slot in _TOOL_CLAUSES and not _tool_has(tool, slot):
        return "h0"
    return slot


def _attach(module: A.Module, comments: Iterable[Comment]) -> _Notes:
    notes = _Notes()
    outline = _Outline(module)
    for c in comments:
        if c.trailing and _attach_trailing(outline, c, notes):
            continue
        _attach_own_line(outline, c, notes)
    return notes


def _attach_trailing(outline: _Outline, c: Comment, notes: _Notes) -> bool:
    assert c.prev is not None
    path = outline.path(c.prev)
    if not path:
        return False
    ending = [n for n in path if _last(n) == c.prev]
    if ending:
        notes.add(ending[0], "trail", c)
        return True
    n = path[-1]
    if _blocks(n) is None:
        notes.add(n, "trail", c)
    elif isinstance(n, A.ToolDecl):
        slot = _tool_trail_slot(n, c.line_tokens)
        notes.add(n, "head" if slot == "open" else f"trail:{slot}", c)
    elif isinstance(n, A.IfClause) and n.else_ is not None and _in_else_junction(n, c):
        notes.add(n, "else", c)
    else:
        notes.add(n, "head", c)
    return True


def _in_else_junction(n: A.IfClause, c: Comment) -> bool:
    """Whether a trailing comment follows code of `} else {` rather than of `if ... then {`."""
    if n.then:
        return c.prev > _last(n.then[-1])
    return c.prev_token in ("}", "else") or "else" in c.line_tokens


def _attach_own_line(outline: _Outline, c: Comment, notes: _Notes) -> None:
    p = c.start
    path = outline.path(p)
    if not path:
        following = outline.following(outline.module, p)
        if following is None:
            notes.add(outline.module, "eof", c)
        else:
            notes.add(following, "lead", c)
        return
    n, depth = path[-1], len(path) - 1
    if _blocks(n) is None or c.depth < depth:
        notes.add(n, "lead", c)
    elif c.depth == depth:  # between the node's first word and its `{`
        if isinstance(n, A.ToolDecl):
            _attach_tool_header(n, c, notes)
        elif isinstance(n, A.IfClause) and c.prev_token in ("}", "else"):
            notes.add(n, "end0", c)  # in `} else {`: keep it with the `then` block
        else:
            notes.add(n, "lead", c)
    else:  # inside the braces
        if c.next_token == "}":
            slot = "end"
            if isinstance(n, A.IfClause):
                slot = "end1" if n.else_ is not None and c.next == _last(n) else "end0"
            notes.add(n, slot, c)
            return
        following = outline.following(n, p)
        if following is not None:
            notes.add(following, "lead", c)
        else:
            notes.add(n, "end1" if isinstance(n, A.IfClause) and n.else_ is not None else "end", c)


def _attach_tool_header(tool: A.ToolDecl, c: Comment, notes: _Notes) -> None:
    after_params = not tool.params or c.start > _end(tool.params[-1])
    kind = None
    if c.next_token in ("say", "gives", "pages", "consumes", "produces"):
        kind = c.next_token
    elif c.next_token.startswith('"') and c.prev_token != "=" and after_params:
        kind = c.prev_token if c.prev_token in ("say", "gives") else "description"
    elif c.next_token == "{":
        notes.add(tool, "open", c)
        return
    if kind is not None and _tool_has(tool, kind):
        notes.add(tool, f"lead:{kind}", c)
    else:
        notes.add(tool, "lead", c)


# ─────────────────────────── expressions ───────────────────────────

# Binding strength, lowest first, following the grammar's layers.
COND, IMPLIES, OR, AND, NOT, COMPARE, SUM, TERM, NEG, POSTFIX, ATOM = range(11)

# op → (its level, the least level its left operand may have unparenthesised, same for right)
_BINARY: dict[str, tuple[int, int, int]] = {
    "implies": (IMPLIES, OR, IMPLIES),
    "or": (OR, OR, AND),
    "and": (AND, AND, NOT),
    **{op: (COMPARE, SUM, SUM) for op in ("==", "!=", "<", "<=", ">", ">=", "in", "not in", "contains")},
    "+": (SUM, SUM, TERM),
    "-": (SUM, SUM, TERM),
    "*": (TERM, TERM, NEG),
    "/": (TERM, TERM, NEG),
    "%": (TERM, TERM, NEG),
}


def format_literal(lit: A.Literal) -> str:
    """A constant as written in source; negative numbers keep their sign."""
    if lit.kind == "string":
        return encode_string(str(lit.value))
    if lit.kind == "bool":
        return "true" if lit.value else "false"
    return str(lit.value)


def format_retraction(r: A.Retraction | None) -> str:
    """` retracted when status == cancelled` after a state's type, or "" for none."""
    if r is None:
        return ""
    if r.with_parent:
        return f" retracted with {r.field}"
    return f" retracted when {r.field}" + ("" if r.value is None else f" == {format_literal(r.value)}")


def format_expr(expr: A.Expr) -> str:
    """One expression with the fewest parentheses that keep its tree."""
    return _expr(expr, COND)


def _expr(e: A.Expr, need: int) -> str:
    text, level = _expr_level(e)
    return f"({text})" if level < need else text


def _where(where: A.Expr | None) -> str:
    return "" if where is None else f" where {_expr(where, COND)}"


def _expr_level(e: A.Expr) -> tuple[str, int]:
    if isinstance(e, A.Literal):
        text = format_literal(e)
        return text, NEG if text.startswith("-") else ATOM
    if isinstance(e, A.Var):
        return e.name, ATOM
    if isinstance(e, A.Field):
        return f"{_expr(e.obj, POSTFIX)}.{e.name}", POSTFIX
    if isinstance(e, A.Index):
        return f"{_expr(e.obj, POSTFIX)}[{_expr(e.key, COND)}]", POSTFIX
    if isinstance(e, A.Call):
        args = ", ".join(_expr(a.value, COND) if a.name is None else f"{a.name}: {_expr(a.value, COND)}" for a in e.args)
        return f"{e.func}({args})", ATOM
    if isinstance(e, A.ListLit):
        return "[" + ", ".join(_expr(x, COND) for x in e.items) + "]", ATOM
    if isinstance(e, A.Unary):
        if e.op == "not":
            return f"not {_expr(e.operand, NOT)}", NOT
        if e.op == "-":
            return f"-{_expr(e.operand, NEG)}", NEG
        raise ValueError(f"unknown unary operator {e.op!r}")
    if isinstance(e, A.Binary):
        if e.op not in _BINARY:
            raise ValueError(f"unknown binary operator {e.op!r}")
        level, left, right = _BINARY[e.op]
        return f"{_expr(e.left, left)} {e.op} {_expr(e.right, right)}", level
    if isinstance(e, A.Cond):
        return f"if {_expr(e.test, COND)} then {_expr(e.then, COND)} else {_expr(e.else_, COND)}", COND
    if isinstance(e, A.Quant):
        head = f"{e.kind}({e.var} in {_expr(e.domain, POSTFIX)}{_where(e.where)}"
        if e.body is not None:
            head += f": {_expr(e.body, COND)}"
        return head + ")", ATOM
    if isinstance(e, A.Select):
        by = "" if e.by is None else f" by {_expr(e.by, COND)}"
        return f"{e.kind}({e.var} in {_expr(e.domain, POSTFIX)}{_where(e.where)}{by})", ATOM
    if isinstance(e, A.Project):
        return f"{e.kind}({_expr(e.expr, COND)} for {e.var} in {_expr(e.domain, POSTFIX)}{_where(e.where)})", ATOM
    raise TypeError(f"not an expression: {type(e).__name__}")


# ─────────────────────────── one-line pieces ───────────────────────────


def _dotted(path: Sequence[str]) -> str:
    return ".".join(path)


def _type(t: A.TypeExpr) -> str:
    if isinstance(t, A.NamedType):
        return t.name
    if isinstance(t, A.ListType):
        return f"list[{_type(t.elem)}]"
    if isinstance(t, A.TableType):
        return f"table[{_type(t.elem)}]"
    raise TypeError(f"not a type: {type(t).__name__}")


def _default(lit: A.Literal | None) -> str:
    return "" if lit is None else f" = {format_literal(lit)}"


def _desc(text: str | None) -> str:
    return "" if text is None else " " + encode_string(text)


def _gen(g) -> str:
    if isinstance(g, A.GenConst):
        return format_literal(g.value)
    if isinstance(g, A.GenRange):
        return f"{format_literal(g.lo)}..{format_literal(g.hi)}"
    if isinstance(g, A.GenPickPool):
        return f"pick({g.pool})"
    if isinstance(g, A.GenPickList):
        return "pick([" + ", ".join(format_literal(v) for v in g.values) + "])"
    if isinstance(g, A.GenWeighted):
        return "weighted(" + ", ".join(f"{format_literal(w.value)}: {w.weight}" for w in g.weights) + ")"
    if isinstance(g, A.GenRef):
        where = ""
        if g.where is not None:
            f, values = g.where
            where = f" where {f} == {format_literal(values[0])}" if len(values) == 1 else f" where {f} in [" + ", ".join(format_literal(v) for v in values) + "]"
        elif g.matches is not None:
            where = f" where {g.matches[0]} == {_gen(g.matches[1])}"
        return f"{'unique ' if g.unique else ''}ref {_dotted(g.path)}{where}"
    if isinstance(g, A.GenSlug):
        return f"slug({_gen(g.arg)})" if g.sep == "." else f"slug({_gen(g.arg)}, {encode_string(g.sep)})"
    if isinstance(g, A.GenSame):
        return f"same({'.'.join(g.path)})"
    if isinstance(g, A.GenAfter):
        ranges = [(g.lo, g.hi)] + ([g.within] if g.within else [])
        return f"{'before' if g.before else 'after'}(" + ", ".join([*(_gen(a) for a in g.args), *(f"{format_literal(lo)}..{format_literal(hi)}" for lo, hi in ranges)]) + ")"
    if isinstance(g, A.GenFormat):
        return "format(" + ", ".join([encode_string(g.template), *(_gen(a) for a in g.args)]) + ")"
    raise TypeError(f"not a seed generator: {type(g).__name__}")


def _pool_item(v) -> str:
    if isinstance(v, A.Profile):
        return "{ " + ", ".join(f"{f.name}: {format_literal(f.value)}" for f in v.fields) + " }"
    return format_literal(v)


def _inits(fields: Sequence[A.FieldInit]) -> str:
    if not fields:
        return "{}"
    return "{ " + ", ".join(_init_items(fields)) + " }"


def _init_items(fields: Sequence[A.FieldInit]) -> list[str]:
    return [f"{f.name}: {_expr(f.value, COND)}" for f in fields]


def _wrapped(n, items: Sequence, depth: int, head: str, texts: list[str], close: str) -> list[tuple[int, str]]:
    """A list of items (pool values, the fields of an `insert` or `update`) one per line, as
    `head`, items, `close`, where its author wrote it so: where the first item starts on a later
    line than the node. Otherwise the node's one line. Expressions are never broken."""
    if not items or items[0].span.line == n.span.line:
        return [(depth, _leaf(n))]
    return [(depth, head), *((depth + 1, t + ",") for t in texts), (depth, close)]


def _target(t: A.Target) -> str:
    if isinstance(t, A.KeyTarget):
        return f"{t.table}[{_expr(t.key, COND)}]"
    return f"{t.var} in {t.table} where {_expr(t.where, COND)}"


def _stmt(s: A.Stmt) -> str:
    """Statements without an expression to wrap (the others go through `_leaf_lines`)."""
    if isinstance(s, A.Insert):
        bind = "" if s.bind is None else f"let {s.bind} = "
        return f"{bind}insert {s.table} {_inits(s.fields)}"
    if isinstance(s, A.Update):
        return f"update {_target(s.target)} {_inits(s.fields)}"
    if isinstance(s, A.Delete):
        return f"delete {_target(s.target)}"
    if isinstance(s, A.Modifies):
        fields = "" if s.fields is None else " { " + ", ".join(s.fields) + " }"
        return f"modifies {s.table}{fields}"
    raise TypeError(f"not a statement: {type(s).__name__}")


# Lines longer than this are broken at top-level `and`/`or`/`implies` and after a quantifier's
# `:`, each continuation one level deeper. Other expressions stay on one line, however long.
WIDTH = 100


def _break(e: A.Expr, need: int, width: int) -> list[tuple[int, str]]:
    """An expression as lines of (extra depth, text), each fitting `width` where it can."""
    text = _expr(e, need)
    if len(text) <= width:
        return [(0, text)]
    parens = _expr_level(e)[1] < need
    inner = width - 2 if parens else width
    if isinstance(e, A.Binary) and e.op in ("and", "or", "implies"):
        _, left_need, right_need = _BINARY[e.op]
        left = _break(e.left, left_need, inner)
        right = _break(e.right, right_need, inner - len(INDENT) - len(e.op) - 1)
        lines = left + [(1, f"{e.op} {right[0][1]}")] + [(d + 1, t) for d, t in right[1:]]
    elif isinstance(e, A.Quant) and e.body is not None:
        head = f"{e.kind}({e.var} in {_expr(e.domain, POSTFIX)}{_where(e.where)}:"
        body = _break(e.body, COND, inner - len(INDENT))
        lines = [(0, head)] + [(d + 1, t) for d, t in body]
        lines[-1] = (lines[-1][0], lines[-1][1] + ")")
    else:
        return [(0, text)]
    if parens:
        lines[0] = (lines[0][0], "(" + lines[0][1])
        lines[-1] = (lines[-1][0], lines[-1][1] + ")")
    return lines


def _wrap(prefix: str, e: A.Expr, suffix: str, depth: int) -> list[tuple[int, str]]:
    """`prefix EXPR suffix` on one line if it fits, else broken by `_break`."""
    one = f"{prefix}{_expr(e, COND)}{suffix}"
    room = WIDTH - len(INDENT) * depth
    if len(one) <= room:
        return [(depth, one)]
    lines = [(depth + d, t) for d, t in _break(e, COND, room - len(prefix))]
    lines[0] = (lines[0][0], prefix + lines[0][1])
    lines[-1] = (lines[-1][0], lines[-1][1] + suffix)
    return lines


def _leaf_lines(n, depth: int) -> list[tuple[int, str]]:
    """The lines of a node that has no block of its own, as (depth, text)."""
    if isinstance(n, A.Require):
        return _wrap("require ", n.cond, f" else {n.kind} {encode_string(n.message)}", depth)
    if isinstance(n, A.Let):
        return _wrap(f"let {n.name} = ", n.value, "", depth)
    if isinstance(n, A.Set):
        return _wrap(f"set {n.name} = ", n.value, "", depth)
    if isinstance(n, A.Return):
        return _wrap("return ", n.value, "", depth)
    if isinstance(n, A.Ensures):
        return _wrap("ensures ", n.cond, "", depth)
    if isinstance(n, A.Invariant):
        return _wrap("invariant ", n.expr, "", depth)
    if isinstance(n, A.PoolDecl):
        return _wrapped(n, n.values, depth, f"pool {n.name} = [", [_pool_item(v) for v in n.values], "]")
    if isinstance(n, A.Insert):
        bind = "" if n.bind is None else f"let {n.bind} = "
        return _wrapped(n, n.fields, depth, f"{bind}insert {n.table} {{", _init_items(n.fields), "}")
    if isinstance(n, A.Update):
        return _wrapped(n, n.fields, depth, f"update {_target(n.target)} {{", _init_items(n.fields), "}")
    return [(depth, _leaf(n))]


def _leaf(n) -> str:
    """The one line of a node that has no block of its own."""
    if isinstance(n, A.ImportModule):
        return f"import {_dotted(n.path)}"
    if isinstance(n, A.ImportFile):
        return f"import {encode_string(n.path)}"
    if isinstance(n, A.TypeDecl):
        return f"type {n.name} = {_type(n.type)}"
    if isinstance(n, A.PoolDecl):
        return f"pool {n.name} = [" + ", ".join(_pool_item(v) for v in n.values) + "]"
    if isinstance(n, A.FieldDecl):
        label = "" if n.label is None else " " + encode_string(n.label)
        return f"{'key ' if n.is_key else ''}{n.name}: {_type(n.type)}{_default(n.default)}{label}"
    if isinstance(n, A.StateDecl):
        return f"state {n.name}: {_type(n.type)}{_default(n.default)}{format_retraction(n.retracted)}"
    if isinstance(n, A.SeedDecl):
        return f"seed {n.name}: {_gen(n.gen)}"
    if isinstance(n, A.SeedField):
        return f"{n.name}: {_gen(n.gen)}"
    if isinstance(n, A.EnumMember):
        return n.name
    if isinstance(n, A.UseDecl):
        return "use " + ", ".join(_dotted(m) for m in n.modules)
    if isinstance(n, A.Untouched):
        var = "" if n.var is None else f"{n.var} in "
        return f"untouched {var}{_dotted(n.table)}{_where(n.where)}"
    if isinstance(n, A.OrderClause):
        on = "" if not n.on else " on " + ", ".join(n.on)
        return f"order {_dotted(n.tool)} after {_dotted(n.after)}{on}"
    return _stmt(n)


def _header(n) -> str:
    """The text before ` {` on the first line of a node with a block."""
    if isinstance(n, A.ServiceDecl):
        return f"service {n.name}{_desc(n.description)}"
    if isinstance(n, A.WorldDecl):
        return f"world {n.name}{_desc(n.description)}"
    if isinstance(n, A.RecordDecl):
        noun = "" if n.noun is None else " " + encode_string(n.noun)
        known = "" if not n.known_by else " known by " + ", ".join(n.known_by)
        return f"record {n.name}{noun}{known}"
    if isinstance(n, A.EnumDecl):
        return f"enum {n.name}"
    if isinstance(n, A.SeedDecl):
        return f"seed {n.name}: {_gen(n.gen)} rows" + (f" from {n.profiles}" if n.profiles else "") + (" distinct by " + ", ".join(n.distinct) if n.distinct else "")
    if isinstance(n, A.ConstraintDecl):
        return f"{'rule' if _is_rule(n) else 'constraint'} {n.name}{_desc(n.description)}"
    if isinstance(n, A.ForallClause):
        return f"forall {n.var} in {_dotted(n.domain)}{_where(n.where)}"
    if isinstance(n, A.IfClause):
        return f"if {_expr(n.cond, COND)} then"
    raise TypeError(f"no header for {type(n).__name__}")


def _is_rule(n: A.ConstraintDecl) -> bool:
    return n.is_rule and len(n.clauses) == 1 and isinstance(n.clauses[0], A.Invariant)


# Neighbours of one group share a paragraph; everything else (tools, constraints, services,
# worlds, and a change of group) is set off by a blank line.
_GROUPS = (
    (A.ImportModule, A.ImportFile),
    (A.TypeDecl,),
    (A.EnumDecl,),
    (A.PoolDecl,),
    (A.RecordDecl, A.StateDecl),  # the data a service holds
    (A.SeedDecl,),
    (A.UseDecl,),
)


def _blank_between(a, b) -> bool:
    """Whether a blank line separates two neighbouring members of a file, service or world."""
    return not any(isinstance(a, g) and isinstance(b, g) for g in _GROUPS)


# ─────────────────────────── printing ───────────────────────────


class _Printer:
    def __init__(self, notes: _Notes):
        self.notes = notes
        self.lines: list[str] = []
        self.emitted = 0

    # lines and comments
    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def comments(self, depth: int, comments: Sequence[Comment], keep_blank_after: bool = True) -> None:
        for i, c in enumerate(comments):
            self.lines.append(INDENT * depth + c.text)
            self.emitted += 1
            if c.blank_after and (keep_blank_after or i + 1 < len(comments)):
                self.lines.append("")

    def line(self, depth: int, text: str, trail: Sequence[Comment] = (), demote_depth: int | None = None) -> None:
        """Write one line; trailing comments follow it. Any that cannot have more text after it
        on the same line moves to its own line just before (where it reads back the same)."""
        trail = self.demote(depth if demote_depth is None else demote_depth, trail)
        if trail:
            text += " " + " ".join(c.text for c in trail)
            self.emitted += len(trail)
        self.lines.append(INDENT * depth + text)

    def end_comments(self, depth: int, comments: Sequence[Comment], after_content: bool) -> None:
        if comments and comments[0].blank_before and after_content:
            self.blank()
        self.comments(depth, comments, keep_blank_after=False)

    # nodes
    def module(self, m: A.Module) -> str:
        self.members(0, m.items)
        self.end_comments(0, self.notes.get(m, "eof"), after_content=bool(self.lines))
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return "\n".join(self.lines) + "\n" if self.lines else ""

    def members(self, depth: int, items: Sequence, spaced: bool = True) -> None:
        prev = None
        for it in items:
            if spaced and prev is not None and _blank_between(prev, it):
                self.blank()
            self.node(depth, it)
            prev = it

    def node(self, depth: int, n) -> None:
        self.comments(depth, self.notes.get(n, "lead"))
        if isinstance(n, A.ToolDecl):
            self.tool(depth, n)
        elif isinstance(n, A.IfClause):
            self.if_clause(depth, n)
        elif isinstance(n, A.EnumDecl) and not self.notes.has_inside(n):
            members = ", ".join(m.name for m in n.members)
            self.line(depth, f"enum {n.name} {{ {members} }}", self.notes.get(n, "trail"))
        elif isinstance(n, A.ConstraintDecl) and _is_rule(n):
            self.block(depth, n, [n.clauses[0]], self.rule_body, compact=False)
        elif _blocks(n) is not None:
            self.block(depth, n, _kids(n), self.node_in_block(n))
        else:
            self.leaf(depth, n)

    def leaf(self, depth: int, n) -> None:
        *first, (last_depth, last) = _leaf_lines(n, depth)
        trail = self.notes.get(n, "trail")
        if first:  # trailing comments go after the closing bracket; demoted ones before the node
            trail = self.demote(depth, trail)
        for d, text in first:
            self.lines.append(INDENT * d + text)
        self.line(last_depth, last, trail)

    def demote(self, depth: int, trail: Sequence[Comment]) -> list[Comment]:
        """Move all but the last trailing comment to their own lines when the earlier ones
        cannot have text after them; return what stays trailing."""
        trail = list(trail)
        if len(trail) > 1 and not all(c.joinable for c in trail[:-1]):
            self.comments(depth, trail[:-1], keep_blank_after=False)
            trail = trail[-1:]
        return trail

    def node_in_block(self, n):
        if isinstance(n, (A.ServiceDecl, A.WorldDecl)):
            return lambda d, kids: self.members(d, kids)
        if isinstance(n, A.EnumDecl):
            return lambda d, kids: [self.enum_member(d, k) for k in kids]
        return lambda d, kids: self.members(d, kids, spaced=False)

    def enum_member(self, depth: int, m: A.EnumMember) -> None:
        self.comments(depth, self.notes.get(m, "lead"))
        self.line(depth, m.name + ",", self.notes.get(m, "trail"))

    def rule_body(self, depth: int, kids: list) -> None:
        inv = kids[0]
        self.comments(depth, self.notes.get(inv, "lead"))
        *first, (last_depth, last) = _wrap("", inv.expr, "", depth)
        for d, text in first:
            self.lines.append(INDENT * d + text)
        self.line(last_depth, last, self.notes.get(inv, "trail"))

    def block(self, depth: int, n, kids: list, body, compact: bool = True) -> None:
        header = _header(n)
        head, end, trail = self.notes.get(n, "head"), self.notes.get(n, "end"), self.notes.get(n, "trail")
        if compact and not kids and not head and not end:
            self.line(depth, header + " {}", trail, demote_depth=depth)
            return
        self.line(depth, header + " {", head, demote_depth=depth)
        body(depth + 1, kids)
        self.end_comments(depth + 1, end, after_content=bool(kids))
        self.line(depth, "}", trail, demote_depth=depth + 1)

    def if_clause(self, depth: int, n: A.IfClause) -> None:
        notes = self.notes
        head, end0, end1 = notes.get(n, "head"), notes.get(n, "end0"), notes.get(n, "end1")
        els, trail = notes.get(n, "else"), notes.get(n, "trail")
        header = _header(n)
        if n.else_ is None and not n.then and not head and not end0:
            self.line(depth, header + " {}", trail, demote_depth=depth)
            return
        self.line(depth, header + " {", head, demote_depth=depth)
        self.members(depth + 1, n.then, spaced=False)
        self.end_comments(depth + 1, end0, after_content=bool(n.then))
        if n.else_ is not None and not n.else_ and not els and not end1:
            self.line(depth, "} else {}", trail, demote_depth=depth + 1)
            return
        if n.else_ is not None:
            self.line(depth, "} else {", els, demote_depth=depth + 1)
            self.members(depth + 1, n.else_, spaced=False)
            self.end_comments(depth + 1, end1, after_content=bool(n.else_))
        self.line(depth, "}", trail, demote_depth=depth + 1)

    def tool(self, depth: int, t: A.ToolDecl) -> None:
        notes = self.notes
        params = ", ".join(f"{p.name}: {_type(p.type)}{_default(p.default)}" for p in t.params)
        h0 = f"{'simulated ' if t.simulated else ''}tool {t.name}({params})"
        if t.result is not None:
            h0 += f" -> {_type(t.result)}"
        clauses = []
        if t.description is not None:
            clauses.append(("description", encode_string(t.description)))
        if t.say is not None:
            clauses.append(("say", f"say {encode_string(t.say)}"))
        if t.gives is not None:
            clauses.append(("gives", f"gives {encode_string(t.gives)}"))
        if t.pages is not None:
            clauses.append(("pages", f"pages {t.pages}"))
        if t.consumes is not None:
            clauses.append(("consumes", "consumes " + ", ".join(x.name for x in t.consumes)))
        if t.produces is not None:
            clauses.append(("produces", "produces " + ", ".join(x.name for x in t.produces)))
        head, end, trail = notes.get(t, "head"), notes.get(t, "end"), notes.get(t, "trail")
        opening = notes.get(t, "open")
        if clauses:
            self.line(depth, h0, notes.get(t, "trail:h0"), demote_depth=depth)
            for kind, text in clauses:
                self.comments(depth + 1, notes.get(t, f"lead:{kind}"))
                self.line(depth + 1, text, notes.get(t, f"trail:{kind}"))
            self.comments(depth + 1, opening, keep_blank_after=False)
            if not t.body and not head and not end:
                self.line(depth, "{}", trail, demote_depth=depth + 1)
                return
            self.line(depth, "{", head, demote_depth=depth + 1)
        else:
            if not t.body and not head and not end and not opening and not notes.get(t, "trail:h0"):
                self.line(depth, h0 + " {}", trail, demote_depth=depth)
                return
            self.line(depth, h0 + " {", [*notes.get(t, "trail:h0"), *head], demote_depth=depth)
            self.comments(depth + 1, opening, keep_blank_after=False)
        self.members(depth + 1, t.body, spaced=False)
        self.end_comments(depth + 1, end, after_content=bool(t.body))
        self.line(depth, "}", trail, demote_depth=depth + 1)


# ─────────────────────────── entry points ───────────────────────────


def format_module(module: A.Module, comments: Sequence[Comment] = ()) -> str:
    """The canonical text of a module. `comments` (from `scan_comments` on the module's own
    source) are placed by the spans of the nodes around them; every one is printed once."""
    comments = list(comments)
    printer = _Printer(_attach(module, comments))
    text = printer.module(module)
    if printer.emitted != len(comments):  # a formatter bug; refuse rather than drop a comment
        raise RuntimeError(f"formatter placed {printer.emitted} of {len(comments)} comments")
    return text


def format_source(data: bytes | str, file: str = "<input>") -> str:
    """Parse `.world` text and print it canonically, comments included. Raises ParseFailure."""
    module = parse_module(data, file)
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    text = text.replace("\r\n", "\n")
    return format_module(module, scan_comments(text))
