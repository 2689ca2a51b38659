"""What an EPUB holds, read before anything is translated: the package document that
`META-INF/container.xml` names (its metadata, manifest and spine), whether its content is
encrypted (DRM: refused; the fonts' obfuscation is no encryption of the text and stays), and the
members each manifest item is.

Manifest hrefs are relative to the package document, percent-encoded (`Chapter%201.xhtml`);
remote resources are no members.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import unquote, urldefrag, urlsplit

from ..package import Node, Open, PackageError, PartPiece, ZipArchive, scan_member

CONTAINER = "META-INF/container.xml"
ENCRYPTION = "META-INF/encryption.xml"
OPF_MEDIA_TYPE = "application/oebps-package+xml"
XHTML = "application/xhtml+xml"
NCX = "application/x-dtbncx+xml"
# Font obfuscation (IDPF's and Adobe's): the fonts are mangled with the book's identifier, which
# is never changed; the text is not encrypted.
OBFUSCATION = frozenset({"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"})
_READ_LIMIT = 16 << 20

NAMESPACES = {
    "urn:oasis:names:tc:opendocument:xmlns:container": "ocf",
    "http://www.idpf.org/2007/opf": "opf",
    "http://purl.org/dc/elements/1.1/": "dc",
    "http://www.daisy.org/z3986/2005/ncx/": "ncx",
    "http://www.w3.org/2001/04/xmlenc#": "enc",
    "http://www.w3.org/2000/09/xmldsig#": "ds",
}


@dataclass(frozen=True, slots=True)
class Item:
    """A manifest item: its member's name in the archive (None: not in it), media type, properties."""

    id: str
    member: str | None
    media_type: str
    properties: frozenset[str]


@dataclass(slots=True)
class Publication:
    opf: str  # the package document's member name
    version: str = ""
    language: str = ""  # the first dc:language
    items: list[Item] = field(default_factory=list)
    spine: list[str] = field(default_factory=list)  # item ids in reading order
    toc: str = ""  # EPUB 2: the NCX's item id (spine's toc)

    @property
    def epub3(self) -> bool:
        return self.version.startswith("3")


class _Collector:
    """A BlockHandler that only gathers the blocks it is asked for."""

    def __init__(self, wanted: Callable[[str, tuple[Open, ...]], bool]) -> None:
        self.wanted = wanted
        self.found: list[tuple[Node, str, tuple[Open, ...]]] = []  # (node, its text, where)

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        return self.wanted(name, path)

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        self.found.append((node, node.text(src), path))  # (its attributes travel in the node)

    def piece(self, text: str) -> PartPiece:
        return PartPiece(text)


def _collect(archive: ZipArchive, name: str, wanted: Callable[[str, tuple[Open, ...]], bool]) -> _Collector:
    entry = archive.entry(name)
    if entry is None:
        raise PackageError(f"has no member {name}")
    collector = _Collector(wanted)
    scan_member(archive, entry, collector, NAMESPACES, limit=_READ_LIMIT, external_dtd=True)
    return collector


def read_publication(archive: ZipArchive) -> Publication:
    if archive.entry(CONTAINER) is None:
        raise PackageError(f"is no EPUB (it has no {CONTAINER})")
    rootfiles = _collect(archive, CONTAINER, lambda name, path: name == "ocf:rootfile").found
    paths = [(n.get("full-path") or "", n.get("media-type") or "") for n, _, _ in rootfiles]
    opf = next((p for p, kind in paths if kind == OPF_MEDIA_TYPE and p), next((p for p, _ in paths if p), ""))
    if not opf:
        raise PackageError(f"names no package document in {CONTAINER}")
    _refuse_drm(archive)
    return _package(archive, opf)


def _refuse_drm(archive: ZipArchive) -> None:
    if archive.entry(ENCRYPTION) is None:
        return
    methods = _collect(archive, ENCRYPTION, lambda name, path: name == "enc:EncryptionMethod").found
    if any((node.get("Algorithm") or "") not in OBFUSCATION for node, _, _ in methods):
        raise PackageError("is encrypted (DRM-protected): only a book without DRM can be translated")


def _package(archive: ZipArchive, opf: str) -> Publication:
    wanted = frozenset({"opf:item", "opf:itemref", "dc:language"})
    found = _collect(archive, opf, lambda name, path: name in wanted or name == "opf:spine").found
    publication = Publication(opf)
    base = posixpath.dirname(opf)
    for node, text, path in found:
        if path and not publication.version:
            publication.version = path[0].get("version") or ""
        if node.name == "opf:item":
            member = _member(archive, base, node.get("href") or "")
            properties = frozenset((node.get("properties") or "").split())
            publication.items.append(
                Item(node.get("id") or "", member, node.get("media-type") or "", properties)
            )
        elif node.name == "opf:spine":
            publication.toc = node.get("toc") or ""
            publication.spine = [
                ref.get("idref") or "" for ref in node.elements() if ref.name == "opf:itemref"
            ]
        elif node.name == "dc:language" and not publication.language:
            publication.language = text.strip()
    return publication


def _member(archive: ZipArchive, base: str, href: str) -> str | None:
    """The archive member an href names, relative to the package document (None: no member)."""
    if not href or urlsplit(href).scheme:
        return None
    path = unquote(urldefrag(href).url)
    name = posixpath.normpath(posixpath.join(base, path)) if base else posixpath.normpath(path)
    if name.startswith("../") or name == "..":
        return None
    entry = archive.entry(name)
    return entry.name if entry is not None else None
