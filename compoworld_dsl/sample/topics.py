"""What a stated text is about, by its words: whether a note, comment, message or document a task
states fits the record it is written on (a note on the ticket "Webhook deliveries failing" about
webhooks, not a refund). It reads words and a state; it draws nothing and changes nothing."""

from __future__ import annotations

import functools
import os
import re
from collections import Counter
from typing import Any

from ..runtime.state import State
from .people import People, words

# words that say nothing about what a text is about
_STOP = frozenset(
    """the and for with our your their this that these those from are was were has have had not but
    will can could would should into onto over under about after before below above per via
    all any each new old one two three more most less than then there here when what which who
    whom whose why how its his her they them you yes also only just some such very out off own
    same other next last first may might must shall been being did does done get got let put
    see set use used please thanks thank asked ask need needs none""".split()
)


@functools.lru_cache(maxsize=4096)
def words_of(text: str) -> frozenset[str]:
    """The words of a text that can say what it is about (three letters or more, no filler),
    case folded."""
    return frozenset(w for w in re.findall(r"[a-z0-9]+", text.casefold()) if len(w) >= 3 and w not in _STOP)


def _same_word(a: str, b: str) -> bool:
    """One word in two forms ("roof" and "roofing", "defective" and "defects"): they agree up to
    the shorter's last letter, and on four letters at least ("restriction" and "restructuring"
    do not)."""
    if a == b:
        return True
    return len(os.path.commonprefix([a, b])) >= max(4, min(len(a), len(b)) - 1)


def _stem(w: str) -> str:
    """What another form of `w` must begin with (`_same_word`)."""
    return w if len(w) < 4 else w[: max(4, len(w) - 1)]


@functools.lru_cache(maxsize=4096)
def _beginnings(ws: frozenset[str]) -> frozenset[str]:
    return frozenset(w[:n] for w in ws for n in range(min(4, len(w)), len(w) + 1))


@functools.lru_cache(maxsize=4096)
def _stems(ws: frozenset[str]) -> frozenset[str]:
    """`_stem` of each word of four letters or more: what another form of one of them begins with."""
    return frozenset(_stem(w) for w in ws if len(w) >= 4)


def shares(a: frozenset[str], b: frozenset[str]) -> bool:
    """Do two texts' words hold one word (in any of its forms, `_same_word`)? (A word set's
    stems and beginnings are worked out once: the same sets are asked about draw after draw.)"""
    if a & b:
        return True
    return not _stems(a).isdisjoint(_beginnings(b)) or not _stems(b).isdisjoint(_beginnings(a))


def record_words(people: People, state: State, table: str, key: Any) -> frozenset[str]:
    """The words of one record: its text fields and its enum values ("real estate")."""
    row = state.tables.get(table, {}).get(key)
    if row is None:
        return frozenset()
    # a row is never changed in place (`State`), so its words are worked out once
    return _once(("row", table, id(people)), row, lambda: _row_words(people, table, row))


def _row_words(people: People, table: str, row: dict) -> frozenset[str]:
    out: set[str] = set()
    for f, t in people.fields[table].items():
        base = people.types.base(t)
        if base == "text" and isinstance(row[f], str):
            out |= words_of(row[f])
        elif base.startswith("enum:") and row[f] is not None:
            out |= words_of(words(str(row[f])))
    return frozenset(out)


KEPT = 16384  # answers `_once` keeps (then it starts over)
_kept: dict = {}


def _once(kind: tuple, obj: Any, make) -> Any:
    """`make()`, worked out once for `obj` (a row, a profile, a pool of profiles: objects never
    changed in place), kept by `kind` and `obj`'s identity, with `obj` itself, so that its id
    stays its own while the answer is kept."""
    hit = _kept.get((kind, id(obj)))
    if hit is not None and hit[0] is obj:
        return hit[1]
    if len(_kept) >= KEPT:
        _kept.clear()
    got = make()
    _kept[(kind, id(obj))] = (obj, got)
    return got


def topic(people: People, state: State, records: list[tuple[str, Any]]) -> tuple[frozenset[str], frozenset[str], frozenset[str]] | None:
    """(the words of the records a call writes on, the words that are about one other record of
    their tables and not these): a word most of a table's kinds of row hold ("open") is about none,
    and one that several others share ("agreement", "claim") singles none of them out; and the
    texts the records hold, case folded: a text they hold already is no new one for them (a
    document renamed to the title it has changes nothing). None where the call is on no record."""
    if not records:
        return None
    mine: set[str] = set()
    others: set[str] = set()
    held: set[str] = set()
    for table, key in records:
        rows = state.tables.get(table, {})
        per = {k: record_words(people, state, table, k) for k in rows}
        kinds = set(per.values())  # (look-alikes and repeated profiles count once)
        kinds_holding = Counter(w for ws in kinds for w in ws)
        common = {w for w, n in kinds_holding.items() if n * 2 > len(kinds)}
        mine |= per.get(key, frozenset()) - common
        held |= {v.casefold() for v in rows.get(key, {}).values() if isinstance(v, str)}
        # the kinds but this record's hold each word as often as all do, less this record's own
        theirs_holding = kinds_holding - Counter(per[key]) if per.get(key) in kinds else kinds_holding
        others |= {w for w, n in theirs_holding.items() if n == 1} - common
    return frozenset(mine), frozenset(others - mine), frozenset(held)


PROSE_WORDS = 4  # a pool of texts this long (median) is prose a record is about, not names


def prose(texts) -> bool:
    """Are these texts sentences (a note, a comment, a message's body) rather than names or
    labels ("Priya Nair", "First Harbor Trust"), which are about nothing?"""
    counts = sorted(len(str(t).split()) for t in texts)
    return bool(counts) and counts[len(counts) // 2] >= PROSE_WORDS


def profile_text(profile: dict) -> str:
    """A seed profile's texts as one ("Statement of claim Filed with the court; ...")."""
    return _once(("profile",), profile, lambda: " ".join(v for v in profile.values() if isinstance(v, str)))


def profiles_prose(profiles) -> bool:
    """Are a seed pool's profiles prose (`prose` of their texts)? A world's pools do not change,
    so it is worked out once a pool."""
    return _once(("prose",), profiles, lambda: prose(profile_text(p) for p in profiles))


def fitting(options: list, text_of, about: tuple[frozenset[str], frozenset[str], frozenset[str]] | None, strict: bool = False) -> list:
    """The options whose text (`text_of(option)`) fits the records the call writes on (`about`,
    from `topic`): those about them, sharing a word with them ("Checked the logs: the webhook
    endpoint returns 502." on "Webhook deliveries failing"); else those about no other record
    of their tables (a text any record takes: "Could you send a screenshot of the error?"); else
    all (`strict`: none). The options' order is kept (draws stay reproducible)."""
    if about is None or not options:
        return [] if strict and not options else list(options)
    mine, others, held = about
    new = [o for o in options if text_of(o).casefold() not in held]
    texts = [words_of(text_of(o)) for o in new]
    on = [o for o, ws in zip(new, texts) if shares(ws, mine)]
    if on:
        return on
    neutral = [o for o, ws in zip(new, texts) if not shares(ws, others)]
    return neutral or ([] if strict else list(options))


def not_about_another(options: list, text_of, about: tuple[frozenset[str], frozenset[str], frozenset[str]] | None) -> list:
    """The options that are not about another record than the ones the call writes on (`about`,
    from `topic`): for labels and short texts (a tag, a reason), which `fitting` leaves alone as
    they are about no record as a rule, but one can be: "CSV export times out", a ticket's
    subject, as the tag of a refund ticket. Those about these records or about none are kept, in
    order; where none is, all."""
    if about is None or not options:
        return list(options)
    mine, others, _ = about
    kept = [o for o in options if shares(ws := words_of(text_of(o)), mine) or not shares(ws, others)]
    return kept or list(options)

