"""The package layer (hymt_cli/formats/package) under a toy format whose `<t>` elements are
segments: untouched members are copied byte for byte, a changed one is spliced, `mimetype` stays
first and stored, long parts are read in pieces, and hostile archives are refused in one line."""

from __future__ import annotations

import io
import re
import struct
import zipfile
from pathlib import Path
from typing import BinaryIO

import pytest

from hymt_cli.formats import FormatError
from hymt_cli.formats.package import (
    Edit,
    Node,
    Open,
    PackageFormat,
    PackagePlan,
    PartPiece,
    PlannedPart,
    Rendering,
    Source,
    XmlScanner,
    ZipArchive,
    ZipLimits,
    escape_text,
)
from hymt_cli.text.segments import Segment


class _ToyHandler:
    def __init__(self) -> None:
        self._segments: list[Segment] = []
        self._edits: list[Edit] = []

    def is_block(self, name: str, path: tuple[Open, ...]) -> bool:
        return name == "t"

    def block(self, node: Node, src: str, path: tuple[Open, ...]) -> None:
        sid = len(self._segments)
        text = node.text(src)
        self._segments.append(Segment(sid, text))

        def render(context: Rendering, source: Source) -> str | None:
            answer = context.translated.get(sid)
            return None if answer is None or answer == text else escape_text(answer)

        self._edits.append(Edit(node.inner, node.inner_end, render))

    def piece(self, text: str) -> PartPiece:
        piece = PartPiece(text, self._segments, {}, {}, self._edits)
        self._segments, self._edits = [], []
        return piece


class ToyFormat(PackageFormat):
    name = "toy"
    suffixes = (".toy",)

    def __init__(self, piece_chars: int = 1 << 18, limits: ZipLimits | None = None) -> None:
        self.piece_chars = piece_chars
        if limits is not None:
            self.limits = limits

    def plan(self, archive: ZipArchive) -> PackagePlan:
        parts = [
            PlannedPart(e, lambda: XmlScanner(_ToyHandler(), {}, self.piece_chars))
            for e in archive.entries
            if e.name.endswith(".xml")
        ]
        return PackagePlan(parts)


class _Source:
    def __init__(self, data: bytes, path: Path | None = None) -> None:
        self.data, self.path = data, path

    @property
    def display(self) -> str:
        return "toy.toy"

    def read_bytes(self) -> bytes:
        return self.data

    def open_binary(self) -> BinaryIO:
        return open(self.path, "rb") if self.path is not None else io.BytesIO(self.data)


def _package(members: list[tuple[str, bytes, int]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data, method in members:
            zf.writestr(zipfile.ZipInfo(name, (2020, 1, 2, 3, 4, 6)), data, compress_type=method)
    return out.getvalue()


def _translate(fmt: PackageFormat, data: bytes, answer: callable, *, path: Path | None = None) -> bytes:  # type: ignore[valid-type]
    reader = fmt.open(_Source(data, path))
    units = list(reader.units())
    out = io.BytesIO()
    writer = reader.writer("de", out)
    for unit in units:
        writer.write(unit, {s.id: answer(s.text) for s in unit.segments})
    writer.close()
    return out.getvalue()


_MEMBERS = [
    ("mimetype", b"application/x-toy", zipfile.ZIP_STORED),
    (
        "content.xml",
        b'<?xml version="1.0"?>\n<doc><t>Hello &amp; welcome</t><x>keep</x><t>Bye</t></doc>',
        zipfile.ZIP_DEFLATED,
    ),
    ("image.png", bytes(range(256)) * 40, zipfile.ZIP_DEFLATED),
    ("styles.xml", b"<s><t>Style</t></s>", zipfile.ZIP_STORED),
]


def _records(data: bytes) -> dict[str, bytes]:
    archive = ZipArchive.open(io.BytesIO(data))
    return {e.name: b"".join(archive.record(e)) for e in archive.entries}


def test_identity_writes_the_package_back_byte_for_byte() -> None:
    data = _package(_MEMBERS)
    assert _translate(ToyFormat(), data, lambda text: text) == data


def test_a_file_source_is_opened_again_by_the_writer(tmp_path: Path) -> None:
    data = _package(_MEMBERS)
    path = tmp_path / "a.toy"
    path.write_bytes(data)
    assert _translate(ToyFormat(), data, lambda text: text, path=path) == data


def test_a_changed_member_is_spliced_and_the_others_copied_as_they_were() -> None:
    data = _package(_MEMBERS)
    output = _translate(ToyFormat(), data, lambda text: text.upper() + " <ü>")
    before, after = _records(data), _records(output)
    assert list(after) == list(before)  # the source's order, mimetype first
    assert after["mimetype"] == before["mimetype"] and after["image.png"] == before["image.png"]
    with zipfile.ZipFile(io.BytesIO(output)) as zf:
        assert zf.testzip() is None
        assert zf.infolist()[0].compress_type == zipfile.ZIP_STORED
        assert zf.read("content.xml").decode() == (
            '<?xml version="1.0"?>\n'
            "<doc><t>HELLO &amp; WELCOME &lt;ü&gt;</t><x>keep</x><t>BYE &lt;ü&gt;</t></doc>"
        )
        assert zf.getinfo("styles.xml").compress_type == zipfile.ZIP_STORED  # stored stays stored
        assert zf.read("styles.xml") == "<s><t>STYLE <ü></t></s>".replace("<ü>", "&lt;ü&gt;").encode()


def test_a_long_part_is_read_in_pieces_and_written_whole() -> None:
    body = "".join(f"<t>line {i}</t>\n" for i in range(3000))
    data = _package([("big.xml", f"<doc>{body}</doc>".encode(), zipfile.ZIP_DEFLATED)])
    reader = ToyFormat(piece_chars=4096).open(_Source(data))
    units = list(reader.units())
    assert len(units) > 10
    assert sum(len(u.segments) for u in units) == 3000
    output = _translate(ToyFormat(piece_chars=4096), data, lambda text: text + "!")
    with zipfile.ZipFile(io.BytesIO(output)) as zf:
        assert zf.read("big.xml").decode() == "<doc>" + body.replace("</t>", "!</t>") + "</doc>"


def test_members_translated_out_of_their_order_are_spooled() -> None:
    data = _package(_MEMBERS)

    class Reversed(ToyFormat):
        def plan(self, archive: ZipArchive) -> PackagePlan:
            return PackagePlan(list(reversed(super().plan(archive).parts)))

    output = _translate(Reversed(), data, lambda text: text + "?")
    with zipfile.ZipFile(io.BytesIO(output)) as zf:
        assert [i.filename for i in zf.infolist()] == [m[0] for m in _MEMBERS]
        assert zf.read("styles.xml") == b"<s><t>Style?</t></s>"


def _refusal(data: bytes, fmt: PackageFormat | None = None) -> str:
    with pytest.raises(FormatError) as caught:
        list((fmt or ToyFormat()).open(_Source(data)).units())
    return str(caught.value)


def test_a_zip_bomb_is_refused() -> None:
    bomb = _package([("content.xml", b"<doc>" + b" " * (50 << 20) + b"</doc>", zipfile.ZIP_DEFLATED)])
    assert "zip bomb" in _refusal(bomb)
    assert "zip bomb" in _refusal(_package(_MEMBERS), ToyFormat(limits=ZipLimits(max_total_size=1000)))


def test_members_named_outside_the_package_are_refused() -> None:
    for name in ("../evil.xml", "/etc/passwd", "a/../../b.xml", "C:/x.xml", "a\\..\\..\\b.xml"):
        assert "outside the package" in _refusal(_package([(name, b"<t>x</t>", zipfile.ZIP_STORED)])), name


def test_a_dtd_in_any_xml_member_is_refused() -> None:
    laughs = b'<?xml version="1.0"?>\n<!DOCTYPE z [<!ENTITY a "lol"><!ENTITY b "&a;&a;">]>\n<t>&b;</t>'
    # (also in a member the format does not translate)
    assert "DTD" in _refusal(_package([("content.xml", b"<t>x</t>", 8), ("other.rels", laughs, 8)]))
    undeclared = b"<doc><t>&nbsp;</t></doc>"
    assert "entit" in _refusal(_package([("content.xml", undeclared, 8)]))


def test_an_encrypted_office_file_says_so() -> None:
    ole = (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
        + b"\0" * 504
        + "EncryptedPackage".encode("utf-16-le")
        + b"\0" * 64
    )
    assert "encrypted" in _refusal(ole)
    assert "legacy" in _refusal(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 1024)


def test_a_truncated_archive_is_refused() -> None:
    data = _package(_MEMBERS)
    assert "truncated" in _refusal(data[: len(data) // 2])
    assert "not a zip package" in _refusal(b"hello, world")


def test_overlapping_members_are_refused() -> None:
    data = bytearray(_package(_MEMBERS))
    archive = ZipArchive.open(io.BytesIO(bytes(data)))
    # Point the last member's central record at the first member's local header.
    cd = data.rfind(b"PK\x01\x02")
    struct.pack_into("<I", data, cd + 42, archive.entries[0].offset)
    assert "named otherwise" in _refusal(bytes(data)) or "overlaps" in _refusal(bytes(data))


def test_a_member_lying_about_its_size_is_refused() -> None:
    data = bytearray(_package(_MEMBERS))
    cd = data.find(b"PK\x01\x02", data.find(b"content.xml") + 1)
    struct.pack_into("<I", data, cd + 24, 10)  # uncompressed size: 10
    assert "declared size" in _refusal(bytes(data)) or "damaged" in _refusal(bytes(data))


def test_data_descriptors_and_crc_damage() -> None:
    class Unseekable(io.RawIOBase):
        def __init__(self) -> None:
            self.buffer = bytearray()

        def writable(self) -> bool:
            return True

        def write(self, b) -> int:  # type: ignore[no-untyped-def,override]
            self.buffer += b
            return len(b)

    sink = Unseekable()
    with zipfile.ZipFile(sink, "w", zipfile.ZIP_DEFLATED) as zf:  # streamed: data descriptors
        for name, payload, _ in _MEMBERS[1:]:
            zf.writestr(name, payload)
    data = bytes(sink.buffer)
    assert _translate(ToyFormat(), data, lambda text: text) == data
    output = _translate(ToyFormat(), data, lambda text: text + ".")
    with zipfile.ZipFile(io.BytesIO(output)) as zf:
        assert zf.testzip() is None and zf.read("styles.xml") == b"<s><t>Style.</t></s>"
    damaged = bytearray(data)
    at = damaged.find(b"PK\x03\x04", 10)
    damaged[at - 20] ^= 0xFF  # a byte of the first member's packed data
    assert re.search("damaged|not valid utf-8", _refusal(bytes(damaged)))


def test_unbalanced_xml_is_refused_in_one_line() -> None:
    assert "not well-formed" in _refusal(_package([("content.xml", b"<doc><t>x</doc>", 8)]))
    assert "never closed" in _refusal(_package([("content.xml", b"<doc><t>x</t>", 8)]))


def test_a_doctype_naming_an_external_dtd_passes_where_the_family_allows_it() -> None:
    xhtml = (
        b'<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" '
        b'"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">\n<doc><t>Hi</t></doc>'
    )
    data = _package([("content.xml", xhtml, 8), ("page.xml", b"<!DOCTYPE html>\n<doc><t>Yo</t></doc>", 8)])
    assert "DTD" in _refusal(data)  # (a family that does not allow them)

    class Books(ToyFormat):
        external_dtd = True

        def plan(self, archive: ZipArchive) -> PackagePlan:
            parts = [
                PlannedPart(e, lambda: XmlScanner(_ToyHandler(), {}, external_dtd=True))
                for e in archive.entries
            ]
            return PackagePlan(parts)

    output = _translate(Books(), data, lambda text: text + "!")
    with zipfile.ZipFile(io.BytesIO(output)) as zf:
        assert zf.read("content.xml") == xhtml.replace(b"Hi<", b"Hi!<")
    subset = b'<!DOCTYPE html PUBLIC "a" "b" [<!ENTITY a "lol">]>\n<doc><t>&a;</t></doc>'
    assert "DTD" in _refusal(_package([("content.xml", subset, 8)]), Books())
    late = b"<doc><t>x</t><!DOCTYPE html></doc>"
    assert "DTD" in _refusal(_package([("content.xml", late, 8)]), Books())


def test_a_long_tag_cut_where_a_chunk_ends_is_read_in_linear_time() -> None:
    """Text arrives a chunk at a time: a tag of many attributes is often cut short at the end of
    what was read. (Backtracking through its attributes took exponential time: this hung.)"""
    attributes = " ".join(f'style:a{i}="v{i}"' for i in range(60))
    part = f"<doc><x {attributes}/><t>Hello</t></doc>"
    scanner = XmlScanner(_ToyHandler(), {})
    pieces = [p for i in range(0, len(part), 7) for p in scanner.feed(part[i : i + 7])]
    pieces += list(scanner.feed("", final=True))
    assert [s.text for p in pieces for s in p.segments] == ["Hello"]
    assert "".join(p.text for p in pieces) == part


def test_a_bare_html_doctype_in_a_member_not_parsed_passes() -> None:
    html = b"<!DOCTYPE html PUBLIC '-//W3C//DTD XHTML 1.0 Transitional//EN' 'x.dtd'><html/>"
    data = _package([("content.xml", b"<doc><t>Hi</t></doc>", 8), ("chunk.htm", html, 8)])
    assert _translate(ToyFormat(), data, lambda text: text + "!") != data
    external = b'<?xml version="1.0"?><!DOCTYPE r SYSTEM "file:///etc/passwd"><r/>'
    assert "DTD" in _refusal(_package([("content.xml", b"<t>x</t>", 8), ("other.xml", external, 8)]))


def test_members_named_with_backslashes_are_found() -> None:
    archive = ZipArchive.open(io.BytesIO(_package([("xl\\workbook.xml", b"<w/>", 8)])))
    found = archive.entry("xl/workbook.xml")
    assert found is not None and found.name == "xl\\workbook.xml"
