"""`worldc sample --one-thread` keeps only tasks whose steps all hang together through data flow
(one chain of information, no errands side by side), rejecting other walks as soon as they are
grown; the tasks it keeps are byte for byte those the same attempts give without it."""

from __future__ import annotations

import json
from pathlib import Path

from compoworld_dsl.sample.rebuild import attempt_of, rebuild_problems
from compoworld_dsl.sample.run import Job, load_sampler, run
from compoworld_dsl.sample.walk import thread_count, threads

ROOT = Path(__file__).resolve().parents[1]


def test_threads_are_the_groups_that_data_flow_links():
    assert thread_count([]) == 0
    assert thread_count([[], [0], [1]]) == 1
    assert thread_count([[], [], [0]]) == 2
    assert thread_count([[], [], [0, 1]]) == 1  # a later step joins two threads
    assert thread_count([[], [], [], [2], [0]]) == 3
    task = {"bindings": [{"folder": "instruction"}, {"day": "step 1.meeting_day", "memo": "house rules"}, {"day": "instruction"}]}
    assert threads(task) == 2
    task["bindings"][2]["id"] = "step 2"
    assert threads(task) == 1


def test_one_thread_keeps_only_chains_and_changes_no_task(tmp_path):
    path = str(ROOT / "worlds" / "office.world")
    out = tmp_path / "one.jsonl"
    report = run(Job(path, 5, 6, 1, one_thread=True), out)
    tasks = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(tasks) == 6
    assert report.rejected["filtered"] >= 1, report.rejected  # office walks of 5 hops are often two errands
    assert "--one-thread" in report.examples["filtered"]
    sampler = load_sampler(path)
    for task in tasks:
        assert threads(task) == 1, (task["id"], task["bindings"])
        hops, seed, index = attempt_of(task["id"])
        assert sampler.task(seed, index, hops) == json.loads(json.dumps(task))  # the flag only rejects
        assert rebuild_problems(sampler, task) == []  # `worldc verify` needs no flag


def test_a_journal_of_another_thread_mode_is_not_resumed():
    """`--resume` continues only a run of the same options: the flag is one of them, and a run
    without it keeps the options its journals had before the flag existed."""
    from compoworld_dsl.sample.run import options

    path = str(ROOT / "worlds" / "toy.world")
    plain, one = options(Job(path, 3, 10, 7)), options(Job(path, 3, 10, 7, one_thread=True))
    assert "one_thread" not in plain and one == {**plain, "one_thread": True}
