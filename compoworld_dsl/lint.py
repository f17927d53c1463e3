"""`worldc lint`: what a world that checks clean can still get wrong for sampling.

- W101: a house rule that does not hold on the seeded state for some seeds. Every walk must
  keep the world's rules from the task's start, so where a rule is already broken every write
  it governs fails there: those tools quietly drop out of the tasks. Counted over `seeds` seeds.
- W102: a tool no walk can reach: it takes a list or record parameter (no person states one), or
  it needs a key (say a `PaymentId`) that no reachable tool's result holds, so no earlier step
  can give it. Simulated tools are never sampled (W103).
- W105: a `pick` from a pool whose name says it holds something else than the field it fills
  means (`drug_names` for a pet's name, `department_names` for a contact's name): the seeded
  rows then read as nonsense ("a pet named Cefalexin"), and so do the tasks built on them.
- W106: a table's record without `known by`: tasks name its rows by the first text field, or by
  their key ("the pet with id pet-3": an internal id no person uses), whatever that field means.
- W107: a read without `gives` that a walk uses: its result is "what you find when you ..." in
  the instruction (20 times in one veterinary world).
- W108: a tool without `say`: tasks ask for it by its name's words ("set pet weight pet ...").
  W106 to W108 are about the words of tasks, which `check` cannot see (issue 29).
- W104: a table whose rows a tool withdraws (`cancel_*`, `void_*`, `withdraw_*`, `retract_*`,
  `revoke_*`: one key argument, a field set to a constant) and that no tool deletes from, with no
  `retracted when`: an agent that makes such a row by mistake and cancels it fails the task's
  `no_collateral` check on the row it left (decision D31). A table no tool adds rows to is left
  alone: no agent makes one of its rows by mistake (a student who withdraws is an outcome).
- W110: a house rule no task can make decide its reward: no invariant (so no value is left to
  it), and what its condition reads is more than one reference away from the rows it protects
  (a registration's section's term), where no planted look-alike can vary it
  (`sample.rules.out_of_reach`).
- W109: a `ref ... where` (`where role == client`, `where department == same(course.department)`)
  that finds no row for some of the rows a seed draws: those rows are not made, so the table is
  smaller than its row count says (a department with no instructor has no class sections).
- W111: a seeded link record, known by references only (`record Invitation known by meeting,
  attendee`), whose seed makes two rows of the same references (a colleague invited twice to
  one meeting): no person can tell them apart; `rows distinct by` makes each pair once. Records
  with a text field of prose (a chat post, a ticket comment) are messages, told apart by what
  they say, and left alone.

Reads the compiled world and the sampler's walk structure (`sample.walkgraph.WalkGraph`); changes
nothing."""

from __future__ import annotations

import re

from .check.model import Model
from .check import types as T
from .check.types import TableT
from .diagnostics import Diagnostic
from .syntax import ast as A
from .sample.topics import prose
from .syntax.format import format_literal
from .runtime.service import ToolError
from .runtime.state import Tx

SEEDS = 20  # seeded states a rule is tried on by default


def lint(model: Model, source: str, seeds: int = SEEDS) -> list[Diagnostic]:
    from .codegen.python import load_world
    from .sample.sampler import Sampler

    world = load_world(model, source)
    sampler = Sampler(model, world, source)
    return _rules_on_seeds(model, world, seeds) + _unreachable(model, sampler) + _unretracted(model) + _pools_out_of_place(model) + _unphrased(model, sampler) + _unmatched_refs(model, world, seeds) + _repeated_links(model, world, seeds) + _rules_out_of_reach(sampler)


# What a value is about, by the words that name it (in a pool's name, a field's, a record's). A
# pool and a field that are each about something, and never about the same thing, disagree.
_MEANINGS = {
    "a person": {"person", "people", "contact", "employee", "colleague", "staff", "client", "customer", "owner", "lawyer", "attorney", "guest", "user", "member", "agent", "manager", "approver", "buyer", "author", "clerk", "rep", "recipient", "candidate", "vet", "assignee", "reporter", "requester", "deployer", "signer", "payee", "sender", "first", "last", "surname", "by", "who", "lead", "prescriber"},
    "an address": {"email", "mail", "mailbox", "domain", "inbox", "to", "cc", "address", "recipient", "sender"},
    "an animal": {"pet", "animal", "breed", "dog", "cat", "horse"},
    "a drug": {"drug", "medication", "medicine", "dose", "prescription"},
    "an organisation": {"company", "organisation", "organization", "department", "team", "supplier", "vendor", "bank", "firm", "brand", "merchant", "hotel", "warehouse", "account"},
    "a place": {"city", "country", "location", "destination", "zone", "room", "bin", "site", "region"},
}
_SHAPE_WORDS = {"name", "names", "list", "pool", "value", "values", "option", "options", "choice", "choices", "sample", "samples", "word", "words", "text", "texts", "full", "common", "some", "all", "other", "default", "id"}


def _words(text: str) -> set[str]:
    """`crm_lead_first_names` → {crm, lead, first}; `ContactId` → {contact}: lowercase words,
    plurals made singular, shape words dropped."""
    raw = re.findall(r"[a-z]+|[A-Z][a-z]*", text.replace("_", " "))
    out = set()
    for w in (r.lower() for r in raw):
        for plural, single in (("ies", "y"), ("xes", "x"), ("ches", "ch"), ("shes", "sh"), ("sses", "ss"), ("s", "")):
            if w.endswith(plural) and len(w) > len(plural) + 2 and not w.endswith("ss"):
                w = w[: -len(plural)] + single
                break
        if w not in _SHAPE_WORDS:
            out.add(w)
    return out


def _meanings(words: set[str]) -> set[str]:
    return {m for m, ws in _MEANINGS.items() if words & ws}


def _pools_out_of_place(model: Model) -> list[Diagnostic]:
    """W105: a `pick(POOL)` whose pool's name means one thing and whose field another: the
    field's meaning is its name's and its type's, or its record's for a field that is just the
    record's name."""
    out = []
    services = model.world.services if model.world else list(model.services)
    for s in services:
        svc = model.services[s]
        for seed in svc.seeds.values():
            var = svc.state.get(seed.name)
            if seed.rows is None or var is None or not isinstance(var.type, TableT):
                continue
            rec = var.type.record
            for f in seed.rows:
                own = _words(f.name)
                # a field called just `name` (or `full_name`) names its record: a pet's name is about a pet
                field = _meanings(own) | _meanings(_words(str(rec.fields.get(f.name, "")))) if own else _meanings(_words(rec.name) | _words(seed.name))
                for g in A.seed_parts(f.gen):
                    if not isinstance(g, A.GenPickPool):
                        continue
                    pool = _meanings(_words(g.pool))
                    if pool and field and not pool & field:
                        out.append(
                            Diagnostic(
                                "W105",
                                f"pool `{g.pool}` fills `{seed.name}.{f.name}`: the pool's name says it holds {' or '.join(sorted(pool))}, but the field is about {' or '.join(sorted(field))}",
                                g.span,
                                severity="warning",
                                help="pick from a pool of values that mean what the field means, or name the pool after what it holds",
                            )
                        )
    return out


WITHDRAWS = re.compile(r"^(cancel|void|withdraw|retract|revoke)(_|$)")


def _unretracted(model: Model) -> list[Diagnostic]:
    """W104: tables a withdrawing tool leaves rows in, with no `retracted when` to say so."""
    out = []
    services = model.world.services if model.world else list(model.services)
    for s in services:
        svc = model.services[s]
        deleted = {t for tool in svc.tools.values() for t in tool.deletes}
        inserted = {t for tool in svc.tools.values() for t in tool.inserts}
        for var in svc.state.values():
            if not isinstance(var.type, TableT) or var.retracted is not None or var.retracted_with is not None or var.name in deleted or var.name not in inserted:
                continue
            key = var.type.record.fields.get(var.type.record.key or "")
            for tool in svc.tools.values():
                if not WITHDRAWS.match(tool.name) or len(tool.params) != 1 or tool.params[0][1] != key:
                    continue
                marks = [
                    (f.name, f.value)
                    for stmt in tool.decl.body
                    if isinstance(stmt, A.Update) and isinstance(stmt.target, A.KeyTarget) and stmt.target.table == var.name
                    for f in stmt.fields
                    if isinstance(f.value, (A.Literal, A.Var))
                ]
                if not marks:
                    continue
                field, value = marks[0]
                shown = value.name if isinstance(value, A.Var) else format_literal(value)
                clause = f"retracted when {field}" if shown == "true" else f"retracted when {field} == {shown}"
                out.append(
                    Diagnostic(
                        "W104",
                        f"`{s}.{tool.name}` withdraws rows of `{var.name}`, which no tool deletes, but the table declares no retracted state: an agent that cancels its own mistaken row fails `no_collateral`",
                        var.span,
                        severity="warning",
                        help=f"write `state {var.name}: table[{var.type.record.name}] {clause}` if such a row counts as never made",
                    )
                )
                break
    return out


def _unmatched_refs(model: Model, world, seeds: int) -> list[Diagnostic]:
    """W109: filtered references (`ref T where ...`, not `unique`: a one-to-one reference stops
    by design) that found no row for some drawn rows, over `seeds` seeds."""
    filtered = {}
    services = model.world.services if model.world else list(model.services)
    for s in services:
        for seed in model.services[s].seeds.values():
            for f in seed.rows or ():
                if isinstance(f.gen, A.GenRef) and not f.gen.unique and (f.gen.where is not None or f.gen.matches is not None):
                    filtered[(f"{s}.{seed.name}", f.name)] = f
    if not filtered:
        return []
    lost: dict[tuple[str, str], list[int]] = {}
    for n in range(seeds):
        made = world.initial_state(n).tables
        for (table, field), count in world.rows_not_made(n).items():
            if (table, field) in filtered:
                got = lost.setdefault((table, field), [0, 0, n])
                got[0] += count
                got[1] += count + len(made.get(table, {}))
    out = []
    for (table, field), (count, drawn, first) in sorted(lost.items()):
        f = filtered[(table, field)]
        how = f"`{f.gen.matches[0]} == {'same(' + '.'.join(f.gen.matches[1].path) + ')'}`" if f.gen.matches else "its `where`"
        out.append(
            Diagnostic(
                "W109",
                f"seed of `{table}`: `{field}` found no row of `{'.'.join(f.gen.path)}` that fits {how} for {count} of {drawn} rows drawn over {seeds} seeds (first on seed {first}); those rows are not made",
                f.gen.span,
                severity="warning",
                help="seed the target so that every value the filter asks for has a row (more rows, or `rows from` a pool that covers them), or narrow what the filter reads",
            )
        )
    return out


def _repeated_links(model: Model, world, seeds: int) -> list[Diagnostic]:
    """W111: seeds of records known by references alone (`known by meeting, attendee`, each seeded
    by a plain `ref`) without `rows distinct by` that made two rows of the same references, over
    `seeds` seeds."""
    out = []
    states: list = []  # the seeded states, made once for every table that needs them
    services = model.world.services if model.world else list(model.services)
    for s in services:
        svc = model.services[s]
        decls = {m.name: m for m in svc.decl.members if isinstance(m, A.RecordDecl)}
        for seed in svc.seeds.values():
            var = svc.state.get(seed.name)
            if var is None or not isinstance(var.type, TableT) or seed.distinct:
                continue
            decl = decls.get(var.type.record.name)
            gens = {f.name: f.gen for f in seed.rows or ()}
            known = tuple(decl.known_by) if decl is not None else ()
            if not known or not all(isinstance(gens.get(k), A.GenRef) and not gens[k].unique for k in known):
                continue
            table = f"{s}.{seed.name}"
            texts = [f for f, ft in var.type.record.fields.items() if f not in known and T.prim_name(ft) == "text"]
            repeated = made = 0
            first = None
            if not states:
                states = [world.initial_state(n) for n in range(seeds)]
            for n, state in enumerate(states):
                rows = list(state.tables.get(table, {}).values())
                if any(prose(r.get(f) for r in rows) for f in texts):
                    break  # messages (a chat post, a ticket comment): told apart by what they say
                pairs = [tuple(repr(r.get(k)) for k in known) for r in rows]
                again = len(pairs) - len(set(pairs))
                repeated, made = repeated + again, made + len(pairs)
                if again and first is None:
                    first = n
            if repeated:
                out.append(
                    Diagnostic(
                        "W111",
                        f"seed of `{table}`: {repeated} of {made} rows over {seeds} seeds repeat the {', '.join(known)} of another row (first on seed {first}); no person can tell such rows apart",
                        seed.span,
                        severity="warning",
                        help=f"write `seed {seed.name}: ... rows distinct by {', '.join(known)} {{`, so that each is made once",
                    )
                )
    return out


def _rules_out_of_reach(sampler) -> list[Diagnostic]:
    """W110: house rules no task can make decide (`sample.rules.out_of_reach`)."""
    from .sample.rules import out_of_reach

    out = []
    for info in sampler.facts.constraints:
        why = out_of_reach(sampler.facts, info)
        if why is not None:
            out.append(Diagnostic("W110", f"house rule `{info['name']}` can decide no task: {why}", info["decl"].span, severity="warning", help="let the rule read a field of the rows it protects, of a record they refer to, or of a row that refers to one of those (a `term_closed` flag on the section, say); or accept that it never decides a task"))
    return out


def _unphrased(model: Model, sampler) -> list[Diagnostic]:
    """W106-W108: what a world leaves its tasks to say in fallback words."""
    from .codegen.python import tstr
    from .sample.steps import result_table

    out = []
    tools = sampler.walker._walkable
    walkable = {t.qualified for t in tools}
    people = sampler.people
    # the tables whose rows a task names: what a read returns, what a key argument refers to
    # (a log a tool only writes to, such as an imported API's table of calls, is never named)
    named = {result_table(people, t) for t in tools} | {people.ref_table(tstr(pt)) for t in tools for _, pt in t.params}
    services = model.world.services if model.world else list(model.services)
    for s in services:
        svc = model.services[s]
        decls = {m.name: m for m in svc.decl.members if isinstance(m, A.RecordDecl)}
        for var in svc.state.values():
            if not isinstance(var.type, TableT):
                continue
            rec = var.type.record
            decl = decls.get(rec.name)
            table = f"{s}.{var.name}"
            if decl is not None and not decl.known_by and table in named:
                shown = people.known_by.get(table, ())
                how = f"by their {', '.join(shown)}, whatever that field means" if shown else "by their key, an internal id no person uses"
                out.append(Diagnostic("W106", f"record `{rec.name}` (table `{table}`) has no `known by`: tasks name its rows {how}", decl.span, severity="warning", help=f"write `record {rec.name} known by FIELD {{` with the field a person names one by (a name, a title)"))
        for tool in svc.tools.values():
            if tool.simulated or tool.qualified not in walkable:
                continue
            if tool.decl.say is None:
                out.append(Diagnostic("W108", f"tool `{tool.qualified}` has no `say`: tasks ask for it as \"{tool.name.replace('_', ' ')} ...\"", tool.decl.span, severity="warning", help='write `say "..."` with how a person asks for it, naming the arguments in braces: say "close matter {matter}"'))
            if tool.qualified not in sampler.mutating and tool.decl.gives is None and not isinstance(tool.result, T.NoneT):
                out.append(Diagnostic("W107", f"read `{tool.qualified}` has no `gives`: tasks call what it returns \"what you find when you ...\"", tool.decl.span, severity="warning", help='write `gives "..."` with a noun phrase for its result: gives "the docket notes on {matter}"'))
    return out


def _rule_decls(model: Model):
    """(name the compiled world uses, declaration) of every constraint of the world."""
    out = [(c.name, c) for c in (model.world.constraints if model.world else [])]
    services = model.world.services if model.world else list(model.services)
    out += [(f"{s}.{c.name}", c) for s in services for c in model.services[s].constraints]
    return out


def _rules_on_seeds(model: Model, world, seeds: int) -> list[Diagnostic]:
    out = []
    for name, decl in _rule_decls(model):
        compiled = world.constraints.get(name)
        if compiled is None:
            continue
        broken: list[tuple[int, str]] = []
        for seed in range(seeds):
            st = world.initial_state(seed)
            try:
                _, invariants = compiled.check(Tx(st), Tx(st))
            except ToolError as e:
                broken.append((seed, e.message))
                continue
            failed = [label for label, holds in invariants if not holds]
            if failed:
                broken.append((seed, failed[0]))
        if broken:
            seed, why = broken[0]
            every = len(broken) == seeds
            out.append(
                Diagnostic(
                    "W101",
                    f"house rule `{name}` does not hold on the seeded state for {len(broken)} of {seeds} seeds (seed {seed}: {why})",
                    decl.span,
                    severity="warning",
                    notes=("walks keep the rules from the task's start, so on those seeds every write the rule governs fails, and those tools drop out of the tasks" + (" — on every seed here" if every else ""),),
                    help="make the seeds keep the rule (`same(...)`, narrower ranges, weights), or the rule hold on the data a real service starts with",
                )
            )
    return out


def _unreachable(model: Model, sampler) -> list[Diagnostic]:
    walker = sampler.walker
    offered: set[str] = set()
    reached: set[str] = set()
    changed = True
    walkable = walker._walkable
    while changed:  # a tool is reachable once every key it takes is offered by a reachable one
        changed = False
        for t in walkable:
            if t.qualified in reached:
                continue
            if walker.is_entry(t) or all(k in offered for k in walker._keys[t.qualified]):
                reached.add(t.qualified)
                offered |= walker._offers(t)
                changed = True
    walkable_names = {t.qualified for t in walkable}
    out = []
    services = model.world.services if model.world else list(model.services)
    for s in services:
        for tool in model.services[s].tools.values():
            q = tool.qualified
            if q in reached:
                continue
            if tool.simulated:
                why, code = "it is simulated: tasks are built from tools the services run", "W103"
            elif q not in walkable_names:
                code = "W102"
                if any(walker.param_kind(tool, n, pt) == "other" for n, pt in tool.params):
                    why = "it takes a list or record parameter, which no person states"
                elif q in sampler.mutating:
                    why = "it changes state but takes no parameter, so no task can ask for it about a record"
                else:
                    why = "it takes no key and returns no record a person can describe, and walks start only at reads of such records"
            else:
                missing = sorted((k.split(":")[1] if k.startswith("alias:") else k) for k in walker._keys[q] if k not in offered)
                why, code = f"it needs {', '.join(f'a `{m}`' for m in missing)} that no reachable tool's result holds", "W102"
            out.append(Diagnostic(code, f"no sampled task can call `{q}`: {why}", tool.decl.span, severity="warning"))
    return out
