"""A record named in full once is named again by what it is known by (issue 29, item 3): "the
purchase order "PO-23376"", not "the purchase order with PO number "PO-23376"" a ninth time (an
agent playing supply_chain counted nine). The compact form always follows the full one, and names
one record of the state. (Since the full description, too, begins with what the record is known
by, 'the purchase order "PO-23376" with supplier ...', the compact form is its first words.)"""

from __future__ import annotations

import re
from pathlib import Path

from compoworld_dsl.sample.run import load_sampler
from test_deep_walks import _sampled  # the tasks a run of attempts gives

ROOT = Path(__file__).resolve().parents[1]


def test_a_record_is_named_in_full_once_then_by_what_it_is_known_by():
    sampler = load_sampler(str(ROOT / "worlds" / "supply_chain.world"))
    people = sampler.people
    compact = 0
    for task in _sampled(sampler, 99, 8, 40):
        text = task["instruction"].split("\nHouse rules:")[0]
        for table, kb in people.known_by.items():
            if not kb or people.types.base(people.fields[table][kb[0]]) != "text":
                continue
            noun = people.noun[table]
            for m in re.finditer(rf'the {re.escape(noun)} ("[^"]+")', text):
                value = m.group(1)
                named = people.matches(sampler.facts.world.initial_state(task["initial_state"]["seed"]), table, {kb[0]: value.strip('"')})
                if not named or text.startswith(" of ", m.end()):
                    # not a name of this table ('note to the supplier "Deliver to dock 3"'), or a
                    # reference put first ('the product "LED work light" of the order line ...')
                    continue
                first = text.find(m.group(0))
                if first == m.start():  # the full description ('the purchase order "PO-1" with supplier ...')
                    continue
                assert len(named) == 1, (task["id"], m.group(0))
                compact += 1
    assert compact >= 3, compact
