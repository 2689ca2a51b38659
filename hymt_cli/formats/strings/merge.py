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

A member is the same member in source and target by its path (outline.py). Everything of the
target that no fate touches keeps its bytes: new members are copied from the source (their
values translated) right after the member that precedes them in the source, indented as the
target indents; a value is rewritten with the target's own writer (its quoting); removed
members go with their separators (the format's `Syntax`).

A translation that failed is written as a new file writes it (the source's words where the
model gave nothing usable) and recorded stale, so that the next run sends it again; an update
that failed keeps the old value and its record.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ...outputs.entries import Archived, Record
from .outline import Container, Copied, Leaf, Member, Outline, Path, Retiring, Splice, indentation

Fate = Literal["added", "unchanged", "updated", "kept", "restored", "skipped"]
COUNTED = ("added", "kept", "updated", "removed", "unchanged")
# A source item's rendering in one language, by its source span: the new value text (None for
# what is no value: a new plural form's whole member, an edit) and the raw text written there.
Rendered = Mapping[tuple[int, int], tuple[str | None, str]]


def digest(text: str) -> str:
    """A value's fingerprint in the manifest (64 bits of SHA-256: it tells values of one key apart)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def path_key(path: Path) -> str:
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
    fates: dict[Path, Fate] = field(default_factory=dict)
    removed: list[Member] = field(default_factory=list)  # top-most removed members, target order
    counts: MergeCounts = field(default_factory=MergeCounts)
    outdated: list[Path] = field(default_factory=list)
    _categories: frozenset[str] | None = None
    _target: dict[Path, Member] = field(default_factory=dict)
    _settled: bool = False
    _keys: dict[Path, str] = field(default_factory=dict)  # each source key's path_key, made once

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
    ) -> MergePlan:
        """`categories`: the plural categories the target language uses (None: any): a missing
        plural form of another category is no missing key (`items_one` in Japanese)."""
        plan = cls(source, [], target, target_text, records, archive or {}, keep_removed)
        plan._categories = categories
        plan._target = {m.path: m for m in target.members}
        for leaf in leaves:
            plan.add(leaf)
        return plan

    def needs(self, path: Path) -> bool:
        """Whether the value at `path` is to be translated (added or updated)."""
        return self.fates.get(path) in ("added", "updated")

    def add(self, leaf: Leaf) -> Fate:
        """One more key of the source (a plural form the target needs, met while reading)."""
        described = self.source.companions and self.source.companion_of(leaf.path) is not None
        fate: Fate = (
            "skipped"
            if described or not leaf.translatable
            else self._fate(leaf, self._target, self._categories)
        )
        self.leaves.append(leaf)
        self.fates[leaf.path] = fate
        counts = self.counts
        if fate in ("added", "kept", "updated", "unchanged"):
            setattr(counts, fate, getattr(counts, fate) + 1)
        elif fate == "restored":
            counts.kept += 1
        counts.outdated = len(self.outdated)
        self._settled = False
        return fate

    def nothing_to_translate(self, path: Path) -> None:
        """A key the target holds with no value whose source the scan finds nothing to
        translate in (a PO msgid of placeholders and markup: gettext shows it as it is): not a
        missing one."""
        if self.fates.get(path) == "added" and path in self._target:
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

    def _fate(self, leaf: Leaf, target: Mapping[Path, Member], categories: frozenset[str] | None) -> Fate:
        there = target.get(leaf.path)
        key = self._keys[leaf.path] = path_key(leaf.path)
        if there is None:
            if leaf.category and categories is not None and leaf.category not in categories:
                return "skipped"
            if len(leaf.path) > 1 and any(
                isinstance(target.get(leaf.path[:i]), Leaf) for i in range(1, len(leaf.path))
            ):
                return "kept"  # the target has a value where the source has keys: the target's
            return "restored" if self._restoring(leaf) is not None else "added"
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
        if record.person:
            if record.source and record.source != digest(leaf.source_text):
                self.outdated.append(leaf.path)
            return "kept"
        return "unchanged" if record.source == digest(leaf.source_text) else "updated"

    def _removed_members(self) -> list[Member]:
        """The target's top-most members that the source no longer has, in target order."""
        target = self._target
        wanted: set[Path] = set()
        for leaf in self.leaves:
            wanted.update(leaf.path[:i] for i in range(len(leaf.path) + 1))
        wanted.update(m.path for m in self.source.members)
        companions = self.target.companions
        wanted.update(path for path, key in companions.items() if key in wanted)
        values = {leaf.path for leaf in self.leaves}
        removed: list[Member] = []
        last: Path | None = None
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
            last = path
            removed.append(member)
        return removed

    # -- writing -----------------------------------------------------------------------------
    def merged(
        self,
        source_text: str,
        rendered: Rendered,
        failed: Iterable[Path] = (),
        points: Mapping[Path, str] | None = None,
    ) -> str:
        """The target's text with the plan carried out. `rendered`: the raw text each source
        item is written as in this language, by its source span (a value translated, the new
        plural forms inserted at a point, an edit such as ARB's `@@locale`): what a new file
        would hold there. `failed`: paths whose translation is incomplete. `points`: each new
        plural form's own text by its path (several forms share a point: `few`, `many`)."""
        self.settle()
        rendered = {**rendered, **self._restored()}
        target = self._target
        splices: list[Splice] = []
        failed = set(failed)
        items = sorted(rendered.items())
        starts = [span[0] for span, _ in items]
        for leaf in self.leaves:
            fate, there = self.fates.get(leaf.path), target.get(leaf.path)
            if not isinstance(there, Leaf):
                continue
            if (fate == "updated" and leaf.path not in failed) or fate == "added":
                if there.rewrite is not None:
                    copied = _copied(source_text, leaf, rendered, items, starts, points or {})
                    splices.append(Splice(there.start, there.end, there.rewrite(copied.text)))
                else:
                    splices.append(_rewritten(there, leaf, source_text, rendered))
        splices.extend(self._insertions(source_text, rendered, target, points or {}))
        splices.extend(self._removals(target))
        syntax = self.target.syntax
        if isinstance(syntax, Retiring):
            retired = self.target.retired
            revived = [
                retired[leaf.path]
                for leaf in self.leaves
                if leaf.path in retired
                and leaf.path not in target
                and self.fates.get(leaf.path) in ("added", "restored")
            ]
            if self.removed or revived:
                splices.extend(syntax.retire(self.target_text, self.removed, revived))
        return _applied(self.target_text, splices)

    def _restoring(self, leaf: Leaf) -> Archived | None:
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

    def _restored(self) -> dict[tuple[int, int], tuple[str | None, str]]:
        out: dict[tuple[int, int], tuple[str | None, str]] = {}
        for leaf in self.leaves:
            if self.fates.get(leaf.path) == "restored" and leaf.write is not None:
                back = self._restoring(leaf)
                assert back is not None
                out[(leaf.value_start, leaf.value_end)] = (back.text, leaf.write(back.text))
        return out

    def _insertions(
        self, source_text: str, rendered: Rendered, target: Mapping[Path, Member], points: Mapping[Path, str]
    ) -> list[Splice]:
        syntax = self.target.syntax
        by_path: dict[Path, Member] = {m.path: m for m in self.source.members}
        for leaf in self.leaves:
            by_path.setdefault(leaf.path, leaf)
        roots: dict[Path, Member] = {}
        for leaf in self.leaves:
            if self.fates.get(leaf.path) not in ("added", "restored") or leaf.path in target:
                continue
            cut = next(i for i in range(1, len(leaf.path) + 1) if leaf.path[:i] not in target)
            roots.setdefault(leaf.path[:cut], by_path[leaf.path[:cut]])
        order: dict[Path, list[Path]] = {}  # parent -> its children in the source, source order
        for member in sorted(by_path.values(), key=lambda m: (m.start, len(m.path))):
            if member.path:
                order.setdefault(member.path[:-1], []).append(member.path)
        after: dict[Path, list[Copied]] = {}
        before: dict[Path, list[Copied]] = {}
        into: dict[Path, list[Copied]] = {}
        items = sorted(rendered.items())
        starts = [span[0] for span, _ in items]
        described = {key: path for path, key in self.source.companions.items()}
        keeps_companions = bool(self.target.companions)
        for root, member in sorted(roots.items(), key=lambda item: (item[1].start, len(item[0]))):
            copied = [_copied(source_text, member, rendered, items, starts, points)]
            companion = described.get(root)
            if (
                keeps_companions
                and companion is not None
                and companion not in target
                and companion in by_path
            ):
                copied.append(_copied(source_text, by_path[companion], rendered, items, starts, points))
            siblings = order.get(root[:-1], [root])
            at = siblings.index(root)
            previous = next((p for p in reversed(siblings[:at]) if p in target), None)
            following = next((p for p in siblings[at + 1 :] if p in target), None)
            if previous is not None:
                after.setdefault(previous, []).extend(copied)
            elif following is not None:
                before.setdefault(following, []).extend(copied)
            else:
                into.setdefault(root[:-1], []).extend(copied)
        text = self.target_text
        splices = [syntax.insert_after(text, target[p], m) for p, m in after.items()]
        splices += [syntax.insert_before(text, target[p], m) for p, m in before.items()]
        for parent, members in into.items():
            container = target.get(parent)
            if isinstance(container, Container):
                splices.append(syntax.insert_into(text, container, members))
        return splices

    def _removals(self, target: Mapping[Path, Member]) -> list[Splice]:
        if not self.removed:
            return []
        gone = {m.path for m in self.removed}
        children: dict[Path, list[Member]] = {}
        for node in self.target.members:
            if node.path and node.path[:-1] in target:
                children.setdefault(node.path[:-1], []).append(node)
        splices: list[Splice] = []
        for parent, members in children.items():
            run: list[Member] = []
            kept_before: Member | None = None
            ends: list[Member | None] = [*members, None]
            for member in ends:
                if member is not None and member.path in gone:
                    run.append(member)
                    continue
                if run:
                    container = target[parent]
                    assert isinstance(container, Container)
                    splices.append(
                        self.target.syntax.remove(self.target_text, run, kept_before, member, container)
                    )
                    run = []
                kept_before = member
        return splices

    # -- what is recorded ----------------------------------------------------------------------
    def records_after(self, output: Outline, failed: Iterable[Path] = ()) -> dict[str, Record]:
        """The records of the merged output, key by key: new ones for what hymt added or updated
        (a failed translation recorded stale), the old ones for what it left unchanged, and a
        person's values with the source they stand for now (first seen: to tell when it changes)."""
        failed = set(failed)
        source = {leaf.path: leaf for leaf in self.leaves}
        out: dict[str, Record] = {}
        for leaf in output.leaves():
            fate = self.fates.get(leaf.path)
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
                back = self._restoring(source[leaf.path])
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


def _left_empty(record: Record | None, text: str) -> bool:
    """An empty value that hymt wrote for a translation the format leaves out (a PO msgstr
    identical to its msgid stays empty: gettext shows the msgid), not a missing one."""
    return record is not None and not record.person and bool(record.source) and record.output == digest(text)


def _under(path: Path, roots: set[Path]) -> bool:
    return any(path[:i] in roots for i in range(len(path) + 1))


def _rewritten(there: Leaf, leaf: Leaf, source_text: str, rendered: Rendered) -> Splice:
    """The target's value replaced by the source's, translated: written by the target's own
    writer where it has one (its quoting), else as the source writes it."""
    new = rendered.get((leaf.value_start, leaf.value_end))
    if new is None:  # nothing to translate in it (a number, a URL): the source's value
        return Splice(there.value_start, there.value_end, source_text[leaf.value_start : leaf.value_end])
    value, raw = new
    if value is not None and there.write is not None:
        raw = there.write(value)
    return Splice(there.value_start, there.value_end, raw)


def _copied(
    source_text: str,
    member: Member,
    rendered: Rendered,
    items: Sequence[tuple[tuple[int, int], tuple[str | None, str]]],
    starts: Sequence[int],
    points: Mapping[Path, str],
) -> Copied:
    """A source member as it goes into the target: its text with the items inside it rendered
    (`items`: `rendered` sorted by span, `starts` their starts)."""
    if isinstance(member, Leaf) and member.start == member.end:  # a new plural form: its own text
        own = points.get(member.path)
        if own is None:
            own = rendered.get((member.value_start, member.value_end), (None, ""))[1]
        return Copied(own, "", point=True)
    start, end = member.start, member.end
    pieces: list[str] = []
    pos = start
    for (s, e), (_, raw) in items[bisect_left(starts, start) : bisect_right(starts, end)]:
        # A point at the member's start is its previous sibling's; one at its end is its own
        # where the member holds it (a plural mapping that YAML ends with its new forms).
        if s < pos or e > end or (s == e and (s == start or (s == end and isinstance(member, Leaf)))):
            continue
        pieces.append(source_text[pos:s])
        pieces.append(raw)
        pos = e
    pieces.append(source_text[pos:end])
    return Copied("".join(pieces), indentation(source_text, start))


def _applied(text: str, splices: list[Splice]) -> str:
    """`text` with non-overlapping splices (an insertion at a point goes before a removal there)."""
    out: list[str] = []
    pos = 0
    for splice in sorted(splices, key=lambda s: (s.start, s.end)):
        if splice.start < pos:
            raise ValueError(f"overlapping changes at offset {splice.start}")
        out.append(text[pos : splice.start])
        out.append(splice.text)
        pos = splice.end
    out.append(text[pos:])
    return "".join(out)
