"""A served engine's options (`--engine openai`): where the server is and how hard to drive it."""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..errors import UsageError
from ..options import Options, Panel, option
from .base import ServerOptions

_DEFAULT = ServerOptions("")  # the served engine's own defaults: the settings' too


@dataclass(frozen=True, slots=True)
class ServedOptions(Options):
    base_url: str | None = option(
        None,
        "--base-url",
        metavar="URL",
        panel=Panel.MODEL,
        help="--engine openai: the OpenAI-compatible server (or load balancer), e.g. http://HOST:8000/v1.",
    )
    api_key_env: str | None = option(
        None,
        "--api-key-env",
        metavar="VAR",
        panel=Panel.MODEL,
        help="--engine openai: the environment variable that holds the server's API key.",
    )
    concurrency: int = option(
        _DEFAULT.concurrency,
        "--concurrency",
        metavar="N",
        minimum=1,
        panel=Panel.MODEL,
        help="--engine openai: prompts in flight across the servers (about twice each "
        "server's --max-num-seqs).",
    )
    request_timeout: float = option(
        _DEFAULT.request_timeout,
        "--request-timeout",
        metavar="SECONDS",
        above=0.0,
        panel=Panel.MODEL,
        help="--engine openai: seconds one HTTP request may take (then it is sent again).",
    )
    server_wait: float = option(
        _DEFAULT.wait,
        "--server-wait",
        metavar="SECONDS",
        minimum=0.0,
        panel=Panel.MODEL,
        help="--engine openai: how long to wait for a server that is starting, rate-limits (429) or "
        "fails (5xx) before giving up (0: fail at once).",
    )

    def validate(self) -> None:
        if self.base_url is not None and not self.base_url.startswith(("http://", "https://")):
            raise UsageError(f"--base-url must start with http:// or https://, not {self.base_url!r}")

    def server(self, engine: str, model: str | None) -> ServerOptions:
        """Where the server is, with the API key read (once) from the variable `--api-key-env`
        names: the key itself is never a setting."""
        if not self.base_url:
            raise UsageError(f"--engine {engine} needs --base-url, e.g. http://HOST:8000/v1")
        key = None
        if self.api_key_env is not None:
            key = os.environ.get(self.api_key_env)
            if not key:
                raise UsageError(f"--api-key-env {self.api_key_env}: that environment variable is not set")
        return ServerOptions(
            self.base_url,
            model=model,
            api_key=key,
            concurrency=self.concurrency,
            request_timeout=self.request_timeout,
            wait=self.server_wait,
        )
