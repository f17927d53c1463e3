"""Task files on disk: read a JSONL task file line by line, each line checked against the task
schema and the world before anything uses it, and write JSONL outputs atomically. It plays,
scores and verifies nothing.

A task that loads here has every field the readers use, with the type they expect, and names
only what the world has (tests/test_taskfile.py fuzzes that contract).

Every problem names its place as `FILE:LINE: FIELD: PROBLEM`, FIELD a JSON path into the record
(`checker.checks[2].kind`), left out when the problem is the whole line. Blank lines are skipped;
a file with no task is an error. docs/task-format.md#loading-a-task-file has the rules."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Iterator

import attrs

from .runtime.service import ToolError
from .runtime.world import StaleTask

SCHEMA_PATH = Path(__file__).resolve().parent / "schemas" / "task.schema.json"
MAX_REPORTED = 10  # bad lines reported before a loader stops reading
MAX_DEPTH = 64  # nesting of arrays and objects in a record: far above a real one, far below Python's recursion limit


@attrs.frozen
class Problem:
    path: str
    line: int  # 1-based; 0 for the file as a whole
    field: str  # a JSON path into the record; "" when the problem is the whole line
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class TaskFileError(Exception):
    """A task file that does not load: its problems, first `MAX_REPORTED` bad lines at most."""

    def __init__(self, problems: list[Problem], more: bool = False):
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems
        self.more = more  # reading stopped at MAX_REPORTED bad lines; there may be others

    def lines(self) -> list[str]:
        out = [str(p) for p in self.problems]
        if self.more:
            out.append(f"{self.problems[-1].path}: stopped after {MAX_REPORTED} bad lines")
        return out


@attrs.frozen
class Line:
    """One line that is not blank: the record if it is a valid task, and what is wrong otherwise."""

    number: int
    task: dict | None
    problems: tuple[Problem, ...]
    task_id: str | None = None  # the record's `id` when it has a readable one, valid or not


# ─────────────────────────── reading ───────────────────────────


def agent_plan(task: dict) -> list[tuple[int | None, dict]]:
    """The reference plan as an agent makes it: (step number, call) for each call of
    `reference_plan`, and before its step each of the task's `lookups` (docs/task-format.md#
    lookups) as (None, call). Files written before tasks had lookups give the plan alone."""
    plan = task.get("reference_plan") or []
    looks = [c for c in task.get("lookups") or [] if isinstance(c, dict)]
    out: list[tuple[int | None, dict]] = []
    for k, call in enumerate(plan, 1):
        out += [(None, c) for c in looks if c.get("before") == k]
        out.append((k, call))
    return out


def read_lines(path: str | Path, world=None) -> Iterator[Line]:
    """Every line of a task file that is not blank, in order, checked: UTF-8, one JSON object,
    the task schema, (given the `CompiledWorld`) the names it uses exist in that world, and its
    id is on no earlier line. Streams: one line in memory at a time (and the ids seen). Raises
    TaskFileError if the file cannot be read."""
    name = str(path)
    try:
        fh = open(path, "rb")  # bytes: a line that is not UTF-8 is reported with its number
    except OSError as e:
        raise TaskFileError([Problem(name, 0, "", f"cannot read the file: {e.strerror or e}")]) from None
    first_line: dict[str, int] = {}  # task id → the line that has it: ids only, not tasks
    with fh:
        number = 0
        while True:
            try:
                raw = fh.readline()
            except OSError as e:
                raise TaskFileError([Problem(name, number + 1, "", f"cannot read the line: {e.strerror or e}")]) from None
            if not raw:
                return
            number += 1
            if not raw.strip():
                continue  # blank lines (a trailing newline too many, an editor's padding) are skipped
            line = _check_line(name, number, raw, world)
            if line.task_id is not None:
                seen = first_line.setdefault(line.task_id, number)
                if seen != number and not line.problems:  # readers key tasks by id: eval's results, serve --task, --runs
                    line = Line(number, None, (Problem(name, number, "id", f"`{line.task_id}` is also the id of line {seen}"),), line.task_id)
            yield line


def load_tasks(path: str | Path, world=None) -> list[dict]:
    """Every task of a file, checked; raises TaskFileError with the first bad lines (at most
    MAX_REPORTED), or when the file holds no task."""
    tasks: list[dict] = []
    problems: list[Problem] = []
    bad = 0
    for line in read_lines(path, world):
        if line.problems:
            bad += 1
            problems.extend(line.problems)
            if bad >= MAX_REPORTED:
                raise TaskFileError(problems, more=True)
        elif not problems:
            tasks.append(line.task)
    if problems:
        raise TaskFileError(problems)
    if not tasks:
        raise TaskFileError([Problem(str(path), 0, "", "holds no task")])
    return tasks


def iter_tasks(path: str | Path, world=None) -> Iterator[dict]:
    """The tasks of a file one at a time (a large file never sits in memory); raises
    TaskFileError at the first bad line, or at the end when the file held no task."""
    n = 0
    for line in read_lines(path, world):
        if line.problems:
            raise TaskFileError(list(line.problems))
        n += 1
        yield line.task
    if n == 0:
        raise TaskFileError([Problem(str(path), 0, "", "holds no task")])


def task_problems(task: Any, world=None) -> list[tuple[str, str]]:
    """(field, problem) for a record already in memory: the schema's verdict, then the world's."""
    if _depth(task) > MAX_DEPTH:
        return [("", f"nested more than {MAX_DEPTH} levels deep")]
    try:
        errors = list(_validator().iter_errors(task))
    except RecursionError:
        return [("", "nested too deeply")]
    if errors:
        return [_describe(_first(errors))]
    return world_problems(task, world) if world is not None else []


def _check_line(name: str, number: int, raw: bytes, world) -> Line:
    def bad(field: str, message: str, tid: str | None = None) -> Line:
        return Line(number, None, (Problem(name, number, field, message),), tid)

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return bad("", f"not UTF-8: byte 0x{raw[e.start]:02x} at column {e.start + 1}")
    try:
        task = json.loads(text)
    except json.JSONDecodeError as e:
        return bad("", f"not JSON: {e.msg} at column {e.colno}")
    except (ValueError, RecursionError) as e:  # a number too long to convert, nesting too deep
        return bad("", f"not JSON that can be read: {str(e)[:120] or type(e).__name__}")
    tid = task.get("id") if isinstance(task, dict) and isinstance(task.get("id"), str) else None
    if not isinstance(task, dict):
        return bad("", f"expected a task object, got {_kind(task)}")
    problems = task_problems(task, world)
    if problems:
        field, message = problems[0]
        return bad(field, message, tid)
    return Line(number, task, (), tid)


# ─────────────────────────── the schema ───────────────────────────


@functools.cache
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@functools.cache
def _validator():
    import jsonschema

    base = jsonschema.Draft202012Validator
    # JSON Schema counts 2.0 as an integer; a seed or a hop count written that way is a tampered
    # record, and Python would carry the float on (into a state's random stream, a table key)
    strict = base.TYPE_CHECKER.redefine("integer", lambda _, x: isinstance(x, int) and not isinstance(x, bool))
    cls = jsonschema.validators.extend(base, type_checker=strict)
    s = schema()
    return cls(_inline_refs(s, s.get("$defs", {})))


def _inline_refs(node: Any, defs: dict) -> Any:
    """The schema with each local `{"$ref": "#/$defs/NAME"}` replaced by its target: the same
    meaning (the schema has no recursive definition), and validation skips a reference lookup per
    node, which was half its time."""
    if isinstance(node, dict):
        if set(node) == {"$ref"} and node["$ref"].startswith("#/$defs/"):
            return _inline_refs(defs[node["$ref"][len("#/$defs/") :]], defs)
        return {k: _inline_refs(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline_refs(x, defs) for x in node]
    return node


def _first(errors: list):
    """The error to report: a plain one before a `oneOf` that lists alternatives."""
    plain = [e for e in errors if e.validator not in ("oneOf", "anyOf")]
    return (plain or errors)[0]


def _describe(e) -> tuple[str, str]:
    """(JSON path, problem in words) for one jsonschema error."""
    path = list(e.absolute_path)
    v, value, inst = e.validator, e.validator_value, e.instance
    if v in ("oneOf", "anyOf") and e.context:
        # the alternatives whose type the value has say more than the list of all of them
        wrong_type = [c for c in e.context if c.validator == "type" and not c.relative_path]
        ruled_out = {c.relative_schema_path[0] for c in wrong_type}
        others = [c for c in e.context if c.relative_schema_path[0] not in ruled_out]
        if others:
            return _describe(_first(others))
        if wrong_type:
            wanted = [t for c in wrong_type for t in (c.validator_value if isinstance(c.validator_value, list) else [c.validator_value])]
            return _json_path(path), f"expected {_types(wanted)}, got {_kind(inst)}"
        return _json_path(path), "matches none of the allowed shapes"
    if v == "required":
        missing = [r for r in value if isinstance(inst, dict) and r not in inst]
        return _json_path(path + missing[:1]), "missing"
    if v == "additionalProperties":
        known = e.schema.get("properties", {})
        extra = sorted(k for k in inst if k not in known) if isinstance(inst, dict) else []
        return _json_path(path + extra[:1]), "not a field here"
    if v == "type":
        return _json_path(path), f"expected {_types(value if isinstance(value, list) else [value])}, got {_kind(inst)}"
    if v == "enum":
        return _json_path(path), f"must be one of {', '.join(json.dumps(x) for x in value)}; got {_short(inst)}"
    if v == "const":
        return _json_path(path), f"must be {json.dumps(value)}; got {_short(inst)}"
    if v == "pattern":
        return _json_path(path), f"{_short(inst)} is not of the form {value}"
    if v == "minItems":
        return _json_path(path), f"needs at least {value} item{'s' if value != 1 else ''}"
    if v == "maxItems":
        return _json_path(path), f"takes at most {value} item{'s' if value != 1 else ''}"
    if v == "minimum":
        return _json_path(path), f"must be at least {value}; got {_short(inst)}"
    if v == "maximum":
        return _json_path(path), f"must be at most {value}; got {_short(inst)}"
    if v == "uniqueItems":
        return _json_path(path), "holds an item twice"
    if v == "minProperties":
        return _json_path(path), "must not be empty"
    if v in ("contains", "minContains", "maxContains") and path and path[-1] == "checks":
        return _json_path(path), "needs exactly one `no_collateral` check"
    if v == "propertyNames":
        return _json_path(path), f"{_short(inst)} has a key that is not a name"
    return _json_path(path), e.message[:200]


def _json_path(parts: list) -> str:
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(p)):
            out += f".{p}" if out else str(p)
        else:
            out += f"[{json.dumps(p)}]"
    return out


_KINDS = {"null": "null", "boolean": "a boolean", "integer": "an integer", "number": "a number", "string": "a string", "array": "an array", "object": "an object"}


def _types(names: list[str]) -> str:
    return " or ".join(_KINDS.get(n, n) for n in names)


def _kind(x: Any) -> str:
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "a boolean"
    if isinstance(x, int):
        return "an integer"
    if isinstance(x, float):
        return "a number with a fraction" if x == x and abs(x) != float("inf") else "a number"
    if isinstance(x, str):
        return "a string"
    if isinstance(x, list):
        return "an array"
    return "an object"


def _short(x: Any) -> str:
    try:
        text = json.dumps(x, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):
        text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _depth(x: Any) -> int:
    """How deeply arrays and objects nest (iteratively: the record may be hostile)."""
    deepest, todo = 0, [(x, 1)]
    while todo:
        node, d = todo.pop()
        if isinstance(node, dict):
            node = node.values()
        elif not isinstance(node, list):
            continue
        if d > deepest:
            deepest = d
            if deepest > MAX_DEPTH:
                break
        todo.extend((child, d + 1) for child in node)
    return deepest


# ─────────────────────────── the world ───────────────────────────


def world_problems(task: dict, world) -> list[tuple[str, str]]:
    """(field, problem) for each name a schema-valid task uses that `world` (a CompiledWorld)
    lacks: a service, a tool, a table, a scalar, a house rule. A task of another world, or one
    edited by hand, would otherwise fail later, inside an episode or a proof."""
    out: list[tuple[str, str]] = []
    here = f"world `{world.name}`" if world.name else "this world"
    if task["world"] != world.name:
        out.append(("world", f"the task is for world `{task['world']}`, not `{world.name}`"))

    def tool(field: str, name: str) -> None:
        if name not in world.tools:
            out.append((field, f"no tool `{name}` in {here}"))

    def state(field: str, name: str, kind: str) -> None:
        decl = world.state_decl.get(name)
        if decl is None or decl.get("kind") != kind:
            out.append((field, f"no {kind} `{name}` in {here}"))

    def rule(field: str, name: str) -> None:
        if name not in world.constraints:
            out.append((field, f"no house rule `{name}` in {here}"))

    for key in ("services", "distractors"):
        for i, s in enumerate(task[key]):
            if s not in world.services:
                out.append((f"{key}[{i}]", f"no service `{s}` in {here}"))
    for k, call in enumerate(task["reference_plan"]):
        tool(f"reference_plan[{k}].tool", call["tool"])
    rows = task["initial_state"].get("rows", [])
    for i, item in enumerate(rows):
        state(f"initial_state.rows[{i}].table", item["table"], "table")
    swaps = task["initial_state"].get("swaps", [])
    for i, item in enumerate(swaps):
        state(f"initial_state.swaps[{i}].table", item["table"], "table")
    if (rows or swaps or "digest" in task["initial_state"]) and not out:  # seeded and planted exactly as an episode will
        try:
            world.task_state(task["initial_state"])
        except StaleTask as e:
            out.append(("initial_state.digest", str(e)))
        except ToolError as e:
            out.append(("initial_state.rows", e.message))
        except (KeyError, ValueError) as e:
            out.append(("initial_state.rows", f"cannot be planted: {'missing field ' if isinstance(e, KeyError) else ''}{e}"))
    for i, c in enumerate(task["checker"]["checks"]):
        at = f"checker.checks[{i}]"
        if c["kind"] in ("row_inserted", "row_updated", "row_deleted"):
            state(f"{at}.table", c["table"], "table")
        elif c["kind"] == "scalar":
            state(f"{at}.name", c["name"], "scalar")
        elif c["kind"] in ("constraint", "order"):
            rule(f"{at}.constraint", c["constraint"])
        elif c["kind"] == "answer" and "type" in c:
            try:
                world.types.schema(c["type"])  # raises for a type the world does not have
            except (KeyError, IndexError, ValueError, RecursionError):
                out.append((f"{at}.type", f"no type `{c['type'][:80]}` in {here}"))
        if c["kind"] == "order":
            tool(f"{at}.tool", c["tool"])
            tool(f"{at}.after", c["after"])
    for i, c in enumerate(task["constraints"]):
        rule(f"constraints[{i}].name", c["name"])
        if c["kind"] == "order":
            tool(f"constraints[{i}].tool", c["tool"])
            tool(f"constraints[{i}].after", c["after"])
    branch = task.get("branch")
    if branch is not None:
        tool("branch.other_branch.tool", branch["other_branch"]["tool"])
        for j, call in enumerate(branch["other_branch"]["plan"]):
            tool(f"branch.other_branch.plan[{j}].tool", call["tool"])
    idem = task.get("idempotent")
    if idem is not None:
        tool("idempotent.tool", idem["tool"])
    for name, proof in task["proofs"]["constraints"].items():
        for j, call in enumerate(proof.get("witness", [])):
            tool(f"proofs.constraints[{json.dumps(name)}].witness[{j}].tool", call["tool"])
    return out


# ─────────────────────────── runs (`worldc eval --record`) ───────────────────────────


def load_runs(path: str | Path) -> dict[str, dict]:
    """The runs `worldc eval --record` wrote, by task id, each checked for the fields `export
    sft --runs` reads; raises TaskFileError as `load_tasks` does."""
    name = str(path)
    runs: dict[str, dict] = {}
    problems: list[Problem] = []
    try:
        fh = open(path, "rb")
    except OSError as e:
        raise TaskFileError([Problem(name, 0, "", f"cannot read the file: {e.strerror or e}")]) from None
    with fh:
        for number, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            found = _run_problem(raw)
            if isinstance(found, tuple):
                problems.append(Problem(name, number, *found))
                if len(problems) >= MAX_REPORTED:
                    raise TaskFileError(problems, more=True)
            elif not problems:
                runs[found["task_id"]] = found
    if problems:
        raise TaskFileError(problems)
    return runs


def _run_problem(raw: bytes) -> dict | tuple[str, str]:
    try:
        run = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        return "", f"not UTF-8: byte 0x{raw[e.start]:02x} at column {e.start + 1}"
    except json.JSONDecodeError as e:
        return "", f"not JSON: {e.msg} at column {e.colno}"
    except (ValueError, RecursionError) as e:
        return "", f"not JSON that can be read: {str(e)[:120] or type(e).__name__}"
    if not isinstance(run, dict):
        return "", f"expected a run object, got {_kind(run)}"
    if _depth(run) > MAX_DEPTH:
        return "", f"nested more than {MAX_DEPTH} levels deep"
    if not isinstance(run.get("task_id"), str):
        return "task_id", "missing" if "task_id" not in run else f"expected a string, got {_kind(run['task_id'])}"
    for key in ("reward", "partial"):
        if not isinstance(run.get(key), (int, float)) or isinstance(run.get(key), bool):
            return key, "missing" if key not in run else f"expected a number, got {_kind(run[key])}"
    transcript = run.get("transcript")
    if not isinstance(transcript, list):
        return "transcript", "missing" if "transcript" not in run else f"expected an array, got {_kind(transcript)}"
    for i, turn in enumerate(transcript):
        if not isinstance(turn, dict):
            return f"transcript[{i}]", f"expected an object, got {_kind(turn)}"
        if not isinstance(turn.get("name"), str):
            return f"transcript[{i}].name", "missing" if "name" not in turn else f"expected a string, got {_kind(turn['name'])}"
        if not isinstance(turn.get("arguments"), (dict, str)):
            return f"transcript[{i}].arguments", "missing" if "arguments" not in turn else f"expected an object or a string, got {_kind(turn['arguments'])}"
        if "result" not in turn:
            return f"transcript[{i}].result", "missing"
    return run


# ─────────────────────────── writing ───────────────────────────


_TMP = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.[a-z0-9_]+\.tmp\Z")


def _mode_for(path: Path) -> int:
    """The permissions `path` should end with: its own if it exists (a formatted file keeps
    them), else what the umask gives a new file (mkstemp's 0600 would hide outputs from others)."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextlib.contextmanager
def atomic_output(path: Path, newline: str = "\n") -> Iterator:
    """A text file to write `path` through: a temporary file next to it, `.NAME.PID.XXXX.tmp`,
    renamed over `path` when the block ends normally and removed when it does not (an error,
    Ctrl-C, SIGTERM), so a reader never sees half a file. A process killed outright (SIGKILL)
    cannot remove its file; the next writer of the same `path` does (`remove_stale`)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp")
    os.fchmod(fd, _mode_for(path))
    fh = os.fdopen(fd, "w", encoding="utf-8", newline=newline)
    try:
        yield fh
        fh.close()
        os.replace(tmp, path)
    except BaseException:
        fh.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_stdout(spool: int = 16 << 20) -> Iterator:
    """Standard output, all or nothing: lines are spooled (to a temporary file past `spool`
    bytes) and copied out when the block ends normally; an error or interrupt writes nothing."""
    import shutil
    import sys

    with tempfile.SpooledTemporaryFile(max_size=spool, mode="w+", encoding="utf-8", newline="\n") as fh:
        yield fh
        fh.seek(0)
        shutil.copyfileobj(fh, sys.stdout)
        sys.stdout.flush()


def remove_stale(path: Path) -> list[Path]:
    """Remove the temporary files of earlier writers of `path` whose process is gone (its pid is
    in the name). A live writer's file is left alone. Pids are this machine's: a folder written
    from two machines at once could lose a live writer's temporary file."""
    removed = []
    with contextlib.suppress(OSError):
        for f in path.parent.iterdir():
            m = _TMP.match(f.name)
            if m is None or m["name"] != path.name:
                continue
            if not _alive(int(m["pid"])):
                with contextlib.suppress(OSError):
                    f.unlink()
                    removed.append(f)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process, or a pid we cannot ask about: assume it writes
    return True
