"""The content of an XML element as one string value: text runs and inline elements as parts.

XLIFF `<source>`, Android `<string>` and a plist `<string>` hold text, entities, CDATA
sections and inline elements (`<g>`, `<ph/>`, `<xliff:g>`, `<b>`). The value's text is the
element's source content; its parts, offsets into that text:
- an inline element the format calls `pair` is a tag pair around translatable content
  (`<g>bold</g>` -> `<s1>bold</s1>`), one it calls `code` is one placeholder, content and all
  (`<ph>{x}</ph>`, `<xliff:g>%1$s</xliff:g>` -> `<s2/>`); comments, processing instructions and
  entities that stay literal are placeholders too;
- CDATA markers are a pair, so that a value wholly in one CDATA section is translated inside it;
- each text run is read as it decodes (entities undone) and cut by the placeholder grammar
  (`literal_parts`); `refine` adds a format's own escapes (Android's `\\'`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ..text.languages import plural_code
from .escaped import Chunk, EscapedRun
from .spans import Span
from .strings import Conventions, literal_parts
from .xmlscan import XmlEvent

InlineKind = Literal["pair", "code"]
Classify = Callable[[XmlEvent], InlineKind]
Refine = Callable[[EscapedRun], EscapedRun]


@dataclass(frozen=True, slots=True)
class Content:
    """An element's content: `src[start:end]`, its pieces (runs and markup parts, absolute
    offsets) and the text it reads as (runs only: what the conventions are chosen by)."""

    start: int
    end: int
    pieces: tuple[EscapedRun | Span, ...]
    cdata_only: bool  # the content is one CDATA section (whitespace around it aside)

    @property
    def text_only(self) -> bool:
        """Only text (and CDATA sections): no element, comment or literal entity inside."""
        return all(isinstance(p, EscapedRun) or p.key == "xml:cdata" for p in self.pieces)

    all_text: str = ""  # every character of the content, inside inline codes too (`<xliff:g>%1$s`)

    @property
    def decoded(self) -> str:
        return "".join(p.decoded for p in self.pieces if isinstance(p, EscapedRun))

    def parts(self, src: str, conventions: Conventions) -> list[Span]:
        """Parts with offsets into the content's own text (`src[start:end]`)."""
        out: list[Span] = []
        for piece in self.pieces:
            if isinstance(piece, EscapedRun):
                decoded = piece.decoded
                out.extend(piece.parts(src, literal_parts(decoded, 0, len(decoded), conventions)))
            else:
                out.append(piece)
        return [replace(p, start=p.start - self.start, end=p.end - self.start) for p in out]


def matching_end(events: Sequence[XmlEvent], i: int) -> int:
    """The index of the end event of the element that starts at events[i]."""
    depth = 0
    for j in range(i, len(events)):
        kind = events[j].kind
        if kind == "start":
            depth += 1
        elif kind == "end":
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("element not closed")  # never: expat checked the document


def children(events: Sequence[XmlEvent], first: int, last: int) -> Iterator[tuple[int, int]]:
    """(start, end) event indices of the direct child elements of events[first]."""
    i = first + 1
    while i < last:
        if events[i].kind == "start":
            j = matching_end(events, i)
            yield i, j
            i = j
        i += 1


def content(
    src: str,
    events: Sequence[XmlEvent],
    first: int,
    last: int,
    classify: Classify,
    refine: Refine | None = None,
) -> Content:
    """The content of the element whose start event is events[first] and end event events[last]."""
    start, end = events[first].end, events[last].start
    pieces: list[EscapedRun | Span] = []
    chunks: list[Chunk] = []
    cdata_sections = 0
    outside_text = False

    def flush() -> None:
        if chunks:
            run = EscapedRun(chunks)
            pieces.append(refine(run) if refine is not None else run)
            chunks.clear()

    in_cdata = False
    i = first + 1
    while i < last:
        event = events[i]
        if event.kind == "text":
            chunks.append(
                Chunk(event.start, event.end, event.data, src[event.start : event.end] == event.data)
            )
            if not in_cdata and event.data.strip():
                outside_text = True
        elif event.kind in ("cdata_start", "cdata_end"):
            flush()
            in_cdata = event.kind == "cdata_start"
            cdata_sections += in_cdata
            pieces.append(Span(event.start, event.end, "open" if in_cdata else "close", "xml:cdata"))
        elif event.kind == "start":
            flush()
            outside_text = True
            j = matching_end(events, i)
            kind = classify(event)
            if kind == "code" or event.empty:
                pieces.append(Span(event.start, events[j].end, "self"))
                i = j
            else:
                pieces.append(Span(event.start, event.end, "open", f"xml:{event.name}"))
        elif event.kind == "end":
            flush()
            pieces.append(Span(event.start, event.end, "close", f"xml:{event.name}"))
        else:  # comments, processing instructions, entities that stay literal
            flush()
            pieces.append(Span(event.start, event.end, "self"))
        i += 1
    flush()
    all_text = "".join(e.data for e in events[first + 1 : last] if e.kind == "text")
    return Content(start, end, tuple(pieces), cdata_sections == 1 and not outside_text, all_text)


def escape_text(text: str) -> str:
    """Character data: `&`, `<` and `>` as references (`>` too, so that `]]>` never appears). A
    carriage return is the rest of a model's CR LF: XML would read it as one more line break."""
    return text.replace("\r", "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_cdata(text: str) -> str:
    """Text inside a CDATA section: `]]>` split across two sections (no carriage return either)."""
    return text.replace("\r", "").replace("]]>", "]]]]><![CDATA[>")


def chain(*steps: Callable[[str], str] | None) -> Callable[[str], str]:
    """One escape from several (None steps skipped), applied in order."""
    used = [s for s in steps if s is not None]

    def escape(text: str) -> str:
        for step in used:
            text = step(text)
        return text

    return escape


def as_is(text: str) -> str:
    """A value written as its text: the text already is the source (XML content)."""
    return text


def wrapped(before: str, after: str) -> Callable[[str], str]:
    """A writer of a new element around its content (a plural form added)."""

    def write(new: str) -> str:
        return f"{before}{new}{after}"

    return write


def left_out_unless(having: frozenset[str]) -> Callable[[str], str | None]:
    """An edit that removes an element for the target languages not in `having`."""

    def replace(lang: str) -> str | None:
        return None if plural_code(lang) in having else ""

    return replace


def gap_start(events: Sequence[XmlEvent], i: int) -> int:
    """Where the white space just before events[i] starts (expat reports it in pieces)."""
    while i > 0 and events[i - 1].kind == "text" and not events[i - 1].data.strip():
        i -= 1
    return events[i].start
