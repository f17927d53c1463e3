"""What a walk is made of and what its steps give the steps after them: `Step`, the element a
list step picked, the threads of its data flow. Pure reads of a walk: nothing here runs or grows one."""

from __future__ import annotations

import functools
import re
from typing import Any

import attrs

from ..check import types as T
from ..check.model import Tool
from ..codegen.python import tstr
from ..runtime.paging import page_count, page_holding
from ..runtime.state import State
from .people import People


@attrs.define
class Step:
    tool: Tool
    # param → ("user", None): a fact the instruction states; ("step", (j, field or None)): from
    # step j's output (its result, or the element picked from its list result)
    sources: dict[str, tuple[str, Any]]
    pick: Any = None  # a list result: the key of the element the walk works on
    # how that element (or an entry's target row) is found: {"by": "description", "table", "fields"}
    # or {"by": "rank", "table", "field", "order": "max" or "min"}
    how: dict | None = None


def thread_count(links: list) -> int:
    """How many groups of steps a walk's data flow splits into: `links[k]` lists the earlier
    steps whose output step k takes an argument from; linked steps are one thread. A task of
    one thread is one chain of information; more are errands side by side."""
    group = list(range(len(links)))

    def root(k: int) -> int:
        while group[k] != k:
            group[k] = k = group[group[k]]
        return k

    for k, earlier in enumerate(links):
        for j in earlier:
            group[root(k)] = root(j)
    return len({root(k) for k in range(len(group))})


_STEP = re.compile(r"step (\d+)")


def threads(task: dict) -> int:
    """`thread_count` of a task record, from its `bindings` (an argument bound to "step N" or
    "step N.FIELD" links its step to step N)."""
    return thread_count([[int(m.group(1)) - 1 for source in args.values() if isinstance(source, str) for m in [_STEP.match(source)] if m] for args in task["bindings"]])


def result_table(people: People, tool: Tool) -> str | None:
    """The table of the record (or records) a tool's result is, if it is one."""
    r = tool.result
    if isinstance(r, T.ListT):
        r = r.elem
    if isinstance(r, T.RecordT):
        return people.table_of_record(f"{r.service}.{r.name}")
    return None


def shown_fields(people: People, tool: Tool) -> frozenset[str] | None:
    """The fields of its table's rows a tool's result shows where it is a view of them (a
    summary list, D56: `People.shown`); None where it shows whole rows or is no record."""
    r = tool.result
    if isinstance(r, T.ListT):
        r = r.elem
    return people.shown.get(f"{r.service}.{r.name}") if isinstance(r, T.RecordT) else None


def output(people: People, steps: list[Step], results: list, j: int) -> Any:
    """Step j's output: its result, or the element picked from its list result."""
    return element(people, steps[j], results[j])


def element(people: People, step: Step, result: Any, pick: Any = None) -> Any:
    """What a step's call gives the steps after it: the result itself, or the element of the
    list result whose key is `pick` (the step's own pick by default; None if it is gone)."""
    pick = step.pick if pick is None else pick
    if pick is None or not isinstance(result, (list, tuple)):
        return result
    key = people.key[step.how["table"]]
    return next((e for e in result if e.get(key) == pick), None)


def choose_like(step: Step, result: Any, ref: Any, full=None) -> Any:
    """The element of a list result picked the way the instruction says — the only largest
    by the ranked field, or the only one with the described fields of `ref` — or None.
    `full(element)`: the whole row an element of a view stands for (D56: a description may name
    fields the list does not show, which the agent looks up), for `ref` too."""
    if not isinstance(result, (list, tuple)) or step.how is None:
        return None
    how = step.how
    if how["by"] == "rank":
        if not result:
            return None
        found = ranked_top(result, how)
    elif isinstance(ref, dict):
        def whole(e: dict) -> dict:
            return e if full is None or all(f in e for f in how["fields"]) else full(e)

        mine = whole(ref)
        found = [e for e in result if all(whole(e).get(f) == mine.get(f) for f in how["fields"])]
    else:
        return None
    return found[0] if len(found) == 1 else None


def picks_hold(people: People, state0: State, steps: list[Step], results: list) -> bool:
    """Does every pick still stand out in the results: a ranked one is still the only
    largest, a described one still the only element of its list that fits its description?"""
    for step, result in zip(steps, results):
        if step.pick is None or not isinstance(result, (list, tuple)):
            continue
        how = step.how
        mine = element(people, step, result)
        if mine is None:
            return False
        if how["by"] == "rank":
            if ranked_top(result, how) != [mine]:
                return False
        elif how.get("within") == "list":
            if sum(1 for e in result if all(e[f] == mine[f] for f in how["fields"])) != 1:
                return False
    return True


def unused_reads(mutating: frozenset[str], steps: list[Step]) -> list[int]:
    """The reads whose output no step uses (so far): each must give a report."""
    used = {src[1][0] for st in steps for src in st.sources.values() if src[0] == "step"}
    return [j for j, st in enumerate(steps) if st.tool.qualified not in mutating and j not in used]


def capabilities(people: People, steps: list[Step]) -> set[str]:
    """What the agent must do: carry a value from one result into a later call
    (sequential-dependency), pick the latest or largest among the records a call shows it
    (ranked-selection), carry a date, amount or address read from one service into another's
    call, reworded by the instruction as where it comes from (data-transformation)."""
    caps = set()
    for k, s in enumerate(steps):
        for name, src in s.sources.items():
            if src[0] != "step":
                continue
            caps.add("sequential-dependency")
            pt = tstr(dict(s.tool.params)[name])
            if people.ref_table(pt) is None and steps[src[1][0]].tool.service != s.tool.service:
                caps.add("data-transformation")
        if s.how is not None and s.how["by"] == "rank":
            caps.add("ranked-selection")
    return caps


def found_by(step: Step) -> str | None:
    """How the agent finds the record a step works on, as the task's `found_by` says it."""
    how = step.how
    if how is None:
        return None
    return f"rank: the {'smallest' if how.get('order') == 'min' else 'largest'} {how['field']}" if how["by"] == "rank" else "description: " + ", ".join(how["fields"])


def ranked_top(result: list | tuple, how: dict) -> list:
    """The elements of a list result with the largest (order "max") or smallest ("min") value
    of the ranked field: the one a ranked pick means when it is alone."""
    if not result:
        return []
    f = how["field"]
    top = (min if how.get("order") == "min" else max)(e[f] for e in result)
    return [e for e in result if e[f] == top]


def aggregate_of(aggregate: str, rows: list | tuple) -> Any:
    """The value of a reported aggregate ("count", "total FIELD") over a list result's rows."""
    if aggregate == "count":
        return len(rows)
    field = aggregate.split(" ", 1)[1]
    return sum(r[field] for r in rows)


def paged_plan(facts, plan: list[dict], steps: list[Step], results: list) -> list[dict]:
    """The reference plan as a task records it: a call of a tool that answers a page at a time
    (`pages N`) says how many pages the reference reads, `pages`: up to the page that holds the
    element a description finds (an agent stops where it finds it), else every page (a ranked
    pick, a count or a total, or a list reported whole must see them all)."""
    out = []
    for call, step, result in zip(plan, steps, results):
        size = facts.world.tools[call["tool"]].pages
        if size and isinstance(result, (list, tuple)):
            n = page_count(len(result), size)
            how = step.how or {}
            if how.get("by") == "description" and step.pick is not None:
                key = facts.people.key[how["table"]]
                at = next((i for i, e in enumerate(result) if e.get(key) == step.pick), None)
                n = n if at is None else page_holding(at, size)
            call = {**call, "pages": n}
        out.append(call)
    return out


def needed_besides(steps: list[Step], mutating, asked: set[int], j: int, but: int | None = None, field: str | None = None) -> bool:
    """Does a task need step j for more than the record a name would reach without it: is it a
    write, a step the instruction asks about (`asked`: reports, a branch), or one whose output
    an argument takes otherwise than as that record (a step other than `but` takes it; without
    `but`, an argument takes another field than `field`)? The phraser names a record on its own
    in place of a path through step j only for such steps: a step that only led to that record
    would be a hop in name only, one an agent finding the record by its name never makes
    (issue 28)."""
    if steps[j].tool.qualified in mutating or j in asked:
        return True
    takers = [(k, src[1][1]) for k, s in enumerate(steps) for src in s.sources.values() if src[0] == "step" and src[1][0] == j]
    return any(k != but for k, _ in takers) if but is not None else any(f != field for _, f in takers)


def plainly_found(people: People, steps: list[Step], mutating, j: int) -> bool:
    """Were step j's record and the records that fed it each found by what they are (a
    description, a read by key) or written? Not when one was chosen by a rank ("the time entry
    with the most hours") or by a read that computes it ("the oldest unpaid invoice of ...",
    "the latest message about ..."): that choice is what the task asks of the agent."""
    seen, todo = set(), [j]
    while todo:
        i = todo.pop()
        if i in seen:
            continue
        seen.add(i)
        step, how = steps[i], steps[i].how
        if how is not None and how["by"] == "rank":
            return False
        if how is None and step.tool.qualified not in mutating:
            table = result_table(people, step.tool)
            if table is None or not any(people.ref_table(tstr(pt)) == table for _, pt in step.tool.params):
                return False  # a read that computes which record (`oldest_unpaid_invoice(client)`)
        todo += [src[1][0] for src in step.sources.values() if src[0] == "step"]
    return True


def fields_written(tool: Tool, table: str) -> set[str]:
    """The fields of `table` (qualified) a tool's writes name; "" for a write of whole rows."""
    return {f for var, f in tool.writes if f"{tool.service}.{var}" == table}


def placeholders(tool: Tool) -> frozenset[str]:
    """The parameters a tool's `say` and `gives` phrases name."""
    return _named_in(tool.decl.say, tool.decl.gives)


@functools.lru_cache(maxsize=4096)  # a binding's hot path: the phrases of a world are few
def _named_in(*phrases: str | None) -> frozenset[str]:
    return frozenset(m.split(".")[0].strip() for phrase in phrases if phrase for m in re.findall(r"\{([^{}]*)\}", phrase))
