"""A person's names agree in imported seeds (`importers.common.person_seeds`): Docker Hub's SCIM
users were seeded field by field, "Tomasz Moreno" with given name "Hannah", family name
"Kowalski" and user name "Grace Adeyemi", and five of eight shared one display name (a blind
player remarked on both). Now the whole name is made of the given and family names, a handle and
an email address are made from the whole name, and a whole name drawn alone comes from 100
names, not 10."""

from __future__ import annotations

import re

from import_specs import arr, obj, ok, pparam, ref, run, s, spec, world_of


def _users(props: dict) -> dict:
    return spec(
        {
            "/users": {"get": {"operationId": "listUsers", "responses": ok(arr(ref("User")))}},
            "/users/{id}": {"get": {"operationId": "getUser", "parameters": [pparam("id")], "responses": ok(ref("User"))}},
        },
        {"User": obj({"id": s(), **props})},
    )


def _rows(tmp_path, doc) -> tuple[str, list[dict]]:
    result, _, model, wf = run(tmp_path, doc)
    world, state = world_of(model, wf)
    table = next(t for t in state.tables if t.endswith(".users"))
    rows = list(state.tables[table].values())
    assert len(rows) >= 4
    return "\n".join(result.files.values()), rows


def _slug(text: str) -> str:
    return ".".join(re.findall(r"[a-z0-9]+", text.lower()))


def test_a_users_whole_name_handle_and_email_are_made_of_its_names(tmp_path):
    doc = _users({
        "userName": s(),
        "displayName": s(),
        "name": obj({"givenName": s(), "familyName": s()}),
        "email": s(format="email"),
    })
    text, rows = _rows(tmp_path, doc)
    # (`name.givenName` is `given_name`: an inner name that says its wrapper's word again is
    # said once)
    assert 'display_name: format("{} {}", same(given_name), same(family_name))' in text, text
    for r in rows:
        assert r["display_name"] == f"{r['given_name']} {r['family_name']}", r
        assert r["user_name"] == _slug(r["display_name"]), r
        local, _, domain = r["email"].partition("@")
        assert local == _slug(r["display_name"]) and "." in domain, r


def test_a_whole_name_alone_is_drawn_from_first_and_last_names(tmp_path):
    text, rows = _rows(tmp_path, _users({"fullName": s(), "login": s(), "phone": s()}))
    seed = re.search(r"seed users: [^{]*\{(.*?)\n  \}", text, re.S).group(1)
    line = re.search(r"full_name: (.*)", seed).group(1)
    assert line.startswith('format("{} {}", pick(['), line
    for r in rows:
        assert len(r["full_name"].split()) == 2 and r["login"] == _slug(r["full_name"]), r
    # the phone is no name: drawn as before
    assert not any(r["phone"] == _slug(r["full_name"]) for r in rows)


def test_what_the_spec_gives_and_what_is_no_person_stay_as_they_are(tmp_path):
    # an enum of user names is the API's own: kept; a group's display name is not a person's
    doc = spec(
        {
            "/users": {"get": {"operationId": "listUsers", "responses": ok(arr(ref("User")))}},
            "/groups": {"get": {"operationId": "listGroups", "responses": ok(arr(ref("Group")))}},
        },
        {
            "User": obj({"id": s(), "fullName": s(), "userName": s(enum=["root", "admin", "ops"])}),
            "Group": obj({"id": s(), "displayName": s(), "email": s(format="email")}),
        },
    )
    result, _, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert "user_name: weighted(root: 3, admin: 1, ops: 1)" in text, text
    group = re.search(r"seed groups: [^{]*\{(.*?)\n  \}", text, re.S).group(1)
    assert "same(" not in group and "slug(" not in group, group


def test_a_new_record_known_by_its_name_takes_a_name_no_record_has(tmp_path):
    """Clients known by their name alone, seeded from a pick of names: a task's new client is
    named as no client is ("add a client "Summit client"" beside a Summit client, blind play:
    `bindings._fresh`, `CompiledWorld.fresh_value(name=True)`)."""
    import json
    import random

    from compoworld_dsl.sample.run import Job, load_sampler
    from compoworld_dsl.sample.run import run as sample

    client = obj({"client_id": s(), "client_name": s(), "client_uri": s(format="uri"), "application_type": s(enum=["web", "native"])})
    doc = spec(
        {
            "/client": {
                "get": {"operationId": "listClients", "responses": ok(arr(ref("Client")))},
                "post": {"operationId": "createClient", "requestBody": {"content": {"application/json": {"schema": ref("Client")}}}, "responses": ok(ref("Client"))},
            },
            "/client/{client_id}": {
                "get": {"operationId": "getClient", "parameters": [pparam("client_id")], "responses": ok(ref("Client"))},
                "put": {"operationId": "updateClient", "parameters": [pparam("client_id")], "requestBody": {"content": {"application/json": {"schema": ref("Client")}}}, "responses": ok(ref("Client"))},
                "delete": {"operationId": "deleteClient", "parameters": [pparam("client_id")], "responses": {"204": {"description": "gone"}}},
            },
        },
        {"Client": client},
    )
    _, _, _, wf = run(tmp_path, doc)
    sampler = load_sampler(str(wf))
    table = next(t for t in sampler.world.seeds if t.endswith(".clients"))
    rng = random.Random(1)
    assert sampler.world.fresh_value(table, "client_name", rng) is None  # a pick is no code
    assert sampler.world.fresh_value(table, "client_name", rng, name=True).endswith(" client")
    assert sampler.world.fresh_value(table, "application_type", rng) is None
    sample(Job(str(wf), 3, 12, 3, max_attempts=80), tmp_path / "t.jsonl")
    made = 0
    for line in (tmp_path / "t.jsonl").read_text().splitlines():
        task = json.loads(line)
        state = sampler.world.task_state(task["initial_state"])
        names = {r["client_name"] for t, rows in state.tables.items() if t.endswith(".clients") for r in rows.values()}
        for step in task["reference_plan"]:
            if step["tool"].endswith(".create_client"):
                made += 1
                assert step["arguments"]["client_name"] not in names, (step["arguments"], names)
    assert made >= 2, "no task made a client"


def test_a_person_with_a_first_and_a_last_name_is_known_by_both(tmp_path):
    """Xero's employees (a title, a first and a last name, no whole name) were 'the employee
    "Mrs"'; now 'the employee "Rafael" with last name "Okafor"'. A whole name still names the
    person alone."""
    doc = spec(
        {
            "/employees": {"get": {"operationId": "listEmployees", "responses": ok(arr(ref("Employee")))}},
            "/contacts": {"get": {"operationId": "listContacts", "responses": ok(arr(ref("Contact")))}},
        },
        {
            "Employee": obj({"id": s(), "title": s(), "firstName": s(), "lastName": s()}),
            "Contact": obj({"id": s(), "title": s(), "firstName": s(), "lastName": s(), "displayName": s()}),
        },
    )
    result, _, _, _ = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert "record Employee known by first_name, last_name {" in text, text
    assert "record Contact known by display_name {" in text, text
