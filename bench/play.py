"""Blind play: a person (or a helper agent) plays sampled tasks through the Episode API, seeing
only what an agent sees, one meta-tool call per command, and the scores stay hidden until the
round is over (docs/benchmarks.md, "Playing tasks blind").

Usage:
  python bench/play.py new DIR WORLD TASKS.jsonl [WORLD TASKS.jsonl ...]   # the organiser
  python bench/play.py show DIR ID                  # the instruction and the four meta-tools
  python bench/play.py call DIR ID META 'JSON'      # one meta-tool call, e.g.
                                                    #   call DIR 3 call_tool '{"tool_name": "get_matter", "arguments": {"id": "m-1"}}'
  python bench/play.py answer DIR ID 'FINAL MESSAGE'  # ends the task; its score is kept hidden
  python bench/play.py scores DIR                   # the organiser: every score and failed check

`new` copies the tasks into DIR (numbered from 1, each with its world's path) and makes DIR/logs
and DIR/scores. The player reads nothing in DIR: the tasks file holds the reference plan. Each
`call` replays the task's log on a fresh episode (tool calls are deterministic) and then makes the
new call, so a play needs no process that stays up; `answer` replays the log, hands the final
message to `Episode.report`, scores, and writes the score to DIR/scores/ID.json without printing
it. A task is answered once."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _task(d: Path, pid: str) -> dict:
    for line in (d / "tasks.jsonl").read_text().splitlines():
        t = json.loads(line)
        if str(t["_play_id"]) == pid:
            return t
    raise SystemExit(f"play: no task {pid} in {d}")


def _episode(d: Path, pid: str):
    from compoworld_dsl.gateway import Episode
    from compoworld_dsl.sample.worker import load_sampler

    task = _task(d, pid)
    ep = Episode(load_sampler(task["_world"]).world)
    start = ep.reset({k: v for k, v in task.items() if not k.startswith("_")})
    log = d / "logs" / f"{pid}.jsonl"
    for line in log.read_text().splitlines() if log.exists() else []:
        c = json.loads(line)
        ep.call(c["meta"], c["arguments"])
    return ep, start, log


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    cmd, d = argv[0], Path(argv[1])
    if cmd == "new":
        pairs = argv[2:]
        if not pairs or len(pairs) % 2:
            raise SystemExit("play new DIR WORLD TASKS.jsonl [WORLD TASKS.jsonl ...]")
        for f in pairs:
            if not Path(f).is_file():
                raise SystemExit(f"play: no file {f}")
        (d / "logs").mkdir(parents=True, exist_ok=True)
        (d / "scores").mkdir(exist_ok=True)
        n, out = 0, []
        for world, tasks in zip(pairs[::2], pairs[1::2]):
            for line in Path(tasks).read_text().splitlines():
                if line.strip():
                    n += 1
                    out.append(json.dumps({**json.loads(line), "_play_id": n, "_world": str(Path(world).resolve())}))
        (d / "tasks.jsonl").write_text("\n".join(out) + "\n")
        print(f"{n} tasks in {d}")
        return 0
    if cmd == "scores":
        for p in sorted((d / "scores").glob("*.json"), key=lambda p: int(p.stem)):
            s = json.loads(p.read_text())
            print(p.stem, s["reward"], s["calls"], "meta-calls", json.dumps(s["failed"])[:600])
        return 0
    pid = argv[2]
    if (d / "scores" / f"{pid}.json").exists():
        print(f"task {pid} is answered already")
        return 1
    ep, start, log = _episode(d, pid)
    if cmd == "show":
        for m in start["messages"]:
            print(f"[{m['role']}]\n{m['content']}\n")
        print("[meta-tools]")
        for t in start["tools"]:
            f = t.get("function", t)
            print(json.dumps({"name": f["name"], "description": f.get("description"), "parameters": f.get("parameters")}))
        return 0
    if cmd == "call":
        meta, arguments = argv[3], json.loads(argv[4]) if len(argv) > 4 else {}
        got = ep.call(meta, arguments)
        with log.open("a") as fh:
            fh.write(json.dumps({"meta": meta, "arguments": arguments}) + "\n")
        print(json.dumps(got, indent=1, default=str))
        return 0
    if cmd == "answer":
        ep.report(argv[3])
        s = ep.score()
        calls = len(log.read_text().splitlines()) if log.exists() else 0
        (d / "scores" / f"{pid}.json").write_text(json.dumps({**s, "calls": calls, "answer": argv[3]}, default=str))
        print(f"task {pid}: answer recorded")
        return 0
    raise SystemExit(f"play: unknown command {cmd}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
