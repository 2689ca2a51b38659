"""hymt through `vllm serve` (--engine openai) against hymt's offline vLLM engine, same job, same call.

One machine, one command: the workload of bench/workload.py, planned once (hymt's own dry run);
then hymt end to end with its offline engine (`VllmEngine`, hymt's tuned settings), then the
OpenAI-compatible server started with `hymt serve-args` (the same engine settings as flags) and
hymt end to end through it with the served engine, once per client variant (prompts per HTTP
request, prompts in flight). Random weights never stop, so every request generates exactly
round(1.1 x its source tokens) tokens (`ignore_eos`, as an --engine-arg for the server), and the
bench's engine wrapper (bench/run.py) hands the checks a well-formed answer; the GPU work and the
token counts are the engines' own. Each contender gets a warm-up pass first (Triton JIT of the
sampling kernels stays out of the figures).

    python bench/served.py --preset tiny                                   # CPU, a few minutes
    python bench/served.py --preset 1.8b --model /tmp/hymt-1.8b-random     # GPU

The last line reads `ratio served/offline=<x>` (the best served variant).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

LAUNCHED = time.time()
REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from run import (
    PRESETS,
    BenchEngine,
    FileClock,
    figures,
    make_pipeline,
    plan,
    sources,  # noqa: E402
    work_and_model,
)


def warm(engine, table: list[dict], n: int = 256) -> None:
    from hymt_cli.engine.base import GenerationRequest

    engine.generate([GenerationRequest("w", tuple(t["ids"]), 8) for t in table[-n:]])


def timed_run(spec: dict, engine, table: list[dict], out: Path) -> dict:
    """hymt end to end (planning, engine, checks, writing) with a warm engine."""
    clock = FileClock()
    bench = BenchEngine(engine, table)
    pipeline = make_pipeline(spec, out_dir=out, engine_factory=lambda: bench, progress=clock)
    t0 = time.monotonic()
    report = pipeline.run(sources(spec))
    wall = time.monotonic() - t0
    assert report.engine_requests == len(table) and report.files_failed == 0, report
    return figures(
        wall,
        table,
        report.output_tokens,
        files=clock.files,
        engine_s=round(report.engine_seconds, 2),
        engine_retries=report.engine_retries,
        untranslated=report.untranslated,
    )


def options_for(spec: dict):
    from hymt_cli.engine.base import EngineOptions
    from hymt_cli.engine.vllm_options import VllmOptions

    return EngineOptions(
        model=spec["model"], dtype=spec["dtype"], vllm=VllmOptions(enforce_eager=spec["preset"] == "tiny")
    )


def offline(spec: dict, table: list[dict]) -> dict:
    from hymt_cli.engine.base import Sampling
    from hymt_cli.engine.vllm_engine import VllmEngine

    t0 = time.monotonic()
    engine = VllmEngine(options_for(spec), Sampling(), ignore_eos=True)
    start = round(time.monotonic() - t0, 1)
    try:
        warm(engine, table)
        engine._llm.reset_prefix_cache()  # noqa: SLF001  the same cold prefix cache as the server's
        result = timed_run(spec, engine, table, Path(spec["work"]) / "offline")
    finally:
        engine.close()
    return dict(result, engine_start_s=start)


def gpu_memory_released(limit_mib: int = 8192, timeout: float = 60) -> None:
    """Wait until the offline engine's GPU memory is back (the server takes 0.9 of the card)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            done = subprocess.run(
                ["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
                capture_output=True,
                text=True,
                timeout=20,
            )
            if int(done.stdout.split()[0]) < limit_mib:
                return
        except (OSError, ValueError, IndexError, subprocess.SubprocessError):
            return  # no GPU (CPU preset)
        time.sleep(1)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(spec: dict, port: int, log: Path) -> subprocess.Popen[bytes]:
    from hymt_cli.engine.base import Sampling
    from hymt_cli.engine.vllm_arguments import serve_command

    flags = serve_command(
        options_for(spec), Sampling(), on_cpu=spec["preset"] == "tiny", host="127.0.0.1", port=port
    )[3:]  # after `vllm serve MODEL`
    argv = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", spec["model"], *flags]
    print("server:", shlex.join(argv), flush=True)
    # dev mode: /reset_prefix_cache, so that the measured pass starts as cold as the offline one
    env = {**os.environ, "VLLM_LOGGING_LEVEL": "WARNING", "VLLM_SERVER_DEV_MODE": "1"}
    return subprocess.Popen(
        argv, stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env, start_new_session=True
    )


def wait_ready(url: str, process: subprocess.Popen[bytes], log: Path, deadline: float) -> float:
    import httpx

    t0 = time.monotonic()
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"server exited {process.returncode}:\n{log.read_text(errors='replace')[-4000:]}"
            )
        try:
            if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                return round(time.monotonic() - t0, 1)
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"server not ready before the deadline:\n{log.read_text(errors='replace')[-4000:]}")


def served(spec: dict, table: list[dict], variants: list[tuple[int, int]], deadline: float) -> dict:
    from hymt_cli.engine.base import Sampling, ServerOptions
    from hymt_cli.engine.openai_engine import OpenAIEngine

    gpu_memory_released()
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    log = Path(spec["work"]) / "server.log"
    process = start_server(spec, port, log)
    results: dict = {}
    try:
        results["server_start_s"] = wait_ready(url, process, log, deadline)
        print(f"server ready in {results['server_start_s']} s", flush=True)
        for per_request, concurrency in variants:
            if time.time() > deadline - 20:
                print(f"served k={per_request}: skipped, the deadline is near", flush=True)
                continue
            name = f"served k={per_request} c={concurrency}"
            options = ServerOptions(url, concurrency=concurrency)
            with OpenAIEngine(
                options,
                spec["model"],
                Sampling(),
                extra={"ignore_eos": True},
                prompts_per_request=per_request,
            ) as engine:
                warm(engine, table)
                import httpx

                httpx.post(f"{url.removesuffix('/v1')}/reset_prefix_cache", timeout=30)  # cold, as offline's
                results[name] = timed_run(spec, engine, table, Path(spec["work"]) / name.replace(" ", "_"))
            print(f"{name}: {results[name]}", flush=True)
    finally:
        os.killpg(process.pid, 15)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=sorted(PRESETS), default="tiny")
    parser.add_argument("--model", help="model folder (tiny: built here; GPU presets: make-random-hymt.py's)")
    parser.add_argument("--docs", type=int, help="generated documents (default: per preset)")
    parser.add_argument("--targets", help="target languages (default: per preset)")
    parser.add_argument(
        "--variants",
        default="8:2048,1:2048",
        help="served client variants, PROMPTS_PER_REQUEST:IN_FLIGHT, comma-separated",
    )
    parser.add_argument(
        "--deadline", type=float, default=3600, help="seconds from launch: nothing starts after"
    )
    parser.add_argument("--work", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    preset = PRESETS[args.preset]
    work, model = work_and_model(args, parser, "hymt-served-")
    from workload import write_workload

    docs = args.docs or preset["docs"]
    write_workload(work / "docs", docs)
    spec = dict(
        preset=args.preset,
        model=model,
        work=str(work),
        docs_dir=str(work / "docs"),
        targets=args.targets or preset["targets"],
        dtype=preset["dtype"],
    )
    planned = plan(spec)
    table = planned.pop("table")
    job = dict(docs=docs, targets=spec["targets"], **planned)
    print(f"job: {json.dumps(job)}", flush=True)
    deadline = LAUNCHED + args.deadline
    results: dict = dict(job=job, preset=args.preset, date=time.strftime("%Y-%m-%d %H:%M:%S %Z"))
    try:
        import vllm

        results["vllm_version"] = vllm.__version__
    except ImportError:
        pass
    results["offline"] = offline(spec, table)
    print(f"offline: {results['offline']}", flush=True)
    _save(args.json, results)
    variants = [tuple(int(x) for x in v.split(":")) for v in args.variants.split(",") if v]
    try:
        results.update(served(spec, table, variants, deadline))  # type: ignore[arg-type]
    except RuntimeError as exc:
        results["served_error"] = str(exc)[-4000:]
        print(f"served: FAILED\n{exc}", flush=True)
    _save(args.json, results)

    base = results["offline"]["out_tok_per_s"]
    print(f"\n{'contender':<26} {'wall s':>8} {'req/s':>8} {'out tok/s':>10} {'vs offline':>10}")
    best = 0.0
    for name, r in results.items():
        if isinstance(r, dict) and "out_tok_per_s" in r:
            ratio = r["out_tok_per_s"] / base
            if name != "offline":
                best = max(best, ratio)
            print(f"{name:<26} {r['wall_s']:>8} {r['req_per_s']:>8} {r['out_tok_per_s']:>10} {ratio:>10.3f}")
    print(
        f"engine start: offline {results['offline']['engine_start_s']} s, server "
        f"{results.get('server_start_s')} s"
    )
    print(f"ratio served/offline={best:.3f}")
    return 0


def _save(path: Path | None, results: dict) -> None:
    if path is not None:
        path.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    sys.exit(main())
