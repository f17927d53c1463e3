"""Probes over sampled tasks (issue 28, item 4): what a task asks must make sense at the time the
agent does it. Each probe counts bad cases from the task records alone, by replaying the plan:

1. a report's expected answer is the value the agent can read when it reports (at the end);
2. a ranked pick is still the only largest in the final state, and a description fits no record
   there that it did not fit at the start (the task's own writes do not make it name another);
3. a conditional task branches on a field the read could have shown otherwise (the record, with
   the field set so that the other branch is taken, is still what the walk reads);
4. an "also make sure to ..." request asks for what already holds: every field the tool sets on
   the record it names, to a constant or an argument, has that value before and after the plan;
5. the branch not taken runs, and changes something, in its own hypothetical state (3's).

Bounded for CI: the six bundled worlds at 3 and 5 hops, 36 attempts each (60% of them drawn as
conditional, for enough branches), 15 to 40 s on the 2-core machine. Long mode, WORLDC_LONG=1:
300 attempts each at 3, 5 and 8 hops (about 8 minutes)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from compoworld_dsl.runtime.state import State, diff
from compoworld_dsl.syntax import ast as A
from compoworld_dsl.sample.people import same_as_said
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample import sampler as sampler_module
from compoworld_dsl.sample.sampler import Rejected
from compoworld_dsl.sample.steps import result_table

ROOT = Path(__file__).resolve().parents[1]
LONG = os.environ.get("WORLDC_LONG") == "1"
WORLDS = ["legal_ops", "office", "supply_chain", "support", "vet_clinic", "toy"]
HOPS = (3, 5, 8) if LONG else (3, 5)
ATTEMPTS = 300 if LONG else 36
SEED = 4242
BRANCH_SHARE = 0.6


@pytest.fixture(scope="module")
def sampled() -> dict:
    """world → (its sampler, the tasks its attempts give). Twice as many attempts as usual are
    drawn as conditional (`BRANCH_SHARE`), so that the branch probes see a hundred branches."""
    out = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sampler_module, "BRANCH_SHARE", BRANCH_SHARE)
        for world in WORLDS:
            s = load_sampler(str(ROOT / "worlds" / f"{world}.world"))
            got = []
            for hops in HOPS:
                for i in range(ATTEMPTS):
                    try:
                        got.append(s.task(SEED, i, hops))
                    except Rejected:
                        pass
            out[world] = (s, got)
    return out


# ─────────────────────────── replaying a task record ───────────────────────────


class Run:
    """A task's reference plan replayed from its initial state: the state before each call, each
    call's data (JSON), and the record each step gave the steps after it."""

    def __init__(self, s, task: dict):
        self.s = s
        self.w, self.people, self.task = self.s.world, self.s.facts.people, task
        self.state0 = self.w.task_state(task["initial_state"])
        self.plan = task["reference_plan"]
        self.states, self.datas = [self.state0], []
        for call in self.plan:
            st = self.states[-1].snapshot()
            res = self.w.call(st, call["tool"], call["arguments"])
            assert res["success"], (task["id"], call, res)
            self.datas.append(res["data"])
            self.states.append(st)
        self.final = self.states[-1]

    def tool(self, k: int):
        q = self.plan[k]["tool"]
        service, name = q.split(".", 1)
        return self.s.model.services[service].tools[name]

    def table(self, k: int) -> str | None:
        return result_table(self.people, self.tool(k))

    def call(self, state: State, k: int, arguments=None) -> dict:
        return self.w.call(state.snapshot(), self.plan[k]["tool"], self.plan[k]["arguments"] if arguments is None else arguments)

    def key_of(self, k: int):
        """The key (JSON) of the record step k gave the steps after it: its record result, or the
        element of its list that a report names, or that later arguments, its rank and its
        description as the instruction words it single out (None when they leave more than one)."""
        data, table = self.datas[k], self.table(k)
        if table is None:
            return None
        key = self.people.key[table]
        if isinstance(data, dict):
            return data.get(key)
        for r in self.task["reports"]:
            if r["step"] == k + 1 and r.get("element"):
                return r["element"]["value"]
        found = list(data)
        for later, binds in enumerate(self.task["bindings"]):  # what later steps took from it
            for name, source in binds.items():
                field = source.split(".", 1)[1] if source.startswith(f"step {k + 1}.") else key if source == f"step {k + 1}" else None
                if field is not None:
                    found = [e for e in found if e.get(field) == self.plan[later]["arguments"][name]]
        rank = self.task["found_by"][k] or ""
        if len(found) > 1 and rank.startswith("rank: the "):
            order, field = rank[len("rank: the ") :].split(" ", 1)
            top = (min if order == "smallest" else max)(self.internal(table, field, e[field]) for e in data)
            found = [e for e in found if self.internal(table, field, e[field]) == top]
        if len(found) > 1 and rank.startswith("description: "):  # the fields the instruction states
            fields = rank[len("description: ") :].split(", ")
            found = [e for e in found if all(self.said(table, f, self.internal(table, f, e[f])) for f in fields)]
        return found[0][key] if len(found) == 1 else None

    def said(self, table: str, field: str, value) -> bool:
        """Does the instruction name `field` = `value` of a `table` record: labelled ('title
        "X"'), or, what the record is known by first, after its noun ('the matter "X"')?"""
        text = self.task["instruction"]
        if self.people.part(self.state0, table, field, value) in text:
            return True
        shown = self.people.value_text(self.people.fields[table][field], value)
        return field == (self.people.known_by.get(table) or (None,))[0] and f"{self.people.noun[table]} {shown}" in text

    def element(self, data, k: int, key):
        table = self.table(k)
        if isinstance(data, dict):
            return data if data.get(self.people.key[table]) == key else None
        found = [e for e in data or () if e.get(self.people.key[table]) == key]
        return found[0] if len(found) == 1 else None

    def internal(self, table: str, field: str, value):
        return self.w.types.from_json(self.people.fields[table][field], value, field)


def flipped(run: Run, state: State, table: str, key, field: str, value_json) -> State:
    """`state` with one field of one row set otherwise (a hypothetical state)."""
    hyp = state.snapshot()
    k = run.w.types.from_json(run.people.fields[table][run.people.key[table]], key, "key")
    row = hyp.tables[table][k]
    hyp.tables[table] = {**hyp.tables[table], k: {**row, field: run.internal(table, field, value_json)}}
    return hyp


def other_values(run: Run, table: str, field: str, current) -> list:
    """Other JSON values a field could hold: an enum's other members, a yes/no's other answer, a
    reference's other records."""
    t = run.people.fields[table][field]
    base = run.w.types.base(t)
    if base.startswith("enum:"):
        return [m for m in run.w.types.enums[base[5:]] if m != current]
    if base == "bool":
        return [not current]
    rt = run.people.ref_table(t)
    if rt is not None:
        return [k for k in run.final.tables.get(rt, {}) if k != current][:4]
    return []


# ─────────────────────────── the probes ───────────────────────────


from compoworld_dsl.agents import _aggregate  # noqa: E402  (the oracle's count or total, from the JSON an agent reads)


def stale_reports(s, task: dict) -> list[str]:
    """Finding 1: reports whose expected answer is not what the read gives at the end."""
    if not task["reports"]:
        return []
    run = Run(s, task)
    bad = []
    for r in task["reports"]:
        k = r["step"] - 1
        expected = task["answer"] if len(task["reports"]) == 1 else task["answer"].get(r["label"])
        res = run.call(run.final, k)
        if not res["success"]:
            bad.append(f"{task['id']}: {r['label']}: its read fails at the end")
            continue
        data = res["data"]
        if r["field"] is not None:
            elem = run.element(data, k, r["element"]["value"] if r.get("element") else run.key_of(k))
            now = None if elem is None else elem.get(r["field"])
        elif r.get("aggregate"):  # how many, or a total, as the agent counts or adds what it reads
            now = _aggregate(r["aggregate"], data) if isinstance(data, list) else None
        else:
            now = data
        if now != expected and not (isinstance(now, (int, float)) and isinstance(expected, (int, float)) and abs(now - expected) < 1e-6):
            bad.append(f"{task['id']}: {r['label']}: expected {expected!r}, at the end {now!r}")
    return bad


def moved_picks(s, task: dict) -> list[str]:
    """Finding 2: ranked picks and descriptions that, at the end, name a record they did not name
    at the start (a ranked pick: the only largest at the end is not the pick)."""
    run = None
    bad = []
    for k, how in enumerate(task["found_by"]):
        if how is None:
            continue
        run = run or Run(s, task)
        table, key = run.table(k), run.key_of(k)
        if table is None or key is None:
            continue
        if how.startswith("rank: the "):
            order, field = how[len("rank: the ") :].split(" ", 1)
            res = run.call(run.final, k)
            if not res["success"]:
                bad.append(f"{task['id']}: step {k + 1}: the ranked list cannot be read at the end")
                continue
            ranked = [run.internal(table, field, e[field]) for e in res["data"]]
            top = [e[run.people.key[table]] for e, v in zip(res["data"], ranked) if v == (min if order == "smallest" else max)(ranked)]
            if top != [key]:
                bad.append(f"{task['id']}: step {k + 1}: the {order} {field} at the end is {top}, not {key!r}")
            continue
        fields = tuple(how[len("description: ") :].split(", "))
        ikey = run.w.types.from_json(run.people.fields[table][run.people.key[table]], key, "key")
        desc = run.people.description(run.state0, table, ikey, fields)
        if desc is None:
            continue
        if isinstance(run.datas[k], list):  # among the list the call shows, then and at the end
            res = run.call(run.final, k)
            start = fitting(run, table, run.datas[k], desc)
            end = fitting(run, table, res["data"] if res["success"] and isinstance(res["data"], list) else [], desc)
        else:  # among the whole table
            start, end = run.people.matches(run.state0, table, desc), run.people.matches(run.final, table, desc)
        if set(end) - set(start):
            bad.append(f"{task['id']}: step {k + 1}: its description ({', '.join(fields)}) fits {sorted(set(end) - set(start), key=repr)} at the end, not at the start")
    return bad


def fitting(run: Run, table: str, rows: list, desc: dict) -> list:
    """The keys of the listed records (JSON) that fit a description (internal values)."""
    keyf = run.people.key[table]
    return [run.internal(table, keyf, e[keyf]) for e in rows if all(same_as_said(run.internal(table, f, e[f]), v) for f, v in desc.items())]


def branch_flaws(s, task: dict) -> tuple[list[str], list[str]]:
    """Findings 3 and 5: (the read fixes the condition's field; the branch not taken does not run
    or changes nothing), over the hypothetical states in which the other branch is taken."""
    b = task["branch"]
    if b is None:
        return [], []
    run = Run(s, task)
    j, field, named = b["if"]["step"] - 1, b["if"]["field"], b["if"]["equals"]
    table, key = run.table(j), run.key_of(j)
    elem = run.element(run.datas[j], j, key)
    if table is None or elem is None:
        return [f"{task['id']}: the condition's record cannot be found"], []
    actual = elem[field]
    wanted = [named] if b["taken"] == "else" else other_values(run, table, field, actual)
    ikey = run.w.types.from_json(run.people.fields[table][run.people.key[table]], key, "key")
    if ikey not in run.state0.tables.get(table, {}):
        return [f"{task['id']}: the condition is on a record the task itself makes"], []
    readable, runs = [], []
    for v in wanted:
        hyp = flipped(run, run.state0, table, key, field, v)
        ok = True
        for k in range(len(run.plan) - 1):
            res = run.w.call(hyp, run.plan[k]["tool"], run.plan[k]["arguments"])
            if not res["success"] or (k == j and (run.element(res["data"], j, key) or {}).get(field, object()) != v):
                ok = False
                break
        if not ok:
            continue
        readable.append(v)
        alt = b["other_branch"]["plan"]
        after = hyp.snapshot()
        if all(c["arguments"] is not None and run.w.call(after, c["tool"], c["arguments"])["success"] for c in alt) and not diff(hyp, after).empty:
            runs.append(v)
    fixed = [] if readable else [f"{task['id']}: the read fixes {field} (the record with {field} {wanted} is not what it reads)"]
    absurd = [] if runs or not readable else [f"{task['id']}: the branch not taken ({b['other_branch']['tool']}) does not run or changes nothing where it would be taken"]
    return fixed, absurd


def refused_requests(s, task: dict) -> list[str]:
    """Finding 4: an "also make sure" request whose goal does not hold, before the plan or after."""
    idem = task["idempotent"]
    if idem is None:
        return []
    run = Run(s, task)
    service, name = idem["tool"].split(".", 1)
    tool = run.s.model.services[service].tools[name]
    for state in (run.state0, run.final):
        if not _already_so(run, state, tool, idem["arguments"]):
            return [f"{task['id']}: {idem['tool']} {idem['arguments']}: its goal does not hold ({'before' if state is run.state0 else 'after the plan'})"]
    return []


def _already_so(run: Run, state: State, tool, arguments: dict) -> bool:
    """Does every field the tool's body sets, on a record an argument names, to a constant or to
    another argument, hold that value already? A tool that deletes, or sets nothing so (a count
    up, a date from the clock), asks for a change whatever the record holds."""
    goal = []
    for st in tool.decl.body:
        if isinstance(st, A.Delete):
            return False
        if isinstance(st, A.Update) and isinstance(st.target, A.KeyTarget) and isinstance(st.target.key, A.Var) and st.target.key.name in arguments:
            table = f"{tool.service}.{st.target.table}"
            for f in st.fields:
                base = run.w.types.base(run.people.fields[table][f.name])
                members = run.w.types.enums[base[5:]] if base.startswith("enum:") else ()
                if isinstance(f.value, A.Literal) and f.value.kind in ("bool", "name"):
                    goal.append((table, arguments[st.target.key.name], f.name, f.value.value))
                elif isinstance(f.value, A.Var) and f.value.name in arguments:
                    goal.append((table, arguments[st.target.key.name], f.name, arguments[f.value.name]))
                elif isinstance(f.value, A.Var) and f.value.name in members:  # an enum member
                    goal.append((table, arguments[st.target.key.name], f.name, f.value.name))
    for table, key, field, want in goal:
        row = state.tables[table].get(run.internal(table, run.people.key[table], key))
        if row is None or run.w.types.to_json(run.people.fields[table][field], row[field]) != want:
            return False
    return bool(goal)


def _count(sampled: dict, probe, kind) -> tuple[list[str], int]:
    """(every bad case the probe finds, how many tasks of its kind it looked at)."""
    bad, seen = [], 0
    for s, tasks in sampled.values():
        for task in tasks:
            if kind(task):
                seen += 1
                bad += probe(s, task)
    return bad, seen


def _fail(bad: list[str], seen: int, what: str) -> str:
    return f"{len(bad)} {what} in {seen} tasks:\n" + "\n".join(bad)


def test_reports_give_the_value_at_the_end(sampled):
    bad, seen = _count(sampled, stale_reports, lambda t: t["reports"])
    assert not bad, _fail(bad, seen, "reports that expect a value the end state does not hold")


def test_picks_and_descriptions_name_the_same_record_at_the_end(sampled):
    bad, seen = _count(sampled, moved_picks, lambda t: any(t["found_by"]))
    assert not bad, _fail(bad, seen, "picks or descriptions that name another record at the end")


def test_branches_are_on_fields_the_read_leaves_open(sampled):
    bad, seen = _count(sampled, lambda s, t: branch_flaws(s, t)[0], lambda t: t["branch"])
    assert not bad, _fail(bad, seen, "branches on a field the read fixes")


def test_the_branch_not_taken_runs_and_changes_something_where_it_would_be_taken(sampled):
    bad, seen = _count(sampled, lambda s, t: branch_flaws(s, t)[1], lambda t: t["branch"])
    assert not bad, _fail(bad, seen, "branches not taken that could not run or change nothing")


def test_make_sure_requests_ask_only_for_what_already_holds(sampled):
    bad, seen = _count(sampled, refused_requests, lambda t: t["idempotent"])
    assert not bad, _fail(bad, seen, "requests for what does not hold")


def test_the_probes_see_enough(sampled):
    """The probes above would pass vacuously on too few tasks: each finding's kind is sampled."""
    every = [t for _, tasks in sampled.values() for t in tasks]
    assert sum(1 for t in every if t["reports"]) >= 40
    assert sum(1 for t in every if t["branch"]) >= 60
    assert sum(1 for t in every if t["idempotent"]) >= 10
    assert sum(1 for t in every for h in t["found_by"] if h and h.startswith("rank")) >= 5
