"""Benchmark: loading a world for sampling (`load_sampler`), cold and from the world cache.

Usage: python bench/load.py [--sizes 10,100,448] [--worlds toy,legal_ops] [--repeat 3]

Each run is a fresh subprocess (what a pool worker or a Ray task pays) that imports the sampler
and calls `compoworld_dsl.sample.run.load_sampler` once. Three ways, medians of --repeat runs:
  cold    COMPOWORLD_NO_CACHE=1: parse, check, generate, byte-compile, exec, build the sampler
          (what every process paid before the cache);
  miss    an empty cache folder: the same plus writing the entry (the first process only);
  cached  the entry written by a miss: re-hash the import closure, unmarshal the code,
          unpickle the model, exec, build the sampler.
Printed per world: load_sampler wall seconds for each (and CPU seconds for cached, which the
load of other processes disturbs less), the process wall time of a cached run (interpreter start
and imports included), the entry's size, and cold/cached: how many times faster a cached load is.
Times are for this machine and load; compare ratios, not seconds."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def measure(path: str) -> dict:
    """In the child: import the sampler, load the world once, report times."""
    t0 = time.perf_counter()
    from compoworld_dsl.sample.run import load_sampler

    t1, c1 = time.perf_counter(), time.process_time()
    sampler = load_sampler(path)
    t2, c2 = time.perf_counter(), time.process_time()
    return {"import": t1 - t0, "load": t2 - t1, "cpu": c2 - c1, "services": len(sampler.services), "tools": len(sampler.tools)}


def run_child(path: str, env: dict) -> dict:
    t = time.perf_counter()
    out = subprocess.run([sys.executable, __file__, "--child", path], check=True, capture_output=True, text=True, env=env, cwd=ROOT)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    r["process"] = time.perf_counter() - t
    r["warned"] = "warning" in out.stderr
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", default="toy,legal_ops", help="bundled worlds; empty for none")
    ap.add_argument("--sizes", default="10,100,448", help="synthetic worlds of N services (bench/synth.py); empty for none")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(measure(args.child)))
        return
    from synth import synthetic_world

    base = {k: v for k, v in os.environ.items() if k not in ("COMPOWORLD_NO_CACHE", "COMPOWORLD_CACHE")}
    print(f"{'world':<15}{'services':>9}{'tools':>7}{'cold s':>9}{'miss s':>9}{'cached s':>10}{'cpu s':>8}{'process s':>11}{'entry MB':>10}{'cold/cached':>13}")
    with tempfile.TemporaryDirectory() as scratch:
        cases = [(w, str(ROOT / "worlds" / f"{w}.world")) for w in args.worlds.split(",") if w]
        for n in (s for s in args.sizes.split(",") if s):
            path = Path(scratch) / f"synthetic-{n}.world"
            path.write_text(synthetic_world(int(n), f"synthetic_{n}"), encoding="utf-8")
            cases.append((f"synthetic-{n}", str(path)))
        for name, path in cases:
            cold = [run_child(path, {**base, "COMPOWORLD_NO_CACHE": "1"}) for _ in range(args.repeat)]
            misses = []
            for i in range(args.repeat):
                folder = Path(scratch) / f"cache-{name}-{i}"
                misses.append(run_child(path, {**base, "COMPOWORLD_CACHE": str(folder)}))
            folder = Path(scratch) / f"cache-{name}-0"
            hits = [run_child(path, {**base, "COMPOWORLD_CACHE": str(folder)}) for _ in range(args.repeat)]
            entry = sum(p.stat().st_size for p in folder.glob("*.cwc"))
            med = {k: statistics.median(r["load"] for r in rs) for k, rs in (("cold", cold), ("miss", misses), ("hit", hits))}
            cpu = statistics.median(r["cpu"] for r in hits)
            process = statistics.median(r["process"] for r in hits)
            r0 = cold[0]
            note = "  (a run warned: see stderr of the child)" if any(r["warned"] for r in cold + misses + hits) else ""
            print(
                f"{name:<15}{r0['services']:>9}{r0['tools']:>7}{med['cold']:>9.3f}{med['miss']:>9.3f}{med['hit']:>10.3f}{cpu:>8.3f}{process:>11.3f}"
                f"{entry / 1e6:>10.2f}{med['cold'] / med['hit']:>12.1f}×{note}",
                flush=True,
            )


if __name__ == "__main__":
    main()
