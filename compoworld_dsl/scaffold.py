"""`worldc new NAME`: start a world in a new folder NAME/.

It writes `NAME.world` (one service with a table, a record, a seed block, a read tool, a write
tool with a precondition, and a world with one house rule: all of it checks clean, lints clean,
is in `worldc fmt` form and samples tasks), `tests/test_NAME.py` (pytest: loads the world and
runs its tools) and a README.md that says what to run next. Each file is written atomically
(`cli.write_atomic`). An existing folder that holds anything is never touched (exit 2).
Errors follow worldc's conventions: one line `worldc: error: ...` on stderr, exit 2 for bad
usage, 1 for a failure; never a traceback (set WORLDC_TRACEBACK=1 to see one for a bug)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from .cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, _plural, write_atomic

NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")

# Words of the language that cannot, or should not, name anything (docs/language.md, section 10).
RESERVED = frozenset(
    """import type enum pool service record key state seed rows from pick weighted ref unique format slug known by
    tool simulated say gives consumes produces require else let insert update delete set return
    modifies ensures not_found invalid conflict forbidden in where constraint rule untouched forall
    if then invariant order after on world use implies or and not contains true false exists count
    filter latest earliest sum min max map for by list table""".split()
)
# Built-in type names cannot be redefined (E111).
BUILTIN_TYPES = frozenset("text int decimal money bool date time datetime email id duration".split())
# The names the template declares: the world's own name must differ from each (one namespace, E111).
TEMPLATE_NAMES = frozenset(
    "TicketId Priority TicketStatus ticket_titles requesters tickets Ticket leave_urgent".split()
)

WORLD_TEMPLATE = """\
// {name}.world: a small help desk, made by `worldc new {name}`. Make it yours: rename the
// service, add records, tools and house rules, and run `worldc check {name}.world` after each
// change (docs/language.md teaches the language).

type TicketId = id

enum Priority {{ low, normal, urgent }}
enum TicketStatus {{ open, closed }}

pool ticket_titles = ["Printer jammed", "Password reset", "VPN drops", "New laptop", "Email bounces", "Screen flickers"]
pool requesters = ["Ana Ruiz", "Ben Okafor", "Cy Tanaka", "Dee Novak"]

service tickets "A help desk's ticket queue" {{
  // a person names a ticket by its title and who raised it, never by its id
  record Ticket known by title, requester {{
    key id: TicketId
    title: text
    requester: text
    priority: Priority = normal
    status: TicketStatus = open
    opened: date "date it was opened"
  }}
  state tickets: table[Ticket]

  // each episode starts from 4 to 8 tickets drawn from these generators (one stream per seed)
  seed tickets: 4..8 rows {{
    title: pick(ticket_titles)
    requester: pick(requesters)
    priority: weighted(low: 2, normal: 3, urgent: 1)
    status: weighted(open: 3, closed: 1)
    opened: 2025-03-03..2025-03-14
  }}

  // a read tool: it changes nothing, and its result hands ticket ids to later steps
  tool list_open_tickets() -> list[Ticket]
    "List every ticket that is still open, oldest first"
    say "list the open tickets"
    gives "the open tickets"
  {{
    return filter(t in tickets where t.status == open by t.opened)
  }}

  // a write tool: each `require` is a precondition; a call that fails one changes nothing
  tool close_ticket(id: TicketId) -> Ticket
    "Close an open ticket"
    say "close ticket {{id}}"
  {{
    require id in tickets else not_found "no ticket {{id}}"
    require tickets[id].status == open else conflict "ticket {{id}} is already closed"
    update tickets[id] {{ status: closed }}
    return tickets[id]
  }}
}}

world {name} "A help desk" {{
  // a house rule: no precondition enforces it, so an agent has to read it and keep it
  constraint leave_urgent "Leave urgent tickets to the on-call lead" {{
    untouched t in tickets.tickets where t.priority == urgent
  }}
}}
"""

TEST_TEMPLATE = '''\
"""Tests for {name}.world. Run them from the folder {name}/ with `pytest -q`."""

from pathlib import Path

from compoworld_dsl.check import check_paths
from compoworld_dsl.codegen.python import load_world
from compoworld_dsl.runtime.state import diff

WORLD_FILE = Path(__file__).resolve().parent.parent / "{name}.world"


def load():
    """The world, checked and compiled in memory."""
    program = check_paths([WORLD_FILE])
    assert program.ok, [d.message for d in program.diagnostics]
    return load_world(program.model, str(WORLD_FILE))


def an_open_ticket(world):
    """A seeded state with an open ticket, and that ticket's id."""
    for seed in range(50):
        state = world.initial_state(seed)
        listed = world.call(state, "tickets.list_open_tickets", {{}})
        assert listed["success"], listed
        if listed["data"]:
            return state, listed["data"][0]["id"]
    raise AssertionError("no seed from 0 to 49 has an open ticket")


def test_close_ticket_closes_it_once():
    world = load()
    state, ticket = an_open_ticket(world)
    before = state.snapshot()

    result = world.call(state, "tickets.close_ticket", {{"id": ticket}})
    assert result["success"], result
    assert result["data"]["status"] == "closed"
    changes = diff(before, state)
    assert [(c.table, c.key, c.kind, c.fields) for c in changes.rows] == [("tickets.tickets", ticket, "updated", ("status",))]

    # the precondition: closing it again fails, and a failed call changes nothing
    after = state.snapshot()
    again = world.call(state, "tickets.close_ticket", {{"id": ticket}})
    assert again == {{"success": False, "error": {{"code": 409, "message": f"ticket {{ticket}} is already closed"}}}}
    assert diff(after, state).empty
'''

README_TEMPLATE = """\
# {name}

A practice world for tool-using agents, started with `worldc new {name}`:

- `{name}.world`: one service (`tickets`, a help desk's ticket queue) with a table, a record, a
  seed block, a read tool (`list_open_tickets`), a write tool with a precondition
  (`close_ticket`), and the world `{name}` with one house rule (`leave_urgent`).
- `tests/test_{name}.py`: a pytest test that loads the world and runs its tools.

## What to run next

From this folder:

```sh
worldc check {name}.world                      # parse and type-check; every error at once
worldc lint {name}.world                       # rules the seeds break, tools no task reaches
worldc fmt {name}.world                        # rewrite in canonical form
worldc call {name}.world tickets.list_open_tickets --seed 1
worldc call {name}.world tickets.close_ticket --seed 1 --args '{{"id": "ticket-1"}}'
worldc call {name}.world                       # a small REPL: `call> close_ticket {{"id": "ticket-1"}}`
worldc sample {name}.world --hops 2 -n 5 -o tasks.jsonl
worldc verify {name}.world tasks.jsonl
pytest -q                                      # the tests in tests/
```

Then grow it: add a record and a table, tools that read and write them, seeds, and house
rules. Give every kind of key its own alias (`type TicketId = id`), so the sampler links tools
that really pass ids to each other, and a `known by` list to every record a task may name.
The language is described in compoworld_dsl's `docs/language.md`; sampling in
`docs/sampling.md`.
"""


def add_parser(sub) -> None:
    """Register `new` on worldc's subparsers object."""
    n = sub.add_parser(
        "new",
        help="start a world in a new folder NAME/ (a .world file, a pytest test, a README), e.g. `worldc new help_desk`",
        description="Start a world in a new folder NAME/: NAME.world (a service with a table, a seed, a read tool, a write tool with a precondition, and a house rule), tests/test_NAME.py and README.md. Everything it writes checks, lints and samples clean.",
        epilog="examples:\n  worldc new help_desk && cd help_desk && worldc call help_desk.world tickets.list_open_tickets",
    )
    n.add_argument("name", metavar="NAME", help="the world's name, and the folder to create (a path whose last part is the name, e.g. worlds/help_desk)")
    n.set_defaults(func=cmd_new)


def _err(message: str) -> None:
    print(f"worldc: error: {message}", file=sys.stderr)


def name_problem(name: str) -> str | None:
    """Why NAME cannot name a world, or None."""
    if not NAME_RE.match(name):
        return f"{name!r} is not a name: use letters, digits and _, not starting with a digit (at most 64), e.g. help_desk"
    if name in RESERVED or name in BUILTIN_TYPES:
        return f"{name!r} is a word of the .world language; choose another name, e.g. {name}_world"
    if name in TEMPLATE_NAMES:
        return f"{name!r} is a name the template declares; choose another name, e.g. {name}_world"
    return None


def scaffold_files(name: str) -> dict[str, str]:
    """The files `worldc new NAME` writes, relative path → text."""
    return {
        f"{name}.world": WORLD_TEMPLATE.format(name=name),
        f"tests/test_{name}.py": TEST_TEMPLATE.format(name=name),
        "README.md": README_TEMPLATE.format(name=name),
    }


def cmd_new(args) -> int:
    folder = Path(args.name)
    name = folder.name
    problem = name_problem(name)
    if problem:
        _err(problem)
        return EXIT_USAGE
    if folder.exists() or folder.is_symlink():
        if not folder.is_dir():
            _err(f"{folder} exists and is not a folder")
            return EXIT_USAGE
        try:
            if any(folder.iterdir()):
                _err(f"{folder} exists and is not empty; not overwriting it (choose another name, or remove it)")
                return EXIT_USAGE
        except OSError as e:
            _err(f"cannot read {folder}: {e.strerror or e}")
            return EXIT_FAILED
    files = scaffold_files(name)
    written = []
    try:
        for rel, text in files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, text)
            written.append(path)
    except OSError as e:
        _err(f"cannot write {folder}: {e.strerror or e}")
        return EXIT_FAILED
    world_file = folder / f"{name}.world"
    try:
        ok, summary = _check(world_file)
    except Exception as e:  # a bug in worldc, not in the name: one line all the same
        if os.environ.get("WORLDC_TRACEBACK"):
            raise
        ok, summary = False, f"the check failed inside ({type(e).__name__}: {e})"
    w = sys.stdout.write
    w(f"created {folder}/\n")
    for p in written:
        w(f"  {p}\n")
    w(f"worldc check: {summary}\n")
    if not ok:
        _err(f"the new world does not check ({summary}); a bug in worldc, please report it with the name {name!r}")
        return EXIT_FAILED
    w(
        "\nnext:\n"
        f"  cd {folder}\n"
        f"  worldc call {name}.world tickets.list_open_tickets --seed 1\n"
        f"  worldc sample {name}.world --hops 2 -n 5 -o tasks.jsonl\n"
        "  pytest -q\n"
        "README.md says more.\n"
    )
    sys.stdout.flush()
    return EXIT_OK


def _check(world_file: Path) -> tuple[bool, str]:
    from .check import check_paths

    program = check_paths([world_file])
    if not program.ok or program.model is None:
        errors = [d for d in program.diagnostics if d.is_error]
        return False, f"{len(errors)} error(s), first: {errors[0].message if errors else '?'}"
    n_tools = sum(len(s.tools) for s in program.model.services.values())
    return True, f"{world_file}: ok ({_plural(len(program.model.services), 'service')}, {_plural(n_tools, 'tool')})"
