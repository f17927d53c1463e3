"""The agent-facing gateway: four meta-tools over a task's mounted services, and episodes.
Shaped like CompoWorld's trajectories; it decides nothing about tasks and never raises on bad input."""

from __future__ import annotations

import json
import re
import zlib
from typing import Any

from .runtime.paging import page_of
from .runtime.service import TimeLimit, ToolError, printable_message
from .runtime.state import State
from .runtime.world import CompiledWorld
from .sample import checker as C

NAME_RE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
MAX_ARGUMENT_CHARS = 64 * 1024
# Seconds one tool call may run before it fails with a 408 envelope and changes nothing: a tool
# whose loops nest over large tables can run for hours (docs/mcp.md#time-limit-on-tool-calls).
# A call of a bundled world takes well under a millisecond.
DEFAULT_CALL_TIMEOUT = 10.0

SYSTEM_PROMPT = (
    "You are an assistant that completes tasks by calling tools. Tools live in services. "
    "Use list_services to see the services, list_tools to see a service's tools, describe_tool "
    "to read a tool's arguments, and call_tool to run it. Tool results are JSON: "
    '{"success": true, "data": ...} or {"success": false, "error": {"code": ..., "message": ...}}. '
    "When the task asks for a result, give it in your final answer: the values asked for, not a "
    "list of candidates."
)

# The meta-tools as OpenAI function tools. The argument descriptions are also the docstrings of
# the TRL adapter's methods (integrations/trl_env.py), so every harness shows a model one schema.
META_TOOLS = [
    {"type": "function", "function": {"name": "list_services", "description": "List the services you can use.", "parameters": {"type": "object", "properties": {}, "additionalProperties": False}}},
    {"type": "function", "function": {"name": "list_tools", "description": "List the tools of one service, with what each does.", "parameters": {"type": "object", "properties": {"service": {"type": "string", "description": "The name of a service, as list_services gives it."}}, "required": ["service"], "additionalProperties": False}}},
    {"type": "function", "function": {"name": "describe_tool", "description": "The JSON Schema of a tool's arguments.", "parameters": {"type": "object", "properties": {"tool": {"type": "string", "description": "The name of a tool, as list_tools gives it."}}, "required": ["tool"], "additionalProperties": False}}},
    {"type": "function", "function": {"name": "call_tool", "description": "Call a tool with arguments.", "parameters": {"type": "object", "properties": {"tool_name": {"type": "string", "description": "The name of a tool, as list_tools gives it."}, "arguments": {"type": "object", "description": "The tool's arguments, as describe_tool describes them."}}, "required": ["tool_name"], "additionalProperties": False}}},
]


# each meta-tool's parameters and the required ones, read from its schema above
_META_PARAMS = {t["function"]["name"]: (tuple(t["function"]["parameters"]["properties"]), tuple(t["function"]["parameters"].get("required", ()))) for t in META_TOOLS}


def _meta_arguments_error(name: str, arguments: dict) -> dict | None:
    """A 400 naming what a meta-tool takes, for an argument it does not take or one it needs
    and lacks: `call_tool` with `tool` instead of `tool_name` is told so, not "no tool None"."""
    params, required = _META_PARAMS[name]
    takes = " and ".join(f"`{p}`" for p in params) or "no arguments"
    extra = [a for a in arguments if a not in params]
    if extra:
        return _err(400, f"`{name}` takes {takes}, not `{str(extra[0])[:60]}`")
    missing = [p for p in required if p not in arguments]
    if missing:
        return _err(400, f"`{name}` needs `{missing[0]}` (it takes {takes})")
    return None


def result_text(result: Any) -> str:
    """A meta-tool's result as a model reads it: one line of JSON, UTF-8 kept. The one
    serialisation shared by the exports, `worldc eval`'s LLM agent and the MCP server, so that what
    a model trains on is byte for byte what it is later shown."""
    return json.dumps(result, ensure_ascii=False)


def _ok(data: Any) -> dict:
    return {"success": True, "data": data}


def _err(code: int, message: str) -> dict:
    return {"success": False, "error": {"code": code, "message": printable_message(message)}}


def _json_arguments(arguments: Any) -> tuple[Any, dict | None]:
    """Arguments as a JSON value: a JSON text is parsed (some clients send one), a value is
    measured. Returns (value, None), or (None, error envelope) for text that is too large, not
    JSON, nested past what the parser takes, or holds a number too long to read."""
    try:
        if isinstance(arguments, str):
            if len(arguments) > MAX_ARGUMENT_CHARS:
                return None, _err(400, "arguments are too large")
            return (json.loads(arguments) if arguments.strip() else {}), None
        if arguments is not None and len(json.dumps(arguments, default=str)) > MAX_ARGUMENT_CHARS:
            return None, _err(400, "arguments are too large")
    except json.JSONDecodeError as e:
        return None, _err(400, f"arguments are not JSON: {e.msg}")
    except RecursionError:
        return None, _err(400, "arguments are nested too deeply")
    except (ValueError, TypeError):  # Python reads no integer of over 4,300 digits
        return None, _err(400, "arguments hold a number too long to read")
    return arguments, None


def agent_name(service: str, tool: str, shared: bool) -> str:
    """The name an agent calls a tool by: its own, or `service__tool` when another mounted service
    has a tool of that name; a name over 64 characters is cut and given a checksum of the whole,
    the same in every process (exports, MCP servers and trainer workers must agree)."""
    name = f"{service}__{tool}" if shared else tool
    if not NAME_RE.match(name):
        name = name[:55] + f"_{zlib.crc32(name.encode()) % 10**8:08d}"
    return name


class Gateway:
    """The four meta-tools over some services of a compiled world and one state.

    Agent-facing tool names are the tools' own names, or `service__tool` where two mounted
    services share a name; all match `^[a-zA-Z0-9_-]{1,64}$`."""

    def __init__(self, world: CompiledWorld, services: list[str], state: State, call_timeout: float | None = DEFAULT_CALL_TIMEOUT):
        self.world = world
        self.call_timeout = call_timeout  # seconds a tool call may run (None or 0: no limit)
        self.services = [s for s in services if s in world.services]
        self.state = state
        self.calls: list[tuple[str, dict]] = []  # successful calls (qualified tool, arguments)
        self.touched: set = set()  # (table, key) of every row a successful call wrote
        counts: dict[str, int] = {}
        for s in self.services:
            for t in world.services[s].tools:
                counts[t] = counts.get(t, 0) + 1
        self.names: dict[str, str] = {}  # agent-facing name → "service.tool"
        for s in self.services:
            for t in world.services[s].tools:
                self.names[agent_name(s, t, counts[t] > 1)] = f"{s}.{t}"

    def list_services(self) -> dict:
        # a mounted service with no tools (an imported API's "operations of no resource" whose
        # one operation moved to a resource, kept for a result record) gives an agent nothing to
        # call: listed, a blind player took it for a decoy (round 33)
        return _ok({"services": [s for s in self.services if self.world.services[s].tools]})

    def list_tools(self, service: Any) -> dict:
        if not isinstance(service, str) or service not in self.services:
            return _err(404, f"no service {str(service)[:80]!r}; call list_services")
        tools = [
            {"name": n, "description": self.world.tools[q].description}
            for n, q in self.names.items()
            if q.split(".", 1)[0] == service
        ]
        return _ok({"service": service, "tools": tools})

    def _unknown_tool(self, tool: Any) -> dict:
        """The 404 for a tool name no mounted service gives; a name written `service.tool` (as
        agents often do) is told the name to use: played agents lost calls to it."""
        hint = ""
        if isinstance(tool, str) and "." in tool:
            service, _, bare = tool.partition(".")
            named = [n for n, q in self.names.items() if q == f"{service}.{bare}"]
            if named:
                hint = f"; tools are called by the name list_tools gives: {named[0]!r}"
        return _err(404, f"no tool {str(tool)[:80]!r}" + (hint or "; call list_tools"))

    def describe_tool(self, tool: Any) -> dict:
        q = self.names.get(tool) if isinstance(tool, str) else None
        if q is None:
            return self._unknown_tool(tool)
        spec = self.world.tools[q]
        out = {"name": tool, "description": spec.description, "parameters": self.world.schema(q)}
        if spec.pages:
            out["paging"] = f"answers {spec.pages} at a time as {{items, page, more}}: call again with page 2, 3, ... while more is true"
        return _ok(out)

    def call_tool(self, tool_name: Any, arguments: Any = None) -> dict:
        q = self.names.get(tool_name) if isinstance(tool_name, str) else None
        if q is None:
            return self._unknown_tool(tool_name)
        arguments, error = _json_arguments(arguments)
        if error is not None:
            return error
        pages = self.world.tools[q].pages
        page = 1
        if pages and isinstance(arguments, dict) and "page" in arguments:
            arguments = dict(arguments)
            page = arguments.pop("page")
            if isinstance(page, bool) or not isinstance(page, int) or page < 1:
                return _err(400, f"page must be a whole number from 1, not {str(page)[:40]!r}")
        limit = TimeLimit(self.call_timeout) if self.call_timeout else None  # (0, as on the command line: none)
        result = self.world.call(self.state, q, arguments, self.touched, deadline=limit)
        if result["success"]:
            self.calls.append((q, arguments or {}))
            if pages and isinstance(result["data"], list):
                result = _ok(page_of(result["data"], page, pages))
        return result

    def dispatch(self, name: str, arguments: Any) -> dict:
        """Run a meta-tool by name with a JSON object (or JSON string) of arguments."""
        if isinstance(arguments, str):
            arguments, error = _json_arguments(arguments)
            if error is not None:
                return error
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return _err(400, "arguments must be a JSON object")
        if name in _META_PARAMS and (error := _meta_arguments_error(name, arguments)) is not None:
            return error
        try:
            if name == "list_services":
                return self.list_services()
            if name == "list_tools":
                return self.list_tools(arguments.get("service"))
            if name == "describe_tool":
                return self.describe_tool(arguments.get("tool"))
            if name == "call_tool":
                return self.call_tool(arguments.get("tool_name"), arguments.get("arguments"))
        except ToolError as e:  # defensive: the runtime reports errors as envelopes already
            return _err(e.code, e.message)
        except Exception as e:  # a defect, not the agent's fault: an envelope all the same
            return _err(500, f"the gateway failed on this call ({type(e).__name__})")
        return _err(404, f"no meta-tool {str(name)[:80]!r}; use list_services, list_tools, describe_tool or call_tool")


class Episode:
    """One task, framework-free: reset → messages and tools; call → tool results; score."""

    def __init__(self, world: CompiledWorld, call_timeout: float | None = DEFAULT_CALL_TIMEOUT):
        self.world = world
        self.call_timeout = call_timeout  # the gateway's: seconds a tool call may run (None: no limit)
        self.task: dict | None = None
        self.gateway: Gateway | None = None
        self.initial: State | None = None
        self.answer: Any = None
        self.info: dict = {}  # what the agent tells of its run (token usage, finish reason): reports only

    def reset(self, task: dict, initial: State | None = None) -> dict:
        """`initial`: the task's state (`world.task_state`) when the caller shares one between
        episodes of the task; the episode plays on a snapshot and never changes it."""
        self.task = task
        # raises StaleTask for a task its world no longer seeds the rows of (runtime/world.py)
        self.initial = self.world.task_state(task["initial_state"]) if initial is None else initial
        services = list(task["services"]) + [s for s in task.get("distractors", []) if s not in task["services"]]
        self.gateway = Gateway(self.world, services, self.initial.snapshot(), self.call_timeout)
        self.answer = None
        self.info = {}
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": task["instruction"]}]
        return {"messages": messages, "tools": META_TOOLS}

    def call(self, name: str, arguments: Any = None) -> dict:
        if self.gateway is None:
            return _err(409, "the episode has not been reset")
        return self.gateway.dispatch(name, arguments)

    def report(self, answer: Any) -> None:
        """The agent's final message, unchanged: the one answer channel of every harness (eval, the
        exports, MCP, gym, the trainer adapters). The checker reads the JSON in it or its prose
        (docs/task-format.md#how-answers-are-compared); a JSON value is accepted too."""
        self.answer = answer

    def score(self) -> dict:
        if self.gateway is None or self.task is None:
            return {"reward": 0, "partial": 0.0, "passed": 0, "total": 0, "failed": [{"id": "-", "kind": "episode", "reason": "not reset"}]}
        return C.score(self.world, self.task["checker"]["checks"], self.initial, self.gateway.state, self.answer, self.gateway.calls, self.gateway.touched, stated=self.task.get("instruction"))

    def close(self) -> None:
        self.gateway = None
