"""worldc behaves like the best CLIs: the compile-then-sample flow, -V, completion, --format json
on every verb that reports, results on stdout."""

import json
import shutil
from pathlib import Path

import pytest

from compoworld_dsl.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_compile_then_sample_in_a_folder_of_worlds_uses_the_world_just_compiled(tmp_path, monkeypatch, capsys):
    for name in ("toy", "legal_ops"):
        shutil.copy(ROOT / "worlds" / f"{name}.world", tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["sample", "--hops", "2", "-n", "1"]) == 2
    assert "name one, or `worldc compile` one first" in capsys.readouterr().err
    for name in ("legal_ops", "toy"):  # the last compiled wins
        assert main(["compile", f"{name}.world"]) == 0
        capsys.readouterr()
        assert main(["sample", "--hops", "2", "-n", "1"]) == 0
        out, err = capsys.readouterr()
        assert json.loads(out.splitlines()[0])["world"] == name and "compiled last" in err


def test_version_and_completion(capsys):
    with pytest.raises(SystemExit) as e:
        main(["-V"])
    assert e.value.code == 0 and capsys.readouterr().out.startswith("worldc ")
    for shell in ("bash", "zsh", "tcsh"):
        assert main(["completion", shell]) == 0
        script = capsys.readouterr().out
        assert "worldc" in script and "hops" in script
        assert shell == "tcsh" or "sample" in script


def test_check_prints_its_ok_lines_on_stdout(capsys):
    assert main(["check", str(ROOT / "worlds" / "toy.world")]) == 0
    out, err = capsys.readouterr()
    assert "toy.world: ok (3 services, 12 tools)" in out and "ok" not in err


def test_format_json_on_compile_verify_export_and_fmt(tmp_path, capsys):
    toy = str(ROOT / "worlds" / "toy.world")
    assert main(["compile", toy, "-o", str(tmp_path / "pkg"), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"package": str(tmp_path / "pkg"), "world": "toy", "source": toy, "services": 3, "tools": 12}
    tasks = tmp_path / "t.jsonl"
    assert main(["sample", toy, "--hops", "2", "-n", "2", "-o", str(tasks)]) == 0
    capsys.readouterr()
    assert main(["verify", toy, str(tasks), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tasks"] == report["verified"] == 2 and all(r["verified"] for r in report["results"])
    assert main(["export", "sft", toy, str(tasks), "--format", "json", "-o", str(tmp_path / "s.jsonl")]) == 0
    assert json.loads(capsys.readouterr().out)["records"] == 2
    assert main(["export", "sft", toy, str(tasks), "--format", "json"]) == 2  # records and the summary would share stdout
    capsys.readouterr()
    messy = tmp_path / "messy.world"
    messy.write_text((ROOT / "worlds" / "toy.world").read_text().replace("\n", "\n\n", 3))
    assert main(["fmt", "--check", str(messy), "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["would_reformat"] == [str(messy)]


def test_import_reports_as_json(tmp_path, capsys):
    spec = {"openapi": "3.0.0", "info": {"title": "Notes", "version": "1"}, "paths": {"/notes": {"get": {"operationId": "listNotes", "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Note"}}}}}}}}}, "components": {"schemas": {"Note": {"type": "object", "properties": {"id": {"type": "string"}, "text": {"type": "string"}}}}}}
    path = tmp_path / "notes.json"
    path.write_text(json.dumps(spec))
    assert main(["import", "openapi", str(path), "-o", str(tmp_path / "out"), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["title"] == "Notes" and report["checks"] is True and report["operations"][0]["operation"] == "GET /notes"


def test_outputs_respect_the_umask(tmp_path, capsys):
    import os
    import stat

    toy = str(ROOT / "worlds" / "toy.world")
    old = os.umask(0o027)
    try:
        assert main(["sample", toy, "--hops", "2", "-n", "1", "-o", str(tmp_path / "t.jsonl")]) == 0
        assert main(["compile", toy, "-o", str(tmp_path / "pkg")]) == 0
        assert main(["report", toy, str(tmp_path / "t.jsonl"), "-o", str(tmp_path / "rep")]) == 0
        assert main(["eval", toy, str(tmp_path / "t.jsonl"), "--record", str(tmp_path / "r.jsonl"), "--plot", str(tmp_path / "c.svg")]) == 0
    finally:
        os.umask(old)
    mode = lambda p: stat.S_IMODE((tmp_path / p).stat().st_mode)  # noqa: E731
    assert [mode(p) for p in ("t.jsonl", "pkg/world.py", "rep/index.html", "r.jsonl", "c.svg")] == [0o640] * 5
    assert [mode(p) for p in ("pkg", "rep")] == [0o750] * 2
