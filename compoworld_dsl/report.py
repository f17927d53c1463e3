"""`worldc report [WORLD] [TASKS.jsonl] -o DIR`: one static HTML page about a world.

`add_parser(sub)` registers the verb on `worldc`'s subparsers; `cmd_report` writes `DIR/index.html`
(one self-contained file: the CSS, a few lines of vanilla JavaScript for filtering the tasks and
the SVG pictures are inline; nothing is fetched, no server is needed). The page shows:

- the services and their tools' contracts: arguments, result, the nominal types consumed and
  produced, description, `say` and `gives` phrases, the state each tool changes;
- the service graph (`graph.collapse_services`) as an SVG laid out on a circle: no Graphviz;
- the house rules with their text and source;
- coverage: which tools the tasks' reference plans call and which rules decide tasks;
- the tasks, browsable and filterable: instruction, reference plan, checker checks, proofs;
- with `--eval REPORT.json` (`worldc eval --format json`), the success curve and tables.

`index.html` is written atomically: into a temporary file in DIR, then renamed over its name.
DIR is created if missing and filled if empty; `--force` lets a non-empty DIR be written only
when all it holds is a page an earlier `worldc report` wrote, which it replaces: no other file is
ever removed or replaced. Errors follow worldc's
conventions: one line `worldc: error: ...` on stderr, exit 2 for bad usage (a missing file, an
output that exists), 1 for input that does not load (a world that does not check, a bad task
line, an eval file that is not an eval report); never a traceback (WORLDC_TRACEBACK=1 shows one)."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
import tempfile
import textwrap
import time
from collections import Counter
from html import escape
from pathlib import Path

from .cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, _plural

MAX_TASKS = 1000  # tasks shown in full by default; coverage counts every task of the file
PAGE = "index.html"  # the one file a report is; --force replaces nothing else
GENERATOR = '<meta name="generator" content="worldc report">'
# How a page is known as a report's, in its first bytes: the generator line, or the title that
# reports written before that line had (`<title>NAME: worldc report</title>`).
_MARKS = (GENERATOR.encode(), b": worldc report</title>")


def add_parser(sub) -> None:
    """Register `report` on worldc's subparsers object."""
    r = sub.add_parser("report", help="write a static HTML report of a world: services, tools, service graph, house rules, coverage, tasks")
    r.add_argument("path", nargs="?", metavar="[WORLD] [TASKS.jsonl]", help="the world (default: the one world here, or the compiled one) and, optionally, a task file")
    r.add_argument("tasks", nargs="?", help=argparse.SUPPRESS)
    r.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write (index.html inside); written atomically")
    r.add_argument("--force", action="store_true", help="replace the report in DIR when DIR is not empty; refused if DIR holds anything else")
    r.add_argument("--eval", metavar="REPORT.json", help="add the success curve and tables of `worldc eval --format json` output")
    r.add_argument("--max-tasks", type=int, default=MAX_TASKS, metavar="N", help=f"show at most N tasks in full (default {MAX_TASKS}); coverage counts them all")
    r.set_defaults(func=cmd_report)


def _err(message: str) -> None:
    print(f"worldc: error: {message}", file=sys.stderr)


class OutputExists(Exception):
    pass


def cmd_report(args) -> int:
    try:
        return _report(args)
    except Exception as e:  # a bug in worldc, not in the input: one line, no traceback
        if os.environ.get("WORLDC_TRACEBACK"):
            raise
        _err(f"the report failed inside ({type(e).__name__}: {e}); a bug in worldc, please report it")
        return EXIT_FAILED


def _report(args) -> int:
    from .cli.common import _print_diagnostics, find_world

    world_arg, tasks_arg = args.path, args.tasks
    if tasks_arg is None and world_arg is not None and world_arg.endswith((".jsonl", ".json")):
        world_arg, tasks_arg = None, world_arg  # `worldc report TASKS.jsonl -o DIR` in a world's folder
    if args.max_tasks < 0:
        _err("--max-tasks takes 0 or more")
        return EXIT_USAGE
    out = Path(args.output)
    problem = output_problem(out, args.force)  # before the slow part; write_folder checks again
    if problem:
        _err(problem)
        return EXIT_USAGE
    path, how = find_world(world_arg)
    if path is None:
        _err(how)
        return EXIT_USAGE
    if tasks_arg is not None and not Path(tasks_arg).is_file():
        _err(f"no such file: {tasks_arg}")
        return EXIT_USAGE
    if args.eval is not None and not Path(args.eval).is_file():
        _err(f"no such file: {args.eval}")
        return EXIT_USAGE
    t0 = time.perf_counter()
    evaluation = None
    if args.eval is not None:
        evaluation, why = load_eval(Path(args.eval))
        if evaluation is None:
            _err(f"{args.eval}: {why}")
            return EXIT_FAILED

    from .check import check_paths

    program = check_paths([path])
    if not program.ok:
        _print_diagnostics(program.diagnostics, program.sources, "text")
        return EXIT_FAILED
    tasks = None
    if tasks_arg is not None:
        from .codegen.python import load_world
        from .taskfile import TaskFileError, load_tasks

        try:
            tasks = load_tasks(Path(tasks_arg), load_world(program.model, path))
        except TaskFileError as e:
            print("\n".join(e.lines()), file=sys.stderr)
            return EXIT_FAILED
    page = build_html(program, path, tasks, evaluation, tasks_name=Path(tasks_arg).name if tasks_arg else None, eval_name=Path(args.eval).name if args.eval else None, max_tasks=args.max_tasks)
    try:
        write_folder(out, {PAGE: page}, args.force)
    except OutputExists as e:
        _err(str(e))
        return EXIT_USAGE
    except OSError as e:
        _err(f"cannot write {args.output}: {e.strerror or e}")
        return EXIT_FAILED
    m = program.model
    services = m.world.services if m.world else list(m.services)
    n_tools = sum(len(m.services[s].tools) for s in services)
    shown = f", {_plural(len(tasks), 'task')}" if tasks is not None else ""
    print(f"wrote {out / PAGE} ({how}: {_plural(len(services), 'service')}, {_plural(n_tools, 'tool')}{shown}; {time.perf_counter() - t0:.2f} s)", file=sys.stderr)
    return EXIT_OK


# ─────────────────────────── input and output ───────────────────────────


def load_eval(path: Path) -> tuple[dict | None, str]:
    """An eval report (`worldc eval --format json`), or None and why not."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        return None, f"cannot read it ({e})"
    except json.JSONDecodeError as e:
        return None, f"not JSON ({e.msg} at line {e.lineno})"
    if not isinstance(data, dict) or not isinstance(data.get("by_hops"), dict):
        return None, "not a `worldc eval --format json` report (no by_hops)"
    try:
        for h, v in data["by_hops"].items():
            int(h), float(v["success_rate"]), float(v["partial_credit"]), int(v["tasks"])
    except (TypeError, ValueError, KeyError):
        return None, "not a `worldc eval --format json` report (by_hops holds something else)"
    return data, ""


def output_problem(out: Path, force: bool, names: tuple[str, ...] = (PAGE,)) -> str | None:
    """Why the report may not be written into `out`, or None. An empty or missing folder takes
    it; a non-empty one only with `force`, and only if it holds nothing but `names` that an
    earlier report wrote: --force must never cost a file the report did not make."""
    if out.exists() and not out.is_dir():
        return f"{out} is a file, not a folder"
    if not out.is_dir():
        return None
    entries = sorted(out.iterdir())
    if not entries:
        return None
    if not force:
        return f"not overwriting {out}: it is not empty (--force replaces a report written there before, and nothing else)"
    foreign = [p.name + ("/" if p.is_dir() else "") for p in entries if p.name not in names]
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        return f"not replacing {out}: it holds files the report did not write ({shown}); remove them or choose another folder"
    for p in entries:
        if not _written_by_report(p):
            return f"not replacing {p}: worldc report did not write it; remove it or choose another folder"
    return None


def _written_by_report(path: Path) -> bool:
    if path.is_symlink() or not path.is_file():
        return False
    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return any(mark in head for mark in _MARKS)


def write_folder(out: Path, files: dict[str, str], force: bool) -> None:
    """Write each of `files` into `out` through a temporary file beside it, renamed over its
    name: a reader sees the old page or the new one, never half of one. `out` is created if
    missing; when it is not empty, see `output_problem` (OutputExists). Nothing else in `out` is
    touched; a folder made here for a write that fails is removed again."""
    problem = output_problem(out, force, tuple(files))
    if problem:
        raise OutputExists(problem)
    made = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    umask = os.umask(0)
    os.umask(umask)
    try:
        for name, text in files.items():
            fd, tmp = tempfile.mkstemp(dir=out, prefix=f".{name}.", suffix=".tmp")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(text)
                os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 would hide the report from others
                os.replace(tmp, out / name)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
    except BaseException:
        if made:
            with contextlib.suppress(OSError):
                out.rmdir()  # only if still empty: a folder this call made for nothing
        raise


# ─────────────────────────── the page ───────────────────────────

CSS = """
:root { --fg:#1d2330; --muted:#5b6475; --line:#d9dee8; --accent:#1f5fa8; --soft:#f4f6fa; --warn:#a8551f; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); margin: 0; }
header { background: #1d2330; color: #fff; padding: 18px 28px; }
header h1 { margin: 0 0 4px; font-size: 22px; }
header p { margin: 2px 0; color: #c9d1e0; }
nav { position: sticky; top: 0; background: #fff; border-bottom: 1px solid var(--line); padding: 8px 28px; z-index: 2; }
nav a { margin-right: 16px; color: var(--accent); text-decoration: none; }
main { padding: 8px 28px 40px; max-width: 1200px; }
h2 { border-bottom: 2px solid var(--line); padding-bottom: 4px; margin-top: 32px; }
h3 { margin: 22px 0 6px; }
table { border-collapse: collapse; margin: 8px 0 16px; width: 100%; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); }
td.num, th.num { text-align: right; white-space: nowrap; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: var(--soft); padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; margin: 4px 0; }
.muted { color: var(--muted); }
.type { color: #6a3fa0; }
.badge { display: inline-block; border-radius: 9px; padding: 0 7px; font-size: 11.5px; background: var(--soft); border: 1px solid var(--line); margin-right: 4px; }
.badge.sim { background: #fff4cc; }
.badge.pass { background: #dff3e4; }
.badge.fail { background: #fbe3e1; }
.bar { display: inline-block; height: 9px; background: var(--accent); vertical-align: middle; }
.bar.zero { background: var(--warn); width: 3px; }
details.task { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; padding: 4px 10px; }
details.task > summary { cursor: pointer; }
details.task[open] { background: #fcfdff; }
.filters { display: flex; gap: 10px; flex-wrap: wrap; align-items: center; margin: 8px 0; }
.filters input[type=search] { width: 320px; padding: 4px 6px; }
.svc { border-left: 4px solid var(--accent); padding-left: 12px; margin: 18px 0; }
.say { font-style: italic; }
svg text { font-family: system-ui, Helvetica, Arial, sans-serif; }
"""

JS = """
(function () {
  var q = document.getElementById('task-q'), hops = document.getElementById('task-hops'),
      cap = document.getElementById('task-cap'), count = document.getElementById('task-count');
  if (!q) return;
  var tasks = Array.prototype.slice.call(document.querySelectorAll('details.task'));
  function apply() {
    var text = q.value.toLowerCase(), h = hops.value, c = cap.value, shown = 0;
    tasks.forEach(function (t) {
      var ok = (!text || t.textContent.toLowerCase().indexOf(text) >= 0) &&
               (!h || t.getAttribute('data-hops') === h) &&
               (!c || (' ' + t.getAttribute('data-caps') + ' ').indexOf(' ' + c + ' ') >= 0);
      t.hidden = !ok;
      if (ok) shown++;
    });
    count.textContent = shown + ' of ' + tasks.length + ' shown';
  }
  q.addEventListener('input', apply); hops.addEventListener('change', apply); cap.addEventListener('change', apply);
  apply();
})();
"""


def _e(value) -> str:
    return escape(str(value), quote=True)


def _json(value) -> str:
    return escape(json.dumps(value, indent=2, ensure_ascii=False, default=str), quote=False)


def _literal(lit) -> str:
    if lit is None:
        return ""
    if lit.kind == "string":
        return json.dumps(lit.value, ensure_ascii=False)
    if lit.kind == "bool":
        return "true" if lit.value else "false"
    return str(lit.value)


def _source(program, span) -> str:
    lines = [program.sources.line(span.file, n) for n in range(span.line, span.end_line + 1)]
    if any(line is None for line in lines):
        return ""
    return textwrap.dedent("\n".join(lines)).strip("\n")


def _anchor(kind: str, name: str) -> str:
    return f"{kind}-" + "".join(c if c.isalnum() or c in "-_." else "-" for c in name)


def rules_of(model) -> list[tuple[str, object]]:
    """(qualified name, declaration) of every house rule of the world, in the names tasks use."""
    services = model.world.services if model.world else list(model.services)
    out = [(c.name, c) for c in (model.world.constraints if model.world else model.constraints)]
    out += [(f"{s}.{c.name}", c) for s in services for c in model.services[s].constraints]
    return out


def coverage(model, tasks: list[dict]) -> dict:
    """Tasks whose reference plan calls each tool, tasks each rule is attached to, and the
    tallies of hops and capabilities."""
    services = model.world.services if model.world else list(model.services)
    tools = Counter({f"{s}.{t}": 0 for s in services for t in model.services[s].tools})
    rules = Counter({name: 0 for name, _ in rules_of(model)})
    hops: Counter = Counter()
    caps: Counter = Counter()
    for t in tasks:
        for tool in {step.get("tool") for step in t.get("reference_plan") or [] if isinstance(step, dict)}:
            tools[tool] += 1
        for name in {c.get("name") for c in t.get("constraints") or [] if isinstance(c, dict)}:
            rules[name] += 1
        hops[t.get("hops")] += 1
        for c in t.get("capabilities") or []:
            caps[c] += 1
    return {"tools": tools, "rules": rules, "hops": hops, "capabilities": caps}


def build_html(program, world_path: str, tasks: list[dict] | None, evaluation: dict | None = None, tasks_name: str | None = None, eval_name: str | None = None, max_tasks: int = MAX_TASKS) -> str:
    from . import __version__
    from .graph import build_graph, collapse_services

    model = program.model
    world = model.world
    services = world.services if world else list(model.services)
    graph = build_graph(model)
    sg = collapse_services(graph)
    cov = coverage(model, tasks) if tasks is not None else None
    results = {}
    if evaluation and isinstance(evaluation.get("results"), list):
        results = {r.get("task_id"): r for r in evaluation["results"] if isinstance(r, dict)}
    name = world.name if world else Path(world_path).stem
    n_tools = sum(len(model.services[s].tools) for s in services)
    rules = rules_of(model)

    parts: list[str] = []
    w = parts.append
    w("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
    w('<meta name="viewport" content="width=device-width, initial-scale=1">\n' + GENERATOR + "\n")
    w(f"<title>{_e(name)}: worldc report</title>\n<style>{CSS}</style>\n</head>\n<body>\n")
    w(f"<header><h1>{_e(name)}</h1>")
    if world and world.description:
        w(f"<p>{_e(world.description)}</p>")
    summary = f"{_plural(len(services), 'service')}, {_plural(n_tools, 'tool')}, {_plural(len(graph.edges), 'typed edge')}, {_plural(len(rules), 'house rule')}"
    if tasks is not None:
        summary += f"; {_plural(len(tasks), 'task')} from {tasks_name}"
    w(f"<p>{_e(summary)}</p><p>{_e(world_path)} · worldc {_e(__version__)}</p></header>\n")
    links = [("services", "Services and tools"), ("graph", "Service graph"), ("rules", "House rules")]
    if tasks is not None:
        links += [("coverage", "Coverage"), ("tasks", "Tasks")]
    if evaluation is not None:
        links.append(("eval", "Evaluation"))
    w("<nav>" + "".join(f'<a href="#{k}">{_e(v)}</a>' for k, v in links) + "</nav>\n<main>\n")

    _services_section(w, model, services, graph, cov)
    _graph_section(w, sg, graph)
    _rules_section(w, program, rules, cov)
    if tasks is not None:
        _coverage_section(w, cov, len(tasks))
        _tasks_section(w, tasks, max_tasks, results)
    if evaluation is not None:
        _eval_section(w, evaluation, f"{name}: {eval_name}")
    w("</main>\n")
    if tasks is not None:
        w(f"<script>{JS}</script>\n")
    w("</body>\n</html>\n")
    return "".join(parts)


def _services_section(w, model, services, graph, cov) -> None:
    fed = Counter(e.target for e in graph.edges)
    feeds = Counter(e.source for e in graph.edges)
    w('<section id="services"><h2>Services and tools</h2>\n')
    w("<p class=\"muted\">Each tool's contract: its arguments and result, the nominal types it consumes and produces (the typed graph's edges follow them), "
      "its description and the phrases the instructions use for it (<code>say</code>, <code>gives</code>), and the state it changes.</p>\n")
    for s in services:
        svc = model.services[s]
        w(f'<div class="svc" id="{_anchor("svc", s)}"><h3>{_e(s)} <span class="muted">({_e(_plural(len(svc.tools), "tool"))})</span></h3>\n')
        if svc.description:
            w(f"<p>{_e(svc.description)}</p>\n")
        if svc.state:
            w('<p class="muted">state: ' + ", ".join(f"<code>{_e(v.name)}</code>: <span class=\"type\">{_e(v.type)}</span>" for v in svc.state.values()) + "</p>\n")
        w('<table><tr><th>tool</th><th>contract</th><th>text</th><th class="num">graph</th>' + ('<th class="num">tasks</th>' if cov else "") + "</tr>\n")
        for tool in svc.tools.values():
            d = tool.decl
            defaults = {p.name: p.default for p in d.params}
            args = ", ".join(
                f"{_e(p)}: <span class=\"type\">{_e(t)}</span>" + (f" = {_e(_literal(defaults.get(p)))}" if defaults.get(p) is not None else "")
                for p, t in tool.params
            )
            contract = [f"<code>{_e(tool.name)}({args}) → <span class=\"type\">{_e(tool.result)}</span></code>"]
            if tool.consumes:
                contract.append("consumes " + ", ".join(f'<span class="type">{_e(a.name)}</span>' for a in tool.consumes))
            if tool.produces:
                contract.append("produces " + ", ".join(f'<span class="type">{_e(a.name)}</span>' for a in tool.produces))
            effects = sorted({f"{t}.{f}" for t, f in tool.writes}) + [f"inserts into {t}" for t in sorted(tool.inserts)] + [f"deletes from {t}" for t in sorted(tool.deletes)]
            if effects:
                contract.append("changes " + ", ".join(f"<code>{_e(x)}</code>" for x in effects))
            else:
                contract.append('<span class="muted">reads only</span>')
            text = []
            if d.description:
                text.append(_e(d.description))
            if d.say:
                text.append(f'<span class="muted">say:</span> <span class="say">{_e(d.say)}</span>')
            if d.gives:
                text.append(f'<span class="muted">gives:</span> <span class="say">{_e(d.gives)}</span>')
            badge = ' <span class="badge sim">simulated</span>' if tool.simulated else ""
            tid = tool.qualified
            row = (
                f'<tr id="{_anchor("tool", tid)}"><td><code>{_e(tool.name)}</code>{badge}</td><td>{"<br>".join(contract)}</td><td>{"<br>".join(text)}</td>'
                f'<td class="num" title="fed by / feeds (typed edges)">{fed[tid]} in / {feeds[tid]} out</td>'
            )
            if cov:
                row += f'<td class="num">{cov["tools"][tid]}</td>'
            w(row + "</tr>\n")
        w("</table></div>\n")
    w("</section>\n")


def service_svg(sg) -> str:
    """The service graph on a circle: a labelled ellipse per service, a curved arrow per ordered
    pair (bent to one side, so A→B and B→A stay apart), thicker for more tool-level edges,
    labelled with the count; the tooltip lists the types."""
    n = len(sg.nodes)
    if n == 0:
        return "<p class=\"muted\">no services</p>"
    radius = 0 if n == 1 else max(150, 36 * n)
    rx = {s.name: 12 + 3.9 * max(len(s.name), len(_node_sub(s))) for s in sg.nodes}
    ry = 26
    margin = max(rx.values()) + 30
    size = 2 * (radius + margin)
    cx = cy = size / 2
    pos = {}
    for i, s in enumerate(sg.nodes):
        a = -math.pi / 2 + 2 * math.pi * i / n
        pos[s.name] = (cx + radius * math.cos(a), cy + radius * math.sin(a))
    top = max((e.count for e in sg.edges), default=1)

    def boundary(name, tx, ty):
        x, y = pos[name]
        dx, dy = tx - x, ty - y
        d = math.hypot(dx, dy) or 1.0
        dx, dy = dx / d, dy / d
        t = 1 / math.sqrt((dx / rx[name]) ** 2 + (dy / ry) ** 2)
        return x + dx * t, y + dy * t

    out = [f'<svg width="{size:.0f}" height="{size:.0f}" viewBox="0 0 {size:.0f} {size:.0f}" role="img" aria-label="service graph">']
    out.append('<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#1f5fa8"/></marker></defs>')
    labels = []
    for e in sg.edges:
        (x1, y1), (x2, y2) = pos[e.source], pos[e.target]
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        dist = math.hypot(x2 - x1, y2 - y1) or 1.0
        nx, ny = -(y2 - y1) / dist, (x2 - x1) / dist
        bend = 0.18 * dist
        qx, qy = mx + nx * bend, my + ny * bend
        sx, sy = boundary(e.source, qx, qy)
        ex, ey = boundary(e.target, qx, qy)
        width = 1 + 5 * math.log1p(e.count) / math.log1p(top)
        tip = f"{e.source} → {e.target}: {e.count} tool-level edges (" + ", ".join(f"{t} ×{c}" for t, c in e.types) + ")"
        out.append(
            f'<path d="M{sx:.1f},{sy:.1f} Q{qx:.1f},{qy:.1f} {ex:.1f},{ey:.1f}" fill="none" stroke="#1f5fa8" stroke-opacity="0.55" '
            f'stroke-width="{width:.2f}" marker-end="url(#arrow)"><title>{_e(tip)}</title></path>'
        )
        lx, ly = 0.25 * sx + 0.5 * qx + 0.25 * ex, 0.25 * sy + 0.5 * qy + 0.25 * ey
        labels.append(f'<text x="{lx:.1f}" y="{ly + 4:.1f}" font-size="11" text-anchor="middle" fill="#1d2330" stroke="#fff" stroke-width="3" paint-order="stroke">{e.count}<title>{_e(tip)}</title></text>')
    for s in sg.nodes:
        x, y = pos[s.name]
        out.append(
            f'<a href="#{_anchor("svc", s.name)}"><ellipse cx="{x:.1f}" cy="{y:.1f}" rx="{rx[s.name]:.1f}" ry="{ry}" fill="#fff4cc" stroke="#a8851f"/>'
            f'<text x="{x:.1f}" y="{y - 2:.1f}" font-size="13" font-weight="bold" text-anchor="middle">{_e(s.name)}</text>'
            f'<text x="{x:.1f}" y="{y + 13:.1f}" font-size="10.5" text-anchor="middle" fill="#5b6475">{_e(_node_sub(s))}</text></a>'
        )
    out.extend(labels)
    out.append("</svg>")
    return "".join(out)


def _node_sub(s) -> str:
    return _plural(s.tools, "tool") + (f", {s.internal_edges} inside" if s.internal_edges else "")


def _graph_section(w, sg, graph) -> None:
    between = sum(e.count for e in sg.edges)
    within = sum(n.internal_edges for n in sg.nodes)
    w('<section id="graph"><h2>Service graph</h2>\n')
    w(
        f'<p class="muted">One node per service, one arrow per ordered pair of services: A → B when a tool of A produces a nominal type a tool of B consumes, '
        f"labelled with the number of such tool-level edges ({between} between services in all). Edges between two tools of one service ({within}) are counted "
        f"in the node (&ldquo;inside&rdquo;), not drawn. Hover an arrow for its types. The tool-level graph: <code>worldc graph WORLD --format dot</code>.</p>\n"
    )
    w(f'<div class="graph">{service_svg(sg)}</div>\n')
    if sg.edges:
        w('<table><tr><th>from</th><th>to</th><th class="num">tool-level edges</th><th>types</th></tr>\n')
        for e in sg.edges:
            w(f'<tr><td>{_e(e.source)}</td><td>{_e(e.target)}</td><td class="num">{e.count}</td><td>' + ", ".join(f'<span class="type">{_e(t)}</span> ×{c}' for t, c in e.types) + "</td></tr>\n")
        w("</table>\n")
    w("</section>\n")


def _rules_section(w, program, rules, cov) -> None:
    w('<section id="rules"><h2>House rules</h2>\n')
    if not rules:
        w('<p class="muted">This world declares no house rules.</p></section>\n')
        return
    w('<table><tr><th>rule</th><th>kind</th><th>text</th><th>source</th>' + ('<th class="num">tasks</th>' if cov else "") + "</tr>\n")
    for name, c in rules:
        kind = "rule" if c.is_rule else "constraint"
        src = _source(program, c.span)
        row = f'<tr id="{_anchor("rule", name)}"><td><code>{_e(name)}</code></td><td>{kind}</td><td>{_e(c.description or "")}</td><td><pre>{_e(src)}</pre></td>'
        if cov:
            row += f'<td class="num">{cov["rules"][name]}</td>'
        w(row + "</tr>\n")
    w("</table></section>\n")


def _bar_rows(w, counts: Counter, total: int, link_kind: str | None = None) -> None:
    top = max(counts.values(), default=0) or 1
    for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0]))):
        label = f'<a href="#{_anchor(link_kind, key)}"><code>{_e(key)}</code></a>' if link_kind else f"<code>{_e(key)}</code>"
        bar = f'<span class="bar" style="width:{200 * n / top:.0f}px"></span>' if n else '<span class="bar zero"></span>'
        share = f"{100 * n / total:.0f}%" if total else ""
        w(f'<tr><td>{label}</td><td class="num">{n}</td><td class="num">{share}</td><td>{bar}</td></tr>\n')


def _coverage_section(w, cov, n_tasks) -> None:
    tools, rules = cov["tools"], cov["rules"]
    used = sum(1 for v in tools.values() if v)
    w('<section id="coverage"><h2>Coverage</h2>\n')
    line = f"{used} of {_plural(len(tools), 'tool')} called by some task's reference plan"
    if rules:
        line += f"; {sum(1 for v in rules.values() if v)} of {_plural(len(rules), 'house rule')} attached to some task"
    w(f"<p>{_e(line)} ({_e(_plural(n_tasks, 'task'))}).</p>\n")
    never = sorted(t for t, v in tools.items() if not v)
    if never:
        w(f'<p class="muted">never called ({len(never)}): ' + ", ".join(f'<a href="#{_anchor("tool", t)}"><code>{_e(t)}</code></a>' for t in never) + "</p>\n")
    w('<h3>Tools</h3><table><tr><th>tool</th><th class="num">tasks</th><th class="num">share</th><th></th></tr>\n')
    _bar_rows(w, tools, n_tasks, "tool")
    w("</table>\n")
    if rules:
        w('<h3>House rules</h3><table><tr><th>rule</th><th class="num">tasks</th><th class="num">share</th><th></th></tr>\n')
        _bar_rows(w, rules, n_tasks, "rule")
        w("</table>\n")
    w('<h3>Hops and capabilities</h3><table><tr><th>hops / capability</th><th class="num">tasks</th><th class="num">share</th><th></th></tr>\n')
    _bar_rows(w, Counter({f"{h} hops": n for h, n in cov["hops"].items()}), n_tasks)
    _bar_rows(w, cov["capabilities"], n_tasks)
    w("</table></section>\n")


def _check_detail(check: dict) -> str:
    rest = {k: v for k, v in check.items() if k not in ("id", "kind")}
    return f"<code>{_e(json.dumps(rest, ensure_ascii=False, default=str))}</code>" if rest else ""


def _tasks_section(w, tasks: list[dict], max_tasks: int, results: dict) -> None:
    shown = tasks[:max_tasks]
    hops = sorted({t.get("hops") for t in tasks if isinstance(t.get("hops"), int)})
    caps = sorted({c for t in tasks for c in t.get("capabilities") or []})
    w('<section id="tasks"><h2>Tasks</h2>\n')
    if len(shown) < len(tasks):
        w(f'<p class="muted">The first {len(shown)} of {len(tasks)} tasks (<code>--max-tasks</code>); coverage above counts them all.</p>\n')
    w('<div class="filters"><input type="search" id="task-q" placeholder="filter: id, instruction, tool, check…" aria-label="filter tasks">')
    w('<label>hops <select id="task-hops"><option value="">all</option>' + "".join(f'<option value="{h}">{h}</option>' for h in hops) + "</select></label>")
    w('<label>capability <select id="task-cap"><option value="">all</option>' + "".join(f'<option value="{_e(c)}">{_e(c)}</option>' for c in caps) + "</select></label>")
    w('<span id="task-count" class="muted"></span></div>\n')
    for t in shown:
        tid = str(t.get("id", ""))
        instruction = str(t.get("instruction", ""))
        short = instruction if len(instruction) <= 140 else instruction[:137] + "…"
        tcaps = t.get("capabilities") or []
        badges = "".join(f'<span class="badge">{_e(c)}</span>' for c in tcaps)
        r = results.get(tid)
        if r is not None:
            ok = r.get("reward") == 1
            badges += f'<span class="badge {"pass" if ok else "fail"}">{"passed" if ok else "failed"} {_e(r.get("passed", ""))}/{_e(r.get("total", ""))}</span>'
        w(f'<details class="task" id="{_anchor("task", tid)}" data-hops="{_e(t.get("hops", ""))}" data-caps="{_e(" ".join(tcaps))}">')
        w(f'<summary><code>{_e(tid)}</code> · {_e(t.get("hops", "?"))} hops {badges}<br><span class="muted">{_e(short)}</span></summary>\n')
        w(f"<h4>Instruction</h4><p>{_e(instruction)}</p>\n")
        w(f'<p class="muted">services: {_e(", ".join(t.get("services") or []))}' + (f"; distractors: {_e(', '.join(t.get('distractors') or []))}" if t.get("distractors") else "") + f"; seed {_e(t.get('seed', ''))}</p>\n")
        plan = t.get("reference_plan") or []
        bindings = t.get("bindings") or []
        found_by = t.get("found_by") or []
        w("<h4>Reference plan</h4><ol>\n")
        for i, step in enumerate(plan):
            step = step if isinstance(step, dict) else {}
            line = f'<li><a href="#{_anchor("tool", str(step.get("tool", "")))}"><code>{_e(step.get("tool", ""))}</code></a> <code>{_e(json.dumps(step.get("arguments", {}), ensure_ascii=False, default=str))}</code>'
            if i < len(bindings) and bindings[i]:
                line += '<br><span class="muted">arguments from: ' + _e(", ".join(f"{k} ← {v}" for k, v in bindings[i].items())) + "</span>"
            if i < len(found_by) and found_by[i]:
                line += f'<br><span class="muted">found by {_e(found_by[i])}</span>'
            w(line + "</li>\n")
        w("</ol>\n")
        if "answer" in t and t.get("answer") is not None:
            w(f"<h4>Answer</h4><pre>{_json(t['answer'])}</pre>\n")
        checks = (t.get("checker") or {}).get("checks") or []
        w('<h4>Checker</h4><table><tr><th>id</th><th>kind</th><th>what</th></tr>\n')
        for c in checks:
            c = c if isinstance(c, dict) else {}
            w(f'<tr><td>{_e(c.get("id", ""))}</td><td>{_e(c.get("kind", ""))}</td><td>{_check_detail(c)}</td></tr>\n')
        w("</table>\n")
        if t.get("constraints"):
            w("<h4>House rules attached</h4><ul>" + "".join(f'<li><a href="#{_anchor("rule", str(c.get("name", "")))}"><code>{_e(c.get("name", ""))}</code></a> ({_e(c.get("kind", ""))}): {_e(c.get("description", ""))}</li>' for c in t["constraints"] if isinstance(c, dict)) + "</ul>\n")
        for key, title in (("branch", "Branch not taken"), ("idempotent", "Idempotency check")):
            if t.get(key):
                w(f"<h4>{title}</h4><pre>{_json(t[key])}</pre>\n")
        w(f"<details><summary>Proofs</summary><pre>{_json(t.get('proofs', {}))}</pre></details>\n")
        w("</details>\n")
    w("</section>\n")


def _eval_section(w, evaluation: dict, title: str) -> None:
    from .evaluate import svg_curve

    w('<section id="eval"><h2>Evaluation</h2>\n')
    line = f"success {evaluation.get('success_rate', 0):.0%}, partial credit {evaluation.get('partial_credit', 0):.0%} over {_plural(int(evaluation.get('tasks', 0)), 'task')}"
    w(f"<p>{_e(line)}</p>\n")
    svg = svg_curve(evaluation, title).replace(' xmlns="http://www.w3.org/2000/svg"', "")  # inline in HTML: no namespace needed
    w(f'<div class="graph">{svg}</div>\n')
    for key, head in (("by_hops", "hops"), ("by_capability", "capability")):
        rows = evaluation.get(key) or {}
        if not isinstance(rows, dict) or not rows:
            continue
        w(f'<h3>By {head}</h3><table><tr><th>{head}</th><th class="num">tasks</th><th class="num">success</th><th class="num">partial credit</th></tr>\n')
        for k, v in rows.items():
            if isinstance(v, dict):
                w(f'<tr><td>{_e(k)}</td><td class="num">{_e(v.get("tasks", ""))}</td><td class="num">{float(v.get("success_rate", 0)):.0%}</td><td class="num">{float(v.get("partial_credit", 0)):.0%}</td></tr>\n')
        w("</table>\n")
    usage = evaluation.get("usage")
    if isinstance(usage, dict) and usage:
        w("<p>tokens: " + _e(", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}" for k, v in usage.items())) + "</p>\n")
    errors = evaluation.get("errors") or []
    if errors:
        w(f"<h3>Endpoint errors ({len(errors)})</h3><ul>" + "".join(f"<li><code>{_e(x.get('task_id', ''))}</code>: {_e(x.get('error', ''))}</li>" for x in errors[:50] if isinstance(x, dict)) + "</ul>\n")
    w("</section>\n")
