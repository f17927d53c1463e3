"""`worldc verify` trusts nothing in a task file: it replays the plan, re-runs the checker and the
walk's proof, and samples the task again from its id. Reads tasks; never writes them or imports `sampler`."""

from __future__ import annotations

import json
import re
from typing import Any, Protocol

from ..runtime.service import ToolError
from ..runtime.world import StaleTask
from ..smt.encode import EncodingUnsupported
from . import checker as C
from .attempt import Attempt
from .difficulty import of_record
from .facts import WorldFacts
from .rejected import Rejected
from .solve import prove_walk
from .steps import Step

TASK_FORMAT = 2  # goal-level tasks; files without `format` were written by the plan-read-aloud sampler


class Samples(Protocol):
    """What a rebuild needs of a sampler: the task of an attempt (`Sampler.task`)."""

    def task(self, seed: int, index: int, hops: int, threads: int = 1) -> dict: ...

_ID = re.compile(r"^(?P<world>.*)-h(?P<hops>\d{1,2})-s(?P<seed>\d{1,20})-(?P<index>\d{6,})$")


def attempt_of(task_id: Any) -> tuple[int, int, int] | None:
    """(hops, run seed, attempt index) from a task id `WORLD-hHOPS-sSEED-INDEX`, or None."""
    m = _ID.match(task_id) if isinstance(task_id, str) else None
    if m is None:
        return None
    return int(m["hops"]), int(m["seed"]), int(m["index"])


def _where(a: Any, b: Any, path: str) -> str:
    """The first JSON path at which `a` and `b` differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b or a[k] != b[k]:
                return _where(a.get(k), b.get(k), f"{path}.{k}") if k in a and k in b else f"{path}.{k}"
        return path
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _where(x, y, f"{path}[{i}]")
        return f"{path}[{min(len(a), len(b))}]"
    return path


def rebuild_problems(sampler: Samples, task: dict) -> list[str]:
    """Sample the task's attempt again and name every field of the record that differs from
    the rebuilt one (the instruction, bindings, capabilities, branch, proofs, checker: all of it).
    A task whose attempt no longer yields a task fails too, with the reason."""
    attempt = attempt_of(task.get("id"))
    if attempt is None:
        return ["id: not of the form WORLD-hHOPS-sSEED-INDEX, so the task cannot be rebuilt"]
    hops, seed, index = attempt
    try:
        rebuilt = sampler.task(seed, index, hops, threads=task.get("threads", 1))
    except Rejected as r:
        return [f"id: attempt {index} of seed {seed} with {hops} hops yields no task ({r.reason}: {r.detail[:120]})"]
    # compared as written: what a reader of the file gets
    rebuilt = json.loads(json.dumps(rebuilt, ensure_ascii=False))
    if isinstance(task.get("initial_state"), dict) and "digest" not in task["initial_state"]:
        rebuilt["initial_state"].pop("digest", None)  # a record from before the digest: it has none to compare
    problems = []
    for field in list(rebuilt) + [f for f in task if f not in rebuilt]:
        if field not in task:
            problems.append(f"{field}: missing")
        elif field not in rebuilt:
            problems.append(f"{field}: not a field of a task")
        elif task[field] != rebuilt[field]:
            problems.append(f"{_where(task[field], rebuilt[field], field)}: differs from the task the world and seed give")
    return problems


def verify(facts: WorldFacts, attempt: Attempt, task: dict, sampler: Samples) -> list[str]:
    """Re-run the replay and the checker from the task record alone, then rebuild the task from
    the world and its seed (every proof re-run) and compare every field. Returns what fails."""
    world = facts.world
    if task.get("format") != TASK_FORMAT:
        return [f"format: {task.get('format', 1)!r}, written by an older sampler (tasks were plans read aloud before format {TASK_FORMAT}); eval, serve and export still read it, but verify can only check tasks of format {TASK_FORMAT}: sample it again"]
    problems: list[str] = []
    try:
        seed = task["initial_state"]["seed"]
        attempt.task_seed = seed
        plan = task["reference_plan"]
        checks = task["checker"]["checks"]
    except (KeyError, TypeError) as e:
        return [f"malformed task record: missing {e}"]
    try:
        state0 = world.task_state(task["initial_state"])
    except StaleTask as e:
        return [f"initial_state.digest: {e}"]
    except (KeyError, ValueError, ToolError) as e:
        return [f"initial_state.rows: cannot be planted: {e}"]
    state = state0.snapshot()
    calls, datas = [], []
    touched: set = set()
    steps: list[Step] = []
    values: dict = {}
    looks = task.get("lookups") or []
    looked: list = []  # what each lookup returns, made where an agent makes it: before its step
    for i, look in enumerate(looks):
        if not isinstance(look, dict) or not isinstance(look.get("before"), int) or not 1 <= look["before"] <= len(plan) or (i and look["before"] < looks[i - 1].get("before", 0)):
            return [f"lookups[{i}]: `before` must name a step of the plan, in order"]
    for k, call in enumerate(plan):
        for i, look in enumerate(looks):
            if look["before"] != k + 1:
                continue
            wrote: set = set()
            res = world.call(state.snapshot(), look.get("tool", ""), look.get("arguments"), wrote)
            if not res["success"] or wrote or look.get("tool") in facts.mutating:
                return [f"lookups[{i}] {look.get('tool')} before step {k + 1}: " + (res["error"]["message"] if not res["success"] else "changes the state; a lookup only reads")]
            looked.append(res.get("data"))
        spec = world.resolve(call.get("tool", "")) if isinstance(call, dict) else None
        if spec is None:
            return [f"step {k + 1}: unknown tool {call.get('tool') if isinstance(call, dict) else call!r}"]
        res = world.call(state, spec.qualified, call.get("arguments"), touched)
        if not res["success"]:
            return [f"step {k + 1} {spec.qualified} fails on replay: {res['error']['message']}"]
        calls.append((spec.qualified, call.get("arguments")))
        datas.append(res.get("data"))
        tool = facts.model.services[spec.service].tools[spec.name]
        steps.append(Step(tool, {n: ("user", None) for n, _ in tool.params}))
        args = world.convert_arguments(spec, call.get("arguments"))
        for n, _ in tool.params:
            values[(k, n)] = args["v_" + n]
    final = state
    world_name = facts.world_name
    if task.get("world") != world_name:
        problems.append(f"the task is for world {task.get('world')!r}, not {world_name!r}")
    if task.get("hops") != len(plan):
        problems.append(f"hops is {task.get('hops')} but the plan has {len(plan)} steps")
    if task.get("services") != sorted({c[0].split(".")[0] for c in calls} | {c["tool"].split(".")[0] for c in looks}):
        problems.append("services do not match the tools of the plan and its lookups")
    if task.get("seed") != seed:
        problems.append("seed and initial_state.seed differ")
    full = C.score(world, checks, state0, final, task.get("answer"), calls, touched)
    if full["reward"] != 1:
        problems.append(f"the reference plan fails the checker: {[f['id'] + ' ' + f['reason'] for f in full['failed']]}")
    empty = C.score(world, checks, state0, state0, None, [])
    if empty["reward"] != 0:
        problems.append("the empty plan passes the checker")
    idem = task.get("idempotent")
    if idem:
        refused = world.call(final.snapshot(), idem.get("tool", ""), idem.get("arguments"))
        if refused["success"] or refused["error"]["code"] != 409:
            problems.append("the idempotent request is not already satisfied after the reference plan")
    if "difficulty" in task:  # absent in files written before tasks recorded it: the rebuild says so
        try:
            got = of_record(facts, task, datas, looked)
        except (KeyError, TypeError, AttributeError) as e:
            got = {"unreadable": f"{type(e).__name__}: {e}"}
        if task["difficulty"] != got:
            problems.append(f"{_where(task['difficulty'], got, 'difficulty')}: not what the record and its replay give ({json.dumps(got, separators=(',', ':'))[:200]})")
    # Z3: the plan's own arguments satisfy every precondition from the seeded state
    try:
        prove_walk(facts, attempt, seed, state0, steps, values)
    except Rejected as r:
        problems.append(f"Z3 does not prove the plan satisfiable ({r.reason}: {r.detail})")
    except EncodingUnsupported as e:
        problems.append(f"Z3 cannot encode the plan: {e}")
    # and nothing in the file is trusted: the task the world and its seed give must be this one
    problems.extend(rebuild_problems(sampler, task))
    return problems
