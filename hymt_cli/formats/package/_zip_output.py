"""Writing a package: members copied as they lie in the source, or packed anew, then the directory.

`ZipOutput(out)` counts what it writes (offsets need no `tell`). `copy(archive, entry)` writes a
member's local record byte for byte (header, packed bytes, data descriptor: never unpacked or
packed again). `packed(entry)` starts a new version of a member, written straight into `out`;
`spooled(entry, spool)` packs one into a spool, to be placed later (`place`). A new member keeps
its source's name, time, method (stored stays stored), attributes and extra fields. A new member
whose bytes turn out to be the source's (same size and CRC) is replaced by the source's record
(`out` seekable) so that a part left as it was is copied as it was. `finish` writes the central
directory (in the order members were written), zip64 records where sizes or counts need them,
and the source's archive comment.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable
from typing import BinaryIO

from ._archive import DEFLATED, STORED, CentralFields, PackageError, ZipArchive, ZipEntry

_LOCAL = struct.Struct("<4sHHHHHIIIHH")
_CENTRAL = struct.Struct("<4sHHHHHHIIIHHHHHII")
_MAX32 = 0xFFFFFFFF


class PackedMember:
    """A member's new bytes being packed (deflated, or stored where the source stored it)."""

    def __init__(self, entry: ZipEntry, write: Callable[[bytes], None]) -> None:
        self.entry = entry
        self.method = STORED if entry.method == STORED else DEFLATED
        self._write = write
        self._deflater = zlib.compressobj(6, zlib.DEFLATED, -15) if self.method == DEFLATED else None
        self.crc = 0
        self.size = 0
        self.compressed_size = 0

    def write(self, data: bytes) -> None:
        if not data:
            return
        self.crc = zlib.crc32(data, self.crc)
        self.size += len(data)
        packed = data if self._deflater is None else self._deflater.compress(data)
        self._emit(packed)

    def finish(self) -> None:
        if self._deflater is not None:
            self._emit(self._deflater.flush())
            self._deflater = None
        if self.size > _MAX32 or self.compressed_size > _MAX32:
            raise PackageError(f"member {self.entry.name} would be larger than 4 GiB once translated")

    @property
    def unchanged(self) -> bool:
        """The new bytes are the source's (its size and CRC)."""
        return self.size == self.entry.size and self.crc == self.entry.crc

    def _emit(self, packed: bytes) -> None:
        if packed:
            self.compressed_size += len(packed)
            self._write(packed)


class ZipOutput:
    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.pos = 0
        self._start = out.tell() if out.seekable() else 0
        self._central: list[bytes] = []
        self._count = 0
        self._direct: tuple[PackedMember, int] | None = None

    def write(self, data: bytes) -> None:
        self.out.write(data)
        self.pos += len(data)

    def copy(self, archive: ZipArchive, entry: ZipEntry) -> None:
        """The member's local record, byte for byte, from the source archive."""
        offset = self.pos
        for chunk in archive.record(entry):
            self.write(chunk)
        self._add_central(entry.fields, offset)

    def packed(self, entry: ZipEntry) -> PackedMember:
        """A new version of `entry`, packed straight into the output (`end_packed` completes it)."""
        assert self._direct is None, "one member at a time"
        offset = self.pos
        seekable = self.out.seekable()
        member = PackedMember(entry, self.write)
        self.write(self._local_header(member, descriptor=not seekable))
        self._direct = (member, offset)
        return member

    def end_packed(self, archive: ZipArchive) -> None:
        """Complete the member `packed` started: its header's sizes, or the source's record
        where its bytes are the source's."""
        assert self._direct is not None
        member, offset = self._direct
        self._direct = None
        member.finish()
        if not self.out.seekable():
            descriptor = struct.pack("<4sIII", b"PK\x07\x08", member.crc, member.compressed_size, member.size)
            self.write(descriptor)
            self._add_central(self._new_fields(member, descriptor=True), offset)
            return
        if member.unchanged:  # written anew, identical: the source's record instead
            self.out.seek(self._start + offset)
            self.out.truncate()
            self.pos = offset
            self.copy(archive, member.entry)
            return
        end = self.out.tell()
        self.out.seek(self._start + offset)
        self.out.write(self._local_header(member, descriptor=False))
        self.out.seek(end)
        self._add_central(self._new_fields(member, descriptor=False), offset)

    def spooled(self, entry: ZipEntry, spool: BinaryIO) -> PackedMember:
        """A new version of `entry` packed into `spool`, for `place` to write later."""

        def write(data: bytes) -> None:
            spool.write(data)

        return PackedMember(entry, write)

    def place(self, archive: ZipArchive, member: PackedMember, spool: BinaryIO) -> None:
        """Write a spooled member (finished): its header and packed bytes, or the source's record."""
        if member.unchanged:
            self.copy(archive, member.entry)
            return
        offset = self.pos
        self.write(self._local_header(member, descriptor=False))
        spool.seek(0)
        while chunk := spool.read(1 << 20):
            self.write(chunk)
        self._add_central(self._new_fields(member, descriptor=False), offset)

    def finish(self, comment: bytes = b"") -> None:
        """The central directory, and its end records."""
        cd_offset = self.pos
        for record in self._central:
            self.write(record)
        cd_size = self.pos - cd_offset
        count = self._count
        if count >= 0xFFFF or cd_offset >= _MAX32 or cd_size >= _MAX32:
            eocd64_at = self.pos
            self.write(
                struct.pack("<4sQHHIIQQQQ", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, cd_size, cd_offset)
            )
            self.write(struct.pack("<4sIQI", b"PK\x06\x07", 0, eocd64_at, 1))
        self.write(
            struct.pack(
                "<4sHHHHIIH",
                b"PK\x05\x06",
                0,
                0,
                min(count, 0xFFFF),
                min(count, 0xFFFF),
                min(cd_size, _MAX32),
                min(cd_offset, _MAX32),
                len(comment),
            )
            + comment
        )

    def _local_header(self, member: PackedMember, *, descriptor: bool) -> bytes:
        fields = member.entry.fields
        name, extra = fields.raw_name, member.entry.local_extra
        flags = _flags(fields.flags, member.method, descriptor)
        crc, csize, size = (0, 0, 0) if descriptor else (member.crc, member.compressed_size, member.size)
        header = _LOCAL.pack(
            b"PK\x03\x04", max(20, min(fields.needed, 20)), flags, member.method, fields.time, fields.date,
            crc, csize, size, len(name), len(extra),
        )  # fmt: skip
        return header + name + extra

    def _new_fields(self, member: PackedMember, *, descriptor: bool) -> CentralFields:
        fields = member.entry.fields
        return CentralFields(
            fields.made_by,
            max(20, min(fields.needed, 20)),
            _flags(fields.flags, member.method, descriptor),
            member.method,
            fields.time,
            fields.date,
            member.crc,
            member.compressed_size,
            member.size,
            fields.raw_name,
            fields.extra,
            fields.comment,
            fields.internal_attributes,
            fields.external_attributes,
        )

    def _add_central(self, fields: CentralFields, offset: int) -> None:
        self._count += 1
        values = []
        size, csize, at = fields.size, fields.compressed_size, offset
        if size >= _MAX32:
            values.append(size)
            size = _MAX32
        if csize >= _MAX32:
            values.append(csize)
            csize = _MAX32
        if at >= _MAX32:
            values.append(at)
            at = _MAX32
        extra = fields.extra
        needed = fields.needed
        if values:
            extra = struct.pack(f"<HH{len(values)}Q", 0x0001, 8 * len(values), *values) + extra
            needed = max(needed, 45)
        self._central.append(
            _CENTRAL.pack(
                b"PK\x01\x02",
                fields.made_by,
                needed,
                fields.flags,
                fields.method,
                fields.time,
                fields.date,
                fields.crc,
                csize,
                size,
                len(fields.raw_name),
                len(extra),
                len(fields.comment),
                0,
                fields.internal_attributes,
                fields.external_attributes,
                at,
            )  # fmt: skip
            + fields.raw_name
            + extra
            + fields.comment
        )


def _flags(source: int, method: int, descriptor: bool) -> int:
    """The source's flags (UTF-8 name, deflate level) with the data descriptor bit as written."""
    flags = source & 0x0806 if method == DEFLATED else source & 0x0800
    return flags | 0x08 if descriptor else flags
