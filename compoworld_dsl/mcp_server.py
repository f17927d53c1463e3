"""`worldc serve`: the gateway's four meta-tools over MCP (official SDK), one episode per session,
freed when the session ends or idles out. It plays `Episode`s only: no gateway or runtime logic here."""

from __future__ import annotations

import itertools
import logging
import math
from typing import Any

try:  # the MCP SDK is an optional extra: pip install 'compoworld-dsl[mcp]'
    import anyio
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
from .gateway import SYSTEM_PROMPT, Episode, result_text

SCORE_URI = "episode://score"  # with ?answer=FINAL_MESSAGE (percent-encoded): scored with that answer
TASK_URI = "episode://task"
DEFAULT_IDLE_TIMEOUT = 600.0  # seconds a session may go with no request in flight and no open event stream
DEFAULT_MAX_SESSIONS = 1000  # open sessions; the SDK's default, 10,000, is about 1 GB of them (docs/mcp.md)
DEFAULT_REQUEST_TIMEOUT = 30.0  # seconds for a request's head, and again for its body, to arrive
MAX_BODY_BYTES = 4 * 1024 * 1024  # the SDK's limit too; the body deadline buffers no more than this

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
    process's one connection). An episode is dropped when the SDK closes its session's connection."""

    def __init__(self, world, tasks: list[dict], limit: int | None = DEFAULT_MAX_SESSIONS):
        self.world = world
        self.tasks = tasks
        self.limit = limit
        self.live: dict[str, Episode] = {}
        self._order = itertools.cycle(range(len(tasks)))
        self._local = itertools.count(1)

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
        if self.limit is not None and len(self.live) >= self.limit:
            raise SessionRefused(503, f"too many open sessions ({len(self.live)}); close finished ones (HTTP DELETE) and try again")
        key = connection.session_id or f"local-{next(self._local)}"
        ep = Episode(self.world)
        ep.reset(self.tasks[next(self._order)])
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
    return CallToolResult(content=[TextContent(type="text", text=result_text(envelope))], structured_content=envelope)


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


def build_server(world, tasks: list[dict], name: str = "compoworld", max_sessions: int | None = DEFAULT_MAX_SESSIONS):
    """An MCP server whose sessions each play one episode. Sessions take the tasks in file
    order, round robin (give one task to serve it to every session). `server.episodes` holds
    the live ones."""
    if MCPServer is None:
        raise RuntimeError("the MCP server needs the optional extra: pip install 'compoworld-dsl[mcp]'")
    if not tasks:
        raise ValueError("no tasks to serve")
    if max_sessions is not None and max_sessions <= 0:
        raise ValueError("the session limit must be positive")
    episodes = Episodes(world, tasks, max_sessions)

    class WorldServer(MCPServer):
        async def read_resource(self, uri, context=None):
            # The score and the task depend on the session, which static resources are not given.
            is_score, answer = _answer_in(str(uri))
            if (is_score or str(uri) == TASK_URI) and context is not None:
                try:
                    ep = episodes.of(context)
                except SessionRefused as e:
                    raise MCPError(code=INVALID_REQUEST, message=e.envelope["error"]["message"]) from None
                if not is_score:
                    body = {"task_id": ep.task["id"], "system_prompt": SYSTEM_PROMPT, "instruction": ep.task["instruction"]}
                    return [ReadResourceContents(content=result_text(body), mime_type="application/json")]
                if answer is not None:
                    ep.report(answer)  # the harness hands over the model's final message, unchanged
                s = ep.score()
                body = {"reward": s["reward"], "partial": s["partial"], "failed": s["failed"]}
                return [ReadResourceContents(content=result_text(body), mime_type="application/json")]
            return await super().read_resource(uri, context)

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
    def task_prompt(ctx: Context) -> str:
        return episodes.of(ctx).task["instruction"]

    # Each tool returns the gateway's envelope as one CallToolResult, its text `result_text`.
    @server.tool(description="List the services you can use.")
    def list_services(ctx: Context) -> CallToolResult:
        return _result(episodes.of(ctx).call("list_services", {}))

    @server.tool(description="List the tools of one service, with what each does.")
    def list_tools(service: str, ctx: Context) -> CallToolResult:
        return _result(episodes.of(ctx).call("list_tools", {"service": service}))

    @server.tool(description="The JSON Schema of a tool's arguments.")
    def describe_tool(tool: str, ctx: Context) -> CallToolResult:
        return _result(episodes.of(ctx).call("describe_tool", {"tool": tool}))

    @server.tool(description="Call a tool with arguments.")
    def call_tool(tool_name: str, ctx: Context, arguments: dict | None = None) -> CallToolResult:
        return _result(episodes.of(ctx).call("call_tool", {"tool_name": tool_name, "arguments": arguments}))

    return server


# --- HTTP: deadlines on slow requests -------------------------------------------------------------

_TIMEOUT_408 = b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\ncontent-length: 15\r\n\r\nrequest timeout"


class BodyDeadline:
    """ASGI middleware: a request's body must arrive within `timeout` seconds, else 408 and the
    connection closes. Neither uvicorn nor Starlette bounds a body read, so a client that declares
    more bytes than it sends would hold a connection (and a task) open."""

    def __init__(self, app, timeout: float, max_body: int = MAX_BODY_BYTES):
        self.app = app
        self.timeout = timeout
        self.max_body = max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        buffered: list[dict] = []
        size, more = 0, True
        with anyio.move_on_after(self.timeout) as deadline:
            # Past max_body the SDK answers 413 without reading on, so the rest needs no deadline.
            while more and size <= self.max_body:
                message = await receive()
                buffered.append(message)
                if message["type"] != "http.request":
                    break
                size += len(message.get("body", b""))
                more = message.get("more_body", False)
        if deadline.cancelled_caught:
            body = b"request timeout: the body did not arrive in time"
            headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 408, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return

        async def replay():
            return buffered.pop(0) if buffered else await receive()

        await self.app(scope, replay, send)


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
) -> uvicorn.Server:
    """A uvicorn server for `server` (from build_server) over streamable HTTP at /mcp: `.run()` it,
    or await `.serve()`. A session ends on DELETE or after `idle_timeout` seconds idle, and at most
    build_server's `max_sessions` are open at once (the SDK answers 503 past that)."""
    for label, value in (("idle timeout", idle_timeout), ("request timeout", request_timeout)):
        if value is not None and not (math.isfinite(value) and value > 0):
            raise ValueError(f"the {label} must be a positive number of seconds")
    app = server.streamable_http_app(session_idle_timeout=idle_timeout, max_sessions=server.episodes.limit, max_request_body_size=MAX_BODY_BYTES, host=host)
    config = uvicorn.Config(
        BodyDeadline(app, request_timeout),
        host=host,
        port=port,
        http=_head_deadline_protocol(request_timeout),
        log_level=server.settings.log_level.lower(),
    )
    return uvicorn.Server(config)
