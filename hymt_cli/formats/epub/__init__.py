"""EPUB 2 and 3 books (`.epub`), translated page by page and written back byte-faithfully
(formats/package: every member the translation does not touch is copied as it was: images,
styles, fonts; `mimetype` stays first and stored).

Translated: every XHTML page of the manifest (the spine's pages, the navigation document) with
hymt's HTML reader (_pages.py), the NCX table of contents (_ncx.py), the package document's titles
and description (_opf.py). The book says the target: `dc:language`, the pages' `lang` and
`xml:lang`, `dir` and the spine's page progression for a right-to-left target. Never changed:
identifiers, the manifest and the spine, link targets, page lists' labels. A book whose text is
encrypted (DRM) is refused; obfuscated fonts are copied as they are (their key, the book's
identifier, never changes).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import ClassVar

from ..package import PackageFormat, PackagePlan, PieceScanner, PlannedPart, XmlScanner, ZipArchive
from ._ncx import NcxHandler
from ._opf import OpfHandler
from ._pages import PageScanner
from ._publication import NAMESPACES, NCX, XHTML, Publication, read_publication


class EpubFormat(PackageFormat):
    name = "epub"
    suffixes = (".epub",)
    # EPUB 2's pages and NCX declare their DTD (`<!DOCTYPE html PUBLIC ...>`), never read.
    external_dtd: ClassVar[bool] = True

    def plan(self, archive: ZipArchive) -> PackagePlan:
        publication = read_publication(archive)
        readers: dict[str, Callable[[], PieceScanner]] = {publication.opf: _opf(publication)}
        toc_ids = {publication.toc} if publication.toc else set()
        for item in publication.items:
            if item.member is None or item.member in readers:
                continue
            if item.media_type == NCX or item.id in toc_ids:
                readers[item.member] = _ncx(publication.language)
            elif item.media_type == XHTML:
                label = "table of contents" if "nav" in item.properties else posixpath.basename(item.member)
                readers[item.member] = _page(label, publication)
        parts = [
            PlannedPart(entry, readers[entry.name])
            for entry in sorted(archive.entries, key=lambda e: e.offset)
            if entry.name in readers
        ]
        return PackagePlan(parts)


def _opf(publication: Publication) -> Callable[[], PieceScanner]:
    return lambda: XmlScanner(OpfHandler(publication), NAMESPACES, external_dtd=True)


def _ncx(language: str) -> Callable[[], PieceScanner]:
    return lambda: XmlScanner(NcxHandler(language), NAMESPACES, external_dtd=True)


def _page(label: str, publication: Publication) -> Callable[[], PieceScanner]:
    return lambda: PageScanner(label, publication.language, epub3=publication.epub3)


__all__ = ["EpubFormat"]
