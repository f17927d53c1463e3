"""Encode tools as Z3 transitions: pre-state and arguments → checks, post-state and result.
Mirrors the runtime's value semantics exactly (runtime/values.py); a differential test keeps them equal."""

from __future__ import annotations

import ctypes
import math
import operator
import re
import time
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs
import z3

from ..check import types as T
from ..check.model import Model, Service, Tool
from ..diagnostics import Span
from ..runtime import values as V
from ..runtime.state import State
from ..syntax import ast as A


class EncodingUnsupported(Exception):
    """A construct the Z3 encoding does not model (named, so callers can report it)."""


class OutOfTime(Exception):
    """The time budget of the work in progress ran out (raised by `Deadline.check`)."""


class Deadline:
    """A wall-clock budget, checked cooperatively: the encoder checks it once per row it expands
    (a nested quantifier over a large table is where encoding time goes), the sampler once per
    candidate and draw, and a Z3 check gets what is left as its `timeout`. Wall-clock time is not
    reproducible, so work that runs out is abandoned, never finished differently (decision D18).
    `Deadline()` never runs out."""

    __slots__ = ("at",)

    def __init__(self, seconds: float | None = None):
        self.at = time.monotonic() + seconds if seconds is not None else math.inf

    def check(self) -> None:
        if self.at != math.inf and time.monotonic() >= self.at:
            raise OutOfTime()

    @property
    def expired(self) -> bool:
        return time.monotonic() >= self.at

    def remaining_ms(self) -> int | None:
        """Milliseconds left (at least 1), or None when there is no limit."""
        if self.at == math.inf:
            return None
        return max(1, int((self.at - time.monotonic()) * 1000))

    def expire(self) -> None:
        """Run out now (an interrupt: the work in progress stops at its next check)."""
        self.at = -math.inf


# ─────────────────────────── fast connectives ───────────────────────────
# z3.And/Or/If coerce and sort-check every argument in Python, which made them most of the cost
# of encoding a walk. These build the same terms with one C call, and fold literal true/false
# (a concrete state's rows are mostly ground), falling back to z3's own for anything unusual.


def _unchecked(wrapper):
    """The C function behind a z3core wrapper, without the wrapper's second call to fetch an error
    code; the wrapper itself if this z3 build hides it. Only for pure queries on well-formed
    terms, which cannot fail (they run for nearly every term built)."""
    try:
        return wrapper.__defaults__[0].f
    except (AttributeError, IndexError, TypeError):
        return wrapper


_get_bool_value = _unchecked(z3.Z3_get_bool_value)
_is_numeral_ast = _unchecked(z3.Z3_is_numeral_ast)
_is_string = _unchecked(z3.Z3_is_string)


_get_sort = _unchecked(z3.Z3_get_sort)
_BOOLS: list = [None, None, None]  # (context, true, false) of the context last asked: `boolval`


def boolval(v: bool, ctx=None) -> z3.BoolRef:
    """z3.BoolVal(v, ctx), made once per context: the encoder asks for true and false some
    250 times an attempt, and each new Python wrapper costs two reference-count calls into Z3.
    One slot, the context last asked for (a new default context after `fresh_context` replaces
    it), so no old context is kept alive for long."""
    ctx = ctx if ctx is not None else z3.main_ctx()
    if _BOOLS[0] is not ctx:
        _BOOLS[:] = [ctx, z3.BoolVal(True, ctx), z3.BoolVal(False, ctx)]
    return _BOOLS[1] if v else _BOOLS[2]


def _same_sort(a, b) -> bool:
    """a.sort() == b.sort() without making either sort's wrapper (Z3 hash-conses sorts)."""
    return _get_sort(a.ctx_ref(), a.as_ast()).value == _get_sort(b.ctx_ref(), b.as_ast()).value


def _lit(a) -> int:
    """1 if `a` is the literal true, -1 if false, 0 otherwise (`boolval`'s own objects by
    identity, anything else in one C call)."""
    if a is _BOOLS[1]:
        return 1
    if a is _BOOLS[2]:
        return -1
    return _get_bool_value(a.ctx_ref(), a.as_ast())


def _bools(args) -> list | None:
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = args[0]
    return list(args) if all(isinstance(a, z3.BoolRef) for a in args) else None


def _junction(args, absorbing: int, mk, fallback):
    """And (absorbing = -1: a false argument decides) or Or (absorbing = 1), folding literals
    (Python's true and false as well as Z3's)."""
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        args = args[0]
    decides = absorbing > 0
    rest = None  # the arguments that are not Python's true or false, once one is met
    for i, a in enumerate(args):
        if a.__class__ is bool:
            if a is decides:
                return a
            if rest is None:
                rest = list(args[:i])
        elif rest is not None:
            rest.append(a)
    if rest is not None:
        if not rest:
            return not decides
        if len(rest) == 1:
            return rest[0]
        args = rest
    bs = _bools(args)
    if bs is None:
        return fallback(*args)
    kept = []
    for a in bs:
        v = _lit(a)
        if v == absorbing:
            return a
        if v == 0:
            kept.append(a)
    if not kept:
        return boolval(absorbing < 0, bs[0].ctx) if bs else boolval(absorbing < 0)
    if len(kept) == 1:
        return kept[0]
    ctx = kept[0].ctx
    return z3.BoolRef(mk(ctx.ref(), len(kept), (z3.Ast * len(kept))(*[a.as_ast() for a in kept])), ctx)


def _and(*args):
    return _junction(args, -1, z3.Z3_mk_and, z3.And)


def _or(*args):
    return _junction(args, 1, z3.Z3_mk_or, z3.Or)


def _not(a):
    if isinstance(a, bool):
        return not a
    if not isinstance(a, z3.BoolRef):
        return z3.Not(a)
    v = _lit(a)
    if v:
        return boolval(v < 0, a.ctx)
    return z3.BoolRef(z3.Z3_mk_not(a.ctx_ref(), a.as_ast()), a.ctx)


def _is_value(x) -> bool:
    """Is `x` a literal (number, string, true/false)? A few C calls, no term built."""
    if not isinstance(x, z3.ExprRef):
        return False
    ctx, ast = x.ctx_ref(), x.as_ast()
    return bool(_is_numeral_ast(ctx, ast) or _is_string(ctx, ast) or _get_bool_value(ctx, ast))


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _folded(r, *operands):
    """`r`, reduced to a literal when every operand is one: a concrete state's rows compared with
    a concrete argument fold away here, and the connectives above fold with them (true and false
    as `boolval`'s objects, which `_lit` knows by identity). A Python literal is one already."""
    if _is_lit(r) or not all(_is_value(o) for o in operands):
        return r
    r = z3.simplify(r)
    if isinstance(r, z3.BoolRef):
        v = _get_bool_value(r.ctx_ref(), r.as_ast())
        if v:
            return boolval(v > 0, r.ctx)
    return r


def _eq(a, b):
    """a == b, decided on the spot when both are literals (a key lookup in a concrete table)."""
    if _is_lit(a) or _is_lit(b):
        return cmp("==", a, b)
    if _is_value(a) and _is_value(b) and _same_sort(a, b):  # (an int and a real: z3 compares by value)
        return boolval(a.eq(b), a.ctx)  # literals are hash-consed: equal values are one term
    return a == b


def _ite(c, a, b):
    if isinstance(c, bool):
        return a if c else b
    la, lb = _is_lit(a), _is_lit(b)
    if la or lb:
        if la and lb and type(a) is type(b) and a == b:
            return a
        if la and lb and not (type(a) is int and type(b) is int):  # (z3.If takes two ints, as `count` builds it)
            a, b = _z(a), _z(b)
        else:
            a, b = _both(a, b)
    if isinstance(c, z3.BoolRef) and isinstance(a, z3.ExprRef) and isinstance(b, z3.ExprRef):
        v = _lit(c)
        if v > 0:
            return a
        if v < 0:
            return b
        if a.eq(b):
            return a
        if _same_sort(a, b):  # (z3.If would coerce, e.g. an int into a real)
            return z3.z3._to_expr_ref(z3.Z3_mk_ite(c.ctx_ref(), c.as_ast(), a.as_ast(), b.as_ast()), c.ctx)
    return z3.If(c, a, b)


# ─────────────────────────── Python literals ───────────────────────────
# A symbolic state made with `python=True` (the proofs whose answer is only sat or unsat) holds
# its ground values as Python literals: bool, int (int, date, time, datetime, duration),
# Fraction (decimal, money) and str. Operations on two literals are computed here, with
# SMT-LIB's semantics (integer `div` and `mod` are Euclidean), so the ground part of a walk
# folds without a single Z3 call; a literal meets a Z3 term only where something is symbolic,
# and is made a Z3 literal there (`_z`). A state made without it holds Z3 literals, and every
# helper's Z3 path builds exactly the terms it always did: the questions whose model becomes
# part of a task (`bindings._z3_bind`) are unchanged term for term (decision D39).


def _py_text(v) -> str:
    s = v if type(v) is str else str(v)
    if not s.isascii() and any(ord(c) > MAX_CHAR for c in s):
        raise EncodingUnsupported("a character above U+2FFFF")
    return s


def _py_int(v) -> int:
    return v if type(v) is int else int(v)


def _py_fraction(v) -> Fraction:
    return v if type(v) is Fraction else Fraction(v)


# a runtime value as the Python literal of its primitive type (text, ids, emails, enums: `_py_text`)
_PY_LITERAL = {
    "decimal": _py_fraction, "money": _py_fraction, "bool": bool,
    **dict.fromkeys(("int", "date", "time", "datetime", "duration"), _py_int),
}


_LITERALS = frozenset((bool, int, Fraction, str))
_SORTS = {"str": z3.StringSort, "int": z3.IntSort, "real": z3.RealSort, "bool": z3.BoolSort}  # a literal's kind → its sort


def _is_lit(x) -> bool:
    """A Python literal of the encoding (bool, int, Fraction or str)."""
    return x.__class__ in _LITERALS


_LIFTED: list = [None, {}]  # (context, {(type, value): its Z3 literal}) of the context last asked: `_z`


def _z(x):
    """`x` as a Z3 term: a Python literal becomes the Z3 literal of its sort. Made once per
    context (as `WorldEncoding.value` keeps the literals of a Z3-literal state): a symbolic
    argument meets the same row values again and again, and each new wrapper is a call into Z3."""
    cls = x.__class__
    if cls is bool:
        return boolval(x)
    if cls not in _LITERALS:
        return x
    ctx = z3.main_ctx()
    if _LIFTED[0] is not ctx or len(_LIFTED[1]) > 100_000:
        _LIFTED[:] = [ctx, {}]
    key = (cls, x)
    hit = _LIFTED[1].get(key)
    if hit is None:
        if cls is int:
            hit = z3.IntVal(x)
        elif cls is Fraction:
            hit = z3.RealVal(f"{x.numerator}/{x.denominator}")
        else:
            hit = zstr(x)
        _LIFTED[1][key] = hit
    return hit


def _both(a, b):
    """(a, b), with a Python literal made a Z3 term when the other is one: the literal of its own
    sort (an int-typed value is an integer literal, as `WorldEncoding.value` makes it, and Z3
    then converts it beside a real term exactly as it did before)."""
    la, lb = _is_lit(a), _is_lit(b)
    if la and not lb:
        return _z(a), b
    if lb and not la:
        return a, _z(b)
    return a, b


def smt_div(a: int, b: int) -> int:
    """SMT-LIB's integer `div` (Euclidean: the remainder is never negative); 0 for b = 0, where
    SMT-LIB leaves it free and the encoder records the division-by-zero check."""
    if b == 0:
        return 0
    return (a - a % abs(b)) // b


def smt_mod(a: int, b: int) -> int:
    return a % abs(b) if b else 0


def _div(a, b):
    """a / b for an integer term and a constant divisor: SMT `div` on two literals, Z3's `/`
    otherwise (which makes the constant a literal of the term's sort, as it always did)."""
    if isinstance(a, int) and isinstance(b, int):
        return smt_div(a, b)
    return a / b


def cmp(op: str, a, b):
    """`a op b` for a comparison: computed on two literals, a Z3 term otherwise."""
    if _is_lit(a) and _is_lit(b):
        return _COMPARE[op](a, b)
    a, b = _both(a, b)
    return _COMPARE[op](a, b)


def _neq(a, b):
    return cmp("!=", a, b)


def _implies(a, b):
    if isinstance(a, bool):
        return b if a else True
    if isinstance(b, bool) and b:
        return True
    return z3.Implies(a, _z(b))


def _sum(terms: list, zero):
    """The sum of `terms` (`zero`, a literal of the sum's sort, when there are none). The
    literal terms are added in Python and Z3 gets one constant for them: a count over a table
    whose rows the filter decides one by one (210 meeting invitations, of which a booking's
    meeting has eight) is mostly literal 0s, and coercing each into Z3 was most of a 5-hop
    office attempt's proof of `rooms_fit_meetings`."""
    if not terms:
        return zero
    lits = [t for t in terms if _is_lit(t)]
    if len(lits) == len(terms):
        return sum(terms, zero)
    syms = [_z(t) for t in terms if not _is_lit(t)]
    if lits:  # (`zero` may be a Z3 literal, so the constant is kept even where it is 0)
        base = sum(lits, zero)
        if not (_is_lit(base) and base == 0):
            syms.append(_z(base))
    return syms[0] if len(syms) == 1 else z3.Sum(syms)


def _concat(*parts):
    if all(isinstance(p, str) for p in parts):
        return "".join(parts)
    return z3.Concat(*[_z(p) for p in parts])


def _int_to_str(n):
    """Z3's str.from_int: the digits of a non-negative number, "" for a negative one."""
    if isinstance(n, int):
        return str(n) if n >= 0 else ""
    return z3.IntToStr(n)


def is_true(x) -> bool:
    """Is `x` the literal true (Python's or Z3's)?"""
    return x is True if isinstance(x, bool) else z3.is_true(x)


def is_false(x) -> bool:
    return x is False if isinstance(x, bool) else z3.is_false(x)


def asserted(x) -> z3.BoolRef:
    """`x` as something a solver can take (a Python literal becomes Z3's)."""
    return _z(x)


# ─────────────────────────── symbolic values ───────────────────────────


@attrs.define
class Slot:
    present: z3.BoolRef
    fields: dict[str, Any]


def _same_term(a, b) -> bool:
    """The same value: one object, or structurally equal Z3 terms (one C call)."""
    if a is b:
        return True
    if _is_lit(a) or _is_lit(b):
        return type(a) is type(b) and a == b
    return isinstance(a, z3.AstRef) and isinstance(b, z3.AstRef) and a.eq(b)


def _same_slot(a: "Slot", b: "Slot") -> bool:
    return a is b or (_same_term(a.present, b.present) and all(_same_term(v, b.fields[f]) for f, v in a.fields.items()))


@attrs.define
class SymState:
    """Tables of slots, scalars and id counters as Z3 terms.

    Copies share slot lists until one side writes a table (`writable`), so encoding a tool
    costs what the tool touches, not the size of the world."""

    tables: dict[str, list[Slot]]
    scalars: dict[str, Any]
    counters: dict[str, Any]
    python: bool = False  # ground values are Python literals (`state_from(python=True)`)
    _owned: set = attrs.field(factory=set, repr=False)

    def copy(self) -> "SymState":
        self._owned = set()  # from now on both copies share every table
        def dup(d):
            return d.copy() if isinstance(d, LazyMap) else dict(d)

        return SymState(dup(self.tables), dup(self.scalars), dup(self.counters), self.python)

    def writable(self, table: str) -> list[Slot]:
        if table not in self._owned:
            self.tables[table] = [Slot(s.present, dict(s.fields)) for s in self.tables[table]]
            self._owned.add(table)
        return self.tables[table]


class LazyMap(dict):
    """The tables (or scalars, or id counters) of a symbolic state made from a concrete one: each
    is built on first use, so a walk over three tables of a 448-service world pays for three.

    A table missing here was never written (writes go through `SymState.writable`, which reads
    it first), so building it from the concrete state is right for every copy."""

    def __init__(self, data: dict, names: frozenset, build):
        super().__init__(data)
        self.names = names
        self.build = build

    def __missing__(self, name: str) -> Any:
        if name not in self.names:
            raise KeyError(name)
        value = self[name] = self.build(name)
        return value

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def copy(self) -> "LazyMap":
        return LazyMap(self, self.names, self.build)


@attrs.define
class SymList:
    """A list whose membership is symbolic: (condition, value, sort key or None) per candidate."""

    items: list[tuple[Any, Any, tuple | None]]


@attrs.frozen
class Check:
    """One way a call can fail, in evaluation order; `fails` is true exactly when it fails here."""

    label: str
    kind: str
    fails: Any
    span: Span


@attrs.define
class Transition:
    tool: str
    checks: list[Check]
    post: SymState
    result: Any
    overflow: Any  # true when an insert found no free slot: the bound was too small
    fresh: list  # free variables a simulated tool introduces
    assumptions: list = attrs.field(factory=list)  # what a simulator's answer satisfies (its `ensures`)

    def contract(self):
        """A simulated tool's answer keeps its `ensures` whenever the call succeeds."""
        return _implies(self.ok, _and(self.assumptions)) if self.assumptions else boolval(True)

    @property
    def ok(self):
        return _and([_not(c.fails) for c in self.checks]) if self.checks else boolval(True)

    def error_kind(self):
        """A string term: "" when the call succeeds, else the kind of the first failing check."""
        term = z3.StringVal("")
        for c in reversed(self.checks):
            term = _ite(c.fails, z3.StringVal(c.kind), term)
        return term


MAX_CHAR = 0x2FFFF  # Z3's unicode strings stop here; the runtime refuses text beyond it too
_PLAIN = re.compile(r"[ -\[\]-~]*\Z")  # printable ASCII without a backslash: nothing to escape


def zstr(value: str) -> z3.SeqRef:
    """A Z3 string constant holding exactly `value` (escapes everything Z3 would interpret)."""
    if _PLAIN.match(value):  # nothing to escape: straight to the C API (z3.StringVal rescans it)
        ctx = z3.main_ctx()
        return z3.SeqRef(z3.Z3_mk_string(ctx.ref(), value), ctx)
    if any(ord(c) > MAX_CHAR for c in value):
        raise EncodingUnsupported("a character above U+2FFFF")
    return z3.StringVal("".join(c if 32 <= ord(c) < 127 and c != "\\" else f"\\u{{{ord(c):x}}}" for c in value))


def pystr(v: z3.SeqRef) -> str:
    """The exact Python string of a Z3 string value (by code points, no escape parsing)."""
    ctx, ast = v.ctx_ref(), v.as_ast()
    n = z3.Z3_get_string_length(ctx, ast)
    buf = (ctypes.c_uint * n)()
    z3.Z3_get_string_contents(ctx, ast, n, buf)
    return "".join(map(chr, buf))


class LazyRecord(Mapping):
    """A record chosen among candidates (a key lookup, `latest`): each field's If-chain is built
    on first access, so a rule that reads one field of the latest note pays for one field."""

    def __init__(self, base: Mapping, picks: list):
        self.base = base
        self.picks = picks  # (condition, record): later picks win, as in a fold of merges
        self._fields: dict = {}

    def __getitem__(self, f):
        if f not in self._fields:
            v = self.base[f]
            for c, rec in self.picks:
                v = merge(c, rec[f], v)
            self._fields[f] = v
        return self._fields[f]

    def __iter__(self):
        return iter(self.base)

    def __len__(self):
        return len(self.base)


def merge(c, a, b):
    """If c then a else b, for terms, records (mappings) and symbolic lists."""
    if isinstance(a, Mapping):
        return {f: merge(c, a[f], b[f]) for f in a}
    if isinstance(a, SymList) or isinstance(b, SymList):
        items = [(_and(c, ca), va, ka) for ca, va, ka in a.items] + [(_and(_not(c), cb), vb, kb) for cb, vb, kb in b.items]
        return SymList(items)
    return _ite(c, a, b)


def _fold(first, picks):
    v = first
    for c, x in picks:
        v = merge(c, x, v)
    return v


def lex_less(a: tuple, b: tuple):
    """(a1, a2, ...) < (b1, b2, ...) lexicographically, as a Z3 boolean."""
    if not a:
        return boolval(False)
    if len(a) == 1 and (_is_lit(a[0]) or _is_lit(b[0])):
        return cmp("<", a[0], b[0])  # (what the line below folds to, without a Z3 literal)
    return _or(cmp("<", a[0], b[0]), _and(_eq(a[0], b[0]) if _is_lit(a[0]) or _is_lit(b[0]) else a[0] == b[0], lex_less(a[1:], b[1:])))


def fresh_context() -> None:
    """Start a new default Z3 context. Z3's models can depend on every term a context has ever
    seen, so where a model becomes output, the question is asked in a fresh context (~4 ms; see
    decision D15). Terms from before must not be used afterwards."""
    import z3.z3 as z3_internals

    z3_internals._main_ctx = z3.Context()


_STRING_FUNCS = {"lower": V.lower, "upper": V.upper, "trim": V.trim}


def string_func(name: str, s):
    """lower/upper/trim. On a ground string Z3 gets the exact value (computed by the runtime's own
    function); on a symbolic one, an uninterpreted function. That over-approximates: an `unsat`
    stays sound, and a `sat` witness is replayed on the Python services before it is trusted.
    (Z3's seq.map does not reduce on ground strings, and str.replace_all crashes this binding.)"""
    if isinstance(s, str):
        return _STRING_FUNCS[name](s)
    g = s if _is_value(s) else z3.simplify(s)  # a literal already (a concrete row): no simplify
    if z3.is_string_value(g):
        return zstr(_STRING_FUNCS[name](pystr(g)))
    return z3.Function(f"{name}_ascii", z3.StringSort(), z3.StringSort())(s)


def _pad2(n):
    if isinstance(n, int):
        return _concat("0", _int_to_str(n)) if n < 10 else _int_to_str(n)
    return _ite(n < 10, z3.Concat(z3.StringVal("0"), z3.IntToStr(n)), z3.IntToStr(n))


def civil_from_days(z):
    """(year, month, day) of a day number, with the same integer steps in Z3 as the calendar."""
    z = z + 719468
    era = _div(z, 146097)  # SMT div floors for positive divisors, like Python's //
    doe = z - era * 146097
    yoe = _div(doe - _div(doe, 1460) + _div(doe, 36524) - _div(doe, 146096), 365)
    y = yoe + era * 400
    doy = doe - (365 * yoe + _div(yoe, 4) - _div(yoe, 100))
    mp = _div(5 * doy + 2, 153)
    d = doy - _div(153 * mp + 2, 5) + 1
    m = _ite(mp < 10, mp + 3, mp - 9)  # (a Python int compares natively, a Z3 term builds `<`)
    return _ite(m <= 2, y + 1, y), m, d


# ─────────────────────────── the encoder ───────────────────────────


class WorldEncoding:
    """Sorts, state conversion and tool encoding for one checked world."""

    def __init__(self, model: Model):
        self.model = model
        world = model.world
        self.service_names = list(world.services) if world else list(model.services)
        self.tables: dict[str, T.RecordT] = {}
        self.scalars: dict[str, T.Type] = {}
        for s in self.service_names:
            for var in model.services[s].state.values():
                if isinstance(var.type, T.TableT):
                    self.tables[f"{s}.{var.name}"] = var.type.record
                else:
                    self.scalars[f"{s}.{var.name}"] = var.type
        self._table_names = frozenset(self.tables)
        self._scalar_names = frozenset(self.scalars)
        self._literals: dict = {}  # (kind, value) → its Z3 constant, in `_literals_ctx` (`value`)
        self._literals_ctx = None
        self._values: dict[int, tuple[str, Any]] = {}  # a cached constant's term address → (kind, value)
        self._probes: dict = {}  # (id of a `where`, its variable) → (node, `key_probe`)
        self._py_rows: dict[str, list] = {}  # table → its fields' Python-literal converters

    # sorts and values

    def sort(self, t: T.Type):
        return _SORTS[self._kind(t)]()

    def value(self, t: T.Type, v: Any, python: bool = False):
        """A Z3 constant for an internal runtime value (with `python`, its Python literal)."""
        b = T.base_of(t)
        if isinstance(b, T.ListT):
            return SymList([(True if python else boolval(True), self.value(b.elem, x, python), None) for x in v])
        if isinstance(b, T.RecordT):
            return {f: self.value(ft, v[f], python) for f, ft in b.fields.items()}
        p = T.prim_name(t)
        if python:
            return _PY_LITERAL.get(p, _py_text)(v)
        if p in ("decimal", "money"):
            key = ("real", Fraction(v))
        elif p == "bool":
            key = ("bool", bool(v))
        elif p in ("int", "date", "time", "datetime", "duration"):
            key = ("int", int(v))
        else:
            key = ("str", str(v))
        # Z3 hash-conses terms, so a constant made twice is one term: reusing the Python object
        # changes nothing Z3 sees, and saves most of a seeded state's image (the same names,
        # dates and amounts in row after row). Kept per context: `fresh_context` starts over.
        ctx = z3.main_ctx()
        if self._literals_ctx is not ctx or len(self._literals) > 100_000:
            self._literals, self._literals_ctx, self._values = {}, ctx, {}
        hit = self._literals.get(key)
        if hit is None:
            kind, x = key
            if kind == "real":
                hit = z3.RealVal(f"{x.numerator}/{x.denominator}")
            elif kind == "bool":
                hit = z3.BoolVal(x)
            elif kind == "int":
                hit = z3.IntVal(x)
            else:
                hit = zstr(x)
            self._literals[key] = hit
            self._values[hit.ast.value] = key  # the cache keeps the term alive: its address is its own
        return hit

    def eq(self, a, b):
        """`_eq`, decided from the Python values when both are literals of one kind made here (a
        key compared with every key of a concrete table)."""
        if a.__class__ in _LITERALS and b.__class__ in _LITERALS:
            return a == b
        got = self.decided("==", a, b)
        return got if got is not None else _eq(a, b)

    def decided(self, op: str, a, b) -> z3.BoolRef | None:
        """`a op b` (a comparison) as the literal Z3's `simplify` would give, decided on the Python
        values when both are literals of one kind made here (numbers; for `==`/`!=` any kind);
        None when it is not so decided."""
        if a.__class__ in _LITERALS and b.__class__ in _LITERALS:
            return _COMPARE[op](a, b)  # (an int and a Fraction compare by value, as in Z3)
        la = self.literal_value(a)
        if la is None:
            return None
        lb = self.literal_value(b)
        if lb is None or la[0] != lb[0] or not (la[0] in ("int", "real") or op in ("==", "!=")):
            return None
        return boolval(_COMPARE[op](la[1], lb[1]), a.ctx)

    def key_probe(self, where: A.Expr | None, var: str) -> tuple[str, A.Expr] | None:
        """For a `where` whose first conjunct is `var.f == e` (or `e == var.f`), e not reading
        `var`, and whose every part is pure (adds no check when evaluated: no lookup by key, no
        arithmetic, no `latest`, no call): (f, e). `_filtered` then decides most rows of a ground
        table from the literals alone. Cached per node: the same `where` is met row after row."""
        if where is None:
            return None
        k = (id(where), var)
        if k not in self._probes:
            self._probes[k] = (where, _key_probe(where, var))  # (the node: ids are not reused while it lives)
        return self._probes[k][1]

    def literal_value(self, term) -> tuple[str, Any] | None:
        """(kind, Python value) of a literal `value` made in this context, by its term's address
        (any wrapper of the same literal has it: Z3 hash-conses terms); None for anything else."""
        if _is_lit(term):
            return ("bool", term) if isinstance(term, bool) else ("int", term) if isinstance(term, int) else ("real", term) if isinstance(term, Fraction) else ("str", term)
        if self._literals_ctx is not z3.main_ctx() or not isinstance(term, z3.ExprRef):
            return None
        return self._values.get(term.ast.value)

    def var(self, t: T.Type, name: str):
        b = T.base_of(t)
        if isinstance(b, T.RecordT):
            return {f: self.var(ft, f"{name}.{f}") for f, ft in b.fields.items()}
        return z3.Const(name, self.sort(t))

    def domain(self, t: T.Type, term) -> z3.BoolRef:
        """What a well-formed value of type `t` satisfies (enum members, clock ranges)."""
        b = T.base_of(t)
        if isinstance(b, T.RecordT):
            return _and([self.domain(ft, term[f]) for f, ft in b.fields.items()])
        if _is_lit(term):
            if isinstance(b, T.EnumT):
                return term in b.members
            if T.prim_name(t) == "time":
                return 0 <= term < V.MINUTES_PER_DAY
            return True
        if isinstance(b, T.EnumT):
            return _or([term == z3.StringVal(m) for m in b.members])
        if T.prim_name(t) == "time":
            return _and(term >= 0, term < V.MINUTES_PER_DAY)
        return boolval(True)

    def state_from(self, st: State, spare: int | Mapping[str, int] = 2, deadline: Deadline | None = None, python: bool = False) -> SymState:
        """The Z3 image of a concrete state, with `spare` empty slots per table for inserts (one
        number for every table, or a number per table: absent tables get none).
        Tables, scalars and counters are built when first read (`LazyMap`), from a snapshot
        taken now. With `python`, ground values are Python literals: what only a sat or unsat
        answer is asked of folds in Python (see "Python literals" above)."""
        st = st.snapshot()
        budget = deadline or Deadline()  # the caller's: tables are built when first read, maybe later

        built: dict[str, list[Slot]] = {}  # shared by every copy: slots are copied before a write

        def build(name: str) -> list[Slot]:
            if name in built:
                return built[name]
            rec = self.tables[name]
            if name not in st.tables:  # a partially seeded state that lacks a table its user reads
                raise EncodingUnsupported(f"table `{name}` is not in the state")
            slots = []
            present, absent = (True, False) if python else (boolval(True), boolval(False))
            if python:
                convert = self._python_row(name)
                for row in st.tables[name].values():
                    budget.check()
                    slots.append(Slot(True, {f: c(row[f]) for f, c in convert}))
            for row in () if python else st.tables[name].values():
                budget.check()
                slots.append(Slot(present, {f: self.value(ft, row[f], python) for f, ft in rec.fields.items()}))
            for _ in range(spare if isinstance(spare, int) else spare.get(name, 0)):
                slots.append(Slot(absent, {f: self._blank(ft, python) for f, ft in rec.fields.items()}))
            built[name] = slots
            return slots

        tables = LazyMap({}, self._table_names, build)
        scalars = LazyMap({}, self._scalar_names, lambda n: self.value(self.scalars[n], st.scalars[n], python))
        counters = LazyMap({}, self._table_names, lambda n: st.counters.get(n, 1) if python else z3.IntVal(st.counters.get(n, 1)))
        return SymState(tables, scalars, counters, python)

    def _python_row(self, table: str) -> list:
        """(field, converter to its Python literal) for the rows of `table`, made once."""
        got = self._py_rows.get(table)
        if got is None:
            got = self._py_rows[table] = [(f, self._python_of(ft)) for f, ft in self.tables[table].fields.items()]
        return got

    def _python_of(self, t: T.Type):
        b = T.base_of(t)
        if isinstance(b, (T.ListT, T.RecordT)):
            return lambda v: self.value(t, v, True)
        return _PY_LITERAL.get(T.prim_name(t), _py_text)

    def _blank(self, t: T.Type, python: bool = False):
        if python:
            return {"str": "", "bool": False, "real": Fraction(0), "int": 0}[self._kind(t)]
        s = self.sort(t)
        if s == z3.StringSort():
            return z3.StringVal("")
        if s == z3.BoolSort():
            return boolval(False)
        if s == z3.RealSort():
            return z3.RealVal(0)
        return z3.IntVal(0)

    def concrete_state(self, sym: SymState, model: z3.ModelRef | None = None, only: set[str] | None = None) -> State:
        """Evaluate a symbolic state back into a runtime State (ground terms, or under a model).
        `only` limits the work to some tables (the others come back empty)."""
        st = State()
        for name, rec in self.tables.items():
            if only is not None and name not in only:
                continue
            rows = {}
            for slot in sym.tables[name]:
                if not self.concrete(T.BOOL, slot.present, model):
                    continue
                row = {f: self.concrete(ft, slot.fields[f], model) for f, ft in rec.fields.items()}
                rows[row[rec.key]] = row
            st.tables[name] = rows
        for n, t in self.scalars.items():
            st.scalars[n] = self.concrete(t, sym.scalars[n], model)
        for n in self.tables:
            st.counters[n] = self.concrete(T.INT, sym.counters[n], model)
        return st

    def _kind(self, t: T.Type) -> str:
        """The kind of Python literal that stands for a value of `t`, which names its Z3 sort
        (`sort`); raises `EncodingUnsupported` for a type no sort holds."""
        p = T.prim_name(t)
        if p in ("text", "id", "email"):
            return "str"
        if p in ("int", "date", "time", "datetime", "duration"):
            return "int"
        if p in ("decimal", "money"):
            return "real"
        if p == "bool":
            return "bool"
        if isinstance(T.base_of(t), T.EnumT):
            return "str"
        raise EncodingUnsupported(f"no Z3 sort for `{t}`")

    def concrete(self, t: T.Type, term, model: z3.ModelRef | None = None):
        if _is_lit(term):
            return term
        b = T.base_of(t)
        if isinstance(b, T.RecordT):
            return {f: self.concrete(ft, term[f], model) for f, ft in b.fields.items()}
        if isinstance(term, SymList):
            kept = []
            for cond, v, key in term.items:
                if self.concrete(T.BOOL, cond, model):
                    k = tuple(self.concrete(None, x, model) for x in key) if key is not None else None
                    kept.append((k, self.concrete(b.elem if isinstance(b, T.ListT) else T.UNKNOWN, v, model)))
            if kept and kept[0][0] is not None:
                kept.sort(key=lambda kv: kv[0])
            return tuple(v for _, v in kept)
        v = model.eval(term, model_completion=True) if model is not None else z3.simplify(term)
        if z3.is_true(v):
            return True
        if z3.is_false(v):
            return False
        if z3.is_int_value(v):
            return v.as_long()
        if z3.is_rational_value(v):
            return Fraction(v.numerator_as_long(), v.denominator_as_long())
        if z3.is_string_value(v):
            return pystr(v)
        raise EncodingUnsupported(f"term did not reduce to a value: {v}")

    # tools

    def encode(self, tool: Tool, pre: SymState, args: dict[str, Any], deadline: Deadline | None = None) -> Transition:
        """One call of `tool` from `pre`; `deadline`, the caller's budget, is checked once per row expanded."""
        return _ToolEncoder(self, self.model.services[tool.service], tool, deadline).run(pre, args)


_ROW = "\0row"  # env key of the implicit row (not a valid name, so it never clashes)
_UNSET = object()
_PURE_OPS = frozenset(("==", "!=", "<", "<=", ">", ">=", "and", "or", "implies", "in", "not in", "contains"))


def _pure(e: A.Expr) -> bool:
    """Does evaluating `e` never add a check (`_ToolEncoder.fail`)? Names, fields, literals,
    comparisons, connectives, membership, conditionals and quantifiers over pure parts;
    arithmetic (a date out of range), lookups by key, `latest`/`min`/... and calls are not."""
    if isinstance(e, (A.Literal, A.Var)):
        return True
    if isinstance(e, A.Field):
        return _pure(e.obj)
    if isinstance(e, A.Unary):
        return e.op == "not" and _pure(e.operand)
    if isinstance(e, A.Binary):
        return e.op in _PURE_OPS and _pure(e.left) and _pure(e.right)
    if isinstance(e, A.Cond):
        return _pure(e.test) and _pure(e.then) and _pure(e.else_)
    if isinstance(e, A.ListLit):
        return all(_pure(i) for i in e.items)
    if isinstance(e, A.Quant):
        return _pure(e.domain) and (e.where is None or _pure(e.where)) and (e.body is None or _pure(e.body))
    return False


def _reads(e: A.Expr, name: str) -> bool:
    """Does `e` mention the name `name` anywhere (conservatively: any `Var` of that name)?"""
    return any(isinstance(n, A.Var) and n.name == name for n in A.walk(e))


def _key_probe(where: A.Expr, var: str) -> tuple[str, A.Expr] | None:
    if not _pure(where):
        return None
    first = where
    while isinstance(first, A.Binary) and first.op == "and":
        first = first.left
    if not isinstance(first, A.Binary) or first.op != "==":
        return None
    for mine, other in ((first.left, first.right), (first.right, first.left)):
        if isinstance(mine, A.Field) and isinstance(mine.obj, A.Var) and mine.obj.name == var and not _reads(other, var):
            return mine.name, other
    return None


class _ToolEncoder:
    def __init__(self, enc: WorldEncoding, svc: Service, tool: Tool, deadline: Deadline | None = None):
        self.enc = enc
        self.deadline = deadline or Deadline()  # the caller's budget: the encoder is shared, budgets are not
        self.model = enc.model
        self.svc = svc
        self.tool = tool
        self.checks: list[Check] = []
        self.overflow = boolval(False)
        self.fresh: list = []
        self.assumptions: list = []
        self.n_require = 0
        self.py = False  # the state's values are Python literals (`SymState.python`)

    def mode(self, st: SymState) -> None:
        """Take the literals of `st`: Python's or Z3's true and false for what the encoder adds."""
        self.py = st.python
        if self.py:
            self.overflow = False

    def true(self):
        return True if self.py else boolval(True)

    def false(self):
        return False if self.py else boolval(False)

    def lit(self, t: T.Type, v: Any):
        return self.enc.value(t, v, self.py)

    def label(self, what: str, span: Span) -> str:
        return f"{self.tool.qualified}: {what} ({span.file}:{span.line})"

    def fail(self, cond, kind: str, what: str, span: Span, guard) -> None:
        fails = _and(guard, cond)
        self.checks.append(Check(self.label(what, span), kind, fails if _is_lit(fails) else z3.simplify(fails), span))

    def run(self, pre: SymState, args: dict[str, Any]) -> Transition:
        self.mode(pre)
        st = pre.copy()
        env = dict(args)
        result = None
        decl = self.tool.decl
        for stmt in decl.body:
            if isinstance(stmt, A.Return):
                result = self.ev(stmt.value, env, st, self.true())
                break
            if isinstance(stmt, A.Ensures):
                continue
            st = self.stmt(stmt, env, st)
        if decl.simulated:
            result = self.simulated(env, st)
        return Transition(self.tool.qualified, self.checks, st, result, self.overflow, self.fresh, self.assumptions)

    def simulated(self, env: dict, st: SymState):
        """A simulator may return anything that keeps `ensures`, and change what `modifies` names."""
        n = len(self.fresh)
        result = None
        if not isinstance(self.tool.result, T.NoneT):
            result = self.enc.var(self.tool.result, f"{self.tool.qualified}.result#{n}")
            self.fresh.append(result)
        for stmt in self.tool.decl.body:
            if isinstance(stmt, A.Modifies) and f"{self.svc.name}.{stmt.table}" in st.tables:
                rec = self.enc.tables[f"{self.svc.name}.{stmt.table}"]
                fields = stmt.fields or tuple(f for f in rec.fields if f != rec.key)
                for i, slot in enumerate(st.writable(f"{self.svc.name}.{stmt.table}")):
                    for f in fields:
                        v = self.enc.var(rec.fields[f], f"{self.tool.qualified}.{stmt.table}[{i}].{f}#{n}")
                        self.fresh.append(v)
                        slot.fields[f] = v
        env = dict(env)
        env["result"] = result
        for stmt in self.tool.decl.body:
            if isinstance(stmt, A.Ensures):
                self.assumptions.append(self.ev(stmt.cond, env, st, self.true()))
        return result

    # statements

    def stmt(self, s: A.Stmt, env: dict, st: SymState) -> SymState:
        true = self.true()
        if isinstance(s, A.Require):
            self.n_require += 1
            cond = self.ev(s.cond, env, st, true)
            self.fail(_not(cond), s.kind, f"precondition {self.n_require}", s.span, true)
            return st
        if isinstance(s, A.Let):
            env[s.name] = self.ev(s.value, env, st, true)
            return st
        if isinstance(s, A.Set):
            st.scalars[f"{self.svc.name}.{s.name}"] = self.ev(s.value, env, st, true)
            return st
        if isinstance(s, A.Modifies):
            return st
        table = f"{self.svc.name}.{s.table if isinstance(s, A.Insert) else s.target.table}"
        rec = self.enc.tables[table]
        slots = st.tables[table]  # read here; made writable just before the first write below
        if isinstance(s, A.Insert):
            given = {fi.name: self.ev(fi.value, env, st, true) for fi in s.fields}
            row = {}
            for f, ft in rec.fields.items():
                if f in given:
                    row[f] = given[f]
                elif f in rec.defaults:
                    from ..codegen.python import const_value

                    row[f] = self.lit(ft, const_value(rec.defaults[f], ft))
                elif isinstance(T.base_of(ft), T.ListT):
                    row[f] = SymList([])
            if rec.key not in given:
                counter = st.counters[table]
                if isinstance(counter, int):
                    row[rec.key] = rec.name.lower() + "-" + _int_to_str(counter)
                else:
                    row[rec.key] = z3.Concat(z3.StringVal(rec.name.lower() + "-"), z3.IntToStr(counter))
                st.counters[table] = counter + 1
            key = row[rec.key]
            exists = _or([_and(sl.present, self.enc.eq(sl.fields[rec.key], key)) for sl in slots]) if slots else self.false()
            self.fail(exists, "conflict", f"insert into `{s.table}`: the key is taken", s.span, true)
            # the new row goes to the first free slot
            taken = self.false()
            for sl in st.writable(table):
                self.deadline.check()
                here = _and(_not(sl.present), _not(taken))
                for f in rec.fields:
                    sl.fields[f] = merge(here, row[f], sl.fields[f])
                taken = _or(taken, here)
                sl.present = _or(sl.present, here)
            self.overflow = _or(self.overflow, _not(taken))
            if s.bind:
                env[s.bind] = row
            return st
        if isinstance(s.target, A.KeyTarget):
            key = self.ev(s.target.key, env, st, true)
            matches = [_and(sl.present, self.enc.eq(sl.fields[rec.key], key)) for sl in slots]
            self.fail(_not(_or(matches)) if matches else true, "not_found", f"`{s.target.table}[...]` names no row", s.span, true)
            if isinstance(s, A.Update):
                values = {fi.name: self.ev(fi.value, env, st, true) for fi in s.fields}
                for sl, m in zip(st.writable(table), matches):
                    for f, v in values.items():
                        sl.fields[f] = merge(m, v, sl.fields[f])
            else:
                for sl, m in zip(st.writable(table), matches):
                    sl.present = _and(sl.present, _not(m))
            return st
        # bulk: every matching row, each computed from the state before the statement
        before = st.copy()
        for i, sl in enumerate(st.writable(table)):
            self.deadline.check()
            old = before.tables[table][i]
            inner = dict(env)
            inner[s.target.var] = dict(old.fields)
            where = self.ev(s.target.where, inner, before, old.present)
            m = _and(old.present, where)
            if isinstance(s, A.Update):
                for fi in s.fields:
                    sl.fields[fi.name] = merge(m, self.ev(fi.value, inner, before, m), sl.fields[fi.name])
            else:
                sl.present = _and(sl.present, _not(m))
        return st

    # expressions

    def ev(self, e: A.Expr, env: dict, st: SymState, guard):
        return getattr(self, "ev_" + type(e).__name__)(e, env, st, guard)

    def ev_Literal(self, e: A.Literal, env, st, guard):
        from ..codegen.python import const_value

        t = self.model.type_of(e) or T.UNKNOWN
        return self.lit(t, const_value(e, t))

    def _table(self, e: A.Expr, env) -> str | None:
        if isinstance(e, A.Var) and e.name not in env and self.svc is not None and e.name in self.svc.state:
            return f"{self.svc.name}.{e.name}"
        if isinstance(e, A.Field) and isinstance(self.model.type_of(e.obj), T.ServiceRef):
            return f"{self.model.type_of(e.obj).name}.{e.name}"
        return None

    def ev_Var(self, e: A.Var, env, st, guard):
        row = env.get(_ROW)
        if row is not None and e.name in row:
            return row[e.name]  # short-form `untouched`: bare names are the row's fields
        if e.name in env:
            return env[e.name]
        ref = self._table(e, env)
        if ref is not None:
            if ref in st.tables:
                return ("table", ref)
            return st.scalars[ref]
        t = self.model.type_of(e)
        if isinstance(t, T.EnumT):
            return e.name if self.py else z3.StringVal(e.name)
        raise EncodingUnsupported(f"name `{e.name}`")

    def ev_Field(self, e: A.Field, env, st, guard):
        ot = self.model.type_of(e.obj)
        if isinstance(ot, T.ServiceRef):
            ref = f"{ot.name}.{e.name}"
            return ("table", ref) if ref in st.tables else st.scalars[ref]
        if isinstance(ot, T.EnumRef):
            return e.name if self.py else z3.StringVal(e.name)
        return self.ev(e.obj, env, st, guard)[e.name]

    def ev_Index(self, e: A.Index, env, st, guard):
        obj = self.ev(e.obj, env, st, guard)
        key = self.ev(e.key, env, st, guard)
        if isinstance(obj, tuple) and obj[0] == "table":
            rec = self.enc.tables[obj[1]]
            slots = st.tables[obj[1]]
            matches = [_and(sl.present, self.enc.eq(sl.fields[rec.key], key)) for sl in slots]
            self.fail(_not(_or(matches)) if matches else self.true(), "not_found", f"no `{rec.name}` with that key", e.span, guard)
            blank = {f: self.enc._blank(ft, self.py) for f, ft in rec.fields.items()}
            return LazyRecord(blank, [(m, dict(sl.fields)) for sl, m in reversed(list(zip(slots, matches)))])
        raise EncodingUnsupported("indexing a list by position")

    def ev_ListLit(self, e: A.ListLit, env, st, guard):
        return SymList([(self.true(), self.ev(i, env, st, guard), None) for i in e.items])

    def ev_Unary(self, e: A.Unary, env, st, guard):
        v = self.ev(e.operand, env, st, guard)
        return _not(v) if e.op == "not" else -v

    def ev_Cond(self, e: A.Cond, env, st, guard):
        c = self.ev(e.test, env, st, guard)
        a = self.ev(e.then, env, st, _and(guard, c))
        b = self.ev(e.else_, env, st, _and(guard, _not(c)))
        return merge(c, a, b)

    def ev_Binary(self, e: A.Binary, env, st, guard):
        op = e.op
        if op in ("and", "or", "implies"):
            a = self.ev(e.left, env, st, guard)
            inner = _and(guard, _not(a)) if op == "or" else _and(guard, a)
            b = self.ev(e.right, env, st, inner)
            return _and(a, b) if op == "and" else _or(a, b) if op == "or" else _implies(a, b)
        a = self.ev(e.left, env, st, guard)
        b = self.ev(e.right, env, st, guard)
        if op in _COMPARE:  # a concrete row against a concrete argument: most of a ground walk
            got = self.enc.decided(op, a, b)
            if got is not None:
                return got
        return _folded(self._binary(e, op, a, b, st, guard), a, b)

    def _binary(self, e: A.Binary, op: str, a, b, st, guard):
        if op in ("in", "not in"):
            r = self._member(a, b, st)
            return _not(r) if op == "not in" else r
        if op == "contains":
            if isinstance(a, SymList):
                return self._member(b, a, st)
            if isinstance(a, str) and isinstance(b, str):
                return b in a
            a, b = _both(a, b)
            return z3.Contains(a, b)
        if _is_lit(a) and _is_lit(b):
            return self._literal_binary(e, op, a, b, guard)
        a, b = _both(a, b)
        if op == "==":
            return a == b
        if op == "!=":
            return a != b
        if op in ("<", "<=", ">", ">="):
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        lt, rt = T.prim_name(self.model.type_of(e.left)), T.prim_name(self.model.type_of(e.right))
        if op in ("/", "%"):
            self.fail(b == 0, "invalid", "division by zero", e.span, guard)
            if op == "%":
                return a % b
            if lt == rt == "int":
                return a / b
            return z3.ToReal(a) / b if lt == "int" else a / (z3.ToReal(b) if rt == "int" else b)
        if "duration" in (lt, rt) and {lt, rt} & {"date", "datetime"}:
            # moment ± duration, failing out of range exactly as `values.add_days`/`add_minutes` do
            moment, dur = (a, b) if rt == "duration" else (b, a)
            dur = -dur if op == "-" else dur
            if "date" in (lt, rt):
                out, lo, hi = moment + dur / V.MINUTES_PER_DAY, V.MIN_DAY, V.MAX_DAY
            else:
                out, lo, hi = moment + dur, V.MIN_MINUTE, V.MAX_MINUTE
            self.fail(_or(out < lo, out > hi), "invalid", "moment out of range", e.span, guard)
            return out
        if lt == "time" and rt == "duration":
            return (a + b) % V.MINUTES_PER_DAY if op == "+" else (a - b) % V.MINUTES_PER_DAY
        if lt == "duration" and rt == "time":
            return (b + a) % V.MINUTES_PER_DAY
        if op == "-" and lt == rt == "date":
            return (a - b) * V.MINUTES_PER_DAY
        if op == "+" and lt == rt == "text":
            return z3.Concat(a, b)
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b}[op]()

    def _literal_binary(self, e: A.Binary, op: str, a, b, guard):
        """`_binary` on two Python literals, with the checks it records (SMT-LIB semantics)."""
        if op in _COMPARE:
            return _COMPARE[op](a, b)
        lt, rt = T.prim_name(self.model.type_of(e.left)), T.prim_name(self.model.type_of(e.right))
        if op in ("/", "%"):
            self.fail(b == 0, "invalid", "division by zero", e.span, guard)
            if op == "%":
                return smt_mod(a, b)
            if lt == rt == "int":
                return smt_div(a, b)
            return Fraction(a) / b if b else Fraction(0)
        if "duration" in (lt, rt) and {lt, rt} & {"date", "datetime"}:
            moment, dur = (a, b) if rt == "duration" else (b, a)
            dur = -dur if op == "-" else dur
            if "date" in (lt, rt):
                out, lo, hi = moment + smt_div(dur, V.MINUTES_PER_DAY), V.MIN_DAY, V.MAX_DAY
            else:
                out, lo, hi = moment + dur, V.MIN_MINUTE, V.MAX_MINUTE
            self.fail(out < lo or out > hi, "invalid", "moment out of range", e.span, guard)
            return out
        if lt == "time" and rt == "duration":
            return smt_mod(a + b if op == "+" else a - b, V.MINUTES_PER_DAY)
        if lt == "duration" and rt == "time":
            return smt_mod(b + a, V.MINUTES_PER_DAY)
        if op == "-" and lt == rt == "date":
            return (a - b) * V.MINUTES_PER_DAY
        if op == "+" and lt == rt == "text":
            return a + b
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b}[op]()

    def _member(self, x, coll, st):
        if isinstance(coll, tuple) and coll[0] == "table":
            rec = self.enc.tables[coll[1]]
            slots = st.tables[coll[1]]
            return _or([_and(sl.present, self.enc.eq(sl.fields[rec.key], x)) for sl in slots]) if slots else self.false()
        if isinstance(coll, SymList):
            return _or([_and(c, self.enc.eq(v, x)) for c, v, _ in coll.items]) if coll.items else self.false()
        raise EncodingUnsupported("membership in this collection")

    def _items(self, domain: A.Expr, env, st, guard):
        """(presence, element) candidates of a table or list domain."""
        d = self.ev(domain, env, st, guard)
        if isinstance(d, tuple) and d[0] == "table":
            rec = self.enc.tables[d[1]]
            return [(sl.present, dict(sl.fields), sl.fields[rec.key]) for sl in st.tables[d[1]]]
        if isinstance(d, SymList):
            return [(c, v, None) for c, v, _ in d.items]
        raise EncodingUnsupported("iterating over this value")

    def _filtered(self, var, domain, where, env, st, guard):
        out = []
        probe = self.enc.key_probe(where, var)
        other = _UNSET
        false = None
        for present, elem, key in self._items(domain, env, st, guard):
            self.deadline.check()  # once per row: nested quantifiers multiply rows
            inner = dict(env)
            inner[var] = elem
            if probe is not None and out and isinstance(elem, Mapping):
                # `var.f == e` first, the rest pure: a row whose literal f differs from e's
                # literal is a false row, decided as `decided` decides it in `ev_Binary`. The
                # rest is not evaluated: pure, it would add no check and fold into false anyway.
                # (The first row always takes the full path, so an expression the encoder cannot
                # take raises as before.)
                if other is _UNSET:
                    other = self.ev(probe[1], env, st, guard)
                if false is None:
                    false = self.false()
                got = self.enc.decided("==", elem[probe[0]], other)
                if got is false:
                    out.append((false, elem, key, inner))
                    continue
            g = _and(guard, present)
            cond = present if where is None else _and(present, self.ev(where, inner, st, g))
            out.append((cond, elem, key, inner))
        return out

    def ev_Quant(self, e: A.Quant, env, st, guard):
        rows = self._filtered(e.var, e.domain, e.where, env, st, guard)
        if e.kind == "exists":
            return _or([c for c, *_ in rows]) if rows else self.false()
        parts = [_implies(c, self.ev(e.body, inner, st, _and(guard, c))) for c, _, _, inner in rows]
        return _and(parts) if parts else self.true()

    def ev_Select(self, e: A.Select, env, st, guard):
        rows = self._filtered(e.var, e.domain, e.where, env, st, guard)
        if e.kind == "count":
            return _sum([_ite(c, 1, 0) for c, *_ in rows], self.zero("int"))
        keyed = []
        for c, elem, key, inner in rows:
            by = self.ev(e.by, inner, st, _and(guard, c)) if e.by is not None else None
            sort = tuple(x for x in (by, key if key is not None else elem) if x is not None)
            keyed.append((c, elem, sort))
        if e.kind == "filter":
            return SymList(keyed)
        # latest/earliest: the best candidate by (by, key)
        latest = e.kind == "latest"
        self.fail(_not(_or([c for c, *_ in keyed])) if keyed else self.true(), "not_found", f"`{e.kind}` over no rows", e.span, guard)
        if not keyed:
            raise EncodingUnsupported(f"`{e.kind}` over an empty domain")
        best_c, first, best_k = keyed[0]
        picks = []
        for c, elem, k in keyed[1:]:
            better = lex_less(best_k, k) if latest else lex_less(k, best_k)
            take = _and(c, _or(_not(best_c), better))
            picks.append((take, elem))
            best_k = tuple(_ite(take, a, b) for a, b in zip(k, best_k))
            best_c = _or(best_c, c)
        return LazyRecord(first, picks) if isinstance(first, Mapping) else _fold(first, picks)

    def ev_Project(self, e: A.Project, env, st, guard):
        rows = self._filtered(e.var, e.domain, e.where, env, st, guard)
        vals = [(c, self.ev(e.expr, inner, st, _and(guard, c))) for c, _, _, inner in rows]
        if e.kind == "map":
            return SymList([(c, v, None) for c, v in vals])
        if e.kind == "sum":
            zero = self.zero("int" if T.prim_name(self.model.type_of(e)) == "int" else "real")
            return _sum([_ite(c, v, zero) for c, v in vals], zero)
        self.fail(_not(_or([c for c, _ in vals])) if vals else self.true(), "not_found", f"`{e.kind}` over no values", e.span, guard)
        if not vals:
            raise EncodingUnsupported(f"`{e.kind}` over an empty domain")
        best_c, best = vals[0]
        for c, v in vals[1:]:
            better = cmp(">", v, best) if e.kind == "max" else cmp("<", v, best)
            take = _and(c, _or(_not(best_c), better))
            best = _ite(take, v, best)
            best_c = _or(best_c, c)
        return best

    def ev_Call(self, e: A.Call, env, st, guard):
        t = self.model.type_of(e)
        if isinstance(t, T.RecordT) and e.func == t.name:
            from ..codegen.python import const_value

            given = {a.name: self.ev(a.value, env, st, guard) for a in e.args}
            return {f: given[f] if f in given else self.lit(ft, const_value(t.defaults[f], ft)) if f in t.defaults else SymList([]) for f, ft in t.fields.items()}
        args = [self.ev(a.value, env, st, guard) for a in e.args]
        f = e.func
        if f in ("lower", "upper", "trim"):
            return string_func(f, args[0])
        if f == "len":
            if isinstance(args[0], SymList):
                return _sum([_ite(c, 1, 0) for c, _, _ in args[0].items], self.zero("int"))
            return len(args[0]) if isinstance(args[0], str) else z3.Length(args[0])
        if f in ("starts_with", "ends_with"):
            if isinstance(args[0], str) and isinstance(args[1], str):
                return args[0].startswith(args[1]) if f == "starts_with" else args[0].endswith(args[1])
            whole, part = _both(args[0], args[1])
            return z3.PrefixOf(part, whole) if f == "starts_with" else z3.SuffixOf(part, whole)
        if f == "abs":
            return _ite(args[0] < 0, -args[0], args[0])
        if f in ("days", "weeks", "hours", "minutes"):
            return args[0] * {"days": 1440, "weeks": 10080, "hours": 60, "minutes": 1}[f]
        if f == "date":
            return _div(args[0], V.MINUTES_PER_DAY)
        if f == "days_between":
            return args[1] - args[0]
        if f in ("year", "month", "day"):
            return civil_from_days(args[0])[("year", "month", "day").index(f)]
        if f == "str":
            return self.text(args[0], self.model.type_of(e.args[0].value))
        if f == "format":
            from ..codegen.python import _template_pieces

            pieces = [p for p in _template_pieces(str(e.args[0].value.value)) if isinstance(p, str)]
            texts = [self.text(args[i + 1], self.model.type_of(a.value)) for i, a in enumerate(e.args[1:])]
            if all(isinstance(x, str) for x in texts):
                return "".join(p + x for p, x in zip(pieces, [*texts, ""]))
            out = z3.StringVal(pieces[0])
            for i, x in enumerate(texts):
                out = z3.Concat(out, _z(x), z3.StringVal(pieces[i + 1]))
            return out
        raise EncodingUnsupported(f"function `{f}`")

    def zero(self, kind: str):
        """0 of an int or real sum (a Python literal in a Python-literal state)."""
        if self.py:
            return 0 if kind == "int" else Fraction(0)
        return z3.IntVal(0) if kind == "int" else z3.RealVal(0)

    def text(self, v, t: T.Type):
        """The runtime's `text()` rendering, in Z3 (on a Python literal, computed with the same
        integer steps)."""
        p = T.prim_name(t)
        if p in ("text", "id", "email") or isinstance(T.base_of(t), T.EnumT):
            return v
        if _is_lit(v):
            if p in ("int", "duration"):
                return _int_to_str(v) if v >= 0 else "-" + _int_to_str(-v)
            if p == "bool":
                return "true" if v else "false"
            if p == "date":
                y, m, d = civil_from_days(v)
                return _int_to_str(y) + "-" + _pad2(m) + "-" + _pad2(d)
            if p == "time":
                return _pad2(smt_div(v, 60)) + ":" + _pad2(smt_mod(v, 60))
            if p == "datetime":
                y, m, d = civil_from_days(smt_div(v, V.MINUTES_PER_DAY))
                t_ = smt_mod(v, V.MINUTES_PER_DAY)
                return _int_to_str(y) + "-" + _pad2(m) + "-" + _pad2(d) + "T" + _pad2(smt_div(t_, 60)) + ":" + _pad2(smt_mod(t_, 60))
        if p in ("int", "duration"):
            return _ite(v >= 0, z3.IntToStr(v), z3.Concat(z3.StringVal("-"), z3.IntToStr(-v)))
        if p == "bool":
            return _ite(v, z3.StringVal("true"), z3.StringVal("false"))
        if p == "date":
            y, m, d = civil_from_days(v)
            return z3.Concat(z3.IntToStr(y), z3.StringVal("-"), _pad2(m), z3.StringVal("-"), _pad2(d))
        if p == "time":
            return z3.Concat(_pad2(v / 60), z3.StringVal(":"), _pad2(v % 60))
        if p == "datetime":
            y, m, d = civil_from_days(v / V.MINUTES_PER_DAY)
            t_ = v % V.MINUTES_PER_DAY
            return z3.Concat(z3.IntToStr(y), z3.StringVal("-"), _pad2(m), z3.StringVal("-"), _pad2(d), z3.StringVal("T"), _pad2(t_ / 60), z3.StringVal(":"), _pad2(t_ % 60))
        raise EncodingUnsupported(f"rendering `{t}` as text")


def assert_success(solver: z3.Solver, tr: Transition, tag: str = "", fold: bool = False) -> dict[str, Check]:
    """Assert that the call succeeds, one tracked assertion per check, so an unsat core names the
    precondition at fault. Returns tracking name → check; `check.label` says it in words
    ("matters.close_matter: precondition 2 (stdlib/matters.world:123)").
    With `fold`, an assertion that folded to Python's true is counted, not sent (`assert_term`).

    Tracking names hold no file paths: Z3's choices depend on symbol names, and a task must
    not change with the folder the world was loaded from."""
    labels: dict[str, Check] = {}
    for i, c in enumerate(tr.checks):
        name = f"{tag}{tr.tool} check {i + 1}"
        labels[name] = c
        holds = _not(c.fails)
        if fold and holds is True:
            _count_folded(solver)  # (a true assertion is never part of an unsat core)
            continue
        solver.assert_and_track(asserted(holds), z3.Bool(name))
    if fold:
        assert_term(solver, _not(tr.overflow))
    else:
        solver.add(asserted(_not(tr.overflow)))
    return labels


def _count_folded(solver: z3.Solver) -> None:
    solver.folded = getattr(solver, "folded", 0) + 1


def assert_term(solver: z3.Solver, term) -> None:
    """`solver.add(term)`, except that Python's literal true is only counted (`assertion_count`):
    asserting it changes no answer, and each `add` costs a call into Z3. Only for questions
    whose model becomes nothing (a binding's question is asked exactly as built, D15)."""
    if term is True:
        _count_folded(solver)
    else:
        solver.add(asserted(term))


def assertion_count(solver: z3.Solver) -> int:
    """The assertions made: those sent to Z3 and those that folded to true (`assert_term`)."""
    return len(solver.assertions()) + getattr(solver, "folded", 0)


class _ConstraintEncoder(_ToolEncoder):
    """Evaluates a constraint over a (before, after) pair of symbolic states."""

    def __init__(self, enc: WorldEncoding, svc: Service | None, name: str, deadline: Deadline | None = None):
        self.enc = enc
        self.deadline = deadline or Deadline()
        self.model = enc.model
        self.svc = svc
        self.tool = None
        self.name = name
        self.checks = []
        self.overflow = boolval(False)
        self.fresh = []
        self.assumptions = []
        self.skip_untouched = False
        self.written: set[str] | None = None
        self.held_before = False
        self.py = False

    def label(self, what: str, span: Span) -> str:
        return f"constraint {self.name}: {what} ({span.file}:{span.line})"

    def _invariant(self, e: A.Expr, env: dict, before: SymState, after: SymState):
        """An invariant's value on `after`. When the caller knows the rule held on `before`
        (`held_before`) and the invariant is `forall(x in T where W: B)` with W and B reading
        nothing that differs between the two states, a row of T that did not change gives what it
        gave before: true. Then only the changed rows of T are encoded: a deadline recorded under
        `latest_note_wins` costs its own row against the notes, not every deadline's."""
        if self.held_before and isinstance(e, A.Quant) and e.kind == "forall":
            table = self._table(e.domain, env)
            if table is not None and table in self.enc.tables:
                reads = tables_in(self.model, e.body, self.svc) | (tables_in(self.model, e.where, self.svc) if e.where is not None else set())
                if all(self._unchanged(r, before, after) for r in reads):
                    olds, news = before.tables[table], after.tables[table]
                    tables = after.tables.copy()
                    tables[table] = [n for o, n in zip(olds, news) if not _same_slot(o, n)] + news[len(olds):]
                    return self.ev(e, env, SymState(tables, after.scalars, after.counters, after.python), self.true())
        return self.ev(e, env, after, self.true())

    def _unchanged(self, name: str, before: SymState, after: SymState) -> bool:
        if name in self.enc.tables:
            olds, news = before.tables[name], after.tables[name]
            return olds is news or (len(olds) == len(news) and all(_same_slot(o, n) for o, n in zip(olds, news)))
        if name in self.enc.scalars:
            return _same_term(before.scalars[name], after.scalars[name])
        return False  # anything else: assume it changed, and encode every row

    def violated(self, clauses, before: SymState, after: SymState, env: dict) -> list:
        """Conditions under which some clause is broken (untouched rows read `before`)."""
        out = []
        true = self.true()
        for c in clauses:
            if isinstance(c, A.Invariant) and self.written is not None and not (tables_in(self.model, c.expr, self.svc) & self.written):
                continue  # nothing the walk writes can change it
            if isinstance(c, A.Untouched):
                table = ".".join(c.table) if len(c.table) == 2 else f"{self.svc.name}.{c.table[0]}"
                if self.written is not None and table not in self.written:
                    continue  # the walk writes nothing there
                rec = self.enc.tables[table]
                for old, new in zip(before.tables[table], after.tables[table]):
                    self.deadline.check()
                    spare = is_false(old.present)  # a slot for an insert: judged by the new row (D22)
                    if self.skip_untouched and not spare:
                        continue  # the caller encodes the rows present before
                    row = new if spare else old
                    inner = dict(env)
                    inner[c.var or _ROW] = dict(row.fields)
                    match = row.present if c.where is None else _and(row.present, self.ev(c.where, inner, before, row.present))
                    if spare:
                        out.append(match)  # a row was added that the clause selects
                    else:
                        changed = _or(_not(new.present), *[_neq(new.fields[f], old.fields[f]) for f in rec.fields])
                        out.append(_and(match, changed))
            elif isinstance(c, A.ForallClause):
                table = ".".join(c.domain) if len(c.domain) == 2 else f"{self.svc.name}.{c.domain[0]}"
                for slot in before.tables[table]:
                    self.deadline.check()
                    inner = dict(env)
                    inner[c.var] = dict(slot.fields)
                    cond = slot.present if c.where is None else _and(slot.present, self.ev(c.where, inner, before, slot.present))
                    out += [_and(cond, v) for v in self.violated(c.body, before, after, inner)]
            elif isinstance(c, A.IfClause):
                cond = self.ev(c.cond, env, before, true)
                out += [_and(cond, v) for v in self.violated(c.then, before, after, env)]
                out += [_and(_not(cond), v) for v in self.violated(c.else_ or (), before, after, env)]
            elif isinstance(c, A.Invariant):
                out.append(_not(self._invariant(c.expr, env, before, after)))
        return out


def constraint_violated(
    enc: WorldEncoding,
    decl: A.ConstraintDecl,
    svc: Service | None,
    name: str,
    before: SymState,
    after: SymState,
    untouched: list[tuple[str, int]] | None = None,
    written: set[str] | None = None,
    held_before: bool = False,
    deadline: Deadline | None = None,
):
    """A Z3 condition: the episode from `before` to `after` breaks this constraint's state clauses
    (`order` clauses are about the call log and are not part of it).

    When the caller knows the untouched rows already (they depend only on the concrete state
    before: `untouched` as (table, slot)) and which tables the walk writes, only those slots, the
    slots left for inserts, and the invariants over written tables are encoded — the rest cannot
    change. `held_before`: the caller knows the rule held on `before`, so rows an invariant
    ranges over that did not change need no terms (`_ConstraintEncoder._invariant`)."""
    ce = _ConstraintEncoder(enc, svc, name, deadline)
    ce.mode(before)
    ce.skip_untouched = untouched is not None
    ce.written = written
    ce.held_before = held_before
    parts = []
    if untouched is not None:
        for table, i in untouched:
            if written is not None and table not in written:
                continue
            rec = enc.tables[table]
            old, new = before.tables[table][i], after.tables[table][i]
            parts.append(_or(_not(new.present), *[_neq(new.fields[f], old.fields[f]) for f in rec.fields]))
    parts += ce.violated(decl.clauses, before, after, {})
    return _or(parts) if parts else ce.false()


def tables_in(model: Model, node, svc: Service | None) -> set[str]:
    """Qualified tables and scalars an AST node reads: `svc.table`, or bare state of `svc`."""
    out = set()
    for n in A.walk(node):
        if isinstance(n, A.Field) and isinstance(model.type_of(n.obj), T.ServiceRef):
            out.add(f"{model.type_of(n.obj).name}.{n.name}")
        elif isinstance(n, A.Var) and svc is not None and n.name in svc.state:
            out.add(f"{svc.name}.{n.name}")
    return out
