"""What an OOXML part handler collects for one piece: segments, their places, keys and edits.

`paragraph` makes a paragraph (of any dialect) a segment whose translation is written back as
runs (_sentence.py); a paragraph that repeats another (a text box's VML fallback, a SmartArt
drawing's cached text) is written with the translation of the one it repeats (`mirror_of`, or a
key another part published). `value` makes a plain text element a segment (a chart's cached
series name). `piece` hands it all over as a `PartPiece` and starts afresh.
"""

from __future__ import annotations

from collections.abc import Callable

from ...text.segments import Segment
from ..document_context import NOTHING_BEFORE, surroundings_after, with_document_context
from ..package import Edit, Node, PartPiece, Rendering, Source, Target, escape_text
from ._dialects import Dialect
from ._inline import inline
from ._sentence import Adapt, Sentence, Writing, render, sentence

AdaptFor = Callable[[Target | None, str], Adapt]


def prefix_of(node: Node) -> str:
    """The prefix (with its colon) the source writes this element's namespace with."""
    head, colon, _ = node.qname.rpartition(":")
    return head + colon


class Collector:
    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.labels: dict[int, str] = {}
        self.keys: dict[int, tuple[str, ...]] = {}
        self.edits: list[Edit] = []
        self._before = NOTHING_BEFORE  # the title and heading the pieces before this one had

    def add(self, text: str, label: str, role: str = "") -> int:
        """A segment; `role`: "heading 2", "document title" (the document's context reads them),
        else its place."""
        sid = len(self.segments)
        self.segments.append(Segment(sid, text, role=role or label))
        self.labels[sid] = label
        return sid

    def paragraph(
        self,
        node: Node,
        src: str,
        dialect: Dialect,
        adapt_for: AdaptFor,
        label: str,
        *,
        mirror_of: int | None = None,
        shared_key: str | None = None,
        role: str = "",
    ) -> tuple[int, Sentence] | None:
        """The paragraph as a segment (its id and sentence), or None where it has no text.
        `mirror_of`: the segment whose translation it repeats (none of its own);
        `shared_key`: a key whose published translation it takes where there is one (published
        under `shared_key(key, text)`: only a paragraph with the same text takes it)."""
        content = inline(node, src, dialect)
        found = sentence(content)
        if found is None:
            return None
        sid = mirror_of if mirror_of is not None else self.add(found.text, label, role)
        prefix = prefix_of(node)

        def rendered(context: Rendering, source: Source) -> str | None:
            answer = context.translated.get(sid)
            if shared_key is not None and keyed(shared_key, found.text) in context.shared:
                answer = context.shared[keyed(shared_key, found.text)]
            if answer is None:
                return None
            return render(found, answer, Writing(prefix, dialect, source, adapt_for(context.target, prefix)))

        self.edits.append(Edit(content.start, content.end, rendered))
        return sid, found

    def value(self, node: Node, src: str, label: str) -> int | None:
        """A text-only element (`c:v`) as a segment, its content replaced by the translation."""
        text = node.text(src)
        if not text.strip() or any(isinstance(c, Node) for c in node.children):
            return None
        sid = self.add(text, label)

        def rendered(context: Rendering, source: Source) -> str | None:
            answer = context.translated.get(sid)
            return None if answer is None or answer == text else escape_text(answer)

        self.edits.append(Edit(node.inner, node.inner_end, rendered))
        return sid

    def edit(self, start: int, end: int, render: Callable[[Rendering, Source], str | None]) -> None:
        self.edits.append(Edit(start, end, render))

    def piece(self, text: str, finish: Callable[[str, Target], str] | None = None) -> PartPiece:
        """The piece; its segments' context (for `--context on`) is the part's title and the
        nearest heading above them."""
        segments = with_document_context(self.segments, self._before)
        self._before = surroundings_after(segments, self._before)
        made = PartPiece(text, segments, self.labels, self.keys, self.edits, finish)
        self.segments, self.labels, self.keys, self.edits = [], {}, {}, []
        return made


def keyed(key: str, text: str) -> str:
    """A key as published: with the segment's text, so that only the same text takes it."""
    return f"{key}\0{text}"
