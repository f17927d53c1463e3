"""Benchmark: where a sampled task's time goes, attempt by attempt, in one process.

Usage: python bench/attempts.py [--world legal_ops] [--hops 5] [-n 300] [--seed 0]

Runs `-n` attempts of `Sampler.task` through `compoworld_dsl.sample.worker.attempt` (the code each
`worldc sample` worker runs), after loading the world. Z3's share comes from the sampler's own
counters: `encode` is building Z3 terms and contexts and reading models, `check` is the time
inside Z3's checks; "python" is the rest of the attempt. Printed: for the attempts that gave a
task and for the rejected ones, milliseconds per *emitted* task of each; then, for the attempts
that gave a task, the inclusive milliseconds of each stage of `sampler.sample_task` per task (each
stage is a module function, timed where the composer calls it).

This is what the aim of issue 15 is measured against: 500 tasks/s on 2 workers leaves 4 ms of
worker time per task. Times are for this machine and load; compare ratios, not seconds."""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compoworld_dsl.sample import lookalikes  # noqa: E402
from compoworld_dsl.sample import necessity as N  # noqa: E402
from compoworld_dsl.sample import reports as R  # noqa: E402
from compoworld_dsl.sample import rules as H  # noqa: E402
from compoworld_dsl.sample import solve as S  # noqa: E402
from compoworld_dsl.sample.run import Job  # noqa: E402
from compoworld_dsl.sample.worker import attempt as _attempt, keep_freed_memory, load_sampler  # noqa: E402
from compoworld_dsl.sample.walk import Walker  # noqa: E402

# stages of an attempt, timed inclusively (the outermost call of each only); each is looked up on
# its module (or class) when the composer calls it, so wrapping it there times every call
STAGES = [
    (Walker, "grow", "grow the walk (draws, calls, Z3 bindings)"),
    (S, "prove_walk", "Z3 proof of the walk"),
    (H, "attach_constraints", "rule proofs (witnesses, Z3)"),
    (N, "steps_necessary", "necessity proofs (replays)"),
    (lookalikes, "plant", "planting a look-alike"),
    (N, "distractors", "look-alike proofs (replays)"),
    (R, "decoys", "decoys"),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--world", default="legal_ops")
    ap.add_argument("--hops", type=int, default=5)
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    path = args.world if args.world.endswith(".world") else str(ROOT / "worlds" / f"{args.world}.world")
    keep_freed_memory()
    sampler = load_sampler(path)
    job = Job(path, args.hops, args.n, args.seed)

    spent: dict[str, float] = collections.defaultdict(float)
    active: collections.Counter = collections.Counter()

    def timed(owner, name: str, label: str) -> None:
        real = getattr(owner, name)

        def wrapper(*a, **k):
            if active[label]:
                return real(*a, **k)
            active[label] += 1
            t = time.perf_counter()
            try:
                return real(*a, **k)
            finally:
                spent[label] += time.perf_counter() - t
                active[label] -= 1

        setattr(owner, name, wrapper)

    for owner, name, label in STAGES:
        timed(owner, name, label)

    kinds = {"gave a task": [0, 0.0, 0.0, 0.0], "rejected": [0, 0.0, 0.0, 0.0]}
    stages: dict[str, float] = collections.defaultdict(float)
    for i in range(args.n):
        spent.clear()
        _, task, _, _, check, encode, seconds, _ = _attempt(sampler, job, i)
        row = kinds["gave a task" if task is not None else "rejected"]
        row[0] += 1
        row[1] += seconds
        row[2] += encode
        row[3] += check
        if task is not None:
            for label, s in spent.items():
                stages[label] += s
    tasks = max(kinds["gave a task"][0], 1)
    print(f"{args.world}, {args.hops} hops, seed {args.seed}: {kinds['gave a task'][0]} tasks in {args.n} attempts, one process")
    print(f"{'attempts':<14}{'count':>6}{'ms/task':>10}{'Z3 encode':>11}{'Z3 check':>10}{'python':>9}")
    total = 0.0
    for kind, (count, seconds, encode, check) in kinds.items():
        total += seconds
        print(f"{kind:<14}{count:>6}{1000 * seconds / tasks:>10.1f}{1000 * encode / tasks:>11.1f}{1000 * check / tasks:>10.1f}{1000 * (seconds - encode - check) / tasks:>9.1f}")
    print(f"{'all':<14}{args.n:>6}{1000 * total / tasks:>10.1f}   (500 tasks/s on 2 workers: 4.0)")
    print("\nstages of the attempts that gave a task, ms per task (inclusive):")
    for label, s in sorted(stages.items(), key=lambda kv: -kv[1]):
        print(f"  {label:<46}{1000 * s / tasks:6.2f}")


if __name__ == "__main__":
    main()
