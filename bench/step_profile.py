"""Where one engine's GPU time goes, per kernel family (GPU machine, issue 37).

    python3 bench/step_profile.py --model /tmp/hymt-1.8b-cfg --modes nocompile,compile --out $OUT/prof

Each mode runs in its own process: one vLLM engine with hymt's tuning for this GPU (one engine,
`load_format=dummy`), a translation-shaped job of token-id prompts (a shared instruction prefix,
then the segment; outputs of fixed lengths, `ignore_eos`, HY-MT sampling), first unprofiled for
the rate, then again under torch's profiler for 40 engine steps taken mid-job. It prints
out tok/s and the GPU time of the profiled steps by kernel family (matrix products, attention,
sampler, norms, ...), and writes the raw kernel table to `--out`.

Modes: `compile` (the tuning rule: vLLM's torch.compile, piecewise CUDA graphs for steps that also
prefill and full ones for decode steps), `nocompile` (the rule before issue 37: full graphs for
decode steps only, the others run op by op), `compile-fp8` / `nocompile-fp8` (FP8 weights).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

FAMILIES = (  # in order: FlashAttention's kernels are CUTLASS kernels too
    ("attention", r"flash|fmha|attn|attention|paged|reshape_and_cache|merge_attn"),
    ("matmul", r"gemm|nvjet|cutlass|xmma|cublas|matmul|splitK|scaled_mm|fp8_gemm"),
    ("sampler", r"penalt|temperature|topk|top_k|topp|gumbel|sample|bincount|argmax|softmax|logprob"),
    ("norm", r"rms|norm"),
    ("rotary", r"rotary|rope"),
    ("activation", r"silu|act_and_mul|gelu"),
    ("quantize", r"quant|fp8|scaled"),
    ("copy", r"memcpy|memset|copy|cat|index|gather|scatter"),
)
HYMT_SAMPLING = dict(temperature=0.7, top_p=0.6, top_k=20, repetition_penalty=1.05)


def family(kernel: str) -> str:
    for name, pattern in FAMILIES:
        if re.search(pattern, kernel, re.IGNORECASE):
            return name
    return "other"


def job(count: int, seed: int) -> tuple[list[list[int]], list[int]]:
    """Prompts of a 40-token shared prefix (one per target language: four here) and a segment of
    20-260 tokens; answers of 1.1x the segment, as in bench/RESULTS.md's fixed lengths."""
    import random

    rng = random.Random(seed)
    prefixes = [[rng.randrange(1000, 100_000) for _ in range(40)] for _ in range(4)]
    prompts, lengths = [], []
    for i in range(count):
        segment = int(min(260, max(20, rng.lognormvariate(4.4, 0.6))))
        prompts.append(prefixes[i % 4] + [rng.randrange(1000, 100_000) for _ in range(segment)])
        lengths.append(max(4, round(1.1 * segment)))
    return prompts, lengths


def engine_kwargs(model: str, mode: str, profile_dir: Path) -> dict:
    from hymt_cli.engine.base import EngineOptions, Sampling
    from hymt_cli.engine.tuning import ModelShape, capture_sizes, tune, visible_gpus
    from hymt_cli.engine.vllm_arguments import llm_kwargs
    from hymt_cli.engine.vllm_options import VllmOptions

    options = EngineOptions(model=model, dtype="bfloat16", vllm=VllmOptions(replicas=1))
    tuning = tune(ModelShape.of_model(options), visible_gpus()[0], replicas=1)
    kwargs = llm_kwargs(options, Sampling(), on_cpu=False, tuning=tuning)
    kwargs.update(load_format="dummy", skip_tokenizer_init=True)
    if "fp8" in mode:
        kwargs["quantization"] = "fp8"
    else:
        kwargs.pop("quantization", None)
    sizes = capture_sizes(int(kwargs["max_num_seqs"]))
    if mode.startswith("nocompile"):  # the rule before issue 37
        kwargs["compilation_config"] = {
            "mode": 0,
            "cudagraph_mode": "FULL_DECODE_ONLY",
            "cudagraph_capture_sizes": sizes,
            "max_cudagraph_capture_size": sizes[-1],
        }
    kwargs["profiler_config"] = {
        "profiler": "torch",
        "torch_profiler_dir": str(profile_dir),
        "torch_profiler_with_stack": False,
        "torch_profiler_dump_cuda_time_total": False,
        "delay_iterations": 40,  # the job's batch filled, prefills mixed in as requests finish
        "max_iterations": 40,
    }
    return kwargs


def worker(args: argparse.Namespace) -> None:
    from vllm import LLM, SamplingParams, TokensPrompt

    profile_dir = args.out / args.worker
    kwargs = engine_kwargs(args.model, args.worker, profile_dir)
    t0 = time.monotonic()
    llm = LLM(**kwargs)
    start_s = time.monotonic() - t0

    def run(count: int, seed: int) -> tuple[float, int]:
        prompts, lengths = job(count, seed)
        params = [SamplingParams(max_tokens=n, ignore_eos=True, **HYMT_SAMPLING) for n in lengths]
        t = time.monotonic()
        llm.generate([TokensPrompt(prompt_token_ids=p) for p in prompts], params, use_tqdm=False)
        return time.monotonic() - t, sum(lengths)

    run(512, 1)  # the sampler's Triton kernels at this batch's sizes
    wall, tokens = run(args.requests, 2)
    llm.start_profile()  # 40 steps, 40 steps into the job (profiler_config)
    pwall, _ = run(args.profiled_requests, 3)
    llm.stop_profile()
    result = dict(
        mode=args.worker,
        engine_start_s=round(start_s, 1),
        requests=args.requests,
        out_tokens=tokens,
        wall_s=round(wall, 2),
        out_tok_s=round(tokens / wall),
        profiled_wall_s=round(pwall, 2),
        kwargs={k: v for k, v in kwargs.items() if k != "profiler_config"},
    )
    result["kernels"] = kernel_table(profile_dir)
    (args.out / f"{args.worker}.json").write_text(json.dumps(result, indent=1, default=str))


def kernel_table(profile_dir: Path) -> dict:
    """GPU time per kernel name and per family, from the newest torch trace in the folder."""
    traces = sorted(profile_dir.glob("*.json*"), key=lambda p: p.stat().st_mtime)
    if not traces:
        return {}
    opener = gzip.open if traces[-1].suffix == ".gz" else open
    with opener(traces[-1], "rt") as fh:
        events = json.load(fh).get("traceEvents", [])
    kernels: Counter[str] = Counter()
    first, last = float("inf"), 0.0
    for event in events:
        if event.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset") and "dur" in event:
            kernels[event["name"]] += event["dur"]
            first = min(first, event["ts"])
            last = max(last, event["ts"] + event["dur"])
    families: Counter[str] = Counter()
    for name, us in kernels.items():
        families[family(name)] += us
    total = sum(kernels.values())
    return dict(
        gpu_us=round(total),
        span_us=round(last - first) if kernels else 0,
        families={k: round(v / total, 4) for k, v in families.most_common()},
        top=[(name[:120], round(us)) for name, us in kernels.most_common(25)],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--modes", default="nocompile,compile")
    parser.add_argument("--requests", type=int, default=8000)
    parser.add_argument("--profiled-requests", type=int, default=2500)
    parser.add_argument("--out", type=Path, default=Path("/tmp/step-profile"))
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.worker:
        worker(args)
        return
    for mode in args.modes.split(","):
        command = [sys.executable, __file__, "--worker", mode, "--model", args.model]
        command += ["--requests", str(args.requests), "--profiled-requests", str(args.profiled_requests)]
        command += ["--out", str(args.out)]
        done = subprocess.run(command, check=False)
        path = args.out / f"{mode}.json"
        if done.returncode or not path.is_file():
            print(f"{mode}: failed ({done.returncode})", flush=True)
            continue
        result = json.loads(path.read_text())
        kernels = result["kernels"]
        busy = kernels.get("gpu_us", 0) / max(1, kernels.get("span_us", 1))
        print(
            f"{mode}: start {result['engine_start_s']} s, {result['out_tok_s']} out tok/s "
            f"({result['out_tokens']} tokens in {result['wall_s']} s); profiled window GPU busy "
            f"{busy:.1%}; families {kernels.get('families')}",
            flush=True,
        )
        for name, us in kernels.get("top", [])[:12]:
            print(f"    {us / 1000:9.1f} ms  {name}", flush=True)


if __name__ == "__main__":
    main()
