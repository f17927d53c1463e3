"""Importer faults found by importing corpus specs at scale (bench/corpus_world.py): each case is
the smallest spec that showed it. Every output must check."""

from __future__ import annotations

import json

from compoworld_dsl.importers.common import check_output, write_files
from compoworld_dsl.importers.openapi import import_openapi

OBJ = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}


def _op(schema=None):
    return {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": schema or OBJ}}}}}


def _checks(tmp_path, paths: dict) -> tuple[str, object]:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"openapi": "3.0.0", "info": {"title": "Cases", "version": "1"}, "paths": paths}))
    result = import_openapi(spec)
    out = tmp_path / "out"
    write_files(out, result.files, True)
    ok, summary, diags = check_output(out / result.world_file)
    assert ok, diags[:3]
    return next(t for f, t in result.files.items() if f != result.world_file), result


def test_an_rfc6570_suffix_is_not_the_item_key(tmp_path):
    """NASA TechPort: `/api/projects/{id}{.format}` made `format` the key, typed as text."""
    fmt = {"name": "format", "in": "path", "required": True, "schema": {"type": "string"}}
    text, _ = _checks(tmp_path, {
        "/api/projects/{id}{.format}": {"get": {**_op(), "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}, fmt]}},
    })
    assert "tool get_project(id: ProjectId) -> Project" in text and 'require id in projects else not_found' in text


def test_parents_are_matched_by_position_not_by_name(tmp_path):
    """gerermesaffaires: `/spaces/{id}/persons/{personId}` and `/spaces/{spaceId}/persons/{id}` are
    one resource; the second path's `{id}` is the person, not the space it is in."""
    pid = lambda n: {"name": n, "in": "path", "required": True, "schema": {"type": "string"}}  # noqa: E731
    text, _ = _checks(tmp_path, {
        "/spaces/{id}": {"get": {**_op(), "parameters": [pid("id")]}},
        "/spaces/{id}/persons/{personId}": {"get": {**_op(), "parameters": [pid("id"), pid("personId")]}},
        "/spaces/{spaceId}/persons/{id}/invite": {"post": {**_op(), "parameters": [pid("spaceId"), pid("id")]}},
    })
    for line in text.splitlines():
        if "is not in space" in line:
            left, right = line.split("require ")[1].split(" else ")[0].split(" == ")
            assert not left.endswith("]." + right) and right != left.split("[")[1].split("]")[0], line


def test_an_extension_after_the_item_key_is_not_the_key(tmp_path):
    """transportation-incentives-laws: `/v1/{id}.{output_format}` made `output_format` the key."""
    pid = lambda n: {"name": n, "in": "path", "required": True, "schema": {"type": "string"}}  # noqa: E731
    text, _ = _checks(tmp_path, {"/v1/laws/{id}.{output_format}": {"get": {**_op(), "parameters": [pid("id"), pid("output_format")]}}})
    assert "(id: LawId" in text and "require id in laws" in text


def test_a_segment_of_two_parameters_names_no_item(tmp_path):
    """clever-cloud: `/products/instances/{type}-{version}` keyed the instance by `version`,
    typed as text; two parameters in one segment are no single key."""
    pid = lambda n: {"name": n, "in": "path", "required": True, "schema": {"type": "string"}}  # noqa: E731
    text, result = _checks(tmp_path, {
        "/products/instances": {"get": _op({"type": "array", "items": OBJ})},
        "/products/instances/{type}-{version}": {"get": {**_op(), "parameters": [pid("type"), pid("version")]}},
    })
    op = next(o for o in result.ops if "{type}-{version}" in o.label)
    assert op.kind != "get", op
