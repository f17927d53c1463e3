"""House rules that no walk was steered towards (issue 29, worlds/registrar.world written from the
docs alone): its order rule ("a transcript is sent only after it has been certified") decided no
task, nor did two of its state rules. Walks are now steered to a rule drawn evenly (not to a chain
drawn among all, where a rule guarding a table few tools write got 9 of 112), to an order rule's
two tools in turn, and again from the chain's entry where the chain's next tool refuses what was
found; an order rule bites when the swapped plan ends where the reference does and fails only the
rule; and a rule no look-alike can set up is named (`rules.out_of_reach`, `worldc lint` W110)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from compoworld_dsl.lint import lint
from compoworld_dsl.runtime.state import diff
from compoworld_dsl.sample import checker as C
from compoworld_dsl.sample import walk as W
from compoworld_dsl.sample.rejected import Rejected
from compoworld_dsl.sample.rules import never_decided, out_of_reach
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import verify_task
from compoworld_dsl.sample.walk import Walker

ROOT = Path(__file__).resolve().parents[1]
REGISTRAR = str(ROOT / "worlds" / "registrar.world")
ORDER = "certify_before_sending"


@pytest.fixture(scope="module")
def registrar():
    return load_sampler(REGISTRAR)


def test_an_order_rule_has_chains_to_both_its_tools(registrar):
    chains = dict(registrar.facts.walks.rule_chains)[ORDER]
    assert chains and all(c[-2:] == ["students.certify_transcript", "students.send_transcript"] for c in chains)
    # every step before them finds the request: an entry, then a read of the student's requests
    assert all(registrar.facts.walks.is_entry(registrar.facts.walks._by_name[c[0]]) for c in chains)


def test_a_steered_walk_draws_each_rule_evenly(registrar):
    graph = registrar.facts.walks
    rng = random.Random(7)
    chains = [graph.steered(rng, 5, 1.0) for _ in range(1200)]
    assert all(chains)
    rules = dict(graph.rule_chains)
    assert len(rules) >= 5
    # half the walks draw a rule evenly, so each gets at least about half its even share (a
    # chain several rules share counts for each): the three rules guarding registrations had 9
    # chains of 112 between them, 8% of the walks where every chain was drawn alike
    for name, cs in rules.items():
        got = sum(1 for c in chains if c in cs)
        assert got >= 0.4 * len(chains) / len(rules), (name, got)
    assert graph.steered(random.Random(1), 5, 0.0) == []  # share 0: never steered


def test_a_chain_prefers_the_record_of_its_own_kind(registrar):
    """A refund is requested on a payment found among the student's payments, never on one
    reached through a refund's reference to it (each such payment has its refund already)."""
    memo = dict(registrar.facts.walks.rule_chains)["refund_memo"]
    refunds = [c for c in memo if c[-1] == "bursar.request_refund"]
    assert refunds and all(c[1] in ("bursar.list_payments", "bursar.largest_payment") for c in refunds)


def test_sending_after_certifying_is_no_rewrite(registrar):
    """Both set the request's status; the order rule is what the certificate is for, so the walk
    keeps the pair, where two writes of one field are otherwise turned down."""
    world = registrar.world
    walker = Walker(registrar.facts, registrar.attempt or _attempt(registrar))
    state0 = world.initial_state(3)
    req = next(k for k, r in state0.tables["students.transcript_requests"].items() if r["status"] == "requested")
    certified = state0.snapshot()
    assert world.call(certified, "students.certify_transcript", {"id": req})["success"]
    sent = certified.snapshot()
    assert world.call(sent, "students.send_transcript", {"id": req})["success"]
    before = [diff(state0, certified)]
    assert walker._rewrites(certified, sent, before, ["students.certify_transcript"], "students.send_transcript") is None
    # the same two writes without the rule between them are one too many
    assert walker._rewrites(certified, sent, before, ["students.cancel_transcript"], "students.send_transcript") == "it sets again the status step 1 set"


def _attempt(sampler):
    from compoworld_dsl.sample.attempt import Attempt

    return Attempt(1, None, sampler.solvers)


def test_the_order_rule_decides_tasks(monkeypatch):
    """Every walk steered to the order rule: some tasks carry it, each proved by a swapped order
    that breaks it and ends where the reference ends (sent, never certified), and the checker
    fails that order while the reference passes. `verify` rebuilds them the same."""
    sampler = load_sampler(REGISTRAR)
    graph = sampler.facts.walks
    monkeypatch.setattr(graph, "rule_chains", [(n, cs) for n, cs in graph.rule_chains if n == ORDER])
    monkeypatch.setattr(W, "STEER_SHARE", 1.0)
    found = []
    for i in range(10):
        try:
            task = sampler.task(3, i, 5)
        except Rejected:
            continue
        if any(c["name"] == ORDER for c in task["constraints"]):
            found.append(task)
    assert found, "no task carried the order rule"
    world = sampler.world
    for task in found[:2]:
        assert verify_task(sampler, task) == []
        order = [k - 1 for k in task["proofs"]["constraints"][ORDER]["load_bearing"]["calls_in_order"]]
        state0 = world.task_state(task["initial_state"])
        plan = task["reference_plan"]
        swapped = state0.snapshot()
        calls = []
        for k in order:
            got = world.call(swapped, plan[k]["tool"], plan[k]["arguments"])
            if got["success"]:
                calls.append((plan[k]["tool"], plan[k]["arguments"]))
        score = C.score(world, task["checker"]["checks"], state0, swapped, task["answer"], calls)
        assert score["reward"] < 1 and any(f["kind"] == "order" for f in score["failed"]), score["failed"]
        assert all(f["kind"] == "order" for f in score["failed"]), score["failed"]  # the rule alone


def test_a_rule_out_of_reach_is_named(registrar):
    """`closed_term_final` reads the term of a registration's section: two references away from
    the registrations it protects, where no look-alike reaches, and it has no invariant."""
    facts = registrar.facts
    far = {i["name"]: out_of_reach(facts, i) for i in facts.constraints}
    assert far["closed_term_final"] is not None and "catalog.terms.status" in far["closed_term_final"]
    assert [n for n, why in far.items() if why] == ["closed_term_final"]  # a hold on the student is near
    why = dict(never_decided(facts, []))
    assert why["closed_term_final"] == far["closed_term_final"]
    warned = [d for d in lint(registrar.model, REGISTRAR, seeds=2) if d.code == "W110"]
    assert [d.message.split("`")[1] for d in warned] == ["closed_term_final"]


@pytest.mark.parametrize("world", ["legal_ops", "office", "support", "supply_chain", "vet_clinic", "toy"])
def test_no_bundled_rule_that_bites_is_called_out_of_reach(world):
    facts = load_sampler(str(ROOT / "worlds" / f"{world}.world")).facts
    assert [i["name"] for i in facts.constraints if out_of_reach(facts, i)] == []
