"""JSON Lines (`.jsonl`, `.ndjson`): the fields named by `--columns` translated, every other
byte kept.

Read a batch of lines at a time (a unit: the lines' exact text and the strings of the
selected fields, fields.py); the unit's segments are the unique values of each field in the
batch (table_cells). The writer splices each translated string into the line, escaped the
way the line writes its strings (jsontext.JsonStyle), so key order, spacing and every other
value stay as written. With `add_columns` a member `<key>_<lang>` is added right after each
selected member, written with the line's own separator and colon. Blank lines are kept.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import BinaryIO, ClassVar

from ..base import READ_SIZES, DocumentFormat, FormatError, InputSource, ReadSizes, Unit
from ..decoded_stream import LineReader, TextStream
from ..jsontext import JsonStyle, encode_string
from ..row_context import NO_CONTEXT, ContextColumns, ContextMode, RowContext, title_column
from ..table_cells import (
    CellPlanner,
    ContextCells,
    TableCell,
    TableOptions,
    added_column,
    batch_sizes,
    column_listing,
    rendered_cell,
)
from .fields import LineFields, Member, field_names, line_fields, string_fields

BATCH_CHARS = 8 << 20  # a batch also ends at this much text, whatever its number of lines


@dataclass(frozen=True, slots=True)
class Occurrence:
    """A string to translate in the batch's text: its span (quotes included), its field's
    index among the selected fields, its cell, and its line's string style."""

    start: int
    end: int
    column: int
    cell: int
    style: JsonStyle


@dataclass(frozen=True, slots=True)
class LineBatch:
    text: str
    occurrences: list[Occurrence]
    members: list[tuple[Member, JsonStyle]]
    columns: tuple[tuple[TableCell, ...], ...]


class JsonLinesFormat:
    name: ClassVar[str] = "jsonl"
    suffixes: ClassVar[tuple[str, ...]] = (".jsonl", ".ndjson")

    catalog: None = None  # no file of strings (formats/base.Catalog)

    def __init__(
        self, table: TableOptions, cell_format: DocumentFormat, context: ContextMode = "auto"
    ) -> None:
        self.table = table
        self.cell_format = cell_format
        self.context = ContextColumns.of(table.context_columns, context)

    def open(self, source: InputSource, sizes: ReadSizes = READ_SIZES) -> JsonLinesReader:
        return JsonLinesReader(self.table, self.cell_format, source, self.context)


class JsonLinesReader:
    # Capabilities it lacks (formats/base.InputReader): no target merged into, no legacy encoding.
    merge: None = None
    encoded: None = None

    def __init__(
        self,
        table: TableOptions,
        cell_format: DocumentFormat,
        source: InputSource,
        context: ContextColumns = NO_CONTEXT,
    ) -> None:
        self._table = table
        self._cell_format = cell_format
        self._source = source
        self._stream: TextStream | None = None
        self._fields = list(dict.fromkeys(table.columns))
        self._first: str | None = None  # the first line that is not blank (for error messages)
        self._context = context
        # The context fields (row_context): those named, or the first line's title field.
        self._row_context: RowContext | None = (
            RowContext(context.named, self._fields) if context.named else None
        )

    def units(self) -> Iterator[Unit]:
        if not self._fields:
            raise FormatError(
                "jsonl needs --columns: the fields to translate (a.b for a field inside an object)"
            )
        try:
            self._stream = TextStream(self._source.open_binary())
            lines = LineReader(self._stream)
        except OSError as exc:
            raise FormatError(f"cannot read: {exc.strerror or exc}") from None
        wanted = frozenset(self._fields)
        seen: set[str] = set()
        batch: list[LineFields] = []
        index = 0
        sizes = batch_sizes(self._table.rows_per_batch)  # the first batches smaller
        limit = next(sizes)
        while True:
            span = lines.next_line()
            if span is not None:
                start, end = span
                text = lines.text
                if text[start:end].strip(" \t\r\ufeff"):
                    if self._first is None:
                        self._first = text[start:end]
                        self._title_context(self._first)
                    told = self._row_context.names if self._row_context is not None else ()
                    try:
                        found = line_fields(text, start, end, wanted, self._table.add_columns, told)
                    except FormatError as exc:
                        raise FormatError(f"line {lines.line}, {exc}") from None
                    seen |= found.seen
                    batch.append(found)
                if len(batch) < limit and lines.position < BATCH_CHARS:
                    continue
            if lines.position > 0 or index == 0:
                yield self._unit(index, lines, batch)
                index += 1
                batch = []
                limit = next(sizes)
            if span is None:
                break
        if self._first is None:
            return
        missing = [name for name in self._fields if name not in seen]
        if missing:
            raise FormatError(f"no line has the field {missing[0]!r}; {self._listing()}")
        missing = [name for name in self._context.named if name not in seen]
        if missing:
            raise FormatError(
                f"no line has the context field {missing[0]!r} (--context-columns); {self._listing()}"
            )

    def _listing(self) -> str:
        assert self._first is not None
        return column_listing("fields of the first line", field_names(self._first))

    def _title_context(self, first_line: str) -> None:
        """With --context on and no --context-columns: the first line's title field, where it
        holds text."""
        if self._context.title:
            title = title_column(string_fields(first_line))
            self._row_context = RowContext((title,), self._fields) if title is not None else None

    def writer(self, target_language: str, out: BinaryIO) -> JsonLinesWriter:
        assert self._stream is not None
        return JsonLinesWriter(out, self._stream, target_language, self._table.add_columns)

    def _unit(self, index: int, lines: LineReader, batch: list[LineFields]) -> Unit:
        text = lines.text[: lines.position]
        lines.release()
        if self._row_context is not None:
            return self._unit_in_context(index, text, batch, self._row_context)
        column_of = {name: k for k, name in enumerate(self._fields)}
        lookups: list[dict[str, int]] = [{} for _ in self._fields]
        counts: list[list[int]] = [[] for _ in self._fields]
        occurrences = []
        members = []
        for found in batch:
            for item in found.found:
                k = column_of[item.name]
                cell = lookups[k].setdefault(item.value, len(lookups[k]))
                if cell == len(counts[k]):
                    counts[k].append(0)
                counts[k][cell] += 1
                occurrences.append(Occurrence(item.start, item.end, k, cell, found.style))
            members += [(member, found.style) for member in found.members]
        planner = CellPlanner(self._cell_format)
        columns = tuple(
            planner.add(name, zip(lookup, count))
            for name, lookup, count in zip(self._fields, lookups, counts)
        )
        return planner.unit(index, LineBatch(text, occurrences, members, columns))

    def _unit_in_context(self, index: int, text: str, batch: list[LineFields], context: RowContext) -> Unit:
        """A cell per distinct (value, its line's context) pair of a field."""
        column_of = {name: k for k, name in enumerate(self._fields)}
        pairs = [ContextCells() for _ in self._fields]
        variant = context.variant
        occurrences = []
        members = []
        for found in batch:
            if found.found:
                told = found.told or {}
                texts = context.texts([told.get(name) for name in context.names])
                for item in found.found:
                    k = column_of[item.name]
                    cell = pairs[k].cell(item.value, texts[variant[k]])
                    occurrences.append(Occurrence(item.start, item.end, k, cell, found.style))
            members += [(member, found.style) for member in found.members]
        planner = CellPlanner(self._cell_format)
        columns = tuple(cells.plan(planner, name) for cells, name in zip(pairs, self._fields))
        return planner.unit(index, LineBatch(text, occurrences, members, columns))


class JsonLinesWriter:
    """One output: each batch's lines with the translated strings spliced in."""

    recorded: None = None  # (no record key by key: formats/base.UnitWriter)

    def __init__(self, out: BinaryIO, stream: TextStream, target_language: str, add_columns: bool) -> None:
        self._out = out
        self._stream = stream
        self._lang = target_language
        self._add = add_columns

    def write(self, unit: Unit, translated: Mapping[int, str]) -> None:
        batch = unit.content
        assert isinstance(batch, LineBatch)
        rendered = [[rendered_cell(cell, translated) for cell in cells] for cells in batch.columns]
        text = (
            self._extended(batch, rendered)
            if self._add
            else _spliced(batch, rendered, 0, len(batch.text), 0)[0]
        )
        self._out.write(self._stream.encode(text))

    def close(self) -> None:
        pass

    def _extended(self, batch: LineBatch, rendered: list[list[str | None]]) -> str:
        text = batch.text
        pieces: list[str] = []
        pos = 0
        first = 0  # the first occurrence not written yet
        for member, style in batch.members:
            key = added_column(member.key, self._lang)
            if key in member.siblings:
                raise FormatError(f"field {key!r} exists already (--add-columns)")
            pieces.append(text[pos : member.end])
            value, first = _spliced(batch, rendered, member.start, member.end, first)
            pieces.append(f'{member.separator}"{encode_string(key, style)}"{member.colon}{value}')
            pos = member.end
        pieces.append(text[pos:])
        return "".join(pieces)


def _spliced(
    batch: LineBatch, rendered: list[list[str | None]], start: int, end: int, first: int
) -> tuple[str, int]:
    """text[start:end] with the translated strings in it replaced; and the index of the first
    occurrence after `end`."""
    text, occurrences = batch.text, batch.occurrences
    pieces: list[str] = []
    pos = start
    i = first
    while i < len(occurrences) and occurrences[i].start < end:
        occurrence = occurrences[i]
        i += 1
        if occurrence.start < start:
            continue
        value = rendered[occurrence.column][occurrence.cell]
        if value is None:
            continue
        pieces += [text[pos : occurrence.start], '"', encode_string(value, occurrence.style), '"']
        pos = occurrence.end
    pieces.append(text[pos:end])
    return "".join(pieces), i
