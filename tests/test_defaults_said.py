"""An argument left at its tool's default is still said in the instruction when the checker
holds the agent to it: an agent told nothing about a meeting's length may fairly book an hour,
and a checker wanting the default 30 minutes would fail it for the task's silence (found by an
agent playing office tasks). Only a flag left at its default `false` goes unsaid."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from compoworld_dsl.sample.rejected import Rejected  # noqa: E402
from compoworld_dsl.sample.run import load_sampler  # noqa: E402


def test_a_default_the_checker_holds_is_said():
    office = load_sampler(str(ROOT / "worlds" / "office.world"))
    booked = 0
    for i in range(120):
        try:
            t = office.task(3, i, 3)
        except Rejected:
            continue
        text = t["instruction"].split("\nHouse rules")[0]
        for step in t["reference_plan"]:
            if step["tool"].split(".")[-1] == "schedule_meeting":
                minutes = step["arguments"].get("minutes", 30)
                booked += 1
                assert f"{minutes} minutes" in text or f"minutes {minutes}" in text or f"length {minutes}" in text, (t["id"], text)
    assert booked >= 3
