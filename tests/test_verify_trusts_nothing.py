"""`worldc verify` trusts nothing in a task file: every edit of any field (the instruction, the
branch, bindings, capabilities, proofs, distractors) fails, naming the field; and `worldc sample`
never writes a task that `verify` rejects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compoworld_dsl.cli import main

ROOT = Path(__file__).resolve().parents[1]
LEGAL = str(ROOT / "worlds" / "legal_ops.world")


@pytest.fixture(scope="module")
def sampled(tmp_path_factory) -> list[dict]:
    out = tmp_path_factory.mktemp("v") / "t.jsonl"
    assert main(["sample", LEGAL, "--hops", "3", "-n", "12", "--seed", "5", "-o", str(out)]) == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _verify(tmp_path: Path, tasks: list[dict], capsys) -> tuple[int, str]:
    path = tmp_path / "edited.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks), encoding="utf-8")
    capsys.readouterr()
    code = main(["verify", LEGAL, str(path)])
    return code, capsys.readouterr().err


def _edits(task: dict):
    """(field named in the message, edited task)."""
    yield "instruction", {**task, "instruction": task["instruction"].replace("e", "a", 1)}
    yield "instruction", {**task, "instruction": "\n".join(task["instruction"].split("\n")[:-1])}
    yield "bindings", {**task, "bindings": [{k: "instruction" for k in b} for b in task["bindings"]][::-1]}
    yield "capabilities", {**task, "capabilities": sorted(set(task["capabilities"]) ^ {"ranked-selection"})}
    yield "distractors", {**task, "distractors": task["distractors"][1:]}
    yield "proofs", {**task, "proofs": {**task["proofs"], "walk_satisfiable": {**task["proofs"]["walk_satisfiable"], "candidates_tried": 999}}}
    yield "proofs", {**task, "proofs": {k: v for k, v in task["proofs"].items() if k != "empty_plan_fails"}}
    if task["branch"]:
        yield "branch", {**task, "branch": None}
        yield "branch", {**task, "branch": {**task["branch"], "taken": "else" if task["branch"]["taken"] == "then" else "then"}}
    for c in task["constraints"]:
        yield "constraints", {**task, "constraints": [{**c, "description": c["description"] + "!"} if x is c else x for x in task["constraints"]]}
        break


def test_every_edit_fails_verify_naming_the_field(sampled, tmp_path, capsys):
    code, err = _verify(tmp_path, sampled, capsys)
    assert code == 0, err
    tried = set()
    for task in sampled:
        for field, edited in _edits(task):
            code, err = _verify(tmp_path, [edited], capsys)
            assert code == 1, (field, err)
            assert f"{field}" in err and task["id"] in err, (field, err)
            tried.add(field)
    assert {"instruction", "bindings", "capabilities", "distractors", "proofs"} <= tried


def test_a_task_whose_id_names_another_attempt_fails(sampled, tmp_path, capsys):
    task = dict(sampled[0])
    task["id"] = task["id"][:-6] + "999999"
    code, err = _verify(tmp_path, [task], capsys)
    assert code == 1 and ("id:" in err or "differs" in err), err


@pytest.mark.parametrize("world,hops,count", [("toy", 2, 150), ("toy", 4, 150), ("legal_ops", 2, 250), ("legal_ops", 3, 250), ("legal_ops", 5, 200)])
def test_sample_never_writes_a_task_that_verify_rejects(tmp_path, capsys, world, hops, count):
    """1,000 tasks across the bundled worlds, each verified from scratch (the issue's check that
    Z3's witnesses pass the gateway's value validation: an email without an @ was emitted)."""
    path = str(ROOT / "worlds" / f"{world}.world")
    out = tmp_path / "t.jsonl"
    assert main(["sample", path, "--hops", str(hops), "-n", str(count), "--seed", "1", "--workers", "2", "-o", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == count
    capsys.readouterr()
    code = main(["verify", path, str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert f"{count} of {count} tasks verified" in err
