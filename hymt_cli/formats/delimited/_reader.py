"""CSV and TSV files as tables: read a batch of records at a time, written by splicing.

A unit is a batch of consecutive records and the exact text that holds them (the first batch
also holds the BOM and the header), so the batches of a file join into the file. Its segments
are the unique values of the selected columns (table_cells). The writer copies the batch's
text and replaces only the translated fields, each written as its dialect needs (fields.py);
with `add_columns` it appends a field per selected column to the header and to every record,
before the line ending. Blank lines, every other field, quoting, line endings, the BOM and
the encoding are the source's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import BinaryIO

from ...text.exemplars import refusal
from ...text.substitutes import is_legacy
from ..base import DocumentFormat, FormatError, InputSource, Unit
from ..decoded_stream import TextStream
from ..encodings import UTF8, EncodingOptions, encoded
from ..row_context import NO_CONTEXT, ContextColumns, RowContext
from ..table_cells import (
    CellParser,
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
from .dialect import DelimitedOptions, Dialect
from .fields import field_value, is_quoted, render_field
from .magento import TRANSLATED_COLUMN, PhraseCells, is_dictionary
from .scanner import SEPARATOR_HINT, RecordScanner, Scanned, Span, sample_field_counts, sniff_delimiter

_Cells = tuple[tuple[TableCell, ...], ...]  # per selected column, its cells in the batch
BATCH_CHARS = 8 << 20  # a batch also ends at this much text, whatever its number of rows
SNIFF_CHARS = 1 << 16


@dataclass(frozen=True, slots=True)
class Row:
    """A record with fields to translate: where its content ends (before the line ending), the
    spans of the selected fields and, per selected field, its cell in the column (-1: none)."""

    end: int
    spans: tuple[Span, ...]
    cells: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RecordBatch:
    """A unit's content: its text, its rows, the header's end (first batch only) and, per
    selected column, the unique values of the batch."""

    text: str
    rows: list[Row]
    header_end: int | None
    columns: tuple[tuple[TableCell, ...], ...]


@dataclass(frozen=True, slots=True)
class Header:
    names: list[str]
    quoted: list[bool]
    selected: list[str]
    indexes: list[int]  # of the selected columns, in selection order
    context: tuple[str, ...] = ()  # the context columns (row_context)
    context_indexes: tuple[int, ...] = ()


class DelimitedReader:
    merge: None = None  # its targets are written whole (formats/base.InputReader)

    def __init__(
        self,
        format_name: str,
        table: TableOptions,
        options: DelimitedOptions,
        default_delimiter: str,
        cell_format: DocumentFormat,
        source: InputSource,
        context: ContextColumns = NO_CONTEXT,
        encodings: EncodingOptions | None = None,
    ) -> None:
        self._encodings = encodings or EncodingOptions()
        self._name = format_name
        self._table = table
        self._options = options
        self._default_delimiter = default_delimiter
        self._cell_format: CellParser = cell_format
        self._source = source
        self._context = context
        self._stream: TextStream | None = None
        self._dialect: Dialect | None = None
        self._header: Header | None = None

    def units(self) -> Iterator[Unit]:
        try:
            self._stream = TextStream(self._source.open_binary(), encoding=self._encodings.encoding)
            first = self._stream.read()
        except OSError as exc:
            raise FormatError(f"cannot read: {exc.strerror or exc}") from None
        hint = SEPARATOR_HINT.match(first, 1 if first.startswith("\ufeff") else 0)
        delimiter = (
            self._options.delimiter
            or (hint.group(1) if hint else "")
            or self._default_delimiter
            or sniff_delimiter(first[:SNIFF_CHARS])
        )
        self._dialect = Dialect(delimiter, self._options.escaping)
        scanner = RecordScanner(self._stream, self._dialect, first)
        self._recognise(first)
        read = self._read_header(scanner)
        if read is None:  # nothing but blank lines (or nothing): written as it is
            yield CellPlanner(self._cell_format).unit(
                0, RecordBatch(scanner.text(0, scanner.position), [], None, ())
            )
            return
        header, header_end, first_row = read
        self._header = header
        wanted = sorted({*header.indexes, *header.context_indexes})
        picks = [wanted.index(index) for index in header.indexes]  # selection order from file order
        context_picks = [wanted.index(index) for index in header.context_indexes]
        rows: list[Scanned] = []
        if first_row is not None:  # no header: the first record is a row
            rows.append(
                Scanned([first_row.spans[i] for i in wanted], first_row.end, first_row.next, first_row.fields)
            )
        index = 0
        sizes = batch_sizes(self._table.rows_per_batch)  # the first batches smaller
        limit = next(sizes)
        while True:
            start = scanner.position
            got = scanner.next_record(wanted)
            if got is not None:
                line, record = got
                # (a blank line is kept as it is: every reader reads it as no record)
                if record.end > start or record.fields > 1:
                    if record.fields != len(header.names):
                        raise FormatError(
                            f"line {line}: {record.fields} fields, but the "
                            f"{'header' if self._options.header else 'first line'} has "
                            f"{len(header.names)}"
                        )
                    rows.append(record)
                if len(rows) < limit and scanner.position < BATCH_CHARS:
                    continue
            if got is None and index > 0 and scanner.position == 0:
                return  # the last batch ended at the end of the file
            yield self._unit(index, scanner, rows, (picks, context_picks), header_end if index == 0 else None)
            index += 1
            rows = []
            limit = next(sizes)
            if got is None:
                return

    def _recognise(self, first: str) -> None:
        """A Magento translation dictionary (magento.py) is read as Magento reads it: its cells
        are phrases and, unless `--columns` says otherwise, its second column is translated."""
        assert self._dialect is not None
        counts = sample_field_counts(first[:SNIFF_CHARS], self._dialect, records=1)
        if not counts or not is_dictionary(self._source.display, counts[0]):
            return
        self._cell_format = PhraseCells()
        if not self._table.columns:
            self._table = replace(self._table, columns=(TRANSLATED_COLUMN,))
            self._options = replace(self._options, header=False)

    @property
    def encoded(self) -> DelimitedReader:
        """Its outputs may be in a legacy encoding (`output_encoding`, `unwritable`)."""
        return self

    def output_encoding(self, lang: str) -> str | None:
        """The legacy encoding the output is written in (None: UTF-8 or UTF-16)."""
        if self._stream is None:
            return None
        codec = self._encodings.output_codec(self._stream.codec)
        return codec if is_legacy(codec) else None

    def unwritable(self, lang: str) -> str | None:
        """A legacy encoding the output is written in that lacks letters of `lang`."""
        codec = self.output_encoding(lang)
        return None if codec is None else refusal(lang, codec)

    def writer(self, target_language: str, out: BinaryIO) -> DelimitedWriter:
        assert self._stream is not None and self._dialect is not None
        header = self._header
        added = ""
        if self._table.add_columns and self._options.header and header is not None:
            names = added_columns(header.names, header.selected, target_language)
            added = "".join(
                self._dialect.delimiter + render_field(name, self._dialect, header.quoted[index])
                for name, index in zip(names, header.indexes)
            )
        return DelimitedWriter(
            out,
            self._stream,
            self._dialect,
            self._table.add_columns,
            added,
            (target_language, self._encodings.output_codec(self._stream.codec)),
        )

    def _read_header(self, scanner: RecordScanner) -> tuple[Header, int | None, Scanned | None] | None:
        """The column names, where the header ends (None: no header) and, without a header,
        the first record (a row); None when the file has no record at all."""
        assert self._dialect is not None
        while True:
            start = scanner.position
            got = scanner.next_record(None)
            if got is None:
                return None
            line, record = got
            if record.end > start:
                break
        raws = [scanner.text(a, b) for a, b in record.spans]
        if self._options.header:
            names = [field_value(raw, self._dialect) or raw for raw in raws]
            listing = column_listing("columns", names)
        else:
            names = [str(i) for i in range(1, len(raws) + 1)]
            listing = f"without a header, columns are numbered: 1 to {len(raws)}"
        selected = selected_columns(self._name, self._table.columns, names, listing)
        context = self._context.resolve(names, listing) if self._context.wanted else ()
        for name in dict.fromkeys([*selected, *context]):
            if names.count(name) > 1:
                raise FormatError(f"line {line}: column {name!r} appears more than once in the header")
        header = Header(
            names,
            [is_quoted(raw, self._dialect) for raw in raws],
            selected,
            [names.index(name) for name in selected],
            context,
            tuple(names.index(name) for name in context),
        )
        if self._options.header:
            return header, record.end, None
        return header, None, record

    def _unit(
        self,
        index: int,
        scanner: RecordScanner,
        records: Sequence[Scanned],
        picks: tuple[Sequence[int], Sequence[int]],
        header_end: int | None,
    ) -> Unit:
        """The batch's unit: `picks` are where the selected and the context fields stand among
        the fields each record has spans for."""
        assert self._dialect is not None and self._header is not None
        text = scanner.text(0, scanner.position)
        scanner.release()
        selected, context_picks = picks
        planner = CellPlanner(self._cell_format)
        if context_picks:
            context = RowContext(self._header.context, self._header.selected)
            rows, cells = self._cells_in_context(planner, text, records, selected, context_picks, context)
        else:
            rows, cells = self._cells(planner, text, records, selected)
        return planner.unit(index, RecordBatch(text, rows, header_end, cells), scanner.take_doubts())

    def _cells(
        self, planner: CellPlanner, text: str, records: Sequence[Scanned], picks: Sequence[int]
    ) -> tuple[list[Row], _Cells]:
        """Rows and cells: a cell per distinct value of a column."""
        assert self._header is not None
        dialect = self._dialect
        assert dialect is not None
        lookups: list[dict[str, int]] = [{} for _ in picks]
        counts: list[list[int]] = [[] for _ in picks]
        rows = []
        in_order = list(picks) == list(range(len(picks)))
        for record in records:
            spans = tuple(record.spans) if in_order else tuple([record.spans[p] for p in picks])
            cells = []
            for k, (a, b) in enumerate(spans):
                value = field_value(text[a:b], dialect)
                if not value:
                    cells.append(-1)
                    continue
                lookup = lookups[k]
                cell = lookup.get(value)
                if cell is None:
                    cell = lookup[value] = len(lookup)
                    counts[k].append(1)
                else:
                    counts[k][cell] += 1
                cells.append(cell)
            rows.append(Row(record.end, spans, tuple(cells)))
        cells_of = tuple(
            planner.add(name, zip(lookup, count))
            for name, lookup, count in zip(self._header.selected, lookups, counts)
        )
        return rows, cells_of

    def _cells_in_context(
        self,
        planner: CellPlanner,
        text: str,
        records: Sequence[Scanned],
        picks: Sequence[int],
        context_picks: Sequence[int],
        context: RowContext,
    ) -> tuple[list[Row], _Cells]:
        """Rows and cells: a cell per distinct (value, its row's context) pair of a column."""
        assert self._header is not None
        dialect = self._dialect
        assert dialect is not None
        columns = [ContextCells() for _ in picks]
        variant = context.variant
        rows = []
        for record in records:
            spans = tuple([record.spans[p] for p in picks])
            texts = context.texts(
                [field_value(text[a:b], dialect) for a, b in (record.spans[p] for p in context_picks)]
            )
            cells = []
            for k, (a, b) in enumerate(spans):
                value = field_value(text[a:b], dialect)
                cells.append(columns[k].cell(value, texts[variant[k]]) if value else -1)
            rows.append(Row(record.end, spans, tuple(cells)))
        return rows, tuple(pairs.plan(planner, name) for pairs, name in zip(columns, self._header.selected))


class DelimitedWriter:
    """One output: each batch's text with its translated fields spliced in, encoded as the source
    (or in UTF-8 with a BOM, which Excel needs to read it as UTF-8: --output-encoding utf-8)."""

    recorded: None = None  # (no record key by key: formats/base.UnitWriter)

    def __init__(
        self,
        out: BinaryIO,
        stream: TextStream,
        dialect: Dialect,
        add_columns: bool,
        added_header: str,
        target: tuple[str, str] = ("", UTF8),  # the target language, and the output's codec
    ) -> None:
        self._out = out
        self._stream = stream
        self._dialect = dialect
        self._add = add_columns
        self._added_header = added_header
        self._target, self._codec = target
        # a BOM where the source had none and is written in UTF-8 from another encoding
        self._bom = self._codec == UTF8 and self._stream.codec not in ("utf-8", "utf-16-le", "utf-16-be")

    def write(self, unit: Unit, translated: Mapping[int, str]) -> None:
        batch = unit.content
        assert isinstance(batch, RecordBatch)
        rendered = [[rendered_cell(cell, translated) for cell in cells] for cells in batch.columns]
        text = self._spliced(batch, rendered) if not self._add else self._extended(batch, rendered)
        if self._bom:
            text, self._bom = "\ufeff" + text, False
        self._out.write(encoded(text, self._codec, self._target))

    def close(self) -> None:
        pass

    def _spliced(self, batch: RecordBatch, rendered: list[list[str | None]]) -> str:
        text, dialect = batch.text, self._dialect
        order = sorted(range(len(rendered)), key=lambda k: batch.rows[0].spans[k][0]) if batch.rows else []
        pieces: list[str] = []
        pos = 0
        for row in batch.rows:
            for k in order:
                cell = row.cells[k]
                value = rendered[k][cell] if cell >= 0 else None
                if value is None:
                    continue
                start, end = row.spans[k]
                pieces.append(text[pos:start])
                pieces.append(render_field(value, dialect, is_quoted(text[start:end], dialect)))
                pos = end
        pieces.append(text[pos:])
        return "".join(pieces)

    def _extended(self, batch: RecordBatch, rendered: list[list[str | None]]) -> str:
        text, dialect, delimiter = batch.text, self._dialect, self._dialect.delimiter
        pieces: list[str] = []
        pos = 0
        if batch.header_end is not None:
            pieces += [text[: batch.header_end], self._added_header]
            pos = batch.header_end
        for row in batch.rows:
            pieces.append(text[pos : row.end])
            for k, (cell, (start, end)) in enumerate(zip(row.cells, row.spans)):
                value = rendered[k][cell] if cell >= 0 else None
                raw = text[start:end]
                pieces.append(
                    delimiter
                    + (raw if value is None else render_field(value, dialect, is_quoted(raw, dialect)))
                )
            pos = row.end
        pieces.append(text[pos:])
        return "".join(pieces)
