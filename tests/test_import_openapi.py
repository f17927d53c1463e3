"""`worldc import openapi`: every inference rule on small hand-written specs (tests/fixtures/import/),
the Swagger 2.0 and OpenAPI 3.1 specifics, constructs the language cannot type (a comment and
JSON text, never a traceback), bad input (`FILE: problem`, exit 1), `--force`, and the eight real
specs of /work/shared/specs/openapi (import + check + compile; three of them sampled at 3 hops)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.cli import main as worldc_main
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.importers.common import snake
from compoworld_dsl.importers.openapi import import_openapi
from compoworld_dsl.syntax.format import format_source

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "import"
REAL = Path(os.environ.get("WORLDC_REAL_SPECS", "/work/shared/specs/openapi"))
REAL_SPECS = sorted(REAL.glob("*.yaml")) + sorted(REAL.glob("*.json")) if REAL.is_dir() else []


def run_import(capsys, *argv: str) -> tuple[int, str, str]:
    """`worldc import ...`, in process: (exit code, stdout, stderr)."""
    try:
        code = worldc_main(["import", *argv])
    except SystemExit as e:  # argparse's own usage errors
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def imported(capsys, tmp_path: Path, spec: Path, *extra: str):
    out = tmp_path / spec.stem
    code, stdout, err = run_import(capsys, "openapi", str(spec), "-o", str(out), *extra)
    assert code == 0, stdout + err
    worlds = [f for f in out.glob("*.world") if "\nworld " in "\n" + f.read_text()]
    assert len(worlds) == 1
    program = check_paths([worlds[0]])
    assert program.ok, [d.message for d in program.diagnostics]
    return out, worlds[0], program.model, stdout


def tool(model, name: str):
    found = [t for t in model.tools() if t.name == name]
    assert len(found) == 1, f"{name}: {[t.qualified for t in model.tools()]}"
    return found[0]


def params(t) -> dict[str, str]:
    return {n: str(pt) for n, pt in t.params}


# ─────────────────────────── the inference rules (helpdesk.yaml) ───────────────────────────


@pytest.fixture(scope="module")
def helpdesk(tmp_path_factory):
    import io
    import sys

    out = tmp_path_factory.mktemp("helpdesk")
    old, sys.stdout = sys.stdout, io.StringIO()
    try:
        assert worldc_main(["import", "openapi", str(FIX / "helpdesk.yaml"), "-o", str(out)]) == 0
        report = sys.stdout.getvalue()
    finally:
        sys.stdout = old
    world_file = out / "helpdesk_world.world"
    program = check_paths([world_file])
    assert program.ok
    return out, program.model, report, (out / "helpdesk.world").read_text()


def test_files_and_check(helpdesk):
    out, model, report, text = helpdesk
    assert sorted(p.name for p in out.iterdir()) == ["helpdesk.world", "helpdesk_world.world"]
    assert "worldc check: " in report and "ok (4 services, 13 tools)" in report
    for f in out.glob("*.world"):  # written canonically: `worldc fmt --check` passes
        assert format_source(f.read_text(), str(f)) == f.read_text()
    assert model.world.name == "helpdesk_world"
    assert set(model.world.services) == {"helpdesk_customers", "helpdesk_tickets", "helpdesk_notes", "helpdesk"}


def test_resources_become_tables_with_key_aliases(helpdesk):
    _, model, _, text = helpdesk
    for alias in ("CustomerId", "TicketId", "NoteId"):
        assert f"type {alias} = id" in text
    tickets = model.services["helpdesk_tickets"]
    assert "tickets" in tickets.state
    assert "// a ticket: GET /tickets/{ticketId} returns one Ticket with the id-like property id" in text
    # the envelope {status_code, data: Customer} is unwrapped: the table holds customers
    assert "record Customer known by name {" in text


def test_get_by_id(helpdesk):
    _, model, _, text = helpdesk
    t = tool(model, "get_ticket")
    assert params(t) == {"ticket_id": "TicketId"} and str(t.result) == "Ticket"
    assert "// GET /tickets/{ticketId}: get by id" in text
    assert 'require ticket_id in tickets else not_found "no ticket {ticket_id}"' in text
    assert t.decl.description == "Get one ticket"  # the summary's first line, trimmed
    assert 'say "look up ticket {ticket_id}"' in text and 'gives "ticket {ticket_id}"' in text


def test_list_with_filters(helpdesk):
    _, model, _, text = helpdesk
    t = tool(model, "list_tickets")
    # status (an enum) and subject (text, blank = any) name fields; per_page is paging;
    # createdAfter names no field
    assert params(t) == {"status": "TicketStatus", "subject": "text"}
    assert str(t.result) == "list[Ticket]"
    assert 'filter(r_ in tickets where r_.status == status and (subject == "" or r_.subject == subject))' in text
    assert "query parameters left out: createdAfter (names no field)" in text
    assert params(tool(model, "list_customers")) == {}  # paging only


def test_create_update_delete(helpdesk):
    _, model, _, text = helpdesk
    create = tool(model, "create_ticket")
    assert list(params(create)) == ["subject", "customer_id", "status", "priority"]  # required first; readOnly id left out
    assert params(create)["customer_id"] == "CustomerId"
    assert create.inserts == {"tickets"}
    assert "body properties left out (no field of the record, or read-only): id" in text
    update = tool(model, "update_ticket")
    assert params(update) == {"ticket_id": "TicketId", "status": "TicketStatus", "subject": "text"}
    assert {f for _, f in update.writes} == {"subject", "status"}
    assert "subject: if subject == \"\" then tickets[ticket_id].subject else subject" in text
    delete = tool(model, "delete_ticket")
    assert delete.deletes == {"tickets"} and delete.decl.result is None


def test_nested_resource_and_references(helpdesk):
    _, model, _, text = helpdesk
    # /customers/{customerId}/notes: the path parameter becomes a reference to the customer
    assert "customer_id: CustomerId" in text.split("record Note")[1].split("\n  }")[0]
    assert "customer_id: ref helpdesk_customers.customers" in text
    get_note = tool(model, "get_customer_note")
    assert params(get_note) == {"customer_id": "CustomerId", "note_id": "NoteId"}
    assert 'require notes[note_id].customer_id == customer_id else not_found' in text
    assert params(tool(model, "list_customer_notes")) == {"customer_id": "CustomerId"}
    # Ticket.customer_id refers to a customer by its name
    assert "// refers to a customer (inferred from the field's name)" in text
    assert str(tool(model, "add_customer_note").result) == "Note"


def test_actions_are_recorded_or_simulated_with_a_contract(helpdesk):
    _, model, report, text = helpdesk
    # an action on a row: recorded by the world model (tests/test_import_world_model.py)
    esc = tool(model, "escalate_ticket")
    assert not esc.simulated and params(esc) == {"ticket_id": "TicketId", "reason": "text"}
    assert "// POST /tickets/{ticketId}/escalate: recorded: an action on one ticket" in text
    assert "insert escalate_ticket_calls" in text.split("tool escalate_ticket")[1]
    # a read whose answer is an object: looked up in the world model's seeded answers (one row: no argument)
    health = tool(model, "get_health")
    assert not health.simulated and health.service == "helpdesk" and str(health.result) == "HealthAnswer"
    assert "seed get_health_answers: 1 rows {" in text
    # a read whose answer is a link to a file the state does not hold: simulated, its contract only
    export = tool(model, "export_tickets")
    assert export.simulated and str(export.result) == "text"
    assert "HEAD /tickets" in report and "HEAD requests are not modelled" in report
    assert "skipped (1):" in report and "simulated (1):" in report and "world model (2):" in report and "CRUD (10):" in report


def test_schema_shapes(helpdesk):
    _, model, _, text = helpdesk
    ticket = text.split("record Ticket")[1].split("\n  }")[0]
    assert "status: TicketStatus = open" in ticket  # a component enum, declared once
    assert "enum TicketStatus { open, pending, solved, closed }" in text
    assert "tags: text" in ticket and "kept as comma-separated text" in ticket  # array of scalars
    assert "due_on: date" in ticket and "nullable in the API" in ticket
    assert "amount_owed: money" in ticket  # a number named like money
    # a oneOf of two objects is one object with the fields of both (a user or a team assigned)
    assert 'assignee_user_id: text = ""' in ticket and 'assignee_team_id: text = ""' in ticket
    customer = text.split("record Customer")[1].split("\n  }")[0]
    assert "address_city: text" in customer and "flattened into address_*" in customer
    assert "// JSON text: a free-form object (a map of names to values)" in customer
    assert "email: email" in customer


def test_seeds_are_plausible(helpdesk):
    out, model, _, _ = helpdesk
    world = load_world(model, str(out / "helpdesk_world.world"))
    st = world.initial_state(3)
    customers = st.tables["helpdesk_customers.customers"]
    assert 4 <= len(customers) <= 8
    names = {r["name"] for r in customers.values()}
    assert names and all(isinstance(n, str) and n.strip() for n in names)
    notes = st.tables["helpdesk_notes.notes"]
    assert all(n["customer_id"] in customers for n in notes.values())  # `ref` to the parent
    assert all(t["customer_id"] in customers for t in st.tables["helpdesk_tickets.tickets"].values())


def test_generated_tools_behave_like_the_api(helpdesk):
    out, model, _, _ = helpdesk
    world = load_world(model, str(out / "helpdesk_world.world"))
    st = world.initial_state(1)
    cust = sorted(st.tables["helpdesk_customers.customers"])[0]
    made = world.call(st, "helpdesk_tickets.create_ticket", {"subject": "Printer on fire", "customer_id": cust})
    assert made["success"], made
    tid = made["data"]["id"]
    assert world.call(st, "helpdesk_tickets.create_ticket", {"subject": "  ", "customer_id": cust})["error"]["code"] == 400
    got = world.call(st, "helpdesk_tickets.get_ticket", {"ticket_id": tid})["data"]
    assert got["subject"] == "Printer on fire" and got["status"] == "open"
    upd = world.call(st, "helpdesk_tickets.update_ticket", {"ticket_id": tid, "status": "solved"})["data"]
    assert upd["status"] == "solved" and upd["subject"] == "Printer on fire"  # blank keeps the field
    listed = world.call(st, "helpdesk_tickets.list_tickets", {"status": "solved", "subject": "Printer on fire"})["data"]
    assert [t["id"] for t in listed] == [tid]
    assert world.call(st, "helpdesk_tickets.delete_ticket", {"ticket_id": tid})["success"]
    assert world.call(st, "helpdesk_tickets.get_ticket", {"ticket_id": tid})["error"]["code"] == 404
    note = sorted(st.tables["helpdesk_notes.notes"].values(), key=lambda r: r["id"])[0]
    other = next(c for c in sorted(st.tables["helpdesk_customers.customers"]) if c != note["customer_id"])
    wrong = world.call(st, "helpdesk_notes.get_customer_note", {"customer_id": other, "note_id": note["id"]})
    assert wrong["error"]["code"] == 404 and "is not in customer" in wrong["error"]["message"]
    before = {k: dict(v) for k, v in st.tables.items() if not k.startswith("helpdesk_tickets")}
    some = sorted(st.tables["helpdesk_tickets.tickets"])[0]
    assert world.call(st, "helpdesk_tickets.escalate_ticket", {"ticket_id": some, "reason": "angry"})["success"]
    assert {k: dict(v) for k, v in st.tables.items() if not k.startswith("helpdesk_tickets")} == before


def test_samples_three_hop_tasks(helpdesk, tmp_path, monkeypatch, capsys):
    out, _, _, _ = helpdesk
    monkeypatch.chdir(out)  # `cd DIR && worldc sample`: the one world file is found
    tasks = tmp_path / "tasks.jsonl"
    code = worldc_main(["sample", "--hops", "3", "-n", "3", "--seed", "1", "-o", str(tasks)])
    capsys.readouterr()
    assert code == 0
    lines = [json.loads(line) for line in tasks.read_text().splitlines()]
    assert len(lines) == 3 and all(t["hops"] == 3 and len(t["reference_plan"]) == 3 for t in lines)


# ─────────────────────────── Swagger 2.0, OpenAPI 3.1, what cannot be typed ───────────────────────────


def test_swagger2(capsys, tmp_path):
    out, _, model, report = imported(capsys, tmp_path, FIX / "shop_swagger2.yaml")
    text = (out / "shop.world").read_text()
    # `in: body` → the create's parameters; the header token and the paging `limit` are not parameters
    assert list(params(tool(model, "place_order"))) == ["buyer", "state", "gift_note", "total"]
    search = tool(model, "search_orders")
    assert params(search) == {"state": "OrderState", "buyer": "text"}  # the array that holds orders, not warnings
    assert "total: int" in text  # `type: number, format: int`
    assert "nullable in the API: blank stands for null" in text  # x-nullable
    assert "key order_id: OrderId" in text
    upload = tool(model, "upload_invoice")  # formData with a file: recorded (the world model), typed
    assert not upload.simulated and params(upload) == {"order_id": "OrderId", "file": "text", "note": "text"}
    assert "Swagger 2.0" in report


def test_openapi31(capsys, tmp_path):
    out, _, model, report = imported(capsys, tmp_path, FIX / "notes_v31.json")
    rec = (out / "notebook.world").read_text().split("record Notebook")[1].split("\n  }")[0]
    assert "subtitle: text" in rec and "pages: int = 1" in rec  # ["integer", "null"], minimum 1
    assert rec.count("nullable in the API") == 3  # subtitle, pages, archived (anyOf with null)
    assert "mixed: text" in rec and "one of the types string, integer, kept as text" in rec
    assert "kind: NotebookKind = notebook" in rec  # const
    # a $ref with siblings: the description and `nullable` are kept
    assert "owner (Who keeps it): a nested object, flattened into owner_*, nullable" in rec
    assert "owner_email: email" in rec
    assert "OpenAPI 3.1.0" in report
    assert {t.name for t in model.tools()} == {"notebooks_list", "notebooks_get", "notebooks_delete"}


def test_unsupported_constructs_become_commented_json_text(capsys, tmp_path):
    out, _, model, report = imported(capsys, tmp_path, FIX / "forum_cycles.yaml")
    rec = (out / "forum.world").read_text().split("record Post")[1].split("\n  }")[0]
    assert "// JSON text: circular $ref '#/components/schemas/Post'" in rec  # a post's parent post
    assert "circular $ref '#/components/schemas/A'" in rec  # A → B → A
    assert "external $ref 'https://example.com/schemas/user.json' is not followed" in rec
    assert "$ref '#/components/schemas/DoesNotExist' points at nothing" in rec
    assert "notes (3):" in report and "external $ref 'other.yaml#/Flag' is not followed" in report
    flag = tool(model, "flag_post")  # recorded (the world model)
    assert not flag.simulated and params(flag) == {"post_id": "PostId", "body": "text"}


BAD = [
    ("no_paths.yaml", "no `paths`"),
    ("bad_yaml.yaml", "not valid YAML (line 3"),
    ("a_list.json", "the top level is not a mapping"),
    ("swagger12.json", "no `openapi` or `swagger` version field"),
    ("truncated.json", "not valid JSON (line 1"),
]


@pytest.mark.parametrize("name,problem", BAD)
def test_not_a_spec_exits_1_with_file_and_problem(capsys, tmp_path, name, problem):
    code, out, err = run_import(capsys, "openapi", str(FIX / name), "-o", str(tmp_path / "o"))
    assert code == 1
    assert err.startswith(f"worldc: error: {FIX / name}: ") and problem in err
    assert "Traceback" not in err and err.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_usage_errors(capsys, tmp_path):
    code, _, err = run_import(capsys, "openapi", str(tmp_path / "missing.yaml"), "-o", str(tmp_path / "o"))
    assert code == 2 and "worldc: error: no such file" in err
    code, _, err = run_import(capsys, "openapi", str(FIX / "helpdesk.yaml"))
    assert code == 2 and "-o/--output" in err


def test_existing_files_need_force(capsys, tmp_path):
    out = tmp_path / "o"
    assert run_import(capsys, "openapi", str(FIX / "shop_swagger2.yaml"), "-o", str(out))[0] == 0
    (out / "shop.world").write_text("// edited by hand\n")
    code, _, err = run_import(capsys, "openapi", str(FIX / "shop_swagger2.yaml"), "-o", str(out))
    assert code == 2 and "not overwriting" in err and "--force" in err
    assert (out / "shop.world").read_text() == "// edited by hand\n"
    assert run_import(capsys, "openapi", str(FIX / "shop_swagger2.yaml"), "-o", str(out), "--force")[0] == 0
    assert "service shop_orders" in (out / "shop.world").read_text()


def test_names_are_safe():
    assert snake("iCalUID") == "i_cal_uid" and snake("HTMLBody") == "html_body"
    assert snake("X-Postmark-Server-Token") == "x_postmark_server_token" and snake("Templates API") == "templates_api"
    assert snake("$.xgafv") == "xgafv" and snake("2fa") == "n2fa"
    # a virtual CPU is one word: AWS Batch's `unmanagedvCpus` was said "unmanagedv cpus" (stop 67)
    assert snake("unmanagedvCpus") == "unmanaged_vcpus" and snake("maxvCpus") == "max_vcpus" and snake("vCPUs") == "vcpus"


# ─────────────────────────── the real specs ───────────────────────────

needs_real = pytest.mark.skipif(not REAL_SPECS, reason=f"no real specs in {REAL}")


@needs_real
@pytest.mark.parametrize("spec", REAL_SPECS, ids=lambda p: p.stem)
def test_real_spec_imports_checks_and_compiles(capsys, tmp_path, spec):
    out, world_file, model, report = imported(capsys, tmp_path, spec)
    assert "worldc check: " in report and ": ok (" in report
    result = import_openapi(spec)
    ops = len(result.ops)
    assert ops == len(result.crud) + len(result.modelled) + len(result.simulated) + len(result.skipped) > 0
    assert result.crud, "no CRUD operation was recognised"
    world = load_world(model, str(world_file))
    st = world.initial_state(1)
    assert any(st.tables.values()), "the seeds give no rows"
    for f in out.glob("*.world"):
        assert format_source(f.read_text(), str(f)) == f.read_text()


SAMPLED = ["googleapis.com-tasks-v1", "xero.com-xero_bankfeeds-2.9.4", "ebay.com-sell-fulfillment-1.3.0"]


@needs_real
@pytest.mark.parametrize("stem", SAMPLED)
def test_real_spec_samples_three_hop_tasks(capsys, tmp_path, monkeypatch, stem):
    spec = REAL / f"{stem}.yaml"
    if not spec.exists():
        pytest.skip(f"{spec} is missing")
    out, _, _, _ = imported(capsys, tmp_path, spec)
    monkeypatch.chdir(out)
    tasks = tmp_path / "tasks.jsonl"
    code = worldc_main(["sample", "--hops", "3", "-n", "3", "--seed", "1", "-o", str(tasks)])
    capsys.readouterr()
    assert code == 0
    assert len(tasks.read_text().splitlines()) == 3


# ─────────────────────────── robustness ───────────────────────────


def _nodes(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _nodes(v, path + (i,))


def _mutate(doc, path, how):
    import copy

    doc = copy.deepcopy(doc)
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    last = path[-1]
    if how == "drop" and isinstance(parent, dict):
        del parent[last]
    else:
        parent[last] = {"none": None, "text": "x", "list": [1, {}], "empty": {}, "ref": {"$ref": "#/nowhere"}, "self": {"$ref": "#"}}.get(how, None)
    return doc


def test_odd_paths(capsys, tmp_path):
    out, _, model, report = imported(capsys, tmp_path, FIX / "odd_paths.yaml")
    job = tool(model, "get_job")  # `{name=projects/*/jobs/*}` is the job's id
    assert params(job) == {"name": "JobId"} and not job.simulated
    cancel = [t for t in model.tools() if t.name == "get_job_2"][0]  # `{name}:cancel`: an action, and a duplicate operationId
    assert not cancel.simulated and params(cancel) == {"name": "JobId"}  # recorded (the world model)
    assert params(tool(model, "get_spec")) == {"provider": "text", "api": "text"}  # `{api}.json`
    text = (out / "odd_beta.world").read_text()
    assert "// 名前 in the API" in text and "count_value: int" in text and "if_value: bool" in text
    assert "enum JobState { running, done, failed }" in text and "the API's values: RUNNING, DONE, FAILED!" in text


@pytest.mark.parametrize("name", ["helpdesk.yaml", "shop_swagger2.yaml", "notes_v31.json"])
def test_mutated_specs_never_crash(tmp_path, name):
    """Damage a spec at random places (a subtree dropped, replaced by null, text, a list, an empty
    object or a broken $ref): the import either refuses it as not a spec or writes files that check."""
    import random

    import yaml

    from compoworld_dsl.importers.common import SpecError, check_output, write_files

    doc = yaml.safe_load((FIX / name).read_text())
    paths = [p for p in _nodes(doc) if p]
    rng = random.Random(f"mutate:{name}")
    outcomes = {"imported": 0, "refused": 0}
    for i in range(14):
        path = rng.choice(paths)
        how = rng.choice(["drop", "none", "text", "list", "empty", "ref", "self"])
        spec = tmp_path / f"m{i}.json"
        spec.write_text(json.dumps(_mutate(doc, path, how), default=str))
        try:
            result = import_openapi(spec)
        except SpecError:
            outcomes["refused"] += 1
            continue
        out = tmp_path / f"out{i}"
        write_files(out, result.files, force=True)
        ok, summary, diags = check_output(out / result.world_file)
        assert ok, f"{path} → {how}: {summary}\n" + "\n".join(diags[:3])
        outcomes["imported"] += 1
    assert outcomes["imported"] > 0


def test_docs_example_runs(capsys, tmp_path, monkeypatch):
    """docs/import.md: the example spec imports into exactly the two files the page shows, with
    the report it shows (but for the seconds)."""
    import re

    doc = (ROOT / "docs" / "import.md").read_text()
    blocks = {m.group(2): m.group(3) for m in re.finditer(r"^```(\w+) file=(\S+)\n(.*?)^```$", doc, re.M | re.S)}
    assert set(blocks) == {"library.yaml", "library.world", "library_world.world"}
    (tmp_path / "library.yaml").write_text(blocks["library.yaml"])
    monkeypatch.chdir(tmp_path)
    code, report, err = run_import(capsys, "openapi", "library.yaml", "-o", "library")
    assert code == 0, err
    for name in ("library.world", "library_world.world"):
        assert (tmp_path / "library" / name).read_text() == blocks[name], name
    shown = re.search(r"^```text\n(imported library\.yaml.*?)^```$", doc, re.M | re.S).group(1)
    seconds = re.compile(r"import [\d.]+ s, check [\d.]+ s")
    assert seconds.sub("", report) == seconds.sub("", shown)


def test_name_and_lists_options(capsys, tmp_path):
    out, world_file, model, _ = imported(capsys, tmp_path, FIX / "helpdesk.yaml", "--name", "Support Desk", "--lists")
    assert world_file.name == "support_desk_world.world" and (out / "support_desk.world").exists()
    assert "support_desk_tickets" in model.services
    ticket = (out / "support_desk.world").read_text().split("record Ticket")[1].split("\n  }")[0]
    assert "tags: list[text]" in ticket  # --lists: the array stays a list
