"""Block-level segments: each inline token located in the source lines, table cells, titles of
reference definitions, and the nested segments (alt text, titles, inline footnotes) of each."""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Mapping, Sequence
from typing import Any

from markdown_it.token import Token

from ..spans import Located, Span, locate, with_role
from ._escapes import (
    Escape,
    escape_admonition_title,
    escape_table_cell,
    escape_text,
    guard_bang,
    guard_line_start,
    in_table,
)
from ._inline import Footnotes, InlineWalker
from ._source import Lines, Where, content_mapper, markdown_parser, reads_the_same, to_source

_ALERT = re.compile(r"\[![A-Za-z]+\]")
# A Material for MkDocs content tab: `=== "Title"`, `===! "Title"` (selected), `===+ "Title"`.
_CONTENT_TAB = re.compile(r'===[!+]?[ \t]+"([^"\n]*)"[ \t]*')
_HEADING_HASHES = re.compile(r"[ \t>]*#+")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")
# What may stand before a block's text on its line: block quote markers, list markers, indentation.
CONTAINER_PREFIX = re.compile(r"[ \t>]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+[ \t>]*)*\Z")


def nested_segments(
    src: str, content: str, where: Where, walker: InlineWalker, table: bool = False
) -> list[Located]:
    """Alt texts, link titles and inline footnotes found by the walker, as segments of their own."""
    out: list[Located] = []
    for parts, escape, role in walker.nested:
        source_parts = to_source(where, parts)
        if not reads_the_same(src, content, parts, source_parts):
            continue
        located = locate(
            src,
            source_parts,
            newline=" ",
            escape=in_table(escape) if table else escape,
            peel=False,
            before_markup=guard_bang,
        )
        if located is not None:
            out.extend(with_role([located], role))
    return out


def _line_start(text: str, piece: str, parent: str, last: bool) -> int | None:
    """Where `piece` (one line of an inline token's content) starts in its source line `text`."""
    if parent == "admonition_title_open":
        q1, q2 = text.find('"'), text.rfind('"')
        return q1 + 1 if q2 > q1 >= 0 and text[q1 + 1 : q2] == piece else None
    if not last:
        return len(text) - len(piece) if text.endswith(piece) else None
    e = len(text)
    while True:  # the last line may have trailing spaces the content lacks
        if text[:e].endswith(piece):
            return e - len(piece)
        if e == 0 or not text[e - 1].isspace():
            break
        e -= 1
    if parent == "heading_open":  # closing hashes: `# Title ##`
        hashes = _HEADING_HASHES.match(text)
        if hashes:
            found = text.find(piece, hashes.end())
            return found if found >= 0 else None
    return None


def line_offsets(src: str, lines: Lines, tok: Token, parent: str) -> list[int] | None:
    """Source offset where each line of the inline token's content starts, or None."""
    assert tok.map is not None
    content_lines = tok.content.split("\n")
    first, last = tok.map
    if len(content_lines) > last - first:
        return None
    offsets: list[int] = []
    for i, piece in enumerate(content_lines):
        row = first + i
        if row >= len(lines):
            return None
        k = _line_start(lines.text(src, row), piece, parent, i == len(content_lines) - 1)
        if k is None:
            return None
        offsets.append(lines.starts[row] + k)
    return offsets


def inline_segments(
    src: str,
    lines: Lines,
    tok: Token,
    parent: str,
    *,
    setext: bool = False,
    footnotes: Footnotes | None = None,
) -> list[Located]:
    """The segment of a paragraph, heading, admonition title ... and the segments nested in it."""
    offsets = line_offsets(src, lines, tok, parent)
    if offsets is None or tok.children is None:
        return []
    walker = InlineWalker(tok.content, footnotes)
    parts = walker.parts(tok.children)
    if parts is None:
        return []
    if (
        len(parts) > 2
        and parts[0].kind == "self"
        and parts[1].kind == "break"
        and _ALERT.fullmatch(tok.content, parts[0].start, parts[0].end)
    ):
        parts = parts[2:]  # `> [!NOTE]` on its own line: the alert marker stays outside
    where = content_mapper(tok.content, offsets)
    source_parts = to_source(where, parts)
    if not reads_the_same(src, tok.content, parts, source_parts):
        return []
    out = nested_segments(src, tok.content, where, walker)
    tab = _CONTENT_TAB.fullmatch(tok.content.split("\n", 1)[0]) if parent == "paragraph_open" else None
    if tab is not None:  # `=== "Title"`: only the title is text; the lines after it go on
        out.extend(_content_tab_title(src, offsets[0], tab))
        breaks = [i for i, part in enumerate(source_parts) if part.kind == "break"]
        source_parts = source_parts[breaks[0] + 1 :] if breaks else []
    single_line = parent in ("heading_open", "admonition_title_open")
    # A paragraph's (or setext heading's) lines start at the block's left edge: translated
    # text there must not open a block.
    starts_line = parent == "paragraph_open" or setext
    escape: Escape = escape_admonition_title if parent == "admonition_title_open" else escape_text
    located = locate(
        src,
        source_parts,
        newline=" " if single_line else None,
        escape=escape,
        line_start=guard_line_start if starts_line else None,
        blank_lines=False,
        before_markup=guard_bang,
    )
    if located is not None:
        out.append(located)
    return out


def _content_tab_title(src: str, at: int, tab: re.Match[str]) -> list[Located]:
    title = Span(at + tab.start(1), at + tab.end(1), "text")
    if src[title.start : title.end] != tab.group(1):
        return []
    located = locate(src, [title], newline=" ", escape=escape_admonition_title, peel=False)
    return [located] if located is not None else []


def _find_cell(text: str, content: str, cursor: int, empties: int) -> tuple[str, int] | None:
    """The cell's content as spelled in the row (markdown-it unescapes `\\|` in cells: the
    escaped spelling is looked for too) and where it starts, after `cursor`."""
    for candidate in (content, content.replace("|", "\\|")):
        found = text.find(candidate, cursor)
        if found < 0:
            continue
        gap = text[cursor:found]
        if len(_UNESCAPED_PIPE.findall(gap)) <= 1 + empties and not gap.strip(" \t|>"):
            return candidate, found
    return None


def table_row(
    src: str, lines: Lines, tokens: Sequence[Token], start: int, env: dict[str, Any] | None = None
) -> list[Located]:
    """Cells of one table row: each cell's content is found after the previous cell's. `env`:
    the document parse's, so that a cell parsed again knows its links and footnotes."""
    env = {} if env is None else env
    span = tokens[start].map
    if span is None or span[0] >= len(lines):
        return []
    row = span[0]
    text = lines.text(src, row)
    out: list[Located] = []
    cursor = 0
    empties = 0
    for position in range(start + 1, len(tokens)):  # (no slice: a copy per row is quadratic)
        tok = tokens[position]
        if tok.type == "tr_close":
            break
        if tok.type != "inline" or tok.children is None:
            continue
        if not tok.content:
            empties += 1
            continue
        found = _find_cell(text, tok.content, cursor, empties)
        if found is None:
            return out
        content, at = found
        cursor, empties = at + len(content), 0
        # An escaped spelling is walked as such: re-parse it as inline to get matching children.
        again = content != tok.content
        children = markdown_parser().parseInline(content, env)[0].children if again else tok.children
        role = "table header" if tokens[position - 1].type == "th_open" else "table cell"
        footnotes = env.get("footnotes", {}).get("list", {})  # (inline footnotes of a parse again too)
        out.extend(
            with_role(_cell_segments(src, content, children or [], lines.starts[row] + at, footnotes), role)
        )
    return out


def _cell_segments(
    src: str, content: str, children: Sequence[Token], at: int, footnotes: Footnotes | None
) -> list[Located]:
    where = content_mapper(content, [at])
    walker = InlineWalker(content, footnotes)
    parts = walker.parts(children)
    if parts is None:
        return []
    out = nested_segments(src, content, where, walker, table=True)
    located = locate(
        src, to_source(where, parts), newline=" ", escape=escape_table_cell, before_markup=guard_bang
    )
    if located is not None:
        out.append(located)
    return out


def reference_titles(src: str, lines: Lines, references: Mapping[str, Mapping[str, Any]]) -> list[Located]:
    """Titles of link reference definitions (`[label]: /url "Title"`), when the whole
    definition is on one line; the label and the destination are never translated."""
    out: list[Located] = []
    for label, ref in references.items():
        span = ref.get("map")
        if not ref.get("title") or not span or span[1] - span[0] != 1 or span[0] >= len(lines):
            continue
        text = lines.text(src, span[0])
        walker = InlineWalker(text)
        if _definition_title(text, walker, label, ref["title"]):
            out.extend(
                nested_segments(src, text, functools.partial(operator.add, lines.starts[span[0]]), walker)
            )
    return out


def _definition_title(text: str, walker: InlineWalker, label: str, title_value: str) -> bool:
    """Collect the title of the definition `[label]: dest "title"` that is the line `text`."""
    from markdown_it.common.utils import normalizeReference
    from markdown_it.helpers import parseLinkDestination, parseLinkTitle

    open_at = text.find("[")
    if open_at < 0 or not CONTAINER_PREFIX.match(text[:open_at]):
        return False
    close = walker.bracket_end(open_at)
    if (
        close is None
        or not text.startswith(":", close + 1)
        or normalizeReference(text[open_at + 1 : close]) != label
    ):
        return False
    pos = close + 2
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    dest = parseLinkDestination(text, pos, len(text))
    if not dest.ok:
        return False
    pos = start = dest.pos
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    title = parseLinkTitle(text, pos, len(text))
    if pos == start or not title.ok or text[title.pos :].strip() or title.str != title_value:
        return False
    walker.title(pos, title.pos, title.str)
    return True
