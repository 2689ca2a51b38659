"""A file of strings as the pipeline sees it: entries spliced into the source text, streamed.

The flow of one value:
    raw text in the file --(the format undoes the container's escapes: JSON, YAML ...)--> value text
    value text --(values.parse_value: placeholders as tags)--> segments --(model)--> translations
    translations --(ParsedValue.render: tags back to their source text)--> new value text
    new value text --(Entry.write: escaped as the container writes it, quoting kept)--> raw text
    raw text spliced into the file between untouched source bytes (never a re-serialised tree).

A format (a `StringsFormat`) only decodes the bytes and `scan`s the text: it yields, in source
order, an `Entry` per string value (its span, its parsed value, how to write a new value there,
its key path and notes: the context), and an `Edit` per change a target file must carry whatever
the translations (ARB `@@locale`, Rails' root locale key). An entry with `targets` exists only
for those target languages: a plural form the source lacks (inserted: `start == end`), written
from its own translation or, where that is missing, from its `fallback` entry's rendering.

The reader cuts the entries into units of about `SEGMENTS_PER_UNIT` segments, so a file of a
million values is translated in windows and written as it goes, in bounded memory; `parse`
gives the whole file as one `ParsedDocument` (the splice contract of formats/base.py).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import BinaryIO, ClassVar

from ...text.languages import plural_code
from ...text.segments import Segment
from ..base import Decoded, FormatError, InputSource, Unit
from ..document import SplicingFormat
from ..layout import Layout, in_i18n_place
from .values import Value

SEGMENTS_PER_UNIT = 2048


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
class _Placed:
    """An entry in a unit: its first global segment id."""

    entry: Entry
    first: int


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


class _Splicer:
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
        if entry.targets is not None and (self.lang is None or plural_code(self.lang) not in entry.targets):
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
        self.chunk = _chunk(src, list(items), count(), len(src))
        self.segments, self.labels = chunk_segments(self.chunk)

    def reassemble(self, translated: Mapping[int, str], *, target_language: str | None = None) -> str:
        return _Splicer(target_language).chunk(self.chunk, translated)


def _chunk(src: str, items: list[Item], ids: Iterator[int], end: int) -> Chunk:
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


class StringsFormat(SplicingFormat):
    """Base of the string-file formats: `decode` and `scan`; parsing, streaming and writing here."""

    name: ClassVar[str]
    suffixes: ClassVar[tuple[str, ...]]
    # Where a path names its language (layout.py): output names and which files are translations.
    layouts: ClassVar[tuple[Layout, ...]] = ()

    @classmethod
    def walk_refusal(cls, path: Path) -> str | None:
        """Why a file found in a folder walk is no input (None: it is one). A suffix such as
        `.json` or `.yml` is shared with configuration files (package.json, CI files): by default
        only files whose path shows an i18n layout are taken; a file named on the command line
        (or any file with --format) is always read."""
        if in_i18n_place(path, cls.layouts):
            return None
        return (
            f"a {path.suffix} file outside a strings folder (locales/, i18n/, lang/ ...): "
            "name it, or pass --format, to translate it"
        )

    def scan(self, text: str) -> Iterator[Item]:  # pragma: no cover - every format defines it
        """The file's entries and edits in source order; raise FormatError (with line and
        column) when the text is not this format."""
        raise NotImplementedError

    def parse(self, text: str) -> StringsDocument:
        return StringsDocument(text, self.scan(text))

    def open(self, source: InputSource) -> StringsReader:  # type: ignore[override]
        return StringsReader(self, source)


class StringsReader:
    """Units of about SEGMENTS_PER_UNIT segments, read as the scan goes (bounded memory)."""

    def __init__(self, fmt: StringsFormat, source: InputSource) -> None:
        self._format = fmt
        self._source = source
        self._decoded: Decoded | None = None

    def units(self) -> Iterator[Unit]:
        try:
            data = self._source.read_bytes()
        except OSError as exc:
            raise FormatError(f"cannot read: {exc.strerror or exc}") from None
        decoded = self._decoded = self._format.decode(data)
        text = decoded.text
        ids = count()
        pending: list[Item] = []
        size = 0
        index = 0
        for item in _scanned(self._format, text):
            # A unit ends before an item that is not a new form of the one before it: new forms
            # stay in the unit of the entry they fall back to.
            if size >= SEGMENTS_PER_UNIT and not (isinstance(item, Entry) and item.targets is not None):
                yield _unit(index, _chunk(text, pending, ids, item.start))
                index, pending, size = index + 1, [], 0
            pending.append(item)
            if isinstance(item, Entry):
                size += len(item.value.segments)
        yield _unit(index, _chunk(text, pending, ids, len(text)))

    def writer(self, target_language: str, out: BinaryIO) -> StringsWriter:
        assert self._decoded is not None, "writer() is called after the first unit"
        return StringsWriter(target_language, out, self._decoded)


def _scanned(fmt: StringsFormat, text: str) -> Iterator[Item]:
    try:
        yield from fmt.scan(text)
    except FormatError:
        raise
    except (ValueError, RecursionError) as exc:
        raise FormatError(f"cannot parse as {fmt.name}: {exc}") from None


def _unit(index: int, chunk: Chunk) -> Unit:
    segments, labels = chunk_segments(chunk)
    return Unit(index, segments, chunk, labels=labels)


class StringsWriter:
    def __init__(self, target_language: str, out: BinaryIO, decoded: Decoded) -> None:
        self._splicer = _Splicer(target_language)
        self._out = out
        self._encoding = decoded.encoding
        self._encoder = codecs.getincrementalencoder(decoded.encoding)(decoded.errors)

    def write(self, unit: Unit, translated: Mapping[int, str]) -> None:
        chunk = unit.content
        assert isinstance(chunk, Chunk)
        self._out.write(self._encoded(self._splicer.chunk(chunk, translated)))

    def close(self) -> None:
        self._out.write(self._encoded("", final=True))

    def _encoded(self, text: str, final: bool = False) -> bytes:
        """The text in the file's own encoding (a PO file's declared charset: ISO-8859-1 ...); a
        translation that encoding cannot hold fails the output in one line (nothing is written)."""
        try:
            return self._encoder.encode(text, final)
        except UnicodeEncodeError as exc:
            char = text[exc.start]
            line_start = text.rfind("\n", 0, exc.start) + 1
            line_end = text.find("\n", exc.start)
            line = text[line_start : line_end if line_end >= 0 else len(text)].strip()
            near = line if len(line) <= 80 else line[:77] + "..."
            raise FormatError(
                f"a translation holds {char!r} (U+{ord(char):04X}), which {self._encoding}, the file's "
                f"encoding, cannot write (in: {near}); convert the file to UTF-8 to translate it "
                "into this language"
            ) from None
