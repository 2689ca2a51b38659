"""One source's located segments, spliced back: nested segments (an `alt` inside an `<img>`
placeholder) go into their enclosing markup, then every top-level segment into the source."""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..text.segments import Segment
from .document_context import NOTHING_BEFORE, Surroundings, with_document_context
from .spans import Located, segment_text, splice_translation


@dataclass(slots=True)
class SpliceIndex:
    """Located segments of one source in source order. A segment lying inside one markup
    part of another (an `alt` attribute inside an `<img>` placeholder) is nested: it is
    spliced into that markup; any other overlap is dropped (never corrupts the output)."""

    src: str
    located: list[Located] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)  # index of the enclosing segment or -1

    def add(self, item: Located | None) -> None:
        if item is not None:
            self.located.append(item)

    def extend(self, items: Sequence[Located]) -> None:
        self.located.extend(items)

    def finish(self) -> SpliceIndex:
        self.located.sort(key=lambda loc: (loc.start, -loc.end))
        kept: list[Located] = []
        parent: list[int] = []
        top = -1  # index into kept of the last top-level segment
        top_starts: list[int] = []  # where each part of that segment starts
        for loc in self.located:
            if top >= 0 and loc.start < kept[top].end:
                outer = kept[top]
                part = outer.parts[bisect.bisect_right(top_starts, loc.start) - 1]
                inside = part.kind in ("open", "close", "self") and loc.end <= part.end
                siblings_ok = kept[-1] is outer or kept[-1].end <= loc.start
                if inside and siblings_ok:
                    kept.append(loc)
                    parent.append(top)
                continue
            kept.append(loc)
            parent.append(-1)
            top = len(kept) - 1
            top_starts = [p.start for p in loc.parts]
        self.located, self.parent = kept, parent
        return self

    def segments(self, before: Surroundings = NOTHING_BEFORE) -> list[Segment]:
        """`before`: what earlier parts of a document read in parts said (its title, a heading)."""
        return with_document_context(
            [Segment(i, segment_text(self.src, loc), role=loc.role) for i, loc in enumerate(self.located)],
            before,
        )

    def reassemble(self, translated: Mapping[int, str], edits: Sequence[tuple[int, int, str]] = ()) -> str:
        """Splice translations (and extra `edits`: (start, end, replacement) outside every
        segment, e.g. `<html lang>`) into the source."""
        src = self.src
        inner: list[tuple[int, int, str]] = []
        for i, loc in enumerate(self.located):
            if self.parent[i] >= 0 and i in translated:
                spliced = splice_translation(src, loc, translated[i])
                if spliced is not None:
                    inner.append((loc.start, loc.end, spliced))
        source = _Patched(src, inner)
        replacements: list[tuple[int, int, str]] = list(edits)
        for i, loc in enumerate(self.located):
            if self.parent[i] >= 0:
                continue
            spliced = splice_translation(src, loc, translated[i], source) if i in translated else None
            replacements.append(
                (loc.start, loc.end, spliced if spliced is not None else source(loc.start, loc.end))
            )
        replacements.sort(key=lambda r: r[0])
        out: list[str] = []
        pos = 0
        for start, end, text in replacements:
            if start < pos:
                continue
            out.append(source(pos, start))
            out.append(text)
            pos = end
        out.append(source(pos, len(src)))
        return "".join(out)


class _Patched:
    """The source with the nested segments' translations in it: `(start, end) -> text`.
    `edits` are in source order and do not overlap; an edit counts when it lies wholly
    inside the span asked for."""

    def __init__(self, src: str, edits: list[tuple[int, int, str]]) -> None:
        self.src = src
        self.edits = edits
        self.starts = [a for a, _, _ in edits]

    def __call__(self, start: int, end: int) -> str:
        src, edits = self.src, self.edits
        i = bisect.bisect_left(self.starts, start)
        if i == len(edits) or edits[i][0] >= end:
            return src[start:end]
        pieces: list[str] = []
        pos = start
        while i < len(edits) and edits[i][0] < end:
            a, b, text = edits[i]
            if b <= end:
                pieces.append(src[pos:a])
                pieces.append(text)
                pos = b
            i += 1
        pieces.append(src[pos:end])
        return "".join(pieces)
