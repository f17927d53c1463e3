"""Lay generated Python out within 100 columns, as black would: a statement that does not fit is
split at a bracket, and what a bracket holds, if it still does not fit, at its commas or operators,
one piece a line. It moves line breaks only (adding the parentheses and trailing commas that make
the breaks legal); it never changes a token, so the module means what it meant on one line."""

from __future__ import annotations

import keyword
import re
from tokenize import NAME, NUMBER, OP, STRING

WIDTH = 100
_STEP = 4

# Where a line inside brackets may break, strongest first (black's priorities).
_COMPREHENSION, _COMMA, _TERNARY, _LOGIC, _COMPARE, _ARITH, _TERM = 20, 18, 16, 14, 10, 5, 4
_OPERATORS = {"+": _ARITH, "-": _ARITH, "*": _TERM, "/": _TERM, "//": _TERM, "%": _TERM}
_COMPARISONS = {"<", ">", "==", "!=", "<=", ">="}
_OPEN, _CLOSE = "([{", ")]}"
_OPERANDS = {"True", "False", "None"}

# The tokens the generator writes: ASCII names, numbers, one-line string literals (`repr`),
# operators and a trailing comment. (The standard `tokenize` takes ten times as long.)
_TOKEN = re.compile(
    r"""(?P<space>[ \t]+)
    | (?P<comment>\#.*)
    | (?P<string>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<number>[0-9][0-9_]*(?:\.[0-9_]+)?)
    | (?P<op>\*\*|//|==|!=|<=|>=|<<|>>|->|:=|[-+*/%@&|^~<>()\[\]{},:;.=])""",
    re.X,
)
_KINDS = {"string": STRING, "name": NAME, "number": NUMBER, "op": OP}


def layout(source: str, width: int = WIDTH) -> str:
    """`source` with every line longer than `width` broken over lines; each such line must be a
    whole statement (the generator writes one statement a line). A line that cannot be broken
    (one long string literal) stays as it is."""
    out: list[str] = []
    for line in source.split("\n"):
        out.extend(_Statement(line, width).lines() if len(line) > width else (line,))
    return "\n".join(out)


class _Statement:
    """One generated statement, cut into tokens (none when it is not what the generator writes,
    so that it stays as it is), and the lines it is laid out on."""

    def __init__(self, line: str, width: int):
        self.line, self.width = line, width
        self.code = line.lstrip(" ")
        self.indent = len(line) - len(self.code)
        self.comment = ""
        self.toks: list[tuple[int, str, int, int]] = []  # (kind, text, start column, end column)
        at = 0
        for m in _TOKEN.finditer(self.code):
            if m.start() != at:  # not what the generator writes: leave the line alone
                break
            at = m.end()
            group = m.lastgroup
            if group == "comment":
                self.comment = m.group()
            elif group != "space":
                self.toks.append((_KINDS[group], m.group(), m.start(), at))
        if at != len(self.code):
            self.toks = []
        self.match: dict[int, int] = {}  # opening bracket → its closing bracket
        self.opening: dict[int, int] = {}  # and back
        self.depth: list[int] = []
        stack: list[int] = []
        for i, (kind, s, _, _) in enumerate(self.toks):
            if kind == OP and s in _CLOSE:
                if not stack:
                    self.toks = []
                    break
                self.opening[i] = stack[-1]
                self.match[stack.pop()] = i
            self.depth.append(len(stack))
            if kind == OP and s in _OPEN:
                stack.append(i)
        if stack:
            self.toks = []

    def lines(self) -> list[str]:
        if not self.toks:
            return [self.line]
        suffix = "  " + self.comment if self.comment else ""
        return self._fit(0, len(self.toks), self.indent, suffix, inside=False)

    def _text(self, lo: int, hi: int) -> str:
        return self.code[self.toks[lo][2] : self.toks[hi - 1][3]]

    def _fit(self, lo: int, hi: int, indent: int, suffix: str, inside: bool) -> list[str]:
        line = " " * indent + self._text(lo, hi) + suffix
        if len(line) <= self.width:
            return [line]
        split = self._at_delimiters(lo, hi, indent, suffix) if inside else self._in_parentheses(lo, hi, indent, suffix)
        return split or self._at_bracket(lo, hi, indent, suffix) or [line]

    # ─────────────────────────── inside brackets ───────────────────────────

    def _delimiters(self, lo: int, hi: int) -> tuple[int, list[int]]:
        """The strongest kind of break at the outer level of lo..hi and where each piece after
        the first starts (for commas: the commas themselves)."""
        base = self.depth[lo]
        found: list[tuple[int, int]] = []
        in_for = in_lambda = False  # a `for` target or `lambda` parameters: no break there
        after_for = False
        for i in range(lo, hi):
            if self.depth[i] != base:
                continue
            typ, s = self.toks[i][:2]
            prev = self.toks[i - 1][1] if i > lo else ""
            kind = None
            if in_lambda:
                in_lambda = s != ":"
                continue
            if in_for:
                in_for = s != "in"
                continue
            if typ == NAME and s == "lambda":
                in_lambda = True
            elif typ == OP and s == ",":
                kind = _COMMA
            elif typ == NAME and s == "for":
                kind, in_for, after_for = _COMPREHENSION, True, True
            elif typ == NAME and s == "if":
                kind = _COMPREHENSION if after_for else _TERNARY
            elif typ == NAME and s == "else":
                kind = _TERNARY
            elif typ == NAME and s in ("and", "or"):
                kind = _LOGIC
            elif typ == NAME and s == "not":
                nxt = self.toks[i + 1][1] if i + 1 < hi else ""
                kind = _COMPARE if nxt == "in" and prev != "is" else None
            elif typ == NAME and s == "in":
                kind = None if prev == "not" else _COMPARE
            elif typ == NAME and s == "is":
                kind = _COMPARE
            elif typ == OP and s in _COMPARISONS:
                kind = _COMPARE
            elif typ == OP and s in _OPERATORS and i > lo and self._operand_ends(i - 1):
                kind = _OPERATORS[s]
            if kind is not None and i > lo:
                found.append((kind, i))
        if not found:
            return 0, []
        top = max(k for k, _ in found)
        return top, [i for k, i in found if k == top]

    def _operand_ends(self, i: int) -> bool:
        """Whether token i can end an operand, so that an operator after it is binary."""
        typ, s = self.toks[i][:2]
        if typ == NAME:
            return s in _OPERANDS or not keyword.iskeyword(s)
        return typ in (NUMBER, STRING) or s in _CLOSE

    def _at_delimiters(self, lo: int, hi: int, indent: int, suffix: str) -> list[str] | None:
        kind, cuts = self._delimiters(lo, hi)
        if not cuts:
            return None
        out: list[str] = []
        if kind == _COMMA:
            # one item a line, each with its comma, as black does once a list is exploded
            bounds = [lo] + [c + 1 for c in cuts]
            pieces = [(a, b) for a, b in zip(bounds, [c for c in cuts] + [hi]) if a < b]
            for n, (a, b) in enumerate(pieces):
                out += self._fit(a, b, indent, "," + (suffix if n == len(pieces) - 1 else ""), True)
            return out
        bounds = [lo, *cuts, hi]
        for n in range(len(bounds) - 1):
            out += self._fit(bounds[n], bounds[n + 1], indent, suffix if n == len(bounds) - 2 else "", True)
        return out

    # ─────────────────────────── statements ───────────────────────────

    def _in_parentheses(self, lo: int, hi: int, indent: int, suffix: str) -> list[str] | None:
        """A condition, return value, assignment or loop domain with operators at its outer level,
        wrapped in parentheses and broken at them (black's invisible parentheses made visible),
        unless one operator and a bracket closing the line make a split at that bracket enough."""
        toks = self.toks
        first = toks[lo][1]
        a = b = None
        if first in ("if", "elif", "while") and toks[hi - 1][1] == ":":
            a, b = lo + 1, hi - 1
        elif first == "for" and toks[hi - 1][1] == ":":
            a = next((i + 1 for i in range(lo, hi) if toks[i][1] == "in" and self.depth[i] == 0), None)
            b = hi - 1
        elif first == "return":
            a, b = lo + 1, hi
        else:
            a = next((i + 1 for i in range(lo, hi) if toks[i][:2] == (OP, "=") and self.depth[i] == 0), None)
            b = hi
        if a is None or a >= b:
            return None
        _, cuts = self._delimiters(a, b)
        if not cuts:
            return None
        last = toks[b - 1][1]
        if len(cuts) == 1 and last in _CLOSE:
            if indent + len(self._text(lo, self.opening[b - 1] + 1)) <= self.width:
                return None
        pad = " " * indent
        tail = ")" + (self._text(b, hi) if b < hi else "")
        return [pad + self._text(lo, a) + " ("] + self._fit(a, b, indent + _STEP, "", True) + [pad + tail + suffix]

    def _at_bracket(self, lo: int, hi: int, indent: int, suffix: str) -> list[str] | None:
        """Break after an opening bracket and before its closing one: the last bracket whose
        opening line and closing line fit and which holds more than one token (splitting
        `f(x)['key']` at `['key']` would gain nothing), else the last that holds anything."""
        base = self.depth[lo]
        groups = [(o, self.match[o]) for o in range(lo, hi) if o in self.match and self.depth[o] == base and self.match[o] > o + 1]
        if not groups:
            return None
        pad = " " * indent
        chosen = next(
            (
                (o, c)
                for o, c in reversed(groups)
                if c > o + 2
                and indent + len(self._text(lo, o + 1)) <= self.width
                and indent + len(self._text(c, hi)) + len(suffix) <= self.width
            ),
            groups[-1],
        )
        o, c = chosen
        body = self._fit(o + 1, c, indent + _STEP, "", True)
        return [pad + self._text(lo, o + 1), *body, pad + self._text(c, hi) + suffix]
