"""An update's enum value is one the record does not hold already (`bindings._another_member`):
"move that organisation to the starter plan" of an organisation on the starter plan asked for
nothing (a bundled support task before stop 61; "new state enabled" of an enabled DLM policy in
blind round 31)."""

from __future__ import annotations

import random

from compoworld_dsl.sample.bindings import _another_member
from compoworld_dsl.sample.worker import load_sampler


def test_an_update_never_draws_the_member_the_record_holds():
    s = load_sampler("worlds/support.world")
    facts = s.facts
    tool = next(t for t in facts.model.tools() if t.qualified == "customers.change_plan")
    plan_type = dict(tool.params)["plan"]
    state = s.world.initial_state(1)
    orgs = state.tables["customers.organisations"]
    rng = random.Random(7)
    for key, row in orgs.items():
        held = row["plan"]
        got = _another_member(facts, rng, state, tool, {"id": key}, "plan", plan_type, held)
        assert got != held and got in plan_type.members
        other = next(m for m in plan_type.members if m != held)
        assert _another_member(facts, rng, state, tool, {"id": key}, "plan", plan_type, other) == other  # a change stays
    # no record named yet (the key is drawn later): the draw stays as it was
    assert _another_member(facts, rng, state, tool, {}, "plan", plan_type, "free") == "free"
