"""`--backend ray --address` on a cluster of several Ray nodes: the driver (`worldc sample`, its
own process) joins a running cluster, its actors run on nodes other than the head, and the
bytes are those of `--backend local`, also when a node is lost mid-run.

The nodes are raylets of one machine (`ray.cluster_utils.Cluster`, Ray's own multi-node test
harness): each has its own object store, scheduler and worker processes, and the head has no
CPU, so every actor lives on a worker node. What one machine cannot show is a second host's
network and install; docs/sampling.md says how a cluster's nodes get the package."""

import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration  # needs the `integration` extra (CI runs it in its own environment)
ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")

from test_resume_shard import committed  # noqa: E402  (tasks a running writer has committed)

ROOT = Path(__file__).resolve().parents[1]
TOY = str(ROOT / "worlds" / "toy.world")


def _sample(*args: str) -> list[str]:
    return [sys.executable, "-m", "compoworld_dsl", "sample", TOY, *args]


@pytest.fixture
def cluster():
    """A head without CPUs and two worker nodes of 1 CPU each."""
    c = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "include_dashboard": False})
    try:
        nodes = [c.add_node(num_cpus=1) for _ in range(2)]
        c.wait_for_nodes()
        yield c, nodes
    finally:
        c.shutdown()


def test_a_driver_joins_a_cluster_and_its_actors_run_on_other_nodes(tmp_path, cluster):
    c, _ = cluster
    argv = ["--hops", "3", "-n", "30", "--seed", "7", "--workers", "2", "--attempt-timeout", "0"]
    ref, out = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    assert subprocess.run(_sample(*argv, "-o", str(ref)), cwd=ROOT, capture_output=True, timeout=300).returncode == 0
    r = subprocess.run(_sample(*argv, "--backend", "ray", "--address", c.address, "-o", str(out)), cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert f"ray: 2 workers on 2 nodes (1 host) of the Ray cluster at {c.address}" in r.stderr, r.stderr
    assert out.read_bytes() == ref.read_bytes()


def test_a_node_lost_mid_run_changes_no_byte(tmp_path, cluster):
    """Both actors start on the two worker nodes (the only CPUs then); the first node is removed
    while the run goes on, a third joins, and the lost actor's chunks go to a new actor there.
    (toy at 8 hops: ~2,000 attempts, some seconds of work, so the run is still going.)"""
    c, nodes = cluster
    # (no time limit per attempt: on a busy machine an 8-hop attempt ran past the default 10 s in
    # one run and not in the other, and the bytes differed; what is compared is the work, stop 68)
    argv = ["--hops", "8", "-n", "100", "--seed", "0", "--workers", "2", "--threads", "8", "--attempt-timeout", "0"]  # toy has no chain of 8
    ref, out = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    assert subprocess.run(_sample(*argv, "-o", str(ref)), cwd=ROOT, capture_output=True, timeout=300).returncode == 0
    proc = subprocess.Popen(_sample(*argv, "--backend", "ray", "--address", c.address, "-o", str(out)), cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while committed(tmp_path) < 3:
            assert proc.poll() is None and time.monotonic() < deadline, "the run ended before a node could be lost"
            time.sleep(0.02)
        c.remove_node(nodes[0])
        assert proc.poll() is None, "the run ended before the node was lost"
        c.add_node(num_cpus=1)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "ray: a worker was lost" in err, err  # the removed node's actor: its chunks went elsewhere
    assert out.read_bytes() == ref.read_bytes()
