"""The MCP server's session lifecycle and HTTP limits: episodes are freed when sessions end or idle
out, the session count is bounded, slow requests are cut off, and failures come back as envelopes."""

import asyncio
import contextlib
import json
from urllib.parse import quote
from pathlib import Path

import pytest

from compoworld_dsl.agents import final_message, reported

mcp = pytest.importorskip("mcp")
import httpx2  # noqa: E402  (the SDK's HTTP client)
from mcp import Client, ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from compoworld_dsl.cli.commands import _world_and_tasks  # noqa: E402
from compoworld_dsl.gateway import Episode  # noqa: E402
from compoworld_dsl.mcp_server import build_server, http_server  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOY = str(ROOT / "worlds" / "toy.world")
LIMIT_S = 60  # every test body runs under this bound


@pytest.fixture(scope="module")
def world_and_task(tmp_path_factory):
    from compoworld_dsl.sample.run import Job, run

    path = tmp_path_factory.mktemp("mcp") / "tasks.jsonl"
    run(Job(TOY, 3, 2, 4), path)
    world, tasks, _ = _world_and_tasks(TOY, str(path))
    return world, tasks[0]


def payload(result) -> dict:
    return json.loads(result.content[0].text)


async def score(session, final: str | None = None) -> dict:
    uri = "episode://score" if final is None else "episode://score?answer=" + quote(final, safe="")
    res = await session.read_resource(uri)
    return json.loads(res.contents[0].text)


@contextlib.asynccontextmanager
async def served(server, **options):
    """The server over streamable HTTP on 127.0.0.1 (a port the OS picks), in this event loop."""
    web = http_server(server, "127.0.0.1", 0, **options)
    web.config.log_level = "warning"
    task = asyncio.create_task(web.serve())
    for _ in range(200):
        if web.started or task.done():
            break
        await asyncio.sleep(0.05)
    assert web.started, "the MCP server did not start"
    port = web.servers[0].sockets[0].getsockname()[1]
    try:
        yield port
    finally:
        web.should_exit = True
        await asyncio.wait_for(task, 15)


async def until(predicate, seconds: float = 10) -> bool:
    """Poll `predicate` for at most `seconds`."""
    for _ in range(int(seconds / 0.05)):
        if predicate():
            return True
        await asyncio.sleep(0.05)
    return predicate()


async def open_session(url: str, terminate_on_close: bool = True):
    stack = contextlib.AsyncExitStack()
    streams = await stack.enter_async_context(streamable_http_client(url, terminate_on_close=terminate_on_close))
    session = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
    await session.initialize()
    return stack, session


def test_closed_http_sessions_free_their_episodes(world_and_task):
    world, task = world_and_task
    server = build_server(world, [task])

    async def main():
        async with served(server) as port:
            url = f"http://127.0.0.1:{port}/mcp"
            for _ in range(20):
                stack, session = await open_session(url)
                async with stack:
                    assert payload(await session.call_tool("list_services", {}))["success"]
                    assert (await score(session))["reward"] == 0  # the score is readable before closing
                    assert len(server.episodes) == 1
                freed.append(await until(lambda: len(server.episodes) == 0))

    freed = []
    asyncio.run(asyncio.wait_for(main(), LIMIT_S))
    assert freed == [True] * 20
    assert server.episodes.live == {}


def test_in_process_sessions_free_their_episodes(world_and_task):
    world, task = world_and_task
    server = build_server(world, [task])

    async def main():
        for _ in range(20):
            async with Client(server, mode="legacy") as client:
                assert payload(await client.call_tool("list_services", {}))["success"]
                assert len(server.episodes) == 1
            freed.append(await until(lambda: len(server.episodes) == 0))

    freed = []
    asyncio.run(asyncio.wait_for(main(), LIMIT_S))
    assert freed == [True] * 20


def test_idle_sessions_expire_and_free_their_episodes(world_and_task):
    world, task = world_and_task
    server = build_server(world, [task])

    async def main():
        async with served(server, idle_timeout=0.5) as port:
            url = f"http://127.0.0.1:{port}/mcp"
            stack, session = await open_session(url, terminate_on_close=False)
            async with stack:  # leaves without DELETE, as a crashed client would
                await session.call_tool("list_services", {})
                (key,) = server.episodes.live
            freed = await until(lambda: len(server.episodes) == 0)
            async with httpx2.AsyncClient() as http:
                gone = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers={"mcp-session-id": key, "accept": "application/json, text/event-stream"})
            return freed, gone.status_code

    freed, status = asyncio.run(asyncio.wait_for(main(), LIMIT_S))
    assert freed
    assert status == 404  # the SDK forgot the session together with its episode


def test_session_limit_refuses_new_sessions_with_503(world_and_task):
    world, task = world_and_task
    server = build_server(world, [task], max_sessions=2)
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}

    async def main():
        async with served(server) as port:
            url = f"http://127.0.0.1:{port}/mcp"
            async with contextlib.AsyncExitStack() as both:
                for _ in range(2):
                    stack, session = await open_session(url)
                    both.push_async_exit(stack)
                async with httpx2.AsyncClient() as http:
                    refused = await http.post(url, json=init, headers={"accept": "application/json, text/event-stream"})
            await until(lambda: len(server.episodes) == 0)
            stack, session = await open_session(url)  # room again once sessions end
            async with stack:
                ok = payload(await session.call_tool("list_services", {}))["success"]
            return refused, ok

    refused, ok = asyncio.run(asyncio.wait_for(main(), LIMIT_S))
    assert refused.status_code == 503
    assert "too many open sessions" in refused.text.lower()
    assert ok


def test_fifty_concurrent_sessions_each_play_their_own_episode(world_and_task):
    world, task = world_and_task
    server = build_server(world, [task])
    n = 50
    peak = 0

    async def one(url: str, i: int, all_open: asyncio.Event, opened: list) -> dict:
        nonlocal peak
        stack, session = await open_session(url)
        async with stack:
            await session.call_tool("list_services", {})
            opened.append(i)
            if len(opened) == n:
                peak = len(server.episodes)
                all_open.set()
            await all_open.wait()
            if i % 2 == 0:  # half of them do the task; the others must not see it done
                got = {}
                for k, step in enumerate(task["reference_plan"]):
                    done = payload(await session.call_tool("call_tool", {"tool_name": step["tool"].split(".", 1)[1], "arguments": step["arguments"]}))
                    assert done["success"], done
                    got[k + 1] = done["data"]
                if task.get("answer") is not None:  # the harness hands over the final message
                    return await score(session, final_message(reported(task["reports"], got)))
            return await score(session)

    async def main():
        async with served(server) as port:
            url = f"http://127.0.0.1:{port}/mcp"
            all_open, opened = asyncio.Event(), []
            scores = await asyncio.gather(*(one(url, i, all_open, opened) for i in range(n)))
            await until(lambda: len(server.episodes) == 0)
            return scores

    scores = asyncio.run(asyncio.wait_for(main(), 120))
    assert peak == n
    assert [s["reward"] for s in scores] == [1 - i % 2 for i in range(n)]
    assert len(server.episodes) == 0


async def exchange(port: int, data: bytes, wait: float = 10) -> bytes:
    """Send `data` on a fresh loopback connection, then read until the server closes it (at most `wait` s)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        return await asyncio.wait_for(reader.read(65536), wait)
    finally:
        writer.close()


def test_slow_requests_are_cut_off(world_and_task):
    world, task = world_and_task
    server = build_server(world, [task])

    async def main():
        async with served(server, request_timeout=1) as port:
            partial_head = await exchange(port, b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")
            short_body = await exchange(port, b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\":")
            stack, session = await open_session(f"http://127.0.0.1:{port}/mcp")  # the server still serves
            async with stack:
                ok = payload(await session.call_tool("list_services", {}))["success"]
            return partial_head, short_body, ok

    partial_head, short_body, ok = asyncio.run(asyncio.wait_for(main(), LIMIT_S))
    assert partial_head.startswith(b"HTTP/1.1 408 ")
    assert short_body.startswith(b"HTTP/1.1 408 ")
    assert ok


def test_a_raising_tool_answers_with_an_error_envelope(world_and_task, monkeypatch):
    world, task = world_and_task
    server = build_server(world, [task])

    def boom(self, name, arguments=None):
        raise RuntimeError("internal detail")

    monkeypatch.setattr(Episode, "call", boom)

    async def main():
        async with Client(server, mode="legacy") as client:
            crashed = payload(await client.call_tool("list_services", {}))
            bad_args = payload(await client.call_tool("list_tools", {}))
            return crashed, bad_args

    crashed, bad_args = asyncio.run(asyncio.wait_for(main(), LIMIT_S))
    assert crashed["success"] is False and crashed["error"]["code"] == 500
    assert "internal detail" not in crashed["error"]["message"]
    assert bad_args == {"success": False, "error": {"code": 400, "message": "bad arguments for 'list_tools': service: field required"}}


def test_default_sdk_client_over_http_gets_a_session(world_and_task):
    """mcp.Client's default mode probes the 2026-07-28 era first, which has no sessions; the server
    declines it so the client falls back to the handshake and plays a real episode."""
    world, task = world_and_task
    server = build_server(world, [task])

    async def main():
        async with served(server) as port:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                first = payload(await client.call_tool("list_services", {}))
                live = len(server.episodes)
                return client.protocol_version, first, live

    version, first, live = asyncio.run(asyncio.wait_for(main(), LIMIT_S))
    assert not version.startswith("2026")
    assert first["success"] and live == 1


def test_the_server_advertises_the_exported_schemas_flags_errors_and_takes_one_answer(world_and_task):
    """What the model trained on is what MCP shows it: the meta-tools' schemas of the exports,
    byte for byte; a failed call is an error result; the final message is handed over once and
    its score is the episode's (issue 31)."""
    import json as _json

    from compoworld_dsl.gateway import META_TOOLS

    world, task = world_and_task
    server = build_server(world, [task])

    async def main():
        async with Client(server, mode="legacy") as client:
            listed = {t.name: t for t in (await client.list_tools()).tools}
            for t in META_TOOLS:
                fn = t["function"]
                got = listed[fn["name"]].model_dump(by_alias=True, exclude_none=True)
                # (the SDK's Tool model writes `properties` before `type`; every key and value is the export's)
                assert _json.dumps(got["inputSchema"], sort_keys=True) == _json.dumps(fn["parameters"], sort_keys=True) and got["description"] == fn["description"]
            bad = await client.call_tool("call_tool", {"tool_name": "no_such_tool", "arguments": {}})
            good = await client.call_tool("list_services", {})
            assert bad.is_error is True and payload(bad)["error"]["code"] == 404
            assert good.is_error is False and payload(good)["success"] is True
            first = await score(client, task["answer"] if task.get("answer") is not None else "done")
            again = await score(client, "something else entirely")
            plain = await score(client)
            assert first["final"] is True and again == first == plain
            after = await client.call_tool("list_services", {})
            assert after.is_error is True and payload(after)["error"]["code"] == 409

    asyncio.run(main())
