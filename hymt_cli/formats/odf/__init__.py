"""OpenDocument: text documents, presentations and spreadsheets (`.odt`, `.odp`, `.ods`), translated
part by part and written back byte-faithfully (formats/package: every member the translation
does not touch is copied as it was; `mimetype` stays first and stored).

Translated: the body (paragraphs, headings, lists, tables, frames and text boxes, shapes,
notes, a presentation's speaker notes, a spreadsheet's text cells), the headers and footers of
the master pages (styles.xml), the shapes of a presentation's master pages (not their
placeholders' prompt text), embedded objects (a chart's titles, legends' series and
categories), the document's title and description (meta.xml), and comments (`--no-comments`
leaves them). A sentence is one segment whatever spans a spell checker or an edit split it
into (_handler.py, _paragraph.py).

Never changed: deleted text of tracked changes, fields' values, numbers, dates, formulas and
their results in cells, sheet names, link targets, bookmarks, styles' names. The styles say the
target: its language, a right-to-left target's direction, an East-Asian target's font
(_language.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from ..package import (
    OfficeOptions,
    PackageFormat,
    PackagePlan,
    PlannedPart,
    Target,
    XmlScanner,
    ZipArchive,
    target_for,
)
from ._handler import OdfHandler, PartRole
from ._manifest import read_manifest
from ._names import NAMESPACES

_PARTS = {"meta.xml": "meta", "styles.xml": "styles", "content.xml": "content"}


class OdfFormat(PackageFormat):
    """Any ODF document: each suffix is one format of this family (its name), read alike."""

    name: ClassVar[str] = "odf"
    suffixes: ClassVar[tuple[str, ...]] = ()
    # A document with macros or dialogs has `<!DOCTYPE script:module PUBLIC ... "module.dtd">` in
    # Basic/ and Dialogs/: an external DTD, never read (an internal subset is still refused).
    external_dtd = True

    def __init__(self, options: OfficeOptions | None = None) -> None:
        self.options = options or OfficeOptions()

    def target(self, code: str) -> Target:
        return target_for(code, self.options.east_asian_font)

    def plan(self, archive: ZipArchive) -> PackagePlan:
        manifest = read_manifest(archive)
        parts = []
        for entry in sorted(archive.entries, key=lambda e: e.offset):
            folder, _, base = entry.name.rpartition("/")
            folder = f"{folder}/" if folder else ""
            kind = _PARTS.get(base)
            if kind is None or folder not in manifest.documents or (kind == "meta" and folder):
                continue
            where = _object_name(folder, manifest.documents[folder])
            role = PartRole(kind, where, self.options.comments)
            parts.append(PlannedPart(entry, _scanner(role)))
        return PackagePlan(parts)


def _scanner(role: PartRole) -> Callable[[], XmlScanner]:
    return lambda: XmlScanner(OdfHandler(role), NAMESPACES, external_dtd=True)


def _object_name(folder: str, media_type: str) -> str:
    """How an embedded object's places are named: "chart Object 1" ("" for the document itself)."""
    if not folder:
        return ""
    kind = media_type.rpartition(".")[2] or "object"
    return f"{kind} {folder.rstrip('/')}"


class OdtFormat(OdfFormat):
    name = "odt"
    suffixes = (".odt",)


class OdpFormat(OdfFormat):
    name = "odp"
    suffixes = (".odp",)


class OdsFormat(OdfFormat):
    name = "ods"
    suffixes = (".ods",)


__all__ = ["OdfFormat", "OdpFormat", "OdsFormat", "OdtFormat"]
