"""Which of vLLM's implementations of a model runs it, where vLLM's own one cannot.

An FP8 KV cache makes vLLM's attention quantize each step's query to FP8 as well (FlashAttention
3 and the Triton backend on CUDA read FP8 queries against an FP8 cache), through a kernel that
takes a 2-D query only. vLLM's own HunYuan model (vllm/model_executor/models/hunyuan_v1.py, vLLM
0.26) hands its attention a 3-D query, heads apart (its query norm runs per head), so the
engine's first step fails (`assert input.ndim == 2`, input_quant_fp8.py). vLLM's Transformers
implementation of the same model (`model_impl="transformers"`, transformers' modeling code with
vLLM's attention and linear layers) flattens the query first; vLLM 0.32 runs HunYuan that way by
default. So with an FP8 KV cache, hymt asks for it, unless the user chose an implementation.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping

# Architectures whose vLLM model hands attention a 3-D query (vLLM 0.26; bench/RESULTS.md).
QUERY_3D_NATIVE = frozenset({"HunYuanDenseV1ForCausalLM", "HunYuanMoEV1ForCausalLM"})
TRANSFORMERS = "transformers"


def steer_model_impl(kwargs: MutableMapping[str, object], architectures: Iterable[str]) -> str | None:
    """Set `model_impl` to vLLM's Transformers implementation where the KV cache is FP8 and
    vLLM's own model of one of `architectures` would fail with it; returns why, or None where
    nothing changed (no FP8 KV cache, another model, or `model_impl` already chosen)."""
    kv_dtype = str(kwargs.get("kv_cache_dtype") or "auto")
    if not kv_dtype.startswith("fp8") or kwargs.get("model_impl") not in (None, "auto"):
        return None
    # the model's config.json is untrusted: its list may hold anything, strings are names
    failing = sorted(a for a in architectures if isinstance(a, str) and a in QUERY_3D_NATIVE)
    if not failing:
        return None
    kwargs["model_impl"] = TRANSFORMERS
    return f"{kv_dtype} KV cache, on vLLM's Transformers model code: its own {failing[0]} fails with one"
