"""The types of the `.world` language and the rules for when one fits another.
Pure values and functions: no AST walking and no diagnostics here."""

from __future__ import annotations

import attrs

PRIMITIVES = ("text", "int", "decimal", "money", "bool", "date", "time", "datetime", "email", "id", "duration")
NUMERIC = ("int", "decimal", "money")
ORDERED = ("int", "decimal", "money", "text", "date", "time", "datetime", "duration", "email", "id")
KEYABLE = ("id", "text", "int", "email")


@attrs.frozen
class Prim:
    name: str

    def __str__(self) -> str:
        return self.name


@attrs.frozen
class Alias:
    """A nominal type: distinct from its base and from every other alias of the same base."""

    name: str
    base: "Type"

    def __str__(self) -> str:
        return self.name


@attrs.frozen
class EnumT:
    name: str
    members: tuple[str, ...]

    def __str__(self) -> str:
        return self.name


@attrs.define(eq=False)
class RecordT:
    """A record type; identity-compared because two services may each declare one of a name."""

    name: str
    service: str | None
    fields: dict[str, "Type"] = attrs.field(factory=dict)
    key: str | None = None
    defaults: dict[str, object] = attrs.field(factory=dict)

    def __str__(self) -> str:
        return self.name


@attrs.frozen
class ListT:
    elem: "Type"

    def __str__(self) -> str:
        return f"list[{self.elem}]"


@attrs.frozen
class TableT:
    record: RecordT

    def __str__(self) -> str:
        return f"table[{self.record}]"


@attrs.frozen
class NoneT:
    def __str__(self) -> str:
        return "nothing"


@attrs.frozen
class UnknownT:
    """The type of an expression that already produced an error; fits everywhere."""

    def __str__(self) -> str:
        return "unknown"


@attrs.frozen
class ServiceRef:
    """A service name used as a value, as in `billing.payments`."""

    name: str

    def __str__(self) -> str:
        return f"service {self.name}"


@attrs.frozen
class EnumRef:
    """An enum name used as a value, as in `MatterStatus.open`."""

    enum: EnumT

    def __str__(self) -> str:
        return f"enum {self.enum.name}"


Type = Prim | Alias | EnumT | RecordT | ListT | TableT | NoneT | UnknownT | ServiceRef | EnumRef

TEXT, INT, DECIMAL, MONEY, BOOL = Prim("text"), Prim("int"), Prim("decimal"), Prim("money"), Prim("bool")
DATE, TIME, DATETIME, EMAIL, ID, DURATION = Prim("date"), Prim("time"), Prim("datetime"), Prim("email"), Prim("id"), Prim("duration")
UNKNOWN = UnknownT()
NONE = NoneT()


def base_of(t: Type) -> Type:
    """Strip nominal aliases down to the structural type underneath."""
    while isinstance(t, Alias):
        t = t.base
    return t


def prim_name(t: Type) -> str | None:
    b = base_of(t)
    return b.name if isinstance(b, Prim) else None


def is_numeric(t: Type) -> bool:
    return prim_name(t) in NUMERIC


def is_ordered(t: Type) -> bool:
    return prim_name(t) in ORDERED


def fits(expected: Type, found: Type, *, literal: bool = False) -> bool:
    """May a value of type `found` be used where `expected` is required?

    Aliases widen to their base (a MatterId is an id) but never narrow, except for literals
    written in the source (`"MAT-1"` may stand for a MatterId). Ints widen to decimal and money;
    decimal and money are interchangeable; an email is a text.
    """
    if isinstance(expected, UnknownT) or isinstance(found, UnknownT):
        return True
    if expected == found:
        return True
    if isinstance(expected, RecordT) or isinstance(found, RecordT):
        return expected is found
    if isinstance(expected, ListT) and isinstance(found, ListT):
        return fits(expected.elem, found.elem, literal=literal)
    if isinstance(found, Alias):
        # an alias fits its own base chain
        t: Type = found
        while isinstance(t, Alias):
            t = t.base
            if t == expected:
                return True
        if isinstance(expected, Alias):
            return False
        return fits(expected, base_of(found))
    if isinstance(expected, Alias):
        return literal and fits(base_of(expected), found, literal=True)
    if isinstance(expected, Prim) and isinstance(found, Prim):
        e, f = expected.name, found.name
        if e in ("decimal", "money") and f in NUMERIC:
            return True
        if e == "text" and f in ("email", "id"):
            return True
        if e in ("email", "id") and f == "text":
            return literal
        return False
    return False


def comparable(a: Type, b: Type, *, literal_a: bool = False, literal_b: bool = False) -> bool:
    """May `a == b` ever be true? Either side must fit the other."""
    return fits(a, b, literal=literal_b) or fits(b, a, literal=literal_a)


def join(a: Type, b: Type) -> Type | None:
    """The common type of two branches, or None if they have none."""
    if fits(a, b):
        return a
    if fits(b, a):
        return b
    if is_numeric(a) and is_numeric(b):
        return DECIMAL
    return None
