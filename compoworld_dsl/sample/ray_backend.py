"""`worldc sample --backend ray`: the attempts of `run.attempts` on Ray actors instead of a local
process pool. Only the executor changes. `run.attempts` still cuts the attempt indices into
chunks (`run._chunks`), keeps a window of at most 2 × workers chunks in flight and consumes
their results in index order. The rule share (`Selector`), the journal (`--resume`), shards and
the report are the same code as with `--backend local`, so the output is the same bytes for the
same options and seed (an attempt is a function of the world, the seed, the hops and its index).

Workers. One actor (`SamplerWorker`, one CPU each) per worker; `--workers 0` means one per CPU
that Ray reports. Each actor builds its `Sampler` once, in its constructor. The world goes to
it as a compiled world, not as files: the driver loads the world it has already checked (from
the world cache, `worldcache.py`) and `ray.put`s the pickled model and the marshalled code of
the generated module once, about 300 kB for legal_ops. So a worker on another machine needs no
.world file, no identical path and no cache, and it samples exactly the world the driver
checked, even if the file changes during the run. What it does need is the same Python
(major.minor: marshal's format, which Ray requires anyway) and the same compoworld-dsl code, Z3,
attrs and lark versions: each actor reports a fingerprint of those, and the run stops with an
error naming the host when one differs from the driver's, because another Z3 can pick other
models and so write other bytes.

Ray instance. With `--address ADDR` (`auto`, `HOST:6379`, `ray://...`) the driver connects to
that cluster and disconnects at the end, leaving it running. Otherwise it starts a local
instance (`address="local"`, so `RAY_ADDRESS` is ignored): `num_cpus` = workers, no dashboard,
workers' output not forwarded to the terminal, Ray's logging at WARNING, usage stats off, and
`ray.shutdown()` at the end. A process that had already called `ray.init` (a test, a notebook)
keeps its connection: the job uses it and only kills its own actors.

Failures. A chunk whose actor died (its process killed, its node lost) is sent again, with
every other chunk that actor held, to the least loaded live actor, and a new actor replaces the
dead one. A chunk is sent at most 1 + `RETRIES` times; after that the run fails
(`RayBackendError`), as it does when no worker can be started. An exception raised inside an
attempt is raised again in the driver, as the local pool does.

Signals. The driver only waits: it waits in slices of `POLL` seconds and checks the run's
`_Stop` between them, so SIGINT or SIGTERM end the run within a slice. The actors ignore SIGINT
(a terminal's Ctrl-C reaches the whole process group; a local instance's workers are in it).
On the way out the actors are killed (`ray.kill`: queued chunks are not needed) and a local
instance is shut down. A driver killed with SIGKILL leaves nothing either: Ray ends a job's
actors when its driver dies, and a local instance's processes share the driver's fate.
"""

from __future__ import annotations

import contextlib
import logging
import marshal
import os
import signal
import socket
import sys
import threading
import time
from typing import Callable

from . import worker

RETRIES = 3  # sends of one chunk after the first, each after its actor died
POLL = 0.2  # seconds the driver waits on Ray before it looks at signals again


class RayBackendError(Exception):
    """The Ray backend cannot run: Ray missing, no cluster at the address, a worker with other
    code, or a chunk whose workers kept dying."""


def _import_ray():
    try:
        import ray
    except ImportError as e:
        raise RayBackendError("--backend ray needs Ray: pip install 'compoworld-dsl[ray]' (or 'ray>=2.40')") from e
    return ray


def fingerprint() -> dict:
    """What must match between the driver and every worker for the same bytes: the Python
    (major.minor), this package's code and grammar, and the versions of Z3, attrs and lark."""
    import attrs
    import lark
    import z3

    from .. import __version__
    from ..worldcache import source_digest

    return {
        "python": "%d.%d" % sys.version_info[:2], "compoworld-dsl": __version__, "code": source_digest()[:16],
        "z3": z3.get_full_version(), "attrs": attrs.__version__, "lark": lark.__version__,
    }


def compiled_world(path: str) -> tuple[str, bytes, bytes]:
    """(path, marshalled code of the generated module, pickled model) of the checked world at
    `path`, taken from the world cache when fresh: what a worker builds its `Sampler` from."""
    from ..worldcache import _dump_model, load_compiled

    model, code = load_compiled(path)
    return path, marshal.dumps(code), _dump_model(model)


def sampler_from(world: tuple[str, bytes, bytes]):
    """The `Sampler` of a `compiled_world`, as `run.load_sampler` builds it from the cache."""
    from ..codegen.python import exec_world
    from ..worldcache import _load_model
    from .sampler import Sampler

    path, code, model = world
    return Sampler(_load_model(model), exec_world(marshal.loads(code), path), path)


class SamplerWorker:
    """A Ray actor (made remote in `_actor_class`): one `Sampler`, built once, for its process's
    life; chunks of attempts run one at a time, in the order they were sent."""

    def __init__(self, world: tuple[str, bytes, bytes]):
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle
        worker.install(sampler_from(world))  # what `worker.attempt_chunk` uses, as in a pool worker

    def hello(self) -> dict:
        import ray

        return {"host": socket.gethostname(), "node": ray.get_runtime_context().get_node_id(), "pid": os.getpid(), **fingerprint()}

    def call(self, fn: Callable, args):
        return fn(args)


_remote = None


def _actor_class(ray):
    global _remote
    if _remote is None:
        _remote = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(SamplerWorker)
    return _remote


class _Chunk:
    """A chunk sent to an actor: a future for `run.attempts`, whose `result()` waits for it and
    sends it again when its actor dies."""

    __slots__ = ("pool", "fn", "args", "actor", "ref", "sends")

    def __init__(self, pool: "RayPool", fn: Callable, args):
        self.pool, self.fn, self.args, self.actor, self.ref, self.sends = pool, fn, args, None, None, 0

    def result(self):
        return self.pool._result(self)


class RayPool:
    """The executor `run.attempts` uses with `--backend ray`: `submit(fn, chunk)` gives a future
    whose `result()` is `fn(chunk)` computed by an actor; `workers` is the number of actors."""

    def __init__(self, job, stop=None):
        self.job, self.stop = job, stop
        self.ray = _import_ray()
        self.started = False
        self.actors: list = []  # live ones, in order of creation
        self.hosts: dict = {}  # actor id → hello()
        self.sent: dict = {}  # actor id → chunks sent to it whose results were not consumed yet
        self.replaced = 0  # actors that died and were replaced (for tests and the report)
        self.startup_seconds = 0.0
        self.workers = job.workers

    # ── start and stop ──

    def __enter__(self) -> "RayPool":
        global _pool
        t0 = time.perf_counter()
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        self.startup_seconds = time.perf_counter() - t0
        _pool = self
        hosts = len({info["host"] for info in self.hosts.values()})
        nodes = len({info["node"] for info in self.hosts.values()})
        on = f"{hosts} host{'s' if hosts != 1 else ''}"
        if nodes != hosts:  # several Ray nodes on one machine (or one node per host: just hosts)
            on = f"{nodes} nodes ({on})"
        where = f"the Ray cluster at {self.job.address}" if self.job.address else "a local Ray instance" if self.started else "this process's Ray"
        print(f"ray: {self.workers} workers on {on} of {where}, ready in {self.startup_seconds:.1f} s", file=sys.stderr)
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _start(self) -> None:
        ray, job = self.ray, self.job
        if not ray.is_initialized():
            kwargs = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.WARNING}
            if job.address:
                address = job.address
            else:
                os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # a local instance reports nowhere
                # Ray's default for a new local instance, token authentication, without its warning
                logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)
                address = "local"
                kwargs.update(num_cpus=job.workers or None, object_store_memory=256 << 20)
            main = threading.current_thread() is threading.main_thread()
            handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)} if main else {}
            try:
                ray.init(address=address, **kwargs)
            except (ConnectionError, RuntimeError, ValueError) as e:
                raise RayBackendError(f"cannot {'connect to the Ray cluster at ' + address if job.address else 'start a local Ray instance'}: {e}") from e
            finally:
                for s, h in handlers.items():  # Ray's core worker takes SIGTERM (it would exit at once, leaving our files)
                    if h is not None:
                        signal.signal(s, h)
            self.started = True
        if not self.workers:
            self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.world = ray.put(compiled_world(job.path))
        self.actors = [self._new_actor() for _ in range(self.workers)]
        mine = fingerprint()
        for actor, info in zip(self.actors, self._get([a.hello.remote() for a in self.actors], "start the workers")):
            self.hosts[actor._actor_id] = info
            self._same_code(info, mine)

    def _same_code(self, info: dict, mine: dict) -> None:
        diff = [f"{k} {info.get(k)} (driver: {v})" for k, v in mine.items() if info.get(k) != v]
        if diff:
            raise RayBackendError(f"the Ray worker on {info.get('host')} runs other code than this driver: {', '.join(diff)}; install the same compoworld-dsl, Z3 and Python on every node")

    def close(self) -> None:
        """Kill this job's actors (work still queued is not needed) and shut down a local instance."""
        global _pool
        if _pool is self:
            _pool = None
        ray = self.ray
        for actor in self.actors:
            with contextlib.suppress(Exception):
                ray.kill(actor, no_restart=True)
        self.actors, self.sent = [], {}
        if self.started:
            self.started = False
            with contextlib.suppress(Exception):
                ray.shutdown()

    def _new_actor(self):
        actor = _actor_class(self.ray).options(name=None).remote(self.world)
        self.sent[actor._actor_id] = []
        return actor

    def _get(self, refs: list, doing: str) -> list:
        """ray.get in slices of POLL seconds, with the signals checked between them."""
        ray = self.ray
        while True:
            ready, _ = ray.wait(refs, num_returns=len(refs), timeout=POLL)
            if self.stop is not None:
                self.stop.check()
            if len(ready) == len(refs):
                break
        try:
            return ray.get(refs)
        except ray.exceptions.RayTaskError as e:
            raise e.as_instanceof_cause() from None
        except ray.exceptions.RayError as e:
            raise RayBackendError(f"cannot {doing}: {e}") from e

    # ── the executor ──

    def submit(self, fn: Callable, args) -> _Chunk:
        chunk = _Chunk(self, fn, args)
        self._send(chunk)
        return chunk

    def _send(self, chunk: _Chunk) -> None:
        """To the actor with the fewest chunks still running or queued (the first of them on a tie)."""
        ray = self.ray
        refs = [c.ref for a in self.actors for c in self.sent[a._actor_id]]
        done = set(ray.wait(refs, num_returns=len(refs), timeout=0)[0]) if refs else set()
        actor = min(self.actors, key=lambda a: sum(c.ref not in done for c in self.sent[a._actor_id]))
        chunk.actor, chunk.sends = actor, chunk.sends + 1
        chunk.ref = actor.call.remote(chunk.fn, chunk.args)
        self.sent[actor._actor_id].append(chunk)

    def _result(self, chunk: _Chunk):
        ray = self.ray
        while True:
            ready, _ = ray.wait([chunk.ref], timeout=POLL)
            if self.stop is not None:
                self.stop.check()
            if not ready:
                continue
            try:
                result = ray.get(chunk.ref)
            except ray.exceptions.RayTaskError as e:  # the attempt itself raised: as the local pool does
                raise e.as_instanceof_cause() from None
            except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError, ray.exceptions.ObjectLostError, ray.exceptions.NodeDiedError) as e:
                self._lost(chunk.actor, e)  # sends `chunk` again, to another actor
                continue
            self.sent[chunk.actor._actor_id].remove(chunk)
            return result

    def _lost(self, actor, error: Exception) -> None:
        """`actor` died: a new actor takes its place, and every chunk it held (not yet consumed)
        is sent again, in index order, to the least loaded live actors."""
        ray = self.ray
        orphans = self.sent.pop(actor._actor_id)
        self.actors = [a for a in self.actors if a._actor_id != actor._actor_id]
        with contextlib.suppress(Exception):
            ray.kill(actor, no_restart=True)  # unreachable rather than dead: make sure
        self.replaced += 1
        lost = self.hosts.get(actor._actor_id, {})
        print(f"ray: a worker was lost (on {lost.get('host', '?')}: {type(error).__name__}); {len(orphans)} chunk(s) it held go to the others, and a new worker starts", file=sys.stderr)
        self.actors.append(self._new_actor())
        for c in orphans:
            if c.sends > RETRIES:
                raise RayBackendError(f"attempts {list(c.args[1])} lost their Ray worker {c.sends} times; last: {error}")
            self._send(c)


_pool: RayPool | None = None  # the pool of the run in progress in this process (tests, debugging)


def ray_pool(job, stop=None) -> RayPool:
    return RayPool(job, stop)


__all__ = ["POLL", "RETRIES", "RayBackendError", "RayPool", "SamplerWorker", "compiled_world", "fingerprint", "ray_pool", "sampler_from"]
