"""Benchmark: translate a generated catalog with the pseudo engine; print throughput and peak RSS.

    PYTHONPATH=. python bench/parquet_bench.py --rows 2000000 --to fr

Generates the catalog (streamed, cached in --workdir), then runs `hymt translate` in a child
process with a fresh translation memory and reports rows/s, engine requests/s and the child's
peak resident memory (ru_maxrss). Not a test: it takes minutes at 2M rows.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from catalog_gen import write_catalog  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--to", default="fr")
    parser.add_argument("--columns", default="title,body_html,option1_value,option2_value,category")
    parser.add_argument("--rows-per-batch", type=int, default=8192)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "hymt-bench")
    parser.add_argument("--no-cache", action="store_true", help="run without the translation memory")
    args = parser.parse_args()

    args.workdir.mkdir(parents=True, exist_ok=True)
    src = args.workdir / f"catalog-{args.rows}.parquet"
    if not src.exists():
        t0 = time.monotonic()
        write_catalog(src, args.rows)
        print(f"generated {src} ({src.stat().st_size / 1e6:.1f} MB) in {time.monotonic() - t0:.1f} s")
    cache = args.workdir / "bench-memory.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{cache}{suffix}").unlink(missing_ok=True)
    report = args.workdir / "report.json"
    command = [
        sys.executable,
        "-m",
        "hymt_cli",
        "translate",
        str(src),
        "--to",
        args.to,
        "--engine",
        "pseudo",
        "--columns",
        args.columns,
        "-o",
        str(args.workdir / "out"),
        "--report",
        str(report),
        "-q",
        "--rows-per-batch",
        str(args.rows_per_batch),
        *(["--no-cache"] if args.no_cache else ["--cache", str(cache)]),
    ]
    t0 = time.monotonic()
    result = subprocess.run(command, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    seconds = time.monotonic() - t0
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux
    if result.returncode != 0:
        sys.exit(f"hymt exited with {result.returncode}")
    data = json.loads(report.read_text())
    langs = len(args.to.split(","))
    print(f"rows: {args.rows:,} x {langs} language(s), columns: {args.columns}")
    print(
        f"time: {seconds:.1f} s  ->  {args.rows / seconds:,.0f} rows/s, "
        f"{data['segments'] / seconds:,.0f} cells/s, {data['engine_requests'] / seconds:,.0f} engine "
        f"requests/s"
    )
    print(
        f"segments: {data['segments']:,}, unique requests: {data['unique_segments']:,}, "
        f"engine requests: {data['engine_requests']:,}, memory hits: {data['cache_hits']:,}"
    )
    print(f"peak RSS of the hymt process: {peak_mib:,.0f} MiB")


if __name__ == "__main__":
    main()
