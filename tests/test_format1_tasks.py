"""Task files written before goal-level tasks (format 1: no `format` field, instructions that read
the plan aloud) stay readable: eval and export play them as before, `serve` loads them, and
`worldc verify` says why it cannot check them instead of failing on every field.
(`serve` reads task files through the same loader as eval and export.)
tests/fixtures/tasks/format1-toy.jsonl is `worldc sample worlds/toy.world --hops 3 -n 3 --seed 1`
as commit 3d07cc9 wrote it."""

from __future__ import annotations

import json
from pathlib import Path

from compoworld_dsl.cli import main
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import verify_task
from compoworld_dsl.taskfile import load_tasks

ROOT = Path(__file__).resolve().parents[1]
TOY = str(ROOT / "worlds" / "toy.world")
OLD = ROOT / "tests" / "fixtures" / "tasks" / "format1-toy.jsonl"


def test_format1_files_load_and_play(tmp_path, capsys):
    tasks = load_tasks(OLD, load_sampler(TOY).world)  # the loader eval, export and serve share
    assert len(tasks) == 3
    assert all("format" not in t and t["instruction"].startswith("Please do the following:") for t in tasks)
    assert main(["eval", TOY, str(OLD), "--agent", "oracle", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tasks"] == 3 and report["success_rate"] == 1.0
    out = tmp_path / "sft.jsonl"
    assert main(["export", "sft", TOY, str(OLD), "-o", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 3


def test_verify_says_format1_tasks_must_be_sampled_again(capsys):
    sampler = load_sampler(TOY)
    task = json.loads(OLD.read_text().splitlines()[0])
    problems = verify_task(sampler, task)
    assert len(problems) == 1 and problems[0].startswith("format: 1, written by an older sampler") and "sample it again" in problems[0]
    assert main(["verify", TOY, str(OLD)]) == 1
    assert "written by an older sampler" in capsys.readouterr().err
