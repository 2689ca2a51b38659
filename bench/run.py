"""Throughput of hymt against bare vLLM, vLLM out of the box and naive transformers batching.

One command, one machine, the same prompts and sampling for every contender:

  hymt        hymt end to end: files in -> files out, glossary and validation on, in-process
              `Pipeline`, its engine as a user gets it (`start_vllm`: the tuning rule, replicas).
              Passes: a real run (engine started in the background while planning; figures from
              "engine ready" to "last file written"), then warm runs in document order (the
              default) and with the whole job sorted by length (the old order).
  vllm        bare `LLM.generate` on hymt's prompt token ids with hymt's resolved engine
              settings (as many engine processes as hymt runs, each on its share)
  vllm-today  bare vLLM with hymt's previous defaults (1024 sequences, 16k batched tokens)
  vllm-oob    `LLM(model, dtype, max_model_len)` with vLLM's defaults
  hymt-1      hymt with one engine (`replicas=1`): the gpus2/gpus1 ratio on one GPU
  hf          transformers `generate`, static padded batches of 32, on a subset
  --variants  more bare-vLLM set-ups, {name: LLM keyword arguments} ("_replicas": N engines)

Random-weight models never stop by themselves, so every request generates exactly
round(1.1 x its source tokens) tokens (`ignore_eos`), identically for every contender. In
the hymt runs the bench's engine wrapper also replaces the random text by a well-formed
answer (the segment with its tags, plus the glossary's target terms) so that validation,
glossary checks and reassembly see what a working model gives them (no retry pass on
gibberish); the GPU work and the token counts are vLLM's own.

The job: generated documents (Markdown, HTML, text) plus a product catalog (Parquet, title
and HTML body), into several languages. Each configuration runs in its own subprocess;
start-up is reported apart from the steady-state figures.

    python bench/run.py --preset tiny                                   # CPU, a few minutes
    python bench/run.py --preset 1.8b --model /tmp/hymt-1.8b-random     # GPU
The last line reads `ratio hymt/vllm=<x> vllm/transformers=<y> hymt/vllm-oob=<z> gpus2/gpus1=<w>`.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

LAUNCHED = time.time()
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

PRESETS = {
    # docs: generated documents; rows: catalog rows; targets: target languages;
    # hf_n: requests for the naive baseline
    "tiny": dict(docs=6, rows=40, targets="de,fr", hf_n=64, dtype="float32"),
    "1.8b": dict(docs=160, rows=3000, targets="de,fr,ja", hf_n=160, dtype="bfloat16"),
    "7b": dict(docs=60, rows=1000, targets="de,fr,ja", hf_n=64, dtype="bfloat16"),
}
CATALOG_COLUMNS = ("title", "body_html")
# hymt's engine settings before the tuning rule (bench/RESULTS.md, calls 1-3)
TODAY = dict(
    max_num_seqs=1024,
    max_num_batched_tokens=16384,
    enable_prefix_caching=True,
    gpu_memory_utilization=0.9,
    compilation_config={"mode": 0, "cudagraph_mode": "FULL_DECODE_ONLY"},
)
GLOSSARIES = ["glossaries/brand.json", "glossaries/product-terms.tsv", "glossaries/ui-labels.csv"]
OUTPUT_FACTOR = 1.1  # a translation about as long as its source


def fixed_output_tokens(source_tokens: int) -> int:
    return max(1, round(OUTPUT_FACTOR * source_tokens))


# -- planning (parent) ---------------------------------------------------------------------------
def plan(spec: dict) -> dict:
    """hymt's own plan of the job (dry run): the prompts every contender gets."""

    t0 = time.monotonic()
    requests: list = []
    pipeline = make_pipeline(
        spec,
        out_dir=Path(spec["work"]) / "dry",
        engine_factory=None,
        dry_run=True,
        on_planned=requests.extend,
    )
    report = pipeline.run(sources(spec))
    table = [
        dict(ids=r.prompt_ids, out=fixed_output_tokens(r.source_tokens), answer=well_formed_answer(r))
        for r in requests
    ]
    return dict(
        table=table,
        segments=report.segments,
        unique=len(requests),
        files=len({f.input for f in report.files}),
        plan_s=round(time.monotonic() - t0, 3),
        prompt_tokens=sum(len(t["ids"]) for t in table),
        output_tokens=sum(t["out"] for t in table),
    )


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
    from hymt_cli.formats import ParquetOptions, TextOptions
    from hymt_cli.inputs.discovery import discover
    from hymt_cli.options import OptionSet

    options = OptionSet([TextOptions(), ParquetOptions(columns=CATALOG_COLUMNS, cell_format="html")])
    found, problems = discover([spec["docs_dir"]], format_name=None, options=options)
    assert not problems, problems
    return found


def make_pipeline(
    spec: dict,
    *,
    out_dir: Path,
    engine_factory,
    dry_run: bool = False,
    progress=None,
    on_planned=None,
    submit_bucket="default",
):
    from hymt_cli.glossary import load_glossaries
    from hymt_cli.model.tokenizer import ChatTemplateTokenizer
    from hymt_cli.pipeline import Pipeline, RunOptions
    from hymt_cli.text.languages import parse_language_list

    tokenizer = spec.get("_tokenizer") or ChatTemplateTokenizer.load(spec["model"])
    spec["_tokenizer"] = tokenizer
    options = RunOptions(
        targets=tuple(parse_language_list(spec["targets"])), out_dir=out_dir, dry_run=dry_run
    )
    if submit_bucket != "default":
        options = replace(options, submit_bucket=submit_bucket)
    glossary = load_glossaries([REPO / g for g in GLOSSARIES])
    return Pipeline(
        options,
        tokenizer,
        engine_factory,
        progress=progress,
        engine_name="vllm",
        model=spec["model"],
        glossary=glossary,
        on_planned=on_planned,
    )


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
        return rows, [
            GenerationRequest(r.source_text, r.prompt_token_ids, row["out"], r.deterministic)
            for r, row in zip(requests, rows)
        ]

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
    return [
        SamplingParams(
            max_tokens=t["out"], ignore_eos=True, repetition_penalty=1.05, detokenize=detokenize, **sampling
        )
        for t in table
    ]


def warm_up(llm, table, n: int = 256) -> None:
    """Bench only: one small pass so that one-time JIT work (Triton sampling kernels) stays
    out of every contender's measured pass; the prefix cache is emptied afterwards."""
    from vllm import SamplingParams

    rows = table[-n:]
    llm.generate(
        vllm_prompts(rows),
        [
            SamplingParams(
                max_tokens=8, ignore_eos=True, temperature=0.7, top_p=0.6, top_k=20, repetition_penalty=1.05
            )
            for _ in rows
        ],
        use_tqdm=False,
    )
    llm.reset_prefix_cache()


def figures(wall: float, table, out_tokens: int, **extra) -> dict:
    prompt_tokens = sum(len(t["ids"]) for t in table)
    return dict(
        wall_s=round(wall, 3),
        requests=len(table),
        prompt_tokens=prompt_tokens,
        output_tokens=out_tokens,
        req_per_s=round(len(table) / wall, 2),
        prompt_tok_per_s=round(prompt_tokens / wall),
        out_tok_per_s=round(out_tokens / wall),
        **extra,
    )


def gpu_memory_mib() -> int | None:
    try:
        done = subprocess.run(
            ["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
            capture_output=True,
            text=True,
            timeout=20,
        )
        return int(done.stdout.split()[0])
    except (OSError, ValueError, IndexError, subprocess.SubprocessError):
        return None


def hymt_options(spec: dict):
    """hymt's engine options for this bench (what a user gets, plus the bench's choices)."""
    from hymt_cli.engine.base import EngineOptions

    return EngineOptions(
        model=spec["model"],
        dtype=spec["dtype"],
        enforce_eager=spec["preset"] == "tiny",
        quantization=spec.get("quantization"),
        replicas=spec.get("replicas"),
        extra=spec.get("engine_args") or {},
    )


def worker_hymt(spec: dict, table: list[dict], result: dict) -> None:
    """hymt as a user runs it: the real run (engine started in the background while planning),
    then warm runs on the same engine: document order (the default), whole-job length sort."""
    from hymt_cli.engine.base import Sampling
    from hymt_cli.engine.vllm_engine import start_vllm

    options = hymt_options(spec)
    holder: dict = {}
    phases: list = result.setdefault("phases", [])

    def on_phase(name: str) -> None:
        phases.append((round(time.time() - spec["launched"], 2), name))

    def factory():
        t0 = time.monotonic()
        engine = start_vllm(options, Sampling(), ignore_eos=True, on_phase=on_phase)
        result["engine_init_s"] = round(time.monotonic() - t0, 2)
        result["engines"] = len(getattr(engine, "served", {})) or 1
        holder["engine"] = engine
        holder["ready"] = time.time()
        return BenchEngine(engine, table)

    work = Path(spec["work"])
    passes = spec.get("passes") or ["real", "warm", "sorted"]
    if "real" in passes:
        clock = FileClock()
        t0 = time.monotonic()
        pipeline = make_pipeline(
            spec, out_dir=work / f"{spec['name']}-real", engine_factory=factory, progress=clock
        )
        report = pipeline.run(sources(spec))
        cold = time.monotonic() - t0
        # Steady state of a real run: from the engine being ready (planning was done meanwhile,
        # in the foreground, while it started) to the last document written.
        result["hymt_run"] = figures(
            clock.last - holder["ready"],
            table,
            report.output_tokens,
            files=clock.files,
            engine_s=round(report.engine_seconds, 2),
            first_file_after_ready_s=round(clock.first - holder["ready"], 2),
        )
        result["hymt_cold"] = dict(
            wall_s=round(cold, 2),
            first_file_from_launch_s=round(clock.first - spec["launched"], 2),
            first_file_after_ready_s=round(clock.first - holder["ready"], 2),
            files=clock.files,
            out_tok_per_s_incl_start=round(report.output_tokens / cold),
        )
        print(f"hymt real run: {result['hymt_run']}", flush=True)
        save(spec, result)
    else:
        factory()
    engine = holder["engine"]
    if hasattr(engine, "wait_started"):
        t0 = time.monotonic()
        result["engines_ready"] = engine.wait_started()
        result["all_ready_s"] = round(time.time() - spec["launched"], 2)
        result["waited_for_all_s"] = round(time.monotonic() - t0, 2)
    for name, bucket in (("hymt", "default"), ("hymt_sorted", None)):
        if {"hymt": "warm", "hymt_sorted": "sorted"}[name] not in passes:
            continue
        clock = FileClock()
        pipeline = make_pipeline(
            spec,
            out_dir=work / f"{spec['name']}-{name}",
            engine_factory=lambda: BenchEngine(engine, table),
            progress=clock,
            submit_bucket=bucket,
        )
        t0 = time.monotonic()
        started = time.time()
        report = pipeline.run(sources(spec))
        wall = time.monotonic() - t0
        result[name] = figures(
            wall,
            table,
            report.output_tokens,
            files=clock.files,
            engine_s=round(report.engine_seconds, 2),
            first_file_s=round(clock.first - started, 2),
            engine_requests=report.engine_requests,
            retried=report.retried,
            untranslated=report.untranslated,
            segments=report.segments,
            unique_segments=report.unique_segments,
            files_ok=report.files_ok,
            files_failed=report.files_failed,
        )
        print(f"{name}: {result[name]}", flush=True)
        save(spec, result)
        assert report.engine_requests == len(table), (report.engine_requests, len(table))
    result["served"] = getattr(engine, "served", None)
    result["gpu_mem_mib"] = gpu_memory_mib()
    engine.close()


def worker_vllm(spec: dict, table: list[dict], result: dict) -> None:
    """Bare `vllm.LLM` engines (vLLM's defaults where `llm_kwargs` says nothing): one, or
    `replicas` on this machine's GPU, each in its own process with an equal share of the
    requests, started one after another, then generating together."""
    import multiprocessing

    kwargs = dict(model=spec["model"], dtype=spec["dtype"], max_model_len=8192, seed=0)
    if spec["preset"] == "tiny":  # vLLM on CPU: a KV cache size instead of a share of RAM
        kwargs.update(kv_cache_memory_bytes=512 << 20, enforce_eager=True)
    kwargs.update(spec.get("llm_kwargs") or {})
    replicas = int(kwargs.pop("_replicas", 1))
    result["llm_kwargs"] = {k: v for k, v in kwargs.items() if k != "model"}
    result["replicas"] = replicas
    context = multiprocessing.get_context("spawn")
    go, answers = context.Event(), context.Queue()
    processes, starts = [], []
    t0 = time.monotonic()
    for i in range(replicas):
        ready = context.Event()
        process = context.Process(target=bare_replica, args=(kwargs, table[i::replicas], ready, go, answers))
        process.start()
        processes.append((process, ready))
        if "kv_cache_memory_bytes" not in kwargs or spec["preset"] == "tiny":
            wait_ready(process, ready, i, starts, t0)  # one after another: each sizes its KV cache alone
    for i, (process, ready) in enumerate(processes):
        if len(starts) <= i:
            wait_ready(process, ready, i, starts, t0)
    processes = [p for p, _ in processes]
    result["engine_init_s"] = starts[0]
    result["all_ready_s"] = starts[-1]
    save(spec, result)
    t0 = time.monotonic()
    go.set()
    parts = [answers.get(timeout=900) for _ in processes]
    wall = time.monotonic() - t0
    out_tokens = sum(p["output_tokens"] for p in parts)
    assert out_tokens == sum(t["out"] for t in table), "every request must generate its fixed length"
    result["gpu_mem_mib"] = max(p["gpu_mem_mib"] or 0 for p in parts) or None
    result["run"] = figures(
        wall,
        table,
        out_tokens,
        cached_tokens=sum(p["cached"] for p in parts),
        each_s=[p["wall_s"] for p in parts],
    )
    print(f"{spec['name']}: {result['run']}", flush=True)
    for process in processes:
        process.join(timeout=120)


def wait_ready(process, ready, i: int, starts: list, t0: float) -> None:
    while not ready.wait(timeout=5):
        if not process.is_alive():
            raise RuntimeError(f"bare replica {i + 1} stopped during its start")
    starts.append(round(time.monotonic() - t0, 2))


def bare_replica(kwargs: dict, table: list[dict], ready, go, answers) -> None:
    os.environ.setdefault("VLLM_LOGGING_STREAM", "ext://sys.stderr")
    from vllm import LLM

    llm = LLM(**kwargs)
    warm_up(llm, table)
    ready.set()
    go.wait()
    prompts, params = vllm_prompts(table), vllm_params(table)
    t0 = time.monotonic()
    outputs = llm.generate(prompts, params, use_tqdm=False)
    wall = time.monotonic() - t0
    answers.put(
        dict(
            output_tokens=sum(len(o.outputs[0].token_ids) for o in outputs),
            wall_s=round(wall, 2),
            cached=sum(getattr(o, "num_cached_tokens", 0) or 0 for o in outputs),
            gpu_mem_mib=gpu_memory_mib(),
        )
    )
    llm.llm_engine.engine_core.shutdown()


def hymt_bare_kwargs(spec: dict) -> dict:
    """The `vllm.LLM` arguments hymt's engines get here, and how many engines (tuning rule)."""
    from hymt_cli.engine.base import Sampling
    from hymt_cli.engine.vllm_engine import _llm_kwargs, plan_vllm

    options = hymt_options(spec)
    plan = plan_vllm(options)
    kwargs = _llm_kwargs(options, Sampling(), on_cpu=plan.tuning is None, tuning=plan.tuning)
    kwargs = {
        k: v
        for k, v in kwargs.items()
        if v is not None
        and k not in ("model", "revision", "trust_remote_code", "tensor_parallel_size", "seed")
    }
    kwargs["_replicas"] = plan.engines
    return kwargs


def worker_hf(spec: dict, table: list[dict], result: dict) -> None:
    """Naive baseline: transformers generate, static padded batches of 32 in input order."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    device = "cuda" if torch.cuda.is_available() else "cpu"
    tokenizer = AutoTokenizer.from_pretrained(spec["model"])
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    t0 = time.monotonic()
    model = AutoModelForCausalLM.from_pretrained(spec["model"], dtype=getattr(torch, spec["dtype"])).to(
        device
    )
    model.eval()
    result["load_s"] = round(time.monotonic() - t0, 2)
    rows = table[: spec["hf_n"]]
    batch = 32

    def generate(chunk) -> int:
        width = max(len(t["ids"]) for t in chunk)
        ids = torch.full((len(chunk), width), pad, dtype=torch.long)
        mask = torch.zeros((len(chunk), width), dtype=torch.long)
        for i, t in enumerate(chunk):
            ids[i, width - len(t["ids"]) :] = torch.tensor(t["ids"])
            mask[i, width - len(t["ids"]) :] = 1
        new = max(t["out"] for t in chunk)
        with torch.inference_mode():
            out = model.generate(
                input_ids=ids.to(device),
                attention_mask=mask.to(device),
                max_new_tokens=new,
                min_new_tokens=new,
                do_sample=True,
                temperature=0.7,
                top_p=0.6,
                top_k=20,
                repetition_penalty=1.05,
                pad_token_id=pad,
            )
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
        padded += generate(rows[i : i + batch])
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
    # its own process group: at the time limit the worker goes with its engine processes
    child = subprocess.Popen(
        [sys.executable, __file__, "--worker", str(spec_path)],
        stdout=sys.stdout,
        stderr=sys.stderr,
        start_new_session=True,
    )
    try:
        rc: int | str = child.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        rc = "timeout"
    try:
        os.killpg(child.pid, signal.SIGKILL)  # leftovers (vLLM engine cores) hold GPU memory
    except ProcessLookupError:
        pass
    child.wait()
    path = Path(spec["result"])
    result = json.loads(path.read_text()) if path.exists() else dict(name=name)
    result.update(rc=rc, process_s=round(time.monotonic() - t0, 1))
    print(f"== {name}: rc={rc} in {result['process_s']} s", flush=True)
    return result


def pick(result: dict, key: str) -> dict | None:
    return result.get(key) if result.get(key) else None


def table_text(lines: list[tuple[str, dict | None, dict]], base_tok_s: float | None) -> str:
    head = (
        f"{'contender':<26} {'segments/s':>10} {'req/s':>8} {'prompt tok/s':>12} {'out tok/s':>10} "
        f"{'vs vllm':>8} {'start s':>8} {'GPU MiB':>8}"
    )
    rows = [head, "-" * len(head)]
    for name, run, meta in lines:
        if run is None:
            rows.append(f"{name:<26} {'(failed: rc=' + str(meta.get('rc')) + ')':>10}")
            continue
        seg = run.get("segments_per_s")
        ratio = f"{run['out_tok_per_s'] / base_tok_s:.3f}" if base_tok_s else "-"
        start = meta.get("engine_init_s", meta.get("load_s", "-"))
        rows.append(
            f"{name:<26} {seg if seg is not None else '-':>10} {run['req_per_s']:>8} "
            f"{run['prompt_tok_per_s']:>12} {run['out_tok_per_s']:>10} {ratio:>8} {start!s:>8} "
            f"{meta.get('gpu_mem_mib') or '-'!s:>8}"
        )
    return "\n".join(rows)


def work_and_model(
    args: argparse.Namespace, parser: argparse.ArgumentParser, prefix: str
) -> tuple[Path, str]:
    """The working folder (--work or a new temporary one) and the model: --model, or on the CPU
    preset a tiny random model built there."""
    work = args.work or Path(tempfile.mkdtemp(prefix=prefix))
    work.mkdir(parents=True, exist_ok=True)
    if args.model is not None:
        return work, args.model
    if args.preset != "tiny":
        parser.error("--model is required for GPU presets (build it with make-random-hymt.py)")
    from hymt_cli.model.tiny import build_tiny_model

    return work, str(build_tiny_model(work / "tiny-model"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--preset", choices=sorted(PRESETS), default="tiny")
    parser.add_argument(
        "--model",
        help="model folder (default for tiny: built here); GPU presets: the output of make-random-hymt.py",
    )
    parser.add_argument("--docs", type=int, help="generated documents (default: per preset)")
    parser.add_argument("--rows", type=int, help="catalog rows (default: per preset; 0: no catalog)")
    parser.add_argument("--targets", help="target languages (default: per preset)")
    parser.add_argument("--hf-n", type=int, help="requests for the transformers baseline (0: skip)")
    parser.add_argument(
        "--contenders",
        default="hymt,vllm,vllm-oob,vllm-today,hymt-1,hf",
        help="in this order: hymt, vllm, vllm-oob, vllm-today, hymt-1, hf",
    )
    parser.add_argument(
        "--variants",
        default="",
        help="more bare-vLLM set-ups as a JSON object "
        '{name: LLM keyword arguments, "_replicas": engines on the GPU, "_hymt": true to start '
        "from hymt's settings}, each in its own process",
    )
    parser.add_argument(
        "--hymt-passes",
        default="real,warm,sorted",
        help="hymt's passes: real (engine started while planning), warm, sorted (whole-job sort)",
    )
    parser.add_argument("--hymt-args", default="", help="engine arguments for hymt as JSON (--engine-arg)")
    parser.add_argument("--quantization", help="hymt's --quantization (the bare contender follows)")
    parser.add_argument("--work", type=Path, help="working folder (default: a temporary one)")
    parser.add_argument("--json", type=Path, help="write all results here")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per contender process")
    parser.add_argument(
        "--deadline",
        type=float,
        help="seconds from launch after which no contender runs "
        "(each is stopped there): for time-limited machines",
    )
    args = parser.parse_args()
    if args.worker:
        worker_main(args.worker)
        return 0

    preset = PRESETS[args.preset]
    work, model = work_and_model(args, parser, "hymt-bench-")
    from catalog_gen import write_catalog
    from workload import write_workload

    docs = args.docs or preset["docs"]
    rows = preset["rows"] if args.rows is None else args.rows
    write_workload(work / "docs", docs)
    if rows:
        write_catalog(work / "docs" / "catalog.parquet", rows)
    base = dict(
        preset=args.preset,
        model=model,
        work=str(work),
        docs_dir=str(work / "docs"),
        targets=args.targets or preset["targets"],
        dtype=preset["dtype"],
        hf_n=preset["hf_n"] if args.hf_n is None else args.hf_n,
        quantization=args.quantization,
        engine_args=json.loads(args.hymt_args) if args.hymt_args else {},
        deadline=LAUNCHED + args.deadline if args.deadline else None,
    )
    planned = plan(base)
    table = planned.pop("table")
    with open(work / "table.pkl", "wb") as f:
        pickle.dump(table, f)
    base["table"] = str(work / "table.pkl")
    job = dict(docs=docs, catalog_rows=rows, targets=base["targets"], **planned)
    print(f"job: {json.dumps(job)}", flush=True)

    contenders = [c for c in args.contenders.split(",") if c]
    results: dict = dict(
        job=job,
        preset=args.preset,
        model=model,
        date=time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        python=sys.version.split()[0],
    )
    try:
        import vllm

        results["vllm_version"] = vllm.__version__
    except ImportError:
        pass
    variants = json.loads(args.variants) if args.variants else {}
    for name in contenders:
        if name == "hymt":
            results[name] = run_worker(base, name, "hymt", args.timeout, passes=args.hymt_passes.split(","))
        elif name == "hymt-1":
            results[name] = run_worker(base, name, "hymt", args.timeout, replicas=1, passes=["warm"])
        elif name == "vllm":
            results[name] = run_worker(base, name, "vllm", args.timeout, llm_kwargs=hymt_bare_kwargs(base))
        elif name == "vllm-today":
            results[name] = run_worker(base, name, "vllm", args.timeout, llm_kwargs=TODAY)
        elif name == "vllm-oob":
            results[name] = run_worker(base, name, "vllm", args.timeout)
        elif name == "hf" and base["hf_n"]:
            results[name] = run_worker(base, name, "hf", args.timeout)
    for name, llm_kwargs in variants.items():
        if llm_kwargs.pop("_hymt", False):  # hymt's resolved settings, changed by the rest
            llm_kwargs = {**hymt_bare_kwargs(base), **llm_kwargs}
        results[name] = run_worker(base, name, "vllm", args.timeout, llm_kwargs=llm_kwargs)
    summarize(results, job, base, args.json)
    return 0


def summarize(results: dict, job: dict, base: dict, json_path: Path | None) -> None:
    """The table, start-up lines and the last line of ratios."""
    hymt = results.get("hymt", {})
    bare = pick(results.get("vllm", {}), "run")
    base_tok_s = bare["out_tok_per_s"] if bare else None
    for result, key in (
        (hymt, "hymt_run"),
        (hymt, "hymt"),
        (hymt, "hymt_sorted"),
        (results.get("hymt-1", {}), "hymt"),
    ):
        if pick(result, key):
            result[key]["segments_per_s"] = round(job["segments"] / result[key]["wall_s"], 1)
    engines = f"{hymt.get('engines', '?')} engine(s)"
    lines = [
        (f"vllm bare, hymt settings ({engines})", bare, results.get("vllm", {})),
        ("hymt e2e, real run", pick(hymt, "hymt_run"), hymt),
        ("hymt e2e, warm, doc order", pick(hymt, "hymt"), hymt),
        ("hymt e2e, warm, whole sort", pick(hymt, "hymt_sorted"), hymt),
    ]
    one = results.get("hymt-1", {})
    if one:
        lines.append(("hymt e2e, 1 engine, warm", pick(one, "hymt"), one))
    for name in results:
        if name in (
            "job",
            "preset",
            "model",
            "date",
            "python",
            "vllm_version",
            "hymt",
            "hymt-1",
            "vllm",
            "hf",
        ):
            continue
        lines.append((name, pick(results[name], "run"), results[name]))
    if "hf" in results:
        lines.append((f"transformers bs32 ({base['hf_n']} req)", pick(results["hf"], "run"), results["hf"]))
    text = table_text(lines, base_tok_s)
    results["table"] = text
    print()
    print(
        f"job: {job['docs']} documents + {job['catalog_rows']} catalog rows -> {base['targets']}: "
        f"{job['segments']} segments, {job['unique']} unique requests, {job['prompt_tokens']:,} prompt "
        f"tokens, "
        f"{job['output_tokens']:,} output tokens (fixed, {OUTPUT_FACTOR}x source, ignore_eos); "
        f"dedupe {job['segments'] / max(1, job['unique']):.2f}x"
    )
    print(text)
    real, warm, ordered = pick(hymt, "hymt_run"), pick(hymt, "hymt"), pick(hymt, "hymt_sorted")
    if hymt.get("hymt_cold"):
        cold = hymt["hymt_cold"]
        print(
            f"start-up: hymt engine ready {hymt.get('engine_init_s')} s after its start (in the background, "
            f"while planning), all {hymt.get('engines_ready', 1)} engine(s) at "
            f"{hymt.get('all_ready_s', '-')} s "
            f"after launch; first file {cold['first_file_after_ready_s']} s after the engine was ready "
            f"({cold['first_file_from_launch_s']} s after launch); cold job {cold['wall_s']} s"
        )
    for phase_time, name in hymt.get("phases", []):
        print(f"  phase at {phase_time:>7.2f} s: {name}")
    for name in ("hymt-1", "vllm", "vllm-today", "vllm-oob", "hf"):
        if name in results and "engine_init_s" in results[name]:
            print(f"start-up: {name} engine {results[name]['engine_init_s']} s")
    if warm and ordered:
        print(
            f"first file, warm: {warm['first_file_s']} s in document order, {ordered['first_file_s']} s "
            f"with the "
            f"whole job sorted; throughput order/sorted = "
            f"{warm['out_tok_per_s'] / ordered['out_tok_per_s']:.3f}"
        )
    best = max(
        (r for name, r, _ in lines if r and not name.startswith(("hymt", "transformers"))),
        key=lambda r: r["out_tok_per_s"],
        default=None,
    )

    def ratio(a: dict | None, b: dict | None) -> float:
        return a["out_tok_per_s"] / b["out_tok_per_s"] if a and b else float("nan")

    hf, oob, today = (pick(results.get(n, {}), "run") for n in ("hf", "vllm-oob", "vllm-today"))
    ratios = dict(
        hymt_vllm=ratio(real, bare),
        vllm_transformers=ratio(bare, hf),
        hymt_vllm_oob=ratio(real, oob),
        gpus2_gpus1=ratio(warm, pick(one, "hymt")),
        hymt_today=ratio(real, today),
        hymt_best_bare=ratio(real, best),
        order_sorted=ratio(warm, ordered),
    )
    results["ratios"] = ratios
    print(
        f"hymt/vllm-today = {ratios['hymt_today']:.3f}, hymt/best bare = {ratios['hymt_best_bare']:.3f}, "
        f"warm doc order/whole sort = {ratios['order_sorted']:.3f}"
    )
    if json_path:
        json_path.write_text(json.dumps(results, indent=1, default=str))
    print(
        f"ratio hymt/vllm={ratios['hymt_vllm']:.3f} vllm/transformers={ratios['vllm_transformers']:.1f} "
        f"hymt/vllm-oob={ratios['hymt_vllm_oob']:.3f} gpus2/gpus1={ratios['gpus2_gpus1']:.3f}"
    )


if __name__ == "__main__":
    sys.exit(main())
