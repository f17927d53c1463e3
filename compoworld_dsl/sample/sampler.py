"""Build one task from one (seed, index): the pipeline's table of contents, stage after stage.
It holds no stage's logic and keeps no attempt's state beyond the attempt (stages take facts, attempt).

Each stage is a module of functions of the world's facts (`facts.WorldFacts`, once per world) and
the attempt's data (`attempt.Attempt`, once per attempt); none imports this module. Deterministic:
everything random comes from a generator named by the seed and the index."""

from __future__ import annotations

import random
import time

from ..check.model import Model
from ..runtime.state import State
from ..runtime.world import CompiledWorld
from ..smt.encode import Deadline, EncodingUnsupported, OutOfTime
from . import CAPABILITIES  # noqa: F401  (tests and run.py import it from here too)
from . import checker as C
from . import descriptions as D
from . import difficulty, lookalikes, rebuild, ruled
from . import necessity as N
from . import lookups as L
from . import reports as R
from . import requests as Q
from . import rules as H
from . import solve as S
from .attempt import Attempt
from .facts import WorldFacts, _tables_read, world_facts  # noqa: F401  (tests import `_tables_read` from here)
from .phrasing import Phraser
from .rebuild import TASK_FORMAT
from .rejected import Rejected  # noqa: F401  (tests import it from here too)
from .runs import replay
from .steps import _STEP, Step, capabilities, found_by, output, paged_plan, thread_count  # noqa: F401  (tests import `Step` from here)
from .walk import Walker

MAX_SERVICES = 15  # services a session mounts: the task's plus distractors
BRANCH_SHARE = 0.3  # of tasks tried as conditional (if the walk offers a condition and a second branch)
IDEMPOTENT_SHARE = 0.25
# walks an attempt may judge: one the stages before the proofs turn down (for these reasons)
# makes way for the next walk the search finds
WALKS_PER_ATTEMPT = 6
RETRIED = frozenset({"filtered", "constraint_broken", "too_many_reports", "guessable_answer", "step_not_needed", "changed_by_task"})  # of tasks given a request whose goal already holds (if the state offers one)


class Sampler:
    """A world's facts, and the attempts made on them one at a time (`task`)."""

    def __init__(self, model: Model, world: CompiledWorld, source: str):
        self.facts = world_facts(model, world, source)
        self.model, self.world, self.source = model, world, source
        f = self.facts
        self.enc, self.services, self.tools, self.mutating, self.constraints, self.people = f.enc, f.services, f.tools, f.mutating, f.constraints, f.people
        self.walker = f.walks  # (lint reads which tools a walk can reach)
        self.z3_seconds = 0.0  # in Z3's checks, over every attempt so far
        self.encode_seconds = 0.0  # building Z3 terms (encodings, symbolic states) and reading models
        # the running attempt's budget, so that a signal handler can cut it short (`expire`);
        # between attempts one that nothing reads
        self.deadline = Deadline()
        self.attempt: Attempt | None = None  # the running or the last attempt (its stage, for tests)
        self.solvers = S.SolverPool()  # one reused solver for the walk proofs (`solve.SolverPool`)

    def task(self, seed: int, index: int, hops: int, deadline: Deadline | None = None, threads: int = 1) -> dict:
        """Attempt `index` of a run. With a `deadline`, an attempt still working when it runs out
        is rejected as `timeout`; any other outcome depends only on (world, seed, index, hops).
        `threads` (`--threads`): 1 grows one thread by construction; N > 1 grows a walk that may
        hold errands side by side and rejects, as `filtered`, one of more than N threads."""
        rng = random.Random(f"{seed}:{hops}:{index}")  # the hops too: walks of other lengths start elsewhere
        attempt = self.attempt = Attempt(rng.randrange(2**32), deadline, self.solvers)
        self.deadline = attempt.deadline
        t0 = time.monotonic()
        try:
            return sample_task(self.facts, attempt, rng, seed, index, hops, threads)
        except OutOfTime:
            raise Rejected("timeout", f"out of time after {time.monotonic() - t0:.1f} s, {attempt.stage}") from None
        finally:
            self.deadline = Deadline()
            self.z3_seconds += attempt.z3_seconds
            self.encode_seconds += attempt.encode_seconds


def verify_task(sampler: Sampler, task: dict) -> list[str]:
    """Re-run the replay and the checker from the task record alone, then rebuild the task from
    the world and its seed (every proof re-run) and compare every field. Returns what fails."""
    attempt = Attempt(None, sampler.deadline, sampler.solvers)
    try:
        return rebuild.verify(sampler.facts, attempt, task, sampler)
    finally:
        sampler.z3_seconds += attempt.z3_seconds
        sampler.encode_seconds += attempt.encode_seconds


def sample_task(facts: WorldFacts, attempt: Attempt, rng: random.Random, seed: int, index: int, hops: int, threads: int = 1) -> dict:
    """The pipeline: grow and replay a walk, plant a look-alike, choose the reports, prove the
    walk and its rules, derive the checker, prove every step and rule load-bearing, phrase it."""
    task_seed = attempt.task_seed
    at = attempt.at
    at("seeding the state")
    state0 = seed_state = facts.world.partial_state(task_seed)
    want_branch = hops >= 2 and rng.random() < BRANCH_SHARE
    try:
        walks = Walker(facts, attempt).walks(rng, task_seed, state0, hops, branch=want_branch, threads=threads)
        bad = None
        for tries in range(1, WALKS_PER_ATTEMPT + 1):
            at("growing the walk")
            steps, values, proofs = next(walks) if tries == 1 else walks.send(bad)
            try:
                state0, steps, values, planted, final, plan, results, reports, strict, early_necessity = _judge_walk(facts, attempt, rng, seed_state, steps, values, threads)
                break
            except Rejected as e:
                # a walk the stages before the proofs turn down: the next walk goes on from
                # its last steps (cheap), where a new attempt would grow one from nothing
                if e.reason not in RETRIED or tries == WALKS_PER_ATTEMPT:
                    raise
                # a step that does not count is replaced, with every step after it
                m = _STEP.match(e.detail) if e.reason in ("step_not_needed", "changed_by_task") else None
                bad = int(m.group(1)) - 1 if m else None
        at("proving the walk")
        proofs["walk_satisfiable"]["assertions"] = S.prove_walk(facts, attempt, task_seed, state0, steps, values)
        at("proving house rules")
        attached, cproofs, caps = H.attach_constraints(facts, attempt, task_seed, state0, final, steps, plan)
    except EncodingUnsupported as e:
        raise Rejected("unsupported", str(e)) from None
    at("checking the checker")
    calls = [(p["tool"], p["arguments"]) for p in plan]
    answer = N.answer_of(facts, reports, dict(enumerate(output(facts.people, steps, results, j) for j in range(len(steps)))))
    # house rules: every non-trivial one first; only those a look-alike or another call order
    # makes decide the reward stay attached (load-bearing)
    at("finding values the house rules decide")
    left = ruled.find(facts, attempt, task_seed, state0, steps, values, attached)
    left_rows = ruled.rows(facts, state0, steps, values, left, attempt.deadline) if left else {}
    checks = C.derive(facts.world, state0, final, attached, reports=reports, ruled=left_rows)
    C.reference_passes(facts.world, state0, final, plan, checks, answer, calls, attempt.deadline)
    at("finding look-alikes")
    refused, bites = N.distractors(facts, attempt, state0, steps, values, checks, reports)
    D.still_named(facts, attempt, state0, final, steps, plan, results)  # with the fields the look-alikes added
    bearing, rule_proofs = _load_bearing(facts, attempt, state0, steps, values, checks, reports, attached, cproofs, left, bites)
    caps = set()
    if any(c["kind"] == "state" and len({t.split(".")[0] for t in facts.rule_tables(c["name"])}) >= 2 for c in bearing):
        caps.add("cross-env-constraint")  # a rule of one service that decides what is done in another
    if any(c["kind"] == "order" for c in bearing):
        caps.add("ordering")
    if len(bearing) != len(attached):
        checks = C.derive(facts.world, state0, final, bearing, reports=reports, ruled=left_rows)
    full = C.reference_passes(facts.world, state0, final, plan, checks, answer, calls, attempt.deadline)
    empty = C.score(facts.world, checks, state0, state0, None, [])
    if empty["reward"] != 0:
        raise Rejected("already_satisfied", "the empty plan passes the checker")
    at("proving every step counts")
    # the same proof as the early one when the task's checker is the stricter one (no rule
    # dropped, no value left to the rules): it is a function of the checks, so reused
    necessary = early_necessity if checks == strict else N.steps_necessary(facts, attempt, state0, steps, values, checks, reports, task_seed)
    caps |= capabilities(facts.people, steps)
    branch = Q.branch(facts, attempt, rng, state0, steps, values, results, checks) if want_branch else None
    idem = Q.idempotent(facts, attempt, rng, state0, final, steps) if rng.random() < IDEMPOTENT_SHARE else None
    if idem is not None:
        caps.add("idempotency-check")
        proofs["idempotent"] = {"refused_before": 409, "refused_after_reference": 409, "message": idem.pop("refusal")}
    alt = None
    if branch is not None:
        caps.add("conditional-branching")
        proofs["branch_not_taken_fails"] = branch.pop("_proof")
        alt = branch.pop("_alt")
    proofs.update(
        {
            "descriptions_unique": D.descriptions(facts, attempt, state0, steps, refused, bites),
            "constraints": rule_proofs,
            "reference_passes": {"reward": 1, "checks": full["total"]},
            "empty_plan_fails": {"failed": [f["id"] for f in empty["failed"]]},
            "steps_necessary": necessary,
        }
    )
    phraser = Phraser(facts, state0, steps, values, results, left=set(left))  # afresh: the labels named everything once
    instruction = phraser.instruction([(r["step"], r["field"], r["aggregate"]) for r in reports], bearing, branch, alt, idem)
    R.flows_not_stated(facts, steps, values, instruction)
    R.stated_values(facts, steps, values, instruction, set(left))
    if reports:
        proofs["answer_not_guessable"] = R.answer_not_guessable(facts, state0, steps, plan, checks, reports, instruction)
        R.decoys(facts, attempt, state0, final, steps, values, reports, checks, instruction)
    # what the agent must call that the walk does not (a record named by its name, a value the
    # rules decide), each before the step it serves: no step itself
    found = L.lookups(facts, state0, steps, values, plan, results, phraser.found_by_name(), left)
    services = sorted({s.tool.service for s in steps} | {e["tool"].split(".")[0] for _, e, _ in found})
    paged = paged_plan(facts, plan, steps, results)
    # the services a load-bearing rule reads are always mounted: the agent must be able to check it
    checked = sorted({t.split(".")[0] for c in bearing for t in facts.rule_checks_tables(c["name"])} - set(services))
    others = [s for s in facts.services if s not in services and s not in checked]
    distractors = sorted(checked + random.Random(f"{seed}:{index}:distractors").sample(others, min(len(others), max(0, MAX_SERVICES - len(services) - len(checked)))))
    return {
        "id": f"{facts.model.world.name if facts.model.world else 'world'}-h{hops}-s{seed}-{index:06d}",
        "format": TASK_FORMAT,
        "world": facts.world_name,
        "seed": task_seed,
        "hops": hops,
        "threads": threads,
        "services": services,
        "distractors": distractors,
        "instruction": instruction,
        "capabilities": [c for c in CAPABILITIES if c in caps],
        # the rows of each table the attempt seeded, as a digest: a world that seeds other rows
        # for one of them later names the task stale (runtime/world.py, StaleTask; D45)
        "initial_state": {"seed": task_seed, "digest": _digests(facts.world, seed_state, task_seed, state0), **(planted[1] if planted is not None else {})},
        "reference_plan": paged,
        "lookups": [e for _, e, _ in found],
        "bindings": [{n: "house rules" if (k, n) in left else (f"step {src[1][0] + 1}" + (f".{src[1][1]}" if src[1][1] else "")) if src[0] == "step" else "instruction" for n, src in s.sources.items()} for k, s in enumerate(steps)],
        "found_by": [found_by(s) for s in steps],
        "reports": [{"step": r["step"] + 1, "field": r["field"], "aggregate": r["aggregate"], "element": None if r.get("element") is None else {"key": facts.people.key[steps[r["step"]].how["table"]], "value": r["element"]}, "label": r["label"], "type": r["type"]} for r in reports],
        "answer": answer,
        "checker": {"checks": checks},
        "constraints": bearing,
        "proofs": proofs,
        "branch": branch,
        "idempotent": {k: v for k, v in idem.items() if not k.startswith("_")} if idem else None,
        "difficulty": difficulty.measure(facts, paged, results, [found_by(s) for s in steps], rule_proofs, bearing, branch, services, [(e, r) for _, e, r in found]),
    }


def _digests(world: CompiledWorld, seeded: State, task_seed: int, state0: State) -> dict[str, str]:
    """{table: State.digest} for every table the attempt seeded (those the task's state holds:
    what its walk, descriptions, look-alikes and rules read), and {service: digest of its
    scalars} for those of their services that have any, as `initial_state(task_seed)` gives them: before the planted
    rows. A table a later stage seeded on the planted state only is seeded onto a copy of the
    walk's state (`seed_tables`: the same rows), so no table the task never read is seeded."""
    st = seeded.snapshot()
    world.seed_tables(st, task_seed, [n for n in state0.tables if n not in st.tables])
    services = {n.split(".", 1)[0] for n in state0.tables}
    scalars = sorted({s.split(".", 1)[0] for s in st.scalars} & services)  # a service with scalars
    return {n: st.digest(n) for n in sorted(state0.tables) + scalars}


def _judge_walk(facts: WorldFacts, attempt: Attempt, rng: random.Random, state0: State, steps: list[Step], values: dict, threads: int):
    """The stages of a grown walk before the proofs: replay, look-alikes, reports, and the checks
    that need no Z3 (threads, order rules, an answer the instruction states, a step no stricter
    checker needs). A `Rejected` here costs the attempt one walk, not the attempt."""
    at = attempt.at
    task_seed = attempt.task_seed
    n = thread_count([[src[1][0] for src in st.sources.values() if src[0] == "step"] for st in steps])
    if n > threads:
        raise Rejected("filtered", f"{n} threads: more errands side by side than --threads {threads}")
    at("replaying the walk")
    final, plan, results = replay(facts, state0, steps, values, attempt.deadline)
    at("planting a look-alike")
    planted = lookalikes.plant(facts, attempt, task_seed, state0, steps, values, results, final)
    if planted is not None:  # the task's state from here on: seeded, then these rows (and swaps)
        state0, steps, values = planted[0], planted[2], planted[3]
        final, plan, results = replay(facts, state0, steps, values, attempt.deadline)
    D.carried_still_hold(facts, state0, steps, plan, results)  # a value carried past a change of it
    for info in facts.constraints:
        H.order_rules(facts, info, plan)  # a broken order rule rejects the walk before Z3 works on it
    at("choosing the reports")  # before the proofs: they draw nothing from `rng`
    reports = R.reports(facts, attempt, rng, state0, final, steps, plan, results)
    for r in reports:
        r["label"] = Phraser(facts, state0, steps, values, results).report(r["step"], r["field"], r["aggregate"])
    # A reported value the instruction states rejects the task at the end. What the
    # instruction states for sure is known now: everything but the values the house rules
    # might decide. Checking it here rejects such walks before the proofs (with the final
    # check unchanged, no task changes: a value stated now is stated then).
    at("checking the answer is not stated, early")
    early = Phraser(facts, state0, steps, values, results, left=ruled.could_be_left(facts, steps))
    R.answer_not_guessable(facts, state0, steps, plan, [], reports, early.instruction([(r["step"], r["field"], r["aggregate"]) for r in reports], []))
    # A step that a stricter checker does not need, the task's own does not need either:
    # it keeps only some of these house rules and leaves some fields to them. Checking now
    # rejects such walks before the Z3 proofs, most of what a rejected attempt cost; the
    # full check below still runs on the task's own checker, so no task changes.
    at("proving every step counts, early")
    strict = C.derive(facts.world, state0, final, H.rules_to_keep(facts, attempt, state0, final, steps, plan), reports=reports)
    early_necessity = N.steps_necessary(facts, attempt, state0, steps, values, strict, reports, task_seed)
    return state0, steps, values, planted, final, plan, results, reports, strict, early_necessity


def _load_bearing(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step], values: dict, checks: list[dict], reports: list[dict], attached: list[dict], cproofs: dict, left: dict, bites: dict) -> tuple[list[dict], dict]:
    """The attached rules that decide the reward, with their proofs: a state rule a look-alike
    bites or a value left to the rules needs, an order rule whose swapped calls fail it."""
    bearing, rule_proofs = [], {}
    for c in attached:
        decided = [{"step": k + 1, "argument": n, "breaking_values": p["alternatives"]} for (k, n), p in sorted(left.items()) if c["name"] in p["rules"]]
        if c["kind"] == "state" and (c["name"] in bites or decided):
            bearing.append(c)
            why = ({"look_alikes": bites[c["name"]]} if c["name"] in bites else {}) | ({"left_to_the_agent": decided} if decided else {})
            rule_proofs[c["name"]] = {**cproofs.get(c["name"], {}), "load_bearing": why}
        elif c["kind"] == "order":
            order = N.order_bites(facts, attempt, state0, steps, values, checks, reports, c)
            if order is not None:
                bearing.append(c)
                rule_proofs[c["name"]] = {**cproofs.get(c["name"], {}), "load_bearing": {"calls_in_order": [k + 1 for k in order]}}
    return bearing, rule_proofs
