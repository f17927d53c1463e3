"""Where a planted look-alike sits says nothing of which candidate is meant (issue 28, item 3).

Over the rule-deciding steps of many sampled tasks (a record described in the instruction with
look-alikes that a load-bearing house rule rules out), three shortcuts an agent could take
instead of reading the rule — leave the highest key alone (take the lowest), take the first
listed, take the newest by a date field — must pick the target no more (and no less) often
than chance, 1/candidates; where the world allows, more than one look-alike is planted, and a
look-alike differs from its target in more than the rule's field. The proofs still hold: each
description fits exactly the target and its look-alikes, by Python and by Z3, and `worldc
verify` rebuilds each task (key swaps included) identically.

Properties over many tasks, never one seed's text (walk growth changes under these tests).
By default two worlds and 120 attempts each (about 20 rule-deciding steps); set
WORLDC_LONG=1 for four worlds and 400 attempts each (300 and more)."""

from __future__ import annotations

import copy
import importlib.util
import json
import math
import os
from pathlib import Path

import pytest

from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import Rejected, verify_task
from compoworld_dsl.taskfile import task_problems

ROOT = Path(__file__).resolve().parents[1]
LONG = os.environ.get("WORLDC_LONG") == "1"
WORLDS = ("legal_ops", "office", "support", "supply_chain") if LONG else ("legal_ops", "support")
ATTEMPTS = 400 if LONG else 120
VERIFIED = 1000 if LONG else 3  # tasks with a key swap rebuilt by `verify_task`, per world
# The tasks are fixed by their seeds, so a verdict is reproducible, not a coin toss; a 99.9%
# interval keeps a change to walk growth from failing an honest sampler by bad luck (1 in 1000
# per shortcut), and still fails one that is right every time (100% against 50% ± 37% at 20 trials).
Z = 3.29

_spec = importlib.util.spec_from_file_location("lookalike_ranks", ROOT / "bench" / "lookalike_ranks.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


@pytest.fixture(scope="module")
def sampled():
    """world → (sampler, the tasks of its attempts at 5 hops that carry a rule)."""
    out = {}
    for name in WORLDS:
        sampler = load_sampler(str(ROOT / "worlds" / f"{name}.world"))
        tasks = []
        for i in range(ATTEMPTS):
            try:
                task = sampler.task(3, i, 5)
            except Rejected:
                continue
            if task["constraints"]:
                tasks.append(json.loads(json.dumps(task)))
        out[name] = (sampler, tasks)
    return out


@pytest.fixture(scope="module")
def trials(sampled):
    got = [t for sampler, tasks in sampled.values() for t in bench.trials(tasks, sampler)]
    assert len(got) >= (300 if LONG else 15), f"only {len(got)} rule-deciding steps"
    return got


@pytest.mark.parametrize("shortcut", bench.STRATEGIES)
def test_no_shortcut_picks_the_target_better_than_chance(trials, shortcut):
    rows = [t for t in trials if shortcut in t["hits"]]
    assert len(rows) >= (200 if LONG else 12)
    hits = sum(t["hits"][shortcut] for t in rows)
    expected = sum(1 / t["candidates"] for t in rows)
    sd = math.sqrt(sum((1 / t["candidates"]) * (1 - 1 / t["candidates"]) for t in rows))
    assert abs(hits - expected) <= Z * sd, f"{shortcut}: {hits:g} of {len(rows)} hit the target, chance {expected:.1f} ± {Z * sd:.1f}"


def test_more_than_one_look_alike_where_the_world_allows(trials):
    many = sum(1 for t in trials if t["candidates"] >= 3)
    assert many * 3 >= len(trials), f"{many} of {len(trials)} rule-deciding steps have two look-alikes or more"


def test_a_look_alike_differs_in_more_than_the_rules_field(sampled):
    """Besides the field the rule reads: its dates (each look-alike by its own offset) or a field
    no rule reads (a record with neither has none to spare)."""
    looks = more = 0
    for sampler, tasks in sampled.values():
        for t in bench.trials(tasks, sampler):
            task = next(x for x in tasks if x["id"] == t["task"])
            rows = sampler.world.task_state(task["initial_state"]).tables[t["table"]]
            for other in t["look_alikes"]:
                differ = {f for f, v in rows[other].items() if v != rows[t["target"]][f] and f != sampler.facts.people.key[t["table"]]}
                looks += 1
                more += len(differ) >= 2
    assert looks and more * 10 >= looks * 9, f"only {more} of {looks} look-alikes differ from their target in two fields or more"


def test_descriptions_fit_the_target_and_its_look_alikes_exactly(sampled, trials):
    by_id = {t["id"]: t for _, tasks in sampled.values() for t in tasks}
    for t in trials:
        unique = next(u for u in by_id[t["task"]]["proofs"]["descriptions_unique"] if u["step"] == t["step"])
        assert unique["fits"] == unique["z3_fits"] == t["candidates"] == 1 + len(t["look_alikes"]) + unique["refused_by_services"]
        assert unique["ruled_out_by"], t


def test_tasks_with_swapped_keys_rebuild_identically(sampled):
    checked = 0
    for sampler, tasks in sampled.values():
        swapped = [t for t in tasks if t["initial_state"].get("swaps")][:VERIFIED]
        for task in swapped:
            assert task_problems(task, sampler.world) == []
            assert verify_task(sampler, task) == [], task["id"]
            # the swap is part of the task: without it the record is another task
            bare = copy.deepcopy(task)
            del bare["initial_state"]["swaps"]
            assert verify_task(sampler, bare) != []
            checked += 1
    assert checked >= 2


def test_swapping_keys_renames_every_reference_and_keeps_places(sampled):
    legal = sampled["legal_ops"][0]
    world = legal.world
    st = world.initial_state(11)
    matters = st.tables["matters.matters"]
    a, b = list(matters)[0], list(matters)[-1]
    refs = {t: f for t, f in legal.facts.people.children["matters.matters"]}
    before = {t: {k: r[f] for k, r in st.tables[t].items()} for t, f in refs.items()}
    assert any(v in (a, b) for got in before.values() for v in got.values())
    old = dict(matters)
    world.swap_keys(st, "matters.matters", a, b)
    assert list(st.tables["matters.matters"]) == list(old)  # each key keeps its place
    assert {**st.tables["matters.matters"][a], "id": b} == old[b] and {**st.tables["matters.matters"][b], "id": a} == old[a]
    for t, f in refs.items():
        for k, r in st.tables[t].items():
            assert r[f] == {a: b, b: a}.get(before[t][k], before[t][k])
    world.swap_keys(st, "matters.matters", a, b)  # twice: the state it was
    again = world.initial_state(11)
    assert all(dict(st.tables[t]) == dict(again.tables[t]) for t in again.tables)


def test_a_swap_the_table_cannot_make_is_a_clear_problem(sampled):
    sampler, tasks = sampled["legal_ops"] if "legal_ops" in sampled else next(iter(sampled.values()))
    task = next(t for t in tasks if t["initial_state"].get("rows"))
    bad = copy.deepcopy(task)
    planted = bad["initial_state"]["rows"][0]
    key = sampler.facts.people.key[planted["table"]]
    bad["initial_state"]["swaps"] = [{"table": planted["table"], "keys": ["no-such-key", planted["row"][key]]}]
    field, problem = task_problems(bad, sampler.world)[0]
    assert field == "initial_state.rows" and "cannot swap keys 'no-such-key'" in problem
    bad["initial_state"]["swaps"] = [{"table": "nowhere.nothing", "keys": ["a", "b"]}]
    assert task_problems(bad, sampler.world)[0][0] == "initial_state.swaps[0].table"
