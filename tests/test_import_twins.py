"""`worldc import openapi`: an operation on a row by its full id that twins the one on the row's
path (Azure's `DELETE /{applicationId}` beside `DELETE /subscriptions/{s}/resourceGroups/{g}/
providers/Microsoft.Solutions/applications/{applicationName}`, one summary for both) does what its
twin does, on the row its argument names (D57; docs/import.md, "Twins by id").

Before, no resource owned the by-id path: its writes were recorded calls and its read an answer
table, so a task made through one twin failed a player who used the other (round 13 of
docs/benchmarks.md)."""

from __future__ import annotations

from import_specs import arr, body, obj, ok, pparam, ref, run, s, sample_tasks, spec

SCOPE = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Probe/apps"


def apps_spec() -> dict:
    """Apps read, replaced and deleted on their path and by their id, one description a pair."""
    scope = [pparam("subscriptionId"), pparam("resourceGroupName")]
    app = [*scope, pparam("appName")]
    by_id = [pparam("appId")]
    put = body(ref("App"))
    return spec(
        {
            SCOPE: {"get": {"operationId": "Apps_ListByResourceGroup", "description": "Lists the apps in a resource group.", "parameters": scope,
                            "responses": ok(obj({"value": arr(ref("App"))}))}},
            SCOPE + "/{appName}": {
                "get": {"operationId": "Apps_Get", "description": "Gets the app.", "parameters": app, "responses": ok(ref("App"))},
                "put": {"operationId": "Apps_CreateOrUpdate", "description": "Creates or replaces the app.", "parameters": app, "requestBody": put, "responses": ok(ref("App"))},
                "delete": {"operationId": "Apps_Delete", "description": "Deletes the app.", "parameters": app, "responses": {"200": {"description": "ok"}}},
                "patch": {"operationId": "Apps_Update", "description": "Updates the app.", "parameters": app, "requestBody": put, "responses": ok(ref("App"))},
            },
            "/{appId}": {
                "get": {"operationId": "Apps_GetById", "description": "Gets the app.", "parameters": by_id, "responses": ok(ref("App"))},
                "put": {"operationId": "Apps_CreateOrUpdateById", "description": "Creates or replaces the app.", "parameters": by_id, "requestBody": put, "responses": ok(ref("App"))},
                "delete": {"operationId": "Apps_DeleteById", "description": "Deletes the app.", "parameters": by_id, "responses": {"200": {"description": "ok"}}},
                "patch": {"operationId": "Apps_UpdateById", "description": "Updates the app.", "parameters": by_id, "requestBody": put, "responses": ok(ref("App"))},
            },
        },
        {
            "GenericResource": obj({"id": s(readOnly=True), "name": s(readOnly=True), "location": s()}),
            "App": {"allOf": [ref("GenericResource"), obj({"managedBy": s(), "tier": s(enum=["basic", "premium"])})]},
        },
    )


def test_an_operation_by_id_does_what_its_twin_on_the_path_does(tmp_path):
    result, ops, _, _ = run(tmp_path, apps_spec())
    assert ops["GET /{appId}"][0] == "get", ops
    assert ops["DELETE /{appId}"][0] == "delete", ops
    assert ops["PATCH /{appId}"][0] == "update", ops
    # a write by the id needs the row there: an update, not a create
    assert ops["PUT /{appId}"][0] == "update", ops
    text = "".join(result.files.values())
    assert "_calls" not in text and "_answers" not in text, text
    # the row's scope comes from the row, the rest is the twin's body
    assert "let subscription_id = apps[app_id].subscription_id" in text
    # both twins keep what they are not given, so neither is said to replace the row (D54 tells
    # recorded twins apart; these write the table alike)
    assert "replaces it whole" not in text and 'say "replace' not in text, text
    # named for what it is, not for the generic base its schema is made from
    assert "record App known by name" in text and "Generic" not in text


def test_a_task_through_one_twin_is_passed_through_the_other(tmp_path):
    """Each task's steps through a by-id tool are played through its twin on the path (the
    scope read from the task's world), and the other way round: the final state is the same, so
    the player earns 1 whichever the reference used."""
    from compoworld_dsl.taskfile import agent_plan
    from test_scripted_agents import play

    _, _, _, wf = run(tmp_path, apps_spec())
    world, tasks = sample_tasks(wf, tmp_path, 2, 8, 3, 400)
    swapped = 0
    for task in tasks:
        calls = []
        for _, c in agent_plan(task):
            tool, args = c["tool"], dict(c["arguments"])
            svc, _, name = tool.partition(".")
            if name.endswith("_by_id"):
                key = args.pop("app_id")
                row = _row(world, task, key)
                args.update(subscription_id=row["subscription_id"], resource_group_name=row["resource_group_name"], app_name=key)
                name = name.removesuffix("_by_id")
                swapped += 1
            elif "app_name" in args and name != "apps_list_by_resource_group" and _has_row(world, task, args["app_name"]):
                # (a create of a new app has no twin: a write by the id needs the row there)
                key = args.pop("app_name")
                del args["subscription_id"], args["resource_group_name"]
                args["app_id"] = key
                name += "_by_id"
                swapped += 1
            calls.append((f"{svc}.{name}", args))
        score, results = play(world, task, calls, task.get("answer"))
        assert score["reward"] == 1, (task["instruction"], calls, results, score)
    assert swapped, "no task went through a twin"


def _has_row(world, task: dict, key: str) -> bool:
    try:
        _row(world, task, key)
    except KeyError:
        return False
    return True


def _row(world, task: dict, key: str) -> dict:
    """The app `key` in the task's world: the rows the task sets, else the seeded ones."""
    init = task["initial_state"]
    for r in init.get("rows") or ():
        if r["table"].endswith(".apps") and r["row"]["id"] == key:
            return r["row"]
    st = world.initial_state(init["seed"])
    return next(t for q, t in st.tables.items() if q.endswith(".apps"))[key]
