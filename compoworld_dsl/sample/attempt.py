"""The data of one attempt: the seed its state draws from, its time budget, the stage it is in,
its caches and its Z3 time. Made afresh for every attempt; it knows no stage and no world."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from ..smt.encode import Deadline


class Attempt:
    """One attempt's own state, handed to every stage next to the world's facts. Nothing in it
    outlives the attempt, so no task depends on what an earlier attempt cached."""

    def __init__(self, task_seed: int | None, deadline: Deadline | None = None, solvers: Any = None):
        self.task_seed = task_seed  # the seed the task's state draws its tables from
        # the process's reused solver for sat-or-unsat questions (`solve.SolverPool`), or None:
        # a fresh solver each time. A scope is popped when its question is answered, so nothing
        # of one attempt's question is there for the next
        self.solvers = solvers
        # the attempt's time budget; a signal handler may cut it short (`Deadline.expire`)
        self.deadline = deadline or Deadline()
        self.stage = "starting"  # what the attempt is doing, for a timeout's detail
        self.z3_seconds = 0.0  # in Z3's checks
        self.encode_seconds = 0.0  # building Z3 terms (encodings, symbolic states) and reading models
        self.sym_cache: Any = None  # (key, symbolic state, state): `solve.sym`
        self.rows_cache: dict = {}  # (id of a state, rule, tables) → (state, protected rows): `rules.protected`
        self.replay_prefix: Any = None  # the reference run the changed replays share: `necessity._Prefix`
        self.pools: dict = {}  # `pools.held_split`'s answers by the tables they read
        self.alternative: Any = None  # the branch not taken, found while growing a conditional walk

    def at(self, stage: str) -> None:
        self.stage = stage

    @contextlib.contextmanager
    def encoding(self):
        """Count the time inside as building Z3 terms (`encode_seconds`): with a large table
        that is most of Z3's share of an attempt, and none of it is inside `solver.check`."""
        t = time.perf_counter()
        try:
            yield
        finally:
            self.encode_seconds += time.perf_counter() - t
