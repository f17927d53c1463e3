"""Work counted, not timed: the number of Python and builtin calls a piece of code makes is the
same on a busy machine as on an idle one, so scaling tests assert on it (never on seconds)."""

from __future__ import annotations

import sys


def calls_while(fn, *args) -> int:
    """Python and builtin calls made by `fn(*args)`."""
    calls = [0]

    def count(frame, event, arg):
        if event in ("call", "c_call"):
            calls[0] += 1

    sys.setprofile(count)
    try:
        fn(*args)
    finally:
        sys.setprofile(None)
    return calls[0]
