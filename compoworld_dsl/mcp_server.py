"""`worldc serve`: the gateway's four meta-tools over MCP (official SDK), one episode per session,
freed when the session ends or idles out. It plays `Episode`s only: no gateway or runtime logic here."""

from __future__ import annotations

import asyncio
import ctypes
import itertools
import logging
import math
import threading
import weakref
from typing import Any

try:  # the MCP SDK is an optional extra: pip install 'compoworld-dsl[mcp]'
    import anyio
    import anyio.to_thread
    import uvicorn
    from mcp.server.lowlevel.helper_types import ReadResourceContents
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
    from mcp.shared.exceptions import MCPError
    from mcp_types import INVALID_REQUEST, METHOD_NOT_FOUND, CallToolResult, TextContent
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
    from pydantic import ValidationError
    from uvicorn.protocols.http.h11_impl import H11Protocol
except ImportError:  # pragma: no cover - exercised only without the extra
    MCPServer = None  # type: ignore[assignment]
    H11Protocol = object  # type: ignore[assignment,misc]

from . import __version__
from .gateway import DEFAULT_CALL_TIMEOUT, META_TOOLS, SYSTEM_PROMPT, Episode, result_text

SCORE_URI = "episode://score"  # with ?answer=FINAL_MESSAGE (percent-encoded): scored with that answer
TASK_URI = "episode://task"
DEFAULT_IDLE_TIMEOUT = 600.0  # seconds a session may go with no request in flight and no open event stream
DEFAULT_MAX_SESSIONS = 1000  # open sessions; the SDK's default, 10,000, is about 1 GB of them (docs/mcp.md)
DEFAULT_REQUEST_TIMEOUT = 30.0  # seconds for a request's head, and again for its body, to arrive
# A held connection may buffer one request body, so these two bound what slow or stalled clients can
# make the server hold: 256 connections of 512 KiB. The gateway takes arguments of at most 64 KiB
# of JSON, so the rest of a body's room is for a long final message handed over in a score read.
DEFAULT_MAX_CONNECTIONS = 256
DEFAULT_MAX_BODY_BYTES = 512 * 1024
# Tool calls, score reads and episode starts run in this many worker threads, the rest wait their
# turn. They are pure Python: more threads do no more work, and each busy one takes the interpreter
# lock from the event loop, which must go on accepting clients (40 busy threads held a new client's
# `initialize` for 40 s).
CALL_THREADS = 4

log = logging.getLogger(__name__)


def _error(code: int, message: str) -> dict:
    return {"success": False, "error": {"code": code, "message": message}}


class SessionRefused(Exception):
    """This connection cannot hold an episode; the tool answers with `envelope` instead."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.envelope = _error(code, message)


class Episodes:
    """The live episodes, one per MCP session, keyed by the transport's session id (over stdio the
    process's one connection). An episode is dropped when the SDK closes its session's connection.

    The episodes of a task share its seeded state, which none of them changes (each plays on a
    snapshot, and a write copies or layers only what it changes: runtime/state.py). So a session
    costs what it changed, and a task's state lives as long as a session plays it."""

    def __init__(self, world, tasks: list[dict], limit: int | None = DEFAULT_MAX_SESSIONS, call_timeout: float | None = DEFAULT_CALL_TIMEOUT):
        self.world = world
        self.call_timeout = call_timeout  # seconds one tool call may run (the gateway's limit; None: none)
        self.tasks = tasks
        self.limit = limit
        self.live: dict[str, Episode] = {}
        self._order = itertools.cycle(range(len(tasks)))
        self._local = itertools.count(1)
        self._states: weakref.WeakValueDictionary = weakref.WeakValueDictionary()  # task index → its state, while an episode holds it
        # Episodes start in worker threads; the lock makes the limit and the shared states exact.
        # The event loop never takes it (`drop` does not), so a slow seeding holds no client.
        self._starting = threading.Lock()

    def __len__(self) -> int:
        return len(self.live)

    def __contains__(self, key: str) -> bool:
        return key in self.live

    def of(self, ctx: Any) -> Episode:
        """The episode of the session this request belongs to; started on its first use."""
        connection = _connection(ctx)
        key = connection.state.get("episode")
        if key is not None:
            return self.live[key]
        if connection.protocol_version in MODERN_PROTOCOL_VERSIONS:
            # The 2026-07-28 era has no session: every request gets a fresh connection, so an episode
            # would last one call. Refuse rather than hand out state that silently resets.
            raise SessionRefused(400, f"this server plays one episode per MCP session; connect with the initialize handshake (protocol {HANDSHAKE_PROTOCOL_VERSIONS[-1]} or earlier)")
        with self._starting:
            key = connection.state.get("episode")
            if key is not None:  # (two first requests of one session, in two workers)
                return self.live[key]
            if self.limit is not None and len(self.live) >= self.limit:
                raise SessionRefused(503, f"too many open sessions ({len(self.live)}); close finished ones (HTTP DELETE) and try again")
            key = connection.session_id or f"local-{next(self._local)}"
            i = next(self._order)
            initial = self._states.get(i)
            if initial is None:
                initial = self._states[i] = self.world.task_state(self.tasks[i]["initial_state"])
            ep = Episode(self.world, self.call_timeout)
            ep.reset(self.tasks[i], initial)
            self.live[key] = ep
            connection.state["episode"] = key
        # The SDK unwinds this stack when the session's connection closes: HTTP DELETE, idle timeout,
        # transport closed, end of stdio. The episode goes with it.
        connection.exit_stack.callback(self.drop, key)
        return ep

    def drop(self, key: str) -> None:
        ep = self.live.pop(key, None)
        if ep is not None:
            ep.close()


def _connection(ctx: Any):
    """The SDK's per-session `Connection` (its `state` and `exit_stack` are public and documented for
    per-connection cleanup), which MCPServer's `Context` reaches only through its `ServerSession`."""
    try:
        return ctx.request_context.session._connection
    except AttributeError as e:  # pragma: no cover - a future SDK moved it
        raise RuntimeError(f"this MCP SDK does not expose the session's connection; pin 'mcp>=2.3,<3' ({e})") from None


def _result(envelope: dict) -> CallToolResult:
    """An envelope as a tool result: its text is `result_text`, byte for byte what the exported
    trajectories and `worldc eval` show a model (MCPServer would indent it)."""
    return CallToolResult(content=[TextContent(type="text", text=result_text(envelope))], structured_content=envelope, is_error=envelope.get("success") is False)


def _answer_in(uri: str) -> tuple[bool, str | None]:
    """Is `uri` the score resource, and the final message its `answer` query parameter hands over
    (None when it has none)?"""
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(uri)
    if f"{parts.scheme}://{parts.netloc}{parts.path}" != SCORE_URI:
        return False, None
    answers = parse_qs(parts.query, keep_blank_values=True).get("answer")
    return True, (answers[-1] if answers else None)


def _envelope_for(name: str, exc: ToolError) -> dict:
    """The gateway-style envelope for a call the SDK rejected or a tool body that raised."""
    cause = exc.__cause__
    if isinstance(cause, SessionRefused):
        return cause.envelope
    if isinstance(exc, UnexpectedToolError):
        log.error("tool %r raised", name, exc_info=cause or exc)
        return _error(500, f"internal error in {name!r} ({type(cause).__name__}); the server logged it, and this episode may be unusable")
    if isinstance(cause, ValidationError):
        # Field names and messages only: the rejected values are the caller's data.
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg'].lower()}" for err in cause.errors()[:5])
        return _error(400, f"bad arguments for {name!r}: {problems}")
    if cause is None and str(exc).startswith("Unknown tool"):
        return _error(404, f"no meta-tool {name[:80]!r}; use list_services, list_tools, describe_tool or call_tool")
    return _error(400, str(exc))


def build_server(world, tasks: list[dict], name: str = "compoworld", max_sessions: int | None = DEFAULT_MAX_SESSIONS, call_timeout: float | None = DEFAULT_CALL_TIMEOUT):
    """An MCP server whose sessions each play one episode. Sessions take the tasks in file
    order, round robin (give one task to serve it to every session). `server.episodes` holds
    the live ones; `server.workers` limits the worker threads their calls run in (`CALL_THREADS`)."""
    if MCPServer is None:
        raise RuntimeError("the MCP server needs the optional extra: pip install 'compoworld-dsl[mcp]'")
    if not tasks:
        raise ValueError("no tasks to serve")
    if max_sessions is not None and max_sessions <= 0:
        raise ValueError("the session limit must be positive")
    episodes = Episodes(world, tasks, max_sessions, call_timeout)
    workers = anyio.CapacityLimiter(CALL_THREADS)

    async def in_worker(work, *args):
        """Run an episode's work (seeding, a call, a score) in a worker thread, off the event loop."""
        return await anyio.to_thread.run_sync(work, *args, limiter=workers)

    def resource(ctx: Any, is_score: bool, answer: str | None) -> dict:
        ep = episodes.of(ctx)
        if not is_score:
            return {"task_id": ep.task["id"], "system_prompt": SYSTEM_PROMPT, "instruction": ep.task["instruction"]}
        # The final message is handed over once, and the score it gets is the episode's: a later
        # read, with any answer or none, gets that score back, and no tool runs after it (a
        # harness that could read the score with answer after answer could search for a reward).
        session = _connection(ctx).state
        if answer is not None and "final" not in session:
            ep.report(answer)  # the harness hands over the model's final message, unchanged
            s = ep.score()
            session["final"] = {"reward": s["reward"], "partial": s["partial"], "failed": s["failed"], "final": True}
        if "final" in session:
            return session["final"]
        s = ep.score()
        return {"reward": s["reward"], "partial": s["partial"], "failed": s["failed"], "final": False}

    class WorldServer(MCPServer):
        async def read_resource(self, uri, context=None):
            # The score and the task depend on the session, which static resources are not given.
            is_score, answer = _answer_in(str(uri))
            if (is_score or str(uri) == TASK_URI) and context is not None:
                try:
                    body = await in_worker(resource, context, is_score, answer)
                except SessionRefused as e:
                    raise MCPError(code=INVALID_REQUEST, message=e.envelope["error"]["message"]) from None
                return [ReadResourceContents(content=result_text(body), mime_type="application/json")]
            return await super().read_resource(uri, context)

        async def list_tools(self):
            # The schemas a model is trained on (the exports' `tools`, gateway.META_TOOLS) byte for
            # byte, not the SDK's reading of the Python signatures (no descriptions, "object or null").
            advertised = {t["function"]["name"]: t["function"] for t in META_TOOLS}
            return [t.model_copy(update={"description": advertised[t.name]["description"], "input_schema": advertised[t.name]["parameters"]}) if t.name in advertised else t for t in await super().list_tools()]

        async def call_tool(self, name, arguments, context=None):
            # Every failure reaches the agent as the gateway's envelope, never the SDK's
            # "Error executing tool" text, so an agent reads one error shape.
            try:
                return await super().call_tool(name, arguments, context)
            except MCPError:
                raise
            except ToolError as e:
                return _result(_envelope_for(name, e))

    server = WorldServer(name, version=__version__, instructions="Tools live in services: list_services, list_tools, describe_tool, then call_tool. The prompt `task` (and the resource episode://task) holds this session's task.")
    server.episodes = episodes
    server.workers = workers

    async def handshake_only(ctx, call_next):
        # Not answering `server/discover` makes a client in the SDK's default mode ("auto") fall back
        # to the initialize handshake, whose session an episode can live in.
        if ctx.method == "server/discover":
            raise MCPError(code=METHOD_NOT_FOUND, message="this server plays one episode per session: use the initialize handshake")
        return await call_next(ctx)

    server.middleware.append(handshake_only)

    @server.resource(SCORE_URI, name="score", mime_type="application/json", description="This episode's score: reward, partial, failed. Read episode://score?answer=FINAL_MESSAGE (percent-encoded) to hand over the model's final message, unchanged, and score it")
    def score() -> str:  # replaced per session by WorldServer.read_resource
        return "{}"

    @server.resource(TASK_URI, name="task", mime_type="application/json", description="This session's task: task_id, system_prompt, instruction")
    def task() -> str:  # replaced per session by WorldServer.read_resource
        return "{}"

    # MCP prompts carry user and assistant messages only, so the system prompt is a prompt of its own:
    # a harness puts `system_prompt` in the system role and `task` in the user turn, as the exports do.
    @server.prompt(name="system_prompt", description="The system prompt every exported trajectory starts with (use it as the system message)")
    def system_prompt() -> str:
        return SYSTEM_PROMPT

    @server.prompt(name="task", description="This session's task: the instruction, the first user message")
    async def task_prompt(ctx: Context) -> str:
        return await in_worker(lambda: episodes.of(ctx).task["instruction"])

    def play(ctx: Context, name: str, arguments: dict) -> CallToolResult:
        if "final" in _connection(ctx).state:
            return _result({"success": False, "error": {"code": 409, "message": "this episode is over: its final message was handed over (episode://score?answer=...)"}})
        return _result(episodes.of(ctx).call(name, arguments))

    # Each tool returns the gateway's envelope as one CallToolResult, its text `result_text`.
    @server.tool(description="List the services you can use.")
    async def list_services(ctx: Context) -> CallToolResult:
        return await in_worker(play, ctx, "list_services", {})

    @server.tool(description="List the tools of one service, with what each does.")
    async def list_tools(service: str, ctx: Context) -> CallToolResult:
        return await in_worker(play, ctx, "list_tools", {"service": service})

    @server.tool(description="The JSON Schema of a tool's arguments.")
    async def describe_tool(tool: str, ctx: Context) -> CallToolResult:
        return await in_worker(play, ctx, "describe_tool", {"tool": tool})

    @server.tool(description="Call a tool with arguments.")
    async def call_tool(tool_name: str, ctx: Context, arguments: dict | None = None) -> CallToolResult:
        return await in_worker(play, ctx, "call_tool", {"tool_name": tool_name, "arguments": arguments})

    return server


# --- HTTP: limits on connections and on slow or large requests -----------------------------------

_TIMEOUT_408 = b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\ncontent-length: 15\r\n\r\nrequest timeout"


async def _refuse(send, status: int, text: str) -> None:
    """Answer and close the connection: the rest of the body, if any, is never read."""
    body = text.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _heap_trimmer():
    """glibc's `malloc_trim`, or None on a C library without it. glibc keeps the heap memory
    Python frees for later: without a trim, the server's RSS stayed at its peak after 250 stalled
    bodies were dropped."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):  # pragma: no cover - not glibc
        return None


class BodyLimits:
    """ASGI middleware: a request's body must be at most `max_body` bytes (else 413, before it is
    read if its Content-Length says so) and arrive within `timeout` seconds (else 408); either way
    the connection closes. Neither uvicorn nor Starlette bounds a body read, so a client that
    declares more bytes than it sends would hold a connection, and what it sent, open. A second
    after bodies are dropped, the memory they took goes back to the OS."""

    def __init__(self, app, timeout: float, max_body: int = DEFAULT_MAX_BODY_BYTES):
        self.app = app
        self.timeout = timeout
        self.max_body = max_body
        self._trim = _heap_trimmer()
        self._trimming = None  # the pending trim: one a second at most, however many bodies drop

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        too_large = f"request body too large: at most {self.max_body} bytes"
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_body:
            return await _refuse(send, 413, too_large)
        body, refused = bytearray(), 408  # (unless the body is whole in time)
        with anyio.move_on_after(self.timeout):
            refused = await self._read(receive, body)
        if refused is not None:
            body.clear()
            self._trim_soon()
            if refused:
                await _refuse(send, refused, too_large if refused == 413 else "request timeout: the body did not arrive in time")
            return
        pending = [{"type": "http.request", "body": bytes(body), "more_body": False}]
        del body

        async def replay():
            return pending.pop(0) if pending else await receive()

        await self.app(scope, replay, send)

    async def _read(self, receive, body: bytearray) -> int | None:
        """Read the request's body into `body` (one buffer, not an object per chunk the socket
        gave): None once it is whole, 413 past `max_body`, 0 if the client left before that."""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return 0
            body += message.get("body", b"")
            if len(body) > self.max_body:
                return 413
            if not message.get("more_body", False):
                return None

    def _trim_soon(self) -> None:
        if self._trim is not None and self._trimming is None:
            self._trimming = asyncio.get_running_loop().call_later(1.0, self._trim_now)

    def _trim_now(self) -> None:
        self._trimming = None
        self._trim(0)


def _head_deadline_protocol(timeout: float) -> type:
    """uvicorn's h11 protocol with a deadline on a request's head (request line and headers).
    uvicorn arms no timer before the first request and cancels its keep-alive timer on the first
    byte of the next one, so a client that sends half a header would hold the connection forever."""

    class HeadDeadlineH11(H11Protocol):
        _head_timer = None

        def _waiting_for_head(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def _arm(self) -> None:
            self._head_timer = self.loop.call_later(timeout, self._head_timed_out)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def connection_made(self, transport):
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            if self._head_timer is None and self._waiting_for_head():
                self._arm()  # the first byte of the next request starts its clock, once
            super().data_received(data)
            if not self._waiting_for_head():
                self._disarm()

        def connection_lost(self, exc):
            self._disarm()
            super().connection_lost(exc)

        def _head_timed_out(self) -> None:
            self._head_timer = None
            if self._waiting_for_head() and not self.transport.is_closing():
                self.transport.write(_TIMEOUT_408)
                self.transport.close()

    return HeadDeadlineH11


def http_server(
    server,
    host: str = "127.0.0.1",
    port: int = 8765,
    idle_timeout: float | None = DEFAULT_IDLE_TIMEOUT,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
) -> uvicorn.Server:
    """A uvicorn server for `server` (from build_server) over streamable HTTP at /mcp: `.run()` it,
    or await `.serve()`. A session ends on DELETE or after `idle_timeout` seconds idle, and at most
    build_server's `max_sessions` are open at once (the SDK answers 503 past that). At most
    `max_connections` connections are served at once (a request on another gets 503 and its
    connection closes), a body over `max_body_bytes` gets 413, and a request whose head or body
    takes over `request_timeout` seconds gets 408."""
    for label, value in (("idle timeout", idle_timeout), ("request timeout", request_timeout)):
        if value is not None and not (math.isfinite(value) and value > 0):
            raise ValueError(f"the {label} must be a positive number of seconds")
    if max_connections < 1 or max_body_bytes < 1:
        raise ValueError("the connection and body limits must be positive")
    app = server.streamable_http_app(session_idle_timeout=idle_timeout, max_sessions=server.episodes.limit, max_request_body_size=max_body_bytes, host=host)
    config = uvicorn.Config(
        BodyLimits(app, request_timeout, max_body_bytes),
        host=host,
        port=port,
        http=_head_deadline_protocol(request_timeout),
        # uvicorn counts the connection that asks too, and refuses at this many: one more than ours
        limit_concurrency=max_connections + 1,
        log_level=server.settings.log_level.lower(),
    )
    return uvicorn.Server(config)
