"""A world that checks clean must compile, seed and run: mutated bundled worlds go through the
whole pipeline, and any exception past the checker is a bug in codegen or the runtime.

Each mutated world (the token and line mutations of test_robustness.py, plus mutations of
literal values: numbers at the limits, strings with braces, far-off dates) is checked; one that
checks clean is compiled (`load_world`), seeded (`initial_state(0)`), and every tool is called
once with `{}` through `world.call`, which must return an envelope (`success` true or false),
never raise. Worlds that do not check clean are skipped: test_robustness.py covers those.

The default run is small enough for CI (a few seconds). For a long run set
WORLDC_FUZZ_EXAMPLES, e.g. `WORLDC_FUZZ_EXAMPLES=2000 pytest tests/test_robustness_run.py`;
add `--hypothesis-seed=N` (with WORLDC_FUZZ_RANDOM=1, which turns off derandomization) to
explore beyond the fixed examples."""

from __future__ import annotations

import os
import re
import signal

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from compoworld_dsl.check import check_source
from compoworld_dsl.codegen.python import load_world
from test_robustness import BUNDLED, SOURCES, Hang, mutated_source

EXAMPLES = int(os.environ.get("WORLDC_FUZZ_EXAMPLES", "60"))
DERANDOMIZE = not os.environ.get("WORLDC_FUZZ_RANDOM")
# An example takes well under a second; only a hang reaches this (as in test_robustness.py,
# but scaled for a long run).
HANG_SECONDS = 600 + 10 * EXAMPLES  # a hang guard only (see test_robustness.py)


@pytest.fixture(autouse=True)
def no_hang():
    """Fail a test that runs away instead of letting it stall the suite."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def on_alarm(signum, frame):
        raise Hang(f"still running after {HANG_SECONDS} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(HANG_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)

# Literal values that sit on a limit or have been trouble before: the largest integer, the
# largest seed row count and weight, strings with braces (templates), dates at the ends of time.
INTS = ["0", "1", "2", "9223372036854775807", "10000", "1000000000", "59", "365"]
DECIMALS = ["0.0", "0.01", "999999999999999999.999999999999999999", "0.000000000000000001"]
STRINGS = ['""', '"{"', '"}"', '"{{}}"', '"{x}"', '"a\\nb"', '"\\u00e9"', '"x@y.z"', '"%s"', '"\\\\"']
DATES = ["0001-01-01", "9999-12-31", "2024-02-29", "1970-01-01"]
TIMES = ["00:00", "23:59"]
DATETIMES = ["0001-01-01T00:00", "9999-12-31T23:59"]

_INT = re.compile(r"[0-9]+\Z")
_DECIMAL = re.compile(r"[0-9]+\.[0-9]+\Z")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
_TIME = re.compile(r"[0-9]{2}:[0-9]{2}\Z")
_DATETIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}\Z")


def _literal_kind(tok: str) -> list[str] | None:
    if tok.startswith('"'):
        return STRINGS
    for pattern, values in ((_DATETIME, DATETIMES), (_DATE, DATES), (_TIME, TIMES), (_DECIMAL, DECIMALS), (_INT, INTS)):
        if pattern.match(tok):
            return values
    return None


@st.composite
def value_mutated_source(draw):
    """A bundled world with a few literals replaced by limit values of the same kind: most of
    these still check clean, so they reach codegen and the runtime."""
    path = draw(st.sampled_from(BUNDLED))
    # DATE, TIME and DATETIME are one token to the tokenizer of test_robustness only in part
    # (`2025-03-01` splits at `-`), so literals are found with a wider pattern here.
    toks = re.findall(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}|[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{2}:[0-9]{2}|[0-9]+\.[0-9]+|[A-Za-z_0-9]+|\s+|.', SOURCES[path], re.S)
    literals = [i for i, t in enumerate(toks) if _literal_kind(t) is not None]
    if literals:
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.sampled_from(literals))
            toks[i] = draw(st.sampled_from(_literal_kind(toks[i])))
    return path, "".join(toks)


def run_everything(path, text: str) -> bool:
    """Check; if clean, compile, seed and call every tool once. Returns whether it checked clean."""
    program = check_source(text, path.name, base_dir=path.parent)
    if not program.ok:
        return False
    world = load_world(program.model, str(path))
    state = world.initial_state(0)
    for tool in world.tools:
        envelope = world.call(state, tool, {})
        assert isinstance(envelope, dict) and envelope.get("success") in (True, False), (tool, envelope)
    return True


@settings(max_examples=EXAMPLES, deadline=None, derandomize=DERANDOMIZE, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.one_of(value_mutated_source(), mutated_source()))
def test_mutated_worlds_that_check_clean_compile_seed_and_run(case):
    event("checks clean: compiled, seeded and run" if run_everything(*case) else "does not check clean")


def test_the_value_mutations_keep_most_worlds_checking_clean():
    # Without this the fuzz above could pass by never getting past the checker.
    clean = 0

    @settings(max_examples=20, deadline=None, derandomize=True, database=None)
    @given(value_mutated_source())
    def count(case):
        nonlocal clean
        path, text = case
        clean += check_source(text, path.name, base_dir=path.parent).ok

    count()
    assert clean >= 5, clean


def test_every_bundled_world_compiles_seeds_and_runs():
    for path in BUNDLED:
        assert run_everything(path, SOURCES[path]), path
