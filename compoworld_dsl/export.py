"""Exports: SFT trajectories (OpenAI chat shape, Hugging Face, ShareGPT) and RL task sets.
Turns episodes into records; it plays no episode itself and never scores one."""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator

from .agents import run_oracle
from .gateway import META_TOOLS, Episode


def records(world, tasks: Iterable[dict], kind: str = "sft", style: str = "openai", arguments_as: str = "string", runs: dict[str, dict] | None = None) -> Iterator[dict]:
    """One record per task, in order, as `worldc export KIND` writes them: `rl` items, or SFT
    chats of the oracle's episode (in `style`) or, given `runs` (task id → a run `worldc eval
    --record` wrote), of the recorded episode; a task no run covers is left out. Streams."""
    for task in tasks:
        if kind == "rl":
            yield rl_item(task)
        elif runs is not None:
            run = runs.get(task["id"])
            if run is not None:
                yield chat_record(task, run["transcript"], run.get("answer"), {"reward": run["reward"], "partial": run["partial"]}, "recorded")
        else:
            rec = trajectory(world, task)
            if style == "hf":
                rec = as_hf(rec, arguments_as)
            elif style == "sharegpt":
                rec = as_sharegpt(rec)
            yield rec


def trajectory(world, task: dict, discover_mode: str = "full") -> dict:
    """The oracle's episode as a chat record."""
    ep = Episode(world)
    ep.reset(task)
    transcript = run_oracle(ep, task)
    record = chat_record(task, transcript, ep.answer, ep.score(), discover_mode)
    ep.close()
    return record


def chat_record(task: dict, transcript: list[dict], answer: Any, score: dict, discover_mode: str = "full") -> dict:
    """A played episode as a chat: system, user, then one assistant tool call and its tool result
    per meta-tool call, then a final assistant message. `transcript` items are
    {"name", "arguments" (object or JSON string), "result"}, as the agents return them."""
    from .gateway import SYSTEM_PROMPT

    messages: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": task["instruction"]}]
    real = 0
    for i, turn in enumerate(transcript):
        call_id = f"call_{i + 1}"
        args = turn["arguments"] if isinstance(turn["arguments"], str) else json.dumps(turn["arguments"], ensure_ascii=False)
        messages.append({"role": "assistant", "content": None, "tool_calls": [{"id": call_id, "type": "function", "function": {"name": turn["name"], "arguments": args}}]})
        messages.append({"role": "tool", "tool_call_id": call_id, "content": json.dumps(turn["result"], ensure_ascii=False)})
        real += turn["name"] == "call_tool"
    final = "Done." if answer is None else "Done. What you asked for: " + json.dumps(answer, ensure_ascii=False)
    messages.append({"role": "assistant", "content": final})
    return {
        "tools": META_TOOLS,
        "messages": messages,
        "meta": {
            "task_id": task["id"],
            "services": task["services"],
            "domain": task["world"],
            "capabilities": task["capabilities"],
            "n_tool_calls": len(transcript),
            "n_real_tool_calls": real,
            "n_steps": task["hops"],
            "score": score["reward"],
            "partial": score["partial"],
            "discover_mode": discover_mode,
        },
    }


def as_hf(record: dict, arguments_as: str = "string") -> dict:
    """Hugging Face datasets want one schema per column: tools as a JSON string, and tool-call
    arguments either as a string (the default) or as an object."""
    out = dict(record)
    out["tools"] = json.dumps(record["tools"], ensure_ascii=False)
    if arguments_as == "object":
        msgs = []
        for m in record["messages"]:
            if m.get("tool_calls"):
                m = {**m, "tool_calls": [{**c, "function": {**c["function"], "arguments": json.loads(c["function"]["arguments"])}} for c in m["tool_calls"]]}
            msgs.append(m)
        out["messages"] = msgs
    return out


def as_sharegpt(record: dict) -> dict:
    roles = {"system": "system", "user": "human", "tool": "observation"}
    conv: list[dict[str, Any]] = []
    for m in record["messages"]:
        if m["role"] == "assistant" and m.get("tool_calls"):
            f = m["tool_calls"][0]["function"]
            conv.append({"from": "function_call", "value": json.dumps({"name": f["name"], "arguments": json.loads(f["arguments"])}, ensure_ascii=False)})
        elif m["role"] == "assistant":
            conv.append({"from": "gpt", "value": m["content"]})
        else:
            conv.append({"from": roles[m["role"]], "value": m["content"]})
    return {"conversations": conv, "tools": json.dumps(record["tools"], ensure_ascii=False), "meta": record["meta"]}


def rl_item(task: dict) -> dict:
    """One RL task: the prompt an environment starts from, and what it needs to score."""
    from .gateway import SYSTEM_PROMPT

    return {
        "id": task["id"],
        "prompt": [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": task["instruction"]}],
        "tools": META_TOOLS,
        "world": task["world"],
        "task": task,  # reset an Episode with it; Episode.score() is the reward
    }
