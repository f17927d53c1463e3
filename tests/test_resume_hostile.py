"""`worldc sample --resume` trusts nothing that lies beside its output. A journal, state or
output that is a link, is not a regular file, or was damaged, edited or forged is refused with
one line naming the file and what to do (exit 1; exit 2 only for a state of other options, i.e.
another command), never followed and never a traceback; bytes past the committed length (the
torn tail of a kill) are dropped and redone; a state whose pid is alive but is not the run's own
writer (pid reuse, another host or boot) does not block resume.

The probe applies many mutations to a killed run's journal, state and output and
resumes each in process. Every outcome must be exit 0 with the bytes of an uninterrupted run, or
exit 1 with a message (2 with "other options"), never an exception, and no file outside the
output folder changes. It tries 76 inputs (56 named, 20 random) in ~20 s; WORLDC_LONG=1 tries
400 random ones (WORLDC_FUZZ_SEED starts elsewhere)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compoworld_dsl.cli import main
from compoworld_dsl.sample.run import Job, run

ROOT = Path(__file__).resolve().parent.parent
TOY = str(ROOT / "worlds" / "toy.world")
ARGS = ["--hops", "2", "-n", "8", "--seed", "3"]
KEEP = 4  # tasks the killed run committed
LONG = os.environ.get("WORLDC_LONG") == "1"
RANDOM_CASES = 400 if LONG else 20
FUZZ_SEED = int(os.environ.get("WORLDC_FUZZ_SEED", "0"))
linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

# A run stopped after KEEP tasks with its files kept, in a process that then exits: its pid is dead
PARTIAL = """
import signal, sys, time
from compoworld_dsl.sample.run import Interrupted, Job, run
def stop(report):
    if report.emitted >= {keep}:
        if {hold}:
            print("held", flush=True)
            time.sleep(600)
        raise Interrupted(signal.SIGTERM)
try:
    run(Job({toy!r}, 2, {count}, 3, **{extra}), {out!r}, progress=stop, resume=True)
except Interrupted:
    sys.exit(0)
sys.exit(3)
"""


def partial_run(out: Path, keep: int = KEEP, count: int = 8, extra: dict | None = None, hold: bool = False):
    code = PARTIAL.format(keep=keep, hold=hold, toy=TOY, count=count, extra=extra or {}, out=str(out))
    if hold:
        return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def seal(state: dict) -> dict:
    """What a forger who knows the scheme does (docs/sampling.md): the state's `sha256` over the
    canonical JSON of the rest. Damage and naive edits do not do this; the probe tries both."""
    body = {k: v for k, v in state.items() if k != "sha256"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return {**body, "sha256": hashlib.sha256(text.encode()).hexdigest()}


@pytest.fixture(scope="module")
def ref(tmp_path_factory) -> bytes:
    out = tmp_path_factory.mktemp("ref") / "ref.jsonl"
    run(Job(TOY, 2, 8, 3), out)
    return out.read_bytes()


@pytest.fixture(scope="module")
def killed(tmp_path_factory) -> dict[str, bytes]:
    """The files a killed run left: {name: bytes}, one journal (.tmp) and its .state."""
    folder = tmp_path_factory.mktemp("killed")
    partial_run(folder / "out.jsonl")
    files = {f.name: f.read_bytes() for f in folder.iterdir()}
    assert sorted(Path(n).suffix for n in files) == [".state", ".tmp"], files.keys()
    return files


class Case:
    """A copy of the killed run's folder, an outside folder with a victim file, and the paths."""

    def __init__(self, base: Path, killed: dict[str, bytes]):
        self.folder, self.outside = base / "out", base / "outside"
        self.folder.mkdir(parents=True)
        self.outside.mkdir()
        for name, data in killed.items():
            (self.folder / name).write_bytes(data)
        self.out = self.folder / "out.jsonl"
        self.journal = next(self.folder.glob(".*.tmp"))
        self.state = next(self.folder.glob(".*.state"))
        self.victim = self.outside / "victim"
        self.victim.write_bytes(b"precious\n")
        self.committed = json.loads(killed[self.state.name])["bytes"]

    def snapshot(self) -> dict:
        return {f.name: (f.read_bytes(), f.stat().st_mtime_ns) for f in self.outside.iterdir()}

    def state_dict(self) -> dict:
        return json.loads(self.state.read_bytes())

    def write_state(self, state: dict, sealed: bool) -> None:
        self.state.write_text(json.dumps(seal(state) if sealed else state))

    def lines(self) -> list[bytes]:
        return self.journal.read_bytes()[: self.committed].splitlines(keepends=True)

    def write_journal(self, lines: list[bytes], tail: bytes = b"") -> None:
        self.journal.write_bytes(b"".join(lines) + tail)


def resume(capsys, out: Path, *extra: str) -> tuple[int | str, str]:
    """`worldc sample ... --resume` in process: (exit status, stderr), or ("exception", text)."""
    try:
        code = main(["sample", TOY, *ARGS, "-o", str(out), "--resume", *extra])
    except SystemExit as e:
        code = e.code
    except Exception as e:  # a traceback, for a user
        capsys.readouterr()
        return "exception", f"{type(e).__name__}: {e}"
    return code, capsys.readouterr().err


def judge(case: Case, code, err: str, ref: bytes, before: dict) -> str | None:
    """What is wrong with an outcome, or None."""
    if case.snapshot() != before:
        return "a file outside the output folder changed"
    last = err.strip().splitlines()[-1] if err.strip() else ""
    if code == 0:
        if os.path.islink(case.out) or not case.out.is_file() or case.out.read_bytes() != ref:
            return "exit 0 but the output is not the uninterrupted run's bytes"
        return None
    if code == 2 and last.endswith("name a file to write"):  # -o names a folder: bad usage, before any resuming
        return None
    if code == 1 or (code == 2 and "other options" in last):
        if last.startswith("worldc: error: ") and "--resume" in last and "Traceback" not in err:
            return None
        return f"exit {code} without a last line saying what is wrong and what to do: {err[-300:]!r}"
    return f"{code}: {err[-300:]}"


# ─────────────────────────── mutations ───────────────────────────

ODD = ["x", 1.5, [], None, True, {}, -1, 10**30, 1e308, "1"]
STATE_PATHS = [
    ("bytes",), ("next",), ("options",), ("selector",), ("report",), ("selector", "emitted"), ("selector", "waited"),
    ("selector", "seen"), ("selector", "ruled"), ("report", "attempts"), ("report", "rejected"), ("report", "z3_seconds"),
    ("report", "tools"), ("options", "seed"), ("options", "world_sha256"), ("options", "hops"), ("options", "count"),
]


def set_at(state: dict, path: tuple, value) -> dict:
    node = state
    for k in path[:-1]:
        node = node[k]
    if value is KeyError:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value
    return state


def named_cases(c: Case):
    """(name, mutate) pairs: each mutate(c) changes the copy in c.folder."""
    st = json.loads(c.state.read_bytes())

    def state_edit(path, value, sealed):
        return lambda c: c.write_state(set_at(c.state_dict(), path, value), sealed)

    def symlink(target_bytes_of):
        def go(c):
            p = target_bytes_of(c)
            c.victim.write_bytes(p.read_bytes())
            p.unlink()
            p.symlink_to(c.victim)
        return go

    def hardlink(target_of):
        def go(c):
            p = target_of(c)
            c.victim.write_bytes(p.read_bytes())
            p.unlink()
            os.link(c.victim, p)
        return go

    def lines_edit(edit, tail=b""):
        return lambda c: c.write_journal(edit(c.lines()), tail)

    def swap(ls):
        ls[0], ls[1] = ls[1], ls[0]
        return ls

    def forge_byte(c):
        data = bytearray(c.journal.read_bytes())
        at = data.index(b'"instruction":"') + 20
        data[at] = ord("Q") if data[at] != ord("Q") else ord("R")
        c.journal.write_bytes(bytes(data))

    def statex(c):
        suffix = c.journal.name.rsplit(".", 2)[1]
        (c.folder / f".out.jsonl.{os.getpid()}.{suffix}.statex").symlink_to(c.victim)
        (c.folder / f".out.jsonl.{os.getpid()}.{suffix}.tmp").symlink_to(c.victim)

    yield "state truncated", lambda c: c.state.write_bytes(c.state.read_bytes()[: len(c.state.read_bytes()) // 2])
    yield "state empty", lambda c: c.state.write_bytes(b"")
    yield "state not JSON", lambda c: c.state.write_bytes(b"\x00\xffnot json")
    yield "state a JSON array", lambda c: c.state.write_bytes(b"[]")
    yield "state a huge integer", lambda c: c.state.write_bytes(c.state.read_bytes().replace(b'"next":', b'"next":' + b"9" * 5000 + b",\"x\":", 1))
    yield "state nested deeply", lambda c: c.state.write_bytes(b"[" * 100_000)
    for sealed in (False, True):
        w = "sealed " if sealed else ""
        yield f"{w}bytes a string", state_edit(("bytes",), "x", sealed)
        yield f"{w}next a float", state_edit(("next",), 1.5, sealed)
        yield f"{w}selector a list", state_edit(("selector",), [], sealed)
        yield f"{w}report missing", state_edit(("report",), KeyError, sealed)
        yield f"{w}rejected a list", state_edit(("report", "rejected"), [1], sealed)
        yield f"{w}bytes huge", state_edit(("bytes",), 10**30, sealed)
        yield f"{w}next huge", state_edit(("next",), 10**18, sealed)
        yield f"{w}z3 seconds infinite", state_edit(("report", "z3_seconds"), 1e400, sealed)
        yield f"{w}emitted negative", state_edit(("selector", "emitted"), -1, sealed)
        yield f"{w}attempts negative", state_edit(("report", "attempts"), -5, sealed)
        yield f"{w}a rejection count negative", state_edit(("report", "rejected", "no_walk"), -3, sealed)
        yield f"{w}other seed", state_edit(("options", "seed"), 4, sealed)
        yield f"{w}other world digest", state_edit(("options", "world_sha256"), "0" * 64, sealed)
        yield f"{w}emitted one more", state_edit(("selector", "emitted"), st["selector"]["emitted"] + 1, sealed)
        yield f"{w}bytes one line short", lambda c, s=sealed: c.write_state(set_at(c.state_dict(), ("bytes",), c.committed - len(c.lines()[-1])), s)
    yield "waited edited", state_edit(("selector", "waited"), st["selector"]["waited"] + 1, False)
    yield "next edited", state_edit(("next",), st["next"] + 1, False)
    yield "state a symlink to a copy outside", symlink(lambda c: c.state)
    yield "state a hard link to a file outside", hardlink(lambda c: c.state)
    yield "state a directory", lambda c: (c.state.unlink(), c.state.mkdir())
    yield "state temp file planted as a symlink", statex
    yield "journal a symlink to a copy outside", symlink(lambda c: c.journal)
    yield "journal a hard link to a file outside", hardlink(lambda c: c.journal)
    yield "journal a directory", lambda c: (c.journal.unlink(), c.journal.mkdir())
    yield "journal cut inside the committed tasks", lambda c: c.journal.write_bytes(c.journal.read_bytes()[: c.committed - 7])
    yield "journal's last committed newline torn", lines_edit(lambda ls: ls[:-1] + [ls[-1][:-1] + b" "])
    yield "journal line missing, padded", lines_edit(lambda ls: ls[:1] + ls[2:], b"x" * 4000)
    yield "journal lines swapped", lines_edit(swap)
    yield "journal line duplicated", lines_edit(lambda ls: [ls[0], ls[0], *ls[2:]], b"x" * 4000)
    yield "journal byte forged", forge_byte
    yield "journal with a torn tail", lambda c: c.journal.write_bytes(c.journal.read_bytes() + b'{"id":"to')
    yield "journal with junk past the committed length", lambda c: c.journal.write_bytes(c.journal.read_bytes() + b"junk\n" * 3 + b"\xff")
    yield "journal removed", lambda c: c.journal.unlink()
    yield "output a symlink outside", lambda c: c.out.symlink_to(c.victim)
    yield "output a directory", lambda c: c.out.mkdir()


def random_case(rng: random.Random):
    """One random mutation: bit flips or a cut in the state or the journal, or a field of the
    state set to an odd value (sealed or not)."""
    how = rng.randrange(4)
    if how == 0:
        def flip(c, n=rng.randrange(1, 4), seed=rng.random()):
            r = random.Random(seed)
            p = r.choice([c.state, c.journal])
            data = bytearray(p.read_bytes())
            for _ in range(n):
                data[r.randrange(len(data))] ^= 1 << r.randrange(8)
            p.write_bytes(bytes(data))
        return "bit flips", flip
    if how == 1:
        def cut(c, seed=rng.random()):
            r = random.Random(seed)
            p = r.choice([c.state, c.journal])
            data = p.read_bytes()
            p.write_bytes(data[: r.randrange(len(data))])
        return "a cut", cut
    path, value, sealed = rng.choice(STATE_PATHS), rng.choice(ODD), rng.random() < 0.5
    return f"{'sealed ' if sealed else ''}{'/'.join(path)} = {value!r:.20}", lambda c: c.write_state(set_at(c.state_dict(), path, value), sealed)


def test_probe_hostile_journals_states_and_outputs(tmp_path, capsys, killed, ref):
    rng = random.Random(FUZZ_SEED)
    failures, tried = [], 0
    cases = list(named_cases(Case(tmp_path / "proto", killed))) + [random_case(rng) for _ in range(RANDOM_CASES)]
    for k, (name, mutate) in enumerate(cases):
        c = Case(tmp_path / f"c{k}", killed)
        mutate(c)
        before = c.snapshot()
        code, err = resume(capsys, c.out)
        tried += 1
        wrong = judge(c, code, err, ref, before)
        if wrong:
            failures.append(f"{name}: {wrong}")
        shutil.rmtree(tmp_path / f"c{k}", ignore_errors=True)
    print(f"{tried} inputs, {len(failures)} failures")
    assert not failures, f"{len(failures)} of {tried}:\n" + "\n".join(failures)


# ─────────────────────────── named findings ───────────────────────────


def test_a_symlinked_journal_is_refused_and_its_target_untouched(tmp_path, capsys, killed):
    c = Case(tmp_path, killed)
    c.victim.write_bytes(c.journal.read_bytes())
    c.journal.unlink()
    c.journal.symlink_to(c.victim)
    before = c.victim.read_bytes()
    code, err = resume(capsys, c.out)
    assert code == 1, err
    assert f"{c.journal}: is a symbolic link" in err and "without --resume" in err
    assert c.victim.read_bytes() == before and not c.out.exists()


def test_a_planted_state_temp_file_is_not_followed(tmp_path, capsys, killed, ref):
    c = Case(tmp_path, killed)
    suffix = c.journal.name.rsplit(".", 2)[1]
    (c.folder / f".out.jsonl.{os.getpid()}.{suffix}.statex").symlink_to(c.victim)
    code, err = resume(capsys, c.out)
    assert code == 0, err
    assert c.victim.read_bytes() == b"precious\n" and c.out.read_bytes() == ref


@pytest.mark.parametrize("what", ["torn", "missing", "swapped", "forged"])
def test_an_edited_journal_is_refused_naming_the_line(tmp_path, capsys, killed, what):
    c = Case(tmp_path, killed)
    ls = c.lines()
    if what == "torn":
        c.write_journal(ls[:-1] + [ls[-1][:-1] + b" "])
        said = f"{c.journal}:{len(ls)}: torn"
    elif what == "missing":
        c.write_journal(ls[:1] + ls[2:], b"x" * len(ls[1]))  # padded to the committed length
        said = f"{c.journal}:{len(ls)}: torn"
    elif what == "swapped":
        c.write_journal([ls[1], ls[0], *ls[2:]])
        said = f"{c.journal}:2: attempt"
    else:
        data = bytearray(c.journal.read_bytes())
        at = data.index(b'"instruction":"') + 20
        data[at] ^= 1
        c.journal.write_bytes(bytes(data))
        said = f"{c.journal}: its committed tasks do not match the digest in its state"
    code, err = resume(capsys, c.out)
    assert code == 1 and said in err, err
    assert "start again without --resume" in err and not c.out.exists()


TAMPERED_STATES = [
    ("truncated", lambda raw: raw[: len(raw) // 2], "not JSON"),
    ("not JSON", lambda raw: b"not json", "not JSON"),
    ("wrong types", lambda raw: json.dumps(seal({**json.loads(raw), "bytes": "x"})).encode(), "bytes: expected"),
    ("huge numbers", lambda raw: json.dumps(seal({**json.loads(raw), "next": 10**18})).encode(), "next: must be"),
    ("negative counts", lambda raw: json.dumps(seal(set_at(json.loads(raw), ("selector", "emitted"), -1))).encode(), "selector.emitted: must be"),
    ("wrong job options", lambda raw: json.dumps(set_at(json.loads(raw), ("options", "seed"), 4)).encode(), "does not match its digest"),
    ("other world digest", lambda raw: json.dumps(set_at(json.loads(raw), ("options", "world_sha256"), "0" * 64)).encode(), "does not match its digest"),
]


@pytest.mark.parametrize("what,edit,said", TAMPERED_STATES, ids=[t[0] for t in TAMPERED_STATES])
def test_a_tampered_state_is_refused_in_one_line(tmp_path, capsys, killed, what, edit, said):
    c = Case(tmp_path, killed)
    c.state.write_bytes(edit(c.state.read_bytes()))
    before = sorted((f.name, f.read_bytes()) for f in c.folder.iterdir())
    code, err = resume(capsys, c.out)
    assert code == 1, err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"worldc: error: {c.state}: ") and said in last and "without --resume" in last, last
    assert sorted((f.name, f.read_bytes()) for f in c.folder.iterdir()) == before


def test_a_state_that_is_a_fifo_does_not_hang_resume(tmp_path, killed):
    """Through the real command (a subprocess, so that a hang is a timeout): exit 1, one line
    naming the file, no traceback."""
    c = Case(tmp_path, killed)
    c.state.unlink()
    os.mkfifo(c.state)
    done = subprocess.run([sys.executable, "-m", "compoworld_dsl", "sample", TOY, *ARGS, "-o", str(c.out), "--resume"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.stderr.strip().splitlines()[-1] == f"worldc: error: {c.state}: is not a regular file; start again without --resume, or remove {c.state}"


# ─────────────────────────── the lock ───────────────────────────


def rename_to_pid(c: Case, pid: int) -> None:
    for p in (c.journal, c.state):
        parts = p.name.split(".")
        parts[-3] = str(pid)
        p.rename(p.with_name(".".join(parts)))


@linux_only
def test_a_live_pid_that_is_not_the_writer_does_not_block_resume(tmp_path, capsys, killed, ref):
    """The files name a pid that is alive (pid reuse): a `sleep`, not a worldc sample."""
    sleeper = subprocess.Popen(["sleep", "300"])
    try:
        c = Case(tmp_path, killed)
        rename_to_pid(c, sleeper.pid)
        code, err = resume(capsys, c.out)
        assert code == 0, err
        assert c.out.read_bytes() == ref and list(c.folder.glob(".*")) == []
    finally:
        sleeper.kill()
        sleeper.wait()


@linux_only
def test_a_writer_on_another_host_does_not_block_resume(tmp_path, capsys, killed, ref):
    sleeper = subprocess.Popen(["sleep", "300"])
    try:
        c = Case(tmp_path, killed)
        st = c.state_dict()
        st["writer"] = {**st.get("writer", {}), "pid": sleeper.pid, "host": "elsewhere"}
        c.write_state(st, sealed=True)
        rename_to_pid(c, sleeper.pid)
        code, err = resume(capsys, c.out)
        assert code == 0, err
        assert c.out.read_bytes() == ref
    finally:
        sleeper.kill()
        sleeper.wait()


@linux_only
def test_a_live_writer_still_blocks_resume(tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    writer = partial_run(out, keep=2, hold=True)
    try:
        assert writer.stdout.readline().strip() == "held"
        before = sorted((f.name, f.read_bytes()) for f in tmp_path.iterdir())
        code, err = resume(capsys, out)
        assert code == 2 and f"another worldc sample (pid {writer.pid}) is writing {out}" in err, err
        assert sorted((f.name, f.read_bytes()) for f in tmp_path.iterdir()) == before
    finally:
        writer.kill()
        writer.wait()


# ─────────────────────────── extending a finished shard ───────────────────────────


@pytest.mark.parametrize("what", ["not JSON", "no index", "another seed", "out of order", "foreign shard"])
def test_a_tampered_shard_file_is_refused_when_extended(tmp_path, capsys, what):
    out = tmp_path / "s1.jsonl"
    assert main(["sample", TOY, "--hops", "2", "-n", "3", "--seed", "3", "--shard", "1/2", "-o", str(out)]) == 0
    capsys.readouterr()
    ls = out.read_bytes().splitlines(keepends=True)
    if what == "not JSON":
        ls[-1] = b"{not json\n"
    elif what == "no index":
        ls[-1] = ls[-1].replace(b'","format"', b'-x","format"', 1)
    elif what == "another seed":
        ls[-1] = ls[-1].replace(b"-s3-", b"-s4-", 1)
    elif what == "out of order":
        ls[0], ls[-1] = ls[-1], ls[0]
    else:
        i = int(json.loads(ls[-1])["id"].rsplit("-", 1)[1])
        ls[-1] = ls[-1].replace(b"-%06d" % i, b"-%06d" % (i + 1), 1)
    out.write_bytes(b"".join(ls))
    before = out.read_bytes()
    try:
        code = main(["sample", TOY, "--hops", "2", "-n", "5", "--seed", "3", "--shard", "1/2", "-o", str(out), "--resume"])
    except SystemExit as e:
        code = e.code
    err = capsys.readouterr().err
    assert code == 1, err
    assert f"{out}:" in err and "without --resume" in err, err
    assert out.read_bytes() == before


def test_an_untampered_shard_is_extended_to_the_same_bytes(tmp_path, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["sample", TOY, "--hops", "2", "-n", "3", "--seed", "3", "--shard", "1/2", "-o", str(a)]) == 0
    assert main(["sample", TOY, "--hops", "2", "-n", "5", "--seed", "3", "--shard", "1/2", "-o", str(a), "--resume"]) == 0
    assert main(["sample", TOY, "--hops", "2", "-n", "5", "--seed", "3", "--shard", "1/2", "-o", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
