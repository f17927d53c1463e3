"""Requests beyond the walk: a conditional last step (the branch the state decides, the other one
proven to fail) and a request whose goal already holds. Each is optional; neither changes the walk."""

from __future__ import annotations

import random

from ..check import types as T
from ..check.model import Tool
from ..codegen.python import tstr
from ..runtime.state import State, diff
from ..syntax import ast as A
from ..vocab import norm
from . import checker as C
from .attempt import Attempt
from .facts import WorldFacts
from .people import words
from .wording import describe, fill
from .pools import candidates, ensure
from .rejected import Rejected
from .runs import replay
from .steps import Step, output, result_table


def branch(facts: WorldFacts, attempt: Attempt, rng: random.Random, state0: State, steps: list[Step], values: dict, results: list, checks: list[dict]) -> dict | None:
    """Make the last step conditional on a field an earlier step read. The instruction names
    the condition; the reference plan takes the branch the state decides, and the plan of the
    other branch must fail the checker (proven by replaying it)."""
    if attempt.alternative is None or steps[-1].tool.qualified not in facts.mutating:
        return None
    options = []
    outputs = [output(facts.people, steps, results, j) for j in range(len(steps))]
    for j, out in enumerate(outputs[:-1]):
        if steps[j].tool.qualified in facts.mutating or not isinstance(out, dict):
            continue  # a condition the agent reads, not one the plan itself just fixed
        t = steps[j].tool.result
        t = t.elem if isinstance(t, T.ListT) else t
        if isinstance(t, T.RecordT):
            # what the instruction already says, or the read itself fixed (the environment of a
            # deployment found among the production deployments)
            described = set((steps[j].how or {}).get("fields", ())) | {(steps[j].how or {}).get("field")} | {n for n, _ in steps[j].tool.params}
            # a field the walk itself writes would be read stale: not a condition to branch on
            written = {f for st in steps if st.tool.qualified in facts.mutating for _, f in st.tool.writes}
            # and so would a field an earlier write on this record is told to set, whatever it
            # records: AWS Support App's update of a channel configuration "with notify on case
            # severity high" is a recorded call (D52), and "if the notify on case severity of that
            # slack channel configuration is high" would then read the old value, an agent the new
            said = _set_on(facts, steps[:-1], values, steps[j], out)
            for f, ft in t.fields.items():
                b = T.base_of(ft)
                if f in described or f in written or norm(f) in said:
                    continue  # the instruction already says what it is
                if isinstance(b, T.EnumT) and len(b.members) > 1 or T.prim_name(ft) == "bool":
                    options.append((j, f, ft))
    alt_step, alt_values = attempt.alternative
    k = len(steps) - 1
    prefix_values = {key: v for key, v in values.items() if key[0] < k}
    alt = (steps[:-1] + [alt_step], {**prefix_values, **{(k, n): v for (_, n), v in alt_values.items()}})
    # each condition with the values that would send the agent down the other branch and make sense there
    options = [(j, f, ft, others) for j, f, ft in options if (others := _other_branch_values(facts, attempt, state0, steps, prefix_values, outputs, j, f, ft, alt))]
    if not options:
        return None
    j, field, ft, others = options[rng.randrange(len(options))]
    actual = outputs[j][field]
    # name the actual value (true → the reference branch), or another one (false → the other)
    named = actual if rng.random() < 0.5 else rng.choice(others)
    try:
        final, plan, _ = replay(facts, state0, *alt, attempt.deadline)
    except Rejected:  # the other branch fails to run here (it runs where it would be taken): its final state is the prefix's
        final, plan, _ = replay(facts, state0, steps[:-1], prefix_values, attempt.deadline)
        plan = plan + [{"tool": alt_step.tool.qualified, "arguments": None}]
    verdict = C.score(facts.world, checks, state0, final, None, [(p["tool"], p["arguments"]) for p in plan if p["arguments"] is not None])
    if verdict["reward"] != 0:
        return None  # both branches reach the goal: not a real condition
    return {
        "step": k + 1,
        "if": {"step": j + 1, "field": field, "equals": facts.world.types.to_json(tstr(ft), named)},
        "taken": "then" if named == actual else "else",
        "other_branch": {"tool": alt_step.tool.qualified, "plan": plan[k:]},
        "_alt": (alt_step, alt_values),
        "_proof": {"failed": [f["id"] for f in verdict["failed"]]},
    }


def _set_on(facts: WorldFacts, steps: list[Step], values: dict, read: Step, record: dict) -> set[str]:
    """The names (`vocab.norm`) of the arguments of the writes among `steps` that act on
    `record` (step `read`'s output): by its key, or by the fields a `require exists` names it by
    (`facts.row_args`: a channel configuration's channel and team). A write on another record
    (a new matter's practice area) says nothing of this one's."""
    table = read.how["table"] if read.how else result_table(facts.people, read.tool)
    if table is None:
        return set()
    key = record.get(facts.people.key[table])
    out: set[str] = set()
    for k, st in enumerate(steps):
        if st.tool.qualified not in facts.mutating:
            continue
        args = {n: values.get((k, n)) for n, _ in st.tool.params}
        by_key = any(facts.people.ref_table(tstr(pt)) == table and args[n] == key for n, pt in st.tool.params)
        by_row = any(t == table and all(record.get(f) == args.get(n) for n, f in pairs.items()) for t, pairs in facts.row_args.get(st.tool.qualified, ()))
        if by_key or by_row:
            out |= {norm(n) for n in st.sources}
    return out


def _other_branch_values(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step], prefix_values: dict, outputs: list, j: int, field: str, ft: T.Type, alt: tuple) -> list:
    """The values of step j's `field`, other than the one it has, in whose hypothetical state (the
    seeded state with that one field of that one record set so) the walk's reads still find the
    record and show that value, and the branch not taken runs and changes something. A read that
    only gives records with one value of the field (the on-duty vets, whose role is vet) fixes
    it: "if the vet's role is vet" is no condition. A branch not taken that its own state refuses
    ("otherwise put the account on hold", where the account would be on hold) asks the absurd."""
    table = steps[j].how["table"] if steps[j].how else result_table(facts.people, steps[j].tool)
    actual = outputs[j][field]
    key = outputs[j].get(facts.people.key[table]) if table is not None else None
    row = state0.tables.get(table, {}).get(key) if table is not None else None
    if row is None or row.get(field) != actual:
        return []  # a record the walk makes, or changes before it reads it: nothing to set otherwise
    b = T.base_of(ft)
    members = list(b.members) if isinstance(b, T.EnumT) else [True, False]
    out = []
    for v in members:
        if v == actual:
            continue
        attempt.deadline.check()
        hyp = state0.snapshot()
        hyp.tables[table] = {**hyp.tables[table], key: {**row, field: v}}
        try:
            before, _, results = replay(facts, hyp, steps[:-1], prefix_values, attempt.deadline)
            after = replay(facts, hyp, *alt, attempt.deadline)[0]
        except Rejected:
            continue
        seen = output(facts.people, steps, results, j)
        if isinstance(seen, dict) and seen.get(field) == v and not diff(before, after).empty:
            out.append(v)
    return out


def _already_so(facts: WorldFacts, state: State, tool: Tool, args: dict) -> bool:
    """Does what the tool's call would bring about hold already: every field its body sets, on a
    record an argument names, to a constant or to another argument (a status, an owner), has
    that value? A tool that deletes, or sets nothing so (a count up, a date from the clock),
    changes something whatever the record holds. A refusal alone does not say it: "close the
    return" is refused (409) both for a closed return and for one that is only requested."""
    goal = []
    for st in tool.decl.body:
        if isinstance(st, A.Delete):
            return False
        if not (isinstance(st, A.Update) and isinstance(st.target, A.KeyTarget) and isinstance(st.target.key, A.Var) and st.target.key.name in args):
            continue
        table = f"{tool.service}.{st.target.table}"
        for f in st.fields:
            b = facts.world.types.base(facts.people.fields[table][f.name])
            if isinstance(f.value, A.Literal) and f.value.kind == "bool":
                goal.append((table, args[st.target.key.name], f.name, f.value.value))
            elif isinstance(f.value, A.Var) and f.value.name in args:
                goal.append((table, args[st.target.key.name], f.name, args[f.value.name]))
            elif isinstance(f.value, A.Var) and b.startswith("enum:") and f.value.name in facts.world.types.enums[b[5:]]:
                goal.append((table, args[st.target.key.name], f.name, f.value.name))
    return bool(goal) and all((row := state.tables.get(t, {}).get(key)) is not None and row[f] == v for t, key, f, v in goal)


def idempotent(facts: WorldFacts, attempt: Attempt, rng: random.Random, state0: State, final: State, steps: list[Step]) -> dict | None:
    """A call whose goal already holds (`_already_so`), which the tool therefore refuses with
    `conflict` ("already closed"), before the episode and after the reference plan. The
    instruction asks for it anyway; a good agent checks and changes nothing, and the checker's
    no-collateral rule holds it to that. Never a change the world refuses for another reason
    (closing a return that is only requested): the agent could not do it, and is held to not
    doing it."""
    in_walk = {s.tool.qualified for s in steps}
    pool = [t for q, t in facts.idempotent_tools if q not in in_walk]
    for tool in rng.sample(pool, min(6, len(pool))):
        attempt.deadline.check()
        ensure(facts, attempt, facts.tool_tables[tool.qualified], state0, final)
        options = [candidates(facts, attempt, state0, t) for _, t in tool.params]
        if not all(options):
            continue
        args = {n: rng.choice(o) for (n, _), o in zip(tool.params, options)}
        call = {n: facts.world.types.to_json(tstr(t), args[n]) for n, t in tool.params}
        before = facts.world.call(state0.snapshot(), tool.qualified, call, deadline=attempt.deadline)
        after = facts.world.call(final.snapshot(), tool.qualified, call, deadline=attempt.deadline)
        if not before["success"] and not after["success"] and before["error"]["code"] == after["error"]["code"] == 409 and _already_so(facts, state0, tool, args) and _already_so(facts, final, tool, args):
            shown, named = {}, []  # named: (table, key) of every record the request names
            for n, t in tool.params:  # each record named as a person would, and uniquely
                rt = facts.people.ref_table(tstr(t))
                desc = facts.people.description(state0, rt, args[n]) if rt else None
                if rt is None or not desc or not facts.people.nameable(rt, desc) or facts.people.matches(state0, rt, desc) != [args[n]]:
                    break
                shown[n] = describe(facts.people, state0, rt, desc)
                named.append((rt, args[n]))  # and those its description names ("with patient "Bella"")
                named += [(ref, v) for f, v in desc.items() if (ref := facts.people.ref_table(facts.people.fields[rt][f]))]
            else:
                phrase = fill(facts.people, tool.decl.say or words(tool.name), dict(tool.params), shown.__getitem__)
                return {"tool": tool.qualified, "arguments": call, "refusal": after["error"]["message"], "_phrase": phrase, "_named": named}
    return None
