"""JSON Schema (as OpenAPI 2.0/3.0/3.1 and MCP write it) read into a few shapes the language can
hold: scalars, lists of scalars, objects, arrays of objects, and `opaque` for everything else
(with the reason, which becomes a comment next to a `text` field holding JSON).

`$ref`s are internal JSON pointers (`#/components/schemas/X`, `#/definitions/X`, `#/$defs/X`, or a
pointer into another schema's properties); siblings of a `$ref` (`description`, `nullable`,
OpenAPI 3.1 and JSON Schema allow them) are merged over the target. A reference that comes back
to a schema being read (a tree of comments) becomes opaque instead of recursing."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import unquote

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
    nullable: bool = False
    description: str = ""
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


def opaque(reason: str, node: Any = None, name: str | None = None) -> Shape:
    d = node if isinstance(node, dict) else {}
    return Shape("opaque", reason=reason, description=str(d.get("description") or ""), name=name, example=d.get("example"))


SCHEMA_DIRS = ("schemas", "definitions", "$defs", "defs")


class SchemaReader:
    def __init__(self, root: Any):
        self.root = root
        self.problems: list[str] = []  # broken or external references met
        # (ref, depth) → shape: each component is read once per depth, so a spec whose schemas
        # refer to each other widely is read in linear time (shapes are never changed later)
        self._memo: dict[tuple[str, int], Shape] = {}

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

    def shape(self, node: Any, seen: tuple = (), depth: int = 0) -> Shape:
        memo = (node["$ref"], depth) if isinstance(node, dict) and len(node) == 1 and isinstance(node.get("$ref"), str) else None
        if memo is not None and memo in self._memo:
            return self._memo[memo]
        s = self._shape_of(node, seen, depth)
        if memo is not None:
            self._memo[memo] = s
        return s

    def _shape_of(self, node: Any, seen: tuple, depth: int) -> Shape:
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
        s = self._shape(target, chain, depth)
        if name and not s.name:
            s.name = name
        return s

    def _shape(self, d: dict, seen: tuple, depth: int) -> Shape:
        nullable = bool(d.get("nullable") or d.get("x-nullable"))
        notes = []
        if "allOf" in d and isinstance(d["allOf"], list):
            s = self._all_of(d, seen, depth)
        elif any(k in d and isinstance(d[k], list) for k in ("oneOf", "anyOf")):
            s = self._one_of(d, seen, depth)
        else:
            s = self._plain(d, seen, depth)
        s = replace(s, props=dict(s.props), required=set(s.required), notes=list(s.notes))  # a part may be a memoised shape
        s.nullable = s.nullable or nullable
        if nullable:
            notes.append("nullable")
        s.description = s.description or str(d.get("description") or d.get("title") or "")
        if "example" in d and s.example is None:
            s.example = d["example"]
        elif isinstance(d.get("examples"), list) and d["examples"] and s.example is None:
            s.example = d["examples"][0]
        s.readonly = s.readonly or bool(d.get("readOnly"))
        s.writeonly = s.writeonly or bool(d.get("writeOnly"))
        if "default" in d and s.default is None:
            s.default = d["default"]
        s.notes = notes + s.notes
        return s

    def _plain(self, d: dict, seen: tuple, depth: int) -> Shape:
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
                return opaque(f"one of the types {', '.join(map(str, kinds))}", d)
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
                return opaque("any value (no type)", d)
        if t == "object":
            props = d.get("properties")
            if not isinstance(props, dict) or not props:
                ap = d.get("additionalProperties")
                why = "a free-form object (a map of names to values)" if ap not in (None, False) else "an object with no declared properties"
                return opaque(why, d)
            s = Shape("object", nullable=nullable, notes=notes)
            req = d.get("required")
            s.required = {str(r) for r in req} if isinstance(req, list) else set()
            for pname, pnode in props.items():
                if isinstance(pname, str) and pname.strip():
                    s.props[pname] = self.shape(pnode, seen, depth + 1)
            return s
        if t == "array":
            items = d.get("items")
            if isinstance(items, list):  # tuple form (draft 4)
                return opaque("a tuple array", d)
            inner = self.shape(items if items is not None else {}, seen, depth + 1)
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
        return opaque(f"the type {t!r}", d)

    def _all_of(self, d: dict, seen: tuple, depth: int) -> Shape:
        parts = [self.shape(p, seen, depth) for p in d["allOf"]]
        rest = {k: v for k, v in d.items() if k != "allOf"}
        if rest.get("properties") or rest.get("type") not in (None,):
            parts.append(self._plain(rest, seen, depth))
        objects = [p for p in parts if p.kind == "object"]
        typed = [p for p in parts if p.kind != "opaque" or p.reason.startswith("any value")]
        others = [p for p in parts if p.kind != "object" and not (p.kind == "opaque" and p.reason.startswith("any value"))]
        if objects and not others:
            s = Shape("object", notes=["allOf merged: the fields of every part"])
            for p in objects:
                s.props.update(p.props)
                s.required |= p.required
                s.name = s.name or p.name
            return s
        if len(typed) == 1 and typed[0].kind != "opaque":
            return typed[0]
        scalars = [p for p in parts if p.kind == "scalar"]
        if scalars and len(scalars) == len([p for p in parts if p.kind != "opaque"]) and len({p.type for p in scalars}) == 1:
            return scalars[0]
        return opaque("an allOf whose parts cannot be merged", d)

    def _one_of(self, d: dict, seen: tuple, depth: int) -> Shape:
        key = "oneOf" if isinstance(d.get("oneOf"), list) else "anyOf"
        raw = d[key]
        parts = []
        nullable = False
        for p in raw:
            s = self.shape(p, seen, depth)
            if s.kind == "opaque" and s.reason == "always null":
                nullable = True
                continue
            parts.append(s)
        if not parts:
            return opaque(f"a {key} of nothing but null", d)
        rest = {k: v for k, v in d.items() if k not in ("oneOf", "anyOf")}
        if len(parts) == 1:
            s = replace(parts[0], props=dict(parts[0].props), notes=list(parts[0].notes))
            if rest.get("properties") and s.kind == "object":
                s.props.update(self._plain({**rest, "type": "object"}, seen, depth).props)
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
            return Shape("scalar", "string", nullable=nullable, notes=[f"{key} of the types {', '.join(sorted(types))}, kept as text"])
        return opaque(f"a {key} of {len(parts)} different shapes", d)
