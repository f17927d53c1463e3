"""The sampler's shortcuts decide what the long way would, and are taken.

Each shortcut (D26/D28 in docs/decisions.md) skips work whose outcome is known: a row of a
ground table that a key comparison rules out, a Z3 binding whose every answer would fail, a
walk that would end on a read with nothing to report. Each test runs the same attempts with the
shortcut and without it and asserts the outcomes agree, and that the shortcut was taken at all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compoworld_dsl.sample.run import load_sampler
from compoworld_dsl.sample import bindings as B
from compoworld_dsl.sample import walk as W
from compoworld_dsl.sample.sampler import Rejected
from compoworld_dsl.smt import encode as E

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def legal():
    return load_sampler(str(ROOT / "worlds" / "legal_ops.world"))


def outcomes(sampler, seed: int, hops: int, indices) -> list[str]:
    """Each attempt's task (as JSON) or its rejection reason."""
    out = []
    for i in indices:
        try:
            out.append(json.dumps(sampler.task(seed, i, hops), sort_keys=True))
        except Rejected as e:
            out.append("rejected: " + e.reason)
    return out


def test_the_key_probe_builds_the_terms_the_full_evaluation_builds(legal, monkeypatch):
    """`_filtered` decides rows whose key differs from the compared value without evaluating the
    rest of `where`: every term asserted to any solver must be the same either way."""
    import z3

    seen: list[list[str]] = [[], []]
    which = [0]
    real_add, real_track = z3.Solver.add, z3.Solver.assert_and_track

    def add(self, *terms):
        seen[which[0]].extend(t.sexpr() for t in terms if isinstance(t, z3.ExprRef))
        return real_add(self, *terms)

    def track(self, term, name):
        seen[which[0]].append(term.sexpr())
        return real_track(self, term, name)

    monkeypatch.setattr(z3.Solver, "add", add)
    monkeypatch.setattr(z3.Solver, "assert_and_track", track)
    taken = [0]
    real_probe = E.WorldEncoding.key_probe

    def counted(self, where, var):
        got = real_probe(self, where, var)
        taken[0] += got is not None
        return got

    monkeypatch.setattr(E.WorldEncoding, "key_probe", counted)
    with_probe = outcomes(legal, 0, 5, range(25))
    which[0] = 1
    monkeypatch.setattr(E.WorldEncoding, "key_probe", lambda self, where, var: None)
    without = outcomes(legal, 0, 5, range(25))
    assert taken[0] > 50
    assert with_probe == without
    # Equal up to the order of `and`/`or` arguments: z3.simplify (the encoder simplifies each
    # check) orders them by Z3's internal term ids, which count the terms made before, and the
    # probe exists to make fewer (seen once the seeds drew several documents per matter).
    assert sum(t not in ("true", "false") for t in seen[0]) > 20 and [_canonical(t) for t in seen[0]] == [_canonical(t) for t in seen[1]]


def _canonical(sexpr: str):
    """An s-expression as nested tuples, `let` bindings put in place and the arguments of `and`
    and `or` sorted. (Z3 names shared subterms `a!1`, `a!2`, ... in the order of its term ids,
    which the probe changes as it changes how many terms are made.)"""
    tokens = sexpr.replace("(", " ( ").replace(")", " ) ").split()
    pos = 0

    def read():
        nonlocal pos
        tok = tokens[pos]
        pos += 1
        if tok != "(":
            return tok
        items = []
        while tokens[pos] != ")":
            items.append(read())
        pos += 1
        return tuple(items)

    def normal(node, env):
        if isinstance(node, str):
            return env.get(node, node)
        if node and node[0] == "let":
            inner = dict(env)
            for name, value in node[1]:
                inner[name] = normal(value, inner)  # (a later binding may use an earlier one)
            return normal(node[2], inner)
        items = [normal(x, env) for x in node]
        if items and items[0] in ("and", "or"):
            items = [items[0], *sorted(items[1:], key=repr)]
        return tuple(items)

    return normal(read(), {})


def test_the_probe_is_only_taken_on_a_pure_key_comparison():
    """A `where` that can add a check (arithmetic on a date, a lookup by key) or whose first
    conjunct is not `var.f == e` gets no probe; one that is gets (f, e)."""
    from compoworld_dsl.diagnostics import Span
    from compoworld_dsl.syntax import ast as A

    at = Span("t.world", 1, 1, 1, 2)
    Var, Field, Binary = (lambda n: A.Var(n, span=at)), (lambda o, n: A.Field(o, n, span=at)), (lambda op, a, b: A.Binary(op, a, b, span=at))
    d_matter = Field(Var("d"), "matter")
    eq = Binary("==", d_matter, Var("matter"))
    later = Binary("<=", Field(Var("d"), "due"), Var("day"))
    assert E._key_probe(eq, "d") == ("matter", Var("matter"))
    assert E._key_probe(Binary("==", Var("matter"), d_matter), "d") == ("matter", Var("matter"))
    assert E._key_probe(Binary("and", eq, later), "d") == ("matter", Var("matter"))
    assert E._key_probe(Binary("and", later, eq), "d") is None  # the key comparison is not first
    assert E._key_probe(Binary("or", eq, later), "d") is None
    shifted = Binary("<=", Field(Var("d"), "due"), Binary("+", Var("day"), Var("week")))
    assert E._key_probe(Binary("and", eq, shifted), "d") is None  # `+` may fail on a date
    looked_up = Binary("==", Field(A.Index(Var("matters"), Var("m"), span=at), "id"), Var("m"))
    assert E._key_probe(Binary("and", eq, looked_up), "d") is None  # a lookup adds a check
    assert E._key_probe(Binary("==", d_matter, Field(Var("d"), "client")), "d") is None  # e reads d


def test_a_binding_every_finite_value_fails_is_not_asked_of_z3(legal, monkeypatch):
    """When the values left to Z3 are all enum members or yes/no and every combination fails,
    Z3 is not asked (its answer would be one of them): the same outcomes, fewer bindings."""
    calls = {"z3": 0, "skipped": 0}
    real_bind, real_finite = B._z3_bind, B._no_finite_value

    def bind(*a, **k):
        calls["z3"] += 1
        return real_bind(*a, **k)

    def finite(*a, **k):
        got = real_finite(*a, **k)
        calls["skipped"] += got
        return got

    monkeypatch.setattr(B, "_z3_bind", bind)
    monkeypatch.setattr(B, "_no_finite_value", finite)
    fast = outcomes(legal, 0, 5, range(120))
    z3_fast, skipped = calls["z3"], calls["skipped"]
    monkeypatch.setattr(B, "_no_finite_value", lambda *a, **k: False)
    calls["z3"] = 0
    slow = outcomes(legal, 0, 5, range(120))
    assert skipped > 0 and calls["z3"] == z3_fast + skipped
    assert fast == slow


def test_a_walk_does_not_end_on_a_read_with_nothing_to_report(legal):
    """A read as the last step is used by no later step, so it must give something to report;
    the walk tries the next candidate instead of ending on a count of 0 or an id (before, 56 of
    300 legal_ops attempts were rejected for that after all their work). Nor does the last step
    leave an earlier such read unused: it must be one that uses it (41 of 300 attempts were
    rejected for that)."""
    refused = []
    for i in range(150):
        try:
            legal.task(0, i, 5)
        except Rejected as e:
            if e.reason in ("step_not_needed", "guessable_answer") and legal.attempt.stage == "choosing the reports":
                refused.append(e.detail)
    # (a field many rows share can still turn up here: the look-alike planted after the walk
    # can copy the reported value, which the walk could not know)
    assert not [d for d in refused if "nothing a person would ask for" in d or "nothing in its result" in d or "yes/no" in d], refused


def test_changed_replays_share_the_reference_run_before_their_first_change(legal, monkeypatch):
    """The proofs' changed replays (a step left out, an argument changed, a look-alike picked)
    start from the reference run's state after the calls before their first change
    (`necessity._Prefix`): the same outcomes as replays that start from the task's first state,
    with fewer calls run."""
    from compoworld_dsl.sample import necessity as N

    calls = _counted_calls(monkeypatch)
    fast = outcomes(legal, 0, 5, range(60))
    n_fast, calls[0] = calls[0], 0

    class FromTheStart:
        def __init__(self, facts, state0, steps, values):
            self.facts, self.state0, self.steps, self.values = facts, state0, steps, values

        def upto(self, k, deviations):
            return self.state0.snapshot(), {}, [], set(), 0

        def whole(self, n):  # the reference run itself, run afresh each time it is asked for
            return N._Prefix(self.facts, self.state0, self.steps, self.values).whole(n)

    monkeypatch.setattr(N._Prefix, "of", staticmethod(lambda facts, attempt, state0, steps, values: FromTheStart(facts, state0, steps, values)))
    slow = outcomes(legal, 0, 5, range(60))
    assert fast == slow
    assert n_fast < calls[0], (n_fast, calls[0])


def test_the_shared_reference_run_goes_only_as_far_as_a_replay_asks(legal, monkeypatch):
    """`necessity._Prefix` runs the reference calls when a replay first needs them: a look-alike
    picked at step 2 needs the calls before it, not the three after."""
    import random

    from compoworld_dsl.sample import necessity as N
    from compoworld_dsl.sample.attempt import Attempt

    facts, seed = legal.facts, 1234
    state0 = facts.world.partial_state(seed)
    steps, values, _ = next(W.Walker(facts, Attempt(seed)).walks(random.Random(seed), seed, state0, 5))
    calls = _counted_calls(monkeypatch)
    prefix = N._Prefix(facts, state0, steps, values)
    assert calls[0] == 0
    state, outputs, done, _, k = prefix.upto(2, None)
    assert (calls[0], k, sorted(outputs)) == (2, 2, [0, 1])
    prefix.upto(1, None)
    assert calls[0] == 2  # kept: nothing runs twice
    prefix.upto(len(steps), None)
    assert calls[0] == len(steps) == 5


def _counted_calls(monkeypatch) -> list[int]:
    """[how many calls the proofs' replays have made] from now on (`necessity._call`)."""
    from compoworld_dsl.sample import necessity as N

    calls = [0]
    real_call = N._call

    def counted(*a, **k):
        calls[0] += 1
        return real_call(*a, **k)

    monkeypatch.setattr(N, "_call", counted)
    return calls
