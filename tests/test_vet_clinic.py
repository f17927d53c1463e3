"""The veterinary clinic world: it checks with no diagnostics at all, is formatted, compiles, says
how a person knows its rows and what its reads give, and the sampler makes tasks that verify."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.cli import main
from compoworld_dsl.syntax import ast as A

ROOT = Path(__file__).resolve().parent.parent
VET = ROOT / "worlds" / "vet_clinic.world"


@pytest.fixture(scope="module")
def program():
    return check_paths([VET])


def test_checks_with_no_diagnostics(program):
    assert program.diagnostics == [], "\n".join(f"{d.span}: {d.code} {d.message}" for d in program.diagnostics)
    model = program.model
    assert model.world.name == "vet_clinic"
    assert sorted(model.world.services) == ["appointments", "billing", "owners", "patients", "pharmacy"]
    assert {c.name for c in model.world.constraints} == {
        "hands_off_deceased",
        "countersign_controlled",
        "small_write_offs",
        "remind_before_write_off",
        "check_visit_before_billing",
    }
    for name in model.world.services:
        assert 8 <= len(model.services[name].tools) <= 12, name


def test_rows_have_nouns_and_reads_say_what_they_give(program):
    for svc in program.model.services.values():
        stored = {m.type.elem.name for m in svc.decl.members if isinstance(m, A.StateDecl) and isinstance(m.type, A.TableType)}
        records = {m.name: m for m in svc.decl.members if isinstance(m, A.RecordDecl)}
        assert stored and stored <= set(records), svc.name
        for name in stored:
            assert records[name].noun and records[name].known_by, (svc.name, name)
        for tool in svc.tools.values():
            assert tool.decl.say, tool.qualified
            changes = tool.writes or tool.inserts or tool.deletes
            if not changes and tool.decl.result is not None:
                assert tool.decl.gives, tool.qualified


def test_is_formatted():
    assert main(["fmt", "--check", str(VET)]) == 0


def test_compiles(tmp_path):
    out = tmp_path / "vet_build"
    assert main(["compile", str(VET), "-o", str(out)]) == 0
    assert (out / "world.py").is_file()


def test_sampled_tasks_verify(tmp_path, capsys):
    out = tmp_path / "vet.jsonl"
    assert main(["sample", str(VET), "--hops", "3", "-n", "10", "--seed", "1", "-o", str(out)]) == 0
    tasks = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(tasks) == 10
    assert all(len(t["reference_plan"]) >= 3 for t in tasks)
    capsys.readouterr()
    code = main(["verify", str(VET), str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "10 of 10 tasks verified" in err
