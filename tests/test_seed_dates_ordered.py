"""Seeded dates that follow from each other are in order (issue 29 item 1): agents playing fresh
tasks met a fee invoice issued before its matter was opened, a shipment shipped before its order
was placed, ticket comments and surveys dated before the ticket, an invoice due before it was
issued. Every pair below, over seeds 0..19 of every bundled world that holds both tables."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.codegen.python import load_world

ROOT = Path(__file__).resolve().parents[1]
SEEDS = range(20)
WORLDS = ["legal_ops", "office", "support", "supply_chain", "vet_clinic", "toy"]

# (table, date field, the references from the row to the other one (none: the same row), its
# date field, ">=": the first on or after the second, "<=": on or before it)
PAIRS = [
    # a matter's bills, time, papers and messages come after it was opened
    ("invoicing.invoices", "issued", ("matter",), "opened", ">="),
    ("billing.accounts", "opened", ("matter",), "opened", ">="),
    ("billing.disbursements", "requested", ("matter",), "opened", ">="),
    ("documents.files", "filed", ("matter",), "opened", ">="),
    ("messaging.messages", "sent", ("matter",), "opened", ">="),
    ("docket.notes", "written", ("matter",), "opened", ">="),
    ("docket.deadlines", "set_at", ("matter",), "opened", ">="),
    ("timekeeping.entries", "worked", ("matter",), "opened", ">="),
    # office: what a person makes comes after they started; replies after their post
    ("drive.folders", "created", ("owner",), "started", ">="),
    ("drive.files", "modified", ("owner",), "started", ">="),
    ("drive.files", "modified", ("folder",), "created", ">="),
    ("drive.versions", "saved", ("file",), "modified", "<="),
    ("chat.channels", "created", ("creator",), "started", ">="),
    ("chat.memberships", "joined", ("channel",), "created", ">="),
    ("chat.memberships", "joined", ("member",), "started", ">="),
    ("chat.replies", "posted", ("post",), "posted", ">="),
    # supply chain: an order's shipment, return and invoice come after it was placed
    ("inventory.stock", "counted", ("product",), "added", ">="),
    ("shipments.shipments", "ship_date", ("order",), "placed", ">="),
    ("returns.returns", "requested_on", ("order",), "placed", ">="),
    ("invoices.invoices", "issued", ("order",), "placed", ">="),
    ("invoices.invoices", "due", (), "issued", ">="),
    ("invoices.credit_notes", "issued", ("invoice",), "issued", ">="),
    ("payments.receipts", "received", ("invoice",), "issued", ">="),
    ("payments.refunds", "issued", ("return_ref",), "requested_on", ">="),
    ("payments.supplier_payments", "scheduled", ("po",), "ordered", ">="),
    ("budgets.commitments", "committed_on", ("po",), "ordered", ">="),
    # support: a ticket after its requester joined; its comments, links, breaches, surveys after it
    ("customers.customers", "joined", ("organisation",), "since", ">="),
    ("tickets.tickets", "created", ("requester",), "joined", ">="),
    ("tickets.tickets", "updated", (), "created", ">="),
    ("tickets.comments", "written", ("ticket",), "created", ">="),
    ("kb.links", "linked", ("ticket",), "created", ">="),
    ("sla.breaches", "recorded", ("ticket",), "created", ">="),
    ("surveys.surveys", "sent", ("ticket",), "created", ">="),
    ("livechat.lines", "sent", ("chat",), "started", ">="),
    ("opportunities.opportunities", "created", ("account",), "created", ">="),
    ("quotes.quotes", "created", ("opportunity",), "created", ">="),
    ("campaigns.members", "added", ("lead",), "created", ">="),
    # vet clinic: a refill after the prescription, an invoice after its client joined
    ("pharmacy.prescriptions", "last_filled", (), "issued", ">="),
    ("billing.invoices", "issued", ("owner",), "joined", ">="),
]


@lru_cache(maxsize=None)
def _world(name: str):
    program = check_paths([ROOT / "worlds" / f"{name}.world"])
    assert program.ok, [d.message for d in program.diagnostics]
    return load_world(program.model)


def _minutes(world, table: str, field: str, value: int) -> int:
    """A date as its midnight's minute, so that a date and a datetime compare."""
    record = world.types.records[world.state_decl[table]["record"]]
    return value * 1440 if world.types.base(record[field]) == "date" else value


def _key_table(world, table: str, field: str) -> str | None:
    """The table whose key the field holds (its type is that key's)."""
    t = world.types.records[world.state_decl[table]["record"]][field]
    found = [n for n, d in world.state_decl.items() if d["kind"] == "table" and world.types.records[d["record"]][d["key"]] == t]
    return found[0] if len(found) == 1 else None


def out_of_order(name: str) -> tuple[dict, int]:
    """{pair: rows out of order} and the rows compared, over SEEDS."""
    world = _world(name)
    bad: dict = {}
    compared = 0
    for seed in SEEDS:
        st = world.initial_state(seed)
        for pair in PAIRS:
            table, field, path, other, op = pair
            if table not in st.tables:
                continue
            for row in st.tables[table].values():
                there, at = row, table
                for step in path:
                    at = _key_table(world, at, step)
                    there = st.tables.get(at, {}).get(there[step]) if at else None
                    if there is None:
                        break
                if there is None:
                    continue
                compared += 1
                a, b = _minutes(world, table, field, row[field]), _minutes(world, at, other, there[other])
                if (a < b) if op == ">=" else (a > b):
                    bad[pair] = bad.get(pair, 0) + 1
    return bad, compared


@pytest.mark.parametrize("name", WORLDS)
def test_seeded_dates_that_follow_each_other_are_in_order(name):
    bad, compared = out_of_order(name)
    if name != "toy":
        assert compared > 100, "too few pairs compared: the test shows nothing"
    assert not bad, "\n".join(f"{t}.{f} {op} {'.'.join(p) or 'its own'}.{o}: {n} rows out of order" for (t, f, p, o, op), n in bad.items())


def test_every_pair_is_met_in_some_world():
    """A pair no world holds is a typo, which would pass unseen."""
    met = set()
    for name in WORLDS:
        world = _world(name)
        met |= {p for p in PAIRS if p[0] in world.state_decl}
    assert met == set(PAIRS), sorted(set(PAIRS) - met)
