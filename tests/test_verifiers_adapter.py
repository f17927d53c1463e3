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
two Python processes, so these are kept to three."""

from __future__ import annotations

import asyncio
import hashlib
import json
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
            return await asyncio.gather(*(env.run_episode(task, ctx) for ctx in contexts))

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
