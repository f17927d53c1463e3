"""A value a write gives (the fees `bill_time` returns) is phrased as that value, not as the
record the write changed. A fifth-round play met "draft an invoice of that matter "Commercial
lease renewal" ... for that matter": the amount was the fees billed, and the text named the
matter where the amount belonged (the player had to guess it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import Rejected

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def legal():
    return load_sampler(str(ROOT / "worlds" / "legal_ops.world"))


def test_a_write_that_gives_a_value_is_named_by_it(legal):
    """Over tasks whose argument takes a write's whole result, the write's `gives` phrase is said."""
    seen = 0
    # (draws where such tasks come, found by search; they move when the walks change)
    for seed, hops, i in [(3, 8, 2), (9, 16, 24), (5, 12, 0), (6060, 16, 17)] + [(77, 8, i) for i in range(40)] + [(6060, 16, i) for i in range(12)]:
        if seen >= 2:
            break
        try:
            task = legal.task(seed, i, hops)
        except Rejected:
            continue
        plan = task["reference_plan"]
        for k, b in enumerate(task["bindings"]):
            for name, src in b.items():
                if src.startswith("step ") and "." not in src and plan[int(src[5:]) - 1]["tool"] == "timekeeping.bill_time":
                    seen += 1
                    assert "the fees billed for" in task["instruction"], task["instruction"]
                    if plan[k]["tool"] == "invoicing.draft_invoice":  # the played case
                        assert "draft an invoice of the fees billed for" in task["instruction"]
    if not seen:
        pytest.skip("no task of this draw takes the fees billed as an argument")
