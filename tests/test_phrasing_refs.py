"""A record named twice in an instruction is named in full once: later it is "that colleague" (the
only one of its kind), or by as much of its description as tells it from the other records the
task names and fits no more rows than the full one (so each mention can be read alone), or by a
phrase whose inner records are named so ("the patient of that appointment"). Before this, 12 of
99 office instructions (seed 2, 5 hops, 150 attempts) repeated a phrase of 80 characters or more
word for word; now 4 do (descriptions that need every field, in phrases that need them)."""

from pathlib import Path

import pytest

from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import Rejected

ROOT = Path(__file__).resolve().parents[1]


def _repeats(text: str, n: int = 80) -> bool:
    """Does some stretch of `n` characters occur twice?"""
    return any(text.find(text[i : i + n], i + 1) >= 0 for i in range(len(text) - n))


@pytest.fixture(scope="module")
def office_tasks():
    s = load_sampler(str(ROOT / "worlds" / "office.world"))
    out = []
    for i in range(150):
        try:
            out.append(s.task(2, i, 5))
        except Rejected:
            continue
    return out


def test_long_phrases_are_not_repeated_word_for_word(office_tasks):
    assert len(office_tasks) >= 80
    repeated = [t["id"] for t in office_tasks if _repeats(t["instruction"].split("\nHouse rules:")[0])]
    assert len(repeated) <= 6, repeated


def test_repeat_finder():
    assert _repeats("x" * 10 + "a long phrase " * 12)
    assert not _repeats("the quick brown fox jumps over the lazy dog", n=20)
