"""docs/cli.md, generated from worldc's own argument parser so that it cannot drift:
`python -m compoworld_dsl.clidoc > docs/cli.md`; tests/test_clidoc.py fails when the file and the
parser disagree."""

from __future__ import annotations

import argparse

HEADER = """# The `worldc` command line

Generated from the argument parser by `python -m compoworld_dsl.clidoc > docs/cli.md` (a test
fails when this file and the parser disagree). Conventions, for every verb:

- results go to stdout, problems and progress to stderr; `--format json` (where a verb reports)
  prints one JSON document on stdout;
- exit 0 on success, 1 when the input is wrong or a check fails, 2 for bad usage, 141 when the
  reader of stdout goes away (`| head`), 128+N on signal N;
- `-o -` is stdout; output files are written atomically and never replace a folder or a device;
  new files get the permissions the umask gives;
- `worldc -V` prints the version; `python -m compoworld_dsl` is `worldc`;
- `worldc completion bash|zsh|tcsh` prints a completion script.
"""


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help or "" for a in action._choices_actions}
    return {}


def _row(action: argparse.Action, formatter: argparse.HelpFormatter) -> str | None:
    if action.help == argparse.SUPPRESS or isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
        return None
    if action.option_strings:
        names = ", ".join(f"`{o}`" for o in action.option_strings)
        if action.nargs != 0:
            names += f" `{formatter._format_args(action, action.dest.upper())}`"
    else:
        names = f"`{formatter._format_args(action, action.dest)}`"
    text = formatter._expand_help(action) if action.help else ""
    if action.choices and not action.option_strings and "{" not in names:
        text = (text + " " if text else "") + f"({', '.join(map(str, action.choices))})"
    return f"| {names} | {text.replace('|', chr(92) + '|')} |"


def _verb(lines: list[str], name: str, help_text: str, parser: argparse.ArgumentParser, depth: int) -> None:
    lines += ["", "#" * depth + f" `{name}`", ""]
    if help_text:
        lines += [help_text[0].upper() + help_text[1:] + ("" if help_text.endswith(".") else "."), ""]
    usage = " ".join(parser.format_usage().split())
    lines += ["```", usage.removeprefix("usage: "), "```"]
    formatter = parser._get_formatter()
    rows = [r for r in (_row(a, formatter) for a in parser._actions) if r]
    if rows:
        lines += ["", "| argument | meaning |", "| --- | --- |", *rows]
    if parser.epilog:
        examples = [line.strip() for line in parser.epilog.splitlines()[1:] if line.strip()]
        lines += ["", "Examples:", "", "```sh", *examples, "```"]
    helps = _helps(parser)
    for sub_name, sub in _subparsers(parser).items():
        _verb(lines, f"{name} {sub_name}", helps.get(sub_name, ""), sub, depth + 1)


def render(parser: argparse.ArgumentParser | None = None) -> str:
    """docs/cli.md for `parser` (worldc's, by default)."""
    if parser is None:
        from .cli.commands import build_parser

        parser = build_parser()
    lines = [HEADER.rstrip("\n")]
    helps = _helps(parser)
    for name, sub in _subparsers(parser).items():
        _verb(lines, f"worldc {name}", helps.get(name, ""), sub, 2)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys

    sys.stdout.write(render())
