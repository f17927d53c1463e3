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

import random
from typing import Any

from ..check import types as T
from ..check.model import Tool
from ..codegen.python import tstr
from ..runtime.state import State, diff
from .attempt import Attempt
from .bindings import bind_step
from .facts import WorldFacts
from .people import share_a_word
from .pools import ensure
from .rejected import Rejected
from .reports import reportable
from .runs import run_step
from .steps import Step, element, output, result_table, thread_count, threads, unused_reads  # noqa: F401  (tests import the walk's names from here)
from .walkgraph import FLOW_TYPES, _same_meaning

FLOW_SHARE = 0.6  # of value parameters that take a compatible earlier value when there is one
STEER_SHARE = 0.75  # of walks steered towards a write a house rule protects (a chain that ends in it)


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

    def handles(self, steps: list[Step], results: list) -> tuple[list[tuple[str, int, str | None, Any]], dict[tuple, set]]:
        """(runtime type, step, field, value) of every value earlier outputs offer, newest first;
        and, by (step, field) of a handle, the other fields that held its value later (`aka`)."""
        out = []
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
        facts = self.facts
        steps: list[Step] = []
        results: list[Any] = []
        values: dict[tuple[int, str], Any] = {}
        state = state0
        tried = fallbacks = 0
        steer = random.Random(f"{seed}:steer")  # its own stream: walks not steered stay as they were
        chain = steer.choice([c for c in self.graph.chains if len(c) <= hops]) if self.graph.chains and steer.random() < STEER_SHARE and any(len(c) <= hops for c in self.graph.chains) else []
        for k in range(hops):
            hs, aka = self.handles(steps, results)  # what the walk so far offers later steps
            cands = self.graph.candidates(rng, k, hops, steps, hs, changing=branch and k == hops - 1, chain=chain)
            if not cands:
                raise Rejected("no_walk", f"no tool can follow step {k}")
            kept, set_aside, last_failure = None, None, ""
            # an earlier read that no step uses yet and that has nothing to report: the last
            # step must use it, or `reports` rejects the walk after all the work
            unreported = self._unreportable(state0, steps, results) if k == hops - 1 else set()
            held = {_whole(r) for result in results for r in (result if isinstance(result, (list, tuple)) else [result]) if isinstance(r, dict)}
            for tool in cands:
                self.attempt.deadline.check()
                tried += 1
                got = self._try(rng, seed, state0, state, steps, hs, tool, k, values, held, aka)
                if isinstance(got, str):
                    last_failure = f"step {k + 1} {tool.qualified}: {got}"
                    continue
                if unreported - {src[1][0] for src in got[0].sources.values() if src[0] == "step"}:
                    last_failure = f"step {k + 1} {tool.qualified}: leaves step {min(unreported) + 1}'s result unused and it has nothing to report"
                    continue
                if k == hops - 1 and tool.qualified not in facts.mutating:
                    # a read the walk would end on is used by no later step: it must give
                    # something to report, or `reports` rejects the walk after all the work
                    # (a count of 0, an id): the next candidate is tried instead
                    try:
                        reportable(self.facts, state0, got[0], element(self.people, got[0], got[3]), k)
                    except Rejected as e:
                        last_failure = f"step {k + 1} {tool.qualified}: {e.detail.split(': ', 1)[-1]}"
                        continue
                fallbacks += got[4]
                if branch and k == hops - 1 and set_aside is None and tool.qualified in facts.mutating:
                    set_aside = got  # the branch not taken: another last step that runs here
                    continue
                kept = got
                break
            if kept is None and set_aside is not None:
                kept, set_aside = set_aside, None
            if set_aside is not None:
                self.attempt.alternative = (set_aside[0], {(k, n): v for n, v in set_aside[1].items()})
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

    def _unreportable(self, state0: State, steps: list[Step], results: list) -> set[int]:
        """The reads no step uses yet whose output `reports.reportable` refuses."""
        out = set()
        for j in unused_reads(self.facts.mutating, steps):
            try:
                reportable(self.facts, state0, steps[j], output(self.people, steps, results, j), j)
            except Rejected:
                out.add(j)
        return out

    def _try(self, rng: random.Random, seed: int, state0: State, state: State, steps: list[Step], hs: list, tool: Tool, k: int, values: dict, held: set = frozenset(), aka: dict | None = None):
        """One candidate step: (Step, values of every argument, post-state, result, used Z3) or why
        not. A read whose output is a record an earlier call's result gave as it is (`held`, by
        `_whole`) is not taken: an agent has it already (reading the file the folder listing
        showed in full), so the step would be one no agent needs. `aka`: other names of the
        handles' values (`handles`)."""
        got = self._try_any(rng, seed, state0, state, steps, hs, tool, k, values, aka or {})
        if held and not isinstance(got, str) and tool.qualified not in self.facts.mutating:
            out = element(self.people, got[0], got[3])
            if isinstance(out, dict) and _whole(out) in held:
                return "an earlier result gave its record already"
        return got

    def _try_any(self, rng: random.Random, seed: int, state0: State, state: State, steps: list[Step], hs: list, tool: Tool, k: int, values: dict, aka: dict):
        facts = self.facts
        if self.graph.is_entry(tool):
            return self._try_entry(rng, state0, state, steps, tool, k)
        sources: dict[str, tuple[str, Any]] = {}
        given: dict[str, Any] = {}
        taken: set = set()
        for name, pt in tool.params:
            t = tstr(pt)
            kind = self.graph._param_kind(pt)
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
            elif (options := [o for o in options if _same_meaning(name, t, o[1]) and not self.graph.described(steps, o)]) and facts.world.types.base(t) in FLOW_TYPES and rng.random() < FLOW_SHARE:
                j, f, v = rng.choice(options)
            else:
                sources[name] = ("user", None)
                continue
            sources[name] = ("step", (j, f))
            given[name] = v
            taken.add((j, f))
        if k > 0 and not self.graph._keys[tool.qualified] and not any(src[0] == "step" for src in sources.values()):
            # a write from stated facts comes after the first step only fed by an earlier output
            fed = [(n, [o for o in opts if (o[0], o[1]) not in taken]) for n, opts in self.graph.fed(tool, hs, steps)]
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
            # a value the instruction itself asked for earlier, changed again: "prescribe 2 ml,
            # then change the dose": one of the two requests is pointless
            stated = {repr(v) for (j, name), v in values.items() if steps[j].tool.qualified in facts.mutating and steps[j].sources[name][0] == "user"}
            for ch in d.rows:
                if ch.kind == "updated" and any(repr(state.tables[ch.table][ch.key][f]) in stated for f in ch.fields):
                    return "it changes again a value the instruction asks for"
                if ch.kind != "inserted" and ch.key not in state0.tables.get(ch.table, {}):
                    # "put a meeting on the calendar, then cancel the new meeting": a person asks
                    # for the record as it should end up (rows that refer to it are fine)
                    return "it changes a record the task itself creates"
        if tool.qualified not in facts.mutating and isinstance(tool.result, T.ListT):
            known = {repr(v) for _, _, _, v in hs}  # a record the walk holds already is not found again
            picked = self._pick(rng, state0, tool, result, given, known)
            if picked is None:
                return "no element of the list can be told apart"
            step.pick, step.how = picked
        return step, {**given, **chosen}, post, result, z3_used

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
        args, used = {}, []
        for name, pt in tool.params:
            t = tstr(pt)
            fields = self.people.fields[table]
            same = [name] if fields.get(name) == t else [f for f, ft in fields.items() if ft == t and f != self.people.key[table]]
            if len(same) != 1:
                return f"no field of the row gives {name}"
            args[name] = row[same[0]]
            used.append(same[0])
        got = run_step(self.facts, state0, state, tool, args, [], self.attempt.deadline)
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
        table = result_table(self.people, tool)
        if table is None or not result:
            return None
        key = self.people.key[table]
        vol = self.facts.world.volatile_fields.get(table, frozenset())
        ranked = []
        for f, ft in self.people.fields[table].items():
            if f == key or f in vol or self.facts.world.types.base(ft) not in ("date", "datetime", "money", "int", "decimal"):
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
