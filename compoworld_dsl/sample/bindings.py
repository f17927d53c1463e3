"""User-given values for one candidate step: seeded draws of values the state holds, run on the
services, and Z3 only when every draw fails. It binds one step; it never grows or judges the walk."""

from __future__ import annotations

import itertools
import math
import random
import re
from fractions import Fraction
from typing import Any

import z3

from ..check import types as T
from ..check.model import Tool
from ..codegen.python import tstr
from ..runtime.state import State
from ..runtime.world import slug
from ..vocab import address_name, placeholder_members, prose_field, words
from ..smt.encode import EncodingUnsupported, assert_success, asserted, constraint_violated, fresh_context
from .attempt import Attempt
from .facts import WorldFacts
from .pools import date_range, ensure, held, held_split
from .rejected import Rejected
from .rules import relevant
from .runs import holds, run_step
from .solve import check, new_solver
from .steps import Step, placeholders
from .topics import fitting, not_about_another, profile_text, profiles_prose, prose, topic

DRAWS = 6  # seeded draws of user-given values per candidate step before Z3 is asked
FINITE_TRIES = 32  # combinations of enum/yes-no values run before Z3 is asked for them (`_no_finite_value`)
SIGNED = frozenset({"change", "delta", "adjustment", "difference"})  # int parameters that are a signed change
_NO_DRAW = object()  # a parameter type no draw covers
_NO_VALUE = object()  # no value a person would write: the candidate step fails
_LEFT = object()  # an optional text no field of its meaning holds: left at its default, unsaid
# draws of a new record's name, where its table's rows are known by that name alone, before the
# call is given up as having no new name left (`_fresh`): the first 8 are those every field's
# fresh value gets, so a name found in them is drawn as before
_NAME_TRIES = 48
_EMPTY_JSON = frozenset({"{}", "[]", "null"})
_AN_ADDRESS = re.compile(r"[^@\s\"]+@[^@\s\"]+\.[A-Za-z]{2,}")
_NUMBERED = re.compile(r"([a-z][a-z ]*) \d{1,3}")


def _numbered_words(value: str, name: str) -> bool:
    """Is `value` the words of the parameter `name` (or its last words) and a number: "edition
    39" for `edition`, "global referer 1" for `global_referer`, "line 4" for `address_line`?"""
    m = _NUMBERED.fullmatch(value)
    if m is None:
        return False
    said, got = words(name).removesuffix("s"), m.group(1).removesuffix("s")  # "data extra dimensions": "data extra dimension 7"
    return said == got or said.endswith(" " + got) or got.endswith(" " + said)


def bind_step(facts: WorldFacts, attempt: Attempt, rng: random.Random, seed: int, state0: State, state: State, steps: list[Step], step: Step, k: int, given: dict):
    """User-given values for one candidate step, run on the concrete state. Returns
    (values, post-state, result, used Z3) or, when nothing works, why (a string)."""
    tool = step.tool
    free = [(n, t) for n, t in tool.params if n not in given]
    written = facts.written(steps + [step])
    reads = set(facts.tool_tables[tool.qualified]).union(*[i["reads"] for i in facts.constraints if i["state"] and i["tables"] & written])
    ensure(facts, attempt, reads, state0, state)
    rules = relevant(facts, attempt, state0, steps + [step])
    # the records the call writes on (a note's ticket): stated texts fit them (`topics.fitting`);
    # worked out only where a text is drawn from prose (most calls state none), and from the
    # tables the walk has seeded already (seeding one here, mid-walk, left the states of the
    # earlier steps without it: legal_ops 16 hops, seed 7, 30 attempts gave 8 tasks, not 14)
    on = [(rt, given[n]) for n, pt in tool.params if n in given and (rt := facts.people.ref_table(tstr(pt))) is not None and rt in state.tables]
    known: list = []
    naming = _naming(facts, tool)  # a name is about no record ("Platform licence (per seat, yearly)")

    def about():
        if not known:
            known.append(topic(facts.people, state, on))
        return known[0]

    why = "no values tried"
    defaults = facts.world.tools[tool.qualified].defaults
    # a read says only the arguments its phrases name (`Phraser.gives`): one they do not name is
    # left at its default, or the task would hold a value its words never give (an imported
    # lyrics read called with `format "format 22"`, which no call the agent could make from the
    # instruction matched: blind play)
    unsaid = set() if tool.qualified in facts.mutating else {n for n, _ in free if n in defaults} - placeholders(tool)
    draws = DRAWS if free else 1
    profiles: list = []  # `_from_profile`, worked out at the first draw: every draw has the same
    own = _own_tables(facts, tool)  # once a step, not once a parameter a draw
    for d in range(draws):
        attempt.deadline.check()
        profiled = {**_fresh(facts, rng, state, tool, free, given), **_moved(facts, rng, state, tool, given, free), **_from_row(facts, rng, state, tool, given, free)}
        if not profiles:
            profiles.append(_from_profile(facts, state, tool, free, about))
        if profiles[0] is not None:
            pairs, options = profiles[0]
            pick = rng.choice(options)
            profiled.update({n: pick[f] for n, f in pairs})
        if (taken := next((n for n, v in profiled.items() if v is _NO_VALUE), None)) is not None:
            return f"no new name for {taken}: every name its table's seed draws is taken"
        chosen = dict(profiled)
        for n, t in free:
            if n in profiled:
                continue
            if n in unsaid:
                chosen[n] = defaults[n]
                continue
            v = _draw(facts, attempt, rng, state, t, n, prefer_state=d < DRAWS // 2, near=facts.tool_tables[tool.qualified], about=about if n not in naming else lambda: None, optional=defaults.get(n) == "", said=facts.said.get((tool.qualified, n), ()), own=own)
            if v is _NO_VALUE:
                return f"no sensible value for {n}"
            if v is _NO_DRAW:
                break
            v = _another_member(facts, rng, state, tool, given, n, t, v)
            chosen[n] = defaults[n] if v is _LEFT else v
        else:
            derived = _derived(facts, rng, state, tool, free, {**given, **chosen})
            chosen.update(derived)
            profiled = {**profiled, **derived}
            if (why := _named_as_found(facts, state, steps, tool, chosen)):
                continue
            got = run_step(facts, state0, state, tool, {**given, **chosen}, rules, attempt.deadline)
            if not isinstance(got, str):
                return (chosen, *got, 0)
            why = got
            continue
        break  # a type no draw covers: Z3 chooses
    if not free or _fails_whatever_the_user_gives(facts, tool, why, {n for n, _ in free}):
        return why
    # Text, ids and emails keep the last draw's values: a person writes only text the
    # world's data holds (`_sensible`), the draws have tried those, and Z3 answered with
    # filler ("A") for 9 in 10 such bindings on legal_ops, all thrown away. Z3 chooses the
    # numbers, dates, times and structured values.
    kinds = dict(tool.params)
    fixed = {n: v for n, v in chosen.items() if T.prim_name(kinds[n]) in ("text", "id", "email") or n in profiled or n in unsaid}
    if len(fixed) == len(free) or _fails_whatever_the_user_gives(facts, tool, why, {n for n, _ in free} - set(fixed)):
        return why
    # the draws did not fit: Z3 looks for values over the concrete state the walk reached,
    # keeping the invariants of the rule that refused the last draw (they cost terms). A rule
    # with no invariant over what the call writes (`untouched` rows) is not part of Z3's
    # question, so its answer would be refused again: 0 of 111 such bindings were of use
    # in 300 legal_ops attempts.
    refused_by = [i for i in rules if why.startswith(f"house rule {i['name']}:")]
    if refused_by and not any(i["inv_tables"] & facts.tables_written[tool.qualified] for i in refused_by):
        return why
    if _no_finite_value(facts, attempt, state0, state, tool, {**given, **fixed}, [(n, t) for n, t in free if n not in fixed], rules):
        return why
    try:
        near = {n: v for n, v in chosen.items() if n not in fixed and T.prim_name(kinds[n]) in ("int", "decimal", "money", "date", "time")}
        chosen, why = _z3_bind(facts, attempt, seed, state, tool, {**given, **fixed}, k, refused_by, near)
    except EncodingUnsupported as e:
        return f"unsupported: {e}"
    if chosen is None:
        return why
    for n, v in chosen.items():
        if not _sensible(facts, attempt, state, kinds[n], v):
            return f"Z3's value for {n} is not one a person would write"
    chosen = {n: {**fixed, **chosen}[n] for n, _ in free}  # in parameter order
    got = run_step(facts, state0, state, tool, {**given, **chosen}, rules, attempt.deadline)
    return got if isinstance(got, str) else (chosen, *got, 1)


def _naming(facts: WorldFacts, tool: Tool) -> set[str]:
    """The parameters a call puts into a field its record is known by (a title, a product's
    name): what names a record, not what a text says about one."""
    kb = facts.people.known_by
    return {n for n, (tb, f) in facts.insert_args.get(tool.qualified, {}).items() if f in kb.get(tb, ())} | {n for n, (tb, _, f) in facts.update_args.get(tool.qualified, {}).items() if f in kb.get(tb, ())}


def _named_as_found(facts: WorldFacts, state: State, steps: list[Step], tool: Tool, chosen: dict) -> str | None:
    """Why a new row's stated name would be that of a record an earlier step found in the same
    table, or None: "add a room "Atlas room" with the logging configuration identifiers of the
    room "Atlas room", then delete that room" named two rooms alike, and "that room" could be
    either (met in a task of shared values, D51). Another draw is tried. Other rows' names may
    repeat (a letter titled as another matter's letter), as the bundled worlds' tasks do."""
    kb = facts.people.known_by
    found = [(st.how["table"], st.pick) for st in steps if st.pick is not None and st.how and st.how.get("table")]
    for n, (table, f) in facts.insert_args.get(tool.qualified, {}).items():
        if n in chosen and f in kb.get(table, ()) and any(t == table and (state.tables.get(t, {}).get(key) or {}).get(f) == chosen[n] for t, key in found):
            return f"its {n} names a record an earlier step found"
    return None


def _from_profile(facts: WorldFacts, state: State, tool: Tool, free: list, about=lambda: None) -> tuple[list, list] | None:
    """((parameter, profile field) pairs, the profiles to draw from) for the values a new row's
    arguments take together, from one profile of the pool its table is seeded from (`rows from
    POOL`): a new matter's title and practice area from one profile, so "open a real estate
    matter "Trademark opposition"" is never asked (issue 29, item 2). Parameters match profile
    fields by name and type. A profile no row of the state holds yet is preferred (the request
    makes a new record), and one whose texts fit the records the call writes on (`about()`: a
    document filed under "Commercial lease renewal" is the draft lease, not the witness statement
    about missed shipments); None: each value is drawn on its own. A function of the state and
    the call: the draws of one candidate step each pick one of the same options."""
    kinds = dict(free)
    into = facts.insert_args.get(tool.qualified, {})
    for table in sorted(facts.inserts.get(tool.qualified, {})):
        profiles = facts.world.seeds.get(table, {}).get("profiles") or ()
        fields = facts.people.fields.get(table, {})
        pairs = [(n, f) for n, (tb, f) in into.items() if tb == table and n in kinds and profiles and f in profiles[0] and fields.get(f) == tstr(kinds[n])]
        if not pairs:
            continue
        rows = state.tables.get(table, {}).values()
        held_now = {tuple(r[f] for _, f in pairs) for r in rows}
        fresh = [p for p in profiles if tuple(p[f] for _, f in pairs) not in held_now]
        fit = about() if profiles_prose(profiles) else None  # (a person's name is about no record)
        # one that fits and no row holds, else one that fits, else one no row holds
        return pairs, fitting(fresh, profile_text, fit, strict=True) or fitting(list(profiles), profile_text, fit, strict=True) or fresh or list(profiles)
    return None


# the second word of a new record's name where the caller chooses its key ("channel-east")
NEW_NAMES = ("east", "west", "main", "backup", "staging", "archive", "primary", "spring", "pilot", "blue", "green", "north")


def _fresh(facts: WorldFacts, rng: random.Random, state: State, tool: Tool, free: list, given: dict | None = None) -> dict:
    """A new row's codes, drawn as its table's seed draws them and held by no row yet: a new
    price-list entry's supplier part number, not one another entry has ("HM-64743" twice under
    one supplier, met by an agent playing a 16-hop task); and its name where its table's rows are
    known by that name alone ("add a client "Summit client"" beside a Summit client, blind play);
    and its key where the caller chooses it ("channel-east": `WalkGraph.param_kind`).
    `CompiledWorld.fresh_value`. With `given` (the arguments bound already), a name its rows are
    known by with the record they belong to is new among that record's rows: two connection
    policy targets "Harbor connection policy target" of one policy were added (a fresh draw's
    Twilio task, stop 65)."""
    kinds = dict(free)
    given = given or {}
    by_field = {f: n for n, (_, f) in facts.insert_args.get(tool.qualified, {}).items()}
    optional = facts.world.tools[tool.qualified].defaults
    out = {}
    for n, (table, f) in sorted(facts.insert_args.get(tool.qualified, {}).items()):
        if n not in kinds or facts.people.fields.get(table, {}).get(f) != tstr(kinds[n]):
            continue
        if f == facts.people.key.get(table):
            # a key the caller chooses (`POST /channel/{ChannelName}`): a new name, held by no row
            rows = state.tables.get(table, {})
            options = [v for w in NEW_NAMES if (v := f"{slug(facts.people.noun.get(table, 'record'), '-')}-{w}") not in rows]
            if options:
                out[n] = rng.choice(options)
            continue
        held = None  # (made only for a field its seed draws fresh: most give None at once)
        # a name the rows are known by alone is new too (a client another client's name is a copy),
        # and so is one they are known by with their owner, among the owner's rows
        kb = tuple(facts.people.known_by.get(table, ()))
        scope = {g: given[by_field[g]] for g in kb[1:] if g in by_field and by_field[g] in given and facts.people.ref_table(facts.people.fields.get(table, {}).get(g, "")) is not None}
        named = kb == (f,) or bool(kb) and kb[0] == f and len(scope) == len(kb) - 1 > 0
        for _ in range(_NAME_TRIES if named else 8):
            v = facts.world.fresh_value(table, f, rng, name=named)
            if v is None or optional.get(n) == "" and isinstance(v, str) and _numbered_words(v, f):
                break  # an optional text the seed only numbers is left blank (`_draw`)
            if held is None:
                held = {r[f] for r in state.tables.get(table, {}).values() if all(r.get(g) == x for g, x in scope.items())}
            if v not in held:
                out[n] = v
                break
        else:
            if named:
                # every name the seed draws is taken: a new record named as an old one makes the
                # instruction's "that client "Orion client"" fit two records (an agent could
                # fairly take the new one for the old)
                out[n] = _NO_VALUE
    return out


def _another_member(facts: WorldFacts, rng: random.Random, state: State, tool: Tool, given: dict, n: str, t: T.Type, v: Any) -> Any:
    """An update's enum member other than the one the record holds, where the draw gave that one:
    "update the lifecycle policy with ... state enabled, ..., new state enabled" asked to set
    what the policy held (a blind round of stop 61). Only where the key the call names is given
    and the record is there; otherwise the draw as it was. Any other value the record holds
    already is left out where a blank argument keeps the field (`_LEFT`): "update the rescore
    execution plan "Cedar rescore execution plan" with ..., name "Cedar rescore execution plan""
    asked to rename it to its own name (a fresh draw's task, stop 65). And a new name of a
    record known by it alone is one no other record holds (`fresh_value`)."""
    b = T.base_of(t)
    upd = facts.update_args.get(tool.qualified, {}).get(n)
    if upd is None:
        return v
    table, key, f = upd
    row = state.tables.get(table, {}).get(given.get(key))
    if row is not None and isinstance(v, str) and tuple(facts.people.known_by.get(table, ())) == (f,):
        # a new name another record holds makes two records of one name ("update the site
        # "SI-2227" with site identifier "SI-3968"", a code the site "SI-3968" had: blind round 54)
        held = {r.get(f) for k, r in state.tables.get(table, {}).items() if k != given.get(key)}
        if v in held:
            for _ in range(_NAME_TRIES):
                w = facts.world.fresh_value(table, f, rng, name=True)
                if w is None:
                    break
                if w not in held and w != row.get(f):
                    return w
            return _LEFT if facts.world.tools[tool.qualified].defaults.get(n, None) == "" else v
    if row is None or row.get(f) != v:
        return v
    if not isinstance(b, T.EnumT):
        # (only a text left blank keeps the field: another default would set it)
        return _LEFT if facts.world.tools[tool.qualified].defaults.get(n, None) == "" else v
    none = placeholder_members(b.members)
    others = [m for m in b.members if m not in none and m != v]
    return rng.choice(others) if others else v


def _moved(facts: WorldFacts, rng: random.Random, state: State, tool: Tool, given: dict, free: list) -> dict:
    """A record's new email address where its seed derives the address from the record itself (a
    lead's, made from the name and the company's domain): the same person at another domain the
    table holds ("maria.lopez@globex.example" for "maria.lopez@acme.example"), never an address
    another record has, which the walk drew before (issue 29: an update set a lead's email to
    someone else's). {} where the record is not one the call's key names yet."""
    kinds = dict(free)
    out = {}
    for n, (table, key, f) in sorted(facts.update_args.get(tool.qualified, {}).items()):
        if n not in kinds or key not in given or facts.world.types.base(tstr(kinds[n])) != "email" or f not in facts.world.derived_fields(table):
            continue
        rows = state.tables.get(table, {})
        row = rows.get(given[key])
        if row is None or "@" not in str(row[f]):
            continue
        local, mine = str(row[f]).split("@", 1)
        held = {str(r[f]).lower() for r in rows.values()}
        domains = sorted({str(r[f]).split("@", 1)[1] for r in rows.values() if "@" in str(r[f])} - {mine})
        options = [f"{local}@{d}" for d in domains if f"{local}@{d}".lower() not in held]
        if options:
            out[n] = rng.choice(options)
    return out


def _from_row(facts: WorldFacts, rng: random.Random, state: State, tool: Tool, given: dict, free: list) -> dict:
    """The arguments a `require exists(x in t where x.f == p and x.g == q)` names a row by
    together, drawn from one row of `t` that holds the values already given (`facts.row_args`):
    the channel ID of a configuration of the team the walk carried, not any channel ID. Only text
    arguments are drawn so: a channel ID drawn on its own seldom fits, where an enum member or a
    key is one of few values the draws and Z3 try. {} where the tool has no such require, or no
    row holds the given values (the draws then go on as before, and the call fails or not on
    its own)."""
    kinds = dict(free)
    out: dict = {}
    for table, pairs in facts.row_args.get(tool.qualified, ()):
        # text only: a draw of an enum member or a key is tried, and Z3 asked, as before (the
        # bundled worlds' such requires are of those: their tasks stay as they were)
        todo = {n: f for n, f in pairs.items() if n in kinds and n not in out and T.prim_name(kinds[n]) == "text"}
        if not todo:
            continue
        known = {f: ({**given, **out})[n] for n, f in pairs.items() if n in given or n in out}
        rows = [r for _, r in sorted(state.tables.get(table, {}).items(), key=lambda kv: str(kv[0])) if all(r.get(f) == v for f, v in known.items())]
        if rows:
            pick = rng.choice(rows)
            out.update({n: pick[f] for n, f in todo.items()})
    return out


def _derived(facts: WorldFacts, rng: random.Random, state: State, tool: Tool, free: list, args: dict) -> dict:
    """Arguments a new row's seed would derive from its others (`same(...)`): a new lead's email
    made from the lead's name and company, as the table's seeded rows have theirs, instead of
    an address drawn from someone else's row (issue 29, item 2). Parameters match fields by name
    and type; the values derived from come from the call's arguments (by field name)."""
    kinds = dict(free)
    into = facts.insert_args.get(tool.qualified, {})
    out: dict = {}
    for table in sorted(facts.inserts.get(tool.qualified, {})):
        fields = facts.people.fields.get(table, {})
        got = facts.world.derive(table, {f: args[n] for n, (tb, f) in into.items() if tb == table and n in args}, state, rng)
        for n, (tb, f) in into.items():
            if tb == table and f in got and n in kinds and fields.get(f) == tstr(kinds[n]) and n not in out:
                out[n] = got[f]
    return out


def _no_finite_value(facts: WorldFacts, attempt: Attempt, state0: State, state: State, tool: Tool, args: dict, rest: list, rules: list[dict]) -> bool:
    """Do the parameters left to Z3 (`rest`) all take few values (enum members, yes/no), and
    does the call fail with every combination of them? Then Z3's answer, one of those, would
    fail too: it is not asked (a fresh context and an encoding, ~6 ms, for nothing: 14 of 111
    bindings in 300 legal_ops attempts). False when some value works (Z3 chooses, as
    before) or the domain is large."""
    domains = []
    for _, t in rest:
        b = T.base_of(t)
        domains.append(list(b.members) if isinstance(b, T.EnumT) else [False, True] if T.prim_name(t) == "bool" else None)
    if not rest or None in domains or math.prod(len(d) for d in domains) > FINITE_TRIES:
        return False
    for combo in itertools.product(*domains):
        attempt.deadline.check()
        got = run_step(facts, state0, state, tool, {**args, **{n: v for (n, _), v in zip(rest, combo)}}, rules, attempt.deadline)
        if not isinstance(got, str):
            return False
    return True


def _sensible(facts: WorldFacts, attempt: Attempt, state: State, t: T.Type, v: Any) -> bool:
    """Would a person write this value? Text and emails: one the world's data holds; numbers:
    positive and under a million; dates: within the seeded state's dates, give or take a year."""
    p = T.prim_name(t)
    if p in ("text", "email", "id"):
        return v in held(facts, attempt, state, tstr(t))
    if p in ("int", "decimal", "money"):
        return 0 < v < 1_000_000
    if p in ("date", "datetime"):
        # (a state of times only is read by its times: Z3 answered a run's start with the
        # epoch, "start time 1970-01-01T00:00", a fresh draw's Data Lineage task, stop 55)
        lo, hi = date_range(facts, state, times=True)
        day = v if p == "date" else v // 1440
        return lo is None or lo - 366 <= day <= hi + 366
    return True


def _fails_whatever_the_user_gives(facts: WorldFacts, tool: Tool, why: str, free: set[str]) -> bool:
    """Did a draw fail on a `require` whose condition reads none of the user-given parameters
    (directly or through `let`s)? Then every draw fails there or earlier — the state and the
    step-bound arguments are fixed — and Z3 need not be asked. The error message names the
    `require` (matched against each one's message template, in order)."""
    kind, _, message = why.partition(": ")
    matched = [deps for k, pattern, deps in facts.requires[tool.qualified] if k == kind and pattern.fullmatch(message)]
    return bool(matched) and all(not deps & free for deps in matched)


def _z3_bind(facts: WorldFacts, attempt: Attempt, seed: int, state: State, tool: Tool, given: dict, k: int, rules: list[dict] = (), near: dict | None = None) -> tuple[dict | None, str]:
    """Z3 finds user-given values with which the call succeeds on the concrete `state`, asked
    first for plausible ones: near the last draw's (`near`: half to twice a number, whole
    amounts, a month around a date, two hours around a time), else dates within the state's
    dates, numbers in 1..10000, times in office hours; and first for ones that keep the
    invariants of the house `rules` over the tables the call writes (a deadline that matches
    the newest docket note), judged from `state` on (the caller checks the rules from the
    task's start). Without the first tier Z3 answers with the edge of a range (a budget of
    0.50, a trip that ends the day it starts).

    This is the one place a Z3 model becomes part of a task, and Z3's models depend on every
    term its context has seen — even the shape of a simplified term does, since Z3 orders the
    arguments of `and`, `or` and `+` by term id. So the question is built in a fresh context
    (~4 ms), and a task's bytes do not depend on what the process built before."""
    with attempt.encoding():
        fresh_context()
        solver = new_solver(seed)
        sym = facts.enc.state_from(state, spare=facts.inserts[tool.qualified], deadline=attempt.deadline, python=True)
        args, user = {}, {}
        for name, t in tool.params:
            if name in given:
                args[name] = facts.enc.value(t, given[name], sym.python)
            else:
                v = facts.enc.var(t, f"s{k + 1}.{name}")
                solver.add(asserted(facts.enc.domain(t, v)))
                user[name] = args[name] = v
        tr = facts.enc.encode(tool, sym, args, attempt.deadline)
        named = assert_success(solver, tr, f"step {k + 1} ")
        written = facts.tables_written[tool.qualified]
        keep = [z3.Not(asserted(constraint_violated(facts.enc, i["decl"], i["svc"], i["name"], sym, tr.post, [], written, held_before=holds(facts, i, state), deadline=attempt.deadline))) for i in rules if i["inv_tables"] & written]
        plausible, close = [], []
        lo, hi = date_range(facts, state)
        for name, var in user.items():
            p = T.prim_name(dict(tool.params)[name])
            d = (near or {}).get(name)
            if p == "date" and lo is not None:
                plausible += [var >= lo, var <= hi]
            elif p in ("int", "decimal", "money"):
                plausible += [var >= 1, var <= 10000]
            elif p == "time":
                # office hours on the quarter hour, as a person books ("at 13:45", not "at 13:46")
                plausible += [var >= 8 * 60, var <= 18 * 60, var % 15 == 0]
            if d is None:
                continue
            if p == "date":
                close += [var >= d - 30, var <= d + 30]
            elif p == "time":
                close += [var >= d - 120, var <= d + 120]
            elif p in ("int", "decimal", "money") and d > 0:
                close += [var * 2 >= d, var <= d * 2]
                if p != "int":
                    close.append(z3.IsInt(var))  # whole amounts, as a person would ask
    res = z3.unknown
    for ask in ([*close, *plausible, *keep], [*plausible, *keep], keep, plausible):
        if ask and res != z3.sat:
            res = check(attempt, solver, *ask)
    if res != z3.sat:
        res = check(attempt, solver)
    if res == z3.unknown:
        raise Rejected("unknown", f"binding step {k + 1}: {solver.reason_unknown()}")
    if res == z3.unsat:
        core = [named[str(b)].label for b in solver.unsat_core() if str(b) in named]
        return None, "unsat: " + "; ".join(core[:2])
    model = solver.model()
    with attempt.encoding():
        return {n: facts.enc.concrete(dict(tool.params)[n], v, model) for n, v in user.items()}, ""


def _own_tables(facts: WorldFacts, tool: Tool) -> set[str]:
    """The tables whose values a write's free text is first drawn from (`_draw`'s `own`): for a
    call the world model only records (it writes no table a read shows), the tables of the
    records it acts on (a copied template is named as templates are, not as the log of copies).
    Empty for a read and for any other write: an answered read's arguments are the ones its answers were seeded with, in
    its service's tables (Open States' bill detail found none, asked with a bill's own
    `jurisdiction`)."""
    if tool.qualified not in facts.mutating:
        return set()
    written = facts.tables_written.get(tool.qualified, set())
    if not written or written & facts.walks.read_tables:
        # a write of records some read shows draws from its service's tables as before (a first
        # version drew from the written tables first, and moved the bundled worlds' draws for no
        # fault found in them)
        return set()
    return {rt for _, pt in tool.params if (rt := facts.people.ref_table(tstr(pt))) is not None}


def _draw(facts: WorldFacts, attempt: Attempt, rng: random.Random, state: State, t: T.Type, name: str, prefer_state: bool, near: set[str] | None = None, about=lambda: None, optional: bool = False, said: tuple = (), own: set[str] | None = None) -> Any:
    """One seeded value for a user-given parameter: a member of an enum; for ids, text and
    emails a value the state holds, by meaning: from fields of the parameter's name (those of
    the tool's own service first), or that end in its last word (`new_folder`: `folder`), else from the fields of that type in the
    tool's own service (`near`), and only then from any field of the type — a drug's name is
    not a pet's; for numbers, dates and times a plausible value, or one such a field holds
    (an `amount` like other amounts), dates otherwise within the range the tool's own
    service holds (a rescheduled visit near the visits, not near birth dates). Text fits the
    records the call writes on where the pool holds some that does (`about()`, `topics.fitting`):
    a comment on a webhook ticket about the webhook, not a refund (issue 29, item 2). An
    `optional` text (its default blank) that no field of its name or words holds is `_LEFT` at
    its default: the instruction does not ask for it (`Phraser.say`). `said`: the values a pool
    of the parameter's own gives (`facts.said_pools`), drawn where no field of its name holds
    any, before fields that end in its last word (a cancel's `step_ids` are no `subnet_ids`)."""
    b = T.base_of(t)
    if isinstance(b, T.EnumT):
        # a member that stands for no value is no value to ask for (`vocab.placeholder_members`)
        none = placeholder_members(b.members)
        return rng.choice([m for m in b.members if m not in none])
    p = T.prim_name(t)
    if p is None:
        return _NO_DRAW  # lists and records: Z3 chooses
    if p == "bool":
        return rng.random() < 0.5
    same, other = held_split(facts, attempt, state, tstr(t), name)
    if same and said and near and p in ("text", "email") and not optional and not held_split(facts, attempt, state, tstr(t), name, scope=near)[0]:
        # a pool of the parameter's own before another service's field of its name: Spotify's
        # playlists (created by a call the world model records on a user) were named "Atlas
        # album", an album's name (a fresh draw, stop 73)
        return rng.choice(said)
    if same and near:
        # a field of that name in the tool's own service first: a document is renamed to a
        # document's title, not to a matter's ("Wrongful dismissal claim")
        same = held_split(facts, attempt, state, tstr(t), name, scope=near)[0] or same
        if own and len(same) > 1:
            # and in the tables the call writes before the service's others: a copied template
            # was named "Riverside editor url", the `name` of an editor URL answer beside the
            # templates (an imported PDF Generator task, stop 69)
            same = held_split(facts, attempt, state, tstr(t), name, scope=own)[0] or same
    if not same and said and p in ("text", "email") and not optional:
        return rng.choice(said)
    if not same:
        same = held_split(facts, attempt, state, tstr(t), None, near=name)[0]  # a field ending in its last word (`new_folder`: `folder`)
    if same and p == "text":
        # an empty JSON value ("{}", "[]": tags or URLs no row has) is no value a person states
        # ("with tags "{}""): an optional one is left out, a required one drawn from the rest
        full = [v for v in same if str(v).strip() not in _EMPTY_JSON]
        same = full if full or optional else same
        if optional:
            # nor, for an optional one, a value that is only the field's words numbered, what an
            # import seeds a field it knows nothing of with ("with edition "edition 39", property
            # bag "property bag 6"", "global referer "global referer 1""): it says nothing a
            # person would ask for, and the argument may be left out
            same = [v for v in same if not _numbered_words(str(v), name)]
    if not same and optional and p == "text":
        # no field of its name or words holds a value: any other field's would be a value of
        # another meaning (a job created "with location "Atlas resource group"", "tags
        # "SI-7922"", two blind rounds met them), and the argument may be left out
        return _LEFT
    if not same and near:
        other = held(facts, attempt, state, tstr(t), scope=near) or other
    if not same and p == "text" and prose_field(name):
        # a comment's `text`, a `message`: a sentence the world holds, not a code of another
        # field (an imported task said 'add comment on a task with text "AI-4716"', an assignee's
        # id, round 16)
        other = [v for v in other if prose([v])] or other
    if p in ("text", "id", "email"):
        # only values a person would write: ones the world's data holds (its pools), never
        # made-up filler ("title 417"); the same field's values first
        pool = same if same and (prefer_state or rng.random() < 0.7) else (same or other)
        if p == "text" and prose(pool):
            pool = fitting(list(pool), str, about())
        elif p == "text" and pool is not same:
            # a label from fields of other names (a `tag` where no field is one): at least about
            # no other record, not a ticket's subject as a refund ticket's tag (issue 29)
            pool = not_about_another(list(pool), str, about())
        if p == "text" and address_name(name):
            # an address kept as text takes an address: LetMC's `create_landlord_login(email:
            # text)` was given "address3 29", another field's (a fresh draw, stop 73)
            pool = [v for v in pool if _AN_ADDRESS.fullmatch(str(v))]
        if not pool:
            return _NO_VALUE
        got = rng.choice(pool)
        if (got == "" or p == "text" and str(got).strip() in _EMPTY_JSON) and not optional:
            # a blank is no value a person states ("with status """: bunq's categories, a field
            # some rows leave blank), nor an empty JSON value from another field's ("with
            # relative record set name "{}"", Azure's private DNS). Drawn again only then, so
            # every other draw stays as it was
            full = [v for v in pool if v != "" and str(v).strip() not in _EMPTY_JSON]
            return rng.choice(full) if full else _NO_VALUE
        return got
    if same and (prefer_state or rng.random() < 0.5):
        return rng.choice(same)
    if p == "int":
        v = rng.randint(1, 100)
        # a signed change ("adjust the stock by -12 units") goes either way
        return -v if name in SIGNED and rng.random() < 0.5 else v
    if p in ("decimal", "money"):
        return Fraction(rng.randint(1, 10000))
    if p in ("date", "datetime"):
        lo, hi = date_range(facts, state, near) if near else (None, None)
        if lo is None:
            lo, hi = date_range(facts, state)
        day = rng.randint(lo, hi) if lo is not None else 20000 + rng.randrange(365)
        return day if p == "date" else day * 1440 + rng.randrange(32, 72) * 15
    if p == "time":
        return rng.randrange(32, 72) * 15  # 08:00 to 17:45
    if p == "duration":
        return rng.choice((15, 30, 60, 120, 1440, 2 * 1440, 7 * 1440, 14 * 1440))
    return _NO_DRAW
