"""The wheel carries every subpackage: pyproject lists packages by hand (two of them are mapped
from grammar/ and stdlib/), so a new subpackage must be added there too."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_lists_every_subpackage():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    on_disk = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "compoworld_dsl").rglob("__init__.py")
    }
    assert on_disk - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert {"compoworld_dsl.grammar", "compoworld_dsl.stdlib"} <= listed
    assert config["package-dir"] == {"compoworld_dsl.grammar": "grammar", "compoworld_dsl.stdlib": "stdlib", "compoworld_dsl.worlds": "worlds"}
