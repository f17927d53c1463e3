"""Where the grammar and the stdlib `.world` files live, installed or in a checkout.
Read-only lookups; nothing here parses or caches file contents."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_REPO_ROOT = Path(__file__).resolve().parent.parent


def _packaged(name: str) -> Path | None:
    # In an installed wheel, pyproject maps grammar/ and stdlib/ into these subpackages.
    try:
        root = resources.files(f"compoworld_dsl.{name}")
    except (ModuleNotFoundError, TypeError):
        return None
    path = Path(str(root))
    return path if path.is_dir() else None


def grammar_path() -> Path:
    packaged = _packaged("grammar")
    if packaged is not None and (packaged / "world.lark").is_file():
        return packaged / "world.lark"
    return _REPO_ROOT / "grammar" / "world.lark"


def stdlib_dir() -> Path:
    packaged = _packaged("stdlib")
    if packaged is not None and any(packaged.glob("*.world")):
        return packaged
    return _REPO_ROOT / "stdlib"
