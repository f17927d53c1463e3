"""`worldc`: the command line. Parses options and calls library functions; no logic of its own.
Exit codes: 0 success, 1 a failed check, 2 bad usage."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from .. import __version__
from ..diagnostics import Diagnostic, SourceCache, sort_diagnostics
from .common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, _Parser, _load_checked, _parse_seed, _plural, _print_diagnostics, _stderr_console, find_world, write_atomic

MAX_TRIALS = 64  # `eval --trials`: pass^k needs no more, and every trial is a whole episode


# Examples shown under each verb's --help (and in docs/cli.md, generated from this parser).
EXAMPLES = {
    "check": ["worldc check worlds/", "worldc check worlds/legal_ops.world --format json"],
    "lint": ["worldc lint worlds/legal_ops.world", "worldc lint worlds/office.world --seeds 50 --strict"],
    "fmt": ["worldc fmt worlds/", "worldc fmt --check worlds/toy.world", "worldc fmt --diff worlds/toy.world"],
    "compile": ["worldc compile worlds/legal_ops.world", "cd worlds && worldc compile legal_ops.world && worldc sample --hops 5"],
    "graph": ["worldc graph worlds/toy.world --format dot | dot -Tsvg > toy.svg", "worldc graph worlds/legal_ops.world --stats"],
    "sample": ["worldc sample worlds/legal_ops.world --hops 5 -n 100 -o build/tasks.jsonl", "worldc sample worlds/toy.world --hops 3 -n 20 --workers 2 --capabilities conditional-branching -o -"],
    "verify": ["worldc verify worlds/legal_ops.world build/tasks.jsonl"],
    "eval": ["worldc eval worlds/legal_ops.world build/tasks.jsonl --agent weak:0.3 --plot build/curve.svg", "worldc eval worlds/legal_ops.world build/tasks.jsonl --agent openai:MODEL --base-url http://127.0.0.1:8000/v1 --record build/runs.jsonl", "worldc eval worlds/legal_ops.world build/tasks.jsonl --agent weak:0.2 --trials 4 --results build/results.json --plot build/pass_k.svg"],
    "export": ["worldc export sft worlds/legal_ops.world build/tasks.jsonl --style hf -o build/sft.jsonl", "worldc export rl worlds/legal_ops.world build/tasks.jsonl -o build/rl.jsonl"],
    "serve": ["worldc serve worlds/toy.world --tasks build/tasks.jsonl", "worldc serve worlds/toy.world --tasks build/tasks.jsonl --transport http --port 8765"],
    "completion": ["worldc completion bash > ~/.local/share/bash-completion/completions/worldc", "worldc completion zsh > ~/.zfunc/_worldc"],
    "import": ["worldc import openapi petstore.yaml -o worlds/petstore", "worldc import mcp tools.json -o worlds/mytools"],
    "report": ["worldc report worlds/legal_ops.world build/tasks.jsonl -o build/report && open build/report/index.html", "worldc report worlds/legal_ops.world build/tasks.jsonl --eval build/eval.json -o build/report --force"],
}


def _expand(paths: list[str]) -> list[Path] | None:
    """Files as given; folders become the `.world` files below them. None if a path is missing."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(path.rglob("*.world")))
        elif path.exists():
            out.append(path)
        else:
            print(f"worldc: error: no such file or folder: {p}", file=sys.stderr)
            return None
    return out


def cmd_check(args) -> int:
    from ..check import check_paths
    from ..diagnostics import internal_error

    files = _expand(args.paths)
    if files is None:
        return EXIT_USAGE
    if not files:
        print("worldc: error: no .world files found", file=sys.stderr)
        return EXIT_USAGE
    diags: list[Diagnostic] = []
    sources = SourceCache()
    summaries = []
    # Each file is its own program: two world files must not see each other's declarations.
    for f in files:
        try:
            program = check_paths([f])
        except Exception as e:  # a bug in worldc, not bad input: still a diagnostic, and JSON stays JSON
            if os.environ.get("WORLDC_TRACEBACK"):
                raise
            diags.append(internal_error(str(f), e))
            continue
        diags.extend(program.diagnostics)
        sources.merge(program.sources)
        if program.ok and program.model is not None:
            m = program.model
            n_tools = sum(len(s.tools) for s in m.services.values())
            summaries.append(f"{f}: ok ({_plural(len(m.services), 'service')}, {_plural(n_tools, 'tool')})")
    diags = sort_diagnostics(diags)
    _print_diagnostics(diags, sources, args.format)
    if args.format != "json":
        for line in summaries:
            print(line)  # results on stdout, as ruff and pytest print theirs; problems on stderr
    return EXIT_FAILED if any(d.is_error for d in diags) else EXIT_OK


def cmd_lint(args) -> int:
    from ..lint import lint

    path, how = find_world(args.path)
    if path is None:
        print(f"worldc: error: {how}", file=sys.stderr)
        return EXIT_USAGE
    if args.seeds < 1 or args.seeds > 1000:
        print("worldc: error: --seeds takes 1 to 1000", file=sys.stderr)
        return EXIT_USAGE
    from ..check import check_paths

    program = check_paths([path])
    if not program.ok:
        _print_diagnostics(sort_diagnostics(program.diagnostics), program.sources, args.format)
        return EXIT_FAILED
    diags = sort_diagnostics(lint(program.model, str(path), args.seeds))
    _print_diagnostics(diags, program.sources, args.format)
    if args.format != "json":
        print(f"{how}: {'no warnings' if not diags else _plural(len(diags), 'warning')} over {_plural(args.seeds, 'seeded state')}", file=sys.stderr)
    return EXIT_FAILED if diags and args.strict else EXIT_OK


def cmd_fmt(args) -> int:
    from ..syntax.format import format_source
    from ..syntax.parser import ParseFailure

    files = _expand(args.paths)
    if files is None:
        return EXIT_USAGE
    if args.format == "json" and args.diff:
        print("worldc: error: --diff prints a diff; it takes no --format json", file=sys.stderr)
        return EXIT_USAGE
    status = EXIT_OK
    sources = SourceCache()
    failures: list[Diagnostic] = []
    changed: list[str] = []
    for f in files:
        data = f.read_bytes()
        try:
            formatted = format_source(data, str(f))
        except ParseFailure as e:
            sources.add(str(f), data.decode("utf-8", errors="replace"))
            failures.extend(e.diagnostics)
            status = EXIT_FAILED
            continue
        if formatted.encode("utf-8") == data:
            continue
        if args.diff:  # what `fmt` would change, as a unified diff on stdout; nothing written
            import difflib

            old = data.decode("utf-8", errors="replace").splitlines(keepends=True)
            sys.stdout.writelines(difflib.unified_diff(old, formatted.splitlines(keepends=True), f"{f}", f"{f} (formatted)"))
            status = EXIT_FAILED
        elif args.check:
            print(f"would reformat {f}", file=sys.stderr)
            changed.append(str(f))
            status = EXIT_FAILED
        else:
            write_atomic(f, formatted)
            print(f"reformatted {f}", file=sys.stderr)
            changed.append(str(f))
    if args.format == "json":
        key = "would_reformat" if args.check else "reformatted"
        print(json.dumps({"files": len(files), key: changed, "diagnostics": [d.to_json() for d in sort_diagnostics(failures)]}, indent=2))
    elif failures:
        _print_diagnostics(sort_diagnostics(failures), sources, "text")
    return status


def cmd_compile(args) -> int:
    from ..codegen.package import write_package

    model, status = _load_checked(args.path)
    if model is None:
        return status
    name = model.world.name if model.world else Path(args.path).stem
    out = Path(args.output) if args.output else Path("build") / name
    write_package(model, out, source=args.path)
    print(f"wrote {out}/ (import it with the folder above on sys.path: `from {out.name} import WORLD`)", file=sys.stderr)
    if args.format == "json":
        print(json.dumps({"package": str(out), "world": name, "source": args.path, "services": len(model.services), "tools": sum(len(sv.tools) for sv in model.services.values())}, indent=2))
    return EXIT_OK


def cmd_graph(args) -> int:
    from ..graph import MERMAID_MAX_EDGES, UnknownService, build_graph, cap_edges, collapse_services, neighbourhood, render

    if args.max_edges is not None and args.max_edges < 0:
        print("worldc: error: --max-edges takes 0 or more", file=sys.stderr)
        return EXIT_USAGE
    model, status = _load_checked(args.path)
    if model is None:
        return status
    full = g = build_graph(model)
    scope = ""
    if args.service is not None:
        try:
            g = neighbourhood(full, args.service)
        except UnknownService as e:
            print(f"worldc: error: --service: {e}", file=sys.stderr)
            return EXIT_USAGE
        scope = f"the neighbourhood of {args.service}: "
    view = collapse_services(g) if args.collapse == "services" else g
    if args.stats:
        stats = view.stats()
        if args.service is not None:
            # a neighbour's other inputs lie outside the view: name only S's own tools here
            for key in ("unreachable_tools", "unfed_tools"):
                if key in stats:
                    stats[key] = [t for t in stats[key] if t.startswith(args.service + ".")]
            stats = {"service": args.service, "neighbour_tools": sum(n.service != args.service for n in g.nodes), **stats}
        if args.format == "json":
            print(json.dumps(stats, indent=2))
        else:
            for k, v in stats.items():
                shown = f"{len(v)}" + (f"  ({', '.join(v[:8])}{', …' if len(v) > 8 else ''})" if v else "") if isinstance(v, list) else v
                print(f"{k.replace('_', ' ')}: {shown}")
        return EXIT_OK
    limit = args.max_edges
    if limit is None and args.format == "mermaid":
        limit = MERMAID_MAX_EDGES
    total = len(view.edges)
    view, dropped = cap_edges(view, limit)
    note = None
    if dropped:
        hint = "" if args.collapse else "; --collapse services or --service S shows more in fewer edges"
        why = f"Mermaid draws at most {MERMAID_MAX_EDGES}" if args.max_edges is None else f"--max-edges {limit}"
        note = f"{scope}{dropped} of {total} edges dropped ({why}), the most informative {limit} kept{hint}"
        print(f"worldc: note: {note}", file=sys.stderr)
    elif args.format == "mermaid" and limit is not None and limit > MERMAID_MAX_EDGES and total > MERMAID_MAX_EDGES:
        print(f"worldc: note: {total} edges: Mermaid refuses more than {MERMAID_MAX_EDGES} unless its maxEdges is raised", file=sys.stderr)
    # two writes, as print() does: a reader that left after the first line is noticed (exit 141)
    # by the second, where one large write can return without an error
    print(render(view, args.format, note, args.service, dropped if limit is not None else None).removesuffix("\n"))
    return EXIT_OK


def _output_problem(args) -> str | None:
    """`-o -` is standard output; an existing path that is not a regular file (a folder, a
    device, a pipe) is never replaced. Returns what is wrong, or None."""
    if args.output == "-":
        args.output = None
        return None
    if args.output and os.path.lexists(args.output) and not os.path.isfile(args.output):
        return f"{args.output} exists and is not a regular file; name a file to write"
    return None


def cmd_sample(args) -> int:
    import math
    import signal

    from ..sample.job import Job
    from ..sample.run import Interrupted, run
    from ..sample.sampler import CAPABILITIES

    path, how = find_world(args.path)
    if path is None:
        print(f"worldc: error: {how}", file=sys.stderr)
        return EXIT_USAGE
    if args.hops < 1 or args.hops > 32:
        print("worldc: error: --hops takes 1 to 32", file=sys.stderr)
        return EXIT_USAGE
    if args.threads < 1 or args.threads > args.hops:
        print(f"worldc: error: --threads takes 1 to --hops ({args.hops})", file=sys.stderr)
        return EXIT_USAGE
    problem = _output_problem(args)
    if problem:
        print(f"worldc: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    if args.format == "json" and not args.output:
        print("worldc: error: --format json prints the report on stdout, so the tasks need -o OUT.jsonl", file=sys.stderr)
        return EXIT_USAGE
    caps = tuple(c.strip() for c in (args.capabilities or "").split(",") if c.strip())
    unknown = [c for c in caps if c not in CAPABILITIES]
    if unknown:
        print(f"worldc: error: unknown capability {unknown[0]!r}; choose from {', '.join(CAPABILITIES)}", file=sys.stderr)
        return EXIT_USAGE
    if not (0 <= args.attempt_timeout < math.inf):
        print("worldc: error: --attempt-timeout takes a number of seconds (0: no limit)", file=sys.stderr)
        return EXIT_USAGE
    if args.min_calls < 0:
        print(f"worldc: error: --min-calls takes a number of calls, 0 or more, got {args.min_calls}", file=sys.stderr)
        return EXIT_USAGE
    band = _difficulty_band(args.difficulty) if args.difficulty is not None else None
    if band == ():
        print(f"worldc: error: --difficulty takes LO:HI, scores with LO <= HI, either end left out when open (8: or :12), got {args.difficulty!r}", file=sys.stderr)
        return EXIT_USAGE
    model, status = _load_checked(path)
    if model is None:
        return status
    seed = _parse_seed(args.seed)
    if seed is None:
        print(f"worldc: error: --seed takes an integer (decimal or 0x hex), got {args.seed!r}", file=sys.stderr)
        return EXIT_USAGE
    if not (0 <= args.rule_share <= 1):
        print("worldc: error: --rule-share takes a share from 0 to 1", file=sys.stderr)
        return EXIT_USAGE
    shard = None
    if args.shard is not None:
        k, _, n = args.shard.partition("/")
        shard = (int(k), int(n)) if k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n) else None
        if shard is None:
            print(f"worldc: error: --shard takes K/N with 1 <= K <= N, got {args.shard!r}", file=sys.stderr)
            return EXIT_USAGE
    if (args.resume or shard) and not args.output:
        print(f"worldc: error: {'--resume' if args.resume else '--shard'} needs -o OUT.jsonl", file=sys.stderr)
        return EXIT_USAGE
    if args.merge and (shard or args.resume):
        print("worldc: error: --merge takes neither --shard nor --resume", file=sys.stderr)
        return EXIT_USAGE
    if args.address and args.backend != "ray":
        print("worldc: error: --address needs --backend ray", file=sys.stderr)
        return EXIT_USAGE
    if args.backend == "ray" and not args.merge:
        import importlib.util

        if importlib.util.find_spec("ray") is None:
            print("worldc: error: --backend ray needs Ray: pip install 'compoworld-dsl[ray]' (or 'ray>=2.40')", file=sys.stderr)
            return EXIT_USAGE
    workers = max(1, args.workers) if args.backend == "local" else max(0, args.workers)
    job = Job(path, args.hops, args.n, seed, caps, workers, args.max_attempts, args.attempt_timeout or None, args.rule_share, shard, backend=args.backend, address=args.address, threads=1 if args.one_thread else args.threads, min_calls=args.min_calls, difficulty=band)
    console = _stderr_console()
    console.print(f"world: {how}")
    out = Path(args.output) if args.output else None
    if args.merge:
        return _merge_shards(job, args, out, console)
    if args.resume:
        from ..sample.journal import ResumeError, pending

        try:
            journal = pending(out, job)
        except ResumeError as e:
            print(f"worldc: error: {e}", file=sys.stderr)
            return e.status  # 1: a file beside OUT is not to be trusted; 2: another command or writer
        if journal is None and out.exists() and not (shard and _count_lines(out) < job.count):
            lines = _count_lines(out)
            prefix = f"-h{job.hops}-s{job.seed}-"
            first = _first_line(out)
            if lines and prefix not in first.split('"id":"', 1)[-1][:200]:
                print(f"worldc: error: {out} was not written by this command (its first task is not of --hops {job.hops} --seed {job.seed}); drop --resume to replace it", file=sys.stderr)
                return EXIT_USAGE
            print(f"worldc: {out} is already complete ({lines} tasks); nothing to resume", file=sys.stderr)
            return EXIT_OK
        console.print(f"resuming {out}: {journal[2]['selector']['emitted']} tasks already written" if journal else f"extending shard {out}" if shard and out.exists() else f"nothing to resume for {out}: starting")
    progress, finish = _progress(console, args.n)
    try:
        try:
            report = run(job, out, progress, resume=args.resume)
        finally:
            finish()
    except Interrupted as e:  # SIGINT or SIGTERM: run() removed the temporary file and the workers
        left = f"; {out} left as it was" if out is not None else ""
        if args.resume and out is not None:
            left += "; continue with --resume"
        print(f"worldc: stopped by {signal.Signals(e.signum).name}{left}", file=sys.stderr)
        return 128 + e.signum
    except Exception as e:
        from ..sample.ray_backend import RayBackendError  # imports no Ray
        from ..sample.journal import ResumeError

        if isinstance(e, RayBackendError):
            print(f"worldc: error: {e}", file=sys.stderr)
            return EXIT_FAILED
        if not isinstance(e, ResumeError):
            raise
        print(f"worldc: error: {e}", file=sys.stderr)
        return e.status
    _print_report(console, job, report, args)
    _print_rule_share(console, job, model, out if shard is None else None)
    coverage = _coverage(model, report)
    _print_coverage(console, coverage)
    if args.format == "json":
        summary = {
            "world": how,
            "hops": job.hops,
            "seed": job.seed,
            "requested": job.count,
            "emitted": report.emitted,
            "attempts": report.attempts,
            "rejected": dict(sorted(report.rejected.items())),
            "seconds": round(report.seconds, 3),
            "coverage": coverage,
        }
        print(json.dumps(summary, indent=2))
    return EXIT_OK if report.emitted >= job.count else EXIT_FAILED


def _difficulty_band(text: str) -> tuple[float | None, float | None] | tuple[()]:
    """`--difficulty LO:HI` as (LO, HI), None at an open end; () when it is not a band."""
    import math

    lo, sep, hi = text.partition(":")
    try:
        b = tuple(float(x) if x.strip() else None for x in (lo, hi))
    except ValueError:
        return ()
    if not sep or b == (None, None) or any(x is not None and not math.isfinite(x) for x in b) or (None not in b and b[0] > b[1]):
        return ()
    return b


def _count_lines(path: Path) -> int:
    n = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            n += block.count(b"\n")
    return n


def _first_line(path: Path) -> str:
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.readline(1 << 16)


def _merge_shards(job, args, out, console) -> int:
    """`worldc sample ... --merge S1 --merge S2 ...`: the unsharded run from the shard files."""
    from ..sample.journal import ResumeError
    from ..sample.run import load_sampler, merge

    for p in args.merge:
        if not os.path.isfile(p):
            print(f"worldc: error: {p}: no such shard file", file=sys.stderr)
            return EXIT_USAGE
    has_rules = bool(load_sampler(job.path).constraints)
    try:
        report = merge(job, [Path(p) for p in args.merge], out, has_rules)
    except ResumeError as e:
        print(f"worldc: error: {e}; nothing written", file=sys.stderr)
        return EXIT_FAILED
    console.print(f"merged {len(args.merge)} shards: {report.emitted} tasks from {report.attempts} attempts")
    return EXIT_OK if report.emitted >= job.count else EXIT_FAILED


def _coverage(model, report) -> dict:
    """How often each tool and each house rule of the world appears in the emitted tasks (a
    tool: tasks whose reference plan calls it; a rule: tasks it is attached to, load-bearing)."""
    services = model.world.services if model.world else list(model.services)
    tools = sorted(f"{s}.{t}" for s in services for t in model.services[s].tools)
    rules = [c.name for c in (model.world.constraints if model.world else [])]
    rules += [f"{s}.{c.name}" for s in services for c in model.services[s].constraints]
    simulated = sorted(f"{s}.{n}" for s in services for n, t in model.services[s].tools.items() if t.simulated)
    return {
        "tools": {t: report.tools.get(t, 0) for t in tools},
        "rules": {r: report.rules.get(r, 0) for r in rules},
        "simulated_tools": simulated,
    }


def _print_coverage(console, coverage: dict) -> None:
    from rich.markup import escape

    tools, rules = coverage["tools"], coverage["rules"]
    used = [t for t, n in tools.items() if n]
    line = f"coverage: {len(used)} of {_plural(len(tools), 'tool')} called"
    if rules:
        line += f", {sum(1 for n in rules.values() if n)} of {_plural(len(rules), 'house rule')} deciding a task"
        line += " (" + ", ".join(f"{r} {n}" for r, n in sorted(rules.items(), key=lambda x: (-x[1], x[0]))) + ")"
    console.print(escape(line))
    if used and len(used) < len(tools):
        never = [t for t, n in tools.items() if not n]
        shown = ", ".join(never[:8]) + (f" and {len(never) - 8} more" if len(never) > 8 else "")
        console.print(escape(f"never called: {shown}"))


def _progress(console, total: int):
    """A rich progress bar on a terminal; nothing when stderr is a file or pipe."""
    if not console.is_terminal:
        return None, lambda: None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn("sampling"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[note]}"), TimeElapsedColumn(), console=console, transient=True)
    bar.start()
    tid = bar.add_task("sample", total=total, note="")

    def update(report):
        bar.update(tid, completed=report.emitted, note=f"{report.attempts} tried")

    return update, bar.stop


def _print_rule_share(console, job, model, out: Path | None) -> None:
    """Say so when fewer tasks than `--rule-share` asks carry a house rule that decides their
    reward: the selection passes a few tasks over per slot that wants one (`job.RULE_PATIENCE`),
    then keeps the next, so a world whose rules rarely bite misses the share (issue 29). And,
    share met or not, which rules decided no task, and why (`rules.never_decided`)."""
    if job.rule_share <= 0 or out is None or not out.is_file() or str(out) == "-":
        return
    rules = [c for c in (model.world.constraints if model.world else [])] + [c for s in model.services.values() for c in s.constraints]
    if not rules:
        return
    tasks = ruled = 0
    records = []
    with open(out, encoding="utf-8") as fh:
        for line in fh:
            try:
                tasks += 1
                record = json.loads(line)
                ruled += bool(record.get("constraints"))
                records.append(record)
            except ValueError:
                continue
    if tasks and ruled < job.rule_share * tasks:
        console.print(f"[yellow]only {ruled} of {tasks} tasks ({100 * ruled / tasks:.0f}%) carry a house rule that decides their reward, under --rule-share {job.rule_share:g}: the world's rules rarely bite on its walks (docs/authoring.md, \"What makes a house rule bite\"; `worldc lint` W101, W110)[/]")
    decided = {c["name"] for r in records for c in r.get("constraints") or ()}
    if tasks and len(decided) < len(rules):
        # which rules decided no task, and why, met share or not: a rule the tasks never test
        from ..sample.run import load_sampler
        from ..sample.rules import never_decided

        for name, why in never_decided(load_sampler(job.path).facts, records):
            console.print(f"[yellow]  house rule `{name}` decided no task: {why}[/]")


def _print_report(console, job, report, args) -> None:
    from rich.markup import escape
    from rich.table import Table

    from ..sample.job import ATTEMPT_TIMEOUT, RULE_SHARE
    from ..sample.run import band as difficulty_band

    table = Table(title="sampling report", show_header=True, header_style="bold")
    table.add_column("")
    table.add_column("count", justify="right")
    table.add_column("example", overflow="fold")
    table.add_row("attempted", str(report.attempts), "")
    table.add_row("emitted", str(report.emitted), "")
    for reason, n in sorted(report.rejected.items()):
        table.add_row(f"rejected: {reason}", str(n), escape(report.examples.get(reason, "")[:160]))
    console.print(table)
    rate = report.emitted / report.seconds if report.seconds else 0.0
    z3_total = report.encode_seconds + report.z3_seconds  # building terms counts: with large tables it is most of it
    share = 100 * z3_total / max(report.work_seconds, 1e-9)
    console.print(
        f"{report.emitted} tasks in {report.seconds:.2f} s ({rate:.1f}/s); Z3 {z3_total:.2f} s "
        f"(encoding {report.encode_seconds:.2f} s, solving {report.z3_seconds:.2f} s; {share:.0f}% of the time spent in attempts)"
    )
    reproduce = f"worldc sample {job.path} --hops {job.hops} -n {job.count} --seed {job.seed:#x}"
    if job.capabilities:
        reproduce += f" --capabilities {','.join(job.capabilities)}"
    if job.threads != 1:
        reproduce += f" --threads {job.threads}"
    if job.min_calls:
        reproduce += f" --min-calls {job.min_calls}"
    if job.difficulty is not None:
        reproduce += f" --difficulty {difficulty_band(job.difficulty)}"
    if job.rule_share != RULE_SHARE:
        reproduce += f" --rule-share {job.rule_share:g}"
    if job.attempt_timeout != ATTEMPT_TIMEOUT:
        reproduce += f" --attempt-timeout {job.attempt_timeout or 0:g}"
    if report.rejected.get("timeout"):
        console.print(f"[yellow]{report.rejected['timeout']} attempt(s) ran out of time: a faster or less busy machine may emit other tasks for this seed[/]")
    # one line however narrow the terminal: it is copied and pasted
    console.print(escape(f"seed {job.seed:#x}; reproduce with: {reproduce}" + (f" -o {args.output}" if args.output else "")), soft_wrap=True)
    if report.emitted < job.count:
        console.print(f"[bold red]only {report.emitted} of {job.count} tasks after {report.attempts} attempts[/]")
        if job.threads == 1 and report.emitted * 4 < job.count and job.hops > 2:
            # a world whose services share few keys has no chain this long: say what else there is
            console.print(f"[yellow]walks are one chain of information by default; a world whose services share few keys may have none of {job.hops} steps: --threads 2 lets a task hold two errands side by side[/]")


def cmd_verify(args) -> int:
    import signal
    import threading

    from ..sample.run import load_sampler
    from ..sample.sampler import verify_task
    from ..smt.encode import OutOfTime
    from ..taskfile import TaskFileError, read_lines

    if args.tasks is None:
        world_arg, tasks_arg = None, args.path
    else:
        world_arg, tasks_arg = args.path, args.tasks
    path, how = find_world(world_arg)
    if path is None:
        print(f"worldc: error: {how}", file=sys.stderr)
        return EXIT_USAGE
    tasks_path = Path(tasks_arg)
    if not tasks_path.is_file():
        print(f"worldc: error: no such file: {tasks_arg}", file=sys.stderr)
        return EXIT_USAGE
    model, status = _load_checked(path)
    if model is None:
        return status
    sampler = load_sampler(path)
    failures = 0
    total = 0
    stopped: list[int] = []
    results: list[dict] = []

    def stop(signum, frame):  # raising here could land in a Z3 object's __del__ and be dropped
        stopped.append(signum)
        sampler.deadline.expire()  # the task in progress stops at its next check

    main_thread = threading.current_thread() is threading.main_thread()
    old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)} if main_thread else {}
    try:
        # every line is read and reported (a line that does not load is one that fails), one at a time
        for line in read_lines(tasks_path, sampler.world):
            if stopped:
                break
            where = f"{tasks_path}:{line.number}: " + (f"task {line.task_id}: " if line.task_id else "")
            if line.problems:
                problems = [f"{p.field}: {p.message}" if p.field else p.message for p in line.problems]
            else:
                problems = verify_task(sampler, line.task)
            if stopped:
                break  # a task cut short is not verified either way
            total += 1
            for p in problems:
                print(where + p, file=sys.stderr)
            failures += bool(problems)
            results.append({"line": line.number, "task_id": line.task_id, "verified": not problems, "problems": problems})
    except TaskFileError as e:
        print("\n".join(e.lines()), file=sys.stderr)
        return EXIT_FAILED
    except OutOfTime:
        if not stopped:
            raise
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    if stopped:
        print(f"worldc: stopped by {signal.Signals(stopped[0]).name} after {total} tasks, {total - failures} verified", file=sys.stderr)
        return 128 + stopped[0]
    if total == 0:
        print(f"{tasks_path}: holds no task", file=sys.stderr)
        return EXIT_FAILED
    print(f"{total - failures} of {total} tasks verified", file=sys.stderr)
    if args.format == "json":
        print(json.dumps({"tasks": total, "verified": total - failures, "results": results}, indent=2))
    return EXIT_OK if failures == 0 else EXIT_FAILED


def _world_for_tasks(world_arg: str | None, tasks_arg: str):
    """The checked and compiled world a task file is read against, and the file's path; or the
    exit status (after printing why)."""
    path, how = find_world(world_arg)
    if path is None:
        print(f"worldc: error: {how}", file=sys.stderr)
        return None, None, EXIT_USAGE
    tasks_path = Path(tasks_arg)
    if not tasks_path.is_file():
        print(f"worldc: error: no such file: {tasks_arg}", file=sys.stderr)
        return None, None, EXIT_USAGE
    model, status = _load_checked(path)
    if model is None:
        return None, None, status
    from ..codegen.python import load_world

    return load_world(model, path), tasks_path, EXIT_OK


def _world_and_tasks(world_arg: str | None, tasks_arg: str):
    """The compiled world and every task of the file, each line checked against the task schema
    and the world (eval, serve); or the exit status, after printing `FILE:LINE: FIELD: PROBLEM`
    for the first bad lines. A task that loads here cannot crash an episode."""
    from ..taskfile import TaskFileError, load_tasks

    world, tasks_path, status = _world_for_tasks(world_arg, tasks_arg)
    if world is None:
        return None, None, status
    try:
        tasks = load_tasks(tasks_path, world)
    except TaskFileError as e:
        print("\n".join(e.lines()), file=sys.stderr)
        return None, None, EXIT_FAILED
    return world, tasks, EXIT_OK


def cmd_eval(args) -> int:
    from rich.table import Table

    from ..evaluate import evaluate, parse_agent, to_json

    world_arg, tasks_arg = (None, args.path) if args.tasks is None else (args.path, args.tasks)
    if args.retries < 0 or not (0 < args.timeout < float("inf")) or not 1 <= args.trials <= MAX_TRIALS:
        print(f"worldc: error: --retries must be 0 or more, --timeout a positive number of seconds and --trials from 1 to {MAX_TRIALS}", file=sys.stderr)
        return EXIT_USAGE
    agent = parse_agent(args.agent, args.base_url, args.api_key, args.retries, args.timeout)
    if agent is None:
        print(f"worldc: error: unknown agent {args.agent!r} (or a replay file that cannot be read); use oracle, weak:P with 0 <= P <= 1, replay:SFT.jsonl or openai:MODEL", file=sys.stderr)
        return EXIT_USAGE
    if args.plot and not args.plot.endswith((".svg", ".png")):
        print("worldc: error: --plot writes SVG or PNG; name the file *.svg or *.png", file=sys.stderr)
        return EXIT_USAGE
    if args.overlay and not args.plot:
        print("worldc: error: --overlay draws earlier reports beside this run; give --plot FILE too", file=sys.stderr)
        return EXIT_USAGE
    if args.plot:
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:
            print("worldc: error: plots need the optional extra: pip install 'compoworld-dsl[plot]'", file=sys.stderr)
            return EXIT_USAGE
    overlays = []
    for path in args.overlay or ():
        try:
            earlier = json.loads(Path(path).read_text(encoding="utf-8"))
            if not isinstance(earlier.get("by_hops"), dict):
                raise ValueError("no by_hops")
        except (OSError, ValueError, AttributeError) as e:
            print(f"worldc: error: --overlay {path}: not a report of `worldc eval --format json` ({e})", file=sys.stderr)
            return EXIT_USAGE
        overlays.append((str(earlier.get("agent") or Path(path).stem), earlier))
    world, tasks, status = _world_and_tasks(world_arg, tasks_arg)
    if world is None:
        return status
    tasks_path = Path(tasks_arg)
    # an endpoint that keeps failing fails its task only: the run goes on and the report lists it
    report = evaluate(world, tasks, agent, max(1, args.workers), find_world(world_arg)[0], args.agent, args.base_url, args.api_key, args.retries, args.timeout, trials=args.trials)
    report["agent"] = args.agent
    if args.results:
        from ..evaluate import results_file

        write_atomic(Path(args.results), json.dumps(results_file(report, world.name, str(tasks_path), args.agent), indent=2) + "\n")
    if args.plot:
        from ..evaluate import plot_curves, plot_pass_k

        fmt = "png" if args.plot.endswith(".png") else "svg"
        fd, tmp = tempfile.mkstemp(dir=Path(args.plot).resolve().parent, suffix="." + fmt)
        os.close(fd)
        try:
            if args.trials > 1:  # reliability over trials is what the curve is for then
                plot_pass_k(report, f"pass^k and pass@k over {args.trials} trials on {tasks_path.name} ({args.agent})", tmp, fmt)
            else:
                plot_curves([(args.agent, report), *overlays], f"success by hops on {tasks_path.name}", tmp, fmt)
            from ..taskfile import _mode_for

            os.chmod(tmp, _mode_for(Path(args.plot)))  # what the umask gives a new file, not mkstemp's 0600
            os.replace(tmp, args.plot)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    if args.record:
        from ..evaluate import runs_jsonl

        write_atomic(Path(args.record), runs_jsonl(report))
    if args.format == "json":
        print(to_json(report))
        return _eval_errors(report)
    console = _stderr_console()
    for title, rows in (("by hops", report["by_hops"]), ("by capability", report["by_capability"])):
        table = Table(title=f"{args.agent}: {title}", header_style="bold")
        for col in ("", "tasks", "success", "partial credit"):
            table.add_column(col, justify="right" if col else "left")
        for key, v in rows.items():
            table.add_row(str(key), str(v["tasks"]), f"{v['success_rate']:.0%}", f"{v['partial_credit']:.0%}")
        console.print(table)
    console.print(f"overall: {report['success_rate']:.0%} success, {report['partial_credit']:.0%} partial credit over {report['tasks']} tasks" + (f", {args.trials} trials each" if args.trials > 1 else ""))
    if args.trials > 1:
        shown = ", ".join(f"pass^{k} {v['value']:.0%} [{v['low']:.0%}, {v['high']:.0%}]" for k, v in report["pass_hat"].items())
        console.print(f"{shown}; pass@{args.trials} {report['pass_at'][str(args.trials)]['value']:.0%}")
    if report.get("usage"):
        u = report["usage"]
        console.print(f"tokens: {u.get('prompt_tokens', 0):,} prompt, {u.get('completion_tokens', 0):,} completion")
    return _eval_errors(report)


def _eval_errors(report: dict) -> int:
    """Tell of tasks the endpoint failed; exit 1 only when it failed every one (nothing was measured)."""
    errors = report.get("errors") or []
    if not errors:
        return EXIT_OK
    print(f"worldc: {_plural(len(errors), 'task')} of {report['tasks']} failed at the endpoint and count as failed, e.g. {errors[0]['task_id']}: {errors[0]['error']}", file=sys.stderr)
    return EXIT_FAILED if len(errors) == report["tasks"] else EXIT_OK


def cmd_export(args) -> int:
    from ..export import DROPPED_STYLES, STYLES, records
    from ..taskfile import TaskFileError, atomic_output, atomic_stdout, iter_tasks, load_runs

    if args.style in DROPPED_STYLES:
        print(f"worldc: error: --style {args.style}: {DROPPED_STYLES[args.style]}", file=sys.stderr)
        return EXIT_USAGE
    if args.style not in STYLES:
        print(f"worldc: error: unknown --style {args.style!r}; use {', '.join(STYLES)}", file=sys.stderr)
        return EXIT_USAGE

    world_arg, tasks_arg = (None, args.path) if args.tasks is None else (args.path, args.tasks)
    world, tasks_path, status = _world_for_tasks(world_arg, tasks_arg)
    if world is None:
        return status
    runs = None
    if args.runs:
        if not Path(args.runs).is_file():
            print(f"worldc: error: no such file: {args.runs}", file=sys.stderr)
            return EXIT_USAGE
        try:
            runs = load_runs(args.runs)
        except TaskFileError as e:
            print("\n".join(e.lines()), file=sys.stderr)
            return EXIT_FAILED
    problem = _output_problem(args)
    if not problem and args.format == "json" and not args.output:
        problem = "--format json prints a summary on stdout; write the records with -o FILE"
    keep = None
    if not problem and (args.results or args.pass_band):
        keep, problem = _band(args)
    if problem:
        print(f"worldc: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    # tasks stream in one at a time; the output appears whole or not at all (a bad line stops it)
    written = 0
    try:
        with atomic_output(Path(args.output)) if args.output else atomic_stdout() as fh:
            chosen = (t for t in iter_tasks(tasks_path, world) if keep is None or t["id"] in keep)
            for rec in records(world, chosen, args.kind, args.style, runs):
                fh.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
                written += 1
    except TaskFileError as e:
        print("\n".join(e.lines()), file=sys.stderr)
        return EXIT_FAILED
    if args.output:
        print(f"wrote {written} {args.kind} records to {args.output}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps({"records": written, "kind": args.kind, "style": args.style if args.kind == "sft" else None, "output": args.output}, indent=2))
    return EXIT_OK


def _band(args) -> tuple[set[str] | None, str | None]:
    """(the ids `export rl --results R --pass-band LO..HI` keeps, None) or (None, what is wrong)."""
    from ..evaluate import RESULTS_FORMAT, in_band

    if args.kind != "rl" or not (args.results and args.pass_band):
        return None, "--results and --pass-band go together, with `export rl`"
    lo, sep, hi = args.pass_band.partition("..")
    try:
        low, high = float(lo), float(hi)
    except ValueError:
        low = high = float("nan")  # (fails the range check below)
    if not sep or not 0 <= low <= high <= 1:
        return None, f"--pass-band takes LO..HI with 0 <= LO <= HI <= 1, such as 0.2..0.8 (got {args.pass_band!r})"
    try:
        results = json.loads(Path(args.results).read_text(encoding="utf-8"))
        if results.get("format") != RESULTS_FORMAT or not isinstance(results.get("tasks"), dict):
            raise ValueError(f"not a `worldc eval --results` file ({RESULTS_FORMAT!r})")
        return in_band(results, low, high), None
    except (OSError, ValueError, AttributeError, KeyError, TypeError, ZeroDivisionError) as e:
        return None, f"--results {args.results}: {e}"


def cmd_serve(args) -> int:
    from ..mcp_server import MCPServer, build_server, http_server

    if MCPServer is None:
        print("worldc: error: serving over MCP needs the optional extra: pip install 'compoworld-dsl[mcp]'", file=sys.stderr)
        return EXIT_USAGE
    if not (0 < args.request_timeout < float("inf") and 0 <= args.idle_timeout < float("inf") and args.max_sessions >= 1 and args.max_connections >= 1 and args.max_body_bytes >= 1):
        print("worldc: error: --request-timeout must be a positive number of seconds, --idle-timeout one or 0 (never), --max-sessions, --max-connections and --max-body-bytes at least 1", file=sys.stderr)
        return EXIT_USAGE
    if not 0 <= args.call_timeout < float("inf"):
        print("worldc: error: --call-timeout must be a number of seconds, or 0 (no limit)", file=sys.stderr)
        return EXIT_USAGE
    world, tasks, status = _world_and_tasks(args.path, args.tasks)
    if world is None:
        return status
    if args.task:
        tasks = [t for t in tasks if t.get("id") == args.task]
        if not tasks:
            print(f"worldc: error: no task {args.task!r} in {args.tasks}", file=sys.stderr)
            return EXIT_USAGE
    if not tasks:
        print(f"worldc: error: {args.tasks} holds no task", file=sys.stderr)
        return EXIT_USAGE
    server = build_server(world, tasks, max_sessions=args.max_sessions, call_timeout=args.call_timeout or None)
    if args.transport == "stdio":
        server.run("stdio")
    else:
        print(f"serving {len(tasks)} task(s) on http://{args.host}:{args.port}/mcp", file=sys.stderr)
        http_server(server, args.host, args.port, idle_timeout=args.idle_timeout or None, request_timeout=args.request_timeout, max_connections=args.max_connections, max_body_bytes=args.max_body_bytes).run()
    return EXIT_OK


def cmd_completion(args) -> int:
    import shtab

    sys.stdout.write(shtab.complete(build_parser(), shell=args.shell))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    from ..sample import CAPABILITIES

    p = _Parser(prog="worldc", description="Compile .world files into practice worlds for tool-using agents.")
    p.add_argument("-V", "--version", action="version", version=f"worldc {__version__}")
    sub = p.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    sub.required = True

    c = sub.add_parser("check", help="parse and type-check .world files; report every error")
    c.add_argument("paths", nargs="+", metavar="PATH", help=".world files or folders")
    c.add_argument("--format", choices=("text", "json"), default="text", help="json: a list of diagnostics on stdout")
    c.set_defaults(func=cmd_check)

    li = sub.add_parser("lint", help="what a world that checks clean can still get wrong for sampling: rules its seeds break, tools no task reaches")
    li.add_argument("path", nargs="?", metavar="PATH", help="a .world file (default: the one world here, or the compiled one)")
    li.add_argument("--seeds", type=int, default=20, help="seeded states to try each house rule on (default 20)")
    li.add_argument("--strict", action="store_true", help="exit 1 when there is any warning")
    li.add_argument("--format", choices=("text", "json"), default="text", help="json: a list of diagnostics on stdout")
    li.set_defaults(func=cmd_lint)

    f = sub.add_parser("fmt", help="rewrite .world files in canonical form")
    f.add_argument("paths", nargs="+", metavar="PATH", help=".world files or folders")
    f.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    f.add_argument("--diff", action="store_true", help="change nothing; print what would change as a unified diff on stdout, exit 1 if anything would")
    f.add_argument("--format", choices=("text", "json"), default="text", help="json: the files changed (or that would be) and any parse errors, on stdout")
    f.set_defaults(func=cmd_fmt)

    c = sub.add_parser("compile", help="compile a world into an importable Python package")
    c.add_argument("path", metavar="PATH", help="a .world file")
    c.add_argument("-o", "--output", metavar="DIR", help="the package folder to write (default: build/WORLD)")
    c.add_argument("--format", choices=("text", "json"), default="text", help="json: the package written, with counts, on stdout")
    c.set_defaults(func=cmd_compile)

    g = sub.add_parser("graph", help="print the typed dependency graph of a world")
    g.add_argument("path", metavar="PATH", help="a .world file")
    g.add_argument("--format", choices=("json", "dot", "mermaid"), default="json", help="json (the default), dot (Graphviz) or mermaid")
    g.add_argument("--stats", action="store_true", help="counts instead of the graph: services, tools, edges, unreachable and unfed tools (of the view chosen below)")
    g.add_argument("--service", metavar="S", help="only service S's tools, the tools one edge away (in and out) and the edges that touch S")
    g.add_argument("--collapse", choices=("services",), help="services: one node per service, one edge per ordered pair of services weighted by its tool-level edges")
    g.add_argument("--max-edges", type=int, metavar="N", help="keep at most N edges, the most informative first, and say how many were dropped (mermaid: default 500, Mermaid's limit)")
    g.set_defaults(func=cmd_graph)

    sm = sub.add_parser("sample", help="sample verified multi-step tasks as JSONL")
    sm.add_argument("path", nargs="?", metavar="PATH", help="a .world file (default: the one world here, or the compiled one)")
    sm.add_argument("--hops", type=int, default=5, help="steps per task (default 5)")
    sm.add_argument("-n", type=int, default=10, metavar="COUNT", help="tasks to emit (default 10)")
    sm.add_argument("--seed", default="0", help="run seed, decimal or 0x hex (default 0)")
    sm.add_argument("-o", "--output", metavar="OUT.jsonl", help="write here, atomically (default, or `-`: stdout)")
    sm.add_argument("--workers", type=int, default=1, help="local processes, or Ray actors with --backend ray (0: one per CPU Ray has); output is identical for any number")
    sm.add_argument("--backend", choices=("local", "ray"), default="local", help="local: a process pool here; ray: actors on a Ray cluster (the `ray` extra), same bytes (default local)")
    sm.add_argument("--address", metavar="ADDR", help="with --backend ray: the Ray cluster to join (auto, or HOST:6379 of its head); default: start a local Ray instance")
    sm.add_argument("--capabilities", metavar="LIST", help=f"keep tasks that have all of these, comma-separated: {', '.join(CAPABILITIES)}")
    sm.add_argument("--threads", type=int, default=1, metavar="N", help="errands side by side a task may hold (default 1: every step hangs on one chain of information, grown so from the first step; N > 1 lets the walk start new errands and keeps tasks of at most N)")
    sm.add_argument("--one-thread", action="store_true", help=argparse.SUPPRESS)  # the default now; kept so older scripts run
    sm.add_argument("--min-calls", type=int, default=0, metavar="N", help="keep only tasks whose reference plan makes at least N real tool calls (their `difficulty.real_calls`)")
    sm.add_argument("--difficulty", metavar="LO:HI", help="keep only tasks whose difficulty score is from LO to HI, either end left out when open (8: is 8 or more); the score is in docs/task-format.md")
    sm.add_argument("--rule-share", type=float, default=0.5, metavar="SHARE", help="at least this share of tasks carry a house rule that decides their reward, in worlds that have rules (default 0.5; 0: no minimum)")
    sm.add_argument("--max-attempts", type=int, default=None, help="give up after this many attempts (default 50 per task)")
    sm.add_argument("--format", choices=("text", "json"), default="text", help="json: also print the run report, with coverage, as JSON on stdout (needs -o)")
    sm.add_argument("--attempt-timeout", type=float, default=10.0, metavar="SECONDS", help="reject an attempt still working after this long, as `timeout` (default 10; 0: no limit)")
    sm.add_argument("--resume", action="store_true", help="continue the killed or stopped run of the same command that was writing -o OUT.jsonl (same bytes as an uninterrupted run); says so if OUT is already complete")
    sm.add_argument("--shard", metavar="K/N", help="verify only attempts i with i %% N == K-1 (K from 1) and write their tasks before the rule share; -n counts this shard's tasks; join with --merge")
    sm.add_argument("--merge", action="append", metavar="SHARD.jsonl", help="write the unsharded run (-n tasks) from the --shard files, given once each in order K = 1..N")
    sm.set_defaults(func=cmd_sample)

    v = sub.add_parser("verify", help="re-run every proof and replay of a task file")
    v.add_argument("path", metavar="[PATH] TASKS.jsonl", help="the world (optional) and the task file")
    v.add_argument("tasks", nargs="?", help=argparse.SUPPRESS)
    v.add_argument("--format", choices=("text", "json"), default="text", help="json: every task's verdict and problems on stdout")
    v.set_defaults(func=cmd_verify)

    e = sub.add_parser("eval", help="run an agent on a task file; success by hops and capability")
    e.add_argument("path", metavar="[PATH] TASKS.jsonl", help="the world (optional) and the task file")
    e.add_argument("tasks", nargs="?", help=argparse.SUPPRESS)
    e.add_argument("--agent", default="oracle", help="oracle, weak:P (skips each step with probability P), replay:SFT.jsonl (an export's moves and final messages), or openai:MODEL")
    e.add_argument("--base-url", help="an OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (default: OPENAI_BASE_URL)")
    e.add_argument("--api-key", help="default: OPENAI_API_KEY")
    e.add_argument("--retries", type=int, default=6, metavar="N", help="openai: retry a 429, a 5xx or a timeout this many times, with backoff that honours Retry-After (default 6)")
    e.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS", help="openai: seconds for one request (default 120)")
    e.add_argument("--workers", type=int, default=1, help="episodes in this many local processes (same results)")
    e.add_argument("--record", metavar="RUNS.jsonl", help="write each episode's transcript, answer and score (for export sft --runs)")
    e.add_argument("--format", choices=("text", "json"), default="text")
    e.add_argument("--plot", metavar="FILE.svg|FILE.png", help="draw success against hops, with 95%% intervals and task counts (matplotlib: the plot extra)")
    e.add_argument("--overlay", action="append", metavar="REPORT.json", help="also draw an earlier `eval --format json` report on the plot (repeatable): compare agents or runs")
    e.add_argument("--trials", type=int, default=1, metavar="K", help=f"play each task K times (1 to {MAX_TRIALS}): pass^k and pass@k for k = 1..K, with bootstrap intervals; --plot then draws them against k")
    e.add_argument("--results", metavar="RESULTS.json", help="write a results file a leaderboard can read: world, task set digest, agent, trials, metrics, each task's successes (what `export rl --results --pass-band` keeps tasks by)")
    e.set_defaults(func=cmd_eval)

    x = sub.add_parser("export", help="export SFT trajectories or an RL task set from a task file")
    x.add_argument("kind", choices=("sft", "rl"))
    x.add_argument("path", metavar="[PATH] TASKS.jsonl", help="the world (optional) and the task file")
    x.add_argument("tasks", nargs="?", help=argparse.SUPPRESS)
    x.add_argument("-o", "--output", metavar="OUT.jsonl", help="write here, atomically (default, or `-`: stdout)")
    x.add_argument("--style", default="openai", metavar="STYLE", help="sft record shape: openai (OpenAI wire format, the default), hf (Hugging Face chat templates, TRL) or compoworld (CompoWorld's published trajectories); see docs/export.md")
    x.add_argument("--runs", metavar="RUNS.jsonl", help="sft from recorded agent runs (worldc eval --record) instead of the oracle")
    x.add_argument("--results", metavar="RESULTS.json", help="rl: with --pass-band, the `eval --trials K --results` file whose pass rates choose the tasks")
    x.add_argument("--pass-band", metavar="LO..HI", help="rl: keep only tasks whose pass rate in --results lies in LO..HI (e.g. 0.2..0.8): a group of rollouts that all pass or all fail teaches a policy-gradient trainer nothing")
    x.add_argument("--format", choices=("text", "json"), default="text", help="json: a summary (records written) on stdout; needs -o")
    x.set_defaults(func=cmd_export)

    sv = sub.add_parser("serve", help="serve tasks to agents over MCP, one episode per session")
    sv.add_argument("path", nargs="?", metavar="PATH", help="a .world file (default: the one world here, or the compiled one)")
    sv.add_argument("--tasks", required=True, metavar="TASKS.jsonl")
    sv.add_argument("--task", metavar="ID", help="serve this task to every session (default: the file's tasks in turn)")
    sv.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=8765)
    sv.add_argument("--idle-timeout", type=float, default=600.0, metavar="SECONDS", help="http: end a session this long without a request in flight and free its episode (0: never; default 600)")
    sv.add_argument("--request-timeout", type=float, default=30.0, metavar="SECONDS", help="http: a request's head, and then its body, must arrive within this (default 30)")
    sv.add_argument("--call-timeout", type=float, default=10.0, metavar="SECONDS", help="a tool call still running after this long fails with a 408 envelope and changes nothing (0: no limit; default 10)")
    sv.add_argument("--max-sessions", type=int, default=1000, metavar="N", help="http: open sessions at most; past it a new client gets 503 (default 1000)")
    sv.add_argument("--max-connections", type=int, default=256, metavar="N", help="http: connections served at once (a session's event stream holds one); a request on another gets 503 (default 256)")
    sv.add_argument("--max-body-bytes", type=int, default=512 * 1024, metavar="BYTES", help="http: the largest request body; a larger one gets 413 (default 524288, 512 KiB)")
    sv.set_defaults(func=cmd_serve)

    cp = sub.add_parser("completion", help="print a shell completion script for worldc")
    cp.add_argument("shell", choices=("bash", "zsh", "tcsh"), help="the shell")
    cp.set_defaults(func=cmd_completion)
    from ..importers.cli import add_parser as add_import_parser  # `worldc import openapi|mcp`: docs/import.md

    add_import_parser(sub)
    from ..scaffold import add_parser as add_new_parser  # `worldc new NAME`
    from ..try_call import add_parser as add_call_parser  # `worldc call WORLD SERVICE.TOOL`

    from ..lsp import add_parser as add_lsp_parser  # `worldc lsp` (pygls: the lsp extra)
    from ..report import add_parser as add_report_parser  # `worldc report WORLD [TASKS] -o DIR`

    add_call_parser(sub)
    add_new_parser(sub)
    add_lsp_parser(sub)
    add_report_parser(sub)
    for name, verb in sub.choices.items():
        if name in EXAMPLES and not verb.epilog:
            verb.epilog = "examples:\n" + "\n".join(f"  {line}" for line in EXAMPLES[name])
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("worldc: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `worldc sample ... | head -1`: the reader has gone, as for any Unix filter; no traceback,
        # and no second one when Python flushes stdout on the way out
        import signal

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE


if __name__ == "__main__":
    raise SystemExit(main())
