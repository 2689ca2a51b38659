"""Engine start, again and again: how long a new hymt run waits for its vLLM engine.

Each start runs in a new process (as a new `hymt translate` would), on the same machine, one
after another: on a fresh machine the first finds vLLM's caches (model inspection, Triton
kernels of the sampler, compiled graphs) cold, the next ones warm. Prints each start-up
phase with its time since the process began, the time until the first engine is ready (the
run starts translating then) and until every engine is.

    python bench/start_time.py --model /tmp/hymt-1.8b-random --runs 2
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

BEGAN = time.time()
REPO = Path(__file__).resolve().parents[1]


def child(model: str, dtype: str) -> None:
    sys.path.insert(0, str(REPO))
    from hymt_cli.engine.base import EngineOptions, GenerationRequest, Sampling
    from hymt_cli.engine.vllm_plan import start_vllm

    phases: list[tuple[float, str]] = []
    engine = start_vllm(
        EngineOptions(model=model, dtype=dtype),
        Sampling(),
        ignore_eos=True,
        on_phase=lambda name: phases.append((round(time.time() - BEGAN, 2), name)),
    )
    ready = time.time() - BEGAN
    every = getattr(engine, "wait_started", lambda: 1)()
    all_ready = time.time() - BEGAN
    answers = engine.generate([GenerationRequest("x", tuple(range(1, 40)), 16) for _ in range(64)])
    assert len(answers) == 64
    engine.close()
    print(
        "START "
        + json.dumps(
            dict(ready_s=round(ready, 2), all_ready_s=round(all_ready, 2), engines=every, phases=phases)
        ),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--dtype", default="bfloat16")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if args.child:
        child(args.model, args.dtype)
        return
    runs = []
    for i in range(args.runs):
        done = subprocess.run(
            [sys.executable, __file__, "--child", "--model", args.model, "--dtype", args.dtype],
            capture_output=True,
            text=True,
            timeout=600,
        )
        lines = [line for line in done.stdout.splitlines() if line.startswith("START ")]
        if done.returncode or not lines:
            print(done.stderr[-3000:], file=sys.stderr)
            sys.exit(f"start {i + 1} failed (exit code {done.returncode})")
        run = json.loads(lines[-1][6:])
        runs.append(run)
        print(
            f"start {i + 1}: first engine ready {run['ready_s']} s, all {run['engines']} at "
            f"{run['all_ready_s']} s "
            f"after the process began",
            flush=True,
        )
        for at, name in run["phases"]:
            print(f"    {at:>7.2f} s  {name}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1))


if __name__ == "__main__":
    main()
