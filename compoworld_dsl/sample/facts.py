"""The facts about one world that every attempt reads: tools, what each writes, house rules, value
fields by type, people, walk graph, Z3 encoding. Built once per world; never told about an attempt."""

from __future__ import annotations

import re
import attrs

from ..check import types as T
from ..check.model import Model, Tool
from ..codegen.python import tstr
from ..runtime.world import CompiledWorld
from ..smt.encode import WorldEncoding, tables_in
from ..syntax import ast as A
from .people import People
from .walkgraph import WalkGraph


@attrs.frozen(eq=False)
class WorldFacts:
    """What the stages know of a world (`facts`): computed by `world_facts`, read-only after."""

    model: Model
    world: CompiledWorld
    source: str
    enc: WorldEncoding  # the Z3 encoding: shared, so each call takes the attempt's deadline as an argument
    services: list[str]
    tools: list[Tool]  # the tools tasks are built from (not the simulated ones)
    mutating: set[str]  # tools that can change the state
    inserts: dict[str, dict[str, int]]  # tool → table → inserts a call runs
    insert_args: dict[str, dict[str, tuple[str, str]]]  # tool → parameter → (table, field) a new row takes it into
    # tool → the parameters that fill a new row's fields its seed derives or draws from one
    # profile (a new contact's address): never taken from another record (`Walker._try_any`)
    own_args: dict[str, frozenset[str]]
    own_updates: dict[str, frozenset[str]]  # an update's parameters that set such a field
    # tool → parameter → (qualified table, key parameter, field) of `update t[key] { field: param }`
    update_args: dict[str, dict[str, tuple[str, str, str]]]
    tables_written: dict[str, set[str]]  # tool → the tables it updates, deletes from or inserts into
    tables_modified: dict[str, set[str]]  # tool → the tables it updates or deletes from
    # tools an idempotency request can name: state-changing, called with keys and ids only
    idempotent_tools: list[tuple[str, Tool]]
    requires: dict[str, list[tuple[str, re.Pattern, set[str]]]]  # tool → its `require`s (`_require_deps`)
    # tool → (qualified table, parameter → field) of each `require exists(x in t where x.f == p and
    # x.g == q)` that names a row by two or more parameters together (`_row_args`)
    row_args: dict[str, list[tuple[str, dict[str, str]]]]
    # the tables a call of each tool can read or write: its service's (a tool body reads no
    # other service's state, E410)
    tool_tables: dict[str, set[str]]
    constraints: list[dict]  # every house rule, as `_constraint_info` describes it
    # names of the fields the house rules read (`m.status == closed`): look-alikes flip these,
    # and those the rules read on a known table first (`matters.matters`' status, not every status)
    rule_fields: set[str]
    rule_table_fields: set[tuple[str, str]]
    # table → fields, by runtime type, and the date fields: value pools read only these
    fields_of_type: dict[str, dict[str, list[str]]]
    date_fields: dict[str, list[str]]
    datetime_fields: dict[str, list[str]]  # (minutes; read where a state holds no date: `bindings._sensible`)
    people: People
    walks: WalkGraph  # where walks start and what may follow what
    # table → the fields each of its entries (a read by a row's own values: `find_matters(title)`)
    # is called with: a record whose description holds one of these can be found on its own
    finders: dict[str, list[tuple[str, ...]]] = attrs.field(factory=dict)
    # (tool, parameter) → the values a person gives it, from a pool named `<service>_<tool>_<param>`
    # (`said_pools`): drawn where no field of the parameter's name holds values
    said: dict[tuple[str, str], tuple] = attrs.field(factory=dict)

    def written(self, steps: list) -> set[str]:
        """The tables the walk's steps can write."""
        return set().union(*[self.tables_written[s.tool.qualified] for s in steps])

    def changing(self, steps: list) -> list:
        """The steps whose tools can change the state (the plan a state rule's proof is over)."""
        return [s for s in steps if s.tool.qualified in self.mutating]

    def rule_tables(self, name: str) -> set[str]:
        info = next((i for i in self.constraints if i["name"] == name), None)
        return info["tables"] if info else set()

    def rule_checks_tables(self, name: str) -> set[str]:
        """The tables a rule reads to decide (a closed matter), not the ones it only protects
        (`untouched` billing rows): where an agent looks to check it."""
        info = next((i for i in self.constraints if i["name"] == name), None)
        return info["reads"] - info["untouched"] if info else set()

    @property
    def world_name(self) -> str:
        return self.model.world.name if self.model.world else ""


def world_facts(model: Model, world: CompiledWorld, source: str) -> WorldFacts:
    """Everything per world that tasks share, computed once."""
    enc = WorldEncoding(model)
    services = model.world.services if model.world else list(model.services)
    tools = [t for s in services for t in model.services[s].tools.values() if not t.simulated]
    mutating = {t.qualified for t in tools if t.writes or t.inserts or t.deletes}
    tables_written = {t.qualified: _tables_changed(t, with_inserts=True) for t in tools}
    insert_args = {t.qualified: _insert_args(t) for t in tools}
    update_args = {t.qualified: _update_args(t) for t in tools}
    # the parameters that set a field the record's seed derives from the record itself (a new
    # lead's email, made from the name; a customer's changed email): never another record's
    # value (an update set a customer's address to a support agent's, issue 29)
    own_args = {q: frozenset(p for p, (table, f) in args.items() if f in world.derived_fields(table)) for q, args in insert_args.items()}
    own_updates = {q: frozenset(p for p, (table, _, f) in args.items() if f in world.derived_fields(table)) for q, args in update_args.items()}
    by_service: dict[str, set[str]] = {}
    for n, d in world.state_decl.items():
        if d["kind"] == "table":
            by_service.setdefault(n.split(".")[0], set()).add(n)
    constraints = _constraint_info(model, world, services)
    fields_of_type: dict[str, dict[str, list[str]]] = {}
    date_fields: dict[str, list[str]] = {}
    datetime_fields: dict[str, list[str]] = {}
    for table, decl in world.state_decl.items():
        if decl["kind"] != "table":
            continue
        for f, ft in world.types.records[decl["record"]].items():
            fields_of_type.setdefault(ft, {}).setdefault(table, []).append(f)
            if world.types.base(ft) == "date":
                date_fields.setdefault(table, []).append(f)
            elif world.types.base(ft) == "datetime":
                datetime_fields.setdefault(table, []).append(f)
    people = People(model, world)
    # the parameters that set a field a record is known by (a new client's name): no text of
    # another record flows into them (`WalkGraph.may_flow`: a new client named as an old one is
    # a copy, not a task)
    kb = people.known_by
    named_args = {q: frozenset(p for p, (table, f) in insert_args[q].items() if f in kb.get(table, ())) | frozenset(p for p, (table, _, f) in update_args[q].items() if f in kb.get(table, ())) for q in insert_args}
    # the parameters that give a new row its key, chosen by the caller (`POST /channel/{ChannelName}`:
    # a create under the key the caller chooses): a stated name, not a record an earlier step found
    chosen_keys = {t.qualified: frozenset(p for p, (table, f) in insert_args[t.qualified].items() if f == people.key.get(table) and tstr(dict(t.params)[p]) == people.fields[table][f]) for t in tools}
    walks = WalkGraph(tools, mutating, tables_written, constraints, people, world.types, own_args, named_args, chosen_keys)
    return WorldFacts(
        model=model,
        world=world,
        source=source,
        enc=enc,
        services=services,
        tools=tools,
        mutating=mutating,
        inserts={t.qualified: _insert_counts(t) for t in tools},
        insert_args=insert_args,
        own_args=own_args,
        own_updates=own_updates,
        update_args=update_args,
        tables_written=tables_written,
        tables_modified={t.qualified: _tables_changed(t, with_inserts=False) for t in tools},
        idempotent_tools=sorted((t.qualified, t) for t in tools if t.qualified in mutating and t.params and all(isinstance(pt, T.Alias) for _, pt in t.params)),
        requires={t.qualified: _require_deps(t) for t in tools},
        row_args={t.qualified: got for t in tools if (got := _row_args(t))},
        tool_tables={t.qualified: by_service.get(t.service, set()) for t in tools},
        constraints=constraints,
        rule_fields={n.name for info in constraints for n in A.walk(info["decl"]) if isinstance(n, A.Field)},
        rule_table_fields=set().union(*[fields_read(info["decl"], info["svc"]) for info in constraints]) if constraints else set(),
        fields_of_type=fields_of_type,
        date_fields=date_fields,
        datetime_fields=datetime_fields,
        people=people,
        walks=walks,
        finders=_finders(walks, people),
        said=said_pools(model, tools),
    )


def said_pools(model: Model, tools: list[Tool]) -> dict[tuple[str, str], tuple]:
    """(tool, parameter) → the text values of the pool named `<service>_<tool>_<parameter>`:
    what a person would give a parameter no field of the world holds (docs/sampling.md, "Values
    a person gives"). An import writes one for a recorded call's free text (`step_ids`), which
    was drawn from another field before ("step IDs "subnet-3011"")."""
    out = {}
    for t in tools:
        for n, _ in t.params:
            pool = model.pools.get(f"{t.service}_{t.name}_{n}")
            if pool is not None and not pool.profiles:
                vals = tuple(v.value for v in pool.values if isinstance(v, A.Literal) and isinstance(v.value, str) and v.kind == "string")
                if vals:
                    out[(t.qualified, n)] = vals
    return out


def _finders(walks: WalkGraph, people: People) -> dict[str, list[tuple[str, ...]]]:
    """Per table, the fields each entry with parameters takes its arguments from, as
    `Walker._try_entry` maps them (a parameter named like a field of its type, else the one field
    of its type): what a person must say of a record for an agent to find it without a path."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for t in walks.entries:
        table = walks.result_table(t)
        used = entry_fields(people, table, t) if table is not None else None
        if used:
            out.setdefault(table, []).append(tuple(dict.fromkeys(used.values())))
    return out


def entry_fields(people: People, table: str, tool: Tool) -> dict[str, str] | None:
    """Parameter → the field of `table` an entry takes its argument from, in parameter order:
    the field the tool's own body compares it with (`where a_.contents_text == text`,
    `filtered_fields`), else a field named like the parameter with its type, else the one field
    of its type. A parameter with a default that no field gives is left to its default (an
    answer that does not depend on `code_length`). None where a parameter without a default has
    no such field, or none has one."""
    fields = people.fields[table]
    compared = filtered_fields(tool)
    optional = {p.name for p in tool.decl.params if p.default is not None}
    used = {}
    for name, pt in tool.params:
        ft = tstr(pt)
        if fields.get(compared.get(name, "")) == ft:
            used[name] = compared[name]
            continue
        same = [name] if fields.get(name) == ft else [f for f, x in fields.items() if x == ft and f != people.key[table]]
        if len(same) == 1:
            used[name] = same[0]
        elif name not in optional:
            return None
    return used or None


def filtered_fields(tool: Tool) -> dict[str, str]:
    """Parameter → the field of the returned rows it must equal: from the `where` of the select
    the tool returns (`return earliest(a_ in answers where a_.text == text by a_.id)`), a
    conjunct `x.f == p` on the select's own variable, or `(p == "" or x.f == p)` (a filter the
    caller may leave out). A parameter compared with two fields maps to neither."""
    params = {p.name for p in tool.decl.params}
    ret = next((st.value for st in tool.decl.body if isinstance(st, A.Return)), None)
    if not isinstance(ret, A.Select) or ret.where is None:
        return {}
    found: dict[str, set[str]] = {}

    def conjuncts(e):
        if isinstance(e, A.Binary) and e.op == "and":
            yield from conjuncts(e.left)
            yield from conjuncts(e.right)
        elif isinstance(e, A.Binary) and e.op == "or" and isinstance(e.left, A.Binary) and e.left.op == "==" and isinstance(e.left.left, A.Var) and isinstance(e.left.right, A.Literal):
            yield e.right  # `(p == "" or x.f == p)`
        else:
            yield e

    for c in conjuncts(ret.where):
        if not (isinstance(c, A.Binary) and c.op == "=="):
            continue
        for a, b in ((c.left, c.right), (c.right, c.left)):
            if isinstance(a, A.Field) and isinstance(a.obj, A.Var) and a.obj.name == ret.var and isinstance(b, A.Var) and b.name in params:
                found.setdefault(b.name, set()).add(a.name)
    return {p: next(iter(fs)) for p, fs in found.items() if len(fs) == 1}


def _constraint_info(model: Model, world: CompiledWorld, services: list[str]) -> list[dict]:
    out = []
    decls = [(c.name, c, None) for c in (model.world.constraints if model.world else [])]
    for s in services:
        svc = model.services[s]
        decls += [(f"{s}.{c.name}", c, svc) for c in svc.constraints]
    for name, decl, svc in decls:
        tables = _tables_read(decl, svc, model)
        orders = [c for c in A.walk_clauses(decl.clauses) if isinstance(c, A.OrderClause)]
        state_clauses = any(not isinstance(c, A.OrderClause) for c in A.walk_clauses(decl.clauses))
        invariants = set().union(*[tables_in(model, c.expr, svc) for c in A.walk_clauses(decl.clauses) if isinstance(c, A.Invariant)])
        reads = {t for t in tables | invariants if world.state_decl.get(t, {}).get("kind") == "table"}
        kept = {".".join(c.table) if len(c.table) == 2 else f"{svc.name}.{c.table[0]}" for c in A.walk_clauses(decl.clauses) if isinstance(c, A.Untouched)}
        out.append({"name": name, "decl": decl, "svc": svc, "tables": tables, "inv_tables": invariants, "untouched": kept, "reads": reads, "orders": orders, "state": state_clauses})
    return out


def _tables_changed(tool: Tool, with_inserts: bool) -> set[str]:
    """Qualified tables a tool updates or deletes from (and, `with_inserts`, inserts into)."""
    out = {f"{tool.service}.{t}" for t, f in tool.writes if f} | {f"{tool.service}.{t}" for t in tool.deletes}
    return out | {f"{tool.service}.{t}" for t in tool.inserts} if with_inserts else out


def fields_read(decl: A.ConstraintDecl, svc) -> set[tuple[str, str]]:
    """(qualified table, field) a rule reads through a row it ranges over: `forall m in
    matters.matters where m.status == closed` reads (matters.matters, status); a short
    `untouched files.files where folder == ...` reads (files.files, folder)."""

    def qualified(path) -> str | None:
        if isinstance(path, tuple):
            return ".".join(path) if len(path) == 2 else (f"{svc.name}.{path[0]}" if svc else None)
        if isinstance(path, A.Field) and isinstance(path.obj, A.Var):
            return f"{path.obj.name}.{path.name}"
        if isinstance(path, A.Var) and svc is not None:
            return f"{svc.name}.{path.name}"
        return None

    rows: dict[str, str] = {}
    out: set[tuple[str, str]] = set()
    for n in A.walk(decl):
        if isinstance(n, A.ForallClause) and qualified(n.domain):
            rows[n.var] = qualified(n.domain)
        elif isinstance(n, A.Quant) and qualified(n.domain):
            rows[n.var] = qualified(n.domain)
        elif isinstance(n, A.Untouched):
            table = qualified(n.table)
            if n.var is not None and table:
                rows[n.var] = table
            elif table and n.where is not None:
                out |= {(table, v.name) for v in A.walk(n.where) if isinstance(v, A.Var)}
    for n in A.walk(decl):
        if isinstance(n, A.Field) and isinstance(n.obj, A.Var) and n.obj.name in rows:
            out.add((rows[n.obj.name], n.name))
    return out


def _tables_read(decl: A.ConstraintDecl, svc, model: Model) -> set[str]:
    """Qualified tables a constraint mentions (its `untouched`/`forall` tables and `svc.table` reads)."""
    out = set()
    for c in A.walk_clauses(decl.clauses):
        if isinstance(c, A.Untouched):
            out.add(".".join(c.table) if len(c.table) == 2 else f"{svc.name}.{c.table[0]}")
        elif isinstance(c, A.ForallClause):
            out.add(".".join(c.domain) if len(c.domain) == 2 else f"{svc.name}.{c.domain[0]}")
    return out | tables_in(model, decl, svc)


def _require_deps(tool: Tool) -> list[tuple[str, re.Pattern, set[str]]]:
    """(kind, message pattern, parameters the condition depends on) for each `require` of a
    tool, in order. Dependencies go through `let`s; a bound variable that shares a parameter's
    name counts as the parameter (an over-approximation, which only makes Z3 asked more often)."""
    from ..codegen.python import _template_pieces

    params = {n for n, _ in tool.params}
    lets: dict[str, set[str]] = {}

    def deps(node) -> set[str]:
        out: set[str] = set()
        for n in A.walk(node):
            if isinstance(n, A.Var):
                out |= lets.get(n.name, {n.name} & params)
        return out

    out = []
    for stmt in tool.decl.body:
        if isinstance(stmt, A.Let):
            lets[stmt.name] = deps(stmt.value)
        elif isinstance(stmt, A.Insert) and stmt.bind:
            lets[stmt.bind] = set().union(*[deps(f.value) for f in stmt.fields])
        elif isinstance(stmt, A.Require):
            pattern = "".join(re.escape(p) if isinstance(p, str) else ".*" for p in _template_pieces(stmt.message))
            out.append((stmt.kind, re.compile(pattern, re.S), deps(stmt.cond)))
    return out


def _row_args(tool: Tool) -> list[tuple[str, dict[str, str]]]:
    """(qualified table, parameter → field) for each `require exists(x in t where x.f == p and
    x.g == q ...)` of a tool that names a row by two or more of its parameters together: AWS
    Support App's channel configuration, known by its channel and its team (an imported write,
    `importers.world_model.require_named_answers`). Their values are drawn from one row
    (`bindings._from_row`): a channel ID drawn on its own seldom sits with the team given."""
    params = {n for n, _ in tool.params}
    out = []
    for stmt in tool.decl.body:
        q = stmt.cond if isinstance(stmt, A.Require) else None
        if not (isinstance(q, A.Quant) and q.kind == "exists" and isinstance(q.domain, A.Var) and q.where is not None):
            continue
        pairs: dict[str, str] = {}
        todo = [q.where]
        while todo:
            e = todo.pop()
            if isinstance(e, A.Binary) and e.op == "and":
                todo += [e.left, e.right]
            elif isinstance(e, A.Binary) and e.op == "==":
                for a, b in ((e.left, e.right), (e.right, e.left)):
                    if isinstance(a, A.Field) and isinstance(a.obj, A.Var) and a.obj.name == q.var and isinstance(b, A.Var) and b.name in params:
                        pairs[b.name] = a.name
        if len(pairs) >= 2:
            out.append((f"{tool.service}.{q.domain.name}", pairs))
    return out


def _insert_args(tool: Tool) -> dict[str, tuple[str, str]]:
    """Parameter → (qualified table, field) of each field a new row takes from one parameter
    (`insert contacts { email: address }`, `title: trim(title)`): how a request's arguments map
    onto the row it makes, whatever they are called."""
    params = {n for n, _ in tool.params}
    out: dict[str, tuple[str, str]] = {}
    for n in A.walk(tool.decl):
        if isinstance(n, A.Insert):
            for fi in n.fields:
                used = {v.name for v in A.walk(fi.value) if isinstance(v, A.Var) and v.name in params}
                if len(used) == 1:
                    out.setdefault(used.pop(), (f"{tool.service}.{n.table}", fi.name))
    return out


def _update_args(tool: Tool) -> dict[str, tuple[str, str, str]]:
    """Parameter → (qualified table, key parameter, field) of each field an update of one row by
    its key sets from one parameter (`update leads[id] { email: email }`, also `{ title:
    trim(title) }`: a rename sets the title it is given; and an imported patch's `{ location: if
    location == "" then t[k].location else location }`)."""
    params = {n for n, _ in tool.params}
    out: dict[str, tuple[str, str, str]] = {}
    for n in A.walk(tool.decl):
        if isinstance(n, A.Update) and isinstance(n.target, A.KeyTarget) and isinstance(n.target.key, A.Var) and n.target.key.name in params:
            for fi in n.fields:
                value = fi.value.args[0].value if isinstance(fi.value, A.Call) and fi.value.func == "trim" and len(fi.value.args) == 1 else fi.value
                if isinstance(value, A.Cond) and isinstance(value.test, A.Binary) and value.test.op == "==" and isinstance(value.else_, A.Var) and isinstance(value.test.left, A.Var) and value.test.left.name == value.else_.name:
                    value = value.else_  # a patch: `if p == "" then t[k].f else p` sets f to p
                if isinstance(value, A.Var) and value.name in params:
                    out.setdefault(value.name, (f"{tool.service}.{n.target.table}", n.target.key.name, fi.name))
    return out


def _insert_counts(tool: Tool) -> dict[str, int]:
    """Qualified table → how many `insert` statements one call of the tool runs (no statement
    repeats: the language has no loops)."""
    out: dict[str, int] = {}
    for n in A.walk(tool.decl):
        if isinstance(n, A.Insert):
            table = f"{tool.service}.{n.table}"
            out[table] = out.get(table, 0) + 1
    return out
