"""Benchmark: verified tasks per second for the bundled worlds, by hop count and worker count.

Usage: python bench/sample.py [--worlds toy,legal_ops] [--hops 3,5,8] [--workers 1,2] [-n 100] [--repeat 3]
                              [--backends local,ray]

A world is a bundled one (`toy`, `legal_ops`) or `synthetic-N`, N services from bench/synth.py
(to see how a task's cost depends on the size of the world).

Each measurement runs `compoworld_dsl.sample.run.run` (the code behind `worldc sample`), and
prints medians over the repeats of:
  wall s      the whole job as a user sees it: loading the world in each process, starting
              the pool, sampling, writing the file;
  tasks/s     emitted tasks over wall time;
  warm/s      emitted tasks per second of worker time, times the workers: the rate once the
              workers are loaded (what a long job approaches);
  ms/try      worker time per attempt, accepted or rejected;
  z3 share    time inside `Solver.check` over worker time (encoding terms in Python is not
              counted as Z3 time).
  ray/local   with `--backends local,ray`: Ray's tasks/s over local's for the same world, hops
              and workers (Ray starts a local instance per run, ~3 s, counted in its wall time).
Every emitted task was proven, replayed and checked (see docs/sampling.md); both backends write
the same bytes."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from compoworld_dsl.sample.run import Job, run  # noqa: E402
from synth import synthetic_world  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", default="toy,legal_ops")
    ap.add_argument("--hops", default="3,5,8")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("-n", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--backends", default="local", help="local, ray, or both: local,ray (the `ray` extra)")
    args = ap.parse_args()
    cols = f"{'world':<14}{'backend':>8}{'hops':>5}{'workers':>8}{'tasks':>7}{'tries':>7}{'accept':>8}{'wall s':>8}{'tasks/s':>9}{'warm/s':>8}{'ms/try':>8}{'z3 share':>9}{'ray/local':>10}"
    print(cols)
    scratch = tempfile.TemporaryDirectory()
    for world in args.worlds.split(","):
        path = str(ROOT / "worlds" / f"{world}.world")
        if world.startswith("synthetic-"):
            path = str(Path(scratch.name) / f"{world}.world")
            Path(path).write_text(synthetic_world(int(world.split("-")[1]), world.replace("-", "_")), encoding="utf-8")
        for hops in map(int, args.hops.split(",")):
            for workers in map(int, args.workers.split(",")):
                local_rate = None
                for backend in args.backends.split(","):
                    walls, reports = [], []
                    for _ in range(args.repeat):
                        t = time.perf_counter()
                        with tempfile.TemporaryDirectory() as tmp:
                            report = run(Job(path, hops, args.n, 0, workers=workers, backend=backend), Path(tmp) / "tasks.jsonl")
                        walls.append(time.perf_counter() - t)
                        reports.append(report)
                    wall = statistics.median(walls)
                    work = statistics.median(r.work_seconds for r in reports)
                    z3s = statistics.median(r.z3_seconds for r in reports)
                    r = reports[0]  # same seed: every repeat makes the same attempts and tasks
                    warm = r.emitted / max(work / workers, 1e-9)
                    rate = r.emitted / wall
                    if backend == "local":
                        local_rate = rate
                    ratio = f"{rate / local_rate:>10.2f}" if backend != "local" and local_rate else f"{'':>10}"
                    print(
                        f"{world:<14}{backend:>8}{hops:>5}{workers:>8}{r.emitted:>7}{r.attempts:>7}{r.emitted / max(r.attempts, 1):>8.0%}"
                        f"{wall:>8.2f}{rate:>9.1f}{warm:>8.1f}{1000 * work / max(r.attempts, 1):>8.1f}{z3s / max(work, 1e-9):>9.0%}{ratio}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
