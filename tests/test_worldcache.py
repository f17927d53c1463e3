"""The world cache (`compoworld_dsl.worldcache`): a hit gives the same world as a fresh compile,
any change to a file of the import closure (or to the package version) misses, a broken entry
is rebuilt, and processes that fill the cache at once all succeed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import compoworld_dsl
from compoworld_dsl import worldcache as W
from compoworld_dsl.codegen.python import generate_python

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "worlds" / "toy.world"
LEGAL = ROOT / "worlds" / "legal_ops.world"


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("COMPOWORLD_CACHE", str(folder))
    monkeypatch.delenv("COMPOWORLD_NO_CACHE", raising=False)
    monkeypatch.setattr(W, "_warned", False)
    return folder


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "COMPOWORLD_NO_CACHE"}
    env.update(extra)
    return env


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"*{W.SUFFIX}")) if folder.is_dir() else []


def _toy_copy(tmp_path: Path) -> tuple[Path, Path]:
    """toy.world in tmp_path, using its own copy of stdlib.files (which imports stdlib.time)."""
    folder = tmp_path / "w"
    folder.mkdir()
    world = folder / "toy.world"
    text = TOY.read_text(encoding="utf-8")
    assert "use stdlib.files, " in text
    world.write_text(text.replace("use stdlib.files, ", "use files, "), encoding="utf-8")
    lib = folder / "files.world"
    shutil.copy(ROOT / "stdlib" / "files.world", lib)
    return world, lib


# ─────────────────────────── a hit is the same world ───────────────────────────


@pytest.mark.parametrize("world", [TOY, LEGAL], ids=["toy", "legal_ops"])
def test_hit_samples_the_same_bytes(world, tmp_path, cache):
    def sample(out: Path, **env) -> bytes:
        cmd = [sys.executable, "-m", "compoworld_dsl", "sample", str(world), "--hops", "3", "-n", "3", "--seed", "5", "-o", str(out)]
        proc = subprocess.run(cmd, cwd=ROOT, env=_env(**env), capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        assert "warning" not in proc.stderr
        return out.read_bytes()

    uncached = sample(tmp_path / "a.jsonl", COMPOWORLD_NO_CACHE="1")
    assert not _entries(cache)
    filled = sample(tmp_path / "b.jsonl", COMPOWORLD_CACHE=str(cache))  # a miss: checks and stores
    [entry] = _entries(cache)
    stamp = entry.stat().st_mtime_ns
    hit = sample(tmp_path / "c.jsonl", COMPOWORLD_CACHE=str(cache))
    assert entry.stat().st_mtime_ns == stamp, "a hit rewrote the entry"
    assert uncached == filled == hit
    assert uncached.count(b"\n") == 3


@pytest.mark.parametrize("world", [TOY, LEGAL], ids=["toy", "legal_ops"])
def test_cached_model_is_the_checked_model(world):
    """expr_types is keyed by id() of AST nodes: after unpickling it must find the new nodes.
    Generated code reads the type of nearly every expression, so equal code means equal types."""
    program, code = W.compile_uncached(str(world))
    W.store(str(world), program, code)
    hit = W.lookup(str(world))
    assert hit is not None
    model, cached_code = hit
    assert len(model.expr_types) == len(program.model.expr_types)
    assert generate_python(model, str(world)) == generate_python(program.model, str(world))
    assert cached_code.co_filename == code.co_filename and cached_code.co_code == code.co_code


def test_no_cache_env_reads_and_writes_nothing(monkeypatch, cache):
    monkeypatch.setenv("COMPOWORLD_NO_CACHE", "1")
    model, _ = W.load_compiled(str(TOY))
    assert model.world.name == "toy"
    assert not cache.exists()


def test_cache_folder_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPOWORLD_CACHE", str(tmp_path / "a"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert W.cache_dir() == tmp_path / "a"
    monkeypatch.delenv("COMPOWORLD_CACHE")
    assert W.cache_dir() == tmp_path / "x" / "compoworld"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert W.cache_dir() == tmp_path / "home" / ".cache" / "compoworld"


# ─────────────────────────── staleness ───────────────────────────


def test_editing_the_world_file_misses(tmp_path):
    world, _ = _toy_copy(tmp_path)
    W.load_compiled(str(world))
    assert W.lookup(str(world)) is not None
    text = world.read_text(encoding="utf-8")
    world.write_text(text.replace("A desk worker's files", "A clerk's files"), encoding="utf-8")
    assert W.lookup(str(world)) is None
    model, _ = W.load_compiled(str(world))
    assert model.world.description.startswith("A clerk's files")
    assert W.lookup(str(world)) is not None  # the stale entry was replaced
    assert len(_entries(W.cache_dir())) == 1


def test_editing_an_imported_file_misses(tmp_path):
    world, lib = _toy_copy(tmp_path)
    model, _ = W.load_compiled(str(world))
    assert model.services["files"].description == "A file system of text documents in folders"
    assert W.lookup(str(world)) is not None
    lib.write_text(lib.read_text(encoding="utf-8").replace("A file system of text documents", "A drive of text documents"), encoding="utf-8")
    assert W.lookup(str(world)) is None
    model, _ = W.load_compiled(str(world))
    assert model.services["files"].description == "A drive of text documents in folders"


def test_the_closure_holds_every_imported_file(tmp_path):
    world, lib = _toy_copy(tmp_path)
    program, code = W.compile_uncached(str(world))
    header, _ = W._read_header(W.store(str(world), program, code).read_bytes())
    paths = {Path(p) for p, _, _ in header["closure"]}
    stdlib = (ROOT / "stdlib").resolve()
    assert {world.resolve(), lib.resolve(), stdlib / "time.world", stdlib / "calendar.world", stdlib / "tasks.world"} <= paths
    assert paths == set(program.modules)


def test_a_repointed_symbolic_link_misses(tmp_path):
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "a.world").write_text("type Thing = id\n", encoding="utf-8")
    (folder / "b.world").write_text("type Thing = text\n", encoding="utf-8")
    (folder / "lib.world").symlink_to("a.world")
    world = folder / "main.world"
    world.write_text(TOY.read_text(encoding="utf-8").replace('world toy "', 'import "lib.world"\n\nworld toy "', 1), encoding="utf-8")
    model, _ = W.load_compiled(str(world))
    assert str(model.aliases["Thing"].base) == "id"
    assert W.lookup(str(world)) is not None
    (folder / "lib.world").unlink()
    (folder / "lib.world").symlink_to("b.world")
    assert W.lookup(str(world)) is None
    model, _ = W.load_compiled(str(world))
    assert str(model.aliases["Thing"].base) == "text"


def test_another_package_version_misses(monkeypatch):
    W.load_compiled(str(TOY))
    assert W.lookup(str(TOY)) is not None
    monkeypatch.setattr(compoworld_dsl, "__version__", "999.0.0")
    assert W.lookup(str(TOY)) is None
    W.load_compiled(str(TOY))
    assert W.lookup(str(TOY)) is not None
    assert len(_entries(W.cache_dir())) == 2  # one per version


def test_a_world_that_does_not_check_raises_and_stores_nothing(tmp_path, cache):
    bad = tmp_path / "bad.world"
    bad.write_text('world w "w" {\n  use stdlib.nope\n}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="does not check"):
        W.load_compiled(str(bad))
    assert not _entries(cache)


# ─────────────────────────── broken entries ───────────────────────────


@pytest.mark.parametrize("damage", ["garbage", "truncated", "flipped", "empty", "bad-header"])
def test_a_broken_entry_is_ignored_and_rebuilt(damage, capsys):
    W.load_compiled(str(TOY))
    [entry] = _entries(W.cache_dir())
    data = entry.read_bytes()
    if damage == "garbage":
        data = os.urandom(len(data))
    elif damage == "truncated":
        data = data[: len(data) * 2 // 3]
    elif damage == "flipped":
        i = len(data) - 100
        data = data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1 :]
    elif damage == "empty":
        data = b""
    else:
        data = W.MAGIC + data[len(W.MAGIC) : len(W.MAGIC) + 8] + b"{" * 50
    entry.write_bytes(data)
    capsys.readouterr()
    model, _ = W.load_compiled(str(TOY))
    assert model.world.name == "toy"
    err = capsys.readouterr().err
    assert err.count("warning") == 1 and "rebuilding" in err
    assert W.lookup(str(TOY)) is not None  # rebuilt
    entry.write_bytes(data)
    W.load_compiled(str(TOY))
    assert "warning" not in capsys.readouterr().err  # once per process


def test_an_unwritable_cache_warns_once_and_still_loads(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("COMPOWORLD_CACHE", str(blocker / "cache"))
    for _ in range(2):
        model, _ = W.load_compiled(str(TOY))
        assert model.world.name == "toy"
    err = capsys.readouterr().err
    assert err.count("cannot write the world cache") == 1


# ─────────────────────────── processes at once ───────────────────────────

_LOAD = """
import sys
from compoworld_dsl.sample.run import load_sampler
s = load_sampler(sys.argv[1])
print(len(s.tools))
"""


def test_processes_filling_the_cache_at_once_all_succeed(cache):
    procs = [subprocess.Popen([sys.executable, "-c", _LOAD, str(LEGAL)], cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [e for _, e in outs]
    assert len({o for o, _ in outs}) == 1
    assert all("warning" not in e for _, e in outs)
    assert len(_entries(cache)) == 1
    assert sorted(p.name for p in cache.iterdir() if p.suffix != W.SUFFIX) == [W.KEY_NAME], "temporary files left behind"
    assert len((cache / W.KEY_NAME).read_bytes()) == W.KEY_BYTES  # whole, though three processes raced to make it
    # The key covers the package's source as this process first read it; in a working tree being
    # edited it may have changed since, and the subprocesses read it afresh.
    W.source_digest.cache_clear()
    W._code_fingerprint.cache_clear()
    assert W.lookup(str(LEGAL)) is not None
    # and a later process hits it
    proc = subprocess.run([sys.executable, "-c", _LOAD, str(LEGAL)], cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and proc.stdout == outs[0][0]


def test_entries_of_older_compilers_are_pruned_once_old(monkeypatch, cache):
    W.load_compiled(str(TOY))
    [first] = _entries(cache)
    lost = cache / f".{first.stem}-dead.tmp"
    lost.write_bytes(b"half an entry")
    monkeypatch.setattr(compoworld_dsl, "__version__", "999.0.0")
    W.load_compiled(str(TOY))
    assert len(_entries(cache)) == 2 and lost.exists()  # young: another install may use them
    day_old = first.stat().st_mtime - W.PRUNE_AFTER - 60
    for p in (first, lost):
        os.utime(p, (day_old, day_old))
    W.load_compiled(str(LEGAL))  # another world: leaves toy's alone
    assert first.exists()
    monkeypatch.setattr(compoworld_dsl, "__version__", "999.0.1")
    W.load_compiled(str(TOY))
    names = {p.name for p in cache.iterdir()}
    assert first.name not in names and lost.name not in names
    assert len([n for n in names if n.startswith(first.name.split("-")[0])]) == 2
