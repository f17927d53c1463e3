"""docs/cli.md is generated from worldc's parser and must match it; every verb's help has
examples and shows its defaults."""

from pathlib import Path

from compoworld_dsl.cli.commands import build_parser
from compoworld_dsl.clidoc import _subparsers, render

ROOT = Path(__file__).resolve().parent.parent


def test_docs_cli_md_is_what_the_parser_says():
    assert (ROOT / "docs" / "cli.md").read_text(encoding="utf-8") == render(), "regenerate: python -m compoworld_dsl.clidoc > docs/cli.md"


def test_every_verb_has_examples_and_its_options_show_defaults():
    verbs = _subparsers(build_parser())
    assert {"check", "sample", "eval", "export", "serve", "completion"} <= set(verbs)
    for name, verb in verbs.items():
        assert verb.epilog and f"worldc {name}" in verb.epilog, f"worldc {name} --help has no example"
        help_text = verb.format_help()
        formatter = verb._get_formatter()
        for action in verb._actions:
            if action.option_strings and action.default not in (None, False, "==SUPPRESS==") and action.help:
                assert "default" in formatter._get_help_string(action), (name, action.dest)
        assert "examples:" in help_text
