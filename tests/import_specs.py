"""Small OpenAPI documents written in a test, and the import of one: each importer test builds
the spec fragment it needs from these, imports it, and checks what comes out."""

from __future__ import annotations

import json
from pathlib import Path

from compoworld_dsl.check import check_paths
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.importers.openapi import import_openapi


def ok(schema: dict | None = None, example=None) -> dict:
    """A 200 response with a JSON schema, an example, or both."""
    media: dict = {}
    if schema is not None:
        media["schema"] = schema
    if example is not None:
        media["examples"] = {"response": {"value": example}}
    return {"200": {"description": "ok", "content": {"application/json": media}}}


def body(schema: dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def spec(paths: dict, schemas: dict | None = None) -> dict:
    return {"openapi": "3.0.3", "info": {"title": "Probe API", "version": "1"}, "paths": paths, "components": {"schemas": schemas or {}}}


def s(t: str = "string", **kw) -> dict:
    """A scalar schema."""
    return {"type": t, **kw}


def obj(props: dict, required: list | None = None) -> dict:
    out = {"type": "object", "properties": props}
    if required:
        out["required"] = required
    return out


def arr(item: dict) -> dict:
    return {"type": "array", "items": item}


def pparam(name: str) -> dict:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


def listed(coll: str, schema: str, key: str = "id") -> dict:
    """The paths of a collection read two ways: `GET /coll` lists `schema`s (`listColls`), `GET
    /coll/{key}` gets one (`getColl`)."""
    word = coll.strip("/").split("/")[-1]
    return {
        f"/{coll.strip('/')}": {"get": {"operationId": f"list{word[:1].upper()}{word[1:]}", "responses": ok(arr(ref(schema)))}},
        f"/{coll.strip('/')}/{{{key}}}": {"get": {"operationId": f"get{schema}", "parameters": [pparam(key)], "responses": ok(ref(schema))}},
    }


def run(tmp_path: Path, doc: dict):
    """Import, write, check: (result, {operation: (kind, why)}, model, world file)."""
    p = tmp_path / "spec.json"
    p.write_text(json.dumps(doc))
    result = import_openapi(p)
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    for name, text in result.files.items():
        (out / name).write_text(text)
    program = check_paths([out / result.world_file])
    assert program.ok, [d.message for d in program.diagnostics] + [result.files[n] for n in result.files]
    ops = {o.label: (o.kind, o.why) for o in result.ops}
    return result, ops, program.model, out / result.world_file


def world_of(model, world_file: Path):
    w = load_world(model, str(world_file))
    return w, w.initial_state(1)


def sample_tasks(world_file: Path, out: Path, hops: int, n: int, seed: int, max_attempts: int):
    """Sample `n` tasks of `hops` steps from an imported world (all of them, or the test fails
    with the commonest rejections): (the compiled world, the tasks)."""
    from compoworld_dsl.sample.run import Job, run as sample
    from compoworld_dsl.sample.worker import load_sampler

    rep = sample(Job(str(world_file), hops, n, seed, max_attempts=max_attempts), out / "t.jsonl")
    assert rep.emitted == n, rep.rejected.most_common(3)
    return load_sampler(str(world_file)).world, [json.loads(line) for line in (out / "t.jsonl").read_text().splitlines()]
