"""Short commands, start-up: `hymt --help`, `hymt config` and `hymt translate --check` on a catalog
of 50,000 keys, each in a new process, for hymt as it is and as it was at REF, alternated.

Each command's wall and CPU time (user + system) from launch to exit; for `--check`, also its
start-up: the time from launch until the check itself begins (`check_outputs` is entered: imports,
the command line and the settings before it). The catalog is bench/catalog_merge.py's, translated
once into `locales/de/` (pseudo engine, no memory), so that `--check` finds it in sync and judges
it key by key. Both trees are byte-compiled first, as `pip install` does. Issue 37 asks for each
under 0.5 s of start-up on the CI machine:

    PYTHONPATH=. python bench/start_up.py --before 72afd2e --runs 10 --json bench/results/cpu-start-up.json
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from catalog_merge import catalog, write  # noqa: E402

COMMANDS = {
    "hymt --help": ["--help"],
    "hymt config": ["config"],
    "hymt translate --check (50,000 keys)": ["translate", "locales/en", "--to", "de", "--check"],
}

# The child: marks when `check_outputs` is entered (an import hook wraps it as its module is
# loaded, before anything imports it from there), then runs hymt as `python -m hymt_cli` does.
CHILD = r"""
import importlib.abc, importlib.machinery, os, runpy, sys, time

T0, MARK = float(os.environ["START_UP_T0"]), os.environ["START_UP_MARK"]

class Hook(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "hymt_cli.run.check_outputs":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            check = module.check_outputs

            def marked(*args, **kwargs):
                with open(MARK, "w") as out:
                    out.write(str(time.time() - T0))
                return check(*args, **kwargs)

            module.check_outputs = marked

        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, Hook())
sys.argv = ["hymt", *sys.argv[1:]]
runpy.run_module("hymt_cli", run_name="__main__", alter_sys=True)
"""


def tree_at(ref: str, into: Path) -> Path:
    """hymt's files at `ref`, in a folder of their own."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", ref, "hymt_cli"], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def run(tree: Path, args: list[str], project: Path, mark: Path) -> dict[str, float]:
    mark.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": str(tree), "START_UP_MARK": str(mark), "NO_COLOR": "1"}
    env["START_UP_T0"] = str(time.time())
    start = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, *args],
        cwd=project,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{args} failed: {child.stderr.read().decode() if child.stderr else ''}")
    found = {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime}
    if mark.exists():
        found["start_up"] = float(mark.read_text())
    return found


def summary(runs: list[dict[str, float]]) -> dict[str, float]:
    return {
        f"{key}_{how}": round(fn([r[key] for r in runs]), 3)
        for key in runs[0]
        for how, fn in (("best", min), ("median", statistics.median))
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="72afd2e", help="the git ref to compare with")
    parser.add_argument("--keys", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=10, help="runs of each command and tree")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {f"before ({args.before})": tree_at(args.before, Path(tmp) / "before"), "after": ROOT}
        for tree in trees.values():
            compileall.compile_dir(tree / "hymt_cli", quiet=1)
        project, mark = Path(tmp) / "project", Path(tmp) / "mark"
        write(project / "locales" / "en" / "app.json", catalog(args.keys))
        subprocess.run(
            [sys.executable, "-m", "hymt_cli", "translate", "locales/en", "--to", "de"]
            + ["--engine", "pseudo", "--no-cache", "-q"],
            cwd=project,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            check=True,
        )
        runs: dict[tuple[str, str], list[dict[str, float]]] = {}
        for _ in range(args.runs):  # the trees alternated, so that both see the host alike
            for command, argv in COMMANDS.items():
                for name, tree in trees.items():
                    runs.setdefault((command, name), []).append(run(tree, argv, project, mark))
    rows = [{"command": c, "tree": t, **summary(r)} for (c, t), r in runs.items()]
    head = f"{'wall best/median s':>19} {'cpu best s':>10} {'start-up best/median s':>23}"
    print(f"{'command':<38} {'tree':<18} {head}")
    for row in rows:
        up = "= wall"
        if "start_up_best" in row:
            up = f"{row['start_up_best']:.3f} / {row['start_up_median']:.3f}"
        wall = f"{row['wall_best']:.3f} / {row['wall_median']:.3f}"
        print(f"{row['command']:<38} {row['tree']:<18} {wall:>19} {row['cpu_best']:>10.3f} {up:>23}")
    if args.json:
        found = {"keys": args.keys, "runs": args.runs, "load": os.getloadavg(), "rows": rows}
        args.json.write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    main()
