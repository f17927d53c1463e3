"""Every task the sampler writes fits the task schema (compoworld_dsl/schemas/task.schema.json,
docs/task-format.md), and the schema is strict enough to reject a record that lost a required
field or carries a check kind the scorer does not know.

Tasks are sampled in-process from each bundled world, a few per hop count, under a small
attempt budget, so the whole module stays within a few seconds."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import CAPABILITIES, Rejected, verify_task

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "compoworld_dsl" / "schemas" / "task.schema.json"  # package data: installed with worldc
WORLDS = sorted((ROOT / "worlds").glob("*.world"))
HOPS = (1, 3, 5)
PER_HOPS = 2  # tasks kept per (world, hops)
ATTEMPTS = 12  # attempts tried per (world, hops) at most
SEED = 20250317


@pytest.fixture(scope="module")
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator(schema) -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


@pytest.fixture(scope="module")
def sampled() -> dict[str, list[dict]]:
    """world name → tasks, sampled as `worldc sample` would (and round-tripped through JSON)."""
    out: dict[str, list[dict]] = {}
    for path in WORLDS:
        sampler = load_sampler(str(path))
        tasks = []
        for hops in HOPS:
            kept = 0
            for index in range(ATTEMPTS):
                try:
                    task = sampler.task(SEED, index, hops)
                except Rejected:
                    continue
                tasks.append(json.loads(json.dumps(task, ensure_ascii=False)))
                kept += 1
                if kept == PER_HOPS:
                    break
        out[path.stem] = tasks
    return out


def _errors(validator, record) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '(record)'}: {e.message[:300]}" for e in validator.iter_errors(record)]


def test_schema_is_valid_draft_2020_12(schema):
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"]
    assert schema["$defs"]["capability"]["enum"] == list(CAPABILITIES)


def test_every_bundled_world_yields_tasks(sampled):
    assert set(sampled) == {p.stem for p in WORLDS}
    for world, tasks in sampled.items():
        assert tasks, f"no task sampled from worlds/{world}.world in {len(HOPS) * ATTEMPTS} attempts"


def test_sampled_tasks_fit_the_schema(sampled, validator):
    problems = []
    for tasks in sampled.values():
        for task in tasks:
            problems += [f"{task.get('id')}: {e}" for e in _errors(validator, task)]
    assert not problems, "\n".join(problems)


def test_sampled_tasks_keep_the_facts_the_schema_cannot_state(sampled):
    """Cross-field facts documented in docs/task-format.md."""
    for tasks in sampled.values():
        for t in tasks:
            tid = t["id"]
            assert t["seed"] == t["initial_state"]["seed"], tid
            assert t["hops"] == len(t["reference_plan"]) == len(t["bindings"]) == len(t["found_by"]), tid
            assert t["id"].startswith(f"{t['world'] or 'world'}-h{t['hops']}-s{SEED}-"), tid
            assert t["services"] == sorted({c["tool"].split(".")[0] for c in t["reference_plan"] + t["lookups"]}), tid
            assert [c["before"] for c in t["lookups"]] == sorted(c["before"] for c in t["lookups"]), tid
            assert not set(t["services"]) & set(t["distractors"]), tid
            assert t["capabilities"] == [c for c in CAPABILITIES if c in t["capabilities"]], tid
            for call, binding in zip(t["reference_plan"], t["bindings"]):
                assert set(binding) == set(call["arguments"]), tid
            checks = t["checker"]["checks"]
            assert [c["id"] for c in checks] == [f"c{i + 1}" for i in range(len(checks))], tid
            rule_checks = [c for c in checks if c["kind"] in ("constraint", "order")]
            assert [c["constraint"] for c in rule_checks] == [c["name"] for c in t["constraints"]], tid
            assert set(t["proofs"]["constraints"]) == {c["name"] for c in t["constraints"]}, tid
            answers = [c for c in checks if c["kind"] == "answer"]
            assert len(answers) == len(t["reports"]) and checks[len(checks) - len(answers) :] == answers, tid
            assert all(1 <= r["step"] <= t["hops"] for r in t["reports"]), tid
            if len(answers) == 1:
                assert answers[0]["value"] == t["answer"], tid
            elif answers:  # "tell me X, Y and Z": one value per label
                assert t["answer"] == {c["label"]: c["value"] for c in answers}, tid
            else:
                assert t["answer"] is None, tid
            assert t["proofs"]["reference_passes"] == {"reward": 1, "checks": len(checks)}, tid
            assert set(t["proofs"]["empty_plan_fails"]["failed"]) <= {c["id"] for c in checks}, tid
            branch = t.get("branch")
            assert (branch is not None) == ("branch_not_taken_fails" in t["proofs"]) == ("conditional-branching" in t["capabilities"]), tid
            if branch is not None:
                assert branch["step"] == t["hops"] and branch["if"]["step"] < branch["step"], tid
                assert branch["other_branch"]["plan"][0]["tool"] == branch["other_branch"]["tool"], tid
                assert set(t["proofs"]["branch_not_taken_fails"]["failed"]) <= {c["id"] for c in checks}, tid


# ─────────────────────────── the schema rejects what it should ───────────────────────────


@pytest.fixture(scope="module")
def example(sampled) -> dict:
    return next(t for tasks in sampled.values() for t in tasks)


REQUIRED = ["id", "world", "seed", "hops", "services", "distractors", "instruction", "capabilities", "initial_state", "reference_plan", "checker", "constraints", "proofs"]


@pytest.mark.parametrize("field", REQUIRED)
def test_a_record_missing_a_required_field_fails(validator, example, field):
    bad = copy.deepcopy(example)
    del bad[field]
    assert not validator.is_valid(bad)
    assert validator.is_valid(example)


def test_an_unknown_check_kind_fails(validator, example):
    bad = copy.deepcopy(example)
    bad["checker"]["checks"].insert(0, {"kind": "row_touched", "table": "tasks.tasks", "key": "task-1", "id": "c0"})
    assert not validator.is_valid(bad)


@pytest.mark.parametrize(
    "mutate",
    [
        pytest.param(lambda t: t["checker"]["checks"][0].pop("id"), id="check-without-id"),
        pytest.param(lambda t: t["checker"]["checks"].append({"kind": "answer", "id": "c99"}), id="answer-without-value"),
        pytest.param(lambda t: t["checker"]["checks"].append({"kind": "row_deleted", "table": "tasks.tasks", "id": "c99"}), id="row_deleted-without-key"),
        pytest.param(lambda t: t["checker"]["checks"].append({"kind": "no_collateral", "id": "c99"}), id="two-no_collateral"),
        pytest.param(lambda t: t["checker"]["checks"].append({"kind": "constraint", "constraint": "x", "id": "c99", "extra": 1}), id="check-with-extra-field"),
        pytest.param(lambda t: t.update(capabilities=["time-travel"]), id="unknown-capability"),
        pytest.param(lambda t: t.update(extra=True), id="unknown-top-level-field"),
        pytest.param(lambda t: t["constraints"].append({"kind": "order", "name": "r", "description": ""}), id="order-constraint-without-tools"),
        pytest.param(lambda t: t["reference_plan"].clear(), id="empty-plan"),
        pytest.param(lambda t: t["bindings"].append({"x": "the user"}), id="bad-binding-source"),
        pytest.param(lambda t: t.update(branch={"step": 3, "taken": "maybe"}), id="malformed-branch"),
    ],
)
def test_malformed_records_fail(validator, example, mutate):
    bad = copy.deepcopy(example)
    mutate(bad)
    assert not validator.is_valid(bad)


def test_the_optional_fields_and_the_rarer_check_kinds_fit(validator, example):
    """bindings and answer may be left out; an order rule with its check, and a row_deleted
    check, fit their own branches (both are rare in small samples, so they are added here to a
    sampled record)."""
    t = copy.deepcopy(example)
    del t["bindings"], t["answer"]
    t["checker"]["checks"].append({"kind": "row_deleted", "table": "files.files", "key": "file-3", "id": "c98"})
    rule = {"kind": "order", "name": "pay_after_approval", "description": "A disbursement is paid only after it has been approved", "tool": "billing.pay_disbursement", "after": "billing.approve_disbursement", "on": ["id"]}
    t["constraints"].append(rule)
    t["checker"]["checks"].append({k: v for k, v in rule.items() if k not in ("kind", "name", "description")} | {"kind": "order", "constraint": rule["name"], "id": "c99"})
    t["proofs"]["constraints"][rule["name"]] = {"non_trivial": "sat: billing.pay_disbursement can run without billing.approve_disbursement first", "kept_by_reference": True}
    assert _errors(validator, t) == []


def test_the_documented_examples_are_real_tasks(validator):
    """docs/task-format.md shows line 1 of `worldc sample worlds/toy.world --hops 3 -n 10 --seed 2`
    (docs/sampling.md traces the same task) and a `branch` from legal_ops. The example must stay a
    real task: valid, and verified by today's world and sampler — which rebuilds it and compares
    every field, so a change to the sampler that changes this task must update the docs too."""
    doc = (ROOT / "docs" / "task-format.md").read_text(encoding="utf-8")
    blocks, at = [], 0
    while (at := doc.find("```json\n", at)) >= 0:
        at += len("```json\n")
        blocks.append(json.loads(doc[at : doc.index("```", at)]))
    shown, branch = blocks
    assert _errors(validator, shown) == []
    toy = load_sampler(str(ROOT / "worlds" / "toy.world"))
    assert verify_task(toy, shown) == []
    record = copy.deepcopy(shown)
    record["branch"] = branch
    assert _errors(validator, record) == []
