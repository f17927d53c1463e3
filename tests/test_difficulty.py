"""Each task records a `difficulty` (compoworld_dsl/sample/difficulty.py, docs/task-format.md):
counts taken from the record and its replay, and one score; `worldc verify` recomputes it, and
`worldc sample --min-calls N` and `--difficulty LO:HI` keep only the tasks that reach it.

Properties over many tasks, no seed's exact text (walks change under other work). Bounded to a few
tasks per world here; with WORLDC_LONG=1 the sampled-task properties run over many more attempts
and every bundled world."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from compoworld_dsl.cli import main
from compoworld_dsl.sample.difficulty import measure, of_record
from compoworld_dsl.sample.rebuild import attempt_of
from compoworld_dsl.sample.journal import options
from compoworld_dsl.sample.run import Job, load_sampler, run
from compoworld_dsl.sample.sampler import Rejected, verify_task
from compoworld_dsl.taskfile import agent_plan, load_tasks

ROOT = Path(__file__).resolve().parents[1]
TOY = str(ROOT / "worlds" / "toy.world")
LEGAL = str(ROOT / "worlds" / "legal_ops.world")
SCHEMA = json.loads((ROOT / "compoworld_dsl" / "schemas" / "task.schema.json").read_text(encoding="utf-8"))
LONG = os.environ.get("WORLDC_LONG") == "1"
ATTEMPTS = 400 if LONG else 40  # attempts per world for the sampled-task properties
WORLDS = sorted(p.stem for p in (ROOT / "worlds").glob("*.world")) if LONG else ["legal_ops", "toy"]
KEYS = {"real_calls", "reads", "candidates_compared", "look_alikes", "rule_checks", "rule_lookups", "branch", "services", "score"}


def _score(d: dict) -> int:
    """The documented formula (docs/task-format.md#difficulty), written out again."""
    log = lambda n: n.bit_length()  # noqa: E731  ⌈log2(n + 1)⌉
    return d["real_calls"] + log(d["reads"]) + log(d["candidates_compared"]) + 2 * (d["look_alikes"] + d["rule_checks"] + d["branch"]) + d["rule_lookups"] + max(0, d["services"] - 1)


def _replay(sampler, task: dict) -> tuple[list, list]:
    """What each call of the reference plan returns, and each lookup before its step, replayed
    as `worldc verify` replays them."""
    world = sampler.facts.world
    state = world.task_state(task["initial_state"])
    out, looked = [], []
    for step, call in agent_plan(task):
        res = world.call(state, call["tool"], call["arguments"])
        assert res["success"], res
        (out if step is not None else looked).append(res.get("data"))
    return out, looked


@pytest.fixture(scope="module")
def sampled() -> dict:
    """world → (sampler, tasks of 3 and 5 hops), as a file holds them."""
    out = {}
    for world in WORLDS:
        sampler = load_sampler(str(ROOT / "worlds" / f"{world}.world"))
        tasks = []
        for hops in (3, 5):
            for index in range(ATTEMPTS):
                try:
                    tasks.append(json.loads(json.dumps(sampler.task(11, index, hops), ensure_ascii=False)))
                except Rejected:
                    pass
        out[world] = (sampler, tasks)
    return out


def test_measure_counts_what_the_record_and_its_replay_hold():
    facts = load_sampler(TOY).facts
    plan = [
        {"tool": "files.list_folder", "arguments": {"folder": "/archive"}},
        {"tool": "calendar.schedule_event", "arguments": {"title": "x", "day": "2025-03-28", "start": "10:11", "minutes": 30}},
        {"tool": "calendar.list_events", "arguments": {"day": "2025-03-18"}},
    ]
    rows = lambda n: [{"id": f"r-{i}"} for i in range(n)]  # noqa: E731
    results = [rows(4), {"id": "event-9"}, rows(6)]  # the write's own record is not a read
    rule_proofs = {
        "a": {"load_bearing": {"look_alikes": [{"step": 1, "look_alike": "file-7"}]}},
        "b": {"load_bearing": {"look_alikes": [{"step": 1, "look_alike": "file-7"}, {"step": 3, "look_alike": "event-2"}]}},
        "c": {"load_bearing": {"left_to_the_agent": [{"step": 2, "argument": "start", "breaking_values": []}]}},
    }
    d = measure(facts, plan, results, ["description: name, folder", None, "rank: the largest start"], rule_proofs, [{}, {}, {}], {"step": 3}, ["calendar", "files"])
    assert {k: v for k, v in d.items() if k != "score"} == {
        "real_calls": 3, "reads": 10, "candidates_compared": 10, "look_alikes": 2, "rule_checks": 3, "rule_lookups": 0, "branch": True, "services": 2,
    }
    assert d["score"] == 3 + 4 + 4 + 2 * (2 + 3 + 1) + 1 == _score(d)
    # a single record or value read counts one; nothing read (null) none; a pick whose result is no list compares nothing
    d = measure(facts, plan[:1] + plan[2:], [{"id": "file-1"}, None], ["description: name, folder", None], {}, [], None, ["files"])
    assert (d["reads"], d["candidates_compared"], d["look_alikes"], d["branch"], d["score"]) == (1, 0, 0, False, 2 + 1)


def test_sampled_tasks_record_their_difficulty(sampled):
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for world, (sampler, tasks) in sampled.items():
        assert tasks, world
        for task in tasks:
            d = task["difficulty"]
            assert set(d) == KEYS and list(task)[-1] == "difficulty", task["id"]
            assert d == of_record(sampler.facts, task, *_replay(sampler, task)), task["id"]  # the record and its replay give it
            assert d["real_calls"] == sum(c.get("pages", 1) for _, c in agent_plan(task)) and d["services"] == len(task["services"])
            assert d["rule_checks"] == len(task["constraints"]) and d["branch"] == (task["branch"] is not None)
            assert d["score"] == _score(d) >= d["real_calls"]
            assert list(validator.iter_errors(task)) == []
        scores = [t["difficulty"]["score"] for t in tasks]
        assert len(set(scores)) > 1, (world, scores)  # the score tells tasks apart
    legal = sampled["legal_ops"][1]
    assert any(t["difficulty"]["candidates_compared"] for t in legal) and any(t["difficulty"]["look_alikes"] for t in legal)


def test_verify_recomputes_the_difficulty(sampled, tmp_path):
    sampler, tasks = sampled["legal_ops"]
    task = tasks[0]
    assert verify_task(sampler, task) == []
    edited = copy.deepcopy(task)
    edited["difficulty"]["reads"] += 1
    problems = verify_task(sampler, edited)
    assert any(p.startswith("difficulty.reads:") and "replay" in p for p in problems), problems
    # a file written before tasks recorded a difficulty still loads (eval, serve, export read it);
    # verify, which compares every field with today's sampler, says what is missing
    old = {k: v for k, v in task.items() if k != "difficulty"}
    f = tmp_path / "old.jsonl"
    f.write_text(json.dumps(old) + "\n", encoding="utf-8")
    assert load_tasks(f, sampler.facts.world) == [old]
    assert verify_task(sampler, old) == ["difficulty: missing"]
    bad = copy.deepcopy(task)
    bad["difficulty"]["extra"] = 1
    assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(bad))


def test_min_calls_keeps_only_tasks_that_make_enough_calls():
    plain = run(Job(TOY, 3, 3, 5, max_attempts=40), None)
    assert plain.emitted == 3 and not plain.rejected.get("filtered")
    same = run(Job(TOY, 3, 3, 5, max_attempts=40, min_calls=3), None)
    assert (same.emitted, same.attempts, same.rejected) == (plain.emitted, plain.attempts, plain.rejected)
    none = run(Job(TOY, 3, 3, 5, max_attempts=12, min_calls=4), None)
    assert none.emitted == 0 and none.rejected["filtered"] >= 1
    assert "--min-calls 4" in none.examples["filtered"]


def test_a_difficulty_band_only_rejects(tmp_path):
    """With no rule share, the band's run is the plain run's tasks that fall in the band, byte for
    byte and in order: the filter rejects tasks, it changes none."""
    plain_out, band_out = tmp_path / "plain.jsonl", tmp_path / "band.jsonl"
    run(Job(LEGAL, 5, 10, 2, rule_share=0), plain_out)
    lines = plain_out.read_text(encoding="utf-8").splitlines()
    scores = sorted(json.loads(x)["difficulty"]["score"] for x in lines)
    lo = scores[len(scores) // 2]
    inside = [x for x in lines if json.loads(x)["difficulty"]["score"] >= lo]
    report = run(Job(LEGAL, 5, len(inside), 2, rule_share=0, difficulty=(lo, None)), band_out)
    assert band_out.read_text(encoding="utf-8").splitlines() == inside
    assert report.rejected["filtered"] == lines.index(inside[-1]) + 1 - len(inside)  # the plain tasks below the band, up to the last kept
    if report.rejected["filtered"]:
        assert f"--difficulty {lo:g}:" in report.examples["filtered"]
    sampler = load_sampler(LEGAL)
    hops, seed, index = attempt_of(json.loads(inside[0])["id"])
    assert json.dumps(sampler.task(seed, index, hops), ensure_ascii=False, separators=(",", ":")) == inside[0]  # `worldc verify` needs no flag


def test_the_filters_are_journal_options_only_when_on():
    """`--resume` continues only a run of the same options; a run without the filters keeps the
    options its journals had before they existed."""
    plain = options(Job(TOY, 3, 10, 7))
    assert "min_calls" not in plain and "difficulty" not in plain
    assert options(Job(TOY, 3, 10, 7, min_calls=4)) == {**plain, "min_calls": 4}
    assert options(Job(TOY, 3, 10, 7, difficulty=(6.0, None))) == {**plain, "difficulty": [6.0, None]}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the writer's identity reads /proc")
def test_a_filtered_run_resumes_to_the_same_bytes(tmp_path):
    ref, out = tmp_path / "ref.jsonl", tmp_path / "out.jsonl"
    job = dict(hops=3, count=6, seed=4, min_calls=3, difficulty=(1.0, 99.0))
    run(Job(TOY, **job), ref)
    script = f"""
import signal
from compoworld_dsl.sample.run import Interrupted, Job, run
def stop(report):
    if report.emitted >= 2:
        raise Interrupted(signal.SIGTERM)
try:
    run(Job({TOY!r}, **{job!r}), {str(out)!r}, progress=stop, resume=True)
except Interrupted:
    pass
"""
    subprocess.run([sys.executable, "-c", script], check=True, timeout=600)
    assert not out.exists() and list(tmp_path.glob(".out.jsonl.*.state"))
    run(Job(TOY, **job), out, resume=True)
    assert out.read_bytes() == ref.read_bytes()


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--min-calls", "-1"], "--min-calls takes"),
        (["--min-calls", "x"], "--min-calls"),
        (["--difficulty", "5"], "--difficulty takes LO:HI"),
        (["--difficulty", "9:3"], "--difficulty takes LO:HI"),
        (["--difficulty", "a:b"], "--difficulty takes LO:HI"),
        (["--difficulty", "nan:3"], "--difficulty takes LO:HI"),
        (["--difficulty", ":"], "--difficulty takes LO:HI"),
    ],
)
def test_bad_filters_are_usage_errors(argv, words, tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    try:
        status = main(["sample", TOY, "--hops", "2", "-n", "1", "-o", str(out), *argv])
    except SystemExit as e:  # argparse's own (a value that is no integer): usage, then the error
        status = e.code
    assert status == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and err.splitlines()[-1].startswith("worldc: error: ") and words in err.splitlines()[-1], err
    assert not out.exists()


def test_the_cli_filters_and_says_how_to_reproduce(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    assert main(["sample", TOY, "--hops", "3", "-n", "2", "--seed", "3", "--min-calls", "3", "--difficulty", "2:", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "--min-calls 3 --difficulty 2:" in err.replace("\n", "")
    assert all(json.loads(x)["difficulty"]["score"] >= 2 for x in out.read_text(encoding="utf-8").splitlines())
