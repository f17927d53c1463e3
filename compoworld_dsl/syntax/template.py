"""Message, `say` and `format` templates: literal text with `{path}` placeholders.
The one reading of a template that the checker, the code generator and the Z3 encoding share."""

from __future__ import annotations

import re

# `{{` and `}}` are literal braces; `{a.b}` is a placeholder; a brace that closes nothing (or
# opens nothing) is literal text. One regex, so every stage splits a template the same way.
_PIECE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def template_pieces(template: str) -> list:
    """Split a template into literal strings and placeholder paths: "a {x.y} b" → ["a ", (("x","y"),), " b"].

    The result always alternates str, placeholder, str, ... and starts and ends with a str.
    """
    out: list = []
    buf: list[str] = []
    at = 0
    for m in _PIECE.finditer(template):
        buf.append(template[at : m.start()])
        at = m.end()
        if m.group(1) is None:  # an escaped brace
            buf.append(m.group(0)[0])
            continue
        out.append("".join(buf))
        buf = []
        inner = m.group(1).strip()
        out.append((tuple(inner.split(".")) if inner else (),))
    buf.append(template[at:])
    out.append("".join(buf))
    return out


def placeholders(template: str) -> list[str]:
    """The text inside each `{...}` placeholder, in order (`{{` is a brace, not a placeholder)."""
    return [m.group(1) for m in _PIECE.finditer(template) if m.group(1) is not None]
