"""Deep walks (issue 28, D36): long one-thread walks are found by a search, and a value a step
takes from an earlier read is what an agent finds when it gets to that step.

Properties over sampled tasks, checked from the task records through the Episode API, as an
agent would see them. WORLDC_LONG=1 samples more attempts and longer walks."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from compoworld_dsl.agents import call_step
from compoworld_dsl.codegen.python import tstr
from compoworld_dsl.gateway import Episode
from compoworld_dsl.sample.rejected import Rejected
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.steps import result_table, threads

ROOT = Path(__file__).resolve().parents[1]
LONG = os.environ.get("WORLDC_LONG") == "1"
STEP = re.compile(r"^step (\d+)(?:\.(\w+))?$")


def _sampled(sampler, seed: int, hops: int, n: int) -> list[dict]:
    out = []
    for i in range(n):
        try:
            out.append(sampler.task(seed, i, hops))
        except Rejected:
            pass
    return out


def _found_again(sampler, task: dict, j: int, result):
    """Step j's element in `result` the way the instruction finds it: the only latest or largest
    for a rank (`found_by` "rank: the largest FIELD" or "rank: the smallest FIELD"), else the record of the reference's key."""
    call = task["reference_plan"][j]
    tool = next(t for t in sampler.facts.tools if t.qualified == call["tool"])
    table = result_table(sampler.people, tool)
    how = task["found_by"][j] or ""
    if not isinstance(result, list):
        return result
    if how.startswith("rank: "):
        order, field = how.split(" ", 3)[2:]
        assert field in sampler.people.fields[table] and order in ("largest", "smallest"), how
        top = [e for e in result if e[field] == (min if order == "smallest" else max)(x[field] for x in result)]
        return top[0] if len(top) == 1 else None
    return None  # a description: the element is found by its words, which `still_named` checks


@pytest.mark.parametrize("world,hops", [("legal_ops", 8), ("office", 8), ("supply_chain", 8)] + ([("support", 12), ("legal_ops", 12)] if LONG else []))
def test_a_value_from_an_earlier_read_is_what_the_agent_finds_when_it_gets_there(world, hops):
    """Each argument bound to "step j.FIELD", with a write between step j and its own step: the
    read of step j, run again right before that step (after the writes the instruction puts
    first), finds a record whose FIELD is the argument's value."""
    sampler = load_sampler(str(ROOT / "worlds" / f"{world}.world"))
    tasks = _sampled(sampler, 5, hops, 60 if LONG else 12)
    assert len(tasks) >= 3
    checked = 0
    for task in tasks:
        plan = task["reference_plan"]
        writes = [call["tool"] in sampler.facts.mutating for call in plan]
        for k, args in enumerate(task["bindings"]):
            for name, source in args.items():
                m = STEP.match(source) if isinstance(source, str) else None
                if not m:
                    continue
                j = int(m.group(1)) - 1
                if writes[j] or not any(writes[j + 1 : k]):
                    continue
                ep = Episode(sampler.world)
                ep.reset(task)
                names = {q: n for n, q in ep.gateway.names.items()}  # a tool's name as the agent sees it
                for call in plan[:k]:
                    assert call_step(ep.call, names[call["tool"]], call)["success"]
                again = call_step(ep.call, names[plan[j]["tool"]], plan[j])
                assert again["success"], (task["id"], j, again)
                found = _found_again(sampler, task, j, again["data"])
                if found is None and isinstance(again["data"], list):
                    # by description: the record the argument names is still in the list
                    found = next((e for e in again["data"] if m.group(2) and e.get(m.group(2)) == plan[k]["arguments"][name]), None)
                    assert found is not None, (task["id"], k, name)
                else:
                    assert found is not None, (task["id"], "the rank has no single winner by then", j)
                    value = found[m.group(2)] if m.group(2) else found
                    assert value == plan[k]["arguments"][name], (task["id"], k, name, value, plan[k]["arguments"][name], task["instruction"])
                checked += 1
    assert checked >= 2, "no value carried past a write: the test shows nothing"


def test_deep_walks_are_one_thread_and_long():
    """At 12 hops the search finds one-thread walks on a world whose tools act on few records."""
    sampler = load_sampler(str(ROOT / "worlds" / "supply_chain.world"))
    tasks = _sampled(sampler, 7, 12, 8 if not LONG else 40)
    assert len(tasks) >= 2, "no 12-hop task in 8 attempts"
    for task in tasks:
        assert threads(task) == 1 and len(task["reference_plan"]) == 12


def test_a_value_left_to_the_rules_is_not_one_the_record_holds_already():
    """"Change the memo of that disbursement to the memo the house rules call for": when the memo
    the record has already satisfies the rules, no person can tell what else to write (an agent
    who played deep tasks failed one so). A value left to the rules (binding "house rules") in an
    update: the plan that keeps the record's old value there is refused by the tool or breaks a
    house rule. Before, 2 of 9 such values in legal_ops tasks (seeds 1-3 at 5, 8 and 12 hops, 40
    attempts each) ran and kept every rule, both at 12 hops, seed 3, attempts 7 and 25."""
    import json

    from compoworld_dsl.runtime.state import diff

    sampler = load_sampler(str(ROOT / "worlds" / "legal_ops.world"))
    checked = 0
    # tasks with such a step are a few percent: sample seed after seed until some are checked
    tasks = (t for seed in (3, 4, 5, 6) if not checked for t in _sampled(sampler, seed, 12, 60 if LONG else 30))
    for task in tasks:
        plan = task["reference_plan"]
        for k, args in enumerate(task["bindings"]):
            for name, source in args.items():
                if source != "house rules":
                    continue
                ep = Episode(sampler.world)
                ep.reset(task)
                names = {q: n for n, q in ep.gateway.names.items()}  # a tool's name as the agent sees it
                for call in plan[:k]:
                    call_step(ep.call, names[call["tool"]], call)
                before = ep.gateway.state.snapshot()
                call_step(ep.call, names[plan[k]["tool"]], plan[k])
                held = [before.tables[ch.table][ch.key][name] for ch in diff(before, ep.gateway.state).rows if ch.kind == "updated" and name in ch.fields]
                if not held:
                    continue  # an insert, or a field named otherwise: nothing held already
                ep = Episode(sampler.world)
                ep.reset(task)
                for i, call in enumerate(plan):
                    arguments = {**call["arguments"], name: sampler.world.types.to_json(dict(sampler.world.tools[call["tool"]].params)[name], held[0])} if i == k else call["arguments"]
                    got = call_step(ep.call, names[call["tool"]], {**call, "arguments": arguments})
                    if i == k:
                        kept_value_ran = got["success"]
                ep.report(None if task["answer"] is None else json.dumps(task["answer"]))
                score = ep.score()
                assert not kept_value_ran or any(f["kind"] == "constraint" for f in score["failed"]), (task["id"], k, name, held[0])
                checked += 1
    assert checked >= 1, "no update left a value to the rules: the test shows nothing"


def test_a_fed_write_is_never_offered_for_a_parameter_its_own_row_derives():
    """A write from stated facts may follow only where an earlier value can feed one of its
    parameters; a parameter the new row derives itself (a new colleague's email, made from the
    name) is never fed, so offering the write for it was a try spent for nothing ("no earlier
    result feeds it" was legal_ops' second dead end at 16 hops)."""
    sampler = load_sampler(str(ROOT / "worlds" / "office.world"))
    facts, graph = sampler.facts, sampler.facts.walks
    checked = 0
    for tool in facts.tools:
        own = facts.own_args.get(tool.qualified, frozenset())
        for name, pt in tool.params:
            if name not in own:
                continue
            t = tstr(pt)
            # an earlier step that offers a value of the parameter's own type and name
            fed = graph.fed(tool, [(t, 0, name, "x@example.com")], [])
            assert name not in dict(fed), (tool.qualified, name)
            checked += 1
    assert checked >= 3


def test_a_walk_full_of_unused_reads_is_offered_only_tools_that_use_one():
    """When the reads no step has used yet are as many as the steps left, every tool with keys
    offered next takes a key one of them gives: any other would leave a read unused for good
    (the commonest dead end of legal_ops' 16-hop walks)."""
    import random

    from compoworld_dsl.sample.steps import Step

    sampler = load_sampler(str(ROOT / "worlds" / "legal_ops.world"))
    graph = sampler.facts.walks
    by_name = {t.qualified: t for t in sampler.facts.tools}
    # a contact added (a write: nothing to use up), then a matter found by title, unused yet
    steps = [Step(by_name["contacts.add_contact"], {}), Step(by_name["matters.find_matters"], {})]
    hs = [("alias:MatterId:id", 1, "id", "matter-1"), ("alias:ContactId:id", 0, None, "contact-9")]

    def offered(hops: int) -> list[list[str]]:
        out = []
        for seed in range(20):
            out += [graph._keys[t.qualified] for t in graph.candidates(random.Random(seed), 2, hops, steps, hs, changing=False, joined=True) if graph._keys[t.qualified]]
        return out

    roomy = offered(8)  # six steps left: the matter may wait
    assert any("alias:MatterId:id" not in keys for keys in roomy)
    full = offered(3)  # one step left, one read to use up
    assert full and all("alias:MatterId:id" in keys for keys in full)


def test_a_walk_never_deletes_a_record_an_earlier_step_changed():
    """Updating a row and then deleting it makes the update for nothing: the necessity proof
    turned such walks down after all their work (17 of 200 imported specs spent their tries on
    list, update, delete); the walk refuses the delete as it grows (`Walker._rewrites`)."""
    from compoworld_dsl.runtime.state import diff
    from compoworld_dsl.sample.attempt import Attempt
    from compoworld_dsl.sample.walk import Walker

    sampler = load_sampler(str(ROOT / "worlds" / "toy.world"))
    world = sampler.world
    state0 = world.initial_state(1)
    fid = next(iter(state0.tables["files.files"]))
    moved = state0.snapshot()
    assert world.call(moved, "files.move_file", {"id": fid, "folder": "/elsewhere"})["success"]
    gone = moved.snapshot()
    assert world.call(gone, "files.delete_file", {"id": fid})["success"]
    walker = Walker(sampler.facts, Attempt.__new__(Attempt))
    assert walker._rewrites(moved, gone, [diff(state0, moved)]) == "it deletes a record step 1 changed"


def test_a_walk_never_deletes_a_record_an_earlier_steps_new_row_refers_to():
    """"For the trust anchor "Cedar trust anchor", add a crl "Northwind crl" ... before you
    delete it" (a fresh imported task, stop 56): the new row is left referring to nothing, or
    goes with its record, and the request that made it is for nothing. The walk refuses the
    delete; a delete of a record no new row names is still taken, and so is one after an action
    whose row only logs the call (no read shows it: "cancel the operation, then delete it")."""
    from compoworld_dsl.runtime.state import diff
    from compoworld_dsl.sample.attempt import Attempt
    from compoworld_dsl.sample.walk import Walker

    sampler = load_sampler(str(ROOT / "tests" / "fixtures" / "worlds" / "folders.world"))
    world = sampler.world
    state0 = world.initial_state(1)
    folders = sorted(state0.tables["files.folders"])
    walker = Walker(sampler.facts, Attempt.__new__(Attempt))
    for write, why in (("files.add_doc", "it deletes a record step 1's new row refers to"), ("files.archive_folder", None)):
        after = state0.snapshot()
        args = {"folder": folders[0], "title": "Budget"} if write == "files.add_doc" else {"folder": folders[0]}
        assert world.call(after, write, args)["success"]
        for folder, expect in ((folders[0], why), (folders[1], None)):
            gone = after.snapshot()
            assert world.call(gone, "files.delete_folder", {"folder": folder})["success"]
            assert walker._rewrites(after, gone, [diff(state0, after)]) == expect, (write, folder)

def test_a_walk_names_no_record_an_earlier_step_deleted():
    """A call that names a record the walk deleted is refused (`Walker._gone`): an imported world
    keeps a gateway's statistics in a table of their own, whose read needs no gateway (a tool
    reads no other service's state), and a fresh draw's task read them after deleting it. A
    record deleted from the seeded state is refused; one still there is not."""
    from compoworld_dsl.sample.attempt import Attempt
    from compoworld_dsl.sample.walk import Walker

    sampler = load_sampler(str(ROOT / "tests" / "fixtures" / "worlds" / "folders.world"))
    world = sampler.world
    state0 = world.initial_state(1)
    folders = sorted(state0.tables["files.folders"])
    walker = Walker(sampler.facts, Attempt.__new__(Attempt))
    gone = state0.snapshot()
    assert world.call(gone, "files.delete_folder", {"folder": folders[0]})["success"]
    list_docs = next(t for t in sampler.facts.tools if t.qualified == "files.list_docs")
    assert walker._gone(state0, gone, list_docs, {"folder": folders[0]}) == "folder names the folder an earlier step deleted"
    assert walker._gone(state0, gone, list_docs, {"folder": folders[1]}) is None
    assert walker._gone(state0, state0, list_docs, {"folder": folders[0]}) is None


def test_a_walk_writes_nothing_under_a_record_an_earlier_step_ended():
    """Closing a matter, then correcting or writing off one of its time entries, reverses a
    person's order (found reading 8-hop legal_ops tasks: "Close that matter. ... write off that
    time entry"): an existing row under a record the task ended is no more written to than a new
    one is added under it (`Walker._rewrites`)."""
    from compoworld_dsl.runtime.state import diff
    from compoworld_dsl.sample.attempt import Attempt
    from compoworld_dsl.sample.walk import Walker

    sampler = load_sampler(str(ROOT / "worlds" / "legal_ops.world"))
    world = sampler.world
    state0 = world.initial_state(1)
    entries = state0.tables["timekeeping.entries"]
    entry = next(e for e in entries.values() if e["status"] == "unbilled" and state0.tables["matters.matters"][e["matter"]]["status"] == "open")
    closed = state0.snapshot()
    assert world.call(closed, "matters.close_matter", {"id": entry["matter"]})["success"]
    written = closed.snapshot()
    assert world.call(written, "timekeeping.write_off_time", {"id": entry["id"]})["success"]
    walker = Walker(sampler.facts, Attempt.__new__(Attempt))
    assert walker._rewrites(closed, written, [diff(state0, closed)]) == "it changes a row under a record step 1 ended"
    # the same write with the matter left open: nothing to refuse
    open_written = state0.snapshot()
    assert world.call(open_written, "timekeeping.write_off_time", {"id": entry["id"]})["success"]
    assert walker._rewrites(state0, open_written, []) is None


def test_a_walk_offers_no_value_the_instruction_states():
    """A value the instruction states (an argument it gives, a field a read found a record by)
    is no value an earlier output hands on: `reports.flows_not_stated` turned such walks down
    after all their work (170 of 190 attempts on payrun.io, a new employer's stated effective
    date carried as a batch's holding date). `Walker.handles` leaves them out; the record's key
    and the values the text does not say are offered as before."""
    from compoworld_dsl.sample.attempt import Attempt
    from compoworld_dsl.sample.steps import Step
    from compoworld_dsl.sample.walk import Walker

    sampler = load_sampler(str(ROOT / "worlds" / "toy.world"))
    state0 = sampler.world.initial_state(1)
    fid, row = next(iter(state0.tables["files.files"].items()))
    listed = [r for r in state0.tables["files.files"].values() if r["folder"] == row["folder"]]  # (the read's result)
    tool = next(t for t in sampler.facts.tools if t.qualified == "files.list_folder")
    step = Step(tool, {"folder": ("user", None)}, pick=fid, how={"by": "description", "table": "files.files", "fields": ["name", "folder"]})
    walker = Walker(sampler.facts, Attempt.__new__(Attempt))
    offered = {f: v for _, _, f, v in walker.handles([step], [listed], {(0, "folder"): row["folder"]})[0]}
    assert offered.get("id") == fid and offered.get("meeting_day") == row["meeting_day"], offered
    assert "folder" not in offered and "name" not in offered, offered
    # (found by its name alone, in a folder the text does not say: the folder is offered)
    by_name = Step(tool, {"folder": ("step", (0, "folder"))}, pick=fid, how={"by": "description", "table": "files.files", "fields": ["name"]})
    offered = {f for _, _, f, _ in walker.handles([by_name], [listed], {(0, "folder"): row["folder"]})[0]}
    assert "folder" in offered and "name" not in offered, offered


def test_a_key_is_taken_from_the_field_of_the_parameters_own_name():
    """An app refers to two versions, by `version_arn` and by `version_id`; `describe_version`
    takes a `version_id`, and its words say so. The walk took either field ('the created of the
    version arn of the app "Juniper"'), so an agent that followed the tool's words read another
    version (blind round 30, an imported Kinesis Analytics task). Now a field of the parameter's
    own name comes first: `version_arn` only where it holds the same version."""
    import json
    import tempfile

    from compoworld_dsl.sample.run import Job, run as sample

    path = ROOT / "tests" / "fixtures" / "worlds" / "versions.world"
    world = load_sampler(str(path)).world
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "t.jsonl"
        rep = sample(Job(str(path), 2, 12, 1, max_attempts=60), out)
        tasks = [json.loads(line) for line in out.read_text().splitlines()]
    assert rep.emitted == 12, rep.rejected.most_common(3)
    differ = 0
    for t in tasks:
        st = world.initial_state(t["initial_state"]["seed"])
        app = next(r for r in st.tables["apps.apps"].values() if f'"{r["name"]}"' in t["instruction"])
        same = app["version_arn"] == app["version_id"]
        differ += not same
        assert t["bindings"][-1]["version_id"] == "step 1.version_id" or same, (t["instruction"], t["bindings"])
    assert differ >= 6, differ  # (the rule was put to the test)
