"""The Markdown parser and the map from its token contents back to source offsets.

markdown-it-py's block tokens carry line ranges (`map`); inline content comes without
offsets. `Lines` knows where every source line starts and ends, `content_mapper` turns an
offset into a token's content into an offset into the source, given where each content
line starts there.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import Literal, NamedTuple

from markdown_it import MarkdownIt

from ..spans import Span, SpanKind

_LINE_END = re.compile(r"\r\n|\r|\n")

Where = Callable[[int], int]  # content offset -> source offset


RawKind = SpanKind | Literal["entity"]


class RawPart(NamedTuple):
    """A part of a segment found in a token's content: offsets into that content.
    kind: as `Span.kind`, plus "entity" (text whose `shown` is the character it spells)."""

    start: int
    end: int
    kind: RawKind
    key: str = ""
    written: str | None = None  # see Span.written


@cache
def markdown_parser() -> MarkdownIt:
    """CommonMark + tables, strikethrough, front matter, footnotes, admonitions, dollar math.
    Built once; markdown-it keeps no state between `parse` calls (each gets its own env)."""
    from mdit_py_plugins.admon import admon_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    md = (
        MarkdownIt("commonmark")
        .enable(["table", "strikethrough"])
        .use(front_matter_plugin)
        .use(footnote_plugin)
        .use(admon_plugin)
        .use(dollarmath_plugin)
    )
    md.disable("text_join")  # keep escapes/entities as their own tokens (markup = source text)
    # Footnote definitions stay where they are written: every one is translated in place. The
    # tail rule would move them to the end and drop those no reference names (and all but the
    # last of a label's), leaving their text untranslated; a part of a long document would also
    # need the other parts' references to know which to keep.
    md.disable("footnote_tail")
    return md


class Lines:
    """Start and text end (before the line break) of every source line, as markdown-it counts them."""

    __slots__ = ("starts", "ends")

    def __init__(self, src: str, base: int) -> None:
        self.starts: list[int] = [base]
        self.ends: list[int] = []
        for match in _LINE_END.finditer(src, base):
            self.ends.append(match.start())
            self.starts.append(match.end())
        self.ends.append(len(src))  # the last line (empty after a final line break)

    def __len__(self) -> int:
        return len(self.starts)

    def text(self, src: str, i: int) -> str:
        return src[self.starts[i] : self.ends[i]] if i < len(self.starts) else ""


def content_mapper(content: str, offsets: Sequence[int]) -> Where:
    """content offset -> source offset, given where each content line starts in the source."""
    line_starts = [0]
    for line in content.split("\n")[:-1]:
        line_starts.append(line_starts[-1] + len(line) + 1)

    def where(c: int) -> int:
        row = bisect.bisect_right(line_starts, c) - 1
        return offsets[row] + (c - line_starts[row])

    return where


def to_source(where: Where, parts: Sequence[RawPart]) -> list[Span]:
    """Content parts as parts of the source; an entity shows its character to the model."""
    return [
        Span(where(p.start), where(p.end), "text", "", p.key)
        if p.kind == "entity"
        else Span(where(p.start), where(p.end), p.kind, p.key, written=p.written)
        for p in parts
    ]


def reads_the_same(src: str, content: str, parts: Sequence[RawPart], located: Sequence[Span]) -> bool:
    """Every part (but line breaks, which hold container prefixes) spells the same in the
    source as in the content: the map from content to source is right."""
    return all(
        raw.kind == "break" or src[part.start : part.end] == content[raw.start : raw.end]
        for raw, part in zip(parts, located)
    )
