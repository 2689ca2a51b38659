"""HTML blocks inside Markdown are translated with the HTML format's rules.

Inside a container (`> `, a list item) markdown-it strips each line's prefix from the
block's content: the HTML is segmented in that content, and each segment is mapped back
to the source, the line ends and prefixes inside it becoming line breaks."""

from __future__ import annotations

import dataclasses

from markdown_it.token import Token

from ..html import find_html_segments
from ..spans import Located, Span, SpanKind, locate, segment_text
from ._blocks import CONTAINER_PREFIX
from ._source import Lines, Where, content_mapper


def html_block(src: str, lines: Lines, tok: Token) -> list[Located]:
    """The segments of one HTML block (none when its lines are not found exactly)."""
    assert tok.map is not None
    first, last = tok.map
    last = min(last, len(lines))
    if first >= last:
        return []
    start, end = lines.starts[first], lines.ends[last - 1]
    content = tok.content.rstrip("\n")
    if src[start:end].replace("\r\n", "\n").replace("\r", "\n") == content:
        return _keep_block_start(src, find_html_segments(src, start, end, blank_lines=False), start)
    where = _prefixed_lines(src, lines, content, first, last)
    if where is None:
        return []
    out: list[Located] = []
    for located in find_html_segments(content, blank_lines=False):
        moved = _to_source(src, content, located, where)
        if moved is None:
            return []  # not found exactly: the whole block stays as it is
        out.append(moved)
    return _keep_block_start(src, out, where(0))


def _keep_block_start(src: str, segments: list[Located], start: int) -> list[Located]:
    """The markup that starts the block makes it an HTML block: translated text must not
    come before it. A placeholder there leaves the segment; a paired tag there (text
    could move before it) leaves the segment untranslated. The block may be indented by up to
    three spaces: its markup starts after them."""
    while start < len(src) and src[start] in " \t":
        start += 1
    out: list[Located] = []
    for located in segments:
        if located.start != start:
            out.append(located)
        elif located.parts[0].kind in ("self", "close"):
            again = locate(
                src,
                located.parts[1:],
                newline=located.newline,
                escape=located.escape,
                peel=located.peel,
                blank_lines=located.blank_lines,
            )
            if again is not None and again.start != start:
                out.append(dataclasses.replace(again, role=located.role))
    return out


def _prefixed_lines(src: str, lines: Lines, content: str, first: int, last: int) -> Where | None:
    """The map from the block's content to the source when each content line ends a source
    line after a container prefix; None when one does not."""
    pieces = content.split("\n")
    if len(pieces) != last - first:
        return None
    offsets = []
    for row, piece in zip(range(first, last), pieces):
        text = lines.text(src, row)
        if not text.endswith(piece) or not CONTAINER_PREFIX.match(text[: len(text) - len(piece)]):
            return None
        offsets.append(lines.ends[row] - len(piece))
    return content_mapper(content, offsets)


def _to_source(src: str, content: str, located: Located, where: Where) -> Located | None:
    """A segment found in the content, as a segment of the source: text across a line end
    is cut there, the line end and the next line's prefix becoming a break."""
    parts: list[Span] = []
    numbers: list[int] = []

    def add(a: int, b: int, kind: SpanKind, n: int = 0, key: str = "", shown: str | None = None) -> None:
        parts.append(Span(where(a), where(b), kind, key, shown))
        numbers.append(n)

    for part, n in zip(located.parts, located.numbers):
        if part.kind != "text":  # markup is copied from the source, prefixes and all
            add(part.start, part.end, part.kind, n, part.key)
            continue
        a = part.start
        newline = content.find("\n", a, part.end)
        while newline >= 0:
            if newline > a:
                add(a, newline, "text")
            add(newline, newline + 1, "break")
            a = newline + 1
            newline = content.find("\n", a, part.end)
        if part.end > a:
            add(a, part.end, "text", shown=part.shown)
    # a translation's extra line breaks would lack the prefix: they become spaces
    moved = dataclasses.replace(located, parts=tuple(parts), numbers=tuple(numbers), newline=" ")
    return moved if segment_text(src, moved) == segment_text(content, located) else None
