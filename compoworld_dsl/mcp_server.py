"""`worldc serve`: the gateway's four meta-tools over MCP (official SDK), one episode per session.
A harness reads the score from the `episode://score` resource on the same connection."""

from __future__ import annotations

import itertools
import json
from typing import Any

try:  # the MCP SDK is an optional extra: pip install 'compoworld-dsl[mcp]'
    from mcp.server.lowlevel.helper_types import ReadResourceContents
    from mcp.server.mcpserver import Context, MCPServer
except ImportError:  # pragma: no cover - exercised only without the extra
    MCPServer = None  # type: ignore[assignment]

from .gateway import Episode

SCORE_URI = "episode://score"


def build_server(world, tasks: list[dict], name: str = "compoworld"):
    """An MCP server whose sessions each play one episode. Sessions take the tasks in file
    order, round robin (give one task to serve it to every session)."""
    if MCPServer is None:
        raise RuntimeError("the MCP server needs the optional extra: pip install 'compoworld-dsl[mcp]'")
    if not tasks:
        raise ValueError("no tasks to serve")
    order = itertools.cycle(range(len(tasks)))
    episodes: dict[str, Episode] = {}

    def episode(ctx: Any) -> Episode:
        # One episode per MCP session: over HTTP the transport's session id (the Mcp-Session-Id
        # header, unique per session); over stdio the process is the one session. (The SDK builds
        # a new session object for every request, so object identity does not work.)
        headers = getattr(ctx, "headers", None) or {}
        key = headers.get("mcp-session-id") or headers.get("Mcp-Session-Id") or "stdio"
        ep = episodes.get(key)
        if ep is None:
            ep = Episode(world)
            ep.reset(tasks[next(order)])
            episodes[key] = ep
        return ep

    class WorldServer(MCPServer):
        async def read_resource(self, uri, context=None):
            # The score depends on the session, which static resources are not given; answer here.
            if str(uri) == SCORE_URI and context is not None:
                s = episode(context).score()
                body = {"reward": s["reward"], "partial": s["partial"], "failed": s["failed"]}
                return [ReadResourceContents(content=json.dumps(body), mime_type="application/json")]
            return await super().read_resource(uri, context)

    server = WorldServer(name, instructions="Tools live in services: list_services, list_tools, describe_tool, then call_tool.")

    @server.resource(SCORE_URI, name="score", mime_type="application/json", description="This episode's score: reward, partial, failed")
    def score() -> str:  # replaced per session by WorldServer.read_resource
        return "{}"

    @server.tool(description="List the services you can use.")
    def list_services(ctx: Context) -> dict:
        return episode(ctx).call("list_services", {})

    @server.tool(description="List the tools of one service, with what each does.")
    def list_tools(service: str, ctx: Context) -> dict:
        return episode(ctx).call("list_tools", {"service": service})

    @server.tool(description="The JSON Schema of a tool's arguments.")
    def describe_tool(tool: str, ctx: Context) -> dict:
        return episode(ctx).call("describe_tool", {"tool": tool})

    @server.tool(description="Call a tool with arguments.")
    def call_tool(tool_name: str, ctx: Context, arguments: dict | None = None) -> dict:
        return episode(ctx).call("call_tool", {"tool_name": tool_name, "arguments": arguments})

    @server.tool(description="Give your final answer, when the task asks for a result.")
    def report_answer(ctx: Context, answer: Any = None) -> dict:
        episode(ctx).report(answer)
        return {"success": True, "data": None}

    return server
