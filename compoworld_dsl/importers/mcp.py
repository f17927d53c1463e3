"""`worldc import mcp`: an MCP server's `tools/list` result → `.world` source.

The input is the JSON a server answers to `tools/list`: `{"tools": [...]}`, a bare list of tools,
or the whole JSON-RPC response (`{"result": {"tools": [...]}}`). Each tool has a `name`, a
`description`, an `inputSchema` (JSON Schema of its arguments) and maybe an `outputSchema`.

An MCP server says nothing about the state behind its tools, so every tool becomes a
`simulated` tool of one service: typed parameters from `inputSchema` (required properties
first, the others with defaults), the result a record from `outputSchema` (else `text`, what
MCP tools return), and no `modifies`: the contract is that the tool changes nothing the world
holds. Add tables and turn tools into ordinary ones by hand where the state matters."""

from __future__ import annotations

import json
from pathlib import Path

from .common import Budget, FieldIR, ModuleIR, Names, ParamIR, RecordIR, ServiceIR, SpecError, ToolIR, canonical, check_document, lit, one_line, pascal, printable, render_module, safe, snake, unique, words
from .openapi import ImportResult, OpReport, TypeMapper
from .schema import SchemaReader, Shape

READ_VERBS = {"get", "list", "search", "find", "read", "fetch", "query", "describe", "show", "count", "lookup", "check", "view", "browse", "resolve"}


def load_tools(path: Path, budget: Budget | None = None) -> list:
    budget = budget if budget is not None else Budget()
    try:
        size = path.stat().st_size
        if size > budget.spec_bytes:
            raise SpecError(f"the file is {size:,} bytes, more than the {budget.spec_bytes:,} an import reads")
        raw = path.read_bytes()
    except OSError as e:
        raise SpecError(f"cannot read the file ({e.strerror or e})") from None
    try:
        doc = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        raise SpecError(f"not UTF-8 text (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise SpecError(f"not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise SpecError("not valid JSON (nested too deeply)") from None
    check_document(doc, budget)
    if isinstance(doc, dict) and isinstance(doc.get("result"), dict):
        doc = doc["result"]  # a whole JSON-RPC response
    if isinstance(doc, dict) and "tools" in doc:
        doc = doc["tools"]
    if not isinstance(doc, list):
        raise SpecError('not a tools/list result: expected {"tools": [...]} or a list of tools')
    if not doc:
        raise SpecError("the tools/list result holds no tools")
    return doc


class MCPImporter(TypeMapper):
    def __init__(self, tools: list, source: str, name: str | None = None, budget: Budget | None = None):
        super().__init__(lists=True, budget=budget)  # no tables: list parameters and results are fine
        self.tools = tools
        self.source = source
        self.service = safe(snake(name or Path(source).stem.replace(".", "_")))
        if self.service.endswith("_tools") and len(self.service) > 6 and not name:
            self.service = self.service[: -len("_tools")] or self.service
        self.records: list[RecordIR] = []
        self.tool_names: set[str] = Names()

    def run(self) -> ImportResult:
        svc = ServiceIR(self.service, f"Tools of the MCP server {self.service} (imported from its tools/list)")
        ops: list[OpReport] = []
        for i, t in enumerate(self.tools):
            label = printable(t["name"]) if isinstance(t, dict) and isinstance(t.get("name"), str) else f"tools[{i}]"
            if not isinstance(t, dict):
                ops.append(OpReport(label, "skipped", "", "not a tool object"))
                continue
            if not isinstance(t.get("name"), str) or not t["name"].strip():
                ops.append(OpReport(label, "skipped", "", "the tool has no name"))
                continue
            tool = self.tool(t, (("#", "tools"), i))
            svc.tools.append(tool)
            ops.append(OpReport(label, "simulated", f"{self.service}.{tool.name}", "an MCP tool: its effects are not known"))
        if not svc.tools:
            raise SpecError("no tool could be read (each needs a name)")
        svc.records = self.records
        world_name = f"{self.service}_world"
        header = [
            f"{self.service}.world: the tools of the MCP server {self.service}, imported from {Path(self.source).name} by `worldc import mcp`.",
            "MCP says nothing about the state behind a tool: each is `simulated` and changes nothing the world holds.",
            "Add tables, seeds and ordinary tools where the state matters; every inferred choice is a comment.",
        ]
        m = ModuleIR(header, [], list(self.enums.values()), [svc])
        text = canonical(render_module(m), f"{self.service}.world")
        world = canonical(
            f"// {world_name}.world: the world of the MCP server {self.service}, imported by `worldc import mcp`.\n\n"
            f"world {world_name} {lit('Tools of the MCP server ' + self.service)} {{\n  use {self.service}\n}}\n",
            f"{world_name}.world",
        )
        return ImportResult(
            files={f"{self.service}.world": text, f"{world_name}.world": world},
            world_file=f"{world_name}.world",
            title=self.service,
            version="",
            spec_version="MCP tools/list",
            ops=ops,
            notes=[],
            services=1,
            tables=0,
            tools=len(svc.tools),
            steps=self.budget.spent,
        )

    def tool(self, t: dict, at: tuple = ("#", "tools")) -> ToolIR:
        """`at`: where the tool is in the file, for messages."""
        raw = t["name"]
        name = unique(safe(snake(raw), suffix="_tool"), self.tool_names)
        schema = t.get("inputSchema") if isinstance(t.get("inputSchema"), dict) else {}
        reader = SchemaReader(schema, self.budget)
        shape = reader.shape(schema, at=(at, "inputSchema")) if schema else Shape("object")
        comments = [f"MCP tool {raw}" + (f" ({t['title']})" if isinstance(t.get("title"), str) else "") + ": simulated, changes nothing the world holds"]
        ann = t.get("annotations") if isinstance(t.get("annotations"), dict) else {}
        hints = [k for k in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint") if k in ann]
        if hints:
            comments.append("annotations: " + ", ".join(f"{k}={json.dumps(ann[k])}" for k in hints))
        req, opt, left = [], [], []
        taken: set[str] = Names()
        if shape.kind == "object":
            for prop, ps in shape.props.items():
                pname = unique(safe(snake(prop)), taken)
                t_, default, note = self.param(ps, pname)
                if note:
                    comments.append(f"{prop}: {note}")
                if prop in shape.required or default is None:
                    req.append(ParamIR(pname, t_))
                else:
                    opt.append(ParamIR(pname, t_, default))
        elif schema and not (shape.kind == "opaque" and shape.reason == "an object with no declared properties"):
            req.append(ParamIR("arguments", "text"))
            comments.append(f"the input schema is not an object with properties ({shape.reason or shape.kind}): the arguments are JSON text")
        result = self.result(t, name, at)
        verb_words = words(snake(raw))
        placeholders = [f"{words(p.name)} {{{p.name}}}" for p in req[:3]]
        say = verb_words + (" with " + (", ".join(placeholders[:-1]) + " and " + placeholders[-1] if len(placeholders) > 1 else placeholders[0]) if placeholders else "")
        first = snake(raw).split("_")[0]
        read_only = ann.get("readOnlyHint") is True or first in READ_VERBS
        gives = None
        if read_only and result:
            rest = " ".join(snake(raw).split("_")[1:]) or verb_words
            gives = f"the {rest}" + (f" for {{{req[0].name}}}" if req else "")
        desc = one_line(t.get("description")) or one_line(t.get("title")) or verb_words.capitalize()
        if left:
            comments.append("left out: " + ", ".join(left))
        return ToolIR(name, req + opt, result, desc, say, gives, [], simulated=True, comments=comments)

    def param(self, s: Shape, name: str) -> tuple[str, str | None, str]:
        """(type, default, note) of one argument."""
        if s.kind == "scalar":
            t, base, notes, members = self.scalar(s, name, pascal(self.service))
            f = FieldIR(name, t, base, enum=t if base == "enum" else None)
            return t, self.default(s, f, members), "; ".join(notes)
        if s.kind == "array" and s.items is not None and s.items.kind == "scalar":
            t, _, _, _ = self.scalar(s.items, name, pascal(self.service))
            return f"list[{t}]", None, "a list (pass [] for none)" if s.default is None else ""
        why = s.reason if s.kind == "opaque" else "a nested object" if s.kind == "object" else "an array of objects"
        return "text", '""', f"JSON text ({why})"

    def result(self, t: dict, name: str, at: tuple) -> str:
        out = t.get("outputSchema")
        if not isinstance(out, dict):
            return "text"
        s = SchemaReader(out, self.budget).shape(out, at=(at, "outputSchema"))
        if s.kind == "object" and s.props:
            fields = []
            self.flatten(s, pascal(name), fields, set(), for_table=False)
            if not fields:
                return "text"
            for f in fields:
                f.default = None if f.base == "list" else f.default
            rec = RecordIR(self.type_name(pascal(name) + "Result"), fields[:40], "", [], [f"what {t['name']} returns (its outputSchema)"])
            self.records.append(rec)
            return rec.name
        if s.kind == "scalar":
            return self.scalar(s, "result", pascal(name))[0]
        if s.kind == "array" and s.items is not None and s.items.kind == "scalar":
            return f"list[{self.scalar(s.items, 'result', pascal(name))[0]}]"
        return "text"


def import_mcp(path: str | Path, name: str | None = None, budget: Budget | None = None) -> ImportResult:
    """Read a tools/list result and build the `.world` files (not written). Raises SpecError,
    also when the file is over a budget (docs/import.md, "Limits").

    The tools are first read as the RPC operations of an API (`as_openapi`): `list_issues`,
    `get_issue(issue_number)`, `update_issue` name a resource the way an RPC API's operations do,
    and the OpenAPI importer (its RPC reading, `normalize.py`) makes a table, seeds and ordinary
    tools of them, so the world samples tasks. When no resource is found that way (no tool
    returns one record by its key), every tool is `simulated`, as MCP itself promises nothing."""
    p = Path(path)
    budget = budget if budget is not None else Budget()
    tools = load_tools(p, budget)
    importer = MCPImporter(tools, str(p), name, budget)
    stateful = _as_api(tools, p, importer.service, budget)
    return stateful if stateful is not None else importer.run()


def as_openapi(tools: list, title: str) -> dict:
    """An OpenAPI 3.0 document with one `POST /NAME` operation per tool: its operationId the tool's
    name, its body the tool's inputSchema, its response the outputSchema (if any)."""
    paths: dict = {}
    for t in tools:
        if not isinstance(t, dict) or not isinstance(t.get("name"), str) or not t["name"].strip():
            continue
        schema = t.get("inputSchema") if isinstance(t.get("inputSchema"), dict) else {"type": "object"}
        op: dict = {"operationId": t["name"], "summary": one_line(t.get("description")) or one_line(t.get("title")) or "", "requestBody": {"content": {"application/json": {"schema": schema}}}}
        out = t.get("outputSchema")
        op["responses"] = {"200": {"description": "the tool's result", **({"content": {"application/json": {"schema": out}}} if isinstance(out, dict) else {})}}
        paths["/" + t["name"].strip()] = {"post": op}
    return {"openapi": "3.0.0", "info": {"title": title, "version": ""}, "paths": paths}


def _as_api(tools: list, path: Path, service: str, budget: Budget) -> ImportResult | None:
    """The tools imported as an RPC API's operations, or None when that finds no resource."""
    from .openapi import OpenAPIImporter

    try:
        result = OpenAPIImporter(as_openapi(tools, service), str(path), service, False, budget).run()
    except SpecError:
        return None
    if not result.tables:
        return None
    for fname, text in list(result.files.items()):
        result.files[fname] = text.replace("by `worldc import openapi` (OpenAPI 3.0.0)", "by `worldc import mcp` (an MCP tools/list, its tools read as the operations of an API)").replace("by `worldc import openapi`", "by `worldc import mcp`")
    result.spec_version = "MCP tools/list, read as an API"
    result.notes.insert(0, "each tool was read as an RPC operation of an API (POST /TOOL_NAME): tools that list, get, create, update or delete one kind of record became a table and ordinary tools; the rest are simulated")
    return result


__all__ = ["import_mcp", "load_tools", "MCPImporter"]
