"""A value left to the house rules is named once (issue 29, a world written from the docs alone):
a `say` phrase "... with memo {memo}" and the value's phrase "the memo the house rules call for"
read "with the memo the house rules call for", not "with memo the memo ..."; a field's words
before a phrase that does not follow a preposition stay ("due the due date of ...")."""

from __future__ import annotations

from pathlib import Path

from compoworld_dsl.codegen.python import tstr
from compoworld_dsl.sample import walk as W
from compoworld_dsl.sample.wording import _undoubled
from compoworld_dsl.sample.run import load_sampler
from test_scripted_agents import sampled

ROOT = Path(__file__).resolve().parents[1]


def test_undoubled():
    assert _undoubled(' ("Overpayment"), with memo ', "the memo the house rules call for") == ' ("Overpayment"), with '
    assert _undoubled(" and co-signatory ", "the co-signatory the house rules call for") == " and co-signatory "  # (no preposition)
    assert _undoubled(", due ", "the due date of the charge ...") == ", due "
    assert _undoubled(" to ", "the due date the house rules call for") == " to "
    assert _undoubled(" as project lead ", "the project lead of that team") == " as "


def test_a_memo_left_to_the_rules_reads_once(monkeypatch):
    """registrar's refunds of 1,000 or more name their approving officer in the memo: the memo is
    left to the house rules, and the instruction names it once. Every walk is steered to that
    rule's writes (`WalkGraph.steered`), where a memo is left in about one task of twenty."""
    sampler = load_sampler(str(ROOT / "worlds" / "registrar.world"))
    graph = sampler.facts.walks
    monkeypatch.setattr(graph, "rule_chains", [(n, cs) for n, cs in graph.rule_chains if n == "refund_memo"])
    monkeypatch.setattr(W, "STEER_SHARE", 1.0)
    left = [t["instruction"] for t in sampled(sampler, 4242, 5, range(20)) if "the house rules call for" in t["instruction"]]
    assert left
    assert all("memo the memo" not in i for i in left)
    assert any("with the memo the house rules call for" in i for i in left)


def test_an_article_before_a_record_named_in_full_goes():
    """Device Farm's "Ends a specified remote access session" was said "end a session {arn}", and
    a task read "End a the remote access session "Juniper remote access session"" (a fresh draw
    of stop 70): the record's phrase brings its own article."""
    from compoworld_dsl.check import types as T
    from compoworld_dsl.sample.wording import fill

    class People:
        noun = {"df.sessions": "remote access session"}

        def ref_table(self, t):
            return "df.sessions" if t == tstr(session) else None

    session = T.Alias("SessionId", T.Prim("id"))
    named = 'the remote access session "Juniper remote access session"'
    assert fill(People(), "end a session {arn}", {"arn": session}, lambda n: named) == f"end {named}"
    assert fill(People(), "end an session {arn}", {"arn": session}, lambda n: named) == f"end {named}"
    assert fill(People(), "end the session {arn}", {"arn": session}, lambda n: named) == f"end {named}"
    # a value that is not a record keeps its article ("file a {kind}")
    assert fill(People(), "file a {kind}", {"kind": T.Prim("text")}, lambda n: "evidence") == "file an evidence"
