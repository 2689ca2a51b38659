"""What the ODF and EPUB tests read of a package: its members (unpacked, and as their local records
lie in the archive), the same with the language attributes a translation rewrites masked, and
every XML member parsed by an independent reader (the standard library's expat)."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
import zipfile
from collections import Counter
from pathlib import Path

from hymt_cli.formats.package import ZipArchive

# What says the target in a translated package: ODF's language and direction attributes and the
# East-Asian font a default style may gain; EPUB's lang, xml:lang, dir and page progression.
_LANGUAGE_ATTRIBUTE = re.compile(
    rb"""\s(?:fo:language|fo:country|fo:script|style:(?:language|country|script|rfc-language-tag)(?:-asian|-complex)?"""
    rb"""|style:rfc-language-tag|style:writing-mode|style:font-family-asian|xml:lang|lang|dir"""
    rb"""|page-progression-direction)=(?:"[^"]*"|'[^']*')"""
)
_LANGUAGE_ELEMENT = re.compile(rb"(<dc:language\b[^>]*>)[^<]*(</dc:language>)")
# What a default paragraph style may gain for a target (its properties, where it had none).
_ADDED_PROPERTIES = re.compile(rb"<style:(?:paragraph|text)-properties\s*/>")
# Elements a translation may add or drop: spans that were no formatting, ruby (its reading), the
# spacing ODF writes as elements, properties a default style gains, soft page breaks.
_MAY_CHANGE = (
    "}span", "}ruby", "}ruby-base", "}ruby-text", "}rt", "}rp", "}rb", "}s", "}tab", "}line-break", "}br",
    "}paragraph-properties", "}text-properties", "}soft-page-break",
)  # fmt: skip
XML_SUFFIXES = (".xml", ".xhtml", ".opf", ".ncx", ".html", ".htm", ".rdf")


def members(data: bytes | Path) -> dict[str, bytes]:
    """Every member's unpacked bytes, in the archive's order."""
    raw = data.read_bytes() if isinstance(data, Path) else data
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def records(data: bytes | Path) -> dict[str, bytes]:
    """Every member's local record (header, packed bytes, descriptor) as it lies in the archive."""
    raw = data.read_bytes() if isinstance(data, Path) else data
    archive = ZipArchive.open(io.BytesIO(raw))
    return {entry.name: b"".join(archive.record(entry)) for entry in archive.entries}


def masked(content: bytes) -> bytes:
    """A member with its language and direction attributes (and dc:language's text) left out."""
    content = _LANGUAGE_ELEMENT.sub(rb"\1\2", _LANGUAGE_ATTRIBUTE.sub(b"", content))
    return _ADDED_PROPERTIES.sub(b"", content)


def package_edits(data: bytes) -> bytes:
    """A package as the sample comparisons see it (tests/samples.py TARGET_EDITS): its members in
    order, each masked."""
    return b"\0".join(name.encode() + b"\0" + masked(body) for name, body in members(data).items())


def assert_identity(source: Path, output: Path) -> None:
    """Member by member: the same names in the same order, `mimetype` first and stored where the
    source has it so; a member whose content is the source's is its source's record byte for
    byte; the others differ only in their language attributes."""
    before, after = members(source), members(output)
    assert list(after) == list(before)
    old, new = records(source), records(output)
    for name, content in before.items():
        if after[name] == content:
            assert new[name] == old[name], f"{name}: the same content, but not copied as it was"
        else:
            assert masked(after[name]) == masked(content), f"{name} changed beyond its language attributes"
    if list(before)[:1] == ["mimetype"]:
        with zipfile.ZipFile(output) as archive:
            first = archive.infolist()[0]
        assert first.filename == "mimetype" and first.compress_type == zipfile.ZIP_STORED


def parsed(data: bytes | Path) -> dict[str, ET.Element]:
    """Every XML member parsed (expat: a member that is no well-formed XML fails)."""
    out = {}
    for name, body in members(data).items():
        if name.lower().endswith(XML_SUFFIXES) and body.strip():
            out[name] = ET.fromstring(body)
    return out


def all_text(element: ET.Element) -> str:
    """Every character of text in `element`, in document order."""
    return "".join(element.itertext())


def assert_structure_kept(source: Path, output: Path) -> None:
    """Whatever was translated: the same members in the same order, every XML member parses,
    and no XML member gains or loses an element (the translation is text; markup stays markup),
    but for the paragraph and text properties a default style may gain and the spans that were
    no formatting (left out of a translated ODF paragraph)."""
    before, after = parsed(source), parsed(output)
    assert list(members(output)) == list(members(source))
    assert list(after) == list(before)
    for name, root in before.items():
        old = Counter(e.tag for e in root.iter() if not e.tag.endswith(_MAY_CHANGE))
        new = Counter(e.tag for e in after[name].iter() if not e.tag.endswith(_MAY_CHANGE))
        assert new == old, (name, (new - old), (old - new))
