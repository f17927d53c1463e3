"""A time an instruction states is on the quarter hour, as a person books ("at 13:45", never
"at 13:46"): seeded calendar events drew any minute of the working day, and Z3's bindings any
minute of office hours (21 of 38 times in supply_chain's 5-hop instructions at seed 5, before)."""

from __future__ import annotations

import re
from pathlib import Path

from compoworld_dsl.sample.rejected import Rejected
from compoworld_dsl.sample.run import load_sampler

ROOT = Path(__file__).resolve().parent.parent


def test_stated_times_are_on_the_quarter_hour():
    sampler = load_sampler(str(ROOT / "worlds" / "supply_chain.world"))
    times = []
    for i in range(40):
        try:
            task = sampler.task(5, i, 5)
        except Rejected:
            continue
        times += [(task["id"], h, m) for h, m in re.findall(r"\bat (\d\d):(\d\d)\b", task["instruction"])]
    assert len(times) >= 5, "too few stated times: the test shows nothing"
    assert all(int(m) % 15 == 0 for _, _, m in times), [t for t in times if int(t[2]) % 15]


def test_an_amount_of_money_is_said_with_its_cents():
    """"Fine that member 12" beside "2.50" read as a count, not an amount (met by an author
    reading a new world's tasks): money is always said with two decimals; other numbers as needed."""
    from fractions import Fraction

    people = load_sampler(str(ROOT / "worlds" / "legal_ops.world")).facts.people
    assert people.value_text("money", Fraction(12)) == "12.00"
    assert people.value_text("money", Fraction(200000)) == "200,000.00"
    assert people.value_text("money", Fraction(501, 2)) == "250.50"
    assert people.value_text("decimal", Fraction(2)) == "2"
    assert people.value_text("int", 12) == "12"
    # a figure of ten digits or more is a moment or a code, written as it is (Buffer's "created
    # at 1,752,752,627.30" was a Unix time, stop 74); a count keeps its separators
    assert people.value_text("decimal", Fraction(1752752627)) == "1752752627"
    assert people.value_text("int", 1752752627) == "1752752627" and people.value_text("int", 25000) == "25,000"
