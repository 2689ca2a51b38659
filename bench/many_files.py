"""A folder of many small documents: seconds per file as the folder grows, for one or more trees
of hymt side by side (e.g. before and after a change), with the pseudo engine (no model: what is
measured is hymt's own work per file: discovery, planning, output claims, commits, manifest).

    python bench/many_files.py --files 500,2000 --tree /tmp/hymt-before --tree .

Each size runs twice into a fresh output folder: the first run writes every output, the second
replaces hymt's own outputs (each one checked against the folder's manifest). A cost that grows
with the folder shows as a per-file time that grows with the size (the last column: per-file
time at the largest size over the smallest; 1.0 is linear).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORDS = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega river stone light".split()


def make_folder(folder: Path, files: int, segments: int) -> None:
    rng = random.Random(files)
    folder.mkdir(parents=True)
    for i in range(files):
        paragraphs = (" ".join(rng.choice(WORDS) for _ in range(8)) + f" {i}-{j}." for j in range(segments))
        (folder / f"page-{i:05d}.md").write_text(f"# Page {i}\n\n" + "\n\n".join(paragraphs) + "\n")


def run(tree: Path, docs: Path, out: Path) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, "-m", "hymt_cli", "translate", str(docs), "--to", "de", "-o", str(out)]
    command += ["--engine", "pseudo", "--no-cache", "--no-config", "--progress", "none"]
    started = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", default="500,2000", help="folder sizes, comma-separated")
    parser.add_argument("--segments", type=int, default=5, help="paragraphs per document")
    parser.add_argument("--tree", action="append", type=Path, help="a hymt tree to run (repeatable)")
    args = parser.parse_args()
    sizes = [int(n) for n in args.files.split(",")]
    trees = [t.resolve() for t in (args.tree or [REPO])]
    work = Path(tempfile.mkdtemp(prefix="hymt-many-"))
    try:
        for size in sizes:
            make_folder(work / f"docs-{size}", size, args.segments)
        print(f"{'tree':<40} {'files':>6} {'write s':>8} {'ms/file':>8} {'replace s':>9} {'ms/file':>8}")
        per_file: dict[Path, list[float]] = {t: [] for t in trees}
        for size in sizes:
            for tree in trees:
                out = work / f"out-{size}-{trees.index(tree)}"
                first, second = run(tree, work / f"docs-{size}", out), run(tree, work / f"docs-{size}", out)
                per_file[tree].append(1000 * (first + second) / (2 * size))
                print(
                    f"{str(tree)[-40:]:<40} {size:>6} {first:>8.1f} {1000 * first / size:>8.2f} "
                    f"{second:>9.1f} {1000 * second / size:>8.2f}",
                    flush=True,
                )
        growth = " ".join(f"{str(t)[-30:]}={v[-1] / v[0]:.2f}" for t, v in per_file.items())
        print(f"per-file time, {sizes[-1]} files over {sizes[0]}: {growth}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
