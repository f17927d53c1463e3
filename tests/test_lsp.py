"""`worldc lsp`: the language server driven over stdio in a subprocess with real JSON-RPC
messages (a tiny client below), plus the position conversions and the CLI verb in-process."""

from __future__ import annotations

import argparse
import json
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from compoworld_dsl.check import check_paths  # noqa: E402
from compoworld_dsl.lsp import add_parser, from_lsp, to_lsp, units  # noqa: E402
from compoworld_dsl.resources import stdlib_dir  # noqa: E402
from compoworld_dsl.syntax.format import format_source  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOY = (ROOT / "worlds" / "toy.world").read_text(encoding="utf-8")
# The error sits after a non-BMP character, so UTF-16 positions differ from character columns.
BROKEN = TOY.replace('f.folder == "/archive"', 'f.folder == "/📁archive" or f.foldr == "x"')
TIMEOUT = 20


class Client:
    """A minimal LSP client: Content-Length framing over the server's pipes, a reader thread."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "compoworld_dsl.lsp"], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.inbox: queue.Queue[dict] = queue.Queue()
        self.notes: list[dict] = []
        self.next_id = 0
        self.encoding = "utf-16"
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while (line := out.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if line == b"" or length is None:
                return
            self.inbox.put(json.loads(out.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def _next(self) -> dict:
        msg = self.inbox.get(timeout=TIMEOUT)
        if "method" in msg and "id" in msg:  # a request from the server: answer it, keep going
            self.send({"id": msg["id"], "result": None})
        elif "method" in msg:
            self.notes.append(msg)
        return msg

    def request(self, method: str, params: dict) -> object:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            msg = self._next()
            if msg.get("id") == self.next_id and "method" not in msg:
                assert "error" not in msg, msg
                return msg["result"]

    def diagnostics(self, uri: str) -> list[dict]:
        """The next diagnostics published for `uri` (ones already received first)."""
        while True:
            for i, note in enumerate(self.notes):
                if note["method"] == "textDocument/publishDiagnostics" and note["params"]["uri"] == uri:
                    del self.notes[i]
                    return note["params"]["diagnostics"]
            self._next()


def doc(uri: str) -> dict:
    return {"textDocument": {"uri": uri}}


def at(uri: str, line: int, character: int) -> dict:
    return {**doc(uri), "position": {"line": line, "character": character}}


def position_of(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """0-based (line, UTF-16 character) of the start of `needle` in `text`."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(needle, start + 1)
    line = text.count("\n", 0, start)
    return line, units(text[text.rfind("\n", 0, start) + 1 : start])


@pytest.fixture
def client(tmp_path: Path, request):
    """A started, initialized server; `@pytest.mark.parametrize("client", [...], indirect=True)`
    passes the client's capabilities."""
    c = Client(ROOT)
    result = c.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": getattr(request, "param", {})})
    c.encoding = result["capabilities"].get("positionEncoding", "utf-16")
    c.notify("initialized", {})
    yield c
    if c.proc.poll() is None:
        c.proc.kill()
    c.proc.wait(timeout=TIMEOUT)


@pytest.mark.parametrize("client", [{"general": {"positionEncodings": ["utf-8"]}}], indirect=True)
def test_utf8_clients_get_utf8_positions(client: Client, tmp_path: Path) -> None:
    assert client.encoding == "utf-8"
    uri = (tmp_path / "toy.world").as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "world", "version": 1, "text": BROKEN}})
    (diag,) = client.diagnostics(uri)
    line = BROKEN.splitlines()[diag["range"]["start"]["line"]]
    assert diag["range"]["start"]["character"] == len(line[: line.index("f.foldr")].encode("utf-8"))


def test_positions_convert_to_utf16_and_back() -> None:
    line = 'x == "📁a" or y'
    col = line.index("or") + 1  # 1-based, in characters, as the parser counts
    assert to_lsp(line, 3, col) == (2, col - 1 + 1)  # the folder emoji takes two UTF-16 units
    assert to_lsp(line, 3, col, "utf-32") == (2, col - 1)
    assert to_lsp(line, 3, col, "utf-8") == (2, col - 1 + 3)
    assert from_lsp(line, col, "utf-16") == col
    assert to_lsp(None, 1, 1) == (0, 0)


def test_verb_registers_and_rejects_a_bad_address(capsys) -> None:
    parser = argparse.ArgumentParser(prog="worldc")
    add_parser(parser.add_subparsers(dest="verb"))
    args = parser.parse_args(["lsp", "--tcp", "nohost"])
    assert args.func(args) == 2
    assert "--tcp takes HOST:PORT" in capsys.readouterr().err
    assert parser.parse_args(["lsp"]).stdio is False  # stdio is the default without the flag


def test_without_pygls_says_which_extra(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "lsprotocol", None)
    monkeypatch.setitem(sys.modules, "pygls", None)
    parser = argparse.ArgumentParser(prog="worldc")
    add_parser(parser.add_subparsers(dest="verb"))
    args = parser.parse_args(["lsp"])
    assert args.func(args) == 2
    assert capsys.readouterr().err.strip() == "worldc: error: the language server needs the optional extra: pip install 'compoworld-dsl[lsp]'"


def test_session(client: Client, tmp_path: Path) -> None:
    world = tmp_path / "toy.world"
    world.write_text(TOY, encoding="utf-8")
    uri = world.as_uri()

    # didOpen of an unsaved buffer with an error: the checker's code, at the checker's span
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "world", "version": 1, "text": BROKEN}})
    diags = client.diagnostics(uri)
    (broken_path := tmp_path / "broken_copy.world").write_text(BROKEN, encoding="utf-8")
    (expected,) = check_paths([broken_path]).diagnostics
    assert [d["code"] for d in diags] == [expected.code] == ["E103"]
    assert diags[0]["message"].splitlines()[0] == expected.message
    line_text = BROKEN.splitlines()[expected.span.line - 1]
    start = {"line": expected.span.line - 1, "character": len(line_text[: expected.span.col - 1].encode("utf-16-le")) // 2}
    assert diags[0]["range"]["start"] == start
    assert diags[0]["range"]["start"] == dict(zip(("line", "character"), position_of(BROKEN, "f.foldr")))
    assert diags[0]["severity"] == 1 and diags[0]["source"] == "worldc"

    # a buffer that does not parse: E001 published, the server keeps serving
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": TOY.replace("rule", "rule {")}]})
    assert [d["code"] for d in client.diagnostics(uri)] == ["E001"]
    assert client.request("textDocument/formatting", {**doc(uri), "options": {"tabSize": 2, "insertSpaces": True}}) is None

    # fixed: the diagnostics are cleared
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": TOY}]})
    assert client.diagnostics(uri) == []

    # hover on the table in `tasks.tasks` (the second name), and on the service (the first)
    line, char = position_of(TOY, "tasks.tasks")
    hover = client.request("textDocument/hover", at(uri, line, char + len("tasks.") + 1))
    assert "state tasks: table[Task]" in hover["contents"]["value"]
    assert hover["range"]["start"] == {"line": line, "character": char + len("tasks.")}
    hover = client.request("textDocument/hover", at(uri, line, char))
    assert "service tasks" in hover["contents"]["value"] and "A task tracker" in hover["contents"]["value"]

    # definition into the stdlib file the world uses
    tasks_world = (stdlib_dir() / "tasks.world").resolve()
    tasks_text = tasks_world.read_text(encoding="utf-8")
    loc = client.request("textDocument/definition", at(uri, line, char + len("tasks.") + 1))
    assert loc["uri"] == tasks_world.as_uri()
    assert loc["range"]["start"] == dict(zip(("line", "character"), position_of(tasks_text, "tasks: table")))

    # hover on an enum member and on a tool's say text (in the stdlib file, through the world's index)
    line, char = position_of(TOY, "done")
    assert "member" in client.request("textDocument/hover", at(uri, line, char))["contents"]["value"]

    # references of `done`: in the world and in stdlib/tasks.world, declaration included
    refs = client.request("textDocument/references", {**at(uri, line, char), "context": {"includeDeclaration": True}})
    where = {(r["uri"], r["range"]["start"]["line"]) for r in refs}
    assert (uri, line) in where
    assert (tasks_world.as_uri(), position_of(tasks_text, "done }")[0]) in where  # the enum declares it
    assert sum(u == tasks_world.as_uri() for u, _ in where) >= 4
    refs = client.request("textDocument/references", {**at(uri, line, char), "context": {"includeDeclaration": False}})
    assert (tasks_world.as_uri(), position_of(tasks_text, "done }")[0]) not in {(r["uri"], r["range"]["start"]["line"]) for r in refs}

    # completion: after `tasks.` the service's members; elsewhere keywords and declared names
    line, char = position_of(TOY, "tasks.tasks")
    items = client.request("textDocument/completion", at(uri, line, char + len("tasks.")))
    labels = {i["label"] for i in items["items"]}
    assert {"tasks", "add_task", "close_task", "Task"} <= labels and "service" not in labels
    items = client.request("textDocument/completion", at(uri, 6, 2))
    labels = {i["label"] for i in items["items"]}
    assert {"rule", "constraint", "service", "TaskState", "todo", "calendar", "text"} <= labels

    # document symbols: the world, with its constraint and rule inside
    (sym,) = client.request("textDocument/documentSymbol", doc(uri))
    assert sym["name"] == "toy" and [c["name"] for c in sym["children"]] == ["keep_archive", "no_weekend_tasks"]

    # formatting: one edit to `worldc fmt`'s output; none when already formatted
    messy = TOY.replace("  use stdlib.files", "use    stdlib.files")
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4}, "contentChanges": [{"text": messy}]})
    assert client.diagnostics(uri) == []
    (edit,) = client.request("textDocument/formatting", {**doc(uri), "options": {"tabSize": 2, "insertSpaces": True}})
    assert edit["newText"] == format_source(messy) and edit["range"]["start"] == {"line": 0, "character": 0}
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": format_source(messy)}]})
    assert client.diagnostics(uri) == []
    assert client.request("textDocument/formatting", {**doc(uri), "options": {"tabSize": 2, "insertSpaces": True}}) == []

    assert client.request("shutdown", {}) is None
    client.notify("exit", {})
    assert client.proc.wait(timeout=TIMEOUT) == 0


def test_imported_file_diagnostics_go_to_its_uri(client: Client, tmp_path: Path) -> None:
    helper = tmp_path / "helper.world"
    helper.write_text("service helper {\n  state n: Nope = 1\n}\n", encoding="utf-8")
    main = tmp_path / "main.world"
    main.write_text('import "helper.world"\n', encoding="utf-8")
    client.notify("textDocument/didOpen", {"textDocument": {"uri": main.as_uri(), "languageId": "world", "version": 1, "text": 'import "helper.world"\n'}})
    assert client.diagnostics(main.as_uri()) == []
    (diag,) = client.diagnostics(helper.as_uri())
    assert diag["code"] == "E102" and diag["range"]["start"] == {"line": 1, "character": 11}

    # definition through `import "helper.world"` opens the file; saving a fix clears it
    loc = client.request("textDocument/definition", at(main.as_uri(), 0, 9))
    assert loc["uri"] == helper.as_uri()
    helper.write_text("service helper {\n  state n: int = 1\n}\n", encoding="utf-8")
    client.notify("textDocument/didSave", doc(main.as_uri()))
    assert client.diagnostics(main.as_uri()) == []
    assert client.diagnostics(helper.as_uri()) == []
    shutil.rmtree(tmp_path, ignore_errors=True)
