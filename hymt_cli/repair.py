"""The last fallback for a segment whose tags the model keeps breaking.

After the deterministic retry still fails, the segment's inline runs (the text between its
tags) are translated separately as plain requests, and the tags are put back exactly where
they were: the translation reads less fluently but the markup is intact. Only when a run
itself fails does the segment keep its source.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .placeholders import has_tags, split_runs
from .segments import is_translatable


def wants_repair(request: Any) -> bool:
    """A formatted request whose output was rejected for a reason a re-run might fix.

    Soft problems (a glossary term missed) keep the output instead, and so does a request
    that already has a usable (soft-problem) output from an earlier attempt."""
    return bool(getattr(request, "formatted", False)) and request.problem is not None \
        and request.problem.retryable and not request.problem.soft \
        and getattr(request, "kept", None) is None and not getattr(request, "repaired", False)


@dataclass(slots=True)
class Repair:
    """One broken request and the plain requests for each of its text runs."""

    request: Any
    pieces: list[tuple[str, Any, str]]  # (lead, run request or None, trail), or tags (tag, None, "")

    @classmethod
    def plan(cls, request: Any, make_request: Callable[[str], Any]) -> Repair:
        pieces: list[tuple[str, Any, str]] = []
        for run in split_runs(request.core):
            if run.is_tag:
                pieces.append((run.text, None, ""))
                continue
            core = run.text.strip()
            if not is_translatable(core):
                pieces.append((run.text, None, ""))
                continue
            start = run.text.index(core)
            pieces.append((run.text[:start], make_request(core), run.text[start + len(core):]))
        return cls(request, pieces)

    def run_requests(self) -> list[Any]:
        return [r for _, r, _ in self.pieces if r is not None]

    def apply(self) -> bool:
        """Give the broken request its repaired translation; False if a run failed."""
        out: list[str] = []
        for lead, run, trail in self.pieces:
            if run is None:
                out.append(lead)
                continue
            if run.translation is None or has_tags(run.translation):
                return False
            out.append(lead + run.translation + trail)
        self.request.translation = "".join(out)
        self.request.problem = None
        self.request.repaired = True
        return True
