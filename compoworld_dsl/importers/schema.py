"""JSON Schema (as OpenAPI 2.0/3.0/3.1 and MCP write it) read into a few shapes the language can
hold: scalars, lists of scalars, objects, arrays of objects, and `opaque` for everything else
(with the reason, which becomes a comment next to a `text` field holding JSON).

`$ref`s are internal JSON pointers (`#/components/schemas/X`, `#/definitions/X`, `#/$defs/X`, or a
pointer into another schema's properties); siblings of a `$ref` (`description`, `nullable`,
OpenAPI 3.1 and JSON Schema allow them) are merged over the target. A reference that comes back
to a schema being read (a tree of comments) becomes opaque instead of recursing.

Each schema a reference names is read once per depth, with or without siblings, so a spec whose
schemas refer to each other widely (a oneOf of two references, each to a oneOf of two, ...) is
read in time linear in its size; the budget's steps, depth and pointers bound the rest."""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import unquote

from ..vocab import norm
from .common import KEY_NAMES, Budget, SpecError, pointer, words

MAX_DEPTH = 8  # object nesting read at most; deeper becomes opaque


class Unsupported(Exception):
    pass


@dataclass
class Shape:
    kind: str  # scalar | object | array | opaque
    type: str = ""  # scalar: string integer number boolean
    format: str = ""
    enum: list | None = None
    example: Any = None
    # every example the spec gives (a parameter's `examples` map, the values its description
    # shows after "e.g." or "Examples:"), `example` first; [] where it gives one or none
    examples: list = field(default_factory=list)
    nullable: bool = False
    description: str = ""
    # the description an allOf's other part gives beside this one (AWS: `allOf: [{$ref: T},
    # {description}]`): what the property is, kept apart from `description` (the type's own),
    # which labels, names and seeds read (read so, it changed how 80 records of 40 AWS specs
    # were known, most for the worse); only a key parameter's reading takes it (`_said_key`)
    aside: str = ""
    readonly: bool = False
    writeonly: bool = False
    default: Any = None
    minimum: Any = None
    maximum: Any = None
    props: dict[str, Shape] = field(default_factory=dict)
    required: set[str] = field(default_factory=set)
    items: Shape | None = None
    name: str | None = None  # the component it came from
    reason: str = ""  # opaque: why
    notes: list[str] = field(default_factory=list)  # choices made while reading (merged allOf, nullable)
    at: Any = field(default="#", compare=False, repr=False)  # where it was read (common.pointer)


def opaque(reason: str, node: Any = None, name: str | None = None) -> Shape:
    d = node if isinstance(node, dict) else {}
    return Shape("opaque", reason=reason, description=str(d.get("description") or ""), name=name, example=d.get("example"))


SCHEMA_DIRS = ("schemas", "definitions", "$defs", "defs")
MERGED = "allOf merged: the fields of every part"
# the note of an object that declares it has no properties (`"properties": {}`): a request body
# of it says nothing (Google's `PauseJobRequest`), so no argument stands for it
NO_PROPERTIES = "declares no properties"  # the note of a shape merged from an allOf's parts
# the note of a request body with no schema and no example, or an empty one (Okta's lifecycle
# calls: `text/plain`, `example: ""`): what it holds is not said, so no argument stands for it
# (a task said "unsuspend user ... with body "Daniel"")
SAYS_NOTHING = "has no schema and no example"
# bases that only say an object is an object of the API (Azure's resources, an entity)
GENERIC_BASES = frozenset({"resource", "subresource", "proxyresource", "trackedresource", "azureresource", "baseresource", "armresource", "entity", "baseentity", "base", "object", "baseobject", "model", "basemodel"})


# the words a generic base's name is made of besides its noun (Azure's `GenericResource`,
# `AzureEntityResource`, `TopLevelTrackedResource`)
GENERIC_WORDS = frozenset("generic base common tracked proxy azure arm top level nested extension sub entity".split())


def _described(chosen: Shape, parts: list[Shape]) -> Shape:
    """The one part of an allOf that gives it a shape, with the description another part gives
    beside it as its `aside`: AWS describes each property so (`allOf: [{$ref: SecretIdType},
    {description: "The ARN or name of the secret."}]`), and the type it refers to says nothing
    of what this property holds."""
    said = next((p.description for p in parts if p is not chosen and p.kind == "opaque" and p.description), "")
    return replace(chosen, aside=said) if said else chosen  # a copy: the part is shared


_VIEW_SUFFIXES = {"Update", "Create", "Patch", "Input", "Request", "Params", "Base", "Core", "Fields", "Common", "Attributes", "Props", "Data", "In", "Out"}


def _a_kind_of(name: str, base: str) -> bool:
    """Is `name` a kind of `base` (the same last word: `AppResource`, `ProxyResource`; `Pet`,
    `NewPet`), or `base` no more than a generic base (`Resource`, `Entity`; `GenericResource`,
    of which Azure's managed `Application` and `ApplicationDefinition` are both kinds)?"""
    parts = words(base).lower().split()
    generic = bool(parts) and norm(parts[-1]) in GENERIC_BASES and all(w in GENERIC_WORDS for w in parts[:-1])
    # or the thing's own request view (`LegalEntity` is `allOf: [LegalEntityUpdate, {...}]`:
    # Storecove's legal entities were "legal entity updates", a fresh draw of stop 71)
    view = base.startswith(name) and base[len(name):] in _VIEW_SUFFIXES
    return base.lower().replace("_", "") in GENERIC_BASES or generic or view or words(name).split()[-1:] == words(base).split()[-1:]


# The keys that decide a schema's shape; the others (description, nullable, readOnly, example,
# default, x-...) only annotate it, so a `$ref` whose siblings are all annotations is its
# target's shape with them laid over, and the target is read once for every such use.
STRUCTURAL = frozenset("$ref type const enum properties items format pattern minLength maxLength minimum maximum additionalProperties required allOf oneOf anyOf".split())


# a .NET JSON date, milliseconds since 1970 ("/Date(322560000000+0000)/"): Xero's payroll and
# accounting APIs mark theirs `x-is-msdate`
# how a description starts the values it shows: "e.g.", "for example", "Examples:" (SportsData:
# 'Year of the season.<br>Examples: <code>2015</code>, <code>2016</code>.')
_EXAMPLES_INTRO = re.compile(r"\b(?:e\.\s?g\.?|for example|for instance)\s*[:,]?\s*|(?:^|(?<=[.>\n])\s*|(?<=<br>))examples?\s*:?\s*|\bexamples?(?: values?)?(?: include| are| is)?\s*:\s*", re.I)
# one value it shows: in <code>, backticks or quotes, or a bare code ("C-00000307")
_SHOWN = re.compile(r"<code>\s*([^<>]{1,60}?)\s*</code>|`([^`]{1,60})`|\"([^\"]{1,60})\"|(?<!\w)'([^'\s][^']{0,58})'(?!\w)|([A-Za-z0-9](?:[\w:/+@#-]|\.(?=\w))*)")
_BETWEEN = re.compile(r"\s*(?:,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+|\s*/\s*|\s*\|\s*)")
_ETC = re.compile(r"etc\b\.?|and so on|\.\.\.|…", re.I)
_LIST_END = re.compile(rf"(?:\s*,?\s*(?:{_ETC.pattern}))?\s*(?:[.;!?)\]]|<br|\n|$)")
# a template, not a value: `projects/PROJECT_ID/topics/TOPIC_ID`, `{id}`, "XXXXXXXXX54321"
_TEMPLATE = re.compile(r"[{}<>*]|XXX|/[A-Z][A-Z0-9]*_[A-Z0-9_]*(?:/|$)|^[A-Z][A-Z0-9]*_[A-Z0-9_]*/|\.\.\.")


def said_examples(description: str) -> list[str]:
    """The values a description shows as examples of a text: `Examples: <code>MIA</code>,
    <code>PHI</code>.` gives ["MIA", "PHI"], "e.g. C-00000307." gives ["C-00000307"]. Read as
    a list and nothing else: each value in <code>, backticks or quotes, or a bare code without
    spaces, joined by commas, "or" or "and", and the list must end the sentence (so "For example,
    to update the left margin, set ..." shows nothing, nor "e.g. Data Steward"). Templates
    (`projects/PROJECT_ID/...`) are no values. [] when it shows none.

    Before, a field whose description showed its values was seeded from its name: SportsData's
    teams, which its 35 specs say are "The abbreviation of the requested team. Examples: MIA,
    PHI", were "Harbor team", and its seasons "season 40" (a fresh draw, stop 66)."""
    text = description or ""
    for m in _EXAMPLES_INTRO.finditer(text):
        at, got, bare = m.end(), [], False
        while (v := _SHOWN.match(text, at)) is not None:
            bare = bare or v.group(5) is not None
            got.append(next(g for g in v.groups() if g is not None).strip().strip('"').strip())
            at = v.end()
            sep = _BETWEEN.match(text, at)
            if sep is None or sep.end() == at or _ETC.match(text, sep.end()) or _SHOWN.match(text, sep.end()) is None:
                break
            at = sep.end()
        if not got or _LIST_END.match(text, at) is None:
            continue  # no list, or one the sentence goes on after: not values shown
        vals = list(dict.fromkeys(got))
        if all(vals) and not any(_TEMPLATE.search(v) for v in vals):
            return vals[:12]
    return []


def unquoted(example: Any) -> Any:
    """An example written as a JSON string inside a string (GitHub's `"\\"json\\""` for a
    hook's content type) is that string: the seeds held the quotes ('pick(["\\"0\\""])')."""
    if isinstance(example, str) and len(example) > 2 and example[0] == example[-1] == '"':
        try:
            inner = json.loads(example)
        except ValueError:
            return example
        return inner if isinstance(inner, str) else example
    return example


def adopt_examples(s: Shape, description: str = "", shown: Any = None) -> None:
    """Give a text scalar with no example of its own the ones the spec shows elsewhere: an
    OpenAPI 3 parameter's `examples` map (`shown`: Azure's registry `digest` shows
    "sha256:16463e0c..." there, and was "digest 18") or its description (`said_examples`).
    Changes `s` in place; an enum, a non-text or an example of its own is left alone."""
    if s.kind != "scalar" or s.type not in ("string", "") or s.enum or s.example is not None:
        return
    vals = []
    if isinstance(shown, dict):
        for ex in shown.values():
            v = ex.get("value") if isinstance(ex, dict) else None
            if isinstance(v, (str, int, float)) and not isinstance(v, bool) and str(v).strip():
                vals.append(str(v))
    vals = list(dict.fromkeys(vals)) or said_examples(description or s.description)
    if vals:
        s.example, s.examples = vals[0], vals[:12]


_MS_DATE = re.compile(r"/Date\((-?\d+)(?:[+-]\d{4})?\)/")


def _ms_date(s: Shape, d: dict) -> Shape:
    """A text property that holds a .NET JSON date is a date, or a time where its example has
    one: Xero's pay runs were seeded with the one example for every date (a pay run's period
    started, ended and was paid on "/Date(322560000000+0000)/", a fresh draw's task)."""
    m = _MS_DATE.fullmatch(s.example) if isinstance(s.example, str) else None
    if s.kind != "scalar" or s.type != "string" or s.format or not (m or d.get("x-is-msdate") is True):
        return s
    if m is None:
        return replace(s, format="date-time")
    when = dt.datetime(1970, 1, 1) + dt.timedelta(milliseconds=int(m.group(1)))
    day = when.time() == dt.time(0) or "YYYY-MM-DD" in s.description
    return replace(s, format="date" if day else "date-time", example=when.strftime("%Y-%m-%d" if day else "%Y-%m-%dT%H:%M:%S"))


class SchemaReader:
    def __init__(self, root: Any, budget: Budget | None = None):
        self.root = root
        self.budget = budget if budget is not None else Budget()
        self.problems: list[str] = []  # broken or external references met
        # (ref, depth) → shape: each component is read once per depth, so a spec whose schemas
        # refer to each other widely is read in linear time
        self._memo: dict[tuple[str, int], Shape] = {}
        # (ref, depth) → (the target's shape before its own annotations, the target, its name,
        # where it is)
        self._bare: dict[tuple[str, int], tuple[Shape, dict, str | None, Any]] = {}
        # (ref, depth, structural siblings as JSON) → shape
        self._merged: dict[tuple[str, int, str], Shape] = {}
        self._nesting = 0  # shape() calls in progress: schemas inside schemas

    # ─── references ───

    def pointer(self, ref: str) -> Any:
        if not isinstance(ref, str):
            raise Unsupported(f"a $ref that is not a string ({ref!r})")
        if not ref.startswith("#"):
            raise Unsupported(f"external $ref {ref!r} is not followed")
        node = self.root
        path = ref[1:]
        if path in ("", "/"):
            return node
        for raw in path.lstrip("/").split("/"):
            part = unquote(raw).replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, dict) and part.isdigit() and int(part) in node:
                node = node[int(part)]  # YAML reads `200:` as a number
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise Unsupported(f"$ref {ref!r} points at nothing")
        return node

    def deref(self, node: Any, seen: tuple = ()) -> tuple[Any, str | None, tuple]:
        """Follow a chain of `$ref`s: (target with the siblings merged over it, the component
        name, the refs followed). Raises Unsupported for external, broken or circular chains."""
        name = None
        chain = seen
        hops = 0
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if ref in chain:
                raise Unsupported(f"circular $ref {ref!r}")
            hops += 1
            if hops > 64:
                raise Unsupported("a $ref chain longer than 64")
            target = self.pointer(ref)
            chain = chain + (ref,)
            parts = ref.split("/")
            if len(parts) >= 2 and parts[-2] in SCHEMA_DIRS:
                name = unquote(parts[-1])
            elif name is None and len(parts) >= 1:
                name = None
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            node = {**target, **siblings} if siblings and isinstance(target, dict) else target
        return node, name, chain

    def resolve(self, node: Any) -> Any:
        """A node with its `$ref` chain followed (parameters, responses, request bodies); the
        node itself when the chain is broken (the caller sees no schema)."""
        try:
            return self.deref(node)[0]
        except Unsupported as e:
            self.problems.append(str(e))
            return {}

    # ─── shapes ───

    def shape(self, node: Any, seen: tuple = (), depth: int = 0, at: Any = "#") -> Shape:
        """The shape of a schema node; `at` is where it is (common.pointer), for messages."""
        self.budget.spend(1, at)
        self._nesting += 1
        try:
            if self._nesting > self.budget.depth:
                raise SpecError(f"the schema at {pointer(at)} is nested more than {self.budget.depth} levels deep (properties, items, allOf, oneOf or anyOf inside each other)")
            ref = node.get("$ref") if isinstance(node, dict) else None
            if not isinstance(ref, str):
                return self._shape_of(node, seen, depth, at)
            if len(node) == 1:
                return self._target(ref, seen, depth, at)
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            if STRUCTURAL.isdisjoint(siblings):
                self._target(ref, seen, depth, at)
                bare = self._bare.get((ref, depth))
                if bare is None:  # the target is no schema object: nothing below it to read again
                    return self._shape_of(node, seen, depth, at)
                struct, target, name, where = bare
                return self._named(self._annotate(struct, {**target, **siblings}, where), name)
            try:
                key = (ref, depth, json.dumps(siblings, sort_keys=True, default=str))
            except (TypeError, ValueError):  # keys of mixed types: read it every time
                return self._shape_of(node, seen, depth, at)
            got = self._merged.get(key)
            if got is None:
                got = self._merged[key] = self._shape_of(node, seen, depth, at)
            return replace(got)  # the caller may set an example on it; others must not see that
        finally:
            self._nesting -= 1

    def _target(self, ref: str, seen: tuple, depth: int, at: Any) -> Shape:
        """The shape of `{"$ref": ref}`, read once per depth."""
        got = self._memo.get((ref, depth))
        if got is None:
            got = self._memo[(ref, depth)] = self._shape_of({"$ref": ref}, seen, depth, at, bare=True)
        return got

    def _shape_of(self, node: Any, seen: tuple, depth: int, at: Any, bare: bool = False) -> Shape:
        try:
            target, name, chain = self.deref(node, seen)
        except Unsupported as e:
            if "points at nothing" in str(e) or "external" in str(e):
                self.problems.append(str(e))
            return opaque(str(e), node)
        if depth > MAX_DEPTH:
            return opaque(f"nested more than {MAX_DEPTH} levels deep", target, name)
        if target is True or target == {}:
            return opaque("any value (the schema says nothing about it)", target, name)
        if not isinstance(target, dict):
            return opaque("a schema that is not an object", None, name)
        if len(chain) > len(seen):  # it lives where the last reference points
            at = chain[-1]
        struct = self._structure(target, chain, depth, at)
        if bare:
            self._bare[(node["$ref"], depth)] = (struct, target, name, at)
        return self._named(self._annotate(struct, target, at), name)

    @staticmethod
    def _named(s: Shape, name: str | None) -> Shape:
        """`s` named `name` where it has no name yet, or only the name its allOf merged in from
        a base that is a kind of thing rather than a thing: Azure's `AppResource` is
        `allOf: [ProxyResource, {properties}]`, an app, not a `Resource` (which every resource
        of the API would be then); a `Pet` is `allOf: [NewPet, {id}]`. A base that is a thing
        of its own keeps its name: trash nothing's `PostSearchResult` (`allOf: [Post, {...}]`)
        is a post, listed from the posts."""
        if name and (not s.name or MERGED in s.notes and _a_kind_of(name, s.name)):
            s.name = name
        return s

    def _structure(self, d: dict, seen: tuple, depth: int, at: Any) -> Shape:
        """The shape the structural keys give (STRUCTURAL), before the annotations."""
        if "allOf" in d and isinstance(d["allOf"], list):
            return self._all_of(d, seen, depth, at)
        if any(k in d and isinstance(d[k], list) for k in ("oneOf", "anyOf")):
            return self._one_of(d, seen, depth, at)
        return self._plain(d, seen, depth, at)

    @staticmethod
    def _annotate(struct: Shape, d: dict, at: Any) -> Shape:
        """A copy of `struct` read at `at` with the annotations of `d`: nullable, description,
        example, readOnly, writeOnly, default (a part's own win where it has them)."""
        nullable = bool(d.get("nullable") or d.get("x-nullable"))
        s = replace(struct, notes=(["nullable"] if nullable else []) + struct.notes, at=at)  # props are never changed once read
        s.nullable = s.nullable or nullable
        s.description = s.description or str(d.get("description") or d.get("title") or "")
        if "example" in d and s.example is None:
            s.example = unquoted(d["example"])
        elif isinstance(d.get("examples"), list) and d["examples"] and s.example is None:
            s.example = unquoted(d["examples"][0])
        adopt_examples(s)
        s.readonly = s.readonly or bool(d.get("readOnly"))
        s.writeonly = s.writeonly or bool(d.get("writeOnly"))
        if "default" in d and s.default is None:
            s.default = d["default"]
        return _ms_date(s, d)

    def _plain(self, d: dict, seen: tuple, depth: int, at: Any = "#") -> Shape:
        t = d.get("type")
        notes = []
        nullable = False
        if isinstance(t, list):  # OpenAPI 3.1 / JSON Schema: ["string", "null"]
            kinds = [x for x in t if x != "null"]
            nullable = len(kinds) < len(t)
            if nullable:
                notes.append("nullable (type list with null)")
            if len(kinds) == 1:
                t = kinds[0]
            elif kinds and all(k in ("string", "integer", "number", "boolean") for k in kinds):
                s = Shape("scalar", "string", notes=notes + [f"one of the types {', '.join(kinds)}, kept as text"], nullable=nullable)
                return s
            elif not kinds:
                return opaque("always null")
            else:
                return opaque(f"one of the types {', '.join(map(str, kinds))}")
        if "const" in d and "enum" not in d:
            d = {**d, "enum": [d["const"]]}
        if t is None:
            if "properties" in d:
                t = "object"
            elif "items" in d:
                t = "array"
            elif isinstance(d.get("enum"), list) and d["enum"]:
                vals = [v for v in d["enum"] if v is not None]
                t = "integer" if vals and all(isinstance(v, int) and not isinstance(v, bool) for v in vals) else "boolean" if vals and all(isinstance(v, bool) for v in vals) else "string"
            elif "format" in d or "pattern" in d or "minLength" in d or "maxLength" in d:
                t = "string"
            elif "minimum" in d or "maximum" in d:
                t = "number"
            elif "additionalProperties" in d:
                t = "object"
            else:
                return opaque("any value (no type)")
        if t == "object":
            props = d.get("properties")
            if not isinstance(props, dict) or not props:
                ap = d.get("additionalProperties")
                # a map whose values have a declared schema says what it holds: its examples'
                # keys are entries (Jira's project roles by name), not fields (resources.py)
                why = "a map of names to values" if isinstance(ap, dict) and ap else "a free-form object (a map of names to values)" if ap not in (None, False) else "an object with no declared properties"
                got = opaque(why)
                if isinstance(props, dict) and ap in (None, False):
                    got.notes.append(NO_PROPERTIES)  # `properties: {}`: Google's `ResumeJobRequest`
                return got
            s = Shape("object", nullable=nullable, notes=notes)
            req = d.get("required")
            s.required = {str(r) for r in req} if isinstance(req, list) else set()
            for pname, pnode in props.items():
                if isinstance(pname, str) and pname.strip():
                    s.props[pname] = self.shape(pnode, seen, depth + 1, ((at, "properties"), pname))
            return s
        if t == "array":
            items = d.get("items")
            if isinstance(items, list):  # tuple form (draft 4)
                return opaque("a tuple array")
            inner = self.shape(items if items is not None else {}, seen, depth + 1, (at, "items"))
            return Shape("array", items=inner, nullable=nullable, notes=notes)
        if t in ("string", "integer", "number", "boolean"):
            enum = d.get("enum")
            enum = [v for v in enum if v is not None] if isinstance(enum, list) else None
            fmt = str(d.get("format") or "")
            if t == "number" and fmt in ("int", "int32", "int64", "integer"):
                t = "integer"  # Postmark: `type: number, format: int`
            return Shape("scalar", t, fmt, enum or None, nullable=nullable, notes=notes, minimum=d.get("minimum"), maximum=d.get("maximum"))
        if t == "null":
            return opaque("always null")
        if t == "file":  # Swagger 2.0 form uploads
            return Shape("scalar", "string", "binary", notes=["a file upload, as text"])
        return opaque(f"the type {t!r}")

    def _all_of(self, d: dict, seen: tuple, depth: int, at: Any) -> Shape:
        parts = [self.shape(p, seen, depth, ((at, "allOf"), i)) for i, p in enumerate(d["allOf"])]
        rest = {k: v for k, v in d.items() if k != "allOf"}
        if rest.get("properties") or rest.get("type") not in (None, "object"):
            parts.append(self._plain(rest, seen, depth, at))
        # a part that only says "an object" (`{type: object}` beside the refs, Spotify's paging
        # objects) adds nothing to merge, as a part that says nothing does
        neutral = ("any value", "an object with no declared properties")
        objects = [p for p in parts if p.kind == "object"]
        typed = [p for p in parts if p.kind != "opaque" or p.reason.startswith(neutral)]
        others = [p for p in parts if p.kind != "object" and not (p.kind == "opaque" and p.reason.startswith(neutral))]
        if len(objects) == 1 and not others and len(parts) > 1:  # the rest say nothing (`others` is empty)
            # `allOf: [{$ref: CertificateAuthority}, {description: ...}]` (AWS's style for every
            # property): the one object, described. Merged, it lost its name where it has no
            # key-named field (ACM PCA's `Arn`), and its list was read as no list of its rows
            return objects[0]
        if objects and not others:
            s = Shape("object", notes=[MERGED])
            for p in objects:
                s.props.update(p.props)
                s.required |= p.required
            # the name of the first part that is a thing (it has a key of its own: trash
            # nothing's `Post`); a part with no key is a trait the object has, not what it is
            # (Codat's `CreatedDate`, `ModifiedDates`: every customer, order and payment was a
            # "created date"), and the object is then named by whatever refers to it
            s.name = next((p.name for p in objects if p.name and any(re.sub(r"[^a-z0-9]", "", k.lower()) in KEY_NAMES for k in p.props)), None)
            return s
        if len(typed) == 1 and typed[0].kind != "opaque":
            return _described(typed[0], parts)
        real = [p for p in parts if p.kind != "opaque"]
        if len(real) == 1 and len(typed) == len(parts):
            return _described(real[0], parts)  # `allOf: [{$ref: List}, {description: ...}]` (AWS's style): the list, described
        scalars = [p for p in parts if p.kind == "scalar"]
        if scalars and len(scalars) == len([p for p in parts if p.kind != "opaque"]) and len({p.type for p in scalars}) == 1:
            return scalars[0]
        return opaque("an allOf whose parts cannot be merged")

    def _one_of(self, d: dict, seen: tuple, depth: int, at: Any) -> Shape:
        key = "oneOf" if isinstance(d.get("oneOf"), list) else "anyOf"
        raw = d[key]
        parts = []
        nullable = False
        for i, p in enumerate(raw):
            s = self.shape(p, seen, depth, ((at, key), i))
            if s.kind == "opaque" and s.reason == "always null":
                nullable = True
                continue
            parts.append(s)
        if not parts:
            return opaque(f"a {key} of nothing but null")
        rest = {k: v for k, v in d.items() if k not in ("oneOf", "anyOf")}
        if len(parts) == 1:
            s = replace(parts[0], props=dict(parts[0].props), notes=list(parts[0].notes))
            if rest.get("properties") and s.kind == "object":
                s.props.update(self._plain({**rest, "type": "object"}, seen, depth, at).props)
            s.nullable = s.nullable or nullable
            s.notes.append(f"{key} of one variant" + (" or null" if nullable else ""))
            return s
        if all(p.kind == "scalar" for p in parts):
            types = {p.type for p in parts}
            if len(types) == 1:
                base = parts[0]
                enums = [p.enum for p in parts]
                enum = [v for e in enums for v in e] if all(enums) else None
                return Shape("scalar", base.type, base.format if len({p.format for p in parts}) == 1 else "", enum, nullable=nullable, notes=[f"{key} of {len(parts)} {base.type} variants"])
            # with what the text variant says of itself (GitHub's `insecure_ssl`, a string or a
            # number: its description and example "0" were lost, and a hook's config was known by
            # it, 'the insecure SSL "Cedar config"' in a fresh draw's answer, stop 70)
            said = next((p for p in parts if p.type == "string"), parts[0])
            return Shape("scalar", "string", nullable=nullable, notes=[f"{key} of the types {', '.join(sorted(types))}, kept as text"], description=said.description, example=said.example, examples=list(said.examples))
        if all(p.kind == "object" for p in parts):
            # variants of one object (intellifi's item placed `{location}` or `{location_id}`):
            # one object with every field any variant has, each optional. Opaque, an `allOf` that
            # held it could not merge, and the items were no table (issue 30)
            u = Shape("object", nullable=nullable, notes=[f"{key} of {len(parts)} object variants, merged"])
            for p in parts:
                for n, ps in p.props.items():
                    u.props.setdefault(n, ps)
            return u
        return opaque(f"a {key} of {len(parts)} different shapes")
