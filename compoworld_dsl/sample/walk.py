"""Grow a goal-level walk: N calls in which every record is reached the way a person would
reach it and every value that a later call needs flows from an earlier result.

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

import heapq
import random
import re
from typing import TYPE_CHECKING, Any

import attrs

from ..check import types as T
from ..check.model import Tool
from ..codegen.python import tstr
from ..runtime.state import State, diff
from .people import share_a_word
from .rejected import Rejected

if TYPE_CHECKING:
    from .sampler import Sampler

MAX_TRIES = 8  # candidate tools tried per step
# After step 1, the entries of other services (a lookup that starts a new thread) weigh together
# at most as much as this many entries do: a world of 448 services has 2,240, and weighed one by
# one they drowned the few tools that follow the walk's own keys. No bundled world has more than
# 38, so their walks are drawn as before.
NEW_THREAD_POOL = 48
FLOW_SHARE = 0.6  # of value parameters that take a compatible earlier value when there is one
FLOW_TYPES = ("date", "datetime", "email", "money")
STEER_SHARE = 0.75  # of walks steered towards a write a house rule protects (a chain that ends in it)


@attrs.define
class Step:
    tool: Tool
    # param → ("user", None): a fact the instruction states; ("step", (j, field or None)): from
    # step j's output (its result, or the element picked from its list result)
    sources: dict[str, tuple[str, Any]]
    pick: Any = None  # a list result: the key of the element the walk works on
    # how that element (or an entry's target row) is found: {"by": "description", "table", "fields"}
    # or {"by": "rank", "table", "field", "order": "max"}
    how: dict | None = None


def thread_count(links: list) -> int:
    """How many groups of steps a walk's data flow splits into: `links[k]` lists the earlier
    steps whose output step k takes an argument from; linked steps are one thread. A task of
    one thread is one chain of information; more are errands side by side."""
    group = list(range(len(links)))

    def root(k: int) -> int:
        while group[k] != k:
            group[k] = k = group[group[k]]
        return k

    for k, earlier in enumerate(links):
        for j in earlier:
            group[root(k)] = root(j)
    return len({root(k) for k in range(len(group))})


_STEP = re.compile(r"step (\d+)")


def threads(task: dict) -> int:
    """`thread_count` of a task record, from its `bindings` (an argument bound to "step N" or
    "step N.FIELD" links its step to step N)."""
    return thread_count([[int(m.group(1)) - 1 for source in args.values() if isinstance(source, str) for m in [_STEP.match(source)] if m] for args in task["bindings"]])


def _whole(record: dict) -> str:
    """A record as a comparable whole: two calls that give it with the same fields and values
    give an agent the same thing."""
    return repr(sorted(record.items()))


def _same_meaning(param: str, t: str, field: str | None) -> bool:
    """May a value of `field` flow into `param`? When they mean the same thing: the type is a
    nominal one (`Day`, shared by the services that agree on it), or an email address, or the
    names share a word (`new_folder` and `folder`). A client's joining date is a date, but not
    a pet's birth date."""
    if t.startswith("alias:") or t == "email" or field is None:
        return True
    return share_a_word(param, field)


class Walker:
    """The walk-growing stage of one world (shares the sampler's world, rules and draws)."""

    def __init__(self, s: Sampler):
        self.s = s
        self.people = s.people
        self.entries: list[Tool] = []  # reads called with a row's own values: where walks begin
        others: list[Tool] = []  # tools that take keys from earlier results, and writes from facts
        self._keys: dict[str, list[str]] = {}  # tool → the runtime types of its key parameters
        for t in s.tools:
            kinds = [self._param_kind(pt) for _, pt in t.params]
            self._keys[t.qualified] = [tstr(pt) for (_, pt), kind in zip(t.params, kinds) if kind == "key"]
            if "other" in kinds:
                continue  # list and record parameters: no person states those
            if "key" in kinds or (t.qualified in s.mutating and t.params):
                others.append(t)  # keys from earlier results, or a write from stated facts (add a contact)
            elif t.qualified not in s.mutating and self.people.describable(self.result_table(t) or ""):
                self.entries.append(t)
        self._entry_names = {t.qualified for t in self.entries}

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
        self._entries_of: dict[str, list[Tool]] = {}
        for t in self.entries:
            self._entries_of.setdefault(t.service, []).append(t)
        # the writes from stated facts that a value an earlier result gives can feed (a date, an
        # amount, an email address): after the first step they may come next only so fed, which
        # carries the value from one service into the next ("put that meeting on the calendar")
        self._by_flow: dict[str, list[Tool]] = {}
        for t in self._keyless_writes:
            for ft in dict.fromkeys(tstr(pt) for _, pt in t.params if s.world.types.base(tstr(pt)) in FLOW_TYPES):
                self._by_flow.setdefault(ft, []).append(t)
        self._by_key: dict[str, list[Tool]] = {}
        for t in self._walkable:
            for kt in set(self._keys[t.qualified]):
                self._by_key.setdefault(kt, []).append(t)
        self.chains = self._rule_chains()

    def _offers(self, t: Tool) -> set[str]:
        """The key types a tool's output offers later steps (its record's key and references)."""
        table = self.result_table(t)
        if table is not None:
            return {ft for f, ft in self.people.fields[table].items() if self.people.ref_table(ft) is not None}
        r = tstr(t.result) if not isinstance(t.result, (T.ListT, T.NoneT)) else ""
        return {r} if self.people.ref_table(r) is not None else set()

    def _rule_chains(self) -> list[list[str]]:
        """Chains of tools, entry first, that end in a write (an update, delete or insert) to a
        table a house rule reads: walks that a planted look-alike (lookalikes.py) or a value left
        to the rules (ruled.py) can make the rule decide. Each needed key comes from one read that offers it, itself an
        entry or fed by one. Sorted; at most one chain per (write, entry) pair."""
        s = self.s
        # the tables whose rows a rule keeps untouched or its invariants read: a write there can
        # break it (a table only a rule's conditions read, like the matters, cannot)
        protected = set().union(*[i["untouched"] | i["inv_tables"] for i in s.constraints if i["state"]]) if s.constraints else set()
        writers = [t for t in self._walkable if t.qualified in s.mutating and s.tables_written[t.qualified] & protected and self._keys[t.qualified]]
        reads = [t for t in self._walkable if t.qualified not in s.mutating]
        chains = []
        for goal in writers:
            needed = set(self._keys[goal.qualified])
            if len(needed) != 1:
                continue  # one key to find: the record the write changes
            (want,) = needed
            for mid in reads:
                if want not in self._offers(mid):
                    continue
                if self.is_entry(mid):
                    chains.append([mid.qualified, goal.qualified])
                    continue
                mid_needs = set(self._keys[mid.qualified])
                if len(mid_needs) != 1:
                    continue
                (up,) = mid_needs
                chains += [[e.qualified, mid.qualified, goal.qualified] for e in self.entries if up in self._offers(e)]
        # a look-alike of the entry's record, with copies of its rows, is what makes a rule bite:
        # keep the chains whose write changes rows that refer to the entry's record, if any do
        by_name = {t.qualified: t for t in self.entries}

        def refers(chain: list[str]) -> bool:
            entry = self.result_table(by_name[chain[0]])
            changed = s.tables_written[chain[-1]] & protected
            return any(self.people.ref_table(ft) == entry for x in changed for ft in self.people.fields.get(x, {}).values())

        near = [c for c in chains if refers(c)]
        return sorted(near or chains)

    def is_entry(self, tool: Tool) -> bool:
        return tool.qualified in self._entry_names

    def _param_kind(self, pt) -> str:
        if isinstance(pt, (T.ListT, T.RecordT)):
            return "other"
        return "key" if self.people.ref_table(tstr(pt)) is not None else "value"

    def result_table(self, tool: Tool) -> str | None:
        r = tool.result
        if isinstance(r, T.ListT):
            r = r.elem
        if isinstance(r, T.RecordT):
            return self.people.table_of_record(f"{r.service}.{r.name}")
        return None

    # ─────────────────────────── outputs ───────────────────────────

    def output(self, steps: list[Step], results: list, j: int) -> Any:
        """Step j's output: its result, or the element picked from its list result."""
        return self.element(steps[j], results[j])

    def element(self, step: Step, result: Any, pick: Any = None) -> Any:
        """What a step's call gives the steps after it: the result itself, or the element of the
        list result whose key is `pick` (the step's own pick by default; None if it is gone)."""
        pick = step.pick if pick is None else pick
        if pick is None or not isinstance(result, (list, tuple)):
            return result
        key = self.people.key[step.how["table"]]
        return next((e for e in result if e.get(key) == pick), None)

    def choose_like(self, step: Step, result: Any, ref: Any) -> Any:
        """The element of a list result picked the way the instruction says — the only largest
        by the ranked field, or the only one with the described fields of `ref` — or None."""
        if not isinstance(result, (list, tuple)) or step.how is None:
            return None
        how = step.how
        if how["by"] == "rank":
            if not result:
                return None
            top = max(e[how["field"]] for e in result)
            found = [e for e in result if e[how["field"]] == top]
        elif isinstance(ref, dict):
            found = [e for e in result if all(e[f] == ref[f] for f in how["fields"])]
        else:
            return None
        return found[0] if len(found) == 1 else None

    def picks_hold(self, state0: State, steps: list[Step], results: list) -> bool:
        """Does every pick still stand out in the results: a ranked one is still the only
        largest, a described one still the only element of its list that fits its description?"""
        for step, result in zip(steps, results):
            if step.pick is None or not isinstance(result, (list, tuple)):
                continue
            how, key = step.how, self.people.key[step.how["table"]]
            mine = self.element(step, result)
            if mine is None:
                return False
            if how["by"] == "rank":
                if sum(1 for e in result if e[how["field"]] >= mine[how["field"]]) != 1:
                    return False
            elif how.get("within") == "list":
                if sum(1 for e in result if all(e[f] == mine[f] for f in how["fields"])) != 1:
                    return False
        return True

    def handles(self, steps: list[Step], results: list) -> tuple[list[tuple[str, int, str | None, Any]], dict[tuple, set]]:
        """(runtime type, step, field, value) of every value earlier outputs offer, newest first;
        and, by (step, field) of a handle, the other fields that held its value later (`aka`)."""
        out = []
        for j in range(len(steps)):
            tool = steps[j].tool
            value = self.output(steps, results, j)
            if value is None:
                continue
            table = steps[j].how["table"] if steps[j].how else self.result_table(tool)
            if table is not None and isinstance(value, dict):
                vol = self.s.world.volatile_fields.get(table, frozenset())
                key = self.people.key[table]
                for f, ft in self.people.fields[table].items():
                    if f in vol or (value[f] in ("", None) and self.people.ref_table(ft) is not None):
                        continue  # a blank reference (no assignee yet) names no record
                    if f != key and value[f] == value.get(key) and ft == self.people.fields[table][key]:
                        continue  # a team lead is their own manager: the record offers itself as such
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

    # ─────────────────────────── growing ───────────────────────────

    def grow(self, rng: random.Random, seed: int, state0: State, hops: int, branch: bool = False):
        s = self.s
        steps: list[Step] = []
        results: list[Any] = []
        values: dict[tuple[int, str], Any] = {}
        state = state0
        tried = fallbacks = 0
        steer = random.Random(f"{seed}:steer")  # its own stream: walks not steered stay as they were
        chain = steer.choice([c for c in self.chains if len(c) <= hops]) if self.chains and steer.random() < STEER_SHARE and any(len(c) <= hops for c in self.chains) else []
        for k in range(hops):
            hs, aka = self.handles(steps, results)  # what the walk so far offers later steps
            cands = self._candidates(rng, k, hops, steps, hs, changing=branch and k == hops - 1, chain=chain)
            if not cands:
                raise Rejected("no_walk", f"no tool can follow step {k}")
            kept, set_aside, last_failure = None, None, ""
            # an earlier read that no step uses yet and that has nothing to report: the last
            # step must use it, or `reports` rejects the walk after all the work
            unreported = self._unreportable(state0, steps, results) if k == hops - 1 else set()
            held = {_whole(r) for result in results for r in (result if isinstance(result, (list, tuple)) else [result]) if isinstance(r, dict)}
            for tool in cands:
                s.deadline.check()
                tried += 1
                got = self._try(rng, seed, state0, state, steps, hs, tool, k, values, held, aka)
                if isinstance(got, str):
                    last_failure = f"step {k + 1} {tool.qualified}: {got}"
                    continue
                if unreported - {src[1][0] for src in got[0].sources.values() if src[0] == "step"}:
                    last_failure = f"step {k + 1} {tool.qualified}: leaves step {min(unreported) + 1}'s result unused and it has nothing to report"
                    continue
                if k == hops - 1 and tool.qualified not in s.mutating:
                    # a read the walk would end on is used by no later step: it must give
                    # something to report, or `reports` rejects the walk after all the work
                    # (a count of 0, an id): the next candidate is tried instead
                    try:
                        s.reportable(state0, got[0], self.element(got[0], got[3]), k)
                    except Rejected as e:
                        last_failure = f"step {k + 1} {tool.qualified}: {e.detail.split(': ', 1)[-1]}"
                        continue
                fallbacks += got[4]
                if branch and k == hops - 1 and set_aside is None and tool.qualified in s.mutating:
                    set_aside = got  # the branch not taken: another last step that runs here
                    continue
                kept = got
                break
            if kept is None and set_aside is not None:
                kept, set_aside = set_aside, None
            if set_aside is not None:
                s.alternative = (set_aside[0], {(k, n): v for n, v in set_aside[1].items()})
            if kept is None:
                raise Rejected("unsat", f"no tool can run as step {k + 1} ({len(cands)} tried; last: {last_failure})")
            step, chosen, post, result, _ = kept
            steps.append(step)
            results.append(result)
            values.update({(k, n): v for n, v in chosen.items()})
            state = post
        if hops >= 3 and len({st.tool.service for st in steps}) < 2:
            raise Rejected("no_walk", "the walk stays in one service")
        return steps, values, {"walk_satisfiable": {"result": "sat", "candidates_tried": tried, "z3_bindings": fallbacks}}

    def unused_reads(self, steps: list[Step]) -> list[int]:
        """The reads whose output no step uses (so far): each must give a report."""
        used = {src[1][0] for st in steps for src in st.sources.values() if src[0] == "step"}
        return [j for j, st in enumerate(steps) if st.tool.qualified not in self.s.mutating and j not in used]

    def _unreportable(self, state0: State, steps: list[Step], results: list) -> set[int]:
        """The reads no step uses yet whose output `Sampler.reportable` refuses."""
        out = set()
        for j in self.unused_reads(steps):
            try:
                self.s.reportable(state0, steps[j], self.output(steps, results, j), j)
            except Rejected:
                out.add(j)
        return out

    def _candidates(self, rng: random.Random, k: int, hops: int, steps: list[Step], hs: list, changing: bool, chain: list[str] = ()) -> list[Tool]:
        """The first `MAX_TRIES` tools that may come next, in a seeded weighted order: those whose
        every key parameter an earlier output offers (chains first), entries, and at step 1 writes
        from stated facts alone.

        The order is a weighted random permutation (each tool's sort key is -u^(1/w), u uniform,
        w its weight). Tools with keys are few at any step and get a draw each; the tools without
        keys are every entry of the world (thousands in a large one) and are drawn by pool
        instead (`_keyless_candidates`), so a step costs the same in a world of 10 services as
        in one of 448."""
        s = self.s
        used = {st.tool.qualified for st in steps}
        offered = {}
        for t, j, f, _ in hs:
            offered.setdefault(t, j)  # newest step offering each type
        found = {t.qualified: t for kt in offered for t in self._by_key.get(kt, ()) if all(x in offered for x in self._keys[t.qualified])}
        keyed = []
        for t in sorted(found.values(), key=lambda t: self._position[t.qualified]):
            w = self._weight(t, k, hops, steps, offered, used)
            if w is not None:
                keyed.append((-(rng.random() ** (1.0 / w)), t.qualified, t))
        keyed += self._keyless_candidates(rng, k, hops, steps, offered, used)
        if k > 0:
            keyed += self._fed_candidates(rng, k, hops, steps, hs, offered, used)
        if changing:
            keyed = [x for x in keyed if x[2].qualified in s.mutating] or keyed
        out = [t for _, _, t in heapq.nsmallest(MAX_TRIES, keyed, key=lambda x: (x[0], x[1]))]
        # the next tool of the chain the walk is steered along is tried first, however many tools
        # the world has (a weight would drown among hundreds); the others follow if it fails
        following = next((c for c in chain if c not in used), None)
        ahead = self._by_name.get(following) if following else None
        if ahead is not None and (ahead.qualified in found or not self._keys[ahead.qualified]) and self._weight(ahead, k, hops, steps, offered, used) is not None:
            if not changing or ahead.qualified in s.mutating or not any(x[2].qualified in s.mutating for x in keyed):
                out = [ahead] + [t for t in out if t is not ahead][: MAX_TRIES - 1]
        return out

    def _fed(self, t: Tool, hs: list, steps: list[Step]) -> list[tuple[str, list]]:
        """(parameter, the earlier outputs that may feed it) for each value parameter of `t` that
        a value on offer may flow into (`_same_meaning`)."""
        out = []
        for name, pt in t.params:
            ft = tstr(pt)
            if self.s.world.types.base(ft) in FLOW_TYPES:
                options = [(j, f, v) for ht, j, f, v in hs if ht == ft and _same_meaning(name, ft, f) and not self._described(steps, (j, f, v))]
                if options:
                    out.append((name, options))
        return out

    def _described(self, steps: list[Step], option: tuple) -> bool:
        """Is an earlier output's field one the instruction states, as part of the description that
        found its record? A value flowing from it needs no read ("the departure date of the trip
        with departure date 2025-03-18")."""
        j, f = option[0], option[1]
        return f is not None and f in ((steps[j].how or {}).get("fields") or ())

    def _fed_candidates(self, rng: random.Random, k: int, hops: int, steps: list[Step], hs: list, offered: dict, used: set[str]) -> list[tuple]:
        """Sort keys, with their tools, of the writes from stated facts that an earlier output can
        feed (`_by_flow`), each weighted as a step that continues the walk."""
        seen: dict[str, Tool] = {}
        for ft in offered:
            for t in self._by_flow.get(ft, ()):
                seen.setdefault(t.qualified, t)
        out = []
        for t in sorted(seen.values(), key=lambda t: self._position[t.qualified]):
            if t.qualified in used or not self._fed(t, hs, steps):
                continue
            w = self._weight(t, k, hops, steps, offered, used, fed=True)
            if w is not None:
                out.append((-(rng.random() ** (1.0 / w)), t.qualified, t))
        return out

    def _weight(self, t: Tool, k: int, hops: int, steps: list[Step], offered: dict, used: set[str], fed: bool = False) -> float | None:
        """A candidate's weight as step `k`, or None if it may not come next. `fed`: a write from
        stated facts that an earlier output's value feeds (`_fed_candidates`)."""
        s = self.s
        if t.qualified in used:
            return None
        keys = self._keys[t.qualified]
        mutating = t.qualified in s.mutating
        if not keys and mutating and k > 0 and not fed:
            return None  # a write from stated facts alone opens a walk, never continues one
        last = k == hops - 1
        if last and not any(st.tool.qualified in s.mutating for st in steps) and not mutating and hops > 1 and t.qualified in self._entry_names:
            return None  # a last step that reads must read about something the walk found
        if last and hops >= 3 and len({st.tool.service for st in steps}) == 1 and t.service == steps[0].tool.service:
            return None
        w = 1.0
        if keys and any(offered[kt] == len(steps) - 1 for kt in keys):
            w *= 4.0  # works on what the last step found: a chain, not a list of chores
        elif fed and any(offered.get(tstr(pt)) == len(steps) - 1 for _, pt in t.params):
            w *= 4.0  # carries on with a value the last step gave
        if mutating:
            w *= 2.0
        if steps and t.service != steps[-1].tool.service:
            w *= 2.0
        if k > 0 and t.qualified in self._entry_names:
            w *= 0.5
        return w

    def _keyless_candidates(self, rng: random.Random, k: int, hops: int, steps: list[Step], offered: dict, used: set[str]) -> list[tuple]:
        """The best `MAX_TRIES` sort keys, with their tools, of each pool of keyless tools that
        share one weight here: at step 1 the entries and the writes from stated facts; later the
        entries of the previous step's service and those of every other service (keyless writes
        only open a walk). Within a pool of n tools the m best keys are the m largest of n
        uniforms (drawn in order: u1 = U^(1/n), u(i+1) = u(i)·U^(1/(n-i))), on m tools drawn
        without replacement: the distribution of drawing one number per tool, at m draws. The
        other services' entries share the weight of at most `NEW_THREAD_POOL` entries."""
        prev = steps[-1].tool.service if steps else None
        if k == 0:
            pools = [(self.entries, self._entry_names, set()), (self._keyless_writes, self._keyless_write_names, set())]
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

    def _try(self, rng: random.Random, seed: int, state0: State, state: State, steps: list[Step], hs: list, tool: Tool, k: int, values: dict, held: set = frozenset(), aka: dict | None = None):
        """One candidate step: (Step, values of every argument, post-state, result, used Z3) or why
        not. A read whose output is a record an earlier call's result gave as it is (`held`, by
        `_whole`) is not taken: an agent has it already (reading the file the folder listing
        showed in full), so the step would be one no agent needs. `aka`: other names of the
        handles' values (`handles`)."""
        got = self._try_any(rng, seed, state0, state, steps, hs, tool, k, values, aka or {})
        if held and not isinstance(got, str) and tool.qualified not in self.s.mutating:
            out = self.element(got[0], got[3])
            if isinstance(out, dict) and _whole(out) in held:
                return "an earlier result gave its record already"
        return got

    def _try_any(self, rng: random.Random, seed: int, state0: State, state: State, steps: list[Step], hs: list, tool: Tool, k: int, values: dict, aka: dict):
        s = self.s
        if tool.qualified in self._entry_names:
            return self._try_entry(rng, state0, state, steps, tool, k)
        sources: dict[str, tuple[str, Any]] = {}
        given: dict[str, Any] = {}
        taken: set = set()
        for name, pt in tool.params:
            t = tstr(pt)
            kind = self._param_kind(pt)
            options = [(j, f, v) for ht, j, f, v in hs if ht == t and (j, f) not in taken]
            if kind == "key":
                if not options:
                    return "no earlier result holds a " + t
                # a record held in a field named like the parameter, if any (a new matter's
                # client is an old matter's client, not its lawyer); then the newest record
                # itself before the records it refers to (the employee, not their manager):
                # among one step's fields, its own key first
                own = self.people.key.get(self.people.ref_table(t) or "")
                like = [o for o in options if any(f != own and share_a_word(name, f) for f in {o[1]} | aka.get((o[0], o[1]), set()) if f is not None)]
                options = like or options
                options.sort(key=lambda o: (-o[0], o[1] != own))
                j, f, v = options[0] if rng.random() < 0.75 else rng.choice(options)
            elif (options := [o for o in options if _same_meaning(name, t, o[1]) and not self._described(steps, o)]) and s.world.types.base(t) in FLOW_TYPES and rng.random() < FLOW_SHARE:
                j, f, v = rng.choice(options)
            else:
                sources[name] = ("user", None)
                continue
            sources[name] = ("step", (j, f))
            given[name] = v
            taken.add((j, f))
        if k > 0 and not self._keys[tool.qualified] and not any(src[0] == "step" for src in sources.values()):
            # a write from stated facts comes after the first step only fed by an earlier output
            fed = [(n, [o for o in opts if (o[0], o[1]) not in taken]) for n, opts in self._fed(tool, hs, steps)]
            fed = [(n, opts) for n, opts in fed if opts]
            if not fed:
                return "no earlier result feeds it"
            name, options = rng.choice(fed)
            j, f, v = rng.choice(options)
            sources[name] = ("step", (j, f))
            given[name] = v
        step = Step(tool, sources)
        bound = s.bind_step(rng, seed, state0, state, steps, step, k, given)
        if isinstance(bound, str):
            return bound
        chosen, post, result, z3_used = bound
        if tool.qualified in s.mutating:
            d = diff(state, post)
            if not d.rows and not d.scalars:
                return "the call changes nothing"
            # a value the instruction itself asked for earlier, changed again: "prescribe 2 ml,
            # then change the dose": one of the two requests is pointless
            stated = {repr(v) for (j, name), v in values.items() if steps[j].tool.qualified in s.mutating and steps[j].sources[name][0] == "user"}
            for ch in d.rows:
                if ch.kind == "updated" and any(repr(state.tables[ch.table][ch.key][f]) in stated for f in ch.fields):
                    return "it changes again a value the instruction asks for"
                if ch.kind != "inserted" and ch.key not in state0.tables.get(ch.table, {}):
                    # "put a meeting on the calendar, then cancel the new meeting": a person asks
                    # for the record as it should end up (rows that refer to it are fine)
                    return "it changes a record the task itself creates"
        if tool.qualified not in s.mutating and isinstance(tool.result, T.ListT):
            known = {repr(v) for _, _, _, v in hs}  # a record the walk holds already is not found again
            picked = self._pick(rng, state0, tool, result, given, known)
            if picked is None:
                return "no element of the list can be told apart"
            step.pick, step.how = picked
        return step, {**given, **chosen}, post, result, z3_used

    def _try_entry(self, rng: random.Random, state0: State, state: State, steps: list[Step], tool: Tool, k: int):
        """An entry: choose a row the seeded state holds, call the read with that row's values."""
        s = self.s
        table = self.result_table(tool)
        s.ensure({table} | set(s.tool_tables[tool.qualified]), state0, state)
        keys = [key for key in state0.tables.get(table, {}) if key in state.tables.get(table, {})]
        if not keys:
            return "no row to look up"
        key = rng.choice(sorted(keys, key=repr))
        row = state.tables[table][key]
        args, used = {}, []
        for name, pt in tool.params:
            t = tstr(pt)
            fields = self.people.fields[table]
            same = [name] if fields.get(name) == t else [f for f, ft in fields.items() if ft == t and f != self.people.key[table]]
            if len(same) != 1:
                return f"no field of the row gives {name}"
            args[name] = row[same[0]]
            used.append(same[0])
        got = s.run_step(state0, state, tool, args, [])
        if isinstance(got, str):
            return got
        post, result = got
        fields = tuple(dict.fromkeys(self.people.known_by[table] + tuple(used)))
        how = {"by": "description", "table": table, "fields": list(fields)}
        pkey = self.people.key[table]
        if isinstance(result, (list, tuple)):
            if not any(e.get(pkey) == key for e in result):
                return "the row is not in the result"
            return Step(tool, {n: ("user", None) for n in args}, pick=key, how=how), args, post, result, 0
        if not isinstance(result, dict) or result.get(pkey) != key:
            return "the call gives another row"
        return Step(tool, {n: ("user", None) for n in args}, how={**how, "key": key}), args, post, result, 0

    def _pick(self, rng: random.Random, state0: State, tool: Tool, result: list, given: dict, known: set = frozenset()):
        """The element of a list result the walk goes on with: the latest or largest by a field
        when one stands out (the agent ranks what it sees), else one its description tells apart
        among the list — a description relative to the list ("the note by R. Castillo among the
        docket notes on ..."), leaving out what the call's own arguments already fix. Never a
        record whose key an earlier output holds (`known`, as reprs): finding the matter again
        among its lawyer's matters is a hop no agent needs."""
        table = self.result_table(tool)
        if table is None or not result:
            return None
        key = self.people.key[table]
        vol = self.s.world.volatile_fields.get(table, frozenset())
        ranked = []
        for f, ft in self.people.fields[table].items():
            if f == key or f in vol or self.s.world.types.base(ft) not in ("date", "datetime", "money", "int", "decimal"):
                continue
            top = max(e[f] for e in result)
            winners = [e for e in result if e[f] == top]
            if len(result) >= 2 and len(winners) == 1 and repr(winners[0][key]) not in known:
                ranked.append((f, winners[0][key]))
        if ranked and rng.random() < 0.6:
            f, k = rng.choice(ranked)
            return k, {"by": "rank", "table": table, "field": f, "order": "max"}
        fixed = {repr(v) for v in given.values()}
        fields = [f for f in self.people.known_by.get(table, ()) if repr(result[0][f]) not in fixed or len({repr(e[f]) for e in result}) > 1]
        options = []
        for e in result:
            if e[key] not in state0.tables.get(table, {}) or repr(e[key]) in known:
                continue  # only rows of the seeded state have a description a person knows
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
