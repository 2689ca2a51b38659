"""Prompt tokenization by the server, for when the model's tokenizer is not on this machine."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import httpx

from ..errors import EngineUnavailable, one_line
from .base import ServerOptions
from .served_model import SERVER_HINT, auth_headers, root_url
from .server_wait import Patience, post_patiently

TOKENIZE_CONCURRENCY = 32


class ServerTokenizer:
    """Prompt tokenization by the server (vLLM's `/tokenize`), for when the model's tokenizer is
    not on this machine: the server applies the model's own chat template, so the ids are the
    ones a local tokenizer would give (one HTTP request per prompt, `TOKENIZE_CONCURRENCY` at a
    time)."""

    exact = True

    def __init__(self, server: ServerOptions, model: str) -> None:
        self._url = root_url(server.base_url) + "/tokenize"
        self._headers = auth_headers(server)
        self._model = model
        self._patience = Patience(
            root_url(server.base_url), server.wait, hint=SERVER_HINT, announce=server.announce
        )
        try:
            self.count("hymt")
        except EngineUnavailable as exc:
            raise EngineUnavailable(
                f"the tokenizer of {model!r} is not on this machine, and the server "
                f"cannot tokenize for hymt ({exc.message})",
                hint="download the model's tokenizer (hf download MODEL) and pass its "
                "folder as --model, or serve it with vLLM (it has /tokenize)",
            ) from exc

    def prompt_ids(self, user_message: str) -> tuple[int, ...]:
        return self.prompt_ids_batch([user_message])[0]

    def prompt_ids_batch(self, user_messages: Sequence[str]) -> list[tuple[int, ...]]:
        bodies = [
            {
                "model": self._model,
                "messages": [{"role": "user", "content": m}],
                "add_generation_prompt": True,
                "add_special_tokens": False,
            }
            for m in user_messages
        ]
        return asyncio.run(self._tokenize(bodies)) if bodies else []

    def prompt_count(self, user_message: str) -> int:
        return len(self.prompt_ids(user_message))

    def count(self, text: str) -> int:
        body = {"model": self._model, "prompt": text, "add_special_tokens": False}
        return len(asyncio.run(self._tokenize([body]))[0])

    async def _tokenize(self, bodies: list[dict[str, Any]]) -> list[tuple[int, ...]]:
        gate = asyncio.Semaphore(TOKENIZE_CONCURRENCY)
        async with httpx.AsyncClient(headers=self._headers, timeout=60.0) as client:

            async def one(body: dict[str, Any]) -> tuple[int, ...]:
                async with gate:
                    # a server not ready or overloaded is waited for
                    response = await post_patiently(client, self._url, body, self._patience, "/tokenize")
                    try:
                        response.raise_for_status()
                        tokens = tuple(int(t) for t in response.json()["tokens"])
                    except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
                        raise EngineUnavailable(f"{self._url}: {one_line(exc)}", hint=SERVER_HINT) from exc
                    self._patience.answered()
                    return tokens

            return list(await asyncio.gather(*(one(b) for b in bodies)))
