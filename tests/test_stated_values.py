"""An instruction says every text a step takes from it (`reports.stated_values`, D62): a task
whose words leave one out is turned down as `unstated`, since no agent could make the call."""

from __future__ import annotations

import re

import pytest

import compoworld_dsl.sample.sampler as S
from compoworld_dsl.sample.rejected import Rejected
from compoworld_dsl.sample.worker import load_sampler


def texts_from_instruction(task: dict) -> list[str]:
    return [v for st, b in zip(task["reference_plan"], task["bindings"]) for n, v in st["arguments"].items() if b.get(n) == "instruction" and isinstance(v, str) and v]


def test_an_instruction_that_leaves_out_a_stated_text_is_turned_down(monkeypatch):
    s = load_sampler("worlds/office.world")
    task = next(t for i in range(20) if (t := _task(s, i)) is not None and texts_from_instruction(t))
    index = int(task["id"].rsplit("-", 1)[1])
    for v in texts_from_instruction(task):
        assert v.casefold() in task["instruction"].casefold()  # said as it is taken

    class Mute(S.Phraser):
        def instruction(self, *a, **kw):
            # the same words, with every quoted value gone: `Book "Le Meurice" ...` → `Book ...`
            return re.sub(r'"[^"]*"', "", super().instruction(*a, **kw))

    monkeypatch.setattr(S, "Phraser", Mute)
    with pytest.raises(Rejected) as e:
        s.task(5, index, 3)
    assert e.value.reason == "unstated" and "does not say" in e.value.detail


def _task(s, i: int) -> dict | None:
    try:
        return s.task(5, i, 3)
    except Rejected:
        return None
