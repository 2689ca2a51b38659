"""An ODF package's manifest (META-INF/manifest.xml): the documents it holds (the package's own,
and embedded objects: a chart, a formula, another document), and whether any member is
encrypted (a password-protected document: nothing of it can be read)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..package import Node, Open, PackageError, PartPiece, ZipArchive, scan_member
from ._names import NAMESPACES

MANIFEST = "META-INF/manifest.xml"
_MANIFEST_LIMIT = 16 << 20


@dataclass(frozen=True, slots=True)
class Manifest:
    """Folders that hold an ODF document ("" for the package's own), with its media type."""

    documents: dict[str, str] = field(default_factory=dict)


class _Entries:
    def __init__(self) -> None:
        self.found: list[tuple[str, str, bool]] = []  # (full path, media type, encrypted)

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        return name == "manifest:file-entry"

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        encrypted = node.child("manifest:encryption-data") is not None
        self.found.append(
            (node.get("manifest:full-path") or "", node.get("manifest:media-type") or "", encrypted)
        )

    def piece(self, text: str) -> PartPiece:
        return PartPiece(text)


def read_manifest(archive: ZipArchive) -> Manifest:
    entry = archive.entry(MANIFEST)
    if entry is None:
        return Manifest({"": ""})
    entries = _Entries()
    scan_member(archive, entry, entries, NAMESPACES, limit=_MANIFEST_LIMIT)
    if any(encrypted for _, _, encrypted in entries.found):
        raise PackageError("is encrypted (password-protected): save it without a password to translate it")
    documents = {"": ""}
    for path, media_type, _ in entries.found:
        if media_type.startswith("application/vnd.oasis.opendocument.") and (
            path == "/" or path.endswith("/")
        ):
            documents["" if path == "/" else path.lstrip("./")] = media_type
    return Manifest(documents)
