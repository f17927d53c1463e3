"""A value a task carries from a record it read is still that record's value when the agent uses
it (issue 28 item 4, `descriptions.carried_still_hold`): the instruction names it by what it is
("for the expected close date of the opportunity of that quote"), and an agent reads it where it
uses it. Played at 16 hops (support, seed 2718, attempt 2): the task moved the opportunity's close
date, then put a meeting on "the expected close date of the opportunity"; the player used the new
date, the checker wanted the one read before the move, and the task failed a fair agent."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import Rejected
from test_deep_walks import _sampled  # the tasks a run of attempts gives

ROOT = Path(__file__).resolve().parents[1]


def _stale(sampler, task) -> list[str]:
    """Each argument taken from a field of an earlier step's record whose value, in the state
    just before the step that takes it, is no longer the one carried."""
    world, people = sampler.facts.world, sampler.people
    state = world.task_state(task["initial_state"])
    data, out = [], []
    for k, (call, binding) in enumerate(zip(task["reference_plan"], task["bindings"])):
        for name, source in binding.items():
            m = re.fullmatch(r"step (\d+)\.(\w+)", source)
            if not m:
                continue
            j, field = int(m.group(1)) - 1, m.group(2)
            got = data[j]
            records = got if isinstance(got, list) else [got] if isinstance(got, dict) else []
            value = call["arguments"][name]
            for r in records:
                if r.get(field) != value or "id" not in r:
                    continue
                for table, rows in state.tables.items():
                    row = rows.get(r["id"])
                    now = world.types.to_json(people.fields[table][field], row[field]) if row is not None and field in row else value
                    if now != value:
                        out.append(f"{task['id']} step {k + 1} {name}: carried {value!r}, now {now!r}")
        res = world.call(state, call["tool"], call["arguments"])
        assert res["success"], res
        data.append(res["data"])
    return out


def test_the_played_task_that_carried_a_moved_date_is_no_longer_given():
    sampler = load_sampler(str(ROOT / "worlds" / "support.world"))
    try:
        task = sampler.task(2718, 2, 16)
    except Rejected:
        return  # the attempt gives no task now (the seeds or the walk changed since): nothing stale is given
    assert _stale(sampler, task) == []


@pytest.mark.parametrize("world", ["support", "office"])
def test_no_carried_value_was_changed_before_its_use(world):
    sampler = load_sampler(str(ROOT / "worlds" / f"{world}.world"))
    tasks = _sampled(sampler, 2718, 8, 20)
    assert len(tasks) >= 8
    stale = [s for t in tasks for s in _stale(sampler, t)]
    assert not stale, stale[:3]
