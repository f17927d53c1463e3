"""Write a compiled world to disk as an importable package, atomically (all files or none).
Reads the typed model; the generated files import only `compoworld_dsl.runtime`."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from ..check.model import Model
from .python import Locations, generate_python


def source_map(model: Model, source: str) -> dict:
    """Every service and tool with the `.world` line it came from, named as the generated code
    names it (`codegen.python.Locations`)."""
    world = model.world
    names = world.services if world else list(model.services)
    where = Locations(source)
    out = {}
    for s in names:
        svc = model.services[s]
        out[s] = {
            "source": where.at(svc.decl.span),
            "tools": {t.name: where.at(t.decl.span) for t in svc.tools.values()},
        }
    return out


def write_package(model: Model, out: Path, source: str) -> None:
    """Build the package in a temporary sibling folder, then swap it into place."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o777 & ~umask)  # mkdtemp's 0700 would hide the package from other users
    try:
        (tmp / "world.py").write_text(generate_python(model, source), encoding="utf-8")
        (tmp / "__init__.py").write_text(
            '"""A world compiled by worldc. `WORLD` runs it; see docs/compile.md."""\n\nfrom .world import WORLD  # noqa: F401\n',
            encoding="utf-8",
        )
        # `world_source` is this machine's path on purpose: `worldc sample` with no world finds
        # the world compiled last through it (cli/common.py). Everything else is portable.
        smap = {"world_source": str(Path(source).resolve()), "services": source_map(model, source)}
        (tmp / "source_map.json").write_text(json.dumps(smap, indent=2) + "\n", encoding="utf-8")
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=out.parent))
            os.replace(out, old / out.name)
            os.replace(tmp, out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
