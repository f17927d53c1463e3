"""`worldc lsp` under hostile input: a probe that spawns the server and sends what a broken or
malicious client might: a huge Content-Length, an endless header line, endless headers, headers
that are not `Name: value`, bodies that are not JSON, and requests with bad positions, missing
fields and wrong types for every request the server answers, then random messages.

What must hold: every request that has an id gets a reply (a result or an error), the server stays
up after anything it can recover from, closes the connection with one clear line on stderr when it
cannot (the framing is lost), its memory (VmRSS) stays bounded, and stderr never shows a traceback.
The framing rules are also tested in-process on `read_frame` (every broken header kind, and how
many bytes it reads before giving up).

Bounded by default (300 random requests, one 48 MiB header line; about 45 s on a busy 2-core
machine, most of it starting servers). Long mode, WORLDC_LONG=1: 5,000 random requests and a
256 MiB header line."""

from __future__ import annotations

import io
import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from compoworld_dsl.lsp import MAX_BODY, MAX_HEADER_LINE, MAX_HEADER_LINES, FramingError, read_frame  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TOY = (ROOT / "worlds" / "toy.world").read_text(encoding="utf-8")
LONG = os.environ.get("WORLDC_LONG") == "1"
N_RANDOM = 5000 if LONG else 300
TIMEOUT = 60  # seconds to wait for one reply or for the process to end: generous, never the point
MiB = 2**20


class Raw:
    """The server as a subprocess, spoken to in raw bytes; replies and stderr are collected by threads."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "compoworld_dsl.lsp"], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.inbox: queue.Queue[dict] = queue.Queue()
        self.err = bytearray()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while (line := out.readline(4096)) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if line == b"" or length is None:
                return
            self.inbox.put(json.loads(out.read(length)))

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        while chunk := self.proc.stderr.read1(65536):
            self.err += chunk

    @property
    def stderr(self) -> str:
        return self.err.decode("utf-8", "replace")

    def write(self, data: bytes) -> bool:
        """Write bytes; False when the server has closed its end."""
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, ConnectionResetError):
            return False

    def body(self, body: bytes) -> bool:
        return self.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    def send(self, message: dict) -> None:
        assert self.body(json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8"))

    def replies(self, ids: set, null_ids: int = 0) -> tuple[dict, list[dict]]:
        """Wait for a reply to each id in `ids` and for `null_ids` replies with id null."""
        got: dict = {}
        nulls: list[dict] = []
        deadline = time.monotonic() + TIMEOUT + len(ids) * 0.5
        while not (ids <= got.keys() and len(nulls) >= null_ids):
            try:
                msg = self.inbox.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                missing = sorted(map(str, ids - got.keys()))
                raise AssertionError(f"no reply to {len(missing)} requests, e.g. {missing[:5]}; {len(nulls)}/{null_ids} id-null replies; stderr: {self.stderr[-2000:]}") from None
            if "method" in msg and "id" in msg:  # a request from the server: answer it
                self.send({"id": msg["id"], "result": None})
            elif "method" not in msg:
                if msg.get("id") is None:
                    nulls.append(msg)
                else:
                    got[msg["id"]] = msg
        return got, nulls

    def initialize(self, open_doc: bool = True) -> str:
        self.send({"id": "init", "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}})
        self.replies({"init"})
        self.send({"method": "initialized", "params": {}})
        uri = (ROOT / "worlds" / "toy.world").as_uri()
        if open_doc:
            self.send({"method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "world", "version": 1, "text": TOY}}})
        return uri

    def rss_mib(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS")

    def ended(self) -> int:
        """The exit status, once the server ends by itself (it must, within TIMEOUT)."""
        if self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
        try:
            return self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError(f"the server did not end; stderr: {self.stderr[-2000:]}") from None

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=TIMEOUT)


@pytest.fixture
def raw():
    r = Raw()
    yield r
    r.close()


def no_traceback(r: Raw) -> None:
    assert "Traceback" not in r.stderr and "MemoryError" not in r.stderr, r.stderr[-3000:]


def closes_with(r: Raw, words: str) -> None:
    """The server ends by itself, status 1, with one `worldc lsp: error:` line that says `words`."""
    status = r.ended()
    time.sleep(0.2)  # let the stderr thread take the last bytes
    no_traceback(r)
    assert status == 1, (status, r.stderr[-2000:])
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("worldc lsp: error:")]
    assert lines and words in lines[-1], r.stderr[-2000:]


# ─────────────────────────── framing that cannot be recovered ───────────────────────────


def frames(data: bytes) -> list:
    """What read_frame makes of a byte stream: each body, then None at its end or the FramingError."""
    stream, out = io.BufferedReader(io.BytesIO(data)), []
    while True:
        try:
            body = read_frame(stream)
        except FramingError as e:
            return out + [e]
        out.append(body)
        if body is None:
            return out


def test_read_frame_reads_good_frames() -> None:
    assert frames(b"Content-Length: 2\r\n\r\n{}" b"content-length:3\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[1]") == [b"{}", b"[1]", None]
    assert frames(b"\r\nContent-Length: 0\r\n\r\n") == [b"", None]  # a blank line between messages is allowed
    assert frames(b"") == [None]


@pytest.mark.parametrize(
    "data, words",
    [
        (b"Content-Length: 1000000000000\r\n\r\n{}", "over the limit"),
        (b"Content-Length: %d\r\n\r\n{}" % (MAX_BODY + 1), "over the limit"),
        (b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n{}", "over the limit"),
        (b"Content-Length: abc\r\n\r\n{}", "not a number"),
        (b"Content-Length: -5\r\n\r\n{}", "not a number"),
        (b"Content-Length: \r\n\r\n{}", "not a number"),
        (b"Content-Type: application/json\r\n\r\n{}", "no Content-Length"),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "shutdown"}\r\n\r\n', "not `Name: value`"),
        (b"Content-Length 5\r\n\r\nhello", "not `Name: value`"),
        (b"Content-Length: 10\r\nContent-Length: 12\r\n\r\n{}", "two Content-Length"),
        (b"X-Padding: 1\r\n" * (MAX_HEADER_LINES + 1), "more than 32 header lines"),
        (b"\r\n" * (MAX_HEADER_LINES + 1), "more than 32 header lines"),
        (b"X" * (MAX_HEADER_LINE + 1), "longer than 8192 bytes"),
        (b"Content-Length: 5" + b" " * MAX_HEADER_LINE + b"\r\n\r\nhello", "longer than 8192 bytes"),
        (b'Content-Length: 500\r\n\r\n{"jsonrpc": "2.0"}', "ended inside a message body"),
        (b"Content-Length: 5\r\n", "ended inside a message header"),
        (b"Content-Len", "ended inside a message header"),
    ],
)
def test_read_frame_refuses_broken_framing(data: bytes, words: str) -> None:
    *good, last = frames(data)
    assert good == [] and isinstance(last, FramingError) and words in str(last), last


def test_read_frame_reads_no_more_than_its_limits() -> None:
    """Bytes taken from the stream before giving up: one header line, or 32 of them, at most."""
    stream = io.BufferedReader(io.BytesIO(b"A" * (64 * MiB)))
    with pytest.raises(FramingError):
        read_frame(stream)
    assert stream.tell() <= MAX_HEADER_LINE + 1
    stream = io.BufferedReader(io.BytesIO(b"X-Padding: 1\r\n" * 100_000))
    with pytest.raises(FramingError):
        read_frame(stream)
    assert stream.tell() <= (MAX_HEADER_LINES + 1) * len(b"X-Padding: 1\r\n")


@pytest.mark.parametrize("length", [b"1000000000000", b"%d" % (MAX_BODY + 1), b"abc"], ids=["10**12", "cap+1", "not a number"])
def test_the_server_closes_the_connection_on_a_bad_content_length(raw: Raw, length: bytes) -> None:
    raw.initialize(open_doc=False)
    raw.write(b"Content-Length: %s\r\n\r\n{}" % length)
    closes_with(raw, "Content-Length")


def test_an_endless_header_line_is_cut_without_memory_growth(raw: Raw) -> None:
    raw.initialize(open_doc=False)
    base = raw.rss_mib()
    sent, chunk = 0, b"A" * MiB
    limit = (256 if LONG else 48) * MiB
    while sent < limit and raw.proc.poll() is None and raw.write(chunk):
        sent += len(chunk)
        if sent % (16 * MiB) == 0 and raw.proc.poll() is None:
            assert raw.rss_mib() < base + 12, f"RSS grew from {base:.0f} to {raw.rss_mib():.0f} MiB after {sent // MiB} MiB of one header line"
    closes_with(raw, "header line")


# ─────────────────────────── messages that can be answered ───────────────────────────

POSITIONED = ["textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/completion"]
DOCUMENT_ONLY = ["textDocument/documentSymbol", "textDocument/formatting"]


def good_params(method: str, uri: str) -> dict:
    params: dict = {"textDocument": {"uri": uri}}
    if method in POSITIONED:
        params["position"] = {"line": 3, "character": 4}
    if method == "textDocument/references":
        params["context"] = {"includeDeclaration": True}
    if method == "textDocument/formatting":
        params["options"] = {"tabSize": 2, "insertSpaces": True}
    return params


def bad_params(method: str, uri: str) -> list[tuple[str, object]]:
    """(what is wrong, params) for one method: every one must get an InvalidParams error."""
    good = good_params(method, uri)
    out: list[tuple[str, object]] = [
        ("params null", None),
        ("params a list", [1, 2]),
        ("params a string", "hover"),
        ("no textDocument", {k: v for k, v in good.items() if k != "textDocument"}),
        ("textDocument a number", {**good, "textDocument": 5}),
        ("uri a number", {**good, "textDocument": {"uri": 5}}),
        ("unknown document", {**good, "textDocument": {"uri": "file:///nowhere/not-open.world"}}),
        ("untitled unknown document", {**good, "textDocument": {"uri": "untitled:Untitled-9"}}),
    ]
    if method in POSITIONED:
        out += [
            ("line -1", {**good, "position": {"line": -1, "character": 0}}),
            ("character -1", {**good, "position": {"line": 0, "character": -1}}),
            ("line past the end", {**good, "position": {"line": TOY.count("\n") + 1, "character": 0}}),
            ("line 10**6", {**good, "position": {"line": 10**6, "character": 0}}),
            ("line 2**40", {**good, "position": {"line": 2**40, "character": 0}}),
            ("line a string", {**good, "position": {"line": "0", "character": 0}}),
            ("line a float", {**good, "position": {"line": 1.5, "character": 0}}),
            ("line null", {**good, "position": {"line": None, "character": 0}}),
            ("no position", {k: v for k, v in good.items() if k != "position"}),
            ("position a list", {**good, "position": [0, 0]}),
            ("no character", {**good, "position": {"line": 0}}),
        ]
    if method == "textDocument/references":
        out.append(("no context", {k: v for k, v in good.items() if k != "context"}))
    if method == "textDocument/formatting":
        out.append(("no options", {k: v for k, v in good.items() if k != "options"}))
    return out


def test_every_bad_request_gets_an_invalid_params_error(raw: Raw) -> None:
    uri = raw.initialize()
    expect: dict[str, str] = {}
    for method in POSITIONED + DOCUMENT_ONLY:
        for what, params in bad_params(method, uri):
            mid = f"{method} {what}"
            raw.send({"id": mid, "method": method, "params": params})
            expect[mid] = what
        raw.send({"id": f"{method} no params", "method": method})
        expect[f"{method} no params"] = "no params"
    got, _ = raw.replies(set(expect))
    wrong = {mid: got[mid].get("error", got[mid].get("result")) for mid in expect if got[mid].get("error", {}).get("code") != -32602}
    assert not wrong, f"{len(wrong)} of {len(expect)} bad requests got no InvalidParams error: {list(wrong.items())[:6]}"
    assert raw.proc.poll() is None
    # the server still serves: a good request for every method gets a result
    for method in POSITIONED + DOCUMENT_ONLY:
        raw.send({"id": f"good {method}", "method": method, "params": good_params(method, uri)})
    # LSP: "if the character value is greater than the line length it defaults back to the line length"
    raw.send({"id": "good past the line", "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2**31 - 1}}})
    got, _ = raw.replies({f"good {m}" for m in POSITIONED + DOCUMENT_ONLY} | {"good past the line"})
    assert all("result" in m for m in got.values()), got
    no_traceback(raw)


def test_malformed_messages_get_jsonrpc_errors_and_the_server_goes_on(raw: Raw) -> None:
    uri = raw.initialize()
    # framed correctly, so the framing survives: each gets an error reply, id null where none can be read
    id_null = [
        (b"this is not json", -32700),
        (b'{"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover"', -32700),  # cut short
        (b"\xff\xfe{}", -32700),  # not UTF-8
        (b"[" * 100_000 + b"]" * 100_000, -32700),  # nested past the parser's depth
        (b'{"jsonrpc": "2.0", "id": ' + b"9" * 5000 + b', "method": "shutdown"}', -32700),  # an id too long to read
        (b"", -32700),
        (b"[]", -32600),
        (b'[{"jsonrpc": "2.0", "id": 1, "method": "shutdown"}]', -32600),  # batches are not LSP
        (b"42", -32600),
        (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "textDocument/hover"}', -32600),
        (b'{"jsonrpc": "2.0", "id": 1e400, "method": "textDocument/hover"}', -32600),
        (b'{"jsonrpc": "2.0", "id": null, "method": "textDocument/hover"}', -32600),  # LSP ids are numbers or strings
        (b'{"no": "jsonrpc"}', -32600),
    ]
    with_id = {
        "m1": (b'{"id": "m1", "method": "textDocument/hover", "params": {}}', -32600),  # no "jsonrpc"
        "m2": (b'{"jsonrpc": "1.0", "id": "m2", "method": "textDocument/hover"}', -32600),
        "m3": (b'{"jsonrpc": "2.0", "id": "m3", "method": 5}', -32600),
        "m4": (b'{"jsonrpc": "2.0", "id": "m4"}', -32600),
        "m5": (b'{"jsonrpc": "2.0", "id": "m5", "method": "textDocument/didSave", "params": {"textDocument": {"uri": "%s"}}}' % uri.encode(), -32600),
        "m6": (b'{"jsonrpc": "2.0", "id": "m6", "method": "no/such/method"}', -32601),
        "m7": (b'{"jsonrpc": "2.0", "id": "m7", "method": "$/no/such"}', -32601),
    }
    for body, _ in id_null:
        assert raw.body(body)
    for body, _ in with_id.values():
        assert raw.body(body)
    got, nulls = raw.replies(set(with_id), null_ids=len(id_null))
    assert sorted(m["error"]["code"] for m in nulls) == sorted(code for _, code in id_null)
    assert {mid: got[mid]["error"]["code"] for mid in with_id} == {mid: code for mid, (_, code) in with_id.items()}
    # notifications with bad params get no reply (none is allowed) and break nothing
    for params in (None, [], {"textDocument": 5}, {"textDocument": {"uri": "file:///not/open.world", "version": 1}, "contentChanges": [{"text": "x"}]}):
        for method in ("textDocument/didOpen", "textDocument/didChange", "textDocument/didSave", "textDocument/didClose", "workspace/didChangeConfiguration"):
            raw.send({"method": method, "params": params})
    raw.send({"id": "after", "method": "textDocument/hover", "params": good_params("textDocument/hover", uri)})
    got, _ = raw.replies({"after"})
    assert "result" in got["after"]
    assert raw.proc.poll() is None
    no_traceback(raw)


def random_value(rng: random.Random, depth: int = 0):
    kinds = ["int", "neg", "big", "str", "float", "null", "bool", "list", "dict", "dict"] if depth < 4 else ["int", "str", "null"]
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.randint(0, 60)
    if kind == "neg":
        return -rng.randint(1, 2**40)
    if kind == "big":
        return rng.choice([2**31, 2**63, 10**30])
    if kind == "str":
        return rng.choice(["", "x", "file:///nowhere.world", "\ud800", "untitled:1", "0", "é" * 50])
    if kind == "float":
        return rng.choice([1.5, -0.0, 1e308])
    if kind == "null":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "list":
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    keys = ["textDocument", "position", "uri", "line", "character", "context", "includeDeclaration", "options", "tabSize", "insertSpaces", "x"]
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def random_params(rng: random.Random, method: str, uri: str):
    """Mostly a good request with one part replaced by something random, sometimes random whole."""
    if rng.random() < 0.2:
        return random_value(rng)
    params = good_params(method, uri)
    path = rng.choice([("textDocument",), ("textDocument", "uri"), ("position",), ("position", "line"), ("position", "character"), ("context",), ("options",)])
    target = params
    for key in path[:-1]:
        target = target.setdefault(key, {})
    target[path[-1]] = random_value(rng)
    return params


def test_random_requests_all_get_replies_and_memory_stays_bounded(raw: Raw) -> None:
    uri = raw.initialize()
    raw.send({"id": "warm", "method": "textDocument/hover", "params": good_params("textDocument/hover", uri)})
    raw.replies({"warm"})
    base = raw.rss_mib()
    rng = random.Random(26)
    ids = set()
    for i in range(N_RANDOM):
        method = rng.choice(POSITIONED + DOCUMENT_ONLY + ["textDocument/didChange", "textDocument/didOpen", "workspace/symbol"])
        message = {"id": i, "method": method, "params": random_params(rng, method, uri)}
        if method.startswith("textDocument/did"):
            del message["id"]  # a notification: no reply wanted
        else:
            ids.add(i)
        raw.body(json.dumps({"jsonrpc": "2.0", **message}, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass"))
        if i % 100 == 99:  # keep the pipes moving
            got, _ = raw.replies(set(ids))
            ids -= got.keys()
    raw.replies(ids)
    assert raw.proc.poll() is None
    assert raw.rss_mib() < base + 64, f"RSS grew from {base:.0f} to {raw.rss_mib():.0f} MiB over {N_RANDOM} random requests"
    no_traceback(raw)


def test_requests_after_shutdown_get_invalid_request(raw: Raw) -> None:
    uri = raw.initialize()
    raw.send({"id": "down", "method": "shutdown"})
    raw.send({"id": "late", "method": "textDocument/hover", "params": good_params("textDocument/hover", uri)})
    got, _ = raw.replies({"down", "late"})
    assert got["down"]["result"] is None
    assert got["late"]["error"]["code"] == -32600
    raw.send({"method": "exit"})
    assert raw.ended() == 0
    no_traceback(raw)
