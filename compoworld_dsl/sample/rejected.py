"""Why an attempt yields no task. Every stage raises `Rejected(reason, detail)`; the run report
counts them by reason (docs/sampling.md, "Rejections and the run report")."""

from __future__ import annotations

REJECTIONS = (
    "no_walk",
    "unsat",
    "unknown",
    "unsupported",
    "timeout",
    "replay_mismatch",
    "constraint_broken",
    "already_satisfied",
    "guessable_answer",
    "step_not_needed",
    "unstated",
    "ambiguous_description",
    "changed_by_task",
    "too_many_reports",
    "no_rule",
    "filtered",
)


class Rejected(Exception):
    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
