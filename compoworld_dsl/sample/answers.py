"""Reported answers compared as a person would: each value on its own, after normalisation by
its type, whether the agent answered in JSON or in prose. Knows nothing of tasks or episodes."""

from __future__ import annotations

import functools
import json
import re
from datetime import date, datetime
from fractions import Fraction
from typing import Any

from ..runtime.service import Types

# A prose answer that names more candidates of the expected kind than this (beyond the values
# asked for) is a list of guesses, not an answer: "0 1 2 3 ... 100" does not report a count.
MAX_EXTRA_CANDIDATES = 5

_MOMENTS = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?)?|\b\d{1,2}:\d{2}(?::\d{2})?\b")
_NUMBER = re.compile(r"(?<![\w.-])[-−]?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w-])")
# Moments in prose: ISO dates, or English ones ("March 14, 2025", "14 Mar 2025"); 24-hour or
# 12-hour times ("09:43", "9:43 am", "1 pm"); a date and a time written together ("2025-03-02T09:43",
# "March 2, 2025 at 9:43 AM") also give the datetime.
_MONTHS = {m: i for i, names in enumerate(("jan january", "feb february", "mar march", "apr april", "may", "jun june", "jul july", "aug august", "sep sept september", "oct october", "nov november", "dec december"), 1) for m in names.split()}
_MONTH = "(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
_DATE = re.compile(
    r"(?<!\d)(?P<iso>\d{4}-\d{2}-\d{2})(?!\d)"
    rf"|\b(?P<m1>{_MONTH})\s+(?P<d1>{_DAY}),?\s+(?P<y1>\d{{4}})(?!\d)"
    rf"|(?<![\w-])(?P<d2>{_DAY})\s+(?:of\s+)?(?P<m2>{_MONTH}),?\s+(?P<y2>\d{{4}})(?!\d)",
    re.IGNORECASE,
)
_TIME = re.compile(
    r"(?<![\d:.])(?P<h>[01]?\d|2[0-3]):(?P<min>[0-5]\d)(?::(?P<s>[0-5]\d))?(?:\s*(?P<ap>[ap])\.?m\.?(?![a-z]))?(?![\d:])"
    r"|(?<![\d:.])(?P<h12>1[0-2]|0?[1-9])\s*(?P<ap12>[ap])\.?m\.?(?![a-z])",
    re.IGNORECASE,
)
_JOIN = re.compile(r"\s*(?:,\s*)?(?:at\s+)?|T", re.IGNORECASE)  # between the date and the time of a datetime
_KEYISH = re.compile(r"\b[A-Za-z][A-Za-z_]*-\d+\b")
_TRUE = {"true", "yes", "y"}
_FALSE = {"false", "no", "n"}


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(repr(value)) if value == value and abs(value) != float("inf") else None
    if isinstance(value, str):
        text = value.strip().replace("−", "-").replace("$", "").replace(",", "").replace("_", "")
        if re.fullmatch(r"-?\d+(\.\d+)?", text):
            return Fraction(text)
    return None


def _moment(value: Any, base: str) -> str | None:
    """A date, time or datetime in the runtime's ISO form, whatever ISO variant came in."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        if base == "time":
            return datetime.strptime(text[:5], "%H:%M").strftime("%H:%M") if re.fullmatch(r"\d{2}:\d{2}(:00)?", text) else None
        if base == "date":
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
                return date.fromisoformat(text).isoformat()
            moment = datetime.fromisoformat(text)
            return moment.date().isoformat() if (moment.hour, moment.minute, moment.second) == (0, 0, 0) else None
        moment = datetime.fromisoformat(text.replace(" ", "T", 1))
        return moment.replace(tzinfo=None).isoformat(timespec="minutes") if moment.second == 0 else None
    except ValueError:
        return None


def _prose_date(m: re.Match) -> str | None:
    try:
        if m.group("iso"):
            return date.fromisoformat(m.group("iso")).isoformat()
        month, day, year = (m.group("m1"), m.group("d1"), m.group("y1")) if m.group("m1") else (m.group("m2"), m.group("d2"), m.group("y2"))
        return date(int(year), _MONTHS[month.rstrip(".").lower()], int(re.match(r"\d+", day).group(0))).isoformat()
    except ValueError:
        return None


def _prose_time(m: re.Match) -> str | None:
    if m.group("h12"):
        hour, minute, half = int(m.group("h12")), 0, m.group("ap12").lower()
    else:
        if m.group("s") not in (None, "00"):
            return None
        hour, minute, half = int(m.group("h")), int(m.group("min")), (m.group("ap") or "").lower()
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "p" else 0)
    return f"{hour:02d}:{minute:02d}"


@functools.lru_cache(maxsize=256)
def prose_moments(text: str) -> tuple[tuple[str, str], ...]:
    """The moments a prose answer names, as (kind, ISO value): each date, each time, and each
    date directly followed by a time (", at", a space or `T` between) also as a datetime.
    Candidates for the list-of-guesses rule are the mentions: a datetime counts once. (Kept
    per text: the sampler asks of one instruction for every decoy value it weighs.)"""
    dates = [(m.start(), m.end(), _prose_date(m)) for m in _DATE.finditer(text)]
    times = [(m.start(), m.end(), _prose_time(m)) for m in _TIME.finditer(text)]
    out = [("date", d) for _, _, d in dates if d] + [("time", t) for _, _, t in times if t]
    for _, end, d in dates:
        for start, _, t in times:
            if d and t and start >= end and _JOIN.fullmatch(text, end, start):
                out.append(("datetime", f"{d}T{t}"))
    return tuple(out)


def _mentions(text: str) -> set:
    """The distinct moments a prose answer names, a datetime as one mention."""
    found = prose_moments(text)
    joined = {v for k, v in found if k == "datetime"}
    parts = {v.split("T")[0] for v in joined} | {v.split("T")[1] for v in joined}
    return joined | {v for k, v in found if k != "datetime" and v not in parts}


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        return " ".join(value.split()).casefold()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value).casefold()
    return None


def _unwrap(value: Any) -> Any:
    """{"answer": 4} or [4] where one value is expected: the value inside."""
    while isinstance(value, (dict, list)) and len(value) == 1:
        value = next(iter(value.values())) if isinstance(value, dict) else value[0]
    return value


class AnswerMatcher:
    """Compares a reported answer with an expected JSON value of a runtime type."""

    def __init__(self, types: Types, ignore: dict[str, frozenset[str]] | None = None, exact: bool = False, ordered: bool = False):
        self.types = types
        self.ignore = ignore or {}  # record name → fields a clock decides (never compared)
        self.exact = exact  # text compared exactly, as the task says
        self.ordered = ordered  # lists compared in order, as the task says

    # ─── JSON answers ───

    def same(self, t: str, expected: Any, got: Any) -> bool:
        b = self.types.base(t)
        if b.startswith("list:"):
            return self._same_list(b[5:], expected, got)
        if b.startswith("record:"):
            # a tampered file may hold a bare key where a record is expected: then nothing matches
            return isinstance(expected, dict) and self._same_record(b[7:], expected, got)
        got = _unwrap(got)
        if b in ("int", "duration", "decimal", "money"):
            want, have = _number(expected), _number(got)
            return want is not None and have is not None and abs(want - have) <= Fraction(1, 10**6)
        if b == "bool":
            if isinstance(got, str):
                got = True if got.strip().casefold() in _TRUE else False if got.strip().casefold() in _FALSE else None
            return got is expected
        if b in ("date", "time", "datetime"):
            return _moment(got, b) is not None and _moment(got, b) == _moment(expected, b)
        if self.exact:
            return isinstance(got, str) and got == expected
        want, have = _text(expected), _text(got)
        if b.startswith("enum:") and have is not None:
            have = have.replace(" ", "_")
        return want is not None and want == have

    def _same_list(self, elem: str, expected: list, got: Any) -> bool:
        if isinstance(got, dict) and len(got) == 1 and isinstance(next(iter(got.values())), list):
            got = next(iter(got.values()))  # {"matters": [...]}
        if not isinstance(got, list) or len(got) != len(expected):
            return False
        if self.ordered:
            return all(self.same(elem, e, g) for e, g in zip(expected, got))
        free = list(got)
        for e in expected:  # a bipartite match, greedily: values within a list are few
            hit = next((i for i, g in enumerate(free) if self.same(elem, e, g)), None)
            if hit is None:
                return False
            free.pop(hit)
        return True

    def _same_record(self, record: str, expected: dict, got: Any) -> bool:
        key = self.types.keys.get(record)
        got = _unwrap(got) if not isinstance(got, dict) else got
        if key is not None and not isinstance(got, dict):
            return self.same(self.types.records[record][key], expected[key], got)  # the record's key stands for it
        if not isinstance(got, dict):
            return False
        fields = self.types.records[record]
        if key is not None and key in got:
            return self.same(fields[key], expected[key], got[key])
        skip = self.ignore.get(record, frozenset()) | {key}
        return all(f in got and self.same(ft, expected[f], got[f]) for f, ft in fields.items() if f not in skip)

    # ─── prose answers ───

    def in_text(self, t: str, expected: Any, text: str, guesses: bool = False, stated: str | None = None) -> bool:
        """Every expected value appears in `text`, and (unless `guesses`) the text is not a
        list of guesses. Values the instruction `stated` are no guesses: an agent that sums up
        what it did ("set the lead time to 5 days, moved 58 units, ...") before the value asked
        for repeats them (found by an agent whose right answer failed for its recap)."""
        b = self.types.base(t)
        wanted = list(self._atoms(b, expected))
        if not wanted:
            return False
        folded = " ".join(text.split()).casefold()
        for kind, value in wanted:
            if not self._found(kind, value, text, folded):
                return False
        if guesses:
            return True
        kinds = {kind for kind, _ in wanted}
        for kind in kinds & {"number", "moment", "key"}:
            found = self._candidates(kind, text)
            if stated:
                found -= self._candidates(kind, stated) - {v for k, v in wanted if k == kind}
            if len(found) > len([v for k, v in wanted if k == kind]) + MAX_EXTRA_CANDIDATES:
                return False
        return True

    def _atoms(self, b: str, value: Any):
        """(kind, value) for each value a prose answer must contain."""
        if b.startswith("list:"):
            for v in value:
                yield from self._atoms(self.types.base(b[5:]), v)
        elif b.startswith("record:"):
            key = self.types.keys.get(b[7:])
            if key is not None:
                yield ("key", str(value[key]))
            else:
                for f, ft in self.types.records[b[7:]].items():
                    if f not in self.ignore.get(b[7:], frozenset()):
                        yield from self._atoms(self.types.base(ft), value[f])
        elif b in ("int", "duration", "decimal", "money"):
            yield ("number", _number(value))
        elif b in ("date", "time", "datetime"):
            yield ("moment", _moment(value, b))
        elif b == "bool":
            yield ("bool", value)
        elif b == "id":
            yield ("key", str(value))
        else:
            yield ("text", _text(value))

    def _found(self, kind: str, value: Any, text: str, folded: str) -> bool:
        if kind == "number":
            return any(_number(m.group(0)) == value for m in _NUMBER.finditer(text))
        if kind == "moment":
            want = "datetime" if "T" in (value or "") else "date" if "-" in (value or "") else "time"
            return value is not None and (want, value) in prose_moments(text)
        if kind == "bool":
            words = set(re.findall(r"[a-z]+", folded))
            return bool(words & (_TRUE if value else _FALSE)) and not words & (_FALSE if value else _TRUE)
        if kind == "key":
            return re.search(r"(?<![\w-])" + re.escape(value.casefold()) + r"(?![\w-])", folded) is not None
        return bool(value) and value in folded

    @staticmethod
    def _candidates(kind: str, text: str) -> set:
        if kind == "number":
            # the hours and minutes of a time, the parts of a date, are no numbers an agent
            # offers as guesses ("at 11:57" is one moment, not 11 and 57)
            return {_number(m.group(0)) for m in _NUMBER.finditer(_MOMENTS.sub(" ", text))}
        if kind == "moment":
            return _mentions(text)
        return {m.group(0).casefold() for m in _KEYISH.finditer(text)}


def as_reported(answer: Any) -> tuple[Any, str | None]:
    """(JSON value, prose): an answer given as text is read as JSON when it is JSON (or holds a
    JSON object or list after some words), else kept as prose."""
    if not isinstance(answer, str):
        return answer, None
    text = answer.strip()
    try:
        return json.loads(text), None
    except (ValueError, RecursionError):
        pass
    for start, ch in enumerate(text):
        if ch in "[{":
            try:
                value, end = json.JSONDecoder().raw_decode(text, start)
            except (ValueError, RecursionError):
                continue
            if not text[end:].strip(" .\n"):
                return value, None
            break
    return None, text


def answer_matches(types: Types, t: str, expected: Any, answer: Any, ignore: dict | None = None, exact: bool = False, ordered: bool = False, stated: str | None = None) -> bool:
    """Does `answer` (JSON, JSON text, or prose) report `expected` (JSON of type `t`)?
    `stated`: the instruction, whose values a prose answer may repeat freely (`in_text`)."""
    if answer is None:
        return False
    matcher = AnswerMatcher(types, ignore, exact, ordered)
    value, prose = as_reported(answer)
    if prose is None:
        if matcher.same(t, expected, value):
            return True
        if not isinstance(value, str):
            return False
        prose = value  # a JSON string is prose too: "4 matters" as a string
    return matcher.same(t, expected, prose) or matcher.in_text(t, expected, prose, stated=stated)


# Words that may stand before a person's name without making it another name ("Ms. Ana Ruiz").
_TITLES = frozenset("mr mrs ms miss mx dr prof professor sir dame madam mme hon judge justice".split())


def as_name(value: Any) -> str | None:
    """A person's name as it is compared: case, spacing and the dots after initials aside, and
    without a leading title ("Mr. R.  Castillo" → "r castillo"). None for no name at all."""
    if not isinstance(value, str):
        return None
    words = value.replace(".", " ").casefold().split()
    while len(words) > 1 and words[0] in _TITLES:
        words.pop(0)
    return " ".join(words) or None


def same_name(expected: Any, got: Any) -> bool:
    """Do two values name the same person? The whole name, never a part of it: "R." and
    "Castillo" are not R. Castillo."""
    name = as_name(expected)
    return name is not None and name == as_name(got)


def stated_in(types: Types, t: str, expected: Any, text: str) -> bool:
    """Does `text` (an instruction) already hold every value of the answer, so that an agent
    could copy it without a call? (No limit on other values here: an instruction may name many.)"""
    return AnswerMatcher(types).in_text(t, expected, text, guesses=True)


def names_a_decoy(types: Types, t: str, decoys: list, answer: Any, label: str | None = None) -> bool:
    """Does an answer that reports the expected value also name one of `decoys` (other values of
    the field asked for)? Then it lists candidates instead of answering: "the memo is one of A;
    B; C" holds the right memo and fails, and so does {"memo": "A", "or": "B"}. Read in the
    answer's text (prose, or a JSON string) and in every value of a JSON object or list (the
    object that gives several reports holds their values, which are no decoys)."""
    value, prose = as_reported(answer)
    if prose is None and isinstance(value, (dict, list)):
        items = value.values() if isinstance(value, dict) else value
        return any(any(answer_matches(types, t, d, v) for d in decoys) or names_a_decoy(types, t, decoys, v) for v in items if v is not None)
    text = prose if prose is not None else value if isinstance(value, str) else None
    if text is None:
        return False
    matcher = AnswerMatcher(types)
    # a number followed by a word the question does not use counts something else: "wrote off
    # the entry of 3 hours" names no candidate for "the number of messages" (decoys 2 and 3)
    asked = set(re.findall(r"[a-z]+", label.casefold())) if label else None
    folded = " ".join(text.split()).casefold()
    base = types.base(t)
    for d in decoys:
        atoms = list(matcher._atoms(base, d))
        if atoms and all(_named(matcher, kind, v, text, folded, asked) for kind, v in atoms):
            return True
    return False


# words after a number that join candidates rather than name a quantity ("2 or 3", "3 and 4")
_JOINERS = frozenset("or and to nor maybe perhaps possibly".split())


def _named(matcher: AnswerMatcher, kind: str, value: Any, text: str, folded: str, asked: set | None = None) -> bool:
    """`_found`, but text only as whole words: a decoy "memo" is not named by "memorandum"; and,
    given the words of the question (`asked`), a number followed by another word ("3 hours"
    when the question counts messages) is a quantity of something else, not a candidate."""
    if kind == "text":
        return bool(value) and re.search(r"(?<!\w)" + re.escape(value) + r"(?!\w)", folded) is not None
    if kind == "number" and asked is not None:
        for m in _NUMBER.finditer(text):
            if _number(m.group(0)) != value:
                continue
            unit = re.match(r"\s*([A-Za-z]+)", text[m.end() :])
            if unit is None or unit.group(1).casefold() in asked or unit.group(1).casefold() in _JOINERS:
                return True
        return False
    return matcher._found(kind, value, text, folded)

