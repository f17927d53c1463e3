"""`worldc call WORLD SERVICE.TOOL --seed S --args JSON`: try a world's tools by hand.

Runs tools on the world's seeded initial state (`CompiledWorld.initial_state(seed)`) exactly as
an agent's calls run (`CompiledWorld.call`: the gateway's envelope, no change on failure), and
prints each call's envelope and what it changed in the state (rows inserted, updated and
deleted, with fields before → after, and scalars), and the house rules the call broke. Three
ways to give calls, all on one state that each call sees the earlier ones' writes in:

- one call: `worldc call WORLD SERVICE.TOOL --args '{"id": "task-1"}'`;
- a script: `--script FILE` (`-`: standard input), one call a line, `SERVICE.TOOL {json}` or a
  JSON object `{"tool": ..., "arguments": {...}}`; blank lines and `#` comments are skipped.
  Every line is read and its tool found before the first call runs;
- a REPL, when neither a tool nor `--script` is given and standard input is a terminal (or with
  `--repl`): `call> SERVICE.TOOL {json}`, `:help`, `:tools`, `:state TABLE`, `:reset`, `:quit`.
  Standard input that is not a terminal is read as a script.

A tool is named `SERVICE.TOOL`, or `TOOL` alone where one service has it. `--format json`
prints one JSON object a call, `{"tool", "arguments", "result", "diff", "broken_rules"}`.

Exit codes, as worldc's: 0 every call succeeded, 1 a call returned an error envelope (printed
all the same) or the world does not check, 2 bad usage (an unknown tool, with the close matches;
arguments that are not a JSON object or hold a lone surrogate; a bad script line, as
`FILE:LINE: problem`, a script that is not UTF-8, or one over MAX_SCRIPT bytes). Errors are
one line `worldc: error: ...` on stderr, never a traceback (WORLDC_TRACEBACK=1 shows one for a
bug in worldc). A script costs work linear in its calls: each call's change is found from the
rows it wrote and order rules are judged as the calls come, not by rescanning the history."""

from __future__ import annotations

import difflib
import json
import os
import re
import sys
from typing import Any, Iterable

import attrs

from .cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, _plural

PROMPT = "call> "
# A script is calls typed or generated for one session: 16 MiB is over 100,000 calls of the
# usual 100-150 bytes, each printed with its diff. Anything larger is a mistake (or /dev/zero),
# and is refused after reading MAX_SCRIPT + 1 bytes rather than read whole.
MAX_SCRIPT = 16 * 2**20
_SURROGATE = re.compile("[\ud800-\udfff]")


class CallError(Exception):
    """Bad input from the user: one line, exit 2 (in the REPL: printed, and the REPL goes on)."""


@attrs.frozen
class Call:
    tool: str  # "service.tool"
    arguments: dict
    where: str = ""  # "FILE:LINE" for a script line


# ─────────────────────────── argparse ───────────────────────────


def add_parser(sub) -> None:
    """Register `call` on worldc's subparsers object."""
    c = sub.add_parser(
        "call",
        help="run a tool on a world's seeded state; print its result and what it changed, e.g. `worldc call worlds/toy.world tasks.close_task --args '{\"id\": \"task-1\"}'`",
        description=(
            "Run tools on a world's seeded initial state, as an agent's calls run, and print each "
            "call's envelope and the change it made to the state. One call (TOOL and --args), a "
            "script of calls (--script), or a REPL (neither, on a terminal)."
        ),
        epilog=(
            "examples:\n"
            "  worldc call worlds/toy.world tasks.list_open_tasks --seed 3\n"
            "  worldc call worlds/toy.world close_task --args '{\"id\": \"task-1\"}'\n"
            "  worldc call worlds/toy.world --script calls.txt --format json\n"
            "  worldc call worlds/toy.world            (REPL: call> tasks.close_task {\"id\": \"task-1\"})\n"
            "\n"
            "a script line: SERVICE.TOOL {json arguments}, or {\"tool\": ..., \"arguments\": {...}}\n"
            "exit: 0 every call succeeded, 1 a call failed (its error envelope is printed), 2 bad usage"
        ),
    )
    c.add_argument("path", nargs="?", metavar="WORLD", help="a .world file or a folder holding one (default: the one world here, or the compiled one)")
    c.add_argument("tool", nargs="?", metavar="SERVICE.TOOL", help="the tool to call (TOOL alone where it is unique)")
    c.add_argument("--seed", default="0", help="the seed of the initial state, decimal or 0x hex (default 0)")
    c.add_argument("--args", metavar="JSON", help="the tool's arguments, a JSON object (default {})")
    c.add_argument("--script", metavar="FILE", help="run the calls of FILE in order on one state (`-`: standard input)")
    c.add_argument("--repl", action="store_true", help="read calls and :commands from standard input even when it is not a terminal")
    c.add_argument("--format", choices=("text", "json"), default="text", help="json: one JSON object a call on stdout")
    c.set_defaults(func=cmd_call)


def _err(message: str) -> None:
    print(f"worldc: error: {message}", file=sys.stderr)


# ─────────────────────────── names and arguments ───────────────────────────


def resolve_tool(world, name: str) -> str:
    """The qualified name of the tool `name` means: `service.tool`, or a bare tool name that one
    service has. Raises CallError naming the close matches (or the candidates, if ambiguous)."""
    if not isinstance(name, str) or not name:
        raise CallError("name a tool: SERVICE.TOOL")
    if name in world.tools:
        return name
    if "." not in name:
        owners = [q for q, s in world.tools.items() if s.name == name]
        if len(owners) == 1:
            return owners[0]
        if len(owners) > 1:
            raise CallError(f"{name!r} is a tool of {len(owners)} services; name one: {', '.join(owners)}")
    raise CallError(f"no tool {name[:80]!r} in {world.name}" + _suggest(world, name))


def _suggest(world, name: str) -> str:
    qualified = list(world.tools)
    bare: dict[str, list[str]] = {}
    for q, spec in world.tools.items():
        bare.setdefault(spec.name, []).append(q)
    close: list[str] = []
    for cutoff in (0.8, 0.6):  # the near misses alone where there are some
        close = difflib.get_close_matches(name, qualified, n=3, cutoff=cutoff)
        for b in difflib.get_close_matches(name.rsplit(".", 1)[-1], list(bare), n=3, cutoff=cutoff):
            close += [q for q in bare[b] if q not in close]
        if close:
            break
    if close:
        return f"; did you mean {_or(close[:3])}?"
    service = name.split(".", 1)[0] if "." in name else None
    if service in world.services:
        tools = [q for q in qualified if q.startswith(service + ".")]
        return f"; {service} has {_some(tools)}"
    services = difflib.get_close_matches(service, list(world.services), n=1) if service else []
    if services:
        return f"; no service {service!r}: did you mean {services[0]}? (its tools: {_some([q for q in qualified if q.startswith(services[0] + '.')])})"
    return f"; its services are {_some(list(world.services))} (`:tools` in the REPL lists the tools)"


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _some(items: list[str], n: int = 8) -> str:
    return ", ".join(items[:n]) + (f" and {len(items) - n} more" if len(items) > n else "")


def parse_arguments(text: str | None, what: str = "the arguments") -> dict:
    """Arguments given as JSON text: an object (empty text: {}). Raises CallError."""
    if text is None or not text.strip():
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise CallError(f"{what} are not JSON ({e.msg} at column {e.colno}): {_clip(text)}") from None
    except (RecursionError, ValueError):
        raise CallError(f"{what} are nested too deeply, or hold a number too long to read") from None
    if not isinstance(value, dict):
        raise CallError(f"{what} must be a JSON object, like {{\"id\": \"x-1\"}}, not {_kind(value)}: {_clip(text)}")
    bad = _lone_surrogate(value)
    if bad is not None:
        raise CallError(f"{what} hold a lone surrogate ({bad!a}): a \\ud800-\\udfff escape that is not half of a pair is no character")
    return value


def _lone_surrogate(value: Any) -> str | None:
    """The first string (key or value) in parsed JSON that holds a lone surrogate, which no
    output can encode. A loop, not recursion: the JSON may nest as deep as the parser allows."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            m = _SURROGATE.search(v)
            if m:
                return m.group()
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v)
            stack.extend(v.values())
    return None


def _kind(value: Any) -> str:
    return {list: "a list", str: "a string", bool: "true or false", type(None): "null"}.get(type(value), "a number")


def _clip(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def parse_line(world, line: str, where: str = "") -> Call | None:
    """One call from a script line (None for a blank line or a `#` or `//` comment): `SERVICE.TOOL`,
    `SERVICE.TOOL {json}` or `{"tool": ..., "arguments": {...}}`. Raises CallError."""
    text = line.strip()
    if not text or text.startswith(("#", "//")):
        return None
    if text.startswith("{"):
        obj = parse_arguments(text, "the line's JSON")
        names = [k for k in ("tool", "tool_name", "name") if k in obj]
        if not names:
            raise CallError('a JSON line needs "tool" (and "arguments"): {"tool": "service.tool", "arguments": {...}}')
        extra = sorted(set(obj) - {"tool", "tool_name", "name", "arguments", "args"})
        if extra:
            raise CallError(f'a JSON line holds "tool" and "arguments" only, not {extra[0]!r}')
        arguments = obj.get("arguments", obj.get("args", {}))
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise CallError('"arguments" must be a JSON object')
        tool = obj[names[0]]
        if not isinstance(tool, str):
            raise CallError('"tool" must be a string, like "service.tool"')
        return Call(resolve_tool(world, tool), arguments, where)
    name, _, rest = text.partition(" ")
    if "{" in name:  # `tool{"id": 1}`, written without the space
        name, brace, tail = name.partition("{")
        rest = brace + tail + (" " + rest if rest else "")
    return Call(resolve_tool(world, name), parse_arguments(rest), where)


def read_script_text(path: str) -> str:
    """A script's text, `-` for standard input: at most MAX_SCRIPT bytes, UTF-8. Raises CallError
    (a larger input, bytes that are not UTF-8 with their line) and OSError."""
    name = "<stdin>" if path == "-" else path
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream with no bytes under it (a test's StringIO)
            text = sys.stdin.read(MAX_SCRIPT + 1)
            if len(text) > MAX_SCRIPT:
                raise CallError(f"{name}: a script is at most {MAX_SCRIPT // 2**20} MiB; split it")
            return text
        data = stream.read(MAX_SCRIPT + 1)
    else:
        with open(path, "rb") as f:
            data = f.read(MAX_SCRIPT + 1)
    if len(data) > MAX_SCRIPT:
        raise CallError(f"{name}: a script is at most {MAX_SCRIPT // 2**20} MiB; split it")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise CallError(f"{name}:{line}: not UTF-8 (byte 0x{data[e.start]:02x} at byte {column} of the line)") from None


def read_script(world, lines: Iterable[str], source: str) -> list[Call]:
    """Every call of a script, each line read and its tool found before any runs."""
    calls = []
    for number, line in enumerate(lines, 1):
        where = f"{source}:{number}"
        try:
            call = parse_line(world, line, where)
        except CallError as e:
            raise CallError(f"{where}: {e}") from None
        if call is not None:
            calls.append(call)
    return calls


# ─────────────────────────── running and diffs ───────────────────────────


def type_name(t: str) -> str:
    """A runtime type descriptor as the language writes it: `alias:TaskId:id` → TaskId."""
    if t.startswith("alias:"):
        return t.split(":", 2)[1]
    if t.startswith("enum:"):
        return t[5:]
    if t.startswith("list:"):
        return f"list[{type_name(t[5:])}]"
    if t.startswith("record:"):
        return t[7:].rsplit(".", 1)[-1]
    return t


def signature(spec) -> str:
    params = ", ".join(f"{p}: {type_name(t)}" + (" = …" if p in spec.defaults else "") for p, t in spec.params)
    return f"{spec.qualified}({params})" + (f" -> {type_name(spec.result)}" if spec.result else "")


def _row_json(world, table: str, row: dict) -> dict:
    fields = world.types.records[world.state_decl[table]["record"]]
    return {f: world.types.to_json(t, row[f]) for f, t in fields.items() if f in row}


def _key_json(world, table: str, key: Any) -> Any:
    decl = world.state_decl[table]
    fields = world.types.records[decl["record"]]
    return world.types.to_json(fields[decl["key"]], key) if decl.get("key") in fields else key


def _scalar_json(world, name: str, value: Any) -> Any:
    return world.types.to_json(world.state_decl[name]["type"], value)


def diff_json(world, before, after, wrote: set | None = None) -> dict:
    """What changed from `before` to `after`, as JSON: `rows` (each `{table, key, change}`, with
    the whole `row` for an insert or a delete and `{field: {before, after}}` for an update) and
    `scalars` (`{name: {before, after}}`), in `state.diff`'s stable order. With `wrote`, the
    (table, key) of every row the step wrote, only those rows are compared, in key order: the
    cost is the change's, not the tables' (whole tables made a long script quadratic)."""
    from .runtime.state import diff

    if wrote is not None:
        before, after = _rows_of(before, wrote), _rows_of(after, wrote)
    d = diff(before, after)
    rows = []
    for ch in d.rows:
        item: dict[str, Any] = {"table": ch.table, "key": _key_json(world, ch.table, ch.key), "change": ch.kind}
        if ch.kind == "inserted":
            item["row"] = _row_json(world, ch.table, after.tables[ch.table][ch.key])
        elif ch.kind == "deleted":
            item["row"] = _row_json(world, ch.table, before.tables[ch.table][ch.key])
        else:
            old = _row_json(world, ch.table, before.tables[ch.table][ch.key])
            new = _row_json(world, ch.table, after.tables[ch.table][ch.key])
            item["fields"] = {f: {"before": old.get(f), "after": new.get(f)} for f in ch.fields}
        rows.append(item)
    scalars = {
        n: {"before": _scalar_json(world, n, before.scalars.get(n)), "after": _scalar_json(world, n, after.scalars.get(n))}
        for n in d.scalars
    }
    return {"rows": rows, "scalars": scalars}


def _rows_of(state, wrote: set):
    """A state holding only the rows `wrote` names, each table's in natural key order
    (`task-9` before `task-10`), and all the scalars."""
    from .runtime.state import State

    tables: dict[str, dict] = {}
    for table, key in sorted(wrote, key=_change_order):
        rows = state.tables.get(table, {})
        if key in rows:
            tables.setdefault(table, {})[key] = rows[key]
    return State(tables, state.scalars, {})


def _change_order(item: tuple[str, Any]) -> tuple:
    table, key = item
    if isinstance(key, str):
        return (table, 1, tuple((0, int(p), "") if p.isdecimal() else (1, 0, p) for p in re.split(r"(\d+)", key)))
    return (table, 0, ((0, key, "") if isinstance(key, (int, float)) else (1, 0, repr(key)),))


class Session:
    """One state, seeded, that calls run on in turn; it keeps what an episode keeps (the
    successful calls and the rows they touched) so house rules are judged as the checker
    judges them, from the seeded state."""

    def __init__(self, world, seed: int):
        self.world = world
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
        self.initial = self.world.initial_state(self.seed)
        self.state = self.initial.snapshot()
        self.touched: set = set()
        self._holding: dict[str, bool] | None = None
        # Order rules as the checker's `_order_holds` judges a whole history, kept call by call:
        # per (rule, order), the `on` arguments of the `after` calls seen, and why it broke.
        self._afters: dict[tuple[str, int], set] = {}
        self._orders_broken: dict[tuple[str, int], str] = {}

    def run(self, call: Call) -> dict:
        """Run one call; its record: tool, arguments, result (the envelope), diff, broken_rules."""
        before = self.state.snapshot()
        if self._holding is None:
            self._holding = {n: ok for n, (ok, _) in self._rules().items()}
        wrote: set = set()
        try:
            result = self.world.call(self.state, call.tool, call.arguments, wrote)
        except Exception as e:  # the runtime turns failures into envelopes; a defect all the same
            if os.environ.get("WORLDC_TRACEBACK"):
                raise
            self.state, wrote = before, set()
            result = {"success": False, "error": {"code": 500, "message": f"the call failed inside worldc ({type(e).__name__})"}}
        broken = []
        if result.get("success"):
            self.touched |= wrote
            self._judge_orders(call)
            now = self._rules()
            broken = [
                {"name": n, "description": self.world.constraints[n].description, "why": why}
                for n, (ok, why) in now.items()
                if not ok and self._holding.get(n, True)
            ]
            self._holding = {n: ok for n, (ok, _) in now.items()}
        return {"tool": call.tool, "arguments": call.arguments, "result": result, "diff": diff_json(self.world, before, self.state, wrote), "broken_rules": broken}

    def _judge_orders(self, call: Call) -> None:
        """A successful call's part in each order rule: an `after` call records its `on`
        arguments; a `tool` call with none recorded breaks the rule for good."""
        for name, c in self.world.constraints.items():
            for i, (tool, after, on) in enumerate(c.orders):
                if (name, i) in self._orders_broken:
                    continue
                key = tuple(_hashable(call.arguments.get(k)) for k in on)
                if call.tool == after:
                    self._afters.setdefault((name, i), set()).add(key)
                elif call.tool == tool and key not in self._afters.get((name, i), ()):
                    self._orders_broken[(name, i)] = f"{tool} was called before {after}"

    def _rules(self) -> dict[str, tuple[bool, str]]:
        """Each house rule of the world: does it hold on the episode so far, and if not, why."""
        from .sample.checker import _constraint_holds

        out = {}
        for name, c in self.world.constraints.items():
            ok, why = _constraint_holds(self.world, name, self.initial, self.state, self.touched)
            for i in range(len(c.orders)):
                if ok and (name, i) in self._orders_broken:
                    ok, why = False, self._orders_broken[(name, i)]
            out[name] = (ok, why)
        return out


def _hashable(value: Any) -> Any:
    """A JSON value as a hashable one that is equal exactly when the values are (`==`), so that
    a set finds an `after` call's arguments as `_order_holds`' comparison does."""
    if isinstance(value, list):
        return (list, tuple(_hashable(v) for v in value))
    if isinstance(value, dict):
        return (dict, frozenset((k, _hashable(v)) for k, v in value.items()))
    return value


# ─────────────────────────── output ───────────────────────────


def _j(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def render_text(record: dict) -> str:
    """A call's record as a person reads it: the call, the envelope, the diff, broken rules."""
    lines = [f"{record['tool']} {_j(record['arguments'])}"]
    lines += json.dumps(record["result"], ensure_ascii=False, indent=2).splitlines()
    d = record["diff"]
    counts: dict[str, int] = {}
    for r in d["rows"]:
        counts[r["change"]] = counts.get(r["change"], 0) + 1
    parts = [f"{_plural(counts[k], 'row')} {k}" for k in ("inserted", "updated", "deleted") if counts.get(k)]
    if d["scalars"]:
        parts.append(_plural(len(d["scalars"]), "scalar") + " changed")
    if not parts:
        lines.append("diff: no change" + ("" if record["result"].get("success") else " (a failed call changes nothing)"))
    else:
        lines.append(f"diff: {', '.join(parts)}")
    mark = {"inserted": "+", "updated": "~", "deleted": "-"}
    for r in d["rows"]:
        head = f"  {mark[r['change']]} {r['table']} {_j(r['key'])}"
        if r["change"] == "updated":
            lines.append(head)
            lines += [f"      {f}: {_j(v['before'])} → {_j(v['after'])}" for f, v in r["fields"].items()]
        else:
            lines.append(f"{head} {_j(r['row'])}")
    for n, v in d["scalars"].items():
        lines.append(f"  ~ {n}: {_j(v['before'])} → {_j(v['after'])}")
    for b in record["broken_rules"]:
        lines.append(f"house rule broken: {b['name']} ({b['description']}): {b['why']}")
    return "\n".join(lines) + "\n"


def emit(record: dict, fmt: str) -> None:
    if fmt == "json":
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render_text(record))
    sys.stdout.flush()


# ─────────────────────────── the verb ───────────────────────────


def load_world(path: str):
    """The checked, compiled world at `path`; or None and the exit status, after printing why."""
    from .cli.common import _load_checked
    from .codegen.python import load_world as compile_world

    model, status = _load_checked(path)
    if model is None:
        return None, status
    return compile_world(model, path), EXIT_OK


def _is_tty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def cmd_call(args) -> int:
    from .cli.common import _parse_seed, find_world

    # `worldc call TOOL` in a folder holding one world: the one positional is the tool
    if args.path is not None and args.tool is None and not os.path.exists(args.path) and "/" not in args.path and not args.path.endswith(".world"):
        args.path, args.tool = None, args.path
    if args.script is not None and args.tool is not None:
        _err("give a TOOL or --script FILE, not both")
        return EXIT_USAGE
    if args.args is not None and args.tool is None:
        _err("--args needs a tool: worldc call WORLD SERVICE.TOOL --args JSON")
        return EXIT_USAGE
    if args.repl and (args.tool is not None or args.script is not None):
        _err("--repl reads calls from standard input; give no TOOL and no --script with it")
        return EXIT_USAGE
    seed = _parse_seed(args.seed)
    if seed is None:
        _err(f"--seed takes an integer (decimal or 0x hex), got {args.seed!r}")
        return EXIT_USAGE
    script_text = None
    if args.script is not None and args.script != "-":
        try:
            script_text = read_script_text(args.script)
        except FileNotFoundError:
            _err(f"no such file: {args.script}")
            return EXIT_USAGE
        except CallError as e:
            _err(str(e))
            return EXIT_USAGE
        except OSError as e:
            _err(f"cannot read {args.script}: {e.strerror or e}")
            return EXIT_USAGE
    arguments: dict = {}
    if args.tool is not None:
        try:
            arguments = parse_arguments(args.args)
        except CallError as e:
            _err(f"--args: {e}")
            return EXIT_USAGE
    path, how = find_world(args.path)
    if path is None:
        _err(how)
        return EXIT_USAGE
    try:
        world, status = load_world(path)
    except Exception as e:  # a bug in worldc, not in the world: one line all the same
        if os.environ.get("WORLDC_TRACEBACK"):
            raise
        _err(f"{path}: the world failed to load inside worldc ({type(e).__name__}: {e}); a bug in worldc, please report it")
        return EXIT_FAILED
    if world is None:
        return status
    repl = args.repl or (args.tool is None and args.script is None and _is_tty(sys.stdin))
    try:
        session = Session(world, seed)
    except Exception as e:
        if os.environ.get("WORLDC_TRACEBACK"):
            raise
        _err(f"{path}: seeding the initial state failed inside worldc ({type(e).__name__}: {e}); a bug in worldc, please report it")
        return EXIT_FAILED
    if repl:
        return run_repl(session, args.format, sys.stdin)
    try:
        if args.tool is not None:
            calls = [Call(resolve_tool(world, args.tool), arguments)]
        elif script_text is not None:
            calls = read_script(world, script_text.splitlines(), args.script)
        else:  # `--script -`, or calls piped in
            calls = read_script(world, read_script_text("-").splitlines(), "<stdin>")
            if not calls and args.script is None:
                raise CallError("no calls: name a SERVICE.TOOL, give --script FILE, or run on a terminal for the REPL")
    except CallError as e:
        _err(str(e))
        return EXIT_USAGE
    except OSError as e:
        _err(f"cannot read standard input: {e.strerror or e}")
        return EXIT_USAGE
    failed = 0
    for call in calls:
        record = session.run(call)
        emit(record, args.format)
        failed += not record["result"].get("success")
    if failed and len(calls) > 1:
        print(f"worldc: {failed} of {_plural(len(calls), 'call')} failed", file=sys.stderr)
    return EXIT_FAILED if failed else EXIT_OK


# ─────────────────────────── the REPL ───────────────────────────

HELP = """\
  SERVICE.TOOL {json}   call a tool (TOOL alone where it is unique; no JSON: no arguments)
  :tools [SERVICE]      the tools and their parameters
  :state [TABLE]        the tables and scalars; with a name, that table's rows or that scalar
  :reset [SEED]         back to the seeded state (of another seed, if given)
  :help                 this help
  :quit                 leave (also :q, :exit or Ctrl-D)
"""


def run_repl(session: Session, fmt: str, stdin) -> int:
    """Read calls and `:commands` from `stdin` until `:quit` or its end. Bad input is reported
    (`error: ...` on stderr) and the REPL goes on. Prompts and line editing only on a terminal."""
    world = session.world
    interactive = _is_tty(stdin) and stdin is sys.stdin
    if interactive:
        _setup_readline(world)
    n_tools = len(world.tools)
    print(f"worldc call: {world.name}, seed {session.seed}; {_plural(n_tools, 'tool')} in {_plural(len(world.services), 'service')}; :help for help, :quit to leave", file=sys.stderr)
    while True:
        try:
            if interactive:
                line = input(PROMPT)
            else:
                line = stdin.readline(MAX_SCRIPT + 1)
                if not line:
                    break
                if len(line) > MAX_SCRIPT:  # /dev/zero, say: no call is that long, and no line end may come
                    print(f"error: a line longer than {MAX_SCRIPT // 2**20} MiB; stopping", file=sys.stderr)
                    return EXIT_USAGE
        except EOFError:
            if interactive:
                print(file=sys.stderr)
            break
        except UnicodeDecodeError:  # a strict decoder cannot go on past the bad bytes
            print("error: standard input is not UTF-8; stopping", file=sys.stderr)
            return EXIT_USAGE
        except KeyboardInterrupt:  # Ctrl-C drops the line being typed, as in Python's REPL
            print("\n(:quit to leave)", file=sys.stderr)
            continue
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if text.startswith(":"):
            if _command(session, text, fmt) == "quit":
                break
            continue
        try:
            call = parse_line(world, text)
        except CallError as e:
            print(f"error: {e}", file=sys.stderr)
            continue
        if call is not None:
            emit(session.run(call), fmt)
    return EXIT_OK


def _command(session: Session, text: str, fmt: str) -> str | None:
    world = session.world
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    w = sys.stdout.write
    if word in (":quit", ":q", ":exit"):
        return "quit"
    if word in (":help", ":h", ":?"):
        w(HELP)
    elif word == ":tools":
        if rest and rest not in world.services:
            print(f"error: no service {rest!r}; the services are {_some(list(world.services))}", file=sys.stderr)
            return None
        for q, spec in world.tools.items():
            if not rest or spec.service == rest:
                w(f"  {signature(spec)}" + (f"  — {spec.description}" if spec.description else "") + "\n")
    elif word == ":state":
        _show_state(session, rest, fmt)
    elif word == ":reset":
        seed = session.seed
        if rest:
            from .cli.common import _parse_seed

            seed = _parse_seed(rest)
            if seed is None:
                print(f"error: a seed is an integer (decimal or 0x hex), not {rest!r}", file=sys.stderr)
                return None
        session.reset(seed)
        w(f"reset to the seeded state of seed {session.seed}\n")
    else:
        print(f"error: no command {word!r}; :help lists them", file=sys.stderr)
    sys.stdout.flush()
    return None


def _state_name(world, name: str) -> str | None:
    """A table or scalar named `service.name`, or `name` alone where it is unique."""
    if name in world.state_decl:
        return name
    found = [n for n in world.state_decl if n.split(".", 1)[1] == name]
    return found[0] if len(found) == 1 else None


def _show_state(session: Session, name: str, fmt: str) -> None:
    world, st = session.world, session.state
    w = sys.stdout.write
    if not name:
        if fmt == "json":
            tables = {t: len(rows) for t, rows in st.tables.items()}
            scalars = {n: _scalar_json(world, n, v) for n, v in st.scalars.items()}
            w(json.dumps({"tables": tables, "scalars": scalars}, ensure_ascii=False) + "\n")
            return
        for t, rows in st.tables.items():
            w(f"  {t}: {_plural(len(rows), 'row')}\n")
        for n, v in st.scalars.items():
            w(f"  {n} = {_j(_scalar_json(world, n, v))}\n")
        return
    full = _state_name(world, name)
    if full is None:
        close = difflib.get_close_matches(name, list(world.state_decl) + [n.split(".", 1)[1] for n in world.state_decl], n=3, cutoff=0.6)
        print(f"error: no table or scalar {name!r}" + (f"; did you mean {_or(close)}?" if close else "; :state lists them"), file=sys.stderr)
        return
    if world.state_decl[full]["kind"] == "scalar":
        value = _scalar_json(world, full, st.scalars.get(full))
        w((json.dumps({full: value}, ensure_ascii=False) if fmt == "json" else f"  {full} = {_j(value)}") + "\n")
        return
    rows = st.tables.get(full, {})
    if fmt != "json":
        w(f"{full}: {_plural(len(rows), 'row')}\n")
    for row in rows.values():
        w(("" if fmt == "json" else "  ") + _j(_row_json(world, full, row)) + "\n")


def _setup_readline(world) -> None:
    """Line editing, history for the session, and Tab completion of tools and commands."""
    try:
        import readline
    except ImportError:  # not on every platform; the REPL works without it
        return
    words = sorted(set(world.tools) | {s.name for s in world.tools.values()} | {":help", ":tools", ":state", ":reset", ":quit"})
    words += sorted(world.state_decl)

    def complete(text: str, i: int):
        matches = [w for w in words if w.startswith(text)]
        return matches[i] if i < len(matches) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" \t{")
    readline.parse_and_bind("tab: complete")
