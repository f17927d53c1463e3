"""A walk writes nothing on or under a record an earlier step of the same task put under a house
rule (`Walker._protected_since`). The checker judges a rule on the state the task starts from, so
a task that put an account on legal hold and then changed its tier passed only an agent that
broke the rule in its own words ("nothing of a company on legal hold is changed or added to");
an agent that kept the rule failed (a fresh 16-hop support task, played through the meta-tools)."""

from pathlib import Path

import pytest

from compoworld_dsl.sample.attempt import Attempt
from compoworld_dsl.sample.pools import ensure
from compoworld_dsl.sample.walk import Walker
from compoworld_dsl.sample.worker import load_sampler

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def support():
    return load_sampler(str(ROOT / "worlds" / "support.world")).facts


def _call(facts, state, tool, args):
    post = state.snapshot()
    got = facts.world.call(post, tool, args)
    assert got["success"], got
    return post


def test_no_write_on_or_under_a_record_the_task_put_on_hold(support):
    facts = support
    attempt = Attempt(7)
    state0 = facts.world.initial_state(7)
    ensure(facts, attempt, set(facts.world.state_decl), state0)
    free = next(k for k, a in state0.tables["accounts.accounts"].items() if not a["legal_hold"])
    org = next((k for k, o in state0.tables["customers.organisations"].items() if o["account"] == free), None)
    walker = Walker(facts, attempt)
    held = _call(facts, state0, "accounts.place_legal_hold", {"id": free})
    # placing the hold is the step that makes it protected: it is not refused
    assert walker._protected_since(state0, state0, held) is None
    # the tier of the held account: refused, naming the rule
    tier = _call(facts, held, "accounts.change_tier", {"id": free, "tier": "strategic"})
    assert "legal_hold" in walker._protected_since(state0, held, tier)
    # the same change on the state the task starts from is no business of this check
    assert walker._protected_since(state0, state0, _call(facts, state0, "accounts.change_tier", {"id": free, "tier": "strategic"})) is None
    if org is not None:
        # a customer added at the held company's support organisation: refused too
        added = _call(facts, held, "customers.create_customer", {"name": "Hiro Kim", "email": "hiro.kim@example.com", "organisation": org, "phone": "+44 20 7946 0321", "language": "German"})
        assert "legal_hold" in (walker._protected_since(state0, held, added) or "")


def test_a_value_asked_for_one_record_may_be_changed_on_another(support):
    """`Walker._asks_again`: "set account A to strategic, then set it to SMB" asks for A's tier
    twice, one request pointless, and is refused; "set account A to strategic, then set B
    (strategic already) to SMB" is two requests on two accounts. It had been refused too,
    as B held the value asked for A (one-table imported APIs: "turn off automation A, then turn
    on B")."""
    from compoworld_dsl.runtime.state import diff
    from compoworld_dsl.sample.steps import Step

    facts = support
    attempt = Attempt(7)
    state0 = facts.world.initial_state(7)
    ensure(facts, attempt, set(facts.world.state_decl), state0)
    accounts = state0.tables["accounts.accounts"]
    b, tier = next((k, r["tier"]) for k, r in accounts.items())
    a = next(k for k, r in accounts.items() if r["tier"] != tier)
    later = next(t for t in ("strategic", "enterprise", "mid_market", "smb") if t != tier)
    tool = next(t for t in facts.tools if t.qualified == "accounts.change_tier")
    walker = Walker(facts, attempt)
    steps = [Step(tool, {"id": ("user", None), "tier": ("user", None)})]
    values = {(0, "id"): a, (0, "tier"): tier}
    s1 = _call(facts, state0, "accounts.change_tier", {"id": a, "tier": tier})
    again = _call(facts, s1, "accounts.change_tier", {"id": a, "tier": later})
    assert walker._asks_again(state0, s1, diff(s1, again), steps, values) == "it changes again a value the instruction asks for"
    other = _call(facts, s1, "accounts.change_tier", {"id": b, "tier": later})
    assert walker._asks_again(state0, s1, diff(s1, other), steps, values) is None
