"""Merging into a target file that exists: the target is the base, entry by entry.

What each key of the source becomes in the target (its fate), decided from the target's value
and from what hymt recorded at that key (`Record`: digests of the source text and of the value,
and whether hymt wrote the value or found it there; outputs/manifest.py keeps them):

| the target's value                                  | fate      | sent to the model |
| --------------------------------------------------- | --------- | ----------------- |
| missing (or empty where the source has text)        | added     | yes               |
| hymt's, unchanged since, its source unchanged       | unchanged | no                |
| hymt's, unchanged since, its source changed         | updated   | yes               |
| anything else: a person's, or hymt's edited since   | kept      | no: kept byte for byte |
| a key the source no longer has                      | removed   | no                |

A removed key leaves the catalog, as `msgmerge` makes it obsolete and i18next-parser moves it
to its `_old` file: its value is kept in the manifest (`Archived`) and comes back if the key
does with the same source text; `keep_removed` leaves such keys where they are. A format whose
files keep what leaves them (PO's obsolete `#~` entries: `Outline.retired`, `Retiring`) keeps
it there too, and a key that comes back takes its value from there first. A person's
value whose source text changed since hymt first saw it is kept and reported (`outdated`).
An empty value that hymt wrote itself for the same source text is hymt's, not a missing one
(PO leaves a translation identical to its msgid empty). A bilingual format rewrites a whole
member from the source's (`Leaf.rewrite`: the target's `<source>` or msgid_plural follows).

A member is the same member in source and target by its path (outline.py); _merge_writing.py
writes the target with the plan carried out.

A translation that failed is written as a new file writes it (the source's words where the
model gave nothing usable) and recorded stale, so that the next run sends it again; an update
that failed keeps the old value and its record.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ...outputs.entries import Archived, Record
from ...reporting.report import OutdatedValue
from ._outdated import outdated_value
from .outline import Container, KeyPath, Leaf, Member, Outline

Fate = Literal["added", "unchanged", "updated", "kept", "restored", "skipped"]
COUNTED = ("added", "kept", "updated", "removed", "unchanged")
_CHANGING = frozenset({"added", "updated", "restored"})
# A source item's rendering in one language, by its source span: the new value text (None for
# what is no value: a new plural form's whole member, an edit) and the raw text written there.
Rendered = Mapping[tuple[int, int], tuple[str | None, str]]


def digest(text: str) -> str:
    """A value's fingerprint in the manifest (64 bits of SHA-256: it tells values of one key apart)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def path_key(path: KeyPath) -> str:
    """A path as the manifest names it: a JSON Pointer (RFC 6901: `/settings/save`)."""
    if path and all(isinstance(p, str) for p in path):
        plain = "/" + "/".join(path)  # type: ignore[arg-type]
        if "~" not in plain and plain.count("/") == len(path):
            return plain
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


@dataclass(slots=True)
class MergeCounts:
    added: int = 0
    kept: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    outdated: int = 0  # kept values of a person whose source changed since (among `kept`)
    details: list[OutdatedValue] = field(default_factory=list)  # those values, named

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in (*COUNTED, "outdated")}

    @property
    def changes(self) -> int:
        """Keys a run changes: missing, stale or removed."""
        return self.added + self.updated + self.removed


def _blank(text: str) -> bool:
    return not text.strip()


@dataclass(slots=True)
class MergePlan:
    """The fate of every key of a source (its `leaves` for one target language, in source
    order) in one target file."""

    source: Outline
    leaves: list[Leaf]  # the source's leaves for this language (new plural forms included)
    target: Outline
    target_text: str
    records: Mapping[str, Record]
    archive: Mapping[str, Archived]
    keep_removed: bool = False
    fates: dict[KeyPath, Fate] = field(default_factory=dict)
    removed: list[Member] = field(default_factory=list)  # top-most removed members, target order
    counts: MergeCounts = field(default_factory=MergeCounts)
    # the source text each person's value was first seen with, where the manifest keeps it
    sources: Mapping[str, str] = field(default_factory=dict)
    _categories: frozenset[str] | None = None
    _forms_containers: set[KeyPath] | None = None  # the source's containers of plural forms
    target_members: dict[KeyPath, Member] = field(default_factory=dict)  # the target's, by path
    _settled: bool = False
    _keys: dict[KeyPath, str] = field(default_factory=dict)  # each source key's path_key, made once
    # The leaves whose fate, when planned, changes the target (added, updated, restored): what
    # carrying out the plan goes through, not every key of the catalog. Each one's fate is
    # asked again (`nothing_to_translate` may have made it unchanged since).
    changing: list[Leaf] = field(default_factory=list)

    @classmethod
    def of(
        cls,
        source: Outline,
        leaves: Sequence[Leaf],
        target: Outline,
        target_text: str,
        records: Mapping[str, Record],
        archive: Mapping[str, Archived] | None = None,
        *,
        categories: frozenset[str] | None = None,
        keep_removed: bool = False,
        sources: Mapping[str, str] | None = None,
    ) -> MergePlan:
        """`categories`: the plural categories the target language uses (None: any): a missing
        plural form of another category is no missing key (`items_one` in Japanese); `sources`:
        the source text each person's value was first seen with (manifest.kept_records)."""
        plan = cls(source, [], target, target_text, records, archive or {}, keep_removed)
        plan._categories = categories
        plan.sources = sources or {}
        plan.target_members = {m.path: m for m in target.members}
        plan._add_all(leaves)
        return plan

    def needs(self, path: KeyPath) -> bool:
        """Whether the value at `path` is to be translated (added or updated)."""
        return self.fates.get(path) in ("added", "updated")

    def add(self, leaf: Leaf) -> Fate:
        """One more key of the source (a plural form the target needs, met while reading)."""
        return self._add_all((leaf,))[0]

    def _add_all(self, leaves: Sequence[Leaf]) -> list[Fate]:
        """Keys of the source, in order: their fates, counted once (a catalog has 100,000)."""
        companions = self.source.companion_of if self.source.companions else None
        fate_of, target, categories = self._fate, self.target_members, self._categories
        fates: list[Fate] = [
            "skipped"
            if not leaf.translatable or (companions is not None and companions(leaf.path) is not None)
            else fate_of(leaf, target, categories)
            for leaf in leaves
        ]
        self.leaves.extend(leaves)
        self.fates.update(zip([leaf.path for leaf in leaves], fates))
        self.changing.extend(leaf for leaf, fate in zip(leaves, fates) if fate in _CHANGING)
        tally, counts = Counter(fates), self.counts
        counts.added += tally["added"]
        counts.kept += tally["kept"] + tally["restored"]
        counts.updated += tally["updated"]
        counts.unchanged += tally["unchanged"]
        counts.outdated = len(counts.details)
        self._settled = False
        return fates

    def nothing_to_translate(self, path: KeyPath) -> None:
        """A key the target holds with no value whose source the scan finds nothing to
        translate in (a PO msgid of placeholders and markup: gettext shows it as it is): not a
        missing one."""
        if self.fates.get(path) == "added" and path in self.target_members:
            self.fates[path] = "unchanged"
            self.counts.added -= 1
            self.counts.unchanged += 1

    def settle(self) -> MergeCounts:
        """The counts, once every key of the source is known (removals found)."""
        if not self._settled:
            self.removed = [] if self.keep_removed else self._removed_members()
            gone = {m.path for m in self.removed}
            described = self.target.companion_of if self.target.companions else None
            self.counts.removed = (
                sum(
                    1
                    for leaf in self.target.leaves()
                    if _under(leaf.path, gone) and (described is None or described(leaf.path) is None)
                )
                if gone
                else 0
            )
            self._settled = True
        return self.counts

    @property
    def changes_nothing(self) -> bool:
        return not self.settle().changes and "restored" not in self.fates.values()

    def _fate(self, leaf: Leaf, target: Mapping[KeyPath, Member], categories: frozenset[str] | None) -> Fate:
        there = target.get(leaf.path)
        key = self._keys[leaf.path] = path_key(leaf.path)
        if there is None:
            if leaf.category and not self._form_needed(leaf, target, categories):
                return "skipped"
            if len(leaf.path) > 1 and any(
                isinstance(target.get(leaf.path[:i]), Leaf) for i in range(1, len(leaf.path))
            ):
                return "kept"  # the target has a value where the source has keys: the target's
            return "restored" if self.restoring(leaf) is not None else "added"
        if not isinstance(there, Leaf):
            return "kept"
        record = self.records.get(key)
        if (
            not there.text  # one of white space is a person's (Rails' Russian delimiter " ")
            and not _blank(leaf.source_text)
            and there.write is not None
            and not _left_empty(record, there.text)
        ):
            return "added"  # an empty value is a missing translation (i18next-parser writes "")
        if record is None or record.output != digest(there.text):
            return "kept"
        source = digest(leaf.text if leaf.source is None else leaf.source)  # (leaf.source_text)
        if record.person:
            if record.source and record.source != source:
                self.counts.details.append(self._outdated(key, leaf, there))
            return "kept"
        return "unchanged" if record.source == source else "updated"

    def _outdated(self, key: str, leaf: Leaf, there: Leaf) -> OutdatedValue:
        """A person's value whose source changed, named with the source it was written for:
        the one the manifest kept, else a bilingual target's own (its `<source>`)."""
        old = self.sources.get(key)
        if old is None and there.source is not None and there.source != leaf.source_text:
            old = there.source
        return outdated_value(key, old, leaf.source_text, there.text)

    def sources_after(self, records: Mapping[str, Record]) -> dict[str, str]:
        """The source text each person's value of `records` (records_after's) stands for: as
        first seen while its record is kept, else the source text now."""
        now = {self._keys.get(leaf.path) or path_key(leaf.path): leaf.source_text for leaf in self.leaves}
        out: dict[str, str] = {}
        for key, record in records.items():
            if not record.person:
                continue
            old = self.records.get(key)
            text = self.sources.get(key) if old is not None and old == record else None
            if text is None and key in now and digest(now[key]) == record.source:
                text = now[key]
            if text is not None:
                out[key] = text
        return out

    def _form_needed(
        self, leaf: Leaf, target: Mapping[KeyPath, Member], categories: frozenset[str] | None
    ) -> bool:
        """Whether a plural form of the source that the target lacks is a missing key there: a
        category of the target's language, or one the runtime takes in every language
        (`Outline.optional_forms`: Rails' `zero`), or a form of a plural the target lacks
        altogether (it goes in with the member copied whole, translated as a new file has it:
        never copied in the source's words)."""
        if categories is None or leaf.category in categories or leaf.category in self.source.optional_forms:
            return True
        if self._forms_containers is None:
            self._forms_containers = {
                m.path for m in self.source.members if isinstance(m, Container) and m.forms
            }
        # (an Android <plurals> or a stringsdict rule copied whole leaves out the forms the
        # language lacks, as a new file does: no key of the target then)
        return leaf.path[:-1] not in target and leaf.path[:-1] not in self._forms_containers

    def _plural_groups(self, outline: Outline) -> set[tuple[KeyPath, str]]:
        """The plurals of a file, each as (the path it is under, its forms' stem)."""
        return {group for leaf in outline.leaves() if (group := plural_group(leaf)) is not None}

    def _persons_form(self, member: Member, groups: set[tuple[KeyPath, str]]) -> bool:
        """A plural form of the target, of a plural the source still has, in a category the
        source lacks, that hymt did not write (a person's `zero`, a person's `one` where
        English has only `other`): it stays, whatever the source says."""
        if not isinstance(member, Leaf) or plural_group(member) not in groups:
            return False
        record = self.records.get(path_key(member.path))
        return record is None or record.person or record.output != digest(member.text)

    def _removed_members(self) -> list[Member]:
        """The target's top-most members that the source no longer has, in target order."""
        target = self.target_members
        kept = {m.path for m in self.source.members}
        kept.update(leaf.path for leaf in self.leaves)
        if kept.issuperset(target):  # (a catalog in sync: every member of the target is the source's)
            return []
        wanted: set[KeyPath] = set()
        for leaf in self.leaves:
            wanted.update(leaf.path[:i] for i in range(len(leaf.path) + 1))
        wanted.update(m.path for m in self.source.members)
        companions = self.target.companions
        wanted.update(path for path, key in companions.items() if key in wanted)
        values = {leaf.path for leaf in self.leaves}
        removed: list[Member] = []
        last: KeyPath | None = None
        groups = self._plural_groups(self.source)
        for member in self.target.members:
            path = member.path
            if path in wanted or (last is not None and path[: len(last)] == last):
                continue
            if any(isinstance(target.get(path[:i]), Leaf) for i in range(1, len(path))):
                continue
            if any(path[:i] in values for i in range(1, len(path))):
                continue  # inside the target's keys where the source has a value: kept with them
            parent = target.get(path[:-1]) if path else None
            if isinstance(parent, Container) and parent.forms and parent.path in wanted:
                continue  # a form only the target has, of a plural the source still has
            if groups and self._persons_form(member, groups):
                continue
            last = path
            removed.append(member)
        return removed

    def restoring(self, leaf: Leaf) -> Archived | None:
        """The value a key that is back comes back with: the target's own retired member for it
        (msgmerge revives an obsolete entry whose msgid is back), else the manifest's archive,
        where either stood for the same source text."""
        source = digest(leaf.source_text)
        retired = self.target.retired.get(leaf.path)
        if retired is not None and not _blank(retired.text) and digest(retired.source_text) == source:
            archived = self.archive.get(path_key(leaf.path))
            mine = archived is not None and not archived.person and archived.text == retired.text
            return Archived(source, retired.text, person=not mine)
        archived = self.archive.get(path_key(leaf.path))
        if archived is not None and archived.source and archived.source == source:
            return archived
        return None

    # -- what is recorded ----------------------------------------------------------------------
    def records_after(self, output: Outline, failed: Iterable[KeyPath] = ()) -> dict[str, Record]:
        """The records of the merged output, key by key: new ones for what hymt added or updated
        (a failed translation recorded stale), the old ones for what it left unchanged, and a
        person's values with the source they stand for now (first seen: to tell when it changes)."""
        failed = set(failed)
        source = {leaf.path: leaf for leaf in self.leaves}
        out: dict[str, Record] = {}
        before = self.target_members
        for leaf in output.leaves():
            fate = self.fates.get(leaf.path)
            if fate == "skipped" and leaf.path in source and leaf.path not in before:
                # copied from the source with a member it belongs to, never a person's value
                out[path_key(leaf.path)] = Record(digest(source[leaf.path].source_text), digest(leaf.text))
                continue
            if fate is None or fate == "skipped":
                continue
            key = self._keys.get(leaf.path) or path_key(leaf.path)
            old = self.records.get(key)
            if fate == "unchanged" or (fate == "updated" and leaf.path in failed):
                if old is not None:
                    out[key] = old
            elif fate in ("added", "updated"):
                src = "" if leaf.path in failed else digest(source[leaf.path].source_text)
                out[key] = Record(src, digest(leaf.text))
            elif fate == "restored":
                back = self.restoring(source[leaf.path])
                assert back is not None
                out[key] = Record(back.source, digest(leaf.text), back.person)
            elif fate == "kept" and leaf.path in source:
                value = digest(leaf.text)
                if old is not None and old.person and old.output == value:
                    out[key] = old  # as first seen: a source changed since stays outdated
                else:
                    out[key] = Record(digest(source[leaf.path].source_text), value, person=True)
        return out

    def archive_after(self) -> dict[str, Archived]:
        """The archive once the removed members are gone: theirs added, restored ones taken out."""
        self.settle()
        restored = {path_key(p) for p, fate in self.fates.items() if fate == "restored"}
        out = {k: a for k, a in self.archive.items() if k not in restored}
        gone = {m.path for m in self.removed}
        if not gone:
            return out
        for leaf in self.target.leaves():
            if not _under(leaf.path, gone):
                continue
            key = path_key(leaf.path)
            record = self.records.get(key)
            known = record is not None and record.output == digest(leaf.text)
            out[key] = Archived(
                record.source if known and record is not None else "",
                leaf.text,
                person=not known or record is None or record.person,
            )
        return out


def plural_group(leaf: Leaf) -> tuple[KeyPath, str] | None:
    """The plural a form belongs to: the path it is under and its stem (`items_` of i18next's
    `items_few`; "" for a mapping of forms: Rails' `few:`); None for a key that is no form."""
    if not leaf.category or not leaf.path:
        return None
    name = str(leaf.path[-1])
    bare = leaf.category.removeprefix("ordinal:")
    return leaf.path[:-1], name[: -len(bare)] if name.endswith(bare) else name


# A merge that would remove more than this share of the values people wrote in a target (and
# at least MASS_REMOVAL_LEAST of them) removes nothing: a source that lost most of its keys at
# once is far likelier the wrong file (a variant of the source language read as the source, a
# half-written file) than a catalog the team emptied on purpose.
MASS_REMOVAL_SHARE = 0.5
MASS_REMOVAL_LEAST = 3


def mass_removal(plan: MergePlan) -> str | None:
    """Why carrying out `plan` would be a mass removal (the catalog is then left as it is), or
    None: a source with no keys at all removing any value, or one removing most of the values
    people wrote there (their own, or hymt's edited since)."""
    plan.settle()
    if not plan.removed:
        return None
    gone = {member.path for member in plan.removed}
    described = plan.target.companion_of if plan.target.companions else None
    values = [leaf for leaf in plan.target.leaves() if described is None or described(leaf.path) is None]
    removed = [leaf for leaf in values if _under(leaf.path, gone)]
    if not plan.leaves:
        return f"its source has no keys: merging would remove all {len(removed)} value(s) there"
    people = [leaf for leaf in values if _a_persons(plan.records.get(path_key(leaf.path)), leaf.text)]
    theirs = [leaf for leaf in removed if _a_persons(plan.records.get(path_key(leaf.path)), leaf.text)]
    if len(theirs) >= MASS_REMOVAL_LEAST and len(theirs) > MASS_REMOVAL_SHARE * len(people):
        return (
            f"merging would remove {len(theirs)} of the {len(people)} values people wrote there "
            "(keys its source no longer has)"
        )
    return None


def _a_persons(record: Record | None, text: str) -> bool:
    """A value a person wrote: hymt did not, or a person edited it since."""
    return record is None or record.person or record.output != digest(text)


def _left_empty(record: Record | None, text: str) -> bool:
    """An empty value that hymt wrote for a translation the format leaves out (a PO msgstr
    identical to its msgid stays empty: gettext shows the msgid), not a missing one."""
    return record is not None and not record.person and bool(record.source) and record.output == digest(text)


def _under(path: KeyPath, roots: set[KeyPath]) -> bool:
    return any(path[:i] in roots for i in range(len(path) + 1))
