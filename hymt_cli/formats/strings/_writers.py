"""The writers of a target file of strings: anew (`StringsWriter`) or merged into the target
that exists (`MergeWriter`), with what each wrote, key by key (`Renderings`, `MergeResult`:
their `recorded`, the writer's capability in formats/base.py)."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Mapping
from typing import BinaryIO

from ...text.languages import written_for
from ...text.segments import is_translatable
from ..base import Decoded, FormatError, Unit
from ._merge_writing import merged
from ._splice import Chunk, Edit, Entry, Splicer
from .merge import MergeCounts, MergePlan, path_key
from .outline import KeyPath, Outline
from .target import MergeFormat, MergeResult, TargetFile


class Renderings:
    """What one language's items of the source are written as, by source span (merge.Rendered),
    and the keys whose translation is incomplete. New plural forms at one point (Russian `few`
    and `many` after `other`) share their span: it holds them all, in order (what a member copied
    whole carries), and `points` each one by its path (what is inserted alone)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.by_span: dict[tuple[int, int], tuple[str | None, str]] = {}
        self.points: dict[KeyPath, str] = {}  # each new plural form's own text (merge_writing.merged)
        self.failed: set[KeyPath] = set()
        self.written: set[KeyPath] = set()  # the keys whose value this language's items wrote
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
            if not written_for(item.targets, self.lang):
                continue
            if only is not None and first not in only:
                continue
            self._entry(item, first, translated, path_of(item))

    def _entry(self, entry: Entry, first: int, translated: Mapping[int, str], path: KeyPath | None) -> None:
        value = entry.value
        local = {i: translated[first + i] for i in range(len(value.segments)) if first + i in translated}
        text = value.render(local, self.lang)
        self._texts[id(entry)] = text
        missing = any(
            written_for(s.targets, self.lang) and is_translatable(s.text) and i not in local
            for i, s in enumerate(value.segments)
        )
        if entry.fallback is not None and not value.complete(local, self.lang):
            text = self._texts.get(id(entry.fallback), entry.fallback.value.text)
        if missing and path is not None:
            self.failed.add(path)
        if path is not None:
            self.written.add(path)
        raw = entry.write(text)
        if entry.start == entry.end:  # new plural forms at one point follow each other there
            before = self.by_span.get((entry.start, entry.end))
            self.by_span[(entry.start, entry.end)] = (None, (before[1] if before else "") + raw)
            if path is not None:
                self.points[path] = raw
            return
        self.by_span[(entry.start, entry.end)] = (text, raw)


class StringsWriter:
    """Writes a target anew: the source, its values translated, as the chunks come. For a format
    that merges, it keeps what it wrote, to record every value as hymt's (`recorded`; None where
    its format does not merge)."""

    def __init__(
        self,
        target_language: str,
        out: BinaryIO,
        decoded: Decoded,
        records: Callable[[str, str, Iterable[KeyPath], set[KeyPath]], MergeResult | None] | None = None,
        path_of: Callable[[Entry], KeyPath | None] | None = None,
    ) -> None:
        self._splicer = Splicer(target_language)
        self._lang = target_language
        self._out = out
        self._encoding = decoded.encoding
        self._encoder = codecs.getincrementalencoder(decoded.encoding)(decoded.errors)
        self._records = records
        self._path_of = path_of
        self._written: list[str] = []
        self._renderings = Renderings(target_language) if records is not None else None
        self.recorded: MergeResult | None = None

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
            renderings = self._renderings
            self.recorded = self._records(
                self._lang, "".join(self._written), renderings.failed, renderings.written
            )


class MergeWriter:
    """Writes a target that exists: the merge of target.py, at `close` (module docstring)."""

    def __init__(
        self, fmt: MergeFormat, source_text: str, source: Outline, target: TargetFile, out: BinaryIO
    ) -> None:
        self._format = fmt
        self._source_text = source_text
        self._source = source
        self._target = target
        self._out = out
        self._renderings = Renderings(target.lang)
        self.recorded: MergeResult | None = None

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
        if target.held is not None:  # left as it is: nothing written, nothing recorded
            self.recorded = MergeResult(MergeCounts(), {}, {}, unchanged=True, held=target.held)
            return
        plan = target.plan
        assert plan is not None and target.decoded is not None
        try:
            now = target.kept.read_again() if target.kept is not None else target.data
        except OSError as exc:
            raise FormatError(
                f"{target.where}: cannot read the existing translation: {exc.strerror or exc}"
            ) from None
        if now != target.data:  # another run wrote it since: merged into as it is now
            plan = target.replanned(self._format, self._source, now)
            if plan is None:
                raise FormatError(target.error or f"{target.where}: cannot be merged into")
        decoded = target.decoded
        assert decoded is not None
        renderings = self._renderings
        failed = set(renderings.failed)
        if plan is not target.plan:  # keys stale only now: their values were not read
            before = target.plan
            assert before is not None
            failed |= {path for path in plan.fates if plan.needs(path) and not before.needs(path)}
        text = merged(plan, self._source_text, renderings.by_span, failed, renderings.points)
        # the target as it was (nothing to add, update or remove): its outline is the plan's
        written = plan.target if text == plan.target_text else self._checked(plan, text)
        data = _encoded(
            codecs.getincrementalencoder(decoded.encoding)(decoded.errors), decoded.encoding, text, final=True
        )
        unchanged = data == now and target.kept is not None
        if not unchanged:
            self._out.write(data)
        records = plan.records_after(written, failed)
        self.recorded = MergeResult(
            plan.settle(), records, plan.archive_after(), unchanged, plan.sources_after(records)
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
