"""A table's first batches are small and grow to --rows-per-batch (table_cells.batch_sizes), so
that an engine already running gets the first rows' requests a moment after the table is opened;
the output is the same whatever the batches."""

from __future__ import annotations

import io

import pyarrow as pa
import pyarrow.parquet as pq
from table_helpers import BytesSource

from hymt_cli.formats import format_named
from hymt_cli.formats.table_cells import FIRST_BATCH_ROWS, TableOptions, batch_sizes
from hymt_cli.options import OptionSet


def test_batches_grow_four_fold_to_the_rows_per_batch() -> None:
    sizes = batch_sizes(8192)
    assert [next(sizes) for _ in range(6)] == [256, 1024, 4096, 8192, 8192, 8192]
    small = batch_sizes(100)
    assert [next(small) for _ in range(3)] == [100, 100, 100]


def _rows_per_unit(rows: int, rows_per_batch: int, row_group: int) -> list[int]:
    sink = io.BytesIO()
    table = pa.table({"id": list(range(rows)), "title": [f"Product number {i % 997}" for i in range(rows)]})
    pq.write_table(table, sink, row_group_size=row_group)
    options = OptionSet([TableOptions(columns=("title",), rows_per_batch=rows_per_batch)])
    reader = format_named("parquet", options).open(BytesSource(sink.getvalue()))
    out = io.BytesIO()
    writer = None
    sizes = []
    for unit in reader.units():  # type: ignore[attr-defined]
        writer = writer or reader.writer("de", out)  # type: ignore[attr-defined]
        sizes.append(unit.content.batch.num_rows)
        writer.write(unit, {s.id: s.text.upper() for s in unit.segments})
    assert writer is not None
    writer.close()
    written = pq.read_table(io.BytesIO(out.getvalue()))
    assert written.column("id").to_pylist() == list(range(rows))  # every row once, in order
    assert written.column("title").to_pylist() == [f"PRODUCT NUMBER {i % 997}" for i in range(rows)]
    return sizes


def test_a_parquet_table_starts_with_small_batches() -> None:
    # the file's 8,192-row batches (across its row groups), the first one cut
    assert _rows_per_unit(12_000, 8192, 5000) == [256, 1024, 4096, 2816, 3808]
    assert _rows_per_unit(12_000, 8192, 100_000) == [256, 1024, 4096, 2816, 3808]
    assert _rows_per_unit(300, 8192, 100_000) == [FIRST_BATCH_ROWS, 44]


def test_a_csv_table_starts_with_small_batches() -> None:
    lines = ["id,title"] + [f"{i},Product number {i % 997}" for i in range(2000)]
    data = ("\n".join(lines) + "\n").encode()
    options = OptionSet([TableOptions(columns=("title",))])
    reader = format_named("csv", options).open(BytesSource(data, "catalog.csv"))
    sizes = [len(unit.content.rows) for unit in reader.units()]  # type: ignore[attr-defined]
    assert sizes == [256, 1024, 720]
