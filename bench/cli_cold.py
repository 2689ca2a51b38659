"""A cold `hymt translate` as a user starts it: seconds from the launch of the command to the
engine's start, its phases, its readiness, the first answers and the first file written.

Runs the real command line in a child process with `--progress json` (time-stamped events on
stderr) and stops it once it has written its first files (or at `--limit`): the measure is the
start, not the job. On a fresh GPU machine, run it first: only the first run finds the disk
caches cold.

    python bench/cli_cold.py JOB_DIR --model /tmp/hymt-1.8b-cfg --to de -- --engine-arg load_format=dummy
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs")
    parser.add_argument("--model", required=True)
    parser.add_argument("--to", default="de")
    parser.add_argument("--out", type=Path, default=Path("/tmp/cli-cold-out"))
    parser.add_argument("--limit", type=float, default=120, help="seconds before the run is stopped")
    parser.add_argument("--files", type=int, default=3, help="stop after this many files are written")
    parser.add_argument("--json", type=Path)
    args, extra = parser.parse_known_args()  # the rest: more `hymt translate` arguments (after --)
    extra = [a for a in extra if a != "--"]
    command = [sys.executable, "-m", "hymt_cli", "translate", args.inputs, "--to", args.to]
    command += ["--model", args.model, "-o", str(args.out), "--progress", "json", "--no-cache", *extra]
    env = dict(os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    launched = time.time()
    child = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env, text=True)
    seen: dict[str, float] = {}
    phases: list[tuple[float, str]] = []
    files = 0
    assert child.stderr is not None
    for line in child.stderr:
        try:
            event = json.loads(line)
        except ValueError:
            print(line.rstrip(), file=sys.stderr)
            continue
        at = round(event.get("time", time.time()) - launched, 2)
        name = event.get("event", "")
        if name == "engine_phase":
            phases.append((at, event["phase"]))
        elif name == "progress" and event.get("requests_done"):
            seen.setdefault("first_answers_s", at)
        elif name == "file_written":
            files += 1
            seen.setdefault("first_file_s", at)
        seen.setdefault(f"{name}_s", at)
        if files >= args.files or time.time() - launched > args.limit:
            break
    child.send_signal(signal.SIGINT)  # hymt stops cleanly: the engines close
    try:
        child.wait(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
    result = dict(seen, phases=phases, files_seen=files, stopped_at_s=round(time.time() - launched, 2))
    print("CLI-COLD " + json.dumps(result), flush=True)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
