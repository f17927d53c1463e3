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
from ..cli.probe import print_probe, probe_json, run_probe
from .common import OutputExists, SpecError, check_output, summarize, write_files


def add_parser(sub) -> None:
    """Register `import openapi` and `import mcp` on worldc's subparsers object."""
    imp = sub.add_parser("import", help="import an OpenAPI spec or an MCP tools/list as .world files")
    kinds = imp.add_subparsers(dest="import_kind", metavar="KIND", parser_class=type(imp))
    kinds.required = True

    o = kinds.add_parser("openapi", help="an OpenAPI 3.0/3.1 or Swagger 2.0 spec (YAML or JSON) → services, tables, tools")
    o.add_argument("spec", metavar="SPEC", help="the spec file, or a folder of specs: each becomes a module of one library, with one world using them all")
    o.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write (created)")
    o.add_argument("--force", action="store_true", help="overwrite files the import writes that already exist")
    o.add_argument("--name", metavar="NAME", help="the module and service-name prefix (default: from the spec's title)")
    o.add_argument("--lists", action="store_true", help="keep arrays of scalars in tables as list fields (default: comma-separated text, which the sampler can encode)")
    o.add_argument("--format", choices=("text", "json"), default="text", help="json: the import report as one JSON object on stdout")
    o.add_argument("--no-probe", action="store_true", help="skip the lint and the trial sampling the report ends with (whether the result gives tasks, and why not)")
    o.set_defaults(func=cmd_import_openapi)

    m = kinds.add_parser("mcp", help="an MCP server's tools/list result (JSON) → simulated tools")
    m.add_argument("spec", metavar="TOOLS.json", help="the tools/list result: {\"tools\": [...]} or a list of tools")
    m.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write (created)")
    m.add_argument("--force", action="store_true", help="overwrite files the import writes that already exist")
    m.add_argument("--name", metavar="NAME", help="the service name (default: from the file name)")
    m.add_argument("--format", choices=("text", "json"), default="text", help="json: the import report as one JSON object on stdout")
    m.add_argument("--no-probe", action="store_true", help="skip the lint and the trial sampling the report ends with (whether the result gives tasks, and why not)")
    m.set_defaults(func=cmd_import_mcp)


def cmd_import_openapi(args) -> int:
    from .openapi import import_openapi

    if Path(args.spec).is_dir():
        return run_library(args)
    return _run(args, lambda p: import_openapi(p, args.name, args.lists), "openapi")


def cmd_import_mcp(args) -> int:
    from .mcp import import_mcp

    return _run(args, lambda p: import_mcp(p, args.name), "mcp")


def _err(message: str) -> None:
    print(f"worldc: error: {message}", file=sys.stderr)


def _write(out: Path, files: dict, args) -> tuple[list | None, int]:
    """`write_files` with the import verbs' errors said: (paths written, EXIT_OK), or (None, the
    exit status) when a file is there already without --force, or cannot be written."""
    try:
        return write_files(out, files, args.force), EXIT_OK
    except OutputExists as e:
        shown = ", ".join(str(p) for p in e.paths[:3]) + (f" and {len(e.paths) - 3} more" if len(e.paths) > 3 else "")
        _err(f"not overwriting {shown} (use --force)")
        return None, EXIT_USAGE
    except OSError as e:
        _err(f"cannot write {args.output}: {e.strerror or e}")
        return None, EXIT_FAILED


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
    written, code = _write(out, result.files, args)
    if written is None:
        return code
    t1 = time.perf_counter()
    ok, summary, diags = check_output(out / result.world_file)
    check_seconds = time.perf_counter() - t1
    found = run_probe(args, out / result.world_file) if ok else None
    if args.format == "json":
        import json

        ops = [{"operation": o.label, "kind": o.kind, "tool": o.tool, "why": o.why} for o in result.ops]
        body = {"spec": str(spec), "title": result.title, "version": result.version, "spec_version": result.spec_version, "services": result.services, "tables": result.tables, "tools": result.tools, "operations": ops, "notes": result.notes, "files": [str(p) for p in written], "checks": ok, "check": summary, "diagnostics": diags, "import_seconds": round(seconds, 3), "probe": probe_json(found), "proposed_rules": [{"rule": f"{r.service}.{r.name}", "description": r.description, "why": r.why} for r in getattr(result, "rules", [])]}
        print(json.dumps(body, indent=2, ensure_ascii=False))
    else:
        print_report(result, spec, written, ok, summary, diags, seconds, check_seconds, kind, found)
    return EXIT_OK if ok else EXIT_FAILED


def print_report(result, spec: Path, written, ok: bool, summary: str, diags: list[str], seconds: float, check_seconds: float, kind: str, found=None) -> None:
    w = sys.stdout.write
    what = f"{result.title}" + (f" {result.version}" if result.version else "") + f" ({result.spec_version})"
    w(f"imported {spec}: {what}\n")
    w(f"  {_plural(result.services, 'service')}, {_plural(result.tables, 'table')}, {_plural(result.tools, 'tool')}; import {seconds:.2f} s, check {check_seconds:.2f} s\n")
    groups = (
        ("CRUD", result.crud, False),
        ("world model", result.modelled, False),
        ("simulated", result.simulated, True),
        ("skipped", result.skipped, True),
    )
    width = max((len(o.label) for o in result.ops), default=0)
    for title, ops, why in groups:
        w(f"\n{title} ({len(ops)}):\n")
        for o in ops:
            tail = o.tool if o.kind != "skipped" else ""
            detail = (o.kind + (f" ({o.why})" if o.why else "")) if title in ("CRUD", "world model") else o.why
            w(f"  {o.label.ljust(width)}  {tail}{(': ' if tail else '') + detail if detail else ''}\n")
    if result.notes:
        w(f"\nnotes ({len(result.notes)}):\n")
        for n in result.notes:
            w(f"  {n}\n")
    rules = getattr(result, "rules", [])
    if rules:
        # proposals from the data (docs/import.md, "Proposed house rules"): the author keeps or drops them
        w(f"\nproposed rules ({len(rules)}; keep, change or drop them in the services):\n")
        for r in rules:
            w(f"  {r.service}.{r.name}: {r.description} ({r.why})\n")
    w("\nfiles written:\n")
    for p in written:
        w(f"  {p}\n")
    w(f"\nworldc check: {summary}\n")
    for d in diags:
        w(d + "\n")
    if ok:
        print_probe(w, found, written[0].parent)
    sys.stdout.flush()


def run_library(args) -> int:
    """`worldc import openapi DIR -o OUT`: import, write, check, probe, report (text or JSON)."""
    from .library import import_library, prune

    folder, out = Path(args.spec), Path(args.output)
    if out.exists() and not out.is_dir():
        _err(f"{args.output} is a file, not a folder")
        return EXIT_USAGE
    text = args.format != "json"

    def progress(i, n, spec, outcome):
        if text:
            state = "ok" if outcome.result is not None else f"left out: {outcome.error}"
            print(f"[{i}/{n}] {spec}: {state}", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    try:
        lib = import_library(folder, args.name, args.lists, progress)
    except SpecError as e:
        _err(f"{e}")
        return EXIT_FAILED
    seconds = time.perf_counter() - t0
    if not lib.files:
        _err(f"none of the {len(lib.outcomes)} specs under {folder} imported (the first: {lib.outcomes[0].spec}: {lib.outcomes[0].error})")
        return EXIT_FAILED
    written, code = _write(out, lib.files, args)
    if written is None:
        return code
    t1 = time.perf_counter()
    lib, program = prune(out, folder, lib)
    written = [p for p in written if p.exists()]
    ok, summary, diags = summarize(program, out / lib.world_file)
    check_seconds = time.perf_counter() - t1
    found = run_probe(args, out / lib.world_file) if ok else None
    kinds = lib.kinds()
    if not text:
        import json

        specs = [{"spec": o.spec, "imported": o.result is not None, "error": o.error, **({"title": o.result.title, "services": o.result.services, "tables": o.result.tables, "tools": o.result.tools, "kinds": dict(__import__("collections").Counter(op.kind for op in o.result.ops))} if o.result is not None else {})} for o in lib.outcomes]
        body = {"folder": str(folder), "specs": specs, "imported": len(lib.imported), "failed": len(lib.failed), "services": lib.total("services"), "tables": lib.total("tables"), "tools": lib.total("tools"), "operations": kinds, "files": [str(p) for p in written], "world": str(out / lib.world_file), "checks": ok, "check": summary, "diagnostics": diags, "import_seconds": round(seconds, 3), "check_seconds": round(check_seconds, 3), "probe": probe_json(found)}
        print(json.dumps(body, indent=2, ensure_ascii=False))
        return EXIT_OK if ok else EXIT_FAILED
    w = sys.stdout.write
    w(f"imported {len(lib.imported)} of {_plural(len(lib.outcomes), 'spec')} under {folder} into one library\n")
    w(f"  {_plural(lib.total('services'), 'service')}, {_plural(lib.total('tables'), 'table')}, {_plural(lib.total('tools'), 'tool')}; import {seconds:.2f} s, check {check_seconds:.2f} s\n")
    w("  operations: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda x: -x[1])) + "\n")
    w("\nspecs:\n")
    for o in lib.outcomes:
        if o.result is not None:
            r = o.result
            sim = sum(1 for op in r.ops if op.kind == "simulated")
            w(f"  {o.spec}: {r.title} → {_plural(r.services, 'service')}, {_plural(r.tools, 'tool')} ({sim} simulated)\n")
        else:
            w(f"  {o.spec}: left out: {o.error}\n")
    w(f"\nfiles written: {len(written)} in {out} (world: {lib.world_file})\n")
    w(f"\nworldc check: {summary}\n")
    for d in diags[:20]:
        w(d + "\n")
    if len(diags) > 20:
        w(f"... and {len(diags) - 20} more diagnostics\n")
    if ok:
        print_probe(w, found, out)
    sys.stdout.flush()
    return EXIT_OK if ok else EXIT_FAILED


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
