"""Requests beyond the walk: a conditional last step (the branch the state decides, the other one
proven to fail) and a request whose goal already holds. Each is optional; neither changes the walk."""

from __future__ import annotations

import random

from ..check import types as T
from ..codegen.python import tstr
from ..runtime.state import State
from . import checker as C
from .attempt import Attempt
from .facts import WorldFacts
from .people import words
from .phrasing import fill
from .pools import candidates, ensure
from .rejected import Rejected
from .runs import replay
from .steps import Step, output


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
            described = set((steps[j].how or {}).get("fields", ())) | {n for n, _ in steps[j].tool.params}
            # a field the walk itself writes would be read stale: not a condition to branch on
            written = {f for st in steps if st.tool.qualified in facts.mutating for _, f in st.tool.writes}
            for f, ft in t.fields.items():
                b = T.base_of(ft)
                if f in described or f in written:
                    continue  # the instruction already says what it is
                if isinstance(b, T.EnumT) and len(b.members) > 1 or T.prim_name(ft) == "bool":
                    options.append((j, f, ft))
    if not options:
        return None
    j, field, ft = options[rng.randrange(len(options))]
    actual = outputs[j][field]
    b = T.base_of(ft)
    members = list(b.members) if isinstance(b, T.EnumT) else [True, False]
    # name the actual value (true → the reference branch), or another one (false → the other)
    named = actual if rng.random() < 0.5 else rng.choice([m for m in members if m != actual])
    alt_step, alt_values = attempt.alternative
    k = len(steps) - 1
    prefix_values = {key: v for key, v in values.items() if key[0] < k}
    try:
        final, plan, _ = replay(facts, state0, steps[:-1] + [alt_step], {**prefix_values, **{(k, n): v for (_, n), v in alt_values.items()}}, attempt.deadline)
    except Rejected:  # the other branch fails to run: its final state is the prefix's
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


def idempotent(facts: WorldFacts, attempt: Attempt, rng: random.Random, state0: State, final: State, steps: list[Step]) -> dict | None:
    """A call whose goal already holds: the tool refuses it with `conflict` ("already closed")
    before the episode and after the reference plan. The instruction asks for it anyway; a good
    agent checks and changes nothing, and the checker's no-collateral rule holds it to that."""
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
        if not before["success"] and not after["success"] and before["error"]["code"] == after["error"]["code"] == 409:
            shown, named = {}, []  # named: (table, key) of every record the request names
            for n, t in tool.params:  # each record named as a person would, and uniquely
                rt = facts.people.ref_table(tstr(t))
                desc = facts.people.description(state0, rt, args[n]) if rt else None
                if rt is None or not desc or facts.people.matches(state0, rt, desc) != [args[n]]:
                    break
                shown[n] = facts.people.phrase(state0, rt, desc)
                named.append((rt, args[n]))  # and those its description names ("with patient "Bella"")
                named += [(ref, v) for f, v in desc.items() if (ref := facts.people.ref_table(facts.people.fields[rt][f]))]
            else:
                phrase = fill(facts.people, tool.decl.say or words(tool.name), dict(tool.params), shown.__getitem__)
                return {"tool": tool.qualified, "arguments": call, "refusal": after["error"]["message"], "_phrase": phrase, "_named": named}
    return None
