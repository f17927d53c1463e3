"""Benchmark: does where a planted look-alike sits tell the target apart without the house rule?

Usage: python bench/lookalike_ranks.py [--worlds legal_ops,office,support,supply_chain] [--hops 5]
       [-n 100] [--seed 1] [--rule-share 1.0] [--workers 1]

For each world it samples N tasks (`compoworld_dsl.sample.run.run`, the code behind `worldc
sample`) and, for every rule-deciding step (a described record with look-alikes under a
load-bearing rule, `proofs.constraints.*.load_bearing.look_alikes`), plays three shortcuts on
the rows that fit the description (the candidates) in the task's initial state:
  lowest key     leave the highest key alone: take the candidate whose key sorts first by its
                 number (`matter-3` before `matter-12`);
  first listed   take the candidate the step's own list call shows first (the order a list tool
                 returns rows), or the first by key when the call returns no list;
  newest         take the candidate with the latest value of a date or datetime field of the
                 record (each such field not in the description, averaged; ties split evenly).
It prints each shortcut's hit rate against chance (the mean of 1/candidates) with a binomial
95% interval (normal approximation over trials of unequal chance): a shortcut inside the
interval picks the target no better (and no worse) than guessing. `shortcut_rates(tasks,
world)` gives the same numbers for task records already in hand."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compoworld_dsl.sample.run import Job, load_sampler, run  # noqa: E402

STRATEGIES = ("lowest key", "first listed", "newest")
_NUMBER = re.compile(r"(\d+)$")


def _key_order(key: Any) -> tuple:
    """A key as a person ranks it: by its trailing number (`matter-12` after `matter-3`)."""
    m = _NUMBER.search(str(key))
    return (str(key)[: m.start()], int(m.group(1))) if m else (str(key), -1)


def _dated(world, table: str, skip: set[str]) -> list[str]:
    """The record's date and datetime fields, but those a description or a clock fills."""
    fields = world.types.records[world.state_decl[table]["record"]]
    volatile = set(world.volatile_fields.get(table, ()))
    return [f for f, t in fields.items() if world.types.base(t) in ("date", "datetime") and f not in skip | volatile]


def _listed(world, task: dict, step: int, state, key_field: str) -> list:
    """The keys step `step` (from 1) returns, in its order: the reference plan's calls before it
    run on a copy of the initial state, then its own. [] when it returns no list of records."""
    st = state.snapshot()
    for call in task["reference_plan"][: step - 1]:
        world.call(st, call["tool"], call["arguments"])
    call = task["reference_plan"][step - 1]
    got = world.call(st, call["tool"], call["arguments"])
    data = got.get("data") if got.get("success") else None
    if not isinstance(data, list):
        return []
    return [e.get(key_field) for e in data if isinstance(e, dict)]


def trials(tasks: list[dict], sampler) -> list[dict]:
    """One trial per rule-deciding step of each task: its candidates, target and each
    shortcut's chance of taking the target (1, 0, or a share of a tie). Steps whose target
    cannot be told from the record alone (several candidates neither a look-alike nor in the
    plan) are left out."""
    people, world = sampler.facts.people, sampler.world
    out = []
    for task in tasks:
        by_step: dict[int, set] = {}
        for proof in task["proofs"].get("constraints", {}).values():
            for ev in proof.get("load_bearing", {}).get("look_alikes", ()):
                by_step.setdefault(ev["step"], set()).add(ev["look_alike"])
        if not by_step or not task["constraints"]:
            continue
        state = world.task_state(task["initial_state"])
        plan = json.dumps([task["reference_plan"], task["checker"]])
        for entry in task["proofs"]["descriptions_unique"]:
            alikes = by_step.get(entry["step"])
            if not alikes:
                continue
            table, fields = entry["table"], tuple(entry["fields"])
            desc = people.description(state, table, next(iter(alikes)), fields)
            fits = people.matches(state, table, desc) if desc is not None else []
            rest = [k for k in fits if k not in alikes]
            if len(rest) > 1:
                rest = [k for k in rest if json.dumps(k) in plan]
            if len(rest) != 1 or len(fits) < 2:
                continue
            target, n = rest[0], len(fits)
            hits = {"lowest key": float(min(fits, key=_key_order) == target)}
            listed = [k for k in _listed(world, task, entry["step"], state, people.key[table]) if k in fits]
            first = listed[0] if listed else min(fits, key=str)  # a filter's order: by key
            hits["first listed"] = float(first == target)
            rows = state.tables[table]
            dated = _dated(world, table, set(fields))
            if dated:
                share = 0.0
                for f in dated:
                    top = max(rows[k][f] for k in fits)
                    tied = [k for k in fits if rows[k][f] == top]
                    share += (1 / len(tied)) if target in tied else 0.0
                hits["newest"] = share / len(dated)
            out.append({"task": task["id"], "step": entry["step"], "table": table, "candidates": n, "target": target, "look_alikes": sorted(alikes), "hits": hits})
    return out


def shortcut_rates(tasks: list[dict], world) -> dict[str, dict]:
    """Per shortcut: trials, hits (ties count their share), the hit rate, chance (mean of
    1/candidates), the binomial 95% interval around chance, and whether the hits lie in it.
    `world`: a `Sampler` (`compoworld_dsl.sample.run.load_sampler`) or the path of a world."""
    sampler = load_sampler(str(world)) if isinstance(world, (str, Path)) else world
    return rates(trials(tasks, sampler))


def rates(got: list[dict]) -> dict[str, dict]:
    """`shortcut_rates` of trials already found (several worlds' pooled)."""
    out = {}
    for s in STRATEGIES:
        rows = [t for t in got if s in t["hits"]]
        n = len(rows)
        hits = sum(t["hits"][s] for t in rows)
        expected = sum(1 / t["candidates"] for t in rows)
        sd = math.sqrt(sum((1 / t["candidates"]) * (1 - 1 / t["candidates"]) for t in rows))
        lo, hi = expected - 1.96 * sd, expected + 1.96 * sd
        out[s] = {"trials": n, "hits": hits, "rate": hits / n if n else float("nan"), "chance": expected / n if n else float("nan"), "interval": (lo / n, hi / n) if n else (float("nan"), float("nan")), "at_chance": n > 0 and lo <= hits <= hi}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", default="legal_ops,office,support,supply_chain")
    ap.add_argument("--hops", type=int, default=5)
    ap.add_argument("-n", type=int, default=100, help="tasks sampled per world")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rule-share", type=float, default=1.0)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    every: list[dict] = []
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.worlds.split(","):
            path = ROOT / "worlds" / f"{name}.world"
            out = Path(tmp) / f"{name}.jsonl"
            run(Job(str(path), args.hops, args.n, args.seed, rule_share=args.rule_share, workers=args.workers), out)
            tasks = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
            sampler = load_sampler(str(path))
            got = trials(tasks, sampler)
            every += got
            got_rates = rates(got)
            cands = sum(t["candidates"] for t in got) / max(len(got), 1)
            lines.append(f"| {name} | {len(tasks)} | {len(got)} | {cands:.2f} | " + " | ".join(_cell(got_rates[s]) for s in STRATEGIES) + " |")
            print(lines[-1], file=sys.stderr)
    print(f"hops {args.hops}, seed {args.seed}, {args.n} tasks per world, rule share {args.rule_share:g}")
    print("| world | tasks | rule-deciding steps | candidates | " + " | ".join(STRATEGIES) + " |")
    print("| --- | ---: | ---: | ---: | " + " | ".join("---" for _ in STRATEGIES) + " |")
    print("\n".join(lines))
    total = rates(every)
    print(f"| all | | {len(every)} | {sum(t['candidates'] for t in every) / max(len(every), 1):.2f} | " + " | ".join(_cell(total[s]) for s in STRATEGIES) + " |")
    print("cell: hit rate (chance, 95% interval around chance); ! marks a rate outside it")


def _cell(r: dict) -> str:
    if not r["trials"]:
        return "—"
    lo, hi = r["interval"]
    return f"{100 * r['rate']:.0f}% ({100 * r['chance']:.0f}%, {100 * lo:.0f}–{100 * hi:.0f}%){'' if r['at_chance'] else ' !'} n={r['trials']}"


if __name__ == "__main__":
    main()
