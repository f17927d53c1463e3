"""Benchmark: how much of each bundled world the sampled tasks use (docs/stdlib.md).

Usage: python bench/coverage.py [--worlds legal_ops,office,support,supply_chain,vet_clinic,toy]
       [--hops 5] [-n 200] [--seed 1] [--workers 1]

For each world it runs `worldc sample WORLD --hops H -n N --seed S -o TMP --format json` (the
report's `coverage`: how many emitted tasks call each tool, and how many each house rule
decides) and prints one markdown row: services, tools, tools called by at least one task (and
the share of the tools a walk can reach, `worldc lint`'s W102/W103 left out), house rules
deciding at least one task, tasks/s."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", default="legal_ops,office,support,supply_chain,vet_clinic,toy")
    ap.add_argument("--hops", type=int, default=5)
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for world in args.worlds.split(","):
            path = ROOT / "worlds" / f"{world}.world"
            out = Path(tmp) / f"{world}.jsonl"
            cmd = [sys.executable, "-m", "compoworld_dsl", "sample", str(path), "--hops", str(args.hops), "-n", str(args.n), "--seed", str(args.seed), "--workers", str(args.workers), "-o", str(out), "--format", "json"]
            t0 = time.perf_counter()
            done = subprocess.run(cmd, capture_output=True, text=True, check=False)
            wall = time.perf_counter() - t0
            report = json.loads(done.stdout)
            lint = subprocess.run([sys.executable, "-m", "compoworld_dsl", "lint", str(path), "--format", "json"], capture_output=True, text=True, check=False)
            unreachable = {d["message"].split("`")[1] for d in json.loads(lint.stdout) if d["code"] in ("W102", "W103")}
            tools, rules = report["coverage"]["tools"], report["coverage"]["rules"]
            called = sum(1 for n in tools.values() if n)
            reachable = len([t for t in tools if t not in unreachable])
            deciding = sum(1 for n in rules.values() if n)
            services = len({t.split(".")[0] for t in tools})
            rows.append(
                f"| {world} | {services} | {len(tools)} | {called} ({100 * called / max(len(tools), 1):.0f}%; {100 * called / max(reachable, 1):.0f}% of {reachable} reachable) "
                f"| {deciding} of {len(rules)} | {report['emitted']} | {report['emitted'] / wall:.1f} |"
            )
            print(rows[-1], file=sys.stderr)
    print(f"| world | services | tools | tools called by {args.n} {args.hops}-hop tasks | house rules deciding a task | tasks | tasks/s |")
    print("| --- | ---: | ---: | --- | --- | ---: | ---: |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
