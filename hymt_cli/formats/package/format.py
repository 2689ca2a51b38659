"""A package format as a pipeline input: its translated parts read a piece at a time, written back
into a copy of the package where every other member is copied as it was.

A family (OOXML, ODF, EPUB) subclasses `PackageFormat` and says only what to read: `plan`
looks at the opened archive (its manifest, content types, relationships) and lists the members
to translate, each with a factory of its `PieceScanner` (usually an `XmlScanner` over a
`BlockHandler`), in the order they are to be read. Everything else is shared:

- reading: the archive is opened within the format's `ZipLimits`, every member that is XML has
  its prolog checked (no DTDs), then each planned member is unpacked and decoded as a stream
  and fed to its scanner; each piece is a `Unit` (segments, labels) whose content is a
  `PieceContent`. A member is always at least one piece, the last one marked `last`.
- writing (`PackageWriter`): members in the source's order; those not planned are copied byte
  for byte (their local records); a planned member is packed from its pieces' reassembled text,
  straight into the output when every member before it is written, else into a spool until
  then; a planned member whose text comes out the same is copied as it was. The writer keeps the
  translations that keyed segments publish (`PartPiece.keys`) for the parts read after them.

A source read from memory (standard input) is shared with the writers; a file is opened again
by each writer, and refused if its directory changed meanwhile.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import BinaryIO, ClassVar, Protocol

from ..base import READ_SIZES, Finding, FormatError, InputSource, ReadSizes, Unit
from ._archive import DEFLATED, STORED, PackageError, ZipArchive, ZipEntry, ZipLimits
from ._target import Target, target_for
from ._xml_text import XmlCodec, check_prolog, xml_texts
from ._zip_output import PackedMember, ZipOutput
from .pieces import PartPiece

_SPOOL_IN_MEMORY = 32 << 20


class PieceScanner(Protocol):
    """Reads one member's text as it comes, a piece at a time (xml_stream.XmlScanner is one)."""

    def feed(self, text: str, *, final: bool = False) -> Iterator[PartPiece]:
        """The pieces complete once `text` is read; with `final`, the rest (at least one piece)."""
        ...


@dataclass(frozen=True, slots=True)
class PlannedPart:
    """A member to translate, and how to read it (a fresh scanner per reading)."""

    entry: ZipEntry
    scanner: Callable[[], PieceScanner]


@dataclass(frozen=True, slots=True)
class PackagePlan:
    """The members to translate in reading order; `warning`: what the plan left out that a person
    should know (the first unit carries it to the run)."""

    parts: Sequence[PlannedPart]
    warning: str = ""


@dataclass(frozen=True, slots=True)
class PieceContent:
    """A unit's content: which member and piece, and the piece itself."""

    entry: ZipEntry
    index: int
    last: bool
    piece: PartPiece
    codec: XmlCodec


class PackageFormat:
    """What every package format shares (an `InputFormat`); a family defines `plan`."""

    name: ClassVar[str]
    suffixes: ClassVar[tuple[str, ...]]
    limits: ZipLimits = ZipLimits()
    # Parts may declare a document type that names an external DTD (EPUB 2: xml_text.check_prolog).
    external_dtd: ClassVar[bool] = False
    catalog: None = None  # no file of strings (formats/base.Catalog)

    def plan(self, archive: ZipArchive) -> PackagePlan:  # pragma: no cover - every family defines it
        raise NotImplementedError

    def target(self, code: str) -> Target:
        """The target language as this family's parts write it."""
        return target_for(code)

    def open(self, source: InputSource, sizes: ReadSizes = READ_SIZES) -> PackageReader:
        return PackageReader(self, source)


class PackageReader:
    # Capabilities it lacks (formats/base.InputReader): no target merged into, no legacy encoding.
    merge: None = None
    encoded: None = None

    def __init__(self, fmt: PackageFormat, source: InputSource) -> None:
        self._format = fmt
        self._source = source
        self._planned: frozenset[str] = frozenset()
        self._signature: tuple[tuple[str, int, int, int], ...] = ()
        self._comment = b""
        self._shared: ZipArchive | None = None  # an archive in memory, shared with the writers

    def units(self) -> Iterator[Unit]:
        try:
            binary = self._source.open_binary()
        except OSError as exc:
            raise FormatError(f"cannot read: {exc.strerror or exc}") from None
        in_memory = isinstance(binary, io.BytesIO)
        try:
            archive = ZipArchive.open(binary, self._format.limits)
            for entry in archive.entries:  # (a member packed otherwise is copied, never read)
                if not entry.is_dir and entry.size and entry.method in (STORED, DEFLATED):
                    check_prolog(archive, entry, external_dtd=self._format.external_dtd)
            plan = self._format.plan(archive)
            self._planned = frozenset(p.entry.name for p in plan.parts)
            self._signature = _signature(archive)
            self._comment = archive.comment
            if in_memory:
                self._shared = archive
            yield from self._read(archive, plan)
        finally:
            if not in_memory:
                binary.close()

    def _read(self, archive: ZipArchive, plan: PackagePlan) -> Iterator[Unit]:
        index = 0
        warning = plan.warning
        for part in plan.parts:
            codec, texts = xml_texts(archive, part.entry)
            held: PartPiece | None = None
            number = 0
            for piece in _pieces(part, texts):
                if held is not None:
                    yield _unit(index, PieceContent(part.entry, number, False, held, codec), warning)
                    index, number, warning = index + 1, number + 1, ""
                held = piece
            assert held is not None, "a scanner yields at least one piece"
            yield _unit(index, PieceContent(part.entry, number, True, held, codec), warning)
            index, warning = index + 1, ""
        if index == 0:  # nothing to translate: one empty unit, so that the package is written
            yield Unit(0, (), None, warning=warning)

    def writer(self, target_language: str, out: BinaryIO) -> PackageWriter:
        return PackageWriter(self, self._format.target(target_language), out)

    def archive_for_writing(self) -> tuple[ZipArchive, BinaryIO | None]:
        """The source archive for a writer, and the handle the writer must close (None: shared)."""
        if self._shared is not None:
            return self._shared, None
        try:
            binary = self._source.open_binary()
        except OSError as exc:
            raise FormatError(f"cannot read: {exc.strerror or exc}") from None
        try:
            archive = ZipArchive.open(binary, self._format.limits)
            if _signature(archive) != self._signature:
                raise PackageError("changed while it was being translated")
        except BaseException:
            binary.close()
            raise
        return archive, binary

    @property
    def planned(self) -> frozenset[str]:
        return self._planned

    @property
    def comment(self) -> bytes:
        return self._comment


def _pieces(part: PlannedPart, texts: Iterator[str]) -> Iterator[PartPiece]:
    scanner = part.scanner()
    try:
        for text in texts:
            yield from scanner.feed(text)
        yield from scanner.feed("", final=True)
    except PackageError as exc:
        message = str(exc)
        if message.startswith("member "):
            raise
        raise PackageError(f"member {part.entry.name} {message}") from None


def _unit(index: int, content: PieceContent, warning: str) -> Unit:
    piece = content.piece
    return Unit(index, piece.segments, content, labels=piece.labels, warning=warning)


def _signature(archive: ZipArchive) -> tuple[tuple[str, int, int, int], ...]:
    return tuple((e.name, e.offset, e.crc, e.compressed_size) for e in archive.entries)


class PackageWriter:
    """Writes one translation of a package (see the module docstring)."""

    recorded: None = None  # (no record key by key: formats/base.UnitWriter)

    def __init__(self, reader: PackageReader, target: Target, out: BinaryIO) -> None:
        self._reader = reader
        self._target = target
        self._zip = ZipOutput(out)
        self._archive: ZipArchive | None = None
        self._own: BinaryIO | None = None
        self._order: list[ZipEntry] = []
        self._cursor = 0
        self._current: tuple[ZipEntry, PackedMember, BinaryIO | None] | None = None
        self._ready: dict[str, tuple[PackedMember, BinaryIO]] = {}
        self._shared: dict[str, str] = {}

    def _source(self) -> ZipArchive:
        if self._archive is None:
            self._archive, self._own = self._reader.archive_for_writing()
            self._order = sorted(self._archive.entries, key=lambda e: e.offset)
        return self._archive

    def write(self, unit: Unit, translated: Mapping[int, str]) -> list[Finding]:
        archive = self._source()
        content = unit.content
        findings: list[Finding] = []
        if content is None:  # a package with nothing to translate
            return findings
        assert isinstance(content, PieceContent)
        text = content.piece.reassemble(translated, self._target, self._shared, findings)
        if self._current is None or self._current[0].name != content.entry.name:
            self._start(archive, content.entry)
        assert self._current is not None
        entry, member, spool = self._current
        member.write(content.codec.encode(text))
        if content.last:
            self._current = None
            if spool is None:
                self._zip.end_packed(archive)
                self._cursor += 1
            else:
                member.finish()
                self._ready[entry.name] = (member, spool)
            self._flush(archive)
        return findings

    def _start(self, archive: ZipArchive, entry: ZipEntry) -> None:
        if self._current is not None:
            raise PackageError(f"member {self._current[0].name} was cut short")
        self._flush(archive)
        if self._cursor < len(self._order) and self._order[self._cursor].name == entry.name:
            self._current = (entry, self._zip.packed(entry), None)
        else:
            spool: BinaryIO = tempfile.SpooledTemporaryFile(_SPOOL_IN_MEMORY)  # type: ignore[assignment]
            self._current = (entry, self._zip.spooled(entry, spool), spool)

    def _flush(self, archive: ZipArchive) -> None:
        planned = self._reader.planned
        while self._cursor < len(self._order):
            entry = self._order[self._cursor]
            if entry.name in planned:
                ready = self._ready.pop(entry.name, None)
                if ready is None:
                    return
                member, spool = ready
                self._zip.place(archive, member, spool)
                spool.close()
            else:
                self._zip.copy(archive, entry)
            self._cursor += 1

    def close(self) -> None:
        try:
            archive = self._source()
            self._flush(archive)
            if self._current is not None or self._cursor < len(self._order):
                raise PackageError("was not read to its end: its translation is incomplete")
            self._zip.finish(self._reader.comment)
        finally:
            for _, spool in self._ready.values():
                spool.close()
            self._ready.clear()
            if self._own is not None:
                self._own.close()
                self._own = None
