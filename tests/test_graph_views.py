"""`worldc graph --service S`, `--collapse services` and `--max-edges N`: views of the typed
dependency graph small enough to draw (graph.neighbourhood, collapse_services, cap_edges)."""

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.cli import main
from compoworld_dsl.graph import (
    MERMAID_MAX_EDGES,
    ServiceGraph,
    UnknownService,
    build_graph,
    cap_edges,
    collapse_services,
    neighbourhood,
    render,
)

ROOT = Path(__file__).resolve().parent.parent
LEGAL = str(ROOT / "worlds" / "legal_ops.world")
TOY = str(ROOT / "worlds" / "toy.world")


@pytest.fixture(scope="module", params=["toy", "legal_ops"])
def graph(request):
    program = check_paths([ROOT / "worlds" / f"{request.param}.world"])
    assert program.ok
    return build_graph(program.model)


@pytest.fixture(scope="module")
def legal():
    return build_graph(check_paths([LEGAL]).model)


def _pairs(g):
    """Every (producer, consumer, type) from the nodes alone, not from build_graph's edges."""
    return {(a.id, b.id, t) for a in g.nodes for b in g.nodes if a.id != b.id for t in a.produces if t in b.consumes}


# ─────────────────────────── --service ───────────────────────────


def test_neighbourhood_holds_exactly_the_tools_one_edge_away(graph):
    nodes = {n.id: n for n in graph.nodes}
    everything = _pairs(graph)
    for service in dict.fromkeys(n.service for n in graph.nodes):
        view = neighbourhood(graph, service)
        mine = {i for i, n in nodes.items() if n.service == service}
        feeds_mine = {a for a, b, _ in everything if b in mine}
        fed_by_mine = {b for a, b, _ in everything if a in mine}
        assert {n.id for n in view.nodes} == mine | feeds_mine | fed_by_mine
        # exactly the edges with one of S's tools at an end: none between two neighbours
        assert {(e.source, e.target, e.type) for e in view.edges} == {p for p in everything if p[0] in mine or p[1] in mine}
        assert all(nodes[n.id] == n for n in view.nodes)  # the nodes are the world's own


def test_toy_calendar_neighbourhood_by_hand():
    g = build_graph(check_paths([TOY]).model)
    view = neighbourhood(g, "calendar")
    ids = {n.id for n in view.nodes}
    assert {"calendar.schedule_event", "files.read_file"} <= ids  # read_file gives the Day schedule_event takes
    assert all(e.source.startswith("calendar.") or e.target.startswith("calendar.") for e in view.edges)
    assert not any(e.source == "files.read_file" and e.target == "tasks.add_task" for e in view.edges)


def test_unknown_service_names_the_known_ones(legal, capsys):
    with pytest.raises(UnknownService) as info:
        neighbourhood(legal, "bilings")
    assert info.value.known == ["matters", "contacts", "billing", "documents", "messaging", "docket", "timekeeping", "invoicing"]
    assert main(["graph", LEGAL, "--service", "bilings"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("worldc: error: ") and "'bilings'" in err and "billing" in err and "docket" in err


def test_service_command_shades_the_service(capsys):
    assert main(["graph", LEGAL, "--service", "billing", "--format", "dot"]) == 0
    dot = capsys.readouterr().out
    assert 'label="billing";\n    style=filled' in dot
    assert main(["graph", LEGAL, "--service", "billing", "--stats"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["service"] == "billing" and stats["neighbour_tools"] > 0
    assert all(t.startswith("billing.") for t in stats["unreachable_tools"] + stats["unfed_tools"])


# ─────────────────────────── --collapse services ───────────────────────────


def test_collapsed_counts_sum_to_the_cross_service_edges(graph):
    sg = collapse_services(graph)
    service_of = {n.id: n.service for n in graph.nodes}
    expected = Counter((service_of[a], service_of[b]) for a, b, _ in _pairs(graph) if service_of[a] != service_of[b])
    assert {(e.source, e.target): e.count for e in sg.edges} == dict(expected)
    assert sum(e.count for e in sg.edges) == sum(e.cross_service for e in graph.edges)
    # same-service edges are not drawn (no self-loops): each node counts them as internal_edges
    assert all(e.source != e.target for e in sg.edges)
    internal = Counter(service_of[e.source] for e in graph.edges if not e.cross_service)
    assert {n.name: n.internal_edges for n in sg.nodes} == {s: internal.get(s, 0) for s in dict.fromkeys(service_of.values())}
    assert sum(n.internal_edges for n in sg.nodes) + sum(e.count for e in sg.edges) == len(graph.edges)
    assert all(sum(c for _, c in e.types) == e.count for e in sg.edges)
    assert [e.count for e in sg.edges] == sorted((e.count for e in sg.edges), reverse=True)


def test_legal_ops_collapsed_is_small_enough_to_draw(legal, capsys):
    assert len(legal.edges) > MERMAID_MAX_EDGES  # the tool-level graph is not (about 3,000 edges)
    sg = collapse_services(legal)
    assert len(sg.nodes) == 8 and len(sg.edges) <= 8 * 7
    assert main(["graph", LEGAL, "--collapse", "services", "--format", "mermaid"]) == 0
    captured = capsys.readouterr()
    mer = captured.out
    arrows = re.findall(r"^  s\d+ -->\|\"\d+\"\| s\d+$", mer, re.M)
    assert mer.startswith("flowchart LR\n") and len(arrows) == len(sg.edges) < 500
    assert "dropped" not in mer and captured.err == ""
    assert main(["graph", LEGAL, "--collapse", "services", "--format", "dot"]) == 0
    dot = capsys.readouterr().out
    _check_dot(dot)
    assert dot.count(" -> ") == len(sg.edges)
    labels = [int(x) for x in re.findall(r'-> "\w+" \[label="(\d+)"', dot)]
    assert sum(labels) == sum(e.cross_service for e in legal.edges)
    assert main(["graph", LEGAL, "--collapse", "services"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sum(e["count"] for e in data["edges"]) == sum(e.cross_service for e in legal.edges)
    assert "dropped_edges" not in data  # no cap asked for, none in force


def test_service_and_collapse_together(legal, capsys):
    assert main(["graph", LEGAL, "--service", "contacts", "--collapse", "services"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all("contacts" in (e["source"], e["target"]) for e in data["edges"])
    view = neighbourhood(legal, "contacts")
    assert sum(e["count"] for e in data["edges"]) == sum(e.cross_service for e in view.edges)


# ─────────────────────────── --max-edges ───────────────────────────


def test_cap_keeps_the_most_informative_and_counts_the_rest(legal):
    sg = collapse_services(legal)
    capped, dropped = cap_edges(sg, 5)
    assert isinstance(capped, ServiceGraph) and len(capped.edges) == 5 and dropped == len(sg.edges) - 5
    assert capped.edges == sg.edges[:5] and capped.nodes == sg.nodes  # the heaviest; every service stays
    g, dropped = cap_edges(legal, 100)
    assert len(g.edges) == 100 and dropped == len(legal.edges) - 100 and g.nodes == legal.nodes
    assert all(e.cross_service for e in g.edges)  # cross-service edges come first
    order = {id(e): i for i, e in enumerate(legal.edges)}
    assert [order[id(e)] for e in g.edges] == sorted(order[id(e)] for e in g.edges)  # kept in their order
    same, none = cap_edges(legal, None)
    assert same is legal and none == 0
    assert cap_edges(legal, len(legal.edges))[1] == 0


def test_max_edges_command_caps_and_says_so(capsys):
    assert main(["graph", LEGAL, "--max-edges", "40"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert len(data["edges"]) == 40 and data["dropped_edges"] == len(build_graph(check_paths([LEGAL]).model).edges) - 40
    assert captured.err.startswith("worldc: note: ") and f"{data['dropped_edges']} of" in captured.err
    assert main(["graph", LEGAL, "--max-edges", "40", "--format", "dot"]) == 0
    dot = capsys.readouterr().out
    _check_dot(dot)
    assert dot.count(" -> ") == 40 and re.search(r"^  // \d+ of \d+ edges dropped \(--max-edges 40\)", dot, re.M)
    assert main(["graph", LEGAL, "--collapse", "services", "--max-edges", "3", "--format", "mermaid"]) == 0
    mer = capsys.readouterr().out
    assert mer.count("-->") == 3 and re.search(r"^  %% \d+ of \d+ edges dropped", mer, re.M)
    assert main(["graph", TOY, "--max-edges", "1000"]) == 0
    assert json.loads(capsys.readouterr().out)["dropped_edges"] == 0
    assert main(["graph", TOY, "--max-edges", "-1"]) == 2
    assert capsys.readouterr().err.startswith("worldc: error: --max-edges")


def test_mermaid_defaults_to_its_limit_of_500(legal, capsys):
    assert main(["graph", LEGAL, "--format", "mermaid"]) == 0
    captured = capsys.readouterr()
    mer = captured.out
    assert mer.count("-->") + mer.count("==>") == MERMAID_MAX_EDGES
    assert f"{len(legal.edges) - 500} of {len(legal.edges)} edges dropped (Mermaid draws at most 500)" in mer
    assert "--collapse services" in captured.err
    # a small world is drawn whole, with no note
    assert main(["graph", TOY, "--format", "mermaid"]) == 0
    captured = capsys.readouterr()
    assert "%%" not in captured.out and captured.err == ""


def test_render_dispatches_on_the_view(legal):
    sg = collapse_services(legal)
    assert render(sg, "dot").startswith("digraph services {")
    assert render(legal, "dot").startswith("digraph world {")
    assert json.loads(render(sg, "json", dropped=0))["dropped_edges"] == 0


# ─────────────────────────── DOT that parses ───────────────────────────

_ID = r'"(?:[^"\\]|\\.)*"'
_ATTRS = rf"\[(?:\w+=(?:{_ID}|[\w.]+)(?:, )?)*\]"
_STATEMENT = re.compile(
    rf"^\s*(?:"
    rf"//.*"  # a comment
    rf"|(?:rankdir|label|style|fillcolor)=(?:{_ID}|[\w.]+);(?: (?:style|fillcolor)=(?:{_ID}|[\w.]+);)*"  # graph attributes
    rf"|(?:node|edge) {_ATTRS};"  # defaults
    rf"|(?P<node>{_ID}) {_ATTRS};"
    rf"|(?P<src>{_ID}) -> (?P<dst>{_ID}) {_ATTRS};"
    rf"|subgraph cluster_\d+ \{{|\}}"
    rf")$"
)


def _check_dot(dot: str) -> None:
    """Parse with pydot when it is installed; always check the structure line by line: every
    statement one of the forms graph.py writes, braces balanced, edges between declared nodes."""
    try:
        import pydot
    except ImportError:
        pydot = None
    if pydot is not None:
        assert pydot.graph_from_dot_data(dot)
    lines = dot.rstrip("\n").split("\n")
    assert re.fullmatch(r"digraph \w+ \{", lines[0]) and lines[-1] == "}"
    depth, declared, ends = 0, set(), []
    for line in lines[1:-1]:
        m = _STATEMENT.match(line)
        assert m, f"not a DOT statement: {line!r}"
        depth += line.endswith("{") - (line.strip() == "}")
        assert depth >= 0
        if m.group("node"):
            declared.add(json.loads(m.group("node")))
        if m.group("src"):
            ends += [json.loads(m.group("src")), json.loads(m.group("dst"))]
    assert depth == 0
    assert set(ends) <= declared


def test_every_dot_view_parses(graph):
    sg = collapse_services(graph)
    _check_dot(render(graph, "dot"))
    _check_dot(render(sg, "dot", note="a note\non two lines"))
    service = graph.nodes[0].service
    _check_dot(render(neighbourhood(graph, service), "dot", focus=service))
    _check_dot(render(collapse_services(neighbourhood(graph, service)), "dot", focus=service))
    capped, dropped = cap_edges(graph, 7)
    _check_dot(render(capped, "dot", note=f"{dropped} dropped"))
