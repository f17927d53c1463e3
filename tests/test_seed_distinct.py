"""`seed T: N rows distinct by F, G { ... }`: no two seeded rows hold the same values of those
fields (a colleague is invited to a meeting once); a row that would repeat them is not made."""

from __future__ import annotations

import collections
from pathlib import Path

from compoworld_dsl.check import check_paths, check_source
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.syntax.format import format_source

ROOT = Path(__file__).resolve().parents[1]

WORLD = """type PersonId = id
type PairId = id

service s "Pairs of people" {
  record Person known by name {
    key id: PersonId
    name: text
  }
  record Pair known by a, b {
    key id: PairId
    a: PersonId
    b: PersonId
  }
  state people: table[Person]
  state pairs: table[Pair]

  seed people: 4 rows {
    name: pick(["Ada", "Ben", "Cy", "Dee"])
  }
  seed pairs: 40 rows DISTINCT{
    a: ref people
    b: ref people
  }
}

world w "W" {}
"""


def _world(distinct: str):
    return WORLD.replace("DISTINCT", distinct)


def _pairs(text: str, seeds=range(5)) -> list[list[tuple]]:
    program = check_source(text, "pairs.world")
    assert program.ok, [d.message for d in program.diagnostics]
    world = load_world(program.model)
    return [[(r["a"], r["b"]) for r in world.initial_state(seed).tables["s.pairs"].values()] for seed in seeds]


def test_no_two_rows_repeat_the_named_fields():
    plain = _pairs(_world(""))
    distinct = _pairs(_world("distinct by a, b "))
    # 40 draws over 16 pairs repeat some without it, none with it
    assert all(len(set(rows)) < len(rows) == 40 for rows in plain)
    assert all(len(set(rows)) == len(rows) <= 16 for rows in distinct)
    # the rows that are made are the ones the plain seed draws first (the draws stay the same)
    for p, d in zip(plain, distinct):
        assert d == list(dict.fromkeys(p))
    # keys stay consecutive: a row not made takes no key
    program = check_source(_world("distinct by a, b "), "pairs.world")
    rows = load_world(program.model).initial_state(0).tables["s.pairs"]
    assert sorted(rows, key=lambda k: int(k.split("-")[1])) == [f"pair-{i}" for i in range(1, len(rows) + 1)]


def test_one_field():
    one = _pairs(_world("distinct by a "))
    assert all(len(rows) == len({a for a, _ in rows}) <= 4 for rows in one)


def test_errors_name_the_field():
    program = check_source(_world("distinct by a, c "), "pairs.world")
    assert [d.code for d in program.diagnostics] == ["E601"]
    assert "no field `c`" in program.diagnostics[0].message
    program = check_source(_world("distinct by a, a "), "pairs.world")
    assert [d.code for d in program.diagnostics] == ["E111"]


def test_the_formatter_keeps_it():
    text = _world("distinct by a, b ")
    out = format_source(text)
    assert "seed pairs: 40 rows distinct by a, b {" in out
    assert format_source(out) == out


def test_the_stdlib_link_records_repeat_no_pair():
    """The office world's invitations and shares and the support world's campaign members."""
    for world, table, fields in [
        ("office", "meetings.invitations", ("meeting", "attendee")),
        ("office", "drive.shares", ("file", "grantee")),
        ("support", "campaigns.members", ("campaign", "lead")),
    ]:
        program = check_paths([ROOT / "worlds" / f"{world}.world"])
        compiled = load_world(program.model)
        for seed in range(5):
            rows = compiled.initial_state(seed).tables[table].values()
            counts = collections.Counter(tuple(r[f] for f in fields) for r in rows)
            assert rows and max(counts.values()) == 1, (world, table, seed)


def test_after_a_pool_of_profiles():
    text = _world("").replace('pool', 'pool').replace(
        'seed people: 4 rows {\n    name: pick(["Ada", "Ben", "Cy", "Dee"])\n  }',
        'seed people: 6 rows from names distinct by name {}',
    )
    text = 'pool names = [{ name: "Ada" }, { name: "Ben" }, { name: "Cy" }]\n\n' + text
    program = check_source(text, "pairs.world")
    assert program.ok, [d.message for d in program.diagnostics]
    people = load_world(program.model).initial_state(0).tables["s.people"]
    # six rows dealt from three profiles would repeat each name once; distinct keeps three
    assert sorted(r["name"] for r in people.values()) == ["Ada", "Ben", "Cy"]
    assert "seed people: 6 rows from names distinct by name {}" in format_source(text)
