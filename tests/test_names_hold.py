"""A record named again by a short name is named so at every mention, to the end of the task
(issue 28 item 4): the short name of a record found by description (`Phraser._short_name`) is
not drawn from a table the task adds rows to, nor from a field a write of the task changes.
Played tasks found "the trip with destination "Paris"" after the task had requested a second trip
to Paris, and "the organisation with plan tier professional" after the task had moved it to
starter: each fitted the record meant when the task began, not when the agent got there."""

from __future__ import annotations

from pathlib import Path

import pytest

from compoworld_dsl.sample import phrasing
from compoworld_dsl.sample.run import load_sampler
from test_deep_walks import _sampled  # the tasks a run of attempts gives

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("world", ["support", "office"])
def test_a_short_name_holds_to_the_end_of_the_task(world, monkeypatch):
    """Every short name an instruction uses (caught from the phraser that wrote it) names its
    record by fields no step of the task writes, in a table no step adds rows to. Before the rule,
    support at seed 4242 and 8 hops named a satisfaction survey by its ticket and date in three of
    30 tasks that send a new survey about the same ticket."""
    names = []
    made = phrasing.Phraser._short_name

    def caught(self, j):
        got = made(self, j)
        if got is not None:
            names.append((self, j, got))
        return got

    monkeypatch.setattr(phrasing.Phraser, "_short_name", caught)
    sampler = load_sampler(str(ROOT / "worlds" / f"{world}.world"))
    tasks = _sampled(sampler, 4242, 8, 30)
    assert tasks
    for phraser, j, (text, fields) in names:
        table = phraser.steps[j].how["table"]
        added = [s.tool.qualified for s in phraser.steps if table in {f"{s.tool.service}.{t}" for t in s.tool.inserts}]
        written = {f for s in phraser.steps for var, f in s.tool.writes if f"{s.tool.service}.{var}" == table}
        assert not added, (text, added)
        assert not fields & written, (text, fields & written)
    assert names, "no short name at all: the rule would hold vacuously"
