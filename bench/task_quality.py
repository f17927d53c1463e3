"""Benchmark: what goal-level tasks are like, per world and hop count (docs/benchmarks.md).

Usage: python bench/task_quality.py [--worlds legal_ops,toy,vet_clinic] [--hops 3,5,8] [-n 60]
       [--seed 1] [--rule-share 0.5] [--weak 0.3]

For each world and hop count it samples N tasks with one process (`compoworld_dsl.sample.run.run`,
the code behind `worldc sample`), then plays them with `worldc eval --agent weak:P` (each step
skipped with probability P), and prints one markdown row:
  tasks/s        emitted tasks over the sampling job's wall time;
  tries/task     attempts per emitted task;
  services/task  mean services a task's reference plan calls;
  steps needed   share of reference steps proven necessary (proofs.steps_necessary);
  one thread     share of tasks whose steps all hang together: each linked to the others through
                 the values one step's result gives another (`bindings`), not two errands side
                 by side ("change X's title; also, what is folder Y's date?");
  rules          share of tasks with a load-bearing house rule attached;
  left           share of tasks with a value left to the house rules (a binding "house rules");
  ids            share of instructions that hold a `prefix-N` id a person would not know;
  weak           the weak agent's success rate;
  rejections     the three most common rejection reasons, with counts.
Then the capability tags per world and hops, and the attached rules by name."""

from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compoworld_dsl.sample.run import Job, run  # noqa: E402
from compoworld_dsl.sample.walk import threads  # noqa: E402

ID = re.compile(r"\b[a-z_]+-\d+\b")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", default="legal_ops,toy,vet_clinic")
    ap.add_argument("--hops", default="3,5,8")
    ap.add_argument("-n", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rule-share", type=float, default=0.5)
    ap.add_argument("--weak", type=float, default=0.3)
    args = ap.parse_args()
    rows, tags, rules = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for world in args.worlds.split(","):
            path = str(ROOT / "worlds" / f"{world}.world")
            for hops in (int(h) for h in args.hops.split(",")):
                out = Path(tmp) / f"{world}-{hops}.jsonl"
                t0 = time.perf_counter()
                report = run(Job(path, hops, args.n, args.seed, rule_share=args.rule_share), out)
                wall = time.perf_counter() - t0
                tasks = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
                n = max(len(tasks), 1)
                steps = sum(t["hops"] for t in tasks)
                needed = sum(1 for t in tasks for k in range(t["hops"]) if f"step {k + 1}" in t["proofs"].get("steps_necessary", {}))
                weak = subprocess.run(
                    [sys.executable, "-m", "compoworld_dsl", "eval", path, str(out), "--agent", f"weak:{args.weak}", "--format", "json"],
                    capture_output=True, text=True, check=False,
                )
                rate = json.loads(weak.stdout)["success_rate"] if weak.returncode in (0, 1) and weak.stdout.strip() else float("nan")
                top = ", ".join(f"{r} {c}" for r, c in report.rejected.most_common(3))
                rows.append(
                    f"| {world} | {hops} | {len(tasks) / wall:.1f} | {report.attempts / n:.1f} | {sum(len(t['services']) for t in tasks) / n:.2f} "
                    f"| {100 * needed / max(steps, 1):.0f}% | {100 * sum(1 for t in tasks if threads(t) == 1) / n:.0f}% | {100 * sum(1 for t in tasks if t['constraints']) / n:.0f}% "
                    f"| {100 * sum(1 for t in tasks if 'house rules' in json.dumps(t['bindings'])) / n:.0f}% "
                    f"| {100 * sum(1 for t in tasks if ID.search(t['instruction'])) / n:.0f}% | {100 * rate:.0f}% | {top} |"
                )
                caps = collections.Counter(c for t in tasks for c in t["capabilities"])
                tags.append(f"| {world} | {hops} | {', '.join(f'{c} {k}' for c, k in sorted(caps.items()))} |")
                named = collections.Counter(c["name"] for t in tasks for c in t["constraints"])
                rules.append(f"| {world} | {hops} | {', '.join(f'{c} {k}' for c, k in named.most_common()) or '—'} |")
                print(rows[-1], file=sys.stderr)
    print("| world | hops | tasks/s | tries/task | services/task | steps needed | one thread | rules | left | ids | weak | most common rejections |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    print("\n".join(rows))
    print("\n| world | hops | capability tags |\n| --- | ---: | --- |")
    print("\n".join(tags))
    print("\n| world | hops | load-bearing rules |\n| --- | ---: | --- |")
    print("\n".join(rules))


if __name__ == "__main__":
    main()
