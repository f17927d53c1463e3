"""The abstract syntax tree: one frozen attrs class per construct, each with a span.
Spans are excluded from equality so that parse → format → parse compares equal."""

from __future__ import annotations

from typing import Union

import attrs

from ..diagnostics import Span


def node(cls):
    """Decorate an AST class: frozen, slotted, span not compared."""
    return attrs.frozen(cls, eq=True, hash=False)


def _span() -> Span:
    return attrs.field(eq=False, repr=False, kw_only=True)


# ─────────────────────────── types ───────────────────────────


@node
class NamedType:
    path: tuple[str, ...]
    span: Span = _span()

    @property
    def name(self) -> str:
        return ".".join(self.path)


@node
class ListType:
    elem: "TypeExpr"
    span: Span = _span()


@node
class TableType:
    elem: "TypeExpr"
    span: Span = _span()


TypeExpr = Union[NamedType, ListType, TableType]

# ─────────────────────────── expressions ───────────────────────────

# Literal kinds: int, decimal, string, date, time, datetime, bool, name (a bare name in a
# constant position, resolved later to an enum member).
LITERAL_KINDS = ("int", "decimal", "string", "date", "time", "datetime", "bool", "name")


@node
class Literal:
    kind: str
    value: object  # int for int, str for decimal/string/date/time/datetime/name, bool for bool
    span: Span = _span()


@node
class Var:
    name: str
    span: Span = _span()


@node
class Field:
    obj: "Expr"
    name: str
    span: Span = _span()


@node
class Index:
    obj: "Expr"
    key: "Expr"
    span: Span = _span()


@node
class Arg:
    name: str | None
    value: "Expr"
    span: Span = _span()


@node
class Call:
    func: str
    args: tuple[Arg, ...]
    span: Span = _span()


@node
class ListLit:
    items: tuple["Expr", ...]
    span: Span = _span()


@node
class Unary:
    op: str  # "-" or "not"
    operand: "Expr"
    span: Span = _span()


@node
class Binary:
    # arithmetic + - * / %, comparison == != < <= > >=, and, or, implies, in, not in, contains
    op: str
    left: "Expr"
    right: "Expr"
    span: Span = _span()


@node
class Cond:
    test: "Expr"
    then: "Expr"
    else_: "Expr"
    span: Span = _span()


@node
class Quant:
    kind: str  # "forall" or "exists"
    var: str
    domain: "Expr"
    where: "Expr | None"
    body: "Expr | None"  # None for exists
    span: Span = _span()


@node
class Select:
    kind: str  # count, filter, latest, earliest
    var: str
    domain: "Expr"
    where: "Expr | None"
    by: "Expr | None"
    span: Span = _span()


@node
class Project:
    kind: str  # sum, min, max, map
    expr: "Expr"
    var: str
    domain: "Expr"
    where: "Expr | None"
    span: Span = _span()


Expr = Union[Literal, Var, Field, Index, Call, ListLit, Unary, Binary, Cond, Quant, Select, Project]

# ─────────────────────────── declarations ───────────────────────────


@node
class ImportModule:
    path: tuple[str, ...]
    span: Span = _span()


@node
class ImportFile:
    path: str
    span: Span = _span()


@node
class TypeDecl:
    name: str
    type: TypeExpr
    span: Span = _span()


@node
class EnumMember:
    name: str
    span: Span = _span()


@node
class EnumDecl:
    name: str
    members: tuple[EnumMember, ...]
    span: Span = _span()


@node
class ProfileField:
    name: str
    value: Literal
    span: Span = _span()


@node
class Profile:
    """`{ title: "Lease dispute", area: real_estate }`: one entry of a profile pool, the values of
    a row's fields that make sense together; `seed ... rows from POOL` draws a row's from one."""

    fields: tuple[ProfileField, ...]
    span: Span = _span()


@node
class PoolDecl:
    name: str
    values: tuple["Literal | Profile", ...]  # constants of one kind, or profiles (never both: E201)
    span: Span = _span()

    @property
    def profiles(self) -> bool:
        return bool(self.values) and all(isinstance(v, Profile) for v in self.values)


@node
class FieldDecl:
    name: str
    type: TypeExpr
    is_key: bool
    default: Literal | None
    span: Span = _span()
    label: str | None = attrs.field(default=None, kw_only=True)  # how a person names the field


@node
class RecordDecl:
    name: str
    fields: tuple[FieldDecl, ...]
    span: Span = _span()
    noun: str | None = attrs.field(default=None, kw_only=True)  # "docket note"; None: from the name
    known_by: tuple[str, ...] = attrs.field(default=(), kw_only=True)  # fields that identify a row to a person


@node
class StateDecl:
    name: str
    type: TypeExpr
    default: Literal | None
    span: Span = _span()
    retracted: "Retraction | None" = attrs.field(default=None, kw_only=True)


@node
class Retraction:
    """`retracted when cancelled` (a bool field is true) or `retracted when status == cancelled`:
    how a table marks a row withdrawn; one an episode inserted and left so counts as never made.
    `retracted with order` (`with_parent`): a row is withdrawn when the row its reference field
    names is (an order line with its order)."""

    field: str
    value: Literal | None
    span: Span = _span()
    with_parent: bool = attrs.field(default=False, kw_only=True)


# Seed generators


@node
class GenConst:
    value: Literal
    span: Span = _span()


@node
class GenRange:
    lo: Literal
    hi: Literal
    span: Span = _span()


@node
class GenPickPool:
    pool: str
    span: Span = _span()


@node
class GenPickList:
    values: tuple[Literal, ...]
    span: Span = _span()


@node
class Weight:
    value: Literal
    weight: int
    span: Span = _span()


@node
class GenWeighted:
    weights: tuple[Weight, ...]
    span: Span = _span()


@node
class GenRef:
    """`ref table`, or `unique ref table`: no two rows of the seed take the same key (a stay has
    one folio); rows past the target's keys are not made, as with a repeated key."""

    path: tuple[str, ...]
    span: Span = _span()
    unique: bool = attrs.field(default=False, kw_only=True)
    # `ref contacts where role == client` / `where role in [partner, lawyer]`: only rows whose
    # field holds one of the values (a matter's client is a client, its lawyer a lawyer)
    where: tuple[str, tuple[Literal, ...]] | None = attrs.field(default=None, kw_only=True)
    # `ref instructors where department == same(course.department)`: only rows whose field equals
    # the value `same(...)` reads from the row being seeded (a section's instructor teaches in its
    # course's department; a row that finds none is not made)
    matches: tuple[str, "GenSame"] | None = attrs.field(default=None, kw_only=True)


@node
class GenSame:
    """`same(patient.owner)`: the value of another field of the row being seeded, or of a field
    of the row that field refers to (and so on along references)."""

    path: tuple[str, ...]
    span: Span = _span()


@node
class GenFormat:
    template: str
    args: tuple["SeedGen", ...]
    span: Span = _span()


@node
class GenSlug:
    """`slug(same(name))` is `amara.chowdhury`; `slug(same(org.name), "")` is `harborfreight`:
    the words of a text, ASCII lowercase, joined by `sep`, for values derived from others."""

    arg: "SeedGen"
    sep: str = "."
    span: Span = _span()


@node
class GenAfter:
    """`after(same(matter.opened), 0..60)`: a date (or datetime) 0 to 60 days after the one
    `same(...)` reads; with date bounds (`2025-01-06..2025-03-13`), drawn between them but never
    before it (nor before any other `same(...)` listed); days and then bounds (`within`), both.
    A fee invoice is issued after its matter was opened. `before(...)` (`before=True`) keeps the
    value on or before them instead."""

    args: tuple[GenSame, ...]
    lo: Literal
    hi: Literal
    span: Span = _span()
    before: bool = attrs.field(default=False, kw_only=True)
    # `after(same(order.placed), 0..10, 2025-01-06..2025-03-13)`: whole days, kept within bounds
    within: tuple[Literal, Literal] | None = attrs.field(default=None, kw_only=True)


SeedGen = Union[GenConst, GenRange, GenPickPool, GenPickList, GenWeighted, GenRef, GenSame, GenFormat, GenSlug, GenAfter]


def seed_parts(gen: "SeedGen"):
    """The generator and every generator nested in it (a `format`'s arguments, a `slug`'s)."""
    yield gen
    if isinstance(gen, GenFormat):
        for a in gen.args:
            yield from seed_parts(a)
    elif isinstance(gen, GenSlug):
        yield from seed_parts(gen.arg)
    elif isinstance(gen, GenAfter):
        for a in gen.args:
            yield from seed_parts(a)
    elif isinstance(gen, GenRef) and gen.matches is not None:
        yield gen.matches[1]


@node
class SeedField:
    name: str
    gen: SeedGen
    span: Span = _span()


@node
class SeedDecl:
    name: str
    gen: SeedGen
    rows: tuple[SeedField, ...] | None  # None for a scalar seed
    span: Span = _span()
    profiles: str | None = attrs.field(default=None, kw_only=True)  # `rows from POOL`: each row from one profile
    distinct: tuple[str, ...] = attrs.field(default=(), kw_only=True)  # `rows distinct by F, G`: no two rows alike in them


# Tools


@node
class Param:
    name: str
    type: TypeExpr
    default: Literal | None
    span: Span = _span()


@node
class FieldInit:
    name: str
    value: Expr
    span: Span = _span()


@node
class KeyTarget:
    table: str
    key: Expr
    span: Span = _span()


@node
class FilterTarget:
    var: str
    table: str
    where: Expr
    span: Span = _span()


Target = Union[KeyTarget, FilterTarget]


@node
class Require:
    cond: Expr
    kind: str  # not_found, invalid, conflict, forbidden
    message: str
    span: Span = _span()
    message_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)


@node
class Let:
    name: str
    value: Expr
    span: Span = _span()


@node
class Insert:
    table: str
    fields: tuple[FieldInit, ...]
    bind: str | None  # `let n = insert notes {...}` binds the new row
    span: Span = _span()


@node
class Update:
    target: Target
    fields: tuple[FieldInit, ...]
    span: Span = _span()


@node
class Delete:
    target: Target
    span: Span = _span()


@node
class Set:
    name: str
    value: Expr
    span: Span = _span()


@node
class Return:
    value: Expr
    span: Span = _span()


@node
class Modifies:
    table: str
    fields: tuple[str, ...] | None  # None: any field, and rows may be inserted or deleted
    span: Span = _span()


@node
class Ensures:
    cond: Expr
    span: Span = _span()


Stmt = Union[Require, Let, Insert, Update, Delete, Set, Return, Modifies, Ensures]


@node
class ToolDecl:
    name: str
    simulated: bool
    params: tuple[Param, ...]
    result: TypeExpr | None
    description: str | None
    say: str | None
    consumes: tuple[NamedType, ...] | None
    produces: tuple[NamedType, ...] | None
    body: tuple[Stmt, ...]
    span: Span = _span()
    # where the `say` phrase sits, so placeholder errors point at it (None when absent)
    say_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    # a noun phrase for what the tool returns ("the newest docket note on {matter}"), and its span
    gives: str | None = attrs.field(default=None, kw_only=True)
    gives_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)
    # a list tool that answers a page at a time: this many elements a page (`pages 5`)
    pages: int | None = attrs.field(default=None, kw_only=True)
    pages_span: Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)


# Constraints


@node
class Untouched:
    var: str | None  # None for the short form, where bare names are the row's fields
    table: tuple[str, ...]
    where: Expr | None
    span: Span = _span()


@node
class ForallClause:
    var: str
    domain: tuple[str, ...]
    where: Expr | None
    body: tuple["Clause", ...]
    span: Span = _span()


@node
class IfClause:
    cond: Expr
    then: tuple["Clause", ...]
    else_: tuple["Clause", ...] | None
    span: Span = _span()


@node
class Invariant:
    expr: Expr
    span: Span = _span()


@node
class OrderClause:
    tool: tuple[str, ...]
    after: tuple[str, ...]
    on: tuple[str, ...]
    span: Span = _span()


Clause = Union[Untouched, ForallClause, IfClause, Invariant, OrderClause]


@node
class ConstraintDecl:
    name: str
    description: str | None
    clauses: tuple[Clause, ...]
    is_rule: bool  # written as `rule NAME "..." { expr }`
    span: Span = _span()


ServiceMember = Union[RecordDecl, StateDecl, SeedDecl, ToolDecl, ConstraintDecl]


@node
class ServiceDecl:
    name: str
    description: str | None
    members: tuple[ServiceMember, ...]
    span: Span = _span()


@node
class UseDecl:
    modules: tuple[tuple[str, ...], ...]
    span: Span = _span()
    # one span per module, so an error about one module points at it
    module_spans: tuple[Span, ...] = attrs.field(default=(), eq=False, repr=False, kw_only=True)

    def span_of(self, i: int) -> Span:
        return self.module_spans[i] if i < len(self.module_spans) else self.span


@node
class WorldDecl:
    name: str
    description: str | None
    members: tuple[Union[UseDecl, ConstraintDecl], ...]
    span: Span = _span()


Item = Union[ImportModule, ImportFile, TypeDecl, EnumDecl, PoolDecl, ServiceDecl, WorldDecl, ConstraintDecl]


@node
class Module:
    items: tuple[Item, ...]
    span: Span = _span()


_FIELDS: dict[type, tuple[str, ...]] = {}  # node class → its field names but `span` (classes never change)
_NODE: dict[type, bool] = {}  # class → is it an attrs class (an AST node)?


def _is_node(cls: type) -> bool:
    got = _NODE.get(cls)
    if got is None:
        got = _NODE[cls] = attrs.has(cls)
    return got


def children(n: object) -> list[object]:
    """The AST nodes directly below `n` (in field order), for generic walks."""
    cls = type(n)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in attrs.fields(cls) if f.name != "span")
    out: list[object] = []
    for name in names:
        v = getattr(n, name)
        if isinstance(v, tuple):
            out.extend(x for x in v if _is_node(type(x)))
        elif _is_node(type(v)):
            out.append(v)
    return out


def walk(root: object):
    """Every node below and including `root`, pre-order, without recursion."""
    stack = [root]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))


def walk_clauses(clauses):
    """Every clause of a constraint, nested ones included (inside `forall` and `if`), in order."""
    for c in clauses:
        yield c
        if isinstance(c, ForallClause):
            yield from walk_clauses(c.body)
        elif isinstance(c, IfClause):
            yield from walk_clauses(c.then + (c.else_ or ()))
