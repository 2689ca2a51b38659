"""An ODF part read a block at a time (xml_stream.BlockHandler): its paragraphs and other text as
segments, its styles as edits that say the target.

Blocks: every paragraph and heading outside another block (a body's, a header's, a table
cell's, a text box's, a chart title's, a slide's notes), the text elements of their own (a
drawing's title and description, a presentation's header and footer text), a spreadsheet's
rows (so that each cell is named: Sheet1!B4), and the styles (automatic text styles say which
spans are formatting; every style's properties say the target). Never translated: tracked
changes' deleted text, a cell whose value is no string (numbers, dates, booleans: its text is
the value displayed) or that holds a formula (its text is the formula's result), comments where
`comments` is off, and on a master page the placeholders' prompt text ("Click to add Title"),
which no slide shows. Sheet names, field values, link targets and bookmarks are markup: never
part of a segment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...text.segments import Segment
from ..document_context import NOTHING_BEFORE, surroundings_after, with_document_context
from ..package import (
    Edit,
    Node,
    Open,
    PartPiece,
    Rendering,
    Source,
    Target,
    escape_attribute,
    escape_text,
    unescape,
)
from ..package.pieces import Render
from ..spans import Located, Span, locate, segment_text, splice_translation
from ..start_tags import value_span
from ._language import style_edits
from ._names import ANNOTATIONS, CELLS, NEVER, OWN_TEXT, PARAGRAPHS
from ._paragraph import read
from ._places import column_name, joined, note_place, place_of, role_of
from ._styles import StyleBook

_STYLES = frozenset({"style:style", "style:default-style", "style:page-layout"})
_STYLE_HOLDERS = frozenset({"office:styles", "office:automatic-styles"})
_META_TEXT = {"dc:title": "document title", "dc:description": "document description"}


@dataclass(frozen=True, slots=True)
class PartRole:
    """What a part is: `kind` "content", "styles" or "meta"; `where` prefixes its places (an
    embedded object: "chart Object 1"); `comments`: annotations are translated."""

    kind: str
    where: str = ""
    comments: bool = True


class _PieceText:
    """The text of the piece being read (set when it is cut): what renders splice into."""

    __slots__ = ("text",)

    def __init__(self) -> None:
        self.text = ""


class OdfHandler:
    def __init__(self, role: PartRole) -> None:
        self.role = role
        self.styles = StyleBook()
        self._segments: list[Segment] = []
        self._labels: dict[int, str] = {}
        self._edits: list[Edit] = []
        self._text = _PieceText()
        self._slide = 0
        self._row = 0
        self._before = NOTHING_BEFORE  # the title and heading that earlier pieces ended with

    # -- which elements are blocks (also told of every element that opens outside one) --------
    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        if name == "draw:page":
            self._slide += 1
        elif name == "table:table":
            self._row = 0
        if self.role.kind == "meta":
            return name in _META_TEXT or name == "dc:language"
        if name in _STYLES:
            return bool(path) and path[-1].name in _STYLE_HOLDERS
        if not (name in PARAGRAPHS or name in OWN_TEXT or name == "table:table-row"):
            return False
        if self._left_alone(path):
            return False
        if name == "table:table-row":
            return any(o.name == "office:spreadsheet" for o in path)
        cell = next((o for o in reversed(path) if o.name in CELLS), None)
        return cell is None or not _holds_value(cell.get("office:value-type"), cell.get("table:formula"))

    def _left_alone(self, path: Sequence[Open]) -> bool:
        for open_ in path:
            if open_.name in NEVER or (open_.name in ANNOTATIONS and not self.role.comments):
                return True
            if self.role.kind == "styles" and open_.get("presentation:class") is not None:
                return True  # a master page's placeholder: its prompt text is no slide's
        return False

    # -- blocks ---------------------------------------------------------------------------------
    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        name = node.name
        if name in _STYLES:
            if path[-1].name == "office:automatic-styles":
                self.styles.record(node)
            self._edits.extend(style_edits(node))
        elif name == "dc:language":
            self._edits.append(Edit(node.inner, node.inner_end, _language_tag))
        elif name in _META_TEXT:
            self._paragraph(node, src, path, _META_TEXT[name], _META_TEXT[name])
        elif name == "table:table-row":
            self._row_cells(node, src, path)
        else:
            self._paragraph(node, src, path, joined(self.role.where, place_of(path, self._slide)))

    def _row_cells(self, row: Node, src: str, path: tuple[Open, ...]) -> None:
        sheet = next((o.get("table:name") or "" for o in reversed(path) if o.name == "table:table"), "")
        column = 0
        for cell in row.elements():
            if cell.name not in CELLS:
                continue
            place = joined(self.role.where, f"{sheet}!{column_name(column)}{self._row + 1}")
            kept = _holds_value(cell.get("office:value-type"), cell.get("table:formula"))
            if not kept:
                self._string_value(cell, src, place)
            self._visit(cell, src, path, place, paragraphs=not kept)
            column += _repeated(cell.get("table:number-columns-repeated"))
        self._row += _repeated(row.get("table:number-rows-repeated"))

    def _string_value(self, cell: Node, src: str, place: str) -> None:
        """A text cell's `office:string-value`, which LibreOffice shows instead of its paragraphs
        where a producer wrote both: translated as a segment of its own."""
        span = value_span(src, cell, "office:string-value") if "string-value" in cell.attrs_raw else None
        if span is None:
            return
        raw = src[span[0] : span[1]]
        shown = unescape(raw)
        quote = src[span[0] - 1]
        escape = escape_attribute if quote == '"' else (lambda text: escape_text(text).replace("'", "&apos;"))
        part = Span(span[0], span[1], "text", shown=None if shown == raw else shown)
        located = locate(src, [part], newline=" ", escape=escape, peel=False)
        if located is not None:
            self._add(located, src, place, "table cell")

    def _visit(
        self, node: Node, src: str, path: tuple[Open, ...], place: str, *, paragraphs: bool = True
    ) -> None:
        """The text inside an element kept whole or a cell: its paragraphs, and what they hold."""
        for child in node.elements():
            name = child.name
            if name in PARAGRAPHS or name in OWN_TEXT:
                if paragraphs:
                    self._paragraph(child, src, path, place)
            elif name in NEVER or (name in ANNOTATIONS and not self.role.comments):
                continue
            elif name in ANNOTATIONS:
                self._visit(child, src, path, joined(place, "comment"))
            elif name == "text:note":
                self._visit(child, src, path, note_place(child, src))
            elif name in CELLS:
                kept = _holds_value(child.get("office:value-type"), child.get("table:formula"))
                self._visit(child, src, path, place, paragraphs=not kept)
            else:
                self._visit(child, src, path, place)

    def _paragraph(self, node: Node, src: str, path: tuple[Open, ...], place: str, role: str = "") -> None:
        inline = read(node, src, self.styles)
        if inline.located is not None:
            self._add(inline.located, src, place, role or role_of(node, path))
        for nested in inline.nested:
            if nested.name in ANNOTATIONS:
                if self.role.comments:
                    self._visit(nested, src, path, joined(place, "comment"))
            elif nested.name == "text:note":
                self._visit(nested, src, path, joined(self.role.where, note_place(nested, src)))
            else:
                self._visit(nested, src, path, place if "text box" in place else joined(place, "text box"))

    def _add(self, located: Located, src: str, place: str, role: str) -> None:
        sid = len(self._segments)
        self._segments.append(Segment(sid, segment_text(src, located), role=role))
        if place:
            self._labels[sid] = place
        self._edits.append(Edit(located.start, located.end, _spliced(sid, located, self._text)))

    def piece(self, text: str) -> PartPiece:
        self._text.text = text
        segments = with_document_context(self._segments, self._before)
        self._before = surroundings_after(segments, self._before)
        piece = PartPiece(text, segments, self._labels, {}, self._edits)
        self._segments, self._labels, self._edits, self._text = [], {}, [], _PieceText()
        return piece


def _spliced(sid: int, located: Located, text: _PieceText) -> Render:
    def render(context: Rendering, source: Source) -> str | None:
        answer = context.translated.get(sid)
        if answer is None:
            return None
        return splice_translation(text.text, located, answer, source)

    return render


def _language_tag(context: Rendering, source: Source) -> str | None:
    target: Target | None = context.target
    return None if target is None else target.tag


def _holds_value(value_type: str | None, formula: str | None) -> bool:
    """A cell whose text is its value displayed (a number, a date) or a formula's result."""
    return formula is not None or (value_type is not None and value_type != "string")


def _repeated(value: str | None) -> int:
    try:
        return max(1, int(value or "1"))
    except ValueError:
        return 1
