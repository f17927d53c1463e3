"""Walks are one chain of information by default (`--threads 1`): every step after the first
takes a value an earlier step gave, grown so from the first step (`walk.Walker.walks`), not
filtered afterwards. `--threads N` lets a walk start up to N errands side by side. Either way
`worldc verify` rebuilds the task from its record (which keeps `threads`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from compoworld_dsl.sample.rebuild import attempt_of, rebuild_problems
from compoworld_dsl.sample.journal import options
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


def test_walks_are_one_thread_by_default_and_rebuild(tmp_path):
    path = str(ROOT / "worlds" / "office.world")
    out = tmp_path / "one.jsonl"
    report = run(Job(path, 5, 6, 1), out)
    tasks = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(tasks) == 6
    assert report.rejected.get("filtered", 0) == 0, report.rejected  # grown as one thread, not filtered
    sampler = load_sampler(path)
    for task in tasks:
        assert task["threads"] == 1
        assert threads(task) == 1, (task["id"], task["bindings"])
        # every step after the first takes something an earlier step gave
        for k, args in enumerate(task["bindings"][1:], start=1):
            assert any(isinstance(v, str) and v.startswith("step ") for v in args.values()), (task["id"], k, args)
        assert rebuild_problems(sampler, task) == []


def test_more_threads_allow_errands_side_by_side_and_rebuild(tmp_path):
    path = str(ROOT / "worlds" / "office.world")
    out = tmp_path / "three.jsonl"
    run(Job(path, 5, 8, 1, threads=3), out)
    tasks = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(tasks) == 8
    counts = [threads(t) for t in tasks]
    assert all(t["threads"] == 3 for t in tasks) and max(counts) <= 3
    assert max(counts) > 1, counts  # office walks of 5 hops that may start errands often do
    sampler = load_sampler(path)
    for task in tasks[:3]:
        assert rebuild_problems(sampler, task) == []
        hops, seed, index = attempt_of(task["id"])
        assert sampler.task(seed, index, hops, threads=3) == json.loads(json.dumps(task))


def test_a_journal_of_another_thread_mode_is_not_resumed():
    """`--resume` continues only a run of the same options, and the thread mode is one of them
    (always written: a journal from before one-thread walks were the default does not resume)."""
    path = str(ROOT / "worlds" / "toy.world")
    one, two = options(Job(path, 3, 10, 7)), options(Job(path, 3, 10, 7, threads=2))
    assert one["threads"] == 1 and two == {**one, "threads": 2}


def test_threads_out_of_range_is_a_usage_error(tmp_path):
    for bad in ("0", "6"):
        p = subprocess.run([sys.executable, "-m", "compoworld_dsl.cli", "sample", str(ROOT / "worlds" / "toy.world"), "--hops", "5", "-n", "1", "--threads", bad, "-o", str(tmp_path / "x.jsonl")], capture_output=True, text=True)
        assert p.returncode == 2, p.stderr
        assert "--threads takes 1 to --hops (5)" in p.stderr and "Traceback" not in p.stderr
