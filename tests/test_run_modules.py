"""sample/run.py split in three (issue 27 item 1): what a job is (`job.py`) and the journal that
`--resume` continues (`journal.py`) are modules of their own, below run.py: neither imports it,
even for typing, and run.py is back under the 700 lines a file of sample/ may have."""

from __future__ import annotations

import ast
from pathlib import Path

SAMPLE = Path(__file__).resolve().parent.parent / "compoworld_dsl" / "sample"


def _imports(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it, as written (`.run`, `..taskfile`)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_the_job_and_the_journal_sit_below_run():
    job, journal = _imports(SAMPLE / "job.py"), _imports(SAMPLE / "journal.py")
    assert not {m for m in job if m.startswith(".")}, job  # data and pure decisions: no other stage
    assert ".job" in journal and ".run" not in journal and ".sampler" not in journal, journal
    assert {".job", ".journal"} <= _imports(SAMPLE / "run.py")


def test_run_and_its_parts_are_under_700_lines():
    for name in ("run.py", "job.py", "journal.py"):
        lines = (SAMPLE / name).read_text(encoding="utf-8").count("\n")
        assert lines <= 700, (name, lines)


def test_the_names_callers_use_are_where_they_were_or_in_the_new_modules():
    from compoworld_dsl.sample import job, journal, run

    assert run.Job is job.Job and run.Report is job.Report and run.ResumeError is journal.ResumeError and run.pending is journal.pending
    assert run.ATTEMPT_TIMEOUT == job.ATTEMPT_TIMEOUT == 10 and run.RULE_SHARE == job.RULE_SHARE
    assert issubclass(journal.Untrusted, journal.ResumeError) and journal.Untrusted.status == 1 and journal.ResumeError.status == 2
