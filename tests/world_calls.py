"""Calling one tool of a compiled world in a test, as the stdlib tests do: a call that must work
gives its data; a call that must fail gives its error kind and leaves the state as it was."""

from __future__ import annotations

CODES = {400: "invalid", 403: "forbidden", 404: "not_found", 409: "conflict"}


def ok(world, state, tool, **args):
    got = world.call(state, tool, args)
    assert got["success"], (tool, args, got)
    return got["data"]


def error(world, state, tool, **args):
    """The error kind of a call that must fail (the gateway reports kinds as HTTP-like codes);
    the state must not change."""
    before = state.snapshot()
    got = world.call(state, tool, args)
    assert not got["success"], (tool, args, got)
    assert state.tables == before.tables, (tool, args)
    return CODES.get(got["error"]["code"], got["error"]["code"])
