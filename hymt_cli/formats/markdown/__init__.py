"""Markdown: block-level prose is translated, every byte of markup is kept.

markdown-it-py (CommonMark + tables, strikethrough, front matter, footnotes, admonitions,
dollar math) decides *what* is prose. Its block tokens carry line ranges (`map`) but inline
content comes without offsets and with container prefixes (`> `, list indents) stripped, so
each inline token's content is located in the source lines (`blocks`), and its inline
children are walked against that content to find the exact span of every piece of markup
(`inline`):

- emphasis, strong, strikethrough, links, paired inline HTML -> `<sN>...</sN>`
- inline code, math, images, footnote references, autolinks, lone HTML tags, bare URLs,
  emoji shortcodes (`:tada:`), templating (`{{ x }}`, `{% x %}`) -> `<sN/>`
- soft/hard line breaks -> "\\n" for the model, the source's break (prefix included) back.

Image alt text, link titles, reference definitions' titles and one-line inline footnotes
(`^[...]`) are segments of their own, nested in the markup that holds them; destinations and
labels never reach the model. Translated text that begins a paragraph line is escaped where
it would open a block (`# `, `- `, `1. `, `>`, a fence ...), so the block structure stays
(`escapes`).

Whatever cannot be located exactly is not translated: the output is the source there.
Code blocks, HTML comments, math blocks, link reference definitions and front matter
(YAML `---` or TOML `+++`; except one-line `title`/`description` values, `front_matter`)
never reach the model. HTML blocks, also inside blockquotes and list items, are translated
with the HTML format's rules (`html_blocks`).

A long document is read, translated and written a part at a time, cut before top-level
paragraphs (`cuts`); every part knows the whole document's link and footnote definitions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

from markdown_it.token import Token

from ..base import Decoded, decode_utf8
from ..document import PartStart, SplicingFormat
from ..document_context import NOTHING_BEFORE, Surroundings
from ..spans import Located, with_role
from ..splice_index import SpliceIndex
from ._blocks import inline_segments, reference_titles, table_row
from ._front_matter import toml_values, yaml_values
from ._html_blocks import html_block
from ._inline import Footnotes
from ._source import Lines, markdown_parser
from .cuts import Definitions, PartDefinitions, Prepared, last_cut, survey


class MarkdownFormat(SplicingFormat):
    name = "md"
    suffixes = (".md", ".markdown")

    in_parts = True  # cut before a top-level paragraph (cuts.py)

    def decode(self, data: bytes) -> Decoded:
        return decode_utf8(data)

    def parse(self, text: str) -> MarkdownDocument:
        return MarkdownDocument(find_segments(text))

    def parse_part(self, text: str, part: PartStart) -> MarkdownDocument:
        if not isinstance(part.whole, Definitions):  # not surveyed: a document read whole
            return MarkdownDocument(find_segments(text), part.before)
        lines = text.count("\n") + text.count("\r") - text.count("\r\n") + 1
        return MarkdownDocument(find_segments(text, part.whole.in_part(part.line, lines)), part.before)

    def survey(self, binary: BinaryIO, part_bytes: int) -> Definitions:
        return survey(binary, part_bytes)

    def cut(self, text: str, *, first: bool) -> int:
        return last_cut(text, first=first)


class MarkdownDocument:
    def __init__(self, index: SpliceIndex, before: Surroundings = NOTHING_BEFORE) -> None:
        self.index = index
        self.segments = index.segments(before)

    def reassemble(self, translated: Mapping[int, str], *, target_language: str | None = None) -> str:
        return self.index.reassemble(translated)


@dataclass(frozen=True, slots=True)
class _Document:
    """What the block handlers need of the document being segmented."""

    src: str
    lines: Lines
    tokens: Sequence[Token]
    env: dict[str, Any]  # the parse's: link definitions, footnote labels and inline footnotes

    @property
    def footnotes(self) -> Footnotes:
        footnotes: Footnotes = self.env.get("footnotes", {}).get("list", {})
        return footnotes


def _inline(doc: _Document, position: int, tok: Token) -> list[Located]:
    if tok.map is None or tok.children is None:
        return []
    previous = doc.tokens[position - 1] if position else None
    parent = previous.type if previous is not None else ""
    if parent in ("th_open", "td_open"):
        return []  # table rows are handled from tr_open
    setext = previous is not None and parent == "heading_open" and previous.markup in ("=", "-")
    return inline_segments(doc.src, doc.lines, tok, parent, setext=setext, footnotes=doc.footnotes)


def _table_row(doc: _Document, position: int, tok: Token) -> list[Located]:
    return table_row(doc.src, doc.lines, doc.tokens, position, doc.env) if tok.map is not None else []


def _front_matter(doc: _Document, position: int, tok: Token) -> list[Located]:
    return yaml_values(doc.src, doc.lines, tok.map) if tok.map is not None else []


def _html_block(doc: _Document, position: int, tok: Token) -> list[Located]:
    return html_block(doc.src, doc.lines, tok) if tok.map is not None else []


_BLOCK_HANDLERS: dict[str, Callable[[_Document, int, Token], list[Located]]] = {
    "inline": _inline,
    "tr_open": _table_row,
    "front_matter": _front_matter,
    "html_block": _html_block,
}


# Blocks that hold other blocks, and the role their paragraphs get (Segment.role).
_CONTAINERS = {
    "list_item_open": "list item",
    "blockquote_open": "blockquote",
    "admonition_open": "admonition",
    "footnote_reference_open": "footnote",  # a definition, where it is written (_source.py)
}
_CONTAINER_ENDS = frozenset(kind.replace("_open", "_close") for kind in _CONTAINERS)


def _role(tokens: Sequence[Token], position: int, containers: list[str]) -> str:
    """Where the block at `position` sits: a heading, an admonition's title, or the innermost
    container (list item, blockquote ...); a table's cells and front matter say it themselves."""
    tok = tokens[position]
    parent = tokens[position - 1] if position else None
    if tok.type == "inline" and parent is not None:
        if parent.type == "heading_open":
            return f"heading {parent.tag[1:]}"
        if parent.type == "admonition_title_open":
            return "admonition title"
    return containers[-1] if containers else ""


def find_segments(src: str, definitions: PartDefinitions | None = None) -> SpliceIndex:
    """Every translatable span of a Markdown document, or of a part of one (`definitions`:
    what the part knows of the whole document's)."""
    prepared = Prepared(src)
    lines, toml = prepared.lines, prepared.toml
    env: dict[str, Any] = {} if definitions is None else definitions.env()
    tokens = markdown_parser().parse(prepared.text, env)
    index = SpliceIndex(src)
    if toml is not None:
        index.extend(toml_values(src, lines, toml))
    own = env.get("references", {}) if definitions is None else definitions.own
    index.extend(reference_titles(src, lines, own))
    doc = _Document(src, lines, tokens, env)
    containers: list[str] = []
    for position, tok in enumerate(tokens):
        if tok.type in _CONTAINERS:
            containers.append(_CONTAINERS[tok.type])
        elif tok.type in _CONTAINER_ENDS and containers:
            containers.pop()
        handler = _BLOCK_HANDLERS.get(tok.type)
        if handler is not None:
            index.extend(with_role(handler(doc, position, tok), _role(tokens, position, containers)))
    return index.finish()


__all__ = ["MarkdownFormat", "MarkdownDocument", "find_segments"]
