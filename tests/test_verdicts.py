"""Verdicts the final-state checker must get right, probed by scripted agents that play sampled
tasks through the Episode API (issue 28, item 4). Each probe counts its tries and asserts every
one is judged right, and that there were enough tries to mean something.

Bounded to run in well under a minute; with WORLDC_LONG=1 in the environment each probe samples
several times more tasks (minutes)."""

from __future__ import annotations

import datetime as dt
import json
import os
from functools import cache
from pathlib import Path

from compoworld_dsl.gateway import Episode
from compoworld_dsl.runtime.state import Tx
from compoworld_dsl.sample import checker as C
from compoworld_dsl.sample.rejected import Rejected
from compoworld_dsl.sample.run import load_sampler

ROOT = Path(__file__).resolve().parents[1]
LONG = os.environ.get("WORLDC_LONG") == "1"
SCALE = 5 if LONG else 1


def sampled(sampler, seed: int, hops: int, attempts: int) -> list[dict]:
    out = []
    for i in range(attempts * SCALE):
        try:
            out.append(sampler.task(seed, i, hops))
        except Rejected:
            pass
    return out


@cache  # (a world's sampler is loaded once for all the probes)
def sampler_of(name: str):
    return load_sampler(str(ROOT / "worlds" / f"{name}.world"))


class Player:
    """One episode of a task, played call by call as a scripted agent would."""

    def __init__(self, world, task: dict, mount=()):
        self.world = world
        self.task = {**task, "distractors": sorted(set(task["distractors"]) | set(mount))}
        self.ep = Episode(world)
        self.ep.reset(self.task)
        self.names = {q: n for n, q in self.ep.gateway.names.items()}

    def call(self, tool: str, args: dict) -> dict:
        return self.ep.call("call_tool", {"tool_name": self.names.get(tool, tool), "arguments": args})

    def plan(self) -> list[dict]:
        return [self.call(p["tool"], p["arguments"]) for p in self.task["reference_plan"]]

    @property
    def state(self):
        return self.ep.gateway.state

    def score(self, answer=None) -> dict:
        self.ep.report(self.task["answer"] if answer is None else answer)
        return self.ep.score()


def with_rule(task: dict, name: str) -> dict:
    """The task as if the state rule `name` were attached (the checker's judgement of a row the
    rule protects is the same whether or not a look-alike made the rule decide the reward)."""
    checks = [c for c in task["checker"]["checks"] if c.get("constraint") != name]
    checks.append({"kind": "constraint", "constraint": name, "id": f"c{len(checks) + 1}"})
    return {**task, "checker": {"checks": checks}}


# ─── 1. a row added under a protected record, then deleted or withdrawn ───


def _filler(world, t: str):
    """A plain JSON value of type `t`, for an argument no field of the row gives."""
    base = world.types.base(t)
    if base.startswith("enum:"):
        return next(iter(world.types.enums[base[5:]]))
    if base in ("int", "duration", "decimal", "money"):
        return 1
    if base == "bool":
        return False
    if base == "email":
        return "probe@example.com"
    return "Probe entry"


def _insert_args(world, spec, table: str, row: dict) -> dict | None:
    """Arguments for insert tool `spec` that make a row under the same parent as `row`: every
    argument named like one of the row's fields takes the row's value (its matter, its owner),
    the others a plain value of their type; None when one cannot be filled."""
    decl = world.types.records[world.state_decl[table]["record"]]
    args = {}
    for name, t in spec.params:
        if name in row and name in decl:
            args[name] = world.types.to_json(decl[name], row[name])
        elif name in spec.defaults:
            continue
        else:
            base = world.types.base(t)
            if base.startswith("alias:") or base == "id" or base in ("date", "datetime", "time"):
                same = [f for f, ft in decl.items() if world.types.base(ft) == base]
                if not same:
                    return None
                args[name] = world.types.to_json(decl[same[0]], row[same[0]])
            else:
                args[name] = _filler(world, t)
    return args


def undo_tools(sampler, table: str) -> list[tuple[str, str]]:
    """One-argument tools that delete rows of `table` or move them to its retracted state."""
    service, short = table.split(".")
    r = sampler.world.state_decl[table].get("retracted")
    return [
        (tool.qualified, tool.params[0][0])
        for tool in sampler.model.tools()
        if tool.service == service and len(tool.params) == 1 and not tool.inserts
        and (short in tool.deletes or (r is not None and (short, r[0]) in tool.writes))
    ]


def add_then_undo(sampler, task: dict, rule: str, table: str, row: dict) -> dict | None:
    """Play the reference plan, then add a row to `table` under the same record as `row` (its
    matter, its owner) and delete or withdraw it. Returns the score with `rule` attached and
    whether the rule selected the added row while it was there; None when no insert tool of the
    table can be called so, or no tool undoes it in one call."""
    world = sampler.world
    state0 = world.task_state(task["initial_state"])
    undo = undo_tools(sampler, table)
    service, short = table.split(".")
    for tool in [t for t in sampler.model.tools() if t.service == service and t.inserts == {short}] if undo else []:
        args = _insert_args(world, world.tools[tool.qualified], table, row)
        if args is None:
            continue
        p = Player(world, with_rule(task, rule), mount=[tool.service])
        if not all(r["success"] for r in p.plan()) or not C._constraint_holds(world, rule, state0, p.state, p.ep.gateway.touched)[0]:
            return None  # (the reference plan itself works on a protected row: not this probe's)
        before = p.state.snapshot()
        added = p.call(tool.qualified, args)
        new = [k for k in p.state.tables[table] if k not in before.tables[table]]
        if not added["success"] or len(new) != 1:
            continue
        selected = not C._constraint_holds(world, rule, state0, p.state)[0]
        for undo_tool, param in undo:
            if p.call(undo_tool, {param: new[0]})["success"]:
                break
        else:
            continue
        left = p.state.tables[table].get(new[0])
        if left is not None and not world.retracted(table, left, p.state):
            continue
        return {"tool": tool.qualified, "undo": undo_tool, "selected": selected, **p.score()}
    return None


def added_and_undone(sampler, task: dict, rule: str):
    """For each table the state rule `rule` protects rows of on the task's initial state, a try
    under a protected record and a control under a record the rule does not protect (another
    row of the same table)."""
    world = sampler.world
    state0 = world.task_state(task["initial_state"])
    rows, _ = world.constraints[rule].check(Tx(state0), Tx(state0))
    for table in sorted({t for t, _ in rows}):
        kept = {k for t, k in rows if t == table}
        free = [k for k in state0.tables[table] if k not in kept]
        for key in sorted(kept, key=str)[:1] + sorted(free, key=str)[:1]:
            got = add_then_undo(sampler, task, rule, table, state0.tables[table][key])
            if got is not None:
                yield got


UNTOUCHED_RULES = {
    "legal_ops": ["hands_off_closed", "docket_discipline"],
    "office": ["leavers_untouched", "archived_channels_frozen", "approved_trips_only"],
    "supply_chain": ["blocked_suppliers", "holds_stop_fulfilment", "credit_hold_ships_nothing", "closed_warehouses", "closed_periods", "goods_back_first"],
}


def probe_added_then_undone() -> dict:
    """Counts over the bundled worlds with `untouched` rules: tries (an added row the rule
    selects, then removed), those the rule wrongly passed, controls (an added row it does not
    select, then removed) and those it wrongly failed."""
    out = {"tries": 0, "passed": 0, "controls": 0, "failed": 0, "examples": []}
    for name, rules in UNTOUCHED_RULES.items():
        s = sampler_of(name)
        for task in sampled(s, 28, 3, 12):
            for rule in rules:
                for got in added_and_undone(s, task, rule):
                    broken = any(f["kind"] == "constraint" for f in got["failed"])
                    kind = ("tries", "passed") if got["selected"] else ("controls", "failed")
                    out[kind[0]] += 1
                    if broken != got["selected"]:
                        out[kind[1]] += 1
                        out["examples"].append((task["id"], rule, got["tool"], got["undo"], got["failed"]))
    return out


def test_a_row_added_under_a_protected_record_and_undone_still_breaks_the_rule():
    """D22: an added row the rule selects breaks it, and removing it again does not count (as for
    a protected row changed and changed back); one it does not select, removed again, is no
    harm. Before the fix 16 of these 32 tries passed the rule: every one whose undo deletes the
    row (a docket note retracted, a disbursement voided, a draft ledger entry or a chat post
    deleted); those withdrawn by a status (a purchase order cancelled) failed already."""
    got = probe_added_then_undone()
    assert got["tries"] >= 20 and got["controls"] >= 10, got
    assert got["passed"] == 0 and got["failed"] == 0, got


# ─── 2. a co-signatory left to the `cosign` rule, given as a part of the memo ───

MEMO = "Escrow release on closing, co-signed by R. Castillo"
COSIGNER = "R. Castillo"
# what an agent might put for the co-signatory: parts of the memo the rule (`memo contains
# cosigner`) accepts, none of them the person; and the person written other ways
FRAGMENTS = ["R.", "Castillo", "Escrow", "co-signed", "R", "closing", " "]
SAME_PERSON = ["R. Castillo", "r. castillo", "R.  Castillo", "Mr. R. Castillo", "R Castillo"]


def cosigner_left_task(s, seed: int) -> dict | None:
    """A one-step legal_ops task built through the sampler's own stages: record a large
    disbursement on an open matter whose trust account covers it, memo stated, the co-signatory
    left to the house rules where `ruled.find` leaves it; None where the seeded state has no such
    matter or the stage does not leave it."""
    from compoworld_dsl.sample import ruled
    from compoworld_dsl.sample.attempt import Attempt
    from compoworld_dsl.sample.runs import replay
    from compoworld_dsl.sample.steps import Step

    world, facts = s.world, s.facts
    state0 = world.initial_state(seed)
    matters = state0.tables["matters.matters"]
    accounts = [a for a in state0.tables["billing.accounts"].values() if matters[a["matter"]]["status"] == "open"]
    committed = {}
    for d in state0.tables["billing.disbursements"].values():
        if d["status"] != "paid":
            committed[d["matter"]] = committed.get(d["matter"], 0) + d["amount"]
    account = next((a for a in accounts if a["balance"] - committed.get(a["matter"], 0) >= 50_000), None)
    if account is None:
        return None
    tool = next(t for t in s.model.tools() if t.qualified == "billing.record_disbursement")
    spec = world.tools[tool.qualified]
    args = {"matter": account["matter"], "payee": "Bluewater Properties", "amount": 50_000, "memo": MEMO, "cosigner": COSIGNER}
    internal = world.convert_arguments(spec, args)
    steps = [Step(tool, {n: ("user", None) for n, _ in tool.params})]
    values = {(0, n): internal["v_" + n] for n, _ in tool.params}
    attached = [{"kind": "state", "name": "cosign", "description": ""}]
    attempt = Attempt(seed)
    left = ruled.find(facts, attempt, seed, state0, steps, values, attached)
    if (0, "cosigner") not in left:
        return None
    final = replay(facts, state0, steps, values)[0]
    checks = C.derive(world, state0, final, attached, ruled=ruled.rows(facts, state0, steps, values, left))
    return {
        "id": f"cosign-{seed}", "initial_state": {"seed": seed}, "services": ["billing"], "distractors": [],
        "instruction": f"Record a disbursement of 50,000 to Bluewater Properties for matter {account['matter']}, with memo {MEMO!r}.",
        "reference_plan": [{"tool": tool.qualified, "arguments": args}], "answer": None, "checker": {"checks": checks},
    }


def probe_cosigner_fragments() -> dict:
    """Counts: co-signatories that are only a part of the memo (tries) and how many passed; the
    co-signatory written as the same person another way (controls) and how many passed."""
    s = sampler_of("legal_ops")
    out = {"tasks": 0, "tries": 0, "passed": 0, "controls": 0, "control_passed": 0, "examples": []}
    for seed in range(120 * SCALE):  # (seeds with a trust balance of 50,000 free: 2 in the first 40 since the seeded dates moved the draws)
        task = cosigner_left_task(s, seed)
        if task is None:
            continue
        out["tasks"] += 1
        call = task["reference_plan"][0]
        for cosigner, kind in [(f, ("tries", "passed")) for f in FRAGMENTS] + [(n, ("controls", "control_passed")) for n in SAME_PERSON]:
            p = Player(s.world, task)
            res = p.call(call["tool"], {**call["arguments"], "cosigner": cosigner})
            if not res["success"]:
                continue  # (a blank co-signatory is refused by the service itself)
            out[kind[0]] += 1
            got = p.score()
            out[kind[1]] += got["reward"]
            if got["reward"] != (kind[0] == "controls"):
                out["examples"].append((task["id"], cosigner, got["failed"]))
    return out


def test_a_co_signatory_is_a_name_not_any_part_of_the_memo():
    """`memo contains cosigner` holds for any fragment of the memo; the co-signatory the rules
    leave to the agent is the person the memo names, compared as a name (case, spacing, the dots
    after initials and a title aside). Before the fix all 78 fragments passed, and of the 65
    spellings of the right name only the 13 exact ones."""
    got = probe_cosigner_fragments()
    assert got["tasks"] >= 5 and got["tries"] >= 30, got
    assert got["passed"] == 0, (got["passed"], got["tries"], got["examples"][:3])
    assert got["control_passed"] == got["controls"], (got["control_passed"], got["controls"], got["examples"][:3])


def test_names_are_compared_whole():
    from compoworld_dsl.sample.answers import same_name

    assert same_name("R. Castillo", "Mr. r.castillo") and same_name("Dr Ana Ruiz", "ana  ruiz")
    assert not any(same_name("R. Castillo", v) for v in ("R.", "Castillo", "R. Castillo-Smith", "", None, 5))


# ─── 3. several values reported together, as a JSON list in the order asked ───

REPORT_WORLDS = ("legal_ops", "office", "supply_chain", "support", "vet_clinic")


# (table, field) of the values a hand-built task asks for: two of one type, so that each is a
# decoy of the other, and values of other types
ASKED = [("matters.matters", "title"), ("docket.deadlines", "due"), ("matters.matters", "title"), ("billing.accounts", "balance")]


def reports_task(s, seed: int) -> dict:
    """A legal_ops task with nothing to do but tell three or four values of the seeded state, its
    answer checks derived as the sampler derives them (`checker.derive(reports=...)`), each with
    the other values of its field in its table as decoys."""
    world = s.world
    state0 = world.initial_state(seed)
    rows = {t: sorted(state0.tables[t].values(), key=lambda r: str(r[world.state_decl[t]["key"]])) for t, _ in ASKED}
    reports, used = [], {}
    for table, field in ASKED[: 3 + seed % 2]:
        row = rows[table][used.get(table, 0)]
        used[table] = used.get(table, 0) + 1
        t = world.types.records[world.state_decl[table]["record"]][field]
        reports.append({"label": f"the {field} of {table} {row[world.state_decl[table]['key']]}", "type": t, "value": row[field], "table": table, "field": field})
    checks = C.derive(world, state0, state0, [], reports=reports)
    asked = {json.dumps(c["value"]) for c in checks if c["kind"] == "answer"}
    for c, r in zip((c for c in checks if c["kind"] == "answer"), reports):
        # (no reported value is a decoy of another, as in a sampled task)
        others = {json.dumps(world.types.to_json(r["type"], row[r["field"]])) for row in rows[r["table"]]} - asked
        c["decoys"] = [json.loads(v) for v in sorted(others)]
    return {
        "id": f"reports-{seed}", "initial_state": {"seed": seed}, "services": ["matters", "docket", "billing"], "distractors": [],
        "instruction": "Tell me " + ", ".join(r["label"] for r in reports) + ".", "reference_plan": [],
        "reports": reports, "answer": {r["label"]: world.types.to_json(r["type"], r["value"]) for r in reports}, "checker": {"checks": checks},
    }


def several_reports() -> list[tuple[object, dict]]:
    """Sampled tasks that ask for several values (as many as the sampler gives), and hand-built
    ones, which do not depend on how often walks end in several reads."""
    out = []
    for name in REPORT_WORLDS:
        s = sampler_of(name)
        out += [(s, t) for hops in (3, 5) for t in sampled(s, 28, hops, 16) if len(t["reports"]) >= 2]
    legal = sampler_of("legal_ops")
    return out + [(legal, reports_task(legal, seed)) for seed in range(10 * SCALE)]


def probe_list_answers() -> dict:
    """Counts: answers given as a list of the values in the order the instruction asks for them
    (as JSON, as JSON text, after words) and how many passed; the same lists reversed or with
    one value too many (controls) and how many of those passed; and the reference's own answer,
    an object keyed by the labels."""
    out = {"lists": 0, "passed": 0, "controls": 0, "control_passed": 0, "objects": 0, "object_passed": 0, "examples": []}
    for s, task in several_reports():
        values = [task["answer"][r["label"]] for r in task["reports"]]
        p = Player(s.world, task)
        assert all(r["success"] for r in p.plan())
        for answer in (values, json.dumps(values), "In the order you asked: " + json.dumps(values, ensure_ascii=False) + "."):
            out["lists"] += 1
            got = p.score(answer)
            if got["reward"] == 1:
                out["passed"] += 1
            else:
                out["examples"].append((task["id"], answer, got["failed"]))
        out["objects"] += 1
        out["object_passed"] += p.score(task["answer"])["reward"]  # as before: the labelled object
        controls = [values + [values[0]]]
        if json.dumps(values[::-1]) != json.dumps(values):
            controls.append(values[::-1])
        for answer in controls:
            out["controls"] += 1
            out["control_passed"] += p.score(answer)["reward"]
    return out


def test_several_values_answered_as_a_list_in_the_order_asked_pass():
    """A JSON list of the values asked for, in the instruction's order, is an answer as good as
    an object keyed by their labels; reversed (where that changes it) or with an extra value it
    is not. Before the fix all 84 such lists failed (54 from sampled tasks, 30 hand-built)."""
    got = probe_list_answers()
    assert got["lists"] >= 30 and got["controls"] >= 20, got
    assert got["passed"] == got["lists"], (got["passed"], got["lists"], got["examples"][:3])
    assert got["control_passed"] == 0 and got["object_passed"] == got["objects"], got


# ─── 4. a deadline set done as the equivalent extension (and the other way round) ───


def _docket_tasks(s) -> list[dict]:
    return [t for hops in (2, 3, 4, 5) for t in sampled(s, 28, hops, 50) if any(p["tool"] in ("docket.set_deadline", "docket.extend_deadline") for p in t["reference_plan"])]


def equivalent_call(world, state, call: dict) -> dict | None:
    """`set_deadline` as the `extend_deadline` that reaches the same date on `state` (the state
    just before the call), or the other way round; None where no such call exists."""
    matter = call["arguments"]["matter"]
    rows = [d for d in state.tables["docket.deadlines"].values() if world.types.to_json("id", d["matter"]) == matter]
    if not rows:
        return None
    current = dt.date.fromisoformat(world.types.to_json("date", max(rows, key=lambda d: d["set_at"])["due"]))
    if call["tool"] == "docket.set_deadline":
        days = (dt.date.fromisoformat(call["arguments"]["due"]) - current).days
        return {"tool": "docket.extend_deadline", "arguments": {"matter": matter, "extra_days": days}} if 1 <= days <= 365 else None
    due = current + dt.timedelta(days=call["arguments"]["extra_days"])
    return {"tool": "docket.set_deadline", "arguments": {"matter": matter, "due": due.isoformat()}}


def probe_set_as_extend() -> dict:
    """Counts: tasks whose plan sets or extends a deadline, played with that call replaced by the
    equivalent other one (same matter, same final date), and how many passed."""
    s = sampler_of("legal_ops")
    out = {"swapped": 0, "passed": 0, "examples": []}
    for task in _docket_tasks(s):
        plan = task["reference_plan"]
        for k, call in enumerate(plan):
            if call["tool"] not in ("docket.set_deadline", "docket.extend_deadline"):
                continue
            p = Player(s.world, task, mount=["docket"])
            results = [p.call(c["tool"], c["arguments"]) for c in plan[:k]]
            other = equivalent_call(s.world, p.state, call)
            if other is None or not all(r["success"] for r in results):
                continue
            results += [p.call(other["tool"], other["arguments"])] + [p.call(c["tool"], c["arguments"]) for c in plan[k + 1:]]
            if not all(r["success"] for r in results):
                continue
            out["swapped"] += 1
            got = p.score()
            if got["reward"] == 1:
                out["passed"] += 1
            else:
                out["examples"].append((task["id"], call, other, got["failed"]))
    return out


def test_a_deadline_set_as_the_equivalent_extension_passes():
    """The checker judges the final state: setting a deadline to a date and extending it to the
    same date are the same change, unless a house rule is about the calls. (Issue 28 saw 2 of 6
    fail; on the code this probe was written against all 8 swaps here passed already, 13 of 13
    with a second seed: no call-log check or counter tells them apart. It stays as a guard.)"""
    got = probe_set_as_extend()
    assert got["swapped"] >= 6, got
    assert got["passed"] == got["swapped"], (got["passed"], got["swapped"], got["examples"][:3])
