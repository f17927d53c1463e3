"""`worldc import openapi`: the values a spec shows for a field outside its `example` (issue 30,
stop 66). Each rule was met in a task of a fresh corpus draw (`random.Random(7272)`): SportsData's
players on team "Harbor team" in season "season 40" (its specs say "Examples: MIA, PHI" and
"2015, 2016"), Azure registry digests "digest 18" (its parameters show "sha256:..." in an
`examples` map), manifests listed "with last "last 11" and image size 48" (a page's place and
size), a sync agent named "Kenji Lindqvist", routes to "48 Market Road" on port 45, "the point
with the find places "Summit find places"", hourly air quality known by the latitude asked for."""

from __future__ import annotations

import re

import pytest

from compoworld_dsl.importers import common, schema
from import_specs import arr, body, ok, pparam, ref, run, s, spec
from test_import_values import seed_line


@pytest.mark.parametrize(
    "description, values",
    [
        ("The abbreviation of the requested team.\n<br>Examples: <code>MIA</code>, <code>PHI</code>.", ["MIA", "PHI"]),
        ("Year of the season (with optional season type).<br>Examples: <code>2018</code>, <code>2018PRE</code>, <code>2019</code>, etc.", ["2018", "2018PRE", "2019"]),
        ("Season to get games from. Example <code>2019POST</code>, <code>2020</code>", ["2019POST", "2020"]),
        ("The charge number, e.g. C-00000307.  If you do not set this field, Zuora will generate it.", ["C-00000307"]),
        ("The queue, e.g. `Support-Tier 1`, `Sales`, or `Escalation`.", ["Support-Tier 1", "Sales", "Escalation"]),
        ('A name, for example "analytics data - jan 2011". Default value is an empty string.', ["analytics data - jan 2011"]),
        ("Class, e.g., GROUND, FIRST_CLASS, etc.", ["GROUND", "FIRST_CLASS"]),
        # what is no list of values: a sentence that goes on, words that are no code, a template
        ("A mask. For example, to update the left margin, set `fields` to `margin_left`.", []),
        ("A role, e.g. Data Steward.", []),
        ("The topic, e.g. `projects/PROJECT_ID/topics/TOPIC_ID`. The topic must exist.", []),
        ('The zip code: values: `"94108"`, `"9410*"`.', []),
        ("See the example below.", []),
        ('Name (e.g. "foo") is used for the display.', ["foo"]),
    ],
)
def test_the_values_a_description_shows(description, values):
    assert schema.said_examples(description) == values


def _players_spec(team_said: str) -> dict:
    team = {"name": "team", "in": "path", "required": True, "description": team_said, "schema": {"type": "string"}}
    season = {"name": "season", "in": "path", "required": True, "description": "Year of the season.\n<br>Examples: <code>2015</code>, <code>2016</code>.", "schema": {"type": "string"}}
    player = {"PlayerID": s("integer"), "FirstName": s(), "LastName": s(), "Team": s(), "Position": s()}
    stats = {"StatID": s("integer"), "PlayerID": s("integer"), "Points": s("number"), "Rebounds": s("number")}
    return spec(
        {
            "/Players": {"get": {"operationId": "Players", "responses": ok(arr(ref("Player")))}},
            "/Player/{playerid}": {"get": {"operationId": "Player", "parameters": [pparam("playerid")], "responses": ok(ref("Player"))}},
            "/Players/{team}": {"get": {"operationId": "PlayersByTeam", "parameters": [team], "responses": ok(arr(ref("Player")))}},
            "/PlayerSeasonStatsByPlayer/{season}/{playerid}": {"get": {"operationId": "PlayerSeasonStatsByPlayer", "parameters": [season, pparam("playerid")], "responses": ok(ref("PlayerSeason"))}},
        },
        {"Player": {"type": "object", "properties": player}, "PlayerSeason": {"type": "object", "properties": stats}},
    )


def test_a_row_holds_the_values_a_parameter_it_is_compared_with_shows(tmp_path):
    """SportsData's `GET /Players/{team}` says a team is "The abbreviation of the requested team.
    Examples: MIA, PHI": the players' teams are those, not "Harbor team", so a task's team is one
    an agent would send. A read answered from the world model keeps its argument's examples too:
    the season stats answer for seasons "2015" and "2016", not "season 40"."""
    result, ops, _, _ = run(tmp_path, _players_spec("The abbreviation of the requested team.\n<br>Examples: <code>MIA</code>, <code>PHI</code>."))
    world = result.files[next(n for n in result.files if n != result.world_file and n.endswith(".world"))]
    assert seed_line(world, "players", "team") == 'pick(["MIA", "PHI"])'
    answers = next(m.group(1) for m in re.finditer(r"seed (\w+): ", world) if "season" in m.group(1))
    assert seed_line(world, answers, "season") == 'pick(["2015", "2016"])'


def test_a_parameter_that_shows_no_values_leaves_the_row_to_its_name(tmp_path):
    result, _, _, _ = run(tmp_path, _players_spec("The abbreviation of the requested team."))
    world = result.files[next(n for n in result.files if n != result.world_file and n.endswith(".world"))]
    assert "MIA" not in seed_line(world, "players", "team")


def test_a_parameters_examples_map_shows_what_a_field_of_its_name_holds(tmp_path):
    """Azure's registry shows a blob's `digest` only in its parameter's `examples` map
    ("sha256:16463e0c..."): the manifests' digests were "digest 18". Now they are digests of that
    shape, one a row (not the one example for every row); a `name` parameter's example names one
    thing and seeds no other table's names."""
    digest = "sha256:16463e0c481e161aabb735437d30b3c9c7391c2747cc564bb927e843b73dcb39"
    dparam = {"name": "digest", "in": "path", "required": True, "schema": {"type": "string"}, "examples": {"Delete a blob": {"value": digest}, "Get a blob": {"value": digest}}}
    nparam = {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}, "examples": {"Get": {"value": "nanoserver"}}}
    doc = spec(
        {
            "/manifests": {"get": {"operationId": "ListManifests", "responses": ok(arr(ref("Manifest")))}},
            "/manifests/{manifestId}": {"get": {"operationId": "GetManifest", "parameters": [pparam("manifestId")], "responses": ok(ref("Manifest"))}},
            "/v2/{name}/blobs/{digest}": {"delete": {"operationId": "DeleteBlob", "parameters": [nparam, dparam], "responses": {"202": {"description": "ok"}}}},
        },
        {"Manifest": {"type": "object", "properties": {"manifestId": s(), "name": s(), "digest": s(), "architecture": s()}}},
    )
    result, _, _, _ = run(tmp_path, doc)
    world = result.files[next(n for n in result.files if n != result.world_file and n.endswith(".world"))]
    seeded = seed_line(world, "manifests", "digest")
    drawn = re.findall(r'"(sha256:[0-9a-f]{64})"', seeded)
    assert drawn[0] == digest and len(set(drawn)) >= 4, seeded
    assert "nanoserver" not in seed_line(world, "manifests", "name")


def test_a_hash_has_others_of_its_shape():
    got = common.variants("sha256:16463e0c481e161aabb735437d30b3c9c7391c2747cc564bb927e843b73dcb39")
    assert len(set(got)) == len(got) >= 4 and all(re.fullmatch(r"sha256:[0-9a-f]{64}", v) for v in got)
    assert all(re.fullmatch(r"[0-9A-F]{32}", v) for v in common.variants("D41D8CD98F00B204E9800998ECF8427E"))


def test_a_processor_architecture_is_no_code_to_number_anew():
    """openSUSE's build hosts ran on "x86_58", the example `x86_64` drawn as a code (a fresh
    draw, stop 72): an architecture's digits are its name."""
    assert common.variants("x86_64") == [] and common.variants("aarch64") == [] and common.variants("i586") == []
    assert len(common.variants("CUST001")) == common.VARIANTS


def test_a_query_parameter_said_to_page_is_no_argument(tmp_path):
    """Azure's registry pages its manifests with `n` ("query parameter for max number of items")
    and `last` ("the last item in previous query"): a task listed them "with last "last 11" and
    image size 48". A filter whose description mentions items of something else stays one."""
    params = [
        {"name": "n", "in": "query", "description": "query parameter for max number of items", "schema": {"type": "integer"}},
        {"name": "last", "in": "query", "description": "Query parameter for the last item in previous query. Result set will include values lexically after last.", "schema": {"type": "string"}},
        {"name": "architecture", "in": "query", "description": "The maximum number of items in the order of architectures", "schema": {"type": "string"}},
    ]
    doc = spec(
        {
            "/manifests": {"get": {"operationId": "ListManifests", "parameters": params, "responses": ok(arr(ref("Manifest")))}},
            "/manifests/{manifestId}": {"get": {"operationId": "GetManifest", "parameters": [pparam("manifestId")], "responses": ok(ref("Manifest"))}},
        },
        {"Manifest": {"type": "object", "properties": {"manifestId": s(), "last": s(), "n": s("integer"), "architecture": s()}}},
    )
    _, _, model, _ = run(tmp_path, doc)
    args = {t.name: [n for n, _ in t.params] for t in model.tools()}["list_manifests"]
    assert args == ["architecture"], args


def test_software_agents_are_no_people():
    """Azure SQL's sync agents were named "Kenji Lindqvist"; a support agent is a person."""
    assert not common.person_noun("sync agent") and not common.person_noun("device driver")
    assert common.person_noun("agent") and common.person_noun("support agent") and common.person_noun("customer")
    assert "Kenji" not in common.text_seed("sync_agent_name", "sync agent") and "sync agent" in common.text_seed("sync_agent_name", "sync agent")
    assert "Kenji" in common.text_seed("agent_name", "ticket")


def test_a_name_names_the_thing_its_last_word_is():
    """SES's contact lists were named "Priya Tanaka": `contact_list_name` has a person's word in
    it, but it names a list. A contact's, an owner's, a user's display or a sender's full name
    are still people's."""
    assert "Kenji" not in common.text_seed("contact_list_name", "contact list") and "contact list" in common.text_seed("contact_list_name", "contact list")
    assert "Kenji" not in common.text_seed("customer_group_name", "customer group")
    for name in ("contact_name", "owner_name", "user_display_name", "sender_full_name"):
        assert "Kenji" in common.text_seed(name, "ticket"), name


def test_an_address_a_port_goes_with_is_a_network_address(tmp_path):
    """Datastream's routes went to "48 Market Road" on port 45."""
    assert common.beside_port("destination_address", ["display_name", "destination_address", "destination_port"])
    assert common.beside_port("address", ["address", "port"])
    assert not common.beside_port("destination_address", ["destination_address", "carrier"])
    route = {"routeId": s(), "displayName": s(), "destinationAddress": s(), "destinationPort": s("integer")}
    doc = spec(
        {
            "/routes": {"get": {"operationId": "ListRoutes", "responses": ok(arr(ref("Route")))}},
            "/routes/{routeId}": {"get": {"operationId": "GetRoute", "parameters": [pparam("routeId")], "responses": ok(ref("Route"))}},
        },
        {"Route": {"type": "object", "properties": route}},
    )
    result, _, _, _ = run(tmp_path, doc)
    world = result.files[next(n for n in result.files if n != result.world_file and n.endswith(".world"))]
    addresses = re.findall(r'"([^"]+)"', seed_line(world, "routes", "destination_address"))
    assert addresses and all(re.fullmatch(r"\d+\.\d+\.\d+\.\d+", a) for a in addresses), addresses
    assert "443" in seed_line(world, "routes", "destination_port")


def test_a_search_named_answer_is_the_things_found():
    """Meteosource's `FindPlaces` at `/find_places`: "the point with the find places "Summit find
    places"". A place found by its name is a city."""
    assert common.clean_schema_name("FindPlaces") == "Place" and common.clean_schema_name("SearchUsers") == "User"
    assert common.clean_schema_name("SearchResults") == "SearchResults" and common.clean_schema_name("LookupTable") == "LookupTable"
    assert "Lagos" in common.text_seed("name", "place") and "Atlas place" not in common.text_seed("name", "place")


def test_answers_are_known_by_what_they_hold_not_by_the_arguments_asked(tmp_path):
    """Meteosource's hourly air quality, answered for a latitude and a longitude, was known by the
    latitude asked ("the air quality point hourly data "48.8566"", every row of one call the same);
    it is known by its own hour."""
    hourly = {"date": s(format="date-time"), "aerosol": s("number"), "pm25": s("number")}
    lat = {"name": "lat", "in": "query", "required": True, "schema": {"type": "string"}}
    lon = {"name": "lon", "in": "query", "required": True, "schema": {"type": "string"}}
    doc = spec({"/air_quality": {"get": {"operationId": "AirQuality", "parameters": [lat, lon], "responses": ok({"type": "object", "properties": {"hourly": {"type": "object", "properties": {"data": arr(ref("Hourly"))}}}})}}}, {"Hourly": {"type": "object", "properties": hourly}})
    result, _, _, _ = run(tmp_path, doc)
    world = result.files[next(n for n in result.files if n != result.world_file and n.endswith(".world"))]
    known = re.findall(r"record \w+ (?:\"[^\"]*\" )?known by (\w+)", world)
    assert known and "lat" not in known and "lon" not in known, known


def test_a_name_said_to_be_a_persons_is_a_persons():
    """Appwrite's membership `name`, "Name of the new team member", was "Beacon membership"."""
    said = common.said_as_kind("name", "Name of the new team member. Max length: 128 chars.")
    assert said == "member_name" and "Kenji" in common.text_seed(said, "membership")
    assert common.said_as_kind("name", "Name of the project") == "name"
    assert common.said_as_kind("name", "The name of the sync agent") == "name"


def test_a_summarys_words_read_as_a_sentence():
    """Google's "Updates a `Registration`'s contact settings" was said "update a registration 's
    contact settings"; Chime's "Stops transcription for the specified meetingId" "stop
    transcription for the specified meeting id for meeting ..."."""
    from compoworld_dsl.importers import speak

    assert common.one_line("Updates a `Registration`'s contact settings.") == "Updates a Registration's contact settings"
    assert speak.summary_phrase("Stops transcription for the specified meetingId.") == ("stop transcription for the specified meeting", False)
    assert speak.summary_phrase("Gets the report id of a job") == ("get the report id of a job", True)


def test_tools_only_their_method_tells_apart_say_what_it_does(tmp_path):
    """BBC's PUT and GET of a favourite share the summary "Favourite Track or Clip": a task said
    "favourite track or clip (put) for ...". The method's work goes before the phrase."""
    favourite = {"summary": "Favourite Track or Clip", "parameters": [pparam("type"), pparam("id")]}
    doc = spec(
        {
            "/favourites/{type}/{id}": {
                "put": {**favourite, "responses": {"204": {"description": "ok"}}},
                "get": {**favourite, "responses": ok({"type": "object", "properties": {"favourited": s("boolean")}})},
                "delete": {**favourite, "responses": {"204": {"description": "ok"}}},
            }
        }
    )
    _, _, model, _ = run(tmp_path, doc)
    says = sorted(t.decl.say for t in model.tools() if "favourite" in (t.decl.say or ""))
    assert not any("(put)" in x or "(get)" in x or "(delete)" in x for x in says), says
    assert any(x.startswith("set favourite track or clip") for x in says) and any(x.startswith("remove favourite track or clip") for x in says), says


WORLD_WITH_JSON_ONLY = """\
type ShowId = id
type EpisodeId = id

service shows "Followed shows" {
  record Follow {
    key id: ShowId
    embedded: text = ""
  }
  record Episode known by title {
    key id: EpisodeId
    show: ShowId
    title: text
  }
  state follows: table[Follow]
  state episodes: table[Episode]
  seed follows: 4 rows {
    embedded: "{}"
  }
  seed episodes: 8 rows {
    show: ref follows
    title: pick(["Pilot", "Finale", "Reunion", "Homecoming"])
  }
  tool list_follows() -> list[Follow] {
    return filter(f in follows)
  }
}
"""


def test_a_field_every_row_holds_alike_names_no_row(tmp_path):
    """TVmaze's followed shows have no `known by` and one text, a JSON object every row holds as
    "{}": a task said "the show follow "{}"". A record with no `known by` is known by its first
    text field, but not by one its seed gives every row alike."""
    from compoworld_dsl.check import check_paths
    from compoworld_dsl.codegen.python import load_world
    from compoworld_dsl.sample.people import People

    path = tmp_path / "shows.world"
    path.write_text(WORLD_WITH_JSON_ONLY)
    program = check_paths([path])
    assert program.ok, [d.message for d in program.diagnostics]
    people = People(program.model, load_world(program.model, str(path)))
    assert people.known_by["shows.follows"] == ()
    assert people.known_by["shows.episodes"] == ("title",)


def test_a_dns_name_is_a_hosts():
    """An FSx file system, known by its `DNSName`, was "Beacon dns"."""
    assert "file-system-1.northwind.example" in common.text_seed("dns_name", "file system")
    assert common.text_seed("domain_name", "registration", identity=True) == 'format("atlas-{}.example", 1..999)'
    assert "northwind.example" in common.text_seed("domain_name", "registration")
    assert "Atlas server" in common.text_seed("server_name", "database")


def _field(name, base="text", src=None, **kw):
    return common.FieldIR(name, base if base != "enum" else "Action", base, src=src or name, **kw)


def test_a_row_with_no_name_is_not_known_by_a_sentence_or_another_objects_name():
    """A CloudFormation stack set operation was 'the stack set operation "Draft attached; comments
    welcome."', its `status_reason`; an FSx backup 'the backup "Atlas directory information
    domain"', the domain of the directory it holds. The first is known by its action, the
    second by the file system it belongs to."""
    from compoworld_dsl.importers import speak

    operation = [_field("operation_id", "id", key=True), _field("status_reason"), _field("action", "enum"), _field("creation_timestamp", "datetime")]
    assert speak.identity(operation, ("name", "title"), "stack set operation") == ["action"]
    # nor by the name of another thing it holds (the role it ran as, stop 67)
    operation.insert(1, _field("execution_role_name"))
    assert speak.identity(operation, ("name", "title"), "stack set operation") == ["action"]
    backup = [
        _field("backup_id", "id", key=True),
        _field("directory_information_domain_name", src="DirectoryInformation.DomainName"),
        _field("file_system_id", "id", ref="f_sx_file_systems.file_systems"),
        _field("creation_time", "datetime"),
    ]
    assert speak.identity(backup, ("name", "title"), "backup") == ["file_system_id", "creation_time"]


def test_a_range_whose_ends_say_inclusive_and_exclusive_is_a_range():
    """QLDB's journal stream: `inclusive_start_time` a month after `exclusive_end_time`."""
    got = common._range_pairs({"inclusive_start_time": "datetime", "exclusive_end_time": "datetime"})
    assert got == [("inclusive_start_time", "exclusive_end_time")]
    assert common._range_pairs({"start_date": "date", "end_date": "date"}) == [("start_date", "end_date")]


def test_a_country_found_by_name_is_a_country():
    """openfintech's headquarters country was "Maple country"."""
    assert "Nigeria" in common.text_seed("name", "hq in country") and "Maple country" not in common.text_seed("name", "hq in country")


def test_a_country_is_one_country_in_every_field(tmp_path):
    """openfintech's country "Nigeria" had capital "Kyiv" and alpha-3 code "UKR" (blind round 42):
    drawn field by field. A row with place fields is one place, and its capital, three-letter
    code, currency and time zone follow that place."""
    country = {"id": s(), "name": s(), "capital": s(), "alpha3Code": s(), "currency": s(), "timezone": s()}
    doc = spec(
        {
            "/countries": {"get": {"operationId": "ListCountries", "responses": ok(arr(ref("Country")))}},
            "/countries/{id}": {"get": {"operationId": "GetCountry", "parameters": [pparam("id")], "responses": ok(ref("Country"))}},
        },
        {"Country": {"type": "object", "properties": country}},
    )
    result, _, model, world_file = run(tmp_path, doc)
    from import_specs import world_of

    _, state = world_of(model, world_file)
    rows = list(next(t for name, t in state.tables.items() if name.endswith("countries")).values())
    facts = {(r["name"], r["capital"], r["alpha3_code"], r["currency"], r["timezone"]) for r in rows}
    known = {("Nigeria", "Abuja", "NGA", "NGN", "Africa/Lagos"), ("United Kingdom", "London", "GBR", "GBP", "Europe/London"), ("Canada", "Ottawa", "CAN", "CAD", "America/Toronto"), ("Germany", "Berlin", "DEU", "EUR", "Europe/Berlin"), ("Japan", "Tokyo", "JPN", "JPY", "Asia/Tokyo"), ("Portugal", "Lisbon", "PRT", "EUR", "Europe/Lisbon"), ("United States", "Washington", "USA", "USD", "America/Chicago"), ("Australia", "Canberra", "AUS", "AUD", "Australia/Melbourne")}
    assert rows and facts <= known, facts


def test_a_posted_reads_rendering_and_jsonp_callback_are_no_arguments(tmp_path):
    """EPA's ECHO services post `output` ("Output Format Flag", JSONP, JSON or XML) and
    `callback` ("JSONP Callback") in a form body beside the facility's `p_id`: tasks asked for
    "callback "callback 12"". A `callback` that is a webhook's URL stays an argument."""
    form = {
        "type": "object",
        "properties": {
            "output": {"type": "string", "enum": ["JSONP", "JSON", "XML"], "description": "Output Format Flag. Enter one of the following keywords."},
            "p_id": {"type": "string", "description": "The facility identifier."},
            "callback": {"type": "string", "description": "JSONP Callback. Enter a name of the function in which to wrap the JSON response."},
        },
    }
    hook = {"type": "object", "properties": {"url": s(), "callback": {"type": "string", "description": "The URL we call when the job is done."}}}
    report = {"type": "object", "properties": {"Results": {"type": "object", "properties": {"Message": s(), "Quarters": s("integer")}}}}
    doc = spec(
        {
            "/dfr_rest_services.get_air_compliance": {"post": {"operationId": "getAirCompliance", "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": form}}}, "responses": ok(report)}},
            "/hooks": {"post": {"operationId": "createHook", "requestBody": body(hook), "responses": ok(report)}},
        }
    )
    _, _, model, _ = run(tmp_path, doc)
    args = {t.name: [n for n, _ in t.params] for t in model.tools()}
    assert args["get_air_compliance"] == ["p_id"], args
    assert "callback" in args["create_hook"], args


def test_an_answers_copy_of_a_referenced_row_holds_that_rows_values(tmp_path):
    """Lake Formation's effective permissions, answered from the world model, name an LF-tag by
    its key inside `Resource.LFTag {TagKey, CatalogId}`: the catalog was drawn apart from the
    tag's own, and a blind player could not tell which catalog to change (round 42). It is the
    tag's, as a resource's table has it (`copied_from_refs`)."""
    tag = {"TagKey": s(), "CatalogId": s(), "TagValues": s()}
    permission = {"Principal": s(), "Permission": s(), "Resource": {"type": "object", "properties": {"LFTag": {"type": "object", "properties": {"TagKey": s(), "CatalogId": s()}}}}}
    doc = spec(
        {
            "/lf_tags": {"get": {"operationId": "ListLFTags", "responses": ok(obj_of({"LFTags": arr(ref("LFTag"))}))}},
            "/lf_tags/{TagKey}": {"get": {"operationId": "GetLFTag", "parameters": [pparam("TagKey")], "responses": ok(ref("LFTag"))}},
            "/effective_permissions": {"get": {"operationId": "GetEffectivePermissionsForPath", "parameters": [{"name": "ResourceArn", "in": "query", "required": True, "schema": {"type": "string"}}], "responses": ok(obj_of({"Permissions": arr(ref("Permission"))}))}},
        },
        {"LFTag": {"type": "object", "properties": tag}, "Permission": {"type": "object", "properties": permission}},
    )
    result, _, _, _ = run(tmp_path, doc)
    world = result.files[next(n for n in result.files if n != result.world_file and n.endswith(".world"))]
    answers = next(m.group(1) for m in re.finditer(r"seed (\w+_answers): ", world))
    assert seed_line(world, answers, "resource_lf_tag_tag_key").startswith("ref "), world
    assert seed_line(world, answers, "resource_lf_tag_catalog_id") == "same(resource_lf_tag_tag_key.catalog_id)"


def obj_of(props: dict) -> dict:
    return {"type": "object", "properties": props}


def test_a_bodys_copy_of_the_paths_key_is_said_once(tmp_path):
    """VTEX's `PUT /products/{productId}/description {productId, description}`: the task asked
    for the product and then "product id "to 2 40"" again."""
    desc = {"type": "object", "properties": {"productId": s(), "description": s()}, "required": ["productId", "description"]}
    doc = spec(
        {
            "/products": {"get": {"operationId": "ListProducts", "responses": ok(arr(ref("Product")))}},
            "/products/{productId}": {"get": {"operationId": "GetProduct", "parameters": [pparam("productId")], "responses": ok(ref("Product"))}},
            "/products/{productId}/description": {"put": {"operationId": "PutProductDescription", "parameters": [pparam("productId")], "requestBody": body(desc), "responses": {"204": {"description": "ok"}}}},
        },
        {"Product": {"type": "object", "properties": {"productId": s(), "name": s()}}},
    )
    _, _, model, _ = run(tmp_path, doc)
    args = {t.name: [n for n, _ in t.params] for t in model.tools()}["put_product_description"]
    assert args == ["product_id", "description"], args


def test_a_placeholder_the_spec_shows_is_no_value():
    """Azure Compute's response examples spell ids `/subscriptions/{subscription-id}/...`: every
    row's subscription was "{subscription-id}" (a fresh draw, stop 67). A value that only names
    what goes there is no example; a value with braces inside it still is one."""
    assert "subscription" not in common.text_seed("subscription_id", "virtual machine", ["{subscription-id}", "{subscriptionId}"])
    assert "<" not in common.text_seed("vault_name", "secret", "<vault name>")
    assert "${TOKEN}" not in common.text_seed("api_token", "client", "${TOKEN}")
    assert '"a {b} c"' in common.text_seed("note", "ticket", ["a {b} c", "d"])


def test_an_example_that_only_names_its_field_is_no_value():
    """noosh shows `"example": "sample status_reason"` for 69 fields: a task asked about 'the task
    detail workgroup level "sample schedule_code"' of 'the workgroup "sample workgroup_name"' (a
    fresh draw, stop 67). Such an example, or one that is the field's whole name, is no value;
    a real one is kept."""
    assert common.names_its_field("sample status_reason", ["status", "reason"])
    assert common.names_its_field("sample first_name", ["owner", "first", "name"])
    assert common.names_its_field("workgroup_name", ["workgroup", "name"])
    assert not common.names_its_field("USD", ["currency"])
    assert not common.names_its_field("Sample Court", ["venue", "name"])
    for field, noun in (("schedule_code", "task"), ("workgroup_name", "workgroup"), ("comments", "task")):
        assert "sample" not in common.text_seed(field, noun, f"sample {field}"), field
    assert '"Acme print"' in common.text_seed("workgroup_name", "workgroup", "Acme print")
