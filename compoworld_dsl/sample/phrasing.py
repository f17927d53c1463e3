"""The instruction of a goal-level task, in a person's words. It reads the walk and the world's
facts; it decides nothing about the task, so the wording can change without touching a proof.

It states the outcomes (the walk's writes, worded by the tools' `say` phrases), the facts a person
knows (stated values), and what to report; it names records by description and values by where
they come from ('the email of the responsible lawyer of the matter "Lease dispute"'), never by a
step number, a tool or an id the person would not know, each record in full once and then by
reference ("that matter"), goals about one record in one sentence. Reads are not mentioned:
finding things is the agent's job. Everything here reads the walk; nothing here decides what the task is, so the
wording can change without touching a proof."""

from __future__ import annotations

import itertools
import re
from typing import Any

from ..check import types as T
from ..codegen.python import tstr
from ..runtime.state import State
from ..vocab import plural, word_once
from .facts import WorldFacts
from .people import same_as_said, words
from .steps import Step, fields_written, needed_besides, output, plainly_found, result_table
from .wording import _sentence, describe, fill

# what a read with no `gives` calls its result (lint's W107 asks for a `gives`)
_FOUND = "what you find when you "

# prepositions a sentence's topic stands for: "For the matter ..., record a disbursement of 500"
_COMPLEMENT = frozenset("for of under on".split())

# how a goal that follows from the one before it begins (`Phraser.instruction`), by its step
_THEN = ("once that is done, ", "then ", "after that, ")
# writes that end a record: the goals before them on it read "..., before you close it"
_ENDING = re.compile(r"^(?:close|archive|delete|cancel|void|retract|deactivate|expire|retire|offboard|end|finish|complete|write off)\b", re.I)

# in a named record's values (`Phraser._mentioned`): the rank it was found by; a record a write creates
_RANK, _NEW = "\0rank", "\0new"


# a write whose object comes between its verb and a particle ("put {id} on leave", "flag
# customer {id} as a VIP"): where the object is a long description, the particle goes before it
# ("flag as a VIP the customer of the survey ... among ..."), as a writer moves a heavy object to
# the end (seen reading the ninth round's draw: the particle fifty words after its verb reads
# as part of the description's last noun, "that organisation as a VIP"). Not a tail that
# refers back to the object ("from its pay run"), goes on with a clause ("and its transcript",
# "with a replacement"), or makes the verb another one ("move ... on to the next stage").
_PARTICLE_TAIL = re.compile(r"(\w+) [^{}]*?\{(\w+)\} ((?:as|on|off|back|out|into|from|for|to)\b[^{}]*)")
_HEAVY_OBJECT = 10  # words of an object description that make it heavy
# words before a value in a `gives` phrase that make the value no subject of a clause ("the
# {status} campaigns", "the documents filed for {matter}"): `Phraser.report`
_NOT_A_NOUN = frozenset("the a an of in on for from to by at with and or as about than that who which whose".split())


class Phraser:
    def __init__(self, facts: WorldFacts, state0: State, steps: list[Step], values: dict, results: list, left: set | None = None):
        self.facts = facts
        self.left = left or set()  # (step, argument) the house rules decide: never stated (ruled.py)
        self.people = facts.people
        self.state0 = state0
        self.steps = steps
        self.values = values
        self.results = results
        self._subjects: dict[int, str] = {}
        self._said: set[str] = set()  # subjects named in full so far
        self._short: dict[tuple, tuple[str, set]] = {}  # a described record → its name once said in full, and the fields it uses
        self._changed: dict[tuple, set] = {}  # a record → the fields the writes said so far change
        # the records the text has named so far, by noun, in the order it named them: "that
        # matter" is said where the matter meant is the only one named so far (a reader takes
        # "that" back to what was said before it); a record a write creates counts from the
        # write on ("record a disbursement ...; if the status of that disbursement ..." would
        # read as the new one)
        self._mentioned: dict[str, dict[tuple, tuple]] = {}  # noun → record → (table, its values as known)
        self._alone_said: dict[tuple, Any] = {}  # records named on their own in place of a path (`_alone`) → their keys
        # every record the text names by its own values (`_alone`): (table, key) → those fields;
        # the agent finds each with a finder call the walk may not make (`lookups.py`)
        self.named_alone: dict[tuple[str, Any], tuple[str, ...]] = {}
        self._pathed: set[tuple[str, Any]] = set()  # records the text also names through a step's field
        self._read_for: set[int] = set()  # steps whose output the instruction asks for (reports, a branch)
        self._telling_parts: frozenset[str] | None = None  # `_telling`, worked out at its first use

    # ─────────────────────────── noun phrases ───────────────────────────

    def subject(self, j: int, base: bool = False) -> str:
        """What step j's output is, as a noun phrase: in full the first time its record is named,
        then as `_again` says. `base`: the record another one is named through ("the matters of
        {it}", "the client of {it}"): named on its own where its own phrase would go through a
        further record (`_alone`), so that a description goes through at most one other."""
        table = self._table(j)
        out = _output(self, j)
        ident = (table, repr(out.get(self.people.key[table]))) if table is not None and isinstance(out, dict) else ("step", j)
        if ident in self._said:
            return self._again(j, table, ident)
        # named from here on, before what its phrase names inside it ("the colleague with the
        # latest start date among the direct reports of the colleague ...": two colleagues)
        how = self.steps[j].how
        self._mention(table, ident, {**out, _RANK: (how["field"], how.get("order"))} if how is not None and how["by"] == "rank" and isinstance(out, dict) else out)
        if j not in self._subjects:
            alone = self._alone_step(j) if base else None
            self._subjects[j] = alone[0] if alone is not None else self._subject(j, base)
            short = alone or self._short_name(j)
            if short is not None:
                self._short.setdefault(ident, short)
        self._said.add(ident)
        return self._subjects[j]

    def _again(self, j: int, table: str | None, ident: tuple) -> str:
        """A record said in full already: "that matter" when it is the only one of its kind named
        so far; else the shorter of the fewest fields of its description that single it out
        (`_short_name`: 'the purchase order "PO-23376"') and a reference back by as much of it
        as tells it from the others named so far (`_tag`: 'that purchase order "PO-23599"'); or
        else again, with the records inside the phrase named short ("the patient of that
        appointment")."""
        named = self._subjects.get(j)
        if table is not None and self._only(table, ident) and (named is None or re.search(rf"\b{re.escape(self.people.noun[table].split()[-1])}\b", named)):
            # (not where it was named by what a read gives without its noun: "the latest
            # correspondence of that matter" is no "document" a reader takes "that document" to)
            return f"that {self.people.noun[table]}"
        # a value the task's own writes have changed is no name for it any more ("rename the
        # file "Q1 plan" to "Board pack". If the file "Q1 plan" ..."): other fields, or else
        # what it was before ('that drive file formerly "Q1 plan"')
        changed = self._changed.get(ident, set())
        short, fields = self._short.get(ident, (None, set()))
        short = None if fields & changed else short
        tag = self._tag(j, table, ident, avoid=changed) or (self._tag(j, table, ident, formerly=changed) if changed and short is None else None)
        if tag is None and changed and short is None:
            # named by nothing but what the task's own writes changed, in a description of one
            # field (which `_tag` would only say again): as it was ('that application formerly
            # "Riverside application"'), not by the old name alone ("the same role arn as the
            # application "Riverside application"" after the task renamed it: blind round 20).
            # Through the step that found it where step j is a write's result
            finder = next((i for i in range(j + 1) if self.steps[i].how is not None and "fields" in self.steps[i].how and self._table(i) == table and isinstance(o := _output(self, i), dict) and (table, repr(o.get(self.people.key[table]))) == ident), None)
            desc = self._description(finder) if finder is not None else {}
            if desc and set(desc) <= changed:
                tag = "that" + describe(self.people, self.state0, table, desc, changed)[3:]
        if short is not None and tag is not None:
            # 'the purchase order "PO-23376"' reads alone; a labelled one ("the room booking with
            # day 2025-03-24") is a description said again where a reference back is as short
            return short if len(short) < len(tag) and not (" with " in short and len(short.split()) >= len(tag.split())) else tag
        return short or tag or self._subject(j)

    def found_by_name(self) -> dict[tuple[str, Any], tuple[str, ...]]:
        """The records an agent can only find by the values the text names them by: (table, key)
        → those fields. Not one the text also names through the step that gives it ("the matter
        "A" of the invoice ..."): that path hands the agent its key."""
        return {r: f for r, f in self.named_alone.items() if r not in self._pathed}

    def _mention(self, table: str | None, ident: tuple, row: Any) -> None:
        """Count a record as named in the text from here on (`row`: its values as far as they
        are known, for `_tag`)."""
        if table is not None:
            self._mentioned.setdefault(self.people.noun[table], {}).setdefault(ident, (table, row))

    def _only(self, table: str, ident: tuple) -> bool:
        """Is `ident` the only record of its kind the text has named so far?"""
        return set(self._mentioned.get(self.people.noun[table], ())) == {ident}

    def _alone_step(self, j: int) -> tuple[str, set] | None:
        """Step j's record named on its own (`_alone`) where its own phrase would go through a
        further record: told apart among a list a call gives ("the matter ... among the matters
        of ..."). None otherwise."""
        how = self.steps[j].how
        if how is None or how["by"] != "description" or how.get("within") != "list":
            return None
        table, out = self._table(j), _output(self, j)
        if table is None or not isinstance(out, dict) or self.steps[j].tool.qualified in self.facts.mutating:
            return None
        # the steps step j took its arguments from would be needed for nothing else: the path stays
        if not all(needed_besides(self.steps, self.facts.mutating, self._read_for, src[1][0], but=j) for src in self.steps[j].sources.values() if src[0] == "step"):
            return None
        return self._alone(table, out.get(self.people.key[table]), j)

    def _alone(self, table: str, key: Any, j: int) -> tuple[str, set] | None:
        """A record named by its own values, in place of a path through the step j that found it
        (issue 29: "the X of the Y among the Z", three records deep): what it is known by, then
        its own labelled fields, as few as single it out in the seeded state, and holding the
        fields an entry of its table is called with (`facts.finders`), so that an agent can find
        it from the name alone. None where no such name exists; where the walk inserts into or
        deletes from its table, or writes a field of the name (the name would not hold to the
        end); or where step j's record, or one that fed it, was chosen by more than its own
        values (`steps.plainly_found`): the name would drop what the task is about."""
        people = self.people
        row = self.state0.tables.get(table, {}).get(key)
        finders = self.facts.finders.get(table)
        if row is None or not finders or not plainly_found(self.people, self.steps, self.facts.mutating, j):
            return None
        written = set()
        for s in self.steps:
            if table in {f"{s.tool.service}.{t}" for t in s.tool.inserts | s.tool.deletes}:
                return None
            written |= fields_written(s.tool, table)
        kb = [f for f in people.known_by.get(table, ()) if self.people.ref_table(people.fields[table][f]) is None or people.nameable(table, [f])]
        options = []
        for found in finders:
            for n in range(len(kb) + 1):
                fields = tuple(dict.fromkeys(kb[:n] + list(found)))
                if not set(fields) & written and people.nameable(table, fields):
                    options.append(fields)
        for fields in sorted(set(options), key=lambda fs: (len(fs), fs[:1] != tuple(kb[:1]), fs)):
            desc = people.description(self.state0, table, key, fields)
            if desc is not None and people.matches(self.state0, table, desc) == [key]:
                self.named_alone[(table, key)] = fields
                return describe(people, self.state0, table, desc), set(fields)
        return None

    def _alone_again(self, table: str, ident: tuple) -> str:
        """A record named on its own before, named again: by the first value of its name
        where that tells it from the others of its kind named so far, else by the whole name."""
        name, fields = self._short[ident]
        row = self.state0.tables.get(table, {}).get(self._alone_said[ident])
        kb = self.people.known_by.get(table) or (None,)
        others = [v for i, v in self._mentioned.get(self.people.noun[table], {}).items() if i != ident]
        if row is not None and kb[0] in fields and all(t == table and isinstance(o, dict) and self._tells(table, kb[0], row[kb[0]], o) for t, o in others):
            return "that" + describe(self.people, self.state0, table, {kb[0]: row[kb[0]]})[3:]
        return name

    def _tag(self, j: int, table: str | None, ident: tuple, avoid: set = frozenset(), formerly: set = frozenset()) -> str | None:
        """Step j's record named again as a reference back, by the fewest leading fields of its
        description that tell it from every other record of its kind named so far ('that matter
        "Lease dispute"', "that docket note with author "R. Castillo""), or, found by rank, by
        its rank alone ("that purchase order with the latest order date", without "among ...")
        when no other one named was found by the same rank. The full description came before,
        so the reference needs to tell it only from what the text has named; None when nothing
        short does. Never by the fields in `avoid`; those in `formerly` as they were."""
        how = self.steps[j].how
        if table is None or how is None:
            return None
        noun = self.people.noun[table]
        others = [v for i, v in self._mentioned.get(noun, {}).items() if i != ident]
        if how["by"] == "rank":
            if any(t == table and isinstance(row, dict) and row.get(_RANK) == (how["field"], how.get("order")) for t, row in others):
                return None
            return f"that {noun} with {self._ranked(how)}"
        desc = self._description(j)
        # all of it would be the description again, unless it was told apart "among" a list
        for n in range(1, len(desc) + (how.get("within") == "list")):
            for names in itertools.combinations(desc, n):
                part = {f: desc[f] for f in names}
                if set(names) & avoid or not all(t == table and isinstance(row, dict) and any(self._tells(table, f, v, row) for f, v in part.items()) for t, row in others):
                    continue
                return "that" + describe(self.people, self.state0, table, part, formerly)[3:]
        return None

    def _ranked(self, how: dict) -> str:
        """"the latest order date", "the smallest amount"."""
        table = how["table"]
        dated = self.facts.world.types.base(self.people.fields[table][how["field"]]) in ("date", "datetime")
        word = ("earliest" if dated else "smallest") if how.get("order") == "min" else ("latest" if dated else "largest")
        return f"the {word} {self.people.label(table, how['field'])}"

    def _tells(self, table: str, field: str, value: Any, row: dict) -> bool:
        """Does `field` = `value` tell a record apart from another one named, `row` (its values,
        or for a record a write creates, the values the write is given: 'that matter "Lease
        dispute"' is not the matter opened as "Estate of R. Okafor")? Compared as a description
        reads them: a reference by what its record is known by. A value not known tells nothing,
        but for the name a new record is known by when its write does not give it (the number
        of a new invoice is a new one: 'that invoice "WR-24284"' is not "the new invoice")."""
        if field not in row:
            kb = self.people.known_by.get(table) or (None,)
            return bool(row.get(_NEW)) and field == kb[0] and self.facts.world.types.base(self.people.fields[table][field]) == "text"
        a, b = row[field], value
        rt = self.people.ref_table(self.people.fields[table][field])
        if rt is not None:
            a, b = self.people.ref_value(self.state0, rt, a), self.people.ref_value(self.state0, rt, b)
        return not same_as_said(a, b)

    def _short_name(self, j: int) -> tuple[str, set] | None:
        """Step j's record named by the fewest leading fields of its description that no other
        record of its table the task names shares ("the patient with name "Max" and date of birth
        2021-12-17", without "among the pets of ..."): values said already, so nothing new. The
        short name must also fit no more rows of the state than the full description does (one
        row, for a description relative to a list), so that every mention can be read alone.
        None when it would be no shorter, or only the whole description tells the records apart;
        else (the name, the fields it uses)."""
        how = self.steps[j].how
        mine = _output(self, j)
        if how is None or how["by"] != "description" or not how["fields"] or not isinstance(mine, dict):
            return None
        table, key = how["table"], self.people.key[how["table"]]
        # a name must hold at every mention: not where the task adds rows to the table (a second
        # trip to "Paris" it requests), nor by a field a write of the task changes ("the
        # organisation with plan tier professional" after the task moved it to starter)
        if any(table in {f"{s.tool.service}.{t}" for t in s.tool.inserts} for s in self.steps):
            return None
        written = set().union(*(fields_written(s.tool, table) for s in self.steps))
        whole = [f for f in how["fields"] if f in mine]
        fields = [f for f in whole if f not in written]
        others = [o for i in range(len(self.steps)) if self._table(i) == table and isinstance(o := _output(self, i), dict) and o.get(key) != mine.get(key)]
        fits = [mine.get(key)] if how.get("within") == "list" else sorted(self.people.matches(self.state0, table, {f: mine[f] for f in whole}), key=repr)
        for n in range(1, len(fields) + 1):
            prefix = {f: mine[f] for f in fields[:n]}
            if all(any(o.get(f) != v for f, v in prefix.items()) for o in others) and sorted(self.people.matches(self.state0, table, prefix), key=repr) == fits:
                short = describe(self.people, self.state0, table, prefix)
                return (short, set(prefix)) if len(short) < len(self._subjects[j]) else None
        return None

    def _description(self, j: int) -> dict:
        """The fields and values that name step j's record, found by description, in order."""
        step, how = self.steps[j], self.steps[j].how
        key = step.pick if step.pick is not None else how.get("key")
        return self.people.description(self.state0, how["table"], key, tuple(how["fields"])) or {}

    def _subject(self, j: int, base: bool = False) -> str:
        step = self.steps[j]
        tool = step.tool
        how = step.how
        if how is not None and how["by"] == "description":
            desc = self._description(j)
            phrase = describe(self.people, self.state0, how["table"], desc)
            for f, v in desc.items():  # 'client "Ana Ruiz"' names that contact
                rt = self.people.ref_table(self.people.fields[how["table"]][f])
                if rt is not None:
                    self._said.add((rt, repr(v)))
                    self._mention(rt, (rt, repr(v)), self.state0.tables.get(rt, {}).get(v))
            if how.get("within") == "list":  # told apart among what the call shows
                among = self.gives(j)
                if among:
                    return f"{phrase} among {among}" if desc else f"the {self.people.noun[how['table']]} among {among}"
            return phrase
        if how is not None and how["by"] == "rank":
            table = how["table"]
            among = self.gives(j) or f"the {self.people.noun[table]} records"
            return f"the {self.people.noun[table]} with {self._ranked(how)} among {among}"
        if tool.qualified in self.facts.mutating:
            r = tool.result
            if not isinstance(r, (T.RecordT, T.ListT, T.NoneT)):  # a new row, or a value the write gives
                rt = self.people.ref_table(tstr(r))  # (the fees billed, not the matter: played)
                return f"the new {self.people.noun[rt]}" if rt is not None else self.gives(j) or f"what you get when you {self.say(j)}"
            # a new record the write inserts and gives whole (AWS's and Azure's creates answer
            # with it): the new one, not "the result", nor the record a key argument names (a new channel is
            # not the channel group it is added to)
            rt = result_table(self.people, tool) if isinstance(r, T.RecordT) else None
            if rt is not None and rt in self.facts.inserts.get(tool.qualified, {}) and not any(self.people.ref_table(tstr(pt)) == rt for _, pt in tool.params):
                return f"the new {self.people.noun[rt]}"
            # an updated record: the thing its key argument names, the one of the record the
            # write gives where it names several (an Azure database's create-or-update names its
            # cluster first: "remove principals for that cluster of that cluster" said the new
            # database as its cluster, a fresh draw of stop 70)
            keyed = [(name, kt) for name, pt in tool.params if (kt := self.people.ref_table(tstr(pt))) is not None]
            if keyed:
                return self.arg(j, next((name for name, kt in keyed if kt == rt), keyed[0][0]))
            return "the result"
        # a read of one record by its key: the thing the key names (not when it gives another
        # record of the table: `get_manager(id)` gives the manager, not the colleague `id`)
        if isinstance(tool.result, T.RecordT):
            table = result_table(self.people, tool)
            out = _output(self, j)
            for name, pt in tool.params:
                if table is not None and self.people.ref_table(tstr(pt)) == table and isinstance(out, dict) and out.get(self.people.key[table]) == self.values.get((j, name)):
                    return self.arg(j, name, base)
        return self.gives(j) or f"{_FOUND}{self.say(j)}"

    def _no_blanks(self, j: int, template: str) -> str:
        """`template` without the items of its closing list ("with email {email}, global referer
        {global_referer} and payment module {payment_module}") whose argument is an optional text
        the step leaves blank: a blank is what a call that leaves the argument out gives, so it
        goes unsaid, as an argument the phrase does not name does (`say`). Said, it read 'update
        that order with email "...", global referer "" and payment module ""' (an imported
        Ecwid task)."""
        defaults = self.facts.world.tools[self.steps[j].tool.qualified].defaults
        sources = self.steps[j].sources
        blank = {n for n, src in sources.items() if src[0] == "user" and defaults.get(n) == "" and self.values.get((j, n)) == ""}
        if not blank:
            return template
        head, sep, tail = template.rpartition(" with ")
        if not sep or not re.fullmatch(r"(?:[^{},]*?\{\w+\}(?:, | and |$))+", tail):
            return template  # no closing list of arguments only: said as it is
        items = re.findall(r"([^{},]*?\{(\w+)\})(?:, | and |$)", tail)
        kept = [i for i, n in items if n not in blank]
        if len(kept) == len(items):
            return template
        if not kept:
            return head
        return f"{head} with " + (", ".join(kept[:-1]) + " and " + kept[-1] if len(kept) > 1 else kept[0])

    def gives(self, j: int) -> str | None:
        phrase = self.steps[j].tool.decl.gives
        return None if phrase is None else self.fill(j, phrase, base=True)

    def say(self, j: int, topic: str | None = None) -> str:
        """A write as the user asks for it: the tool's `say` phrase, then every argument the
        phrase leaves out whose value the checker holds the agent to ("…, with memo "Filing
        fees" and co-signatory "R. Castillo""); only a flag left at its default `false` goes
        unsaid. With `topic` (a parameter the sentence names first: "For that matter, ..."),
        the phrase goes on without it where it is a complement (`_without`)."""
        tool = self.steps[j].tool
        template = self._one_role(j, tool.decl.say or words(tool.name))
        template = self._no_blanks(j, template)
        named = {m.group(1).strip().split(".")[0] for m in re.finditer(r"\{([^{}]*)\}", template)}
        if topic is not None:
            template = self._without(j, template, topic)
        template, last = self._described_last(j, template)
        template = self._carried_name(j, template)
        named -= {n for n in last}
        r = tool.result
        made = self.people.ref_table(tstr(r)) if tool.qualified in self.facts.mutating and not isinstance(r, (T.RecordT, T.ListT, T.NoneT)) else None
        got = self.results[j] if j < len(self.results) else None
        # a create that answers the new record itself (imported APIs' `-> Client`) makes one too:
        # "add a site verification web "Maple ..." with the site identifier of the site
        # verification web "Atlas ...", then update that site verification web" read as the new one
        if made is None and tool.qualified in self.facts.mutating and isinstance(r, T.RecordT) and isinstance(got, dict):
            rt = self._table(j)
            if rt is not None and rt.partition(".")[0] == tool.service and rt.partition(".")[2] in tool.inserts:
                made, got = rt, got.get(self.people.key[rt])
        # what the reader knows of the new record: the values its write is given (not those left
        # to the house rules)
        given = {n: self.values[(j, n)] for n in self.steps[j].sources if (j, n) not in self.left and (j, n) in self.values}
        new = (made, (made, repr(got)), {**given, _NEW: True}) if made is not None else None
        # "open a matter "Y" for the client of that matter": the new matter is named from the
        # verb on; "reverse the journal entry ..." names the entry it acts on, and the reversal
        # it creates only counts after it
        acts_on_own_kind = new is not None and any((rt := self.people.ref_table(tstr(pt))) is not None and self.people.noun[rt] == self.people.noun[made] for _, pt in tool.params)
        if new is not None and not acts_on_own_kind:
            self._mention(*new)
        # (the labels of what the phrase leaves to the values said after it: a record the phrase
        # names by a description that says one of them is set apart, `_apart_from`)
        after = [self._param_label(j, n) for n, _ in tool.params if n not in named and n in self.steps[j].sources] if tool.qualified in self.facts.mutating else []
        text = _heavy_last(self.fill(j, template, apart=after, request=tool.qualified in self.facts.mutating), template)
        if new is not None:
            self._mention(*new)
        self._note_changes(j)
        if tool.qualified not in self.facts.mutating:
            return text
        defaults = self.facts.world.tools[tool.qualified].defaults
        extra, flags, extra_names, places, place_names = [], [], [], [], []
        for name, _ in sorted(tool.params, key=lambda p: p[0] in last):
            if name in named or name not in self.steps[j].sources or (j, name) in self.left:
                continue
            left_off = name in defaults and (defaults[name] is False and self.values.get((j, name)) is False or defaults[name] == "" and self.values.get((j, name)) == "")
            if self.steps[j].sources[name][0] != "step" and left_off:
                # only a flag left off, or a text left blank, goes unsaid: the checker holds the
                # agent to every other default ("30 minutes"), and an agent may fairly choose a
                # value it was not told; a blank is what a call that leaves the argument out gives
                continue
            value = self.values.get((j, name))
            if self._implied(j, name):
                continue
            if isinstance(value, bool) and self.steps[j].sources[name][0] != "step":
                # "marked as a controlled drug", not "a controlled drug yes"
                flags.append(f"{'' if value else 'not '}marked as {self._param_label(j, name)}")
                continue
            label, arg = self._param_label(j, name), self.arg(j, name)
            if name in last:
                # the found record's own description, last in the sentence, set apart: "the same
                # source as the dsc node configuration "Beacon" (the one with creation time
                # ...)", where "... "Beacon" with creation time ..." read to blind players as
                # one more value of the request
                arg = _set_apart(arg)
            if (rt := self.people.ref_table(tstr(dict(tool.params)[name]))) is not None and re.fullmatch(rf"(?:that|the new) (?:{re.escape(label)}|{re.escape(self.people.noun[rt])})", arg):
                # a record said before, named by its noun alone, is where the request goes, not
                # one of its values: "..., routing weight 84, for that express route gateway",
                # not "... and that express route gateway" (a fresh draw's task, stop 56)
                places.append(arg)
                place_names.append(name)
                continue
            # a record named by its noun says its label already: "server the server "Cedar
            # server"" (an imported Azure create-or-update) is "the server "Cedar server"", and
            # "group the schedule group with ..." (EventBridge Scheduler) "the schedule group ..."
            extra.append(arg if re.match(rf"(?:the|that) (?:new )?(?:[a-z]+ ){{0,3}}{re.escape(label)}\b(?! of\b)", arg) else f"{label} {arg}")
            extra_names.append(name)
        if places and not extra and not flags:
            extra, extra_names, places = places, place_names, []  # alone it is said as before: "..., with that return"
        # a record named by a description comes after the values: "..., with priority 18, the
        # queue with description "X" and status update interval seconds 120" read as a queue
        # with that interval (a fresh draw's MediaConvert task, stop 64)
        order = sorted(range(len(extra)), key=lambda i: _described(extra[i]))
        extra, extra_names = [extra[i] for i in order], [extra_names[i] for i in order]
        text, extra = self._locators_first(j, template, text, extra, extra_names)
        if extra and flags and _described(extra[-1]):
            # and the flags before them: "..., marked as encrypted, with ... and the same value
            # as the variable with creation time ...", not "... with creation time ... and
            # marked as encrypted", which reads as the variable's (an imported Azure task)
            text = f"{text}, " + " and ".join(flags)
            flags = []
        if extra:
            text = f"{text}, with " + (extra[0] if len(extra) == 1 else ", ".join(extra[:-1]) + " and " + extra[-1])
        if flags:
            # after the values, not among them: "..., marked as legacy app engine cron", not
            # "..., with marked as ..." (met in an imported Cloud Scheduler task)
            text = f"{text}{' and ' if extra else ', '}" + " and ".join(flags)
        if places:
            text = f"{text}, for " + " and ".join(places)
        return same_as(_said_once(self._new_values(j, text), self._stated(j), telling=self._telling()))

    def _locators_first(self, j: int, template: str, text: str, extra: list[str], names: list[str]) -> tuple[str, list[str]]:
        """An update's arguments that only find the record (an Azure resource group) said before
        the values it sets, not after them: "update the media service ... with location "Osaka",
        with resource group name "Atlas resource group", with new location "Melbourne"", where a
        blind player read "..., with new location "Melbourne", with resource group name ..." as
        a new resource group too. Only where the phrase sets a value with "with <label> {p}"."""
        upd = self.facts.update_args.get(self.steps[j].tool.qualified, {})
        first = next((m.group(1) for m in re.finditer(r"\{(\w+)\}", template) if m.group(1) in upd), None)
        locators = [e for e, n in zip(extra, names) if n not in upd]
        if first is None or not locators:
            return text, extra
        at = text.rfind(f" with {self._param_label(j, first)} ")
        if at <= 0:
            return text, extra
        joined = locators[0] if len(locators) == 1 else ", ".join(locators[:-1]) + " and " + locators[-1]
        return f"{text[:at].rstrip(',')}, with {joined},{text[at:]}", [e for e, n in zip(extra, names) if n in upd]

    def _carried_name(self, j: int, template: str) -> str:
        """A new record's value said right after its noun ("add an invite {login}") that an
        earlier result gives says its label: "add an invite with login the created by login of
        the retention policy base ...", not "add an invite the created by login of ..." (Box's
        invites, met in blind play). A reference keeps its place ("add a member that user")."""
        m = _NEW_THING.match(template)
        if m is None or self.steps[j].sources.get(m.group(2), ("",))[0] != "step":
            return template
        pt = dict(self.steps[j].tool.params).get(m.group(2))
        if pt is None or self.people.ref_table(tstr(pt)) is not None:
            return template
        return f"{m.group(1)} with {self._param_label(j, m.group(2))} {template[len(m.group(1)) + 1 :]}"

    def _described_last(self, j: int, template: str) -> tuple[str, list[str]]:
        """The template without a value carried from a record found by a description or a rank
        ("the schedule with description "X", state enabled and creation date ..."), and those
        parameters, which `say` then puts last: inside the request's own list of values, a blind
        player read "state enabled and creation date ..." as values of the new schedule
        (EventBridge Scheduler). Only a placeholder the template says as ", <label> {p}"."""
        moved = []
        for name, src in self.steps[j].sources.items():
            if src[0] != "step" or (j, name) in self.left:
                continue
            # (only where the words before it are the value's own label, as imported phrases say
            # it: ", run by {lawyer}" or ", filed under {organisation}" read well where they are)
            if not self.steps[src[1][0]].how and not self._names_by_key(src[1][0]):
                continue  # only a record found by a description, a rank or its name: "... with ..."
            said = {re.escape(self._param_label(j, name)), re.escape(words(name))}
            label = r"(?:" + "|".join(sorted(said)) + r") \{" + re.escape(name) + r"\}"
            m = re.search(r", " + label + r"(?=,| and | with |$)", template)
            if m is not None:
                template = template[: m.start()] + template[m.end() :]
                moved.append(name)
                continue
            # the first of the values ("with resource location {location}, SKU {sku} and units
            # {units}"): an imported Azure create-or-update read "... with the resource location
            # of the catalog "Orion" with ... units 32, SKU standard ... and units 19"
            m = re.search(r" with " + label + r"(, | and )(?=[^{}]*\{)", template)
            if m is not None:
                template = template[: m.start()] + " with " + template[m.end() :]
                moved.append(name)
                continue
            # the last of them ("... and zones {zones}"): the values said after it (a scope)
            # read as the found record's ("the same zones as the firewall "Atlas" with
            # subscription ID ..."), where a blind player took them for the firewall's
            m = re.search(r" and " + label + r"$", template)
            head = template[: m.start()] if m is not None else ""
            if m is not None and " with " in head:
                at = head.rfind(", ")
                template = head[:at] + " and " + head[at + 2 :] if at > head.rfind(" with ") else head
                moved.append(name)
        return template, moved

    def _new_values(self, j: int, text: str) -> str:
        """The request with each value an update sets called new where the record's description
        says that field too: "update the media service ... with location "Chicago", with new
        location "Berlin"" (a sampled Azure task read "... with location "Chicago", with location
        "Berlin"": which finds the record, which is the change?)."""
        tool = self.steps[j].tool
        for name in self.facts.update_args.get(tool.qualified, {}):
            if name not in self.steps[j].sources or (j, name) in self.left or (j, name) not in self.values:
                continue
            said = f"{self._param_label(j, name)} {self.arg(j, name)}"
            at = text.rfind(said)
            if at > 0 and re.search(rf"\b{re.escape(self._param_label(j, name))} ", text[:at]):
                text = f"{text[:at]}new {text[at:]}"
        return text

    def _stated(self, j: int) -> list[str]:
        """Step j's stated arguments as a sentence says them ("account ID "AI-2520""). Saying
        them here names no record in the text: an Azure Migrate task's group, an argument the
        sentence left out, was "that group" in a later goal, never named (blind round 36)."""
        said, mentioned = set(self._said), {noun: dict(m) for noun, m in self._mentioned.items()}
        try:
            return [f"{self._param_label(j, n)} {self.arg(j, n)}" for n, _ in self.steps[j].tool.params if self.steps[j].sources.get(n, ("", None))[0] == "user" and (j, n) in self.values and (j, n) not in self.left]
        finally:
            self._said, self._mentioned = said, mentioned

    def _telling(self) -> frozenset[str]:
        """The parts of the task's record descriptions ('description "Please review before
        Friday."') that tell a record apart: a field whose value differs between the seeded
        rows of its table. A scope every row shares (an Azure subscription) tells nothing, and
        `_said_once` may say it once. Worked out once per instruction (the steps and the seeded
        state do not change while it is phrased)."""
        if self._telling_parts is not None:
            return self._telling_parts
        out = set()
        for i, step in enumerate(self.steps):
            if step.how is None or step.how.get("by") != "description":
                continue
            table = step.how["table"]
            rows = self.state0.tables.get(table, {}).values()
            for f, v in self._description(i).items():
                if len({repr(r.get(f)) for r in rows}) > 1:
                    out.add(self.people.part(self.state0, table, f, v))
        self._telling_parts = frozenset(out)
        return self._telling_parts

    def _implied(self, j: int, name: str) -> bool:
        """Is step j's key argument `name` only where the call looks (no field is set to it), and
        a record another key argument's record refers to (an app's service, when the call names
        the app)? Then naming the app names it: "delete the app "N" among the apps of the service
        "J"", not "..., with service name that service"."""
        tool = self.steps[j].tool
        params = dict(tool.params)
        rt = self.people.ref_table(tstr(params[name]))
        if rt is None or (j, name) not in self.values or name in self.facts.insert_args.get(tool.qualified, {}) or name in self.facts.update_args.get(tool.qualified, {}):
            return False  # a value the write puts in a field is asked for (a new time entry's lawyer)
        for other, pt in tool.params:
            ot = self.people.ref_table(tstr(pt))
            row = self.state0.tables.get(ot or "", {}).get(self.values.get((j, other))) if other != name else None
            if row is not None and any(self.people.ref_table(ft) == rt and row.get(f) == self.values[(j, name)] for f, ft in self.people.fields[ot].items()):
                return True
        return False

    def _note_changes(self, j: int) -> None:
        """The fields step j's write changes on the records its arguments name, from here on."""
        step = self.steps[j]
        for name, pt in step.tool.params:
            rt = self.people.ref_table(tstr(pt))
            src = step.sources.get(name)
            if rt is None or src is None or src[0] != "step":
                continue
            fields = fields_written(step.tool, rt)
            ident = self._record_of(*src[1])
            if fields and ident is not None:
                self._changed.setdefault(ident, set()).update(fields)

    def _one_role(self, j: int, template: str) -> str:
        """A create-or-update's phrase (D55: "create or update credential {name}", the spec's
        summary) said as the one thing step j does: "update" where its key is a record an
        earlier step found, "create" where the instruction states a new name. A person asks
        for one or the other."""
        keys = self.facts.walks.upsert_keys.get(self.steps[j].tool.qualified)
        if not keys or not template.startswith("create or update "):
            return template
        found = any(self.steps[j].sources.get(n, ("user",))[0] == "step" for n in keys)
        return ("update " if found else "create ") + template[len("create or update "):]

    def _topic(self, k: int) -> tuple[str, tuple] | None:
        """The record step k's write is about, if a person could say it first ("For the matter
        ..., deposit 2,000 into trust"): its `say` phrase's first record argument, taken from an
        earlier step, and as a complement (`_without`). (parameter, the record's identity)."""
        step = self.steps[k]
        template = step.tool.decl.say or words(step.tool.name)
        for m in re.finditer(r"\{([^{}]*)\}", template):
            name = m.group(1).strip().split(".")[0]
            pt = dict(step.tool.params).get(name)
            if pt is None or self.people.ref_table(tstr(pt)) is None:
                continue
            src = step.sources.get(name)
            if src is None or src[0] != "step" or (k, name) in self.left or self._without(k, template, name) == template:
                return None
            ident = self._record_of(*src[1])
            return None if ident is None else (name, ident)
        return None

    def _record_of(self, j: int, field: str | None) -> tuple | None:
        """The record step j's output is (`field` None or its key), or the one its `field` refers
        to, as `subject` and `field_of` know it; None for a field that names no record."""
        table, out = self._table(j), _output(self, j)
        if field is None or table is None or field == self.people.key[table]:
            return (table, repr(out.get(self.people.key[table]))) if table is not None and isinstance(out, dict) else ("step", j)
        rt = self.people.ref_table(self.people.fields[table][field])
        return (rt, repr(out.get(field))) if rt is not None and isinstance(out, dict) else None

    def _without(self, j: int, template: str, name: str) -> str:
        """`template` without the placeholder {name} and the preposition (and noun) before it,
        where the sentence's topic stands for it: "deposit {amount} into trust for matter
        {matter}" → "deposit {amount} into trust", "set the deadline of matter {matter} to
        {due}" → "set the deadline to {due}". Unchanged where the record is the object ("close
        matter {matter}") or the preposition means more ("move {file} to {folder}")."""
        m = re.search(r"\{\s*" + re.escape(name) + r"(\.[^{}]*)?\s*\}", template)
        pt = dict(self.steps[j].tool.params).get(name)
        rt = self.people.ref_table(tstr(pt)) if pt is not None else None
        if m is None or rt is None:
            return template
        before = template[: m.start()].rstrip()
        for noun in sorted({words(name), self.people.noun[rt].lower(), self.people.noun[rt].split()[-1].lower()}, key=len, reverse=True):
            if before.lower().endswith(" " + noun):
                before = before[: -len(noun)].rstrip()
                break
        if before.lower().endswith(" the"):
            before = before[:-4].rstrip()
        head, _, prep = before.rpartition(" ")
        if not head or prep.lower() not in _COMPLEMENT:
            return template
        # "register {name}, a {species} born on {born}, for {owner}" → "..., born on {born}"
        return re.sub(r",\s*(?=,|$)", "", head + template[m.end() :])

    def _param_label(self, j: int, name: str) -> str:
        """A parameter's words: the label of the field it fills in a table the tool writes."""
        tool = self.steps[j].tool
        for table in sorted(self.facts.tables_written[tool.qualified]):
            if name in self.people.fields.get(table, {}):
                return self.people.label(table, name)
        return words(name)

    def arg(self, k: int, name: str, base: bool = False) -> str:
        step = self.steps[k]
        src = step.sources[name]
        t = tstr(dict(step.tool.params)[name])
        if (k, name) in self.left:  # "set the deadline of that matter to the due date the house rules call for"
            return f"the {self._param_label(k, name)} the house rules call for"
        if src[0] == "step":
            j, field = src[1]
            return self.field_of(j, field, base)
        if self._named_key(k, name) and (k, name) in self.values:  # (D61)
            return self._named_record(self.people.ref_table(t), self.values[(k, name)])
        moved = self._moved_address(k, name)
        return moved or self.people.value_text(t, self.values[(k, name)])

    def _named_key(self, k: int, name: str) -> bool:
        """Is step k's argument `name` the key of a record known by it that the instruction
        states (a named entry, D61), not a new record's key the caller chooses?"""
        step = self.steps[k]
        pt = dict(step.tool.params)[name]
        rt = self.people.ref_table(tstr(pt))
        return step.sources.get(name, ("",))[0] == "user" and rt is not None and self.people.named_by_key(rt) and self.facts.walks.param_kind(step.tool, name, pt) == "key"

    def _names_by_key(self, j: int) -> bool:
        """Does step j name its record by the key the instruction states (a named entry, D61)?"""
        return any(self._named_key(j, n) for n, _ in self.steps[j].tool.params)

    def _named_record(self, table: str, key: Any) -> str:
        """A record a named entry works on (D61), said by what it is known by, its key first
        ('the feature "Maple feature" with project "Northwind project"'), then "that feature";
        the records its description names by their keys count as said too ("that project")."""
        ident = (table, repr(key))
        if ident in self._said:
            if self._only(table, ident):
                return f"that {self.people.noun[table]}"
            return describe(self.people, self.state0, table, {self.people.key[table]: key})
        desc = self.people.description(self.state0, table, key) or {self.people.key[table]: key}
        text = describe(self.people, self.state0, table, desc)
        self._said.add(ident)
        self._mention(table, ident, self.state0.tables.get(table, {}).get(key))
        for f, v in desc.items():
            rt = self.people.ref_table(self.people.fields[table][f])
            if rt is not None and f != self.people.key[table] and self.people.named_by_key(rt):
                self._said.add((rt, repr(v)))
                self._mention(rt, (rt, repr(v)), self.state0.tables.get(rt, {}).get(v))
        return text

    def _moved_address(self, k: int, name: str) -> str | None:
        """'the same mailbox at "bluepeakltd.example"' for a record's new address made from its own
        (`bindings._moved`: the same name at another domain the table holds), not the address:
        stated, "hiro.conti@bluepeakltd.example" gives away whom a description by a path leads to
        (a ninth-round player met it), and an agent now reads the record's address to make the
        new one. None for any other value."""
        tool = self.steps[k].tool
        v = self.values.get((k, name))
        if name not in self.facts.own_updates.get(tool.qualified, ()) or not isinstance(v, str) or "@" not in v:
            return None
        table, key, field = self.facts.update_args[tool.qualified][name]
        row = self.state0.tables.get(table, {}).get(self.values.get((k, key)))
        old = str(row.get(field, "")) if row is not None else ""
        local, _, domain = v.partition("@")
        if "@" not in old or old.partition("@")[0] != local or old.partition("@")[2] == domain:
            return None
        # "the same mailbox at ...", not "their address at ...": a blind player read
        # the latter as an address the client already had there, found that domain was another
        # client's, and refused to re-bill the invoice (legal_ops, seed 5150)
        return f'the same mailbox at "{domain}"'

    def field_of(self, j: int, field: str | None, base: bool = False) -> str:
        table = self._table(j)
        if field is None or table is None or field == self.people.key[table]:
            return self.subject(j, base)
        rt = self.people.ref_table(self.people.fields[table][field])
        out = _output(self, j)
        ident = (rt, repr(out.get(field))) if rt is not None and isinstance(out, dict) else None
        if ident is not None and ident in self._said and self._only(rt, ident):
            # a reference to a record named already: "that colleague", and step j's record is
            # not named here (asking for its subject first would count it said, unsaid)
            return f"that {self.people.noun[rt]}"
        if ident is not None and ident in self._said and ident in self._alone_said:
            return self._alone_again(rt, ident)
        if ident is not None and base and needed_besides(self.steps, self.facts.mutating, self._read_for, j, field=field):
            # the record another one is named through: by its own name where it has one that
            # finds it ('the matters of the contact "Lucia Moreno"', not "the matters of the
            # client of the invoice ... among the invoices of the matter ..."); step j is then
            # not named here. Not where this reference is all step j is for: the name would
            # leave the walk a step no agent needs (a hop in name only), so the path stays
            alone = self._alone(rt, out.get(field), j)
            if alone is not None:
                self._said.add(ident)
                self._mention(rt, ident, self.state0.tables.get(rt, {}).get(out.get(field)))
                self._short.setdefault(ident, alone)
                self._alone_said[ident] = out.get(field)
                return alone[0]
        # a record named through step j's: that one goes by its own name where it has one
        subject = self.subject(j, base=ident is not None)
        if ident is not None:  # a reference names a record: once in full
            self._said.add(ident)
            self._pathed.add((rt, out.get(field)))
            self._mention(rt, ident, self.state0.tables.get(rt, {}).get(out.get(field)))
            lead = self._lead(j, table, field, subject)
            if lead is not None:
                return lead
            # a reference named as its key is the record: "the namespace of the snapshot ...",
            # not "update the namespace name of the snapshot ..." (read as a change of the name),
            # "the video channel of ...", not "the video channel id of ..." (fresh draws, stop 65)
            return f"the {_record_words(self.people.label(table, field))} of {subject}"
        return f"the {self.people.label(table, field)} of {subject}"

    def _lead(self, j: int, table: str, field: str, subject: str) -> str | None:
        """A reference step j's description already names, put first: "the patient "Daisy" of
        the appointment with appointment day 2025-04-04 and reason ...", not "the patient of the
        appointment with patient "Daisy", appointment day ...". The same facts (the
        appointment's patient is Daisy), so the description still picks one record. None when
        `subject` (step j's record named in full or short) does not name `field`, or names
        nothing else and says nothing after it ("among the meeting invitations of ..." does)."""
        how = self.steps[j].how
        if how is None or how["by"] != "description" or field not in (how.get("fields") or ()):
            return None
        desc = self._description(j)
        if field not in desc:
            return None
        names = list(desc)
        for n in range(names.index(field) + 1, len(names) + 1):
            prefix = {f: desc[f] for f in names[:n]}  # the full description, or a short name (`_short_name`)
            text = describe(self.people, self.state0, table, prefix)
            if subject == text or subject.startswith(text + " among "):
                rest = {f: v for f, v in prefix.items() if f != field}
                if not rest and subject == text:  # "the traveller "Chloe Lindahl" of the trip from
                    # ..." misleads: the tool's phrase goes on; "... among ..." does not. A record
                    # named already, and the only one of its kind, is "that" one: "the patient
                    # "Luna" of that prescription", not "the patient of the prescription with
                    # patient "Luna""
                    if n < len(names):  # a short name: the whole description names the rest
                        part = self.people.part(self.state0, table, field, desc[field])
                        out = _output(self, j)
                        if isinstance(out, dict) and self._only(table, (table, repr(out.get(self.people.key[table])))):
                            return f"the {part} of that {self.people.noun[table]}"
                        return f"the {part} of {describe(self.people, self.state0, table, {f: v for f, v in desc.items() if f != field})}"
                    return None
                return f"the {self.people.part(self.state0, table, field, desc[field])} of {describe(self.people, self.state0, table, rest)}{subject[len(text):]}"
        return None

    def fill(self, k: int, template: str, base: bool = False, apart: list[str] = (), request: bool = False) -> str:
        """`apart`: the labels of values said after the phrase (`_apart_from`); `request`: the
        phrase is a write's, whose own "with" may follow a record it names."""
        step = self.steps[k]

        def arg(name: str) -> str:
            text = _apart_from(self.arg(k, name, base), apart) if apart else self.arg(k, name, base)
            if request and re.search(r"\{" + re.escape(name) + r"\},? with ", template):
                # the request's own "with" right after the record: 'update the rescore execution
                # plan "Maple ..." (the one with creation time ...) with rescore capacity units
                # 43', not '... "Maple ..." with creation time ..., with rescore capacity units
                # 43', one list of what finds it and what it is given (a fresh draw, stop 65)
                text = _set_apart(text)
            # "add {name} ({email}) as a lead": a stated address reads well in brackets, a phrase
            # for where it comes from does not ("Rahul Reyes (the recipient of the quote ...)"
            # reads as if he were the recipient): the phrase says what it is
            if f"({{{name}}})" in template and step.sources.get(name, ("user", None))[0] == "step":
                return f"{self._param_label(k, name)}: {text}"
            return text

        return same_as(fill(self.people, template, dict(step.tool.params), arg))

    def report(self, j: int, field: str | None, aggregate: str | None = None) -> str:
        """What to tell: "the email address of ...", "whether the document ... is archived",
        "how many ... there are", "the total amount of ..."."""
        if aggregate is not None:
            table = result_table(self.people, self.steps[j].tool)
            among = self.gives(j) or self.subject(j)
            if aggregate == "count":
                what = among[4:] if among.startswith("the ") else among
                if what.startswith(_FOUND) and table is not None:
                    # a read with no `gives`: "how many capacity assignments you find when you
                    # get ...", not "how many what you find when you get ..." (an imported task)
                    return f"how many {plural(self.people.noun[table])} {what[len('what '):]}"
                # "the channels {member} belongs to" has a clause of its own, a value as its
                # subject right after a noun: "how many channels Chloe belongs to", not "...
                # belongs to there are" (found by a player); "the {status} campaigns" has none
                phrase = self.steps[j].tool.decl.gives or ""
                clause = any(m.group(1).lower() not in _NOT_A_NOUN for m in re.finditer(r"(\w+) \{[^{}]*\} \w", phrase))
                return f"how many {what}" if clause else f"how many {what} there are"
            return f"the total {self.people.label(table, aggregate.split(' ', 1)[1])} of {among}"
        table = self._table(j)
        if field is not None and table is not None and self.facts.world.types.base(self.people.fields[table][field]) == "bool":
            return f"whether {self.subject(j)} is {self.people.label(table, field)}"
        return self.field_of(j, field)

    # ─────────────────────────── the instruction ───────────────────────────

    def instruction(self, reports: list[tuple[int, str | None]], constraints: list[dict], branch: dict | None = None, alt=None, idem: dict | None = None) -> str:
        self._read_for = {r[0] for r in reports} | ({branch["if"]["step"] - 1} if branch is not None else set())
        goals = []
        last = len(self.steps) - 1
        topics = self._groups([k for k, s in enumerate(self.steps) if s.tool.qualified in self.facts.mutating and not (branch is not None and k == last)])
        for k, step in enumerate(self.steps):
            if step.tool.qualified not in self.facts.mutating:
                continue
            if branch is not None and k == last:
                cond = branch["if"]
                j, field = cond["step"] - 1, cond["field"]
                table = self._table(j)
                t = self.people.fields[table].get(field) if table else None
                condition = self._condition(j, field, t, cond["equals"])  # named first: it is said first
                # worded in the order they are printed: a record is named in full where it first appears
                if branch["taken"] == "then":
                    first = self.say(k)
                    second = _Alt(self, alt).say(k)
                else:
                    other = _Alt(self, alt)
                    first = other.say(k)
                    # what the branch not taken named in full, this one names again from there
                    self._subjects.update({i: v for i, v in other._subjects.items() if i != k})
                    second = self.say(k)
                text = f"if {condition}, {first}; otherwise {second}"
            else:
                text = self._joined(k, topics) if k in topics else self.say(k) if not any(k in ks for ks in topics.values()) else None
            if text is not None:
                goals.append((k, text))
        sentences = []
        # (an order house rule is the agent's to apply: the text does not say which goal comes first)
        ordered = any(c.get("kind") == "order" for c in constraints)
        for i, (k, g) in enumerate(goals):
            # a goal that needs what the one before it does, or works on what it works on, said as
            # a manager joins them: "Open a corporate matter ... . Once that is done, open a trust
            # account for the new matter"; errands side by side stay apart
            needs = self._needs(k, topics)
            follows = i > 0 and not ordered and not g.startswith("for ") and (goals[i - 1][0] in needs or bool(needs & self._needs(goals[i - 1][0], topics)))
            # ("then" neither before an "if" nor just before "Then tell me")
            then = _THEN[k % len(_THEN)] if not (g.startswith("if ") or (reports and i == len(goals) - 1)) else _THEN[2 * (k % 2)]
            sentences.append(_sentence((then + g) if follows else g))
        goals = [g for _, g in goals]
        if idem is not None:
            sentences.append(_sentence(("also make sure to " if goals else "make sure to ") + idem["_phrase"]))
            # from here on the records it names count too: "that account" after "also make sure
            # to mark the account ... as a customer" would read as that one
            for table, key in idem.get("_named", ()):
                self._mention(table, (table, repr(key)), self.state0.tables.get(table, {}).get(key))
        if reports:
            shown = [self.report(*r) for r in reports]
            listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
            sentences.append(_sentence(("then " if goals else "") + "tell me " + listed))
        # a scope every row holds (an Azure subscription and resource group) is said once: the
        # calls after the first are in the same one ("... of that asset with subscription ID
        # "SI-7922", resource group name "Atlas resource group" and account name ..." again)
        out = _owner_once(word_once(_said_once(" ".join(sentences), self._scopes(), telling=self._telling())))
        if constraints:
            out += "\nHouse rules: " + " ".join(f"{c['description'] or c['name']}." for c in constraints)
        return out

    def _scopes(self) -> list[str]:
        """The stated arguments, as the text says them, whose value every row of the state that
        has a field of the argument's name holds (four rows at least): a scope, the same for
        every call, which a reader carries from one sentence to the next."""
        out = []
        for j, step in enumerate(self.steps):
            for n, pt in step.tool.params:
                v = self.values.get((j, n))
                if not isinstance(v, str) or step.sources.get(n, ("", None))[0] != "user" or (j, n) in self.left or self.people.ref_table(tstr(pt)) is not None:
                    continue  # (a record's key is said as the record, not as a value)
                held = [r[n] for rows in self.state0.tables.values() for r in rows.values() if n in r]
                if len(held) >= 4 and all(x == v for x in held):
                    out.append(f"{self._param_label(j, n)} {self.arg(j, n)}")
        return list(dict.fromkeys(out))

    def _needs(self, k: int, topics: dict[int, list[int]]) -> set[int]:
        """The steps whose outputs step k's write (and the rest of its run, `topics`) takes,
        directly or through the reads between them."""
        out, todo = set(), list(topics.get(k, [k]))
        while todo:
            for src in self.steps[todo.pop()].sources.values():
                if src[0] == "step" and src[1][0] not in out:
                    out.add(src[1][0])
                    if self.steps[src[1][0]].tool.qualified not in self.facts.mutating:
                        todo.append(src[1][0])
        # a run's first step stands for the run: a goal after it follows from any step of it
        return out | {r[0] for r in topics.values() if set(r) & out}

    def _groups(self, goals: list[int]) -> dict[int, list[int]]:
        """Runs of two or more goals in a row about one record, as a manager puts them in one
        sentence: first step → the steps of its run. The first goal of a run says its record as
        a complement (`_topic`), the others name it anywhere ("... and close that matter")."""
        runs: dict[int, list[int]] = {}
        run: list[int] = []
        about = None
        for k in goals:
            topic = self._topic(k)
            if run and self._names(k, about) is not None:
                run.append(k)
                continue
            if len(run) > 1:
                runs[run[0]] = run
            run, about = ([k], topic[1]) if topic is not None else ([], None)
        if len(run) > 1:
            runs[run[0]] = run
        return runs

    def _names(self, k: int, ident: tuple) -> str | None:
        """The parameter of step k's write that takes the record `ident`, if one does."""
        step = self.steps[k]
        for name, pt in step.tool.params:
            src = step.sources.get(name)
            if self.people.ref_table(tstr(pt)) is not None and src is not None and src[0] == "step" and (k, name) not in self.left and self._record_of(*src[1]) == ident:
                return name
        return None

    def _joined(self, k: int, topics: dict[int, list[int]]) -> str:
        """One sentence for a run of goals about one record: "for the matter ..., deposit 2,000
        into trust, set the deadline to 2025-04-01 and close that matter"; clauses that hold
        commas of their own are set off by semicolons."""
        name, ident = self._topic(k)
        head = self.arg(k, name)
        clauses = [self.say(k, topic=name)]
        for j in topics[k][1:]:
            clauses.append(self.say(j, topic=self._names(j, ident)))  # (said in full where it is no complement)
        # "..., bill the unbilled time before you close it": the last goal ends the record
        noun = self.people.noun.get(ident[0]) if ident[0] != "step" else None
        last = clauses[-1]
        if noun is not None and re.match(_ENDING, last) and f"that {noun}" in last:
            clauses, end = clauses[:-1], " before you " + last.replace(f"that {noun}", "it", 1)
        else:
            end = ""
        # the record's description may say them too; a value two goals each take is said in
        # both (LaunchDarkly's "reset sdk key ..., with expiry 32, and reset ... mobile key":
        # the second reset's expiry went unsaid, and a blind player, rightly, gave it none)
        stated = [said for j in topics[k] for said in self._stated(j) if said.lower() in head.lower()]
        if len(clauses) == 1:
            return _said_once(f"for {head}, {clauses[0]}{end}", stated, telling=self._telling())
        sep = "; " if any(", " in c or " and " in c for c in clauses) else ", "
        listed = clauses[0] + (" and " if sep == ", " else ", and ") + clauses[1] if len(clauses) == 2 else sep.join(clauses[:-1]) + sep.rstrip() + " and " + clauses[-1]
        return _said_once(f"for {head}, {listed}{end}", stated, clauses[1:], self._telling())

    def _condition(self, j: int, field: str, t: str | None, equals: Any) -> str:
        """"the latest memorandum of ... is archived", "the status of ... is closed"."""
        if isinstance(equals, bool):
            table = self._table(j)
            label = self.people.label(table, field) if table else words(field)
            return f"{self.subject(j)} {flag_predicate(label, equals)}"
        shown = self.people.value_text(t, self.facts.world.types.from_json(t, equals, "branch")) if t else str(equals)
        return f"{self.field_of(j, field)} is {shown}"

    def _table(self, j: int) -> str | None:
        """The table of the record step j's output is (None for a scalar)."""
        step = self.steps[j]
        return step.how["table"] if step.how else result_table(self.people, step.tool)


class _Alt(Phraser):
    """The branch not taken: the same walk with another last step."""

    def __init__(self, base: Phraser, alt):
        step, values = alt
        super().__init__(base.facts, base.state0, base.steps[:-1] + [step], {**base.values, **values}, base.results, base.left)
        self._subjects = dict(base._subjects)
        self._said, self._mentioned, self._short, self._changed, self._alone_said = base._said, base._mentioned, base._short, base._changed, base._alone_said


# a yes/no field's label that reads as what a record is ("archived", "a controlled drug", "still
# at the firm", "enabled", "public"): said "is archived"; any other ("account selection", "owner
# usage online status", imported labels) is "marked as" it, as a flag a request sets is
_PREDICATE_WORDS = frozenset("active inactive public private primary default visible hidden open closed online offline paid free live valid invalid complete ready available locked new draft internal external".split())
_PREDICATE_SUFFIXES = ("ed", "able", "ible", "ive", "ent", "ant")


def flag_predicate(label: str, value: bool) -> str:
    """What a yes/no field says of a record, after its subject: "is archived", "is not a
    controlled drug", "is shown in mobile" (a label that has its verb: not "is is shown in
    mobile", met in an imported task), "is marked as account selection" (not "is account
    selection")."""
    ws = label.split()
    if not ws:
        return "is" if value else "is not"
    if ws[0] in ("is", "are", "was"):
        return f"{ws[0]} {'' if value else 'not '}{' '.join(ws[1:])}".rstrip()
    if ws[0] in ("has", "have"):
        return label if value else f"does not have {' '.join(ws[1:])}"
    if ws[0] in ("can", "may"):
        return label if value else f"{ws[0]} not {' '.join(ws[1:])}"
    # a label that is a clause of its own ("user has liked": Instagram's `user_has_liked`) is a
    # mark, not a predicate ("if that media entry is user has liked", round 16)
    clause = any(w in ("is", "are", "was", "were", "has", "have", "had", "can", "may", "did", "does") for w in ws[1:])
    if clause and len(ws) > 2 and ws[-2] == "is" and ws[-1] in ("enabled", "disabled"):
        # a thing and its state ("smart charging policy is enabled", Enode's vehicles: "if that
        # vehicle is not marked as smart charging policy is enabled", a fresh draw, stop 73)
        ws, clause = ws[:-2] + ws[-1:], False
        label = " ".join(ws)
    if not clause and len(ws) > 1 and ws[-1] in ("enabled", "disabled") and ws[0] not in ("a", "an", "the", "still", "not"):
        # a thing a record has switched on ("do not share warning enabled", Twilio Verify's:
        # "if that service is do not share warning enabled", a fresh draw of stop 70)
        return f"{'has' if value else 'does not have'} {label}"
    reads = not clause and (ws[0] in ("a", "an", "the", "still", "in", "on", "at", "not") or ws[-1] in _PREDICATE_WORDS or ws[-1].endswith(_PREDICATE_SUFFIXES))
    return f"is {'' if value else 'not '}{'' if reads else 'marked as '}{label}"


# an argument as a sentence lists it: a label of a few words, then its value (quoted, a number, a
# date, yes or no), not a clause ("update that ...", "close the matter")
_LISTED = re.compile(r"(?!(?:\S+ ){0,5}?(?:that|the|a|an|this|its|their)\b)[a-z][\w-]*(?: [a-z][\w-]*){0,5} (?:\"|\d|yes\b|no\b)", re.I)


# (a label may hold capitals: "DNS name the DNS name of the bastion host ...")
# (the label whole, after what lists it: "with start date the date of birth of that employee"
# is no "start the same date as birth of ...", met in an imported Xero task, stop 63)
_SAME = re.compile(r"(?:^|(?<=with )|(?<=, )|(?<=and ))((?:[A-Za-z]+ ){0,6}[A-Za-z]+) the \1 of\b")
# the last item of a list said with no quotes, number or yes/no: an enum's member ("and
# provisioning state updating"), up to the sentence's end or the clause that orders it ("...
# regenerate keys and key type primary before you delete it" had lost its "with" so: a
# fresh draw's Azure task, stop 55)
_LISTED_BARE = re.compile(r"(?!(?:\S+ ){0,5}?(?:that|the|a|an|this|its|their|it|them)\b)[a-z][\w-]*(?: [a-z][\w-]*){1,5}(?=\)|\.(?:\s|$)|$| before you\b| after you\b)", re.I)


def same_as(text: str) -> str:
    """A value said to be another record's value of the same field, as a person says it: "with
    the same sender as the message "Budget review"", not "with sender the sender of the message
    ..." (a sampled SMS task: a new message sent from an old one's number)."""
    return _SAME.sub(r"the same \1 as", text)


def _apart_from(arg: str, labels: list[str]) -> str:
    """A record a phrase's argument names by a description that says a field the request then
    gives a value of, set apart: 'add a call queue "Northwind" for the site "Atlas site" (the
    one with extension number 30), with extension number 34', where '... "Atlas site" with
    extension number 30, with extension number 34' read as two values of one field (a fresh
    imported Zoom task, stop 56). Only an argument's own text: the sentence's first "with" may
    be the request's (a first version set apart a new link's values, a fresh draw's task)."""
    return _set_apart(arg, labels)


def _record_words(label: str) -> str:
    """A reference field's label as the record it names: `namespace name` → "namespace", `video
    channel id` → "video channel"; a label without such an ending as it is ("client")."""
    bare = re.sub(r"\s+(?:id|ids|name|arn|identifier|key|handle)$", "", label, flags=re.I)
    return bare if bare.strip() else label


def _described(arg: str) -> bool:
    """Does an argument name a record by a description that runs on ('the queue with description
    "X" and type system'), not set apart in parentheses? What follows it in a list reads as
    more of the description."""
    bare = re.sub(r'"[^"]*"', '""', arg)
    return " with " in bare and "(the one with " not in bare


def _set_apart(arg: str, labels: list[str] | None = None) -> str:
    """'the source of the record "Beacon" with creation time ...' → '... "Beacon" (the one with
    creation time ...)': the description after the first quoted name, where it holds no
    parentheses of its own outside quoted values; with `labels`, only where it says one of them."""
    # (or after the noun of a record with no name: 'update the experiment template with
    # description "..." and creation time ..., with log configuration ...' read as one list of
    # values to set, and a blind player had to learn from the schema that the first were what
    # finds it, round 44)
    m = re.fullmatch(r'(.*?"[^"]*") with (.+)', arg) or re.fullmatch(r'(the [^"()]*?) with (.+)', arg)
    said = re.sub(r'"[^"]*"', "", m.group(2)) if m is not None else ""
    if m is None or re.search(r"[()]", said) or labels is not None and not any(re.search(rf"\b{re.escape(label)}\b", said) for label in labels):
        return arg
    return f"{m.group(1)} (the one with {m.group(2)})"


# a create's phrase that names the new record right after its noun: "add an invite {login}"
_NEW_THING = re.compile(r"^((?:add|create|open|register|invite|make)\b(?: an?| the)? [^{}]*?[a-z]) \{(\w+)\}")


# a record found among its owner's, and the owner again right after: 'revoke the key "Atlas key"
# among the keys of the app "Juniper app" with account ID "AI-3158" of that app' (Ably, blind
# round 47): the call's own "of app {app_id}" names the owner the description named
# (its description's values only: "... among the sections of the student "Kenji Moreno" and the
# location latitude of that student" lost its "of that student", an imported Clever task of
# stop 70, and the latitude was any record's)
_OWNER_AGAIN = re.compile(r'(among the [a-z][\w ]*? of the ([a-z][\w ]*?) "[^"]*"(?:(?: with| and|,) [a-z][\w ]*? (?:"[^"]*"|\d[\w:.-]*))*) of that \2(?=[.,;]|$)')


def _owner_once(text: str) -> str:
    """`text` with an owner said again right after the description that found a record among its
    rows said once."""
    return _OWNER_AGAIN.sub(r"\1", text)


def _said_once(text: str, stated: list[str], clauses: list[str] = (), telling: frozenset[str] = frozenset()) -> str:
    """`text` with a stated argument that it says twice said once: the description of a record
    the sentence names says its scope ("the contact of the conversation "Chris" with account ID
    "AI-2520""), and the write takes the same scope as an argument of its own (imported APIs
    scope every call by an account, a subscription, a resource group). The later mention goes,
    with what joins it to the sentence. `clauses`: the goals the sentence lists after its first
    (`_joined`), which no "with" takes in as values. `telling`: the parts of the task's
    record descriptions that tell a record apart (`Phraser._telling`), which stay where they
    are: a new job template's description "Please review before Friday." is no reason to drop
    the same words from 'the queue with description "Please review before Friday." and type
    system', which then read "the queue and type system" (a fresh draw's MediaConvert task)."""
    # (a goal is no value: 'lock the product subscription with subscription ID "SI-7922" and
    # invoke rotate secrets action' read "lock the product subscription with invoke rotate
    # secrets action", a fresh draw's Azure task, stop 63)
    starts = [" ".join(c.split()[:2]) for c in clauses if c.split()]
    kept = {t.lower() for t in telling}
    for said in dict.fromkeys(stated):
        if said.lower() in kept:
            continue
        # a label may be cased otherwise where the `say` phrase names it ("ID"); a whole label
        # only: an `id` "SI-7922" is no "subscription ID "SI-7922"" (it went unsaid, and a blind
        # player, told nothing of it, failed an Azure task)
        whole = re.compile(r"(?:^|(?<=with )|(?<=, )|(?<=and )|(?<=\( ))" + re.escape(said), re.I)
        while len(found := list(whole.finditer(text))) > 1:
            i = found[-1].start()
            head, tail = text[:i], text[i + len(said) :]
            m = re.search(r"(?:,? with| and|,)\s*$", head)
            if m is None:
                break
            head = head[: m.start()]
            rest = tail[len(" and ") if tail.startswith(" and ") else 2 :]
            flag = re.match(r"(?:not )?marked as ", rest) is not None
            if "with" in m.group(0) and flag:
                # flags follow the values, not the "with" ("…, with X and marked as enabled" loses
                # X: "…, marked as enabled", not "…, with marked as enabled", met in round 23)
                tail = ", " + rest
            elif "with" in m.group(0) and tail.startswith((", ", " and ")) and not tail.startswith((", with ", ", and ")) and not any(rest.startswith(c) for c in starts) and (_LISTED.match(rest) or tail.startswith(" and ") and _LISTED_BARE.match(rest)):
                # "…, with X, Y and Z" loses X: "…, with Y and Z"; not where what follows is
                # another clause ("…, with X and update that ...": "…, with and update", met in an
                # imported task whose scope the sentence had said)
                # (and a record's description keeps its own "with": 'the bastion host "Beacon"
                # with provisioning state updating', not '..., with provisioning state ...',
                # which reads as one more value of the request)
                tail = ("," if m.group(0).startswith(",") else "") + " with " + rest
            text = head + tail
    # (a set-apart description whose every part was said already goes: 'delete the bastion
    # host "Orion" (the one).', its scope said earlier, in an imported Azure task)
    return text.replace(" (the one)", "")


def _heavy_last(text: str, template: str) -> str:
    """`text` (the filled `template`) with a particle tail put before a heavy object
    (`_PARTICLE_TAIL`): "put on leave the attendee "Nikhil Dunne" of the invitation among ...",
    not "put the attendee ... of the invitation among ... on leave"."""
    m = _PARTICLE_TAIL.fullmatch(template)
    if m is None or re.search(r"\b(?:its|their|his|her)\b", m.group(3)) or m.group(3).startswith("on to"):
        return text
    verb, tail = m.group(1), " " + m.group(3)
    if not (text.startswith(verb + " ") and text.endswith(tail)):
        return text
    obj = text[len(verb) + 1 : -len(tail)].rstrip(",")
    if len(obj.split()) < _HEAVY_OBJECT:
        return text
    return f"{verb}{tail} {obj}"


def _output(p: Phraser, j: int) -> Any:
    return output(p.people, p.steps, p.results, j) if j < len(p.results) else None
