"""What every `worldc` verb shares: exit codes, the argument parser's base, printing diagnostics,
atomic writes, finding the world, plurals. The verbs import it; it imports none of them."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..diagnostics import Diagnostic, SourceCache, render_json, render_text

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class _Help(argparse.RawDescriptionHelpFormatter):
    """Help that keeps the examples' line breaks and shows each option's default (unless its help
    already says it)."""

    def _get_help_string(self, action):
        text = action.help or ""
        if not action.option_strings or "default" in text or action.default in (None, False, argparse.SUPPRESS) or text == argparse.SUPPRESS:
            return text
        return text + " (default: %(default)s)"


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # argparse's own exit code for usage errors is 2 as well
        self.print_usage(sys.stderr)
        print(f"worldc: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


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


def write_atomic(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder and rename, so no reader sees half a
    file (and a killed writer's leftovers are cleared by the next one: `taskfile.atomic_output`)."""
    from ..taskfile import atomic_output

    with atomic_output(Path(path), newline="") as fh:
        fh.write(text)


def _load_checked(path: str):
    """Check one world file; print diagnostics; return the model or None."""
    from ..check import check_paths

    if not Path(path).is_file():
        print(f"worldc: error: no such file: {path}", file=sys.stderr)
        return None, EXIT_USAGE
    program = check_paths([path])
    if not program.ok:
        _print_diagnostics(program.diagnostics, program.sources, "text")
        return None, EXIT_FAILED
    return program.model, EXIT_OK


def find_world(path: str | None) -> tuple[str | None, str]:
    """The world file to use and how it was found: the PATH given (a file, or a folder holding
    one world), else the current folder's one world, else the one package `worldc compile` left
    under build/."""
    import re

    def worlds_in(folder: Path) -> list[Path]:
        out = []
        for f in sorted(folder.glob("*.world")):
            try:
                if re.search(r"^\s*world\s", f.read_text(encoding="utf-8", errors="replace"), re.M):
                    out.append(f)
            except OSError:
                continue
        return out

    if path is not None:
        p = Path(path)
        if p.is_file():
            return str(p), f"{p}"
        if p.is_dir():
            found = worlds_in(p)
            if len(found) == 1:
                return str(found[0]), f"{found[0]} (the one world in {p})"
            return None, f"{p} holds {len(found)} worlds; name one"
        return None, f"no such file or folder: {path}"
    found = worlds_in(Path.cwd())
    if len(found) == 1:
        return str(found[0]), f"{found[0]} (the one world in this folder)"
    compiled = _last_compiled()
    if len(found) > 1:
        # `worldc compile legal_ops.world` then `worldc sample`: the world just compiled
        if compiled is not None and Path(compiled[0]).resolve() in {f.resolve() for f in found}:
            return compiled[0], f"{compiled[0]} (compiled last, into {compiled[1]})"
        return None, f"this folder holds {len(found)} worlds ({', '.join(f.name for f in found)}); name one, or `worldc compile` one first"
    if compiled is not None:
        return compiled[0], f"{compiled[0]} (compiled into {compiled[1]})"
    return None, "no world here: give a .world file, run in a folder holding one world, or run `worldc compile` first"


def _last_compiled() -> tuple[str, Path] | None:
    """(source, package folder) of the world `worldc compile` wrote last under build/, whose
    source still exists; None when there is none."""
    maps = []
    for m in Path("build").glob("*/source_map.json"):
        try:
            maps.append((m.stat().st_mtime_ns, m))
        except OSError:
            continue
    for _, m in sorted(maps, reverse=True):
        try:
            src = json.loads(m.read_text(encoding="utf-8")).get("world_source")
        except (OSError, ValueError):
            continue
        if isinstance(src, str) and Path(src).is_file():
            return src, m.parent
    return None


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _parse_seed(text: str) -> int | None:
    try:
        return int(text, 0)
    except (TypeError, ValueError):
        return None


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True, highlight=False)
