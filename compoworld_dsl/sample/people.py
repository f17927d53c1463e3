"""How people name things: the world's nouns, `known by` fields, field labels and `gives`
phrases, and descriptions of records drawn from a state ("the matter with title "Lease dispute
with landlord" and client Ana Ruiz").

A description is a dict field → runtime value over one table. A reference field (one that holds
another table's key) is described through the referenced row's first `known by` field, as a
person would say it ("client Ana Ruiz", not "client contact-4"), and matched the same way, so a
description never carries an id a person would not know. `matches` is the Python side of the
uniqueness proof; `describe.z3_count` is the Z3 side."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..check.model import Model
from ..runtime.state import State
from ..runtime.world import CompiledWorld
from ..vocab import words  # noqa: F401  (the sampler imports `words` from here too)


# words that say nothing of what a name means: fillers, and the objects APIs keep a resource's
# fields in (Azure's `properties_created` and `properties_last_modified` share no meaning)
_FILLER = {"new", "old", "the", "of", "to", "at", "on", "by", "a", "an", "properties", "attributes", "props"}


def share_a_word(a: str, b: str) -> bool:
    """Do two field or parameter names mean the same thing by a word (`new_folder`, `folder`)?"""
    return bool((set(a.split("_")) - _FILLER) & set(b.split("_")))


def share_the_head(a: str, b: str) -> bool:
    """Do two names end in the same word, the thing they name (`new_folder`, `folder`; `tags`,
    `tag`)? A word elsewhere is not enough: an `ip_address` is no `address_country` ("ip address
    "JP"") and a `user_agent` no `user_language` ("user agent "pt""), both met in an imported
    task."""
    def parts(n: str) -> list[str]:
        ws = [w for w in n.split("_") if w and w not in _FILLER] or [n]
        return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in ws]

    wa, wb = parts(a), parts(b)
    if wa[-1] != wb[-1]:
        return False
    # a head that names no kind of thing (a name, a code) is that of the word before it: a
    # MemoryDB reset's `parameter_names` is no `user_name` ("parameter names "Lucia Castillo"",
    # blind play); a bare `name` or a `new_name` matches any name as before
    return wa[-1] not in _GENERIC_HEADS or len(wa) < 2 or len(wb) < 2 or wa[-2] == wb[-2]


# the last words of names that say what a value is, not what it is of
# the last word of a field that holds a machine's token, not a fact a person knows a record by
_OPAQUE = frozenset({"etag", "etags", "hash", "checksum", "token", "tokens", "signature", "nonce", "cursor", "fingerprint", "secret", "password"})
_GENERIC_HEADS = frozenset({"name", "id", "code", "key", "number", "type", "value"})


def same_as_said(a: Any, b: Any) -> bool:
    """Values as a person compares them in a description: text trimmed and case-blind."""
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().casefold() == b.strip().casefold()
    return a == b


class People:
    """Per world: the words a task uses for its records, fields and read results."""

    def __init__(self, model: Model, world: CompiledWorld):
        self.world = world
        self.types = world.types
        decls = {}
        for sname, svc in model.services.items():
            for m in svc.decl.members:
                if type(m).__name__ == "RecordDecl":
                    decls[f"{sname}.{m.name}"] = m
        self.table_of_key: dict[str, str] = {}  # key alias ("MatterId") → table ("matters.matters")
        self.noun: dict[str, str] = {}
        self.known_by: dict[str, tuple[str, ...]] = {}
        self.labels: dict[tuple[str, str], str] = {}
        self.fields: dict[str, dict[str, str]] = {}  # table → field → runtime type
        self.key: dict[str, str] = {}
        self._tables: dict[str, str] = {}  # "service.Record" → the (first) table holding it
        for table, decl in world.state_decl.items():
            if decl["kind"] != "table":
                continue
            rec = decl["record"]
            self._tables.setdefault(rec, table)
            fields = world.types.records[rec]
            self.fields[table] = fields
            self.key[table] = decl["key"]
            kt = fields[decl["key"]]
            if kt.startswith("alias:"):
                self.table_of_key.setdefault(kt.split(":")[1], table)
            d = decls.get(rec)
            self.noun[table] = (d.noun if d is not None and d.noun else words(rec.split(".")[1]))
            self.known_by[table] = tuple(d.known_by) if d is not None and d.known_by else self._default_known_by(table, decl["key"], (getattr(world, "seeds", None) or {}).get(table, {}).get("fields", {}))
            for f in (d.fields if d is not None else ()):
                if f.label:
                    self.labels[(table, f.name)] = f.label
        # a record no table holds whose fields are some of one table's record, that record's key
        # among them (a key of its own type), is a view of that table's rows: a list that shows a
        # summary of each (D56: Twilio's pricing countries, whose GET adds the prices). Its
        # elements are rows as far as they go: only the fields it shows (`shown`) describe a
        # row found in it, flow to later steps or are reported
        # (tables looked up by their key's name and type: a world of thousands of records and
        # tables pays for each record's own fields, not for every pair)
        self.shown: dict[str, frozenset[str]] = {}  # view record → the fields it shows
        by_key: dict[tuple[str, str], list[str]] = {}
        for table, tf in self.fields.items():
            if tf[self.key[table]].startswith("alias:"):
                by_key.setdefault((self.key[table], tf[self.key[table]]), []).append(table)
        for rec, fields in world.types.records.items():
            if rec in self._tables:
                continue
            table = next((t for f, ft in fields.items() for t in by_key.get((f, ft), ()) if len(fields) < len(self.fields[t]) and all(self.fields[t].get(g) == gt for g, gt in fields.items())), None)
            if table is not None:
                self._tables[rec] = table
                self.shown[rec] = frozenset(fields)
        self.volatile = world.volatile_fields
        # table → its fields that hold a machine's token (`_OPAQUE`), which tell no row apart
        self.opaque = {t: frozenset(f for f in fields if f.rsplit("_", 1)[-1] in _OPAQUE) for t, fields in self.fields.items()}
        # table → (table, field) of every field elsewhere that refers to it, in table and field order
        self.children: dict[str, list[tuple[str, str]]] = {}
        for t, fields in self.fields.items():
            for f, ft in fields.items():
                parent = self.ref_table(ft)
                if parent is not None and parent != t:
                    self.children.setdefault(parent, []).append((t, f))

    def _default_known_by(self, table: str, key: str, seeded: dict) -> tuple[str, ...]:
        """A record without `known by` is known by its first text field that is not its key (a
        title, a name): a world written before `known by`, or imported, still gets tasks. Not by
        one its seed gives every row alike (`embedded: "{}"`): that names no row (TVmaze's followed
        shows were "the show follow "{}"", a fresh draw, stop 66)."""
        for f, t in self.fields[table].items():
            if f != key and self.types.base(t) == "text" and (seeded.get(f) or ("",))[0] != "const":
                return (f,)
        return ()

    # ─────────────────────────── words ───────────────────────────

    def label(self, table: str, field: str) -> str:
        return self.labels.get((table, field)) or words(field)

    def ref_table(self, t: str) -> str | None:
        """The table whose key a field or parameter of runtime type `t` holds, if any."""
        if t.startswith("alias:"):
            return self.table_of_key.get(t.split(":")[1])
        return None

    def table_of_record(self, rec: str) -> str | None:
        return self._tables.get(rec)

    def value_text(self, t: str, value: Any) -> str:
        """A value as a person writes it in a sentence."""
        j = self.types.to_json(t, value)
        base = self.types.base(t)
        if isinstance(j, bool):
            return "yes" if j else "no"
        if base.startswith("enum:"):
            return words(str(j))
        if base in ("money", "decimal") or isinstance(value, (Fraction, Decimal)):
            n = Fraction(str(j)) if not isinstance(j, (int, float)) else Fraction(j)
            # an amount of money always with its cents ("fine that member 12.00", not "12" beside
            # "2.50": met by an author reading a library world's tasks); other decimals as needed
            # (a figure of ten digits or more is a moment or a code, not a count: Buffer's
            # "created at 1,752,752,627.30" was a Unix time, stop 74)
            sep = "," if abs(n) < 10**9 else ""
            if base == "money" or n.denominator != 1:
                return f"{float(n):{sep}.2f}"
            return f"{int(n):{sep}}"
        if isinstance(j, int):
            return f"{j:,}" if 10000 <= abs(j) < 10**9 else str(j)
        if base in ("text", "email", "id") or base.startswith("alias:"):
            # (an id is stated only as a new record's name its caller chooses: "channel-east")
            return f'"{j}"'
        return str(j)

    # ─────────────────────────── descriptions ───────────────────────────

    def describable(self, table: str) -> bool:
        return bool(self.known_by.get(table))

    def description(self, state: State, table: str, key: Any, fields: tuple[str, ...] | None = None) -> dict[str, Any] | None:
        """The row's `known by` fields (or `fields`), as the state holds them; None when the row
        is missing or a reference points at a row that cannot itself be named."""
        row = state.tables.get(table, {}).get(key)
        if row is None:
            return None
        out = {}
        for f in fields or self.known_by.get(table, ()):
            t = self.fields[table][f]
            rt = self.ref_table(t)
            if rt is not None:
                shown = self.ref_value(state, rt, row[f])
                if shown is None:
                    return None
            out[f] = row[f]
        return out

    def named_by_key(self, table: str) -> bool:
        """Is a row of `table` known by its key (a key that is the name a person gives the row:
        Azure's clusters, D60)? Then the key is said, and no second row can share it."""
        return self.key.get(table) in self.known_by.get(table, ())

    def unnamed(self, table: str, fields) -> tuple[str, ...]:
        """`fields` without the references to records known by their keys (D61): said, such a
        reference hands the agent the key ('the domain "Atlas domain" of the billing record with
        domain "Atlas domain" and bill date ...'), and the read that finds the record would be a
        step no agent needs; a record described without it leaves the agent to read it ('the
        domain of the billing record with bill date ...')."""
        return tuple(f for f in fields if not ((rt := self.ref_table(self.fields[table][f])) is not None and f != self.key[table] and self.named_by_key(rt)))

    def nameable(self, table: str, fields) -> bool:
        """Can a description by `fields` be said without a key? Not when one of them refers to a
        record whose first `known by` field is itself a reference: the text would show that
        reference's key ("the loan with copy book-9", met in a world written from the docs
        alone, where a copy is known first by its book)."""
        for f in fields:
            if f == self.key[table] and self.named_by_key(table):
                continue  # a row known by its key is named by it (Azure's clusters, by their names)
            rt = self.ref_table(self.fields[table][f])
            # (a row known by its key is said by it: a billing record's domain is the domain
            # "atlas.example", Route 53 Domains)
            if rt is not None and (not self.known_by.get(rt) or not self.named_by_key(rt) and self.ref_table(self.fields[rt][self.known_by[rt][0]]) is not None):
                return False
        return True

    def ref_value(self, state: State, table: str, key: Any) -> Any:
        """What a person says for a referenced row: its first `known by` field's value."""
        kb = self.known_by.get(table)
        row = state.tables.get(table, {}).get(key)
        if not kb or row is None:
            return None
        return row[kb[0]]

    def matches(self, state: State, table: str, desc: dict[str, Any]) -> list:
        """Keys of the rows of `table` in `state` that fit the description as a person reads it
        (a reference matches every row whose referenced row has the same first `known by` value)."""
        want = {}
        for f, v in desc.items():
            rt = self.ref_table(self.fields[table][f])
            want[f] = (rt, self.ref_value(state, rt, v)) if rt is not None else (None, v)
        out = []
        for k, row in state.tables.get(table, {}).items():
            ok = True
            for f, (rt, v) in want.items():
                got = self.ref_value(state, rt, row[f]) if rt is not None else row[f]
                if not same_as_said(got, v):
                    ok = False
                    break
            if ok:
                out.append(k)
        return out

    def fits(self, state: State, table: str, row: dict, desc: dict[str, Any]) -> bool:
        """Does one record (a row, or an element of a list a call gave) fit the description, as
        `matches` reads it, with references looked up in `state`?"""
        for f, v in desc.items():
            rt = self.ref_table(self.fields[table][f])
            got, want = (self.ref_value(state, rt, row[f]), self.ref_value(state, rt, v)) if rt is not None else (row[f], v)
            if not same_as_said(got, want):
                return False
        return True

    def part(self, state: State, table: str, field: str, value: Any) -> str:
        """One field of a description: `client "Ana Ruiz"` (a reference by its record's first
        `known by` field)."""
        t = self.fields[table][field]
        rt = self.ref_table(t)
        if rt is not None:
            kb = self.known_by[rt][0]
            shown = self.value_text(self.fields[rt][kb], self.ref_value(state, rt, value))
        else:
            shown = self.value_text(t, value)
        return f"{self.label(table, field)} {shown}"

    def phrase(self, state: State, table: str, desc: dict[str, Any]) -> str:
        """"the matter with title "Lease dispute" and client "Ana Ruiz"" """
        parts = [self.part(state, table, f, v) for f, v in desc.items()]
        noun = self.noun[table]
        if not parts:
            return f"the {noun}"
        return f"the {noun} with " + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0])

    def distinguishing(self, table: str, row: dict, others: list[dict], used: tuple[str, ...]) -> str | None:
        """A further field (not the key, not a clock's, not already used) whose value tells the row
        apart from every one of the `others` rows; enums and dates first, as a person adds them."""
        # (nor a machine's token, which no person tells a record by: "the license assignment
        # "Beacon sku" (the one with product ID ... and etags "E-8485")", a fresh draw of stop 71)
        skip = set(used) | {self.key[table]} | set(self.volatile.get(table, ())) | self.opaque[table]
        order = sorted(
            (f for f in self.fields[table] if f not in skip and f in row and self.ref_table(self.fields[table][f]) is None),
            key=lambda f: (0 if self.types.base(self.fields[table][f]).startswith("enum:") else 1 if self.types.base(self.fields[table][f]) in ("date", "datetime", "money", "int") else 2, f),
        )
        for f in order:
            if all(o[f] != row[f] for o in others):
                return f
        return None
