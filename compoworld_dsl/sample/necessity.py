"""Proofs that every step counts and that every attached house rule bites, from changed plans replayed
and scored by the task's checker. It changes no plan and no checker (only a description may grow).

Both are shown the same way: a changed plan is replayed on the compiled Python services and
scored by the task's own checker.

- A step that changes state is necessary when the plan without it (and without the steps that
  need its output) fails the checker.
- An argument that came from an earlier result matters when the plan with that argument changed
  to another value of its type that the state holds (another matter, another date) fails the
  checker; so the read it came from is necessary.
- A description with look-alikes: the plan that works on a look-alike instead (a distractor the
  description also fits) must fail to run before it changes the look-alike (a refusal after a
  write on it teaches the agent by a wrong write), or fail the checker on a house rule — then the rule is
  load-bearing: it is what tells the agent which record is meant. If it passes, or fails only on
  the goals, the description is ambiguous and the task is not emitted.
- An `order` rule is load-bearing when the plan with its two calls swapped fails it, and either
  runs or ends in the reference's own final state: a transcript sent before it is certified
  cannot be certified any more (the services refuse), but it ends sent as the reference's does,
  so only the rule fails the agent that got the order wrong.

A replay here is lenient: a call that fails is skipped (its state change does not happen), and a
step whose input is gone is skipped with it, as an agent's plan would fare."""

from __future__ import annotations

import random
from typing import Any

from ..codegen.python import tstr
from ..runtime.service import ToolError
from ..runtime.state import State, diff
from . import checker as C
from .attempt import Attempt
from .facts import WorldFacts
from .pools import other_values
from .rejected import Rejected
from .steps import Step, aggregate_of, choose_like, element, shown_fields

MUTATIONS = 3  # other values tried per argument that came from an earlier result


def replay(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step], values: dict, drop: frozenset = frozenset(), picks: dict | None = None, args: dict | None = None, order: list[int] | None = None, like: dict | None = None, deviations: list | None = None):
    """Run the walk leniently with changes: `drop` steps left out, `picks` {step: key} another
    element picked, `args` {(step, param): value} another argument, `order` another call order.
    With `like` (the reference run's outputs by step), a list step after a changed pick picks
    the way the instruction says — the latest, or the one that fits the description — not the
    reference's key: what an agent that took the look-alike would go on to do.
    Returns (final state, successful calls as (tool, JSON args), outputs by step or None, touched).
    `deviations`, when given, gets each step that was not called with the reference's own
    arguments (one lacked the output it comes from, or the output gave another value).

    The calls before the first change are the reference run's: they start from its state after
    them (`_Prefix`), not from `state0`."""
    n = len(steps)
    seq = list(order) if order is not None else list(range(n))
    first = min([k for k in drop] + [k for k in (picks or ())] + [k for k, _ in (args or ())] + [i for i in range(n) if seq[i] != i] + [n])
    state, outputs, calls, touched, done = _Prefix.of(facts, attempt, state0, steps, values).upto(first, deviations)
    for k in seq[done:]:
        _call(facts, state, steps, values, k, outputs, calls, touched, drop, picks, args, like, deviations, attempt.deadline)
    return state, calls, outputs, touched


def _call(facts: WorldFacts, state: State, steps: list[Step], values: dict, k: int, outputs: dict, calls: list, touched: set, drop: frozenset = frozenset(), picks: dict | None = None, args: dict | None = None, like: dict | None = None, deviations: list | None = None, deadline=None) -> Any:
    """Step k of a lenient replay, on `state` in place (see `replay`). Returns the call's
    result (None when it was not called or failed: `calls` tells)."""
    step = steps[k]
    if k in drop:
        return None
    call = {}
    for name, pt in step.tool.params:
        if args and (k, name) in args:
            call[name] = args[(k, name)]
            continue
        src = step.sources[name]
        if src[0] == "step":
            j, field = src[1]
            out = outputs.get(j)
            if out is None:
                if deviations is not None:
                    deviations.append(k)
                return None
            call[name] = out[field] if field is not None else out
        else:
            call[name] = values[(k, name)]
    if deviations is not None and any(call[n] != values[(k, n)] for n in call):
        deviations.append(k)
    spec = facts.world.tools[step.tool.qualified]
    try:
        admitted = facts.world.admit(spec, call)
        tx_touched: set = set()
        result = facts.world.execute(state, spec, admitted, tx_touched, deadline=deadline, write=False)[0]
    except ToolError:
        return None
    touched |= tx_touched
    if like is not None and picks and k not in picks and k > min(picks) and step.pick is not None:
        outputs[k] = choose_like(step, result, like.get(k), _rows_for(facts, state, step))
    else:
        outputs[k] = element(facts.people, step, result, (picks or {}).get(k))
    calls.append((spec.qualified, {n: facts.world.types.to_json(pt, call[n]) for n, pt in spec.params}))
    return result


def _rows_for(facts: WorldFacts, state: State, step: Step):
    """For a step whose result is a view (D56): an element's whole row in `state` (the
    description may name fields the view does not show); None for a step of whole rows."""
    if shown_fields(facts.people, step.tool) is None or not step.how:
        return None
    rows, key = state.tables.get(step.how["table"], {}), facts.people.key[step.how["table"]]
    return lambda e: rows.get(e.get(key), e)


class _Prefix:
    """The reference run of a walk, kept step by step: the changed replays of one proof (each
    step left out, each argument changed, each look-alike picked) share every call before their
    first change, and start after it. One per attempt, for the last walk asked about; it holds
    the state, steps and values it was run from and is used only for those same objects (and
    values still equal to what they were), so a new walk, a planted state or a changed value
    runs afresh."""

    def __init__(self, facts: WorldFacts, state0: State, steps: list[Step], values: dict, deadline=None):
        self.facts, self.state0, self.steps, self.values, self.copy = facts, state0, list(steps), values, dict(values)
        self.deadline = deadline  # the attempt's, which the calls' own loops check
        self.picks = [st.pick for st in steps]
        # the run so far, extended only as far as a replay asks (a look-alike's replay changes
        # a pick early in the walk and needs none of the calls after it)
        self.state, self.outputs, self.calls, self.touched, self.devs = state0.snapshot(), {}, [], set(), []
        self.results: list = []  # each step's result as its call gave it
        self.after = [(self.state.snapshot(), {}, 0, set(), 0)]  # after 0, 1, ... steps

    @staticmethod
    def of(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step], values: dict) -> "_Prefix":
        hit = attempt.replay_prefix
        if hit is None or not hit.fits(state0, steps, values):
            hit = attempt.replay_prefix = _Prefix(facts, state0, steps, values, attempt.deadline)
        return hit

    def fits(self, state0: State, steps: list[Step], values: dict) -> bool:
        return (self.state0 is state0 and self.values is values and len(steps) <= len(self.steps) and all(a is b and a.pick == p for a, b, p in zip(steps, self.steps, self.picks)) and values == self.copy)

    def upto(self, k: int, deviations: list | None):
        """(state, outputs, calls, touched, k) after the first k reference calls, copies to change."""
        while len(self.after) <= k:
            j = len(self.after) - 1
            self.results.append(_call(self.facts, self.state, self.steps, self.values, j, self.outputs, self.calls, self.touched, deviations=self.devs, deadline=self.deadline))
            self.after.append((self.state.snapshot(), dict(self.outputs), len(self.calls), set(self.touched), len(self.devs)))
        state, outputs, n_calls, touched, n_devs = self.after[k]
        if deviations is not None:
            deviations.extend(self.devs[:n_devs])
        return state.snapshot(), dict(outputs), self.calls[:n_calls], set(touched), k

    def whole(self, n: int) -> tuple[State, list] | None:
        """The first `n` reference calls run strictly: (the state after them, each call's
        result), or None when one fails or lacks the output it takes (what `runs.replay`
        rejects), so that a caller that needs the whole run and then changed ones runs it once."""
        state, _, calls, _, _ = self.upto(n, None)
        return (state, self.results[:n]) if len(calls) == n else None


def answer_of(facts: WorldFacts, reports: list[dict], outputs: dict) -> Any:
    """The answer a plan with these outputs would report (None when it has nothing to report)."""
    got = []
    for r in reports:
        out = outputs.get(r["step"])
        if out is None:
            got.append(None)
            continue
        if r.get("aggregate") is not None:
            if not isinstance(out, (list, tuple)):
                got.append(None)
                continue
            value = aggregate_of(r["aggregate"], out)
        else:
            value = out[r["field"]] if r["field"] is not None else out
        got.append(facts.world.types.to_json(r["type"], value))
    if not reports or all(g is None for g in got):
        return None
    if len(reports) == 1:
        return got[0]
    return {r["label"]: g for r, g in zip(reports, got) if g is not None}


def _score(facts: WorldFacts, checks: list[dict], state0: State, run, reports: list[dict], quick: bool = False) -> dict:
    """The checker's verdict on a replay (`quick`: only its reward is read, `C.score`)."""
    final, calls, outputs, touched = run
    return C.score(facts.world, checks, state0, final, answer_of(facts, reports, outputs), calls, touched, quick=quick)


def steps_necessary(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step], values: dict, checks: list[dict], reports: list[dict], seed: int) -> dict:
    """The proof that each step counts, or `Rejected("step_not_needed")`."""
    proof: dict[str, Any] = {}
    rng = random.Random(f"{seed}:necessity")
    for k, step in enumerate(steps):
        attempt.deadline.check()
        if step.tool.qualified in facts.mutating:
            deviations: list[int] = []
            verdict = _score(facts, checks, state0, replay(facts, attempt, state0, steps, values, drop=frozenset({k}), deviations=deviations), reports)
            if verdict["reward"] != 0:
                raise Rejected("step_not_needed", f"step {k + 1} {step.tool.qualified}: the plan without it passes the checker")
            # and with the reference's own arguments for every other call: an agent that knows
            # them needs no output of this write. Without this, a write undone by the next
            # ("end the leave", then "start the leave") counted as needed because the next call
            # fails without it and its output fed a later one; an agent that skips both passes.
            # (When every call above had the reference's arguments, that run was this one.)
            literal = {(j, n): values[(j, n)] for j, other in enumerate(steps) if j != k for n, _ in other.tool.params}
            if deviations and _score(facts, checks, state0, replay(facts, attempt, state0, steps, values, drop=frozenset({k}), args=literal), reports, quick=True)["reward"] != 0:
                raise Rejected("step_not_needed", f"step {k + 1} {step.tool.qualified}: the plan without it passes the checker with the reference's own arguments")
            proof[f"step {k + 1}"] = {"changes": "the plan without it fails", "failed": [f["id"] for f in verdict["failed"]]}
        else:
            feeds = [f"step {j + 1}.{n}" for j, later in enumerate(steps) for n, src in later.sources.items() if src[0] == "step" and src[1][0] == k]
            feeds += [f"report {r['label']}" for r in reports if r["step"] == k]
            if not feeds:
                raise Rejected("step_not_needed", f"step {k + 1} {step.tool.qualified}: nothing uses its result")
            proof[f"step {k + 1}"] = {"reads": "its result is used", "by": feeds}
    mutated = []
    for k, step in enumerate(steps):
        for name, pt in step.tool.params:
            src = step.sources[name]
            if src[0] != "step":
                continue
            current = values[(k, name)]
            others = [v for v in other_values(facts, attempt, state0, tstr(pt), current)]
            if not others:
                continue
            for v in rng.sample(others, min(MUTATIONS, len(others))):
                attempt.deadline.check()
                verdict = _score(facts, checks, state0, replay(facts, attempt, state0, steps, values, args={(k, name): v}), reports, quick=True)
                if verdict["reward"] != 0:
                    raise Rejected("step_not_needed", f"step {k + 1} {step.tool.qualified}: another {name} passes the checker too")
            mutated.append(f"step {k + 1}.{name}")
    proof["arguments_from_results_matter"] = mutated
    return proof


def distractors(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step], values: dict, checks: list[dict], reports: list[dict]) -> tuple[list[dict], dict[str, list]]:
    """Look-alikes of every record the instruction names by a description that fits the whole
    table. Returns, per step, the look-alikes the services refuse to work on, and per rule the
    look-alikes that working on would break it (the rules they make load-bearing). A look-alike
    that neither happens to is told apart by one more field of the description (`People.
    distinguishing`; the step's `how` grows); when no field does, `Rejected("ambiguous_description")`."""
    bites: dict[str, list] = {}
    refused: list[dict] = []
    like = replay(facts, attempt, state0, steps, values)[2]  # the reference run's outputs
    for k, step in enumerate(steps):
        how = step.how
        if how is None or how["by"] != "description" or how.get("within") == "list":
            continue  # a description relative to a list is unique in it by construction
        target = step.pick if step.pick is not None else how.get("key")
        rows = state0.tables[how["table"]]
        while True:
            desc = facts.people.description(state0, how["table"], target, tuple(how["fields"]))
            if desc is None:
                raise Rejected("ambiguous_description", f"step {k + 1}: the {facts.people.noun[how['table']]} cannot be described")
            step_refused, step_bites, ambiguous = [], [], []
            for other in facts.people.matches(state0, how["table"], desc):
                if other == target:
                    continue
                attempt.deadline.check()
                if step.pick is None:  # the call itself gave the target: nothing to swap in
                    ambiguous.append(other)
                    continue
                run = replay(facts, attempt, state0, steps, values, picks={k: other}, like=like)
                if len(run[1]) < len(steps):
                    if run[0].tables.get(how["table"], {}).get(other) == rows.get(other):
                        step_refused.append({"step": k + 1, "look_alike": other})
                        continue
                    # refused only after it changed the look-alike (an update of the wrong
                    # function, then a test the services answer for the right one alone): the
                    # agent learns which record was meant by a write it should not have made,
                    # so the refusal does not tell them apart (a blind player met it)
                    ambiguous.append(other)
                    continue
                verdict = _score(facts, checks, state0, run, reports)
                failed = {f["id"] for f in verdict["failed"]}
                rules = [c["constraint"] for c in checks if c["kind"] in ("constraint", "order") and c["id"] in failed]
                if not rules:
                    ambiguous.append(other)
                step_bites += [(name, {"step": k + 1, "look_alike": other}) for name in rules]
            if not ambiguous:
                break
            # not a field a later step takes its value from, nor one reported: stated in the
            # description, it would make that read needless ("the meeting day of the file with
            # ... meeting day 2025-03-23")
            told = {src[1][1] for later in steps[k + 1 :] for src in later.sources.values() if src[0] == "step" and src[1][0] == k and src[1][1] is not None}
            told |= {r["field"] for r in reports if r["step"] == k and r["field"] is not None}
            # (of what the call shows of the row: a summary list shows some fields only, D56)
            shown = shown_fields(facts.people, step.tool)
            mine = rows[target] if shown is None else {f: v for f, v in rows[target].items() if f in shown}
            extra = facts.people.distinguishing(how["table"], mine, [rows[o] for o in ambiguous], tuple(how["fields"]) + tuple(sorted(told)))
            if extra is None:
                raise Rejected("ambiguous_description", f"step {k + 1}: the description fits {ambiguous[0]} too, and no house rule or further field tells them apart")
            how["fields"].append(extra)
        refused += step_refused
        for name, evidence in step_bites:
            bites.setdefault(name, []).append(evidence)
    return refused, bites


def order_bites(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step], values: dict, checks: list[dict], reports: list[dict], rule: dict) -> list[int] | None:
    """The call order, with the rule's two calls swapped, in which the plan fails the rule and
    either runs or, with the calls the services refuse in that order left out, ends in the
    reference's final state (certify after send is refused, and the transcript ends sent all
    the same); None when no such order exists (the rule then changes nothing for this task)."""
    ks = [k for k, st in enumerate(steps) if st.tool.qualified in (rule["tool"], rule["after"])]
    if len(ks) != 2:
        return None
    a, b = ks
    if any(src[0] == "step" and src[1][0] == a for src in steps[b].sources.values()):
        return None  # the later call needs the earlier one's result: no other order exists
    order = list(range(len(steps)))
    order[a], order[b] = order[b], order[a]
    run = replay(facts, attempt, state0, steps, values, order=order)
    if C._order_holds(rule, run[1])[0]:
        return None
    if len(run[1]) < len(steps) and diff(replay(facts, attempt, state0, steps, values)[0], run[0]).rows:
        return None  # a call refused, and the state shows it: the goals fail that order already
    return order
