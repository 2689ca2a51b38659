"""The package document (OPF) translated: the book's titles and description; its `dc:language`
(the first), the `xml:lang` of the package and of what is translated say the target; an EPUB 3
spine's `page-progression-direction` runs the target's way (right to left for a right-to-left
target; left to right for a book out of a right-to-left language). Never changed: identifiers,
the manifest (ids, hrefs, media types), the spine's order, other metadata (creators, dates,
rights), `meta` elements.

A description that holds HTML (as Calibre writes it: escaped markup) is read as HTML: its
paragraphs are segments, its markup tags.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from ..html.segmenter import find_html_segments
from ..package import Edit, Node, Open, PartPiece, Rendering, Source, Target, escape_text
from ..splice_index import SpliceIndex
from ..start_tags import rewritten
from ._languages import direction, says_source, source_is_rtl
from ._piece_builder import Make, PieceBuilder
from ._publication import Publication
from ._text_elements import text_element

_HTML = re.compile(r"<[A-Za-z/!]")
_TRANSLATED = {"dc:title": "document title", "dc:description": "book description"}


class OpfHandler:
    def __init__(self, publication: Publication) -> None:
        self.publication = publication
        self.out = PieceBuilder()

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        return not path  # the root: the package document is one block (it is small)

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        source = self.publication.language
        self._language(src, node, source)
        metadata = node.child("opf:metadata")
        first_language = True
        for element in metadata.walk() if metadata is not None else ():
            if element.name in _TRANSLATED and _in_language(element, source):
                self._translated(element, src, _TRANSLATED[element.name])
                self._language(src, element, source)
            elif element.name == "dc:language" and first_language:
                first_language = False
                self.out.targeted(element.inner, element.inner_end, lambda target, _: target.code)
        spine = node.child("opf:spine")
        if spine is not None and self.publication.epub3:
            self._progression(spine, src)

    def _language(self, src: str, node: Node, source: str) -> None:
        value = node.get("xml:lang")
        if value is not None and says_source(value, source):
            self.out.attribute(src, node, "xml:lang", lambda target, _: target.code)

    def _translated(self, element: Node, src: str, role: str) -> None:
        text = element.text(src)
        if element.name == "dc:description" and _HTML.search(text) and not any(element.elements()):
            self._description(element, text, role)
            return
        located = text_element(element, src)
        if located is not None:
            self.out.segment(located, src, role, role)

    def _description(self, element: Node, html: str, role: str) -> None:
        """A description of escaped HTML: its segments, and an edit writing it back escaped."""
        index = SpliceIndex(html)
        index.extend(find_html_segments(html))
        index.finish()
        first = len(self.out.segments)
        local = index.segments()
        for segment in local:
            self.out.segments.append(dataclasses.replace(segment, id=first + segment.id, role=role))
            self.out.labels[first + segment.id] = role

        def render(context: Rendering, source: Source) -> str | None:
            answers = {
                s.id: context.translated[first + s.id] for s in local if first + s.id in context.translated
            }
            if all(answers.get(s.id, s.text) == s.text for s in local):
                return None
            return escape_text(index.reassemble(answers))

        self.out.edits.append(Edit(element.inner, element.inner_end, render))

    def _progression(self, spine: Node, src: str) -> None:
        current = spine.get("page-progression-direction")
        leaves_rtl = current == "rtl" and source_is_rtl(self.publication.language)

        def wanted(target: Target) -> str | None:
            if target.rtl or leaves_rtl:
                return direction(target)
            return None

        if current is not None:
            self.out.attribute(src, spine, "page-progression-direction", lambda target, _: wanted(target))
            return
        self.out.targeted(spine.start, spine.inner, _added(spine, "page-progression-direction", wanted))

    def piece(self, text: str) -> PartPiece:
        piece = self.out.piece(text)
        self.out = PieceBuilder()
        return piece


def _in_language(element: Node, source: str) -> bool:
    """A title or description in the book's language (not an alternate title in another one)."""
    value = element.get("xml:lang")
    return value is None or not value.strip() or not source or says_source(value, source)


def _added(node: Node, name: str, wanted: Callable[[Target], str | None]) -> Make:
    def make(target: Target, tag: str) -> str | None:
        value = wanted(target)
        return None if value is None else rewritten(tag, node, {}, {name: value})

    return make
