"""html.parser events with their exact spans in the source.

The stdlib parser reports every event in order; consecutive events are contiguous in the
source, so each event's span runs from its position (`getpos()`) to the next event's."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Literal

from .elements import Attrs

_NEWLINE = re.compile("\n")
_NOT_NEWLINE = re.compile("[^\n]")
_CUT_OFF_MARKUP = re.compile(r"<[!?/A-Za-z]")
# Server-side code in a page (PHP, ASP/JSP/ERB): opaque to the model, wherever it sits. To
# html.parser `<?php if ($a > 1) { ?>` would end at the first `>`; it is masked (same length,
# same line breaks) as one processing instruction before parsing, and reported as "template".
_SERVER_CODE = re.compile(r"<\?(?:php\b|=|[ \t\r\n])[\s\S]*?(?:\?>|\Z)|<%[\s\S]*?(?:%>|\Z)", re.IGNORECASE)


EventKind = Literal["start", "end", "startend", "data", "ref", "comment", "decl", "other", "template"]


@dataclass(slots=True)
class Event:
    kind: EventKind
    start: int
    end: int
    tag: str = ""
    attrs: Attrs = ()


class _Recorder(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.events: list[Event] = []
        self._line_starts = [0, *(m.end() for m in _NEWLINE.finditer(text))]

    def _at(self) -> int:
        line, col = self.getpos()
        return self._line_starts[line - 1] + col

    def _add(self, kind: EventKind, tag: str = "", attrs: Attrs = ()) -> None:
        self.events.append(Event(kind, self._at(), -1, tag, attrs))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._add("start", tag, tuple(attrs))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._add("startend", tag, tuple(attrs))

    def handle_endtag(self, tag: str) -> None:
        self._add("end", tag)

    def handle_data(self, data: str) -> None:
        self._add("data")

    def handle_entityref(self, name: str) -> None:
        self._add("ref")

    def handle_charref(self, name: str) -> None:
        self._add("ref")

    def handle_comment(self, data: str) -> None:
        self._add("comment")

    def handle_decl(self, decl: str) -> None:
        self._add("decl")

    def handle_pi(self, data: str) -> None:
        self._add("other")

    def unknown_decl(self, data: str) -> None:
        self._add("other")

    def parse_marked_section(self, i: int, report: bool = True) -> int:
        """`<![` not followed by CDATA and friends makes the stdlib raise (AssertionError, up to
        Python 3.12): browsers read it as a bogus comment up to the next `>`."""
        try:
            return super().parse_marked_section(i, report)
        except AssertionError:
            end = self.rawdata.find(">", i + 3)
            if end < 0:
                return -1
            self.unknown_decl(self.rawdata[i + 3 : end])
            return end + 1


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each span written as `<?xxx>` (line breaks kept): one processing instruction."""
    if not spans:
        return text
    out: list[str] = []
    pos = 0
    for a, b in spans:
        body = _NOT_NEWLINE.sub("x", text[a + 2 : b - 1]) + ">" if b - a >= 3 else ""
        out.append(text[pos:a])
        out.append(("<?" + body)[: b - a])
        pos = b
    out.append(text[pos:])
    return "".join(out)


def parse_events(text: str) -> list[Event]:
    """Every parser event with its exact [start, end) span in `text`."""
    code = [m.span() for m in _SERVER_CODE.finditer(text)]
    recorder = _Recorder(text)
    masked = _mask(text, code)
    recorder.feed(masked)
    # html.parser keeps what it could not finish (a tag, comment or declaration the page
    # ends in) for more data; close() would then rescan it from every `<` in it (quadratic:
    # `<a <a <a ...`). Browsers read such a tail as markup cut off by the end: one event.
    tail = len(masked) - len(recorder.rawdata)
    if _CUT_OFF_MARKUP.match(masked, tail):
        kind: EventKind = "comment" if masked.startswith("<!--", tail) else "other"
        recorder.events.append(Event(kind, tail, -1))
    else:
        recorder.close()
    events = recorder.events
    starts = {a: b for a, b in code}
    for i, event in enumerate(events):
        event.end = events[i + 1].start if i + 1 < len(events) else len(text)
        if event.kind == "other" and starts.get(event.start) == event.end:
            event.kind = "template"
    # Merge data events split by the parser's buffering; drop empty spans.
    merged: list[Event] = []
    for event in events:
        if event.end <= event.start:
            continue
        if merged and event.kind == "data" and merged[-1].kind == "data":
            merged[-1].end = event.end
        else:
            merged.append(event)
    # Markup left open at the end (`<!-- x`, `<!x`, `<?x`, `</x`, `<a title=...`) comes as
    # data: browsers read a comment or a tag cut off by the end of the page, never text.
    if merged and merged[-1].kind == "data":
        last = merged[-1]
        cut = _CUT_OFF_MARKUP.search(text, last.start, last.end)
        if cut is not None:
            at = cut.start()
            if at > last.start:
                merged.insert(len(merged) - 1, Event("data", last.start, at))
            last.kind, last.start = "comment" if text.startswith("<!--", at) else "other", at
    return merged
