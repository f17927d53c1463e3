"""`worldc verify` trusts nothing in a task file: it samples the task again from the world and
the attempt its id names, and compares every field. Reads tasks; never writes them."""

from __future__ import annotations

import json
import re
from typing import Any

from .rejected import Rejected
from .sampler import Sampler

_ID = re.compile(r"^(?P<world>.*)-h(?P<hops>\d{1,2})-s(?P<seed>\d{1,20})-(?P<index>\d{6,})$")


def attempt_of(task_id: Any) -> tuple[int, int, int] | None:
    """(hops, run seed, attempt index) from a task id `WORLD-hHOPS-sSEED-INDEX`, or None."""
    m = _ID.match(task_id) if isinstance(task_id, str) else None
    if m is None:
        return None
    return int(m["hops"]), int(m["seed"]), int(m["index"])


def _where(a: Any, b: Any, path: str) -> str:
    """The first JSON path at which `a` and `b` differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b or a[k] != b[k]:
                return _where(a.get(k), b.get(k), f"{path}.{k}") if k in a and k in b else f"{path}.{k}"
        return path
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _where(x, y, f"{path}[{i}]")
        return f"{path}[{min(len(a), len(b))}]"
    return path


def rebuild_problems(sampler: Sampler, task: dict) -> list[str]:
    """Sample the task's attempt again and name every field of the record that differs from
    the rebuilt one (the instruction, bindings, capabilities, branch, proofs, checker: all of it).
    A task whose attempt no longer yields a task fails too, with the reason."""
    attempt = attempt_of(task.get("id"))
    if attempt is None:
        return ["id: not of the form WORLD-hHOPS-sSEED-INDEX, so the task cannot be rebuilt"]
    hops, seed, index = attempt
    try:
        rebuilt = sampler.task(seed, index, hops)
    except Rejected as r:
        return [f"id: attempt {index} of seed {seed} with {hops} hops yields no task ({r.reason}: {r.detail[:120]})"]
    # compared as written: what a reader of the file gets
    rebuilt = json.loads(json.dumps(rebuilt, ensure_ascii=False))
    problems = []
    for field in list(rebuilt) + [f for f in task if f not in rebuilt]:
        if field not in task:
            problems.append(f"{field}: missing")
        elif field not in rebuilt:
            problems.append(f"{field}: not a field of a task")
        elif task[field] != rebuilt[field]:
            problems.append(f"{_where(task[field], rebuilt[field], field)}: differs from the task the world and seed give")
    return problems
