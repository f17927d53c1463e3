"""The typed model: what the checker hands to the back ends (Python, graph, Z3).
It holds resolved services, records, tools and the type of every expression; no logic."""

from __future__ import annotations

import attrs

from ..diagnostics import Span
from ..syntax import ast as A
from .types import Alias, EnumT, RecordT, Type


@attrs.define(eq=False)
class StateVar:
    name: str
    type: Type
    default: A.Literal | None
    span: Span
    # a table's retracted state: (field, the literal it holds then; None for a bool field's true)
    retracted: tuple[str, A.Literal | None] | None = None
    # `retracted with FIELD`: (the reference field, "service.table" it names), withdrawn with that row
    retracted_with: tuple[str, str] | None = None


@attrs.define(eq=False)
class Tool:
    name: str
    service: str
    decl: A.ToolDecl
    params: list[tuple[str, Type]]
    result: Type
    consumes: list[Alias]
    produces: list[Alias]
    # (table, field) pairs updated, scalars set, tables inserted into / deleted from
    writes: set[tuple[str, str]] = attrs.field(factory=set)
    inserts: set[str] = attrs.field(factory=set)
    deletes: set[str] = attrs.field(factory=set)

    # `service.tool`: a plain attribute, not a property, as samplers read it millions of times on
    # a big world (the name and service of a tool never change after checking)
    qualified: str = attrs.field(default="", init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self.qualified = f"{self.service}.{self.name}"

    @property
    def simulated(self) -> bool:
        return self.decl.simulated


@attrs.define(eq=False)
class Service:
    name: str
    description: str | None
    decl: A.ServiceDecl
    module: str
    records: dict[str, RecordT] = attrs.field(factory=dict)
    state: dict[str, StateVar] = attrs.field(factory=dict)
    seeds: dict[str, A.SeedDecl] = attrs.field(factory=dict)
    tools: dict[str, Tool] = attrs.field(factory=dict)
    constraints: list[A.ConstraintDecl] = attrs.field(factory=list)


@attrs.define(eq=False)
class World:
    name: str
    description: str | None
    decl: A.WorldDecl
    module: str
    services: list[str] = attrs.field(factory=list)
    constraints: list[A.ConstraintDecl] = attrs.field(factory=list)


@attrs.define(eq=False)
class Model:
    """Everything the back ends need, keyed by name; `expr_types` maps id(expr node) to its type."""

    aliases: dict[str, Alias] = attrs.field(factory=dict)
    enums: dict[str, EnumT] = attrs.field(factory=dict)
    pools: dict[str, A.PoolDecl] = attrs.field(factory=dict)
    services: dict[str, Service] = attrs.field(factory=dict)
    worlds: list[World] = attrs.field(factory=list)
    constraints: list[A.ConstraintDecl] = attrs.field(factory=list)  # top-level, outside any world
    expr_types: dict[int, Type] = attrs.field(factory=dict)

    def type_of(self, expr: object) -> Type | None:
        return self.expr_types.get(id(expr))

    @property
    def world(self) -> World | None:
        return self.worlds[0] if self.worlds else None

    def tools(self):
        for svc in self.services.values():
            yield from svc.tools.values()
