"""A zip package read as untrusted input: its directory checked, its members read within limits.

`ZipArchive.open(binary)` reads the central directory (zip64 too) and refuses, with one line
(`PackageError`, a `FormatError`), what is no safe package: an OLE compound file (a
password-protected Office file: "encrypted"; a legacy binary file), a truncated archive, more
members or more unpacked bytes than `ZipLimits` allow, a member that unpacks more than
`max_ratio` times its packed size (a zip bomb), members that overlap (the "overlapping files"
bomb), encrypted members, member names that are absolute, climb out with `..`, or repeat.

Each `ZipEntry` keeps what is needed to copy the member as it was (`record_span`: the local
header, the packed bytes and the data descriptor) and to write a new central directory record
(`fields`). `chunks(entry)` unpacks a member a piece at a time, never more than its declared
size, and checks its CRC at the end.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from ..base import FormatError

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_EOCD = b"PK\x05\x06"
_EOCD64 = b"PK\x06\x06"
_LOCATOR64 = b"PK\x06\x07"
_CENTRAL = b"PK\x01\x02"
_LOCAL = b"PK\x03\x04"
_DESCRIPTOR = b"PK\x07\x08"
_CENTRAL_FIXED = struct.Struct("<4sHHHHHHIIIHHHHHII")  # 46 bytes
_LOCAL_FIXED = struct.Struct("<4sHHHHHIIIHH")  # 30 bytes
_CHUNK = 1 << 20
STORED, DEFLATED = 0, 8


class PackageError(FormatError):
    """A package that is not read: the message names the problem (the run names the file)."""


@dataclass(frozen=True, slots=True)
class ZipLimits:
    """What a package may hold. A member smaller than `ratio_grace` bytes unpacked may have any
    ratio (a run of spaces packs 1000 to 1); a larger one at most `max_ratio`. Deflate cannot
    pack more than about 1032 to 1: a bomb is caught by the ratio or by the totals."""

    max_members: int = 50_000
    max_total_size: int = 8 << 30  # bytes unpacked, all members together
    max_member_size: int = 4 << 30
    max_ratio: float = 200.0
    ratio_grace: int = 1 << 20


@dataclass(frozen=True, slots=True)
class CentralFields:
    """A central directory record's fields, as the source wrote them (zip64 sizes resolved)."""

    made_by: int
    needed: int
    flags: int
    method: int
    time: int
    date: int
    crc: int
    compressed_size: int
    size: int
    raw_name: bytes
    extra: bytes  # without the zip64 field (written again where needed)
    comment: bytes
    internal_attributes: int
    external_attributes: int


@dataclass(frozen=True, slots=True)
class ZipEntry:
    """One member: its name, where its local record lies in the archive, and its fields."""

    name: str
    index: int  # in the central directory's order
    offset: int  # of the local header, from the start of the file
    data_offset: int  # of the packed bytes
    record_end: int  # after the packed bytes and the data descriptor, if any
    fields: CentralFields
    local_extra: bytes = b""  # the local header's extra field, without a zip64 field

    @property
    def size(self) -> int:
        return self.fields.size

    @property
    def compressed_size(self) -> int:
        return self.fields.compressed_size

    @property
    def crc(self) -> int:
        return self.fields.crc

    @property
    def method(self) -> int:
        return self.fields.method

    @property
    def is_dir(self) -> bool:
        return self.name.endswith("/")


class ZipArchive:
    """An opened package: its members in the central directory's order, read from `binary`
    (seekable; the archive never closes it)."""

    def __init__(self, binary: BinaryIO, entries: list[ZipEntry], comment: bytes, size: int) -> None:
        self.binary = binary
        self.entries = entries
        self.comment = comment
        self.file_size = size
        self._by_name = {e.name: e for e in entries}
        # OPC part names ignore case; some writers separate folders with backslashes.
        self._by_folded = {_folded(e.name): e for e in entries}

    @classmethod
    def open(cls, binary: BinaryIO, limits: ZipLimits | None = None) -> ZipArchive:
        limits = limits or ZipLimits()
        try:
            return _read_directory(binary, limits)
        except (struct.error, OverflowError, ValueError) as exc:
            if isinstance(exc, PackageError):
                raise
            raise PackageError(f"not a valid zip package ({exc})") from None

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def entry(self, name: str) -> ZipEntry | None:
        """The member called `name` (OPC part names ignore case: an exact match first)."""
        return self._by_name.get(name) or self._by_folded.get(_folded(name))

    def read(self, entry: ZipEntry | str, limit: int | None = None) -> bytes:
        """A member's unpacked bytes, whole (`limit`: refuse a member larger than this)."""
        found = self.entry(entry) if isinstance(entry, str) else entry
        if found is None:
            raise PackageError(f"has no member {entry!r}")
        if limit is not None and found.size > limit:
            raise PackageError(f"member {found.name} is too large to read whole ({found.size} bytes)")
        return b"".join(self.chunks(found))

    def chunks(self, entry: ZipEntry, size: int = _CHUNK) -> Iterator[bytes]:
        """The unpacked bytes of `entry`, a chunk at a time; PackageError where they are not
        what the directory says (size, CRC) or the method is not stored or deflated."""
        method = entry.method
        if method not in (STORED, DEFLATED):
            raise PackageError(
                f"member {entry.name} uses compression method {method} (only stored and deflated are read)"
            )
        left = entry.compressed_size
        pos = entry.data_offset
        crc = 0
        produced = 0
        inflater = zlib.decompressobj(-15) if method == DEFLATED else None
        while left > 0:
            self.binary.seek(pos)
            packed = self.binary.read(min(size, left))
            if not packed:
                raise PackageError(f"is truncated (member {entry.name} ends early)")
            pos += len(packed)
            left -= len(packed)
            pieces = [packed] if inflater is None else _inflate(inflater, packed, entry, produced)
            for piece in pieces:
                produced += len(piece)
                if produced > entry.size:
                    raise PackageError(f"member {entry.name} unpacks to more than its declared size")
                crc = zlib.crc32(piece, crc)
                yield piece
        if inflater is not None and not inflater.eof:
            raise PackageError(f"member {entry.name} is cut short (its compressed data does not end)")
        if produced != entry.size or crc != entry.crc:
            raise PackageError(f"member {entry.name} is damaged (its size or CRC does not match)")

    def record(self, entry: ZipEntry, size: int = _CHUNK) -> Iterator[bytes]:
        """The member's local record as it lies in the archive: header, packed bytes, descriptor."""
        pos, end = entry.offset, entry.record_end
        while pos < end:
            self.binary.seek(pos)
            data = self.binary.read(min(size, end - pos))
            if not data:
                raise PackageError(f"is truncated (member {entry.name} ends early)")
            pos += len(data)
            yield data


def _inflate(inflater: zlib._Decompress, packed: bytes, entry: ZipEntry, produced: int) -> Iterator[bytes]:
    """Inflate `packed`, never holding more than a chunk unpacked: a bomb is cut off early."""
    data = packed
    while data:
        try:
            piece = inflater.decompress(data, _CHUNK)
        except zlib.error as exc:
            raise PackageError(f"member {entry.name} is damaged ({exc})") from None
        produced += len(piece)
        if produced > entry.size:
            raise PackageError(f"member {entry.name} unpacks to more than its declared size")
        yield piece
        data = inflater.unconsumed_tail
        if inflater.eof:
            if inflater.unused_data.strip(b"\0"):
                raise PackageError(f"member {entry.name} has bytes after its compressed data")
            return


def _folded(name: str) -> str:
    return name.replace("\\", "/").casefold()


def is_ole(head: bytes) -> bool:
    return head.startswith(OLE_MAGIC)


def ole_refusal(binary: BinaryIO) -> str:
    """Why an OLE compound file is no package: a password-protected Office file keeps its package
    encrypted in an `EncryptedPackage` stream; anything else is a legacy binary file."""
    needle = "EncryptedPackage".encode("utf-16-le")
    binary.seek(0)
    tail = b""
    while chunk := binary.read(_CHUNK):
        if needle in tail + chunk:
            return "is encrypted (password-protected): save it without a password to translate it"
        tail = chunk[-len(needle) :]
    return "is an OLE compound file (a legacy binary Office file?), not an Office Open XML package"


def _read_directory(binary: BinaryIO, limits: ZipLimits) -> ZipArchive:
    binary.seek(0, 2)
    file_size = binary.tell()
    binary.seek(0)
    head = binary.read(8)
    if is_ole(head):
        raise PackageError(ole_refusal(binary))
    eocd_at, eocd = _find_eocd(binary, file_size)
    if eocd_at < 0:
        if head.startswith(_LOCAL):
            raise PackageError("is truncated (the zip archive has no end of central directory)")
        raise PackageError("is not a zip package")
    (_, disk, cd_disk, _, count, cd_size, cd_offset, comment_len) = struct.unpack("<4sHHHHIIH", eocd[:22])
    comment = eocd[22 : 22 + comment_len]
    directory_end = eocd_at
    if count == 0xFFFF or cd_size == 0xFFFFFFFF or cd_offset == 0xFFFFFFFF:
        count, cd_size, cd_offset, directory_end = _zip64_directory(binary, eocd_at)
    if disk != 0 or cd_disk != 0:
        raise PackageError("is a multi-volume zip archive (not read)")
    if count > limits.max_members:
        raise PackageError(f"has {count} members (at most {limits.max_members} are read)")
    cd_start = directory_end - cd_size
    base = cd_start - cd_offset  # bytes before the archive (a self-extracting stub)
    if cd_start < 0 or base < 0:
        raise PackageError("is truncated or damaged (its central directory lies outside the file)")
    binary.seek(cd_start)
    directory = binary.read(cd_size)
    if len(directory) != cd_size:
        raise PackageError("is truncated (its central directory is cut short)")
    entries = _entries(binary, directory, count, base, cd_start, limits)
    return ZipArchive(binary, entries, comment, file_size)


def _find_eocd(binary: BinaryIO, file_size: int) -> tuple[int, bytes]:
    """The end-of-central-directory record: its offset and bytes (-1: none)."""
    span = min(file_size, 22 + 0xFFFF)
    binary.seek(file_size - span)
    tail = binary.read(span)
    at = tail.rfind(_EOCD)
    while at >= 0:
        if len(tail) - at >= 22:
            comment_len = struct.unpack_from("<H", tail, at + 20)[0]
            if at + 22 + comment_len <= len(tail):
                return file_size - span + at, tail[at:]
        at = tail.rfind(_EOCD, 0, at)
    return -1, b""


def _zip64_directory(binary: BinaryIO, eocd_at: int) -> tuple[int, int, int, int]:
    """(entries, directory size, directory offset, where the directory ends) from the zip64 records."""
    if eocd_at < 20:
        raise PackageError("is damaged (a zip64 archive without its locator)")
    binary.seek(eocd_at - 20)
    locator = binary.read(20)
    signature, _, record_at, _ = struct.unpack("<4sIQI", locator)
    if signature != _LOCATOR64:
        raise PackageError("is damaged (a zip64 archive without its locator)")
    # The record's offset is relative to the archive's start: find it just before the locator.
    binary.seek(eocd_at - 20 - 56)
    record = binary.read(56)
    if len(record) != 56 or record[:4] != _EOCD64:
        binary.seek(record_at)
        record = binary.read(56)
        if len(record) != 56 or record[:4] != _EOCD64:
            raise PackageError("is damaged (its zip64 end of central directory is missing)")
        end = record_at
    else:
        end = eocd_at - 20 - 56
    (_, _, _, _, _, _, _, count, cd_size, cd_offset) = struct.unpack("<4sQHHIIQQQQ", record)
    return count, cd_size, cd_offset, end


def _entries(
    binary: BinaryIO, directory: bytes, count: int, base: int, cd_start: int, limits: ZipLimits
) -> list[ZipEntry]:
    entries: list[ZipEntry] = []
    seen: set[str] = set()
    total = 0
    pos = 0
    for index in range(count):
        if directory[pos : pos + 4] != _CENTRAL:
            raise PackageError("is damaged (its central directory ends early)")
        (
            _,
            made_by,
            needed,
            flags,
            method,
            time,
            date,
            crc,
            csize,
            usize,
            nlen,
            xlen,
            clen,
            disk,
            iattr,
            eattr,
            offset,
        ) = _CENTRAL_FIXED.unpack_from(directory, pos)
        start = pos + _CENTRAL_FIXED.size
        raw_name = directory[start : start + nlen]
        extra = directory[start + nlen : start + nlen + xlen]
        comment = directory[start + nlen + xlen : start + nlen + xlen + clen]
        pos = start + nlen + xlen + clen
        if pos > len(directory):
            raise PackageError("is damaged (its central directory ends early)")
        usize, csize, offset, extra = _zip64_sizes(extra, usize, csize, offset, disk)
        name = _checked_name(raw_name, flags, seen)
        if flags & 0x41:
            raise PackageError(f"is encrypted (member {name} is password-protected)")
        total += usize
        _check_size(name, usize, csize, total, limits)
        fields = CentralFields(
            made_by,
            needed,
            flags,
            method,
            time,
            date,
            crc,
            csize,
            usize,
            raw_name,
            extra,
            comment,
            iattr,
            eattr,
        )
        entries.append(_located(binary, name, index, base + offset, fields))
    _check_overlaps(entries, cd_start)
    return entries


def _zip64_sizes(extra: bytes, usize: int, csize: int, offset: int, disk: int) -> tuple[int, int, int, bytes]:
    """The sizes and offset, from the zip64 extra field where the record says so; the extra
    field without it."""
    kept = bytearray()
    pos = 0
    while pos + 4 <= len(extra):
        tag, length = struct.unpack_from("<HH", extra, pos)
        body = extra[pos + 4 : pos + 4 + length]
        if tag == 0x0001:
            values = list(struct.unpack_from(f"<{len(body) // 8}Q", body)) if len(body) >= 8 else []
            if usize == 0xFFFFFFFF and values:
                usize = values.pop(0)
            if csize == 0xFFFFFFFF and values:
                csize = values.pop(0)
            if offset == 0xFFFFFFFF and values:
                offset = values.pop(0)
        else:
            kept += extra[pos : pos + 4 + length]
        pos += 4 + length
    kept += extra[pos:]  # (trailing bytes that are no field: kept as they were)
    return usize, csize, offset, bytes(kept)


def _checked_name(raw: bytes, flags: int, seen: set[str]) -> str:
    name = raw.decode("utf-8" if flags & 0x800 else "cp437", "replace")
    if not name or "\0" in name:
        raise PackageError("has a member without a name")
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":") or ".." in parts:
        raise PackageError(f"has a member named {name!r} (outside the package: refused)")
    folded = name.casefold()
    if folded in seen:
        raise PackageError(f"has two members named {name!r}")
    seen.add(folded)
    return name


def _check_size(name: str, usize: int, csize: int, total: int, limits: ZipLimits) -> None:
    if usize > limits.max_member_size:
        raise PackageError(
            f"member {name} unpacks to {usize} bytes (at most {limits.max_member_size}): refused"
        )
    if total > limits.max_total_size:
        raise PackageError(f"unpacks to more than {limits.max_total_size} bytes: refused (a zip bomb?)")
    if usize > limits.ratio_grace and usize > limits.max_ratio * max(csize, 1):
        raise PackageError(
            f"member {name} unpacks {usize // max(csize, 1)} times its packed size "
            f"(at most {limits.max_ratio:g}): refused (a zip bomb?)"
        )


def _located(binary: BinaryIO, name: str, index: int, offset: int, fields: CentralFields) -> ZipEntry:
    """The entry with its local record's extent, read from its local header."""
    binary.seek(offset)
    header = binary.read(_LOCAL_FIXED.size)
    if len(header) != _LOCAL_FIXED.size:
        raise PackageError(f"is truncated (member {name} is missing)")
    signature, _, flags, _, _, _, _, _, _, nlen, xlen = _LOCAL_FIXED.unpack(header)
    if signature != _LOCAL:
        raise PackageError(f"is damaged (member {name} has no local header)")
    names = binary.read(nlen + xlen)
    if names[:nlen] != fields.raw_name:
        raise PackageError(f"is damaged (member {name} is named otherwise in its local header)")
    data_offset = offset + _LOCAL_FIXED.size + nlen + xlen
    end = data_offset + fields.compressed_size
    if flags & 0x08:  # a data descriptor follows: 12 or 16 bytes, 20 or 24 with zip64 sizes
        zip64 = _has_zip64(names[nlen:])
        binary.seek(end)
        signed = binary.read(4) == _DESCRIPTOR
        end += (4 if signed else 0) + (20 if zip64 else 12)
    return ZipEntry(name, index, offset, data_offset, end, fields, _without_zip64(names[nlen:]))


def _without_zip64(extra: bytes) -> bytes:
    kept = bytearray()
    pos = 0
    while pos + 4 <= len(extra):
        tag, length = struct.unpack_from("<HH", extra, pos)
        if tag != 0x0001:
            kept += extra[pos : pos + 4 + length]
        pos += 4 + length
    return bytes(kept)


def _has_zip64(extra: bytes) -> bool:
    pos = 0
    while pos + 4 <= len(extra):
        tag, length = struct.unpack_from("<HH", extra, pos)
        if tag == 0x0001:
            return True
        pos += 4 + length
    return False


def _check_overlaps(entries: list[ZipEntry], cd_start: int) -> None:
    """Every local record lies before the central directory, and no two share bytes."""
    ordered = sorted(entries, key=lambda e: e.offset)
    for entry, following in zip(ordered, [*ordered[1:], None]):
        limit = following.offset if following is not None else cd_start
        if entry.record_end > limit:
            what = (
                f"overlaps member {following.name}"
                if following is not None
                else "runs into the central directory"
            )
            raise PackageError(f"is damaged or a zip bomb (member {entry.name} {what})")
