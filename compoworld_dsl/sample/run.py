"""Run a sampling job: attempts in index order, optionally across worker processes, streamed
into a temporary file that is renamed into place only when the job completes. It builds no
task itself (that is `sampler.py`) and leaves no process or temporary file behind.

Resuming (`--resume`). The temporary file of a run with `-o OUT` is its journal:
`.OUT.PID.XXXXXXXX.tmp` gets each emitted task, in index order, flushed and fsynced, and
beside it `.OUT.PID.XXXXXXXX.state` (replaced atomically after each task) holds the run's
options (world file hash, hops, count, seed, capabilities, rule share, attempt budget, shard,
the filters that are on; not `--workers`, which changes no byte), its writer (pid, process start time, host, boot), the
journal's committed length in bytes and the SHA-256 of those bytes, the next attempt index, the
rule-share bookkeeping (`Selector`: tasks emitted, passed over, seen, with a rule), the report's
counters, and a SHA-256 of all of it. A run killed at any moment, SIGKILL included, leaves both;
the same command plus `--resume` trusts neither: it opens nothing through a symbolic link, checks
the state's digest and fields and the journal's committed lines against it (count, digest,
attempt order), refuses what does not agree (`Untrusted`, exit 1) and a state whose options differ
(exit 2), adopts them (renamed to its own pid), cuts the journal back to the committed length
(a torn or uncommitted last task is attempted again: attempts are deterministic), and
continues from the next attempt with the same bookkeeping, so the decisions and bytes are
those of an uninterrupted run; at the end the journal is renamed over OUT. Without `--resume`
nothing changes: the next writer of OUT removes a dead writer's files (`remove_stale`), and
SIGINT/SIGTERM remove them too (with `--resume`, SIGINT/SIGTERM keep them, to resume again).
Memory does not grow with `-n`: attempts stream through a bounded window, and only counters
(one per rejection reason, tool and rule) are kept.

Sharding (`--shard K/N`, K from 1). The task that fills slot k of a run is decided by every
attempt before it (the k-th kept one; the rule share passes tasks over depending on all of
them), so no shard of task *slots* can be computed without doing every earlier attempt. Shards
are therefore shards of *attempts*: shard K verifies attempt indices i with i % N == K-1 and
writes every task that passes `--capabilities` (a candidate; no rule-share decision, which
needs the other shards) in index order, until it has `-n` candidates (so give each shard a
`-n` well above total/N: the rule share passes some over, 1.3x to 3x total / N in the bundled worlds). `worldc sample ... -n TOTAL --merge
S1 --merge S2 ... -o OUT` (shards in order K = 1..N) then replays the attempts in index order
from the shard files, applies the rule share exactly as a run does, and writes the first TOTAL
tasks: byte for byte the unsharded run. If a shard ran out before TOTAL was reached, the merge
writes nothing and names the shard to extend (`--resume` with a larger `-n`: a shard's file
only grows with `-n`)."""

from __future__ import annotations

import collections
import contextlib
import ctypes
import errno
import hashlib
import json
import os
import random
import re
import signal
import socket
import stat
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Iterator

import attrs

from ..taskfile import _TMP, _alive, _mode_for, atomic_output, remove_stale
from .rejected import REJECTIONS
from .sampler import Sampler
from .worker import attempt, attempt_chunk, init_worker, keep_freed_memory, load_sampler, running_sampler  # noqa: F401  (load_sampler, keep_freed_memory: imported from here too)

CHUNK = 2  # attempts per unit of work: small, so workers do little past the last needed task
ATTEMPT_TIMEOUT = 10.0  # seconds per attempt by default: ~100x what an attempt on legal_ops takes
RULE_SHARE = 0.5  # of tasks that should carry a load-bearing house rule, by default (D23)
RULE_PATIENCE = 8  # tasks without one passed over per slot that wants one; then the next is kept
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
STATE = ".state"  # .OUT.PID.XXXXXXXX.state: a journal's state, beside it (not a .tmp: one temporary file per writer)
_STATE = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.[a-z0-9_]+\.statex?\Z")
MAX_STATE = 16 << 20  # bytes of a state file: a few counters per rejection reason, tool and rule need far less
MAX_LINE = 64 << 20  # bytes of one task line in a journal: far above any task
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_ID_HEAD = re.compile(rb'\{"id":"([^"\\]{1,300})"')  # a task line starts with its id (the sampler's key order)


@attrs.frozen
class Job:
    path: str
    hops: int
    count: int
    seed: int
    capabilities: tuple[str, ...] = ()
    workers: int = 1
    max_attempts: int | None = None
    attempt_timeout: float | None = ATTEMPT_TIMEOUT  # None (or 0): no limit
    rule_share: float = RULE_SHARE
    shard: tuple[int, int] | None = None  # (K, N), K from 1: attempts i with i % N == K - 1, no rule-share selection
    backend: str = "local"  # "ray": the same attempts on Ray actors (`ray_backend.py`; workers 0: one per CPU); no byte changes
    address: str | None = None  # with "ray": the cluster to connect to (else a local Ray instance)
    threads: int = 1  # errands side by side a task may hold: 1 grows one thread by construction (`walk.Walker.walks`)
    min_calls: int = 0  # keep only tasks whose reference plan makes at least this many calls
    difficulty: tuple[float | None, float | None] | None = None  # keep only tasks whose difficulty score is in [LO, HI] (None: open)


@attrs.define
class Report:
    attempts: int = 0
    emitted: int = 0
    rejected: collections.Counter = attrs.field(factory=collections.Counter)
    examples: dict = attrs.field(factory=dict)
    z3_seconds: float = 0.0  # inside Z3's checks
    encode_seconds: float = 0.0  # building Z3 terms and reading models (not inside a check)
    work_seconds: float = 0.0  # time workers spent inside attempts (no loading, no start-up)
    seconds: float = 0.0
    tools: collections.Counter = attrs.field(factory=collections.Counter)  # tool → emitted tasks that call it
    rules: collections.Counter = attrs.field(factory=collections.Counter)  # house rule → emitted tasks it decides


class Interrupted(BaseException):
    """SIGINT or SIGTERM stopped the job; its temporary output is gone. A BaseException, like
    KeyboardInterrupt, so no `except Exception` on the way up swallows it."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


# ─────────────────────────── worker processes ───────────────────────────


def guard_worker() -> None:
    """In a pool worker: Ctrl-C is the parent's to handle (the terminal sends it to the whole
    process group; a worker interrupted inside Z3 prints "Exception ignored" tracebacks), SIGTERM
    ends the worker at once, and on Linux the worker gets SIGKILL when its parent dies, even by
    SIGKILL, instead of sampling on for minutes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


@contextlib.contextmanager
def worker_pool(workers: int, initializer: Callable, initargs: tuple = ()) -> Iterator[ProcessPoolExecutor]:
    """A process pool whose workers run `guard_worker` first and are killed when the block ends,
    however it ends: work still queued or running is not needed (the job has what it wants, or
    it was interrupted), and waiting for it could take an attempt's whole budget."""
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_guarded, initargs=(initializer, *initargs))
    try:
        yield pool
    finally:
        procs = list((getattr(pool, "_processes", None) or {}).values())  # no public handle before 3.14
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            with contextlib.suppress(Exception):
                p.kill()
        for p in procs:
            with contextlib.suppress(Exception):
                p.join(5)
        pool.shutdown(wait=True)


def _guarded(initializer: Callable, *args) -> None:
    guard_worker()
    initializer(*args)


def _chunks(job: Job, indices: Iterator[int]) -> Iterator[tuple[Job, list[int]]]:
    while True:
        chunk = [i for _, i in zip(range(CHUNK), indices)]
        if not chunk:
            return
        yield (job, chunk)


# ─────────────────────────── signals ───────────────────────────


class _Stop:
    """SIGINT and SIGTERM during a job, acted on where it is safe. Where the sampler runs in this
    process, the handler only records the signal and cuts the attempt's budget short: raising
    from a handler can land in a Z3 object's `__del__`, where Python prints the exception and
    drops it. With workers, this process only waits and writes, so the handler raises at once."""

    def __init__(self, raise_now: bool):
        self.signum: int | None = None
        self.raise_now = raise_now

    def __call__(self, signum: int, frame) -> None:
        first = self.signum is None
        if first:
            self.signum = signum
        sampler = running_sampler()
        if sampler is not None:
            sampler.deadline.expire()
        if self.raise_now and first:  # a second signal must not cut the clean-up short
            raise Interrupted(signum)

    def check(self) -> None:
        if self.signum is not None:
            raise Interrupted(self.signum)


@contextlib.contextmanager
def _signals_to(stop: _Stop):
    """Route SIGINT and SIGTERM to `stop` for the block (from the main thread only; elsewhere
    Python does not let a handler be set, and the caller keeps its own)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


# ─────────────────────────── the job ───────────────────────────


def attempt_limit(job: Job) -> int:
    if job.shard is not None:  # the shard's own attempts, as many per candidate as a run's
        return job.max_attempts or max(50, job.count * 50) * job.shard[1]
    return job.max_attempts or max(50, job.count * 50)


def _indices(job: Job, start: int, limit: int) -> Iterator[int]:
    if job.shard is None:
        return iter(range(start, limit))
    k, n = job.shard
    first = start + ((k - 1 - start) % n)
    return iter(range(first, limit, n))


def attempts(job: Job, stop: _Stop | None = None, start: int = 0) -> Iterator[tuple]:
    """Every attempt in index order from `start` (whatever the number of workers; of a shard,
    its own indices only): (index, task or None, reason, detail, Z3 check seconds, encoding
    seconds, seconds, world has rules)."""
    limit = attempt_limit(job)
    if job.workers <= 1 and job.backend == "local":
        sampler = init_worker(job.path)
        for i in _indices(job, start, limit):
            if stop is not None:
                stop.check()
            result = attempt(sampler, job, i)
            if stop is not None:
                stop.check()  # a signal cut this attempt short: it is no result
            yield result
        return
    if job.backend == "ray":  # the same window on Ray actors, which build their samplers from a shipped world
        from .ray_backend import ray_pool

        executor = ray_pool(job, stop)
    else:
        executor = worker_pool(job.workers, init_worker, (job.path,))
    with executor as pool:
        # results are consumed in submission order; a bounded window keeps memory flat
        window = getattr(pool, "workers", job.workers) * 2
        chunks = _chunks(job, _indices(job, start, limit))
        pending = collections.deque()
        for chunk in chunks:
            pending.append(pool.submit(attempt_chunk, chunk))
            if len(pending) >= window:
                break
        while pending:
            results = pending.popleft().result()
            nxt = next(chunks, None)
            if nxt is not None:
                pending.append(pool.submit(attempt_chunk, nxt))
            yield from results


def outside_filters(job: Job, task: dict) -> str | None:
    """Why `--min-calls` or `--difficulty` passes over a task (its `difficulty`), or None. Decided by
    the task alone, like `--capabilities`: the same for any number of workers, and on a resume."""
    if not job.min_calls and job.difficulty is None:
        return None
    d = task["difficulty"]
    if d["real_calls"] < job.min_calls:
        return f"its reference plan makes {d['real_calls']} calls, fewer than --min-calls {job.min_calls}"
    if job.difficulty is not None:
        lo, hi = job.difficulty
        if (lo is not None and d["score"] < lo) or (hi is not None and d["score"] > hi):
            return f"difficulty score {d['score']}, outside --difficulty {band(job.difficulty)}"
    return None


def band(b: tuple[float | None, float | None]) -> str:
    """A `--difficulty` band as the option writes it: `LO:HI`, either end left out when open."""
    return ":".join("" if x is None else f"{x:g}" for x in b)


def wants_rule(job: Job, slot: int) -> bool:
    """Should the task written as number `slot` (from 0) carry a load-bearing house rule? A draw
    seeded by the run seed and the slot, under `job.rule_share`: a slot that wants one passes
    over up to `RULE_PATIENCE` tasks without one, so about that share of the tasks or more carry
    one where rules can bite at all. Once the run has seen 4 × `RULE_PATIENCE` tasks, slots wait
    only while at least 1 task in 2 × `RULE_PATIENCE` has carried a rule: a world whose rules
    seldom bite samples at full speed (D23). All of it is decided by the attempts before, in index
    order, so the output is the same for any number of workers.
    Tasks are only let through or not, never changed: a task is the same whatever the share."""
    return job.rule_share > 0 and random.Random(f"{job.seed}:rule:{slot}").random() < job.rule_share


@attrs.define
class Selector:
    """The rule-share bookkeeping (D23), all decided by the attempts before, in index order:
    what `--resume` saves and `--merge` replays."""

    job: Job
    emitted: int = 0
    waited: int = 0  # tasks without a rule passed over for the slot that wants one
    seen: int = 0  # tasks the attempts gave (kept or passed over)
    ruled: int = 0  # of those, tasks with a rule

    def keep(self, task: dict, has_rules: bool) -> bool:
        job = self.job
        self.seen, self.ruled = self.seen + 1, self.ruled + bool(task["constraints"])
        # a world whose rules seldom bite (under 1 task in 2 × RULE_PATIENCE, after 4 ×
        # RULE_PATIENCE tasks: enough not to give up on a world where 1 in 10 has one) is not made to wait
        worth = self.seen < 4 * RULE_PATIENCE or self.ruled * 2 * RULE_PATIENCE >= self.seen
        if has_rules and not task["constraints"] and worth and wants_rule(job, self.emitted) and self.waited < RULE_PATIENCE:
            self.waited += 1
            return False
        self.waited = 0
        self.emitted += 1
        return True

    def state(self) -> dict:
        return {"emitted": self.emitted, "waited": self.waited, "seen": self.seen, "ruled": self.ruled}


class ResumeError(Exception):
    """`--resume` cannot continue here and now: another live writer, or a partial run of other
    options (another command). Exit status 2."""

    status = 2


class Untrusted(ResumeError):
    """A file `--resume` would read or write is not what this job's writer left: a link, not a
    regular file, damaged, edited or forged. Nothing has been changed. Exit status 1."""

    status = 1

    def __init__(self, path: Path | str, problem: str, line: int = 0):
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {problem}; start again without --resume, or remove {path}")


def options(job: Job) -> dict:
    """What a journal must match to be resumed: everything that changes a byte of the output."""
    try:
        digest = hashlib.sha256(Path(job.path).read_bytes()).hexdigest()
    except OSError:
        digest = ""
    return {
        "format": 1, "world": str(Path(job.path).resolve()), "world_sha256": digest, "hops": job.hops,
        "count": job.count if job.shard is None else None,  # a shard's file only grows with -n: --resume may extend it
        "seed": job.seed, "capabilities": list(job.capabilities), "max_attempts": job.max_attempts,
        "attempt_timeout": job.attempt_timeout or None, "rule_share": job.rule_share, "shard": list(job.shard) if job.shard else None,
        "threads": job.threads,  # always: a journal from before walks were one thread by default does not resume
        **({"min_calls": job.min_calls} if job.min_calls else {}),  # likewise
        **({"difficulty": list(job.difficulty)} if job.difficulty else {}),
    }


# ─────────────────────────── what --resume reads: nothing is trusted ───────────────────────────


def _writer(pid: int) -> dict:
    """Who writes a journal: its pid, the process's start time (clock ticks after boot, field 22
    of /proc/PID/stat; None without /proc), this host and this boot. A pid alone names some other
    process once the writer is dead and its pid reused, or on another machine."""
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
        start = int(stat_line[stat_line.rindex(")") + 2 :].split()[19])
    except (OSError, ValueError, IndexError):
        start = None
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        boot = None
    return {"pid": pid, "start": start, "host": socket.gethostname(), "boot": boot}


def _live(writer: dict) -> bool:
    """Is this writer still running: the same pid, start time, host and boot."""
    return _alive(writer["pid"]) and writer == _writer(writer["pid"])


def _seal(body: dict) -> str:
    """The SHA-256 a state carries over the canonical JSON of the rest of it: damage and edits
    show (not a forger who recomputes it, who could as well write OUT)."""
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()).hexdigest()


def _open(path: Path, flags: int, own: bool = False) -> int:
    """A descriptor of the regular file at `path`, opened without following a symbolic link or
    waiting on a FIFO; `own`: a file this run will write, so no other name may share it."""
    try:
        fd = os.open(path, flags | _NOFOLLOW | os.O_NONBLOCK)
    except OSError as e:
        if e.errno == errno.ELOOP or os.path.islink(path):
            raise Untrusted(path, "is a symbolic link; --resume follows none") from None
        raise Untrusted(path, "is not a regular file" if e.errno == errno.EISDIR else f"cannot be opened: {e.strerror}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or (own and st.st_nlink != 1):
        os.close(fd)
        raise Untrusted(path, "is not a regular file" if not stat.S_ISREG(st.st_mode) else f"has {st.st_nlink} names (hard links); --resume writes only a file of its own")
    return fd


def _check_output(out: Path) -> None:
    try:
        st = os.lstat(out)
    except FileNotFoundError:
        return
    except OSError as e:
        raise Untrusted(out, f"cannot be read: {e.strerror}") from None
    if stat.S_ISLNK(st.st_mode):
        raise Untrusted(out, "is a symbolic link; --resume follows none")
    if not stat.S_ISREG(st.st_mode):
        raise Untrusted(out, "is not a regular file")


def _read_state(st: Path) -> dict:
    """A state file, parsed and sealed, its `writer` and `options` of the right shape."""
    fd = _open(st, os.O_RDONLY)
    try:
        with os.fdopen(fd, "rb") as f:
            raw = f.read(MAX_STATE + 1)
    except OSError as e:
        raise Untrusted(st, f"cannot be read: {e.strerror}") from None
    if len(raw) > MAX_STATE:
        raise Untrusted(st, f"is larger than any state worldc writes ({MAX_STATE >> 20} MiB)")
    try:
        state = json.loads(raw)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise Untrusted(st, "is not JSON (cut short or overwritten)") from None
    if not isinstance(state, dict):
        raise Untrusted(st, "is not a JSON object")
    if "sha256" not in state:
        raise Untrusted(st, "has no digest (written by an earlier worldc, or edited)")
    body = {k: v for k, v in state.items() if k != "sha256"}
    try:
        sealed = state["sha256"] == _seal(body)
    except (ValueError, RecursionError):
        sealed = False
    if not sealed:
        raise Untrusted(st, "does not match its digest (changed since worldc wrote it)")
    w = body.get("writer")
    if not (isinstance(w, dict) and set(w) == {"pid", "start", "host", "boot"} and _nat(w["pid"], 1 << 31) and w["pid"] > 0 and (w["start"] is None or _nat(w["start"], 1 << 63))
            and isinstance(w["host"], str) and (w["boot"] is None or isinstance(w["boot"], str))):
        raise Untrusted(st, "writer: expected {pid, start, host, boot}")
    if not isinstance(body.get("options"), dict):
        raise Untrusted(st, "options: expected an object")
    return body


def _nat(x, top: int | float) -> bool:
    return type(x) is int and 0 <= x <= top


def _state_problem(s: dict, job: Job) -> str | None:
    """What is wrong with the fields of a sealed state of this job's options, or None. A forger
    can put anything under a digest, and nothing that reads the state may raise."""
    if set(s) != {"options", "writer", "bytes", "digest", "next", "selector", "report"}:
        return f"has the fields {', '.join(sorted(s))}, not those of a state"
    nxt, sel, rep = s["next"], s["selector"], s["report"]
    if not _nat(s["bytes"], 1 << 50):
        return f"bytes: expected a length in bytes; got {s['bytes']!r:.40}"
    if not (isinstance(s["digest"], str) and re.fullmatch(r"[0-9a-f]{64}", s["digest"])):
        return "digest: expected a SHA-256 in hex"
    if not _nat(nxt, attempt_limit(job)):
        return f"next: must be an attempt index from 0 to {attempt_limit(job)}; got {nxt!r:.40}"
    if not (isinstance(sel, dict) and set(sel) == {"emitted", "waited", "seen", "ruled"}):
        return "selector: expected {emitted, waited, seen, ruled}"
    tops = {"emitted": nxt if job.shard else min(nxt, job.count), "waited": RULE_PATIENCE, "seen": nxt, "ruled": sel["seen"]}
    for k, top in tops.items():  # in this order: `seen` is checked before it bounds `ruled`
        if not _nat(sel[k], top):
            return f"selector.{k}: must be an integer from 0 to {top}; got {sel[k]!r:.40}"
    fields = {"attempts", "rejected", "examples", "z3_seconds", "encode_seconds", "work_seconds", "seconds", "tools", "rules"}
    if not (isinstance(rep, dict) and set(rep) == fields):
        return f"report: expected {{{', '.join(sorted(fields))}}}"
    if not _nat(rep["attempts"], nxt):
        return f"report.attempts: must be an integer from 0 to {nxt}; got {rep['attempts']!r:.40}"
    for k in ("z3_seconds", "encode_seconds", "work_seconds", "seconds"):
        if not (type(rep[k]) in (int, float) and 0 <= rep[k] <= 1e12):
            return f"report.{k}: must be a number of seconds; got {rep[k]!r:.40}"
    counters = {"rejected": rep["attempts"], "tools": sel["emitted"], "rules": sel["emitted"]}
    for k, top in counters.items():
        c = rep[k]
        if not (isinstance(c, dict) and all(_nat(v, top) for v in c.values())) or (k == "rejected" and not set(c) <= set(REJECTIONS)):
            return f"report.{k}: expected counts from 0 to {top}" + (" by rejection reason" if k == "rejected" else "")
    if not (isinstance(rep["examples"], dict) and set(rep["examples"]) <= set(REJECTIONS) and all(isinstance(v, str) for v in rep["examples"].values())):
        return "report.examples: expected a text by rejection reason"
    if job.shard is None and (rep["attempts"] != nxt or sum(rep["rejected"].values()) != nxt - sel["emitted"]):
        return f"report: {rep['attempts']} attempts, {sum(rep['rejected'].values())} rejected and {sel['emitted']} tasks do not add up to the next attempt, {nxt}"
    return None


def _scan(f, path: Path, job: Job, end: int, before: int | None, copy: Callable[[bytes], object] | None = None) -> tuple:
    """Read the whole lines of `f` up to byte `end`, each a task of this job from attempts in
    increasing order of this shard (and before attempt `before`): (SHA-256 so far, lines, last
    attempt index, bytes read). Raises Untrusted naming the first line that is not; with `copy`
    (extending a finished shard), a torn last line ends the scan instead."""
    hasher, pos, lines, last = hashlib.sha256(), 0, 0, -1
    while pos < end:
        line = f.readline(min(MAX_LINE, end - pos))
        if not line.endswith(b"\n"):
            if copy is not None and len(line) < MAX_LINE:
                break  # a torn last line: that attempt is done again
            raise Untrusted(path, "torn: no newline ends it, yet it is counted as committed", lines + 1)
        lines += 1
        m = _ID_HEAD.match(line)
        world, _, index = m[1].decode("utf-8", "replace").rpartition(f"-h{job.hops}-s{job.seed}-") if m else ("", "", "")
        if not world or not re.fullmatch(r"[0-9]{6,18}", index):
            raise Untrusted(path, f"not a task of --hops {job.hops} --seed {job.seed} (no such id at its start)", lines)
        i = int(index)
        if i <= last or (before is not None and i >= before) or (job.shard and i % job.shard[1] != job.shard[0] - 1):
            shard = f" of shard {job.shard[0]}/{job.shard[1]}" if job.shard else ""
            bound = f", before attempt {before}" if before is not None else ""
            raise Untrusted(path, f"attempt {i} is out of place: a run{shard} writes its attempts in increasing order{bound} (after {last})", lines)
        pos, last = pos + len(line), i
        hasher.update(line)
        if copy is not None:
            copy(line)
    return hasher, lines, last, pos


def _journals(out: Path) -> list[tuple[Path, Path, int]]:
    """(journal, state, pid in the name) of every writer of `out` that left a state beside its
    journal (a link or anything else at that name counts: it is refused when read)."""
    found = []
    with contextlib.suppress(OSError):
        for f in sorted(out.parent.iterdir()):
            m = _TMP.match(f.name)
            if m is None or m["name"] != out.name:
                continue
            st = f.with_name(f.name[: -len(".tmp")] + STATE)
            if os.path.lexists(st):
                found.append((f, st, int(m["pid"])))
    return found


def pending(out: Path, job: Job) -> tuple[Path, Path, dict] | None:
    """The dead writer's journal `--resume` would continue, with its state, or None when there
    is none. Raises Untrusted when OUT, or a state beside it, is not what a writer left;
    ResumeError when a live writer writes `out` or only partial runs of other options exist."""
    _check_output(out)
    want, others = options(job), []
    best = None
    for journal, st, _ in _journals(out):
        state = _read_state(st)
        if _live(state["writer"]):
            raise ResumeError(f"another worldc sample (pid {state['writer']['pid']}) is writing {out}")
        if state["options"] != want:
            others.append(state["options"])
            continue
        problem = _state_problem(state, job)
        if problem:
            raise Untrusted(st, problem)
        if best is None or state["bytes"] > best[2]["bytes"]:
            best = (journal, st, state)
    if best is None and others:
        theirs = others[0]
        diff = ", ".join(f"{k} {theirs.get(k)!r} (now {want[k]!r})" for k in want if theirs.get(k) != want[k])
        raise ResumeError(f"the partial run of {out} was started with other options: {diff}; run the same command, or drop --resume to start over")
    return best


def _stale(st: Path) -> bool:
    """A state no live writer keeps: its pid is gone, or (pid reused) its writer is not that process."""
    m = _STATE.match(st.name)
    if m is None or not _alive(int(m["pid"])):
        return True
    try:
        return st.name.endswith(STATE) and not _live(_read_state(st)["writer"])
    except Untrusted:
        return False  # unreadable: it may be anyone's


def _remove_stale_states(out: Path) -> None:
    """`remove_stale` for the journals and their states (dead writers' only)."""
    remove_stale(out)
    with contextlib.suppress(OSError):
        for f in out.parent.iterdir():
            m = _STATE.match(f.name)
            if m is not None and m["name"] == out.name and _stale(f):
                journal = f.with_name(f.name[: -len(STATE)] + ".tmp")  # a pid reused keeps it from `remove_stale`
                for p in (f, journal) if f.name.endswith(STATE) else (f,):
                    with contextlib.suppress(OSError):
                        os.unlink(p)


class _Journal:
    """The output of a run with `-o`: a journal (the temporary file) plus its state, committed
    after each task; renamed over `out` at the end."""

    def __init__(self, out: Path, job: Job, resume: bool):
        self.out, self.job, self.resume = out, job, resume
        self.state: dict | None = None  # the adopted state, when resuming
        self.options, self.writer = options(job), _writer(os.getpid())
        self.hasher = hashlib.sha256()  # of the journal's bytes so far

    def __enter__(self):
        out = self.out
        out.parent.mkdir(parents=True, exist_ok=True)
        adopt = pending(out, self.job) if self.resume else None
        if adopt is not None:
            self.fh = os.fdopen(self._adopt(*adopt), "wb")
        else:
            _remove_stale_states(out)
            fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.{os.getpid()}.", suffix=".tmp")  # O_EXCL: never a link
            os.fchmod(fd, _mode_for(out))
            self.fh, self.path = os.fdopen(fd, "wb"), Path(tmp)
            self.state_path = self.path.with_name(self.path.name[: -len(".tmp")] + STATE)
            if self.resume and self.job.shard is not None and out.is_file():  # extend a finished shard
                self._extend()
        if self.state is None:
            self.commit(0, Selector(self.job), Report(), 0.0)
        return self

    def _adopt(self, journal: Path, st: Path, state: dict) -> int:
        """Check the dead writer's journal against its state, then take both over (renamed to this
        pid: a live writer's files are not anyone's to remove). Returns the journal, open."""
        fd = _open(journal, os.O_RDWR, own=True)
        try:
            committed, size = state["bytes"], os.fstat(fd).st_size
            if size < committed:
                raise Untrusted(journal, f"holds {size} bytes, fewer than the {committed} its state committed (a cut, or a crash of the machine)")
            with os.fdopen(os.dup(fd), "rb") as f:
                self.hasher, lines, _, _ = _scan(f, journal, self.job, committed, state["next"])
            if lines != state["selector"]["emitted"]:
                raise Untrusted(journal, f"holds {lines} committed tasks; its state says {state['selector']['emitted']}")
            if self.hasher.hexdigest() != state["digest"]:
                raise Untrusted(journal, "its committed tasks do not match the digest in its state (a line was edited)")
            self.path = journal.with_name(f".{self.out.name}.{os.getpid()}.{journal.name.rsplit('.', 2)[1]}.tmp")
            try:
                os.rename(journal, self.path)
            except FileNotFoundError:
                raise ResumeError(f"another worldc sample took {journal} over first") from None
            if os.stat(self.path, follow_symlinks=False).st_ino != os.fstat(fd).st_ino:
                raise Untrusted(journal, "was replaced while it was being checked")
            self.state_path = self.path.with_name(self.path.name[: -len(".tmp")] + STATE)
            self.state = state
            self._write_state({**state, "options": self.options, "writer": self.writer})  # ours now: no one else adopts it
            if st != self.state_path:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(st)
            _remove_stale_states(self.out)
            # Bytes past the committed length are the one thing resume repairs: a kill between
            # writing a task and committing the state leaves them (a whole or a torn line). No
            # digest covers them and nothing was decided from them (`next` and the selector are as
            # of the last commit), so dropping them and doing those attempts again (deterministic)
            # gives the uninterrupted run's bytes, whatever they hold. A torn line *inside* the
            # committed length cannot come from a kill (the journal is fsynced before the state
            # names its length), so `_scan` refused it above.
            os.ftruncate(fd, committed)
            os.lseek(fd, committed, os.SEEK_SET)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _extend(self) -> None:
        """Start the journal with the tasks of the finished shard at `out`, checked as a journal is."""
        with os.fdopen(_open(self.out, os.O_RDONLY), "rb") as src:
            self.hasher, lines, last, end = _scan(src, self.out, self.job, 1 << 62, None, self.fh.write)
        if lines:
            self.state = {"bytes": end, "next": last + 1, "selector": {"emitted": lines, "waited": 0, "seen": 0, "ruled": 0},
                          "report": {"attempts": 0, "rejected": {}, "examples": {}, "z3_seconds": 0.0, "encode_seconds": 0.0, "work_seconds": 0.0, "seconds": 0.0, "tools": {}, "rules": {}}}

    def write(self, line: str) -> None:
        data = line.encode("utf-8")
        self.hasher.update(data)
        self.fh.write(data)

    def commit(self, next_attempt: int, sel: Selector, report: Report, seconds: float) -> None:
        self.fh.flush()
        os.fsync(self.fh.fileno())
        self._write_state({
            "options": self.options, "writer": self.writer, "bytes": self.fh.tell(), "digest": self.hasher.hexdigest(),
            "next": next_attempt, "selector": sel.state(),
            "report": {
                "attempts": report.attempts, "rejected": dict(report.rejected), "examples": report.examples,
                "z3_seconds": report.z3_seconds, "encode_seconds": report.encode_seconds, "work_seconds": report.work_seconds,
                "seconds": seconds, "tools": dict(report.tools), "rules": dict(report.rules),
            },
        })

    def _write_state(self, body: dict) -> None:
        tmp = self.state_path.with_name(self.state_path.name + "x")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)  # a leftover, or a link planted at this name: O_EXCL below makes a file of our own
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(json.dumps({**body, "sha256": _seal(body)}, separators=(",", ":")).encode())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.state_path)

    def restore(self, job: Job) -> tuple[int, Selector, Report, float]:
        if self.state is None:
            return 0, Selector(job), Report(), 0.0
        s, r = self.state, self.state["report"]
        report = Report(
            attempts=r["attempts"], emitted=s["selector"]["emitted"], rejected=collections.Counter(r["rejected"]), examples=dict(r["examples"]),
            z3_seconds=r["z3_seconds"], encode_seconds=r["encode_seconds"], work_seconds=r["work_seconds"],
            tools=collections.Counter(r["tools"]), rules=collections.Counter(r["rules"]),
        )
        return s["next"], Selector(job, **s["selector"]), report, r["seconds"]

    def finish(self) -> None:
        self.fh.close()
        os.replace(self.path, self.out)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.state_path)

    def abandon(self, keep: bool) -> None:
        with contextlib.suppress(OSError):
            self.fh.close()
        if not keep:
            for p in (self.path, self.state_path):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(p)


def run(job: Job, out: Path | None, progress=None, resume: bool = False) -> Report:
    """Sample until `count` tasks are emitted (or attempts run out); write JSONL atomically,
    through a journal `resume=True` can continue (see the module's docstring). Raises
    `Interrupted` on SIGINT or SIGTERM, after removing the temporary files (kept with
    `resume`) and the workers; `ResumeError` when `resume` cannot continue."""
    out = Path(out) if out is not None else None  # a str path works too
    t0 = time.perf_counter()
    stop = _Stop(raise_now=job.workers > 1 and job.backend == "local")  # Ray's waits check `stop` every `ray_backend.POLL` s
    journal = _Journal(out, job, resume) if out is not None else None
    start, sel, report, before = journal.__enter__().restore(job) if journal is not None else (0, Selector(job), Report(), 0.0)
    fh = journal if journal is not None else sys.stdout
    shard = job.shard is not None
    ok = False
    try:
        with _signals_to(stop):
            gen = attempts(job, stop, start)
            try:
                for i, task, reason, detail, z3s, encs, secs, has_rules in (() if report.emitted >= job.count else gen):
                    report.attempts += 1
                    report.z3_seconds += z3s
                    report.encode_seconds += encs
                    report.work_seconds += secs
                    if task is not None and job.capabilities and not set(job.capabilities) <= set(task["capabilities"]):
                        task, reason, detail = None, "filtered", "lacks a requested capability"
                    if task is not None and (why := outside_filters(job, task)):
                        task, reason, detail = None, "filtered", why
                    if task is not None and not shard and not sel.keep(task, has_rules):
                        task, reason, detail = None, "no_rule", f"task {sel.emitted + 1} is one of the --rule-share {job.rule_share:g} that should carry a house rule that decides the reward"
                    elif task is not None and shard:
                        sel.emitted += 1
                    if task is None:
                        report.rejected[reason] += 1
                        report.examples.setdefault(reason, detail)
                    else:
                        fh.write(json.dumps(task, ensure_ascii=False, separators=(",", ":")) + "\n")
                        report.emitted += 1
                        report.tools.update({c["tool"] for c in task["reference_plan"]})
                        report.rules.update({c["name"] for c in task["constraints"]})
                        if journal is not None:
                            journal.commit(i + 1, sel, report, before + time.perf_counter() - t0)
                    if progress is not None:
                        progress(report)
                    if report.emitted >= job.count:
                        break
                stop.check()  # a signal near the end still wins: the output is not committed
            finally:
                stop.raise_now = False  # a second signal must not cut the clean-up short
                gen.close()
        if journal is not None:
            journal.finish()
        ok = True
    finally:
        if journal is not None and not ok:
            journal.abandon(keep=resume and isinstance(sys.exc_info()[1], Interrupted))
    report.seconds = before + time.perf_counter() - t0
    return report


def merge(job: Job, shards: list[Path], out: Path | None, has_rules: bool) -> Report:
    """The unsharded run's output from the files of shards 1..N (`--shard K/N`): attempts
    replayed in index order, the rule share applied as `run` does. Raises ResumeError when a
    shard ran out before `job.count` tasks (nothing is written)."""
    t0 = time.perf_counter()
    n = len(shards)
    files = [open(p, encoding="utf-8", newline="\n") for p in shards]
    report, sel = Report(), Selector(job)
    limit = job.max_attempts or max(50, job.count * 50)
    heads: list = [None] * n

    def head(k: int):
        if heads[k] is None:
            line = files[k].readline()
            if line:
                if not line.endswith("\n"):
                    raise ResumeError(f"{shards[k]} ends in a torn line: finish that shard (--resume)")
                task = json.loads(line)
                heads[k] = (int(task["id"].rsplit("-", 1)[1]), line, task)
        return heads[k]

    try:
        with atomic_output(out) if out is not None else contextlib.nullcontext(sys.stdout) as fh:
            for i in range(limit):
                if report.emitted >= job.count:
                    break
                h = head(i % n)
                if h is None:
                    raise ResumeError(f"shard {i % n + 1}/{n} ({shards[i % n]}) ran out at attempt {i}, before {job.count} tasks: continue it with --resume and a larger -n")
                report.attempts += 1
                if h[0] < i or h[0] % n != i % n:
                    raise ResumeError(f"{shards[i % n]} is not shard {i % n + 1}/{n} of this run (task {h[2]['id']}): give the shards in order")
                if h[0] > i:
                    continue  # rejected in its shard
                heads[i % n] = None
                if sel.keep(h[2], has_rules):
                    fh.write(h[1])
                    report.emitted += 1
                    report.tools.update({c["tool"] for c in h[2]["reference_plan"]})
                    report.rules.update({c["name"] for c in h[2]["constraints"]})
                else:
                    report.rejected["no_rule"] += 1
    finally:
        for f in files:
            f.close()
    report.seconds = time.perf_counter() - t0
    return report


__all__ = ["ATTEMPT_TIMEOUT", "Interrupted", "Job", "Report", "ResumeError", "merge", "pending", "run", "REJECTIONS", "RULE_SHARE", "worker_pool"]
