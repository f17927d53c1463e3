"""Values the house rules decide: arguments the instruction leaves to the agent. It finds them by
replaying changed plans; it never changes the walk, its values or the rules attached.

A person who knows the firm's rules does not spell out what the rules already fix: "put the
deadline on record for that matter" is enough when the rule says a deadline matches the newest
docket note. Such a task makes the rule load-bearing: the agent has to read the rule, find the
newest note and use its date; a plan that takes the date from anywhere else runs on the services
and breaks the rule.

An argument of a write is left to the rules when

- it is not a key (keys name records, and records are named by description elsewhere),
- a field of that name is one a house rule reads (`p.memo contains p.cosigner`, `d.due`),
- with it replaced by any of up to `ALTERNATIVES` other values of its type that the state
  holds (and the type's blank), the plan still runs for at least `MIN_RUNS` of them, and every
  one that runs breaks an attached rule the reference keeps, at the end and already right after
  the call itself (a value only a later step makes wrong is the later step's to decide). The
  rules then pick the value out from everything the agent could plausibly have used.

At most one argument per write, and per rule, is left (the one whose alternatives run most
often, later parameters first on a tie): two at once could be traded against each other (a
made-up co-signatory and a memo that names them; a new docket note's date and the deadline set
to match it). The instruction omits it (`phrasing`), the checker does
not compare it (`checker.derive(ruled=...)`; an updated field must still change), and the rule's
proof records the alternatives that break it. One exception: a value a rule only asks a text to
contain (`p.memo contains p.cosigner`) would pass the rule cut down to any part of it ("R.",
"Escrow"), so the checker compares it with the reference's as a person's name (`"as": "name"`).
Seeded by the task seed, so `verify` agrees."""

from __future__ import annotations

import random
from typing import Any

from ..codegen.python import tstr
from ..runtime.state import State, diff
from ..syntax import ast as A
from . import checker as C
from . import necessity as N
from .attempt import Attempt
from .facts import WorldFacts
from .pools import other_values
from .runs import replay
from .steps import Step

ALTERNATIVES = 4  # other values tried per argument
MIN_RUNS = 2  # of which at least this many must run (and every one that runs break a rule)


def find(facts: WorldFacts, attempt: Attempt, seed: int, state0: State, steps: list[Step], values: dict, attached: list[dict]) -> dict[tuple[int, str], dict]:
    """(step, argument) → {"rules": names broken, "alternatives": JSON values tried that break
    them} for each argument left to the rules."""
    names = {c["name"] for c in attached if c["kind"] == "state"}
    infos = [i for i in facts.constraints if i["name"] in names and i["inv_tables"]]
    if not infos:
        return {}
    read = set().union(*[i["inv_tables"] for i in infos])
    rng = random.Random(f"{seed}:ruled")
    needles = {i["name"]: _contained(i["decl"]) for i in infos}
    out: dict[tuple[int, str], dict] = {}
    used: set[str] = set()  # rules that already decide a left argument
    for k, step in enumerate(steps):
        best = None
        for i, (name, pt) in enumerate(step.tool.params):
            if not _may_leave(facts, step, name, pt, read):
                continue
            t = tstr(pt)
            got = _decides(facts, attempt, rng, state0, steps, values, infos, k, name, t)
            if got is not None and set(got[1]["rules"]) & used:
                continue  # a second value the same rule would decide: the two could be traded
            if got is not None and (best is None or (got[0], i) > (best[0], best[1])):
                best = (got[0], i, name, got[1])
        if best is not None:
            if any(best[2] in needles[r] for r in best[3]["rules"]):
                best[3]["as"] = "name"  # what a text must contain: any part of it would pass the rule too
            out[(k, best[2])] = best[3]
            used |= set(best[3]["rules"])
    return out


def _contained(decl) -> set[str]:
    """Fields a rule reads as what a text must contain (`p.memo contains p.cosigner`): a whole
    value, a name, that the rule alone would also accept cut down to any part of it."""
    return {n.right.name for n in A.walk(decl) if isinstance(n, A.Binary) and n.op == "contains" and isinstance(n.right, A.Field)}


def could_be_left(facts: WorldFacts, steps: list[Step]) -> set[tuple[int, str]]:
    """Every (step, argument) `find` could leave to some house rule of the world, whichever rules
    end up attached: what an instruction surely states before the rules are settled is what it
    states with all of these left out."""
    read = set().union(*[i["inv_tables"] for i in facts.constraints if i["inv_tables"]])
    return {(k, name) for k, step in enumerate(steps) for name, pt in step.tool.params if _may_leave(facts, step, name, pt, read)}


def _may_leave(facts: WorldFacts, step: Step, name: str, pt, read: set[str]) -> bool:
    """Is this argument of a write one a rule reading the tables `read` could decide: not a key,
    user-given, named like a field a house rule reads, of a write to a table such a rule reads?"""
    tool = step.tool
    return (
        tool.qualified in facts.mutating
        and bool(facts.tables_written[tool.qualified] & read)
        and name in facts.rule_fields
        and name in step.sources
        and facts.people.ref_table(tstr(pt)) is None
    )


def _decides(facts: WorldFacts, attempt: Attempt, rng: random.Random, state0: State, steps: list[Step], values: dict, infos: list[dict], k: int, name: str, t: str):
    """(runs, proof) when every alternative value that runs breaks a rule; else None."""
    current = values[(k, name)]
    pool = other_values(facts, attempt, state0, t, current)
    others = rng.sample(pool, min(ALTERNATIVES, len(pool)))
    blank = _blank(facts, t)
    if blank is not None and blank != current and blank not in others:
        others.append(blank)
    # the value the record holds already: "change the memo to the one the house rules call for"
    # asks for nothing a person can find when the memo it has satisfies them
    held = _held_before(facts, state0, steps, values, k, name, attempt.deadline)
    if held is not None and held != current and held not in others:
        others.insert(0, held)
    runs, broken, tried = 0, set(), []
    for v in others:
        attempt.deadline.check()
        final, calls, _, touched = N.replay(facts, attempt, state0, steps, values, args={(k, name): v})
        if len(calls) < len(steps):
            continue  # the services refuse it: that is the agent's feedback, not the rule's
        runs += 1
        breaks = [i["name"] for i in infos if not C._constraint_holds(facts.world, i["name"], state0, final, touched, calls)[0]]
        if not breaks:
            return None  # a value the rules accept as well: they do not decide this one
        # and already right after its own call: a value that only a later step of the task makes
        # wrong (a new note's date, matched by the deadline set after it) is not one a person
        # leaves to the rules
        at = N.replay(facts, attempt, state0, steps[: k + 1], values, args={(k, name): v})
        breaks = [r for r in breaks if not C._constraint_holds(facts.world, r, state0, at[0], at[3], at[1])[0]]
        if not breaks:
            return None
        broken.update(breaks)
        tried.append(facts.world.types.to_json(t, v))
    if runs < MIN_RUNS:
        return None
    return runs, {"rules": sorted(broken), "alternatives": tried}


def _held_before(facts: WorldFacts, state0: State, steps: list[Step], values: dict, k: int, name: str, deadline=None) -> Any:
    """The value field `name` has, before step k, in the row step k updates (None if it
    updates no row with such a field)."""
    before = replay(facts, state0, steps[:k], values, deadline)[0]
    after = replay(facts, state0, steps[: k + 1], values, deadline)[0]
    for ch in diff(before, after).rows:
        if ch.kind == "updated" and name in ch.fields:
            return before.tables[ch.table][ch.key][name]
    return None


def _blank(facts: WorldFacts, t: str) -> Any:
    base = facts.world.types.base(t)
    return "" if base == "text" else None


def rows(facts: WorldFacts, state0: State, steps: list[Step], values: dict, left: dict[tuple[int, str], dict], deadline=None) -> dict[tuple[str, Any], dict[str, str]]:
    """(table, key) of each row a step with a left argument writes → the fields left there, each
    to how the checker compares it (`checker.derive`): "name" as a person's name, "rule" not at all."""
    out: dict[tuple[str, Any], dict[str, str]] = {}
    for k in sorted({k for k, _ in left}):
        before = replay(facts, state0, steps[:k], values, deadline)[0]
        after = replay(facts, state0, steps[: k + 1], values, deadline)[0]
        names = {n: left[(j, n)].get("as", "rule") for j, n in left if j == k}
        for ch in diff(before, after).rows:
            fields = set(names) & set(facts.people.fields.get(ch.table, {}))
            if fields and ch.kind != "deleted":
                out.setdefault((ch.table, ch.key), {}).update({f: names[f] for f in fields})
    return out
