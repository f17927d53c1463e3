"""Load `.world` files and everything they import, then run the checker over the lot.
Owns file reading, module-path resolution and import-cycle detection; not type rules."""

from __future__ import annotations

import functools
import os
import re
import stat
from pathlib import Path

import attrs

from ..diagnostics import Diagnostic, SourceCache, Span, is_syntax_code, sort_diagnostics
from ..resources import stdlib_dir
from ..syntax import ast as A
from ..syntax.parser import ParseFailure, parse_module
from .checker import Checker
from .closure import import_closure
from .model import Model

# Files larger than this are refused with E011 before they are read. Checking costs up to ~40
# bytes of memory per byte of dense source and ~4 s of CPU per MB on the reference machine, so a
# file at the limit checks in about a minute and under 1 GB. The largest bundled world is under
# 30 KB; a world of 10,000 services written compactly is about 5 MB.
MAX_FILE_BYTES = 16 * 1024 * 1024

# What the operating system can say about a path that is not a readable file: too long, no
# permission, a loop of links (RuntimeError before Python 3.13), a NUL from a `\0` escape.
_PATH_ERRORS = (OSError, ValueError, RuntimeError)


def _reason(e: BaseException) -> str:
    return (getattr(e, "strerror", None) or str(e) or type(e).__name__).rstrip(".")


@attrs.define(eq=False)
class SourceModule:
    path: Path  # resolved absolute path
    display: str  # how diagnostics name it
    ast: A.Module | None
    # Each module imported or used, with the declaration that names it; None for the modules
    # of `salvaged`, which have no declaration.
    imports: list[tuple[Path, A.ImportModule | A.ImportFile | A.UseDecl | None]] = attrs.field(factory=list)
    # For a file that failed to parse: the modules its `import` and `use` lines name, found by
    # a scan of its text, so that its importers still see what it would have passed on. Joined
    # to `imports` after the cycle check (`_finish`); None when the file parsed or was not read.
    salvaged: list[Path] | None = None
    text: str | None = None  # the text of a file that failed to parse, for `_Cascades`


@attrs.define(eq=False)
class Program:
    """The result of checking: modules, the typed model, and every diagnostic, sorted."""

    modules: dict[Path, SourceModule]
    roots: list[Path]
    model: Model | None
    diagnostics: list[Diagnostic]
    sources: SourceCache

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]


def display_name(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith(".." + os.sep + "..") else rel


def resolve_module(dotted: tuple[str, ...], importer: Path | None) -> Path:
    """`stdlib.x` is the bundled library; any other dotted path is relative to the importer."""
    if dotted and dotted[0] == "stdlib":
        return stdlib_dir().joinpath(*dotted[1:-1], dotted[-1] + ".world") if len(dotted) > 1 else stdlib_dir()
    base = importer.parent if importer else Path.cwd()
    return base.joinpath(*dotted[:-1], dotted[-1] + ".world")


class _Loader:
    def __init__(self) -> None:
        self.modules: dict[Path, SourceModule] = {}
        self.diagnostics: list[Diagnostic] = []
        self.sources = SourceCache()

    def load(self, path: Path, data: bytes | None = None, display: str | None = None, at: Span | None = None) -> SourceModule:
        """Read, parse and follow the imports of one file. `at` is the import that names it, where
        a failure to read it is reported (a root file's failures are reported at its start)."""
        if data is None:
            try:
                path = path.resolve()
            except _PATH_ERRORS:
                pass  # reading it below fails and says why
        if path in self.modules:
            return self.modules[path]
        display = display or display_name(path)
        if data is None:
            try:
                st = path.stat()
                if stat.S_ISDIR(st.st_mode):
                    raise IsADirectoryError(21, "it is a folder")
                if not stat.S_ISREG(st.st_mode):  # a device or a pipe could be endless, or block
                    raise OSError(0, "it is not a regular file")
                if st.st_size > MAX_FILE_BYTES:
                    return self._refuse(path, display, st.st_size, at)
                with path.open("rb") as fh:  # bounded: the file may grow after the stat
                    data = fh.read(MAX_FILE_BYTES + 1)
            except _PATH_ERRORS as e:
                self.diagnostics.append(Diagnostic("E009", f"cannot read `{display}`: {_reason(e)}", at or Span.point(display, 1, 1)))
                mod = SourceModule(path, display, None)
                self.modules[path] = mod
                return mod
        if len(data) > MAX_FILE_BYTES:  # grew after the stat, or handed in by check_source
            return self._refuse(path, display, len(data), at)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None  # the parser reports where; the snippet shows a replacement character
        self.sources.add(display, text if text is not None else data.decode("utf-8", errors="replace"))
        try:
            ast = parse_module(text if text is not None else data, display)
        except ParseFailure as failure:
            self.diagnostics.extend(failure.diagnostics)
            ast = None
        del data, text  # the source cache keeps one copy of the text; the parse needs no other
        mod = SourceModule(path, display, ast)
        self.modules[path] = mod
        if ast is not None:
            for item in ast.items:
                self._follow(mod, item)
        else:
            self._salvage(mod)
        return mod

    def _salvage(self, mod: SourceModule) -> None:
        """Load the modules that a file which failed to parse names on its `import` and `use`
        lines, quietly: if it had parsed, its importers would see them, and without them every
        name they declare would be reported unknown there too. Nothing is reported here about
        them that is not about their own text (the failed file gets its parse error only)."""
        text = self.sources.text(mod.display)
        if text is None:
            return
        mod.text = text
        mod.salvaged = []
        for target in _salvaged_targets(text, mod.path):
            try:
                if not target.is_file():
                    continue
                resolved = target.resolve()
            except _PATH_ERRORS:
                continue
            if resolved == mod.path or resolved in mod.salvaged:
                continue
            mod.salvaged.append(resolved)
            self.load(resolved)

    def _refuse(self, path: Path, display: str, size: int, at: Span | None) -> SourceModule:
        self.diagnostics.append(
            Diagnostic(
                "E011",
                f"`{display}` is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}",
                at or Span.point(display, 1, 1),
                help="split the world into modules joined by `import`",
            )
        )
        mod = SourceModule(path, display, None)
        self.modules[path] = mod
        return mod

    def _follow(self, mod: SourceModule, item: object) -> None:
        targets: list[tuple] = []
        if isinstance(item, A.ImportModule):
            targets.append((resolve_module(item.path, mod.path), item, ".".join(item.path)))
        elif isinstance(item, A.ImportFile):
            targets.append(((mod.path.parent / item.path), item, item.path))
        elif isinstance(item, A.WorldDecl):
            for member in item.members:
                if isinstance(member, A.UseDecl):
                    for i, dotted in enumerate(member.modules):
                        targets.append((resolve_module(dotted, mod.path), member, ".".join(dotted), member.span_of(i)))
        for entry in targets:
            target, node, shown = entry[:3]
            span = entry[3] if len(entry) > 3 else node.span
            try:
                found = target.is_file()
                if not found and target.is_dir():
                    raise IsADirectoryError(21, "it is a folder")
                resolved = target.resolve() if found else target
            except _PATH_ERRORS as e:  # a name too long for the file system, a folder without access, ...
                self.diagnostics.append(
                    Diagnostic("E009", f"cannot read module `{_abbrev(shown)}`: {_reason(e)}", span, help="check the module's name and the folder's permissions")
                )
                continue
            if not found:
                self.diagnostics.append(
                    Diagnostic("E501", f"module `{_abbrev(shown)}` not found (looked for `{_abbrev(display_name(target), 200)}`)", span, help=_stdlib_hint())
                )
                continue
            mod.imports.append((resolved, node))
            self.load(resolved, at=span)

    def find_cycles(self) -> None:
        """Report each import that closes a cycle, once per cycle."""
        WHITE, GREY, BLACK = 0, 1, 2
        color = {p: WHITE for p in self.modules}
        reported: set[frozenset[Path]] = set()
        for root in list(self.modules):
            if color[root] != WHITE:
                continue
            # iterative DFS keeping the current path for the cycle note
            stack: list[tuple[Path, int]] = [(root, 0)]
            path: list[Path] = [root]
            color[root] = GREY
            while stack:
                node, i = stack[-1]
                edges = self.modules[node].imports
                if i >= len(edges):
                    stack.pop()
                    path.pop()
                    color[node] = BLACK
                    continue
                stack[-1] = (node, i + 1)
                target, decl = edges[i]
                if target not in color:
                    continue
                if color[target] == GREY:
                    cycle = path[path.index(target) :]
                    key = frozenset(cycle)
                    if key not in reported:
                        reported.add(key)
                        names = " → ".join(self.modules[p].display for p in cycle + [target])
                        self.diagnostics.append(
                            Diagnostic(
                                "E502",
                                "modules import each other in a cycle",
                                decl.span,
                                notes=(f"cycle: {names}",),
                                help="move the shared declarations into a module that both import",
                            )
                        )
                elif color[target] == WHITE:
                    color[target] = GREY
                    stack.append((target, 0))
                    path.append(target)


_DOTTED = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
# `import a.b` and `import "x.world"` start a line; `use a.b, c` starts one inside a world.
_SALVAGE_IMPORT = re.compile(rf'^[ \t]*import[ \t]+(?:({_DOTTED})|"([^"\\\n]*)")', re.M)
_SALVAGE_USE = re.compile(rf"^[ \t]*use[ \t]+({_DOTTED}(?:[ \t]*,[ \t]*{_DOTTED})*)", re.M)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SALVAGE_LIMIT = 1000  # module names read from one failed file, at most


def _salvaged_targets(text: str, importer: Path) -> list[Path]:
    """The files that the `import` and `use` lines of unparsed text would name, in order."""
    out: list[Path] = []
    for m in _SALVAGE_IMPORT.finditer(text):
        if m.group(1) is not None:
            out.append(resolve_module(tuple(m.group(1).split(".")), importer))
        elif m.group(2):
            out.append(importer.parent / m.group(2))
        if len(out) >= _SALVAGE_LIMIT:
            return out
    for m in _SALVAGE_USE.finditer(text):
        for dotted in m.group(1).split(","):
            out.append(resolve_module(tuple(dotted.strip().split(".")), importer))
        if len(out) >= _SALVAGE_LIMIT:
            return out
    return out


# Diagnostics that say a name is not declared, by code: the pattern of the message and which
# group holds the name. After a parse error these may be consequences of it (`_Cascades`).
_UNKNOWN: dict[str, re.Pattern] = {
    "E101": re.compile(r"unknown name `([^`]+)`\Z"),
    "E102": re.compile(r"unknown type `([^`]+)`\Z"),
    "E104": re.compile(r"unknown service `([^`]+)`\Z"),
    "E107": re.compile(r"unknown value pool `([^`]+)`\Z"),
    "E108": re.compile(r"unknown tool `([^`]+)`\Z"),
    "E109": re.compile(r"unknown function `([^`]+)`\Z"),
}
_USES_NOTHING = re.compile(r"module `([^`]+)` declares no service to use\Z")


class _Cascades:
    """Which diagnostics are consequences of a file that could not be loaded (a parse error, or
    a file that cannot be read or is too large): that file declares nothing, so names it would
    have declared are unknown in every file that imports it, directly or not.

    The rule (docs/diagnostics.md, "After a syntax error"):
      - syntax and input errors (E0xx) are always reported;
      - nothing else is reported in a file that failed to parse;
      - in a file that imports or uses a failed file (directly or through other imports), an
        "unknown name/type/service/pool/tool/function `X`" is dropped when `X` (or a part of a
        dotted `X`) occurs as a word in a failed file it imports, or that file's text is unknown
        (not read); "module `M` declares no service to use" is dropped when `M` is a failed file;
      - everything else is reported: type errors, and any error in a file that imports no
        failed file, or about a name that no failed file mentions.
    """

    def __init__(self, modules: dict[Path, SourceModule]) -> None:
        self.modules = modules
        self.failed = {p for p, m in modules.items() if m.ast is None}
        self.by_display = {m.display: m for m in modules.values()}
        self._reach: dict[Path, list[SourceModule]] = {}
        self._words: dict[Path, frozenset[str] | None] = {}

    def failed_below(self, mod: SourceModule) -> list[SourceModule]:
        """The failed modules that `mod` imports or uses, directly or through other modules."""
        got = self._reach.get(mod.path)
        if got is None:
            got = self._reach[mod.path] = [self.modules[p] for p in import_closure(self.modules, mod.path)[1:] if p in self.failed]
        return got

    def words(self, mod: SourceModule) -> frozenset[str] | None:
        """Every word of a failed file's text; None when the text is not known (any name)."""
        if mod.path not in self._words:
            self._words[mod.path] = None if mod.text is None else frozenset(_WORD.findall(mod.text))
        return self._words[mod.path]

    def is_consequence(self, d: Diagnostic) -> bool:
        if is_syntax_code(d.code):
            return False
        mod = self.by_display.get(d.span.file)
        if mod is None:
            return False
        if mod.path in self.failed:
            return True
        below = self.failed_below(mod)
        if not below:
            return False
        if d.code == "E104" and (m := _USES_NOTHING.match(d.message)):
            stem = m.group(1).rsplit(".", 1)[-1]
            return any(p.stem == stem and p in self.failed for p, node in mod.imports if isinstance(node, A.UseDecl))
        pattern = _UNKNOWN.get(d.code)
        m = pattern.match(d.message) if pattern else None
        if m is None:
            return False
        parts = m.group(1).split(".")
        for failed in below:
            words = self.words(failed)
            if words is None or any(part in words for part in parts):
                return True
        return False


def _abbrev(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@functools.lru_cache(maxsize=1)
def _stdlib_hint() -> str:
    root = stdlib_dir()
    names = sorted(".".join(p.relative_to(root).with_suffix("").parts) for p in root.rglob("*.world"))
    return "stdlib modules: " + ", ".join(names)


def _finish(loader: _Loader, roots: list[Path]) -> Program:
    loader.find_cycles()
    # The modules a failed file names join the import graph only now: an import cycle is
    # reported from parsed imports alone, but importers of the failed file see through it.
    for mod in loader.modules.values():
        if mod.salvaged:
            mod.imports.extend((p, None) for p in mod.salvaged if p in loader.modules)
    parsed = [m for m in loader.modules.values() if m.ast is not None]
    checker = Checker(parsed, loader.modules)
    model = checker.run()
    diags = loader.diagnostics + checker.diagnostics
    cascades = _Cascades(loader.modules)
    if cascades.failed:
        diags = [d for d in diags if not cascades.is_consequence(d)]
    return Program(loader.modules, roots, model, sort_diagnostics(diags), loader.sources)


def check_paths(paths: list[str | Path]) -> Program:
    """Load, parse and check the given files (and what they import) together."""
    loader = _Loader()
    roots = []
    for p in paths:
        mod = loader.load(Path(p))
        roots.append(mod.path)
    return _finish(loader, roots)


def check_source(text: str | bytes, file: str = "<input>.world", base_dir: str | Path | None = None) -> Program:
    """Check one in-memory source; relative imports resolve against `base_dir` (default: cwd)."""
    loader = _Loader()
    data = text.encode("utf-8") if isinstance(text, str) else text
    path = Path(base_dir or Path.cwd()).resolve() / Path(file).name
    mod = loader.load(path, data=data, display=file)
    return _finish(loader, [mod.path])
