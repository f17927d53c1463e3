"""Shared values (D51): in an API whose tools share values but no keys (a read-only property API:
a property's zip code is what the schools of an area are looked up by, a school's district what
the district's office is), no walk of keys exists, and such specs gave no task. A last search,
only where no walk of keys is found, lets a read with no key come on the thread by a value an
earlier output gave, and a short text flow into a parameter of its own name. Bundled worlds,
whose walks follow keys, sample as before (their samples are checked byte for byte elsewhere:
`test_fans.py`, `test_sample.py`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from compoworld_dsl.sample.rebuild import rebuild_problems
from compoworld_dsl.sample.run import Job, load_sampler, run
from compoworld_dsl.sample.steps import Step
from compoworld_dsl.sample.walkgraph import _short

FIXTURE = Path(__file__).parent / "fixtures" / "worlds" / "homes.world"


def _tasks(path: Path, out: Path, n: int, attempts: int = 200) -> list[dict]:
    run(Job(str(path), 3, n, 1, max_attempts=attempts), out)
    return [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []


def test_a_world_of_shared_values_gives_chains_through_them_that_verify(tmp_path):
    tasks = _tasks(FIXTURE, tmp_path / "homes.jsonl", 2)
    assert len(tasks) == 2
    sampler = load_sampler(str(FIXTURE))
    for task in tasks:
        tools = [s["tool"] for s in task["reference_plan"]]
        assert tools == ["homes.list_properties", "homes.schools_near", "homes.district_office"], tools
        # each later read takes the value the step before gave, by its own name
        assert task["bindings"][1] == {"zip_code": "step 1.zip_code"}
        assert task["bindings"][2] == {"district": "step 2.district"}
        plan = task["reference_plan"]
        # the values carried are not stated: the agent must read them
        assert plan[1]["arguments"]["zip_code"] not in task["instruction"]
        assert plan[2]["arguments"]["district"] not in task["instruction"]
        assert "zip code of the property" in task["instruction"], task["instruction"]
        assert rebuild_problems(sampler, task) == []


def test_a_value_every_row_shares_carries_nothing(tmp_path):
    """One zip code for every property: an agent could give it without the read, so it does not
    flow, and the world gives no task."""
    text = FIXTURE.read_text()
    one = text.replace('zip_code: pick(["LS1 4AP", "YO1 7HH", "BA1 1LZ", "DE1 2FS", "LS6 2QB", "YO10 5DD"])\n    bedrooms', 'zip_code: "LS1 4AP"\n    bedrooms', 1)
    assert one != text
    world = tmp_path / "one_zip.world"
    world.write_text(one)
    assert _tasks(world, tmp_path / "one.jsonl", 1, attempts=40) == []


def _fed(path: Path, tool: str, value: str = "LS1 4AP", field: str = "zip_code") -> list:
    """What `WalkGraph.fed` offers `tool` after a first step that listed properties and gave
    `value` in `field`: in the search for shared values, and in the searches of keys."""
    facts = load_sampler(str(path)).facts
    tools = {t.qualified: t for t in facts.tools}
    steps = [Step(tools["homes.list_properties"], {"city": ("user", None)})]
    hs = [("text", 0, field, value)]
    return [facts.walks.fed(tools[tool], hs, steps, shared) for shared in (True, False)]


def test_texts_feed_only_in_the_search_for_shared_values():
    shared, keys = _fed(FIXTURE, "homes.schools_near")
    assert shared == [("zip_code", [(0, "zip_code", "LS1 4AP")])]
    assert keys == []
    # a long text, or a field of another name, feeds nothing
    assert _fed(FIXTURE, "homes.schools_near", "Flat 2, the old mill by the river")[0] == []
    assert _fed(FIXTURE, "homes.schools_near", field="city")[0] == []


def test_a_read_is_fed_only_what_its_phrases_say(tmp_path):
    """A read whose phrases do not name its parameter would be fed a value the instruction never
    states ("tell me the clientid of what you find when you verify OTP", fed an HMAC): not fed."""
    text = FIXTURE.read_text()
    mute = text.replace('say "list the schools in zip code {zip_code}"\n    gives "the schools in zip code {zip_code}"', 'say "list the schools"\n    gives "the schools"', 1)
    assert mute != text
    world = tmp_path / "mute.world"
    world.write_text(mute)
    assert _fed(world, "homes.schools_near") == [[], []]


def test_where_tools_share_keys_no_text_flows(tmp_path):
    """The bundled fans world has chains of keys (and fans): its walks take no shared text."""
    listings = Path(__file__).parent / "fixtures" / "worlds" / "listings.world"
    for task in _tasks(listings, tmp_path / "l.jsonl", 3):
        for b in task["bindings"]:
            for name, src in b.items():
                assert src == "instruction" or name in ("asset", "contributor", "schedule"), task["bindings"]


def test_only_short_texts_flow():
    assert _short("LS1 4AP") and _short("arn:aws:iam::123456789012:role/x") and _short("Amara Kowalski")
    assert not _short("") and not _short("Blocked until the contract is signed.") and not _short("[]") and not _short('{"a": 1}')
    assert not _short("x" * 65) and not _short(3)


ROOMS = Path(__file__).parent / "fixtures" / "worlds" / "rooms.world"


def test_a_new_record_is_not_named_as_the_record_it_copies(tmp_path):
    """A new room takes the logging configuration of a room found by its name, which is then
    deleted: were the new room named as the found one ("add a room "Atlas room" with the logging
    of the room "Atlas room", then delete that room", met in an imported chat API), "that room"
    could be either. Five rooms of six names, found by name and handler: without the rule, 11 of
    60 tasks (seeds 1 and 2) named the new room as the found one."""
    tasks = _tasks(ROOMS, tmp_path / "rooms.jsonl", 12)
    assert len(tasks) == 12
    sampler = load_sampler(str(ROOMS))
    for task in tasks:
        plan = task["reference_plan"]
        assert [s["tool"] for s in plan] == ["chat.list_rooms", "chat.create_room", "chat.delete_room"], plan
        assert task["bindings"][1]["logging"] == "step 1.logging"
        found = re.findall(r'the room "([^"]+)"', task["instruction"])
        assert found and plan[1]["arguments"]["name"] not in found, task["instruction"]
        assert rebuild_problems(sampler, task) == []


def test_after_a_create_that_answers_the_record_that_names_which(tmp_path):
    """A create that answers the new record itself (imported APIs' `-> Room`, not `-> RoomId`)
    makes a room of the kind the walk found: "add a room "A" with the logging of the room "B"
    ..., then delete that room" read as the new one; now "that room "B"" (the site verification
    webs and payment links of imported APIs read so)."""
    text = ROOMS.read_text()
    answers = text.replace("max_length: int) -> RoomId", "max_length: int) -> Room", 1).replace("    return r.id\n", "    return r\n", 1)
    assert answers != text
    world = tmp_path / "rooms_answered.world"
    world.write_text(answers)
    tasks = _tasks(world, tmp_path / "answered.jsonl", 6)
    assert len(tasks) == 6
    for task in tasks:
        after = task["instruction"].split("Add a room ", 1)[1]
        assert not re.search(r"that room(?! \")", after), task["instruction"]
