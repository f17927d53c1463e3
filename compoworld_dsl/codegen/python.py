"""Generate a readable Python module for a checked world: one class per service, one method per tool.
World text reaches the output only through `py_literal` (values), `safe_comment` (comments) and
`identifier` (names); the module never evaluates text taken from a `.world` file."""

from __future__ import annotations

import keyword
import os
import re
import types as pytypes
from fractions import Fraction
from pathlib import Path

from .. import __version__
from ..check import types as T
from ..check.clocks import volatile_state
from ..check.model import Model, Service, Tool
from ..resources import stdlib_dir
from ..runtime import values as V
from ..runtime.service import Service
from ..syntax import ast as A
from ..syntax.template import template_pieces as _template_pieces
from .layout import WIDTH, layout

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

# Python's operator precedence, loosest first: the expression printer puts an operand in
# parentheses only when its operator binds more loosely than its place needs.
_LAMBDA, _TERNARY, _OR, _AND, _NOT, _CMP, _ADD, _MUL, _UNARY, _ATOM = range(10)
_ARITH = {"+": _ADD, "-": _ADD, "*": _MUL}
_COMPLEMENT = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "in": "not in", "not in": "in", "contains": "not contains", "not contains": "contains"}


class CodegenError(Exception):
    """The model holds something the generator cannot express (a checker gap, not user error)."""


def tstr(t: T.Type | None) -> str | None:
    """The runtime's type descriptor for a checker type."""
    if t is None or isinstance(t, T.NoneT):
        return None
    if isinstance(t, T.Prim):
        return t.name
    if isinstance(t, T.Alias):
        return f"alias:{t.name}:{tstr(t.base)}"
    if isinstance(t, T.EnumT):
        return f"enum:{t.name}"
    if isinstance(t, T.RecordT):
        return f"record:{t.service}.{t.name}"
    if isinstance(t, T.ListT):
        return f"list:{tstr(t.elem)}"
    raise CodegenError(f"no runtime descriptor for type {t}")


def const_value(lit: A.Literal, t: T.Type) -> object:
    """A constant from the source, in the runtime's internal representation for type `t`."""
    base = T.prim_name(t)
    if lit.kind == "int":
        return Fraction(lit.value) if base in ("decimal", "money") else lit.value
    if lit.kind == "decimal":
        return Fraction(str(lit.value))
    if lit.kind == "date":
        return V.date_from_iso(str(lit.value))
    if lit.kind == "time":
        return V.time_from_iso(str(lit.value))
    if lit.kind == "datetime":
        return V.datetime_from_iso(str(lit.value))
    return lit.value  # string, bool, enum member name


def py_literal(value: object) -> str:
    """Python source for an internal value; `repr` makes any string safe to embed."""
    if isinstance(value, Fraction):
        return f"_F({value.numerator}, {value.denominator})" if value.denominator != 1 else f"_F({value.numerator})"
    if isinstance(value, tuple):
        return "(" + py_literal(value[0]) + ",)" if len(value) == 1 else "(" + ", ".join(py_literal(v) for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_literal(k)}: {py_literal(v)}" for k, v in value.items()) + "}"
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    raise CodegenError(f"cannot embed {type(value).__name__}")


def safe_comment(text: str) -> str:
    """One line of text fit for a `#` comment: no newlines or other control characters."""
    return "".join(c if c.isprintable() else "?" for c in text)[:200]


def class_name(service: str, taken: set[str]) -> str:
    base = "".join(p[:1].upper() + p[1:] for p in service.split("_") if p) or "Service"
    name = base + "Service" if not base.endswith("Service") else base
    if not _IDENT.match(name) or keyword.iskeyword(name):
        name = "Service_" + str(len(taken))
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def identifier(name: str) -> str:
    """A `.world` name checked before it becomes part of a Python identifier: the grammar admits
    only ASCII names, and this refuses anything else that might reach here (a model built
    without the parser). Callers prefix or rename names that are Python keywords."""
    if not _IDENT.match(name):
        raise CodegenError(f"{name[:80]!r} is not a name the generator can use")
    return name


# Attributes of a generated service class that a tool's method must not shadow: the base class's
# own, and those the generator or `CompiledWorld` set on each class or instance.
_SERVICE_ATTRS = frozenset(dir(Service)) | {"name", "description", "source", "tools", "modifies", "simulator", "simulate"}


def method_name(tool: str) -> str:
    """Tools keep their own names as methods unless that would clash with Python or the base class."""
    identifier(tool)
    if keyword.iskeyword(tool) or tool.startswith("_") or tool in _SERVICE_ATTRS or tool.startswith("tool_"):
        return "tool_" + tool
    return tool


def local(name: str) -> str:
    return "v_" + identifier(name)


def _minus(operand: str) -> str:
    """`-x` of an operand printed at unary level (`-(-x)` rather than `--x`)."""
    return f"-({operand})" if operand.startswith("-") else "-" + operand


class Locations:
    """Where a `.world` line is, as generated code and source maps name it: a stdlib file by name
    (`stdlib:crm/accounts.world:12`), any other relative to the folder of the world compiled
    (`legal_ops.world:6`). Never a path of the compiling machine, so that a world compiles to
    the same bytes on any machine and from any working folder."""

    def __init__(self, source: str):
        self.folder = _real(source).parent
        self.stdlib = _real(str(stdlib_dir()))
        self.names: dict[str, str] = {}

    def file(self, name: str) -> str:
        """`name`, a file as the checker's spans give it (relative to the working folder, or absolute)."""
        found = self.names.get(name)
        if found is None:
            path = _real(name)
            if path.is_relative_to(self.stdlib):
                found = "stdlib:" + path.relative_to(self.stdlib).as_posix()
            else:
                try:
                    found = Path(os.path.relpath(path, self.folder)).as_posix()
                except ValueError:  # on another drive (Windows): no relative path exists
                    found = path.name
            self.names[name] = found
        return found

    def at(self, span) -> str:
        return f"{self.file(span.file)}:{span.line}"


def _real(name: str) -> Path:
    try:
        return Path(name).resolve()
    except (OSError, ValueError, RuntimeError):  # a name no file system takes: as written
        return Path(os.path.abspath(name))


class _Tool:
    """Per-tool (or per-constraint) compilation context: local names and their types."""

    def __init__(self, gen: "PythonGenerator", svc: Service | None, tool: Tool | None):
        self.gen = gen
        self.svc = svc
        self.tool = tool
        self.locals: dict[str, T.Type] = dict(tool.params) if tool else {}
        self.row: tuple[str, T.RecordT] | None = None  # short-form `untouched`: bare names are fields
        self.state = "tx"  # the Python name expressions read state through
        self.tmp = 0

    def fresh(self, stem: str) -> str:
        self.tmp += 1
        return f"_{stem}{self.tmp}"


class PythonGenerator:
    def __init__(self, model: Model, source: str = "<memory>", width: int | None = WIDTH):
        self.model = model
        self.source = source
        self.width = width  # None: one statement a line, however long
        self.where = Locations(source)
        world = model.world
        self.service_names = list(world.services) if world else list(model.services)
        self.consts: dict[str, str] = {}  # constant expression → module-level name

    # ─────────────────────────── module ───────────────────────────

    def generate(self) -> str:
        world = self.model.world
        body: list[str] = []
        taken: set[str] = set()
        classes = []
        for sname in self.service_names:
            svc = self.model.services[sname]
            cname = class_name(sname, taken)
            classes.append(cname)
            body.extend(self._service(svc, cname))
        constraints = self._constraints()  # before the head: it may add hoisted constants
        head = [
            # The docstring holds no text from the world or its path: those go in comments below.
            f'"""A world generated by worldc {__version__}. Do not edit: change the .world files and compile again.',
            "",
            "Each class is one service and each method one tool; the comment above each names the",
            ".world line it came from.",
            '"""',
            "",
            f"# world: {safe_comment(world.name) if world else '(no world)'}",
            f"# from: {safe_comment(self.where.file(self.source))}",
            "",
            "from fractions import Fraction as _F",
            "",
            "from compoworld_dsl.runtime import service as _rt",
            "from compoworld_dsl.runtime import values as _v",
            "from compoworld_dsl.runtime.service import ToolError as _ToolError",
            "from compoworld_dsl.runtime.world import CompiledWorld as _CompiledWorld",
            "",
        ]
        if self.consts:
            head.append("# Constants written in the .world files, in the runtime's representation.")
            for expr, name in self.consts.items():
                head.append(f"{name} = {expr}")
            head.append("")
        head += self._types()
        arguments = [
            f"name={py_literal(world.name if world else '')}",
            f"description={py_literal((world.description or '') if world else '')}",
            f"services=[{', '.join(classes)}]",
            "types=TYPES",
            "state=STATE",
            "seeds=SEEDS",
            f"source={py_literal(self.where.file(self.source))}",
            "constraints=CONSTRAINTS",
            "volatile=VOLATILE",
        ]
        tail = constraints + ["", f"WORLD = _CompiledWorld({', '.join(arguments)})", ""]
        text = "\n".join(head + body + self._state_and_seeds() + tail)
        return layout(text, self.width) if self.width else text

    def _types(self) -> list[str]:
        enums = {e.name: e.members for e in self.model.enums.values()}
        records, keys = {}, {}
        for s in self.model.services.values():
            for r in s.records.values():
                records[f"{s.name}.{r.name}"] = {f: tstr(ft) for f, ft in r.fields.items()}
                keys[f"{s.name}.{r.name}"] = r.key
        return [f"TYPES = _rt.Types(enums={py_literal(enums)}, records={py_literal(records)}, keys={py_literal(keys)})"]

    def _state_and_seeds(self) -> list[str]:
        state: dict[str, dict] = {}
        seeds: dict[str, dict] = {}
        for sname in self.service_names:
            svc = self.model.services[sname]
            for var in svc.state.values():
                q = f"{sname}.{var.name}"
                if isinstance(var.type, T.TableT):
                    rec = var.type.record
                    state[q] = {
                        "kind": "table",
                        "record": f"{rec.service}.{rec.name}",
                        "key": rec.key,
                        "prefix": rec.name.lower(),
                        "defaults": {f: const_value(d, rec.fields[f]) for f, d in rec.defaults.items()},
                    }
                    if var.retracted is not None:  # the field and the value that mark a row withdrawn
                        field, lit = var.retracted
                        state[q]["retracted"] = [field, True if lit is None else const_value(lit, rec.fields[field])]
                    if var.retracted_with is not None:  # withdrawn with the row this field names
                        state[q]["retracted_with"] = list(var.retracted_with)
                else:
                    state[q] = {
                        "kind": "scalar",
                        "type": tstr(var.type),
                        "default": const_value(var.default, var.type) if var.default is not None else None,
                    }
            for seed in svc.seeds.values():
                var = svc.state.get(seed.name)
                if var is None:
                    continue
                q = f"{sname}.{seed.name}"
                if isinstance(var.type, T.TableT):
                    rec = var.type.record
                    refs = [".".join(_ref_path(g.path, sname)) for f in seed.rows for g in A.seed_parts(f.gen) if isinstance(g, A.GenRef)]
                    fields = {f.name: self._gen(f.gen, rec.fields[f.name], sname, rec) for f in seed.rows}
                    refs += [table for f in seed.rows for g in A.seed_parts(f.gen) if isinstance(g, A.GenSame) for table, _ in self._hops(g, rec)[0]]  # seeded first
                    seeds[q] = {
                        "count": self._gen(seed.gen, T.INT, sname),
                        "fields": fields,
                        "refs": sorted(set(refs)),
                    }
                    if seed.profiles:  # (only then: the seeds of other worlds compile to the same text)
                        seeds[q]["profiles"] = [{f.name: const_value(f.value, rec.fields[f.name]) for f in p.fields} for p in self.model.pools[seed.profiles].values]
                    if seed.distinct:  # (likewise)
                        seeds[q]["distinct"] = list(seed.distinct)
                else:
                    seeds[q] = {"gen": self._gen(seed.gen, var.type, sname), "refs": []}
        scalars, fields = volatile_state(self.model)
        volatile = {"scalars": sorted(scalars), "fields": {t: sorted(fs) for t, fs in sorted(fields.items())}}
        return [
            "",
            f"STATE = {py_literal(state)}",
            "",
            f"SEEDS = {py_literal(seeds)}",
            "",
            "# State a clock or counter decides (check/clocks.py): checked by relation, not by value.",
            f"VOLATILE = {py_literal(volatile)}",
        ]

    def _same(self, g: A.GenSame, rec) -> tuple:
        """("same", first field, ((table, field), ...)): the row's own field, then each field
        of the row the value before refers to (the checker resolved every step)."""
        return ("same", g.path[0], self._hops(g, rec)[0])

    def _hops(self, g: A.GenSame, rec) -> tuple[tuple, T.Type]:
        """((table, field), ...) that `same(a.b.c)` follows, and the type of what it ends on."""
        hops = []
        t = rec.fields[g.path[0]]
        for name in g.path[1:]:
            table = next(
                f"{s}.{n}"
                for s, svc in self.model.services.items()
                for n, v in svc.state.items()
                if isinstance(v.type, T.TableT) and v.type.record.key and str(v.type.record.fields[v.type.record.key]) == str(t)
            )
            hops.append((table, name))
            svc_name, state_name = table.split(".")
            t = self.model.services[svc_name].state[state_name].type.record.fields[name]
        return tuple(hops), t

    def _gen(self, g: A.SeedGen, t: T.Type, sname: str, rec=None) -> tuple:
        """The generator as a tuple `runtime/world.py` compiles; `rec`, the record of the row a
        table seed fills (for the `same(...)` it holds)."""
        if isinstance(g, A.GenSame):
            return self._same(g, rec)
        if isinstance(g, A.GenAfter):
            # ("after" or "before", the sames, the kinds they read, the field's kind, (lo, hi)
            # whole days or None, (lo, hi) bounds or None)
            sames = tuple(self._same(a, rec) for a in g.args)
            followed = tuple(T.prim_name(self._hops(a, rec)[1]) for a in g.args)
            word, kind = "before" if g.before else "after", T.prim_name(t)
            if g.lo.kind != "int":
                return (word, sames, followed, kind, None, (const_value(g.lo, t), const_value(g.hi, t)))
            bounds = None if g.within is None else (const_value(g.within[0], t), const_value(g.within[1], t))
            return (word, sames, followed, kind, (g.lo.value, g.hi.value), bounds)
        if isinstance(g, A.GenSlug):
            at = self._hops(g.arg, rec)[1] if isinstance(g.arg, A.GenSame) else _natural_type(g.arg, self.model)
            return ("slug", self._gen(g.arg, at, sname, rec), tstr(at) or "text", g.sep)
        if isinstance(g, A.GenConst):
            return ("const", const_value(g.value, t))
        if isinstance(g, A.GenRange):
            kind = T.prim_name(t) or {"int": "int", "decimal": "decimal", "date": "date", "time": "time", "datetime": "datetime"}[g.lo.kind]
            if isinstance(t, T.UnknownT):
                t = T.Prim(kind)
            return ("range", const_value(g.lo, t), const_value(g.hi, t), kind)
        if isinstance(g, A.GenPickPool):
            return ("pick", tuple(const_value(v, t) for v in self.model.pools[g.pool].values))
        if isinstance(g, A.GenPickList):
            return ("pick", tuple(const_value(v, t) for v in g.values))
        if isinstance(g, A.GenWeighted):
            return ("weighted", tuple((const_value(w.value, t), w.weight) for w in g.weights))
        if isinstance(g, A.GenRef):
            table = ".".join(_ref_path(g.path, sname))
            if g.matches is not None:
                # ("match", unique, target table, its field, the `same` whose value it equals)
                return ("match", g.unique, table, g.matches[0], self._same(g.matches[1], rec))
            if g.where is None:
                return ("uref" if g.unique else "ref", table)
            f, values = g.where
            wt = self._table_record(table).fields[f]
            return ("uref" if g.unique else "ref", table, (f, tuple(const_value(v, wt) for v in values)))
        if isinstance(g, A.GenFormat):
            pieces = _template_pieces(g.template)
            gens, gtypes = [], []
            for a in g.args:
                at = self._hops(a, rec)[1] if isinstance(a, A.GenSame) else _natural_type(a, self.model)
                gens.append(self._gen(a, at, sname, rec))
                gtypes.append(tstr(at) or "text")
            return ("format", tuple(p for p in pieces if isinstance(p, str)), tuple(gens), tuple(gtypes))
        raise CodegenError(f"unknown generator {type(g).__name__}")

    # ─────────────────────────── constraints ───────────────────────────

    def constraint_list(self) -> list[tuple[str, A.ConstraintDecl, Service | None]]:
        """Every constraint of the world: its own, then those of its services, by qualified name."""
        out = []
        world = self.model.world
        for c in world.constraints if world else []:
            out.append((c.name, c, None))
        for sname in self.service_names:
            svc = self.model.services[sname]
            for c in svc.constraints:
                out.append((f"{sname}.{c.name}", c, svc))
        return out

    def _constraints(self) -> list[str]:
        """One function per constraint: `(before, after)` → (rows that must stay untouched,
        [(label, holds)] for invariants). Conditions, `forall` domains and `untouched` filters read
        the state before the episode (a row added since is judged by its own fields); invariants
        read the state after it. A row listed as untouched that `before` lacks was added."""
        out = ["", ""]
        entries = []
        for i, (name, c, svc) in enumerate(self.constraint_list()):
            fn = f"_constraint_{i}"
            ctx = _Tool(self, svc, None)
            out.append(f"# {safe_comment(self.where.at(c.span))}  constraint {safe_comment(name)}")
            out.append(f"def {fn}(before, after):")
            out.append("    untouched = []")
            out.append("    invariants = []")
            if _clauses_of(c, A.Untouched):
                # the rows each protected table gained, found once a check (`_rt.AddedRows`),
                # however many records a `forall` protects
                out.append("    added = _rt.AddedRows(before, after)")
            for clause in c.clauses:
                out.extend("    " + line for line in self._clause(clause, ctx, [0]))
            out.append("    return untouched, invariants")
            out.append("")
            orders = [(".".join(o.tool), ".".join(o.after), o.on) for o in _clauses_of(c, A.OrderClause)]
            entries.append(
                f"{py_literal(name)}: _rt.Constraint({py_literal(name)}, {py_literal((c.description or ''))}, {py_literal(self.where.at(c.span))}, {fn}, {py_literal(tuple(orders))})"
            )
        out.append("CONSTRAINTS = {" + ", ".join(entries) + "}")
        return out

    def _keyed(self, where: A.Expr, ctx: _Tool, row: str, rec: T.RecordT, var: str | None) -> tuple[str, str, str] | None:
        """(field, value, the rest of the filter) where an `untouched` filter starts with
        `field == value`: a plain field of the row (text, number, moment, flag or choice) equal
        to a variable of the rule or its field (`matter == m.id`), which reads no row and cannot
        fail. Its rows are then those of an index (`Tx.rows_where`), in the table's order, and the
        rest of the filter (what followed `and`, Python for it, or "") is read only on those, as
        `and` reads it. None for any other filter."""
        parts = []
        while isinstance(where, A.Binary) and where.op == "and":
            parts.append(where.right)
            where = where.left
        if not (isinstance(where, A.Binary) and where.op == "=="):
            return None
        for mine, other in ((where.left, where.right), (where.right, where.left)):
            target = other.obj if isinstance(other, A.Field) else other
            if not isinstance(target, A.Var) or target.name not in ctx.locals or target.name == var:
                continue  # not a variable of the rule (the row itself, a table, a call...)
            if ctx.row is not None and target.name in ctx.row[1].fields:
                continue  # a bare name here is the row's own field
            field = next((f for f in rec.fields if self.ex(mine, ctx, _ATOM) == f"{row}[{py_literal(f)}]"), None)
            if field is None or isinstance(T.base_of(rec.fields[field]), (T.ListT, T.RecordT)):
                continue
            value = self.ex(other, ctx, _LAMBDA)
            if re.search(rf"\b{re.escape(row)}\b", value):
                continue
            rest = " and ".join(self.ex(p, ctx, _NOT) for p in reversed(parts))
            return field, value, rest
        return None

    def _clause(self, clause: A.Clause, ctx: _Tool, counter: list[int]) -> list[str]:
        if isinstance(clause, A.Untouched):
            table = ".".join(clause.table) if len(clause.table) == 2 else f"{ctx.svc.name}.{clause.table[0]}"
            rec = self._table_record(table)
            row = local(clause.var) if clause.var else ctx.fresh("row")
            saved_row = ctx.row
            if clause.var:
                ctx.locals[clause.var] = rec
            else:
                ctx.row = (row, rec)
            ctx.state = "before"
            test = self.ex(clause.where, ctx, _OR) if clause.where is not None else None
            keyed = self._keyed(clause.where, ctx, row, rec, clause.var) if clause.where is not None else None
            ctx.row = saved_row
            if clause.var:
                del ctx.locals[clause.var]
            # the rows it selects before, and any row added since that it would select: a new
            # disbursement on a closed matter touches the matter's disbursements (D22)
            tbl, key = py_literal(table), py_literal(rec.key)
            cond = f" if {test}" if test is not None else ""
            rows = f"before.table({tbl}).values(){cond}"
            if keyed is not None:  # `where matter == m.id`: the rows of that matter, from an index
                field, value, rest = keyed
                rows = f"before.rows_where({tbl}, {py_literal(field)}, {value})" + (f" if {rest}" if rest else "")
            return [
                f"untouched.extend(({tbl}, {row}[{key}]) for {row} in {rows})  # line {clause.span.line}",
                f"if added[{tbl}]:",
                f"    untouched.extend(({tbl}, {row}[{key}]) for {row} in added[{tbl}]{cond})",
            ]
        if isinstance(clause, A.ForallClause):
            table = ".".join(clause.domain) if len(clause.domain) == 2 else f"{ctx.svc.name}.{clause.domain[0]}"
            rec = self._table_record(table)
            ctx.locals[clause.var] = rec
            lines = [f"for {local(clause.var)} in before.table({py_literal(table)}).values():  # line {clause.span.line}"]
            body_indent = "    "
            if clause.where is not None:
                ctx.state = "before"
                lines.append(f"    if {self.negated(clause.where, ctx, test=True)}:")
                lines.append("        continue")
            for c in clause.body:
                lines.extend(body_indent + line for line in self._clause(c, ctx, counter))
            lines.append("    pass")
            del ctx.locals[clause.var]
            return lines
        if isinstance(clause, A.IfClause):
            ctx.state = "before"
            lines = [f"if {self.ex(clause.cond, ctx)}:  # line {clause.span.line}"]
            for c in clause.then:
                lines.extend("    " + line for line in self._clause(c, ctx, counter))
            lines.append("    pass")
            if clause.else_:
                lines.append("else:")
                for c in clause.else_:
                    lines.extend("    " + line for line in self._clause(c, ctx, counter))
                lines.append("    pass")
            return lines
        if isinstance(clause, A.Invariant):
            counter[0] += 1
            ctx.state = "after"
            return [f"invariants.append(({py_literal(f'invariant {counter[0]} (line {clause.span.line})')}, bool({self.ex(clause.expr, ctx)})))"]
        if isinstance(clause, A.OrderClause):
            return []  # a rule about the call log, not the state: listed in CONSTRAINTS
        raise CodegenError(f"unknown clause {type(clause).__name__}")

    def _table_record(self, table: str) -> T.RecordT:
        sname, tname = table.split(".", 1)
        t = self.model.services[sname].state[tname].type
        assert isinstance(t, T.TableT)
        return t.record

    def const(self, value: object, comment: str) -> str:
        expr = py_literal(value)
        if isinstance(value, (int, str, bool)) and not comment:
            return expr
        key = expr + "  # " + safe_comment(comment)
        name = self.consts.get(key)
        if name is None:
            name = f"_C{len(self.consts)}"
            self.consts[key] = name
        return name

    # ─────────────────────────── services and tools ───────────────────────────

    def _service(self, svc: Service, cname: str) -> list[str]:
        span = svc.decl.span
        out = [
            "",
            "",
            f"# {safe_comment(self.where.at(span))}  service {svc.name}",
            f"class {cname}(_rt.Service):",
            f"    name = {py_literal(svc.name)}",
            f"    description = {py_literal((svc.description or ''))}",
            f"    source = {py_literal(self.where.at(span))}",
        ]
        modifies = {}
        for tool in svc.tools.values():
            entries = []
            for st in tool.decl.body:
                if isinstance(st, A.Modifies) and isinstance(svc.state[st.table].type, T.TableT):
                    rec = svc.state[st.table].type.record
                    entries.append((f"{svc.name}.{st.table}", st.fields or tuple(f for f in rec.fields if f != rec.key), tstr(rec.fields[rec.key])))
            if entries:
                modifies[tool.name] = tuple(entries)
        if modifies:
            out.append(f"    modifies = {py_literal(modifies)}")
        for tool in svc.tools.values():
            out.append("")
            out.extend("    " + line if line else "" for line in self._tool(svc, tool))
        return out

    def _tool(self, svc: Service, tool: Tool) -> list[str]:
        ctx = _Tool(self, svc, tool)
        decl = tool.decl
        defaults = {p.name: const_value(p.default, dict(tool.params)[p.name]) for p in decl.params if p.default is not None}
        spec = [
            f"name={py_literal(tool.name)}",
            f"description={py_literal((decl.description or ''))}",
            f"say={py_literal(decl.say)}",
            f"params={py_literal(tuple((n, tstr(t)) for n, t in tool.params))}",
            f"defaults={py_literal(defaults)}",
            f"result={py_literal(tstr(tool.result))}",
            f"simulated={py_literal(decl.simulated)}",
            f"consumes={py_literal(tuple(a.name for a in tool.consumes))}",
            f"produces={py_literal(tuple(a.name for a in tool.produces))}",
            f"source={py_literal(self.where.at(decl.span))}",
        ]
        if decl.pages is not None:
            spec.append(f"pages={decl.pages}")  # a list answered a page at a time (the gateway pages it)
        out = [f"# {safe_comment(self.where.at(decl.span))}  tool {tool.name}"]
        out.append("@_rt.tool(" + ", ".join(spec) + ")")
        params = "".join(f", {local(n)}" for n, _ in tool.params)
        out.append(f"def {method_name(tool.name)}(self, tx{params}):")
        body: list[str] = []
        for stmt in decl.body:
            if not isinstance(stmt, A.Ensures):
                body.extend(self._stmt(stmt, ctx))
        if decl.simulated:
            # The simulator answers; its answer must keep the tool's `ensures` contract.
            body.append(f"v_result = self.simulate(tx, {py_literal(tool.name)}, {{{', '.join(f'{py_literal(n)}: {local(n)}' for n, _ in tool.params)}}})")
            ctx.locals["result"] = tool.result
            for stmt in decl.body:
                if isinstance(stmt, A.Ensures):
                    body.append(f"if {self.negated(stmt.cond, ctx, test=True)}:  # line {stmt.span.line}")
                    body.append(f"    raise _ToolError('invalid', {py_literal(f'the simulator broke the contract of {tool.name} (line {stmt.span.line})')})")
            body.append("return v_result")
        if not body:
            body.append("return None")
        out.extend("    " + line for line in body)
        return out

    # ─────────────────────────── statements ───────────────────────────

    def _stmt(self, s: A.Stmt, ctx: _Tool) -> list[str]:
        where = f"# line {s.span.line}"
        if isinstance(s, A.Require):
            msg = self.message(s.message, ctx)
            return [f"if {self.negated(s.cond, ctx, test=True)}:  {where}", f"    raise _ToolError({py_literal(s.kind)}, {msg})"]
        if isinstance(s, A.Let):
            ctx.locals[s.name] = self.model.type_of(s.value)
            return [f"{local(s.name)} = {self.ex(s.value, ctx)}  {where}"]
        if isinstance(s, A.Insert):
            return self._insert(s, ctx, where)
        if isinstance(s, A.Update):
            return self._update(s, ctx, where)
        if isinstance(s, A.Delete):
            table = f"{ctx.svc.name}.{s.target.table}"
            rec = self._record_of(ctx.svc, s.target.table)
            if isinstance(s.target, A.KeyTarget):
                k = ctx.fresh("k")
                return [
                    f"{k} = {self.ex(s.target.key, ctx)}  {where}",
                    f"_rt.lookup(tx, {py_literal(table)}, {k}, {py_literal(rec.name)})",
                    f"tx.remove({py_literal(table)}, {k})",
                ]
            var = local(s.target.var)
            ctx.locals[s.target.var] = rec
            keys = ctx.fresh("keys")
            return [
                f"{keys} = [{var}[{py_literal(rec.key)}] for {var} in {self._each(f'tx.rows({py_literal(table)})', ctx)} if {self.ex(s.target.where, ctx, _OR)}]  {where}",
                f"for _k in {keys}:",
                f"    tx.remove({py_literal(table)}, _k)",
            ]
        if isinstance(s, A.Set):
            return [f"tx.set_scalar({py_literal(f'{ctx.svc.name}.{s.name}')}, {self.ex(s.value, ctx)})  {where}"]
        if isinstance(s, A.Return):
            return [f"return {self.ex(s.value, ctx)}  {where}"]
        if isinstance(s, (A.Modifies, A.Ensures)):
            return []  # contracts of simulated tools: enforced by the simulator
        raise CodegenError(f"unknown statement {type(s).__name__}")

    def _record_of(self, svc: Service, table: str) -> T.RecordT:
        t = svc.state[table].type
        assert isinstance(t, T.TableT)
        return t.record

    def _insert(self, s: A.Insert, ctx: _Tool, where: str) -> list[str]:
        table = f"{ctx.svc.name}.{s.table}"
        rec = self._record_of(ctx.svc, s.table)
        given = {fi.name: fi.value for fi in s.fields}
        row = ctx.fresh("row")
        out = []
        items = []
        for f, ft in rec.fields.items():
            if f in given:
                items.append(f"{py_literal(f)}: {self.ex(given[f], ctx)}")
            elif f in rec.defaults:
                items.append(f"{py_literal(f)}: {self.const(const_value(rec.defaults[f], ft), rec.defaults[f].kind if rec.defaults[f].kind in ('date', 'time', 'datetime', 'decimal') else '')}")
            elif isinstance(T.base_of(ft), T.ListT):
                items.append(f"{py_literal(f)}: ()")
        out.append(f"{row} = {{{', '.join(items)}}}  {where}")
        if rec.key not in given:
            out.append(f"{row}[{py_literal(rec.key)}] = _rt.next_id(tx, {py_literal(table)}, {py_literal(rec.name.lower())})")
        out.append(f"if tx.has({py_literal(table)}, {row}[{py_literal(rec.key)}]):")
        out.append(f"    raise _ToolError('conflict', {py_literal(f'{rec.name} ')} + str({row}[{py_literal(rec.key)}]) + ' already exists')")
        out.append(f"tx.put({py_literal(table)}, {row}[{py_literal(rec.key)}], {row})")
        if s.bind:
            ctx.locals[s.bind] = rec
            out.append(f"{local(s.bind)} = {row}")
        return out

    def _update(self, s: A.Update, ctx: _Tool, where: str) -> list[str]:
        table = f"{ctx.svc.name}.{s.target.table}"
        rec = self._record_of(ctx.svc, s.target.table)
        if isinstance(s.target, A.KeyTarget):
            k, old = ctx.fresh("k"), ctx.fresh("old")
            fields = ", ".join(f"{py_literal(fi.name)}: {self.ex(fi.value, ctx)}" for fi in s.fields)
            return [
                f"{k} = {self.ex(s.target.key, ctx)}  {where}",
                f"{old} = _rt.lookup(tx, {py_literal(table)}, {k}, {py_literal(rec.name)})",
                f"tx.put({py_literal(table)}, {k}, {{**{old}, {fields}}})",
            ]
        var = local(s.target.var)
        ctx.locals[s.target.var] = rec
        fields = ", ".join(f"{py_literal(fi.name)}: {self.ex(fi.value, ctx)}" for fi in s.fields)
        news = ctx.fresh("new")
        # every new row is computed from the old state before any is stored
        return [
            f"{news} = [{{**{var}, {fields}}} for {var} in {self._each(f'tx.rows({py_literal(table)})', ctx)} if {self.ex(s.target.where, ctx, _OR)}]  {where}",
            f"for _r in {news}:",
            f"    tx.put({py_literal(table)}, _r[{py_literal(rec.key)}], _r)",
        ]

    def message(self, template: str, ctx: _Tool) -> str:
        parts = []
        for piece in _template_pieces(template):
            if isinstance(piece, str):
                if piece:
                    parts.append(py_literal(piece))
                continue
            path = piece[0]
            t = ctx.locals.get(path[0])
            expr = local(path[0])
            for f in path[1:]:
                rec = T.base_of(t)
                t = rec.fields[f] if isinstance(rec, T.RecordT) else T.UNKNOWN
                expr += f"[{py_literal(f)}]"
            parts.append(f"_rt.text({expr}, {py_literal(tstr(t))}, TYPES)")
        return " + ".join(parts) if parts else "''"

    # ─────────────────────────── expressions ───────────────────────────

    def ex(self, e: A.Expr, ctx: _Tool, level: int = _LAMBDA) -> str:
        """Python for `e`, in parentheses only if its operator binds less tightly than the place
        it goes needs (`level`)."""
        text, own = getattr(self, "ex_" + type(e).__name__)(e, ctx)
        return f"({text})" if own < level else text

    def negated(self, e: A.Expr, ctx: _Tool, level: int = _LAMBDA, test: bool = False) -> str:
        """Python for `not e`, said as a person would: a comparison turns into its complement
        (`x not in t`, `n <= 0`). That is exact: `!=` and `not in` are by definition the negations
        of `==` and `in`, and the checker admits `<` only on numbers, text and moments, which are
        totally ordered. In an `if` (`test`), `not not x` is `x`."""
        if test and isinstance(e, A.Unary) and e.op == "not":
            return self.ex(e.operand, ctx, level)
        if isinstance(e, A.Binary) and e.op in _COMPLEMENT:
            text, own = self._compare(e, _COMPLEMENT[e.op], ctx)
        else:
            text, own = f"not {self.ex(e, ctx, _NOT)}", _NOT
        return f"({text})" if own < level else text

    def ex_Literal(self, e: A.Literal, ctx: _Tool) -> tuple[str, int]:
        t = self.model.type_of(e) or T.UNKNOWN
        if e.kind in ("date", "time", "datetime", "decimal"):
            return self.const(const_value(e, t), f"{e.value}"), _ATOM
        text = py_literal(const_value(e, t))
        return text, _UNARY if text.startswith("-") else _ATOM

    def _table_ref(self, e: A.Expr, ctx: _Tool) -> str | None:
        """'service.table' when `e` names a state table, else None."""
        if isinstance(e, A.Var) and e.name not in ctx.locals and ctx.svc is not None and e.name in ctx.svc.state:
            return f"{ctx.svc.name}.{e.name}"
        if isinstance(e, A.Field) and isinstance(self.model.type_of(e.obj), T.ServiceRef):
            return f"{self.model.type_of(e.obj).name}.{e.name}"
        return None

    def ex_Var(self, e: A.Var, ctx: _Tool) -> tuple[str, int]:
        if ctx.row is not None and e.name in ctx.row[1].fields:
            return f"{ctx.row[0]}[{py_literal(e.name)}]", _ATOM  # the checker resolves row fields first, too
        if e.name in ctx.locals:
            return local(e.name), _ATOM
        table = self._table_ref(e, ctx)
        if table is not None:
            var = ctx.svc.state[e.name]
            if isinstance(var.type, T.TableT):
                return f"{ctx.state}.table({py_literal(table)})", _ATOM
            return f"{ctx.state}.scalar({py_literal(table)})", _ATOM
        t = self.model.type_of(e)
        if isinstance(t, T.EnumT):
            return py_literal(e.name), _ATOM
        raise CodegenError(f"cannot compile name {e.name} at {e.span}")

    def ex_Field(self, e: A.Field, ctx: _Tool) -> tuple[str, int]:
        ot = self.model.type_of(e.obj)
        if isinstance(ot, T.ServiceRef):
            svc = self.model.services[ot.name]
            kind = "table" if isinstance(svc.state[e.name].type, T.TableT) else "scalar"
            return f"{ctx.state}.{kind}({py_literal(f'{ot.name}.{e.name}')})", _ATOM
        if isinstance(ot, T.EnumRef):
            return py_literal(e.name), _ATOM
        return f"{self.ex(e.obj, ctx, _ATOM)}[{py_literal(e.name)}]", _ATOM

    def ex_Index(self, e: A.Index, ctx: _Tool) -> tuple[str, int]:
        ot = self.model.type_of(e.obj)
        if isinstance(ot, T.TableT):
            table = self._table_ref(e.obj, ctx)
            return f"_rt.lookup({ctx.state}, {py_literal(table)}, {self.ex(e.key, ctx)}, {py_literal(ot.record.name)})", _ATOM
        return f"_rt.list_at({self.ex(e.obj, ctx)}, {self.ex(e.key, ctx)})", _ATOM

    def ex_ListLit(self, e: A.ListLit, ctx: _Tool) -> tuple[str, int]:
        items = [self.ex(i, ctx, _TERNARY) for i in e.items]
        return ("(" + items[0] + ",)" if len(items) == 1 else "(" + ", ".join(items) + ")"), _ATOM

    def ex_Unary(self, e: A.Unary, ctx: _Tool) -> tuple[str, int]:
        if e.op == "not":
            text = self.negated(e.operand, ctx)
            return text, _CMP if isinstance(e.operand, A.Binary) and e.operand.op in _COMPLEMENT else _NOT
        return _minus(self.ex(e.operand, ctx, _UNARY)), _UNARY

    def ex_Cond(self, e: A.Cond, ctx: _Tool) -> tuple[str, int]:
        return f"{self.ex(e.then, ctx, _OR)} if {self.ex(e.test, ctx, _OR)} else {self.ex(e.else_, ctx, _TERNARY)}", _TERNARY

    def _compare(self, e: A.Binary, op: str, ctx: _Tool) -> tuple[str, int]:
        """`e`'s operands compared with `op` (comparisons never chain: both sides bind tighter)."""
        a, b = self.ex(e.left, ctx, _CMP + 1), self.ex(e.right, ctx, _CMP + 1)
        if op in ("contains", "not contains"):
            return f"{b} {'not in' if op == 'not contains' else 'in'} {a}", _CMP
        return f"{a} {op} {b}", _CMP

    def ex_Binary(self, e: A.Binary, ctx: _Tool) -> tuple[str, int]:
        op = e.op
        if op in ("and", "or"):
            own = _AND if op == "and" else _OR
            # a chain written left to right needs no parentheses; `and` inside `or` keeps them,
            # for the reader
            left = _NOT if op == "or" and isinstance(e.left, A.Binary) and e.left.op == "and" else own
            return f"{self.ex(e.left, ctx, left)} {op} {self.ex(e.right, ctx, _NOT)}", own
        if op == "implies":
            return f"{self.negated(e.left, ctx, _OR)} or {self.ex(e.right, ctx, _NOT)}", _OR
        if op in _COMPLEMENT:
            return self._compare(e, op, ctx)
        lt, rt = T.prim_name(self.model.type_of(e.left)), T.prim_name(self.model.type_of(e.right))
        shift = {"date": "_v.add_days", "time": "_v.time_add", "datetime": "_v.add_minutes"}
        if op in ("/", "%") or (op in ("+", "-") and lt in shift and rt == "duration") or (op == "+" and lt == "duration" and rt in shift):
            a = self.ex(e.left, ctx)
            b = _minus(self.ex(e.right, ctx, _UNARY)) if op == "-" else self.ex(e.right, ctx)
            if op == "/":
                return f"_rt.div({a}, {b}, {lt == rt == 'int'})", _ATOM
            if op == "%":
                return f"_rt.mod({a}, {b})", _ATOM
            if lt == "duration":  # the moment goes first
                return f"{shift[rt]}({b}, {a})", _ATOM
            return f"{shift[lt]}({a}, {b})", _ATOM
        own = _ARITH.get(op)
        if op == "-" and lt == rt == "date":
            return f"({self.ex(e.left, ctx, _ADD)} - {self.ex(e.right, ctx, _MUL)}) * {V.MINUTES_PER_DAY}", _MUL
        if own is None:  # not an operator the grammar has: keep every parenthesis
            return f"({self.ex(e.left, ctx, _ATOM)} {op} {self.ex(e.right, ctx, _ATOM)})", _ATOM
        return f"{self.ex(e.left, ctx, own)} {op} {self.ex(e.right, ctx, own + 1)}", own

    def _domain(self, e: A.Expr, ctx: _Tool) -> tuple[str, str | None]:
        """Python iterable for a quantifier/aggregate domain, and the key field if it is a table."""
        t = self.model.type_of(e)
        if isinstance(t, T.TableT):
            return self._each(f"{self.ex(e, ctx, _ATOM)}.values()", ctx), t.record.key
        return self._each(self.ex(e, ctx, _OR), ctx), None

    def _each(self, domain: str, ctx: _Tool) -> str:
        """A tool's loop starts by checking the call's time budget (`runtime.service.each`);
        a rule's gets no budget (its caller makes the transactions it reads)."""
        return f"_rt.each(tx, {domain})" if ctx.tool is not None else domain

    def _elem(self, e: A.Expr) -> T.Type:
        t = self.model.type_of(e)
        if isinstance(t, T.TableT):
            return t.record
        b = T.base_of(t)
        return b.elem if isinstance(b, T.ListT) else T.UNKNOWN

    def _scoped(self, var: str, domain: A.Expr, ctx: _Tool, fn):
        had = var in ctx.locals
        saved = ctx.locals.get(var)
        ctx.locals[var] = self._elem(domain)
        try:
            return fn(), _ATOM
        finally:
            if had:
                ctx.locals[var] = saved
            else:
                del ctx.locals[var]

    def ex_Quant(self, e: A.Quant, ctx: _Tool) -> tuple[str, int]:
        dom, _ = self._domain(e.domain, ctx)
        v = local(e.var)

        def build():
            cond = f" if {self.ex(e.where, ctx, _OR)}" if e.where is not None else ""
            if e.kind == "exists":
                return f"any(True for {v} in {dom}{cond})"
            return f"all({self.ex(e.body, ctx, _TERNARY)} for {v} in {dom}{cond})"

        return self._scoped(e.var, e.domain, ctx, build)

    def ex_Select(self, e: A.Select, ctx: _Tool) -> tuple[str, int]:
        dom, key = self._domain(e.domain, ctx)
        v = local(e.var)
        elem = self._elem(e.domain)

        def build():
            cond = f" if {self.ex(e.where, ctx, _OR)}" if e.where is not None else ""
            rows = f"[{v} for {v} in {dom}{cond}]"
            keyfn = f"lambda {v}: {v}[{py_literal(key)}]" if key else f"lambda {v}: {v}"
            by = f"lambda {v}: {self.ex(e.by, ctx)}" if e.by is not None else "None"
            if e.kind == "count":
                return f"sum(1 for {v} in {dom}{cond})"
            if e.kind == "filter":
                return f"_rt.ordered({rows}, {by}, {keyfn})"
            what = elem.name if isinstance(elem, T.RecordT) else "value"
            return f"_rt.pick_extreme({rows}, {by}, {keyfn}, {e.kind == 'latest'}, {py_literal(('matching ' + what))})"

        return self._scoped(e.var, e.domain, ctx, build)

    def ex_Project(self, e: A.Project, ctx: _Tool) -> tuple[str, int]:
        dom, _ = self._domain(e.domain, ctx)
        v = local(e.var)

        def build():
            cond = f" if {self.ex(e.where, ctx, _OR)}" if e.where is not None else ""
            item = self.ex(e.expr, ctx, _TERNARY)
            if e.kind == "sum":
                zero = "0" if T.prim_name(self.model.type_of(e)) == "int" else "_F(0)"
                return f"sum(({item} for {v} in {dom}{cond}), {zero})"
            if e.kind == "map":
                return f"tuple({item} for {v} in {dom}{cond})"
            return f"_rt.extreme([{item} for {v} in {dom}{cond}], {e.kind == 'max'}, 'matching value')"

        return self._scoped(e.var, e.domain, ctx, build)

    def ex_Call(self, e: A.Call, ctx: _Tool) -> tuple[str, int]:
        t = self.model.type_of(e)
        if isinstance(t, T.RecordT) and e.func == t.name:
            given = {a.name: self.ex(a.value, ctx) for a in e.args}
            items = []
            for f, ft in t.fields.items():
                if f in given:
                    items.append(f"{py_literal(f)}: {given[f]}")
                elif f in t.defaults:
                    items.append(f"{py_literal(f)}: {py_literal(const_value(t.defaults[f], ft))}")
                else:
                    items.append(f"{py_literal(f)}: ()")
            return "{" + ", ".join(items) + "}", _ATOM
        f = e.func
        if f == "minutes":  # minutes are the runtime's unit: the value as it is
            return getattr(self, "ex_" + type(e.args[0].value).__name__)(e.args[0].value, ctx)
        # where each argument goes: the object of a method, or the operand of an operator
        levels = {"starts_with": (_ATOM,), "ends_with": (_ATOM,), "days": (_MUL,), "weeks": (_MUL,), "hours": (_MUL,), "date": (_MUL,), "days_between": (_MUL, _ADD)}.get(f, ())
        args = [self.ex(a.value, ctx, levels[i] if i < len(levels) else _LAMBDA) for i, a in enumerate(e.args)]
        if f in ("lower", "upper", "trim"):
            return f"_v.{f}({args[0]})", _ATOM
        if f == "len":
            return f"len({args[0]})", _ATOM
        if f == "starts_with":
            return f"{args[0]}.startswith({args[1]})", _ATOM
        if f == "ends_with":
            return f"{args[0]}.endswith({args[1]})", _ATOM
        if f == "abs":
            return f"abs({args[0]})", _ATOM
        if f in ("days", "weeks", "hours"):
            return f"{args[0]} * {({'days': 1440, 'weeks': 10080, 'hours': 60})[f]}", _MUL
        if f == "date":
            return f"{args[0]} // {V.MINUTES_PER_DAY}", _MUL
        if f == "days_between":
            return f"{args[1]} - {args[0]}", _ADD
        if f in ("year", "month", "day"):
            return f"_v.civil_from_days({args[0]})[{('year', 'month', 'day').index(f)}]", _ATOM
        if f == "str":
            return f"_rt.text({args[0]}, {py_literal(tstr(self.model.type_of(e.args[0].value)))}, TYPES)", _ATOM
        if f == "format":
            template = e.args[0].value
            if not (isinstance(template, A.Literal) and template.kind == "string"):
                raise CodegenError("format templates are string literals")
            pieces = [p for p in _template_pieces(str(template.value)) if isinstance(p, str)]
            parts = [py_literal(pieces[0])]
            for i, a in enumerate(e.args[1:]):
                parts.append(f"_rt.text({args[i + 1]}, {py_literal(tstr(self.model.type_of(a.value)))}, TYPES)")
                parts.append(py_literal(pieces[i + 1]))
            return " + ".join(parts), _ADD
        raise CodegenError(f"unknown function {f}")


# ─────────────────────────── helpers ───────────────────────────


def _clauses_of(c: A.ConstraintDecl, kind) -> list:
    return [x for x in A.walk_clauses(c.clauses) if isinstance(x, kind)]



def _ref_path(path: tuple[str, ...], sname: str) -> tuple[str, ...]:
    return path if len(path) == 2 else (sname, path[0])


def _natural_type(g: A.SeedGen, model: Model) -> T.Type:
    if isinstance(g, A.GenRange):
        return {"int": T.INT, "decimal": T.DECIMAL, "date": T.DATE, "time": T.TIME, "datetime": T.DATETIME}.get(g.lo.kind, T.TEXT)
    if isinstance(g, A.GenConst):
        return {"int": T.INT, "decimal": T.DECIMAL, "date": T.DATE, "time": T.TIME, "datetime": T.DATETIME, "bool": T.BOOL}.get(g.value.kind, T.TEXT)
    if isinstance(g, A.GenPickPool):
        vals = model.pools[g.pool].values
        return _natural_type(A.GenConst(vals[0], span=g.span), model) if vals else T.TEXT
    if isinstance(g, A.GenPickList):
        return _natural_type(A.GenConst(g.values[0], span=g.span), model) if g.values else T.TEXT
    if isinstance(g, A.GenRef):
        return T.ID
    return T.TEXT


def generate_python(model: Model, source: str = "<memory>", width: int | None = WIDTH) -> str:
    """The module's text: one statement a line, laid out within `width` columns (none: not)."""
    return PythonGenerator(model, source, width).generate()


def compile_world(model: Model, source: str = "<memory>") -> pytypes.CodeType:
    """Generate the module and byte-compile it: the code object `exec_world` runs (and that
    `compoworld_dsl.worldcache` stores, marshalled, so that a cached load skips both steps)."""
    return compile(generate_python(model, source), f"<worldc:{source}>", "exec")


def exec_world(code: pytypes.CodeType, source: str = "<memory>"):
    """Run a code object from `compile_world` in a fresh module and return its `CompiledWorld`."""
    module = pytypes.ModuleType(f"compoworld_generated_{abs(hash(source))}")
    module.__file__ = f"<worldc:{source}>"
    exec(code, module.__dict__)  # noqa: S102 - our own generated code
    return module.WORLD


def load_world(model: Model, source: str = "<memory>"):
    """Compile in memory and return the `CompiledWorld` (what the sampler uses)."""
    return exec_world(compile_world(model, source), source)
