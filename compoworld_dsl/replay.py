"""Replaying exported trajectories: the moves a model that reproduces a record exactly would make,
read back from any export style. `worldc eval --agent replay:SFT.jsonl` plays them, so a dataset
can be checked to score what it claims before anyone trains on it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .gateway import Episode


class ReplayError(ValueError):
    """A record that is not an SFT record of a known style."""


def moves(record: dict) -> tuple[list[tuple[str, Any]], str | None]:
    """(meta-tool calls as (name, arguments), final message) of an SFT record in any export
    style. Arguments are passed on as the record holds them: a JSON string or an object."""
    messages = record.get("messages") if isinstance(record, dict) else None
    if not isinstance(messages, list):
        raise ReplayError("not an SFT record: no `messages` list")
    calls: list[tuple[str, Any]] = []
    final = None
    for m in messages:
        if not isinstance(m, dict) or m.get("role") != "assistant":
            continue
        if m.get("tool_calls"):
            for c in m["tool_calls"]:
                fn = c.get("function") or {}
                calls.append((fn.get("name", ""), fn.get("arguments")))
            final = None  # only the last message, after the last call, is the final one
        elif isinstance(m.get("content"), str):
            final = m["content"]
    return calls, final


def play(episode: Episode, record: dict) -> list[dict]:
    """Make the record's moves in a reset episode and report its final message unchanged.
    Returns the transcript, as the agents do."""
    calls, final = moves(record)
    transcript = []
    for name, arguments in calls:
        result = episode.call(name, arguments)
        transcript.append({"name": name, "arguments": arguments, "result": result})
    if final is not None:
        episode.report(final)
    return transcript


def load(path: str | Path) -> dict[str, dict]:
    """SFT records by task id (`meta.task_id`, or `meta.cwdsl_task_id` in CompoWorld's style,
    whose `task_id` is an integer)."""
    out: dict[str, dict] = {}
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                meta = record["meta"]
                task_id = meta.get("cwdsl_task_id", meta["task_id"])
            except (ValueError, KeyError, TypeError):
                raise ReplayError(f"{path}:{number}: not an SFT record with meta.task_id") from None
            out[str(task_id)] = record
    return out


def agent(path: str | Path):
    """An eval agent that replays the record of each task (a task with no record: no moves)."""
    records = load(path)

    def run(episode: Episode, task: dict) -> list[dict]:
        record = records.get(task["id"])
        return play(episode, record) if record is not None else []

    return run
