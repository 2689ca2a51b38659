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
from ...text.segments import Segment, is_translatable
from ..base import Decoded, FormatError, InputSource, Unit
from ..document import SplicingFormat
from ..layout import Layout, in_i18n_place
from .merge import MergeCounts, MergePlan, path_key
from .outline import Outline
from .outline import Path as KeyPath
from .plurals import for_languages
from .target import MergeResult, TargetFile, lacks_plural_forms, records_of_new_file
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

    def scan_wanted(self, text: str, wanted: Callable[[int, int], bool]) -> Iterator[Item]:
        """`scan`, where only the values whose span `wanted` accepts need to be entries (the
        others may be left out: merging into a target that has most of them). A format that
        can skip the work of the others says so by overriding this."""
        return self.scan(text)

    @property
    def merges(self) -> bool:
        """Whether this format merges into target files that exist (it has an `outline`)."""
        return type(self).outline is not StringsFormat.outline

    def outline(self, text: str) -> Outline | None:
        """The file's members (strings/outline.py), for merging into a target file that
        exists; None: this format does not merge (its targets are written whole)."""
        return None

    def target_outline(self, text: str, lang: str | None) -> Outline | None:
        """The members of a target file in `lang` (None: `outline`'s, the source's). A file
        that holds several languages (a Jekyll `_data/ui-text.yml`) is outlined at that
        language's part; any other file as `outline` does."""
        return self.outline(text)

    def starts_from_source(self, text: str) -> bool:
        """Whether a target of this source that does not exist yet starts as a copy of the
        source and is merged into (a file that holds several languages, whose target is its
        language's part), rather than written anew."""
        return False

    def parse(self, text: str) -> StringsDocument:
        return StringsDocument(text, self.scan(text))

    def open(self, source: InputSource) -> StringsReader:  # type: ignore[override]
        return StringsReader(self, source)


class StringsReader:
    """Units of about SEGMENTS_PER_UNIT segments, read as the scan goes (bounded memory).

    Targets that exist are merged (target.py): `merge_into` names them before the first unit;
    each unit then says which of its segments such a target still needs (`Unit.only`), and the
    scan may leave out the values none of the targets needs (`StringsFormat.scan_wanted`)."""

    def __init__(self, fmt: StringsFormat, source: InputSource) -> None:
        self._format = fmt
        self._source = source
        self._decoded: Decoded | None = None
        self._outline: Outline | None = None
        self._targets: dict[str, TargetFile] = {}
        self._anew: list[str] = []  # the languages whose target does not exist yet
        self._languages: tuple[str, ...] | None = None  # (None: every language)
        self._keep_removed = False
        self._every_value = True  # some target is written anew: it needs every value
        self._new_forms: dict[str, dict[tuple[str | int, ...], str]] = {}  # plural code -> path -> text

    @property
    def merges(self) -> bool:
        """Whether this input's format merges into target files that exist."""
        return self._format.merges

    def merge_into(self, targets: Mapping[str, Path | None], *, keep_removed: bool = False) -> None:
        """The target file of each language the input is translated into: one that exists is
        merged into, None is written anew."""
        self._targets = {
            lang: TargetFile(lang, path, keep_removed) for lang, path in targets.items() if path is not None
        }
        self._anew = [lang for lang, path in targets.items() if path is None]
        self._languages = tuple(targets)  # new plural forms are made for these only
        self._keep_removed = keep_removed
        self._every_value = bool(self._anew) or not targets

    def drift(self) -> dict[str, MergeCounts | str]:
        """Without translating: what a run would do to each target named by `merge_into` (its
        counts, settled), or why it cannot be merged into. Reads the whole input."""
        for _ in self.units():
            pass
        out: dict[str, MergeCounts | str] = {}
        for lang, target in self._targets.items():
            if target.error is not None or target.plan is None:
                out[lang] = target.error or f"{target.path}: cannot be merged into"
            else:
                out[lang] = target.plan.settle()
        return out

    def units(self) -> Iterator[Unit]:
        try:
            data = self._source.read_bytes()
        except OSError as exc:
            raise FormatError(f"cannot read: {exc.strerror or exc}") from None
        decoded = self._decoded = self._format.decode(data)
        text = decoded.text
        items = self._items(text, data)
        ids = count()
        pending: list[Item] = []
        size = 0
        index = 0
        for item in items:
            # A unit ends before an item that is not a new form of the one before it: new forms
            # stay in the unit of the entry they fall back to.
            if size >= SEGMENTS_PER_UNIT and not (isinstance(item, Entry) and item.targets is not None):
                yield self._unit(
                    index, _chunk(text, pending, ids, item.start), "" if index else decoded.warning
                )
                index, pending, size = index + 1, [], 0
            pending.append(item)
            if isinstance(item, Entry):
                size += len(item.value.segments)
        yield self._unit(index, _chunk(text, pending, ids, len(text)), "" if index else decoded.warning)

    def _items(self, text: str, data: bytes) -> Iterator[Item]:
        if not self.merges:
            return _scanned(self._format, text, None, self._languages)
        try:
            outline = self._outline = self._format.outline(text)
        except (FormatError, ValueError, RecursionError) as exc:
            raise FormatError(f"cannot parse as {self._format.name}: {exc}") from None
        assert outline is not None
        if self._anew and self._format.starts_from_source(text):  # a copy of the source, merged into
            for lang in self._anew:
                self._targets[lang] = TargetFile(lang, None, self._keep_removed, base=data)
            self._every_value = False
        for target in self._targets.values():
            target.prepare(self._format, outline)
        if self._every_value:
            return _scanned(self._format, text, None, self._languages)
        wanted = {
            (leaf.value_start, leaf.value_end)
            for target in self._targets.values()
            if target.plan is not None
            for leaf in target.plan.leaves
            if target.plan.needs(leaf.path)
        }
        if not wanted and not lacks_plural_forms(outline, self._targets):
            return iter(())  # nothing to translate, no plural form a target lacks: no scan
        return _scanned(self._format, text, lambda start, end: (start, end) in wanted, self._languages)

    def _unit(self, index: int, chunk: Chunk, warning: str = "") -> Unit:
        segments, labels = chunk_segments(chunk)
        only: dict[str, frozenset[int]] = {}
        entries = [(item, first) for item, first in zip(chunk.items, chunk.firsts) if isinstance(item, Entry)]
        for lang, target in self._targets.items():
            only[lang] = target.needed(entries)
        for entry, _ in entries:  # the source text of every new plural form, for the records
            if entry.targets is not None and entry.start == entry.end and entry.path:
                for code in entry.targets:  # (languages.plural_code: a target's plural rules)
                    self._new_forms.setdefault(code, {})[entry.path] = entry.value.text
        return Unit(index, segments, chunk, labels=labels, only=only, warning=warning)

    def writer(self, target_language: str, out: BinaryIO) -> StringsWriter | MergeWriter:
        assert self._decoded is not None, "writer() is called after the first unit"
        target = self._targets.get(target_language)
        if target is not None:
            assert self._outline is not None
            return MergeWriter(self._format, self._decoded.text, self._outline, target, out)
        if self._outline is None:
            return StringsWriter(target_language, out, self._decoded)
        spans = {(leaf.value_start, leaf.value_end): leaf.path for leaf in self._outline.leaves()}

        def path_of(entry: Entry) -> KeyPath | None:
            return entry.path if entry.start == entry.end else spans.get((entry.start, entry.end))

        return StringsWriter(target_language, out, self._decoded, self._records_of_new_file, path_of)

    def _records_of_new_file(self, lang: str, output: str, failed: Iterable[KeyPath]) -> MergeResult | None:
        if self._outline is None:
            return None
        written = self._format.target_outline(output, lang)
        assert written is not None
        records = records_of_new_file(
            self._outline, written, self._new_forms.get(plural_code(lang), {}), failed
        )
        return MergeResult(MergeCounts(added=len(records)), records, {}, unchanged=False)


def _scanned(
    fmt: StringsFormat,
    text: str,
    wanted: Callable[[int, int], bool] | None,
    languages: Iterable[str] | None = None,
) -> Iterator[Item]:
    try:
        items = fmt.scan(text) if wanted is None else fmt.scan_wanted(text, wanted)
        yield from for_languages(items, languages)
    except FormatError:
        raise
    except (ValueError, RecursionError) as exc:
        raise FormatError(f"cannot parse as {fmt.name}: {exc}") from None


class Renderings:
    """What one language's items of the source are written as, by source span (merge.Rendered),
    and the keys whose translation is incomplete. New plural forms at one point (Russian `few`
    and `many` after `other`) share their span: it holds them all, in order (what a member copied
    whole carries), and `points` each one by its path (what is inserted alone)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.by_span: dict[tuple[int, int], tuple[str | None, str]] = {}
        self.points: dict[KeyPath, str] = {}  # each new plural form's own text (merge.merged)
        self.failed: set[KeyPath] = set()
        self._texts: dict[int, str] = {}  # id(entry) -> its rendered text (a new form's fallback)

    def chunk(
        self,
        unit: Unit,
        translated: Mapping[int, str],
        path_of: Callable[[Entry], KeyPath | None],
    ) -> None:
        """A unit's items in this language; only the entries it needs where it needs fewer."""
        chunk = unit.content
        assert isinstance(chunk, Chunk)
        only = unit.only.get(self.lang)
        for item, first in zip(chunk.items, chunk.firsts):
            if isinstance(item, Edit):
                new = item.replace(self.lang)
                if new is not None:
                    self.by_span[(item.start, item.end)] = (None, new)
                continue
            if item.targets is not None and plural_code(self.lang) not in item.targets:
                continue
            if only is not None and first not in only:
                continue
            self._entry(item, first, translated, path_of(item))

    def _entry(self, entry: Entry, first: int, translated: Mapping[int, str], path: KeyPath | None) -> None:
        value = entry.value
        local = {i: translated[first + i] for i in range(len(value.segments)) if first + i in translated}
        text = value.render(local, self.lang)
        self._texts[id(entry)] = text
        code = plural_code(self.lang)
        missing = any(
            (s.targets is None or code in s.targets) and is_translatable(s.text) and i not in local
            for i, s in enumerate(value.segments)
        )
        if entry.fallback is not None and not value.complete(local, self.lang):
            text = self._texts.get(id(entry.fallback), entry.fallback.value.text)
        if missing and path is not None:
            self.failed.add(path)
        raw = entry.write(text)
        if entry.start == entry.end:  # new plural forms at one point follow each other there
            before = self.by_span.get((entry.start, entry.end))
            self.by_span[(entry.start, entry.end)] = (None, (before[1] if before else "") + raw)
            if path is not None:
                self.points[path] = raw
            return
        self.by_span[(entry.start, entry.end)] = (text, raw)


class RecordingWriter:
    """A writer of a file of strings that knows, once closed, what it wrote key by key
    (`result`: None where its format does not merge)."""

    result: MergeResult | None = None


class StringsWriter(RecordingWriter):
    """Writes a target anew: the source, its values translated, as the chunks come. For a format
    that merges, it keeps what it wrote, to record every value as hymt's (`result`)."""

    def __init__(
        self,
        target_language: str,
        out: BinaryIO,
        decoded: Decoded,
        records: Callable[[str, str, Iterable[KeyPath]], MergeResult | None] | None = None,
        path_of: Callable[[Entry], KeyPath | None] | None = None,
    ) -> None:
        self._splicer = _Splicer(target_language)
        self._lang = target_language
        self._out = out
        self._encoding = decoded.encoding
        self._encoder = codecs.getincrementalencoder(decoded.encoding)(decoded.errors)
        self._records = records
        self._path_of = path_of
        self._written: list[str] = []
        self._renderings = Renderings(target_language) if records is not None else None
        self.result: MergeResult | None = None

    def write(self, unit: Unit, translated: Mapping[int, str]) -> None:
        chunk = unit.content
        assert isinstance(chunk, Chunk)
        text = self._splicer.chunk(chunk, translated)
        if self._renderings is not None and self._path_of is not None:
            self._written.append(text)
            self._renderings.chunk(unit, translated, self._path_of)
        self._out.write(_encoded(self._encoder, self._encoding, text))

    def close(self) -> None:
        self._out.write(_encoded(self._encoder, self._encoding, "", final=True))
        if self._records is not None and self._renderings is not None:
            self.result = self._records(self._lang, "".join(self._written), self._renderings.failed)


class MergeWriter(RecordingWriter):
    """Writes a target that exists: the merge of target.py, at `close` (module docstring)."""

    def __init__(
        self, fmt: StringsFormat, source_text: str, source: Outline, target: TargetFile, out: BinaryIO
    ) -> None:
        self._format = fmt
        self._source_text = source_text
        self._source = source
        self._target = target
        self._out = out
        self._renderings = Renderings(target.lang)
        self.result: MergeResult | None = None

    def write(self, unit: Unit, translated: Mapping[int, str]) -> None:
        if self._target.error is not None:
            raise FormatError(self._target.error)
        chunk = unit.content
        assert isinstance(chunk, Chunk)
        self._renderings.chunk(unit, translated, self._target.path_of)

    def close(self) -> None:
        target = self._target
        if target.error is not None:
            raise FormatError(target.error)
        plan = target.plan
        assert plan is not None and target.decoded is not None
        try:
            now = _read_again(target.path) if target.path is not None else target.data
        except OSError as exc:
            raise FormatError(
                f"{target.path}: cannot read the existing translation: {exc.strerror or exc}"
            ) from None
        if now != target.data:  # another run wrote it since: merged into as it is now
            plan = target.replanned(self._format, self._source, now)
            if plan is None:
                raise FormatError(target.error or f"{target.path}: cannot be merged into")
        decoded = target.decoded
        assert decoded is not None
        renderings = self._renderings
        failed = set(renderings.failed)
        if plan is not target.plan:  # keys stale only now: their values were not read
            before = target.plan
            assert before is not None
            failed |= {path for path in plan.fates if plan.needs(path) and not before.needs(path)}
        text = plan.merged(self._source_text, renderings.by_span, failed, renderings.points)
        written = self._checked(plan, text)
        data = _encoded(
            codecs.getincrementalencoder(decoded.encoding)(decoded.errors), decoded.encoding, text, final=True
        )
        unchanged = data == now and target.path is not None
        if not unchanged:
            self._out.write(data)
        self.result = MergeResult(
            plan.settle(), plan.records_after(written, failed), plan.archive_after(), unchanged
        )

    def _checked(self, plan: MergePlan, text: str) -> Outline:
        """The merged text read back: it must parse, and every value a person wrote must read as
        it did (a merge that would lose one writes nothing)."""
        try:
            written = self._format.target_outline(text, self._target.lang)
        except (FormatError, ValueError, RecursionError) as exc:
            raise FormatError(
                f"{self._target.where}: merging would write an unreadable file ({exc}); nothing written"
            ) from None
        assert written is not None
        after = {leaf.path: leaf.text for leaf in written.leaves()}
        changed = {path for path, fate in plan.fates.items() if fate in ("added", "updated", "restored")}
        gone = {member.path for member in plan.removed}
        for leaf in plan.target.leaves():  # every value the merge does not change reads as it did
            path = leaf.path
            if path in changed or (gone and any(path[:i] in gone for i in range(len(path) + 1))):
                continue
            if after.get(path) != leaf.text:
                where = path_key(path)
                raise FormatError(
                    f"{self._target.where}: merging would change the value at {where}; nothing written"
                )
        return written


def _read_again(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _encoded(encoder: codecs.IncrementalEncoder, encoding: str, text: str, final: bool = False) -> bytes:
    """The text in the file's own encoding (a PO file's declared charset: ISO-8859-1 ...); a
    translation that encoding cannot hold fails the output in one line (nothing is written)."""
    try:
        return encoder.encode(text, final)
    except UnicodeEncodeError as exc:
        char = text[exc.start]
        line_start = text.rfind("\n", 0, exc.start) + 1
        line_end = text.find("\n", exc.start)
        line = text[line_start : line_end if line_end >= 0 else len(text)].strip()
        near = line if len(line) <= 80 else line[:77] + "..."
        raise FormatError(
            f"a translation holds {char!r} (U+{ord(char):04X}), which {encoding}, the file's "
            f"encoding, cannot write (in: {near}); convert the file to UTF-8 to translate it "
            "into this language"
        ) from None
