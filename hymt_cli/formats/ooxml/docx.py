"""Word documents (.docx, .docm and their templates): every part a reader sees, translated.

Read: the body, headers and footers, footnotes and endnotes, comments (unless
`--no-comments`), text boxes (both copies), SmartArt (its data, and its cached drawing made
the same), charts (titles, series names, categories). styles.xml and settings.xml only say the
target language (and, for an East-Asian target, the default East-Asian font). Never changed:
deleted and moved-from text of tracked changes, field codes, bookmarks, hyperlink targets,
equations, macros (`vbaProject.bin` is copied as it was), every other member.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..package import (
    BlockHandler,
    PackageError,
    PackagePlan,
    PieceScanner,
    PlannedPart,
    XmlScanner,
    ZipArchive,
)
from ._dialects import NAMESPACES
from ._drawing import ChartHandler, ShapeHandler
from ._office_format import OfficeFormat, numbered
from ._opc import Opc, local, parse_xml
from ._word import LanguageHandler, WordHandler

_WORD = "officedocument.wordprocessingml"
_PLACES = {
    f"{_WORD}.header+xml": "header",
    f"{_WORD}.footer+xml": "footer",
    f"{_WORD}.footnotes+xml": "footnote",
    f"{_WORD}.endnotes+xml": "endnote",
    f"{_WORD}.comments+xml": "comment",
}
_CHART = "drawingml.chart+xml"
_DIAGRAM_DATA = "drawingml.diagramData+xml"
_DIAGRAM_DRAWING = "drawingml.diagramDrawing+xml"


def is_main_document(content_type: str) -> bool:
    kind = content_type.lower()
    return kind.endswith(".main+xml") and ("wordprocessingml" in kind or "ms-word" in kind)


def heading_styles(archive: ZipArchive, opc: Opc) -> dict[str, str]:
    """Paragraph style id -> "heading N" (a style named "heading N", or with an outline level)
    or "document title" (the style named "Title"), from styles.xml."""
    found: dict[str, str] = {}
    for name in opc.parts(f"{_WORD}.styles+xml"):
        root = parse_xml(archive, name)
        for style in root.iter() if root is not None else ():
            if local(style.tag) != "style":
                continue
            sid = next((v for k, v in style.attrib.items() if local(k) == "styleId"), "")
            named = next(
                (v for c in style if local(c.tag) == "name" for k, v in c.attrib.items()), ""
            ).lower()
            level = next(
                (v for c in style.iter() if local(c.tag) == "outlineLvl" for k, v in c.attrib.items()), ""
            )
            if named == "title":
                found[sid] = "document title"
            elif re.fullmatch(r"heading [1-9]", named):
                found[sid] = named
            elif level.isdigit() and int(level) < 9:
                found[sid] = f"heading {int(level) + 1}"
    return found


class DocxFormat(OfficeFormat):
    name = "docx"
    suffixes = (".docx", ".docm", ".dotx", ".dotm")

    def plan(self, archive: ZipArchive) -> PackagePlan:
        opc = Opc(archive)
        main = [e.name for e in archive.entries if is_main_document(opc.content_type(e.name))]
        if not main:
            raise PackageError("is no Word document (its package has no main document part)")
        headings = heading_styles(archive, opc)
        parts: list[PlannedPart] = []
        drawings: list[PlannedPart] = []
        for entry in sorted(archive.entries, key=lambda e: e.offset):
            kind = opc.content_type(entry.name)
            handler = self._handler(entry.name, kind, main, headings)
            if handler is None:
                continue
            planned = PlannedPart(entry, _scanner(handler))
            # A SmartArt drawing takes its data's translations: read after every data part.
            (drawings if kind.endswith(_DIAGRAM_DRAWING) else parts).append(planned)
        return PackagePlan(parts + drawings)

    def _handler(
        self, name: str, kind: str, main: list[str], headings: dict[str, str]
    ) -> Callable[[], BlockHandler] | None:
        if name in main:
            return lambda: WordHandler("body", headings)
        for suffix, place in _PLACES.items():
            if kind.endswith(suffix):
                if place == "comment" and not self.options.comments:
                    return None
                return lambda: WordHandler(place)
        if kind.endswith(f"{_WORD}.styles+xml"):
            return lambda: LanguageHandler(styles=True)
        if kind.endswith(f"{_WORD}.settings+xml"):
            return lambda: LanguageHandler(styles=False)
        if kind.endswith(_CHART):
            return lambda: ChartHandler(numbered(name, "chart"))
        if kind.endswith(_DIAGRAM_DATA):
            return lambda: ShapeHandler("SmartArt", frozenset({"dgm:pt"}))
        if kind.endswith(_DIAGRAM_DRAWING):
            return lambda: ShapeHandler("SmartArt drawing", frozenset({"dsp:sp"}))
        return None


def _scanner(handler: Callable[[], BlockHandler]) -> Callable[[], PieceScanner]:
    return lambda: XmlScanner(handler(), NAMESPACES)
