"""Name resolution and type checking for a set of loaded modules; builds the typed model.
Collects every error (never stops at the first); it does not read files or generate code."""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Iterable

import attrs

from ..diagnostics import Diagnostic, Label, Span
from ..syntax import ast as A
from ..syntax.format import format_literal
from ..syntax.template import placeholders
from ..vocab import article
from . import types as T
from .closure import import_closure
from .model import Model, Service, StateVar, Tool, World
from .types import Alias, EnumRef, EnumT, ListT, Prim, RecordT, ServiceRef, TableT, Type, UNKNOWN

_LITERAL_TYPES = {
    "int": T.INT,
    "decimal": T.DECIMAL,
    "string": T.TEXT,
    "date": T.DATE,
    "time": T.TIME,
    "datetime": T.DATETIME,
    "bool": T.BOOL,
}

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


# Built-in functions: name → (argument kinds, result). A kind is a Type or one of the
# strings "text|list", "num", "any"; the result may be "same" (the first argument's type).
BUILTINS: dict[str, tuple[list, object]] = {
    "lower": ([T.TEXT], "same"),  # a `CompanyName` trimmed or lowered is still one
    "upper": ([T.TEXT], "same"),
    "trim": ([T.TEXT], "same"),
    "len": (["text|list"], T.INT),
    "starts_with": ([T.TEXT, T.TEXT], T.BOOL),
    "ends_with": ([T.TEXT, T.TEXT], T.BOOL),
    "str": (["any"], T.TEXT),
    "abs": (["num"], "same"),
    "days": ([T.INT], T.DURATION),
    "weeks": ([T.INT], T.DURATION),
    "hours": ([T.INT], T.DURATION),
    "minutes": ([T.INT], T.DURATION),
    "date": ([T.DATETIME], T.DATE),
    "days_between": ([T.DATE, T.DATE], T.INT),
    "year": ([T.DATE], T.INT),
    "month": ([T.DATE], T.INT),
    "day": ([T.DATE], T.INT),
    "format": (["variadic"], T.TEXT),
}

ERROR_KINDS = ("not_found", "invalid", "conflict", "forbidden")

# What seeding can do, checked here so that a world that checks clean also seeds (E607):
# every table is built in memory for each task, and `random.choices` takes weights as floats,
# which are exact only up to 2**53 and overflow past 10**308.
MAX_SEED_ROWS = 10_000  # rows one table seed may make
MAX_WEIGHT = 10**9  # the largest weight in `weighted(...)`


def _suggest(name: str, options: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(name, sorted(set(options)), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


# A did-you-mean hint over the names of the whole world (types, services, names in scope)
# costs time linear in the world; a broken file of a huge world asks for one at each of its
# errors, which made checking it quadratic. Past this many such hints, the rest go without.
LARGE_HINT_SET = 500
LARGE_HINT_BUDGET = 100


@attrs.define
class Scope:
    """Names visible to an expression. Copy-on-extend; never mutated after creation."""

    module: Path
    service: Service | None = None
    names: dict[str, Type] = attrs.field(factory=dict)
    row: RecordT | None = None  # short-form `untouched t where field == ...`
    in_tool: bool = False  # tool bodies may read only their own service's state

    def bind(self, name: str, t: Type) -> "Scope":
        return attrs.evolve(self, names={**self.names, name: t})


class Checker:
    def __init__(self, modules: list, all_modules: dict) -> None:
        self.modules = modules
        self.all_modules = all_modules
        self.model = Model()
        self.diagnostics: list[Diagnostic] = []
        # where each global name was declared: name → (module path, span)
        self.declared: dict[str, tuple[Path, Span]] = {}
        self.visible: dict[Path, set[Path]] = {}
        self.alias_decls: dict[str, tuple[A.TypeDecl, Path]] = {}
        # Indexes by name, filled as declarations are resolved, in the order of
        # `model.services` / `model.enums`: a lookup by name must not scan every service, or a
        # world of 10,000 services checks in quadratic time.
        self.record_owners: dict[str, list[Service]] = {}
        self.state_owners: dict[str, list[Service]] = {}
        self.tool_owners: dict[str, list[Tool]] = {}
        self.member_enums: dict[str, list[EnumT]] = {}
        self._known_types: tuple[int, list[str]] | None = None  # (records seen, names) for E102 hints
        self._large_hints_left = LARGE_HINT_BUDGET
        self._records_added = 0

    # ─────────────────────────── plumbing ───────────────────────────

    def error(self, code: str, message: str, span: Span, *, help: str | None = None, notes=(), labels=()) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, help=help, notes=tuple(notes), labels=tuple(labels)))

    def warn(self, code: str, message: str, span: Span, *, help: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, severity="warning", help=help))

    def _compute_visibility(self) -> None:
        for mod in self.modules:
            self.visible[mod.path] = set(import_closure(self.all_modules, mod.path))

    def _check_visible(self, name: str, module: Path, span: Span, kind: str = "name") -> None:
        where = self.declared.get(name)
        if where is None or where[0] in self.visible.get(module, {module}):
            return
        owner = self.all_modules[where[0]]
        self.error(
            "E101",
            f"{kind} `{name}` is declared in `{owner.display}`, which this file does not import",
            span,
            help="add `import` of that module at the top of this file",
        )

    def _declare(self, name: str, module: Path, span: Span, what: str) -> bool:
        if name in self.declared:
            first = self.declared[name]
            self.error(
                "E111",
                f"{what} `{name}` is defined twice",
                span,
                labels=(Label(first[1], "first defined here"),),
                help="rename one of them",
            )
            return False
        self.declared[name] = (module, span)
        return True

    def _hint(self, name: str, *collections: Iterable[str]) -> str | None:
        """`_suggest` over several collections of names, within the budget for large ones."""
        if sum(len(c) for c in collections) > LARGE_HINT_SET:  # type: ignore[arg-type]
            if self._large_hints_left <= 0:
                return None
            self._large_hints_left -= 1
        return _suggest(name, [o for c in collections for o in c])

    def _record(self, expr: A.Expr, t: Type) -> Type:
        self.model.expr_types[id(expr)] = t
        return t

    # ─────────────────────────── driver ───────────────────────────

    def run(self) -> Model:
        self._compute_visibility()
        self._collect()
        self._resolve_aliases()
        self._resolve_records_and_state()
        self._resolve_pools()
        for mod in self.modules:
            for item in mod.ast.items:
                if isinstance(item, A.ServiceDecl) and item.name in self.model.services:
                    svc = self.model.services[item.name]
                    if svc.decl is item:
                        self._check_service(svc, mod.path)
        self._check_worlds()
        self._check_top_constraints()
        return self.model

    def _collect(self) -> None:
        for mod in self.modules:
            for item in mod.ast.items:
                if isinstance(item, A.TypeDecl):
                    if item.name in T.PRIMITIVES:
                        self.error("E111", f"type `{item.name}` is a built-in type and cannot be redefined", item.span)
                    elif self._declare(item.name, mod.path, item.span, "type"):
                        self.alias_decls[item.name] = (item, mod.path)
                elif isinstance(item, A.EnumDecl):
                    if item.name in T.PRIMITIVES:
                        self.error("E111", f"enum `{item.name}` has the name of a built-in type", item.span, help="pick another name")
                    elif self._declare(item.name, mod.path, item.span, "enum"):
                        seen: dict[str, A.EnumMember] = {}
                        for m in item.members:
                            if m.name in seen:
                                self.error("E305", f"enum `{item.name}` lists `{m.name}` twice", m.span)
                            seen[m.name] = m
                        enum = EnumT(item.name, tuple(seen))
                        self.model.enums[item.name] = enum
                        for member in enum.members:
                            self.member_enums.setdefault(member, []).append(enum)
                elif isinstance(item, A.PoolDecl):
                    if self._declare(item.name, mod.path, item.span, "pool"):
                        self.model.pools[item.name] = item
                elif isinstance(item, A.ServiceDecl):
                    if self._declare(item.name, mod.path, item.span, "service"):
                        self.model.services[item.name] = Service(item.name, item.description, item, str(mod.path))
                elif isinstance(item, A.WorldDecl):
                    if self.model.worlds:
                        first = self.model.worlds[0]
                        self.error(
                            "E503",
                            f"world `{item.name}` is declared, but world `{first.name}` is already in this program",
                            item.span,
                            labels=(Label(first.decl.span, "first world"),),
                            help="check each world file on its own; a world file must not import another",
                        )
                    else:
                        self.model.worlds.append(World(item.name, item.description, item, str(mod.path)))

    # ─────────────────────────── types ───────────────────────────

    def _resolve_aliases(self) -> None:
        resolving: set[str] = set()
        record_names = {r.name for r in decl_records(self.modules)}  # once, not once per alias

        def resolve(name: str) -> Alias | None:
            if name in self.model.aliases:
                return self.model.aliases[name]
            decl, path = self.alias_decls[name]
            if name in resolving:
                self.error("E306", f"type `{name}` is defined in terms of itself", decl.span)
                return None
            resolving.add(name)
            if isinstance(decl.type, A.NamedType) and decl.type.path[-1] in record_names:
                self.error("E102", f"`type {name}` names record `{decl.type.name}`; aliases name built-in types or other aliases", decl.type.span, help="use the record's name directly")
                base = UNKNOWN
                resolving.discard(name)
                alias = Alias(name, base)
                self.model.aliases[name] = alias
                return alias
            base = self.resolve_type(decl.type, path, None, alias_resolver=resolve)
            resolving.discard(name)
            if base is None:
                base = UNKNOWN
            alias = Alias(name, base)
            self.model.aliases[name] = alias
            return alias

        for name in list(self.alias_decls):
            resolve(name)

    def resolve_type(self, te: A.TypeExpr, module: Path, service: Service | None, alias_resolver=None) -> Type:
        if isinstance(te, A.ListType):
            return ListT(self.resolve_type(te.elem, module, service, alias_resolver))
        if isinstance(te, A.TableType):
            inner = self.resolve_type(te.elem, module, service, alias_resolver)
            if isinstance(inner, RecordT):
                return TableT(inner)
            if not isinstance(inner, T.UnknownT):
                self.error("E304", f"a table holds records, but `{inner}` is not a record", te.span, help="declare a `record` and use `table[Record]`")
            return UNKNOWN
        path = te.path
        name = path[-1]
        if len(path) == 1:
            if name in T.PRIMITIVES:
                return Prim(name)
            if name in self.alias_decls:
                self._check_visible(name, module, te.span, "type")
                if alias_resolver is not None:
                    return alias_resolver(name) or UNKNOWN
                return self.model.aliases.get(name, UNKNOWN)
            if name in self.model.enums:
                self._check_visible(name, module, te.span, "enum")
                return self.model.enums[name]
            if service is not None and name in service.records:
                return service.records[name]
            owners = self.record_owners.get(name, [])
            if len(owners) == 1:
                self._check_visible(owners[0].name, module, te.span, "service")
                return owners[0].records[name]
            if len(owners) > 1:
                self.error(
                    "E102",
                    f"record `{name}` is declared in several services",
                    te.span,
                    help="qualify it: " + " or ".join(f"`{s.name}.{name}`" for s in owners),
                )
                return UNKNOWN
        elif len(path) == 2 and path[0] in self.model.services:
            svc = self.model.services[path[0]]
            if name in svc.records:
                self._check_visible(svc.name, module, te.span, "service")
                return svc.records[name]
        self.error("E102", f"unknown type `{'.'.join(path)}`", te.span, help=self._hint(name, self._type_names()))
        return UNKNOWN

    def _type_names(self) -> list[str]:
        """Every type name, for a did-you-mean hint; rebuilt only when records were added since."""
        n = self._records_added
        if self._known_types is None or self._known_types[0] != n:
            names = list(T.PRIMITIVES) + list(self.alias_decls) + list(self.model.enums)
            names += [r for s in self.model.services.values() for r in s.records]
            self._known_types = (n, names)
        return self._known_types[1]

    def _resolve_records_and_state(self) -> None:
        # records first (all services), so fields and state may refer to any record
        for svc in self.model.services.values():
            for m in svc.decl.members:
                if isinstance(m, A.RecordDecl):
                    if m.name in svc.records:
                        self.error("E111", f"record `{m.name}` is defined twice in service `{svc.name}`", m.span)
                        continue
                    if m.name in T.PRIMITIVES or m.name in self.alias_decls or m.name in self.model.enums:
                        self.error("E111", f"record `{m.name}` has the name of another type", m.span, help="pick another name")
                        continue
                    rec = RecordT(m.name, svc.name)
                    svc.records[m.name] = rec
                    self.record_owners.setdefault(m.name, []).append(svc)
                    self._records_added += 1
        for svc in self.model.services.values():
            module = Path(svc.module)
            for m in svc.decl.members:
                if isinstance(m, A.RecordDecl) and svc.records.get(m.name) is not None:
                    self._resolve_record(svc, m, module)
            for m in svc.decl.members:
                if isinstance(m, A.StateDecl):
                    self._resolve_state(svc, m, module)
        withs = []
        for svc in self.model.services.values():  # every record resolved: a table may hold another service's
            for m in svc.decl.members:
                if isinstance(m, A.StateDecl) and m.retracted is not None and svc.state.get(m.name) is not None:
                    if m.retracted.with_parent:
                        withs.append((svc, svc.state[m.name], m.retracted))
                    else:
                        self._resolve_retraction(svc.state[m.name], m.retracted)
        for svc, var, r in withs:  # after every `when`: a parent is withdrawn by one, in the end
            self._resolve_retraction_with(svc, var, r)
        self._retraction_cycles(withs)

    def _resolve_record(self, svc: Service, decl: A.RecordDecl, module: Path) -> None:
        rec = svc.records[decl.name]
        if rec.fields:
            return  # a duplicate declaration already reported
        keys = [f for f in decl.fields if f.is_key]
        for f in decl.fields:
            if f.name in rec.fields:
                self.error("E111", f"record `{decl.name}` has two fields named `{f.name}`", f.span)
                continue
            ft = self.resolve_type(f.type, module, svc)
            if isinstance(ft, (RecordT, TableT)):
                self.error("E201", f"field `{f.name}` has type `{ft}`; fields hold values, not records or tables", f.type.span, help="store the other record's key instead")
                ft = UNKNOWN
            rec.fields[f.name] = ft
            if f.default is not None:
                self._check_const(f.default, ft, f"the default of `{decl.name}.{f.name}`", code="E307")
                rec.defaults[f.name] = f.default
        seen: set[str] = set()
        for name in decl.known_by:
            if name not in rec.fields:
                self.error("E103", f"record `{decl.name}` is known by `{name}`, which is not one of its fields", decl.span, help="list fields of the record after `known by`")
            elif name in seen:
                self.error("E111", f"record `{decl.name}` lists `{name}` twice after `known by`", decl.span)
            seen.add(name)
        if len(keys) > 1:
            self.error("E302", f"record `{decl.name}` declares {len(keys)} key fields", keys[1].span, help="keep one `key` field")
        if keys:
            k = keys[0]
            rec.key = k.name
            kt = rec.fields.get(k.name, UNKNOWN)
            if not isinstance(kt, T.UnknownT) and T.prim_name(kt) not in T.KEYABLE:
                self.error("E303", f"key `{k.name}` has type `{kt}`, which cannot be a key", k.span, help="keys are id, text, int or email, or a `type` alias of one")

    def _resolve_state(self, svc: Service, decl: A.StateDecl, module: Path) -> None:
        if decl.name in svc.state:
            self.error("E111", f"state `{decl.name}` is defined twice in service `{svc.name}`", decl.span)
            return
        st = self.resolve_type(decl.type, module, svc)
        if isinstance(st, TableT) and st.record.key is None:
            self.error(
                "E301",
                f"table `{decl.name}` holds `{st.record.name}` records, which have no key",
                decl.span,
                help=f"mark one field of `{st.record.name}` with `key`",
            )
        if isinstance(st, RecordT):
            self.error("E201", f"state `{decl.name}` holds a single record; state holds tables and scalar values", decl.type.span, help=f"use `table[{st.name}]`")
            st = UNKNOWN
        if decl.default is not None:
            if isinstance(st, TableT):
                self.error("E307", f"table `{decl.name}` cannot have a default value", decl.default.span, help="give it a `seed` instead")
            else:
                self._check_const(decl.default, st, f"the default of `{decl.name}`", code="E307")
        svc.state[decl.name] = StateVar(decl.name, st, decl.default, decl.span)
        self.state_owners.setdefault(decl.name, []).append(svc)

    def _retraction_field(self, var: StateVar, r: A.Retraction) -> tuple[RecordT, Type] | None:
        """The record of the table a retraction clause is on and the type of the field it names,
        or None after an error (E308; an unresolved record or type was reported already)."""
        if not isinstance(var.type, TableT):
            if not isinstance(var.type, T.UnknownT):
                self.error("E308", f"`{var.name}` is not a table: only a table's rows can be retracted", r.span)
            return None
        rec = var.type.record
        ft = rec.fields.get(r.field)
        if ft is None:
            if rec.fields:
                self.error("E308", f"record `{rec.name}` has no field `{r.field}`", r.span, help="fields: " + ", ".join(f"`{f}`" for f in rec.fields))
            return None
        return rec, ft

    def _resolve_retraction(self, var: StateVar, r: A.Retraction) -> None:
        """`retracted when FIELD [== VALUE]`: a table's field and the constant that marks a row
        withdrawn. The checker of a task ignores a row an episode inserted and left so (E308)."""
        found = self._retraction_field(var, r)
        if found is None:
            return
        rec, ft = found
        if r.field == rec.key:
            self.error("E308", f"`{r.field}` is the key of `{rec.name}`: a retracted row keeps its key", r.span, help="name the field that marks a row withdrawn, such as `status`")
            return
        if r.value is None:
            if T.prim_name(ft) != "bool":
                self.error("E308", f"`retracted when {r.field}` needs a bool field, and `{r.field}` is `{ft}`", r.span, help=f"say which value: `retracted when {r.field} == ...`")
                return
            value = A.Literal("bool", True, span=r.span)
        elif not self._check_const(r.value, ft, f"the retracted value of `{r.field}`", code="E308"):
            return
        else:
            value = r.value
        default = rec.defaults.get(r.field)
        if isinstance(default, A.Literal) and (default.kind, default.value) == (value.kind, value.value):
            self.error("E308", f"a new `{rec.name}` starts with `{r.field}` = {format_literal(default)}, which marks it retracted", r.span, help="a table's retracted state must differ from a new row's")
            return
        var.retracted = (r.field, r.value)

    def _resolve_retraction_with(self, svc: Service, var: StateVar, r: A.Retraction) -> None:
        """`retracted with FIELD`: a reference field whose table declares a retracted state; a
        row is withdrawn when the row it names is (E308)."""
        found = self._retraction_field(var, r)
        if found is None:
            return
        rec, ft = found
        if isinstance(ft, T.UnknownT):
            return  # its type was reported
        parents = [
            (s, v)
            for s in self.model.services.values()
            for v in s.state.values()
            if isinstance(v.type, TableT) and v.type.record.key is not None and isinstance(ft, Alias) and v.type.record.fields.get(v.type.record.key) == ft
        ]
        if r.field == rec.key or not parents:
            self.error("E308", f"`retracted with {r.field}` needs a field that names a row of another table, and `{r.field}` is `{ft}`", r.span, help="name the reference to the row this one belongs to, such as `order`")
            return
        psvc, parent = parents[0]
        stated = {m.name: m.retracted for m in psvc.decl.members if isinstance(m, A.StateDecl)}
        if stated.get(parent.name) is None:
            self.error("E308", f"`{r.field}` names a row of `{psvc.name}.{parent.name}`, which declares no retracted state", r.span, help=f"say when a row of `{parent.name}` is withdrawn: `retracted when ...`")
            return
        var.retracted_with = (r.field, f"{psvc.name}.{parent.name}")

    def _retraction_cycles(self, withs: list) -> None:
        """`retracted with` must end at a `retracted when`: tables withdrawn with each other only
        would make no row withdrawn, and a check of one would never end (E308)."""
        tables = {f"{svc.name}.{var.name}": (var, r) for svc, var, r in withs}
        for start, (var, r) in tables.items():
            seen, table = {start}, start
            while table in tables and tables[table][0].retracted_with is not None:
                table = tables[table][0].retracted_with[1]
                if table in seen:
                    self.error("E308", f"`{start}` is withdrawn through a chain of `retracted with` that comes back on itself: no row is ever withdrawn", r.span, help="end the chain at a table with `retracted when ...`")
                    var.retracted_with = None
                    break
                seen.add(table)

    def _resolve_pools(self) -> None:
        for pool in self.model.pools.values():
            profiles = [v for v in pool.values if isinstance(v, A.Profile)]
            if profiles and len(profiles) != len(pool.values):
                self.error("E201", f"pool `{pool.name}` mixes profiles (`{{ field: value }}`) with plain values", pool.span, help="a pool holds constants of one kind, or profiles only")
                continue
            if profiles:
                self._check_profiles(pool, profiles)
                continue
            kinds = {v.kind for v in pool.values}
            if len(kinds) > 1:
                self.error("E201", f"pool `{pool.name}` mixes values of different kinds ({', '.join(sorted(kinds))})", pool.span)
            # bare names must be enum members even if no seed picks from the pool yet
            for v in pool.values:
                if v.kind == "name":
                    self._const_type(v, None)

    def _check_profiles(self, pool: A.PoolDecl, profiles: list[A.Profile]) -> None:
        """Every profile names the same fields, once each (a row drawn from any of them gets the
        same fields filled); their values are checked against a record where a seed uses them."""
        first = [f.name for f in profiles[0].fields]
        for p in profiles:
            names = [f.name for f in p.fields]
            twice = sorted({n for n in names if names.count(n) > 1})
            if twice:
                self.error("E201", f"a profile of pool `{pool.name}` names `{twice[0]}` twice", p.span)
            elif sorted(names) != sorted(first):
                missing = sorted(set(first) - set(names)) or sorted(set(names) - set(first))
                self.error("E201", f"the profiles of pool `{pool.name}` name different fields (`{missing[0]}` is not in every one)", p.span, help=f"give every profile the fields {', '.join(f'`{n}`' for n in first)}")

    # constants (defaults, pools, seeds)

    def _const_type(self, lit: A.Literal, expected: Type | None) -> Type:
        if lit.kind == "name":
            b = T.base_of(expected) if expected is not None else None
            if isinstance(b, EnumT):
                if lit.value in b.members:
                    return b
                self.error("E106", f"enum `{b.name}` has no member `{lit.value}`", lit.span, help=_suggest(str(lit.value), b.members) or f"members: {', '.join(b.members)}")
                return UNKNOWN
            owners = self.member_enums.get(str(lit.value), [])
            if len(owners) == 1:
                return owners[0]
            self.error("E101", f"unknown name `{lit.value}`", lit.span, help="constants are numbers, strings, dates, times, `true`, `false` or enum members")
            return UNKNOWN
        return _LITERAL_TYPES[lit.kind]

    def _check_const(self, lit: A.Literal, expected: Type, what: str, *, code: str = "E201") -> bool:
        found = self._const_type(lit, expected)
        if isinstance(found, T.UnknownT):
            return False
        if not T.fits(expected, found, literal=True):
            self.error(code, f"{what} must be `{expected}`, found `{found}`", lit.span)
            return False
        if T.prim_name(expected) == "email" and lit.kind == "string" and not _EMAIL.match(str(lit.value)):
            self.error(code, f"{what} must be an email address, found {lit.value!r}", lit.span)
            return False
        return True

    # ─────────────────────────── services ───────────────────────────

    def _check_service(self, svc: Service, module: Path) -> None:
        for m in svc.decl.members:
            if isinstance(m, A.SeedDecl):
                self._check_seed(svc, m, module)
            elif isinstance(m, A.ToolDecl):
                if m.name in svc.tools:
                    self.error("E111", f"tool `{m.name}` is defined twice in service `{svc.name}`", m.span)
                    continue
                tool = self._check_tool(svc, m, module)
                svc.tools[m.name] = tool
                self.tool_owners.setdefault(m.name, []).append(tool)
            elif isinstance(m, A.ConstraintDecl):
                svc.constraints.append(m)
        for var in svc.state.values():
            if not isinstance(var.type, (TableT, T.UnknownT)) and var.default is None and var.name not in svc.seeds:
                self.error("E606", f"state `{var.name}` has no initial value", var.span)
        # constraints last: they may name any tool of the service
        names: set[str] = set()
        for c in svc.constraints:
            if c.name in names:
                self.error("E111", f"constraint `{c.name}` is defined twice in service `{svc.name}`", c.span)
            names.add(c.name)
            self._check_constraint(c, Scope(module, svc))

    # seeds

    def _check_seed(self, svc: Service, decl: A.SeedDecl, module: Path) -> None:
        if decl.name in svc.seeds:
            self.error("E111", f"`{decl.name}` is seeded twice", decl.span)
            return
        svc.seeds[decl.name] = decl
        var = svc.state.get(decl.name)
        if var is None:
            self.error("E601", f"service `{svc.name}` has no state `{decl.name}` to seed", decl.span, help=_suggest(decl.name, svc.state))
            return
        if isinstance(var.type, TableT):
            if decl.rows is None:
                self.error("E602", f"`{decl.name}` is a table; its seed needs `rows {{ ... }}`", decl.span, help=f"write `seed {decl.name}: 3..8 rows {{ field: generator }}`")
                return
            self._check_row_count(decl.gen)
            rec = var.type.record
            profiled = self._check_profile_seed(decl, rec, svc) if decl.profiles else set()
            for i, name in enumerate(decl.distinct):
                if name not in rec.fields:
                    self.error("E601", f"`distinct by {name}`: record `{rec.name}` has no field `{name}`", decl.span, help=_suggest(name, rec.fields))
                elif name in decl.distinct[:i]:
                    self.error("E111", f"`distinct by` names field `{name}` twice", decl.span)
            seen: set[str] = set(profiled or ())
            for f in decl.rows:
                if profiled and f.name in profiled:
                    self.error("E111", f"field `{f.name}` is seeded twice: the profiles of pool `{decl.profiles}` give it too", f.span, help="drop the field's generator, or the field from the profiles")
                elif f.name in seen:
                    self.error("E111", f"field `{f.name}` is seeded twice", f.span)
                seen.add(f.name)
                ft = rec.fields.get(f.name)
                if ft is None:
                    self.error("E601", f"record `{rec.name}` has no field `{f.name}`", f.span, help=_suggest(f.name, rec.fields))
                    continue
                if isinstance(f.gen, A.GenSame):
                    self._check_same(f.gen, rec, ft, f.name)
                else:
                    self._check_gen(f.gen, ft, f"field `{f.name}`", svc, row=(rec, f.name))
                    for g in A.seed_parts(f.gen):
                        if isinstance(g, A.GenRef) and (g.path == (decl.name,) or g.path == (svc.name, decl.name)):
                            self.error(
                                "E604",
                                f"`ref {'.'.join(g.path)}` refers to the table this seed fills, which is still empty when its rows are drawn",
                                g.span,
                                help="refer to another table, or seed such references as constants of keys the seed makes (`\"person-1\"`)",
                            )
            self._check_same_cycles(decl.rows)
            unfilled = [
                name
                for name, ft in rec.fields.items()
                if name not in seen and name not in rec.defaults and name != rec.key and not isinstance(T.base_of(ft), ListT)
            ]
            if rec.key and rec.key not in seen and T.prim_name(rec.fields.get(rec.key, UNKNOWN)) not in ("id", None):
                unfilled.insert(0, rec.key)  # only `id` keys are generated
            if unfilled and profiled is not None:  # (None: a bad profile pool, already reported)
                self.error(
                    "E605",
                    f"seed of `{decl.name}` leaves {', '.join(f'`{n}`' for n in unfilled)} without a generator",
                    decl.span,
                    help="add a generator for each field, or give the field a default in the record",
                )
        else:
            if decl.rows is not None:
                self.error("E602", f"`{decl.name}` is a single value, not a table; drop `rows {{ ... }}`", decl.span)
            self._check_gen(decl.gen, var.type, f"`{decl.name}`", svc)

    def _check_row_count(self, gen: A.SeedGen) -> None:
        if isinstance(gen, A.GenConst) and gen.value.kind == "int" and gen.value.value >= 0:
            self._check_row_limit(gen.value.value, gen.span)
            return
        if isinstance(gen, A.GenRange) and gen.lo.kind == gen.hi.kind == "int":
            if not 0 <= gen.lo.value <= gen.hi.value:
                self.error("E603", f"row count range {gen.lo.value}..{gen.hi.value} is empty or negative", gen.span)
            else:
                self._check_row_limit(gen.hi.value, gen.span)
            return
        self.error("E602", "a table seed starts with a row count, such as `5` or `4..9`", gen.span)

    def _check_row_limit(self, rows: int, span: Span) -> None:
        if rows > MAX_SEED_ROWS:
            self.error(
                "E607",
                f"a table seed makes at most {MAX_SEED_ROWS} rows; this one asks for up to {rows}",
                span,
                help=f"seed at most {MAX_SEED_ROWS} rows; a task needs only the rows its tools touch",
            )

    def _check_profile_seed(self, decl: A.SeedDecl, rec, svc: Service) -> set[str] | None:
        """`rows from POOL`: a pool of profiles whose fields are the record's and fit their types.
        Returns the fields the profiles fill; None where the pool cannot say (reported)."""
        pool = self.model.pools.get(decl.profiles)
        if pool is None:
            self.error("E107", f"unknown value pool `{decl.profiles}`", decl.span, help=self._hint(decl.profiles, self.model.pools))
            return None
        self._check_visible(pool.name, Path(svc.module), decl.span, "pool")
        if not pool.profiles:
            if not any(isinstance(v, A.Profile) for v in pool.values):
                self.error("E602", f"pool `{pool.name}` holds plain values; `rows from` takes a pool of profiles", decl.span, help=f"write its entries as `{{ field: value, ... }}`, or pick from it in one field: `field: pick({pool.name})`")
            return None
        names = {f.name for f in pool.values[0].fields}
        for p in pool.values:
            for f in p.fields:
                ft = rec.fields.get(f.name)
                if ft is None:
                    self.error("E601", f"record `{rec.name}` has no field `{f.name}` (from a profile of pool `{pool.name}`)", f.span, help=_suggest(f.name, rec.fields))
                    return names
                if not self._check_const(f.value, ft, f"field `{f.name}` (from pool `{pool.name}`)", code="E602"):
                    return names
        return names

    def _check_gen(self, gen: A.SeedGen, ft: Type, what: str, svc: Service, row: tuple | None = None) -> None:
        """`row`: (record, field) where the generator fills a field of a table row, so that a
        `same(...)` inside a `format` or a `slug` can read the row's other fields."""
        if isinstance(gen, A.GenConst):
            self._check_const(gen.value, ft, what, code="E602")
        elif isinstance(gen, A.GenRange):
            ok = self._check_const(gen.lo, ft, what, code="E602") & self._check_const(gen.hi, ft, what, code="E602")
            kind = T.prim_name(ft)
            if ok and kind not in ("int", "decimal", "money", "date", "time", "datetime"):
                self.error("E602", f"{what} has type `{ft}`, which has no ranges", gen.span, help="use `pick(...)` or `weighted(...)`")
            elif ok and gen.lo.kind != gen.hi.kind and not {gen.lo.kind, gen.hi.kind} <= {"int", "decimal"}:
                self.error("E603", "the bounds of a range are of different kinds", gen.span)
            elif ok and _const_key(gen.lo) > _const_key(gen.hi):
                self.error("E603", "range is empty: the low bound is above the high bound", gen.span)
        elif isinstance(gen, A.GenPickPool):
            pool = self.model.pools.get(gen.pool)
            if pool is None:
                self.error("E107", f"unknown value pool `{gen.pool}`", gen.span, help=self._hint(gen.pool, self.model.pools))
                return
            self._check_visible(gen.pool, Path(svc.module), gen.span, "pool")
            if pool.profiles:
                self.error("E602", f"pool `{pool.name}` holds profiles, which fill whole rows", gen.span, help=f"seed the table with `rows from {pool.name} {{ ... }}`")
                return
            for v in pool.values:
                if not self._check_const(v, ft, f"{what} (from pool `{pool.name}`)", code="E602"):
                    break
        elif isinstance(gen, A.GenPickList):
            for v in gen.values:
                self._check_const(v, ft, what, code="E602")
        elif isinstance(gen, A.GenWeighted):
            for w in gen.weights:
                self._check_const(w.value, ft, what, code="E602")
                if w.weight <= 0:
                    self.error("E603", "a weight must be positive", w.span)
                elif w.weight > MAX_WEIGHT:
                    self.error("E607", f"weight {w.weight} is above the limit of {MAX_WEIGHT}", w.span, help="weights are relative: divide them all by the same number")
        elif isinstance(gen, A.GenRef):
            if len(gen.path) == 2:
                self._check_visible(gen.path[0], Path(svc.module), gen.span, "service")
            table = self._table_from_path(gen.path, svc, gen.span, "E604")
            if table is None:
                return
            if table.record.key is None:
                self.error("E604", f"`{'.'.join(gen.path)}` has no key to refer to", gen.span)
                return
            kt = table.record.fields[table.record.key]
            if not T.fits(ft, kt):
                self.error("E602", f"{what} has type `{ft}`, but keys of `{'.'.join(gen.path)}` are `{kt}`", gen.span)
            if gen.where is not None:
                f, values = gen.where
                wt = table.record.fields.get(f)
                if wt is None:
                    self.error("E601", f"record `{table.record.name}` has no field `{f}`", gen.span, help=_suggest(f, table.record.fields))
                else:
                    for v in values:
                        if not self._check_const(v, wt, f"field `{f}` of `{'.'.join(gen.path)}`", code="E602"):
                            break
            if gen.matches is not None:
                self._check_matches(gen, table, row)
        elif isinstance(gen, A.GenSame):
            if row is None:
                self.error("E602", f"{what}: `same(...)` fills a field of a table row with another field's value, and cannot be used here", gen.span, help="use it in a field of `rows { ... }`")
            else:
                self._check_same(gen, row[0], ft, row[1])
        elif isinstance(gen, A.GenAfter):
            if row is None:
                self.error("E602", f"{what}: `after(...)` follows another field of a table row, and cannot be used here", gen.span, help="use it as the whole generator of a date field in `rows { ... }`")
            else:
                self._check_after(gen, row[0], ft, row[1])
        elif isinstance(gen, A.GenFormat):
            if not T.fits(ft, T.TEXT, literal=True):
                self.error("E602", f"{what} has type `{ft}`; `format` makes text", gen.span)
            n = len([p for p in placeholders(gen.template) if p == ""])
            if n != len(gen.args) or len(placeholders(gen.template)) != n:
                self.error("E203", f"format string has {len(placeholders(gen.template))} `{{}}` placeholders but {len(gen.args)} generators", gen.span, help="use `{}` once per generator")
            for a in gen.args:
                # a range inside format makes values of its bounds' own type
                natural = _LITERAL_TYPES.get(a.lo.kind, UNKNOWN) if isinstance(a, A.GenRange) else UNKNOWN
                self._check_gen(a, natural, what, svc, None if isinstance(a, A.GenAfter) else row)  # (a date, not text)
        elif isinstance(gen, A.GenSlug):
            if not T.fits(ft, T.TEXT, literal=True):
                self.error("E602", f"{what} has type `{ft}`; `slug` makes text", gen.span)
            natural = _LITERAL_TYPES.get(gen.arg.lo.kind, UNKNOWN) if isinstance(gen.arg, A.GenRange) else UNKNOWN
            self._check_gen(gen.arg, natural, what, svc, None if isinstance(gen.arg, A.GenAfter) else row)

    def _check_matches(self, gen: A.GenRef, table: TableT, row: tuple | None) -> None:
        """`ref T where F == same(path)`: `F` a field of T's record, `path` one of the row being
        seeded (`same(...)`'s rules), the two of one type, so that a key can match."""
        f, same = gen.matches
        shown = ".".join(gen.path)
        if row is None:
            self.error("E602", f"`ref {shown} where {f} == same(...)` follows another field of a table row, and cannot be used here", gen.span, help="use it in a field of `rows { ... }`, or compare with a constant")
            return
        wt = table.record.fields.get(f)
        if wt is None:
            self.error("E601", f"record `{table.record.name}` has no field `{f}`", gen.span, help=_suggest(f, table.record.fields))
            return
        t = self._same_type(same, row[0], row[1])
        if t is None or isinstance(t, T.UnknownT) or isinstance(wt, T.UnknownT):
            return
        if not (T.fits(wt, t) or T.fits(t, wt)):
            self.error("E602", f"field `{f}` of `{shown}` is `{wt}`, but `{'.'.join(same.path)}` is `{t}`: no row can match", same.span, help=f"name a field of the row that holds a `{wt}`")

    def _check_after(self, gen: A.GenAfter, rec, ft: Type, name: str) -> None:
        """`after(same(path), ..., lo..hi)` (or `before`): a date or datetime field, following
        the dates or datetimes that each `same(path)` reads; `lo..hi` whole days (ints), or bounds
        of the field's own type."""
        word = "before" if gen.before else "after"
        kind = T.prim_name(ft)
        if kind not in ("date", "datetime"):
            self.error("E602", f"field `{name}` has type `{ft}`, but `{word}(...)` makes a date or a datetime", gen.span, help=f"use `{word}(...)` for a date that keeps its order with another one; a range for other values")
            return
        for arg in gen.args:
            followed = self._same_type(arg, rec, name)
            if followed is not None and not isinstance(followed, T.UnknownT) and T.prim_name(followed) not in ("date", "datetime"):
                self.error("E602", f"`{word}(...)` keeps its order with a date or a datetime, but `{'.'.join(arg.path)}` is `{followed}`", arg.span, help="name a date or datetime field")
        lo, hi = gen.lo, gen.hi
        if lo.kind == hi.kind == "int":
            if lo.value < 0:
                self.error("E603", f"`{word}(...)` counts whole days {word} the date it follows; {lo.value} is not", gen.span, help="start the range at 0 or later")
            elif lo.value > hi.value:
                self.error("E603", "range is empty: the low bound is above the high bound", gen.span)
            if gen.within is not None:
                self._check_bounds(gen.within[0], gen.within[1], kind, word, gen.span, second=True)
            return
        if gen.within is not None:
            self.error("E602", f"`{word}(...)` takes whole days first, then bounds: `0..10, 2025-01-06..2025-03-13`", gen.span, help="write the days first, or drop one range")
            return
        self._check_bounds(lo, hi, kind, word, gen.span, second=False)

    def _check_bounds(self, lo: A.Literal, hi: A.Literal, kind: str, word: str, span: Span, second: bool) -> None:
        """The bounds of an `after(...)`/`before(...)`: constants of the field's type, low first."""
        if lo.kind != kind or hi.kind != kind:
            what = f"the second range of `{word}(...)` is bounds of the field's type `{kind}`" if second else f"the range of `{word}(...)` is whole days (`0..30`) or bounds of the field's type `{kind}`"
            self.error("E602", f"{what}; found {lo.kind} and {hi.kind}", span, help=f"write `{kind}` bounds" if second else f"write days, `0..30`, or `{kind}` bounds")
        elif _const_key(lo) > _const_key(hi):
            self.error("E603", "range is empty: the low bound is above the high bound", span)

    def _same_type(self, gen: A.GenSame, rec, name: str) -> Type | None:
        """The type `same(a.b.c)` ends on, or None where its path does not resolve (reported)."""
        first = gen.path[0]
        if first == name:
            self.error("E602", f"field `{name}` cannot be seeded with its own value", gen.span, help="name another field of the row")
            return None
        t = rec.fields.get(first)
        if t is None:
            self.error("E601", f"record `{rec.name}` has no field `{first}`", gen.span, help=_suggest(first, rec.fields))
            return None
        shown = first
        for step in gen.path[1:]:
            if isinstance(t, T.UnknownT):
                return None  # its type failed to resolve: that error is reported already, not this one
            target = self._table_of_key(t)
            if target is None:
                self.error("E604", f"`{shown}` has type `{t}`, which is not the key type of one table, so `.{step}` cannot follow it", gen.span, help="follow a field that holds another table's key, such as `patient.owner`")
                return None
            trec = target.record
            if step not in trec.fields:
                self.error("E601", f"record `{trec.name}` has no field `{step}`", gen.span, help=_suggest(step, trec.fields))
                return None
            t = trec.fields[step]
            shown += "." + step
        return t

    def _check_same(self, gen: A.SeedGen, rec, ft: Type, name: str) -> None:
        """`same(a.b.c)`: `a` a field of the row, each further name a field of the row the one
        before refers to (its type is a table's key type), the last one's type fitting `ft`."""
        t = self._same_type(gen, rec, name)
        if t is not None and not isinstance(t, T.UnknownT) and not T.fits(ft, t):
            self.error("E602", f"field `{name}` has type `{ft}`, but `{'.'.join(gen.path)}` is `{t}`", gen.span)

    def _table_of_key(self, t: Type) -> TableT | None:
        """The one table whose key has exactly the type `t` (an alias such as `PatientId`)."""
        if not isinstance(t, T.Alias):
            return None
        found = [v.type for s in self.model.services.values() for v in s.state.values() if isinstance(v.type, TableT) and v.type.record.key and str(v.type.record.fields[v.type.record.key]) == str(t)]
        return found[0] if len(found) == 1 else None

    def _check_same_cycles(self, rows) -> None:
        """`a: same(b)` with `b: same(a)` has no value (nor has `a: format("{}", same(b))`)."""
        deps = {f.name: {g.path[0] for g in A.seed_parts(f.gen) if isinstance(g, A.GenSame)} for f in rows}
        for f in rows:
            path = self._circle(f.name, deps, [])
            if path and len(path) > 1:
                self.error("E602", f"fields {', '.join(f'`{n}`' for n in path)} are seeded from each other in a circle", f.span, help="seed one of them with a generator of its own")
                return

    @staticmethod
    def _circle(start: str, deps: dict[str, set[str]], path: list[str]) -> list[str] | None:
        """The fields from `start` round a circle of `same(...)` reads back to it, if any."""
        for d in sorted(deps.get(path[-1] if path else start, ())):
            if d == start:
                return [start, *path]
            if d not in path and d in deps:
                found = Checker._circle(start, deps, [*path, d])
                if found:
                    return found
        return None

    def _table_from_path(self, path: tuple[str, ...], svc: Service | None, span: Span, not_table: str = "E204") -> TableT | None:
        """`table` (own service) or `service.table` → the table type, reporting what is wrong."""
        if len(path) == 1:
            if svc is not None and path[0] in svc.state:
                t = svc.state[path[0]].type
            else:
                where = f"service `{svc.name}`" if svc else "this world"
                self.error("E105", f"{where} has no table `{path[0]}`", span, help="name another service's table as `service.table`")
                return None
        elif len(path) == 2:
            other = self.model.services.get(path[0])
            if other is None:
                self.error("E104", f"unknown service `{path[0]}`", span, help=self._hint(path[0], self.model.services))
                return None
            if path[1] not in other.state:
                self.error("E105", f"service `{other.name}` has no state `{path[1]}`", span, help=_suggest(path[1], other.state))
                return None
            t = other.state[path[1]].type
        else:
            self.error("E105", f"`{'.'.join(path)}` is not a table name", span, help="write `table` or `service.table`")
            return None
        if isinstance(t, T.UnknownT):
            return None
        if not isinstance(t, TableT):
            self.error(not_table, f"`{'.'.join(path)}` is a `{t}`, not a table", span)
            return None
        return t

    # tools

    def _check_tool(self, svc: Service, decl: A.ToolDecl, module: Path) -> Tool:
        scope = Scope(module, svc, in_tool=True)
        params: list[tuple[str, Type]] = []
        for p in decl.params:
            pt = self.resolve_type(p.type, module, svc)
            if isinstance(pt, TableT):
                self.error("E201", f"parameter `{p.name}` cannot be a table", p.type.span)
                pt = UNKNOWN
            if p.name in scope.names:
                self.error("E111", f"tool `{decl.name}` has two parameters named `{p.name}`", p.span)
            if p.default is not None:
                self._check_const(p.default, pt, f"the default of `{p.name}`", code="E307")
            params.append((p.name, pt))
            scope = scope.bind(p.name, pt)
        result = self.resolve_type(decl.result, module, svc) if decl.result is not None else T.NONE
        tool = Tool(decl.name, svc.name, decl, params, result, [], [])

        if decl.say is not None:
            self._check_template(decl.say, scope, decl.say_span or decl.span, "`say` phrase")
        else:
            self.warn("W002", f"tool `{decl.name}` has no `say` phrase", decl.span, help='add `say "..."` so sampled instructions can mention it')
        if decl.gives is not None:
            self._check_template(decl.gives, scope, decl.gives_span or decl.span, "`gives` phrase")
        if decl.pages is not None:
            span = decl.pages_span or decl.span
            if not isinstance(result, T.ListT):
                self.error("E411", f"tool `{decl.name}` answers in pages, but it returns `{result}`, not a list", span, help="only a tool that returns `list[...]` can have `pages N`")
            elif decl.pages < 1:
                self.error("E411", f"tool `{decl.name}` answers in pages of {decl.pages}; a page holds at least one element", span, help="write `pages N` with N of 1 or more")
            elif any(p.name == "page" for p in decl.params):
                self.error("E411", f"tool `{decl.name}` answers in pages, so its callers pass `page`; it cannot also have a parameter `page`", span, help="rename the parameter, or drop `pages` and page by hand")

        self._check_body(tool, scope)
        tool.consumes = self._nominals(decl.consumes, module, svc) if decl.consumes is not None else _derive_consumes(params)
        tool.produces = self._nominals(decl.produces, module, svc) if decl.produces is not None else _derive_produces(result)
        return tool

    def _nominals(self, names: tuple[A.NamedType, ...], module: Path, svc: Service) -> list[Alias]:
        out: list[Alias] = []
        for nt in names:
            t = self.resolve_type(nt, module, svc)
            if isinstance(t, Alias):
                out.append(t)
            elif not isinstance(t, T.UnknownT):
                self.error("E201", f"`{nt.name}` is not a nominal type; consumes/produces list `type` aliases", nt.span, help=f"declare `type X = {t}` and use it")
        return out

    def _check_template(self, template: str, scope: Scope, span: Span, what: str) -> None:
        for ph in placeholders(template):
            path = ph.strip().split(".")
            if not ph.strip() or not all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p) for p in path):
                self.error("E110", f"placeholder `{{{ph}}}` in the {what} is not a name or field path", span, help="write `{name}` or `{name.field}`; `{{` gives a brace")
                continue
            t = scope.names.get(path[0])
            if t is None:
                self.error("E110", f"placeholder `{{{ph}}}` in the {what} names nothing in scope", span, help=_suggest(path[0], scope.names))
                continue
            for part in path[1:]:
                b = T.base_of(t)
                if isinstance(b, RecordT) and part in b.fields:
                    t = b.fields[part]
                else:
                    self.error("E110", f"placeholder `{{{ph}}}`: `{t}` has no field `{part}`", span)
                    break

    def _check_body(self, tool: Tool, scope: Scope) -> None:
        decl = tool.decl
        svc = self.model.services[tool.service]
        returned: A.Return | None = None
        for stmt in decl.body:
            if returned is not None:
                self.error("E408", "statement after `return` is never run", stmt.span, help="move it before the `return`")
            if decl.simulated and isinstance(stmt, (A.Let, A.Insert, A.Update, A.Delete, A.Set, A.Return)):
                self.error(
                    "E405",
                    f"simulated tool `{decl.name}` cannot have {article(_stmt_word(stmt))} `{_stmt_word(stmt)}` statement",
                    stmt.span,
                    help="a simulated tool declares a contract: `require`, `modifies` and `ensures`",
                )
                continue
            if not decl.simulated and isinstance(stmt, (A.Modifies, A.Ensures)):
                self.error(
                    "E406",
                    f"`{_stmt_word(stmt)}` belongs to simulated tools; `{decl.name}` has a body",
                    stmt.span,
                    help="mark the tool `simulated`, or write its effects as statements",
                )
                continue
            if isinstance(stmt, A.Require):
                self.expect_bool(stmt.cond, scope, "a `require` condition")
                self._check_template(stmt.message, scope, stmt.message_span or stmt.span, "error message")
            elif isinstance(stmt, A.Let):
                self._check_fresh(stmt.name, scope, svc, stmt.span)
                t = self.infer(stmt.value, scope)
                if isinstance(t, (ServiceRef, EnumRef)):
                    self.error("E204", f"`let {stmt.name}` must hold a value, not a {t}", stmt.value.span)
                    t = UNKNOWN
                scope = scope.bind(stmt.name, t)
            elif isinstance(stmt, A.Insert):
                rec = self._own_table(stmt.table, svc, stmt.span, "insert into")
                if rec is not None:
                    tool.inserts.add(stmt.table)
                    self._check_field_inits(stmt.fields, rec, scope, insert=True, span=stmt.span)
                if stmt.bind is not None:
                    self._check_fresh(stmt.bind, scope, svc, stmt.span)
                    scope = scope.bind(stmt.bind, rec if rec is not None else UNKNOWN)
            elif isinstance(stmt, A.Update):
                rec, inner = self._target(stmt.target, svc, scope, "update")
                if rec is not None:
                    # a field repeated inside this statement is reported by _check_field_inits
                    for name in dict.fromkeys(fi.name for fi in stmt.fields):
                        key = (stmt.target.table, name)
                        if key in tool.writes:
                            span = next(fi.span for fi in stmt.fields if fi.name == name)
                            self.error("E401", f"tool `{decl.name}` writes `{stmt.target.table}.{name}` twice", span, help="combine the writes into one update")
                        tool.writes.add(key)
                    self._check_field_inits(stmt.fields, rec, inner, insert=False, span=stmt.span)
            elif isinstance(stmt, A.Delete):
                rec, _ = self._target(stmt.target, svc, scope, "delete from")
                if rec is not None:
                    tool.deletes.add(stmt.target.table)
            elif isinstance(stmt, A.Set):
                var = svc.state.get(stmt.name)
                if var is None:
                    self._no_state(stmt.name, svc, stmt.span)
                elif isinstance(var.type, TableT):
                    self.error("E204", f"`{stmt.name}` is a table; change rows with insert, update or delete", stmt.span)
                else:
                    key = (stmt.name, "")
                    if key in tool.writes:
                        self.error("E401", f"tool `{decl.name}` sets `{stmt.name}` twice", stmt.span)
                    tool.writes.add(key)
                    self.expect(stmt.value, var.type, scope, f"the new value of `{stmt.name}`")
            elif isinstance(stmt, A.Return):
                if returned is not None:
                    self.error("E407", "a tool returns once", stmt.span)
                returned = stmt
                if isinstance(tool.result, T.NoneT):
                    self.error("E407", f"tool `{decl.name}` declares no result but returns a value", stmt.span, help="add `-> TYPE` after the parameters")
                    self.infer(stmt.value, scope)
                else:
                    self.expect(stmt.value, tool.result, scope, f"the result of `{decl.name}`")
            elif isinstance(stmt, A.Modifies):
                rec = self._own_table(stmt.table, svc, stmt.span, "modify") if not _is_scalar(svc, stmt.table) else None
                if rec is not None:
                    for f in stmt.fields or ():
                        if f not in rec.fields:
                            self.error("E103", f"record `{rec.name}` has no field `{f}`", stmt.span, help=_suggest(f, rec.fields))
                        else:
                            tool.writes.add((stmt.table, f))
                    if stmt.fields is None:
                        tool.inserts.add(stmt.table)
                        tool.deletes.add(stmt.table)
                elif _is_scalar(svc, stmt.table):
                    tool.writes.add((stmt.table, ""))
            elif isinstance(stmt, A.Ensures):
                inner = scope if isinstance(tool.result, T.NoneT) else scope.bind("result", tool.result)
                self.expect_bool(stmt.cond, inner, "an `ensures` condition")
        if returned is None and not decl.simulated and not isinstance(tool.result, T.NoneT):
            self.error("E407", f"tool `{decl.name}` declares result `{tool.result}` but never returns", decl.span, help="end the body with `return ...`")

    def _check_fresh(self, name: str, scope: Scope, svc: Service, span: Span) -> None:
        if name in scope.names or name in svc.state:
            self.error("E409", f"`{name}` is already defined here", span, help="pick another name")

    def _no_state(self, name: str, svc: Service, span: Span) -> None:
        owner = next(iter(self.state_owners.get(name, ())), None)
        if owner is not None and owner is not svc:
            self.error("E403", f"`{name}` belongs to service `{owner.name}`; tools of `{svc.name}` cannot change it", span, help=f"call a tool of `{owner.name}` instead")
        else:
            self.error("E105", f"service `{svc.name}` has no state `{name}`", span, help=_suggest(name, svc.state))

    def _own_table(self, name: str, svc: Service, span: Span, verb: str) -> RecordT | None:
        var = svc.state.get(name)
        if var is None:
            self._no_state(name, svc, span)
            return None
        if isinstance(var.type, T.UnknownT):
            return None
        if not isinstance(var.type, TableT):
            self.error("E204", f"cannot {verb} `{name}`: it is a `{var.type}`, not a table", span, help=f"use `set {name} = ...`")
            return None
        return var.type.record

    def _target(self, target: A.Target, svc: Service, scope: Scope, verb: str) -> tuple[RecordT | None, Scope]:
        if isinstance(target, A.FilterTarget) and target.table not in svc.state and target.var in svc.state:
            self.error(
                "E105",
                f"service `{svc.name}` has no state `{target.table}`",
                target.span,
                help=f"the form is `{target.table} in {target.var} where ...` reversed: write `{verb.split()[0]} {target.table} in {target.var}` as `{verb.split()[0]} ROW in TABLE where ...`",
            )
            return None, scope
        rec = self._own_table(target.table, svc, target.span, verb)
        if rec is None:
            if isinstance(target, A.KeyTarget):
                self.infer(target.key, scope)
            return None, scope
        if isinstance(target, A.KeyTarget):
            kt = rec.fields.get(rec.key or "", UNKNOWN)
            self.expect(target.key, kt, scope, f"the key of `{target.table}`")
            return rec, scope
        inner = scope.bind(target.var, rec)
        self.expect_bool(target.where, inner, "a `where` filter")
        return rec, inner

    def _check_field_inits(self, inits, rec: RecordT, scope: Scope, *, insert: bool, span: Span) -> None:
        given = self._check_named_fields([(fi.name, fi.value, fi.span) for fi in inits], rec, scope, key_fixed=not insert)
        if insert:
            self._report_missing(rec, given, span, f"insert into `{rec.name}`", key_generated=True)

    def _check_named_fields(self, items, rec: RecordT, scope: Scope, *, key_fixed: bool) -> set[str]:
        """`field: value` pairs of an insert, update or record construction; returns the names given."""
        given: set[str] = set()
        for name, value, span in items:
            if name in given:
                self.error("E401", f"field `{name}` is given twice", span)
            given.add(name)
            ft = rec.fields.get(name)
            if ft is None:
                self.error("E103", f"record `{rec.name}` has no field `{name}`", span, help=_suggest(name, rec.fields))
                self.infer(value, scope)
                continue
            if key_fixed and name == rec.key:
                self.error("E404", f"`{name}` is the key of `{rec.name}` and cannot change", span, help="insert a new row and delete the old one")
            self.expect(value, ft, scope, f"field `{name}`")
        return given

    def _report_missing(self, rec: RecordT, given: set[str], span: Span, what: str, *, key_generated: bool) -> None:
        """E402 for fields with no value, no default and no natural empty value."""
        missing = []
        for name, ft in rec.fields.items():
            if name in given or name in rec.defaults or isinstance(T.base_of(ft), ListT):
                continue  # given, defaulted, or an empty list
            if key_generated and name == rec.key and T.prim_name(ft) == "id":
                continue  # generated when omitted
            missing.append(name)
        if missing:
            self.error(
                "E402",
                f"{what} leaves {', '.join(f'`{m}`' for m in missing)} without a value",
                span,
                help="give every field a value, or a default in the record",
            )

    # ─────────────────────────── expressions ───────────────────────────

    def expect(self, e: A.Expr, expected: Type, scope: Scope, what: str) -> Type:
        found = self.infer(e, scope, expected)
        if not T.fits(expected, found, literal=_is_literal(e)):
            self.error("E201", f"{what} must be `{expected}`, found `{found}`", e.span, help=_conversion_help(expected, found))
        elif T.prim_name(expected) == "email" and isinstance(e, A.Literal) and e.kind == "string" and not _EMAIL.match(str(e.value)):
            self.error("E201", f"{what} must be an email address, found {e.value!r}", e.span)
        return found

    def expect_bool(self, e: A.Expr, scope: Scope, what: str, code: str = "E201") -> None:
        found = self.infer(e, scope, T.BOOL)
        if not T.fits(T.BOOL, found):
            self.error(code, f"{what} must be `bool`, found `{found}`", e.span)

    def infer(self, e: A.Expr, scope: Scope, expected: Type | None = None) -> Type:
        method = getattr(self, "infer_" + type(e).__name__)
        return self._record(e, method(e, scope, expected))

    def infer_Literal(self, e: A.Literal, scope: Scope, expected: Type | None) -> Type:
        if e.kind == "name":
            return self._const_type(e, expected)
        return _LITERAL_TYPES[e.kind]

    def infer_Var(self, e: A.Var, scope: Scope, expected: Type | None) -> Type:
        name = e.name
        b = T.base_of(expected) if expected is not None else None
        if scope.row is not None and name in scope.row.fields:
            if name in scope.names or (isinstance(b, EnumT) and name in b.members):
                other = "a name bound here" if name in scope.names else f"a member of `{b.name}`"
                self.error(
                    "E101",
                    f"`{name}` is both a field of `{scope.row.name}` and {other}",
                    e.span,
                    help=f"bind the row (`untouched r in ... where r.{name} == ...`) or qualify the other name",
                )
                return UNKNOWN
            return scope.row.fields[name]
        if name in scope.names:
            return scope.names[name]
        if scope.service is not None and name in scope.service.state:
            return scope.service.state[name].type
        if name in self.model.services:
            if scope.in_tool and scope.service is not None and name != scope.service.name:
                self.error(
                    "E410",
                    f"tools of `{scope.service.name}` cannot read the state of service `{name}`",
                    e.span,
                )
                return UNKNOWN
            self._check_visible(name, scope.module, e.span, "service")
            return ServiceRef(name)
        if name in self.model.enums:
            self._check_visible(name, scope.module, e.span, "enum")
            return EnumRef(self.model.enums[name])
        if isinstance(b, EnumT) and name in b.members:
            return b
        owners = self.member_enums.get(name, [])
        if len(owners) == 1:
            return owners[0]
        if len(owners) > 1:
            self.error("E101", f"`{name}` is a member of several enums", e.span, help="qualify it: " + " or ".join(f"`{o.name}.{name}`" for o in owners))
        else:
            options = (scope.names, scope.service.state if scope.service else (), self.model.services, b.members if isinstance(b, EnumT) else ())
            self.error("E101", f"unknown name `{name}`", e.span, help=self._hint(name, *options))
        return UNKNOWN

    def infer_Field(self, e: A.Field, scope: Scope, expected: Type | None) -> Type:
        obj = self.infer(e.obj, scope)
        if isinstance(obj, T.UnknownT):
            return UNKNOWN
        if isinstance(obj, ServiceRef):
            svc = self.model.services[obj.name]
            if e.name in svc.state:
                return svc.state[e.name].type
            self.error("E105", f"service `{svc.name}` has no state `{e.name}`", e.span, help=_suggest(e.name, svc.state))
            return UNKNOWN
        if isinstance(obj, EnumRef):
            if e.name in obj.enum.members:
                return obj.enum
            self.error("E106", f"enum `{obj.enum.name}` has no member `{e.name}`", e.span, help=_suggest(e.name, obj.enum.members))
            return UNKNOWN
        b = T.base_of(obj)
        if isinstance(b, RecordT):
            if e.name in b.fields:
                return b.fields[e.name]
            self.error("E103", f"record `{b.name}` has no field `{e.name}`", e.span, help=_suggest(e.name, b.fields))
            return UNKNOWN
        self.error("E204", f"a `{obj}` has no fields; `.{e.name}` cannot be read", e.span)
        return UNKNOWN

    def infer_Index(self, e: A.Index, scope: Scope, expected: Type | None) -> Type:
        obj = self.infer(e.obj, scope)
        if isinstance(obj, T.UnknownT):
            self.infer(e.key, scope)
            return UNKNOWN
        if isinstance(obj, TableT):
            rec = obj.record
            if rec.key is None:
                self.infer(e.key, scope)
                return rec
            self.expect(e.key, rec.fields[rec.key], scope, f"the key of `{rec.name}`")
            return rec
        b = T.base_of(obj)
        if isinstance(b, ListT):
            self.expect(e.key, T.INT, scope, "a list index")
            return b.elem
        self.error("E204", f"a `{obj}` cannot be indexed", e.span, help="index a table by key (`matters[id]`) or a list by position")
        self.infer(e.key, scope)
        return UNKNOWN

    def infer_ListLit(self, e: A.ListLit, scope: Scope, expected: Type | None) -> Type:
        b = T.base_of(expected) if expected is not None else None
        elem_expected = b.elem if isinstance(b, ListT) else None
        elem: Type | None = None
        for item in e.items:
            t = self.infer(item, scope, elem_expected)
            if elem is None:
                elem = t
                continue
            j = T.join(elem, t)
            if j is None:
                self.error("E201", f"list items must share one type; found `{elem}` and `{t}`", item.span)
            else:
                elem = j
        if elem is None:
            elem = elem_expected or UNKNOWN
        return ListT(elem)

    def infer_Unary(self, e: A.Unary, scope: Scope, expected: Type | None) -> Type:
        if e.op == "not":
            self.expect_bool(e.operand, scope, "the operand of `not`")
            return T.BOOL
        t = self.infer(e.operand, scope, expected)
        if not (T.is_numeric(t) or T.prim_name(t) == "duration" or isinstance(t, T.UnknownT)):
            self.error("E202", f"`-` needs a number or duration, found `{t}`", e.span)
            return UNKNOWN
        return t

    def infer_Binary(self, e: A.Binary, scope: Scope, expected: Type | None) -> Type:
        op = e.op
        if op in ("and", "or", "implies"):
            self.expect_bool(e.left, scope, f"the left side of `{op}`")
            self.expect_bool(e.right, scope, f"the right side of `{op}`")
            return T.BOOL
        if op in ("in", "not in") and isinstance(e.right, A.ListLit) and not isinstance(e.left, A.Var):
            # `t.status in [new, open]`: the members are read as the left side's enum, so a
            # member another loaded enum also has is not ambiguous
            left = self.infer(e.left, scope)
            right = self.infer(e.right, scope, None if isinstance(left, T.UnknownT) else ListT(left))
            elem = T.base_of(right).elem
            if not T.comparable(elem, left, literal_b=_is_literal(e.left)):
                self.error("E205", f"a `{left}` is never in a `{right}`", e.span)
            return T.BOOL
        if op in ("in", "not in"):
            right = self.infer(e.right, scope)
            if isinstance(right, TableT):
                rec = right.record
                kt = rec.fields.get(rec.key or "", UNKNOWN)
                self.expect(e.left, kt, scope, f"a key of `{rec.name}`")
            elif isinstance(T.base_of(right), ListT):
                left = self.infer(e.left, scope, T.base_of(right).elem)
                if not T.comparable(T.base_of(right).elem, left, literal_b=_is_literal(e.left)):
                    self.error("E205", f"a `{left}` is never in a `{right}`", e.span)
            elif isinstance(right, T.UnknownT):
                self.infer(e.left, scope)
            else:
                self.error("E204", f"`{op}` needs a table or a list on the right, found `{right}`", e.right.span, help="use `contains` for text")
                self.infer(e.left, scope)
            return T.BOOL
        if op == "contains":
            left = self.infer(e.left, scope)
            lb = T.base_of(left)
            if isinstance(lb, ListT):
                right = self.infer(e.right, scope, lb.elem)
                if not T.comparable(lb.elem, right, literal_b=_is_literal(e.right)):
                    self.error("E205", f"a `{left}` never contains a `{right}`", e.span)
            elif T.fits(T.TEXT, left) or isinstance(left, T.UnknownT):
                self.expect(e.right, T.TEXT, scope, "the right side of `contains`")
            else:
                self.error("E202", f"`contains` needs text or a list on the left, found `{left}`", e.left.span)
                self.infer(e.right, scope)
            return T.BOOL
        if op in ("==", "!=", "<", "<=", ">", ">="):
            left = self.infer(e.left, scope)
            right = self.infer(e.right, scope, left)
            if isinstance(left, T.UnknownT) or isinstance(right, T.UnknownT):
                return T.BOOL
            if isinstance(T.base_of(left), (RecordT, TableT)) or isinstance(left, (ServiceRef, EnumRef)):
                self.error("E202", f"`{op}` cannot compare `{left}` values; compare their fields or keys", e.span)
                return T.BOOL
            if not T.comparable(left, right, literal_a=_is_literal(e.left), literal_b=_is_literal(e.right)):
                self.error("E205", f"`{left}` and `{right}` can never be equal", e.span, help=_conversion_help(left, right))
            elif op not in ("==", "!=") and not (T.is_ordered(left) and T.is_ordered(right)):
                self.error("E202", f"`{op}` needs ordered values (numbers, text, dates, times), found `{left}`", e.span)
            return T.BOOL
        # arithmetic
        left = self.infer(e.left, scope, expected)
        right = self.infer(e.right, scope, left if not isinstance(left, T.UnknownT) else expected)
        if isinstance(left, T.UnknownT) or isinstance(right, T.UnknownT):
            return UNKNOWN
        result = _arith(op, left, right)
        if result is None:
            self.error("E202", f"`{op}` cannot combine `{left}` and `{right}`", e.span, help=_arith_help(op, left, right))
            return UNKNOWN
        return result

    def infer_Cond(self, e: A.Cond, scope: Scope, expected: Type | None) -> Type:
        self.expect_bool(e.test, scope, "an `if` condition")
        a = self.infer(e.then, scope, expected)
        b = self.infer(e.else_, scope, expected if expected is not None else a)
        # a literal written in the source may stand for an alias (`fits`), in a branch too: `if
        # had_ then things[k].asset else ""` is an AssetId, blank where there is no row
        if isinstance(e.else_, A.Literal) and isinstance(a, T.Alias) and T.fits(a, b, literal=True):
            b = a
        elif isinstance(e.then, A.Literal) and isinstance(b, T.Alias) and T.fits(b, a, literal=True):
            a = b
        j = T.join(a, b)
        if j is None:
            self.error("E201", f"the branches of `if` have different types: `{a}` and `{b}`", e.span)
            return UNKNOWN
        return j

    def _element(self, domain: A.Expr, scope: Scope) -> Type:
        t = self.infer(domain, scope)
        if isinstance(t, TableT):
            return t.record
        b = T.base_of(t)
        if isinstance(b, ListT):
            return b.elem
        if not isinstance(t, T.UnknownT):
            self.error("E204", f"cannot iterate over a `{t}`", domain.span, help="iterate over a table or a list")
        return UNKNOWN

    def infer_Quant(self, e: A.Quant, scope: Scope, expected: Type | None) -> Type:
        inner = scope.bind(e.var, self._element(e.domain, scope))
        if e.where is not None:
            self.expect_bool(e.where, inner, "a `where` filter")
        if e.body is not None:
            self.expect_bool(e.body, inner, f"the body of `{e.kind}`")
        return T.BOOL

    def infer_Select(self, e: A.Select, scope: Scope, expected: Type | None) -> Type:
        elem = self._element(e.domain, scope)
        inner = scope.bind(e.var, elem)
        if e.where is not None:
            self.expect_bool(e.where, inner, "a `where` filter")
        if e.by is not None:
            bt = self.infer(e.by, inner)
            if not (T.is_ordered(bt) or isinstance(bt, T.UnknownT)):
                self.error("E202", f"`by` needs an ordered value (number, text, date, time), found `{bt}`", e.by.span)
            if e.kind == "count":
                self.error("E204", "`count` takes no `by`", e.by.span)
        elif e.kind in ("latest", "earliest"):
            self.error("E204", f"`{e.kind}` needs `by` to say what orders the rows", e.span, help=f"write `{e.kind}({e.var} in ... by {e.var}.date_field)`")
        if e.kind == "count":
            return T.INT
        if e.kind == "filter":
            return ListT(elem)
        return elem

    def infer_Project(self, e: A.Project, scope: Scope, expected: Type | None) -> Type:
        elem = self._element(e.domain, scope)
        inner = scope.bind(e.var, elem)
        if e.where is not None:
            self.expect_bool(e.where, inner, "a `where` filter")
        t = self.infer(e.expr, inner)
        if isinstance(t, T.UnknownT):
            return ListT(UNKNOWN) if e.kind == "map" else UNKNOWN
        if e.kind == "sum" and not T.is_numeric(t):
            self.error("E202", f"`sum` needs numbers, found `{t}`", e.expr.span)
            return UNKNOWN
        if e.kind in ("min", "max") and not T.is_ordered(t):
            self.error("E202", f"`{e.kind}` needs ordered values, found `{t}`", e.expr.span)
            return UNKNOWN
        return ListT(t) if e.kind == "map" else t

    def infer_Call(self, e: A.Call, scope: Scope, expected: Type | None) -> Type:
        rec = self._record_named(e.func, scope)
        if rec is not None:
            return self._construct(e, rec, scope)
        sig = BUILTINS.get(e.func)
        if sig is None:
            self.error("E109", f"unknown function `{e.func}`", e.span, help=_suggest(e.func, list(BUILTINS)))
            for a in e.args:
                self.infer(a.value, scope)
            return UNKNOWN
        kinds, result = sig
        for a in e.args:
            if a.name is not None:
                self.error("E203", f"`{e.func}` takes positional arguments; `{a.name}:` is not allowed", a.span)
        if kinds == ["variadic"]:  # format(template, args...)
            if not e.args:
                self.error("E203", "`format` needs a template string", e.span)
                return T.TEXT
            first = e.args[0].value
            self.expect(first, T.TEXT, scope, "the format template")
            for a in e.args[1:]:
                self.infer(a.value, scope)
            if isinstance(first, A.Literal) and first.kind == "string":
                n = len(placeholders(str(first.value)))
                if n != len(e.args) - 1:
                    self.error("E203", f"format template has {n} placeholders but {len(e.args) - 1} values", e.span, help="use `{}` once per value")
            return T.TEXT
        if len(e.args) != len(kinds):
            self.error("E203", f"`{e.func}` takes {len(kinds)} argument{'s' if len(kinds) != 1 else ''}, got {len(e.args)}", e.span)
            for a in e.args:
                self.infer(a.value, scope)
            return UNKNOWN if result == "same" else result
        first: Type = UNKNOWN
        for i, (a, k) in enumerate(zip(e.args, kinds)):
            if isinstance(k, str):
                t = self.infer(a.value, scope)
                ok = (
                    isinstance(t, T.UnknownT)
                    or k == "any"
                    or (k == "num" and T.is_numeric(t))
                    or (k == "text|list" and (T.fits(T.TEXT, t) or isinstance(T.base_of(t), ListT)))
                )
                if not ok:
                    self.error("E201", f"argument {i + 1} of `{e.func}` must be {k.replace('|', ' or ').replace('num', 'a number')}, found `{t}`", a.value.span)
            else:
                t = self.expect(a.value, k, scope, f"argument {i + 1} of `{e.func}`")
            if i == 0:
                first = t
        return first if result == "same" else result

    def _record_named(self, name: str, scope: Scope) -> RecordT | None:
        if scope.service is not None and name in scope.service.records:
            return scope.service.records[name]
        owners = self.record_owners.get(name, [])
        return owners[0].records[name] if len(owners) == 1 else None

    def _construct(self, e: A.Call, rec: RecordT, scope: Scope) -> Type:
        named = []
        for a in e.args:
            if a.name is None:
                self.error("E203", f"building a `{rec.name}` needs named fields: `{rec.name}(field: value, ...)`", a.span)
                self.infer(a.value, scope)
            else:
                named.append((a.name, a.value, a.span))
        given = self._check_named_fields(named, rec, scope, key_fixed=False)
        self._report_missing(rec, given, e.span, f"`{rec.name}(...)`", key_generated=False)
        return rec

    # ─────────────────────────── constraints and worlds ───────────────────────────

    def _check_constraint(self, c: A.ConstraintDecl, scope: Scope) -> None:
        for clause in c.clauses:
            self._check_clause(clause, scope)

    def _check_clause(self, clause: A.Clause, scope: Scope) -> None:
        if isinstance(clause, A.Untouched):
            table = self._table_from_path(clause.table, scope.service, clause.span, "E701")
            if table is None:
                if clause.where is not None:
                    self.infer(clause.where, scope)
                return
            inner = scope.bind(clause.var, table.record) if clause.var else attrs.evolve(scope, row=table.record)
            if clause.where is not None:
                self.expect_bool(clause.where, inner, "an `untouched` filter", "E703")
        elif isinstance(clause, A.ForallClause):
            table = self._table_from_path(clause.domain, scope.service, clause.span, "E701")
            inner = scope.bind(clause.var, table.record if table else UNKNOWN)
            if clause.where is not None:
                self.expect_bool(clause.where, inner, "a `where` filter", "E703")
            for c in clause.body:
                self._check_clause(c, inner)
        elif isinstance(clause, A.IfClause):
            self.expect_bool(clause.cond, scope, "an `if` condition", "E703")
            for c in clause.then + (clause.else_ or ()):
                self._check_clause(c, scope)
        elif isinstance(clause, A.Invariant):
            self.expect_bool(clause.expr, scope, "an invariant", "E703")
        elif isinstance(clause, A.OrderClause):
            first = self._tool_from_path(clause.tool, scope.service, clause.span)
            then = self._tool_from_path(clause.after, scope.service, clause.span)
            if first is None or then is None:
                return
            for name in clause.on:
                a = dict(first.params).get(name)
                b = dict(then.params).get(name)
                if a is None or b is None:
                    missing = first if a is None else then
                    self.error("E702", f"`on {name}`: tool `{missing.qualified}` has no parameter `{name}`", clause.span, help="`on` names a parameter that both tools take")
                elif not T.comparable(a, b):
                    self.error("E702", f"`on {name}`: the tools take `{name}` as `{a}` and `{b}`", clause.span)

    def _tool_from_path(self, path: tuple[str, ...], svc: Service | None, span: Span) -> Tool | None:
        if len(path) == 2:
            other = self.model.services.get(path[0])
            if other is None:
                self.error("E104", f"unknown service `{path[0]}`", span, help=self._hint(path[0], self.model.services))
                return None
            tool = other.tools.get(path[1])
            if tool is None:
                self.error("E108", f"service `{other.name}` has no tool `{path[1]}`", span, help=_suggest(path[1], other.tools))
            return tool
        if len(path) == 1:
            if svc is not None and path[0] in svc.tools:
                return svc.tools[path[0]]
            matches = self.tool_owners.get(path[0], [])
            if len(matches) == 1:
                return matches[0]
            if len(matches) > 1:
                self.error("E702", f"tool `{path[0]}` exists in several services", span, help="qualify it as `service.tool`")
                return None
        self.error("E108", f"unknown tool `{'.'.join(path)}`", span, help="name it as `service.tool`")
        return None

    def _check_worlds(self) -> None:
        for world in self.model.worlds:
            module = Path(world.module)
            mod = self.all_modules.get(module)
            names: set[str] = set()
            # services declared in the world's own file belong to it
            if mod is not None and mod.ast is not None:
                world.services.extend(i.name for i in mod.ast.items if isinstance(i, A.ServiceDecl) and i.name in self.model.services)
            in_world = set(world.services)
            # the module each `use` resolved to, by (use declaration, file stem): one pass over
            # the imports, not one per used module
            used_paths: dict[tuple[int, str], Path] = {}
            for p, node in mod.imports if mod else []:
                used_paths.setdefault((id(node), p.stem), p)
            for member in world.decl.members:
                if isinstance(member, A.UseDecl):
                    for i, dotted in enumerate(member.modules):
                        target = used_paths.get((id(member), dotted[-1]))
                        if target is None:
                            continue  # E501 already reported
                        used = self.all_modules[target]
                        declared = [i.name for i in (used.ast.items if used.ast else []) if isinstance(i, A.ServiceDecl)]
                        if not declared:
                            self.error("E104", f"module `{'.'.join(dotted)}` declares no service to use", member.span_of(i))
                        for s in declared:
                            if s not in in_world and s in self.model.services:
                                world.services.append(s)
                                in_world.add(s)
                elif isinstance(member, A.ConstraintDecl):
                    if member.name in names:
                        self.error("E111", f"constraint `{member.name}` is defined twice in world `{world.name}`", member.span)
                    names.add(member.name)
                    world.constraints.append(member)
                    self._check_constraint(member, Scope(module))

    def _check_top_constraints(self) -> None:
        for mod in self.modules:
            for item in mod.ast.items:
                if isinstance(item, A.ConstraintDecl):
                    self.model.constraints.append(item)
                    self._check_constraint(item, Scope(mod.path))


# ─────────────────────────── small helpers ───────────────────────────


def decl_records(modules) -> list[A.RecordDecl]:
    return [m for mod in modules for i in mod.ast.items if isinstance(i, A.ServiceDecl) for m in i.members if isinstance(m, A.RecordDecl)]


def _const_key(lit: A.Literal):
    if lit.kind in ("int", "decimal"):
        from decimal import Decimal

        return Decimal(str(lit.value))
    return str(lit.value)


def _is_literal(e: A.Expr) -> bool:
    if isinstance(e, A.Literal):
        return True
    if isinstance(e, A.Unary) and e.op == "-":
        return _is_literal(e.operand)
    if isinstance(e, A.ListLit):
        return all(_is_literal(i) for i in e.items)
    return False


def _is_scalar(svc: Service, name: str) -> bool:
    var = svc.state.get(name)
    return var is not None and not isinstance(var.type, TableT)


def _stmt_word(stmt) -> str:
    return {
        A.Let: "let",
        A.Insert: "insert",
        A.Update: "update",
        A.Delete: "delete",
        A.Set: "set",
        A.Return: "return",
        A.Modifies: "modifies",
        A.Ensures: "ensures",
    }[type(stmt)]


def _arith(op: str, a: Type, b: Type) -> Type | None:
    pa, pb = T.prim_name(a), T.prim_name(b)
    if pa is None or pb is None:
        return None
    if pa in T.NUMERIC and pb in T.NUMERIC:
        # an Amount plus 5 (or plus another Amount) is still an Amount, on either side
        if isinstance(a, Alias) and T.fits(a, b, literal=True):
            return a
        if isinstance(b, Alias) and T.fits(b, a, literal=True):
            return b
        if pa == pb == "int":
            return T.INT
        return T.MONEY if "money" in (pa, pb) else T.DECIMAL
    if op == "+" and pa == pb == "text":
        return T.TEXT
    if op in ("+", "-") and pa in ("date", "datetime", "time") and pb == "duration":
        return a
    if op == "+" and pa == "duration" and pb in ("date", "datetime", "time"):
        return b
    if op == "-" and pa == pb == "date":
        return T.DURATION
    if op == "-" and pa == pb and pa in ("datetime", "time"):
        return T.DURATION
    if op in ("+", "-") and pa == pb == "duration":
        return T.DURATION
    if op == "*" and {pa, pb} == {"duration", "int"}:
        return T.DURATION
    return None


def _arith_help(op: str, a: Type, b: Type) -> str | None:
    pa, pb = T.prim_name(a), T.prim_name(b)
    if "date" in (pa, pb) and pb in T.NUMERIC + ("date",) and pa in T.NUMERIC + ("date",):
        return "add a duration to a date: `d + days(3)`"
    if op == "+" and "text" in (pa, pb):
        return "join text with `+` on two texts, or use `format(\"{} {}\", a, b)`"
    return None


def _conversion_help(expected: Type, found: Type) -> str | None:
    if isinstance(found, Alias) and isinstance(expected, Alias):
        return f"`{found.name}` and `{expected.name}` are distinct nominal types"
    if isinstance(expected, Alias) and T.fits(T.base_of(expected), found):
        return f"`{expected.name}` is a distinct type; pass a value that is already a `{expected.name}`"
    if T.prim_name(expected) == "text" and T.prim_name(found) is not None:
        return "convert with `str(...)`"
    return None


def _derive_consumes(params: list[tuple[str, Type]]) -> list[Alias]:
    out: list[Alias] = []
    for _, t in params:
        for a in _aliases_in(t):
            if a not in out:
                out.append(a)
    return out


def _derive_produces(result: Type) -> list[Alias]:
    out: list[Alias] = []
    b = result.elem if isinstance(result, ListT) else result
    if isinstance(b, RecordT):
        for ft in b.fields.values():
            for a in _aliases_in(ft):
                if a not in out:
                    out.append(a)
    else:
        for a in _aliases_in(result):
            if a not in out:
                out.append(a)
    return out


def _aliases_in(t: Type) -> list[Alias]:
    if isinstance(t, Alias):
        return [t]
    if isinstance(t, ListT):
        return _aliases_in(t.elem)
    return []
