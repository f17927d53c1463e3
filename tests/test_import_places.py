"""A row's address is one place in imported seeds (`importers.common.place_seeds`): drawn field by
field, a customer lived in "London", country "JP", postcode "M5V 2T6". Where a seed draws two or
more of city, country, region and postcode from the place pools, a pool of profiles gives them,
one place a row, and a new row the sampler makes takes one place too."""

from __future__ import annotations

import json
import re

from import_specs import arr, obj, ok, pparam, ref, run, s, spec, world_of

from compoworld_dsl.importers.common import CITIES, COUNTRIES, POSTCODES

PLACE = {city: (country, post) for city, country, post in zip(CITIES, COUNTRIES, POSTCODES)}


def _doc() -> dict:
    customer = obj({"id": s(), "name": s(), "city": s(), "country": s(), "postalCode": s(), "street": s()})
    return spec(
        {
            "/customers": {
                "get": {"operationId": "listCustomers", "responses": ok(arr(ref("Customer")))},
                "post": {"operationId": "createCustomer", "requestBody": {"content": {"application/json": {"schema": ref("Customer")}}}, "responses": ok(ref("Customer"))},
            },
            "/customers/{id}": {
                "get": {"operationId": "getCustomer", "parameters": [pparam("id")], "responses": ok(ref("Customer"))},
                "delete": {"operationId": "deleteCustomer", "parameters": [pparam("id")], "responses": {"204": {"description": "gone"}}},
            },
        },
        {"Customer": customer},
    )


def test_a_rows_city_country_and_postcode_are_one_places(tmp_path):
    result, _, model, wf = run(tmp_path, _doc())
    text = "\n".join(result.files.values())
    assert re.search(r"seed customers: [0-9.]+ rows from \w+_places \{", text), text
    assert re.search(r'\{ city: "London", country: "GB", postal_code: "EC1A 1BB" \}', text), text
    _, state = world_of(model, wf)
    rows = next(rows for t, rows in state.tables.items() if t.endswith(".customers")).values()
    assert len(rows) >= 4
    for r in rows:
        assert (r["country"], r["postal_code"]) == PLACE[r["city"]], r
    # a street fits any city: still drawn on its own
    assert re.search(r"    street: pick\(", text)


def test_a_new_customer_takes_one_place(tmp_path):
    from compoworld_dsl.sample.run import Job
    from compoworld_dsl.sample.run import run as sample

    _, _, _, wf = run(tmp_path, _doc())
    sample(Job(str(wf), 3, 10, 4, max_attempts=80), tmp_path / "t.jsonl")
    made = 0
    for line in (tmp_path / "t.jsonl").read_text().splitlines():
        for step in json.loads(line)["reference_plan"]:
            args = step["arguments"]
            if step["tool"].endswith(".create_customer") and args.get("city"):
                made += 1
                assert (args["country"], args["postal_code"]) == PLACE[args["city"]], args
    assert made, "no task made a customer with a city"


def test_a_countrys_name_is_the_name_of_its_code(tmp_path):
    # Transavia's airport `country: {code, name}`: the name was "Beacon country" beside "GB"
    # (blind round 33)
    from compoworld_dsl.importers.common import COUNTRY_NAMES

    doc = _doc()
    doc["components"]["schemas"]["Customer"]["properties"]["country"] = obj({"code": s(), "name": s()})
    result, _, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert '{ city: "London", country_code: "GB", country_name: "United Kingdom"' in text, text
    _, state = world_of(model, wf)
    rows = next(rows for t, rows in state.tables.items() if t.endswith(".customers")).values()
    names = dict(zip(COUNTRIES, COUNTRY_NAMES))
    assert rows and all(r["country_name"] == names[r["country_code"]] for r in rows)


def test_a_countrys_region_and_calling_code_are_its_own(tmp_path):
    """openfintech's countries: Canada was in region "Ontario", sub region "Ontario", with calling
    codes "CC-2984" (blind round 47: "a country's region being Ontario is implausible"). A country
    row's region is its part of the world and its calling code its own, one place a row."""
    country = obj({"id": s(), "name": s(), "capital": s(), "region": s(), "subRegion": s(), "callingCodes": s()})
    doc = spec(
        {
            "/countries": {"get": {"operationId": "listCountries", "responses": ok(arr(ref("Country")))}},
            "/countries/{id}": {"get": {"operationId": "getCountry", "parameters": [pparam("id")], "responses": ok(ref("Country"))}},
        },
        {"Country": country},
    )
    result, _, model, wf = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    assert re.search(r'\{ name: "Canada", capital: "Ottawa", region: "Americas", sub_region: "Northern America", calling_codes: "\+1" \}', text), text
    _, state = world_of(model, wf)
    rows = next(t for q, t in state.tables.items() if q.endswith(".countries")).values()
    assert rows and all(r["region"] in ("Europe", "Africa", "Americas", "Asia", "Oceania") and r["calling_codes"].startswith("+") for r in rows), list(rows)
