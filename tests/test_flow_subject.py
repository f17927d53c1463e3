"""A read's whole result (a number, an amount, a day) flows into a parameter only where it means
the same thing: the names share a word, or the two tools are about the same kind of record
(issue 29: a book's list price was once set to a department's budget variance; issue 28: a
matter's trust balance disbursed from that matter is a step a deep walk needs)."""

from pathlib import Path

import pytest

from compoworld_dsl.sample.steps import Step
from compoworld_dsl.sample.walkgraph import _same_meaning
from compoworld_dsl.sample.worker import load_sampler

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def legal():
    return load_sampler(str(ROOT / "worlds" / "legal_ops.world")).facts


def _tool(facts, name):
    svc, tool = name.split(".")
    return facts.model.services[svc].tools[tool]


def test_a_whole_result_flows_to_a_tool_about_the_same_record(legal):
    graph = legal.walks
    balance = Step(_tool(legal, "billing.get_trust_balance"), {})
    option = (0, None, None)
    # the trust balance of a matter, disbursed from a matter: both take a matter
    assert graph.may_flow([balance], option, _tool(legal, "billing.record_disbursement"), "amount", "money")
    # what a tool is about: the tables it takes a key of (a read of the whole firm: none)
    assert graph.subjects(_tool(legal, "billing.get_trust_balance")) == {"matters.matters"}
    assert graph.subjects(_tool(legal, "billing.largest_pending_amount")) == frozenset()


def test_unrelated_amounts_never_flow():
    assert not _same_meaning("list_price", "money", None, "budget_variance_the_variance_of")
    assert _same_meaning("list_price", "money", None, "budget_variance_the_variance_of", same_subject=True)
    assert _same_meaning("amount", "money", None, "largest_pending_amount")  # a shared word
    assert _same_meaning("due", "alias:Day:date", None, "")  # a nominal type means one thing
