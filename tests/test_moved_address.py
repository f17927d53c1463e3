"""A record's new address made from its own (`bindings._moved`: the same name at another domain)
is asked for as 'the same mailbox at "DOMAIN"', never stated: "change the email address of the
requester of that ticket to "hiro.conti@..."" gave away whom a description by a path leads to
(a ninth-round player met it in a branch's other arm). The agent reads the record's address and
makes the new one; the checker wants exactly that address."""

from __future__ import annotations

import re
from pathlib import Path

from compoworld_dsl.agents import run_oracle
from compoworld_dsl.gateway import Episode
from compoworld_dsl.sample.rejected import Rejected
from compoworld_dsl.sample.worker import load_sampler

ROOT = Path(__file__).resolve().parents[1]


def test_a_moved_address_is_asked_for_by_its_domain():
    support = load_sampler(str(ROOT / "worlds" / "support.world"))
    seen = 0
    for i in range(40):  # seed 31, 5 hops: attempts 5, 19, 26 and 30 move an address today
        try:
            task = support.task(31, i, 5)
        except Rejected:
            continue
        m = re.search(r'the same mailbox at "([^"]+)"', task["instruction"])
        if m is None:
            continue
        moved = [c for c in task["checker"]["checks"] if c["kind"] == "row_updated" and any(str(v).endswith("@" + m.group(1)) for v in c["fields"].values())]
        other = [v for call in ((task.get("branch") or {}).get("other_branch") or {}).get("plan", []) for v in call["arguments"].values() if str(v).endswith("@" + m.group(1))]
        if not moved and other:
            # the move is in the arm the condition does not take: its address goes unstated too
            assert not any(v in task["instruction"] for v in other), (task["id"], other)
            continue
        seen += 1
        assert moved, task["id"]
        for c in moved:
            for v in c["fields"].values():
                if str(v).endswith("@" + m.group(1)):
                    assert v not in task["instruction"], (task["id"], v)  # the address itself is not stated
        ep = Episode(support.world)
        ep.reset(task)
        run_oracle(ep, task)
        assert ep.score()["reward"] == 1, task["id"]
        ep.reset(task)
        ep.report("Done.")
        assert ep.score()["reward"] == 0, task["id"]
    assert seen >= 2, "no draw moved an address: the test shows nothing"
