"""Sampling: tasks verify, output is deterministic for any number of workers, hand edits are
caught, checkers score final states, and the CLI finds worlds and writes atomically."""

import copy
import json
import re
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
    # one with an answer, for "drop the answer": toy's one-thread walks of 4 steps end in writes
    # (their reads feed the next step), so that one may hold two errands, a read left to report
    while len(tasks) < 8 or all(t["answer"] is None for t in tasks):
        assert i < 400, f"{len(tasks)} toy tasks, none with an answer, in {i} attempts"
        try:
            tasks.append(toy.task(11, i, 4, threads=1 if len(tasks) < 8 else 2))
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
        args = next(c["arguments"] for c in task["reference_plan"] if c["arguments"])
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
    # branches are about one task in five at 3 hops; seed 3 finds two within the attempt limit
    report = run(Job(str(ROOT / "worlds" / "legal_ops.world"), 3, 2, 3, ("conditional-branching",)), out)
    tasks = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(tasks) == report.emitted == 2 and report.rejected["filtered"] > 0
    assert all("conditional-branching" in t["capabilities"] for t in tasks)


@pytest.fixture(scope="module")
def legal():
    return load_sampler(str(ROOT / "worlds" / "legal_ops.world"))


def _first(sampler, seed, hops, attempts, wanted, what):
    """The first task of a run (seed, hops) that is `wanted`, within `attempts` attempts."""
    for i in range(attempts):
        t = _attempt(sampler, seed, i, hops)
        if isinstance(t, dict) and wanted(t):
            return t
    pytest.fail(f"no {what} in {attempts} attempts")


def _conditional(sampler):
    return _first(sampler, 3, 3, 60, lambda t: t["branch"], "conditional task")


def test_conditional_tasks_prove_the_other_branch_fails(legal):
    t = _conditional(legal)
    assert "conditional-branching" in t["capabilities"]
    assert verify_task(legal, t) == []
    assert t["proofs"]["branch_not_taken_fails"]["failed"]
    # (joined to the goal before as a manager would: "Once that is done, if ...", phrasing._THEN)
    assert re.search(r"(^|\. )((Once that is done|After that), i|I)f .+, .+; otherwise .+", t["instruction"]), t["instruction"]
    # the condition is read, not fixed by the plan: the step it reads changes nothing
    assert t["reference_plan"][t["branch"]["if"]["step"] - 1]["tool"] not in legal.mutating
    # swapping the branches makes the reference plan the one that fails: verify notices
    edited = copy.deepcopy(t)
    edited["branch"]["other_branch"]["plan"] = [t["reference_plan"][-1]]
    assert verify_task(legal, edited) != []


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


@pytest.fixture(scope="module")
def ruled(legal):
    """A legal_ops task with a load-bearing house rule attached."""
    return _first(legal, 9, 5, 200, lambda t: t["constraints"], "task with a house rule")


def test_verify_catches_a_house_rule_removed_everywhere(legal, ruled):
    task = copy.deepcopy(ruled)
    name = task["constraints"][0]["name"]
    task["constraints"] = task["constraints"][1:]
    checks = [c for c in task["checker"]["checks"] if c.get("constraint") != name]
    for i, c in enumerate(checks):
        c["id"] = f"c{i + 1}"
    task["checker"]["checks"] = checks
    problems = verify_task(legal, task)
    assert any(p.startswith("constraints") for p in problems), problems
    assert any(p.startswith("checker") for p in problems), problems


def test_verify_catches_a_flipped_branch(legal):
    t = copy.deepcopy(_conditional(legal))
    t["branch"]["taken"] = "else" if t["branch"]["taken"] == "then" else "then"
    assert any(p.startswith("branch.taken") for p in verify_task(legal, t))


def test_idempotency_requests_are_already_satisfied(legal):
    # about one attempt in four asks, and most of those find such a call
    found = _first(legal, 5, 3, 100, lambda t: t["idempotent"], "idempotency-check task")
    assert "idempotency-check" in found["capabilities"]
    assert "make sure to " in found["instruction"].lower()
    # the record it names is described, never given by its id
    assert not any(isinstance(v, str) and v in found["instruction"] for v in found["idempotent"]["arguments"].values())
    assert found["idempotent"]["tool"] not in {s["tool"] for s in found["reference_plan"]}
    assert verify_task(legal, found) == []
    # a request that would change something is not idempotent, and verify says so
    edited = copy.deepcopy(found)
    args = edited["idempotent"]["arguments"]
    name = next(n for n, v in args.items() if isinstance(v, str))
    args[name] = "something-that-does-not-exist"
    assert "the idempotent request is not already satisfied after the reference plan" in verify_task(legal, edited)


ORDER_WORLD = """
type ThingId = id

service a "Things" {
  record Thing known by name {
    key id: ThingId
    name: text
    n: int
  }
  state things: table[Thing]
  seed things: 3 rows {
    name: pick(["red", "green", "blue"])
    n: 1..5
  }

  tool find_things(name: text) -> list[Thing]
    say "find the things named {name}"
    gives "the things named {name}"
  {
    return filter(t in things where t.name == name)
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


def test_ordering_tasks_carry_rules_no_precondition_enforces(tmp_path):
    path = tmp_path / "order.world"
    path.write_text(ORDER_WORLD)
    sampler = load_sampler(str(path))
    task = next(t for t in (_attempt(sampler, 0, i, 3) for i in range(40)) if isinstance(t, dict) and t["constraints"])
    assert [s["tool"] for s in task["reference_plan"]] == ["a.find_things", "a.stamp", "b.note"]
    assert "ordering" in task["capabilities"]
    rule = next(c for c in task["checker"]["checks"] if c["kind"] == "order")
    assert rule["tool"] == "b.note" and rule["after"] == "a.stamp"
    assert "Note a thing only after stamping it" in task["instruction"]
    assert task["proofs"]["constraints"]["stamp_first"]["load_bearing"]["calls_in_order"] == [1, 3, 2]
    assert verify_task(sampler, task) == []
    # noting without stamping first breaks the rule, whatever the final state
    world = sampler.world
    state0 = world.initial_state(task["initial_state"]["seed"])
    final = state0.snapshot()
    find, stamp, note = task["reference_plan"]
    calls = [(c["tool"], c["arguments"]) for c in (find, note, stamp)]
    for tool, args in calls:
        assert world.call(final, tool, args)["success"]
    result = C.score(world, task["checker"]["checks"], state0, final, task["answer"], calls)
    assert [f["kind"] for f in result["failed"]] == ["order"]


def test_edited_rule_proofs_are_caught_by_verify(legal, ruled):
    """The proof that a rule is load-bearing is rebuilt by verify: an edited one differs."""
    assert verify_task(legal, ruled) == []
    edited = copy.deepcopy(ruled)
    name = edited["constraints"][0]["name"]
    edited["proofs"]["constraints"][name]["load_bearing"] = {"look_alikes": []}
    assert any(p.startswith(f"proofs.constraints.{name}") for p in verify_task(legal, edited))


def test_the_walk_proof_fails_on_arguments_that_break_a_precondition(legal):
    from fractions import Fraction

    from compoworld_dsl.sample.attempt import Attempt
    from compoworld_dsl.sample.sampler import Step
    from compoworld_dsl.sample.solve import prove_walk

    state0 = legal.world.initial_state(7)
    deposit = legal.model.services["billing"].tools["deposit_to_trust"]
    step = Step(deposit, {"matter": ("user", None), "amount": ("user", None)})
    matter = next(iter(state0.tables["billing.accounts"].values()))["matter"]
    assert prove_walk(legal.facts, Attempt(7), 7, state0, [step], {(0, "matter"): matter, (0, "amount"): Fraction(250)}) > 0
    with pytest.raises(Rejected) as e:
        prove_walk(legal.facts, Attempt(7), 7, state0, [step], {(0, "matter"): matter, (0, "amount"): Fraction(0)})
    assert e.value.reason == "unsat"


def test_values_z3_chooses_do_not_depend_on_history(legal):
    """Z3 binds a step only when no seeded draw runs; its question is built in a fresh context
    (Z3 orders a simplified term's arguments by term id, so a model depends on history): the
    values it chooses are the same whatever the process built before."""
    state = legal.world.initial_state(11)
    deposit = legal.model.services["billing"].tools["deposit_to_trust"]
    matter = next(iter(state.tables["billing.accounts"].values()))["matter"]
    from compoworld_dsl.sample.attempt import Attempt
    from compoworld_dsl.sample.bindings import _z3_bind

    first = _z3_bind(legal.facts, Attempt(11), 11, state, deposit, {"matter": matter}, 0)
    assert first[0] is not None, first
    for i in range(6):  # other tasks build other terms in between
        _attempt(legal, 11, i, 5)
    assert _z3_bind(legal.facts, Attempt(11), 11, state, deposit, {"matter": matter}, 0) == first


def test_two_parameters_of_one_type_are_not_both_bound_to_one_result(legal):
    for i in range(30):
        try:
            t = legal.task(4, i, 4)
        except Rejected:
            continue
        for binding in t["bindings"]:
            sources = [s for s in binding.values() if s != "instruction"]
            assert len(sources) == len(set(sources)), binding


def test_a_large_world_samples_tasks_that_verify_and_seeds_only_what_walks_touch(tmp_path):
    """70 synthetic services (1,540 tools, records without `known by`: each is known by its
    first text field): a task's state holds only the tables its walk needed, and `verify` (from
    a whole initial state) accepts what the sampler made from a partial one."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("synth", ROOT / "bench" / "synth.py")
    synth = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(synth)
    synthetic_world = synth.synthetic_world

    path = tmp_path / "big.world"
    path.write_text(synthetic_world(70, "big"), encoding="utf-8")
    big = load_sampler(str(path))
    assert len(big.walker.entries) > 100
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


def test_one_seed_at_other_hop_counts_starts_elsewhere():
    """Tasks of one run seed and attempt at 3 and at 5 hops do not share their first step (the
    attempt's random stream includes the hop count)."""
    legal = load_sampler(str(ROOT / "worlds" / "legal_ops.world"))
    pairs = []
    for i in range(60):
        try:
            pairs.append((legal.task(1, i, 3), legal.task(1, i, 5)))
        except Rejected:
            continue
    assert len(pairs) >= 5
    assert sum(1 for a, b in pairs if a["reference_plan"][:2] == b["reference_plan"][:2]) == 0
