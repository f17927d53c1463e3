"""A bare enum member inside a list is read as the type on the other side of `in`, so two
modules whose enums share a member (`new`, `open`) can be loaded together."""

from __future__ import annotations

from compoworld_dsl.check import check_paths

WORLD = """
enum A { new, open, closed }
enum B { new, open, gone }
service s "S" {
  record R known by name {
    key id: id
    name: text
    st: A
  }
  state rs: table[R]
  tool f(name: text) -> list[R]
    "Find the rows still in play"
    say "find {name}"
    gives "the rows named {name}"
  {
    return filter(r in rs where r.st in [new, open] and r.name == name)
  }
  tool g(name: text) -> int
    "Count"
    say "count {name}"
    gives "the count of {name}"
  {
    return count(r in rs where r.st not in [LIST])
  }
}
"""


def _codes(tmp_path, items: str):
    path = tmp_path / "w.world"
    path.write_text(WORLD.replace("LIST", items), encoding="utf-8")
    return [(d.code, d.message) for d in check_paths([path]).diagnostics if d.is_error]


def test_members_shared_by_two_enums_resolve_by_the_left_side(tmp_path):
    assert _codes(tmp_path, "closed, new") == []


def test_a_member_of_the_other_enum_is_still_an_error(tmp_path):
    errors = _codes(tmp_path, "closed, gone")
    assert [c for c, _ in errors] == ["E201"] and "`A` and `B`" in errors[0][1]


def test_a_bare_member_written_first_is_still_ambiguous(tmp_path):
    """Only the right side of `in` and `==` takes the left side's type: `new == r.st` names no
    enum before `new` is read, so it must be qualified (`A.new`)."""
    path = tmp_path / "w.world"
    path.write_text(WORLD.replace("r.st not in [LIST]", "new == r.st"), encoding="utf-8")
    errors = [d for d in check_paths([path]).diagnostics if d.is_error]
    assert [(d.code, d.message) for d in errors] == [("E101", "`new` is a member of several enums")]
