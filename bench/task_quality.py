"""Benchmark: what goal-level tasks are like, per world and hop count (docs/benchmarks.md).

Usage: python bench/task_quality.py [--worlds legal_ops,toy,vet_clinic] [--hops 3,5,8,12,16] [-n 60]
       [--seed 1] [--rule-share 0.5] [--weak 0.3] [--max-attempts N]

For each world and hop count it samples N tasks with one process (`compoworld_dsl.sample.run.run`,
the code behind `worldc sample`), then plays them with `worldc eval --agent weak:P` (each step
skipped with probability P), and prints one markdown row:
  tasks/s        emitted tasks over the sampling job's wall time;
  tries/task     attempts per emitted task (acceptance is its inverse; `— (N tried)` when none
                 was emitted, as long walks may: `--max-attempts` bounds a row's work, default
                 50 per task);
  calls/task     median real tool calls of a task's reference plan (`difficulty.real_calls`);
  services/task  mean services a task's reference plan calls;
  steps needed   share of reference steps proven necessary (proofs.steps_necessary);
  one thread     share of tasks whose steps all hang together: each linked to the others through
                 the values one step's result gives another (`bindings`), not two errands side
                 by side ("change X's title; also, what is folder Y's date?");
  difficulty     median `difficulty.score` (docs/task-format.md#difficulty), with p10–p90;
  rules          share of tasks with a load-bearing house rule attached;
  left           share of tasks with a value left to the house rules (a binding "house rules");
  ids            share of instructions that hold a `prefix-N` id a person would not know;
  words          mean words per instruction, house rules aside (`wording.prose_of`);
  repeated       full descriptions repeated: places where a description of six words or more
                 ('the matter "Lease dispute" with client ...') is said again
                 (`wording.repeated_descriptions`), over all the row's tasks (issue 29);
  weak           the weak agent's success rate;
  rejections     the three most common rejection reasons, with counts.
Then where the look-alikes sit, per world and hops: over the steps a load-bearing rule decides,
how often "leave the highest key alone", "take the first listed" and "take the newest" pick the
target, against chance (`bench/lookalike_ranks.py`; D34). Acceptance at 12 and 16 hops, with
`--hops 12,16`, is the tries/task column; `bench/deep_walks.py` measures it attempt by attempt.
Then the capability tags per world and hops, the attached rules by name, and per world the share
of seeded people whose email fits their name, over the initial states of `--email-seeds` seeds:
a person is a row of a record with an `email` field and a person's name (`full_name`,
`contact_name`, or `name` in a record that is not an organisation's: no company, supplier,
account, organisation, team or department in the record's or the name type's name); the email
fits when a part of its local part, split on `.`, `_`, `-` and digits, holds a word of the name
(case and accents folded). `--emails-only` prints just that table, without sampling."""

from __future__ import annotations

import argparse
import collections
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compoworld_dsl.check import check_paths  # noqa: E402
from compoworld_dsl.codegen.python import load_world  # noqa: E402
from compoworld_dsl.sample.run import Job, run  # noqa: E402
from compoworld_dsl.sample.run import load_sampler  # noqa: E402
from compoworld_dsl.sample.wording import prose_of, repeated_descriptions  # noqa: E402
from compoworld_dsl.sample.walk import threads  # noqa: E402
from lookalike_ranks import STRATEGIES, _cell, rates, trials  # noqa: E402  (bench/, the script's folder)

ID = re.compile(r"\b[a-z_]+-\d+\b")
ORGANISATION = re.compile(r"company|supplier|account|org|team|department", re.I)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()


def _person_field(record) -> str | None:
    """The field holding a person's name in a record that also has an email, or None."""
    fields = record.fields
    if not any(getattr(t, "name", None) == "email" for t in fields.values()):
        return None
    for name in ("full_name", "contact_name"):
        if name in fields:
            return name
    if "name" in fields and not ORGANISATION.search(record.name) and not ORGANISATION.search(getattr(fields["name"], "name", "")):
        return "name"
    return None


def email_fits_name(email: str, name: str) -> bool:
    """Whether a part of the address's local part holds a word of the name (two letters or more)."""
    parts = [p for p in re.split(r"[._\-0-9]+", _fold(email.split("@", 1)[0])) if p]
    return any(w in p for w in re.findall(r"[a-z]+", _fold(name)) if len(w) >= 2 for p in parts)


def email_fit(path: str, seeds: int) -> tuple[int, int]:
    """(people, people whose email fits their name) over the initial states of seeds 0..seeds-1."""
    program = check_paths([path])
    world = load_world(program.model)
    tables = {}
    for service in program.model.services.values():
        for var in service.state.values():
            record = getattr(var.type, "record", None)
            field = _person_field(record) if record is not None else None
            if field:
                tables[f"{service.name}.{var.name}"] = field
    people = fits = 0
    for seed in range(seeds):
        state = world.initial_state(seed)
        for table, field in tables.items():
            for row in state.tables.get(table, {}).values():
                if row.get(field) and row.get("email"):
                    people += 1
                    fits += email_fits_name(row["email"], row[field])
    return people, fits


def _median(xs: list, spread: bool = False) -> str:
    """The median of `xs` (with `spread`: and its p10–p90), or — when there is none."""
    if not xs:
        return "—"
    xs = sorted(xs)
    text = f"{statistics.median(xs):g}"
    if spread and len(xs) > 1:
        p = statistics.quantiles(xs, n=10, method="inclusive")
        text += f" ({p[0]:g}–{p[-1]:g})"
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", default="legal_ops,toy,vet_clinic")
    ap.add_argument("--hops", default="3,5,8")
    ap.add_argument("-n", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rule-share", type=float, default=0.5)
    ap.add_argument("--weak", type=float, default=0.3)
    ap.add_argument("--email-seeds", type=int, default=20)
    ap.add_argument("--emails-only", action="store_true")
    ap.add_argument("--max-attempts", type=int, default=None, help="attempts per row at most (default 50 per task)")
    args = ap.parse_args()
    emails = []
    for world in args.worlds.split(","):
        people, fits = email_fit(str(ROOT / "worlds" / f"{world}.world"), args.email_seeds)
        emails.append(f"| {world} | {people} | {fits} ({100 * fits / people:.0f}%) |" if people else f"| {world} | 0 | — |")
    email_table = "| world | seeded people with an email | email fits the name |\n| --- | ---: | ---: |\n" + "\n".join(emails)
    if args.emails_only:
        print(email_table)
        return
    rows, tags, rules, shortcuts = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for world in args.worlds.split(","):
            path = str(ROOT / "worlds" / f"{world}.world")
            for hops in (int(h) for h in args.hops.split(",")):
                out = Path(tmp) / f"{world}-{hops}.jsonl"
                t0 = time.perf_counter()
                report = run(Job(path, hops, args.n, args.seed, rule_share=args.rule_share, max_attempts=args.max_attempts), out)
                wall = time.perf_counter() - t0
                tasks = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
                n = max(len(tasks), 1)
                steps = sum(t["hops"] for t in tasks)
                needed = sum(1 for t in tasks for k in range(t["hops"]) if f"step {k + 1}" in t["proofs"].get("steps_necessary", {}))
                rate = float("nan")
                if tasks:  # eval refuses a file with no task
                    weak = subprocess.run(
                        [sys.executable, "-m", "compoworld_dsl", "eval", path, str(out), "--agent", f"weak:{args.weak}", "--format", "json"],
                        capture_output=True, text=True, check=False,
                    )
                    rate = json.loads(weak.stdout)["success_rate"] if weak.returncode in (0, 1) and weak.stdout.strip() else rate
                top = ", ".join(f"{r} {c}" for r, c in report.rejected.most_common(3))
                rows.append(
                    f"| {world} | {hops} | {len(tasks) / wall:.1f} | {f'{report.attempts / n:.1f}' if tasks else f'— ({report.attempts} tried)'} "
                    f"| {_median([t['difficulty']['real_calls'] for t in tasks])} | {sum(len(t['services']) for t in tasks) / n:.2f} "
                    f"| {100 * needed / max(steps, 1):.0f}% | {100 * sum(1 for t in tasks if threads(t) == 1) / n:.0f}% "
                    f"| {_median([t['difficulty']['score'] for t in tasks], spread=True)} | {100 * sum(1 for t in tasks if t['constraints']) / n:.0f}% "
                    f"| {100 * sum(1 for t in tasks if 'house rules' in json.dumps(t['bindings'])) / n:.0f}% "
                    f"| {100 * sum(1 for t in tasks if ID.search(t['instruction'])) / n:.0f}% "
                    f"| {sum(len(prose_of(t['instruction']).split()) for t in tasks) / n:.1f} | {sum(len(repeated_descriptions(t['instruction'])) for t in tasks)} "
                    f"| {f'{100 * rate:.0f}%' if rate == rate else '—'} | {top} |"
                )
                # where a look-alike sits: each shortcut's hit rate against chance (bench/lookalike_ranks.py)
                got = rates(trials(tasks, load_sampler(path)))
                shortcuts.append(f"| {world} | {hops} | {got[STRATEGIES[0]]['trials']} | " + " | ".join(_cell(got[s]) for s in STRATEGIES) + " |")
                caps = collections.Counter(c for t in tasks for c in t["capabilities"])
                tags.append(f"| {world} | {hops} | {', '.join(f'{c} {k}' for c, k in sorted(caps.items()))} |")
                named = collections.Counter(c["name"] for t in tasks for c in t["constraints"])
                rules.append(f"| {world} | {hops} | {', '.join(f'{c} {k}' for c, k in named.most_common()) or '—'} |")
                print(rows[-1], file=sys.stderr)
    print("| world | hops | tasks/s | tries/task | calls/task | services/task | steps needed | one thread | difficulty | rules | left | ids | words | repeated | weak | most common rejections |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    print("\n".join(rows))
    print("\n| world | hops | capability tags |\n| --- | ---: | --- |")
    print("\n".join(tags))
    print("\n| world | hops | load-bearing rules |\n| --- | ---: | --- |")
    print("\n".join(rules))
    print("\n| world | hops | rule-deciding steps | " + " | ".join(STRATEGIES) + " |\n| --- | ---: | ---: | " + " | ".join("---" for _ in STRATEGIES) + " |")
    print("\n".join(shortcuts))
    print("cell: the shortcut's hit rate on the look-alikes' targets (chance, 95% interval around chance); ! marks a rate outside it")
    print()
    print(email_table)


if __name__ == "__main__":
    main()
