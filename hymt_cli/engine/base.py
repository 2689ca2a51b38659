"""The engine protocol: token-id prompts in, generated text out."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from .vllm_options import VllmOptions


@dataclass(frozen=True, slots=True)
class Sampling:
    """Decoding settings. Defaults are HY-MT's recommended sampling (model card)."""

    temperature: float = 0.7
    top_p: float = 0.6
    top_k: int = 20
    repetition_penalty: float = 1.05
    seed: int | None = None

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0

    @classmethod
    def deterministic(cls, seed: int = 0) -> Sampling:
        """Greedy decoding: the same input gives the same output, run after run."""
        return cls(temperature=0.0, top_p=1.0, top_k=-1, repetition_penalty=1.05, seed=seed)


@dataclass(frozen=True, slots=True)
class GenerationRequest:
    """One prompt for the engine.

    `source_text` is the segment to translate (what identity/pseudo engines work on);
    `prompt_token_ids` is the whole chat-templated prompt, tokenized once by the pipeline.
    `deterministic` asks for greedy decoding whatever the run's sampling (used for retries).
    """

    source_text: str
    prompt_token_ids: tuple[int, ...]
    max_tokens: int
    deterministic: bool = False


@dataclass(frozen=True, slots=True)
class Generation:
    """What the engine produced for one request.

    `finish_reason` is "stop" (the model ended the answer), "length" (it hit `max_tokens`), or
    another word saying why there is no usable answer (a served engine's "error: ...": the server
    refused that one request).
    """

    text: str
    finish_reason: str
    output_tokens: int


@dataclass(frozen=True, slots=True)
class BatchLimits:
    """How much an engine wants per call: prompt + output tokens, and requests. None: the
    pipeline's defaults. A streaming engine on a GPU takes whole jobs, so that its scheduler
    always has work queued."""

    tokens: int | None = None
    requests: int | None = None


class Engine(Protocol):
    """Translates batches. One engine serves the whole run, all languages."""

    name: str

    @property
    def limits(self) -> BatchLimits: ...

    @property
    def retries(self) -> int:
        """Requests sent again after a transient failure (a served engine's connection errors,
        timeouts, 429s and 5xx); local engines never retry (0)."""
        ...

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        """Return one Generation per request, in request order."""
        ...

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[tuple[int, Generation]]:
        """(index into `requests`, Generation) for every request, each as soon as it is done."""
        ...

    def close(self) -> None:
        """Release the model (processes, memory)."""
        ...


@runtime_checkable
class TakesEarlyRequests(Protocol):
    """An engine that starts requests before the call that wants their answers: the pipeline
    sends the first planned requests of a window while it reads and plans the rest, so that an
    engine already running works meanwhile. A later `generate_stream` given equal requests
    (same prompt ids, max_tokens and decoding) takes their answers instead of asking again; those
    it is not given are dropped when that call ends."""

    def early_room(self) -> int:
        """How many requests it would start now (0: none)."""
        ...

    def send_early(self, requests: Sequence[GenerationRequest]) -> None:
        """Start these now (at most `early_room()` of them)."""
        ...


def early_key(request: GenerationRequest) -> tuple[tuple[int, ...], int, bool]:
    """What makes a request sent early the same as one asked for later."""
    return (request.prompt_token_ids, request.max_tokens, request.deterministic)


class StartGate:
    """An engine started before the run knows it needs one (a cold start is tens of seconds):
    the run says `want` once it has work for it, or `abandon` once it ends without. A start that
    can stop half-way (engine processes) begins at once and stops when `abandoned`; one that
    cannot (an engine in this process) `wait`s for the run's word before it begins."""

    def __init__(self) -> None:
        self._decided = threading.Event()
        self._wanted = False
        self._abandoned = False

    def want(self) -> None:
        self._wanted = True
        self._decided.set()

    def abandon(self, *, even_if_wanted: bool = False) -> None:
        """The run needs no engine; `even_if_wanted`: the run is ending (a failure, a signal)
        while the engine it wanted is still starting."""
        if even_if_wanted or not self._wanted:
            self._abandoned = True
        self._decided.set()

    @property
    def abandoned(self) -> bool:
        return self._abandoned

    def wait(self) -> bool:
        """Until the run decides; whether it wants the engine."""
        self._decided.wait()
        return self._wanted and not self._abandoned


class BatchEngine:
    """Base of engines that answer a whole batch at once: their stream is the batch, in order."""

    name: str = "batch"
    limits: BatchLimits = BatchLimits()
    retries: int = 0

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:  # pragma: no cover
        raise NotImplementedError

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[tuple[int, Generation]]:
        yield from enumerate(self.generate(requests))

    def close(self) -> None:
        pass


@dataclass(frozen=True, slots=True)
class EngineOptions:
    """What an engine loads and how: the run-wide model settings, passed through to vLLM /
    transformers; `vllm` is the vLLM engine's own options record (vllm_options.py), which it
    reads itself (`vllm_options()`; None: their defaults, for an engine that reads none);
    `extra` (`--engine-arg KEY=VALUE`) is passed straight to the engine's constructor (vLLM's
    `LLM`, transformers' `from_pretrained`), over hymt's own choices.
    """

    model: str
    revision: str | None = None
    trust_remote_code: bool = False
    dtype: str = "auto"
    max_model_len: int | None = None
    vllm: VllmOptions | None = None
    extra: Mapping[str, object] = field(default_factory=dict)

    def vllm_options(self) -> VllmOptions:
        """vLLM's own options: the record given, else their defaults."""
        if self.vllm is not None:
            return self.vllm
        from .vllm_options import VllmOptions

        return VllmOptions()


@dataclass(frozen=True, slots=True)
class ServerOptions:
    """Where a served engine sends its requests: an OpenAI-compatible server, or several behind one
    URL.

    `model` is the name the user asked for (None: the one model the server serves);
    `concurrency` counts prompts in flight, enough to keep the servers' batches full;
    `request_timeout` bounds one HTTP request, queueing on the server included; `tokenizer` is
    where the model's tokenizer loads from on this machine (None: it does not; the server
    tokenizes); `wait` is how long a server that refuses connections, rate-limits or fails
    (429, 5xx) is waited for before the run gives up (server_wait.py), from its first request on;
    `announce` hears, once per streak of failures, that the server is being waited for (the run
    tells it as a notice; None: nobody is told).
    """

    base_url: str
    model: str | None = None
    api_key: str | None = field(default=None, repr=False)
    concurrency: int = 2048
    request_timeout: float = 600.0
    tokenizer: str | None = None
    wait: float = 300.0
    announce: Callable[[str], None] | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class ServedModel:
    """What a server said about the model it serves (`/v1/models`).

    `name` goes into every request; `root` is the path or hub id the server loaded it from
    (where its tokenizer may be found here too); `max_model_len` its context window."""

    name: str
    root: str | None = None
    max_model_len: int | None = None
