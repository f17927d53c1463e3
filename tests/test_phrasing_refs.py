"""A record named twice in an instruction is named in full once: later it is "that patient" (the
only one of its kind), or by as much of its description as tells it from the other records the
task names ("the patient with name "Max" and date of birth 2021-12-17", without "among the pets
of ..."), or by a phrase whose inner records are named short ("the patient of that
appointment"). Before this, one vet_clinic instruction in thirteen repeated a description of two
or more fields word for word."""

import collections
import re
from pathlib import Path

import pytest

from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import Rejected

ROOT = Path(__file__).resolve().parents[1]
# "with name "Max" and date of birth 2021-12-17": a description of two or more fields
DESCRIPTION = re.compile(r'with [a-z ]+ "[^"]+"(?:,? (?:and )?[a-z ]+ (?:"[^"]+"|\d[\d:,.-]*))+')


@pytest.fixture(scope="module")
def vet_tasks():
    s = load_sampler(str(ROOT / "worlds" / "vet_clinic.world"))
    out = []
    for i in range(100):
        try:
            out.append(s.task(2, i, 5))
        except Rejected:
            continue
    return out


def test_no_description_is_repeated_word_for_word(vet_tasks):
    repeated = [t["id"] for t in vet_tasks if any(n > 1 for n in collections.Counter(DESCRIPTION.findall(t["instruction"])).values())]
    assert len(vet_tasks) >= 30
    assert len(repeated) <= 1, repeated
