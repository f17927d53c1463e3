"""Stated values fit (issue 29, item 2): what a task asks to create hangs together as the seeded
rows do. A new row's arguments that its table's seed draws from one profile (a matter's title and
practice area) come from one profile; a field the seed derives from the others (a customer's email
from the name and the organisation's domain) is derived the same way, never taken from another
record. Checked on the reference plans of sampled tasks. WORLDC_LONG=1 samples more."""

from __future__ import annotations

import os
import re
from pathlib import Path

from compoworld_dsl.sample.run import load_sampler
from test_deep_walks import _sampled  # the tasks a run of attempts gives

ROOT = Path(__file__).resolve().parents[1]
LONG = os.environ.get("WORLDC_LONG") == "1"


def _calls(world: str, tool: str, attempts: int):
    sampler = load_sampler(str(ROOT / "worlds" / f"{world}.world"))
    calls = [c["arguments"] for t in _sampled(sampler, 5, 4, attempts) for c in t["reference_plan"] if c["tool"] == tool]
    return sampler, calls


def test_a_new_matter_is_one_profile():
    sampler, calls = _calls("legal_ops", "matters.open_matter", 200 if LONG else 80)
    assert calls, "no task opens a matter: the test shows nothing"
    profiles = {(p["title"], p["area"]) for p in sampler.facts.world.seeds["matters.matters"]["profiles"]}
    assert all((a["title"], a["area"]) in profiles for a in calls), [a for a in calls if (a["title"], a["area"]) not in profiles]


def test_a_new_person_has_their_own_email():
    for world, tool, name in (("support", "customers.create_customer", "name"), ("office", "directory.add_person", "full_name")):
        sampler, calls = _calls(world, tool, 200 if LONG else 60)
        assert calls, f"no task calls {tool}: the test shows nothing"
        for a in calls:
            first, last = (re.sub(r"[^a-z]", "", w.lower()) for w in (a[name].split()[0], a[name].split()[-1]))
            local = a["email"].split("@")[0]
            assert first in local and last in local, (tool, a)


def test_a_new_contacts_address_never_flows_from_another_record():
    """play2 (tasks 2, 5, 7, 14): "Add Helen Ashby (address: the email address of <another
    person>) as counsel". The parameter is `address`, the field it fills `email`, drawn with the
    name from one profile: the walk maps parameters to the fields a new row takes them into."""
    sampler = load_sampler(str(ROOT / "worlds" / "legal_ops.world"))
    assert sampler.facts.insert_args["contacts.add_contact"]["address"] == ("contacts.contacts", "email")
    for task in _sampled(sampler, 5, 5, 120 if LONG else 50):
        for call, binds in zip(task["reference_plan"], task["bindings"]):
            if call["tool"] == "contacts.add_contact":
                assert binds["address"] == "instruction", (task["id"], binds)


def test_a_renamed_document_takes_a_documents_title():
    """A value for a parameter is drawn from fields of its name in the tool's own service first:
    a document was renamed to a matter's title ("Acquisition of Bluewater Properties"), since
    both fields are called `title`."""
    sampler, calls = _calls("legal_ops", "documents.rename_document", 200 if LONG else 120)
    assert calls, "no task renames a document: the test shows nothing"
    matter_titles = {p["title"] for p in sampler.facts.world.seeds["matters.matters"]["profiles"]}
    new = [v for a in calls for k, v in a.items() if k != "id"]
    assert new and not set(new) & matter_titles, set(new) & matter_titles


def test_a_new_rows_code_is_new():
    """A code a new row's seed makes from a number range (a supplier part number "HM-64743", a
    bank reference) is drawn fresh, as the seed draws it, and held by no row yet: an agent met a
    new price-list entry with a part number another entry of the same supplier had."""
    import random

    from compoworld_dsl.sample.bindings import _fresh

    sampler = load_sampler(str(ROOT / "worlds" / "supply_chain.world"))
    tool = next(t for t in sampler.facts.tools if t.qualified == "suppliers.add_price")
    free = [(n, t) for n, t in tool.params if n in ("part_number", "unit_cost")]
    for seed in range(5):
        state = sampler.world.initial_state(seed)
        got = _fresh(sampler.facts, random.Random(seed), state, tool, free)
        held = {r["part_number"] for r in state.tables["suppliers.prices"].values()}
        assert set(got) == {"part_number"} and got["part_number"] not in held
        assert re.fullmatch(r"[A-Z]{2}-\d{5}", got["part_number"])  # as the seed writes them


def test_a_changed_email_is_the_same_persons():
    """A record whose seed derives its email from itself (a customer's, from the name and the
    organisation's domain) gets a new address of the same person at another domain the table
    holds, never someone else's (issue 29: an update set a lead's email to another person's)."""
    import random

    from compoworld_dsl.sample.bindings import _moved

    sampler = load_sampler(str(ROOT / "worlds" / "support.world"))
    tool = next(t for t in sampler.facts.tools if t.qualified == "customers.update_customer_email")
    free = [(n, t) for n, t in tool.params if n == "email"]
    for seed in range(5):
        state = sampler.world.initial_state(seed)
        rows = state.tables["customers.customers"]
        for key, row in list(rows.items())[:4]:
            got = _moved(sampler.facts, random.Random(seed), state, tool, {"id": key}, free)
            new = got["email"]
            assert new.split("@")[0] == row["email"].split("@")[0] and new != row["email"]
            assert new.lower() not in {r["email"].lower() for r in rows.values()}
    # sampled tasks that change a customer's email keep the person
    tasks = [t for t in _sampled(sampler, 5, 4, 200 if LONG else 80)]
    for t in tasks:
        state = sampler.world.task_state(t["initial_state"])
        for c in t["reference_plan"]:
            if c["tool"] == "customers.update_customer_email":
                before = state.tables["customers.customers"].get(c["arguments"]["id"])
                if before is not None:
                    assert c["arguments"]["email"].split("@")[0] == before["email"].split("@")[0], t["id"]


def test_a_changed_own_field_takes_no_flowed_value():
    """An update of a field the record's seed derives from the record itself (a customer's email,
    made from her name) never takes another record's value by flow: a support walk set a
    customer's address to a support agent's ("change the email address to the email address of
    the support agent "Lena Vogel""). A rename through `trim(title)` sets the title it is given,
    so the title is a name (about no record), as a new document's is."""
    from compoworld_dsl.sample.bindings import _naming

    sampler = load_sampler(str(ROOT / "worlds" / "support.world"))
    assert sampler.facts.own_updates["customers.update_customer_email"] == frozenset({"email"})
    assert sampler.facts.own_updates["contacts.update_email"] == frozenset({"address"})
    legal = load_sampler(str(ROOT / "worlds" / "legal_ops.world"))
    rename = next(t for t in legal.facts.tools if t.qualified == "documents.rename_document")
    assert legal.facts.update_args[rename.qualified]["title"] == ("documents.files", "id", "title")
    assert "title" in _naming(legal.facts, rename)
    # over sampled walks (the one that met it was support, seed 5, 4 hops), a changed address is
    # stated, never carried from an earlier step
    changed = [
        bound[param]
        for task in _sampled(sampler, 5, 4, 80)
        for call, bound in zip(task["reference_plan"], task["bindings"])
        for tool, param in [("customers.update_customer_email", "email"), ("contacts.update_email", "address")]
        if call["tool"] == tool
    ]
    assert changed and all(src == "instruction" for src in changed), changed


NAMED = """
type ClientId = id
type MatterId = id
service c "clients" {
  record Client known by name {
    key id: ClientId
    name: text = ""
    referrer: ClientId = ""
  }
  state clients: table[Client]
  seed clients: 3 rows distinct by name { name: pick(["Atlas client", "Orion client", "Cedar client"]) }
  record Matter known by title {
    key id: MatterId
    title: text = ""
    client: ClientId
  }
  state matters: table[Matter]
  seed matters: 3 rows { title: pick(["Lease dispute", "Estate of R. Okafor", "Trademark opposition"])  client: ref clients }
  tool add_client(name: text, referrer: ClientId) -> ClientId say "add a client {name} referred by {referrer}" {
    require len(trim(name)) > 0 else invalid "a client needs a name"
    require referrer in clients else not_found "no client"
    let new_ = insert clients { name: name, referrer: referrer }
    return new_.id
  }
  tool list_matters() -> list[Matter] say "list the matters" gives "the matters" {
    return filter(m in matters where true)
  }
}
world w "probe" { }
"""


def test_a_new_record_is_never_named_as_one_the_state_holds(tmp_path):
    """Where a table's rows are known by their name alone and every name its seed draws is
    taken, a new row has no name of its own: the call is given up, not made with an old row's
    name, which then names two records ("that client "Orion client""). Before, the draw fell
    back on the names the state holds."""
    from compoworld_dsl.gateway import Episode
    from test_scripted_agents import sampled

    (tmp_path / "w.world").write_text(NAMED)
    sampler = load_sampler(str(tmp_path / "w.world"))
    tasks = sampled(sampler, 3, 2, range(40))
    made = 0
    for t in tasks:
        ep = Episode(sampler.world)
        ep.reset(t)
        held = {r["name"] for r in ep.initial.tables["c.clients"].values()}
        for step in t["reference_plan"]:
            if step["tool"] == "c.add_client":
                made += 1
                assert step["arguments"]["name"] not in held, (t["instruction"], held)
    assert made >= 3, made


TARGETS = """
type PolicyId = id
type TargetId = id
service p "policies" {
  record Policy known by name {
    key id: PolicyId
    name: text = ""
  }
  state policies: table[Policy]
  seed policies: 2 rows {
    name: pick(["Atlas policy", "Orion policy"])
  }
  tool list_policies() -> list[Policy] say "list the policies" gives "the policies" {
    return filter(r in policies where true)
  }
}
service t "targets" {
  record Target known by friendly_name, policy {
    key id: TargetId
    friendly_name: text = ""
    policy: PolicyId = ""
    priority: int = 0
  }
  state targets: table[Target]
  seed targets: 8 rows {
    friendly_name: pick(["Harbor target", "Cedar target", "Maple target"])
    policy: ref p.policies
    priority: 1..100
  }
  tool add_target(policy: PolicyId, friendly_name: text, priority: int) -> Target
    say "add a target {friendly_name} to policy {policy}, with priority {priority}" {
    let new_ = insert targets { policy: policy, friendly_name: friendly_name, priority: priority }
    return targets[new_.id]
  }
}
world w "probe" { }
"""


def test_a_new_name_is_new_among_its_owners_rows(tmp_path):
    """Rows known by a name and the record they belong to (Twilio's connection policy targets, by
    friendly name and policy): a new one takes a name no row of that owner holds. A fresh draw's
    task added two targets "Harbor connection policy target" to one policy, and "that connection
    policy target" fitted both (stop 65). Names may repeat under other owners."""
    from test_scripted_agents import sampled

    world = tmp_path / "targets.world"
    world.write_text(TARGETS)
    sampler = load_sampler(str(world))
    tasks = sampled(sampler, 3, 3, range(40))
    adds = 0
    for t in tasks:
        state = sampler.world.task_state(t["initial_state"])
        for call in t["reference_plan"]:
            if call["tool"] == "t.add_target":
                a = call["arguments"]
                held = {r["friendly_name"] for r in state.tables["t.targets"].values() if r["policy"] == a["policy"]}
                assert a["friendly_name"] not in held, (t["instruction"], a, held)
                adds += 1
            sampler.world.call(state, call["tool"], call["arguments"])
    assert adds >= 5, [t["instruction"] for t in tasks]
