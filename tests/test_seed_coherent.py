"""Seeds that hang together (issue 29): rows drawn whole from profiles, values derived from the
row's other fields (`slug`, `same` inside `format`), and one-to-one references (`unique ref`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.runtime.world import slug
from compoworld_dsl.syntax.format import format_source
from compoworld_dsl.syntax.parser import parse_module

WORLD = """
type PersonId = id
type StayId = id
type FolioId = id
enum Area { litigation, corporate, estates }

pool people = [
  { name: "Amara Chowdhury", area: litigation },
  { name: "Ben Ferreira", area: corporate },
  { name: "Zoë O'Neil", area: estates },
  { name: "Kofi Mensah", area: litigation },
]

service firm "People and their stays" {
  record Person known by name {
    key id: PersonId
    name: text
    area: Area
    company: text
    email: email
  }
  record Stay known by id {
    key id: StayId
    guest: PersonId
  }
  record Folio known by id {
    key id: FolioId
    stay: StayId
    guest: PersonId
  }
  state people: table[Person]
  state stays: table[Stay]
  state folios: table[Folio]
  seed people: COUNT rows from people {
    company: pick(["Harbor Freight Lines Ltd", "Larkspur"])
    email: format("{}@{}.example", slug(same(name)), slug(same(company), ""))
  }
  seed stays: 5 rows {
    guest: ref people
  }
  seed folios: FOLIOS rows {
    stay: unique ref stays
    guest: same(stay.guest)
  }
}
"""


def _world(tmp_path: Path, count: str = "4", folios: str = "5", text: str | None = None):
    path = tmp_path / "coherent.world"
    path.write_text((text or WORLD).replace("COUNT", count).replace("FOLIOS", folios), encoding="utf-8")
    program = check_paths([path])
    return program


def _errors(program) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in program.diagnostics if d.severity == "error"]


def test_a_row_takes_a_whole_profile_and_each_profile_once_while_they_last(tmp_path):
    program = _world(tmp_path)
    assert program.ok, _errors(program)
    world = load_world(program.model)
    pairs = {("Amara Chowdhury", "litigation"), ("Ben Ferreira", "corporate"), ("Zoë O'Neil", "estates"), ("Kofi Mensah", "litigation")}
    for seed in range(20):
        rows = list(world.initial_state(seed).tables["firm.people"].values())
        assert {(r["name"], r["area"]) for r in rows} == pairs  # 4 rows, 4 profiles: each once
        assert [list(r) for r in rows] == [["name", "area", "company", "email", "id"]] * 4  # the record's order, the key made last


def test_more_rows_than_profiles_go_round_again(tmp_path):
    world = load_world(_world(tmp_path, count="9").model)
    names = [r["name"] for r in world.initial_state(5).tables["firm.people"].values()]
    assert len(names) == 9
    assert all(names.count(n) in (2, 3) for n in set(names)) and len(set(names)) == 4


def test_an_email_derived_from_the_name_and_the_company(tmp_path):
    world = load_world(_world(tmp_path).model)
    for seed in range(10):
        for r in world.initial_state(seed).tables["firm.people"].values():
            assert r["email"] == f"{slug(r['name'])}@{slug(r['company'], '')}.example"
    assert slug("Zoë O'Neil") == "zoe.o.neil" and slug("Harbor Freight Lines Ltd", "") == "harborfreightlinesltd"


def test_a_unique_ref_takes_each_key_once_and_makes_no_row_past_them(tmp_path):
    world = load_world(_world(tmp_path, folios="8").model)
    for seed in range(10):
        st = world.initial_state(seed)
        stays = [r["stay"] for r in st.tables["firm.folios"].values()]
        assert len(stays) == len(set(stays)) == len(st.tables["firm.stays"]) == 5
        for r in st.tables["firm.folios"].values():
            assert r["guest"] == st.tables["firm.stays"][r["stay"]]["guest"]


def test_tables_seeded_on_demand_are_those_of_the_whole_state(tmp_path):
    world = load_world(_world(tmp_path, folios="3").model)
    for seed in range(5):
        whole = world.initial_state(seed)
        part = world.partial_state(seed)
        world.seed_tables(part, seed, ["firm.folios", "firm.people"])
        for table in ("firm.folios", "firm.people", "firm.stays"):
            assert part.tables[table] == whole.tables[table]


def test_a_derived_field_that_draws_nothing_leaves_the_other_fields_as_they_were(tmp_path):
    plain = WORLD.replace('    email: format("{}@{}.example", slug(same(name)), slug(same(company), ""))\n', '    email: "x@y.example"\n')
    derived = WORLD
    a = load_world(_world(tmp_path, text=plain).model).initial_state(3)
    b = load_world(_world(tmp_path, text=derived).model).initial_state(3)
    strip = lambda st: [{k: v for k, v in r.items() if k != "email"} for r in st.tables["firm.people"].values()]  # noqa: E731
    assert strip(a) == strip(b)
    assert all(r["email"] != "x@y.example" for r in b.tables["firm.people"].values())


@pytest.mark.parametrize(
    "old, new, code, words",
    [
        ('{ name: "Kofi Mensah", area: litigation },', '"Kofi Mensah",', "E201", "mixes profiles"),
        ('{ name: "Kofi Mensah", area: litigation },', '{ name: "Kofi Mensah" },', "E201", "name different fields"),
        ('{ name: "Kofi Mensah", area: litigation },', '{ name: "Kofi Mensah", area: litigation, name: "K" },', "E201", "names `name` twice"),
        ('{ name: "Kofi Mensah", area: litigation },', '{ name: "Kofi Mensah", area: gardening },', "E106", "no member `gardening`"),
        ("rows from people {", "rows from nobody {", "E107", "unknown value pool `nobody`"),
        ('company: pick(["Harbor Freight Lines Ltd", "Larkspur"])', "company: pick(people)", "E602", "holds profiles"),
        ('company: pick(["Harbor Freight Lines Ltd", "Larkspur"])', 'company: pick(["A", "B"])\n    name: "Anon"', "E111", "the profiles of pool `people` give it too"),
        ("    guest: same(stay.guest)\n", '    guest: same(stay.guest)\n    stay2: slug(same(guest))\n', "E601", "no field `stay2`"),
    ],
)
def test_clear_errors(tmp_path, old, new, code, words):
    text = WORLD.replace(old, new)
    assert text != WORLD
    errors = _errors(_world(tmp_path, text=text))
    assert any(c == code and words in m for c, m in errors), errors


def test_rows_from_a_pool_of_plain_values_is_an_error(tmp_path):
    text = WORLD.replace("pool people = [", 'pool names = ["A", "B"]\npool people = [').replace("rows from people {", "rows from names {")
    errors = _errors(_world(tmp_path, text=text))
    assert [c for c, _ in errors] == ["E602"] and "holds plain values" in errors[0][1]


def test_a_profile_field_the_record_lacks(tmp_path):
    text = WORLD.replace('{ name: "Amara Chowdhury", area: litigation }', '{ name: "Amara Chowdhury", area: litigation }').replace("area: litigation },\n  { name: \"Ben", "area: litigation },\n  { name: \"Ben")
    text = text.replace("area: ", "region: ").replace("    region: Area\n", "    area: Area\n")
    errors = _errors(_world(tmp_path, text=text))
    assert any(c == "E601" and "no field `region`" in m for c, m in errors), errors


def test_the_new_forms_format_and_parse_back_the_same(tmp_path):
    text = WORLD.replace("COUNT", "4").replace("FOLIOS", "5")
    once = format_source(text)
    assert "rows from people {" in once and "unique ref stays" in once and 'slug(same(company), "")' in once
    assert parse_module(once, "a.world") == parse_module(text, "a.world")
    assert format_source(once) == once


CLINIC = """
type OwnerId = id
type PetId = id
type ContactId = id

pool drugs = ["Cefalexin", "Meloxicam"]
pool vet_names = ["T. Morales", "A. Singh"]
pool pet_names = ["Mochi", "Rex"]
pool department_names = ["Engineering", "Finance"]
pool person_names = ["Ana Ruiz", "Ben Okafor"]
pool owner_mailboxes = ["ana", "ben"]

service clinic "Pets and contacts" {
  record Pet known by name {
    key id: PetId
    name: text
    drug: text
  }
  record Contact known by name {
    key id: ContactId
    name: text
    email: email
  }
  state pets: table[Pet]
  state contacts: table[Contact]
  seed pets: 3 rows {
    name: PET
    drug: pick(drugs)
  }
  seed contacts: 3 rows {
    name: CONTACT
    email: format("{}@clinic.example", pick(owner_mailboxes))
  }
}
"""


@pytest.mark.parametrize(
    "pet, contact, warned",
    [
        ("pick(pet_names)", "pick(person_names)", []),
        ("pick(drugs)", "pick(person_names)", ["pool `drugs` fills `pets.name`: the pool's name says it holds a drug, but the field is about an animal"]),
        ("pick(vet_names)", "pick(person_names)", ["pool `vet_names` fills `pets.name`: the pool's name says it holds a person, but the field is about an animal"]),
        ("pick(pet_names)", "pick(department_names)", ["pool `department_names` fills `contacts.name`: the pool's name says it holds an organisation, but the field is about a person"]),
        ("pick(pet_names)", 'format("{} {}", pick(person_names), pick(drugs))', ["pool `drugs` fills `contacts.name`: the pool's name says it holds a drug, but the field is about a person"]),
    ],
)
def test_lint_warns_where_a_pool_means_something_else_than_its_field(tmp_path, pet, contact, warned):
    from compoworld_dsl.lint import lint

    path = tmp_path / "clinic.world"
    path.write_text(CLINIC.replace("PET", pet).replace("CONTACT", contact), encoding="utf-8")
    program = check_paths([path])
    assert program.ok, _errors(program)
    assert [d.message for d in lint(program.model, str(path), seeds=1) if d.code == "W105"] == warned


def test_the_bundled_worlds_pick_no_pool_out_of_place():
    from compoworld_dsl.lint import lint

    root = Path(__file__).resolve().parent.parent / "worlds"
    for name in ("legal_ops", "office", "support", "supply_chain", "vet_clinic", "toy"):
        program = check_paths([root / f"{name}.world"])
        assert [d.message for d in lint(program.model, name, seeds=1) if d.code == "W105"] == [], name
