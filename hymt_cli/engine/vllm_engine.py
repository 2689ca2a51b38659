"""The vLLM engine: offline batched inference, one `vllm.LLM` for the whole run.

vLLM and torch are imported only when an engine is built, so `--help`, `--dry-run` and
most tests never pay for them. Everything vLLM prints goes to stderr: stdout carries
the translated documents.
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..errors import EngineUnavailable
from ..model_files import INSTALL_HINT, MODEL_HINT, check_local_model, one_line
from .base import BatchLimits, EngineOptions, Generation, GenerationRequest, Sampling

if TYPE_CHECKING:
    from vllm import LLM, SamplingParams
    from vllm.inputs import TokensPrompt
    from vllm.outputs import CompletionOutput

# Keyword arguments of `vllm.LLM`: vLLM validates them itself (EngineArgs), e.g. the dtype
# and quantization names the user typed, so they are passed through untyped.
LlmArgs = dict[str, Any]

DEFAULT_MAX_MODEL_LEN = 8192  # HY-MT's budget for input + output (Hunyuan-MT#8)
_CUDA_MEMORY_SHARE = 0.9

# CUDA defaults for translation-sized requests (tens to hundreds of tokens each), measured
# on an H200 with bench/run.py (bench/RESULTS.md). No torch.compile (the engine started in
# 64 s instead of 83 s there), full CUDA graphs for decode steps.
CUDA_COMPILATION = {"mode": 0, "cudagraph_mode": "FULL_DECODE_ONLY"}
CUDA_MAX_NUM_SEQS = 1024
CUDA_MAX_NUM_BATCHED_TOKENS = 16384
# Per engine call on a GPU: whole jobs at once, so that vLLM's scheduler always has work
# queued (the pipeline streams the answers back as they finish).
CUDA_BATCH_TOKENS = 8 << 20
CUDA_BATCH_REQUESTS = 65536


class VllmEngine:
    """Generates with vLLM from pre-tokenized prompts (the pipeline owns the chat template)."""

    name = "vllm"
    limits = BatchLimits()  # on a GPU: whole jobs (see __init__)
    retries = 0

    def __init__(self, options: EngineOptions, sampling: Sampling, *, verbose: bool = False,
                 ignore_eos: bool = False) -> None:
        """Start vLLM (tens of seconds). `verbose` lets vLLM's INFO logs through (to stderr).

        `ignore_eos` is for benchmarks only (not a CLI flag): random-weight models never emit
        EOS, so every request runs to its own max_tokens, the same for every contender.
        """
        self._ignore_eos = ignore_eos
        self._calls = 0
        self._llm: LLM | None = None
        _route_vllm_logs_to_stderr(verbose)
        check_local_model(options.model)
        try:
            import vllm
            from vllm.platforms import current_platform
        except ImportError as exc:
            raise EngineUnavailable("vLLM is not installed", hint=INSTALL_HINT) from exc
        self._sampling = sampling
        on_cpu = current_platform.is_cpu()
        kwargs = _llm_kwargs(options, sampling, on_cpu=on_cpu)
        if not on_cpu:
            self.limits = BatchLimits(CUDA_BATCH_TOKENS, CUDA_BATCH_REQUESTS)
        try:
            with _stdout_to_stderr():
                self._llm = vllm.LLM(**kwargs)
        except Exception as exc:
            raise EngineUnavailable(
                f"vLLM could not load model {options.model!r}: {one_line(exc)}",
                hint=MODEL_HINT) from exc

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        """One Generation per request, in request order; each request keeps its own max_tokens."""
        if not requests:
            return []
        if self._llm is None:
            raise RuntimeError("the vLLM engine is closed")
        prompts = [_tokens_prompt(r) for r in requests]
        params = [self._params(r) for r in requests]
        outputs = self._llm.generate(prompts, params, use_tqdm=False)
        return [_generation(out.outputs[0]) for out in outputs]

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[tuple[int, Generation]]:
        """(index into `requests`, Generation) for each request as soon as it finishes.

        All requests go to vLLM at once, so its scheduler always has work queued, and the
        caller validates and writes while the engine-core process keeps generating (what
        `LLM.generate` does internally, minus waiting for the last request). Requests still
        running when the caller stops iterating are aborted.
        """
        if not requests:
            return
        if self._llm is None:
            raise RuntimeError("the vLLM engine is closed")
        from vllm.outputs import RequestOutput
        from vllm.sampling_params import RequestOutputKind

        engine = self._llm.llm_engine
        self._calls += 1
        index: dict[str, int] = {}
        try:
            for i, request in enumerate(requests):
                params = self._params(request)
                params.output_kind = RequestOutputKind.FINAL_ONLY  # as LLM.generate: no partial outputs
                request_id = f"hymt-{self._calls}-{i}"
                engine.add_request(request_id, _tokens_prompt(request), params)
                index[request_id] = i
            while index and engine.has_unfinished_requests():
                for out in engine.step():
                    if out.finished and isinstance(out, RequestOutput):  # (never pooling output here)
                        yield index.pop(out.request_id), _generation(out.outputs[0])
        finally:
            if index:
                engine.abort_request(list(index))

    def _params(self, request: GenerationRequest) -> SamplingParams:
        # A retry asks for greedy decoding whatever the run's sampling.
        sampling = replace(self._sampling, temperature=0.0) if request.deterministic else self._sampling
        return sampling_params(sampling, request.max_tokens, ignore_eos=self._ignore_eos)

    def close(self) -> None:
        """Stop the engine-core and worker processes; safe to call twice."""
        llm, self._llm = getattr(self, "_llm", None), None
        if llm is None:
            return
        engine_core = getattr(getattr(llm, "llm_engine", None), "engine_core", None)
        if engine_core is not None:
            engine_core.shutdown()

    def __enter__(self) -> VllmEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def sampling_params(sampling: Sampling, max_tokens: int, *, ignore_eos: bool = False) -> SamplingParams:
    """vLLM `SamplingParams` for one request: HY-MT's settings, or greedy."""
    from vllm import SamplingParams

    if sampling.greedy:
        return SamplingParams(max_tokens=max_tokens, temperature=0.0,
                              repetition_penalty=sampling.repetition_penalty, ignore_eos=ignore_eos)
    return SamplingParams(
        max_tokens=max_tokens, temperature=sampling.temperature, top_p=sampling.top_p,
        top_k=max(sampling.top_k, 0),  # vLLM: 0 disables top-k
        repetition_penalty=sampling.repetition_penalty, seed=sampling.seed, ignore_eos=ignore_eos)


def _route_vllm_logs_to_stderr(verbose: bool) -> None:
    """Set vLLM's logging env before it is imported; child processes inherit it.

    vLLM logs to stdout by default (VLLM_LOGGING_STREAM=ext://sys.stdout). A value the
    user set explicitly is kept, except a stream pointing at stdout.
    """
    if "stdout" in os.environ.get("VLLM_LOGGING_STREAM", "stdout"):
        os.environ["VLLM_LOGGING_STREAM"] = "ext://sys.stderr"
    if verbose:
        os.environ["VLLM_LOGGING_LEVEL"] = "INFO"
    else:
        # vLLM's CPU/GPU tuning warnings (tcmalloc, Triton, oneDNN...) are noise to a user
        # translating documents; errors still show, -v shows everything.
        os.environ.setdefault("VLLM_LOGGING_LEVEL", "ERROR")


@contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Point file descriptor 1 at stderr while vLLM spawns its processes.

    The engine-core and worker processes inherit fd 1 at start-up; anything they or
    native code print would otherwise land in the middle of the translated document.
    """
    try:
        sys.stdout.flush()
        saved: int | None = os.dup(1)
        os.dup2(2, 1)
    except (OSError, ValueError, AttributeError):  # no real fd 1 (embedded, closed): nothing to guard
        saved = None
    try:
        yield
    finally:
        if saved is not None:
            try:
                sys.stdout.flush()
            finally:
                os.dup2(saved, 1)
                os.close(saved)


def _llm_kwargs(options: EngineOptions, sampling: Sampling, *, on_cpu: bool) -> LlmArgs:
    """Arguments for `vllm.LLM`: what the user set, plus hardware-aware defaults."""
    kwargs: LlmArgs = dict(
        model=options.model, revision=options.revision,
        trust_remote_code=options.trust_remote_code, dtype=options.dtype,
        tensor_parallel_size=options.tensor_parallel_size,
        quantization=options.quantization, enforce_eager=options.enforce_eager,
        seed=sampling.seed if sampling.seed is not None else 0,
    )
    max_model_len = options.max_model_len or _default_max_model_len(options)
    if max_model_len is not None:
        kwargs["max_model_len"] = max_model_len
    if options.max_num_seqs is not None:
        kwargs["max_num_seqs"] = options.max_num_seqs
    if options.max_num_batched_tokens is not None:
        kwargs["max_num_batched_tokens"] = options.max_num_batched_tokens
    if options.gpu_memory_utilization is not None:
        kwargs["gpu_memory_utilization"] = options.gpu_memory_utilization
    elif on_cpu:
        # On CPU the "GPU" share is a share of host RAM that must hold the weights too,
        # so no fixed fraction fits both a 3 MB test model and a 7B one. An explicit KV
        # cache size does (and, with enforce_eager, spares vLLM its profiling warm-up).
        kwargs["kv_cache_memory_bytes"] = _cpu_kv_cache_bytes()
    else:
        kwargs["gpu_memory_utilization"] = _CUDA_MEMORY_SHARE
    if not on_cpu:
        kwargs.update(_cuda_defaults(options))
    kwargs.update(options.extra)  # --engine-arg: the user's word over every default
    return kwargs


def _cuda_defaults(options: EngineOptions) -> LlmArgs:
    """Engine settings for translation-sized requests on a GPU, where the user set none."""
    tuned: LlmArgs = dict(enable_prefix_caching=True)  # the instruction prefix is shared per language
    if not options.enforce_eager:
        tuned["compilation_config"] = dict(CUDA_COMPILATION)
    if options.max_num_seqs is None:
        tuned["max_num_seqs"] = CUDA_MAX_NUM_SEQS
    if options.max_num_batched_tokens is None:
        tuned["max_num_batched_tokens"] = CUDA_MAX_NUM_BATCHED_TOKENS
    return tuned


def _default_max_model_len(options: EngineOptions) -> int | None:
    """8192, or less when the model's own context is shorter (vLLM rejects longer)."""
    try:
        from transformers import AutoConfig

        config = AutoConfig.from_pretrained(options.model, revision=options.revision,
                                            trust_remote_code=options.trust_remote_code)
    except Exception:  # vLLM will report an unloadable model itself, with its own words
        return DEFAULT_MAX_MODEL_LEN
    text_config = getattr(config, "get_text_config", lambda: config)()
    model_max = getattr(text_config, "max_position_embeddings", None)
    return min(DEFAULT_MAX_MODEL_LEN, model_max) if model_max else DEFAULT_MAX_MODEL_LEN


def _cpu_kv_cache_bytes() -> int:
    """A tenth of the available RAM, between 512 MiB and 4 GiB.

    512 MiB holds one full 8k-token request of HY-MT 1.8B in bf16 (64 KiB per token).
    """
    import psutil

    share: int = psutil.virtual_memory().available // 10
    return max(512 << 20, min(4 << 30, share))


def _tokens_prompt(request: GenerationRequest) -> TokensPrompt:
    return {"prompt_token_ids": list(request.prompt_token_ids)}


def _generation(completion: CompletionOutput) -> Generation:
    # vLLM also reports "abort"/"error"; the answer is then incomplete, like a cut one,
    # and the pipeline treats "length" as a per-segment error.
    reason = "stop" if completion.finish_reason == "stop" else "length"
    return Generation(text=completion.text, finish_reason=reason,
                      output_tokens=len(completion.token_ids))


def serve_command(options: EngineOptions, sampling: Sampling, *, on_cpu: bool = False, host: str | None = None,
                  port: int | None = None) -> list[str]:
    """The `vllm serve` command whose server behaves like this engine (for `--engine openai`):
    the very keyword arguments `VllmEngine` gives `vllm.LLM`, as flags, plus
    `--generation-config vllm` so that the server's defaults never come from the model's
    generation_config (hymt sends every sampling field anyway)."""
    kwargs = _llm_kwargs(options, sampling, on_cpu=on_cpu)
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
