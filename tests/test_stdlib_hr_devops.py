"""The stdlib's HR and devops services (stdlib/hr, stdlib/devops) and the test world that mounts
all nine (tests/fixtures/worlds/hr_devops.world): every file checks clean and is formatted; the
services say how a person names their rows and what their reads give; each service's own tools
accept the rows its seeds make, and the seeds agree where a person expects them to; the house
rules bite where the world says they do; and the world samples 3-hop tasks that verify."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.cli import main
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.sample import checker as C
from compoworld_dsl.syntax import ast as A
from world_calls import ok as _ok

ROOT = Path(__file__).resolve().parent.parent
WORLD = ROOT / "tests" / "fixtures" / "worlds" / "hr_devops.world"
HR = ["employees", "leave", "recruiting", "payroll", "reviews"]
DEVOPS = ["deploys", "incidents", "oncall", "alerts"]
FILES = [ROOT / "stdlib" / "hr" / f"{n}.world" for n in HR] + [ROOT / "stdlib" / "devops" / f"{n}.world" for n in DEVOPS] + [WORLD]
SEEDS = range(6)
TODAY = "2025-03-14"


@pytest.fixture(scope="module")
def program():
    return check_paths([WORLD])


@pytest.fixture(scope="module")
def world(program):
    return load_world(program.model, str(WORLD))



def _rows(state, table):
    return list(state.tables[table].values())


# ─────────────────────────── files ───────────────────────────


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_file_checks_clean_and_is_formatted(path):
    program = check_paths([path])
    assert program.diagnostics == [], "\n".join(f"{d.span}: {d.code} {d.message}" for d in program.diagnostics)
    assert main(["fmt", "--check", str(path)]) == 0


def test_world_mounts_the_nine_services_with_its_house_rules(program):
    model = program.model
    assert sorted(model.world.services) == sorted(HR + DEVOPS)
    for name in HR + DEVOPS:
        assert 14 <= len(model.services[name].tools) <= 20, (name, len(model.services[name].tools))
    assert {c.name for c in model.world.constraints} == {
        "leavers_are_final",
        "production_freeze",
        "no_deploys_during_sev1",
        "acknowledge_first",
        "nobody_away_on_call",
        "tier_one_alerting_as_code",
    }


def test_records_are_named_and_tools_worded(program):
    for name in HR + DEVOPS:
        svc = program.model.services[name]
        stored = {m.type.elem.name for m in svc.decl.members if isinstance(m, A.StateDecl) and isinstance(m.type, A.TableType)}
        records = {m.name: m for m in svc.decl.members if isinstance(m, A.RecordDecl)}
        assert stored and stored <= set(records), name
        for rec in stored:
            assert records[rec].known_by, (name, rec)
            assert "id" not in records[rec].known_by, (name, rec)  # never the opaque key
        for tool in svc.tools.values():
            assert tool.decl.description and tool.decl.say, tool.qualified
            changes = tool.writes or tool.inserts or tool.deletes
            if not changes and tool.decl.result is not None:
                assert tool.decl.gives, tool.qualified


# ─────────────────────────── seeds meet the tools ───────────────────────────

# For every seeded table, a tool of its own service that finds a row from what the row holds:
# (tool, the arguments from the row, whether the row itself must come back)
LOOKUPS = {
    "employees.employees": ("employees.get_employee", lambda r: {"id": r["id"]}, True),
    "employees.departments": ("employees.get_department", lambda r: {"id": r["id"]}, True),
    "leave.balances": ("leave.list_balances", lambda r: {"employee": r["employee"]}, True),
    "leave.requests": ("leave.get_request", lambda r: {"id": r["id"]}, True),
    "recruiting.openings": ("recruiting.get_opening", lambda r: {"id": r["id"]}, True),
    "recruiting.candidates": ("recruiting.get_candidate", lambda r: {"id": r["id"]}, True),
    "recruiting.applications": ("recruiting.list_applications_for_candidate", lambda r: {"candidate": r["candidate"]}, True),
    "recruiting.interviews": ("recruiting.list_interviews", lambda r: {"application": r["application"]}, True),
    "recruiting.offers": ("recruiting.get_offer", lambda r: {"application": r["application"]}, False),
    "payroll.pay_runs": ("payroll.get_pay_run", lambda r: {"id": r["id"]}, True),
    "payroll.payslips": ("payroll.get_payslip", lambda r: {"id": r["id"]}, True),
    "payroll.adjustments": ("payroll.list_adjustments", lambda r: {"payslip": r["payslip"]}, True),
    "reviews.cycles": ("reviews.get_cycle", lambda r: {"id": r["id"]}, True),
    "reviews.reviews": ("reviews.get_review", lambda r: {"id": r["id"]}, True),
    "reviews.goals": ("reviews.list_goals", lambda r: {"employee": r["employee"]}, True),
    "deploys.apps": ("deploys.get_app", lambda r: {"id": r["id"]}, True),
    "deploys.releases": ("deploys.get_release", lambda r: {"id": r["id"]}, True),
    "deploys.deployments": ("deploys.list_deployments", lambda r: {"app": r["app"], "environment": r["environment"]}, True),
    "deploys.freezes": ("deploys.list_freezes", lambda r: {"app": r["app"]}, True),
    "incidents.incidents": ("incidents.get_incident", lambda r: {"id": r["id"]}, True),
    "incidents.notes": ("incidents.list_timeline", lambda r: {"incident": r["incident"]}, True),
    "incidents.postmortems": ("incidents.get_postmortem", lambda r: {"incident": r["incident"]}, False),
    "oncall.schedules": ("oncall.get_schedule", lambda r: {"id": r["id"]}, True),
    "oncall.shifts": ("oncall.list_shifts", lambda r: {"schedule": r["schedule"]}, True),
    "oncall.overrides": ("oncall.list_overrides", lambda r: {"schedule": r["schedule"]}, True),
    "alerts.rules": ("alerts.get_alert_rule", lambda r: {"id": r["id"]}, True),
    "alerts.alerts": ("alerts.get_alert", lambda r: {"id": r["id"]}, True),
    "alerts.silences": ("alerts.list_silences", lambda r: {"rule": r["rule"]}, True),
}


def test_every_seeded_row_is_found_by_its_own_service(world):
    tables = {n for n, d in world.state_decl.items() if d["kind"] == "table"}
    assert set(LOOKUPS) == tables
    for seed in SEEDS:
        state = world.initial_state(seed)
        for table, (tool, args, itself) in LOOKUPS.items():
            rows = _rows(state, table)
            assert 5 <= len(rows) <= 15, (seed, table, len(rows))
            for row in rows:
                row = _json(world, table, row)
                got = _ok(world, state, tool, **args(row))
                found = got if isinstance(got, list) else [got]
                if itself:
                    assert row["id"] in [e["id"] for e in found], (seed, table, row["id"], tool)
                else:  # the latest of several may come back: one of the same parent
                    assert all(all(e[k] == v for k, v in args(row).items()) for e in found), (seed, table, tool)


def _json(world, table, row):
    return C._json_row(world, table, row)


def test_list_reads_keep_to_what_they_are_asked_for(world):
    """A read listing a parent's rows gives only that parent's rows."""
    state = world.initial_state(0)
    for table, (tool, args, _) in LOOKUPS.items():
        if tool.split(".")[1].startswith("get_"):
            continue
        for row in _rows(state, table):
            row = _json(world, table, row)
            for e in _ok(world, state, tool, **args(row)):
                assert all(e[k] == v for k, v in args(row).items()), (tool, e)


def test_seeds_agree_where_a_person_expects(world):
    for seed in SEEDS:
        st = world.initial_state(seed)
        t = {name: {k: _json(world, name, r) for k, r in rows.items()} for name, rows in st.tables.items()}
        emp, dep = t["employees.employees"], t["employees.departments"]
        for e in emp.values():
            assert e["department"] in dep and e["location"] == dep[e["department"]]["location"]
            assert e["manager"] in ("employee-1", "employee-2", "employee-3") and e["manager"] in emp
        for p in t["payroll.payslips"].values():
            assert p["department"] == emp[p["employee"]]["department"]
            assert p["pay_date"] == t["payroll.pay_runs"][p["pay_run"]]["pay_date"]
        for a in t["payroll.adjustments"].values():
            assert a["employee"] == t["payroll.payslips"][a["payslip"]]["employee"]
        for r in t["leave.requests"].values():
            assert r["approver"] == emp[r["employee"]]["manager"]
        for r in t["reviews.reviews"].values():
            assert r["reviewer"] == emp[r["employee"]]["manager"]
        apps = t["recruiting.applications"]
        for i in t["recruiting.interviews"].values():
            assert i["candidate"] == apps[i["application"]]["candidate"]
        for o in t["recruiting.offers"].values():
            assert (o["candidate"], o["opening"]) == (apps[o["application"]]["candidate"], apps[o["application"]]["opening"])
        for d in t["deploys.deployments"].values():
            assert d["app"] == t["deploys.releases"][d["release"]]["app"]
        for f in t["deploys.freezes"].values():  # every seeded window is in force today unless lifted
            assert f["starts"] <= TODAY <= f["ends"]
        for p in t["incidents.postmortems"].values():
            assert p["owner"] == t["incidents.incidents"][p["incident"]]["commander"]
        for s in t["oncall.schedules"].values():
            assert s["team"] == t["deploys.apps"][s["app"]]["team"]
        for o in t["oncall.overrides"].values():  # the seeded overrides are history
            assert o["day"] < TODAY
        rules = t["alerts.rules"]
        for a in t["alerts.alerts"].values():
            assert (a["app"], a["severity"]) == (rules[a["rule"]]["app"], rules[a["rule"]]["severity"])
        for s in t["alerts.silences"].values():
            assert s["app"] == rules[s["rule"]]["app"]


def test_leave_approval_and_cancellation_move_the_balance(world):
    done = 0
    for seed in range(20):
        st = world.initial_state(seed)
        for r in (_json(world, "leave.requests", x) for x in _rows(st, "leave.requests")):
            if r["status"] != "pending" or r["leave_type"] == "unpaid" or r["first_day"] <= TODAY:
                continue
            bal = [b for b in (_json(world, "leave.balances", x) for x in _rows(st, "leave.balances")) if b["employee"] == r["employee"] and b["leave_type"] == r["leave_type"]]
            if len(bal) != 1:
                continue
            left = bal[0]["entitled"] - bal[0]["used"]
            got = world.call(st, "leave.approve_request", {"id": r["id"]})
            if left < r["days"]:
                assert not got["success"] and got["error"]["code"] == 409
                continue
            assert got["success"] and got["data"]["status"] == "approved"
            assert _ok(world, st, "leave.days_remaining", employee=r["employee"], leave_type=r["leave_type"]) == left - r["days"]
            assert _ok(world, st, "leave.cancel_request", id=r["id"])["status"] == "cancelled"
            assert _ok(world, st, "leave.days_remaining", employee=r["employee"], leave_type=r["leave_type"]) == left
            again = world.call(st, "leave.approve_request", {"id": r["id"]})
            assert again["error"]["code"] == 409 and "cancelled" in again["error"]["message"]
            done += 1
    assert done >= 3


# ─────────────────────────── house rules ───────────────────────────


def _holds(world, rule, before, after):
    return C._constraint_holds(world, rule, before, after)[0]


def _first(rows, pred):
    return next((r for r in rows if pred(r)), None)


def test_leavers_records_are_final(world):
    st = world.initial_state(0)
    emps = [_json(world, "employees.employees", e) for e in _rows(st, "employees.employees")]
    gone, here = _first(emps, lambda e: e["status"] == "terminated"), _first(emps, lambda e: e["status"] == "active")
    assert gone and here
    for e, keeps in ((gone, False), (here, True)):
        after = st.snapshot()
        _ok(world, after, "reviews.add_goal", employee=e["id"], title="Mentor a new hire through onboarding", due="2025-06-30")
        assert _holds(world, "leavers_are_final", st, after) is keeps


def _deploy_breaks(world, st, app_pred, rule):
    """Deploy a release of an app that fits to production and to staging: (production breaks, staging breaks)."""
    apps = [_json(world, "deploys.apps", a) for a in _rows(st, "deploys.apps")]
    releases = [_json(world, "deploys.releases", r) for r in _rows(st, "deploys.releases")]
    busy = {(d["app"], d["environment"]) for d in (_json(world, "deploys.deployments", x) for x in _rows(st, "deploys.deployments")) if d["status"] == "in_progress"}
    for app in apps:
        rel = _first(releases, lambda r: r["app"] == app["id"])
        if not app_pred(app) or rel is None or (app["id"], "production") in busy or (app["id"], "staging") in busy:
            continue
        out = []
        for env in ("production", "staging"):
            after = st.snapshot()
            _ok(world, after, "deploys.deploy_release", release=rel["id"], environment=env, deployed_by="release-bot")
            out.append(not _holds(world, rule, st, after))
        return tuple(out)
    return None


def test_no_production_deploy_in_a_freeze_window(world):
    seen = set()
    for seed in range(20):
        st = world.initial_state(seed)
        freezes = [_json(world, "deploys.freezes", f) for f in _rows(st, "deploys.freezes")]
        frozen = {f["app"] for f in freezes if not f["lifted"]}
        for pred, expect in ((lambda a: a["id"] in frozen, (True, False)), (lambda a: a["id"] not in frozen, (False, False))):
            got = _deploy_breaks(world, st, pred, "production_freeze")
            if got is not None:
                assert got == expect, seed
                seen.add(expect)
    assert seen == {(True, False), (False, False)}


def test_no_production_deploy_during_a_sev1(world):
    st = world.initial_state(0)
    inc = _first((_json(world, "incidents.incidents", i) for i in _rows(st, "incidents.incidents")), lambda i: i["status"] != "resolved")
    assert inc is not None
    while _ok(world, st, "incidents.get_incident", id=inc["id"])["severity"] != "sev1":
        _ok(world, st, "incidents.escalate_incident", id=inc["id"])
    frozen_free = _deploy_breaks(world, st, lambda a: a["id"] == inc["app"], "no_deploys_during_sev1")
    assert frozen_free == (True, False)
    _ok(world, st, "incidents.resolve_incident", id=inc["id"], resolution="Error rate back to baseline after the rollback.")
    assert _deploy_breaks(world, st, lambda a: a["id"] == inc["app"], "no_deploys_during_sev1") == (False, False)


def test_nobody_away_is_put_on_call(world):
    checked = set()
    for seed in SEEDS:
        st = world.initial_state(seed)
        emps = [_json(world, "employees.employees", e) for e in _rows(st, "employees.employees")]
        schedule = _rows(st, "oncall.schedules")[0]["id"]
        for e in emps:
            after = st.snapshot()
            got = world.call(after, "oncall.create_override", {"schedule": schedule, "engineer": e["id"], "day": "2025-03-21", "reason": "Covering a sick colleague"})
            if got["success"]:
                keeps = _holds(world, "nobody_away_on_call", st, after)
                assert keeps is (e["status"] == "active"), (seed, e)
                checked.add(e["status"])
    assert checked == {"active", "on_leave", "terminated"}


def test_tier_one_alerting_is_left_alone(world):
    st = world.initial_state(0)
    apps = [_json(world, "deploys.apps", a) for a in _rows(st, "deploys.apps")]
    for tier_one in (True, False):
        app = _first(apps, lambda a: (a["tier"] == "tier_1") is tier_one)
        assert app is not None, tier_one
        after = st.snapshot()
        _ok(world, after, "alerts.create_alert_rule", app=app["id"], name="Error budget burn rate", threshold=0.9, severity="warning")
        assert _holds(world, "tier_one_alerting_as_code", st, after) is not tier_one


def test_only_the_house_rule_asks_for_an_acknowledgement(program, world):
    order = next(c for c in program.model.world.constraints if c.name == "acknowledge_first").clauses[0]
    assert (order.tool, order.after, order.on) == (("incidents", "resolve_incident"), ("incidents", "acknowledge_incident"), ("id",))
    st = world.initial_state(0)
    inc = _first((_json(world, "incidents.incidents", i) for i in _rows(st, "incidents.incidents")), lambda i: i["status"] != "resolved")
    assert _ok(world, st, "incidents.resolve_incident", id=inc["id"], resolution="Status page updated.")["status"] == "resolved"
    again = world.call(st, "incidents.acknowledge_incident", {"id": inc["id"]})
    assert again["error"]["code"] == 409


# ─────────────────────────── sampling ───────────────────────────


def test_sampled_three_hop_tasks_verify(tmp_path, capsys):
    out = tmp_path / "hr_devops.jsonl"
    assert main(["sample", str(WORLD), "--hops", "3", "-n", "4", "--seed", "1", "-o", str(out)]) == 0
    tasks = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(tasks) == 4
    rules = {"leavers_are_final", "production_freeze", "no_deploys_during_sev1", "acknowledge_first", "nobody_away_on_call", "tier_one_alerting_as_code"}
    for t in tasks:
        assert len(t["reference_plan"]) == 3 and len({s["tool"].split(".")[0] for s in t["reference_plan"]}) >= 2
        assert {c["name"] for c in t["constraints"]} <= rules
        # records are named by description, never by key
        assert not re.search(r"\b(employee|department|leaverequest|payslip|app|release|deployment|incident|schedule|alertrule|alert)-\d+\b", t["instruction"]), t["instruction"]
    capsys.readouterr()
    code = main(["verify", str(WORLD), str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "4 of 4 tasks verified" in err


def test_the_docs_list_every_tool(program):
    """docs/stdlib-hr-devops.md has one table row per tool, under its service, with its description."""
    doc = (ROOT / "docs" / "stdlib-hr-devops.md").read_text(encoding="utf-8")
    for name in HR + DEVOPS:
        svc = program.model.services[name]
        section = doc.split(f"### `{name}` ({len(svc.tools)} tools)")[1].split("\n### ")[0].split("\n## ")[0]
        listed = dict(re.findall(r"^\| `(\w+)\([^)]*\)` \| (.+) \|$", section, re.M))
        assert listed == {t.name: t.decl.description for t in svc.tools.values()}, name
