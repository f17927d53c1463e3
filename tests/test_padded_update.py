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


def _twins_doc(comments: bool) -> dict:
    task = obj({"id": s(), "title": s(), "done": {"type": "boolean"}})
    change = obj({"note_code": {"type": "integer"}, "assignee_user": {"type": "integer"}})
    item = {"parameters": [pparam("id")]}
    item["get"] = {"operationId": "getTask", "responses": ok(ref("Task"))}
    item["put"] = {"operationId": "tasksUpdate", "summary": "Update an existing task", "requestBody": body(change), "responses": {"200": {"description": "ok"}}}
    item["patch"] = {"operationId": "tasksPartialUpdate", "summary": "Update an existing task", "requestBody": body(change), "responses": {"200": {"description": "ok"}}}
    item["delete"] = {"operationId": "deleteTask", "responses": {"204": {"description": "gone"}}}
    paths = {"/tasks": {"get": {"operationId": "listTasks", "responses": ok(obj({"items": {"type": "array", "items": ref("Task")}}))}, "post": {"operationId": "createTask", "requestBody": body(ref("Task")), "responses": ok(ref("Task"))}}, "/tasks/{id}": item}
    schemas = {"Task": task}
    if comments:
        paths["/tasks/{id}/comments"] = {"parameters": [pparam("id")], "get": {"operationId": "listComments", "responses": ok(obj({"items": {"type": "array", "items": ref("Comment")}}))}, "post": {"operationId": "addComment", "requestBody": body(ref("Comment")), "responses": ok(ref("Comment"))}}
        schemas["Comment"] = obj({"id": s(), "task_id": s(), "text": s()})
    return spec(paths, schemas)


def test_no_recorded_change_right_after_its_twin_on_the_same_row(tmp_path):
    """DrChrono's `PATCH` and `PUT /api/tasks/{id}` set no field of the task (each is recorded):
    "update the task "Security audit", with status 18 ... After that, replace that task, with
    status 50 ..." was one call's work padded into two hops (a fresh draw, stop 72). With tasks
    alone, no task of three calls is left (a create, then a change: two); with comments on them,
    a change and a comment give tasks still."""
    for comments in (False, True):
        (tmp_path / str(comments)).mkdir()
        _, ops, _, world = run(tmp_path / str(comments), _twins_doc(comments))
        assert ops["PUT /tasks/{id}"][0] == ops["PATCH /tasks/{id}"][0] == "recorded", ops
        out = tmp_path / f"t{comments}.jsonl"
        sample(Job(str(world), 3, 6, 5, max_attempts=60), out)
        tasks = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
        assert tasks or not comments
        for t in tasks:
            plan = t["reference_plan"]
            for a, b in zip(plan, plan[1:]):
                twins = {a["tool"].split(".")[-1], b["tool"].split(".")[-1]} <= {"tasks_update", "tasks_partial_update"}
                assert not (twins and a["arguments"].get("id") == b["arguments"].get("id")), t["instruction"]
