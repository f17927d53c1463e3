"""Task files are checked on load, by one loader (compoworld_dsl/taskfile.py) that verify, eval,
export and serve share: a tampered or foreign file is refused with `FILE:LINE: FIELD: PROBLEM`
and exit 1, never a traceback, and a task that loads cannot crash the code that reads it.

The fuzzer at the end mutates real sampled tasks. It is bounded to a few seconds; set
WORLDC_FUZZ_SECONDS (say 600) for a long run, and WORLDC_FUZZ_SEED to start elsewhere."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from compoworld_dsl import taskfile as TF
from compoworld_dsl.cli import main
from compoworld_dsl.evaluate import evaluate, parse_agent
from compoworld_dsl.export import records
from compoworld_dsl.sample.run import Job, load_sampler, run
from compoworld_dsl.sample.sampler import verify_task

ROOT = Path(__file__).resolve().parent.parent
TOY = str(ROOT / "worlds" / "toy.world")
LEGAL = str(ROOT / "worlds" / "legal_ops.world")
FUZZ_SECONDS = float(os.environ.get("WORLDC_FUZZ_SECONDS", "4"))
FUZZ_SEED = int(os.environ.get("WORLDC_FUZZ_SEED", "0"))


@pytest.fixture(scope="module")
def toy():
    return load_sampler(TOY)


@pytest.fixture(scope="module")
def toy_file(tmp_path_factory) -> Path:
    """Real tasks, sampled as `worldc sample worlds/toy.world --hops 2 -n 4` would."""
    out = tmp_path_factory.mktemp("tasks") / "toy.jsonl"
    run(Job(TOY, 2, 4, 0), out)
    return out


@pytest.fixture(scope="module")
def toy_lines(toy_file) -> list[str]:
    return toy_file.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def legal(tmp_path_factory):
    """legal_ops tasks (house rules with witnesses, order rules, branches) and their sampler."""
    out = tmp_path_factory.mktemp("tasks") / "legal.jsonl"
    run(Job(LEGAL, 4, 6, 1), out)
    return load_sampler(LEGAL), [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, lines: list[str | bytes]) -> Path:
    path.write_bytes(b"".join((x if isinstance(x, bytes) else x.encode("utf-8")) + b"\n" for x in lines))
    return path


def edited(line: str, edit) -> str:
    task = json.loads(line)
    edit(task)
    return json.dumps(task)


# ─────────────────────────── what each command says ───────────────────────────

def _row_check(t: dict) -> dict:
    """A check about a table at the front of the task's checks (the sampled task may check
    only an answer), for the edits below to break."""
    c = {"kind": "row_deleted", "table": "files.files", "key": "file-1", "id": "c99"}
    t["checker"]["checks"].insert(0, c)
    return c


TAMPERED = [
    # (what, edit, the field named)
    ("no checker", lambda t: t.pop("checker"), "checker"),
    ("no id", lambda t: t.pop("id"), "id"),
    ("no instruction", lambda t: t.pop("instruction"), "instruction"),
    ("no initial_state", lambda t: t.pop("initial_state"), "initial_state"),
    ("checker null", lambda t: t.update(checker=None), "checker"),
    ("services 5", lambda t: t.update(services=5), "services"),
    ("reference_plan x", lambda t: t.update(reference_plan="x"), "reference_plan"),
    ("checks x", lambda t: t["checker"].update(checks="x"), "checker.checks"),
    ("an unknown check kind", lambda t: t["checker"]["checks"][1].update(kind="row_touched"), "checker.checks[1].kind"),
    ("a check without its table", lambda t: _row_check(t).pop("table"), "checker.checks[0].table"),
    ("a malformed constraint", lambda t: t.update(constraints=[{"kind": "state", "name": 5, "description": ""}]), "constraints[0].name"),
    ("a float seed", lambda t: t["initial_state"].update(seed=2.0), "initial_state.seed"),
    ("a tool the world lacks", lambda t: t["reference_plan"][0].update(tool="files.shred"), "reference_plan[0].tool"),
    ("a service the world lacks", lambda t: t["distractors"].append("payroll"), "distractors"),
    ("another world", lambda t: t.update(world="legal_ops"), "world"),
    ("a table the world lacks", lambda t: _row_check(t).update(table="files.vault"), "checker.checks[0].table"),
    ("an unknown house rule", lambda t: t.update(constraints=[{"kind": "state", "name": "no_such_rule", "description": ""}]), "constraints[0].name"),
]


@pytest.mark.parametrize("what,edit,field", TAMPERED, ids=[t[0] for t in TAMPERED])
def test_eval_names_the_line_and_the_field(capsys, tmp_path, toy_lines, what, edit, field):
    bad = write(tmp_path / "t.jsonl", [toy_lines[0], toy_lines[1], edited(toy_lines[2], edit), toy_lines[3]])
    code, out, err = run_main(capsys, "eval", TOY, str(bad), "--agent", "oracle")
    assert code == 1, err
    assert f"{bad}:3: {field}" in err, err
    assert "Traceback" not in err and out == ""


FOR_VERIFY = [t for t in TAMPERED if t[0] in ("checks x", "a malformed constraint", "no checker", "another world")]


@pytest.mark.parametrize("what,edit,field", FOR_VERIFY, ids=[t[0] for t in FOR_VERIFY])
def test_verify_reports_the_line_and_goes_on(capsys, tmp_path, toy_lines, what, edit, field):
    bad = write(tmp_path / "t.jsonl", [toy_lines[0], edited(toy_lines[1], edit), toy_lines[2]])
    code, _, err = run_main(capsys, "verify", TOY, str(bad))
    assert code == 1
    assert f"{bad}:2: task {json.loads(toy_lines[1])['id']}: {field}: " in err, err
    assert "2 of 3 tasks verified" in err


def test_export_writes_nothing_when_a_line_is_bad(capsys, tmp_path, toy_lines):
    bad = write(tmp_path / "t.jsonl", [toy_lines[0], "null"])
    out = tmp_path / "sft.jsonl"
    code, stdout, err = run_main(capsys, "export", "sft", TOY, str(bad), "-o", str(out))
    assert code == 1 and f"{bad}:2: expected a task object, got null" in err
    assert not out.exists() and not list(tmp_path.glob(".*.tmp"))
    code, stdout, err = run_main(capsys, "export", "rl", TOY, str(bad))
    assert code == 1 and stdout == ""  # stdout too is all or nothing


def test_bytes_that_are_not_json_or_not_utf8_are_named_by_line(capsys, tmp_path, toy_lines):
    cases = {
        b'{"id": "x", "seed": \xff\xfe}': "not UTF-8: byte 0xff at column 21",
        toy_lines[0][:-40].encode(): "not JSON:",
        b"[1, 2": "not JSON:",
        b"null": "expected a task object, got null",
        b"[]": "expected a task object, got an array",
        b"[" * 100_000: "not JSON",
    }
    for raw, said in cases.items():
        bad = write(tmp_path / "t.jsonl", [toy_lines[0], "", raw])
        for verb in (["eval", TOY, str(bad)], ["verify", TOY, str(bad)], ["export", "rl", TOY, str(bad)]):
            code, _, err = run_main(capsys, *verb)
            assert code == 1, (verb, raw[:30], err)
            assert f"{bad}:3: {said}" in err, (verb, raw[:30], err)


def test_an_empty_file_is_an_error_and_blank_lines_are_skipped(capsys, tmp_path, toy_lines):
    empty = write(tmp_path / "empty.jsonl", ["", "   "])
    for verb in (["eval", TOY, str(empty)], ["verify", TOY, str(empty)], ["export", "rl", TOY, str(empty)]):
        code, _, err = run_main(capsys, *verb)
        assert code == 1 and "holds no task" in err, (verb, err)
    spaced = write(tmp_path / "spaced.jsonl", ["", toy_lines[0], "  ", toy_lines[1] + "\r", ""])
    code, out, err = run_main(capsys, "eval", TOY, str(spaced), "--format", "json")
    assert code == 0 and json.loads(out)["tasks"] == 2
    code, _, err = run_main(capsys, "verify", TOY, str(spaced))
    assert code == 0 and "2 of 2 tasks verified" in err


def test_a_task_id_used_twice_is_refused_naming_both_lines(capsys, tmp_path, toy_lines):
    """Two records with one id (a file concatenated twice, a line copied and edited): every
    reader keys tasks by id (eval's results, serve --task, --runs), so the second is an error."""
    tid = json.loads(toy_lines[0])["id"]
    again = edited(toy_lines[0], lambda t: t.update(instruction="Something else."))
    dup = write(tmp_path / "t.jsonl", [toy_lines[0], toy_lines[1], "", again])
    said = f"{dup}:4: id: `{tid}` is also the id of line 1"
    with pytest.raises(TF.TaskFileError) as e:
        TF.load_tasks(dup)
    assert str(e.value) == said
    tasks = TF.iter_tasks(dup)
    assert [next(tasks)["id"], next(tasks)["id"]] == [tid, json.loads(toy_lines[1])["id"]]
    with pytest.raises(TF.TaskFileError):
        next(tasks)
    for verb in (["eval", TOY, str(dup)], ["export", "rl", TOY, str(dup)]):
        code, out, err = run_main(capsys, *verb)
        assert code == 1 and said in err and out == "", (verb, err)
    code, _, err = run_main(capsys, "verify", TOY, str(dup))
    assert code == 1 and f"{dup}:4: task {tid}: id: `{tid}` is also the id of line 1" in err, err
    assert "2 of 3 tasks verified" in err


def test_loading_stops_after_the_first_bad_lines(tmp_path, toy_lines):
    bad = write(tmp_path / "t.jsonl", [toy_lines[0]] + ["null"] * 50)
    with pytest.raises(TF.TaskFileError) as e:
        TF.load_tasks(bad)
    assert len(e.value.problems) == TF.MAX_REPORTED and e.value.more
    assert [p.line for p in e.value.problems] == list(range(2, 2 + TF.MAX_REPORTED))
    assert e.value.lines()[-1] == f"{bad}: stopped after {TF.MAX_REPORTED} bad lines"


def test_the_loader_streams(tmp_path, toy_lines):
    """iter_tasks yields the tasks before a bad line and reads no further than it needs."""
    bad = write(tmp_path / "t.jsonl", [toy_lines[0], toy_lines[1], "null"])
    tasks = TF.iter_tasks(bad)
    assert next(tasks)["id"] == json.loads(toy_lines[0])["id"]
    assert next(tasks)["id"] == json.loads(toy_lines[1])["id"]
    with pytest.raises(TF.TaskFileError) as e:
        next(tasks)
    assert str(e.value) == f"{bad}:3: expected a task object, got null"


def test_a_task_of_another_world_is_refused_by_name(capsys, tmp_path, toy_file):
    code, _, err = run_main(capsys, "eval", LEGAL, str(toy_file))
    assert code == 1
    assert f"{toy_file}:1: world: the task is for world `toy`, not `legal_ops`" in err


def test_serve_refuses_a_bad_file_before_it_starts(capsys, tmp_path, toy_lines):
    pytest.importorskip("mcp")
    bad = write(tmp_path / "t.jsonl", [toy_lines[0], edited(toy_lines[1], lambda t: t.update(checker=None))])
    code, _, err = run_main(capsys, "serve", TOY, "--tasks", str(bad))
    assert code == 1 and f"{bad}:2: checker: expected an object, got null" in err


def test_export_runs_are_checked_too(capsys, tmp_path, toy_file):
    runs = write(tmp_path / "runs.jsonl", [json.dumps({"task_id": "x", "transcript": [{"name": "call_tool"}], "reward": 1, "partial": 1.0})])
    code, _, err = run_main(capsys, "export", "sft", TOY, str(toy_file), "--runs", str(runs))
    assert code == 1 and f"{runs}:1: transcript[0].arguments: missing" in err


def test_the_schema_ships_inside_the_package():
    """A plain `pip install .` carries it (pyproject package-data), and jsonschema is a core dependency."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "compoworld_dsl.schemas" in config["tool"]["setuptools"]["packages"]
    assert "*.json" in config["tool"]["setuptools"]["package-data"]["compoworld_dsl.schemas"]
    assert any(d.startswith("jsonschema") for d in config["project"]["dependencies"])
    assert TF.SCHEMA_PATH.is_file() and TF.SCHEMA_PATH.parent.parent.name == "compoworld_dsl"


# ─────────────────────────── the fuzzer ───────────────────────────

ODD = [None, 5, -1, 2.5, "x", "", [], {}, True, 10**30, {"kind": "answer"}, ["x"], "files.files"]


def _nodes(x, path=()):
    """(path, container, key) for every value inside a record."""
    if isinstance(x, dict):
        for k, v in x.items():
            yield path + (k,), x, k
            yield from _nodes(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield path + (i,), x, i
            yield from _nodes(v, path + (i,))


def mutate_record(rng: random.Random, task: dict, pool: list[dict]) -> str:
    """Change one thing in a record, in place; say what."""
    nodes = list(_nodes(task))
    path, parent, key = rng.choice(nodes)
    how = rng.randrange(4)
    if how == 0 and isinstance(parent, dict):
        del parent[key]
        return f"delete {path}"
    if how == 1:  # a value of the right kind from elsewhere: a name, a number, a key of this or another task
        donor = rng.choice(pool)
        leaves = [(c, k) for _, c, k in _nodes(donor) if isinstance(c[k], type(parent[key])) and not isinstance(c[k], (dict, list))]
        if leaves:
            c, k = rng.choice(leaves)
            parent[key] = copy.deepcopy(c[k])
            return f"set {path} to {parent[key]!r:.40}"
    if how == 2 and isinstance(parent, list) and parent:
        parent.append(copy.deepcopy(rng.choice(parent)))
        return f"duplicate an item of {path[:-1]}"
    parent[key] = copy.deepcopy(rng.choice(ODD))
    return f"set {path} to {parent[key]!r:.40}"


def mutate_line(rng: random.Random, line: bytes) -> tuple[list[bytes], str]:
    how = rng.randrange(5)
    if how == 0:
        cut = rng.randrange(len(line))
        return [line[:cut]], f"truncate at {cut}"
    if how == 1:
        at = rng.randrange(len(line))
        return [line[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"]) + line[at:]], f"bytes at {at}"
    if how == 2:
        return [line, line], "duplicate the line"
    if how == 3:
        return [b"null", line], "a null line"
    return [b"", line, b"  "], "blank lines"


def test_fuzz_records_that_load_never_crash_the_readers(toy, toy_lines, legal):
    """Mutated records (of toy and of legal_ops) either fail to load with a named field, or load
    and then verify, play and export without an exception: each reader turns bad content into a
    result. Mutations delete keys, put odd values anywhere (null, 5, "x", [], {}, ...), copy a
    value of the same JSON type from another task, and duplicate list items."""
    oracle = parse_agent("oracle")
    corpora = [(toy, [json.loads(x) for x in toy_lines]), legal]
    rng = random.Random(FUZZ_SEED)
    stop = time.monotonic() + FUZZ_SECONDS
    tried = loaded = 0
    while time.monotonic() < stop or tried < 40:
        sampler, originals = rng.choice(corpora)
        task = copy.deepcopy(rng.choice(originals))
        said = [mutate_record(rng, task, originals) for _ in range(rng.choice((1, 1, 2, 3)))]
        tried += 1
        try:
            problems = TF.task_problems(task, sampler.world)
            if problems:
                assert all(isinstance(f, str) and m for f, m in problems)
                continue
            loaded += 1
            verify_task(sampler, task)
            evaluate(sampler.world, [task], oracle)
            list(records(sampler.world, [task], "sft"))
            list(records(sampler.world, [task], "rl"))
        except Exception as e:  # pragma: no cover - the report is the point
            raise AssertionError(f"mutation {tried} (seed {FUZZ_SEED}) of {task.get('id')}: {said}: {type(e).__name__}: {e}") from e
    assert loaded, "no mutated record loaded: the fuzzer reaches no reader"


def test_fuzz_files_give_exit_0_or_1_and_no_traceback(toy, tmp_path, toy_lines):
    """Line-level mutations (cut, bad bytes, duplicates, null and blank lines): the loader says
    what is wrong and never raises anything else; then the real commands, each once in a
    subprocess as a user runs them, exit 0 or 1 without a traceback."""
    rng = random.Random(FUZZ_SEED + 1)
    raw = [x.encode() for x in toy_lines]

    def mutated() -> tuple[list[bytes], list[str]]:
        lines, said = list(raw), []
        for _ in range(rng.choice((1, 2))):
            k = rng.randrange(len(lines))
            new, what = mutate_line(rng, lines[k] or b"{}")
            lines[k : k + 1] = new
            said.append(what)
        return lines, said

    stop = time.monotonic() + FUZZ_SECONDS / 4
    n = 0
    while time.monotonic() < stop or n < 20:
        lines, said = mutated()
        path = write(tmp_path / "f.jsonl", lines)
        n += 1
        try:
            for line in TF.read_lines(path, toy.world):
                assert line.task is not None or line.problems
                assert all(p.line == line.number and p.message for p in line.problems)
        except Exception as e:  # pragma: no cover
            raise AssertionError(f"file {n} (seed {FUZZ_SEED}): {said}: {type(e).__name__}: {e}") from e
    script = Path(sys.executable).with_name("worldc")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "compoworld_dsl.cli"]
    for args in (["verify", TOY], ["eval", TOY, "--agent", "oracle"], ["export", "sft", TOY]):
        lines, said = mutated()
        path = write(tmp_path / f"{args[0]}.jsonl", lines)
        args = args[:2] + [str(path)] + args[2:] if args[0] != "export" else args + [str(path)]
        done = subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert done.returncode in (0, 1), (args, said, done.stderr[-2000:])
        assert "Traceback" not in done.stderr + done.stdout, (args, said, done.stderr[-2000:])
