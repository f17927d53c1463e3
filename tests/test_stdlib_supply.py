"""The supply-chain and finance domains of the library (stdlib/supply, stdlib/finance) and the
15-service world built on them (worlds/supply_chain.world): every file checks clean and is
formatted; every service seeds rows its own tools accept and that agree across services; each
house rule is the only thing that stops a plan the services let through; and the world samples
3-hop tasks that verify."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.cli import main
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.sample import checker as C
from compoworld_dsl.syntax import ast as A

ROOT = Path(__file__).resolve().parent.parent
SUPPLY = ["catalog", "suppliers", "inventory", "purchasing", "orders", "shipments", "returns"]
FINANCE = ["invoices", "payments", "ledger", "budgets"]
FILES = [ROOT / "stdlib" / "supply" / f"{n}.world" for n in SUPPLY] + [ROOT / "stdlib" / "finance" / f"{n}.world" for n in FINANCE]
WORLD = ROOT / "worlds" / "supply_chain.world"
OURS = SUPPLY + FINANCE
SEEDS = range(6)


@pytest.fixture(scope="module")
def program():
    p = check_paths([WORLD])
    assert p.ok, [d.message for d in p.diagnostics]
    return p


@pytest.fixture(scope="module")
def world(program):
    return load_world(program.model)


@pytest.fixture(scope="module")
def states(world):
    return [world.initial_state(seed) for seed in SEEDS]


# ─────────────────────────── files ───────────────────────────


@pytest.mark.parametrize("path", FILES + [WORLD], ids=lambda p: p.stem)
def test_checks_with_no_diagnostics(path):
    p = check_paths([path])
    assert p.diagnostics == [], "\n".join(f"{d.span}: {d.code} {d.message}" for d in p.diagnostics)


@pytest.mark.parametrize("path", FILES + [WORLD], ids=lambda p: p.stem)
def test_is_formatted(path):
    assert main(["fmt", "--check", str(path)]) == 0


def test_world_has_fifteen_services_and_its_house_rules(program):
    w = program.model.world
    assert w.name == "supply_chain"
    assert set(w.services) == set(OURS) | {"contacts", "tasks", "files", "calendar"}
    assert {c.name for c in w.constraints} == {
        "blocked_suppliers",
        "no_reorder_discontinued",
        "holds_stop_fulfilment",
        "credit_hold_ships_nothing",
        "closed_warehouses",
        "closed_periods",
        "goods_back_first",
        "approve_before_send",
        "commit_before_approval",
    }


# ─────────────────────────── seeds ───────────────────────────

GETS = {
    "catalog.get_product": "catalog.products",
    "suppliers.get_supplier": "suppliers.suppliers",
    "inventory.get_warehouse": "inventory.warehouses",
    "inventory.get_stock": "inventory.stock",
    "purchasing.get_po": "purchasing.orders",
    "orders.get_customer": "orders.customers",
    "orders.get_order": "orders.orders",
    "shipments.get_shipment": "shipments.shipments",
    "returns.get_return": "returns.returns",
    "invoices.get_invoice": "invoices.invoices",
    "payments.get_payment": "payments.receipts",
    "payments.get_supplier_payment": "payments.supplier_payments",
    "ledger.get_account": "ledger.accounts",
    "ledger.get_entry": "ledger.entries",
    "budgets.get_budget": "budgets.budgets",
}


# The tables D44 lengthened so that a warehouse's or a supplier's list runs to several pages
# (a deep walk then pages through it); every other table keeps a hand-checkable size.
LONG = {"purchasing.orders": (30, 40), "purchasing.lines": (30, 48), "shipments.shipments": (30, 40)}  # (lines: 36-48 drawn, a product once a PO)


def test_every_table_is_seeded_with_five_to_fifteen_rows(world, states):
    for st in states:
        for table, rows in st.tables.items():
            if table.split(".")[0] in OURS:
                low, high = LONG.get(table, (4, 15))
                assert low <= len(rows) <= high, (table, len(rows))


def test_a_seeded_row_is_found_by_id(world, states):
    for st in states:
        for tool, table in GETS.items():
            assert st.tables[table], table
            for key in st.tables[table]:
                got = world.call(st, tool, {"id": key})
                assert got["success"], (tool, key, got)
                assert got["data"]["id"] == key


def test_references_between_services_point_at_seeded_rows(world, states):
    """Every key a seeded row holds names a row of the table it refers to (an empty return or
    invoice reference means none)."""
    key_table = {}
    for table, decl in world.state_decl.items():
        if decl["kind"] == "table":
            kt = world.types.records[decl["record"]][decl["key"]]
            key_table.setdefault(kt, table)
    checked = 0
    for st in states:
        for table, rows in st.tables.items():
            if table.split(".")[0] not in OURS:
                continue
            fields = world.types.records[world.state_decl[table]["record"]]
            key = world.state_decl[table]["key"]
            for row in rows.values():
                for f, ft in fields.items():
                    target = key_table.get(ft)
                    if f == key or target is None or row[f] == "":
                        continue
                    assert row[f] in st.tables[target], (table, f, row[f])
                    checked += 1
    assert checked > 300


def test_seeded_rows_agree_where_a_person_expects_them_to(states):
    for st in states:
        t = st.tables
        for line in t["purchasing.lines"].values():
            assert line["unit_cost"] == t["catalog.products"][line["product"]]["standard_cost"]
        for line in t["orders.lines"].values():
            assert line["unit_price"] == t["catalog.products"][line["product"]]["list_price"]
        for s in t["shipments.shipments"].values():
            order = t["orders.orders"][s["order"]]
            assert (s["customer"], s["warehouse"]) == (order["customer"], order["warehouse"])
            assert s["tracking"].startswith("1Z")
        for r in t["returns.returns"].values():
            assert r["customer"] == t["orders.orders"][r["order"]]["customer"]
        for i in t["invoices.invoices"].values():
            assert i["customer"] == t["orders.orders"][i["order"]]["customer"]
            assert i["bill_to"] == t["orders.customers"][i["customer"]]["email"]
        for n in t["invoices.credit_notes"].values():
            assert n["customer"] == t["invoices.invoices"][n["invoice"]]["customer"]
        for f in t["payments.refunds"].values():
            ret = t["returns.returns"][f["return_ref"]]
            assert (f["customer"], f["amount"]) == (ret["customer"], ret["credit"])
        for p in t["payments.supplier_payments"].values():
            assert p["supplier"] == t["purchasing.orders"][p["po"]]["supplier"]
        for s in t["inventory.stock"].values():
            assert 0 <= s["reserved"] <= s["on_hand"]
        for p in t["catalog.products"].values():
            assert 0 < p["standard_cost"] <= p["list_price"]
        for o in t["purchasing.orders"].values():
            assert o["approver"] != o["buyer"]


def test_reads_of_seeded_keys_never_fail_as_invalid_or_internal(world, program, states):
    """Every read that takes one key is called with every seeded key of that type: it answers,
    or says the thing has none (not_found) or is in the wrong state (conflict), never more."""
    key_table = {}
    for table, decl in world.state_decl.items():
        if decl["kind"] == "table":
            key_table.setdefault(world.types.records[decl["record"]][decl["key"]], table)
    calls = 0
    for name in OURS:
        for tool in program.model.services[name].tools.values():
            if tool.writes or tool.inserts or tool.deletes:
                continue
            spec = world.tools[tool.qualified]
            if len(spec.params) != 1 or spec.params[0][1] not in key_table:
                continue
            pname, ptype = spec.params[0]
            for st in states[:3]:
                for key in st.tables[key_table[ptype]]:
                    got = world.call(st, tool.qualified, {pname: key})
                    calls += 1
                    assert got["success"] or got["error"]["code"] in (404, 409), (tool.qualified, key, got)
    assert calls > 500


def test_state_changes_the_seeds_allow_succeed(world, states):
    """The tools that move a record on accept the seeded rows in the right state."""
    done = {"ship": 0, "approve": 0, "receive": 0, "post": 0, "close": 0, "allocate": 0}
    for st in states:
        t = st.tables
        for k, s in t["shipments.shipments"].items():
            if s["status"] == "labelled":
                assert world.call(st.snapshot(), "shipments.ship", {"id": k})["success"]
                done["ship"] += 1
        for k, o in t["purchasing.orders"].items():
            if o["status"] == "draft" and any(line["po"] == k for line in t["purchasing.lines"].values()):
                assert world.call(st.snapshot(), "purchasing.approve_po", {"po": k})["success"]
                done["approve"] += 1
        for k, r in t["returns.returns"].items():
            if r["return_status"] == "approved":
                assert world.call(st.snapshot(), "returns.receive_return", {"id": k})["success"]
                done["receive"] += 1
        for k, e in t["ledger.entries"].items():
            if e["status"] == "draft" and t["ledger.periods"][e["period"]]["period_status"] != "locked":
                assert world.call(st.snapshot(), "ledger.post_entry", {"id": k})["success"]
                done["post"] += 1
        for k, p in t["ledger.periods"].items():
            if p["period_status"] == "open":
                assert world.call(st.snapshot(), "ledger.close_period", {"id": k})["success"]
                done["close"] += 1
        for k, o in t["orders.orders"].items():
            if o["order_status"] == "pending" and any(line["order"] == k for line in t["orders.lines"].values()):
                assert world.call(st.snapshot(), "orders.allocate_order", {"order": k})["success"]
                done["allocate"] += 1
    assert all(done.values()), done


# ─────────────────────────── house rules ───────────────────────────


def _first(st, table, cond):
    return next((k for k, r in sorted(st.tables[table].items()) if cond(r)), None)


def _bites(world, rule, before, tool, args_bad, args_good):
    """The services accept both calls; the house rule refuses the first and keeps the second."""
    for args, breaks in ((args_bad, True), (args_good, False)):
        after = before.snapshot()
        got = world.call(after, tool, args)
        assert got["success"], (tool, args, got)
        ok, why = C._constraint_holds(world, rule, before, after)
        assert ok is not breaks, (rule, args, why)


def _active_warehouse(st):
    return _first(st, "inventory.warehouses", lambda w: w["active"])


def test_each_house_rule_is_what_stops_a_plan_the_services_allow(world):
    seen = set()
    for seed in range(40):
        st = world.initial_state(seed)
        t = st.tables
        wh = _active_warehouse(st)
        blocked = _first(st, "suppliers.suppliers", lambda s: s["supplier_status"] == "blocked")
        approved = _first(st, "suppliers.suppliers", lambda s: s["supplier_status"] == "approved")
        if wh and blocked and approved:
            po = {"warehouse": wh, "buyer": "Megan Foster", "approver": "Helen Grant", "expected": "2025-04-30"}
            _bites(world, "blocked_suppliers", st, "purchasing.create_po", {**po, "supplier": blocked}, {**po, "supplier": approved})
            seen.add("blocked_suppliers")
        closed_wh = _first(st, "inventory.warehouses", lambda w: not w["active"])
        if wh and closed_wh and approved:
            po = {"supplier": approved, "buyer": "Megan Foster", "approver": "Helen Grant", "expected": "2025-04-30"}
            _bites(world, "closed_warehouses", st, "purchasing.create_po", {**po, "warehouse": closed_wh}, {**po, "warehouse": wh})
            seen.add("closed_warehouses")

        def clean_order(status):
            return _first(
                st,
                "orders.orders",
                lambda o: o["order_status"] == status and not t["orders.customers"][o["customer"]]["credit_hold"] and t["inventory.warehouses"][o["warehouse"]]["active"],
            )

        held, pending = clean_order("on_hold"), clean_order("pending")
        if held and pending:
            ship = {"carrier": "ups", "service_level": "Ground", "packages": 2, "weight_kg": 12.5, "ship_date": "2025-03-20"}

            def for_order(k):
                o = t["orders.orders"][k]
                return {**ship, "order": k, "customer": o["customer"], "warehouse": o["warehouse"]}

            _bites(world, "holds_stop_fulfilment", st, "shipments.create_shipment", for_order(held), for_order(pending))
            seen.add("holds_stop_fulfilment")
            hold_cust = _first(st, "orders.customers", lambda c: c["credit_hold"])
            if hold_cust and wh:
                o = for_order(pending)
                _bites(world, "credit_hold_ships_nothing", st, "shipments.create_shipment", {**o, "customer": hold_cust}, o)
                seen.add("credit_hold_ships_nothing")
        shut = _first(st, "ledger.periods", lambda p: p["period_status"] == "closed")
        open_ = _first(st, "ledger.periods", lambda p: p["period_status"] == "open")
        live = sorted(k for k, a in t["ledger.accounts"].items() if a["active"])
        if shut and open_ and len(live) >= 2:
            entry = {"debit": live[0], "credit": live[1], "amount": 250, "memo": "Freight accrual"}
            _bites(world, "closed_periods", st, "ledger.create_entry", {**entry, "period": shut}, {**entry, "period": open_})
            seen.add("closed_periods")
        refunded = {f["return_ref"] for f in t["payments.refunds"].values() if f["status"] != "cancelled"}
        back = _first(st, "returns.returns", lambda r: r["return_status"] == "received" and r["id"] not in refunded)
        not_back = _first(st, "returns.returns", lambda r: r["return_status"] == "approved" and r["id"] not in refunded)
        if back and not_back:

            def refund(k):
                r = t["returns.returns"][k]
                return {"customer": r["customer"], "amount": 40, "method": "card", "reason": "Return credited", "return_ref": k}

            _bites(world, "goods_back_first", st, "payments.issue_refund", refund(not_back), refund(back))
            seen.add("goods_back_first")
        gone = _first(st, "catalog.products", lambda p: p["product_status"] == "discontinued")
        sold = _first(st, "catalog.products", lambda p: p["product_status"] == "active")
        draft = _first(
            st,
            "purchasing.orders",
            lambda o: o["status"] == "draft" and t["suppliers.suppliers"][o["supplier"]]["supplier_status"] != "blocked" and t["inventory.warehouses"][o["warehouse"]]["active"],
        )
        if gone and sold and draft:
            has = {line["product"] for line in t["purchasing.lines"].values() if line["po"] == draft}
            if gone not in has and sold not in has:
                line = {"po": draft, "quantity": 10, "unit_cost": 5}
                _bites(world, "no_reorder_discontinued", st, "purchasing.add_line", {**line, "product": gone}, {**line, "product": sold})
                seen.add("no_reorder_discontinued")
    assert seen == {
        "blocked_suppliers",
        "closed_warehouses",
        "holds_stop_fulfilment",
        "credit_hold_ships_nothing",
        "closed_periods",
        "goods_back_first",
        "no_reorder_discontinued",
    }


def _order_rule(program, name):
    decl = next(c for c in program.model.world.constraints if c.name == name)
    (clause,) = [c for c in A.walk_clauses(decl.clauses) if isinstance(c, A.OrderClause)]
    return {"tool": ".".join(clause.tool), "after": ".".join(clause.after), "on": list(clause.on)}


def test_the_application_sends_small_orders_unapproved_and_the_house_rule_does_not(world, program):
    """`approve_before_send` is policy: the purchasing application itself only insists on
    approval above 10,000."""
    small = large = None
    for seed in range(40):
        st = world.initial_state(seed)
        for k, o in st.tables["purchasing.orders"].items():
            lines = [line for line in st.tables["purchasing.lines"].values() if line["po"] == k]
            if o["status"] != "draft" or not lines:
                continue
            total = sum(line["quantity"] * line["unit_cost"] for line in lines)
            if total <= 10000 and small is None:
                small = (st, k)
            if total > 10000 and large is None:
                large = (st, k)
        if small and large:
            break
    assert small and large
    assert world.call(small[0].snapshot(), "purchasing.send_po", {"po": small[1]})["success"]
    got = world.call(large[0].snapshot(), "purchasing.send_po", {"po": large[1]})
    assert not got["success"] and got["error"]["code"] == 403
    order = _order_rule(program, "approve_before_send")
    assert order == {"tool": "purchasing.send_po", "after": "purchasing.approve_po", "on": ["po"]}
    assert not C._order_holds(order, [("purchasing.send_po", {"po": small[1]})])[0]
    assert C._order_holds(order, [("purchasing.approve_po", {"po": small[1]}), ("purchasing.send_po", {"po": small[1]})])[0]


# ─────────────────────────── sampling ───────────────────────────


def test_samples_three_hop_tasks_that_verify(tmp_path, capsys):
    out = tmp_path / "supply.jsonl"
    assert main(["sample", str(WORLD), "--hops", "3", "-n", "4", "--seed", "1", "-o", str(out)]) == 0
    tasks = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(tasks) == 4
    for task in tasks:
        assert len(task["reference_plan"]) == 3
        assert len({step["tool"].split(".")[0] for step in task["reference_plan"]}) >= 2
        assert not re.search(r"\b[a-z]+-\d+\b", task["instruction"]), task["instruction"]  # no ids
    capsys.readouterr()
    code = main(["verify", str(WORLD), str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "4 of 4 tasks verified" in err
