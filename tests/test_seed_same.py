"""`same(...)` seeds: rows that agree (an invoice's owner is its patient's owner), with clear
errors for a path that does not resolve, and no change to the values of other fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.codegen.python import load_world

ROOT = Path(__file__).resolve().parent.parent

WORLD = """
type OwnerId = id
type PetId = id
type InvoiceId = id

service clinic "A small clinic" {
  record Owner known by name {
    key id: OwnerId
    name: text
    city: text
  }
  record Pet known by name {
    key id: PetId
    name: text
    owner: OwnerId
  }
  record Invoice known by amount {
    key id: InvoiceId
    pet: PetId
    owner: OwnerId
    city: text
    amount: money
    vet: text
    signer: text
  }
  state owners: table[Owner]
  state pets: table[Pet]
  state invoices: table[Invoice]
  seed owners: 3..5 rows {
    name: pick(["Ana", "Ben", "Cy"])
    city: pick(["Leeds", "York", "Hull"])
  }
  seed pets: 4..6 rows {
    name: pick(["Rex", "Tom"])
    owner: ref owners
  }
  seed invoices: 6 rows {
    pet: ref pets
    OWNER
    city: same(pet.owner.city)
    amount: 10..500
    vet: pick(["Dr. A", "Dr. B"])
    signer: same(vet)
  }
}
"""


def _program(tmp_path, owner_line: str):
    path = tmp_path / "clinic.world"
    path.write_text(WORLD.replace("OWNER", owner_line), encoding="utf-8")
    return check_paths([path])


def test_rows_agree_along_references(tmp_path):
    program = _program(tmp_path, "owner: same(pet.owner)")
    assert program.ok, [d.message for d in program.diagnostics]
    world = load_world(program.model)
    for seed in range(20):
        st = world.initial_state(seed)
        invoices = list(st.tables["clinic.invoices"].values())
        assert invoices
        for inv in invoices:
            pet = st.tables["clinic.pets"][inv["pet"]]
            assert inv["owner"] == pet["owner"]
            assert inv["city"] == st.tables["clinic.owners"][pet["owner"]]["city"]
            assert inv["signer"] == inv["vet"]
            assert list(inv) == ["pet", "owner", "city", "amount", "vet", "signer", "id"]  # the record's order, key last


def test_same_draws_nothing(tmp_path):
    """The other fields get the values they get when the copied fields are constants (which
    draw nothing either): `same` takes nothing from the row's random stream."""
    with_same = load_world(_program(tmp_path, "owner: same(pet.owner)").model).initial_state(7)
    other = tmp_path / "other"
    other.mkdir()
    constants = WORLD.replace("OWNER", 'owner: "owner-1"').replace("city: same(pet.owner.city)", 'city: "Leeds"').replace("signer: same(vet)", 'signer: "Dr. A"')
    (other / "clinic.world").write_text(constants, encoding="utf-8")
    program = check_paths([other / "clinic.world"])
    assert program.ok, [d.message for d in program.diagnostics]
    with_const = load_world(program.model).initial_state(7)
    kept = ("pet", "amount", "vet")
    a = [{k: r[k] for k in kept} for r in with_same.tables["clinic.invoices"].values()]
    b = [{k: r[k] for k in kept} for r in with_const.tables["clinic.invoices"].values()]
    assert a == b and len(a) == 6


@pytest.mark.parametrize(
    "line,code,words",
    [
        ("owner: same(pets.owner)", "E601", "record `Invoice` has no field `pets`"),
        ("owner: same(amount.owner)", "E604", "`amount` has type `money`, which is not the key type of one table"),
        ("owner: same(pet.name)", "E602", "field `owner` has type `OwnerId`, but `pet.name` is `text`"),
        ("owner: same(pet.nope)", "E601", "record `Pet` has no field `nope`"),
        ("owner: same(owner)", "E602", "cannot be seeded with its own value"),
    ],
)
def test_paths_that_do_not_resolve(tmp_path, line, code, words):
    program = _program(tmp_path, line)
    errors = [d for d in program.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == [code], [d.message for d in errors]
    assert words in errors[0].message


def test_a_circle_and_a_same_inside_format(tmp_path):
    program = _program(tmp_path, "owner: same(pet.owner)")
    assert program.ok
    circle = tmp_path / "circle.world"
    circle.write_text(WORLD.replace("OWNER", "owner: same(pet.owner)").replace('vet: pick(["Dr. A", "Dr. B"])', "vet: same(signer)"), encoding="utf-8")
    errors = [d for d in check_paths([circle]).diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["E602"] and "in a circle" in errors[0].message
    # a `same` inside a `format` reads the row too (issue 29: values derived from others), and a
    # circle through one is still a circle
    inside = tmp_path / "inside.world"
    inside.write_text(WORLD.replace("OWNER", "owner: same(pet.owner)").replace("signer: same(vet)", 'signer: format("for {} in {}", same(vet), same(pet.owner.city))'), encoding="utf-8")
    program = check_paths([inside])
    assert program.ok, [d.message for d in program.diagnostics]
    st = load_world(program.model).initial_state(1)
    for inv in st.tables["clinic.invoices"].values():
        owner = st.tables["clinic.owners"][st.tables["clinic.pets"][inv["pet"]]["owner"]]
        assert inv["signer"] == f"for {inv['vet']} in {owner['city']}"
    circle.write_text(WORLD.replace("OWNER", "owner: same(pet.owner)").replace('vet: pick(["Dr. A", "Dr. B"])', 'vet: format("{}", same(signer))'), encoding="utf-8")
    errors = [d for d in check_paths([circle]).diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["E602"] and "in a circle" in errors[0].message
    # where a row's fields are not at hand, `same` still has no meaning
    scalar = tmp_path / "scalar.world"
    scalar.write_text(WORLD.replace("OWNER", "owner: same(pet.owner)").replace("  state invoices: table[Invoice]", "  state invoices: table[Invoice]\n  state motto: text\n  seed motto: format(\"{}\", same(name))"), encoding="utf-8")
    errors = [d for d in check_paths([scalar]).diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["E602"] and "cannot be used here" in errors[0].message


def test_the_vet_clinic_invoices_go_to_the_patients_owner():
    program = check_paths([ROOT / "worlds" / "vet_clinic.world"])
    world = load_world(program.model)
    st = world.initial_state(3)
    invoices = list(st.tables["billing.invoices"].values())
    assert invoices
    for inv in invoices:
        assert inv["owner"] == st.tables["patients.patients"][inv["patient"]]["owner"]


def test_same_may_read_the_rows_key(tmp_path):
    """A key the seed block does not draw used to be given to each row after its other fields,
    so `same(key)` read nothing, every row was dropped and the table seeded empty with no error
    (met seeding a dataset's ARN from its name key, stop 55; a blind player had taken an ARN
    that did not end with its dataset's key for a trap). The key now comes first where a derived
    field reads it (`_SeedPlan.key_first`); a key the block draws is read as before."""
    base = """
type DatasetId = id
service data "Datasets" {
  record Dataset known by title {
    key name: DatasetId
    title: text
    arn: text = ""
  }
  state datasets: table[Dataset]
  seed datasets: 3..5 rows {
KEY    title: pick(["A", "B", "C"])
    arn: format("arn:x/{}", same(name))
  }
}
"""
    for label, key in (("undrawn", ""), ("drawn", '    name: pick(["d-1", "d-2", "d-3", "d-4", "d-5"])\n')):
        path = tmp_path / f"{label}.world"
        path.write_text(base.replace("KEY", key))
        program = check_paths([path])
        assert not [d for d in program.diagnostics if d.severity == "error"], program.diagnostics
        rows = load_world(program.model).initial_state(3).tables["data.datasets"]
        assert len(rows) >= 3 and all(r["arn"] == f"arn:x/{k}" for k, r in rows.items()), (label, rows)
