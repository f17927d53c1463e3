"""Which tools a walk can call, where walks start, which chains end in a protected write, and the
seeded order a step's candidates are tried in: per world. It runs no call and holds no attempt's state."""

from __future__ import annotations

import heapq
import random
import re

from ..check import types as T
from ..check.model import Tool
from ..codegen.python import tstr
from ..runtime.service import Types
from ..vocab import norm, prose_field
from .people import People, share_a_word
from .steps import Step, placeholders, result_table, shown_fields, unused_reads

MAX_TRIES = 8  # candidate tools tried per step
LAST_STEP_TRIES = 3  # times as many for the last step of a one-thread walk
# After step 1, the entries of other services (a lookup that starts a new thread) weigh together
# at most as much as this many entries do: a world of 448 services has 2,240, and weighed one by
# one they drowned the few tools that follow the walk's own keys. No bundled world has more than
# 38, so their walks are drawn as before.
NEW_THREAD_POOL = 48
FLOW_TYPES = ("date", "datetime", "email", "money")
# Shared values (D51), in a last search only where no walk of keys is found (`Walker.walks`):
# a read with no key comes on the thread by a value an earlier output gave ("the market
# statistics for that property's zip code"), and a text flows too, into a tool with no key, by a
# parameter of the same name (`zip_code`, an `execution_role_arn` into a new policy's), a short
# value (at most SHORT_WORDS words and SHORT_CHARS characters: a code, a place, a name) that is
# not prose (`vocab.prose_field`: a message's body), never into a parameter that names the
# record a write makes (a new client named as an old one), into a read only by a parameter its
# phrases name, and only one an agent could not guess (`Walker._informative`). APIs
# whose tools share values but no keys (read-only look-ups) had no task at all.
SHORT_WORDS = 4
SHORT_CHARS = 64
MAX_CALLS = 2  # calls of one tool with keys in a one-thread walk (each on another record)
AGAIN = 0.25  # the weight of a tool the walk has called already
# in a walk of DEEP hops or more, a read that answers a page at a time (`pages N`) weighs PAGED
# times more: an agent turns its pages and compares what they show, and a deep task takes its
# calls beyond its hops from such reads (issue 28: a 16-hop task makes at least 20 real calls);
# a shorter walk keeps to following a thread, and its instruction stays short (issue 29; D44).
# 4 while the bundled firms' lists were short; 25 once they were sized as real ones (D44, third
# update: at 16 hops office 18 -> 19-20.5 and support 18 -> 19-20 real calls, every world still
# giving a task in at least a third of its attempts)
PAGED = 25.0
DEEP = 10
# a one-thread walk's reads that no step has used yet must each be used by a later step (or be
# the one reported): a tool whose keys one of them offers weighs this much more, so that a long
# walk does not pile up reads it dies of twelve steps later ("leaves 4 reads unused with 3
# steps to go" was legal_ops' commonest dead end at 16 hops)
USES_PENDING = 4.0
# the last step of a one-thread walk may leave this many reads unused besides its own, each then
# reported: a fan ("the runtime of the asset of schedule S, and the birth date of its contributor
# C": a schedule, then its asset and the asset's contributors, both found from the schedule).
# Only where the walk finds no chain at all: a second search allows fans (`Walker.walks`), so a
# world with chains samples as it did (a first version that tried a fan after the chains of the
# last step, before backing out, turned 6 of legal_ops' 20 tasks at 5 hops into read-outs). In
# worlds whose reads only fan out from a first read (read-only APIs: TV listings, sports data, a
# private cloud's pools and policies), no 3-step chain exists at all
FANOUT = 1
# where a steered walk's next chain tool refuses the record the chain found so far (a payment
# refunded already, a student with no payments), the walk starts again from the chain's entry,
# on another record, up to this many times before it goes on without the chain (`steered_retry`)
STEER_RETRIES = 6
EVEN_RULES = 0.5  # of steered walks that draw a house rule evenly before its chain (`steered`)


def _same_meaning(param: str, t: str, field: str | None, said: str = "", same_subject: bool = False) -> bool:
    """May a value of `field` flow into `param`? When they mean the same thing: the type is a
    nominal one (`Day`, shared by the services that agree on it), or an email address, or the
    names share a word (`new_folder` and `folder`), or the field's label does (`said`, words
    joined by `_`). A client's joining date is a date, but not a pet's birth date. A read's
    whole result (no `field`) is what the read's name and `gives` phrase say it is (`said`,
    `WalkGraph.said_of`): `suggested_price` may set a list price, `budget_variance` may not
    (issue 29: met in a library world written from the docs alone, a book's list price set to
    a department's budget variance). A whole result also flows to a tool about the same kind of
    record (`same_subject`: both take a key of one table): a matter's trust balance may be the
    amount disbursed from that matter; a department's variance is no book's price."""
    if t.startswith("alias:") or t == "email" or (field is None and same_subject):
        return True
    # a birth is no other day: a timesheet ended on its employee's date of birth, which shares
    # the word "date" with the end date (an imported Xero task, stop 63)
    if field is not None and _born(param) != (_born(field) or _born(said)):
        return False
    if t in ("date", "datetime") and field is not None:
        # a day or a time shares more than the word that says it is one: a purchase order was
        # created on "the expiration date of that subscription", and a backup's version time
        # was "the create time of that database" (fresh draws' tasks, stop 64)
        # (or both bound a span: a new contract may end on the day another starts)
        return any(share_a_word(_undated(param), _undated(n)) or _spans(param) and _spans(n) for n in (field, said) if n)
    return any(share_a_word(param, n) for n in (field, said) if n)


def _spans(name: str) -> bool:
    """Does a name say where a span of time begins or ends (`start_date`, `ends_at`, `valid_until`)?"""
    return bool(set(name.lower().split("_")) & {"start", "starts", "end", "ends", "begin", "begins", "finish", "from", "until", "till"})


def _undated(name: str) -> str:
    """A name (words joined by `_`) without the words that say it is a day or a time."""
    return "_".join(w for w in name.lower().split("_") if w not in _DAY_WORDS)


# the words that say a value is a day or a time, which two dates of different meaning share
# (and where it falls among others: a token's `last_used` was set to "the last updated of that
# console server port", a fresh draw of stop 69)
_DAY_WORDS = frozenset({"date", "time", "datetime", "timestamp", "day", "at", "on", "dt", "utc", "last", "first", "next", "latest", "earliest", "previous"})


def _born(name: str) -> bool:
    """Does a name (words joined by `_`) say a birth (`date_of_birth`, `birthday`, `dob`, `born_on`)?"""
    return bool(set(name.lower().split("_")) & {"birth", "birthday", "birthdate", "dob", "born"})


def _short(value) -> bool:
    """A text a person carries from one call to the next (a code, a place, a name): not blank,
    not JSON, at most `SHORT_WORDS` words and `SHORT_CHARS` characters."""
    return isinstance(value, str) and 0 < len(value) <= SHORT_CHARS and len(value.split()) <= SHORT_WORDS and value.strip()[:1] not in ("[", "{")


class WalkGraph:
    """The tools of one world as a walk sees them: entries, key types, and what feeds what."""

    def __init__(self, tools: list[Tool], mutating: set[str], tables_written: dict[str, set[str]], constraints: list[dict], people: People, types: Types, own_args: dict[str, frozenset[str]] | None = None, named_args: dict[str, frozenset[str]] | None = None, chosen_keys: dict[str, frozenset[str]] | None = None):
        self.people = people
        # the key a create gives its new row, chosen by the caller: a value the instruction
        # states (a new channel's name), not a key an earlier result offers (`param_kind`)
        self._chosen = chosen_keys or {}
        # a new row's own derived parameters (a new lead's email, made from the lead's name):
        # never fed by another record's value (`facts.own_args`)
        self._own = own_args or {}
        # the parameters that name the record a write makes or changes: no text flows into them
        self._named = named_args or {}
        # the tables whose records each tool takes a key of: what it is about (`subjects`)
        self._subjects = {t.qualified: frozenset(rt for _, pt in t.params if (rt := people.ref_table(tstr(pt))) is not None) for t in tools}
        self.types = types
        self.mutating = mutating
        self._offer_sets: dict[str, frozenset] = {}  # tool → `_offers`, filled as asked
        self.entries: list[Tool] = []  # reads called with a row's own values: where walks begin
        others: list[Tool] = []  # tools that take keys from earlier results, and writes from facts
        self._keys: dict[str, list[str]] = {}  # tool → the runtime types of its key parameters
        for t in tools:
            kinds = [self.param_kind(t, n, pt) for n, pt in t.params]
            self._keys[t.qualified] = [tstr(pt) for (_, pt), kind in zip(t.params, kinds) if kind == "key"]
            if "other" in kinds:
                continue  # list and record parameters: no person states those
            if "key" in kinds or (t.qualified in mutating and t.params):
                others.append(t)  # keys from earlier results, or a write from stated facts (add a contact)
            elif t.qualified not in mutating and self.people.describable(self.result_table(t) or ""):
                self.entries.append(t)
        self._entry_names = {t.qualified for t in self.entries}
        # the tables some read shows: a record a person made and can look at again, where a row
        # no read shows is the log of a call the world model records (`Walker._rewrites`)
        self.read_tables = frozenset(rt for t in tools if t.qualified not in mutating and (rt := self.result_table(t)) is not None)
        # the read that gives one row of a table whole by its key (`get_app_monitor`): where a
        # list shows a summary of each row (D56), a row may be found in it by what only this
        # read shows, the agent looking each one up (`Walker._try_entry`, `lookups`)
        self.getters: dict[str, Tool] = {}
        for t in tools:
            table = self.result_table(t)
            if table is None or t.qualified in mutating or isinstance(t.result, T.ListT) or shown_fields(people, t) is not None:
                continue
            if self._keys[t.qualified] == [people.fields[table][people.key[table]]]:
                self.getters.setdefault(table, t)

        # every tool a walk can call, entries first. A step looks only at the tools whose key
        # types are all on offer (the index by key type finds them; each gets one draw, in this
        # order) and at the tools with no key (drawn by pool: `_keyless_candidates`).
        self._walkable = self.entries + others
        self._position = {t.qualified: i for i, t in enumerate(self._walkable)}
        self._by_name = {t.qualified: t for t in self._walkable}
        # the tools without keys, in pools of equal weight whatever the walk so far (see
        # `_keyless_candidates`): entries, by service, and writes from stated facts
        self._keyless_writes = [t for t in others if not self._keys[t.qualified]]
        self._keyless_write_names = {t.qualified for t in self._keyless_writes}
        # the tools whose every key is of a record known by its key, a name a person gives it
        # (D60: Azure's clusters by their names): they open a walk on records the instruction
        # names ("resize the cluster "Juniper cluster""), where a read that only finds the
        # record by that same name would be a step no agent needs (D61)
        # (two pools, reads and writes, as a pool's members share one weight)
        named = [t for t in others if self._keys[t.qualified] and all(people.named_by_key(people.ref_table(kt) or "") for kt in self._keys[t.qualified])]
        self._named_pools = [(pool, {t.qualified for t in pool}, set()) for pool in ([t for t in named if t.qualified not in mutating], [t for t in named if t.qualified in mutating]) if pool]
        self._named_entry_names = {t.qualified for t in named}
        self._entries_of: dict[str, list[Tool]] = {}
        for t in self.entries:
            self._entries_of.setdefault(t.service, []).append(t)
        # the writes from stated facts that a value an earlier result gives can feed (a date, an
        # amount, an email address): after the first step they may come next only so fed, which
        # carries the value from one service into the next ("put that meeting on the calendar")
        self._by_flow: dict[str, list[Tool]] = {}
        for t in self._keyless_writes:
            own = self._own.get(t.qualified, frozenset())
            for ft in dict.fromkeys(tstr(pt) for n, pt in t.params if types.base(tstr(pt)) in FLOW_TYPES and n not in own):
                self._by_flow.setdefault(ft, []).append(t)
        # in the search for shared values (D51), also the reads with no key (by type), and the
        # tools a text feeds, by the parameter's name (`vocab.norm`): a step looks up the names
        # of the text fields on offer, so what it costs does not grow with the world
        self._by_shared: dict[str, list[Tool]] = {}
        self._by_text: dict[str, list[Tool]] = {}
        for t in self._keyless_writes + self.entries:
            own = self._own.get(t.qualified, frozenset())
            if t.qualified in self._entry_names:  # the writes' dates and amounts are in `_by_flow`
                for ft in dict.fromkeys(tstr(pt) for n, pt in t.params if types.base(tstr(pt)) in FLOW_TYPES and n not in own):
                    self._by_shared.setdefault(ft, []).append(t)
            for name in dict.fromkeys(norm(n) for n, pt in t.params if types.base(tstr(pt)) == "text" and n not in own):
                self._by_text.setdefault(name, []).append(t)
        # a create-or-update (D55: it inserts under a key the caller chooses and deletes from
        # that table) takes that key as a stated new name or as a record an earlier step found
        # (`Walker._try_any`): tool → those parameters, and their types, by which an earlier
        # record also finds the tool
        self.upsert_keys = {t.qualified: self._chosen[t.qualified] for t in tools if self._chosen.get(t.qualified) and t.inserts & t.deletes}
        self._upsert_types = {q: [tstr(pt) for n, pt in self._by_name[q].params if n in names] for q, names in self.upsert_keys.items() if q in self._by_name}
        self._by_key: dict[str, list[Tool]] = {}
        for t in self._walkable:
            for kt in set(self._keys[t.qualified]) | set(self._upsert_types.get(t.qualified, ())):
                self._by_key.setdefault(kt, []).append(t)
        # (house rule, its chains): a steered walk draws a rule evenly, then one of its chains
        # (`steered`), so a rule whose tables few tools write is steered to as often as one that
        # guards many (registrar: 9 of 112 chains led to registrations, guarded by three rules)
        self.rule_chains = self._rule_chains(constraints, tables_written)
        # can a walk go from one service to another at all: a key, or a date, amount or address,
        # that one service's output offers and another service's tool takes? Without it (an
        # imported API of one resource) a walk of three steps or more may stay in one service
        # (`Walker._candidate`)
        offered_by: dict[str, set[str]] = {}
        for t in self._walkable:
            table = self.result_table(t)
            shown = shown_fields(self.people, t)
            flows = {ft for f, ft in (self.people.fields[table].items() if table else ()) if types.base(ft) in FLOW_TYPES and (shown is None or f in shown)}
            for kt in self._offers(t) | flows:
                offered_by.setdefault(kt, set()).add(t.service)
        takes = [(t, kt) for t in self._walkable for kt in self._keys[t.qualified]] + [(t, ft) for ft, ts in self._by_flow.items() for t in ts]
        self.crosses = any(offered_by.get(kt, set()) - {t.service} for t, kt in takes)

    def _offers(self, t: Tool) -> set[str]:
        """The key types a tool's output offers later steps (its record's key and references);
        computed once per tool (the world does not change)."""
        got = self._offer_sets.get(t.qualified)
        if got is None:
            got = self._offer_sets[t.qualified] = frozenset(self._offers_of(t))
        return got

    def _offers_of(self, t: Tool) -> set[str]:
        table = self.result_table(t)
        if table is not None:
            shown = shown_fields(self.people, t)  # a summary list offers what it shows (D56)
            return {ft for f, ft in self.people.fields[table].items() if self.people.ref_table(ft) is not None and (shown is None or f in shown)}
        r = tstr(t.result) if not isinstance(t.result, (T.ListT, T.NoneT)) else ""
        return {r} if self.people.ref_table(r) is not None else set()


    def _rule_chains(self, constraints: list[dict], tables_written: dict[str, set[str]]) -> list[tuple[str, list[list[str]]]]:
        """For each house rule, chains of tools, entry first, that a walk can be steered along to
        make it decide the task. A state rule's end in a write (an update, delete or insert) to a
        table it reads: walks that a planted look-alike (lookalikes.py) or a value left to the
        rules (ruled.py) can make the rule decide. An `order` rule's end in its two tools, the
        `after` one first, both taking the one key of the record they act on: the walk that
        certifies a transcript and then sends it. Each needed key comes from one read that offers
        it, itself an entry or fed by one. Rules in declaration order, each one's chains sorted;
        rules without a chain left out."""
        # the tables whose rows a rule keeps untouched or its invariants read: a write there can
        # break it (a table only a rule's conditions read, like the matters, cannot)
        guarded = {i["name"]: i["untouched"] | i["inv_tables"] for i in constraints if i["state"]}
        protected = set().union(*guarded.values()) if guarded else set()
        writers = [t for t in self._walkable if t.qualified in self.mutating and tables_written[t.qualified] & protected and self._keys[t.qualified]]
        pairs = []  # (rule, after, tool) of each order rule a walk can follow
        for i in constraints:
            for o in i["orders"]:
                after, tool = self._by_name.get(".".join(o.after)), self._by_name.get(".".join(o.tool))
                if after is not None and tool is not None and len(set(self._keys[after.qualified])) == 1 and set(self._keys[after.qualified]) == set(self._keys[tool.qualified]):
                    pairs.append((i["name"], after, tool))
        # the reads and the entries by key type they offer: looked up, not scanned per write (a
        # world of thousands of proposed rules and tools paid 45 s for the scan)
        reads_offering: dict[str, list[Tool]] = {}
        entries_offering: dict[str, list[Tool]] = {}
        if writers or pairs:
            for t in self._walkable:
                if t.qualified not in self.mutating:
                    for kt in self._offers(t):
                        reads_offering.setdefault(kt, []).append(t)
            for e in self.entries:
                for kt in self._offers(e):
                    entries_offering.setdefault(kt, []).append(e)

        def chains_to(goal: Tool) -> list[list[str]]:
            needed = set(self._keys[goal.qualified])
            if len(needed) != 1:
                return []  # one key to find: the record the write changes
            (want,) = needed
            out = []
            # the record the tool acts on found among its own kind (a student's payments, for a
            # refund of one) where a read gives those, not through another record's reference
            # to it (a student's refunds: each one's payment has its refund already)
            mids = reads_offering.get(want, ())
            mids = [m for m in mids if self._gives_own(m, want)] or mids
            for mid in mids:
                if self.is_entry(mid):
                    out.append([mid.qualified, goal.qualified])
                    continue
                mid_needs = set(self._keys[mid.qualified])
                if len(mid_needs) != 1:
                    continue
                (up,) = mid_needs
                out += [[e.qualified, mid.qualified, goal.qualified] for e in entries_offering.get(up, ())]
            return out

        by_goal = {goal.qualified: chains_to(goal) for goal in writers}
        writers_of: dict[str, list[str]] = {}
        for goal in writers:
            for table in tables_written[goal.qualified] & protected:
                writers_of.setdefault(table, []).append(goal.qualified)
        # a look-alike of the entry's record, with copies of its rows, is what makes a rule bite:
        # keep the chains whose write changes rows that refer to the entry's record, if any do
        by_name = {t.qualified: t for t in self.entries}

        def refers(chain: list[str], tables: set[str]) -> bool:
            entry = self.result_table(by_name[chain[0]])
            changed = tables_written[chain[-1]] & tables
            return any(self.people.ref_table(ft) == entry for x in changed for ft in self.people.fields.get(x, {}).values())

        out: dict[str, list[list[str]]] = {}
        for i in constraints:
            tables = guarded.get(i["name"], set())
            chains = [c for g in sorted({g for t in tables for g in writers_of.get(t, ())}) for c in by_goal[g]]
            near = [c for c in chains if refers(c, tables)]
            chains = near or chains
            chains += [c + [tool.qualified] for name, after, tool in pairs if name == i["name"] for c in chains_to(after)]
            if chains:
                out.setdefault(i["name"], []).extend(chains)
        return [(name, sorted(chains)) for name, chains in out.items()]

    def _gives_own(self, tool: Tool, key_type: str) -> bool:
        """Does `tool` return records whose own key has type `key_type`?"""
        table = self.result_table(tool)
        return table is not None and self.people.fields[table].get(self.people.key.get(table, "")) == key_type

    def steered(self, rng: random.Random, hops: int, share: float) -> list[str]:
        """The chain a walk is steered along (`candidates` tries its next tool first), or none:
        with chance `share` where some chain fits in `hops` steps, one of them. Half of those
        walks draw a house rule evenly among those with such a chain, then one of its chains,
        so that a rule guarding a table few tools write is steered to at all (registrar's three
        rules on registrations had 9 of 112 chains); the other half draw among all chains alike,
        so that a rule with many ways to bite keeps most of its walks (a veterinary world's rule
        on deceased patients, 139 of 256, decided 9 tasks in 20 and 2 with rules drawn evenly)."""
        rules = [fit for _, cs in self.rule_chains if (fit := [c for c in cs if len(c) <= hops])]
        if not rules or rng.random() >= share:
            return []
        if len(rules) > 1 and rng.random() < EVEN_RULES:
            return rng.choice(rng.choice(rules))
        every = sorted({tuple(c) for cs in rules for c in cs})
        return list(rng.choice(every))

    def is_entry(self, tool: Tool) -> bool:
        return tool.qualified in self._entry_names

    def is_named_entry(self, tool: Tool) -> bool:
        """May the tool open a walk on records the instruction names by their keys (D61)?"""
        return tool.qualified in self._named_entry_names

    def param_kind(self, tool: Tool, name: str, pt) -> str:
        """"key": a record an earlier result gives; "value": a fact the instruction states (the
        new row's key too, where the caller chooses it); "other": a list or a record."""
        if isinstance(pt, (T.ListT, T.RecordT)):
            return "other"
        if name in self._chosen.get(tool.qualified, ()):
            return "value"
        return "key" if self.people.ref_table(tstr(pt)) is not None else "value"

    def result_table(self, tool: Tool) -> str | None:
        return result_table(self.people, tool)

    # ─────────────────────────── candidates ───────────────────────────

    def candidates(self, rng: random.Random, k: int, hops: int, steps: list[Step], hs: list, changing: bool, chain: list[str] = (), joined: bool = False, fans: list | None = None, shared: bool = False) -> list[Tool]:
        """The first `MAX_TRIES` tools that may come next, in a seeded weighted order: those whose
        every key parameter an earlier output offers (chains first), entries, and at step 1 writes
        from stated facts alone.

        The order is a weighted random permutation (each tool's sort key is -u^(1/w), u uniform,
        w its weight). `joined`: one thread, so no entry after the first step. Tools with keys are few at any step and get a draw each; the tools without
        keys are every entry of the world (thousands in a large one) and are drawn by pool
        instead (`_keyless_candidates`), so a step costs the same in a world of 10 services as
        in one of 448. `fans`: a list that gets the last step's keyed reads that would leave a
        pending read to the report (`FANOUT`), which the list returned leaves out. `shared`: the
        search for shared values (D51)."""
        used = {st.tool.qualified for st in steps}
        # one thread: a tool with keys may come again on another record (the second matter's
        # documents), at a lower weight; errands side by side call each tool once
        twice = {q for q in used if sum(st.tool.qualified == q for st in steps) >= MAX_CALLS} if joined else used
        offered = {}
        for t, j, f, _ in hs:
            offered.setdefault(t, j)  # newest step offering each type
        found = {t.qualified: t for kt in offered for t in self._by_key.get(kt, ()) if all(x in offered for x in self._keys[t.qualified])}
        pending = set(unused_reads(self.mutating, steps)) if joined and k > 0 else set()
        from_pending = {t for t, j, _, _ in hs if j in pending}
        # each step to come can use up one pending read; a read that uses none adds one more
        full = len(pending) >= hops - k
        fan = fans is not None and full and k == hops - 1 and len(pending) < hops - k + FANOUT
        keyed = []
        for t in sorted(found.values(), key=lambda t: self._position[t.qualified]):
            w = self._weight(t, k, hops, steps, offered, twice)
            if w is not None:
                w *= AGAIN if t.qualified in used else 1.0
                if pending and any(kt in from_pending for kt in self._keys[t.qualified] + self._upsert_types.get(t.qualified, [])):
                    w *= USES_PENDING
                elif full:
                    if fan and not changing and t.qualified not in self.mutating:
                        fans.append(t)  # in the world's order: no draw, so the walk's draws stay as they were
                    continue  # it could use up none of them: the walk would die of it
                keyed.append((-(rng.random() ** (1.0 / w)), t.qualified, t))
        if k == 0 or not joined:  # a lookup after the first step starts a second errand
            keyed += self._keyless_candidates(rng, k, hops, steps, offered, used)
        if k > 0:
            keyed += self._fed_candidates(rng, k, hops, steps, hs, offered, used, shared)
        if changing:
            keyed = [x for x in keyed if x[2].qualified in self.mutating] or keyed
        # the last step of a one-thread walk has the most to meet (use up the reads, end in
        # another service, give a report): it looks further down the order
        tries = MAX_TRIES * (LAST_STEP_TRIES if joined and k == hops - 1 else 1)
        out = [t for _, _, t in heapq.nsmallest(tries, keyed, key=lambda x: (x[0], x[1]))]
        # the next tool of the chain the walk is steered along is tried first, however many tools
        # the world has (a weight would drown among hundreds); the others follow if it fails
        following = next((c for c in chain if c not in used), None)
        ahead = self._by_name.get(following) if following else None
        if ahead is not None and (ahead.qualified in found or not self._keys[ahead.qualified]) and self._weight(ahead, k, hops, steps, offered, used) is not None:
            if not changing or ahead.qualified in self.mutating or not any(x[2].qualified in self.mutating for x in keyed):
                # the chain's entry, again for other records where the chain's next tool
                # refuses what its read picked (`steered_retry`)
                again = 1 + STEER_RETRIES if k == 0 and ahead.qualified == chain[0] else 1
                out = [ahead] * again + [t for t in out if t is not ahead][: tries - 1]
        return out

    def steered_retry(self, chain: list[str], steps: list[Step], tool: Tool) -> bool:
        """Did the chain's next tool fail on what the walk found so far, every step of it the
        chain's? Then the walk starts again at the chain's entry, which `candidates` offers
        again, on another record."""
        i = chain.index(tool.qualified) if tool.qualified in chain else -1
        return i > 0 and [st.tool.qualified for st in steps] == chain[:i]

    def fed(self, t: Tool, hs: list, steps: list[Step], shared: bool = False) -> list[tuple[str, list]]:
        """(parameter, the earlier outputs that may feed it) for each value parameter of `t` that
        a value on offer may flow into (`_same_meaning`); `shared`: texts too (D51)."""
        out = []
        own = self._own.get(t.qualified, frozenset())
        # a read's phrases must name what it is fed, or the instruction would not say it: "the
        # clientid of what you find when you verify OTP" was fed an hmac it never stated
        said = placeholders(t) if shared and t.qualified not in self.mutating else None
        for name, pt in t.params:
            ft = tstr(pt)
            if self.flows(ft, shared) and name not in own and (said is None or name in said):
                options = [(j, f, v) for ht, j, f, v in hs if ht == ft and self.may_flow(steps, (j, f, v), t, name, ft)]
                if options:
                    out.append((name, options))
        return out

    def flows(self, t: str, shared: bool = False) -> bool:
        """May a value of runtime type `t` flow from an earlier output into a parameter that is
        not a key: a date, an amount, an email address; in the search for shared values, a text
        by its name (`may_flow`)."""
        return self.types.base(t) in FLOW_TYPES or (shared and self.types.base(t) == "text")

    @property
    def shares(self) -> bool:
        """Has the world tools that only the search for shared values walks (D51)?"""
        return bool(self._by_shared or self._by_text)

    def may_flow(self, steps: list[Step], option: tuple, tool: Tool, param: str, ptype: str) -> bool:
        """May step `option[0]`'s output `option[1]` (None: its whole result) flow into `param` of
        `tool`: the same meaning (`_same_meaning`), and not a value the instruction states. A
        text only from a field of the parameter's own name, a short value (`SHORT_WORDS`), into
        another tool than the one that gave it."""
        j, field, value = option
        if self.types.base(ptype) == "text":
            return field is not None and param not in self._named.get(tool.qualified, ()) and not prose_field(field) and norm(field) == norm(param) and _short(value) and steps[j].tool.qualified != tool.qualified and not self.described(steps, option)
        same_subject = field is None and bool(self.subjects(steps[j].tool) & self.subjects(tool))
        return _same_meaning(param, ptype, field, self.said_of(steps, j, field), same_subject) and not self.described(steps, option)

    def subjects(self, tool: Tool) -> frozenset[str]:
        """The tables whose records `tool` takes a key of: what it is about."""
        return self._subjects.get(tool.qualified, frozenset())

    def said_of(self, steps: list[Step], j: int, field: str | None) -> str:
        """Other words for step j's output `field`, joined by `_` (`_same_meaning`): the field's
        label; for the whole result of a read (no field), its name and its `gives` phrase."""
        if field is None:
            gives = steps[j].tool.decl.gives or ""
            return "_".join([steps[j].tool.name] + [w.lower() for w in re.findall(r"[A-Za-z]+", re.sub(r"\{[^{}]*\}", " ", gives))])
        table = steps[j].how["table"] if steps[j].how else self.result_table(steps[j].tool)
        label = self.people.labels.get((table, field)) if table else None
        return "_".join(label.lower().split()) if label else ""

    def described(self, steps: list[Step], option: tuple) -> bool:
        """Is an earlier output's field one the instruction states, as part of the description that
        found its record? A value flowing from it needs no read ("the departure date of the trip
        with departure date 2025-03-18")."""
        j, f = option[0], option[1]
        return f is not None and f in ((steps[j].how or {}).get("fields") or ())

    def _fed_candidates(self, rng: random.Random, k: int, hops: int, steps: list[Step], hs: list, offered: dict, used: set[str], shared: bool = False) -> list[tuple]:
        """Sort keys, with their tools, of the writes from stated facts that an earlier output can
        feed (`_by_flow`), each weighted as a step that continues the walk; `shared`: and of the
        reads with no key, and the tools a text feeds (`_by_shared`, D51)."""
        seen: dict[str, Tool] = {}
        for ft in offered:
            for t in self._by_flow.get(ft, []) + (self._by_shared.get(ft, []) if shared else []):
                seen.setdefault(t.qualified, t)
        if shared:
            for ht, _, f, _ in hs:
                if f is not None and self.types.base(ht) == "text":
                    for t in self._by_text.get(norm(f), ()):
                        seen.setdefault(t.qualified, t)
        out = []
        for t in sorted(seen.values(), key=lambda t: self._position[t.qualified]):
            if t.qualified in used or not self.fed(t, hs, steps, shared):
                continue
            w = self._weight(t, k, hops, steps, offered, used, fed=True)
            if w is not None:
                out.append((-(rng.random() ** (1.0 / w)), t.qualified, t))
        return out

    def _weight(self, t: Tool, k: int, hops: int, steps: list[Step], offered: dict, used: set[str], fed: bool = False) -> float | None:
        """A candidate's weight as step `k`, or None if it may not come next. `fed`: a write from
        stated facts that an earlier output's value feeds (`_fed_candidates`)."""
        if t.qualified in used:
            return None
        keys = self._keys[t.qualified]
        mutating = t.qualified in self.mutating
        if not keys and mutating and k > 0 and not fed and not any(kt in offered for kt in self._upsert_types.get(t.qualified, ())):
            # a write from stated facts alone opens a walk, never continues one; a
            # create-or-update does, on a record an earlier step found (D55)
            return None
        last = k == hops - 1
        if last and not fed and not any(st.tool.qualified in self.mutating for st in steps) and not mutating and hops > 1 and t.qualified in self._entry_names:
            return None  # a last step that reads must read about something the walk found (a fed read does)
        if last and hops >= 3 and self.crosses and len({st.tool.service for st in steps}) == 1 and t.service == steps[0].tool.service:
            return None  # a walk of three steps or more ends in another service, where it can
        w = 1.0
        if keys and any(offered.get(kt) == len(steps) - 1 for kt in keys):
            w *= 4.0  # works on what the last step found: a chain, not a list of chores
        elif fed and any(offered.get(tstr(pt)) == len(steps) - 1 for _, pt in t.params):
            w *= 4.0  # carries on with a value the last step gave
        if mutating:
            w *= 2.0
        if steps and t.service != steps[-1].tool.service:
            w *= 2.0
        if k > 0 and t.qualified in self._entry_names:
            w *= 0.5
        if t.decl.pages and not mutating and hops >= DEEP:
            w *= PAGED  # pages to turn: reading, not just following (D44)
        return w

    def _keyless_candidates(self, rng: random.Random, k: int, hops: int, steps: list[Step], offered: dict, used: set[str]) -> list[tuple]:
        """The best `MAX_TRIES` sort keys, with their tools, of each pool of keyless tools that
        share one weight here: at step 1 the entries, the writes from stated facts and the
        tools on records named by their keys (D61: reads and writes apart); later the
        entries of the previous step's service and those of every other service (keyless writes
        only open a walk). Within a pool of n tools the m best keys are the m largest of n
        uniforms (drawn in order: u1 = U^(1/n), u(i+1) = u(i)·U^(1/(n-i))), on m tools drawn
        without replacement: the distribution of drawing one number per tool, at m draws. The
        other services' entries share the weight of at most `NEW_THREAD_POOL` entries."""
        prev = steps[-1].tool.service if steps else None
        if k == 0:
            pools = [(self.entries, self._entry_names, set()), (self._keyless_writes, self._keyless_write_names, set())] + self._named_pools
        else:
            mine = self._entries_of.get(prev, [])
            names = {t.qualified for t in mine}
            pools = [(mine, names, set()), (self.entries, self._entry_names, names)]
        out = []
        for p, (pool, names, skip) in enumerate(pools):
            skip = skip | {q for q in used if q in names}
            n = len(pool) - len(skip)
            if n <= 0:
                continue
            # every tool in a pool gets the same weight (it depends on the tool's service, kind
            # and keys, which the pool fixes), so any member tells it
            w = self._weight(next(t for t in pool if t.qualified not in skip), k, hops, steps, offered, used)
            if w is None:
                continue
            if k > 0 and p == 1:
                w *= min(1.0, NEW_THREAD_POOL / n)
            m = min(MAX_TRIES, n)
            picks = [pool[i] for i in rng.sample(range(len(pool)), min(len(pool), m + len(skip)))]
            picks = [t for t in picks if t.qualified not in skip][:m]
            u = 1.0
            for i, t in enumerate(picks):
                u *= rng.random() ** (1.0 / (n - i))
                out.append((-(u ** (1.0 / w)), t.qualified, t))
        return out
