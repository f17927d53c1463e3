"""`worldc import mcp`: an MCP server's tools/list result → simulated tools with typed parameters
and results; the three shapes of input; bad input exits 1 with `FILE: problem`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.cli import main
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.importers.mcp import import_mcp
from compoworld_dsl.syntax.format import format_source

FIX = Path(__file__).resolve().parent / "fixtures" / "import"
TOOLS = FIX / "mcp_tools.json"


def run_import(capsys, *argv: str) -> tuple[int, str, str]:
    """`worldc import ...`, in process: (exit code, stdout, stderr)."""
    try:
        code = main(["import", *argv])
    except SystemExit as e:  # argparse's own usage errors
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def weather(capsys, tmp_path):
    out = tmp_path / "w"
    code, report, err = run_import(capsys, "mcp", str(TOOLS), "-o", str(out), "--name", "assistant")
    assert code == 0, report + err
    program = check_paths([out / "assistant_world.world"])
    assert program.ok, [d.message for d in program.diagnostics]
    return out, program.model, report


def tools_of(model) -> dict:
    return {t.name: t for t in model.tools()}


def test_every_tool_is_simulated_and_typed(weather):
    out, model, report = weather
    tools = tools_of(model)
    assert set(tools) == {"get_weather", "create_issue", "count_tool"}
    assert all(t.simulated for t in tools.values())
    w = tools["get_weather"]
    assert [(n, str(t)) for n, t in w.params] == [("city", "text"), ("units", "AssistantUnits"), ("days", "int")]
    assert str(w.result) == "GetWeatherResult"
    rec = model.services["assistant"].records["GetWeatherResult"]
    assert {f: str(t) for f, t in rec.fields.items()} == {"temperature": "decimal", "conditions": "text", "observed_at": "datetime", "alerts": "list[text]"}
    text = (out / "assistant.world").read_text()
    assert "days: int = 1" in text  # no default given: the schema's minimum, not 0
    assert "units: AssistantUnits = metric" in text  # the schema's default
    assert 'gives "the weather for {city}"' in text  # readOnlyHint: a read gets a `gives`
    assert "// annotations: readOnlyHint=true" in text
    assert "changes nothing the world holds" in text and "modifies" not in text
    assert format_source(text, "x") == text


def test_shapes_of_arguments(weather):
    out, model, _ = weather
    ci = tools_of(model)["create_issue"]
    params = {n: str(t) for n, t in ci.params}
    assert params == {"repo": "text", "title": "text", "labels": "list[text]", "assignee": "text", "metadata": "text", "priority": "Priority"}
    assert list(params)[:3] == ["repo", "title", "labels"]  # required (and lists, which take no default) first
    assert str(ci.result) == "text"  # no outputSchema: MCP tools answer with text
    text = (out / "assistant.world").read_text()
    assert "// metadata: JSON text (a free-form object (a map of names to values))" in text
    assert "enum Priority { low, normal, high }" in text  # a $ref into the input schema's $defs
    assert [n for n, _ in tools_of(model)["count_tool"].params] == []  # an object schema without properties
    assert "MCP tool create-issue" in text  # the original name, next to the safe one


def test_simulated_tools_answer(weather):
    out, model, _ = weather
    world = load_world(model, str(out / "assistant_world.world"))
    st = world.initial_state(0)
    got = world.call(st, "assistant.get_weather", {"city": "Lisbon"})
    assert got["success"] and set(got["data"]) == {"temperature", "conditions", "observed_at", "alerts"}
    assert world.call(st, "assistant.create_issue", {"repo": "a/b", "title": "Bug", "labels": []})["success"]


@pytest.mark.parametrize("shape", ["bare list", "json-rpc"])
def test_other_input_shapes(capsys, tmp_path, shape):
    tools = json.loads(TOOLS.read_text())["tools"]
    doc = tools if shape == "bare list" else {"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}
    src = tmp_path / "server.json"
    src.write_text(json.dumps(doc))
    result = import_mcp(src)
    assert result.tools == 3 and len(result.simulated) == 3
    assert "server.world" in result.files


def test_tool_without_a_name_is_skipped(capsys, tmp_path):
    src = tmp_path / "tools.json"
    src.write_text(json.dumps({"tools": [{"description": "nameless"}, {"name": "ping", "inputSchema": {"type": "object"}}]}))
    code, report, err = run_import(capsys, "mcp", str(src), "-o", str(tmp_path / "o"))
    assert code == 0, err
    assert "skipped (1):" in report and "the tool has no name" in report
    assert "ok (1 service, 1 tool)" in report


@pytest.mark.parametrize(
    "content,problem",
    [
        ("{not json", "not valid JSON (line 1"),
        ('{"tools": []}', "holds no tools"),
        ('{"resources": []}', "not a tools/list result"),
        ('{"tools": [{"description": "no name"}]}', "no tool could be read"),
    ],
)
def test_bad_input_exits_1(capsys, tmp_path, content, problem):
    src = tmp_path / "tools.json"
    src.write_text(content)
    code, _, err = run_import(capsys, "mcp", str(src), "-o", str(tmp_path / "o"))
    assert code == 1 and err.startswith(f"worldc: error: {src}: ") and problem in err
    assert "Traceback" not in err and not (tmp_path / "o").exists()


def test_tools_that_name_a_record_become_a_table_and_sample(tmp_path, capsys, monkeypatch):
    """Issue 30: `worldc import mcp` output samples too. Tools named like an API's RPC operations
    on one kind of record (list_issues, get_issue(issue_number), create_issue, update_issue) are
    read as that API: a table, seeds and ordinary tools; the rest stay simulated."""
    from compoworld_dsl.cli import main as worldc_main

    out = tmp_path / "issues"
    assert worldc_main(["import", "mcp", str(FIX / "mcp_issues.json"), "-o", str(out), "--no-probe"]) == 0
    report = capsys.readouterr().out
    assert ".get_issue: get" in report and ".update_issue: update" in report and ".list_issues: list" in report
    assert "search_code: no resource owns this path" in report  # what names no record stays simulated
    text = (out / "mcp_issues.world").read_text()
    assert "by `worldc import mcp`" in text and "state issues: table[" in text
    monkeypatch.chdir(out)
    tasks = tmp_path / "t.jsonl"
    assert worldc_main(["sample", "--hops", "2", "-n", "2", "--seed", "1", "--rule-share", "0", "-o", str(tasks)]) == 0
    assert len(tasks.read_text().splitlines()) == 2
