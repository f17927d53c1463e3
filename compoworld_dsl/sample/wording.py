"""The words of an instruction, apart from the walk: a record described as a person does, a
`say`/`gives` template filled, and the measures the benchmarks and tests read an instruction
by (words of prose, the most-quoted value, descriptions said twice, path depth, to-do lists).
Functions of text and of the world's people; `phrasing.Phraser` composes them."""

from __future__ import annotations

import re
from typing import Any

from ..codegen.python import tstr
from ..runtime.state import State
from ..vocab import article as a_or_an, prose_field
from .people import words


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


def describe(people, state: State, table: str, desc: dict[str, Any], formerly: set = frozenset()) -> str:
    """A record described as a person does: by what it is known by, without a label, then by
    labelled fields ('the matter "Lease dispute" with client "Ana Ruiz"', 'the purchase order
    "PO-23376"'); the labelled form where the description does not begin with the text it is
    known by ("the shipment with sales order "SO-50563" and carrier ups"). The fields in
    `formerly` are said as they were before the task changes them ('the drive file formerly
    "Q1 plan"')."""
    kb = people.known_by.get(table) or (None,)
    names = list(desc)

    def part(f: str) -> str:
        whole = people.part(state, table, f, desc[f])  # "{label} {value}"
        label = people.label(table, f)
        return f"{label} formerly {whole[len(label) + 1 :]}" if f in formerly else whole

    # a record known by a sentence (an imported channel group known by its description, having
    # no name) is said with the label: 'the channel group with description "Please review
    # before Friday."', which a blind player had read as a name
    prose = kb[0] is not None and prose_field(kb[0])
    # (a row known by its key is known by a name: Azure's clusters, keyed by their names)
    named = kb[0] is not None and (people.types.base(people.fields[table][kb[0]]) == "text" or kb[0] == people.key[table])
    if not names or names[0] != kb[0] or prose or not named or not isinstance(desc[kb[0]], str):
        if not formerly:
            return people.phrase(state, table, desc)
        parts = [part(f) for f in names]
        return f"the {people.noun[table]} with " + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0])
    shown = people.value_text(people.fields[table][kb[0]], desc[kb[0]])
    whole = _whole_name(kb, desc, formerly)
    if whole is not None:
        # a person known by a first and a last name is said by both: 'the player "Hannah
        # Moreno"', not 'the player "Hannah" with last name "Moreno"' (an imported SportsData
        # task, stop 65)
        shown, names = people.value_text(people.fields[table][kb[0]], whole), [f for f in names if f != kb[1]]
    head = f"the {people.noun[table]} {'formerly ' if kb[0] in formerly else ''}{shown}"
    rest = [part(f) for f in names[1:]]
    return head if not rest else f"{head} with " + (", ".join(rest[:-1]) + " and " + rest[-1] if len(rest) > 1 else rest[0])


# (and a person's `name` object flattened, Clever's `name_first` and `name_last`)
_FIRST = re.compile(r"(?:^|_)(?:first|given)_?name$|^name_(?:first|given)$")
_LAST = re.compile(r"(?:^|_)(?:last|family|sur)_?name$|(?:^|_)surname$|^name_(?:last|family)$")


def _whole_name(kb: tuple, desc: dict[str, Any], formerly: set) -> str | None:
    """"Hannah Moreno" where a record is known by a first and a last name (in that order) and the
    description holds both as text; else None."""
    if len(kb) < 2 or kb[0] is None or not (_FIRST.search(kb[0]) and _LAST.search(kb[1] or "")):
        return None
    first, last = desc.get(kb[0]), desc.get(kb[1])
    if not (isinstance(first, str) and isinstance(last, str) and first and last) or kb[0] in formerly or kb[1] in formerly:
        return None
    return f"{first} {last}"


def fill(people, template: str, types: dict, arg) -> str:
    """A `say`/`gives` template with each placeholder replaced by `arg(name)`, the argument's
    phrase; a noun just before a described argument is dropped ("close matter {id}" → "close the
    matter with title ...")."""
    out, pos = [], 0
    for m in re.finditer(r"\{([^{}]*)\}", template):
        name = m.group(1).strip().split(".")[0]
        before = template[pos : m.start()]
        if name not in types:
            out.append(before + m.group(0))
            pos = m.end()
            continue
        shown = arg(name)
        rt = people.ref_table(tstr(types[name]))
        if shown.startswith(("the ", "that ")) and rt is not None:  # a record, named in full: its noun goes
            nouns = [words(name), people.noun[rt].lower(), people.noun[rt].split()[-1].lower()]
            dropped = False
            for noun in sorted(nouns, key=len, reverse=True):
                if before.rstrip().lower().endswith(" " + noun) or before.rstrip().lower() == noun:
                    before, dropped = before.rstrip()[: -len(noun)], True
                    break
            if before.lower().endswith("the "):  # "close the task {id}": "close the new task"
                before = before[:-4]
            elif re.search(r"(?:^|\s)an? $", before, re.I):
                # (or "a": "end a session {arn}" was "End a the remote access session ...", an
                # imported Device Farm task of stop 70)
                before = before[: before.rstrip().rfind(" ") + 1] if " " in before.rstrip() else ""
            elif dropped and (adj := re.search(r"\bthe ((?:[\w-]+ ){1,2})$", before, re.I)) and not set(adj.group(1).lower().split()) & (_BOUNDARY | {"and", "with"}):
                # a say such as "reinstate the written-off time entry {id}": "reinstate the
                # written-off time entry with the most hours", not "the written-off the time entry with ..."
                before = before[: adj.start()]
                article, _, rest = shown.partition(" ")
                shown = f"{article} {adj.group(1)}{rest}"
        else:
            before = _undoubled(before, shown)
        if before.endswith(" a ") and a_or_an(shown) == "an":
            before = before[:-2] + "an "  # "file a {kind}" with kind evidence
        elif before.endswith(" an ") and a_or_an(shown) == "a":
            before = before[:-3] + "a "  # "add an {kind}" with kind user
        if shown.startswith("that ") and re.search(r"\bthat $", before, re.I):
            shown = "the " + shown[5:]  # "note that the matter is due ...", not "note that that matter"
        if shown.startswith("that ") and before.strip() and "".join(out).rstrip().endswith(f"{before.strip()} {shown}"):
            # "by the fee earner of the time entry ... among the unbilled time on that matter":
            # the template's " on {matter}" would say "on that matter" twice in a row
            pos = m.end()
            continue
        out.append(_set_off(out, before) + shown)
        pos = m.end()
    out.append(_set_off(out, template[pos:]))
    return "".join(out).replace("{{", "{").replace("}}", "}")


def _undoubled(before: str, shown: str) -> str:
    """`before` without the field's words it ends with where the value's phrase begins with them
    after a preposition: "with memo {memo}" and "the memo the house rules call for" give "with
    the memo the house rules call for", not "with memo the memo ..."; "due {due}" and "the due
    date of ..." keep their words (no preposition before "due")."""
    head = shown.split()
    if len(head) < 2 or head[0].lower() != "the":
        return before
    said = before.rstrip()
    for n in (3, 2, 1):
        noun = " ".join(head[1 : 1 + n])
        if len(head) > n and said.lower().endswith(" " + noun.lower()):
            rest = said[: -len(noun)].rstrip()
            if rest.rpartition(" ")[2].lower() in _BOUNDARY | {"with"}:
                return rest + " "
    return before


def _set_off(out: list[str], text: str) -> str:
    """`text`, the template's words after what `out` says, with a comma first where they would
    read as part of it: "the channels that colleague belongs to, to ...", not "to to"; "about
    the matter "X" with client "Y", with the subject ...", not "with client "Y" with the
    subject"."""
    said = "".join(out).split()
    if said and text.split()[:1] == said[-1:] and not _QUOTED.search(said[-1]):
        return "," + text
    last = out[-1] if out else ""
    if text.startswith(" with ") and " with " in last[last.find("the ") :]:
        return "," + text
    return text


# ─────────────────────────── measures of the prose ───────────────────────────
# (bench/task_quality.py and tests/test_prose_*.py: what issue 29 counts)

_QUOTED = re.compile(r'"[^"\n]+"')


def prose_of(instruction: str) -> str:
    """The instruction without its house-rules block."""
    return instruction.split("\nHouse rules:")[0]


def most_quoted(instruction: str) -> int:
    """The most times one quoted value appears in the instruction (0 when none is quoted)."""
    seen: dict[str, int] = {}
    for q in _QUOTED.findall(prose_of(instruction)):
        seen[q] = seen.get(q, 0) + 1
    return max(seen.values(), default=0)


# words that end a description in a sentence ("... and client "Ana Ruiz" to 2025-03-01")
_BOUNDARY = frozenset("among to for on at in into from is as by of about under".split())


def repeated_descriptions(instruction: str) -> list[str]:
    """Descriptions said again: each place where a run of six words or more that begins as a
    description does ("the matter with title ...", 'the matter "Lease dispute" with client ...',
    "the purchase order with the latest ...") and holds a value (a quoted text or a number) and
    a "with" of its own (not inside a quote) appears again, outside a repeat already counted. A
    record's name alone ('the matter "Acquisition of Bluewater Properties"') is no description.
    Two records that share the first fields of their descriptions are not a repeat: their common
    run stops inside the description ('... carrier ups and' tracking number / status ...)."""
    words = prose_of(instruction).split()
    low = [w.lower() for w in words]
    quoted, inside = [], False  # whether each word is (part of) a quoted value
    for w in words:
        quoted.append(inside or '"' in w)
        inside ^= w.count('"') % 2 == 1
    out, covered = [], 0
    for k in range(len(low) - 5):
        if k < covered or low[k] != "the" or not any(low[i] == "with" and not quoted[i] or low[i].startswith('"') for i in range(k + 1, min(k + 4, len(low)))):
            continue
        for i in range(k):
            n = 0
            while k + n < len(low) and i + n < k and low[i + n] == low[k + n]:
                n += 1
            if n < 6:
                continue
            run = range(k, k + n)
            after = low[k + n] if k + n < len(low) else "."
            ends = low[k + n - 1][-1:] in '".;:' or any(c.isdigit() for c in low[k + n - 1]) or after in _BOUNDARY
            if ends and any(low[r] == "with" and not quoted[r] for r in run) and any(quoted[r] or any(c.isdigit() for c in low[r]) for r in run):
                out.append(" ".join(words[k : k + n]))
                covered = k + n
                break
    return out


_LINK = re.compile(r"\b(?:of|on|by|to|for|about) (?:the|that)\b")


def path_depth(instruction: str) -> int:
    """The most records one list a description picks from goes through (issue 29: "the matter
    ... among the matters of the client of the invoice ... among the invoices of the matter ..."
    goes through three: the client, the invoice, the matter): the links ("of the", "on that",
    ...) after an "among", up to the end of the clause, quoted values aside. 1 for 'among the
    matters of the contact "Lucia Moreno"'."""
    text = _QUOTED.sub("Q", prose_of(instruction))
    deepest = 0
    for m in re.finditer(r"\bamong (?:the|that)\b", text):
        clause = re.split(r"[,;.:]| (?:is|to|into|at|back|as|under|from|with the subject) ", text[m.end() :], maxsplit=1)[0]
        deepest = max(deepest, len(_LINK.findall(clause)))
    return deepest


# how a sentence that follows from another begins ("Once that is done, ...", "For the matter ...")
_JOINED = re.compile(r"^(?:once|when|after|before|for|if|then|also|otherwise)\b", re.I)


def reads_as_list(instruction: str) -> bool:
    """Does the instruction read as a to-do list: two goal sentences in a row, each a bare
    command ("Open a matter ... . Open a trust account ... .")? The report ("Then tell me ...")
    and the extra request ("Also make sure ...") begin with their own joining words; quoted values
    aside (a note's text holds sentences of its own)."""
    text = _QUOTED.sub("Q", prose_of(instruction))
    sentences = [x for x in re.split(r"(?<=[.!?])\s+(?=[A-Z])", text.strip()) if x]
    bare = [not _JOINED.match(x) for x in sentences]
    return any(a and b for a, b in zip(bare, bare[1:]))
