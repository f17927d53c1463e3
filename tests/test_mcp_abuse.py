"""`worldc serve` under abuse: what a session costs on a world with large seeds, the caps on
connections and request bodies, stalled bodies, and new clients that must get in while other
sessions' calls run. Every test here is bounded (15 to 45 s together on 2 cores); with
WORLDC_LONG=1 the probe at the end sends 250 stalled bodies at once, 100 oversize ones and 200
sessions (instead of 64, 10 and 12)."""

import asyncio
import contextlib
import ctypes
import gc
import json
import os
import socket
import subprocess
import sys
import threading
import tracemalloc
import weakref
from pathlib import Path

import pytest

mcp = pytest.importorskip("mcp")
from mcp import Client, ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from compoworld_dsl.check import check_paths  # noqa: E402
from compoworld_dsl.codegen.python import load_world  # noqa: E402
from compoworld_dsl.gateway import Episode  # noqa: E402
from compoworld_dsl.mcp_server import CALL_THREADS, build_server, http_server  # noqa: E402
from compoworld_dsl.sample.checker import derive  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOY = str(ROOT / "worlds" / "toy.world")
BIG = ROOT / "tests" / "fixtures" / "worlds" / "big_seeds.world"
LONG = os.environ.get("WORLDC_LONG") == "1"
LIMIT_S = 60  # every test body runs under this bound
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "probe", "version": "0"}}}


@pytest.fixture(scope="module")
def warehouse():
    """The big-seeds world (50,000 seeded rows) and a one-step task on it: reserve a stocked item."""
    program = check_paths([BIG])
    assert program.ok
    world = load_world(program.model)
    before = world.task_state({"seed": 5})
    item = next(k for k, row in before.tables["stock.items"].items() if row["state"] == "stocked")
    after = before.snapshot()
    assert world.call(after, "stock.reserve_item", {"id": item})["success"]
    task = {
        "id": "warehouse-1",
        "services": ["stock"],
        "instruction": f"Reserve the item {item}.",
        "initial_state": {"seed": 5},
        "checker": {"checks": derive(world, before, after, [])},
        "reference_plan": [{"tool": "stock.reserve_item", "arguments": {"id": item}}],
    }
    return world, task


@pytest.fixture(scope="module")
def toy_task(tmp_path_factory):
    from compoworld_dsl.cli.commands import _world_and_tasks
    from compoworld_dsl.sample.run import Job, run

    path = tmp_path_factory.mktemp("abuse") / "tasks.jsonl"
    run(Job(TOY, 3, 2, 4), path)
    world, tasks, _ = _world_and_tasks(TOY, str(path))
    return world, tasks[0], path


def payload(result) -> dict:
    return json.loads(result.content[0].text)


async def until(predicate, seconds: float = 20) -> bool:
    for _ in range(int(seconds / 0.02)):
        if predicate():
            return True
        await asyncio.sleep(0.02)
    return predicate()


@contextlib.asynccontextmanager
async def served(server, **options):
    """The server over streamable HTTP on 127.0.0.1 (a port the OS picks), in this event loop."""
    web = http_server(server, "127.0.0.1", 0, **options)
    web.config.log_level = "warning"
    task = asyncio.create_task(web.serve())
    assert await until(lambda: web.started or task.done()), "the MCP server did not start"
    assert web.started, "the MCP server did not start"
    try:
        yield web.servers[0].sockets[0].getsockname()[1], web
    finally:
        web.should_exit = True
        await asyncio.wait_for(task, 15)


def head(port: int, length: int | None, chunked: bool = False, expect: bool = False) -> bytes:
    size = b"Transfer-Encoding: chunked\r\n" if chunked else b"" if length is None else f"Content-Length: {length}\r\n".encode()
    wait = b"Expect: 100-continue\r\n" if expect else b""
    return f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n".encode() + size + wait + b"\r\n"


def init_request(port: int) -> bytes:
    body = json.dumps(INIT).encode()
    return head(port, len(body)) + body


async def exchange(port: int, data: bytes, wait: float = 20) -> bytes:
    """Send `data` on a fresh connection; the server's first bytes back (at most `wait` s): b"" if
    it sent nothing in that time, b"reset" if it dropped the connection without an answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        return await asyncio.wait_for(reader.read(200), wait)
    except asyncio.TimeoutError:
        return b""
    except ConnectionError:
        return b"reset"
    finally:
        writer.close()


async def stall(port: int, body_bytes: int, declared: int, admitted: bool = False) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection that sends a request head declaring `declared` body bytes, sends `body_bytes`
    of them, and then nothing more. `admitted`: send the body only once the server has taken the
    request in and asks for it (`Expect: 100-continue`), so that the connection surely holds a
    place and a body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(head(port, declared, expect=admitted))
    if admitted:
        assert (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)).startswith(b"HTTP/1.1 100 ")
    writer.write(b" " * body_bytes)
    await writer.drain()
    return reader, writer


# --- what a session costs ------------------------------------------------------------------------


def test_sessions_of_a_task_share_its_seeded_state_and_pay_for_their_changes(warehouse):
    """On a world of 50,000 seeded rows a session used to cost its own seeded state (~18 MB of
    heap); now the sessions of a task share one and each pays for the rows it changed."""
    world, task = warehouse
    server = build_server(world, [task])
    n = 6

    async def main():
        async with contextlib.AsyncExitStack() as stack:
            clients = []
            for i in range(n + 1):
                client = await stack.enter_async_context(Client(server, mode="legacy"))
                # every session writes: a reserved item, a new one, a dropped one
                step = task["reference_plan"][0]
                assert payload(await client.call_tool("call_tool", {"tool_name": "reserve_item", "arguments": step["arguments"]}))["success"]
                assert payload(await client.call_tool("call_tool", {"tool_name": "add_item", "arguments": {"name": f"crate {i}", "bin": "bin-2", "qty": i}}))["success"]
                assert payload(await client.call_tool("call_tool", {"tool_name": "drop_item", "arguments": {"id": f"item-{100 + i}"}}))["success"]
                clients.append(client)
                if i == 0:  # the first session seeded the task's state: count what the others add
                    gc.collect()
                    tracemalloc.start()
            gc.collect()
            per_session = tracemalloc.get_traced_memory()[0] / n
            tracemalloc.stop()
            episodes = list(server.episodes.live.values())
            scores = [json.loads((await c.read_resource("episode://score")).contents[0].text) for c in clients]
            shared = weakref.ref(episodes[0].initial)
            # each session's items table, in the order the sessions opened (by the qty it added)
            items = [t for _, t in sorted((ep.gateway.calls[1][1]["qty"], ep.gateway.state.tables["stock.items"]) for ep in episodes)]
            return per_session, episodes, scores, shared, items

    try:
        per_session, episodes, scores, shared, items = asyncio.run(asyncio.wait_for(main(), LIMIT_S))
    finally:
        tracemalloc.stop()
    assert len(episodes) == n + 1
    assert all(ep.initial is episodes[0].initial for ep in episodes)  # one seeded state for the task
    # each session is scored on its own changes: the goal met, and its two other writes (not another's)
    assert [[(f["kind"], f["reason"].split(",")[0]) for f in s["failed"]] for s in scores] == [[("no_collateral", "2 other change(s)")]] * (n + 1)
    fresh = world.task_state(task["initial_state"])
    assert episodes[0].initial.tables == fresh.tables  # no session's change reached the shared state
    # each session's items table holds its own changes, and no other session's
    for i, table in enumerate(items):
        assert len(table) == len(fresh.tables["stock.items"])
        assert [r["name"] for r in table.values() if r["name"].startswith("crate")] == [f"crate {i}"]
        assert f"item-{100 + i}" not in table and all(f"item-{100 + j}" in table for j in range(n + 1) if j != i)
    assert per_session < 1024 * 1024, f"{per_session / 1024:.0f} KB per session"  # (a seeded state is ~18 MB)
    del episodes, items
    gc.collect()
    assert shared() is None  # freed with the task's last session


# --- connections and bodies ----------------------------------------------------------------------


def test_connections_past_the_cap_get_a_fast_503_and_room_comes_back(toy_task):
    world, task, _ = toy_task
    server = build_server(world, [task])
    cap = 4

    async def main():
        async with served(server, max_connections=cap, request_timeout=60) as (port, web):
            open_now = lambda: len(web.server_state.connections)  # noqa: E731
            held = [await stall(port, 10, 100, admitted=True) for _ in range(cap - 1)]
            within = await exchange(port, init_request(port))  # the cap-th connection is served
            assert await until(lambda: open_now() == cap - 1)
            held.append(await stall(port, 10, 100, admitted=True))
            past = [await exchange(port, init_request(port)) for _ in range(3)]  # at once, not after the 60 s timeout
            for _, writer in held:
                writer.close()
            assert await until(lambda: open_now() == 0)
            again = await exchange(port, init_request(port))
            return within, past, again

    within, past, again = asyncio.run(asyncio.wait_for(main(), LIMIT_S))
    assert within.startswith(b"HTTP/1.1 200 ")
    assert all(p.startswith(b"HTTP/1.1 503 ") for p in past), past
    assert again.startswith(b"HTTP/1.1 200 ")


def test_a_body_declared_past_the_limit_gets_413_without_being_read(toy_task):
    world, task, _ = toy_task
    server = build_server(world, [task])

    async def main():
        async with served(server, max_body_bytes=64 * 1024, request_timeout=60) as (port, _):
            declared = await exchange(port, head(port, 5 * 1024 * 1024))  # the body never comes
            # a chunk of 70 KiB, of which one byte past the limit is sent: the rest never comes
            chunked = await exchange(port, head(port, None, chunked=True) + b"%x\r\n" % (70 * 1024) + b" " * (64 * 1024 + 1))
            padded = json.dumps(INIT).encode()
            padded += b" " * (64 * 1024 - len(padded))  # exactly at the limit: served
            at_limit = await exchange(port, head(port, len(padded)) + padded)
            return declared, chunked, at_limit

    declared, chunked, at_limit = asyncio.run(asyncio.wait_for(main(), LIMIT_S))
    assert declared.startswith(b"HTTP/1.1 413 "), declared
    assert chunked.startswith(b"HTTP/1.1 413 "), chunked
    assert at_limit.startswith(b"HTTP/1.1 200 "), at_limit


# --- new clients get in while calls run ----------------------------------------------------------


def test_a_new_client_initializes_while_a_score_is_being_computed(toy_task, monkeypatch):
    """Scoring (and seeding an episode) used to run on the event loop: one slow score read held
    every other client, a new one's `initialize` included."""
    world, task, _ = toy_task
    server = build_server(world, [task])
    entered, release = threading.Event(), threading.Event()
    events = []
    real_score = Episode.score

    def slow_score(self):
        entered.set()
        release.wait(20)  # on the loop this blocks everything for 20 s, then the order shows it
        events.append("score done")
        return real_score(self)

    monkeypatch.setattr(Episode, "score", slow_score)

    async def main():
        async with served(server) as (port, _):
            url = f"http://127.0.0.1:{port}/mcp"
            async with streamable_http_client(url) as (r, w, *_), ClientSession(r, w) as busy:
                await busy.initialize()
                reading = asyncio.create_task(busy.read_resource("episode://score"))
                assert await until(entered.is_set)
                async with streamable_http_client(url) as (r2, w2, *_), ClientSession(r2, w2) as fresh:
                    await fresh.initialize()
                    events.append("fresh initialized")
                    release.set()
                    got = json.loads((await reading).contents[0].text)
            return got

    got = asyncio.run(asyncio.wait_for(main(), LIMIT_S))
    assert events == ["fresh initialized", "score done"]
    assert got["reward"] == 0


def test_tool_calls_run_a_few_at_a_time_and_new_clients_still_get_in(toy_task, monkeypatch):
    """Tool calls run in a small pool of worker threads: a burst of calls cannot starve the event
    loop of the interpreter lock (40 busy threads held a new client's `initialize` for 40 s)."""
    world, task, _ = toy_task
    server = build_server(world, [task])
    n = 3 * CALL_THREADS + 2
    lock, release = threading.Lock(), threading.Event()
    running, peak, events = [0], [0], []
    real_call = Episode.call

    def held_call(self, name, arguments=None):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        release.wait(30)
        with lock:
            running[0] -= 1
        return real_call(self, name, arguments)

    monkeypatch.setattr(Episode, "call", held_call)

    async def one(url: str) -> bool:
        async with streamable_http_client(url) as (r, w, *_), ClientSession(r, w) as session:
            await session.initialize()
            return payload(await session.call_tool("list_services", {}))["success"]

    async def main():
        async with served(server) as (port, _):
            url = f"http://127.0.0.1:{port}/mcp"
            calls = [asyncio.create_task(one(url)) for _ in range(n)]
            # every call has arrived: running in a worker, or waiting for one
            assert await until(lambda: running[0] > CALL_THREADS or server.workers.statistics().tasks_waiting == n - CALL_THREADS)
            busy = running[0]
            async with streamable_http_client(url) as (r, w, *_), ClientSession(r, w) as fresh:
                await fresh.initialize()
                names = {t.name for t in (await fresh.list_tools()).tools}
                events.append(("fresh initialized", running[0]))
            release.set()
            return busy, names, await asyncio.gather(*calls)

    busy, names, done = asyncio.run(asyncio.wait_for(main(), LIMIT_S))
    assert busy == CALL_THREADS and peak[0] == CALL_THREADS, (busy, peak[0])
    assert events == [("fresh initialized", CALL_THREADS)]  # while every worker was still busy
    assert "call_tool" in names
    assert done == [True] * n  # the queued calls ran once workers were free


# --- the probe: all of it at once, the server in its own process --------------------------------


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads RSS from /proc")
def test_probe_stalled_connections_oversize_bodies_and_many_sessions(toy_task):
    """A server with small limits, hit by stalled bodies past the connection cap, oversize and
    chunked bodies and many sessions: it answers every one (503, 413, 408 or a session), serves a
    fresh client afterwards, and its memory stays within what the limits allow."""
    _, task, tasks_path = toy_task
    cap, max_body, timeout = 32, 1024 * 1024, 4
    held = cap - 2  # stalled connections that get in, one after another, and hold a body each
    burst, oversize, sessions = (250, 100, 200) if LONG else (2 * cap, 10, 12)  # burst: stalled ones all at once
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "compoworld_dsl.cli", "serve", TOY, "--tasks", str(tasks_path), "--transport", "http", "--port", str(port),
         "--max-connections", str(cap), "--max-body-bytes", str(max_body), "--request-timeout", str(timeout)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )

    async def session(url: str) -> bool:
        async with streamable_http_client(url) as (r, w, *_), ClientSession(r, w) as s:
            await s.initialize()
            ok = payload(await s.call_tool("list_services", {}))["success"]
            return ok and json.loads((await s.read_resource("episode://score")).contents[0].text)["reward"] == 0

    async def main():
        url = f"http://127.0.0.1:{port}/mcp"
        assert await until(lambda: _accepts(port), 30), "the server did not start"
        assert await session(url)  # warm: the SDK's one-time caches
        base = rss_mb(proc.pid)
        peak = [base]

        async def watch():
            while True:
                peak[0] = max(peak[0], rss_mb(proc.pid))
                await asyncio.sleep(0.05)

        watcher = asyncio.create_task(watch())

        async def answer(connection) -> bytes:
            # past the cap the server answers 503 and closes while the body is still coming, which
            # the client may see as a reset: an answer all the same, not a hang
            writer = None
            try:
                reader, writer = await connection
                return await asyncio.wait_for(reader.read(200), 30 * timeout)
            except asyncio.TimeoutError:
                return b""
            except ConnectionError:
                return b"reset"
            finally:
                if writer is not None:
                    writer.close()

        inside = []
        for _ in range(held):
            connection = asyncio.get_running_loop().create_future()
            connection.set_result(await stall(port, max_body - 1, max_body, admitted=True))
            inside.append(asyncio.create_task(answer(connection)))
        outside = await asyncio.gather(*(answer(stall(port, max_body - 1, max_body)) for _ in range(burst)))
        inside = await asyncio.gather(*inside)
        gate = asyncio.Semaphore(cap // 4)  # within the cap: a session holds two connections, its event stream and its requests

        async def gated(work):
            async with gate:
                return await work

        declared = [exchange(port, head(port, 100 * max_body)) for _ in range(oversize // 2)]
        chunked = [exchange(port, head(port, None, chunked=True) + b"%x\r\n" % (2 * max_body) + b" " * (max_body + 1)) for _ in range(oversize - oversize // 2)]
        big = await asyncio.gather(*(gated(x) for x in declared + chunked))
        played = await asyncio.gather(*(gated(session(url)) for _ in range(sessions)))
        fresh = await session(url)
        watcher.cancel()
        return base, peak[0], rss_mb(proc.pid), inside, outside, big, played, fresh

    try:
        base, peak, after, inside, outside, big, played, fresh = asyncio.run(asyncio.wait_for(main(), 300 if LONG else LIMIT_S))
    finally:
        proc.terminate()
        proc.wait(10)
    assert [a[:12] for a in inside] == [b"HTTP/1.1 408"] * held  # held their body until the timeout, then dropped
    # refused at once, or (those that found a place) dropped at the timeout: none hung
    assert {a[:12] for a in outside} <= {b"HTTP/1.1 503", b"HTTP/1.1 408", b"reset"}, outside
    assert b"HTTP/1.1 503" in {a[:12] for a in outside}
    assert all(b.startswith(b"HTTP/1.1 413 ") for b in big), big
    assert all(played) and fresh
    # each held connection buffers one body (and a copy on its way to the SDK); the rest is the
    # sessions' state and allocator slack
    bound = 2 * cap * max_body / 2**20 + 40
    print(f"RSS {base:.0f} MB, peak {peak:.0f} MB, after {after:.0f} MB (bound: {base:.0f} + {bound:.0f})")
    assert peak - base < bound, f"RSS grew {peak - base:.0f} MB (bound {bound:.0f} MB)"
    if hasattr(ctypes.CDLL(None), "malloc_trim"):  # glibc: the dropped bodies' memory went back to the OS
        assert after - base < max(8, (peak - base) / 4), f"RSS {after:.0f} MB after, {base:.0f} MB before"


def _accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False
