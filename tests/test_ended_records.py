"""A task writes nothing more on a record it ended (issue 28): after a step closes a matter, no
later step changes that matter or adds a row under it (a note on the matter just closed). A
person asks for the record as it should end up.

A small world where the walk could do both: find a matter, close it, add a note to it."""

from __future__ import annotations

import textwrap

from compoworld_dsl.sample.rejected import Rejected
from compoworld_dsl.sample.run import load_sampler

WORLD = textwrap.dedent('''
    type MatterId = id
    type NoteId = id
    enum MatterStatus { open, closed }

    service matters "Matters" {
      record Matter known by title {
        key id: MatterId
        title: text
        client: text
        status: MatterStatus = open
      }
      state matters: table[Matter]

      seed matters: 6..8 rows {
        title: pick(["Lease dispute", "Trademark filing", "Merger review", "Patent appeal", "Estate plan", "Audit response", "Tax appeal", "Share sale"])
        client: pick(["Acme Ltd", "Globex", "Initech"])
        status: open
      }

      tool find_matters(client: text) -> list[Matter]
        "Matters of a client"
        say "find the matters of {client}"
        gives "the matters of {client}"
      {
        return filter(m in matters where m.client == client)
      }

      tool close_matter(matter: MatterId)
        "Close a matter"
        say "close matter {matter}"
      {
        require matter in matters else not_found "no matter {matter}"
        require matters[matter].status == open else conflict "matter {matter} is closed"
        update matters[matter] { status: closed }
      }

    }

    service docket "Notes on matters" {
      record Note known by text {
        key id: NoteId
        matter: MatterId
        text: text
      }
      state notes: table[Note]

      tool add_note(matter: MatterId, text: text) -> NoteId
        "Add a note to a matter"
        say "add the note {text} to matter {matter}"
      {
        let n = insert notes { matter: matter, text: text }
        return n.id
      }
    }

    world ended "Matters" {
    }
''')


def test_no_row_is_added_under_a_record_an_earlier_step_ended(tmp_path):
    path = tmp_path / "ended.world"
    path.write_text(WORLD)
    sampler = load_sampler(str(path))
    tasks = []
    for i in range(60):
        try:
            tasks.append(sampler.task(3, i, 3))
        except Rejected:
            pass
    assert len(tasks) >= 10, len(tasks)
    tools = [[c["tool"].split(".")[-1] for c in t["reference_plan"]] for t in tasks]
    assert any("close_matter" in ts for ts in tools) and any("add_note" in ts for ts in tools), tools
    for t, ts in zip(tasks, tools):
        plan = t["reference_plan"]
        closed = set()
        for call, name in zip(plan, ts):
            matter = call["arguments"].get("matter")
            assert matter not in closed, f"{t['id']}: {name} on matter {matter} after the task closed it: {ts}"
            if name == "close_matter":
                closed.add(matter)
