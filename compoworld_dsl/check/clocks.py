"""Which state a clock or counter decides: scalars that tools move on from their own value, and
the fields and scalars written from them. Read by the code generator for the task checker."""

from __future__ import annotations

from ..syntax import ast as A
from .model import Model


def _reads(expr: object, names: set[str]) -> bool:
    return any(isinstance(n, A.Var) and n.name in names for n in A.walk(expr))


def volatile_state(model: Model) -> tuple[set[str], dict[str, set[str]]]:
    """(scalars, {table: fields}), qualified as "service.name".

    A scalar is a *clock* when some tool sets it from its own value (`set clock = clock +
    minutes(1)`, `set next_cheque = next_cheque + 1`). A scalar or a row field written from a
    clock (directly or through a `let`) is volatile too: its value depends on how many calls came
    before, not on what the task asked, so a checker compares it by relation, not by value.
    Parameters and `let`s that share a clock's name shadow it (an over-approximation never
    marks more than is read)."""
    clocks: set[str] = set()  # qualified
    for svc in model.services.values():
        for tool in svc.tools.values():
            for stmt in tool.decl.body:
                if isinstance(stmt, A.Set) and _reads(stmt.value, {stmt.name}):
                    clocks.add(f"{svc.name}.{stmt.name}")
    scalars, fields = set(clocks), {}
    changed = True
    while changed:  # a scalar set from a clock is volatile, and so is what is set from it
        changed = False
        for svc in model.services.values():
            local = {q.split(".", 1)[1] for q in scalars if q.startswith(svc.name + ".")}
            if not local:
                continue
            for tool in svc.tools.values():
                seen = local - {p for p, _ in tool.params}
                for stmt in tool.decl.body:
                    if isinstance(stmt, A.Let):
                        if _reads(stmt.value, seen):
                            seen = seen | {stmt.name}
                        else:
                            seen = seen - {stmt.name}
                    elif isinstance(stmt, A.Set) and _reads(stmt.value, seen):
                        q = f"{svc.name}.{stmt.name}"
                        if q not in scalars:
                            scalars.add(q)
                            changed = True
                    elif isinstance(stmt, (A.Insert, A.Update)):
                        table = stmt.table if isinstance(stmt, A.Insert) else stmt.target.table
                        for f in stmt.fields:
                            if _reads(f.value, seen):
                                fields.setdefault(f"{svc.name}.{table}", set()).add(f.name)
    return scalars, fields
