"""A dictionary-encoded Parquet column read a batch at a time: each batch carries its row group's
whole dictionary, so a batch plans (and sends) only the values its rows hold, never the rest of
the dictionary; the output reads as the source with those values translated, nulls kept."""

from __future__ import annotations

import io
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from table_helpers import BytesSource
from tm_helpers import CountingEngine, run

from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats import format_named
from hymt_cli.formats.table_cells import TableOptions
from hymt_cli.options import OptionSet

VALUES = [f"Category number {i}" for i in range(1000)]


def _catalog() -> bytes:
    """2,000 rows in one row group; rows 0-99 use the first 10 dictionary values, no row the last 500."""
    indices = [None if i % 7 == 3 else (i % 10 if i < 100 else i % 500) for i in range(2000)]
    title = pa.DictionaryArray.from_arrays(pa.array(indices, pa.int32()), pa.array(VALUES))
    sink = io.BytesIO()
    pq.write_table(pa.table({"id": list(range(2000)), "title": title}), sink)
    return sink.getvalue()


def test_a_batch_plans_only_the_dictionary_values_its_rows_hold() -> None:
    data = _catalog()
    options = OptionSet([TableOptions(columns=("title",), rows_per_batch=100)])
    reader = format_named("parquet", options).open(BytesSource(data))
    out = io.BytesIO()
    writer = None
    planned = []
    for unit in reader.units():  # type: ignore[attr-defined]
        writer = writer or reader.writer("de", out)  # type: ignore[attr-defined]
        planned.append(len(unit.segments))
        writer.write(unit, {s.id: s.text.upper() for s in unit.segments})
    assert writer is not None
    writer.close()
    assert planned[0] == 10 and max(planned) <= 100, planned  # (the dictionary holds 1,000)
    source = pq.read_table(io.BytesIO(data)).column("title").to_pylist()
    result = pq.read_table(io.BytesIO(out.getvalue()))
    assert pa.types.is_dictionary(result.schema.field("title").type)
    assert result.column("title").to_pylist() == [None if v is None else v.upper() for v in source]


def test_a_run_sends_each_used_value_once_and_never_an_unused_one(tmp_path: Path) -> None:
    src = tmp_path / "catalog.parquet"
    src.write_bytes(_catalog())
    engine = CountingEngine(PseudoEngine())
    report = run(
        [str(src)], "de", engine, cache=None, out=tmp_path / "out", columns=["title"], rows_per_batch=100
    )
    assert report.files_failed == 0
    used = {v for v in pq.read_table(src).column("title").to_pylist() if v is not None}
    assert len(engine.requested) == len(set(engine.requested)) == len(used) < len(VALUES)
