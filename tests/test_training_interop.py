"""Training data that trains: one answer channel in every harness, and each export style in the
shape its consumer takes. A model that reproduces an exported trajectory exactly must score
reward 1 in `worldc eval`, over MCP and in gym, whatever the style."""

import asyncio
import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest

from compoworld_dsl.cli import main
from compoworld_dsl.evaluate import evaluate
from compoworld_dsl import export
from compoworld_dsl.export import records
from compoworld_dsl.gateway import Episode
from compoworld_dsl.replay import moves, play
from compoworld_dsl.sample.run import Job, load_sampler, run

ROOT = Path(__file__).resolve().parent.parent
STYLES = ("openai", "hf", "compoworld")


@pytest.fixture(scope="module")
def legal(tmp_path_factory):
    """Goal-level legal_ops tasks (most ask for a report) and the world that checks them."""
    path = str(ROOT / "worlds" / "legal_ops.world")
    out = tmp_path_factory.mktemp("interop") / "tasks.jsonl"
    run(Job(path, 4, 8, 5, threads=2), out)  # two errands may leave a read to report: answers
    tasks = [json.loads(line) for line in out.read_text().splitlines()]
    assert sum(1 for t in tasks if t.get("answer") is not None) >= 4  # the answer channel is exercised
    return load_sampler(path).world, tasks, out


@pytest.fixture(scope="module")
def exported(legal):
    world, tasks, _ = legal
    return {style: list(records(world, tasks, style=style)) for style in STYLES}


@pytest.mark.parametrize("style", STYLES)
def test_a_reproduced_trajectory_scores_1_in_eval(legal, exported, style):
    world, tasks, _ = legal
    by_id = {r["meta"].get("cwdsl_task_id", r["meta"]["task_id"]): r for r in exported[style]}
    report = evaluate(world, tasks, lambda ep, task: play(ep, by_id[task["id"]]))
    assert report["success_rate"] == 1.0, [r for r in report["results"] if r["reward"] != 1]


@pytest.mark.parametrize("style", STYLES)
def test_a_reproduced_trajectory_scores_1_in_gym(legal, exported, style):
    pytest.importorskip("gymnasium")
    from compoworld_dsl.gym_env import WorldEnv

    world, tasks, _ = legal
    env = WorldEnv(world, tasks, max_steps=200)
    for i, record in enumerate(exported[style]):
        env.reset(options={"task": i})
        calls, final = moves(record)
        for name, arguments in calls:
            obs, reward, done, truncated, _ = env.step(json.dumps({"name": name, "arguments": arguments}))
            assert json.loads(obs)["success"] is True and not done
        obs, reward, done, truncated, info = env.step(json.dumps({"answer": final}))  # the final message, unchanged
        assert done and reward == 1.0, (record["meta"]["task_id"], info)


@pytest.mark.parametrize("style", STYLES)
def test_a_reproduced_trajectory_scores_1_over_mcp_and_sees_the_exported_bytes(legal, exported, style):
    pytest.importorskip("mcp")
    from mcp import Client

    from compoworld_dsl.mcp_server import build_server

    world, tasks, _ = legal

    async def one(task, record):
        server = build_server(world, [task])
        calls, final = moves(record)
        shown = [m["content"] for m in record["messages"] if m["role"] == "tool"]
        async with Client(server, mode="legacy") as client:
            for (name, arguments), exported_text in zip(calls, shown):
                # an MCP harness passes the model's arguments as an object
                args = json.loads(arguments) if isinstance(arguments, str) else arguments
                result = await client.call_tool(name, args)
                text = result.content[0].text
                if style != "compoworld" or name == "call_tool":
                    assert text == exported_text  # byte for byte what the model trained on
                else:  # CompoWorld's discovery results are the envelope's data alone
                    assert json.loads(text)["data"] == json.loads(exported_text)
            prompt = await client.get_prompt("task")
            assert prompt.messages[0].content.text == task["instruction"] == record["messages"][1]["content"]
            res = await client.read_resource("episode://score?answer=" + quote(final, safe=""))
            return json.loads(res.contents[0].text)

    async def all_of_them():
        return [await one(t, r) for t, r in zip(tasks, exported[style])]

    for task, score in zip(tasks, asyncio.run(all_of_them())):
        assert score["reward"] == 1, (task["id"], score)


def test_the_final_message_is_the_only_answer_channel(legal, exported):
    """Drop the final message and the tasks that ask for a report fail; the tool calls alone do not
    answer (no hidden `report_answer`, no "last result" fallback)."""
    world, tasks, _ = legal
    asked = [(t, r) for t, r in zip(tasks, exported["openai"]) if t.get("answer") is not None]
    for task, record in asked:
        silent = {**record, "messages": record["messages"][:-1]}
        ep = Episode(world)
        ep.reset(task)
        play(ep, silent)
        assert ep.score()["reward"] == 0


def test_compoworld_style_has_exactly_compoworlds_keys_order_and_types(exported):
    """../shared/formats/compoworld.md, key by key."""
    record_keys = {"tools": list, "messages": list, "meta": dict, "source": str}
    meta_keys = {
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
    ours = {"cwdsl_task_id": str, "cwdsl_reward": int, "cwdsl_partial": float, "cwdsl_hops": int, "cwdsl_discovered": bool, "cwdsl_distractors": list, "cwdsl_proofs": str}
    # the tables the docs point to (export.md) say the same as this test
    assert (export.COMPOWORLD_RECORD, export.COMPOWORLD_META, export.COMPOWORLD_EXTRA_META) == (record_keys, meta_keys, ours)
    for rec in exported["compoworld"]:
        assert [(k, type(v)) for k, v in rec.items()] == list(record_keys.items())  # their order too
        assert [(k, type(v)) for k, v in rec["meta"].items()] == [*meta_keys.items(), *ours.items()]
        meta = rec["meta"]
        assert rec["source"] == "compoworld-dsl" and meta["score"] == 1.0 and meta["discover_mode"] == "gateway"
        assert meta["domain"] == "legal-ops" and meta["task_id"] == export.compoworld_task_id(meta["cwdsl_task_id"])
        assert meta["n_steps"] == sum(1 for m in rec["messages"] if m["role"] == "assistant")
        assert json.loads(meta["cwdsl_proofs"])["reference_passes"]["reward"] == 1
        for m in rec["messages"]:
            if m["role"] == "assistant" and m.get("tool_calls"):
                assert list(m) == ["role", "content", "reasoning_content", "tool_calls"] and m["content"] == ""
                for c in m["tool_calls"]:
                    assert re.fullmatch(r"call_[0-9a-f]{24}", c["id"]) and isinstance(c["function"]["arguments"], dict)
            elif m["role"] == "assistant":
                assert list(m) == ["role", "content", "reasoning_content"]
            if m["role"] == "tool":
                assert list(m) == ["role", "tool_call_id", "name", "content"]
        names = {m["tool_call_id"]: m["name"] for m in rec["messages"] if m["role"] == "tool"}
        calls = {c["id"]: c["function"]["name"] for m in rec["messages"] if m.get("tool_calls") for c in m["tool_calls"]}
        assert names == calls
        first = next(m for m in rec["messages"] if m["role"] == "tool")
        assert json.loads(first["content"]) == {"services": json.loads(first["content"])["services"]}  # bare data
    tools = {t["function"]["name"]: t["function"]["parameters"] for t in exported["compoworld"][0]["tools"]}
    assert tools["list_services"] == {"type": "object", "properties": {}, "required": []}
    assert all("additionalProperties" not in p for p in tools.values())
    assert tools["call_tool"]["properties"]["arguments"]["additionalProperties"] is True
    assert tools["call_tool"]["required"] == ["tool_name", "arguments"]


def _theirs(task_id: int, services: list[str]) -> dict:
    """A record in CompoWorld's published shape (../shared/formats/compoworld.md): structure exact,
    values invented, several calls in one turn and reasoning as they have them."""
    cid = lambda n: f"call_{n:024x}"  # noqa: E731
    tools = [
        {"type": "function", "function": {"name": "list_services", "description": "List services.", "parameters": {"type": "object", "properties": {}, "required": []}}},
        {"type": "function", "function": {"name": "list_tools", "description": "List tools.", "parameters": {"type": "object", "properties": {"service": {"type": "string"}}, "required": ["service"]}}},
        {"type": "function", "function": {"name": "describe_tool", "description": "Describe.", "parameters": {"type": "object", "properties": {"tool": {"type": "string"}}, "required": ["tool"]}}},
        {"type": "function", "function": {"name": "call_tool", "description": "Call.", "parameters": {"type": "object", "properties": {"tool_name": {"type": "string"}, "arguments": {"type": "object", "additionalProperties": True}}, "required": ["tool_name", "arguments"]}}},
    ]
    messages = [
        {"role": "system", "content": "You are an agent."},
        {"role": "user", "content": "Close the matter."},
        {"role": "assistant", "content": "", "reasoning_content": "Look first.", "tool_calls": [
            {"id": cid(1), "type": "function", "function": {"name": "list_services", "arguments": {}}},
            {"id": cid(2), "type": "function", "function": {"name": "list_tools", "arguments": {"service": services[0]}}},
        ]},
        {"role": "tool", "tool_call_id": cid(1), "name": "list_services", "content": json.dumps({"services": services})},
        {"role": "tool", "tool_call_id": cid(2), "name": "list_tools", "content": json.dumps({"tools": [{"name": "close_matter", "description": "Close."}]})},
        {"role": "assistant", "content": "", "reasoning_content": "Now act.", "tool_calls": [
            {"id": cid(3), "type": "function", "function": {"name": "call_tool", "arguments": {"tool_name": "close_matter", "arguments": {"matter_id": "M-1"}}}},
        ]},
        {"role": "tool", "tool_call_id": cid(3), "name": "call_tool", "content": json.dumps({"success": True, "data": {"status": "closed"}})},
        {"role": "assistant", "content": "Done.", "reasoning_content": "It is closed."},
    ]
    meta = {"task_id": task_id, "src": "output/example_run", "rollout_idx": 1, "rubric_score": 1.0, "score": 1.0, "net_score": 1.0, "n_tool_calls": 3, "n_real_tool_calls": 1, "n_steps": 3, "discover_mode": "gateway", "finish_reason": "stop", "services": services, "domain": "legal-ops", "capabilities": ["sequential-dependency"]}
    return {"tools": tools, "messages": messages, "meta": meta, "source": "example/agent"}


@pytest.mark.integration
def test_ours_and_compoworlds_load_in_one_load_dataset_and_concatenate(exported, tmp_path):
    """One `load_dataset` call over both files, and `concatenate_datasets` of each loaded alone,
    with inferred features: no cast, no JSON columns. The ids sort as integers."""
    datasets = pytest.importorskip("datasets")
    ours, theirs = tmp_path / "ours.jsonl", tmp_path / "theirs.jsonl"
    ours.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in exported["compoworld"]), encoding="utf-8")
    theirs.write_text("".join(json.dumps(_theirs(460 + k, ["matters", "billing", "docket", "contacts", "messaging"])) + "\n" for k in range(3)), encoding="utf-8")
    both = datasets.load_dataset("json", data_files=[str(ours), str(theirs)], split="train")
    assert len(both) == len(exported["compoworld"]) + 3
    assert sorted(both["meta"], key=lambda m: m["task_id"])  # ints and ints: they sort
    assert {type(m["task_id"]) for m in both["meta"]} == {int} and {m["discover_mode"] for m in both["meta"]} == {"gateway"}
    a = datasets.load_dataset("json", data_files=str(ours), split="train")
    b = datasets.load_dataset("json", data_files=str(theirs), split="train")
    mixed = datasets.concatenate_datasets([a, b])
    assert len(mixed) == len(both) and mixed.features["meta"]["task_id"] == b.features["meta"]["task_id"]


def test_openai_style_is_the_openai_wire_format(exported):
    for rec in exported["openai"]:
        for m in rec["messages"]:
            if m.get("tool_calls"):
                assert m["content"] is None
                for c in m["tool_calls"]:
                    assert set(c) == {"id", "type", "function"} and c["type"] == "function"
                    assert isinstance(c["function"]["arguments"], str) and isinstance(json.loads(c["function"]["arguments"]), dict)
            if m["role"] == "tool":
                assert set(m) == {"role", "tool_call_id", "content"}


def _qwen_template() -> str:
    """Qwen2.5's chat template as TRL ships it (trl/chat_templates/qwen2_5.jinja): no download."""
    import importlib.util

    spec = importlib.util.find_spec("trl")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("trl is not installed")
    path = Path(spec.submodule_search_locations[0]) / "chat_templates" / "qwen2_5.jinja"
    if not path.is_file():
        pytest.skip(f"this trl does not ship {path.name}")
    return path.read_text()


def _render(record: dict) -> str:
    pytest.importorskip("transformers")
    from transformers.utils.chat_template_utils import render_jinja_template

    rendered, _ = render_jinja_template(conversations=[record["messages"]], tools=record["tools"], chat_template=_qwen_template())
    return rendered[0]


@pytest.mark.integration
@pytest.mark.parametrize("style", ("hf", "compoworld"))
def test_template_ready_styles_render_in_a_real_chat_template_without_preprocessing(exported, style):
    """apply_chat_template(messages, tools=...) with Qwen2.5's template: every tool call renders
    with its arguments as a JSON object, every result and the final message appear."""
    for rec in exported[style][:3]:
        text = _render(rec)
        calls = [c["function"] for m in rec["messages"] if m.get("tool_calls") for c in m["tool_calls"]]
        assert text.count("<tool_call>\n{") == len(calls) + 1  # plus the one in the template's own instructions
        for f in calls:
            assert json.dumps({"name": f["name"], "arguments": f["arguments"]}, ensure_ascii=False) in text
        for m in rec["messages"]:
            if m["role"] == "tool":
                assert f"<tool_response>\n{m['content']}\n</tool_response>" in text
        assert text.rstrip().endswith(rec["messages"][-1]["content"] + "<|im_end|>")
        assert '"arguments": "' not in text


@pytest.mark.integration
def test_the_openai_wire_format_is_not_for_chat_templates(exported):
    """Why --style hf exists: fed to a template as it is, the wire format's string arguments
    render as a quoted string (the trap the issue found)."""
    text = _render(exported["openai"][0])
    assert '"arguments": "{' in text


def test_export_refuses_sharegpt_with_a_pointer_to_hf(legal, capsys):
    _, _, tasks_file = legal
    world = str(ROOT / "worlds" / "legal_ops.world")
    assert main(["export", "sft", world, str(tasks_file), "--style", "sharegpt"]) == 2
    assert "use --style hf" in capsys.readouterr().err
    assert main(["export", "sft", world, str(tasks_file), "--style", "nope"]) == 2


def test_replay_agent_on_the_command_line(legal, tmp_path, capsys):
    _, _, tasks_file = legal
    world = str(ROOT / "worlds" / "legal_ops.world")
    sft = tmp_path / "sft.jsonl"
    assert main(["export", "sft", world, str(tasks_file), "--style", "compoworld", "-o", str(sft)]) == 0
    capsys.readouterr()
    assert main(["eval", world, str(tasks_file), "--agent", f"replay:{sft}", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["success_rate"] == 1.0
    assert main(["eval", world, str(tasks_file), "--agent", f"replay:{tmp_path / 'missing.jsonl'}"]) == 2


# ─── TRL's GRPO environment_factory ───


def _trl_tools(env) -> dict:
    """The tools TRL offers a model from an environment: its public functions but reset and
    get_reward (as GRPOTrainer enumerates them)."""
    import inspect

    return {n: getattr(env, n) for n, _ in inspect.getmembers(type(env), predicate=inspect.isfunction) if n not in ("reset", "get_reward") and not n.startswith("_")}


def test_trl_environment_plays_the_oracles_moves_to_reward_1(legal, exported):
    """Driven as GRPOTrainer drives it: factory() per rollout, reset(**row), each tool call as
    tool(**parsed_arguments) with str(result) as the tool message, then reward(completions,
    environments=...). The oracle's moves score 1, the tool messages are the exported bytes,
    a rollout that stops without a final message scores 0 where a report is asked."""
    from compoworld_dsl.integrations.trl_env import grpo_inputs, partial_credit, reward

    world, tasks, tasks_file = legal
    rows, factory, reward_fn = grpo_inputs(str(ROOT / "worlds" / "legal_ops.world"), str(tasks_file))
    assert reward_fn is reward and [r["task_id"] for r in rows] == [t["id"] for t in tasks]
    by_id = {r["meta"]["task_id"]: r for r in exported["hf"]}
    envs, completions, silent_envs, silent = [], [], [], []
    for row in rows:
        record = by_id[row["task_id"]]
        assert row["prompt"] == record["messages"][:2]
        for keep_final, (env_list, comp_list) in ((True, (envs, completions)), (False, (silent_envs, silent))):
            env = factory()
            assert env.reset(**row) is None
            tools = _trl_tools(env)
            assert set(tools) == {"list_services", "list_tools", "describe_tool", "call_tool"}
            completion = []
            calls, final = moves(record)
            shown = [m["content"] for m in record["messages"] if m["role"] == "tool"]
            for (name, arguments), exported_text in zip(calls, shown):
                completion.append({"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": name, "arguments": arguments}}]})
                content = str(tools[name](**arguments))
                assert content == exported_text
                completion.append({"role": "tool", "name": name, "content": content})
            if keep_final:
                completion.append({"role": "assistant", "content": final})
            env_list.append(env)
            comp_list.append(completion)
    assert reward(completions, environments=envs) == [1.0] * len(rows)
    assert partial_credit(completions, environments=envs) == [1.0] * len(rows)
    asked = [t.get("answer") is not None for t in tasks]
    assert [r == 0.0 for r in reward(silent, environments=silent_envs)] == asked


@pytest.mark.integration
def test_trl_tool_schemas_are_the_meta_tools(legal):
    """The schema TRL derives from each method (transformers' get_json_schema) is META_TOOLS' own:
    a model sees one contract in SFT, in eval and in GRPO."""
    pytest.importorskip("transformers")
    from transformers.utils import get_json_schema

    from compoworld_dsl.gateway import META_TOOLS
    from compoworld_dsl.integrations.trl_env import WorldEnvironment

    for tool in META_TOOLS:
        derived = get_json_schema(getattr(WorldEnvironment, tool["function"]["name"]))["function"]
        derived.pop("return", None)
        expected = json.loads(json.dumps(tool["function"]))
        expected["parameters"].pop("additionalProperties")
        if not expected["parameters"].get("required"):
            expected["parameters"].pop("required", None)
        assert derived == expected


# ─── an LLM agent that survives a real endpoint ───


def test_retry_after_reads_seconds_and_http_dates():
    from email.utils import format_datetime
    from datetime import datetime, timedelta, timezone

    from compoworld_dsl.llm_agent import retry_after

    assert retry_after("7") == 7.0 and retry_after(" 0.5 ") == 0.5 and retry_after("-3") == 0.0
    now = datetime(2026, 1, 1, tzinfo=timezone.utc)
    assert retry_after(format_datetime(now + timedelta(seconds=30), usegmt=True), now=now.timestamp()) == 30.0
    assert retry_after("soon") is None and retry_after(None) is None and retry_after("") is None


class _Scripted:
    """A chat-completions server on 127.0.0.1 that answers each POST with the next scripted
    (status, headers, body, delay) and records the request bodies."""

    def __init__(self, script):
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.script, self.seen = list(script), []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.seen.append(body)
                status, headers, payload, delay = outer.script.pop(0) if len(outer.script) > 1 else outer.script[0]
                if callable(payload):
                    status, payload = payload(body)
                if delay:
                    import time

                    time.sleep(delay)
                out = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(out)))
                    self.end_headers()
                    self.wfile.write(out)
                except OSError:  # the client gave up waiting
                    pass

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}/v1"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def test_llm_agent_retries_429_5xx_and_timeouts_honouring_retry_after(legal):
    from compoworld_dsl.llm_agent import ChatClient, run_llm

    world, tasks, _ = legal
    task = next(t for t in tasks if t.get("answer") is None)
    final = {"choices": [{"message": {"role": "assistant", "content": "Done."}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 120, "completion_tokens": 3, "total_tokens": 123}}
    script = [(429, {"Retry-After": "7"}, {"error": "slow down"}, 0), (503, {}, {"error": "busy"}, 0), (200, {}, {}, 1.0), (200, {}, final, 0)]
    waits = []
    with _Scripted(script) as server:
        client = ChatClient(server.url, "k", timeout=0.3, retries=3, sleep=waits.append)
        ep = Episode(world)
        ep.reset(task)
        run_llm(ep, task, "m", client=client)
        client.close()
    assert len(server.seen) == 4 and waits[0] == 7.0 and len(waits) == 3  # Retry-After honoured, then backoff
    assert ep.answer == "Done." and ep.info["usage"] == {"prompt_tokens": 120, "completion_tokens": 3, "total_tokens": 123}
    assert ep.info["finish_reason"] == "stop" and ep.info["retries"] == 3


def test_eval_records_a_failing_endpoint_per_task_and_goes_on(legal, tmp_path, capsys):
    """The endpoint refuses the first task (400) and answers the others: the run finishes, the
    report lists the error against that task, token usage is summed, and the exit status is 0
    because something was measured; an endpoint that fails every task exits 1."""
    world, tasks, tasks_file = legal
    first = tasks[0]["instruction"]

    def answer(body):
        if body["messages"][1]["content"] == first:
            return 400, {"error": {"message": "context too long"}}
        return 200, {"choices": [{"message": {"role": "assistant", "content": "Done."}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 10, "completion_tokens": 1, "total_tokens": 11}}

    world_path = str(ROOT / "worlds" / "legal_ops.world")
    runs = tmp_path / "runs.jsonl"
    with _Scripted([(200, {}, answer, 0)]) as server:
        code = main(["eval", world_path, str(tasks_file), "--agent", "openai:m", "--base-url", server.url, "--api-key", "k", "--retries", "0", "--format", "json", "--record", str(runs)])
    out = capsys.readouterr()
    report = json.loads(out.out)
    assert code == 0 and report["tasks"] == len(tasks)
    assert [e["task_id"] for e in report["errors"]] == [tasks[0]["id"]] and "400" in report["errors"][0]["error"]
    assert report["usage"]["total_tokens"] == 11 * (len(tasks) - 1)
    assert "failed at the endpoint" in out.err
    recorded = [json.loads(x) for x in runs.read_text().splitlines()]
    assert recorded[0]["finish_reason"] == "error" and "error" in recorded[0] and recorded[1]["finish_reason"] == "stop"
    with _Scripted([(500, {}, {"error": "down"}, 0)]) as server:
        code = main(["eval", world_path, str(tasks_file), "--agent", "openai:m", "--base-url", server.url, "--retries", "0", "--format", "json"])
    assert code == 1 and len(json.loads(capsys.readouterr().out)["errors"]) == len(tasks)


@pytest.mark.integration
def test_hf_records_load_into_datasets_unchanged_with_hf_features(legal, exported, tmp_path):
    """`load_dataset("json", features=hf_features())` gives back every record as written, so the
    template renders what the export holds; inferred features would fill each call's arguments
    with the other calls' keys as null (the reason hf_features exists)."""
    datasets = pytest.importorskip("datasets")
    from compoworld_dsl.export import hf_features

    for style in ("hf", "compoworld", "openai"):
        path = tmp_path / f"sft-{style}.jsonl"
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in exported[style]))
        ds = datasets.load_dataset("json", data_files=str(path), features=hf_features(style), split="train")
        assert [ds[i] for i in range(len(ds))] == exported[style]
    assert _render(ds[0]) == _render(exported["openai"][0])
    inferred = datasets.Dataset.from_list(exported["hf"])
    first_call = next(m for m in inferred[0]["messages"] if m.get("tool_calls"))["tool_calls"][0]["function"]["arguments"]
    assert None in first_call.values()


# ─── docs/export.md is real ───


def _fenced(path: Path, lang: str) -> list[str]:
    blocks, current = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if current is None and line.strip() == f"```{lang}":
            current = []
        elif current is not None and line.strip() == "```":
            blocks.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


@pytest.mark.integration
def test_export_docs_commands_and_snippets_run(tmp_path, monkeypatch, capsys):
    """Every `worldc` line of docs/export.md's sh blocks (but blocks that need a model endpoint),
    then every python block, in a folder holding the bundled worlds."""
    import shlex

    pytest.importorskip("datasets")
    pytest.importorskip("gymnasium")
    from compoworld_dsl.export import STYLES as styles

    doc = ROOT / "docs" / "export.md"
    (tmp_path / "worlds").symlink_to(ROOT / "worlds")
    (tmp_path / "build").mkdir()
    monkeypatch.chdir(tmp_path)
    ran = 0
    for block in _fenced(doc, "sh"):
        if "MODEL" in block:  # needs a model endpoint
            continue
        for line in block.splitlines():
            if not line.startswith("worldc "):
                continue
            argv = shlex.split(line, comments=True)[1:]
            assert main(argv) == 0, line
            ran += 1
    assert ran >= 6 and "100% success" in capsys.readouterr().err
    for i, code in enumerate(_fenced(doc, "python")):
        exec(compile(code, f"docs/export.md python block {i + 1}", "exec"), {})
    assert (tmp_path / "build" / "openai-finetune.jsonl").stat().st_size > 0
    rows = [line for line in doc.read_text().splitlines() if line.startswith("| `") and "|" in line[1:]]
    table = [r.split("|")[1].split("`")[1] for r in rows if r.split("|")[1].split("`")[1] in styles or "(default)" in r]
    assert tuple(table) == styles


def test_long_tool_names_are_shortened_the_same_in_every_process():
    """A trainer's workers, an MCP server and the export must agree on a shortened name (it was
    Python's per-process hash)."""
    import subprocess
    import sys

    from compoworld_dsl.gateway import NAME_RE, agent_name

    code = "from compoworld_dsl.gateway import agent_name; print(agent_name('accounts_payable_reconciliation', 'approve_vendor_invoice_for_payment_run', True))"
    names = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={"PYTHONHASHSEED": seed, "PATH": ""}, cwd=ROOT).stdout.strip() for seed in ("1", "2")}
    assert len(names) == 1 and NAME_RE.match(names.pop())
    assert agent_name("a", "b", False) == "b" and agent_name("a", "b", True) == "a__b"
