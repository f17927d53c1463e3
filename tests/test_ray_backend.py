"""`worldc sample --backend ray` writes the bytes of `--backend local`: the same attempts on Ray
actors, consumed in index order by the same rule share, journal and shards; an actor killed
mid-run has its chunks sent again and changes no byte."""

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration  # needs the `integration` extra (CI runs it in its own environment)
ray = pytest.importorskip("ray")

from compoworld_dsl.sample import ray_backend  # noqa: E402
from compoworld_dsl.sample.run import Job, load_sampler, merge, run  # noqa: E402
from test_resume_shard import committed  # noqa: E402  (tasks a running writer has committed)

ROOT = Path(__file__).resolve().parents[1]
TOY = str(ROOT / "worlds" / "toy.world")
LEGAL = str(ROOT / "worlds" / "legal_ops.world")


def local(tmp: Path, job: Job, name: str = "local.jsonl") -> bytes:
    """The reference: in this process, one worker (the same bytes as any number of local
    workers, and no fork of a process that runs Ray)."""
    out = tmp / name
    run(Job(**{**_fields(job), "workers": 1, "backend": "local", "address": None}), out)
    return out.read_bytes()


def _fields(job: Job) -> dict:
    import attrs

    return attrs.asdict(job, recurse=False)


def on_ray(job: Job, **changes) -> Job:
    return Job(**{**_fields(job), "workers": 2, "backend": "ray", **changes})


def test_cli_backend_ray_starts_its_own_instance_and_writes_the_local_bytes(tmp_path):
    argv = [sys.executable, "-m", "compoworld_dsl", "sample", TOY, "--hops", "3", "-n", "30", "--seed", "7", "--workers", "2"]
    ref, out = tmp_path / "ref.jsonl", tmp_path / "ray.jsonl"
    assert subprocess.run([*argv, "-o", str(ref)], cwd=ROOT, capture_output=True, timeout=300).returncode == 0
    r = subprocess.run([*argv, "--backend", "ray", "-o", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "ray: 2 workers on 1 host of a local Ray instance" in r.stderr
    assert out.read_bytes() == ref.read_bytes()


def test_address_needs_the_ray_backend():
    r = subprocess.run([sys.executable, "-m", "compoworld_dsl", "sample", TOY, "--address", "auto"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--address needs --backend ray" in r.stderr


@pytest.fixture(scope="module")
def cluster():
    """One local Ray instance with 2 CPUs for the in-process runs (each run keeps it: it did
    not start it)."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING, object_store_memory=256 << 20)
    yield
    ray.shutdown()


@pytest.mark.parametrize(
    "job",
    [
        Job(TOY, 3, 30, 7),
        Job(TOY, 3, 6, 3, capabilities=("conditional-branching",), max_attempts=60),
        Job(LEGAL, 3, 8, 7),  # the rule share passes tasks over: decided in the driver, in index order
    ],
    ids=["toy", "toy-capabilities-max-attempts", "legal_ops-rule-share"],
)
def test_ray_writes_the_bytes_of_local(tmp_path, cluster, job):
    want = local(tmp_path, job)
    report = run(on_ray(job), tmp_path / "ray.jsonl")
    assert (tmp_path / "ray.jsonl").read_bytes() == want
    assert ray_backend._pool is None and ray.is_initialized()  # our actors gone, the caller's Ray kept
    if job.path == LEGAL:
        assert report.rejected["no_rule"] > 0


@pytest.mark.parametrize("how", ["ray.kill", "SIGKILL"])
def test_a_killed_actor_is_replaced_and_its_chunks_sent_again(tmp_path, cluster, how):
    job = Job(LEGAL, 3, 8, 7) if how == "SIGKILL" else Job(TOY, 3, 30, 7)
    want = local(tmp_path, job)
    seen = {}

    def progress(report):
        pool = ray_backend._pool
        if report.attempts == 5 and "pool" not in seen:
            seen["pool"] = pool
            victim = pool.actors[0]
            if how == "ray.kill":
                ray.kill(victim, no_restart=True)
            else:
                os.kill(pool.hosts[victim._actor_id]["pid"], signal.SIGKILL)

    run(on_ray(job), tmp_path / "ray.jsonl", progress)
    assert seen["pool"].replaced >= 1
    assert (tmp_path / "ray.jsonl").read_bytes() == want


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SIGKILL of a process group")
def test_resume_and_shards_on_ray_give_the_local_bytes(tmp_path, cluster):
    job = Job(TOY, 3, 30, 7)
    want = local(tmp_path, job)
    out = tmp_path / "out.jsonl"
    # a local run killed after 10 tasks (a journal is another process's to resume) ...
    argv = [sys.executable, "-m", "compoworld_dsl", "sample", TOY, "--hops", "3", "-n", "30", "--seed", "7", "--workers", "2", "-o", str(out)]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while committed(tmp_path) < 10 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL, "the run ended before it was killed"
    # ... resumed on Ray
    report = run(on_ray(job), out, resume=True)
    assert out.read_bytes() == want and report.emitted == 30

    # shard 1/2 on Ray, 2/2 locally: the merge is the unsharded run
    shards = [tmp_path / "s1.jsonl", tmp_path / "s2.jsonl"]
    run(on_ray(job, count=40, shard=(1, 2)), shards[0])
    run(Job(TOY, 3, 40, 7, shard=(2, 2)), shards[1])
    merge(job, shards, tmp_path / "merged.jsonl", has_rules=bool(load_sampler(TOY).constraints))
    assert (tmp_path / "merged.jsonl").read_bytes() == want
