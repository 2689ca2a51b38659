"""An FP8 KV cache with a HunYuan model takes vLLM's Transformers implementation of the model
(vllm_model_impl.py): vLLM 0.26's own one fails on a GPU as its first step quantizes the query."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from hymt_cli.engine import vllm_arguments
from hymt_cli.engine.base import EngineOptions, Sampling
from hymt_cli.engine.vllm_model_impl import steer_model_impl

HUNYUAN = ["HunYuanDenseV1ForCausalLM"]


@pytest.mark.parametrize("kv_dtype", ["fp8", "fp8_e4m3", "fp8_e5m2"])
def test_an_fp8_kv_cache_takes_the_transformers_implementation(kv_dtype: str) -> None:
    kwargs: dict[str, object] = {"kv_cache_dtype": kv_dtype}
    why = steer_model_impl(kwargs, HUNYUAN)
    assert kwargs["model_impl"] == "transformers"
    assert why is not None and kv_dtype in why and "HunYuanDenseV1ForCausalLM" in why


@pytest.mark.parametrize(
    ("kwargs", "architectures"),
    [
        ({}, HUNYUAN),  # vLLM's default KV cache
        ({"kv_cache_dtype": "auto"}, HUNYUAN),
        ({"kv_cache_dtype": "bfloat16"}, HUNYUAN),
        ({"kv_cache_dtype": "fp8"}, ["LlamaForCausalLM"]),  # vLLM's own model flattens its query
        ({"kv_cache_dtype": "fp8"}, []),  # a config without architectures
        ({"kv_cache_dtype": "fp8"}, [{"not": "a name"}, ["HunYuanDenseV1ForCausalLM"], None]),  # hostile
        ({"kv_cache_dtype": "fp8"}, "HunYuanDenseV1ForCausalLM"),  # a string, not a list: its letters
        ({"kv_cache_dtype": "fp8", "model_impl": "vllm"}, HUNYUAN),  # the user chose
        ({"kv_cache_dtype": "fp8", "model_impl": "transformers"}, HUNYUAN),
    ],
)
def test_everything_else_is_left_as_it_is(kwargs: dict[str, object], architectures: Any) -> None:
    before = dict(kwargs)
    assert steer_model_impl(kwargs, architectures) is None
    assert kwargs == before


def test_the_engine_arguments_and_the_served_command_carry_it(tiny_engine_options: EngineOptions) -> None:
    """The tiny test model is a real `HunYuanDenseV1ForCausalLM` config: `--engine-arg
    kv_cache_dtype=fp8` brings `model_impl`, the engine's start says why, and the `vllm serve`
    command of the same engine parses to the same setting."""
    fp8 = replace(tiny_engine_options, extra={"kv_cache_dtype": "fp8"})
    notes: list[str] = []
    kwargs = vllm_arguments.llm_kwargs(fp8, Sampling(), on_cpu=True, notes=notes)
    assert (kwargs["kv_cache_dtype"], kwargs["model_impl"]) == ("fp8", "transformers")
    assert len(notes) == 1 and "Transformers" in notes[0]
    own = replace(tiny_engine_options, extra={"kv_cache_dtype": "fp8", "model_impl": "vllm"})
    assert vllm_arguments.llm_kwargs(own, Sampling(), on_cpu=True)["model_impl"] == "vllm"
    plain = vllm_arguments.llm_kwargs(tiny_engine_options, Sampling(), on_cpu=True)
    assert "model_impl" not in plain
    command = vllm_arguments.serve_command(fp8, Sampling(), on_cpu=True)
    at = command.index("--model-impl")
    assert command[at + 1] == "transformers"


@pytest.mark.vllm
def test_the_real_engine_translates_with_an_fp8_kv_cache(tiny_engine_options: EngineOptions) -> None:
    """The CPU engine (vLLM's CPU attention keeps FP8 KV caches too) starts on the Transformers
    implementation and generates; the settings vLLM took are the ones asked for."""
    pytest.importorskip("vllm")
    from hymt_cli.engine.base import GenerationRequest
    from hymt_cli.engine.vllm_engine import VllmEngine

    phases: list[str] = []
    fp8 = replace(tiny_engine_options, extra={"kv_cache_dtype": "fp8"})
    with VllmEngine(fp8, Sampling.deterministic(), on_phase=phases.append) as engine:
        config = engine.llm.llm_engine.vllm_config
        assert (config.cache_config.cache_dtype, config.model_config.model_impl) == ("fp8", "transformers")
        (answer,) = engine.generate([GenerationRequest("", (5, 6, 7, 8), 6)])
    assert 1 <= answer.output_tokens <= 6 and answer.finish_reason in ("stop", "length")
    assert any("fp8 KV cache" in p and "Transformers" in p for p in phases), phases
