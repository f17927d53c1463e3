"""A task whose world seeds other rows since it was sampled is named stale, not played on rows its
instruction does not describe (found by an agent playing office tasks sampled before a pool grew:
"the invitation to 'Month-end close' among the invitations of ..." was no longer there)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from compoworld_dsl.cli import main
from compoworld_dsl.gateway import Episode
from compoworld_dsl.runtime.state import State
from compoworld_dsl.runtime.world import StaleTask
from compoworld_dsl.sample.worker import load_sampler

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def sampled(tmp_path_factory):
    """Vet-clinic tasks (a world with no stdlib, so a copy can be edited), and an edited copy of
    the world whose owners are seeded one more or fewer."""
    d = tmp_path_factory.mktemp("stale")
    world = d / "vet_clinic.world"
    shutil.copy(ROOT / "worlds" / "vet_clinic.world", world)
    out = d / "tasks.jsonl"
    assert main(["sample", str(world), "--hops", "3", "-n", "3", "--seed", "4", "-o", str(out)]) == 0
    edited = d / "edited" / "vet_clinic.world"
    edited.parent.mkdir()
    text = world.read_text(encoding="utf-8")
    assert "seed owners: 5..8 rows" in text
    edited.write_text(text.replace("seed owners: 5..8 rows", "seed owners: 9..12 rows"), encoding="utf-8")
    return world, edited, out, [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]


def test_tasks_record_the_digest_of_their_seeded_state(sampled):
    world, _, _, tasks = sampled
    facts = load_sampler(str(world)).facts
    w = facts.world
    for task in tasks:
        state = w.initial_state(task["initial_state"]["seed"])
        digest = task["initial_state"]["digest"]
        assert digest and all(state.digest(n) == d for n, d in digest.items())
        # the tables the task reads are named: those of its reference plan's tools' services
        assert {t for c in task["reference_plan"] for t in facts.tool_tables[c["tool"]]} <= set(digest)
        Episode(w).reset(task)  # the world it was sampled on plays it


def test_a_world_that_seeds_other_rows_names_the_task_stale(sampled, capsys):
    world, edited, out, tasks = sampled
    w = load_sampler(str(edited)).facts.world
    mounting = [t for t in tasks if "owners.owners" in t["initial_state"]["digest"]]
    assert mounting, "no task read the edited table: the test shows nothing"
    for task in mounting:
        with pytest.raises(StaleTask, match="sampled on another version of world `vet_clinic`: .* other rows for .*`owners.owners`"):
            Episode(w).reset(task)
    capsys.readouterr()
    code = main(["verify", str(edited), str(out)])
    err = capsys.readouterr().err
    assert code != 0
    assert "initial_state.digest" in err and "sample the task again" in err, err
    assert "Traceback" not in err
    # the same tasks on the world they came from verify
    assert main(["verify", str(world), str(out)]) == 0


def test_a_task_from_before_the_digest_is_not_checked(sampled):
    _, edited, _, tasks = sampled
    w = load_sampler(str(edited)).facts.world
    old = json.loads(json.dumps(tasks[0]))
    del old["initial_state"]["digest"]
    Episode(w).reset(old)  # no digest, nothing to compare: played as before


def test_the_digest_reads_the_data_of_what_it_names():
    a = State({"a.t": {1: {"x": 1, "y": "p"}}, "b.u": {1: {"z": 2}}}, {"a.today": 3}, {"a.t": 1})
    reordered = State({"a.t": {1: {"y": "p", "x": 1}}, "b.u": {1: {"z": 9}}}, {"a.today": 3}, {"a.t": 1})
    assert a.digest("a.t") == reordered.digest("a.t")  # field order is not data
    assert a.digest("b.u") != reordered.digest("b.u")
    changed = State({"a.t": {1: {"x": 2, "y": "p"}}}, {"a.today": 3}, {"a.t": 1})
    assert a.digest("a.t") != changed.digest("a.t")
    swapped = State({"a.t": {2: {"x": 1, "y": "p"}, 1: {"x": 1, "y": "p"}}}, {}, {"a.t": 1})
    listed = State({"a.t": {1: {"x": 1, "y": "p"}, 2: {"x": 1, "y": "p"}}}, {}, {"a.t": 1})
    assert swapped.digest("a.t") != listed.digest("a.t")  # a table's order is data: lists follow it
    counted = State({"a.t": {1: {"x": 1, "y": "p"}}}, {"a.today": 3}, {"a.t": 2})
    assert a.digest("a.t") != counted.digest("a.t")  # so is the next id a table gives
    moved = State({"a.t": {1: {"x": 1, "y": "p"}}}, {"a.today": 4}, {"a.t": 1})
    assert a.digest("a") != moved.digest("a") and a.digest("a.t") == moved.digest("a.t")  # a service's scalars
