"""Parquet tables (product catalogs): selected string columns translated, streamed.

The reader yields one unit per batch of rows (`iter_batches`), so memory does not grow
with the file. A unit's segments are the unique values of the selected columns in that
batch (each weighted by how many rows hold it); a value spanning several lines, or a
markup `--cell-format`, is parsed by that document format and its segments go out
instead. The writer turns each batch back into rows for one `ParquetWriter` per output.

Output: same schema and key/value metadata, same row order, other columns untouched, nulls
stay null, empty strings stay empty; `add_columns` keeps the source columns and appends
`<column>_<lang>`. Output paths, atomic writing and commits are the pipeline's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO

from ..errors import first_line
from .base import READ_SIZES, DocumentFormat, FormatError, InputSource, ReadSizes, Unit
from .row_context import NO_CONTEXT, ContextColumns, ContextMode, RowContext
from .table_cells import (
    CellPlanner,
    ContextCells,
    TableCell,
    TableOptions,
    added_columns,
    batch_sizes,
    column_listing,
    rendered_cell,
    selected_columns,
)

if TYPE_CHECKING:
    import pyarrow as pa
    import pyarrow.parquet as pq


# Parquet takes the options every table takes (the name stays for the callers that use it).
ParquetOptions = TableOptions


class ParquetFormat:
    """Registry entry for `.parquet`: tables, read and written a batch of rows at a time."""

    name = "parquet"
    suffixes = (".parquet",)

    catalog: None = None  # no file of strings (formats/base.Catalog)

    def __init__(
        self, options: ParquetOptions, cell_format: DocumentFormat, context: ContextMode = "auto"
    ) -> None:
        self.options = options
        self.cell_format = cell_format
        self.context = ContextColumns.of(options.context_columns, context)

    def open(self, source: InputSource, sizes: ReadSizes = READ_SIZES) -> ParquetReader:
        return ParquetReader(self.options, self.cell_format, source, self.context)


@dataclass(frozen=True, slots=True)
class _Column:
    """A selected column of a batch: its array, its cells and, where its rows were told a
    context, each row's cell (null: a null value; None: the cells are the column's unique values);
    for a dictionary column without context, the dictionary index of each cell."""

    array: pa.Array
    cells: tuple[TableCell, ...]
    rows: pa.Array | None = None
    entries: pa.Array | None = None


@dataclass(frozen=True, slots=True)
class RowBatch:
    """A unit's content: the rows and, per selected column, its unique values."""

    batch: pa.RecordBatch
    columns: Mapping[str, _Column]


class ParquetReader:
    # Capabilities it lacks (formats/base.InputReader): no target merged into, no legacy encoding.
    merge: None = None
    encoded: None = None

    def __init__(
        self,
        options: ParquetOptions,
        cell_format: DocumentFormat,
        source: InputSource,
        context: ContextColumns = NO_CONTEXT,
    ) -> None:
        self.options = options
        self.cell_format = cell_format
        self._source = source
        self._context = context
        self._file: pq.ParquetFile | None = None
        self._columns: list[str] = []
        self._row_context: RowContext | None = None

    def units(self) -> Iterator[Unit]:
        parquet_file = self._open()
        schema = parquet_file.schema_arrow
        self._columns = _check_columns(schema, self.options.columns)
        if self._context.wanted:
            names = _check_context_columns(schema, self._context)
            self._row_context = RowContext(names, self._columns) if names else None
        for index, batch in enumerate(self._batches(parquet_file)):
            yield self._unit(index, batch)

    def writer(self, target_language: str, out: BinaryIO) -> ParquetRowWriter:
        assert self._file is not None, "units() opens the file before a writer is asked for"
        schema = self._file.schema_arrow
        if self.options.add_columns:
            schema = _with_added_columns(schema, self._columns, target_language)
        return ParquetRowWriter(
            out, schema, _writer_options(self._file, schema), self._columns, self.options.add_columns
        )

    def _open(self) -> pq.ParquetFile:
        import pyarrow as pa
        import pyarrow.parquet as pq

        _steady_memory_pool()
        try:
            # pre_buffer (pyarrow's default) buffers every row group's column chunks for the batch
            # reader and keeps them until the file is read: memory that grew with the file.
            self._file = pq.ParquetFile(self._source.open_binary(), pre_buffer=False)
        except OSError as exc:
            raise FormatError(f"cannot read: {exc.strerror or _first_line(exc)}") from None
        except (pa.ArrowException, ValueError) as exc:
            raise FormatError(f"not a readable parquet file ({_first_line(exc)})") from None
        return self._file

    def _batches(self, parquet_file: pq.ParquetFile) -> Iterator[pa.RecordBatch]:
        """The units' rows: the file's batches, the first ones cut smaller (table_cells.batch_sizes)."""
        sizes = batch_sizes(max(1, self.options.rows_per_batch))
        size = next(sizes)
        for batch in self._file_batches(parquet_file):
            offset = 0
            while offset < batch.num_rows:
                take = min(size, batch.num_rows - offset)
                yield batch if take == batch.num_rows else batch.slice(offset, take)
                offset += take
                size = next(sizes)

    def _file_batches(self, parquet_file: pq.ParquetFile) -> Iterator[pa.RecordBatch]:
        import pyarrow as pa

        iterator = parquet_file.iter_batches(batch_size=max(1, self.options.rows_per_batch))
        first_row = 0
        while True:
            try:
                batch = next(iterator)
            except StopIteration:
                return
            except (pa.ArrowException, ValueError, OSError) as exc:
                raise FormatError(f"corrupt parquet data ({_first_line(exc)})") from None
            for name in self._checked():  # strings must be UTF-8: Arrow does not check on read
                try:
                    batch.column(name).validate(full=True)
                except pa.ArrowException as exc:
                    raise FormatError(
                        f"column {name!r} holds text that is not valid UTF-8 (rows {first_row}-"
                        f"{first_row + batch.num_rows - 1}: {_first_line(exc)})"
                    ) from None
            first_row += batch.num_rows
            yield batch

    def _checked(self) -> list[str]:
        """The columns read as text: the selected ones and the context columns."""
        context = self._row_context.names if self._row_context is not None else ()
        return list(dict.fromkeys([*self._columns, *context]))

    def _unit(self, index: int, batch: pa.RecordBatch) -> Unit:
        if self._row_context is not None:
            return self._unit_in_context(index, batch, self._row_context)
        planner = CellPlanner(self.cell_format)
        columns: dict[str, _Column] = {}
        for name in self._columns:
            array = batch.column(name)
            values, entries = _unique_values(array)
            columns[name] = _Column(array, planner.add(name, values), entries=entries)
        return planner.unit(index, RowBatch(batch, columns))

    def _unit_in_context(self, index: int, batch: pa.RecordBatch, context: RowContext) -> Unit:
        """Cells of (value, its row's context) pairs, and each row's cell."""
        import pyarrow as pa

        told = [batch.column(name).to_pylist() for name in context.names]
        texts = [context.texts(values) for values in zip(*told)] if told else []
        planner = CellPlanner(self.cell_format)
        columns: dict[str, _Column] = {}
        for k, name in enumerate(self._columns):
            array = batch.column(name)
            variant = context.variant[k]
            pairs = ContextCells()
            rows = [
                None if value is None else pairs.cell(value, row_texts[variant])
                for value, row_texts in zip(array.to_pylist(), texts)
            ]
            columns[name] = _Column(array, pairs.plan(planner, name), pa.array(rows, pa.int32()))
        return planner.unit(index, RowBatch(batch, columns))


class ParquetRowWriter:
    """Rows of one output: each unit's batch with its translated columns, in order."""

    recorded: None = None  # (no record key by key: formats/base.UnitWriter)

    def __init__(
        self,
        out: BinaryIO,
        schema: pa.Schema,
        options: dict[str, Any],
        columns: Sequence[str],
        add_columns: bool,
    ) -> None:
        import pyarrow.parquet as pq

        self._schema = schema
        self._columns = columns
        self._add = add_columns
        self._writer = pq.ParquetWriter(out, schema, **options)

    def write(self, unit: Unit, translated: Mapping[int, str]) -> None:
        import pyarrow as pa

        rows = unit.content
        assert isinstance(rows, RowBatch)
        arrays = {name: _translated_column(column, translated) for name, column in rows.columns.items()}
        batch = rows.batch
        if self._add:
            data = list(batch.columns) + [arrays[name] for name in self._columns]
        else:
            data = [arrays.get(n, col) for n, col in zip(batch.schema.names, batch.columns)]
        self._writer.write_batch(pa.RecordBatch.from_arrays(data, schema=self._schema))

    def close(self) -> None:
        self._writer.close()


def _translated_column(column: _Column, translated: Mapping[int, str]) -> pa.Array:
    import pyarrow as pa
    import pyarrow.compute as pc

    texts = [rendered_cell(cell, translated) for cell in column.cells]
    array = column.array
    if all(text is None for text in texts):  # nothing changed: the column as it was (its dictionary too)
        return array
    rendered = [cell.value if text is None else text for cell, text in zip(column.cells, texts)]
    if column.rows is not None:  # one value may read otherwise in each row's context
        if pa.types.is_dictionary(array.type):
            return pa.DictionaryArray.from_arrays(
                column.rows.cast(array.type.index_type),
                pa.array(rendered, type=array.type.value_type),
                ordered=array.type.ordered,
            )
        return pc.take(pa.array(rendered, type=array.type), column.rows)
    if column.entries is not None:  # the dictionary of the values the batch uses, translated
        indices = pc.index_in(array.indices, value_set=column.entries).cast(array.type.index_type)
        return pa.DictionaryArray.from_arrays(
            indices, pa.array(rendered, type=array.type.value_type), ordered=array.type.ordered
        )
    uniques = pa.array([cell.value for cell in column.cells], type=array.type)
    return pc.take(pa.array(rendered, type=array.type), pc.index_in(array, value_set=uniques))


def _unique_values(array: pa.Array) -> tuple[list[tuple[str, int]], pa.Array | None]:
    """(value, rows holding it) for every distinct non-null value; for a dictionary column the
    values its rows use, in dictionary order, and their dictionary indices. (A batch read from
    Parquet carries its row group's whole dictionary: a value no row of the batch holds is
    neither planned nor sent, else each batch would cost the dictionary's size.)"""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_dictionary(array.type):
        index_type = array.type.index_type
        counted = pc.value_counts(array.indices)
        used = sorted((i, n) for i, n in zip(*(f.to_pylist() for f in counted.flatten())) if i is not None)
        values = pc.take(array.dictionary, pa.array([i for i, _ in used], type=index_type)).to_pylist()
        kept = [(i, v, n) for (i, n), v in zip(used, values) if v is not None]  # (a null entry: a null)
        return [(v, n) for _, v, n in kept], pa.array([i for i, _, _ in kept], type=index_type)
    counted = pc.value_counts(array)
    values = [
        (v, c) for v, c in zip(counted.field(0).to_pylist(), counted.field(1).to_pylist()) if v is not None
    ]
    return values, None


def _string_type(t: pa.DataType) -> bool:
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        t = t.value_type
    return bool(pa.types.is_string(t) or pa.types.is_large_string(t))


def _check_columns(schema: pa.Schema, wanted: Sequence[str]) -> list[str]:
    strings = [f.name for f in schema if _string_type(f.type)]
    listing = column_listing("string columns", strings)
    columns = selected_columns("parquet", wanted, schema.names, listing)
    for name in columns:
        if schema.get_field_index(name) < 0:
            raise FormatError(f"column {name!r} appears more than once; {listing}")
        field = schema.field(name)
        if not _string_type(field.type):
            raise FormatError(f"column {name!r} is {field.type}, not a string column; {listing}")
    return columns


def _check_context_columns(schema: pa.Schema, context: ContextColumns) -> tuple[str, ...]:
    listing = column_listing("string columns", [f.name for f in schema if _string_type(f.type)])
    for name in context.named:
        if len(schema.get_all_field_indices(name)) > 1:
            raise FormatError(f"context column {name!r} appears more than once; {listing}")

    def not_text(name: str) -> str | None:
        index = schema.get_field_index(name)
        if index < 0:
            return "a name of several columns"  # (only a title column is looked for among all)
        kind = schema.field(index).type
        return None if _string_type(kind) else str(kind)

    return context.resolve(schema.names, listing, not_text)


def _with_added_columns(schema: pa.Schema, columns: Sequence[str], lang: str) -> pa.Schema:
    import pyarrow as pa

    fields = list(schema)
    for name, added in zip(columns, added_columns(schema.names, columns, lang)):
        fields.append(pa.field(added, schema.field(name).type, nullable=True))
    return pa.schema(fields, metadata=schema.metadata)


def _writer_options(source: pq.ParquetFile, schema: pa.Schema) -> dict[str, Any]:
    """Keep the source's format version and per-column compression where they can be read."""
    options: dict[str, Any] = {}
    meta = source.metadata
    if meta.format_version in ("1.0", "2.4", "2.6"):
        options["version"] = meta.format_version
    if meta.num_row_groups:
        group = meta.row_group(0)
        codecs = {
            group.column(i).path_in_schema: group.column(i).compression.lower()
            for i in range(group.num_columns)
        }
        top = {name: codecs.get(name) for name in schema.names}
        if all(top.values()):
            options["compression"] = {n: ("none" if c == "uncompressed" else c) for n, c in top.items()}
        elif codecs:
            first = next(iter(codecs.values()))
            options["compression"] = "none" if first == "uncompressed" else first
    return options


def _steady_memory_pool() -> None:
    """Arrow's buffers from jemalloc (else the system's malloc), for the whole process, once.

    Arrow's default pool, mimalloc, kept memory that Arrow had freed: reading a 2M-row catalog
    batch by batch, with Arrow's live buffers steady at 13 MiB, grew the resident size by ~80 MiB
    (jemalloc or malloc: flat). A streamed table must not grow with its rows."""
    import pyarrow as pa

    if pa.default_memory_pool().backend_name != "mimalloc":
        return  # chosen already (here, or by ARROW_DEFAULT_MEMORY_POOL)
    try:
        pool = pa.jemalloc_memory_pool()
    except NotImplementedError:  # a build without jemalloc
        pool = pa.system_memory_pool()
    pa.set_memory_pool(pool)


def _first_line(exc: BaseException) -> str:
    """The exception's first line, without pyarrow's prefix naming the (temp) source."""
    return re.sub(r"^Could not open Parquet input source '[^']*': ", "", first_line(exc))
