"""Benchmark: how sampled tasks from imported worlds read (issue 30, item 2).

Usage: python bench/import_speech.py SPEC... [--tasks 10] [--hops 3] [--seed 1] [--json OUT.json]
                                              [--show 3]
       python bench/import_speech.py --rows OUT.json [--show 3]

Each spec is imported (`import_openapi`), written to a temporary folder and sampled
(`--tasks` tasks at `--hops` hops, `--rule-share 0.5`, at most 200 attempts), each in its own
process. Printed per spec and in total: tasks, the share of instructions that show a raw
snake_case name (`created_at`, `on_loan`), an internal row id (`collection-3`), a field named by
its raw id ("parent folder id") or a value made of a field's name and a number ("location 3"),
the mean
words per instruction, the house rules the import proposed, and the tasks a house rule decides
(a task whose `constraints` is not empty). `--show N` prints the first N instructions of each
spec. Run it from a checkout: it imports the `compoworld_dsl` beside it. IMPORT_SPEECH_OFF=1 turns
the importer's speak pass off (labels, phrases, seeds, proposed rules), to see what it adds.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SPEC_TIMEOUT = 300
# what a person would not say: a name with an underscore, the keys the runtime gives rows
# (`collection-3`, `collectionuser-12`), a field named by its raw `..._id` in words ("parent
# folder id"), and a value made of the field's own name and a number ("location 3", the
# importer's last-resort seed); quoted values count too, since they are shown as they are
RAW_NAME = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9]\b")
INTERNAL_ID = re.compile(r"(?<![\w/.-])(?!utf-)[a-z]{3,}-\d+(?![\w-])(?!\.\w)")  # not `utf-8`, `eu-west-1`, `/acme-2025.docx`
ID_WORD = re.compile(r"\b[a-z]+ id\b")
NUMBERED = re.compile(r'"[a-z][a-z ]* \d+"')


def raw(instruction: str) -> bool:
    return any(p.search(instruction) for p in (RAW_NAME, INTERNAL_ID, ID_WORD, NUMBERED))


def one(spec: str, tasks: int, hops: int, seed: int) -> dict:
    from compoworld_dsl.importers.common import check_output, write_files
    from compoworld_dsl.importers.openapi import import_openapi
    from compoworld_dsl.sample.run import Job, run

    if os.environ.get("IMPORT_SPEECH_OFF"):  # the same tree without the speak pass, to isolate it
        import compoworld_dsl.importers.openapi as openapi

        openapi.speak = lambda *a: []
    result = import_openapi(Path(spec))
    row = {"spec": spec, "rules": len(getattr(result, "rules", []) or []), "instructions": [], "decided": 0}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "w"
        write_files(out, result.files, False)
        ok, summary, diags = check_output(out / result.world_file)
        if not ok:
            row["error"] = diags[0] if diags else summary
            return row
        job = Job(str(out / result.world_file), hops, tasks, seed, max_attempts=200, rule_share=0.5)
        run(job, Path(tmp) / "t.jsonl")
        for line in (Path(tmp) / "t.jsonl").read_text().splitlines():
            task = json.loads(line)
            row["instructions"].append(task["instruction"])
            row["decided"] += bool(task.get("constraints"))
    return row


def run_one(spec: str, a) -> dict:
    try:
        p = subprocess.run([sys.executable, __file__, "--one", spec, "--tasks", str(a.tasks), "--hops", str(a.hops), "--seed", str(a.seed)], capture_output=True, text=True, timeout=SPEC_TIMEOUT)
    except subprocess.TimeoutExpired:
        return {"spec": spec, "error": f"timeout: over {SPEC_TIMEOUT} s", "instructions": [], "decided": 0, "rules": 0}
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith('{"spec"')]
    if not lines:
        tail = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return {"spec": spec, "error": tail, "instructions": [], "decided": 0, "rules": 0}
    return json.loads(lines[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("specs", nargs="*")
    ap.add_argument("--tasks", type=int, default=10)
    ap.add_argument("--hops", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", metavar="OUT.json")
    ap.add_argument("--show", type=int, default=0)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--rows", metavar="IN.json", help="print the figures of a run saved with --json (no sampling)")
    a = ap.parse_args()
    if a.one:
        import contextlib
        import io

        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            row = one(a.one, a.tasks, a.hops, a.seed)
        print(json.dumps(row))
        return 0
    rows = json.loads(Path(a.rows).read_text()) if a.rows else [run_one(s, a) for s in a.specs]
    print(f"{'spec':48} {'tasks':>5} {'raw':>6} {'words':>6} {'rules':>5} {'decided':>7}")
    for r in rows:
        ins = r["instructions"]
        n_raw = sum(raw(i) for i in ins)
        wpi = statistics.mean(len(i.split()) for i in ins) if ins else 0
        print(f"{Path(r['spec']).name[:48]:48} {len(ins):5d} {n_raw:6d} {wpi:6.1f} {r['rules']:5d} {r['decided']:7d}" + (f"  ({r['error'][:60]})" if r.get("error") else ""))
        for i in ins[: a.show]:
            print("    " + i.replace("\n", " / "))
    every = [i for r in rows for i in r["instructions"]]
    if every:
        n_raw = sum(raw(i) for i in every)
        print(f"total: {len(every)} instructions from {sum(1 for r in rows if r['instructions'])}/{len(rows)} specs; raw name or id in {n_raw} ({100 * n_raw / len(every):.1f}%); {statistics.mean(len(i.split()) for i in every):.1f} words each; {sum(r['rules'] for r in rows)} rules proposed; {sum(r['decided'] for r in rows)} tasks decided by a rule")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
