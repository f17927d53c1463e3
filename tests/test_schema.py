"""Each tool's published JSON Schema and the runtime's argument conversion agree.

What the schema rejects, the runtime rejects. What the schema accepts, the runtime accepts,
except values that break a rule the schema cannot say: a real calendar date, an email's shape,
characters above U+2FFFF (docs/compile.md, "Run-time semantics")."""

import re
from datetime import date
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compoworld_dsl.check import check_paths
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.runtime.service import ToolError

ROOT = Path(__file__).resolve().parent.parent
WORLDS = {}


def world(name):
    if name not in WORLDS:
        WORLDS[name] = load_world(check_paths([ROOT / "worlds" / f"{name}.world"]).model)
    return WORLDS[name]


JSON_VALUES = st.one_of(
    st.sampled_from(["x", "", "2025-03-20", "2025-02-30", "09:30", "24:00", "2025-03-20T09:30", "a@b.com", "open", "closed", "todo", "12.5"]),
    st.integers(-5, 100000),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.booleans(),
    st.none(),
    st.lists(st.sampled_from(["a", 1]), max_size=2),
    st.dictionaries(st.sampled_from(["k"]), st.integers(), max_size=1),
)


def breaks_unsayable_rule(value) -> bool:
    if isinstance(value, str):
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            try:
                date.fromisoformat(value)
            except ValueError:
                return True
        if re.fullmatch(r"\d{2}:\d{2}", value) and (int(value[:2]) > 23 or int(value[3:]) > 59):
            return True
        if "@" in value and not re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", value):
            return True
    return False


@pytest.mark.parametrize("name", ["toy", "legal_ops"])
@settings(max_examples=400, deadline=None, derandomize=True)
@given(data=st.data())
def test_schema_and_conversion_agree(name, data):
    w = world(name)
    tool = data.draw(st.sampled_from(sorted(w.tools)))
    spec = w.tools[tool]
    schema = w.schema(tool)
    args = {}
    for p, _ in spec.params:
        if data.draw(st.booleans(), label=f"give {p}") or p not in spec.defaults:
            args[p] = data.draw(JSON_VALUES, label=p)
    if data.draw(st.booleans(), label="extra"):
        args["unexpected"] = 1
    valid = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).is_valid(args)
    try:
        w.convert_arguments(spec, args)
        accepted = True
    except ToolError as e:
        assert e.kind == "invalid"
        accepted = False
    if not valid:
        assert not accepted, (tool, args)
    elif not any(breaks_unsayable_rule(v) for v in args.values()):
        assert accepted, (tool, args)
