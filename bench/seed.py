"""Benchmark: seeding a task's state as the sampler does (`partial_state`, then `seed_tables`).

Usage: python bench/seed.py [--worlds legal_ops] [--sizes 10,448] [-n 300] [--repeat 5]

For each world, `-n` times: a partial state for seed i, then one table picked at random (seeded
choice) added with `seed_tables`, which seeds it and every table its `ref`s draw keys from
(`CompiledWorld.seed_tables`). Printed per world, medians over --repeat: milliseconds per call,
tables seeded per call, and microseconds per table seeded. The synthetic worlds of
bench/synth.py chain their tables into long `ref` cycles, so one table there brings ~17 others.
Times are for this machine and load; compare ratios, not seconds."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from compoworld_dsl.sample.run import load_sampler  # noqa: E402
from synth import synthetic_world  # noqa: E402


def measure(world, n: int) -> tuple[float, float]:
    """(seconds, tables seeded) for `n` partial states with one table each."""
    names = sorted(t for t in world.seeds if world.state_decl[t]["kind"] == "table")
    picks = [random.Random(i).choice(names) for i in range(n)]
    t = time.perf_counter()
    tables = 0
    for i, name in enumerate(picks):
        st = world.partial_state(i)
        tables += len(world.seed_tables(st, i, [name]))
    return time.perf_counter() - t, tables


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", default="legal_ops", help="bundled worlds; empty for none")
    ap.add_argument("--sizes", default="10,448", help="synthetic worlds of N services (bench/synth.py); empty for none")
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    scratch = tempfile.TemporaryDirectory()
    paths = [(w, str(ROOT / "worlds" / f"{w}.world")) for w in args.worlds.split(",") if w]
    for size in (int(s) for s in args.sizes.split(",") if s):
        path = Path(scratch.name) / f"synthetic-{size}.world"
        path.write_text(synthetic_world(size, f"synthetic_{size}"), encoding="utf-8")
        paths.append((f"synthetic-{size}", str(path)))
    print(f"{'world':<16}{'ms/call':>9}{'tables/call':>13}{'us/table':>10}")
    for label, path in paths:
        world = load_sampler(path).world
        measure(world, min(args.n, 20))  # compiles each table's generators once, as a long run would have
        runs = [measure(world, args.n) for _ in range(args.repeat)]
        secs = statistics.median(s for s, _ in runs)
        tables = runs[0][1]  # the same picks every repeat
        print(f"{label:<16}{1000 * secs / args.n:>9.3f}{tables / args.n:>13.1f}{1e6 * secs / max(tables, 1):>10.1f}")


if __name__ == "__main__":
    main()
