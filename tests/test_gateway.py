"""The gateway's four meta-tools, episodes, and the baseline agents."""

import json
import re
from pathlib import Path

import pytest

from compoworld_dsl.agents import reported, run_oracle
from compoworld_dsl.gateway import META_TOOLS, Episode, Gateway
from compoworld_dsl.runtime.state import diff
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import Rejected

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def legal():
    return load_sampler(str(ROOT / "worlds" / "legal_ops.world"))


def tasks(sampler, hops, n, seed=0):
    out, i = [], 0
    while len(out) < n and i < 20 * n:
        try:
            out.append(sampler.task(seed, i, hops))
        except Rejected:
            pass
        i += 1
    return out


def test_meta_tools_answer_in_envelopes(legal):
    world = legal.world
    gw = Gateway(world, ["matters", "billing"], world.initial_state(0))
    assert gw.list_services() == {"success": True, "data": {"services": ["matters", "billing"]}}
    tools = gw.list_tools("matters")["data"]["tools"]
    assert {"name", "description"} == set(tools[0]) and any(t["name"] == "close_matter" for t in tools)
    schema = gw.describe_tool("close_matter")["data"]["parameters"]
    # a key parameter says which field it takes (an agent would pass a matter's title otherwise)
    assert schema["properties"]["id"] == {"type": "string", "description": "a matter's `id`, as its records hold it"} and schema["required"] == ["id"]
    assert all(re.match(r"^[a-zA-Z0-9_-]{1,64}$", n) for n in gw.names)
    for bad in (gw.list_tools("nope"), gw.describe_tool("nope"), gw.call_tool("nope", {}), gw.dispatch("rm_rf", {})):
        assert bad["success"] is False and bad["error"]["code"] == 404
    for args in ('{"id": ', "[1, 2]", {"id": 5}, {"id": "m", "extra": 1}, {}, "x" * 70000):
        before = gw.state.snapshot()
        res = gw.dispatch("call_tool", {"tool_name": "close_matter", "arguments": args})
        assert res["success"] is False and res["error"]["code"] in (400, 404), (args, res)
        assert diff(before, gw.state).empty
    assert gw.dispatch("call_tool", "not json")["error"]["code"] == 400


def test_colliding_tool_names_get_a_service_prefix(tmp_path):
    src = """
    service a { record R { key id: id } state rs: table[R] tool get(id: id) -> int say "a {id}" { return 1 } }
    service b { record R { key id: id } state rs: table[R] tool get(id: id) -> int say "b {id}" { return 2 } }
    world w "w" { }
    """
    path = tmp_path / "w.world"
    path.write_text(src)
    world = load_sampler(str(path)).world
    gw = Gateway(world, ["a", "b"], world.initial_state(0))
    assert sorted(gw.names) == ["a__get", "b__get"]
    assert gw.call_tool("b__get", {"id": "x"}) == {"success": True, "data": 2}


def test_episode_reset_gives_messages_and_the_four_tools(legal):
    task = tasks(legal, 3, 1)[0]
    ep = Episode(legal.world)
    start = ep.reset(task)
    assert [m["role"] for m in start["messages"]] == ["system", "user"]
    assert start["messages"][1]["content"] == task["instruction"]
    assert [t["function"]["name"] for t in start["tools"]] == ["list_services", "list_tools", "describe_tool", "call_tool"]
    assert start["tools"] == META_TOOLS
    mounted = ep.call("list_services")["data"]["services"]
    assert set(task["services"]) <= set(mounted) and len(mounted) <= 15
    assert ep.score()["reward"] == 0  # nothing done yet


def test_the_oracle_scores_full_marks(legal):
    for task in tasks(legal, 3, 4, seed=1):
        ep = Episode(legal.world)
        ep.reset(task)
        transcript = run_oracle(ep, task)
        assert any(t["name"] == "describe_tool" for t in transcript)
        result = ep.score()
        assert result["reward"] == 1, (task["id"], result["failed"])
        json.dumps(transcript)


def test_the_weak_agent_fails_more_as_hops_grow(legal):
    """The weak agent knows the reference's arguments, so only the writes and the reported
    reads it skips cost it the task: with a skip rate of 0.3 and 6 tasks a hop count, 1 and 5
    hops came out even (4 of 6) after a change of the task mix, and 0.67 against 0.53 with 30.
    At 0.5 the two stand apart (10 tasks: 0.3 against 0.2, 0.1 before that change)."""

    def rate(hops):
        ts = tasks(legal, hops, 10, seed=2)
        wins = 0
        for t in ts:
            ep = Episode(legal.world)
            ep.reset(t)
            run_oracle(ep, t, skip=0.5, seed=3)
            wins += ep.score()["reward"]
        return wins / len(ts)

    short, long = rate(1), rate(5)
    assert short > long


def test_the_agents_doc_example_runs():
    import subprocess
    import sys

    doc = (ROOT / "docs" / "agents.md").read_text()
    start = doc.index("```python\n") + len("```python\n")
    block = doc[start : doc.index("```", start)]
    out = subprocess.run([sys.executable, "-c", block], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "'reward': 1" in out.stdout and "'services':" in out.stdout


def test_eval_command(tmp_path, capsys):
    import xml.etree.ElementTree as ET

    from compoworld_dsl.cli import main

    toy = str(ROOT / "worlds" / "toy.world")
    out = tmp_path / "t.jsonl"
    assert main(["sample", toy, "--hops", "2", "-n", "3", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["eval", toy, str(out), "--agent", "oracle", "--format", "json", "--plot", str(tmp_path / "c.svg")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"success_rate", "partial_credit", "by_hops", "by_capability"} <= set(report)
    assert report["success_rate"] == 1.0 and report["by_hops"]["2"]["tasks"] == 3
    assert ET.parse(tmp_path / "c.svg").getroot().tag.endswith("svg")
    assert main(["eval", toy, str(out), "--agent", "telepathic"]) == 2
    assert main(["eval", toy, str(out), "--plot", "c.gif"]) == 2
    pytest.importorskip("matplotlib")
    assert main(["eval", toy, str(out), "--plot", str(tmp_path / "c.png")]) == 0
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_export_sft_and_rl(tmp_path, capsys):
    from compoworld_dsl.cli import main

    toy = str(ROOT / "worlds" / "toy.world")
    tasks_file = tmp_path / "t.jsonl"
    assert main(["sample", toy, "--hops", "3", "-n", "2", "-o", str(tasks_file)]) == 0
    sft = tmp_path / "sft.jsonl"
    assert main(["export", "sft", toy, str(tasks_file), "-o", str(sft)]) == 0
    records = [json.loads(x) for x in sft.read_text().splitlines()]
    assert len(records) == 2
    for rec in records:
        assert set(rec) == {"tools", "messages", "meta"}
        assert [t["function"]["name"] for t in rec["tools"]] == ["list_services", "list_tools", "describe_tool", "call_tool"]
        roles = [m["role"] for m in rec["messages"]]
        assert roles[:2] == ["system", "user"] and roles[-1] == "assistant"
        calls = [m for m in rec["messages"] if m.get("tool_calls")]
        results = [m for m in rec["messages"] if m["role"] == "tool"]
        assert len(calls) == len(results) == rec["meta"]["n_tool_calls"]
        assert all(r["tool_call_id"] == c["tool_calls"][0]["id"] for c, r in zip(calls, results))
        assert rec["meta"]["n_real_tool_calls"] == 3 and rec["meta"]["score"] == 1
        assert {"task_id", "services", "domain", "capabilities", "n_steps", "discover_mode"} <= set(rec["meta"])
    capsys.readouterr()
    assert main(["export", "sft", toy, str(tasks_file), "--style", "hf"]) == 0
    hf = json.loads(capsys.readouterr().out.splitlines()[0])
    assert hf["tools"] == rec["tools"]  # a list, as apply_chat_template(tools=...) takes it
    assert isinstance(next(m for m in hf["messages"] if m.get("tool_calls"))["tool_calls"][0]["function"]["arguments"], dict)
    assert main(["export", "rl", toy, str(tasks_file)]) == 0
    rl = json.loads(capsys.readouterr().out.splitlines()[0])
    assert rl["prompt"][1]["role"] == "user" and rl["task"]["id"] == rl["id"]


def test_llm_agent_talks_to_an_openai_compatible_server_on_loopback(legal):
    """A scripted chat server on 127.0.0.1 plays the reference plan as tool calls; the agent's
    loop must send the four meta-tools and the growing conversation, and the episode scores 1."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from compoworld_dsl.llm_agent import run_llm

    task = tasks(legal, 3, 1, seed=5)[0]
    script = [("list_services", {})]
    script += [("call_tool", {"tool_name": s["tool"].split(".", 1)[1], "arguments": s["arguments"]}) for s in task["reference_plan"]]
    seen = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append(body)
            turn = len(seen) - 1
            if turn < len(script):
                name, args = script[turn]
                message = {"role": "assistant", "content": None, "tool_calls": [{"id": f"c{turn}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}
            else:  # tell what the task asks for, read from the plan's own call results
                results = [json.loads(m["content"]) for m in body["messages"] if m["role"] == "tool"][1:]
                got = {k + 1: r.get("data") for k, r in enumerate(results)}
                message = {"role": "assistant", "content": json.dumps(reported(task["reports"], got)) if task["answer"] is not None else "Done."}
            out = json.dumps({"choices": [{"message": message}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def log_message(self, *a):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        ep = Episode(legal.world)
        ep.reset(task)
        transcript = run_llm(ep, task, "scripted", base_url=f"http://127.0.0.1:{server.server_port}/v1", api_key="k")
    finally:
        server.shutdown()
    assert ep.score()["reward"] == 1
    assert len(transcript) == len(script) and all(t["result"]["success"] for t in transcript)
    assert [t["function"]["name"] for t in seen[0]["tools"]] == ["list_services", "list_tools", "describe_tool", "call_tool"]
    assert seen[-1]["messages"][-1]["role"] == "tool" and len(seen[-1]["messages"]) == 2 + 2 * len(script)



def _json_values():
    from hypothesis import strategies as st

    leaf = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30))
    return st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)), max_leaves=8)


@pytest.mark.parametrize("world_name", ["toy", "legal_ops"])
def test_bad_calls_to_every_tool_get_envelopes_and_change_nothing(world_name):
    """Property test over every tool: arbitrary JSON (wrong types, missing and extra keys, NaN,
    nesting, non-objects) as arguments never raises, always answers an envelope, and changes
    no state unless the call succeeded."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    sampler = load_sampler(str(ROOT / "worlds" / f"{world_name}.world"))
    world = sampler.world
    gw = Gateway(world, list(world.services), world.initial_state(0))
    names = sorted(gw.names)

    @settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(name=st.sampled_from(names), args=st.one_of(_json_values(), st.dictionaries(st.sampled_from(["id", "matter", "title", "due", "x", "amount", "folder"]), _json_values(), max_size=4)))
    def check(name, args):
        before = gw.state.snapshot()
        res = gw.dispatch("call_tool", {"tool_name": name, "arguments": args})
        json.dumps(res)
        assert set(res) in ({"success", "data"}, {"success", "error"})
        if not res["success"]:
            assert res["error"]["code"] in (400, 403, 404, 409) and isinstance(res["error"]["message"], str)
            assert diff(before, gw.state).empty
        gw.state.restore(before)

    check()


def test_eval_workers_give_the_same_report(tmp_path, capsys):
    from compoworld_dsl.cli import main

    toy = str(ROOT / "worlds" / "toy.world")
    out = tmp_path / "t.jsonl"
    assert main(["sample", toy, "--hops", "3", "-n", "4", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["eval", toy, str(out), "--agent", "weak:0.4", "--format", "json"]) == 0
    one = capsys.readouterr().out
    assert main(["eval", toy, str(out), "--agent", "weak:0.4", "--format", "json", "--workers", "2"]) == 0
    assert capsys.readouterr().out == one


def test_sft_from_recorded_runs(tmp_path, capsys):
    from compoworld_dsl.cli import main

    toy = str(ROOT / "worlds" / "toy.world")
    out, runs, sft = tmp_path / "t.jsonl", tmp_path / "runs.jsonl", tmp_path / "sft.jsonl"
    assert main(["sample", toy, "--hops", "3", "-n", "4", "-o", str(out)]) == 0
    assert main(["eval", toy, str(out), "--agent", "weak:0.5", "--record", str(runs), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert main(["export", "sft", toy, str(out), "--runs", str(runs), "-o", str(sft)]) == 0
    records = [json.loads(x) for x in sft.read_text().splitlines()]
    assert len(records) == 4 and all(r["meta"]["src"] == "weak:0.5" and r["meta"]["discover_mode"] == "full" for r in records)
    assert sum(r["meta"]["score"] for r in records) / 4 == report["success_rate"]
    recorded = [json.loads(x) for x in runs.read_text().splitlines()]
    assert [r["meta"]["n_tool_calls"] for r in records] == [len(r["transcript"]) for r in recorded]


def test_gymnasium_environment(legal):
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from compoworld_dsl.gym_env import WorldEnv

    ts = tasks(legal, 3, 2, seed=6)
    env = WorldEnv(legal.world, ts, max_steps=8)
    check_env(env, skip_render_check=True)  # the framework's own conformance checks
    obs, info = env.reset(seed=0, options={"task": 0})
    assert json.loads(obs)["instruction"] == ts[0]["instruction"] and info["task_id"] == ts[0]["id"]
    assert env.observation_space.contains(obs)
    reward = 0.0
    for step in ts[0]["reference_plan"]:
        action = json.dumps({"name": "call_tool", "arguments": {"tool_name": step["tool"].split(".", 1)[1], "arguments": step["arguments"]}})
        obs, reward, done, truncated, info = env.step(action)
        assert json.loads(obs)["success"] and not done and reward == 0.0
    obs, reward, done, truncated, info = env.step(json.dumps({"answer": ts[0]["answer"]}))
    assert done and reward == 1.0 and info["failed"] == []
    env.reset(seed=1, options={"task": 1})
    obs, reward, done, truncated, info = env.step("not json")
    assert json.loads(obs)["error"]["code"] == 400
    assert not done and reward == 0.0


def test_gym_make_finds_the_example_worlds_and_any_registered_one(legal, tmp_path):
    """`gym.make("compoworld/WORLD-v0", tasks=...)` after importing the module, from a task file
    (checked on load) or a list; `register_world` adds another world."""
    gym = pytest.importorskip("gymnasium")
    from compoworld_dsl import gym_env

    ts = tasks(legal, 2, 2, seed=9)
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in ts), encoding="utf-8")
    assert {f"compoworld/{w}-v0" for w in ("legal_ops", "office", "support", "supply_chain", "toy", "vet_clinic")} <= set(gym.registry)
    for given in (str(path), ts):
        env = gym.make("compoworld/legal_ops-v0", tasks=given, max_steps=20)
        obs, info = env.reset(options={"task": 1})
        assert info["task_id"] == ts[1]["id"]
        for step in ts[1]["reference_plan"]:
            obs, reward, done, truncated, info = env.step(json.dumps({"name": "call_tool", "arguments": {"tool_name": step["tool"].split(".", 1)[1], "arguments": step["arguments"]}}))
        obs, reward, done, truncated, info = env.step(json.dumps({"answer": ts[1]["answer"]}))
        assert done and reward == 1.0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n', encoding="utf-8")
    from compoworld_dsl.taskfile import TaskFileError

    with pytest.raises(TaskFileError):
        gym.make("compoworld/legal_ops-v0", tasks=str(bad))
    copy = tmp_path / "my_firm.world"
    copy.write_text((ROOT / "worlds" / "toy.world").read_text(encoding="utf-8"), encoding="utf-8")
    assert gym_env.register_world(copy) == "compoworld/my_firm-v0" == gym_env.register_world(copy)
    assert isinstance(gym.make("compoworld/my_firm-v0", tasks=ts).unwrapped, gym_env.WorldEnv)


def test_a_meta_tool_called_with_the_wrong_argument_names_says_which_it_takes():
    # agents playing fresh tasks sent `call_tool {"tool": ...}` and were told "no tool 'None'"
    world = load_sampler(str(ROOT / "worlds" / "toy.world")).facts.world
    gw = Gateway(world, list(world.services), world.initial_state(0))
    got = gw.dispatch("call_tool", {"tool": "list_open_tasks", "arguments": {}})
    assert got["error"]["code"] == 400 and "`tool_name`" in got["error"]["message"] and "`tool`" in got["error"]["message"]
    got = gw.dispatch("call_tool", {"arguments": {}})
    assert got["error"]["code"] == 400 and "needs `tool_name`" in got["error"]["message"]
    got = gw.dispatch("describe_tool", {"name": "list_open_tasks"})
    assert "`tool`" in got["error"]["message"]
    assert gw.dispatch("list_services", {})["success"] is True
    assert gw.dispatch("call_tool", {"tool_name": "list_open_tasks", "arguments": {}})["success"] is True


def test_a_tool_named_with_its_service_is_told_the_name_to_use():
    # sixth-round players wrote `describe_tool {"tool": "travel.find_trips"}` and lost calls to
    # "no tool ...; call list_tools"; the 404 now names the tool as list_tools gives it
    world = load_sampler(str(ROOT / "worlds" / "toy.world")).facts.world
    gw = Gateway(world, list(world.services), world.initial_state(0))
    service = next(s for s in gw.services if any(q.startswith(s + ".") for q in gw.names.values()))
    name, q = next((n, q) for n, q in gw.names.items() if q.startswith(service + "."))
    for meta, args in [("describe_tool", {"tool": q}), ("call_tool", {"tool_name": q, "arguments": {}})]:
        got = gw.dispatch(meta, args)
        assert got["error"]["code"] == 404 and f"the name list_tools gives: {name!r}" in got["error"]["message"], got
    got = gw.dispatch("describe_tool", {"tool": f"{service}.no_such_tool"})
    assert got["error"]["message"].endswith("; call list_tools")
    assert gw.dispatch("describe_tool", {"tool": name})["success"] is True


def test_a_service_with_no_tools_is_not_listed(legal):
    # an imported API's service that holds a result record and no tool (its one operation moved
    # to a resource): listed, a blind player took it for a decoy (round 33)
    import copy

    world = copy.copy(legal.world)
    world.services = dict(world.services)
    empty = copy.copy(world.services["billing"])
    empty.tools = {}
    world.services["results"] = empty
    gw = Gateway(world, ["matters", "results"], world.initial_state(0))
    assert gw.list_services()["data"]["services"] == ["matters"]
    assert gw.list_tools("results")["data"]["tools"] == []


def test_a_key_parameter_says_its_record_with_the_right_article():
    """"a operation's `name`" (blind round 51): a key of a record said with a vowel is "an"."""
    world = load_sampler(str(Path(__file__).resolve().parents[1] / "worlds" / "support.world")).world
    gw = Gateway(world, ["accounts"], world.initial_state(0))
    schema = gw.describe_tool("get_account")["data"]["parameters"]
    assert schema["properties"]["id"]["description"].startswith("an account's `id`"), schema
