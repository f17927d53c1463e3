"""Look-alikes planted on purpose (sample/lookalikes.py): a closed matter with the same title and
client as the one the task is about, its rows copied, so that the house rule about closed
matters is what tells the agent which matter is meant. The planted rows travel in the task
record and every reader of the task plants them the same way."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from compoworld_dsl.agents import call_step
from compoworld_dsl.gateway import Episode
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import Rejected, verify_task
from compoworld_dsl.taskfile import task_problems

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def legal():
    return load_sampler(str(ROOT / "worlds" / "legal_ops.world"))


@pytest.fixture(scope="module")
def planted(legal):
    # the first 5-hop task of seed 1 that plants a closed twin of the matter its first step
    # describes, told apart only by the house rule (attempt 2 when written; searched, so that a
    # change to the sampler's draws moves the attempt, not the test)
    for index in range(200):
        try:
            task = legal.task(1, index, 5)
        except Rejected:
            continue
        rows, unique = task["initial_state"].get("rows"), task["proofs"]["descriptions_unique"]
        # (and whose later steps take keys only from records, not from lists an agent that
        # works on the twin would have to pick from: `test_working_on_the_look_alike_...`)
        picks_later = any(src.startswith(f"step {j}") for b in task["bindings"] for src in b.values() for j, by in enumerate(task["found_by"][1:], 2) if by)
        if rows and rows[0]["table"] == "matters.matters" and unique and unique[0]["step"] == 1 and unique[0]["table"] == "matters.matters" and unique[0]["fits"] >= 2 and unique[0]["ruled_out_by"] == ["hands_off_closed"] and not picks_later:
            return json.loads(json.dumps(task))
    pytest.fail("no task in 200 attempts plants a closed twin")


def _play(world, task, calls, answer=None):
    ep = Episode(world)
    ep.reset(task)
    names = {q: n for n, q in ep.gateway.names.items()}
    results = [ep.call("call_tool", {"tool_name": names[t], "arguments": a}) for t, a in calls]
    if answer is not None:
        ep.report(answer)
    return ep.score(), results


def test_the_planted_look_alike_makes_the_rule_load_bearing(legal, planted):
    rows = planted["initial_state"]["rows"]
    twin = rows[0]
    assert twin["table"] == "matters.matters" and twin["row"]["status"] == "closed"
    unique = planted["proofs"]["descriptions_unique"][0]
    looks = planted["proofs"]["constraints"]["hands_off_closed"]["load_bearing"]["look_alikes"]
    assert unique["fits"] == unique["z3_fits"] == 1 + len(looks) and unique["ruled_out_by"] == ["hands_off_closed"]
    assert {e["step"] for e in looks} == {unique["step"]}
    assert "Do not touch anything that belongs to a closed matter" in planted["instruction"]
    # each twin (under its key after any swap) fits the description the instruction gives:
    # same title, same client, closed; the one left is the target, open
    state = legal.world.task_state(planted["initial_state"])
    matters = state.tables["matters.matters"]
    alike = {e["look_alike"] for e in looks}
    fits = [k for k, r in matters.items() if r["title"] == twin["row"]["title"] and r["client"] == twin["row"]["client"]]
    assert alike < set(fits) and len(fits) == unique["fits"]
    assert all(matters[k]["status"] == "closed" for k in alike)
    assert [matters[k]["status"] for k in fits if k not in alike] == ["open"]


def test_every_reader_plants_the_same_rows(legal, planted):
    assert task_problems(planted, legal.world) == []
    assert verify_task(legal, planted) == []
    ref, _ = _play(legal.world, planted, [(c["tool"], c["arguments"]) for c in planted["reference_plan"]], planted["answer"])
    assert ref["reward"] == 1
    # without the planted rows the task is another task: verify says so
    bare = copy.deepcopy(planted)
    del bare["initial_state"]["rows"]
    assert verify_task(legal, bare) != []


def test_working_on_the_look_alike_breaks_the_rule(legal, planted):
    """An agent that takes the twin from the lookup and follows the task's chain from there —
    every later key read from its own results — runs every call and fails on the house rule."""
    twin = planted["proofs"]["constraints"]["hands_off_closed"]["load_bearing"]["look_alikes"][0]["look_alike"]
    ep = Episode(legal.world)
    ep.reset(planted)
    names = {q: n for n, q in ep.gateway.names.items()}
    outputs = {}
    for k, (call, binding) in enumerate(zip(planted["reference_plan"], planted["bindings"])):
        args = dict(call["arguments"])
        for name, source in binding.items():
            if source.startswith("step "):
                j, _, field = source[5:].partition(".")
                out = outputs[int(j)]
                args[name] = out[field] if field else out
        res = call_step(ep.call, names[call["tool"]], {**call, "arguments": args})
        assert res["success"], (k, res)
        data = res["data"]
        outputs[k + 1] = next(e for e in data if e["id"] == twin) if k == 0 else data
    ep.report(planted["answer"])
    score = ep.score()
    assert score["reward"] == 0
    assert any(f["kind"] == "constraint" for f in score["failed"]), score["failed"]
