"""`worldc sample --resume` continues a killed run to the bytes of an uninterrupted one;
`--shard K/N` + `--merge` give the unsharded file byte for byte."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = str(ROOT / "worlds" / "toy.world")
LEGAL = str(ROOT / "worlds" / "legal_ops.world")
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGKILL and /proc")


def sample(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "compoworld_dsl", "sample", *argv], cwd=ROOT, capture_output=True, text=True, timeout=600)


def committed(folder: Path) -> int:
    """Tasks the (single) running writer has committed, from its state file."""
    for st in folder.glob(".*.state"):
        try:
            return json.loads(st.read_text())["selector"]["emitted"]
        except (OSError, ValueError, KeyError):
            pass
    return 0


def kill_after(tmp: Path, argv: list[str], tasks: int) -> None:
    """Run `worldc sample` and SIGKILL it once it has committed `tasks` tasks. The run goes in
    slices: stopped (SIGSTOP, the whole process group) while its state file is read, continued
    for a few milliseconds between reads, so that it cannot finish unseen however busy the
    machine is (polling a running process lost that race under a parallel benchmark: the run
    ended before the poll saw its 23rd task)."""
    proc = subprocess.Popen([sys.executable, "-m", "compoworld_dsl", "sample", *argv], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    stop = time.monotonic() + 600
    try:
        while proc.poll() is None and time.monotonic() < stop:
            os.killpg(proc.pid, signal.SIGSTOP)
            if committed(tmp) >= tasks:
                break
            os.killpg(proc.pid, signal.SIGCONT)
            time.sleep(0.005)
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # it ended first: the assertion below says so
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the run ended before it was killed"


@pytest.fixture(scope="module")
def toy_ref(tmp_path_factory) -> bytes:
    out = tmp_path_factory.mktemp("ref") / "ref.jsonl"
    assert sample(TOY, "--hops", "3", "-n", "40", "--seed", "7", "--workers", "2", "-o", str(out)).returncode == 0
    return out.read_bytes()


@linux_only
@pytest.mark.parametrize("tasks", [1, 9, 23])
def test_sigkill_then_resume_gives_the_same_bytes(tmp_path, toy_ref, tasks):
    out = tmp_path / "out.jsonl"
    argv = [TOY, "--hops", "3", "-n", "40", "--seed", "7", "--workers", "2", "-o", str(out)]
    kill_after(tmp_path, argv, tasks)
    assert not out.exists() and list(tmp_path.glob(".*.tmp"))
    r = sample(*argv, "--resume")
    assert r.returncode == 0, r.stderr
    assert "resuming" in r.stderr
    assert out.read_bytes() == toy_ref
    assert list(tmp_path.glob(".*.tmp")) == [] and list(tmp_path.glob(".*.state*")) == []


@linux_only
def test_a_torn_journal_is_cut_back_and_resumed(tmp_path, toy_ref):
    out = tmp_path / "out.jsonl"
    argv = [TOY, "--hops", "3", "-n", "40", "--seed", "7", "--workers", "2", "-o", str(out)]
    kill_after(tmp_path, argv, 5)
    journal = next(f for f in tmp_path.glob(".*.tmp") )
    with open(journal, "a") as f:
        f.write('{"id":"torn')  # half a task past the committed length
    assert sample(*argv, "--resume").returncode == 0
    assert out.read_bytes() == toy_ref


@linux_only
def test_resume_with_rule_share_on_legal_ops(tmp_path):
    ref, out = tmp_path / "ref" / "r.jsonl", tmp_path / "o" / "o.jsonl"
    base = [LEGAL, "--hops", "3", "-n", "10", "--seed", "7", "--workers", "2", "--format", "json"]
    r = sample(*base, "-o", str(ref))
    assert json.loads(r.stdout)["rejected"].get("no_rule", 0) > 0  # the rule share decides here
    out.parent.mkdir()
    kill_after(out.parent, [*base, "-o", str(out)], 4)
    r2 = sample(*base, "-o", str(out), "--resume")
    assert r2.returncode == 0, r2.stderr
    assert out.read_bytes() == ref.read_bytes()
    assert json.loads(r2.stdout)["rejected"] == json.loads(r.stdout)["rejected"]  # the report carries over too


@linux_only
def test_resume_with_other_options_is_refused(tmp_path):
    out = tmp_path / "out.jsonl"
    argv = [TOY, "--hops", "3", "-n", "40", "--seed", "7", "--workers", "2", "-o", str(out)]
    kill_after(tmp_path, argv, 3)
    before = sorted((f.name, f.read_bytes()) for f in tmp_path.iterdir())
    r = sample(*[a if a != "7" else "8" for a in argv], "--resume")
    assert r.returncode == 2
    assert "other options" in r.stderr and "seed 7 (now 8)" in r.stderr
    assert sorted((f.name, f.read_bytes()) for f in tmp_path.iterdir()) == before


def test_resume_of_a_complete_output_changes_nothing(tmp_path, toy_ref):
    out = tmp_path / "out.jsonl"
    out.write_bytes(toy_ref)
    mtime = out.stat().st_mtime_ns
    r = sample(TOY, "--hops", "3", "-n", "40", "--seed", "7", "-o", str(out), "--resume")
    assert r.returncode == 0 and "already complete (40 tasks)" in r.stderr
    assert out.read_bytes() == toy_ref and out.stat().st_mtime_ns == mtime
    assert sample(TOY, "--hops", "3", "-n", "40", "--seed", "9", "-o", str(out), "--resume").returncode == 2  # not this command's


def test_resume_needs_an_output_file():
    assert sample(TOY, "--hops", "2", "-n", "2", "--resume").returncode == 2


def test_shards_merge_to_the_unsharded_file(tmp_path, toy_ref):
    shards = [tmp_path / f"s{k}.jsonl" for k in (1, 2, 3)]
    for k, s in enumerate(shards, 1):  # too few: the merge names the shard to extend
        assert sample(TOY, "--hops", "3", "-n", "10", "--seed", "7", "--shard", f"{k}/3", "-o", str(s)).returncode == 0
    merge = [TOY, "--hops", "3", "-n", "40", "--seed", "7", *[a for s in shards for a in ("--merge", str(s))], "-o", str(tmp_path / "m.jsonl")]
    r = sample(*merge)
    assert r.returncode == 1 and "ran out" in r.stderr and not (tmp_path / "m.jsonl").exists()
    for k, s in enumerate(shards, 1):  # extended with --resume and a larger -n
        assert sample(TOY, "--hops", "3", "-n", "40", "--seed", "7", "--shard", f"{k}/3", "--workers", "2", "-o", str(s), "--resume").returncode == 0
    assert sample(*merge).returncode == 0
    assert (tmp_path / "m.jsonl").read_bytes() == toy_ref


def test_shards_merge_with_rule_share_on_legal_ops(tmp_path):
    ref = tmp_path / "r.jsonl"
    assert sample(LEGAL, "--hops", "3", "-n", "10", "--seed", "7", "-o", str(ref)).returncode == 0
    shards = [tmp_path / f"s{k}.jsonl" for k in (1, 2)]
    for k, s in enumerate(shards, 1):
        assert sample(LEGAL, "--hops", "3", "-n", "30", "--seed", "7", "--shard", f"{k}/2", "-o", str(s)).returncode == 0
    m = tmp_path / "m.jsonl"
    assert sample(LEGAL, "--hops", "3", "-n", "10", "--seed", "7", "--merge", str(shards[0]), "--merge", str(shards[1]), "-o", str(m)).returncode == 0
    assert m.read_bytes() == ref.read_bytes()
