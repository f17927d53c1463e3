"""`worldc sample` reports how often each tool and house rule appears in the emitted tasks."""

from __future__ import annotations

import json
from pathlib import Path

from compoworld_dsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
LEGAL = str(ROOT / "worlds" / "legal_ops.world")


def test_coverage_counts_what_the_tasks_use(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    assert main(["sample", LEGAL, "--hops", "3", "-n", "6", "--seed", "2", "-o", str(out), "--format", "json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    tasks = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert report["emitted"] == len(tasks) == 6
    tools = report["coverage"]["tools"]
    assert len(tools) == 94  # every tool of the eight services, called or not
    for name, n in tools.items():
        assert n == sum(1 for t in tasks if any(c["tool"] == name for c in t["reference_plan"])), name
    rules = report["coverage"]["rules"]
    assert set(rules) == {"hands_off_closed", "cosign", "latest_note_wins", "pay_after_approval", "file_before_telling", "docket_discipline"}
    for name, n in rules.items():
        assert n == sum(1 for t in tasks if any(c["name"] == name for c in t["constraints"])), name
    assert "coverage: " in captured.err and "of 94 tools called" in captured.err


def test_json_needs_an_output_file(capsys):
    assert main(["sample", LEGAL, "--hops", "3", "-n", "1", "--format", "json"]) == 2
    assert "need -o OUT.jsonl" in capsys.readouterr().err
