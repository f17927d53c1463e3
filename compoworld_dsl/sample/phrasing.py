"""The instruction of a goal-level task, in a person's words. It reads the walk and the world's
facts; it decides nothing about the task, so the wording can change without touching a proof.

It states the outcomes (the walk's writes, worded by the tools' `say` phrases), the facts a person
knows (stated values), and what to report; it names records by description and values by where
they come from ("the email of the responsible lawyer of the matter with title ..."), never by a
step number, a tool or an id the person would not know. Reads are not mentioned: finding things
is the agent's job. Everything here reads the walk; nothing here decides what the task is, so the
wording can change without touching a proof."""

from __future__ import annotations

import re
from typing import Any

from ..check import types as T
from ..codegen.python import tstr
from ..runtime.state import State
from .facts import WorldFacts
from .people import words
from .steps import Step, output, result_table


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
        self._short: dict[tuple, str] = {}  # a described record → its name once said in full
        # how many distinct records of each kind the instruction can name ("that matter" needs
        # one): the records the walk reads, those its writes create ("record a disbursement ...
        # if the status of that disbursement ..." must not be read as the new one), and those
        # named through a field of a read ("the team lead of the team" is a colleague too)
        used = {src[1] for st in steps for src in st.sources.values() if src[0] == "step"}
        seen = set()
        for j, step in enumerate(steps):
            table = self._table(j)
            out = _output(self, j)
            if table is not None and isinstance(out, dict):
                seen.add((table, repr(out.get(self.people.key[table]))))
                for f, ft in self.people.fields[table].items():
                    rt = self.people.ref_table(ft)
                    if rt is not None and (j, f) in used and f != self.people.key[table]:
                        seen.add((rt, repr(out.get(f))))
            if step.tool.qualified in facts.mutating and j < len(results):
                r = step.tool.result
                rt = self.people.ref_table(tstr(r)) if not isinstance(r, (T.RecordT, T.ListT, T.NoneT)) else None
                if rt is not None:
                    seen.add((rt, repr(results[j])))
        self._named = seen
        self._kinds: dict[str, int] = {}
        self._count_kinds()

    def _count_kinds(self) -> None:
        """`_kinds` from `_named`, in place (the branch not taken shares the dict)."""
        self._kinds.clear()
        for table, _ in self._named:
            self._kinds[self.people.noun[table]] = self._kinds.get(self.people.noun[table], 0) + 1

    # ─────────────────────────── noun phrases ───────────────────────────

    def subject(self, j: int) -> str:
        """What step j's output is, as a noun phrase: in full the first time its record is named,
        then "that matter" when no other record of its kind is named in the task, or else by as
        much of its description as tells it from the others the task names (`_short_name`), or
        else again, with the records inside the phrase named short ("the patient of that
        appointment")."""
        table = self._table(j)
        out = _output(self, j)
        ident = (table, repr(out.get(self.people.key[table]))) if table is not None and isinstance(out, dict) else ("step", j)
        if ident in self._said:
            if table is not None and self._kinds.get(self.people.noun[table], 0) == 1:
                return f"that {self.people.noun[table]}"
            if ident in self._short:
                return self._short[ident]
            return self._subject(j)  # said again: the records inside it are named short now
        if j not in self._subjects:
            self._subjects[j] = self._subject(j)
            short = self._short_name(j)
            if short is not None:
                self._short.setdefault(ident, short)
        self._said.add(ident)
        return self._subjects[j]

    def _short_name(self, j: int) -> str | None:
        """Step j's record named by the fewest leading fields of its description that no other
        record of its table the task names shares ("the patient with name "Max" and date of birth
        2021-12-17", without "among the pets of ..."): values said already, so nothing new. The
        short name must also fit no more rows of the state than the full description does (one
        row, for a description relative to a list), so that every mention can be read alone.
        None when it would be no shorter, or only the whole description tells the records apart."""
        how = self.steps[j].how
        mine = _output(self, j)
        if how is None or how["by"] != "description" or not how["fields"] or not isinstance(mine, dict):
            return None
        table, key = how["table"], self.people.key[how["table"]]
        fields = [f for f in how["fields"] if f in mine]
        others = [o for i in range(len(self.steps)) if self._table(i) == table and isinstance(o := _output(self, i), dict) and o.get(key) != mine.get(key)]
        fits = [mine.get(key)] if how.get("within") == "list" else sorted(self.people.matches(self.state0, table, {f: mine[f] for f in fields}), key=repr)
        for n in range(1, len(fields) + 1):
            prefix = {f: mine[f] for f in fields[:n]}
            if all(any(o.get(f) != v for f, v in prefix.items()) for o in others) and sorted(self.people.matches(self.state0, table, prefix), key=repr) == fits:
                short = self.people.phrase(self.state0, table, prefix)
                (f, v), = prefix.items() if n == 1 else ((None, None),)
                if f is not None and f == (self.people.known_by.get(table) or (None,))[0] and self.facts.world.types.base(self.people.fields[table][f]) == "text" and isinstance(v, str):
                    # named again by what it is known by, as a person does: "the purchase order
                    # "PO-23376"", not "the purchase order with PO number "PO-23376"" a ninth time
                    short = f"the {self.people.noun[table]} {self.people.value_text(self.people.fields[table][f], v)}"
                return short if len(short) < len(self._subjects[j]) else None
        return None

    def _description(self, j: int) -> dict:
        """The fields and values that name step j's record, found by description, in order."""
        step, how = self.steps[j], self.steps[j].how
        key = step.pick if step.pick is not None else how.get("key")
        return self.people.description(self.state0, how["table"], key, tuple(how["fields"])) or {}

    def _subject(self, j: int) -> str:
        step = self.steps[j]
        tool = step.tool
        how = step.how
        if how is not None and how["by"] == "description":
            desc = self._description(j)
            phrase = self.people.phrase(self.state0, how["table"], desc)
            if how.get("within") == "list":  # told apart among what the call shows
                among = self.gives(j)
                if among:
                    return f"{phrase} among {among}" if desc else f"the {self.people.noun[how['table']]} among {among}"
            return phrase
        if how is not None and how["by"] == "rank":
            table = how["table"]
            among = self.gives(j) or f"the {self.people.noun[table]} records"
            dated = self.facts.world.types.base(self.people.fields[table][how["field"]]) in ("date", "datetime")
            word = ("earliest" if dated else "smallest") if how.get("order") == "min" else ("latest" if dated else "largest")
            return f"the {self.people.noun[table]} with the {word} {self.people.label(table, how['field'])} among {among}"
        if tool.qualified in self.facts.mutating:
            r = tool.result
            rt = self.people.ref_table(tstr(r)) if not isinstance(r, (T.RecordT, T.ListT, T.NoneT)) else None
            if rt is not None:
                return f"the new {self.people.noun[rt]}"
            # an updated record: the thing its key argument names
            for name, pt in tool.params:
                if self.people.ref_table(tstr(pt)) is not None:
                    return self.arg(j, name)
            return "the result"
        # a read of one record by its key: the thing the key names (not when it gives another
        # record of the table: `get_manager(id)` gives the manager, not the colleague `id`)
        if isinstance(tool.result, T.RecordT):
            table = result_table(self.people, tool)
            out = _output(self, j)
            for name, pt in tool.params:
                if table is not None and self.people.ref_table(tstr(pt)) == table and isinstance(out, dict) and out.get(self.people.key[table]) == self.values.get((j, name)):
                    return self.arg(j, name)
        return self.gives(j) or f"what you find when you {self.say(j)}"

    def gives(self, j: int) -> str | None:
        phrase = self.steps[j].tool.decl.gives
        return None if phrase is None else self.fill(j, phrase)

    def say(self, j: int) -> str:
        """A write as the user asks for it: the tool's `say` phrase, then every argument the
        phrase leaves out whose value the checker holds the agent to ("…, with memo "Filing
        fees" and co-signatory "R. Castillo""); only a flag left at its default `false` goes
        unsaid."""
        tool = self.steps[j].tool
        template = tool.decl.say or words(tool.name)
        text = self.fill(j, template)
        if tool.qualified not in self.facts.mutating:
            return text
        named = {m.group(1).strip().split(".")[0] for m in re.finditer(r"\{([^{}]*)\}", template)}
        defaults = self.facts.world.tools[tool.qualified].defaults
        extra = []
        for name, _ in tool.params:
            if name in named or name not in self.steps[j].sources or (j, name) in self.left:
                continue
            if self.steps[j].sources[name][0] != "step" and name in defaults and defaults[name] is False and self.values.get((j, name)) is False:
                # only a flag left off goes unsaid: the checker holds the agent to every other
                # default ("30 minutes"), and an agent may fairly choose a value it was not told
                continue
            value = self.values.get((j, name))
            if isinstance(value, bool) and self.steps[j].sources[name][0] != "step":
                # "marked as a controlled drug", not "a controlled drug yes"
                extra.append(f"{'' if value else 'not '}marked as {self._param_label(j, name)}")
                continue
            extra.append(f"{self._param_label(j, name)} {self.arg(j, name)}")
        if not extra:
            return text
        return f"{text}, with " + (extra[0] if len(extra) == 1 else ", ".join(extra[:-1]) + " and " + extra[-1])

    def _param_label(self, j: int, name: str) -> str:
        """A parameter's words: the label of the field it fills in a table the tool writes."""
        tool = self.steps[j].tool
        for table in sorted(self.facts.tables_written[tool.qualified]):
            if name in self.people.fields.get(table, {}):
                return self.people.label(table, name)
        return words(name)

    def arg(self, k: int, name: str) -> str:
        step = self.steps[k]
        src = step.sources[name]
        t = tstr(dict(step.tool.params)[name])
        if (k, name) in self.left:  # "set the deadline of that matter to the due date the house rules call for"
            return f"the {self._param_label(k, name)} the house rules call for"
        if src[0] == "step":
            j, field = src[1]
            return self.field_of(j, field)
        return self.people.value_text(t, self.values[(k, name)])

    def field_of(self, j: int, field: str | None) -> str:
        table = self._table(j)
        if field is None or table is None or field == self.people.key[table]:
            return self.subject(j)
        rt = self.people.ref_table(self.people.fields[table][field])
        out = _output(self, j)
        ident = (rt, repr(out.get(field))) if rt is not None and isinstance(out, dict) else None
        if ident is not None and ident in self._said and self._kinds.get(self.people.noun[rt], 0) == 1:
            # a reference to a record named already: "that colleague", and step j's record is
            # not named here (asking for its subject first would count it said, unsaid)
            return f"that {self.people.noun[rt]}"
        subject = self.subject(j)
        if ident is not None:  # a reference names a record: once in full
            self._said.add(ident)
            lead = self._lead(j, table, field, subject)
            if lead is not None:
                return lead
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
            text = self.people.phrase(self.state0, table, prefix)
            if subject == text or subject.startswith(text + " among "):
                rest = {f: v for f, v in prefix.items() if f != field}
                if not rest and subject == text:  # "the traveller "Chloe Lindahl" of the trip from
                    # ..." misleads: the tool's phrase goes on; "... among ..." does not. A record
                    # named already, and the only one of its kind, is "that" one: "the patient
                    # "Luna" of that prescription", not "the patient of the prescription with
                    # patient "Luna""
                    if n < len(names):  # a short name: the whole description names the rest
                        part = self.people.part(self.state0, table, field, desc[field])
                        if self._kinds.get(self.people.noun[table], 0) == 1:
                            return f"the {part} of that {self.people.noun[table]}"
                        return f"the {part} of {self.people.phrase(self.state0, table, {f: v for f, v in desc.items() if f != field})}"
                    return None
                return f"the {self.people.part(self.state0, table, field, desc[field])} of {self.people.phrase(self.state0, table, rest)}{subject[len(text):]}"
        return None

    def fill(self, k: int, template: str) -> str:
        step = self.steps[k]

        def arg(name: str) -> str:
            text = self.arg(k, name)
            # "add {name} ({email}) as a lead": a stated address reads well in brackets, a phrase
            # for where it comes from does not ("Rahul Reyes (the recipient of the quote ...)"
            # reads as if he were the recipient): the phrase says what it is
            if f"({{{name}}})" in template and step.sources.get(name, ("user", None))[0] == "step":
                return f"{self._param_label(k, name)}: {text}"
            return text

        return fill(self.people, template, dict(step.tool.params), arg)

    def report(self, j: int, field: str | None, aggregate: str | None = None) -> str:
        """What to tell: "the email address of ...", "whether the document ... is archived",
        "how many ... there are", "the total amount of ..."."""
        if aggregate is not None:
            table = result_table(self.people, self.steps[j].tool)
            among = self.gives(j) or self.subject(j)
            if aggregate == "count":
                return f"how many {among[4:] if among.startswith('the ') else among} there are"
            return f"the total {self.people.label(table, aggregate.split(' ', 1)[1])} of {among}"
        table = self._table(j)
        if field is not None and table is not None and self.facts.world.types.base(self.people.fields[table][field]) == "bool":
            return f"whether {self.subject(j)} is {self.people.label(table, field)}"
        return self.field_of(j, field)


    # ─────────────────────────── the instruction ───────────────────────────

    def instruction(self, reports: list[tuple[int, str | None]], constraints: list[dict], branch: dict | None = None, alt=None, idem: dict | None = None) -> str:
        goals = []
        last = len(self.steps) - 1
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
                    first = _Alt(self, alt).say(k)
                    second = self.say(k)
                text = f"if {condition}, {first}; otherwise {second}"
            else:
                text = self.say(k)
            goals.append(text)
        sentences = [_sentence(g) for g in goals]
        if idem is not None:
            sentences.append(_sentence(("also make sure to " if goals else "make sure to ") + idem["_phrase"]))
            # from here on the records it names count too: "that account" after "also make sure
            # to mark the account ... as a customer" would read as that one
            self._named |= {(table, repr(key)) for table, key in idem.get("_named", ())}
            self._count_kinds()
        if reports:
            shown = [self.report(*r) for r in reports]
            listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
            sentences.append(_sentence(("then " if goals else "") + "tell me " + listed))
        out = " ".join(sentences)
        if constraints:
            out += "\nHouse rules: " + " ".join(f"{c['description'] or c['name']}." for c in constraints)
        return out

    def _condition(self, j: int, field: str, t: str | None, equals: Any) -> str:
        """"the latest memorandum of ... is archived", "the status of ... is closed"."""
        if isinstance(equals, bool):
            table = self._table(j)
            label = self.people.label(table, field) if table else words(field)
            return f"{self.subject(j)} is {'' if equals else 'not '}{label}"
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
        self._said, self._kinds, self._short = base._said, base._kinds, base._short


def _output(p: Phraser, j: int) -> Any:
    return output(p.people, p.steps, p.results, j) if j < len(p.results) else None


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


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
            for noun in sorted(nouns, key=len, reverse=True):
                if before.rstrip().lower().endswith(" " + noun) or before.rstrip().lower() == noun:
                    before = before.rstrip()[: -len(noun)]
                    break
            if before.lower().endswith("the "):  # "close the task {id}": "close the new task"
                before = before[:-4]
        if before.endswith(" a ") and shown[:1].lower() in "aeiou":
            before = before[:-2] + "an "  # "file a {kind}" with kind evidence
        out.append(before + shown)
        pos = m.end()
    out.append(template[pos:])
    return "".join(out).replace("{{", "{").replace("}}", "}")
