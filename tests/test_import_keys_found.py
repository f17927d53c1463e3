"""Keys and rows the importer finds where a spec names them loosely (issue 30, D62): an RPC path
whose one id-like field names the item, answers that share a key's values, summaries with a value
of their own, keys named by the noun's last words, object variants, one-value enums that are
examples. Each test is a spec shape a corpus spec had, and what a person reading it would see."""

from __future__ import annotations

import json

import compoworld_dsl.sample.walk as walk
from compoworld_dsl.importers.normalize import sole_key
from compoworld_dsl.sample.run import Job, run as sample
from import_specs import arr, body, obj, ok, pparam, ref, run, s, spec


def tool(model, name: str):
    return next(t for t in model.tools() if t.name == name)


def post(op: str, b: dict, resp: dict) -> dict:
    return {"post": {"operationId": op, "requestBody": body(b), "responses": ok(resp)}}


def members_spec(dashboards: bool = True) -> dict:
    """Inspector2's members: `POST /members/get {accountId}` and friends, AWS's REST-JSON style."""
    member = obj({"accountId": s(), "relationshipStatus": s(enum=["ENABLED", "DISABLED", "INVITED"]), "email": s(format="email"), "updatedAt": s(format="date-time")})
    paths = {
        "/members/get": post("GetMember", obj({"accountId": s()}, ["accountId"]), obj({"member": ref("Member")})),
        "/members/list": post("ListMembers", obj({"onlyAssociated": s("boolean")}), obj({"members": arr(ref("Member"))})),
        "/members/associate": post("AssociateMember", obj({"accountId": s()}, ["accountId"]), obj({"accountId": s()})),
        "/members/disassociate": post("DisassociateMember", obj({"accountId": s()}, ["accountId"]), obj({"accountId": s()})),
    }
    schemas = {"Member": member}
    if dashboards:
        paths |= {
            "/widgets/list": post("ListWidgets", obj({"dashboardId": s()}), obj({"widgets": arr(ref("Widget"))})),
            "/widgets/update": post("UpdateWidget", obj({"dashboardId": s(), "title": s()}, ["dashboardId"]), obj({"widget": ref("Widget")})),
            "/dashboards/get": post("GetDashboard", obj({"dashboardId": s()}, ["dashboardId"]), obj({"dashboard": ref("Dashboard")})),
        }
        schemas |= {"Widget": obj({"widgetId": s(), "dashboardId": s(), "title": s()}), "Dashboard": obj({"dashboardId": s(), "name": s()})}
    return spec(paths, schemas)


def test_an_rpc_get_whose_one_id_like_field_names_the_item_gets_it(tmp_path):
    _, ops, model, _ = run(tmp_path, members_spec())
    # read as a list before (`members` is plural), so no member could be got or acted on
    assert ops["POST /members/get"][0] == "get" and "GET /members/{accountId}" in ops["POST /members/get"][1]
    assert str(dict(tool(model, "get_member").params)["account_id"]) == "MemberId"
    assert str(dict(tool(model, "disassociate_member").params)["account_id"]) == "MemberId"
    # a widget's update names the dashboard it is on, which is another collection: not a key
    # of widgets (the widget table stays keyed by its own id)
    assert ops["POST /widgets/update"][0] != "update"
    assert str(dict(tool(model, "update_widget").params)["dashboard_id"]) == "DashboardId"


def test_sole_key_needs_exactly_one_id_like_required_field_naming_no_other_collection():
    class Op:  # the fields `fields_of` reads
        def __init__(self, props: dict, required: set):
            from compoworld_dsl.importers.schema import Shape

            self.body = Shape("object", props={k: Shape("scalar", v) for k, v in props.items()}, required=required)
            self.params = []

    assert sole_key(Op({"accountId": "string"}, {"accountId"}), set()) == [((0, 4, 0), "accountId", "body")]
    assert sole_key(Op({"accountId": "string", "teamId": "string"}, {"accountId", "teamId"}), set()) == []  # which one?
    assert sole_key(Op({"accountId": "string"}, set()), set()) == []  # optional: a filter
    assert sole_key(Op({"dashboardId": "string"}, {"dashboardId"}), {"dashboards"}) == []  # another collection's


def test_a_walk_never_undoes_its_own_recorded_action(tmp_path, monkeypatch):
    _, _, _, wf = run(tmp_path, members_spec(dashboards=False))

    def plans(out: str) -> list[list[tuple]]:
        rep = sample(Job(str(wf), 3, 4, 3, max_attempts=200), tmp_path / out)
        lines = (tmp_path / out).read_text().splitlines() if rep.emitted else []
        return [[(st["tool"].split(".")[1], st["arguments"].get("account_id")) for st in json.loads(x)["reference_plan"]] for x in lines]

    def undone(plan: list[tuple]) -> bool:
        return any(a[0] == "associate_member" and b[0] == "disassociate_member" or a[0] == "disassociate_member" and b[0] == "associate_member" for a in plan for b in plan if a[1] == b[1])

    # the only 3-step walk this world has associates a member and disassociates it again ...
    monkeypatch.setattr(walk, "_undoes", lambda a, b: False)
    assert any(undone(p) for p in plans("without.jsonl"))
    # ... which asks for nothing that lasts: turned down
    monkeypatch.undo()
    assert not any(undone(p) for p in plans("with.jsonl"))
    assert walk._undoes("associate_member", "disassociate_member") and walk._undoes("stop_job", "start_job") and walk._undoes("lock_device", "unlock_device")
    assert not walk._undoes("get_member", "delete_member") and not walk._undoes("enable_alarm", "disable_rule")
    # a Google custom method's verb comes last, and a request let through and turned down
    # undoes it (Access Approval: "dismiss the approval request ... After that, approve that
    # approval request", a fresh draw of stop 73)
    assert walk._undoes("projects_approval_requests_dismiss", "projects_approval_requests_approve") and walk._undoes("projects_jobs_start", "projects_jobs_stop")
    assert not walk._undoes("projects_jobs_start", "folders_jobs_stop") and not walk._undoes("a_b_approve", "c_b_dismiss")


def test_answers_that_share_a_key_name_share_its_values(tmp_path):
    # WMATA: the routes list answers RouteIDs, the route's schedule is asked for by one
    route = obj({"RouteID": s(example="10A"), "Name": s(), "LineDescription": s()})
    sched = obj({"RouteID": s(), "TripHeadsign": s(), "StartTime": s(format="date-time")})
    q = {"name": "RouteID", "in": "query", "required": True, "schema": {"type": "string"}}
    doc = spec(
        {
            "/jRoutes": {"get": {"operationId": "Routes", "responses": ok(obj({"Routes": arr(ref("Route"))}))}},
            "/jRouteSchedule": {"get": {"operationId": "RouteSchedule", "parameters": [q], "responses": ok(ref("Schedule"))}},
        },
        {"Route": route, "Schedule": sched},
    )
    result, ops, _, _ = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    seeds = [line.strip() for line in text.splitlines() if line.strip().startswith("route_id: pick(")]
    assert len(seeds) == 2 and seeds[0] == seeds[1], seeds


def test_records_that_name_a_thing_no_resource_holds_share_its_values(tmp_path):
    """Twilio Monitor's alerts and events both name a `resource_sid`, a resource the spec does not
    hold: seeded apart ("RS-2300" in one, "RS-8811" in the other), no alert's resource was any
    event's, and the events filtered by an alert's resource found none (a fresh draw of stop 69).
    Not a bare `code`, nor the row's own number."""
    alert = obj({"sid": s(), "alert_text": s(), "resource_sid": s(), "code": s()})
    event = obj({"sid": s(), "description": s(), "resource_sid": s(), "code": s(), "event_number": s()})
    rs = {"name": "ResourceSid", "in": "query", "schema": {"type": "string"}}
    doc = spec(
        {
            "/v1/Alerts": {"get": {"operationId": "ListAlert", "responses": ok(obj({"alerts": arr(ref("Alert"))}))}},
            "/v1/Alerts/{Sid}": {"get": {"operationId": "FetchAlert", "parameters": [pparam("Sid")], "responses": ok(ref("Alert"))}},
            "/v1/Events": {"get": {"operationId": "ListEvent", "parameters": [rs], "responses": ok(obj({"events": arr(ref("Event"))}))}},
            "/v1/Events/{Sid}": {"get": {"operationId": "FetchEvent", "parameters": [pparam("Sid")], "responses": ok(ref("Event"))}},
        },
        {"Alert": alert, "Event": event},
    )
    result, _, _, _ = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    seeds = [line.strip() for line in text.splitlines() if line.strip().startswith("resource_sid: ") and "=" not in line]
    assert len(seeds) == 2 and seeds[0] == seeds[1] and seeds[0].startswith("resource_sid: pick(["), seeds
    codes = [line.strip() for line in text.splitlines() if line.strip().startswith("code: ") and "=" not in line]
    assert len(codes) == 2 and not (codes[0] == codes[1] and codes[0].startswith("code: pick([")), codes


def test_a_summary_with_a_value_of_its_own_is_still_a_summary(tmp_path):
    # DLM: the policy summaries add a `PolicyType` the policy itself does not hold
    policy = obj({"PolicyId": s(), "Description": s(), "State": s(enum=["ENABLED", "DISABLED"]), "ExecutionRoleArn": s(), "DateCreated": s(format="date-time")})
    summary = obj({"PolicyId": s(), "Description": s(), "State": s(enum=["ENABLED", "DISABLED"]), "PolicyType": s()})
    doc = spec(
        {
            "/policies": {"get": {"operationId": "GetLifecyclePolicies", "responses": ok(obj({"Policies": arr(ref("LifecyclePolicySummary"))}))}},
            "/policies/{policyId}": {"get": {"operationId": "GetLifecyclePolicy", "parameters": [pparam("policyId")], "responses": ok(obj({"Policy": ref("LifecyclePolicy")}))}},
        },
        {"LifecyclePolicy": policy, "LifecyclePolicySummary": summary},
    )
    _, _, model, _ = run(tmp_path, doc)
    # a view of the rows (what both hold), so the get that shows the rest is a step of its own
    assert str(tool(model, "get_lifecycle_policies").result) == "list[LifecyclePolicySummary]"
    assert str(tool(model, "get_lifecycle_policy").result) == "LifecyclePolicy"


def test_a_key_named_after_the_nouns_last_words_is_referred_to(tmp_path):
    # Cost Explorer: anomaly monitors are keyed by `MonitorArn`, which an anomaly names
    monitor = obj({"MonitorArn": s(), "MonitorName": s(), "MonitorType": s(enum=["DIMENSIONAL", "CUSTOM"])})
    anomaly = obj({"AnomalyId": s(), "MonitorArn": s(), "Feedback": s(enum=["YES", "NO"])})
    doc = spec(
        {
            "/anomalyMonitors": {"get": {"operationId": "GetAnomalyMonitors", "responses": ok(obj({"AnomalyMonitors": arr(ref("AnomalyMonitor"))}))}},
            "/anomalyMonitors/{MonitorArn}": {"delete": {"operationId": "DeleteAnomalyMonitor", "parameters": [pparam("MonitorArn")], "responses": ok(obj({}))}},
            "/anomalies": {"get": {"operationId": "GetAnomalies", "responses": ok(obj({"Anomalies": arr(ref("Anomaly"))}))}},
            "/anomalies/{AnomalyId}": {"get": {"operationId": "GetAnomaly", "parameters": [pparam("AnomalyId")], "responses": ok(ref("Anomaly"))}},
        },
        {"AnomalyMonitor": monitor, "Anomaly": anomaly},
    )
    result, _, _, _ = run(tmp_path, doc)
    rec = "\n".join(result.files.values()).split("record Anomaly ")[1].split("\n  }")[0]
    assert "monitor_arn: AnomalyMonitorId" in rec, rec


def test_an_id_named_by_the_last_words_of_a_noun_that_names_the_record_refers_to_it(tmp_path):
    # Google Transcoder: a job's `templateId` names a job template (keyed by its resource
    # name); a report's `templateId` names no job template, nor a call's `sessionId` a room
    # session (Telnyx, read so for a while)
    paths = {
        "/v1/jobTemplates": {"get": {"operationId": "jobTemplates.list", "responses": ok(obj({"jobTemplates": arr(ref("JobTemplate"))}))}},
        "/v1/jobTemplates/{name}": {"get": {"operationId": "jobTemplates.get", "parameters": [pparam("name")], "responses": ok(ref("JobTemplate"))}},
        "/v1/jobs": {
            "get": {"operationId": "jobs.list", "responses": ok(obj({"jobs": arr(ref("Job"))}))},
            "post": {"operationId": "jobs.create", "requestBody": body(ref("Job")), "responses": ok(ref("Job"))},
        },
        "/v1/jobs/{name}": {"get": {"operationId": "jobs.get", "parameters": [pparam("name")], "responses": ok(ref("Job"))}},
        "/v1/reports": {"get": {"operationId": "reports.list", "responses": ok(obj({"reports": arr(ref("Report"))}))}},
        "/v1/reports/{name}": {"get": {"operationId": "reports.get", "parameters": [pparam("name")], "responses": ok(ref("Report"))}},
    }
    schemas = {"JobTemplate": obj({"name": s(), "config": s()}), "Job": obj({"name": s(), "inputUri": s(), "templateId": s(), "state": s(enum=["PENDING", "RUNNING"])}), "Report": obj({"name": s(), "title": s(), "templateId": s()})}
    result, _, _, _ = run(tmp_path, spec(paths, schemas))
    text = "\n".join(result.files.values())
    job = text.split("record Job ")[1].split("\n  }")[0]
    report = text.split("record Report ")[1].split("\n  }")[0]
    assert "template_id: JobTemplateId" in job, job
    assert "template_id: text" in report, report


def test_a_body_property_naming_a_resource_sets_the_field_that_refers_to_it(tmp_path):
    # AWS SSM Contacts: `CreateRotationOverride {RotationId, ...}` creates an override whose
    # record holds the rotation as `RotationArn`; with no field of the body's name, the override
    # was made for no rotation
    rotation = obj({"RotationArn": s(), "Name": s(), "TimeZoneId": s()})
    override = obj({"RotationOverrideId": s(), "RotationArn": s(), "StartTime": s(format="date-time"), "EndTime": s(format="date-time")})
    doc = spec(
        {
            "/rotations": {"get": {"operationId": "ListRotations", "responses": ok(obj({"Rotations": arr(ref("Rotation"))}))}},
            "/rotations/{RotationArn}": {"get": {"operationId": "GetRotation", "parameters": [pparam("RotationArn")], "responses": ok(ref("Rotation"))}},
            "/overrides": {
                "get": {"operationId": "ListOverrides", "responses": ok(obj({"Overrides": arr(ref("Override"))}))},
                "post": {"operationId": "CreateOverride", "requestBody": body(obj({"RotationId": s(), "StartTime": s(format="date-time"), "EndTime": s(format="date-time")}, ["RotationId", "StartTime", "EndTime"])), "responses": ok(obj({"RotationOverrideId": s()}))},
            },
            "/overrides/{RotationOverrideId}": {"get": {"operationId": "GetOverride", "parameters": [pparam("RotationOverrideId")], "responses": ok(ref("Override"))}},
        },
        {"Rotation": rotation, "Override": override},
    )
    _, _, model, _ = run(tmp_path, doc)
    create = next(t for t in model.tools() if t.name == "create_override")
    assert str(dict(create.params)["rotation_arn"]) == "RotationId", create.params


def test_an_identifier_parameter_takes_the_nouns_arn(tmp_path):
    # Payment Cryptography: `{KeyIdentifier}` names a key by its `KeyArn`
    key = obj({"KeyArn": s(), "KeyState": s(enum=["CREATE_COMPLETE", "DELETE_PENDING"]), "Enabled": s("boolean")})
    doc = spec(
        {
            "/keys": {"get": {"operationId": "ListKeys", "responses": ok(obj({"Keys": arr(ref("Key"))}))}},
            "/keys/{KeyIdentifier}": {"get": {"operationId": "GetKey", "parameters": [pparam("KeyIdentifier")], "responses": ok(obj({"Key": ref("Key")}))}},
        },
        {"Key": key},
    )
    result, ops, _, _ = run(tmp_path, doc)
    rec = "\n".join(result.files.values()).split("record Key ")[1].split("\n  }")[0]
    assert "key key_arn: KeyId" in rec, rec


def test_a_one_value_enum_identifier_whose_default_it_is_is_an_example(tmp_path):
    # WMATA's `StopID`: enum ["1001195"], default "1001195", "7-digit regional stop ID"
    p = {"name": "StopID", "in": "query", "required": True, "description": "7-digit regional stop ID.", "schema": {"type": "string", "enum": ["1001195"], "default": "1001195"}}
    act = {"name": "Action", "in": "query", "required": True, "schema": {"type": "string", "enum": ["Describe"]}}
    doc = spec({"/jStopSchedule": {"get": {"operationId": "StopSchedule", "parameters": [p, act], "responses": ok(obj({"StopName": s(), "Arrivals": s("integer")}))}}})
    _, _, model, _ = run(tmp_path, doc)
    params = dict(tool(model, "stop_schedule").params)
    assert "stop_id" in params  # kept: any stop's schedule can be asked for
    assert "action" not in params  # a constant the call always sends


def test_object_variants_merge_and_a_signed_body_keeps_only_what_it_asks(tmp_path):
    item = obj({"id": s(), "label": s(), "where": {"oneOf": [obj({"location": s()}), obj({"location_id": s()})]}})
    signed = obj({"orgid": s(), "hmac": s(), "ts": s(), "clientid": s()}, ["orgid", "hmac", "ts", "clientid"])
    doc = spec(
        {
            "/items": {"get": {"operationId": "listItems", "responses": ok(arr(ref("Item")))}},
            "/items/{id}": {"get": {"operationId": "getItem", "parameters": [pparam("id")], "responses": ok(ref("Item"))}},
            "/doctypes": {"post": {"operationId": "pullDoctypes", "requestBody": body(signed), "responses": ok(obj({"doctypes": arr(obj({"doctype": s(), "description": s()}))}))}},
            "/search": {"get": {"operationId": "verifySearch", "parameters": [{"name": "api_secret", "in": "query", "required": True, "schema": {"type": "string"}}, {"name": "request_id", "in": "query", "schema": {"type": "string"}}], "responses": ok(obj({"status": s(), "number": s()}))}},
        },
        {"Item": item},
    )
    result, _, model, _ = run(tmp_path, doc)
    rec = "\n".join(result.files.values()).split("record Item ")[1].split("\n  }")[0]
    assert "where_location: text" in rec and "where_location_id: text" in rec, rec
    assert set(dict(tool(model, "pull_doctypes").params)) == {"orgid"}
    assert "api_secret" not in dict(tool(model, "verify_search").params)  # Nexmo's: no task states a secret


def test_a_request_body_with_only_an_example_takes_the_examples_fields(tmp_path):
    # Clubhouse: `POST /follow` with `{type: object}` and the fields only in its example
    user = obj({"user_id": s("integer"), "name": s(), "username": s()})
    follow = {"content": {"application/json": {"schema": {"type": "object"}, "examples": {"one": {"value": {"user_id": 2350087, "source": 4}}}}}}
    doc = spec(
        {
            "/users": {"get": {"operationId": "listUsers", "responses": ok(arr(ref("User")))}},
            "/users/{user_id}": {"get": {"operationId": "getUser", "parameters": [pparam("user_id")], "responses": ok(ref("User"))}},
            "/follow": {"post": {"operationId": "follow", "requestBody": follow, "responses": ok(obj({"success": s("boolean")}))}},
        },
        {"User": user},
    )
    _, _, model, _ = run(tmp_path, doc)
    params = dict(tool(model, "follow").params)
    assert str(params["user_id"]) == "UserId", params  # the user it follows, a key a list gives


def test_a_status_view_of_an_item_names_the_rows_by_their_path(tmp_path):
    # Codat: `GET /syncs/{syncId}/status` answers a `CompanySyncStatus` holding the sync's id
    status = obj({"syncId": s(), "syncStatus": s(), "syncUtc": s(format="date-time"), "errorMessage": s()})
    doc = spec(
        {
            "/companies/{companyId}/syncs/{syncId}/status": {"get": {"operationId": "get-sync-by-id", "parameters": [pparam("companyId"), pparam("syncId")], "responses": ok(ref("CompanySyncStatus"))}},
            "/companies/{companyId}/syncs/{syncId}/transactions": {"get": {"operationId": "list-sync-transactions", "parameters": [pparam("companyId"), pparam("syncId")], "responses": ok(arr(obj({"transactionId": s(), "status": s()})))}},
        },
        {"CompanySyncStatus": status},
    )
    result, ops, model, _ = run(tmp_path, doc)
    assert ops["GET /companies/{companyId}/syncs/{syncId}/status"][0] == "get"
    assert "record Sync " in "\n".join(result.files.values())
    assert str(dict(tool(model, "list_sync_transactions").params)["sync_id"]) == "SyncId"


def books_spec() -> dict:
    """ISBNdb: books by ISBN, publishers by their name; a book names its publisher."""
    return spec(
        {
            "/book/{isbn}": {"get": {"operationId": "getBook", "parameters": [pparam("isbn")], "responses": ok(obj({"book": ref("Book")}))}},
            "/publisher/{name}": {"get": {"operationId": "getPublisher", "parameters": [pparam("name")], "responses": ok(obj({"publisher": ref("Publisher")}))}},
        },
        {"Book": obj({"isbn": s(), "title": s(), "publisher": s(), "pages": s("integer")}), "Publisher": obj({"name": s(), "country": s()})},
    )


def test_a_field_named_as_a_noun_whose_rows_are_keyed_by_name_holds_that_name(tmp_path):
    result, _, _, _ = run(tmp_path, books_spec())
    text = "\n".join(result.files.values())
    # read as text before: a book's publisher was a made-up name no publisher row held
    assert "publisher: PublisherId" in text and "publisher: ref " in text


def scheduler_spec() -> dict:
    """AWS EventBridge Scheduler's shape: schedules and schedule groups at `/schedules/{Name}`
    and `/schedule-groups/{Name}`, the bare `{Name}` "The name of the schedule ...", and a
    schedule's `GroupName` "The name of the schedule group associated with this schedule"."""
    def named(thing: str) -> dict:
        return {**pparam("Name"), "description": f"The name of the {thing} to retrieve."}

    def item(thing: str, schema: str) -> dict:
        return {
            "get": {"operationId": f"Get{schema}", "parameters": [named(thing)], "responses": ok(ref(f"Get{schema}Output"))},
            "post": {"operationId": f"Create{schema}", "parameters": [named(thing)], "requestBody": body(ref(f"Create{schema}Input")), "responses": ok(obj({"Arn": s()}))},
            "delete": {"operationId": f"Delete{schema}", "parameters": [named(thing)], "responses": ok()},
        }

    paths = {
        "/schedules": {"get": {"operationId": "ListSchedules", "responses": ok(obj({"Schedules": arr(ref("GetScheduleOutput"))}))}},
        "/schedules/{Name}": item("schedule", "Schedule"),
        "/schedule-groups": {"get": {"operationId": "ListScheduleGroups", "responses": ok(obj({"ScheduleGroups": arr(ref("GetScheduleGroupOutput"))}))}},
        "/schedule-groups/{Name}": item("schedule group", "ScheduleGroup"),
    }
    group_name = s(description="The name of the schedule group associated with this schedule.")
    schemas = {
        "GetScheduleOutput": obj({"Name": s(), "Arn": s(), "GroupName": group_name, "Description": s(), "State": s(enum=["ENABLED", "DISABLED"]), "CreationDate": s(format="date-time")}),
        "CreateScheduleInput": obj({"GroupName": group_name, "Description": s(), "State": s(enum=["ENABLED", "DISABLED"])}),
        "GetScheduleGroupOutput": obj({"Name": s(), "Arn": s(), "State": s(enum=["ACTIVE", "DELETING"]), "CreationDate": s(format="date-time")}),
        "CreateScheduleGroupInput": obj({"ClientToken": s()}),
    }
    return spec(paths, schemas)


def test_a_bare_name_parameter_that_says_it_takes_the_rows_name_keys_the_row_by_its_name(tmp_path):
    """A bare `{Name}` after `/schedules` that says "The name of the schedule" is the name a
    person gives the schedule (`Resource.said_key`), as `{ScheduleName}` would be; the row is
    known by it. Before, schedules were keyed by made-up ids and known by their `GroupName`
    (its description says "The name of the schedule group ...": `speak._names_another`), so a
    task updated 'the schedule "Cedar group"'. And that `GroupName` names the schedule group
    (`own_kind`, of a row keyed by its name): a schedule is made in a group a walk can find."""
    result, _, _, _ = run(tmp_path, scheduler_spec())
    text = "\n".join(result.files.values())
    schedule = text.split("record Schedule ")[1].split("\n  }")[0]
    assert schedule.startswith("known by name {"), schedule
    assert "group_name: ScheduleGroupId" in schedule, schedule
    assert "record ScheduleGroup known by name {" in text
    # Google's `/v1/{name}` says "The name of the operation resource": no collection word names it
    from types import SimpleNamespace

    from compoworld_dsl.importers.ops import Resource
    from compoworld_dsl.importers.schema import Shape

    def resource(coll: list[str], path: list[str], said: str) -> Resource:
        getter = SimpleNamespace(path="/" + "/".join(path), param=lambda name: SimpleNamespace(description=said))
        return Resource(coll, "Name", Shape("object"), "Name", "", getter=getter)

    assert not resource(["operations"], ["operations", "{Name}"], "The name of the operation resource.").said_key
    assert resource(["schedules"], ["schedules", "{Name}"], "The name of the schedule to delete.").said_key
    # Google's books at `/v1/{name}`, "The name of the book to retrieve": a resource name
    # (libraryagent, read as said keys for a while)
    assert not resource(["v1", "books"], ["v1", "{Name}"], "Required. The name of the book to retrieve.").said_key


def test_a_record_named_by_its_noun_is_not_labelled_again(tmp_path):
    """A create's argument that names a record by a noun ending in the argument's label says
    the label already: "..., state enabled and the schedule group with creation date ...", not
    "... and group the schedule group with ..." (EventBridge Scheduler, once its schedules
    referred to their groups)."""
    from import_specs import sample_tasks

    _, _, _, world_file = run(tmp_path, scheduler_spec())
    _, tasks = sample_tasks(world_file, tmp_path, 2, 12, 1, 400)
    made = [t["instruction"] for t in tasks if any(s["tool"].endswith("create_schedule") and s["arguments"].get("group_name") for s in t["reference_plan"])]
    assert made, [t["instruction"] for t in tasks]
    for text in made:
        assert "group the schedule group" not in text, text
    assert any("the schedule group" in text for text in made), made


def test_a_field_whose_description_gives_a_resource_names_form_refers_to_that_resource(tmp_path):
    # Google Spanner: a backup's `database` "Values are of the form
    # `projects//instances//databases/`" (the corpus's braces left out) names a database; a
    # list of such names, and a form whose last word no resource has, name none. An object the
    # service fills ("Output only") sets nothing: a backup was made "with encryption information
    # encryption status message ..." (a fresh draw's task, stop 64)
    paths = {
        "/v1/{parent}/databases": {
            "get": {"operationId": "databases.list", "parameters": [pparam("parent")], "responses": ok(obj({"databases": arr(ref("Database"))}))},
            "post": {"operationId": "databases.create", "parameters": [pparam("parent")], "requestBody": body(ref("Database")), "responses": ok(ref("Database"))},
        },
        "/v1/{parent}/backups": {
            "get": {"operationId": "backups.list", "parameters": [pparam("parent")], "responses": ok(obj({"backups": arr(ref("Backup"))}))},
            "post": {"operationId": "backups.create", "parameters": [pparam("parent")], "requestBody": body(ref("Backup")), "responses": ok(ref("Backup"))},
        },
        "/v1/{name}": {"delete": {"operationId": "operations.delete", "parameters": [pparam("name")], "responses": ok(obj({}))}},
    }
    form = "Values are of the form `projects//instances//databases/`."
    schemas = {
        "Database": obj({"name": s(), "state": s(enum=["CREATING", "READY"])}),
        "Backup": obj({
            "name": s(), "database": s(description="Name of the database from which this backup was created. " + form),
            "referencingDatabases": arr(s(description=form)), "kmsKey": s(description="Format: projects//locations//keyRings//cryptoKeys/"),
            "expireTime": s(format="date-time"),
            "encryptionInfo": obj({"encryptionStatus": s(), "kmsKeyVersion": s()}) | {"description": "Output only. The encryption information for the backup."},
        }),
    }
    result, _, model, _ = run(tmp_path, spec(paths, schemas))
    text = "\n".join(result.files.values())
    backup = text.split("record Backup ")[1].split("\n  }")[0]
    assert "database: DatabaseId" in backup, backup
    assert "referencing_databases: text" in backup and "kms_key: text" in backup, backup
    create = next(t for t in model.tools() if t.name == "backups_create")
    assert "database" in dict(create.params) and not any(n.startswith("encryption_info") for n, _ in create.params), create.params
