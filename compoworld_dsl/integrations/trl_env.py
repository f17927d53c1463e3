"""TRL's GRPOTrainer `environment_factory` over task episodes (docs/export.md#trl-grpo).

    from compoworld_dsl.integrations.trl_env import grpo_inputs
    dataset, environment_factory, reward = grpo_inputs("worlds/legal_ops.world", "tasks.jsonl")
    trainer = GRPOTrainer(model=..., train_dataset=Dataset.from_list(dataset),
                          environment_factory=environment_factory, reward_funcs=[reward], ...)

TRL makes one environment per rollout with `environment_factory()`, calls its `reset(**row)` with
the dataset row (its `task_id` picks the task), offers its public methods to the model as tools,
and calls `reward(completions, environments=...)` at the end. The four methods are the gateway's
meta-tools, with the names, descriptions and arguments of `META_TOOLS`, and each returns
`result_text` of the envelope: what the model sees in RL is byte for byte what SFT showed it.

The reward hands the rollout's final assistant message to `Episode.report` unchanged, the one
answer channel (the environment defines no `get_reward`, which could not see that message)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from ..gateway import SYSTEM_PROMPT, Episode, result_text


class WorldEnvironment:
    """One rollout's episode. Public methods are the model's tools (TRL reads their signatures
    and Google-style docstrings); `reset` and the underscored ones are not."""

    def __init__(self, world, tasks: dict[str, dict]):
        self._world = world
        self._tasks = tasks
        self._episode: Episode | None = None

    def reset(self, task_id: str | None = None, **row: Any) -> None:
        """Start the episode of the row's task; the prompt already holds the instruction."""
        task = self._tasks.get(str(task_id))
        if task is None:
            raise KeyError(f"no task {task_id!r}: rows come from grpo_inputs(), whose task_id column names the task")
        self._episode = Episode(self._world)
        self._episode.reset(task)

    def _call(self, name: str, arguments: dict) -> str:
        if self._episode is None:
            return result_text({"success": False, "error": {"code": 409, "message": "the episode has not been reset"}})
        return result_text(self._episode.call(name, arguments))

    def list_services(self) -> str:
        """List the services you can use."""
        return self._call("list_services", {})

    # Required arguments have no default, so the schema TRL derives marks them required as
    # META_TOOLS does (a call without one is TRL's {"error": ...}, not our envelope).
    def list_tools(self, service: str) -> str:
        """List the tools of one service, with what each does.

        Args:
            service: The name of a service, as list_services gives it.
        """
        return self._call("list_tools", {"service": service})

    def describe_tool(self, tool: str) -> str:
        """The JSON Schema of a tool's arguments.

        Args:
            tool: The name of a tool, as list_tools gives it.
        """
        return self._call("describe_tool", {"tool": tool})

    def call_tool(self, tool_name: str, arguments: dict = None) -> str:  # type: ignore[assignment]  # `dict` keeps the schema non-nullable, as META_TOOLS has it
        """Call a tool with arguments.

        Args:
            tool_name: The name of a tool, as list_tools gives it.
            arguments: The tool's arguments, as describe_tool describes them.
        """
        return self._call("call_tool", {"tool_name": tool_name, "arguments": arguments})

    def _finish(self, final_message: str | None) -> dict:
        """Report the final message (None: the model gave none) and score the episode."""
        if self._episode is None:
            return {"reward": 0, "partial": 0.0, "failed": [{"id": "-", "kind": "episode", "reason": "not reset"}]}
        if final_message is not None:
            self._episode.report(final_message)
        return self._episode.score()


def final_message(completion: Any) -> str | None:
    """The rollout's final message: the content of its last assistant message, when that message
    calls no tool (a rollout cut off mid-call has none)."""
    if isinstance(completion, str):
        return completion
    for message in reversed(completion or []):
        if isinstance(message, dict) and message.get("role") == "assistant":
            if message.get("tool_calls"):
                return None
            content = message.get("content")
            if isinstance(content, list):  # content blocks
                content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
            return content if isinstance(content, str) else None
    return None


def reward(completions: list, environments: list[WorldEnvironment] | None = None, **_: Any) -> list[float]:
    """GRPO reward function: the checker's 0/1 for each rollout, its final message as the answer."""
    if environments is None:
        raise ValueError("the compoworld reward needs TRL's `environments`: pass environment_factory to GRPOTrainer")
    return [float(env._finish(final_message(c))["reward"]) for c, env in zip(completions, environments)]


def partial_credit(completions: list, environments: list[WorldEnvironment] | None = None, **_: Any) -> list[float]:
    """The checker's partial credit instead (docs/task-format.md): for shaping, or as a logged
    second reward with weight 0. Call it after `reward` or alone; reporting twice is harmless."""
    if environments is None:
        raise ValueError("the compoworld reward needs TRL's `environments`: pass environment_factory to GRPOTrainer")
    return [float(env._finish(final_message(c))["partial"]) for c, env in zip(completions, environments)]


def grpo_inputs(world_path: str, tasks_path: str) -> tuple[list[dict], Callable[[], WorldEnvironment], Callable]:
    """(dataset rows, environment factory, reward function) for a world and a task file. Rows are
    {"prompt": [system, user], "task_id"}: load them with `datasets.Dataset.from_list`."""
    from ..sample.run import load_sampler

    world = load_sampler(world_path).world
    tasks: dict[str, dict] = {}
    with open(Path(tasks_path), encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                task = json.loads(line)
                tasks[task["id"]] = task
    rows = [{"prompt": [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": t["instruction"]}], "task_id": t["id"]} for t in tasks.values()]
    return rows, lambda: WorldEnvironment(world, tasks), reward
