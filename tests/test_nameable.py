"""A description never says a key: a record known first by a reference to a record known first
by a reference ("the loan with copy book-9": a copy is known first by its book) cannot be
described through that reference (`People.nameable`); the walk's entries and list picks and the
"also make sure" requests ask it. In a library world written from the docs alone, 22 of 55 5-hop
instructions held such a key before, none after; the bundled worlds give the same tasks."""

from __future__ import annotations

from pathlib import Path

from compoworld_dsl.sample.run import load_sampler

ROOT = Path(__file__).resolve().parents[1]

WORLD = """type BookId = id
type CopyId = id

service lib "A library" {
  record Book "book" known by title {
    key id: BookId
    title: text
  }
  record Copy "copy" known by book, shelf {
    key id: CopyId
    book: BookId
    shelf: text
  }
  record Loan "loan" known by copy, borrower {
    key id: id
    copy: CopyId
    borrower: text
  }
  state books: table[Book]
  state copies: table[Copy]
  state loans: table[Loan]
}
"""


def test_a_reference_to_a_record_known_by_a_reference_cannot_name(tmp_path):
    path = tmp_path / "lib.world"
    path.write_text(WORLD)
    people = load_sampler(str(path)).facts.people
    assert people.nameable("lib.copies", ["book", "shelf"])  # a book is known by its title
    assert not people.nameable("lib.loans", ["copy"])  # a copy is known first by its book: a key
    assert people.nameable("lib.loans", ["borrower"])


def test_bundled_worlds_say_no_key():
    import re

    from compoworld_dsl.sample.rejected import Rejected

    for world in ("legal_ops", "supply_chain"):
        sampler = load_sampler(str(ROOT / "worlds" / f"{world}.world"))
        prefixes = tuple(f"{d['prefix']}-" for d in sampler.world.state_decl.values() if d.get("prefix"))
        for i in range(25):
            try:
                task = sampler.task(21, i, 5)
            except Rejected:
                continue
            keys = [m for m in re.findall(r"\b[a-z_]+-\d+\b", task["instruction"]) if m.startswith(prefixes)]
            assert not keys, (task["id"], keys)
