"""Collections a spec places apart, read as a person would (issue 30, D63): a collection served
at the root of its server URL, one listed as bare keys, a list elsewhere of the same objects, a
format glued to a segment, a search page with notes beside its rows, path words of state and of
verbs; and the report that would echo an earlier step's argument. Each test is a spec shape a
corpus spec had."""

from __future__ import annotations

from compoworld_dsl.importers.ops import root_collection, under_root
from import_specs import arr, body, obj, ok, pparam, ref, run, s, spec


def airports(url: str | None, swagger_base: bool = False) -> dict:
    """Transavia's airports: served at `.../v2/airports`, listed by `GET /`, read by `GET /{id}`."""
    place = {"city": s(), "country": obj({"code": s(), "name": s()}), "geoCoordinates": obj({"latitude": s("number"), "longitude": s("number")}), "id": s(), "name": s()}
    airport = obj(place | {"self": obj({"href": s()})})
    details = obj(place | {"inboundRoutes": obj({"href": s()}), "outboundRoutes": obj({"href": s()})})
    doc = spec(
        {
            "/": {"get": {"operationId": "listAirports", "responses": ok(arr(ref("Airport")))}, "post": {"operationId": "addAirport", "requestBody": body(obj({"name": s(), "city": s()}, ["name"])), "responses": ok(ref("AirportDetails"))}},
            "/countrycode/{countryCode}": {"get": {"operationId": "byCountry", "parameters": [pparam("countryCode")], "responses": ok(arr(ref("Airport")))}},
            "/{id}": {
                "get": {"operationId": "getAirport", "parameters": [pparam("id")], "responses": ok(ref("AirportDetails"))},
                "delete": {"operationId": "deleteAirport", "parameters": [pparam("id")], "responses": {"204": {"description": "gone"}}},
            },
            "/nearest": {"get": {"operationId": "nearest", "responses": ok(arr(obj({"id": s(), "name": s(), "distanceInKm": s("number")})))}},
        },
        {"Airport": airport, "AirportDetails": details},
    )
    if url is not None:
        doc["servers"] = [{"url": url}]
    if swagger_base:
        doc.pop("servers", None)
        doc["basePath"] = url
    return doc


def test_a_collection_served_at_the_root_of_its_server_url_is_a_table(tmp_path):
    result, ops, model, _ = run(tmp_path, airports("https://api.transavia.com/v2/airports"))
    assert ops["GET /"][0] == "list" and ops["GET /{id}"][0] == "get" and ops["DELETE /{id}"][0] == "delete" and ops["POST /"][0] == "create"
    assert any("airports" in svc.state for svc in model.services.values())
    # a path with a word of its own keeps it
    assert ops["GET /nearest"][0] != "get"
    # a list elsewhere that shows what the airports' own list shows (`Airport`, where a get
    # shows `AirportDetails`) lists airports, here those of one country
    assert ops["GET /countrycode/{countryCode}"][0] == "list"
    by_country = next(t for t in model.tools() if t.name == "by_country")
    assert str(dict(by_country.params)["country_code"]) == "text" and str(by_country.result).startswith("list[")


def test_without_a_word_in_the_server_url_the_root_names_no_collection(tmp_path):
    # the reading before: `GET /` and `/{id}` had no collection word, so no table held airports
    _, ops, _, _ = run(tmp_path, airports("https://api.transavia.com/v2"))
    assert ops["GET /{id}"][0] not in ("get", "list", "delete")


def test_the_root_word_is_read_from_swagger_base_path_and_relative_urls():
    assert root_collection(airports("/v1/applications", swagger_base=True)) == "applications"
    assert root_collection(airports("/story")) == "story"
    for url in ("https://example.com/api", "https://example.com/v3", "https://example.com", "/rest/"):
        assert root_collection(airports(url)) is None, url


def test_paths_that_merely_start_with_a_parameter_keep_their_own_words():
    # sportsdata's `/{format}/Players` under `.../v3/nba/stats`: no `/` or `/{x}` path, so the
    # server's last word (`stats`) is no collection
    doc = spec({"/{format}/Players": {"get": {"operationId": "players", "parameters": [pparam("format")], "responses": ok(arr(obj({"PlayerID": s("integer")})))}}})
    doc["servers"] = [{"url": "https://api.sportsdata.io/v3/nba/stats"}]
    assert root_collection(doc) is None
    assert under_root(["{id}", "sessions"], "story") == ["story", "{id}", "sessions"]
    assert under_root(["nearest"], "airports") == ["nearest"]
    assert under_root([], "airports") == ["airports"]


def config_sets(listed: dict) -> dict:
    """AWS Pinpoint SMS Voice: configuration sets listed as bare names, created by name, deleted
    by name, holding event destinations."""
    name = {"name": "ConfigurationSetName", "in": "path", "required": True, "schema": {"type": "string"}}
    dest = obj({"Name": s(), "Enabled": s("boolean"), "MatchingEventTypes": arr(s(enum=["ANSWERED", "FAILED"]))})
    return spec(
        {
            "/v1/sms-voice/configuration-sets": {
                "get": {"operationId": "ListConfigurationSets", "responses": ok(listed)},
                "post": {"operationId": "CreateConfigurationSet", "requestBody": body(obj({"ConfigurationSetName": s()})), "responses": ok(obj({}))},
            },
            "/v1/sms-voice/configuration-sets/{ConfigurationSetName}": {"delete": {"operationId": "DeleteConfigurationSet", "parameters": [name], "responses": ok(obj({}))}},
            "/v1/sms-voice/configuration-sets/{ConfigurationSetName}/event-destinations": {
                "get": {"operationId": "GetConfigurationSetEventDestinations", "parameters": [name], "responses": ok(obj({"EventDestinations": arr(ref("EventDestination"))}))},
                "post": {"operationId": "CreateConfigurationSetEventDestination", "parameters": [name], "requestBody": body(obj({"EventDestinationName": s(), "EventDestination": ref("EventDestination")})), "responses": ok(obj({}))},
            },
        },
        {"EventDestination": dest},
    )


def test_a_collection_listed_as_bare_keys_is_a_table_of_its_keys(tmp_path):
    _, ops, model, _ = run(tmp_path, config_sets(obj({"ConfigurationSets": arr(s()), "NextToken": s()})))
    assert ops["GET /v1/sms-voice/configuration-sets"][0] == "list"
    assert ops["POST /v1/sms-voice/configuration-sets"][0] == "create"
    assert ops["DELETE /v1/sms-voice/configuration-sets/{ConfigurationSetName}"][0] == "delete"
    # the destinations hang under a set the world holds, not under one made-up scope value
    lst = next(t for t in model.tools() if t.name == "get_configuration_set_event_destinations")
    assert str(dict(lst.params)["configuration_set_name"]) == "ConfigurationSetId"


def test_keys_listed_under_another_name_make_no_table(tmp_path):
    # an array of strings named for something else (`Regions`) lists no configuration set
    _, ops, _, _ = run(tmp_path, config_sets(obj({"Regions": arr(s())})))
    assert ops["GET /v1/sms-voice/configuration-sets"][0] != "list"
    assert ops["DELETE /v1/sms-voice/configuration-sets/{ConfigurationSetName}"][0] != "delete"


def test_a_format_glued_to_a_segment_is_no_part_of_its_name():
    from compoworld_dsl.importers.ops import split_path

    # Buffer's `/profiles{mediaTypeExtension}` was a collection named "profiles{...}", and its
    # `/profiles/{id}/updates/pending{...}` an item keyed by `pending`
    assert split_path("/profiles{mediaTypeExtension}") == ["profiles"]
    assert split_path("/updates/{id}{mediaTypeExtension}") == ["updates", "{id}"]
    assert split_path("/profiles/{id}/updates/pending{mediaTypeExtension}") == ["profiles", "{id}", "updates", "pending"]
    assert split_path("/divisions.{format}") == ["divisions"]
    # a format that is a segment of its own, or two parameters that are not a format, stay
    assert split_path("/v1/{format}/x") == ["v1", "{format}", "x"]
    assert split_path("/x/{a}{b}") == ["x", "{a}{b}"]


def browse(extra: dict) -> dict:
    """eBay Browse: items read by `GET /item/{item_id}`, found by `GET /item_summary/search`,
    whose page holds the summaries beside `warnings` and other page notes."""
    summary = obj({"itemId": s(), "title": s(), "price": s("number")})
    item = obj({"itemId": s(), "title": s(), "price": s("number"), "description": s(), "brand": s()})
    page = obj({"href": s(), "total": s("integer"), "itemSummaries": arr(ref("ItemSummary"))} | extra)
    return spec(
        {
            "/item/{item_id}": {"get": {"operationId": "getItem", "parameters": [pparam("item_id")], "responses": ok(ref("Item"))}},
            "/item_summary/search": {"get": {"operationId": "search", "parameters": [{"name": "q", "in": "query", "schema": s()}], "responses": ok(page)}},
        },
        {"Item": item, "ItemSummary": summary, "Error": obj({"errorId": s("integer"), "message": s()})},
    )


def test_a_search_page_with_notes_beside_its_summaries_lists_the_items(tmp_path):
    _, ops, model, _ = run(tmp_path, browse({"warnings": arr(ref("Error"))}))
    assert ops["GET /item_summary/search"][0] == "list"
    search = next(t for t in model.tools() if t.name == "search")
    assert str(search.result) == "list[ItemSummary]"


def test_two_lists_of_rows_on_one_page_are_not_told_apart_by_name_alone(tmp_path):
    # a second array that is no note (`relatedItems`) leaves the page as it was read before
    _, ops, _, _ = run(tmp_path, browse({"relatedItems": arr(ref("ItemSummary"))}))
    assert ops["GET /item_summary/search"][0] != "list"


def test_path_words_of_state_and_of_verbs_are_read_as_such(tmp_path):
    """Buffer: `/profiles/{id}/updates/pending` lists pending updates (not "pendings"), and
    `POST /profiles/{id}/updates/reorder`, with no operation id or summary, reorders updates (not
    "post updates reorder")."""
    update = {"type": "object", "properties": {"id": s(), "text": s(), "due_at": s("integer")}}
    profile = obj({"id": s(), "service": s(), "formatted_username": s()})
    doc = spec(
        {
            "/profiles": {"get": {"operationId": "listProfiles", "responses": ok(arr(ref("Profile")))}},
            "/profiles/{id}": {"get": {"operationId": "getProfile", "parameters": [pparam("id")], "responses": ok(ref("Profile"))}},
            "/profiles/{id}/updates/pending": {"get": {"parameters": [pparam("id")], "responses": ok(obj({"total": s("integer"), "updates": arr(update)}))}},
            "/profiles/{id}/updates/reorder": {"post": {"description": "Edit the order at which statuses for the specified social media profile will be sent out of the buffer.", "parameters": [pparam("id")], "responses": ok(obj({"success": s("boolean")}))}},
        },
        {"Profile": profile},
    )
    result, ops, model, _ = run(tmp_path, doc)
    pending = next(t for t in model.tools() if t.name.startswith("list_pending"))
    assert str(pending.result) == "list[PendingUpdate]"
    says = [ln.strip() for text in result.files.values() for ln in text.splitlines() if ln.strip().startswith("say ")]
    assert any("pending updates" in x for x in says) and not any("pendings" in x for x in says), says
    assert any(x.startswith('say "reorder updates') for x in says), says


def test_no_report_asks_for_a_value_an_earlier_step_was_given_under_its_name():
    """Transavia: the nearest airport's country code lists the airports of that country, and the
    task asked for "the country code of the airport ... among the airports of the country code of
    ...", which the list was asked for (blind round 33: "the question answers itself").
    `reports` leaves such a field out of the ones it may ask for (`_echoed`)."""
    from types import SimpleNamespace

    from compoworld_dsl.sample.reports import _echoed

    facts = SimpleNamespace(world=SimpleNamespace(types=SimpleNamespace(to_json=lambda t, v: v)), people=SimpleNamespace(fields={"airports": {"country_code": "text", "city": "text"}}))
    plan = [{"tool": "airports.list_nearest", "arguments": {}}, {"tool": "airports.by_country", "arguments": {"country_code": "AU"}}]
    assert _echoed(facts, plan, "airports", "country_code", "AU")
    assert not _echoed(facts, plan, "airports", "country_code", "GB")  # another value
    assert not _echoed(facts, plan, "airports", "city", "AU")  # another name
    assert not _echoed(facts, plan[:1], "airports", "country_code", "AU")  # no step was given it
