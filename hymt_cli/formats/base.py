"""The document format contract.

A format finds the translatable segments of a document and splices translations back in.
Invariant (tested for every format and sample):
    reassemble(src, {s.id: s.text for s in segments(src)}) == src      # byte for byte
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from ..segments import Segment


class DocumentDecodeError(ValueError):
    """The bytes of a document are not valid text in its encoding."""

    def __init__(self, reason: str, offset: int | None = None) -> None:
        where = f" at byte offset {offset}" if offset is not None else ""
        super().__init__(f"{reason}{where}")
        self.offset = offset


@dataclass(frozen=True, slots=True)
class FormatOptions:
    """Per-run options that formats read; each format ignores what is not its own."""

    segment_by: str = "paragraph"  # txt: "paragraph" | "line"
    target_language: str | None = None  # html: value for <html lang>
    # parquet: which string columns, replace them or add <column>_<lang>, how a cell is parsed
    columns: tuple[str, ...] = ()
    add_columns: bool = False
    cell_format: str = "txt"
    rows_per_batch: int = 8192


class DocumentFormat(Protocol):
    name: str
    suffixes: tuple[str, ...]

    def decode(self, data: bytes) -> str:
        """Bytes -> text, losslessly (a BOM stays in the text); raise DocumentDecodeError."""
        ...

    def encode(self, text: str) -> bytes:
        ...

    def segments(self, src: str) -> list[Segment]:
        ...

    def reassemble(self, src: str, translated: Mapping[int, str], *,
                   target_language: str | None = None) -> str:
        """The source with each segment's span replaced by its translation (missing ids: source).
        `target_language` (a language code) lets a format label the output (`<html lang>`)."""
        ...


def decode_utf8(data: bytes) -> str:
    """Strict UTF-8, BOM kept as U+FEFF so that encoding restores it; errors give the offset."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(f"not valid UTF-8 ({exc.reason})", exc.start) from None
