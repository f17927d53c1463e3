"""Sampling: tasks verify, output is deterministic for any number of workers, hand edits are
caught, checkers score final states, and the CLI finds worlds and writes atomically."""

import copy
import json
from pathlib import Path

import pytest

from compoworld_dsl.cli import main
from compoworld_dsl.sample import checker as C
from compoworld_dsl.sample.run import Job, load_sampler, run
from compoworld_dsl.sample.sampler import Rejected, verify_task

ROOT = Path(__file__).resolve().parent.parent
TOY = str(ROOT / "worlds" / "toy.world")


@pytest.fixture(scope="module")
def toy():
    return load_sampler(TOY)


@pytest.fixture(scope="module")
def toy_tasks(toy):
    tasks, i = [], 0
    while len(tasks) < 8 or all(t["answer"] is None for t in tasks):  # one with an answer, for "drop the answer"
        try:
            tasks.append(toy.task(11, i, 4))
        except Rejected:
            pass
        i += 1
    return tasks


def test_tasks_are_walks_that_verify(toy, toy_tasks):
    for task in toy_tasks:
        assert verify_task(toy, task) == []
        assert len(task["reference_plan"]) == task["hops"] == 4
        assert len({step["tool"].split(".")[0] for step in task["reference_plan"]}) >= 2
        # every step after the first takes a value an earlier step produced, or one the instruction gives
        assert any(src.startswith("step") for b in task["bindings"][1:] for src in b.values())
        assert "sequential-dependency" in task["capabilities"]
        assert task["proofs"]["walk_satisfiable"]["result"] == "sat"
        assert task["proofs"]["empty_plan_fails"]["failed"]


def test_discovered_values_are_not_revealed(toy_tasks):
    for task in toy_tasks:
        for k, (binding, step) in enumerate(zip(task["bindings"], task["reference_plan"])):
            for name, src in binding.items():
                value = step["arguments"][name]
                if src.startswith("step") and isinstance(value, str) and len(value) > 4:
                    # goal-level tasks: a value an earlier result gives is nowhere in the instruction
                    assert value not in task["instruction"], (task["id"], name, task["instruction"])


def test_same_seed_same_bytes_for_any_number_of_workers(tmp_path):
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    run(Job(TOY, 3, 6, 5), a)
    run(Job(TOY, 3, 6, 5), b)
    run(Job(TOY, 3, 6, 5, workers=2), c)
    assert a.read_bytes() == b.read_bytes() == c.read_bytes()
    assert len(a.read_text().splitlines()) == 6
    d = tmp_path / "d.jsonl"
    run(Job(TOY, 3, 6, 6), d)
    assert d.read_bytes() != a.read_bytes()


@pytest.mark.parametrize("edit", ["drop a step", "change an argument", "loosen the checker", "edit an expected value", "drop the answer"])
def test_verify_catches_hand_edits(toy, toy_tasks, edit):
    task = copy.deepcopy(next(t for t in toy_tasks if t["answer"] is not None or edit != "drop the answer"))
    if edit == "drop a step":
        task["reference_plan"] = task["reference_plan"][:-1]
    elif edit == "change an argument":
        args = task["reference_plan"][0]["arguments"]
        name = next(iter(args))
        args[name] = "zzz" if isinstance(args[name], str) else args[name] + 1
    elif edit == "loosen the checker":
        task["checker"]["checks"] = [c for c in task["checker"]["checks"] if c["kind"] == "no_collateral"]
    elif edit == "edit an expected value":
        check = next(c for c in task["checker"]["checks"] if c["kind"] in ("row_inserted", "row_updated"))
        field = next(iter(check["fields"]))
        check["fields"][field] = "something else"
    else:
        task["answer"] = None
    assert verify_task(toy, task) != []


def test_score_gives_partial_credit_and_names_failed_checks(toy, toy_tasks):
    task = toy_tasks[0]
    world = toy.world
    state0 = world.initial_state(task["initial_state"]["seed"])
    final = state0.snapshot()
    for step in task["reference_plan"][:-1]:  # all but the last step
        assert world.call(final, step["tool"], step["arguments"])["success"]
    result = C.score(world, task["checker"]["checks"], state0, final, None, [])
    assert result["reward"] == 0
    assert 0 <= result["partial"] < 1
    assert result["failed"] and all({"id", "kind", "reason"} <= set(f) for f in result["failed"])


def test_collateral_damage_fails_the_checker(toy, toy_tasks):
    task = toy_tasks[0]
    world = toy.world
    state0 = world.initial_state(task["initial_state"]["seed"])
    final = state0.snapshot()
    calls = []
    for step in task["reference_plan"]:
        assert world.call(final, step["tool"], step["arguments"])["success"]
        calls.append((step["tool"], step["arguments"]))
    assert C.score(world, task["checker"]["checks"], state0, final, task["answer"], calls)["reward"] == 1
    # one extra, unasked-for change
    assert world.call(final, "files.write_file", {"folder": "/tmp", "name": "stray", "body": "x"})["success"]
    result = C.score(world, task["checker"]["checks"], state0, final, task["answer"], calls)
    assert result["reward"] == 0
    assert [f["kind"] for f in result["failed"]] == ["no_collateral"]


def test_cli_sample_and_verify(tmp_path, capsys):
    out = tmp_path / "tasks.jsonl"
    assert main(["sample", TOY, "--hops", "3", "-n", "4", "--seed", "0x2a", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "reproduce with: worldc sample" in err and "--seed 0x2a" in err
    lines = out.read_text().splitlines()
    assert len(lines) == 4 and all(json.loads(x)["hops"] == 3 for x in lines)
    assert main(["verify", TOY, str(out)]) == 0
    # a broken line is named, and verify fails
    bad = json.loads(lines[0])
    bad["reference_plan"] = []
    out.write_text("\n".join([json.dumps(bad)] + lines[1:]) + "\n")
    assert main(["verify", TOY, str(out)]) == 1
    assert f"task {bad['id']}" in capsys.readouterr().err


def test_cli_finds_the_world_or_says_why(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["sample", "--hops", "2", "-n", "1"]) == 2
    assert "no world here" in capsys.readouterr().err
    assert main(["compile", TOY]) == 0
    capsys.readouterr()
    assert main(["sample", "--hops", "2", "-n", "1", "-o", "t.jsonl"]) == 0
    assert "compiled into build" in capsys.readouterr().err
    assert (tmp_path / "t.jsonl").exists()


def test_unknown_capability_and_bad_seed_are_usage_errors(capsys):
    assert main(["sample", TOY, "--capabilities", "telepathy"]) == 2
    assert main(["sample", TOY, "--seed", "banana"]) == 2


def test_capability_filter(tmp_path):
    out = tmp_path / "r.jsonl"
    report = run(Job(str(ROOT / "worlds" / "legal_ops.world"), 3, 2, 1, ("ranked-selection",)), out)
    tasks = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(tasks) == report.emitted == 2
    assert all("ranked-selection" in t["capabilities"] for t in tasks)


@pytest.fixture(scope="module")
def legal():
    return load_sampler(str(ROOT / "worlds" / "legal_ops.world"))


@pytest.mark.xfail(strict=False, reason="written for format-1 tasks (plans read aloud); to be rewritten for goal-level tasks, issue 11")
def test_conditional_tasks_prove_the_other_branch_fails(legal):
    toy = legal  # the law firm's enums (matter status, disbursement status) make real conditions
    found = []
    for i in range(40):
        try:
            t = toy.task(3, i, 3)
        except Rejected:
            continue
        if t["branch"]:
            found.append(t)
        if len(found) == 2:
            break
    assert found, "no conditional task in 40 attempts"
    for t in found:
        assert "conditional-branching" in t["capabilities"]
        assert verify_task(toy, t) == []
        assert t["proofs"]["branch_not_taken_fails"]["failed"]
        line = t["instruction"].splitlines()[t["branch"]["step"]]
        assert line.split(". ", 1)[1].startswith("If the ") and "; otherwise " in line
        # swapping the branches makes the reference plan the one that fails
        edited = copy.deepcopy(t)
        edited["branch"]["other_branch"]["plan"] = [t["reference_plan"][-1]]
        assert verify_task(toy, edited) != []


def _attempt(sampler, seed, i, hops):
    """The task, or the reason it was rejected."""
    try:
        return sampler.task(seed, i, hops)
    except Rejected as r:
        return r.reason


def test_a_task_does_not_depend_on_what_the_process_built_before(toy):
    def attempt(i):
        return _attempt(toy, 21, i, 3)

    first = [attempt(i) for i in (4, 5)]
    for i in range(6, 14):
        attempt(i)
    assert [attempt(i) for i in (4, 5)] == first


def test_output_does_not_depend_on_the_working_folder(tmp_path, monkeypatch):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    monkeypatch.chdir(ROOT)
    run(Job("worlds/toy.world", 3, 3, 9), a)
    monkeypatch.chdir(tmp_path)
    run(Job(TOY, 3, 3, 9), b)
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.xfail(strict=False, reason="written for format-1 tasks (plans read aloud); to be rewritten for goal-level tasks, issue 11")
def test_verify_catches_a_house_rule_removed_everywhere(toy, toy_tasks):
    task = copy.deepcopy(next(t for t in toy_tasks if t["constraints"]))
    name = task["constraints"][0]["name"]
    task["constraints"] = task["constraints"][1:]
    checks = [c for c in task["checker"]["checks"] if c.get("constraint") != name]
    for i, c in enumerate(checks):
        c["id"] = f"c{i + 1}"
    task["checker"]["checks"] = checks
    assert "the attached constraints are not the ones the world's rules give for this plan" in verify_task(toy, task)


@pytest.mark.xfail(strict=False, reason="written for format-1 tasks (plans read aloud); to be rewritten for goal-level tasks, issue 11")
def test_verify_catches_a_flipped_branch(legal):
    for i in range(40):
        try:
            t = legal.task(3, i, 3)
        except Rejected:
            continue
        if t["branch"]:
            break
    else:
        pytest.skip("no conditional task")
    t = copy.deepcopy(t)
    t["branch"]["taken"] = "else" if t["branch"]["taken"] == "then" else "then"
    assert "the branch taken does not follow from the condition on the replayed state" in verify_task(legal, t)


@pytest.mark.xfail(strict=False, reason="written for format-1 tasks (plans read aloud); to be rewritten for goal-level tasks, issue 11")
def test_idempotency_requests_are_already_satisfied(toy):
    found = None  # about one attempt in four asks, and about a third of those find such a call
    for i in range(100):
        try:
            t = toy.task(5, i, 3)
        except Rejected:
            continue
        if t["idempotent"]:
            found = t
            break
    assert found is not None, "no idempotency-check task in 100 attempts"
    assert "idempotency-check" in found["capabilities"]
    assert found["instruction"].splitlines()[found["hops"] + 1].split(". ", 1)[1].startswith("Make sure to ")
    assert found["idempotent"]["tool"] not in {s["tool"] for s in found["reference_plan"]}
    assert verify_task(toy, found) == []
    # a request that would change something is not idempotent, and verify says so
    edited = copy.deepcopy(found)
    args = edited["idempotent"]["arguments"]
    name = next(n for n, v in args.items() if isinstance(v, str))
    args[name] = "something-that-does-not-exist"
    assert "the idempotent request is not already satisfied after the reference plan" in verify_task(toy, edited)


ORDER_WORLD = """
type ThingId = id

service a "Things" {
  record Thing {
    key id: ThingId
    n: int
  }
  state things: table[Thing]
  seed things: 3 rows {
    n: 1..5
  }

  tool stamp(id: ThingId) -> ThingId
    say "stamp {id}"
  {
    require id in things else not_found "no thing {id}"
    update things[id] { n: 0 }
    return id
  }
}

service b "A log" {
  record Entry {
    key id: id
    thing: ThingId
  }
  state log: table[Entry]

  tool note(id: ThingId) -> int
    say "note {id}"
  {
    insert log { thing: id }
    return 1
  }
}

world w "Order" {
  constraint stamp_first "Note a thing only after stamping it" {
    order b.note after a.stamp on id
  }
}
"""


@pytest.mark.xfail(strict=False, reason="written for format-1 tasks (plans read aloud); to be rewritten for goal-level tasks, issue 11")
def test_ordering_tasks_carry_rules_no_precondition_enforces(tmp_path):
    path = tmp_path / "order.world"
    path.write_text(ORDER_WORLD)
    sampler = load_sampler(str(path))
    task = sampler.task(0, 0, 2)
    assert [s["tool"] for s in task["reference_plan"]] == ["a.stamp", "b.note"]
    assert "ordering" in task["capabilities"]
    rule = next(c for c in task["checker"]["checks"] if c["kind"] == "order")
    assert rule["tool"] == "b.note" and rule["after"] == "a.stamp"
    assert "Note a thing only after stamping it" in task["instruction"]
    assert verify_task(sampler, task) == []
    # noting without stamping first breaks the rule, whatever the final state
    world = sampler.world
    state0 = world.initial_state(task["initial_state"]["seed"])
    final = state0.snapshot()
    note, stamp = task["reference_plan"][1], task["reference_plan"][0]
    calls = [(note["tool"], note["arguments"]), (stamp["tool"], stamp["arguments"])]
    for tool, args in calls:
        assert world.call(final, tool, args)["success"]
    result = C.score(world, task["checker"]["checks"], state0, final, task["answer"], calls)
    assert [f["kind"] for f in result["failed"]] == ["order"]


@pytest.mark.xfail(strict=False, reason="written for format-1 tasks (plans read aloud); to be rewritten for goal-level tasks, issue 11")
def test_witnesses_are_replayed_by_verify(legal):
    """A rule shown non-trivial by a recorded witness plan: verify replays it, and a witness that
    does not break the rule (here, the reference plan's own calls) is caught."""
    for i in range(80):
        try:
            t = legal.task(5, i, 5)
        except Rejected:
            continue
        named = [n for n, p in t["proofs"]["constraints"].items() if "witness" in p]
        if named:
            break
    else:
        pytest.fail("no task with a witness in 80 attempts")
    assert verify_task(legal, t) == []
    edited = copy.deepcopy(t)
    edited["proofs"]["constraints"][named[0]]["witness"] = [c for c in t["reference_plan"] if c["tool"] in legal.mutating]
    assert any(named[0] in p and "witness" in p for p in verify_task(legal, edited))


def test_the_walk_proof_fails_on_arguments_that_break_a_precondition(legal):
    from fractions import Fraction

    from compoworld_dsl.sample.sampler import Step

    state0 = legal.world.initial_state(7)
    deposit = legal.model.services["billing"].tools["deposit_to_trust"]
    step = Step(deposit, {"matter": ("user", None), "amount": ("user", None)})
    matter = next(iter(state0.tables["billing.accounts"].values()))["matter"]
    assert legal.prove_walk(7, state0, [step], {(0, "matter"): matter, (0, "amount"): Fraction(250)}) > 0
    with pytest.raises(Rejected) as e:
        legal.prove_walk(7, state0, [step], {(0, "matter"): matter, (0, "amount"): Fraction(0)})
    assert e.value.reason == "unsat"


@pytest.mark.xfail(strict=False, reason="written for format-1 tasks (plans read aloud); to be rewritten for goal-level tasks, issue 11")
def test_tasks_whose_values_z3_chose_do_not_depend_on_history(legal):
    """Z3 binds a step only when no seeded draw runs; its question is built in a fresh context
    (Z3 orders a simplified term's arguments by term id, so a model depends on history): such a
    task comes out the same whatever the process built before it."""

    def attempt(i):
        return _attempt(legal, 9, i, 5)

    tasks = {i: attempt(i) for i in range(40)}
    chosen = [i for i, t in tasks.items() if isinstance(t, dict) and t["proofs"]["walk_satisfiable"]["z3_bindings"]]
    assert chosen, "no task in 40 attempts needed Z3 to bind a step"
    for i in chosen:
        assert attempt(i) == tasks[i]  # right after itself
    # seed 11, attempt 48 binds a step with Z3; when its question was built in a context that
    # had seen other terms, it came out differently after other tasks (and across workers)
    alone = _attempt(legal, 11, 48, 5)
    assert alone["proofs"]["walk_satisfiable"]["z3_bindings"]
    for i in (47, 46):
        _attempt(legal, 11, i, 5)
        assert _attempt(legal, 11, 48, 5) == alone


def test_two_parameters_of_one_type_are_not_both_bound_to_one_result(legal):
    for i in range(30):
        try:
            t = legal.task(4, i, 4)
        except Rejected:
            continue
        for binding in t["bindings"]:
            sources = [s for s in binding.values() if s != "instruction"]
            assert len(sources) == len(set(sources)), binding


@pytest.mark.xfail(strict=False, reason="written for format-1 tasks (plans read aloud); to be rewritten for goal-level tasks, issue 11")
def test_a_large_world_samples_tasks_that_verify_and_seeds_only_what_walks_touch(tmp_path):
    """70 synthetic services (1,540 tools): the first step's candidates are drawn, not ordered
    (more than `LARGE` openers), a task's state holds only the tables its walk needed, and
    `verify` (from a whole initial state) accepts what the sampler made from a partial one."""
    import importlib.util

    from compoworld_dsl.sample.sampler import LARGE

    spec = importlib.util.spec_from_file_location("synth", ROOT / "bench" / "synth.py")
    synth = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(synth)
    synthetic_world = synth.synthetic_world

    path = tmp_path / "big.world"
    path.write_text(synthetic_world(70, "big"), encoding="utf-8")
    big = load_sampler(str(path))
    assert len(big._openers) > LARGE
    seeded: list[str] = []
    seed_tables = big.world.seed_tables

    def counting(st, seed, names):
        added = seed_tables(st, seed, names)
        seeded.extend(added)
        return added

    big.world.seed_tables = counting
    tasks = [t for t in (_attempt(big, 1, i, 3) for i in range(8)) if isinstance(t, dict)]
    assert len(tasks) >= 3
    assert len(seeded) < 8 * 70 / 4  # far fewer than the world's 70 tables an attempt
    big.world.seed_tables = seed_tables
    for t in tasks:
        assert verify_task(big, t) == []
