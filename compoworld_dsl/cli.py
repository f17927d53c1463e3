"""`worldc`: the command line. Parses options and calls library functions; no logic of its own.
Exit codes: 0 success, 1 a failed check, 2 bad usage."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from . import __version__
from .diagnostics import Diagnostic, SourceCache, render_json, render_text, sort_diagnostics

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own exit code for usage errors is 2 as well
        self.print_usage(sys.stderr)
        print(f"worldc: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _expand(paths: list[str]) -> list[Path] | None:
    """Files as given; folders become the `.world` files below them. None if a path is missing."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(path.rglob("*.world")))
        elif path.exists():
            out.append(path)
        else:
            print(f"worldc: error: no such file or folder: {p}", file=sys.stderr)
            return None
    return out


def _print_diagnostics(diags: list[Diagnostic], sources: SourceCache, fmt: str) -> None:
    if fmt == "json":
        print(render_json(diags))
        return
    for d in diags:
        print(render_text(d, sources), file=sys.stderr)
        print(file=sys.stderr)
    errors = sum(d.is_error for d in diags)
    warnings = len(diags) - errors
    if errors or warnings:
        print(f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}", file=sys.stderr)


def cmd_check(args) -> int:
    from .check import check_paths

    files = _expand(args.paths)
    if files is None:
        return EXIT_USAGE
    if not files:
        print("worldc: error: no .world files found", file=sys.stderr)
        return EXIT_USAGE
    diags: list[Diagnostic] = []
    sources = SourceCache()
    summaries = []
    # Each file is its own program: two world files must not see each other's declarations.
    for f in files:
        program = check_paths([f])
        diags.extend(program.diagnostics)
        sources.merge(program.sources)
        if program.ok and program.model is not None:
            m = program.model
            n_tools = sum(len(s.tools) for s in m.services.values())
            summaries.append(f"{f}: ok ({len(m.services)} services, {n_tools} tools)")
    diags = sort_diagnostics(diags)
    _print_diagnostics(diags, sources, args.format)
    if args.format != "json":
        for s in summaries:
            print(s, file=sys.stderr)
    return EXIT_FAILED if any(d.is_error for d in diags) else EXIT_OK


def write_atomic(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder and rename, so no reader sees half a file."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def cmd_fmt(args) -> int:
    from .syntax.format import format_source
    from .syntax.parser import ParseFailure

    files = _expand(args.paths)
    if files is None:
        return EXIT_USAGE
    status = EXIT_OK
    sources = SourceCache()
    failures: list[Diagnostic] = []
    for f in files:
        data = f.read_bytes()
        try:
            formatted = format_source(data, str(f))
        except ParseFailure as e:
            sources.add(str(f), data.decode("utf-8", errors="replace"))
            failures.extend(e.diagnostics)
            status = EXIT_FAILED
            continue
        if formatted.encode("utf-8") == data:
            continue
        if args.check:
            print(f"would reformat {f}", file=sys.stderr)
            status = EXIT_FAILED
        else:
            write_atomic(f, formatted)
            print(f"reformatted {f}", file=sys.stderr)
    if failures:
        _print_diagnostics(sort_diagnostics(failures), sources, "text")
    return status


def _load_checked(path: str):
    """Check one world file; print diagnostics; return the model or None."""
    from .check import check_paths

    if not Path(path).is_file():
        print(f"worldc: error: no such file: {path}", file=sys.stderr)
        return None, EXIT_USAGE
    program = check_paths([path])
    if not program.ok:
        _print_diagnostics(program.diagnostics, program.sources, "text")
        return None, EXIT_FAILED
    return program.model, EXIT_OK


def cmd_compile(args) -> int:
    from .codegen.package import write_package

    model, status = _load_checked(args.path)
    if model is None:
        return status
    name = model.world.name if model.world else Path(args.path).stem
    out = Path(args.output) if args.output else Path("build") / name
    write_package(model, out, source=args.path)
    print(f"wrote {out}/ (import it with the folder above on sys.path: `from {out.name} import WORLD`)", file=sys.stderr)
    return EXIT_OK


def cmd_graph(args) -> int:
    from .graph import build_graph, to_dot, to_mermaid

    model, status = _load_checked(args.path)
    if model is None:
        return status
    g = build_graph(model)
    if args.stats:
        stats = g.stats()
        if args.format == "json":
            print(json.dumps(stats, indent=2))
        else:
            for k, v in stats.items():
                shown = f"{len(v)}" + (f"  ({', '.join(v[:8])}{', …' if len(v) > 8 else ''})" if v else "") if isinstance(v, list) else v
                print(f"{k.replace('_', ' ')}: {shown}")
        return EXIT_OK
    if args.format == "dot":
        sys.stdout.write(to_dot(g))
    elif args.format == "mermaid":
        sys.stdout.write(to_mermaid(g))
    else:
        print(json.dumps(g.to_json(), indent=2))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="worldc", description="Compile .world files into practice worlds for tool-using agents.")
    p.add_argument("--version", action="version", version=f"worldc {__version__}")
    sub = p.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    sub.required = True

    c = sub.add_parser("check", help="parse and type-check .world files; report every error")
    c.add_argument("paths", nargs="+", metavar="PATH", help=".world files or folders")
    c.add_argument("--format", choices=("text", "json"), default="text", help="json: a list of diagnostics on stdout")
    c.set_defaults(func=cmd_check)

    f = sub.add_parser("fmt", help="rewrite .world files in canonical form")
    f.add_argument("paths", nargs="+", metavar="PATH")
    f.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    f.set_defaults(func=cmd_fmt)

    c = sub.add_parser("compile", help="compile a world into an importable Python package")
    c.add_argument("path", metavar="PATH", help="a .world file")
    c.add_argument("-o", "--output", metavar="DIR", help="the package folder to write (default: build/WORLD)")
    c.set_defaults(func=cmd_compile)

    g = sub.add_parser("graph", help="print the typed dependency graph of a world")
    g.add_argument("path", metavar="PATH", help="a .world file")
    g.add_argument("--format", choices=("json", "dot", "mermaid"), default="json")
    g.add_argument("--stats", action="store_true", help="counts instead of the graph: services, tools, edges, unreachable and unfed tools")
    g.set_defaults(func=cmd_graph)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("worldc: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
