"""Goals joined as a manager writes them (issue 29, item 3): a goal that needs what the one before
it does, or works on what it works on, follows it ("Once that is done, ...", "Then ...",
"After that, ..."); a run of goals on one record whose last ends it reads "For the matter ...,
bill the unbilled time before you close it". Before, 11 of 30 legal_ops 5-hop instructions (seed
1; office 25, support 18) read as a to-do list (`wording.reads_as_list`), after none. Where an
order house rule is attached the text does not say which goal comes first: that is the agent's
to work out.

Properties over the tasks of a few attempts, never one seed's exact text."""

from __future__ import annotations

from pathlib import Path

import pytest

from compoworld_dsl.sample.wording import reads_as_list
from compoworld_dsl.sample.run import load_sampler
from test_scripted_agents import sampled

ROOT = Path(__file__).resolve().parents[1]


def test_the_measure():
    assert reads_as_list('Open a matter "A". Open a trust account for the new matter. Then tell me its deadline.')
    assert not reads_as_list('Open a matter "A". Once that is done, open a trust account for the new matter.')
    assert not reads_as_list('Note that the matter is due: "Defence due. Court confirmed.". Then tell me its deadline.')  # a quote's sentences
    assert not reads_as_list('For the matter "A", bill the unbilled time before you close it. Then tell me its deadline.')


@pytest.mark.parametrize("world", ["legal_ops", "office"])
def test_dependent_goals_are_joined(world):
    sampler = load_sampler(str(ROOT / "worlds" / f"{world}.world"))
    tasks = [t for t in sampled(sampler, 1, 5, range(30)) if not any(c["kind"] == "order" for c in t["constraints"])]
    assert len(tasks) >= 15
    listed = [t["instruction"] for t in tasks if reads_as_list(t["instruction"])]
    assert not listed, listed[:2]
