"""A planted look-alike is a namesake, not a second copy of one person: an email address the
description does not use is its own (`lookalikes._vary`, `_namesake_email`)."""

from compoworld_dsl.sample.lookalikes import _namesake_email


def test_a_namesake_gets_the_first_free_numbered_address():
    taken = {"chiara.sato@bluepeak.example", "chiara.sato2@bluepeak.example"}
    assert _namesake_email("chiara.sato@bluepeak.example", taken) == "chiara.sato3@bluepeak.example"
    assert _namesake_email("ops@x.example", set()) == "ops2@x.example"


def test_planted_namesakes_have_their_own_addresses():
    # sampled support tasks plant customers of one name (the requester of a look-alike ticket):
    # no two customers of a task's state share an address
    import json
    from pathlib import Path

    from compoworld_dsl.cli import main

    root = Path(__file__).resolve().parents[1]
    out = Path(__import__("tempfile").mkdtemp()) / "t.jsonl"
    assert main(["sample", str(root / "worlds" / "support.world"), "--hops", "5", "-n", "6", "--seed", "5", "-o", str(out)]) == 0
    from compoworld_dsl.sample.worker import load_sampler

    world = load_sampler(str(root / "worlds" / "support.world")).facts.world
    planted = 0
    for line in out.read_text().splitlines():
        task = json.loads(line)
        rows = [r for r in task["initial_state"].get("rows", []) if r["table"] == "customers.customers"]
        planted += len(rows)
        if rows:
            state = world.task_state(task["initial_state"])
            emails = [c["email"] for c in state.tables["customers.customers"].values()]
            assert len(emails) == len(set(emails)), task["id"]
    assert planted, "no task planted a customer: the test shows nothing"


def test_a_look_alikes_texts_spell_its_own_key_and_user_names_are_its_own():
    """A look-alike copied from a row whose ARN spells its key spells its own (three file systems
    of blind round 24 shared one ARN), a longer key that starts alike is left alone, and what the
    description says stays as the target has it; a namesake's user name is its own (a SCIM user
    had the target's "amara.adeyemi")."""
    from types import SimpleNamespace

    from compoworld_dsl.sample.lookalikes import _namesakes, _rekeyed

    facts = SimpleNamespace(people=SimpleNamespace(key={"efs.file_systems": "id"}))
    row = {"id": "filesystem-9", "arn": "arn:aws:elasticfilesystem:eu-west-1:1:file-system/filesystem-4", "note": "filesystem-40 and filesystem-4x", "said": "filesystem-4"}
    assert _rekeyed(facts, "efs.file_systems", row, "filesystem-4", {"said"}) == {"arn": "arn:aws:elasticfilesystem:eu-west-1:1:file-system/filesystem-9"}

    class Types:
        @staticmethod
        def base(t):
            return t

    users = {"u1": {"id": "u1", "user_name": "amara.adeyemi"}, "u2": {"id": "u2", "user_name": "amara.adeyemi2"}}
    facts = SimpleNamespace(people=SimpleNamespace(fields={"hub.users": {"id": "id", "user_name": "text"}}), rule_fields=set(), world=SimpleNamespace(types=Types))
    state = SimpleNamespace(tables={"hub.users": users})
    assert _namesakes(facts, state, "hub.users", dict(users["u1"]), set()) == {"user_name": "amara.adeyemi3"}
    assert _namesakes(facts, state, "hub.users", dict(users["u1"]), {"user_name"}) == {}


def test_a_look_alike_never_takes_another_rows_text_that_spells_that_rows_key():
    """`_vary` sets one free field to another row's value. A trust anchor's ARN spells its own
    id (`format(".../trust-anchor/{}", same(id))`): taken from another anchor, the look-alike's
    ARN named that anchor, and a blind player met two anchors whose ARNs were crossed (round 42).
    Such a text is never the field varied; a plain text still is."""
    import random
    from types import SimpleNamespace

    from compoworld_dsl.sample.lookalikes import _vary

    class Types:
        @staticmethod
        def base(t):
            return t

    arn = "arn:aws:rolesanywhere:eu-west-1:1:trust-anchor/{}"
    rows = {k: {"id": k, "arn": arn.format(k), "note": f"note of {n}"} for n, k in enumerate(["trustanchor-1", "trustanchor-2", "trustanchor-3"])}
    facts = SimpleNamespace(
        people=SimpleNamespace(key={"ra.anchors": "id"}, fields={"ra.anchors": {"id": "id", "arn": "text", "note": "text"}}, ref_table=lambda t: None),
        rule_fields=set(),
        world=SimpleNamespace(types=Types, volatile_fields={}),
    )
    state = SimpleNamespace(tables={"ra.anchors": rows})
    varied = [_vary(facts, random.Random(seed), state, "ra.anchors", rows["trustanchor-1"], set(), 0) for seed in range(40)]
    assert not any("arn" in v for v in varied), varied
    assert any("note" in v for v in varied)


def test_a_copied_rows_code_that_no_other_row_holds_is_its_own():
    """Azure API Management's subscription secrets were copied with each look-alike of their
    subscription: three rows held the key "PK-9629", and every report of a key was refused as
    guessable, so the spec gave no task (stop 67). A code that only its row holds is the copy's
    own, the next number free; a code many rows share (a plan "P-10" of several), what the
    description says, and a sentence stay as they are."""
    from types import SimpleNamespace

    from compoworld_dsl.sample.lookalikes import _namesakes

    class Types:
        @staticmethod
        def base(t):
            return t

    rows = {
        "s1": {"id": "s1", "primary_key": "PK-9629", "plan": "P-10", "note": "Sent on 12", "code": "AB-07", "architecture": "x86_64"},
        "s2": {"id": "s2", "primary_key": "PK-9630", "plan": "P-10", "note": "x", "code": "AB-08", "architecture": "arm64"},
    }
    # (an enum's member is no code: EMR Serverless' look-alike application had architecture
    # "x86_65", which the table refused, and the spec lost its tasks in a corpus run)
    fields = {"id": "id", "primary_key": "text", "plan": "text", "note": "text", "code": "text", "architecture": "enum:Architecture"}
    facts = SimpleNamespace(people=SimpleNamespace(fields={"apim.secrets": fields}, key={"apim.secrets": "id"}, ref_table=lambda t: None), rule_fields=set(), world=SimpleNamespace(types=Types))
    state = SimpleNamespace(tables={"apim.secrets": rows})
    got = _namesakes(facts, state, "apim.secrets", dict(rows["s1"]), {"code"})
    assert got == {"primary_key": "PK-9631"}, got
