"""Tool calls on compiled services: argument validation, typed errors, atomic effects, JSON results.
Generated code subclasses `Service` and uses the helpers here; nothing here knows a particular world."""

from __future__ import annotations

import re
import time
from fractions import Fraction
from typing import Any, Callable

import attrs

from . import values as V
from .state import Tx

MAX_CHAR = 0x2FFFF  # the largest character Z3's strings hold; text beyond it is refused
# `internal` and `timeout` are never raised by a world's own `require`: `internal` reports a
# defect in a tool or the runtime, `timeout` a call past its time limit (`TimeLimit`), each as an
# envelope and with no change of state, instead of a crash or a hung server. 408 is the code the
# MCP server already answers a request with when it runs out of time.
ERROR_CODES = {"invalid": 400, "forbidden": 403, "not_found": 404, "timeout": 408, "conflict": 409, "internal": 500}
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_UNSTORABLE = re.compile(f"[\ud800-\udfff{chr(MAX_CHAR + 1)}-\U0010ffff]")  # lone surrogates (no UTF-8), and past MAX_CHAR
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def printable_message(text: str) -> str:
    """A message that any client can write out: an agent's own text quoted back in it may hold
    lone surrogates, which UTF-8 cannot encode."""
    return text.encode("utf-8", "replace").decode("utf-8")


class ToolError(Exception):
    """A typed failure of a tool call; the call changes no state."""

    def __init__(self, kind: str, message: str):
        message = printable_message(message)
        super().__init__(message)
        self.kind = kind
        self.message = message

    @property
    def code(self) -> int:
        return ERROR_CODES[self.kind]


class TimeLimit:
    """One tool call's wall-clock budget (the gateway's `--call-timeout`). A call's deadline is
    any object with `check()`, which raises once the budget is spent, and `expired`: this one
    raises `ToolError(timeout)`, the sampler's `Deadline` its own error, which ends the attempt."""

    __slots__ = ("at", "seconds")

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def check(self) -> None:
        if time.monotonic() >= self.at:
            raise ToolError("timeout", f"the call ran past its time limit of {self.seconds:g} s; nothing changed")

    @property
    def expired(self) -> bool:
        return time.monotonic() >= self.at


# ─────────────────────────── type descriptors ───────────────────────────
# Generated code describes types as small strings: "text", "int", "money", "date", ...,
# "alias:MatterId:id", "enum:TaskState", "list:<type>", "record:<service>.<Record>".


def _bad(where: str, value: Any, expected: str) -> ToolError:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return ToolError("invalid", f"`{where}` must be {expected}, got {shown}")


# `Types.from_json` of each scalar base type: (base, JSON value, where) → internal value


def _read_text(b: str, value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _bad(where, value, "a string")
    if not value.isascii() and _UNSTORABLE.search(value):
        # lone surrogates cannot be written as UTF-8; Z3 holds nothing above U+2FFFF
        raise _bad(where, value, "text of Unicode characters up to U+2FFFF")
    if b == "email" and not _EMAIL.fullmatch(value):
        raise _bad(where, value, "an email address")
    return value


def _read_int(b: str, value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            return int(value)
        raise _bad(where, value, "an integer")
    if abs(value) > V.MAX_INT:
        raise _bad(where, value, f"an integer between -{V.MAX_INT} and {V.MAX_INT}")
    return value


def _read_decimal(b: str, value: Any, where: str) -> Fraction:
    # numbers only, as the schema says; a float goes through its shortest repr, so 0.1 is 1/10
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value in (float("inf"), float("-inf")):
        raise _bad(where, value, "a number")
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


def _read_bool(b: str, value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(where, value, "true or false")
    return value


def _read_date(b: str, value: Any, where: str) -> int:
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        raise _bad(where, value, "a date (YYYY-MM-DD)")
    try:
        return V.date_from_iso(value)
    except ValueError:
        raise _bad(where, value, "a real date") from None


def _read_moment(b: str, value: Any, where: str) -> int:
    expected = "a time (HH:MM)" if b == "time" else "a datetime (YYYY-MM-DDTHH:MM)"
    if not isinstance(value, str):
        raise _bad(where, value, expected)
    try:
        return V.time_from_iso(value) if b == "time" else V.datetime_from_iso(value)
    except ValueError:
        raise _bad(where, value, expected) from None


_READ = {
    **dict.fromkeys(("text", "id", "email"), _read_text),
    **dict.fromkeys(("int", "duration"), _read_int),
    **dict.fromkeys(("decimal", "money"), _read_decimal),
    "bool": _read_bool,
    "date": _read_date,
    **dict.fromkeys(("time", "datetime"), _read_moment),
}


# the scalar bases whose reading parses or matches a pattern (what `Types.from_json` keeps)
_PARSED = frozenset(("email", "decimal", "money", "date", "time", "datetime"))
_UNREAD = object()
READ_KEPT = 8192  # values `Types.from_json` keeps read (then it starts over)


@attrs.frozen
class Types:
    """The world's enums and records, so values can be converted to and from JSON."""

    enums: dict[str, tuple[str, ...]]
    records: dict[str, dict[str, str]]  # "service.Record" → field → type
    keys: dict[str, str | None]  # "service.Record" → key field
    # type → its base, and type → its `to_json` converter: filled on first use (the sampler
    # converts every result of every replayed call, hundreds per task)
    _bases: dict[str, str] = attrs.field(factory=dict, eq=False, hash=False, repr=False, init=False)
    _writers: dict[str, Callable[[Any], Any]] = attrs.field(factory=dict, eq=False, hash=False, repr=False, init=False)
    _checks: dict[str, Callable[[Any], None] | None] = attrs.field(factory=dict, eq=False, hash=False, repr=False, init=False)
    # (base, JSON class, JSON value) → internal value, for the scalars whose reading parses
    # (`_PARSED`): a look-alike's rows and a replay's arguments read the same dates and amounts
    # over and over. Only values read without error are kept; emptied past READ_KEPT
    _read: dict[tuple, Any] = attrs.field(factory=dict, eq=False, hash=False, repr=False, init=False)

    def base(self, t: str) -> str:
        got = self._bases.get(t)
        if got is None:
            got = t
            while got.startswith("alias:"):
                got = got.split(":", 2)[2]
            self._bases[t] = got
        return got

    def schema(self, t: str) -> dict:
        """JSON Schema for a value of type `t`."""
        b = self.base(t)
        if b in ("text", "id"):
            return {"type": "string"}
        if b == "email":
            return {"type": "string", "format": "email"}
        if b in ("int", "duration"):
            return {"type": "integer"}
        if b in ("decimal", "money"):
            return {"type": "number"}
        if b == "bool":
            return {"type": "boolean"}
        if b == "date":
            return {"type": "string", "format": "date"}
        if b == "time":
            return {"type": "string", "pattern": r"^\d{2}:\d{2}$"}
        if b == "datetime":
            return {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$"}
        if b.startswith("enum:"):
            return {"type": "string", "enum": list(self.enums[b[5:]])}
        if b.startswith("list:"):
            return {"type": "array", "items": self.schema(b[5:])}
        if b.startswith("record:"):
            fields = self.records[b[7:]]
            return {
                "type": "object",
                "properties": {f: self.schema(ft) for f, ft in fields.items()},
                "required": list(fields),
                "additionalProperties": False,
            }
        raise KeyError(t)

    def from_json(self, t: str, value: Any, where: str) -> Any:
        """Convert and validate one JSON value; raises ToolError(invalid) naming `where`."""
        b = self.base(t)
        read = _READ.get(b)
        if read is not None:  # a scalar: text, number, flag or moment
            if b not in _PARSED or value.__class__ not in (str, int, float):
                return read(b, value, where)
            key = (b, value.__class__, value)  # (the class too: 1 and 1.0 are equal keys)
            got = self._read.get(key, _UNREAD)
            if got is _UNREAD:
                got = read(b, value, where)  # (raises for a bad value: nothing kept)
                if len(self._read) >= READ_KEPT:
                    self._read.clear()
                self._read[key] = got
            return got
        if b.startswith("enum:"):
            members = self.enums[b[5:]]
            if value not in members:
                raise _bad(where, value, "one of " + ", ".join(members))
            return value
        if b.startswith("list:"):
            if not isinstance(value, list):
                raise _bad(where, value, "a list")
            return tuple(self.from_json(b[5:], v, f"{where}[{i}]") for i, v in enumerate(value))
        if b.startswith("record:"):
            fields = self.records[b[7:]]
            if not isinstance(value, dict):
                raise _bad(where, value, "an object")
            extra = set(value) - set(fields)
            if extra:
                raise ToolError("invalid", f"`{where}` has unknown field `{sorted(extra)[0]}`")
            missing = [f for f in fields if f not in value]
            if missing:
                raise ToolError("invalid", f"`{where}` lacks field `{missing[0]}`")
            return {f: self.from_json(ft, value[f], f"{where}.{f}") for f, ft in fields.items()}
        raise KeyError(t)

    def to_json(self, t: str, value: Any) -> Any:
        """An internal value of type `t` as JSON (None stays None)."""
        write = self._writers.get(t)
        if write is None:
            write = self._writers[t] = self._writer(t)
        return write(value)

    def _writer(self, t: str) -> Callable[[Any], Any]:
        """`to_json` for one type, decided once. A record's or list's parts are looked up when
        first converted, so a type that contains itself needs no special case."""
        b = self.base(t)
        scalar = {"decimal": V.decimal_to_json, "money": V.decimal_to_json, "date": V.date_to_iso, "time": V.time_to_iso, "datetime": V.datetime_to_iso}.get(b)
        if scalar is not None:
            return lambda v: None if v is None else scalar(v)
        to_json = self.to_json
        if b.startswith("list:"):
            elem = b[5:]
            return lambda v: None if v is None else [to_json(elem, x) for x in v]
        if b.startswith("record:"):
            fields = tuple(self.records[b[7:]].items())
            return lambda v: None if v is None else {f: to_json(ft, v[f]) for f, ft in fields}
        return lambda v: v

    def writable(self, t: str) -> Callable[[Any], None] | None:
        """What `to_json(t, ·)` would raise on a value, without writing it out: a function that
        raises exactly where `to_json` does, or None for a type whose values always write out.
        Only a decimal past a float's range or a moment past 9999 can fail, so only decimals,
        dates and datetimes are looked at, and only one outside the safe range (or not of its
        usual Python type) is written, to raise what writing it raises; no record or list is
        built. A record is assumed to hold its fields: the generated code builds records whole,
        as the type checker requires."""
        if t not in self._checks:
            self._checks[t] = None  # (a type that contains itself: its own part adds nothing)
            self._checks[t] = self._writable_check(t)
        return self._checks[t]

    def _writable_check(self, t: str) -> Callable[[Any], None] | None:
        b = self.base(t)
        if b in _SAFE:
            kind, lo, hi = _SAFE[b]
            write = self._writer(b)

            def one(v: Any) -> None:
                if v is not None and not (type(v) is kind and lo < v < hi):
                    write(v)

            return one
        if b.startswith("list:"):
            elem = self.writable(b[5:])
            if elem is None:
                return None

            def each(v: Any) -> None:
                if v is not None:
                    for x in v:
                        elem(x)

            return each
        if b.startswith("record:"):
            # (field, its Python type, the open range it writes out in, its writer) per field
            # that can fail; a nested record's or list's check where it holds one
            flat, nested = [], []
            for f, ft in self.records[b[7:]].items():
                fb = self.base(ft)
                if fb in _SAFE:
                    kind, lo, hi = _SAFE[fb]
                    flat.append((f, kind, lo, hi, self._writer(fb)))
                else:
                    c = self.writable(ft)
                    if c is not None:
                        nested.append((f, c))
            if not flat and not nested:
                return None

            def fields(v: Any) -> None:
                if v is None:
                    return
                for f, kind, lo, hi, write in flat:
                    x = v[f]
                    if x is not None and not (type(x) is kind and lo < x < hi):
                        write(x)
                for f, c in nested:
                    c(v[f])

            return fields
        return None


# Values that surely write out, by base type: (their Python type, an open range); a value
# outside it is written to find out (`Types.writable`). A float holds far more than 10^300.
_SAFE = {
    "date": (int, V.MIN_DAY - 1, V.MAX_DAY + 1),
    "datetime": (int, V.MIN_MINUTE - 1, V.MAX_MINUTE + 1),
    "decimal": (Fraction, -(10**300), 10**300),
    "money": (Fraction, -(10**300), 10**300),
}


# ─────────────────────────── tools and services ───────────────────────────


@attrs.frozen
class ToolSpec:
    name: str
    service: str
    description: str
    say: str | None
    params: tuple[tuple[str, str], ...]  # (name, type)
    defaults: dict[str, Any]  # param → internal default value
    result: str | None
    simulated: bool
    consumes: tuple[str, ...]
    produces: tuple[str, ...]
    source: str  # "file:line"
    method: str  # the Python method implementing it
    # elements a page holds when the tool answers agents a page at a time (`pages N`); None: whole
    pages: int | None = None

    @property
    def qualified(self) -> str:
        return f"{self.service}.{self.name}"


def tool(**spec) -> Callable:
    """Mark a generated method as a tool and attach its spec (read by `Service.__init_subclass__`)."""

    def mark(fn):
        fn.__tool_spec__ = spec
        return fn

    return mark


class Service:
    """Base class of generated services. Subclasses set `name`, `description`, `state` and tools."""

    name: str = ""
    description: str = ""
    source: str = ""
    tools: dict[str, ToolSpec] = {}
    # set by CompiledWorld: the world's simulator answers `simulated` tools
    simulator: "Simulator | None" = None
    # "tool" → tuple of (table, fields) the tool may modify, from its `modifies` lines
    modifies: dict = {}

    def simulate(self, tx: Tx, tool: str, args: dict) -> Any:
        if self.simulator is None:
            raise ToolError("forbidden", f"tool `{tool}` is simulated and no simulator is configured")
        return self.simulator.run(self, tx, self.tools[tool], args)

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        tools = {}
        for attr, fn in list(vars(cls).items()):
            spec = getattr(fn, "__tool_spec__", None)
            if spec is not None:
                ts = ToolSpec(service=cls.name, method=attr, **spec)
                tools[ts.name] = ts
        cls.tools = tools


# ─────────────────────────── helpers used by generated code ───────────────────────────


@attrs.frozen
class Constraint:
    """A world rule, compiled: `check(before, after)` returns the rows that must stay untouched
    (read from `before`) and whether each invariant holds (read from `after`). `orders` are
    (tool, after_tool, shared_args) rules about the call log."""

    name: str
    description: str
    source: str
    check: Callable
    orders: tuple = ()


def each(tx: Tx, items: Any) -> Any:
    """A loop's domain, once the call's deadline (`CompiledWorld.execute` puts it on `tx`) has been
    checked. Generated code starts every loop here: a long computation is loops nested in loops,
    and the inner one starts again for each step of the outer, so a budget checked once per pass
    of a loop bounds quantifiers, aggregates, filters and bulk writes at any depth, at a fraction
    of a microsecond a pass (a check per row would cost that for every row read)."""
    deadline = getattr(tx, "deadline", None)  # a plain `Tx` (rules, tests) has no budget
    if deadline is not None:
        deadline.check()
    return items


def lookup(tx: Tx, table: str, key: Any, record: str) -> dict:
    row = tx.get(table, key)
    if row is None:
        raise ToolError("not_found", f"no {record} {key}")
    return row


def list_at(items: tuple, i: int) -> Any:
    if not 0 <= i < len(items):
        raise ToolError("invalid", f"index {i} is outside a list of {len(items)}")
    return items[i]


class AddedRows(dict):
    """`added_rows(before, after, table)` by table, each found on first use: what a house rule's
    `untouched` clauses ask for every record a `forall` protects, found once a check."""

    def __init__(self, before: Tx, after: Tx):
        super().__init__()
        self.before, self.after = before, after

    def __missing__(self, table: str) -> list[dict]:
        got = self[table] = added_rows(self.before, self.after, table)
        return got


def added_rows(before: Tx, after: Tx, table: str) -> list[dict]:
    """The rows of `table` that `after` holds and `before` did not, in `after`'s order (what an
    `untouched` clause also protects: a row added that it would select). A table no call wrote
    is the same dict on both sides (states share unwritten tables), so that costs nothing."""
    new, old = after.table(table), before.table(table)
    if new is old:
        return []
    return [row for key, row in new.items() if key not in old]


def pick_extreme(rows: list, by: Callable, key: Callable, latest: bool, what: str) -> Any:
    """latest/earliest: the row with the largest/smallest `by`; ties go to the larger/smaller key."""
    if not rows:
        raise ToolError("not_found", f"no {what}")
    if latest:
        return max(rows, key=lambda r: (by(r), key(r)))
    return min(rows, key=lambda r: (by(r), key(r)))


def extreme(values: list, largest: bool, what: str) -> Any:
    if not values:
        raise ToolError("not_found", f"no {what}")
    return max(values) if largest else min(values)


def ordered(rows: list, by: Callable | None, key: Callable) -> tuple:
    """Filter results come in a fixed order: by `by` when given, then by key."""
    if by is None:
        return tuple(sorted(rows, key=key))
    return tuple(sorted(rows, key=lambda r: (by(r), key(r))))


def div(a, b, ints: bool):
    try:
        return V.int_div(a, b) if ints else V.dec_div(a, b)
    except V.DivisionByZero:
        raise ToolError("invalid", "division by zero") from None


def mod(a, b):
    try:
        return V.int_mod(a, b)
    except V.DivisionByZero:
        raise ToolError("invalid", "division by zero") from None


def text(value: Any, t: str, types: Types) -> str:
    """How a value reads inside a message or `format`: the JSON form, without quotes."""
    j = types.to_json(t, value)
    if isinstance(j, bool):
        return "true" if j else "false"
    if isinstance(j, list):
        return ", ".join(str(x) for x in j)
    return str(j)


def next_id(tx: Tx, table: str, prefix: str) -> str:
    """`prefix-N` from the table's counter. No search for a free number: the Z3 encoding
    mirrors this exactly, and a taken key is a `conflict` like any other insert."""
    return key_of(prefix, tx.bump(table))


def key_of(prefix: str, n: int) -> str:
    """The key the id generator gives the table's n-th row (`next_id`; the task checker tells
    generated keys from chosen ones by it)."""
    return f"{prefix}-{n}"


class Simulator:
    """Produces results (and declared modifications) for `simulated` tools.

    The default is deterministic: values derive from a hash of the tool and its arguments, so
    replays agree. An LLM-backed simulator can subclass this and override `result`.
    """

    def __init__(self, types: Types):
        self.types = types

    def run(self, service: Service, tx: Tx, spec: ToolSpec, args: dict) -> Any:
        import hashlib

        seed = hashlib.sha256(repr((spec.qualified, sorted((k, repr(v)) for k, v in args.items()))).encode()).hexdigest()
        for table, fields, key_type in service.modifies.get(spec.name, ()):
            # Modify the row named by an argument of the table's key type, if any.
            for (pname, ptype), value in zip(spec.params, args.values()):
                if ptype == key_type and tx.has(table, value):
                    row = dict(tx.get(table, value))
                    rec = self.types.records[table_record(self.types, table, row)]
                    for f in fields:
                        row[f] = self.value(rec[f], f"{seed}/{f}", spec)
                    tx.put(table, value, row)
                    break
        return self.result(spec, args, seed)

    def result(self, spec: ToolSpec, args: dict, seed: str) -> Any:
        return self.value(spec.result, seed, spec) if spec.result else None

    def value(self, t: str, seed: str, spec: ToolSpec) -> Any:
        b = self.types.base(t)
        n = int(seed[:8], 16)
        if b in ("text", "id"):
            return f"{spec.name.replace('_', ' ')} ({seed[:6]})"
        if b == "email":
            return f"sim-{seed[:6]}@example.com"
        if b in ("int", "duration"):
            return n % 100
        if b in ("decimal", "money"):
            return Fraction(n % 100000, 100)
        if b == "bool":
            return n % 2 == 0
        if b == "date":
            return 20089 + n % 365  # a day in 2025
        if b == "time":
            return (n % 48) * 30
        if b == "datetime":
            return (20089 + n % 365) * 1440 + (n % 48) * 30
        if b.startswith("enum:"):
            members = self.types.enums[b[5:]]
            return members[n % len(members)]
        if b.startswith("list:"):
            return (self.value(b[5:], seed[8:] + seed[:8], spec),)
        if b.startswith("record:"):
            fields = self.types.records[b[7:]]
            return {f: self.value(ft, f"{seed}/{f}", spec) for f, ft in fields.items()}
        raise KeyError(t)


def table_record(types: Types, table: str, row: dict) -> str:
    """The record name of a table's rows ("service.Record"), found by the row's fields."""
    service = table.split(".", 1)[0]
    for name, fields in types.records.items():
        if name.startswith(service + ".") and set(fields) == set(row):
            return name
    raise KeyError(table)
