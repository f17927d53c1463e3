"""An LLM agent for any OpenAI-compatible chat endpoint (OpenAI, vLLM, llama.cpp's server):
a ReAct loop over the gateway's four meta-tools. Plain HTTP (urllib), no SDK needed."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

from .gateway import META_TOOLS, SYSTEM_PROMPT, Episode


class EndpointError(Exception):
    """The endpoint could not be reached or answered something that is not a chat completion."""


def chat(base_url: str, api_key: str | None, body: dict, timeout: float) -> dict:
    url = base_url.rstrip("/") + "/chat/completions"
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"})
    if api_key:
        req.add_header("Authorization", f"Bearer {api_key}")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return json.loads(resp.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        raise EndpointError(f"{url} answered {e.code}: {e.read()[:300]!r}") from None
    except (urllib.error.URLError, TimeoutError, json.JSONDecodeError) as e:
        raise EndpointError(f"{url}: {e}") from None


def run_llm(
    episode: Episode,
    task: dict,
    model: str,
    base_url: str | None = None,
    api_key: str | None = None,
    max_turns: int = 40,
    timeout: float = 120.0,
    temperature: float = 0.0,
) -> list[dict]:
    """Play one reset episode. Returns the transcript of meta-tool calls; the final message, if
    the model gives one, is reported to the episode unchanged (the checker reads it as JSON or
    as prose, docs/task-format.md#how-answers-are-compared)."""
    base_url = base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
    messages: list[dict] = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": task["instruction"]}]
    transcript: list[dict] = []
    for _ in range(max_turns):
        reply = chat(base_url, api_key, {"model": model, "messages": messages, "tools": META_TOOLS, "tool_choice": "auto", "temperature": temperature}, timeout)
        try:
            message = reply["choices"][0]["message"]
        except (KeyError, IndexError, TypeError):
            raise EndpointError(f"not a chat completion: {str(reply)[:300]}") from None
        calls = message.get("tool_calls") or []
        messages.append({"role": "assistant", "content": message.get("content"), **({"tool_calls": calls} if calls else {})})
        if not calls:
            content = (message.get("content") or "").strip()
            if content:
                # the final message is the answer as it stands: the checker reads JSON and prose
                episode.report(content)
            break
        for call in calls:
            fn = call.get("function") or {}
            name, raw = fn.get("name", ""), fn.get("arguments") or "{}"
            result = episode.call(name, raw)
            transcript.append({"name": name, "arguments": raw, "result": result})
            messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": json.dumps(result, ensure_ascii=False)})
    return transcript
