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

The reader cuts the entries into units of about `segments_per_unit` segments (ReadSizes), so a
file of a million values is translated in windows and written as it goes, in bounded memory; `parse`
gives the whole file as one `ParsedDocument` (the splice contract of formats/base.py).
Entries, edits and splicing are _splice.py's; the writers of a target, _writers.py's.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping
from itertools import count
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, ClassVar

from ...text.exemplars import refusal
from ...text.languages import plural_code
from ...text.substitutes import is_legacy
from ..base import READ_SIZES, Decoded, FormatError, InputSource, KeptFile, ReadSizes, Unit
from ..document import SplicingFormat
from ..layout import Layout, in_i18n_place
from ._splice import Chunk, Entry, Item, StringsDocument, chunk_of, chunk_segments
from ._writers import MergeWriter, StringsWriter
from .merge import MergeCounts, path_key
from .outline import Container, KeyPath, Outline
from .plurals import PluralLanguages, plural_codes
from .target import MergeResult, TargetFile, lacks_plural_forms, records_of_new_file

if TYPE_CHECKING:
    from ...outputs.listings import Listing


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

    @classmethod
    def not_translated(cls, path: Path) -> str | None:
        """Why the file holds nothing to translate by its ecosystem's rules (None: it may hold
        some; Android's resources say so in their own ways)."""
        return None

    @classmethod
    def declared_locale(cls, path: Path) -> str | None:
        """The locale the file says it holds in its content (None: its path alone tells)."""
        return None

    @property
    def catalog(self) -> StringsFormat:
        """A file of strings (formats/base.Catalog: `merges`, `announce`, `listing`)."""
        return self

    def announce(self, target: Path) -> str | None:
        """A new target file `target` was written: what the project must be told of it, in a
        line (Angular's `angular.json` lists none), or None (nothing)."""
        return None

    def listing(self, target: Path) -> Listing | None:
        """A new target file `target` was written: the project file listing the catalogs it
        builds, which it joins (gettext's `LINGUAS`), or None (none)."""
        return None

    def scan(self, text: str, languages: PluralLanguages = None) -> Iterator[Item]:  # pragma: no cover
        """The file's entries and edits in source order; raise FormatError (with line and
        column) when the text is not this format. A plural gets the forms `languages` (plural
        codes, `plural_codes`; None: every language) lack."""
        raise NotImplementedError

    def scan_wanted(self, text: str, wanted: Wanted, languages: PluralLanguages = None) -> Iterator[Item]:
        """`scan`, where only the values whose span `wanted` accepts need to be entries (the
        others may be left out: merging into a target that has most of them). A format that
        can skip the work of the others says so by overriding this; one that can skip a whole
        container (`Wanted.skippable`) without reading it, by using that too."""
        return self.scan(text, languages)

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

    # Whether a value this format writes can hold any character whatever the file's encoding
    # (a .properties file's `\uXXXX`, XML's character references): else a legacy charset (a PO
    # header's) must hold the target's letters.
    writes_any_character: ClassVar[bool] = False

    def starts_from_source(self, text: str) -> bool:
        """Whether a target of this source that does not exist yet starts as a copy of the
        source and is merged into (a file that holds several languages, whose target is its
        language's part), rather than written anew."""
        return False

    def parse(self, text: str) -> StringsDocument:
        return StringsDocument(text, self.scan(text))

    def open(self, source: InputSource, sizes: ReadSizes = READ_SIZES) -> StringsReader:
        return StringsReader(self, source, segments_per_unit=sizes.segments_per_unit)


class SkippingStringsFormat(StringsFormat):
    """A format of strings with one scan (`_scan`) that can pass over the values nobody wants:
    `scan` is it without `wanted`, `scan_wanted` with it."""

    def scan(self, text: str, languages: PluralLanguages = None) -> Iterator[Item]:
        return self._scan(text, None, languages)

    def scan_wanted(
        self, text: str, wanted: Callable[[int, int], bool], languages: PluralLanguages = None
    ) -> Iterator[Item]:
        return self._scan(text, wanted, languages)

    def _scan(
        self, text: str, wanted: Callable[[int, int], bool] | None, languages: PluralLanguages
    ) -> Iterator[Item]:  # pragma: no cover
        """The file's entries and edits in source order; with `wanted`, only the values whose
        span it accepts need to be entries (see `scan` and `scan_wanted`)."""
        raise NotImplementedError


class StringsReader:
    """Units of about `segments_per_unit` segments, read as the scan goes (bounded memory).

    Targets that exist are merged (target.py): `merge_into` names them before the first unit
    (its `merge` capability, where its format merges: formats/base.TargetMerge);
    each unit then says which of its segments such a target still needs (`Unit.only`), and the
    scan may leave out the values none of the targets needs (`StringsFormat.scan_wanted`)."""

    def __init__(
        self,
        fmt: StringsFormat,
        source: InputSource,
        *,
        segments_per_unit: int = READ_SIZES.segments_per_unit,
    ) -> None:
        self._format = fmt
        self._source = source
        self._segments_per_unit = segments_per_unit
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

    @property
    def merge(self) -> StringsReader | None:
        """Merging into the targets that exist, where its format merges (None: it does not)."""
        return self if self._format.merges else None

    @property
    def encoded(self) -> StringsReader:
        """Its outputs may be in a legacy charset (a PO header's: `output_encoding`)."""
        return self

    def merge_into(
        self,
        targets: Mapping[str, KeptFile | None],
        *,
        keep_removed: bool = False,
        allow_mass_removal: bool = False,
    ) -> None:
        """The target file of each language the input is translated into: one that exists is
        merged into, None is written anew. A merge that would remove most of a target's values
        leaves it as it is unless `allow_mass_removal` (merge.mass_removal)."""
        self._targets = {
            lang: TargetFile(lang, kept, keep_removed, allow_mass_removal=allow_mass_removal)
            for lang, kept in targets.items()
            if kept is not None
        }
        self._anew = [lang for lang, kept in targets.items() if kept is None]
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
            if target.error is not None or target.plan is None or target.held is not None:
                out[lang] = target.error or target.held or f"{target.where}: cannot be merged into"
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
            if size >= self._segments_per_unit and not (isinstance(item, Entry) and item.targets is not None):
                yield self._unit(
                    index, chunk_of(text, pending, ids, item.start), "" if index else decoded.warning
                )
                index, pending, size = index + 1, [], 0
            pending.append(item)
            if isinstance(item, Entry):
                size += len(item.value.segments)
        yield self._unit(index, chunk_of(text, pending, ids, len(text)), "" if index else decoded.warning)

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
            if target.plan is not None and target.held is None
            for leaf in target.plan.changing
            if target.plan.needs(leaf.path)
        }
        new_forms = lacks_plural_forms(outline, self._targets)
        if not wanted and not new_forms:
            return iter(())  # nothing to translate, no plural form a target lacks: no scan
        return _scanned(self._format, text, Wanted.of(wanted, outline, new_forms), self._languages)

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

    def output_encoding(self, lang: str) -> str | None:
        """The legacy charset the output into `lang` is written in (a PO header's KOI8-R; a
        target merged into is written in its own); None: it writes any character."""
        decoded = self._decoded
        target = self._targets.get(lang)
        if target is not None and target.decoded is not None:
            decoded = target.decoded
        if decoded is None or decoded.errors != "strict" or self._format.writes_any_character:
            return None
        return decoded.encoding if is_legacy(decoded.encoding) else None

    def unwritable(self, lang: str) -> str | None:
        """A legacy charset the output is written in that lacks letters of `lang`."""
        codec = self.output_encoding(lang)
        hint = "convert the file to UTF-8 to translate it into this language"
        return None if codec is None else refusal(lang, codec, hint)

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

    def _records_of_new_file(
        self, lang: str, output: str, failed: Iterable[KeyPath], rendered: set[KeyPath]
    ) -> MergeResult | None:
        if self._outline is None:
            return None
        written = self._format.target_outline(output, lang)
        assert written is not None
        records = records_of_new_file(
            self._outline, written, self._new_forms.get(plural_code(lang), {}), failed, rendered
        )
        kept = sum(r.person for r in records.values())
        by_key = {path_key(leaf.path): leaf.source_text for leaf in self._outline.leaves()}
        sources = {key: by_key[key] for key, r in records.items() if r.person and key in by_key}
        counts = MergeCounts(added=len(records) - kept, kept=kept)
        return MergeResult(counts, records, {}, unchanged=False, sources=sources)


class Wanted:
    """The values a merge needs a scan to make entries of (by their span), and the containers
    (`skippable`: a container's inner start -> inner end) that hold none of them: a scan may
    pass over those unread. None are skippable where a target lacks a plural form (every
    plural of the source is read then, to make the forms it needs)."""

    def __init__(self, spans: Iterable[tuple[int, int]], skippable: Mapping[int, int] | None = None) -> None:
        self.spans = frozenset(spans)
        self.skippable: Mapping[int, int] = skippable or {}

    @classmethod
    def of(cls, spans: Iterable[tuple[int, int]], outline: Outline, new_forms: bool) -> Wanted:
        spans = frozenset(spans)
        if new_forms:
            return cls(spans)
        starts = sorted(start for start, _ in spans)
        skippable: dict[int, int] = {}
        for member in outline.members:
            if isinstance(member, Container) and member.path:
                inner, end = member.inner_start, member.inner_end
                at = bisect_left(starts, inner)
                if at == len(starts) or starts[at] >= end:  # no wanted value inside
                    skippable[inner] = end
        return cls(spans, skippable)

    def __call__(self, start: int, end: int) -> bool:
        return (start, end) in self.spans


def _scanned(
    fmt: StringsFormat,
    text: str,
    wanted: Wanted | None,
    languages: Iterable[str] | None = None,
) -> Iterator[Item]:
    codes = plural_codes(languages)
    try:
        items = fmt.scan(text, codes) if wanted is None else fmt.scan_wanted(text, wanted, codes)
        yield from items
    except FormatError:
        raise
    except (ValueError, RecursionError) as exc:
        raise FormatError(f"cannot parse as {fmt.name}: {exc}") from None
