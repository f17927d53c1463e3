"""Benchmark: the MCP server's memory after many sessions, and under abuse (`worldc serve --transport http`).

Usage: python bench/mcp_sessions.py [-n 3000] [--open 200] [--concurrency 20] [--calls 2] [--world toy|big]
       python bench/mcp_sessions.py --world big -n 0 --warm 5 --open 20   # a world with large seeds
       python bench/mcp_sessions.py --stalled 250 --body 4194304            # connections that stall their bodies
       python bench/mcp_sessions.py --slow-calls 50                         # a new client while 50 calls run

Runs the server (the code behind `worldc serve --transport http`) on 127.0.0.1 in this process and
drives it with the MCP SDK's streamable HTTP client. Each session initializes, makes `--calls`
tool calls, reads `episode://score` and closes (HTTP DELETE). Prints the Python heap the process
holds (tracemalloc, after a collection) and its RSS:
  start       the server up, no session yet;
  warm        after --warm sessions (the SDK's and pydantic's one-time caches are filled);
  closed      after -n sessions opened, played and closed;
  open        with one session open, with --open sessions held open at once, and after they close.
The per-session figures divide the growth over warm (closed sessions) or over the first open
session (open ones: it seeded its task's state) by the sessions. The clients run in the same
process, but their objects are gone once their sessions close; `open` counts both sides.

`--world big` serves tests/fixtures/worlds/big_seeds.world (50,000 seeded rows) with one task;
there every call writes (reserve an item, add one), so an open session holds its own changes.

`--stalled N` opens N connections that each declare a `--body` of BYTES, send all of it but the
last byte and stall; it prints the RSS before, at its peak, and after the server has answered
them all (503, 408 or 413) and let them go. `--slow-calls N` has N sessions each make a call that
works for `--call-seconds` of CPU, and times a new client's `initialize` while they run.

`--server FILE` loads build_server and http_server from another mcp_server.py, to measure an older
one (`git show REV:compoworld_dsl/mcp_server.py > /tmp/old_mcp_server.py`)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib.util
import logging
import socket
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx2  # noqa: E402  (the SDK's HTTP client)
from mcp import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from compoworld_dsl.cli import _world_and_tasks  # noqa: E402
from compoworld_dsl.gateway import Episode  # noqa: E402
from compoworld_dsl.sample.run import Job, run  # noqa: E402

BIG = ROOT / "tests" / "fixtures" / "worlds" / "big_seeds.world"


def rss_mb(pid: str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def heap_mb() -> float:
    gc.collect()
    return tracemalloc.get_traced_memory()[0] / 2**20


def server_module(path: str | None):
    if path is None:
        from compoworld_dsl import mcp_server

        return mcp_server
    # named inside the package, so that its relative imports resolve as the real module's do
    spec = importlib.util.spec_from_file_location("compoworld_dsl._bench_mcp_server", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its annotations are resolved through it)
    spec.loader.exec_module(module)
    return module


def world_and_tasks(which: str, scratch: Path):
    if which == "toy":
        tasks_path = scratch / "tasks.jsonl"
        run(Job(str(ROOT / "worlds" / "toy.world"), 3, 4, 0), tasks_path)
        world, tasks, _ = _world_and_tasks(str(ROOT / "worlds" / "toy.world"), str(tasks_path))
        return world, tasks
    from compoworld_dsl.check import check_paths
    from compoworld_dsl.codegen.python import load_world

    world = load_world(check_paths([BIG]).model)
    task = {"id": "warehouse-1", "services": ["stock"], "instruction": "Reserve the item item-7.", "initial_state": {"seed": 5}, "checker": {"checks": []}}
    return world, [task]


def calls_of(world: str, i: int) -> list[tuple[str, dict]]:
    """The tool calls of a session's i-th call: the toy world's read-only ones, or two writes."""
    if world == "big":
        return [("call_tool", {"tool_name": "reserve_item", "arguments": {"id": f"item-{i + 1}"}}), ("call_tool", {"tool_name": "add_item", "arguments": {"name": f"crate {i}", "bin": "bin-2", "qty": i}})][i % 2 : i % 2 + 1]
    return [("list_services", {})] if i % 2 == 0 else [("describe_tool", {"tool": "no_such_tool"})]


async def open_session(url: str, stack: contextlib.AsyncExitStack, calls: int, http: httpx2.AsyncClient, world: str = "toy") -> ClientSession:
    streams = await stack.enter_async_context(streamable_http_client(url, http_client=http))
    session = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
    await session.initialize()
    for i in range(calls):
        for name, arguments in calls_of(world, i):
            await session.call_tool(name, arguments)
    await session.read_resource("episode://score")
    return session


async def closed_sessions(url: str, n: int, concurrency: int, calls: int, http: httpx2.AsyncClient, world: str) -> None:
    gate = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with gate, contextlib.AsyncExitStack() as stack:
            await open_session(url, stack, calls, http, world)

    await asyncio.gather(*(one() for _ in range(n)))


async def settle(server, seconds: float = 10) -> None:
    """Let the SDK finish tearing down sessions it has been told to close."""
    for _ in range(int(seconds / 0.05)):
        if len(server.episodes) == 0:
            return
        await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def serving(module, server, **limits):
    web = module.http_server(server, "127.0.0.1", 0, **limits)
    web.config.log_level = "warning"
    web.config.access_log = False
    task = asyncio.create_task(web.serve())
    while not web.started:
        await asyncio.sleep(0.05)
    try:
        yield web.servers[0].sockets[0].getsockname()[1]
    finally:
        web.should_exit = True
        await task


async def sessions(args, module, world, tasks) -> list[tuple[str, float, float, int]]:
    server = module.build_server(world, tasks, max_sessions=max(args.open + args.concurrency, 1000))
    async with serving(module, server, **limits(args)) as port:
        url = f"http://127.0.0.1:{port}/mcp"
        # One HTTP client for all sessions, as a harness would keep: a fresh one per session costs
        # more client time (TLS set-up) than the session does on the server.
        http = httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=300), limits=httpx2.Limits(max_connections=None))
        rows = [("start", heap_mb(), rss_mb(), len(server.episodes))]

        await closed_sessions(url, args.warm, args.concurrency, args.calls, http, args.world)
        await settle(server)
        rows.append((f"warm ({args.warm} closed)", heap_mb(), rss_mb(), len(server.episodes)))

        t = time.perf_counter()
        await closed_sessions(url, args.n, args.concurrency, args.calls, http, args.world)
        elapsed = time.perf_counter() - t
        await settle(server)
        rows.append((f"closed (+{args.n})", heap_mb(), rss_mb(), len(server.episodes)))

        if args.open:
            async with contextlib.AsyncExitStack() as stack:
                # the first one seeds its task's state, which the others may share
                await open_session(url, stack, args.calls, http, args.world)
                rows.append(("open (1)", heap_mb(), rss_mb(), len(server.episodes)))
                for _ in range(args.open - 1):
                    await open_session(url, stack, args.calls, http, args.world)
                rows.append((f"open ({args.open} at once)", heap_mb(), rss_mb(), len(server.episodes)))
            await settle(server)
            rows.append(("open ones closed", heap_mb(), rss_mb(), len(server.episodes)))
        await http.aclose()
    if args.n:
        print(f"{args.n} sessions in {elapsed:.1f} s ({args.n / elapsed:.0f}/s, {args.concurrency} at a time, {args.calls} calls each)")
    return rows


def limits(args) -> dict:
    """The HTTP limits given on the command line (an older server may take none)."""
    given = {"max_connections": args.max_connections, "max_body_bytes": args.max_body_bytes, "request_timeout": args.request_timeout}
    return {k: v for k, v in given.items() if v is not None}


@contextlib.asynccontextmanager
async def server_process(args):
    """The server in a process of its own, so that its RSS and its event loop are its own: yields
    (port, pid)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, __file__, "--serve", str(port), "--world", args.world, "--call-seconds", str(args.call_seconds if args.slow_calls else 0)]
    command += ["--server", args.server] if args.server else []
    command += ["--call-threads", str(args.call_threads)] if args.call_threads else []
    for option, value in limits(args).items():
        command += ["--" + option.replace("_", "-"), str(value)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        yield port, proc.pid
    finally:
        proc.terminate()
        proc.wait()


def serve(args, module, world, tasks) -> None:
    """--serve PORT: the server alone, its calls working --call-seconds of CPU each."""
    if args.call_seconds:
        real = Episode.call

        def working(self, name, arguments=None):
            end = time.thread_time() + args.call_seconds
            while time.thread_time() < end:
                sum(range(1000))
            return real(self, name, arguments)

        Episode.call = working
    server = module.build_server(world, tasks)
    if args.call_threads:
        server.workers.total_tokens = args.call_threads
    module.http_server(server, "127.0.0.1", args.serve, **limits(args)).run()


async def stalled(args) -> None:
    async with server_process(args) as (port, pid):
        head = f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {args.body}\r\n\r\n".encode()
        base, peak = rss_mb(pid), [rss_mb(pid)]

        async def one() -> bytes:
            writer = None
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(head)
                left = args.body - 1
                while left > 0:  # in pieces, so that this client buffers little of its own
                    writer.write(b" " * min(left, 65536))
                    await writer.drain()
                    left -= 65536
                return (await asyncio.wait_for(reader.read(12), 600))[9:12] or b"eof"
            except ConnectionError:
                return b"reset"
            finally:
                if writer is not None:
                    writer.close()

        async def watch():
            while True:
                peak[0] = max(peak[0], rss_mb(pid))
                await asyncio.sleep(0.05)

        watcher = asyncio.create_task(watch())
        t = time.perf_counter()
        answers = await asyncio.gather(*(one() for _ in range(args.stalled)))
        elapsed = time.perf_counter() - t
        watcher.cancel()
        await asyncio.sleep(2)
        counts = {a.decode(): answers.count(a) for a in sorted(set(answers))}
        print(f"{args.stalled} stalled connections of {args.body} bytes: answers {counts} within {elapsed:.1f} s")
        print(f"server RSS MB: before {base:.0f}, peak {peak[0]:.0f}, after {rss_mb(pid):.0f}")


async def slow_calls(args) -> None:
    """A new client's `initialize` while --slow-calls sessions each have a call in flight that
    works for --call-seconds of CPU."""
    async with server_process(args) as (port, _):
        url = f"http://127.0.0.1:{port}/mcp"
        sent = [0]

        async def busy(ready: asyncio.Event) -> None:
            async with streamable_http_client(url) as (r, w, *_), ClientSession(r, w) as s:
                await s.initialize()
                ready.set()
                sent[0] += 1
                await s.call_tool("list_services", {})

        async def fresh() -> float:
            t = time.perf_counter()
            async with streamable_http_client(url) as (r, w, *_), ClientSession(r, w) as session:
                await session.initialize()
                return time.perf_counter() - t

        idle = await fresh()
        readies = [asyncio.Event() for _ in range(args.slow_calls)]
        calls = [asyncio.create_task(busy(ready)) for ready in readies]
        for ready in readies:
            await ready.wait()
        await asyncio.sleep(1)  # the calls are in and working, or waiting for a worker
        took = await fresh()
        print(f"a new client's initialize: {idle:.2f} s idle, {took:.2f} s with {sent[0]} calls of {args.call_seconds} s of CPU in flight")
        logging.disable(logging.CRITICAL)  # (the busy clients complain as they are cut off)
        for call in calls:
            call.cancel()
        await asyncio.gather(*calls, return_exceptions=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=3000, help="sessions to open, play and close")
    ap.add_argument("--warm", type=int, default=100, help="sessions before the baseline for per-session figures")
    ap.add_argument("--open", type=int, default=200, help="sessions to hold open at once (0: skip)")
    ap.add_argument("--concurrency", type=int, default=20)
    ap.add_argument("--calls", type=int, default=2, help="tool calls per session")
    ap.add_argument("--world", choices=("toy", "big"), default="toy", help="big: tests/fixtures/worlds/big_seeds.world, 50,000 seeded rows")
    ap.add_argument("--stalled", type=int, default=0, metavar="N", help="instead: N connections that stall their bodies")
    ap.add_argument("--body", type=int, default=4 * 1024 * 1024, metavar="BYTES", help="with --stalled: the body each declares")
    ap.add_argument("--slow-calls", type=int, default=0, metavar="N", help="instead: time a new client while N sessions' calls run")
    ap.add_argument("--call-seconds", type=float, default=2.0, help="with --slow-calls: CPU seconds each call works")
    ap.add_argument("--call-threads", type=int, help="with --slow-calls: the server's worker threads for calls (default: its own)")
    ap.add_argument("--max-connections", type=int, help="the server's --max-connections (default: its own)")
    ap.add_argument("--max-body-bytes", type=int, help="the server's --max-body-bytes (default: its own)")
    ap.add_argument("--request-timeout", type=float, help="the server's --request-timeout (default: its own)")
    ap.add_argument("--server", metavar="FILE", help="an mcp_server.py to load instead of this checkout's")
    ap.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)  # (how --stalled and --slow-calls run the server)
    args = ap.parse_args()
    logging.disable(logging.WARNING)  # the SDK logs every session and request at INFO, refusals at WARNING
    if args.stalled or args.slow_calls:  # (against a server process: `--serve`)
        asyncio.run(stalled(args) if args.stalled else slow_calls(args))
        return
    module = server_module(args.server)
    with tempfile.TemporaryDirectory() as scratch:
        world, tasks = world_and_tasks(args.world, Path(scratch))
    if args.serve:
        serve(args, module, world, tasks)
        return
    tracemalloc.start()
    rows = asyncio.run(sessions(args, module, world, tasks))
    print(f"{'after':<24}{'heap MB':>9}{'RSS MB':>9}{'episodes':>10}")
    for label, heap, rss, live in rows:
        print(f"{label:<24}{heap:>9.1f}{rss:>9.1f}{live:>10}")
    warm, closed = rows[1], rows[2]
    if args.n:
        print(f"per closed session: {(closed[1] - warm[1]) * 2**20 / args.n / 1024:.2f} KB heap")
    if args.open > 1:
        first, every = rows[3], rows[4]
        print(f"per open session:   {(every[1] - first[1]) * 1024 / (args.open - 1):.1f} KB heap, {(every[2] - first[2]) / (args.open - 1):.2f} MB RSS (server and client; the first seeded {first[1] - closed[1]:.1f} MB heap)")


if __name__ == "__main__":
    main()
