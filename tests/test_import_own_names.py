"""`worldc import openapi`: a row's own name is its own (issue 30, stop 67). Azure's App Service
plans (`/serverfarms/{name}`, "Name of the App Service plan.") were known by their hosting
environment's name, 'the resource group serverfarm "Beacon hosting environment profile"', a name
inside an object the plan holds; and each virtual network connection under a plan had its own
`name` taken for the plan's `{name}`, so it was known by its certificate blob."""

from __future__ import annotations

import re

from import_specs import arr, obj, ok, ref, run, s, spec


def _plans_spec() -> dict:
    sub = {"name": "subscriptionId", "in": "path", "required": True, "schema": {"type": "string"}}
    rg = {"name": "resourceGroupName", "in": "path", "required": True, "description": "Name of the resource group to which the resource belongs.", "schema": {"type": "string"}}
    name = {"name": "name", "in": "path", "required": True, "description": "Name of the App Service plan.", "schema": {"type": "string"}}
    vnet = {"name": "vnetName", "in": "path", "required": True, "description": "Name of the Virtual Network.", "schema": {"type": "string"}}
    plan = obj({"id": s(), "name": s(), "location": s(), "kind": s(), "properties": obj({"hostingEnvironmentProfile": obj({"id": s(), "name": s(), "type": s()}), "numberOfSites": s("integer"), "status": s(enum=["Ready", "Pending", "Creating"])})})
    conn = obj({"id": s(), "name": s(), "type": s(), "properties": obj({"certBlob": s(), "certThumbprint": s(), "vnetResourceId": s()})})
    base = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Web/serverfarms"
    return spec(
        {
            base: {"get": {"operationId": "AppServicePlans_ListByResourceGroup", "parameters": [sub, rg], "responses": ok(obj({"value": arr(ref("AppServicePlan"))}))}},
            base + "/{name}": {
                "get": {"operationId": "AppServicePlans_Get", "parameters": [sub, rg, name], "responses": ok(ref("AppServicePlan"))},
                "delete": {"operationId": "AppServicePlans_Delete", "parameters": [sub, rg, name], "responses": {"200": {"description": "ok"}}},
            },
            base + "/{name}/virtualNetworkConnections": {"get": {"operationId": "AppServicePlans_ListVnets", "parameters": [sub, rg, name], "responses": ok(arr(ref("VnetInfo")))}},
            base + "/{name}/virtualNetworkConnections/{vnetName}": {"get": {"operationId": "AppServicePlans_GetVnetFromServerFarm", "parameters": [sub, rg, name, vnet], "responses": ok(ref("VnetInfo"))}},
        },
        {"AppServicePlan": plan, "VnetInfo": conn},
    )


def test_a_row_named_by_its_path_is_known_by_that_name_and_a_childs_name_is_its_own(tmp_path):
    result, _, _, _ = run(tmp_path, _plans_spec())
    text = "\n".join(result.files.values())
    known = dict(re.findall(r"record (\w+) known by ([\w, ]+) \{", text))
    plan = next(k for k in known if "Plan" in k)
    assert known[plan] == "name", known  # the plan's key, the name a person gives it
    conn = next(k for k in known if "Vnet" in k)
    assert known[conn].split(", ")[0] == "name" and "cert" not in known[conn], known
    block = re.search(r"record " + conn + r" known by .*?\n  \}", text, re.S).group(0)
    own = re.search(r"^\s*name: (\w+)", block, re.M).group(1)
    assert own == "text", block  # its own name, not a reference to the plan
    assert re.search(r"^\s*app_service_plan_name: AppServicePlanId = ", block, re.M), block  # the plan it belongs to, a field of its own


def test_a_name_inside_an_object_in_a_wrapper_names_that_object():
    """`properties.hostingEnvironmentProfile.name` is the hosting environment's name, though
    `properties` is a wrapper: the plan is known by something of its own. `properties.title`
    is still the row's own."""
    from compoworld_dsl.importers import common, speak

    def field(name, base="text", src=None, **kw):
        return common.FieldIR(name, base, base, src=src or name, **kw)

    plan = [
        field("id", "id", key=True),
        field("properties_hosting_environment_profile_name", src="properties.hostingEnvironmentProfile.name"),
        field("resource_group_id", "id", ref="rg.resource_groups"),
        field("created", "datetime"),
    ]
    assert speak.identity(plan, ("name", "title"), "serverfarm") == ["resource_group_id"]
    titled = [field("id", "id", key=True), field("properties_title", src="properties.title"), field("created", "datetime")]
    assert speak.identity(titled, ("name", "title"), "campaign") == ["properties_title"]


def test_a_bare_path_names_no_resource():
    """Tag Manager keys its user permissions by `path`, a Google resource name, as it does every
    resource: `POST /tagmanager/v2/{path}:set_latest` (a container version's) was read as on a
    user permission, and a task said "set latest accounts containers versions of the new user
    permission" (a fresh draw, stop 67). A bare `path`, like a bare `name` or `id`, names no
    resource by itself; a telling key (`sku`) still does."""
    from types import SimpleNamespace

    from compoworld_dsl.importers.world_model import row_names

    perms = SimpleNamespace(table="user_permissions", name="UserPermission", coll_segs=["userPermissions"], key_prop="path")
    assert "path" not in row_names(perms) and "userpermissionid" in row_names(perms)
    skus = SimpleNamespace(table="skus", name="Sku", coll_segs=["skus"], key_prop="sku")
    assert "sku" in row_names(skus)


def test_a_row_is_not_known_by_the_arn_of_another_thing():
    """AWS FIS experiments were 'the experiment "arn:...:role/role-26"', by `roleArn`, the role
    the experiment runs as (a fresh draw, stop 67): known by their template and time instead."""
    from compoworld_dsl.importers import common, speak

    def field(name, base="text", **kw):
        return common.FieldIR(name, base, base, src=name, **kw)

    experiment = [field("id", "id", key=True), field("role_arn"), field("experiment_template_id", "id", ref="fis.experiment_templates"), field("start_time", "datetime")]
    assert speak.identity(experiment, ("name", "title"), "experiment") == ["experiment_template_id", "start_time"]
    # its own ARN still names it
    own = [field("id", "id", key=True), field("experiment_arn"), field("start_time", "datetime")]
    assert speak.identity(own, ("name", "title"), "experiment") == ["experiment_arn"]


def test_asanas_opt_parameters_are_plumbing():
    """Asana's `opt_fields` and `opt_pretty` say what the answer holds and how it is printed: a
    task was "marked as opt pretty", "with opt fields "Juniper get tasks answer"" (stop 67)."""
    from compoworld_dsl.importers.ops import plumbing
    from compoworld_dsl.importers.schema import Shape

    def q(name, t="string"):
        from types import SimpleNamespace

        return SimpleNamespace(name=name, where="query", shape=Shape("scalar", type=t), description="")

    assert plumbing(q("opt_fields")) and plumbing(q("opt_pretty", "boolean")) and plumbing(q("pretty", "boolean"))
    assert not plumbing(q("opt_in", "boolean")) and not plumbing(q("option"))


def test_a_schema_named_only_by_the_api_and_a_generic_word_takes_the_paths_noun(tmp_path):
    """Asana answers `GET /webhooks/{webhook_gid}` with an `AsanaNamedResource`: its webhooks
    were "asana nameds", and a task said "update a webhook for that asana named" (a fresh draw,
    stop 67). The Probe API's `ProbeNamedResource` there is a webhook; a telling schema name
    (`Hook`) is still the record's."""
    from import_specs import pparam

    def doc(schema: str) -> dict:
        item = {"get": {"operationId": "getWebhook", "parameters": [pparam("webhook_gid")], "responses": ok(ref(schema))}}
        return spec(
            {"/webhooks": {"get": {"operationId": "getWebhooks", "responses": ok(arr(ref(schema)))}}, "/webhooks/{webhook_gid}": item},
            {schema: obj({"gid": s(), "name": s(), "target": s()})},
        )

    result, _, _, _ = run(tmp_path, doc("ProbeNamedResource"))
    assert re.search(r"record Webhook known by", "\n".join(result.files.values()))
    result, _, _, _ = run(tmp_path, doc("Hook"))
    assert re.search(r"record Hook known by", "\n".join(result.files.values()))


def test_a_field_named_where_after_a_reference_still_parses(tmp_path):
    """Ecwid's object metadata answers hold `objectName` (a reference) and then `where`: the seed
    read `object_name: ref objects` and `where: format(...)` as one ref with a filter, and the
    import wrote a world that did not parse (a fresh draw, stop 67). `where` is a keyword to the
    importer now, renamed as `key` is."""
    from import_specs import pparam

    thing = obj({"id": s(), "objectName": s(), "label": s()})
    answer = obj({"objectName": s(), "where": s(), "version": s()})
    doc = spec(
        {
            "/objects": {"get": {"operationId": "getObjects", "responses": ok(arr(ref("Object")))}},
            "/objects/{objectName}": {"get": {"operationId": "getObject", "parameters": [pparam("objectName")], "responses": ok(ref("Object"))}},
            "/objects/{objectName}/docs": {"get": {"operationId": "getObjectDocs", "parameters": [pparam("objectName")], "responses": ok(arr(answer))}},
        },
        {"Object": thing},
    )
    result, _, _, _ = run(tmp_path, doc)  # `run` fails the test where the world does not check
    assert re.search(r"^\s*where_value: ", "\n".join(result.files.values()), re.M)


def test_a_row_with_no_name_is_known_by_no_status_nor_kind_where_more_is_there():
    """Qualtrics' distributions (no name, title or description) were 'the distribution
    "closed"', their `request_status`, one of four values many rows share, and a task asked for
    'the distribution "closed"'. A status or a kind names a row only where nothing else does."""
    from compoworld_dsl.importers import common, speak

    def field(name, base="text"):
        return common.FieldIR(name, base, base, src=name)

    rows = [field("id", "id"), field("request_status"), field("request_type"), field("send_date"), field("owner_id")]
    rows[0].key = True
    assert speak.identity(rows, ("name", "title"), "distribution") == ["send_date"]
    assert speak.identity([rows[0], rows[1], rows[4]], ("name", "title"), "distribution") == ["request_status"]
