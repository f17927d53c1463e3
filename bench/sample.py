"""Benchmark: verified tasks per second for the bundled worlds, by hop count and worker count.

Usage: python bench/sample.py [--hops 3,5,8] [--workers 1,2] [-n 20] [--repeat 3]
Each measurement runs `compoworld_dsl.sample.run.run` (the code behind `worldc sample`) and
prints the median wall time, tasks per second, attempts, acceptance and the share of worker
time spent inside Z3 checks. World loading (check + compile) is excluded from the rate and
reported separately."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compoworld_dsl.sample.run import Job, load_sampler, run  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", default="toy,legal_ops")
    ap.add_argument("--hops", default="3,5,8")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("-n", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"{'world':<11}{'hops':>5}{'workers':>8}{'tasks':>7}{'tries':>7}{'accept':>8}{'median s':>10}{'tasks/s':>9}{'z3 share':>9}")
    for world in args.worlds.split(","):
        path = str(ROOT / "worlds" / f"{world}.world")
        t = time.perf_counter()
        load_sampler(path)
        load = time.perf_counter() - t
        for hops in map(int, args.hops.split(",")):
            for workers in map(int, args.workers.split(",")):
                times, reports = [], []
                for _ in range(args.repeat):
                    t = time.perf_counter()
                    with tempfile.TemporaryDirectory() as tmp:
                        report = run(Job(path, hops, args.n, 0, workers=workers), Path(tmp) / "tasks.jsonl")
                    times.append(time.perf_counter() - t - (load if workers == 1 else 0))
                    reports.append(report)
                med = statistics.median(times)
                r = reports[0]
                share = r.z3_seconds / max(med * workers, 1e-9)
                print(f"{world:<11}{hops:>5}{workers:>8}{r.emitted:>7}{r.attempts:>7}{r.emitted / max(r.attempts, 1):>8.0%}{med:>10.2f}{r.emitted / med:>9.2f}{share:>9.0%}")
        print(f"  ({world}: loading the world takes {load:.2f} s per process, not counted above for 1 worker)")


if __name__ == "__main__":
    main()
