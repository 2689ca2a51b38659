"""The items a format's scan yields (an `Entry` per string value, an `Edit` per change every
target carries), gathered in chunks: a chunk's segments, and its output spliced into the source."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import count

from ...text.languages import written_for
from ...text.segments import Segment
from .values import Value


@dataclass(frozen=True, slots=True)
class Entry:
    """One string value of a file, where it is and how a new value is written there."""

    start: int  # the raw span replaced by a new value (inserted there when start == end)
    end: int
    value: Value
    write: Callable[[str], str]  # new value text -> raw text for [start, end)
    key: str = ""  # key path ("settings.button.save"): context, role and report label
    note: str = ""  # what the file says about the value (ARB description, a comment): context
    targets: frozenset[str] | None = None  # written only for these target languages
    fallback: Entry | None = None  # rendered instead when a translation of this one is missing
    # Where the value is, for people, when a key does not say it (a PO message: `msgid "Save"`):
    # the segments' role and report label. "" = the key's.
    role: str = ""
    # The exact key path of a new plural form (`targets`, inserted at a point): its key when a
    # target file is merged (outline.py). A value in place is known by its span.
    path: tuple[str | int, ...] = ()


@dataclass(frozen=True, slots=True)
class Edit:
    """A change every target file carries: `replace(target language)` for [start, end) (None:
    the source stays)."""

    start: int
    end: int
    replace: Callable[[str], str | None]


Item = Entry | Edit


def context_of(entry: Entry, note: str) -> str:
    """What the model is told about a segment (never translated): key, file notes, plural form."""
    lines = [f"Key: {entry.key}" if entry.key else "", entry.note, note]
    return "\n".join(line for line in lines if line)


@dataclass(frozen=True, slots=True)
class Chunk:
    """A unit's content: its items, their first segment ids, and the source span it covers."""

    src: str
    items: tuple[Item, ...]
    firsts: tuple[int, ...]  # per item: its first segment id (edits: -1)
    end: int  # the unit's output ends at this source offset (the last one: the end of the file)


def chunk_segments(chunk: Chunk) -> tuple[list[Segment], dict[int, str]]:
    segments: list[Segment] = []
    labels: dict[int, str] = {}
    for item, first in zip(chunk.items, chunk.firsts):
        if isinstance(item, Edit):
            continue
        for i, part in enumerate(item.value.segments):
            sid = first + i
            label = item.key + (f" {part.label}" if part.label else "")
            if item.role:
                label = f"{item.role} {part.label}".rstrip()
                role = label
            else:
                role = f"key {label}" if item.key else part.label
            segments.append(Segment(sid, part.text, context_of(item, part.note), role, part.targets))
            if label:
                labels[sid] = label
    return segments, labels


class Splicer:
    """Writes the output of one target language chunk by chunk: source bytes between items."""

    def __init__(self, lang: str | None) -> None:
        self.lang = lang
        self.pos = 0
        # The text each entry of the chunk got in this language (the `other` form a new form copies).
        self.rendered: dict[int, str] = {}

    def chunk(self, chunk: Chunk, translated: Mapping[int, str]) -> str:
        src, out = chunk.src, []
        self.rendered.clear()
        for item, first in zip(chunk.items, chunk.firsts):
            if item.start < self.pos:
                continue  # overlapping items never corrupt the output: the first one wins
            if isinstance(item, Edit):
                new = item.replace(self.lang) if self.lang is not None else None
            else:
                new = self._entry(item, first, translated)
            if new is None:
                continue
            out.append(src[self.pos : item.start])
            out.append(new)
            self.pos = item.end
        out.append(src[self.pos : chunk.end])
        self.pos = chunk.end
        return "".join(out)

    def _entry(self, entry: Entry, first: int, translated: Mapping[int, str]) -> str | None:
        if entry.targets is not None and (self.lang is None or not written_for(entry.targets, self.lang)):
            return None
        local = {
            i: translated[first + i] for i in range(len(entry.value.segments)) if first + i in translated
        }
        text = entry.value.render(local, self.lang)
        self.rendered[id(entry)] = text
        if entry.fallback is not None and not entry.value.complete(local, self.lang):
            text = self.rendered.get(id(entry.fallback), entry.fallback.value.text)
        if text == entry.value.text and entry.start < entry.end:
            return None
        return entry.write(text)


class StringsDocument:
    """A whole file as one parsed document (the splice contract; tests and small files)."""

    def __init__(self, src: str, items: Iterable[Item]) -> None:
        self.chunk = chunk_of(src, list(items), count(), len(src))
        self.segments, self.labels = chunk_segments(self.chunk)

    def reassemble(self, translated: Mapping[int, str], *, target_language: str | None = None) -> str:
        return Splicer(target_language).chunk(self.chunk, translated)


def chunk_of(src: str, items: list[Item], ids: Iterator[int], end: int) -> Chunk:
    firsts: list[int] = []
    for item in items:
        if isinstance(item, Edit):
            firsts.append(-1)
            continue
        first = -1
        for _ in item.value.segments:
            sid = next(ids)
            first = sid if first < 0 else first
        firsts.append(first)
    return Chunk(src, tuple(items), tuple(firsts), end)
