"""Which model a served engine's server serves: `connect` asks its `/models` (waiting for a
server still starting or overloaded, server_wait.py) and checks the answer, before any prompt
is sent.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

import httpx

from ..errors import EngineUnavailable, one_line
from .base import ServedModel, ServerOptions
from .server_wait import BACKOFF_BASE, Patience, retry_after, retryable

CONNECT_TIMEOUT = 10.0
SERVER_HINT = (
    "start the server (`hymt serve-args --model MODEL` prints the `vllm serve` command) "
    "or check --base-url, e.g. http://HOST:8000/v1"
)


def connect(server: ServerOptions, *, backoff: float = BACKOFF_BASE) -> ServedModel:
    """Ask the server which model it serves: EngineUnavailable (exit 3) with a hint when it refuses
    the key, is no OpenAI-compatible API or serves another model, at once; when it cannot be
    reached or fails (429, 5xx), once `server.wait` seconds have passed (server_wait.py)."""
    url = server.base_url.rstrip("/")
    patience = Patience(url, server.wait, hint=SERVER_HINT, backoff=backoff, announce=server.announce)
    with httpx.Client(headers=auth_headers(server), timeout=CONNECT_TIMEOUT) as client:
        for attempt in itertools.count(1):
            try:
                response = client.get(f"{url}/models")
            except httpx.HTTPError as exc:
                time.sleep(patience.failed(attempt, f"cannot reach it: {one_line(exc)}"))
                continue
            if retryable(response.status_code):
                time.sleep(
                    patience.failed(
                        attempt,
                        f"HTTP {response.status_code}",
                        retry_after(response.headers.get("retry-after")),
                    )
                )
                continue
            break
    if response.status_code in (401, 403):
        raise EngineUnavailable(
            f"the server at {url} refused the API key (HTTP {response.status_code})",
            hint="--api-key-env VAR names the environment variable that holds the key",
        )
    try:
        response.raise_for_status()
        listed = [m for m in response.json()["data"] if isinstance(m.get("id"), str)]
    except (httpx.HTTPError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise EngineUnavailable(
            f"{url}/models is not an OpenAI-compatible model list ({one_line(exc)})",
            hint="the base URL usually ends in /v1, e.g. http://HOST:8000/v1",
        ) from exc
    if not listed:
        raise EngineUnavailable(f"the server at {url} serves no model", hint=SERVER_HINT)
    chosen = _choose(listed, server.model, url)
    root = chosen.get("root")
    max_len = chosen.get("max_model_len")
    return ServedModel(
        name=chosen["id"],
        root=root if isinstance(root, str) else None,
        max_model_len=max_len if isinstance(max_len, int) else None,
    )


def _choose(listed: list[dict[str, Any]], wanted: str | None, url: str) -> dict[str, Any]:
    names = ", ".join(m["id"] for m in listed)
    if wanted is None:
        if len(listed) == 1:
            return listed[0]
        raise EngineUnavailable(
            f"the server at {url} serves several models ({names})", hint="choose one with --model NAME"
        )
    for model in listed:  # its served name, else the path or hub id it was loaded from
        if wanted == model["id"]:
            return model
    for model in listed:
        if wanted == model.get("root"):
            return model
    raise EngineUnavailable(
        f"the server at {url} serves {names}, not {wanted!r}",
        hint=f"--model {listed[0]['id']} (or leave --model out), or point --base-url "
        "at a server of that model",
    )


def auth_headers(server: ServerOptions) -> dict[str, str]:
    return {"Authorization": f"Bearer {server.api_key}"} if server.api_key else {}


def root_url(base_url: str) -> str:
    """The server's root: vLLM's /tokenize sits beside /v1, not under it."""
    url = base_url.rstrip("/")
    return url[:-3] if url.endswith("/v1") else url
