"""The CPU benches for two (or more) trees of hymt side by side, runs alternated.

Each bench's input is made once (by the bench's own generator: text_scale, strings_scale,
catalog_scale, many_files), then every tree runs the bench's `hymt translate` command on it in a
child process with PYTHONPATH set to that tree, the trees in turn, --pairs times. Wall and CPU
(user + sys of that child alone, from `wait4`) per run; the medians, and each tree's median
CPU over the first tree's. A shared machine: CPU is the figure to compare, wall is noisy.

    PYTHONPATH=. python bench/ab_cpu.py --tree before=/tmp/hymt-before --tree after=. \
      --bench text-txt:300000 --bench strings:100000 --pairs 3 --json bench/results/cpu-ab.json

Benches (NAME:SIZE): text-txt (lines, --segment-by line, a fresh memory), text-md (paragraphs,
no memory), strings (i18next entries, no memory), catalog-FORMAT-ENGINE (rows of
catalog_scale's catalog; parquet, csv or jsonl; identity or pseudo; a fresh memory), many-files
(Markdown pages, pseudo engine, no memory: a first run writes the outputs, a second replaces
them, reported as many-files-write and many-files-replace).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import catalog_scale  # noqa: E402
import many_files  # noqa: E402
import strings_scale  # noqa: E402
import text_scale  # noqa: E402


def child(tree: Path, argv: list[str], cwd: Path) -> dict[str, float]:
    """One `python -m hymt_cli ARGV` importing `tree`'s hymt: wall, CPU, peak RSS."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hymt_cli", *argv],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{tree} {argv}: {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")
    return {
        "wall": round(wall, 2),
        "cpu": round(usage.ru_utime + usage.ru_stime, 2),
        "user": round(usage.ru_utime, 2),
        "sys": round(usage.ru_stime, 2),
        "rss_mib": round(usage.ru_maxrss / 1024),
    }


def fresh(*paths: Path) -> None:
    for path in paths:
        if path.is_dir():
            shutil.rmtree(path)
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)


class Bench:
    """One bench on one input: `prepare` makes the input, `run` one tree's run(s)."""

    def __init__(self, spec: str, work: Path) -> None:
        self.name, size = spec.rsplit(":", 1)
        self.size = int(size)
        self.work = work / spec.replace(":", "-")
        self.work.mkdir(parents=True)

    def prepare(self) -> None:
        kind = self.name
        if kind in ("text-txt", "text-md"):
            self.src = self.work / f"long.{kind[5:]}"
            text_scale.make(self.src, self.size, kind[5:])
        elif kind == "strings":
            self.src = self.work / "locales" / "en" / "big.json"
            self.src.parent.mkdir(parents=True)
            self.src.write_text(strings_scale.make(self.size), encoding="utf-8")
        elif kind.startswith("catalog-"):
            fmt = kind.split("-")[1]
            self.src = catalog_scale.write_catalog(self.work / f"catalog3-{self.size}.{fmt}", self.size)
        elif kind == "many-files":
            self.src = self.work / "docs"
            many_files.make_folder(self.src, self.size, 5)
        else:
            raise SystemExit(f"unknown bench {kind}")

    def run(self, tree: Path) -> dict[str, dict[str, float]]:
        out, memory = self.work / "out", self.work / "memory.sqlite3"
        fresh(out, memory)
        kind, src = self.name, str(self.src)
        if kind == "text-txt":
            argv = ["translate", src, "--to", "de", "--engine", "identity", "--segment-by", "line"]
            found = child(tree, [*argv, "--cache", str(memory), "-o", str(out), "-q"], tree)
            self.same(out / "de" / self.src.name)
            return {kind: found}
        if kind == "text-md":
            argv = ["translate", src, "--to", "de", "--engine", "identity", "--no-cache"]
            found = child(tree, [*argv, "-o", str(out), "-q"], tree)
            self.same(out / "de" / self.src.name)
            return {kind: found}
        if kind == "strings":
            argv = ["translate", src, "--to", "de", "--engine", "identity", "--no-cache", "-o", str(out)]
            found = child(tree, [*argv, "--report", str(self.work / "report.json")], tree)
            self.same(out / "de" / self.src.name)
            return {kind: found}
        if kind.startswith("catalog-"):
            engine = kind.split("-")[2]
            argv = ["translate", src, "--to", "fr", "--engine", engine, "--columns"]
            argv += [",".join(catalog_scale.COLUMNS), "-o", str(out), "--report"]
            argv += [str(self.work / "report.json"), "-q", "--rows-per-batch", "8192", "--cache", str(memory)]
            return {kind: child(tree, argv, tree)}
        argv = ["translate", src, "--to", "de", "-o", str(out), "--engine", "pseudo", "--no-cache"]
        argv += ["--no-config", "--progress", "none"]
        return {f"{kind}-write": child(tree, argv, tree), f"{kind}-replace": child(tree, argv, tree)}

    def same(self, output: Path) -> None:
        if output.read_bytes() != self.src.read_bytes():
            raise SystemExit(f"{self.name}: the output differs from the input")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tree", action="append", required=True, help="NAME=PATH, the first is the base")
    parser.add_argument("--bench", action="append", required=True, help="NAME:SIZE (repeatable)")
    parser.add_argument("--pairs", type=int, default=3, help="runs of each tree, alternated")
    parser.add_argument("--json", type=Path, help="write every run and the medians here")
    args = parser.parse_args()
    trees = {name: Path(path).resolve() for name, path in (t.split("=", 1) for t in args.tree)}
    for tree in trees.values():
        compileall.compile_dir(tree / "hymt_cli", quiet=1)
    base = next(iter(trees))
    results = []
    work = Path(tempfile.mkdtemp(prefix="hymt-ab-"))
    try:
        for spec in args.bench:
            bench = Bench(spec, work)
            bench.prepare()
            runs: dict[tuple[str, str], list[dict[str, float]]] = {}
            for _ in range(args.pairs):
                for name, tree in trees.items():
                    for label, found in bench.run(tree).items():
                        runs.setdefault((label, name), []).append(found)
                        print(
                            f"  {label:<22} {name:<8} wall {found['wall']:>7.2f} cpu {found['cpu']:>7.2f}",
                            flush=True,
                        )
            for label in dict.fromkeys(label for label, _ in runs):
                base_cpu = statistics.median(r["cpu"] for r in runs[(label, base)])
                for name in trees:
                    rows = runs[(label, name)]
                    cpu = statistics.median(r["cpu"] for r in rows)
                    wall = statistics.median(r["wall"] for r in rows)
                    results.append(
                        {
                            "bench": label,
                            "size": bench.size,
                            "tree": name,
                            "cpu_median": round(cpu, 2),
                            "wall_median": round(wall, 2),
                            "cpu_ratio": round(cpu / base_cpu, 3),
                            "rss_mib_median": statistics.median(r["rss_mib"] for r in rows),
                            "runs": rows,
                        }
                    )
                    ratio = cpu / base_cpu
                    head = f"{label:<24} {bench.size:>9,} {name:<8}"
                    print(f"{head} cpu {cpu:>7.2f} wall {wall:>7.2f} x{ratio:.3f}")
            shutil.rmtree(bench.work, ignore_errors=True)
            if args.json:
                meta = {"trees": {k: str(v) for k, v in trees.items()}, "load": os.getloadavg()}
                args.json.write_text(json.dumps({**meta, "results": results}, indent=1) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
