"""Plain text: paragraphs (blank-line separated) or lines are segments.

Everything outside a segment's first-to-last visible character — indentation, blank lines,
line endings, BOM, trailing spaces, the final newline — is kept byte for byte.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

from ..options import Options, Panel, option
from ..text.segments import Segment
from .base import Decoded, decode_utf8
from .document import PartStart, SplicingFormat

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
_BREAK = re.compile(r"\r\n|\r|\n")
# A blank line (spaces at most), its break complete: a CR at the very end may be a CR LF's half.
_BLANK_LINE = re.compile(r"(?:\r\n|\r(?!\n)|\n)[^\S\r\n]*(?:\r\n|\r(?!\n|$)|\n)")
_LINE_BREAKS = re.compile(r"[ \t]*(?:\r\n|\r|\n)\s*")


def _is_blank_char(ch: str) -> bool:
    return ch.isspace() or ch == "\ufeff"


@dataclass(frozen=True, slots=True)
class _Span:
    start: int
    end: int


def _content_span(src: str, start: int, end: int) -> _Span | None:
    """The span from the first to the last visible character in src[start:end], if any."""
    while start < end and _is_blank_char(src[start]):
        start += 1
    while end > start and _is_blank_char(src[end - 1]):
        end -= 1
    return _Span(start, end) if start < end else None


def _lines(src: str) -> Iterator[tuple[int, int]]:
    """(start, end-without-newline) of every line."""
    pos = 0
    while pos < len(src):
        match = _LINE.match(src, pos)
        assert match is not None
        line_end = match.end()
        text_end = line_end
        while text_end > match.start() and src[text_end - 1] in "\r\n":
            text_end -= 1
        yield match.start(), text_end
        pos = line_end if line_end > pos else pos + 1


@dataclass(frozen=True, slots=True)
class TextOptions(Options):
    segment_by: Literal["paragraph", "line"] = option(
        "paragraph",
        "--segment-by",
        panel=Panel.FORMATS,
        help="txt: paragraphs (blank-line separated) or lines.",
    )


class TextFormat(SplicingFormat):
    name = "txt"
    suffixes = (".txt",)
    in_parts = True

    def __init__(self, options: TextOptions | None = None) -> None:
        self.segment_by = (options or TextOptions()).segment_by

    def decode(self, data: bytes) -> Decoded:
        return decode_utf8(data)

    def parse(self, text: str) -> TextDocument:
        return TextDocument(text, self.spans_of(text))

    def parse_part(self, text: str, part: PartStart) -> TextDocument:
        return TextDocument(text, self.spans_of(text), first_line=part.line)

    def cut(self, text: str, *, first: bool) -> int:
        """After the last whole line (by lines), after the last blank line (by paragraphs)."""
        if self.segment_by == "line":
            return max(text.rfind("\n"), text.rfind("\r", 0, len(text) - 1)) + 1
        end = 0
        for blank in _BLANK_LINE.finditer(text):
            end = blank.end()
        return end

    def spans_of(self, src: str) -> list[_Span]:
        lines = [_content_span(src, a, b) for a, b in _lines(src)]
        if self.segment_by == "line":
            return [span for span in lines if span is not None]
        spans: list[_Span] = []
        current: _Span | None = None
        for span in lines:
            if span is None:
                if current is not None:
                    spans.append(current)
                current = None
            elif current is None:
                current = span
            else:
                current = _Span(current.start, span.end)
        if current is not None:
            spans.append(current)
        return spans


class TextDocument:
    """`first_line`: the line the text begins at (a part of a document read in parts)."""

    def __init__(self, src: str, spans: list[_Span], *, first_line: int = 1) -> None:
        self.src = src
        self._spans = spans
        # The model sees "\n" line breaks whatever the file uses; reassembly restores them.
        breaks = [m.end() for m in _BREAK.finditer(src)]  # where each line after the first starts
        self.segments = [
            Segment(i, _BREAK.sub("\n", src[s.start : s.end]), role=_lines_role(breaks, s, first_line))
            for i, s in enumerate(spans)
        ]

    def reassemble(self, translated: Mapping[int, str], *, target_language: str | None = None) -> str:
        src = self.src
        out: list[str] = []
        pos = 0
        for i, span in enumerate(self._spans):
            out.append(src[pos : span.start])
            original = src[span.start : span.end]
            out.append(fit_line_breaks(original, translated[i]) if i in translated else original)
            pos = span.end
        out.append(src[pos:])
        return "".join(out)


def _lines_role(breaks: list[int], span: _Span, first_line: int) -> str:
    """Segment.role of a plain-text segment: the lines it spans ("line 4", "lines 4-6"), counted
    from `first_line`."""
    first = bisect.bisect_right(breaks, span.start) + first_line
    last = bisect.bisect_right(breaks, span.end - 1) + first_line
    return f"line {first}" if first == last else f"lines {first}\u2013{last}"


def fit_line_breaks(original: str, translation: str) -> str:
    """The translation with the original's line structure: never a blank line (it would split the
    paragraph), no line break at all where the original has none (a line stays one line); each
    break kept in place when the line count matches, otherwise the original's first break style."""
    breaks: list[str] = _BREAK.findall(original)
    if not breaks:
        return _LINE_BREAKS.sub(" ", translation)
    parts = [part for part in translation.split("\n") if part.strip()] or [translation.strip()]
    if len(parts) == len(breaks) + 1:
        return "".join(part + (breaks[i] if i < len(breaks) else "") for i, part in enumerate(parts))
    return breaks[0].join(parts)
