"""An LLM agent for any OpenAI-compatible chat endpoint (OpenAI, vLLM, llama.cpp's server):
a ReAct loop over the gateway's four meta-tools, through httpx2.

It survives a real endpoint: 429s, 5xx and timeouts are retried with exponential backoff that
honours `Retry-After`; what still fails ends that task's episode with an `EndpointError`, which
`worldc eval` records against the task and goes on (docs/agents.md#llm-agents)."""

from __future__ import annotations

import email.utils
import os
import random
import time
from typing import Callable

from .gateway import META_TOOLS, SYSTEM_PROMPT, Episode, result_text

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})  # worth asking again
DEFAULT_RETRIES = 6
DEFAULT_TIMEOUT = 120.0  # seconds for one request
DEFAULT_BACKOFF = 1.0  # seconds before the first retry; doubled each time, with jitter
MAX_WAIT = 120.0  # no single wait is longer, whatever Retry-After says


class EndpointError(Exception):
    """The endpoint could not be reached, kept failing, or answered something that is not a chat completion."""


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds a `Retry-After` header asks for: a number of seconds or an HTTP date (RFC 9110
    §10.2.3); None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class ChatClient:
    """POSTs chat completions to `base_url`/chat/completions, retrying what is worth retrying.
    `sleep` is injectable so tests can count waits instead of waiting."""

    def __init__(self, base_url: str, api_key: str | None, timeout: float = DEFAULT_TIMEOUT, retries: int = DEFAULT_RETRIES, backoff: float = DEFAULT_BACKOFF, sleep: Callable[[float], None] = time.sleep, transport=None):
        import httpx2

        self.url = base_url.rstrip("/") + "/chat/completions"
        self.retries = retries
        self.backoff = backoff
        self.sleep = sleep
        self.waits: list[float] = []  # every wait taken, for the report
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._httpx = httpx2
        self._client = httpx2.Client(timeout=timeout, headers=headers, transport=transport)
        self._rng = random.Random()

    def close(self) -> None:
        self._client.close()

    def _delay(self, attempt: int, asked: float | None) -> float:
        if asked is not None:
            return min(asked, MAX_WAIT)
        return min(self.backoff * (2**attempt) * (0.5 + self._rng.random() / 2), MAX_WAIT)

    def complete(self, body: dict) -> dict:
        httpx2 = self._httpx
        problem = ""
        for attempt in range(self.retries + 1):
            asked = None
            try:
                resp = self._client.post(self.url, json=body)
            except httpx2.TimeoutException:
                problem = "timed out"
            except httpx2.TransportError as e:
                problem = f"could not connect ({type(e).__name__}: {e})"
            else:
                if resp.status_code < 400:
                    try:
                        reply = resp.json()
                    except ValueError:
                        raise EndpointError(f"{self.url} answered {resp.status_code} with something that is not JSON: {resp.text[:300]!r}") from None
                    if not isinstance(reply, dict):
                        raise EndpointError(f"not a chat completion: {str(reply)[:300]}")
                    return reply
                if resp.status_code not in RETRY_STATUS:
                    raise EndpointError(f"{self.url} answered {resp.status_code}: {resp.text[:300]!r}")
                problem = f"answered {resp.status_code}"
                asked = retry_after(resp.headers.get("retry-after"))
            if attempt == self.retries:
                break
            wait = self._delay(attempt, asked)
            self.waits.append(wait)
            self.sleep(wait)
        raise EndpointError(f"{self.url} {problem}, {self.retries + 1} times; gave up")


def run_llm(
    episode: Episode,
    task: dict,
    model: str,
    base_url: str | None = None,
    api_key: str | None = None,
    max_turns: int = 40,
    timeout: float = DEFAULT_TIMEOUT,
    temperature: float = 0.0,
    client: ChatClient | None = None,
) -> list[dict]:
    """Play one reset episode. Returns the transcript of meta-tool calls; the final message, if
    the model gives one, is reported to the episode unchanged (the checker reads it as JSON or
    as prose, docs/task-format.md#how-answers-are-compared). Token usage (when the endpoint
    reports it), the finish reason and the retries go in `episode.info`. Raises EndpointError
    when the endpoint keeps failing; the transcript so far is in `episode.info["transcript"]`."""
    base_url = base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
    own = client is None
    client = client or ChatClient(base_url, api_key, timeout)
    messages: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": task["instruction"]}]
    transcript: list[dict] = []
    usage = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
    seen_usage = False
    info = episode.info
    info.update({"transcript": transcript, "finish_reason": "max_turns"})
    try:
        for _ in range(max_turns):
            reply = client.complete({"model": model, "messages": messages, "tools": META_TOOLS, "tool_choice": "auto", "temperature": temperature})
            if isinstance(reply.get("usage"), dict):
                seen_usage = True
                for k in usage:
                    v = reply["usage"].get(k)
                    usage[k] += v if isinstance(v, int) else 0
                info["usage"] = dict(usage)
            try:
                choice = reply["choices"][0]
                message = choice["message"]
            except (KeyError, IndexError, TypeError):
                raise EndpointError(f"not a chat completion: {str(reply)[:300]}") from None
            calls = message.get("tool_calls") or []
            messages.append({"role": "assistant", "content": message.get("content"), **({"tool_calls": calls} if calls else {})})
            if not calls:
                info["finish_reason"] = choice.get("finish_reason") or "stop"
                content = (message.get("content") or "").strip()
                if content:
                    episode.report(content)  # the final message is the answer, as it stands
                break
            for call in calls:
                fn = call.get("function") or {}
                name, raw = fn.get("name", ""), fn.get("arguments") or "{}"
                result = episode.call(name, raw)
                transcript.append({"name": name, "arguments": raw, "result": result})
                messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": result_text(result)})
    finally:
        if client.waits:
            info["retries"] = len(client.waits)
        if seen_usage:
            info["usage"] = dict(usage)
        if own:
            client.close()
    return transcript
