"""`keep_freed_memory`: sampling processes ask glibc to keep freed memory (decision D26)."""

from __future__ import annotations

import sys

import pytest

from compoworld_dsl.sample import worker as R


class _Libc:
    def __init__(self):
        self.calls = []

    def mallopt(self, param, value):
        self.calls.append((param, value))
        return 1


@pytest.fixture
def libc(monkeypatch):
    fake = _Libc()
    monkeypatch.setattr(R.ctypes, "CDLL", lambda name: fake)
    monkeypatch.setattr(R.sys, "platform", "linux")
    return fake


def test_fixed_mmap_and_trim_thresholds_on_glibc(libc, monkeypatch):
    monkeypatch.delenv("COMPOWORLD_KEEP_FREED_MEMORY", raising=False)
    R.keep_freed_memory()
    assert libc.calls == [(-3, 32 << 20), (-1, 128 << 20)]  # M_MMAP_THRESHOLD, M_TRIM_THRESHOLD


def test_switched_off_by_the_environment(libc, monkeypatch):
    monkeypatch.setenv("COMPOWORLD_KEEP_FREED_MEMORY", "0")
    R.keep_freed_memory()
    assert libc.calls == []


def test_a_libc_without_mallopt_is_left_alone(monkeypatch):
    monkeypatch.setattr(R.ctypes, "CDLL", lambda name: object())  # musl: no mallopt
    monkeypatch.setattr(R.sys, "platform", "linux")
    monkeypatch.delenv("COMPOWORLD_KEEP_FREED_MEMORY", raising=False)
    R.keep_freed_memory()  # no AttributeError


def test_every_sampling_process_calls_it(monkeypatch):
    called = []
    monkeypatch.setattr(R, "keep_freed_memory", lambda: called.append(1))
    monkeypatch.setattr(R, "load_sampler", lambda path: "sampler")
    monkeypatch.setattr(R, "_sampler", None)  # restored after the test
    assert R.init_worker("x.world") == "sampler" and called == [1] and R.running_sampler() == "sampler"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc only")
def test_it_runs_on_this_machine():
    R.keep_freed_memory()  # the real libc: no error either way
