"""Benchmark: compile time and peak memory for the bundled worlds and synthetic worlds.

Usage: python bench/compile.py [--sizes 10,100,448] [--repeat 3]
Each measurement runs in a fresh subprocess (so peak RSS is that world's alone). Prints the
median time of each phase — check (parse + names + types), python (generate + byte-compile),
graph, z3 (encode every tool on a seeded state) — peak RSS, and the growth ratio of total time
per doubling of tools between consecutive synthetic sizes (2.0 = linear, 4.0 = quadratic)."""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def measure(kind: str, arg: str) -> dict:
    """Run in a child process: compile one world and report phase times and peak RSS."""
    import resource

    from compoworld_dsl.check import check_paths, check_source
    from compoworld_dsl.codegen.python import generate_python
    from compoworld_dsl.graph import build_graph
    from compoworld_dsl.smt.encode import WorldEncoding

    t0 = time.perf_counter()
    if kind == "synthetic":
        from synth import synthetic_world

        text = synthetic_world(int(arg))
        t0 = time.perf_counter()
        program = check_source(text, f"synth{arg}.world")
    else:
        program = check_paths([arg])
    assert program.ok, [d.message for d in program.errors[:3]]
    t1 = time.perf_counter()
    code = generate_python(program.model, arg)
    namespace: dict = {}
    exec(compile(code, f"<bench {arg}>", "exec"), namespace)
    t2 = time.perf_counter()
    graph = build_graph(program.model)
    t3 = time.perf_counter()
    world = namespace["WORLD"]
    enc = WorldEncoding(program.model)
    sym = enc.state_from(world.initial_state(0))
    t_z3 = time.perf_counter()
    n_encoded = 0
    for tool in program.model.tools():
        params = {n: enc.var(t, f"{tool.qualified}.{n}") for n, t in tool.params}
        enc.encode(tool, sym, params)
        n_encoded += 1
    t4 = time.perf_counter()
    tools = sum(len(s.tools) for s in program.model.services.values())
    return {
        "services": len(program.model.services),
        "tools": tools,
        "edges": len(graph.edges),
        "check": t1 - t0,
        "python": t2 - t1,
        "graph": t3 - t2,
        "z3": t4 - t_z3,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def run_child(kind: str, arg: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, arg],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10,100,448")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(measure(*args.child)))
        return
    cases = [("world", str(ROOT / "worlds" / "toy.world")), ("world", str(ROOT / "worlds" / "legal_ops.world"))]
    cases += [("synthetic", s) for s in args.sizes.split(",")]
    phases = ("check", "python", "graph", "z3")
    rows = []
    print(f"{'world':<18}{'services':>9}{'tools':>7}{'edges':>8}" + "".join(f"{p + ' s':>10}" for p in phases) + f"{'total s':>10}{'peak MB':>9}")
    for kind, arg in cases:
        runs = [run_child(kind, arg) for _ in range(args.repeat)]
        med = {p: statistics.median(r[p] for r in runs) for p in phases}
        total = statistics.median(sum(r[p] for p in phases) for r in runs)
        peak = statistics.median(r["peak_rss_mb"] for r in runs)
        name = Path(arg).stem if kind == "world" else f"synthetic-{arg}"
        r0 = runs[0]
        rows.append((name, r0["tools"], total))
        print(f"{name:<18}{r0['services']:>9}{r0['tools']:>7}{r0['edges']:>8}" + "".join(f"{med[p]:>10.3f}" for p in phases) + f"{total:>10.3f}{peak:>9.0f}")
    synth = [r for r in rows if r[0].startswith("synthetic")]
    print()
    print("growth of total time per doubling of tools (×2.0 = linear, ×4.0 = quadratic):")
    for (n1, t1, s1), (n2, t2, s2) in zip(synth, synth[1:]):
        doublings = math.log2(t2 / t1)
        ratio = (s2 / s1) ** (1 / doublings) if doublings > 0 else float("nan")
        exponent = math.log(s2 / s1) / math.log(t2 / t1)
        print(f"  {n1} → {n2}: tools ×{t2 / t1:.1f}, time ×{s2 / s1:.1f}, per doubling ×{ratio:.2f}, exponent {exponent:.2f} (ms per tool {1000 * s1 / t1:.2f} → {1000 * s2 / t2:.2f})")


if __name__ == "__main__":
    main()
