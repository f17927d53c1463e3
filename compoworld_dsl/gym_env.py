"""A Gymnasium environment over task episodes (the optional `rl` extra): text in, text out.
Actions and observations are JSON strings; the reward is the task checker's, at the end.

Importing the module registers `compoworld/WORLD-v0` for each example world, so that
`gym.make("compoworld/legal_ops-v0", tasks="build/tasks.jsonl")` works; `register_world(PATH)`
registers any other world. Gymnasium's registry is global by its design; nothing else here is."""

from __future__ import annotations

import json
import random
from typing import Any

import gymnasium as gym
from gymnasium import spaces

from pathlib import Path

from .gateway import META_TOOLS, Episode
from .resources import worlds_dir

ASCII = "".join(chr(c) for c in range(32, 127))  # observations are JSON with ensure_ascii
MAX_TEXT = 200_000


class WorldEnv(gym.Env):
    """One task per episode.

    - `reset(seed=..., options={"task": record or index})` starts a task (by default the one the
      seed picks) and observes `{"instruction", "tools"}`.
    - `step(action)` takes a JSON string: `{"name": META_TOOL, "arguments": {...}}` runs a
      meta-tool and observes its envelope; `{"answer": ...}` ends the episode. Anything else
      observes a 400 envelope. The episode also ends (truncated) after `max_steps` actions.
    - The reward is 0 until the end, then the checker's 0/1; `info` carries `partial` and
      `failed`."""

    metadata = {"render_modes": []}

    def __init__(self, world, tasks: list[dict], max_steps: int = 50):
        if not tasks:
            raise ValueError("no tasks")
        self.world = world
        self.tasks = tasks
        self.max_steps = max_steps
        self.observation_space = spaces.Text(max_length=MAX_TEXT, charset=ASCII)
        self.action_space = spaces.Text(max_length=4096, charset=ASCII)
        self.episode: Episode | None = None
        self.steps = 0

    def _obs(self, value: Any) -> str:
        text = json.dumps(value, ensure_ascii=True)
        return text if len(text) <= MAX_TEXT else json.dumps({"success": False, "error": {"code": 413, "message": "observation too large"}})

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        choice = (options or {}).get("task")
        if isinstance(choice, dict):
            task = choice
        elif isinstance(choice, int):
            task = self.tasks[choice % len(self.tasks)]
        else:
            task = self.tasks[random.Random(seed).randrange(len(self.tasks)) if seed is not None else 0]
        self.episode = Episode(self.world)
        self.episode.reset(task)
        self.steps = 0
        tools = [t["function"]["name"] for t in META_TOOLS]
        return self._obs({"instruction": task["instruction"], "tools": tools}), {"task_id": task["id"]}

    def step(self, action: str):
        if self.episode is None:
            raise RuntimeError("call reset() first")
        self.steps += 1
        try:
            act = json.loads(action)
        except (json.JSONDecodeError, TypeError):
            act = None
        done = isinstance(act, dict) and "answer" in act
        if done:
            self.episode.report(act["answer"])
            obs = {"success": True, "data": "answer recorded"}
        elif isinstance(act, dict) and isinstance(act.get("name"), str):
            obs = self.episode.call(act["name"], act.get("arguments"))
        else:
            obs = {"success": False, "error": {"code": 400, "message": 'an action is {"name": ..., "arguments": {...}} or {"answer": ...}'}}
        truncated = not done and self.steps >= self.max_steps
        reward, info = 0.0, {}
        if done or truncated:
            s = self.episode.score()
            reward = float(s["reward"])
            info = {"partial": s["partial"], "failed": s["failed"]}
        return self._obs(obs), reward, done, truncated, info


def make(world: str, tasks: "str | Path | list[dict]", max_steps: int = 50) -> WorldEnv:
    """The entry point of `gym.make("compoworld/WORLD-v0", tasks=...)`: `tasks` is a task file
    (`worldc sample`'s JSONL, checked on load against the world) or a list of task records."""
    from .sample.run import load_sampler
    from .taskfile import load_tasks

    loaded = load_sampler(world).world
    records = load_tasks(tasks, loaded) if isinstance(tasks, (str, Path)) else list(tasks)
    return WorldEnv(loaded, records, max_steps=max_steps)


def register_world(path: "str | Path", name: str | None = None) -> str:
    """Register `compoworld/NAME-v0` (NAME: the file's stem) for a `.world` file; returns the id.
    Registering the same id again keeps the first."""
    env_id = f"compoworld/{name or Path(path).stem}-v0"
    if env_id not in gym.registry:
        gym.register(id=env_id, entry_point=make, kwargs={"world": str(Path(path).resolve())})
    return env_id


for _path in sorted(worlds_dir().glob("*.world")):
    register_world(_path)
