"""`worldc import` on hostile input: every spec is read in bounded time and memory, or refused
with one line naming the part of the spec at fault (exit 1, nothing written), and every name
the spec gives ends up in a world that checks clean.

The tests count work (schema nodes visited, Python calls, comparisons), never seconds. The name
fuzzer tries 30 random specs by default; set WORLDC_LONG=1 to try 600 (and the call-count
scaling test to compare 200 with 400 operations as well as 100 with 200)."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import unicodedata
from pathlib import Path

import pytest

from compoworld_dsl.cli import main as worldc_main
from compoworld_dsl.importers.common import SpecError, check_output, write_files
from compoworld_dsl.importers.mcp import import_mcp
from compoworld_dsl.importers.openapi import import_openapi, load_document
from compoworld_dsl.importers.schema import SchemaReader
from counting import calls_while  # tests/counting.py

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "import"
LONG = os.environ.get("WORLDC_LONG") == "1"

_spec = importlib.util.spec_from_file_location("import_scale", ROOT / "bench" / "import_scale.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def run_import(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = worldc_main(["import", *argv])
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, tmp_path: Path, spec: Path) -> str:
    """Import `spec` with the CLI: it must exit 1 with one line and write nothing."""
    out = tmp_path / "out"
    code, stdout, err = run_import(capsys, "openapi", str(spec), "-o", str(out))
    assert code == 1, stdout + err
    assert err.startswith(f"worldc: error: {spec}: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and "a bug in worldc" not in err, err
    assert not out.exists()
    return err


def doc_nodes(node) -> int:
    if isinstance(node, dict):
        return 1 + sum(1 + doc_nodes(v) for v in node.values())
    if isinstance(node, list):
        return 1 + sum(doc_nodes(v) for v in node)
    return 1


# ─────────────────────────── YAML aliases ───────────────────────────


def alias_bomb(levels: int = 10, width: int = 9) -> str:
    """A billion laughs: a few hundred bytes whose aliases expand to width**levels strings."""
    lines = ["openapi: 3.0.0", "info: {title: Bomb, version: '1'}", "x-a0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"x-a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    lines += ["paths:", "  /x:", "    get:", "      operationId: x", "      responses: {'200': {description: ok}}", ""]
    return "\n".join(lines)


def test_alias_bomb_is_refused(capsys, tmp_path):
    spec = tmp_path / "bomb.yaml"
    spec.write_text(alias_bomb())
    assert len(spec.read_bytes()) < 700
    err = refused(capsys, tmp_path, spec)
    assert "YAML aliases expand the document to 4,412,961,538 nodes, more than 4,000,000 (the largest part: #/x-a9, 3,922,632,451 nodes)" in err, err


def test_recursive_alias_is_refused(capsys, tmp_path):
    spec = tmp_path / "loop.yaml"
    spec.write_text("openapi: 3.0.0\ninfo: {title: Loop, version: '1'}\nx-loop: &l [1, *l]\npaths: {/x: {get: {responses: {'200': {description: ok}}}}}\n")
    err = refused(capsys, tmp_path, spec)
    assert "a YAML alias makes the document contain itself (at #/x-loop)" in err, err


def test_merge_key_chain_is_counted(tmp_path):
    """`<<: *prev` down a chain copies every earlier key into each mapping: n**2/2 entries from
    a file of n lines. The loader counts them against the document budget."""
    n = 600
    lines = ["openapi: 3.0.0", "info: {title: Merge, version: '1'}", "paths: {}", "x-m0: &m0 {k0: 0}"]
    lines += [f"x-m{i}: &m{i} {{<<: *m{i - 1}, k{i}: {i}}}" for i in range(1, n)]
    spec = tmp_path / "merge.yaml"
    spec.write_text("\n".join(lines) + "\n")
    from compoworld_dsl.importers.common import Budget

    with pytest.raises(SpecError, match=r"YAML merge keys \(<<\) at line \d+ copy more than 100,000 entries"):
        load_document(spec, Budget(doc_nodes=100_000))
    assert len(load_document(spec, Budget(doc_nodes=n * n))) == n + 3  # within a budget: read as before


# ─────────────────────────── $ref fan-out ───────────────────────────


def fanout_spec(depth: int, sibling: dict | None = None) -> dict:
    """`S0` is a oneOf of two references to `S1` with a sibling key, `S1` of two to `S2`, ...:
    followed naively, 2**depth paths; the object at the bottom is a resource's schema."""
    schemas: dict = {}
    for i in range(depth):
        variants = [{"$ref": f"#/components/schemas/S{i + 1}", **(sibling or {"description": f"variant {j} of level {i}"})} for j in range(2)]
        schemas[f"S{i}"] = {"oneOf": variants}
    schemas[f"S{depth}"] = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
    item = {"$ref": "#/components/schemas/Thing"}
    schemas["Thing"] = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "detail": {"$ref": "#/components/schemas/S0", "description": "the fan-out"}}}
    ok = {"200": {"description": "ok", "content": {"application/json": {"schema": item}}}}
    return {
        "openapi": "3.0.0",
        "info": {"title": "Fanout", "version": "1"},
        "paths": {"/things/{thingId}": {"get": {"operationId": "getThing", "parameters": [{"name": "thingId", "in": "path", "required": True, "schema": {"type": "string"}}], "responses": ok}}},
        "components": {"schemas": schemas},
    }


def counted_shapes(monkeypatch, limit: int) -> list[int]:
    """Count every call of `SchemaReader.shape` (the reader's one way into a schema node); fail
    at `limit` calls, so that an exponential walk is stopped within a second."""
    calls = [0]
    real = SchemaReader.shape

    def shape(self, *args, **kwargs):
        calls[0] += 1
        assert calls[0] <= limit, f"more than {limit} schema nodes visited"
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SchemaReader, "shape", shape)
    return calls


@pytest.mark.parametrize("sibling", [None, {"type": "object"}, {"nullable": True, "x-extra": 1}], ids=["description", "structural", "annotations"])
def test_ref_with_sibling_fanout_visits_linear_nodes(monkeypatch, tmp_path, sibling):
    """A `$ref` with siblings used to skip the reader's memo, so each of the 2**depth paths was
    read again (2.8 KB took 24 s): now each schema is read once, whatever the siblings."""
    visits = {}
    for depth in (15, 30):
        doc = fanout_spec(depth, sibling)
        spec = tmp_path / f"fanout{depth}.json"
        spec.write_text(json.dumps(doc))
        calls = counted_shapes(monkeypatch, limit=20 * doc_nodes(doc))
        result = import_openapi(spec)
        visits[depth] = calls[0]
        assert result.tools == 1 and result.steps >= calls[0]
        monkeypatch.undo()
    # twice the levels, about twice the nodes: linear (2**15 times more if each use re-walks)
    assert visits[30] <= 2.2 * visits[15], visits


def test_ref_fanout_imports_and_checks(capsys, tmp_path):
    """Thirty levels (2**30 paths) import and check, through the CLI."""
    spec = tmp_path / "fanout.json"
    spec.write_text(json.dumps(fanout_spec(30)))
    out = tmp_path / "out"
    code, report, err = run_import(capsys, "openapi", str(spec), "-o", str(out))
    assert code == 0, report + err
    assert "worldc check: " in report and ": ok (" in report


def test_ref_siblings_merge_as_before():
    """The shortcut for annotation siblings (the target read once, the siblings laid over its
    shape) gives the shape that merging the siblings into the target and reading that gives."""
    schemas = {
        "T": {"type": "object", "description": "a thing", "properties": {"id": {"type": "string"}, "n": {"type": "integer"}}},
        "C": {"allOf": [{"$ref": "#/components/schemas/T"}], "title": "a choice"},
        "E": {},
        "S": {"type": "string", "nullable": True, "example": "s"},
        "O": {"oneOf": [{"$ref": "#/components/schemas/T"}, {"type": "null"}], "readOnly": True},
    }
    root = {"components": {"schemas": schemas}}
    for sib in ({"description": "mine"}, {"nullable": True}, {"readOnly": True, "example": {"id": "x"}}, {"title": "t", "default": {}}, {"nullable": False, "x-a": [1]}):
        for name in schemas:
            ref = f"#/components/schemas/{name}"
            fast = SchemaReader(root)
            fast.shape({"$ref": ref})  # the target read first, as another use would
            got = fast.shape({"$ref": ref, **sib})
            want = SchemaReader(root)._shape_of({**schemas[name], **sib}, (ref,), 0, "#")
            want = SchemaReader._named(want, name)  # named as a reference names it (an allOf's merged name gives way)
            assert got == want, (name, sib)


# ─────────────────────────── budgets ───────────────────────────


def test_deep_nesting_is_refused_with_a_pointer(capsys, tmp_path):
    node: dict = {"type": "string"}
    for _ in range(300):
        node = {"allOf": [node]}
    doc = fanout_spec(1)
    doc["components"]["schemas"]["Thing"]["properties"]["deep"] = node
    spec = tmp_path / "deep.json"
    spec.write_text(json.dumps(doc))
    err = refused(capsys, tmp_path, spec)
    assert "#/components/schemas/Thing/properties/deep/allOf/0/allOf/0/" in err and "nested more than 64 levels deep" in err, err


def test_steps_budget_names_the_part(tmp_path):
    from compoworld_dsl.importers.common import Budget

    with pytest.raises(SpecError) as e:
        import_openapi(FIX / "helpdesk.yaml", budget=Budget(steps=40))
    msg = str(e.value)
    assert msg.startswith("reading the spec took more than 40 steps (schema nodes and fields) at #/"), msg
    assert import_openapi(FIX / "helpdesk.yaml", budget=Budget(steps=4000)).steps <= 4000


def test_operations_budget(tmp_path):
    from compoworld_dsl.importers.common import Budget

    spec = tmp_path / "ops.json"
    spec.write_text(json.dumps(bench.synthetic_spec(60)))
    with pytest.raises(SpecError, match=r"more than 50 operations under #/paths \(the 51st: #/paths/~1things10/get\)"):
        import_openapi(spec, budget=Budget(operations=50))
    assert len(import_openapi(spec, budget=Budget(operations=60)).ops) == 60


def test_output_budget(tmp_path):
    from compoworld_dsl.importers.common import Budget

    spec = tmp_path / "ops.json"
    spec.write_text(json.dumps(bench.synthetic_spec(60)))
    with pytest.raises(SpecError, match=r"the world would be [\d,]+ bytes, more than 20,000 \(#/paths: 60 operations"):
        import_openapi(spec, budget=Budget(output_bytes=20_000))


def test_document_budget(tmp_path):
    from compoworld_dsl.importers.common import Budget

    spec = tmp_path / "ops.json"
    doc = bench.synthetic_spec(60)
    spec.write_text(json.dumps(doc))
    with pytest.raises(SpecError, match=r"the document has [\d,]+ nodes, more than 1,000 \(the largest part: #/paths, [\d,]+ nodes\)"):
        import_openapi(spec, budget=Budget(doc_nodes=1000))


# ─────────────────────────── scaling in the number of operations ───────────────────────────


def python_calls(doc: dict) -> int:
    """Python and builtin function calls made by one import of `doc` (deterministic: the same
    on a busy machine as on an idle one)."""
    from compoworld_dsl.importers.openapi import OpenAPIImporter

    OpenAPIImporter(bench.synthetic_spec(5), "warm.json").run()  # the grammar and caches, outside the count
    return calls_while(OpenAPIImporter(doc, "synthetic.json").run)


@pytest.mark.parametrize("n", [100, 200] if LONG else [100])
def test_import_work_is_near_linear_in_operations(n):
    small, large = python_calls(bench.synthetic_spec(n)), python_calls(bench.synthetic_spec(2 * n))
    # every step linear: twice the calls; a step that scans every resource per operation adds
    # a term that quadruples (the code as it was: x2.49 from 125 to 250 operations)
    assert large / small < 2.2, (small, large)


# ─────────────────────────── hostile names ───────────────────────────

PIECES = [
    "\x00", "\x01", "\x07", "\x1b[31m", "\x7f", "\x85", "\u2028", "\u2029", "\ufeff", "\u202e", "\u200b",
    "\ud800", "\udfff", '"', "\\", "'", "{", "}", "{x}", "{{", "//", "/*", "*/", "\n", "\r", "\t", " ", "",
    "名前", "é", "e\u0301", "😀", "ß", "0", "9lives", "if", "key", "result", "table", "text", "id", "true",
    "count", "list", "service", "tool", "state", "record", "enum", "world", "type", "use", "_", "__", "-",
    ".", "$", "#", "%", "%2F", "~", "~1", "A" * 300, "aB" * 40, "ID", "Id", "x-y", "<b>", "[a](b)", "null",
]


def hostile(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 3)))


def hostile_spec(rng: random.Random) -> dict:
    """A small spec whose every name and text is hostile: title, paths, parameters, operation
    ids, component and property names, enum values, descriptions, examples and defaults."""
    schemas, paths = {}, {}
    for _ in range(rng.randint(1, 3)):
        comp = hostile(rng)
        props = {"id": {"type": "string"}}
        for _ in range(rng.randint(1, 5)):
            kind = rng.choice(["string", "integer", "number", "boolean", "enum", "date", "object", "array"])
            p: dict = {"description": hostile(rng), "example": hostile(rng)}
            if kind == "enum":
                p.update(type="string", enum=[hostile(rng) for _ in range(rng.randint(1, 4))])
                p["default"] = rng.choice(p["enum"])
            elif kind == "date":
                p.update(type="string", format="date-time")
            elif kind == "object":
                p.update(type="object", properties={hostile(rng): {"type": "string", "default": hostile(rng)}})
            elif kind == "array":
                p.update(type="array", items={"type": "string"})
            else:
                p.update(type=kind)
            props[hostile(rng)] = p
        schemas[comp] = {"type": "object", "title": hostile(rng), "properties": props, "required": [rng.choice(list(props))]}
        ref = {"$ref": "#/components/schemas/" + comp.replace("~", "~0").replace("/", "~1")}
        coll = "/" + hostile(rng).replace("/", "")
        param = hostile(rng)
        ok = {"200": {"description": hostile(rng), "content": {"application/json": {"schema": ref}}}}
        query = [{"name": hostile(rng), "in": "query", "schema": {"type": "string", "enum": [hostile(rng)]}, "description": hostile(rng)}]
        paths[coll] = {
            "get": {"operationId": hostile(rng), "summary": hostile(rng), "parameters": query, "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": ref}}}}}},
            "post": {"operationId": hostile(rng), "description": hostile(rng), "requestBody": {"content": {"application/json": {"schema": ref}}}, "responses": ok},
        }
        item = [{"name": param, "in": "path", "required": True, "schema": {"type": "string"}}]
        paths[f"{coll}/{{{param}}}"] = {
            "get": {"operationId": hostile(rng), "parameters": item, "responses": ok},
            "patch": {"parameters": item, "requestBody": {"content": {"application/json": {"schema": ref}}}, "responses": ok},
        }
        paths[f"{coll}/{{{param}}}/{hostile(rng).replace('/', '')}"] = {"post": {"operationId": hostile(rng), "parameters": item, "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {hostile(rng): {"type": "string"}}}}}}}}}
    return {"openapi": "3.0.0", "info": {"title": hostile(rng), "version": hostile(rng), "description": hostile(rng)}, "paths": paths, "components": {"schemas": schemas}}


def hostile_tools(rng: random.Random) -> dict:
    tools = []
    for _ in range(rng.randint(1, 4)):
        props = {hostile(rng): {"type": rng.choice(["string", "integer", "boolean"]), "description": hostile(rng)} for _ in range(rng.randint(0, 4))}
        props[hostile(rng)] = {"type": "string", "enum": [hostile(rng), hostile(rng)], "default": hostile(rng)}
        out = {"type": "object", "properties": {hostile(rng): {"type": "string"}, hostile(rng): {"type": "number"}}}
        tools.append({"name": hostile(rng), "title": hostile(rng), "description": hostile(rng), "inputSchema": {"type": "object", "properties": props, "required": list(props)[:1]}, "outputSchema": out, "annotations": {"readOnlyHint": True}})
    return {"tools": tools}


def file_name(rng: random.Random, suffix: str) -> str:
    name = "".join(c for c in hostile(rng) if c not in "/\x00" and not 0xD800 <= ord(c) < 0xE000)[:80]
    return (name or "spec") + suffix


def printable(text: str) -> bool:
    return not any(unicodedata.category(c) in ("Cc", "Cs") or c in "\u2028\u2029\u202e" for c in text)


@pytest.mark.parametrize("kind", ["openapi", "mcp"])
def test_hostile_names_give_worlds_that_check(tmp_path, kind):
    n = 600 if LONG else 30
    rng = random.Random(f"hostile:{kind}")
    failures = []
    for i in range(n):
        doc = hostile_spec(rng) if kind == "openapi" else hostile_tools(rng)
        spec = tmp_path / f"{i}" / file_name(rng, ".json")
        spec.parent.mkdir()
        spec.write_text(json.dumps(doc))  # ASCII: lone surrogates as \ud800 escapes, as JSON allows
        try:
            result = import_openapi(spec) if kind == "openapi" else import_mcp(spec)
        except SpecError as e:
            if str(e) != "no tool could be read (each needs a name)":  # every name blank: right to refuse
                failures.append(f"{i}: refused: {e}")
            continue
        out = tmp_path / f"{i}" / "out"
        write_files(out, result.files, force=False)
        ok, summary, diags = check_output(out / result.world_file)
        if not ok:
            failures.append(f"{i}: {summary}: {diags[:1]}")
        shown = [result.title, *result.notes, *(x for o in result.ops for x in (o.label, o.tool, o.why))]
        if not all(printable(s) for s in shown):
            failures.append(f"{i}: the report shows control characters: {[s for s in shown if not printable(s)][:2]!r}")
        for text in result.files.values():
            if not printable(text.replace("\n", "")):
                failures.append(f"{i}: a control character in the written world")
    assert not failures, f"{len(failures)} of {n}:\n" + "\n".join(failures[:5])
