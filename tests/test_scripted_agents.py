"""Sampled tasks played by scripted agents through the Episode API, judged as a trainer would:
the reference passes, doing nothing earns exactly 0, the same answer in another form passes, a
guessed constant fails, touching a protected row fails even when undone, an agent that corrects
its own mistake passes, stray writes fail the task and cost partial credit, no write can be
left out (even by an agent that knows every argument), and no report is a yes/no."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from compoworld_dsl.agents import call_step, reported
from compoworld_dsl.check import types as T
from compoworld_dsl.gateway import Episode
from compoworld_dsl.sample.checker import GOAL_KINDS
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import Rejected

ROOT = Path(__file__).resolve().parents[1]
GUESSES = [[], 0, "", None, False, True, {}, "[]", "0", "none"]


def sampled(sampler, seed: int, hops: int, indices) -> list[dict]:
    """The tasks the attempts `indices` give (rejected attempts give none)."""
    out = []
    for i in indices:
        try:
            out.append(sampler.task(seed, i, hops))
        except Rejected:
            pass
    return out


@pytest.fixture(scope="module")
def legal():
    return load_sampler(str(ROOT / "worlds" / "legal_ops.world"))


@pytest.fixture(scope="module")
def tasks(legal):
    out = [t for hops in (2, 3, 4) for t in sampled(legal, 7, hops, range(hops * 1000, hops * 1000 + 40))]
    assert len(out) >= 40
    return out


def play(world, task, calls, answer=None, mount=()):
    """Run `calls` (tool, arguments) in a fresh episode of `task`; returns (score, results)."""
    task = {**task, "distractors": sorted(set(task["distractors"]) | set(mount))}
    ep = Episode(world)
    ep.reset(task)
    names = {q: n for n, q in ep.gateway.names.items()}
    results = []
    for tool, args in calls:
        results.append(ep.call("call_tool", {"tool_name": names.get(tool, tool), "arguments": args}))
    if answer is not None:
        ep.report(answer)
    return ep.score(), results


def reference_calls(task):
    return [(p["tool"], p["arguments"]) for p in task["reference_plan"]]


def test_the_reference_plan_earns_1_and_doing_nothing_earns_exactly_0(legal, tasks):
    for task in tasks:
        ref, _ = play(legal.world, task, reference_calls(task), task["answer"])
        assert (ref["reward"], ref["partial"]) == (1, 1.0), (task["id"], ref["failed"])
        nothing, _ = play(legal.world, task, [])
        assert (nothing["reward"], nothing["partial"]) == (0, 0.0), (task["id"], nothing)


def _variants(world, t: str, answer):
    """The same answer in the forms a person might give it."""
    base = world.types.base(t)
    yield json.dumps(answer)  # as JSON text
    yield "The answer: " + json.dumps(answer, ensure_ascii=False)  # JSON after words
    if isinstance(answer, list):
        yield list(reversed(answer))
        if base.startswith("list:record:"):
            key = world.types.keys[base[12:]]
            if key:
                keys = [a[key] for a in answer]
                yield keys
                yield "They are " + ", ".join(keys) + "."
    elif isinstance(answer, dict):
        key = world.types.keys.get(base[7:])
        if key:
            yield answer[key]
            yield f"It is {answer[key]}."
    elif isinstance(answer, (int, float)) and not isinstance(answer, bool):
        yield str(answer)
        yield f"I found {answer} in total."
    elif isinstance(answer, str) and base in ("date", "time", "datetime"):
        yield f"It is {_in_words(base, answer)}."  # "March 14, 2025", "1:30 pm"
    elif isinstance(answer, str):
        yield "  " + answer.upper() + " "
        yield f"It is {answer}."


def _in_words(base: str, iso: str) -> str:
    """A date, time or datetime as a person writes it: "March 14, 2025 at 1:30 pm"."""
    import calendar

    day, _, clock = iso.partition("T") if base != "time" else ("", "", iso)
    out = []
    if day:
        y, m, d = map(int, day.split("-"))
        out.append(f"{calendar.month_name[m]} {d}, {y}")
    if clock:
        h, mi = map(int, clock.split(":")[:2])
        out.append(f"{h % 12 or 12}:{mi:02d} {'pm' if h >= 12 else 'am'}")
    return " at ".join(out)


def test_an_answer_in_another_form_still_passes(legal, tasks):
    tried = 0
    for task in tasks:
        if task["answer"] is None:
            continue
        check = next(c for c in task["checker"]["checks"] if c["kind"] == "answer")
        for variant in _variants(legal.world, check["type"], task["answer"]):
            s, _ = play(legal.world, task, reference_calls(task), variant)
            assert s["reward"] == 1, (task["id"], task["answer"], variant, s["failed"])
            tried += 1
    assert tried >= 20


def test_a_guessed_constant_never_passes(legal, tasks):
    for task in tasks:
        if task["answer"] is None:
            continue
        for guess in GUESSES:
            s, _ = play(legal.world, task, reference_calls(task), guess)
            assert s["reward"] == 0, (task["id"], task["answer"], guess)


def _protected_rows(world, task, state):
    from compoworld_dsl.runtime.state import Tx

    rows = []
    for c in task["constraints"]:
        if c["kind"] == "state":
            untouched, _ = world.constraints[c["name"]].check(Tx(state), Tx(state))
            rows.extend(untouched)
    return rows


def _with_rule(task, name):
    """The task as if `name` were attached: goal-level tasks attach a rule only where a
    look-alike makes it decide the reward, which few do; the checker's judgement of a touched
    row is the same either way."""
    checks = [c for c in task["checker"]["checks"] if c.get("constraint") != name]
    checks.append({"kind": "constraint", "constraint": name, "id": f"c{len(checks) + 1}"})
    rules = [c for c in task["constraints"] if c["name"] != name] + [{"kind": "state", "name": name, "description": ""}]
    return {**task, "checker": {"checks": checks}, "constraints": rules}


def test_touching_a_protected_row_and_undoing_it_still_breaks_the_rule(legal, tasks):
    world = legal.world
    played = 0
    for task in tasks:
        task = _with_rule(task, "hands_off_closed")
        ref, _ = play(world, task, reference_calls(task), task["answer"])
        if ref["reward"] != 1:
            continue  # the reference plan itself works on a closed matter's rows
        state = world.initial_state(task["initial_state"]["seed"])
        docs = [k for t, k in _protected_rows(world, task, state) if t == "documents.files" and not state.tables[t][k]["archived"]]
        if not docs:
            continue
        touch = [("documents.archive_document", {"id": docs[0]}), ("documents.restore_document", {"id": docs[0]})]
        s, results = play(world, task, reference_calls(task) + touch, task["answer"], mount=["documents"])
        assert all(r["success"] for r in results), results
        assert s["reward"] == 0, task["id"]
        assert any(f["kind"] == "constraint" and "undoing it does not count" in f["reason"] for f in s["failed"]), s["failed"]
        assert s["partial"] < 1
        played += 1
    assert played >= 3


def _undo_tools(world, model, service: str, table: str) -> list[tuple[str, str]]:
    """Tools of `service` that take one argument and may undo an insert into `table`: those that
    delete its rows, and those that write the field of its retracted state (`retracted when
    cancelled`): (qualified name, parameter). Which one really undoes is found by trying."""
    r = world.state_decl[f"{service}.{table}"].get("retracted")
    return [
        (tool.qualified, tool.params[0][0])
        for tool in model.tools()
        if tool.service == service and len(tool.params) == 1 and not tool.inserts  # sending a draft deletes it, but is no undo
        and (table in tool.deletes or (r is not None and (table, r[0]) in tool.writes))
    ]


def _undone(world, ep, table: str, key) -> bool:
    row = ep.gateway.state.tables[table].get(key)
    return row is None or world.retracted(table, row)


def correct_a_mistake(sampler, task) -> dict | None:
    """Play `task` as an agent that makes its first insert with a typo, undoes it (deletes the
    row, or cancels or voids it where the world keeps withdrawn rows), makes the right insert and
    goes on with the plan, carrying the ids its own calls return (they differ from the
    reference run's). Returns the score, or None when the task has no such insert or the world
    no tool that undoes it in one call."""
    model, world = sampler.model, sampler.world
    plan = reference_calls(task)
    tools = {t.qualified: t for t in model.tools()}
    first = next((k for k, (tool, args) in enumerate(plan) if tools[tool].inserts and any(n for n, pt in tools[tool].params if T.prim_name(pt) == "text" and n in args)), None)
    if first is None:
        return None
    tool = tools[plan[first][0]]
    table = next(iter(tool.inserts))
    text = {n for n, pt in tool.params if T.prim_name(pt) == "text"}  # not enums, dates or keys
    typo_args = {k: (v + " (typo)" if k in text else v) for k, v in plan[first][1].items()}
    _, ref_results = play(world, task, plan)
    for undo, key_param in _undo_tools(world, model, tool.service, table):
        ep = Episode(world)
        ep.reset({**task, "distractors": sorted(set(task["distractors"]) | {undo.split(".")[0]})})
        names = {q: n for n, q in ep.gateway.names.items()}
        renamed: dict = {}
        got: dict = {}  # step number → the data this episode's call returned
        for k, (tname, args) in enumerate(plan):
            if k == first:
                typo = ep.call("call_tool", {"tool_name": names[tname], "arguments": typo_args})
                assert typo["success"], (task["id"], typo)
                gone = ep.call("call_tool", {"tool_name": names[undo], "arguments": {key_param: typo["data"]}})
                if not gone["success"] or not _undone(world, ep, f"{tool.service}.{table}", typo["data"]):
                    break  # not this tool (or it takes more than one call: archive, then destroy)
            args = {a: renamed.get(v, v) if isinstance(v, str) else v for a, v in args.items()}
            res = call_step(ep.call, names[tname], {**task["reference_plan"][k], "arguments": args})
            assert res["success"], (task["id"], k, res)
            got[k + 1] = res["data"]
            ref = ref_results[k].get("data")
            if isinstance(ref, str) and isinstance(res["data"], str) and ref != res["data"]:
                renamed[ref] = res["data"]
        else:
            if task["answer"] is not None:
                ep.report(reported(task["reports"], got))
            return {**ep.score(), "undo": undo}
    return None


def test_an_agent_that_corrects_its_own_mistake_passes(legal, tasks):
    """Insert with a typo, delete it, insert the right row, go on with the plan."""
    played = 0
    for task in tasks:
        s = correct_a_mistake(legal, task)
        if s is not None:
            assert s["reward"] == 1, (task["id"], s["failed"])
            played += 1
    assert played >= 3


def test_correcting_a_mistake_passes_where_the_world_cancels_instead_of_deleting(office_tasks):
    """Where a table keeps withdrawn rows (`retracted when status == cancelled`: a meeting, an
    event, a trip), the agent's wrong row cancelled is as good as deleted. Before retracted
    states, each of these failed `no_collateral` on the cancelled row."""
    office, tasks = office_tasks
    toy = load_sampler(str(ROOT / "worlds" / "toy.world"))
    undone: dict[str, int] = {}
    for sampler, batch in ((office, tasks), (toy, sampled(toy, 2, 3, range(40)))):
        for task in batch:
            s = correct_a_mistake(sampler, task)
            if s is not None:
                assert s["reward"] == 1, (task["id"], s["undo"], s["failed"])
                undone[s["undo"]] = undone.get(s["undo"], 0) + 1
    cancelled = {u for u in undone if u.split(".")[1].startswith("cancel")}
    assert len(cancelled) >= 2 and sum(undone[u] for u in cancelled) >= 5, undone


def test_stray_writes_fail_the_task_and_cost_partial_credit(legal, tasks):
    world = legal.world
    played = graded = 0
    for task in tasks:
        goals = [c for c in task["checker"]["checks"] if c["kind"] in GOAL_KINDS]
        if len(goals) < 2:
            continue
        state = world.initial_state(task["initial_state"]["seed"])
        # stray notes on matters the task does not work on: a note on its own matter can change
        # what it reads (its latest note), which fails more than the one check it should
        named = {json.dumps(v) for c in task["reference_plan"] for v in c["arguments"].values()}
        open_matters = [k for k, m in state.tables["matters.matters"].items() if m["status"] == "open" and json.dumps(k) not in named]
        if len(open_matters) < 2:
            continue
        stray = [("docket.add_note", {"matter": m, "deadline": "2025-06-30", "text": "stray note"}) for m in open_matters[:2]]
        partials = []
        for n in (0, 1, 2):
            s, results = play(world, task, reference_calls(task) + stray[:n], task["answer"], mount=["docket"])
            assert all(r["success"] for r in results[len(task["reference_plan"]):]), results
            partials.append(s["partial"])
            assert s["reward"] == (1 if n == 0 else 0)
        # each stray write costs at least the goal check of no stray changes; a house rule it
        # breaks too (a hands-off rule on that matter) costs its own check, down to 0
        assert partials[0] == 1.0 > partials[1] >= partials[2], partials
        assert partials[1] <= 1 - 1 / len(goals) + 1e-9
        graded += partials[1] > partials[2]
        played += 1
    assert played >= 3 and graded >= 1


@pytest.fixture(scope="module")
def office_tasks():
    """5-hop office tasks of seed 1 up to attempt 300: among them, before the checks below,
    two tasks whose first write the next undid (end a leave, then start it) and 12 of 164 that
    reported a yes/no (both tests failed on those)."""
    office = load_sampler(str(ROOT / "worlds" / "office.world"))
    out = sampled(office, 1, 5, range(300))
    assert len(out) >= 40
    return office, out


def test_no_write_can_be_left_out_even_by_an_agent_that_knows_the_arguments(office_tasks):
    """The plan without any one write fails, also when every other call keeps the reference's
    own arguments (the necessity proof replays both ways)."""
    office, tasks = office_tasks
    dropped = 0
    for task in tasks:
        calls = reference_calls(task)
        for k, (tool, _) in enumerate(calls):
            if tool in office.mutating:
                s, _ = play(office.world, task, calls[:k] + calls[k + 1:], task["answer"])
                assert s["reward"] == 0, (task["id"], tool)
                dropped += 1
    assert dropped >= 80


def test_no_report_is_a_yes_or_no(office_tasks):
    """`false` is refused as blank, so a yes/no left would always be `true`: answering "yes"
    without looking would pass. No task reports one, and every guess fails."""
    office, tasks = office_tasks
    reported = 0
    for task in tasks:
        assert not any(office.world.types.base(r["type"]) == "bool" for r in task["reports"]), task["id"]
        if task["answer"] is None:
            continue
        reported += 1
        for guess in GUESSES:
            s, _ = play(office.world, task, reference_calls(task), guess)
            assert s["reward"] == 0, (task["id"], guess)
    assert reported >= 30


def _report_table(sampler, task, report) -> str | None:
    """The table whose record a record-field report reads (None for a plain value)."""
    if report["field"] is None:
        return None
    tool = next(t for t in sampler.tools if t.qualified == task["reference_plan"][report["step"] - 1]["tool"])
    return sampler.walker.result_table(tool)


def test_a_reported_field_is_one_few_records_share(office_tasks, legal):
    """An agent that does the work but answers every report with the commonest value of its
    field (every matter is "open") must not pass. A reported field has at least four values in
    its table, and the reported one is held by at most a quarter of the table's rows in the
    task's initial state, or by one row (a value the walk wrote may be held by none), and not
    the commonest. Before this rule (D28) such an agent passed 26 of 111 office tasks with a
    report, 21 of them where the commonest value is one several rows share."""
    from collections import Counter

    office, tasks = office_tasks
    checked = played = shared = 0
    for sampler, batch in ((office, tasks), (legal, sampled(legal, 0, 5, range(150)))):
        for task in batch:
            if task["answer"] is None:
                continue
            state = sampler.world.task_state(task["initial_state"])
            answers, counts = {}, []
            for r in task["reports"]:
                table = _report_table(sampler, task, r)
                if table is None:
                    continue
                rows = list(state.tables[table].values())
                values = Counter(json.dumps(sampler.world.types.to_json(r["type"], row[r["field"]])) for row in rows)
                value = task["answer"] if len(task["reports"]) == 1 else task["answer"][r["label"]]
                mine = values.pop(json.dumps(value), 0)
                assert mine <= max(1, len(rows) / 4), (task["id"], r["label"], value, mine, len(rows))
                assert mine <= 1 or mine < max(values.values()), (task["id"], r["label"], value)  # not the commonest
                assert len(values) + 1 >= 4, (task["id"], r["label"], value)  # not one of a few (a status)
                values[json.dumps(value)] = mine
                checked += 1
                common, n = values.most_common(1)[0]
                answers[r["label"]] = json.loads(common)
                counts.append(n)
            if len(answers) != len(task["reports"]):
                continue  # a plain value too: the constant guesses above cover those
            s, _ = play(sampler.world, task, reference_calls(task), next(iter(answers.values())) if len(answers) == 1 else answers)
            played += 1
            # a tie at the top (every title differs) is the first row's value: right 1 time in n
            shared += s["reward"] == 1 and min(counts) >= 2
    assert checked >= 60 and played >= 60
    assert shared * 20 <= played, (shared, played)


def test_an_answer_that_lists_candidates_fails(office_tasks, legal):
    """An agent that does the work, then answers with every value of the field asked for ("the
    memo is one of A; B; C"; for a count, the counts of other records too), or hedges between
    the right value and one other, names the answer and fails (the check's `decoys`, D29).
    Before, the lister passed 34 of 67 office tasks and 18 of 26 legal_ops ones whose reports are
    record fields, and "1, 2, 3, 4, 5 or 6" passed a count of 6 or less."""
    office, tasks = office_tasks
    listed = hedged = plain = 0
    for sampler, batch in ((office, tasks), (legal, sampled(legal, 0, 5, range(150)))):
        for task in batch:
            checks = [c for c in task["checker"]["checks"] if c["kind"] == "answer"]
            if not any(c.get("decoys") for c in checks):
                continue
            state = sampler.world.task_state(task["initial_state"])
            lines, hedges = [], {}
            for r, c in zip(task["reports"], checks):
                table = _report_table(sampler, task, r)
                plain += table is None and bool(c.get("decoys"))
                if table is None:  # a count or a total: what the same read gives about other records
                    values = {json.dumps(v) for v in c.get("decoys", [])} | {json.dumps(c["value"])}
                else:
                    values = {json.dumps(sampler.world.types.to_json(r["type"], row[r["field"]])) for row in state.tables[table].values()} | {json.dumps(c["value"])}
                lines.append(f"{r['label']}: one of " + "; ".join(sorted(values)))
                hedges[r["label"]] = f"{json.dumps(c['value'])} or {json.dumps(c['decoys'][0])}" if c.get("decoys") else c["value"]
            s, _ = play(sampler.world, task, reference_calls(task), "\n".join(lines))
            assert s["reward"] == 0, (task["id"], "\n".join(lines))
            listed += 1
            s, _ = play(sampler.world, task, reference_calls(task), next(iter(hedges.values())) if len(hedges) == 1 else hedges)
            assert s["reward"] == 0, (task["id"], hedges)
            hedged += 1
            first = next(c for c in checks if c.get("decoys"))
            hedge = {"answer": first["value"], "or else": first["decoys"][0]} if len(checks) == 1 else {**task["answer"], "or else": first["decoys"][0]}
            s, _ = play(sampler.world, task, reference_calls(task), hedge)
            assert s["reward"] == 0, (task["id"], hedge)  # a hedge in JSON too
            s, _ = play(sampler.world, task, reference_calls(task), task["answer"])
            assert s["reward"] == 1, task["id"]  # the answer alone still passes
            prose = " ".join(f"{c.get('label', 'It')} is {c['value'] if isinstance(c['value'], str) else json.dumps(c['value'])}." for c in checks)
            s, _ = play(sampler.world, task, reference_calls(task), prose)
            assert s["reward"] == 1, (task["id"], prose, s["failed"])  # and in sentences that echo the question
    assert listed >= 40 and hedged >= 40 and plain >= 10


def test_only_a_row_the_episode_made_and_withdrew_is_no_change():
    """`retracted when cancelled` forgives the agent's own cancelled event, nothing else: an
    event left scheduled by mistake, a seeded event cancelled, and a task made and closed (tasks
    are done, not withdrawn) each still fail `no_collateral`."""
    toy = load_sampler(str(ROOT / "worlds" / "toy.world"))
    world = toy.world
    task = next(t for t in sampled(toy, 2, 3, range(40)) if any(p["tool"] == "calendar.schedule_event" for p in t["reference_plan"]))
    plan = reference_calls(task)
    answer = task["answer"]
    k = next(i for i, (tool, _) in enumerate(plan) if tool == "calendar.schedule_event")
    wrong = ("calendar.schedule_event", {**plan[k][1], "title": "Wrong title", "start": "06:05"})
    def collateral(s):
        return [f for f in s["failed"] if f["kind"] == "no_collateral"]

    s, results = play(world, task, [wrong] + plan, answer)  # left on the calendar
    assert s["reward"] == 0 and collateral(s), s["failed"]
    state = world.task_state(task["initial_state"])
    new_id = world.next_key(state, "calendar.events")
    s, results = play(world, task, [wrong, ("calendar.cancel_event", {"id": new_id})] + plan, answer)
    assert results[1]["success"] and s["reward"] == 1, s["failed"]
    seeded = next(key for key, e in state.tables["calendar.events"].items() if not e["cancelled"])
    s, results = play(world, task, plan + [("calendar.cancel_event", {"id": seeded})], answer)
    assert results[-1]["success"] and s["reward"] == 0 and collateral(s), s["failed"]
    task_id = world.next_key(state, "tasks.tasks")
    made = [("tasks.add_task", {"title": "Wrong task", "due": "2025-03-20"}), ("tasks.close_task", {"id": task_id})]
    s, results = play(world, task, made + plan, answer, mount=["tasks"])
    assert results[0]["success"] and results[1]["success"] and s["reward"] == 0 and collateral(s), (results[:2], s["failed"])


def test_changing_the_wrong_row_and_changing_it_back_passes(legal, tasks):
    """Set the deadline of a matter the task is not about, set it back, then the plan: the row
    ends as it began but for `set_at`, which the clock decides; that is no collateral (before,
    all 61 such agents on legal_ops seed 3 failed). Left at the wrong date, it still fails; a
    protected row written at all still breaks its rule (the test above)."""
    world = legal.world
    deadline_type = world.types.records["docket.Deadline"]["due"]
    played = 0
    for task in tasks:
        if task["constraints"]:
            continue
        state = world.task_state(task["initial_state"])
        plan = reference_calls(task)
        named = {v for _, args in plan for v in args.values()}
        per_matter = collections.Counter(d["matter"] for d in state.tables["docket.deadlines"].values())
        other = next((d for d in state.tables["docket.deadlines"].values() if d["matter"] not in named and per_matter[d["matter"]] == 1), None)
        if other is None:
            continue
        wrong = ("docket.set_deadline", {"matter": other["matter"], "due": "2025-12-31"})
        back = ("docket.set_deadline", {"matter": other["matter"], "due": world.types.to_json(deadline_type, other["due"])})
        s, results = play(world, task, [wrong, back] + plan, task["answer"], mount=["docket"])
        assert results[0]["success"] and results[1]["success"], results[:2]
        assert s["reward"] == 1, (task["id"], s["failed"])
        s, _ = play(world, task, [wrong] + plan, task["answer"], mount=["docket"])
        assert s["reward"] == 0 and any(f["kind"] == "no_collateral" for f in s["failed"]), (task["id"], s["failed"])
        played += 1
    assert played >= 10


def test_a_mistaken_order_cancelled_takes_its_lines_with_it():
    """`state lines: table[SalesLine] retracted with order`: the agent that places a wrong order,
    adds a line to it and cancels the order has undone all of it (the line stays on file, its
    order withdrawn); before `retracted with`, the line was collateral. Left uncancelled, the
    order and its line still fail the task."""
    supply = load_sampler(str(ROOT / "worlds" / "supply_chain.world"))
    world = supply.world
    task = next(t for t in sampled(supply, 3, 3, range(40)) if not t["constraints"])
    state = world.task_state(task["initial_state"])
    customer = next(k for k, c in state.tables["orders.customers"].items() if not c["credit_hold"])
    warehouse = next(iter(state.tables["inventory.warehouses"]))
    product = next(iter(state.tables["catalog.products"]))
    today = world.types.to_json("date", state.scalars["orders.today"])
    order = world.next_key(state, "orders.orders")
    wrong = [
        ("orders.place_order", {"customer": customer, "warehouse": warehouse, "po_number": "PO-TYPO", "requested": today}),
        ("orders.add_order_line", {"order": order, "product": product, "quantity": 1, "unit_price": 10}),
    ]
    plan = reference_calls(task)
    s, results = play(world, task, wrong + [("orders.cancel_order", {"order": order})] + plan, task["answer"], mount=["orders"])
    assert all(r["success"] for r in results[:3]), results[:3]
    assert s["reward"] == 1, (task["id"], s["failed"])
    s, results = play(world, task, wrong + plan, task["answer"], mount=["orders"])
    assert s["reward"] == 0 and any(f["kind"] == "no_collateral" and "2 other change(s)" in f["reason"] for f in s["failed"]), s["failed"]
