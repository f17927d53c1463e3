"""How hard a finished task is, in what an agent meets: calls, entries read, candidates compared,
look-alikes, load-bearing rules, a branch, services, and one score. Reads a task's pieces and its
replay; it changes neither and draws nothing, so `worldc verify` recomputes it from the record."""

from __future__ import annotations

from typing import Any

from .facts import WorldFacts


def measure(facts: WorldFacts, plan: list[dict], results: list[Any], found_by: list[str | None], rule_proofs: dict, constraints: list, branch: Any, services: list[str], extra: list[tuple[dict, Any]] = ()) -> dict:
    """The `difficulty` of a task from its pieces (docs/task-format.md#difficulty): `plan` and
    `results` are the walk's calls and what they return, as runtime values or as JSON (counts
    only); `extra` the plan's other calls (`lookups.py`), each with what it returns."""
    reads = sum(_entries(r) for call, r in zip(plan, results) if call["tool"] not in facts.mutating) + sum(_entries(r) for _, r in extra)
    candidates = sum(len(r) for how, r in zip(found_by, results) if how is not None and isinstance(r, (list, tuple)))
    # one look-alike can make several rules bear (a closed matter: hands off, and its docket):
    # counted once, as the record an agent must tell apart
    look_alikes = {(la["step"], la["look_alike"]) for p in rule_proofs.values() for la in p.get("load_bearing", {}).get("look_alikes", [])}
    # a rule whose check reads a service the plan never calls: the agent must look it up there
    # ("is that matter closed?" when the walk only went through its docket)
    lookups = sum(1 for c in constraints if {t.split(".")[0] for t in facts.rule_checks_tables(c.get("name", ""))} - set(services))
    d = {
        "real_calls": sum(call.get("pages", 1) for call in [*plan, *(c for c, _ in extra)]),  # a paged read is a call a page; lookups are calls too
        "reads": reads,
        "candidates_compared": candidates,
        "look_alikes": len(look_alikes),
        "rule_checks": len(constraints),
        "rule_lookups": lookups,
        "branch": branch is not None,
        "services": len(services),
    }
    # integers, so the score is exact and a band compares it the same everywhere; reading and
    # comparing grow with the log of the rows (an agent skims a long list, it does not reread it)
    d["score"] = (
        d["real_calls"] + reads.bit_length() + candidates.bit_length()
        + 2 * (d["look_alikes"] + d["rule_checks"] + d["branch"]) + d["rule_lookups"] + max(0, d["services"] - 1)
    )
    return d


def of_record(facts: WorldFacts, task: dict, results: list[Any], looked: list[Any] = ()) -> dict:
    """`measure` of a task record and the results of its replay (what `worldc verify` runs):
    `results` of the reference plan's calls, `looked` of its `lookups`."""
    plan = task["reference_plan"]
    return measure(facts, plan, results, task.get("found_by") or [None] * len(plan), task["proofs"].get("constraints", {}), task["constraints"], task.get("branch"), task["services"], list(zip(task.get("lookups") or [], looked)))


def _entries(result: Any) -> int:
    """Entries a result holds for an agent to read: a list's elements, or one record or value."""
    if isinstance(result, (list, tuple)):
        return len(result)
    return 0 if result is None else 1
