"""Where the grammar and the stdlib `.world` files live, installed or in a checkout.
Read-only lookups; nothing here parses or caches file contents."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_REPO_ROOT = _PACKAGE.parent


def _data_dir(name: str, pattern: str) -> Path:
    # An installed wheel carries grammar/ and stdlib/ inside the package (pyproject maps
    # them there); a checkout or an editable install reads them from the repository root.
    packaged = _PACKAGE / name
    if packaged.is_dir() and any(packaged.glob(pattern)):
        return packaged
    return _REPO_ROOT / name


def grammar_path() -> Path:
    return _data_dir("grammar", "*.lark") / "world.lark"


def stdlib_dir() -> Path:
    return _data_dir("stdlib", "*.world")


def worlds_dir() -> Path:
    """The example worlds (`worlds/*.world`), shipped in the wheel as `compoworld_dsl/worlds`."""
    return _data_dir("worlds", "*.world")
