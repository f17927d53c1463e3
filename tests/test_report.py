"""`worldc report`: one static, self-contained HTML page about a world and its tasks."""

import json
import os
import re
import shutil
import subprocess
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from compoworld_dsl.check import check_paths
from compoworld_dsl.cli import main as worldc


def main(argv):
    return worldc(["report", *argv])
from compoworld_dsl.sample.run import Job, run

ROOT = Path(__file__).resolve().parent.parent
WORLDS = {"toy": (3, 4), "legal_ops": (2, 3)}  # hops, tasks

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Balanced(HTMLParser):
    """Every element closed, in order (void elements excepted); records what a page would fetch."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.fetches: list[str] = []
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in ("src", "href", "action", "xlink:href", "poster", "data") and v and not v.startswith("#"):
                self.fetches.append(f"{tag} {k}={v}")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):  # <path .../> inside SVG
        self.tags.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}> at {self.getpos()}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(page: str) -> Balanced:
    p = Balanced()
    p.feed(page)
    p.close()
    assert not p.problems, p.problems[:5]
    assert p.stack == [], p.stack
    return p


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """For each world: a small sampled task file and the report over it."""
    base = tmp_path_factory.mktemp("report")
    out = {}
    for name, (hops, n) in WORLDS.items():
        world = str(ROOT / "worlds" / f"{name}.world")
        tasks = base / f"{name}.jsonl"
        report = run(Job(world, hops, n, 1), tasks)
        assert report.emitted == n
        folder = base / f"{name}-report"
        assert main([world, str(tasks), "-o", str(folder)]) == 0
        out[name] = (world, tasks, folder)
    return out


@pytest.mark.parametrize("name", list(WORLDS))
def test_report_is_well_formed_and_complete(made, name):
    world, tasks_path, folder = made[name]
    assert sorted(p.name for p in folder.iterdir()) == ["index.html"]
    page = (folder / "index.html").read_text(encoding="utf-8")
    parsed = parse(page)
    assert page.startswith("<!DOCTYPE html>") and parsed.tags.count("svg") >= 1
    model = check_paths([world]).model
    text = "".join(parsed.text)
    for s in model.world.services:
        assert f'id="svc-{s}"' in page and s in text
        for t in model.services[s].tools:
            assert f'id="tool-{s}.{t}"' in page and t in text
    for c in model.world.constraints:
        assert f'id="rule-{c.name}"' in page and (c.description or "") in text
    tasks = [json.loads(line) for line in tasks_path.read_text().splitlines()]
    for t in tasks:
        assert escape(t["id"]) in page
        assert escape(t["instruction"]) in page  # escaped, quotes and all
        assert t["instruction"] in text  # and it reads back as written
        for step in t["reference_plan"]:
            assert step["tool"] in text
        for check in t["checker"]["checks"]:
            assert check["kind"] in text
    assert page.count('<details class="task"') == len(tasks)
    for section in ("services", "graph", "rules", "coverage", "tasks"):
        assert f'<section id="{section}">' in page


@pytest.mark.parametrize("name", list(WORLDS))
def test_report_fetches_nothing(made, name):
    page = (made[name][2] / "index.html").read_text(encoding="utf-8")
    parsed = parse(page)
    assert parsed.fetches == []  # every link is to an anchor of the page itself
    assert "link" not in parsed.tags and "iframe" not in parsed.tags and "img" not in parsed.tags
    assert not re.search(r"<script[^>]*\ssrc=", page)
    assert not re.search(r"url\((?!#)|@import", page)  # url(#arrow): a marker of the page itself
    assert "http://" not in page and "https://" not in page and "//cdn" not in page


def test_coverage_counts_tasks_per_tool(made):
    world, tasks_path, folder = made["legal_ops"]
    page = (folder / "index.html").read_text(encoding="utf-8")
    tasks = [json.loads(line) for line in tasks_path.read_text().splitlines()]
    called = {step["tool"] for t in tasks for step in t["reference_plan"]}
    m = re.search(r"(\d+) of (\d+) tools called", page)
    assert m and int(m.group(1)) == len(called) and int(m.group(2)) == 94


def test_escapes_what_the_world_says(tmp_path):
    src = (ROOT / "worlds" / "toy.world").read_text()
    evil = '<script>alert("x")</script> & <b>co</b>'
    src = src.replace("A desk worker's files, calendar and task list", evil.replace('"', '\\"'))
    assert evil.replace('"', '\\"') in src
    world = tmp_path / "evil.world"
    world.write_text(src)
    assert check_paths([world]).ok
    assert main([str(world), "-o", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "index.html").read_text()
    parse(page)
    assert "<script>alert" not in page and escape(evil) in page
    assert "<script>" not in page  # no tasks: no filter script either


def test_eval_report_adds_the_curve(made, tmp_path):
    from compoworld_dsl.codegen.python import load_world
    from compoworld_dsl.evaluate import evaluate, parse_agent, to_json
    from compoworld_dsl.taskfile import load_tasks

    world_path, tasks_path, _ = made["toy"]
    world = load_world(check_paths([world_path]).model, world_path)
    report = evaluate(world, load_tasks(tasks_path, world), parse_agent("oracle", None, None, 0, 1.0))
    ev = tmp_path / "eval.json"
    ev.write_text(to_json(report))
    out = tmp_path / "r"
    assert main([world_path, str(tasks_path), "-o", str(out), "--eval", str(ev)]) == 0
    page = (out / "index.html").read_text()
    parse(page)
    assert '<section id="eval">' in page and "success 100%" in page and "polyline" in page
    assert "http" not in page


def test_refuses_to_overwrite_and_writes_atomically(made, tmp_path, capsys):
    world, tasks, _ = made["toy"]
    out = tmp_path / "site"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    assert main([world, str(tasks), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("worldc: error: not overwriting") and "--force" in err
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main([world, "-o", str(empty)]) == 0  # an empty folder is filled without --force
    assert (empty / "index.html").is_file()
    assert oct(empty.stat().st_mode & 0o777) == oct(0o777 & ~_umask())
    assert oct((empty / "index.html").stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def test_force_replaces_only_a_report_it_wrote(made, tmp_path, capsys):
    world, tasks, _ = made["toy"]
    out = tmp_path / "site"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    (out / "data").mkdir()
    (out / "data" / "notes.md").write_text("mine too")
    assert main([world, str(tasks), "-o", str(out), "--force"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("worldc: error: not replacing") and "data/" in err and "keep.txt" in err and len(err.splitlines()) == 1
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == ["data", "data/notes.md", "keep.txt"]
    assert (out / "keep.txt").read_text() == "mine"

    # an index.html that worldc did not write (someone's home page) is not replaced either
    home = tmp_path / "home"
    home.mkdir()
    (home / "index.html").write_text("<!DOCTYPE html><title>My page</title>")
    assert main([world, "-o", str(home), "--force"]) == 2
    assert "did not write" in capsys.readouterr().err
    assert (home / "index.html").read_text() == "<!DOCTYPE html><title>My page</title>"

    # a folder holding only an earlier report: --force replaces its page, and nothing is left over
    report = tmp_path / "report"
    assert main([world, str(tasks), "-o", str(report)]) == 0
    first = (report / "index.html").read_text()
    assert main([world, str(tasks), "-o", str(report), "--force", "--max-tasks", "1"]) == 0
    second = (report / "index.html").read_text()
    assert second != first and "The first 1 of" in second
    assert sorted(p.name for p in report.iterdir()) == ["index.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "report", "site"]  # nothing beside it either


def test_a_failed_write_keeps_the_old_report(made, tmp_path, capsys, monkeypatch):
    from compoworld_dsl import report as report_mod

    world, tasks, _ = made["toy"]
    out = tmp_path / "report"
    assert main([world, "-o", str(out)]) == 0
    before = (out / "index.html").read_bytes()

    # a page that cannot be written out whole: the write fails halfway through the text
    monkeypatch.setattr(report_mod, "build_html", lambda *a, **k: "<!DOCTYPE html>" + "x" * 100_000 + "\ud800")
    assert main([world, str(tasks), "-o", str(out), "--force"]) == 1
    assert "worldc: error:" in capsys.readouterr().err
    assert (out / "index.html").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["index.html"]  # no temporary file left
    fresh = tmp_path / "fresh"
    assert main([world, "-o", str(fresh)]) == 1
    assert not fresh.exists()  # a folder it made for a report it could not write is gone again


def _umask() -> int:
    m = os.umask(0)
    os.umask(m)
    return m


def test_usage_errors(made, tmp_path, capsys):
    world, tasks, _ = made["toy"]
    assert main([world, str(tmp_path / "missing.jsonl"), "-o", str(tmp_path / "a")]) == 2
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"tasks": 3}')
    assert main([world, str(tasks), "-o", str(tmp_path / "b"), "--eval", str(bad)]) == 1
    assert "not a `worldc eval --format json` report" in capsys.readouterr().err
    (tmp_path / "file").write_text("x")
    assert main([world, "-o", str(tmp_path / "file")]) == 2
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": "x"}\n')
    assert main([world, str(broken), "-o", str(tmp_path / "c")]) == 1
    assert "broken.jsonl:1" in capsys.readouterr().err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists() and not (tmp_path / "c").exists()


def test_max_tasks_shows_fewer_but_counts_all(made, tmp_path):
    world, tasks, _ = made["toy"]
    assert main([world, str(tasks), "-o", str(tmp_path / "r"), "--max-tasks", "1"]) == 0
    page = (tmp_path / "r" / "index.html").read_text()
    parse(page)
    assert page.count('<details class="task"') == 1 and "The first 1 of 4 tasks" in page


CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser", shutil.which("chromium") or "") if p and os.path.exists(p)), None)


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed")
def test_renders_in_headless_chromium_without_console_errors(made):
    page = made["legal_ops"][2] / "index.html"
    proc = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "task-count" in proc.stdout and " shown" in proc.stdout  # the filter script ran
    console_errors = [line for line in proc.stderr.splitlines() if "CONSOLE" in line and ("Uncaught" in line or "Error" in line)]
    assert console_errors == []


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_filter_script_runs_and_filters(made, tmp_path):
    """The page's script, run by node against a stand-in DOM of three tasks."""
    page = (made["toy"][2] / "index.html").read_text()
    script = re.search(r"<script>(.*?)</script>", page, re.S).group(1)
    harness = """
    function El(attrs, text) { this.a = attrs || {}; this.textContent = text || ''; this.value = ''; this.hidden = false; this.l = {}; }
    El.prototype.getAttribute = function (k) { return this.a[k]; };
    El.prototype.addEventListener = function (k, f) { this.l[k] = f; };
    var els = { 'task-q': new El(), 'task-hops': new El(), 'task-cap': new El(), 'task-count': new El() };
    var tasks = [new El({'data-hops': '3', 'data-caps': 'sequential-dependency'}, 'Move the file'),
                 new El({'data-hops': '2', 'data-caps': 'conditional-branching sequential-dependency'}, 'Close the task'),
                 new El({'data-hops': '3', 'data-caps': 'idempotency-check'}, 'Add a task')];
    var document = { getElementById: function (k) { return els[k]; }, querySelectorAll: function () { return tasks; } };
    SCRIPT
    var out = [els['task-count'].textContent];
    els['task-hops'].value = '3'; els['task-hops'].l.change(); out.push(els['task-count'].textContent);
    els['task-q'].value = 'TASK'; els['task-q'].l.input(); out.push(els['task-count'].textContent);
    els['task-hops'].value = ''; els['task-cap'].value = 'sequential-dependency'; els['task-cap'].l.change(); out.push(els['task-count'].textContent);
    console.log(JSON.stringify(out));
    """.replace("SCRIPT", script)
    js = tmp_path / "filter.js"
    js.write_text(harness)
    proc = subprocess.run([NODE, str(js)], capture_output=True, text=True, timeout=600)  # a hang guard, not a speed check
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == ["3 of 3 shown", "2 of 3 shown", "1 of 3 shown", "1 of 3 shown"]
