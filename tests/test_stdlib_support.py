"""The customer-support and sales/CRM domains of the library (stdlib/support, stdlib/crm) and the
support world built on them: every file checks clean and is formatted, each service is a real
API's worth of tools that say what they do, its seeded rows are ones its own tools accept and
agree where they refer to each other, the house rules hold on the seeded state, and the world
samples 3-hop tasks that verify."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.check import types as T
from compoworld_dsl.cli import main
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.sample.checker import _constraint_holds
from compoworld_dsl.syntax import ast as A

ROOT = Path(__file__).resolve().parent.parent
SUPPORT = ["customers", "tickets", "kb", "sla", "surveys", "livechat"]
CRM = ["accounts", "leads", "opportunities", "quotes", "campaigns"]
FILES = {name: ROOT / "stdlib" / "support" / f"{name}.world" for name in SUPPORT} | {name: ROOT / "stdlib" / "crm" / f"{name}.world" for name in CRM}
WORLD = ROOT / "worlds" / "support.world"
SEEDS = range(6)


def _day(d: date) -> int:
    """A date as the runtime state holds it: days since 1970-01-01."""
    return (d - date(1970, 1, 1)).days


TODAY = _day(date(2025, 3, 14))

def _messages(program) -> str:
    return "\n".join(f"{d.span}: {d.code} {d.message}" for d in program.diagnostics)


@pytest.fixture(scope="module")
def programs():
    return {name: check_paths([path]) for name, path in FILES.items()}


@pytest.fixture(scope="module")
def world_program():
    return check_paths([WORLD])


@pytest.fixture(scope="module")
def world(world_program):
    return load_world(world_program.model, str(WORLD))


# ─────────────────────────── files ───────────────────────────


@pytest.mark.parametrize("name", sorted(FILES))
def test_file_checks_clean_and_is_formatted(name, programs):
    program = programs[name]
    assert program.diagnostics == [], _messages(program)
    assert name in program.model.services
    assert main(["fmt", "--check", str(FILES[name])]) == 0
    assert FILES[name].read_text(encoding="utf-8").startswith(f"// stdlib/{FILES[name].parent.name}/{name}.world: ")


def test_world_checks_clean_and_is_formatted(world_program):
    assert world_program.diagnostics == [], _messages(world_program)
    model = world_program.model
    assert model.world.name == "support"
    assert set(model.world.services) == set(FILES) | {"contacts", "tasks", "calendar", "files"}
    assert len(model.world.services) >= 15
    assert main(["fmt", "--check", str(WORLD)]) == 0


def test_world_rules_span_services(world_program):
    rules = {c.name: c for c in world_program.model.world.constraints}
    assert {"legal_hold", "always_assigned", "suspended_customers", "closed_tickets_stay_closed", "survey_after_solve", "handoff_same_customer", "reply_before_solve", "discount_approval", "closed_deals_final", "respect_opt_out"} == set(rules)
    cross = []
    for name, decl in rules.items():
        services = {n.name for n in A.walk(decl) if isinstance(n, A.Var) and n.name in world_program.model.services}
        services |= {c.table[0] for c in A.walk_clauses(decl.clauses) if isinstance(c, A.Untouched) and len(c.table) == 2}
        services |= {c.domain[0] for c in A.walk_clauses(decl.clauses) if isinstance(c, A.ForallClause) and len(c.domain) == 2}
        assert decl.description, name
        if len(services) >= 2:
            cross.append(name)
    assert len(cross) >= 4, cross


# ─────────────────────────── services ───────────────────────────


@pytest.mark.parametrize("name", sorted(FILES))
def test_service_is_a_real_api(name, programs):
    svc = programs[name].model.services[name]
    assert 14 <= len(svc.tools) <= 20, (name, len(svc.tools))
    stored = {m.type.elem.name for m in svc.decl.members if isinstance(m, A.StateDecl) and isinstance(m.type, A.TableType)}
    records = {m.name: m for m in svc.decl.members if isinstance(m, A.RecordDecl)}
    assert stored and stored <= set(records)
    for rec in stored:
        assert records[rec].noun and records[rec].known_by, (name, rec)
        key = next(f for f in records[rec].fields if f.is_key)
        assert key.name not in records[rec].known_by
    kinds = {"reads": 0, "writes": 0, "deletes": 0}
    for tool in svc.tools.values():
        assert tool.decl.description and tool.decl.say, tool.qualified
        changes = tool.writes or tool.inserts or tool.deletes
        kinds["writes" if changes else "reads"] += 1
        kinds["deletes"] += bool(tool.deletes)
        if not changes and tool.decl.result is not None:
            assert tool.decl.gives, tool.qualified
    assert kinds["reads"] >= 5 and kinds["writes"] >= 6 and kinds["deletes"] >= 1, (name, kinds)


def _single_key_tools(svc, model):
    """(tool, table) for each tool whose only parameter is the key of one of its service's tables."""
    keyed = {}
    for m in svc.decl.members:
        if isinstance(m, A.StateDecl) and isinstance(m.type, A.TableType):
            rec = next(r for r in svc.decl.members if isinstance(r, A.RecordDecl) and r.name == m.type.elem.name)
            key = next(f for f in rec.fields if f.is_key)
            keyed[key.type.path[-1]] = (m.name, key.name, rec.name)
    for tool in svc.tools.values():
        if len(tool.params) == 1 and isinstance(tool.params[0][1], T.Alias) and tool.params[0][1].name in keyed:
            yield tool, keyed[tool.params[0][1].name]


# The tables a help desk and a CRM have many rows of, seeded long so that their lists page
# (D44: a deep task's calls beyond its hops come from reading); the others stay hand-checkable.
LONG = {
    "tickets.tickets": (36, 48),
    "surveys.surveys": (20, 30),
    "opportunities.opportunities": (24, 36),
    "campaigns.members": (20, 45),  # (30-45 drawn; a lead is in a campaign once: `distinct by`)
}


@pytest.mark.parametrize("name", sorted(FILES))
def test_seeded_rows_are_accepted_by_their_own_tools(name, programs):
    """A look-up by id finds every seeded row, and every write that takes only a row's key
    accepts some seeded row (the seeds hold rows in every state the tools work on)."""
    program = programs[name]
    svc = program.model.services[name]
    compiled = load_world(program.model, str(FILES[name]))
    states = [compiled.initial_state(seed) for seed in SEEDS]
    for st in states:
        for table in {t for _, (t, _, _) in _single_key_tools(svc, program.model)}:
            rows = st.tables[f"{name}.{table}"]
            low, high = LONG.get(f"{name}.{table}", (3, 26))
            assert low <= len(rows) <= high, (table, len(rows))
    tried = 0
    for tool, (table, key_field, record) in _single_key_tools(svc, program.model):
        param = tool.params[0][0]
        changes = tool.writes or tool.inserts or tool.deletes
        if not changes:
            if not isinstance(tool.result, T.RecordT) or tool.result.name != record:
                continue  # a read of another record (the most viewed article of a section)
            for st in states:
                for key in st.tables[f"{name}.{table}"]:
                    got = compiled.call(st.snapshot(), tool.qualified, {param: key})
                    assert got["success"], (tool.qualified, key, got)
                    assert got["data"][key_field] == key
            tried += 1
        else:
            ok = any(compiled.call(st.snapshot(), tool.qualified, {param: key})["success"] for st in states for key in st.tables[f"{name}.{table}"])
            assert ok, f"{tool.qualified} refuses every seeded row of {table}"
            tried += 1
    assert tried >= 3, name


def test_seeded_rows_agree_across_services(world):
    for seed in SEEDS:
        st = world.initial_state(seed)
        tb = st.tables
        for o in tb["customers.organisations"].values():
            account = tb["accounts.accounts"][o["account"]]
            assert o["name"] == account["name"] and o["legal_hold"] == account["legal_hold"]
        for t in tb["tickets.tickets"].values():
            assert t["organisation"] == tb["customers.customers"][t["requester"]]["organisation"]
            assert t["assignee"] in tb["tickets.agents"]  # seeded tickets are all assigned
        for s in tb["surveys.surveys"].values():
            ticket = tb["tickets.tickets"][s["ticket"]]
            assert (s["customer"], s["agent"]) == (ticket["requester"], ticket["assignee"])
        for q in tb["quotes.quotes"].values():
            assert q["account"] == tb["opportunities.opportunities"][q["opportunity"]]["account"]
        for o in tb["opportunities.opportunities"].values():
            assert o["owner"] == tb["accounts.accounts"][o["account"]]["owner"]


def test_house_rules_hold_on_the_seeded_state(world):
    names = [n for n in world.constraints]
    assert len(names) >= 10
    for seed in SEEDS:
        st = world.initial_state(seed)
        for name in names:
            ok, why = _constraint_holds(world, name, st, st)
            assert ok, (seed, name, why)


def _first(world, pick):
    """The first seeded state (seeds 0..29) holding a row `pick` finds, and that row's key."""
    for seed in range(30):
        st = world.initial_state(seed)
        key = pick(st.tables)
        if key is not None:
            return st, key
    raise AssertionError("no seeded state holds such a row")


def test_rules_decide_what_the_services_allow(world):
    """The services allow what only a house rule forbids: reopening a long-closed ticket,
    sending a deep discount nobody approved, unassigning a VIP's ticket."""
    st, old = _first(world, lambda tb: next((k for k, t in tb["tickets.tickets"].items() if t["status"] == "closed" and t["updated"] < TODAY - 30 and not t["merged_into"]), None))
    after = st.snapshot()
    assert world.call(after, "tickets.reopen_ticket", {"id": old})["success"]
    ok, why = _constraint_holds(world, "closed_tickets_stay_closed", st, after)
    assert not ok and old in why

    st, quote = _first(world, lambda tb: next((k for k, q in tb["quotes.quotes"].items() if q["status"] == "draft" and q["valid_until"] > TODAY and any(line["quote"] == k for line in tb["quotes.lines"].values())), None))
    after = st.snapshot()
    assert world.call(after, "quotes.set_discount", {"id": quote, "discount": 35})["success"]
    assert world.call(after, "quotes.send_quote", {"id": quote, "recipient": "buyer@corp.example"})["success"]
    assert not _constraint_holds(world, "discount_approval", st, after)[0]
    after = st.snapshot()
    assert world.call(after, "quotes.set_discount", {"id": quote, "discount": 35})["success"]
    assert world.call(after, "quotes.approve_discount", {"id": quote, "approved_by": "Rita Alvarez"})["success"]
    assert world.call(after, "quotes.send_quote", {"id": quote, "recipient": "buyer@corp.example"})["success"]
    assert _constraint_holds(world, "discount_approval", st, after)[0]

    def vip_ticket(tb):
        vips = {k for k, c in tb["customers.customers"].items() if c["vip"] and not c["suspended"]}
        held = {k for k, o in tb["customers.organisations"].items() if o["legal_hold"]}
        return next((k for k, t in tb["tickets.tickets"].items() if t["requester"] in vips and t["organisation"] not in held and t["status"] in ("open", "pending")), None)

    st, ticket = _first(world, vip_ticket)
    after = st.snapshot()
    assert world.call(after, "tickets.unassign_ticket", {"id": ticket})["success"]
    assert not _constraint_holds(world, "always_assigned", st, after)[0]
    assert _constraint_holds(world, "legal_hold", st, after)[0]


# ─────────────────────────── sampling ───────────────────────────


def test_world_samples_three_hop_tasks_that_verify(tmp_path, capsys):
    out = tmp_path / "support.jsonl"
    assert main(["sample", str(WORLD), "--hops", "3", "-n", "4", "--seed", "2", "-o", str(out)]) == 0
    tasks = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(tasks) == 4
    assert all(len(t["reference_plan"]) == 3 for t in tasks)
    assert all(len(t["services"]) >= 2 for t in tasks)
    # records are named by description, never by id
    assert not any("ticket-" in t["instruction"] or "account-" in t["instruction"] for t in tasks)
    assert any(t["constraints"] for t in tasks)  # some task carries a load-bearing house rule
    capsys.readouterr()
    code = main(["verify", str(WORLD), str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "4 of 4 tasks verified" in err
