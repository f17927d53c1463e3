"""Writes syntaxes/world.tmLanguage.json, the TextMate grammar of `.world` files.

Edit this file, not the JSON, then run `python editors/vscode/build_grammar.py` (any Python 3.9+,
no packages): nesting of ( ), { } and clause blocks is unrolled to fixed depths (a region that
includes itself is mis-scoped by the Python TextMate engine the tests use), so the JSON repeats
the expression rules once per level. tests/test_textmate.py checks the JSON is this output.
"""

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent / "syntaxes" / "world.tmLanguage.json"

N = r"[A-Za-z_][A-Za-z0-9_]*"
DOTTED = rf"{N}(?:\s*\.\s*{N})*"
INFIX = r"(?:and|or|not|in|contains|implies|where|by|then|else|for|after|on)\b"
PRIMS = "text|int|decimal|money|bool|date|time|datetime|email|id|duration"
BUILTINS = "lower|upper|trim|len|starts_with|ends_with|str|format|abs|days|weeks|hours|minutes|date|days_between|year|month|day"
ENDCLAUSE = r'(?=["{}]|\b(?:say|gives|pages|consumes|produces)\b|//|/\*)'


def inc(*names):
    return [{"include": f"#{n}"} for n in names]


def cap(*scopes):
    return {str(i + 1): {"name": s} for i, s in enumerate(scopes) if s}


def block(name, patterns, scope="meta.block.world"):
    return {
        "name": scope,
        "begin": r"\{",
        "beginCaptures": {"0": {"name": "punctuation.section.block.begin.world"}},
        "end": r"\}",
        "endCaptures": {"0": {"name": "punctuation.section.block.end.world"}},
        "patterns": patterns,
    }


repo = {}


def lvl(name, k):
    return name if k == 0 else f"{name}-{k}"

# ── lexical ─────────────────────────────────────────────────────────────
repo["comments"] = {"patterns": [
    {"name": "comment.block.world", "begin": r"/\*", "end": r"\*/",
     "beginCaptures": {"0": {"name": "punctuation.definition.comment.begin.world"}},
     "endCaptures": {"0": {"name": "punctuation.definition.comment.end.world"}}},
    {"name": "comment.line.double-slash.world", "match": r"(//).*$",
     "captures": cap("punctuation.definition.comment.world")},
]}
repo["strings"] = {"patterns": [{
    "name": "string.quoted.double.world",
    "begin": '"',
    "beginCaptures": {"0": {"name": "punctuation.definition.string.begin.world"}},
    "end": '(")|$',
    "endCaptures": {"1": {"name": "punctuation.definition.string.end.world"}},
    "patterns": [
        {"name": "constant.character.escape.world", "match": r'\\(?:["\\ntr0]|u[0-9A-Fa-f]{4})'},
        {"name": "invalid.illegal.escape.world", "match": r"\\."},
        {"name": "constant.other.placeholder.world", "match": r"\{[A-Za-z0-9_.]*\}"},
    ],
}]}
repo["numbers"] = {"patterns": [
    {"name": "constant.numeric.datetime.world", "match": r"\b[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}"},
    {"name": "constant.numeric.date.world", "match": r"\b[0-9]{4}-[0-9]{2}-[0-9]{2}"},
    {"name": "constant.numeric.time.world", "match": r"\b[0-9]{2}:[0-9]{2}"},
    {"name": "constant.numeric.decimal.world", "match": r"\b[0-9]+\.[0-9]+"},
    {"name": "constant.numeric.integer.world", "match": r"\b[0-9]+"},
]}
repo["booleans"] = {"name": "constant.language.boolean.world", "match": r"\b(?:true|false)\b"}
repo["literals"] = {"patterns": inc("strings", "numbers", "booleans")}
repo["operators"] = {"patterns": [
    {"name": "keyword.operator.range.world", "match": r"\.\."},
    {"name": "keyword.operator.arrow.world", "match": r"->"},
    {"name": "keyword.operator.comparison.world", "match": r"==|!=|<=|>=|<|>"},
    {"name": "keyword.operator.assignment.world", "match": r"="},
    {"name": "keyword.operator.arithmetic.world", "match": r"[-+*/%]"},
]}
repo["punctuation"] = {"patterns": [
    {"name": "punctuation.separator.comma.world", "match": ","},
    {"name": "punctuation.separator.key-value.world", "match": ":"},
    {"name": "punctuation.accessor.world", "match": r"\."},
    {"name": "punctuation.section.parens.begin.world", "match": r"\("},
    {"name": "punctuation.section.parens.end.world", "match": r"\)"},
    {"name": "punctuation.section.brackets.begin.world", "match": r"\["},
    {"name": "punctuation.section.brackets.end.world", "match": r"\]"},
    {"name": "punctuation.section.block.begin.world", "match": r"\{"},
    {"name": "punctuation.section.block.end.world", "match": r"\}"},
]}
repo["qualified-name"] = {
    "comment": "a.b.c: every part but the last is a namespace (a service or module)",
    "match": rf"\b({N})\s*(\.)(?!\.)",
    "captures": cap("entity.name.namespace.world", "punctuation.accessor.world"),
}

# ── types ───────────────────────────────────────────────────────────────
repo["type-expression"] = {"patterns": inc("comments") + [
    {"name": "storage.type.collection.world", "match": r"\b(?:list|table)\b(?=\s*\[)"},
    {"name": "support.type.primitive.world", "match": rf"\b(?:{PRIMS})\b(?!\s*\.)"},
    {"include": "#qualified-name"},
    {"name": "entity.name.type.world", "match": rf"\b{N}"},
    {"name": "punctuation.section.brackets.begin.world", "match": r"\["},
    {"name": "punctuation.section.brackets.end.world", "match": r"\]"},
]}
repo["default-value"] = {
    "comment": "`= open` after a field, state or parameter type: an enum member (numbers etc. are literals)",
    "match": rf"(=)\s*(?!(?:true|false)\b)({N})",
    "captures": cap("keyword.operator.assignment.world", "variable.other.enummember.world"),
}

# ── top-level declarations ───────────────────────────────────────────────
repo["import"] = {
    "name": "meta.import.world",
    "begin": r"\b(import)\b(?=\s*[A-Za-z_\"])",
    "beginCaptures": cap("keyword.control.import.world"),
    "end": "$",
    "patterns": inc("comments", "strings") + [
        {"name": "entity.name.namespace.world", "match": rf"\b{N}"},
        {"include": "#punctuation"}],
}
repo["type-declaration"] = {
    "name": "meta.type.world",
    "begin": rf"\b(type)\s+({N})\s*(=)",
    "beginCaptures": cap("storage.type.type.world", "entity.name.type.alias.world", "keyword.operator.assignment.world"),
    "end": "$",
    "patterns": inc("type-expression"),
}
repo["enum-declaration"] = {
    "name": "meta.enum.world",
    "begin": rf"\b(enum)\s+({N})",
    "beginCaptures": cap("storage.type.enum.world", "entity.name.type.enum.world"),
    "end": r"(?<=\})",
    "patterns": inc("comments") + [block("enum", inc("comments") + [
        {"name": "variable.other.enummember.world", "match": rf"\b{N}"},
        {"include": "#punctuation"},
    ])],
}
repo["pool-declaration"] = {
    "match": rf"\b(pool)\s+({N})\s*(=)",
    "captures": cap("storage.type.pool.world", "variable.other.constant.pool.world", "keyword.operator.assignment.world"),
}

# ── services ─────────────────────────────────────────────────────────────
repo["service"] = {
    "name": "meta.service.world",
    "begin": rf"\b(service)\s+({N})",
    "beginCaptures": cap("storage.type.service.world", "entity.name.namespace.service.world"),
    "end": r"(?<=\})",
    "patterns": inc("comments", "strings") + [block("service", inc(
        "comments", "record", "state", "seed", "tool", "constraint", "rule", "rows-block", "fallback"))],
}
repo["record"] = {
    "name": "meta.record.world",
    "begin": rf"\b(record)\s+({N})",
    "beginCaptures": cap("storage.type.record.world", "entity.name.type.record.world"),
    "end": r"(?<=\})",
    "patterns": inc("comments", "strings") + [
        {"begin": r"\b(known)\s+(by)\b",
         "beginCaptures": cap("keyword.other.known.world", "keyword.other.by.world"),
         "end": r'(?=[{"]|//|/\*)',
         "patterns": [{"name": "variable.other.member.world", "match": rf"\b{N}"}, {"include": "#punctuation"}]},
        block("record", inc("comments", "field-declaration"), "meta.block.record.world"),
    ],
}
repo["field-declaration"] = {"patterns": [
    {"match": rf"(?:\b(key)\s+)?\b({N})\s*(:)",
     "captures": cap("storage.modifier.key.world", "variable.other.member.world", "punctuation.separator.key-value.world")},
    {"include": "#default-value"},
    {"include": "#literals"},
    {"include": "#type-expression"},
    {"include": "#operators"},
]}
repo["state"] = {
    "name": "meta.state.world",
    "begin": rf"\b(state)\s+({N})\s*(:)",
    "beginCaptures": cap("storage.type.state.world", "variable.other.state.world", "punctuation.separator.key-value.world"),
    "end": "$",
    "patterns": inc("comments") + [
        {"comment": "`retracted when status == cancelled`: the row state that means withdrawn",
         "begin": r"\b(retracted)\s+(when|with)\b",
         "beginCaptures": cap("keyword.other.retracted.world", "keyword.other.retraction.world"),
         "end": "$",
         "patterns": inc("comments", "literals") + [
             {"match": rf"(==)\s*(?!(?:true|false)\b)({N})", "captures": cap("keyword.operator.comparison.world", "variable.other.enummember.world")},
             {"name": "variable.other.member.world", "match": rf"\b{N}"},
             {"include": "#operators"}]},
    ] + inc("default-value", "literals", "type-expression", "operators"),
}
repo["seed"] = {
    "name": "meta.seed.world",
    "begin": rf"\b(seed)\s+({N})\s*(:)",
    "beginCaptures": cap("storage.type.seed.world", "variable.other.state.world", "punctuation.separator.key-value.world"),
    "end": "$",
    "patterns": inc("comments", "rows-block", "seed-generator"),
}
repo["rows-block"] = {
    "name": "meta.rows.world",
    "begin": rf"\b(rows)(?:\s+(from)\s+({N}))?(?:\s+(distinct)\s+(by)\s+({N}(?:\s*,\s*{N})*))?\s*(\{{)",
    "beginCaptures": {
        **cap("keyword.other.rows.world", "keyword.other.rows.world", "variable.other.pool.world", "keyword.other.rows.world", "keyword.other.rows.world", None, "punctuation.section.block.begin.world"),
        # `distinct by F, G`: the fields, and the commas between them
        "6": {"patterns": [{"name": "variable.other.member.world", "match": rf"\b{N}"}, {"include": "#punctuation"}]},
    },
    "end": r"\}",
    "endCaptures": {"0": {"name": "punctuation.section.block.end.world"}},
    "patterns": inc("comments") + [
        {"match": rf"\b({N})\s*(:)", "captures": cap("variable.other.member.world", "punctuation.separator.key-value.world")},
        {"include": "#seed-generator"},
    ],
}
SEED_DEPTH = 4
for k in range(SEED_DEPTH + 1):
  repo[lvl("seed-generator", k)] = {"patterns": inc("comments", "literals") + [
    {"name": "meta.weighted.world",
     "begin": r"\b(weighted)\s*(\()",
     "beginCaptures": cap("keyword.other.generator.world", "punctuation.section.parens.begin.world"),
     "end": r"\)",
     "endCaptures": {"0": {"name": "punctuation.section.parens.end.world"}},
     "patterns": inc("comments", "literals") + [
         {"match": rf"\b({N})\s*(?=:)", "captures": cap("variable.other.enummember.world")},
         {"include": "#operators"}, {"include": "#punctuation"}]},
    {"match": r"\b(pick|same|format|slug|after|before)\s*(?=\()", "captures": cap("keyword.other.generator.world")},
    {"match": r"\b(unique)\s+(?=ref\b)", "captures": cap("keyword.other.generator.world")},
    {"match": rf"\b(ref)\s+(?={N})", "captures": cap("keyword.other.generator.world")},
    {"match": r"\b(where|in)\b", "captures": cap("keyword.other.generator.world")},
  ] + ([] if k == SEED_DEPTH else [
    {"name": "meta.parens.world",
     "begin": r"\(", "beginCaptures": {"0": {"name": "punctuation.section.parens.begin.world"}},
     "end": r"\)", "endCaptures": {"0": {"name": "punctuation.section.parens.end.world"}},
     "patterns": inc(lvl("seed-generator", k + 1))},
    {"name": "meta.brackets.world",
     "begin": r"\[", "beginCaptures": {"0": {"name": "punctuation.section.brackets.begin.world"}},
     "end": r"\]", "endCaptures": {"0": {"name": "punctuation.section.brackets.end.world"}},
     "patterns": inc(lvl("seed-generator", k + 1))},
  ]) + [
    {"include": "#qualified-name"},
    {"name": "variable.other.world", "match": rf"\b{N}"},
    {"include": "#operators"},
    {"include": "#punctuation"},
]}

# ── tools ────────────────────────────────────────────────────────────────
repo["tool"] = {
    "name": "meta.tool.world",
    "begin": rf"(?:\b(simulated)\s+)?\b(tool)\s+({N})",
    "beginCaptures": cap("storage.modifier.simulated.world", "storage.type.tool.world", "entity.name.function.tool.world"),
    "end": r"(?<=\})",
    "patterns": inc("comments", "strings") + [
        {"name": "meta.parameters.world",
         "begin": r"\(", "beginCaptures": {"0": {"name": "punctuation.section.parens.begin.world"}},
         "end": r"\)", "endCaptures": {"0": {"name": "punctuation.section.parens.end.world"}},
         "patterns": inc("comments") + [
             {"match": rf"\b({N})\s*(:)", "captures": cap("variable.parameter.world", "punctuation.separator.key-value.world")},
             {"include": "#default-value"}, {"include": "#literals"}, {"include": "#type-expression"},
             {"include": "#operators"}, {"include": "#punctuation"}]},
        {"name": "meta.result.world",
         "begin": r"->", "beginCaptures": {"0": {"name": "keyword.operator.arrow.world"}},
         "end": ENDCLAUSE,
         "patterns": inc("type-expression")},
        {"match": r"\b(say|gives)\b", "name": "keyword.other.world"},
        {"match": r"\b(pages)\s+(\d+)", "captures": cap("keyword.other.world", "constant.numeric.integer.world")},
        {"begin": r"\b(consumes|produces)\b",
         "beginCaptures": {"1": {"name": "keyword.other.world"}},
         "end": ENDCLAUSE,
         "patterns": inc("comments", "qualified-name") + [
             {"name": "entity.name.type.world", "match": rf"\b{N}"}, {"include": "#punctuation"}]},
        block("tool", inc("comments", "statement", "expression"), "meta.block.tool.world"),
    ],
}
repo["statement"] = {"patterns": [
    {"match": r"\b(require|return)\b", "name": "keyword.control.world"},
    {"match": r"\b(ensures)\b", "name": "keyword.other.ensures.world"},
    {"match": rf"\b(let)\s+({N})\s*(?==)",
     "captures": cap("storage.type.let.world", "variable.other.world")},
    {"match": rf"\b(set)\s+({N})\s*(?==)",
     "captures": cap("keyword.other.set.world", "variable.other.state.world")},
    {"match": rf"\b(insert|update|delete|modifies)\s+(?!{INFIX})({N})",
     "captures": {"1": {"name": "keyword.other.world"}, "2": {"name": "variable.other.state.world"}}},
]}

# ── constraints, rules, worlds ────────────────────────────────────────────
repo["constraint"] = {
    "name": "meta.constraint.world",
    "begin": rf"\b(constraint)\s+({N})",
    "beginCaptures": cap("storage.type.constraint.world", "entity.name.function.constraint.world"),
    "end": r"(?<=\})",
    "patterns": inc("comments", "strings", "clause-block"),
}
CLAUSE_DEPTH = 8  # nesting of clause blocks (forall { if ... then { ... } })
for k in range(CLAUSE_DEPTH + 1):
    inner = [lvl("clause-block", k + 1)] if k < CLAUSE_DEPTH else []
    repo[lvl("clause-block", k)] = block("clauses", inc("comments", "clause", *inner, "expression"), "meta.block.constraint.world")
repo["clause"] = {"patterns": [
    {"match": rf"\b(untouched|forall)\s+({N})\s+(in)\b",
     "captures": {"1": {"name": "keyword.other.world"}, "2": {"name": "variable.other.world"},
                  "3": {"name": "keyword.operator.word.world"}}},
    {"match": r"\b(untouched)\b", "name": "keyword.other.untouched.world"},
    {"match": r"\b(invariant)\b", "name": "keyword.other.invariant.world"},
    {"name": "meta.order.world",
     "begin": rf"\b(order)(?=\s+{DOTTED}\s+after\b)",
     "beginCaptures": cap("keyword.other.order.world"),
     "end": r"(?=\}|//|/\*)|$",
     "patterns": [
         {"match": r"\b(after|on)\b", "name": "keyword.other.world"},
         {"include": "#qualified-name"},
         {"match": rf"(?<=\.)\s*({N})", "captures": cap("entity.name.function.tool.world")},
         {"match": rf"\b{N}", "name": "variable.other.member.world"},
         {"include": "#punctuation"}]},
]}
repo["rule"] = {
    "name": "meta.rule.world",
    "begin": rf"\b(rule)\s+({N})",
    "beginCaptures": cap("storage.type.rule.world", "entity.name.function.rule.world"),
    "end": r"(?<=\})",
    "patterns": inc("comments", "strings") + [block("rule", inc("comments", "expression"), "meta.block.rule.world")],
}
repo["world"] = {
    "name": "meta.world.world",
    "begin": rf"\b(world)\s+({N})",
    "beginCaptures": cap("storage.type.world.world", "entity.name.namespace.world.world"),
    "end": r"(?<=\})",
    "patterns": inc("comments", "strings") + [block("world", inc("comments", "use", "constraint", "rule", "fallback"), "meta.block.world.world")],
}
repo["use"] = {
    "name": "meta.use.world",
    "begin": r"\b(use)\b",
    "beginCaptures": cap("keyword.control.import.world"),
    "end": r"(?=\}|\b(?:use|constraint|rule)\b)",
    "patterns": inc("comments") + [
        {"name": "entity.name.namespace.world", "match": rf"\b{N}"},
        {"include": "#punctuation"}],
}

# ── expressions ──────────────────────────────────────────────────────────
EXPR_DEPTH = 8  # nesting of ( ) and { } inside an expression that gets full highlighting


for k in range(EXPR_DEPTH + 1):
    deeper = k < EXPR_DEPTH
    repo[lvl("expression", k)] = {"patterns": [
        {"match": rf"\b({N})\s*(?=:)", "captures": cap("variable.other.member.world")},
        {"include": "#" + lvl("expression-core", k)}]}
    nested = []
    if deeper:
        nested = [
            {"name": "meta.forall.world",
             "comment": "forall(x in xs where cond: body): the name before `:` is a variable, not a field",
             "begin": r"\b(forall)\s*(\()",
             "beginCaptures": cap("keyword.other.quantifier.world", "punctuation.section.parens.begin.world"),
             "end": r"\)", "endCaptures": {"0": {"name": "punctuation.section.parens.end.world"}},
             "patterns": inc(lvl("expression-core", k + 1))},
            {"name": "meta.parens.world",
             "begin": r"\(", "beginCaptures": {"0": {"name": "punctuation.section.parens.begin.world"}},
             "end": r"\)", "endCaptures": {"0": {"name": "punctuation.section.parens.end.world"}},
             "patterns": inc(lvl("expression", k + 1))},
            {"name": "meta.block.world",
             "begin": r"\{", "beginCaptures": {"0": {"name": "punctuation.section.block.begin.world"}},
             "end": r"\}", "endCaptures": {"0": {"name": "punctuation.section.block.end.world"}},
             "patterns": inc(lvl("expression", k + 1))},
        ]
    repo[lvl("expression-core", k)] = {"patterns": inc("comments", "literals") + nested + inc("expression-words")}
repo["expression-words"] = {"patterns": [
    {"match": r"\b(else)\s+(not_found|invalid|conflict|forbidden)\b",
     "captures": cap("keyword.control.else.world", "constant.language.error-kind.world")},
    {"match": r"\b(if|then|else)\b", "name": "keyword.control.conditional.world"},
    {"match": r"\b(forall|exists)\b(?=\s*\()", "name": "keyword.other.quantifier.world"},
    {"match": r"\b(count|filter|latest|earliest|sum|min|max|map)\b(?=\s*\()", "name": "keyword.other.aggregate.world"},
    {"match": r"\b(and|or|not|implies)\b", "name": "keyword.operator.logical.world"},
    {"match": r"\b(in|contains)\b", "name": "keyword.operator.word.world"},
    {"match": r"\b(where|by|for)\b", "name": "keyword.other.world"},
    {"match": rf"\b(?:{BUILTINS})\b(?=\s*\()", "name": "support.function.builtin.world"},
    {"match": r"\b[A-Z][A-Za-z0-9_]*\b(?=\s*\()", "name": "entity.name.type.world"},
    {"match": rf"\b{N}(?=\s*\()", "name": "variable.function.world"},
    {"match": rf"(\.)\s*({N})", "captures": cap("punctuation.accessor.world", "variable.other.property.world")},
    {"name": "variable.other.world", "match": rf"\b{N}"},
    {"include": "#operators"},
    {"include": "#punctuation"},
]}
repo["fallback"] = {
    "comment": "Anything else that may stand in a file: pool lists, stray tokens of an unfinished edit",
    "patterns": inc("literals") + [
        {"name": "variable.other.world", "match": rf"\b{N}"},
        {"include": "#operators"}, {"include": "#punctuation"}]}

grammar = {
    "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
    "name": "World",
    "scopeName": "source.world",
    "fileTypes": ["world"],
    "patterns": inc("comments", "import", "type-declaration", "enum-declaration", "pool-declaration",
                    "service", "world", "constraint", "rule", "fallback"),
    "repository": repo,
}


def render() -> str:
    return json.dumps(grammar, indent=2) + "\n"


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.write_text(render(), encoding="utf-8")
    print(f"wrote {out}")
