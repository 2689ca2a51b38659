"""What a vLLM engine is given, derived from hymt's options: the keyword arguments of
`vllm.LLM` (the tuning rule's settings under the user's), each request's `SamplingParams`, the
GPUs of `--gpus`, and the `vllm serve` command of a server that behaves the same.

vLLM is imported only inside the functions that build its objects.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..errors import EngineUnavailable
from ..model.prompts import CONTEXT_TOKENS
from .base import EngineOptions, GenerationRequest, Sampling
from .tuning import GIB, Gpu, ModelShape, Tuning, graphs, model_config, tune, visible_gpus
from .vllm_model_impl import steer_model_impl

if TYPE_CHECKING:
    from vllm import SamplingParams

# Keyword arguments of `vllm.LLM`: vLLM validates them itself (EngineArgs), e.g. the dtype
# and quantization names the user typed, so they are passed through untyped.
LlmArgs = dict[str, Any]


def tune_one_engine(options: EngineOptions) -> Tuning:
    """The rule for one engine on the first visible GPU (a `VllmEngine` built directly)."""
    gpus = choose_gpus(visible_gpus(), options.vllm_options().gpu_list())
    gpu = gpus[0] if gpus else Gpu("0", "GPU", 80 * GIB, 72 * GIB)
    return tune(ModelShape.of_model(options), gpu, replicas=1, fixed=fixed_settings(options))


def fixed_settings(options: EngineOptions) -> dict[str, object]:
    return {**options.vllm_options().llm_args(), **options.extra}


def choose_gpus(visible: list[Gpu], wanted: tuple[str, ...] | None) -> list[Gpu]:
    """The GPUs of `--gpus` (as CUDA_VISIBLE_DEVICES names them), or every visible one."""
    if wanted is None:
        return visible
    by_name = {g.device: g for g in visible}
    missing = [w for w in wanted if w not in by_name]
    if missing:
        names = ", ".join(by_name) or "none"
        raise EngineUnavailable(
            f"no GPU {', '.join(missing)} (visible: {names})",
            hint="--gpus takes the indices CUDA_VISIBLE_DEVICES gives, e.g. --gpus 0,1",
        )
    return [by_name[w] for w in wanted]


def request_params(
    sampling: Sampling,
    request: GenerationRequest,
    *,
    ignore_eos: bool = False,
    stop_ids: Collection[int] = (),
) -> SamplingParams:
    """vLLM `SamplingParams` for a request under the run's sampling: a retry (deterministic) asks
    for greedy decoding whatever the run's sampling."""
    chosen = replace(sampling, temperature=0.0) if request.deterministic else sampling
    return sampling_params(chosen, request.max_tokens, ignore_eos=ignore_eos, stop_ids=stop_ids)


def sampling_params(
    sampling: Sampling, max_tokens: int, *, ignore_eos: bool = False, stop_ids: Collection[int] = ()
) -> SamplingParams:
    """vLLM `SamplingParams` for one request: HY-MT's settings, or greedy. `stop_ids` end an
    answer as its EOS does (an engine without a tokenizer knows no EOS of its own)."""
    from vllm import SamplingParams

    stop_token_ids = sorted(stop_ids) or None
    if sampling.greedy:
        return SamplingParams(
            max_tokens=max_tokens,
            temperature=0.0,
            repetition_penalty=sampling.repetition_penalty,
            ignore_eos=ignore_eos,
            stop_token_ids=stop_token_ids,
        )
    return SamplingParams(
        max_tokens=max_tokens,
        temperature=sampling.temperature,
        top_p=sampling.top_p,
        top_k=max(sampling.top_k, 0),  # vLLM: 0 disables top-k
        repetition_penalty=sampling.repetition_penalty,
        seed=sampling.seed,
        ignore_eos=ignore_eos,
        stop_token_ids=stop_token_ids,
    )


def llm_kwargs(
    options: EngineOptions,
    sampling: Sampling,
    *,
    on_cpu: bool,
    tuning: Tuning | None = None,
    notes: list[str] | None = None,
) -> LlmArgs:
    """Arguments for `vllm.LLM`: the tuning rule's settings (GPU), under what the user set (vLLM's
    options declared `engine_arg`, then `--engine-arg`). `notes` hears what hymt chose for vLLM
    beyond the rule, in words (vllm_model_impl.py)."""
    vllm = options.vllm_options()
    config = model_config(options)
    kwargs: LlmArgs = dict(
        model=options.model,
        revision=options.revision,
        trust_remote_code=options.trust_remote_code,
        dtype=options.dtype,
        seed=sampling.seed if sampling.seed is not None else 0,
    )
    kwargs["max_model_len"] = options.max_model_len or default_max_model_len(config)
    if on_cpu:
        if vllm.gpu_memory_utilization is None:
            # On CPU the "GPU" share is a share of host RAM that must hold the weights too,
            # so no fixed fraction fits both a 3 MB test model and a 7B one. An explicit KV
            # cache size does (and, with enforce_eager, spares vLLM its profiling warm-up).
            kwargs["kv_cache_memory_bytes"] = cpu_kv_cache_bytes()
    elif tuning is not None:
        tuned = tuning.llm_kwargs()
        if vllm.enforce_eager:
            tuned.pop("compilation_config")
        kwargs.update(tuned)
    kwargs.update(vllm.llm_args())  # the user's options over the tuning rule's
    kwargs.update(options.extra)  # --engine-arg: the user's word over every default
    if tuning is not None and "compilation_config" in kwargs and "compilation_config" not in options.extra:
        # graphs for every batch the chosen max_num_seqs allows
        kwargs["compilation_config"] = graphs(
            min(int(kwargs["max_num_seqs"]), int(kwargs["max_num_batched_tokens"]))
        )
    why = steer_model_impl(kwargs, getattr(config, "architectures", None) or ())
    if why is not None and notes is not None:
        notes.append(why)
    return kwargs


def default_max_model_len(config: Any) -> int:
    """CONTEXT_TOKENS (8192), or less when the model's own context is shorter (vLLM rejects
    longer). `config`: the model's (`model_config`), None where it did not load."""
    if config is None:
        return CONTEXT_TOKENS
    text_config = getattr(config, "get_text_config", lambda: config)()
    model_max = getattr(text_config, "max_position_embeddings", None)
    return min(CONTEXT_TOKENS, model_max) if model_max else CONTEXT_TOKENS


def cpu_kv_cache_bytes() -> int:
    """A tenth of the available RAM, between 512 MiB and 4 GiB.

    512 MiB holds one full 8k-token request of HY-MT 1.8B in bf16 (64 KiB per token).
    """
    import psutil

    share: int = psutil.virtual_memory().available // 10
    return max(512 << 20, min(4 << 30, share))


_NOMINAL_GPU = Gpu("0", "a GPU", 1 << 50, 1 << 50)


def serve_command(
    options: EngineOptions,
    sampling: Sampling,
    *,
    on_cpu: bool = False,
    host: str | None = None,
    port: int | None = None,
) -> list[str]:
    """The `vllm serve` command whose server behaves like this engine (for `--engine openai`):
    the very keyword arguments `VllmEngine` gives `vllm.LLM`, as flags, plus
    `--generation-config vllm` so that the server's defaults never come from the model's
    generation_config (hymt sends every sampling field anyway). On a GPU the tuning rule is
    applied for one engine per server, on this machine's first visible GPU (a nominal large
    one where there is none here: then the memory share is vLLM's usual 0.9)."""
    tuning = None
    if not on_cpu:
        gpus = visible_gpus()
        tuning = tune(ModelShape.of_model(options), gpus[0] if gpus else _NOMINAL_GPU, replicas=1)
    kwargs = llm_kwargs(options, sampling, on_cpu=on_cpu, tuning=tuning)
    command = ["vllm", "serve", str(kwargs.pop("model"))]
    for key, value in kwargs.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            command.append(flag)
        elif isinstance(value, (dict, list)):
            command += [flag, json.dumps(value, separators=(",", ":"))]
        else:
            command += [flag, str(value)]
    command += ["--generation-config", "vllm"]
    if host is not None:
        command += ["--host", host]
    if port is not None:
        command += ["--port", str(port)]
    return command
