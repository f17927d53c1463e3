"""The MCP server, through the official SDK's real client: over a stdio subprocess and over
streamable HTTP on 127.0.0.1, with concurrent sessions that do not see each other's state."""

import asyncio
import json
from urllib.parse import quote
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from compoworld_dsl.agents import final_message, reported

mcp = pytest.importorskip("mcp")
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOY = str(ROOT / "worlds" / "toy.world")


@pytest.fixture(scope="module")
def tasks_file(tmp_path_factory):
    from compoworld_dsl.sample.run import Job, run

    path = tmp_path_factory.mktemp("mcp") / "tasks.jsonl"
    run(Job(TOY, 3, 2, 4), path)
    return path


def payload(result) -> dict:
    return json.loads(result.content[0].text)


async def play(session: ClientSession, task: dict, initialize: bool = True) -> dict:
    """The oracle's plan through MCP; returns the score read from episode://score."""
    if initialize:
        await session.initialize()
    names = {t.name for t in (await session.list_tools()).tools}
    assert {"list_services", "list_tools", "describe_tool", "call_tool"} <= names
    services = payload(await session.call_tool("list_services", {}))["data"]["services"]
    assert set(task["services"]) <= set(services)
    got = {}
    for k, step in enumerate(task["reference_plan"]):
        tool = step["tool"].split(".", 1)[1]
        described = payload(await session.call_tool("describe_tool", {"tool": tool}))
        assert described["success"], described
        last = payload(await session.call_tool("call_tool", {"tool_name": tool, "arguments": step["arguments"]}))
        assert last["success"], last
        got[k + 1] = last["data"]
    if task.get("answer") is not None:  # what the task asks to tell, read from the calls' data
        # the harness hands over the model's final message when it reads the score
        return await score(session, final_message(reported(task["reports"], got)))
    return await score(session)


async def score(session: ClientSession, final: str | None = None) -> dict:
    uri = "episode://score" if final is None else "episode://score?answer=" + quote(final, safe="")
    res = await session.read_resource(uri)
    return json.loads(res.contents[0].text)


def test_stdio_session_plays_an_episode(tasks_file):
    task = json.loads(tasks_file.read_text().splitlines()[0])

    async def main():
        params = StdioServerParameters(command=sys.executable, args=["-m", "compoworld_dsl.cli", "serve", TOY, "--tasks", str(tasks_file), "--task", task["id"]], cwd=str(ROOT))
        async with stdio_client(params) as (r, w):
            async with ClientSession(r, w) as session:
                await session.initialize()
                bad = payload(await session.call_tool("call_tool", {"tool_name": "no_such_tool", "arguments": {}}))
                assert bad == {"success": False, "error": {"code": 404, "message": "no tool 'no_such_tool'; call list_tools"}}
                missing = payload(await session.call_tool("list_tools", {}))  # rejected by the SDK's schema check
                assert missing["success"] is False and missing["error"]["code"] == 400
                return await play(session, task, initialize=False)

    result = asyncio.run(main())
    assert result["reward"] == 1 and result["failed"] == []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture()
def http_server(tasks_file):
    port = free_port()
    task = json.loads(tasks_file.read_text().splitlines()[0])
    proc = subprocess.Popen(
        [sys.executable, "-m", "compoworld_dsl.cli", "serve", TOY, "--tasks", str(tasks_file), "--task", task["id"], "--transport", "http", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        pytest.fail("the MCP server did not start: " + proc.stderr.read().decode()[-2000:])
    yield f"http://127.0.0.1:{port}/mcp", task
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_http_sessions_are_separate_episodes_and_bad_requests_do_not_stop_the_server(http_server):
    url, task = http_server

    async def idle():
        async with streamable_http_client(url) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                await session.call_tool("list_services", {})
                await asyncio.sleep(0.5)  # while the other session works
                return await score(session)

    async def worker():
        async with streamable_http_client(url) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                return await play(session, task)

    async def both():
        return await asyncio.gather(worker(), idle())

    done, untouched = asyncio.run(both())
    assert done["reward"] == 1
    assert untouched["reward"] == 0  # the other session's calls did not reach this episode

    # malformed requests get protocol errors, and the server stays up
    for body in (b"this is not json", b'{"jsonrpc": "2.0", "method": 5}', b"[]"):
        req = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(req, timeout=5)
        assert 400 <= err.value.code < 500
    again = asyncio.run(worker())
    assert again["reward"] == 1
