"""Lookups (docs/task-format.md#lookups): the reference plan holds the reads an agent needs that
the walk does not make, so an agent that follows it from the instruction and its own results
alone, never copying an id or a value the plan knows and it does not, passes."""

from __future__ import annotations

import pytest

from compoworld_dsl.agents import call_step, reported
from compoworld_dsl.gateway import Episode
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import Rejected
from compoworld_dsl.taskfile import agent_plan

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def legal():
    return load_sampler(str(ROOT / "worlds" / "legal_ops.world"))


@pytest.fixture(scope="module")
def legal_tasks(legal):
    out = []
    for i in range(40):
        try:
            out.append(legal.task(3, i, 5))
        except Rejected:
            continue
    return out


def _lookups(task, kind):
    """(index in the agent's plan, lookup) of each lookup of this kind ("record", "argument")."""
    return [(k, c) for k, (n, c) in enumerate(agent_plan(task)) if n is None and kind in c]


def _data(world, task, upto):
    """What each call of the agent's plan returns, played through the meta-tools up to call `upto`."""
    ep = Episode(world)
    ep.reset(task)
    names = {q: n for n, q in ep.gateway.names.items()}
    return [call_step(ep.call, names[c["tool"]], c).get("data") for _, c in agent_plan(task)[:upto + 1]], ep


def _records(data):
    return data if isinstance(data, list) else [data] if isinstance(data, dict) else []


def test_a_record_named_by_its_name_is_found_by_a_call_before_the_step_that_takes_its_key(legal, legal_tasks):
    found = [(t, k, c) for t in legal_tasks for k, c in _lookups(t, "record")]
    assert len(found) >= 3, "no record lookups among 40 attempts"
    for task, k, call in found:
        key = call["record"]["key"]
        assert key in task["reference_plan"][call["before"] - 1]["arguments"].values(), (task["id"], call)
        assert not any(key in c["arguments"].values() for c in task["reference_plan"][: call["before"] - 1]), (task["id"], call)
        # the instruction names it, not by its id, and no earlier call showed it
        assert key not in task["instruction"]
        data, _ = _data(legal.world, task, k)
        assert any(r.get("id") == key for r in _records(data[k])), (task["id"], data[k])
        assert call["tool"].split(".")[0] in task["services"]
        assert task["hops"] == len(task["reference_plan"]) == len(task["bindings"])


def test_a_value_the_house_rules_decide_is_read_before_the_write_that_needs_it(legal, legal_tasks):
    found = [(t, k, c) for t in legal_tasks for k, c in _lookups(t, "argument")]
    assert found, "no lookups for values left to the rules among 40 attempts"
    for task, k, call in found:
        name = call["argument"]
        assert task["bindings"][call["before"] - 1][name] == "house rules"
        value = task["reference_plan"][call["before"] - 1]["arguments"][name]
        data, _ = _data(legal.world, task, k)
        assert any(value in r.values() for r in _records(data[k])) or data[k] == value, (task["id"], data[k], value)


def test_a_lookup_is_made_from_the_instructions_words_and_the_plan_with_it_passes(legal, legal_tasks):
    """The finder is called with what the instruction says of the record (its name, as quoted),
    never with an id; and the reference plan, lookups and all, earns 1 played through the
    meta-tools."""
    played = 0
    for task in legal_tasks:
        looks = _lookups(task, "record")
        for _, call in looks:
            said = [v for v in call["arguments"].values() if isinstance(v, str)]
            assert said and all(f'"{v}"' in task["instruction"] for v in said), (task["id"], call, task["instruction"])
        if not looks:
            continue
        ep = Episode(legal.world)
        ep.reset(task)
        names = {q: n for n, q in ep.gateway.names.items()}
        got = {}
        for number, call in agent_plan(task):
            res = call_step(ep.call, names[call["tool"]], call)
            assert res["success"], (task["id"], call, res)
            if number is not None:
                got[number] = res["data"]
        if task["answer"] is not None:
            ep.report(reported(task["reports"], got))
        score = ep.score()
        assert score["reward"] == 1, (task["id"], score["failed"])
        played += 1
    assert played >= 3


def test_no_lookup_stands_in_for_a_step_of_the_walk(legal, legal_tasks):
    """Where the instruction names a record by its own name in place of the path a walk step led
    along, that step must be needed for something else (a write, a report, another argument):
    else the agent, finding the record by its name, never makes it, and the task's hops are
    more than its real ones. Before the rule (`steps.needed_besides`), 4 of the 12 record
    lookups of these attempts stood in for such a step."""
    import re

    looked = 0
    for task in legal_tasks:
        plan = task["reference_plan"]
        for look in task["lookups"]:
            if "record" not in look:
                continue
            looked += 1
            u, key = look["before"], look["record"]["key"]
            args = [a for a, v in plan[u - 1]["arguments"].items() if v == key]
            feeders = {int(m.group(1)) for a in args if (m := re.match(r"step (\d+)", task["bindings"][u - 1].get(a, "")))}
            for j in feeders:
                others = [(q, a) for q, b in enumerate(task["bindings"]) for a, x in b.items() if re.match(rf"step {j}(\.|$)", x) and not (q == u - 1 and a in args)]
                asked = any(r["step"] == j for r in task["reports"])
                assert others or asked or plan[j - 1]["tool"] in legal.mutating, (task["id"], j, plan[j - 1]["tool"])
    assert looked >= 3
