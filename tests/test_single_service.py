"""A walk of three steps or more ends in another service where the world lets it (tasks that cross
services), but a world whose services share nothing (an imported API of one resource) still gives
such tasks, in its one service (issue 30: 59 of 92 small corpus specs gave no task for this)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from compoworld_dsl.sample.run import load_sampler
from test_deep_walks import _sampled  # the tasks a run of attempts gives

ROOT = Path(__file__).resolve().parents[1]

WORLD = textwrap.dedent('''
    type NoteId = id
    enum NoteState { active, pinned, archived }

    service notes "Notes" {
      record Note known by title {
        key id: NoteId
        title: text
        body: text
        state: NoteState = active
      }
      record Share {
        key id: id
        note: NoteId
        person: text
      }
      state notes: table[Note]
      state shares: table[Share]

      seed notes: 6..8 rows {
        title: pick(["Budget review", "Trip plan", "Reading list", "Gift ideas", "Recipes", "Garden", "Car service", "Tax papers"])
        body: pick(["Draft", "Done soon", "To check"])
      }

      tool list_notes(state: NoteState) -> list[Note]
        "Notes in a state"
        say "list the {state} notes"
        gives "the {state} notes"
      {
        return filter(n in notes where n.state == state)
      }

      tool pin_note(note: NoteId) -> Note
        "Pin a note"
        say "pin note {note}"
      {
        require note in notes else not_found "no note {note}"
        require notes[note].state == active else conflict "note {note} is not active"
        update notes[note] { state: pinned }
        return notes[note]
      }

      tool share_note(note: NoteId, person: text) -> Note
        "Share a note with someone"
        say "share note {note} with {person}"
      {
        require note in notes else not_found "no note {note}"
        insert shares { note: note, person: person }
        return notes[note]
      }

      tool rename_note(note: NoteId, title: text) -> Note
        "Rename a note"
        say "rename note {note} to {title}"
      {
        require note in notes else not_found "no note {note}"
        update notes[note] { title: title }
        return notes[note]
      }
    }

    world one "One service" {
    }
''')


def test_a_world_of_one_service_gives_three_step_tasks(tmp_path):
    path = tmp_path / "one.world"
    path.write_text(WORLD)
    sampler = load_sampler(str(path))
    assert not sampler.facts.walks.crosses
    tasks = _sampled(sampler, 1, 3, 20)
    assert tasks, "no 3-step task in a world of one service"
    assert all(len(t["reference_plan"]) == 3 and t["services"] == ["notes"] for t in tasks)


def test_worlds_that_can_cross_still_end_elsewhere():
    sampler = load_sampler(str(ROOT / "worlds" / "toy.world"))
    assert sampler.facts.walks.crosses
    tasks = _sampled(sampler, 1, 3, 20)
    assert tasks and all(len(t["services"]) >= 2 for t in tasks)
