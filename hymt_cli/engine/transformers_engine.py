"""The transformers engine: plain `model.generate`, for machines where vLLM does not run.

Slower than vLLM (no paged attention, no continuous batching), so requests are sorted
by prompt length and generated in buckets: similar lengths waste little on padding.
torch and transformers are imported only when an engine is built.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

from ..errors import EngineUnavailable, one_line
from ..model.files import INSTALL_HINT, MODEL_HINT, check_local_model
from .base import BatchEngine, EngineOptions, Generation, GenerationRequest, Sampling

if TYPE_CHECKING:
    import torch
    from transformers import GenerationConfig, PreTrainedModel, PreTrainedTokenizerBase

MAX_BATCH_ROWS = 32
# rows x (longest prompt + max new tokens): bounds the KV cache and the padded batch
MAX_BATCH_TOKENS = 32768


class TransformersEngine(BatchEngine):
    """Batched `generate` with left padding; each request keeps its own max_tokens."""

    name = "transformers"

    def __init__(self, options: EngineOptions, sampling: Sampling) -> None:
        check_local_model(options.model)
        try:
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer, GenerationConfig
        except ImportError as exc:
            raise EngineUnavailable("transformers (with torch) is not installed", hint=INSTALL_HINT) from exc
        self._sampling = sampling
        self._device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self._model: PreTrainedModel | None = None
        try:
            self._tokenizer: PreTrainedTokenizerBase = AutoTokenizer.from_pretrained(
                options.model, revision=options.revision, trust_remote_code=options.trust_remote_code
            )
            load: dict[str, object] = {
                "dtype": _torch_dtype(options.dtype),
                "revision": options.revision,
                "trust_remote_code": options.trust_remote_code,
                **options.extra,
            }
            model = AutoModelForCausalLM.from_pretrained(options.model, **load)
        except Exception as exc:
            raise EngineUnavailable(
                f"transformers could not load model {options.model!r}: {one_line(exc)}", hint=MODEL_HINT
            ) from exc
        # PreTrainedModel.to is typed through functools.wraps(torch.nn.Module.to), which mypy
        # reads as a function taking the module itself first
        model.to(self._device).eval()  # type: ignore[arg-type]
        self._model = model
        self._eos_ids = _eos_ids(model.generation_config, self._tokenizer)
        pad = self._tokenizer.pad_token_id
        self._pad_id = pad if pad is not None else min(self._eos_ids)
        # generate() merges the model's defaults into ours; HY-MT ships do_sample and
        # temperature 0.7, which must not leak into greedy runs (nor warn there)
        model.generation_config = GenerationConfig(  # type: ignore[no-untyped-call]  # **kwargs only
            eos_token_id=sorted(self._eos_ids),
            pad_token_id=self._pad_id,
            bos_token_id=model.generation_config.bos_token_id,
        )

    @property
    def model(self) -> PreTrainedModel:
        """The loaded model, as `from_pretrained` built it with the engine's arguments."""
        if self._model is None:
            raise RuntimeError("the transformers engine is closed")
        return self._model

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        """One Generation per request, in request order."""
        if self._model is None:
            raise RuntimeError("the transformers engine is closed")
        results: list[Generation | None] = [None] * len(requests)
        for deterministic in (False, True):  # a retry asks for greedy decoding: its own buckets
            group = [i for i, r in enumerate(requests) if r.deterministic is deterministic]
            for bucket in length_buckets([requests[i] for i in group]):
                chosen = [group[i] for i in bucket]
                batch = [requests[i] for i in chosen]
                for index, generation in zip(chosen, self._generate_bucket(batch, greedy=deterministic)):
                    results[index] = generation
        done = [generation for generation in results if generation is not None]
        assert len(done) == len(requests)  # every index is in exactly one bucket
        return done

    def close(self) -> None:
        """Drop the model so its memory can be reclaimed; safe to call twice."""
        model, self._model = getattr(self, "_model", None), None
        if model is not None and self._device.type == "cuda":
            import torch

            del model
            torch.cuda.empty_cache()

    def __enter__(self) -> TransformersEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _generate_bucket(
        self, requests: Sequence[GenerationRequest], *, greedy: bool = False
    ) -> list[Generation]:
        import torch

        assert self._model is not None
        width = max(len(r.prompt_token_ids) for r in requests)
        # left padding: every row's answer starts at the same column
        input_ids = torch.full((len(requests), width), self._pad_id, dtype=torch.long)
        attention_mask = torch.zeros((len(requests), width), dtype=torch.long)
        for row, request in enumerate(requests):
            ids = request.prompt_token_ids
            input_ids[row, width - len(ids) :] = torch.tensor(ids, dtype=torch.long)
            attention_mask[row, width - len(ids) :] = 1
        config = self._generation_config(max(r.max_tokens for r in requests), greedy=greedy)
        if self._sampling.seed is not None and not (greedy or self._sampling.greedy):
            torch.manual_seed(self._sampling.seed)
        with torch.inference_mode():
            # transformers types GenerationMixin's `self` as a Protocol for the `ty` checker,
            # which mypy does not match against the loaded model class
            sequences = self._model.generate(  # type: ignore[operator]
                input_ids=input_ids.to(self._device),
                attention_mask=attention_mask.to(self._device),
                generation_config=config,
            )
        generations = []
        for row, request in enumerate(requests):
            new_ids = sequences[row, width:].tolist()
            text_ids, output_tokens, reason = trim_answer(new_ids, request.max_tokens, self._eos_ids)
            text = self._tokenizer.decode(text_ids, skip_special_tokens=True)
            assert isinstance(text, str)  # one sequence in, one string out
            generations.append(Generation(text=text, finish_reason=reason, output_tokens=output_tokens))
        return generations

    def _generation_config(self, max_new_tokens: int, *, greedy: bool = False) -> GenerationConfig:
        from transformers import GenerationConfig

        s = replace(self._sampling, temperature=0.0) if greedy else self._sampling
        config = GenerationConfig(  # type: ignore[no-untyped-call]  # **kwargs only
            max_new_tokens=max_new_tokens,
            repetition_penalty=s.repetition_penalty,
            eos_token_id=sorted(self._eos_ids),
            pad_token_id=self._pad_id,
            do_sample=not s.greedy,
        )
        if not s.greedy:
            config.temperature, config.top_p = s.temperature, s.top_p
            config.top_k = s.top_k if s.top_k > 0 else None
        return config


def length_buckets(
    requests: Sequence[GenerationRequest],
    *,
    max_rows: int = MAX_BATCH_ROWS,
    max_tokens: int = MAX_BATCH_TOKENS,
) -> list[list[int]]:
    """Request indices grouped by similar prompt length, each group within the budgets.

    A single request over the token budget still gets a bucket of its own.
    """
    order = sorted(range(len(requests)), key=lambda i: len(requests[i].prompt_token_ids))
    buckets: list[list[int]] = []
    current: list[int] = []
    width = new = 0
    for index in order:
        request = requests[index]
        w, n = max(width, len(request.prompt_token_ids)), max(new, request.max_tokens)
        if current and (len(current) >= max_rows or (len(current) + 1) * (w + n) > max_tokens):
            buckets.append(current)
            current, w, n = [], len(request.prompt_token_ids), request.max_tokens
        current.append(index)
        width, new = w, n
    if current:
        buckets.append(current)
    return buckets


def trim_answer(
    new_ids: Sequence[int], max_tokens: int, eos_ids: frozenset[int]
) -> tuple[list[int], int, str]:
    """Cut one row of a bucket's output at its own EOS or max_tokens.

    Returns the ids to decode (EOS excluded), the number of tokens generated (EOS
    included, as vLLM counts) and the finish reason.
    """
    window = list(new_ids[:max_tokens])
    for position, token in enumerate(window):
        if token in eos_ids:
            return window[:position], position + 1, "stop"
    return window, len(window), "length"


def _eos_ids(generation_config: GenerationConfig, tokenizer: PreTrainedTokenizerBase) -> frozenset[int]:
    configured: int | list[int] | None = generation_config.eos_token_id
    candidates = [*(configured if isinstance(configured, list) else [configured]), tokenizer.eos_token_id]
    ids = {i for i in candidates if isinstance(i, int)}
    if not ids:
        raise EngineUnavailable("the model defines no end-of-sequence token")
    return frozenset(ids)


def _torch_dtype(dtype: str) -> torch.dtype | Literal["auto"]:
    import torch

    if dtype == "auto":
        return "auto"
    resolved = getattr(torch, {"half": "float16", "float": "float32"}.get(dtype, dtype), None)
    if not isinstance(resolved, torch.dtype):
        raise EngineUnavailable(f"unknown dtype {dtype!r}", hint="use auto, float32, bfloat16 or float16")
    return resolved
