"""The NCX table of contents (EPUB 2; EPUB 3 books keep one for old readers): the book's title and
every label of its navigation map and lists; its `xml:lang` says the target. Never changed: the
targets (`content src`), ids, play order, the authors, page lists' labels (page numbers)."""

from __future__ import annotations

from ..package import Node, Open, PartPiece
from ._languages import says_source
from ._piece_builder import PieceBuilder
from ._text_elements import text_element

_PLACES = {"ncx:docTitle": "book title", "ncx:navMap": "table of contents", "ncx:navList": "navigation list"}


class NcxHandler:
    def __init__(self, language: str) -> None:
        self.language = language
        self.out = PieceBuilder()

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        return not path  # the root: the whole NCX

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        value = node.get("xml:lang")
        if value is not None and says_source(value, self.language):
            self.out.attribute(src, node, "xml:lang", lambda target, _: target.code)
        for child in node.elements():
            place = _PLACES.get(child.name)
            if place is not None:
                self._labels(child, src, place)

    def _labels(self, node: Node, src: str, place: str) -> None:
        for element in node.walk():
            if element.name in ("ncx:navLabel", "ncx:docTitle"):
                for text in element.elements():
                    if text.name == "ncx:text":
                        located = text_element(text, src)
                        if located is not None:
                            self.out.segment(
                                located, src, place, "document title" if place == "book title" else ""
                            )

    def piece(self, text: str) -> PartPiece:
        piece = self.out.piece(text)
        self.out = PieceBuilder()
        return piece
