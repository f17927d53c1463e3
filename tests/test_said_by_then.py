"""A description the instruction words from the seeded state must still say what the agent finds
when it gets to the step: a played 16-hop support task deleted an opportunity, then asked for
"the quote with opportunity "Platform renewal 2025"", which then names a record no tool shows
(`descriptions._said_by_then`, rejected as `changed_by_task`)."""

from __future__ import annotations

from pathlib import Path

from compoworld_dsl.sample.descriptions import _said_by_then
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.runs import runs

ROOT = Path(__file__).resolve().parent.parent


def test_a_description_through_a_record_the_task_deleted_is_refused():
    sampler = load_sampler(str(ROOT / "worlds" / "support.world"))
    facts, world = sampler.facts, sampler.world
    opportunities = None
    for seed in range(40):  # a seeded state with a quote on an opportunity still in prospecting
        state0 = world.initial_state(seed)
        opportunities = state0.tables["opportunities.opportunities"]
        quote = next((q for q in state0.tables["quotes.quotes"].values() if q["opportunity"] in opportunities and opportunities[q["opportunity"]]["stage"] == "prospecting"), None)
        if quote is not None:
            break
    assert quote is not None, "no quote on a deletable opportunity in 40 seeds"
    plan = [{"tool": "opportunities.delete_opportunity", "arguments": {"id": quote["opportunity"]}}]
    final = runs(facts, state0, plan)
    assert final is not None and quote["opportunity"] not in final.tables["opportunities.opportunities"]
    # asked after the delete: refused; asked before it (nothing replayed before the step): kept
    assert _said_by_then(facts, state0, final, "quotes.quotes", quote["id"], ["name", "opportunity"], plan) is not None
    assert _said_by_then(facts, state0, final, "quotes.quotes", quote["id"], ["name", "opportunity"], []) is None
    # a field the delete does not touch still says the same
    assert _said_by_then(facts, state0, final, "quotes.quotes", quote["id"], ["name"], plan) is None
