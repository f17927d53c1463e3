"""Fans (`walkgraph.FANOUT`): in a world whose reads only fan out from a first read (a read-only
listings API: a schedule gives its asset, and both the asset and its contributors are found from
the schedule), no one-thread walk of 3 steps is a chain, and the sampler gave no task at all; 8 of
185 imported specs that gave none were such. A second search lets the last step leave one more
read to the report: "tell me the runtime of the asset of the schedule S and the date of birth of
the contributor C among that asset's contributors". Where a chain exists the walks are chains,
as before: the fans' search runs only when the first finds no walk."""

from __future__ import annotations

import json
from pathlib import Path

from compoworld_dsl.sample.rebuild import rebuild_problems
from compoworld_dsl.sample.run import Job, load_sampler, run

FIXTURE = Path(__file__).parent / "fixtures" / "worlds" / "listings.world"

CREDITS = '''
  record Credit known by role {
    key id: id
    contributor: ContributorId
    role: text
    year: int = 2000
  }
  state credits: table[Credit]
  seed credits: 30 rows {
    contributor: ref contributors
    role: pick(["director", "writer", "presenter", "producer", "editor", "composer"])
    year: 1990..2024
  }

  tool contributor_credits(contributor: ContributorId) -> list[Credit]
    "List a contributor's credits"
    say "list the credits of contributor {contributor}"
    gives "the credits of {contributor}"
  {
    require contributor in contributors else not_found "no contributor {contributor}"
    return filter(c in credits where c.contributor == contributor)
  }
}
'''


def _tasks(path: Path, out: Path, n: int) -> list[dict]:
    run(Job(str(path), 3, n, 1), out)
    return [json.loads(line) for line in out.read_text().splitlines()]


def _tell(task: dict) -> int:
    """How many reads the task's plan leaves to its report (none uses their result)."""
    bindings = task["bindings"]
    used = {int(v.split()[1].split(".")[0]) - 1 for args in bindings for v in args.values() if isinstance(v, str) and v.startswith("step ")}
    return sum(1 for j in range(len(bindings)) if j not in used)


def test_a_world_whose_reads_only_fan_out_gives_fans_that_verify(tmp_path):
    tasks = _tasks(FIXTURE, tmp_path / "fans.jsonl", 4)
    assert len(tasks) == 4
    sampler = load_sampler(str(FIXTURE))
    for task in tasks:
        tools = [s["tool"] for s in task["reference_plan"]]
        assert tools[0] == "listings.list_schedules", tools
        assert sorted(tools[1:]) == ["listings.asset_contributors", "listings.get_asset"], tools
        # both later reads take the asset the schedule gave, and both are reported
        assert task["bindings"][1] == task["bindings"][2] == {"asset": "step 1.asset"}, task["bindings"]
        assert _tell(task) == 2
        answers = [c for c in task["checker"]["checks"] if c["kind"] == "answer"]
        assert len(answers) >= 2, task["checker"]
        assert rebuild_problems(sampler, task) == []


def test_where_a_chain_exists_the_walks_are_chains(tmp_path):
    text = FIXTURE.read_text().rstrip()
    assert text.endswith("}")
    world = tmp_path / "credits.world"
    world.write_text(text[:-1] + CREDITS)
    tasks = _tasks(world, tmp_path / "chains.jsonl", 6)
    assert len(tasks) == 6
    for task in tasks:
        assert _tell(task) == 1, (task["instruction"], task["bindings"])
