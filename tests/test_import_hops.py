"""`worldc import openapi`: more real specs that give a task (issue 30, item 1's aim). Each rule
general to a style of API, on a small spec written here (docs/import.md, "Resources"; measured in
"Measured on the corpus"): scopes no resource owns (Azure's subscription and resource group)
seeded one value for every row; `allOf` parts that only say "an object"; a list named in the
plural beside a singular item path (AWS); an embedded object's key as a reference; `<noun>Name`
naming a resource keyed by its name (Google); a key parameter that names a property with the noun
left off (`{roomNumber}` → `number`, `{collectionName}` → `name`); creates under a key the caller
chooses, in the path or in the body; an object with values of its own is not an envelope; a
proposed rule whose flag is named like a status member. Every output must check, and the tools
are called to see that they do what the report says.

The probe at the end imports random specs that mix these styles (scopes, singular and plural
paths, embedded objects, keyed creates) and checks what must hold whatever the mix: the output
checks; a scope field holds one value in every table; every reference a seed draws names a row
of the table it refers to; a create under the caller's key refuses a key a row has and inserts
one no row has. 25 specs by default, 250 with WORLDC_LONG=1."""

from __future__ import annotations

import json
import os
import random
import re

from compoworld_dsl.check import types as T
from import_specs import arr, body, obj, ok, pparam, ref, run, s, sample_tasks, spec, world_of

LONG = os.environ.get("WORLDC_LONG") == "1"









def table(st, suffix: str) -> dict:
    return next(t for q, t in st.tables.items() if q.endswith("." + suffix))


def tool(model, name: str):
    return next(t for t in model.tools() if t.name == name)


# ─── scopes no resource owns: one tenant ───

AZ = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Probe"


def azure_like() -> dict:
    """Two Azure resources, servers and their databases, under a subscription and a resource
    group that no operation of the spec lists."""
    server = obj({"id": s(), "name": s(), "location": s(), "properties": obj({"version": s(), "state": s(enum=["Ready", "Disabled"])})})
    database = obj({"id": s(), "name": s(), "location": s(), "properties": obj({"collation": s(), "maxSizeBytes": s("integer")})})
    scope = [pparam("subscriptionId"), pparam("resourceGroupName")]
    return spec(
        {
            f"{AZ}/servers": {"get": {"operationId": "Servers_ListByResourceGroup", "parameters": scope, "responses": ok(obj({"value": {"type": "array", "items": ref("Server")}}))}},
            f"{AZ}/servers/{{serverName}}": {
                "get": {"operationId": "Servers_Get", "parameters": [*scope, pparam("serverName")], "responses": ok(ref("Server"))},
                "patch": {"operationId": "Servers_Update", "parameters": [*scope, pparam("serverName")], "requestBody": body(obj({"location": s(), "properties": obj({"version": s()})})), "responses": ok(ref("Server"))},
            },
            f"{AZ}/servers/{{serverName}}/databases": {"get": {"operationId": "Databases_ListByServer", "parameters": [*scope, pparam("serverName")], "responses": ok(obj({"value": {"type": "array", "items": ref("Database")}}))}},
            f"{AZ}/servers/{{serverName}}/databases/{{databaseName}}": {
                "get": {"operationId": "Databases_Get", "parameters": [*scope, pparam("serverName"), pparam("databaseName")], "responses": ok(ref("Database"))},
                "patch": {"operationId": "Databases_Update", "parameters": [*scope, pparam("serverName"), pparam("databaseName")], "requestBody": body(obj({"location": s(), "properties": obj({"collation": s()})})), "responses": {"202": {"description": "accepted"}}},
                "delete": {"operationId": "Databases_Delete", "parameters": [*scope, pparam("serverName"), pparam("databaseName")], "responses": {"200": {"description": "ok"}}},
            },
        },
        {"Server": server, "Database": database},
    )


def test_a_scope_no_resource_owns_has_one_value_in_every_table(tmp_path):
    result, ops, model, wf = run(tmp_path, azure_like())
    text = result.files["probe.world"]
    assert "one value for every row: a scope no resource of the spec owns" in text
    w, st = world_of(model, wf)
    servers, dbs = table(st, "servers"), table(st, "databases")
    for field in ("subscription_id", "resource_group_name"):
        values = {r[field] for r in servers.values()} | {r[field] for r in dbs.values()}
        assert len(values) == 1, (field, values)  # one tenant: the same in both tables
    # a scope names no row: the rows are known by something else
    known = re.search(r"record Server known by ([\w, ]+) \{", text).group(1)
    assert "subscription_id" not in known and "resource_group_name" not in known


def test_a_call_that_states_a_rows_scope_finds_it(tmp_path):
    _, _, model, wf = run(tmp_path, azure_like())
    w, st = world_of(model, wf)
    dbs = table(st, "databases")
    key, row = sorted(dbs.items())[0]
    svc = tool(model, "databases_update").qualified
    got = w.call(st, svc, {"subscription_id": row["subscription_id"], "resource_group_name": row["resource_group_name"], "server_name": row["server_name"], "database_name": key, "location": "Lagos"})
    assert got["success"], got
    assert table(st, "databases")[key]["location"] == "Lagos"
    # another subscription is still refused: the scope is checked, not dropped
    bad = w.call(st, svc, {"subscription_id": "SI-0000-other", "resource_group_name": row["resource_group_name"], "server_name": row["server_name"], "database_name": key, "location": "Oslo"})
    assert bad["error"]["code"] == 404


def test_an_azure_like_spec_gives_a_three_hop_task(tmp_path):
    from compoworld_dsl.sample.run import Job, run as sample

    result, _, _, wf = run(tmp_path, azure_like())
    # five tasks in at most 40 attempts (with a scope drawn per row: 1 task, 39 attempts refused)
    rep = sample(Job(str(wf), 3, 5, 1, max_attempts=40), tmp_path / "t.jsonl")
    assert rep.emitted == 5, rep.rejected.most_common(3)
    for line in (tmp_path / "t.jsonl").read_text().splitlines():
        assert len(json.loads(line)["reference_plan"]) == 3


def test_a_scope_is_said_once_in_an_instruction(tmp_path):
    """Every call of an Azure-like API states the subscription and the resource group; a task
    said them at each call ("... of that asset with subscription ID "SI-7922", resource group
    name ..." again). A scope every row holds is said once (`Phraser._scopes`), and the agent
    carries it to the later calls."""
    from compoworld_dsl.sample.run import Job, run as sample

    _, _, _, wf = run(tmp_path, azure_like())
    sample(Job(str(wf), 3, 8, 2, max_attempts=60), tmp_path / "t.jsonl")
    tasks = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert tasks
    several = 0
    for t in tasks:
        subs = {s["arguments"]["subscription_id"] for s in t["reference_plan"] if "subscription_id" in s["arguments"]}
        assert len(subs) == 1, t["reference_plan"]
        (sub,) = subs
        several += sum("subscription_id" in s["arguments"] for s in t["reference_plan"]) > 1
        assert t["instruction"].count(sub) == 1, t["instruction"]
    assert several, "no task calls two tools in the scope"


# ─── allOf parts that only say "an object" ───


def test_an_allof_beside_type_object_is_merged(tmp_path):
    album = obj({"id": s(), "name": s(), "label": s()})
    track = obj({"id": s(), "name": s(), "duration_ms": s("integer")})
    paging = obj({"href": s(), "limit": s("integer"), "next": s(), "total": s("integer")})
    doc = spec(
        {
            "/albums/{id}": {"get": {"operationId": "getAlbum", "parameters": [pparam("id")], "responses": ok(ref("Album"))}},
            "/albums/{id}/tracks": {"get": {"operationId": "getAlbumTracks", "parameters": [pparam("id")], "responses": ok(ref("PagingTracks"))}},
        },
        {"Album": album, "SimplifiedTrack": track, "Paging": paging, "PagingTracks": {"type": "object", "allOf": [ref("Paging"), {"type": "object", "properties": {"items": {"type": "array", "items": ref("SimplifiedTrack")}}}]}},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /albums/{id}/tracks"][0] == "list"  # a child table of the album, not a simulated tool
    w, st = world_of(model, wf)
    tracks = table(st, "tracks")  # (a `SimplifiedTrack` is a track: stop 73)
    aid = next(iter(tracks.values()))["album_id"]
    got = w.call(st, tool(model, "get_album_tracks").qualified, {"id": aid})
    assert got["success"] and {r["id"] for r in got["data"]} == {k for k, r in tracks.items() if r["album_id"] == aid}


# ─── a plural list beside a singular item path ───


def test_a_plural_list_beside_a_singular_item_lists_it(tmp_path):
    desc = obj({"ChannelName": s(), "Arn": s(), "ChannelState": s(enum=["RUNNING", "STOPPED"]), "PlaybackMode": s()})
    summary = obj({"ChannelName": s(), "Arn": s(), "ChannelState": s(enum=["RUNNING", "STOPPED"])})
    doc = spec(
        {
            "/channel/{ChannelName}": {
                "get": {"operationId": "DescribeChannel", "parameters": [pparam("ChannelName")], "responses": ok(ref("DescribeChannelResponse"))},
                "delete": {"operationId": "DeleteChannel", "parameters": [pparam("ChannelName")], "responses": ok(obj({}))},
            },
            "/channels": {"get": {"operationId": "ListChannels", "responses": ok(obj({"Items": {"type": "array", "items": ref("Channel")}, "NextToken": s()}))}},
        },
        {"DescribeChannelResponse": desc, "Channel": summary},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /channels"][0] == "list"
    assert "record Channel " in result.files["probe.world"]  # `Describe` is not part of the noun
    w, st = world_of(model, wf)
    got = w.call(st, tool(model, "list_channels").qualified, {})
    assert got["success"] and {r["channel_name"] for r in got["data"]} == set(table(st, "channels"))


def test_a_plural_post_beside_a_singular_item_creates_it(tmp_path):
    """`POST /trustanchors` beside `/trustanchor/{trustAnchorId}` (IAM Roles Anywhere), and
    `POST /employer/{EmployerId}/Employees` beside `.../Employee/{EmployeeId}` (PayRun.IO): the
    create of the singular resource, not a call recorded on no resource (or on the employer)."""
    anchor = obj({"trustAnchorId": s(), "name": s(), "enabled": s("boolean")})
    employee = obj({"FirstName": s(), "LastName": s()})
    doc = spec(
        {
            "/trustanchor/{trustAnchorId}": {"get": {"operationId": "GetTrustAnchor", "parameters": [pparam("trustAnchorId")], "responses": ok(obj({"trustAnchor": ref("TrustAnchor")}))}},
            "/trustanchors": {"post": {"operationId": "CreateTrustAnchor", "requestBody": body(obj({"name": s(), "enabled": s("boolean")}, ["name"])), "responses": ok(obj({"trustAnchor": ref("TrustAnchor")}))}},
            "/employer/{EmployerId}": {"get": {"operationId": "GetEmployer", "parameters": [pparam("EmployerId")], "responses": ok(ref("Employer"))}},
            "/employer/{EmployerId}/Employee/{EmployeeId}": {"get": {"operationId": "GetEmployee", "parameters": [pparam("EmployerId"), pparam("EmployeeId")], "responses": ok(ref("Employee"))}},
            "/employer/{EmployerId}/Employees": {"post": {"operationId": "PostEmployee", "parameters": [pparam("EmployerId")], "requestBody": body(ref("Employee")), "responses": ok(obj({}))}},
        },
        {"TrustAnchor": anchor, "Employer": obj({"Name": s(), "Region": s()}), "Employee": employee},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["POST /trustanchors"][0] == "create", ops["POST /trustanchors"]
    assert ops["POST /employer/{EmployerId}/Employees"][0] == "create", ops["POST /employer/{EmployerId}/Employees"]
    w, st = world_of(model, wf)
    got = w.call(st, tool(model, "create_trust_anchor").qualified, {"name": "Probe anchor"})
    assert got["success"], got
    assert "Probe anchor" in {r["name"] for r in table(st, "trustanchors").values()}
    employer = next(iter(table(st, "employers")))
    got = w.call(st, tool(model, "post_employee").qualified, {"employer_id": employer, "first_name": "Ada"})
    assert got["success"], got
    assert any(r["first_name"] == "Ada" and r["employer_id"] == employer for r in table(st, "employees").values())


def test_a_create_bodys_name_is_the_records_noun_name(tmp_path):
    """AWS's `CreateLoadBalancer {Name, Scheme}` names what its record calls `LoadBalancerName`:
    the create left the name out, and a task added "a load balancer" with no name (stop 56)."""
    lb = obj({"LoadBalancerArn": s(), "LoadBalancerName": s(), "Scheme": s(enum=["internet-facing", "internal"])})
    doc = spec(
        {
            "/loadbalancers": {
                "get": {"operationId": "DescribeLoadBalancers", "responses": ok(obj({"LoadBalancers": {"type": "array", "items": ref("LoadBalancer")}}))},
                "post": {"operationId": "CreateLoadBalancer", "requestBody": body(obj({"Name": s(), "Scheme": s(enum=["internet-facing", "internal"])}, ["Name"])), "responses": ok(obj({"LoadBalancers": {"type": "array", "items": ref("LoadBalancer")}}))},
            },
            "/loadbalancers/{LoadBalancerArn}": {"delete": {"operationId": "DeleteLoadBalancer", "parameters": [pparam("LoadBalancerArn")], "responses": ok(obj({}))}},
        },
        {"LoadBalancer": lb},
    )
    result, ops, model, wf = run(tmp_path, doc)
    create = tool(model, "create_load_balancer")
    assert "load_balancer_name" in dict(create.params), create.params
    w, st = world_of(model, wf)
    got = w.call(st, create.qualified, {"load_balancer_name": "edge-lb", "scheme": "internal"})
    assert got["success"], got
    assert "edge-lb" in {r["load_balancer_name"] for r in table(st, "loadbalancers").values()}


def test_a_create_bodys_noun_name_is_the_records_name(tmp_path):
    """And the other way round: AWS Inspector's `CreateAssessmentTemplate
    {assessmentTemplateName, rulesPackageArns, ...}` names what its record calls `name`. Left
    out, a task added 'an assessment template "arn:...:rules-package/rules-package-31"', named
    by its first other value."""
    template = obj({"arn": s(), "name": s(), "rulesPackageArns": s(), "durationInSeconds": s("integer")})
    doc = spec(
        {
            "/assessmenttemplates": {
                "get": {"operationId": "ListAssessmentTemplates", "responses": ok(obj({"assessmentTemplates": {"type": "array", "items": ref("AssessmentTemplate")}}))},
                "post": {"operationId": "CreateAssessmentTemplate", "requestBody": body(obj({"assessmentTemplateName": s(), "rulesPackageArns": s(), "durationInSeconds": s("integer")}, ["assessmentTemplateName"])), "responses": ok(obj({"assessmentTemplateArn": s()}))},
            },
            "/assessmenttemplates/{assessmentTemplateArn}": {"delete": {"operationId": "DeleteAssessmentTemplate", "parameters": [pparam("assessmentTemplateArn")], "responses": ok(obj({}))}},
        },
        {"AssessmentTemplate": template},
    )
    result, ops, model, wf = run(tmp_path, doc)
    create = tool(model, "create_assessment_template")
    assert "name" in dict(create.params), create.params
    assert create.decl.say.startswith("add an assessment template {name}"), create.decl.say
    w, st = world_of(model, wf)
    got = w.call(st, create.qualified, {"name": "Weekly scan", "rules_package_arns": "arn:aws:inspector:rp/1", "duration_in_seconds": 3600})
    assert got["success"], got
    assert "Weekly scan" in {r["name"] for r in table(st, "assessmenttemplates").values()}


# ─── references: an embedded object's key, a `<noun>Name` ───


def test_an_embedded_objects_key_refers_to_its_table(tmp_path):
    big = {f"p{i}": s() for i in range(10)}  # too big to flatten
    album = obj({"id": s(), "name": s(), **big})
    track = obj({"id": s(), "name": s(), "album": ref("Album")})
    doc = spec(
        {
            "/albums": {"get": {"operationId": "listAlbums", "responses": ok({"type": "array", "items": ref("Album")})}},
            "/albums/{id}": {"get": {"operationId": "getAlbum", "parameters": [pparam("id")], "responses": ok(ref("Album"))}},
            "/tracks": {"get": {"operationId": "listTracks", "responses": ok({"type": "array", "items": ref("Track")})}},
            "/tracks/{id}": {"get": {"operationId": "getTrack", "parameters": [pparam("id")], "responses": ok(ref("Track"))}},
        },
        {"Album": album, "Track": track},
    )
    result, _, model, wf = run(tmp_path, doc)
    assert "album_id: AlbumId" in result.files["probe.world"]
    w, st = world_of(model, wf)
    albums = table(st, "albums")
    assert all(r["album_id"] in albums for r in table(st, "tracks").values())


def test_a_noun_name_field_refers_to_a_resource_keyed_by_its_name(tmp_path):
    ruleset = obj({"name": s(), "createTime": s(format="date-time"), "source": s()})
    release = obj({"name": s(), "rulesetName": s(), "updateTime": s(format="date-time")})
    doc = spec(
        {
            "/v1/rulesets": {"get": {"operationId": "firebaserules.projects.rulesets.list", "responses": ok(obj({"rulesets": {"type": "array", "items": ref("Ruleset")}}))}},
            "/v1/rulesets/{name}": {
                "get": {"operationId": "firebaserules.projects.rulesets.get", "parameters": [pparam("name")], "responses": ok(ref("Ruleset"))},
                "delete": {"operationId": "firebaserules.projects.rulesets.delete", "parameters": [pparam("name")], "responses": ok(obj({}))},
            },
            "/v1/releases": {"get": {"operationId": "firebaserules.projects.releases.list", "responses": ok(obj({"releases": {"type": "array", "items": ref("Release")}}))}},
            "/v1/releases/{name}": {"get": {"operationId": "firebaserules.projects.releases.get", "parameters": [pparam("name")], "responses": ok(ref("Release"))}},
        },
        {"Ruleset": ruleset, "Release": release},
    )
    result, _, model, wf = run(tmp_path, doc)
    text = result.files["probe.world"]
    assert "ruleset_name: RulesetId" in text
    assert 'say "delete ruleset {name}"' in text  # Google's ids name the method last
    w, st = world_of(model, wf)
    rulesets = table(st, "rulesets")
    assert all(r["ruleset_name"] in rulesets for r in table(st, "releases").values())


# ─── envelopes and the records that embed another ───


def test_an_object_with_values_of_its_own_is_not_an_envelope(tmp_path):
    vault = obj({"id": s(), "name": s(), "region": s()})
    crate = obj({"crateName": s(), "title": s(), "size": s("integer"), "vault": ref("Vault")})
    job = obj({"jobStatus": s(enum=["SUBMITTED", "FAILED"]), "message": s(), "errorCode": s(), "jobMetadata": obj({"id": s(), "submitter": s(), "source": s()})})
    doc = spec(
        {
            "/crates/{crateName}": {"get": {"operationId": "DescribeCrate", "parameters": [pparam("crateName")], "responses": ok(ref("Crate"))}},
            "/vaults/{id}": {"get": {"operationId": "getVault", "parameters": [pparam("id")], "responses": ok(ref("Vault"))}},
            "/jobs/{jobId}": {"get": {"operationId": "DescribeJob", "parameters": [pparam("jobId")], "responses": ok(ref("DescribeJobResult"))}},
        },
        {"Vault": vault, "Crate": crate, "DescribeJobResult": job},
    )
    result, _, _, _ = run(tmp_path, doc)
    text = result.files["probe.world"]
    # a crate (keyed by its name) that embeds a vault: not an envelope around the vault
    assert re.search(r"record Crate known by \w+ \{\n\s+key crate_name: CrateId", text), text
    assert "vault_id: VaultId" in text
    # a status, a message and an error code beside one object: an envelope, read inside
    assert re.search(r"record \w+ known by [\w, ]+ \{\n\s+key id: \w+Id\n\s+(//.*\n\s+)*submitter: text", text), text


# ─── a key parameter named with its noun: `{roomNumber}` is a room's `number` ───


def test_a_key_parameter_names_a_property_with_the_noun_left_off(tmp_path):
    room = obj({"number": s(), "name": s(), "floor": s("integer"), "description": s(), "beddings": {"type": "array", "items": obj({"kind": s()})}})
    entry = obj({"number": s(), "name": s(), "floor": s("integer")})
    hotel = obj({"id": s(), "name": s()})
    doc = spec(
        {
            "/hotels": {"get": {"operationId": "getHotels", "responses": ok(obj({"hotels": {"type": "array", "items": ref("Hotel")}}))}},
            "/hotels/{hotelId}": {"get": {"operationId": "getHotel", "parameters": [pparam("hotelId")], "responses": ok(ref("Hotel"))}},
            "/hotels/{hotelId}/rooms": {"get": {"operationId": "getRooms", "parameters": [pparam("hotelId")], "responses": ok(obj({"_count": s("integer"), "rooms": {"type": "array", "items": ref("RoomEntry")}}))}},
            "/hotels/{hotelId}/rooms/{roomNumber}": {"get": {"operationId": "getRoom", "parameters": [pparam("hotelId"), pparam("roomNumber")], "responses": ok(ref("Room"))}},
        },
        {"Hotel": hotel, "Room": room, "RoomEntry": entry},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /hotels/{hotelId}/rooms"][0] == "list"  # the entries carry the key, `number`
    assert "key number: RoomId" in result.files["probe.world"]
    w, st = world_of(model, wf)
    rooms = table(st, "rooms")
    hid = next(iter(rooms.values()))["hotel_id"]
    got = w.call(st, tool(model, "get_rooms").qualified, {"hotel_id": hid})
    assert got["success"] and {r["number"] for r in got["data"]} == {k for k, r in rooms.items() if r["hotel_id"] == hid}


# ─── creates under a key the caller chooses ───


def test_a_create_under_the_callers_key_inserts_and_refuses_a_taken_key(tmp_path):
    channel = obj({"ChannelName": s(), "Arn": s(), "PlaybackMode": s(), "Tier": s()})
    doc = spec(
        {
            "/channel/{ChannelName}": {
                "get": {"operationId": "DescribeChannel", "parameters": [pparam("ChannelName")], "responses": ok(ref("DescribeChannelResponse"))},
                "post": {"operationId": "CreateChannel", "parameters": [pparam("ChannelName")], "requestBody": body(obj({"PlaybackMode": s(), "Tier": s()}, ["PlaybackMode"])), "responses": ok(ref("DescribeChannelResponse"))},
                "put": {"operationId": "UpdateChannel", "parameters": [pparam("ChannelName")], "requestBody": body(obj({"Tier": s()})), "responses": ok(ref("DescribeChannelResponse"))},
            },
        },
        {"DescribeChannelResponse": channel},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["POST /channel/{ChannelName}"][0] == "create"  # not an update of a channel that is there
    assert ops["PUT /channel/{ChannelName}"][0] == "update"
    w, st = world_of(model, wf)
    create = tool(model, "create_channel").qualified
    taken = sorted(table(st, "channels"))[0]
    assert w.call(st, create, {"channel_name": taken, "playback_mode": "LOOP"})["error"]["code"] == 409
    got = w.call(st, create, {"channel_name": "channel-new", "playback_mode": "LOOP"})
    assert got["success"], got
    assert table(st, "channels")["channel-new"]["playback_mode"] == "LOOP"


def test_a_create_whose_body_names_the_key_inserts_under_it(tmp_path):
    collection = obj({"name": s(), "size": s("integer"), "status": s()})
    doc = spec(
        {
            "/collections": {"post": {"operationId": "create_collection", "requestBody": body(obj({"name": s(), "source": s()}, ["name"])), "responses": {"201": {"description": "made"}}}},
            "/collections/{collectionName}": {
                "get": {"operationId": "describe_collection", "parameters": [pparam("collectionName")], "responses": ok(ref("Collection"))},
                "delete": {"operationId": "delete_collection", "parameters": [pparam("collectionName")], "responses": {"202": {"description": "gone"}}},
            },
        },
        {"Collection": collection},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["POST /collections"][0] == "create"  # a collection is keyed by its name, which the body chooses
    assert "key name: CollectionId" in result.files["probe.world"]
    w, st = world_of(model, wf)
    create = tool(model, "create_collection").qualified
    taken = sorted(table(st, "collections"))[0]
    assert w.call(st, create, {"name": taken})["error"]["code"] == 409
    assert w.call(st, create, {"name": "vectors-2"})["success"]
    assert "vectors-2" in table(st, "collections")


def test_a_key_parameter_described_as_a_name_is_keyed_by_the_name(tmp_path):
    """AWS Secrets Manager's `SecretId` ("The ARN or name of the secret", said in the allOf part
    beside its type's `$ref`, as AWS describes every property) names no property of the secret
    it answers (`ARN`, `Name`, ...): the secret is keyed by its name, its list lists the table,
    and its create chooses the name (before: a made-up key, and the list a table of answers)."""
    described = lambda d: {"allOf": [ref("SecretIdType"), {"description": d}]}  # noqa: E731
    secret = obj({"ARN": s(), "Name": s(), "Description": s(), "RotationEnabled": s("boolean")})
    entry = obj({"ARN": s(), "Name": s(), "Description": s(), "SecretVersionsToStages": obj({"x": s()})})
    target = lambda action: [{"name": "X-Amz-Target", "in": "header", "required": True, "schema": {"type": "string", "enum": [f"secretsmanager.{action}"]}}]  # noqa: E731
    doc = spec(
        {
            "/#X-Amz-Target=secretsmanager.DescribeSecret": {"post": {"operationId": "DescribeSecret", "parameters": target("DescribeSecret"), "requestBody": body(obj({"SecretId": described("The ARN or name of the secret.")}, ["SecretId"])), "responses": ok(ref("DescribeSecretResponse"))}},
            "/#X-Amz-Target=secretsmanager.ListSecrets": {"post": {"operationId": "ListSecrets", "parameters": target("ListSecrets"), "requestBody": body(obj({"MaxResults": s("integer")})), "responses": ok(obj({"SecretList": {"type": "array", "items": ref("SecretListEntry")}}))}},
            "/#X-Amz-Target=secretsmanager.CreateSecret": {"post": {"operationId": "CreateSecret", "parameters": target("CreateSecret"), "requestBody": body(obj({"Name": s(), "Description": s()}, ["Name"])), "responses": ok(obj({"ARN": s(), "Name": s()}))}},
            "/#X-Amz-Target=secretsmanager.DeleteSecret": {"post": {"operationId": "DeleteSecret", "parameters": target("DeleteSecret"), "requestBody": body(obj({"SecretId": described("The ARN or name of the secret to delete.")}, ["SecretId"])), "responses": ok(obj({"ARN": s()}))}},
        },
        {"DescribeSecretResponse": secret, "SecretListEntry": entry, "SecretIdType": s(minLength=1)},
    )
    result, ops, model, wf = run(tmp_path, doc)
    text = next(t for n, t in result.files.items() if n.endswith(".world") and "record Secret" in t)
    assert re.search(r"record Secret\b[^{]*\{\s*(?://[^\n]*\n\s*)*key name: SecretId", text), text[:600]
    assert ops["POST /#X-Amz-Target=secretsmanager.ListSecrets"][0] == "list"
    w, st = world_of(model, wf)
    secrets = table(st, "secrets")
    create = tool(model, "create_secret").qualified
    taken = sorted(secrets)[0]
    assert w.call(st, create, {"name": taken, "description": "d"})["error"]["code"] == 409
    assert w.call(st, create, {"name": "payments-key", "description": "d"})["success"]
    assert "payments-key" in table(st, "secrets")
    listed = w.call(st, tool(model, "list_secrets").qualified, {})
    assert listed["success"] and {r["name"] for r in listed["data"]} == set(table(st, "secrets"))


def test_an_aws_identifier_the_create_chooses_keys_the_row_and_no_token_is_asked_for(tmp_path):
    """Neptune's `CreateDBCluster {DBClusterIdentifier, Engine, ClientToken}`: the identifier is
    the key the caller chooses (it named the cluster's `PendingModifiedValues.DBClusterIdentifier`
    before, and the key was made up), and an idempotency token is no argument (a DataSync task
    stated one, drawn from the state as "arn:...:log-group/log-group-8")."""
    cluster = obj({"DBClusterIdentifier": s(), "Engine": s(), "DatabaseName": s(), "PendingModifiedValues": obj({"DBClusterIdentifier": s(), "EngineVersion": s()})})
    target = lambda action: [{"name": "X-Amz-Target", "in": "header", "required": True, "schema": {"type": "string", "enum": [f"Neptune.{action}"]}}]  # noqa: E731
    doc = spec(
        {
            "/#X-Amz-Target=Neptune.DescribeDBCluster": {"post": {"operationId": "DescribeDBCluster", "parameters": target("DescribeDBCluster"), "requestBody": body(obj({"DBClusterIdentifier": s()}, ["DBClusterIdentifier"])), "responses": ok(obj({"DBCluster": ref("DBCluster")}))}},
            "/#X-Amz-Target=Neptune.CreateDBCluster": {"post": {"operationId": "CreateDBCluster", "parameters": target("CreateDBCluster"), "requestBody": body(obj({"DBClusterIdentifier": s(), "Engine": s(), "DatabaseName": s(), "ClientToken": s()}, ["DBClusterIdentifier", "Engine"])), "responses": ok(obj({"DBCluster": ref("DBCluster")}))}},
            "/#X-Amz-Target=Neptune.FailoverDBCluster": {"post": {"operationId": "FailoverDBCluster", "parameters": target("FailoverDBCluster"), "requestBody": body(obj({"DBClusterIdentifier": s(), "TargetInstance": s(), "ClientToken": s()}, ["DBClusterIdentifier"])), "responses": ok(obj({"DBCluster": ref("DBCluster")}))}},
        },
        {"DBCluster": cluster},
    )
    result, ops, model, wf = run(tmp_path, doc)
    text = next(t for n, t in result.files.items() if n.endswith(".world") and "record DBCluster" in t)
    create = tool(model, "create_db_cluster")
    assert "db_cluster_identifier" in dict(create.params) and "pending_modified_values_db_cluster_identifier" not in dict(create.params), text
    assert not any("client_token" in dict(t.params) for t in model.tools()), [t.name for t in model.tools() if "client_token" in dict(t.params)]
    w, st = world_of(model, wf)
    taken = sorted(table(st, "db_clusters"))[0]
    refused = w.call(st, create.qualified, {"db_cluster_identifier": taken, "engine": "neptune", "database_name": "graphs"})
    assert refused["error"]["code"] == 409, (refused, text)
    got = w.call(st, create.qualified, {"db_cluster_identifier": "graph-east", "engine": "neptune", "database_name": "graphs"})
    assert got["success"] and table(st, "db_clusters")["graph-east"]["pending_modified_values_db_cluster_identifier"] == "", got


def test_an_item_parameter_named_as_the_key_property_is_the_key(tmp_path):
    """IoT Wireless gets a gateway by `{Identifier}` and deletes it by `{Id}`, the gateway's `Id`:
    both name the row by its key, so the delete deletes it (it was only recorded, a field of no
    name, and a task read the statistics of a gateway it had "deleted")."""
    gw = obj({"Id": s(), "Name": s(), "Description": s()})
    doc = spec(
        {
            "/wireless-gateways": {"get": {"operationId": "ListWirelessGateways", "responses": ok(obj({"WirelessGatewayList": {"type": "array", "items": ref("GetWirelessGatewayResponse")}}))}},
            "/wireless-gateways/{Identifier}": {"get": {"operationId": "GetWirelessGateway", "parameters": [pparam("Identifier")], "responses": ok(ref("GetWirelessGatewayResponse"))}},
            "/wireless-gateways/{Id}": {"delete": {"operationId": "DeleteWirelessGateway", "parameters": [pparam("Id")], "responses": {"204": {"description": "gone"}}}},
        },
        {"GetWirelessGatewayResponse": gw},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["DELETE /wireless-gateways/{Id}"][0] == "delete", ops
    w, st = world_of(model, wf)
    gone = sorted(table(st, "wireless_gateways"))[0]
    assert w.call(st, tool(model, "delete_wireless_gateway").qualified, {"id": gone})["success"]
    assert gone not in table(st, "wireless_gateways")


def test_a_collection_named_as_its_schema_keeps_the_word_of_role(tmp_path):
    """Azure Media's `/liveOutputs/{name}` holds `LiveOutput`s: live outputs ("the live "Cedar
    live" among the lives of that live event", a fresh draw's task, before); a response named
    `...Output` elsewhere still loses the word."""
    live = obj({"id": s(), "name": s(), "manifestName": s()})
    doc = spec(
        {
            "/liveOutputs": {"get": {"operationId": "LiveOutputs_List", "responses": ok(obj({"value": {"type": "array", "items": ref("LiveOutput")}}))}},
            "/liveOutputs/{liveOutputName}": {"get": {"operationId": "LiveOutputs_Get", "parameters": [pparam("liveOutputName")], "responses": ok(ref("LiveOutput"))}},
            "/jobs/{jobId}": {"get": {"operationId": "GetJob", "parameters": [pparam("jobId")], "responses": ok(ref("JobOutput"))}},
        },
        {"LiveOutput": live, "JobOutput": obj({"id": s(), "name": s(), "state": s()})},
    )
    result, ops, model, wf = run(tmp_path, doc)
    text = result.files["probe.world"]
    assert "record LiveOutput " in text and "record Job " in text, text[:800]


def test_an_id_in_a_create_body_is_the_servers(tmp_path):
    comment = obj({"id": s(), "etag": s(), "text": s()})
    doc = spec(
        {
            "/comments": {
                "get": {"operationId": "comments.list", "parameters": [{"name": "id", "in": "query", "schema": s()}], "responses": ok(obj({"items": {"type": "array", "items": ref("Comment")}}))},
                "post": {"operationId": "comments.insert", "requestBody": body(ref("Comment")), "responses": ok(ref("Comment"))},
            },
        },
        {"Comment": comment},
    )
    result, ops, _, _ = run(tmp_path, doc)
    assert ops["POST /comments"][0] == "create"
    assert re.search(r"tool comments_insert\(text: text[^)]*\)", result.files["probe.world"])  # no key parameter: a generated id


def azure_single() -> dict:
    """One Azure resource and nothing else: listed, read, created or updated by one `PUT`
    (`createOrUpdate`), deleted."""
    thing = obj({"id": s(), "name": s(), "location": s(), "properties": obj({"color": s(), "owner": s(), "tier": s(enum=["Basic", "Premium"])})})
    scope = [pparam("subscriptionId"), pparam("resourceGroupName")]
    item = [*scope, pparam("thingName")]
    return spec(
        {
            f"{AZ}/things": {"get": {"operationId": "Things_ListByResourceGroup", "parameters": scope, "responses": ok(obj({"value": {"type": "array", "items": ref("Thing")}}))}},
            f"{AZ}/things/{{thingName}}": {
                "get": {"operationId": "Things_Get", "parameters": item, "responses": ok(ref("Thing"))},
                "put": {"operationId": "Things_CreateOrUpdate", "summary": "Creates or updates a thing", "parameters": item, "requestBody": body(obj({"location": s(), "properties": obj({"color": s(), "owner": s()})})), "responses": ok(ref("Thing"))},
                "delete": {"operationId": "Things_Delete", "parameters": item, "responses": {"200": {"description": "ok"}}},
            },
        },
        {"Thing": thing},
    )


def test_a_recorded_change_sets_the_fields_its_arguments_are_named_for(tmp_path):
    """HDInsight's `RotateDiskEncryptionKey {keyName, keyVersion}` is recorded (what it does is
    not modelled), and a read after it showed the old key: a blind player re-read and was
    unsure. Its arguments named as fields of the row it names (`..._key_name`) now set them (a
    blank keeps the field); a one-word argument sets only a field of its own name (`kind` is no
    `properties_owner_kind`), and an action that is no change of the row (`Things_Export`)
    sets nothing."""
    doc = azure_single()
    doc["components"]["schemas"]["Thing"]["properties"]["properties"]["properties"].update(encryption=obj({"keyName": s(), "keyVersion": s()}), ownerKind=s())
    item = doc["paths"][f"{AZ}/things/{{thingName}}"]["get"]["parameters"]
    act = lambda op, props: {"post": {"operationId": op, "parameters": item, "requestBody": body(obj(props)), "responses": {"200": {"description": "ok"}}}}  # noqa: E731
    doc["paths"][f"{AZ}/things/{{thingName}}/rotateKey"] = act("Things_RotateKey", {"keyName": s(), "keyVersion": s(), "kind": s()})
    doc["paths"][f"{AZ}/things/{{thingName}}/export"] = act("Things_Export", {"keyName": s()})
    result, ops, model, wf = run(tmp_path, doc)
    assert ops[f"POST {AZ}/things/{{thingName}}/rotateKey"][0] == "recorded", ops
    w, st = world_of(model, wf)
    key, row = sorted(table(st, "things").items())[0]
    args = {"subscription_id": row["subscription_id"], "resource_group_name": row["resource_group_name"], "thing_name": key}
    fields = {f for f in row if f.endswith(("_key_name", "_key_version", "_kind"))}
    assert fields == {"properties_encryption_key_name", "properties_encryption_key_version", "properties_owner_kind"}, sorted(row)
    before = dict(row)
    assert w.call(st, tool(model, "things_rotate_key").qualified, {**args, "key_name": "k2", "key_version": "", "kind": "shared"})["success"]
    after = table(st, "things")[key]
    assert after["properties_encryption_key_name"] == "k2"
    assert after["properties_encryption_key_version"] == before["properties_encryption_key_version"]  # left blank: kept
    assert after["properties_owner_kind"] == before["properties_owner_kind"]  # `kind` is no owner kind
    assert w.call(st, tool(model, "things_export").qualified, {**args, "key_name": "k3"})["success"]
    assert table(st, "things")[key]["properties_encryption_key_name"] == "k2"  # an export changes no key


def test_a_create_or_update_inserts_under_the_callers_key_or_patches_the_row(tmp_path):
    result, ops, model, wf = run(tmp_path, azure_single())
    assert ops[f"PUT {AZ}/things/{{thingName}}"][0] == "upsert"
    w, st = world_of(model, wf)
    put = tool(model, "things_create_or_update").qualified
    key, row = sorted(table(st, "things").items())[0]
    scope = {"subscription_id": row["subscription_id"], "resource_group_name": row["resource_group_name"]}
    # a row the key names: the given field patched, a blank one and the others kept
    got = w.call(st, put, {**scope, "thing_name": key, "properties_color": "teal"})
    assert got["success"], got
    after = table(st, "things")[key]
    assert after["properties_color"] == "teal" and {f: after[f] for f in after if f != "properties_color"} == {f: row[f] for f in row if f != "properties_color"}
    # a key no row has: a new row under it, named by it (Azure's `name` is the path's), in the scope the call states
    got = w.call(st, put, {**scope, "thing_name": "thing-east", "location": "Oslo"})
    assert got["success"], got
    new = table(st, "things")["thing-east"]
    assert (new["name"], new["location"], new["resource_group_name"], new["properties_color"]) == ("thing-east", "Oslo", row["resource_group_name"], "")
    # a row of another resource group is not found, and the failed call changes nothing
    held = dict(table(st, "things"))
    bad = w.call(st, put, {**scope, "resource_group_name": "another group", "thing_name": key, "location": "Lima"})
    assert bad["error"]["code"] == 404 and table(st, "things") == held


def test_a_dotnet_create_on_one_item_creates_it(tmp_path):
    """Azure Support's `PUT .../supportTickets/{supportTicketName}` is `SupportTickets_Create`:
    its verb is the action after the underscore, not the resource before it. Read whole, it was
    an update: tasks said "update the support ticket" through a tool described "Creates a new
    support ticket", and no ticket could be created. A .NET `CreateOrUpdate` stays an upsert, as
    does a snake `create_or_update_thing` (read from its second word before, it was neither)."""
    doc = azure_single()
    put = doc["paths"][f"{AZ}/things/{{thingName}}"]["put"]
    put.update(operationId="Things_Create", summary="Creates a new thing")
    result, ops, model, wf = run(tmp_path, doc)
    assert ops[f"PUT {AZ}/things/{{thingName}}"][0] == "create"
    text = "\n".join(result.files.values())
    assert 'conflict "thing {thing_name} exists already"' in text
    w, st = world_of(model, wf)
    row = next(iter(table(st, "things").values()))
    scope = {"subscription_id": row["subscription_id"], "resource_group_name": row["resource_group_name"]}
    got = w.call(st, tool(model, "things_create").qualified, {**scope, "thing_name": "thing-east", "location": "Oslo"})
    assert got["success"] and "thing-east" in table(st, "things"), got
    put.update(operationId="create_or_update_thing", summary="")
    (tmp_path / "snake").mkdir()
    _, ops, _, _ = run(tmp_path / "snake", doc)
    assert ops[f"PUT {AZ}/things/{{thingName}}"][0] == "upsert"


def test_an_azure_resource_is_keyed_and_known_by_the_name_its_path_takes(tmp_path):
    """`.../things/{thingName}` answering a thing with an `id` and a `name`: the path takes the
    name (Azure's `id` is the full path), so the name is the key and what the row is known by;
    the id is that full path, the service's to give. Keyed by the id, a `thing_name` argument
    took "thing-3" while the row was named "Maple thing" (issue 30: 174 of 800 specs)."""
    thing = obj({"id": s(description="Fully qualified resource ID for the resource."), "name": s(description="The name of the resource"), "location": s(), "properties": obj({"color": s(), "owner": s()})})
    doc = azure_single()
    doc["components"]["schemas"]["Thing"] = thing
    result, ops, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert re.search(r"record Thing known by name \{\n    key name: ThingId", text), text
    w, st = world_of(model, wf)
    rows = table(st, "things")
    assert len(rows) >= 4 and all(r["name"] == k and not k.startswith("thing-") for k, r in rows.items())
    for k, r in rows.items():  # the full path, with the row's own scope and name
        assert r["id"] == f"/subscriptions/{r['subscription_id']}/resourceGroups/{r['resource_group_name']}/providers/Microsoft.Probe/things/{k}", r
    put = tool(model, "things_create_or_update")
    assert "id" not in [p[0] for p in put.params], put.params  # the service gives it
    _, tasks = sample_tasks(wf, tmp_path, 3, 6, 1, 80)
    said = [t["instruction"] for t in tasks]
    assert said and any(re.search(r'the thing "[^"]+ thing"', x) for x in said), said
    assert not any(re.search(r'"thing-\d+"|\(the one\)', x) for x in said), said


def test_a_read_never_gives_a_later_step_a_name_the_instruction_states(tmp_path):
    """Servers and databases known by the names their paths take (D60): 'update the server
    "Orion server"' after a read of the servers' list that found it by that name made the read
    a step no agent needs (the name is the key). Now a walk opens on the named server (a named
    entry, D61), and a read finds a record by what it holds ("the database with max size bytes
    69 among the databases of that server"): no value a read gives a later step is a quoted
    value of the instruction, and every task still plays to reward 1 from its reference plan."""
    from compoworld_dsl.sample.worker import load_sampler
    from test_scripted_agents import play

    _, _, _, wf = run(tmp_path, azure_like())
    world, tasks = sample_tasks(wf, tmp_path, 3, 6, 1, 80)
    mutating = load_sampler(str(wf)).facts.mutating
    named_entry = described = 0
    for task in tasks:
        plan, text = task["reference_plan"], task["instruction"]
        for i, (call, bound) in enumerate(zip(plan, task["bindings"])):
            for n, src in bound.items():
                m = re.fullmatch(r"step (\d+)\.\w+", src)
                if m is None or plan[int(m.group(1)) - 1]["tool"] in mutating:
                    continue
                v = call["arguments"][n]
                assert not (isinstance(v, str) and f'"{v}"' in text), (text, i + 1, n, v)
        first = plan[0]
        if first["tool"] in mutating and task["bindings"][0].get("server_name") == "instruction" and f'the server "{first["arguments"]["server_name"]}"' in text:
            named_entry += 1
        # (set apart where the request's own values follow: "(the one with ... among ...)", stop 67)
        described += bool(re.search(r"the database (?:\(the one )?with [a-z ]+ \d+ among the databases of", text))
        score, _ = play(world, task, [(c["tool"], c["arguments"]) for c in plan], task.get("answer"))
        assert score["reward"] == 1, (text, score)
    assert named_entry and described, [t["instruction"] for t in tasks]


def test_a_single_azure_resource_gives_a_three_hop_task_that_checks_the_stated_name(tmp_path):
    """With `createOrUpdate` an update only, one Azure resource gave no 3-hop task (29 of 600
    corpus specs). As a create too, a walk replaces a row: it finds one, makes a new one from
    its values under a stated name, and deletes the old one. The new row's key is the stated
    name, so an agent that makes it under another name fails."""
    from compoworld_dsl.gateway import Episode
    from compoworld_dsl.sample.run import Job, run as sample
    from compoworld_dsl.sample.worker import load_sampler

    _, _, _, wf = run(tmp_path, azure_single())
    rep = sample(Job(str(wf), 3, 3, 1, max_attempts=60), tmp_path / "t.jsonl")
    assert rep.emitted == 3, rep.rejected.most_common(3)
    world = load_sampler(str(wf)).world
    creating = 0
    for line in (tmp_path / "t.jsonl").read_text().splitlines():
        task = json.loads(line)
        plan = [(p["tool"], p["arguments"]) for p in task["reference_plan"]]
        assert len(plan) == 3
        seeded = next(t for q, t in world.initial_state(task["initial_state"]["seed"]).tables.items() if q.endswith(".things"))
        new = [i for i, (q, a) in enumerate(plan) if q.endswith("create_or_update") and a["thing_name"] not in seeded]
        creating += bool(new)
        for renamed in (False, True):
            ep = Episode(world)
            ep.reset(task)
            names = {q: n for n, q in ep.gateway.names.items()}
            for i, (q, args) in enumerate(plan):
                if renamed and i in new:
                    args = {**args, "thing_name": "thing-elsewhere"}
                ep.call("call_tool", {"tool_name": names.get(q, q), "arguments": args})
            ep.report(task.get("answer"))
            assert ep.score()["reward"] == (0 if renamed and new else 1), (task["instruction"], renamed)
    assert creating, "no task created a row under a stated name"


def test_a_top_level_create_or_update_continues_a_walk_on_a_found_record_and_says_its_role(tmp_path):
    """A create-or-update of a resource with no parent (its key its only reference) may come
    after the first step on a record that step found (D55); before, it only opened a walk, so
    a one-resource Azure spec never updated a found thing through it. Its phrase says what the
    step does: "update" for a found record, "create" for a stated new name, never the spec's
    "create or update"."""
    from compoworld_dsl.sample.run import Job, run as sample

    _, _, _, wf = run(tmp_path, azure_single())
    rep = sample(Job(str(wf), 2, 16, 3, max_attempts=200), tmp_path / "t.jsonl")
    assert rep.emitted == 16, rep.rejected.most_common(3)
    roles = set()
    for task, i, role in upsert_roles(wf, tmp_path / "t.jsonl", "things", "thing_name"):
        assert "create or update" not in task["instruction"], task["instruction"]
        assert re.search(rf"\b{role}\b", task["instruction"], re.I), task["instruction"]
        roles.add((role, i > 0))
    assert ("update", True) in roles, roles


def upsert_roles(wf, out, table_name: str, key: str):
    """(task, step, role) of each create-or-update call in the sampled tasks at `out`: "update"
    where its key names a seeded row of the table, "create" where it is a new name."""
    from compoworld_dsl.sample.worker import load_sampler

    world = load_sampler(str(wf)).world
    for line in out.read_text().splitlines():
        task = json.loads(line)
        seeded = next(t for q, t in world.initial_state(task["initial_state"]["seed"]).tables.items() if q.endswith("." + table_name))
        for i, p in enumerate(task["reference_plan"]):
            if p["tool"].endswith(f"{table_name}_create_or_update"):
                yield task, i, "update" if p["arguments"][key] in seeded else "create"


def test_a_create_or_update_is_walked_both_as_a_create_and_as_an_update(tmp_path):
    """Half the walks that reach a create-or-update with a record of its table in hand change
    that record (D55); the others create one under a stated new name. With only the create,
    a multi-resource Azure spec walked through it as an update lost its tasks (security
    automations, seed 8484)."""
    from compoworld_dsl.sample.run import Job, run as sample

    doc = azure_like()
    db = f"{AZ}/servers/{{serverName}}/databases/{{databaseName}}"
    doc["paths"][db]["put"] = {**doc["paths"][db].pop("patch"), "operationId": "Databases_CreateOrUpdate"}
    _, ops, _, wf = run(tmp_path, doc)
    assert ops[f"PUT {db}"][0] == "upsert"
    # an update needs the database found first (servers, then its databases, then the upsert):
    # one walk in fifteen or so, so a few seeds' tasks are read, not one seed's dozen
    roles = set()
    for seed in (2, 4, 5, 6):
        out = tmp_path / f"t{seed}.jsonl"
        rep = sample(Job(str(wf), 3, 12, seed, max_attempts=200), out)
        assert rep.emitted == 12, rep.rejected.most_common(3)
        roles |= {role for _, _, role in upsert_roles(wf, out, "databases", "database_name")}
    assert roles == {"update", "create"}, roles


# ─── a proposed rule whose flag is named like a status member ───


def test_a_flag_named_like_a_status_member_gives_a_rule_that_checks(tmp_path):
    order = obj({"id": s(), "title": s(), "status": s(enum=["open", "voided", "completed"]), "voided": s("boolean")})
    doc = spec(
        {
            "/orders": {"get": {"operationId": "listOrders", "responses": ok({"type": "array", "items": ref("Order")})}},
            "/orders/{id}": {
                "get": {"operationId": "getOrder", "parameters": [pparam("id")], "responses": ok(ref("Order"))},
                "patch": {"operationId": "updateOrder", "parameters": [pparam("id")], "requestBody": body(obj({"title": s()})), "responses": ok(ref("Order"))},
            },
        },
        {"Order": order},
    )
    result, _, _, _ = run(tmp_path, doc)  # `run` asserts that it checks (E101 before)
    assert "untouched r_ in orders where r_.status == voided or r_.voided" in result.files["probe.world"]


# ─── the probe: random mixes of these styles ───


def random_spec(rng: random.Random) -> dict:
    """A random API of 2-4 resources, each under an Azure-like scope or not, its item path in
    the singular with a plural list (AWS) or the plural both ways, some children of others,
    some embedding another's record, some created under the caller's key."""
    names = rng.sample(["widget", "gadget", "crate", "ledger", "portal", "beacon", "vault"], rng.randint(2, 4))
    scoped = rng.random() < 0.5
    scope = [pparam("subscriptionId"), pparam("resourceGroupName")] if scoped else []
    prefix = AZ if scoped else ""
    paths: dict = {}
    schemas: dict = {}
    made: list[tuple[str, str]] = []  # (noun, item path)
    for i, n in enumerate(names):
        noun = n.capitalize()
        props = {f"{n}Name": s(), "title": s(), "size": s("integer")}
        if made and rng.random() < 0.5:
            other = rng.choice(made)[0]
            props[other] = obj({"id": s(), "name": s(), **{f"x{j}": s() for j in range(9)}})  # embedded
        schemas[noun] = obj(props)
        parent = rng.choice(made) if made and rng.random() < 0.4 else None
        base = parent[1] if parent else prefix
        params = [*scope] + ([pparam(f"{parent[0]}Name")] if parent else [])
        singular_item = rng.random() < 0.5
        coll = f"{base}/{n}s"
        item = f"{base}/{n if singular_item else n + 's'}/{{{n}Name}}"
        key = pparam(f"{n}Name")
        paths[coll] = {"get": {"operationId": f"List{noun}s", "parameters": params, "responses": ok(obj({"items": {"type": "array", "items": ref(noun)}}))}}
        ops = {"get": {"operationId": f"Describe{noun}", "parameters": [*params, key], "responses": ok(ref(noun))}}
        if rng.random() < 0.6:
            ops["post"] = {"operationId": f"Create{noun}", "parameters": [*params, key], "requestBody": body(obj({"title": s(), "size": s("integer")}, ["title"])), "responses": ok(ref(noun))}
        if rng.random() < 0.5:
            ops["delete"] = {"operationId": f"Delete{noun}", "parameters": [*params, key], "responses": ok(obj({}))}
        paths[item] = ops
        made.append((n, item))
    return spec(paths, schemas)


def tables_by_key(model) -> tuple[dict, dict]:
    """({key alias name: "service.table"}, {"service.table": RecordT}) of a checked world."""
    by_key, recs = {}, {}
    for sname, svc in model.services.items():
        for vname, var in svc.state.items():
            if isinstance(var.type, T.TableT):
                rec = var.type.record
                recs[f"{sname}.{vname}"] = rec
                kt = rec.fields.get(rec.key) if rec.key else None
                if isinstance(kt, T.Alias):
                    by_key[kt.name] = f"{sname}.{vname}"
    return by_key, recs


def test_probe_random_mixes_of_styles(tmp_path):
    rng = random.Random(30)
    keyed = 0
    for i in range(250 if LONG else 25):
        doc = random_spec(rng)
        d = tmp_path / str(i)
        d.mkdir()
        result, _, model, wf = run(d, doc)  # it checks
        w, st = world_of(model, wf)
        for field in ("subscription_id", "resource_group_name"):
            values = {r[field] for t in st.tables.values() for r in t.values() if field in r}
            assert len(values) <= 1, (i, field, values)
        by_key, recs = tables_by_key(model)
        for q, rec in recs.items():
            for fname, ft in rec.fields.items():
                target = by_key.get(ft.name) if isinstance(ft, T.Alias) and fname != rec.key else None
                if target is not None:
                    bad = [r[fname] for r in st.tables[q].values() if r[fname] not in ("", None) and r[fname] not in st.tables[target]]
                    assert not bad, (i, q, fname, bad)
        # every create under the caller's key refuses a key a row has and inserts under a new one
        for o in (o for o in result.ops if o.kind == "create" and "{" in o.label.rsplit("/", 1)[-1]):
            t = next(t for t in model.tools() if t.qualified == o.tool)
            key_param, q = next((n, by_key[pt.name]) for n, pt in t.params if isinstance(pt, T.Alias) and by_key.get(pt.name, "").startswith(t.service + "."))
            rows = st.tables[q]
            row_key, row = sorted(rows.items())[0]
            args = {n: row[n] for n, _ in t.params if n != key_param and n in row}  # its parents and scopes as the row has them
            args["title"] = "Probe title"
            taken = w.call(st, t.qualified, {**args, key_param: row_key})
            assert not taken["success"] and taken["error"]["code"] == 409, (i, o.label, taken)
            before = len(rows)
            made = w.call(st, t.qualified, {**args, key_param: "fresh-key-1"})
            assert made["success"], (i, o.label, made)
            assert len(st.tables[q]) == before + 1 and st.tables[q]["fresh-key-1"]["title"] == "Probe title"
            keyed += 1
    assert keyed >= 10  # the mixes did make creates under the caller's key (40 in the 25 specs)


def test_a_walk_calls_a_create_under_a_key_it_states(tmp_path):
    """A create under the key the caller chooses (`POST /channel/{ChannelName}`) was never
    sampled: the walk took every key from an earlier result. Now the new row's key is a name the
    instruction states, quoted, held by no row; a child created under the new channel takes it."""
    from compoworld_dsl.sample.run import load_sampler
    from test_scripted_agents import sampled

    channel = obj({"ChannelName": s(), "Title": s(), "Tier": s(enum=["basic", "standard"])})
    program = obj({"ProgramName": s(), "ChannelName": s(), "Title": s(), "Minutes": s("integer")})
    doc = spec(
        {
            "/channels": {"get": {"operationId": "ListChannels", "responses": ok(obj({"Items": {"type": "array", "items": ref("Channel")}}))}},
            "/channel/{ChannelName}": {
                "get": {"operationId": "DescribeChannel", "parameters": [pparam("ChannelName")], "responses": ok(ref("Channel"))},
                "post": {"operationId": "CreateChannel", "parameters": [pparam("ChannelName")], "requestBody": body(obj({"Title": s(), "Tier": s(enum=["basic", "standard"])}, ["Title"])), "responses": ok(ref("Channel"))},
                "delete": {"operationId": "DeleteChannel", "parameters": [pparam("ChannelName")], "responses": ok(obj({}))},
            },
            "/channel/{ChannelName}/programs": {"get": {"operationId": "ListPrograms", "parameters": [pparam("ChannelName")], "responses": ok(obj({"Items": {"type": "array", "items": ref("Program")}}))}},
            "/channel/{ChannelName}/program/{ProgramName}": {
                "get": {"operationId": "DescribeProgram", "parameters": [pparam("ChannelName"), pparam("ProgramName")], "responses": ok(ref("Program"))},
                "post": {"operationId": "CreateProgram", "parameters": [pparam("ChannelName"), pparam("ProgramName")], "requestBody": body(obj({"Title": s(), "Minutes": s("integer")}, ["Title"])), "responses": ok(ref("Program"))},
            },
        },
        {"Channel": channel, "Program": program},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["POST /channel/{ChannelName}"][0] == "create"
    sampler = load_sampler(str(wf))
    tasks = sampled(sampler, 1, 3, range(30))
    made = [(t, st) for t in tasks for st in t["reference_plan"] if st["tool"].endswith(".create_channel")]
    assert made, [t["instruction"] for t in tasks]
    for t, st in made:  # (held by no row: the create refuses a taken key, and every plan passes)
        name = st["arguments"]["channel_name"]
        assert re.fullmatch(r"channel-[a-z]+", name), name  # a name a person gives, not "channel-9"
        assert f'"{name}"' in t["instruction"], t["instruction"]


def test_a_value_carried_from_a_record_described_by_several_fields_comes_last(tmp_path):
    """A blind player read "... the same schedule expression as the schedule with description
    "X", state enabled and creation date ..., target "{}", with group name ..." as if the state
    and the date were the new schedule's: a carried value whose record's description is a list of
    its own goes after the request's own values (`Phraser._described_last`)."""
    from compoworld_dsl.sample.run import load_sampler
    from test_scripted_agents import sampled

    schedule = obj({"Name": s(), "Description": s(), "State": s(enum=["ENABLED", "DISABLED"]), "ScheduleExpression": s(), "GroupName": s(), "Target": s()})
    doc = spec(
        {
            "/schedules": {"get": {"operationId": "ListSchedules", "responses": ok(obj({"Schedules": {"type": "array", "items": ref("Schedule")}}))}},
            "/schedules/{Name}": {
                "get": {"operationId": "GetSchedule", "parameters": [pparam("Name")], "responses": ok(ref("Schedule"))},
                "post": {"operationId": "CreateSchedule", "parameters": [pparam("Name")], "requestBody": body(obj({"Description": s(), "ScheduleExpression": s(), "Target": s(), "GroupName": s(), "State": s(enum=["ENABLED", "DISABLED"])}, ["Description", "ScheduleExpression", "Target"])), "responses": ok(ref("Schedule"))},
                "delete": {"operationId": "DeleteSchedule", "parameters": [pparam("Name")], "responses": ok(obj({}))},
            },
        },
        {"Schedule": schedule},
    )
    _, _, _, wf = run(tmp_path, doc)
    tasks = sampled(load_sampler(str(wf)), 31, 3, range(40))
    plain = [re.sub(r'"[^"]*"', '"Q"', t["instruction"]) for t in tasks]  # (quoted values hold full stops)
    carried = [text for text in plain if re.search(r"the same [a-z ]+ as the schedule with [^.]*(, | and )", text)]
    assert carried, plain
    for text in carried:
        # what follows the carried value's record is the end of the sentence, no value of the new one
        m = re.search(r"the same [a-z ]+ as the schedule with (.*?)\.(?: |$)", text)
        assert m and not re.search(r", (?:with )?(?:target|group name|description) ", m.group(1)), text


def test_a_create_or_updates_scope_comes_before_the_value_it_carries(tmp_path):
    """A blind player read "create or update azure firewall "X" with resource location
    "Chicago" and the same zones as the azure firewall "Atlas" with subscription ID ... and
    resource group name ..." as if the scope were the found firewall's: a value carried from a
    found record goes last, whether the phrase said it first, in the middle or last of its values
    (`Phraser._described_last`); and a parent said by its noun is not named twice ("server the
    server "Cedar server"")."""
    from compoworld_dsl.sample.run import load_sampler
    from test_scripted_agents import sampled

    _, _, _, wf = run(tmp_path, azure_single())
    tasks = sampled(load_sampler(str(wf)), 7, 3, range(30))
    plain = [re.sub(r'"[^"]*"', '"Q"', t["instruction"]) for t in tasks]
    made = [x for text in plain for x in re.split(r"(?<=\.) ", text) if x.startswith(("Create ", "Update ")) and re.search(r" (?:as|of) the thing ", x)]
    assert made, plain
    for x in made:
        after = re.split(r" (?:as|of) the thing ", x, maxsplit=1)[1]
        # (the found thing's own description may follow it, set apart: 'the thing "Q" (the one
        # with location "Q")', not 'the thing "Q" with location "Q"', read as a value asked for)
        assert "subscription ID" in x and not re.search(r"subscription ID|resource group name", after) and not re.search(r"(?:, |^\s*,? ?and )(?:with )?(?:location|color|owner) ", after), x
        assert not re.match(r'"Q" with ', after), x
    # (a thing is keyed by its name, `{thingName}`: its name alone says which, and ends the sentence)
    assert any(re.search(r'the thing "Q"(?: \(the one with [^)]+\))?\.?$', x) for x in made), made

    doc = azure_like()
    db = f"{AZ}/servers/{{serverName}}/databases/{{databaseName}}"
    doc["paths"][db]["put"] = {**doc["paths"][db].pop("patch"), "operationId": "Databases_CreateOrUpdate"}
    (tmp_path / "two").mkdir()
    _, _, _, wf = run(tmp_path / "two", doc)
    texts = [t["instruction"] for t in sampled(load_sampler(str(wf)), 2, 3, range(30))]
    assert any(' the server "' in x for x in texts) and not any("server the server" in x for x in texts), texts


def test_an_updates_locators_come_before_the_values_it_sets(tmp_path):
    """A blind player read "update the media service ... with new location "Melbourne", with
    resource group name "Atlas resource group"" as if the resource group were a new value too:
    the arguments that only find the record go before what the update sets
    (`Phraser._locators_first`)."""
    from compoworld_dsl.sample.run import Job, run as sample

    # the servers are listed by subscription alone, so the resource group does not find them
    server = obj({"id": s(), "name": s(), "location": s(), "resourceGroup": s(), "properties": obj({"version": s()})})
    scope = [pparam("subscriptionId"), pparam("resourceGroupName")]
    doc = spec(
        {
            "/subscriptions/{subscriptionId}/providers/Microsoft.Probe/servers": {"get": {"operationId": "Servers_List", "parameters": [pparam("subscriptionId")], "responses": ok(obj({"value": {"type": "array", "items": ref("Server")}}))}},
            f"{AZ}/servers/{{serverName}}": {
                "get": {"operationId": "Servers_Get", "parameters": [*scope, pparam("serverName")], "responses": ok(ref("Server"))},
                "patch": {"operationId": "Servers_Update", "parameters": [*scope, pparam("serverName")], "requestBody": body(obj({"location": s(), "properties": obj({"version": s()})})), "responses": ok(ref("Server"))},
                "delete": {"operationId": "Servers_Delete", "parameters": [*scope, pparam("serverName")], "responses": {"200": {"description": "ok"}}},
            },
            f"{AZ}/servers/{{serverName}}/restart": {"post": {"operationId": "Servers_Restart", "parameters": [*scope, pparam("serverName")], "responses": {"200": {"description": "ok"}}}},
        },
        {"Server": server},
    )
    _, _, _, wf = run(tmp_path, doc)
    sample(Job(str(wf), 2, 12, 5, max_attempts=80), tmp_path / "t.jsonl")
    tasks = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    sentences = [x for t in tasks for x in re.split(r"(?<=\.) ", re.sub(r'"[^"]*"', '"Q"', t["instruction"])) if x.startswith("Update ") and " with location " in x]
    assert sentences, [t["instruction"] for t in tasks]
    for x in sentences:
        # nothing that finds the record (the resource group) after the value the update sets
        assert "resource group name" not in x[x.rindex(" with location ") :], x


def test_a_value_two_goals_on_one_record_each_take_is_said_for_each(tmp_path):
    """LaunchDarkly's "for the new environment, reset sdk key of that project, with expiry 32,
    and reset an environment's mobile key of that project": the second reset took expiry 32 too,
    unsaid (a value said once across the goals about one record), and a blind player, rightly,
    gave it none. A value is said once only where the record's description says it."""
    from compoworld_dsl.sample.run import load_sampler
    from test_scripted_agents import sampled

    project = obj({"key": s(), "name": s()})
    env = obj({"key": s(), "name": s(), "color": s()})
    expiry = body(obj({"expiry": s("integer")}, ["expiry"]))
    pp = [pparam("projectKey")]
    doc = spec(
        {
            "/projects": {
                "get": {"operationId": "getProjects", "responses": ok(obj({"items": {"type": "array", "items": ref("Project")}}))},
                "post": {"operationId": "postProject", "requestBody": body(obj({"name": s(), "key": s()}, ["name", "key"])), "responses": ok(ref("Project"))},
            },
            "/projects/{projectKey}/environments": {"post": {"operationId": "postEnvironment", "parameters": pp, "requestBody": body(obj({"name": s(), "key": s(), "color": s()}, ["name", "key", "color"])), "responses": ok(ref("Environment"))}},
            "/projects/{projectKey}/environments/{environmentKey}": {"get": {"operationId": "getEnvironment", "parameters": [*pp, pparam("environmentKey")], "responses": ok(ref("Environment"))}},
            "/projects/{projectKey}/environments/{environmentKey}/apiKey": {"post": {"operationId": "resetEnvironmentSDKKey", "summary": "Reset an environment's SDK key", "parameters": [*pp, pparam("environmentKey")], "requestBody": expiry, "responses": ok(ref("Environment"))}},
            "/projects/{projectKey}/environments/{environmentKey}/mobileKey": {"post": {"operationId": "resetEnvironmentMobileKey", "summary": "Reset an environment's mobile key", "parameters": [*pp, pparam("environmentKey")], "requestBody": expiry, "responses": ok(ref("Environment"))}},
        },
        {"Project": project, "Environment": env},
    )
    _, _, _, wf = run(tmp_path, doc)
    tasks = sampled(load_sampler(str(wf)), 1, 4, range(40))
    both = 0
    for t in tasks:
        said: dict[str, int] = {}
        for st in t["reference_plan"]:
            if st["tool"].endswith(("reset_environment_sdk_key", "reset_environment_mobile_key")):
                said[f"expiry {st['arguments']['expiry']}"] = said.get(f"expiry {st['arguments']['expiry']}", 0) + 1
        for words, n in said.items():
            both += n > 1
            assert t["instruction"].count(words) >= n, t["instruction"]
    assert both, [t["instruction"] for t in tasks]


def test_a_new_records_value_an_earlier_result_gives_says_its_label(tmp_path):
    """Box's "add an invite the created by login of the retention policy base ...": a create's
    phrase names the new record by a value right after its noun, and where an earlier result
    gives that value the sentence read as nonsense. It says the label now: "add an invite with
    login the created by login of ..." (`Phraser._carried_name`)."""
    from compoworld_dsl.sample.run import load_sampler
    from test_scripted_agents import sampled

    policy = obj({"id": s(), "name": s(), "created_by": obj({"login": s("string", format="email")})})
    invite = obj({"id": s(), "login": s("string", format="email"), "status": s(enum=["pending", "accepted"])})
    doc = spec(
        {
            "/policies": {"get": {"operationId": "getPolicies", "responses": ok(obj({"entries": {"type": "array", "items": ref("Policy")}}))}},
            "/policies/{policyId}": {
                "get": {"operationId": "getPolicy", "parameters": [pparam("policyId")], "responses": ok(ref("Policy"))},
                "delete": {"operationId": "deletePolicy", "parameters": [pparam("policyId")], "responses": {"204": {"description": "gone"}}},
            },
            "/invites": {"post": {"operationId": "postInvites", "summary": "Create user invite", "requestBody": body(obj({"login": s("string", format="email")}, ["login"])), "responses": ok(ref("Invite"))}},
            "/invites/{inviteId}": {"get": {"operationId": "getInvite", "parameters": [pparam("inviteId")], "responses": ok(ref("Invite"))}},
        },
        {"Policy": policy, "Invite": invite},
    )
    _, _, _, wf = run(tmp_path, doc)
    tasks = sampled(load_sampler(str(wf)), 1, 3, range(40))
    carried = [t for t in tasks for st in t["reference_plan"] if st["tool"].endswith(".post_invites") and f'"{st["arguments"]["login"]}"' not in t["instruction"]]
    assert carried, [t["instruction"] for t in tasks]
    for t in carried:
        assert re.search(r"\badd an invite with login the ", t["instruction"], re.I), t["instruction"]


def test_a_collection_with_a_format_extension_is_the_items_collection(tmp_path):
    """shop-pro's `/inline_script_tags.json` beside `/inline_script_tags/{id}.json` were two
    tables ("inline script tags JSON" held what was listed and created, "inline script tag" what
    was read, updated and deleted), so no create fed a later step; 31 corpus specs write paths
    so (Jumpseller, Discourse, Salesloft, Twilio). And a create on such a collection whose body
    sets no field of the row (Twilio's credential list mappings take a credential list's sid) is
    a recorded action on the parent its path names, not a simulated call."""
    tag = obj({"id": s("integer"), "src": s(), "display_scope": s(enum=["all", "shop"])})
    mapping = obj({"sid": s(), "friendly_name": s()})
    domain = obj({"sid": s(), "domain_name": s()})
    dp = [pparam("DomainSid")]
    doc = spec(
        {
            "/script_tags.json": {
                "get": {"operationId": "getScriptTags", "responses": ok(obj({"script_tags": {"type": "array", "items": ref("ScriptTag")}}))},
                "post": {"operationId": "createScriptTag", "requestBody": body(obj({"src": s(), "display_scope": s(enum=["all", "shop"])}, ["src"])), "responses": ok(ref("ScriptTag"))},
            },
            "/script_tags/{script_tag_id}.json": {
                "get": {"operationId": "getScriptTag", "parameters": [pparam("script_tag_id")], "responses": ok(ref("ScriptTag"))},
                "delete": {"operationId": "deleteScriptTag", "parameters": [pparam("script_tag_id")], "responses": {"204": {"description": "gone"}}},
            },
            "/Domains.json": {"get": {"operationId": "listDomains", "responses": ok(obj({"domains": {"type": "array", "items": ref("Domain")}}))}},
            "/Domains/{DomainSid}.json": {"get": {"operationId": "fetchDomain", "parameters": dp, "responses": ok(ref("Domain"))}},
            "/Domains/{DomainSid}/Mappings.json": {
                "get": {"operationId": "listMappings", "parameters": dp, "responses": ok(obj({"mappings": {"type": "array", "items": ref("Mapping")}}))},
                "post": {"operationId": "createMapping", "parameters": dp, "requestBody": body(obj({"CredentialListSid": s()}, ["CredentialListSid"])), "responses": ok(ref("Mapping"))},
            },
            "/Domains/{DomainSid}/Mappings/{Sid}.json": {"get": {"operationId": "fetchMapping", "parameters": [*dp, pparam("Sid")], "responses": ok(ref("Mapping"))}},
        },
        {"ScriptTag": tag, "Mapping": mapping, "Domain": domain},
    )
    _, ops, model, _ = run(tmp_path, doc)
    assert ops["POST /script_tags.json"][0] == "create" and ops["GET /script_tags.json"][0] == "list"
    assert ops["GET /script_tags/{script_tag_id}.json"][0] == "get"
    tables = [t for svc in model.services.values() for t in svc.state]
    assert sum("script_tag" in t for t in tables) == 1, tables
    assert ops["POST /Domains/{DomainSid}/Mappings.json"][0] == "recorded", ops["POST /Domains/{DomainSid}/Mappings.json"]


# ─── a change the world model records ───


def test_a_recorded_change_states_what_it_changes_and_no_delete_follows_it(tmp_path):
    """A `PUT /themes/{id}` whose body sets no field of the theme is recorded (the world model:
    what it does to the row is not modelled). A walk asked "update the theme "Maple theme""
    with nothing to say about how, and then "delete that theme", which makes the update
    pointless (a blind round of stop 51). Neither is walked now: every recorded update a plan
    makes states a value, and no plan deletes a theme an earlier step updated."""
    from compoworld_dsl.sample.run import Job, run as sample

    theme = obj({"id": s(), "name": s(), "role": s(enum=["main", "unpublished", "demo"]), "previewable": s("boolean")})
    item = [pparam("themeId")]
    doc = spec(
        {
            "/themes": {
                "get": {"operationId": "listThemes", "responses": ok({"type": "array", "items": ref("Theme")})},
                "post": {"operationId": "createTheme", "requestBody": body(obj({"name": s(), "role": s(enum=["main", "unpublished", "demo"])})), "responses": ok(ref("Theme"))},
            },
            "/themes/{themeId}": {
                "get": {"operationId": "getTheme", "parameters": item, "responses": ok(ref("Theme"))},
                "put": {"operationId": "updateTheme", "parameters": item, "responses": ok(ref("Theme"))},
                "delete": {"operationId": "deleteTheme", "parameters": item, "responses": {"204": {"description": "gone"}}},
            },
            "/themes/{themeId}/publish": {"post": {"operationId": "publishTheme", "parameters": item, "requestBody": body(obj({"note": s()})), "responses": ok(ref("Theme"))}},
        },
        {"Theme": theme},
    )
    _, ops, _, wf = run(tmp_path, doc)
    assert ops["PUT /themes/{themeId}"][0] == "recorded", ops["PUT /themes/{themeId}"]
    rep = sample(Job(str(wf), 3, 12, 5, max_attempts=300), tmp_path / "t.jsonl")
    assert rep.emitted >= 1, rep.rejected.most_common(3)
    for line in (tmp_path / "t.jsonl").read_text().splitlines():
        plan = json.loads(line)["reference_plan"]
        for i, p in enumerate(plan):
            name = p["tool"].rsplit(".", 1)[-1]
            if name == "update_theme":
                assert set(p["arguments"]) - {"theme_id"}, plan
            if name == "delete_theme":
                assert not any(q["tool"].endswith("update_theme") and q["arguments"].get("theme_id") == p["arguments"]["theme_id"] for q in plan[:i]), plan


def test_a_recorded_change_named_verb_last_states_more_than_where_its_record_is(tmp_path):
    """Azure names its operations noun first (`Servers_Update` → `servers_update`), and a
    recorded update takes the record's scope too: "create or updates the backend ..., then update
    that backend" stated the subscription, resource group and service the backend is found by,
    and nothing to change (a fresh round's draw, API Management). The verb counts wherever the
    name has it, and arguments whose values the named row holds under their names only find it."""
    from compoworld_dsl.sample.run import Job, run as sample

    doc = azure_like()
    item = f"{AZ}/servers/{{serverName}}"
    doc["paths"][item]["patch"]["requestBody"] = body(obj({"tags": obj({"team": s()}), "properties": obj({"administratorLoginPassword": s()})}))
    _, ops, _, wf = run(tmp_path, doc)
    assert ops[f"PATCH {item}"][0] == "recorded", ops[f"PATCH {item}"]
    where = {"subscription_id", "resource_group_name", "server_name"}
    for seed in (1, 2, 3):
        out = tmp_path / f"t{seed}.jsonl"
        sample(Job(str(wf), 2, 8, seed, max_attempts=200), out)
        for line in out.read_text().splitlines():
            for p in json.loads(line)["reference_plan"]:
                if p["tool"].endswith(".servers_update"):
                    assert any(v not in ("", None) for n, v in p["arguments"].items() if n not in where), p


# ─── a count the world stores ───


def test_a_stored_count_of_children_is_not_asked_for_after_the_task_adds_one(tmp_path):
    """A project's `featureCount` is seeded and stored: nothing derives it, so after the task
    adds a feature it reads as before, where the API counts one more. A blind player was asked
    "add a feature to that project ... then tell me the feature count of that project" and
    answered the unchanged 42 (round 11). A count of rows that refer to the record is not
    reported where the task adds or removes such rows."""
    from compoworld_dsl.sample.run import Job, run as sample

    project = obj({"id": s(), "name": s(), "region": s(enum=["east", "west", "north"]), "featureCount": s("integer"), "launchCount": s("integer")})
    feature = obj({"id": s(), "name": s(), "projectId": s(), "strategy": s(enum=["all", "default"])})
    doc = spec(
        {
            "/projects": {"get": {"operationId": "listProjects", "responses": ok({"type": "array", "items": ref("ProjectSummary")})}},
            "/projects/{projectId}": {"get": {"operationId": "getProject", "parameters": [pparam("projectId")], "responses": ok(ref("Project"))}},
            "/projects/{projectId}/features": {
                "get": {"operationId": "listFeatures", "parameters": [pparam("projectId")], "responses": ok({"type": "array", "items": ref("Feature")})},
                "post": {"operationId": "createFeature", "parameters": [pparam("projectId")], "requestBody": body(obj({"name": s(), "strategy": s(enum=["all", "default"])})), "responses": ok(ref("Feature"))},
            },
        },
        {"Project": project, "ProjectSummary": obj({"id": s(), "name": s(), "region": s(enum=["east", "west", "north"])}), "Feature": feature},
    )
    _, _, _, wf = run(tmp_path, doc)
    rep = sample(Job(str(wf), 3, 16, 4, max_attempts=300), tmp_path / "t.jsonl")
    assert rep.emitted >= 8, rep.rejected.most_common(3)
    adding = 0
    for line in (tmp_path / "t.jsonl").read_text().splitlines():
        task = json.loads(line)
        if any(p["tool"].endswith("create_feature") for p in task["reference_plan"]):
            adding += 1
            assert not any(r.get("field") == "feature_count" for r in task["reports"]), task["instruction"]
    assert adding, "no task added a feature"


def test_an_update_sets_the_fields_of_an_object_two_levels_down(tmp_path):
    """Azure's private endpoint connections are updated by a PUT whose body sets
    `properties.privateLinkServiceConnectionState.status`, two objects down: read one level only,
    the body set "no field of the record" and the update was a recorded call whose effect no
    task could check (MariaDB's `PrivateEndpointConnections_CreateOrUpdate`)."""
    state = obj({"status": s(), "description": s()})
    conn = obj({"id": s(), "name": s(), "properties": obj({"privateLinkServiceConnectionState": state, "provisioningState": {"type": "string", "readOnly": True}})})
    scope = [pparam("subscriptionId"), pparam("resourceGroupName")]
    item = [*scope, pparam("connectionName")]
    doc = spec(
        {
            f"{AZ}/connections": {"get": {"operationId": "Connections_List", "parameters": scope, "responses": ok(obj({"value": {"type": "array", "items": ref("Connection")}}))}},
            f"{AZ}/connections/{{connectionName}}": {
                "get": {"operationId": "Connections_Get", "parameters": item, "responses": ok(ref("Connection"))},
                "patch": {"operationId": "Connections_Update", "parameters": item, "requestBody": body(ref("Connection")), "responses": ok(ref("Connection"))},
            },
        },
        {"Connection": conn},
    )
    _, ops, model, wf = run(tmp_path, doc)
    assert ops["PATCH " + f"{AZ}/connections/{{connectionName}}"][0] == "update", ops
    w, st = world_of(model, wf)
    key, row = sorted(table(st, "connections").items())[0]
    got = w.call(st, tool(model, "connections_update").qualified, {"subscription_id": row["subscription_id"], "resource_group_name": row["resource_group_name"], "connection_name": key, "properties_private_link_service_connection_state_status": "Rejected"})
    assert got["success"], got
    assert table(st, "connections")[key]["properties_private_link_service_connection_state_status"] == "Rejected"


def test_a_property_named_as_the_owner_it_is_listed_under_holds_its_id(tmp_path):
    """Clever's sections hold `school: string` and are listed at `/schools/{id}/sections`: the
    import added a `school_id` beside it, so `school` stayed text, and a task said "the school
    id of the section". The property is the reference (`resources.listed_under`)."""
    school = obj({"id": s(), "name": s(), "nces_id": s()})
    section = obj({"id": s(), "name": s(), "school": s(), "subject": s()})
    doc = spec(
        {
            "/schools": {"get": {"operationId": "getSchools", "responses": ok(obj({"data": {"type": "array", "items": ref("School")}}))}},
            "/schools/{id}": {"get": {"operationId": "getSchool", "parameters": [pparam("id")], "responses": ok(ref("School"))}},
            "/schools/{id}/sections": {"get": {"operationId": "getSectionsForSchool", "parameters": [pparam("id")], "responses": ok(obj({"data": {"type": "array", "items": ref("Section")}}))}},
            "/sections/{id}": {"get": {"operationId": "getSection", "parameters": [pparam("id")], "responses": ok(ref("Section"))}},
        },
        {"School": school, "Section": section},
    )
    result, _, model, wf = run(tmp_path, doc)
    text = result.files["probe.world"]
    assert "school: SchoolId" in text and "school_id" not in text, text
    w, st = world_of(model, wf)
    schools = table(st, "schools")
    assert all(r["school"] in schools for r in table(st, "sections").values())


def test_an_identifier_parameter_names_the_items_arn(tmp_path):
    """AWS AppFabric's `/appbundles/{appBundleIdentifier}/ingestions/{ingestionIdentifier}` ("the
    ARN or UUID of the ingestion") answers `{ingestion: {arn, ...}}`: no resource owned those
    paths, so its list and its get were two tables of answers that did not agree (a blind player
    found an ingestion by its get that its list did not hold, round 19). The identifier is the
    item's `arn`."""
    ingestion = obj({"arn": s(), "app": s(), "tenantId": s(), "state": s(enum=["enabled", "disabled"])})
    item = [pparam("ingestionIdentifier")]
    doc = spec(
        {
            "/ingestions": {"get": {"operationId": "ListIngestions", "responses": ok(obj({"ingestions": {"type": "array", "items": ref("Ingestion")}}))}},
            "/ingestions/{ingestionIdentifier}": {
                "get": {"operationId": "GetIngestion", "parameters": item, "responses": ok(obj({"ingestion": ref("Ingestion")}))},
                "delete": {"operationId": "DeleteIngestion", "parameters": item, "responses": ok(obj({}))},
            },
        },
        {"Ingestion": ingestion},
    )
    _, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /ingestions/{ingestionIdentifier}"][0] == "get", ops
    assert ops["GET /ingestions"][0] == "list", ops
    w, st = world_of(model, wf)
    key = sorted(table(st, "ingestions"))[0]
    got = w.call(st, tool(model, "get_ingestion").qualified, {"ingestion_identifier": key})
    assert got["success"] and got["data"]["arn"] == key, got


def test_a_write_on_an_answered_reads_path_changes_its_answer(tmp_path):
    """GoDaddy's `PUT /v1/certificates/{certificateId}/callback` was a recorded call, and the
    `GET` of the same path answered the seeded URL still: a blind player read the callback back
    after replacing it and found the old one (round 19). The write now changes the answer its
    arguments pick (`world_model.write_through`); a DELETE removes it."""
    cert = obj({"certificateId": s(), "commonName": s()})
    item = [pparam("certificateId")]
    doc = spec(
        {
            "/certificates": {"get": {"operationId": "listCertificates", "responses": ok({"type": "array", "items": ref("Certificate")})}},
            "/certificates/{certificateId}": {"get": {"operationId": "getCertificate", "parameters": item, "responses": ok(ref("Certificate"))}},
            "/certificates/{certificateId}/callback": {
                "get": {"operationId": "getCallback", "parameters": item, "responses": ok(obj({"callbackUrl": s(format="uri")}))},
                "put": {"operationId": "replaceCallback", "parameters": [*item, {"name": "callbackUrl", "in": "query", "required": True, "schema": s(format="uri")}], "responses": {"204": {"description": "ok"}}},
                "delete": {"operationId": "deleteCallback", "parameters": item, "responses": {"204": {"description": "ok"}}},
            },
        },
        {"Certificate": cert},
    )
    _, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /certificates/{certificateId}/callback"][0] == "answered", ops
    w, st = world_of(model, wf)
    cid = sorted(table(st, "certificates"))[0]
    put, get, delete = (tool(model, n).qualified for n in ("replace_callback", "get_callback", "delete_callback"))
    assert w.call(st, put, {"certificate_id": cid, "callback_url": "https://example.com/new"})["success"]
    got = w.call(st, get, {"certificate_id": cid})
    assert got["success"] and got["data"]["callback_url"] == "https://example.com/new", got
    assert w.call(st, put, {"certificate_id": cid, "callback_url": "https://example.com/newer"})["success"]
    assert w.call(st, get, {"certificate_id": cid})["data"]["callback_url"] == "https://example.com/newer"
    assert w.call(st, delete, {"certificate_id": cid})["success"]
    assert w.call(st, get, {"certificate_id": cid})["error"]["code"] == 404


def test_a_name_beside_a_reference_is_the_referenced_rows_name(tmp_path):
    """AWS Well-Architected's share invitations hold `ProfileArn` and `ProfileName`: seeded apart,
    an invitation's profile was "Riverside profile" and the profile its ARN named "Atlas profile"
    (a blind player weighed which to delete, round 20). The name is the referenced row's
    (`copied_from_refs`)."""
    profile = obj({"ProfileArn": s(), "ProfileName": s(), "ProfileDescription": s()})
    invitation = obj({"ShareInvitationId": s(), "ProfileArn": s(), "ProfileName": s(), "ShareResourceType": s(enum=["WORKLOAD", "PROFILE"])})
    doc = spec(
        {
            "/profiles": {"get": {"operationId": "ListProfiles", "responses": ok(obj({"ProfileSummaries": {"type": "array", "items": ref("Profile")}}))}},
            "/profiles/{ProfileArn}": {"get": {"operationId": "GetProfile", "parameters": [pparam("ProfileArn")], "responses": ok(obj({"Profile": ref("Profile")}))}},
            "/shareInvitations": {"get": {"operationId": "ListShareInvitations", "responses": ok(obj({"ShareInvitationSummaries": {"type": "array", "items": ref("ShareInvitation")}}))}},
            "/shareInvitations/{ShareInvitationId}": {"get": {"operationId": "GetShareInvitation", "parameters": [pparam("ShareInvitationId")], "responses": ok(ref("ShareInvitation"))}},
        },
        {"Profile": profile, "ShareInvitation": invitation},
    )
    result, _, model, wf = run(tmp_path, doc)
    assert "profile_name: same(profile_arn.profile_name)" in result.files["probe.world"], result.files["probe.world"]
    w, st = world_of(model, wf)
    profiles = table(st, "profiles")
    for r in table(st, "share_invitations").values():
        assert r["profile_name"] == profiles[r["profile_arn"]]["profile_name"], r


def test_a_search_under_a_word_of_finding_lists_the_resource_it_names(tmp_path):
    """TheTVDB: `GET /search/series?name=` lists `SeriesSearchResult`s, series seen in part, and
    a series has no other list. Read as a table of its own, no series could be found by name; it
    is a summary list of the series, its `name` searching their `seriesName`."""
    series = obj({"id": s("integer"), "seriesName": s(), "network": s(), "overview": s(), "siteRating": s("number"), "runtime": s()})
    found = obj({"id": s("integer"), "seriesName": s(), "network": s(), "poster": s()})
    episode = obj({"id": s("integer"), "seriesId": s("integer"), "episodeName": s(), "overview": s()})
    q = {"name": "name", "in": "query", "schema": s()}
    doc = spec(
        {
            "/search/series": {"get": {"operationId": "searchSeries", "parameters": [q, {"name": "network", "in": "query", "schema": s()}], "responses": ok(obj({"data": {"type": "array", "items": ref("SeriesSearchResult")}}))}},
            "/series/{id}": {"get": {"operationId": "getSeries", "parameters": [pparam("id")], "responses": ok(obj({"data": ref("Series")}))}},
            "/series/{id}/episodes": {"get": {"operationId": "seriesEpisodes", "parameters": [pparam("id")], "responses": ok(obj({"data": {"type": "array", "items": ref("Episode")}}))}},
            "/episodes/{id}": {"get": {"operationId": "getEpisode", "parameters": [pparam("id")], "responses": ok(obj({"data": ref("Episode")}))}},
        },
        {"Series": series, "SeriesSearchResult": found, "Episode": episode},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /search/series"][0] == "list"
    text = result.files["probe.world"]
    assert "SearchResult" not in text.split("// GET /search/series")[0]  # no table of search results
    search = tool(model, "search_series")
    assert list(dict(search.params)) == ["series_name", "network"]
    w, st = world_of(model, wf)
    rows = table(st, "series")
    name = next(iter(rows.values()))["series_name"]
    got = w.call(st, search.qualified, {"series_name": name, "network": ""})
    assert got["success"] and got["data"] and all(r["series_name"] == name for r in got["data"])
    assert all(set(r) == {"id", "series_name", "network"} for r in got["data"])  # a view: its get gives the rest
    # a task that starts from the search gives it the series' name, and no other filter where
    # the name alone finds the series (an entry sets the filters it needs: Walker._needed_filters)
    _, tasks = sample_tasks(wf, tmp_path, 2, 3, 5, 400)
    for t in tasks:
        first = t["reference_plan"][0]
        if first["tool"].endswith(".search_series"):
            names = [r["series_name"] for r in w.initial_state(t["initial_state"]["seed"]).tables[first["tool"].split(".")[0] + ".series"].values()]
            if names.count(first["arguments"]["series_name"]) == 1:
                assert all(v == "" for k, v in first["arguments"].items() if k != "series_name"), t["instruction"]
    # a search that names a collection whose objects it does not carry stays a table of its own
    doc["components"]["schemas"]["SeriesSearchResult"] = obj({"title": s(), "score": s("number")})
    (tmp_path / "other").mkdir()
    result, ops, model, wf = run(tmp_path / "other", doc)
    assert not any(t.name == "search_series" and t.service.endswith("_series") for t in model.tools()), [t.qualified for t in model.tools()]


def test_an_embedded_record_of_another_resources_schema_refers_to_its_row(tmp_path):
    """SimplyRETS: an open house embeds its `listing`, a `Listing` (keyed by `mlsId`, 24
    properties, too big to flatten): its key is a reference to the listing's row, so an open
    house leads to its listing. And the open house's own `openHouseId` beside its key
    `openHouseKey` is another id of the row, not a reference to a second open house."""
    listing = obj({"mlsId": s("integer"), "listPrice": s("number"), "remarks": s(), **{f"extra{i}": s() for i in range(12)}})
    house = obj({"openHouseKey": s(), "openHouseId": s(), "startTime": s(format="date-time"), "listing": ref("Listing")})
    doc = spec(
        {
            "/properties": {"get": {"operationId": "listProperties", "responses": ok({"type": "array", "items": ref("Listing")})}},
            "/properties/{mlsId}": {"get": {"operationId": "getListing", "parameters": [pparam("mlsId")], "responses": ok(ref("Listing"))}},
            "/openhouses": {"get": {"operationId": "listOpenHouses", "responses": ok({"type": "array", "items": ref("OpenHouse")})}},
            "/openhouses/{openHouseKey}": {"get": {"operationId": "getOpenHouse", "parameters": [pparam("openHouseKey")], "responses": ok(ref("OpenHouse"))}},
        },
        {"Listing": listing, "OpenHouse": house},
    )
    result, ops, model, wf = run(tmp_path, doc)
    w, st = world_of(model, wf)
    houses, listings = table(st, "openhouses"), table(st, "properties")
    assert houses and all(row["listing_id"] in listings for row in houses.values())
    ids = [row["open_house_id"] for row in houses.values()]
    assert all(ids) and len(set(ids)) > 1, ids  # its own values, not a blank self-reference


def test_a_one_value_enum_the_description_gives_as_an_example_is_an_example(tmp_path):
    """WMATA's `RouteID` allows `["70"]` and says "Bus route variant, e.g.: 70, 10A, 10Av1":
    an example, not a constant the call always sends. A one-value enum its description does
    not call an example (`api-version`) stays a constant."""
    route = {"name": "RouteID", "in": "query", "required": True, "description": "Bus route variant, e.g.: 70, 10A, 10Av1.", "schema": s(enum=["70"], default="70")}
    version = {"name": "api-version", "in": "query", "required": True, "description": "The API version, such as 2024-01-01.", "schema": s(enum=["2024-01-01"])}
    doc = spec({"/json/jRouteDetails": {"get": {"operationId": "routeDetails", "parameters": [route, version], "responses": ok(obj({"RouteID": s(), "Name": s()}))}}})
    result, ops, model, wf = run(tmp_path, doc)
    t = tool(model, "route_details")
    assert "route_id" in dict(t.params) and "api_version" not in dict(t.params), t.params


def test_a_recorded_calls_free_text_is_drawn_from_a_pool_of_its_own(tmp_path):
    """EMR's `CancelSteps` takes `StepIds`, which no field of the world holds: drawn from other
    fields, a task cancelled "step IDs "subnet-3011"" (a fresh draw; the tool records the call
    whatever it is given). The import writes a pool of values of the argument's name,
    `<service>_<tool>_<param>`, and the sampler draws the argument from it."""
    cluster = obj({"Id": s(), "Name": s(), "SubnetIds": {"type": "array", "items": s()}, "State": s(enum=["RUNNING", "WAITING", "TERMINATED"])})
    doc = spec(
        {
            "/clusters": {"get": {"operationId": "ListClusters", "responses": ok(obj({"Clusters": {"type": "array", "items": ref("Cluster")}}))}},
            "/clusters/{Id}": {"get": {"operationId": "DescribeCluster", "parameters": [pparam("Id")], "responses": ok(ref("Cluster"))}},
            "/clusters/{Id}/cancelSteps": {"post": {"operationId": "CancelSteps", "summary": "Cancels pending steps in a running cluster", "parameters": [pparam("Id")], "requestBody": body(obj({"StepIds": {"type": "array", "items": s()}}, ["StepIds"])), "responses": ok(obj({"Status": s()}))}},
        },
        {"Cluster": cluster},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["POST /clusters/{Id}/cancelSteps"][0] == "recorded"
    cancel = next(t for t in model.tools() if t.name == "cancel_steps")
    pool = model.pools.get(f"{cancel.service}_cancel_steps_step_ids")
    assert pool is not None, sorted(model.pools)
    said = {v.value for v in pool.values}
    assert all(v.startswith("step-") for v in said), said
    _, tasks = sample_tasks(wf, tmp_path, 2, 3, 7, 400)
    given = [step["arguments"]["step_ids"] for t in tasks for step in t["reference_plan"] if step["tool"].endswith(".cancel_steps")]
    assert given and set(given) <= said, (given, said)


def test_a_path_enum_is_an_enum_and_a_name_only_answers_hold_has_a_pool(tmp_path):
    """Azure's private DNS deletes a record set at `.../privateDnsZones/{privateZoneName}/
    {recordType}/{relativeRecordSetName}`: no resource owns that path, so the delete is a
    recorded call. `{recordType}` is an enum (A, AAAA, CNAME, ...): as text, a task asked for
    record type "Lagos", another field's value. And the record set's name is held only by the
    world model's seeded answers of the get, a table a walk seeds only when it reads it: drawn
    from other fields, a task deleted the record set "SI-7922". It has a pool of its own."""
    zone = obj({"id": s(), "name": s(), "location": s(), "properties": obj({"numberOfRecordSets": s("integer"), "provisioningState": s(enum=["Creating", "Succeeded", "Canceled"])})})
    rset = obj({"id": s(), "name": s(), "type": s(), "properties": obj({"ttl": s("integer"), "fqdn": s()})})
    scope = [pparam("subscriptionId"), pparam("resourceGroupName")]
    zp = [*scope, pparam("privateZoneName")]
    rp = [*zp, {"name": "recordType", "in": "path", "required": True, "schema": s(enum=["A", "AAAA", "CNAME", "MX", "TXT"])}, pparam("relativeRecordSetName")]
    base = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/privateDnsZones"
    doc = spec(
        {
            base: {"get": {"operationId": "PrivateZones_ListByResourceGroup", "parameters": scope, "responses": ok(obj({"value": {"type": "array", "items": ref("PrivateZone")}}))}},
            base + "/{privateZoneName}": {
                "get": {"operationId": "PrivateZones_Get", "parameters": zp, "responses": ok(ref("PrivateZone"))},
                "patch": {"operationId": "PrivateZones_Update", "parameters": zp, "requestBody": body(obj({"location": s()})), "responses": ok(ref("PrivateZone"))},
            },
            base + "/{privateZoneName}/{recordType}/{relativeRecordSetName}": {
                "get": {"operationId": "RecordSets_Get", "parameters": rp, "responses": ok(ref("RecordSet"))},
                "delete": {"operationId": "RecordSets_Delete", "summary": "Deletes a record set from a private DNS zone", "parameters": rp, "responses": {"200": {"description": "ok"}}},
            },
        },
        {"PrivateZone": zone, "RecordSet": rset},
    )
    result, ops, model, wf = run(tmp_path, doc)
    delete = next(t for t in model.tools() if t.name == "record_sets_delete")
    types = dict(delete.params)
    enum = model.enums.get(str(types["record_type"]))
    assert enum is not None and len(enum.members) == 5, types
    pool = model.pools.get(f"{delete.service}_record_sets_delete_relative_record_set_name")
    assert pool is not None, sorted(model.pools)
    said = {v.value for v in pool.values}
    _, tasks = sample_tasks(wf, tmp_path, 2, 8, 3, 400)
    given = [step["arguments"]["relative_record_set_name"] for t in tasks for step in t["reference_plan"] if step["tool"].endswith(".record_sets_delete")]
    assert given and set(given) <= said, (given, said)


def test_a_recorded_writes_reference_argument_is_the_rows_own(tmp_path):
    """AWS Budgets' `ExecuteBudgetAction {ActionId, BudgetName, ExecutionType}` is recorded on the
    action, whose record refers to its budget by `BudgetName`. As text, the budget name was drawn
    from any field ('execute that action with budget name "arn:aws:...:definition-policy/..."'):
    it is the reference's type, and the action's own budget."""
    budget = obj({"budgetName": s(), "limit": s("number"), "timeUnit": s(enum=["DAILY", "MONTHLY"])})
    action = obj({"actionId": s(), "budgetName": s(), "executionRoleArn": s(), "status": s(enum=["STANDBY", "PENDING", "EXECUTION_SUCCESS"])})
    doc = spec(
        {
            "/budgets": {"get": {"operationId": "ListBudgets", "responses": ok(obj({"budgets": {"type": "array", "items": ref("Budget")}}))}},
            "/budgets/{budgetName}": {"get": {"operationId": "GetBudget", "parameters": [pparam("budgetName")], "responses": ok(ref("Budget"))}},
            "/actions": {"get": {"operationId": "ListActions", "responses": ok(obj({"actions": {"type": "array", "items": ref("Action")}}))}},
            "/actions/{actionId}": {"get": {"operationId": "GetAction", "parameters": [pparam("actionId")], "responses": ok(ref("Action"))}},
            "/actions/{actionId}/execute": {"post": {"operationId": "ExecuteAction", "summary": "Executes a budget action", "parameters": [pparam("actionId")], "requestBody": body(obj({"budgetName": s(), "executionType": s(enum=["APPROVE", "RETRY", "REVERSE"])}, ["budgetName", "executionType"])), "responses": ok(obj({"actionId": s()}))}},
        },
        {"Budget": budget, "Action": action},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["POST /actions/{actionId}/execute"][0] == "recorded", ops["POST /actions/{actionId}/execute"]
    execute = tool(model, "execute_action")
    assert getattr(dict(execute.params)["budget_name"], "name", None) == "BudgetId", execute.params
    w, st = world_of(model, wf)
    key, row = sorted(table(st, "actions").items())[0]
    other = next(b for b in table(st, "budgets") if b != row["budget_name"])
    held = {t: dict(v) for t, v in st.tables.items()}
    bad = w.call(st, execute.qualified, {"action_id": key, "budget_name": other, "execution_type": "approve"})
    assert bad["error"]["code"] == 404 and {t: dict(v) for t, v in st.tables.items()} == held, bad
    good = w.call(st, execute.qualified, {"action_id": key, "budget_name": row["budget_name"], "execution_type": "approve"})
    assert good["success"], good


def test_a_recorded_writes_argument_named_as_another_resources_key_holds_one(tmp_path):
    """Twitter's `POST /2/users/{id}/retweets {tweet_id}` is a write recorded on the user; its
    `tweet_id` was text, drawn from any field ('retweets ... with tweet ID "London"', a fresh
    draw). An argument named as another resource's key is that key: the walk gives it a tweet."""
    tweet = obj({"id": s(), "text": s(), "lang": s(enum=["en", "fr"])})
    user = obj({"id": s(), "name": s(), "username": s()})
    doc = spec(
        {
            "/tweets": {"get": {"operationId": "listTweets", "responses": ok(obj({"data": {"type": "array", "items": ref("Tweet")}}))}},
            "/tweets/{id}": {"get": {"operationId": "findTweetById", "parameters": [pparam("id")], "responses": ok(ref("Tweet"))}},
            "/users": {"get": {"operationId": "listUsers", "responses": ok(obj({"data": {"type": "array", "items": ref("User")}}))}},
            "/users/{id}": {"get": {"operationId": "findUserById", "parameters": [pparam("id")], "responses": ok(ref("User"))}},
            "/users/{id}/retweets": {"post": {"operationId": "usersIdRetweets", "summary": "Causes the user to retweet a tweet", "parameters": [pparam("id")], "requestBody": body(obj({"tweet_id": s()}, ["tweet_id"])), "responses": ok(obj({"retweeted": s("boolean")}))}},
        },
        {"Tweet": tweet, "User": user},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["POST /users/{id}/retweets"][0] == "recorded", ops["POST /users/{id}/retweets"]
    retweet = tool(model, "users_id_retweets")
    assert getattr(dict(retweet.params)["tweet_id"], "name", None) == "TweetId", retweet.params
    w, st = world_of(model, wf)
    user, tweet = sorted(table(st, "users"))[0], sorted(table(st, "tweets"))[0]
    got = w.call(st, retweet.qualified, {"id": user, "tweet_id": tweet})
    assert got["success"] and [r["tweet_id"] for r in table(st, "users_id_retweets_calls").values()] == [tweet], got


def test_a_put_on_one_row_sets_what_it_names_and_no_walk_sets_what_the_row_holds(tmp_path):
    """SES's `PutDedicatedIpPoolScalingAttributes {ScalingMode}` on
    `/dedicated-ip-pools/{PoolName}/scaling` is recorded. AWS's `Put` sets what it names, so the
    call now sets the pool's `scaling_mode` (a read after it showed the old mode). A walk then
    never asks for a mode the pool has: "convert the pool to mode standard" right after creating
    it standard was a step of a fresh draw (stop 67); the put now changes a record the task
    itself creates, which no walk does, and a seeded pool's new mode is another one."""
    pool = obj({"PoolName": s(), "ScalingMode": s(enum=["STANDARD", "MANAGED"])})
    item = [pparam("PoolName")]
    doc = spec(
        {
            "/v2/pools": {
                "get": {"operationId": "ListPools", "responses": ok(obj({"Pools": {"type": "array", "items": ref("Pool")}}))},
                "post": {"operationId": "CreatePool", "requestBody": body(obj({"PoolName": s(), "ScalingMode": s(enum=["STANDARD", "MANAGED"])}, ["PoolName"])), "responses": ok(obj({}))},
            },
            "/v2/pools/{PoolName}": {"get": {"operationId": "GetPool", "parameters": item, "responses": ok(obj({"Pool": ref("Pool")}))}},
            "/v2/pools/{PoolName}/scaling": {"put": {"operationId": "PutPoolScalingAttributes", "summary": "Used to convert a pool to a different scaling mode", "parameters": item, "requestBody": body(obj({"ScalingMode": s(enum=["STANDARD", "MANAGED"])}, ["ScalingMode"])), "responses": ok(obj({}))}},
        },
        {"Pool": pool},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["PUT /v2/pools/{PoolName}/scaling"][0] == "recorded", ops
    assert "update pools[pool_name] { scaling_mode: scaling_mode }" in "\n".join(result.files.values())
    put = tool(model, "put_pool_scaling_attributes").qualified
    seen = 0
    for seed in (1, 2, 3):
        out = tmp_path / f"s{seed}"
        out.mkdir()
        world, tasks = sample_tasks(wf, out, 2, 6, seed, 300)
        for task in tasks:
            st = world.initial_state(task["initial_state"]["seed"])
            for p in task["reference_plan"]:
                if p["tool"] == put:
                    seen += 1
                    held = table(st, "pools")[p["arguments"]["pool_name"]]["scaling_mode"]
                    assert p["arguments"]["scaling_mode"] != held, task["instruction"]
                assert world.call(st, p["tool"], p["arguments"])["success"]
    assert seen, "no task walked the put"


def test_no_task_asks_for_a_default_of_a_record_it_made(tmp_path):
    """SES: "add a contact ... to the new contact list. Then tell me the creation time of the
    new contact", answered 2025-01-01T00:00: the record's default, which every new contact
    holds in a world with no clock. A read of a record the task made reports no field that
    holds its default."""
    contact = obj({"EmailAddress": s(), "Note": s(), "CreatedTimestamp": s(format="date-time"), "Score": s("integer")})
    lst = obj({"ContactListName": s(), "Description": s()})
    item = [pparam("ContactListName")]
    citem = [*item, pparam("EmailAddress")]
    doc = spec(
        {
            "/v2/lists": {
                "get": {"operationId": "ListContactLists", "responses": ok(obj({"ContactLists": {"type": "array", "items": ref("ContactList")}}))},
                "post": {"operationId": "CreateContactList", "requestBody": body(obj({"ContactListName": s(), "Description": s()}, ["ContactListName"])), "responses": ok(obj({}))},
            },
            "/v2/lists/{ContactListName}": {"get": {"operationId": "GetContactList", "parameters": item, "responses": ok(ref("ContactList"))}},
            "/v2/lists/{ContactListName}/contacts": {
                "get": {"operationId": "ListContacts", "parameters": item, "responses": ok(obj({"Contacts": {"type": "array", "items": ref("Contact")}}))},
                "post": {"operationId": "CreateContact", "parameters": item, "requestBody": body(obj({"EmailAddress": s(), "Note": s()}, ["EmailAddress"])), "responses": ok(obj({}))},
            },
            "/v2/lists/{ContactListName}/contacts/{EmailAddress}": {"get": {"operationId": "GetContact", "parameters": citem, "responses": ok(ref("Contact"))}},
        },
        {"Contact": contact, "ContactList": lst},
    )
    _, _, _, wf = run(tmp_path, doc)
    for seed in (1, 2, 3, 4, 5, 6):
        out = tmp_path / f"s{seed}"
        out.mkdir()
        world, tasks = sample_tasks(wf, out, 3, 4, seed, 400)
        for task in tasks:
            last = task["reference_plan"][-1]
            seeded = table(world.initial_state(task["initial_state"]["seed"]), "contacts")
            if task.get("answer") is None or not last["tool"].endswith(".get_contact") or last["arguments"]["email_address"] in seeded:
                continue
            assert str(task["answer"]) not in ("2025-01-01T00:00", "0"), task["instruction"]


def test_a_write_names_the_record_it_gives_not_its_parent(tmp_path):
    """Azure Data Explorer's `PUT /clusters/{clusterName}/databases/{databaseName}` creates a
    database under a cluster; a task then removed principals "for that cluster of that
    cluster": the new database was said as the first key its call names, its cluster (a fresh
    draw of stop 70). The record a write gives is the one its own key names."""
    cluster = obj({"id": s(), "name": s(), "location": s(), "sku": s()})
    db = obj({"id": s(), "name": s(), "location": s(), "kind": s()})
    two = [pparam("clusterName"), pparam("databaseName")]
    doc = spec({
        "/clusters": {"get": {"operationId": "Clusters_List", "responses": ok(obj({"value": arr(ref("Cluster"))}))}},
        "/clusters/{clusterName}": {"get": {"operationId": "Clusters_Get", "parameters": two[:1], "responses": ok(ref("Cluster"))}},
        "/clusters/{clusterName}/databases": {"get": {"operationId": "Databases_ListByCluster", "parameters": two[:1], "responses": ok(obj({"value": arr(ref("Database"))}))}},
        "/clusters/{clusterName}/databases/{databaseName}": {
            "put": {"operationId": "Databases_CreateOrUpdate", "summary": "Creates or updates a database", "parameters": two, "requestBody": body(ref("Database")), "responses": ok(ref("Database"))},
            "get": {"operationId": "Databases_Get", "parameters": two, "responses": ok(ref("Database"))}},
        "/clusters/{clusterName}/databases/{databaseName}/removePrincipals": {"post": {"operationId": "Databases_RemovePrincipals", "summary": "Remove Database principals permissions", "parameters": two, "responses": ok(obj({"value": s()}))}},
    }, {"Cluster": cluster, "Database": db})
    _, ops, _, wf = run(tmp_path, doc)
    assert ops["PUT /clusters/{clusterName}/databases/{databaseName}"][0] == "upsert", ops
    _, tasks = sample_tasks(wf, tmp_path, 2, 8, 3, 400)
    removed = [t for t in tasks if [st["tool"].rsplit(".", 1)[-1] for st in t["reference_plan"]] == ["databases_create_or_update", "databases_remove_principals"]]
    assert removed, [t["instruction"] for t in tasks]
    for t in removed:
        made = t["reference_plan"][0]["arguments"]["database_name"]
        assert "that cluster of that cluster" not in t["instruction"] and f'database "{made}" of that cluster' in t["instruction"], t["instruction"]


def test_an_answer_through_a_rows_own_reference_agrees_with_it(tmp_path):
    """Clever's `GET /sections/{id}/district`: a section holds its `district`, and the district
    its read answered was drawn apart from it (blind round 49: the read said "no district for
    those arguments" of a section whose district was there, and an agent must choose which to
    believe). Each answer is the district the section's own field names."""
    district = obj({"id": s(), "name": s()})
    section = obj({"id": s(), "name": s(), "district_id": s(description="ID of the district")})
    one = [pparam("id")]
    doc = spec({
        "/districts": {"get": {"operationId": "getDistricts", "responses": ok(obj({"data": arr(ref("District"))}))}},
        "/districts/{id}": {"get": {"operationId": "getDistrict", "parameters": one, "responses": ok(ref("District"))}},
        "/sections": {"get": {"operationId": "getSections", "responses": ok(obj({"data": arr(ref("Section"))}))}},
        "/sections/{id}": {"get": {"operationId": "getSection", "parameters": one, "responses": ok(ref("Section"))}},
        "/sections/{id}/district": {"get": {"operationId": "getDistrictForSection", "parameters": one, "responses": ok(ref("District"))}},
    }, {"District": district, "Section": section})
    _, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /sections/{id}/district"][0] == "answered", ops
    w, _ = world_of(model, wf)
    for seed in range(1, 6):
        tables = w.initial_state(seed).tables
        answers = next(t for q, t in tables.items() if q.endswith("get_district_for_section_answers"))
        sections = next(t for q, t in tables.items() if q.endswith(".sections"))
        assert answers and all(a["district"] == sections[a["id"]]["district_id"] for a in answers.values()), (answers, sections)
