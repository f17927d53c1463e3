"""The TextMate grammar of the VS Code extension (editors/vscode/syntaxes/world.tmLanguage.json).

Every bundled world and stdlib file is tokenized with `textmate-grammar-python` (a Python TextMate
engine) and compared, token by token, with what the project's own Lark parser makes of the same
text: each keyword Lark sees must be scoped as a keyword, each NAME must not be (a field called
`state` or `order` is a name), strings, numbers and comments must get their scopes, and every
keyword of `grammar/world.lark` must occur (in a file or in the snippets below) and pass.

The grammar nests `( )`, `{ }` and clause blocks by unrolled levels rather than by recursion:
this engine mis-scopes a region that includes itself, and VS Code's engine (vscode-textmate)
gives the same scopes to the unrolled grammar. Skipped without the package.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import re
import runpy
import tempfile
from pathlib import Path

import pytest

# The package makes a `.textmate_cache` folder in the working directory when imported.
_cwd = os.getcwd()
try:
    os.chdir(tempfile.mkdtemp(prefix="textmate-"))
    _tm = pytest.importorskip("textmate_grammar.parsers.base")
finally:
    os.chdir(_cwd)

from lark import Lark, Token  # noqa: E402

from compoworld_dsl.check.checker import BUILTINS  # noqa: E402
from compoworld_dsl.check.types import PRIMITIVES  # noqa: E402
from compoworld_dsl.resources import grammar_path, stdlib_dir  # noqa: E402
from compoworld_dsl.syntax.parser import _keyword_as_name  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GRAMMAR = ROOT / "editors" / "vscode" / "syntaxes" / "world.tmLanguage.json"
FILES = sorted((ROOT / "worlds").glob("*.world")) + sorted(stdlib_dir().rglob("*.world"))

KEYWORDISH = re.compile(r"^(keyword|storage|constant\.language)\.")
NAMEISH = re.compile(r"^(variable|entity\.name|support)\.")
NUMBER_SCOPES = {
    "INT": "constant.numeric.integer.world",
    "DECIMAL": "constant.numeric.decimal.world",
    "DATE": "constant.numeric.date.world",
    "TIME": "constant.numeric.time.world",
    "DATETIME": "constant.numeric.datetime.world",
}
NOT_KEYWORDS = {"NAME", "STRING", "COMPARE", "ADD_OP", "MUL_OP", *NUMBER_SCOPES}

# Every keyword of the language, at least once, in a place where it is one.
KEYWORD_SNIPPET = r"""
import stdlib.contacts
import "other.world"
/* a block
   comment */
type Ref = list[table[id]]
enum Kind { a, b }
pool names = ["x", -1, -2.5, true, false, a]
pool profiles = [{ name: "x", kind: a }, { name: "y", kind: b }]

service s "doc" {
  record R "row" known by name, day {
    key id: id
    name: text "label"
    kind: Kind = a
    day: date = 2025-03-14
  }
  state rs: table[R]
  state today: date = 2025-03-14
  seed rs: 1..3 rows {
    name: format("{} {}", pick(names), pick(["p", "q"]))
    kind: weighted(a: 3, b: 1)
    day: 2025-01-01..2025-03-01
  }
  seed today: same(rs.day)
  state others: table[R]
  seed others: 2 rows from profiles {
    day: 2025-01-01
    note: format("{}", slug(same(name), "-"))
    due: after(same(day), 0..30)
    met: after(same(other.day), same(day), 2025-01-06T09:00..2025-03-13T17:00)
    was: before(same(day), 1..3)
    other: unique ref rs
    again: ref rs where kind == a
    also: ref rs where kind in [a, b]
  }

  simulated tool t(n: int = 1) -> list[R]
    "doc"
    say "do {n}"
    gives "it"
    pages 5
    consumes Ref
    produces Ref
  {
    require n > 0 else not_found "x"
    require n > 1 else invalid "x"
    require n > 2 else conflict "x"
    require n > 3 else forbidden "x"
    let r = insert rs { name: "a", day: today }
    insert rs { name: "b" }
    update rs[r.id] { name: "c" }
    delete x in rs where x.name == "c"
    set today = today + days(1)
    modifies rs { name, day }
    ensures count(x in rs) >= 0 and sum(x.kind for x in rs) == 0 or not true implies false
    ensures min(x.day for x in rs) <= max(x.day for x in rs) and map(x.name for x in rs) contains "a"
    ensures exists(x in rs where x.name in ["a"]) and len(filter(x in rs by x.day)) > 0
    return [latest(x in rs by x.day), earliest(x in rs by x.day)]
  }
}

world w "doc" {
  use s, stdlib.contacts
  constraint c "doc" {
    untouched x in s.rs where x.name == "a"
    untouched s.rs
    forall x in s.rs where true {
      if x.name == "a" then { invariant x.day >= 2025-01-01 } else { invariant if true then 1 < 2 else false }
    }
    order s.t after s.t on n
  }
  rule r "doc" { forall(x in s.rs: x.kind == a) }
}
"""

# Names spelled like keywords, in every place a name may stand.
NAMES_SNIPPET = r"""
enum Status { open, closed, order, state }
type Order = text
pool seeds = [order, state]

service ledger "Names that are also keywords" {
  record Entry "entry" known by order, type {
    key id: id
    state: Status = open
    order: int = 0
    count: int
    type: text "type"
    rows: list[text]
    set: bool = false
    on: date
    after: time
    format: text
    ref: text
    pick: int
    seed: int
    use: text
    rule: text
    say: text
    status: Status = order
  }
  state entries: table[Entry]
  state order: int = 0
  seed entries: 1..3 rows {
    state: pick([open, closed])
    order: 1..9
    count: 0..5
  }

  tool set_order(order: int, state: Status = open, type: text = "x") -> Entry
    "Set an order"
    say "set the order to {order}"
  {
    require order > 0 and state != closed else invalid "bad order {order}"
    let e = insert entries { state: state, order: order, count: count(x in entries), type: type }
    set order = order + 1
    update entries[e.id] { order: order, format: format("{}", order) }
    return e
  }
}

rule ordered { forall(e in ledger.entries where e.state == open: e.order >= 0 and e.count < ledger.order) }
constraint c {
  forall e in ledger.entries where e.type == "a" {
    invariant e.order > 0
  }
  order ledger.set_order after ledger.set_order on order, state
}
"""

SNIPPETS = {"<keywords>": KEYWORD_SNIPPET, "<names>": NAMES_SNIPPET}


def lark_keywords() -> set[str]:
    """Every word the .lark grammar spells as a literal."""
    text = "\n".join(line for line in grammar_path().read_text().splitlines() if not line.lstrip().startswith("//"))
    return set(re.findall(r'"([a-z_]+)"', text))


@functools.lru_cache(maxsize=1)
def _parser():
    grammar = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    logging.getLogger("textmate_grammar").setLevel(logging.CRITICAL)
    return _tm.LanguageParser(grammar)


@functools.lru_cache(maxsize=None)
def tokenize(source: str) -> tuple[tuple[int, int, str, tuple[str, ...]], ...]:
    element = _parser().parse_string(source)
    assert element is not None, "the grammar tokenized nothing"
    return tuple((line, col, text, tuple(scopes)) for (line, col), text, scopes in element.flatten())


def scope_map(source: str) -> dict[tuple[int, int], tuple[str, ...]]:
    """(line, column) → scope stack, both 0-based, for every character the tokenizer covered."""
    out = {}
    for line, col, text, scopes in tokenize(source):
        for k in range(len(text)):
            out[(line, col + k)] = scopes
    return out


_COMMENTS: list[Token] = []


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    keep = _COMMENTS.append
    return Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        start="module",
        keep_all_tokens=True,
        maybe_placeholders=False,
        lexer_callbacks={"COMMENT": keep, "BLOCK_COMMENT": keep},
    )


def lark_tokens(source: str) -> list[Token]:
    _COMMENTS.clear()
    # as the compiler does: a keyword where only a name fits is read again as a NAME
    tree = _lark().parse(source, on_error=_keyword_as_name)
    return [*tree.scan_values(lambda v: isinstance(v, Token)), *_COMMENTS]


def _source(name: str) -> str:
    return SNIPPETS[name] if name in SNIPPETS else Path(name).read_text(encoding="utf-8")


ALL = [str(p) for p in FILES] + list(SNIPPETS)


def _id(name: str) -> str:
    return name if name in SNIPPETS else str(Path(name).relative_to(ROOT))


def test_corpus_is_there():
    assert len(FILES) > 40 and any(p.name == "vet_clinic.world" for p in FILES)


@pytest.mark.parametrize("name", ALL, ids=_id)
def test_every_character_is_tokenized(name):
    """(a) Each line tokenizes, and every non-blank character gets a scope of its own (not only
    the file's `source.world` or an enclosing `meta.*`)."""
    source = _source(name)
    scopes = scope_map(source)
    bad = []
    for i, line in enumerate(source.splitlines()):
        for j, ch in enumerate(line):
            if ch.isspace():
                continue
            stack = scopes.get((i, j))
            if stack is None or stack[-1] == "source.world" or stack[-1].startswith("meta."):
                bad.append(f"{i + 1}:{j + 1} {line.strip()!r} at {ch!r}: {stack}")
    assert not bad, "\n".join(bad[:20])


@functools.lru_cache(maxsize=None)
def check_against_lark(name: str) -> set[str]:
    """Compare the TextMate scopes with Lark's tokens; return the keywords seen."""
    source = _source(name)
    scopes = scope_map(source)
    lines = source.splitlines()
    problems, keywords = [], set()
    for tok in lark_tokens(source):
        # Lark counts from 1; a block comment may span lines, checked on its first line
        line, col = tok.line - 1, tok.column - 1
        width = len(tok.value.split("\n")[0])
        stacks = [scopes.get((line, col + k), ("<none>",)) for k in range(width)]
        inner = {s[-1] for s in stacks}
        where = f"{tok.line}:{tok.column} {tok.value.splitlines()[0][:40]!r} ({tok.type}) in {lines[line].strip()!r}"
        if tok.type in ("COMMENT", "BLOCK_COMMENT"):
            kind = "comment.line.double-slash.world" if tok.type == "COMMENT" else "comment.block.world"
            if not all(kind in s for s in stacks):
                problems.append(f"{where}: not a {kind}: {stacks[0]}")
        elif tok.type == "STRING":
            if not all("string.quoted.double.world" in s for s in stacks):
                problems.append(f"{where}: not a string: {stacks[0]}")
        elif tok.type in NUMBER_SCOPES:
            if inner != {NUMBER_SCOPES[tok.type]}:
                problems.append(f"{where}: scoped {inner}")
        elif tok.type == "NAME":
            if len(inner) != 1 or not NAMEISH.match(next(iter(inner))):
                problems.append(f"{where}: a name scoped {inner}")
        elif tok.type not in NOT_KEYWORDS and re.fullmatch(r"[a-z_]+", tok.value):
            keywords.add(tok.value)
            if len(inner) != 1 or not KEYWORDISH.match(next(iter(inner))):
                problems.append(f"{where}: a keyword scoped {inner}")
        elif not all(re.match(r"^(keyword\.operator|punctuation)\.", s) for s in inner):
            problems.append(f"{where}: an operator or punctuation scoped {inner}")
    assert not problems, f"{len(problems)} mismatches:\n" + "\n".join(problems[:25])
    return keywords


@pytest.mark.parametrize("name", ALL, ids=_id)
def test_scopes_agree_with_the_parser(name):
    """(b, c) Keywords as keywords, names never as keywords, strings, numbers and comments."""
    check_against_lark(name)


def test_every_keyword_of_the_lark_grammar_is_highlighted():
    """(d) A keyword added to world.lark fails here until the TextMate grammar scopes it."""
    expected = lark_keywords()
    assert {"service", "simulated", "key", "not_found", "weighted", "earliest"} <= expected
    seen = set().union(*(check_against_lark(name) for name in ALL))
    missing = expected - seen
    assert not missing, f"keywords never seen highlighted (add them to KEYWORD_SNIPPET and the grammar): {sorted(missing)}"
    assert seen <= expected, f"Lark keyword tokens not spelled in world.lark: {sorted(seen - expected)}"


def _scope_of(source: str, needle: str, word: str | None = None, nth: int = 0) -> tuple[str, ...]:
    """The scope stack of `word` (default: `needle`) inside the nth line containing `needle`."""
    word = word or needle
    hits = [(i, line) for i, line in enumerate(source.splitlines()) if needle in line]
    assert len(hits) > nth, f"{needle!r} not found"
    i, line = hits[nth]
    j = line.index(needle) + needle.index(word)
    return scope_map(source)[(i, j)]


def test_hand_checked_spots():
    toy = (ROOT / "worlds" / "toy.world").read_text()
    assert _scope_of(toy, "// worlds/toy.world")[-1] == "punctuation.definition.comment.world"
    assert "comment.line.double-slash.world" in _scope_of(toy, "the smallest useful world")
    assert _scope_of(toy, 'world toy "', "world")[-1] == "storage.type.world.world"
    assert _scope_of(toy, 'world toy "', "toy")[-1] == "entity.name.namespace.world.world"
    assert _scope_of(toy, "A desk worker")[-1] == "string.quoted.double.world"
    assert _scope_of(toy, "use stdlib.files", "use")[-1] == "keyword.control.import.world"
    assert _scope_of(toy, "untouched f in", "untouched")[-1].startswith("keyword.other.")
    assert _scope_of(toy, "forall(t in", "forall")[-1] == "keyword.other.quantifier.world"
    assert _scope_of(toy, "t.state != done", "state")[-1] == "variable.other.property.world"
    assert _scope_of(toy, "t.state != done", "done")[-1] == "variable.other.world"
    assert _scope_of(toy, "2025-03-31")[-1] == "constant.numeric.date.world"

    vet = (ROOT / "worlds" / "vet_clinic.world").read_text()
    assert _scope_of(vet, "type OwnerId = id", "type")[-1] == "storage.type.type.world"
    assert _scope_of(vet, "type OwnerId = id", "OwnerId")[-1] == "entity.name.type.alias.world"
    assert _scope_of(vet, "type OwnerId = id", "id")[-1] == "support.type.primitive.world"
    assert _scope_of(vet, "enum Species {", "Species")[-1] == "entity.name.type.enum.world"
    assert _scope_of(vet, "enum Species { dog", "dog")[-1] == "variable.other.enummember.world"
    assert _scope_of(vet, 'record Owner "client" known by name', "known")[-1] == "keyword.other.known.world"
    assert _scope_of(vet, "key id: OwnerId", "key")[-1] == "storage.modifier.key.world"
    assert _scope_of(vet, "key id: OwnerId", "id")[-1] == "variable.other.member.world"
    assert _scope_of(vet, "key id: OwnerId", "OwnerId")[-1] == "entity.name.type.world"
    assert _scope_of(vet, "state owners: table[Owner]", "table")[-1] == "storage.type.collection.world"
    assert _scope_of(vet, "seed owners: 5..8 rows", "8")[-1] == "constant.numeric.integer.world"
    assert _scope_of(vet, "seed owners: 5..8 rows", "..")[-1] == "keyword.operator.range.world"
    assert _scope_of(vet, "seed owners: 5..8 rows", "rows")[-1] == "keyword.other.rows.world"
    assert _scope_of(vet, "seed owners: 5..8 rows from", "from")[-1] == "keyword.other.rows.world"
    assert _scope_of(vet, 'email: format("{}@{}", slug(', "format")[-1] == "keyword.other.generator.world"
    assert _scope_of(vet, 'email: format("{}@{}", slug(', "{}")[-1] == "constant.other.placeholder.world"
    assert _scope_of(vet, 'email: format("{}@{}", slug(', "slug")[-1] == "keyword.other.generator.world"
    assert _scope_of(vet, "tool get_owner(id", "get_owner")[-1] == "entity.name.function.tool.world"
    assert _scope_of(vet, "tool get_owner(id", "id")[-1] == "variable.parameter.world"
    assert _scope_of(vet, 'say "look up client {id}"', "say")[-1] == "keyword.other.world"
    line = "require id in owners else not_found"
    assert _scope_of(vet, line, "require")[-1] == "keyword.control.world"
    assert _scope_of(vet, line, "not_found")[-1] == "constant.language.error-kind.world"
    assert _scope_of(vet, "lower(o.name) contains", "lower")[-1] == "support.function.builtin.world"
    assert _scope_of(vet, "lower(o.name) contains", "contains")[-1] == "keyword.operator.word.world"
    assert _scope_of(vet, 'dose: "1 capsule twice daily", controlled: false', "false")[-1] == "constant.language.boolean.world"

    esc = 'rule r { "a\\"b\\u00e9\\q" == "x" }\n'
    assert _scope_of(esc, '\\"')[-1] == "constant.character.escape.world"
    assert _scope_of(esc, "\\u00e9")[-1] == "constant.character.escape.world"
    assert _scope_of(esc, "\\q")[-1] == "invalid.illegal.escape.world"
    assert _scope_of(esc, '"x"', "x")[-1] == "string.quoted.double.world"


def test_builtin_functions_and_primitive_types():
    """The checker's built-ins and primitive types, each where it stands."""
    calls = " and ".join(f"{name}(x) == x" for name in sorted(BUILTINS))
    fields = "\n".join(f"    f{k}: {prim}" for k, prim in enumerate(PRIMITIVES))
    source = f"service s {{\n  record R {{\n{fields}\n  }}\n}}\nrule r {{ {calls} }}\n"
    lark_tokens(source)  # the snippet is valid syntax
    for name in BUILTINS:
        assert _scope_of(source, f" {name}(x)", name)[-1] == "support.function.builtin.world", name
    for k, prim in enumerate(PRIMITIVES):
        assert _scope_of(source, f"f{k}: {prim}", prim)[-1] == "support.type.primitive.world", prim


def test_grammar_json_is_built_from_build_grammar_py():
    """The JSON is generated (nesting is unrolled); edit build_grammar.py and run it."""
    build = runpy.run_path(str(ROOT / "editors" / "vscode" / "build_grammar.py"), run_name="build_grammar")
    assert GRAMMAR.read_text(encoding="utf-8") == build["render"](), "run python editors/vscode/build_grammar.py"


def test_extension_manifest_points_at_the_grammar():
    ext = ROOT / "editors" / "vscode"
    manifest = json.loads((ext / "package.json").read_text())
    (grammar,) = manifest["contributes"]["grammars"]
    assert grammar["scopeName"] == json.loads(GRAMMAR.read_text())["scopeName"] == "source.world"
    assert (ext / grammar["path"]).resolve() == GRAMMAR
    (lang,) = manifest["contributes"]["languages"]
    assert lang["id"] == grammar["language"] == "world" and lang["extensions"] == [".world"]
    assert (ext / lang["configuration"]).is_file() and (ext / manifest["main"]).is_file()
    config = json.loads((ext / lang["configuration"]).read_text())
    assert config["comments"] == {"lineComment": "//", "blockComment": ["/*", "*/"]}
