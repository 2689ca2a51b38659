"""The contenders of bench/run.py, each run in a process of its own (`python bench/run.py
--worker SPEC`): hymt end to end, bare vLLM engines, transformers. A worker runs every job of
the spec in turn on the engine(s) it started once, and saves what it measured after each pass.
"""

from __future__ import annotations

import json
import os
import pickle
import time
from pathlib import Path

from common import BenchEngine, FileClock, figures, gpu_memory_mib, make_pipeline, save, sources

# hymt's engine settings before the tuning rule (bench/RESULTS.md, calls 1-3)
TODAY = dict(
    max_num_seqs=1024,
    max_num_batched_tokens=16384,
    enable_prefix_caching=True,
    gpu_memory_utilization=0.9,
    compilation_config={"mode": 0, "cudagraph_mode": "FULL_DECODE_ONLY"},
)
# hymt passes: how the pipeline orders its requests
PASS_ORDER = {
    "warm": dict(),
    "doc": dict(long_first=False),
    "sorted": dict(submit_bucket=None, long_first=False),
}


def load_table(job: dict) -> list[dict]:
    with open(job["table"], "rb") as f:
        return pickle.load(f)


def job_spec(spec: dict, job: dict) -> dict:
    return dict(
        spec,
        targets=job["targets"],
        columns=job.get("columns"),
        job=job["name"],
        docs_dir=job.get("docs_dir", spec["docs_dir"]),
    )


def hymt_options(spec: dict):
    """hymt's engine options for this bench (what a user gets, plus the bench's choices)."""
    from hymt_cli.engine.base import EngineOptions
    from hymt_cli.engine.vllm_options import VllmOptions

    return EngineOptions(
        model=spec["model"],
        dtype=spec["dtype"],
        vllm=VllmOptions(
            enforce_eager=spec["preset"] == "tiny",
            quantization=spec.get("quantization"),
            replicas=spec.get("replicas"),
            sampler=spec.get("sampler", "auto"),
        ),
        extra=spec.get("engine_args") or {},
    )


def worker_hymt(spec: dict, result: dict) -> None:
    """hymt as a user runs it: the real run of the first job (engine started in the background
    while planning), then warm passes of every job on the same engine, in the orders asked."""
    from hymt_cli.engine import vllm_plan
    from hymt_cli.engine.base import Sampling

    options = hymt_options(spec)
    holder: dict = {}
    phases: list = result.setdefault("phases", [])
    windows: dict = result.setdefault("windows", {})
    jobs = spec["jobs"]
    tables = {job["name"]: load_table(job) for job in jobs}

    def on_phase(name: str) -> None:
        phases.append((round(time.time() - spec["launched"], 2), name))

    def factory():
        t0 = time.monotonic()
        result["engine_start_requested_s"] = round(time.time() - spec["launched"], 2)
        engine = vllm_plan.start_vllm(
            options,
            Sampling(),
            ignore_eos=True,
            on_phase=on_phase,
            # replicas sharing a GPU one after another (the rule of issue 20)
            start_together=not spec.get("staggered"),
        )
        result["engine_init_s"] = round(time.monotonic() - t0, 2)
        result["engines"] = len(getattr(engine, "served", {})) or 1
        holder["engine"] = engine
        holder["ready"] = time.time()
        holder["bench"] = BenchEngine(engine, tables[jobs[0]["name"]])
        return holder["bench"]

    work = Path(spec["work"])
    passes = spec.get("passes") or ["real", "warm"]
    if "real" in passes:
        first = jobs[0]
        clock = FileClock()
        t0, started = time.monotonic(), time.time()
        pipeline = make_pipeline(
            job_spec(spec, first),
            out_dir=work / f"{spec['name']}-real",
            engine_factory=factory,
            progress=clock,
        )
        report = pipeline.run(sources(job_spec(spec, first)))
        cold = time.monotonic() - t0
        assert report.files_failed == 0, f"{report.files_failed} file(s) failed"
        table = tables[first["name"]]
        windows[f"{first['name']}:real"] = (holder["ready"], clock.last)
        # Steady state of a real run: from the first engine being ready (planning was done
        # meanwhile, in the foreground, while it started) to the last document written.
        result[f"{first['name']}:real"] = figures(
            clock.last - holder["ready"],
            table,
            report.output_tokens,
            files=clock.files,
            engine_s=round(report.engine_seconds, 2),
            first_file_after_ready_s=round(clock.first - holder["ready"], 2),
        )
        result["cold"] = dict(
            job=first["name"],
            wall_s=round(cold, 2),
            launch_to_last_file_s=round(clock.last - spec["launched"], 2),
            first_answer_from_launch_s=round(holder["bench"].first_answer - spec["launched"], 2),
            first_file_from_launch_s=round(clock.first - spec["launched"], 2),
            ready_from_launch_s=round(holder["ready"] - spec["launched"], 2),
            pipeline_start_from_launch_s=round(started - spec["launched"], 2),
            first_file_after_ready_s=round(clock.first - holder["ready"], 2),
            files=clock.files,
            out_tok_per_s_incl_start=round(report.output_tokens / cold),
        )
        print(f"hymt real run: {result[first['name'] + ':real']} cold: {result['cold']}", flush=True)
        save(spec, result)
    else:
        factory()
    engine = holder["engine"]
    if hasattr(engine, "wait_started"):
        t0 = time.monotonic()
        result["engines_ready"] = engine.wait_started()
        result["all_ready_s"] = round(time.time() - spec["launched"], 2)
        result["waited_for_all_s"] = round(time.monotonic() - t0, 2)
    for job in jobs:
        table = tables[job["name"]]
        for name in passes:
            if name not in PASS_ORDER:
                continue
            clock = FileClock()
            pipeline = make_pipeline(
                job_spec(spec, job),
                out_dir=work / f"{spec['name']}-{job['name']}-{name}",
                engine_factory=lambda t=table: BenchEngine(engine, t),
                progress=clock,
                **PASS_ORDER[name],
            )
            key = f"{job['name']}:{name}"
            if spec.get("pyspy") and not result.get("pyspy"):
                result["pyspy"] = profile_engine_cores(spec, key)
            t0, started = time.monotonic(), time.time()
            report = pipeline.run(sources(job_spec(spec, job)))
            wall = time.monotonic() - t0
            windows[key] = (started, time.time())
            assert report.files_failed == 0, f"{report.files_failed} file(s) failed"
            result[key] = figures(
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
            print(f"{spec['name']} {key}: {result[key]}", flush=True)
            save(spec, result)
            assert report.engine_requests == len(table), (report.engine_requests, len(table))
    result["served"] = getattr(engine, "served", None)
    result["gpu_mem_mib"] = gpu_memory_mib()
    engine.close()


def profile_engine_cores(spec: dict, key: str) -> list[str]:
    """Sample the engine cores' Python stacks with py-spy during the pass about to start:
    `spec["pyspy"]` = {"delay": seconds into the pass, "duration": seconds}; one collapsed-stack
    file per engine core (`pyspy-<contender>-<pid>.txt` in the work folder). Started in the
    background; nothing if py-spy or psutil is missing."""
    import shutil
    import subprocess
    import threading

    tool = shutil.which("py-spy")
    try:
        import psutil
    except ImportError:
        return []
    if tool is None:
        return []
    settings = spec["pyspy"]
    cores = [
        p
        for p in psutil.Process().children(recursive=True)
        if "EngineCore" in p.name() or any("EngineCore" in part for part in p.cmdline())
    ]
    outputs = [str(Path(spec["work"]) / f"pyspy-{spec['name']}-{p.pid}.txt") for p in cores]

    def record() -> None:
        time.sleep(float(settings.get("delay", 8)))
        for process, output in zip(cores, outputs):
            subprocess.Popen(
                [
                    tool,
                    "record",
                    "--pid",
                    str(process.pid),
                    "--duration",
                    str(settings.get("duration", 10)),
                    "--rate",
                    "100",
                    "--format",
                    "raw",
                    "--nonblocking",
                    "--output",
                    output,
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )

    threading.Thread(target=record, daemon=True).start()
    return outputs


def worker_vllm(spec: dict, result: dict) -> None:
    """Bare `vllm.LLM` engines (vLLM's defaults where `llm_kwargs` says nothing): one, or
    `replicas` on this machine's GPU, each in its own process with an equal share of the
    requests of every job, started one after another, then generating together, job by job."""
    import multiprocessing

    kwargs = dict(model=spec["model"], dtype=spec["dtype"], max_model_len=8192, seed=0)
    if spec["preset"] == "tiny":  # vLLM on CPU: a KV cache size instead of a share of RAM
        kwargs.update(kv_cache_memory_bytes=512 << 20, enforce_eager=True)
    if spec.get("load_format"):
        kwargs["load_format"] = spec["load_format"]
    kwargs.update(spec.get("llm_kwargs") or {})
    replicas = int(kwargs.pop("_replicas", 1))
    result["llm_kwargs"] = {k: v for k, v in kwargs.items() if k != "model"}
    result["replicas"] = replicas
    windows: dict = result.setdefault("windows", {})
    jobs = spec["jobs"]
    tables = [load_table(job) for job in jobs]
    context = multiprocessing.get_context("spawn")
    go = [context.Event() for _ in jobs]
    answers = context.Queue()
    processes, starts = [], []
    t0 = time.monotonic()
    for i in range(replicas):
        ready = context.Event()
        shares = [table[i::replicas] for table in tables]
        process = context.Process(target=bare_replica, args=(kwargs, shares, ready, go, answers))
        process.start()
        processes.append((process, ready))
        if "kv_cache_memory_bytes" not in kwargs or spec["preset"] == "tiny":
            wait_ready(process, ready, i, starts, t0)  # one after another: each sizes its KV cache alone
    for i, (process, ready) in enumerate(processes):
        if len(starts) <= i:
            wait_ready(process, ready, i, starts, t0)
    result["engine_init_s"] = starts[0]
    result["all_ready_s"] = starts[-1]
    result["ready_from_launch_s"] = round(time.time() - spec["launched"], 2)
    save(spec, result)
    for job, table, event in zip(jobs, tables, go):
        t0, started = time.monotonic(), time.time()
        event.set()
        parts = [answers.get(timeout=900) for _ in processes]
        wall = time.monotonic() - t0
        windows[job["name"]] = (started, time.time())
        out_tokens = sum(p["output_tokens"] for p in parts)
        assert out_tokens == sum(t["out"] for t in table), "every request must generate its fixed length"
        result["gpu_mem_mib"] = max(p["gpu_mem_mib"] or 0 for p in parts) or None
        result[job["name"]] = figures(
            wall,
            table,
            out_tokens,
            cached_tokens=sum(p["cached"] for p in parts),
            each_s=[p["wall_s"] for p in parts],
        )
        print(f"{spec['name']} {job['name']}: {result[job['name']]}", flush=True)
        save(spec, result)
    for process, _ in processes:
        process.join(timeout=120)


def wait_ready(process, ready, i: int, starts: list, t0: float) -> None:
    while not ready.wait(timeout=5):
        if not process.is_alive():
            raise RuntimeError(f"bare replica {i + 1} stopped during its start")
    starts.append(round(time.monotonic() - t0, 2))


def vllm_params(table, *, greedy: bool = False):
    from vllm import SamplingParams

    sampling = dict(temperature=0.0) if greedy else dict(temperature=0.7, top_p=0.6, top_k=20)
    return [
        SamplingParams(max_tokens=t["out"], ignore_eos=True, repetition_penalty=1.05, **sampling)
        for t in table
    ]


def warm_up(llm, table, n: int = 256) -> None:
    """Bench only: one small pass so that one-time JIT work (Triton sampling kernels) stays
    out of every contender's measured pass; the prefix cache is emptied afterwards."""
    from vllm import SamplingParams

    rows = table[-n:]
    llm.generate(
        [{"prompt_token_ids": list(t["ids"])} for t in rows],
        [
            SamplingParams(
                max_tokens=8, ignore_eos=True, temperature=0.7, top_p=0.6, top_k=20, repetition_penalty=1.05
            )
            for _ in rows
        ],
        use_tqdm=False,
    )
    llm.reset_prefix_cache()


def bare_replica(kwargs: dict, shares: list[list[dict]], ready, go, answers) -> None:
    os.environ.setdefault("VLLM_LOGGING_STREAM", "ext://sys.stderr")
    from vllm import LLM

    from hymt_cli.engine.vllm_trace import StepTrace, core_trace_installed

    with core_trace_installed():
        llm = LLM(**kwargs)
    warm_up(llm, shares[0])
    trace = StepTrace.attach(llm)
    ready.set()
    for table, event in zip(shares, go):
        event.wait()
        llm.reset_prefix_cache()
        t0 = time.monotonic()
        outputs = llm.generate(
            [{"prompt_token_ids": list(t["ids"])} for t in table], vllm_params(table), use_tqdm=False
        )
        wall = time.monotonic() - t0
        if trace is not None:
            trace.flush()
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
    from hymt_cli.engine.vllm_arguments import llm_kwargs
    from hymt_cli.engine.vllm_plan import plan_vllm

    options = hymt_options(spec)
    plan = plan_vllm(options)
    kwargs = llm_kwargs(options, Sampling(), on_cpu=plan.tuning is None, tuning=plan.tuning)
    kwargs = {
        k: v
        for k, v in kwargs.items()
        if v is not None
        and k not in ("model", "revision", "trust_remote_code", "tensor_parallel_size", "seed")
    }
    kwargs["_replicas"] = plan.engines
    return kwargs


def worker_hf(spec: dict, result: dict) -> None:
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
    job = spec["jobs"][0]
    rows = load_table(job)[: spec["hf_n"]]
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
    result[job["name"]] = figures(wall, rows, useful, generated_incl_padding=padded)
    if device == "cuda":
        result["gpu_mem_mib"] = round(torch.cuda.max_memory_allocated() / 2**20)
    print(f"hf: {result[job['name']]}", flush=True)


WORKERS = {"hymt": worker_hymt, "vllm": worker_vllm, "hf": worker_hf}


def worker_main(spec_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text())
    os.environ.update(spec.get("env") or {})  # before vLLM is imported: caches, the step trace
    result: dict = dict(name=spec["name"])
    try:
        WORKERS[spec["kind"]](spec, result)
    finally:
        save(spec, result)
