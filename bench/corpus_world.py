"""Benchmark: one world imported from many corpus specs (issue 30, item 5), at CompoWorld's scale.

Usage: python bench/corpus_world.py [--specs 400] [--seed 2] [--out DIR] [--tasks 5] [--hops 5]

Draws `--specs` specs at random from the whole APIs.guru corpus (`bench/import_corpus.py` fetches
and caches it), imports them as one library (`worldc import openapi FOLDER`, in process: the
library's import, without its probe), then measures, each in a fresh process where it is what a
worker pays:
  check    `worldc check` of the world (parse, resolve, type-check every module);
  cold     `load_sampler` with no cache: check, generate and compile the Python, build the sampler;
  cached   `load_sampler` from the world cache the cold run... filled (a miss first, then hits);
  sample   `worldc sample --hops H -n T --seed 1` (one worker) and what the tasks mount: services a
           task needs plus distractors, at most 15 (`sample/sampler.py` MAX_SERVICES).
Printed: the world's size (services, tables, tools, operations by kind), each time (median of
--repeat where repeated) and the tasks' mounted services. The world is left in --out.
"""

from __future__ import annotations

import argparse
import collections
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


def child(cmd: list[str], env: dict | None = None) -> tuple[float, subprocess.CompletedProcess]:
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    return time.perf_counter() - t, p


def main() -> int:
    from import_corpus import corpus_dir, draw

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--specs", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--corpus")
    ap.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "corpus-world"))
    ap.add_argument("--tasks", type=int, default=5)
    ap.add_argument("--hops", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    from compoworld_dsl.importers.common import write_files
    from compoworld_dsl.importers.library import import_library, prune

    corpus = corpus_dir(a.corpus)
    out = Path(a.out)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "corpus"
        folder.mkdir()
        for i, spec in enumerate(draw(corpus, a.specs, a.seed)):
            os.symlink(spec, folder / f"{i:04d}_{spec.name}")
        t = time.perf_counter()
        lib = import_library(folder, "corpus")
        import_s = time.perf_counter() - t
    write_files(out, lib.files, True)
    lib, _ = prune(out, folder, lib)  # a spec whose module does not check is left out (a bug, reported)
    for o in lib.failed:
        if "does not check" in o.error:
            print(f"left out: {o.spec}: {o.error[:200]}")
    world = out / lib.world_file
    kinds = lib.kinds()
    print(f"specs: {len(lib.imported)} of {len(lib.outcomes)} imported (seed {a.seed}); {lib.total('services')} services, {lib.total('tables')} tables, {lib.total('tools')} tools")
    print("operations: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda x: -x[1])))
    print(f"import (in process): {import_s:.1f} s")
    worldc = [sys.executable, "-m", "compoworld_dsl"]
    s, p = child(worldc + ["check", str(world)])
    print(f"check: {s:.1f} s (exit {p.returncode}{': ' + p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ''})")
    if p.returncode != 0:
        print((p.stdout + p.stderr)[-2000:])
        return 1
    base = {k: v for k, v in os.environ.items() if k not in ("COMPOWORLD_NO_CACHE", "COMPOWORLD_CACHE")}
    load = [sys.executable, str(ROOT / "bench" / "load.py"), "--child", str(world)]
    cold = [child(load, {**base, "COMPOWORLD_NO_CACHE": "1"})[0] for _ in range(1)]
    with tempfile.TemporaryDirectory() as cache:
        env = {**base, "COMPOWORLD_CACHE": cache}
        miss, pm = child(load, env)
        hits = [child(load, env) for _ in range(a.repeat)]
        loads = [json.loads(h[1].stdout.strip().splitlines()[-1])["load"] for h in hits]
        entry = sum(f.stat().st_size for f in Path(cache).glob("*.cwc"))
        print(f"load_sampler: cold {cold[0]:.1f} s, first (fills the cache) {miss:.1f} s, cached median {statistics.median(h[0] for h in hits):.1f} s per process ({statistics.median(loads):.2f} s in load_sampler); entry {entry / 1e6:.1f} MB")
        tasks = Path(cache) / "tasks.jsonl"
        s, p = child(worldc + ["sample", str(world), "--hops", str(a.hops), "-n", str(a.tasks), "--seed", "1", "-o", str(tasks)], env)
        rows = [json.loads(line) for line in tasks.read_text().splitlines()] if tasks.exists() else []
        print(f"sample --hops {a.hops} -n {a.tasks}: {len(rows)} tasks in {s:.1f} s (exit {p.returncode})")
        if p.returncode != 0 and not rows:
            print((p.stdout + p.stderr)[-1500:])
        for r in rows:
            needed = r.get("services") or []
            mounted = len(needed) + len(r.get("distractors") or [])
            print(f"  {r['id']}: {len(r.get('plan') or r.get('reference_plan') or [])} steps; needs {len(needed)} service(s), mounts {mounted}: {r.get('instruction', '')[:160]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
