"""Words for yes/no fields and for values drawn by a parameter's name, met in imported tasks:
"if that package is is shown in mobile", "if that requisition is account selection", an
`ip_address` drawn from an `address_country` ("ip address "JP"") and a `user_agent` from a
`user_language` ("user agent "pt""). The bundled worlds' labels read as before."""

from __future__ import annotations

import pytest

from compoworld_dsl.sample.people import share_a_word, share_the_head
from compoworld_dsl.sample.phrasing import flag_predicate


@pytest.mark.parametrize("label, yes, no", [
    # the bundled worlds' labels: what a record is
    ("archived", "is archived", "is not archived"),
    ("still at the firm", "is still at the firm", "is not still at the firm"),
    ("a controlled drug", "is a controlled drug", "is not a controlled drug"),
    ("enabled", "is enabled", "is not enabled"),
    ("public", "is public", "is not public"),
    # labels with their own verb
    ("is shown in mobile", "is shown in mobile", "is not shown in mobile"),
    ("has attachments", "has attachments", "does not have attachments"),
    ("can edit", "can edit", "can not edit"),
    # a flag named by a noun: marked as it, as a request's flags are
    ("account selection", "is marked as account selection", "is not marked as account selection"),
    ("notify on resolve case", "is marked as notify on resolve case", "is not marked as notify on resolve case"),
    # a label that is a clause of its own (Instagram's `user_has_liked`: "if that media entry is
    # user has liked", round 16)
    ("user has liked", "is marked as user has liked", "is not marked as user has liked"),
    # a thing a record has switched on (Twilio Verify's service: "if that service is do not share
    # warning enabled", a fresh draw of stop 70)
    ("do not share warning enabled", "has do not share warning enabled", "does not have do not share warning enabled"),
    ("custom code enabled", "has custom code enabled", "does not have custom code enabled"),
    # and a thing and its state (Enode's `smartChargingPolicy.isEnabled`: "if that vehicle is not
    # marked as smart charging policy is enabled", a fresh draw of stop 73)
    ("smart charging policy is enabled", "has smart charging policy enabled", "does not have smart charging policy enabled"),
])
def test_a_yes_no_field_is_said_as_what_the_record_is(label, yes, no):
    assert flag_predicate(label, True) == yes
    assert flag_predicate(label, False) == no


def test_values_are_drawn_from_fields_that_end_in_the_same_word():
    assert share_the_head("new_folder", "folder")
    assert share_the_head("tags", "tag")
    assert share_the_head("assignee_email", "email")
    # a word elsewhere in the name is another thing: the old test took these
    for param, field in (("ip_address", "address_country"), ("user_agent", "user_language"), ("folder_name", "folder")):
        assert share_a_word(param, field)
        assert not share_the_head(param, field), (param, field)
    # a name, a code, an id is one of the thing the word before says
    assert not share_the_head("parameter_names", "user_name") and not share_the_head("order_id", "customer_id")
    assert share_the_head("new_name", "client_name") and share_the_head("parameter_names", "parameter_name")


def test_a_scope_said_once_leaves_no_dangling_with():
    """A clause whose last listed arguments were the sentence's scope, said already, read
    "start the specified connection monitor, with and update that connection monitor result"
    (an imported Azure task). What follows the list is another clause: no "with" before it."""
    from compoworld_dsl.sample.phrasing import _said_once

    scope = ['subscription ID "SI-1"', 'resource group name "RG"']
    text = 'For the monitor "M" with subscription ID "SI-1" and resource group name "RG", start the monitor with subscription ID "SI-1" and resource group name "RG" and update that monitor with location "Lisbon".'
    assert _said_once(text, scope) == 'For the monitor "M" with subscription ID "SI-1" and resource group name "RG", start the monitor and update that monitor with location "Lisbon".'
    # nor before a goal the sentence lists next with ", and" (a fresh draw's Azure task, stop 72:
    # "upload registration certificate with and create user ...")
    joined = 'For the device "D" with subscription ID "SI-1" and resource group name "RG", upload the certificate with subscription ID "SI-1" and resource group name "RG", and create user "U" with encryption algorithm rsaes pkcs1 v 1 5, for that device.'
    assert _said_once(joined, scope) == 'For the device "D" with subscription ID "SI-1" and resource group name "RG", upload the certificate, and create user "U" with encryption algorithm rsaes pkcs1 v 1 5, for that device.'
    # a list that goes on after the scope keeps its "with", and the comma before it or none
    listed = 'For X with account ID "A", update the thing with account ID "A", name "N" and size 3.'
    assert _said_once(listed, ['account ID "A"']) == 'For X with account ID "A", update the thing with name "N" and size 3.'
    listed = 'For X with account ID "A", update the thing, with account ID "A", name "N" and size 3.'
    assert _said_once(listed, ['account ID "A"']) == 'For X with account ID "A", update the thing, with name "N" and size 3.'
    # a found record's description keeps its "with" when all it had before its last item goes,
    # that item an enum's member: "..., with provisioning state updating" read as a new value
    described = 'Make host "N" with subscription ID "S", resource group name "R" and the same location as the host "B" with subscription ID "S", resource group name "R" and provisioning state updating.'
    said = _said_once(described, ['subscription ID "S"', 'resource group name "R"'])
    assert said == 'Make host "N" with subscription ID "S", resource group name "R" and the same location as the host "B" with provisioning state updating.', said
    # an enum's member last before the clause that orders the goals keeps its "with" too: "...,
    # regenerate keys and key type primary before you delete it" (a fresh draw's Azure task)
    ordered = 'For the account "J" with subscription ID "S" and resource group name "R", regenerate keys with subscription ID "S", resource group name "R" and key type primary before you delete it.'
    said = _said_once(ordered, ['subscription ID "S"', 'resource group name "R"'])
    assert said == 'For the account "J" with subscription ID "S" and resource group name "R", regenerate keys with key type primary before you delete it.', said
    # a flag after the scope is no value of the "with" list: "..., not marked as enabled", not
    # "..., with not marked as enabled" (blind round 23's Security Center automation)
    flagged = 'Update the automation "C" (the one with resource group name "R"), with description "D.", with resource group name "R" and not marked as enabled.'
    said = _said_once(flagged, ['resource group name "R"'])
    assert said == 'Update the automation "C" (the one with resource group name "R"), with description "D.", not marked as enabled.', said
    # a goal the sentence lists next is no value of the "with" either, though it reads like a
    # bare one (no "that", no quotes): "lock the product subscription with invoke rotate
    # secrets action" (a fresh draw's Azure task, stop 63)
    goals = 'For the deployment "S" with subscription ID "S", lock the product subscription with subscription ID "S" and invoke rotate secrets action with subscription ID "S".'
    said = _said_once(goals, ['subscription ID "S"'], ['invoke rotate secrets action with subscription ID "S"'])
    assert said == 'For the deployment "S" with subscription ID "S", lock the product subscription and invoke rotate secrets action.', said
    # (told of no goals, the same words read as a value, as a flag-like enum member does)
    assert _said_once(goals, ['subscription ID "S"']).endswith("subscription with invoke rotate secrets action.")


def test_a_description_that_tells_a_record_apart_keeps_words_the_request_says_too():
    """A description's part that tells its record apart (`Phraser._telling`) is not a scope said
    twice: "the queue with description "X" and type system" lost its description to a new job
    template's same description and read "the queue and type system" (a MediaConvert task)."""
    from compoworld_dsl.sample.phrasing import _said_once

    text = 'Add a template "T" with description "X", with the queue with description "X" and type system.'
    assert _said_once(text, ['description "X"']) == 'Add a template "T" with description "X", with the queue with type system.'
    assert _said_once(text, ['description "X"'], telling=frozenset({'description "X"'})) == text
    # a scope every row shares still goes
    scoped = 'Update the vault with subscription ID "S", with new name "N", with subscription ID "S".'
    assert _said_once(scoped, ['subscription ID "S"'], telling=frozenset({'description "X"'})).count('subscription ID "S"') == 1


def test_a_label_in_capitals_is_said_the_same():
    from compoworld_dsl.sample.phrasing import same_as

    assert same_as('with DNS name the DNS name of the host "B"') == 'with the same DNS name as the host "B"'
    # a label of five words (Azure ML compute's "global service configuration SSL key the global
    # service configuration SSL key of the operationalization cluster ...", stop 68)
    long = "global service configuration SSL key"
    assert same_as(f"and {long} the {long} of that cluster") == f"and the same {long} as that cluster"


def test_a_bare_name_is_the_name_of_its_tables_thing(tmp_path):
    """A MemoryDB reset was asked "with parameter names "Riverside acl"": a `parameter_names`
    argument drew an ACL's `name`. A bare field is its table's thing's: an ACL's name is an `acl
    name`, a parameter's name a `parameter name` (`pools.held_split`)."""
    from compoworld_dsl.sample.attempt import Attempt
    from compoworld_dsl.sample.pools import held_split
    from compoworld_dsl.sample.run import load_sampler

    src = """
    type AclId = id
    type ParameterId = id
    service s "probe" {
      record Acl known by name { key id: AclId  name: text = "" }
      record Parameter known by name { key id: ParameterId  name: text = "" }
      state acls: table[Acl]
      state parameters: table[Parameter]
      seed acls: 3 rows { name: pick(["Orion acl", "Cedar acl", "Maple acl"]) }
      seed parameters: 3 rows { name: pick(["Orion parameter", "Cedar parameter", "Maple parameter"]) }
      tool get_acl(id: AclId) -> Acl say "look up acl {id}" {
        require id in acls else not_found "no acl"
        return acls[id]
      }
    }
    world w "probe" { }
    """
    (tmp_path / "w.world").write_text(src)
    sampler = load_sampler(str(tmp_path / "w.world"))
    state = sampler.world.initial_state(1)
    params, _ = held_split(sampler.facts, Attempt(1), state, "text", None, near="parameter_names")
    acls, _ = held_split(sampler.facts, Attempt(1), state, "text", None, near="acl_name")
    assert params and all(v.endswith(" parameter") for v in params), params
    assert acls and all(v.endswith(" acl") for v in acls), acls



def test_saying_a_steps_arguments_to_compare_them_names_no_record():
    """`Phraser._stated` says a step's arguments to find those a sentence says twice; saying
    them marked their records as named, and an Azure Migrate task's group, an argument its
    sentence left out, became "delete that group" in a later goal (blind round 36)."""
    from types import SimpleNamespace

    from compoworld_dsl.sample.phrasing import Phraser

    class Stub(SimpleNamespace):
        def _param_label(self, j, n):
            return n.replace("_", " ")

        def arg(self, j, n):
            self._said.add(("groups", repr("G")))
            self._mentioned.setdefault("group", {})[("groups", repr("G"))] = ("groups", {})
            return '"G"'

    step = SimpleNamespace(tool=SimpleNamespace(params=[("group_name", "GroupId")]), sources={"group_name": ("user", None)})
    stub = Stub(steps=[step], values={(0, "group_name"): "G"}, left=set(), _said=set(), _mentioned={})
    assert Phraser._stated(stub, 0) == ['group name "G"']
    assert stub._said == set() and stub._mentioned == {}


def test_a_record_is_not_told_apart_by_a_machines_token(tmp_path):
    """Google's license assignments (a fresh draw, stop 71) were told apart "(the one with
    product ID "PI-7120" and etags "E-8485")": a person tells a record by what it is, not by
    its ETag, hash or token (`People.distinguishing`)."""
    from compoworld_dsl.sample.run import load_sampler

    src = """
    type SkuId = id
    service s "probe" {
      record Sku known by name { key id: SkuId  name: text = ""  etags: text = ""  kind: text = "" }
      state skus: table[Sku]
      seed skus: 3 rows { name: "Beacon sku"  etags: pick(["E-1", "E-2", "E-3"])  kind: pick(["custom", "shared", "default"]) }
      tool get_sku(id: SkuId) -> Sku say "look up sku {id}" {
        require id in skus else not_found "no sku"
        return skus[id]
      }
    }
    world w "probe" { }
    """
    (tmp_path / "w.world").write_text(src)
    people = load_sampler(str(tmp_path / "w.world")).facts.people
    row = {"id": "sku-1", "name": "Beacon sku", "etags": "E-1", "kind": "custom"}
    others = [{"id": "sku-2", "name": "Beacon sku", "etags": "E-2", "kind": "shared"}]
    assert people.distinguishing("s.skus", row, others, ("name",)) == "kind"
    same_kind = [{"id": "sku-2", "name": "Beacon sku", "etags": "E-2", "kind": "custom"}]
    assert people.distinguishing("s.skus", row, same_kind, ("name",)) is None  # not by its ETag
