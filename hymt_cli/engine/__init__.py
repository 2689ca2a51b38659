"""Engines by name. vLLM and transformers are imported only when their engine is built."""
from __future__ import annotations

from .base import Engine, EngineOptions, Generation, GenerationRequest, Sampling

ENGINE_NAMES = ("vllm", "transformers", "pseudo", "identity")
MODEL_FREE_ENGINES = frozenset({"pseudo", "identity"})


def create_engine(name: str, options: EngineOptions, sampling: Sampling, *, verbose: bool = False) -> Engine:
    if name == "identity":
        from .identity import IdentityEngine

        return IdentityEngine()
    if name == "pseudo":
        from .pseudo import PseudoEngine

        return PseudoEngine()
    if name == "vllm":
        from .vllm_engine import VllmEngine

        return VllmEngine(options, sampling, verbose=verbose)
    if name == "transformers":
        from .transformers_engine import TransformersEngine

        return TransformersEngine(options, sampling)
    raise ValueError(f"unknown engine {name!r}")


__all__ = ["ENGINE_NAMES", "MODEL_FREE_ENGINES", "Engine", "EngineOptions", "Generation",
           "GenerationRequest", "Sampling", "create_engine"]
