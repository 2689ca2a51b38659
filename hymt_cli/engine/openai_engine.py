"""The served engine: an OpenAI-compatible server (`vllm serve`, a fleet behind one URL) answers.

It sends exactly the offline engine's prompts: `/v1/completions` with the pipeline's token ids
(the chat template and the memory keys stay identical), or, where a server takes no token ids,
the same ids rendered back to text; HY-MT's sampling with `top_k` and `repetition_penalty` as
extra body fields (vLLM's); each request's own `max_tokens`; `finish_reason` read as the vLLM
engine reads it ("stop", anything else is a cut answer).

An asyncio loop in a thread of its own keeps up to `concurrency` prompts in flight (the
server's batch stays full), several prompts per HTTP request where the server takes them
(vLLM does: one request of many prompts costs the server far less than as many requests), and
hands every answer to the pipeline as it arrives. Refused connections, timeouts, 429 (after its
`Retry-After`) and 5xx are retried with exponential backoff and jitter, on every request from
the model check on (a fleet still starting, or overloaded, is waited for: server_wait.py); an
answer received is never asked again. A server that answers nothing for `ServerOptions.wait`
seconds makes the run fail with exit 3: the answers received are in the translation memory,
so the same command resumes.

When the model's tokenizer is not available on this machine, prompts are tokenized by the
server itself (vLLM's `/tokenize`, with the same chat template): see server_tokenizer.py; the
model check before the first prompt is served_model.py.
"""

from __future__ import annotations

import asyncio
import itertools
import queue
import threading
from collections.abc import Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import httpx

from ..errors import EngineUnavailable, one_line
from .base import BatchLimits, Generation, GenerationRequest, Sampling, ServerOptions
from .served_model import CONNECT_TIMEOUT, SERVER_HINT, auth_headers
from .server_wait import BACKOFF_BASE, Patience, post_patiently, retry_after, retryable

# Whole jobs per engine call, as vLLM on a GPU: the client keeps the servers' batches full and
# the pipeline gets answers as they arrive.
BATCH_TOKENS = 8 << 20
BATCH_REQUESTS = 65536
# Where the server takes several prompts per request (vLLM does). Measured on an H200 (1.8B,
# bench/served.py): 8 per request reached 1.065 of the offline engine's throughput, 1 per
# request 0.375 (HTTP requests, not the GPU, were the limit).
PROMPTS_PER_REQUEST = 8

Answer = tuple[int, Generation]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class _Probe:
    """What the first request showed about the server."""

    takes_ids: bool  # prompts as token ids (else the ids rendered as text)
    returns_ids: bool  # answers carry their token ids (vLLM's `return_token_ids`)


class OpenAIEngine:
    """Sends the pipeline's requests to an OpenAI-compatible server (see the module doc)."""

    name = "openai"
    limits = BatchLimits(BATCH_TOKENS, BATCH_REQUESTS)

    def __init__(
        self,
        server: ServerOptions,
        model: str,
        sampling: Sampling,
        *,
        extra: dict[str, object] | None = None,
        prompts_per_request: int = PROMPTS_PER_REQUEST,
        max_attempts: int | None = None,
        backoff: float = BACKOFF_BASE,
    ) -> None:
        """`model` is the served model's name; `extra` (`--engine-arg`) goes into every request's
        body (e.g. `ignore_eos=true` for benchmarks, `priority=1`). Checks the server with one
        tiny request (EngineUnavailable when it refuses it, or when it fails for `server.wait`
        seconds). `max_attempts` caps the tries of one request too (None: only the wait)."""
        self.retries = 0
        self._server = server
        self._url = server.base_url.rstrip("/")
        self._model = model
        self._sampling = sampling
        self._extra = dict(extra or {})
        self._max_attempts = max(1, max_attempts) if max_attempts is not None else None
        self._patience = Patience(
            self._url,
            server.wait,
            backoff=backoff,
            announce=server.announce,
            hint="the answers received so far are in the translation memory: run the same command "
            "again to resume",
        )
        self._detokenize: Callable[[Sequence[int]], str] | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="hymt-openai", daemon=True)
        self._thread.start()
        limits = httpx.Limits(
            max_connections=server.concurrency, max_keepalive_connections=server.concurrency
        )
        timeout = httpx.Timeout(CONNECT_TIMEOUT, read=None, write=60.0, pool=None)
        self._client: httpx.AsyncClient = self._call(_open_client(auth_headers(server), limits, timeout))
        try:
            self._probe: _Probe = self._call(self._first_request())
        except BaseException:
            self.close()
            raise
        # Several prompts per request where the answers say which tokens are whose (vLLM).
        self._per_request = max(1, prompts_per_request) if self._probe.returns_ids else 1
        self._workers = max(1, server.concurrency // self._per_request)

    # -- the engine contract -----------------------------------------------------------------
    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        answers: list[Generation | None] = [None] * len(requests)
        for index, generation in self.generate_stream(requests):
            answers[index] = generation
        return [a for a in answers if a is not None]

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[Answer]:
        """(index, Generation) as each answer arrives. Requests still out when the caller stops
        iterating are cancelled (their connections closed: vLLM aborts them)."""
        if not requests:
            return
        if self._loop.is_closed():
            raise RuntimeError("the openai engine is closed")
        arrived: queue.SimpleQueue[Answer | BaseException] = queue.SimpleQueue()
        future = asyncio.run_coroutine_threadsafe(self._answer_all(requests, arrived.put), self._loop)
        pending = len(requests)
        try:
            while pending:
                item = arrived.get()
                if isinstance(item, BaseException):
                    raise item
                pending -= 1
                yield item
        finally:
            if not future.done():
                future.cancel()

    def close(self) -> None:
        """Close the connections and stop the client's loop; safe to call twice."""
        if self._loop.is_closed():
            return
        try:
            self._call(self._client.aclose(), timeout=10)
        except Exception:  # closing: nothing left to save
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        if not self._thread.is_alive():
            self._loop.close()

    # -- requests ------------------------------------------------------------------------------
    async def _answer_all(
        self, requests: Sequence[GenerationRequest], put: Callable[[Answer | BaseException], None]
    ) -> None:
        groups = _groups(requests, self._per_request)

        async def work() -> None:
            for group in groups:  # shared: each worker takes the next group (in request order)
                for answer in await self._complete(requests, group):
                    put(answer)

        try:
            async with asyncio.TaskGroup() as tasks:
                for _ in range(min(self._workers, len(requests))):
                    tasks.create_task(work())
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # the first failure, handed to the pipeline's thread
            put(exc.exceptions[0] if isinstance(exc, BaseExceptionGroup) and exc.exceptions else exc)

    async def _complete(self, requests: Sequence[GenerationRequest], group: list[int]) -> list[Answer]:
        """One HTTP request for the prompts of `group` (same max_tokens and decoding), retried
        until it is answered or the server is given up (server_wait.py)."""
        body = self._body([requests[i] for i in group])
        for attempt in itertools.count(1):
            after: float | None = None
            try:
                async with asyncio.timeout(self._server.request_timeout):
                    response = await self._client.post(f"{self._url}/completions", json=body)
            except TimeoutError:
                failure = f"no answer within {self._server.request_timeout:g} s"
            except httpx.TransportError as exc:  # refused, reset, dropped mid-answer
                failure = one_line(exc)
            else:
                status = response.status_code
                if status == 200:
                    self._patience.answered()
                    return self._answers(group, response.json())
                failure = f"HTTP {status}"
                if retryable(status):
                    after = retry_after(response.headers.get("retry-after"))
                elif len(group) > 1:  # one prompt the server refuses must not cost its neighbours
                    self._patience.answered()
                    return [answer for i in group for answer in await self._complete(requests, [i])]
                else:
                    self._patience.answered()  # the server is there: it refused this prompt
                    return [(group[0], Generation("", f"error: HTTP {status}: {_message(response)}", 0))]
            if self._max_attempts is not None and attempt >= self._max_attempts:
                raise EngineUnavailable(
                    f"the server at {self._url} failed {attempt} times in a row ({failure})",
                    hint=self._patience.hint,
                )
            delay = self._patience.failed(attempt, failure, after)
            self.retries += len(group)
            await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    def _body(self, requests: Sequence[GenerationRequest]) -> dict[str, Any]:
        first = requests[0]
        sampling = replace(self._sampling, temperature=0.0) if first.deterministic else self._sampling
        prompts: list[Any] = [self._prompt(r) for r in requests]
        body: dict[str, Any] = {
            "model": self._model,
            "prompt": prompts if len(prompts) > 1 else prompts[0],
            "max_tokens": first.max_tokens,
            **sampling_fields(sampling),
        }
        if self._probe.returns_ids:
            body["return_token_ids"] = True
        if not self._probe.takes_ids:
            body["add_special_tokens"] = False  # the rendered template already holds them
        body.update(self._extra)
        return body

    def _prompt(self, request: GenerationRequest) -> list[int] | str:
        if self._detokenize is None:
            return list(request.prompt_token_ids)
        return self._detokenize(request.prompt_token_ids)

    def _answers(self, group: list[int], data: dict[str, Any]) -> list[Answer]:
        try:
            choices = {int(c["index"]): c for c in data["choices"]}
            answers = []
            for k, index in enumerate(group):
                choice = choices[k]
                ids = choice.get("token_ids")
                tokens = len(ids) if isinstance(ids, list) else int(data["usage"]["completion_tokens"])
                # As the vLLM engine: anything but "stop" (length, abort) is an answer cut short.
                reason = "stop" if choice.get("finish_reason") == "stop" else "length"
                answers.append((index, Generation(str(choice["text"]), reason, tokens)))
        except (KeyError, TypeError, ValueError) as exc:
            raise EngineUnavailable(
                f"the server at {self._url} sent an answer that is not a completion ({one_line(exc)})",
                hint=SERVER_HINT,
            ) from exc
        return answers

    async def _first_request(self) -> _Probe:
        """One tiny request with the real fields: token ids taken? token ids returned? A server
        that refuses the ids but takes text gets the rendered prompt from now on. A server not
        ready, overloaded or failing is waited for, as for every request (server_wait.py)."""
        body = {
            "model": self._model,
            "max_tokens": 1,
            **sampling_fields(self._sampling),
            **self._extra,
            "return_token_ids": True,
        }
        failure = ""
        timeout = max(CONNECT_TIMEOUT, min(60.0, self._server.request_timeout))
        for prompt in ([0], "hello"):
            response = await post_patiently(
                self._client,
                f"{self._url}/completions",
                {**body, "prompt": prompt},
                self._patience,
                "completions",
                timeout,
            )
            self._patience.answered()
            if response.status_code == 200:
                if isinstance(prompt, str):
                    self._detokenize = _detokenizer(self._server.tokenizer or self._model)
                choices = response.json().get("choices") or [{}]
                return _Probe(
                    takes_ids=not isinstance(prompt, str),
                    returns_ids=isinstance(choices[0].get("token_ids"), list),
                )
            failure = f"HTTP {response.status_code}: {_message(response)}"
            if response.status_code != 400:
                break
        raise EngineUnavailable(
            f"the server at {self._url} refused a completion request ({failure})",
            hint="hymt needs /v1/completions with top_k and repetition_penalty (vLLM's "
            "OpenAI-compatible server)",
        )

    def _call(self, coroutine: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout)

    def __enter__(self) -> OpenAIEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


async def _open_client(
    headers: dict[str, str], limits: httpx.Limits, timeout: httpx.Timeout
) -> httpx.AsyncClient:
    return httpx.AsyncClient(headers=headers, limits=limits, timeout=timeout)


def sampling_fields(sampling: Sampling) -> dict[str, Any]:
    """The completion request's sampling fields: the same settings the vLLM engine gives vLLM's
    `SamplingParams` (greedy: temperature 0 and the repetition penalty). Every field is sent, so
    that a server's own defaults (a model's generation_config) never decide."""
    if sampling.greedy:
        return {
            "temperature": 0.0,
            "top_p": 1.0,
            "top_k": 0,
            "repetition_penalty": sampling.repetition_penalty,
        }
    fields: dict[str, Any] = {
        "temperature": sampling.temperature,
        "top_p": sampling.top_p,
        "top_k": max(sampling.top_k, 0),
        "repetition_penalty": sampling.repetition_penalty,
    }
    if sampling.seed is not None:
        fields["seed"] = sampling.seed
    return fields


def _groups(requests: Sequence[GenerationRequest], size: int) -> Iterator[list[int]]:
    """Indices of requests that can share one HTTP request (same max_tokens and decoding), in
    request order, at most `size` each; a group is handed out as soon as it is full."""
    open_groups: dict[tuple[int, bool], list[int]] = {}
    for index, request in enumerate(requests):
        key = (request.max_tokens, request.deterministic)
        group = open_groups.setdefault(key, [])
        group.append(index)
        if len(group) >= size:
            yield open_groups.pop(key)
    yield from open_groups.values()


def _message(response: httpx.Response) -> str:
    """The server's own error message, one line."""
    try:
        data = response.json()
        message = (
            data.get("error", {}).get("message")
            if isinstance(data.get("error"), dict)
            else data.get("detail")
        )
    except (ValueError, AttributeError):
        message = None
    text = str(message or response.text or response.reason_phrase).strip().splitlines()
    return text[0][:300] if text else ""


def _detokenizer(model: str) -> Callable[[Sequence[int]], str]:
    """Token ids back to the prompt text (for servers that take no ids): the model's tokenizer,
    special tokens kept, so the server reads the same chat template."""
    try:
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(model)
    except Exception as exc:
        raise EngineUnavailable(
            f"the server takes no token ids and the tokenizer of {model!r} is not here to "
            f"render them as text ({one_line(exc)})",
            hint="download the model's tokenizer (hf download MODEL) and pass --model",
        ) from exc

    def detokenize(ids: Sequence[int]) -> str:
        return str(tokenizer.decode(list(ids), skip_special_tokens=False))

    return detokenize
