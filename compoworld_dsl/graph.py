"""The typed dependency graph: tools are nodes; A → B when A produces a nominal type B consumes.
Built from the typed model only; rendering to JSON, DOT and Mermaid lives here too.

Views for worlds too big to draw whole (`worldc graph --service/--collapse/--max-edges`):
`neighbourhood` (one service's tools and the tools one edge away), `collapse_services` (one
node per service, one weighted edge per ordered pair of distinct services) and `cap_edges`
(keep the N most informative edges and say how many were dropped)."""

from __future__ import annotations

import json
import re
from collections import defaultdict

import attrs

from .check.model import Model


@attrs.frozen
class Node:
    id: str  # "service.tool"
    service: str
    tool: str
    consumes: tuple[str, ...]
    produces: tuple[str, ...]


@attrs.frozen
class Edge:
    source: str
    target: str
    type: str
    cross_service: bool


@attrs.define
class Graph:
    nodes: list[Node]
    edges: list[Edge]

    def to_json(self) -> dict:
        return {
            "nodes": [{"id": n.id, "service": n.service, "tool": n.tool, "consumes": list(n.consumes), "produces": list(n.produces)} for n in self.nodes],
            "edges": [{"source": e.source, "target": e.target, "type": e.type, "cross_service": e.cross_service} for e in self.edges],
        }

    def by_service(self) -> dict[str, list[Node]]:
        out: dict[str, list[Node]] = defaultdict(list)
        for n in self.nodes:
            out[n.service].append(n)
        return out

    def stats(self) -> dict:
        incoming = {e.target for e in self.edges}
        produced = {t for n in self.nodes for t in n.produces}
        return {
            "services": len({n.service for n in self.nodes}),
            "tools": len(self.nodes),
            "edges": len(self.edges),
            "cross_service_edges": sum(e.cross_service for e in self.edges),
            # no other tool's output feeds these: in a walk they can only come first (and the
            # sampler starts walks only at tools that take some nominal-typed input)
            "unreachable_tools": sorted(n.id for n in self.nodes if n.id not in incoming),
            # some input type that no tool produces: only the instruction can supply it
            "unfed_tools": sorted(n.id for n in self.nodes if any(t not in produced for t in n.consumes)),
        }


def build_graph(model: Model) -> Graph:
    """Linear in tools plus edges: tools are indexed by the types they consume."""
    world = model.world
    services = world.services if world else list(model.services)
    nodes: list[Node] = []
    for s in services:
        for tool in model.services[s].tools.values():
            nodes.append(Node(tool.qualified, s, tool.name, tuple(a.name for a in tool.consumes), tuple(a.name for a in tool.produces)))
    consumers: dict[str, list[Node]] = defaultdict(list)
    for n in nodes:
        for t in n.consumes:
            consumers[t].append(n)
    edges: list[Edge] = []
    for a in nodes:
        for t in a.produces:
            for b in consumers.get(t, ()):
                if b.id != a.id:
                    edges.append(Edge(a.id, b.id, t, a.service != b.service))
    return Graph(nodes, edges)


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)  # a DOT string (UTF-8): quotes and backslashes escaped


def _dot_comment(note: str | None) -> list[str]:
    return [f"  // {line}" for line in note.splitlines()] if note else []


def _mermaid_comment(note: str | None) -> list[str]:
    return [f"  %% {line}" for line in note.splitlines()] if note else []


def to_dot(g: Graph, note: str | None = None, focus: str | None = None) -> str:
    """DOT, one cluster per service; cross-service edges bold. `note` becomes a comment (what a
    view left out); the cluster of the `focus` service is shaded."""
    q = _q
    lines = ["digraph world {", *_dot_comment(note), "  rankdir=LR;", "  node [shape=box, fontname=Helvetica];"]
    for i, (svc, nodes) in enumerate(g.by_service().items()):
        lines.append(f"  subgraph cluster_{i} {{")
        lines.append(f"    label={q(svc)};")
        if svc == focus:
            lines.append('    style=filled; fillcolor="#fff4cc";')
        for n in nodes:
            lines.append(f"    {q(n.id)} [label={q(n.tool)}];")
        lines.append("  }")
    for e in g.edges:
        style = ", style=bold" if e.cross_service else ""
        lines.append(f"  {q(e.source)} -> {q(e.target)} [label={q(e.type)}{style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mlabel(s: str) -> str:
    return '"' + re.sub(r'["<>]', "_", s) + '"'


def to_mermaid(g: Graph, note: str | None = None, focus: str | None = None) -> str:
    """A Mermaid flowchart, one subgraph per service; cross-service edges thick. Mermaid draws
    at most 500 edges by default (`maxEdges`): cap big graphs with `cap_edges` first."""
    ids = {n.id: f"n{i}" for i, n in enumerate(g.nodes)}
    label = _mlabel
    lines = ["flowchart LR", *_mermaid_comment(note)]
    for i, (svc, nodes) in enumerate(g.by_service().items()):
        lines.append(f"  subgraph s{i}[{label(svc)}]")
        for n in nodes:
            lines.append(f"    {ids[n.id]}[{label(n.tool)}]")
        lines.append("  end")
    for e in g.edges:
        arrow = "==>" if e.cross_service else "-->"
        lines.append(f"  {ids[e.source]} {arrow}|{label(e.type)}| {ids[e.target]}")
    if focus is not None:
        for i, svc in enumerate(g.by_service()):
            if svc == focus:
                lines.append(f"  style s{i} fill:#fff4cc")
    return "\n".join(lines) + "\n"


# ─────────────────────────── views ───────────────────────────

MERMAID_MAX_EDGES = 500  # Mermaid's default `maxEdges`: past it, it refuses to draw


class UnknownService(ValueError):
    def __init__(self, name: str, known: list[str]):
        super().__init__(f"unknown service {name!r}; the world has {', '.join(known)}")
        self.name = name
        self.known = known


def services_of(g: Graph) -> list[str]:
    return list(dict.fromkeys(n.service for n in g.nodes))


def neighbourhood(g: Graph, service: str) -> Graph:
    """The tools of `service` and every tool one edge away from one of them (producing a type
    one of them consumes, or consuming a type one of them produces), with exactly the edges
    that have a tool of `service` at one end or both. Edges between two neighbours are left out:
    they say nothing about `service`."""
    known = services_of(g)
    if service not in known:
        raise UnknownService(service, known)
    mine = {n.id for n in g.nodes if n.service == service}
    edges = [e for e in g.edges if e.source in mine or e.target in mine]
    keep = mine | {e.source for e in edges} | {e.target for e in edges}
    return Graph([n for n in g.nodes if n.id in keep], edges)


@attrs.frozen
class ServiceNode:
    name: str
    tools: int  # the tools of this service in the graph collapsed
    internal_edges: int  # tool-level edges between two tools of this service (not drawn as an edge)


@attrs.frozen
class ServiceEdge:
    source: str
    target: str
    count: int  # tool-level edges from a tool of `source` to a tool of `target`
    types: tuple[tuple[str, int], ...]  # the types they follow, with counts, most frequent first


@attrs.define
class ServiceGraph:
    nodes: list[ServiceNode]
    edges: list[ServiceEdge]

    def to_json(self) -> dict:
        return {
            "nodes": [{"id": n.name, "tools": n.tools, "internal_edges": n.internal_edges} for n in self.nodes],
            "edges": [{"source": e.source, "target": e.target, "count": e.count, "types": dict(e.types)} for e in self.edges],
        }

    def stats(self) -> dict:
        return {
            "services": len(self.nodes),
            "service_edges": len(self.edges),
            "tool_edges_between_services": sum(e.count for e in self.edges),
            "tool_edges_within_services": sum(n.internal_edges for n in self.nodes),
            "heaviest": [f"{e.source} -> {e.target} ({e.count})" for e in sorted(self.edges, key=lambda e: -e.count)[:5]],
        }


def collapse_services(g: Graph) -> ServiceGraph:
    """One node per service, one edge per ordered pair of distinct services, weighted by the
    number of tool-level edges between them (so the weights sum to the cross-service edges).
    Edges between two tools of one service are not drawn: each node counts them instead
    (`internal_edges`). Edges come heaviest first, ties in the services' order."""
    order = services_of(g)
    tools: dict[str, int] = defaultdict(int)
    for n in g.nodes:
        tools[n.service] += 1
    service_of = {n.id: n.service for n in g.nodes}
    internal: dict[str, int] = defaultdict(int)
    pairs: dict[tuple[str, str], dict[str, int]] = {}
    for e in g.edges:
        a, b = service_of[e.source], service_of[e.target]
        if a == b:
            internal[a] += 1
            continue
        types = pairs.setdefault((a, b), {})
        types[e.type] = types.get(e.type, 0) + 1
    rank = {s: i for i, s in enumerate(order)}
    edges = [ServiceEdge(a, b, sum(t.values()), tuple(sorted(t.items(), key=lambda kv: (-kv[1], kv[0])))) for (a, b), t in pairs.items()]
    edges.sort(key=lambda e: (-e.count, rank[e.source], rank[e.target]))
    return ServiceGraph([ServiceNode(s, tools[s], internal[s]) for s in order], edges)


def cap_edges(view: Graph | ServiceGraph, limit: int | None) -> tuple[Graph | ServiceGraph, int]:
    """At most `limit` edges (None: all), the most informative kept; returns the view and how
    many edges were dropped. Every node stays. Service edges: heaviest first. Tool edges:
    cross-service ones first, then those whose type links the fewest tool pairs (a type that
    half the tools consume says little about any one of them); kept edges keep their order."""
    if limit is None or len(view.edges) <= limit:
        return view, 0
    dropped = len(view.edges) - limit
    if isinstance(view, ServiceGraph):  # already heaviest first
        return ServiceGraph(view.nodes, view.edges[:limit]), dropped
    per_type: dict[str, int] = defaultdict(int)
    for e in view.edges:
        per_type[e.type] += 1
    ranked = sorted(range(len(view.edges)), key=lambda i: (not view.edges[i].cross_service, per_type[view.edges[i].type], i))
    keep = sorted(ranked[:limit])
    return Graph(view.nodes, [view.edges[i] for i in keep]), dropped


def service_to_dot(sg: ServiceGraph, note: str | None = None, focus: str | None = None) -> str:
    """The service graph in DOT: a node per service (its tools and internal edges in the
    label), an edge per ordered pair labelled with its count, thicker for heavier ones; the
    tooltip lists the types."""
    import math

    top = max((e.count for e in sg.edges), default=1)
    lines = ["digraph services {", *_dot_comment(note), "  rankdir=LR;", "  node [shape=box, style=rounded, fontname=Helvetica];", "  edge [fontname=Helvetica, fontsize=10];"]
    for n in sg.nodes:
        label = f"{n.name}\n{n.tools} tool{'s' if n.tools != 1 else ''}" + (f", {n.internal_edges} internal edge{'s' if n.internal_edges != 1 else ''}" if n.internal_edges else "")
        extra = ', style="rounded,filled", fillcolor="#fff4cc"' if n.name == focus else ""
        lines.append(f"  {_q(n.name)} [label={_q(label)}{extra}];")
    for e in sg.edges:
        width = 1 + 4 * math.log1p(e.count) / math.log1p(top)
        tip = ", ".join(f"{t} ×{c}" for t, c in e.types)
        lines.append(f"  {_q(e.source)} -> {_q(e.target)} [label={_q(str(e.count))}, weight={e.count}, penwidth={width:.2f}, tooltip={_q(tip)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def service_to_mermaid(sg: ServiceGraph, note: str | None = None, focus: str | None = None) -> str:
    ids = {n.name: f"s{i}" for i, n in enumerate(sg.nodes)}
    lines = ["flowchart LR", *_mermaid_comment(note)]
    for n in sg.nodes:
        label = f"{n.name} ({n.tools} tool{'s' if n.tools != 1 else ''}" + (f", {n.internal_edges} internal" if n.internal_edges else "") + ")"
        lines.append(f"  {ids[n.name]}[{_mlabel(label)}]")
    for e in sg.edges:
        lines.append(f"  {ids[e.source]} -->|{_mlabel(str(e.count))}| {ids[e.target]}")
    if focus in ids:
        lines.append(f"  style {ids[focus]} fill:#fff4cc")
    return "\n".join(lines) + "\n"


def render(view: Graph | ServiceGraph, fmt: str, note: str | None = None, focus: str | None = None, dropped: int | None = None) -> str:
    """`view` as json, dot or mermaid. `dropped` (when an edge cap was in force) goes into the
    JSON as `dropped_edges`; `note` into DOT and Mermaid as a comment."""
    if fmt == "dot":
        return (service_to_dot if isinstance(view, ServiceGraph) else to_dot)(view, note, focus)
    if fmt == "mermaid":
        return (service_to_mermaid if isinstance(view, ServiceGraph) else to_mermaid)(view, note, focus)
    data = view.to_json()
    if dropped is not None:
        data["dropped_edges"] = dropped
    return json.dumps(data, indent=2) + "\n"
