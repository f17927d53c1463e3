"""The service library as a whole: every module loads beside every other (names are global, so
two modules must not both declare a pool or service of one name), and it is as large as the
product needs: at least 40 services and 600 tools across at least six domains."""

from __future__ import annotations

from pathlib import Path

from compoworld_dsl.check import check_paths
from compoworld_dsl.syntax import ast as A

ROOT = Path(__file__).resolve().parent.parent
STDLIB = ROOT / "stdlib"


def test_every_module_loads_beside_every_other(tmp_path):
    modules = ["stdlib." + ".".join(p.relative_to(STDLIB).with_suffix("").parts) for p in sorted(STDLIB.rglob("*.world"))]
    world = tmp_path / "everything.world"
    world.write_text("".join(f"import {m}\n" for m in modules), encoding="utf-8")
    program = check_paths([world])
    assert program.ok, [f"{d.code} {d.message}" for d in program.diagnostics if d.is_error][:5]
    services = program.model.services
    tools = sum(len(s.tools) for s in services.values())
    assert len(services) >= 40 and tools >= 600, (len(services), tools)
    domains = {p.parent.name for p in STDLIB.rglob("*.world") if p.parent != STDLIB}
    assert {"office", "support", "crm", "supply", "finance", "hr"} <= domains
    # every tool says how a person asks for it; every read says what it gives
    for svc in services.values():
        for tool in svc.tools.values():
            assert tool.decl.say, tool.qualified
            if not (tool.writes or tool.inserts or tool.deletes or tool.simulated):
                assert tool.decl.gives, tool.qualified
    # a service of a domain folder is a whole product: 14 to 20 tools, each described; the
    # records it stores are known by what a person says, never the opaque key
    for svc in services.values():
        if Path(svc.module).resolve().parent == STDLIB.resolve():
            continue  # the first, smaller modules of the library
        assert 14 <= len(svc.tools) <= 20, (svc.name, len(svc.tools))
        stored = {m.type.elem.name for m in svc.decl.members if isinstance(m, A.StateDecl) and isinstance(m.type, A.TableType)}
        records = {m.name: m for m in svc.decl.members if isinstance(m, A.RecordDecl)}
        for rec in stored:
            assert records[rec].known_by and "id" not in records[rec].known_by, (svc.name, rec)
        for tool in svc.tools.values():
            assert tool.decl.description, tool.qualified
