"""Grow one attempt's goal-level walk: N calls, every record reached the way a person would reach
it, every value a later call needs flowing from an earlier result. It proves nothing about the task.

A walk starts at an *entry*: a read whose parameters are plain values a person knows (a title,
a name, a role) and whose result is one record or a list of them; the walk picks a target row
that existed in the seeded state and will later be named in the instruction by a description
(`people.People`). A later step takes every key it needs (a matter, a contact, a disbursement)
from an earlier step's output — a returned record's field, or the element the walk picked from
a returned list, by description or by rank (the latest, the largest) — and never from the
instruction. Dates, amounts and email addresses may flow from earlier results too ("set the
deadline to the date in the newest docket note"). Other values are facts the instruction states,
drawn from values the seeded state holds (never made-up filler).

Each candidate call runs on the compiled Python services; a write must change the state and keep
every relevant house rule. Z3 is asked for stated values only when every draw fails, and its
answer is kept only if a person would write it (`sensible`)."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import attrs

from ..check import types as T
from ..check.model import Tool
from ..codegen.python import tstr
from ..runtime.state import State, diff
from .attempt import Attempt
from .bindings import bind_step
from .facts import WorldFacts, entry_fields
from .people import share_a_word
from .pools import ensure
from .rejected import Rejected
from .reports import reportable, telling
from .rules import order_rules, ordered_after, protected
from .runs import run_step
from .steps import Step, element, output, ranked_top, result_table, shown_fields, thread_count, threads, unused_reads  # noqa: F401  (tests import the walk's names from here)
from .walkgraph import DEEP, FANOUT, FLOW_TYPES, MAX_TRIES, STEER_RETRIES

FLOW_SHARE = 0.6  # of value parameters that take a compatible earlier value when there is one
# of the calls of a create-or-update (D55) that change a record an earlier step found, where one
# is there to take; the others create a record under a stated new name
UPSERT_UPDATES = 0.5
TRIES_PER_HOP = 96  # candidate steps a walk may try per hop, over all the dead ends it backs out of
# past LONGEST hops the budget per hop doubles: the last steps of a long thread must each use a
# read still unused, and most dead ends are backed out of there (24 hops, seed 7, 10 attempts:
# office 0 -> 2 tasks, legal_ops 1 -> 4; walks of 16 hops or fewer search as before)
LONGEST = 16
RESTARTS = 6  # fresh starts the search's budget is shared among


class _OutOfTries(Exception):
    """One start of the walk search has spent its share of the tries."""
STEER_SHARE = 0.75  # of walks steered towards a write a house rule protects (a chain that ends in it)


# enum values that end what can be asked of a record: after a step moves a record there, no later
# step of the walk changes it ("close the matter, then rename it" reverses a person's order)
AGGREGATE_SHARE = 0.35  # of list reads as a walk's last step left whole, for a count or a total to report
MIN_RANKED = 5  # candidates a ranked pick compares at least (issue 28: "among at least five")
# the share of picks from a list that are ranked (the latest, the largest) where one stands out;
# in a deep walk, from a list longer than a page, RANKED_PAGED: a ranked pick reads every page
# and compares what they show, where a description is found on average half-way (issue 28: a
# 16-hop task makes at least 20 real calls; D44, fourth update)
RANKED = 0.6
RANKED_PAGED = 0.85
# a write named as a change of the record it is given (not a child added to it, an action on it)
CHANGES = re.compile(r"^(update|modify|patch|edit|change|replace|rename|delete|remove)(_|$)")
# CHANGES that keep the record, the verb anywhere in the name: Azure's operation ids put it last
# (`backend_update`, `backend_create_or_update`: "create or updates the backend ..., then update
# that backend", two recorded calls that said nothing, met in a fresh round's draw)
EDITS = re.compile(r"(^|_)(update|modify|patch|edit|change|replace|rename)(_|$)")
SETS = re.compile(r"(^|_)(set|configure|reconfigure)(_|$)")  # settings a recorded call changes
# verbs one of which undoes the other, beside the ones a prefix turns round (`disassociate`,
# `unlock`, `deactivate`, `deregister`): `_undoes`
UNDONE_BY = {"start": "stop", "pause": "resume", "suspend": "resume", "attach": "detach", "grant": "revoke", "add": "remove", "open": "close", "accept": "decline", "approve": "reject", "enable": "disable", "follow": "unfollow", "tag": "untag"}


# and what turns a request down after it was let through, or the other way round (Access
# Approval's "dismiss the approval request ... After that, approve that approval request", a
# fresh draw of stop 73)
_TURNED_DOWN_BY = {"approve": ("dismiss", "deny", "invalidate")}


def _undoes(a: str, b: str) -> bool:
    """Does the verb of tool `b` undo that of tool `a`, or `a` that of `b`
    (`associate_member`, `disassociate_member`)? The verb comes first, or last where the names
    share all else (Google's custom methods: `projects_approval_requests_approve`)."""
    va, vb = a.split("_")[0], b.split("_")[0]
    if va == vb or a.partition("_")[2] != b.partition("_")[2]:
        va, vb = a.rsplit("_", 1)[-1], b.rsplit("_", 1)[-1]
        if va == vb or "_" not in a or a.rpartition("_")[0] != b.rpartition("_")[0]:
            return False
    pairs = {(va, vb), (vb, va)}
    return any(UNDONE_BY.get(x) == y or y in _TURNED_DOWN_BY.get(x, ()) or y in ("un" + x, "dis" + x, "de" + x) for x, y in pairs)


ENDING = re.compile(r"clos|cancel|archiv|offboard|kill|terminat|inactive|void|reject|churn|delet|retir|lost|dismiss|withdr|expir|revok|destroy", re.I)


def _catch_up(state0: State, state: State) -> None:
    """Give `state` the tables seeded into `state0` after it was made: a walk that backs out of
    a dead end goes on from an earlier state, and the later steps it dropped may have seeded
    tables (`pools.ensure`). No step before `state` touched them (a table is seeded before its
    first use), so the seeded table is the one `state` would hold."""
    for name, table in state0.tables.items():
        if name not in state.tables:
            state.tables[name] = table
            state.counters[name] = state0.counters[name]


def _whole(record: dict) -> str:
    """A record as a comparable whole: two calls that give it with the same fields and values
    give an agent the same thing."""
    return repr(sorted(record.items()))


class Walker:
    """The walk-growing stage of one attempt: the world's walk graph, the attempt's draws."""

    def __init__(self, facts: WorldFacts, attempt: Attempt):
        self.facts = facts
        self.attempt = attempt
        self.people = facts.people
        self.graph = facts.walks

    def handles(self, steps: list[Step], results: list, values: dict | None = None) -> tuple[list[tuple[str, int, str | None, Any]], dict[tuple, set]]:
        """(runtime type, step, field, value) of every value earlier outputs offer, newest first;
        and, by (step, field) of a handle, the other fields that held its value later (`aka`).
        Not a value the instruction states (an argument it gives, a description it finds a
        record by): taken from an earlier output, `reports.flows_not_stated` would turn the
        walk down, as the agent could take it from the text (a new employer's effective date
        as a batch's holding date: 170 of 190 attempts on payrun.io). References are never
        said, but for a record known by its key (D61), which a read must not hand on; a write's
        record so named goes on (`_stated_values`)."""
        out = []
        stated = self._stated_values(steps, results, values or {})
        for j in range(len(steps)):
            tool = steps[j].tool
            value = output(self.people, steps, results, j)
            if value is None:
                continue
            table = steps[j].how["table"] if steps[j].how else result_table(self.people, tool)
            if table is not None and isinstance(value, dict):
                vol = self.facts.world.volatile_fields.get(table, frozenset())
                key = self.people.key[table]
                for f, ft in self.people.fields[table].items():
                    if f not in value:
                        continue  # a summary list's element shows some of the row (D56)
                    if f in vol or (value[f] in ("", None) and self.people.ref_table(ft) is not None):
                        continue  # a blank reference (no assignee yet) names no record
                    if f != key and value[f] == value.get(key) and ft == self.people.fields[table][key]:
                        continue  # a team lead is their own manager: the record offers itself as such
                    if (self._said_type(ft), repr(value[f])) in stated and (self.people.ref_table(ft) is None or steps[j].tool.qualified not in self.facts.mutating):
                        continue
                    out.append((ft, j, f, value[f]))
            elif not isinstance(tool.result, (T.ListT, T.NoneT)):
                out.append((tstr(tool.result), j, None, value))
        # a value an earlier output already offers comes from there: a later step that only
        # finds it again (the matter of the latest message about that matter) adds no hop. The
        # fields it was found under later are kept as its other names (`aka`): a matter's
        # `client` that is the contact step 1 found is still the client
        kept = []
        first: dict = {}
        aka: dict[tuple, set] = {}
        for h in out:
            ident = (h[0], repr(h[3]))
            if ident not in first:
                first[ident] = (h[1], h[2])
                kept.append(h)
            elif h[2] is not None:
                aka.setdefault(first[ident], set()).add(h[2])
        return kept[::-1], aka

    def _said_type(self, t: str) -> str:
        """How a value's type counts for what the instruction states: a reference by its table's
        key type, anything else by its base (a `Day` is a date)."""
        return t if self.people.ref_table(t) is not None else self.facts.world.types.base(t)

    def _stated_values(self, steps: list[Step], results: list, values: dict) -> set[tuple[str, str]]:
        """(`_said_type`, repr of the value) of what the instruction states so far: the
        arguments it gives (not references, which it never says, but for records known by their
        keys, D61), and the fields a read found a record by (its key and references likewise)."""
        stated = set()
        for j, st in enumerate(steps):
            for n, pt in st.tool.params:
                if st.sources.get(n, ("",))[0] != "user" or (j, n) not in values:
                    continue
                t = tstr(pt)
                rt = self.people.ref_table(t)
                if rt is None or self.people.named_by_key(rt):
                    stated.add((self._said_type(t), repr(values[(j, n)])))
            how = st.how or {}
            if st.tool.qualified in self.facts.mutating or how.get("by") != "description" or not isinstance(found := output(self.people, steps, results, j), dict):
                continue
            table = how["table"]
            for f in how.get("fields", ()):
                ft = self.people.fields[table][f]
                rt = table if f == self.people.key[table] else self.people.ref_table(ft)
                if f in found and (rt is None or self.people.named_by_key(rt)):
                    stated.add((self._said_type(ft), repr(found[f])))
        return stated

    # ─────────────────────────── growing ───────────────────────────

    def grow(self, rng: random.Random, seed: int, state0: State, hops: int, branch: bool = False, threads: int = 1):
        """The first walk `walks` finds (steps, values, proofs); `Rejected` when there is none."""
        return next(self.walks(rng, seed, state0, hops, branch, threads))

    def walks(self, rng: random.Random, seed: int, state0: State, hops: int, branch: bool = False, threads: int = 1):
        """Walks of `hops` steps, depth first, as (steps, values, proofs); a later stage that
        turns one down asks for the next, which goes on from the last step, or, sent the index
        of the step it turned the walk down for (`send(k)`), from that step's next candidate
        (`Rejected` when the budget of tries is spent or no walk is left). `threads` 1: one thread by construction (every step after the first takes a value an
        earlier step gave, and the reads are used up as the walk goes, so that at most one is
        left to report per step still to come); more: errands side by side are allowed (the run
        keeps walks of at most that many threads)."""
        facts = self.facts
        joined = threads == 1
        steps: list[Step] = []
        results: list[Any] = []
        values: dict[tuple[int, str], Any] = {}
        diffs: list = []  # what each step changed (an empty diff for a read)
        count = {"tried": 0, "z3": 0}
        budget = TRIES_PER_HOP * hops * (2 if hops > LONGEST else 1)  # candidates tried in all, over every dead end backed out of
        last_failure = [""]
        jump: list[int | None] = [None]  # the step a later stage turned the last walk down for (`send`)
        steer = random.Random(f"{seed}:steer")  # its own stream: walks not steered stay as they were
        chain = self.graph.steered(steer, hops, STEER_SHARE)
        retries = [STEER_RETRIES]  # restarts of a steered walk on another record (`steered_retry`)

        def extend(k: int, state: State):
            """Steps k.. from `state`: depth first, a dead end backed out of to the step before
            (a walk that cannot go on at step 11 tries step 10's next candidate), until the
            budget of tries is spent."""
            if k == hops:
                # copies: a later stage may add to a step's description, and the next walk
                # shares this one's first steps
                jump[0] = yield [attrs.evolve(st, sources=dict(st.sources), how=copy.deepcopy(st.how)) for st in steps], dict(values), {"walk_satisfiable": {"result": "sat", "candidates_tried": count["tried"], "z3_bindings": count["z3"]}}
                return
            hs, aka = self.handles(steps, results, values)  # what the walk so far offers later steps
            fans: list = []
            cands = self.graph.candidates(rng, k, hops, steps, hs, changing=branch and k == hops - 1, chain=chain, joined=joined, fans=fans, shared=sharing[0])
            if fans and not fanning[0]:
                could_fan[0] = True
            cands += fans[:MAX_TRIES] if fanning[0] else []
            if not cands:
                last_failure[0] = f"no tool can follow step {k}"
                return
            pending = set(unused_reads(facts.mutating, steps)) if joined else set()
            set_aside = None
            # an earlier read that no step uses yet and that has nothing to report: the last
            # step must use it, or `reports` rejects the walk after all the work
            unreported = self._unreportable(state0, steps, results) if k == hops - 1 else set()
            held = {_whole(r) for result in results for r in (result if isinstance(result, (list, tuple)) else [result]) if isinstance(r, dict)}
            for tool in cands + [None]:
                if tool is None:  # the last step: the branch set aside is the only one that runs
                    if set_aside is None:
                        return
                    got, set_aside = set_aside, None
                else:
                    if count["tried"] >= count["until"]:
                        raise _OutOfTries
                    self.attempt.deadline.check()
                    count["tried"] += 1
                    _catch_up(state0, state)
                    got = self._candidate(rng, seed, state0, state, steps, results, hs, tool, k, hops, values, held, aka, pending, unreported, joined, diffs, fanning[0], sharing[0])
                    if isinstance(got, str):
                        last_failure[0] = got
                        if retries[0] and self.graph.steered_retry(chain, steps, tool):
                            retries[0] -= 1
                            jump[0] = 0  # refused on the record picked: again from another record
                            return
                        continue
                    count["z3"] += got[4]
                    if branch and k == hops - 1 and set_aside is None and tool.qualified in facts.mutating:
                        set_aside = got  # the branch not taken: another last step that runs here
                        continue
                step, chosen, post, result, _ = got
                steps.append(step)
                results.append(result)
                diffs.append(diff(state, post))
                values.update({(k, n): v for n, v in chosen.items()})
                # the branch not taken, for the walks that end here
                self.attempt.alternative = (set_aside[0], {(k, n): v for n, v in set_aside[1].items()}) if set_aside is not None and k == hops - 1 else None
                yield from extend(k + 1, post)
                steps.pop()
                results.pop()
                diffs.pop()
                for n in chosen:
                    del values[(k, n)]
                if jump[0] is not None:
                    if jump[0] < k:
                        return  # backing out to the step the last walk was turned down for
                    jump[0] = None  # this is that step: its next candidate

        # the search starts afresh (new draws) a few times rather than spend its whole budget
        # under a first few steps that lead nowhere: backing out of a dead end repairs the last
        # steps, a restart the first ones
        # a second search, with the same budget, only where the first found no chain the later
        # stages keep but a fan at the last step was there to take (`walkgraph.FANOUT`)
        # a third, allowing fans too, only where the world has tools that only shared values
        # feed (D51: a read with no key, a text of the same name), so that a world with chains
        # of keys samples as it did
        fanning, could_fan, sharing = [False], [False], [False]
        for fanning[0], sharing[0] in ((False, False), (True, False), (True, True)):
            if sharing[0] and not self.graph.shares:
                break
            if fanning[0] and not sharing[0] and not could_fan[0]:
                continue
            spent = count["tried"]
            for r in range(RESTARTS):
                count["until"] = spent + budget * (r + 1) // RESTARTS
                try:
                    yield from extend(0, state0)
                except _OutOfTries:
                    del steps[:], results[:], diffs[:]
                    values.clear()
        raise Rejected("unsat", f"no walk of {hops} steps in {count['tried']} tries (last: {last_failure[0]})")

    def _candidate(self, rng: random.Random, seed: int, state0: State, state: State, steps: list[Step], results: list, hs: list, tool: Tool, k: int, hops: int, values: dict, held: set, aka: dict, pending: set[int], unreported: set[int], joined: bool, diffs: list, fanning: bool = False, sharing: bool = False):
        """One candidate as step k, tried and judged: `_try`'s tuple, or why not (a message). A
        list read as the last step is left whole AGGREGATE_SHARE of the time: the task then asks
        how many records it shows, or their total (`reports.aggregates`)."""
        whole = k == hops - 1 and tool.qualified not in self.facts.mutating and isinstance(tool.result, T.ListT) and rng.random() < AGGREGATE_SHARE
        got = self._try(rng, seed, state0, state, steps, hs, tool, k, values, held, aka, pending, whole, hops >= DEEP, sharing)
        if isinstance(got, str):
            return f"step {k + 1} {tool.qualified}: {got}"
        again = [j for j, st in enumerate(steps) if st.tool.qualified == tool.qualified and all(values.get((j, n)) == got[1].get(n) for n in got[1])]
        if again:
            return f"step {k + 1} {tool.qualified}: it repeats step {again[0] + 1}'s call"
        # nor a write that repeats one but for a flag: Spotify's "create playlist with name "Atlas
        # album" ... and marked as public, and create playlist with name "Atlas album" ..." made
        # two playlists one flag apart, one errand said twice (a fresh draw, stop 73)
        flagged = [n for n, v in got[1].items() if isinstance(v, bool)]
        if flagged and tool.qualified in self.facts.mutating:
            again = [j for j, st in enumerate(steps) if st.tool.qualified == tool.qualified and all(values.get((j, n)) == v for n, v in got[1].items() if n not in flagged)]
            if again:
                return f"step {k + 1} {tool.qualified}: it repeats step {again[0] + 1}'s call but for a flag"
        if (why := self._gone(state0, state, tool, got[1])):
            return f"step {k + 1} {tool.qualified}: {why}"
        if tool.qualified in self.facts.mutating and (why := self._rewrites(state, got[2], diffs, [st.tool.qualified for st in steps], tool.qualified) or self._protected_since(state0, state, got[2])):
            return f"step {k + 1} {tool.qualified}: {why}"
        if (why := self._own_value(steps, results, tool, got[0], got[1])):
            return f"step {k + 1} {tool.qualified}: {why}"
        if (why := self._stale(state0, state, steps, results, values, got[0])):
            return f"step {k + 1} {tool.qualified}: {why}"
        if (why := self._breaks_an_order(steps, values, tool, got[1])):
            return f"step {k + 1} {tool.qualified}: {why}"
        if joined and (why := self._off_thread(got[0], k, hops, pending, fanning)):
            return f"step {k + 1} {tool.qualified}: {why}"
        if unreported - {src[1][0] for src in got[0].sources.values() if src[0] == "step"}:
            return f"step {k + 1} {tool.qualified}: leaves step {min(unreported) + 1}'s result unused and it has nothing to report"
        if k == hops - 1 and hops >= 3 and self.graph.crosses and len({st.tool.service for st in steps} | {tool.service}) < 2:
            return f"step {k + 1} {tool.qualified}: the walk stays in one service"
        if k == hops - 1 and tool.qualified not in self.facts.mutating:
            # a read the walk would end on is used by no later step: it must give something
            # to report, or `reports` rejects the walk after all the work (a count of 0, an
            # id): the next candidate is tried instead
            try:
                reportable(self.facts, state0, got[0], element(self.people, got[0], got[3]), k)
            except Rejected as e:
                return f"step {k + 1} {tool.qualified}: {e.detail.split(': ', 1)[-1]}"
        return got

    def _gone(self, state0: State, state: State, tool: Tool, args: dict) -> str | None:
        """Why a call names a record an earlier step deleted, or None: "delete the wireless
        gateway ..., then tell me the last uplink of its statistics" read the statistics an
        imported world keeps in a table of their own, which a real API no longer gives (a fresh
        draw's task, stop 57). A call that inserts into the record's table (a create under a
        stated key) names no record that was there."""
        for name, pt in tool.params:
            table = self.people.ref_table(tstr(pt))
            value = args.get(name)
            if table is None or value is None or table.partition(".")[2] in tool.inserts and table.partition(".")[0] == tool.service:
                continue
            if value in state0.tables.get(table, {}) and value not in state.tables.get(table, {}):
                return f"{name} names the {self.people.noun[table]} an earlier step deleted"
        return None

    def _rewrites(self, state: State, post: State, diffs: list, tools: list[str] = (), tool: str = "") -> str | None:
        """Why a write would undo or overrule an earlier step's write, or None. A field one step
        set, a later step may not set again (the first request would be pointless: the plan
        without it ends the same); and a record an earlier step ended — moved an enum field to a
        closing value (closed, cancelled, offboarded, killed, ...) — a later step may not change
        at all, nor add, change or delete a row under it (a docket note on the matter the task
        just closed, a correction to its time entry: a person asks for the record as it should
        end up, and writes nothing more on it); nor delete a record an earlier step changed
        (that change would be for nothing), or one an earlier step's new row refers to (the CRL
        just added to the trust anchor it deletes; a row no read shows, the log of a recorded
        action, does not count: cancel, then delete). Except where an `order` house rule asks for the
        earlier tool before this one (`tools`: the earlier steps'): certifying a transcript and
        then sending it sets its status twice, and the rule is what the first call is for."""
        vol = self.facts.world.volatile_fields
        for ch in diff(state, post).rows:
            # the records the written row belongs to (its matter, its client)
            under = self._parents(ch.table, (state if ch.kind == "deleted" else post).tables[ch.table].get(ch.key))
            for j, earlier in enumerate(diffs):
                for e in earlier.rows:
                    same = e.table == ch.table and e.key == ch.key
                    if ch.kind == "deleted" and e.kind == "inserted" and e.table in self.graph.read_tables and (ch.table, ch.key) in self._parents(e.table, state.tables.get(e.table, {}).get(e.key)):
                        # "add a CRL for the trust anchor "Cedar" ... before you delete it" (a
                        # fresh imported task): the new row is left referring to nothing, or goes
                        # with its record, and the request that made it is for nothing. Not the
                        # log of an action the world model records, which no read shows: "cancel
                        # the operation before you delete it" is what Google asks of its callers
                        return f"it deletes a record step {j + 1}'s new row refers to"
                    if e.kind == "inserted" or not (same or (e.table, e.key) in under):
                        continue
                    if e.kind == "deleted" and not same and ch.kind == "inserted":
                        # a vod source added to the source location step 1 deleted: an imported
                        # child's create cannot check its parent (a tool reads its own service
                        # only), so the walk must not ask for it
                        return f"it adds a row under a record step {j + 1} deleted"
                    if same and ch.kind == "deleted":
                        # the earlier change would be for nothing: the necessity proof turns the
                        # walk down after all its work (17 of 200 imported specs spent their tries
                        # on list, update, delete)
                        return f"it deletes a record step {j + 1} changed"
                    types = self.people.fields.get(e.table, {})
                    row = state.tables[e.table].get(e.key)
                    if row is not None and any(types.get(f, "").startswith("enum:") and ENDING.search(str(row[f])) for f in e.fields):
                        how = "changes" if same else "adds a row under" if ch.kind == "inserted" else "changes a row under"
                        return f"it {how} a record step {j + 1} ended"
                    if not same:
                        continue
                    again = (set(ch.fields) & set(e.fields)) - vol.get(e.table, frozenset())
                    if again and not (j < len(tools) and ordered_after(self.facts, tools[j], tool)):
                        return f"it sets again the {', '.join(sorted(again))} step {j + 1} set"
                    # "update the site "SI-7583" with type shared, then update that site with
                    # owners ...": the call just before could have set these fields too, so the
                    # second call is a step no agent needs, a hop the task only pads (a fresh
                    # draw's Site Verification tasks, every one so, stop 72)
                    settable = {f for t, _, f in self.facts.update_args.get(tools[j], {}).values() if t == ch.table} if j < len(tools) else set()
                    if j == len(diffs) - 1 and j < len(tools) and ch.kind == e.kind == "updated" and set(ch.fields) - vol.get(ch.table, frozenset()) <= settable and not ordered_after(self.facts, tools[j], tool):
                        return f"it changes what step {j + 1}'s call could have changed too"
        return None

    def _protected_since(self, state0: State, state: State, post: State) -> str | None:
        """Why a write touches what an earlier step put under a house rule, or None. The checker
        judges a rule's protection on the state the task starts from; a record the task itself
        puts on legal hold is protected from then on in the rule's own words ("nothing of a
        company on legal hold is changed or added to"), so a person writes nothing more on it or
        under it: a later change, or a row the rule would select, reads as breaking the rule the
        instruction states (an agent that kept it failed a task that changed the held account)."""
        changes = diff(state, post).rows
        written = {ch.table for ch in changes}
        for info in self.facts.constraints:
            if not info["state"] or not info["tables"] & written:
                continue
            start, now, after = (protected(self.facts, self.attempt, info, st) for st in (state0, state, post))
            if start is None or now is None or after is None:
                continue
            newly = {tuple(r) for r in now} - {tuple(r) for r in start}
            selected = {tuple(r) for r in after}
            for ch in changes:
                if (ch.table, ch.key) in newly:
                    return f"it changes a record house rule {info['name']} protects since an earlier step"
                if ch.kind == "inserted" and (ch.table, ch.key) in selected:
                    return f"it adds a row house rule {info['name']} protects since an earlier step"
        return None

    def _parents(self, table: str, row: dict | None) -> set[tuple[str, Any]]:
        """(table, key) of each record a new row refers to (its matter, its client)."""
        if row is None:
            return set()
        out = set()
        for f, t in self.people.fields.get(table, {}).items():
            parent = self.people.ref_table(t)
            if parent is not None and row.get(f) is not None:
                out.add((parent, row[f]))
        return out

    def _stale(self, state0: State, state: State, steps: list[Step], results: list, values: dict, step: Step) -> str | None:
        """Why a value the step takes from an earlier read would not be what an agent finds by
        the time it gets there, or None. The instruction names the value where the step needs it
        ("email the recipient of the latest message about the matter"); a write between the
        read and the step (an email the task sent) can change what the read gives then. So the
        read is run again on the state before the step, its element found the way the
        instruction says (the latest, or the record it names), and the value must be the same."""
        mutating = self.facts.mutating
        for name, src in step.sources.items():
            if src[0] != "step":
                continue
            j, field = src[1]
            earlier = steps[j]
            if earlier.tool.qualified in mutating or not any(st.tool.qualified in mutating for st in steps[j + 1 :]):
                continue
            args = {n: values[(j, n)] for n, _ in earlier.tool.params}
            got = run_step(self.facts, state0, state, earlier.tool, args, [], self.attempt.deadline)
            if isinstance(got, str):
                return f"step {j + 1}'s read fails by then ({got})"
            now = self._as_found(earlier, got[1])
            before = output(self.people, steps, results, j)
            if now is None or (field is not None and (not isinstance(now, dict) or now.get(field) != before.get(field))) or (field is None and now != before):
                return f"step {j + 1}'s read gives another {field or 'value'} by then"
        return None

    def _as_found(self, step: Step, result: Any) -> Any:
        """The element of `result` the instruction's words for `step` find: the only latest or
        largest for a rank, else the record it picked (None when it is gone or not alone)."""
        how = step.how or {}
        if how.get("by") == "rank" and isinstance(result, (list, tuple)):
            top = ranked_top(result, how)
            return top[0] if len(top) == 1 else None
        return element(self.people, step, result)

    def _breaks_an_order(self, steps: list[Step], values: dict, tool: Tool, args: dict) -> str | None:
        """Why calling `tool` next breaks an `order` house rule (it must come after a call the
        walk has not made yet, or made on another record), or None: `sampler` rejects such a
        walk before its proofs, and the search may as well try another step now."""
        rules = [info for info in self.facts.constraints if any(".".join(o.tool) == tool.qualified or ".".join(o.after) == tool.qualified for o in info["orders"])]
        if not rules:
            return None
        to_json, specs = self.facts.world.types.to_json, self.facts.world.tools
        plan = [{"tool": st.tool.qualified, "arguments": {n: to_json(pt, values[(j, n)]) for n, pt in specs[st.tool.qualified].params}} for j, st in enumerate(steps)]
        plan.append({"tool": tool.qualified, "arguments": {n: to_json(pt, args[n]) for n, pt in specs[tool.qualified].params}})
        for info in rules:
            try:
                order_rules(self.facts, info, plan)
            except Rejected as e:
                return e.detail
        return None

    def _off_thread(self, step: Step, k: int, hops: int, pending: set[int], fanning: bool = False) -> str | None:
        """Why a candidate step would leave the walk's one thread, or None. After the first step
        each step takes a value an earlier one gave (so every step hangs on the thread), and the
        reads no step has used yet may not outrun the steps left to use them: each later step
        can use one up, and the last read left over is reported."""
        used = {src[1][0] for src in step.sources.values() if src[0] == "step"}
        if k > 0 and not used:
            return "it takes nothing an earlier step gave (a second errand)"
        read = step.tool.qualified not in self.facts.mutating
        left = (pending - used) | ({k} if read else set())
        # in the search that allows fans (`walkgraph.FANOUT`), the last step may be a keyed read
        # that leaves one more read to the report
        fan = FANOUT if fanning and k == hops - 1 and read and self.graph._keys[step.tool.qualified] else 0
        if len(left) > hops - k + fan:
            return f"it leaves {len(left)} reads unused with {hops - k - 1} steps to go"
        return None

    def _unreportable(self, state0: State, steps: list[Step], results: list) -> set[int]:
        """The reads no step uses yet whose output `reports.reportable` refuses."""
        out = set()
        for j in unused_reads(self.facts.mutating, steps):
            try:
                reportable(self.facts, state0, steps[j], output(self.people, steps, results, j), j)
            except Rejected:
                out.add(j)
        return out

    def _try(self, rng: random.Random, seed: int, state0: State, state: State, steps: list[Step], hs: list, tool: Tool, k: int, values: dict, held: set = frozenset(), aka: dict | None = None, pending: set = frozenset(), whole: bool = False, deep: bool = False, shared: bool = False):
        """One candidate step: (Step, values of every argument, post-state, result, used Z3) or why
        not. A read whose output is a record an earlier call's result gave as it is (`held`, by
        `_whole`) is not taken: an agent has it already (reading the file the folder listing
        showed in full), so the step would be one no agent needs. `aka`: other names of the
        handles' values (`handles`)."""
        got = self._try_any(rng, seed, state0, state, steps, hs, tool, k, values, aka or {}, pending, whole, deep, shared)
        if held and not isinstance(got, str) and tool.qualified not in self.facts.mutating:
            out = element(self.people, got[0], got[3])
            if isinstance(out, dict) and _whole(out) in held:
                return "an earlier result gave its record already"
        return got

    def _try_any(self, rng: random.Random, seed: int, state0: State, state: State, steps: list[Step], hs: list, tool: Tool, k: int, values: dict, aka: dict, pending: set = frozenset(), whole: bool = False, deep: bool = False, shared: bool = False):
        facts = self.facts
        if self.graph.is_entry(tool) and (k == 0 or not shared or not self.graph.fed(tool, hs, steps, shared)):
            # a lookup from a row's own values; after the first step, in the search for shared
            # values (D51), a read with no key comes on the thread by a value an earlier output
            # gave (`WalkGraph.fed`), as a write from stated facts does below
            return self._try_entry(rng, state0, state, steps, tool, k)
        sources: dict[str, tuple[str, Any]] = {}
        given: dict[str, Any] = {}
        taken: set = set()
        if k == 0 and self.graph.is_named_entry(tool):
            # records named by their keys, which the instruction states (D61)
            named = self._named_records(rng, state0, state, tool)
            if isinstance(named, str):
                return named
            given.update(named)
            sources.update({n: ("user", None) for n in named})
        # a new row's own derived fields (a new lead's email, made from the lead's name as the
        # seeded rows' are) never take another record's value: `bindings._derived` makes them
        derived = facts.own_args.get(tool.qualified, frozenset())
        # nor does a changed one (a customer's new address is hers, not a support agent's: met
        # in a support task); tested after the draw, so that other walks draw as they did
        moved = facts.own_updates.get(tool.qualified, frozenset())
        for name, pt in tool.params:
            t = tstr(pt)
            kind = self.graph.param_kind(tool, name, pt)
            options = [(j, f, v) for ht, j, f, v in hs if ht == t and (j, f) not in taken]
            if kind == "value" and options and name in self.graph.upsert_keys.get(tool.qualified, ()) and rng.random() < UPSERT_UPDATES:
                kind = "key"  # a create-or-update of a record an earlier step found (D55)
            if name in given:
                continue
            if kind == "key":
                if not options:
                    return "no earlier result holds a " + t
                # a record held in a field named like the parameter, if any (a new matter's
                # client is an old matter's client, not its lawyer); then the newest record
                # itself before the records it refers to (the employee, not their manager):
                # among one step's fields, its own key first
                own = self.people.key.get(self.people.ref_table(t) or "")
                # (its own name first, then one it had later: a matter's `lawyer` before a client
                # who is some other matter's lawyer)
                rt = self.people.ref_table(t)

                def itself(o) -> bool:  # the record's own key, not a reference named as one
                    return o[1] == own and (steps[o[0]].how["table"] if steps[o[0]].how else result_table(self.people, steps[o[0]].tool)) == rt

                # (a field of the parameter's very name first: `application_version_id` takes a
                # record's `application_version_id`, not its `application_arn`, though both
                # share "application" with it and hold one: blind round 30, where the tool's
                # words named the first and the walk took the second)
                named = [o for o in options if o[1] == name and not itself(o)] or [o for o in options if o[1] is not None and not itself(o) and share_a_word(name, o[1])]
                like = named or [o for o in options if any(f != own and share_a_word(name, f) for f in {o[1]} | aka.get((o[0], o[1]), set()) if f is not None) and not self._named_otherwise(steps, o, name, t)]
                options = like or options
                # a read no step has used yet first: the thread goes on through it
                options.sort(key=lambda o: (o[0] not in pending, -o[0], o[1] != own))
                j, f, v = options[0] if rng.random() < 0.75 else rng.choice(options)
            elif name not in derived and (options := [o for o in options if self.graph.may_flow(steps, o, tool, name, t)]) and facts.world.types.base(t) in FLOW_TYPES and rng.random() < FLOW_SHARE and name not in moved:
                j, f, v = rng.choice(options)
            else:
                sources[name] = ("user", None)
                continue
            sources[name] = ("step", (j, f))
            given[name] = v
            taken.add((j, f))
        if k > 0 and not self.graph._keys[tool.qualified] and not any(src[0] == "step" for src in sources.values()):
            # a write from stated facts, or a read with no key, comes after the first step only
            # fed by an earlier output
            fed = [(n, [o for o in opts if (o[0], o[1]) not in taken and self._informative(state0, steps, o, tool, n)]) for n, opts in self.graph.fed(tool, hs, steps, shared)]
            fed = [(n, opts) for n, opts in fed if opts]
            if not fed:
                return "no earlier result feeds it"
            name, options = rng.choice(fed)
            j, f, v = rng.choice(options)
            sources[name] = ("step", (j, f))
            given[name] = v
        step = Step(tool, sources)
        bound = bind_step(self.facts, self.attempt, rng, seed, state0, state, steps, step, k, given)
        if isinstance(bound, str):
            return bound
        chosen, post, result, z3_used = bound
        if tool.qualified in facts.mutating:
            d = diff(state, post)
            if not d.rows and not d.scalars:
                return "the call changes nothing"
            if (why := self._asks_again(state0, state, d, steps, values)):
                return why
            for ch in d.rows:
                if ch.kind != "inserted" and ch.key not in state0.tables.get(ch.table, {}):
                    # "put a meeting on the calendar, then cancel the new meeting": a person asks
                    # for the record as it should end up (rows that refer to it are fine)
                    return "it changes a record the task itself creates"
            if (why := self._recorded_change(state, steps, values, tool, d, {**given, **chosen})):
                return why
            if CHANGES.match(tool.name) and any((rt := self.people.ref_table(tstr(pt))) is not None and n in given and given[n] not in state0.tables.get(rt, {}) for n, pt in tool.params):
                # the same for an update or a delete the world model records ("add a live source
                # ..., then update a live source's configuration for that live source"; "add a
                # domain ..., then remove an integration from that domain", which has none: a
                # blind player checked, found none, and the recorded delete succeeded: D53)
                return "it changes a record the task itself creates"
        if tool.qualified not in facts.mutating and isinstance(tool.result, T.ListT) and not whole:
            known = {repr(v) for _, _, _, v in hs}  # a record the walk holds already is not found again
            size = facts.world.tools[tool.qualified].pages
            paged = bool(size) and deep and len(result) > size
            picked = self._pick(rng, state0, tool, result, given, known, paged)
            if picked is None:
                return "no element of the list can be told apart"
            step.pick, step.how = picked
        return step, {**given, **chosen}, post, result, z3_used

    def _asks_again(self, state0: State, state: State, d, steps: list[Step], values: dict) -> str | None:
        """Why a write's change `d` (on `state`) changes again a value the instruction itself
        asked for earlier, or None: "prescribe 2 ml, then change the dose", one of the two
        requests pointless. Only on a row an earlier step wrote: another record that holds the
        same value by chance is a second request, not a change of the first ("turn off automation
        A, then turn on B", B off as A was asked to be, had been refused)."""
        stated = {repr(v) for (j, name), v in values.items() if steps[j].tool.qualified in self.facts.mutating and steps[j].sources[name][0] == "user"}
        if not stated:
            return None
        written = {(c.table, c.key) for c in diff(state0, state).rows}
        for ch in d.rows:
            if ch.kind == "updated" and (ch.table, ch.key) in written and any(repr(state.tables[ch.table][ch.key][f]) in stated for f in ch.fields):
                return "it changes again a value the instruction asks for"
        return None

    def _named_records(self, rng: random.Random, state0: State, state: State, tool: Tool) -> dict[str, Any] | str:
        """The keys of the records a named entry works on (`WalkGraph.is_named_entry`), drawn
        from the seeded rows: the record that refers to the others first (an application of a
        cluster), the others then the ones it refers to, so that the names go together (the
        application "Ledger" of the cluster "Juniper cluster", not of some other cluster)."""
        keyed = [(n, rt) for n, pt in tool.params if self.graph.param_kind(tool, n, pt) == "key" and (rt := self.people.ref_table(tstr(pt))) is not None]
        tables = {rt for _, rt in keyed}

        def refs(rt: str) -> int:
            return sum(1 for f, ft in self.people.fields[rt].items() if f != self.people.key[rt] and self.people.ref_table(ft) in tables)

        out: dict[str, Any] = {}
        rows: list[tuple[str, dict]] = []  # (table, row) of each record drawn so far
        for n, rt in sorted(keyed, key=lambda p: -refs(p[1])):
            ensure(self.facts, self.attempt, {rt}, state0, state)
            have = state.tables.get(rt, {})
            held = [row[f] for t, row in rows for f, ft in self.people.fields[t].items() if f != self.people.key[t] and self.people.ref_table(ft) == rt and row.get(f) in have]
            if held:
                out[n] = held[0]
            elif have:
                out[n] = rng.choice(sorted(have, key=repr))
            else:
                return f"no {self.people.noun[rt]} to name"
            rows.append((rt, have[out[n]]))
        return out

    def _recorded_change(self, state: State, steps: list[Step], values: dict, tool: Tool, d, args: dict) -> str | None:
        """Why a change the world model records, or a delete after one, asks for nothing, or
        None. A write named as a change of the record it is given (`CHANGES`: update, edit,
        replace) whose call leaves that record as it is records the call (the world model:
        what it does to the row is not modelled). With no value stated beyond the records it
        names ("update the theme "Maple theme"") the request says nothing a person would ask;
        and a delete of a record such a call changed makes that change pointless ("update the
        theme ..., then delete that theme": a blind player's round, D53's tasks), as
        `_rewrites` says of a change the state shows."""
        keys = {n: rt for n, pt in tool.params if (rt := self.people.ref_table(tstr(pt))) is not None}
        if not keys:
            return None
        touched = {(ch.table, ch.key) for ch in d.rows}
        if EDITS.search(tool.name) and not touched & {(rt, args.get(n)) for n, rt in keys.items()}:
            defaults = self.facts.world.tools[tool.qualified].defaults
            # what only finds the record is no change of it either: an Azure write's subscription
            # and resource group, the values the named row holds under the same names
            rows = [row for n, rt in keys.items() if (row := state.tables.get(rt, {}).get(args.get(n))) is not None]
            if all(n in keys or (n in defaults and args.get(n) == defaults[n]) or any(n in row and row[n] == args.get(n) for row in rows) for n, _ in tool.params):
                return "it asks to change a record and says nothing about how"
        if (EDITS.search(tool.name) or SETS.search(tool.name)) and not touched & {(rt, args.get(n)) for n, rt in keys.items()}:
            # the same recorded change on the same records again, with other values: the first
            # asked for nothing that lasts ("configure the gateway settings of that cluster
            # ..., enabled, and configure them ..., not enabled": HDInsight, stop 60). Not an
            # action, which may well come twice ("lock the device, then reboot it")
            for j, st in enumerate(steps):
                if st.tool.qualified == tool.qualified and all(values.get((j, n)) == args.get(n) for n in keys):
                    return f"it asks again for step {j + 1}'s change of the same record"
                # nor right after another change of it, its twin ("update the task ..., after
                # that, replace that task ...": DrChrono's PATCH, then its PUT, each only
                # recorded, one call's work padded into two hops; a fresh draw, stop 72)
                if j == len(steps) - 1 and st.tool.service == tool.service and EDITS.search(st.tool.name) and EDITS.search(tool.name) and all(n in dict(st.tool.params) and values.get((j, n)) == args.get(n) for n in keys):
                    return f"it changes again the record step {j + 1} just changed"
        if d.rows and not touched & {(rt, args.get(n)) for n, rt in keys.items()} and all(ch.table.endswith("_calls") and ch.table not in self.graph.read_tables for ch in d.rows):
            # an action whose call only the world model's log shows (an import's `<tool>_calls`
            # table, which no read shows), asked for again on the same records: Access Approval's "approve the approval request ... After that, approve
            # that approval request ..., with expire time ..." (a fresh draw, stop 73); the second
            # call leaves nothing the first did not
            # (another member of an enum is another action: "lock the device, then reboot it" are
            # two `issue_command`s, and stay)
            enums = {n for n, pt in tool.params if self.people.types.base(tstr(pt)).startswith("enum:")}
            for j, st in enumerate(steps):
                if st.tool.qualified == tool.qualified and all(values.get((j, n)) == args.get(n) for n in keys) and all(values.get((j, n)) == args.get(n) for n in enums):
                    return f"it asks again for step {j + 1}'s call on the same record"
        for j, st in enumerate(steps):
            # "associate the account with the administrator ..., then disassociate that member":
            # the second call takes back the first, and the two ask for nothing that lasts (a
            # fresh Inspector2 draw). The state shows a status moved back (`_rewrites`); a call
            # the world model only records shows nothing, so the verbs tell
            if st.tool.service == tool.service and _undoes(st.tool.name, tool.name) and all(values.get((j, n)) == args.get(n) for n in keys if n in dict(st.tool.params)):
                return f"it undoes step {j + 1}'s {st.tool.name.split('_')[0]}"
        for ch in d.rows:
            if ch.kind != "deleted":
                continue
            for j, st in enumerate(steps):
                if st.tool.qualified in self.facts.mutating and EDITS.search(st.tool.name) and any(self.people.ref_table(tstr(pt)) == ch.table and values.get((j, n)) == ch.key for n, pt in st.tool.params):
                    return f"it deletes a record step {j + 1} changed"
        return None

    def _informative(self, state0: State, steps: list[Step], option: tuple, tool: Tool, param: str) -> bool:
        """Does a text value an earlier output holds tell something (`WalkGraph.may_flow`)? It
        could not be guessed as a report could not (`reports.telling`: its field takes several
        values over its table's rows in the seeded state, few rows hold this one): a scope
        every row shares (an Azure subscription, a resource group) or one of two site types
        carries nothing from one call to the next, and an agent could give it without the read.
        Other types flow as before."""
        if self.facts.world.types.base(tstr(dict(tool.params)[param])) != "text":
            return True
        j, field, value = option
        table = steps[j].how["table"] if steps[j].how else result_table(self.people, steps[j].tool)
        return table is not None and bool(telling(state0, table, {field: value}, [field]))

    def _own_value(self, steps: list[Step], results: list, tool: Tool, step: Step, args: dict) -> str | None:
        """Does the update set a field of a record to what an earlier output says that same
        field of that same record holds ("with last recovery point the last recovery point of
        that protected item")? The request asks for nothing."""
        for name, (table, key, field) in self.facts.update_args.get(tool.qualified, {}).items():
            src = step.sources.get(name)
            if src is None or src[0] != "step" or src[1][1] != field:
                continue
            j = src[1][0]
            out = output(self.people, steps, results, j)
            tj = steps[j].how["table"] if steps[j].how else result_table(self.people, steps[j].tool)
            if tj == table and isinstance(out, dict) and out.get(self.people.key[table]) == args.get(key):
                return f"it sets the {field} of a record to the value it holds"
        return None

    def _named_otherwise(self, steps: list[Step], option: tuple, name: str, t: str) -> bool:
        """Does the record the option's value comes from hold another field of the same type
        named like the parameter? Then that field is what the parameter means there (a matter's
        `lawyer`), not the option's (its `client`, though that contact is another matter's
        lawyer)."""
        j, f = option[0], option[1]
        table = steps[j].how["table"] if steps[j].how else result_table(self.people, steps[j].tool)
        fields = self.people.fields.get(table or "", {})
        return any(g != f and ft == t and share_a_word(name, g) for g, ft in fields.items())

    def _try_entry(self, rng: random.Random, state0: State, state: State, steps: list[Step], tool: Tool, k: int):
        """An entry: choose a row the seeded state holds, call the read with that row's values."""
        facts = self.facts
        table = result_table(self.people, tool)
        ensure(self.facts, self.attempt, {table} | set(facts.tool_tables[tool.qualified]), state0, state)
        keys = [key for key in state0.tables.get(table, {}) if key in state.tables.get(table, {})]
        if not keys:
            return "no row to look up"
        key = rng.choice(sorted(keys, key=repr))
        row = state.tables[table][key]
        given = entry_fields(self.people, table, tool) if tool.params else {}
        if given is None:
            return "no field of the row gives its arguments"
        pkey = self.people.key[table]

        def holds(result) -> bool:  # the call's result is the row, or a list with it
            return any(e.get(pkey) == key for e in result) if isinstance(result, (list, tuple)) else isinstance(result, dict) and result.get(pkey) == key

        # a parameter no field gives keeps its default, as the agent's call may leave it
        defaults = facts.world.tools[tool.qualified].defaults
        fewer = self._needed_filters(state, table, tool, row, given)
        for tried in [fewer, given] if fewer != given else [given]:
            args = {name: row[f] for name, f in tried.items()}
            args = {name: args[name] if name in args else defaults[name] for name, _ in tool.params}
            got = run_step(self.facts, state0, state, tool, args, [], self.attempt.deadline)
            if isinstance(got, str):
                return got
            post, result = got
            if holds(result):
                break  # (a read of one row that the fewer filters leave to another row: all of them)
        used = list(tried.values())
        known = self.people.known_by[table]
        bare = self.people.unnamed(table, known)
        if bare != known and bare and self.people.matches(state, table, {f: row[f] for f in bare}) == [key]:
            known = bare  # (the billing record by its date, not by the domain it is for: D61)
        shown = shown_fields(self.people, tool)  # (what a summary list shows: the value must be among it)
        known = self._told_apart(table, {f: v for f, v in row.items() if shown is None or f in shown}, [r for k2, r in state.tables[table].items() if k2 != key], known)
        fields = tuple(dict.fromkeys(known + tuple(used)))
        if not self.people.nameable(table, fields):
            return "its description would say a key"
        if not set(fields) <= (shown_fields(self.people, tool) or set(fields)) and table not in self.graph.getters:
            # a summary list that does not show the description: the agent looks each row up
            # (`lookups`), where a read gives a row whole by its key (D56)
            return "its result does not show what describes the row"
        how = {"by": "description", "table": table, "fields": list(fields)}
        if isinstance(result, (list, tuple)):
            if not holds(result):
                return "the row is not in the result"
            return Step(tool, {n: ("user", None) for n in args}, pick=key, how=how), args, post, result, 0
        if not holds(result):
            return "the call gives another row"
        return Step(tool, {n: ("user", None) for n in args}, how={**how, "key": key}), args, post, result, 0

    def _needed_filters(self, state: State, table: str, tool: Tool, row: dict, given: dict[str, str]) -> dict[str, str]:
        """`given` without the optional filters an entry needs not set: where the row's `known
        by` values name it alone, a search by them finds it, and the walk leaves the list's other
        filters blank, as a person looking a series up by its name would. Every filter given
        made the instruction say them all ("the series "Harbor series" with imdb ID "II-5259",
        zap2it ID "ZI-9740" and slug "atlas-series"": TheTVDB's search, issue 30)."""
        known = self.people.known_by.get(table) or ()
        optional = {p.name for p in tool.decl.params if p.default is not None}
        extra = [n for n, f in given.items() if n in optional and f not in known]
        if not extra or not known or len(self.people.matches(state, table, {f: row[f] for f in known})) != 1:
            return given
        return {n: f for n, f in given.items() if n not in extra}

    def _told_apart(self, table: str, row: dict, others: list[dict], fields: tuple[str, ...]) -> tuple[str, ...]:
        """A record known by its key (D60) described by a value that tells it from `others` in
        place of its name, where one does: "the database with collation "Latin1_General" among
        the databases of that server", not 'the database "Atlas database" among ...', which
        hands the agent the key and leaves the read nothing to find (D61). `fields` otherwise."""
        key = self.people.key[table]
        if key not in fields or not self.people.named_by_key(table):
            return fields
        rest = tuple(f for f in fields if f != key)
        # (by what a person tells records apart by, a state, a date, an amount: not by another
        # text, which may be an identifier, or Azure's `id`, the path that holds the name)
        said = tuple(f for f, ft in self.people.fields[table].items() if not (b := self.facts.world.types.base(ft)).startswith("enum:") and b not in ("date", "datetime", "money", "int", "decimal"))
        extra = self.people.distinguishing(table, row, others, rest + said)
        return rest + (extra,) if extra is not None and self.people.nameable(table, rest + (extra,)) else fields

    def _pick(self, rng: random.Random, state0: State, tool: Tool, result: list, given: dict, known: set = frozenset(), paged: bool = False):
        """The element of a list result the walk goes on with: the latest or earliest, largest or
        smallest by a field when one stands out among at least MIN_RANKED (the agent ranks what it
        sees: among two there is little to compare), else one its description tells apart
        among the list — a description relative to the list ("the note by R. Castillo among the
        docket notes on ..."), leaving out what the call's own arguments already fix. Never a
        record whose key an earlier output holds (`known`, as reprs): finding the matter again
        among its lawyer's matters is a hop no agent needs."""
        table = result_table(self.people, tool)
        if table is None or not result:
            return None
        key = self.people.key[table]
        vol = self.facts.world.volatile_fields.get(table, frozenset())
        ranked = []
        for f, ft in self.people.fields[table].items():
            if f == key or f in vol or f not in result[0] or self.facts.world.types.base(ft) not in ("date", "datetime", "money", "int", "decimal"):
                continue
            if len(result) < MIN_RANKED:
                break
            for order in ("max", "min"):
                winners = ranked_top(result, {"field": f, "order": order})
                if len(winners) == 1 and repr(winners[0][key]) not in known:
                    ranked.append((f, order, winners[0][key]))
        if ranked and rng.random() < (RANKED_PAGED if paged else RANKED):
            f, order, k = rng.choice(ranked)
            return k, {"by": "rank", "table": table, "field": f, "order": order}
        fixed = {repr(v) for v in given.values()}
        # (a summary list shows some fields only: the description is of those, D56)
        fields = [f for f in self.people.known_by.get(table, ()) if f in result[0] and (repr(result[0][f]) not in fixed or len({repr(e[f]) for e in result}) > 1)]
        fields = list(self.people.unnamed(table, fields)) or fields  # (D61, as `_try_entry`)
        if not self.people.nameable(table, fields):
            return None  # the description would say a key
        options = []
        for e in result:
            if e[key] not in state0.tables.get(table, {}) or repr(e[key]) in known:
                continue  # only rows of the seeded state have a description a person knows
            told = self._told_apart(table, e, [o for o in result if o[key] != e[key]], tuple(fields))
            if told != tuple(fields):
                options.append((e[key], list(told)))
                continue
            same = [o for o in result if all(o[f] == e[f] for f in fields)]
            if len(same) == 1:
                options.append((e[key], fields))
            else:
                extra = self.people.distinguishing(table, e, [o for o in same if o[key] != e[key]], tuple(fields))
                if extra is not None:
                    options.append((e[key], fields + [extra]))
        if not options:
            return None
        k, fs = rng.choice(sorted(options, key=lambda o: repr(o[0])))
        return k, {"by": "description", "table": table, "fields": list(fs), "within": "list"}
