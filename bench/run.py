"""Throughput of hymt against bare vLLM, vLLM out of the box and naive transformers batching.

One command, one machine, the same prompts and sampling for every contender:

  vllm      bare `LLM.generate` on hymt's exact prompt token ids, hymt's engine settings
  hymt      hymt end to end: files in -> files out, glossary and validation on, in-process
            `Pipeline` (shares the engine of `vllm`; the prefix cache is reset in between)
  vllm-oob  `LLM(model, dtype, max_model_len)` with vLLM's defaults, same prompts
  hf        transformers `generate`, static padded batches of 32, on a subset

Random-weight models never stop by themselves, so every request generates exactly
round(1.1 x its source tokens) tokens (`ignore_eos`), identically for every contender. In
the hymt run the bench's engine wrapper also replaces the random text by a well-formed
answer (the segment with its tags, plus the glossary's target terms) so that validation,
glossary checks and reassembly see what a working model gives them (no retry pass on
gibberish); the GPU work and the token counts are vLLM's own.

Each engine configuration runs in its own subprocess. Start-up (engine init, model load,
graph capture) is reported apart from the steady-state figures.

    python bench/run.py --preset tiny                                   # CPU, a few minutes
    python bench/run.py --preset 1.8b --model /tmp/hymt-1.8b-random     # GPU
The last line reads `ratio hymt/vllm=<x> vllm/transformers=<y>`.
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LAUNCHED = time.time()
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

PRESETS = {
    # docs: generated documents; targets: target languages; hf_n: requests for the naive baseline
    "tiny": dict(docs=6, targets="de,fr", hf_n=64, dtype="float32"),
    "1.8b": dict(docs=260, targets="de,fr,ja", hf_n=320, dtype="bfloat16"),
    "7b": dict(docs=260, targets="de,fr,ja", hf_n=160, dtype="bfloat16"),
}
GLOSSARIES = ["glossaries/brand.json", "glossaries/product-terms.tsv", "glossaries/ui-labels.csv"]
OUTPUT_FACTOR = 1.1  # a translation about as long as its source


def fixed_output_tokens(source_tokens: int) -> int:
    return max(1, round(OUTPUT_FACTOR * source_tokens))


# -- planning (parent) ---------------------------------------------------------------------------
def plan(spec: dict) -> dict:
    """hymt's own plan of the job (dry run): the prompts every contender gets."""

    t0 = time.monotonic()
    requests: list = []
    pipeline = make_pipeline(spec, out_dir=Path(spec["work"]) / "dry", engine_factory=None, dry_run=True,
                             on_planned=requests.extend)
    report = pipeline.run(sources(spec))
    table = [dict(ids=r.prompt_ids, out=fixed_output_tokens(r.source_tokens), answer=well_formed_answer(r))
             for r in requests]
    return dict(table=table, segments=report.segments, unique=len(requests),
                files=len({f.input for f in report.files}), plan_s=round(time.monotonic() - t0, 3),
                prompt_tokens=sum(len(t["ids"]) for t in table), output_tokens=sum(t["out"] for t in table))


def well_formed_answer(request) -> str:
    """What a working model would answer, as far as the checks can tell: the segment with its
    tags and do-not-translate placeholders, and every glossary target term."""
    text = request.model_text
    if request.glossary is not None:
        extra = [e.target for e in request.glossary.expected if not e.dnt]
        if extra:
            text = text + " " + " ".join(extra)
    return text


def sources(spec: dict):
    from hymt_cli.discovery import discover

    found, problems = discover([spec["docs_dir"]], format_name=None, options=None)
    assert not problems, problems
    return found


def make_pipeline(spec: dict, *, out_dir: Path, engine_factory, dry_run: bool = False, progress=None,
                  on_planned=None):
    from hymt_cli.glossary import load_glossaries
    from hymt_cli.languages import parse_language_list
    from hymt_cli.pipeline import Pipeline, RunOptions
    from hymt_cli.tokenizer import ChatTemplateTokenizer

    tokenizer = spec.get("_tokenizer") or ChatTemplateTokenizer.load(spec["model"])
    spec["_tokenizer"] = tokenizer
    options = RunOptions(targets=tuple(parse_language_list(spec["targets"])), out_dir=out_dir, dry_run=dry_run)
    glossary = load_glossaries([REPO / g for g in GLOSSARIES])
    return Pipeline(options, tokenizer, engine_factory, progress=progress, engine_name="vllm",
                    model=spec["model"], glossary=glossary, on_planned=on_planned)


# -- contenders (subprocesses) -------------------------------------------------------------------
class BenchEngine:
    """Wraps hymt's engine: fixed output lengths, well-formed answers (see the module doc)."""

    name = "vllm"

    def __init__(self, inner, table: list[dict]) -> None:
        self.inner = inner
        self.by_ids = {tuple(t["ids"]): t for t in table}
        self.limits = inner.limits
        self.requests = 0

    @property
    def retries(self) -> int:
        return self.inner.retries

    def _fixed(self, requests):
        from hymt_cli.engine.base import GenerationRequest

        rows = [self.by_ids[tuple(r.prompt_token_ids)] for r in requests]
        return rows, [GenerationRequest(r.source_text, r.prompt_token_ids, row["out"], r.deterministic)
                      for r, row in zip(requests, rows)]

    def _answer(self, row, generation):
        from hymt_cli.engine.base import Generation

        assert generation.output_tokens == row["out"], (generation.output_tokens, row["out"])
        return Generation(row["answer"], "stop", generation.output_tokens)

    def generate_stream(self, requests):
        rows, fixed = self._fixed(requests)
        self.requests += len(requests)
        for index, generation in self.inner.generate_stream(fixed):
            yield index, self._answer(rows[index], generation)

    def generate(self, requests):
        rows, fixed = self._fixed(requests)
        self.requests += len(requests)
        return [self._answer(row, g) for row, g in zip(rows, self.inner.generate(fixed))]

    def close(self) -> None:  # the worker closes the real engine at its end
        pass


class FileClock:
    """Progress sink recording when the first and the last document were written."""

    def __init__(self) -> None:
        self.first: float | None = None
        self.last: float | None = None
        self.files = 0

    def planned(self, **_: int) -> None: ...
    def advanced(self, **_: int) -> None: ...
    def phase(self, name: str) -> None: ...

    def file_done(self, output: str | None = None) -> None:
        now = time.time()
        self.first = self.first or now
        self.last = now
        self.files += 1


def vllm_prompts(table):
    return [{"prompt_token_ids": list(t["ids"])} for t in table]


def vllm_params(table, *, greedy: bool = False, detokenize: bool = True):
    from vllm import SamplingParams

    sampling = dict(temperature=0.0) if greedy else dict(temperature=0.7, top_p=0.6, top_k=20)
    return [SamplingParams(max_tokens=t["out"], ignore_eos=True, repetition_penalty=1.05,
                           detokenize=detokenize, **sampling) for t in table]


def timed_generate(llm, table, **params) -> dict:
    prompts, params_list = vllm_prompts(table), vllm_params(table, **params)
    t0 = time.monotonic()
    outputs = llm.generate(prompts, params_list, use_tqdm=False)
    wall = time.monotonic() - t0
    out_tokens = sum(len(o.outputs[0].token_ids) for o in outputs)
    assert out_tokens == sum(t["out"] for t in table), "every request must generate its fixed length"
    cached = sum(getattr(o, "num_cached_tokens", 0) or 0 for o in outputs)
    return figures(wall, table, out_tokens, cached_tokens=cached)


def warm_up(llm, table, n: int = 256) -> None:
    """Bench only: one small pass so that one-time JIT work (Triton sampling kernels) stays
    out of every contender's measured pass; the prefix cache is emptied afterwards."""
    from vllm import SamplingParams

    rows = table[-n:]
    llm.generate(vllm_prompts(rows), [SamplingParams(max_tokens=8, ignore_eos=True, temperature=0.7, top_p=0.6,
                                                    top_k=20, repetition_penalty=1.05) for _ in rows],
                 use_tqdm=False)
    llm.reset_prefix_cache()


def figures(wall: float, table, out_tokens: int, **extra) -> dict:
    prompt_tokens = sum(len(t["ids"]) for t in table)
    return dict(wall_s=round(wall, 3), requests=len(table), prompt_tokens=prompt_tokens,
                output_tokens=out_tokens, req_per_s=round(len(table) / wall, 2),
                prompt_tok_per_s=round(prompt_tokens / wall), out_tok_per_s=round(out_tokens / wall), **extra)


def gpu_memory_mib() -> int | None:
    try:
        done = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
                              capture_output=True, text=True, timeout=20)
        return int(done.stdout.split()[0])
    except (OSError, ValueError, IndexError, subprocess.SubprocessError):
        return None


def worker_hymt(spec: dict, table: list[dict], result: dict) -> None:
    """hymt cold (engine started in the background) -> bare vLLM -> hymt warm, one engine."""
    from hymt_cli.engine.base import EngineOptions, Sampling
    from hymt_cli.engine.vllm_engine import VllmEngine

    on_cpu = spec["preset"] == "tiny"
    options = EngineOptions(model=spec["model"], dtype=spec["dtype"], enforce_eager=on_cpu,
                            quantization=spec.get("quantization"))
    holder: dict = {}

    def factory():
        t0 = time.monotonic()
        engine = VllmEngine(options, Sampling(), ignore_eos=True)
        result["engine_init_s"] = round(time.monotonic() - t0, 2)
        warm_up(engine._llm, table)  # noqa: SLF001
        result["warmup_s"] = round(time.monotonic() - t0 - result["engine_init_s"], 2)
        holder["engine"] = engine
        holder["ready"] = time.time()
        return BenchEngine(engine, table)

    work = Path(spec["work"])
    clock = FileClock()
    t0 = time.monotonic()
    pipeline = make_pipeline(spec, out_dir=work / "cold", engine_factory=factory, progress=clock)
    report = pipeline.run(sources(spec))
    cold = time.monotonic() - t0
    # Steady state of a real run: from the engine being ready (planning was done meanwhile,
    # in the foreground, while it started) to the last document written.
    after_ready = clock.last - holder["ready"]
    result["hymt_run"] = figures(after_ready, table, report.output_tokens, files=clock.files,
                                 engine_s=round(report.engine_seconds, 2))
    result["hymt_cold"] = dict(
        wall_s=round(cold, 2), first_file_from_launch_s=round(clock.first - spec["launched"], 2),
        first_file_from_run_s=round(clock.first - (time.time() - cold), 2),
        files=clock.files, out_tok_per_s_incl_start=round(report.output_tokens / cold))
    save(spec, result)
    engine = holder["engine"]
    llm = engine._llm  # noqa: SLF001  bare vLLM on the very same engine

    llm.reset_prefix_cache()
    result["vllm"] = timed_generate(llm, table)
    print(f"vllm: {result['vllm']}", flush=True)
    save(spec, result)

    llm.reset_prefix_cache()
    clock = FileClock()
    pipeline = make_pipeline(spec, out_dir=work / "warm", engine_factory=lambda: BenchEngine(engine, table),
                             progress=clock)
    t0 = time.monotonic()
    started = time.time()
    report = pipeline.run(sources(spec))
    wall = time.monotonic() - t0
    result["hymt"] = figures(wall, table, report.output_tokens, files=clock.files,
                             engine_s=round(report.engine_seconds, 2),
                             first_file_s=round(clock.first - started, 2), engine_requests=report.engine_requests,
                             retried=report.retried, untranslated=report.untranslated,
                             segments=report.segments, unique_segments=report.unique_segments,
                             files_ok=report.files_ok, files_failed=report.files_failed)
    print(f"hymt: {result['hymt']}", flush=True)
    save(spec, result)
    assert report.engine_requests == len(table), (report.engine_requests, len(table))
    for name, kwargs in (("vllm_greedy", dict(greedy=True)), ("vllm_no_detok", dict(detokenize=False))):
        if name in spec.get("extra", ()):
            llm.reset_prefix_cache()
            result[name] = timed_generate(llm, table, **kwargs)
            print(f"{name}: {result[name]}", flush=True)
            save(spec, result)
    result["gpu_mem_mib"] = gpu_memory_mib()
    engine.close()


def worker_vllm(spec: dict, table: list[dict], result: dict) -> None:
    """A plain `vllm.LLM` with the given keyword arguments (vLLM's defaults for the rest)."""
    os.environ.setdefault("VLLM_LOGGING_STREAM", "ext://sys.stderr")
    from vllm import LLM

    kwargs = dict(model=spec["model"], dtype=spec["dtype"], max_model_len=8192, seed=0)
    if spec["preset"] == "tiny":  # vLLM on CPU: a KV cache size instead of a share of RAM
        kwargs.update(kv_cache_memory_bytes=512 << 20, enforce_eager=True)
    kwargs.update(spec.get("llm_kwargs") or {})
    t0 = time.monotonic()
    llm = LLM(**kwargs)
    result["engine_init_s"] = round(time.monotonic() - t0, 2)
    result["llm_kwargs"] = {k: v for k, v in kwargs.items() if k != "model"}
    t0 = time.monotonic()
    warm_up(llm, table)
    result["warmup_s"] = round(time.monotonic() - t0, 2)
    save(spec, result)
    result["run"] = timed_generate(llm, table)
    print(f"{spec['name']}: {result['run']}", flush=True)
    result["gpu_mem_mib"] = gpu_memory_mib()
    llm.llm_engine.engine_core.shutdown()


def worker_hf(spec: dict, table: list[dict], result: dict) -> None:
    """Naive baseline: transformers generate, static padded batches of 32 in input order."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    device = "cuda" if torch.cuda.is_available() else "cpu"
    tokenizer = AutoTokenizer.from_pretrained(spec["model"])
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    t0 = time.monotonic()
    model = AutoModelForCausalLM.from_pretrained(spec["model"], dtype=getattr(torch, spec["dtype"])).to(device)
    model.eval()
    result["load_s"] = round(time.monotonic() - t0, 2)
    rows = table[:spec["hf_n"]]
    batch = 32

    def generate(chunk) -> int:
        width = max(len(t["ids"]) for t in chunk)
        ids = torch.full((len(chunk), width), pad, dtype=torch.long)
        mask = torch.zeros((len(chunk), width), dtype=torch.long)
        for i, t in enumerate(chunk):
            ids[i, width - len(t["ids"]):] = torch.tensor(t["ids"])
            mask[i, width - len(t["ids"]):] = 1
        new = max(t["out"] for t in chunk)
        with torch.inference_mode():
            out = model.generate(input_ids=ids.to(device), attention_mask=mask.to(device), max_new_tokens=new,
                                 min_new_tokens=new, do_sample=True, temperature=0.7, top_p=0.6, top_k=20,
                                 repetition_penalty=1.05, pad_token_id=pad)
        return (out.shape[1] - width) * len(chunk)

    t0 = time.monotonic()
    generate(rows[:batch])  # warm-up: CUDA context, kernels; not timed
    if device == "cuda":
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
    result["warmup_s"] = round(time.monotonic() - t0, 2)
    padded = 0
    t0 = time.monotonic()
    for i in range(0, len(rows), batch):
        padded += generate(rows[i:i + batch])
    if device == "cuda":
        torch.cuda.synchronize()
    wall = time.monotonic() - t0
    useful = sum(t["out"] for t in rows)
    result["run"] = figures(wall, rows, useful, generated_incl_padding=padded)
    if device == "cuda":
        result["gpu_mem_mib"] = round(torch.cuda.max_memory_allocated() / 2**20)
    print(f"hf: {result['run']}", flush=True)


def save(spec: dict, result: dict) -> None:
    """After each phase: a worker stopped at its time limit still leaves what it measured."""
    Path(spec["result"]).write_text(json.dumps(result, indent=1))


WORKERS = {"hymt": worker_hymt, "vllm": worker_vllm, "hf": worker_hf}


def worker_main(spec_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text())
    with open(spec["table"], "rb") as f:
        table = pickle.load(f)
    result: dict = dict(name=spec["name"])
    try:
        WORKERS[spec["kind"]](spec, table, result)
    finally:
        Path(spec["result"]).write_text(json.dumps(result, indent=1))


# -- orchestration ---------------------------------------------------------------------------
def run_worker(base: dict, name: str, kind: str, timeout: float, **extra) -> dict:
    deadline = base.get("deadline")
    if deadline is not None:
        timeout = min(timeout, deadline - time.time())
        if timeout < 30:
            print(f"== {name}: skipped, the --deadline is near", flush=True)
            return dict(name=name, rc="skipped")
    work = Path(base["work"])
    spec = dict(base, name=name, kind=kind, result=str(work / f"{name}.json"), launched=time.time(), **extra)
    spec.pop("_tokenizer", None)
    spec_path = work / f"{name}.spec.json"
    spec_path.write_text(json.dumps(spec))
    t0 = time.monotonic()
    print(f"== {name} ({kind})", flush=True)
    try:
        done = subprocess.run([sys.executable, __file__, "--worker", str(spec_path)], timeout=timeout,
                              stdout=sys.stdout, stderr=sys.stderr)
        rc = done.returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
    path = Path(spec["result"])
    result = json.loads(path.read_text()) if path.exists() else dict(name=name)
    result.update(rc=rc, process_s=round(time.monotonic() - t0, 1))
    print(f"== {name}: rc={rc} in {result['process_s']} s", flush=True)
    return result


def pick(result: dict, key: str) -> dict | None:
    return result.get(key) if result.get(key) else None


def table_text(lines: list[tuple[str, dict | None, dict]], base_tok_s: float | None) -> str:
    head = (f"{'contender':<26} {'segments/s':>10} {'req/s':>8} {'prompt tok/s':>12} {'out tok/s':>10} "
            f"{'vs vllm':>8} {'start s':>8} {'GPU MiB':>8}")
    rows = [head, "-" * len(head)]
    for name, run, meta in lines:
        if run is None:
            rows.append(f"{name:<26} {'(failed: rc=' + str(meta.get('rc')) + ')':>10}")
            continue
        seg = run.get("segments_per_s")
        ratio = f"{run['out_tok_per_s'] / base_tok_s:.3f}" if base_tok_s else "-"
        start = meta.get("engine_init_s", meta.get("load_s", "-"))
        rows.append(f"{name:<26} {seg if seg is not None else '-':>10} {run['req_per_s']:>8} "
                    f"{run['prompt_tok_per_s']:>12} {run['out_tok_per_s']:>10} {ratio:>8} {start!s:>8} "
                    f"{meta.get('gpu_mem_mib') or '-'!s:>8}")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--preset", choices=sorted(PRESETS), default="tiny")
    parser.add_argument("--model", help="model folder (default for tiny: built here); GPU presets: "
                                        "the output of make-random-hymt.py")
    parser.add_argument("--docs", type=int, help="generated documents (default: per preset)")
    parser.add_argument("--targets", help="target languages (default: per preset)")
    parser.add_argument("--hf-n", type=int, help="requests for the transformers baseline (0: skip)")
    parser.add_argument("--contenders", default="hymt,vllm-oob,hf",
                        help="hymt (runs bare vllm on the same engine too), vllm-oob, hf, fp8")
    parser.add_argument("--variants", default="", help="extra bare-vLLM set-ups as a JSON object "
                        "{name: LLM keyword arguments}, each in its own process")
    parser.add_argument("--extra", default="", help="extra passes on hymt's engine: vllm_greedy,vllm_no_detok")
    parser.add_argument("--work", type=Path, help="working folder (default: a temporary one)")
    parser.add_argument("--json", type=Path, help="write all results here")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per contender process")
    parser.add_argument("--deadline", type=float, help="seconds from launch after which no contender runs "
                        "(each is stopped there): for time-limited machines")
    args = parser.parse_args()
    if args.worker:
        worker_main(args.worker)
        return 0

    preset = PRESETS[args.preset]
    work = args.work or Path(tempfile.mkdtemp(prefix="hymt-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    model = args.model
    if model is None:
        if args.preset != "tiny":
            parser.error("--model is required for GPU presets (build it with make-random-hymt.py)")
        from hymt_cli.tiny_model import build_tiny_model

        model = str(build_tiny_model(work / "tiny-model"))
    from workload import write_workload

    docs = args.docs or preset["docs"]
    write_workload(work / "docs", docs)
    base = dict(preset=args.preset, model=model, work=str(work), docs_dir=str(work / "docs"),
                targets=args.targets or preset["targets"], dtype=preset["dtype"],
                hf_n=preset["hf_n"] if args.hf_n is None else args.hf_n,
                extra=[e for e in args.extra.split(",") if e],
                deadline=LAUNCHED + args.deadline if args.deadline else None)
    planned = plan(base)
    table = planned.pop("table")
    with open(work / "table.pkl", "wb") as f:
        pickle.dump(table, f)
    base["table"] = str(work / "table.pkl")
    job = dict(docs=docs, targets=base["targets"], **planned)
    print(f"job: {json.dumps(job)}", flush=True)

    contenders = [c for c in args.contenders.split(",") if c]
    results: dict = dict(job=job, preset=args.preset, model=model, date=time.strftime("%Y-%m-%d %H:%M:%S %Z"),
                         python=sys.version.split()[0])
    try:
        import vllm

        results["vllm_version"] = vllm.__version__
    except ImportError:
        pass
    if "hymt" in contenders:
        results["hymt"] = run_worker(base, "hymt", "hymt", args.timeout)
    if "hf" in contenders and base["hf_n"]:
        results["hf"] = run_worker(base, "hf", "hf", args.timeout)
    if "vllm-oob" in contenders:
        results["vllm-oob"] = run_worker(base, "vllm-oob", "vllm", args.timeout)
    for name, llm_kwargs in (json.loads(args.variants) if args.variants else {}).items():
        results[name] = run_worker(base, name, "vllm", args.timeout, llm_kwargs=llm_kwargs)
    if "fp8" in contenders:
        results["hymt-fp8"] = run_worker(base, "hymt-fp8", "hymt", args.timeout, quantization="fp8")

    # -- the table ------------------------------------------------------------------------------
    hymt = results.get("hymt", {})
    bare = pick(hymt, "vllm")
    base_tok_s = bare["out_tok_per_s"] if bare else None
    hymt_run = pick(hymt, "hymt")
    if hymt_run:
        hymt_run["segments_per_s"] = round(job["segments"] / hymt_run["wall_s"], 1)
    real = pick(hymt, "hymt_run")
    if real:
        real["segments_per_s"] = round(job["segments"] / real["wall_s"], 1)
    lines = [("vllm (bare, hymt settings)", bare, hymt), ("hymt e2e, real run", real, hymt),
             ("hymt e2e, warm, +planning", hymt_run, hymt)]
    for extra in ("vllm_greedy", "vllm_no_detok"):
        if pick(hymt, extra):
            lines.append((f"  {extra}", hymt[extra], hymt))
    for name in results:
        if name in ("job", "preset", "model", "date", "python", "vllm_version", "hymt", "hf"):
            continue
        r = results[name]
        if name == "hymt-fp8":
            lines += [("vllm fp8 (bare)", pick(r, "vllm"), r), ("hymt fp8 end to end", pick(r, "hymt"), r)]
        else:
            lines.append((name, pick(r, "run"), r))
    if "hf" in results:
        lines.append((f"transformers bs32 ({base['hf_n']} req)", pick(results["hf"], "run"), results["hf"]))
    text = table_text(lines, base_tok_s)
    results["table"] = text
    print()
    print(f"job: {docs} documents -> {base['targets']}: {job['segments']} segments, {job['unique']} unique "
          f"requests, {job['prompt_tokens']:,} prompt tokens, {job['output_tokens']:,} output tokens "
          f"(fixed, {OUTPUT_FACTOR}x source); dedupe {job['segments'] / max(1, job['unique']):.2f}x")
    print(text)
    if hymt.get("hymt_cold"):
        cold = hymt["hymt_cold"]
        print(f"start-up: hymt engine init {hymt.get('engine_init_s')} s (in the background, while planning); "
              f"first file written {cold['first_file_from_launch_s']} s after launch "
              f"({cold['first_file_from_run_s']} s after the run began); cold job {cold['wall_s']} s")
    for name in ("vllm-oob", "hf"):
        if name in results and "engine_init_s" in results[name]:
            print(f"start-up: {name} engine init {results[name]['engine_init_s']} s")
    hf = pick(results.get("hf", {}), "run")
    # A real run plans (parses, tokenizes) while the engine starts: its steady state is the
    # ratio that counts; the warm run with planning in the measured time is printed above.
    ratio_hymt = real["out_tok_per_s"] / base_tok_s if real and base_tok_s else float("nan")
    if hymt_run and base_tok_s:
        print(f"hymt warm run with planning included: {hymt_run['out_tok_per_s'] / base_tok_s:.3f} of bare vLLM "
              f"(planning {hymt_run['wall_s'] - hymt_run['engine_s']:.2f} s of {hymt_run['wall_s']} s)")
    ratio_hf = base_tok_s / hf["out_tok_per_s"] if hf and base_tok_s else float("nan")
    oob = pick(results.get("vllm-oob", {}), "run")
    if oob and real:
        print(f"hymt/vllm-oob = {real['out_tok_per_s'] / oob['out_tok_per_s']:.3f}, "
              f"vllm(hymt settings)/vllm-oob = {base_tok_s / oob['out_tok_per_s']:.3f}")
    results["ratios"] = dict(hymt_vllm=ratio_hymt, vllm_transformers=ratio_hf)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))
    print(f"ratio hymt/vllm={ratio_hymt:.3f} vllm/transformers={ratio_hf:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
