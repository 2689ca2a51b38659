"""Where a long Markdown document may be cut, so that it is read, translated and written a part
at a time (formats/document.py) as a long text is.

A cut goes before a paragraph or heading that starts at the left margin after a blank line,
outside every container (list, blockquote, admonition), fence, math block and HTML block: the
block parser has closed everything before such a line, and nothing after it looks back. Which
lines those are, markdown-it's own block parser says, run over the text read so far; a block
the text does not yet close (a fence, a comment) runs to its end there, so no cut is found
inside it. The cut line must be whole (a partial `1` may be the start of `1. item`), and must
not start with `-`, `+` or U+FEFF, which at the start of a part would read as front matter or
a byte order mark.

Link reference definitions and footnote definitions hold for the whole document: a link may
come before its definition. A document with a `]:` anywhere (every definition has one) is
therefore parsed whole (`may_cut`).
"""

from __future__ import annotations

import re
from typing import BinaryIO

from markdown_it.token import Token

from .front_matter import toml_end
from .source import Lines, markdown_parser

_NOT_NEWLINE = re.compile(r"[^\r\n]+")
_NEWLINE = re.compile(r"\r\n?")
_DEFINITION_MARK = b"]:"
_SCAN_BYTES = 1 << 20
_CUT_BEFORE = frozenset(("paragraph_open", "heading_open"))
_TOML_OPENS = re.compile(r"\+\+\+[ \t]*(?:\r\n|\r|\n|\Z)")
# Close a math block or front matter that the text opens and does not close yet (they are
# blocks only where they are closed): they must run to the end of the text read so far.
_CLOSERS = "\n$$\n---\n"


class Prepared:
    """A source as the parser reads it: without its byte order mark, with TOML front matter
    (`+++`, which markdown-it does not know) blanked so that it reads as blank lines."""

    __slots__ = ("base", "lines", "text", "toml")

    def __init__(self, src: str) -> None:
        self.base = 1 if src.startswith("\ufeff") else 0
        self.lines = Lines(src, self.base)
        self.toml = toml_end(src, self.lines)  # the row after the closing `+++`, if any
        text = src[self.base :]
        if self.toml is not None:
            cut = (self.lines.starts[self.toml] if self.toml < len(self.lines) else len(src)) - self.base
            text = _NOT_NEWLINE.sub("", text[:cut]) + text[cut:]
        self.text = text


def may_cut(binary: BinaryIO) -> bool:
    """No `]:` anywhere in the document (read from its start; left at its start)."""
    tail = b""
    try:
        while block := binary.read(_SCAN_BYTES):
            if _DEFINITION_MARK in tail + block[:1] or _DEFINITION_MARK in block:
                return False
            tail = block[-1:]
        return True
    finally:
        binary.seek(0)


def last_cut(src: str, *, first: bool) -> int:
    """The offset in `src` (a document's text from its start where `first`, else from an earlier
    cut) of the last line before which it may be cut; 0 where there is none."""
    prepared = Prepared(src) if first else None
    if prepared is not None and prepared.toml is None and _TOML_OPENS.match(src, prepared.base):
        return 0  # TOML front matter whose end is not read yet
    lines = prepared.lines if prepared is not None else Lines(src, 0)
    text = prepared.text if prepared is not None else src
    after_front_matter = (prepared.toml or 0) if prepared is not None else 0
    best = 0
    for tok in _blocks(text):
        if tok.level != 0 or tok.type not in _CUT_BEFORE or tok.map is None:
            continue
        row = tok.map[0]
        if row <= after_front_matter or row >= len(lines) - 1:  # the last line may be partial
            continue
        if _starts_cleanly(lines.text(src, row)) and not lines.text(src, row - 1).strip():
            best = max(best, row)
    return lines.starts[best] if best else 0


def _starts_cleanly(line: str) -> bool:
    return bool(line) and not line[0].isspace() and line[0] not in "-+\ufeff"


def _blocks(text: str) -> list[Token]:
    """The block tokens of `text` and `_CLOSERS` (inline content not parsed: where blocks start is
    all a cut needs), as markdown-it's parse has them: line breaks normalized, NUL replaced."""
    md = markdown_parser()
    tokens: list[Token] = []
    md.block.parse(_NEWLINE.sub("\n", text).replace("\0", "\ufffd") + _CLOSERS, md, {}, tokens)
    return tokens
