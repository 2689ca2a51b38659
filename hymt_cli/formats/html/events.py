"""html.parser events with their exact spans in the source.

The stdlib parser reports every event in order; consecutive events are contiguous in the
source, so each event's span runs from its position (`getpos()`) to the next event's."""
from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from .elements import Attrs

_NEWLINE = re.compile("\n")


@dataclass(slots=True)
class Event:
    kind: str  # start | end | startend | data | ref | comment | decl | other
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

    def _add(self, kind: str, tag: str = "", attrs: Attrs = ()) -> None:
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


def parse_events(text: str) -> list[Event]:
    """Every parser event with its exact [start, end) span in `text`."""
    recorder = _Recorder(text)
    recorder.feed(text)
    recorder.close()
    events = recorder.events
    for i, event in enumerate(events):
        event.end = events[i + 1].start if i + 1 < len(events) else len(text)
    # Merge data events split by the parser's buffering; drop empty spans.
    merged: list[Event] = []
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
                merged.insert(len(merged) - 1, Event("data", last.start, at))
            last.kind, last.start = "comment", at
    return merged
