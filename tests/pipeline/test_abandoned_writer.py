"""A Parquet output abandoned after its first row groups were written (a later row group of the
input is corrupt; a signal) leaves no temp file and prints nothing but its one error line: its
pyarrow writer is closed before its temp file is, not left to complete itself into a closed
file when collected (a traceback, 'Exception ignored in ParquetWriter.__del__', on stderr)."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pipelines import run_pipeline
from table_helpers import settings

from hymt_cli.engine.pseudo import PseudoEngine


def _corrupt_late(path: Path) -> None:
    """30,000 rows in 3 row groups; the last one's title pages damaged."""
    rows = 30_000
    table = pa.table({"id": list(range(rows)), "title": [f"Product title number {i}" for i in range(rows)]})
    pq.write_table(table, path, row_group_size=10_000)
    data = bytearray(path.read_bytes())
    start = pq.ParquetFile(path).metadata.row_group(2).column(1).data_page_offset
    data[start + 20 : start + 4000] = b"\xff" * 3980
    path.write_bytes(bytes(data))


def test_a_table_failing_after_its_first_batches_were_written_leaves_no_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "catalog.parquet"
    _corrupt_late(source)
    unraisable: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda hook: unraisable.append(repr(hook.exc_value)))
    report = run_pipeline(
        [source],
        PseudoEngine,
        options=settings(("title",), rows_per_batch=1000),
        to="de,fr",  # type: ignore[arg-type]
        out_dir=tmp_path / "out",
        window_segments=3000,  # a window at a time: the first batches are written before the damage is read
    )
    gc.collect()
    assert [f.status for f in report.files] == ["failed", "failed"]
    assert "corrupt parquet data" in (report.files[0].error or "")
    assert not [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert unraisable == []
