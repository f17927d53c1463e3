"""What a sampling job is: its options (`Job`), what it counts (`Report`), and the rule-share
bookkeeping that decides which tasks it keeps (`Selector`). Data and pure decisions: it runs,
reads and writes nothing (that is `run.py`, and `journal.py` for what `--resume` keeps)."""

from __future__ import annotations

import collections
import random

import attrs

ATTEMPT_TIMEOUT = 10.0  # seconds per attempt by default: ~100x what an attempt on legal_ops takes
RULE_SHARE = 0.5  # of tasks that should carry a load-bearing house rule, by default (D23)
RULE_PATIENCE = 8  # tasks without one passed over per slot that wants one; then the next is kept


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


def attempt_limit(job: Job) -> int:
    if job.shard is not None:  # the shard's own attempts, as many per candidate as a run's
        return job.max_attempts or max(50, job.count * 50) * job.shard[1]
    return job.max_attempts or max(50, job.count * 50)


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
