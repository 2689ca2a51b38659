"""The document format contract.

A document format turns bytes into text (`decode`) and text into a parsed document that
knows its translatable segments and splices translations back (`parse`). Invariant, tested
for every format and sample:

    doc = fmt.parse(src)
    doc.reassemble({s.id: s.text for s in doc.segments}) == src      # byte for byte

and `decoded.encode(decoded.text) == data` for every input `decode` accepts. A format keeps no
state between documents: what one document needs (its charset, its parse) travels in the
values `decode` and `parse` return.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from ..segments import Segment


class DocumentDecodeError(ValueError):
    """The bytes of a document are not valid text in its encoding."""

    def __init__(self, reason: str, offset: int | None = None) -> None:
        where = f" at byte offset {offset}" if offset is not None else ""
        super().__init__(f"{reason}{where}")
        self.offset = offset


@dataclass(frozen=True, slots=True)
class Decoded:
    """A document's text, and how text goes back to bytes the way the source was written.

    `errors` is the codec error handler for characters the encoding lacks (HTML writes them
    as character references; plain formats are UTF-8 and lack nothing)."""

    text: str
    encoding: str = "utf-8"
    errors: str = "strict"

    def encode(self, text: str) -> bytes:
        return text.encode(self.encoding, self.errors)


class ParsedDocument(Protocol):
    """One document's segments and the splicing of their translations."""

    @property
    def segments(self) -> Sequence[Segment]: ...

    def reassemble(self, translated: Mapping[int, str], *, target_language: str | None = None) -> str:
        """The source with each segment's span replaced by its translation (missing ids: the
        source). `target_language` (a code) lets a format label the output (`<html lang>`)."""
        ...


class DocumentFormat(Protocol):
    name: ClassVar[str]
    suffixes: ClassVar[tuple[str, ...]]

    def decode(self, data: bytes) -> Decoded:
        """Bytes -> text, losslessly (a BOM stays in the text); raise DocumentDecodeError."""
        ...

    def parse(self, text: str) -> ParsedDocument:
        """Find the segments; raise ValueError when the text cannot be parsed as this format."""
        ...


class SplicingFormat:
    """Conveniences over `parse` shared by the document formats (and handy in tests)."""

    def parse(self, text: str) -> ParsedDocument:  # pragma: no cover - every format defines it
        raise NotImplementedError

    def segments(self, src: str) -> list[Segment]:
        return list(self.parse(src).segments)

    def reassemble(self, src: str, translated: Mapping[int, str], *,
                   target_language: str | None = None) -> str:
        return self.parse(src).reassemble(translated, target_language=target_language)


def decode_utf8(data: bytes) -> Decoded:
    """Strict UTF-8, BOM kept as U+FEFF so that encoding restores it; errors give the offset."""
    try:
        return Decoded(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(f"not valid UTF-8 ({exc.reason})", exc.start) from None
