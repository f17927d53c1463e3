"""The proof that each described record is the one meant: the rows that fit its description, counted
by Python and by Z3, and still the one meant when the task's own writes are done. It counts; it
never changes a description (`necessity.distractors` does)."""

from __future__ import annotations

from typing import Any

import z3

from ..runtime.state import State
from ..smt.encode import _and, _or, asserted, is_false, is_true
from .attempt import Attempt
from .facts import WorldFacts
from .pools import ensure
from .rejected import Rejected
from .reports import read_at_end
from .runs import runs
from .solve import check, new_solver
from .steps import Step, choose_like, fields_written, output, result_table


def descriptions(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step], refused: list[dict], bites: dict) -> list[dict]:
    """Per described record: how many rows of the seeded state fit its description, and why
    each look-alike is not the one meant (the services refuse it, or a house rule forbids it)."""
    out = []
    for k, step in enumerate(steps):
        how = step.how
        if how is None or how["by"] != "description":
            continue
        target = step.pick if step.pick is not None else how.get("key")
        desc = facts.people.description(state0, how["table"], target, tuple(how["fields"]))
        fits = facts.people.matches(state0, how["table"], desc)
        if how.get("within") == "list":
            continue  # told apart among the list the call shows (walk._pick), not the table
        ruled = sorted({n for n, ev in bites.items() for e in ev if e["step"] == k + 1})
        out.append({"step": k + 1, "table": how["table"], "fields": list(how["fields"]), "fits": len(fits), "z3_fits": z3_fits(facts, attempt, state0, how["table"], target, tuple(how["fields"])), "refused_by_services": sum(1 for r in refused if r["step"] == k + 1), "ruled_out_by": ruled})
        if out[-1]["z3_fits"] != len(fits):
            raise Rejected("replay_mismatch", f"step {k + 1}: Python finds {len(fits)} rows fitting the description, Z3 {out[-1]['z3_fits']}")
    return out


def still_named(facts: WorldFacts, attempt: Attempt, state0: State, final: State, steps: list[Step], plan: list[dict], results: list) -> None:
    """Reject a walk whose own writes make a ranked pick or a description name another record by
    the end (`changed_by_task`): the order the task raises is then "the purchase order with the
    latest order date", and an agent that raises it first finds that one. A ranked pick must
    still be the only largest at the end; a description must fit no record at the end that it
    did not fit at the start (in the list the call shows, or in the whole table). The record
    meant may itself stop fitting (the file "in folder Inbox" that the task moves): it is found
    before it is changed, and nothing else takes its place."""
    for k, step in enumerate(steps):
        how = step.how
        if how is None:
            continue
        table, key = how["table"], facts.people.key[how["table"]]
        if how["by"] == "rank":
            top = choose_like(step, read_at_end(facts, attempt, state0, final, step, plan[k], whole=True), None)
            if top is None or top[key] != step.pick:
                raise Rejected("changed_by_task", f"step {k + 1} {step.tool.qualified}: by the end the task's own writes make another {facts.people.noun[table]} the one with the {'smallest' if how.get('order') == 'min' else 'largest'} {how['field']}")
            continue
        within = how.get("within") == "list"
        target = step.pick if step.pick is not None else how.get("key")
        desc = {f: output(facts.people, steps, results, k)[f] for f in how["fields"]} if within else facts.people.description(state0, table, target, tuple(how["fields"]))
        if desc is None:
            continue  # (`descriptions` rejects it)
        ensure(facts, attempt, {table} | {rt for f in how["fields"] if (rt := facts.people.ref_table(facts.people.fields[table][f]))}, state0, final)
        new = set()
        if isinstance(results[k], (list, tuple)):  # in the list the call shows
            now = read_at_end(facts, attempt, state0, final, step, plan[k], whole=True) or ()
            # (an element of a view that does not show the description stands for its row: D56)
            def whole(state: State, e: dict) -> dict:
                return e if desc.keys() <= e.keys() else state.tables[table].get(e[key], e)

            new = {e[key] for e in now if facts.people.fits(final, table, whole(final, e), desc)} - {e[key] for e in results[k] if facts.people.fits(state0, table, whole(state0, e), desc)}
        if not within:  # in the whole table
            new |= set(facts.people.matches(final, table, desc)) - set(facts.people.matches(state0, table, desc))
            if (why := _said_by_then(facts, state0, final, table, target, how["fields"], plan[:k])) is not None:
                raise Rejected("changed_by_task", f"step {k + 1} {step.tool.qualified}: {why}")
        if new:
            raise Rejected("changed_by_task", f"step {k + 1} {step.tool.qualified}: by the end the task's own writes make its description fit {sorted(new, key=repr)[0]} too")


def carried_still_hold(facts: WorldFacts, state0: State, steps: list[Step], plan: list[dict], results: list) -> None:
    """Reject a walk that carries a field of a record from an earlier read into a later step
    after a step in between changed that field (`changed_by_task`): the instruction names the
    value by what it is ("for the expected close date of the opportunity of that quote"), and an
    agent reads it where it uses it, so after the task moved the close date it takes the new
    one while the walk carried the old. Found playing support at 16 hops (seed 2718): the
    agent's "Standup" went on the new date and the checker wanted the old one."""
    people = facts.people
    # only a field some step between the read and the use writes can have moved: without one,
    # nothing to replay (most walks)
    if not any(
        src[0] == "step" and src[1][1] is not None and (table := result_table(people, steps[src[1][0]].tool)) is not None
        and any(fields_written(steps[i].tool, table) & {src[1][1], ""} for i in range(src[1][0] + 1, k))
        for k, step in enumerate(steps) for src in step.sources.values()
    ):
        return
    state = state0.snapshot()
    for k, (step, call) in enumerate(zip(steps, plan)):
        for name, src in step.sources.items():
            if src[0] != "step" or src[1][1] is None:
                continue
            j, field = src[1]
            out = output(people, steps, results, j)
            table = result_table(people, steps[j].tool)
            if table is None or not isinstance(out, dict) or field == people.key[table]:
                continue
            row = state.tables.get(table, {}).get(out.get(people.key[table]))
            if row is not None and field in row and row[field] != out.get(field):
                raise Rejected("changed_by_task", f"step {k + 1} {step.tool.qualified}: takes the {field} of step {j + 1}'s record, which a step between changed: an agent reading it then finds the new value")
        if not facts.world.call(state, call["tool"], call["arguments"])["success"]:
            return  # (the replay says why)


def _said_by_then(facts: WorldFacts, state0: State, final: State, table: str, target: Any, fields: list[str], before: list[dict]) -> str | None:
    """Why a description the instruction words from the seeded state no longer says what the
    agent finds when it gets to the step, or None: an earlier step of the task deleted or
    renamed a record it names ("the quote of opportunity "Platform renewal 2025"" after the task
    deleted that opportunity: the quote then names a record no tool shows). Only when the end
    state differs there is the state before the step replayed."""
    people = facts.people

    def said(state: State) -> tuple | None:
        row = state.tables.get(table, {}).get(target)
        if row is None:
            return None
        out = []
        for f in fields:
            rt = people.ref_table(people.fields[table][f])
            out.append(people.ref_value(state, rt, row[f]) if rt is not None else row[f])
        return tuple(out)

    first = said(state0)
    if said(final) == first:
        return None
    then = runs(facts, state0, before)
    if then is None or said(then) == first:
        return None
    return "an earlier step changes or removes a record its description names, before the agent gets there"


def z3_fits(facts: WorldFacts, attempt: Attempt, state0: State, table: str, target: Any, fields: tuple[str, ...]) -> int:
    """Z3's count of the rows that fit the target's description, over the encoder's own image
    of the seeded state (`state_from`): a row fits when its slot's fields equal the target
    slot's, a reference field through the referenced table's slots (the referenced row's
    first `known by` field equal to the target's). Texts compare exactly here, case-blind in
    Python (`People.matches`); a disagreement rejects the attempt.

    The encoder's connectives decide each row's condition on Z3's own literals as they are
    built (literals are hash-consed: equal values are one term), so over a seeded state the
    count is read off the folded terms; the solver counts whatever does not fold."""
    ensure(facts, attempt, {table} | {rt for f in fields if (rt := facts.people.ref_table(facts.people.fields[table][f]))}, state0)
    with attempt.encoding():
        sym = facts.enc.state_from(state0, spare=0, deadline=attempt.deadline, python=True)
        slots = sym.tables[table]
        mine = slots[list(state0.tables[table]).index(target)].fields
        conds_by_field = []
        for f in fields:
            rt = facts.people.ref_table(facts.people.fields[table][f])
            if rt is None:
                conds_by_field.append(lambda sl, f=f: facts.enc.eq(sl.fields[f], mine[f]))
                continue
            kb, key = facts.people.known_by[rt][0], facts.people.key[rt]
            ref_slots = sym.tables[rt]
            want = ref_slots[list(state0.tables[rt]).index(state0.tables[table][target][f])].fields[kb]
            conds_by_field.append(lambda sl, f=f, ref_slots=ref_slots, kb=kb, key=key, want=want: _or([_and(r.present, facts.enc.eq(r.fields[key], sl.fields[f]), facts.enc.eq(r.fields[kb], want)) for r in ref_slots]) if ref_slots else False)
        conds = [_and(sl.present, *[c(sl) for c in conds_by_field]) for sl in slots]
        if all(is_true(c) or is_false(c) for c in conds):
            return sum(1 for c in conds if is_true(c))
        n = z3.Int("fits")
        terms = [z3.If(asserted(c), 1, 0) for c in conds]
        solver = new_solver(0)
        solver.add(n == (z3.Sum(*terms) if terms else z3.IntVal(0)))
    if check(attempt, solver) != z3.sat:
        return -1
    return solver.model()[n].as_long()
