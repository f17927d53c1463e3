"""`worldc import`'s last lines, after an import checks clean: does the result give tasks, and if not, why not.

`probe(world_file)` runs what a user would run next, in process and bounded: `worldc lint` (its
warnings, counted by code) and `worldc sample --hops 3 -n 1 --seed 1` with a small attempt
budget into a temporary file. The import report prints the answer before it suggests
`worldc sample`, so an author learns at once that an import gives no task, and the sampler's own
reason ("no tool can follow step 0": nothing links one tool's result to another's argument),
instead of finding out later."""

from __future__ import annotations

import collections
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HOPS = 3
ATTEMPTS = 40  # enough for a world that samples at all (most give a task in the first few)
LINT_SEEDS = 5  # seeded states a house rule is tried on: a quick look, `worldc lint` does 20


@dataclass
class Probe:
    warnings: collections.Counter = field(default_factory=collections.Counter)  # lint code → count
    unreachable: list[str] = field(default_factory=list)  # a few W102/W103 messages
    tasks: int = 0
    attempts: int = 0
    reason: str = ""  # the sampler's most common rejection and its example, when no task came
    error: str = ""  # the probe itself could not run (reported, never raised)

    @property
    def samples(self) -> bool:
        return self.tasks > 0

    def lines(self) -> list[str]:
        """The report's lines for this probe."""
        if self.error:
            return [f"probe: could not run ({self.error})"]
        out = []
        if self.warnings:
            out.append("worldc lint: " + ", ".join(f"{k}×{n}" for k, n in sorted(self.warnings.items())) + " (W102/W103: tools no task can reach)")
        else:
            out.append("worldc lint: no warnings")
        if self.samples:
            out.append(f"samples tasks: yes ({self.tasks} task of {HOPS} hops in {self.attempts} attempt{'s' if self.attempts != 1 else ''}, seed 1)")
        else:
            out.append(f"samples tasks: no ({HOPS} hops, {self.attempts} attempts): {self.reason}")
            out.append("  why: a task is a chain of calls where one call's result (a key) is the next call's argument; a world whose tools share no key, or whose tools are all simulated, has none")
        return out


def probe(world_file: Path, attempts: int = ATTEMPTS) -> Probe:
    from ..check import check_paths
    from ..lint import lint
    from ..sample.job import Job
    from ..sample.run import run

    out = Probe()
    try:
        program = check_paths([world_file])
        if not program.ok:
            out.error = "the world does not check"
            return out
        for d in lint(program.model, str(world_file), LINT_SEEDS):
            out.warnings[d.code] += 1
            if d.code in ("W102", "W103") and len(out.unreachable) < 3:
                out.unreachable.append(d.message)
        with tempfile.TemporaryDirectory() as tmp:
            rep = run(Job(str(world_file), HOPS, 1, 1, max_attempts=attempts), Path(tmp) / "probe.jsonl")
        out.tasks, out.attempts = rep.emitted, rep.attempts
        if not rep.emitted:
            top = rep.rejected.most_common(1)
            why = top[0][0] if top else "no attempt"
            example = rep.examples.get(why, "")
            out.reason = f"{why}" + (f": {example}" if example else "")
    except Exception as e:  # the probe is advice: a failure in it never fails the import
        out.error = f"{type(e).__name__}: {e}"
    return out


def run_probe(args, world_file: Path):
    """Lint and a trial sampling of the written world (`probe.py`), unless `--no-probe`."""
    if getattr(args, "no_probe", False):
        return None
    return probe(world_file)


def probe_json(found) -> dict | None:
    if found is None:
        return None
    return {"lint": dict(found.warnings), "samples": found.samples, "tasks": found.tasks, "attempts": found.attempts, "reason": found.reason, "error": found.error}


def print_probe(w, found, world_dir: Path) -> None:
    """The report's last lines: lint, whether the world gives tasks, and what to run next."""
    if found is not None:
        for line in found.lines():
            w(line + "\n")
    if found is None or found.samples:
        w(f"next: cd {world_dir} && worldc sample --hops 3 -n 3 --seed 1\n")
    else:
        w(f"next: make the tools share keys (docs/import.md, \"When an import gives no task\"), then cd {world_dir} && worldc sample --hops 3 -n 3 --seed 1\n")

