"""Tools that answer a page at a time (`pages N`, issue 28 item 2: "pages where a tool pages"):
the clause is checked (E411) and kept by the formatter; the gateway adds `page` to the schema and
answers `{items, page, more}`; a sampled task's reference plan says how many pages each paged
call reads, each page counts as a real call, and the oracle that reads those pages passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from compoworld_dsl.agents import run_oracle
from compoworld_dsl.gateway import Episode, Gateway
from compoworld_dsl.runtime.paging import page_count, page_holding, page_of
from compoworld_dsl.sample.rejected import Rejected
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.check.loader import check_source
from compoworld_dsl.syntax.format import format_source
from compoworld_dsl.taskfile import agent_plan

ROOT = Path(__file__).resolve().parent.parent

SERVICE = """service crm_lite "Contacts" {
  record Contact "contact" known by name {
    key id: id
    name: text
  }
  state contacts: table[Contact]

  tool %s
    "List"
    say "list the contacts"
    pages %s
  {
    %s
  }
}
"""


@pytest.mark.parametrize(
    "header,pages,body,message",
    [
        ("get_contact(id: id) -> Contact", "3", "return contacts[id]", "returns `Contact`, not a list"),
        ("list_contacts() -> list[Contact]", "0", "return filter(c in contacts where true)", "a page holds at least one element"),
        ("list_contacts(page: int) -> list[Contact]", "3", "return filter(c in contacts where true)", "cannot also have a parameter `page`"),
    ],
)
def test_a_pages_clause_that_cannot_apply_is_e411(header, pages, body, message):
    errors = [d for d in check_source(SERVICE % (header, pages, body)).diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["E411"] and message in errors[0].message, errors


def test_the_formatter_keeps_pages():
    src = SERVICE % ("list_contacts() -> list[Contact]", "3", "return filter(c in contacts where true by c.name)")
    assert not [d for d in check_source(src).diagnostics if d.severity == "error"]
    out = format_source(src)
    assert "    pages 3\n" in out and format_source(out) == out


def test_page_of_slices_and_says_whether_more_follow():
    items = list(range(10))
    assert page_of(items, 1, 4) == {"items": [0, 1, 2, 3], "page": 1, "more": True}
    assert page_of(items, 3, 4) == {"items": [8, 9], "page": 3, "more": False}
    assert page_of(items, 4, 4) == {"items": [], "page": 4, "more": False}
    assert page_of([], 1, 4) == {"items": [], "page": 1, "more": False}
    assert [page_count(n, 4) for n in (0, 1, 4, 5, 8, 9)] == [1, 1, 1, 2, 2, 3]
    assert [page_holding(i, 4) for i in (0, 3, 4, 9)] == [1, 1, 2, 3]


@pytest.fixture(scope="module")
def office():
    return load_sampler(str(ROOT / "worlds" / "office.world"))


def test_the_gateway_pages_a_paged_tool(office):
    world = office.world
    state = world.initial_state(7)
    gw = Gateway(world, list(world.services), state.snapshot())
    name = next(n for n, q in gw.names.items() if q == "directory.list_people_in_office")
    described = gw.describe_tool(name)["data"]
    assert described["parameters"]["properties"]["page"]["minimum"] == 1 and "paging" in described
    offices = {p["office"] for p in state.tables["directory.people"].values()}
    office_name = max(sorted(offices), key=lambda o: sum(p["office"] == o for p in state.tables["directory.people"].values()))
    whole = world.call(state.snapshot(), "directory.list_people_in_office", {"office": office_name})["data"]
    assert len(whole) > 4, "the seeded office is too small to page"
    pages, page, more = [], 1, True
    while more:
        got = gw.call_tool(name, {"office": office_name, "page": page})
        assert got["success"] and len(got["data"]["items"]) <= 4
        pages += got["data"]["items"]
        more, page = got["data"]["more"], page + 1
    assert pages == whole  # every element once, in the tool's order
    assert gw.call_tool(name, {"office": office_name})["data"]["page"] == 1  # page 1 by default
    for bad in (0, -1, "2", True, 1.5):
        got = gw.call_tool(name, {"office": office_name, "page": bad})
        assert not got["success"] and got["error"]["code"] == 400, bad
    # a tool that does not page refuses `page` as any unknown argument
    other = next(n for n, q in gw.names.items() if q == "directory.find_people")
    assert not gw.call_tool(other, {"full_name": "x", "page": 1})["success"]


def test_a_paged_read_counts_its_pages_and_the_oracle_reads_them(office):
    paged = 0
    for i in range(80):
        try:
            task = office.task(3, i, 8)
        except Rejected:
            continue
        plan = task["reference_plan"]
        assert task["difficulty"]["real_calls"] == sum(c.get("pages", 1) for _, c in agent_plan(task))  # lookups too
        calls = [c for c in plan if "pages" in c]
        if not calls:
            continue
        paged += 1
        episode = Episode(office.world)
        episode.reset(task)
        transcript = run_oracle(episode, task)
        assert episode.score()["reward"] == 1, task["id"]
        real = [m for m in transcript if m["name"] == "call_tool"]
        assert len(real) == task["difficulty"]["real_calls"]
        state = office.world.task_state(task["initial_state"])
        for k, c in enumerate(plan):
            if k and plan[k - 1]["tool"] in office.facts.mutating:
                break  # later reads see the writes before them: checked up to the first write
            if "pages" not in c:
                continue
            whole = office.world.call(state, c["tool"], c["arguments"])["data"]
            every = page_count(len(whole), office.world.tools[c["tool"]].pages)
            how = task["found_by"][k] or ""
            if how.startswith("description"):
                assert c["pages"] <= every  # up to the page that holds it
            else:
                assert c["pages"] == every, (task["id"], k)  # ranked, counted or read whole: all
        if paged >= 4:
            break
    assert paged >= 2, "no sampled task reads a paged tool"
