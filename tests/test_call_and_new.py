"""`worldc call` (compoworld_dsl/try_call.py) and `worldc new` (compoworld_dsl/scaffold.py),
driven through their own `add_parser` on a bare argparse parser, as worldc will drive them."""

from __future__ import annotations

import argparse
import functools
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from compoworld_dsl import scaffold, try_call
from compoworld_dsl.cli import main as worldc

ROOT = Path(__file__).resolve().parent.parent
TOY = str(ROOT / "worlds" / "toy.world")
LEGAL = str(ROOT / "worlds" / "legal_ops.world")


@functools.lru_cache(maxsize=None)
def seeded_disbursement(status: str, payable: bool = False) -> str:
    """The first disbursement legal_ops seeds (seed 0) with `status` (and, if `payable`, that
    approving and then paying succeeds): the tests do not depend on which ids the stdlib's seed
    rules happen to give which status, or which matters they give a trust account."""
    world, _ = try_call.load_world(LEGAL)
    for key, row in world.initial_state(0).tables["billing.disbursements"].items():
        if try_call._row_json(world, "billing.disbursements", row)["status"] != status:
            continue
        found = try_call._key_json(world, "billing.disbursements", key)
        session = try_call.Session(world, 0)
        if not payable or all(session.run(try_call.Call(t, {"id": found}))["result"]["success"] for t in ("billing.approve_disbursement", "billing.pay_disbursement")):
            return found
    raise AssertionError(f"legal_ops seeds no {'payable ' if payable else ''}{status} disbursement at seed 0")


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="worldc")
    sub = parser.add_subparsers(dest="verb")
    try_call.add_parser(sub)
    scaffold.add_parser(sub)
    args = parser.parse_args(list(argv))
    return args.func(args)


def call_json(capsys, *argv: str) -> tuple[int, list[dict], str]:
    code = run("call", *argv, "--format", "json")
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


# ─────────────────────────── worldc call ───────────────────────────


def test_read_tool_on_toy_changes_nothing(capsys):
    code = run("call", TOY, "tasks.list_open_tasks", "--seed", "0")
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "tasks.list_open_tasks {}"
    assert '"success": true' in out
    assert "diff: no change" in out
    code, [rec], _ = call_json(capsys, TOY, "tasks.list_open_tasks")
    assert rec["tool"] == "tasks.list_open_tasks" and rec["arguments"] == {}
    assert rec["result"]["success"] is True
    assert all(t["state"] != "done" for t in rec["result"]["data"]) and rec["result"]["data"]
    assert rec["diff"] == {"rows": [], "scalars": {}}


def test_write_tool_on_toy_shows_the_update(capsys):
    code = run("call", TOY, "tasks.close_task", "--seed", "0", "--args", '{"id": "task-1"}')
    out, err = capsys.readouterr()
    assert code == 0, err
    assert 'tasks.close_task {"id": "task-1"}' in out
    assert "diff: 1 row updated" in out
    assert '~ tasks.tasks "task-1"' in out
    assert 'state: "todo" → "done"' in out
    # the same as JSON, by the bare tool name
    code, [rec], _ = call_json(capsys, TOY, "close_task", "--args", '{"id": "task-1"}')
    assert code == 0
    assert rec["tool"] == "tasks.close_task"
    assert rec["result"] == {"success": True, "data": {"id": "task-1", "title": rec["result"]["data"]["title"], "due": rec["result"]["data"]["due"], "state": "done"}}
    assert rec["diff"] == {"rows": [{"table": "tasks.tasks", "key": "task-1", "change": "updated", "fields": {"state": {"before": "todo", "after": "done"}}}], "scalars": {}}


def test_insert_shows_the_row_and_the_broken_house_rule(capsys):
    code, [rec], _ = call_json(capsys, TOY, "tasks.add_task", "--args", '{"title": "Plan Q2", "due": "2025-04-10"}')
    assert code == 0
    assert rec["result"] == {"success": True, "data": "task-8"}
    assert rec["diff"]["rows"] == [{"table": "tasks.tasks", "key": "task-8", "change": "inserted", "row": {"id": "task-8", "title": "Plan Q2", "due": "2025-04-10", "state": "todo"}}]
    assert [b["name"] for b in rec["broken_rules"]] == ["no_weekend_tasks"]


def test_seed_changes_the_state(capsys):
    _, [a], _ = call_json(capsys, TOY, "tasks.list_open_tasks", "--seed", "0")
    _, [b], _ = call_json(capsys, TOY, "tasks.list_open_tasks", "--seed", "0x7")
    _, [c], _ = call_json(capsys, TOY, "tasks.list_open_tasks", "--seed", "0")
    assert a == c and a != b


def test_legal_ops_read_and_write(capsys):
    code, [rec], _ = call_json(capsys, LEGAL, "matters.get_matter", "--args", '{"id": "matter-1"}')
    assert code == 0 and rec["result"]["data"]["id"] == "matter-1" and rec["diff"] == {"rows": [], "scalars": {}}
    pending = seeded_disbursement("pending")
    code, [rec], _ = call_json(capsys, LEGAL, "billing.approve_disbursement", "--args", json.dumps({"id": pending}))
    assert code == 0
    assert rec["result"]["data"]["status"] == "approved"
    assert rec["diff"]["rows"] == [{"table": "billing.disbursements", "key": pending, "change": "updated", "fields": {"status": {"before": "pending", "after": "approved"}}}]


def test_failing_call_shows_the_error_envelope_and_no_change(capsys):
    pending = seeded_disbursement("pending")
    code = run("call", LEGAL, "billing.pay_disbursement", "--args", json.dumps({"id": pending}))
    out, _ = capsys.readouterr()
    assert code == 1
    assert '"success": false' in out and '"code": 409' in out
    assert "must be approved before it is paid" in out
    assert "diff: no change" in out
    code, [rec], _ = call_json(capsys, LEGAL, "billing.pay_disbursement", "--args", json.dumps({"id": pending}))
    assert code == 1
    assert rec["result"] == {"success": False, "error": {"code": 409, "message": f"disbursement {pending} must be approved before it is paid"}}
    assert rec["diff"] == {"rows": [], "scalars": {}} and rec["broken_rules"] == []


def test_script_second_call_sees_the_first(tmp_path, capsys):
    script = tmp_path / "calls.txt"
    payable = seeded_disbursement("pending", payable=True)
    script.write_text(
        "# approve, then pay: the payment sees the approval\n"
        f'billing.approve_disbursement {{"id": "{payable}"}}\n'
        "\n"
        f'{{"tool": "billing.pay_disbursement", "arguments": {{"id": "{payable}"}}}}\n'
    )
    code, recs, err = call_json(capsys, LEGAL, "--script", str(script))
    assert code == 0, err
    assert [r["tool"] for r in recs] == ["billing.approve_disbursement", "billing.pay_disbursement"]
    assert all(r["result"]["success"] for r in recs)
    paid = recs[1]["diff"]
    changed = {(r["table"], r["key"]): r["fields"] for r in paid["rows"]}
    assert changed[("billing.disbursements", payable)]["status"] == {"before": "approved", "after": "paid"}
    assert any(t == "billing.accounts" for t, _ in changed)  # the trust account paid it
    assert list(paid["scalars"]) == ["billing.next_cheque"]
    # as text: each call, its envelope and its diff
    code = run("call", LEGAL, "--script", str(script))
    out, _ = capsys.readouterr()
    assert code == 0
    assert out.count('"success": true') == 2
    assert 'status: "approved" → "paid"' in out and "billing.next_cheque:" in out


def test_script_from_stdin_and_a_failed_call_counts(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO('tasks.close_task {"id": "task-1"}\ntasks.close_task {"id": "task-1"}\n'))
    code, recs, err = call_json(capsys, TOY, "--script", "-")
    assert code == 1
    assert [r["result"]["success"] for r in recs] == [True, False]
    assert recs[1]["result"]["error"]["message"] == "task task-1 is already done"
    assert "1 of 2 calls failed" in err


def test_bad_script_line_runs_nothing(tmp_path, capsys):
    script = tmp_path / "calls.txt"
    script.write_text('tasks.close_task {"id": "task-1"}\ntasks.close_taks {"id": "task-3"}\n')
    code = run("call", TOY, "--script", str(script))
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("worldc: error: ") and f"{script}:2: " in err and "did you mean tasks.close_task" in err
    assert len(err.splitlines()) == 1


def test_unknown_tool_suggests_close_matches(capsys):
    code = run("call", TOY, "tasks.close_tsk")
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("worldc: error: no tool 'tasks.close_tsk'")
    assert "did you mean tasks.close_task" in err
    assert len(err.splitlines()) == 1
    code = run("call", TOY, "clos_task")
    assert code == 2 and "did you mean tasks.close_task" in capsys.readouterr().err
    code = run("call", TOY, "zzz.qqq")
    err = capsys.readouterr().err
    assert code == 2 and "its services are files, calendar, tasks" in err


def test_bad_json_arguments(capsys):
    for bad in ('{"id": ', "[1, 2]", "not json", '"task-1"'):
        code = run("call", TOY, "tasks.close_task", "--args", bad)
        out, err = capsys.readouterr()
        assert code == 2 and out == "", bad
        assert err.startswith("worldc: error: --args: the arguments ") and len(err.splitlines()) == 1, err


def test_arguments_the_tool_rejects_are_an_envelope(capsys):
    code, [rec], _ = call_json(capsys, TOY, "tasks.close_task", "--args", '{"ident": "task-1"}')
    assert code == 1
    assert rec["result"]["success"] is False and rec["result"]["error"]["code"] == 400


def test_usage_errors(tmp_path, capsys):
    cases = [
        (("call", TOY, "tasks.close_task", "--script", "x.txt"), "not both"),
        (("call", TOY, "--args", "{}"), "--args needs a tool"),
        (("call", TOY, "tasks.list_open_tasks", "--repl"), "--repl"),
        (("call", TOY, "tasks.list_open_tasks", "--seed", "abc"), "--seed takes an integer"),
        (("call", TOY, "--script", str(tmp_path / "missing.txt")), "no such file"),
        (("call", str(tmp_path / "nowhere.world"), "tasks.list_open_tasks"), "no such file or folder"),
    ]
    for argv, words in cases:
        assert run(*argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("worldc: error: ") and words in err, (argv, err)


def test_world_that_does_not_check(tmp_path, capsys):
    bad = tmp_path / "bad.world"
    bad.write_text('service s "x" {\n  tool t() -> int {\n    return "text"\n  }\n}\n')
    code = run("call", str(bad), "s.t")
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert "E201" in err and "Traceback" not in err


def test_ambiguous_bare_tool(tmp_path, capsys):
    world = tmp_path / "two.world"
    world.write_text(
        'service a "A" {\n  tool ping() -> int\n    "Ping"\n  {\n    return 1\n  }\n}\n\n'
        'service b "B" {\n  tool ping() -> int\n    "Ping"\n  {\n    return 2\n  }\n}\n'
    )
    assert run("call", str(world), "ping") == 2
    assert "a tool of 2 services; name one: a.ping, b.ping" in capsys.readouterr().err
    code, [rec], _ = call_json(capsys, str(world), "b.ping")
    assert code == 0 and rec["result"] == {"success": True, "data": 2}


def test_repl(monkeypatch, capsys):
    lines = [
        ":help",
        ":tools tasks",
        'tasks.close_task {"id": "task-1"}',
        "close_task {\"id\": \"task-1\"}",  # sees the first call's write: already done
        ":state tasks",
        "nope {}",
        "tasks.close_task {oops",
        ":state nothing_here",
        ":frobnicate",
        ":reset",
        'tasks.close_task {"id": "task-1"}',
        ":quit",
        "tasks.list_open_tasks",  # after :quit: never run
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    code = run("call", TOY, "--repl")
    out, err = capsys.readouterr()
    assert code == 0
    assert ":state [TABLE]" in out  # :help
    assert "tasks.close_task(id: TaskId) -> Task" in out  # :tools
    assert out.count("tasks.close_task {\"id\": \"task-1\"}") == 3
    assert out.count('"success": true') == 2 and out.count('"success": false') == 1
    assert "task task-1 is already done" in out
    assert '"id": "task-1", "title": "Review contract", "due": "2025-03-13", "state": "done"}' in out  # :state after the write
    assert "reset to the seeded state of seed 0" in out
    assert "tasks.list_open_tasks {}" not in out
    assert "error: no tool 'nope'" in err
    assert "error: the arguments are not JSON" in err
    assert "error: no table or scalar 'nothing_here'" in err
    assert "error: no command ':frobnicate'" in err
    assert "Traceback" not in err


def test_repl_json_and_end_of_input(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO('tasks.add_task {"title": "x", "due": "2025-03-20"}\n:state tasks.tasks\n'))
    code = run("call", TOY, "--repl", "--format", "json")
    out, _ = capsys.readouterr()
    assert code == 0
    recs = [json.loads(line) for line in out.splitlines()]
    assert recs[0]["tool"] == "tasks.add_task" and recs[0]["diff"]["rows"][0]["change"] == "inserted"
    assert recs[-1] == {"id": "task-8", "title": "x", "due": "2025-03-20", "state": "todo"}


def test_piped_stdin_without_tool_is_a_script(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("tasks.oldest_open_task\n"))
    code, [rec], _ = call_json(capsys, TOY)
    assert code == 0 and rec["tool"] == "tasks.oldest_open_task"
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert run("call", TOY) == 2
    assert "no calls" in capsys.readouterr().err


# ─────────────────────────── hostile scripts ───────────────────────────


def test_a_lone_surrogate_is_refused_with_its_line(tmp_path, capsys):
    script = tmp_path / "calls.txt"
    for line in ('tasks.add_task {"title": "\\ud800", "due": "2025-03-01"}', '{"tool": "tasks.add_task", "arguments": {"title": "a\\udfff", "due": "2025-03-01"}}'):
        script.write_text("tasks.list_open_tasks\n" + line + "\n", encoding="utf-8")
        for fmt in ("text", "json"):
            assert run("call", TOY, "--script", str(script), "--format", fmt) == 2
            out, err = capsys.readouterr()
            assert out == "" and err.startswith(f"worldc: error: {script}:2: ") and "surrogate" in err and len(err.splitlines()) == 1, err
    assert run("call", TOY, "tasks.add_task", "--args", '{"title": "\\ud800", "due": "2025-03-01"}') == 2
    assert "--args:" in (err := capsys.readouterr().err) and "surrogate" in err


@pytest.mark.parametrize("bad", [b"\xff", b"\xed\xa0\x80", b"\xc3"], ids=["0xff", "encoded surrogate", "cut short"])
def test_a_script_that_is_not_utf8_names_its_line(tmp_path, capsys, monkeypatch, bad):
    data = b'tasks.list_open_tasks\n# fine\ntasks.add_task {"title": "' + bad + b'", "due": "2025-03-01"}\n'
    script = tmp_path / "calls.txt"
    script.write_bytes(data)
    assert run("call", TOY, "--script", str(script)) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"worldc: error: {script}:3: ") and "UTF-8" in err and len(err.splitlines()) == 1, err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert run("call", TOY, "--script", "-") == 2
    assert capsys.readouterr().err.startswith("worldc: error: <stdin>:3: ")


def test_a_script_larger_than_the_cap_is_refused(tmp_path, capsys):
    big = tmp_path / "big.txt"
    with big.open("wb") as f:
        f.truncate(try_call.MAX_SCRIPT + 1)  # sparse: no disk written
    assert run("call", TOY, "--script", str(big)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"worldc: error: {big}: ") and "16 MiB" in err and len(err.splitlines()) == 1


def test_dev_zero_is_refused_in_bounded_memory():
    """Under a 1 GiB address-space limit: reading /dev/zero whole ends in MemoryError."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    done = subprocess.run([sys.executable, "-m", "compoworld_dsl", "call", TOY, "--script", "/dev/zero"], preexec_fn=limit, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr[-2000:]
    assert done.stderr.startswith("worldc: error: /dev/zero: ") and "16 MiB" in done.stderr


def test_repl_stops_on_input_it_cannot_read(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"tasks.list_open_tasks\n\xff\n"), encoding="utf-8"))
    assert run("call", TOY, "--repl") == 2
    assert "error: standard input is not UTF-8" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO("x" * (try_call.MAX_SCRIPT + 1)))
    assert run("call", TOY, "--repl") == 2
    assert "error: a line longer than 16 MiB" in capsys.readouterr().err


def _mixed_script(n: int) -> str:
    """n calls on legal_ops: reads, filings, emails (rows grow) and a payment of a pending
    disbursement (it fails) in turn; both order rules in play."""
    pending = seeded_disbursement("pending")
    lines = []
    for i in range(n):
        lines.append(
            [
                'matters.get_matter {"id": "matter-1"}',
                f'documents.file_document {{"matter": "matter-1", "title": "memo {i}", "kind": "memorandum", "body": "b"}}',
                f'messaging.send_message {{"matter": "matter-2", "to": "a@b.com", "subject": "s{i}", "body": "b"}}',
                f'billing.pay_disbursement {{"id": "{pending}"}}',
            ][i % 4]
        )
    return "\n".join(lines) + "\n"


def test_a_script_costs_work_linear_in_its_calls(tmp_path, capsys, monkeypatch):
    """Work counted, not timed: the entries of the call history the house rules scan and the
    rows compared to find each call's change. Both grew with every earlier call (quadratic)."""
    from compoworld_dsl.runtime import state as state_mod
    from compoworld_dsl.sample import checker

    work = {"history": 0, "rows": 0}
    order_holds, diff = checker._order_holds, state_mod.diff

    def counting_order_holds(c, calls):
        work["history"] += len(calls)
        return order_holds(c, calls)

    def counting_diff(before, after):
        work["rows"] += sum(len(rows) for t, rows in after.tables.items() if before.tables.get(t) is not rows)
        return diff(before, after)

    monkeypatch.setattr(checker, "_order_holds", counting_order_holds)
    monkeypatch.setattr(state_mod, "diff", counting_diff)
    totals = {}
    for n in (300, 600):
        script = tmp_path / f"calls_{n}.txt"
        script.write_text(_mixed_script(n), encoding="utf-8")
        work.update(history=0, rows=0)
        assert run("call", LEGAL, "--script", str(script), "--format", "json") == 1  # paying a pending disbursement fails
        recs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert len(recs) == n and sum(r["result"]["success"] for r in recs) == 3 * n // 4
        assert any(b["name"] == "file_before_telling" for r in recs for b in r["broken_rules"])
        totals[n] = work["history"] + work["rows"]
    assert totals[300] > 0
    assert totals[600] <= 2.3 * totals[300], totals  # linear: about 2; quadratic: about 4


def test_house_rules_judged_call_by_call_agree_with_the_checker():
    """The session judges order rules as it goes; the checker judges a whole history. Same verdicts."""
    import random

    from compoworld_dsl.sample.checker import _constraint_holds, _order_holds

    world, _ = try_call.load_world(LEGAL)
    rng = random.Random(7)
    tools = [
        ("billing.approve_disbursement", lambda: {"id": f"disbursement-{rng.randint(1, 4)}"}),
        ("billing.pay_disbursement", lambda: {"id": f"disbursement-{rng.randint(1, 4)}"}),
        ("documents.file_document", lambda: {"matter": f"matter-{rng.randint(1, 3)}", "title": f"t{rng.random()}", "kind": "memorandum", "body": "b"}),
        ("messaging.send_message", lambda: {"matter": f"matter-{rng.randint(1, 3)}", "to": "a@b.com", "subject": "s", "body": "b"}),
    ]
    for seed in range(3):
        session = try_call.Session(world, seed)
        history: list[tuple[str, dict]] = []
        for _ in range(40):
            tool, make = rng.choice(tools)
            rec = session.run(try_call.Call(tool, make()))
            if rec["result"]["success"]:
                history.append((tool, rec["arguments"]))
            for name, (ok, why) in session._rules().items():
                c = world.constraints[name]
                want = _constraint_holds(world, name, session.initial, session.state, session.touched)
                for t, after, on in c.orders:
                    if want[0]:
                        want = _order_holds({"tool": t, "after": after, "on": list(on)}, history)
                assert (ok, why) == want, (name, history[-3:])


# ─────────────────────────── worldc new ───────────────────────────


def test_new_scaffold_checks_lints_samples_and_tests(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "help_desk"
    assert run("new", str(folder)) == 0
    out = capsys.readouterr().out
    assert "created" in out and "ok (1 service, 2 tools)" in out
    world = folder / "help_desk.world"
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == ["README.md", "help_desk.world", "tests/test_help_desk.py"]
    text = world.read_text()
    for part in ("service tickets", "state tickets: table[Ticket]", "record Ticket", "seed tickets:", "tool list_open_tickets", "tool close_ticket", "require", "world help_desk", "constraint leave_urgent"):
        assert part in text, part
    readme = (folder / "README.md").read_text()
    assert "worldc check help_desk.world" in readme and "worldc sample" in readme

    assert worldc(["check", str(world)]) == 0
    assert worldc(["lint", str(world), "--strict"]) == 0
    assert worldc(["fmt", "--check", str(world)]) == 0
    assert worldc(["sample", str(world), "--hops", "2", "-n", "2", "-o", str(tmp_path / "tasks.jsonl")]) == 0
    tasks = [json.loads(line) for line in (tmp_path / "tasks.jsonl").read_text().splitlines()]
    assert len(tasks) == 2 and all(t["hops"] == 2 for t in tasks)
    capsys.readouterr()

    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout

    # and `worldc call` on it from inside the folder, naming only the tool
    monkeypatch.chdir(folder)
    code, [rec], _ = call_json(capsys, "tickets.list_open_tickets", "--seed", "1")
    assert code == 0 and rec["result"]["success"]


def test_new_refuses_a_folder_that_holds_anything(tmp_path, capsys):
    folder = tmp_path / "desk"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    assert run("new", str(folder)) == 2
    err = capsys.readouterr().err
    assert err.startswith("worldc: error: ") and "not empty" in err
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    (tmp_path / "afile").write_text("x")
    assert run("new", str(tmp_path / "afile")) == 2
    assert "not a folder" in capsys.readouterr().err
    empty = tmp_path / "empty_one"
    empty.mkdir()
    assert run("new", str(empty)) == 0  # an empty folder is fine
    assert (empty / "empty_one.world").is_file()


@pytest.mark.parametrize("name", ["9lives", "help-desk", "world", "text", "tickets", "a b", "x" * 65])
def test_new_validates_the_name(tmp_path, capsys, name):
    assert run("new", str(tmp_path / name)) == 2
    err = capsys.readouterr().err
    assert err.startswith("worldc: error: ") and len(err.splitlines()) == 1
    assert not (tmp_path / name).exists()


def test_help_texts_carry_examples(capsys):
    for verb in ("call", "new"):
        with pytest.raises(SystemExit):
            run(verb, "--help")
        out = capsys.readouterr().out
        assert "example" in out
