"""The typed dependency graph: edges follow nominal types, stats, and the three renderings."""

import json
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths, check_source
from compoworld_dsl.cli import main
from compoworld_dsl.graph import build_graph, to_dot, to_mermaid

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module", params=["toy", "legal_ops"])
def graph(request):
    program = check_paths([ROOT / "worlds" / f"{request.param}.world"])
    assert program.ok
    return program.model, build_graph(program.model)


def test_every_edge_follows_a_nominal_type(graph):
    model, g = graph
    nodes = {n.id: n for n in g.nodes}
    assert len(nodes) == sum(len(model.services[s].tools) for s in model.world.services)
    for e in g.edges:
        assert e.source != e.target
        assert e.type in nodes[e.source].produces and e.type in nodes[e.target].consumes
        assert e.cross_service == (nodes[e.source].service != nodes[e.target].service)
    # and every pair that shares a type has its edge
    expected = {(a.id, b.id, t) for a in g.nodes for b in g.nodes if a.id != b.id for t in a.produces if t in b.consumes}
    assert {(e.source, e.target, e.type) for e in g.edges} == expected


def test_toy_world_links_a_note_to_the_calendar_and_the_task_list():
    g = build_graph(check_paths([ROOT / "worlds" / "toy.world"]).model)
    edges = {(e.source, e.target, e.type) for e in g.edges}
    assert ("files.read_file", "calendar.schedule_event", "Day") in edges
    assert ("files.read_file", "tasks.add_task", "Day") in edges
    assert ("tasks.add_task", "tasks.close_task", "TaskId") in edges


def test_stats_name_unreachable_and_unfed_tools():
    src = """
    type A = id
    type B = id
    service s {
      record R { key id: A  b: B }
      state rs: table[R]
      seed rs: 2 rows { b: "b1" }
      tool make() -> A say "make" { let r = insert rs { b: "b" } return r.id }
      tool read(a: A) -> R say "read {a}" { return rs[a] }
      tool needs_b(b: B) -> int say "b {b}" { return count(r in rs where r.b == b) }
      tool orphan(x: int) -> int say "o {x}" { return x }
    }
    """
    program = check_source(src)
    assert program.ok, [d.message for d in program.errors]
    g = build_graph(program.model)
    stats = g.stats()
    assert {(e.source, e.target, e.type) for e in g.edges} == {("s.make", "s.read", "A"), ("s.read", "s.needs_b", "B")}
    assert stats["tools"] == 4 and stats["services"] == 1
    assert stats["unreachable_tools"] == ["s.make", "s.orphan"]
    assert stats["unfed_tools"] == []  # read produces B, so needs_b is fed
    assert stats["edges"] == 2
    assert stats["cross_service_edges"] == 0


def test_json_dot_and_mermaid_renderings(graph):
    _, g = graph
    data = g.to_json()
    assert set(data) == {"nodes", "edges"}
    assert all(set(n) == {"id", "service", "tool", "consumes", "produces"} for n in data["nodes"])
    assert all(set(e) == {"source", "target", "type", "cross_service"} for e in data["edges"])
    dot = to_dot(g)
    assert dot.startswith("digraph world {") and dot.rstrip().endswith("}")
    assert dot.count(" -> ") == len(g.edges)
    mer = to_mermaid(g)
    assert mer.startswith("flowchart LR")
    assert mer.count("-->") + mer.count("==>") == len(g.edges)


def test_graph_command(capsys):
    assert main(["graph", str(ROOT / "worlds" / "toy.world")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {n["id"] for n in data["nodes"]} >= {"files.read_file", "calendar.schedule_event"}
    assert main(["graph", str(ROOT / "worlds" / "toy.world"), "--stats"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["cross_service_edges"] > 0
    assert main(["graph", str(ROOT / "worlds" / "toy.world"), "--format", "dot"]) == 0
    assert capsys.readouterr().out.startswith("digraph")
