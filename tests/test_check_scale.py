"""The checker does work linear in the size of the world (issue #9: alias resolution rescanned
every record for every alias, and lookups by name scanned every service). Nothing is timed:
the tests count the Python lines the checker executes, which a quadratic pass multiplies."""

from __future__ import annotations

import sys
from pathlib import Path

from compoworld_dsl.check import check_source
from compoworld_dsl.check import checker as checker_module
from compoworld_dsl.check.checker import Checker
from compoworld_dsl.check.loader import _Loader
from test_robustness import no_hang  # noqa: F401 (autouse: a runaway check fails instead of stalling)


def world(n: int, *, broken: bool = False) -> str:
    """n services that use every lookup by name the checker has: aliases, records of another
    service, bare enum members, built-in calls, service tools named in constraints."""
    out = ['pool names = ["a", "b"]']
    for i in range(n):
        j = (i * 7 + 3) % n
        j = (i + 1) % n if j == i else j  # a seed cannot draw from the table it fills (E604)
        unknown = f"  state z: Missing{i}\n" if broken else ""
        out.append(
            f"""type Id{i} = id
type Name{i} = text
enum Stage{i} {{ draft{i}, done{i} }}
service s{i} {{
  record R{i} {{ key id: Id{i}  name: Name{i}  other: Id{j}  stage: Stage{i} = draft{i}  due: date = 2025-01-01 }}
  state rs: table[R{i}]
{unknown}  seed rs: 1..2 rows {{ name: pick(names)  other: ref s{j}.rs  stage: done{i} }}
  tool get{i}(id: Id{i}) -> R{i} say "get {{id}}" {{
    require id in rs else not_found "no {{id}}"
    require rs[id].stage == draft{i} else conflict "done"
    return rs[id]
  }}
  tool late{i}(n: int) -> int say "late" {{
    return count(x in rs where x.due + days(n) > 2025-06-01 and len(lower(x.name)) > 0)
  }}
  constraint c{i} {{ order get{i} after late{i} }}
}}"""
        )
    out.append("world w { }")
    return "\n".join(out) + "\n"


def checker_lines(text: str) -> int:
    """How many Python lines `Checker.run` executes on `text` (parsing is not counted)."""
    loader = _Loader()
    loader.load(Path("scale.world").resolve(), data=text.encode(), display="scale.world")
    checker = Checker([m for m in loader.modules.values() if m.ast is not None], loader.modules)
    count = 0

    def local(frame, event, arg):
        nonlocal count
        count += 1
        return local

    old = sys.gettrace()
    sys.settrace(lambda frame, event, arg: local)
    try:
        checker.run()
    finally:
        sys.settrace(old)
    return count


def test_the_generated_world_checks_clean():
    program = check_source(world(5), "scale.world")
    assert program.ok, [d.message for d in program.diagnostics]
    assert len(program.model.services) == 5


def test_checking_twice_the_services_takes_about_twice_the_work():
    # Quadratic passes give ×3 and more here (the old alias resolution: ×3.5 from 200 to 400).
    small, large = checker_lines(world(150)), checker_lines(world(300))
    assert large / small < 2.3, (small, large, large / small)


def test_a_broken_world_twice_as_large_takes_about_twice_the_work():
    # Every service has an unknown type: the did-you-mean hints must not scan every name per error.
    small, large = checker_lines(world(150, broken=True)), checker_lines(world(300, broken=True))
    assert large / small < 2.3, (small, large, large / small)


def test_alias_resolution_collects_the_record_names_once(monkeypatch):
    calls = 0
    real = checker_module.decl_records

    def counting(modules):
        nonlocal calls
        calls += 1
        return real(modules)

    monkeypatch.setattr(checker_module, "decl_records", counting)
    program = check_source(world(50), "scale.world")
    assert program.ok
    assert calls == 1


def test_two_thousand_services_check():
    # A size smoke test: that the checker's work grows linearly is counted above (one
    # `decl_records` pass), and its time is measured by bench/check_scale.py, not asserted here.
    program = check_source(world(2000), "scale.world")
    assert program.ok
    assert len(program.model.services) == 2000
