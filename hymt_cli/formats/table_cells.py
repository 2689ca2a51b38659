"""What every table format shares (Parquet, CSV/TSV, JSON Lines).

A table is read a batch of rows at a time; the batch is one unit. Its segments are the
unique values of the selected columns in that batch, each weighted by the rows holding it
(the pipeline's memory and dedupe do the rest). A value spanning several lines, or any
value under a markup `cell_format`, is parsed by that document format and its segments go
out instead. Here: the options, the checks of `--columns`, the planning of a batch's cells
into segments, the text a translated cell gets, and the names of added columns.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import ClassVar, Literal, Protocol, get_args

from ..options import Options, Panel, option
from ..text.segments import Segment
from .base import FormatError, ParsedDocument, Unit
from .row_context import needs_context
from .text import fit_line_breaks

# A table's first batches are small and grow 4x up to `rows_per_batch` (256, 1024, 4096, ...
# rows): its first rows reach an engine that is running already (the pipeline sends a window's
# first requests while it reads the rest) a fraction of a second after the table is opened, not
# once thousands of HTML cells have been parsed (2-3 s for 8,192 catalog descriptions).
FIRST_BATCH_ROWS = 256


def batch_sizes(rows_per_batch: int) -> Iterator[int]:
    """The rows of each batch of a table, in order (FIRST_BATCH_ROWS)."""
    size = max(1, min(FIRST_BATCH_ROWS, rows_per_batch))
    while True:
        yield size
        size = min(rows_per_batch, size * 4)


# The document formats a table cell can be parsed as (--cell-format); declared once, here.
CellFormat = Literal["txt", "md", "html"]


def text_format_names() -> tuple[str, ...]:
    """The formats a table cell can be parsed as (--cell-format)."""
    return get_args(CellFormat)


@dataclass(frozen=True, slots=True)
class TableOptions(Options):
    """The options every table format takes (Parquet, CSV, TSV, JSON Lines)."""

    columns: tuple[str, ...] = option(
        (),
        "--columns",
        metavar="NAMES",
        comma_list=True,
        panel=Panel.FORMATS,
        common=True,
        help="Tables: the columns to translate, comma-separated (JSON Lines: a.b inside an object).",
    )
    context_columns: tuple[str, ...] = option(
        (),
        "--context-columns",
        metavar="NAMES",
        comma_list=True,
        panel=Panel.FORMATS,
        help="Tables: columns that tell the model what a row is about (never translated).",
    )
    add_columns: bool = option(
        False,
        "--add-columns",
        off_flag="--replace-columns",
        panel=Panel.FORMATS,
        help="Tables: keep the source columns, add <column>_<lang>.",
    )
    cell_format: CellFormat = option(
        "txt", "--cell-format", panel=Panel.FORMATS, help="Tables: how a cell is parsed."
    )
    rows_per_batch: int = option(
        8192,
        "--rows-per-batch",
        metavar="N",
        minimum=1,
        panel=Panel.FORMATS,
        shapes_output=False,
        help="Tables: rows read, translated and written at a time.",
    )


ParquetOptions = TableOptions  # its name in parquet.py and formats/__init__.py


@dataclass(frozen=True, slots=True)
class TableCell:
    """One unique value of a column in a batch: its unit segment ids, and its parse when the
    value was split by the cell format (None: the whole value is segment `ids[0]`)."""

    value: str
    ids: tuple[int, ...]
    parsed: ParsedDocument | None


class CellParser(Protocol):
    """What a table asks of the format its cells are parsed with: a document format (txt, md,
    html), or a table's own (a Magento dictionary's phrases)."""

    name: ClassVar[str]

    def parse(self, text: str) -> ParsedDocument: ...


class CellPlanner:
    """A batch's segments, built column by column from the column's unique values."""

    def __init__(self, cell_format: CellParser) -> None:
        self._format = cell_format
        self.segments: list[Segment] = []
        self.weights: dict[int, int] = {}
        self.labels = CellLabels()

    def add(
        self, column: str, values: Iterable[tuple[str, int]], contexts: Iterable[str] | None = None
    ) -> tuple[TableCell, ...]:
        """Plan (value, rows holding it) pairs of `column`, each told its context (row_context)
        where `contexts` gives them; return their cells in that order."""
        cells = []
        role = f"column {column}"
        segments, weights, labels = self.segments, self.weights, self.labels
        for (value, count), context in zip(values, repeat("") if contexts is None else contexts):
            parts = self._split(value)
            start = len(segments)
            labels.add(start, column, value)
            if parts is None:
                segments.append(Segment(start, value, context, role))
                weights[start] = count
                cells.append(TableCell(value, (start,), None))
                continue
            for offset, part in enumerate(parts.segments):  # a markup cell: and where it sits there
                segments.append(
                    Segment(
                        start + offset,
                        part.text,
                        context,
                        f"{role} \u00b7 {part.role}" if part.role else role,
                    )
                )
                weights[start + offset] = count
            cells.append(TableCell(value, tuple(range(start, len(segments))), parts))
        return tuple(cells)

    def unit(self, index: int, content: object, warning: str = "") -> Unit:
        self.labels.size = len(self.segments)
        return Unit(index, self.segments, content, self.weights, self.labels, warning=warning)

    def _split(self, value: str) -> ParsedDocument | None:
        """The cell format's parse of a value, or None where the whole value is one segment
        (one line of plain text: the common case, and much faster)."""
        if self._format.name == "txt" and "\n" not in value and "\r" not in value:
            return None
        return self._format.parse(value)


class ContextCells:
    """A column's distinct (value, context) pairs in a batch, in order of first occurrence, and
    how many rows hold each: the cells of a column whose rows are told a context (row_context).
    A value without a letter never goes to the model: it is one cell whatever the context."""

    __slots__ = ("_cells", "_counts")

    def __init__(self) -> None:
        self._cells: dict[tuple[str, str], int] = {}
        self._counts: list[int] = []

    def cell(self, value: str, context: str) -> int:
        """The cell of `value` in a row whose context (for this column) is `context`."""
        key = (value, context if needs_context(value) else "")
        cell = self._cells.get(key)
        if cell is None:
            cell = self._cells[key] = len(self._counts)
            self._counts.append(1)
        else:
            self._counts[cell] += 1
        return cell

    def plan(self, planner: CellPlanner, column: str) -> tuple[TableCell, ...]:
        pairs = self._cells
        return planner.add(
            column, ((value, n) for (value, _), n in zip(pairs, self._counts)), (c for _, c in pairs)
        )


class CellLabels(Mapping[int, str]):
    """How a report names a segment (`column 'title', value 'Red shirt'`), made when asked: a
    batch has many segments and a report names few of them."""

    def __init__(self) -> None:
        self._starts: list[int] = []  # the first segment id of each cell, ascending
        self._cells: list[tuple[str, str]] = []  # its column and value
        self.size = 0  # segment ids are 0 .. size-1

    def add(self, first_id: int, column: str, value: str) -> None:
        self._starts.append(first_id)
        self._cells.append((column, value))

    def __getitem__(self, segment_id: int) -> str:
        at = bisect_right(self._starts, segment_id) - 1
        if at < 0 or segment_id >= self.size:
            raise KeyError(segment_id)
        column, value = self._cells[at]
        return f"column {column!r}, value {_preview(value)}"

    def __iter__(self) -> Iterator[int]:
        return iter(range(self.size))

    def __len__(self) -> int:
        return self.size


def rendered_cell(cell: TableCell, translated: Mapping[int, str]) -> str | None:
    """The cell's translated text, or None where nothing of it was translated or the translation
    is the source's value (then the source is kept as written). A one-line value stays one
    line; a parsed value is spliced by its format."""
    if cell.parsed is None:
        text = translated.get(cell.ids[0])
        text = None if text is None else fit_line_breaks(cell.value, text)
    else:
        local = {s.id: translated[i] for s, i in zip(cell.parsed.segments, cell.ids) if i in translated}
        text = cell.parsed.reassemble(local) if local else None
    return None if text == cell.value else text


def column_listing(kind: str, names: Sequence[str]) -> str:
    """`kind: a, b, c` for error messages (`(none)` when empty; long lists cut)."""
    # (a name with spaces at its ends, or none, is shown quoted: `'title '`, `''`)
    written = [name if name and name == name.strip() else repr(name) for name in names[:40]]
    shown = ", ".join(written) + (f", … ({len(names)} in all)" if len(names) > 40 else "")
    return f"{kind}: {shown if names else '(none)'}"


def selected_columns(
    format_name: str, wanted: Sequence[str], available: Sequence[str], listing: str
) -> list[str]:
    """The `--columns` asked for, each once, in order; FormatError when none is asked for or one
    is missing (the message lists what there is)."""
    if not wanted:
        raise FormatError(f"{format_name} needs --columns; {listing}")
    present = set(available)
    for name in wanted:
        if name not in present:
            raise FormatError(f"no column {name!r}; {listing}")
    return list(dict.fromkeys(wanted))


def added_column(column: str, target_language: str) -> str:
    """The name of the column `--add-columns` adds for `column` in a target language."""
    return f"{column}_{target_language}"


def added_columns(existing: Iterable[str], columns: Sequence[str], target_language: str) -> list[str]:
    """The added columns' names; FormatError when one of them is a column already."""
    taken = set(existing)
    names = [added_column(name, target_language) for name in columns]
    for name in names:
        if name in taken:
            raise FormatError(f"column {name!r} exists already (--add-columns)")
    return names


def _preview(value: str, limit: int = 40) -> str:
    return repr(value if len(value) <= limit else value[:limit] + "…")
