"""`after(same(...), lo..hi)` seeds: a date that follows another of the row or of a row it refers
to (issue 29: a fee invoice issued before its matter was opened), within whole days or bounds."""

from __future__ import annotations

from compoworld_dsl.check import check_paths
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.runtime import values as V

WORLD = """
type MatterId = id

service firm "Matters and their bills" {
  record Matter known by title {
    key id: MatterId
    title: text
    opened: date
  }
  record Bill known by amount {
    key id: id
    matter: MatterId
    issued: date
    due: date
    sent: datetime
    logged: date
    far: date
    drafted: date
    noted: date
    paid: date
    filed: date
    amount: money
  }
  state matters: table[Matter]
  state bills: table[Bill]
  seed matters: 3..5 rows {
    title: pick(["Lease", "Merger"])
    opened: OPENED
  }
  seed bills: 10 rows {
    matter: ref matters
    issued: after(same(matter.opened), 2024-11-04..2025-03-03)
    due: after(same(issued), 14..45)
    sent: after(same(issued), 0..1)
    logged: after(same(sent), 0..0)
    far: after(same(due), 0..4000000)
    drafted: before(same(issued), 2..5)
    noted: before(same(due), same(sent), 2024-11-04..2025-01-31)
    paid: after(same(issued), 5..10, 2024-11-04..2025-03-10)
    filed: before(same(issued), 3..5, 2024-11-07..2025-03-10)
    amount: 10..500
  }
}
"""


def _world(tmp_path, opened="2024-01-08..2025-02-28"):
    path = tmp_path / "firm.world"
    path.write_text(WORLD.replace("OPENED", opened), encoding="utf-8")
    program = check_paths([path])
    assert program.ok, [d.message for d in program.diagnostics]
    return load_world(program.model)


def test_dates_follow_along_references_and_on_the_row(tmp_path):
    world = _world(tmp_path)
    lo, hi = V.date_from_iso("2024-11-04"), V.date_from_iso("2025-03-03")
    seen_after_lo = False
    for seed in range(20):
        st = world.initial_state(seed)
        for bill in st.tables["firm.bills"].values():
            opened = st.tables["firm.matters"][bill["matter"]]["opened"]
            assert max(lo, opened) <= bill["issued"] <= hi
            seen_after_lo |= opened > lo and bill["issued"] >= opened
            assert 14 <= bill["due"] - bill["issued"] <= 45
            # a datetime after a date counts from its midnight, any minute of the days
            assert bill["issued"] * 1440 <= bill["sent"] <= (bill["issued"] + 1) * 1440
            assert bill["logged"] == bill["sent"] // 1440  # a date after a datetime: its day
            assert bill["due"] <= bill["far"] <= V.MAX_DAY  # within the dates a value may take
            assert 2 <= bill["issued"] - bill["drafted"] <= 5
            # before the earliest it names, within the bounds unless that is earlier still
            first = min(bill["due"], bill["sent"] // 1440)
            # days within bounds; where they do not meet, the nearest bound, never out of order
            top = V.date_from_iso("2025-03-10")
            assert bill["issued"] <= bill["paid"] <= max(top, bill["issued"])
            assert bill["paid"] == max(top, bill["issued"]) if bill["issued"] + 5 > top else 5 <= bill["paid"] - bill["issued"] <= 10
            low = V.date_from_iso("2024-11-07")
            assert min(low, bill["issued"]) <= bill["filed"] <= bill["issued"]
            assert bill["filed"] == min(low, bill["issued"]) if bill["issued"] - 3 < low else 3 <= bill["issued"] - bill["filed"] <= 5
            assert bill["noted"] <= first and (bill["noted"] == first or lo <= bill["noted"] <= V.date_from_iso("2025-01-31"))
    assert seen_after_lo, "no matter opened inside the bounds: the test shows nothing"


def test_a_date_past_the_upper_bound_is_followed_not_the_bound(tmp_path):
    world = _world(tmp_path, opened="2025-04-01..2025-04-30")
    st = world.initial_state(1)
    for bill in st.tables["firm.bills"].values():
        assert bill["issued"] == st.tables["firm.matters"][bill["matter"]]["opened"]


def test_a_request_states_its_own_dates(tmp_path):
    """`derive` (a new row's derived values) makes an email from a name, never a date `after`
    another: a request that creates a bill says when it was issued."""
    world = _world(tmp_path)
    assert "issued" not in world.derived_fields("firm.bills")
    st = world.initial_state(0)
    matter = next(iter(st.tables["firm.matters"]))
    import random

    assert world.derive("firm.bills", {"matter": matter, "issued": 20000}, st, random.Random(0)) == {}
