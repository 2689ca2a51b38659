"""The last fallback for a segment whose tags the model keeps breaking.

After the deterministic retry still fails, the segment's inline runs (the text between its
tags) are translated separately as plain requests, and the tags are put back exactly where
they were: the translation reads less fluently but the markup is intact. Only when a run
itself fails does the segment keep its source.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..text.tags import has_tags, split_runs
from ..text.segments import is_translatable
from .outcomes import Outcomes
from .planning import PlannedRequest, RequestKey


@dataclass(frozen=True, slots=True)
class Repair:
    """One broken request and the plain requests for each of its text runs."""

    request: PlannedRequest
    # (lead, run request, trail) per text run; tags and untranslatable runs: (text, None, "")
    pieces: tuple[tuple[str, RequestKey | None, str], ...]

    @classmethod
    def plan(cls, request: PlannedRequest, plan_run: Callable[[str], PlannedRequest]) -> Repair:
        pieces: list[tuple[str, RequestKey | None, str]] = []
        for run in split_runs(request.core):
            core = run.text.strip()
            if run.is_tag or not is_translatable(core):
                pieces.append((run.text, None, ""))
                continue
            start = run.text.index(core)
            pieces.append((run.text[:start], plan_run(core).key, run.text[start + len(core):]))
        return cls(request, tuple(pieces))

    def run_keys(self) -> list[RequestKey]:
        return [key for _, key, _ in self.pieces if key is not None]

    def translation(self, outcomes: Outcomes) -> str | None:
        """The repaired translation, or None when a run has no clean translation."""
        out: list[str] = []
        for lead, key, trail in self.pieces:
            if key is None:
                out.append(lead)
                continue
            text = outcomes[key].translation
            if text is None or has_tags(text):
                return None
            out.append(lead + text + trail)
        return "".join(out)
