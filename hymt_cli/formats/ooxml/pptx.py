"""PowerPoint presentations (.pptx, .pptm, .ppsx, templates): slides and what slides show.

Read: every slide's shapes, tables and group shapes, its speaker notes, its comments (unless
`--no-comments`), SmartArt (data and cached drawing made the same), charts; the layouts' and
masters' own shapes (not their placeholders' prompts) where a slide shows them (a slide or
layout with `showMasterSp="0"` hides its master's). Each segment names its place: "slide 3",
"slide 3 notes", "slide 3 comment", "layout 2", "master 1". A shape that does not fit its text
to its box gets a font scale for text that grew (_drawing.py). Never changed: hyperlink targets,
fields (slide numbers, dates), macros of a .pptm, every other member.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..package import (
    BlockHandler,
    Node,
    Open,
    PackageError,
    PackagePlan,
    PartPiece,
    PieceScanner,
    PlannedPart,
    XmlScanner,
    ZipArchive,
)
from ._collector import Collector
from ._dialects import DRAWING, NAMESPACES
from ._drawing import ChartHandler, ShapeHandler
from ._languages import drawing_adapt
from ._office_format import OfficeFormat, numbered
from ._opc import Opc, local, parse_xml
from ._word import paragraphs

_PML = "officedocument.presentationml"
_SHAPES = frozenset({"p:sp", "p:graphicFrame"})
_HIDES_MASTER = re.compile(rb"""<(?:\w+:)?(?:sld|sldLayout)\b[^>]*\bshowMasterSp\s*=\s*["'](?:0|false)["']""")


def is_presentation(content_type: str) -> bool:
    kind = content_type.lower()
    return kind.endswith(".main+xml") and ("presentationml" in kind or "ms-powerpoint" in kind)


class SlideComments:
    """A slide's comments: legacy (`p:cm/p:text`, plain) and modern (`p188:cm/p188:txBody`)."""

    def __init__(self, place: str) -> None:
        self._place = place
        self._collector = Collector()

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        return name in ("p:cm", "p188:cm")

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        if node.name == "p:cm":
            text = node.child("p:text")
            if text is not None:
                self._collector.value(text, src, self._place)
            return
        for paragraph, _ in paragraphs(node, "a:p"):
            self._collector.paragraph(paragraph, src, DRAWING, drawing_adapt, self._place)

    def piece(self, text: str) -> PartPiece:
        return self._collector.piece(text)


def _hides_master(archive: ZipArchive, name: str) -> bool:
    entry = archive.entry(name)
    if entry is None:
        return False
    head = next(archive.chunks(entry, 1 << 12), b"")[:4096]
    return _HIDES_MASTER.search(head) is not None


class Deck:
    """The slides in order, and what each part is to them: its place name, whether it is shown."""

    def __init__(self, archive: ZipArchive, opc: Opc, main: str) -> None:
        self.places: dict[str, str] = {}
        self.shown: set[str] = set()  # layouts and masters whose own shapes a slide shows
        root = parse_xml(archive, main)
        relations = {r.id: r.target for r in opc.relationships(main)}
        slides = [
            relations[rid]
            for node in (root.iter() if root is not None else ())
            if local(node.tag) == "sldId"
            for rid in [
                next((v for k, v in node.attrib.items() if local(k) == "id" and k.startswith("{")), "")
            ]
            if rid in relations
        ]
        layouts: dict[str, int] = {}
        masters: dict[str, int] = {}
        for n, slide in enumerate(slides, 1):
            self.places[slide] = f"slide {n}"
            for notes in opc.related(slide, "notesSlide"):
                self.places[notes] = f"slide {n} notes"
            for kind in ("comments", "comment"):
                for comments in opc.related(slide, kind):
                    self.places[comments] = f"slide {n} comment"
            for kind in ("chart", "diagramData", "diagramDrawing"):
                for part in opc.related(slide, kind):
                    self.places.setdefault(part, f"slide {n}")
            if _hides_master(archive, slide):
                continue
            for layout in opc.related(slide, "slideLayout"):
                layouts.setdefault(layout, len(layouts) + 1)
                self.shown.add(layout)
                if _hides_master(archive, layout):
                    continue
                for master in opc.related(layout, "slideMaster"):
                    masters.setdefault(master, len(masters) + 1)
                    self.shown.add(master)
        self.places.update({layout: f"layout {n}" for layout, n in layouts.items()})
        self.places.update({master: f"master {n}" for master, n in masters.items()})


class PptxFormat(OfficeFormat):
    name = "pptx"
    suffixes = (".pptx", ".pptm", ".ppsx", ".ppsm", ".potx", ".potm")

    def plan(self, archive: ZipArchive) -> PackagePlan:
        opc = Opc(archive)
        main = next((e.name for e in archive.entries if is_presentation(opc.content_type(e.name))), None)
        if main is None:
            raise PackageError("is no PowerPoint presentation (its package has no presentation part)")
        deck = Deck(archive, opc, main)
        parts: list[PlannedPart] = []
        drawings: list[PlannedPart] = []
        for entry in sorted(archive.entries, key=lambda e: e.offset):
            kind = opc.content_type(entry.name)
            handler = self._handler(entry.name, kind, deck)
            if handler is not None:
                planned = PlannedPart(entry, _scanner(handler))
                (drawings if kind.endswith("diagramDrawing+xml") else parts).append(planned)
        return PackagePlan(parts + drawings)

    def _handler(self, name: str, kind: str, deck: Deck) -> Callable[[], BlockHandler] | None:
        place = deck.places.get(name, "")
        if kind.endswith((f"{_PML}.slide+xml", f"{_PML}.notesSlide+xml")):
            return lambda: ShapeHandler(place or name, _SHAPES, autofit=True)
        if kind.endswith((f"{_PML}.slideLayout+xml", f"{_PML}.slideMaster+xml")):
            if name not in deck.shown:
                return None
            return lambda: ShapeHandler(place, _SHAPES, autofit=True, own_only=True)
        if kind.endswith((f"{_PML}.comments+xml", "ms-powerpoint.comments+xml")):
            return (lambda: SlideComments(place or "comment")) if self.options.comments else None
        if kind.endswith("drawingml.chart+xml"):
            return lambda: ChartHandler(f"{place} {numbered(name, 'chart')}".strip())
        if kind.endswith("drawingml.diagramData+xml"):
            return lambda: ShapeHandler(f"{place} SmartArt".strip(), frozenset({"dgm:pt"}))
        if kind.endswith("drawingml.diagramDrawing+xml"):
            return lambda: ShapeHandler(f"{place} SmartArt".strip(), frozenset({"dsp:sp"}))
        return None


def _scanner(handler: Callable[[], BlockHandler]) -> Callable[[], PieceScanner]:
    return lambda: XmlScanner(handler(), NAMESPACES)
