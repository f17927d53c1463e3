"""House rules that decide rewards: `untouched` covers rows added (Python and Z3 agree), values
the instruction leaves to the rules (a good agent's own wording passes, a lazy one fails), every
value the checker holds an agent to is stated, and `--rule-share` only lets tasks through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import z3

from compoworld_dsl.agents import call_step
from compoworld_dsl.gateway import Episode
from compoworld_dsl.sample import checker as C
from compoworld_dsl.sample.run import Job, load_sampler, run
from compoworld_dsl.sample.sampler import Rejected
from compoworld_dsl.smt.encode import assert_success, constraint_violated, pystr

ROOT = Path(__file__).resolve().parent.parent
LEGAL = str(ROOT / "worlds" / "legal_ops.world")


@pytest.fixture(scope="module")
def legal():
    return load_sampler(LEGAL)


def _info(s, name):
    return next(i for i in s.constraints if i["name"] == name)


# ─────────────────────────── untouched: rows added ───────────────────────────


def test_a_row_added_to_what_untouched_protects_breaks_the_rule(legal):
    """An email about a closed matter adds a row to that matter's messages: Python says the
    rule is broken, and Z3, asked for a send that breaks it, finds exactly the closed matters."""
    world = legal.world
    # the first seed with both a closed and an open matter (seed 0 had both until the seeds drew
    # matters as profiles; searched, so that a change to the draws moves the seed, not the test)
    for seed in range(50):
        before = world.initial_state(seed)
        closed = sorted(k for k, r in before.tables["matters.matters"].items() if r["status"] == "closed")
        open_ = sorted(k for k, r in before.tables["matters.matters"].items() if r["status"] == "open")
        if closed and open_:
            break
    assert closed and open_
    args = {"to": "a@b.example", "subject": "Hello", "body": "Hi."}
    for matter, breaks in ((closed[0], True), (open_[0], False)):
        after = before.snapshot()
        assert world.call(after, "messaging.send_message", {**args, "matter": matter})["success"]
        ok, why = C._constraint_holds(world, "hands_off_closed", before, after)
        assert ok is not breaks, why
        if breaks:
            assert why.endswith("was added")
    # Z3, on the fast path the sampler uses (rows protected before known concretely)
    tool = next(t for t in legal.model.tools() if t.qualified == "messaging.send_message")
    info = _info(legal, "hands_off_closed")
    sym = legal.enc.state_from(before, spare={"messaging.messages": 1})
    m = z3.String("matter")
    tr = legal.enc.encode(tool, sym, {"matter": m, **{k: z3.StringVal(v) for k, v in args.items()}})
    solver = z3.Solver()
    assert_success(solver, tr)
    from compoworld_dsl.sample.attempt import Attempt
    from compoworld_dsl.sample.rules import protected as protected_rows

    protected = protected_rows(legal.facts, Attempt(None), info, before)
    index = {t: {k: i for i, k in enumerate(before.tables[t])} for t in {t for t, _ in protected}}
    slots = sorted({(t, index[t][k]) for t, k in protected})
    solver.add(constraint_violated(legal.enc, info["decl"], info["svc"], info["name"], sym, tr.post, slots, {"messaging.messages"}))
    found = set()
    while solver.check() == z3.sat:
        got = pystr(solver.model().eval(m, model_completion=True))
        found.add(got)
        solver.add(m != z3.StringVal(got))
    assert found == set(closed)


def test_an_invariant_that_held_is_encoded_over_changed_rows_only_and_means_the_same(legal):
    """`held_before`: when `latest_note_wins` held before `docket.set_deadline`, encoding it over
    the deadline rows the call can change only is equivalent to encoding it over every row — Z3
    proves the two conditions equal on the seeded state — and is smaller."""
    world = legal.world
    state = world.initial_state(3)
    info = _info(legal, "latest_note_wins")
    assert C._constraint_holds(world, info["name"], state, state)[0]
    tool = next(t for t in legal.model.tools() if t.qualified == "docket.set_deadline")
    matter = next(iter(state.tables["docket.deadlines"].values()))["matter"]
    sym = legal.enc.state_from(state, spare=legal.facts.inserts[tool.qualified])
    due = z3.Int("due")
    tr = legal.enc.encode(tool, sym, {"matter": z3.StringVal(matter), "due": due})
    written = legal.facts.tables_written[tool.qualified]
    full, rows = (constraint_violated(legal.enc, info["decl"], info["svc"], info["name"], sym, tr.post, [], written, held_before=h) for h in (False, True))
    solver = z3.Solver()
    assert_success(solver, tr)
    solver.add(full != rows)
    assert solver.check() == z3.unsat
    solver2 = z3.Solver()  # and neither is trivial: some due date breaks the rule, some keeps it
    assert_success(solver2, tr)
    assert solver2.check(rows) == z3.sat and solver2.check(z3.Not(rows)) == z3.sat
    assert len(rows.sexpr()) < len(full.sexpr())  # (the other rows fold, but cost Python work to build)


# ─────────────────────────── values left to the rules ───────────────────────────


def _left(task):
    """(step index, argument) of every argument the task leaves to the house rules."""
    return [(k, n) for k, b in enumerate(task["bindings"]) for n, v in b.items() if v == "house rules"]


def _play(world, task, changes: dict) -> dict:
    """Score the reference plan with some arguments changed: {(step, argument): value}."""
    ep = Episode(world)
    ep.reset(task)
    names = {q: n for n, q in ep.gateway.names.items()}
    for k, call in enumerate(task["reference_plan"]):
        args = dict(call["arguments"])
        for (j, n), v in changes.items():
            if j == k:
                args[n] = v
        call_step(ep.call, names[call["tool"]], {**call, "arguments": args})
    if task["answer"] is not None:
        ep.report(json.dumps(task["answer"]))
    return ep.score()


def _leaving(legal, rule: str, argument: str) -> dict:
    """The first task of seed 1 (3 hops, then 5) that leaves one value, `argument`, to `rule`
    (searched, so that a change to the sampler's draws moves the attempt, not the test)."""
    for hops in (3, 5):
        for index in range(300):
            try:
                task = legal.task(1, index, hops)
            except Rejected:
                continue
            left = _left(task)
            if len(left) == 1 and left[0][1] == argument and any(e["step"] == left[0][0] + 1 for e in task["proofs"]["constraints"].get(rule, {}).get("load_bearing", {}).get("left_to_the_agent", ())):
                return task
    pytest.fail(f"no task in 600 attempts leaves {argument} to {rule}")


@pytest.mark.parametrize("rule,argument", [("cosign", "memo"), ("latest_note_wins", "due")])
def test_a_value_left_to_the_rules(legal, rule, argument):
    """legal_ops: a large disbursement's memo (the co-signatory rule) and a deadline's date (the
    latest docket note wins) are left to the agent. The instruction does not give
    them; the checker does not pin them; any value the proof tried breaks the rule while the
    goals still pass; and a value of the agent's own that keeps the rule passes."""
    world = legal.world
    task = _leaving(legal, rule, argument)
    left = _left(task)
    assert len(left) == 1
    k, name = left[0]
    call = task["reference_plan"][k]
    value = call["arguments"][name]
    assert str(value) not in task["instruction"]
    assert rule == next(r for r, p in task["proofs"]["constraints"].items() if any(e["step"] == k + 1 and e["argument"] == name for e in p["load_bearing"].get("left_to_the_agent", ())))
    assert rule in {c["name"] for c in task["constraints"]}
    assert any(c.get("ruled") == [name] for c in task["checker"]["checks"])
    assert _play(world, task, {})["reward"] == 1
    proof = task["proofs"]["constraints"][rule]["load_bearing"]["left_to_the_agent"][0]
    assert len(proof["breaking_values"]) >= 2
    for bad in proof["breaking_values"]:
        s = _play(world, task, {(k, name): bad})
        failed = {f["kind"] for f in s["failed"]}
        assert s["reward"] == 0 and "constraint" in failed, (bad, s["failed"])
        assert not failed & set(C.GOAL_KINDS), (bad, s["failed"])  # the goals were reached: the rule decided
    if rule == "cosign":  # the agent's own memo, naming the co-signatory, is as good as the reference's
        own = f"Paid on the firm's behalf; co-signatory {call['arguments']['cosigner']}"
        assert _play(world, task, {(k, name): own})["reward"] == 1
    else:  # the deadline: the newest note on the matter, read from the docket, is the one
        state = world.task_state(task["initial_state"])
        notes = [n for n in state.tables["docket.notes"].values() if n["matter"] == call["arguments"]["matter"]]
        newest = max(notes, key=lambda n: n["written"])
        assert world.types.to_json("date", newest["deadline"]) == value


def test_every_value_the_checker_holds_an_agent_to_is_stated(legal):
    """A write's arguments that the instruction gives must all be in it, worded as people write
    them, whether or not the tool's `say` phrase names them (a memo, a co-signatory, a body)."""
    people = legal.people
    seen = 0
    for index in range(60):
        try:
            task = legal.task(3, index, 3)
        except Rejected:
            continue
        for k, (call, binding) in enumerate(zip(task["reference_plan"], task["bindings"])):
            spec = legal.world.tools[call["tool"]]
            if call["tool"] not in legal.mutating or (task["branch"] and k == len(task["reference_plan"]) - 1):
                continue
            for name, t in spec.params:
                if binding.get(name) != "instruction":
                    continue
                value = legal.world.types.from_json(t, call["arguments"][name], name)
                if name in spec.defaults and value == spec.defaults[name]:
                    continue
                shown = people.value_text(t, value)
                if isinstance(value, str) and "@" in value and f'the same mailbox at "{value.split("@", 1)[1]}"' in task["instruction"]:
                    # a record's own address moved to another domain is asked for by the domain
                    # (`Phraser._moved_address`): the old address is read, the new one made
                    continue
                assert shown in task["instruction"], (task["id"], call["tool"], name, shown)
                seen += 1
    assert seen >= 20


# ─────────────────────────── --rule-share ───────────────────────────


def test_rule_share_lets_tasks_through_unchanged(tmp_path, legal):
    """With every task wanting a rule, nearly all carry one (a slot passes over at most
    `RULE_PATIENCE` tasks without); and each task is the one its attempt gives without any share."""
    out = tmp_path / "all.jsonl"
    report = run(Job(LEGAL, 3, 8, 5, rule_share=1.0), out)
    tasks = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(tasks) == 8
    assert sum(1 for t in tasks if t["constraints"]) >= 7
    assert report.rejected["no_rule"] > 0
    for t in tasks[:2]:
        index = int(t["id"].rsplit("-", 1)[1])
        assert json.loads(json.dumps(legal.task(5, index, 3))) == t
    none = tmp_path / "none.jsonl"
    report0 = run(Job(LEGAL, 3, 8, 5, rule_share=0.0), none)
    assert report0.rejected["no_rule"] == 0
    assert sum(1 for x in none.read_text(encoding="utf-8").splitlines() if json.loads(x)["constraints"]) < 7


def test_a_world_whose_rules_never_bite_still_samples(tmp_path):
    """toy.world's rules seldom decide a reward: the default share must not starve it."""
    out = tmp_path / "toy.jsonl"
    report = run(Job(str(ROOT / "worlds" / "toy.world"), 2, 4, 0), out)
    assert report.emitted == 4


def test_a_missed_rule_share_is_said(tmp_path, capsys):
    """`--rule-share` asks for at least this share of tasks decided by a house rule; a run that
    misses it says so (issue 29: the hotel world's runs missed it without a word)."""
    from compoworld_dsl.cli import main as worldc_main

    out = tmp_path / "t.jsonl"
    assert worldc_main(["sample", str(ROOT / "worlds" / "toy.world"), "--hops", "3", "-n", "4", "--seed", "1", "--rule-share", "1", "-o", str(out)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    tasks = [json.loads(x) for x in out.read_text().splitlines()]
    ruled = sum(bool(t["constraints"]) for t in tasks)
    assert ruled < len(tasks)  # toy's rules rarely bite at 3 hops: the share is missed
    assert f"only {ruled} of {len(tasks)} tasks" in err and "--rule-share 1" in err and "What makes a house rule bite" in err
    # and which rules never decided a task, and why (issue 29 item 4)
    decided = {c["name"] for t in tasks for c in t["constraints"]}
    silent = [r for r in ("keep_archive", "no_weekend_tasks") if r not in decided]
    assert silent and all(f"house rule `{r}` decided no task:" in err for r in silent), err


def test_why_a_rule_decided_no_task():
    """`rules.never_decided` tells, per rule that decided none of the tasks, where the walks went:
    no task wrote what it guards, or tasks did but nothing made it matter; an order rule, whether
    its tools were called."""
    from compoworld_dsl.sample.rules import never_decided

    facts = load_sampler(str(ROOT / "worlds" / "legal_ops.world")).facts
    why = dict(never_decided(facts, []))
    assert set(why) == {i["name"] for i in facts.constraints}
    assert why["cosign"].startswith("no task wrote what it guards (billing.disbursements)")
    assert why["pay_after_approval"].startswith("no task called billing.approve_disbursement or billing.pay_disbursement")
    paid = {"reference_plan": [{"tool": "billing.record_disbursement", "arguments": {}}], "constraints": []}
    why = dict(never_decided(facts, [paid]))
    assert why["cosign"].startswith("1 of 1 tasks wrote what it guards") and "the seeds never make it matter" in why["cosign"]
    decided = {**paid, "constraints": [{"name": "cosign"}]}
    assert "cosign" not in dict(never_decided(facts, [decided]))
