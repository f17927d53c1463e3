"""Imported worlds that speak (issue 30, item 2): labels, `known by`, phrases from summaries, seeds
from the spec's values and formats, and proposed house rules, on small spec fragments.

The fuzz test at the end imports random specs built from a vocabulary of field names, formats,
descriptions and status values and checks that every output checks clean; it tries 12 specs, or
300 when the environment variable WORLDC_LONG=1 is set."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

from compoworld_dsl.importers.common import check_output, write_files
from compoworld_dsl.importers.openapi import import_openapi


def spec(paths: dict, schemas: dict, title: str = "Desk API") -> dict:
    return {"openapi": "3.0.3", "info": {"title": title, "version": "1"}, "paths": paths, "components": {"schemas": schemas}}


def ok(schema: str) -> dict:
    return {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}}


def many(schema: str) -> dict:
    return {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": f"#/components/schemas/{schema}"}}}}}}


def crud(coll: str, param: str, schema: str, writable: dict, parent: str = "") -> dict:
    """List, create, get, patch and delete under `coll` (with `parent` path parameters before it)."""
    pp = [{"name": p, "in": "path", "required": True, "schema": {"type": "string"}} for p in re.findall(r"\{(\w+)\}", parent)]
    body = {"content": {"application/json": {"schema": {"type": "object", "properties": writable}}}}
    item = {"name": param, "in": "path", "required": True, "schema": {"type": "string"}}
    return {
        f"{parent}/{coll}": {
            "parameters": pp,
            "get": {"operationId": f"list_{coll}", "summary": f"List {coll}", "responses": many(schema)},
            "post": {"operationId": f"create_{coll}", "summary": f"Create one of the {coll}", "requestBody": body, "responses": ok(schema)},
        },
        f"{parent}/{coll}/{{{param}}}": {
            "parameters": pp + [item],
            "get": {"operationId": f"get_{coll}", "summary": f"Get one of the {coll}", "responses": ok(schema)},
            "patch": {"operationId": f"update_{coll}", "summary": f"Update one of the {coll}", "requestBody": body, "responses": ok(schema)},
            "delete": {"operationId": f"delete_{coll}", "summary": f"Delete one of the {coll}", "responses": {"204": {"description": "gone"}}},
        },
    }


def imported(tmp_path: Path, doc: dict, name: str = "desk"):
    src = tmp_path / f"{name}.json"
    src.write_text(json.dumps(doc))
    result = import_openapi(src)
    out = tmp_path / name
    write_files(out, result.files, True)
    good, summary, diags = check_output(out / result.world_file)
    assert good, "\n".join(diags)
    module = next(t for f, t in result.files.items() if f != result.world_file)
    return result, module, out / result.world_file


TICKET = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "subject": {"type": "string"},
        "status": {"type": "string", "enum": ["open", "pending", "closed", "archived"]},
        "created_at": {"type": "string", "format": "date-time"},
        "qty": {"type": "integer"},
        "queue_id": {"type": "string"},
    },
}
QUEUE = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
COMMENT = {"type": "object", "properties": {"id": {"type": "string"}, "body": {"type": "string"}, "ticket_id": {"type": "string"}}}


def desk() -> dict:
    writable = {"subject": {"type": "string"}, "status": {"type": "string", "enum": ["open", "pending", "closed", "archived"]}, "queue_id": {"type": "string"}, "qty": {"type": "integer"}}
    paths = {}
    paths.update(crud("queues", "queueId", "Queue", {"name": {"type": "string"}}))
    paths.update(crud("tickets", "ticketId", "Ticket", writable))
    paths.update(crud("comments", "commentId", "Comment", {"body": {"type": "string"}}, parent="/tickets/{ticketId}"))
    return spec(paths, {"Ticket": TICKET, "Queue": QUEUE, "Comment": COMMENT})


def record_line(module: str, field: str) -> str:
    return next(ln.strip() for ln in module.splitlines() if ln.strip().startswith(f"{field}:"))


# ─────────────────────────── labels ───────────────────────────


def test_fields_get_labels_a_person_would_use(tmp_path):
    _, module, _ = imported(tmp_path, desk())
    assert record_line(module, "created_at").endswith('"creation time"')
    assert record_line(module, "qty").endswith('"quantity"')
    assert record_line(module, "queue_id").endswith('"queue"')  # a reference: what it refers to
    # plain names stay unlabelled
    assert record_line(module, "subject") == 'subject: text = ""'


def test_a_word_a_wrapper_repeats_is_said_once():
    """Telnyx's `outbound.outbound_voice_profile_id`, flattened, read "the outbound outbound
    voice profile of that texml application"."""
    from compoworld_dsl.importers.common import FieldIR
    from compoworld_dsl.importers.speak import label_for

    f = FieldIR("outbound_outbound_voice_profile_id", "OutboundVoiceProfileId", "id", ref="t.outbound_voice_profiles")
    f.src = "outbound.outbound_voice_profile_id"
    assert label_for(f, "outbound voice profile") == "outbound voice profile"
    g = FieldIR("name_name", "text", "text")
    g.src = "name.name"
    assert label_for(g) == "name"


def test_short_titles_label_fields_and_sentences_do_not(tmp_path):
    thing = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "name": {"type": "string"},
            "ddl": {"type": "string", "format": "date", "title": "Filing Deadline"},
            "notes": {"type": "string", "description": "Notes of the thing"},
        },
    }
    _, module, _ = imported(tmp_path, spec(crud("things", "thingId", "Thing", {"name": {"type": "string"}}), {"Thing": thing}))
    assert record_line(module, "ddl").endswith('"filing deadline"')
    assert record_line(module, "notes") == 'notes: text = ""'  # "Notes of the thing" is a sentence


def test_update_phrases_use_the_labels(tmp_path):
    _, module, _ = imported(tmp_path, desk())
    says = [ln.strip() for ln in module.splitlines() if ln.strip().startswith("say ") and "{qty}" in ln]
    assert says and all("quantity {qty}" in s for s in says), says


# ─────────────────────────── known by ───────────────────────────


def test_known_by_prefers_a_display_name_over_a_resource_path_name(tmp_path):
    job = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "name": {"type": "string", "description": "The resource name, in the format projects/{project}/jobs/{job}"},
            "displayName": {"type": "string"},
        },
    }
    _, module, _ = imported(tmp_path, spec(crud("jobs", "jobId", "Job", {"displayName": {"type": "string"}}), {"Job": job}))
    assert "record Job known by display_name {" in module


def test_a_message_is_what_a_row_says_not_what_it_is_called(tmp_path):
    """A transcoding job with no name was "the job with error message "Waiting for approval ..."",
    and creating one required an error message: a message, a reason or a note names no row
    while another text does (even one its description calls human-readable)."""
    job = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "errorMessage": {"type": "string", "description": "A developer-facing, human-readable error message"},
            "inputUri": {"type": "string"},
            "state": {"type": "string", "enum": ["PENDING", "SUCCEEDED"]},
        },
    }
    _, module, _ = imported(tmp_path, spec(crud("jobs", "jobId", "Job", {"inputUri": {"type": "string"}}), {"Job": job}))
    assert "record Job known by input_uri {" in module
    note = {"type": "object", "properties": {"id": {"type": "string"}, "comment": {"type": "string"}, "rating": {"type": "integer"}}}
    _, module, _ = imported(tmp_path, spec(crud("notes", "noteId", "Note", {"comment": {"type": "string"}}), {"Note": note}), "notes")
    assert "record Note known by comment {" in module  # the only text there is
    # information is seeded with sentences: GameLift's game server was 'add a game server
    # "Blocked until the contract is signed."', its `connectionInfo` (round 13)
    server = {"type": "object", "properties": {"id": {"type": "string"}, "connectionInfo": {"type": "string"}, "gameServerData": {"type": "string"}}}
    _, module, _ = imported(tmp_path, spec(crud("servers", "serverId", "Server", {"gameServerData": {"type": "string"}}), {"Server": server}), "servers")
    assert "record Server known by game_server_data {" in module
    # how a thing works is not what it is called: an EC2 fleet was named by its allocation strategy
    fleet = {"type": "object", "properties": {"id": {"type": "string"}, "allocationStrategy": {"type": "string"}, "instanceMatchCriteria": {"type": "string"}}}
    _, module, _ = imported(tmp_path, spec(crud("fleets", "fleetId", "Fleet", {"instanceMatchCriteria": {"type": "string"}}), {"Fleet": fleet}), "fleets")
    assert "record Fleet known by instance_match_criteria {" in module


def test_a_place_with_no_name_is_known_by_its_address_not_its_zip_code(tmp_path):
    listing = {"type": "object", "properties": {"id": {"type": "string"}, "zipCode": {"type": "string"}, "formattedAddress": {"type": "string"}, "price": {"type": "integer"}}}
    _, module, _ = imported(tmp_path, spec(crud("listings", "listingId", "Listing", {"price": {"type": "integer"}}), {"Listing": listing}))
    assert "record Listing known by formatted_address {" in module
    place = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "formattedAddress": {"type": "string"}}}
    _, module, _ = imported(tmp_path, spec(crud("places", "placeId", "Place", {"name": {"type": "string"}}), {"Place": place}), "places")
    assert "record Place known by name {" in module  # a name first


def test_a_path_its_description_calls_a_resource_name_names_no_row(tmp_path):
    """Android device provisioning's configuration was 'add a configuration "/images/logo.png"':
    its `dpcResourcePath` is "The resource name of the selected DPC ... in the format
    `customers/...`", a path; `configurationName` is what it is called."""
    conf = {
        "type": "object",
        "properties": {
            "configurationId": {"type": "string"},
            "dpcResourcePath": {"type": "string", "description": "Required. The resource name of the selected DPC (device policy controller) in the format `customers/[CUSTOMER_ID]/dpcs/*`."},
            "configurationName": {"type": "string", "description": "Required. A short name that describes the configuration's purpose."},
        },
    }
    _, module, _ = imported(tmp_path, spec(crud("configurations", "configurationId", "Configuration", {"configurationName": {"type": "string"}}), {"Configuration": conf}))
    assert "record Configuration known by configuration_name {" in module, module


def test_a_name_inside_another_object_names_no_row(tmp_path):
    """A support case's comment was 'add a comment "Tomasz Moreno"' (its creator's display name,
    `creator.displayName`) and an attachment "the attachment "Amara Kowalski"": a row is known by
    its own fields (the filename; a comment's body), not by a name another object holds."""
    person = {"type": "object", "properties": {"displayName": {"type": "string"}, "email": {"type": "string"}}}
    attachment = {"type": "object", "properties": {"id": {"type": "string"}, "creator": person, "filename": {"type": "string"}, "mimeType": {"type": "string"}}}
    comment = {"type": "object", "properties": {"id": {"type": "string"}, "creator": person, "body": {"type": "string"}}}
    paths = {**crud("attachments", "attachmentId", "Attachment", {"filename": {"type": "string"}}), **crud("comments", "commentId", "Comment", {"body": {"type": "string"}})}
    _, module, _ = imported(tmp_path, spec(paths, {"Attachment": attachment, "Comment": comment}))
    assert "record Attachment known by filename {" in module, module
    assert "record Comment known by body {" in module, module
    # and the creator's display name is the creator's, not drawn as the comment's body
    seed = module.split("seed comments:")[1].split("}")[0]
    assert "creator_display_name: same(" not in seed, seed


def test_a_record_without_a_name_is_known_by_what_it_belongs_to_and_when(tmp_path):
    account = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
    statement = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "indicator": {"type": "string", "enum": ["credit", "debit"]},
            "account_id": {"type": "string"},
            "end_date": {"type": "string", "format": "date"},
            "kind": {"type": "string"},
        },
    }
    paths = {**crud("accounts", "accountId", "Account", {"name": {"type": "string"}}), **crud("statements", "statementId", "Statement", {"end_date": {"type": "string", "format": "date"}})}
    _, module, _ = imported(tmp_path, spec(paths, {"Account": account, "Statement": statement}))
    assert "record Statement known by account_id, end_date {" in module


def test_a_place_with_no_name_is_known_by_its_address_before_its_description(tmp_path):
    """A letting agent's property (a description and a full address, no name) was 'the property
    "Second reminder sent."'; a record with only a description is still known by it."""
    prop = {"type": "object", "properties": {"id": {"type": "string"}, "description": {"type": "string"}, "fullAddress": {"type": "string"}, "branch": {"type": "string"}}}
    note = {"type": "object", "properties": {"id": {"type": "string"}, "description": {"type": "string"}, "branch": {"type": "string"}}}
    paths = {**crud("properties", "propertyId", "Property", {"description": {"type": "string"}}), **crud("notes", "noteId", "Note", {"description": {"type": "string"}})}
    _, module, _ = imported(tmp_path, spec(paths, {"Property": prop, "Note": note}))
    assert "record Property known by full_address {" in module, module
    assert "record Note known by description {" in module, module


def test_an_azure_resource_name_associated_with_the_resource_is_its_name(tmp_path):
    """Recovery Services' `name` says "Resource name associated with the resource.": the name a
    person gave it. Read as a path, a protected item was known by its container's name ('the
    protected item "Riverside container"', blind play)."""
    item = {"type": "object", "properties": {
        "id": {"type": "string", "description": "Resource Id represents the complete path to the resource."},
        "name": {"type": "string", "description": "Resource name associated with the resource."},
        "properties": {"type": "object", "properties": {"containerName": {"type": "string"}}},
    }}
    paths = crud("items", "itemId", "Item", {"name": {"type": "string"}})
    _, module, _ = imported(tmp_path, spec(paths, {"Item": item}))
    assert re.search(r"record Item known by name \{", module), module


# ─────────────────────────── say and gives ───────────────────────────


def test_a_title_summary_names_the_row_and_an_unsaid_body_is_no_argument(tmp_path):
    """Okta's lifecycle calls: "Unsuspend User" with a `text/plain` body whose example is "" was
    'unsuspend user for user {user_id} with body {body}', and a task said 'with body "Daniel"'.
    Now 'unsuspend user {user_id}', 'reset factors for user {user_id}', and no body argument; a
    body with an example is still one, blank unless given."""
    user = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
    paths = crud("users", "userId", "User", {"name": {"type": "string"}})
    uid = [{"name": "userId", "in": "path", "required": True, "schema": {"type": "string"}}]
    blank = {"content": {"text/plain": {"example": ""}}}
    shown = {"content": {"application/json": {"example": {"reason": "fraud"}}}}
    paths["/users/{userId}/lifecycle/unsuspend"] = {"post": {"operationId": "unsuspendUser", "summary": "Unsuspend User", "parameters": uid, "requestBody": blank, "responses": {"200": {"description": ""}}}}
    paths["/users/{userId}/lifecycle/suspend"] = {"post": {"operationId": "suspendUser", "summary": "Suspend User", "parameters": uid, "requestBody": shown, "responses": {"200": {"description": ""}}}}
    paths["/users/{userId}/lifecycle/reset_factors"] = {"post": {"operationId": "resetFactors", "summary": "Reset Factors for User", "parameters": uid, "responses": {"200": {"description": ""}}}}
    _, module, _ = imported(tmp_path, spec(paths, {"User": user}))
    assert re.search(r"tool unsuspend_user\(user_id: UserId\)\n", module), module
    assert 'say "unsuspend user {user_id}"' in module and "the request body has no schema and no example" in module
    # a JSON example says what the body holds: its fields are the arguments, optional (D62;
    # no field holds such a text, so a task would state another field's value)
    assert re.search(r'tool suspend_user\(user_id: UserId, reason: text = ""\)', module), module
    assert 'say "reset factors for user {user_id}"' in module, module



def test_a_simulated_tool_says_its_summary(tmp_path):
    paths = dict(crud("queues", "queueId", "Queue", {"name": {"type": "string"}}))
    paths["/reports/usage"] = {"post": {"operationId": "rptUsageGen", "summary": "Generates a usage report", "responses": {"200": {"description": "ok"}}}}
    result, module, _ = imported(tmp_path, spec(paths, {"Queue": QUEUE}))
    tool = next(o.tool for o in result.ops if "reports" in o.label)
    assert any(o.kind == "simulated" for o in result.ops if "reports" in o.label)
    block = module[module.index(f"tool {tool.split('.')[-1]}(") :]
    assert re.search(r'say "generate a usage report"', block[:400]), block[:400]


def test_a_world_model_tool_says_its_summary_without_saying_the_noun_twice(tmp_path):
    tags = {"type": "object", "properties": {"data": {"type": "array", "items": {"type": "string"}}}}
    paths = dict(crud("queues", "queueId", "Queue", {"name": {"type": "string"}}))
    pid = [{"name": "queueId", "in": "path", "required": True, "schema": {"type": "string"}}]
    paths["/queues/{queueId}/tags"] = {"get": {"operationId": "queueTagsAll", "summary": "Lists the tags of a queue", "parameters": pid, "responses": ok("Tags")}}
    result, module, _ = imported(tmp_path, spec(paths, {"Queue": QUEUE, "Tags": tags}))
    tool = next(o.tool for o in result.ops if o.label.endswith("/tags")).split(".")[-1]
    block = module[module.index(f"tool {tool}(") :][:400]
    assert 'say "list the tags of queue {queue_id}"' in block, block


# ─────────────────────────── seeds ───────────────────────────


def test_seeds_from_listed_values_formats_and_names(tmp_path):
    room = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "name": {"type": "string"},
            "conference_kinds": {"type": "array", "items": {"type": "string"}, "description": 'The kinds it supports. The possible values are: - "eventHangout" - "hangoutsMeet"'},
            "homepage_ref": {"type": "string", "format": "uri"},
            "location": {"type": "string"},
        },
    }
    _, module, _ = imported(tmp_path, spec(crud("rooms", "roomId", "Room", {"name": {"type": "string"}}), {"Room": room}))
    seed = module[module.index("seed rooms") :]
    assert 'conference_kinds: pick(["eventHangout", "hangoutsMeet"])' in seed
    assert re.search(r'homepage_ref: pick\(\["https://', seed)
    assert 'location: pick(["London"' in seed
    assert not re.search(r'format\("[a-z ]+ \{\}", 1\.\.40\)', seed)  # no "location 3"


# ─────────────────────────── proposed house rules ───────────────────────────


def test_a_status_with_closed_values_gets_a_hands_off_rule(tmp_path, capsys):
    result, module, world = imported(tmp_path, desk())
    assert "constraint hands_off_closed_tickets" in module
    rule = module[module.index("constraint hands_off_closed_tickets") :]
    rule = rule[: rule.index("\n  }\n")]
    assert "untouched tickets where status == closed or status == archived" in rule
    # what belongs to a closed ticket (its comments, in another service) is left alone too
    assert re.search(r"forall r_ in tickets where r_\.status == closed or r_\.status == archived \{\s*untouched \w+\.comments where ticket_id == r_\.id", rule)
    comment = module[: module.index("constraint hands_off_closed_tickets")].splitlines()[-3:-1]
    assert "proposal" in comment[0] and "update_tickets" in comment[1]
    assert [r.name for r in result.rules] == ["hands_off_closed_tickets"]
    # the report lists it, in text and JSON
    from compoworld_dsl.cli import main

    src = tmp_path / "desk.json"
    assert main(["import", "openapi", str(src), "-o", str(tmp_path / "again"), "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert [r["rule"] for r in body["proposed_rules"]] == [f"{result.rules[0].service}.hands_off_closed_tickets"]
    assert main(["import", "openapi", str(src), "-o", str(tmp_path / "again"), "--force"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"^proposed rules \(1; .*\):\n  \w+\.hands_off_closed_tickets: Hands off tickets whose status is closed or archived", text, re.M), text


def test_the_proposed_rule_decides_sampled_tasks(tmp_path):
    from compoworld_dsl.sample.run import Job, run

    _, _, world = imported(tmp_path, desk())
    out = tmp_path / "tasks.jsonl"
    rep = run(Job(str(world), 3, 4, 1, max_attempts=400, rule_share=1.0), out)
    tasks = [json.loads(line) for line in out.read_text().splitlines()]
    assert rep.emitted == len(tasks) >= 1
    decided = [t for t in tasks if any(c["name"].endswith("hands_off_closed_tickets") for c in t["constraints"])]
    assert decided, [t["instruction"] for t in tasks]
    assert "House rules: Hands off tickets whose status is closed or archived" in decided[0]["instruction"]


def test_an_action_the_world_model_records_on_a_protected_row_breaks_its_rule(tmp_path):
    """Amazon ML's `DeleteRealtimeEndpoint {MLModelId}` is recorded (what it does to the model is
    not modelled); a task asked to delete the endpoint of a model trained on a deleted data
    source, under "hands off ... and so do their ml models", and the reference passed the rule
    (blind round 35). A recorded call on such a row, or on what belongs to it, is a touch."""
    from compoworld_dsl.codegen.python import load_world
    from compoworld_dsl.check import check_paths
    from compoworld_dsl.sample.checker import _constraint_holds

    doc = desk()
    flag = {"type": "object", "properties": {"ticketId": {"type": "string"}, "reason": {"type": "string"}}, "required": ["ticketId"]}
    note = {"type": "object", "properties": {"commentId": {"type": "string"}}, "required": ["commentId"]}
    doc["paths"]["/flagTicket"] = {"post": {"operationId": "flag_ticket", "summary": "Flags a ticket", "requestBody": {"content": {"application/json": {"schema": flag}}}, "responses": {"204": {"description": "done"}}}}
    doc["paths"]["/pinComment"] = {"post": {"operationId": "pin_comment", "summary": "Pins a comment", "requestBody": {"content": {"application/json": {"schema": note}}}, "responses": {"204": {"description": "done"}}}}
    result, module, world_file = imported(tmp_path, doc)
    rule = module[module.index("constraint hands_off_closed_tickets") :]
    rule = rule[: rule.index("\n  }\n")]
    assert re.search(r"untouched (\w+\.)?flag_ticket_calls where ticket_id == r_\.id", rule), rule
    assert re.search(r"forall k_ in \w+\.comments where k_\.ticket_id == r_\.id \{\s*untouched (\w+\.)?pin_comment_calls where comment_id == k_\.id", rule), rule
    # the rule's comment names the tools that record such calls among those that can break it
    said = module[: module.index("constraint hands_off_closed_tickets")].splitlines()[-2]
    assert "flag_ticket" in said and "pin_comment" in said, said
    program = check_paths([world_file])
    w = load_world(program.model, str(world_file))
    st = w.initial_state(3)
    tickets = next(t for q, t in st.tables.items() if q.endswith(".tickets"))
    closed = next(k for k, r in tickets.items() if str(r["status"]) == "closed")
    flag_tool = next(t.qualified for t in program.model.tools() if t.name == "flag_ticket")
    name = next(c for c in w.constraints if c.endswith("hands_off_closed_tickets"))
    got = w.call(st, flag_tool, {"ticket_id": closed})
    assert got["success"], got
    held, why = _constraint_holds(w, name, w.initial_state(3), st)
    assert not held and "flag_ticket_calls" in why, why


def test_no_rule_where_no_tool_can_change_the_rows(tmp_path):
    paths = {
        "/tickets": {"get": {"operationId": "list_tickets", "responses": many("Ticket")}},
        "/tickets/{ticketId}": {"get": {"operationId": "get_ticket", "parameters": [{"name": "ticketId", "in": "path", "required": True, "schema": {"type": "string"}}], "responses": ok("Ticket")}},
    }
    result, module, _ = imported(tmp_path, spec(paths, {"Ticket": TICKET}))
    assert "constraint" not in module and result.rules == []


def test_no_rule_from_values_the_spec_does_not_give(tmp_path):
    # a plain text status is seeded from a generic pool that holds "closed": no rule from that
    ticket = {"type": "object", "properties": {"id": {"type": "string"}, "subject": {"type": "string"}, "status": {"type": "string"}}}
    result, module, _ = imported(tmp_path, spec(crud("tickets", "ticketId", "Ticket", {"status": {"type": "string"}}), {"Ticket": ticket}))
    assert "constraint" not in module and result.rules == []


def test_flags_and_listed_statuses_give_rules(tmp_path):
    event = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "summary": {"type": "string"},
            "locked": {"type": "boolean"},
            "status": {"type": "string", "description": 'Status of the event. Possible values are: - "confirmed" - "tentative" - "cancelled"'},
        },
    }
    result, module, _ = imported(tmp_path, spec(crud("events", "eventId", "Event", {"summary": {"type": "string"}}), {"Event": event}))
    assert 'untouched events where locked or status == "cancelled"' in module
    assert len(result.rules) == 1


# ─────────────────────────── fuzz ───────────────────────────

NAMES = ["name", "displayName", "title", "created_at", "updatedAt", "qty", "dob", "status", "state", "archived", "is_active", "locked", "location", "homepage", "owner_id", "parent", "kind", "type", "description", "ip", "url", "end_date", "amount", "count", "key", "filter", "result", "if", "x", "_", "Ünïcode", "a b"]
FORMATS = ["", "", "date", "date-time", "uri", "email", "uuid", "ipv4", "hostname", "byte"]
DESCRIPTIONS = ["", "Due Date", "Name of the thing", 'Possible values are: "open", "closed"', 'either "on" or "off"', "The resource name", "x" * 80, "{braces} and \"quotes\"", "Deprecated", "\u202e reversed"]
STATUSES = [["open", "closed"], ["active", "inactive"], ["draft", "sent", "void"], ["Closed", "CANCELLED", "ok"], ["not_deleted", "deleted"], ["1", "2"]]


def random_property(rng: random.Random) -> dict:
    kind = rng.choice(["string", "string", "integer", "boolean", "number", "array", "enum"])
    if kind == "enum":
        return {"type": "string", "enum": rng.choice(STATUSES)}
    if kind == "array":
        return {"type": "array", "items": {"type": "string", "enum": rng.choice(STATUSES)} if rng.random() < 0.5 else {"type": "string"}, "description": rng.choice(DESCRIPTIONS)}
    p = {"type": kind, "description": rng.choice(DESCRIPTIONS)}
    if kind == "string":
        p["format"] = rng.choice(FORMATS)
        if rng.random() < 0.3:
            p["example"] = rng.choice(["Acme", "2025-02-01", ["a", "b"], 7])
    return p


def random_spec(rng: random.Random) -> dict:
    schemas, paths = {}, {}
    colls = rng.sample(["orders", "items", "people", "boxes", "notes"], rng.randint(1, 3))
    for i, coll in enumerate(colls):
        props = {"id": {"type": "string"}}
        for _ in range(rng.randint(1, 7)):
            props[rng.choice(NAMES)] = random_property(rng)
        if i and rng.random() < 0.6:
            props[colls[0][:-1] + "_id"] = {"type": "string"}
        schema = coll.title()
        schemas[schema] = {"type": "object", "properties": props}
        writable = {k: v for k, v in props.items() if k != "id" and rng.random() < 0.6}
        parent = f"/{colls[0]}/{{{colls[0][:-1]}Id}}" if i and rng.random() < 0.3 else ""
        paths.update(crud(coll, f"{coll[:-1]}Id", schema, writable, parent))
    return spec(paths, schemas, title=rng.choice(["Fuzz API", "Ünï API", "x"]))


def test_fuzz_every_import_checks(tmp_path):
    """Labels, seeds, phrases and rules from any mix of names, formats, descriptions and status
    values give a world that checks (`imported` asserts it), and every proposed rule is in it."""
    n = 300 if os.environ.get("WORLDC_LONG") == "1" else 12
    proposed = 0
    for i in range(n):
        folder = tmp_path / str(i)
        folder.mkdir()
        result, module, _ = imported(folder, random_spec(random.Random(i)))
        for r in result.rules:
            assert f"constraint {r.name} " in module
        proposed += len(result.rules)
    assert proposed >= 1  # the vocabulary holds ended statuses and flags: some import proposes a rule


def test_acronyms_in_phrases_keep_the_article_before_them():
    """A noun split into letters (`DAGRun` → "d a g run") is said as its acronym in a tool's
    phrases, and an article before it stays an article: "add a DAG run", never "add ADAG run"
    (Airflow's POST /dags/{dag_id}/dagRuns); an acronym's own leading `a` is kept ("API")."""
    from compoworld_dsl.importers.speak import _acronyms

    assert _acronyms("add a d a g run {note} to d a g {dag_id}") == "add a DAG run {note} to DAG {dag_id}"
    assert _acronyms("list a p i keys") == "list API keys"
    assert _acronyms("add an a p i key") == "add an API key"
    assert _acronyms("pick a card") == "pick a card"


def test_summaries_and_nouns_read_as_a_person_writes_them():
    """Met reading fresh imported tasks: "synchroniz storage account keys" (a summary's
    "Synchronizes" made imperative), "adapter - add an adapter" (a topic before a dash), and "the
    io t spaces description" (`IoTSpacesDescription` split at its capitals)."""
    from compoworld_dsl.importers.speak import _imperative, spoken_noun, summary_phrase

    assert [_imperative(w) for w in ("Synchronizes", "Authorizes", "Buzzes", "Fixes", "Searches")] == ["synchronize", "authorize", "buzz", "fix", "search"]
    assert summary_phrase("Adapter - Add an adapter") == ("add an adapter", False)
    assert summary_phrase("Users – Get a user") == ("get a user", True)
    # a topic before a colon, as Presalytics titles its operations ("id outline post of story ..." before)
    assert summary_phrase("Story: Post Story Outline") == ("post story outline", False)
    assert summary_phrase("Sessions: Create a Session") == ("create a session", False)
    assert summary_phrase("Get well-known items") == ("get well-known items", True)
    # an adverb before the verb: hetras' "Partially updates the room" read "partially updates ..."
    assert summary_phrase("Partially updates the room") == ("partially update the room", False)
    assert summary_phrase("Fully lists the rooms") == ("fully list the rooms", True)
    # a summary of ten words is still a summary (Filestore's revert was "revert projects
    # locations of instance ...", its id's words, round 17)
    assert summary_phrase("Revert an existing instance's file system to a specified snapshot") == ("revert an existing instance's file system to the specified snapshot", False)
    assert summary_phrase("Returns the list of every one of the things this endpoint can give back to a caller") is None
    # "an" where the corpus dropped a vendor's name after it (AWS Cloud9's "to an Cloud9
    # development environment", a fresh draw's task, stop 63), kept before a vowel's sound
    assert summary_phrase("Adds an environment member to an Cloud9 development environment") == ("add an environment member to a cloud9 development environment", False)
    assert summary_phrase("Sends an SMS message") == ("send an SMS message", False)
    assert summary_phrase("Creates an hourly report") == ("create an hourly report", False)
    assert summary_phrase("Creates an x509 certificate") == ("create an x509 certificate", False)
    # and "an" where a summary wrote "a" before a vowel (Sinao's "Create a export entity", stop
    # 74), not before one said as a consonant
    assert summary_phrase("Create a export entity") == ("create an export entity", False)
    assert summary_phrase("Add a user to a one-off group") == ("add a user to a one-off group", False)
    assert spoken_noun("io t spaces description") == "IoT spaces description"
    assert spoken_noun("o auth client") == "OAuth client"
    assert spoken_noun("radio t") == "radio t"  # not inside a word


def test_a_summarys_lead_in_is_no_verb_and_a_renamed_argument_is_said_by_its_spec_name(tmp_path):
    """Met in bunq's tasks: "used to update multiple cards in a batch for that user with cards 2
    ...": the summary's "Used to" taken for the verb, and a body property `cards` named
    `cards_2` beside the table `cards`, said as named."""
    from compoworld_dsl.importers.speak import summary_phrase

    assert summary_phrase("Used to update multiple cards in a batch.") == ("update multiple cards in a batch", False)
    assert summary_phrase("Allows you to list the tags") == ("list the tags", True)
    # "you can use this API to": Timestream Query's summary, said word for word in blind round 23
    assert summary_phrase("You can use this API to run a scheduled query manually.") == ("run a scheduled query manually", False)
    assert summary_phrase("This API is used to fetch the list of orders") == ("fetch the list of orders", True)
    assert summary_phrase("Used for managing callback URLs") is None  # no verb to say: the generated phrase stays
    card = {"type": "object", "properties": {"id": {"type": "string"}, "name_on_card": {"type": "string"}}}
    paths = crud("cards", "cardId", "Card", {"name_on_card": {"type": "string"}})
    paths["/card-batch"] = {
        "post": {
            "operationId": "CREATE_CardBatch",
            "summary": "Used to update multiple cards in a batch.",
            "requestBody": {"content": {"application/json": {"schema": {"type": "object", "required": ["cards"], "properties": {"cards": {"type": "array", "items": {"type": "string"}}}}}}},
            "responses": {"200": {"description": "ok"}},
        }
    }
    p = tmp_path / "spec.json"
    p.write_text(json.dumps(spec(paths, {"Card": card})))
    text = "\n".join(import_openapi(p).files.values())
    say = re.search(r'say "([^"]*\{cards(?:_\d)?\}[^"]*)"', text)
    assert say, text
    assert say.group(1).startswith("update multiple cards in a batch") and "cards 2" not in say.group(1), say.group(1)


def test_a_description_is_its_first_sentence_even_without_a_space_after_it():
    """Google's discovery documents join sentences with no space ("Deletes an existing custom
    dashboard.This method requires the monitoring.dashboards.delete permission ...")."""
    from compoworld_dsl.importers.common import one_line

    assert one_line("Deletes an existing custom dashboard.This method requires the monitoring.dashboards.delete permission") == "Deletes an existing custom dashboard"
    # a description written as a quoted string (Buffer): the quotes are no part of it
    assert one_line("\"Set the posting schedules for the specified social media profile.\"") == "Set the posting schedules for the specified social media profile"
    assert one_line("Say \"hi\" to the user") == "Say \"hi\" to the user"
    assert one_line("Reads the monitoring.dashboards list. Then more") == "Reads the monitoring.dashboards list"
    assert one_line("Short.This") == "Short.This"  # too short to be a sentence of its own


def test_a_reference_by_a_name_key_and_a_messages_ends_say_what_they_are():
    """A MediaTailor task read "delete the vod source name of the source location vod source
    ..." and an SMS one "sender the from of the message ...": a reference by a name key is the
    record it names, and a message's `from` and `to` are its sender and recipient."""
    from compoworld_dsl.importers.common import FieldIR
    from compoworld_dsl.importers.speak import label_for
    from compoworld_dsl.sample.phrasing import same_as

    f = FieldIR("vod_source_name", "VodSourceId", "id", ref="t.vod_sources")
    f.src = "VodSourceName"
    assert label_for(f, "vod source") == "vod source"
    for name, said in (("from", "sender"), ("to", "recipient")):
        g = FieldIR(name, "text", "text")
        g.src = name
        assert label_for(g) == said
    # a value another record's same field gives is "the same ... as" that record
    assert same_as('add a message "X", sender the sender of the message "Y"') == 'add a message "X", the same sender as the message "Y"'
    assert same_as('with message subject the message subject of that message') == "with the same message subject as that message"
    assert same_as("with owner the manager of that team") == "with owner the manager of that team"
    # only a whole label: "start date the date of birth of ..." was "start the same date as birth
    # of ..." (an imported Xero task, stop 63)
    assert same_as("with end date 2025-01-02 and start date the date of birth of that employee") == "with end date 2025-01-02 and start date the date of birth of that employee"
    assert same_as("with pay run period start date the start date of that employee") == "with pay run period start date the start date of that employee"


def test_a_summary_that_is_no_verb_phrase_is_no_say():
    """MWAA's PublishMetrics says "Internal only": a task read "After that, internal only with
    the new environment and metric data ...". A POST named GetIntegration reads; it adds nothing."""
    from compoworld_dsl.importers.ops import Op
    from compoworld_dsl.importers.resources import reads
    from compoworld_dsl.importers.speak import summary_phrase

    assert summary_phrase("Internal only") is None
    assert summary_phrase("Experimental endpoint for tests") is None
    assert summary_phrase("Publishes metrics") == ("publish metrics", False)

    def op(op_id):
        return Op("post", "/domains/{d}/integrations", ["domains", "{d}", "integrations"], op_id, "", "", [], None, "none", None, True)

    assert reads(op("GetIntegration")) and reads(op("searchContacts")) and reads(op("crm.contacts.list"))
    assert not reads(op("PutIntegration")) and not reads(op("CreateDomain")) and not reads(op(None))


def test_a_put_and_a_patch_of_one_summary_read_apart(tmp_path):
    """Probely's "Update Jira Cloud target configuration" is both a PUT and a PATCH, each recorded
    apart: a blind player told to "update jira cloud target configuration" chose the PATCH where
    the task had made the PUT (stop 50). The PUT says "replace" now, and each description says
    what its method does."""
    doc = desk()
    cfg = {"content": {"application/json": {"schema": {"type": "object", "properties": {"project_id": {"type": "string"}, "allow": {"type": "boolean"}}}}}}
    tp = [{"name": "ticketId", "in": "path", "required": True, "schema": {"type": "string"}}]
    doc["paths"]["/tickets/{ticketId}/jira"] = {
        "parameters": tp,
        "put": {"operationId": "put_ticket_jira", "summary": "Update Jira configuration", "requestBody": cfg, "responses": {"204": {"description": "done"}}},
        "patch": {"operationId": "patch_ticket_jira", "summary": "Update Jira configuration", "requestBody": cfg, "responses": {"204": {"description": "done"}}},
    }
    _, module, _ = imported(tmp_path, doc)

    def tool(name: str) -> tuple[str, str]:
        lines = module.splitlines()
        i = next(i for i, ln in enumerate(lines) if ln.strip().startswith(f"tool {name}("))
        return lines[i + 1].strip(), lines[i + 2].strip()

    put_doc, put_say = tool("put_ticket_jira")
    patch_doc, patch_say = tool("patch_ticket_jira")
    assert put_say.startswith('say "replace jira configuration') and patch_say.startswith('say "update jira configuration')
    assert put_doc == '"Update Jira configuration (replaces it whole)"' and patch_doc == '"Update Jira configuration (changes only the fields given)"'


def test_two_posts_of_one_phrase_are_told_apart_by_their_names_words(tmp_path):
    """Azure's `Failover` and `FailoverAllowDataLoss` share their description's first sentence,
    and a task that made both read "fail over ..., and fail over ...", one thing done twice (a
    fresh draw, stop 58). The words one name has and the other lacks go into its phrase, before
    its arguments, and into its description; the other keeps its own."""
    doc = desk()
    tp = [{"name": "ticketId", "in": "path", "required": True, "schema": {"type": "string"}}]
    said = "Fails over from the current primary server to this server."
    doc["paths"]["/tickets/{ticketId}/failover"] = {"parameters": tp, "post": {"operationId": "Tickets_Failover", "description": said, "responses": {"204": {"description": "done"}}}}
    doc["paths"]["/tickets/{ticketId}/forceFailoverAllowDataLoss"] = {"parameters": tp, "post": {"operationId": "Tickets_FailoverAllowDataLoss", "description": said + " This operation might result in data loss.", "responses": {"204": {"description": "done"}}}}
    _, module, _ = imported(tmp_path, doc)
    says = dict(re.findall(r"tool (\w*failover\w*)\(.*\n\s+\"[^\"]*\"\n\s+say \"([^\"]*)\"", module))
    assert len(says) == 2 and len(set(says.values())) == 2, says
    lossy = next(v for k, v in says.items() if "loss" in k)
    plain = next(v for k, v in says.items() if "loss" not in k)
    assert "(allow data loss) for ticket {" in lossy and "loss" not in plain, says


def test_twins_that_do_one_thing_keep_their_phrase():
    """Azure Migrate's PUT ("Create or update project") and PATCH of a project were both read as
    the same update, told apart as "... customer workspace ID {..} (update)" and "(create)",
    which a fresh draw's task read as a value (stop 63). Twins of one body and one signature do
    one thing: either does what the phrase says. Twins that differ are still told apart."""
    from compoworld_dsl.importers.common import ParamIR, ServiceIR, ToolIR
    from compoworld_dsl.importers.speak import tell_twins_apart

    def twin(name: str, body: list[str]) -> ToolIR:
        return ToolIR(name, [ParamIR("project_name", "ProjectId"), ParamIR("location", "text", '""')], "Project", "Update project", "update project {project_name} with location {location}", None, body)

    same = ["update projects[project_name] { location: location }", "return projects[project_name]"]
    svc = ServiceIR("migrate", "", tools=[twin("projects_update", same), twin("projects_create", list(same))])
    tell_twins_apart({"migrate": svc}, {"migrate.projects_update": "PATCH", "migrate.projects_create": "PUT"})
    assert [t.say for t in svc.tools] == ["update project {project_name} with location {location}"] * 2
    other = ServiceIR("migrate", "", tools=[twin("projects_update", same), twin("projects_create", ["insert create_calls { location: location }"])])
    tell_twins_apart({"migrate": other}, {"migrate.projects_update": "POST", "migrate.projects_create": "POST"})
    # (a tool whose own words its phrase says already keeps it: "verify domain ownership (verify
    # domain ownership) for order ..." beside "(resend request emails)", a fresh draw of stop 70)
    assert [t.say for t in other.tools] == ["update project {project_name} with location {location}", "update project {project_name} with location {location} (create)"], [t.say for t in other.tools]


def test_a_word_said_twice_is_said_once_where_the_better_label_is_taken():
    """ConfigCat's product has `organization.name` (labelled "organization") and
    `organization.organizationId`, a reference that would be "the organization" too: it was
    "the organization organization id of that product" in a blind-played task (stop 50)."""
    from compoworld_dsl.importers.common import FieldIR, RecordIR
    from compoworld_dsl.importers.speak import label_fields

    rec = RecordIR(
        "Product",
        [
            FieldIR("product_id", "ProductId", "id", key=True),
            FieldIR("organization_name", "text", "text", src="organization.name"),
            FieldIR("organization_organization_id", "OrganizationId", "id", ref="cat.organizations", src="organization.organizationId"),
            FieldIR("order_order", "int", "int", src="order.order"),
        ],
    )
    label_fields(rec, {"cat.organizations": "organization"})
    labels = {f.name: f.label for f in rec.fields}
    assert labels == {"product_id": None, "organization_name": "organization", "organization_organization_id": "organization id", "order_order": "order"}


def test_a_verb_an_operation_id_clips_is_said_whole(tmp_path):
    """PeerTube's `delVideo` was "del the video channel of that video" in a blind-played task."""
    doc = desk()
    for op in doc["paths"]["/tickets/{ticketId}"].values():
        if isinstance(op, dict) and op.get("operationId") == "delete_tickets":
            op["operationId"], op["summary"] = "delTicket", ""
    _, module, _ = imported(tmp_path, doc)
    says = [ln.strip() for ln in module.splitlines() if ln.strip().startswith('say "del')]
    assert says and all(x.startswith('say "delete ') for x in says), says
