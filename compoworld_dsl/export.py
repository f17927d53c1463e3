"""Exports: SFT trajectories in three styles (OpenAI wire format, Hugging Face chat templates,
CompoWorld's published trajectories) and RL task sets. Turns episodes into records; it plays no
episode itself (the agents do) and never scores one (the checker does).

Every style carries the same conversation: system prompt, instruction, one assistant tool call and
its result per meta-tool call, and the agent's final message, which is the answer the checker reads
(docs/export.md#one-answer-channel). Tool results are `result_text` of the gateway's envelope,
byte for byte what `worldc serve` and `worldc eval` give a model."""

from __future__ import annotations

import hashlib
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
    if style == "compoworld":
        return _compoworld(played)
    as_string = style == "openai"  # the wire format's arguments are JSON text; templates take objects
    messages: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": played.task["instruction"]}]
    for i, turn in enumerate(played.transcript):
        call_id = f"call_{i + 1}"
        args = _arguments(turn["arguments"])
        arguments: Any = json.dumps(args, ensure_ascii=False) if as_string else args
        # OpenAI's wire format has `content: null` beside tool calls; chat templates want a string
        content = None if style == "openai" else ""
        messages.append({"role": "assistant", "content": content, "tool_calls": [{"id": call_id, "type": "function", "function": {"name": turn["name"], "arguments": arguments}}]})
        tool_message = {"role": "tool", "tool_call_id": call_id, "content": result_text(turn["result"])}
        if style != "openai":
            tool_message["name"] = turn["name"]
        messages.append(tool_message)
    if played.final is not None:
        messages.append({"role": "assistant", "content": played.final})
    return {"tools": META_TOOLS, "messages": messages, "meta": _meta(played)}


def _compoworld(played: Played) -> dict:
    """A record in CompoWorld's published shape (../shared/formats/compoworld.md): their keys in
    their order, their value types and conventions, so one `load_dataset` reads both files."""
    task = played.task
    messages: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": task["instruction"]}]
    for i, turn in enumerate(played.transcript):
        call_id = "call_" + hashlib.sha256(f"{task['id']}:{i}".encode()).hexdigest()[:24]
        call = {"id": call_id, "type": "function", "function": {"name": turn["name"], "arguments": _arguments(turn["arguments"])}}
        messages.append({"role": "assistant", "content": "", "reasoning_content": "", "tool_calls": [call]})
        result = turn["result"]
        if turn["name"] != "call_tool" and isinstance(result, dict) and result.get("success") is True:
            result = result.get("data")  # CompoWorld's discovery tools answer with their data alone
        messages.append({"role": "tool", "tool_call_id": call_id, "name": turn["name"], "content": result_text(result)})
    if played.final is not None:
        messages.append({"role": "assistant", "content": played.final, "reasoning_content": ""})
    n_real = sum(1 for t in played.transcript if t["name"] == "call_tool")
    rubric = played.passed / played.total if played.passed is not None and played.total else float(played.reward)
    meta = {
        # CompoWorld's keys, in their order, with their value types (COMPOWORLD_META)
        "task_id": compoworld_task_id(task["id"]),
        "src": played.src,
        "rollout_idx": 0,
        "rubric_score": float(rubric),
        "score": float(played.reward),
        "net_score": float(played.partial),
        "n_tool_calls": len(played.transcript),
        "n_real_tool_calls": n_real,
        "n_steps": sum(1 for m in messages if m["role"] == "assistant"),
        "discover_mode": "gateway",  # every episode meets the world through the four meta-tools
        "finish_reason": played.finish_reason,
        "services": list(task["services"]),
        "domain": compoworld_domain(task["world"]),
        "capabilities": list(task["capabilities"]),
        # our own facts, under names CompoWorld's data does not use, in types that cannot clash
        # with theirs when Arrow infers one schema for both (COMPOWORLD_EXTRA_META)
        "cwdsl_task_id": task["id"],
        "cwdsl_reward": int(played.reward),
        "cwdsl_partial": float(played.partial),
        "cwdsl_hops": task["hops"],
        "cwdsl_discovered": bool(played.discovered),
        "cwdsl_distractors": list(task.get("distractors", [])),
        "cwdsl_proofs": json.dumps(task.get("proofs", {}), ensure_ascii=False, sort_keys=True),
    }
    return {"tools": COMPOWORLD_TOOLS, "messages": messages, "meta": meta, "source": SOURCE}


def compoworld_task_id(task_id: str) -> int:
    """CompoWorld's ids are integers; ours are names (`legal_ops-h5-s1-000101`). The integer is
    the first 60 bits of the name's sha256: the same in every file, within int64 for Arrow, and
    unique in practice (among a million ids, two meet with odds of about 4 in 10 million). The
    name itself rides along as `meta.cwdsl_task_id`."""
    return int(hashlib.sha256(task_id.encode("utf-8")).hexdigest()[:15], 16)


# World names as CompoWorld spells the domains it shares with us; others are hyphenated alike.
COMPOWORLD_DOMAINS = {"support": "customer-support"}


def compoworld_domain(world: str) -> str:
    return COMPOWORLD_DOMAINS.get(world, world.replace("_", "-"))


def _compoworld_tools() -> list[dict]:
    """The meta-tools as CompoWorld's records declare them: `required` always present, no
    `additionalProperties` on the wrappers, and `call_tool.arguments` an open object that is
    required. Names, descriptions and argument descriptions are the gateway's."""
    out = []
    for tool in META_TOOLS:
        fn = tool["function"]
        props = {k: dict(v) for k, v in fn["parameters"]["properties"].items()}
        required = list(fn["parameters"].get("required", []))
        if fn["name"] == "call_tool":
            props["arguments"] = {"type": "object", "additionalProperties": True, **{k: v for k, v in props["arguments"].items() if k != "type"}}
            required = ["tool_name", "arguments"]
        out.append({"type": "function", "function": {"name": fn["name"], "description": fn["description"], "parameters": {"type": "object", "properties": props, "required": required}}})
    return out


COMPOWORLD_TOOLS = _compoworld_tools()


def _meta(played: Played) -> dict:
    task = played.task
    n_real = sum(1 for t in played.transcript if t["name"] == "call_tool")
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


# The keys and value types of --style compoworld (docs/export.md); tests/test_training_interop.py
# checks records against its own list and that list against these tables.
COMPOWORLD_RECORD = {"tools": list, "messages": list, "meta": dict, "source": str}
COMPOWORLD_META = {
    "task_id": int,
    "src": str,
    "rollout_idx": int,
    "rubric_score": float,
    "score": float,
    "net_score": float,
    "n_tool_calls": int,
    "n_real_tool_calls": int,
    "n_steps": int,
    "discover_mode": str,
    "finish_reason": str,
    "services": list,
    "domain": str,
    "capabilities": list,
}
COMPOWORLD_EXTRA_META = {"cwdsl_task_id": str, "cwdsl_reward": int, "cwdsl_partial": float, "cwdsl_hops": int, "cwdsl_discovered": bool, "cwdsl_distractors": list, "cwdsl_proofs": str}


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
