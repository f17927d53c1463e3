"""Run a sampling job: attempts in index order, optionally across worker processes, streamed
into a temporary file that is renamed into place only when the job completes. It builds no
task itself (that is `sampler.py`) and leaves no process or temporary file behind. What a job
is and what it keeps are `job.py`; the journal that `--resume` continues is `journal.py`.

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
import json
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Iterator

from ..taskfile import atomic_output
from .job import ATTEMPT_TIMEOUT, RULE_SHARE, Job, Report, Selector, attempt_limit
from .journal import Journal, ResumeError, pending
from .rejected import REJECTIONS
from .worker import attempt, attempt_chunk, init_worker, keep_freed_memory, load_sampler, running_sampler  # noqa: F401  (load_sampler, keep_freed_memory: imported from here too)

CHUNK = 2  # attempts per unit of work: small, so workers do little past the last needed task
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


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


def run(job: Job, out: Path | None, progress=None, resume: bool = False) -> Report:
    """Sample until `count` tasks are emitted (or attempts run out); write JSONL atomically,
    through a journal `resume=True` can continue (see `journal.py`). Raises
    `Interrupted` on SIGINT or SIGTERM, after removing the temporary files (kept with
    `resume`) and the workers; `ResumeError` when `resume` cannot continue."""
    out = Path(out) if out is not None else None  # a str path works too
    t0 = time.perf_counter()
    stop = _Stop(raise_now=job.workers > 1 and job.backend == "local")  # Ray's waits check `stop` every `ray_backend.POLL` s
    journal = Journal(out, job, resume) if out is not None else None
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
