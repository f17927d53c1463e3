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
Inside, the entry records its import closure: every file the loader read (the world file and
every module it imports, stdlib included) with its sha256, and every import that resolved through
a symbolic link or `..`. A load re-hashes those files and re-resolves those links, and uses the
entry only when all match, so a hit skips checking only when checking would see the same bytes.
A stale entry is rebuilt and replaced; an entry that fails to load (truncated, corrupt, written
by something else) is rebuilt too, with one warning on stderr per process.

Writes go to a temporary file in the cache folder, renamed into place: a reader sees a whole old
entry or a whole new one, and processes that fill the same entry at once each write their own
temporary file (the last rename wins; both entries are equally good).

Trust: unpickling runs code named by the file, so the cache folder must be as trusted as the
package itself (like `__pycache__`); it is created private to the user (mode 0700).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import io
import json
import marshal
import operator
import os
import pickle
import struct
import sys
import tempfile
import time
import types as pytypes
from pathlib import Path

FORMAT = 1  # bump when the layout of an entry changes
MAGIC = b"compoworld world cache\n"
SUFFIX = ".cwc"
_LEN = struct.Struct("<Q")

_warned = False  # one warning per process about a cache that could not be used


class CacheStale(Exception):
    """The entry was made from other files (or another package); rebuild it quietly."""


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


def _prune(folder: Path, key: str) -> None:
    """Remove what earlier compilers (package versions, edited checkouts) left for this world,
    once a day old, and temporary files of writers that died, so the folder does not grow with
    every upgrade. A younger entry stays: another install may still be using it."""
    world = key.split("-")[0]
    old = time.time() - PRUNE_AFTER
    for p in [*folder.glob(f"{world}-*{SUFFIX}"), *folder.glob(f".{world}-*.tmp")]:
        with contextlib.suppress(OSError):
            if p.name != f"{key}{SUFFIX}" and p.stat().st_mtime < old:
                p.unlink()


# ─────────────────────────── the closure ───────────────────────────


def _links(program) -> list[tuple[str, str]]:
    """(path as an import names it, the file it resolved to) for imports whose named path is not
    already the resolved one: a symbolic link or a `..` that could point elsewhere later."""
    from .check.loader import resolve_module
    from .syntax import ast as A

    out: list[tuple[str, str]] = []
    for mod in program.modules.values():
        named: list[Path] = []
        for item in mod.ast.items if mod.ast is not None else ():
            if isinstance(item, A.ImportModule):
                named.append(resolve_module(item.path, mod.path))
            elif isinstance(item, A.ImportFile):
                named.append(mod.path.parent / item.path)
            elif isinstance(item, A.WorldDecl):
                named += [resolve_module(d, mod.path) for m in item.members if isinstance(m, A.UseDecl) for d in m.modules]
        for p in named:
            real = os.path.realpath(p)
            if str(p) != real:
                out.append((str(p), real))
    return sorted(set(out))


def _closure(program) -> list[tuple[str, str, str]]:
    """(resolved path, how diagnostics name it, sha256 of the bytes the loader read) per file."""
    out = []
    for path, mod in program.modules.items():
        text = program.sources.text(mod.display)
        if text is None:  # not read: the program would not have checked
            raise CacheStale(f"{mod.display} was not read")
        out.append((str(path), mod.display, hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()))
    return sorted(out)


def _fresh(header: dict) -> bool:
    from .check.loader import display_name

    for path, display, digest in header["closure"]:
        try:
            with open(path, "rb") as fh:
                if hashlib.sha256(fh.read()).hexdigest() != digest:
                    return False
        except OSError:
            return False
        if display_name(Path(path)) != display:
            return False
    return all(os.path.realpath(named) == real for named, real in header["links"])


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


def encode_entry(header: dict, code: pytypes.CodeType, model_bytes: bytes) -> bytes:
    code_bytes = marshal.dumps(code)
    payload = _LEN.pack(len(code_bytes)) + code_bytes + model_bytes
    header = {**header, "payload_sha256": hashlib.sha256(payload).hexdigest()}
    head = json.dumps(header, sort_keys=True).encode("utf-8", "surrogateescape")
    return MAGIC + _LEN.pack(len(head)) + head + payload


def _read_header(data: bytes) -> tuple[dict, int]:
    if not data.startswith(MAGIC):
        raise ValueError("not a world cache entry")
    at = len(MAGIC)
    (n,) = _LEN.unpack_from(data, at)
    at += _LEN.size
    header = json.loads(data[at : at + n].decode("utf-8", "surrogateescape"))
    if not isinstance(header, dict):
        raise ValueError("bad header")
    return header, at + n


def _decode(data: bytes, key: str):
    """(model, code) from an entry's bytes; CacheStale when it was made from other files."""
    header, at = _read_header(data)
    if header.get("format") != FORMAT or header.get("key") != key:
        raise CacheStale("another key")
    if not _fresh(header):
        raise CacheStale("its files changed")
    payload = memoryview(data)[at:]
    if hashlib.sha256(payload).hexdigest() != header["payload_sha256"]:
        raise ValueError("checksum mismatch")
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


def store(path: str, program, code: pytypes.CodeType) -> Path | None:
    """Write the entry for `path` (atomically); None, with a warning, when it cannot be written."""
    try:
        key = entry_key(path)
        header = {"format": FORMAT, "key": key, "version": _version(), "source": os.fspath(path), "closure": _closure(program), "links": _links(program)}
        data = encode_entry(header, code, _dump_model(program.model))
        folder = cache_dir()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        target = folder / f"{key}{SUFFIX}"
        fd, tmp = tempfile.mkstemp(prefix=f".{key}-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _prune(folder, key)
        return target
    except CacheStale:
        return None
    except Exception as e:  # a full disk, a read-only folder, an unpicklable model: run uncached
        _warn(f"cannot write the world cache in {cache_dir()}: {e} (set COMPOWORLD_NO_CACHE=1 to stop trying)")
        return None


def lookup(path: str):
    """(model, code) from a fresh entry for `path`, or None (a miss, a stale or a broken entry)."""
    try:
        key = entry_key(path)
        target = cache_dir() / f"{key}{SUFFIX}"
        with open(target, "rb") as fh:
            data = fh.read()
    except (OSError, ValueError):
        return None
    try:
        return _decode(data, key)
    except CacheStale:
        return None
    except Exception as e:  # truncated, corrupt, or made by an incompatible interpreter
        _warn(f"ignoring an unreadable world cache entry {target.name} ({type(e).__name__}: {e}); rebuilding it")
        return None


def load_compiled(path: str):
    """(model, code object of the generated module) for the world at `path`: from the cache when
    a fresh entry exists, else checked and compiled now (and stored). Raises ValueError when the
    world does not check, like an uncached load."""
    if disabled():
        program, code = compile_uncached(path)
        return program.model, code
    hit = lookup(path)
    if hit is not None:
        return hit
    program, code = compile_uncached(path)
    store(path, program, code)
    return program.model, code
