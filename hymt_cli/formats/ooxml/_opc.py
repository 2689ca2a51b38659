"""The Open Packaging Conventions: what each part of an OOXML package is, and how parts relate.

`[Content_Types].xml` says each part's content type (an `Override` by name, else a `Default` by
extension); `_rels/<part>.rels` lists a part's relationships (a slide's layout, a sheet's
comments). Both are small: read whole, after every member's prolog was checked for DTDs
(`ElementTree` then has no entity to expand).
"""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from ..package import PackageError, ZipArchive

_METADATA_LIMIT = 64 << 20


@dataclass(frozen=True, slots=True)
class Relationship:
    id: str
    type: str  # the last segment of the type URI: "slideLayout", "comments", "hyperlink" ...
    target: str  # a member name, resolved (or the external target as written)
    external: bool


def local(tag: str) -> str:
    return tag.rpartition("}")[2]


def parse_xml(archive: ZipArchive, name: str) -> ET.Element | None:
    """A small member as an element tree, or None where there is none."""
    entry = archive.entry(name)
    if entry is None:
        return None
    data = archive.read(entry, _METADATA_LIMIT)
    try:
        return ET.fromstring(data)
    except ET.ParseError as exc:
        raise PackageError(f"member {entry.name} is not well-formed XML ({exc})") from None


class Opc:
    def __init__(self, archive: ZipArchive) -> None:
        self.archive = archive
        self.overrides: dict[str, str] = {}
        self.defaults: dict[str, str] = {}
        types = parse_xml(archive, "[Content_Types].xml")
        if types is None:
            raise PackageError("is no Office Open XML package (it has no [Content_Types].xml)")
        for item in types:
            kind = local(item.tag)
            if kind == "Override":
                name = item.get("PartName", "").lstrip("/")
                self.overrides[name.casefold()] = item.get("ContentType", "")
            elif kind == "Default":
                self.defaults[item.get("Extension", "").casefold()] = item.get("ContentType", "")
        self._rels: dict[str, list[Relationship]] = {}

    def content_type(self, name: str) -> str:
        found = self.overrides.get(name.replace("\\", "/").casefold())
        if found is not None:
            return found
        return self.defaults.get(name.rpartition(".")[2].casefold(), "")

    def parts(self, *suffixes: str) -> list[str]:
        """The members (as the archive names them, in its order) whose content type ends with one
        of `suffixes` (`.header+xml`)."""
        return [
            e.name
            for e in sorted(self.archive.entries, key=lambda e: e.offset)
            if not e.is_dir and self.content_type(e.name).endswith(suffixes)
        ]

    def relationships(self, part: str) -> list[Relationship]:
        """The relationships of `part` ("" for the package's own)."""
        if part in self._rels:
            return self._rels[part]
        folder, _, base = part.replace("\\", "/").rpartition("/")
        rels_name = f"{folder}/_rels/{base}.rels" if folder else f"_rels/{base}.rels"
        found: list[Relationship] = []
        root = parse_xml(self.archive, rels_name)
        for item in root if root is not None else ():
            if local(item.tag) != "Relationship":
                continue
            external = item.get("TargetMode", "") == "External"
            target = item.get("Target", "")
            if not external:
                target = resolve(folder, target)
                member = self.archive.entry(target)
                target = member.name if member is not None else target
            kind = item.get("Type", "").rpartition("/")[2]
            found.append(Relationship(item.get("Id", ""), kind, target, external))
        self._rels[part] = found
        return found

    def related(self, part: str, kind: str) -> list[str]:
        """The members `part` relates to by `kind` (internal targets that exist)."""
        return [
            r.target
            for r in self.relationships(part)
            if r.type == kind and not r.external and r.target in self.archive
        ]


def resolve(folder: str, target: str) -> str:
    """A relationship's target as a member name (`../slideLayouts/x.xml` from `ppt/slides`)."""
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(folder, target)) if folder else posixpath.normpath(target)
