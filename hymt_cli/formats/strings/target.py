"""A target file of strings that exists, merged rather than written anew (merge.py says how).

The reader (_document.py) is told, before its first unit, which target languages go into a file
that exists (`TargetFile`): it is handed that file's bytes and what the manifest recorded of it
(a `KeptFile`: outputs/ reads them, the format never opens a file), plans the merge, and marks
in each unit which segments that language still needs (added or stale keys: `Unit.only`). The
language's writer (`MergeWriter`) keeps the rendering of every item it is given and, at `close`,
writes the target with the plan carried out. The rest of the run does not change: the output is
written to a temp file and renamed over the target, under the lock of its folder's manifest,
held by the job from `close` to the manifest's record (`Job.guard`): a target that another run
changed since it was read is read again and merged again then, so that two runs lose no entry. A
target that reads as what it was is not rewritten at all.

A new file (no target there) is written from the source as before; its records are taken the
same way (`NewFileRecords`), so that the next run knows every value as hymt's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from ...outputs.entries import Archived, Record
from ...text.languages import written_for
from ...text.segments import is_translatable
from ..base import Decoded, FormatError, KeptFile
from .merge import MergeCounts, MergePlan, digest, mass_removal, path_key
from .outline import KeyPath, Leaf, Outline

if TYPE_CHECKING:
    from ._splice import Entry


class MergeFormat(Protocol):
    """What merging needs of a format (a `StringsFormat`)."""

    def decode(self, data: bytes) -> Decoded: ...

    def target_outline(self, text: str, lang: str | None) -> Outline | None: ...


@dataclass(slots=True)
class MergeResult:
    """What a merge did: its counts, the records and archive of the file written, and whether
    the target's bytes stay as they were (nothing to write)."""

    counts: MergeCounts
    records: dict[str, Record]
    archive: dict[str, Archived]
    unchanged: bool
    sources: dict[str, str] = field(default_factory=dict)  # a person's values' source texts
    # Why the target was left as it is, nothing merged (a mass removal: merge.mass_removal).
    held: str | None = None


def plural_categories(lang: str) -> frozenset[str] | None:
    """The plural categories `lang` uses, cardinal (`few`) and ordinal (`ordinal:few`)."""
    from .plurals import plural_rules

    try:
        rules = plural_rules(lang)
    except (KeyError, ValueError):
        return None
    return frozenset(rules.categories("cardinal")) | frozenset(
        f"ordinal:{c}" for c in rules.categories("ordinal")
    )


def lacks_plural_forms(source: Outline, langs: Iterable[str]) -> bool:
    """Does a plural of the source lack a category one of `langs` uses (its target gains that
    form, which only a scan of the source writes)? True where a language's rules are unknown."""
    groups: dict[tuple[KeyPath, str], set[str]] = {}
    for leaf in source.leaves():
        if leaf.category:
            name = str(leaf.path[-1])
            bare = leaf.category.removeprefix("ordinal:")
            stem = name[: -len(bare)] if name.endswith(bare) else name  # `items_one`: `items_`
            groups.setdefault((leaf.path[:-1], stem), set()).add(leaf.category)
    if not groups:
        return False
    needed = [plural_categories(lang) for lang in langs]
    if any(categories is None for categories in needed):
        return True
    for present in {frozenset(found) for found in groups.values()}:
        ordinal = any(c.startswith("ordinal:") for c in present)
        for categories in needed:
            assert categories is not None
            if any(c.startswith("ordinal:") == ordinal and c not in present for c in categories):
                return True
    return False


@dataclass(eq=False)
class TargetFile:
    """One target language's file that exists (`kept`: its bytes and records, read by outputs/),
    and its merge plan once the source is read; or (`kept` None) one that does not exist yet and
    starts as a copy of the source (`base`: a file of several languages,
    StringsFormat.starts_from_source)."""

    lang: str
    kept: KeptFile | None
    keep_removed: bool = False
    base: bytes | None = None
    allow_mass_removal: bool = False
    # Why the target is left as it is, untouched and unrecorded (merge.mass_removal), or None.
    held: str | None = None
    data: bytes = b""
    decoded: Decoded | None = None
    plan: MergePlan | None = None
    error: str | None = None
    spans: dict[tuple[int, int], Leaf] = field(default_factory=dict)  # source leaves by value span

    def prepare(self, fmt: MergeFormat, source: Outline) -> None:
        """Read the target and its records and plan the merge; a target that cannot be read or
        parsed keeps its error (the job fails on it, nothing is written over it)."""
        try:
            self.data = self.kept.read() if self.kept is not None else self.base or b""
        except OSError as exc:
            self.error = f"{self.where}: cannot read the existing translation: {exc.strerror or exc}"
            return
        self.spans = {(leaf.value_start, leaf.value_end): leaf for leaf in source.leaves()}
        self.plan = self._planned(fmt, source, self.data)
        if self.plan is not None and self.kept is not None and not self.allow_mass_removal:
            held = mass_removal(self.plan)
            if held is not None:
                self.held = f"left as it is: {held}; --allow-mass-removal removes them"

    def _planned(self, fmt: MergeFormat, source: Outline, data: bytes) -> MergePlan | None:
        try:
            decoded = fmt.decode(data)
            target = fmt.target_outline(decoded.text, self.lang)
        except (FormatError, ValueError, RecursionError) as exc:
            self.error = f"{self.where}: the existing translation cannot be merged into: {exc}"
            return None
        if target is None:
            self.error = f"{self.where}: the existing translation cannot be merged into"
            return None
        self.decoded = decoded
        records, archive, sources = self.kept.records() if self.kept is not None else ({}, {}, {})
        return MergePlan.of(
            source,
            list(source.leaves()),
            target,
            decoded.text,
            records,
            archive,
            categories=plural_categories(self.lang),
            keep_removed=self.keep_removed,
            sources=sources,
        )

    @property
    def where(self) -> str:
        """The target as messages name it."""
        return self.kept.where if self.kept is not None else f"the new {self.lang} translation"

    def needed(self, firsts: Iterable[tuple[Entry, int]]) -> frozenset[int]:
        """The segment ids of a unit's entries (each with its first id) this language still
        needs (none when the target failed)."""
        if self.plan is None or self.held is not None:
            return frozenset()
        out: set[int] = set()
        for entry, first in firsts:
            path = self.path_of(entry)
            if path is not None and self.plan.needs(path):
                segments = entry.value.segments
                if not any(is_translatable(s.text) and written_for(s.targets, self.lang) for s in segments):
                    self.plan.nothing_to_translate(path)
                    continue
                out.update(range(first, first + len(segments)))
        return frozenset(out)

    def path_of(self, entry: Entry) -> KeyPath | None:
        """The key of a source entry: its value's leaf, or a new plural form's own path (met
        for the first time: it joins the plan)."""
        if entry.targets is not None and entry.start == entry.end:
            if not written_for(entry.targets, self.lang) or not entry.path:
                return None
            assert self.plan is not None
            if entry.path not in self.plan.fates:
                self.plan.add(_new_form(entry))
            return entry.path
        leaf = self.spans.get((entry.start, entry.end))
        return leaf.path if leaf is not None else None

    def replanned(self, fmt: MergeFormat, source: Outline, data: bytes) -> MergePlan | None:
        """The plan against the target as it is now (another run changed it since it was read)."""
        assert self.plan is not None
        virtual = [leaf for leaf in self.plan.leaves if leaf.start == leaf.end]
        plan = self._planned(fmt, source, data)
        if plan is not None:
            for leaf in virtual:
                plan.add(leaf)
        return plan


def _new_form(entry: Entry) -> Leaf:
    """A plural form a target needs that the source lacks, as a source leaf at its point."""
    category = entry.path[-1] if entry.path else ""
    stem = str(category).rpartition("_")[2]
    return Leaf(
        entry.path, entry.start, entry.end, entry.start, entry.end, entry.value.text, None, category=stem
    )


def records_of_new_file(
    source: Outline,
    output: Outline,
    new_forms: Mapping[KeyPath, str],
    failed: Iterable[KeyPath],
    rendered: Iterable[KeyPath] = (),
) -> dict[str, Record]:
    """Every value of a file hymt wrote anew is hymt's: recorded with the source text it stands
    for (`new_forms`: the source text of the plural forms the target needed), stale where its
    translation failed; except the translations a bilingual source already held (a PO msgstr,
    an XLIFF target reviewed or final), which hymt did not write (`rendered`: the keys it did):
    a person's, kept. A value the source marks as never translated (Android's
    `translatable="false"`) or one describing another (an ARB `@key`'s description), copied as
    they are, are no translations: not recorded, as a merge records none (the next run then
    finds the records as it keeps them)."""
    failed, rendered = set(failed), set(rendered)
    described = source.companion_of if source.companions else None
    by_path = {
        leaf.path: leaf
        for leaf in source.leaves()
        if leaf.translatable and (described is None or described(leaf.path) is None)
    }
    out: dict[str, Record] = {}
    for leaf in output.leaves():
        text = new_forms.get(leaf.path)
        was = by_path.get(leaf.path)
        if text is None and was is not None:
            text = was.source_text
        if text is None:
            continue
        if was is not None and was.source is not None and was.text and leaf.path not in rendered:
            out[path_key(leaf.path)] = Record(digest(text), digest(leaf.text), person=True)
            continue
        out[path_key(leaf.path)] = Record("" if leaf.path in failed else digest(text), digest(leaf.text))
    return out
