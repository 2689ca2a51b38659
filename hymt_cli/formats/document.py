"""Any document format as a pipeline input: one document is one unit.

The reader reads and decodes the bytes and parses the text; the writer splices the
translations into the parsed document and encodes it the way the source was encoded.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import BinaryIO, ClassVar

from ..text.segments import Segment
from .base import Decoded, FormatError, InputSource, ParsedDocument, Unit
from .encodings import EncodingOptions, bom_codec, decode_as, encoded


@dataclass(frozen=True, slots=True)
class Document:
    """A unit's content: the decoded source and its parse."""

    decoded: Decoded
    parsed: ParsedDocument


class SplicingFormat:
    """What every document format shares: opening an input as one unit (the pipeline's
    `InputFormat`), and conveniences over `parse` (handy in tests)."""

    name: ClassVar[str]
    suffixes: ClassVar[tuple[str, ...]]
    # --encoding and --output-encoding (formats/encodings.py), given by `with_encodings`.
    encodings: EncodingOptions = EncodingOptions()

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

    def open(self, source: InputSource) -> DocumentReader:
        return DocumentReader(self, source)

    def segments(self, src: str) -> list[Segment]:
        return list(self.parse(src).segments)

    def reassemble(
        self, src: str, translated: Mapping[int, str], *, target_language: str | None = None
    ) -> str:
        return self.parse(src).reassemble(translated, target_language=target_language)


class DocumentReader:
    def __init__(self, fmt: SplicingFormat, source: InputSource) -> None:
        self._format = fmt
        self._source = source

    def units(self) -> Iterator[Unit]:
        try:
            data = self._source.read_bytes()
        except OSError as exc:
            raise FormatError(f"cannot read: {exc.strerror or exc}") from None
        decoded = self._format.decode_input(data)
        codec = self._format.encodings.output_codec(decoded.encoding)
        if codec != decoded.encoding:  # written in another encoding: the text says so, if it can
            decoded = Decoded(self._format.relabelled(decoded.text, codec), codec)
        try:
            parsed = self._format.parse(decoded.text)
        except FormatError:
            raise
        except (ValueError, RecursionError) as exc:
            raise FormatError(f"cannot parse as {self._format.name}: {exc}") from None
        yield Unit(0, parsed.segments, Document(decoded, parsed))

    def writer(self, target_language: str, out: BinaryIO) -> DocumentWriter:
        return DocumentWriter(target_language, out)


def output_bytes(decoded: Decoded, text: str, target_language: str) -> bytes:
    """A translation in the encoding its source was decoded for: characters a legacy encoding
    lacks are the format's way (HTML's character references) or an error, never a `?`."""
    if decoded.errors != "strict":
        return decoded.encode(text)
    return encoded(text, decoded.encoding, target_language)


class DocumentWriter:
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
