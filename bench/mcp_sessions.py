"""Benchmark: the MCP server's memory after many sessions, closed and open (`worldc serve --transport http`).

Usage: python bench/mcp_sessions.py [-n 3000] [--open 200] [--concurrency 20] [--calls 2]

Runs the server (the code behind `worldc serve --transport http`, toy world) on 127.0.0.1 in
this process and drives it with the MCP SDK's streamable HTTP client. Each session initializes,
makes `--calls` tool calls, reads `episode://score` and closes (HTTP DELETE). Prints the Python
heap the process holds (tracemalloc, after a collection) and its RSS:
  start       the server up, no session yet;
  warm        after --warm sessions (the SDK's and pydantic's one-time caches are filled);
  closed      after -n sessions opened, played and closed;
  open        with --open sessions held open at once, then again after they close.
The per-session figures divide the growth over warm by the sessions. The clients run in the same
process, but their objects are gone once their sessions close; `open` counts both sides."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
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
from compoworld_dsl.mcp_server import build_server, http_server  # noqa: E402
from compoworld_dsl.sample.run import Job, run  # noqa: E402


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def heap_mb() -> float:
    gc.collect()
    return tracemalloc.get_traced_memory()[0] / 2**20


async def open_session(url: str, stack: contextlib.AsyncExitStack, calls: int, http: httpx2.AsyncClient) -> ClientSession:
    streams = await stack.enter_async_context(streamable_http_client(url, http_client=http))
    session = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
    await session.initialize()
    for i in range(calls):
        await session.call_tool("list_services" if i % 2 == 0 else "describe_tool", {} if i % 2 == 0 else {"tool": "no_such_tool"})
    await session.read_resource("episode://score")
    return session


async def closed_sessions(url: str, n: int, concurrency: int, calls: int, http: httpx2.AsyncClient) -> None:
    gate = asyncio.Semaphore(concurrency)

    async def one() -> None:
        async with gate, contextlib.AsyncExitStack() as stack:
            await open_session(url, stack, calls, http)

    await asyncio.gather(*(one() for _ in range(n)))


async def settle(server, seconds: float = 10) -> None:
    """Let the SDK finish tearing down sessions it has been told to close."""
    for _ in range(int(seconds / 0.05)):
        if len(server.episodes) == 0:
            return
        await asyncio.sleep(0.05)


async def measure(args) -> list[tuple[str, float, float, int]]:
    scratch = tempfile.TemporaryDirectory()
    tasks_path = Path(scratch.name) / "tasks.jsonl"
    run(Job(str(ROOT / "worlds" / "toy.world"), 3, 4, 0), tasks_path)
    world, tasks, _ = _world_and_tasks(str(ROOT / "worlds" / "toy.world"), str(tasks_path))
    server = build_server(world, tasks, max_sessions=max(args.open + args.concurrency, 1000))
    web = http_server(server, "127.0.0.1", 0)
    web.config.log_level = "warning"
    web.config.access_log = False
    serving = asyncio.create_task(web.serve())
    while not web.started:
        await asyncio.sleep(0.05)
    url = f"http://127.0.0.1:{web.servers[0].sockets[0].getsockname()[1]}/mcp"
    # One HTTP client for all sessions, as a harness would keep: a fresh one per session costs
    # more client time (TLS set-up) than the session does on the server.
    http = httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=300), limits=httpx2.Limits(max_connections=None))
    rows = [("start", heap_mb(), rss_mb(), len(server.episodes))]

    await closed_sessions(url, args.warm, args.concurrency, args.calls, http)
    await settle(server)
    rows.append((f"warm ({args.warm} closed)", heap_mb(), rss_mb(), len(server.episodes)))

    t = time.perf_counter()
    await closed_sessions(url, args.n, args.concurrency, args.calls, http)
    elapsed = time.perf_counter() - t
    await settle(server)
    rows.append((f"closed (+{args.n})", heap_mb(), rss_mb(), len(server.episodes)))

    if args.open:
        async with contextlib.AsyncExitStack() as stack:
            for _ in range(args.open):
                await open_session(url, stack, args.calls, http)
            rows.append((f"open ({args.open} at once)", heap_mb(), rss_mb(), len(server.episodes)))
        await settle(server)
        rows.append(("open ones closed", heap_mb(), rss_mb(), len(server.episodes)))

    await http.aclose()
    web.should_exit = True
    await serving
    print(f"{args.n} sessions in {elapsed:.1f} s ({args.n / elapsed:.0f}/s, {args.concurrency} at a time, {args.calls} calls each)")
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=3000, help="sessions to open, play and close")
    ap.add_argument("--warm", type=int, default=100, help="sessions before the baseline for per-session figures")
    ap.add_argument("--open", type=int, default=200, help="sessions to hold open at once (0: skip)")
    ap.add_argument("--concurrency", type=int, default=20)
    ap.add_argument("--calls", type=int, default=2, help="tool calls per session")
    args = ap.parse_args()
    logging.disable(logging.INFO)  # the SDK logs every session and request at INFO
    tracemalloc.start()
    rows = asyncio.run(measure(args))
    print(f"{'after':<24}{'heap MB':>9}{'RSS MB':>9}{'episodes':>10}")
    for label, heap, rss, live in rows:
        print(f"{label:<24}{heap:>9.1f}{rss:>9.1f}{live:>10}")
    warm, closed = rows[1], rows[2]
    print(f"per closed session: {(closed[1] - warm[1]) * 2**20 / args.n / 1024:.2f} KB heap")
    if args.open:
        print(f"per open session:   {(rows[3][1] - closed[1]) * 2**20 / args.open / 1024:.1f} KB heap (server and client)")


if __name__ == "__main__":
    main()
