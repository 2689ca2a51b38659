"""Catalog scale on a CPU: does a Parquet catalog run in bounded memory as it grows?

Generates catalogs of 3 text columns in which about 40% of the cells repeat an earlier value
(the rest are new), at several sizes (each twice the last), translates each with the
identity and the pseudo engines (`hymt translate` in a child process, a fresh translation
memory), and prints rows/s and the child's peak RSS (from `wait4`, that child alone):

    PYTHONPATH=. python bench/catalog_scale.py --rows 250000,500000,1000000,2000000
    PYTHONPATH=. python bench/catalog_scale.py --format csv,jsonl --rows 250000,500000,1000000

`--format` writes the same catalog as CSV (the csv module's dialect) or JSON Lines (one object
a row) instead of Parquet. `--context-columns name` tells each cell its row's name (HY-MT's
context prompt): a cell per (value, context) pair. Memory is bounded when the peak RSS stays
flat as the rows double.
Not a test: minutes.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
COLUMNS = ("name", "description", "material")
REPEAT = 0.4  # share of cells that repeat an earlier value of their column
_WORDS = (
    "soft warm light durable classic modern compact handmade organic recycled bright quiet "
    "travel kitchen garden office outdoor winter summer city mountain ocean forest desk lamp "
    "bag bottle chair table shirt jacket scarf mug candle pillow blanket shelf clock"
).split()
SCHEMA = pa.schema(
    [
        pa.field("sku", pa.string(), nullable=False),
        pa.field("name", pa.string()),
        pa.field("description", pa.string()),
        pa.field("material", pa.string()),
        pa.field("price", pa.float64()),
    ],
    metadata={b"generator": b"hymt bench/catalog_scale.py"},
)


def _text(rng: random.Random, words: int, serial: int) -> str:
    body = " ".join(rng.choice(_WORDS) for _ in range(words))
    return f"{body.capitalize()} {serial}."


def catalog_batches(rows: int, *, seed: int = 0, batch_rows: int = 65_536) -> Iterator[pa.RecordBatch]:
    """`rows` rows; each text cell repeats one of the column's last 4096 values with
    probability REPEAT, else is new. Same seed, same table."""
    rng = random.Random(seed)
    recent: dict[str, list[str]] = {c: [] for c in COLUMNS}
    lengths = {"name": (3, 6), "description": (12, 40), "material": (1, 3)}
    serial = done = 0
    while done < rows:
        n = min(batch_rows, rows - done)
        cols: dict[str, list[object]] = {f.name: [] for f in SCHEMA}
        for i in range(n):
            cols["sku"].append(f"SKU-{done + i:08d}")
            cols["price"].append(round(rng.uniform(1, 500), 2))
            for column in COLUMNS:
                pool = recent[column]
                if pool and rng.random() < REPEAT:
                    value = rng.choice(pool)
                else:
                    serial += 1
                    value = _text(rng, rng.randint(*lengths[column]), serial)
                    pool.append(value)
                    if len(pool) > 4096:
                        pool.pop(0)
                cols[column].append(value)
        yield pa.RecordBatch.from_arrays([pa.array(cols[f.name], type=f.type) for f in SCHEMA], schema=SCHEMA)
        done += n


def write_catalog(path: Path, rows: int) -> Path:
    """The catalog as Parquet, CSV or JSON Lines (by the path's suffix)."""
    if path.suffix == ".parquet":
        with pq.ParquetWriter(path, SCHEMA, compression="zstd") as writer:
            for batch in catalog_batches(rows):
                writer.write_batch(batch)
        return path
    with path.open("w", encoding="utf-8", newline="") as out:
        names = SCHEMA.names
        table_writer = csv.writer(out) if path.suffix == ".csv" else None
        if table_writer is not None:
            table_writer.writerow(names)
        for batch in catalog_batches(rows):
            for row in batch.to_pylist():
                if table_writer is not None:
                    table_writer.writerow([row[n] for n in names])
                else:
                    out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def run(
    src: Path,
    engine: str,
    workdir: Path,
    rows_per_batch: int,
    env: dict[str, str] | None = None,
    context: str = "",
) -> dict[str, object]:
    """One `hymt translate` in a child process (`env` added to its environment): wall time,
    its own peak RSS, its report."""
    cache = workdir / f"memory-{engine}-{src.name}.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{cache}{suffix}").unlink(missing_ok=True)
    report = workdir / f"report-{engine}-{src.name}.json"
    out = workdir / f"out-{engine}-{src.name}"
    shutil.rmtree(out, ignore_errors=True)
    command = [
        sys.executable,
        "-m",
        "hymt_cli",
        "translate",
        str(src),
        "--to",
        "fr",
        "--engine",
        engine,
        "--columns",
        ",".join(COLUMNS),
        "-o",
        str(out),
        "--report",
        str(report),
        "-q",
        "--rows-per-batch",
        str(rows_per_batch),
        "--cache",
        str(cache),
    ] + (["--context-columns", context] if context else [])
    t0 = time.monotonic()
    child = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"hymt exited with {os.waitstatus_to_exitcode(status)}")
    data = json.loads(report.read_text())
    return dict(
        seconds=round(seconds, 1),
        peak_rss_mib=round(usage.ru_maxrss / 1024),
        segments=data["segments"],
        unique=data["unique_segments"],
        hits=data["cache_hits"],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="250000,500000,1000000,2000000")
    parser.add_argument("--engines", default="identity,pseudo")
    parser.add_argument("--format", default="parquet", help="parquet, csv, jsonl (comma-separated)")
    parser.add_argument("--rows-per-batch", type=int, default=8192)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "hymt-catalog-scale")
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="environment of the hymt process (allocator settings), repeatable",
    )
    parser.add_argument("--context-columns", default="", help="e.g. name (none: no context)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    env = dict(item.split("=", 1) for item in args.env)
    args.workdir.mkdir(parents=True, exist_ok=True)
    results = []
    print(
        f"{'format':<8} {'engine':<9} {'rows':>10} {'MB':>6} {'seconds':>8} {'rows/s':>8} "
        f"{'peak RSS MiB':>12} "
        f"{'unique req':>10}"
    )
    for fmt in args.format.split(","):
        for rows in (int(r) for r in args.rows.split(",")):
            src = args.workdir / f"catalog3-{rows}.{fmt}"
            if not src.exists():
                write_catalog(src, rows)
            size = src.stat().st_size / 1e6
            for engine in args.engines.split(","):
                r = run(src, engine, args.workdir, args.rows_per_batch, env, args.context_columns)
                r.update(format=fmt, engine=engine, rows=rows, rows_per_s=round(rows / float(r["seconds"])))  # type: ignore[arg-type]
                results.append(r)
                print(
                    f"{fmt:<8} {engine:<9} {rows:>10,} {size:>6.0f} {r['seconds']:>8} {r['rows_per_s']:>8,} "
                    f"{r['peak_rss_mib']:>12,} {r['unique']:>10,}",
                    flush=True,
                )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
