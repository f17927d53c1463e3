"""`worldc import openapi SPEC -o DIR` and `worldc import mcp TOOLS.json -o DIR`.

`add_parser(sub)` registers the verb on `worldc`'s subparsers; the handlers read the input,
write the `.world` files (refusing to overwrite without `--force`), run `worldc check` on the
result and print the import report on stdout. Errors follow worldc's conventions: one line
`worldc: error: ...` on stderr, exit 1 for input that is not a spec (`FILE: problem`) or an
output that does not check, 2 for bad usage; never a traceback (set WORLDC_TRACEBACK=1 to see
one for a bug in the importer)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from ..cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, _plural
from .common import OutputExists, SpecError, check_output, write_files


def add_parser(sub) -> None:
    """Register `import openapi` and `import mcp` on worldc's subparsers object."""
    imp = sub.add_parser("import", help="import an OpenAPI spec or an MCP tools/list as .world files")
    kinds = imp.add_subparsers(dest="import_kind", metavar="KIND", parser_class=type(imp))
    kinds.required = True

    o = kinds.add_parser("openapi", help="an OpenAPI 3.0/3.1 or Swagger 2.0 spec (YAML or JSON) → services, tables, tools")
    o.add_argument("spec", metavar="SPEC", help="the spec file")
    o.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write (created)")
    o.add_argument("--force", action="store_true", help="overwrite files the import writes that already exist")
    o.add_argument("--name", metavar="NAME", help="the module and service-name prefix (default: from the spec's title)")
    o.add_argument("--lists", action="store_true", help="keep arrays of scalars in tables as list fields (default: comma-separated text, which the sampler can encode)")
    o.add_argument("--format", choices=("text", "json"), default="text", help="json: the import report as one JSON object on stdout")
    o.set_defaults(func=cmd_import_openapi)

    m = kinds.add_parser("mcp", help="an MCP server's tools/list result (JSON) → simulated tools")
    m.add_argument("spec", metavar="TOOLS.json", help="the tools/list result: {\"tools\": [...]} or a list of tools")
    m.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write (created)")
    m.add_argument("--force", action="store_true", help="overwrite files the import writes that already exist")
    m.add_argument("--name", metavar="NAME", help="the service name (default: from the file name)")
    m.add_argument("--format", choices=("text", "json"), default="text", help="json: the import report as one JSON object on stdout")
    m.set_defaults(func=cmd_import_mcp)


def cmd_import_openapi(args) -> int:
    from .openapi import import_openapi

    return _run(args, lambda p: import_openapi(p, args.name, args.lists), "openapi")


def cmd_import_mcp(args) -> int:
    from .mcp import import_mcp

    return _run(args, lambda p: import_mcp(p, args.name), "mcp")


def _err(message: str) -> None:
    print(f"worldc: error: {message}", file=sys.stderr)


def _run(args, do_import, kind: str) -> int:
    spec = Path(args.spec)
    if not spec.is_file():
        _err(f"no such file: {args.spec}")
        return EXIT_USAGE
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        _err(f"{args.output} is a file, not a folder")
        return EXIT_USAGE
    t0 = time.perf_counter()
    try:
        result = do_import(spec)
    except SpecError as e:
        _err(f"{spec}: {e}")
        return EXIT_FAILED
    except RecursionError:
        _err(f"{spec}: nested too deeply to import")
        return EXIT_FAILED
    except Exception as e:  # a bug in the importer, not in the spec: still one line, no traceback
        if os.environ.get("WORLDC_TRACEBACK"):
            raise
        _err(f"{spec}: the importer failed inside ({type(e).__name__}: {e}); a bug in worldc, please report it with the spec")
        return EXIT_FAILED
    seconds = time.perf_counter() - t0
    try:
        written = write_files(out, result.files, args.force)
    except OutputExists as e:
        _err(f"not overwriting {', '.join(str(p) for p in e.paths)} (use --force)")
        return EXIT_USAGE
    except OSError as e:
        _err(f"cannot write {args.output}: {e.strerror or e}")
        return EXIT_FAILED
    t1 = time.perf_counter()
    ok, summary, diags = check_output(out / result.world_file)
    if args.format == "json":
        import json

        ops = [{"operation": o.label, "kind": o.kind, "tool": o.tool, "why": o.why} for o in result.ops]
        body = {"spec": str(spec), "title": result.title, "version": result.version, "spec_version": result.spec_version, "services": result.services, "tables": result.tables, "tools": result.tools, "operations": ops, "notes": result.notes, "files": [str(p) for p in written], "checks": ok, "check": summary, "diagnostics": diags, "import_seconds": round(seconds, 3)}
        print(json.dumps(body, indent=2, ensure_ascii=False))
    else:
        print_report(result, spec, written, ok, summary, diags, seconds, time.perf_counter() - t1, kind)
    return EXIT_OK if ok else EXIT_FAILED


def print_report(result, spec: Path, written, ok: bool, summary: str, diags: list[str], seconds: float, check_seconds: float, kind: str) -> None:
    w = sys.stdout.write
    what = f"{result.title}" + (f" {result.version}" if result.version else "") + f" ({result.spec_version})"
    w(f"imported {spec}: {what}\n")
    w(f"  {_plural(result.services, 'service')}, {_plural(result.tables, 'table')}, {_plural(result.tools, 'tool')}; import {seconds:.2f} s, check {check_seconds:.2f} s\n")
    groups = (
        ("CRUD", result.crud, False),
        ("simulated", result.simulated, True),
        ("skipped", result.skipped, True),
    )
    width = max((len(o.label) for o in result.ops), default=0)
    for title, ops, why in groups:
        w(f"\n{title} ({len(ops)}):\n")
        for o in ops:
            tail = o.tool if o.kind != "skipped" else ""
            detail = (o.kind + (f" ({o.why})" if o.why else "")) if title == "CRUD" else o.why
            w(f"  {o.label.ljust(width)}  {tail}{(': ' if tail else '') + detail if detail else ''}\n")
    if result.notes:
        w(f"\nnotes ({len(result.notes)}):\n")
        for n in result.notes:
            w(f"  {n}\n")
    w("\nfiles written:\n")
    for p in written:
        w(f"  {p}\n")
    w(f"\nworldc check: {summary}\n")
    for d in diags:
        w(d + "\n")
    if ok:
        w(f"next: cd {written[0].parent} && worldc sample --hops 3 -n 3 --seed 1\n")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    """`python -m compoworld_dsl.importers.cli openapi SPEC -o DIR`: the verb on its own, for
    use before it is wired into `worldc`."""
    from ..cli.common import _Parser

    p = _Parser(prog="worldc", description="Import an OpenAPI spec or an MCP tools/list as .world files.")
    sub = p.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    add_parser(sub)
    args = p.parse_args(["import", *(sys.argv[1:] if argv is None else argv)])
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("worldc: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
