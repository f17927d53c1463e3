"""`worldc lsp`: a language server for `.world` files, on pygls (the optional `lsp` extra).

Diagnostics come from the same checker as `worldc check`, run on the editor's unsaved text
(imports are read from disk); formatting is `worldc fmt`'s. Hover, definition, references,
completion and document symbols use a name index built here from the parsed modules and the
checked model, because the checker keeps no table from names to declarations with spans.
The index and its resolver need no pygls; only `build_server` and the handler import it.
`Connection` reads the client's messages itself, with limits, instead of pygls' reader, so that
no input can exhaust memory and every request gets a reply (pygls handles what passes)."""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import logging
import os
import re
import socket
import sys
from pathlib import Path
from typing import Iterator, NamedTuple
from urllib.parse import unquote, urlparse

import attrs

from .check.loader import Program, check_source, display_name
from .check.types import PRIMITIVES, EnumRef, EnumT, RecordT, ServiceRef, TableT, base_of
from .diagnostics import Diagnostic, Span, internal_error
from .resources import grammar_path
from .syntax import ast as A
from .syntax.format import format_literal, format_retraction, format_source
from .syntax.parser import ParseFailure, encode_string

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2  # as in cli/common.py, which this module must not import at load time
MISSING_EXTRA = "worldc: error: the language server needs the optional extra: pip install 'compoworld-dsl[lsp]'"

Range = tuple[int, int, int, int]  # LSP 0-based (start line, start character, end line, end character)

# ─────────────────────────── positions ───────────────────────────


def units(text: str, encoding: str = "utf-16") -> int:
    """How many code units of the client's position encoding `text` takes (LSP's default: UTF-16)."""
    if encoding == "utf-8":
        return len(text.encode("utf-8", errors="surrogatepass"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def to_lsp(line_text: str | None, line: int, col: int, encoding: str = "utf-16") -> tuple[int, int]:
    """A 1-based (line, column in characters) of the parser → LSP's 0-based (line, code units)."""
    if line_text is None:  # a file that could not be read: count characters as units
        return max(line - 1, 0), max(col - 1, 0)
    return max(line - 1, 0), units(line_text[: max(col - 1, 0)], encoding)


def from_lsp(line_text: str, character: int, encoding: str = "utf-16") -> int:
    """LSP's code-unit offset into one line → the 1-based character column the parser uses."""
    used = 0
    for i, ch in enumerate(line_text):
        if used >= character:
            return i + 1
        used += units(ch, encoding)
    return len(line_text) + 1


def uri_to_path(uri: str) -> Path | None:
    """The file a `file:` URI names; None for other schemes (an unsaved `untitled:` buffer)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path)
    if os.name == "nt" and re.match(r"^/[A-Za-z]:", path):
        path = path[1:]
    return Path(path)


# ─────────────────────────── the name index ───────────────────────────

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@functools.lru_cache(maxsize=1)
def keywords() -> tuple[str, ...]:
    """Every keyword of the grammar: the quoted words of `grammar/world.lark`."""
    return tuple(sorted(set(re.findall(r'"([a-z_]+)"', grammar_path().read_text(encoding="utf-8")))))


class Token(NamedTuple):
    """An identifier outside comments and strings; `chain` is the dotted path ending in it
    (`("tasks", "tasks")` for the second name of `tasks.tasks`), `colon` whether `:` follows."""

    name: str
    line: int
    col: int
    chain: tuple[str, ...]
    colon: bool

    @property
    def end_col(self) -> int:
        return self.col + len(self.name)


def tokens(text: str) -> list[Token]:
    """The identifiers of a `.world` text, with the dotted path each one ends."""
    out: list[Token] = []
    recent: list[tuple[str, int]] = []  # the last code pieces: ("w", index into out), (".", -1) or ("o", -1)
    i, n, line, line_start = 0, len(text), 1, 0
    while i < n:
        c = text[i]
        if c == "\n":
            line, line_start = line + 1, i + 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            k = text.rfind("\n", i, j)
            line_start = k + 1 if k >= 0 else line_start
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            i = j + 1 if j < n and text[j] == '"' else j
            recent.append(("o", -1))
        elif (m := _IDENT.match(text, i)) is not None:
            name = m.group()
            chain: tuple[str, ...] = (name,)
            if len(recent) >= 2 and recent[-1][0] == "." and recent[-2][0] == "w":
                chain = out[recent[-2][1]].chain + (name,)
            j = m.end()
            while j < n and text[j] in " \t":
                j += 1
            out.append(Token(name, line, i - line_start + 1, chain, j < n and text[j] == ":"))
            recent.append(("w", len(out) - 1))
            i = m.end()
        else:
            recent.append(("." if c == "." else "o", -1))
            i += 1
        del recent[:-2]
    return out


def _contains(span: Span, line: int, col: int) -> bool:
    return (span.line, span.col) <= (line, col) <= (span.end_line, span.end_col)


def _type_text(t: A.TypeExpr) -> str:
    if isinstance(t, A.ListType):
        return f"list[{_type_text(t.elem)}]"
    if isinstance(t, A.TableType):
        return f"table[{_type_text(t.elem)}]"
    return t.name


def _default(lit: A.Literal | None) -> str:
    return "" if lit is None else f" = {format_literal(lit)}"


@attrs.define(eq=False)
class Decl:
    """One declaration: its kind, name, where its name is (`span`) and the whole of it (`full`),
    a one-line signature (`detail`), its description (`doc`) and the declarations inside it."""

    kind: str  # service record state tool type enum member field pool rule constraint world parameter module
    name: str
    path: Path
    span: Span
    full: Span
    detail: str
    doc: str | None = None
    owner: str | None = None  # the service, enum, record or tool it belongs to
    children: list["Decl"] = attrs.field(factory=list)

    @property
    def key(self) -> tuple[Path, int, int]:
        """What identifies a declaration across indexes built from different checks."""
        return (self.path, self.span.line, self.span.col)


class Index:
    """Names to declarations for one checked program, and a resolver from a name in the source
    to the declaration it means: by exact name position, then by the checker's types (`a.b`
    where `a` is a record, a service or an enum), then by scope (the tool's parameters, the
    enclosing service's members, global names, records, enum members, fields)."""

    def __init__(self, program: Program, root: Path) -> None:
        self.program = program
        self.root = root
        self.model = program.model
        self.paths: dict[str, Path] = {m.display: p for p, m in program.modules.items()}
        self.displays: dict[Path, str] = {p: m.display for p, m in program.modules.items()}
        self.symbols: dict[Path, list[Decl]] = {}  # top-level declarations of each module, as a tree
        self.at_name: dict[tuple[Path, int, int], Decl] = {}
        self.globals: dict[str, Decl] = {}  # services, types, enums, pools: one namespace
        self.service_members: dict[str, dict[str, Decl]] = {}
        self.records: dict[str, list[Decl]] = {}
        self.fields: dict[tuple[str | None, str], dict[str, Decl]] = {}  # (service, record) → fields
        self.members: dict[str, list[Decl]] = {}  # enum member name → members
        self.field_nodes: dict[tuple[Path, int, int], A.Field] = {}  # by where the field name ends
        self.var_nodes: dict[tuple[Path, int, int], A.Var] = {}
        self.imports: dict[Path, list[tuple[Span, Path]]] = {}  # module paths in import/use lines
        self._tokens: dict[Path, list[Token]] = {}
        self._scopes: dict[Path, list[tuple[str, Span, object, str | None]]] = {}  # (kind, full, node, service)
        for path, mod in program.modules.items():
            if mod.ast is not None:
                self._index_module(path, mod.ast)

    @property
    def parsed(self) -> bool:
        """Did the root file parse (so the index describes it)?"""
        mod = self.program.modules.get(self.root)
        return mod is not None and mod.ast is not None

    # ── building ──

    def line(self, path: Path, line: int) -> str | None:
        display = self.displays.get(path)
        return self.program.sources.line(display, line) if display is not None else None

    def text(self, path: Path) -> str:
        lines, n = [], 1
        while (ln := self.line(path, n)) is not None:
            lines.append(ln)
            n += 1
        return "\n".join(lines)

    def _name_span(self, path: Path, at: Span, name: str) -> Span:
        """Where `name` is written in a declaration starting at `at`: its first whole-word
        occurrence (the name follows the keyword, before any description string)."""
        pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
        for ln in range(at.line, min(at.end_line, at.line + 3) + 1):
            text = self.line(path, ln)
            if text is None:
                break
            m = pattern.search(text, at.col - 1 if ln == at.line else 0)
            if m:
                return Span(at.file, ln, m.start() + 1, ln, m.end() + 1)
        return Span(at.file, at.line, at.col, at.line, at.col + len(name))

    def _decl(self, kind: str, name: str, path: Path, node: object, detail: str, doc: str | None = None, owner: str | None = None) -> Decl:
        full: Span = node.span  # type: ignore[attr-defined]
        d = Decl(kind, name, path, self._name_span(path, full, name), full, detail, doc, owner)
        self.at_name[d.key] = d
        return d

    def _index_module(self, path: Path, module: A.Module) -> None:
        top: list[Decl] = []
        scopes: list[tuple[str, Span, object, str | None]] = []
        imports: list[tuple[Span, Path]] = []
        targets = {id(node): target for target, node in self.program.modules[path].imports}
        for item in module.items:
            if isinstance(item, (A.ImportModule, A.ImportFile)) and id(item) in targets:
                imports.append((item.span, targets[id(item)]))
            elif isinstance(item, A.TypeDecl):
                d = self._decl("type", item.name, path, item, f"type {item.name} = {_type_text(item.type)}")
                self.globals.setdefault(item.name, d)
                top.append(d)
            elif isinstance(item, A.EnumDecl):
                d = self._decl("enum", item.name, path, item, f"enum {item.name} {{ {', '.join(m.name for m in item.members)} }}")
                for m in item.members:
                    md = self._decl("member", m.name, path, m, f"{item.name}.{m.name}", f"a member of enum `{item.name}`", item.name)
                    d.children.append(md)
                    self.members.setdefault(m.name, []).append(md)
                self.globals.setdefault(item.name, d)
                top.append(d)
            elif isinstance(item, A.PoolDecl):
                values = ", ".join(format_literal(v) for v in item.values[:6]) + (", …" if len(item.values) > 6 else "")
                d = self._decl("pool", item.name, path, item, f"pool {item.name} = [{values}]", f"{len(item.values)} values for seeds to pick from")
                self.globals.setdefault(item.name, d)
                top.append(d)
            elif isinstance(item, A.ServiceDecl):
                top.append(self._index_service(path, item, scopes))
            elif isinstance(item, A.WorldDecl):
                uses = [".".join(m) for u in item.members if isinstance(u, A.UseDecl) for m in u.modules]
                d = self._decl("world", item.name, path, item, f"world {item.name}", _join(item.description, f"uses {', '.join(uses)}" if uses else None))
                for i, member in enumerate(item.members):
                    if isinstance(member, A.UseDecl):
                        found = [t for t, node in self.program.modules[path].imports if node is member]
                        for j, span in enumerate(member.module_spans):
                            target = self._module_target(member.modules[j], found)
                            if target is not None:
                                imports.append((span, target))
                    elif isinstance(member, A.ConstraintDecl):
                        d.children.append(self._constraint(path, member, None))
                top.append(d)
            elif isinstance(item, A.ConstraintDecl):
                top.append(self._constraint(path, item, None))
        self.symbols[path] = top
        self._scopes[path] = scopes
        self.imports[path] = imports
        for n in A.walk(module):
            if isinstance(n, A.Field):
                self.field_nodes[(path, n.span.end_line, n.span.end_col)] = n
            elif isinstance(n, A.Var):
                self.var_nodes[(path, n.span.line, n.span.col)] = n

    @staticmethod
    def _module_target(dotted: tuple[str, ...], found: list[Path]) -> Path | None:
        suffix = Path(*dotted[1:] if dotted[0] == "stdlib" else dotted).with_suffix(".world")
        return next((t for t in found if t.as_posix().endswith(suffix.as_posix())), None)

    def _constraint(self, path: Path, c: A.ConstraintDecl, service: str | None) -> Decl:
        kind = "rule" if c.is_rule else "constraint"
        return self._decl(kind, c.name, path, c, f"{kind} {c.name}", c.description, service)

    def _index_service(self, path: Path, svc: A.ServiceDecl, scopes: list) -> Decl:
        model_svc = self.model.services.get(svc.name) if self.model else None
        members: dict[str, Decl] = {}
        d = self._decl("service", svc.name, path, svc, f"service {svc.name}", svc.description)
        scopes.append(("service", svc.span, svc, svc.name))
        for m in svc.members:
            if isinstance(m, A.RecordDecl):
                rd = self._index_record(path, m, svc.name)
                d.children.append(rd)
                members.setdefault(m.name, rd)
                self.records.setdefault(m.name, []).append(rd)
                scopes.append(("record", m.span, m, svc.name))
            elif isinstance(m, A.StateDecl):
                what = "table" if isinstance(m.type, A.TableType) else "state"
                sd = self._decl("state", m.name, path, m, f"state {m.name}: {_type_text(m.type)}{_default(m.default)}{format_retraction(m.retracted)}", f"a {what} of service `{svc.name}`", svc.name)
                d.children.append(sd)
                members.setdefault(m.name, sd)
            elif isinstance(m, A.SeedDecl):
                scopes.append(("seed", m.span, m, svc.name))
            elif isinstance(m, A.ToolDecl):
                td = self._index_tool(path, m, svc.name)
                d.children.append(td)
                members.setdefault(m.name, td)
                scopes.append(("tool", m.span, m, svc.name))
            elif isinstance(m, A.ConstraintDecl):
                d.children.append(self._constraint(path, m, svc.name))
        if model_svc is None or model_svc.decl is svc:  # the first of two same-named services wins
            self.globals.setdefault(svc.name, d)
            self.service_members.setdefault(svc.name, members)
        tables = [c.name for c in d.children if c.kind == "state"]
        tools = [c.name for c in d.children if c.kind == "tool"]
        d.doc = _join(svc.description, f"state: {', '.join(tables) or 'none'}; tools: {', '.join(tools) or 'none'}")
        return d

    def _index_record(self, path: Path, rec: A.RecordDecl, service: str) -> Decl:
        lines = [f"  {'key ' if f.is_key else ''}{f.name}: {_type_text(f.type)}{_default(f.default)}" for f in rec.fields]
        head = f"record {rec.name}" + (f" known by {', '.join(rec.known_by)}" if rec.known_by else "")
        d = self._decl("record", rec.name, path, rec, head + " {\n" + "\n".join(lines) + "\n}", _join(f'"{rec.noun}"' if rec.noun else None, f"in service `{service}`"), service)
        fields: dict[str, Decl] = {}
        for f in rec.fields:
            detail = f"{'key ' if f.is_key else ''}{f.name}: {_type_text(f.type)}{_default(f.default)}"
            fd = self._decl("field", f.name, path, f, detail, _join(f"a field of record `{rec.name}` (service `{service}`)", f'"{f.label}"' if f.label else None), f"{service}.{rec.name}")
            d.children.append(fd)
            fields.setdefault(f.name, fd)
        self.fields.setdefault((service, rec.name), fields)
        return d

    def _index_tool(self, path: Path, tool: A.ToolDecl, service: str) -> Decl:
        params = ", ".join(f"{p.name}: {_type_text(p.type)}{_default(p.default)}" for p in tool.params)
        result = f" -> {_type_text(tool.result)}" if tool.result is not None else ""
        detail = f"{'simulated ' if tool.simulated else ''}tool {service}.{tool.name}({params}){result}"
        doc = _join(tool.description, f"say {encode_string(tool.say)}" if tool.say else None, f"gives {encode_string(tool.gives)}" if tool.gives else None)
        d = self._decl("tool", tool.name, path, tool, detail, doc, service)
        for p in tool.params:
            d.children.append(self._decl("parameter", p.name, path, p, f"{p.name}: {_type_text(p.type)}{_default(p.default)}", f"a parameter of tool `{service}.{tool.name}`", f"{service}.{tool.name}"))
        return d

    # ── resolving ──

    def tokens(self, path: Path) -> list[Token]:
        if path not in self._tokens:
            self._tokens[path] = tokens(self.text(path))
        return self._tokens[path]

    def token_at(self, path: Path, line: int, col: int) -> Token | None:
        """The identifier under (or just before) a 1-based position."""
        for t in self.tokens(path):
            if t.line == line and t.col <= col <= t.end_col:
                return t
        return None

    def decl_at(self, path: Path, line: int, col: int) -> tuple[Decl, Span] | None:
        """The declaration named at a 1-based position and where that name is written; an
        `import "file.world"` names the file it imports."""
        t = self.token_at(path, line, col)
        if t is not None:
            d = self.resolve(path, t)
            return (d, Span("", t.line, t.col, t.line, t.end_col)) if d is not None else None
        for span, target in self.imports.get(path, ()):
            if _contains(span, line, col):
                return self._module_decl(target, self.displays.get(target, display_name(target))), span
        return None

    def _scope(self, path: Path, t: Token, kind: str):
        found = None
        for k, span, node, service in self._scopes.get(path, ()):
            if k == kind and _contains(span, t.line, t.col):
                found = (node, service)
        return found

    def resolve(self, path: Path, t: Token) -> Decl | None:
        """The declaration the identifier `t` in file `path` names, or None (a keyword, a local)."""
        hit = self.at_name.get((path, t.line, t.col))
        if hit is not None and hit.name == t.name:
            return hit
        for span, target in self.imports.get(path, ()):
            if _contains(span, t.line, t.col) and t.name != "import" and t.name != "use":
                return self._module_decl(target, ".".join(t.chain))
        node = self.field_nodes.get((path, t.line, t.end_col))
        if node is not None and node.name == t.name and self.model is not None:
            found = self._by_type(self.model.type_of(node.obj), t.name)
            if found is not None:
                return found
        if len(t.chain) > 1:
            return self._resolve_qualified(path, t)
        return self._resolve_bare(path, t)

    def _module_decl(self, target: Path, name: str) -> Decl:
        """An imported file as a declaration: its name is the import's, its place the file's start."""
        display = self.displays.get(target, display_name(target))
        span = Span(display, 1, 1, 1, 1)
        return Decl("module", name, target, span, span, f"module {display}", str(target))

    def _resolve_qualified(self, path: Path, t: Token) -> Decl | None:
        prev = t.chain[-2]
        if len(t.chain) == 2 and prev in self.service_members and t.name in self.service_members[prev]:
            return self.service_members[prev][t.name]
        enum = self.globals.get(prev)
        if enum is not None and enum.kind == "enum":
            return next((m for m in enum.children if m.name == t.name), None)
        return self._field_named(path, t)

    def _by_type(self, obj, name: str) -> Decl | None:
        if isinstance(obj, ServiceRef):
            return self.service_members.get(obj.name, {}).get(name)
        if isinstance(obj, EnumRef):
            return next((m for m in self.members.get(name, ()) if m.owner == obj.enum.name), None)
        rec = base_of(obj) if obj is not None else None
        if isinstance(rec, RecordT):
            return self.fields.get((rec.service, rec.name), {}).get(name)
        return None

    def _field_named(self, path: Path, t: Token) -> Decl | None:
        """A field by name alone: of a record of the enclosing service first, else of any record."""
        scope = self._scope(path, t, "service")
        candidates = [fs[t.name] for fs in self.fields.values() if t.name in fs]
        if scope is not None:
            own = [d for d in candidates if d.owner and d.owner.split(".")[0] == scope[1]]
            candidates = own or candidates
        return candidates[0] if candidates else None

    def _resolve_bare(self, path: Path, t: Token) -> Decl | None:
        name = t.name
        tool = self._scope(path, t, "tool")
        params: dict[str, Decl] = {}
        if tool is not None:
            decl = self.service_members.get(tool[1], {}).get(tool[0].name)
            params = {p.name: p for p in decl.children} if decl is not None and decl.kind == "tool" else {}
            for p in tool[0].params:
                if _contains(p.span, t.line, t.col):
                    return params.get(name) if name == p.name else self._resolve_type_name(path, t, tool[1])
            if t.colon and name not in params:  # `insert notes { title: ... }`: a field
                return self._field_named(path, t)
        record = self._scope(path, t, "record")
        if record is not None and name in self.fields.get((record[1], record[0].name), {}):
            return self.fields[(record[1], record[0].name)][name]
        seed = self._scope(path, t, "seed")
        if seed is not None:
            state = self.service_members.get(seed[1], {}).get(seed[0].name)
            if name == seed[0].name:
                return state
            if t.colon and self.model is not None and seed[1] in self.model.services:
                sv = self.model.services[seed[1]].state.get(seed[0].name)
                rec = sv.type.record if sv is not None and isinstance(sv.type, TableT) else None
                if rec is not None and name in self.fields.get((rec.service, rec.name), {}):
                    return self.fields[(rec.service, rec.name)][name]
        var = self.var_nodes.get((path, t.line, t.col))
        if var is not None and var.name == name and self.model is not None:
            typed = self.model.type_of(var)
            if name in params:
                return params[name]
            if isinstance(typed, EnumT) and name in typed.members:
                return next((m for m in self.members.get(name, ()) if m.owner == typed.name), None)
            if isinstance(typed, ServiceRef | EnumRef):
                return self.globals.get(name)
            service = self._scope(path, t, "service")
            if service is not None and name in self.service_members.get(service[1], {}):
                return self.service_members[service[1]][name]
            return None  # a local: a `let`, a quantifier's variable, a row's field
        service = self._scope(path, t, "service")
        return self._resolve_type_name(path, t, service[1] if service else None)

    def _resolve_type_name(self, path: Path, t: Token, service: str | None) -> Decl | None:
        name = t.name
        if service is not None and name in self.service_members.get(service, {}):
            return self.service_members[service][name]
        if name in self.globals:
            return self.globals[name]
        if name in self.records:
            return self.records[name][0]
        if name in self.members:
            return self.members[name][0]
        return self._field_named(path, t) if name not in keywords() and name not in PRIMITIVES else None

    def references(self, target: Decl) -> Iterator[tuple[Path, Token]]:
        """Every identifier in this program's files that names `target` (its declaration included)."""
        for path in self.symbols:
            for t in self.tokens(path):
                if t.name == target.name or (target.kind == "module" and t.name == target.name.split(".")[-1]):
                    d = self.resolve(path, t)
                    if d is not None and d.key == target.key:
                        yield path, t

    # ── presenting ──

    def range(self, path: Path, span: Span, encoding: str) -> Range:
        start = to_lsp(self.line(path, span.line), span.line, span.col, encoding)
        end = to_lsp(self.line(path, span.end_line), span.end_line, span.end_col, encoding)
        return (*start, *end)

    def token_range(self, path: Path, t: Token, encoding: str) -> Range:
        return self.range(path, Span("", t.line, t.col, t.line, t.end_col), encoding)

    def completions(self, path: Path, line: int, prefix: str, chain: tuple[str, ...]) -> list[tuple[str, str, str]]:
        """(label, kind, detail) of what may be written here: after `service.` that service's
        members, after `Enum.` its members, after another `x.` every field; else the keywords,
        built-in types and every name the program declares (the enclosing service's first)."""
        if chain:
            prev = chain[-1]
            if prev in self.service_members:
                return [(d.name, d.kind, d.detail) for d in self.service_members[prev].values()]
            enum = self.globals.get(prev)
            if enum is not None and enum.kind == "enum":
                return [(m.name, m.kind, m.detail) for m in enum.children]
            return _unique((d.name, d.kind, d.detail) for fs in self.fields.values() for d in fs.values())
        out: list[tuple[str, str, str]] = []
        for _, span, node, service in self._scopes.get(path, ()):
            if isinstance(node, A.ServiceDecl) and span.line <= line <= span.end_line:
                out += [(d.name, d.kind, d.detail) for d in self.service_members.get(service or "", {}).values()]
        out += [(d.name, d.kind, d.detail) for d in self.globals.values()]
        out += [(ds[0].name, ds[0].kind, ds[0].detail) for ds in self.records.values()]
        out += [(ds[0].name, ds[0].kind, ds[0].detail) for ds in self.members.values()]
        out += [(p, "type", "a built-in type") for p in PRIMITIVES]
        out += [(k, "keyword", "keyword") for k in keywords()]
        return [c for c in _unique(out) if c[0].startswith(prefix)]


def _unique(items) -> list[tuple[str, str, str]]:
    seen: dict[str, tuple[str, str, str]] = {}
    for item in items:
        seen.setdefault(item[0], item)
    return list(seen.values())


def _join(*parts: str | None) -> str | None:
    text = "\n\n".join(p for p in parts if p)
    return text or None


def hover_text(d: Decl, root: Path) -> str:
    """Markdown for a hover: the signature as code, what it is and where, and its description."""
    where = display_name(d.path) if d.path != root else "this file"
    kind = {"state": "state", "member": "enum member"}.get(d.kind, d.kind)
    return f"```world\n{d.detail}\n```\n\n*{kind}* in `{where}`" + (f"\n\n{d.doc}" if d.doc else "")


def check_text(text: str, path: Path) -> Program:
    """Check an editor buffer as `worldc check` checks the file: same loader, same display name
    (imports come from disk). A crash inside the checker becomes an E901 diagnostic."""
    display = display_name(path)
    try:
        return check_source(text, file=display, base_dir=path.parent)
    except Exception as e:  # a bug in worldc: the server must keep serving
        if os.environ.get("WORLDC_TRACEBACK"):
            raise
        from .diagnostics import SourceCache

        sources = SourceCache()
        sources.add(display, text)
        return Program({}, [], None, [internal_error(display, e)], sources)


def format_text(text: str, path: Path) -> str | None:
    """`worldc fmt`'s output for a buffer, or None when it does not parse."""
    try:
        return format_source(text, display_name(path))
    except (ParseFailure, RuntimeError):  # RuntimeError: the formatter refused to drop a comment
        return None


# ─────────────────────────── the server ───────────────────────────


def build_server():
    """The pygls server with every feature registered. Raises ImportError without pygls."""
    from lsprotocol import types as T
    from pygls.lsp.server import LanguageServer

    from . import __version__

    symbol_kinds = {
        "service": T.SymbolKind.Class, "record": T.SymbolKind.Struct, "field": T.SymbolKind.Field,
        "state": T.SymbolKind.Variable, "tool": T.SymbolKind.Function, "type": T.SymbolKind.TypeParameter,
        "enum": T.SymbolKind.Enum, "member": T.SymbolKind.EnumMember, "pool": T.SymbolKind.Array,
        "rule": T.SymbolKind.Boolean, "constraint": T.SymbolKind.Boolean, "world": T.SymbolKind.Namespace,
    }  # fmt: skip
    completion_kinds = {
        "service": T.CompletionItemKind.Module, "record": T.CompletionItemKind.Struct, "field": T.CompletionItemKind.Field,
        "state": T.CompletionItemKind.Variable, "tool": T.CompletionItemKind.Function, "type": T.CompletionItemKind.TypeParameter,
        "enum": T.CompletionItemKind.Enum, "member": T.CompletionItemKind.EnumMember, "pool": T.CompletionItemKind.Constant,
        "keyword": T.CompletionItemKind.Keyword,
    }  # fmt: skip

    class WorldServer(LanguageServer):
        """Holds, per open document, its latest index and the diagnostics each check published."""

        def __init__(self) -> None:
            super().__init__("worldc-lsp", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Full)
            self.indexes: dict[str, Index] = {}  # uri → index of the last check that parsed it
            self.contributions: dict[str, dict[str, list[T.Diagnostic]]] = {}  # file uri → {root uri: diagnostics}
            self.published: dict[str, list[T.Diagnostic]] = {}

        @property
        def encoding(self) -> str:
            """The position encoding agreed at initialize: "utf-16" (LSP's default), "utf-8" or "utf-32"."""
            kind = self.workspace.position_encoding
            return str(getattr(kind, "value", kind) or "utf-16")

        def doc_path(self, uri: str) -> Path:
            path = uri_to_path(uri)
            return path if path is not None else Path.cwd() / (Path(urlparse(uri).path).name or "untitled.world")

        def uri_of(self, path: Path) -> str:
            """An open document's own URI for a file, else the file's `file:` URI."""
            for uri in self.workspace.text_documents:
                p = uri_to_path(uri)
                if p is not None and _same(p, path):
                    return uri
            return path.as_uri()

        def location(self, path: Path, r: Range) -> T.Location:
            return T.Location(uri=self.uri_of(path), range=_range(r))

        def check(self, uri: str) -> None:
            """Check one open document and publish diagnostics for every file the check reports on."""
            doc = self.workspace.get_text_document(uri)
            path = self.doc_path(uri)
            program = check_text(doc.source, path)
            root = next(iter(program.modules), path.parent.resolve() / path.name)
            index = Index(program, root)
            if index.parsed or uri not in self.indexes:
                self.indexes[uri] = index
            by_uri: dict[str, list[T.Diagnostic]] = {uri: []}
            open_uris = set(self.workspace.text_documents)
            for d in program.diagnostics:
                file = index.paths.get(d.span.file, root)
                target = uri if file == root else self.uri_of(file)
                if target != uri and target in open_uris:
                    continue  # an open file's diagnostics come from checking its own buffer
                by_uri.setdefault(target, []).append(self.diagnostic(index, file, d))
            for u in set(by_uri) | {u for u, c in self.contributions.items() if uri in c}:
                if by_uri.get(u) or u == uri:
                    self.contributions.setdefault(u, {})[uri] = by_uri.get(u, [])
                else:
                    self.contributions.get(u, {}).pop(uri, None)
                self.publish(u, force=u == uri)

        def forget(self, uri: str) -> None:
            """A document closed: drop its index and what its checks published."""
            self.indexes.pop(uri, None)
            for u, c in self.contributions.items():
                if c.pop(uri, None) is not None:
                    self.publish(u)

        def publish(self, uri: str, force: bool = False) -> None:
            merged: list[T.Diagnostic] = []
            for diags in self.contributions.get(uri, {}).values():
                merged += [d for d in diags if d not in merged]
            if force or merged != self.published.get(uri, []):
                self.published[uri] = merged
                self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=merged))

        def diagnostic(self, index: Index, file: Path, d: Diagnostic) -> T.Diagnostic:
            extra = [f"note: {n}" for n in d.notes] + ([f"help: {d.hint}"] if d.hint else [])
            related = [
                T.DiagnosticRelatedInformation(
                    location=self.location(index.paths.get(lb.span.file, file), index.range(index.paths.get(lb.span.file, file), lb.span, self.encoding)),
                    message=lb.message,
                )
                for lb in d.labels
            ]
            return T.Diagnostic(
                range=_range(index.range(file, d.span, self.encoding)),
                message="\n".join([d.message, *extra]),
                severity=T.DiagnosticSeverity.Error if d.is_error else T.DiagnosticSeverity.Warning,
                code=d.code,
                source="worldc",
                related_information=related or None,
            )

        def at(self, uri: str, pos: T.Position) -> tuple[Index, Decl, Span] | None:
            """The index of an open document, the declaration named at an LSP position in it,
            and where that name is written."""
            index = self.indexes.get(uri)
            if index is None:
                return None
            text = index.line(index.root, pos.line + 1) or ""
            found = index.decl_at(index.root, pos.line + 1, from_lsp(text, pos.character, self.encoding))
            return (index, *found) if found is not None else None

    server = WorldServer()

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: WorldServer, params: T.DidOpenTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: WorldServer, params: T.DidChangeTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: WorldServer, params: T.DidSaveTextDocumentParams) -> None:
        for uri in list(ls.workspace.text_documents):  # a saved file may be imported by the others
            ls.check(uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: WorldServer, params: T.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(ls: WorldServer, params: T.HoverParams) -> T.Hover | None:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return None
        index, d, written = found
        return T.Hover(
            contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=hover_text(d, index.root)),
            range=_range(index.range(index.root, written, ls.encoding)),
        )

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: WorldServer, params: T.DefinitionParams) -> T.Location | None:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return None
        index, d, _ = found
        return ls.location(d.path, index.range(d.path, d.span, ls.encoding))

    @server.feature(T.TEXT_DOCUMENT_REFERENCES)
    def references(ls: WorldServer, params: T.ReferenceParams) -> list[T.Location]:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return []
        index, target, _ = found
        out: dict[tuple[str, int, int], T.Location] = {}
        for other in [index] + [i for i in ls.indexes.values() if i is not index]:  # every open program
            for p, t in other.references(target):
                if not params.context.include_declaration and (p, t.line, t.col) == target.key:
                    continue
                loc = ls.location(p, other.token_range(p, t, ls.encoding))
                out.setdefault((loc.uri, loc.range.start.line, loc.range.start.character), loc)
        return sorted(out.values(), key=lambda loc: (loc.uri, loc.range.start.line, loc.range.start.character))

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
    def completion(ls: WorldServer, params: T.CompletionParams) -> T.CompletionList:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        index = ls.indexes.get(params.text_document.uri)
        line = doc.lines[params.position.line] if params.position.line < len(doc.lines) else ""
        before = line[: from_lsp(line, params.position.character, ls.encoding) - 1]
        m = re.search(r"((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)?$", before)
        chain = tuple(p for p in (m.group(1) if m else "").split(".") if p)
        prefix = (m.group(2) if m else None) or ""
        if index is None:
            items = [(k, "keyword", "keyword") for k in keywords() if k.startswith(prefix)]
        else:
            items = index.completions(index.root, params.position.line + 1, prefix, chain)
        return T.CompletionList(
            is_incomplete=False,
            items=[T.CompletionItem(label=label, kind=completion_kinds.get(kind), detail=detail) for label, kind, detail in items],
        )

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: WorldServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
        index = ls.indexes.get(params.text_document.uri)
        if index is None:
            return []

        def symbol(d: Decl) -> T.DocumentSymbol:
            return T.DocumentSymbol(
                name=d.name,
                kind=symbol_kinds[d.kind],
                detail=d.detail.splitlines()[0],
                range=_range(index.range(d.path, d.full, ls.encoding)),
                selection_range=_range(index.range(d.path, d.span, ls.encoding)),
                children=[symbol(c) for c in d.children if c.kind in symbol_kinds] or None,
            )

        return [symbol(d) for d in index.symbols.get(index.root, [])]

    @server.feature(T.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: WorldServer, params: T.DocumentFormattingParams) -> list[T.TextEdit] | None:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        text = doc.source
        formatted = format_text(text, ls.doc_path(params.text_document.uri))
        if formatted is None:
            return None
        if formatted == text:
            return []
        lines = text.split("\n")
        end = T.Position(line=len(lines) - 1, character=units(lines[-1], ls.encoding))
        return [T.TextEdit(range=T.Range(start=T.Position(line=0, character=0), end=end), new_text=formatted)]

    def _range(r: Range) -> T.Range:
        return T.Range(start=T.Position(line=r[0], character=r[1]), end=T.Position(line=r[2], character=r[3]))

    return server


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a == b


# ─────────────────────────── the connection ───────────────────────────

# What the server reads of a message before it knows what the message is. LSP defines two
# headers of about 50 bytes each. A body is one message; the largest a client sends is a whole
# document (the server asks for full sync), and the largest .world file here is 28 KB. 16 MiB
# holds a document 500 times that, and bounds what one body can cost once parsed: json.loads of
# 16 MiB of `[{},{},...]` peaks near 450 MiB, where 64 MiB would allow about 1.7 GiB.
MAX_HEADER_LINE = 8 * 1024
MAX_HEADER_LINES = 32
MAX_BODY = 16 * 2**20

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32602, -32603
_HEADER_NAME = re.compile(rb"[A-Za-z0-9-]+")


class FramingError(Exception):
    """Input that breaks Content-Length framing: where the next message starts is unknown, so
    the only safe answer is to close the connection."""


def _show(raw: bytes | str, n: int = 40) -> str:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    text = text if len(text) <= n else text[: n - 1] + "…"
    return text.encode("ascii", "backslashreplace").decode("ascii")


def read_frame(stream) -> bytes | None:
    """The body of the next message on a binary stream, None when the stream ends between
    messages. Reads at most MAX_HEADER_LINES header lines of MAX_HEADER_LINE bytes and a body of
    MAX_BODY bytes, so no input can make it hold more; raises FramingError past them."""
    length: int | None = None
    headers = 0
    for _ in range(MAX_HEADER_LINES + 1):
        line = stream.readline(MAX_HEADER_LINE + 1)
        if not line.endswith(b"\n"):
            if len(line) > MAX_HEADER_LINE:
                raise FramingError(f"a header line is longer than {MAX_HEADER_LINE} bytes")
            if not line and not headers:
                return None
            raise FramingError("the input ended inside a message header")
        text = line[:-2] if line.endswith(b"\r\n") else line[:-1]
        if not text:
            if length is not None:
                break
            if headers:
                raise FramingError("a message header has no Content-Length")
            continue  # a blank line between messages
        headers += 1
        name, colon, value = text.partition(b":")
        if not colon or not _HEADER_NAME.fullmatch(name.strip()):
            raise FramingError(f"a header line is not `Name: value`: {_show(text)}")
        if name.strip().lower() == b"content-length":
            digits = value.strip()
            if length is not None:
                raise FramingError("a message header has two Content-Length lines")
            if not digits.isdigit():
                raise FramingError(f"Content-Length is not a number of bytes: {_show(digits)}")
            if len(digits) > 12 or int(digits) > MAX_BODY:
                raise FramingError(f"Content-Length {_show(digits, 20)} is over the limit of {MAX_BODY} bytes (16 MiB)")
            length = int(digits)
    else:
        raise FramingError(f"a message header has more than {MAX_HEADER_LINES} header lines")
    body = stream.read(length)
    if len(body) < length:
        raise FramingError(f"the input ended inside a message body ({len(body)} of {length} bytes)")
    return body


def _log(message: str) -> None:
    print(f"worldc lsp: {_show(message, 300)}", file=sys.stderr, flush=True)


def _valid_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


class _OneLine(logging.Formatter):
    """pygls logs a traceback for input it cannot handle; the server's stderr gets one line."""

    def format(self, record: logging.LogRecord) -> str:
        text = (record.getMessage().splitlines() or [""])[0]
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
        return f"worldc lsp: {record.levelname.lower()}: {_show(text, 300)}"


class Connection:
    """One client talking to the server over a pair of binary streams. It does the framing
    (pygls' own reader takes any Content-Length and any header line whole) and sees that every
    request with an id gets a reply: pygls drops, with a traceback, a message whose params do not
    fit the method's types, and answers nothing to one it cannot parse."""

    def __init__(self, server, stream, out) -> None:
        from pygls.io_ import StdoutWriter
        from pygls.protocol import default_converter

        self.server = server
        self.stream = stream
        self.writer = StdoutWriter(out)
        self.converter = default_converter()
        self.converter.register_structure_hook(int, _strict(int))  # cattrs would take "0" and 1.5 as 0 and 1
        self.converter.register_structure_hook(bool, _strict(bool))
        self.shut_down = False

    def serve(self) -> int:
        """Serve until the client says exit (0 after shutdown, else 1, as LSP says), the input
        ends (0), or its framing breaks (1, after a line on stderr saying how)."""
        self.server.protocol.set_writer(self.writer)
        try:
            return asyncio.run(self._serve())
        except SystemExit as e:  # pygls' `exit` handler ends the process this way
            return e.code if isinstance(e.code, int) else EXIT_FAILED
        except (BrokenPipeError, ConnectionError):
            _log("error: the client closed the connection")
            return EXIT_FAILED
        finally:
            self.server.shutdown()

    async def _serve(self) -> int:
        loop = asyncio.get_running_loop()
        while True:
            try:
                body = await loop.run_in_executor(None, read_frame, self.stream)
            except FramingError as e:
                _log(f"error: {e}; closing the connection")
                return EXIT_FAILED
            if body is None:
                return EXIT_OK
            self.take(body)

    def error(self, msg_id: object, code: int, message: str) -> None:
        """Reply with a JSON-RPC error; logged too when no id could be read, since then the
        client cannot tell which of its requests it answers."""
        if msg_id is None:
            _log(f"error: {message}")
        body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}).encode("utf-8")
        self.writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    def take(self, body: bytes) -> None:
        """Check one message as JSON-RPC and LSP, then hand it to pygls or answer it with an error."""
        from lsprotocol import types as T
        from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage

        try:
            data = json.loads(body.decode("utf-8"))
        except UnicodeDecodeError as e:
            return self.error(_id_despite(body), PARSE_ERROR, f"the message is not UTF-8 (byte {e.start} of the body)")
        except (ValueError, RecursionError) as e:  # RecursionError: nested deeper than the parser goes
            return self.error(None, PARSE_ERROR, f"the message is not JSON: {_show(str(e) or type(e).__name__, 120)}")
        if not isinstance(data, dict):
            return self.error(None, INVALID_REQUEST, "a message is one JSON object (LSP has no batches)")
        has_id, msg_id = "id" in data, data.get("id")
        if has_id and not _valid_id(msg_id):
            return self.error(None, INVALID_REQUEST, "a message id is a number or a string")
        if data.get("jsonrpc") != "2.0":
            return self.error(msg_id, INVALID_REQUEST, 'a message needs "jsonrpc": "2.0"')
        method = data.get("method")
        if "method" not in data:
            if has_id and ("result" in data or "error" in data):
                return self.answer(data)
            return self.error(msg_id, INVALID_REQUEST, "a message needs a method (or, answering the server, a result or an error)")
        if not isinstance(method, str):
            return self.error(msg_id, INVALID_REQUEST, "the method must be a string")
        if self.shut_down and method != T.EXIT:
            if has_id:
                self.error(msg_id, INVALID_REQUEST, f"{_show(method)}: the server is shutting down; only `exit` is taken now")
            return None
        protocol = self.server.protocol
        kind = protocol.get_message_type(method)
        if kind is None:  # a method LSP does not define: pygls answers MethodNotFound, or runs a custom one
            kind = JsonRPCRequestMessage if has_id else JsonRPCNotification
            data.setdefault("params", None)
        try:
            message = self.converter.structure(data, kind)
        except Exception as e:  # cattrs' ClassValidationError, or what a structure hook raises
            problem = _structure_problem(e)
            if has_id:
                return self.error(msg_id, INVALID_PARAMS, f"{_show(method)}: {problem}")
            return _log(f"ignored {_show(method)}: {problem}")
        if has_id and not hasattr(message, "id"):
            return self.error(msg_id, INVALID_REQUEST, f"{_show(method)} is a notification: it takes no id")
        problem = self.document_problem(method, getattr(message, "params", None))
        if problem is not None:
            if has_id:
                return self.error(msg_id, INVALID_PARAMS, f"{method}: {problem}")
            return _log(f"ignored {method}: {problem}")
        try:
            protocol.handle_message(message)
        except Exception as e:  # pygls answers a handler's failure itself; this is pygls failing
            if os.environ.get("WORLDC_TRACEBACK"):
                raise
            if has_id:
                return self.error(msg_id, INTERNAL_ERROR, f"{_show(method)} failed inside worldc ({type(e).__name__})")
            return _log(f"error: {_show(method)} failed inside worldc ({type(e).__name__}: {_show(str(e), 120)})")
        if method == T.SHUTDOWN:
            self.shut_down = True
        return None

    def answer(self, data: dict) -> None:
        """A response to a request the server sent: pygls matches it to the request."""
        protocol = self.server.protocol
        try:
            protocol.handle_message(protocol.structure_message(data))
        except Exception as e:
            _log(f"ignored a response to {_show(str(data['id']))}: {_structure_problem(e)}")

    def document_problem(self, method: str, params: object) -> str | None:
        """Why a message about a document cannot be served: the document is not open, or the
        position's line is past its end (a character past the end of a line is the end of the
        line, as LSP says). None when it can be, or when it names no document."""
        from lsprotocol import types as T

        doc = getattr(params, "text_document", None)
        if doc is None or method == T.TEXT_DOCUMENT_DID_OPEN:
            return None
        try:
            open_docs = self.server.workspace.text_documents
        except RuntimeError:  # before initialize: pygls answers that itself
            return None
        found = open_docs.get(unquote(doc.uri))
        if found is None:
            return f"{_show(doc.uri, 120)} is not open (textDocument/didOpen opens it)"
        position = getattr(params, "position", None)
        if position is not None:
            lines = found.source.count("\n") + 1
            if position.line >= lines:
                return f"line {position.line} is past the end of the document ({lines} lines, from line 0)"
        return None


def _strict(kind: type):
    """A cattrs hook that takes a JSON integer (or boolean) as it is and nothing else."""

    def structure(value: object, _type: type):
        if isinstance(value, kind) and (kind is bool or not isinstance(value, bool)):
            return value
        raise TypeError(f"expected {'an integer' if kind is int else 'true or false'}, not {type(value).__name__}")

    return structure


def _id_despite(body: bytes) -> object:
    """The id of a message that is not valid UTF-8, read from its decodable rest, so that the
    error can answer the request that carried it; None when there is none."""
    try:
        data = json.loads(body.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return None
    msg_id = data.get("id") if isinstance(data, dict) else None
    return msg_id if _valid_id(msg_id) else None


def _structure_problem(e: Exception) -> str:
    """What cattrs found wrong, as `where: what` lines joined ('expected int @ $.params.position.line')."""
    from cattrs import transform_error
    from cattrs.v import format_exception

    def say(exc: BaseException, kind: type | None) -> str:
        if kind is None and isinstance(exc, ValueError) and exc.args:  # a validator's words: "Position.line should be in range ..."
            return str(exc.args[0])
        return format_exception(exc, kind)

    try:
        found = transform_error(e, format_exception=say)
    except Exception:  # not a cattrs error: its own words
        found = [f"{type(e).__name__}: {e}"]
    text = "; ".join(found[:3]) + (f"; and {len(found) - 3} more" if len(found) > 3 else "")
    return _show(text, 240)


# ─────────────────────────── the command ───────────────────────────


def add_parser(sub) -> None:
    """Register `lsp` on worldc's subparsers object."""
    p = sub.add_parser(
        "lsp",
        help="run the language server for .world files (editors start it: `worldc lsp`)",
        description="Serve the Language Server Protocol for .world files: diagnostics as you type, hover, "
        "go to definition, references, completion, document symbols and formatting. See docs/editor.md.",
        epilog="examples:\n  worldc lsp    an editor's LSP client starts it and talks on stdin/stdout",
    )
    how = p.add_mutually_exclusive_group()
    how.add_argument("--stdio", action="store_true", help="talk over stdin and stdout (the default)")
    how.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP socket instead, e.g. 127.0.0.1:2087")
    p.set_defaults(func=cmd_lsp)


def cmd_lsp(args) -> int:
    """Serve one client until it says exit: status 0 after `shutdown` (or when the input ends),
    1 for `exit` without `shutdown`, for input whose framing breaks, or an address it cannot
    listen on; 2 for a bad --tcp or without the `lsp` extra."""
    address: tuple[str, int] | None = None
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            print(f"worldc: error: --tcp takes HOST:PORT, e.g. 127.0.0.1:2087 (got {args.tcp!r})", file=sys.stderr)
            return EXIT_USAGE
        address = (host, int(port))
    try:
        server = build_server()
    except ImportError as e:
        if (e.name or "").split(".")[0] not in ("pygls", "lsprotocol", "cattrs"):
            raise
        print(MISSING_EXTRA, file=sys.stderr)
        return EXIT_USAGE
    if not os.environ.get("WORLDC_TRACEBACK"):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(_OneLine())
        pygls_log = logging.getLogger("pygls")
        pygls_log.addHandler(handler)
        pygls_log.propagate = False
    if address is None:
        return Connection(server, sys.stdin.buffer, sys.stdout.buffer).serve()
    try:
        listener = socket.create_server(address)
    except OSError as e:
        print(f"worldc: error: cannot listen on {args.tcp}: {e.strerror or e}", file=sys.stderr)
        return EXIT_FAILED
    with listener:
        conn, _ = listener.accept()  # one client, as an editor starts one server per session
    with conn, conn.makefile("rb") as stream, conn.makefile("wb") as out:
        return Connection(server, stream, out).serve()


def main(argv: list[str] | None = None) -> int:
    """`python -m compoworld_dsl.lsp [--stdio | --tcp HOST:PORT]`, the same as `worldc lsp`."""
    parser = argparse.ArgumentParser(prog="worldc")
    add_parser(parser.add_subparsers(dest="verb"))
    args = parser.parse_args(["lsp", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
