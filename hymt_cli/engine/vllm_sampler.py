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
test_vllm_sampler.py compares them with vLLM's own functions); only the random draws differ,
and, in the CPU runner, where more than TIES tokens tie with the k-th candidate (the flat logits
of random weights), hymt keeps k + TIES of them and vLLM all.

vLLM has two model runners with two samplers: the CPU's (`TopKFirst` replaces its `forward`,
as above) and the GPU's "V2" runner, whose sampler keeps every request's settings in arrays by
request slot and counts the penalties' tokens on the GPU (`TopKFirstV2` replaces its `sample`:
vLLM's own penalty kernel, then the same candidates; exactly k of them, since that runner's
Triton top-k keeps exactly k and splits ties, where the PyTorch one keeps every tie). The GPU one
is taken only for the `sample` signature of vLLM 0.26; with `check`, it also runs vLLM's chain on
a copy of every step's logits and records how far the two distributions are apart.

Every step the batch's settings are checked on the host (no GPU sync): anything else (logprobs,
greedy-only batches, seeds, min-p, logit bias, bad words, no top-k or one above MAX_TOP_K,
speculative decoding; in the CPU runner also frequency or presence penalties, which the GPU
runner's own penalty kernel applies) goes to vLLM's sampler, unchanged.

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

    def hymt_use_topk_first_sampler(self, enabled: bool = True, check: bool = False) -> bool:
        """Put hymt's sampler in place of the model runner's (`enabled` False: every step goes to
        vLLM's again, for benchmarks); False where this vLLM's runner is not one this module
        knows (its own sampler stays). `check` (GPU runner only): every step of hymt's path also
        runs vLLM's chain on a copy of the logits and records how far the two distributions
        are apart (`hymt_sampler_counts`: check_steps, check_max_diff_ppm, check_outside_ppm)."""
        runner = getattr(self, "model_runner", None)
        sampler = getattr(runner, "sampler", None)
        if runner is None or sampler is None or getattr(runner, "speculative_config", None):
            return False
        if _is_v2_sampler(sampler) or isinstance(sampler, TopKFirstV2):
            upgrade(sampler, runner, enabled, mixin=TopKFirstV2)
            sampler.hymt_check = check
            return True
        if not hasattr(getattr(runner, "input_batch", None), "top_k_cpu"):
            return False
        upgrade(sampler, runner, enabled)
        return True

    def hymt_sampler_counts(self) -> dict[str, int]:
        """Steps sampled by hymt's path and by vLLM's since the switch, and vLLM's by the reason
        (empty: never switched)."""
        sampler = getattr(getattr(self, "model_runner", None), "sampler", None)
        return dict(getattr(sampler, "hymt_counts", {}))


def upgrade(sampler: Any, runner: Any, enabled: bool = True, mixin: type | None = None) -> None:
    """Make `sampler` (vLLM's `Sampler` or a subclass) take hymt's path where it can: its class
    becomes a subclass with `mixin` (TopKFirst: the V1 runner's sampler) first."""
    mixin = mixin or TopKFirst
    base = type(sampler)
    if not issubclass(base, mixin):
        sampler.__class__ = type(f"{mixin.__name__}{base.__name__}", (mixin, base), {})
    sampler.hymt_runner = runner
    sampler.hymt_enabled = enabled
    if not hasattr(sampler, "hymt_counts"):
        sampler.hymt_counts = {"topk_first": 0, "vllm": 0}


def _count(counts: dict[str, int], path: int | str) -> None:
    if isinstance(path, str):
        counts["vllm"] += 1
        counts[f"vllm: {path}"] = counts.get(f"vllm: {path}", 0) + 1
    else:
        counts["topk_first"] += 1


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
        _count(self.hymt_counts, k)
        if isinstance(k, str):
            return super().forward(  # type: ignore[misc]
                logits, sampling_metadata, predict_bonus_token, logprobs_mode_override
            )
        from vllm.v1.outputs import SamplerOutput

        sampled = sample(logits, sampling_metadata, k)
        return SamplerOutput(sampled_token_ids=sampled.to(_int32()).unsqueeze(-1), logprobs_tensors=None)


class TopKFirstV2:
    """The `sample` of hymt's sampler for vLLM's GPU model runner (vllm/v1/worker/gpu, "V2"),
    whose `Sampler` keeps every request's settings in arrays by request slot. vLLM's own
    penalty kernel runs first, in place (repetition, frequency and presence, as vLLM applies
    them); the top-k candidates, the temperature, top-p and the draw then run on k values a
    row instead of vLLM's temperature, top-k/top-p and Gumbel passes over the vocabulary."""

    hymt_runner: Any
    hymt_enabled: bool
    hymt_counts: dict[str, int]
    hymt_check: bool
    sampling_states: Any
    penalties_state: Any
    logit_bias_state: Any
    bad_words_state: Any

    def sample(
        self,
        logits: torch.Tensor,
        expanded_idx_mapping: torch.Tensor,
        idx_mapping_np: Any,
        pos: torch.Tensor,
        input_ids: torch.Tensor,
        expanded_local_pos: torch.Tensor,
        return_logprobs: bool = False,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        k: int | str = "off"
        if self.hymt_enabled:
            k = "logprobs" if return_logprobs else fast_path_k_v2(self, idx_mapping_np, len(logits))
        _count(self.hymt_counts, k)
        args = (logits, expanded_idx_mapping, idx_mapping_np, pos, input_ids, expanded_local_pos)
        if isinstance(k, str):
            vllms: tuple[torch.Tensor, torch.Tensor] = super().sample(  # type: ignore[misc]
                *args, return_logprobs=return_logprobs
            )
            return vllms
        reference = self._hymt_reference(*args) if self.hymt_check else None
        self.penalties_state.apply_penalties(
            logits, expanded_idx_mapping, idx_mapping_np, input_ids, expanded_local_pos
        )
        states = self.sampling_states
        temperature = states.temperature.gpu[expanded_idx_mapping]
        top_k, top_p = states.get_top_k_top_p(expanded_idx_mapping, idx_mapping_np)  # None: not used
        ids, scaled = candidates(
            logits,
            k,
            top_k=top_k,
            temperature=temperature,
            top_p=top_p,
            keep_ties=False,  # as this runner's top-k kernel: exactly k, ties split
        )
        if reference is not None:
            record_check(self.hymt_counts, reference, ids, scaled, temperature >= _EPS)
        return draw(ids, scaled, temperature).to(_int64()), logits

    def _hymt_reference(self, *args: Any) -> torch.Tensor:
        """vLLM's own chain on a copy of the logits: the probabilities it would draw from."""
        processed: torch.Tensor = super().apply_sampling_params(  # type: ignore[misc]
            args[0].clone(), *args[1:]
        )
        return processed.float().softmax(dim=-1)


def fast_path_k_v2(sampler: Any, slots: Any, rows: int) -> int | str:
    """`fast_path_k` for the GPU runner's sampler: its settings by request slot, on the host."""
    states = sampler.sampling_states
    if rows != len(slots):
        return "speculative"
    temperature = states.temperature.np[slots]
    sampled = temperature >= _EPS
    if not sampled.any():
        return "greedy"
    if states.any_explicit_seed(slots):
        return "seeds"
    if (states.min_p.np[slots] != 0.0).any():
        return "min-p"
    if sampler.logit_bias_state.use_logit_bias[slots].any():
        return "allowed words, logit bias or min tokens"
    if sampler.bad_words_state.num_bad_words.np[slots].max() > 0:
        return "bad words"
    top_k = states.top_k.np[slots][sampled]
    if (top_k >= states.vocab_size).any():
        return "no top-k"
    k = int(top_k.max())
    return k if 0 < k <= MAX_TOP_K else "top-k above MAX_TOP_K"


# the GPU runner's `Sampler.sample` that TopKFirstV2 replaces (vLLM 0.26); other versions keep theirs
V2_SAMPLE_PARAMETERS = (
    "self",
    "logits",
    "expanded_idx_mapping",
    "idx_mapping_np",
    "pos",
    "input_ids",
    "expanded_local_pos",
    "return_logprobs",
)


def _is_v2_sampler(sampler: Any) -> bool:
    """Whether `sampler` is the GPU runner's, of the version TopKFirstV2 was written against."""
    needed = ("sampling_states", "penalties_state", "logit_bias_state", "bad_words_state")
    return (
        all(hasattr(sampler, name) for name in needed)
        and hasattr(sampler.sampling_states, "get_top_k_top_p")
        and takes_known_sample(type(sampler))
    )


def takes_known_sample(sampler_class: type) -> bool:
    """Whether a GPU-runner `Sampler` class's `sample` is the one TopKFirstV2 replaces."""
    import inspect

    method = getattr(sampler_class, "sample", None)
    return method is not None and tuple(inspect.signature(method).parameters) == V2_SAMPLE_PARAMETERS


def record_check(
    counts: dict[str, int],
    reference: torch.Tensor,
    ids: torch.Tensor,
    scaled: torch.Tensor,
    rows: torch.Tensor,
) -> None:
    """How far hymt's probabilities are from vLLM's on the same step's sampled `rows` (greedy
    ones take the best candidate, as vLLM does), in millionths: the largest difference on a
    candidate, and the largest mass vLLM gives to tokens hymt cannot draw; rows where vLLM keeps
    more tokens than hymt fetched apart (`_ties`: ties with the k-th beyond k + TIES on the CPU
    runner; on the GPU runner, rows where its Triton top-k stopped its search early)."""
    # compared best first: among tokens of equal logits, which ones a cut keeps is arbitrary
    mine = scaled[rows].softmax(dim=-1).sort(dim=-1, descending=True).values
    theirs = reference[rows].topk(ids.shape[1], dim=-1).values
    # rows where vLLM keeps more tokens than hymt fetched
    kept = (reference[rows] > 0).sum(dim=1)
    overflow = kept > ids.shape[1]
    clean = ~overflow
    counts["check_max_kept"] = max(counts.get("check_max_kept", 0), int(kept.max().item()))
    counts["check_steps"] = counts.get("check_steps", 0) + 1
    counts["check_rows"] = counts.get("check_rows", 0) + int(rows.sum().item())
    counts["check_tie_rows"] = counts.get("check_tie_rows", 0) + int(overflow.sum().item())
    for name, part in (("", clean), ("_ties", overflow)):
        if not part.any():
            continue
        diff = (mine[part] - theirs[part]).abs().max().item()
        outside = (1 - theirs[part].sum(dim=1)).clamp(min=0).max().item()
        for key, value in ((f"check_max_diff{name}_ppm", diff), (f"check_outside{name}_ppm", outside)):
            counts[key] = max(counts.get(key, 0), round(value * 1e6))


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
    ids, scaled = candidates(
        logits,
        k,
        top_k=md.top_k,
        temperature=md.temperature,
        top_p=md.top_p,
        seen=None if md.no_penalties else seen_tokens(md, logits.shape[1]),
        repetition_penalties=None if md.no_penalties else md.repetition_penalties,
    )
    return draw(ids, scaled, None if md.all_random else md.temperature)


def draw(ids: torch.Tensor, scaled: torch.Tensor, temperature: torch.Tensor | None) -> torch.Tensor:
    """One of each row's candidates, drawn as vLLM draws: the argmax of p / Exp(1). Greedy rows
    (temperature below 1e-5) take the best candidate, the argmax of the penalized logits."""
    import torch

    probs = scaled.softmax(dim=-1)
    noise = torch.empty_like(probs).exponential_()
    picked = ids.gather(1, probs.div_(noise).argmax(dim=-1, keepdim=True)).squeeze(1)
    if temperature is not None:
        picked = torch.where(temperature < _EPS, ids[:, 0], picked)
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
    keep_ties: bool = True,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Each row's best tokens after the repetition penalty, best first (`k`, and up to TIES more
    tied with the k-th), and their logits divided by the temperature, with those top-k and top-p
    drop at -inf: the logits vLLM's sampler draws from, on the only tokens it can draw.
    `logits` is changed in place (the penalized tokens are masked out of it).

    `seen`: each row's prompt and answer tokens, padded with a value >= the vocabulary's size.
    A row's temperature below 1e-5 means greedy: its scaled logits are the plain ones.
    `keep_ties`: top-k keeps the tokens tied with the k-th too, as vLLM's PyTorch top-k does
    (the CPU runner's); without, exactly k a row, as vLLM 0.26's Triton kernel on a GPU keeps."""
    import torch

    ninf = float("-inf")
    fetched = min(k + TIES if keep_ties else k, logits.shape[1])
    if seen is None or repetition_penalties is None:
        values, ids = logits.topk(fetched, dim=-1)
        values = values.float()
    else:
        seen_ids, seen_values = _penalized(logits, seen, repetition_penalties)
        rest_values, rest_ids = logits.scatter_(1, seen_ids, ninf).topk(fetched, dim=-1)
        merged = torch.cat((rest_values.float(), seen_values), dim=1)
        values, at = merged.topk(fetched, dim=-1)
        ids = torch.cat((rest_ids, seen_ids), dim=1).gather(1, at)
    rows = values.shape[0]
    kth = (torch.full((rows,), k) if top_k is None else top_k.clamp(max=k)).to(values.device, torch.int64)
    if keep_ties:  # every token as good as a row's k-th stays: ties too (bf16 logits have many)
        values.masked_fill_(values < values.gather(1, kth.sub(1).unsqueeze(1)), ninf)
    else:  # a row's first top_k candidates, whatever ties with the last
        values.masked_fill_(torch.arange(fetched, device=values.device) >= kth.unsqueeze(1), ninf)
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


def _int64() -> Any:
    import torch

    return torch.int64
