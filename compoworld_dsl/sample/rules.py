"""House rules of a walk: those its tools could break, each shown non-trivial and kept by the
reference plan, and its `order` rules. It attaches rules; whether one decides the reward it leaves to `necessity`."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import z3

from ..runtime.service import ToolError
from ..runtime.state import State, Tx
from ..smt.encode import asserted, constraint_violated
from . import checker as C
from .attempt import Attempt
from .facts import WorldFacts, fields_read
from .pools import date_range, held
from .rejected import Rejected
from .runs import holds, runs
from .solve import chain, check, new_solver
from .steps import Step

WITNESS_TRIES = 32  # changed reference plans tried as witnesses that a house rule is non-trivial


def relevant(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step]) -> list[dict]:
    """State rules the walk's tools could break, as the Z3 encoding sees them: an invariant
    over a table the walk writes, an `untouched` row (found on the seeded state) in a table
    the walk updates or deletes from, or an `untouched` table the walk inserts into (an added
    row it selects breaks it, D22). Conditions are read on the state before. A rule left out
    here is one Z3 would prove vacuous."""
    written = facts.written(steps)
    modified = set().union(*[facts.tables_modified[s.tool.qualified] for s in steps])
    inserted = {t for s in steps for t in facts.inserts[s.tool.qualified]}
    out = []
    for info in facts.constraints:
        if not info["state"] or not info["tables"] & written:
            continue
        rows = protected(facts, attempt, info, state0)
        if info["inv_tables"] & written or rows is None or modified & {t for t, _ in rows} or inserted & info["untouched"]:
            out.append(info)
    return out


def protected(facts: WorldFacts, attempt: Attempt, info: dict, state0: State) -> list | None:
    """The rows a rule's `untouched` clauses protect on the seeded state (None: the rule
    cannot be evaluated there, so nothing is assumed)."""
    # keyed by identity, and the entry holds the state: a state that died could otherwise
    # pass its id, and its rows, to a later one (a planted variant's, say); and by the tables
    # it holds, since `ensure` seeds more into the same state
    key = (id(state0), info["name"], len(state0.tables))
    hit = attempt.rows_cache.get(key)
    if hit is None or hit[0] is not state0:
        try:
            rows = facts.world.constraints[info["name"]].check(Tx(state0), Tx(state0))[0]
        except ToolError:
            rows = None
        hit = attempt.rows_cache[key] = (state0, rows)
    return hit[1]


def violated(facts: WorldFacts, attempt: Attempt, info: dict, state0: State, steps: list[Step], start, end):
    """The constraint broken between the symbolic start and end of a walk. Its untouched rows
    come from the compiled constraint run on the concrete start state."""
    rows = protected(facts, attempt, info, state0)
    slots = None
    if rows is not None:
        index = {t: {k: i for i, k in enumerate(state0.tables[t])} for t in {t for t, _ in rows}}
        slots = sorted({(t, index[t][k]) for t, k in rows})
    with attempt.encoding():
        return constraint_violated(facts.enc, info["decl"], info["svc"], info["name"], start, end, slots, facts.written(steps), deadline=attempt.deadline)


def attach_constraints(facts: WorldFacts, attempt: Attempt, seed: int, state0: State, final: State, steps: list[Step], plan: list[dict]) -> tuple[list[dict], dict, set]:
    """Constraints relevant to the walk, each shown non-trivial (a plan over the task's tools
    breaks it) and kept by the reference plan. Returns records, proofs and capabilities.

    A plan "over the task's tools" here is the walk's state-changing steps in walk order (the
    read-only steps cannot break a state rule, and would only add preconditions). It is shown
    by a witness when one is cheap to find: those calls of the reference plan with one or two
    arguments changed (seeded by the task seed and the rule's name), run on the Python
    services, break the rule; the witness is recorded, and `worldc verify` replays it.
    Otherwise Z3 looks for arguments over a free chain of the same steps."""
    attached, proofs, caps = [], {}, set()
    breakable = relevant(facts, attempt, state0, steps)
    free: list = []  # one free chain for all state rules, built on first need; a push/pop each

    def proven(name: str, proof: dict) -> None:  # a declaration with state and order clauses gets one entry
        if name in proofs:
            proof = {**proofs[name], "non_trivial": proofs[name]["non_trivial"] + "; " + proof["non_trivial"]}
        proofs[name] = proof

    for info in facts.constraints:
        attempt.deadline.check()
        if info in breakable:
            witness = _break_concretely(facts, attempt, seed, info, state0, plan)
            if witness is not None or _breakable_by_z3(facts, attempt, seed, info, state0, steps, free):
                ok, why = C._constraint_holds(facts.world, info["name"], state0, final)
                if not ok:
                    raise Rejected("constraint_broken", f"{info['name']}: {why}")
                attached.append({"kind": "state", "name": info["name"], "description": info["decl"].description or ""})
                if witness is None:
                    proven(info["name"], {"non_trivial": "sat: a plan over the task's tools breaks it", "kept_by_reference": True})
                else:
                    proven(info["name"], {"non_trivial": "sat: this plan over the task's tools breaks it", "witness": witness, "kept_by_reference": True})
                if len({t.split(".")[0] for t in info["tables"]}) >= 2:
                    caps.add("cross-env-constraint")  # a rule of one service that binds another
            # else: vacuous for this walk, nothing the task's tools can do breaks it
        for rule in order_rules(facts, info, plan):
            tool, after = rule["tool"], rule["after"]
            # non-trivial: the walk without the `after` steps still runs to the end
            skipped = [p for p in plan if p["tool"] != after]
            if runs(facts, state0, skipped, attempt.deadline) is None:
                solver = new_solver(seed)
                chain(facts, attempt, solver, state0, [s for s in steps if s.tool.qualified != after], bind=False, tag="skip ")
                res = check(attempt, solver)
                if res == z3.unknown:
                    raise Rejected("unknown", f"order rule {info['name']}: {solver.reason_unknown()}")
                if res == z3.unsat:
                    continue
            attached.append(rule)
            proven(info["name"], {"non_trivial": f"sat: {tool} can run without {after} first", "kept_by_reference": True})
            caps.add("ordering")
    return attached, proofs, caps


def _breakable_by_z3(facts: WorldFacts, attempt: Attempt, seed: int, info: dict, state0: State, steps: list[Step], free: list) -> bool:
    """Z3: do arguments exist with which the walk's state-changing steps break the rule?
    `free` holds the free chain (solver, start, end) once built, for the next rule."""
    if not free:
        solver = new_solver(seed)
        _, _, (start, end) = chain(facts, attempt, solver, state0, facts.changing(steps), bind=False, tag="free ")
        free += [solver, start, end]
    solver, start, end = free
    solver.push()
    solver.add(asserted(violated(facts, attempt, info, state0, steps, start, end)))
    res = check(attempt, solver)
    why = solver.reason_unknown() if res == z3.unknown else ""
    solver.pop()
    if res == z3.unknown:
        raise Rejected("unknown", f"constraint {info['name']}: {why}")
    return res == z3.sat


def ordered_after(facts: WorldFacts, earlier: str, later: str) -> bool:
    """Does an `order` house rule ask for `later` only after `earlier` (`order later after
    earlier`)? The earlier call is then what the rule asks for, even where the later one sets
    again what it set (a transcript certified, then sent)."""
    return any(".".join(o.tool) == later and ".".join(o.after) == earlier for info in facts.constraints for o in info["orders"])


def order_rules(facts: WorldFacts, info: dict, plan: list[dict]) -> list[dict]:
    """A constraint's `order` rules whose two tools the plan calls, as task records. Raises
    `Rejected` when the plan breaks one (checked before any Z3 work on the walk)."""
    tools = {p["tool"] for p in plan}
    calls = [(p["tool"], p["arguments"]) for p in plan]
    out = []
    for order in info["orders"]:
        tool, after = ".".join(order.tool), ".".join(order.after)
        if tool in tools and after in tools:
            rule = {"kind": "order", "name": info["name"], "description": info["decl"].description or "", "tool": tool, "after": after, "on": list(order.on)}
            ok, why = C._order_holds(rule, calls)
            if not ok:
                raise Rejected("constraint_broken", f"{info['name']}: {why}")
            out.append(rule)
    return out


def _break_concretely(facts: WorldFacts, attempt: Attempt, seed: int, info: dict, state0: State, plan: list[dict]) -> list[dict] | None:
    """A plan over the task's tools that breaks a state rule: the reference plan with one or
    two arguments replaced by values the state holds or by extreme ones. Seeded by the task
    seed and the rule's name alone, so `verify` finds the same one."""
    rng = random.Random(f"{seed}:{info['name']}:witness")
    plan = [c for c in plan if c["tool"] in facts.mutating]
    # change the arguments of calls that write what the rule reads (any call, if none does)
    kept = protected(facts, attempt, info, state0) or []
    reads = info["inv_tables"] | {t for t, _ in kept}
    writers = [k for k, call in enumerate(plan) if facts.tables_written[call["tool"]] & reads] or range(len(plan))
    params = [(k, n, t) for k in writers for n, t in facts.world.tools[plan[k]["tool"]].params]
    if not params:
        return None
    types = facts.world.types
    rows = [(state0.tables[t][key], types.records[facts.world.state_decl[t]["record"]]) for t, key in kept]
    # values come from the tables of the plan's tools and of the rule: the same set whether
    # the state holds every table (verify) or only those the walk needed (sampling)
    scope = info["reads"].union(*[facts.tool_tables[c["tool"]] for c in plan])
    for _ in range(WITNESS_TRIES):
        attempt.deadline.check()
        trial = [{"tool": c["tool"], "arguments": dict(c["arguments"])} for c in plan]
        for k, n, t in rng.sample(params, min(len(params), rng.choice((1, 1, 2)))):
            trial[k]["arguments"][n] = facts.world.types.to_json(t, _extreme(facts, attempt, rng, state0, t, rows, scope))
        final = runs(facts, state0, trial, attempt.deadline)
        if final is not None and not C._constraint_holds(facts.world, info["name"], state0, final)[0]:
            return trial
    return None


def _extreme(facts: WorldFacts, attempt: Attempt, rng: random.Random, state0: State, t: str, rows: list[tuple[dict, dict]], scope: set[str]) -> Any:
    """A value of runtime type `t` (a type string) for a witness search: often one a protected
    row holds (`rows`), else an edge of the type's range (0, 1, 10⁵ and 10⁶; dates 400 days
    outside the state's; empty text) or a value the state holds, half and half."""
    typ = facts.world.types
    base = typ.base(t)
    if base.startswith("enum:"):
        return rng.choice(list(typ.enums[base[5:]]))
    if rows and rng.random() < 0.6:  # a protected row's own key, or its matter, say
        near = sorted({row[f] for row, rec in rows for f, ft in rec.items() if ft == t}, key=repr)
        near = near or sorted({row[f] for row, rec in rows for f, ft in rec.items() if typ.base(ft) == base}, key=repr)
        if near:
            return rng.choice(near)
    pool = held(facts, attempt, state0, t, scope=scope)
    edges: list = []
    if base in ("int", "duration"):
        edges = [0, 1, 100_000, 1_000_000]
    elif base in ("decimal", "money"):
        edges = [Fraction(0), Fraction(1), Fraction(100_000), Fraction(1_000_000)]
    elif base in ("date", "datetime"):
        lo, hi = date_range(facts, state0, scope)
        if lo is not None:
            edges = [lo - 400, hi + 400] if base == "date" else [(lo - 400) * 1440, (hi + 400) * 1440]
    elif base in ("text", "email"):
        edges = [""] if base == "text" else []
    elif base == "bool":
        edges = [True, False]
    if edges and (not pool or rng.random() < 0.5):  # rules are about thresholds: edges half the time
        return rng.choice(edges)
    return rng.choice(pool) if pool else None


def rules_to_keep(facts: WorldFacts, attempt: Attempt, state0: State, final: State, steps: list[Step], plan: list[dict]) -> list[dict]:
    """The house rules `attach_constraints` could attach, as `C.derive` takes them: the state
    rules relevant to the walk that the reference keeps (one it breaks rejects the walk there
    anyway) and every order rule the plan's calls are subject to."""
    out: list[dict] = []
    for info in relevant(facts, attempt, state0, steps):
        if holds(facts, info, state0, final):  # (one that reads a table the state lacks is never attached)
            out.append({"kind": "state", "name": info["name"]})
    for info in facts.constraints:
        out += order_rules(facts, info, plan)
    return out


def out_of_reach(facts: WorldFacts, info: dict) -> str | None:
    """Why no task can make a state rule decide its reward, or None where one may. A rule
    decides a task through a value left to it (ruled.py: it needs an invariant) or a planted
    look-alike (lookalikes.py), which varies one enum or boolean field of the record a walk acts
    on, of a record that record refers to, or of a row that refers to one of those (a hold on
    the student a registration is for). A rule whose condition reads such fields only further
    away from the rows it protects (a registration's section's term) is one no look-alike can
    set up, however the walks go."""
    if not info["state"] or info["inv_tables"] or not info["untouched"]:
        return None
    people, types = facts.people, facts.world.types

    def refs(table: str) -> set[str]:
        return {rt for ft in people.fields.get(table, {}).values() if (rt := people.ref_table(ft)) is not None}

    near = set()
    for p in info["untouched"]:
        near |= {p} | refs(p)
    near |= {t for t in people.fields if refs(t) & near}

    def flippable(table: str, field: str) -> bool:
        base = types.base(people.fields.get(table, {}).get(field, ""))
        return base == "bool" or base.startswith("enum:")

    varied = {(t, f) for t, f in fields_read(info["decl"], info["svc"]) if flippable(t, f)}
    if not varied or any(t in near for t, _ in varied):
        return None
    shown = ", ".join(f"{t}.{f}" for t, f in sorted(varied))
    return f"what its condition reads ({shown}) is more than one reference away from the rows it protects ({', '.join(sorted(info['untouched']))}): a planted look-alike varies the record a walk acts on, a record it refers to, or a row referring to one of those, so no task can make this rule decide"


def never_decided(facts: WorldFacts, tasks: list[dict]) -> list[tuple[str, str]]:
    """(rule, why) for each house rule that decided none of `tasks` (task records), told from
    where the walks went (issue 29 item 4): an order rule whose tools no task called; a rule whose
    protected tables no task wrote (no walk reaches them: a write there must be one a walk can
    make); or one whose tables tasks wrote, but on no record a look-alike or a value it decides
    made it matter (the seeds never set it up, or the tools' own preconditions refuse what it
    forbids, so a look-alike teaches by the refusal: see docs/authoring.md, "What makes a house
    rule bite")."""
    decided = {c["name"] for t in tasks for c in t.get("constraints") or ()}
    out = []
    for info in facts.constraints:
        if info["name"] in decided:
            continue
        plans = [[c.get("tool", "") for c in t.get("reference_plan") or ()] for t in tasks]
        if info["orders"]:
            tools = sorted({".".join(o.tool) for o in info["orders"]} | {".".join(o.after) for o in info["orders"]})
            reached = sum(1 for p in plans if any(q in tools for q in p))
            why = f"no task called {' or '.join(tools)}" if not reached else f"{reached} of {len(plans)} tasks called {' or '.join(tools)}, never out of the order it asks"
        elif (far := out_of_reach(facts, info)) is not None:
            why = far
        else:
            guarded = set(info["untouched"]) | set(info["inv_tables"])
            reached = sum(1 for p in plans if any(facts.tables_written.get(q, set()) & guarded for q in p))
            where = ", ".join(sorted(guarded)) or "nothing"
            why = (f"no task wrote what it guards ({where}): no walk reaches those tables" if not reached else
                   f"{reached} of {len(plans)} tasks wrote what it guards ({where}), but no look-alike or value it decides came up there: the seeds never make it matter, or the services refuse what it forbids already")
        out.append((info["name"], why))
    return out
