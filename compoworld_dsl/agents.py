"""Baseline agents that play episodes through the gateway: an oracle and a weak one.
They see only what any agent sees (the four meta-tools); the oracle also reads the task's plan.

Every agent answers the one way any agent does: its final message, as text, handed to
`Episode.report` unchanged (docs/export.md#one-answer-channel)."""

from __future__ import annotations

import json
import random
from typing import Any, Callable

from .gateway import Episode
from .taskfile import agent_plan


def _agent_name(episode: Episode, qualified: str) -> str | None:
    for name, q in episode.gateway.names.items():
        if q == qualified:
            return name
    return None


def run_oracle(episode: Episode, task: dict, skip: float = 0.0, seed: int = 0) -> list[dict]:
    """Discover tools like a real agent (list, describe), then follow the reference plan.
    With `skip` > 0 each step is left out with that probability (the weak agent). Returns the
    transcript: one {"name", "arguments", "result"} per meta-tool call."""
    rng = random.Random(f"{seed}:{task['id']}")
    transcript = []

    def call(name: str, arguments: dict) -> Any:
        result = episode.call(name, arguments)
        transcript.append({"name": name, "arguments": arguments, "result": result})
        return result

    services = call("list_services", {})["data"]["services"]
    for s in services:
        if s in task["services"]:
            call("list_tools", {"service": s})
    last = None
    got: dict[int, Any] = {}  # step number → the data its call returned
    for k, step in agent_plan(task):  # lookups too, before their steps (docs/task-format.md#lookups)
        name = _agent_name(episode, step["tool"])
        if name is None:
            continue
        call("describe_tool", {"tool": name})
        if skip and rng.random() < skip:
            continue
        last = call_step(call, name, step)
        if last.get("success") and k is not None:  # reports name walk steps; a lookup is none
            got[k] = last.get("data")
    answer = None
    if "reports" in task:  # goal-level tasks: tell each value asked for, read from its own call
        answer = reported(task["reports"], got)
    elif task.get("answer") is not None and last is not None and last.get("success"):
        answer = last["data"]  # tasks of format 1: the last call's result
    episode.report(final_message(answer))
    return transcript


def call_step(call: Callable[[str, dict], dict], name: str, step: dict) -> dict:
    """One step of a plan through `call` (a meta-tool caller): one `call_tool`, or, for a tool
    that answers a page at a time, one a page for the pages the plan reads (`pages`), answered
    as one result whose data is their elements in order (the first failure, if one fails)."""
    if "pages" not in step:
        return call("call_tool", {"tool_name": name, "arguments": step["arguments"]})
    items: list = []
    for page in range(1, step["pages"] + 1):
        got = call("call_tool", {"tool_name": name, "arguments": {**step["arguments"], "page": page}})
        if not got.get("success"):
            return got
        items += got["data"]["items"]
    return {"success": True, "data": items}


def final_message(answer: Any) -> str:
    """The oracle's last assistant message: what the task asked for, as one line of JSON after a
    short sentence (the checker reads the JSON in it), or "Done." when it asked for nothing."""
    if answer is None:
        return "Done."
    return "Done. What you asked for: " + json.dumps(answer, ensure_ascii=False)


def reported(reports: list[dict], got: dict[int, Any]) -> Any:
    """The answer to "tell me X, Y and Z" from the data each step's call returned: one value,
    or {label: value} for several (None when none was read)."""
    values = []
    for r in reports:
        data = got.get(r["step"])
        element = r.get("element")
        if element is not None and isinstance(data, list):
            data = next((e for e in data if isinstance(e, dict) and e.get(element["key"]) == element["value"]), None)
        if r.get("aggregate") is not None:  # "how many ...", "the total amount of ...": counted or added up
            data = _aggregate(r["aggregate"], data) if isinstance(data, list) else None
        if r.get("field") is not None:
            data = data.get(r["field"]) if isinstance(data, dict) else None
        values.append(data)
    if all(v is None for v in values):
        return None
    if len(reports) == 1:
        return values[0]
    return {r["label"]: v for r, v in zip(reports, values) if v is not None}


def _aggregate(aggregate: str, rows: list) -> Any:
    if aggregate == "count":
        return len(rows)
    from fractions import Fraction

    field = aggregate.split(" ", 1)[1]
    total = sum(Fraction(str(e[field])) for e in rows if isinstance(e, dict) and e.get(field) is not None)
    return int(total) if total.denominator == 1 else float(total)
