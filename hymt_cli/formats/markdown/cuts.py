"""Where a long Markdown document may be cut, so that it is read, translated and written a part
at a time (formats/document.py) as a long text is.

A cut goes before a paragraph or heading that starts at the left margin after a blank line,
outside every container (list, blockquote, admonition), fence, math block and HTML block, or
before an item of a top-level list (a document may be one long list): the block parser has
closed everything before such a line, and nothing after it looks back (the item starts a list
of its own in the next part; its text and markup are the same). Which
lines those are, markdown-it's own block parser says, run over the text read so far: a block the
text does not yet close must run to its end there, so that no cut is found inside it. Fences and
HTML blocks do so by themselves; a math block (`$$`) or front matter (`---`) that is never
closed is no such block at all, so the parse sees the text with those closers after it. TOML
front matter whose closing `+++` is not read yet allows no cut. The cut line must be whole (a
partial `1` may be the start of `1. item`), and must not start with `---`, `+++` or U+FEFF,
which at the start of a part would read as front matter or a byte order mark (nor a paragraph
with `-` or `+`).

Link reference and footnote definitions hold for the whole document: a link or a footnote
reference may come before its definition. A document with a `]:` anywhere (every definition has
one) is first read through once, cut the same way, for its definitions (`survey`); every part's
parse then knows them all, and splices the titles of the link definitions it holds itself.
Footnote definitions are translated where they are written (_source.py), so a part needs no more
of the others' than their labels.
"""

from __future__ import annotations

import bisect
import re
from collections import ChainMap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

from markdown_it.token import Token

from ..document import Survey, part_texts
from ._front_matter import toml_end
from ._source import Lines, markdown_parser

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
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
    (`+++`, which markdown-it does not know) blanked so that it reads as that many blank lines."""

    __slots__ = ("base", "lines", "text", "toml")

    def __init__(self, src: str) -> None:
        self.base = 1 if src.startswith("\ufeff") else 0
        self.lines = Lines(src, self.base)
        self.toml = toml_end(src, self.lines)  # the row after the closing `+++`, if any
        text = src[self.base :]
        if self.toml is not None:
            cut = (self.lines.starts[self.toml] if self.toml < len(self.lines) else len(src)) - self.base
            # every break as LF: a blanked line's CR and the next line's LF would read as one
            text = "\n" * len(_LINE_BREAK.findall(text, 0, cut)) + text[cut:]
        self.text = text


@dataclass(frozen=True, slots=True)
class PartDefinitions:
    """What the parse of a part knows of the whole document's definitions."""

    references: Mapping[str, dict[str, Any]]  # every link definition; writes stay the part's own
    own: dict[str, dict[str, Any]]  # the link definitions in the part, as its own parse has them
    footnote_labels: Mapping[str, int]  # `:label` -> -1 for every footnote label, as the plugin keeps them

    def env(self) -> dict[str, Any]:
        """A fresh env for the part's parse: the plugins write into it."""
        return {
            "references": self.references,
            "footnotes": {"refs": ChainMap({}, dict(self.footnote_labels)), "list": {}},
        }


class Definitions(Survey):
    """The first definition of every link reference label of a document (first wins, as
    markdown-it has it): its `title` and `href`, the document line it starts on (from 1) and how
    many lines it takes; and the label of every footnote definition."""

    def __init__(self, first: dict[str, Reference], footnote_labels: frozenset[str] = frozenset()) -> None:
        self._for_parse = {label: {"title": r.title, "href": r.href} for label, r in first.items()}
        self._by_line = sorted(first.items(), key=lambda item: item[1].line)
        self._lines = [r.line for _, r in self._by_line]
        self._footnote_labels = dict.fromkeys(footnote_labels, -1)

    def in_part(self, first_line: int, lines: int) -> PartDefinitions:
        """The definitions for the parse of a part of `lines` lines from `first_line`."""
        start = bisect.bisect_left(self._lines, first_line)
        end = bisect.bisect_left(self._lines, first_line + lines)
        own = {
            label: {
                "title": r.title,
                "href": r.href,
                "map": [r.line - first_line, r.line - first_line + r.lines],
            }
            for label, r in self._by_line[start:end]
        }
        return PartDefinitions(ChainMap({}, self._for_parse), own, self._footnote_labels)


@dataclass(frozen=True, slots=True)
class Reference:
    title: str
    href: str
    line: int
    lines: int


NO_DEFINITIONS = Definitions({})


def survey(binary: BinaryIO, part_bytes: int) -> Definitions:
    """The document's link reference and footnote definitions."""
    try:
        if not _has_definition_mark(binary):
            return NO_DEFINITIONS
        binary.seek(0)
        first: dict[str, Reference] = {}
        footnote_labels: set[str] = set()
        for piece in part_texts(binary, last_cut, part_bytes):
            text = Prepared(piece.text).text if piece.index == 0 else piece.text
            env: dict[str, Any] = {}
            _blocks(text, env, closed=False)
            for label, ref in env.get("references", {}).items():
                start, end = ref["map"]
                first.setdefault(label, Reference(ref["title"], ref["href"], piece.line + start, end - start))
            footnote_labels.update(env.get("footnotes", {}).get("refs", ()))
        return Definitions(first, frozenset(footnote_labels))
    finally:
        binary.seek(0)


def _has_definition_mark(binary: BinaryIO) -> bool:
    """Whether a `]:` is anywhere in the document (also across two reads)."""
    last = b""
    while block := binary.read(_SCAN_BYTES):
        if _DEFINITION_MARK in last + block:
            return True
        last = block[-1:]
    return False


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
        if tok.map is None or not after_front_matter < tok.map[0] < len(lines) - 1:
            continue  # (the last line may be partial)
        row = tok.map[0]
        line = lines.text(src, row)
        if not line or line[0].isspace() or line[0] == "\ufeff" or line.startswith(("---", "+++")):
            continue
        if tok.level == 0 and tok.type in _CUT_BEFORE:
            if line[0] not in "-+" and not lines.text(src, row - 1).strip():
                best = max(best, row)
        elif tok.level == 1 and tok.type == "list_item_open":  # an item of a top-level list
            best = max(best, row)
    return lines.starts[best] if best else 0


def _blocks(text: str, env: dict[str, Any] | None = None, *, closed: bool = True) -> list[Token]:
    """The block tokens of `text` (inline content not parsed: where blocks start is all a cut
    needs), as markdown-it's parse has them (line breaks normalized, NUL replaced); `closed`:
    with `_CLOSERS` after the text, which may stop anywhere."""
    md = markdown_parser()
    tokens: list[Token] = []
    normalized = _NEWLINE.sub("\n", text).replace("\0", "\ufffd")
    md.block.parse(normalized + _CLOSERS if closed else normalized, md, {} if env is None else env, tokens)
    return tokens
