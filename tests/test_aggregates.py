"""Counts and totals (issue 28, item 2): a task may end on a list read and ask how many records
it shows, or the total of a number field over them. The agent must read the whole list and count
or add up. Played through the Episode API: the oracle (which counts and adds what the call
shows) passes; an answer one off fails; `verify` rebuilds the task. WORLDC_LONG=1 samples more."""

from __future__ import annotations

import json
import os
from pathlib import Path

from compoworld_dsl.agents import call_step, final_message, run_oracle
from compoworld_dsl.gateway import Episode
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import verify_task
from test_deep_walks import _sampled  # the tasks a run of attempts gives

ROOT = Path(__file__).resolve().parents[1]
LONG = os.environ.get("WORLDC_LONG") == "1"


def _aggregate_tasks(world: str, attempts: int) -> tuple:
    sampler = load_sampler(str(ROOT / "worlds" / f"{world}.world"))
    return sampler, [t for t in _sampled(sampler, 22, 5, attempts) if any(r.get("aggregate") for r in t["reports"])]


def test_a_count_or_total_is_asked_counted_and_checked():
    sampler, tasks = _aggregate_tasks("office", 400 if LONG else 130)
    assert tasks, "no task asks for a count or a total: the test shows nothing"
    for task in tasks:
        (r,) = [r for r in task["reports"] if r.get("aggregate")]
        assert r["field"] is None and r["element"] is None
        assert r["aggregate"] == "count" or r["aggregate"].startswith("total ")
        assert ("how many " in r["label"]) == (r["aggregate"] == "count")
        assert ("how many " if r["aggregate"] == "count" else "the total ") in task["instruction"]
        assert not verify_task(sampler, task)
        # the oracle counts (or adds up) what the last call shows: it passes
        ep = Episode(sampler.world)
        ep.reset(task)
        run_oracle(ep, task)
        assert ep.score()["reward"] == 1, ep.score()
        # a total's decoys never include a value it adds up (an answer that shows its working
        # names them: "4 + 95 = 99"; found by an agent playing an imported API)
        if r["aggregate"].startswith("total "):
            ep = Episode(sampler.world)
            ep.reset(task)
            names = {q: n for n, q in ep.gateway.names.items()}
            for call in task["reference_plan"][: r["step"]]:
                data = call_step(ep.call, names[call["tool"]], call)["data"]
            field = r["aggregate"].split(" ", 1)[1]
            check = next(c for c in task["checker"]["checks"] if c["kind"] == "answer" and c.get("label") == r["label"])
            assert not set(map(str, check.get("decoys", []))) & {str(e[field]) for e in data}, (task["id"], check.get("decoys"))
        # one off fails: the agent must count every record, not guess near it
        expected = task["answer"] if len(task["reports"]) == 1 else task["answer"][r["label"]]
        assert isinstance(expected, (int, float)) and not isinstance(expected, bool)
        for wrong in (expected + 1, expected - 1):
            ep = Episode(sampler.world)
            ep.reset(task)
            names = {q: n for n, q in ep.gateway.names.items()}
            for call in task["reference_plan"]:
                call_step(ep.call, names[call["tool"]], call)
            answer = wrong if len(task["reports"]) == 1 else {**task["answer"], r["label"]: wrong}
            ep.report(final_message(answer))
            assert ep.score()["reward"] == 0, (task["id"], wrong)
