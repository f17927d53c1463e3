"""A write that sends a row's fields as query parameters, with no body, creates or updates the
row; a read of one item that answers a page beside paging words reads the page's element."""

from __future__ import annotations


def _qp(name: str, required: bool = False, **schema) -> dict:
    return {"name": name, "in": "query", "required": required, "schema": {"type": "string", **schema}}


def _categories():
    from import_specs import arr, obj, ok, pparam, ref

    category = obj({"id": ref("CategoryId"), "name": {"type": "string"}, "description": {"type": "string"}, "type": {"type": "string", "enum": ["expense", "income"]}})
    fields = [_qp("name", True), _qp("description"), _qp("type", enum=["expense", "income"])]
    paths = {
        "/apps/{appId}/accountcategories/": {
            "parameters": [pparam("appId")],
            "get": {"operationId": "listCategories", "parameters": [{"name": "page", "in": "query", "schema": {"type": "integer"}}], "responses": ok(arr(ref("Category")))},
            "post": {"operationId": "createCategory", "summary": "Create a category", "parameters": fields + [{"name": "page", "in": "query", "schema": {"type": "integer"}}], "responses": ok(ref("Category"))},
        },
        "/apps/{appId}/accountcategories/{id}": {
            "parameters": [pparam("appId"), pparam("id")],
            "get": {"operationId": "getCategory", "responses": ok(ref("Category"))},
            "post": {"operationId": "updateCategory", "summary": "Update a category", "parameters": fields, "responses": ok(ref("Category"))},
        },
    }
    return paths, {"Category": category, "CategoryId": {"type": "string"}}


def test_a_post_that_sends_its_fields_as_query_parameters_creates_and_updates_the_row(tmp_path):
    """Sinao's `POST /apps/{appId}/accountcategories/?name=&description=&type=` (and about 150
    corpus specs write so): with only the body read, the create was a recorded call on the app
    and the update a recorded call on the category, so no task could read what it had made."""
    from import_specs import run, spec

    paths, schemas = _categories()
    result, ops, model, world = run(tmp_path, spec(paths, schemas))
    assert ops["POST /apps/{appId}/accountcategories/"][0] == "create", ops
    assert ops["POST /apps/{appId}/accountcategories/{id}"][0] == "update", ops
    text = "".join(result.files.values())
    create = text.split("tool create_category(", 1)[1].split(")", 1)[0]
    assert "name: text" in create and "type:" in create and "page" not in create, create  # the page size is no field

    # and the tools do what they say: what the create made, the update changes
    from import_specs import world_of

    w, st = world_of(model, world)
    q = {t.name: t.qualified for svc in model.services.values() for t in svc.tools.values()}
    made = w.call(st, q["create_category"], {"app_id": "app-1", "name": "Travel", "type": "expense"})
    assert made["success"], made
    key = made["data"]["id"]
    got = w.call(st, q["update_category"], {"app_id": "app-1", "id": key, "name": "Trips", "type": "expense"})
    assert got["success"], got
    assert w.call(st, q["get_category"], {"app_id": "app-1", "id": key})["data"]["name"] == "Trips"


def test_a_query_write_with_no_field_of_the_row_stays_a_recorded_call(tmp_path):
    """Only parameters that name fields of the row are a create's: Google Books'
    `addVolume?volumeId=&reason=` on a bookshelf sets no field of it, and stays what it was."""
    from import_specs import arr, obj, ok, pparam, run, spec

    shelf = obj({"id": {"type": "string"}, "title": {"type": "string"}, "access": {"type": "string"}})
    paths = {
        "/mylibrary/bookshelves": {"get": {"operationId": "listShelves", "responses": ok(arr(shelf))}},
        "/mylibrary/bookshelves/{shelf}": {"get": {"operationId": "getShelf", "parameters": [pparam("shelf")], "responses": ok(shelf)}},
        "/mylibrary/bookshelves/{shelf}/addVolume": {"post": {"operationId": "addVolume", "parameters": [pparam("shelf"), _qp("volumeId", True), _qp("reason")], "responses": {"204": {"description": "done"}}}},
    }
    _, ops, _, _ = run(tmp_path, spec(paths))
    assert ops["POST /mylibrary/bookshelves/{shelf}/addVolume"][0] not in ("create", "update"), ops


def test_an_item_read_that_answers_a_page_reads_its_element(tmp_path):
    """Botify's `GET /projects/{username}` answers `{count, next, previous, page, size,
    results: [Project]}`: the record was that envelope, "the project "https://..."" known by
    its next page's address."""
    from import_specs import arr, obj, ok, pparam, ref, run, spec

    project = obj({"slug": {"type": "string"}, "name": {"type": "string"}, "active": {"type": "boolean"}})
    page = obj({"count": {"type": "integer"}, "next": {"type": "string"}, "previous": {"type": "string"}, "page": {"type": "integer"}, "size": {"type": "integer"}, "results": arr(ref("Project"))})
    paths = {"/projects/{username}": {"get": {"operationId": "getUserProjects", "parameters": [pparam("username")], "responses": ok(page)}}}
    result, ops, _, _ = run(tmp_path, spec(paths, {"Project": project}))
    text = "".join(result.files.values())
    record = text.split("record Project", 1)[1].split("\n  }", 1)[0]
    assert "known by name" in record and "previous" not in record, record


def test_a_query_parameter_the_paths_read_takes_too_is_no_field_a_write_sets(tmp_path):
    """DrChrono's `POST /api/allergies?doctor=&patient=` takes its list's filters (the body is
    not written in the spec): read as the body, a task "added a patient allergy" that set only
    a doctor and a patient."""
    from import_specs import arr, obj, ok, pparam, run, spec

    allergy = obj({"id": {"type": "integer"}, "doctor": {"type": "integer"}, "patient": {"type": "integer"}, "reaction": {"type": "string"}})
    filters = [{"name": "doctor", "in": "query", "schema": {"type": "integer"}}, {"name": "patient", "in": "query", "schema": {"type": "integer"}}]
    paths = {
        "/api/allergies": {"get": {"operationId": "allergies_list", "parameters": filters, "responses": ok(arr(allergy))}, "post": {"operationId": "allergies_create", "parameters": filters, "responses": ok(allergy)}},
        "/api/allergies/{id}": {"get": {"operationId": "allergies_read", "parameters": [pparam("id")], "responses": ok(allergy)}},
    }
    _, ops, _, _ = run(tmp_path, spec(paths))
    assert ops["POST /api/allergies"][0] != "create", ops


def test_the_thing_a_summary_names_in_code_is_said_in_words(tmp_path):
    """Firebase's "Enables a DatabaseInstance": a task said "enable a DatabaseInstance and
    disable that database instance" (a fresh draw, stop 74). A recorded call answers nothing:
    its key argument names the thing."""
    from import_specs import listed, obj, run, spec

    instance = obj({"id": {"type": "string"}, "databaseUrl": {"type": "string"}, "state": {"type": "string", "enum": ["ACTIVE", "DISABLED"]}})
    paths = {**listed("instances", "DatabaseInstance"), "/instances/{id}:reenable": {"post": {"operationId": "reenable", "summary": "Enables a DatabaseInstance.", "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}], "responses": {"204": {"description": "done"}}}}}
    result, ops, _, _ = run(tmp_path, spec(paths, {"DatabaseInstance": instance}))
    text = "".join(result.files.values())
    say = text.split("tool reenable(", 1)[1].split("say ", 1)[1].split("\n", 1)[0]
    assert "DatabaseInstance" not in say and say.startswith("\"enable "), (ops, say)
