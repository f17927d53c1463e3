"""Ranked picks compare (issue 28, item 2): a step that picks "the latest/largest" or "the
earliest/smallest" record among what a call shows has at least five candidates to compare, and
the pick is the only one at the top. Checked through the Episode API, as an agent sees the calls.
WORLDC_LONG=1 samples more tasks."""

from __future__ import annotations

import os
from pathlib import Path

from compoworld_dsl.agents import call_step
from compoworld_dsl.gateway import Episode
from compoworld_dsl.sample.rejected import Rejected
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.steps import result_table
FIVE = 5  # the "a ranked pick among at least five candidates"

ROOT = Path(__file__).resolve().parents[1]
LONG = os.environ.get("WORLDC_LONG") == "1"


def test_a_ranked_pick_in_a_task_compares_at_least_five():
    """End to end: every ranked step of sampled tasks, replayed through the Episode API, shows
    the agent at least five records and one alone at the top. (Ranked steps are rarer than
    before: most of the bundled worlds' lists hold fewer than five rows.)"""
    checked = 0
    for world in ("supply_chain",) + (("office", "support", "legal_ops") if LONG else ()):
        sampler = load_sampler(str(ROOT / "worlds" / f"{world}.world"))
        for i in range(60 if LONG else 30):
            try:
                task = sampler.task(11, i, 5)
            except Rejected:
                continue
            ranks = [(k, how) for k, how in enumerate(task["found_by"]) if how and how.startswith("rank: ")]
            if not ranks:
                continue
            ep = Episode(sampler.world)
            ep.reset(task)
            names = {q: n for n, q in ep.gateway.names.items()}
            results = []
            for call in task["reference_plan"]:
                got = call_step(ep.call, names[call["tool"]], call)
                assert got["success"], (task["id"], call)
                results.append(got["data"])
            for k, how in ranks:
                order, field = how.split(" ", 3)[2:]
                data = results[k]
                assert isinstance(data, list) and len(data) >= FIVE, (task["id"], k, how, len(data))
                tool = next(t for t in sampler.facts.tools if t.qualified == task["reference_plan"][k]["tool"])
                key = sampler.people.key[result_table(sampler.people, tool)]
                top = (min if order == "smallest" else max)(e[field] for e in data)
                winners = [e[key] for e in data if e[field] == top]
                assert len(winners) == 1, (task["id"], k, how, winners)
                checked += 1
    assert checked >= 1, "no ranked step sampled: the test shows nothing"


def test_pick_ranks_only_among_five_or_more_and_at_either_end():
    """`Walker._pick` on real rows of a seeded state: a list of four never gives a ranked pick; a
    list of five or more gives the only largest and the only smallest, each some of the time."""
    import random

    from compoworld_dsl.sample.attempt import Attempt
    from compoworld_dsl.sample.walk import Walker

    sampler = load_sampler(str(ROOT / "worlds" / "supply_chain.world"))
    facts = sampler.facts
    walker = Walker(facts, Attempt(1, None))
    seen = {}
    for tool in facts.tools:
        table = result_table(sampler.people, tool)
        if table is None or not str(tool.result).startswith("list"):
            continue
        for seed in range(6):
            state = facts.world.initial_state(seed)
            rows = [dict(r) for r in state.tables.get(table, {}).values()]
            if len(rows) < FIVE:
                continue
            for n in (FIVE - 1, len(rows)):
                for r in range(12):
                    got = walker._pick(random.Random(r), state, tool, rows[:n], {})
                    if got is None or got[1]["by"] != "rank":
                        continue
                    how = got[1]
                    assert n >= FIVE, (tool.qualified, n, how)
                    top = (min if how["order"] == "min" else max)(e[how["field"]] for e in rows[:n])
                    winners = [e for e in rows[:n] if e[how["field"]] == top]
                    assert len(winners) == 1 and winners[0][sampler.people.key[table]] == got[0]
                    seen[how["order"]] = seen.get(how["order"], 0) + 1
    assert seen.get("max", 0) >= 3 and seen.get("min", 0) >= 3, seen
