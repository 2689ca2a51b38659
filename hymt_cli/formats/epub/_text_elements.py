"""An XML element of text (a title, a table of contents' label) as one segment: its character
data as text (white space read as one space, references as what they stand for), anything else
inside it a placeholder; a translation is written as XML text."""

from __future__ import annotations

import re

from ..package import Chars, Node, escape_text, unescape
from ..spans import Located, Span, locate, segment_text

_SPACES = re.compile(r"\s+")


def text_element(node: Node, src: str) -> Located | None:
    parts: list[Span] = []
    for child in node.children:
        if isinstance(child, Node):
            parts.append(Span(child.start, child.end, "self"))
        elif child.kind == "cdata":
            parts.append(Span(child.start, child.end, "text", shown=src[child.start + 9 : child.end - 3]))
        elif child.kind != "text":
            parts.append(Span(child.start, child.end, "self"))
        else:
            parts.extend(_words(child, src))
    located = locate(src, parts, newline=" ", escape=escape_text, peel=False)
    if located is None or not segment_text(src, located).strip():
        return None
    return located


def _words(chars: Chars, src: str) -> list[Span]:
    out: list[Span] = []
    pos = chars.start
    for match in _SPACES.finditer(src, chars.start, chars.end):
        if match.start() > pos:
            out.append(_word(src, pos, match.start()))
        out.append(Span(match.start(), match.end(), "text", shown=None if match.group() == " " else " "))
        pos = match.end()
    if pos < chars.end:
        out.append(_word(src, pos, chars.end))
    return out


def _word(src: str, start: int, end: int) -> Span:
    raw = src[start:end]
    shown = unescape(raw)
    return Span(start, end, "text", shown=None if shown == raw else shown)
