"""`worldc import openapi`: values a person would write, where the importer used to number a
field after its name (issue 30; docs/import.md, "Seeds"). Each was met in a sampled task: a
metric destination's ARN "destination arn 27" (a table of answers, not reseeded as resources'
tables were), a distribution's "modified date 5", a path's `/v{version}/` stated as "version 31",
bunq's daily limit "daily limit value 32"."""

from __future__ import annotations

import json
import re

from import_specs import arr, body, listed, obj, ok, pparam, ref, run, s, spec, world_of


def seed_line(text: str, table: str, field: str) -> str:
    block = re.search(r"seed " + table + r": [^{]*\{(.*?)\n  \}", text, re.S)
    assert block, (table, text)
    line = re.search(r"^\s*" + field + r": (.*)$", block.group(1), re.M)
    assert line, (field, block.group(1))
    return line.group(1)


def test_a_table_of_answers_is_seeded_by_its_fields_names_and_times_are_times(tmp_path):
    destination = obj({"DestinationArn": s(), "IamRoleArn": s(), "LastModified": s(), "Schedule": s(), "Status": s()})
    doc = spec(
        {
            "/monitors": {"get": {"operationId": "ListMonitors", "responses": ok(obj({"items": arr(ref("Monitor"))}))}},
            "/monitors/{monitorId}": {"get": {"operationId": "GetMonitor", "parameters": [pparam("monitorId")], "responses": ok(ref("Monitor"))}},
            "/rummetrics/{monitorId}/metricsdestination": {"get": {"operationId": "ListDestinations", "parameters": [pparam("monitorId")], "responses": ok(obj({"Destinations": arr(ref("DestinationSummary"))}))}},
        },
        {"Monitor": obj({"id": s(), "name": s()}), "DestinationSummary": destination},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /rummetrics/{monitorId}/metricsdestination"][0] == "answered"
    text = "\n".join(result.files.values())
    arn = seed_line(text, "list_destinations_answers", "destination_arn")
    assert "arn:aws:" in arn and "destination arn" not in arn, arn
    # many values, not a pool of three: an ARN tells rows apart (CloudTrail's trails), and so may a time
    assert re.search(r"\d+\.\.\d+", arn) and ":destination/destination-" in arn, arn
    when = seed_line(text, "list_destinations_answers", "last_modified")
    assert re.search(r"2025-\d\d-", when) and "last modified" not in when and re.search(r"\d+\.\.\d+", when), when
    cron = seed_line(text, "list_destinations_answers", "schedule")
    assert "* *" in cron and "schedule" not in cron, cron  # a cron expression, not "schedule 21"
    w, st = world_of(model, wf)
    rows = next(t for q, t in st.tables.items() if q.endswith(".list_destinations_answers"))
    assert rows and all(re.fullmatch(r"arn:aws:\w+:eu-west-1:\d{12}:destination/destination-\d+", r["destination_arn"]) for r in rows.values()), rows
    assert all(re.fullmatch(r"2025-02-\d\dT09:30:00Z", r["last_modified"]) for r in rows.values()), rows


def test_a_version_in_the_path_is_the_apis_major_version(tmp_path):
    doc = spec(
        {
            "/v{version}/areas": {"get": {"operationId": "Areas_Get", "parameters": [pparam("version")], "responses": ok(arr(ref("Area")))}},
            "/v{version}/areas/{area_Ids}": {"get": {"operationId": "Areas_GetById", "parameters": [pparam("version"), pparam("area_Ids")], "responses": ok(ref("Area"))}},
        },
        {"Area": obj({"Id": s(), "Name": s()})},
    )
    doc["info"]["version"] = "1.0"
    result, _, model, wf = run(tmp_path, doc)
    w, st = world_of(model, wf)
    areas = next(t for q, t in st.tables.items() if q.endswith(".areas"))
    assert {r["version"] for r in areas.values()} == {"1"}, areas


def test_a_web_address_is_a_url_and_an_e_mail_address_an_email():
    from compoworld_dsl.importers.common import text_seed

    # LetMC's branch `WebAddress` was "3 Mill Close", its `EMailAddress` "90 Park Avenue" (round 33)
    assert "https://" in text_seed("web_address", "branch")
    assert '"{}@{}"' in text_seed("e_mail_address", "branch")
    # a postal address stays one
    assert "Street" in text_seed("mailing_address", "branch") and "Street" in text_seed("address", "branch")


def test_an_amount_typed_as_text_is_a_figure():
    from compoworld_dsl.importers.common import text_seed

    for name in ("daily_limit_value", "price_total_amount", "amount"):
        gen = text_seed(name, "card")
        assert gen == 'format("{}.00", 5..950)', (name, gen)
    # a `value` of no money word stays what it was
    assert "{}.00" not in text_seed("setting_value", "card")


def test_a_request_body_that_declares_no_properties_is_no_argument(tmp_path):
    """Google's `ResumeJobRequest` is `{"type": "object", "properties": {}}`: a task said "resume
    the job ... with body "schedule 21"", a value drawn from another field for a body that holds
    nothing. A body of no declared schema at all is still passed as JSON text."""
    job = obj({"name": s(), "description": s(), "state": s()})
    doc = spec(
        {
            "/v1/jobs": {"get": {"operationId": "jobs.list", "responses": ok(obj({"jobs": arr(ref("Job"))}))}},
            "/v1/jobs/{jobsId}": {"get": {"operationId": "jobs.get", "parameters": [pparam("jobsId")], "responses": ok(ref("Job"))}},
            "/v1/jobs/{jobsId}:resume": {"post": {"operationId": "jobs.resume", "summary": "Resume a job", "parameters": [pparam("jobsId")], "requestBody": {"content": {"application/json": {"schema": ref("ResumeJobRequest")}}}, "responses": ok(ref("Job"))}},
            "/v1/jobs/{jobsId}:nudge": {"post": {"operationId": "jobs.nudge", "summary": "Nudge a job", "parameters": [pparam("jobsId")], "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}}, "responses": ok(ref("Job"))}},
        },
        {"Job": job, "ResumeJobRequest": {"type": "object", "properties": {}, "description": "Request message for ResumeJob."}},
    )
    result, _, model, _ = run(tmp_path, doc)
    params = {t.name: [n for n, _ in t.params] for t in model.tools()}
    resume = next(n for n in params if n.endswith("resume"))
    nudge = next(n for n in params if n.endswith("nudge"))
    assert "body" not in params[resume], params[resume]
    assert "body" in params[nudge], params[nudge]


def test_an_answer_named_by_a_run_together_id_is_named_by_its_summary(tmp_path):
    """Qualtrics' `Retrievedistributionlinks` made "the retrievedistributionlink ... among the
    distribution links": an operation id that is one run-together word names its answers by the
    summary that spells it ("Retrieve distribution links")."""
    link = obj({"contactId": s(), "link": s(), "email": s(), "status": s()})
    doc = spec(
        {
            "/distributions": {"get": {"operationId": "listDistributions", "responses": ok(obj({"elements": arr(ref("Distribution"))}))}},
            "/distributions/{distributionId}": {"get": {"operationId": "getDistribution", "parameters": [pparam("distributionId")], "responses": ok(ref("Distribution"))}},
            "/distributions/{distributionId}/links": {
                "get": {"operationId": "Retrievedistributionlinks", "summary": "Retrieve distribution links", "parameters": [pparam("distributionId")], "responses": ok(obj({"meta": obj({"requestId": s()}), "result": obj({"elements": arr(link), "nextPage": {}})}))}
            },
        },
        {"Distribution": obj({"id": s(), "name": s()})},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /distributions/{distributionId}/links"][0] == "answered"
    text = "\n".join(result.files.values())
    assert re.search(r'record DistributionLinkAnswer "distribution link"', text), text
    assert "retrievedistributionlink" not in text.replace("retrievedistributionlinks", "")


def test_emails_a_language_code_and_a_list_of_ids_are_what_they_say(tmp_path):
    """Android device provisioning's company had admin emails "admin emails 31" and language code
    "LC-1285"; an FSx file system with no name was "the file system "subnet ids 11""."""
    company = obj({"companyId": s(), "adminEmails": arr(s()), "languageCode": s(), "subnetIds": arr(s()), "dnsName": s()})
    doc = spec(
        {
            "/companies": {
                "get": {"operationId": "ListCompanies", "responses": ok(obj({"companies": arr(ref("Company"))}))},
                "post": {"operationId": "CreateCompany", "requestBody": {"content": {"application/json": {"schema": obj({"subnetIds": arr(s()), "languageCode": s()}, required=["subnetIds"])}}}, "responses": ok(ref("Company"))},
            },
            "/companies/{companyId}": {"get": {"operationId": "GetCompany", "parameters": [pparam("companyId")], "responses": ok(ref("Company"))}},
        },
        {"Company": company},
    )
    result, _, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert "@" in seed_line(text, "companies", "admin_emails")
    assert '"en-GB"' in seed_line(text, "companies", "language_code")
    assert "record Company known by dns_name {" in text, text
    say = re.search(r'tool create_company\(.*\n.*\n\s*say "([^"]*)"', text).group(1)
    assert not say.startswith("add a company {subnet_ids}"), say  # not "add a company "subnet ids 11""


def test_a_row_known_by_a_time_holds_a_time():
    """Qualtrics' distributions have no name, only text times and ids: known by `created_date`,
    they were seeded "Atlas distribution" as one."""
    from compoworld_dsl.importers.common import TEXT_TIME, text_seed

    assert text_seed("created_date", "distribution", identity=True) == TEXT_TIME
    assert text_seed("sent_at", "message") == TEXT_TIME
    assert text_seed("name", "distribution", identity=True).startswith("pick([")


def test_a_name_of_another_thing_is_that_things_name():
    """`server_name` on a server key names its server ("Atlas server"); `key_name` on a server
    key and `display_name` on an app name the row itself; `resource_group_name` a group."""
    from compoworld_dsl.importers.common import text_seed

    assert '"Atlas server"' in text_seed("server_name", "server key")
    assert '"Atlas server key"' in text_seed("key_name", "server key")
    assert '"Atlas app"' in text_seed("display_name", "app")
    assert '"Atlas resource group"' in text_seed("resource_group_name", "bastion host")
    # a name flattened from its wrapper (SMS's `vmServer.vmName`) is the VM's, not "vm server vm"
    assert '"Atlas vm"' in text_seed("vm_server_vm_name", "server") and "vm server vm" not in text_seed("vm_server_vm_name", "server")


def test_a_scope_parameter_takes_the_specs_default_or_first_member(tmp_path):
    """A path scope with an enum (`/{league}/Teams`, `enum: [nfl, nba]`, `default: nba`) was
    stated as "league 3"; the one value every row shares is the spec's own default."""
    league = {"name": "league", "in": "path", "required": True, "schema": {"type": "string", "enum": ["nfl", "nba"], "default": "nba"}}
    doc = spec(
        {
            "/{league}/Teams": {"get": {"operationId": "Teams", "parameters": [league], "responses": ok(arr(ref("Team")))}},
            "/{league}/Team/{teamId}": {"get": {"operationId": "Team", "parameters": [league, pparam("teamId")], "responses": ok(ref("Team"))}},
        },
        {"Team": obj({"TeamId": s(), "Name": s()})},
    )
    result, _, model, wf = run(tmp_path, doc)
    w, st = world_of(model, wf)
    teams = next(t for q, t in st.tables.items() if q.endswith(".teams"))
    assert teams and {r["league"] for r in teams.values()} == {"nba"}, teams


def test_a_response_format_is_no_argument(tmp_path):
    """SportsData's `/{format}/Teams` (`enum: [XML, JSON]`, "Desired response format") chooses how
    the answer is written: no argument, no field, no scope. A golf task said "the tournament
    "Atlas tournament" with format "XML"" (a fresh draw, stop 65)."""
    fmt = {"name": "format", "in": "path", "required": True, "description": "Desired response format.", "schema": {"type": "string", "enum": ["XML", "JSON"]}}
    doc = spec(
        {
            "/{format}/Teams": {"get": {"operationId": "Teams", "parameters": [fmt], "responses": ok(arr(ref("Team")))}},
            "/{format}/Team/{teamId}": {"get": {"operationId": "Team", "parameters": [fmt, pparam("teamId")], "responses": ok(ref("Team"))}},
        },
        {"Team": obj({"TeamId": s(), "Name": s()})},
    )
    result, _, model, wf = run(tmp_path, doc)
    w, st = world_of(model, wf)
    teams = next(t for q, t in st.tables.items() if q.endswith(".teams"))
    assert teams and all("format" not in r for r in teams.values()), teams
    params = {t.name: [n for n, _ in t.params] for t in model.tools()}
    assert {"teams", "team"} <= set(params) and not any("format" in ps for ps in params.values()), params


def test_an_entity_tag_is_no_label(tmp_path):
    """Azure's `eTag` is an entity tag: a task said "e tag "onboarding"" (drawn from the pool
    of labels, as a `tag` is)."""
    doc = spec(
        {
            "/vaults": {"get": {"operationId": "ListVaults", "responses": ok(arr(ref("Vault")))}},
            "/vaults/{vaultId}": {"get": {"operationId": "GetVault", "parameters": [pparam("vaultId")], "responses": ok(ref("Vault"))}},
        },
        {"Vault": obj({"id": s(), "name": s(), "eTag": s(), "tag": s()})},
    )
    result, _, _, _ = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    etag = seed_line(text, "vaults", "e_tag")
    assert "onboarding" not in etag and etag.startswith("format("), etag
    assert "onboarding" in seed_line(text, "vaults", "tag")  # a tag is still a label


def test_a_range_starts_before_it_ends(tmp_path):
    """A report was created with a start eleven days after its end (Telnyx's WDR reports, blind
    play): a start and an end of one type are ordered where both are given
    (`common.ordered_ranges`), so a backwards call fails and changes nothing."""
    report = obj({"id": s(), "name": s(), "start_time": s(format="date-time"), "end_time": s(format="date-time")})
    doc = spec(
        {
            "/reports": {
                "get": {"operationId": "ListReports", "responses": ok(arr(ref("Report")))},
                "post": {"operationId": "CreateReport", "requestBody": {"content": {"application/json": {"schema": ref("Report")}}}, "responses": ok(ref("Report"))},
            },
            "/reports/{reportId}": {"get": {"operationId": "GetReport", "parameters": [pparam("reportId")], "responses": ok(ref("Report"))}},
        },
        {"Report": report},
    )
    result, _, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert re.search(r"require start_time == [0-9T:-]+ or end_time == [0-9T:-]+ or start_time <= end_time else invalid", text), text
    world, state = world_of(model, wf)
    create = next(t for t in model.tools() if t.name == "create_report").qualified
    before = {t: dict(rows) for t, rows in state.tables.items()}
    bad = world.call(state, create, {"name": "Q1", "start_time": "2025-03-02T03:44", "end_time": "2025-01-19T10:31"})
    assert not bad["success"] and bad["error"]["code"] == 400, bad
    assert {t: dict(rows) for t, rows in state.tables.items()} == before
    assert world.call(state, create, {"name": "Q1", "start_time": "2025-01-19T10:31", "end_time": "2025-03-02T03:44"})["success"]
    assert world.call(state, create, {"name": "Q2", "start_time": "2025-03-02T03:44"})["success"]  # no end given: no range


def test_an_object_with_one_property_of_no_shape_is_still_flattened(tmp_path):
    """JSON:API's `attributes` (Orbit's workspaces: a name and a slug beside a `tags` the example
    gives as an empty object) was one JSON text, so a workspace had no name to be known by. The
    others are fields; the empty one alone is JSON text."""
    doc = spec(
        {
            "/workspaces": {"get": {"operationId": "ListWorkspaces", "responses": ok(arr(ref("Workspace")))}},
            "/workspaces/{workspaceId}": {"get": {"operationId": "GetWorkspace", "parameters": [pparam("workspaceId")], "responses": ok(ref("Workspace"))}},
        },
        {"Workspace": obj({"id": s(), "type": s(), "attributes": obj({"name": s(), "slug": s(), "tags": {"type": "object", "example": {}}})})},
    )
    result, _, _, _ = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert "record Workspace known by attributes_name {" in text, text
    assert re.search(r"attributes_slug: text", text) and re.search(r"attributes_tags: text", text), text


def test_a_rows_end_comes_after_its_start(tmp_path):
    """VictorOps' scheduled overrides ended before they started (seeded apart; blind play): an end
    of the same type as a start is drawn after it (`common.range_seeds`)."""
    override = obj({"id": s(), "user": s(), "start": s(format="date-time"), "end": s(format="date-time"), "valid_from": s(format="date"), "valid_to": s(format="date")})
    doc = spec(
        {
            "/overrides": {"get": {"operationId": "ListOverrides", "responses": ok(arr(ref("Override")))}},
            "/overrides/{overrideId}": {"get": {"operationId": "GetOverride", "parameters": [pparam("overrideId")], "responses": ok(ref("Override"))}},
        },
        {"Override": override},
    )
    result, _, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert "end: after(same(start), 0..30)" in text and "valid_to: after(same(valid_from), 0..30)" in text, text
    _, state = world_of(model, wf)
    rows = next(rows for t, rows in state.tables.items() if t.endswith(".overrides")).values()
    assert len(rows) >= 4 and all(r["end"] >= r["start"] and r["valid_to"] >= r["valid_from"] for r in rows), list(rows)


def test_a_row_is_changed_after_it_is_created(tmp_path):
    """IoT 1-Click's projects had an `updated_date` before their `created_date` (blind round 47):
    a row's last change is seeded after its creation. Not a range of a call's arguments: no tool
    requires a created filter before an updated one."""
    project = obj({"id": s(), "name": s(), "createdDate": s(format="date-time"), "updatedDate": s(format="date-time"), "creationTime": s(format="date-time"), "modificationTime": s(format="date-time")})
    doc = spec(
        {
            "/projects": {"get": {"operationId": "ListProjects", "parameters": [{"name": "createdDate", "in": "query", "schema": s(format="date-time")}, {"name": "updatedDate", "in": "query", "schema": s(format="date-time")}], "responses": ok(arr(ref("Project")))}},
            "/projects/{projectId}": {"get": {"operationId": "GetProject", "parameters": [pparam("projectId")], "responses": ok(ref("Project"))}},
        },
        {"Project": project},
    )
    result, _, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert "updated_date: after(same(created_date), 0..30)" in text and "modification_time: after(same(creation_time), 0..30)" in text, text
    assert not re.search(r"require created_date <= updated_date", text), text
    _, state = world_of(model, wf)
    rows = next(rows for t, rows in state.tables.items() if t.endswith(".projects")).values()
    assert len(rows) >= 4 and all(r["updated_date"] >= r["created_date"] for r in rows), list(rows)


def test_a_code_the_spec_gives_one_example_of_varies_by_its_digits():
    """Every SMS of an imported world was sent from "+15017122661" with reference "CUST001" (the
    spec's one example): rows no description told apart, and no value worth carrying from one
    call to the next (`common.variants`)."""
    from compoworld_dsl.importers.common import VARIANTS, text_seed, variants

    got = variants("CUST001")
    assert got[0] == "CUST001" and len(set(got)) == VARIANTS and all(re.fullmatch(r"CUST\d{3}", v) for v in got), got
    phones = variants("+15017122661")
    assert len(set(phones)) == VARIANTS and all(re.fullmatch(r"\+1501712\d{4}", v) for v in phones), phones  # country and area code kept
    assert all(re.fullmatch(r"[1-9]\d{4}", v) for v in variants("12345"))  # no leading zero it did not have
    assert variants("+1 415 555 0142")[1].startswith("+1 415 555 ")
    # no code: a date, a time, a decimal, a version, words, too few digits to vary
    for no in ("2025-01-01", "10:30", "0.01", "2.1.0", "v2", "Something went wrong", "sms", "X1"):
        assert variants(no) == [], no
    # the seed: a pick of the variants, the same every import; a version keeps its one value
    seed = text_seed("reference", "message", "CUST001")
    assert seed.startswith('pick(["CUST001", ') and seed.count('"CUST') == VARIANTS and seed == text_seed("reference", "message", "CUST001")
    assert text_seed("from", "message", "+15017122661").count('"+1501712') == VARIANTS
    assert text_seed("schema_version", "message", "12") == 'pick(["12"])'


def test_a_field_a_request_body_enumerates_is_seeded_with_those_values(tmp_path):
    """AWS types a channel's `PlaybackMode` as a plain string in its responses and as `LOOP` or
    `LINEAR` in its create's body: seeded by its name, the field was "playback mode 35" in a
    sampled task (`OpenAPIImporter.request_enums`). A field whose own schema gives an example
    keeps it."""
    channel = obj({"ChannelName": s(), "Title": s(), "PlaybackMode": s(), "Tier": s(example="BASIC")})
    doc = spec(
        {
            "/channels": {"get": {"operationId": "ListChannels", "responses": ok(obj({"Items": arr(ref("Channel"))}))}},
            "/channel/{ChannelName}": {
                "get": {"operationId": "DescribeChannel", "parameters": [pparam("ChannelName")], "responses": ok(ref("Channel"))},
                "post": {"operationId": "CreateChannel", "parameters": [pparam("ChannelName")], "requestBody": {"content": {"application/json": {"schema": obj({"Title": s(), "PlaybackMode": s(enum=["LOOP", "LINEAR"]), "Tier": s(enum=["BASIC", "STANDARD"])}, ["Title"])}}}, "responses": ok(ref("Channel"))},
            },
        },
        {"Channel": channel},
    )
    result, ops, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert seed_line(text, "channels", "playback_mode") == 'pick(["LOOP", "LINEAR"])'
    assert seed_line(text, "channels", "tier") == 'pick(["BASIC"])'  # its own example


def test_an_object_the_api_requires_in_a_recorded_call_is_optional_json(tmp_path):
    """GoDaddy's privacy purchase requires a `consent` object; kept as required JSON text, a task
    stated "with consent "AC-7654"", another field's value. Like an opaque body it is optional,
    blank unless given, and the request does not ask for it."""
    domain = obj({"domainId": s(), "domain": s(), "status": s()})
    doc = spec(
        {
            "/domains": {"get": {"operationId": "List", "responses": ok(arr(ref("Domain")))}},
            "/domains/{domain}": {"get": {"operationId": "Get", "parameters": [pparam("domain")], "responses": ok(ref("Domain"))}},
            "/domains/{domain}/privacy/purchase": {
                "post": {
                    "operationId": "PurchasePrivacy",
                    "parameters": [pparam("domain")],
                    "requestBody": {"content": {"application/json": {"schema": obj({"consent": obj({"agreementKeys": arr(s()), "agreedBy": s()}), "period": s("integer")}, ["consent"])}}},
                    "responses": ok(obj({"orderId": s("integer")})),
                }
            },
        },
        {"Domain": domain},
    )
    result, ops, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    line = re.search(r"tool purchase_privacy\((.*)\)", text).group(1)
    assert 'consent: text = ""' in line, line
    say = re.search(r'tool purchase_privacy[^\n]*\n[^\n]*\n\s*say "([^"]*)"', text).group(1)
    assert "{consent}" not in say, say


def test_text_with_no_example_is_what_its_last_word_says_not_its_name_numbered():
    """The last resort numbered a field's own words: "ttl 17", "fqdn 21", "measure unit 5",
    "vpc configuration subnet ids 9", "scopes 36": 173 of 567 instructions sampled from two
    corpus draws held one (stop 50). Now a kind of text the last word names is drawn as such, a
    plural as one of its items; what no word tells is still numbered."""
    import json

    from compoworld_dsl.importers.common import CLOUD_ZONES, ZONES, text_seed

    def values(gen: str) -> list[str]:
        assert gen.startswith("pick(["), gen
        return json.loads(gen[len("pick(") : -1])

    assert text_seed("ttl", "record") == 'format("{}", 1..64)'
    assert "api.northwind.example" in values(text_seed("fqdn", "site"))
    assert "kg" in values(text_seed("measure_unit", "item"))
    assert text_seed("vpc_configuration_subnet_ids", "job") == 'format("subnet-{}", 1000..9999)'
    assert values(text_seed("scopes", "token")) == values(text_seed("scope", "token"))
    assert values(text_seed("zones", "cluster")) == values(text_seed("availability_zone", "cluster")) == CLOUD_ZONES
    assert values(text_seed("time_zone", "user")) == ZONES
    assert "Orion policy" in values(text_seed("policy", "rule"))
    assert "main" in values(text_seed("commitish", "release"))
    assert values(text_seed("identity", "user")) == values(text_seed("username", "user"))  # Twilio's "identity 26"
    assert values(text_seed("cover_letter", "application")) == values(text_seed("notes", "application"))
    assert text_seed("ttl_list", "record") == text_seed("ttl", "record")
    assert "1920x1080" in values(text_seed("model_resolution", "camera"))  # cambase's "model resolution 28"
    assert values(text_seed("vendor_info", "vendor")) == values(text_seed("notes", "vendor"))
    assert text_seed("soft_descriptor", "charge") == 'format("soft descriptor {}", 1..40)'  # nothing says what it is
    assert values(text_seed("scope", "token", example="repo")) == ["repo"]  # the spec's example first


def test_an_ip_or_mac_address_is_no_street_and_a_list_names_no_row():
    """IX-API's MAC and IP address records were "the mac address partial "48 Market Road""; a
    Device Farm instance was known by its labels ("the device instance "urgent"") and then by its
    packages to keep on cleanup, a list kept as comma-separated text (stop 50)."""
    from types import SimpleNamespace

    from compoworld_dsl.importers.common import IPS, FieldIR, text_seed
    from compoworld_dsl.importers.speak import identity

    assert text_seed("address", "mac address partial").count(":") >= 5 * 4
    assert all(ip in text_seed("address", "ip address partial") for ip in IPS)
    assert "255.255.255.0" in text_seed("ip_mask", "ip filter rule")
    assert "Harbour Street" in text_seed("address", "customer")

    from compoworld_dsl.importers.speak import may_name

    assert not may_name("labels")
    packages = FieldIR("exclude_packages", "text", "text")
    packages._shape = SimpleNamespace(items=SimpleNamespace(format=None), description="", example=None)
    model = FieldIR("model", "text", "text")
    assert identity([FieldIR("arn", "DeviceInstanceId", "id", key=True), packages, model], ("name", "title")) == ["model"]


def test_a_short_label_the_spec_shows_is_no_sentence():
    """WMATA's `DirectionText` ("NORTH") and `LineDescription` ("Hunting Point-Pentagon Line")
    took the prose pool after their example: the other rows' directions were "Second reminder
    sent." (a fresh draw's data). A short example with no sentence in it keeps its shape; a
    note, or a field the spec shows a sentence for, still reads as prose."""
    from compoworld_dsl.importers.common import SENTENCES, text_seed

    def values(gen: str) -> list[str]:
        assert gen.startswith("pick(["), gen
        return json.loads(gen[len("pick(") : -1])

    assert values(text_seed("direction_text", "bus position", example="NORTH")) == ["NORTH"]
    assert values(text_seed("line_description", "route", example="Hunting Point-Pentagon Line")) == ["Hunting Point-Pentagon Line"]
    assert values(text_seed("order_reference_text", "order", example="ORD-0042"))[0] == "ORD-0042" and len(values(text_seed("order_reference_text", "order", example="ORD-0042"))) > 1
    assert SENTENCES[0] in values(text_seed("notes", "ticket", example="Call back"))  # a bare note is prose
    assert SENTENCES[0] in values(text_seed("line_description", "route", example="Runs every ten minutes. Stops at all stations."))


def test_an_operation_id_a_portal_generated_names_nothing(tmp_path):
    """WMATA, Transavia and Halo export their operation ids from API Management as object ids
    (`5476362a281d830c946a3d6d`): the tools and answer records were named by them
    ("N5476362a281d830c946a3d6dAnswer", a name seeded "Atlas n5476362a281d830c946a3d6d"). They
    are named from the path instead."""
    doc = spec(
        {
            "/Stops": {"get": {"operationId": "5476362a281d830c946a3d6d", "summary": "Stops", "responses": ok(obj({"Stops": arr(ref("Stop"))}))}},
            "/Routes": {"get": {"operationId": "5476362a281d830c946a3d6a", "summary": "Routes", "responses": ok(obj({"Routes": arr(obj({"RouteID": s(), "Name": s()}))}))}},
        },
        {"Stop": obj({"StopID": s(), "Name": s(), "Lat": s("number")})},
    )
    result, ops, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert not re.search(r"5476362a|N5476362", text, re.I), [line for line in text.splitlines() if "5476362" in line.lower()][:5]
    assert {t.name for t in model.tools()} == {"list_stops", "list_routes"}, sorted(t.name for t in model.tools())


def test_the_forms_of_a_members_name_are_one_name(tmp_path):
    """UK Parliament's members hold `nameFullTitle`, `nameDisplayAs`, `nameListAs` and
    `nameAddressAs`: the member a fresh task named was "Customer onboarding" (a title) with a
    display name "name display as 12". They are a person's name, one name: the row's."""
    from compoworld_dsl.importers.common import PEOPLE, text_seed

    assert all(p in text_seed("name_full_title", "member") for p in PEOPLE)
    member = obj({"id": s("integer"), "nameFullTitle": s(), "nameDisplayAs": s(), "nameListAs": s(), "gender": s()})
    doc = spec(
        {
            "/Members/Search": {"get": {"operationId": "searchMembers", "responses": ok(obj({"items": arr(ref("Member"))}))}},
            "/Members/{id}": {"get": {"operationId": "getMember", "parameters": [pparam("id")], "responses": ok(ref("Member"))}},
        },
        {"Member": member},
    )
    result, _, model, wf = run(tmp_path, doc)
    w, st = world_of(model, wf)
    rows = next(t for q, t in st.tables.items() if q.endswith(".members")).values()
    assert rows and all(r["name_display_as"] == r["name_list_as"] == r["name_full_title"] in PEOPLE for r in rows), list(rows)


def test_a_low_and_a_high_bound_are_drawn_in_order(tmp_path):
    """A scaling policy's `minCapacity` and `maxCapacity`, drawn from one range apart, were
    backwards in about half the rows; the low bound is drawn from the lower half of the range,
    the high one from the upper half, so every row holds them in order. So is a count below its
    cap: Azure's private zones held `numberOfRecordSets` 66 beside `maxNumberOfRecordSets` 13 (a
    blind player's note, round 48)."""
    policy = obj({"id": s(), "name": s(), "minCapacity": s("integer"), "maxCapacity": s("integer"), "lowerThreshold": s("number"), "upperThreshold": s("number"), "numberOfRules": s("integer"), "maxNumberOfRules": s("integer")})
    doc = spec(
        {
            "/policies": {"get": {"operationId": "ListPolicies", "responses": ok(arr(ref("Policy")))}},
            "/policies/{id}": {"get": {"operationId": "GetPolicy", "parameters": [pparam("id")], "responses": ok(ref("Policy"))}},
        },
        {"Policy": policy},
    )
    result, ops, model, wf = run(tmp_path, doc)
    w, st = world_of(model, wf)
    rows = next(t for q, t in st.tables.items() if q.endswith(".policies")).values()
    assert len(rows) >= 4
    for row in rows:
        assert row["min_capacity"] <= row["max_capacity"], row
        assert row["lower_threshold"] <= row["upper_threshold"], row
    for seed in range(2, 12):  # and in every seeded state, not only the first
        for row in next(t for q, t in w.initial_state(seed).tables.items() if q.endswith(".policies")).values():
            assert row["min_capacity"] <= row["max_capacity"] and row["lower_threshold"] <= row["upper_threshold"], row
            assert row["number_of_rules"] <= row["max_number_of_rules"], row


def test_an_after_and_a_before_of_one_range_are_in_order():
    """Cloud Storage's bulk restore takes `softDeletedAfterTime` and `softDeletedBeforeTime`, and
    a fresh draw's task asked to restore objects deleted after 15 February and before 7 January
    (the review of stop 58): "after" and "before" bound a range as "start" and "end" do."""
    from compoworld_dsl.importers.common import ParamIR, ToolIR, ordered_ranges

    t = ToolIR("bulk_restore", [ParamIR("soft_deleted_after_time", "datetime", "2025-01-01T00:00"), ParamIR("soft_deleted_before_time", "datetime", "2025-01-01T00:00")], None, "", "")
    [rule] = ordered_ranges(t)
    assert "soft_deleted_after_time <= soft_deleted_before_time" in rule, rule


def test_a_dotnet_json_date_is_a_date_seeded_as_dates(tmp_path):
    """Xero payroll writes its dates as .NET JSON dates (`/Date(322560000000+0000)/`, marked
    `x-is-msdate`): seeded from that one example, a pay run started, ended and was paid on the
    same "/Date(...)/" text in a fresh draw's task (stop 63). Each is a date now, drawn as dates."""
    ms = lambda ex: {"type": "string", "example": ex, "x-is-msdate": True, "description": "Period start date (YYYY-MM-DD)"}
    run_ = obj({"PayRunID": s(), "PayRunPeriodStartDate": ms("/Date(322560000000+0000)/"), "PaymentDate": ms("/Date(322560000000+0000)/"), "UpdatedDateUTC": {"type": "string", "x-is-msdate": True}, "Created": s(example="/Date(1573755038314)/")})
    doc = spec(
        {
            "/PayRuns": {"get": {"operationId": "getPayRuns", "responses": ok(obj({"PayRuns": arr(ref("PayRun"))}))}},
            "/PayRuns/{PayRunID}": {"get": {"operationId": "getPayRun", "parameters": [pparam("PayRunID")], "responses": ok(obj({"PayRuns": arr(ref("PayRun"))}))}},
        },
        {"PayRun": run_},
    )
    result, _, model, wf = run(tmp_path, doc)
    rec = "\n".join(result.files.values()).split("record PayRun ")[1].split("\n  }")[0]
    assert "pay_run_period_start_date: date" in rec and "payment_date: date" in rec, rec
    assert "updated_date_utc: datetime" in rec and "created: datetime" in rec, rec
    w, st = world_of(model, wf)
    rows = list(next(t for q, t in st.tables.items() if q.endswith(".pay_runs")).values())
    assert len({str(r["pay_run_period_start_date"]) for r in rows}) > 1, rows
    assert not any("/Date(" in str(v) for r in rows for v in r.values()), rows


def test_an_integer_counted_from_1970_is_a_time(tmp_path):
    """CloudWatch Logs counts its times in milliseconds from 1970, as integers (`Timestamp`, its
    description beside the `$ref`): a fresh draw's task found "the log group with creation time
    93" (stop 64). An integer whose description says so is a time; other integers stay."""
    stamp = {"type": "integer", "minimum": 0}
    group = obj({
        "logGroupName": s(), "retentionInDays": s("integer"),
        "creationTime": {"allOf": [ref("Timestamp"), {"description": "The creation time of the log group, expressed as the number of milliseconds after Jan 1, 1970 00:00:00 UTC."}]},
        "lastIngested": {"type": "integer", "description": "Unix epoch time in seconds of the last event."},
    })
    doc = spec(
        {
            "/loggroups": {"get": {"operationId": "DescribeLogGroups", "responses": ok(obj({"logGroups": arr(ref("LogGroup"))}))}},
            "/loggroups/{logGroupName}": {"get": {"operationId": "GetLogGroup", "parameters": [pparam("logGroupName")], "responses": ok(ref("LogGroup"))}},
        },
        {"LogGroup": group, "Timestamp": stamp},
    )
    result, _, _, _ = run(tmp_path, doc)
    rec = "\n".join(result.files.values()).split("record LogGroup ")[1].split("\n  }")[0]
    assert "creation_time: datetime" in rec and "last_ingested: datetime" in rec, rec
    assert "retention_in_days: int" in rec, rec


def test_a_date_of_birth_is_decades_back(tmp_path):
    """A Xero employee seeded as born in 2025 had a timesheet end on that date in a fresh draw's
    task (stop 63): a birth date is drawn from decades back, other dates as before."""
    person = obj({"EmployeeID": s(), "FirstName": s(), "LastName": s(), "DateOfBirth": s(format="date"), "StartDate": s(format="date")})
    doc = spec(
        {
            "/Employees": {"get": {"operationId": "getEmployees", "responses": ok(obj({"Employees": arr(ref("Employee"))}))}},
            "/Employees/{EmployeeID}": {"get": {"operationId": "getEmployee", "parameters": [pparam("EmployeeID")], "responses": ok(ref("Employee"))}},
        },
        {"Employee": person},
    )
    _, _, model, wf = run(tmp_path, doc)
    w, st = world_of(model, wf)
    rows = list(next(t for q, t in st.tables.items() if q.endswith(".employees")).values())
    # (a date is held as days since 1970: 2004-01-01 is day 12,418, 2025-01-01 day 20,089)
    assert rows and all(r["date_of_birth"] < 12418 and r["start_date"] >= 20089 for r in rows), rows


def test_a_short_enum_value_with_a_digit_is_one_word(tmp_path):
    """Azure API Management's `httpCorrelationProtocol` (None, Legacy, W3C): a task asked for
    "HTTP correlation protocol w3 c". A short value with a digit in it is one word: w3c, ipv4;
    so is a brand written in two capitals (`GitHub`)."""
    thing = obj({"id": s(), "protocol": s(enum=["None", "Legacy", "W3C"]), "family": s(enum=["IPv4", "IPv6"]), "tier": s(enum=["StandardTier", "Gen2Premium"]), "source": s(enum=["GitHub", "VsoGit", "AzureDevOps"])})
    doc = spec(
        {
            "/things": {"get": {"operationId": "listThings", "responses": ok(arr(ref("Thing")))}},
            "/things/{id}": {"get": {"operationId": "getThing", "parameters": [pparam("id")], "responses": ok(ref("Thing"))}},
        },
        {"Thing": thing},
    )
    result, _, _, _ = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert re.search(r"enum \w+ \{ none, legacy, w3c \}", text), text
    assert re.search(r"enum \w+ \{ ipv4, ipv6 \}", text), text
    assert re.search(r"enum \w+ \{ standard_tier, gen2_premium \}", text), text  # longer values split as before
    # and a brand in two capitals is one word (Azure Automation's "source type git hub")
    assert re.search(r"enum \w+ \{ github, vso_git, azure_devops \}", text), text


def test_a_number_argument_is_held_to_the_range_its_schema_declares(tmp_path):
    """Lex's `PutBot {nluIntentConfidenceThreshold}` (a `ConfidenceThreshold`, 0 to 1) was
    recorded as any decimal, and a task set it to 595, a value the API refuses. A create, an
    update and a recorded write now require the declared range (an optional argument's default
    passes), so a call outside it fails and changes nothing, and no walk can state one."""
    from compoworld_dsl.sample.run import Job, run as sample

    ratio = {"type": "number", "minimum": 0, "maximum": 1}
    bot = obj({"id": s(), "name": s(), "threshold": ratio, "replicas": s("integer", minimum=1, maximum=50)})
    item = [pparam("botId")]
    doc = spec(
        {
            "/bots": {
                "get": {"operationId": "listBots", "responses": ok(arr(ref("Bot")))},
                "post": {"operationId": "createBot", "requestBody": {"content": {"application/json": {"schema": obj({"name": s(), "threshold": ratio, "replicas": s("integer", minimum=1, maximum=50)}, ["name", "threshold"])}}}, "responses": ok(ref("Bot"))},
            },
            "/bots/{botId}": {"get": {"operationId": "getBot", "parameters": item, "responses": ok(ref("Bot"))}},
            "/bots/{botId}/tune": {"post": {"operationId": "tuneBot", "parameters": item, "requestBody": {"content": {"application/json": {"schema": obj({"boost": {"type": "number", "minimum": 0, "maximum": 2}}, ["boost"])}}}, "responses": {"200": {"description": "ok"}}}},
            # a number named as a bot's key is a bot (PeerTube's `videoChannelId`, minimum 1):
            # no range is required of it, which would compare a key with a number (E205)
            # a number of a few values is one of them (Azure's key `serial`, 1 or 2)
            "/bots/{botId}/regenerateKey": {"post": {"operationId": "regenerateBotKey", "parameters": item, "requestBody": {"content": {"application/json": {"schema": obj({"serial": s("integer", enum=[1, 2], default=1)})}}}, "responses": {"200": {"description": "ok"}}}},
            "/bot-syncs": {"post": {"operationId": "addBotSync", "requestBody": {"content": {"application/json": {"schema": obj({"botId": s("integer", minimum=1), "note": s()}, ["botId"])}}}, "responses": {"200": {"description": "ok"}}}},
        },
        {"Bot": bot},
    )
    result, ops, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert ops["POST /bots/{botId}/tune"][0] == "recorded", ops
    assert "require threshold >= 0.0 and threshold <= 1.0 else invalid" in text, text
    assert re.search(r"require replicas == \d+ or \(replicas >= 1 and replicas <= 50\)|require replicas >= 1 and replicas <= 50", text), text
    assert "require boost >= 0.0 and boost <= 2.0 else invalid" in text, text
    assert 'require serial == 1 or serial == 2 else invalid "serial is 1 or 2, not {serial}"' in text, text
    w, st = world_of(model, wf)
    tools = {t.name: t.qualified for t in model.tools()}
    before = {q: dict(rows) for q, rows in st.tables.items()}
    bad = w.call(st, tools["create_bot"], {"name": "Orion bot", "threshold": 595})
    assert not bad["success"] and "0.0 to 1.0" in bad["error"]["message"], bad
    key = next(iter(next(rows for q, rows in st.tables.items() if q.endswith(".bots"))))
    bad = w.call(st, tools["tune_bot"], {"bot_id": key, "boost": 7})
    assert not bad["success"] and {q: dict(rows) for q, rows in st.tables.items()} == before, bad
    assert w.call(st, tools["tune_bot"], {"bot_id": key, "boost": 1.5})["success"]
    rep = sample(Job(str(wf), 2, 8, 3, max_attempts=300), tmp_path / "t.jsonl")
    assert rep.emitted == 8, rep.rejected.most_common(3)
    for line in (tmp_path / "t.jsonl").read_text().splitlines():
        for p in json.loads(line)["reference_plan"]:
            args = p["arguments"]
            assert 0 <= args.get("threshold", 0) <= 1 and 0 <= args.get("boost", 0) <= 2 and 1 <= args.get("replicas", 1) <= 50 and args.get("serial", 1) in (1, 2), p


def test_a_machines_size_is_a_sku_name():
    """Batch AI's clusters were added with "vm size "55"" (a fresh draw, stop 68): a machine's
    size is a SKU's name; a disk's size is still a number."""
    from compoworld_dsl.importers.common import VM_SIZES, text_seed

    assert all(v in text_seed("vm_size", "cluster") for v in VM_SIZES[:2]) and "Standard_NC6" in text_seed("node_vm_size", "pool")
    assert text_seed("disk_size", "cluster") == 'format("{}", 1..64)'


def test_an_enum_of_ids_is_text_drawn_from_them_and_a_uuid_a_price_are_what_they_say(tmp_path):
    """Reverb (a fresh draw, stop 71): a listing's `condition_uuid` is an enum of UUIDs, whose
    members became `n7c3f45de_2ae0_...` and a task said "condition UUID n7c3f45de 2ae0 4c81 ...";
    a page size of "10", "25" likewise. Values that are no words are text, drawn from the API's
    own values and passed as it spells them. And a text named a UUID is one ("recipient UUID
    "RU-6335"" before), a text named a price is a figure ("with price "SPI-8568"")."""
    uuids = ["7c3f45de-2ae0-4c81-8400-fdb6b1d74890", "ac5b9c1e-dc78-466d-b0b3-7cf712967a48"]
    listing = obj({"id": s(), "title": s(), "condition_uuid": s(enum=uuids), "page_size": s(enum=["10", "25", "50"]), "state": s(enum=["live", "ended"]), "recipient_uuid": s(), "price": s()})
    doc = spec(listed("listings", "Listing"), {"Listing": listing})
    result, _, _, _ = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert "condition_uuid: text" in text and "page_size: text" in text, text
    assert not re.search(r"enum \w+ \{ n7c3f45de", text) and not re.search(r"enum \w+ \{ n10", text), text
    assert re.search(r"enum \w+ \{ live, ended \}", text), text  # words stay an enum
    assert seed_line(text, "listings", "condition_uuid") == 'pick(["7c3f45de-2ae0-4c81-8400-fdb6b1d74890", "ac5b9c1e-dc78-466d-b0b3-7cf712967a48"])'
    assert seed_line(text, "listings", "page_size") == 'pick(["10", "25", "50"])'
    assert re.fullmatch(r'pick\(\["[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}".*\]\)', seed_line(text, "listings", "recipient_uuid"))
    assert seed_line(text, "listings", "price") == 'format("{}.00", 5..950)'


def test_a_long_enum_of_countries_goes_with_the_rows_city(tmp_path):
    """Storecove (a fresh draw, stop 71): a legal entity's `country` is an enum of every ISO
    code, seeded with its first twelve (AD ... AT) beside a city from the place pool: "city
    "Lisbon", country "AF"". A long enum that holds the place pool's codes is drawn from that
    pool, and so goes with the row's city (one place a row)."""
    codes = sorted({a + b for a in "ABCDEFGHIJ" for b in "ADEFGLMOQRST"} | {"AU", "CA", "DE", "GB", "JP", "NG", "PT", "US"})  # more than an enum holds
    entity = obj({"id": s(), "party_name": s(), "city": s(), "country": s(enum=codes), "zip": s()})
    doc = spec(
        {
            "/legal_entities": {"post": {"operationId": "createLegalEntity", "requestBody": body(ref("LegalEntity")), "responses": ok(ref("LegalEntity"))}},
            "/legal_entities/{id}": {"get": {"operationId": "getLegalEntity", "parameters": [pparam("id")], "responses": ok(ref("LegalEntity"))}},
        },
        {"LegalEntity": entity},
    )
    result, _, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert re.search(r"seed legal_entities: [0-9.]+ rows from \w+_places", text), text
    _, st = world_of(model, wf)
    places = {("London", "GB"), ("Lagos", "NG"), ("Toronto", "CA"), ("Berlin", "DE"), ("Osaka", "JP"), ("Lisbon", "PT"), ("Chicago", "US"), ("Melbourne", "AU")}
    rows = next(t for q, t in st.tables.items() if q.endswith(".legal_entities")).values()
    assert rows and all((r["city"], r["country"]) in places for r in rows), [(r["city"], r["country"]) for r in rows]


def test_a_rows_own_arn_is_not_set_by_an_update_and_a_logo_is_a_link(tmp_path):
    """Fresh draws of stop 71: Kinesis Video's `UpdateStream` takes the stream's `StreamARN` (one
    way to name it) and a task asked to 'update the stream "Harbor stream" with stream arn
    ".../Beacon stream"': the row's own ARN is the service's, not a field to set. And Yodlee's
    provider `logo` was "logo 18": a logo is a link."""
    stream = obj({"StreamName": s(), "StreamARN": s(), "DeviceName": s(), "logo": s()})
    doc = spec(
        {
            "/streams": {"get": {"operationId": "ListStreams", "responses": ok(arr(ref("Stream")))}},
            "/streams/{StreamName}": {
                "get": {"operationId": "DescribeStream", "parameters": [pparam("StreamName")], "responses": ok(ref("Stream"))},
                "patch": {"operationId": "UpdateStream", "parameters": [pparam("StreamName")], "requestBody": body(obj({"StreamARN": s(), "DeviceName": s()})), "responses": ok(ref("Stream"))},
            },
        },
        {"Stream": stream},
    )
    result, _, model, _ = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    update = next(t for t in model.tools() if t.name == "update_stream")
    assert [n for n, _ in update.params] == ["stream_name", "device_name"], update.params
    assert seed_line(text, "streams", "logo").startswith('pick(["https://'), text


def test_google_style_values_are_said_as_a_person_would(tmp_path):
    """Fresh draws of stop 71. Essential Contacts: a contact's `languageTag` was "vip" (a tag),
    and its subscriptions, a list of an enum kept as text, "NOTIFICATION_CATEGORY_UNSPECIFIED",
    the member that stands for no value. Document AI: `MODEL_TYPE_GENERATIVE` of `modelType` was
    said "model type model type generative", and evaluations were 'the evaluation "Maple kms key"',
    known by their `kmsKeyName`."""
    contact = obj({"name": s(), "email": s(), "languageTag": s(), "notificationCategorySubscriptions": arr(s(enum=["NOTIFICATION_CATEGORY_UNSPECIFIED", "ALL", "BILLING", "TECHNICAL"])), "modelType": s(enum=["MODEL_TYPE_UNSPECIFIED", "MODEL_TYPE_GENERATIVE", "MODEL_TYPE_CUSTOM"])})
    evaluation = obj({"name": s(), "kmsKeyName": s(), "createTime": s(format="date-time"), "score": s("number")})
    doc = spec({**listed("contacts", "Contact"), **listed("evaluations", "Evaluation")}, {"Contact": contact, "Evaluation": evaluation})
    result, _, _, _ = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert "vip" not in seed_line(text, "contacts", "language_tag") and '"en' in seed_line(text, "contacts", "language_tag"), seed_line(text, "contacts", "language_tag")
    assert "UNSPECIFIED" not in seed_line(text, "contacts", "notification_category_subscriptions")
    assert re.search(r"enum \w+ \{ unspecified, generative, custom \}", text), re.findall(r"enum .*", text)
    assert "record Evaluation known by kms_key_name" not in text, re.findall(r"record Evaluation .*", text)


def test_a_bank_accounts_numbers_are_what_banks_write():
    """Sinao's bank details and SEPA mandates were 'BIC "bic 4", IBAN "iban 34"' (a fresh draw,
    stop 74); a `swift_code` was "SC-4821"."""
    from compoworld_dsl.importers.common import text_seed

    for name in ("iban", "account_iban", "iban_number"):
        assert "GB29NWBK60161331926819" in text_seed(name, "bank"), name
    for name in ("bic", "swift_code", "swift"):
        assert "DEUTDEFF" in text_seed(name, "bank"), name


def test_what_a_change_adds_or_removes_is_the_things_named():
    """MemoryDB's ACLs held `pending_changes_user_names_to_remove` "pending changes user names to
    remove 2", and a task's answer was that (a fresh draw, stop 74)."""
    from compoworld_dsl.importers.common import text_seed

    assert text_seed("tags_to_remove", "acl") == text_seed("tags", "acl")
    assert "to remove" not in text_seed("pending_changes_user_names_to_remove", "acl")


def test_a_moment_typed_as_a_number_is_a_unix_time_of_2025():
    """Buffer's updates were "created at 147.17" (a fresh draw, stop 74)."""
    from compoworld_dsl.importers.common import decimal_seed, int_seed

    assert int_seed("created_at") == "1735689600..1767225599" and int_seed("timestamp") == "1735689600..1767225599"
    assert int_seed("updated_ms") == "1735689600000..1767225599000"
    assert decimal_seed("created_at", False) == "1735689600..1767225599"  # whole seconds
    assert int_seed("count") == "1..50" and int_seed("start_time") == "1..100"
    assert int_seed("created_at", maximum=100) != "1735689600..1767225599"  # the spec's bounds say otherwise


def test_a_text_written_again_in_another_form_says_the_same(tmp_path):
    """Buffer's updates hold `text` and `text_formatted`: drawn apart, a task's answer was "text
    formatted 15" (a fresh draw, stop 74)."""
    from import_specs import arr, obj, ok, pparam, run, s, spec

    update = obj({"id": s(), "text": s(), "text_formatted": s(), "description_html": s(), "via": s()})
    paths = {
        "/updates": {"get": {"operationId": "listUpdates", "responses": ok(arr(update))}},
        "/updates/{id}": {"get": {"operationId": "getUpdate", "parameters": [pparam("id")], "responses": ok(update)}},
    }
    result, _, _, _ = run(tmp_path, spec(paths))
    text = "".join(result.files.values())
    assert "text_formatted: same(text)" in text, text
    assert "description_html: same(" not in text  # no `description` beside it
    assert '"via ' not in text.split("seed updates", 1)[1]


def test_a_state_with_no_address_beside_it_is_the_rows_state(tmp_path):
    """Netlify's site (a web site) was in state "Berlin" (a fresh draw, stop 74); an office's
    `state` beside its `city` is still a region."""
    from import_specs import listed, obj, run, s, spec

    site = obj({"id": s(), "name": s(), "state": s(), "url": s()})
    office = obj({"id": s(), "name": s(), "city": s(), "state": s()})
    result, _, _, _ = run(tmp_path, spec({**listed("sites", "Site"), **listed("offices", "Office")}, {"Site": site, "Office": office}))
    text = "".join(result.files.values())
    sites, offices = (text.split(f"seed {t}:", 1)[1].split("\n  }", 1)[0] for t in ("sites", "offices"))
    assert "Berlin" not in sites and "active" in sites, sites
    assert "active" not in offices, offices  # drawn with its city, from one place
