"""What the subtitle formats share as document formats: how their bytes are read, their lines, and
the unit a parsed file is (its cues named for reports, its own QA of their translations).

A file in UTF-8, UTF-16 or UTF-32 says so with a byte order mark, kept as it was; one without is
UTF-8, or in the encoding `--encoding` names (cp1252, gbk ...): its translation is written in the
same encoding. A file with NUL characters is refused as binary (or UTF-16 without its mark).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from ..base import Decoded, DocumentDecodeError, FormatError, ParsedDocument, Unit
from ..document import Document, SplicingFormat
from .cues import SubtitleDocument
from .options import SubtitleOptions

_BREAK = re.compile(r"\r\n|\r|\n")
# UTF-32 first: its little-endian mark begins with UTF-16's.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


@dataclass(frozen=True, slots=True)
class Line:
    """A line of the source: where it starts, where its text ends, where the next line starts."""

    start: int
    end: int
    next: int


def lines_of(text: str) -> list[Line]:
    """Every line of `text` (after a byte order mark), with CR LF, CR or LF endings."""
    out: list[Line] = []
    pos = 1 if text.startswith("\ufeff") else 0
    for match in _BREAK.finditer(text, pos):
        out.append(Line(pos, match.start(), match.end()))
        pos = match.end()
    if pos < len(text):
        out.append(Line(pos, len(text), len(text)))
    return out


class SubtitleFormat(SplicingFormat):
    """A subtitle format: `parse` finds the cues (each format its own way) into a SubtitleDocument."""

    def __init__(self, options: SubtitleOptions | None = None) -> None:
        self.options = options or SubtitleOptions()

    def decode(self, data: bytes) -> Decoded:
        codec = next((codec for bom, codec in _BOMS if data.startswith(bom)), None)
        if codec is None or codec == "utf-8":
            codec = "utf-8"
        try:
            return Decoded(data.decode(codec), codec)
        except UnicodeDecodeError as exc:
            hint = "; --encoding names the encoding of a file in another" if codec == "utf-8" else ""
            raise DocumentDecodeError(f"not valid {codec.upper()} ({exc.reason}{hint})", exc.start) from None

    def parse(self, text: str) -> SubtitleDocument:
        if "\x00" in text:
            line = text.count("\n", 0, text.index("\x00")) + 1
            raise FormatError(
                f"a NUL character on line {line}: a binary file, or UTF-16 text without its byte order mark"
            )
        return self.cues_of(text)

    def cues_of(self, text: str) -> SubtitleDocument:  # pragma: no cover - every format defines it
        raise NotImplementedError

    def unit(self, index: int, decoded: Decoded, parsed: ParsedDocument) -> Unit:
        """The file's one unit: each cue named "cue 12 (line 45)" in reports, its translation
        checked for reading speed and line length (written in the output's encoding)."""
        assert isinstance(parsed, SubtitleDocument)
        document = parsed.written_in(decoded.encoding)
        return Unit(
            index,
            document.segments,
            Document(decoded, document),
            labels=document.labels,
            warning=document.warning,
            check=document.findings,
        )


def line_error(line: int, message: str) -> FormatError:
    return FormatError(f"line {line}: {message}")
