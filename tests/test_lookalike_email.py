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
