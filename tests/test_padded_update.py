"""A write may not change a row the step just before changed when that step's call could have
set these fields too: "update the site "SI-7583" with type shared, then update that site with
owners ..." is one call's work said as two, a hop the task only pads (a fresh draw's Google Site
Verification tasks, every one so, stop 72). A change that comes from what a later read gave, or
that a house rule orders, is another matter (`walk.Walker._rewrites`)."""

from __future__ import annotations

import json

from compoworld_dsl.sample.run import Job, run as sample
from import_specs import body, obj, ok, pparam, ref, run, s, spec

SITE = obj({"id": s(), "site_identifier": s(), "site_type": s(), "owners": s()})


def _doc() -> dict:
    item = {"parameters": [pparam("id")]}
    item["get"] = {"operationId": "getSite", "responses": ok(ref("Site"))}
    item["put"] = {"operationId": "updateSite", "summary": "Modify the list of owners for your website or domain", "requestBody": body(ref("Site")), "responses": ok(ref("Site"))}
    item["patch"] = {"operationId": "patchSite", "summary": "Modify the list of owners for your website or domain", "requestBody": body(ref("Site")), "responses": ok(ref("Site"))}
    return spec(
        {
            "/sites": {
                "get": {"operationId": "listSites", "responses": ok(obj({"items": {"type": "array", "items": ref("Site")}}))},
                "post": {"operationId": "insertSite", "requestBody": body(ref("Site")), "responses": ok(ref("Site"))},
            },
            "/sites/{id}": item,
        },
        {"Site": SITE},
    )


def test_no_second_change_of_a_row_the_call_before_could_have_made(tmp_path):
    _, ops, _, world = run(tmp_path, _doc())
    assert ops["PUT /sites/{id}"][0] == "update" and ops["PATCH /sites/{id}"][0] == "update", ops
    out = tmp_path / "t.jsonl"
    sample(Job(str(world), 3, 6, 7, max_attempts=60), out)
    tasks = [json.loads(line) for line in out.read_text().splitlines()]
    assert tasks  # a list, an update and a create of one site still give tasks
    for t in tasks:
        plan = t["reference_plan"]
        for a, b in zip(plan, plan[1:]):
            both = a["tool"].endswith(("update_site", "patch_site")) and b["tool"].endswith(("update_site", "patch_site"))
            assert not (both and a["arguments"].get("id") == b["arguments"].get("id")), t["instruction"]


def test_a_rename_takes_no_name_another_row_holds(tmp_path):
    """Blind round 54: "update the site "SI-2227" with site identifier "SI-3968"", a code another
    site held, left two sites of one name. A new name of a row known by it alone is new."""
    from compoworld_dsl.sample.worker import load_sampler

    _, _, _, world = run(tmp_path, _doc())
    out = tmp_path / "t.jsonl"
    sample(Job(str(world), 3, 12, 3, max_attempts=200), out)
    tasks = [json.loads(line) for line in out.read_text().splitlines()]
    w = load_sampler(str(world)).world
    renames = 0
    for t in tasks:
        rows = next(rows for q, rows in w.initial_state(t["initial_state"]["seed"]).tables.items() if q.endswith(".sites"))
        for step in t["reference_plan"]:
            new = step["arguments"].get("site_identifier")
            if step["tool"].endswith(("update_site", "patch_site")) and new:
                renames += 1
                assert new not in {r["site_identifier"] for k, r in rows.items() if k != step["arguments"]["id"]}, t["instruction"]
    assert renames
