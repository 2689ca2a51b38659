"""The HTML segmenter: parser events in, located segments out.

Text between two block boundaries (any tag that is not inline) is one segment (a *run*):
inline elements inside it become `<sN>...</sN>` tags, void/opaque inline elements (`<br>`,
`<img>`, `<code>...</code>`, comments) `<sN/>` placeholders. Translatable attributes are
segments too. Each event kind has its handler (`_HANDLERS`); an inline element kept whole
(code, kbd, samp, `translate="no"`) is followed by `_Opaque` until its end tag.
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..spans import TEMPLATING, Located, Span, locate
from ._open_elements import OpenElements
from .elements import (
    CLOSES,
    INLINE,
    META_NAMES,
    OPAQUE_BLOCK,
    OPAQUE_INLINE,
    RAW_TEXT,
    ROLES,
    TRANSLATABLE_ATTRS,
    VOID,
    is_inline,
    skips_subtree,
)
from .escapes import attribute_escape, attribute_spans, spelled, text_escape
from .events import Event, parse_events

# Templating in text (Jinja, Liquid, Hugo, Handlebars): kept as written, as a placeholder.
TEMPLATE_TEXT = re.compile(TEMPLATING)
# An attribute value holding template or server code is not translated at all.
_TEMPLATED = re.compile(r"\{\{|\{%|<\?|<%")


@dataclass(slots=True)
class _Opaque:
    """An inline element kept whole: its tag, start, nesting depth, and the block (or code,
    kbd, samp) elements opened inside it and not yet closed (mis-nested: `<code><pre></code>`)."""

    tag: str
    start: int
    depth: int = 1
    inner: list[str] = field(default_factory=list)
    _where: dict[str, list[int]] = field(default_factory=dict)  # indices in inner, by tag

    def open_inner(self, tag: str) -> None:
        self._where.setdefault(tag, []).append(len(self.inner))
        self.inner.append(tag)

    def has_inner(self, tag: str) -> bool:
        return bool(self._where.get(tag))

    def close_inner(self, tag: str) -> None:
        """Close the innermost `tag` opened inside, and what was opened inside that."""
        cut = self._where[tag][-1]
        for inner_tag in reversed(self.inner[cut:]):
            self._where[inner_tag].pop()
        del self.inner[cut:]


class Segmenter:
    def __init__(self, src: str, offset: int, blank_lines: bool = True) -> None:
        self.src = src
        self.offset = offset
        self.blank_lines = blank_lines  # False in a Markdown HTML block: a blank line ends it
        self.out: list[Located] = []
        self.run: list[Span] = []
        self.open = OpenElements()
        self.opaque: _Opaque | None = None
        self.raw: str | None = None  # inside a raw-text element (textarea): only its end tag counts
        self.html_lang: tuple[int, int] | None = None

    @property
    def skipping(self) -> bool:
        return self.open.skipping

    def feed(self, event: Event) -> None:
        a, b = event.start + self.offset, event.end + self.offset
        if self.raw is not None:
            if not (event.kind == "end" and event.tag == self.raw):
                return
            self.raw = None
        if self.opaque is not None:
            self._in_opaque(self.opaque, event, a, b)
            return
        _HANDLERS[event.kind](self, event, a, b)

    def finish(self) -> None:
        self.opaque = self.raw = None  # an opaque element open to the end: text before it ends there
        self.flush()

    def flush(self) -> None:
        """The run so far becomes a segment."""
        if self.run:
            found = frozenset[str]().union(
                *(spelled(self.src[p.start : p.end]) for p in self.run if p.shown is not None)
            )
            located = locate(
                self.src,
                self.run,
                newline="\n",
                escape=text_escape(found),
                peel=False,
                blank_lines=self.blank_lines,
            )
            if located is not None:
                self.out.append(dataclasses.replace(located, role=self.open.innermost_block(ROLES)))
        self.run = []

    def attributes(self, event: Event, skip: bool) -> None:
        """Translatable attribute values of a start tag become segments."""
        if skip:
            return
        a, b = event.start + self.offset, event.end + self.offset
        names = {n.lower(): (v or "") for n, v in event.attrs}
        meta_name = next(
            (
                v
                for v in (names.get("name", "").lower(), names.get("property", "").lower())
                if v in META_NAMES
            ),
            "",
        )
        described = event.tag == "meta" and bool(meta_name)
        for name, vstart, vend, quote in attribute_spans(self.src, a, b):
            if event.tag == "html" and name == "lang":
                self.html_lang = (vstart, vend)
            wanted = name in TRANSLATABLE_ATTRS or (described and name == "content")
            raw = self.src[vstart:vend]
            if wanted and raw and not _TEMPLATED.search(raw):
                shown = html.unescape(raw)
                located = locate(
                    self.src,
                    [Span(vstart, vend, "text", shown=shown if shown != raw else None)],
                    newline=" ",
                    escape=attribute_escape(quote, spelled(raw)),
                    peel=False,
                )
                if located is not None:
                    role = f"meta {meta_name}" if described and name == "content" else f"attribute {name}"
                    self.out.append(dataclasses.replace(located, role=role))

    # -- inside an inline element kept whole ------------------------------------------------
    def _in_opaque(self, opaque: _Opaque, event: Event, a: int, b: int) -> None:
        tag, inner = event.tag, opaque.inner
        if inner and inner[-1] in RAW_TEXT and not (event.kind == "end" and tag == inner[-1]):
            return
        if event.kind == "start" and tag == opaque.tag:
            opaque.depth += 1
        elif event.kind == "start" and (tag in OPAQUE_INLINE or not is_inline(tag) and tag not in VOID):
            opaque.open_inner(tag)
        elif event.kind != "end":
            return
        elif opaque.has_inner(tag):
            opaque.close_inner(tag)
        elif tag == opaque.tag:
            self._opaque_end(opaque, b)
        elif self.open.is_open(tag) and not (inner and is_inline(tag)):
            # (`<b><code><pre></b>`: the pre stays open, so does the skipping.) Closed
            # implicitly (`<p><code></p>x`, `<a><code></a>x`): browsers reopen a formatting
            # element after the end tag that closed it (x is code), and html.parser sees it
            # open until its own end tag. End the run before it (no translated text may land
            # after it) and skip until that end tag.
            self.opaque = None
            self.flush()
            self.open.close(tag)  # keeps (opaque.tag, True) on the stack

    def _opaque_end(self, opaque: _Opaque, b: int) -> None:
        if opaque.depth > 1:
            opaque.depth -= 1
            return
        self.opaque = None
        if opaque.inner:
            # A block opened inside is still open: the text after the end tag is in it (and
            # browsers keep the element going), so it is never translated, and the element
            # is no placeholder text could be moved across.
            self.flush()
            self.open.extend_skipped(opaque.inner)  # (tag, True) is there already
            return
        self.run.append(Span(opaque.start, b, "self"))
        self.open.close(opaque.tag)

    # -- event handlers ----------------------------------------------------------------------
    def _start(self, event: Event, a: int, b: int) -> None:
        skipping = self.skipping
        skip_here = skipping or skips_subtree(event.attrs)
        if is_inline(event.tag):
            self._inline_start(event, a, b, skipping, skip_here)
        else:
            self._block_start(event, skip_here)

    def _inline_start(self, event: Event, a: int, b: int, skipping: bool, skip_here: bool) -> None:
        tag = event.tag
        if skipping:
            if event.kind == "start" and tag not in VOID:
                self.open.push(tag, True)
            return
        self.attributes(event, skip_here)
        whole = tag in OPAQUE_INLINE or skips_subtree(event.attrs)
        if event.kind == "start" and whole and tag not in VOID:
            self.open.push(tag, True)
            self.opaque = _Opaque(tag, a)
        elif event.kind == "startend" or tag in VOID:
            self.run.append(Span(a, b, "self"))
        else:
            self.open.push(tag, False)
            self.run.append(Span(a, b, "open", tag))

    def _block_start(self, event: Event, skip_here: bool) -> None:
        tag = event.tag
        self.flush()
        self.attributes(event, skip_here)
        if event.kind != "start" or tag in VOID:
            return
        closes = CLOSES.get(tag, frozenset())
        if "p" not in closes:
            self.open.close_paragraph()
        if self.open.top() in closes:
            self.open.pop()
        self.open.push(tag, skip_here or tag in OPAQUE_BLOCK)
        if tag in RAW_TEXT:
            self.raw = tag

    def _end(self, event: Event, a: int, b: int) -> None:
        tag = event.tag
        if not is_inline(tag):
            self.flush()
        elif not self.skipping:  # (a stray end tag of an opaque or void element: a placeholder)
            self.run.append(Span(a, b, "close", tag) if tag in INLINE else Span(a, b, "self"))
        self.open.close(tag)

    def _data(self, event: Event, a: int, b: int) -> None:
        if self.skipping:
            return
        pos = a
        for match in TEMPLATE_TEXT.finditer(self.src, a, b):  # `{{ x }}`: a placeholder
            if match.start() > pos:
                self.run.append(Span(pos, match.start(), "text"))
            self.run.append(Span(match.start(), match.end(), "self"))
            pos = match.end()
        if pos < b:
            self.run.append(Span(pos, b, "text"))

    def _template(self, event: Event, a: int, b: int) -> None:
        if not self.skipping:  # server code (`<?php ... ?>`, `<% ... %>`): a placeholder
            self.run.append(Span(a, b, "self"))

    def _reference(self, event: Event, a: int, b: int) -> None:
        if not self.skipping:  # the model sees the character, not its reference
            raw = self.src[a:b]
            shown = html.unescape(raw)
            self.run.append(Span(a, b, "text", shown=shown if shown != raw else None))

    def _comment(self, event: Event, a: int, b: int) -> None:
        if self.skipping:
            return
        # (`<!-->`, `<!--->` are comments html.parser leaves open to the end: no placeholder)
        if self.src.endswith("-->", a, b) and b - a >= len("<!---->"):
            self.run.append(Span(a, b, "self"))
        else:
            self.flush()

    def _boundary(self, event: Event, a: int, b: int) -> None:
        if not self.skipping:  # a declaration or processing instruction ends the run
            self.flush()


_HANDLERS: dict[str, Callable[[Segmenter, Event, int, int], None]] = {
    "start": Segmenter._start,
    "startend": Segmenter._start,
    "end": Segmenter._end,
    "data": Segmenter._data,
    "ref": Segmenter._reference,
    "comment": Segmenter._comment,
    "decl": Segmenter._boundary,
    "other": Segmenter._boundary,
    "template": Segmenter._template,
}


def find_html_segments(
    src: str, start: int = 0, end: int | None = None, *, blank_lines: bool = True
) -> list[Located]:
    """The translatable spans of the HTML in src[start:end] (offsets into src).
    `blank_lines=False`: translations never put a blank line in (a Markdown HTML block)."""
    return segment(src, start, len(src) if end is None else end, blank_lines).out


def segment(src: str, start: int, end: int, blank_lines: bool = True) -> Segmenter:
    segmenter = Segmenter(src, start, blank_lines)
    for event in parse_events(src[start:end]):
        segmenter.feed(event)
    segmenter.finish()
    return segmenter
