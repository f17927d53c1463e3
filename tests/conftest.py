"""Shared test setup: the world cache (compoworld_dsl/worldcache.py) goes to a folder of this run,
so tests never read or fill the user's ~/.cache/compoworld."""

import os
import tempfile

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_world_cache():
    if "COMPOWORLD_CACHE" in os.environ:
        yield
        return
    with tempfile.TemporaryDirectory(prefix="compoworld-cache-") as folder:
        os.environ["COMPOWORLD_CACHE"] = folder  # subprocesses the tests start inherit it
        yield
        del os.environ["COMPOWORLD_CACHE"]
