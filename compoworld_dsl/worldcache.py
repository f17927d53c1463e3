"""A cache of checked and compiled worlds, so that a process (a pool worker, a Ray task) loads a
world without parsing, checking or generating code again. It compiles nothing itself: a miss runs
the checker and `codegen.python.compile_world`, and stores what they made.

An entry holds the two things a loaded world is made of:
  - the checked `Model`, pickled (with `expr_types`, which is keyed by `id()` of AST nodes, stored
    as (node, type) pairs inside the same pickle and re-keyed on load);
  - the generated module's code object, marshalled (it is executed afresh on every load).
Neither is an opaque object graph of live state: the model is attrs classes of this package
(AST nodes, types, spans) and builtins; the code object is what `compile` returned.

Where: `$COMPOWORLD_CACHE`, else `$XDG_CACHE_HOME/compoworld`, else `~/.cache/compoworld`; one
file per key. `COMPOWORLD_NO_CACHE=1` turns the cache off (no read, no write).

The file name is `WORLD-COMPILER.cwc`: WORLD hashes the world's resolved path, the path as given
(it is written into the generated code) and the working directory (diagnostic spans name files
relative to it); COMPILER hashes the package version, a fingerprint of the package's own code and
grammar, the Python, attrs and lark versions and where the stdlib lives. Entries of the same
WORLD by another COMPILER are removed by a later store once a day old (`_prune`).

Trust: unpickling and executing an entry runs whatever it names, so nothing another user could
have written is ever loaded. The folder must belong to the user and be writable by no one else
(missing folders are made mode 0700); otherwise the cache is not used, with one warning. Every
entry is signed with HMAC-SHA256 under a per-user key (32 random bytes in `key`, mode 0600, in
the folder), and the signature is checked before any byte of the entry is parsed; an entry that
is a symbolic link, belongs to someone else or fails the check is ignored and rebuilt.

Freshness: an entry records the world's import closure (every file it can import, with the name
diagnostics give it and its sha256), and a load computes that closure again from the files as
they are now: from the world file, through every `import` and `use` its text names, each resolved
now (so a repointed symbolic link leads elsewhere). The entry is used only when the two are equal,
so a hit skips checking only when checking would see the same bytes. A stale entry is rebuilt and
replaced quietly; one that fails to load is rebuilt with one warning on stderr per process.

Writes go to a temporary file in the cache folder, renamed into place: a reader sees a whole old
entry or a whole new one, and processes that fill the same entry at once each write their own
temporary file (the last rename wins; both entries are equally good).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import gc
import hashlib
import hmac
import io
import json
import marshal
import operator
import os
import pickle
import re
import secrets
import stat
import struct
import sys
import time
import types as pytypes
from pathlib import Path

FORMAT = 2  # bump when the layout of an entry changes
MAGIC = b"compoworld world cache 2\n"
SUFFIX = ".cwc"
KEY_NAME = "key"
KEY_BYTES = 32
_TAG_BYTES = 32  # HMAC-SHA256
_LEN = struct.Struct("<Q")

_warned = False  # one warning per process about a cache that could not be used


class CacheStale(Exception):
    """The entry was made from other files (or another package); rebuild it quietly."""


class CacheRefused(Exception):
    """Someone other than the user could have written the folder, its key or an entry."""


def disabled() -> bool:
    return os.environ.get("COMPOWORLD_NO_CACHE", "").strip().lower() not in ("", "0", "false", "no")


def cache_dir() -> Path:
    if os.environ.get("COMPOWORLD_CACHE"):
        return Path(os.environ["COMPOWORLD_CACHE"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "compoworld"
    return Path.home() / ".cache" / "compoworld"


def _warn(message: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        print(f"worldc: warning: {message}", file=sys.stderr)


# ─────────────────────────── keys ───────────────────────────


@functools.lru_cache(maxsize=1)
def source_digest() -> str:
    """sha256 over the package's own source: every module and the grammar, by relative name.
    Shared by the cache key and the Ray backend's check that every worker runs the same code."""
    from .resources import grammar_path

    h = hashlib.sha256()
    package = Path(__file__).resolve().parent
    files = [(p.relative_to(package).as_posix(), p) for p in sorted(package.rglob("*.py"))]
    files += [("grammar/" + p.name, p) for p in sorted(grammar_path().parent.glob("*.lark"))]
    for name, p in files:
        try:
            data = p.read_bytes()
        except OSError:
            data = b"?"
        h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def _code_fingerprint() -> str:
    """What a compile depends on in the package itself: every module's source and the grammar
    (so a checkout edited without a version bump never serves entries made by older code), the
    interpreter (marshal's format) and the libraries whose objects or output are stored."""
    import attrs
    import lark

    from .resources import stdlib_dir

    h = hashlib.sha256(source_digest().encode())
    for part in (sys.version, sys.implementation.cache_tag or "", _magic(), attrs.__version__, lark.__version__, str(stdlib_dir())):
        h.update(b"\0" + str(part).encode())
    return h.hexdigest()


def _magic() -> str:
    import importlib.util

    return importlib.util.MAGIC_NUMBER.hex()


def _version() -> str:
    from . import __version__  # looked up per call: tests change it

    return __version__


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def entry_key(path: str) -> str:
    """The name of the entry (without the suffix) for `path` as given, loaded from the current
    directory: which world (resolved path, path as given, directory), then which compiler."""
    path = os.fspath(path)
    world = _digest(str(Path(path).resolve()), path, os.getcwd())[:16]
    return f"{world}-{_digest(str(FORMAT), _version(), _code_fingerprint(), world)[:40]}"


def entry_path(path: str) -> Path:
    return cache_dir() / f"{entry_key(path)}{SUFFIX}"


PRUNE_AFTER = 24 * 3600  # seconds: an entry of the same world made by other code, or a lost temporary file


def _prune(folder_fd: int, key: str) -> None:
    """Remove what earlier compilers (package versions, edited checkouts) left for this world,
    once a day old, and temporary files of writers that died, so the folder does not grow with
    every upgrade. A younger entry stays: another install may still be using it."""
    world = key.split("-")[0]
    old = time.time() - PRUNE_AFTER
    for name in os.listdir(folder_fd):
        ours = name.startswith(f"{world}-") and name.endswith(SUFFIX) or name.startswith(f".{world}-") and name.endswith(".tmp")
        with contextlib.suppress(OSError):
            if ours and name != f"{key}{SUFFIX}" and os.stat(name, dir_fd=folder_fd, follow_symlinks=False).st_mtime < old:
                os.unlink(name, dir_fd=folder_fd)


# ─────────────────────────── the closure ───────────────────────────

_DOTTED = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
# Wider than the grammar (anywhere in the text, across lines, in comments, strings and the ends of
# words like "house rule" too): a file named only so joins the closure harmlessly, and `store`
# refuses an entry whose scan missed a module the loader read, so the scan can only err on the
# side of missing. No leading `\b`: a pattern that starts with a literal is searched ~15x faster.
_IMPORT = re.compile(rf'import\s+(?:"([^"\\\n]*)"|({_DOTTED}))')
_USE = re.compile(rf"use\s+({_DOTTED}(?:\s*,\s*{_DOTTED})*)")


def _named(text: str, importer: Path) -> list[Path]:
    from .check.loader import resolve_module

    out = []
    for m in _IMPORT.finditer(text):
        out.append(importer.parent / m.group(1) if m.group(1) is not None else resolve_module(tuple(m.group(2).split(".")), importer))
    for m in _USE.finditer(text):
        out += [resolve_module(tuple(d.strip().split(".")), importer) for d in m.group(1).split(",")]
    return out


def _source_bytes(path: Path) -> bytes | None:
    """The file's bytes, at most one more than the loader accepts; None when it is not a regular
    file (non-blocking: a pipe named in a comment must not hang a load)."""
    from .check.loader import MAX_FILE_BYTES

    try:
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as fh:
            return fh.read(MAX_FILE_BYTES + 1) if stat.S_ISREG(os.fstat(fh.fileno()).st_mode) else None
    except (OSError, ValueError):
        return None


def closure(path: str) -> list[tuple[str, str, str]]:
    """(resolved path, how diagnostics name it, sha256) of every file the world at `path` can
    import now, found from the files themselves: the world file, then every file that an `import`
    or `use` in a file found names, resolved now. CacheStale when the world file is unreadable."""
    from .check.loader import MAX_FILE_BYTES, display_name

    root = Path(os.path.realpath(path))
    digests: dict[Path, str] = {}
    todo = [root]
    while todo:
        p = todo.pop()
        if p in digests:
            continue
        data = _source_bytes(p)
        if data is None:
            if p == root:
                raise CacheStale(f"{path} cannot be read")
            continue
        if len(data) > MAX_FILE_BYTES:  # the loader refuses it, so what it imports does not matter
            digests[p] = "over the size limit"
            continue
        digests[p] = hashlib.sha256(data).hexdigest()
        todo += {Path(os.path.realpath(n)) for n in set(_named(data.decode("utf-8", "replace"), p))}
    return sorted((str(p), display_name(p), d) for p, d in digests.items())


def _checked(program) -> list[tuple[str, str, str]]:
    """(resolved path, how diagnostics name it, sha256 of the bytes the loader read) per file."""
    out = []
    for path, mod in program.modules.items():
        text = program.sources.text(mod.display)
        if text is None:  # not read: the program would not have checked
            raise CacheStale(f"{mod.display} was not read")
        out.append((str(path), mod.display, hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()))
    return sorted(out)


def _closure_to_store(path: str, program) -> list[tuple[str, str, str]]:
    """The closure as a later load will compute it, provided it holds every file the checker read
    with the bytes it read (CacheStale otherwise: a file changed since, or the scan missed one)."""
    now = closure(path)
    found = {p: (display, digest) for p, display, digest in now}
    if any(found.get(p) != (display, digest) for p, display, digest in _checked(program)):
        raise CacheStale("the files changed while checking, or an import was not found")
    return now


# ─────────────────────────── the folder and its key ───────────────────────────


def _owner(uid: int) -> str:
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _foreign(st: os.stat_result) -> str | None:
    """Why a file or folder with this status may hold what another user wrote, or None."""
    if st.st_uid != os.geteuid():
        return f"it belongs to {_owner(st.st_uid)}, not to you"
    if st.st_mode & 0o022:
        return f"other users can write to it (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def _make_private(folder: Path) -> None:
    """Make `folder` and the parents it lacks, each mode 0700 (`Path.mkdir(parents=True)` gives
    the parents the umask's mode, often readable and sometimes writable by others)."""
    missing = []
    while not os.path.lexists(folder) and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for p in reversed(missing):
        with contextlib.suppress(FileExistsError):  # another process made it first
            os.mkdir(p, 0o700)


def _open_folder(folder: Path, create: bool) -> int | None:
    """A descriptor of the cache folder, checked on the very folder it opened (a path swapped
    afterwards changes nothing): None when there is none (and not `create`)."""
    if create:
        _make_private(folder)
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except FileNotFoundError:
        if create:
            raise
        return None
    why = _foreign(os.fstat(fd))
    if why is not None:
        os.close(fd)
        fix = f"make it private with `chmod 700 {folder}` or set" if "write" in why else "set"
        raise CacheRefused(f"not using the world cache {folder}: {why}; {fix} COMPOWORLD_CACHE to a folder of your own that only you can write (`chmod 700` it); loading without the cache")
    return fd


def _open_private(folder_fd: int, name: str) -> int:
    """A descriptor for reading `name` in the folder, when it is a regular file of the user's
    (CacheRefused otherwise; FileNotFoundError when there is none)."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder_fd)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise CacheRefused("it is a symbolic link") from None
        raise
    st = os.fstat(fd)
    why = "it is not a regular file" if not stat.S_ISREG(st.st_mode) else _foreign(st)
    if why is not None:
        os.close(fd)
        raise CacheRefused(why)
    return fd


def _read_key(folder_fd: int) -> bytes:
    fd = _open_private(folder_fd, KEY_NAME)
    with os.fdopen(fd, "rb") as fh:
        if os.fstat(fd).st_mode & 0o077:
            raise CacheRefused(f"other users can read it (mode {stat.S_IMODE(os.fstat(fd).st_mode):04o})")
        key = fh.read(KEY_BYTES + 1)
    if len(key) != KEY_BYTES:
        raise CacheRefused(f"it holds {len(key)} bytes, not {KEY_BYTES}")
    return key


def _key(folder: Path, folder_fd: int, create: bool) -> bytes | None:
    """The user's key for signing entries, made when there is none (and `create`). It appears
    whole or not at all: written to a file of its own, then linked under its name, which fails
    when another process linked its key first (that one is used)."""
    try:
        try:
            return _read_key(folder_fd)
        except FileNotFoundError:
            if not create:
                return None
        tmp = f".{KEY_NAME}-{secrets.token_hex(8)}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=folder_fd)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(secrets.token_bytes(KEY_BYTES))
            with contextlib.suppress(FileExistsError):
                os.link(tmp, KEY_NAME, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
        finally:
            os.unlink(tmp, dir_fd=folder_fd)
        return _read_key(folder_fd)
    except CacheRefused as e:
        raise CacheRefused(f"not using the world cache {folder}: its key file {folder / KEY_NAME}: {e}; remove it (a new one is made) or set COMPOWORLD_CACHE to another folder; loading without the cache") from None


# Where the calls that take a folder descriptor are missing (Windows), the cache is off: checking
# a path and then using it would let the folder be swapped in between.
_SUPPORTED = hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY") and {os.open, os.stat, os.unlink, os.link, os.rename} <= os.supports_dir_fd


@contextlib.contextmanager
def _opened(create: bool):
    """(folder, its descriptor, the key) of a cache folder that only the user can write, or None:
    no folder or key yet (and not `create`), or one refused or not made (with one warning)."""
    folder = cache_dir()
    fd = key = None
    try:
        if _SUPPORTED:
            fd = _open_folder(folder, create)
            key = _key(folder, fd, create) if fd is not None else None
    except CacheRefused as e:
        _warn(str(e))
    except (OSError, ValueError) as e:
        if create:
            _warn(f"cannot write the world cache in {folder}: {e} (set COMPOWORLD_NO_CACHE=1 to stop trying)")
    try:
        yield (folder, fd, key) if key is not None else None
    finally:
        if fd is not None:
            os.close(fd)


# ─────────────────────────── (de)serialising ───────────────────────────


def _span_reducer():
    from .diagnostics import Span

    fields = operator.attrgetter(*(a.name for a in Span.__attrs_attrs__))
    return Span, lambda s: (Span, fields(s))  # ~190k spans in a 448-service world: skip attrs' dict state


def _dump_model(model) -> bytes:
    """The model and its `expr_types` as (node, type) pairs, in one pickle so that each node in
    the pairs is the same object as in the model (the pickler's memo knows them by id)."""
    import copyreg

    span, reduce_span = _span_reducer()
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, span: reduce_span}
    types_by_id = model.expr_types
    enabled = gc.isenabled()
    gc.disable()  # a million small objects: the collector would rescan them again and again
    try:
        model.expr_types = {}
        try:
            pickler.dump(model)
        finally:
            model.expr_types = types_by_id
        memo = pickler.memo.copy()
        # An id whose node is not in the model (a node made and dropped while checking) cannot be
        # looked up by any node the model holds; it is left out.
        pickler.dump([(memo[k][1], t) for k, t in types_by_id.items() if k in memo])
        del memo
    finally:
        if enabled:
            gc.enable()
    return buf.getvalue()


def _load_model(data: bytes):
    from .check.model import Model

    enabled = gc.isenabled()
    gc.disable()  # no collection while a million objects appear (the collector would rescan them)
    try:
        unpickler = pickle.Unpickler(io.BytesIO(data))
        model = unpickler.load()
        pairs = unpickler.load()
        # Then move them, with everything else alive now, out of the collector's generations: they
        # live as long as the sampler, and otherwise the next collections walk all of them (~0.3 s
        # for 448 services; a load that parses pays that along the way). Objects frozen are still
        # freed by reference counting; only cycles among them wait for `gc.unfreeze()`.
        gc.freeze()
    finally:
        if enabled:
            gc.enable()
    if not isinstance(model, Model) or not isinstance(pairs, list):
        raise ValueError("not a model")
    model.expr_types = {id(node): t for node, t in pairs}
    return model


def encode_entry(header: dict, code: pytypes.CodeType, model_bytes: bytes, key: bytes) -> bytes:
    """MAGIC, then the HMAC-SHA256 under `key` of everything after it: the header's length, the
    header (JSON) and the payload (the marshalled code's length, the code, the pickled model)."""
    code_bytes = marshal.dumps(code)
    head = json.dumps(header, sort_keys=True).encode("utf-8", "surrogateescape")
    body = _LEN.pack(len(head)) + head + _LEN.pack(len(code_bytes)) + code_bytes + model_bytes
    return MAGIC + hmac.new(key, body, hashlib.sha256).digest() + body


def _authentic(data: bytes, key: bytes) -> bool:
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + _TAG_BYTES:
        return False
    at = len(MAGIC) + _TAG_BYTES
    return hmac.compare_digest(data[len(MAGIC) : at], hmac.new(key, memoryview(data)[at:], hashlib.sha256).digest())


def _read_header(data: bytes) -> tuple[dict, int]:
    """The header of an entry, and where its payload starts. Only for entries already
    authenticated (or for looking at one's own)."""
    if not data.startswith(MAGIC):
        raise ValueError("not a world cache entry")
    at = len(MAGIC) + _TAG_BYTES
    (n,) = _LEN.unpack_from(data, at)
    at += _LEN.size
    header = json.loads(data[at : at + n].decode("utf-8", "surrogateescape"))
    if not isinstance(header, dict):
        raise ValueError("bad header")
    return header, at + n


def _decode(data: bytes, key: bytes, name: str, path: str):
    """(model, code) from an entry's bytes; CacheStale when it was made for other files, ValueError
    when it is not one this user's cache signed (nothing in it is parsed before that is known)."""
    if not _authentic(data, key):
        raise ValueError("not signed with this cache's key")
    header, at = _read_header(data)
    if header.get("format") != FORMAT or header.get("key") != name:
        raise CacheStale("another key")
    if header.get("closure") != [list(c) for c in closure(path)]:
        raise CacheStale("its files changed")
    payload = memoryview(data)[at:]
    (n,) = _LEN.unpack_from(payload, 0)
    code = marshal.loads(payload[_LEN.size : _LEN.size + n])
    if not isinstance(code, pytypes.CodeType):
        raise ValueError("not a code object")
    return _load_model(payload[_LEN.size + n :]), code


# ─────────────────────────── the entry points ───────────────────────────


def compile_uncached(path: str):
    """(program, code): check `path` and everything it imports, and byte-compile the world.
    ValueError when it does not check (what `load_sampler` has always raised)."""
    from .check import check_paths
    from .codegen.python import compile_world

    program = check_paths([path])
    if not program.ok:
        raise ValueError(f"{path} does not check")
    return program, compile_world(program.model, path)


def _store(cache, path: str, program, code: pytypes.CodeType) -> Path | None:
    folder, folder_fd, key = cache
    try:
        name = entry_key(path)
        header = {"format": FORMAT, "key": name, "version": _version(), "source": os.fspath(path), "closure": _closure_to_store(path, program)}
        data = encode_entry(header, code, _dump_model(program.model), key)
        tmp = f".{name}-{secrets.token_hex(8)}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=folder_fd)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, f"{name}{SUFFIX}", src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=folder_fd)
            raise
        _prune(folder_fd, name)
        return folder / f"{name}{SUFFIX}"
    except CacheStale:
        return None
    except Exception as e:  # a full disk, a read-only folder, an unpicklable model: run uncached
        _warn(f"cannot write the world cache in {folder}: {e} (set COMPOWORLD_NO_CACHE=1 to stop trying)")
        return None


def _lookup(cache, path: str):
    _, folder_fd, key = cache
    try:
        name = entry_key(path)
        fd = _open_private(folder_fd, f"{name}{SUFFIX}")
        with os.fdopen(fd, "rb") as fh:
            data = fh.read()
    except CacheRefused as e:
        _warn(f"ignoring the world cache entry {name}{SUFFIX}: {e}; rebuilding it")
        return None
    except (OSError, ValueError):
        return None
    try:
        return _decode(data, key, name, path)
    except CacheStale:
        return None
    except Exception as e:  # truncated, corrupt, forged, or made by an incompatible interpreter
        _warn(f"ignoring an unreadable world cache entry {name}{SUFFIX} ({type(e).__name__}: {e}); rebuilding it")
        return None


def store(path: str, program, code: pytypes.CodeType) -> Path | None:
    """Write the entry for `path` (atomically); None, with a warning, when it cannot be written."""
    with _opened(create=True) as cache:
        return _store(cache, path, program, code) if cache else None


def lookup(path: str):
    """(model, code) from a fresh entry for `path`, or None (a miss, a stale or a broken entry)."""
    with _opened(create=False) as cache:
        return _lookup(cache, path) if cache else None


def load_compiled(path: str):
    """(model, code object of the generated module) for the world at `path`: from the cache when
    a fresh entry exists, else checked and compiled now (and stored). Raises ValueError when the
    world does not check, like an uncached load."""
    if disabled():
        program, code = compile_uncached(path)
        return program.model, code
    with _opened(create=True) as cache:
        hit = _lookup(cache, path) if cache else None
        if hit is not None:
            return hit
        program, code = compile_uncached(path)
        if cache:
            _store(cache, path, program, code)
    return program.model, code
