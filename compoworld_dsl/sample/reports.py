"""What a task asks the agent to tell, and the proofs that a lazy agent cannot guess it (few rows
share it, decoys, nothing stated that a step must find). It reads the walk; it never changes it."""

from __future__ import annotations

import collections
import json
import random
import re
from typing import Any

from ..check import types as T
from ..codegen.python import tstr
from ..runtime.service import ToolError
from ..runtime.state import State
from ..vocab import norm
from . import necessity as N
from .answers import answer_matches, stated_in
from .attempt import Attempt
from .facts import WorldFacts
from .pools import ensure, other_values
from .rejected import Rejected
from .steps import Step, aggregate_of, element, output, result_table, unused_reads

MAX_REPORTS = 3
COMBINE_SHARE = 0.3  # of tasks with a report that also ask a value another service's record holds
TELLING_SHARE = 0.25  # a reported field's value is held by at most this share of its table's rows, when one is (`telling`)
DECOY_RECORDS = 12  # other records asked about per argument, for the decoys of a plain reported value (`_plain_elsewhere`)
MIN_COUNTED = 3  # records a list read must show before "how many" is asked of it: fewer is a guess away
# number fields whose sum means nothing (a total discount in percent, a total rating, a total year)
NOT_ADDITIVE = frozenset("percent pct percentage rate ratio score rating rank priority level year years age version sequence position index number no zip code phone lat lon latitude longitude temperature probability share time timestamp epoch last seen created updated modified date at id".split())


def aggregates(facts: WorldFacts, table: str, rows: list | tuple) -> list[tuple[str, str, Any]]:
    """What a person asks of a list a read shows, (aggregate, runtime type, value): how many
    there are ("count", when at least MIN_COUNTED), and the total of a number field ("total
    FIELD": an amount, a quantity; not a key, a reference or a clock's) over at least two. The
    agent must read every record and count or add: a step that reads and compares (issue 28)."""
    out: list[tuple[str, str, Any]] = []
    if len(rows) >= MIN_COUNTED:
        out.append(("count", "int", len(rows)))
    if len(rows) >= 2:
        vol = facts.world.volatile_fields.get(table, frozenset())
        for f, ft in facts.people.fields[table].items():
            if f == facts.people.key[table] or f in vol or f not in rows[0] or facts.people.ref_table(ft) is not None:
                continue  # (a summary list shows some fields only: D56)
            words = set(re.split(r"[^a-z]+", f"{f} {facts.people.label(table, f)}".lower()))
            additive = facts.world.types.base(ft) == "money" or (facts.world.types.base(ft) in ("int", "decimal") and not words & NOT_ADDITIVE)
            if additive and not ft.startswith("alias:"):
                total = aggregate_of(f"total {f}", rows)
                if not _blank(total) and len({r[f] for r in rows}) > 1:
                    out.append((f"total {f}", ft, total))
    return out


def _blank(value: Any) -> bool:
    """Empty, zero, false or null, all the way down: what a lazy agent reports without looking."""
    if isinstance(value, (list, dict)):
        return all(_blank(v) for v in (value.values() if isinstance(value, dict) else value))
    return value in (None, "", 0, False)


def _nested(a: Any, b: Any) -> bool:
    """Does one value's text hold the other's (case-insensitive)? Then finding one in an answer
    says nothing about the other."""
    x, y = str(a).casefold(), str(b).casefold()
    return x in y or y in x


def _hashable(v: Any) -> Any:
    """A dict key for a field's value (lists and records by their JSON-like text)."""
    return json.dumps(v, sort_keys=True, default=str) if isinstance(v, (list, dict)) else v


def reports(facts: WorldFacts, attempt: Attempt, rng: random.Random, state0: State, final: State, steps: list[Step], plan: list[dict], results: list) -> list[dict]:
    """What the task asks the agent to tell: for every read whose output no later step uses,
    one value of it a person would ask for (not an id, not a clock's, not blank, not part of
    the description that found it, not a yes/no). A read with nothing to report rejects the
    walk.

    A yes/no is never reported: `false` is refused as blank, so every yes/no left would be
    `true`, and an agent that answers "yes" without looking would pass (found by a scripted
    guessing agent on supply_chain; DESIGN §5: no reported value is guessable).

    "Then tell me" asks for the value when the agent reports, at the end, and the walk's read
    may come before the task's own writes: only a value those writes leave as the read gave it
    is reported (the status of a sales order the task puts on hold is not; its customer is), so
    the answer is the same whenever the agent reads it. A read whose every such value, or whose
    plain result (a count of open matters, one of which the task closes), the writes change
    rejects the walk (`changed_by_task`)."""
    out = []
    for j in unused_reads(facts.mutating, steps):
        step = steps[j]
        value = output(facts.people, steps, results, j)
        if isinstance(value, (list, tuple)) and (table := result_table(facts.people, step.tool)) is not None:
            # a list nothing picks from: how many, or a total ("the total amount of the open
            # invoices of ..."), the same at the end as when read
            options = aggregates(facts, table, value)
            if not options:
                raise Rejected("step_not_needed", f"step {j + 1} {step.tool.qualified}: too few records in its result to count or add up")
            now = read_at_end(facts, attempt, state0, final, step, plan[j], whole=True)
            options = [o for o in options if isinstance(now, (list, tuple)) and aggregate_of(o[0], now) == o[2]]
            if not options:
                raise Rejected("changed_by_task", f"step {j + 1} {step.tool.qualified}: the task's own writes change how many it gives, and every total")
            agg, t, v = rng.choice(options)
            # the values added up: an answer that shows its working names them, so none is a decoy
            parts = [facts.world.types.to_json(t, row[agg.split(" ", 1)[1]]) for row in value] if agg != "count" else []
            out.append({"step": j, "field": None, "aggregate": agg, "type": t, "element": None, "value": v, "table": None, "parts": parts})
            continue
        table, fields = reportable(facts, state0, step, value, j)
        now = read_at_end(facts, attempt, state0, final, step, plan[j])
        if table is not None:
            fields = [f for f in fields if isinstance(now, dict) and now.get(f) == value[f] and not _stale_count(facts, state0, final, table, f)]
            if not fields:
                raise Rejected("changed_by_task", f"step {j + 1} {step.tool.qualified}: the task's own writes change every value it could report")
            fields = [f for f in fields if not _echoed(facts, plan[:j], table, f, value[f])]
            if not fields:
                raise Rejected("guessable_answer", f"step {j + 1} {step.tool.qualified}: every value it could report is one an earlier step was given under its name")
            f = rng.choice(fields)
            out.append({"step": j, "field": f, "aggregate": None, "type": facts.people.fields[table][f], "element": step.pick, "value": value[f], "table": table})
        else:
            if now != value:
                raise Rejected("changed_by_task", f"step {j + 1} {step.tool.qualified}: the task's own writes change what it gives")
            out.append({"step": j, "field": None, "aggregate": None, "type": tstr(step.tool.result), "element": None, "value": value})
    if out and len(out) < MAX_REPORTS and random.Random(f"{attempt.task_seed}:combine").random() < COMBINE_SHARE:
        out += _from_another_service(facts, attempt, rng, state0, final, steps, plan, results, out)
    if len(out) > MAX_REPORTS:
        raise Rejected("too_many_reports", f"{len(out)} reads would each need a report")
    islands = [r["step"] for r in out if facts.walks.is_entry(steps[r["step"]].tool)]
    if len(islands) > 1:  # two lookups whose results are only read out: chores, not a task
        raise Rejected("step_not_needed", f"steps {', '.join(str(j + 1) for j in islands)}: lookups whose results nothing uses but a report")
    return out


def _echoed(facts: WorldFacts, earlier: list[dict], table: str, field: str, value: Any) -> bool:
    """Was an earlier step given this value under the field's name? Then the report asks for
    what the walk already held before the read: "tell me the country code of the airport "Harbor
    airport" among the airports of the country code of ..." (Transavia, blind round 33: "the
    question answers itself"), the list having been asked for that very code."""
    v = facts.world.types.to_json(facts.people.fields[table][field], value)
    n = norm(field)
    return any(norm(a) == n and x == v for call in earlier for a, x in call.get("arguments", {}).items())


def _from_another_service(facts: WorldFacts, attempt: Attempt, rng: random.Random, state0: State, final: State, steps: list[Step], plan: list[dict], results: list, out: list[dict]) -> list[dict]:
    """One more value to tell, of a record an earlier read found in another service than the
    reported ones ("... and the lead time of that supplier"), so the answer combines what two
    services hold (issue 28 item 2); a field a person would ask for and could not guess
    (`reportable`), the same at the end as when read. [] when no read offers one."""
    told = {steps[r["step"]].tool.service for r in out} | {r["step"] for r in out}
    options = []
    for j, step in enumerate(steps):
        if step.tool.qualified in facts.mutating or j in told or step.tool.service in told:
            continue
        value = output(facts.people, steps, results, j)
        if not isinstance(value, dict):
            continue
        try:
            table, fields = reportable(facts, state0, step, value, j)
        except Rejected:
            continue
        now = read_at_end(facts, attempt, state0, final, step, plan[j])
        fields = [f for f in fields if isinstance(now, dict) and now.get(f) == value[f] and not _stale_count(facts, state0, final, table, f)]
        options += [(j, table, f) for f in fields]
    if not options:
        return []
    j, table, f = rng.choice(options)
    value = output(facts.people, steps, results, j)
    return [{"step": j, "field": f, "aggregate": None, "type": facts.people.fields[table][f], "element": steps[j].pick, "value": value[f], "table": table}]


def read_at_end(facts: WorldFacts, attempt: Attempt, state0: State, final: State, step: Step, call: dict, whole: bool = False) -> Any:
    """What a read of the walk gives on the final state, with the reference's arguments (`call`,
    its plan entry): the element it picked, or with `whole` its whole result; None when the call
    fails or the element is gone."""
    ensure(facts, attempt, facts.tool_tables[step.tool.qualified], state0, final)
    spec = facts.world.tools[step.tool.qualified]
    try:
        result = facts.world.execute(final.snapshot(), spec, facts.world.convert_arguments(spec, call["arguments"]), deadline=attempt.deadline)[0]
    except ToolError:
        return None
    return result if whole else element(facts.people, step, result)


def _stale_count(facts: WorldFacts, state0: State, final: State, table: str, field: str) -> bool:
    """Is `field` a count a record keeps of rows that refer to it (`feature_count`, `number_of_
    members`), while the task adds or removes such rows? The world stores the count as seeded
    (nothing derives it), so it would read the same after the task added a feature, where the
    API would count one more: a blind player met "add a feature to that project ... then tell
    me the feature count of that project" answered by the unchanged 42 (round 11)."""
    words = field.split("_")
    if not ({"count", "counts"} & set(words) or field.startswith(("number_of_", "num_"))):
        return False
    children = {t for t, _ in facts.people.children.get(table, ())}
    # (a table seeded only after the start, `pools.ensure`, is compared where both states hold it)
    return any(final.tables[t].keys() != state0.tables[t].keys() for t in children if t in final.tables and t in state0.tables)


def telling(state0: State, table: str, value: dict, fields: list[str]) -> list[str]:
    """The fields of a record that an agent cannot guess by answering with the table's
    commonest value of the field (every matter is "open"), or one of its few values: the
    field takes at least 1 / `TELLING_SHARE` values over the table's rows in `state0`, the
    record's is held by at most `TELLING_SHARE` of the rows (or by one), and, when by more
    than one, by fewer rows than some other value. With any field allowed, an agent that did
    the work but answered with the commonest value passed 26 of 111 office tasks with a
    report (D28)."""
    rows = state0.tables.get(table)
    if not rows:
        return fields
    most = max(1, TELLING_SHARE * len(rows))
    out = []
    for f in fields:
        counts = collections.Counter(_hashable(r[f]) for r in rows.values())
        mine = counts.pop(_hashable(value[f]), 0)
        if len(counts) + 1 < 1 / TELLING_SHARE:
            continue  # a field of few values (a status): a guess among them is too often right
        if mine <= 1 or (mine <= most and mine < max(counts.values(), default=0)):
            out.append(f)
    return out


def reportable(facts: WorldFacts, state0: State, step: Step, value: Any, j: int) -> tuple[str | None, list[str]]:
    """What a read's output `value` (step j, used by no later step) offers a report: (its
    table, the fields a person would ask for and could not guess, `telling`) for a record,
    (None, []) for a plain value. Raises `Rejected` when it offers nothing: an id, a blank,
    a yes/no, only values many rows share, no result at all. The walk asks this of a read it
    would end on (`Walker.grow`), `reports` of every read."""
    table = step.how["table"] if step.how else result_table(facts.people, step.tool)
    if isinstance(value, (list, tuple)) and table is not None and step.pick is None:
        if not aggregates(facts, table, value):
            raise Rejected("step_not_needed", f"step {j + 1} {step.tool.qualified}: too few records in its result to count or add up")
        return table, []
    if isinstance(value, dict) and table is not None:
        # nor a field named as a text the read was given from an earlier output (shared values,
        # D51): it echoes the argument ("the zip code of the market statistics for the zip code
        # of ...")
        asked = {norm(n) for n, pt in step.tool.params if step.sources.get(n, ("user",))[0] == "step" and facts.world.types.base(tstr(pt)) == "text"}
        skip = {facts.people.key[table]} | set(facts.world.volatile_fields.get(table, ())) | set((step.how or {}).get("fields", ())) | {(step.how or {}).get("field")} | {f for f in facts.people.fields[table] if norm(f) in asked}
        if value.get(facts.people.key[table]) not in state0.tables.get(table, {}):
            # a record the task made holds its record's defaults where no argument gave a value:
            # the same for every new row, nothing a read finds ("tell me the creation time of
            # the new contact": 2025-01-01T00:00, a world with no clock, stop 68)
            defaults = facts.world.state_decl.get(table, {}).get("defaults", {})
            skip |= {f for f, d in defaults.items() if f in value and _hashable(value[f]) == _hashable(d)}
        fields = [f for f, ft in facts.people.fields[table].items() if f not in skip and f in value and facts.people.ref_table(ft) is None and not _blank(value[f]) and facts.world.types.base(ft) != "bool"]
        if not fields:
            raise Rejected("step_not_needed", f"step {j + 1} {step.tool.qualified}: nothing in its result to report")
        told = telling(state0, table, value, fields)
        if not told:
            raise Rejected("guessable_answer", f"step {j + 1} {step.tool.qualified}: every field of its result has a value many rows share")
        return table, told
    if not isinstance(value, (dict, list)) and value is not None and not isinstance(step.tool.result, T.NoneT):
        t = tstr(step.tool.result)
        if facts.people.ref_table(t) is not None or _blank(value):
            raise Rejected("step_not_needed", f"step {j + 1} {step.tool.qualified}: its result is nothing a person would ask for")
        if facts.world.types.base(t) == "bool":
            raise Rejected("guessable_answer", f"step {j + 1} {step.tool.qualified}: a yes/no answer can be guessed")
        return None, []
    raise Rejected("step_not_needed", f"step {j + 1} {step.tool.qualified}: nothing uses its result")


def decoys(facts: WorldFacts, attempt: Attempt, state0: State, final: State, steps: list[Step], values: dict, reports: list[dict], checks: list[dict], instruction: str) -> None:
    """Give each answer check its `decoys`, so that an answer listing candidates ("the memo is
    one of A; B; C", "1, 2 or 3") fails though it holds the right one (D29): for a field of
    a record, the field's other values in its table, at the start and at the end; for a plain
    value (a count, a total), what the same read gives about the other records its step-bound
    arguments could have named (up to `DECOY_RECORDS` of each). Left out: a value that would
    pass as any reported value, one that holds a reported value or is held by one (as text: a
    good answer holds them all), and one the instruction or an answer check's label states (an
    agent may echo it)."""
    types = facts.world.types
    asked = [types.to_json(r["type"], r["value"]) for r in reports]
    # what an answer may echo: the instruction, and the checks' own labels, which can name a
    # record the instruction calls "that matter" ("the lawyer of the newest matter of the contact
    # "Tomasz Kowalski"": a decoy, so an answer that restated the label failed)
    said = " ".join([instruction, *(c.get("label", "") for c in checks if c["kind"] == "answer")])
    for r in reports:
        t = r["type"]
        if r.get("table") is not None:
            found = [types.to_json(t, row[r["field"]]) for st in (state0, final) for row in st.tables[r["table"]].values()]
        elif r["field"] is None:
            found = _plain_elsewhere(facts, attempt, state0, steps, values, r["step"], t, r.get("aggregate"))
        else:
            continue
        seen, decoys = set(), []
        for v in found:
            k = json.dumps(v, sort_keys=True)
            if k in seen or _blank(v):
                continue
            seen.add(k)
            if any(answer_matches(types, t, a, v) or _nested(v, a) for a in asked) or stated_in(types, t, v, said):
                continue
            if any(answer_matches(types, t, p, v) for p in r.get("parts", ())):
                continue  # one of the values a total adds up: "4 + 95 = 99" names it
            decoys.append(v)
        if decoys:
            check = next(c for c in checks if c["kind"] == "answer" and c.get("label") == r["label"])
            check["decoys"] = sorted(decoys, key=lambda v: json.dumps(v, sort_keys=True))


def _plain_elsewhere(facts: WorldFacts, attempt: Attempt, state0: State, steps: list[Step], values: dict, j: int, t: str, aggregate: str | None = None) -> list:
    """What read j gives (as JSON) when one argument it took from an earlier result names
    another record: the reference walk replayed with that argument changed (its count or
    total, for an aggregate)."""
    out = []
    for name, pt in steps[j].tool.params:
        if steps[j].sources[name][0] != "step":
            continue
        for other in other_values(facts, attempt, state0, tstr(pt), values[(j, name)])[:DECOY_RECORDS]:
            attempt.deadline.check()
            got = N.replay(facts, attempt, state0, steps, values, args={(j, name): other})[2].get(j)
            if aggregate is not None and isinstance(got, (list, tuple)):
                got = aggregate_of(aggregate, got) if got else None
            if got is not None and not isinstance(got, (dict, list)):
                out.append(facts.world.types.to_json(t, got))
    return out


def answer_not_guessable(facts: WorldFacts, state0: State, steps: list[Step], plan: list[dict], checks: list[dict], reports: list[dict], instruction: str) -> dict:
    """Reject a task a lazy agent could pass without doing the work; the proof. Guessable: a
    reported value that is empty, zero, false or null, a yes/no at all, or that the instruction states;
    or, for a task whose only goal is its report, a value the initial state gives the same way
    without the walk (the report's read on the seeded state with the reference's arguments)."""
    for r in reports:
        v = facts.world.types.to_json(r["type"], r["value"])
        if _blank(v) or isinstance(v, bool):  # (`reports` chooses no yes/no: this keeps it so)
            raise Rejected("guessable_answer", f"{r['label']} is {json.dumps(v)[:40]}")
        if stated_in(facts.world.types, r["type"], v, instruction):
            raise Rejected("guessable_answer", f"the instruction states {r['label']}")
    return {"not_blank": True, "not_in_instruction": True, "reports": len(reports)}


def stated_values(facts: WorldFacts, steps: list[Step], values: dict, instruction: str, left: set = frozenset()) -> None:
    """Reject a task whose instruction leaves out a text a step takes from it (a subscription, a
    name, a secret): the agent cannot call the step with what it was not told. A fresh Azure
    Policy Insights draw said only "Tell me the results non compliant resources of the summary
    "Orion summary"" of three answered reads whose every argument the plan took from the
    instruction. Only text: a key is described (a record's, `People.describe`), an enum, a flag,
    a number or a date may be said in other words, and a value a house rule decides (`left`)
    or left at the tool's default is not said."""
    types = facts.world.types
    for k, step in enumerate(steps):
        defaults = facts.world.tools[step.tool.qualified].defaults
        for name, pt in step.tool.params:
            src = step.sources.get(name)
            value = values.get((k, name))
            t = tstr(pt)
            if src is None or src[0] == "step" or (k, name) in left or types.base(t) != "text" or facts.people.ref_table(t) is not None:
                continue
            if not isinstance(value, str) or not value.strip() or (name in defaults and defaults[name] == value):
                continue
            if not stated_in(types, t, value, instruction):
                raise Rejected("unstated", f"step {k + 1} {step.tool.qualified}: the instruction does not say the {name} it takes ({value!r})")


def flows_not_stated(facts: WorldFacts, steps: list[Step], values: dict, instruction: str) -> None:
    """Reject a task whose instruction states a value that a step takes from an earlier result
    (a date, an amount, an email address), as another request's value or part of a description:
    an agent could take it from there, and the read it flows from would not be needed for it."""
    for k, step in enumerate(steps):
        for name, pt in step.tool.params:
            src = step.sources[name]
            # (a record's key is said only where the record is known by it, D60: 'the domain
            # "Atlas domain" of the billing record ...' hands the agent the domain's key, and the
            # billing read is a step no agent needs; such a walk opens on the named domain, D61)
            rt = facts.people.ref_table(tstr(pt))
            # (a create's stated new key, carried on, is not: the create is needed all the same)
            if src[0] != "step" or src[1][1] is None or rt is not None and (not facts.people.named_by_key(rt) or steps[src[1][0]].tool.qualified in facts.mutating):
                continue
            t = tstr(pt)
            if stated_in(facts.world.types, t, facts.world.types.to_json(t, values[(k, name)]), instruction):
                raise Rejected("step_not_needed", f"step {k + 1} {step.tool.qualified}: the instruction states the {name} it takes from step {src[1][0] + 1}")
