"""A paragraph's content as the model sees it: one sentence, its inline markup as tags.

Character data is text (a run of spaces, tabs and line ends reads as one space, as ODF lays it
out; `text:s` is its spaces). A `text:span` whose style is formatting a reader sees, a link
(`text:a`) and `text:meta` are a tag pair around their text; neighbouring spans of the same
look are one pair. A span whose style is only a language hint or a revision id is no tag: its
markup is left out of what the model sees, and a translated paragraph no longer has it. Ruby's
base text is the sentence's, its reading is left out (a translation gets none). A line break
is a line break. Everything else is kept whole as a placeholder: tabs, fields (their computed
values never change), bookmarks, change marks, notes, comments, frames and shapes; the
paragraphs inside notes, comments and frames (`Inline.nested`) are sentences of their own.

A translation is written back as the paragraph's content from its first to its last word:
its text escaped for XML (two spaces as `text:s`, a tab as `text:tab`, a line break beyond
the source's as `text:line-break`), each tag as the markup it stands for.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..package import Chars, Node, escape_text, unescape
from ..spans import Located, Span, locate, segment_text
from ..start_tags import prefix_of
from ._names import ANNOTATIONS, PARAGRAPHS, TEXT, WRAPPERS
from ._styles import PLAIN, StyleBook

_SPACES = re.compile(r"[ \t\r\n]+")
_RUN_OF_SPACES = re.compile(r"  +")
_MAX_SPACES = 1000  # a `text:s` count beyond this is shown as this many spaces
# Kept whole, their paragraphs translated on their own.
_CONTAINERS = ("text:note", "draw:", "dr3d:")


@dataclass(slots=True)
class Inline:
    """A paragraph read: its located sentence (None: no words), and the elements kept whole
    that hold paragraphs of their own."""

    located: Located | None = None
    nested: list[Node] = field(default_factory=list)


def read(paragraph: Node, src: str, styles: StyleBook) -> Inline:
    reader = _Reader(src, styles)
    reader.children(paragraph)
    _blank_edges(reader.parts, src)
    prefix = prefix_of(paragraph, TEXT)
    newline = f"<{prefix}:line-break/>" if prefix else " "
    located = locate(src, reader.parts, newline=newline, escape=odf_escape(prefix), peel=False)
    if located is not None and not segment_text(src, located).strip():
        located = None
    return Inline(located, reader.nested)


def _blank_edges(parts: list[Span], src: str) -> None:
    """White space before the first word or markup and after the last shows nothing: spans left
    out of the sentence may hold it, and would keep it at the sentence's edges."""

    def shows(part: Span) -> bool:
        if part.kind != "text":
            return True
        return bool((src[part.start : part.end] if part.shown is None else part.shown).strip())

    showing = [i for i, part in enumerate(parts) if shows(part)]
    if not showing:
        return
    for i, part in enumerate(parts):
        if (i < showing[0] or i > showing[-1]) and part.kind == "text" and part.shown != "":
            parts[i] = Span(part.start, part.end, "text", shown="")


def odf_escape(prefix: str | None) -> Callable[[str], str]:
    """Translated text as ODF paragraph content: markup characters escaped, a tab as
    `text:tab`, the second and later of neighbouring spaces as `text:s` (ODF collapses them)."""

    def escape(text: str) -> str:
        text = escape_text(text)
        if prefix is None:
            return text.replace("\t", " ")
        text = text.replace("\t", f"<{prefix}:tab/>")
        return _RUN_OF_SPACES.sub(lambda m: f' <{prefix}:s {prefix}:c="{len(m.group()) - 1}"/>', text)

    return escape


class _Reader:
    def __init__(self, src: str, styles: StyleBook) -> None:
        self.src = src
        self.styles = styles
        self.parts: list[Span] = []
        self.nested: list[Node] = []

    def children(self, node: Node) -> None:
        kids = node.children
        i = 0
        while i < len(kids):
            child = kids[i]
            if isinstance(child, Chars):
                self.chars(child)
            elif child.name == "text:span" and self.key(child) != PLAIN:
                i = self.spans(kids, i)
                continue
            else:
                self.element(child)
            i += 1

    def key(self, span: Node) -> object:
        """What a span looks like: its style's formatting, and its class styles (`text:class-names`)."""
        key = self.styles.key(span.get("text:style-name"))
        classes = span.get("text:class-names")
        return (key, classes) if classes and classes.strip() else key

    def chars(self, chars: Chars) -> None:
        raw = self.src[chars.start : chars.end]
        if chars.kind == "cdata":
            self.parts.append(Span(chars.start, chars.end, "text", shown=raw[9:-3]))
        elif chars.kind != "text":
            self.parts.append(Span(chars.start, chars.end, "self"))
        else:
            self.text(chars.start, raw)

    def text(self, start: int, raw: str) -> None:
        """Character data: runs of white space read as one space, references as what they are."""
        pos = 0
        for match in _SPACES.finditer(raw):
            if match.start() > pos:
                self.word(start + pos, raw[pos : match.start()])
            spaces = match.group()
            self.parts.append(
                Span(start + match.start(), start + match.end(), "text", shown=None if spaces == " " else " ")
            )
            pos = match.end()
        if pos < len(raw):
            self.word(start + pos, raw[pos:])

    def word(self, start: int, raw: str) -> None:
        shown = unescape(raw)
        self.parts.append(Span(start, start + len(raw), "text", shown=None if shown == raw else shown))

    def hidden(self, start: int, end: int) -> None:
        """Markup left out of the sentence (and out of a translated paragraph)."""
        if end > start:
            self.parts.append(Span(start, end, "text", shown=""))

    def spans(self, kids: list[Node | Chars], i: int) -> int:
        """Neighbouring spans of one look from `kids[i]`: one tag pair. The index after them."""
        first = kids[i]
        assert isinstance(first, Node)
        if first.inner == first.end:  # an empty span shows nothing
            self.hidden(first.start, first.end)
            return i + 1
        key = self.key(first)
        self.parts.append(Span(first.start, first.inner, "open", "span"))
        self.children(first)
        last = first
        while i + 1 < len(kids):
            after = kids[i + 1]
            if not (isinstance(after, Node) and after.name == "text:span" and after.start == last.end):
                break
            if after.inner == after.end or self.key(after) != key:
                break
            self.hidden(last.inner_end, after.inner)
            self.children(after)
            last, i = after, i + 1
        self.parts.append(Span(last.inner_end, last.end, "close", "span"))
        return i + 1

    def element(self, node: Node) -> None:
        name = node.name
        if name == "text:span":  # (no formatting: its text is the sentence's)
            self.hidden(node.start, node.inner)
            self.children(node)
            self.hidden(node.inner_end, node.end)
        elif name in WRAPPERS and node.inner != node.end:
            self.parts.append(Span(node.start, node.inner, "open", name))
            self.children(node)
            self.parts.append(Span(node.inner_end, node.end, "close", name))
        elif name == "text:s":
            self.parts.append(Span(node.start, node.end, "text", shown=" " * _count(node.get("text:c"))))
        elif name == "text:line-break":
            self.parts.append(Span(node.start, node.end, "break"))
        elif name == "text:soft-page-break":  # (where the last layout broke the page: a translation drops it)
            self.hidden(node.start, node.end)
        elif name == "text:ruby":
            self.ruby(node)
        else:
            self.parts.append(Span(node.start, node.end, "self"))
            if name.startswith(_CONTAINERS) or name in ANNOTATIONS or name in PARAGRAPHS:
                self.nested.append(node)

    def ruby(self, node: Node) -> None:
        base = node.child("text:ruby-base")
        if base is None or base.inner == base.end:
            self.parts.append(Span(node.start, node.end, "self"))
            return
        self.hidden(node.start, base.inner)
        self.children(base)
        self.hidden(base.inner_end, node.end)


def _count(value: str | None) -> int:
    try:
        return max(1, min(int(value or "1"), _MAX_SPACES))
    except ValueError:
        return 1
