"""A text that spells its row's key (an imported ARN, `format(".../event-source/{}", same(id))`)
is the row's own, through look-alikes and key swaps (stop 67). A blind player of round 43 met
three EventBridge event sources described by the ARN ".../eventsource-7": the look-alikes shared
the described ARN by design, and after the target traded keys with one it was eventsource-9, so
the ARN named a look-alike. Now (1) a row described by a text that spells its key gets no
look-alike (a look-alike would share that text, and the text names one row), and (2) when two
rows trade keys, a text of theirs that spells a key spells the one its row now has."""

from __future__ import annotations

import json
import re
from pathlib import Path

from compoworld_dsl.cli import main
from compoworld_dsl.sample.worker import load_sampler

HERE = Path(__file__).resolve().parent / "fixtures" / "spelled_keys"
ARN = re.compile(r"event-source/(\S+)$")


def _own(rows: dict) -> list:
    """The rows whose ARN does not spell their own key."""
    return [(k, r["arn"]) for k, r in rows.items() if ARN.search(r["arn"]).group(1) != k]


def test_two_rows_that_trade_keys_trade_the_texts_that_spell_them():
    world = load_sampler(str(HERE / "by_name.world")).world
    st = world.initial_state(1)
    rows = st.tables["events.sources"]
    before = {k: dict(r) for k, r in rows.items()}
    assert len(rows) >= 3 and not _own(rows)
    a, b, *rest = list(rows)
    world.swap_keys(st, "events.sources", a, b)
    after = st.tables["events.sources"]
    assert after[b]["name"] == before[a]["name"] and after[a]["name"] == before[b]["name"]
    assert not _own(after), after  # b's ARN still ends with b: it was a's before the rule
    assert {k: after[k] for k in rest} == {k: before[k] for k in rest}
    world.swap_keys(st, "events.sources", a, b)  # twice: the state it was
    assert dict(st.tables["events.sources"]) == before


def test_a_row_described_by_a_text_that_spells_its_key_has_no_look_alike(tmp_path):
    """Sources known by their ARN under a hands-off rule: before the rule, tasks planted two
    look-alikes that shared the target's ARN and swapped keys with one (the target's ARN then
    named another source); now no task plants a source, and every source's ARN names it."""
    out = tmp_path / "t.jsonl"
    assert main(["sample", str(HERE / "by_arn.world"), "--hops", "2", "-n", "6", "--seed", "1", "-o", str(out)]) == 0
    world = load_sampler(str(HERE / "by_arn.world")).world
    tasks = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(tasks) == 6
    for t in tasks:
        assert not t["initial_state"].get("rows") and not t["initial_state"].get("swaps"), t["instruction"]
        assert not _own(world.task_state(t["initial_state"]).tables["events.sources"])
