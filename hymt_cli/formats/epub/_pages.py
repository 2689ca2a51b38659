"""An XHTML page of a book (a spine page, the navigation document) translated with hymt's HTML
reader, written back as XML.

The page is read whole (pages are small) by the HTML segmenter: block text as segments, inline
elements as tags, `alt` and `title` as segments of their own, `script`, `style`, `code`, `pre`,
`svg` and `math` (prefixed too: `m:math`) never. What a book needs besides: translated text is
escaped as XML wants it (`&`, `<`, `>` always; characters XML forbids dropped), a page list's
labels (`<nav epub:type="page-list">`: page numbers) are left alone, and ruby keeps its base text
in the sentence while its reading (`<rt>`, `<rp>`) is left out of it: a translation has no
reading of the source's words.

The page says the target: `lang`/`xml:lang` attributes that name the book's language name the
target's (an `<html>` with neither gets `xml:lang`, and `lang` in EPUB 3), and `dir` on `<html>`
and `<body>` runs the target's way (a right-to-left target's `<html>` gets `dir="rtl"`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from ..html.escapes import attribute_spans
from ..html.events import Event, parse_events
from ..html.segmenter import Segmenter
from ..package import PackageError, PartPiece, Target, escape_attribute, escape_text
from ..spans import Located, Span
from ..splice_index import SpliceIndex
from ._languages import direction, says_source, source_is_rtl
from ._piece_builder import Make, PieceBuilder

_PAGE_LIMIT = 64 << 20  # characters: a page larger than this is refused
_READINGS = frozenset({"rt", "rp"})
_RUBY_MARKUP = frozenset({"rb", "rtc"})
_FOREIGN = frozenset({"svg", "math"})


class PageScanner:
    """A PieceScanner that reads the whole page, then makes its one piece."""

    def __init__(self, label: str, language: str, *, epub3: bool) -> None:
        self.label = label
        self.language = language
        self.epub3 = epub3
        self._chunks: list[str] = []
        self._size = 0

    def feed(self, text: str, *, final: bool = False) -> Iterator[PartPiece]:
        self._chunks.append(text)
        self._size += len(text)
        if self._size > _PAGE_LIMIT:
            raise PackageError(f"is a page of more than {_PAGE_LIMIT} characters (not read)")
        if final:
            yield page_piece("".join(self._chunks), self.label, self.language, epub3=self.epub3)


class XhtmlSegmenter(Segmenter):
    """The HTML segmenter with a book's needs (see the module docstring)."""

    def feed(self, event: Event) -> None:
        tag = event.tag
        if ":" in tag and tag.rpartition(":")[2] in _FOREIGN:  # `<m:math>` is MathML too
            event = dataclasses.replace(event, tag=tag.rpartition(":")[2])
        if event.kind in ("start", "startend") and tag == "nav" and _page_list(event):
            event = dataclasses.replace(event, attrs=(*event.attrs, ("translate", "no")))
        super().feed(event)

    def flush(self) -> None:
        self.run = without_readings(self.run)
        super().flush()


def _page_list(event: Event) -> bool:
    kinds = next((value or "" for name, value in event.attrs if name == "epub:type"), "")
    return "page-list" in kinds.split()


def without_readings(run: list[Span]) -> list[Span]:
    """Ruby's markup and readings left out of what the model sees (shown as nothing)."""
    if not any(p.kind == "open" and p.key == "ruby" for p in run):
        return run
    out: list[Span] = []
    i = 0
    while i < len(run):
        part = run[i]
        end = _closing(run, i) if part.kind == "open" and part.key == "ruby" else -1
        if end < 0:
            out.append(part)
            i += 1
            continue
        out.append(_hidden(part.start, part.end))
        out.extend(_inside_ruby(run[i + 1 : end]))
        out.append(_hidden(run[end].start, run[end].end))
        i = end + 1
    return out


def _inside_ruby(parts: list[Span]) -> Iterator[Span]:
    i = 0
    while i < len(parts):
        part = parts[i]
        if part.kind == "open" and part.key in _READINGS:
            end = _closing(parts, i)
            if end >= 0:
                yield _hidden(part.start, parts[end].end)
                i = end + 1
                continue
        if part.kind in ("open", "close") and part.key in _RUBY_MARKUP:
            yield _hidden(part.start, part.end)
        else:
            yield part
        i += 1


def _closing(parts: list[Span], i: int) -> int:
    """The index of the close that pairs with the open at `i` (-1: none)."""
    key, depth = parts[i].key, 0
    for j in range(i, len(parts)):
        if parts[j].key == key and parts[j].kind in ("open", "close"):
            depth += 1 if parts[j].kind == "open" else -1
            if depth == 0:
                return j
    return -1


def _hidden(start: int, end: int) -> Span:
    return Span(start, end, "text", shown="")


def page_piece(src: str, label: str, language: str, *, epub3: bool) -> PartPiece:
    segmenter = XhtmlSegmenter(src, 0)
    for event in parse_events(src):
        segmenter.feed(event)
    segmenter.finish()
    index = SpliceIndex(src)
    index.extend([_as_xml(src, located) for located in segmenter.out])
    index.finish()
    out = PieceBuilder()
    for located, segment in zip(index.located, index.segments()):
        out.segment(located, src, label, segment.role)
    out.segments[:] = [
        dataclasses.replace(built, context=segment.context)
        for built, segment in zip(out.segments, index.segments())
    ]
    _languages(src, out, language, epub3=epub3)
    return out.piece(src)


def _as_xml(src: str, located: Located) -> Located:
    """A located segment whose translation is escaped as XML wants it."""
    if not located.role.startswith(("attribute ", "meta ")):
        return dataclasses.replace(located, escape=escape_text)
    at = located.start
    while at > 0 and src[at - 1] not in "\"'":
        at -= 1
    quote = src[at - 1] if at > 0 else '"'
    if quote == '"':
        return dataclasses.replace(located, escape=escape_attribute)
    return dataclasses.replace(located, escape=lambda text: escape_text(text).replace("'", "&apos;"))


def _languages(src: str, out: PieceBuilder, language: str, *, epub3: bool) -> None:
    """Edits that make the page's language and direction attributes say the target."""
    page_language = language
    for event in parse_events(src):
        if event.kind not in ("start", "startend"):
            continue
        names = {name: value or "" for name, value in event.attrs}
        if event.tag == "html":
            page_language = names.get("xml:lang") or names.get("lang") or language
            _root(src, event, out, page_language, epub3=epub3)
            continue
        for name, vstart, vend, _ in attribute_spans(src, event.start, event.end):
            if name in ("lang", "xml:lang") and says_source(src[vstart:vend], page_language):
                out.targeted(vstart, vend, lambda target, _: target.code)
            elif name == "dir" and event.tag == "body":
                out.targeted(vstart, vend, _direction(src[vstart:vend], page_language))


def _root(src: str, event: Event, out: PieceBuilder, language: str, *, epub3: bool) -> None:
    """`<html>`: its language attributes (added where it has none) and its direction."""
    spans = {name: (vstart, vend) for name, vstart, vend, _ in attribute_spans(src, event.start, event.end)}
    for name in ("lang", "xml:lang"):
        if name in spans and says_source(src[slice(*spans[name])], language):
            out.targeted(*spans[name], lambda target, _: target.code)
    if "dir" in spans:
        out.targeted(*spans["dir"], _direction(src[slice(*spans["dir"])], language))
    wanted_lang = not ({"lang", "xml:lang"} & spans.keys())

    def added(target: Target, tag: str) -> str | None:
        attributes = []
        if wanted_lang:
            attributes.append(f'xml:lang="{target.code}"')
            if epub3:
                attributes.append(f'lang="{target.code}"')
        if "dir" not in spans and target.rtl:
            attributes.append('dir="rtl"')
        if not attributes:
            return None
        closing = 2 if tag.endswith("/>") else 1
        return tag[:-closing].rstrip() + " " + " ".join(attributes) + tag[-closing:]

    if wanted_lang or "dir" not in spans:
        out.targeted(event.start, event.end, added)


def _direction(current: str, language: str) -> Make:
    def make(target: Target, _: str) -> str | None:
        if current.strip().lower() in ("ltr", "rtl") and (target.rtl or source_is_rtl(language)):
            return direction(target)
        return None

    return make
