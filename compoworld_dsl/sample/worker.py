"""What a sampling process holds and runs: its one sampler, built once, and the attempts it is
sent. Local pool workers and Ray actors alike install a sampler here; it knows no executor.

The sampler is a process-local cache, not shared state: each process owns its own, set once by
`init_worker` (a pool's initializer) or `install` (a Ray actor), read by `attempt_chunk`."""

from __future__ import annotations

import ctypes
import os
import sys
import time

from ..smt.encode import Deadline
from .rejected import Rejected
from .sampler import Sampler

_sampler: Sampler | None = None


def load_sampler(path: str) -> Sampler:
    """Check and compile the world at `path` (ValueError when it does not check), or take both
    from the world cache when its files are unchanged (`compoworld_dsl.worldcache`; off with
    COMPOWORLD_NO_CACHE=1), and build the sampler over it."""
    from ..codegen.python import exec_world
    from ..worldcache import load_compiled

    model, code = load_compiled(path)
    return Sampler(model, exec_world(code, path), path)


def install(sampler: Sampler) -> Sampler:
    """Make `sampler` the one this process's attempts run on (after `keep_freed_memory`)."""
    global _sampler
    keep_freed_memory()
    _sampler = sampler
    return sampler


def init_worker(path: str) -> Sampler:
    """A pool worker's initializer: the world at `path`'s sampler, installed."""
    return install(load_sampler(path))


def running_sampler() -> Sampler | None:
    """The sampler installed in this process, if any (a signal handler cuts its attempt short)."""
    return _sampler


def keep_freed_memory() -> None:
    """In a sampling process (a pool worker, a Ray actor, or `worldc sample` itself with one
    worker), let glibc keep the memory it frees instead of handing it back to the kernel at once.

    Every Z3 binding builds its question in a fresh Z3 context (decision D15), and a new context
    allocates ~16 MB. With glibc's defaults, those blocks go back to the kernel when the old
    context is freed and come back as fresh pages: 4,128 page faults a context. A fixed mmap
    threshold of 32 MB and a trim threshold of 128 MB keep them in the heap for the next context
    (decision D26: legal_ops 4.5% faster an attempt, peak RSS 101 → 107 MB). glibc only;
    elsewhere, or with COMPOWORLD_KEEP_FREED_MEMORY=0, nothing."""
    if os.environ.get("COMPOWORLD_KEEP_FREED_MEMORY") == "0" or not sys.platform.startswith("linux"):
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return  # not glibc (musl has no mallopt)
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's <malloc.h>
    mallopt(m_mmap_threshold, 32 << 20)
    mallopt(m_trim_threshold, 128 << 20)


def attempt(sampler: Sampler, job, i: int) -> tuple:
    """Attempt `i` of `job` (a `run.Job`: seed, hops, attempt_timeout, threads): (index, task
    or None, reason, detail, Z3 check seconds, encoding seconds, seconds, does the world have
    house rules)."""
    z3s, encs = sampler.z3_seconds, sampler.encode_seconds
    t0 = time.perf_counter()
    timeout = job.attempt_timeout or None
    try:
        task, reason, detail = sampler.task(job.seed, i, job.hops, Deadline(timeout) if timeout else None, threads=job.threads), "", ""
    except Rejected as r:
        task, reason, detail = None, r.reason, r.detail
    return (i, task, reason, detail, sampler.z3_seconds - z3s, sampler.encode_seconds - encs, time.perf_counter() - t0, bool(sampler.constraints))


def attempt_chunk(args: tuple) -> list[tuple]:
    """The attempts of one chunk `(job, indices)` on this process's sampler: what an executor,
    local or Ray, is sent."""
    job, indices = args
    return [attempt(_sampler, job, i) for i in indices]
