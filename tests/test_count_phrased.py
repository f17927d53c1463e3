"""A count over a list whose `gives` phrase has a clause of its own ("the channels {member}
belongs to") asks "how many channels ... belongs to", not "... belongs to there are" (found by an
eighth-round player); a phrase with none keeps "there are"."""

from __future__ import annotations

from pathlib import Path

from compoworld_dsl.sample.worker import load_sampler

ROOT = Path(__file__).resolve().parents[1]


def test_a_count_over_a_clause_asks_how_many_without_there_are():
    office = load_sampler(str(ROOT / "worlds" / "office.world"))
    # the played draw (seed 8181, 16 hops, attempt 14); it moves when the walks change
    task = office.task(8181, 14, 16)
    counts = [r for r in task["reports"] if r["aggregate"] == "count"]
    assert counts, "the draw asks for no count: the test shows nothing"
    assert "how many channels " in task["instruction"]
    assert "belongs to there are" not in task["instruction"]
    assert task["instruction"].rstrip().endswith("belongs to.")


def test_a_count_over_a_read_with_no_gives_names_what_it_counts(monkeypatch):
    """A read with no `gives` is "what you find when you ..."; its count names the rows: "how
    many capacity assignments you find when you get ...", not "how many what you find when you
    get ... there are" (an imported Athena task)."""
    from types import SimpleNamespace

    from compoworld_dsl.sample import phrasing

    p = phrasing.Phraser.__new__(phrasing.Phraser)
    p.people = SimpleNamespace(noun={"athena.capacity_assignments": "capacity assignment"})
    p.steps = [SimpleNamespace(tool=SimpleNamespace(decl=SimpleNamespace(gives=None)))]
    monkeypatch.setattr(phrasing, "result_table", lambda people, tool: "athena.capacity_assignments")
    p.gives = lambda j: None
    p.subject = lambda j, base=False: "what you find when you get capacity assignment configuration with that capacity reservation"
    assert p.report(0, None, "count") == "how many capacity assignments you find when you get capacity assignment configuration with that capacity reservation"
