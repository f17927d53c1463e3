"""Word lists that both the importer and the sampler read: one definition, no imports, so
neither depends on the other."""

from __future__ import annotations

import re

# the last word of a field that holds a sentence, not a name: a record known by one (an imported
# channel group, which has no name) is added "with description ..." (`importers.openapi`) and
# described with the label, 'the channel group with description "..."' (`sample.wording`)
PROSE_FIELDS = frozenset({"description", "desc", "notes", "note", "comment", "comments", "message", "body", "text", "memo", "remarks"})


def norm(name) -> str:
    """How two names are compared: case and separators ignored (`iCalUID` ~ `i_cal_uid`,
    `zip_code` ~ `zipCode`): the importers' matching of spec names and the sampler's of a
    field to a parameter (`WalkGraph.may_flow`)."""
    return re.sub(r"[^a-z0-9]", "", str(name).lower())


# (not before an acronym's plural `s`: "the given IDs" was "the given i ds", stop 69)
_WORD_START = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])(?![A-Z]s(?:[^a-z]|$))")


def words(name: str) -> str:
    """`set_at` → "set at", `TrustAccount` → "trust account"; a run of capitals is one word
    (`HTMLBody` → "html body", `ADCCatalog` → "adc catalog": the sampler said "a d c catalog"
    where the importer's phrases said "adc catalog", and an imported Azure task read "delete adc
    that a d c catalog"). The importer and the sampler say names alike."""
    return _WORD_START.sub(" ", name).replace("_", " ").lower().strip()


_SENTINEL = re.compile(r"(?:^|_)(?:unspecified|unknown|undefined|not_?set)$")


def placeholder_members(members) -> list[str]:
    """The members of an enum that stand for no value (Google's `COMMITMENT_PLAN_UNSPECIFIED`,
    a run's `UNKNOWN` state, the proto default): no row is seeded with one and no task asks to
    set one ("with capacity commitment plan commitment plan unspecified", a sampled task). None
    where every member is one."""
    got = [m for m in members if _SENTINEL.search(str(m).lower())]
    return got if len(got) < len(list(members)) else []


_ADDRESS_NAME = re.compile(r"(?:^|_)email(?:_address)?$")


def address_name(name: str) -> bool:
    """Is a parameter (snake case) named as an email address (`email`, `owner_email_address`)?
    The importer writes it a pool of addresses, and the sampler draws it only from addresses,
    where it is kept as text (LetMC's `email: text` was given "address3 29")."""
    return _ADDRESS_NAME.search(name) is not None


def prose_field(name: str) -> bool:
    """Does a field (or parameter) of this snake-case name hold a sentence (`description`,
    `channel_description`, `component_remarks`)?"""
    return name.rsplit("_", 1)[-1] in PROSE_FIELDS


# words that start with a vowel letter and a consonant sound ("a user", "a unit", "a European
# office", "a one-off fee"), and with a consonant letter and a vowel sound ("an hour")
_YOU = ("uni", "use", "usa", "usu", "uti", "ure", "uri ", "url ", "euro", "eu ", "one ", "one-", "once")
_SILENT_H = ("hour", "honest", "honor", "honour", "heir")


def article(phrase: str) -> str:
    """The indefinite article a person says before `phrase`: "a user" (an imported Okta task said
    "add an user"), "an hour", "an SMS", "a URL" (an acronym is said letter by letter)."""
    first = phrase.strip().split(" ", 1)[0] if phrase.strip() else ""
    low = first.lower() + " "
    if not first:
        return "a"
    if 2 <= len(first.rstrip("s")) <= 5 and first.rstrip("s").isupper() and first.isalpha():
        return "an" if first[0] in "AEFHILMNORSX" else "a"
    if low.startswith(_YOU):
        return "a"
    if low.startswith(_SILENT_H):
        return "an"
    return "an" if low[0] in "aeiou" else "a"


# a word said twice in a row ("the organization organization id", "with priority priority
# medium"): an imported label that repeats its wrapper, or an enum member its field's name
_DOUBLED = re.compile(r"\b([A-Za-z]+)(?: \1\b)+", re.I)


def word_once(text: str) -> str:
    """`text` with a word said twice (or more) in a row said once, outside quoted values: the
    importer's labels (`importers.speak`) and the sampler's instructions (`sample.phrasing`)."""
    parts = re.split(r'("[^"]*")', text)
    return "".join(p if i % 2 else _DOUBLED.sub(r"\1", p) for i, p in enumerate(parts))


# nouns that end in an `s` of their own, one of them (`singular` keeps them, `plural` adds
# `es`): read as plurals, AWS Payment Cryptography's aliases were "alia"s and a get of one alias
# became a list of "alias" ("GetAlias" was no get: the aliases had no table), and a status list
# was a list of "statuse"s
S_NOUNS = frozenset(
    "alias bias canvas atlas gas lens bus plus minus status campus virus bonus census corpus focus nexus "
    "radius genus syllabus consensus stimulus apparatus prospectus cactus onus iris chassis".split()
)
# nouns one of which is many too
SAME_NOUNS = frozenset("series species news".split())
# Latin plurals (Vectara lists `corpora` and creates a `corpus`: read as "corpora" and "corpus",
# the two were two collections, `/v1/corporas` and `/v1/corpuses`, and neither had a task)
LATIN = {"corpora": "corpus", "criteria": "criterion", "phenomena": "phenomenon", "indices": "index", "vertices": "vertex", "matrices": "matrix", "appendices": "appendix"}
# the plurals `plural` gives so (an index, a vertex are "indexes", "vertexes" in the APIs' words)
LATIN_PLURAL = {one: many for many, one in LATIN.items() if many.endswith("a")}


def _last_as(word: str, last: str, new: str) -> str:
    """`word` with its last word `last` (as `_last_word` gives it, lower case) made `new`, its
    first letter's case kept (`Corpora` → `Corpus`)."""
    head = word[: len(word) - len(last)]
    return head + (new.capitalize() if word[len(head)].isupper() else new)


def _last_word(word: str) -> str:
    return re.split(r"[ _]", word)[-1].lower()


def singular(word: str) -> str:
    """One of a plural noun ("policies" → "policy"); the importer's and the sampler's."""
    w = word
    last = _last_word(w)
    if last in LATIN:
        return _last_as(w, last, LATIN[last])
    if last in S_NOUNS or last in SAME_NOUNS:
        return w
    if last.endswith("es") and last[:-2] in S_NOUNS:
        return w[:-2]  # aliases, statuses, lenses
    if last.endswith("yses") and len(last) > 5:
        return w[:-2] + "is"  # analyses
    for end, rep in (("ies", "y"), ("sses", "ss"), ("xes", "x"), ("ches", "ch"), ("shes", "sh")):
        if w.endswith(end) and len(w) > len(end) + 1:
            return w[: -len(end)] + rep
    if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        return w[:-1]
    return w


def plural(word: str) -> str:
    """The plural of a noun's last word ("policy" → "policies")."""
    last = _last_word(word)
    if last in LATIN_PLURAL:
        return _last_as(word, last, LATIN_PLURAL[last])
    if last in S_NOUNS:
        return word + "es"
    if last in SAME_NOUNS:
        return word
    if last.endswith(("ysis", "asis", "esis", "osis")) and len(last) > 5:
        return word[:-2] + "es"  # analysis → analyses, basis → bases
    if word.endswith(("s", "x", "ch", "sh")):
        return word if word.endswith("s") and not word.endswith("ss") else word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"
