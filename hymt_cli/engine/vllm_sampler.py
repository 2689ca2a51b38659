"""hymt's sampler inside vLLM's engine: the top-k candidates first, then everything else on them.

HY-MT samples with top-k 20, top-p 0.6, temperature 0.7 and a repetition penalty of 1.05.
vLLM's own sampler (0.26) takes each of those as a pass over the whole float32 logits of a
step, 2,048 x 120,818 values (~1 GB) for hymt's batches: the float32 copy, two bin counts of
the prompt and output tokens (int64, twice that size) for the penalty, the temperature, the
top-k/top-p filter, the softmax and the exponential noise of the sampling. On an H100 that was
20% of the GPU's time (bench/RESULTS.md, issue 37).

Here the logits are read once. The penalty only lowers the logits of the tokens a request has
seen (its prompt and its answer so far), a few hundred of them, so those are penalized on their
own (gathered, not counted over the vocabulary) and masked out of the logits; one top-k over the
rest, merged with the penalized ones, gives the same k candidates vLLM's filter keeps. The
temperature, top-p, the softmax and the sampling then run on k values a request. The result is
vLLM's distribution: the same candidates, the same probabilities (tests/engine/
test_vllm_sampler.py compares them with vLLM's own functions); only the random draws differ.

Every step the batch's settings are checked on the host (no GPU sync): anything else (logprobs,
greedy-only batches, seeds, min-p, logit bias, bad words, frequency or presence penalties, no
top-k or one above MAX_TOP_K, speculative decoding) goes to vLLM's sampler, unchanged.

It reaches vLLM's worker process as `worker_extension_cls` (vLLM's extension point, in both
fork and spawn starts); `LLM.collective_rpc(SWITCH)` then puts it in place of the worker's
sampler, and `collective_rpc(COUNTS)` says how many steps took each path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch

EXTENSION = "hymt_cli.engine.vllm_sampler.TopKFirstExtension"
SWITCH = "hymt_use_topk_first_sampler"
COUNTS = "hymt_sampler_counts"
MAX_TOP_K = 64  # above it, vLLM's filter: one top-k pass costs more as k grows
TIES = 8  # candidates fetched beyond k: tokens tied with the k-th, which vLLM keeps too
_EPS = 1e-5  # vLLM's: a temperature below it is greedy
# vLLM's logits processors that are no-ops while no request uses them: the state that says so
_IDLE_WHEN_EMPTY = {
    "MinPLogitsProcessor": "min_p_count",
    "LogitBiasLogitsProcessor": "biases",
    "MinTokensLogitsProcessor": "min_toks",
}


class TopKFirstExtension:
    """Mixed into vLLM's worker class by `worker_extension_cls`; `LLM.collective_rpc` calls
    these methods in every worker (the names may not clash with the worker's own)."""

    def hymt_use_topk_first_sampler(self, enabled: bool = True) -> bool:
        """Put hymt's sampler in place of the model runner's (`enabled` False: every step goes to
        vLLM's again, for benchmarks); False where this vLLM's runner is not the one this
        module knows (its own sampler stays)."""
        runner = getattr(self, "model_runner", None)
        sampler = getattr(runner, "sampler", None)
        if runner is None or sampler is None or getattr(runner, "speculative_config", None):
            return False
        if not hasattr(getattr(runner, "input_batch", None), "top_k_cpu"):
            return False
        upgrade(sampler, runner, enabled)
        return True

    def hymt_sampler_counts(self) -> dict[str, int]:
        """Steps sampled by hymt's path and by vLLM's since the switch, and vLLM's by the reason
        (empty: never switched)."""
        sampler = getattr(getattr(self, "model_runner", None), "sampler", None)
        return dict(getattr(sampler, "hymt_counts", {}))


def upgrade(sampler: Any, runner: Any, enabled: bool = True) -> None:
    """Make `sampler` (vLLM's `Sampler` or a subclass) take hymt's path where it can: its class
    becomes a subclass with TopKFirst's `forward` first, so every other method stays vLLM's."""
    base = type(sampler)
    if not issubclass(base, TopKFirst):
        sampler.__class__ = type(f"TopKFirst{base.__name__}", (TopKFirst, base), {})
    sampler.hymt_runner = runner
    sampler.hymt_enabled = enabled
    if not hasattr(sampler, "hymt_counts"):
        sampler.hymt_counts = {"topk_first": 0, "vllm": 0}


class TopKFirst:
    """The `forward` of hymt's sampler; the class it is mixed into is vLLM's `Sampler`."""

    hymt_runner: Any
    hymt_enabled: bool
    hymt_counts: dict[str, int]

    def forward(
        self,
        logits: torch.Tensor,
        sampling_metadata: Any,
        predict_bonus_token: bool = False,
        logprobs_mode_override: Any = None,
    ) -> Any:
        k: int | str = "speculative or logprobs mode" if self.hymt_enabled else "off"
        unusual = predict_bonus_token or logprobs_mode_override or getattr(self, "use_fp64_gumbel", False)
        if self.hymt_enabled and not unusual:
            k = fast_path_k(sampling_metadata, getattr(self.hymt_runner, "input_batch", None), len(logits))
        if isinstance(k, str):
            self.hymt_counts["vllm"] += 1
            self.hymt_counts[f"vllm: {k}"] = self.hymt_counts.get(f"vllm: {k}", 0) + 1
            return super().forward(  # type: ignore[misc]
                logits, sampling_metadata, predict_bonus_token, logprobs_mode_override
            )
        self.hymt_counts["topk_first"] += 1
        from vllm.v1.outputs import SamplerOutput

        sampled = sample(logits, sampling_metadata, k)
        return SamplerOutput(sampled_token_ids=sampled.to(_int32()).unsqueeze(-1), logprobs_tensors=None)


def fast_path_k(md: Any, batch: Any, rows: int) -> int | str:
    """The candidates to keep a request (the batch's largest top-k of its sampled requests) when
    this step can take hymt's path, else why not. Host-side state only: no GPU sync."""
    if md.max_num_logprobs is not None or getattr(md, "logprob_token_ids", None):
        return "logprobs"
    if md.all_greedy or md.temperature is None:
        return "greedy"
    if md.top_k is None:
        return "no top-k"
    if md.generators:
        return "seeds"
    if md.allowed_token_ids_mask is not None or md.bad_words_token_ids:
        return "allowed or bad words"
    if any(getattr(md, "spec_token_ids", None) or ()):  # a list of each row's draft tokens
        return "speculative"
    holder = getattr(md, "thinking_budget_state_holder", None)
    if holder is not None and holder.has_tracked_requests():
        return "thinking budget"
    processors = md.logitsprocs
    if not all(_idle(p) for p in (*processors.argmax_invariant, *processors.non_argmax_invariant)):
        return "logits processors"
    if batch is None or getattr(batch, "num_reqs", rows) != rows:
        return "batch"
    if getattr(batch, "frequency_penalties_reqs", None) or getattr(batch, "presence_penalties_reqs", None):
        return "frequency or presence penalty"
    top_k = batch.top_k_cpu[:rows]
    if md.all_random:
        k = int(top_k.max())
    else:  # greedy rows (retries) take the best candidate: only the sampled rows' k counts
        sampled_rows = batch.temperature_cpu[:rows] >= _EPS
        k = int(top_k[sampled_rows].max()) if sampled_rows.any() else 1
    return k if 0 < k <= MAX_TOP_K else "top-k above MAX_TOP_K"


def _idle(processor: Any) -> bool:
    state = _IDLE_WHEN_EMPTY.get(type(processor).__name__)
    return state is not None and not getattr(processor, state, True)


def sample(logits: torch.Tensor, md: Any, k: int) -> torch.Tensor:
    """One token a row, drawn as vLLM's sampler would draw it (module docstring)."""
    import torch

    ids, scaled = candidates(
        logits,
        k,
        top_k=md.top_k,
        temperature=md.temperature,
        top_p=md.top_p,
        seen=None if md.no_penalties else seen_tokens(md, logits.shape[1]),
        repetition_penalties=None if md.no_penalties else md.repetition_penalties,
    )
    probs = scaled.softmax(dim=-1)
    noise = torch.empty_like(probs).exponential_()  # vLLM's draw: argmax of p / Exp(1)
    picked = ids.gather(1, probs.div_(noise).argmax(dim=-1, keepdim=True)).squeeze(1)
    if not md.all_random:  # greedy rows: the best candidate, the argmax of the penalized logits
        picked = torch.where(md.temperature < _EPS, ids[:, 0], picked)
    return picked


def seen_tokens(md: Any, vocab: int) -> torch.Tensor:
    """Every row's prompt and answer tokens, padded with `vocab` (vLLM's padding), on the GPU."""
    import torch
    from vllm.utils.torch_utils import PIN_MEMORY, make_tensor_with_pad

    prompt = md.prompt_token_ids
    answers = md.output_token_ids
    if not any(answers):
        prompt_ids: torch.Tensor = prompt
        return prompt_ids
    out = make_tensor_with_pad(answers, pad=vocab, device="cpu", dtype=torch.int64, pin_memory=PIN_MEMORY)
    out = out.to(prompt.device, non_blocking=True)
    out.masked_fill_(out < 0, vocab)  # async scheduling's placeholders: no token yet
    return torch.cat((prompt.to(torch.int64), out), dim=1)


def candidates(
    logits: torch.Tensor,
    k: int,
    *,
    top_k: torch.Tensor | None,
    temperature: torch.Tensor,
    top_p: torch.Tensor | None,
    seen: torch.Tensor | None = None,
    repetition_penalties: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Each row's best tokens after the repetition penalty, best first (`k`, and up to TIES more
    tied with the k-th), and their logits divided by the temperature, with those top-k and top-p
    drop at -inf: the logits vLLM's sampler draws from, on the only tokens it can draw.
    `logits` is changed in place (the penalized tokens are masked out of it).

    `seen`: each row's prompt and answer tokens, padded with a value >= the vocabulary's size.
    A row's temperature below 1e-5 means greedy: its scaled logits are the plain ones."""
    import torch

    ninf = float("-inf")
    fetched = min(k + TIES, logits.shape[1])
    if seen is None or repetition_penalties is None:
        values, ids = logits.topk(fetched, dim=-1)
        values = values.float()
    else:
        seen_ids, seen_values = _penalized(logits, seen, repetition_penalties)
        rest_values, rest_ids = logits.scatter_(1, seen_ids, ninf).topk(fetched, dim=-1)
        merged = torch.cat((rest_values.float(), seen_values), dim=1)
        values, at = merged.topk(fetched, dim=-1)
        ids = torch.cat((rest_ids, seen_ids), dim=1).gather(1, at)
    # vLLM keeps every token as good as a row's k-th: ties too (bf16 logits have many)
    rows = values.shape[0]
    kth = torch.full((rows,), k) if top_k is None else top_k.clamp(max=k)
    kth_values = values.gather(1, kth.to(device=values.device, dtype=torch.int64).sub(1).unsqueeze(1))
    values.masked_fill_(values < kth_values, ninf)
    values.div_(torch.where(temperature < _EPS, 1.0, temperature).unsqueeze(1))
    if top_p is not None:
        probs = values.softmax(dim=-1)
        before = probs.cumsum(dim=-1).sub_(probs)  # the mass of the better candidates
        values.masked_fill_(before >= top_p.unsqueeze(1), ninf)  # the best always stays
    return ids, values


def _penalized(
    logits: torch.Tensor, seen: torch.Tensor, penalties: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """The distinct seen tokens of each row and their logits after vLLM's repetition penalty
    (divided by it when positive, multiplied when not), in float32; padding and repeats get
    -inf and point at the row's smallest seen token, so that writing to them is harmless."""
    import torch

    vocab = logits.shape[1]
    ids, _ = seen.sort(dim=1)
    repeat = torch.zeros_like(ids, dtype=torch.bool)
    repeat[:, 1:] = ids[:, 1:] == ids[:, :-1]
    real = (ids < vocab) & ~repeat
    ids = torch.where(real, ids, ids[:, :1])
    raw = logits.gather(1, ids).float()
    penalty = penalties.unsqueeze(1).float()
    penalized = torch.where(raw > 0, raw / penalty, raw * penalty)
    return ids, penalized.masked_fill_(~real, float("-inf"))


def _int32() -> Any:
    import torch

    return torch.int32
