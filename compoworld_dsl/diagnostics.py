"""Diagnostics: spans, the error-code registry, and rustc-style rendering (text and JSON).
This module is the bottom layer: it imports nothing else from the package."""

from __future__ import annotations

import json
import os
from array import array
from typing import Iterable

import attrs


@attrs.frozen(order=True)
class Span:
    """A region of one source file; lines and columns are 1-based, `end_col` is exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    @classmethod
    def point(cls, file: str, line: int, col: int) -> "Span":
        return cls(file, line, col, line, col + 1)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


# The registry: every code the tool can emit, with a one-line description.
# Codes are grouped: E0xx syntax and input, E1xx names, E2xx types, E3xx declarations,
# E4xx effects and tool bodies, E5xx modules, E6xx seeds, E7xx constraints, Wxxx warnings,
# E9xx failures of worldc itself.
# A code, once released, keeps its meaning; retired codes are not reused.
CODES: dict[str, str] = {
    "E001": "the text does not follow the grammar at this point",
    "E002": "a character that cannot start any token",
    "E003": "the file ends in the middle of a declaration",
    "E004": "the file is not valid UTF-8 text",
    "E005": "an expression or block is nested too deeply",
    "E006": "a string literal contains an unknown escape sequence",
    "E007": "a date, time or datetime literal names no real moment",
    "E008": "a clause is given twice in one tool header",
    "E009": "the file cannot be read",
    "E010": "a number literal is out of range or has too many digits",
    "E011": "the file is larger than the size limit",
    "E101": "a name that is not defined in this scope",
    "E102": "a type name that is not defined",
    "E103": "a record has no field of this name",
    "E104": "a service of this name is not defined or not in scope",
    "E105": "a service has no state of this name",
    "E106": "an enum has no member of this name",
    "E107": "a value pool of this name is not defined",
    "E108": "a tool of this name is not defined",
    "E109": "a function of this name is not defined",
    "E110": "a placeholder in a message or `say` phrase names nothing in scope",
    "E111": "a name is defined twice",
    "E201": "a value of one type is used where another is expected",
    "E202": "an operator is applied to operands of the wrong types",
    "E203": "a function is called with the wrong number of arguments",
    "E204": "a value is indexed, iterated or accessed as something it is not",
    "E205": "a comparison of values that can never be equal",
    "E301": "a record stored in a table has no key field",
    "E302": "a record declares more than one key field",
    "E303": "a key field has a type that cannot be a key",
    "E304": "a state table holds something that is not a record",
    "E305": "an enum declares no member or the same member twice",
    "E306": "a type alias refers to itself",
    "E307": "a default value does not fit its declared type",
    "E308": "a table's `retracted when` names no usable field or value",
    "E401": "one tool writes the same field twice",
    "E402": "an insert leaves a required field without a value",
    "E403": "a tool writes state that belongs to another service",
    "E404": "a tool changes the key of a row",
    "E405": "a simulated tool has a body statement that only ordinary tools may have",
    "E406": "an ordinary tool uses a contract statement that only simulated tools may have",
    "E407": "a tool declares a result but does not return one, or returns twice",
    "E408": "a statement comes after `return`",
    "E409": "a `let` name shadows another name in scope",
    "E410": "a tool reads state that belongs to another service",
    "E411": "a `pages` clause that cannot apply: the tool returns no list, a page of fewer than one, or a parameter already called `page`",
    "E501": "an imported file or module does not exist",
    "E502": "modules import each other in a cycle",
    "E503": "a world is declared more than once in the files checked together",
    "E601": "a seed names a table or field that does not exist",
    "E602": "a seed generator does not fit the field it fills",
    "E603": "a seed range is empty or has mismatched bounds",
    "E604": "a seed reference does not name a table with a key",
    "E605": "a table seed leaves a field without a generator or default",
    "E606": "a scalar state has neither a default nor a seed",
    "E607": "a seed asks for more rows, or a larger weight, than seeding allows",
    "E701": "an `untouched` or `forall` clause ranges over something that is not a table",
    "E702": "an `order` clause names tools that do not exist or share no argument",
    "E703": "a constraint's condition or invariant is not true-or-false",
    "W002": "a tool has no `say` phrase, so instructions cannot mention it",
    "W101": "a house rule does not hold on the seeded state for some seeds (`worldc lint`)",
    "W102": "no sampled task can call a tool (`worldc lint`)",
    "W103": "a simulated tool is never sampled (`worldc lint`)",
    "W104": "a table keeps the rows a tool withdraws but declares no retracted state (`worldc lint`)",
    "W105": "a seed picks a field's values from a pool whose name says they mean something else (`worldc lint`)",
    "W106": "a table's record has no `known by`: tasks name its rows by a fallback field (`worldc lint`)",
    "W107": "a read has no `gives`: tasks call its result \"what you find when you ...\" (`worldc lint`)",
    "W108": "a tool has no `say`: tasks ask for it by the words of its name (`worldc lint`)",
    "W109": "a seed's `ref ... where` finds no row for some rows it draws, which are not made (`worldc lint`)",
    "W110": "a house rule that no task can make decide its reward (`worldc lint`)",
    "W111": "a seeded link record whose rows repeat the references it is known by (`worldc lint`)",
    "E901": "the checker failed inside: a bug in worldc, not in the file",
}


def is_syntax_code(code: str) -> bool:
    """E0xx: the file could not be read or parsed, so it declares nothing."""
    return code.startswith("E0")


# The hint shown when a diagnostic carries no more specific `help`: every error has one.
HINTS: dict[str, str] = {
    "E001": "check the syntax in docs/language.md",
    "E002": "remove the character, or put it inside a string",
    "E003": "finish the declaration that is still open",
    "E004": "save the file as UTF-8",
    "E005": "split the expression with `let` or a helper rule",
    "E006": 'use one of \\" \\\\ \\n \\t \\r \\0 \\uXXXX',
    "E007": "dates are YYYY-MM-DD, times HH:MM, datetimes YYYY-MM-DDTHH:MM",
    "E008": "keep one clause of each kind",
    "E009": "check the path and the file's permissions",
    "E010": "integers lie between -9223372036854775807 and 9223372036854775807; decimals have at most 18 digits before the point and 18 after",
    "E011": "split the world into modules joined by `import`",
    "E101": "declare the name, or check its spelling",
    "E102": "declare the type with `type`, `enum` or `record`, or import the module that does",
    "E103": "check the record's declaration for the field names it has",
    "E104": "name a service declared in a module this file imports or uses",
    "E105": "check the service's `state` declarations",
    "E106": "check the enum's declaration for its members",
    "E107": "declare it with `pool NAME = [...]`",
    "E108": "name the tool as `service.tool`",
    "E109": "see the table of built-in functions in docs/language.md",
    "E110": "a placeholder names a parameter or `let`, as `{name}` or `{name.field}`; `{{` gives a brace",
    "E111": "rename one of them",
    "E201": "convert the value, or change the declared type",
    "E202": "see which operators apply to which types in docs/language.md",
    "E203": "check the function's parameters in docs/language.md",
    "E204": "index tables by key and lists by position; iterate over tables and lists",
    "E205": "compare values of the same type",
    "E301": "mark one field of the record with `key`",
    "E302": "keep one `key` field",
    "E303": "keys are id, text, int or email, or a `type` alias of one",
    "E304": "declare a `record` and use `table[Record]`",
    "E305": "list each member once",
    "E306": "define the alias in terms of a built-in type",
    "E307": "write a constant of the declared type",
    "E308": "name a field of the table's record and the value a cancelled row holds, unlike a new row's",
    "E401": "combine the writes into one",
    "E402": "give every field a value, or a default in the record",
    "E403": "call a tool of the service that owns the state",
    "E404": "insert a new row and delete the old one",
    "E405": "a simulated tool declares a contract: `require`, `modifies` and `ensures`",
    "E406": "mark the tool `simulated`, or write its effects as statements",
    "E407": "return exactly once, at the end, when the tool declares `-> TYPE`",
    "E408": "move the statement before the `return`",
    "E409": "pick another name",
    "E410": "services are independent: pass the value in as a parameter, and let a world constraint relate services",
    "E411": "`pages N` goes on a tool that returns `list[...]`, with N of 1 or more; its callers pass `page` (1 first)",
    "E501": "check the path; `stdlib.x` names stdlib/x.world, `a.b` names a/b.world next to this file",
    "E502": "move the shared declarations into a module that both import",
    "E503": "check each world file on its own; a world file must not import another",
    "E601": "seed a state that the service declares, with fields its record has",
    "E602": "use a generator that makes values of the field's type",
    "E603": "write the low bound first; both bounds of one kind",
    "E604": "refer to a table whose record has a `key`",
    "E605": "add a generator for the field, or give it a default in the record",
    "E606": "write `state NAME: TYPE = VALUE` or add `seed NAME: ...`",
    "E607": "a table seed makes at most 10000 rows; a weight is a whole number from 1 to 1000000000",
    "E701": "name a table as `service.table`",
    "E702": "name two tools as `service.tool`, and `on` parameters that both take",
    "E703": "write a condition that is true or false",
    "W002": 'add `say "..."` so sampled instructions can mention the tool',
    "W101": "make the seeds keep the rule, or the rule hold on the data a service starts with",
    "W102": "give the tool key parameters that earlier results hold, or a record with `known by`",
    "W103": "simulated tools are for agents to call; tasks are built from the tools the services run",
    "W104": "write `retracted when FIELD == VALUE` on the table if a withdrawn row counts as never made",
    "W105": "pick from a pool of values that mean what the field means, or name the pool after what it holds",
    "W106": "write `known by FIELD` on the record with the field a person names one by (a name, a title)",
    "W107": "write `gives \"...\"` on the tool with a noun phrase for its result (\"the docket notes on {matter}\")",
    "W108": "write `say \"...\"` on the tool with how a person asks for it (\"close matter {matter}\")",
    "W109": "seed the referenced table so that every value the filter asks for has a row",
    "W110": "let the rule read a field of the rows it protects, or of a record they refer to",
    "W111": "write `rows distinct by` with the fields the record is known by",
    "E901": "please report this with the file that caused it; the other diagnostics are still valid",
}


@attrs.frozen
class Label:
    """A secondary span with a short note, shown under the main snippet."""

    span: Span
    message: str


def one_line(text: str) -> str:
    """Messages are one line: control characters from decoded strings are shown escaped."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@attrs.frozen
class Diagnostic:
    code: str
    message: str = attrs.field(converter=one_line)
    span: Span
    severity: str = "error"
    labels: tuple[Label, ...] = ()
    notes: tuple[str, ...] = ()
    help: str | None = None

    def __attrs_post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unregistered diagnostic code {self.code}")

    @property
    def hint(self) -> str | None:
        return self.help or HINTS.get(self.code)

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def sort_key(self) -> tuple:
        """Syntax and input errors (E0xx) come first, from every file: after one, other
        diagnostics may be its consequences. Then by file, position, code and message."""
        s = self.span
        return (not is_syntax_code(self.code), s.file, s.line, s.col, self.code, self.message)

    def to_json(self) -> dict:
        s = self.span
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": s.file,
            "line": s.line,
            "column": s.col,
            "end_line": s.end_line,
            "end_column": s.end_col,
            "help": self.hint,
            "notes": list(self.notes),
        }


class SourceCache:
    """Source text by file name, so snippets can be rendered after parsing."""

    def __init__(self) -> None:
        # The text as given, and where each line starts, found on the first request for a line:
        # a list of line strings would cost ~50 bytes a line more than the text, for every file
        # checked, when most checks render no snippet at all.
        self._texts: dict[str, str] = {}
        self._starts: dict[str, array] = {}

    def add(self, file: str, text: str) -> None:
        self._texts[file] = text
        self._starts.pop(file, None)

    def text(self, file: str) -> str | None:
        """The whole text of a file, as added."""
        return self._texts.get(file)

    def merge(self, other: "SourceCache") -> None:
        self._texts.update(other._texts)
        for file in other._texts:
            self._starts.pop(file, None)
        self._starts.update(other._starts)

    def line(self, file: str, line: int) -> str | None:
        text = self._texts.get(file)
        if text is None:
            return None
        starts = self._starts.get(file)
        if starts is None:
            # Lines end at "\n" only, as the parser counts them (not at \r, \f or U+2028).
            starts = array("q", [0])
            pos = text.find("\n")
            while pos != -1:
                starts.append(pos + 1)
                pos = text.find("\n", pos + 1)
            self._starts[file] = starts
        if not 1 <= line <= len(starts):
            return None
        start = starts[line - 1]
        end = text.find("\n", start)
        return text[start : len(text) if end == -1 else end].removesuffix("\r")


_SNIPPET_WIDTH = 120


def _clip(text: str, col: int, width: int) -> tuple[str, int]:
    """Cut a long line to a window around `col` (1-based); returns the text and the new column."""
    if "\t" in text:  # expand tabs in the line and move the column with them
        col = len(text[: col - 1].expandtabs(4)) + 1
        text = text.expandtabs(4)
    if len(text) <= width:
        return text, col
    start = max(0, min(col - 1 - width // 2, len(text) - width))
    clipped = text[start : start + width]
    prefix = "…" if start > 0 else ""
    suffix = "…" if start + width < len(text) else ""
    return prefix + clipped + suffix, col - start + len(prefix)


def render_text(diag: Diagnostic, sources: SourceCache) -> str:
    """rustc-style: `error[E101]: message`, the location, the line with a caret, notes, help."""
    s = diag.span
    out = [f"{diag.severity}[{diag.code}]: {diag.message}", f"  --> {s.file}:{s.line}:{s.col}"]
    src = sources.line(s.file, s.line)
    if src is not None:
        gutter = str(s.line)
        pad = " " * len(gutter)
        shown, col = _clip(src, s.col, _SNIPPET_WIDTH)
        width = (s.end_col - s.col) if s.end_line == s.line else len(src) - s.col + 1
        width = max(1, min(width, len(shown) - col + 1 if len(shown) >= col else 1))
        out += [f"{pad} |", f"{gutter} | {shown}", f"{pad} | {' ' * (col - 1)}{'^' * width}"]
    for label in diag.labels:
        out.append(f"  = note: {label.message} ({label.span})")
    for note in diag.notes:
        out.append(f"  = note: {note}")
    if diag.hint:
        out.append(f"  = help: {diag.hint}")
    return "\n".join(out)


def internal_error(file: str, exc: BaseException) -> Diagnostic:
    """E901 for an exception that escaped the checker: a bug, reported as a diagnostic so that a
    user sees no traceback and `--format json` still prints JSON. The note names the innermost
    frame, enough to find the bug; set WORLDC_TRACEBACK=1 to get the whole traceback instead."""
    where = ""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None:
        code = tb.tb_frame.f_code
        where = f"raised in {code.co_name} ({os.path.basename(code.co_filename)}:{tb.tb_lineno})"
    text = str(exc)
    text = text if len(text) <= 200 else text[:199] + "…"
    return Diagnostic(
        "E901",
        f"internal error while checking this file: {type(exc).__name__}" + (f": {text}" if text else ""),
        Span.point(file, 1, 1),
        notes=(where,) if where else (),
    )


def render_json(diags: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diags], indent=2, ensure_ascii=False)


def sort_diagnostics(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    unique: dict[tuple, Diagnostic] = {}
    for d in diags:
        unique.setdefault((d.sort_key(), d.severity), d)
    return sorted(unique.values(), key=Diagnostic.sort_key)
