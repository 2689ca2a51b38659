"""Excel workbooks (.xlsx, .xlsm and templates): shared and inline strings, comments, drawings.

Read: the shared strings (plain and rich text, a piece at a time: a workbook of millions of
strings streams in bounded memory), the inline strings of sheets that have any, cell comments
(unless `--no-comments`) and threaded comments, the text of shapes in sheet drawings, charts.
Each segment names its place as `Sheet1!B4` (a shared string: the first cell that shows it).
Never changed: sheet names, defined names, formulas and their cached results, numbers, dates,
booleans and errors in cells (a sheet without inline strings is copied as it was), and the
header cells of tables (a table's column names must stay the text of its header cells, and
formulas refer to columns by name), the macros of a .xlsm.

Before reading, the sheets are scanned as bytes (never parsed) for the first cell that shows
each shared string, the tables' header cells, and whether they hold inline strings.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field

from ..package import (
    BlockHandler,
    Node,
    Open,
    PackageError,
    PackagePlan,
    PartPiece,
    PieceScanner,
    PlannedPart,
    Target,
    XmlScanner,
    ZipArchive,
)
from ._collector import Collector
from ._dialects import NAMESPACES, SHEET
from ._drawing import ChartHandler, ShapeHandler
from ._office_format import OfficeFormat, numbered
from ._opc import Opc, local, parse_xml

_SHEETML = "officedocument.spreadsheetml"
# A cell showing a shared string (its attributes, its index); number cells are passed over in C.
_SHARED_CELL = re.compile(
    rb"""<(?:\w+:)?c\b([^>]*?\bt\s*=\s*["']s["'][^>]*)>\s*<(?:\w+:)?v>\s*([0-9]+)\s*</"""
)
_REF = re.compile(rb"""\br\s*=\s*["']([A-Z]+)([0-9]+)["']""")
_INLINE = re.compile(rb"<(?:\w+:)?is>")


def is_workbook(content_type: str) -> bool:
    kind = content_type.lower()
    return kind.endswith(".main+xml") and ("spreadsheetml" in kind or "ms-excel" in kind)


class FirstCells:
    """The first cell that shows each shared string: one 64-bit number per string (a workbook of
    millions of strings keeps this in megabytes, not in a dictionary of texts)."""

    def __init__(self) -> None:
        self._cells = array("q")

    def note(self, index: int, sheet: int, column: bytes, row: int) -> None:
        cells = self._cells
        if index >= len(cells):
            cells.extend(array("q", [-1]) * max(index + 1 - len(cells), len(cells)))
        if cells[index] < 0:
            cells[index] = (sheet << 48) | (row << 16) | _column(column.decode())

    def label(self, index: int, names: list[str]) -> str:
        cell = self._cells[index] if index < len(self._cells) else -1
        if cell < 0:
            return f"shared string {index + 1}"
        return f"{names[cell >> 48]}!{_letters(cell & 0xFFFF)}{(cell >> 16) & 0xFFFFFFFF}"


def scan_sheet(
    archive: ZipArchive, name: str, sheet: int, first: FirstCells, headers: set[str], kept: set[int]
) -> bool:
    """Scan a sheet's cells as bytes, a row at a time: note the first cell of each shared string
    (`sheet`: the sheet's number), the shared strings of `headers` (cells never translated) in
    `kept`; whether the sheet holds inline strings."""
    entry = archive.entry(name)
    if entry is None:
        return False
    inline = False
    held = b""
    for chunk in archive.chunks(entry):
        held += chunk
        cut = _after_last_row(held)
        if cut:
            inline = _cells(held[:cut], sheet, first, headers, kept) or inline
            held = held[cut:]
    return _cells(held, sheet, first, headers, kept) or inline


def _after_last_row(data: bytes) -> int:
    """The offset after the last `</row>` (any prefix) in `data`; 0 where there is none."""
    at = len(data)
    while (at := data.rfind(b"row>", 0, at)) >= 0:
        start = data.rfind(b"<", 0, at)
        if start >= 0 and data[start + 1 : start + 2] == b"/" and b">" not in data[start:at]:
            return at + 4
    return 0


def _cells(data: bytes, sheet: int, first: FirstCells, headers: set[str], kept: set[int]) -> bool:
    for cell in _SHARED_CELL.finditer(data):
        ref = _REF.search(cell.group(1))
        if ref is None:
            continue
        index = int(cell.group(2))
        first.note(index, sheet, ref.group(1), int(ref.group(2)))
        if headers and (ref.group(1) + ref.group(2)).decode() in headers:
            kept.add(index)
    return _INLINE.search(data) is not None


def header_cells(ref: str, rows: int) -> set[str]:
    """The cells of a table's header rows (`A1:D10`, 1 -> A1, B1, C1, D1)."""
    found = re.fullmatch(r"\$?([A-Z]+)\$?([0-9]+)(?::\$?([A-Z]+)\$?([0-9]+))?", ref)
    if found is None or rows <= 0:
        return set()
    first, top, last = _column(found.group(1)), int(found.group(2)), _column(found.group(3) or found.group(1))
    return {f"{_letters(c)}{r}" for c in range(first, last + 1) for r in range(top, top + rows)}


def _column(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def _letters(n: int) -> str:
    out = ""
    while n:
        n, rest = divmod(n - 1, 26)
        out = chr(65 + rest) + out
    return out


class SharedStrings:
    """The shared strings (`si`): one segment each, but those the table headers show."""

    def __init__(self, labels: Callable[[int], str], kept: set[int]) -> None:
        self._labels = labels
        self._kept = kept
        self._index = 0
        self._collector = Collector()

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        return name == "x:si"

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        index, self._index = self._index, self._index + 1
        if index not in self._kept:
            self._collector.paragraph(node, src, SHEET, _unchanged, self._labels(index))

    def piece(self, text: str) -> PartPiece:
        return self._collector.piece(text)


class SheetStrings:
    """A sheet's inline strings (`c/is`) and its cells' places; table header cells are kept."""

    def __init__(self, sheet: str, kept: set[str]) -> None:
        self._sheet = sheet
        self._kept = kept
        self._collector = Collector()

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        return name == "x:is" and bool(path) and path[-1].name == "x:c"

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        ref = path[-1].get("r") or ""
        if ref not in self._kept:
            self._collector.paragraph(node, src, SHEET, _unchanged, f"{self._sheet}!{ref}")

    def piece(self, text: str) -> PartPiece:
        return self._collector.piece(text)


class CellComments:
    """A sheet's comments: legacy (`comment/text`, rich text) and threaded (`threadedComment/text`)."""

    def __init__(self, sheet: str) -> None:
        self._sheet = sheet
        self._collector = Collector()

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        return name in ("x:comment", "tc:threadedComment")

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        label = f"{self._sheet}!{node.get('ref') or ''} comment"
        if node.name == "x:comment":
            text = node.child("x:text")
            if text is not None:
                self._collector.paragraph(text, src, SHEET, _unchanged, label)
        else:
            text = node.child("tc:text")
            if text is not None:
                self._collector.value(text, src, label)

    def piece(self, text: str) -> PartPiece:
        return self._collector.piece(text)


def _unchanged(target: Target | None, prefix: str) -> Callable[[str | None], str | None]:
    return lambda props: props


@dataclass(slots=True)
class Workbook:
    """The sheets by part name: their names, what their bytes say, their related parts."""

    names: dict[str, str] = field(default_factory=dict)  # sheet part -> sheet name
    inline: set[str] = field(default_factory=set)  # sheet parts that hold inline strings
    headers: dict[str, set[str]] = field(default_factory=dict)  # sheet part -> table header cells
    owners: dict[str, str] = field(default_factory=dict)  # a comments/drawing part -> its sheet's name
    first: FirstCells = field(default_factory=FirstCells)
    kept: set[int] = field(default_factory=set)  # shared strings a table's header cell shows

    def first_cell(self, index: int) -> str:
        return self.first.label(index, list(self.names.values()))


def read_workbook(archive: ZipArchive, opc: Opc, main: str) -> Workbook:
    book = Workbook()
    root = parse_xml(archive, main)
    relations = {r.id: r.target for r in opc.relationships(main)}
    for node in root.iter() if root is not None else ():
        if local(node.tag) == "sheet":
            rid = next((v for k, v in node.attrib.items() if local(k) == "id"), "")
            part = relations.get(rid)
            if part is not None:
                book.names[part] = node.get("name", part)
    for part, name in book.names.items():
        headers: set[str] = set()
        for table in opc.related(part, "table"):
            element = parse_xml(archive, table)
            if element is not None:
                headers |= header_cells(element.get("ref", ""), int(element.get("headerRowCount", "1") or 0))
        book.headers[part] = headers
        if scan_sheet(archive, part, len(book.headers) - 1, book.first, headers, book.kept):
            book.inline.add(part)
        for kind in ("comments", "threadedComment", "drawing"):
            for related in opc.related(part, kind):
                book.owners[related] = name
    return book


class XlsxFormat(OfficeFormat):
    name = "xlsx"
    suffixes = (".xlsx", ".xlsm", ".xltx", ".xltm")

    def plan(self, archive: ZipArchive) -> PackagePlan:
        opc = Opc(archive)
        main = next((e.name for e in archive.entries if is_workbook(opc.content_type(e.name))), None)
        if main is None:
            raise PackageError("is no Excel workbook (its package has no workbook part)")
        book = read_workbook(archive, opc, main)
        parts: list[PlannedPart] = []
        for entry in sorted(archive.entries, key=lambda e: e.offset):
            handler = self._handler(entry.name, opc.content_type(entry.name), book)
            if handler is not None:
                parts.append(PlannedPart(entry, _scanner(handler)))
        return PackagePlan(parts)

    def _handler(self, name: str, kind: str, book: Workbook) -> Callable[[], BlockHandler] | None:
        owner = book.owners.get(name, "")
        if kind.endswith(f"{_SHEETML}.sharedStrings+xml"):
            return lambda: SharedStrings(book.first_cell, book.kept)
        if kind.endswith(f"{_SHEETML}.worksheet+xml"):
            if name not in book.inline:
                return None  # nothing to translate: copied as it was
            return lambda: SheetStrings(book.names.get(name, name), book.headers.get(name, set()))
        if kind.endswith((f"{_SHEETML}.comments+xml", "threadedcomments+xml")):
            return (lambda: CellComments(owner)) if self.options.comments else None
        if kind.endswith("officedocument.drawing+xml"):
            place = f"{owner} drawing" if owner else "drawing"
            return lambda: ShapeHandler(place, frozenset({"xdr:sp"}))
        if kind.endswith("drawingml.chart+xml"):
            return lambda: ChartHandler(numbered(name, "chart"))
        return None


def _scanner(handler: Callable[[], BlockHandler]) -> Callable[[], PieceScanner]:
    return lambda: XmlScanner(handler(), NAMESPACES)
