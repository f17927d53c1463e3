"""RPC-style operations read as REST resources (compoworld_dsl/importers/normalize.py, issue 30):
AWS JSON/query actions (`POST /#X-Amz-Target=Svc.DescribeWidget`), Google resource-name paths
(`GET /v1/{name}`, `keep.notes.get`), generic RPC paths (`POST /users.create`, `GET /getTeam?teamId=`,
`POST /project/{id}/delete`), the shapes that must stay as they are, and a probe over random
RPC-style specs.

The probe tries 12 random specs; `WORLDC_LONG=1` makes it try 300."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compoworld_dsl.importers.common import check_output, write_files
from compoworld_dsl.importers.normalize import CREATE, DELETE, GET, LIST, UPDATE
from compoworld_dsl.importers.openapi import import_openapi

LONG = os.environ.get("WORLDC_LONG") == "1"
CRUD = ("get", "list", "create", "update", "delete")


def spec_file(tmp: Path, paths: dict, schemas: dict | None = None, title: str = "Test API") -> Path:
    doc = {"openapi": "3.0.0", "info": {"title": title, "version": "1"}, "paths": paths, "components": {"schemas": schemas or {}}}
    p = tmp / "spec.json"
    p.write_text(json.dumps(doc))
    return p


def imported(tmp: Path, spec: Path):
    """The import result, after checking the written world clean."""
    result = import_openapi(spec)
    out = tmp / "out"
    write_files(out, result.files, True)
    ok, summary, diags = check_output(out / result.world_file)
    assert ok, diags
    return result


def ops_by_label(result) -> dict:
    return {o.label: o for o in result.ops}


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def described(name: str, text: str) -> dict:
    """AWS's way of describing a property: an allOf of the reference and a description."""
    return {"allOf": [ref(name), {"description": text}]}


def json_body(schema: dict) -> dict:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def ok_with(schema: dict) -> dict:
    return {"200": {"description": "Success", "content": {"application/json": {"schema": schema}}}}


# ─────────────────────────── AWS JSON RPC ───────────────────────────


def aws_action(target: str, name: str, with_response: bool = True) -> dict:
    op = {
        "operationId": name,
        "requestBody": json_body(ref(f"{name}Request")),
        "parameters": [{"name": "X-Amz-Target", "in": "header", "required": True, "schema": {"type": "string", "enum": [f"{target}.{name}"]}}],
        "responses": ok_with(ref(f"{name}Response")) if with_response else {"200": {"description": "Success"}},
    }
    return {f"/#X-Amz-Target={target}.{name}": {"post": op}}


def aws_spec(tmp: Path) -> Path:
    s = {"type": "string"}
    schemas = {
        "Arn": {"type": "string", "pattern": "arn:.*"},
        "Color": {"type": "string", "enum": ["red", "green", "blue"]},
        "Status": {"type": "string", "enum": ["ACTIVE", "STOPPED"]},
        "CreateProjectRequest": {"type": "object", "required": ["ProjectName"], "properties": {"ProjectName": s, "Description": s}},
        "CreateProjectResponse": {"type": "object", "properties": {"ProjectArn": described("Arn", "the project")}},
        "DescribeProjectRequest": {"type": "object", "required": ["ProjectArn"], "properties": {"ProjectArn": described("Arn", "the project")}},
        "DescribeProjectResponse": {"type": "object", "properties": {"ProjectArn": described("Arn", "its ARN"), "ProjectName": s, "Description": s, "Settings": {"type": "object", "properties": {"Mode": s}}}},
        "ListProjectsRequest": {"type": "object", "properties": {"NextToken": s, "MaxResults": {"type": "integer"}}},
        "ProjectSummary": {"type": "object", "properties": {"ProjectArn": ref("Arn"), "ProjectName": s}},
        "ProjectSummaryList": {"type": "array", "items": ref("ProjectSummary")},
        "ListProjectsResponse": {"type": "object", "properties": {"ProjectSummaries": described("ProjectSummaryList", "the projects"), "NextToken": s}},
        "DeleteProjectRequest": {"type": "object", "required": ["ProjectArn"], "properties": {"ProjectArn": ref("Arn")}},
        "DeleteProjectResponse": {"type": "object", "properties": {}},
        "Widget": {"type": "object", "properties": {"WidgetArn": ref("Arn"), "WidgetName": s, "ProjectArn": ref("Arn"), "Color": ref("Color"), "Status": ref("Status")}},
        "CreateWidgetRequest": {"type": "object", "required": ["WidgetName", "ProjectArn"], "properties": {"WidgetName": s, "ProjectArn": ref("Arn"), "Color": ref("Color")}},
        "CreateWidgetResponse": {"type": "object", "properties": {"WidgetArn": ref("Arn")}},
        "DescribeWidgetRequest": {"type": "object", "required": ["WidgetArn"], "properties": {"WidgetArn": ref("Arn")}},
        # the item in a property named after the noun, beside another object: not a lone envelope
        "DescribeWidgetResponse": {"type": "object", "properties": {"Widget": ref("Widget"), "Tags": {"type": "object", "properties": {"Team": s}}}},
        "ListWidgetsRequest": {"type": "object", "properties": {"ProjectArn": ref("Arn"), "Color": ref("Color"), "NextToken": s}},
        "ListWidgetsResponse": {"type": "object", "properties": {"Widgets": {"type": "array", "items": ref("Widget")}, "NextToken": s}},
        "UpdateWidgetRequest": {"type": "object", "required": ["WidgetArn"], "properties": {"WidgetArn": ref("Arn"), "WidgetName": s, "Color": ref("Color")}},
        "UpdateWidgetResponse": {"type": "object", "properties": {"WidgetArn": ref("Arn")}},
        "DeleteWidgetRequest": {"type": "object", "required": ["WidgetArn"], "properties": {"WidgetArn": ref("Arn")}},
        "DeleteWidgetResponse": {"type": "object", "properties": {}},
        "StartWidgetRequest": {"type": "object", "required": ["WidgetArn"], "properties": {"WidgetArn": ref("Arn"), "Reason": s}},
        "StartWidgetResponse": {"type": "object", "properties": {"Status": ref("Status")}},
        "GetWidgetPolicyRequest": {"type": "object", "required": ["WidgetArn"], "properties": {"WidgetArn": ref("Arn")}},
        "GetWidgetPolicyResponse": {"type": "object", "properties": {"Policy": s}},
    }
    paths = {}
    for name in ("CreateProject", "DescribeProject", "ListProjects", "DeleteProject", "CreateWidget", "DescribeWidget", "ListWidgets", "UpdateWidget", "DeleteWidget", "StartWidget", "GetWidgetPolicy"):
        paths.update(aws_action("WidgetService_20240101", name))
    return spec_file(tmp, paths, schemas, "Widget Service")


def test_aws_actions_become_crud_tools_on_their_resources(tmp_path):
    result = imported(tmp_path, aws_spec(tmp_path))
    ops = ops_by_label(result)
    kind = {re.sub(r".*\.", "", label): o.kind for label, o in ops.items()}
    assert kind["DescribeProject"] == "get" and kind["DescribeWidget"] == "get"
    assert kind["ListProjects"] == "list" and kind["ListWidgets"] == "list"
    assert kind["CreateProject"] == "create" and kind["CreateWidget"] == "create"
    assert kind["UpdateWidget"] == "update"
    assert kind["DeleteProject"] == "delete" and kind["DeleteWidget"] == "delete"
    assert result.tables == 2
    # the report keeps the spec's own operation, and says what it was read as
    assert all(label.startswith("POST /#X-Amz-Target=WidgetService_20240101.") for label in ops)
    get = ops["POST /#X-Amz-Target=WidgetService_20240101.DescribeWidget"]
    assert "an AWS RPC action read as GET /widgets/{WidgetArn}" in get.why
    assert "(the widget in its Widget)" in get.why
    text = result.files[next(f for f in result.files if f != result.world_file)]
    assert "// an AWS RPC action read as GET /widgets/{WidgetArn}" in text
    assert re.search(r"tool describe_widget\(widget_arn: WidgetId\)", text)
    # the record is named after the noun, not after the operation's response schema
    assert re.search(r"record Project\b", text) and "DescribeProject" not in re.findall(r"record (\w+)", text)


def test_an_aws_query_action_taken_both_ways_is_one_tool(tmp_path):
    """AWS's query protocol (EC2, IAM, RDS: 19 specs, 1,652 actions) takes each action as a GET
    and as a POST of the same parameters, `operationId`s `GET_AttachVolume` and
    `POST_AttachVolume`: two tools of one description that did two things (an answered GET, a
    recorded POST), a trap for a player whichever a task used. One tool, named for the action;
    the GET is skipped and says why."""
    s = {"type": "string"}
    schemas = {
        "AttachVolumeRequest": {"type": "object", "required": ["VolumeId", "InstanceId"], "properties": {"VolumeId": s, "InstanceId": s, "Device": s}},
        "AttachVolumeResult": {"type": "object", "properties": {"State": s}},
    }

    def op(method: str, where: str) -> dict:
        out = {"x-aws-operation-name": "AttachVolume", "operationId": f"{method}_AttachVolume", "description": "Attaches a volume to an instance.", "responses": ok_with(ref("AttachVolumeResult"))}
        if where == "query":
            out["parameters"] = [{"name": n, "in": "query", "required": n != "Device", "schema": s} for n in ("VolumeId", "InstanceId", "Device")]
        else:
            out["requestBody"] = {"content": {"text/xml": {"schema": ref("AttachVolumeRequest")}}}
        return out

    result = imported(tmp_path, spec_file(tmp_path, {"/#Action=AttachVolume": {"get": op("GET", "query"), "post": op("POST", "body")}}, schemas, "Volume Service"))
    text = "".join(result.files.values())
    assert len(re.findall(r"tool attach_volume\(", text)) == 1 and "get_attach_volume" not in text and "post_attach_volume" not in text, text
    skipped = [o for o in result.ops if o.kind == "skipped"]
    assert [o.label for o in skipped] == ["GET /#Action=AttachVolume"] and "the query protocol takes an action both ways" in skipped[0].why


def test_a_describe_that_answers_a_page_reads_its_element_and_a_create_names_the_row(tmp_path):
    """MemoryDB's `DescribeClusters {ClusterName}` answers `{NextToken, Clusters: [Cluster]}`:
    read as a get, its record was that page ("known by next token", the clusters as JSON text)
    and every create and update "set no field of the cluster record". The item is the page's
    element; and `CreateCluster {ClusterName, ...}` creates the row under the name it gives."""
    s = {"type": "string"}
    schemas = {
        "Cluster": {"type": "object", "properties": {"Name": s, "Description": s, "Status": s, "NodeType": s, "ARN": s}},
        "ClusterList": {"type": "array", "items": ref("Cluster")},
        "DescribeClustersRequest": {"type": "object", "properties": {"ClusterName": s, "MaxResults": {"type": "integer"}, "NextToken": s}},
        "DescribeClustersResponse": {"type": "object", "properties": {"NextToken": s, "Clusters": ref("ClusterList")}},
        "CreateClusterRequest": {"type": "object", "required": ["ClusterName", "NodeType"], "properties": {"ClusterName": s, "NodeType": s, "Description": s}},
        "CreateClusterResponse": {"type": "object", "properties": {"Cluster": ref("Cluster")}},
        "DeleteClusterRequest": {"type": "object", "required": ["ClusterName"], "properties": {"ClusterName": s}},
        "DeleteClusterResponse": {"type": "object", "properties": {"Cluster": ref("Cluster")}},
    }
    paths = {}
    for name in ("DescribeClusters", "CreateCluster", "DeleteCluster"):
        paths.update(aws_action("AmazonMemoryDB", name))
    result = imported(tmp_path, spec_file(tmp_path, paths, schemas, "MemoryDB"))
    kind = {re.sub(r".*\.", "", label): o.kind for label, o in ops_by_label(result).items()}
    assert kind == {"DescribeClusters": "get", "CreateCluster": "create", "DeleteCluster": "delete"}, kind
    text = result.files[next(f for f in result.files if f != result.world_file)]
    record = re.search(r"record Cluster\b[^{]*\{(.*?)\n  \}", text, re.S).group(1)
    assert "node_type" in record and "next_token" not in record, record
    assert re.search(r"tool create_cluster\(node_type: text[^)]*, name: ClusterId[,)]", text), text
    assert "require not name in clusters else conflict" in text


def test_aws_actions_of_other_verbs_stay_actions_on_the_item(tmp_path):
    result = imported(tmp_path, aws_spec(tmp_path))
    ops = ops_by_label(result)
    start = ops["POST /#X-Amz-Target=WidgetService_20240101.StartWidget"]
    assert start.kind not in CRUD  # no effect is invented for `start`
    assert "read as POST /widgets/{WidgetArn}/:start" in start.why
    assert start.tool.split(".")[0] == ops["POST /#X-Amz-Target=WidgetService_20240101.DescribeWidget"].tool.split(".")[0]
    # `GetWidgetPolicy(WidgetArn)`: no field names a policy; the widget holds it, and a get reads
    policy = ops["POST /#X-Amz-Target=WidgetService_20240101.GetWidgetPolicy"]
    assert "read as GET /widgets/{WidgetArn}/:get_policy" in policy.why


def test_aws_list_wrapped_in_an_allof_is_a_list(tmp_path):
    """`ProjectSummaries: {allOf: [{$ref: ProjectSummaryList}, {description}]}`: AWS describes every
    property so; the list is still a list of objects with the key."""
    result = imported(tmp_path, aws_spec(tmp_path))
    o = ops_by_label(result)["POST /#X-Amz-Target=WidgetService_20240101.ListProjects"]
    assert o.kind == "list", o.why


def test_fields_named_by_a_key_or_an_arn_refer_to_their_resource(tmp_path):
    """`ProjectArn` on a widget, where projects are keyed by `ProjectArn`; `sinkArn` on a link,
    where sinks are keyed by `id`: both hold the other resource's key, as `project_id` would."""
    text = next(v for k, v in imported(tmp_path, aws_spec(tmp_path)).files.items() if "\nservice " in v)
    assert re.search(r"\n    project_arn: ProjectId", text), text
    s = {"type": "string"}
    item = lambda props: {"get": {"parameters": [{"name": "id", "in": "path", "required": True, "schema": s}], "responses": ok_with({"type": "object", "properties": props})}}  # noqa: E731
    paths = {"/sinks/{id}": item({"id": s, "name": s}), "/links/{id}": item({"id": s, "label": s, "sinkArn": s})}
    (tmp_path / "rest").mkdir()
    result = imported(tmp_path / "rest", spec_file(tmp_path / "rest", paths))
    text = next(v for k, v in result.files.items() if "\nservice " in v)
    assert re.search(r"\n    sink_arn: SinkId", text), text


def test_aws_world_samples_a_three_hop_task(tmp_path):
    from compoworld_dsl.sample.run import Job, run

    result = imported(tmp_path, aws_spec(tmp_path))
    rep = run(Job(str(tmp_path / "out" / result.world_file), 3, 1, 1, max_attempts=40), tmp_path / "t.jsonl")
    assert rep.emitted == 1, rep.rejected.most_common(3)


# ─────────────────────────── Google resource names ───────────────────────────


def google_op(op_id: str, response: str | None = None, body: str | None = None, params: tuple = ()) -> dict:
    op: dict = {"operationId": op_id, "parameters": [{"name": p, "in": "path", "required": True, "schema": {"type": "string"}} for p in params]}
    op["parameters"] += [{"name": "key", "in": "query", "schema": {"type": "string"}}, {"name": "pageToken", "in": "query", "schema": {"type": "string"}}]
    if body:
        op["requestBody"] = json_body(ref(body))
    op["responses"] = ok_with(ref(response)) if response else {"200": {"description": "ok"}}
    return op


def keep_spec(tmp: Path) -> Path:
    s = {"type": "string"}
    schemas = {
        "Note": {"type": "object", "properties": {"name": s, "title": s, "createTime": {"type": "string", "format": "date-time"}, "trashed": {"type": "boolean"}}},
        "ListNotesResponse": {"type": "object", "properties": {"notes": {"type": "array", "items": ref("Note")}, "nextPageToken": s}},
        "Attachment": {"type": "object", "properties": {"name": s, "mimeType": s}},
        "ListAttachmentsResponse": {"type": "object", "properties": {"attachments": {"type": "array", "items": ref("Attachment")}}},
        "Empty": {"type": "object", "properties": {}},
    }
    paths = {
        "/v1/notes": {"get": google_op("keep.notes.list", "ListNotesResponse"), "post": google_op("keep.notes.create", "Note", body="Note")},
        "/v1/{name}": {
            "get": google_op("keep.notes.get", "Note", params=("name",)),
            "delete": google_op("keep.notes.delete", "Empty", params=("name",)),
            "patch": google_op("keep.notes.patch", "Note", body="Note", params=("name",)),
        },
        "/v1/{name}:archive": {"post": google_op("keep.notes.archive", "Note", params=("name",))},
        "/v1/{parent}/attachments": {"get": google_op("keep.notes.attachments.list", "ListAttachmentsResponse", params=("parent",))},
    }
    return spec_file(tmp, paths, schemas, "Google Keep API")


def test_google_resource_names_read_as_rest(tmp_path):
    result = imported(tmp_path, keep_spec(tmp_path))
    ops = ops_by_label(result)
    assert ops["GET /v1/notes"].kind == "list" and ops["POST /v1/notes"].kind == "create"
    assert ops["GET /v1/{name}"].kind == "get" and ops["DELETE /v1/{name}"].kind == "delete"
    assert ops["PATCH /v1/{name}"].kind == "update"
    assert "a Google resource-name path read as GET /v1/notes/{name}" in ops["GET /v1/{name}"].why
    archive = ops["POST /v1/{name}:archive"]
    assert archive.kind not in CRUD and "read as POST /v1/notes/{name}/:archive" in archive.why
    assert archive.tool.split(".")[0] == ops["GET /v1/{name}"].tool.split(".")[0]  # an action on one note
    # a parent the operation id names (`keep.notes.attachments.list`), a collection the API
    # lists: the attachments are listed under their note (the path the id spells, nothing made up)
    assert "read as GET /v1/notes/{parent}/attachments" in ops["GET /v1/{parent}/attachments"].why
    assert "{key}" not in json.dumps([o.why for o in result.ops])  # the API key is never an item's key


def test_a_google_parent_the_id_names_is_a_row_of_that_collection(tmp_path):
    """Cloud Billing: `skuGroups.skus.list` on `/v1beta/{parent}/skus` lists the SKUs of one SKU
    group (the API lists SKU groups), so a walk goes group → its SKUs; `projects.locations.jobs.list`
    on `{parent}` names a location no method lists, and stays a list of every job. Google's
    package prefix leaves the names (`GoogleCloudBillingSkugroupskusV1betaSkuGroupSku` is a SKU
    group SKU)."""
    s = {"type": "string"}
    group, sku, job = "GoogleCloudBillingSkugroupsV1betaSkuGroup", "GoogleCloudBillingSkugroupskusV1betaSkuGroupSku", "GoogleCloudTranscoderV1Job"
    schemas = {
        group: {"type": "object", "properties": {"name": s, "displayName": s}},
        sku: {"type": "object", "properties": {"name": s, "displayName": s, "skuId": s}},
        job: {"type": "object", "properties": {"name": s, "inputUri": s}},
        "Price": {"type": "object", "properties": {"name": s, "currencyCode": s}},
        "Groups": {"type": "object", "properties": {"skuGroups": {"type": "array", "items": ref(group)}, "nextPageToken": s}},
        "Skus": {"type": "object", "properties": {"skuGroupSkus": {"type": "array", "items": ref(sku)}, "nextPageToken": s}},
        "Jobs": {"type": "object", "properties": {"jobs": {"type": "array", "items": ref(job)}, "nextPageToken": s}},
    }
    paths = {
        "/v1beta/skuGroups": {"get": google_op("cloudbilling.skuGroups.list", "Groups")},
        # a resource-name path (the real spec's `skus.price.get`): list rows are keyed by their names
        "/v1beta/{name}": {"get": google_op("cloudbilling.skus.price.get", "Price", params=("name",))},
        "/v1beta/{parent}/skus": {"get": google_op("cloudbilling.skuGroups.skus.list", "Skus", params=("parent",))},
        "/v1beta/{parent}/jobs": {"get": google_op("cloudbilling.projects.locations.jobs.list", "Jobs", params=("parent",))},
    }
    result = imported(tmp_path, spec_file(tmp_path, paths, schemas, "Cloud Billing API"))
    ops = ops_by_label(result)
    assert "read as GET /v1beta/skuGroups/{parent}/skus" in ops["GET /v1beta/{parent}/skus"].why, ops["GET /v1beta/{parent}/skus"].why
    assert "read as GET /v1beta/jobs" in ops["GET /v1beta/{parent}/jobs"].why, ops["GET /v1beta/{parent}/jobs"].why
    text = "\n".join(result.files.values())
    assert re.search(r"tool sku_groups_skus_list\(parent: SkuGroupId\) -> list\[SkuGroupSku\]", text), text
    assert "record SkuGroupSku " in text and "record SkuGroup " in text and "google cloud" not in text.lower(), text


def devices_spec(name_text: str = "The name of the device in the form enterprises/{enterpriseId}/devices/{deviceId}.", item_paths: bool = True) -> dict:
    """Android Management's shape: the devices are listed under `{parent}` and have no get of their
    own (the spec's one `GET /v1/{name}` is another resource's get), but a custom method takes a
    device's `{name}`."""
    s = {"type": "string"}
    schemas = {
        "Device": {"type": "object", "properties": {"name": {"type": "string", "description": name_text}, "userName": s, "state": {"type": "string", "enum": ["ACTIVE", "DISABLED", "LOST"]}, "enrollmentTime": {"type": "string", "format": "date-time"}}},
        "ListDevicesResponse": {"type": "object", "properties": {"devices": {"type": "array", "items": ref("Device")}, "nextPageToken": s}},
        "ProvisioningInfo": {"type": "object", "properties": {"name": s, "brand": s, "model": s}},
        "Command": {"type": "object", "properties": {"type": {"type": "string", "enum": ["LOCK", "REBOOT"]}, "duration": s}},
    }
    paths = {"/v1/{parent}/devices": {"get": google_op("androidmanagement.enterprises.devices.list", "ListDevicesResponse", params=("parent",))}}
    if item_paths:
        paths["/v1/{name}"] = {"get": google_op("androidmanagement.provisioningInfo.get", "ProvisioningInfo", params=("name",))}
        paths["/v1/{name}:issueCommand"] = {"post": google_op("androidmanagement.enterprises.devices.issueCommand", "Command", body="Command", params=("name",))}
    return {"openapi": "3.0.0", "info": {"title": "Android Management API", "version": "v1"}, "paths": paths, "components": {"schemas": schemas}}


def test_a_google_list_with_no_get_is_a_table_keyed_by_resource_name(tmp_path):
    from import_specs import run, world_of

    result, ops, model, wf = run(tmp_path, devices_spec())
    assert ops["GET /v1/{parent}/devices"][0] == "list", ops
    command = ops["POST /v1/{name}:issueCommand"]
    assert command[0] != "simulated" and "read as POST /v1/devices/{name}/:issueCommand" in command[1], command
    devices = next(r for r in model.tools() if r.name.endswith("devices_list"))
    issue = next(r for r in model.tools() if r.name.endswith("issue_command"))
    assert devices.service == issue.service  # the command works on one of the listed devices
    w, st = world_of(model, wf)
    rows = st.tables[f"{devices.service}.devices"]
    assert rows and all(r["name"] == k for k, r in rows.items())  # keyed by its resource name
    listed = w.call(st, devices.qualified, {})
    assert listed["success"] and {d["name"] for d in listed["data"]} == set(rows)
    one = listed["data"][0]["name"]
    got = w.call(st, issue.qualified, {"name": one, "type": "lock", "duration": "600s"})
    assert got["success"], got
    missing = w.call(st, issue.qualified, {"name": "enterprises/none/devices/none", "type": "lock", "duration": "600s"})
    assert missing["error"]["code"] == 404, missing


def test_a_listed_name_reaches_the_call_that_takes_it_in_a_three_hop_task(tmp_path):
    from compoworld_dsl.sample.run import Job, run as sample
    from import_specs import run, world_of

    result, ops, model, wf = run(tmp_path, devices_spec())
    rep = sample(Job(str(wf), 3, 1, 1, max_attempts=40), tmp_path / "t.jsonl")
    assert rep.emitted == 1, rep.rejected.most_common(3)
    task = json.loads((tmp_path / "t.jsonl").read_text())
    plan = task["reference_plan"]
    w, _ = world_of(model, wf)
    st = w.initial_state(task["initial_state"]["seed"])  # the task's own state
    names = {k for t, rows in st.tables.items() if t.endswith("devices") for k in rows}
    steps = [(s["tool"].split(".")[-1], s.get("args", s.get("arguments", {}))) for s in plan]
    assert steps[0][0].endswith("devices_list"), steps
    assert any(tool.endswith("issue_command") and args.get("name") in names for tool, args in steps[1:]), steps


def test_a_name_the_spec_calls_a_resource_name_keys_a_table_with_no_name_paths(tmp_path):
    from import_specs import run

    result, ops, model, wf = run(tmp_path, devices_spec(name_text="Output only. The resource name of the device. Format: `enterprises/{enterpriseId}/devices/{deviceId}`.", item_paths=False))
    assert ops["GET /v1/{parent}/devices"][0] == "list", ops
    assert result.tables == 1 and "keyed by their resource name (name)" in "\n".join(result.files.values())


@pytest.mark.parametrize("why", ["a label", "a list of names", "a name after a collection"])
def test_a_name_that_is_a_label_or_alone_keys_no_table(tmp_path, why):
    from import_specs import pparam, run

    if why == "a label":  # no `{name}` path and no resource name in its description: a display name
        doc = devices_spec(name_text="The device's name as its user calls it.", item_paths=False)
    elif why == "a name after a collection":  # CircleCI: `/envvar/{name}` keys env vars, not the listed tests
        doc = devices_spec(name_text="The test's name.", item_paths=False)
        doc["paths"]["/project/{project}/envvar/{name}"] = {"delete": {"parameters": [pparam("project"), pparam("name")], "responses": {"204": {"description": "gone"}}}}
    else:  # objects with nothing but a name: a list of names, not of records
        doc = devices_spec()
        doc["components"]["schemas"]["Device"]["properties"] = {"name": {"type": "string", "description": "The name of the device in the form enterprises/{e}/devices/{d}."}}
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /v1/{parent}/devices"][0] == "answered", ops  # no device table: the world model's seeded answers
    assert result.tables == (1 if "/v1/{name}" in doc["paths"] else 0)  # provisioning infos, no devices
    assert "keyed by their resource name" not in "\n".join(result.files.values())


def test_a_google_api_section_before_the_name_is_no_collection(tmp_path):
    """Pub/Sub Lite puts a section of the API between the version and the name
    (`/v1/admin/{name}`, `pubsublite.admin.projects.locations.topics.get`): the topics are a
    table of their own, read as `/v1/admin/topics/{name}`, not rows of an "admin" collection
    that the operations' cancel and the subscriptions' seek acted on too."""
    s = {"type": "string"}
    schemas = {
        "Topic": {"type": "object", "properties": {"name": s, "partitionCount": {"type": "integer"}}},
        "ListTopicsResponse": {"type": "object", "properties": {"topics": {"type": "array", "items": ref("Topic")}}},
        "Empty": {"type": "object", "properties": {}},
    }
    paths = {
        "/v1/admin/{parent}/topics": {"get": google_op("pubsublite.admin.projects.locations.topics.list", "ListTopicsResponse", params=("parent",))},
        "/v1/admin/{name}": {
            "get": google_op("pubsublite.admin.projects.locations.topics.get", "Topic", params=("name",)),
            "delete": google_op("pubsublite.admin.projects.locations.topics.delete", "Empty", params=("name",)),
        },
        "/v1/admin/{name}:cancel": {"post": google_op("pubsublite.admin.projects.locations.operations.cancel", "Empty", params=("name",))},
    }
    result = imported(tmp_path, spec_file(tmp_path, paths, schemas, "Pub/Sub Lite API"))
    ops = ops_by_label(result)
    assert ops["GET /v1/admin/{name}"].kind == "get" and "read as GET /v1/admin/topics/{name}" in ops["GET /v1/admin/{name}"].why
    assert ops["GET /v1/admin/{parent}/topics"].kind == "list"
    cancel = ops["POST /v1/admin/{name}:cancel"]
    assert "operations" in cancel.why and cancel.tool.split(".")[0] != ops["GET /v1/admin/{name}"].tool.split(".")[0]  # not a topic's


def test_google_rest_paths_stay_as_they_are(tmp_path):
    s = {"type": "string"}
    schemas = {"Event": {"type": "object", "properties": {"id": s, "summary": s}}, "Events": {"type": "object", "properties": {"items": {"type": "array", "items": ref("Event")}}}}
    paths = {
        "/calendars/{calendarId}/events": {"get": google_op("calendar.events.list", "Events", params=("calendarId",))},
        "/calendars/{calendarId}/events/{eventId}": {"get": google_op("calendar.events.get", "Event", params=("calendarId", "eventId"))},
    }
    result = imported(tmp_path, spec_file(tmp_path, paths, schemas, "Calendar API"))
    assert all(not o.why for o in result.ops if o.kind in CRUD), [o.why for o in result.ops]
    assert {o.kind for o in result.ops} == {"get", "list"}


def test_a_custom_method_of_a_collection_names_no_item(tmp_path):
    """Authorized Buyers' `POST /v1/{buyer}/proposals:sendRfp` works on a buyer's proposals: the
    `{buyer}` before the collection is its parent (as `{parent}` is), never a proposal's key."""
    paths = {
        "/v1/{parent}/proposals": {"get": google_op("market.buyers.proposals.list", "ListProposalsResponse", params=("parent",))},
        "/v1/{name}": {"get": google_op("market.buyers.proposals.get", "Proposal", params=("name",))},
        "/v1/{name}:accept": {"post": google_op("market.buyers.proposals.accept", "Proposal", params=("name",))},
        "/v1/{buyer}/proposals:sendRfp": {"post": google_op("market.buyers.proposals.sendRfp", "Proposal", body="Rfp", params=("buyer",))},
    }
    s = {"type": "string"}
    schemas = {
        "Proposal": {"type": "object", "properties": {"name": s, "displayName": s, "state": {"type": "string", "enum": ["BUYER_ACCEPTANCE_REQUESTED", "FINALIZED"]}}},
        "ListProposalsResponse": {"type": "object", "properties": {"proposals": {"type": "array", "items": ref("Proposal")}, "nextPageToken": s}},
        "Rfp": {"type": "object", "properties": {"displayName": s, "client": s}},
    }
    ops = ops_by_label(imported(tmp_path, spec_file(tmp_path, paths, schemas, "Marketplace API")))
    assert "read as POST /v1/proposals/{name}/:accept" in ops["POST /v1/{name}:accept"].why  # an item's custom method still names it
    rfp = ops["POST /v1/{buyer}/proposals:sendRfp"]
    assert "read as POST /v1/buyers/{buyer}/proposals/:sendRfp" in rfp.why, rfp.why
    assert "/proposals/{buyer}" not in rfp.why and "an action on one proposal" not in rfp.why


def query_spec(tmp: Path) -> Path:
    """Azure Machine Learning's run history: its experiments and runs are listed only by posted
    queries on the collections (`experiments:query`, `runs:query`), and an experiment is got by
    its name or by its id (two tables of one schema)."""
    s = {"type": "string"}
    when = {"type": "string", "format": "date-time"}
    p = lambda name: {"name": name, "in": "path", "required": True, "schema": s}  # noqa: E731
    query = json_body({"type": "object", "properties": {"filter": s, "orderBy": s, "top": {"type": "integer"}, "continuationToken": s}})
    schemas = {
        "Experiment": {"type": "object", "properties": {"experimentId": s, "name": s, "description": s, "createdUtc": when}},
        "Run": {"type": "object", "properties": {"runId": s, "name": s, "status": s, "startTimeUtc": when, "experimentId": s}},
        "PaginatedExperimentList": {"type": "object", "properties": {"value": {"type": "array", "items": ref("Experiment")}, "continuationToken": s, "nextLink": s}},
        "PaginatedRunList": {"type": "object", "properties": {"value": {"type": "array", "items": ref("Run")}, "continuationToken": s, "nextLink": s}},
        "Artifact": {"type": "object", "properties": {"artifactId": s, "path": s, "origin": s, "createdTime": when}},
        "PaginatedArtifactList": {"type": "object", "properties": {"value": {"type": "array", "items": ref("Artifact")}, "continuationToken": s}},
    }
    w = "/workspaces/{workspaceName}"
    paths = {
        f"{w}/experiments/{{experimentName}}": {"get": {"operationId": "Experiments_Get", "parameters": [p("workspaceName"), p("experimentName")], "responses": ok_with(ref("Experiment"))}},
        # the same experiments by their ids: a schema two resources share, which no answered read names
        f"{w}/experimentids/{{experimentId}}": {"get": {"operationId": "Experiments_GetById", "parameters": [p("workspaceName"), p("experimentId")], "responses": ok_with(ref("Experiment"))}},
        f"{w}/experiments:query": {"post": {"operationId": "Experiments_GetByQuery", "parameters": [p("workspaceName")], "requestBody": query, "responses": ok_with(ref("PaginatedExperimentList"))}},
        f"{w}/experiments:archive": {"post": {"operationId": "Experiments_Archive", "parameters": [p("workspaceName")], "requestBody": query, "responses": {"200": {"description": "ok"}}}},
        f"{w}/experiments/{{experimentName}}/runs/{{runId}}": {"get": {"operationId": "Runs_Get", "parameters": [p("workspaceName"), p("experimentName"), p("runId")], "responses": ok_with(ref("Run"))}},
        f"{w}/experiments/{{experimentName}}/runs:query": {"post": {"operationId": "Runs_GetByQuery", "parameters": [p("workspaceName"), p("experimentName")], "requestBody": query, "responses": ok_with(ref("PaginatedRunList"))}},
        f"{w}/experiments/{{experimentName}}/runs/{{runId}}/artifacts": {"get": {"operationId": "RunArtifacts_List", "parameters": [p("workspaceName"), p("experimentName"), p("runId")], "responses": ok_with(ref("PaginatedArtifactList"))}},
        f"{w}/experiments/{{experimentName}}/runs/{{runId}}/artifacts/{{artifactId}}": {"get": {"operationId": "RunArtifacts_Get", "parameters": [p("workspaceName"), p("experimentName"), p("runId"), p("artifactId")], "responses": ok_with(ref("Artifact"))}},
    }
    return spec_file(tmp, paths, schemas, "Run History API")


def test_a_query_method_of_a_collection_lists_it(tmp_path):
    """`POST .../experiments:query` is the list of the experiments (its body's fields are the
    list's query parameters), so a walk can start there: without it no tool took no key, and the
    run history's five tables gave no task (`no tool can follow step 0`). A custom method whose
    verb is no list's (`experiments:archive`) is not read as one."""
    result = imported(tmp_path, query_spec(tmp_path))
    ops = ops_by_label(result)
    exp = ops["POST /workspaces/{workspaceName}/experiments:query"]
    assert exp.kind == "list", exp.why
    assert "a custom method of a collection read as GET /workspaces/{workspaceName}/experiments (its body's fields as query parameters)" in exp.why
    runs = ops["POST /workspaces/{workspaceName}/experiments/{experimentName}/runs:query"]
    assert runs.kind == "list" and "read as GET /workspaces/{workspaceName}/experiments/{experimentName}/runs" in runs.why, runs.why
    assert ops["POST /workspaces/{workspaceName}/experiments:archive"].kind != "list"
    assert "custom method" not in ops["POST /workspaces/{workspaceName}/experiments:archive"].why
    text = "\n".join(result.files.values())
    assert "tool experiments_get_by_query(workspace_name: text) -> list[WorkspaceExperiment]" in text
    assert "tool runs_get_by_query(workspace_name: text, experiment_name: WorkspaceExperimentId) -> list[Run]" in text


def test_a_query_method_of_a_collection_gives_a_three_hop_task(tmp_path):
    from compoworld_dsl.sample.run import Job, run

    result = imported(tmp_path, query_spec(tmp_path))
    rep = run(Job(str(tmp_path / "out" / result.world_file), 3, 1, 1, max_attempts=40), tmp_path / "t.jsonl")
    assert rep.emitted == 1, rep.rejected.most_common(3)


# ─────────────────────────── generic RPC paths ───────────────────────────


def rpc_spec(tmp: Path) -> Path:
    s = {"type": "string"}
    schemas = {
        "User": {"type": "object", "properties": {"id": s, "name": s, "email": s, "team_id": s}},
        "Team": {"type": "object", "properties": {"teamId": s, "teamName": s}},
    }
    q = lambda name, req=False: {"name": name, "in": "query", "required": req, "schema": {"type": "string"}}  # noqa: E731
    paths = {
        # Slack's style: noun.method
        "/users.create": {"post": {"requestBody": json_body({"type": "object", "required": ["name"], "properties": {"name": s, "email": s}}), "responses": ok_with({"type": "object", "properties": {"ok": {"type": "boolean"}, "user": ref("User")}})}},
        "/users.list": {"get": {"responses": ok_with({"type": "object", "properties": {"ok": {"type": "boolean"}, "members": {"type": "array", "items": ref("User")}}})}},
        "/users.info": {"get": {"parameters": [q("user", True)], "responses": ok_with({"type": "object", "properties": {"ok": {"type": "boolean"}, "user": ref("User")}})}},
        "/users.delete": {"post": {"requestBody": json_body({"type": "object", "required": ["user"], "properties": {"user": s}}), "responses": ok_with({"type": "object", "properties": {"ok": {"type": "boolean"}}})}},
        # verbNoun paths
        "/createTeam": {"post": {"requestBody": json_body({"type": "object", "required": ["teamName"], "properties": {"teamName": s}}), "responses": ok_with(ref("Team"))}},
        "/getTeam": {"get": {"parameters": [q("teamId", True)], "responses": ok_with(ref("Team"))}},
        "/listTeams": {"get": {"responses": ok_with({"type": "array", "items": ref("Team")})}},
        "/deleteTeam": {"post": {"requestBody": json_body({"type": "object", "required": ["teamId"], "properties": {"teamId": s}}), "responses": {"200": {"description": "ok"}}}},
    }
    return spec_file(tmp, paths, schemas, "Chat API")


def test_generic_rpc_paths_read_as_rest(tmp_path):
    result = imported(tmp_path, rpc_spec(tmp_path))
    ops = ops_by_label(result)
    assert ops["POST /users.create"].kind == "create" and ops["GET /users.list"].kind == "list"
    assert ops["GET /users.info"].kind == "get" and ops["POST /users.delete"].kind == "delete"
    assert "an RPC-style path read as DELETE /users/{user}" in ops["POST /users.delete"].why
    assert ops["POST /createTeam"].kind == "create" and ops["GET /getTeam"].kind == "get"
    assert ops["GET /listTeams"].kind == "list" and ops["POST /deleteTeam"].kind == "delete"
    assert "read as GET /teams/{teamId}" in ops["GET /getTeam"].why
    assert result.tables == 2


def test_bare_verb_after_a_noun_or_an_item(tmp_path):
    s = {"type": "string"}
    schemas = {"Project": {"type": "object", "properties": {"id": s, "title": s}}}
    paths = {
        "/project/create": {"post": {"requestBody": json_body({"type": "object", "required": ["title"], "properties": {"title": s}}), "responses": ok_with(ref("Project"))}},
        "/project/list": {"get": {"responses": ok_with({"type": "array", "items": ref("Project")})}},
        "/project/get": {"get": {"parameters": [{"name": "id", "in": "query", "required": True, "schema": s}], "responses": ok_with(ref("Project"))}},
        "/project/{id}/delete": {"post": {"parameters": [{"name": "id", "in": "path", "required": True, "schema": s}], "responses": {"200": {"description": "ok"}}}},
    }
    result = imported(tmp_path, spec_file(tmp_path, paths, schemas))
    ops = ops_by_label(result)
    assert [ops[k].kind for k in ("POST /project/create", "GET /project/list", "GET /project/get", "POST /project/{id}/delete")] == ["create", "list", "get", "delete"]
    assert "read as DELETE /project/{id}" in ops["POST /project/{id}/delete"].why


def test_a_view_word_or_all_as_the_method_of_an_rpc_path(tmp_path):
    # envoice's style: `GET /api/client/details?id=`, `GET /api/client/all`, `POST /api/client/update`
    s = {"type": "string"}
    client = {"type": "object", "properties": {"Id": {"type": "integer"}, "Name": s, "Email": s}}
    q = {"name": "id", "in": "query", "required": True, "schema": {"type": "integer"}}
    paths = {
        "/api/client/all": {"get": {"responses": ok_with({"type": "array", "items": ref("Client")})}},
        "/api/client/details": {"get": {"parameters": [q], "responses": ok_with(ref("Client"))}},
        "/api/client/update": {"post": {"requestBody": json_body(ref("Client")), "responses": {"200": {"description": "ok"}}}},
        "/api/client/delete": {"post": {"requestBody": json_body({"type": "object", "required": ["Id"], "properties": {"Id": {"type": "integer"}}}), "responses": {"200": {"description": "ok"}}}},
        # REST's own details view of an item stays what it was
        "/api/teams/{teamId}/details": {"get": {"parameters": [{"name": "teamId", "in": "path", "required": True, "schema": s}], "responses": ok_with({"type": "object", "properties": {"teamId": s, "title": s}})}},
    }
    result = imported(tmp_path, spec_file(tmp_path, paths, {"Client": client}))
    ops = ops_by_label(result)
    assert [ops[k].kind for k in ("GET /api/client/all", "GET /api/client/details", "POST /api/client/update", "POST /api/client/delete")] == ["list", "get", "update", "delete"]
    assert "read as GET /api/client/{id}" in ops["GET /api/client/details"].why
    assert ops["GET /api/teams/{teamId}/details"].kind == "get" and not ops["GET /api/teams/{teamId}/details"].why.startswith("an RPC")


def test_rest_shapes_that_look_like_verbs_are_left_alone(tmp_path):
    """A GET named like a create (`/browse/new-releases`), a PATCH called `read` (it marks, it does
    not get), a verb on an item the path already names, and a body field that is a value
    (`status`), not a key, are not read as RPC."""
    s = {"type": "string"}
    body = json_body({"type": "object", "required": ["status"], "properties": {"status": s}})
    paths = {
        "/browse/new-releases": {"get": {"responses": ok_with({"type": "object", "properties": {"albums": {"type": "array", "items": {"type": "object", "properties": {"id": s}}}}})}},
        "/comments/{id}/read": {"patch": {"parameters": [{"name": "id", "in": "path", "required": True, "schema": s}], "responses": {"200": {"description": "ok"}}}},
        "/topics/{id}/change-timestamp": {"put": {"parameters": [{"name": "id", "in": "path", "required": True, "schema": s}], "requestBody": json_body({"type": "object", "properties": {"timestamp": s}}), "responses": {"200": {"description": "ok"}}}},
        "/articles/UpdateStatus": {"put": {"requestBody": body, "responses": {"200": {"description": "ok"}}}},
    }
    result = imported(tmp_path, spec_file(tmp_path, paths))
    ops = ops_by_label(result)
    for label in ("GET /browse/new-releases", "PATCH /comments/{id}/read", "PUT /topics/{id}/change-timestamp", "PUT /articles/UpdateStatus"):
        assert "read as" not in ops[label].why, (label, ops[label].why)


# ─────────────────────────── a probe over random RPC-style specs ───────────────────────────

NOUNS = ["widget", "job", "pipeline", "data_set", "alias", "status", "analysis", "policy", "entry", "box", "user_group", "model_package"]
ACTIONS = ["start", "stop", "cancel", "archive", "tag", "restore", "publish"]
VERBS = sorted(CREATE | GET | LIST | UPDATE | DELETE) + ACTIONS


def camel(snake_name: str) -> str:
    return "".join(w.capitalize() for w in snake_name.split("_"))


@st.composite
def rpc_specs(draw):
    ops = draw(st.lists(st.tuples(st.sampled_from(VERBS), st.sampled_from(NOUNS), st.booleans(), st.sampled_from(["Id", "Name", "Arn", ""]), st.booleans()), min_size=1, max_size=8, unique_by=lambda t: (t[0], t[1], t[2])))
    return ops


@settings(max_examples=300 if LONG else 12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(rpc_specs())
def test_probe_random_rpc_specs_import_check_and_read_by_their_verb(tmp_path_factory, ops):
    """Whatever verbs, nouns and key fields an AWS-style spec has, the import checks clean, every
    operation keeps its own label, and each rewritten one takes the method its verb means."""
    tmp = tmp_path_factory.mktemp("rpc")
    s = {"type": "string"}
    schemas, paths = {}, {}
    for verb, noun, many, suffix, required in ops:
        name = camel(verb) + camel(noun) + ("s" if many else "")
        key = camel(noun) + suffix if suffix else "Label"
        item = {"type": "object", "properties": {key: s, "Title": s, "State": {"type": "string", "enum": ["on", "off"]}}}
        schemas[f"{name}Request"] = {"type": "object", "required": [key] if required else [], "properties": {key: s, "Title": s}}
        schemas[f"{name}Response"] = {"type": "object", "properties": {camel(noun) + "s": {"type": "array", "items": item}}} if many else item
        paths.update(aws_action("Svc", name))
    spec = spec_file(tmp, paths, schemas)
    result = imported(tmp, spec)
    assert {o.label for o in result.ops} == {f"POST /#X-Amz-Target=Svc.{camel(v) + camel(n) + ('s' if m else '')}" for v, n, m, _, _ in ops}
    for o in result.ops:
        m = re.search(r"read as (\w+) ", o.why)
        if m is None:
            continue
        verb = re.sub(r"([a-z])([A-Z])", r"\1 \2", o.label.rsplit(".", 1)[1]).split()[0].lower()
        want = "GET" if verb in GET | LIST else "PATCH" if verb in UPDATE else "DELETE" if verb in DELETE else "POST"
        assert m.group(1) == want, (o.label, o.why)
        # (a start whose item the caller may leave unnamed starts a new one: a create, stop 74)
        named = next((req and suf for v, n, m_, suf, req in ops if o.label.endswith("." + camel(v) + camel(n) + ("s" if m_ else ""))), True)
        if verb in ACTIONS and not (verb in ("start", "run", "launch", "submit", "execute") and not named and "/:" not in o.why):
            assert "/:" in o.why and o.kind not in CRUD, (o.label, o.why)  # an action, never an effect


def test_a_page_token_with_a_word_before_it_is_a_page_token():
    """Bungie's `replacementContinuationToken` is a page's place, as `NextToken` is: no answer
    field a task reports (one asked for "the response replacement continuation token of ...")."""
    from compoworld_dsl.importers.ops import page_token

    assert page_token("NextToken") and page_token("replacementContinuationToken") and page_token("next_cursor")
    assert not page_token("accessToken") and not page_token("tokenContinuation")


def test_a_name_key_inside_a_creates_wrapper_names_the_new_row(tmp_path):
    """AWS Budgets keys a budget by its `BudgetName` (`DescribeBudget {AccountId, BudgetName}`)
    and creates one with `CreateBudget {AccountId, Budget: {BudgetName, BudgetLimit, ...}}`. The
    name was left out of the create (the row got a made-up key) and the budget was known by its
    limit ('the budget "548.00"'). The name is the key, what the budget is known by, and what the
    create names the new row with."""
    s = {"type": "string"}
    schemas = {
        "Budget": {"type": "object", "required": ["BudgetName"], "properties": {"BudgetName": s, "BudgetLimit": {"type": "object", "properties": {"Amount": s, "Unit": s}}, "TimeUnit": {"type": "string", "enum": ["DAILY", "MONTHLY"]}}},
        "DescribeBudgetsRequest": {"type": "object", "required": ["AccountId"], "properties": {"AccountId": s}},
        "DescribeBudgetsResponse": {"type": "object", "properties": {"Budgets": {"type": "array", "items": ref("Budget")}}},
        "DescribeBudgetRequest": {"type": "object", "required": ["AccountId", "BudgetName"], "properties": {"AccountId": s, "BudgetName": s}},
        "DescribeBudgetResponse": {"type": "object", "properties": {"Budget": ref("Budget")}},
        "CreateBudgetRequest": {"type": "object", "required": ["AccountId", "Budget"], "properties": {"AccountId": s, "Budget": ref("Budget")}},
        "CreateBudgetResponse": {"type": "object", "properties": {}},
        "DeleteBudgetRequest": {"type": "object", "required": ["AccountId", "BudgetName"], "properties": {"AccountId": s, "BudgetName": s}},
        "DeleteBudgetResponse": {"type": "object", "properties": {}},
    }
    paths = {}
    for name in ("DescribeBudgets", "DescribeBudget", "CreateBudget", "DeleteBudget"):
        paths.update(aws_action("AWSBudgetServiceGateway", name))
    result = imported(tmp_path, spec_file(tmp_path, paths, schemas, "Budgets"))
    text = result.files[next(f for f in result.files if f != result.world_file)]
    assert re.search(r"record Budget known by budget_name \{\n    key budget_name: BudgetId", text), text
    assert re.search(r'seed budgets: [\d.]+ rows distinct by budget_name \{\n    budget_name: pick\(\["Atlas budget"', text), text
    create = re.search(r"tool create_budget\(([^)]*)\)", text)
    assert create and "budget_name: BudgetId" in create.group(1), text
    assert "insert budgets { budget_name: budget_name" in text, text


def test_a_start_whose_item_the_caller_may_leave_unnamed_starts_a_new_one(tmp_path):
    """Step Functions' `StartExecution {stateMachineArn, name?}` runs a state machine as a new
    execution. Read as an action on the execution its optional `name` names, a task deleted an
    execution's state machine and then "started that execution" (a fresh draw, stop 74). A start
    that must name its item (`StopExecution {executionArn}`) is still an action on it."""
    schemas = _start_schemas()
    paths = {}
    for name in ("CreateStateMachine", "ListStateMachines", "DescribeStateMachine", "ListExecutions", "DescribeExecution", "StartExecution", "StopExecution"):
        paths.update(aws_action("AWSStepFunctions", name))
    result = imported(tmp_path, spec_file(tmp_path, paths, schemas, "Step Functions"))
    kind = {re.sub(r".*\.", "", label): o.kind for label, o in ops_by_label(result).items()}
    assert kind["StartExecution"] == "create", kind
    assert kind["StopExecution"] != "create", kind


def _start_schemas() -> dict:
    s = {"type": "string"}
    status = {"type": "string", "enum": ["RUNNING", "SUCCEEDED", "FAILED", "ABORTED"]}
    execution = {"type": "object", "properties": {"executionArn": s, "stateMachineArn": s, "name": s, "status": status}}
    machine = {"type": "object", "properties": {"stateMachineArn": s, "name": s, "definition": s}}
    return {
        "CreateStateMachineRequest": {"type": "object", "required": ["name", "definition"], "properties": {"name": s, "definition": s}},
        "CreateStateMachineResponse": {"type": "object", "properties": {"stateMachineArn": s}},
        "ListStateMachinesRequest": {"type": "object", "properties": {"nextToken": s}},
        "ListStateMachinesResponse": {"type": "object", "properties": {"stateMachines": {"type": "array", "items": machine}, "nextToken": s}},
        "DescribeStateMachineRequest": {"type": "object", "required": ["stateMachineArn"], "properties": {"stateMachineArn": s}},
        "DescribeStateMachineResponse": machine,
        "ListExecutionsRequest": {"type": "object", "properties": {"stateMachineArn": s, "nextToken": s}},
        "ListExecutionsResponse": {"type": "object", "properties": {"executions": {"type": "array", "items": execution}, "nextToken": s}},
        "DescribeExecutionRequest": {"type": "object", "required": ["executionArn"], "properties": {"executionArn": s}},
        "DescribeExecutionResponse": execution,
        "StartExecutionRequest": {"type": "object", "required": ["stateMachineArn"], "properties": {"stateMachineArn": s, "name": s, "input": s}},
        "StartExecutionResponse": {"type": "object", "properties": {"executionArn": s, "startDate": {"type": "string", "format": "date-time"}}},
        "StopExecutionRequest": {"type": "object", "required": ["executionArn"], "properties": {"executionArn": s, "cause": s}},
        "StopExecutionResponse": {"type": "object", "properties": {"stopDate": {"type": "string", "format": "date-time"}}},
    }
