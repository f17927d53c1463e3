"""Walks draw their keyless candidates by pool (`WalkGraph._keyless_candidates`): the best keys of a
pool of equal-weight tools by order statistics, on tools sampled without replacement. That must
give each tool the chance a draw of one number per tool gives it: first with probability
w / Σw (the weighted random permutation's first element). And the early check that a reported
value is stated must change no task (decision D25)."""

import collections
import json
import random
import sys
from pathlib import Path

import pytest

from compoworld_dsl.sample import reports as R
from compoworld_dsl.sample import sampler as SM
from compoworld_dsl.sample.run import Job, load_sampler, run
from compoworld_dsl.sample.walkgraph import NEW_THREAD_POOL

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def office():
    return load_sampler(str(ROOT / "worlds" / "office.world"))


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    """20 services of 5 entries each: more other-service entries than `NEW_THREAD_POOL`."""
    sys.path.insert(0, str(ROOT / "bench"))
    from synth import synthetic_world

    path = tmp_path_factory.mktemp("synth") / "synthetic_20.world"
    path.write_text(synthetic_world(20, "synthetic_20"), encoding="utf-8")
    return load_sampler(str(path))


def _draws(walker, k, steps, trials):
    """(counts of the first tool, counts of the first two's pools as a pair) over seeded draws."""
    first, pairs = collections.Counter(), collections.Counter()
    for i in range(trials):
        got = sorted(walker._keyless_candidates(random.Random(f"pools:{i}"), k, 5, steps, {}, {s.tool.qualified for s in steps}), key=lambda x: (x[0], x[1]))
        first[got[0][1]] += 1
        pairs[(got[0][2].service, got[1][2].service)] += 1
    return first, pairs


def _first_counts(walker, k, steps, trials):
    return _draws(walker, k, steps, trials)[0]


def _within(counts, weights, trials):
    """Each tool's count within 4.5 standard deviations of trials · w / Σw (seeded: no flakes)."""
    total = sum(weights.values())
    for name, w in weights.items():
        p = w / total
        mean, sd = trials * p, (trials * p * (1 - p)) ** 0.5
        assert abs(counts[name] - mean) <= 4.5 * sd, (name, counts[name], mean)
    assert set(counts) <= set(weights)


def test_step_one_draws_each_keyless_tool_as_one_number_each_would(office):
    walker = office.walker
    weights = {t.qualified: 1.0 for t in walker.entries} | {t.qualified: 2.0 for t in walker._keyless_writes}
    assert len(weights) == len(walker.entries) + len(walker._keyless_writes) > 40
    trials = 6000
    _within(_first_counts(walker, 0, [], trials), weights, trials)


@pytest.mark.parametrize("world", ["office", "synthetic"])
def test_later_steps_weigh_other_services_entries_as_one_pool(request, world):
    """After step 1, entries of the last step's service weigh 0.5 each and the others 1.0 each,
    together at most `NEW_THREAD_POOL`; keyless writes never continue a walk. The second pick
    follows the permutation too: both of the first two from the last step's service with
    probability (n·w/Σ)·((n−1)·w/(Σ−w))."""
    walker = request.getfixturevalue(world).walker
    first = walker.entries[0]
    steps = [SM.Step(first, {})]
    mine = [t for t in walker.entries if t.service == first.service and t is not first]
    others = [t for t in walker.entries if t.service != first.service]
    scale = min(1.0, NEW_THREAD_POOL / len(others))
    assert (scale < 1.0) == (world == "synthetic")
    weights = {t.qualified: 0.5 for t in mine} | {t.qualified: 1.0 * scale for t in others}
    trials = 6000
    counts, pairs = _draws(walker, 1, steps, trials)
    _within(counts, weights, trials)
    total, w, n = sum(weights.values()), 0.5, len(mine)
    p = (n * w / total) * ((n - 1) * w / (total - w))
    both = pairs[(first.service, first.service)]
    assert abs(both - trials * p) <= 4.5 * (trials * p * (1 - p)) ** 0.5, (both, trials * p)
