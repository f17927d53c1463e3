"""Reported answers in prose: moments as people write them, and lists of guesses refused
(`sample/answers.py`; task-format.md, How answers are compared)."""

from __future__ import annotations

from pathlib import Path

import pytest

from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.answers import answer_matches, stated_in

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def types():
    return load_sampler(str(ROOT / "worlds" / "legal_ops.world")).world.types


@pytest.mark.parametrize(
    "t,expected,answer",
    [
        ("date", "2025-03-14", "2025-03-14"),
        ("date", "2025-03-14", "The deadline is March 14, 2025."),
        ("date", "2025-03-14", "14 March 2025"),
        ("date", "2025-03-14", "the 14th of March, 2025"),
        ("date", "2025-03-14", "Mar. 14 2025"),
        ("date", "2025-03-14", "It was set for 2025-03-14T10:00."),  # the date of a datetime
        ("time", "13:30", "13:30"),
        ("time", "13:30", "at 1:30 pm"),
        ("time", "13:30", "1:30PM"),
        ("time", "13:00", "at 1 p.m."),
        ("time", "00:15", "12:15 am"),
        ("time", "09:43", "9:43"),
        ("datetime", "2025-03-02T09:43", "2025-03-02 09:43"),
        ("datetime", "2025-03-02T09:43", "March 2, 2025 at 9:43 AM"),
        ("datetime", "2025-03-02T09:43", "on 2 March 2025, 09:43"),
    ],
)
def test_a_moment_as_a_person_writes_it_passes(types, t, expected, answer):
    assert answer_matches(types, t, expected, answer)


@pytest.mark.parametrize(
    "t,expected,answer",
    [
        ("date", "2025-03-14", "March 15, 2025"),
        ("date", "2025-03-14", "March 14, 2024"),
        ("date", "2025-03-14", "February 30, 2025 or so"),  # no such day
        ("time", "13:30", "1:30 am"),
        ("time", "13:30", "13:30:20"),
        ("datetime", "2025-03-02T09:43", "March 2, 2025"),  # no time
        ("datetime", "2025-03-02T09:43", "on March 2, 2025, and later at 9:43"),  # not written together
        ("int", 12, "matter-12"),
    ],
)
def test_another_moment_or_a_number_inside_a_key_fails(types, t, expected, answer):
    assert not answer_matches(types, t, expected, answer)


def test_a_list_of_moments_is_a_list_of_guesses(types):
    """Six other dates beside the right one are guesses, however they are written; five are not."""
    others = ["March 1, 2025", "2025-03-02", "3 March 2025", "2025-03-04", "March 5, 2025", "2025-03-06"]
    assert not answer_matches(types, "date", "2025-03-14", " ".join(others + ["March 14, 2025"]))
    assert answer_matches(types, "date", "2025-03-14", " ".join(others[:5] + ["March 14, 2025"]))
    # a datetime is one mention, not three
    assert answer_matches(types, "datetime", "2025-03-02T09:43", "March 2, 2025 at 9:43 AM; " + " ".join(others[:5]))


def test_an_instruction_that_states_the_date_in_words_states_it(types):
    assert stated_in(types, "date", "2025-03-14", "Move the hearing to March 14, 2025.")
    assert not stated_in(types, "date", "2025-03-14", "Move the hearing to March 15, 2025.")


def test_a_decoy_is_named_as_a_whole_word_in_text(types):
    from compoworld_dsl.sample.answers import names_a_decoy

    decoys = ["memo", "pleading"]
    assert names_a_decoy(types, "text", decoys, "It is a contract, or maybe a pleading.")
    assert not names_a_decoy(types, "text", decoys, "It is a contract (see the memorandum).")
    assert not names_a_decoy(types, "text", decoys, {"type": "contract"})
    assert names_a_decoy(types, "text", decoys, {"type": "contract", "or maybe": "pleading"})  # a hedge in JSON
    assert names_a_decoy(types, "text", decoys, '{"type": "contract", "else": "a memo"}')
    assert names_a_decoy(types, "date", ["2025-03-15"], "March 14, 2025 or March 15, 2025")
    assert not names_a_decoy(types, "int", [15], 5)


def test_the_parts_of_a_time_are_not_guesses(types):
    """Found by an agent playing supply_chain (play2, task 5): a recap of what it did ("at 11:57")
    made the answer a list of guesses, since 11:57 counted as two numbers."""
    recap = "I set the lead time to 14 days, rated it 4, paid 3,433.69 on 30 days' terms, booked 11:57 for 45 minutes. The value of the purchase order is 642.96."
    assert answer_matches(types, "money", 642.96, recap)
    # six other numbers of its own are still a list of guesses
    assert not answer_matches(types, "money", 642.96, "It is 642.96, or 1, 2, 3, 4, 5 or 6.")


def test_a_recap_of_the_instruction_is_no_list_of_guesses(types):
    """An agent that sums up what it did before the value asked for repeats the instruction's
    numbers; those are no guesses (found by an agent playing a 12-hop supply_chain task: its
    right answer, 1,802.60, failed for the seven numbers of its recap). Numbers the instruction
    does not hold still count."""
    instruction = (
        'Discontinue the product "Corrugated shipping box, 40 x 30 x 30 cm". Change the payment terms '
        "of that supplier to 15 days. Set the lead time of that supplier to 5 days. Adjust the stock "
        "level by 58 units. Then tell me the value of that purchase order."
    )
    recap = (
        'Done. Discontinued "Corrugated shipping box, 40 x 30 x 30 cm"; payment terms 15 days and lead '
        "time 5 days; stock adjusted by +58 (now 375 on hand). The value of the purchase order is 1,802.60."
    )
    assert not answer_matches(types, "money", 1802.6, recap)  # without the instruction: six numbers too many
    assert answer_matches(types, "money", 1802.6, recap, stated=instruction)
    guesses = "It is 1,802.60, or 1,750, 2,100, 1,640, 990, 1,200 or 3,020."
    assert not answer_matches(types, "money", 1802.6, guesses, stated=instruction)


def test_an_episode_judges_a_recap_against_its_own_instruction():
    """The episode gives the checker its task's instruction: an oracle whose final message first
    repeats the whole instruction (here one that states seven more numbers), then the value,
    passes."""
    from compoworld_dsl.agents import run_oracle
    from compoworld_dsl.gateway import Episode
    from compoworld_dsl.sample.rejected import Rejected

    sampler = load_sampler(str(ROOT / "worlds" / "supply_chain.world"))
    played = 0
    for i in range(40):
        try:
            task = sampler.task(11, i, 5)
        except Rejected:
            continue
        if not any(c["kind"] == "answer" and c.get("type") in ("money", "int") for c in task["checker"]["checks"]):
            continue
        task = {**task, "instruction": task["instruction"] + " Quote references 311, 312, 313, 314, 315, 316 and 317."}
        episode = Episode(sampler.world)
        episode.reset(task)
        run_oracle(episode, task)
        oracle = episode.answer
        episode.report("What I did: " + task["instruction"] + " " + oracle)
        assert episode.score()["reward"] == 1, (task["id"], oracle)
        played += 1
        if played == 3:
            break
    assert played >= 1, "no task reports a number"


def test_a_quantity_of_something_else_is_no_decoy(types):
    """An agent that reported 4 messages after "wrote off the entry of 3 hours" failed: 3 was a
    decoy (another matter's count) and any 3 in the text counted (a 12-hop legal_ops task, played).
    A number followed by a word the question does not use counts something else; a list of
    guesses still names its candidates."""
    from compoworld_dsl.sample.answers import names_a_decoy

    label = "the number of messages about the matter sent since 2024-04-14"
    recap = "Wrote off timeentry-2 (3 hours, the longest). Messages about matter-4 sent since 2024-04-14: 4."
    assert names_a_decoy(types, "int", [2, 3], recap)  # without the question's words: a decoy
    assert not names_a_decoy(types, "int", [2, 3], recap, label)
    for guesses in ("It is 4, or maybe 3.", "2, 3 or 4", "4. Or 3.", "3 messages or 4 messages"):
        assert names_a_decoy(types, "int", [2, 3], guesses, label), guesses
