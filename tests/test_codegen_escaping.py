"""Text from a world never becomes code: hostile strings in every place text reaches the
generated module (file name, descriptions, phrases, messages, pools, literals) stay data."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compoworld_dsl.check import check_paths
from compoworld_dsl.codegen.package import write_package
from compoworld_dsl.codegen.python import CodegenError, generate_python, identifier, load_world, method_name
from compoworld_dsl.syntax.parser import encode_string

# Each tries to close the literal or comment it lands in and run `open("PWNED", "w")`.
PAYLOADS = [
    '"""; open("PWNED", "w"); """',
    "'''; open('PWNED', 'w'); '''",
    '"; open("PWNED", "w"); "',
    "'; open('PWNED', 'w'); '",
    '\\"; open("PWNED", "w"); #',
    "\nopen('PWNED', 'w')\n",
    "\r\nopen('PWNED', 'w')  # \\",
    "\u2028open('PWNED', 'w')\u2029",
    "\x0c\x0bopen('PWNED', 'w')\x00",
    "# -*- coding: rot13 -*-\nbcra('CJARQ', 'j')",
    "\\N{LATIN SMALL LETTER A}\\x41\\u0041 {{not a placeholder}} }}",
    "\u202eopen('PWNED', 'w')\ufeff",
]

# A file name cannot hold NUL or `/`; the other payloads are fair game.
FILE_PAYLOADS = [p.replace("\0", "").replace("/", "") for p in PAYLOADS]


def as_template(text: str) -> str:
    """`text` as a message or `say` template that renders as itself."""
    return text.replace("{", "{{").replace("}", "}}")


def hostile_world(text: str) -> str:
    """A world with `text` in every place a string can go (as a template where one is expected)."""
    s = encode_string(text)
    m = encode_string(as_template(text))
    return f"""
pool labels = [{s}, "plain"]

service vault {s} {{
  record Item {{
    key id: id
    label: text = {s}
    note: text
  }}
  state items: table[Item]
  state banner: text = {s}

  seed items: 2..3 rows {{
    label: pick(labels)
    note: format({m})
  }}

  tool add_item(note: text = {s}) -> id
    {s}
    say {m}
  {{
    require note != {s} + "x" else invalid {m}
    let it = insert items {{ note: note + {s} }}
    return it.id
  }}

  tool find_items(label: text) -> list[Item]
    {s}
    say {m}
  {{
    require exists(i in items where i.label == label) else not_found {m}
    return filter(i in items where i.label == label)
  }}
}}

world hostile {s} {{

  constraint keep {s} {{
    untouched i in vault.items where i.label == {s}
  }}
}}
"""


def _check(folder: Path, name: str, text: str):
    path = folder / name
    path.write_text(hostile_world(text), encoding="utf-8", errors="surrogateescape")
    program = check_paths([str(path)])
    assert program.ok, [d.message for d in program.diagnostics]
    return program, path


@pytest.mark.parametrize("text", PAYLOADS, ids=range(len(PAYLOADS)))
def test_hostile_text_stays_data_in_memory(tmp_path: Path, monkeypatch, text: str):
    monkeypatch.chdir(tmp_path)
    program, path = _check(tmp_path, "w.world", text)
    world = load_world(program.model, str(path))
    assert not (tmp_path / "PWNED").exists()
    # the text round-trips as data: what the world says is exactly what was written
    assert world.description == text
    assert world.services["vault"].description == text
    spec = world.tools["vault.add_item"]
    assert spec.description == text and spec.say == as_template(text) and spec.defaults["note"] == text
    assert world.constraints["keep"].description == text
    state = world.initial_state(0)
    assert state.scalars["vault.banner"] == text
    assert all(r["label"] in (text, "plain") and r["note"] == text for r in state.tables["vault.items"].values())
    ok = world.call(state, "vault.add_item", {})
    assert ok["success"], ok
    assert state.tables["vault.items"][ok["data"]]["note"] == text + text
    bad = world.call(state, "vault.add_item", {"note": text + "x"})
    assert bad == {"success": False, "error": {"code": 400, "message": text}}
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("name", FILE_PAYLOADS, ids=range(len(FILE_PAYLOADS)))
def test_a_hostile_file_name_stays_data_in_the_written_package(tmp_path: Path, name: str):
    program, path = _check(tmp_path, f"p{name}.world", "plain text")
    write_package(program.model, tmp_path / "pkg", str(path))
    code = (tmp_path / "pkg" / "world.py").read_text(encoding="utf-8")
    compile(code, "world.py", "exec")  # valid Python whatever the name holds
    probe = "from pkg import WORLD; import sys; sys.stdout.write(repr(WORLD.source))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)  # a hang guard, not a speed check
    assert out.returncode == 0, out.stderr
    assert out.stdout == repr(path.name)  # named relative to the world's folder (docs/compile.md)
    assert not (tmp_path / "PWNED").exists()


def test_the_worldc_sample_of_the_issue_creates_no_file(tmp_path: Path):
    """The report's reproduction: a world file named to break out of the module docstring."""
    toy = Path(__file__).resolve().parents[1] / "worlds" / "toy.world"
    (tmp_path / 'p""";open("PWNED","w");""".world').write_text(toy.read_text(encoding="utf-8"), encoding="utf-8")
    worldc = Path(sys.executable).with_name("worldc")
    out = subprocess.run([str(worldc), "sample", "--hops", "2", "-n", "1"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert not (tmp_path / "PWNED").exists()


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(st.characters(codec="utf-8", exclude_characters="\0"), max_size=30))
def test_any_text_round_trips_through_generated_code(tmp_path_factory, text: str):
    folder = tmp_path_factory.mktemp("w")
    program, path = _check(folder, "w.world", text)
    code = generate_python(program.model, str(folder / text.replace("/", "").replace("\0", "")))
    ns: dict = {}
    exec(compile(code, "<test>", "exec"), ns)  # noqa: S102 - the generated module under test
    assert ns["WORLD"].description == text


@pytest.mark.parametrize("name", ["simulator", "simulate", "modifies", "tools", "name", "source", "description", "tool_add", "_private", "__init__"])
def test_tools_named_like_service_attributes_get_their_own_method(tmp_path: Path, name: str):
    if name.startswith("_"):
        # the grammar may refuse a leading underscore; the generator's rule still holds
        assert method_name(name).startswith("tool_")
        return
    src = f"""
service s "s" {{
  state n: int = 0
  tool {name}() -> int "counts" say "count" {{
    set n = n + 1
    return n
  }}
  tool add() -> int "adds" say "add" {{ return 1 }}
}}
world w "w" {{ }}
"""
    (tmp_path / "w.world").write_text(src, encoding="utf-8")
    program = check_paths([str(tmp_path / "w.world")])
    assert program.ok, [d.message for d in program.diagnostics]
    world = load_world(program.model, str(tmp_path / "w.world"))
    state = world.initial_state(0)
    assert world.call(state, f"s.{name}", {}) == {"success": True, "data": 1}
    assert world.call(state, f"s.{name}", {}) == {"success": True, "data": 2}
    assert world.call(state, "s.add", {}) == {"success": True, "data": 1}


def test_identifiers_that_are_not_python_names_are_refused():
    for bad in ["a b", "x;import os", "é", "1a", ""]:
        with pytest.raises(CodegenError):
            identifier(bad)
    assert identifier("ok_name1") == "ok_name1"
    assert method_name("class") == "tool_class" and method_name("lambda") == "tool_lambda"


def test_templates_with_lone_braces_check_compile_and_render(tmp_path: Path):
    """`require x > 0 else invalid "{"` checked clean but failed to compile: every stage now
    reads a template through the one splitter, where a brace that pairs with nothing is text."""
    src = """
service s "s" {
  tool t(x: int) -> int "t" say "t {{x}} }" {
    require x > 0 else invalid "{"
    require x > 1 else invalid "a { b {x} } c }}"
    return x
  }
}
world w "w" { }
"""
    (tmp_path / "w.world").write_text(src, encoding="utf-8")
    program = check_paths([str(tmp_path / "w.world")])
    assert program.ok, [d.message for d in program.diagnostics]
    world = load_world(program.model, str(tmp_path / "w.world"))
    state = world.initial_state(0)
    assert world.call(state, "s.t", {"x": 0})["error"]["message"] == "{"
    assert world.call(state, "s.t", {"x": 1})["error"]["message"] == "a { b 1 } c }"
