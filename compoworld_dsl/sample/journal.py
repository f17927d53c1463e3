"""The journal of a run with `-o`, and what `--resume` reads back: nothing is trusted. It decides
no task (that is `run.py`) and removes only the files of writers that are gone.

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
(one per rejection reason, tool and rule) are kept."""

from __future__ import annotations

import collections
import contextlib
import errno
import hashlib
import json
import os
import re
import socket
import stat
import tempfile
from pathlib import Path
from typing import Callable

from ..taskfile import _TMP, _alive, _mode_for, remove_stale
from .job import RULE_PATIENCE, Job, Report, Selector, attempt_limit
from .rejected import REJECTIONS

STATE = ".state"  # .OUT.PID.XXXXXXXX.state: a journal's state, beside it (not a .tmp: one temporary file per writer)
_STATE = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.[a-z0-9_]+\.statex?\Z")
MAX_STATE = 16 << 20  # bytes of a state file: a few counters per rejection reason, tool and rule need far less
MAX_LINE = 64 << 20  # bytes of one task line in a journal: far above any task
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_ID_HEAD = re.compile(rb'\{"id":"([^"\\]{1,300})"')  # a task line starts with its id (the sampler's key order)


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


class Journal:
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
