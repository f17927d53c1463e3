"""Run a sampling job: attempts in index order, optionally across worker processes, streamed
into a temporary file that is renamed into place only when the job completes."""

from __future__ import annotations

import collections
import json
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Iterator

import attrs

from .sampler import REJECTIONS, Rejected, Sampler

CHUNK = 2  # attempts per unit of work: small, so workers do little past the last needed task


@attrs.frozen
class Job:
    path: str
    hops: int
    count: int
    seed: int
    capabilities: tuple[str, ...] = ()
    workers: int = 1
    max_attempts: int | None = None


@attrs.define
class Report:
    attempts: int = 0
    emitted: int = 0
    rejected: collections.Counter = attrs.field(factory=collections.Counter)
    examples: dict = attrs.field(factory=dict)
    z3_seconds: float = 0.0
    work_seconds: float = 0.0  # time workers spent inside attempts (no loading, no start-up)
    seconds: float = 0.0


def load_sampler(path: str) -> Sampler:
    from ..check import check_paths
    from ..codegen.python import load_world

    program = check_paths([path])
    if not program.ok:
        raise ValueError(f"{path} does not check")
    return Sampler(program.model, load_world(program.model, path), path)


# One sampler per worker process, built once by the pool's initializer (a process-local cache,
# not shared state: each process owns its own).
_worker_sampler: Sampler | None = None


def _init_worker(path: str) -> None:
    global _worker_sampler
    _worker_sampler = load_sampler(path)


def _attempt_chunk(args: tuple[int, int, list[int]]) -> tuple[list[tuple[int, dict | None, str, str]], float, float]:
    seed, hops, indices = args
    sampler = _worker_sampler
    before = sampler.z3_seconds
    t0 = time.perf_counter()
    out = []
    for i in indices:
        try:
            out.append((i, sampler.task(seed, i, hops), "", ""))
        except Rejected as r:
            out.append((i, None, r.reason, r.detail))
    return out, sampler.z3_seconds - before, time.perf_counter() - t0


def _chunks(job: Job, limit: int) -> Iterator[tuple[int, int, list[int]]]:
    for start in range(0, limit, CHUNK):
        yield (job.seed, job.hops, list(range(start, min(start + CHUNK, limit))))


def attempts(job: Job) -> Iterator[tuple[int, dict | None, str, str, float, float]]:
    """Every attempt in index order (whatever the number of workers), with its Z3 seconds and
    its seconds in all."""
    limit = job.max_attempts or max(50, job.count * 50)
    if job.workers <= 1:
        _init_worker(job.path)
        for chunk in _chunks(job, limit):
            results, z3s, secs = _attempt_chunk(chunk)
            for r in results:
                yield (*r, z3s / len(results), secs / len(results))
        return
    with ProcessPoolExecutor(max_workers=job.workers, initializer=_init_worker, initargs=(job.path,)) as pool:
        # map() yields in submission order; a bounded window keeps memory flat
        window = job.workers * 2
        chunks = _chunks(job, limit)
        pending = collections.deque()
        for chunk in chunks:
            pending.append(pool.submit(_attempt_chunk, chunk))
            if len(pending) >= window:
                break
        while pending:
            results, z3s, secs = pending.popleft().result()
            nxt = next(chunks, None)
            if nxt is not None:
                pending.append(pool.submit(_attempt_chunk, nxt))
            for r in results:
                yield (*r, z3s / len(results), secs / len(results))


def run(job: Job, out: Path | None, progress=None) -> Report:
    """Sample until `count` tasks are emitted (or attempts run out); write JSONL atomically."""
    report = Report()
    t0 = time.perf_counter()
    tmp = None
    fh = sys.stdout
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
        fh = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
    try:
        gen = attempts(job)
        for i, task, reason, detail, z3s, secs in gen:
            report.attempts += 1
            report.z3_seconds += z3s
            report.work_seconds += secs
            if task is not None and job.capabilities and not set(job.capabilities) <= set(task["capabilities"]):
                task, reason, detail = None, "filtered", "lacks a requested capability"
            if task is None:
                report.rejected[reason] += 1
                report.examples.setdefault(reason, detail)
            else:
                fh.write(json.dumps(task, ensure_ascii=False, separators=(",", ":")) + "\n")
                report.emitted += 1
            if progress is not None:
                progress(report)
            if report.emitted >= job.count:
                gen.close()
                break
        if out is not None:
            fh.close()
            os.replace(tmp, out)
            tmp = None
    finally:
        if out is not None and tmp is not None:
            fh.close()
            os.unlink(tmp)
    report.seconds = time.perf_counter() - t0
    return report


__all__ = ["Job", "Report", "run", "REJECTIONS"]
