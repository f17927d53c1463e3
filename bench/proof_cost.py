"""Benchmark: CPU per emitted task and the verdicts of the same attempts, before and after a change.

Usage: python bench/proof_cost.py --before REV [--worlds toy:3,legal_ops:5,office:5] [-n 300]
                                  [--rounds 3] [--seed 0] [--keep DIR]

Checks out REV (a commit, tag or branch) into a temporary git worktree and runs the same `-n`
attempts of each world (`world:hops`) with the code of REV ("before") and with this checkout's
code ("after"), each in its own process, alternating, `--rounds` times. Each run records every
attempt's verdict: the task it emitted (the whole task, proofs included) or its rejection reason
and detail. Printed per world: tasks emitted, the median and the lowest CPU milliseconds per
emitted task of each side over the rounds, the ratio of the medians, how many tasks had values
bound by Z3 (`proofs.walk_satisfiable.z3_bindings` > 0, where a Z3 model becomes part of the task),
and whether every verdict of the two sides is byte for byte the same.

CPU is the process's own CPU time around the attempts (loading the world is not counted), so
other work on the machine moves it less than wall time, but still moves it: on a shared machine
compare the medians of several rounds, and the lowest. The verdict comparison does not depend on
load. `--keep DIR` leaves each run's verdict file (JSON lines) there.

This is how decision D39 (ground proof terms folded in Python) was measured: see
docs/benchmarks.md, "Proof cost"."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUNNER = r"""
import json, sys, time
from compoworld_dsl.sample.run import Job
from compoworld_dsl.sample.worker import attempt, keep_freed_memory, load_sampler
path, hops, n, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
keep_freed_memory()
sampler = load_sampler(path)
job = Job(path, hops, n, seed)
cpu, tasks, bound = 0.0, 0, 0
with open(out, "w") as f:
    for i in range(n):
        c = time.process_time()
        _, task, reason, detail, *_ = attempt(sampler, job, i)
        cpu += time.process_time() - c
        if task is None:
            f.write(json.dumps({"i": i, "reason": reason, "detail": detail}) + "\n")
            continue
        tasks += 1
        bound += bool(task.get("proofs", {}).get("walk_satisfiable", {}).get("z3_bindings"))
        f.write(json.dumps({"i": i, "task": task}, sort_keys=True, default=str) + "\n")
print(json.dumps({"cpu": cpu, "tasks": tasks, "bound": bound}))
"""


def run(tree: Path, world: str, hops: int, n: int, seed: int, out: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    path = str(ROOT / "worlds" / f"{world}.world")
    done = subprocess.run([sys.executable, "-c", RUNNER, path, str(hops), str(n), str(seed), str(out)], cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"proof_cost: the run in {tree} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="the commit to compare with (a git revision)")
    ap.add_argument("--worlds", default="toy:3,legal_ops:5,office:5", help="world:hops, comma-separated")
    ap.add_argument("-n", type=int, default=300, help="attempts per run")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep", help="a folder to leave each run's verdicts in")
    args = ap.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="proof_cost-"))
    before = scratch / "before"
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(before), args.before], cwd=ROOT, check=True)
    try:
        print(f"before: {args.before}; after: this checkout; {args.n} attempts, seed {args.seed}, {args.rounds} rounds, CPU ms per emitted task")
        print(f"{'world':<16}{'tasks':>7}{'before med':>12}{'(min)':>8}{'after med':>11}{'(min)':>8}{'ratio':>7}{'Z3-bound':>10}  verdicts")
        for spec in args.worlds.split(","):
            world, hops = spec.split(":")
            cpu = {"before": [], "after": []}
            files = {}
            for r in range(args.rounds):
                for side, tree in (("before", before), ("after", ROOT)):
                    out = scratch / f"{world}{hops}-{side}-{r}.jsonl"
                    got = run(tree, world, int(hops), args.n, args.seed, out)
                    cpu[side].append(1000 * got["cpu"] / max(got["tasks"], 1))
                    files[side] = (out, got)
            same = files["before"][0].read_bytes() == files["after"][0].read_bytes()
            tasks, bound = files["after"][1]["tasks"], files["after"][1]["bound"]
            mb, ma = statistics.median(cpu["before"]), statistics.median(cpu["after"])
            verdict = "identical" if same else "DIFFER"
            print(f"{world + ':' + hops:<16}{tasks:>7}{mb:>12.1f}{min(cpu['before']):>8.1f}{ma:>11.1f}{min(cpu['after']):>8.1f}{ma / mb:>7.2f}{bound:>10}  {verdict} ({args.n} attempts)")
            print(f"{'':<16}rounds, before: {', '.join(f'{x:.1f}' for x in cpu['before'])}; after: {', '.join(f'{x:.1f}' for x in cpu['after'])}")
            if args.keep:
                Path(args.keep).mkdir(parents=True, exist_ok=True)
                for side, (out, _) in files.items():
                    shutil.copy(out, Path(args.keep) / out.name)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, check=False)
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
