"""Calls on the compiled Python services: one call, one candidate step under the house rules, a
strict replay of a walk, a JSON plan. It runs what it is given; it chooses nothing."""

from __future__ import annotations

from typing import Any

from ..check.model import Tool
from ..runtime.service import ToolError
from ..runtime.state import State
from . import checker as C
from .facts import WorldFacts
from .rejected import Rejected
from .steps import Step, output


def call(facts: WorldFacts, state: State, tool: str, args: dict, deadline=None) -> Any:
    """Call the generated method of `tool` with internal-value arguments; `state` changes only
    if it succeeds (raises `ToolError` otherwise). `deadline`: the attempt's, which the tool's own
    loops check (`OutOfTime` past it), so a tool that runs away cannot outlast the attempt."""
    spec = facts.world.tools[tool]
    # through the gateway's own argument validation: a value Z3 or a draw picked that no
    # agent could send (an email without an @, a date past 9999) fails here, not in the task
    return facts.world.execute(state, spec, facts.world.admit(spec, args), deadline=deadline, write=False)[0]


def run_step(facts: WorldFacts, state0: State, state: State, tool: Tool, args: dict, rules: list[dict], deadline=None):
    """Run one call on a copy of `state`: (post-state, result), or why it failed."""
    post = state.snapshot()
    try:
        result = call(facts, post, tool.qualified, args, deadline)
    except ToolError as e:
        return f"{e.kind}: {e.message}"
    for info in rules:
        ok, why = C._constraint_holds(facts.world, info["name"], state0, post)
        if not ok:
            return f"house rule {info['name']}: {why}"
    return post, result


def replay(facts: WorldFacts, state0: State, steps: list[Step], values: dict, deadline=None) -> tuple[State, list[dict], list[Any]]:
    state = state0.snapshot()
    plan, results = [], []
    for k, step in enumerate(steps):
        spec = facts.world.tools[step.tool.qualified]
        args = {}
        for name, t in step.tool.params:
            src = step.sources[name]
            if src[0] == "step":
                j, field = src[1]
                out = output(facts.people, steps, results, j)
                if out is None:
                    raise Rejected("replay_mismatch", f"step {k + 1}: the element step {j + 1} picked is gone")
                args[name] = out[field] if field is not None else out
            else:
                args[name] = values[(k, name)]
        try:
            result = call(facts, state, spec.qualified, args, deadline)
        except ToolError as e:
            raise Rejected("replay_mismatch", f"step {k + 1} {spec.qualified}: {e.kind}: {e.message}") from None
        results.append(result)
        plan.append({"tool": spec.qualified, "arguments": {n: facts.world.types.to_json(pt, args[n]) for n, pt in spec.params}})
    return state, plan, results


def runs(facts: WorldFacts, state0: State, plan: list[dict], deadline=None) -> State | None:
    """The final state of a JSON plan run on a copy of `state0`, or None if a call fails."""
    state = state0.snapshot()
    for call in plan:
        if not facts.world.call(state, call.get("tool", ""), call.get("arguments"), deadline=deadline, write=False)["success"]:
            return None
    return state


def holds(facts: WorldFacts, info: dict, before: State, after: State | None = None) -> bool:
    """Does the house rule hold from `before` to `after` (on `before` alone: its invariants,
    nothing touched)? False when it reads a table the state does not hold."""
    try:
        return C._constraint_holds(facts.world, info["name"], before, before if after is None else after)[0]
    except KeyError:
        return False
