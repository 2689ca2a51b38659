"""The last fallback for a segment whose tags the model keeps breaking.

After the deterministic retry still fails, the segment's inline runs (the text between its
tags) are translated separately as plain requests, and the tags are put back exactly where
they were: the translation reads less fluently but the markup is intact. Only when a run
itself fails does the segment keep its source.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..text.segments import is_translatable
from ..text.tags import has_tags, split_runs
from ._outcomes import Outcomes
from .planning import Piece, PlannedRequest, RequestKey


@dataclass(frozen=True, slots=True)
class Repair:
    """One broken request as pieces: its tags (and untranslatable runs) kept as they are, each
    text run a plain request of its own."""

    request: PlannedRequest
    pieces: tuple[Piece, ...]

    @classmethod
    def plan(cls, request: PlannedRequest, plan_run: Callable[[str], PlannedRequest]) -> Repair:
        pieces: list[Piece] = []
        for run in split_runs(request.core):
            core = run.text.strip()
            if run.is_tag or not is_translatable(core):
                pieces.append(Piece("", run.text, "", None))
                continue
            start = run.text.index(core)
            pieces.append(Piece(run.text[:start], core, run.text[start + len(core) :], plan_run(core).key))
        return cls(request, tuple(pieces))

    def run_keys(self) -> list[RequestKey]:
        return [piece.key for piece in self.pieces if piece.key is not None]

    def translation(self, outcomes: Outcomes) -> str | None:
        """The repaired translation, or None when a run has no clean translation."""
        out: list[str] = []
        for piece in self.pieces:
            text = piece.core if piece.key is None else outcomes[piece.key].translation
            if text is None or (piece.key is not None and has_tags(text)):
                return None
            out.append(piece.lead + text + piece.trail)
        return "".join(out)
