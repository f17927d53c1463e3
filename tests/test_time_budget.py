"""A time budget that covers the tools' own Python: sampling's `--attempt-timeout` and the gateway's
per-call limit (`worldc serve --call-timeout`) stop a tool that loops for days, and the call changes nothing.

The runaway tools below nest four loops over 1,200 seeded rows (2e12 steps, about 0.1 ms for each
of the 1.7e9 passes of the innermost loop: two days of CPU), so "it was stopped by the budget"
cannot flake on a busy machine; normal calls get generous budgets. Where it
can, a test spends a budget counted in checks, not seconds (`Counted`): the same work on every run.
Each test also runs under an alarm (`ALARM_S`) that fails it, instead of hanging, if nothing stops
the runaway. With WORLDC_LONG=1 the shape probe tries many more budgets per shape."""

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

from compoworld_dsl.gateway import Episode, Gateway
from compoworld_dsl.runtime.state import diff
from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample.sampler import Rejected
from compoworld_dsl.smt.encode import Deadline, OutOfTime

ROOT = Path(__file__).resolve().parent.parent
LONG = os.environ.get("WORLDC_LONG") == "1"
ALARM_S = 600  # a hang guard only (as test_robustness.py's), never a speed check: an unstopped runaway takes days
ROWS = 1200

# Every tool here but `count_entries` and `fine` runs for days without a budget; each writes a
# note first, so a call the budget stops would leave that note behind if it committed.
WORLD = f"""
service ledger "A ledger of entries" {{
  record Entry {{ key id: id  n: int }}
  record Note {{ key id: id  text: text }}
  state entries: table[Entry]
  state notes: table[Note]
  seed entries: {ROWS} rows {{ n: 1..1000000 }}

  tool audit(total: int) -> int
    "Check that no four entries add up to a total"
    say "audit the entries against {{total}}"
  {{
    let note = insert notes {{ text: "audit started" }}
    require not exists(a in entries where exists(b in entries where exists(c in entries where exists(d in entries where a.n + b.n + c.n + d.n == total - 5000000)))) else conflict "four entries add up to {{total}}"
    return total
  }}

  tool quads(xs: list[int], total: int) -> bool
    "Do four of the numbers add up to a total?"
    say "look for four numbers that add up to {{total}}"
  {{
    let note = insert notes {{ text: "quads" }}
    return exists(a in xs where exists(b in xs where exists(c in xs where exists(d in xs where a + b + c + d == total))))
  }}

  tool tally() -> int
    "Count the entries that are the sum of three others, less a constant"
    say "tally the entries"
  {{
    let note = insert notes {{ text: "tally" }}
    return count(a in entries where count(b in entries where exists(c in entries where exists(d in entries where b.n + c.n + d.n == a.n + 5000000))) > 0)
  }}

  tool spread() -> int
    "Sum, over the entries, how many triples reach past them"
    say "measure the spread"
  {{
    let note = insert notes {{ text: "spread" }}
    return sum(count(b in entries where exists(c in entries where exists(d in entries where b.n + c.n + d.n == a.n + 5000000))) for a in entries)
  }}

  tool ranked() -> list[Entry]
    "The entries that are the sum of three others, less a constant, smallest first"
    say "rank the entries"
  {{
    let note = insert notes {{ text: "ranked" }}
    return filter(a in entries where exists(b in entries where exists(c in entries where exists(d in entries where b.n + c.n + d.n == a.n + 5000000))) by a.n)
  }}

  tool checked() -> bool
    "Is every entry short of the sum of any three, less a constant?"
    say "check the entries"
  {{
    let note = insert notes {{ text: "checked" }}
    return forall(a in entries: forall(b in entries: forall(c in entries: forall(d in entries: b.n + c.n + d.n != a.n + 5000000))))
  }}

  tool bump() -> int
    "Raise every entry that is the sum of three others, less a constant"
    say "bump the entries"
  {{
    let note = insert notes {{ text: "bump" }}
    update e in entries where exists(b in entries where exists(c in entries where exists(d in entries where b.n + c.n + d.n == e.n + 5000000))) {{ n: e.n + 1 }}
    return 1
  }}

  tool purge() -> int
    "Delete every entry that is the sum of three others, less a constant"
    say "purge the entries"
  {{
    let note = insert notes {{ text: "purge" }}
    delete e in entries where exists(b in entries where exists(c in entries where exists(d in entries where b.n + c.n + d.n == e.n + 5000000)))
    return 1
  }}

  tool count_entries() -> int
    "How many entries there are"
    say "count the entries"
  {{
    return count(e in entries)
  }}

  tool fine() -> int
    "Count the pairs of a few entries: nested, but short"
    say "count a few pairs"
  {{
    let note = insert notes {{ text: "fine" }}
    return count(a in entries where a.n < 5000 and exists(b in entries where b.n < a.n))
  }}
}}

world slow "A ledger whose audit takes days" {{ }}
"""

RUNAWAY = {
    "audit": {"total": 1},
    "quads": {"xs": list(range(1, ROWS + 1)), "total": -1},
    "tally": {},
    "spread": {},
    "ranked": {},
    "checked": {},
    "bump": {},
    "purge": {},
}

TASK = {"id": "ledger-0", "initial_state": {"seed": 0}, "services": ["ledger"], "instruction": "Audit the ledger against 1.", "checker": {"checks": []}}


class Runaway(BaseException):
    """Raised by the alarm: nothing stopped the tool (a BaseException, so that no handler of the
    runtime turns it into an envelope)."""


@pytest.fixture(autouse=True)
def alarm():
    def ring(signum, frame):
        raise Runaway(f"still running after {ALARM_S} s: the budget did not stop the tool")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(ALARM_S)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture(scope="module")
def world_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("slow") / "slow.world"
    path.write_text(WORLD, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def sampler(world_path):
    return load_sampler(str(world_path))


class Counted(Deadline):
    """A budget of `checks` checks instead of seconds. `spent_in` holds the file names of the
    stack where it ran out, so a test can tell that the tool's generated code stopped there."""

    def __init__(self, checks: int):
        super().__init__()
        self.left = checks
        self.spent_in: list[str] | None = None

    def check(self) -> None:
        if self.left <= 0:
            if self.spent_in is None:
                self.spent_in = [f.filename for f in traceback.extract_stack()]
            raise OutOfTime()
        self.left -= 1

    @property
    def expired(self) -> bool:
        return self.left <= 0


def in_generated_code(files: list[str] | None) -> bool:
    return files is not None and any(f.startswith("<worldc:") for f in files)


# ─────────────────────────── the runtime ───────────────────────────


def test_every_nested_loop_shape_is_stopped_by_a_counted_budget(sampler):
    """Quantifiers, aggregates, filters, `forall`, bulk update and delete, over tables and over a
    list argument: each checks the budget once per pass of an inner loop, so a budget of N checks
    stops it after at most N passes (N * 1,200 rows, of 2e12), and the state stays as it was."""
    world = sampler.world
    budgets = [1, 7, 50, 400] + ([2, 3, 13, 99, 1000, 2500] if LONG else [])
    for name, arguments in RUNAWAY.items():
        spec = world.resolve(name)
        args = world.convert_arguments(spec, arguments)
        for checks in budgets:
            state = world.initial_state(0)
            before = state.snapshot()
            counted = Counted(checks)
            with pytest.raises(OutOfTime):
                world.execute(state, spec, args, deadline=counted)
            assert in_generated_code(counted.spent_in), (name, checks)
            assert diff(before, state).empty and state.counters == before.counters, (name, checks)


def test_a_generous_budget_changes_no_result(sampler):
    world = sampler.world
    state = world.initial_state(0)
    for tool in ("fine", "count_entries"):
        unbounded = world.call(state.snapshot(), tool, {})
        assert unbounded["success"], unbounded
        assert world.call(state.snapshot(), tool, {}, deadline=Counted(10**9)) == unbounded
        assert world.call(state.snapshot(), tool, {}, deadline=Deadline(3600)) == unbounded
    assert world.call(state, "count_entries", {})["data"] == ROWS


# ─────────────────────────── sampling ───────────────────────────


def test_a_runaway_tool_ends_its_sampling_attempt_as_timeout(sampler):
    """The attempt's deadline reaches the tool: the attempt is rejected as `timeout`, and the
    budget ran out inside the tool's generated code (counted: 300 checks, not seconds)."""
    counted = Counted(300)
    with pytest.raises(Rejected) as got:
        sampler.task(0, 0, 1, counted)
    assert got.value.reason == "timeout", got.value
    assert in_generated_code(counted.spent_in)


def test_worldc_sample_attempt_timeout_covers_tool_evaluation(world_path, tmp_path):
    """End to end: `--attempt-timeout 1` rejects both attempts as `timeout` and the command
    ends; without the budget in the tool, each attempt runs for days."""
    out = tmp_path / "tasks.jsonl"
    cmd = [sys.executable, "-m", "compoworld_dsl", "sample", str(world_path), "--hops", "1", "-n", "1", "--max-attempts", "2", "--attempt-timeout", "1", "--workers", "1", "--format", "json", "-o", str(out)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=ALARM_S - 10, cwd=ROOT)
    except subprocess.TimeoutExpired:
        pytest.fail("worldc sample --attempt-timeout 1 was still running: the budget did not stop the tool")
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    assert report["attempts"] == 2 and report["rejected"] == {"timeout": 2}, report


# ─────────────────────────── the gateway ───────────────────────────


def test_the_gateway_fails_a_call_over_its_time_limit_with_408_and_no_change(sampler):
    world = sampler.world
    gw = Gateway(world, ["ledger"], world.initial_state(0), call_timeout=1)
    shapes = RUNAWAY if LONG else {n: RUNAWAY[n] for n in ("audit", "quads", "bump")}  # (each takes the 1 s)
    for name, arguments in shapes.items():
        before = gw.state.snapshot()
        got = gw.call_tool(name, arguments)
        assert got == {"success": False, "error": {"code": 408, "message": "the call ran past its time limit of 1 s; nothing changed"}}, (name, got)
        assert diff(before, gw.state).empty and gw.state.counters == before.counters
    assert gw.calls == [] and gw.touched == set()
    assert gw.call_tool("fine", {})["success"] and gw.call_tool("count_entries", {})["data"] == ROWS


def test_episodes_take_the_limit_and_default_to_ten_seconds(sampler):
    from compoworld_dsl.gateway import DEFAULT_CALL_TIMEOUT

    assert DEFAULT_CALL_TIMEOUT == 10
    ep = Episode(sampler.world)
    ep.reset(TASK)
    assert ep.gateway.call_timeout == DEFAULT_CALL_TIMEOUT
    ep = Episode(sampler.world, call_timeout=1)
    ep.reset(TASK)
    before = ep.gateway.state.snapshot()
    got = ep.call("call_tool", {"tool_name": "audit", "arguments": {"total": 1}})
    assert got["error"]["code"] == 408 and diff(before, ep.gateway.state).empty
    assert Gateway(sampler.world, ["ledger"], sampler.world.initial_state(0), call_timeout=None).call_timeout is None


# ─────────────────────────── MCP ───────────────────────────


def _mcp():
    return pytest.importorskip("mcp")


def payload(result) -> dict:
    return json.loads(result.content[0].text)


def test_mcp_tool_calls_get_the_time_limit(sampler):
    _mcp()
    from mcp import Client

    from compoworld_dsl.mcp_server import build_server

    server = build_server(sampler.world, [TASK], call_timeout=1)

    async def main():
        async with Client(server, mode="legacy") as client:
            slow = payload(await client.call_tool("call_tool", {"tool_name": "audit", "arguments": {"total": 1}}))
            notes = [ep.gateway.state.tables["ledger.notes"] for ep in server.episodes.live.values()]
            fine = payload(await client.call_tool("call_tool", {"tool_name": "count_entries", "arguments": {}}))
        return slow, notes, fine

    slow, notes, fine = asyncio.run(main())
    assert slow["success"] is False and slow["error"]["code"] == 408, slow
    assert notes == [{}]  # the note the call inserted first was not committed
    assert fine == {"success": True, "data": ROWS}


@contextlib.asynccontextmanager
async def served(server):
    from compoworld_dsl.mcp_server import http_server

    web = http_server(server, "127.0.0.1", 0)
    web.config.log_level = "warning"
    task = asyncio.create_task(web.serve())
    for _ in range(400):
        if web.started or task.done():
            break
        await asyncio.sleep(0.05)
    assert web.started, "the MCP server did not start"
    try:
        yield web.servers[0].sockets[0].getsockname()[1]
    finally:
        web.should_exit = True
        await asyncio.wait_for(task, 30)


def test_a_slow_call_does_not_hold_up_a_new_clients_initialize(sampler):
    """Tool calls run on the SDK's worker threads, not the event loop: while one session's call
    runs away (until its 15 s limit), a new client initializes and plays. Then the slow call ends
    with the 408 envelope."""
    _mcp()
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    from compoworld_dsl.mcp_server import build_server

    server = build_server(sampler.world, [TASK], call_timeout=15)

    async def session(stack, url):
        streams = await stack.enter_async_context(streamable_http_client(url))
        s = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
        await s.initialize()
        return s

    async def main():
        async with served(server) as port:
            url = f"http://127.0.0.1:{port}/mcp"
            async with contextlib.AsyncExitStack() as a_stack:
                a = await session(a_stack, url)
                slow = asyncio.create_task(a.call_tool("call_tool", {"tool_name": "audit", "arguments": {"total": 1}}))
                for _ in range(200):  # A's episode starts as its call reaches the worker thread
                    if len(server.episodes) or slow.done():
                        break
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.5)
                async with contextlib.AsyncExitStack() as b_stack:
                    b = await session(b_stack, url)
                    listed = payload(await b.call_tool("list_services", {}))
                    overtaken = not slow.done()
                return listed, overtaken, payload(await slow)

    listed, overtaken, slow = asyncio.run(main())
    assert listed == {"success": True, "data": {"services": ["ledger"]}}
    assert overtaken, "the new client was held until the slow call ended"
    assert slow["success"] is False and slow["error"]["code"] == 408, slow


# ─────────────────────────── the command line ───────────────────────────


def test_worldc_serve_has_a_call_timeout_option(tmp_path, capsys):
    from compoworld_dsl.cli import main

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "--call-timeout" in capsys.readouterr().out
    tasks = tmp_path / "t.jsonl"
    tasks.write_text("")
    for bad in ("-1", "nan", "inf"):
        assert main(["serve", str(ROOT / "worlds" / "toy.world"), "--tasks", str(tasks), "--call-timeout", bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--call-timeout" in err and "Traceback" not in err, err
