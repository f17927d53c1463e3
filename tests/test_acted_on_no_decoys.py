"""An agent that sums up what it did names the records the task acted on; those names are no
candidates for a reported field. A tenth-round player's correct answer ("I changed Farah Murphy's
phone ... opened a ticket for Jamal Wright ... the customer with the earliest sign-up date is
Chiara Sato") failed as naming decoys. A list of candidates still fails: one that names a record
the task never touched anywhere, or a touched one in every sentence that gives the answer
(docs/task-format.md, "How answers are compared", rule 4)."""

from __future__ import annotations

from pathlib import Path

from compoworld_dsl.agents import run_oracle
from compoworld_dsl.gateway import Episode
from compoworld_dsl.sample.worker import load_sampler

ROOT = Path(__file__).resolve().parents[1]


def _played(support, task, message: str) -> int:
    ep = Episode(support.world)
    ep.reset(task)
    run_oracle(ep, task)
    ep.report(message)
    return ep.score()["reward"]


def test_a_summary_of_what_was_done_is_no_list_of_candidates():
    support = load_sampler(str(ROOT / "worlds" / "support.world"))
    # the tenth round's draw (seed 1010, 16 hops, attempt 5); it moves when the walks change
    task = support.task(1010, 5, 16)
    answers = {c["id"]: c for c in task["checker"]["checks"] if c["kind"] == "answer"}
    name = next(c for c in answers.values() if "name of" in c.get("label", ""))
    subject = next(c for c in answers.values() if c is not name)
    changed = [c for c in task["checker"]["checks"] if c["kind"] == "row_updated" and c["table"] == "customers.customers"]
    start = support.world.task_state(task["initial_state"]).tables["customers.customers"]
    touched = [start[c["key"]]["name"] for c in changed if c["key"] in start]
    touched = [n for n in touched if n in name["decoys"]]
    assert touched, "no customer the task changes is a decoy: the test shows nothing"
    untouched = next(d for d in name["decoys"] if d not in touched and d not in task["instruction"])
    answer = f'The ticket is "{subject["value"]}" and the customer is {name["value"]}.'
    assert _played(support, task, answer) == 1
    summary = f"I changed {touched[0]}'s details as asked. " + answer
    assert _played(support, task, summary) == 1
    hedged = f'The ticket is "{subject["value"]}" and the customer is {name["value"]} or {untouched}.'
    assert _played(support, task, hedged) == 0
    # a record the task touched is still a candidate in the sentence that gives the answer
    hedged = f'The ticket is "{subject["value"]}" and the customer is {name["value"]} or {touched[0]}.'
    assert _played(support, task, hedged) == 0


def test_the_past_form_of_what_the_instruction_asks_is_no_candidate():
    """Blind round 52: "Undeploy the processor version ... Then tell me ... the state of that
    processor version" answered 'Undeployed "Atlas processor version" ... The processor version
    state is "undeploying".' failed as naming the state `undeployed` too: it is what the agent
    did, in the instruction's own verb. A list of candidates still fails."""
    from compoworld_dsl.sample.checker import _done_words, _lists_candidates

    assert {"undeployed", "closed", "stopped", "cancelled", "applied"} <= _done_words("Undeploy it, close it, stop it, cancel it and apply it.")
    world = load_sampler(str(ROOT / "worlds" / "support.world")).world
    c = {"type": "text", "label": "the state of the processor version", "decoys": ["undeployed", "deployed"]}
    stated = 'Undeploy the processor version "Atlas processor version". Then tell me the state of that processor version.'
    said = 'Undeployed "Atlas processor version" as asked. The processor version state is "undeploying".'
    assert not _lists_candidates(world, c, "undeploying", said, frozenset(), stated)
    assert _lists_candidates(world, c, "undeploying", said, frozenset())  # the instruction's verb is what makes it no candidate
    assert _lists_candidates(world, c, "undeploying", 'The state is "undeploying" or "undeployed".', frozenset(), stated)
    assert _lists_candidates(world, c, "undeploying", 'The state is "undeploying" or "deployed".', frozenset(), stated)
