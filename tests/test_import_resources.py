"""`worldc import openapi`: more of a REST API's operations as ordinary tools (issue 30, item 1;
compoworld_dsl/importers/resources.py). Each rule on a small spec written here: a response with
only an example, read-only and child collections, a GET with no schema, a GET whose object holds
no id, lists across a scope, status actions (and no action where the enum lacks the member),
bodies through one wrapper level, formats to types. Every output must check, and the tools are
called to see they do what the report says.

The probe at the end builds random specs (a status enum with random members, random action
verbs) and checks that an action tool only ever sets a member the enum has: 60 specs by default,
600 with WORLDC_LONG=1."""

from __future__ import annotations

import json
import os
import random
import re

import pytest

from compoworld_dsl.importers.resources import STATUS_VERBS
from import_specs import body, ok, pparam, run, spec, world_of

LONG = os.environ.get("WORLDC_LONG") == "1"


def obj(props: dict, required: list | None = None) -> dict:
    s = {"type": "object", "properties": props}
    if required:
        s["required"] = required
    return s








# ─── a response with only an example ───

MERAKI_LIKE = spec(
    {
        "/networks/{networkId}": {
            "get": {
                "operationId": "getNetwork",
                "parameters": [pparam("networkId")],
                "responses": ok({"type": "object"}, {"id": "N_24329156", "name": "Main Office", "timeZone": "America/Los_Angeles", "createdAt": "2025-10-15T13:52:11Z", "tags": ["a", "b"]}),
            },
            "delete": {"operationId": "deleteNetwork", "parameters": [pparam("networkId")], "responses": {"204": {"description": "gone"}}},
        },
        "/networks/{networkId}/clients": {
            "get": {
                "operationId": "getNetworkClients",
                "parameters": [pparam("networkId")],
                "responses": ok({"type": "array", "items": {"type": "object"}}, [{"id": "k74272e", "description": "Joe's laptop", "mac": "22:33:44:55:66:77", "firstSeen": "2025-10-15T13:52:11Z"}]),
            }
        },
    }
)


def test_a_response_with_only_an_example_gives_a_resource(tmp_path):
    result, ops, model, wf = run(tmp_path, MERAKI_LIKE)
    assert ops["GET /networks/{networkId}"][0] == "get"
    assert ops["DELETE /networks/{networkId}"][0] == "delete"
    text = result.files[next(n for n in result.files if not n.endswith("_world.world"))]
    assert "created_at: datetime" in text  # the example's timestamp, by its look
    assert "the response's example" in text  # the record's comment says where its fields came from
    assert '"Main Office"' in text  # the seed draws from the example
    w, st = world_of(model, wf)
    nets = next(t for q, t in st.tables.items() if q.endswith(".networks"))
    assert 4 <= len(nets) <= 8 and all(r["name"] for r in nets.values())


def test_an_example_written_as_json_text_is_read_as_its_json(tmp_path):
    """Press Association's TV API gives every response as an example of JSON text and no schema
    (its 18 reads were all simulated); a map whose values have a schema keeps its example's keys
    as entries, not fields (Jira's project roles by name)."""
    asset = {"id": "5ad4cc44-3f18-52c5-8a3b", "title": "Hello Ladies: The Movie", "runtime": 85, "releasedAt": "2014-11-15"}
    doc = spec(
        {
            "/asset": {"get": {"responses": ok(None, '{\n\t"hasNext": false,\n\t"item": [' + json.dumps(asset) + "]\n}")}},
            "/asset/{assetId}": {"get": {"parameters": [pparam("assetId")], "responses": ok(None, json.dumps(asset, indent="\t"))}},
            "/asset/{assetId}/roles": {"get": {"parameters": [pparam("assetId")], "responses": ok({"type": "object", "additionalProperties": {"type": "string", "format": "uri"}}, '{"Director": "https://x.example/role/1"}')}},
        }
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /asset/{assetId}"][0] == "get" and ops["GET /asset"][0] == "list", ops
    text = result.files[next(n for n in result.files if not n.endswith("_world.world"))]
    assert "released_at: date" in text and '"Hello Ladies: The Movie"' in text
    assert ops["GET /asset/{assetId}/roles"][0] != "list" and "director" not in text.lower()


def test_a_child_collection_under_an_item_is_a_child_table(tmp_path):
    result, ops, model, wf = run(tmp_path, MERAKI_LIKE)
    assert ops["GET /networks/{networkId}/clients"][0] == "list"
    w, st = world_of(model, wf)
    clients = next(t for q, t in st.tables.items() if q.endswith(".clients"))
    nets = next(t for q, t in st.tables.items() if q.endswith(".networks"))
    assert clients and all(r["network_id"] in nets for r in clients.values())
    net = sorted(nets)[0]
    lst = next(t for t in model.tools() if t.name == "get_network_clients")
    got = w.call(st, lst.qualified, {"network_id": net})
    assert got["success"] and {r["id"] for r in got["data"]} == {k for k, r in clients.items() if r["network_id"] == net}


# ─── read-only collections, a GET with no schema, a GET whose object has no id ───


def test_a_list_only_collection_is_a_read_only_resource(tmp_path):
    coach = obj({"id": {"type": "integer"}, "first_name": {"type": "string"}, "last_name": {"type": "string"}, "school": {"type": "string"}})
    result, ops, model, wf = run(tmp_path, spec({"/coaches": {"get": {"operationId": "getCoaches", "parameters": [{"name": "school", "in": "query", "schema": {"type": "string"}}], "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Coach"}})}}}, {"Coach": coach}))
    assert ops["GET /coaches"][0] == "list"
    assert result.tables == 1
    w, st = world_of(model, wf)
    rows = next(iter(st.tables.values()))
    assert 4 <= len(rows) <= 8
    school = next(iter(rows.values()))["school"]
    got = w.call(st, next(iter(model.tools())).qualified, {"school": school})
    assert got["success"] and got["data"] and all(r["school"] == school for r in got["data"])


def test_a_get_with_no_schema_takes_its_fields_from_the_create_body(tmp_path):
    widget = obj({"label": {"type": "string"}, "size": {"type": "integer"}}, ["label"])
    doc = spec(
        {
            "/widgets": {"post": {"operationId": "addWidget", "requestBody": body(widget), "responses": {"201": {"description": "made"}}}},
            "/widgets/{widgetId}": {"get": {"operationId": "getWidget", "parameters": [pparam("widgetId")], "responses": {"200": {"description": "ok"}}}},
        }
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["POST /widgets"][0] == "create" and ops["GET /widgets/{widgetId}"][0] == "get"
    w, st = world_of(model, wf)
    made = w.call(st, "probe_widgets.add_widget", {"label": "sprocket"})
    assert made["success"], made
    wid = made["data"]
    assert w.call(st, "probe_widgets.get_widget", {"widget_id": wid})["data"]["label"] == "sprocket"


def test_a_get_whose_object_has_no_id_is_keyed_by_the_path_parameter(tmp_path):
    det = obj({"status": {"type": "string", "enum": ["ENABLED", "DISABLED"]}, "serviceRole": {"type": "string"}, "createdAt": {"type": "string"}})
    doc = spec(
        {
            "/detector/{detectorId}": {
                "get": {"operationId": "GetDetector", "parameters": [pparam("detectorId")], "responses": ok({"$ref": "#/components/schemas/GetDetectorResponse"})},
                "delete": {"operationId": "DeleteDetector", "parameters": [pparam("detectorId")], "responses": {"200": {"description": "ok"}}},
            },
            "/detector/{detectorId}/disable": {"post": {"operationId": "DisableDetector", "parameters": [pparam("detectorId")], "responses": {"200": {"description": "ok"}}}},
            "/detector/{detectorId}/archive": {"post": {"operationId": "ArchiveDetector", "parameters": [pparam("detectorId")], "responses": {"200": {"description": "ok"}}}},
        },
        {"GetDetectorResponse": det},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /detector/{detectorId}"][0] == "get" and ops["DELETE /detector/{detectorId}"][0] == "delete"
    # disable → disabled, a member of the status enum: an ordinary tool
    assert ops["POST /detector/{detectorId}/disable"] == ("action", "sets status to disabled")
    # archive → archived: the enum has no such member, so nothing is invented
    assert ops["POST /detector/{detectorId}/archive"][0] not in ("action", "update")
    w, st = world_of(model, wf)
    table = next(q for q in st.tables if q.endswith(".detectors"))
    did = next(k for k, r in st.tables[table].items())
    svc = table.split(".")[0]
    assert w.call(st, f"{svc}.disable_detector", {"detector_id": did})["success"]
    assert st.tables[table][did]["status"] == "disabled"
    assert w.call(st, f"{svc}.disable_detector", {"detector_id": "nope"})["error"]["code"] == 404



def test_a_path_parameter_named_as_the_noun_names_the_item_by_its_name(tmp_path):
    """AWS Evidently's `/projects/{project}` ("the name or ARN of the project") returns a project
    with a `name` and an `arn` and no id: the name is its key (Evidently, Cloud SQL's instances,
    GitHub's branches had no table)."""
    project = obj({"name": {"type": "string"}, "arn": {"type": "string"}, "status": {"type": "string", "enum": ["AVAILABLE", "UPDATING"]}, "description": {"type": "string"}})
    doc = spec(
        {
            "/projects": {
                "get": {"operationId": "ListProjects", "responses": ok(obj({"projects": {"type": "array", "items": {"$ref": "#/components/schemas/Project"}}, "nextToken": {"type": "string"}}))},
                "post": {"operationId": "CreateProject", "requestBody": body(obj({"name": {"type": "string"}, "description": {"type": "string"}}, ["name"])), "responses": ok(obj({"project": {"$ref": "#/components/schemas/Project"}}))},
            },
            "/projects/{project}": {
                "get": {"operationId": "GetProject", "parameters": [pparam("project")], "responses": ok(obj({"project": {"$ref": "#/components/schemas/Project"}}))},
                "delete": {"operationId": "DeleteProject", "parameters": [pparam("project")], "responses": {"200": {"description": "ok"}}},
            },
            # a parameter that is not the noun names no item by a name
            "/teams/{owner}": {"get": {"operationId": "GetTeam", "parameters": [pparam("owner")], "responses": ok(obj({"team": obj({"name": {"type": "string"}, "size": {"type": "integer"}})}))}},
        },
        {"Project": project},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert [ops[f"{m} /projects{p}"][0] for m, p in (("GET", ""), ("POST", ""), ("GET", "/{project}"), ("DELETE", "/{project}"))] == ["list", "create", "get", "delete"], ops
    assert "returns one Project with the id-like property name" in "\n".join(result.files.values())
    assert ops["GET /teams/{owner}"][0] == "answered"  # no team table: the world model's seeded answers
    w, st = world_of(model, wf)
    table = next(q for q in st.tables if q.endswith(".projects"))
    name = next(iter(st.tables[table]))
    got = w.call(st, f"{table.split('.')[0]}.get_project", {"project": name})
    assert got["success"] and got["data"]["name"] == name, got



def test_a_scope_parameter_is_not_a_resource_that_lives_inside_it(tmp_path):
    """Azure API Management's users sit under `/subscriptions/{subscriptionId}` (the Azure
    subscription: one tenant) and have subscriptions of their own (`/users/{userId}/subscriptions`,
    API subscriptions). Those live inside the scope, so they cannot be what `{subscriptionId}`
    names: read so, every user needed a subscription's key and no walk could start."""
    base = "/subscriptions/{subscriptionId}/providers/Api/service/{serviceName}/users"
    user = obj({"id": {"type": "string"}, "name": {"type": "string"}, "email": {"type": "string"}, "state": {"type": "string", "enum": ["active", "blocked"]}})
    sub = obj({"id": {"type": "string"}, "name": {"type": "string"}, "scope": {"type": "string"}, "subscriptionId": {"type": "string"}})
    params = [pparam("subscriptionId"), pparam("serviceName")]
    doc = spec(
        {
            base: {"get": {"operationId": "User_List", "parameters": params, "responses": ok(obj({"value": {"type": "array", "items": user}}))}},
            base + "/{userId}": {
                "get": {"operationId": "User_Get", "parameters": params + [pparam("userId")], "responses": ok(user)},
                "delete": {"operationId": "User_Delete", "parameters": params + [pparam("userId")], "responses": {"200": {"description": "ok"}}},
            },
            base + "/{userId}/subscriptions": {"get": {"operationId": "UserSubscription_List", "parameters": params + [pparam("userId")], "responses": ok(obj({"value": {"type": "array", "items": sub}}))}},
            # a write recorded on a user: its `{subscriptionId}` is still the scope
            base + "/{userId}/generateSsoUrl": {"post": {"operationId": "User_GenerateSsoUrl", "summary": "Generates a sign-on URL", "parameters": params + [pparam("userId")], "responses": ok(obj({"value": {"type": "string"}}))}},
        }
    )
    result, ops, model, wf = run(tmp_path, doc)
    sso = next(t for t in model.tools() if t.name == "user_generate_sso_url")
    assert all(str(pt) != "SubscriptionId" for _, pt in sso.params), sso.params
    text = result.files[next(n for n in result.files if not n.endswith("_world.world"))]
    users = text[text.index("record User ") : text.index("service probe_subscriptions")]
    assert "subscription_id: text" in users and "SubscriptionId" not in users, users
    listing = next(t for t in model.tools() if t.name == "user_list")
    assert all(str(pt) != "SubscriptionId" for _, pt in listing.params), listing.params


# ─── status actions in each path style ───


@pytest.mark.parametrize("path", ["/orders/{orderId}/cancel", "/orders/{orderId}:cancel", "/orders/{orderId}/actions/cancel"])
def test_an_action_that_moves_a_status_enum_is_an_ordinary_tool(tmp_path, path):
    order = obj({"id": {"type": "string"}, "item": {"type": "string"}, "status": {"type": "string", "enum": ["OPEN", "CANCELLED", "SHIPPED"]}})
    doc = spec(
        {
            "/orders/{orderId}": {"get": {"operationId": "getOrder", "parameters": [pparam("orderId")], "responses": ok({"$ref": "#/components/schemas/Order"})}},
            path: {"post": {"operationId": "cancelOrder", "parameters": [pparam("orderId")], "responses": ok({"$ref": "#/components/schemas/Order"})}},
        },
        {"Order": order},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops[f"POST {path}"] == ("action", "sets status to cancelled")
    assert any(o.kind == "action" for o in result.crud)
    w, st = world_of(model, wf)
    oid = sorted(st.tables["probe_orders.orders"])[0]
    got = w.call(st, "probe_orders.cancel_order", {"order_id": oid})
    assert got["success"] and got["data"]["status"] == "cancelled"


def test_an_action_naming_another_thing_is_not_the_rows_status(tmp_path):
    order = obj({"id": {"type": "string"}, "status": {"type": "string", "enum": ["open", "cancelled"]}})
    doc = spec(
        {
            "/orders/{orderId}": {"get": {"operationId": "getOrder", "parameters": [pparam("orderId")], "responses": ok({"$ref": "#/components/schemas/Order"})}},
            "/orders/{orderId}/cancel_shipment": {"post": {"operationId": "cancelShipment", "parameters": [pparam("orderId")], "responses": {"204": {"description": "ok"}}}},
        },
        {"Order": order},
    )
    _, ops, _, _ = run(tmp_path, doc)
    assert ops["POST /orders/{orderId}/cancel_shipment"][0] not in ("action", "update")


# ─── lists across a scope, bodies through a wrapper ───


def test_a_list_across_a_scope_filters_by_the_parents_it_names(tmp_path):
    thing = obj({"id": {"type": "string"}, "name": {"type": "string"}, "location": {"type": "string"}})
    listing = obj({"value": {"type": "array", "items": {"$ref": "#/components/schemas/Thing"}}})
    item = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.X/things/{thingName}"
    params = [pparam("subscriptionId"), pparam("resourceGroupName"), pparam("thingName")]
    doc = spec(
        {
            item: {
                "get": {"operationId": "Things_Get", "parameters": params, "responses": ok({"$ref": "#/components/schemas/Thing"})},
                "delete": {"operationId": "Things_Delete", "parameters": params, "responses": {"200": {"description": "ok"}}},
            },
            "/subscriptions/{subscriptionId}/providers/Microsoft.X/things": {"get": {"operationId": "Things_ListBySubscription", "parameters": [pparam("subscriptionId")], "responses": ok({"$ref": "#/components/schemas/ThingList"})}},
        },
        {"Thing": thing, "ThingList": listing},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /subscriptions/{subscriptionId}/providers/Microsoft.X/things"][0] == "list"
    t = next(t for t in model.tools() if t.name == "things_list_by_subscription")
    w, st = world_of(model, wf)
    rows = next(iter(v for q, v in st.tables.items() if q.endswith(".things")))
    sub = next(iter(rows.values()))["subscription_id"]
    got = w.call(st, t.qualified, {"subscription_id": sub})
    assert got["success"] and {r["name"] for r in got["data"]} == {k for k, r in rows.items() if r["subscription_id"] == sub}  # (keyed by its name: `{thingName}`)


def test_a_list_an_item_holds_is_not_a_list_of_every_row(tmp_path):
    """tl-api's `GET /api/Package?packageId=` answers `{isError, message, result: Package}`, and a
    package holds the gyms it is sold in (`availableGyms`): that is one package, not the list of
    every gym (it was read as `package_get() -> list[Gym]`). An envelope that lists beside an
    object (`{owner: {...}, gyms: [...]}`) still lists the gyms."""
    s = {"type": "string"}
    i = {"type": "integer"}
    gym = obj({"gymId": i, "gymName": s, "location": s})
    package = obj({"packageId": i, "packageName": s, "monthlyFee": {"type": "number"}, "availableGyms": {"type": "array", "items": {"$ref": "#/components/schemas/Gym"}}})
    envelope = lambda inner: obj({"isError": {"type": "boolean"}, "message": s, "result": inner})  # noqa: E731
    q = {"name": "packageId", "in": "query", "schema": i}
    doc = spec(
        {
            "/api/Gym/{gymID}": {"get": {"operationId": "Gym_get", "parameters": [pparam("gymID")], "responses": ok(envelope({"$ref": "#/components/schemas/Gym"}))}},
            "/api/Package": {"get": {"operationId": "Package_Get", "parameters": [q], "responses": ok(envelope({"$ref": "#/components/schemas/Package"}))}},
            "/api/Region": {"get": {"operationId": "Region_Get", "responses": ok(obj({"owner": {"$ref": "#/components/schemas/Package"}, "gyms": {"type": "array", "items": {"$ref": "#/components/schemas/Gym"}}}))}},
        },
        {"Gym": gym, "Package": package},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /api/Package"][0] != "list", ops
    t = next(t for t in model.tools() if t.name == "package_get")
    assert "Gym" not in str(t.result), (ops, [x for x in result.files.values()])
    assert ops["GET /api/Region"][0] == "list", ops["GET /api/Region"]


def test_an_update_body_that_wraps_the_record_sets_its_fields(tmp_path):
    issue = obj({"id": {"type": "string"}, "summary": {"type": "string"}, "priority": {"type": "string"}})
    doc = spec(
        {
            "/issues/{issueId}": {
                "get": {"operationId": "getIssue", "parameters": [pparam("issueId")], "responses": ok({"$ref": "#/components/schemas/Issue"})},
                "put": {"operationId": "editIssue", "parameters": [pparam("issueId")], "requestBody": body(obj({"update": obj({"labels": {"type": "string"}}), "fields": obj({"summary": {"type": "string"}, "priority": {"type": "string"}}), "notifyUsers": {"type": "boolean"}, "historyMetadata": obj({"type": {"type": "string"}}), "properties": {"type": "string"}})), "responses": {"204": {"description": "ok"}}},
            },
        },
        {"Issue": issue},
    )
    _, ops, model, wf = run(tmp_path, doc)
    assert ops["PUT /issues/{issueId}"][0] == "update"
    w, st = world_of(model, wf)
    iid = sorted(st.tables["probe_issues.issues"])[0]
    assert w.call(st, "probe_issues.edit_issue", {"issue_id": iid, "summary": "Printer on fire"})["success"]
    assert st.tables["probe_issues.issues"][iid]["summary"] == "Printer on fire"


def test_an_update_body_names_the_inner_fields_of_a_wrapped_record(tmp_path):
    # the record is read from `{database: {name, replicas}}`; the PATCH body says `{replicas}`
    meta = obj({"database": obj({"name": {"type": "string"}, "replicas": {"type": "integer"}})})
    doc = spec(
        {
            "/databases/{indexName}": {
                "get": {"operationId": "describeIndex", "parameters": [pparam("indexName")], "responses": ok({"$ref": "#/components/schemas/IndexMeta"})},
                "patch": {"operationId": "configureIndex", "parameters": [pparam("indexName")], "requestBody": body(obj({"replicas": {"type": "integer"}})), "responses": {"202": {"description": "ok"}}},
            }
        },
        {"IndexMeta": meta},
    )
    _, ops, _, _ = run(tmp_path, doc)
    assert ops["GET /databases/{indexName}"][0] == "get"
    assert ops["PATCH /databases/{indexName}"][0] == "update"


def test_a_create_body_that_names_the_record_beside_its_tags_sets_its_fields(tmp_path):
    """AWS Cost Explorer's `CreateAnomalyMonitor` takes `{AnomalyMonitor: {...}, ResourceTags:
    [{Key, Value}]}`: the tags were read as a batch of monitors (an array of objects with a key),
    then nothing of the monitor was set, and the create was simulated. A batch's elements name a
    field of the record; the property named as the record is read inside, though the record has
    tags of its own; the stamps the service keeps are no arguments."""
    tag = obj({"Key": {"type": "string"}, "Value": {"type": "string"}})
    monitor = obj({"MonitorArn": {"type": "string"}, "MonitorName": {"type": "string"}, "MonitorType": {"type": "string", "enum": ["DIMENSIONAL", "CUSTOM"]},
                   "CreationDate": {"type": "string"}, "LastUpdatedDate": {"type": "string"}, "ResourceTags": {"type": "array", "items": tag}},
                  ["MonitorName", "MonitorType", "ResourceTags"])
    doc = spec(
        {
            "/monitors": {"post": {"operationId": "createMonitor", "requestBody": body(obj({"Monitor": {"$ref": "#/components/schemas/Monitor"}, "ResourceTags": {"type": "array", "items": tag}}, ["Monitor"])),
                                   "responses": ok(obj({"MonitorArn": {"type": "string"}}))}},
            "/monitors/{MonitorArn}": {"get": {"operationId": "getMonitor", "parameters": [pparam("MonitorArn")], "responses": ok({"$ref": "#/components/schemas/Monitor"})}},
        },
        {"Monitor": monitor},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["POST /monitors"][0] == "create", ops
    create = next(t for t in model.tools() if t.name == "create_monitor")
    params = [n for n, _ in create.params]
    assert params[:2] == ["monitor_name", "monitor_type"] and not {"creation_date", "last_updated_date"} & set(params), params
    # a list of objects the API requires is JSON text: optional, blank unless given (no task
    # states "[]")
    assert 'resource_tags: text = ""' in "".join(result.files.values()), params
    w, st = world_of(model, wf)
    got = w.call(st, "probe_monitors.create_monitor", {"monitor_name": "Spend watch", "monitor_type": "custom"})
    assert got["success"], got
    assert [r["monitor_name"] for r in st.tables["probe_monitors.monitors"].values()].count("Spend watch") == 1


# ─── formats to types ───


def test_formats_map_to_types(tmp_path):
    note = obj(
        {
            "id": {"type": "string"},
            "title": {"type": "string"},
            "createTime": {"type": "string", "format": "google-datetime"},
            "sentAt": {"type": "string", "format": "date-time-rfc1123"},
            "due": {"type": "string", "format": "date"},
            "owner": {"type": "string", "format": "email"},
            "link": {"type": "string", "format": "uri"},
            "sizeBytes": {"type": "string", "format": "int64"},
            "score": {"type": "number", "format": "double"},
            "count": {"type": "integer", "format": "int32"},
            "kind": {"type": "string", "enum": ["text", "list"]},
        }
    )
    doc = spec({"/notes/{noteId}": {"get": {"operationId": "getNote", "parameters": [pparam("noteId")], "responses": ok({"$ref": "#/components/schemas/Note"})}}}, {"Note": note})
    result, _, _, _ = run(tmp_path, doc)
    text = result.files[next(n for n in result.files if not n.endswith("_world.world"))]
    for want in ("create_time: datetime", "sent_at: datetime", "due: date", "owner: email", "link: text", "size_bytes: int", "score: decimal", "count_value: int", "kind: NoteKind"):
        assert want in text, want


# ─── the probe: an action never sets a member the enum does not have ───


def test_probe_actions_only_set_members_that_exist(tmp_path):
    rng = random.Random(30)
    verbs = sorted(STATUS_VERBS)
    pool = sorted({m for ms in STATUS_VERBS.values() for m in ms} | {"draft", "new", "pending", "unknown"})
    made = 0
    for i in range(600 if LONG else 60):
        members = rng.sample(pool, rng.randint(1, 6))
        chosen = rng.sample(verbs, 4)
        thing = obj({"id": {"type": "string"}, "name": {"type": "string"}, "status": {"type": "string", "enum": members}})
        paths = {"/things/{thingId}": {"get": {"operationId": "getThing", "parameters": [pparam("thingId")], "responses": ok({"$ref": "#/components/schemas/Thing"})}}}
        styles = ["/things/{thingId}/%s", "/things/{thingId}:%s", "/things/{thingId}/actions/%s"]
        for v in chosen:
            paths[rng.choice(styles) % v] = {"post": {"operationId": f"{v}Thing", "parameters": [pparam("thingId")], "responses": {"204": {"description": "ok"}}}}
        d = tmp_path / str(i)
        d.mkdir()
        _, ops, _, _ = run(d, spec(paths, {"Thing": thing}))
        for label, (kind, why) in ops.items():
            if not label.startswith("POST"):
                continue
            verb = next(v for v in chosen if v in label)
            has = [m for m in STATUS_VERBS[verb] if m in members]
            if kind == "action":
                made += 1
                assert why == f"sets status to {has[0]}", (label, why, members)
            else:
                assert not has, (label, kind, members)
    assert made > 0


def test_an_action_that_sets_a_flag_the_record_has(tmp_path):
    note = obj({"id": {"type": "string"}, "title": {"type": "string"}, "archived": {"type": "boolean"}})
    doc = spec(
        {
            "/notes/{noteId}": {"get": {"operationId": "getNote", "parameters": [pparam("noteId")], "responses": ok({"$ref": "#/components/schemas/Note"})}},
            "/notes/{id}/archive": {"post": {"operationId": "archiveNote", "parameters": [pparam("id")], "responses": {"204": {"description": "ok"}}}},
            "/notes/{id}/pin": {"post": {"operationId": "pinNote", "parameters": [pparam("id")], "responses": {"204": {"description": "ok"}}}},
        },
        {"Note": note},
    )
    _, ops, model, wf = run(tmp_path, doc)
    assert ops["POST /notes/{id}/archive"] == ("action", "sets archived to true")
    assert ops["POST /notes/{id}/pin"][0] != "action"  # no `pinned` flag: nothing invented
    w, st = world_of(model, wf)
    nid = sorted(st.tables["probe_notes.notes"])[0]
    assert w.call(st, "probe_notes.archive_note", {"id": nid})["success"]  # named as the path names it
    assert st.tables["probe_notes.notes"][nid]["archived"] is True


def test_a_sub_collection_of_another_resource_lists_it_by_its_reference(tmp_path):
    album = obj({"id": {"type": "string"}, "title": {"type": "string"}})
    track = obj({"id": {"type": "string"}, "name": {"type": "string"}, "album_id": {"type": "string"}})
    doc = spec(
        {
            "/albums/{id}": {"get": {"operationId": "getAlbum", "parameters": [pparam("id")], "responses": ok({"$ref": "#/components/schemas/Album"})}},
            "/tracks/{id}": {"get": {"operationId": "getTrack", "parameters": [pparam("id")], "responses": ok({"$ref": "#/components/schemas/Track"})}},
            "/albums/{id}/tracks": {"get": {"operationId": "getAlbumTracks", "parameters": [pparam("id")], "responses": ok(obj({"items": {"type": "array", "items": {"$ref": "#/components/schemas/Track"}}}))}},
        },
        {"Album": album, "Track": track},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /albums/{id}/tracks"][0] == "list"
    text = result.files["probe.world"]
    assert "tool get_album_tracks(id: AlbumId) -> list[Track]" in text
    w, st = world_of(model, wf)
    tracks = st.tables["probe_tracks.tracks"]
    aid = next(iter(tracks.values()))["album_id"]
    got = w.call(st, "probe_tracks.get_album_tracks", {"id": aid})
    assert got["success"] and {r["id"] for r in got["data"]} == {k for k, r in tracks.items() if r["album_id"] == aid}


def test_a_list_of_another_resource_under_an_item_gives_it_a_field_for_the_owner(tmp_path):
    # `GET /properties/{propertyID}/tenancies` lists Tenancies, whose record names no property:
    # the path says which property each belongs to
    prop = obj({"id": {"type": "string"}, "address": {"type": "string"}})
    tenancy = obj({"id": {"type": "string"}, "tenant": {"type": "string"}, "rent": {"type": "number"}})
    doc = spec(
        {
            "/properties/{propertyID}": {"get": {"operationId": "getProperty", "parameters": [pparam("propertyID")], "responses": ok({"$ref": "#/components/schemas/Property"})}},
            "/tenancies/{tenancyID}": {"get": {"operationId": "getTenancy", "parameters": [pparam("tenancyID")], "responses": ok({"$ref": "#/components/schemas/Tenancy"})}},
            "/tenancies": {"get": {"operationId": "listTenancies", "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Tenancy"}})}},
            "/properties/{propertyID}/tenancies": {"get": {"operationId": "getPropertyTenancies", "parameters": [pparam("propertyID")], "responses": ok(obj({"Count": {"type": "integer"}, "Data": {"type": "array", "items": {"$ref": "#/components/schemas/Tenancy"}}}))}},
        },
        {"Property": prop, "Tenancy": tenancy},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /properties/{propertyID}/tenancies"][0] == "list"
    text = result.files["probe.world"]
    assert "property_id: PropertyId" in text and "the property it is listed under (GET /properties/{propertyID}/tenancies)" in text
    assert "property_id: ref probe_properties.properties" in text
    w, st = world_of(model, wf)
    tenancies = st.tables["probe_tenancies.tenancies"]
    pid = next(iter(tenancies.values()))["property_id"]
    assert pid in st.tables["probe_properties.properties"]
    got = w.call(st, "probe_tenancies.get_property_tenancies", {"property_id": pid})
    assert got["success"] and {r["id"] for r in got["data"]} == {k for k, r in tenancies.items() if r["property_id"] == pid}


def test_a_list_whose_elements_are_envelopes_of_the_item_lists_the_resource(tmp_path):
    # parliament.uk's style: a get returns `{links, value: {...}}` and a list `{items: [{links, value}]}`
    item = obj({"id": {"type": "integer"}, "name": {"type": "string"}, "laid": {"type": "string", "format": "date"}})
    wrapped = obj({"links": {"type": "array", "items": obj({"rel": {"type": "string"}, "href": {"type": "string"}})}, "value": {"$ref": "#/components/schemas/Instrument"}})
    page = obj({"items": {"type": "array", "items": {"$ref": "#/components/schemas/InstrumentResource"}}, "totalResults": {"type": "integer"}})
    doc = spec(
        {
            "/instruments": {"get": {"operationId": "listInstruments", "responses": ok({"$ref": "#/components/schemas/Page"})}},
            "/instruments/{id}": {"get": {"operationId": "getInstrument", "parameters": [pparam("id")], "responses": ok({"$ref": "#/components/schemas/InstrumentResource"})}},
        },
        {"Instrument": item, "InstrumentResource": wrapped, "Page": page},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /instruments"][0] == "list"
    assert "-> list[Instrument]" in result.files["probe.world"]
    w, st = world_of(model, wf)
    got = w.call(st, "probe_instruments.list_instruments", {})
    assert got["success"] and len(got["data"]) == len(st.tables["probe_instruments.instruments"]) > 0


def test_a_path_parameter_named_as_a_field_of_the_listed_records_filters_by_it(tmp_path):
    # sportsdata's style: `/News` lists News keyed by `NewsID` (no plain plural of "news"), and
    # `/NewsByPlayerID/{playerid}` the news of one player; `PlayerID` in a news item names the player
    player = obj({"PlayerID": {"type": "integer"}, "Name": {"type": "string"}})
    news = obj({"NewsID": {"type": "integer"}, "Title": {"type": "string"}, "PlayerID": {"type": "integer"}})
    listing = lambda name: ok({"type": "array", "items": {"$ref": f"#/components/schemas/{name}"}})  # noqa: E731
    doc = spec(
        {
            "/Players": {"get": {"operationId": "Players", "responses": listing("Player")}},
            "/Player/{playerid}": {"get": {"operationId": "Player", "parameters": [pparam("playerid")], "responses": ok({"$ref": "#/components/schemas/Player"})}},
            "/News": {"get": {"operationId": "News", "responses": listing("News")}},
            "/NewsByPlayerID/{playerid}": {"get": {"operationId": "NewsByPlayerID", "parameters": [pparam("playerid")], "responses": listing("News")}},
            # a get whose response is one object, not a list, stays what it was
            "/NewsSummary/{playerid}": {"get": {"operationId": "NewsSummary", "parameters": [pparam("playerid")], "responses": ok(obj({"Count": {"type": "integer"}, "Latest": {"type": "string"}}))}},
        },
        {"Player": player, "News": news},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /News"][0] == "list" and ops["GET /NewsByPlayerID/{playerid}"][0] == "list"
    assert ops["GET /NewsSummary/{playerid}"][0] != "list"
    text = result.files["probe.world"]
    assert "key news_id: NewsId" in text and "tool news_by_player_id(playerid: PlayerId) -> list[News]" in text
    w, st = world_of(model, wf)
    items = st.tables["probe_news.news"]
    pid = next(iter(items.values()))["player_id"]
    got = w.call(st, "probe_news.news_by_player_id", {"playerid": pid})
    assert got["success"] and {r["news_id"] for r in got["data"]} == {k for k, r in items.items() if r["player_id"] == pid}


def test_rows_with_no_id_under_an_item_are_a_child_table_and_other_calls_stay_on_the_owner(tmp_path):
    # a property's rooms carry no id; the rooms' other operations still work on one property
    room = obj({"name": {"type": "string"}, "floor": {"type": "string"}, "width": {"type": "integer"}})
    doc = spec(
        {
            "/properties/{propertyID}": {"get": {"operationId": "getProperty", "parameters": [pparam("propertyID")], "responses": ok(obj({"id": {"type": "string"}, "address": {"type": "string"}}))}},
            "/properties/{propertyID}/rooms": {
                "get": {"operationId": "getPropertyRooms", "parameters": [pparam("propertyID")], "responses": ok(obj({"total": {"type": "integer"}, "items": {"type": "array", "items": {"$ref": "#/components/schemas/Room"}}}))},
                "post": {"operationId": "addPropertyRooms", "parameters": [pparam("propertyID")], "requestBody": body(obj({"layout": {"type": "string"}})), "responses": {"204": {"description": "done"}}},
            },
            # settings that hold a list beside values of their own are no list of rows
            "/properties/{propertyID}/access": {"get": {"operationId": "getPropertyAccess", "parameters": [pparam("propertyID")], "responses": ok(obj({"mode": {"type": "string"}, "keys": {"type": "array", "items": {"$ref": "#/components/schemas/Key"}}}))}},
        },
        {"Room": room, "Key": obj({"holder": {"type": "string"}, "issued": {"type": "string", "format": "date"}})},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /properties/{propertyID}/rooms"][0] == "list"
    assert ops["POST /properties/{propertyID}/rooms"] == ("recorded", "an action on one property")
    assert ops["GET /properties/{propertyID}/access"][0] != "list"
    w, st = world_of(model, wf)
    rooms = next(t for q, t in st.tables.items() if q.endswith(".rooms"))
    props = next(t for q, t in st.tables.items() if q.endswith(".properties"))
    assert rooms and all(r["property_id"] in props for r in rooms.values()) and all(r["id"] for r in rooms.values())
    svc = next(q for q in st.tables if q.endswith(".rooms")).split(".")[0]
    pid = next(iter(rooms.values()))["property_id"]
    got = w.call(st, f"{svc}.get_property_rooms", {"property_id": pid})
    assert got["success"] and len(got["data"]) == sum(1 for r in rooms.values() if r["property_id"] == pid)


def test_a_rows_own_settings_are_a_table_of_one_per_row(tmp_path):
    doc = spec(
        {
            "/networks/{networkId}": {
                "get": {"operationId": "getNetwork", "parameters": [pparam("networkId")], "responses": ok(obj({"id": {"type": "string"}, "name": {"type": "string"}}))},
            },
            "/networks/{networkId}/alertSettings": {
                "get": {"operationId": "getNetworkAlertSettings", "parameters": [pparam("networkId")], "responses": ok(obj({"defaultDestination": {"type": "string"}, "muted": {"type": "boolean"}, "emails": {"type": "string", "format": "email"}}))},
                "put": {"operationId": "updateNetworkAlertSettings", "parameters": [pparam("networkId")], "requestBody": body(obj({"defaultDestination": {"type": "string"}, "muted": {"type": "boolean"}})), "responses": ok(obj({"defaultDestination": {"type": "string"}, "muted": {"type": "boolean"}}))},
            },
        }
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /networks/{networkId}/alertSettings"][0] == "get"
    assert ops["PUT /networks/{networkId}/alertSettings"][0] == "update"
    assert "network_id: unique ref probe_networks.networks" in result.files["probe.world"]
    w, st = world_of(model, wf)
    settings = next(t for q, t in st.tables.items() if q.endswith(".alert_settings"))
    owners = [r["network_id"] for r in settings.values()]
    assert owners and len(owners) == len(set(owners))  # one per network at most
    net = owners[0]
    svc = next(q for q in st.tables if q.endswith(".alert_settings")).split(".")[0]
    got = w.call(st, f"{svc}.get_network_alert_settings", {"network_id": net})
    assert got["success"] and got["data"]["network_id"] == net
    upd = w.call(st, f"{svc}.update_network_alert_settings", {"network_id": net, "default_destination": "ops@example.com", "muted": True})
    assert upd["success"] and upd["data"]["default_destination"] == "ops@example.com" and upd["data"]["muted"] is True
    missing = next((k for k in st.tables["probe_networks.networks"] if k not in owners), None)
    if missing is not None:
        assert w.call(st, f"{svc}.get_network_alert_settings", {"network_id": missing})["error"]["code"] == 404


def test_a_post_on_an_item_that_sets_its_fields_is_an_update(tmp_path):
    customer = obj({"id": {"type": "string"}, "name": {"type": "string"}, "email": {"type": "string", "format": "email"}})
    doc = spec(
        {
            "/v1/customers/{customer}": {
                "get": {"operationId": "GetCustomer", "parameters": [pparam("customer")], "responses": ok({"$ref": "#/components/schemas/Customer"})},
                "post": {"operationId": "PostCustomer", "parameters": [pparam("customer")], "requestBody": body(obj({"name": {"type": "string"}})), "responses": ok({"$ref": "#/components/schemas/Customer"})},
            },
        },
        {"Customer": customer},
    )
    _, ops, model, wf = run(tmp_path, doc)
    assert ops["POST /v1/customers/{customer}"][0] == "update"
    w, st = world_of(model, wf)
    cid = sorted(st.tables["probe_customers.customers"])[0]
    got = w.call(st, "probe_customers.post_customer", {"customer": cid, "name": "Ada Lovelace"})
    assert got["success"] and got["data"]["name"] == "Ada Lovelace"


def test_an_action_does_not_set_an_enum_that_is_not_a_status(tmp_path):
    review = obj({"id": {"type": "string"}, "closed_reason": {"type": "string", "enum": ["approved", "refunded"]}})
    doc = spec(
        {
            "/reviews/{review}": {"get": {"operationId": "getReview", "parameters": [pparam("review")], "responses": ok({"$ref": "#/components/schemas/Review"})}},
            "/reviews/{review}/approve": {"post": {"operationId": "approveReview", "parameters": [pparam("review")], "responses": {"204": {"description": "ok"}}}},
        },
        {"Review": review},
    )
    _, ops, _, _ = run(tmp_path, doc)
    assert ops["POST /reviews/{review}/approve"][0] != "action"


def test_a_rows_own_object_names_its_row_by_the_property_that_says_so(tmp_path):
    """`/users/{id}/presence` answers `{userId, status}`: the presence's `userId` is the user the
    path names, so it is the presence's reference to its user, not a field beside a second one
    (`id_2`); read as two, a presence's `userId` named another user than the one it was of."""
    user = obj({"id": {"type": "string"}, "name": {"type": "string"}})
    doc = spec(
        {
            "/users": {"get": {"operationId": "listUsers", "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/User"}})}},
            "/users/{id}": {"get": {"operationId": "getUser", "parameters": [pparam("id")], "responses": ok({"$ref": "#/components/schemas/User"})}},
            "/users/{id}/presence": {"get": {"operationId": "getPresence", "parameters": [pparam("id")], "responses": ok(obj({"userId": {"type": "string"}, "status": {"type": "string", "enum": ["online", "away"]}, "since": {"type": "string", "format": "date-time"}}))}},
        },
        {"User": user},
    )
    result, ops, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    rec = text[text.index("record Presence") :].split("\n  }")[0]
    assert "user_id: UserId" in rec and "id_2" not in rec, rec
    w, st = world_of(model, wf)
    table = next(q for q in st.tables if q.endswith(".presences"))
    row = next(iter(st.tables[table].values()))
    got = w.call(st, f"{table.split('.')[0]}.get_presence", {"id": row["user_id"]})
    assert got["success"] and got["data"]["user_id"] == row["user_id"], got


def _record_and_world(tmp_path, doc, record: str):
    """(the imported record's text, the model, the loaded world, its first state)."""
    result, _, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    w, st = world_of(model, wf)
    return text[text.index(f"record {record}") :].split("\n  }")[0], model, w, st


def test_a_parents_bare_name_under_its_noun_is_the_rows_reference_to_it(tmp_path):
    """AppIntegrations lists an event integration's associations at `/eventIntegrations/{Name}/
    associations`, each holding an `EventIntegrationName`: that property is the parent `{Name}`
    names, not a second reference beside it (`event_integration_name_2`) that the seeds drew
    apart, so an association listed under one integration named another (a fresh draw)."""
    integration = obj({"Name": {"type": "string"}, "Description": {"type": "string"}})
    assoc = obj({"EventIntegrationAssociationArn": {"type": "string"}, "EventIntegrationName": {"type": "string"}, "ClientId": {"type": "string"}})
    doc = spec(
        {
            "/eventIntegrations": {"get": {"operationId": "listEventIntegrations", "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/EventIntegration"}})}},
            "/eventIntegrations/{Name}": {"get": {"operationId": "getEventIntegration", "parameters": [pparam("Name")], "responses": ok({"$ref": "#/components/schemas/EventIntegration"})}},
            "/eventIntegrations/{Name}/associations": {"get": {"operationId": "listEventIntegrationAssociations", "parameters": [pparam("Name")], "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/EventIntegrationAssociation"}})}},
        },
        {"EventIntegration": integration, "EventIntegrationAssociation": assoc},
    )
    rec, model, w, st = _record_and_world(tmp_path, doc, "EventIntegrationAssociation")
    assert "event_integration_name: EventIntegrationId" in rec and "_name_2" not in rec, rec
    table = next(q for q in st.tables if q.endswith(".event_integration_associations"))
    row = next(iter(st.tables[table].values()))
    got = w.call(st, f"{table.split('.')[0]}.list_event_integration_associations", {"name": row["event_integration_name"]})
    assert got["success"] and all(r["event_integration_name"] == row["event_integration_name"] for r in got["data"]), got


def test_a_parents_own_object_in_the_row_is_its_reference(tmp_path):
    """1Password's items under `/vaults/{vaultUuid}/items` hold `vault: {id}`: that object's id is
    the vault the path names, not a second reference beside `vault_uuid` that a create left blank
    (a blind player's new item was in no vault, round 48)."""
    vault = obj({"id": {"type": "string"}, "name": {"type": "string"}})
    item = obj({"id": {"type": "string"}, "title": {"type": "string"}, "vault": obj({"id": {"type": "string"}})})
    doc = spec(
        {
            "/vaults": {"get": {"operationId": "GetVaults", "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Vault"}})}},
            "/vaults/{vaultUuid}": {"get": {"operationId": "GetVaultById", "parameters": [pparam("vaultUuid")], "responses": ok({"$ref": "#/components/schemas/Vault"})}},
            "/vaults/{vaultUuid}/items": {
                "get": {"operationId": "GetVaultItems", "parameters": [pparam("vaultUuid")], "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Item"}})},
                "post": {"operationId": "CreateVaultItem", "parameters": [pparam("vaultUuid")], "requestBody": {"content": {"application/json": {"schema": obj({"title": {"type": "string"}})}}}, "responses": ok({"$ref": "#/components/schemas/Item"})},
            },
        },
        {"Vault": vault, "Item": item},
    )
    rec, model, w, st = _record_and_world(tmp_path, doc, "Item")
    assert "vault_id: VaultId" in rec and "vault_uuid" not in rec, rec
    vid = next(iter(next(t for q, t in st.tables.items() if q.endswith(".vaults"))))
    made = w.call(st, next(t.qualified for t in model.tools() if t.name == "create_vault_item"), {"vault_uuid": vid, "title": "Team offsite"})
    assert made["success"] and made["data"]["vault_id"] == vid, made


def test_a_scope_parameter_beside_a_property_of_another_type_gets_a_field_of_its_own(tmp_path):
    """Docker Hub's tags sit under `/namespaces/{namespace}/repositories/{repository}` and hold an
    integer `repository` (the repository's id): the path's `{repository}` (a name, text) is a
    field of its own, not that integer, so the list's filter compares text with text (it failed
    `worldc check` with "`int` and `text` can never be equal")."""
    tag = obj({"id": {"type": "integer"}, "name": {"type": "string"}, "repository": {"type": "integer"}})
    base = "/namespaces/{namespace}/repositories/{repository}/tags"
    doc = spec(
        {
            base: {"get": {"operationId": "listTags", "parameters": [pparam("namespace"), pparam("repository")], "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Tag"}})}},
            base + "/{tag}": {"get": {"operationId": "getTag", "parameters": [pparam("namespace"), pparam("repository"), pparam("tag")], "responses": ok({"$ref": "#/components/schemas/Tag"})}},
        },
        {"Tag": tag},
    )
    result, ops, model, wf = run(tmp_path, doc)  # run asserts that the world checks
    text = "\n".join(result.files.values())
    rec = text[text.index("record Tag") :].split("\n  }")[0]
    assert "repository: int" in rec and "repository_2: text" in rec, rec
    assert "r_.repository_2 == repository" in text


def test_a_path_parameter_named_as_another_resources_key_is_its_parent(tmp_path):
    """GoToTraining lists an organizer's trainings at `/organizers/{organizerKey}/trainings`, and
    its organizers (a list only) under accounts: `{organizerKey}` is no parent by its place, but
    the trainings' field of it refers to organizers by its name, so the tools take it as an organizer's key (the
    create put a text argument into that reference and failed `worldc check`)."""
    organizer = obj({"organizerKey": {"type": "string"}, "email": {"type": "string", "format": "email"}})
    training = obj({"trainingKey": {"type": "string"}, "name": {"type": "string"}})
    doc = spec(
        {
            "/accounts/{accountKey}/organizers": {"get": {"operationId": "listOrganizers", "parameters": [pparam("accountKey")], "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Organizer"}})}},
            "/organizers/{organizerKey}/trainings": {
                "get": {"operationId": "listTrainings", "parameters": [pparam("organizerKey")], "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Training"}})},
                "post": {"operationId": "createTraining", "parameters": [pparam("organizerKey")], "requestBody": body(obj({"name": {"type": "string"}})), "responses": ok({"type": "string"})},
            },
            "/organizers/{organizerKey}/trainings/{trainingKey}": {"get": {"operationId": "getTraining", "parameters": [pparam("organizerKey"), pparam("trainingKey")], "responses": ok({"$ref": "#/components/schemas/Training"})}},
        },
        {"Organizer": organizer, "Training": training},
    )
    result, ops, model, wf = run(tmp_path, doc)  # run asserts that the world checks
    text = "\n".join(result.files.values())
    key = text[text.index("record Organizer") :].split("key organizer_key: ")[1].split()[0]
    for name in ("list_trainings", "create_training"):
        params = {n: str(t) for n, t in next(t for t in model.tools() if t.name == name).params}
        assert params["organizer_key"] == key, (name, params)


def test_an_action_on_a_keyless_child_row_is_on_that_row_not_its_parent(tmp_path):
    """Flat's assignments have no id of their own (a child table of a class, keyed by the world):
    `DELETE /classes/{class}/assignments/{assignment}/archive` was recorded on the class with
    `assignment: text`, and a blind-played task said 'unarchive assignment "MI-2469"' (the class's
    own code). It is an action on the assignment the path names."""
    klass = obj({"id": {"type": "string"}, "name": {"type": "string"}, "mfcId": {"type": "string"}})
    assignment = obj({"title": {"type": "string"}, "state": {"type": "string", "enum": ["draft", "active", "archived"]}})
    item = [pparam("class"), pparam("assignment")]
    doc = spec(
        {
            "/classes": {"get": {"operationId": "listClasses", "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Class"}})}},
            "/classes/{class}": {"get": {"operationId": "getClass", "parameters": [pparam("class")], "responses": ok({"$ref": "#/components/schemas/Class"})}},
            "/classes/{class}/assignments": {"get": {"operationId": "listAssignments", "parameters": [pparam("class")], "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Assignment"}})}},
            "/classes/{class}/assignments/{assignment}/archive": {"delete": {"operationId": "unarchiveAssignment", "summary": "Unarchive the assignment", "parameters": item, "responses": {"204": {"description": "ok"}}}},
        },
        {"Class": klass, "Assignment": assignment},
    )
    result, ops, model, wf = run(tmp_path, doc)
    kind, why = ops["DELETE /classes/{class}/assignments/{assignment}/archive"][:2]
    assert kind == "recorded" and why == "an action on one assignment", (kind, why)
    text = "\n".join(result.files.values())
    assert "tool unarchive_assignment(class: ClassId, assignment: AssignmentId)" in text, text
    assert "require assignment in assignments else not_found" in text


def test_a_flattened_object_a_reference_names_holds_that_rows_values(tmp_path):
    """Flat's class embeds its students group (`studentsGroup: {id, name, type}`): the class said
    "Summit students group" and the group itself "Harbor group" (blind play). The copies are the
    referenced row's own values."""
    group = obj({"id": {"type": "string"}, "name": {"type": "string"}, "usersCount": {"type": "integer"}})
    klass = obj({"id": {"type": "string"}, "name": {"type": "string"}, "studentsGroup": {"$ref": "#/components/schemas/Group"}})
    doc = spec(
        {
            "/groups": {"get": {"operationId": "listGroups", "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Group"}})}},
            "/groups/{group}": {"get": {"operationId": "getGroup", "parameters": [pparam("group")], "responses": ok({"$ref": "#/components/schemas/Group"})}},
            "/classes": {"get": {"operationId": "listClasses", "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Class"}})}},
            "/classes/{class}": {"get": {"operationId": "getClass", "parameters": [pparam("class")], "responses": ok({"$ref": "#/components/schemas/Class"})}},
        },
        {"Class": klass, "Group": group},
    )
    result, ops, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert "students_group_name: same(students_group_id.name)" in text, text
    w, st = world_of(model, wf)
    classes = next(t for q, t in st.tables.items() if q.endswith(".classes"))
    groups = next(t for q, t in st.tables.items() if q.endswith(".groups"))
    assert classes and all(r["students_group_name"] == groups[r["students_group_id"]]["name"] and r["students_group_users_count"] == groups[r["students_group_id"]]["users_count"] for r in classes.values()), classes


def test_one_reference_written_twice_is_one_row(tmp_path):
    """hubhopper's podcasts hold `category: {id, name}` and `categoryId`: two fields that name
    the one category, drawn apart they named two ("the category id 2 of the podcast ...")."""
    category = obj({"id": {"type": "integer"}, "name": {"type": "string"}})
    podcast = obj({"podcastId": {"type": "integer"}, "title": {"type": "string"}, "category": {"$ref": "#/components/schemas/Category"}, "categoryId": {"type": "integer"}})
    doc = spec(
        {
            "/categories": {"get": {"operationId": "listCategories", "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Category"}})}},
            "/categories/{categoryId}": {"get": {"operationId": "getCategory", "parameters": [pparam("categoryId")], "responses": ok({"$ref": "#/components/schemas/Category"})}},
            "/podcasts": {"get": {"operationId": "listPodcasts", "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Podcast"}})}},
            "/podcasts/{podcastId}": {"get": {"operationId": "getPodcast", "parameters": [pparam("podcastId")], "responses": ok({"$ref": "#/components/schemas/Podcast"})}},
        },
        {"Category": category, "Podcast": podcast},
    )
    result, ops, model, wf = run(tmp_path, doc)
    w, st = world_of(model, wf)
    podcasts = next(t for q, t in st.tables.items() if q.endswith(".podcasts"))
    refs = [f for f in ("category_id", "category_id_2") if all(f in r for r in podcasts.values())]
    assert len(refs) == 2, (refs, podcasts)
    assert podcasts and all(r["category_id"] == r["category_id_2"] for r in podcasts.values()), podcasts


def test_a_row_of_nothing_but_its_key_is_known_by_it_and_seeded(tmp_path):
    """SNS lists its topics by their ARNs alone (`ListTopics` → `[{TopicArn}]`): the topic
    record holds its key and nothing else. It had no `known by` and no seed (an empty one was not
    written), so its table stayed empty and no walk started (no task from SNS's 84
    operations). Such a row is known by its key, and its table is seeded."""
    from import_specs import sample_tasks

    s = {"type": "string"}
    topic = {"type": "object", "properties": {"topicArn": s}}
    sub = {"type": "object", "properties": {"subscriptionArn": s, "topicArn": s, "endpoint": s, "protocol": {"type": "string", "enum": ["http", "https", "email", "sqs"]}}}
    doc = spec(
        {
            "/topics": {"get": {"operationId": "ListTopics", "responses": ok({"type": "object", "properties": {"topics": {"type": "array", "items": topic}}})}},
            "/topics/{topicArn}": {"delete": {"operationId": "DeleteTopic", "parameters": [pparam("topicArn")], "responses": {"200": {"description": "ok"}}}},
            "/topics/{topicArn}/subscriptions": {"get": {"operationId": "ListSubscriptionsByTopic", "parameters": [pparam("topicArn")], "responses": ok({"type": "object", "properties": {"subscriptions": {"type": "array", "items": sub}}})}},
            "/topics/{topicArn}/publish": {"post": {"operationId": "Publish", "summary": "Publishes a message to a topic", "parameters": [pparam("topicArn")], "requestBody": body({"type": "object", "required": ["message"], "properties": {"message": s}}), "responses": ok({"type": "object", "properties": {"messageId": s}})}},
            "/subscriptions": {"get": {"operationId": "ListSubscriptions", "responses": ok({"type": "object", "properties": {"subscriptions": {"type": "array", "items": sub}}})}},
        }
    )
    result, ops, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert re.search(r"record Topic known by topic_arn \{\n    key topic_arn: TopicId\n  \}", text), text
    assert re.search(r"seed topics: \d+\.\.\d+ rows \{\}", text), text
    w, st = world_of(model, wf)
    assert len(next(v for q, v in st.tables.items() if q.endswith(".topics"))) >= 4
    # a topic is said by its key ('the topic "topic-3"') where the task starts on it, and reached
    # through a subscription where a read must find it ("the topic of the subscription ..."):
    # never both, as the read would be a step no agent needs (D61)
    _, tasks = sample_tasks(wf, tmp_path, 3, 2, 1, 200)
    for t in tasks:
        text = t["instruction"]
        assert re.search(r'the topic "topic-\d+"|the topic of the subscription', text), text
        for call, bound in zip(t["reference_plan"], t["bindings"]):
            if str(bound.get("topic_arn", "")).startswith("step"):
                assert f'"{call["arguments"]["topic_arn"]}"' not in text, text


def test_a_path_segment_named_as_its_parameter_is_that_parameter(tmp_path):
    """PDF Generator writes `/templates/templateId`, and APIs.guru's conversion made `templateId` a
    query parameter: the segment is the template's id, so the get, update and delete act on one
    template. Read as a word, they were recorded calls on the collection, and a sampled task
    deleted a template and then updated it (stop 69)."""
    template = obj({"id": {"type": "integer"}, "name": {"type": "string"}})
    tid = {"name": "templateId", "in": "query", "required": True, "schema": {"type": "integer"}}
    doc = spec(
        {
            "/templates": {"get": {"operationId": "getTemplates", "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Template"}})}},
            "/templates/templateId": {
                "get": {"operationId": "getTemplate", "parameters": [tid], "responses": ok({"$ref": "#/components/schemas/Template"})},
                "delete": {"operationId": "deleteTemplate", "parameters": [tid], "responses": {"204": {"description": "gone"}}},
            },
        },
        {"Template": template},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /templates/templateId"][0] == "get" and ops["DELETE /templates/templateId"][0] == "delete", ops
    w, st = world_of(model, wf)
    table = next(q for q in st.tables if q.endswith(".templates"))
    key = next(iter(st.tables[table]))
    svc = table.split(".")[0]
    assert w.call(st, f"{svc}.get_template", {"template_id": key})["success"]
    assert w.call(st, f"{svc}.delete_template", {"template_id": key})["success"]
    assert not w.call(st, f"{svc}.get_template", {"template_id": key})["success"]


def test_a_recorded_calls_free_text_is_drawn_from_the_records_it_acts_on(tmp_path):
    """A copied template was named "Riverside editor url", the `name` of an editor URL answer
    beside the templates in one service (an imported PDF Generator task, stop 69): a call the
    world model only records draws its text from the table of the record it acts on."""
    from compoworld_dsl.sample.bindings import _own_tables
    from compoworld_dsl.sample.worker import load_sampler

    template = obj({"id": {"type": "integer"}, "name": {"type": "string"}})
    doc = spec(
        {
            "/templates": {"get": {"operationId": "getTemplates", "responses": ok({"type": "array", "items": {"$ref": "#/components/schemas/Template"}})}},
            "/templates/{templateId}": {"get": {"operationId": "getTemplate", "parameters": [pparam("templateId")], "responses": ok({"$ref": "#/components/schemas/Template"})}},
            "/templates/{templateId}/copy": {"post": {"operationId": "copyTemplate", "parameters": [pparam("templateId"), {"name": "name", "in": "query", "schema": {"type": "string"}}], "responses": {"204": {"description": "copied"}}}},
            "/templates/{templateId}/editor": {"post": {"operationId": "getEditorUrl", "parameters": [pparam("templateId")], "requestBody": {"content": {"application/json": {"schema": obj({"name": {"type": "string"}})}}}, "responses": ok(obj({"url": {"type": "string"}, "name": {"type": "string"}}))}},
        },
        {"Template": template},
    )
    result, ops, model, wf = run(tmp_path, doc)
    facts = load_sampler(str(wf)).facts
    copy = next(t for t in facts.tools if t.name == "copy_template")
    assert {q.split(".")[-1] for q in _own_tables(facts, copy)} == {"templates"}, _own_tables(facts, copy)
