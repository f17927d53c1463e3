"""An address kept as text takes an address: LetMC's `create_landlord_login(email: text)` was
given "address3 29", another field's value, where the walk had seeded no table with an address
(a fresh draw, stop 73). The import writes a pool of addresses for such a parameter, and the
sampler draws a text parameter named as an address only from values that are one."""

from __future__ import annotations

import json

from compoworld_dsl.sample.run import Job, run as sample
from import_specs import body, listed, obj, ok, pparam, ref, run, s, spec


def _doc() -> dict:
    paths = listed("branches", "Branch")
    paths["/branches/{id}"]["put"] = {"operationId": "updateBranch", "parameters": [pparam("id")], "requestBody": body(obj({"county": s(), "address3": s()})), "responses": ok(ref("Branch"))}
    paths["/branches/{id}/logins"] = {"post": {"operationId": "createLogin", "parameters": [pparam("id")], "requestBody": body(obj({"email": s(), "forename": s()}, ["email", "forename"])), "responses": {"204": {"description": "queued"}}}}
    return spec(paths, {"Branch": obj({"id": s(), "name": s(), "address3": s(), "county": s()})})


def test_an_address_kept_as_text_is_drawn_as_an_address(tmp_path):
    result, _, _, world = run(tmp_path, _doc())
    text = "".join(result.files.values())
    assert "create_login(id: BranchId, email: text" in text
    pool = next(line for line in text.splitlines() if line.startswith("pool ") and line.split()[1].endswith("create_login_email"))
    assert "@" in pool, pool
    out = tmp_path / "t.jsonl"
    sample(Job(str(world), 3, 12, 7, max_attempts=150), out)
    given = [st["arguments"]["email"] for line in out.read_text().splitlines() for st in json.loads(line)["reference_plan"] if st["tool"].endswith("create_login")]
    assert given and all("@" in g for g in given), given



def test_with_no_pool_a_text_address_takes_no_other_fields_value(tmp_path):
    """The draw itself, for a world with no pool of addresses and no field of the name (a world
    written before the pool): other fields' texts ("address3 29") are no address, so none is
    drawn, and the walk goes another way."""
    import random

    from compoworld_dsl.check import types as T
    from compoworld_dsl.sample import bindings
    from compoworld_dsl.sample.attempt import Attempt
    from compoworld_dsl.sample.worker import load_sampler

    _, _, _, world = run(tmp_path, _doc())
    sampler = load_sampler(str(world))
    state = sampler.world.initial_state(7)
    got = {bindings._draw(sampler.facts, Attempt(7), random.Random(i), state, T.TEXT, "email", prefer_state=True) for i in range(20)}
    assert got == {bindings._NO_VALUE}, got
