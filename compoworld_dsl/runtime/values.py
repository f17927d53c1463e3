"""Value semantics shared by generated services and (mirrored) by the Z3 encoding.
Every operation whose Python meaning differs from SMT-LIB's is defined here once, on purpose."""

from __future__ import annotations

import functools
import re
from datetime import date, datetime, timedelta
from fractions import Fraction

# Internal representations (chosen so the Z3 encoding can use the same numbers):
#   text, id, email → str          int → int             decimal, money → Fraction
#   bool → bool                    date → int (days since 1970-01-01)
#   time → int (minutes after midnight)   datetime → int (minutes since 1970-01-01T00:00)
#   duration → int (minutes)       enum → str (member)   list → tuple    record → dict
EPOCH = date(1970, 1, 1)
EPOCH_DT = datetime(1970, 1, 1)
MINUTES_PER_DAY = 1440


class ValueError_(ValueError):
    """A JSON value that does not fit its declared type (becomes an `invalid` tool error)."""


class OutOfRange(ArithmeticError):
    """Arithmetic left the range a value can take (becomes an `invalid` tool error, no change)."""


# Dates and datetimes are those ISO 8601 writes with four-digit years: 0001-01-01 to 9999-12-31.
# Arithmetic that leaves the range fails, in Python and in the Z3 encoding alike, so no state ever
# holds a moment that cannot be written out.
MIN_DAY = -719162  # 0001-01-01
MAX_DAY = 2932896  # 9999-12-31
MIN_MINUTE = MIN_DAY * 1440
MAX_MINUTE = (MAX_DAY + 1) * 1440 - 1
# Integers a tool accepts or returns: what JSON consumers (and most languages) hold exactly.
MAX_INT = 2**63 - 1


# ─────────────────────────── conversions ───────────────────────────


def date_from_iso(text: str) -> int:
    return (date.fromisoformat(text) - EPOCH).days


# kept per value (`typed`: 3, True and Fraction(3) stay apart, and a value that raises is not
# kept): a replay writes out the same dates call after call
@functools.lru_cache(maxsize=4096, typed=True)
def date_to_iso(days: int) -> str:
    return (EPOCH + timedelta(days=days)).isoformat()


def time_from_iso(text: str) -> int:
    if not re.fullmatch(r"\d{2}:\d{2}", text):
        raise ValueError_(f"{text!r} is not a time (HH:MM)")
    h, m = int(text[:2]), int(text[3:])
    if h > 23 or m > 59:
        raise ValueError_(f"{text!r} is not a time of day")
    return h * 60 + m


def time_to_iso(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def datetime_from_iso(text: str) -> int:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", text):
        raise ValueError_(f"{text!r} is not a datetime (YYYY-MM-DDTHH:MM)")
    dt = datetime.fromisoformat(text)
    return int((dt - EPOCH_DT).total_seconds()) // 60


@functools.lru_cache(maxsize=4096, typed=True)  # (as `date_to_iso`)
def datetime_to_iso(minutes: int) -> str:
    # isoformat: strftime("%Y") drops the zeros of a year before 1000 (`1-01-01T00:00`)
    return (EPOCH_DT + timedelta(minutes=minutes)).isoformat(timespec="minutes")


def decimal_from_text(text: str) -> Fraction:
    return Fraction(text)


def decimal_to_json(value: Fraction) -> int | float | str:
    """Integral amounts as JSON integers, others as numbers with up to 6 decimals."""
    if value.denominator == 1:
        return int(value)
    return float(round(value, 6))


# ─────────────────────────── operations ───────────────────────────


class DivisionByZero(ArithmeticError):
    pass


def int_div(a: int, b: int) -> int:
    """SMT-LIB integer division: a = b*q + r with 0 <= r < |b|."""
    if b == 0:
        raise DivisionByZero()
    q = a // abs(b)
    return q if b > 0 else -q


def int_mod(a: int, b: int) -> int:
    """SMT-LIB integer remainder: always in [0, |b|)."""
    if b == 0:
        raise DivisionByZero()
    return a % abs(b)


def dec_div(a: Fraction, b: Fraction) -> Fraction:
    if b == 0:
        raise DivisionByZero()
    return Fraction(a) / Fraction(b)


_UPPER = {ord(c): c.lower() for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
_LOWER = {ord(c): c.upper() for c in "abcdefghijklmnopqrstuvwxyz"}


def lower(s: str) -> str:
    """ASCII lower-casing only: the Z3 encoding maps the 26 letters, nothing else. (On ASCII
    text `str.lower` maps exactly those, and costs a tenth of a translation by table.)"""
    return s.lower() if s.isascii() else s.translate(_UPPER)


def upper(s: str) -> str:
    return s.upper() if s.isascii() else s.translate(_LOWER)


def trim(s: str) -> str:
    """Strip spaces only (not every Unicode space), so the Z3 encoding can match it."""
    return s.strip(" ")


def int_to_text(n: int) -> str:
    return str(n)


def add_days(day: int, minutes: int) -> int:
    """date + duration: whole days only (floor of minutes / 1440)."""
    out = day + minutes // MINUTES_PER_DAY
    if not MIN_DAY <= out <= MAX_DAY:
        raise OutOfRange("the date is out of range (0001-01-01 to 9999-12-31)")
    return out


def add_minutes(moment: int, minutes: int) -> int:
    """datetime + duration."""
    out = moment + minutes
    if not MIN_MINUTE <= out <= MAX_MINUTE:
        raise OutOfRange("the datetime is out of range (0001-01-01T00:00 to 9999-12-31T23:59)")
    return out


def time_add(t: int, minutes: int) -> int:
    """time + duration wraps around midnight."""
    return (t + minutes) % MINUTES_PER_DAY


def civil_from_days(days: int) -> tuple[int, int, int]:
    d = EPOCH + timedelta(days=days)
    return d.year, d.month, d.day
