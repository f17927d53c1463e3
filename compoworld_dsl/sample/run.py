"""Run a sampling job: attempts in index order, optionally across worker processes, streamed
into a temporary file that is renamed into place only when the job completes. It builds no
task itself (that is `sampler.py`) and leaves no process or temporary file behind."""

from __future__ import annotations

import collections
import contextlib
import ctypes
import json
import os
import random
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Iterator

import attrs

from ..smt.encode import Deadline
from ..taskfile import atomic_output
from .rejected import REJECTIONS, Rejected
from .sampler import Sampler

CHUNK = 2  # attempts per unit of work: small, so workers do little past the last needed task
ATTEMPT_TIMEOUT = 10.0  # seconds per attempt by default: ~100x what an attempt on legal_ops takes
RULE_SHARE = 0.5  # of tasks that should carry a load-bearing house rule, by default (D23)
RULE_PATIENCE = 8  # tasks without one passed over per slot that wants one; then the next is kept
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


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


def load_sampler(path: str) -> Sampler:
    from ..check import check_paths
    from ..codegen.python import load_world

    program = check_paths([path])
    if not program.ok:
        raise ValueError(f"{path} does not check")
    return Sampler(program.model, load_world(program.model, path), path)


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


# One sampler per worker process, built once by the pool's initializer (a process-local cache,
# not shared state: each process owns its own).
_worker_sampler: Sampler | None = None


def _init_worker(path: str) -> Sampler:
    global _worker_sampler
    _worker_sampler = load_sampler(path)
    return _worker_sampler


def _attempt(sampler: Sampler, job: Job, i: int) -> tuple:
    """(index, task or None, reason, detail, Z3 check seconds, encoding seconds, seconds, does
    the world have house rules)."""
    z3s, encs = sampler.z3_seconds, sampler.encode_seconds
    t0 = time.perf_counter()
    timeout = job.attempt_timeout or None
    try:
        task, reason, detail = sampler.task(job.seed, i, job.hops, Deadline(timeout) if timeout else None), "", ""
    except Rejected as r:
        task, reason, detail = None, r.reason, r.detail
    return (i, task, reason, detail, sampler.z3_seconds - z3s, sampler.encode_seconds - encs, time.perf_counter() - t0, bool(sampler.constraints))


def _attempt_chunk(args: tuple[Job, list[int]]) -> list[tuple]:
    job, indices = args
    return [_attempt(_worker_sampler, job, i) for i in indices]


def _chunks(job: Job, limit: int) -> Iterator[tuple[Job, list[int]]]:
    for start in range(0, limit, CHUNK):
        yield (job, list(range(start, min(start + CHUNK, limit))))


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
        if _worker_sampler is not None:
            _worker_sampler.deadline.expire()
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


def attempts(job: Job, stop: _Stop | None = None) -> Iterator[tuple]:
    """Every attempt in index order (whatever the number of workers): (index, task or None,
    reason, detail, Z3 check seconds, encoding seconds, seconds, world has rules)."""
    limit = job.max_attempts or max(50, job.count * 50)
    if job.workers <= 1:
        sampler = _init_worker(job.path)
        for i in range(limit):
            if stop is not None:
                stop.check()
            result = _attempt(sampler, job, i)
            if stop is not None:
                stop.check()  # a signal cut this attempt short: it is no result
            yield result
        return
    with worker_pool(job.workers, _init_worker, (job.path,)) as pool:
        # results are consumed in submission order; a bounded window keeps memory flat
        window = job.workers * 2
        chunks = _chunks(job, limit)
        pending = collections.deque()
        for chunk in chunks:
            pending.append(pool.submit(_attempt_chunk, chunk))
            if len(pending) >= window:
                break
        while pending:
            results = pending.popleft().result()
            nxt = next(chunks, None)
            if nxt is not None:
                pending.append(pool.submit(_attempt_chunk, nxt))
            yield from results


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


def run(job: Job, out: Path | None, progress=None) -> Report:
    """Sample until `count` tasks are emitted (or attempts run out); write JSONL atomically.
    Raises `Interrupted` on SIGINT or SIGTERM, after removing the temporary file and the workers."""
    report = Report()
    t0 = time.perf_counter()
    stop = _Stop(raise_now=job.workers > 1)
    output = atomic_output(out) if out is not None else contextlib.nullcontext(sys.stdout)
    with _signals_to(stop), output as fh:
        gen = attempts(job, stop)
        waited = 0  # tasks without a rule passed over for the slot that wants one
        seen = ruled = 0  # tasks the attempts gave (kept or passed over), and those with a rule
        try:
            for i, task, reason, detail, z3s, encs, secs, has_rules in gen:
                report.attempts += 1
                report.z3_seconds += z3s
                report.encode_seconds += encs
                report.work_seconds += secs
                if task is not None and job.capabilities and not set(job.capabilities) <= set(task["capabilities"]):
                    task, reason, detail = None, "filtered", "lacks a requested capability"
                if task is not None:
                    seen, ruled = seen + 1, ruled + bool(task["constraints"])
                # a world whose rules seldom bite (under 1 task in 2 × RULE_PATIENCE, after 4 ×
                # RULE_PATIENCE tasks: enough not to give up on a world where 1 in 10 has one) is not made to wait
                worth = seen < 4 * RULE_PATIENCE or ruled * 2 * RULE_PATIENCE >= seen
                if task is not None and has_rules and not task["constraints"] and worth and wants_rule(job, report.emitted) and waited < RULE_PATIENCE:
                    task, reason, detail = None, "no_rule", f"task {report.emitted + 1} is one of the --rule-share {job.rule_share:g} that should carry a house rule that decides the reward"
                    waited += 1
                elif task is not None:
                    waited = 0
                if task is None:
                    report.rejected[reason] += 1
                    report.examples.setdefault(reason, detail)
                else:
                    fh.write(json.dumps(task, ensure_ascii=False, separators=(",", ":")) + "\n")
                    report.emitted += 1
                    report.tools.update({c["tool"] for c in task["reference_plan"]})
                    report.rules.update({c["name"] for c in task["constraints"]})
                if progress is not None:
                    progress(report)
                if report.emitted >= job.count:
                    break
            stop.check()  # a signal near the end still wins: the output is not committed
        finally:
            stop.raise_now = False  # a second signal must not cut the clean-up short
            gen.close()
    report.seconds = time.perf_counter() - t0
    return report


__all__ = ["ATTEMPT_TIMEOUT", "Interrupted", "Job", "Report", "run", "REJECTIONS", "RULE_SHARE", "worker_pool"]
