"""The examples in docs/compile.md run: compile to a folder, import, call."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_compile_then_use_as_documented(tmp_path):
    from compoworld_dsl.cli import main

    assert main(["compile", str(ROOT / "worlds" / "toy.world"), "-o", str(tmp_path / "build" / "toy")]) == 0
    doc = (ROOT / "docs" / "compile.md").read_text()
    start = doc.index("```python\nimport sys\nsys.path.insert")
    block = doc[start + len("```python\n") : doc.index("```", start + 10)]
    out = subprocess.run([sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0].startswith("{'success': True, 'data': [")
    assert lines[1] == "{'success': False, 'error': {'code': 404, 'message': 'no task task-404'}}"
    assert lines[2].startswith("{'type': 'object', 'properties': {'title'")
