"""The verifiers adapter (compoworld_dsl/integrations/verifiers_env.py), on CPU, in two ways.

Every sampled task, directly: the oracle's moves are made through the tool server's `@vf.tool`
methods (what verifiers' MCP server calls), its final message is put on a `vf.Trace` as the last
assistant message, and verifiers' own `Task.score` runs the reward and the metric.

A few rollouts end to end: verifiers ships no mock client, so the model is a scripted
OpenAI-compatible endpoint on 127.0.0.1 (`ScriptedModel`) replaying the oracle's moves, one tool
call per turn, then its final message. Everything else is verifiers' own: `Env.run_episode`, its
interception server, its `null` harness (the chat program it runs), the adapter's MCP tool server
launched per rollout as a subprocess, and the scoring. The one stand-in is uv: verifiers
provisions the chat program with `uv sync --script`, which needs uv and a package index, so the
test runs the same program with this interpreter, which has its dependencies. Each rollout starts
two Python processes, so these are kept to three.

And setup failures: rollouts whose setup fails (no uv for the harness; a task the world cannot set
up) end with the cause on `episode.errors`, a task file's bad line is named, and the uv the
`verifiers` extra installs reaches the harness's PATH."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("verifiers")
vf = pytest.importorskip("verifiers.v1")

from verifiers.v1.dialects import ChatDialect  # noqa: E402
from verifiers.v1.graph import MessageNode  # noqa: E402
from verifiers.v1.runtimes.base import Runtime  # noqa: E402

from compoworld_dsl.export import records  # noqa: E402
from compoworld_dsl.gateway import META_TOOLS, Episode  # noqa: E402
from compoworld_dsl.integrations.verifiers_env import CompoworldToolset, _world, load_environment  # noqa: E402
from compoworld_dsl.replay import moves  # noqa: E402
from compoworld_dsl.sample.run import Job, run  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


class ScriptedModel:
    """A chat-completions endpoint that plays a script per instruction. The request's `model`
    picks the behaviour: "oracle" (the oracle's calls, then its final message), "no-final" (the
    calls, then an empty final message) or "idle" (no call; a final message at once)."""

    def __init__(self) -> None:
        self.scripts: dict[str, tuple[list, str | None]] = {}
        script = self.scripts

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                messages = body["messages"]
                user = next(m["content"] for m in messages if m["role"] == "user")
                calls, final = script[user]
                turn = sum(1 for m in messages if m["role"] == "assistant")
                mode = body.get("model")
                if mode != "idle" and turn < len(calls):
                    name, arguments = calls[turn]
                    arguments = arguments if isinstance(arguments, str) else json.dumps(arguments)
                    call = {"id": f"call_{turn}", "type": "function", "function": {"name": name, "arguments": arguments}}
                    message, finish = {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
                else:
                    content = {"oracle": final, "no-final": "", "idle": "Done."}[mode]
                    message, finish = {"role": "assistant", "content": content}, "stop"
                raw = {"id": "scripted", "object": "chat.completion", "created": 0, "model": mode, "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
                if body.get("stream"):  # the chat program streams; verifiers' dialect writes the events
                    out, kind = b"".join(ChatDialect().stream_events(raw)), "text/event-stream"
                else:
                    out, kind = json.dumps(raw).encode(), "application/json"
                self.send_response(200)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"

    def __enter__(self) -> ScriptedModel:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def no_uv(monkeypatch, tmp_path):
    """Run verifiers' PEP 723 chat program with this interpreter instead of provisioning it by uv."""

    async def prepare_uv_script(self, script, env=None, *, activate=True):
        data = script.encode() if isinstance(script, str) else script
        path = tmp_path / f"program-{hashlib.sha256(data).hexdigest()[:16]}.py"
        path.write_bytes(data)
        return [sys.executable, str(path)]

    monkeypatch.setattr(Runtime, "prepare_uv_script", prepare_uv_script)


def _sample(tmp_path: Path, world: str, hops: int, n: int, seed: int) -> Path:
    out = tmp_path / f"{Path(world).stem}.jsonl"
    run(Job(str(ROOT / world), hops, n, seed), out)
    return out


def _oracle_moves(world: str, tasks: list) -> list[tuple[list, str | None]]:
    """(calls, final message) of the oracle on each task, read back from its SFT record."""
    compiled = _world(str((ROOT / world).resolve()))
    return [moves(record) for record in records(compiled, [t.data.task for t in tasks], style="hf")]


def _asks_for_report(task: dict) -> bool:
    return any(c.get("kind") == "answer" for c in task["checker"]["checks"])


@pytest.mark.parametrize("world, hops, n, seed", [("worlds/toy.world", 3, 3, 1), ("worlds/legal_ops.world", 4, 6, 5)])
def test_oracle_moves_score_1_and_nothing_scores_0(tmp_path, world, hops, n, seed):
    env = load_environment(str(ROOT / world), str(_sample(tmp_path, world, hops, n, seed)))
    tasks = list(env.taskset)
    assert len(tasks) == n
    if "legal_ops" in world:
        assert any(_asks_for_report(t.data.task) for t in tasks)  # the report channel is exercised

    def score(task, calls: list, final: str | None) -> vf.Trace:
        (toolset,) = type(task).toolsets(task.config)
        assert isinstance(toolset, CompoworldToolset)
        asyncio.run(toolset.setup_task(task.data))
        messages = [vf.SystemMessage(content=task.data.system_prompt), vf.UserMessage(content=task.data.prompt)]
        for i, (name, arguments) in enumerate(calls):
            arguments = json.loads(arguments) if isinstance(arguments, str) else arguments
            result = getattr(toolset, name)(**arguments)
            assert json.loads(result)["success"], result
            messages.append(vf.AssistantMessage(content=None, tool_calls=[vf.ToolCall(id=str(i), name=name, arguments=json.dumps(arguments))]))
            messages.append(vf.ToolMessage(tool_call_id=str(i), content=result))
        if final is not None:
            messages.append(vf.AssistantMessage(content=final))
        nodes = [MessageNode(message=m, parent=i - 1 if i else None, sampled=m.role == "assistant") for i, m in enumerate(messages)]
        trace = vf.Trace(task=vf.TraceTask(type=type(task).__name__, data=task.data), agent=vf.AgentInfo(config=env.config.agent), nodes=nodes, state=toolset.state)
        asyncio.run(task.score(trace))  # verifiers' scoring: @vf.metric, then @vf.reward
        return trace

    for task, (calls, final) in zip(tasks, _oracle_moves(world, tasks)):
        trace = score(task, calls, final)
        assert trace.reward == 1.0 and trace.metrics["partial"] == 1.0, trace.info["compoworld"]
        assert [tuple(c) for c in trace.state.calls] == [(n, json.loads(a) if isinstance(a, str) else a) for n, a in calls]
        if _asks_for_report(task.data.task):  # the same moves without the final message
            trace = score(task, calls, None)
            assert trace.reward == 0.0 and any(f["kind"] == "answer" for f in trace.info["compoworld"]["failed"])
        assert score(task, [], None).reward == 0.0  # a rollout that does nothing


def test_rollouts_end_to_end(tmp_path, no_uv, monkeypatch):
    """The oracle, the oracle without its final message, and an idle model, each on one task
    that asks for a report, as verifiers runs them (concurrently)."""
    monkeypatch.setenv("COMPOWORLD_SCRIPTED_KEY", "unused")
    world = "worlds/legal_ops.world"
    env = load_environment(str(ROOT / world), str(_sample(tmp_path, world, 4, 6, 5)))
    task = next(t for t in env.taskset if _asks_for_report(t.data.task))
    model = ScriptedModel()
    ((calls, final),) = _oracle_moves(world, [task])
    model.scripts[task.data.task["instruction"]] = (calls, final)
    modes = ("oracle", "no-final", "idle")

    async def episodes():
        async with env.serving():
            contexts = [vf.ModelContext(model=mode, client=vf.EvalClientConfig(base_url=model.url, api_key_var="COMPOWORLD_SCRIPTED_KEY")) for mode in modes]
            # one after another: verifiers' harness writes its chat program to one file per
            # task, and three episodes started together raced on it (a SyntaxError from a
            # half-written file failed CI once in a fresh environment)
            return [await env.run_episode(task, ctx) for ctx in contexts]

    with model:
        played = asyncio.run(episodes())
    traces = {}
    for mode, episode in zip(modes, played):
        assert episode.ok, episode.errors
        (traces[mode],) = episode.traces
    oracle = traces["oracle"]
    # The prompt is exactly the episode's; the tools are the four meta-tools, bare.
    expected = Episode(_world(str((ROOT / world).resolve()))).reset(task.data.task)["messages"]
    assert [{"role": m.role, "content": m.content} for m in oracle.messages[:2]] == expected
    assert sorted(t.name for t in oracle.tools) == sorted(t["function"]["name"] for t in META_TOOLS)
    assert oracle.messages[-1].content == final and len(oracle.state.calls) == len(calls)
    assert oracle.rewards["reward"].score == 1.0 and oracle.reward == 1.0, oracle.info.get("compoworld")
    assert oracle.metrics["partial"] == 1.0  # a metric: recorded, not summed into the reward
    assert traces["no-final"].reward == 0.0 and 0.0 < traces["no-final"].metrics["partial"] < 1.0
    assert traces["idle"].reward == 0.0 and traces["idle"].state.calls == []


# --- setup failures: each one ends on `episode.errors` with its cause, not only on the trace ---


def _run_idle(env, task) -> "vf.Episode":
    """One rollout of `task` against the scripted endpoint, whose model does nothing."""
    model = ScriptedModel()
    model.scripts[task.data.task["instruction"]] = ([], None)

    async def episode():
        async with env.serving():
            ctx = vf.ModelContext(model="idle", client=vf.EvalClientConfig(base_url=model.url, api_key_var="COMPOWORLD_SCRIPTED_KEY"))
            return await env.run_episode(task, ctx)

    with model:
        return asyncio.run(episode())


def _bare_path(tmp_path: Path) -> Path:
    """A PATH directory holding only what verifiers' provisioning shell needs besides uv (no uv,
    pip, curl or wget, so it cannot fetch one either)."""
    import shutil

    bare = tmp_path / "bin"
    bare.mkdir()
    for tool in ("sh", "mv", "grep"):
        (bare / tool).symlink_to(shutil.which(tool))
    return bare


def test_harness_without_uv_fails_on_episode_errors(tmp_path, monkeypatch):
    """The null harness's provisioning (`uv sync --script`) with no uv to be had: the episode
    fails, and `episode.errors` says uv is the cause and where to read what it needs."""
    monkeypatch.setenv("COMPOWORLD_SCRIPTED_KEY", "unused")
    world = "worlds/toy.world"
    home = tmp_path / "home"  # verifiers looks for uv in ~/.local/bin too
    home.mkdir()
    agent = {"harness": {"id": "null", "env": {"PATH": str(_bare_path(tmp_path)), "HOME": str(home)}}}
    env = load_environment(str(ROOT / world), str(_sample(tmp_path, world, 2, 1, 1)), agent=agent)
    episode = _run_idle(env, next(iter(env.taskset)))
    assert not episode.ok
    assert episode.traces and episode.traces[0].errors  # verifiers' own record, on the trace
    assert episode.errors, "the setup failure is on the trace only"
    (error,) = episode.errors
    assert error.type == "HarnessError"
    assert "uv" in error.message and "docs/verifiers.md" in error.message, error.message
    assert "Traceback" not in error.message


def test_task_that_cannot_be_set_up_fails_on_episode_errors(tmp_path, no_uv, monkeypatch):
    """A task whose initial state the world cannot build: the rollout stops at its setup, before
    any model call, and `episode.errors` names the task and the cause in one line."""
    monkeypatch.setenv("COMPOWORLD_SCRIPTED_KEY", "unused")
    world = "worlds/toy.world"
    task = json.loads(_sample(tmp_path, world, 2, 1, 1).read_text().splitlines()[0])
    del task["initial_state"]["seed"]
    tasks = tmp_path / "bad.jsonl"
    tasks.write_text(json.dumps(task) + "\n")
    env = load_environment(str(ROOT / world), str(tasks))
    episode = _run_idle(env, next(iter(env.taskset)))
    assert not episode.ok and episode.errors, "the setup failure is on the trace only"
    (error,) = episode.errors
    assert task["id"] in error.message and "seed" in error.message, error.message
    assert "Traceback" not in error.message and "\n" not in error.message.strip()
    assert episode.traces[0].state.calls == []  # no rollout ran on a task that could not be set up


@pytest.mark.parametrize(
    "lines, where, says",
    [
        (['{"id": "a", "instruction": "x"}', "{not json"], ":2:", "JSON"),
        (['{"id": "a"}'], ":1:", "instruction"),
        (["[1, 2]"], ":1:", "object"),
    ],
)
def test_task_file_that_cannot_be_read_names_the_line(tmp_path, lines, where, says):
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError) as raised:
        list(load_environment(str(ROOT / "worlds/toy.world"), str(tasks)).taskset)  # tasks load on first use
    message = str(raised.value)
    assert f"{tasks}{where}" in message and says in message, message


def test_uv_of_the_extra_reaches_the_harness(tmp_path, monkeypatch):
    """The extra installs uv beside the interpreter, which is on PATH only in an activated
    environment: the subprocess harness is given that directory first on its PATH, unless its
    own `env` sets PATH."""
    uv = pytest.importorskip("uv")
    uv_dir = str(Path(uv.find_uv_bin()).parent)
    bare = _bare_path(tmp_path)
    monkeypatch.setenv("PATH", str(bare))
    tasks = str(_sample(tmp_path, "worlds/toy.world", 2, 1, 1))
    env = load_environment(str(ROOT / "worlds/toy.world"), tasks)
    assert env.config.agent.harness.env["PATH"].split(os.pathsep)[:2] == [uv_dir, str(bare)]
    own = {"harness": {"id": "null", "env": {"PATH": "/opt/mine"}}}
    assert load_environment(str(ROOT / "worlds/toy.world"), tasks, agent=own).config.agent.harness.env["PATH"] == "/opt/mine"


def test_a_traceback_in_an_error_is_cut_to_its_exception_line():
    """A tool server that dies leaves its log's tail, a traceback, in verifiers' message:
    `episode.errors` gets the line before it and the exception's own line; the trace keeps it all."""
    from verifiers.v1.trace import Error

    from compoworld_dsl.integrations.verifiers_env import _episode_error

    logged = "tool server '' not serving in runtime: Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n    boom()\nKeyError: 'seed'\n"
    error = _episode_error(Error(type="ToolsetError", message=logged, traceback="kept"))
    assert error.message == "tool server '' not serving in runtime: KeyError: 'seed'"
    assert (error.type, error.traceback) == ("ToolsetError", "kept")
    uv = _episode_error(Error(type="HarnessError", message="harness setup: RuntimeError: failed to prepare uv script: sh: 1: curl: not found\nmore"))
    assert uv.message.startswith("harness setup: RuntimeError: failed to prepare uv script: sh: 1: curl: not found; more (")
    assert "docs/verifiers.md" in uv.message
