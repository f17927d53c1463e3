"""A `verifiers` (v0.4, its `verifiers.v1` stack) environment over task episodes.

    from compoworld_dsl.integrations.verifiers_env import load_environment
    env = load_environment("worlds/legal_ops.world", "tasks.jsonl")   # a vf.SingleAgentEnv

verifiers builds an environment from a *taskset* plugin: the env config names the taskset by id, and
it is imported by that id (a top-level module exporting its `Taskset` via `__all__`). This module is
that plugin; it registers itself under `TASKSET_ID` when imported, as verifiers cannot resolve the
dotted name of a module inside a package.

One rollout: the task's prompt is the system prompt and the instruction, exactly the messages of
`Episode.reset`. The four meta-tools are served to the model by `CompoworldToolset`, an MCP tool
server verifiers launches *per rollout* (a process of its own, holding that rollout's one `Episode`);
each returns `result_text` of the gateway's envelope. The server logs every meta-tool call it ran
into the rollout's `State`, which verifiers syncs back to the host. Scoring then replays those calls
in a fresh `Episode` of the same task (the runtime is deterministic), reports the model's final
assistant message unchanged, the one answer channel, and takes the checker's 0/1 as the reward and
its partial credit as a metric (recorded, not summed into the reward).

The default agent is verifiers' `null` harness (a plain chat loop whose only tools are the MCP
servers') on the `subprocess` runtime; pass `agent={...}` to change either.

Failures: verifiers records a rollout's failure (its setup's included) on the rollout's trace only;
`CompoworldEnv` also puts it on `episode.errors`, in one line that names the cause. A task the world
cannot set up fails at the rollout's host-side setup, before a harness or tool server starts."""

from __future__ import annotations

import functools
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

try:
    import verifiers.v1 as vf
    from verifiers.v1.types import AssistantMessage, content_text
except ImportError as e:  # importing compoworld_dsl never needs verifiers; this module does
    raise ImportError("the verifiers adapter needs: pip install verifiers") from e

from ..gateway import SYSTEM_PROMPT, Episode, result_text

TASKSET_ID = "compoworld_verifiers"
"""The taskset id verifiers resolves to this module (see the module docstring)."""

# verifiers reads the one Taskset and the one Env in __all__
__all__ = ["CompoworldEnv", "CompoworldTaskset", "load_environment"]

UV_HINT = (
    "verifiers' harness provisions its chat program with `uv sync --script`, which needs uv (the"
    " `verifiers` extra installs it) and a package index it can reach: see docs/verifiers.md"
)


@functools.lru_cache(maxsize=8)
def _world(path: str):
    """The compiled world at `path`. Cached per process: a compiled world is read-only (each
    episode works on its own snapshot of the state), so rollouts share it safely."""
    from ..sample.run import load_sampler

    return load_sampler(path).world


def _reset(world: str, task: dict) -> Episode:
    """An episode of `task` in the world at `world`, reset. A task is data read from a file, so
    whatever it lacks surfaces as one ValueError naming the task and the cause, the line verifiers
    records for the rollout."""
    episode = Episode(_world(world))
    try:
        episode.reset(task)
    except Exception as e:
        raise ValueError(f"task {task.get('id')!r} cannot be set up in {world}: {type(e).__name__}: {e}") from None
    return episode


class CompoworldData(vf.TaskData):
    """One task on the wire: `prompt`/`system_prompt` are what the harness shows the model; the
    task dict and the world's path are what the tool server and the checker need."""

    world: str
    """Absolute path of the .world file the task was sampled from."""
    task: dict[str, Any]
    """The task as `worldc sample` wrote it (instruction, initial state, checker, ...)."""


class CompoworldState(vf.State):
    """What the tool server hands back to the host: the meta-tool calls it ran, in order."""

    calls: list[tuple[str, Any]] = []
    """(meta-tool name, arguments) of every call, as the model made it (arguments unchanged)."""


class CompoworldTaskConfig(vf.TaskConfig):
    """Run-time knobs of a task (`--env.taskset.task.*`)."""

    tools: vf.ToolsetConfig = vf.ToolsetConfig()
    """Placement of the meta-tool server (default: a subprocess beside the harness)."""


class CompoworldToolset(vf.Toolset[vf.ToolsetConfig, CompoworldState]):
    """The four meta-tools over one rollout's `Episode`. Launched per rollout, so the episode on
    `self` belongs to that rollout alone. Names, descriptions and arguments are those of
    `META_TOOLS`; every result is `result_text` of the gateway's envelope."""

    TOOL_PREFIX = None  # the model sees the four names bare, as META_TOOLS has them

    def __init__(self, config: vf.ToolsetConfig) -> None:
        super().__init__(config)
        self._episode: Episode | None = None
        self._calls: list[tuple[str, Any]] = []

    async def setup_task(self, task: CompoworldData) -> None:
        """Reset this rollout's episode on its task (verifiers calls it once, at launch)."""
        self._episode = _reset(task.world, task.task)
        self._calls = []

    def _call(self, name: str, arguments: dict) -> str:
        if self._episode is None:
            return result_text({"success": False, "error": {"code": 409, "message": "the episode has not been reset"}})
        envelope = self._episode.call(name, arguments)
        self._calls.append((name, arguments))
        # The whole log, not an append: verifiers' state sync is last-write-wins per call.
        self.state.calls = list(self._calls)
        return result_text(envelope)

    @vf.tool
    def list_services(self) -> str:
        """List the services you can use."""
        return self._call("list_services", {})

    @vf.tool
    def list_tools(self, service: str) -> str:
        """List the tools of one service, with what each does."""
        return self._call("list_tools", {"service": service})

    @vf.tool
    def describe_tool(self, tool: str) -> str:
        """The JSON Schema of a tool's arguments."""
        return self._call("describe_tool", {"tool": tool})

    # `dict = None`, not `dict | None`: keeps the advertised schema an object, as META_TOOLS has it.
    @vf.tool
    def call_tool(self, tool_name: str, arguments: dict = None) -> str:  # type: ignore[assignment]
        """Call a tool with arguments."""
        return self._call("call_tool", {"tool_name": tool_name, "arguments": arguments})


def final_message(trace: vf.Trace) -> str | None:
    """The rollout's final message: the content of the last assistant message on the trace's
    final branch, when that message calls no tool (a rollout cut off mid-call has none)."""
    for message in reversed(trace.messages):
        if isinstance(message, AssistantMessage):
            if message.tool_calls:
                return None
            return message.content if isinstance(message.content, str) else content_text(message.content)
    return None


class CompoworldTask(vf.Task[CompoworldData, CompoworldState, CompoworldTaskConfig]):
    """A task's tool server and its scoring."""

    @classmethod
    def toolsets(cls, config: CompoworldTaskConfig) -> list[vf.Toolset]:
        return [CompoworldToolset(config.tools)]

    async def setup(self, trace: vf.Trace, runtime: Any) -> None:
        """Set the task up once on the host, before its harness and tool server start: a task the
        world cannot set up fails here with its cause, not as a tool server's traceback."""
        _reset(self.data.world, self.data.task)

    def outcome(self, trace: vf.Trace) -> dict:
        """The checker's verdict on the rollout (`Episode.score`): the tool server's calls replayed
        in a fresh episode, then the final message reported unchanged. Kept on
        `trace.info["compoworld"]` (which checks failed, and why), computed once per trace."""
        if "compoworld" not in trace.info:
            episode = _reset(self.data.world, self.data.task)
            for name, arguments in trace.state.calls:
                episode.call(name, arguments)
            answer = final_message(trace)
            if answer is not None:
                episode.report(answer)
            trace.info["compoworld"] = episode.score()
        return trace.info["compoworld"]

    @vf.reward(weight=1.0)
    async def reward(self, trace: vf.Trace) -> float:
        """1 when every check of the task's checker passes, else 0."""
        return float(self.outcome(trace)["reward"])

    @vf.metric
    async def partial(self, trace: vf.Trace) -> float:
        """The checker's partial credit: goal checks passed, less one per stray change or broken rule."""
        return float(self.outcome(trace)["partial"])


class CompoworldTasksetConfig(vf.TasksetConfig):
    """Which tasks load (`--env.taskset.*`)."""

    world: str = ""
    """Path of the compiled world's .world file."""
    tasks: str = ""
    """Path of a task JSONL file sampled from that world (`worldc sample`)."""
    task: CompoworldTaskConfig = CompoworldTaskConfig()


class CompoworldTaskset(vf.Taskset[CompoworldTask, CompoworldTasksetConfig]):
    """The tasks of a JSONL file, in file order."""

    def load(self) -> list[CompoworldTask]:
        if not self.config.world or not self.config.tasks:
            raise ValueError("set both the world (--env.taskset.world) and the task file (--env.taskset.tasks)")
        world = str(Path(self.config.world).resolve())
        _world(world)  # fail here, not in every rollout, on a world that does not compile
        out = []
        with open(self.config.tasks, encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                if line.strip():
                    task = _task(line, f"{self.config.tasks}:{number}")
                    data = CompoworldData(id=str(task["id"]), prompt=task["instruction"], system_prompt=SYSTEM_PROMPT, world=world, task=task)
                    out.append(CompoworldTask(data, self.config.task))
        return out


def _task(line: str, where: str) -> dict:
    """One line of a task file, as a task; a line that is not one is a ValueError naming `where`."""
    try:
        task = json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"{where}: not JSON ({e.msg} at column {e.colno})") from None
    if not isinstance(task, dict):
        raise ValueError(f"{where}: a task is a JSON object, not {type(task).__name__}")
    missing = [key for key in ("id", "instruction") if key not in task]
    if missing:
        raise ValueError(f"{where}: the task has no {' or '.join(missing)} (a task file is what `worldc sample` writes)")
    return task


def _one_line(message: str) -> str:
    """`message` in one line. A message that carries a traceback (a tool server that died, its log's
    tail) keeps the text before it and the exception's own line; the trace keeps the whole."""
    head, marker, tail = message.partition("Traceback (most recent call last)")
    if marker:
        last = [line for line in tail.splitlines() if line.strip()]
        message = f"{head.strip().rstrip(':')}: {last[-1].strip()}" if last else head
    return "; ".join(line.strip() for line in message.splitlines() if line.strip())


def _episode_error(error: Any) -> Any:
    message = _one_line(error.message)
    if "uv script" in message:
        message = f"{message} ({UV_HINT})"
    return error.model_copy(update={"message": message})


class CompoworldEnv(vf.SingleAgentEnv):
    """verifiers' single-agent env, which records a failed rollout's errors on its trace only; this
    one puts them on `episode.errors` too (`ok` false with no error there told nobody why)."""

    async def finalize(self, task: vf.Task, episode: vf.Episode) -> None:
        await super().finalize(task, episode)
        for trace in episode.traces:
            if not trace.ok:  # an ok trace's errors are attempts its retries recovered from
                episode.errors.extend(_episode_error(error) for error in trace.errors)


def _uv_on_path(agent: dict) -> dict:
    """`agent` with the directory of the extra's uv first on its harness's PATH, when the harness
    runs on this host (the subprocess runtime) and PATH has no uv: pip puts uv beside the
    interpreter, a directory on PATH only while the environment is activated. A PATH the harness's
    own `env` sets is kept."""
    runtime, harness = agent.get("runtime"), agent.get("harness")
    if not isinstance(runtime, dict) or runtime.get("type") != "subprocess" or not isinstance(harness, dict):
        return agent
    env = dict(harness.get("env") or {})
    if "PATH" in env or shutil.which("uv"):
        return agent
    try:
        from uv import find_uv_bin

        uv = find_uv_bin()
    except (ImportError, FileNotFoundError):  # verifiers then tries to fetch uv itself
        return agent
    env["PATH"] = os.pathsep.join([str(Path(uv).parent), os.environ.get("PATH", os.defpath)])
    return {**agent, "harness": {**harness, "env": env}}


def load_environment(world: str, tasks: str, **kwargs: Any) -> vf.Env:
    """The verifiers environment playing the tasks of `tasks` (a JSONL file) in `world` (a .world
    file): a `CompoworldEnv`, verifiers' `SingleAgentEnv` that puts failed rollouts' errors on
    `episode.errors` too. `kwargs` are further fields of its `SingleAgentEnvConfig`, e.g.
    `agent={"harness": {"id": "bash"}, "runtime": {"type": "docker"}}` or `timeout={...}`; a
    `taskset` dict adds to the taskset's (e.g. `{"task": {"tools": {...}}}`)."""
    taskset = {"id": TASKSET_ID, "world": str(world), "tasks": str(tasks), **kwargs.pop("taskset", {})}
    agent = _uv_on_path({"harness": {"id": "null"}, "runtime": {"type": "subprocess"}, **kwargs.pop("agent", {})})
    config = vf.resolve_env_config({"taskset": taskset, "agent": agent, **kwargs})
    return vf.load_environment(config)


# verifiers imports a taskset by its id as a top-level module; this one lives inside a package.
sys.modules.setdefault(TASKSET_ID, sys.modules[__name__])

if __name__ == "__main__":  # verifiers launches the tool server as `python -m <this module>`
    CompoworldToolset.run()
