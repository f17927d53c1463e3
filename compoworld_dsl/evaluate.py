"""Evaluate an agent on a task file: success and partial credit by hop count and capability,
as a table, JSON, and an SVG curve of success against hops. No logic about single tasks."""

from __future__ import annotations

import hashlib
import inspect
import json
import math
import os
import random
from collections import defaultdict
from html import escape
from typing import Callable

from .agents import run_oracle
from .gateway import Episode


def parse_agent(spec: str, base_url: str | None = None, api_key: str | None = None, retries: int | None = None, timeout: float | None = None) -> Callable[[Episode, dict], object] | None:
    """`oracle`, `weak:P` (each step skipped with probability P), `replay:SFT.jsonl` (the moves and
    final message of exported trajectories, any style), or `openai:MODEL` (any OpenAI-compatible
    endpoint: --base-url or OPENAI_BASE_URL, --api-key or OPENAI_API_KEY)."""
    if spec.startswith("openai:") and len(spec) > 7:
        from .llm_agent import run_llm

        from .llm_agent import DEFAULT_RETRIES, DEFAULT_TIMEOUT, ChatClient

        model = spec[7:]

        def llm(ep, task):
            url = base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
            key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
            client = ChatClient(url, key, DEFAULT_TIMEOUT if timeout is None else timeout, DEFAULT_RETRIES if retries is None else retries)
            try:
                return run_llm(ep, task, model, client=client)
            finally:
                client.close()

        return llm
    if spec == "oracle":
        return lambda ep, task: run_oracle(ep, task)
    if spec.startswith("replay:") and len(spec) > 7:
        from .replay import ReplayError, agent

        try:
            return agent(spec[7:])
        except (OSError, ReplayError):
            return None
    if spec.startswith("weak:"):
        try:
            p = float(spec[5:])
        except ValueError:
            return None
        if not 0.0 <= p <= 1.0:
            return None
        return lambda ep, task, trial=0: run_oracle(ep, task, skip=p, seed=trial)  # each trial skips other steps
    return None


def _takes_trial(agent: Callable) -> bool:
    """Does the agent vary by trial (`agent(ep, task, trial=K)`)? Agents that take two arguments
    play every trial alike, or vary by themselves (an LLM sampling at a temperature)."""
    try:
        return "trial" in inspect.signature(agent).parameters
    except (TypeError, ValueError):
        return False


def play(world, task: dict, agent: Callable, src: str = "", trial: int = 0) -> dict:
    """One episode; the score, with the transcript and final message under `run` for recording.
    An endpoint that keeps failing ends this episode only: its error is recorded and the
    episode is scored on the state it reached."""
    from .llm_agent import EndpointError

    ep = Episode(world)
    ep.reset(task)
    error = None
    try:
        transcript = agent(ep, task, trial=trial) if _takes_trial(agent) else agent(ep, task)
    except EndpointError as e:
        transcript, error = ep.info.get("transcript", []), str(e)
    score = ep.score()
    run = {"task_id": task["id"], "src": src, "transcript": transcript or [], "answer": ep.answer, "finish_reason": "error" if error else ep.info.get("finish_reason", "stop")}
    if trial:
        run["trial"] = trial
    for key in ("usage", "retries"):
        if key in ep.info:
            run[key] = ep.info[key]
    if error:
        run["error"] = error
    score["run"] = run
    ep.close()
    return score


# Worker processes each load the world once (pool initializer); a process-local cache.
_worker: dict = {}


def _init_worker(world_path: str, spec: str, base_url: str | None, api_key: str | None, retries: int | None, timeout: float | None) -> None:
    from .sample.run import load_sampler

    _worker["world"] = load_sampler(world_path).world
    _worker["agent"] = parse_agent(spec, base_url, api_key, retries, timeout)
    _worker["spec"] = spec


def _play_in_worker(item: tuple[dict, int]) -> dict:
    task, trial = item
    return play(_worker["world"], task, _worker["agent"], _worker["spec"], trial)


def evaluate(world, tasks: list[dict], agent: Callable, workers: int = 1, world_path: str | None = None, spec: str = "", base_url: str | None = None, api_key: str | None = None, retries: int | None = None, timeout: float | None = None, trials: int = 1) -> dict:
    """Play every task `trials` times and summarise. With `workers` > 1, episodes run in that
    many processes (each loads the world from `world_path`); results are gathered in task order,
    trials together. A task whose endpoint failed counts as failed and is listed under `errors`.
    Rates are over episodes; with trials, `pass_hat` and `pass_at` give pass^k and pass@k."""
    episodes = [(task, trial) for task in tasks for trial in range(trials)]
    if workers > 1 and world_path:
        from .sample.run import worker_pool

        # workers leave Ctrl-C to this process, die with it, and are killed when the block ends
        with worker_pool(workers, _init_worker, (world_path, spec, base_url, api_key, retries, timeout)) as pool:
            scores = list(pool.map(_play_in_worker, episodes))
    else:
        scores = [play(world, task, agent, spec, trial) for task, trial in episodes]
    by_hops: dict[int, list] = defaultdict(list)
    by_cap: dict[str, list] = defaultdict(list)
    results = []
    usage: dict[str, int] = {}
    errors = []
    successes: dict[str, int] = {}
    for (task, trial), score in zip(episodes, scores):
        run = score.get("run") or {}
        results.append({"task_id": task["id"], "hops": task["hops"], "trial": trial, "reward": score["reward"], "partial": score["partial"], "passed": score.get("passed"), "total": score.get("total"), "failed": [f["id"] for f in score["failed"]], "run": run})
        successes[task["id"]] = successes.get(task["id"], 0) + int(score["reward"] == 1)
        if run.get("error"):
            errors.append({"task_id": task["id"], "error": run["error"]})
        for k, v in (run.get("usage") or {}).items():
            usage[k] = usage.get(k, 0) + v
        by_hops[task["hops"]].append(score)
        for c in task["capabilities"]:
            by_cap[c].append(score)
    hops_of = {t["id"]: t["hops"] for t in tasks}
    caps_of = {t["id"]: t["capabilities"] for t in tasks}

    def summary(scores: list, ids: list[str]) -> dict:
        n = len(scores)
        out = {"tasks": len(ids), "success_rate": sum(s["reward"] for s in scores) / n if n else 0.0, "partial_credit": sum(s["partial"] for s in scores) / n if n else 0.0}
        if trials > 1:
            out.update(pass_metrics([successes[i] for i in ids], trials))
        return out

    everything = [s for v in by_hops.values() for s in v]
    overall = summary(everything, list(successes))
    report = {
        "success_rate": overall["success_rate"],
        "partial_credit": overall["partial_credit"],
        "tasks": overall["tasks"],
        "trials": trials,
        "by_hops": {str(h): summary(v, [i for i in successes if hops_of[i] == h]) for h, v in sorted(by_hops.items())},
        "by_capability": {c: summary(v, [i for i in successes if c in caps_of[i]]) for c, v in sorted(by_cap.items())},
        "task_successes": successes,
        "errors": errors,
        "results": results,
    }
    if trials > 1:
        report["pass_hat"], report["pass_at"] = overall["pass_hat"], overall["pass_at"]
    if usage:
        report["usage"] = usage
    return report


BOOTSTRAP = 1000  # resamples of the tasks for a pass^k interval (seeded: the same report every run)


def pass_metrics(successes: list[int], n: int) -> dict:
    """pass^k and pass@k for k = 1..n as τ-bench defines them: over tasks, the mean of
    C(c, k) / C(n, k) (all k trials drawn from the n pass) and of 1 - C(n - c, k) / C(n, k) (at
    least one passes), c a task's successes; each with a 95% interval from a bootstrap over the
    tasks, so that an interval says how much the figure depends on which tasks were drawn."""
    out: dict[str, dict] = {"pass_hat": {}, "pass_at": {}}
    if not successes:
        return out
    rng = random.Random(0)
    draws = [[rng.randrange(len(successes)) for _ in successes] for _ in range(BOOTSTRAP)]
    for k in range(1, n + 1):
        for name, per_task in (("pass_hat", [math.comb(c, k) / math.comb(n, k) for c in successes]), ("pass_at", [1 - math.comb(n - c, k) / math.comb(n, k) for c in successes])):
            means = sorted(sum(per_task[i] for i in d) / len(d) for d in draws)
            out[name][str(k)] = {"value": sum(per_task) / len(per_task), "low": means[int(0.025 * BOOTSTRAP)], "high": means[int(0.975 * BOOTSTRAP) - 1]}
    return out


RESULTS_FORMAT = "compoworld-dsl eval results 1"


def results_file(report: dict, world: str, tasks_path: str, agent: str) -> dict:
    """What a leaderboard reads: the world, the task set (its digest, so two results speak of
    the same tasks), the agent, the trials, the metrics overall, by hops and by capability, and
    each task's successes (what `export rl --results --pass-band` keeps tasks by)."""
    from . import __version__

    with open(tasks_path, "rb") as fh:
        digest = hashlib.sha256(fh.read()).hexdigest()
    keep = ("tasks", "success_rate", "partial_credit", "pass_hat", "pass_at")
    return {
        "format": RESULTS_FORMAT,
        "compoworld_dsl": __version__,
        "world": world,
        "task_set": {"path": os.path.basename(tasks_path), "sha256": digest, "tasks": report["tasks"]},
        "agent": agent,
        "trials": report["trials"],
        "metrics": {k: report[k] for k in keep if k in report},
        "by_hops": {h: {k: v[k] for k in keep if k in v} for h, v in report["by_hops"].items()},
        "by_capability": {c: {k: v[k] for k in keep if k in v} for c, v in report["by_capability"].items()},
        "tasks": {i: {"successes": c, "trials": report["trials"]} for i, c in report["task_successes"].items()},
    }


def in_band(results: dict, low: float, high: float) -> set[str]:
    """The ids of the tasks whose pass rate over their trials lies in [low, high]: a curriculum
    for RL, where a group of rollouts that all pass or all fail teaches a policy-gradient
    trainer nothing."""
    return {i for i, t in results["tasks"].items() if t["trials"] and low <= t["successes"] / t["trials"] <= high}


def svg_curve(report: dict, title: str) -> str:
    """Success rate (and partial credit) against hops, as a small standalone SVG."""
    points = [(int(h), v["success_rate"], v["partial_credit"]) for h, v in report["by_hops"].items()]
    w, h, pad = 480, 300, 48
    hops = [p[0] for p in points] or [1]
    lo, hi = min(hops), max(hops)
    span = max(hi - lo, 1)

    def x(v):
        return pad + (v - lo) / span * (w - 2 * pad)

    def y(v):
        return h - pad - v * (h - 2 * pad)

    def line(idx, colour):
        pts = " ".join(f"{x(p[0]):.1f},{y(p[idx]):.1f}" for p in points)
        dots = "".join(f'<circle cx="{x(p[0]):.1f}" cy="{y(p[idx]):.1f}" r="3" fill="{colour}"/>' for p in points)
        return f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{pts}"/>{dots}'

    ticks = "".join(f'<text x="{x(v):.1f}" y="{h - pad + 18}" font-size="11" text-anchor="middle">{v}</text>' for v in hops)
    yticks = "".join(f'<text x="{pad - 8}" y="{y(v) + 4:.1f}" font-size="11" text-anchor="end">{v:g}</text><line x1="{pad}" x2="{w - pad}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>' for v in (0, 0.25, 0.5, 0.75, 1.0))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif">'
        f'<rect width="{w}" height="{h}" fill="white"/>{yticks}'
        f'<text x="{w / 2}" y="20" font-size="13" text-anchor="middle">{escape(title)}</text>'
        f'<text x="{w / 2}" y="{h - 8}" font-size="11" text-anchor="middle">hops</text>'
        f"{ticks}{line(2, '#9ab')}{line(1, '#1f5fa8')}"
        f'<text x="{w - pad}" y="{pad - 8}" font-size="11" text-anchor="end" fill="#1f5fa8">success</text>'
        f'<text x="{w - pad}" y="{pad + 6}" font-size="11" text-anchor="end" fill="#9ab">partial credit</text>'
        "</svg>\n"
    )


def plot_pass_k(report: dict, title: str, path, fmt: str) -> None:
    """pass^k (solid) and pass@k (dashed) against k, overall and by hops, each point with its
    bootstrap interval: how fast reliability falls as an agent must pass every trial."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=100)
    by_hops = list(report["by_hops"].items())
    groups = [("all", report), *((f"{h} hops", v) for h, v in by_hops if len(by_hops) > 1)]
    for label, g in groups:
        for name, style in (("pass_hat", "o-"), ("pass_at", "s--")):
            rows = sorted((int(k), v) for k, v in g.get(name, {}).items())
            if not rows:
                continue
            ks = [k for k, _ in rows]
            vals = [v["value"] for _, v in rows]
            err = [[v["value"] - v["low"] for _, v in rows], [v["high"] - v["value"] for _, v in rows]]
            ax.errorbar(ks, vals, yerr=err, fmt=style, capsize=3, alpha=1.0 if label == "all" else 0.6, label=f"{label}: {'pass^k' if name == 'pass_hat' else 'pass@k'}")
    ax.set_xlabel("k (trials that must pass: pass^k; may pass: pass@k)")
    ax.set_ylabel("share of tasks")
    ax.set_ylim(0, 1.05)
    ax.set_xticks(range(1, report["trials"] + 1))
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.set_title(title)
    ax.grid(axis="y", color="#ddd")
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(path, format=fmt)
    plt.close(fig)


def runs_jsonl(report: dict) -> str:
    """One line per episode: task id, the agent (`src`), transcript, final message (`answer`),
    reward, partial, and the finish reason, token usage and error when there are (for `export
    sft --runs`)."""
    lines = []
    for r in report["results"]:
        run = r.get("run") or {}
        line = {"task_id": r["task_id"], "src": run.get("src", ""), "transcript": run.get("transcript", []), "answer": run.get("answer"), "reward": r["reward"], "partial": r["partial"], "passed": r.get("passed"), "total": r.get("total"), "finish_reason": run.get("finish_reason", "stop")}
        for key in ("usage", "retries", "error", "trial"):
            if key in run:
                line[key] = run[key]
        lines.append(json.dumps(line, ensure_ascii=False, default=str))
    return "\n".join(lines) + ("\n" if lines else "")


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a success rate: honest at 0%, 100% and small
    n, where the normal approximation is not."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def plot_curves(runs: list[tuple[str, dict]], title: str, path, fmt: str) -> None:
    """Success rate against hops for one or more eval reports, overlaid: each run's success with
    its 95% Wilson interval and the number of tasks at each hop count, its partial credit dashed.
    Drawn by matplotlib (the `plot` extra) as SVG or PNG."""
    import matplotlib

    matplotlib.use("Agg")  # no display
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5), dpi=100)
    all_hops: set[int] = set()
    offset = 0.06 * (len(runs) - 1) / 2
    for i, (label, report) in enumerate(runs):
        rows = sorted((int(h), v) for h, v in report["by_hops"].items())
        hops = [h for h, _ in rows]
        all_hops.update(hops)
        xs = [h - offset + 0.06 * i for h in hops]
        rate = [v["success_rate"] for _, v in rows]
        bounds = [wilson(v["success_rate"] * v["tasks"], v["tasks"]) for _, v in rows]
        err = [[r - lo for r, (lo, _) in zip(rate, bounds)], [hi - r for r, (_, hi) in zip(rate, bounds)]]
        line = ax.errorbar(xs, rate, yerr=err, fmt="o-", capsize=3, label=f"{label}: success")
        ax.plot(xs, [v["partial_credit"] for _, v in rows], "--", color=line[0].get_color(), alpha=0.6, label=f"{label}: partial credit")
        if i == 0:
            for x, (_, v) in zip(xs, rows):
                ax.annotate(f"n={v['tasks']}", (x, 0.02), ha="center", fontsize=8, color="#555")
    ax.set_xlabel("hops")
    ax.set_ylabel("share of tasks")
    ax.set_ylim(0, 1.05)
    ax.set_xticks(sorted(all_hops))
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.set_title(title)
    ax.grid(axis="y", color="#ddd")
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))  # beside, never over, the curves
    fig.tight_layout()
    fig.savefig(path, format=fmt)
    plt.close(fig)


def to_json(report: dict) -> str:
    """The report without the per-episode runs (those go to --record), as `--format json` prints
    it and `--overlay` reads it back."""
    return json.dumps({k: v for k, v in report.items() if k not in ("results", "task_successes")}, indent=2)
