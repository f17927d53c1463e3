"""`ref table where FIELD == VALUE` (or `in [..]`) in a seed: a reference drawn only from the rows
whose field holds one of the values, so a matter's client is a client and its responsible lawyer
one of the firm's lawyers (issue 29 item 1, "vocabularies by meaning": legal_ops seeded matters
whose client was their own lawyer, and walks then read "the open matters run by that client").
A row that finds no such key is not made, as with a `unique ref` whose keys are taken."""

from __future__ import annotations

from pathlib import Path

import pytest

from compoworld_dsl.check.loader import check_source
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.syntax.format import format_source

ROOT = Path(__file__).resolve().parents[1]

WORLD = """enum Role { client, lawyer, clerk }

service people "People" {
  record Person "person" known by name {
    key id: id
    name: text
    role: Role
  }
  record Case "case" known by title {
    key id: id
    title: text
    client: id
    lawyer: id
  }
  state persons: table[Person]
  state cases: table[Case]

  seed persons: 8 rows {
    name: pick(["A", "B", "C", "D", "E", "F"])
    role: pick([client, lawyer, clerk])
  }
  seed cases: 6 rows {
    title: pick(["T1", "T2"])
    client: ref persons where role == client
    lawyer: %s
  }
}
"""


def test_a_filtered_ref_draws_only_rows_that_fit():
    program = check_source(WORLD % "ref persons where role in [lawyer, clerk]")
    assert not [d for d in program.diagnostics if d.severity == "error"], program.diagnostics
    world = load_world(program.model)
    made = 0
    for seed in range(10):
        state = world.initial_state(seed)
        people = state.tables["people.persons"]
        for case in state.tables["people.cases"].values():
            assert people[case["client"]]["role"] == "client"
            assert people[case["lawyer"]]["role"] in ("lawyer", "clerk")
            made += 1
    assert made >= 20


def test_no_row_fits_no_row_is_made():
    program = check_source(WORLD.replace("pick([client, lawyer, clerk])", "pick([lawyer, clerk])") % "ref persons")
    world = load_world(program.model)
    assert all(not world.initial_state(seed).tables["people.cases"] for seed in range(5))


@pytest.mark.parametrize("gen,code,text", [
    ("ref persons where rank == client", "E601", "no field `rank`"),
    ("ref persons where role == judge", "E106", "judge"),
    ("ref persons where name == 3", "E602", ""),
])
def test_a_filter_that_cannot_apply_is_an_error(gen, code, text):
    errors = [d for d in check_source(WORLD % gen).diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == [code] and text in errors[0].message, errors


def test_the_formatter_keeps_it():
    src = WORLD % "ref persons where role in [lawyer, clerk]"
    out = format_source(src)
    assert "ref persons where role == client" in out and "ref persons where role in [lawyer, clerk]" in out
    assert format_source(out) == out


def test_legal_ops_matters_have_a_client_and_a_lawyer_of_the_firm():
    world = load_sampler(str(ROOT / "worlds" / "legal_ops.world")).world
    for seed in range(20):
        state = world.initial_state(seed)
        contacts = state.tables["contacts.contacts"]
        assert state.tables["matters.matters"], seed
        for m in state.tables["matters.matters"].values():
            assert contacts[m["client"]]["role"] == "client" and contacts[m["lawyer"]]["role"] in ("partner", "lawyer")
