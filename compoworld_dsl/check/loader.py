"""Load `.world` files and everything they import, then run the checker over the lot.
Owns file reading, module-path resolution and import-cycle detection; not type rules."""

from __future__ import annotations

import os
from pathlib import Path

import attrs

from ..diagnostics import Diagnostic, SourceCache, Span, sort_diagnostics
from ..resources import stdlib_dir
from ..syntax import ast as A
from ..syntax.parser import ParseFailure, parse_module
from .model import Model


@attrs.define(eq=False)
class SourceModule:
    path: Path  # resolved absolute path
    display: str  # how diagnostics name it
    ast: A.Module | None
    imports: list[tuple[Path, A.ImportModule | A.ImportFile | A.UseDecl]] = attrs.field(factory=list)


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

    def load(self, path: Path, data: bytes | None = None, display: str | None = None) -> SourceModule:
        path = path.resolve() if data is None else path
        if path in self.modules:
            return self.modules[path]
        display = display or display_name(path)
        if data is None:
            try:
                data = path.read_bytes()
            except OSError as e:
                self.diagnostics.append(
                    Diagnostic("E009", f"cannot read `{display}`: {e.strerror or e}", Span.point(display, 1, 1))
                )
                mod = SourceModule(path, display, None)
                self.modules[path] = mod
                return mod
        try:
            self.sources.add(display, data.decode("utf-8", errors="replace"))
            ast = parse_module(data, display)
        except ParseFailure as failure:
            self.diagnostics.extend(failure.diagnostics)
            ast = None
        mod = SourceModule(path, display, ast)
        self.modules[path] = mod
        if ast is not None:
            for item in ast.items:
                self._follow(mod, item)
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
            if not target.is_file():
                hint = "stdlib modules: " + ", ".join(sorted(p.stem for p in stdlib_dir().glob("*.world")))
                self.diagnostics.append(
                    Diagnostic("E501", f"module `{shown}` not found (looked for `{display_name(target)}`)", span, help=hint)
                )
                continue
            resolved = target.resolve()
            mod.imports.append((resolved, node))
            self.load(resolved)

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


def _finish(loader: _Loader, roots: list[Path]) -> Program:
    from .checker import Checker  # the checker needs loaded modules; keep import order one-way

    loader.find_cycles()
    parsed = [m for m in loader.modules.values() if m.ast is not None]
    checker = Checker(parsed, loader.modules)
    model = checker.run()
    diags = sort_diagnostics(loader.diagnostics + checker.diagnostics)
    return Program(loader.modules, roots, model, diags, loader.sources)


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
