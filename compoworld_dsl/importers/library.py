"""`worldc import openapi DIR`: many specs → one library (a module per spec, one world using all).

Each spec is imported as `worldc import openapi SPEC` would, with one difference: the names it
declares (its module, services, types, records, enums) avoid those of the specs imported before
it, since a world loads every module into one namespace (docs/language.md, 2.3). A spec that
fails to import is reported with its reason and left out; the others still make the library.
The specs' own world files are folded into one: its `use` line names every module, and what each
spec's world held besides (house rules the importer proposed) follows, marked by spec.

`find_specs` lists a folder's specs (`.json`, `.yaml`, `.yml`, in sorted path order, so the
library is the same on every machine); `import_library` builds the files, not written."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .common import Budget, Names, SpecError, canonical, comment_text, lit, printable, safe, snake, write_files

SPEC_SUFFIXES = (".json", ".yaml", ".yml")


@dataclass
class SpecOutcome:
    spec: str
    result: object | None  # ImportResult, or None when the spec failed
    error: str = ""


@dataclass
class LibraryResult:
    files: dict[str, str]
    world_file: str
    outcomes: list[SpecOutcome] = field(default_factory=list)
    name: str = "library"

    @property
    def imported(self) -> list[SpecOutcome]:
        return [o for o in self.outcomes if o.result is not None]

    @property
    def failed(self) -> list[SpecOutcome]:
        return [o for o in self.outcomes if o.result is None]

    def total(self, what: str) -> int:
        return sum(getattr(o.result, what) for o in self.imported)

    def kinds(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for o in self.imported:
            for op in o.result.ops:
                out[op.kind] = out.get(op.kind, 0) + 1
        return out


def find_specs(folder: Path) -> list[Path]:
    """The spec files under `folder` (hidden files and folders left out), in sorted order."""
    out = []
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).parts
        if p.is_file() and p.suffix.lower() in SPEC_SUFFIXES and not any(part.startswith(".") for part in rel):
            out.append(p)
    return out


_WORLD_HEAD = re.compile(r"^world\s+\w+\s+\"(?:[^\"\\]|\\.)*\"\s*\{\s*$")


def world_body(text: str) -> list[str]:
    """The lines of an imported world file's `world` block other than its `use` line (rules the
    importer proposed), as written."""
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if _WORLD_HEAD.match(ln)), None)
    if start is None:
        return []
    end = max(i for i, ln in enumerate(lines) if ln.rstrip() == "}")
    return [ln for ln in lines[start + 1 : end] if not ln.strip().startswith("use ")]


def import_library(folder: Path, name: str | None = None, lists: bool = False, progress=None) -> LibraryResult:
    """Import every spec under `folder` into one library. `progress(i, n, spec, outcome)` is
    called after each spec (the CLI prints a line)."""
    from .openapi import import_openapi

    specs = find_specs(folder)
    if not specs:
        raise SpecError(f"no spec files ({', '.join(SPEC_SUFFIXES)}) under {folder}")
    lib = safe(snake(name or folder.resolve().name or "library")) or "library"
    taken = Names({lib, f"{lib}_world"})
    files: dict[str, str] = {}
    outcomes: list[SpecOutcome] = []
    for i, spec in enumerate(specs, 1):
        try:
            result = import_openapi(spec, None, lists, Budget(), taken)
        except SpecError as e:
            outcome = SpecOutcome(str(spec), None, printable(str(e)))
        except RecursionError:
            outcome = SpecOutcome(str(spec), None, "nested too deeply to import")
        except Exception as e:  # a bug in the importer: this spec is left out, the library goes on
            outcome = SpecOutcome(str(spec), None, f"the importer failed inside ({type(e).__name__}: {printable(str(e))[:200]}); a bug in worldc")
        else:
            taken |= result.names
            outcome = SpecOutcome(str(spec), result)
        outcomes.append(outcome)
        if progress is not None:
            progress(i, len(specs), spec, outcome)
    return assemble(folder, lib, outcomes)


def assemble(folder: Path, lib: str, outcomes: list[SpecOutcome]) -> LibraryResult:
    """The library's files from the specs that imported: their modules, and one world using all."""
    files: dict[str, str] = {}
    modules, extra = [], []
    for o in outcomes:
        if o.result is None:
            continue
        for fname, text in o.result.files.items():
            if fname == o.result.world_file:
                body = world_body(text)
                if body:
                    extra += ["", f"  // from {printable(Path(o.spec).name)}"] + body
            else:
                files[fname] = text
                modules.append(fname.removesuffix(".world"))
    world_file = f"{lib}_world.world"
    if not modules:
        return LibraryResult({}, world_file, outcomes, lib)
    head = [
        "// " + comment_text(f"{world_file}: the world of {len(modules)} APIs imported from {printable(str(folder))} by `worldc import openapi`.", 400),
        "// Add house rules here (`constraint`, `rule`: docs/language.md, section 8); `worldc sample` finds this file.",
        "",
        f"world {lib}_world {lit(f'{len(modules)} imported APIs')} {{",
    ]
    uses = ["  use " + ", ".join(modules)]
    files[world_file] = canonical("\n".join(head + uses + extra + ["}", ""]), world_file)
    return LibraryResult(files, world_file, outcomes, lib)


def prune(out: Path, folder: Path, result: LibraryResult, rounds: int = 3):
    """Check the written library; leave out each spec whose module the check faults (a bug in
    the importer, reported with the spec) and write the world again, so one spec's bad output
    never costs the other specs their world. Returns the result and the last check's program."""
    from ..check import check_paths

    for _ in range(rounds):
        program = check_paths([out / result.world_file])
        bad = {Path(d.span.file).name for d in program.diagnostics if d.is_error} - {result.world_file}
        if program.ok or not bad:
            return result, program
        for o in result.outcomes:
            if o.result is not None and bad & set(o.result.files):
                first = next(d for d in program.diagnostics if d.is_error and Path(d.span.file).name in o.result.files)
                for fname in o.result.files:
                    (out / fname).unlink(missing_ok=True)
                o.error = f"its import does not check ({first.code} at {Path(first.span.file).name}:{first.span.line}: {first.message}); a bug in worldc, left out"
                o.result = None
        result = assemble(folder, result.name, result.outcomes)
        write_files(out, {result.world_file: result.files[result.world_file]}, True)
    return result, check_paths([out / result.world_file])

