"""Gateway fuzzing: long random sequences of calls whose arguments fit each tool's schema but
take extreme values (first and last dates, the largest integers, huge amounts, hostile text),
mixed with malformed ones. Every answer is an envelope, no failure changes state, no success
leaves a value that cannot be written out, and nothing is a 500 (a defect, not a refusal).

CI runs a few thousand calls; set WORLDC_FUZZ_CALLS=20000 (or more) for the long run:
    WORLDC_FUZZ_CALLS=20000 python -m pytest -q tests/test_fuzz_gateway.py
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from compoworld_dsl.gateway import Gateway
from compoworld_dsl.runtime.state import diff
from compoworld_dsl.sample.run import load_sampler

ROOT = Path(__file__).resolve().parents[1]
CALLS = int(os.environ.get("WORLDC_FUZZ_CALLS", "1500"))

TEXTS = ["", " ", "x", "a" * 300, '"""; open("PWNED", "w"); """', "\u2028\x00\x7f", "é漢字🙂", "{id}", "{{", "\U0002ffff"]
DATES = ["0001-01-01", "0001-01-02", "1970-01-01", "2025-03-15", "9999-12-30", "9999-12-31", "2024-02-29"]
TIMES = ["00:00", "23:59", "12:30"]
INTS = [0, 1, -1, 7, 2**31, -(2**31), 2**53, 2**63 - 1, -(2**63 - 1), 10**6]
NUMBERS = [0, 0.01, -0.5, 1e15, 1e300, -1e300, 2**63 - 1, 123456.789]


def _value(schema: dict, rng: random.Random, ids: list) -> object:
    """A value that fits `schema`, drawn towards the edges."""
    if "enum" in schema:
        return rng.choice(schema["enum"])
    t = schema.get("type")
    if t == "string":
        if schema.get("format") == "date":
            return rng.choice(DATES)
        if schema.get("format") == "email":
            return rng.choice(["a@b.co", "x.y@example.com", "ü@ü.ü"])
        pattern = schema.get("pattern", "")
        if "T" in pattern:
            return rng.choice(DATES) + "T" + rng.choice(TIMES)
        if pattern:
            return rng.choice(TIMES)
        return rng.choice(ids) if ids and rng.random() < 0.6 else rng.choice(TEXTS)
    if t == "integer":
        return rng.choice(INTS)
    if t == "number":
        return rng.choice(NUMBERS)
    if t == "boolean":
        return rng.random() < 0.5
    if t == "array":
        return [_value(schema["items"], rng, ids) for _ in range(rng.randint(0, 3))]
    if t == "object":
        return {k: _value(v, rng, ids) for k, v in schema.get("properties", {}).items()}
    return None


def _malformed(rng: random.Random) -> object:
    return rng.choice([
        "[" * 5000 + "]" * 5000,
        '{"x": ' + "9" * 5000 + "}",
        "{not json",
        {"x": 10**5000},
        {"amount": float("nan")},
        [1, 2],
        "null",
        {"\ud800": 1},
    ])


def _writable(world, state) -> None:
    """Every row and scalar of the state converts to JSON and encodes as UTF-8."""
    for table, rows in state.tables.items():
        record = world.state_decl[table]["record"]
        for row in rows.values():
            json.dumps(world.types.to_json(f"record:{record}", row), ensure_ascii=False).encode("utf-8")
    for name, value in state.scalars.items():
        json.dumps(world.types.to_json(world.state_decl[name]["type"], value), ensure_ascii=False, default=str).encode("utf-8")


@pytest.mark.parametrize("world_name", ["toy", "legal_ops"])
def test_random_call_sequences_get_envelopes_and_fail_without_change(world_name):
    sampler = load_sampler(str(ROOT / "worlds" / f"{world_name}.world"))
    world = sampler.world
    rng = random.Random(f"fuzz/{world_name}")
    counts = {"ok": 0, "refused": 0}
    for episode in range((CALLS + 99) // 100):
        gw = Gateway(world, list(world.services), world.initial_state(episode))
        names = sorted(gw.names)
        for _ in range(min(100, CALLS - episode * 100)):
            ids = [k for rows in gw.state.tables.values() for k in rows]
            name = rng.choice(names)
            schema = world.schema(gw.names[name])
            args = _malformed(rng) if rng.random() < 0.05 else _value(schema, rng, ids)
            before = gw.state.snapshot()
            res = gw.dispatch("call_tool", {"tool_name": name, "arguments": args})
            json.dumps(res, ensure_ascii=False).encode("utf-8")
            assert set(res) in ({"success", "data"}, {"success", "error"}), res
            if res["success"]:
                counts["ok"] += 1
                _writable(world, gw.state)
            else:
                counts["refused"] += 1
                assert res["error"]["code"] in (400, 403, 404, 409), (name, args, res)
                assert diff(before, gw.state).empty, (name, args, res)
    # the fuzzer reaches tool bodies, not only argument checks
    assert counts["ok"] > CALLS // 20, counts


def test_a_date_pushed_past_9999_is_refused_and_changes_nothing(legal_world):
    world = legal_world
    state = world.initial_state(0)
    deadline = next(iter(state.tables["docket.deadlines"].values()))
    assert world.call(state, "docket.set_deadline", {"matter": deadline["matter"], "due": "9999-12-31"})["success"]
    before = state.snapshot()
    res = world.call(state, "docket.extend_deadline", {"matter": deadline["matter"], "extra_days": 1})
    assert res["success"] is False and res["error"]["code"] == 400 and "out of range" in res["error"]["message"]
    assert diff(before, state).empty
    # the row still reads back
    assert world.call(state, "docket.get_deadline", {"matter": deadline["matter"]})["data"]["due"] == "9999-12-31"


def test_a_tool_that_fails_while_its_result_is_written_changes_nothing(legal_world, monkeypatch):
    """The result is built before the commit: a failure there (here forced) leaves no trace."""
    world = legal_world
    state = world.initial_state(0)
    deadline = next(iter(state.tables["docket.deadlines"].values()))

    def broken(self, t, value):
        raise OverflowError("forced")

    monkeypatch.setattr(type(world.types), "to_json", broken)
    before = state.snapshot()
    res = world.call(state, "docket.extend_deadline", {"matter": deadline["matter"], "extra_days": 3})
    assert res == {"success": False, "error": {"code": 400, "message": "`extend_deadline` produced a value out of range"}}
    assert diff(before, state).empty


def test_an_unexpected_exception_in_a_tool_is_a_500_envelope_without_change(legal_world, monkeypatch):
    world = legal_world
    state = world.initial_state(0)
    deadline = next(iter(state.tables["docket.deadlines"].values()))
    svc = world.services["docket"]
    spec = world.tools["docket.extend_deadline"]
    real = getattr(svc, spec.method)

    def half_done(tx, **kw):
        real(tx, **kw)
        raise KeyError("a defect after the write")

    monkeypatch.setattr(svc, spec.method, half_done)
    before = state.snapshot()
    res = world.call(state, "docket.extend_deadline", {"matter": deadline["matter"], "extra_days": 3})
    assert res["success"] is False and res["error"]["code"] == 500
    assert diff(before, state).empty


@pytest.mark.parametrize(
    "arguments, message",
    [
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ('{"x": ' + "1" * 5000 + "}", "number too long"),
        ({"x": 10**5000}, "number too long"),
        ({"matter": "matter-1", "extra_days": 2**64}, "between"),
        ({"matter": "matter-1\ud800", "extra_days": 1}, "Unicode"),
    ],
    ids=["deep", "long-number-text", "long-number-value", "int-range", "surrogate"],
)
def test_unreadable_arguments_are_400_envelopes(legal_world, arguments, message):
    gw = Gateway(legal_world, list(legal_world.services), legal_world.initial_state(0))
    before = gw.state.snapshot()
    res = gw.dispatch("call_tool", {"tool_name": "extend_deadline", "arguments": arguments})
    assert res["success"] is False and res["error"]["code"] == 400 and message in res["error"]["message"], res
    assert diff(before, gw.state).empty


@pytest.fixture(scope="module")
def legal_world():
    return load_sampler(str(ROOT / "worlds" / "legal_ops.world")).world
