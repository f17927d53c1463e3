"""Reports that combine values from different services (issue 28 item 2): a share of the tasks
that ask for a value also ask for one that a record of another service holds, found by an
earlier read of the walk ("... and the lead time of that supplier"). The oracle that reads both
passes; `worldc verify` rebuilds the task."""

from __future__ import annotations

from pathlib import Path

from compoworld_dsl.agents import run_oracle
from compoworld_dsl.gateway import Episode
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import verify_task
from test_deep_walks import _sampled

ROOT = Path(__file__).resolve().parents[1]


def test_a_report_may_combine_two_services():
    sampler = load_sampler(str(ROOT / "worlds" / "supply_chain.world"))
    combined = 0
    for task in _sampled(sampler, 5, 5, 60):
        services = {task["reference_plan"][r["step"] - 1]["tool"].split(".")[0] for r in task["reports"]}
        if len(task["reports"]) < 2 or len(services) < 2:
            continue
        combined += 1
        assert not verify_task(sampler, task)
        episode = Episode(sampler.world)
        episode.reset(task)
        run_oracle(episode, task)
        assert episode.score()["reward"] == 1, task["id"]
        # telling only one of the two values fails
        first = [c for c in task["checker"]["checks"] if c["kind"] == "answer"][0]
        episode.report(f"The answer is {first['value']}.")
        assert episode.score()["reward"] == 0
    assert combined >= 2, "no task combined two services' values"
