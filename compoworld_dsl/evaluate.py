"""Evaluate an agent on a task file: success and partial credit by hop count and capability,
as a table, JSON, and an SVG curve of success against hops. No logic about single tasks."""

from __future__ import annotations

import json
import os
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
        return lambda ep, task: run_oracle(ep, task, skip=p, seed=0)
    return None


def play(world, task: dict, agent: Callable, src: str = "") -> dict:
    """One episode; the score, with the transcript and final message under `run` for recording.
    An endpoint that keeps failing ends this episode only: its error is recorded and the
    episode is scored on the state it reached."""
    from .llm_agent import EndpointError

    ep = Episode(world)
    ep.reset(task)
    error = None
    try:
        transcript = agent(ep, task)
    except EndpointError as e:
        transcript, error = ep.info.get("transcript", []), str(e)
    score = ep.score()
    run = {"task_id": task["id"], "src": src, "transcript": transcript or [], "answer": ep.answer, "finish_reason": "error" if error else ep.info.get("finish_reason", "stop")}
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


def _play_in_worker(task: dict) -> dict:
    return play(_worker["world"], task, _worker["agent"], _worker["spec"])


def evaluate(world, tasks: list[dict], agent: Callable, workers: int = 1, world_path: str | None = None, spec: str = "", base_url: str | None = None, api_key: str | None = None, retries: int | None = None, timeout: float | None = None) -> dict:
    """Play every task and summarise. With `workers` > 1, episodes run in that many processes
    (each loads the world from `world_path`); results are gathered in task order. A task whose
    endpoint failed counts as failed and is listed under `errors`."""
    if workers > 1 and world_path:
        from .sample.run import worker_pool

        # workers leave Ctrl-C to this process, die with it, and are killed when the block ends
        with worker_pool(workers, _init_worker, (world_path, spec, base_url, api_key, retries, timeout)) as pool:
            scores = list(pool.map(_play_in_worker, tasks))
    else:
        scores = [play(world, task, agent, spec) for task in tasks]
    by_hops: dict[int, list] = defaultdict(list)
    by_cap: dict[str, list] = defaultdict(list)
    results = []
    usage: dict[str, int] = {}
    errors = []
    for task, score in zip(tasks, scores):
        run = score.get("run") or {}
        results.append({"task_id": task["id"], "hops": task["hops"], "reward": score["reward"], "partial": score["partial"], "passed": score.get("passed"), "total": score.get("total"), "failed": [f["id"] for f in score["failed"]], "run": run})
        if run.get("error"):
            errors.append({"task_id": task["id"], "error": run["error"]})
        for k, v in (run.get("usage") or {}).items():
            usage[k] = usage.get(k, 0) + v
        by_hops[task["hops"]].append(score)
        for c in task["capabilities"]:
            by_cap[c].append(score)

    def summary(scores: list) -> dict:
        n = len(scores)
        return {"tasks": n, "success_rate": sum(s["reward"] for s in scores) / n if n else 0.0, "partial_credit": sum(s["partial"] for s in scores) / n if n else 0.0}

    everything = [s for v in by_hops.values() for s in v]
    overall = summary(everything)
    report = {
        "success_rate": overall["success_rate"],
        "partial_credit": overall["partial_credit"],
        "tasks": overall["tasks"],
        "by_hops": {str(h): summary(v) for h, v in sorted(by_hops.items())},
        "by_capability": {c: summary(v) for c, v in sorted(by_cap.items())},
        "errors": errors,
        "results": results,
    }
    if usage:
        report["usage"] = usage
    return report


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


def runs_jsonl(report: dict) -> str:
    """One line per episode: task id, the agent (`src`), transcript, final message (`answer`),
    reward, partial, and the finish reason, token usage and error when there are (for `export
    sft --runs`)."""
    lines = []
    for r in report["results"]:
        run = r.get("run") or {}
        line = {"task_id": r["task_id"], "src": run.get("src", ""), "transcript": run.get("transcript", []), "answer": run.get("answer"), "reward": r["reward"], "partial": r["partial"], "passed": r.get("passed"), "total": r.get("total"), "finish_reason": run.get("finish_reason", "stop")}
        for key in ("usage", "retries", "error"):
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
    return json.dumps({k: v for k, v in report.items() if k != "results"}, indent=2)
