"""Exports: SFT trajectories in three styles (OpenAI wire format, Hugging Face chat templates,
CompoWorld's published trajectories) and RL task sets. Turns episodes into records; it plays no
episode itself (the agents do) and never scores one (the checker does).

Every style carries the same conversation: system prompt, instruction, one assistant tool call and
its result per meta-tool call, and the agent's final message, which is the answer the checker reads
(docs/export.md#one-answer-channel). Tool results are `result_text` of the gateway's envelope,
byte for byte what `worldc serve` and `worldc eval` give a model."""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator

from .agents import final_message, run_oracle
from .gateway import META_TOOLS, SYSTEM_PROMPT, Episode, result_text

STYLES = ("openai", "hf", "compoworld")
SOURCE = "compoworld-dsl"  # the record's `source` in --style compoworld

# What each style is for (docs/export.md's table is checked against this).
STYLE_USE = {
    "openai": "OpenAI's fine-tuning API and any trainer that takes the OpenAI wire format (arguments as JSON strings)",
    "hf": "Hugging Face `tokenizer.apply_chat_template(messages, tools=tools)` and TRL's SFTTrainer (arguments as objects; load with `hf_features()`)",
    "compoworld": "mixing with CompoWorld's published trajectories (their keys and value types)",
}

# `--style sharegpt` was dropped: TRL renames `from`/`value` to `role`/`content` but keeps the roles
# human/gpt/function_call/observation, which no chat template renders, so every row trained on the
# system prompt alone, silently (decision D24).
DROPPED_STYLES = {"sharegpt": "it was dropped: TRL keeps its roles (human, gpt, function_call, observation), which chat templates drop, so rows trained on the system prompt alone; use --style hf for TRL and Hugging Face templates"}


def records(world, tasks: Iterable[dict], kind: str = "sft", style: str = "openai", runs: dict[str, dict] | None = None) -> Iterator[dict]:
    """One record per task, in order, as `worldc export KIND` writes them: `rl` items, or SFT
    chats of the oracle's episode or, given `runs` (task id → a run `worldc eval --record`
    wrote), of the recorded episode; a task no run covers is left out. Streams."""
    for task in tasks:
        if kind == "rl":
            yield rl_item(task)
            continue
        if runs is not None:
            run = runs.get(task["id"])
            if run is None:
                continue
            played = Played(task, run["transcript"], _recorded_final(run.get("answer")), run["reward"], run["partial"], run.get("passed"), run.get("total"), src=str(run.get("src") or "recorded"), finish_reason=str(run.get("finish_reason") or "stop"), discovered=None)
        else:
            played = oracle_episode(world, task)
        yield render(played, style)


class Played:
    """One played episode, whatever played it: the task, the meta-tool calls with their results,
    the final message and the checker's score."""

    def __init__(self, task: dict, transcript: list[dict], final: str | None, reward: float, partial: float, passed: int | None = None, total: int | None = None, src: str = "oracle", finish_reason: str = "stop", discovered: bool | None = True):
        self.task = task
        self.transcript = transcript
        self.final = final
        self.reward = reward
        self.partial = partial
        self.passed = passed
        self.total = total
        self.src = src
        self.finish_reason = finish_reason
        # did the agent list and describe before calling? (None: look at the transcript)
        self.discovered = discovered if discovered is not None else any(t["name"] in ("list_tools", "describe_tool") for t in transcript)


def oracle_episode(world, task: dict) -> Played:
    ep = Episode(world)
    ep.reset(task)
    transcript = run_oracle(ep, task)
    s = ep.score()
    played = Played(task, transcript, ep.answer, s["reward"], s["partial"], s["passed"], s["total"])
    ep.close()
    return played


def _recorded_final(answer: Any) -> str | None:
    """A recorded run's final message. Runs record it as text; files from before the single answer
    channel recorded a JSON value, which reads as the oracle's final message would."""
    if answer is None or isinstance(answer, str):
        return answer
    return final_message(answer)


def _arguments(arguments: Any) -> dict:
    """Tool-call arguments as an object (a recorded run may hold the model's JSON text)."""
    if isinstance(arguments, str):
        try:
            value = json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            return {"_unparsed": arguments}  # what the model sent was not JSON; kept, visibly
        return value if isinstance(value, dict) else {"_unparsed": arguments}
    return arguments if isinstance(arguments, dict) else {}


def render(played: Played, style: str = "openai") -> dict:
    """The episode as one record of `style` (see STYLES and docs/export.md)."""
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; use {', '.join(STYLES)}")
    as_string = style == "openai"  # the wire format's arguments are JSON text; templates take objects
    bare = style == "compoworld"
    messages: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": played.task["instruction"]}]
    for i, turn in enumerate(played.transcript):
        call_id = f"call_{i + 1}"
        args = _arguments(turn["arguments"])
        arguments: Any = json.dumps(args, ensure_ascii=False) if as_string else args
        # OpenAI's wire format has `content: null` beside tool calls; chat templates want a string
        content = None if style == "openai" else ""
        messages.append({"role": "assistant", "content": content, "tool_calls": [{"id": call_id, "type": "function", "function": {"name": turn["name"], "arguments": arguments}}]})
        result = turn["result"]
        if bare and turn["name"] != "call_tool" and isinstance(result, dict) and result.get("success") is True:
            result = result.get("data")  # CompoWorld's discovery tools answer with their data alone
        tool_message = {"role": "tool", "tool_call_id": call_id, "content": result_text(result)}
        if style != "openai":
            tool_message["name"] = turn["name"]
        messages.append(tool_message)
    if played.final is not None:
        messages.append({"role": "assistant", "content": played.final})
    record = {"tools": META_TOOLS, "messages": messages, "meta": _meta(played, style)}
    if bare:
        record["source"] = SOURCE
    return record


def _meta(played: Played, style: str) -> dict:
    task = played.task
    n_real = sum(1 for t in played.transcript if t["name"] == "call_tool")
    if style != "compoworld":
        return {
            "task_id": task["id"],
            "services": task["services"],
            "domain": task["world"],
            "capabilities": task["capabilities"],
            "n_tool_calls": len(played.transcript),
            "n_real_tool_calls": n_real,
            "n_steps": task["hops"],
            "score": played.reward,
            "partial": played.partial,
            "discover_mode": "full" if played.discovered else "none",
            "src": played.src,
        }
    rubric = played.passed / played.total if played.passed is not None and played.total else float(played.reward)
    return {
        # CompoWorld's own keys, with their value types (COMPOWORLD_META)
        "task_id": task["id"],
        "src": played.src,
        "rollout_idx": 0,
        "domain": task["world"],
        "services": list(task["services"]),
        "capabilities": list(task["capabilities"]),
        "n_tool_calls": len(played.transcript),
        "n_real_tool_calls": n_real,
        "n_steps": task["hops"],
        "score": float(played.reward),
        "rubric_score": float(rubric),
        "net_score": float(played.partial),
        "finish_reason": played.finish_reason,
        "discover_mode": bool(played.discovered),
        # our own facts, under names CompoWorld's data does not use (COMPOWORLD_EXTRA_META)
        "cwdsl_reward": int(played.reward),
        "cwdsl_partial": float(played.partial),
        "cwdsl_hops": task["hops"],
        "cwdsl_distractors": list(task.get("distractors", [])),
        "cwdsl_proofs": task.get("proofs", {}),
    }


# The keys and value types of --style compoworld (docs/export.md); tests/test_training_interop.py
# checks records against its own list and that list against these tables.
COMPOWORLD_RECORD = {"tools": list, "messages": list, "meta": dict, "source": str}
COMPOWORLD_META = {
    "task_id": str,
    "src": str,
    "rollout_idx": int,
    "domain": str,
    "services": list,
    "capabilities": list,
    "n_tool_calls": int,
    "n_real_tool_calls": int,
    "n_steps": int,
    "score": float,
    "rubric_score": float,
    "net_score": float,
    "finish_reason": str,
    "discover_mode": bool,
}
COMPOWORLD_EXTRA_META = {"cwdsl_reward": int, "cwdsl_partial": float, "cwdsl_hops": int, "cwdsl_distractors": list, "cwdsl_proofs": dict}


def hf_features(style: str = "hf"):
    """Hugging Face `datasets` features that keep a style's records exactly as written.
    Inferred features would merge every tool call's arguments into one struct and fill the keys a
    call lacks with null, which templates then render (`{"service": null, "tool": null, ...}`);
    `Json` columns round-trip each value. Needs `datasets` 5 or later (the `trl` extra)."""
    from datasets import Features, Json, List, Value

    features = {"tools": List(Json()), "messages": List(Json()), "meta": Json()}
    if style == "compoworld":
        features["source"] = Value("string")
    return Features(features)


def rl_item(task: dict) -> dict:
    """One RL task: the prompt an environment starts from, and what it needs to score."""
    return {
        "id": task["id"],
        "prompt": [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": task["instruction"]}],
        "tools": META_TOOLS,
        "world": task["world"],
        "task": task,  # reset an Episode with it; report the final message; Episode.score() is the reward
    }
