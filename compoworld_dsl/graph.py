"""The typed dependency graph: tools are nodes; A → B when A produces a nominal type B consumes.
Built from the typed model only; rendering to JSON, DOT and Mermaid lives here too."""

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


def to_dot(g: Graph) -> str:
    def q(s: str) -> str:
        return json.dumps(s)  # a DOT string: quotes and backslashes escaped

    lines = ["digraph world {", "  rankdir=LR;", "  node [shape=box, fontname=Helvetica];"]
    for i, (svc, nodes) in enumerate(g.by_service().items()):
        lines.append(f"  subgraph cluster_{i} {{")
        lines.append(f"    label={q(svc)};")
        for n in nodes:
            lines.append(f"    {q(n.id)} [label={q(n.tool)}];")
        lines.append("  }")
    for e in g.edges:
        style = ", style=bold" if e.cross_service else ""
        lines.append(f"  {q(e.source)} -> {q(e.target)} [label={q(e.type)}{style}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_mermaid(g: Graph) -> str:
    ids = {n.id: f"n{i}" for i, n in enumerate(g.nodes)}

    def label(s: str) -> str:
        return '"' + re.sub(r'["<>]', "_", s) + '"'

    lines = ["flowchart LR"]
    for i, (svc, nodes) in enumerate(g.by_service().items()):
        lines.append(f"  subgraph s{i}[{label(svc)}]")
        for n in nodes:
            lines.append(f"    {ids[n.id]}[{label(n.tool)}]")
        lines.append("  end")
    for e in g.edges:
        arrow = "==>" if e.cross_service else "-->"
        lines.append(f"  {ids[e.source]} {arrow}|{label(e.type)}| {ids[e.target]}")
    return "\n".join(lines) + "\n"
