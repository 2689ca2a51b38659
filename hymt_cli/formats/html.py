"""HTML: the text of block-level elements is translated, the source is spliced, never re-serialized.

The stdlib `html.parser` reports every event in order; consecutive events are contiguous in
the source, so each event's exact span is known (from `getpos()` to the next event). Text
between two block boundaries (any tag that is not inline) is one segment: inline elements
inside it become `<sN>...</sN>` tags, void/opaque inline elements (`<br>`, `<img>`,
`<code>...</code>`, comments) `<sN/>` placeholders. Translatable attributes (`alt`,
`title`, `placeholder`, `aria-label`, meta description / og: and twitter: title and
description) are segments too, nested inside their tag when it sits in running text.

Never translated: script, style, pre, code, kbd, samp, textarea, svg, math, template,
comments, and elements with `translate="no"` or class `notranslate` (with their subtree).
Mis-nested or unclosed, they stay untranslated as far as browsers or html.parser could
read them open (`<code><pre></code>x`: x is in the pre; `<p><code></p>x`: code reopens;
a textarea is raw text to `</textarea>`), and a segment never spans such an element, so
no translated text can be moved into one.
Doctype, entity spelling, attribute quoting and order, tag case and whitespace are kept
because everything outside the translated spans is copied from the source.
"""
from __future__ import annotations

import codecs
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from html.parser import HTMLParser

from ..segments import Segment
from .base import Decoded, DocumentDecodeError
from .document import SplicingFormat
from .spans import Located, Part, SpliceIndex, locate

INLINE = frozenset(
    "a abbr b bdi bdo big cite data del dfn em font i ins mark nobr q rp rt ruby s small span "
    "strike strong sub sup time tt u var".split())
VOID_INLINE = frozenset("br img wbr input".split())
VOID = frozenset("area base br col embed hr img input link meta param source track wbr keygen".split())
OPAQUE_INLINE = frozenset("code kbd samp".split())  # kept whole, as one placeholder
OPAQUE_BLOCK = frozenset(
    "script style pre textarea svg math template noembed object iframe".split())
# Browsers read these as raw text up to their own end tag (html.parser only does so for
# script and style): no tag inside them opens or closes anything.
_RAW_TEXT = frozenset("textarea noembed iframe".split())
TRANSLATABLE_ATTRS = frozenset({"alt", "title", "placeholder", "aria-label"})
META_NAMES = frozenset({"description", "og:title", "og:description", "twitter:title",
                        "twitter:description"})
# Start tags that close an open element of the same family (HTML's implied end tags).
_CLOSES = {
    "li": {"li"}, "dt": {"dt", "dd"}, "dd": {"dt", "dd"}, "tr": {"tr", "td", "th"},
    "td": {"td", "th"}, "th": {"td", "th"}, "option": {"option"}, "p": {"p"},
}
_ATTR = re.compile(
    r"""([^\s/>"'=][^\s/>=]*)(?:\s*=\s*('[^']*'|"[^"]*"|(?!['"])[^\s>]+))?""")
_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_TAG_START = re.compile(r"<[A-Za-z/!?]")


@dataclass(slots=True)
class _Event:
    kind: str  # start | end | startend | data | ref | comment | decl | other
    start: int
    end: int
    tag: str = ""
    attrs: tuple[tuple[str, str | None], ...] = ()


class _Recorder(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.events: list[_Event] = []
        self._line_starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self._line_starts.append(i + 1)

    def _at(self) -> int:
        line, col = self.getpos()
        return self._line_starts[line - 1] + col

    def _add(self, kind: str, tag: str = "", attrs=()) -> None:
        self.events.append(_Event(kind, self._at(), -1, tag, tuple(attrs)))

    def handle_starttag(self, tag, attrs):
        self._add("start", tag, attrs)

    def handle_startendtag(self, tag, attrs):
        self._add("startend", tag, attrs)

    def handle_endtag(self, tag):
        self._add("end", tag)

    def handle_data(self, data):
        self._add("data")

    def handle_entityref(self, name):
        self._add("ref")

    def handle_charref(self, name):
        self._add("ref")

    def handle_comment(self, data):
        self._add("comment")

    def handle_decl(self, decl):
        self._add("decl")

    def handle_pi(self, data):
        self._add("other")

    def unknown_decl(self, data):
        self._add("other")


def parse_events(text: str) -> list[_Event]:
    """Every parser event with its exact [start, end) span in `text`."""
    recorder = _Recorder(text)
    recorder.feed(text)
    recorder.close()
    events = recorder.events
    for i, event in enumerate(events):
        event.end = events[i + 1].start if i + 1 < len(events) else len(text)
    # Merge data events split by the parser's buffering; drop empty spans.
    merged: list[_Event] = []
    for event in events:
        if event.end <= event.start:
            continue
        if merged and event.kind == "data" and merged[-1].kind == "data":
            merged[-1].end = event.end
        else:
            merged.append(event)
    # An unclosed comment at the end comes as data: browsers hide it, so do we.
    if merged and merged[-1].kind == "data":
        last = merged[-1]
        at = text.find("<!--", last.start, last.end)
        if at >= 0:
            if at > last.start:
                merged.insert(len(merged) - 1, _Event("data", last.start, at))
            last.kind, last.start = "comment", at
    return merged


def _inline(tag: str) -> bool:
    return tag in INLINE or tag in VOID_INLINE or tag in OPAQUE_INLINE


def _skip_attrs(attrs) -> bool:
    values = {name.lower(): (value or "") for name, value in attrs}
    return values.get("translate", "").strip().lower() == "no" or \
        "notranslate" in values.get("class", "").split()


def _attribute_spans(src: str, start: int, end: int) -> list[tuple[str, int, int, str]]:
    """(name, value start, value end, quote) for each attribute of the start tag src[start:end]."""
    tag = re.match(r"<[^\s/>]+", src[start:end])
    if tag is None:
        return []
    out = []
    pos = start + tag.end()
    for match in _ATTR.finditer(src, pos, end):
        name, value = match.group(1), match.group(2)
        if value is None:
            continue
        quote = value[0] if value[0] in "'\"" else ""
        vstart = match.start(2) + (1 if quote else 0)
        vend = match.end(2) - (1 if quote else 0)
        out.append((name.lower(), vstart, vend, quote))
    return out


_SIGNIFICANT = '<>&"\''
_REFERENCE_START = re.compile(r"&(?=[A-Za-z#])")


_REFERENCE = re.compile(r"&#?[A-Za-z0-9]+;?")


def _spelled(raw: str) -> frozenset[str]:
    """Markup-significant characters that `raw` writes as references (`&lt;` -> "<")."""
    found = (html.unescape(m.group(0)) for m in _REFERENCE.finditer(raw))
    return frozenset(c for c in found if c in _SIGNIFICANT)


def _escape_markup(text: str, spelled: frozenset[str]) -> str:
    """Translated text as HTML: what the source spelled as a reference is spelled so again;
    `&` that would start a reference and `<` that would start a tag always are."""
    text = text.replace("&", "&amp;") if "&" in spelled else _REFERENCE_START.sub("&amp;", text)
    text = text.replace("<", "&lt;") if "<" in spelled else \
        _TAG_START.sub(lambda m: "&lt;" + m.group(0)[1:], text)
    if ">" in spelled:
        text = text.replace(">", "&gt;")
    if '"' in spelled:
        text = text.replace('"', "&quot;")
    return text.replace("'", "&#39;") if "'" in spelled else text


def _attr_escape(quote: str, spelled: frozenset[str] = frozenset()):
    if quote == '"':
        return lambda s: _escape_markup(s, spelled).replace('"', "&quot;")
    if quote == "'":
        return lambda s: _escape_markup(s, spelled).replace("'", "&#39;")
    return lambda s: '"' + _escape_markup(s, spelled).replace('"', "&quot;") + '"'


def _text_escape(spelled: frozenset[str] = frozenset()):
    return lambda text: _escape_markup(text, spelled)


class _Segmenter:
    def __init__(self, src: str, offset: int, blank_lines: bool = True) -> None:
        self.src = src
        self.offset = offset
        self.blank_lines = blank_lines  # False in a Markdown HTML block: a blank line ends it
        self.out: list[Located] = []
        self.run: list[Part] = []
        self.stack: list[tuple[str, bool]] = []  # (tag, skip subtree)
        # An inline element kept whole: tag, start, depth, and the block (or code, kbd,
        # samp) elements opened inside it and not yet closed (mis-nested: `<code><pre></code>`).
        self.opaque: tuple[str, int, int, list[str]] | None = None
        self.raw: str | None = None  # inside a raw-text element (textarea): only its end tag counts
        self.html_lang: tuple[int, int] | None = None

    @property
    def skipping(self) -> bool:
        return any(skip for _, skip in self.stack)

    def flush(self) -> None:
        if self.run:
            spelled = frozenset().union(*(_spelled(self.src[p.start:p.end])
                                          for p in self.run if p.shown is not None))
            located = locate(self.src, self.run, newline="\n", escape=_text_escape(spelled), peel=False,
                             blank_lines=self.blank_lines)
            if located is not None:
                self.out.append(located)
        self.run = []

    def close_to(self, tag: str) -> bool:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                if _inline(tag) and any(not _inline(t) for t, _ in self.stack[i + 1:]):
                    # An inline end tag never closes a block opened inside the element
                    # (`<b><pre></b>x`: x is still in the pre, browsers reparent the pre).
                    del self.stack[i]
                else:
                    # code, kbd, samp left open inside: code is reopened by browsers, and
                    # html.parser sees all three open until their own end tags: keep skipping
                    left_open = [t for t, _ in self.stack[i + 1:] if t in OPAQUE_INLINE]
                    del self.stack[i:]
                    self.stack.extend((t, True) for t in left_open)
                return True
        return False

    def attributes(self, event: _Event, skip: bool) -> None:
        if skip:
            return
        a, b = event.start + self.offset, event.end + self.offset
        names = {n.lower(): (v or "") for n, v in event.attrs}
        for name, vstart, vend, quote in _attribute_spans(self.src, a, b):
            if event.tag == "html" and name == "lang":
                self.html_lang = (vstart, vend)
            wanted = name in TRANSLATABLE_ATTRS or (
                event.tag == "meta" and name == "content"
                and (names.get("name", "").lower() in META_NAMES
                     or names.get("property", "").lower() in META_NAMES))
            if wanted and vend > vstart:
                raw = self.src[vstart:vend]
                shown = html.unescape(raw)
                located = locate(self.src, [Part(vstart, vend, "text", shown=shown if shown != raw else None)],
                                 newline=" ",
                                 escape=_attr_escape(quote, _spelled(raw)), peel=False)
                if located is not None:
                    self.out.append(located)

    def feed(self, event: _Event) -> None:
        a, b = event.start + self.offset, event.end + self.offset
        tag = event.tag
        if self.raw is not None:
            if not (event.kind == "end" and tag == self.raw):
                return
            self.raw = None
        if self.opaque is not None:
            name, start, depth, inner = self.opaque
            if inner and inner[-1] in _RAW_TEXT and not (event.kind == "end" and tag == inner[-1]):
                return
            if event.kind == "start" and tag == name:
                self.opaque = (name, start, depth + 1, inner)
                return
            if event.kind == "start" and (tag in OPAQUE_INLINE or not _inline(tag) and tag not in VOID):
                inner.append(tag)
                return
            if event.kind == "end" and tag in inner:
                del inner[len(inner) - 1 - inner[::-1].index(tag):]
                return
            if event.kind == "end" and tag == name:
                if depth > 1:
                    self.opaque = (name, start, depth - 1, inner)
                    return
                self.opaque = None
                if inner:
                    # A block opened inside is still open: the text after the end tag is in
                    # it (and browsers keep the element going), so it is never translated,
                    # and the element is no placeholder text could be moved across.
                    self.flush()
                    self.stack.extend((t, True) for t in inner)  # (name, True) is there already
                    return
                self.run.append(Part(start, b, "self"))
                self.close_to(name)
                return
            if event.kind == "end" and any(t == tag for t, _ in self.stack):
                if inner and _inline(tag):
                    return  # `<b><code><pre></b>`: the pre stays open, so does the skipping
                # Closed implicitly (`<p><code></p>x`, `<a><code></a>x`): browsers reopen a
                # formatting element after the end tag that closed it (x is code), and
                # html.parser sees it open until its own end tag. End the run before it (no
                # translated text may land after it) and skip until that end tag.
                self.opaque = None
                self.flush()
                self.close_to(tag)  # keeps (name, True) on the stack
                return
            return
        skipping = self.skipping
        if event.kind in ("start", "startend"):
            skip_here = skipping or _skip_attrs(event.attrs)
            if tag in INLINE or tag in VOID_INLINE or tag in OPAQUE_INLINE:
                if skipping:
                    if event.kind == "start" and tag not in VOID:
                        self.stack.append((tag, True))
                    return
                self.attributes(event, skip_here)
                whole = tag in OPAQUE_INLINE or _skip_attrs(event.attrs)
                if event.kind == "start" and whole and tag not in VOID:
                    self.stack.append((tag, True))
                    self.opaque = (tag, a, 1, [])
                    return
                if event.kind == "startend" or tag in VOID:
                    self.run.append(Part(a, b, "self"))
                else:
                    self.stack.append((tag, False))
                    self.run.append(Part(a, b, "open", tag))
                return
            # a block boundary
            self.flush()
            self.attributes(event, skip_here)
            if event.kind == "start" and tag not in VOID:
                closes = _CLOSES.get(tag, set())
                if "p" not in closes:
                    # A block start closes an open p, through the inline elements in it
                    # (`<p><b><pre></p>x`: the pre is no child of the p, x is in the pre).
                    i = len(self.stack)
                    while i and _inline(self.stack[i - 1][0]):
                        i -= 1
                    if i and self.stack[i - 1][0] == "p":
                        del self.stack[i - 1:]
                if self.stack and self.stack[-1][0] in closes:
                    self.stack.pop()
                self.stack.append((tag, skip_here or tag in OPAQUE_BLOCK))
                if tag in _RAW_TEXT:
                    self.raw = tag
            return
        if event.kind == "end":
            if tag in INLINE and not skipping:
                self.run.append(Part(a, b, "close", tag))
                self.close_to(tag)
                return
            if not (tag in INLINE or tag in VOID_INLINE or tag in OPAQUE_INLINE):
                self.flush()
            elif not skipping:  # a stray end tag of an opaque or void element
                self.run.append(Part(a, b, "self"))
            self.close_to(tag)
            return
        if skipping:
            return
        if event.kind == "data":
            self.run.append(Part(a, b, "text"))
        elif event.kind == "ref":  # the model sees the character, not its reference
            raw = self.src[a:b]
            shown = html.unescape(raw)
            self.run.append(Part(a, b, "text", shown=shown if shown != raw else None))
        elif event.kind == "comment" and self.src.endswith("-->", a, b) and b - a >= len("<!---->"):
            # (`<!-->`, `<!--->` are comments html.parser leaves open to the end: no placeholder)
            self.run.append(Part(a, b, "self"))
        else:
            self.flush()

    def finish(self) -> None:
        self.opaque = self.raw = None  # an opaque element open to the end: text before it ends there
        self.flush()


def find_html_segments(src: str, start: int = 0, end: int | None = None, *,
                       blank_lines: bool = True) -> list[Located]:
    """The translatable spans of the HTML in src[start:end] (offsets into src).
    `blank_lines=False`: translations never put a blank line in (a Markdown HTML block)."""
    return _segment(src, start, len(src) if end is None else end, blank_lines).out


def _segment(src: str, start: int, end: int, blank_lines: bool = True) -> _Segmenter:
    segmenter = _Segmenter(src, start, blank_lines)
    for event in parse_events(src[start:end]):
        segmenter.feed(event)
    segmenter.finish()
    return segmenter


def declared_charset(data: bytes) -> str | None:
    """The charset a page declares in a `<meta>` near its start, as a Python codec name."""
    match = _META_CHARSET.search(data[:4096])
    if not match:
        return None
    label = match.group(1).decode("ascii", "replace").lower()
    aliases = {"gb2312": "gbk", "x-gbk": "gbk", "iso-8859-1": "cp1252", "latin1": "cp1252",
               "us-ascii": "cp1252", "ascii": "cp1252", "x-sjis": "shift_jis"}
    label = aliases.get(label, label)
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


class HtmlFormat(SplicingFormat):
    name = "html"
    suffixes = (".html", ".htm")

    def decode(self, data: bytes) -> Decoded:
        for bom, codec in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                           (codecs.BOM_UTF16_BE, "utf-16-be")):
            if data.startswith(bom):
                return _decode(data, codec, "byte order mark")
        declared = declared_charset(data)
        if declared is not None:
            return _decode(data, declared, "declared charset")
        if b"\x00" in data[:1024]:
            raise DocumentDecodeError("binary data, not an HTML page (NUL bytes)", data.index(b"\x00"))
        try:
            return Decoded(data.decode("utf-8"), "utf-8", "xmlcharrefreplace")
        except UnicodeDecodeError as exc:
            raise DocumentDecodeError(
                f"not valid UTF-8 and no charset declared (add <meta charset=...>): {exc.reason}",
                exc.start) from None

    def parse(self, text: str) -> HtmlDocument:
        return HtmlDocument(text)


def _decode(data: bytes, codec: str, why: str) -> Decoded:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(f"not valid {codec} ({why}): {exc.reason}", exc.start) from None
    # A BOM stays in the text (U+FEFF): encoding writes it back. Characters the page's charset
    # lacks become character references (valid in text and attribute values, the only places
    # translations go).
    return Decoded(text, codec, "xmlcharrefreplace")


class HtmlDocument:
    def __init__(self, src: str) -> None:
        self._segmenter = _segment(src, 0, len(src))
        self._index = SpliceIndex(src)
        self._index.extend(self._segmenter.out)
        self._index.finish()
        self.segments = self._index.segments()

    def reassemble(self, translated: Mapping[int, str], *, target_language: str | None = None) -> str:
        edits = []
        html_lang = self._segmenter.html_lang
        if target_language and html_lang is not None:
            edits.append((html_lang[0], html_lang[1], target_language))
        return self._index.reassemble(translated, edits)
