"""Engine settings for translation work, chosen from the model's shape and the GPUs' memory.

Translation requests are short (tens to a few hundred tokens each) and many. On a GPU the
question is how many of them one decode step carries, and whether the GPU or the engine's
host-side work (scheduling, sampling, detokenizing: Python, one process per engine) is the
limit. The rule (measured on an H200 with bench/run.py, bench/RESULTS.md):

- Size of the model: its active parameters, from config.json (embeddings, attention, MLP,
  layers). A decode step costs the GPU about 2 x params FLOPs per sequence.
- Small models (at most SMALL_MODEL_PARAMS active parameters, e.g. HY-MT 1.8B) are bound by
  the host: one engine's loop (vLLM's scheduler, ~13 us per running request and step, taking
  the sampled tokens in, ~7 us) is busy all the time while the GPU is not (H100, issue 37's
  step traces: 71% busy compiled, 38% without). More sequences per step do not help (4096: the
  same rate as 2048); another engine process does: REPLICAS_SMALL engines per GPU when the
  memory holds them (each with its share of the card; on that H100 two engines kept the GPU
  busy 88% of the time, 1.51x one engine, before compiling), each `max_num_seqs` 2048, 32k
  batched tokens, CUDA graphs up to 2048 sequences, started together: each one's KV cache is
  sized here, so neither measures the memory the other is taking (vllm_plan.START_TOGETHER),
  and the first pass runs on all.
- Larger models (7B) are bound by the GPU: `max_num_seqs` 1024, 16k batched tokens, graphs up
  to 1024, one engine per GPU.
- Memory: an engine's share of the card must hold the weights, ACTIVATION_RESERVE for
  activations and graphs, and a KV cache for `max_num_seqs` requests of KV_TOKENS_PER_SEQ
  tokens (what a running translation request holds, measured on a real job); if it does not,
  fewer replicas, then fewer sequences. Engines sharing a GPU get the rest of their share as KV
  cache, sized here. A job of longer requests than that makes vLLM preempt and recompute some
  (slower, never wrong).
- Always: prefix caching on (the instruction prefix is shared per language), and vLLM's
  torch.compile with CUDA graphs for every step (`graphs`): full graphs for decode-only steps,
  piecewise graphs around attention for the steps that also prefill. Nearly every step of a
  busy engine prefills (requests finish and are replaced every step); run op by op, such a step
  kept one engine's host launching while the GPU idled. One engine of 2048 sequences on an
  H100, same call: 32,917 out tok/s compiled against 21,614 (GPU busy 71% against 38% of 40
  profiled steps; bench/step_profile.py, bench/RESULTS.md). It costs a fresh machine ~15 s
  more start (66 s against 51 s there); vLLM keeps the compiled graphs in its cache for the
  next start.
- FP8 only where it was measured to win: weights of models of 4B parameters and more on a GPU
  with FP8 (Hopper and later), not the KV cache (FP8_* below).

Every value goes to `vllm.LLM(...)` under hymt's other settings; `--engine-arg KEY=VALUE`
overrides any of them, `--gpus` and `--replicas` choose the devices and engines per device.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import math
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .base import EngineOptions

GIB = 1 << 30
SMALL_MODEL_PARAMS = 4_000_000_000
REPLICAS_SMALL = 2
MEMORY_SHARE = 0.9  # of the free memory of a GPU, for all of hymt's engines on it
ACTIVATION_RESERVE = 6 * GIB  # per engine: activations, sampler buffers, CUDA graphs, context
# KV cache tokens a running translation request holds, on average over its steps: the mixed job
# of bench/RESULTS.md (documents and a product catalog -> de, 14,916 requests: prompts 153 tokens
# on average, answers 82) holds 147 per running request, its shared instruction prefixes cached
# once (vLLM's prefix caching: 62% of the prompt tokens); 249 with whole prompts. With 256 two
# engines of 2048 sequences did not fit an 80 GB card.
KV_TOKENS_PER_SEQ = 160
MIN_SEQS = 128
# FP8 (Hopper and later). On the 7B shape FP8 weights win wherever measured: +22% over bf16 on
# an H200 and on H100s, hymt end to end (bench/RESULTS.md, issue 37's sixth session: 19,227 out
# tok/s against 15,719). On the 1.8B shape they win only where the GPU is the bound (+12-17% on
# a fast H100 host with two engines; nothing with one engine bound by its host); they stay off
# there: a small model is the likelier to lose quality, which random weights cannot show, and a
# default that followed the host's speed would translate one job differently on two machines.
# An FP8 KV cache runs (through vLLM's Transformers model code, vllm_model_impl.py) but won
# nowhere measured: -4% on the 7B shape, +4% on the 1.8B one against FP8 weights alone, both on
# a slow H100 host whose engine loops were the bound (issue 37's seventh session); off by default.
# `--engine-arg quantization=null` keeps bf16; `--quantization fp8` turns FP8 on.
FP8_MIN_PARAMS: int | None = SMALL_MODEL_PARAMS  # None: FP8 weights are never chosen by default
FP8_KV_MIN_PARAMS: int | None = None  # None: an FP8 KV cache is never chosen by default
FP8_MIN_CAPABILITY = (8, 9)
COMPILE_MODE = 3  # vLLM's CompilationMode.VLLM_COMPILE (0: none)

_DTYPE_BYTES = {"float32": 4, "float": 4, "float16": 2, "half": 2, "bfloat16": 2}


@dataclass(frozen=True, slots=True)
class ModelShape:
    """What the rule needs to know of a model, from its config.json."""

    params: int  # all parameters (memory)
    active_params: int  # used per token (compute; differs for mixture-of-experts models)
    weight_bytes: int
    kv_bytes_per_token: int
    quantized: bool  # the checkpoint is quantized already (FP8, GPTQ...)

    @classmethod
    def from_config(cls, config: Mapping[str, Any], dtype: str = "auto") -> ModelShape:
        text = config.get("text_config") or config
        hidden = int(text["hidden_size"])
        layers = int(text["num_hidden_layers"])
        heads = int(text.get("num_attention_heads") or 1)
        kv_heads = int(text.get("num_key_value_heads") or heads)
        head_dim = int(text.get("head_dim") or text.get("attention_head_dim") or hidden // heads)
        intermediate = int(text.get("intermediate_size") or 4 * hidden)
        vocab = int(text.get("vocab_size") or config.get("vocab_size") or 0)
        experts = int(text.get("num_experts") or text.get("n_routed_experts") or 1)
        topk = text.get("moe_topk") or text.get("num_experts_per_tok") or experts
        topk = int(topk[0] if isinstance(topk, list) else topk)
        moe_intermediate = int(text.get("moe_intermediate_size") or intermediate)
        attention = hidden * heads * head_dim * 2 + hidden * kv_heads * head_dim * 2
        mlp = 3 * hidden * (moe_intermediate if experts > 1 else intermediate)
        tied = bool(text.get("tie_word_embeddings", config.get("tie_word_embeddings", True)))
        embeddings = vocab * hidden * (1 if tied else 2)
        params = embeddings + layers * (attention + mlp * experts)
        active = embeddings + layers * (attention + mlp * min(topk, experts))
        width = _DTYPE_BYTES.get(
            dtype
            if dtype != "auto"
            else str(text.get("torch_dtype") or config.get("torch_dtype") or "bfloat16"),
            2,
        )
        quantized = bool(config.get("quantization_config") or text.get("quantization_config"))
        return cls(
            params=params,
            active_params=active,
            weight_bytes=params * (1 if quantized else width),
            kv_bytes_per_token=2 * layers * kv_heads * head_dim * width,
            quantized=quantized,
        )

    @classmethod
    def of_folder(cls, folder: str, dtype: str = "auto") -> ModelShape | None:
        """The shape of a local model folder; None when its config says too little."""
        try:
            config = json.loads((Path(folder) / "config.json").read_text(encoding="utf-8"))
            return cls.from_config(config, dtype)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    @classmethod
    def of_model(cls, options: EngineOptions) -> ModelShape | None:
        """The shape of the model to load: a local folder, or a hub model already cached."""
        if (Path(options.model) / "config.json").is_file():
            return cls.of_folder(options.model, options.dtype)
        config = model_config(options)  # None: offline and not cached: no shape, safe defaults
        try:
            return None if config is None else cls.from_config(config.to_dict(), options.dtype)
        except Exception:  # an unusual config: no shape, safe defaults
            return None

    @property
    def small(self) -> bool:
        return self.active_params <= SMALL_MODEL_PARAMS


def model_config(options: EngineOptions) -> Any:
    """The model's transformers config (a local folder, or a hub model, cached or downloaded);
    None where it does not load here (vLLM reports an unloadable model itself, in its own words)."""
    try:
        from transformers import AutoConfig

        return AutoConfig.from_pretrained(
            options.model, revision=options.revision, trust_remote_code=options.trust_remote_code
        )
    except Exception:
        return None


@dataclass(frozen=True, slots=True)
class Gpu:
    """One GPU as CUDA_VISIBLE_DEVICES names it (an index or a UUID), with its memory."""

    device: str
    name: str
    total_bytes: int
    free_bytes: int
    capability: tuple[int, int] | None = None
    uuid: str = ""


@dataclass(frozen=True, slots=True)
class Tuning:
    """Settings for every engine of a run (each engine: one process, one share of a GPU)."""

    max_num_seqs: int
    max_num_batched_tokens: int
    cudagraph_capture_size: int
    gpu_memory_utilization: float  # per engine, a share of the card's total memory
    replicas_per_gpu: int
    quantization: str | None = None
    kv_cache_dtype: str | None = None
    # Engines sharing a GPU get their KV cache size from the rule (their share, less weights
    # and ACTIVATION_RESERVE) instead of vLLM's profiling of the free memory, which would
    # mis-measure while the first engine works.
    kv_cache_bytes: int | None = None
    why: str = ""

    def llm_kwargs(self) -> dict[str, object]:
        """The `vllm.LLM` keyword arguments this tuning sets."""
        kwargs: dict[str, object] = dict(
            max_num_seqs=self.max_num_seqs,
            max_num_batched_tokens=self.max_num_batched_tokens,
            gpu_memory_utilization=self.gpu_memory_utilization,
            enable_prefix_caching=True,
            compilation_config=graphs(self.cudagraph_capture_size),
        )
        if self.quantization is not None:
            kwargs["quantization"] = self.quantization
        if self.kv_cache_dtype is not None:
            kwargs["kv_cache_dtype"] = self.kv_cache_dtype
        if self.kv_cache_bytes is not None:
            kwargs["kv_cache_memory_bytes"] = self.kv_cache_bytes
        return kwargs


def tune(
    shape: ModelShape | None, gpu: Gpu, *, replicas: int | None = None, fixed: Mapping[str, object] = {}
) -> Tuning:
    """The rule (module docstring) for one GPU. `replicas`: engines per GPU the user asked
    for; `fixed`: engine settings the user chose (they decide, the rule fills the rest)."""
    small = shape is None or shape.small
    seqs = 2048 if small else 1024
    count = replicas or (
        REPLICAS_SMALL
        if small and "gpu_memory_utilization" not in fixed and "kv_cache_memory_bytes" not in fixed
        else 1
    )
    free = min(gpu.free_bytes, gpu.total_bytes)
    why = f"{_billions(shape)} model, {gpu.name} with {free / GIB:.0f} GiB free"
    if shape is not None and replicas is None:
        while count > 1 and not _fits(shape, free * MEMORY_SHARE / count, seqs):
            count -= 1
    if shape is not None:
        while seqs > MIN_SEQS and not _fits(shape, free * MEMORY_SHARE / count, seqs):
            seqs //= 2
    share = math.floor(100 * MEMORY_SHARE * free / gpu.total_bytes / count) / 100
    fp8_ok = (
        gpu.capability is not None
        and gpu.capability >= FP8_MIN_CAPABILITY
        and shape is not None
        and not shape.quantized
    )
    quantization = (
        "fp8"
        if fp8_ok
        and shape is not None
        and FP8_MIN_PARAMS is not None
        and shape.active_params >= FP8_MIN_PARAMS
        else None
    )
    kv_dtype = (
        "fp8"
        if fp8_ok
        and shape is not None
        and FP8_KV_MIN_PARAMS is not None
        and shape.active_params >= FP8_KV_MIN_PARAMS
        else None
    )
    share = max(0.05, share)
    kv_bytes = None
    if count > 1 and shape is not None:
        kv_bytes = int(share * gpu.total_bytes) - shape.weight_bytes - ACTIVATION_RESERVE
    return Tuning(
        max_num_seqs=seqs,
        max_num_batched_tokens=16 * seqs,
        cudagraph_capture_size=seqs,
        gpu_memory_utilization=share,
        replicas_per_gpu=count,
        quantization=quantization,
        kv_cache_dtype=kv_dtype,
        kv_cache_bytes=kv_bytes,
        why=f"{why}: {count} engine(s) per GPU, max_num_seqs {seqs}",
    )


def graphs(largest: int) -> dict[str, object]:
    """vLLM's torch.compile; CUDA graphs for steps of up to `largest` sequences, at the batch
    sizes of `capture_sizes` (a step pads up to the next one): full graphs for decode-only
    steps, piecewise ones (attention run between them) for steps that also prefill."""
    sizes = capture_sizes(largest)
    return {
        "mode": COMPILE_MODE,
        "cudagraph_mode": "FULL_AND_PIECEWISE",
        "cudagraph_capture_sizes": sizes,
        "max_cudagraph_capture_size": sizes[-1],
    }


def capture_sizes(largest: int) -> list[int]:
    """Batch sizes to capture, 1.2-1.5x apart: 1, 2, 4, 8, 16, 24, 32, 48, 64 ... 512, then
    every 128 to 1024 and every 256 beyond, `largest` last (27 graphs for 2048 sequences, where
    vLLM would capture 147). A step pads up to the next size: small steps are bound by reading
    the weights and large ones by the host, so the padded rows cost little, while every graph
    costs start-up time (8-14 s measured for 147 on an H200, each engine, on every start)."""
    sizes = [1, 2, 4, 8, 16, 24, 32, 48, 64, 80, 96, 128, 160, 192, 256, 320, 384, 448, 512]
    sizes += list(range(640, 1024 + 1, 128)) + list(range(1280, max(largest, 1280) + 1, 256))
    kept = [n for n in sizes if n < largest]
    return kept + [largest]


def _fits(shape: ModelShape, budget: float, seqs: int) -> bool:
    kv = seqs * KV_TOKENS_PER_SEQ * shape.kv_bytes_per_token
    return shape.weight_bytes + ACTIVATION_RESERVE + kv <= budget


def _billions(shape: ModelShape | None) -> str:
    return "unknown-size" if shape is None else f"{shape.active_params / 1e9:.1f}B"


def _nvml() -> Any:
    """NVML's Python binding: `pynvml` if installed (Python caches the import), else the copy
    vLLM carries."""
    try:
        import pynvml  # type: ignore[import-not-found,import-untyped,unused-ignore]

        return pynvml
    except ImportError:
        return _vllm_pynvml()


@functools.cache
def _vllm_pynvml() -> Any:
    """The NVML binding vLLM carries, loaded once from its file: importing it as
    `vllm.third_party.pynvml` would run vLLM's package (and import torch, seconds of a cold
    start) in the process that only plans the engines."""
    try:
        spec = importlib.util.find_spec("vllm")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / "third_party" / "pynvml.py"
        if path.is_file():
            loaded = importlib.util.spec_from_file_location("hymt_vllm_pynvml", path)
            if loaded is None or loaded.loader is None:
                return None
            module = importlib.util.module_from_spec(loaded)
            sys.modules[loaded.name] = module  # the binding looks itself up there
            try:
                loaded.loader.exec_module(module)
            except Exception:
                del sys.modules[loaded.name]
                return None
            return module
    return None


def visible_gpus() -> list[Gpu]:
    """The GPUs this process may use (CUDA_VISIBLE_DEVICES respected), through NVML: no CUDA
    context is created, so engine processes started afterwards own their devices alone.
    Empty when there is no NVIDIA GPU or no NVML."""
    pynvml = _nvml()
    if pynvml is None:
        return []
    try:
        pynvml.nvmlInit()
    except Exception:  # no driver, no GPU
        return []
    try:
        found: list[Gpu] = []
        for i in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(i)
            memory = pynvml.nvmlDeviceGetMemoryInfo(handle)
            name = pynvml.nvmlDeviceGetName(handle)
            uuid = pynvml.nvmlDeviceGetUUID(handle)
            try:
                major, minor = pynvml.nvmlDeviceGetCudaComputeCapability(handle)
                capability: tuple[int, int] | None = (int(major), int(minor))
            except Exception:
                capability = None
            found.append(
                Gpu(str(i), _text(name), int(memory.total), int(memory.free), capability, _text(uuid))
            )
    finally:
        pynvml.nvmlShutdown()
    return visible_of(found, os.environ.get("CUDA_VISIBLE_DEVICES"))


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def visible_of(gpus: Sequence[Gpu], cuda_visible: str | None) -> list[Gpu]:
    """`gpus` (NVML order) as CUDA_VISIBLE_DEVICES exposes them, named as it names them."""
    if cuda_visible is None:
        return list(gpus)
    chosen: list[Gpu] = []
    for entry in (e.strip() for e in cuda_visible.split(",")):
        if not entry:
            break
        match = [
            g for g in gpus if g.device == entry or (entry.startswith("GPU-") and g.uuid.startswith(entry))
        ]
        if not match:
            break  # CUDA stops at the first invalid entry too
        chosen.append(replace(match[0], device=entry))
    return chosen
