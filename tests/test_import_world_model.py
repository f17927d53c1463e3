"""The importer's world model for operations whose effect it cannot infer (docs/import.md, "The
world model for what cannot be inferred"; docs/decisions.md D37): a write on a row becomes an
ordinary tool that records its call, a read on a row returns what the state holds about it when
the response is made of that row's fields, and what has no row to hang on stays `simulated`.

One small spec written here (customers, and quotes nested under them, each with list and get;
two actions on a quote, two reads on a quote, one operation on no row) is imported once per
module; the tests read the written world, run its tools, and sample and verify 3-hop tasks
through a recorded action. No long mode: the inputs are fixed and small."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.cli import main as worldc_main
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.importers.openapi import import_openapi
from compoworld_dsl.syntax.format import format_source

QUOTE = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "title": {"type": "string", "example": "Roof repair"},
        "status": {"type": "string", "enum": ["draft", "open", "expired"]},
        "total": {"type": "number"},
        "valid_until": {"type": "string", "format": "date"},
    },
}
CUSTOMER = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "city": {"type": "string"}}}


def _json(schema: dict) -> dict:
    return {"description": "ok", "content": {"application/json": {"schema": schema}}}


def _list(ref: str) -> dict:
    return {"200": _json({"type": "array", "items": {"$ref": ref}})}


ID = {"name": "customerId", "in": "path", "required": True, "schema": {"type": "string"}}
QID = {"name": "quoteId", "in": "path", "required": True, "schema": {"type": "string"}}
SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "Quotes API", "version": "1.0"},
    "paths": {
        "/customers": {"get": {"operationId": "listCustomers", "parameters": [{"name": "name", "in": "query", "schema": {"type": "string"}}], "responses": _list("#/components/schemas/Customer")}},
        "/customers/{customerId}": {"get": {"operationId": "getCustomer", "parameters": [ID], "responses": {"200": _json({"$ref": "#/components/schemas/Customer"})}}},
        "/customers/{customerId}/quotes": {"get": {"operationId": "listQuotes", "parameters": [ID], "responses": _list("#/components/schemas/Quote")}},
        "/customers/{customerId}/quotes/{quoteId}": {"get": {"operationId": "getQuote", "parameters": [ID, QID], "responses": {"200": _json({"$ref": "#/components/schemas/Quote"})}}},
        # two actions the importer cannot infer (no status they name): recorded
        "/customers/{customerId}/quotes/{quoteId}/remind": {
            "post": {"operationId": "remindQuote", "summary": "Remind the customer of a quote", "parameters": [ID, QID], "responses": {"204": {"description": "accepted"}}}
        },
        "/customers/{customerId}/quotes/{quoteId}/send": {
            "post": {
                "operationId": "sendQuote",
                "summary": "Send a quote by email",
                "parameters": [ID, QID],
                "requestBody": {"content": {"application/json": {"schema": {"type": "object", "required": ["to"], "properties": {"to": {"type": "string", "format": "email"}, "cc": {"type": "array", "items": {"type": "string"}}}}}}},
                "responses": {"200": _json({"type": "object", "properties": {"messageId": {"type": "string"}}})},
            }
        },
        # a view of the quote whose response is fields of the quote: derived from the state
        "/customers/{customerId}/quotes/{quoteId}/summary": {
            "get": {"operationId": "getQuoteSummary", "summary": "The summary of a quote", "parameters": [ID, QID], "responses": {"200": _json({"type": "object", "properties": {"id": {"type": "string"}, "title": {"type": "string"}, "total": {"type": "number"}}})}}
        },
        # a read whose response the state does not hold: stays simulated
        "/customers/{customerId}/quotes/{quoteId}/pdf": {
            "get": {"operationId": "getQuotePdf", "parameters": [ID, QID], "responses": {"200": _json({"type": "string", "format": "uri"})}}
        },
        # no row to hang on and no object to answer (a posted read of text): stays simulated
        "/ping": {"post": {"operationId": "ping", "responses": {"200": _json({"type": "string"})}}},
    },
    "components": {"schemas": {"Quote": QUOTE, "Customer": CUSTOMER}},
}


@pytest.fixture(scope="module")
def quotes(tmp_path_factory):
    root = tmp_path_factory.mktemp("quotes")
    spec = root / "quotes.json"
    spec.write_text(json.dumps(SPEC))
    out = root / "out"
    old, sys.stdout = sys.stdout, io.StringIO()
    try:
        code = worldc_main(["import", "openapi", str(spec), "-o", str(out)])
        report = sys.stdout.getvalue()
    finally:
        sys.stdout = old
    assert code == 0, report
    world_file = out / "quotes_world.world"
    program = check_paths([world_file])
    assert program.ok, [d.message for d in program.diagnostics]
    return spec, out, program.model, report, (out / "quotes.world").read_text()


def _tool(model, name):
    (t,) = [t for t in model.tools() if t.name == name]
    return t


def _table(model, tool: str, table: str) -> str:
    """`service.table` for a table of the service that holds a tool (services' names are the
    resource naming's business, not this file's)."""
    return _tool(model, tool).qualified.split(".")[0] + "." + table


def _block(text: str, head: str) -> str:
    """The lines of one tool or record, from its comments to its closing brace."""
    start = text.index(head)
    top = text.rfind("\n\n", 0, start)
    return text[top + 2 : text.index("\n  }", start) + 4]


def test_report_kinds(quotes):
    spec, _, _, report, _ = quotes
    kinds = {o.label: o.kind for o in import_openapi(spec).ops}
    assert kinds["POST /customers/{customerId}/quotes/{quoteId}/remind"] == "recorded"
    assert kinds["POST /customers/{customerId}/quotes/{quoteId}/send"] == "recorded"
    assert kinds["GET /customers/{customerId}/quotes/{quoteId}/summary"] == "derived"
    assert kinds["GET /customers/{customerId}/quotes/{quoteId}/pdf"] == "simulated"
    assert kinds["POST /ping"] == "simulated"
    result = import_openapi(spec)
    assert len(result.ops) == len(result.crud) + len(result.modelled) + len(result.simulated) + len(result.skipped)
    assert [o.kind for o in result.modelled] == ["recorded", "recorded", "derived"]
    assert "world model (3):" in report and "simulated (2):" in report
    assert ".remind_quote: recorded (an action on one quote)" in report


def test_recorded_write_is_an_ordinary_tool_that_records_its_call(quotes):
    _, _, model, _, text = quotes
    t = _tool(model, "remind_quote")
    assert not t.simulated
    block = _block(text, "tool remind_quote(")
    assert "world model: the call is recorded in remind_quote_calls; what it does to the quote is not modelled" in block
    assert 'require quote_id in quotes else not_found "no quote {quote_id}"' in block
    assert "require quotes[quote_id].customer_id == customer_id else not_found" in block
    assert "insert remind_quote_calls { customer_id: customer_id, quote_id: quote_id }" in block
    assert "modifies" not in block and "simulated" not in block.split("tool remind_quote")[1]
    # the table of calls: one row a call, no seed rows
    assert "state remind_quote_calls: table[RemindQuoteCall]" in text
    assert "seed remind_quote_calls" not in text
    rec = _block(text, "record RemindQuoteCall")
    assert "customer_id: CustomerId" in rec and "quote_id: QuoteId" in rec and "key id: id" in rec


def test_recorded_write_keeps_the_apis_arguments(quotes):
    _, _, model, _, text = quotes
    t = _tool(model, "send_quote")
    assert not t.simulated and str(t.result) == "id"  # the API answers: the call's key
    assert {n: str(pt) for n, pt in t.params} == {"customer_id": "CustomerId", "quote_id": "QuoteId", "to": "email", "cc": "text"}
    assert "cc: a list of text in the API, kept as comma-separated text" in _block(text, "tool send_quote(")
    assert 'say "send quote {quote_id}' in text  # the simulated tool's phrase, kept


def test_recorded_call_runs_on_the_compiled_world(quotes):
    _, out, model, _, _ = quotes
    world = load_world(model, str(out / "quotes_world.world"))
    st = world.initial_state(3)
    q = lambda x: _table(model, "send_quote", x)  # noqa: E731
    assert not st.tables[q("send_quote_calls")]  # no seed rows
    quote = dict(next(iter(st.tables[q("quotes")].values())))
    got = world.call(st, q("send_quote"), {"customer_id": quote["customer_id"], "quote_id": quote["id"], "to": "ana@example.com", "cc": ""})
    assert got["success"], got
    calls = list(st.tables[q("send_quote_calls")].values())
    assert len(calls) == 1 and calls[0]["quote_id"] == quote["id"] and calls[0]["to"] == "ana@example.com"
    assert got["data"] == calls[0]["id"]
    # what the action does to the quote is not modelled: the quote is as it was
    assert dict(st.tables[q("quotes")][quote["id"]]) == quote
    bad = world.call(st, q("remind_quote"), {"customer_id": quote["customer_id"], "quote_id": "no-such-quote"})
    assert not bad["success"] and bad["error"]["code"] == 404
    assert not st.tables[q("remind_quote_calls")]


def test_derived_read_returns_the_rows_fields(quotes):
    _, out, model, _, text = quotes
    t = _tool(model, "get_quote_summary")
    assert not t.simulated
    block = _block(text, "tool get_quote_summary(")
    assert "world model: returns what the state holds about the quote" in block
    assert "return GetQuoteSummaryResult(id: quotes[quote_id].id, title: quotes[quote_id].title, total: quotes[quote_id].total)" in block
    assert "gives " in block
    world = load_world(model, str(out / "quotes_world.world"))
    st = world.initial_state(3)
    quote = next(iter(st.tables[_table(model, "get_quote_summary", "quotes")].values()))
    got = world.call(st, _tool(model, "get_quote_summary").qualified, {"customer_id": quote["customer_id"], "quote_id": quote["id"]})
    assert got["success"], got
    assert got["data"]["title"] == quote["title"] and float(got["data"]["total"]) == float(quote["total"])


def test_reads_and_writes_with_nothing_to_hang_on_stay_simulated(quotes):
    _, _, model, _, text = quotes
    assert _tool(model, "get_quote_pdf").simulated
    assert _tool(model, "ping").simulated
    for f in Path(quotes[1]).glob("*.world"):
        assert format_source(f.read_text(), str(f)) == f.read_text()


def test_three_hop_tasks_pass_through_a_recorded_action(quotes, tmp_path, monkeypatch, capsys):
    _, out, model, _, _ = quotes
    monkeypatch.chdir(out)
    tasks = tmp_path / "tasks.jsonl"
    code = worldc_main(["sample", "--hops", "3", "-n", "6", "--seed", "1", "-o", str(tasks)])
    capsys.readouterr()
    assert code == 0
    rows = [json.loads(line) for line in tasks.read_text().splitlines()]
    assert rows
    recorded = {_tool(model, "remind_quote").qualified, _tool(model, "send_quote").qualified}
    through = [r for r in rows if recorded & {s["tool"] for s in r["reference_plan"]}]
    assert through, [[s["tool"] for s in r["reference_plan"]] for r in rows]
    assert worldc_main(["verify", str(tasks)]) == 0
    capsys.readouterr()


def test_names_never_collide(tmp_path, capsys):
    """A path parameter named `id`, a body property of the same name, an operation whose name
    ends in `_calls` like a call table, and a list argument: the output still checks."""
    thing = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
    tid = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Things", "version": "1"},
        "paths": {
            "/things": {"get": {"operationId": "listThings", "responses": _list("#/components/schemas/Thing")}},
            "/things/{id}": {"get": {"operationId": "getThing", "parameters": [tid], "responses": {"200": _json({"$ref": "#/components/schemas/Thing"})}}},
            "/things/{id}/tag": {
                "post": {
                    "operationId": "tag",
                    "parameters": [tid, {"name": "tags", "in": "query", "required": True, "schema": {"type": "array", "items": {"type": "string"}}}],
                    "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"tags": {"type": "string"}}}}}},
                    "responses": {"200": _json({"type": "object", "properties": {"ok": {"type": "boolean"}}})},
                }
            },
            "/things/{id}/tag_calls": {"put": {"operationId": "tagCalls", "parameters": [tid], "responses": {"204": {"description": "done"}}}},
        },
        "components": {"schemas": {"Thing": thing}},
    }
    path = tmp_path / "things.json"
    path.write_text(json.dumps(spec))
    out = tmp_path / "out"
    assert worldc_main(["import", "openapi", str(path), "-o", str(out), "--no-probe"]) == 0
    capsys.readouterr()
    program = check_paths([out / "things_world.world"])
    assert program.ok, [d.message for d in program.diagnostics]
    kinds = {o.label: o.kind for o in import_openapi(path).ops}
    assert kinds["POST /things/{id}/tag"] == kinds["PUT /things/{id}/tag_calls"] == "recorded"
    tag = _tool(program.model, "tag")
    # (a body `id` beside the path's would be the resource's own id, which a call never sets:
    # the collision is tried on a body property named like a query parameter)
    assert {n: str(pt) for n, pt in tag.params} == {"id": "ThingId", "tags": "text", "tags_2": "text"}
    world = load_world(program.model, str(out / "things_world.world"))
    st = world.initial_state(1)
    row = next(iter(st.tables[_table(program.model, "tag", "things")].values()))
    got = world.call(st, tag.qualified, {"id": row["id"], "tags": "a,b", "tags_2": "x"})
    assert got["success"], got
    (call,) = st.tables[_table(program.model, "tag", "tag_calls")].values()
    assert call["id"] == row["id"] and call["tags"] == "a,b" and call["tags_2"] == "x" and got["data"] == call["id_2"]


def test_a_read_of_another_object_is_never_derived(tmp_path):
    """Same field names are not the same row: a path that names another thing (`/draft`,
    `/owner`), or a response whose only shared fields are generic (`name`,
    `url`) is not derived from the row (it is looked up in seeded answers, or stays simulated
    when it is a quote's record); a view of the row (`/details`, `/status`) is derived. (Every response
    here has an id-like property: one without is a row's own object, a table of its own, which
    is resources.py's business.)"""
    owner = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}, "title": {"type": "string"}}}
    get = lambda op, schema: {"get": {"operationId": op, "parameters": [QID], "responses": {"200": _json(schema)}}}  # noqa: E731
    quote = {"$ref": "#/components/schemas/Quote"}
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Quotes", "version": "1"},
        "paths": {
            "/quotes": {"get": {"operationId": "listQuotes", "responses": _list("#/components/schemas/Quote")}},
            "/quotes/{quoteId}": get("getQuote", quote),
            "/quotes/{quoteId}/draft": get("getDraft", quote),  # another quote: the draft of this one
            "/quotes/{quoteId}/details": get("getDetails", quote),  # this quote
            "/quotes/{quoteId}/owner": get("getOwner", owner),  # its own id: another object
            "/quotes/{quoteId}/link": get("getLink", {"type": "object", "properties": {"id": {"type": "string"}, "title": {"type": "string"}, "url": {"type": "string"}}}),
            "/quotes/{quoteId}/status": get("getStatus", {"type": "object", "properties": {"id": {"type": "string"}, "status": {"type": "string", "enum": ["draft", "open", "expired"]}, "progress": {"type": "integer"}}}),
        },
        "components": {"schemas": {"Quote": QUOTE}},
    }
    path = tmp_path / "q.json"
    path.write_text(json.dumps(spec))
    kinds = {o.label.split("/")[-1]: o.kind for o in import_openapi(path).ops}
    assert kinds["owner"] == kinds["link"] == "answered", kinds  # answered from seeded answers, not from the quote
    # a quote's record, but which quote is not this one's to say: the answers name a row of
    # the quotes table (a seeded association), never this quote's fields read as its draft's
    assert kinds["draft"] == "answered", kinds
    assert kinds["details"] == kinds["status"] == "derived"



def _body(props: dict) -> dict:
    return {"content": {"application/json": {"schema": {"type": "object", "properties": props}}}}


STR, INT, DONE = {"type": "string"}, {"type": "integer"}, {"204": {"description": "done"}}


def _imported(tmp_path, paths: dict, schemas: dict | None = None):
    """SPEC with these paths (and these schemas beside its own), imported, written and checked:
    (kind by operation, result, program, out)."""
    path = tmp_path / "spec.json"
    components = {"schemas": {**SPEC["components"]["schemas"], **(schemas or {})}}
    path.write_text(json.dumps({**SPEC, "paths": paths, "components": components}))
    result = import_openapi(path)
    out = tmp_path / "out"
    out.mkdir()
    for name, text in result.files.items():
        (out / name).write_text(text)
    program = check_paths([out / result.world_file])
    assert program.ok, [d.message for d in program.diagnostics]
    return {o.label: o.kind for o in result.ops}, result, program, out


def test_a_batch_write_on_a_collection_records_its_call(tmp_path):
    """A `PUT`, `PATCH` or `DELETE` on a resource's whole collection (a batch write) records its
    call in that resource's service; a `POST` there named as a read (RPC APIs post their reads)
    stays simulated. A write that names a row by a body field (`customerId`, typed a plain
    integer) requires that row (test_a_write_that_names_a_row_by_an_argument_requires_it), and
    a write no resource owns is recorded in the service of the API's other operations
    (test_a_write_no_resource_owns_is_recorded_when_its_name_says_write)."""
    since = {"name": "inactiveSince", "in": "query", "schema": {"type": "string", "format": "date"}}
    paths = {k: v for k, v in SPEC["paths"].items() if k in ("/customers", "/customers/{customerId}")}
    paths["/customers/inactive"] = {"delete": {"operationId": "purgeInactiveCustomers", "parameters": [since], "responses": DONE}}
    paths["/customers/status"] = {"put": {"operationId": "setCustomerStatus", "requestBody": _body({"customerId": INT, "status": STR}), "responses": DONE}}
    paths["/customers/lookup"] = {"post": {"operationId": "lookupCustomers", "requestBody": _body({"text": STR}), "responses": DONE}}
    paths["/settings"] = {"put": {"operationId": "putSettings", "requestBody": _body({"currency": STR}), "responses": DONE}}
    kinds, result, program, out = _imported(tmp_path, paths)
    assert kinds["DELETE /customers/inactive"] == "recorded", kinds
    assert kinds["POST /customers/lookup"] == "simulated", kinds
    assert kinds["PUT /settings"] == kinds["PUT /customers/status"] == "recorded", kinds
    block = _block(result.files[next(n for n in result.files if not n.endswith("_world.world"))], "tool purge_inactive_customers(")
    assert "it names no customer, and what it does to the customers is not modelled" in block and "require" not in block, block
    purge = _tool(program.model, "purge_inactive_customers")
    assert not purge.simulated and purge.qualified.split(".")[0] == _tool(program.model, "list_customers").qualified.split(".")[0]
    world = load_world(program.model, str(out / result.world_file))
    st = world.initial_state(1)
    rows = _table(program.model, "list_customers", "customers")
    before = dict(st.tables[rows])
    got = world.call(st, purge.qualified, {"inactive_since": "2025-02-01"})
    assert got["success"], got
    assert len(st.tables[_table(program.model, "purge_inactive_customers", "purge_inactive_customers_calls")]) == 1
    assert dict(st.tables[rows]) == before  # what it does is not modelled


def test_a_write_no_resource_owns_is_recorded_when_its_name_says_write(tmp_path):
    """A write no resource owns records its call in the service of the API's other operations
    when its name says it writes: `PUT`/`PATCH`/`DELETE` unless named as a read, a `POST` whose
    operation id or summary starts with a verb that changes something. A `POST` named as a read
    or computation (`LookupEvents`, `RunQuery`) or with no verb in its name stays simulated."""
    sent = {"200": _json({"type": "object", "properties": {"sid": STR}})}
    paths = {k: v for k, v in SPEC["paths"].items() if k in ("/customers", "/customers/{customerId}")}
    paths["/sms"] = {"post": {"operationId": "SendSms", "requestBody": _body({"to": STR, "text": STR}), "responses": sent}}
    paths["/alerts"] = {"post": {"summary": "Creates an alert rule", "requestBody": _body({"threshold": INT}), "responses": DONE}}
    paths["/events/lookup"] = {"post": {"operationId": "LookupEvents", "requestBody": _body({"text": STR}), "responses": DONE}}
    paths["/query"] = {"post": {"operationId": "RunQuery", "requestBody": _body({"sql": STR}), "responses": DONE}}
    paths["/sentiment"] = {"post": {"requestBody": _body({"text": STR}), "responses": DONE}}
    paths["/cache"] = {"delete": {"operationId": "purgeCache", "responses": DONE}}
    kinds, result, program, out = _imported(tmp_path, paths)
    assert kinds["POST /sms"] == kinds["POST /alerts"] == kinds["DELETE /cache"] == "recorded", kinds
    assert kinds["POST /events/lookup"] == kinds["POST /query"] == kinds["POST /sentiment"] == "simulated", kinds
    send = _tool(program.model, "send_sms")
    assert not send.simulated and send.qualified.split(".")[0] != _tool(program.model, "list_customers").qualified.split(".")[0]
    text = result.files[send.qualified.split(".")[0] + ".world"] if send.qualified.split(".")[0] + ".world" in result.files else "\n".join(result.files.values())
    block = _block(text, "tool send_sms(")
    assert "it names no record the importer found, and what it does is not modelled" in block and "require" not in block, block
    world = load_world(program.model, str(out / result.world_file))
    st = world.initial_state(1)
    got = world.call(st, send.qualified, {"to": "+4470000000", "text": "hello"})
    assert got["success"], got
    (row,) = st.tables[_table(program.model, "send_sms", "send_sms_calls")].values()
    assert (row["to"], row["text"]) == ("+4470000000", "hello")


def test_a_write_that_names_a_row_by_an_argument_requires_it(tmp_path):
    """A write with no key of its own table whose one row-naming argument is named as a
    resource's key (`customerId` in the body of `POST /notes`, no resource of its own) records
    its call in that resource's service and requires the row; two such arguments (which row
    the call is on would be a guess) or none that is a write by its name stay simulated."""
    paths = {k: v for k, v in SPEC["paths"].items() if not k.endswith(("/send", "/remind", "/summary", "/pdf"))}
    paths["/notes"] = {"post": {"operationId": "addNote", "requestBody": _body({"customerId": INT, "text": STR}), "responses": DONE}}
    paths["/transfers"] = {"post": {"operationId": "createTransfer", "requestBody": _body({"customerId": INT, "quoteId": STR}), "responses": DONE}}
    paths["/audit"] = {"post": {"operationId": "auditCustomer", "requestBody": _body({"customerId": INT}), "responses": DONE}}
    kinds, result, program, out = _imported(tmp_path, paths)
    assert kinds["POST /notes"] == "recorded", kinds
    assert kinds["POST /transfers"] == kinds["POST /audit"] == "simulated", kinds
    note = _tool(program.model, "add_note")
    assert note.qualified.split(".")[0] == _tool(program.model, "list_customers").qualified.split(".")[0]
    world = load_world(program.model, str(out / result.world_file))
    st = world.initial_state(1)
    customer = next(iter(st.tables[_table(program.model, "list_customers", "customers")]))
    assert not world.call(st, note.qualified, {"customer_id": "no-such-customer", "text": "x"})["success"]
    got = world.call(st, note.qualified, {"customer_id": customer, "text": "call back"})
    assert got["success"], got
    (row,) = st.tables[_table(program.model, "add_note", "add_note_calls")].values()
    assert (row["customer_id"], row["text"]) == (customer, "call back")


def test_a_read_not_named_a_view_reads_only_telling_fields(tmp_path, monkeypatch):
    """`GET /quotes/{id}/price` returning `{total, title}`, no id of its own: the price's total is
    the quote's, but its `title` may be the price's own, so only `total` is read from the row.
    An object with no id-like property is first a row's own object (a table: resources.py), so
    that rule is switched off here to reach the world model."""
    from compoworld_dsl.importers import resources

    monkeypatch.setattr(resources, "singletons", lambda *a, **k: None, raising=False)
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Quotes", "version": "1"},
        "paths": {
            "/quotes": {"get": {"operationId": "listQuotes", "responses": _list("#/components/schemas/Quote")}},
            "/quotes/{quoteId}": {"get": {"operationId": "getQuote", "parameters": [QID], "responses": {"200": _json({"$ref": "#/components/schemas/Quote"})}}},
            "/quotes/{quoteId}/price": {"get": {"operationId": "getPrice", "parameters": [QID], "responses": {"200": _json({"type": "object", "properties": {"total": {"type": "number"}, "title": {"type": "string"}}})}}},
        },
        "components": {"schemas": {"Quote": QUOTE}},
    }
    path = tmp_path / "q.json"
    path.write_text(json.dumps(spec))
    result = import_openapi(path)
    kind = {o.label: o.kind for o in result.ops}["GET /quotes/{quoteId}/price"]
    if kind != "derived":
        pytest.skip(f"GET /quotes/{{quoteId}}/price became {kind} before the world model was asked")
    text = result.files["quotes.world"]
    assert "PriceResult(total: quotes[quote_id].total)\n" in text
    assert "response properties not read from the row, left out: title" in text


def test_a_read_no_row_explains_is_answered_from_seeded_answers(tmp_path):
    """A `GET` that no CRUD rule and no view of a row explains, whose answer is an object or a
    list of objects, is answered from a table of answers seeded with the world (D46):
    its rows hold the response's fields and the arguments they answer. Under a row (`/customers/
    {customerId}/credit`) the row is required and the answers name it; an argument the response
    holds (`currency`) is matched on that field; a blank optional text argument matches every
    row; no argument at all is one row (settings). (The credit has an id of its own: without one
    it would be the customer's own object, a table of its own, resources.py's business.) The same
    call gives the same answer; a call
    no row answers fails with not_found and changes nothing."""
    num, obj = {"type": "number"}, lambda props: {"type": "object", "properties": props}  # noqa: E731
    cur = {"name": "currency", "in": "query", "required": True, "schema": STR}
    country = {"name": "country", "in": "query", "schema": STR}
    paths = {k: v for k, v in SPEC["paths"].items() if k in ("/customers", "/customers/{customerId}")}
    paths["/customers/{customerId}/credit"] = {"get": {"operationId": "getCredit", "parameters": [ID], "responses": {"200": _json(obj({"id": STR, "limit": num, "used": num}))}}}
    paths["/rates"] = {"get": {"operationId": "getRate", "parameters": [cur], "responses": {"200": _json(obj({"currency": {"type": "string", "example": "EUR"}, "rate": num}))}}}
    paths["/holidays"] = {"get": {"operationId": "listHolidays", "parameters": [country], "responses": {"200": _json({"type": "array", "items": obj({"day": {"type": "string", "format": "date"}, "name": STR})})}}}
    paths["/settings"] = {"get": {"operationId": "getSettings", "responses": {"200": _json(obj({"theme": {"type": "string", "enum": ["light", "dark"]}, "pageSize": INT}))}}}
    # a query argument named as a resource's key names its row: typed so, and the answers refer to those rows
    paths["/scores"] = {"get": {"operationId": "getScore", "parameters": [{"name": "customerId", "in": "query", "schema": STR}], "responses": {"200": _json(obj({"score": INT}))}}}
    # a posted read (named as a read) whose answer is an object: answered too; a post named by
    # no read verb may be a write (`resize`, `PutPolicy`): it stays simulated
    paths["/resize"] = {"post": {"operationId": "resizeVolume", "requestBody": _body({"size": INT}), "responses": {"200": _json(obj({"progress": INT}))}}}
    paths["/sessions/create"] = {"get": {"operationId": "createSession", "responses": {"200": _json(obj({"sessionId": STR}))}}}  # a write by GET
    paths["/classify"] = {"post": {"operationId": "classifyName", "requestBody": {"content": {"application/json": {"schema": {"type": "object", "required": ["name"], "properties": {"name": STR}}}}}, "responses": {"200": _json(obj({"gender": STR, "probability": num}))}}}
    # one value, not an object: answered too (`-> int`); a link to a file is not (`/logo`)
    paths["/open-tickets/count"] = {"get": {"operationId": "countOpenTickets", "parameters": [{"name": "queue", "in": "query", "required": True, "schema": STR}], "responses": {"200": _json(INT)}}}
    paths["/logo"] = {"get": {"operationId": "getLogo", "responses": {"200": _json({"type": "string", "format": "uri"})}}}  # no object: stays simulated
    # values only in small nested objects, as the importer flattens them, or a list of values: answered;
    # an object of nothing but JSON text is not
    paths["/usage"] = {"get": {"operationId": "getUsage", "responses": {"200": _json(obj({"billable": obj({"ubuntu": obj({"totalMs": INT}), "macos": obj({"totalMs": INT})})}))}}}
    paths["/pads"] = {"get": {"operationId": "listPads", "responses": {"200": _json(obj({"data": obj({"padIDs": {"type": "array", "items": STR}})}))}}}
    paths["/blob"] = {"get": {"operationId": "getBlob", "responses": {"200": _json(obj({"blob": {"type": "object", "additionalProperties": True}}))}}}
    kinds, result, program, out = _imported(tmp_path, paths)
    for label in ("GET /customers/{customerId}/credit", "GET /rates", "GET /holidays", "GET /settings", "GET /scores", "POST /classify", "GET /open-tickets/count", "GET /usage", "GET /pads"):
        assert kinds[label] == "answered", kinds
    assert kinds["GET /logo"] == kinds["POST /resize"] == kinds["GET /sessions/create"] == kinds["GET /blob"] == "simulated"
    assert [o.kind for o in result.modelled] == ["answered"] * 9
    assert "ubuntu_total_ms: int" in _block(next(t for n, t in result.files.items() if not n.endswith("_world.world")), "record UsageAnswer")
    text = next(t for n, t in result.files.items() if not n.endswith("_world.world"))
    credit = _block(text, "tool get_credit(")
    assert "world model: answered from get_credit_answers" in credit
    assert 'require customer_id in customers else not_found "no customer {customer_id}"' in credit
    # answered for one record alone: one answer per customer, every customer answered
    assert "seed get_credit_answers: 16 rows {" in text and "customer_id: unique ref " in _block(text, "seed get_credit_answers")
    assert "a_.customer_id == customer_id" in credit and "return earliest(" in credit
    assert "a_.currency == currency" in _block(text, "tool get_rate(")  # the response's own field, no new one
    assert 'return filter(a_ in list_holidays_answers where country == "" or a_.country == country)' in text
    assert "seed get_settings_answers: 1 rows {" in text
    assert {n: str(t) for n, t in _tool(program.model, "get_score").params} == {"customer_id": "CustomerId"}
    assert "customer_id: unique ref " in _block(text, "seed get_score_answers")
    for name in ("get_credit", "get_rate", "list_holidays", "get_settings", "get_score", "classify_name", "count_open_tickets"):
        t = _tool(program.model, name)
        assert not t.simulated
        # every required argument picks the answer: both phrases state it (a task reports what it gives)
        for prm in t.decl.params:
            if prm.default is None:
                assert f"{{{prm.name}}}" in t.decl.say and (t.decl.gives is None or f"{{{prm.name}}}" in t.decl.gives), (name, t.decl.say, t.decl.gives)
    assert format_source(text, "x.world") == text
    assert 'require exists(a_ in classify_name_answers where a_.name == name) else not_found' in text

    world = load_world(program.model, str(out / result.world_file))
    st = world.initial_state(2)
    tbl = lambda tool, t: st.tables[_table(program.model, tool, t)]  # noqa: E731
    answers = list(tbl("get_credit", "get_credit_answers").values())
    assert answers and len({a["customer_id"] for a in answers}) == len(answers)
    customers = set(tbl("get_credit", "customers"))
    assert {a["customer_id"] for a in answers} == customers
    a = answers[0]
    first = world.call(st, _tool(program.model, "get_credit").qualified, {"customer_id": a["customer_id"]})
    again = world.call(st, _tool(program.model, "get_credit").qualified, {"customer_id": a["customer_id"]})
    assert first["success"] and first == again, first
    assert float(first["data"]["limit"]) == float(a["limit"])
    before = {k: dict(v) for k, v in st.tables.items()}
    missing = world.call(st, _tool(program.model, "get_credit").qualified, {"customer_id": "no-such-customer"})
    assert not missing["success"] and missing["error"]["code"] == 404
    assert {k: dict(v) for k, v in st.tables.items()} == before
    holidays = world.call(st, _tool(program.model, "list_holidays").qualified, {"country": ""})
    rows = list(tbl("list_holidays", "list_holidays_answers").values())
    assert holidays["success"] and len(holidays["data"]) == len(rows) >= 4
    one = rows[0]["country"]
    some = world.call(st, _tool(program.model, "list_holidays").qualified, {"country": one})
    assert some["data"] and all(h["country"] == one for h in some["data"])
    count = _tool(program.model, "count_open_tickets")
    assert str(count.result) == "int"
    row = next(iter(tbl("count_open_tickets", "count_open_tickets_answers").values()))
    got = world.call(st, count.qualified, {"queue": row["queue"]})
    assert got["success"] and got["data"] == row["value"], got
    (setting,) = tbl("get_settings", "get_settings_answers").values()
    got = world.call(st, _tool(program.model, "get_settings").qualified, {})
    assert got["success"] and got["data"]["theme"] == setting["theme"]



def test_a_read_of_a_resources_records_is_answered_by_a_seeded_association(tmp_path):
    """A read no CRUD rule explains whose answer is a resource's records (`GET
    /repos/{repoId}/teams`, `GET /me/team`) is answered from a seeded association: each answer
    row names a row of that resource for the arguments it answers, and the tool returns those
    rows in the resource's own shape (a list, or the one row). The tool lives with the
    resource (it reads its table); which rows the API means is seeded, not derived."""
    team = {"type": "object", "properties": {"id": STR, "name": {"type": "string", "example": "Platform"}}}
    repo = {"name": "repoId", "in": "path", "required": True, "schema": STR}
    paths = {
        "/teams": {"get": {"operationId": "listTeams", "responses": _list("#/components/schemas/Team")}},
        "/teams/{teamId}": {"get": {"operationId": "getTeam", "parameters": [{"name": "teamId", "in": "path", "required": True, "schema": STR}], "responses": {"200": _json({"$ref": "#/components/schemas/Team"})}}},
        "/repos/{repoId}/teams": {"get": {"operationId": "listRepoTeams", "parameters": [repo], "responses": _list("#/components/schemas/Team")}},
        "/me/team": {"get": {"operationId": "getMyTeam", "responses": {"200": _json({"$ref": "#/components/schemas/Team"})}}},
    }
    kinds, result, program, out = _imported(tmp_path, paths, {"Team": team})
    assert kinds["GET /repos/{repoId}/teams"] == kinds["GET /me/team"] == "answered", kinds
    listed, mine = _tool(program.model, "list_repo_teams"), _tool(program.model, "get_my_team")
    home = _tool(program.model, "list_teams").qualified.split(".")[0]
    assert listed.qualified.split(".")[0] == mine.qualified.split(".")[0] == home
    assert str(listed.result) == "list[Team]" and str(mine.result) == "Team"
    text = next(t for n, t in result.files.items() if not n.endswith("_world.world"))
    assert "team: ref " in _block(text, "seed list_repo_teams_answers")
    assert "return filter(r_ in teams where exists(a_ in list_repo_teams_answers where a_.team == r_.id and a_.repo_id == repo_id))" in text
    # docs/import.md shows this tool as the importer writes it
    block = _block(text, "tool list_repo_teams(")
    docs = (Path(__file__).resolve().parents[1] / "docs" / "import.md").read_text()
    lines, doc_lines = [x.strip() for x in block.strip().splitlines()], [x.strip() for x in docs.splitlines()]
    assert any(doc_lines[i : i + len(lines)] == lines for i in range(len(doc_lines))), block
    assert format_source(text, "x.world") == text

    world = load_world(program.model, str(out / result.world_file))
    st = world.initial_state(3)
    teams = st.tables[_table(program.model, "list_teams", "teams")]
    answers = list(st.tables[_table(program.model, "list_teams", "list_repo_teams_answers")].values())
    assert answers and {a["team"] for a in answers} <= set(teams)
    before = {k: dict(v) for k, v in st.tables.items()}
    repo_id = answers[0]["repo_id"]
    got = world.call(st, listed.qualified, {"repo_id": repo_id})
    assert got["success"], got
    want = {a["team"] for a in answers if a["repo_id"] == repo_id}
    assert {t["id"] for t in got["data"]} == want and all(t == teams[t["id"]] for t in got["data"])
    assert world.call(st, listed.qualified, {"repo_id": repo_id}) == got  # the same every time
    assert world.call(st, listed.qualified, {"repo_id": "no-such-repo"})["data"] == []
    (one,) = st.tables[_table(program.model, "list_teams", "get_my_team_answers")].values()
    got = world.call(st, mine.qualified, {})
    assert got["success"] and got["data"] == teams[one["team"]], got
    assert {k: dict(v) for k, v in st.tables.items()} == before


def test_arguments_named_as_a_key_with_its_noun_name_the_row(tmp_path):
    """An argument named as a resource's key with the resource's noun before it names a row of
    it even where the path gives no type: `{MonitorName}` for monitors keyed by their `Name`
    (an answered read takes it as that key; a write on it is recorded on the row), and an
    integer `gameId` for games whose ids are integers. A posted read on a row of its own
    (`POST /monitor/{Name}/data` named GetMonitorData) is answered, not recorded as a write."""
    monitor = {"type": "object", "properties": {"Name": STR, "Domain": {"type": "string", "example": "example.com"}}}
    game = {"type": "object", "properties": {"id": INT, "venue": STR}}
    mname = {"name": "MonitorName", "in": "path", "required": True, "schema": STR}
    obj = lambda props: {"type": "object", "properties": props}  # noqa: E731
    paths = {
        "/monitors": {"get": {"operationId": "ListMonitors", "responses": {"200": _json(obj({"Monitors": {"type": "array", "items": {"$ref": "#/components/schemas/Monitor"}}}))}}},
        "/monitor/{Name}": {"get": {"operationId": "GetMonitor", "parameters": [{"name": "Name", "in": "path", "required": True, "schema": STR}], "responses": {"200": _json({"$ref": "#/components/schemas/Monitor"})}}},
        "/monitor/{Name}/data": {"post": {"operationId": "GetMonitorData", "parameters": [{"name": "Name", "in": "path", "required": True, "schema": STR}], "requestBody": _body({"Filter": STR}), "responses": {"200": _json(obj({"Events": INT, "Source": STR}))}}},
        "/metrics/{MonitorName}/destinations": {"get": {"operationId": "ListDestinations", "parameters": [mname], "responses": {"200": _json(obj({"Destination": STR, "Status": STR}))}}},
        "/metrics/{MonitorName}/settings": {"patch": {"operationId": "UpdateMetricSettings", "parameters": [mname], "requestBody": _body({"Period": INT}), "responses": DONE}},
        "/games": {"get": {"operationId": "getGames", "responses": _list("#/components/schemas/Game")}},
        "/games/{gameId}": {"get": {"operationId": "getGame", "parameters": [{"name": "gameId", "in": "path", "required": True, "schema": INT}], "responses": {"200": _json({"$ref": "#/components/schemas/Game"})}}},
        "/winprob": {"get": {"operationId": "getWinProbability", "parameters": [{"name": "gameId", "in": "query", "required": True, "schema": INT}], "responses": {"200": _json(obj({"homeWinProbability": {"type": "number"}}))}}},
    }
    kinds, result, program, out = _imported(tmp_path, paths, {"Monitor": monitor, "Game": game})
    assert kinds["POST /monitor/{Name}/data"] == kinds["GET /metrics/{MonitorName}/destinations"] == kinds["GET /winprob"] == "answered", kinds
    assert kinds["PATCH /metrics/{MonitorName}/settings"] == "recorded", kinds
    key = dict(_tool(program.model, "get_monitor").params)["name"]
    assert {n: str(t) for n, t in _tool(program.model, "list_destinations").params} == {"monitor_name": str(key)}
    assert {n: str(t) for n, t in _tool(program.model, "get_win_probability").params} == {"game_id": str(dict(_tool(program.model, "get_game").params)["game_id"])}
    settings = _tool(program.model, "update_metric_settings")
    assert settings.qualified.split(".")[0] == _tool(program.model, "get_monitor").qualified.split(".")[0]
    world = load_world(program.model, str(out / result.world_file))
    st = world.initial_state(1)
    assert not world.call(st, settings.qualified, {"monitor_name": "no-such-monitor", "period": 5})["success"]


@pytest.mark.parametrize(
    "op_id, summary, path, verb",
    [
        ("SendMessage", "", "/messages", "send"),
        ("get_all_posts_changes", "List all post changes", "/posts/all/changes", "get"),  # snake case: no .NET action
        ("Action_POSTamend", "Amend", "/v1/action/amend", "amend"),
        ("Location_CheckNameAvailability", "", "/subscriptions/{s}/checkNameAvailability", "check"),  # .NET: the action after the underscore
        ("Recipients_PostRecipients", "Adds one or more recipients", "/envelopes/{e}/recipients", "add"),  # the action repeats the method: the summary
        ("BatchGetImage", "", "/", "get"),  # `Batch` is no verb
        ("post-payments-captures", "Capture an authorised payment", "/payments/{p}/captures", "capture"),
        (None, "Detailed Facility Report Air Quality", "/dfr_rest_services.get_air_quality", "get"),  # the path's last part, after the dot
        ("abortMultipart", "Abort multipart upload", "/uploads/abort-multipart.json", "abort"),
        (None, "", "/users/searches", "search"),
        ("networkUnblock", "Request a network unblock", "/network-unblock", "unblock"),  # a verb after a noun
        ("genderFullName", "Infer the likely gender of a full name", "/gender/full", "infer"),
        ("twipc", "Insurance Policy - Two Wheeler", "/twipc/certificate", "twipc"),  # no verb anywhere: the id's first word
        ("postThing", "", "/thing", "post"),
    ],
)
def test_the_verb_an_operation_is_named_by(op_id, summary, path, verb):
    """`world_model.first_verb` finds the verb an operation is named by where a spec puts it: the
    operation id, the action of a .NET-style id, the summary, the last part of the path, or a
    later word of the id; with none, the id's first word (which names neither a read nor a write)."""
    from types import SimpleNamespace

    from compoworld_dsl.importers.world_model import first_verb

    assert first_verb(SimpleNamespace(op_id=op_id, summary=summary, path=path, method="post")) == verb


def test_a_gets_write_verb_comes_from_its_name_or_summary():
    """A `GET` is a read unless its operation id's first word or its summary says it writes
    (Etherpad's `createSession`): a write verb in a later word of the id, a .NET action or the
    path is more often a noun (`StatefulSet`, `Prediction_Resolve2`, `/charge-metrics`)."""
    from types import SimpleNamespace

    from compoworld_dsl.importers.world_model import first_verb

    assert first_verb(SimpleNamespace(op_id="watchAppsV1NamespacedStatefulSet", summary="", path="/watch/statefulsets", method="get")) == "watch"
    # a GET's write verb counts only from its id's first word or its summary
    assert first_verb(SimpleNamespace(op_id="GET_ChargeMetrics", summary="List charge metrics", path="/charge-metrics", method="get")) == "get"
    assert first_verb(SimpleNamespace(op_id="Prediction_Resolve2", summary=None, path="/{appId}", method="get")) == "prediction"
    assert first_verb(SimpleNamespace(op_id="createSession", summary="", path="/createSession", method="get")) == "create"
