"""Benchmark: how the Python that `worldc compile` writes reads, for every bundled world and every
stdlib module. Measures; changes nothing. (tests/test_codegen_readable.py imports `measure`.)

Usage: python bench/codegen_readability.py [--width 100] [--json]
Each world is generated twice: from the repository root with the path as given
(`worlds/toy.world`), and from a temporary folder with the absolute path of a copy of the world
(stdlib modules: of the module itself). Prints per world: lines, the longest line, lines over
the width (and how many of those are not one long string literal), `((` in the code (outside
strings), doubled parentheses (`((x))`), redundant grouping parentheses (removing them parses to
the same AST), whether an absolute path appears, whether the two generations are the same bytes,
and the CPU milliseconds `generate_python` took (the best of 3)."""

from __future__ import annotations

import argparse
import ast
import io
import json
import keyword
import os
import shutil
import sys
import tempfile
import time
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_SKIP = (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER)


def _tokens(code: str) -> list[tokenize.TokenInfo]:
    return [t for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type not in _SKIP]


def _pairs(toks: list[tokenize.TokenInfo]) -> dict[int, int]:
    stack, match = [], {}
    for i, t in enumerate(toks):
        if t.type == tokenize.OP and t.string in "([{":
            stack.append(i)
        elif t.type == tokenize.OP and t.string in ")]}":
            match[stack.pop()] = i
    return match


def _grouping(toks, match, i: int) -> bool:
    """Parentheses that only group: not a call, a tuple, a generator or a parameter list."""
    if toks[i].string != "(":
        return False
    prev = toks[i - 1] if i else None
    if prev is not None and (prev.string in (")", "]") or (prev.type == tokenize.NAME and not keyword.iskeyword(prev.string))):
        return False  # a call or a def
    depth, j = 0, i + 1
    if match[i] == j:
        return False  # ()
    while j < match[i]:
        s = toks[j].string
        if toks[j].type == tokenize.OP and s in "([{":
            depth += 1
        elif toks[j].type == tokenize.OP and s in ")]}":
            depth -= 1
        elif depth == 0 and (s == "," or (toks[j].type == tokenize.NAME and s == "for")):
            return False
        j += 1
    return True


def _statement(lines: list[str], first: int, last: int) -> str:
    """The logical line on rows first..last (1-based), made parsable on its own."""
    text = lines[first - 1 : last]
    indent = len(text[0]) - len(text[0].lstrip())
    body = [ln[indent:] if ln[:indent].strip() == "" else ln for ln in text]
    head = body[0].lstrip()
    if head.startswith("elif "):
        body[0] = "if" + body[0][4:]
    src = "\n".join(body)
    if head.startswith("@"):
        src += "\ndef _f(): pass"
    elif _ends_with_colon(src):
        src += "\n    pass"
    return src


def _ends_with_colon(src: str) -> bool:
    try:
        toks = _tokens(src + "\n")
    except (tokenize.TokenError, SyntaxError):
        return False
    return bool(toks) and toks[-1].string == ":"


def redundant_parentheses(code: str) -> list[tuple[int, str]]:
    """(line, text) of each pair of grouping parentheses whose removal leaves the AST unchanged;
    `a or (b and c)` is allowed (the parentheses say what Python would do, for the reader)."""
    lines = code.split("\n")
    toks = _tokens(code)
    match = _pairs(toks)
    # the logical line each token is on: rows from its first token to the NEWLINE that ends it
    starts: list[tuple[int, int]] = []
    first = None
    for t in tokenize.generate_tokens(io.StringIO(code).readline):
        if t.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        if first is None:
            first = t.start[0]
        if t.type == tokenize.NEWLINE:
            starts.append((first, t.start[0]))
            first = None
    found = []
    for i in range(len(toks)):
        if not _grouping(toks, match, i):
            continue
        j = match[i]
        row = toks[i].start[0]
        first, last = next((a, b) for a, b in starts if a <= row <= b)
        inner = toks[i + 1 : j]
        depth0 = [t.string for t, d in zip(inner, _depths(inner)) if d == 0]
        neighbours = {toks[i - 1].string if i else "", toks[j + 1].string if j + 1 < len(toks) else ""}
        if "and" in depth0 and "or" in neighbours and "or" not in depth0:
            continue
        before = _statement(lines, first, last)
        edited = list(lines)
        for (r, c) in (toks[j].start, toks[i].start):  # the later one first: columns stay right
            edited[r - 1] = edited[r - 1][:c] + " " + edited[r - 1][c + 1 :]
        after = _statement(edited, first, last)
        try:
            same = ast.dump(ast.parse(before)) == ast.dump(ast.parse(after))
        except SyntaxError:
            same = False
        if same:
            found.append((row, lines[row - 1].strip()))
    return found


def _depths(toks) -> list[int]:
    out, d = [], 0
    for t in toks:
        if t.type == tokenize.OP and t.string in ")]}":
            d -= 1
        out.append(d)
        if t.type == tokenize.OP and t.string in "([{":
            d += 1
    return out


def long_literal(line: str, width: int) -> bool:
    """A line over the width only because of one string literal that no layout could shorten:
    without the literal the line would fit, and it holds no bracket to break at."""
    try:
        toks = _tokens(line.strip() + "\n")
    except (tokenize.TokenError, SyntaxError):
        return False
    strings = [t.string for t in toks if t.type == tokenize.STRING]
    if not strings or any(t.type == tokenize.OP and t.string in "([{" for t in toks):
        return False
    return len(line) - len(max(strings, key=len)) + 2 <= width


def measure(code: str, width: int = 100) -> dict:
    toks = _tokens(code)
    match = _pairs(toks)
    lines = code.split("\n")
    over = [ln for ln in lines if len(ln) > width]
    opens = [i for i in range(1, len(toks)) if toks[i].string == "(" and toks[i - 1].string == "(" and toks[i - 1].end == toks[i].start]
    doubled = [i for i in opens if match[i] + 1 == match[i - 1] and _grouping(toks, match, i)]  # `f((x))`, `((x))`: not a tuple in a call
    return {
        "lines": len(lines),
        "max_len": max(len(ln) for ln in lines),
        "over": len(over),
        "over_not_literal": sum(1 for ln in over if not long_literal(ln, width)),
        "open_open": len(opens),
        "doubled": len(doubled),
        "redundant": len(redundant_parentheses(code)),
    }


def generate(world: Path, cwd: Path, source: str, timings: list | None = None) -> str:
    from compoworld_dsl.check import check_paths
    from compoworld_dsl.codegen.python import generate_python

    here = os.getcwd()
    os.chdir(cwd)
    try:
        program = check_paths([source])
        assert program.ok, (world, [d.message for d in program.diagnostics[:3]])
        for _ in range(3 if timings is not None else 0):
            t0 = time.process_time()
            generate_python(program.model, source)
            timings.append(time.process_time() - t0)
        return generate_python(program.model, source)
    finally:
        os.chdir(here)


def worlds() -> list[Path]:
    return sorted((ROOT / "worlds").glob("*.world")) + sorted((ROOT / "stdlib").rglob("*.world"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--width", type=int, default=100)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        elsewhere = Path(tmp) / "elsewhere"
        elsewhere.mkdir()
        for w in worlds():
            rel = w.relative_to(ROOT)
            if rel.parts[0] == "worlds":
                copy = Path(tmp) / "copy" / w.name
                copy.parent.mkdir(exist_ok=True)
                shutil.copyfile(w, copy)
            else:
                copy = w
            timings: list[float] = []
            a = generate(w, ROOT, str(rel), timings)
            b = generate(w, elsewhere, str(copy))
            row = {"world": str(rel), **measure(a, args.width), "generate_ms": round(min(timings) * 1000, 1)}
            row["max_len"] = max(row["max_len"], measure(b, args.width)["max_len"])
            row["absolute_path"] = str(ROOT) in b or tmp in b or str(ROOT) in a
            row["same_bytes"] = a == b
            rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    keys = ["lines", "max_len", "over", "over_not_literal", "open_open", "doubled", "redundant", "absolute_path", "same_bytes", "generate_ms"]
    print("| world | " + " | ".join(keys) + " |")
    print("| --- |" + " ---: |" * len(keys))
    for r in rows:
        print(f"| {r['world']} | " + " | ".join(str(r[k]) for k in keys) + " |")
    total = {k: sum(r[k] for r in rows) for k in keys if k not in ("max_len", "absolute_path", "same_bytes", "generate_ms")}
    print(
        f"| all {len(rows)} | {total['lines']} | {max(r['max_len'] for r in rows)} | {total['over']} | {total['over_not_literal']} | "
        f"{total['open_open']} | {total['doubled']} | {total['redundant']} | {sum(r['absolute_path'] for r in rows)} | {sum(r['same_bytes'] for r in rows)} | "
        f"{sum(r['generate_ms'] for r in rows):.0f} |"
    )


if __name__ == "__main__":
    main()
