"""The world cache trusts nothing another user could have written (issue 26, item 1): its folder
must be the user's own and private, every entry is authenticated with the user's key before any
of it is unpickled, and an entry is served only for the import closure the world has now.

Tests that hand a file to another user (`nobody`, uid 65534) need root and are skipped otherwise.
Long mode: WORLDC_LONG=1 makes the tampering probe try 3,000 damaged entries instead of 60."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import marshal
import os
import pickle
import random
import shlex
import shutil
import stat
import struct
from pathlib import Path

import pytest

from compoworld_dsl import worldcache as W
from compoworld_dsl.sample.run import load_sampler

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "worlds" / "toy.world"
NOBODY = 65534
LONG = os.environ.get("WORLDC_LONG") == "1"
_LEN = struct.Struct("<Q")

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="handing a file to another user needs root")


from test_worldcache import cache  # noqa: E402,F401  (autouse: a private cache folder per test)


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"*{W.SUFFIX}")) if folder.is_dir() else []


def _mode(p: Path) -> int:
    return stat.S_IMODE(os.lstat(p).st_mode)


def _toy_copy(tmp_path: Path) -> tuple[Path, Path]:
    """toy.world in tmp_path, using its own copy of stdlib.files."""
    folder = tmp_path / "w"
    folder.mkdir()
    world = folder / "toy.world"
    world.write_text(TOY.read_text(encoding="utf-8").replace("use stdlib.files, ", "use files, "), encoding="utf-8")
    lib = folder / "files.world"
    shutil.copy(ROOT / "stdlib" / "files.world", lib)
    return world, lib


def _split(data: bytes) -> tuple[int, dict, bytes]:
    """(where the header's length starts, the header, the payload) of an entry, found without
    knowing what (if anything) sits between the magic line and the header."""
    for at in range(len(W.MAGIC), len(W.MAGIC) + 65):
        (n,) = _LEN.unpack_from(data, at)
        try:
            header = json.loads(data[at + _LEN.size : at + _LEN.size + n])
        except ValueError:
            continue
        if isinstance(header, dict) and "key" in header:
            return at, header, data[at + _LEN.size + n :]
    raise AssertionError("no header in the entry")


def _rebuild(data: bytes, header: dict, payload: bytes) -> bytes:
    """The entry with another header or payload, its sha256 (if it has one) made to match: what
    anyone who can write the file can do without the user's key."""
    at, _, _ = _split(data)
    if "payload_sha256" in header:
        header = {**header, "payload_sha256": hashlib.sha256(payload).hexdigest()}
    head = json.dumps(header, sort_keys=True).encode()
    return data[:at] + _LEN.pack(len(head)) + head + payload


class _RunsACommand:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {shlex.quote(str(self.marker))}",)


def _planted(data: bytes, marker: Path, part: str) -> bytes:
    """The entry with its model replaced by a pickle that runs `touch MARKER` when loaded, or its
    code by a module that does when executed."""
    _, header, payload = _split(data)
    (n,) = _LEN.unpack_from(payload, 0)
    code, model = payload[_LEN.size : _LEN.size + n], payload[_LEN.size + n :]
    if part == "model":
        model = pickle.dumps(_RunsACommand(marker), protocol=pickle.HIGHEST_PROTOCOL)
    else:
        command = f"touch {shlex.quote(str(marker))}"
        code = marshal.dumps(compile(f"import os\nos.system({command!r})\n", "<planted>", "exec"))
    return _rebuild(data, header, _LEN.pack(len(code)) + code + model)


# ─────────────────────────── the folder ───────────────────────────


def test_created_folders_are_private(tmp_path, monkeypatch):
    folder = tmp_path / "a" / "b" / "cache"
    monkeypatch.setenv("COMPOWORLD_CACHE", str(folder))
    W.load_compiled(str(TOY))
    assert len(_entries(folder)) == 1
    assert [_mode(p) for p in (tmp_path / "a", tmp_path / "a" / "b", folder)] == [0o700] * 3


def _unsafe_folder(tmp_path: Path, case: str) -> Path:
    folder = tmp_path / "cache"
    owner, mode = {"nobody-0700": (NOBODY, 0o700), "nobody-0777": (NOBODY, 0o777), "me-0777": (None, 0o777), "me-0770": (None, 0o770), "me-0702": (None, 0o702), "link-to-nobody": (NOBODY, 0o700)}[case]
    real = tmp_path / "real" if case == "link-to-nobody" else folder
    W.store(str(TOY), *W.compile_uncached(str(TOY)))  # a good entry, made while the folder was safe
    if real != folder:
        folder.rename(real)
        folder.symlink_to(real)
    os.chmod(real, mode)
    if owner is not None:
        os.chown(real, owner, -1)
    return folder


@pytest.mark.parametrize("case", ["me-0777", "me-0770", "me-0702", pytest.param("nobody-0700", marks=needs_root), pytest.param("nobody-0777", marks=needs_root), pytest.param("link-to-nobody", marks=needs_root)])
def test_an_unsafe_folder_is_refused_with_one_warning(case, tmp_path, capsys):
    folder = _unsafe_folder(tmp_path, case)
    [entry] = _entries(folder)
    stamp = entry.stat().st_mtime_ns
    capsys.readouterr()
    assert W.lookup(str(TOY)) is None, "an entry was read from a folder others can write"
    for _ in range(2):
        model, _ = W.load_compiled(str(TOY))
        assert model.world.name == "toy"
    err = capsys.readouterr().err
    assert err.count("warning") == 1, err
    assert str(folder) in err and "chmod 700" in err and "COMPOWORLD_CACHE" in err
    assert ("belongs to" in err) if "nobody" in case else ("can write" in err)
    assert _entries(folder) == [entry] and entry.stat().st_mtime_ns == stamp, "the folder was written"


# ─────────────────────────── entry files ───────────────────────────


def test_a_symbolic_link_entry_is_refused(tmp_path, cache, capsys):
    W.load_compiled(str(TOY))
    [entry] = _entries(cache)
    elsewhere = tmp_path / "elsewhere.cwc"
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)
    capsys.readouterr()
    assert W.lookup(str(TOY)) is None
    assert "symbolic link" in capsys.readouterr().err
    model, _ = W.load_compiled(str(TOY))
    assert model.world.name == "toy"
    assert not entry.is_symlink() and W.lookup(str(TOY)) is not None  # replaced by a real entry


@needs_root
def test_an_entry_owned_by_another_user_is_refused(cache, capsys):
    W.load_compiled(str(TOY))
    [entry] = _entries(cache)
    os.chown(entry, NOBODY, -1)
    capsys.readouterr()
    assert W.lookup(str(TOY)) is None
    assert "belongs to" in capsys.readouterr().err
    W.load_compiled(str(TOY))
    assert entry.stat().st_uid == os.geteuid() and W.lookup(str(TOY)) is not None


# ─────────────────────────── the key ───────────────────────────


def _key_file(folder: Path) -> Path:
    [key] = [p for p in folder.iterdir() if p.suffix != W.SUFFIX]
    return key


def test_the_key_is_32_private_bytes_made_once(cache):
    W.load_compiled(str(TOY))
    key = _key_file(cache)
    secret = key.read_bytes()
    assert len(secret) == 32 and _mode(key) == 0o600 and len(set(secret)) > 8
    W.load_compiled(str(ROOT / "worlds" / "legal_ops.world"))
    assert _key_file(cache).read_bytes() == secret


@pytest.mark.parametrize("damage", ["mode-0644", "short", "symlink", pytest.param("nobody", marks=needs_root)])
def test_an_unsafe_key_file_is_refused(damage, tmp_path, cache, capsys):
    W.load_compiled(str(TOY))
    key = _key_file(cache)
    if damage == "mode-0644":
        key.chmod(0o644)
    elif damage == "short":
        key.write_bytes(b"12345")
    elif damage == "symlink":
        outside = tmp_path / "outside.key"
        shutil.copy(key, outside)
        outside.chmod(0o600)
        key.unlink()
        key.symlink_to(outside)
    else:
        os.chown(key, NOBODY, -1)
    [entry] = _entries(cache)
    entry.unlink()
    capsys.readouterr()
    for _ in range(2):
        model, _ = W.load_compiled(str(TOY))
        assert model.world.name == "toy"
    err = capsys.readouterr().err
    assert err.count("warning") == 1 and key.name in err, err
    assert not _entries(cache), "an entry was signed with a key others could know"


# ─────────────────────────── authentication ───────────────────────────


@pytest.mark.parametrize("part", ["model", "code"])
def test_a_planted_entry_never_runs(part, tmp_path, cache, capsys):
    W.load_compiled(str(TOY))
    [entry] = _entries(cache)
    marker = tmp_path / "marker"
    entry.write_bytes(_planted(entry.read_bytes(), marker, part))
    capsys.readouterr()
    with contextlib.suppress(Exception):  # a planted module is no world module: what matters is the marker
        load_sampler(str(TOY))  # unpickles the model and executes the code
    assert not marker.exists(), f"the planted {part} ran"
    assert load_sampler(str(TOY)).model.world.name == "toy"
    assert "rebuilding" in capsys.readouterr().err
    assert W.lookup(str(TOY)) is not None and not marker.exists()  # rebuilt, and the rebuild is ours


def test_no_tampered_entry_is_served(tmp_path, cache):
    """Flip bytes (in the header or anywhere), cut the end off, or add to it: the lookup must not
    serve the entry."""
    world, _ = _toy_copy(tmp_path)
    W.load_compiled(str(world))
    [entry] = _entries(cache)
    good = entry.read_bytes()
    at, header, _ = _split(good)
    head_end = at + _LEN.size + len(json.dumps(header, sort_keys=True).encode())
    rng = random.Random(26)
    served = []
    for i in range(3000 if LONG else 60):
        kind = ("head", "flip", "head", "cut", "add")[i % 5]  # the header is small: aim at it too
        if kind in ("head", "flip"):
            at = rng.randrange(head_end if kind == "head" else len(good))
            bad = good[:at] + bytes([good[at] ^ rng.randrange(1, 256)]) + good[at + 1 :]
        elif kind == "cut":
            at = rng.randrange(len(good))
            bad = good[:at]
        else:
            at = len(good)
            bad = good + os.urandom(rng.randrange(1, 64))
        entry.write_bytes(bad)
        if W.lookup(str(world)) is not None:
            served.append((kind, at))
    assert not served, f"{len(served)} tampered entries served, e.g. {served[:5]}"


# ─────────────────────────── the closure ───────────────────────────


def test_an_emptied_closure_is_not_trusted(tmp_path, cache):
    world, lib = _toy_copy(tmp_path)
    W.load_compiled(str(world))
    [entry] = _entries(cache)
    data = entry.read_bytes()
    _, header, payload = _split(data)
    entry.write_bytes(_rebuild(data, {**header, "closure": [], "links": []}, payload))
    lib.write_text(lib.read_text(encoding="utf-8").replace("A file system of text documents", "A drive of text documents"), encoding="utf-8")
    model, _ = W.load_compiled(str(world))
    assert model.services["files"].description == "A drive of text documents in folders"


def _resigned(folder: Path, data: bytes, header: dict) -> bytes:
    """The entry with another header, signed with the user's own key: what a writer that recorded
    the wrong closure would have made."""
    _, _, payload = _split(data)
    head = json.dumps(header, sort_keys=True).encode()
    body = _LEN.pack(len(head)) + head + payload
    tag = hmac.new(_key_file(folder).read_bytes(), body, hashlib.sha256).digest()
    return W.MAGIC + tag + body


@pytest.mark.parametrize("edit", ["emptied", "dropped", "moved"])
def test_a_signed_entry_whose_closure_is_not_the_worlds_now_misses(edit, tmp_path, cache):
    world, lib = _toy_copy(tmp_path)
    W.load_compiled(str(world))
    [entry] = _entries(cache)
    data = entry.read_bytes()
    _, header, _ = _split(data)
    assert W.lookup(str(world)) is not None
    entry.write_bytes(_resigned(cache, data, header))
    assert W.lookup(str(world)) is not None, "the test signs entries the way the cache does"
    closure = header["closure"]
    if edit == "emptied":
        closure = []
    elif edit == "dropped":
        closure = [c for c in closure if Path(c[0]) != lib.resolve()]
    else:
        other = tmp_path / "other.world"
        shutil.copy(lib, other)
        closure = [[str(other.resolve()), *c[1:]] if Path(c[0]) == lib.resolve() else c for c in closure]
    assert closure != header["closure"]
    entry.write_bytes(_resigned(cache, data, {**header, "closure": closure}))
    assert W.lookup(str(world)) is None
