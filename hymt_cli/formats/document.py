"""Any document format as a pipeline input: a document is one unit, or a unit per part.

The reader reads and decodes the bytes and parses the text; the writer splices the
translations into the parsed document and encodes it the way the source was encoded.

A format that knows where a document may be cut (`cut`: text and Markdown) has a long
document read, translated and written a part at a time, as a table's rows are: the parts'
segments are the whole document's, and the parts' outputs, one after the other, are the
whole output, byte for byte. A document shorter than one part is parsed whole. What every
part needs to know of the whole (Markdown's link reference definitions) the format learns
first (`survey`), reading the document through once; it may also say the document is not to
be cut at all.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import BinaryIO, ClassVar

from ..text.segments import Segment
from .base import (
    READ_SIZES,
    Catalog,
    Decoded,
    DocumentDecodeError,
    FormatError,
    InputReader,
    InputSource,
    ParsedDocument,
    ReadSizes,
    Unit,
)
from .document_context import NOTHING_BEFORE, Surroundings, surroundings_after
from .encodings import EncodingOptions, bom_codec, decode_as, encoded


@dataclass(frozen=True, slots=True)
class Document:
    """A unit's content: the decoded source (of the part) and its parse."""

    decoded: Decoded
    parsed: ParsedDocument


class Survey:
    """What a format learns of a whole document before reading it in parts (`survey`), for
    every part's parse: Markdown's link reference definitions. This base knows nothing."""


NOTHING_TO_KNOW = Survey()


@dataclass(frozen=True, slots=True)
class PartStart:
    """Where a part of a document begins: which part (from 0), its first line (from 1), and the
    title and nearest heading that the parts before it have (their segments' context)."""

    index: int = 0
    line: int = 1
    before: Surroundings = NOTHING_BEFORE
    whole: Survey = NOTHING_TO_KNOW  # what the format learned of the whole document first


class SplicingFormat:
    """What every document format shares: opening an input as one unit (the pipeline's
    `InputFormat`), or as parts where the format says where a document may be cut, and
    conveniences over `parse` (handy in tests)."""

    name: ClassVar[str]
    suffixes: ClassVar[tuple[str, ...]]
    # --encoding and --output-encoding (formats/encodings.py), given by `with_encodings`.
    encodings: EncodingOptions = EncodingOptions()
    # UTF-8 documents that `cut` finds places to cut: read in parts (`parse_part`).
    in_parts: ClassVar[bool] = False

    def decode(self, data: bytes) -> Decoded:  # pragma: no cover - every format defines it
        raise NotImplementedError

    def with_encodings(self, options: EncodingOptions) -> SplicingFormat:
        self.encodings = options
        return self

    def decode_input(self, data: bytes) -> Decoded:
        """An input's text: in the encoding it declares, else in --encoding's, else as `decode`
        reads it."""
        fallback = self.encodings.encoding
        if fallback is None or bom_codec(data) is not None:
            return self.decode(data)
        return decode_as(data, fallback)

    def relabelled(self, text: str, codec: str) -> str:
        """The source text as an output in `codec` should say it is (an HTML page's charset)."""
        return text

    def parse(self, text: str) -> ParsedDocument:  # pragma: no cover - every format defines it
        raise NotImplementedError

    def cut(self, text: str, *, first: bool) -> int:
        """Where `text`, a document's text from its start (`first`) or from an earlier cut, may be
        cut: the offset of the last place where what comes before and what comes after parse on
        their own into the document's segments (0: no such place). For `in_parts` formats."""
        return 0

    def survey(self, binary: BinaryIO, part_bytes: int) -> Survey | None:
        """What every part of the document in `binary` (read from its start, left at its start)
        needs to know of the whole, such as definitions that a part may use before they come;
        None where the document may not be cut at all. For `in_parts` formats."""
        return NOTHING_TO_KNOW

    def parse_part(self, text: str, part: PartStart) -> ParsedDocument:
        """A part's parse: its segments as the whole document's parse has them there."""
        return self.parse(text)

    def unit(self, index: int, decoded: Decoded, parsed: ParsedDocument) -> Unit:
        """The unit of a parsed document (or of a part of one); a format may say more of its
        segments here (how a report names them, its own checks of their translations)."""
        return Unit(index, parsed.segments, Document(decoded, parsed))

    @property
    def catalog(self) -> Catalog | None:
        """None: a document format is no file of strings (strings/_document.py's are)."""
        return None

    def open(self, source: InputSource, sizes: ReadSizes = READ_SIZES) -> InputReader:
        return DocumentReader(self, source, part_bytes=sizes.part_bytes)

    def segments(self, src: str) -> list[Segment]:
        return list(self.parse(src).segments)

    def reassemble(
        self, src: str, translated: Mapping[int, str], *, target_language: str | None = None
    ) -> str:
        return self.parse(src).reassemble(translated, target_language=target_language)


class DocumentReader:
    # Its targets are written whole, never merged into (formats/base.TargetMerge).
    merge: None = None

    def __init__(
        self, fmt: SplicingFormat, source: InputSource, *, part_bytes: int = READ_SIZES.part_bytes
    ) -> None:
        self._format = fmt
        self._source = source
        self._part_bytes = part_bytes  # a part of a long document: about this many bytes
        self._output: Decoded | None = None  # how outputs are encoded, once the input is decoded

    def units(self) -> Iterator[Unit]:
        if self._format.in_parts and self._format.encodings.encoding is None:  # (UTF-8, as it was)
            try:
                binary = self._source.open_binary()
            except OSError as exc:
                raise _unreadable(exc) from None
            with binary:
                survey = _survey(self._format, binary, self._part_bytes)
                if survey is not None:
                    yield from self._parts(binary, survey)
                    return
                data = _read_all(binary)
        else:
            try:
                data = self._source.read_bytes()
            except OSError as exc:
                raise _unreadable(exc) from None
        decoded = self._format.decode_input(data)
        codec = self._format.encodings.output_codec(decoded.encoding)
        if codec != decoded.encoding:  # written in another encoding: the text says so, if it can
            decoded = Decoded(self._format.relabelled(decoded.text, codec), codec)
        self._output = decoded
        yield self._unit(decoded, PartStart())

    @property
    def encoded(self) -> DocumentReader:
        """Its outputs may be in a legacy encoding (`output_encoding`, `unwritable`)."""
        return self

    def output_encoding(self, lang: str) -> str | None:
        """The legacy encoding outputs are written in (an HTML page writes any character as a
        character reference: None)."""
        output = self._output
        if output is None or output.errors != "strict":
            return None
        from ..text.substitutes import is_legacy  # an output in an encoding of its own only

        if not is_legacy(output.encoding):
            return None
        return output.encoding

    def unwritable(self, lang: str) -> str | None:
        """A legacy encoding that lacks letters of `lang`."""
        codec = self.output_encoding(lang)
        if codec is None:
            return None
        from ..text.exemplars import refusal  # a legacy output's only

        return refusal(lang, codec)

    def _parts(self, binary: BinaryIO, survey: Survey) -> Iterator[Unit]:
        """The document a part at a time, each with what the parts before it said."""
        before = NOTHING_BEFORE
        for piece in part_texts(binary, self._format.cut, self._part_bytes):
            unit = self._unit(Decoded(piece.text), PartStart(piece.index, piece.line, before, survey))
            yield unit
            before = surroundings_after(unit.segments, before)

    def _unit(self, decoded: Decoded, part: PartStart) -> Unit:
        fmt = self._format
        try:
            parsed = fmt.parse_part(decoded.text, part)
        except FormatError:
            raise
        except (ValueError, RecursionError) as exc:
            raise FormatError(f"cannot parse as {fmt.name}: {exc}") from None
        return fmt.unit(part.index, decoded, parsed)

    def writer(self, target_language: str, out: BinaryIO) -> DocumentWriter:
        return DocumentWriter(target_language, out)


def output_bytes(decoded: Decoded, text: str, target_language: str) -> bytes:
    """A translation in the encoding its source was decoded for: characters a legacy encoding
    lacks are the format's way (HTML's character references) or an error, never a `?`."""
    if decoded.errors != "strict":
        return decoded.encode(text)
    return encoded(text, decoded.encoding, target_language)


class DocumentWriter:
    recorded: None = None  # (no record key by key: formats/base.UnitWriter)

    def __init__(self, target_language: str, out: BinaryIO) -> None:
        self._target = target_language
        self._out = out

    def write(self, unit: Unit, translated: Mapping[int, str]) -> None:
        document = unit.content
        assert isinstance(document, Document)
        text = document.parsed.reassemble(translated, target_language=self._target)
        self._out.write(output_bytes(document.decoded, text, self._target))

    def close(self) -> None:
        pass


def _unreadable(exc: OSError) -> FormatError:
    return FormatError(f"cannot read: {exc.strerror or exc}")


def _survey(fmt: SplicingFormat, binary: BinaryIO, part_bytes: int) -> Survey | None:
    try:
        return fmt.survey(binary, part_bytes)
    except OSError as exc:
        raise _unreadable(exc) from None


@dataclass(frozen=True, slots=True)
class PartText:
    """A part's text: which part (from 0), and the line it begins at (from 1)."""

    text: str
    index: int
    line: int


def part_texts(binary: BinaryIO, cut: Callable[..., int], part_bytes: int) -> Iterator[PartText]:
    """A UTF-8 document's text, a part at a time: read until `cut` (a format's) finds a place
    past `part_bytes`; at least one part, even of an empty document."""
    text = _Utf8Blocks(binary)
    held = ""
    index, line = 0, 1
    while True:
        held += text.read(max(part_bytes, len(held)))  # as much again: rescans stay linear
        if text.done:
            if held or index == 0:
                yield PartText(held, index, line)
            return
        at = cut(held, first=index == 0)
        if at > 0:
            piece, held = held[:at], held[at:]
            yield PartText(piece, index, line)
            index, line = index + 1, line + _line_breaks(piece)


def _read_all(binary: BinaryIO) -> bytes:
    try:
        return binary.read()
    except OSError as exc:
        raise _unreadable(exc) from None


def _line_breaks(text: str) -> int:
    """Line breaks in `text`, which ends at a cut (never between the CR and the LF of a CR LF)."""
    return text.count("\n") + text.count("\r") - text.count("\r\n")


class _Utf8Blocks:
    """Strict UTF-8 text of a binary stream, as much as asked at a time; the BOM stays in the
    text (U+FEFF), as `decode_utf8` keeps it, and an error names its byte offset in the file."""

    def __init__(self, binary: BinaryIO) -> None:
        self._binary = binary
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._offset = 0  # bytes given to the decoder so far
        self.done = False

    def read(self, size: int) -> str:
        """`size` bytes' text (less at the end of the stream: then `done`)."""
        data = b""
        try:
            while len(data) < size and (more := self._binary.read(size - len(data))):
                data += more
        except OSError as exc:
            raise _unreadable(exc) from None
        final = len(data) < size
        pending = len(self._decoder.getstate()[0])
        try:
            text = self._decoder.decode(data, final=final)
        except UnicodeDecodeError as exc:
            offset = self._offset - pending + exc.start
            raise DocumentDecodeError(
                f"not valid UTF-8 ({exc.reason}; --encoding names the encoding of a file in another)", offset
            ) from None
        self._offset += len(data)
        self.done = final
        return text
