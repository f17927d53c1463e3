"""`worldc import openapi DIR`: many specs into one library (a module per spec, one world using all),
and the probe every import ends with (lint, and whether the result gives tasks, and why not).

The specs are small hand-written ones (tests/fixtures/import/) and the eight real specs of
/work/shared/specs/openapi when present."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.importers.library import find_specs, import_library
from test_import_openapi import run_import  # `worldc import ...` in process: (code, stdout, stderr)

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures" / "import"
HELPDESK = FIX / "helpdesk.yaml"

# an API whose only operations belong to no resource: it imports and checks, and gives no task
RPC_ONLY = {
    "openapi": "3.0.0",
    "info": {"title": "Weather oracle", "version": "1"},
    "paths": {
        "/forecast": {"get": {"operationId": "getForecast", "parameters": [{"name": "city", "in": "query", "schema": {"type": "string"}}], "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "string", "format": "uri"}}}}}}},  # a link to a file: simulated
    },
}


@pytest.fixture
def specs(tmp_path: Path) -> Path:
    """A folder with the same spec twice (under two names: every name clashes), one spec in a
    subfolder, a broken spec, a hidden file and a file that is not a spec."""
    d = tmp_path / "specs"
    (d / "sub").mkdir(parents=True)
    shutil.copy(HELPDESK, d / "a_helpdesk.yaml")
    shutil.copy(HELPDESK, d / "sub" / "b_helpdesk.yaml")
    (d / "c_broken.json").write_text('{"openapi": "3.0.0", "info": {"title": "x"}}')
    (d / "d_weather.json").write_text(json.dumps(RPC_ONLY))
    (d / ".hidden.json").write_text("{}")
    (d / "notes.txt").write_text("not a spec")
    return d


def test_find_specs_skips_hidden_and_other_files(specs):
    assert [p.relative_to(specs).as_posix() for p in find_specs(specs)] == ["a_helpdesk.yaml", "c_broken.json", "d_weather.json", "sub/b_helpdesk.yaml"]


def test_library_names_never_clash_and_the_world_checks(specs, tmp_path):
    lib = import_library(specs, "desk")
    assert [Path(o.spec).name for o in lib.failed] == ["c_broken.json"]
    assert "no `paths`" in lib.failed[0].error
    assert len(lib.imported) == 3
    # the two copies of one spec declare the same services and types: the second got new names
    a, b = (o.result for o in lib.imported if "helpdesk" in o.spec)
    assert a.names and b.names and not (a.names & b.names)
    out = tmp_path / "out"
    out.mkdir()
    for name, text in lib.files.items():
        (out / name).write_text(text)
    program = check_paths([out / lib.world_file])
    assert program.ok, [d.message for d in program.diagnostics][:5]
    assert len(program.model.world.services) == sum(o.result.services for o in lib.imported)


def test_cli_library_report_and_probe(specs, tmp_path, capsys):
    out = tmp_path / "lib"
    code, stdout, err = run_import(capsys, "openapi", str(specs), "-o", str(out), "--name", "desk")
    assert code == 0, stdout + err
    assert "imported 3 of 4 specs" in stdout
    assert "c_broken.json: left out: " in stdout
    assert "[2/4]" in err  # progress on stderr, one line a spec
    assert "worldc check: " in stdout and ": ok (" in stdout
    assert "samples tasks: yes" in stdout
    assert "next: cd " in stdout
    assert (out / "desk_world.world").is_file()
    # a second run refuses to overwrite, and says so once, shortly
    code, stdout, err = run_import(capsys, "openapi", str(specs), "-o", str(out), "--name", "desk")
    assert code == 2 and "not overwriting" in err and "--force" in err


def test_cli_library_json(specs, tmp_path, capsys):
    code, stdout, err = run_import(capsys, "openapi", str(specs), "-o", str(tmp_path / "lib"), "--format", "json")
    assert code == 0, err
    body = json.loads(stdout)
    assert body["imported"] == 3 and body["failed"] == 1
    assert [s["imported"] for s in body["specs"]] == [True, False, True, True]
    assert body["checks"] is True
    assert body["probe"]["samples"] is True and body["probe"]["tasks"] == 1


def test_a_folder_with_no_spec_is_an_error(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    code, stdout, err = run_import(capsys, "openapi", str(tmp_path / "empty"), "-o", str(tmp_path / "o"))
    assert code == 1 and err.startswith("worldc: error: no spec files") and "Traceback" not in err


def test_probe_says_why_an_import_gives_no_task(tmp_path, capsys):
    spec = tmp_path / "weather.json"
    spec.write_text(json.dumps(RPC_ONLY))
    code, stdout, err = run_import(capsys, "openapi", str(spec), "-o", str(tmp_path / "w"))
    assert code == 0, err
    assert "samples tasks: no" in stdout
    assert "no tool can follow step 0" in stdout or "unsat" in stdout
    assert "worldc lint: W103" in stdout  # the one tool is simulated, and lint says no task reaches it
    assert "next: make the tools share keys" in stdout


def test_no_probe_skips_lint_and_sampling(tmp_path, capsys):
    code, stdout, err = run_import(capsys, "openapi", str(HELPDESK), "-o", str(tmp_path / "h"), "--no-probe")
    assert code == 0, err
    assert "samples tasks" not in stdout and "worldc lint" not in stdout
    assert "next: cd " in stdout
    code, stdout, err = run_import(capsys, "openapi", str(HELPDESK), "-o", str(tmp_path / "j"), "--format", "json")
    assert json.loads(stdout)["probe"]["samples"] is True


def test_a_spec_whose_output_does_not_check_is_left_out(specs, tmp_path, capsys, monkeypatch):
    """One spec's bad output (a bug in the importer) must not cost the other specs their world:
    the check names its module, the spec is left out with the reason, the world is written again."""
    from compoworld_dsl.importers import openapi

    real = openapi.import_openapi

    def broken(path, *a, **k):
        result = real(path, *a, **k)
        if Path(path).name == "d_weather.json":
            module = next(f for f in result.files if f != result.world_file)
            result.files[module] += "\ntype Broken = no_such_type\n"
        return result

    monkeypatch.setattr(openapi, "import_openapi", broken)
    out = tmp_path / "lib"
    code, stdout, err = run_import(capsys, "openapi", str(specs), "-o", str(out), "--no-probe")
    assert code == 0, stdout + err
    assert "d_weather.json: left out: its import does not check (E" in stdout and "a bug in worldc" in stdout
    assert "imported 2 of 4 specs" in stdout and ": ok (" in stdout
    assert not any("weather" in p.name for p in out.glob("*.world"))
