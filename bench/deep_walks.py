"""Benchmark: how often an attempt gives a task at long walks, and what the tasks are like.

Usage: python bench/deep_walks.py [--worlds legal_ops,office,support,supply_chain] [--hops 12,16]
       [-n 30] [--seed 7] [--threads 1] [--timeout 120]

For each world and hop count it makes N attempts (`Sampler.task`, one process, each with a time
budget of --timeout seconds) and prints one markdown row: tasks per attempt (acceptance), the
median real calls of a task (`difficulty.real_calls`: a paged read counts its pages), the share of tasks of one thread, median seconds
per attempt, and the three commonest rejection reasons. Acceptance is what decides whether a
hop count is usable at all; the seconds are this machine's (compare ratios, not values)."""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compoworld_dsl.sample.rejected import Rejected  # noqa: E402
from compoworld_dsl.sample.steps import threads  # noqa: E402
from compoworld_dsl.sample.worker import load_sampler  # noqa: E402
from compoworld_dsl.smt.encode import Deadline  # noqa: E402


def row(world: str, hops: int, n: int, seed: int, n_threads: int, timeout: float) -> str:
    sampler = load_sampler(str(ROOT / "worlds" / f"{world}.world"))
    tasks, why, seconds = [], collections.Counter(), []
    for i in range(n):
        t0 = time.perf_counter()
        try:
            kw = {"threads": n_threads} if n_threads != 1 else {}
            tasks.append(sampler.task(seed, i, hops, Deadline(timeout), **kw))
        except Rejected as e:
            why[e.reason] += 1
        except TypeError:  # a checkout from before `threads`: its walks are not one thread
            tasks.append(sampler.task(seed, i, hops, Deadline(timeout)))
        seconds.append(time.perf_counter() - t0)
    calls = statistics.median(t["difficulty"]["real_calls"] for t in tasks) if tasks else 0  # a paged read counts its pages
    one = sum(threads(t) == 1 for t in tasks) / len(tasks) if tasks else 0
    top = ", ".join(f"{r} {c}" for r, c in why.most_common(3))
    return f"| {world} | {hops} | {len(tasks)}/{n} ({len(tasks) / n:.0%}) | {calls:g} | {one:.0%} | {statistics.median(seconds):.2f} | {top} |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", default="legal_ops,office,support,supply_chain")
    ap.add_argument("--hops", default="12,16")
    ap.add_argument("-n", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120.0)
    args = ap.parse_args()
    print("| world | hops | tasks/attempts | calls/task | one thread | s/attempt | rejections |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for world in args.worlds.split(","):
        for hops in (int(h) for h in args.hops.split(",")):
            print(row(world, hops, args.n, args.seed, args.threads, args.timeout), flush=True)


if __name__ == "__main__":
    main()
