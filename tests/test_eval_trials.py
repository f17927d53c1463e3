"""`worldc eval --trials K`: pass^k and pass@k as τ-bench defines them, a results file a
leaderboard reads, and `export rl --results --pass-band` keeping the tasks that still teach."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from compoworld_dsl.cli import main
from compoworld_dsl.evaluate import evaluate, in_band, parse_agent, pass_metrics, results_file
from compoworld_dsl.sample.run import Job, load_sampler, run

ROOT = Path(__file__).resolve().parent.parent
TOY = str(ROOT / "worlds" / "toy.world")


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    out = tmp_path_factory.mktemp("trials") / "tasks.jsonl"
    run(Job(TOY, 3, 6, 4), out)
    return load_sampler(TOY).world, [json.loads(x) for x in out.read_text().splitlines()], out


def test_pass_hat_and_pass_at_by_their_definitions():
    got = pass_metrics([4, 2, 0], 4)
    for k in range(1, 5):
        hat = sum(math.comb(c, k) / math.comb(4, k) for c in (4, 2, 0)) / 3
        at = sum(1 - math.comb(4 - c, k) / math.comb(4, k) for c in (4, 2, 0)) / 3
        assert got["pass_hat"][str(k)]["value"] == pytest.approx(hat)
        assert got["pass_at"][str(k)]["value"] == pytest.approx(at)
        for name in ("pass_hat", "pass_at"):
            v = got[name][str(k)]
            assert v["low"] <= v["value"] <= v["high"]
    assert got["pass_hat"]["2"]["value"] == pytest.approx((1 + 1 / 6) / 3)
    assert got["pass_at"]["4"]["value"] == pytest.approx(2 / 3)
    assert pass_metrics([4, 2, 0], 4) == got  # the bootstrap is seeded: the same report every run


def test_trials_vary_a_weak_agent_and_not_the_oracle(toy):
    world, tasks, _ = toy
    oracle = evaluate(world, tasks, parse_agent("oracle"), trials=3)
    assert oracle["trials"] == 3 and len(oracle["results"]) == 3 * len(tasks)
    assert all(v["value"] == 1.0 for v in oracle["pass_hat"].values())
    weak = evaluate(world, tasks, parse_agent("weak:0.4"), trials=6)
    per_task = {}
    for r in weak["results"]:
        per_task.setdefault(r["task_id"], set()).add(r["reward"])
    assert any(len(rewards) == 2 for rewards in per_task.values())  # trials skip other steps
    hat = [weak["pass_hat"][str(k)]["value"] for k in range(1, 7)]
    assert hat == sorted(hat, reverse=True) and hat[0] == pytest.approx(weak["success_rate"])
    assert weak["task_successes"] == {t: sum(1 for r in weak["results"] if r["task_id"] == t and r["reward"] == 1) for t in per_task}


def test_results_file_and_the_pass_band(toy, tmp_path, capsys):
    world, tasks, path = toy
    results, plot = tmp_path / "results.json", tmp_path / "pass_k.svg"
    assert main(["eval", TOY, str(path), "--agent", "weak:0.4", "--trials", "4", "--results", str(results), "--plot", str(plot), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    got = json.loads(results.read_text())
    assert got["format"] == "compoworld-dsl eval results 1" and got["world"] == "toy" and got["agent"] == "weak:0.4" and got["trials"] == 4
    assert got["task_set"]["tasks"] == len(tasks) and len(got["task_set"]["sha256"]) == 64
    assert got["metrics"]["pass_hat"] == report["pass_hat"] and set(got["tasks"]) == {t["id"] for t in tasks}
    assert plot.read_text().startswith("<?xml") or "<svg" in plot.read_text()
    band = in_band(got, 0.25, 0.75)
    rl = tmp_path / "rl.jsonl"
    assert main(["export", "rl", TOY, str(path), "--results", str(results), "--pass-band", "0.25..0.75", "-o", str(rl)]) == 0
    kept = [json.loads(x)["id"] for x in rl.read_text().splitlines()]
    assert set(kept) == band and kept == [t["id"] for t in tasks if t["id"] in band]  # in task order
    capsys.readouterr()
    for bad in (["--pass-band", "0.8..0.2", "--results", str(results)], ["--pass-band", "0.2..0.8"], ["--pass-band", "x", "--results", str(results)], ["--pass-band", "0..1", "--results", str(path)]):
        assert main(["export", "rl", TOY, str(path), *bad, "-o", str(rl)]) == 2
        assert "worldc: error:" in capsys.readouterr().err
    assert main(["eval", TOY, str(path), "--trials", "0"]) == 2


def test_a_results_file_names_the_task_set_by_its_bytes(toy, tmp_path):
    world, tasks, path = toy
    report = evaluate(world, tasks[:2], parse_agent("oracle"), trials=2)
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps(t) + "\n" for t in tasks[:2]))
    assert results_file(report, "toy", str(path), "oracle")["task_set"]["sha256"] != results_file(report, "toy", str(other), "oracle")["task_set"]["sha256"]
