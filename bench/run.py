"""Throughput of hymt against bare vLLM, vLLM out of the box and naive transformers batching.

One command, one machine, the same prompts and sampling for every contender:

  hymt        hymt end to end: files in -> files out, glossary and validation on, in-process
              `Pipeline`, its engine as a user gets it (`start_vllm`: the tuning rule, replicas).
              Passes (--hymt-passes): `real` (the first job; engine started in the background
              while planning; figures from "engine ready" to "last file written", plus the cold
              job's total from launch), then per job `warm` (hymt's order: the longest requests
              first, then document order), `doc` (plain document order), `sorted` (whole job
              sorted by length, shortest first).
  hymt-1      hymt with one engine (`replicas=1`): the gpus2/gpus1 ratio on one GPU
  vllm        bare `LLM.generate` on hymt's prompt token ids with hymt's resolved engine
              settings (as many engine processes as hymt runs, each on its share)
  vllm-today  bare vLLM with hymt's settings before issue 12 (1024 sequences, 16k batched tokens)
  vllm-oob    `LLM(model, dtype, max_model_len)` with vLLM's defaults
  hf          transformers `generate`, static padded batches of 32, on a subset
  --variants  more bare-vLLM set-ups, {name: LLM keyword arguments} ("_replicas": N engines)
  --hymt-variants  more hymt set-ups, {name: {"engine_args": {...}, "replicas": N, "staggered": true,
              "passes": [...]}}

Random-weight models never stop by themselves, so every request generates exactly
round(1.1 x its source tokens) tokens (`ignore_eos`), identically for every contender. In
the hymt runs the bench's engine wrapper also replaces the random text by a well-formed
answer (the segment with its tags, plus the glossary's target terms) so that validation,
glossary checks and reassembly see what a working model gives them (no retry pass on
gibberish); the GPU work and the token counts are vLLM's own.

The jobs (--job): `mixed` (default; mixed_job.py: the repository's sample documents,
generated documentation and a catalog of unique product descriptions) or `generated`
(workload.py's documents plus catalog_gen.py's catalog). `--targets "de|de,fr,ja"` makes one
job per target set; every contender runs all of them on the engines it started once.
Each contender runs in its own subprocess; start-up is reported apart from the steady state.
With --trace every vLLM engine process records its steps: batch size over time per pass.

    python bench/run.py --preset tiny                                   # CPU, a few minutes
    python bench/run.py --preset 1.8b --model /tmp/hymt-1.8b-random     # GPU
The last line reads `ratio hymt/vllm=<x> vllm/transformers=<y> hymt/vllm-oob=<z> gpus2/gpus1=<w>`
(the first job, hymt's warm pass in its own order: steady state against steady state).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LAUNCHED = time.time()
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from common import OUTPUT_FACTOR, BenchEngine, FileClock, figures, make_pipeline, plan, sources  # noqa: F401
from contenders import TODAY, hymt_bare_kwargs, worker_main

PRESETS = {
    # docs: generated documents; products: unique product descriptions (mixed job); rows:
    # catalog rows (generated job); jobs: target sets, "|" between jobs; targets: the first
    # job's (served.py); hf_n: requests for the naive baseline
    "tiny": dict(docs=4, products=60, rows=40, jobs="de|de,fr", targets="de,fr", hf_n=32, dtype="float32"),
    "1.8b": dict(
        docs=40,
        products=12_500,
        rows=3000,
        jobs="de|de,fr,ja",
        targets="de,fr,ja",
        hf_n=160,
        dtype="bfloat16",
    ),
    "7b": dict(docs=20, products=3000, rows=1000, jobs="de", targets="de,fr,ja", hf_n=64, dtype="bfloat16"),
}


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


def run_worker(base: dict, name: str, kind: str, timeout: float, **extra) -> dict:
    deadline = base.get("deadline")
    if deadline is not None:
        timeout = min(timeout, deadline - time.time())
        if timeout < 30:
            print(f"== {name}: skipped, the --deadline is near", flush=True)
            return dict(name=name, rc="skipped")
    work = Path(base["work"])
    # an earlier run's result and traces in the same work folder (a warm machine's second call)
    # must not stand in for this one's, if this one is cut before it writes its own
    (work / f"{name}.json").unlink(missing_ok=True)
    shutil.rmtree(work / f"trace-{name}", ignore_errors=True)
    env = dict(extra.pop("env", {}))
    if name in base.get("fresh_cache", ()):  # an empty compile/kernel cache: a CI runner without one
        cache = work / f"cache-{name}"
        env.update(VLLM_CACHE_ROOT=str(cache), TRITON_CACHE_DIR=str(cache / "triton"))
    if base.get("trace"):
        env["HYMT_VLLM_TRACE"] = str(work / f"trace-{name}")
    spec = dict(
        base, name=name, kind=kind, result=str(work / f"{name}.json"), launched=time.time(), env=env, **extra
    )
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
    if base.get("trace"):
        from trace_summary import core_profile, describe, describe_core, gpu_busy, profile

        folder = work / f"trace-{name}"
        windows = result.get("windows", {})
        profiles = {key: profile(folder, start, end) for key, (start, end) in windows.items()}
        result["trace"] = {key: {k: v for k, v in p.items()} for key, p in profiles.items()}
        result["core"] = {key: core_profile(folder, start, end) for key, (start, end) in windows.items()}
        samples = os.environ.get("HYMT_GPU_SAMPLES")
        if samples:
            result["gpu_busy"] = {key: gpu_busy(Path(samples), s, e) for key, (s, e) in windows.items()}
        for key, prof in profiles.items():
            print(describe(f"trace {name} {key}", prof), flush=True)
            print(describe_core(f"trace {name} {key}", result["core"][key]), flush=True)
            if samples:
                print(f"trace {name} {key}: GPU busy {result['gpu_busy'][key]}", flush=True)
    print(f"== {name}: rc={rc} in {result['process_s']} s", flush=True)
    return result


def write_documents(
    args: argparse.Namespace, preset: dict, folder: Path, sizes: dict
) -> tuple[list | None, dict]:
    """The job's documents under `folder`; `sizes` (docs, products, rows) over the arguments."""
    docs = int(sizes.get("docs", args.docs if args.docs is not None else preset["docs"]))
    if args.job == "mixed":
        from mixed_job import DESCRIPTION_COLUMN, write_mixed_job

        products = int(sizes.get("products", preset["products"] if args.products is None else args.products))
        write_mixed_job(folder, docs=docs, products=products)
        return [DESCRIPTION_COLUMN], dict(docs=docs, products=products)
    from catalog_gen import write_catalog
    from workload import write_workload

    rows = int(sizes.get("rows", preset["rows"] if args.rows is None else args.rows))
    write_workload(folder, docs)
    if rows:
        write_catalog(folder / "catalog.parquet", rows)
    return None, dict(docs=docs, catalog_rows=rows)


def build_jobs(args: argparse.Namespace, preset: dict, work: Path, base: dict) -> list[dict]:
    """Write the documents, plan one job per target set. A target set may carry its own
    sizes: "de,fr,ja@docs=14,products=4200" (its documents in a folder of their own)."""
    jobs = []
    for entry in (args.targets or preset["jobs"]).split("|"):
        targets, _, sized = entry.partition("@")
        sizes = dict(item.split("=", 1) for item in sized.split(",") if item)
        name = (
            "to-"
            + targets.replace(",", "-")
            + ("-" + "-".join(f"{k}{v}" for k, v in sizes.items()) if sizes else "")
        )
        folder = work / ("docs-" + name if sizes else "docs")
        if sizes or not folder.with_name(folder.name + ".written.json").exists():
            columns, size = write_documents(args, preset, folder, sizes)
            folder.with_name(folder.name + ".written.json").write_text(json.dumps([columns, size]))
        else:
            columns, size = json.loads(folder.with_name(folder.name + ".written.json").read_text())
        planned = plan(dict(base, targets=targets, columns=columns, job=name, docs_dir=str(folder)))
        table = planned.pop("table")
        path = work / f"table-{name}.pkl"
        with open(path, "wb") as f:
            pickle.dump(table, f)
        job = dict(name=name, targets=targets, columns=columns, table=str(path), docs_dir=str(folder))
        jobs.append(job)
        print(f"job {name}: {json.dumps(dict(job=args.job, **size, targets=targets, **planned))}", flush=True)
        job["summary"] = dict(job=args.job, **size, targets=targets, **planned)
    return jobs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--preset", choices=sorted(PRESETS), default="tiny")
    parser.add_argument(
        "--model",
        help="model folder (default for tiny: built here); GPU presets: the output of make-random-hymt.py",
    )
    parser.add_argument("--job", choices=("mixed", "generated"), default="mixed")
    parser.add_argument("--docs", type=int, help="generated documents (default: per preset)")
    parser.add_argument(
        "--products", type=int, help="product descriptions of the mixed job (default: per preset)"
    )
    parser.add_argument(
        "--rows", type=int, help="catalog rows of the generated job (default: per preset; 0: none)"
    )
    parser.add_argument(
        "--targets", help='target sets, one job each, e.g. "de|de,fr,ja" (default: per preset)'
    )
    parser.add_argument("--hf-n", type=int, help="requests for the transformers baseline (0: skip)")
    parser.add_argument(
        "--contenders",
        default="hymt,vllm,vllm-oob,vllm-today,hymt-1,hf",
        help="in this order: hymt, hymt-1, vllm, vllm-oob, vllm-today, hf",
    )
    parser.add_argument(
        "--variants",
        default="",
        help="more bare-vLLM set-ups as a JSON object "
        '{name: LLM keyword arguments, "_replicas": engines on the GPU, "_hymt": true to start '
        "from hymt's settings}, each in its own process, after the contenders",
    )
    parser.add_argument(
        "--hymt-variants",
        default="",
        help="more hymt set-ups as JSON {name: {engine_args, "
        "replicas, staggered, passes}}, run after the contenders and before --variants",
    )
    parser.add_argument(
        "--hymt-passes",
        default="real,warm,doc",
        help="hymt's passes: real (first job, engine started while planning), warm, doc, sorted",
    )
    parser.add_argument("--hymt-args", default="", help="engine arguments for hymt as JSON (--engine-arg)")
    parser.add_argument("--quantization", help="hymt's --quantization (the bare contender follows)")
    parser.add_argument(
        "--load-format",
        help="vLLM's load_format for every contender (dummy: random weights "
        "made on the GPU, only config.json and the tokenizer are read)",
    )
    parser.add_argument(
        "--fresh-cache", default="", help="contenders started with an empty vLLM/Triton cache"
    )
    parser.add_argument(
        "--trace", action="store_true", help="record every engine step (batch size over time)"
    )
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
    base = dict(
        preset=args.preset,
        model=model,
        work=str(work),
        docs_dir=str(work / "docs"),
        dtype=preset["dtype"],
        hf_n=preset["hf_n"] if args.hf_n is None else args.hf_n,
        quantization=args.quantization,
        engine_args={
            **({"load_format": args.load_format} if args.load_format else {}),
            **(json.loads(args.hymt_args) if args.hymt_args else {}),
        },
        trace=args.trace,
        load_format=args.load_format,
        fresh_cache=[c for c in args.fresh_cache.split(",") if c],
        deadline=LAUNCHED + args.deadline if args.deadline else None,
    )
    jobs = build_jobs(args, preset, work, base)
    base["jobs"] = [{k: v for k, v in job.items() if k != "summary"} for job in jobs]
    results: dict = dict(
        jobs={job["name"]: job["summary"] for job in jobs},
        preset=args.preset,
        model=model,
        date=time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        python=sys.version.split()[0],
        argv=sys.argv[1:],
    )
    try:
        import vllm

        results["vllm_version"] = vllm.__version__
    except ImportError:
        pass
    passes = args.hymt_passes.split(",")
    for name in (c for c in args.contenders.split(",") if c):
        if name == "hymt":
            results[name] = run_worker(base, name, "hymt", args.timeout, passes=passes)
        elif name == "hymt-1":
            results[name] = run_worker(
                base,
                name,
                "hymt",
                args.timeout,
                replicas=1,
                passes=[p for p in passes if p in ("real", "warm")],
            )
        elif name == "vllm":
            results[name] = run_worker(base, name, "vllm", args.timeout, llm_kwargs=hymt_bare_kwargs(base))
        elif name == "vllm-today":
            results[name] = run_worker(base, name, "vllm", args.timeout, llm_kwargs=TODAY)
        elif name == "vllm-oob":
            results[name] = run_worker(base, name, "vllm", args.timeout)
        elif name == "hf" and base["hf_n"]:
            results[name] = run_worker(base, name, "hf", args.timeout)
    for name, setup in (json.loads(args.hymt_variants) if args.hymt_variants else {}).items():
        setup = dict(setup)
        setup.setdefault("passes", ["warm"])
        if "engine_args" in setup:
            setup["engine_args"] = {**base["engine_args"], **setup["engine_args"]}
        results[name] = run_worker(base, name, "hymt", args.timeout, **setup)
    for name, llm_kwargs in (json.loads(args.variants) if args.variants else {}).items():
        if llm_kwargs.pop("_hymt", False):  # hymt's resolved settings, changed by the rest
            llm_kwargs = {**hymt_bare_kwargs(base), **llm_kwargs}
        results[name] = run_worker(base, name, "vllm", args.timeout, llm_kwargs=llm_kwargs)
    from summary import summarize

    summarize(results, jobs, base, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
