"""A house rule whose check reads another service (is that matter closed?) can be checked: the
services a load-bearing rule reads are always mounted, and `difficulty.rule_lookups` counts the
rules whose check reads a service no step calls (issue 28 item 2: "a rule whose check needs a
lookup in another service"). Before, such a service was mounted only when the random draw of
distractors happened to take it; shown here with fewer services mounted than the world has."""

from __future__ import annotations

from pathlib import Path

from compoworld_dsl.sample import sampler as S
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.rejected import Rejected

ROOT = Path(__file__).resolve().parents[1]


def test_the_services_a_rule_reads_are_mounted(monkeypatch):
    monkeypatch.setattr(S, "MAX_SERVICES", 4)  # fewer than the world has: the draw leaves some out
    legal = load_sampler(str(ROOT / "worlds" / "legal_ops.world"))
    lookups = 0
    for i in range(90):
        try:
            task = legal.task(2, i, 5)  # (seed 3 gave one before this round's walk changes; 2 gives one now)
        except Rejected:
            continue
        mounted = set(task["services"]) | set(task["distractors"])
        need = [{t.split(".")[0] for t in legal.facts.rule_checks_tables(c["name"])} for c in task["constraints"]]
        assert all(n <= mounted for n in need), (task["id"], need, mounted)
        assert task["difficulty"]["rule_lookups"] == sum(1 for n in need if n - set(task["services"]))
        lookups += task["difficulty"]["rule_lookups"]
    assert lookups >= 1, "no rule needed a lookup in another service: the test shows nothing"
