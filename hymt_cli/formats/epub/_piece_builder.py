"""What a reader of an EPUB part gathers for its piece: segments (with how a review names each),
the edits that write their translations, and the edits that make the part say the target."""

from __future__ import annotations

from collections.abc import Callable

from ...text.segments import Segment
from ..package import Edit, Node, PartPiece, Rendering, Source, Target
from ..spans import Located, segment_text, splice_translation
from ..start_tags import value_span

# (the target, the span's text with the edits inside it made) -> what it becomes (None: as it is)
Make = Callable[[Target, str], str | None]


class PieceBuilder:
    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.labels: dict[int, str] = {}
        self.edits: list[Edit] = []
        self._text: list[str] = [""]  # the piece's text, once it is known (renders read it)

    def segment(self, located: Located, src: str, label: str, role: str = "", context: str = "") -> None:
        sid = len(self.segments)
        self.segments.append(Segment(sid, segment_text(src, located), context=context, role=role))
        if label:
            self.labels[sid] = label
        holder = self._text

        def render(context: Rendering, source: Source) -> str | None:
            answer = context.translated.get(sid)
            return None if answer is None else splice_translation(holder[0], located, answer, source)

        self.edits.append(Edit(located.start, located.end, render))

    def targeted(self, start: int, end: int, make: Make) -> None:
        """The span `start`..`end` as `make` writes it for the target."""

        def render(context: Rendering, source: Source) -> str | None:
            return None if context.target is None else make(context.target, source(start, end))

        self.edits.append(Edit(start, end, render))

    def attribute(self, src: str, node: Node, name: str, make: Make) -> bool:
        """`node`'s attribute `name`'s value as `make` writes it; False where it has none."""
        span = value_span(src, node, name)
        if span is None:
            return False
        self.targeted(span[0], span[1], make)
        return True

    def piece(self, text: str) -> PartPiece:
        self._text[0] = text
        return PartPiece(text, self.segments, self.labels, {}, self.edits)
