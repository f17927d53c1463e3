"""`worldc import openapi`: a list that answers short forms of a resource's rows is a list of those
rows; an argument named by a resource's collection word names its row; a parent the path names
by a bare `{id}` is a field named after the parent (issue 30; docs/import.md, "Summaries").

Each spec here is the smallest of the shape met in the corpus: AWS RUM's `ListAppMonitors`
answers `AppMonitorSummary`s, bunq's `GET /user` answers `UserListing`s of the same properties as
`UserRead`, Highways England's `/sites` hold `SiteResult`s that `?site_id=` names, Spotify's
tracks sit under `/albums/{id}`. Before these rules, the first two APIs gave no task: no list
reached the rows every other call hangs under."""

from __future__ import annotations

from import_specs import arr, body, obj, ok, pparam, ref, run, s, sample_tasks, spec, world_of


def tool(model, name: str):
    return next(t for t in model.tools() if t.name == name)


def table(st, suffix: str) -> dict:
    return next(t for q, t in st.tables.items() if q.endswith("." + suffix))


def test_a_list_of_summaries_is_a_list_of_the_resources_rows(tmp_path):
    # AWS: the list is a POST no resource's path owns, answering summaries keyed by the name
    monitor = obj({"Name": s(), "Domain": s(), "State": s()})
    summary = obj({"Name": s(), "State": s(), "Created": s()})
    doc = spec(
        {
            "/appmonitor/{Name}": {
                "get": {"operationId": "GetAppMonitor", "parameters": [pparam("Name")], "responses": ok(obj({"AppMonitor": ref("AppMonitor")}))},
                "delete": {"operationId": "DeleteAppMonitor", "parameters": [pparam("Name")], "responses": ok(obj({}))},
            },
            "/appmonitor": {"post": {"operationId": "CreateAppMonitor", "requestBody": body(obj({"Name": s(), "Domain": s()})), "responses": ok(obj({"Id": s()}))}},
            "/appmonitors": {"post": {"operationId": "ListAppMonitors", "summary": "Returns a list of the app monitors", "responses": ok(obj({"AppMonitorSummaries": arr(ref("AppMonitorSummary"))}))}},
        },
        {"AppMonitor": monitor, "AppMonitorSummary": summary},
    )
    result, ops, model, wf = run(tmp_path, doc)
    assert ops["POST /appmonitors"][0] == "answered"
    lister = tool(model, "list_app_monitors")
    # the rows seen as the summary shows them (D56): the fields both hold, not the `Created` of
    # its own nor the `Domain` only the get shows (D62), and not a table of summaries
    assert str(lister.result) == "list[AppMonitorSummary]", lister.result
    w, st = world_of(model, wf)
    monitors = table(st, "appmonitors")
    got = w.call(st, lister.qualified, {})
    assert got["success"] and got["data"], got
    # each answer is a row the world holds, which the get then reads by its key
    for row in got["data"]:
        assert set(row) == {"name", "state"} and all(monitors[row["name"]][k] == v for k, v in row.items())
        assert w.call(st, tool(model, "get_app_monitor").qualified, {"name": row["name"]})["success"]


def test_a_summary_without_the_key_is_no_summary_of_that_resource(tmp_path):
    # the same shape, but the summary holds no `Name`: which monitor each one is cannot be told
    monitor = obj({"Name": s(), "Domain": s(), "State": s()})
    summary = obj({"State": s(), "Created": s()})
    doc = spec(
        {
            "/appmonitor/{Name}": {"get": {"operationId": "GetAppMonitor", "parameters": [pparam("Name")], "responses": ok(obj({"AppMonitor": ref("AppMonitor")}))}},
            "/appmonitors": {"post": {"operationId": "ListAppMonitors", "responses": ok(obj({"AppMonitorSummaries": arr(ref("AppMonitorSummary"))}))}},
        },
        {"AppMonitor": monitor, "AppMonitorSummary": summary},
    )
    _, _, model, _ = run(tmp_path, doc)
    assert str(tool(model, "list_app_monitors").result) == "list[AppMonitorSummary]"


def test_a_listing_of_a_read_views_properties_lists_its_rows_and_the_read_word_is_dropped(tmp_path):
    # bunq: `/user/{itemId}` answers a `UserRead`, `/user` a `UserListing` of the same properties
    props = {"display_name": s(), "email": s(), "status": s()}
    card = {"name_on_card": s(), "status": s()}
    doc = spec(
        {
            "/user": {"get": {"operationId": "List_all_User", "summary": "Get a collection of all available users", "responses": ok(arr(ref("UserListing")))}},
            "/user/{itemId}": {"get": {"operationId": "READ_User", "parameters": [pparam("itemId")], "responses": ok(ref("UserRead"))}},
            "/user/{userID}/card": {"get": {"operationId": "List_all_Card_for_User", "parameters": [pparam("userID")], "responses": ok(arr(ref("CardListing")))}},
            "/user/{userID}/card/{itemId}": {"get": {"operationId": "READ_Card_for_User", "parameters": [pparam("userID"), pparam("itemId")], "responses": ok(ref("CardRead"))}},
        },
        {"UserRead": obj(props), "UserListing": obj(props), "CardRead": obj(card), "CardListing": obj(card)},
    )
    result, ops, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert "record User " in text and "record UserRead" not in text  # "the user", not "the user read"
    assert "record Card " in text
    lister = tool(model, "list_all_user")
    assert str(lister.result) == "list[User]", lister.result
    w, st = world_of(model, wf)
    got = w.call(st, lister.qualified, {})
    assert got["success"] and got["data"]
    # a user the list gives is one whose cards can be listed: the API's other calls are reachable
    cards = w.call(st, tool(model, "list_all_card_for_user").qualified, {"user_id": got["data"][0]["id"]})
    assert cards["success"], cards


def test_a_schema_named_for_its_properties_or_a_request_names_its_row_without_the_word(tmp_path):
    # AWS Comprehend's `EndpointProperties` ("the endpoint properties "..."" in a task) and
    # VTEX's tasks, answered as `NewTaskRequest`s ("the new task request "Maple""): fresh draws
    from compoworld_dsl.importers.common import clean_schema_name

    assert [clean_schema_name(n) for n in ("EndpointProperties", "NewTaskRequest", "CreateUserRequest", "NewsArticle", "Properties", "Request")] == ["Endpoint", "Task", "User", "NewsArticle", "Properties", "Request"]
    doc = spec(
        {
            "/tasks": {"get": {"operationId": "ListTasks", "responses": ok(arr(ref("NewTaskRequest")))}},
            "/tasks/{taskId}": {"get": {"operationId": "GetTask", "parameters": [pparam("taskId")], "responses": ok(ref("NewTaskRequest"))}},
        },
        {"NewTaskRequest": obj({"id": s(), "name": s(), "status": s(enum=["open", "closed"])})},
    )
    result, _, _, _ = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert "record Task " in text and "record NewTaskRequest" not in text, text


def test_an_argument_named_by_a_resources_collection_word_names_its_row(tmp_path):
    # Highways England: `/sites` holds `SiteResult`s; a quality report takes `site_id`
    site = obj({"Id": s(), "Name": s(), "Description": s()})
    quality = obj({"Date": s(), "Percentage": s("integer")})
    doc = spec(
        {
            "/sites": {"get": {"operationId": "Sites_Index", "responses": ok(obj({"sites": arr(ref("SiteResult"))}))}},
            "/sites/{site_Ids}": {"get": {"operationId": "Sites_Get", "parameters": [pparam("site_Ids")], "responses": ok(ref("SiteResult"))}},
            "/quality/daily": {
                "get": {
                    "operationId": "Quality_GetDailyDataQualityForSite",
                    "parameters": [{"name": "siteId", "in": "query", "required": True, "schema": s()}],
                    "responses": ok(arr(ref("Qualities"))),
                }
            },
        },
        {"SiteResult": site, "Qualities": quality},
    )
    _, ops, model, wf = run(tmp_path, doc)
    assert ops["GET /quality/daily"][0] == "answered"
    read = tool(model, "quality_get_daily_data_quality_for_site")
    # (a `SiteResult` at `/sites` is a site: the schema is the collection's noun and a word of role)
    assert str(dict(read.params)["site_id"]) == "SiteId"
    w, st = world_of(model, wf)
    # the answers are about sites the world holds, so a site found in the list reads them
    sites = table(st, "sites")
    hits = [sid for sid in sites if w.call(st, read.qualified, {"site_id": sid})["data"]]
    assert hits
    # a site the world does not hold has no answers (the read lives in another service than the
    # sites, so it does not require one: it answers nothing for it)
    assert not w.call(st, read.qualified, {"site_id": "no-such-site"}).get("data")


def test_a_parent_a_bare_id_names_is_a_field_named_after_the_parent(tmp_path):
    album = obj({"id": s(), "name": s()})
    track = obj({"id": s(), "name": s()})
    doc = spec(
        {
            "/albums/{id}": {"get": {"operationId": "getAlbum", "parameters": [pparam("id")], "responses": ok(ref("Album"))}},
            "/albums/{id}/tracks": {"get": {"operationId": "getAlbumTracks", "parameters": [pparam("id")], "responses": ok(obj({"items": arr(ref("Track"))}))}},
        },
        {"Album": album, "Track": track},
    )
    result, _, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert "album_id: AlbumId" in text and "id_2" not in text  # "the album of the track", not "the id 2"
    w, st = world_of(model, wf)
    tracks = table(st, "tracks")
    aid = next(iter(tracks.values()))["album_id"]
    got = w.call(st, tool(model, "get_album_tracks").qualified, {"id": aid})
    assert got["success"] and {r["id"] for r in got["data"]} == {k for k, r in tracks.items() if r["album_id"] == aid}


def test_a_namespaced_schema_name_is_its_last_part():
    """clickmeter's `Api.Core.Dto.Conversions.Conversion` was "the API core dto conversions
    conversion"; Twilio's `serverless.v1.service.asset` an asset; APIs.guru writes .NET's generic
    `EntityUri[System.Int64]` as `EntityUri_System.Int64_`; Google's package prefix goes too."""
    from compoworld_dsl.importers.common import clean_schema_name as clean

    assert clean("Api.Core.Dto.Conversions.Conversion") == "Conversion"
    assert clean("serverless.v1.service.asset") == "asset"
    assert clean("messaging.v1.brand_registrations.brand_registration_otp") == "brand_registration_otp"
    assert clean("Api.Core.Responses.EntityUri_System.Int64_") == "EntityUri"
    assert clean("Api.Core.Responses.ModifyBatchItemResponce_Api.Core.Dto.Datapoints.Datapoint_System.Int64_") == "ModifyBatchItemResponce"
    assert clean("AirportsAPI.Controllers.AirportDetailsController.Response") == "AirportDetailsController"
    assert clean("GoogleCloudAiplatformV1Model") == "Model" and clean("GoogleApiHttpBody") == "GoogleApiHttpBody"
    assert clean("Foo_Bar") == "Foo_Bar" and clean("UserRead") == "User"
    assert clean("GetDefaultViewOutput") == "DefaultView"  # AWS's output shapes: "the get default view output" before
    # API Gateway's exports: an item of `PodcastList.podcasts`, the podcast `SinglePodcast` wraps
    assert clean("PodcastListPodcastsItem") == "Podcast" and clean("CategoryListCategoriesItem") == "Category"
    assert clean("SinglePodcastPodcast") == "Podcast" and clean("OrderItem") == "OrderItem" and clean("NewsItem") == "NewsItem"


def test_a_fastapi_operation_id_is_its_functions_name(tmp_path):
    """FastAPI appends the route to the function's name when it makes an operation id: the name
    alone is the tool's, and its words the phrase's (ThreatJammer's "change status of the origin
    allowlist v1 allowlist allowl", met in blind play)."""
    from compoworld_dsl.importers.openapi import without_route

    assert without_route("change_status_of_the_origin_allowlist_v1_allowlist_public__allowlist_id__origin_put", "/v1/allowlist/public/{allowlist_id}/origin", "put") == "change_status_of_the_origin_allowlist"
    assert without_route("listPets", "/pets", "get") == "listPets"
    assert without_route("_pets_get", "/pets", "get") == "_pets_get"  # nothing would be left
    doc = spec({"/v1/notes/{note_id}/pin": {"put": {"operationId": "pin_a_note_v1_notes__note_id__pin_put", "parameters": [pparam("note_id")], "responses": ok(obj({"done": {"type": "boolean"}}))}}})
    text = "\n".join(run(tmp_path, doc)[0].files.values())
    assert "tool pin_a_note(" in text and "v1_notes" not in text and "v1 notes" not in text, text


def test_value_objects_and_response_items_name_their_rows():
    """Noosh's `ProjectDetailVO` was "the project detail v o" (a value object's suffix, and a run
    of capitals split letter by letter); Connect Cases' `SearchCasesResponseItem` is a case, not
    "the search cases response item" (met in blind play, stop 50)."""
    from compoworld_dsl.importers.common import clean_schema_name as clean, words

    assert clean("ProjectDetailVO") == "Project" and clean("UserBean") == "User"
    assert clean("SearchCasesResponseItem") == "Case" and clean("ListUsersResultItem") == "User"
    assert clean("OrderResponseItem") == "OrderResponseItem"  # no plural it lists: left as it is
    assert words("TaskDetailWorkgroupLevelVO") == "task detail workgroup level vo"
    assert words("HTMLBody") == "html body" and words("TrustAccount") == "trust account" and words("set_at") == "set at"


def test_a_list_that_shows_a_summary_returns_a_view_and_the_get_gives_the_rest(tmp_path):
    """Twilio's pricing countries list `{country, iso_country, url}` of a country whose GET adds
    its prices (D56). The list returned whole rows, so an agent saw prices the API does not list
    and the sampler refused the GET after it ("an earlier result gave its record already"). Now
    the list returns a view of the rows (the shown fields, the key among them), a walk goes from
    the list to the GET, and what the task asks of the country is a field only the GET gives."""
    import json

    from compoworld_dsl.sample.run import Job, run as sample

    summary = obj({"country": s(), "iso_country": s(), "url": s()})
    country = obj({"country": s(), "iso_country": s(), "url": s(), "price_unit": s(enum=["USD", "EUR", "GBP"]), "base_price": s("number"), "carrier": s()})
    doc = spec(
        {
            "/Countries": {"get": {"operationId": "listCountry", "responses": ok(obj({"countries": arr(ref("CountrySummary")), "meta": obj({"next_page_url": s()})}))}},
            "/Countries/{IsoCountry}": {"get": {"operationId": "fetchCountry", "parameters": [pparam("IsoCountry")], "responses": ok(ref("Country"))}},
        },
        {"CountrySummary": summary, "Country": country},
    )
    result, ops, model, wf = run(tmp_path, doc)
    lister, getter = tool(model, "list_country"), tool(model, "fetch_country")
    view = str(lister.result)
    assert view.startswith("list[") and view != f"list[{getter.result}]", view
    text = "".join(result.files.values())
    assert "a summary of each" in text and "return map(" in text, text
    w, st = world_of(model, wf)
    got = w.call(st, lister.qualified, {})
    assert got["success"] and got["data"], got
    rows = table(st, "countries")
    for e in got["data"]:
        assert set(e) == {"country", "iso_country", "url"}, e  # what the API lists, no more
        full = w.call(st, getter.qualified, {"iso_country": e["iso_country"]})
        assert full["success"] and set(full["data"]) > set(e) and full["data"]["country"] == rows[e["iso_country"]]["country"]

    rep = sample(Job(str(wf), 2, 6, 3, max_attempts=120), tmp_path / "t.jsonl")
    assert rep.emitted == 6, rep.rejected.most_common(3)
    through = 0
    for line in (tmp_path / "t.jsonl").read_text().splitlines():
        task = json.loads(line)
        tools = [p["tool"].rsplit(".", 1)[-1] for p in task["reference_plan"]]
        if tools == ["list_country", "fetch_country"]:
            through += 1
            # the answer is of the whole record, a field the list does not show
            assert task["reports"] and all(r["field"] not in ("country", "iso_country", "url") for r in task["reports"] if r.get("field")), task["reports"]
    assert through, "no walk went from the list to the GET"


def test_an_answered_list_of_summaries_returns_their_view_of_the_rows(tmp_path):
    """AWS lists answer summaries by association (`world_model._summarised`): the rows the seeded
    answers name. Where the summary shows some of the record's properties (`{Name, Domain,
    State}` of an app monitor that also has a log group), the list returns that view of each row
    (D56), not the whole row the API does not list."""
    result, ops, model, wf = run(tmp_path, monitors_spec({"Name": s(), "Domain": s(), "State": STATE}))
    assert ops["POST /appmonitors"][0] == "answered"
    lister = tool(model, "list_app_monitors")
    assert str(lister.result) == "list[AppMonitorSummary]", lister.result
    assert "record AppMonitor known by domain" in "".join(result.files.values())
    w, st = world_of(model, wf)
    got = w.call(st, lister.qualified, {})
    assert got["success"] and got["data"], got
    monitors = table(st, "appmonitors")
    for e in got["data"]:
        assert set(e) == {"name", "domain", "state"} and monitors[e["name"]]["domain"] == e["domain"], e


STATE = s(enum=["CREATED", "DELETING", "ACTIVE"])


def monitors_spec(shown: dict) -> dict:
    monitor = obj({"Name": s(), "Domain": s(), "State": STATE, "LogGroup": s()})
    return spec(
        {
            "/appmonitor/{Name}": {
                "get": {"operationId": "GetAppMonitor", "parameters": [pparam("Name")], "responses": ok(obj({"AppMonitor": ref("AppMonitor")}))},
                "delete": {"operationId": "DeleteAppMonitor", "parameters": [pparam("Name")], "responses": ok(obj({}))},
                "patch": {"operationId": "UpdateAppMonitor", "parameters": [pparam("Name")], "requestBody": body(obj({"LogGroup": s()})), "responses": ok(obj({}))},
            },
            "/appmonitor": {"post": {"operationId": "CreateAppMonitor", "requestBody": body(obj({"Name": s(), "Domain": s()})), "responses": ok(obj({"Id": s()}))}},
            "/appmonitors": {"post": {"operationId": "ListAppMonitors", "responses": ok(obj({"AppMonitorSummaries": arr(ref("AppMonitorSummary"))}))}},
        },
        {"AppMonitor": monitor, "AppMonitorSummary": obj(shown)},
    )


def test_a_row_a_summary_does_not_describe_is_looked_up_one_by_one(tmp_path):
    """A summary that shows nothing a monitor is known by (`{Name, State}`: a state names no
    monitor; CloudWatch RUM's) still returns its view (D56): the task names the monitor by its
    domain, and the agent lists the monitors and looks them up to find it. The task's
    `lookups` hold that look-up (the GET of the monitor before the first call that takes its
    key), the reference plan with its lookups earns 1 through the Episode API, and it counts in
    the task's real calls. Before, such lists kept whole rows, or lost their specs' tasks."""
    from compoworld_dsl.taskfile import agent_plan
    from test_scripted_agents import play

    result, _, model, wf = run(tmp_path, monitors_spec({"Name": s(), "State": STATE}))
    assert str(tool(model, "list_app_monitors").result) == "list[AppMonitorSummary]"
    assert "record AppMonitor known by domain" in "".join(result.files.values())
    world, tasks = sample_tasks(wf, tmp_path, 2, 8, 5, 200)
    looked = 0
    for task in tasks:
        plan = task["reference_plan"]
        if not plan[0]["tool"].endswith("list_app_monitors") or "domain" not in task["found_by"][0]:
            continue
        gets = [x for x in task.get("lookups") or [] if x["tool"].endswith("get_app_monitor")]
        assert gets and gets[0]["before"] == 2, task
        assert task["difficulty"]["real_calls"] == len(plan) + len(task["lookups"])
        looked += 1
        score, _ = play(world, task, [(c["tool"], c["arguments"]) for _, c in agent_plan(task)], task.get("answer"))
        assert score["reward"] == 1, task["instruction"]
    assert looked, "no task found a monitor by its domain"


def test_a_bare_key_after_another_collections_word_is_not_that_resources(tmp_path):
    """Reverb (a fresh draw, stop 71): listings go by `{slug}`, and `POST
    /my/follows/brands/{slug}` was recorded on a listing: "For the new listing, follow a brand".
    A bare `{slug}` after another collection's word names a row of that collection, not a
    listing; under `/listings/` it is a listing's."""
    listing = obj({"slug": s(), "title": s()})
    slug = pparam("slug")
    doc = spec(
        {
            "/listings": {"get": {"operationId": "listListings", "responses": ok(arr(ref("Listing")))}},
            "/listings/{slug}": {"get": {"operationId": "getListing", "parameters": [slug], "responses": ok(ref("Listing"))}},
            "/listings/{slug}/flag": {"post": {"operationId": "flagListing", "parameters": [slug], "responses": ok()}},
            "/my/follows/brands/{slug}": {"post": {"operationId": "followBrand", "parameters": [slug], "responses": ok()}},
        },
        {"Listing": listing},
    )
    result, _, model, _ = run(tmp_path, doc)
    params = lambda name: {n: str(t) for n, t in tool(model, name).params}  # noqa: E731
    assert params("flag_listing") == {"slug": "ListingId"}
    assert params("follow_brand") == {"slug": "text"}, params("follow_brand")
