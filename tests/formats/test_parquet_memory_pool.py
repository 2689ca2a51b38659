"""A Parquet input is read with Arrow's buffers from jemalloc (or malloc), not mimalloc, Arrow's
default, which kept the memory Arrow freed: a streamed 2M-row catalog grew by ~80 MiB
(bench/RESULTS.md, issue 20 goal 6). The pool is process-wide: checked in a fresh process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[2]
READ = """
import sys
import pyarrow as pa
from table_helpers import BytesSource, settings
from hymt_cli.formats import format_named

before = pa.default_memory_pool().backend_name
reader = format_named("parquet", settings(["name"], rows_per_batch=2)).open(
    BytesSource(open(sys.argv[1], "rb").read())
)
rows = sum(unit.weight(s.id) for unit in reader.units() for s in unit.segments)
print(before, pa.default_memory_pool().backend_name, rows)
"""


def test_reading_a_parquet_input_takes_arrow_buffers_from_jemalloc_or_malloc(tmp_path: Path) -> None:
    src = tmp_path / "catalog.parquet"
    pq.write_table(pa.table({"name": ["Lamp", "Desk", "Lamp", None, "Chair"]}), src)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}"}
    env.pop("ARROW_DEFAULT_MEMORY_POOL", None)
    done = subprocess.run(
        [sys.executable, "-c", READ, str(src)], env=env, capture_output=True, text=True, check=True
    )
    before, after, rows = done.stdout.split()  # before: Arrow's default in this build (mimalloc here)
    assert after in ("jemalloc", "system") and rows == "4", before
