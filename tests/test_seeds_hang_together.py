"""The bundled worlds' seeded rows hang together (issue 29): a person's email is made from their
name, fields drawn as one profile always come together (a matter's title with its practice area),
addresses that tools look people up by are not shared, and records the tools hold to one per
parent (a trust account per matter, an invoice per sales order) are seeded one per parent.
Bounded to 8 seeds a world; WORLDC_LONG=1 checks 40."""

from __future__ import annotations

import collections
import os
import re
import unicodedata
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.codegen.python import load_world

ROOT = Path(__file__).resolve().parents[1]
SEEDS = range(40 if os.environ.get("WORLDC_LONG") == "1" else 8)
WORLDS = ["legal_ops", "office", "support", "supply_chain", "vet_clinic", "toy"]

# table -> the field holding a person's name, for tables whose rows are people with an email
PEOPLE = {
    "contacts.contacts": "name",
    "directory.people": "full_name",
    "customers.customers": "name",
    "tickets.agents": "name",
    "leads.leads": "name",
    "suppliers.suppliers": "contact_name",
    "owners.owners": "name",
    "employees.employees": "name",
    "recruiting.candidates": "name",
}
# fields that a profile draws together: for each table, (the field that names the row, the fields
# that go with it)
TOGETHER = {
    "matters.matters": ("title", ("area",)),
    "documents.files": ("title", ("kind", "body")),
    "messaging.messages": ("subject", ("body",)),
    "billing.disbursements": ("memo", ("payee",)),
    "meetings.meetings": ("subject", ("agenda",)),
    "drive.files": ("file_name", ("kind",)),
    "expenses.lines": ("merchant", ("category",)),
    "tickets.tickets": ("subject", ("tags",)),
    "kb.articles": ("title", ("body",)),
    "quotes.lines": ("product", ("unit_price",)),
    "catalog.products": ("name", ("sku", "brand", "unit", "weight_kg")),
    "inventory.warehouses": ("name", ("city",)),
    "ledger.accounts": ("name", ("code", "type")),
    "ledger.periods": ("name", ("period_status",)),
    "patients.patients": ("breed", ("species",)),
    "pharmacy.prescriptions": ("drug", ("controlled",)),
}
# table -> the reference a tool allows only one row per target of
ONE_PER = {"billing.accounts": "matter", "docket.deadlines": "matter", "invoices.invoices": "order"}


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()


def email_fits_name(email: str, name: str) -> bool:
    parts = [p for p in re.split(r"[._\-0-9]+", _fold(email.split("@", 1)[0])) if p]
    return any(w in p for w in re.findall(r"[a-z]+", _fold(name)) if len(w) >= 2 for p in parts)


@pytest.fixture(scope="module", params=WORLDS)
def states(request):
    program = check_paths([str(ROOT / "worlds" / f"{request.param}.world")])
    assert program.ok
    world = load_world(program.model)
    return request.param, [world.initial_state(seed) for seed in SEEDS]


def test_fit_finder():
    assert email_fits_name("zoe.oneil@larkspur.example", "Zoë O'Neil")
    assert email_fits_name("amaraokafor@x.example", "Amara Okafor")
    assert not email_fits_name("it42@corp.example", "Ana Ruiz")
    assert not email_fits_name("grace.w@meridianbank.com", "Amara Castillo")


def test_every_seeded_person_has_an_email_made_from_their_name_and_no_one_elses(states):
    name, states = states
    people = 0
    for st in states:
        for table, field in PEOPLE.items():
            rows = list(st.tables.get(table, {}).values())
            for r in rows:
                assert email_fits_name(r["email"], r[field]), (table, r[field], r["email"])
            emails = collections.Counter(r["email"] for r in rows)
            assert all(n == 1 for n in emails.values()), (table, emails.most_common(2))
            people += len(rows)
    assert people > 0 or name == "toy"  # the toy world seeds no people


def test_fields_drawn_as_one_profile_always_come_together(states):
    _, states = states
    seen: dict[tuple[str, object], tuple] = {}
    for st in states:
        for table, (name, others) in TOGETHER.items():
            for r in st.tables.get(table, {}).values():
                key, value = (table, r[name]), tuple(r[f] for f in others)
                assert seen.setdefault(key, value) == value, (table, r[name], seen[key], value)


def test_records_a_tool_holds_to_one_per_parent_are_seeded_one_per_parent(states):
    _, states = states
    for st in states:
        for table, ref in ONE_PER.items():
            refs = collections.Counter(r[ref] for r in st.tables.get(table, {}).values())
            assert all(n == 1 for n in refs.values()), (table, refs.most_common(1))
