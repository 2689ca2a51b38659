"""Did an output use the expected terms? The validator's verdict and the report's tally."""

from __future__ import annotations

from collections.abc import Iterable

from ..acceptance.answers import Problem
from ..reporting.report import GlossaryMiss, GlossaryStats
from .injection import GlossaryUse


def check_terms(use: GlossaryUse | None, output: str) -> Problem | None:
    """Every expected term is in the (restored) output. Soft: the output is kept after the
    retry, and the misses are reported."""
    if use is None:
        return None
    missed = use.misses(output)
    if not missed:
        return None
    names = ", ".join(f"{m.source!r} -> {m.target!r}" for m in missed)
    return Problem(
        f"glossary: {len(missed)} term(s) missed: {names}",
        retryable=True,
        soft=True,
        severity=len(missed),
        check="glossary",
    )


def tally(stats: GlossaryStats, segment: int, lang: str, uses: Iterable[tuple[GlossaryUse, str]]) -> None:
    """Count one translated segment's terms: `uses` pairs each piece's use with its output."""
    for use, output in uses:
        stats.expected += len(use.expected)
        for miss in use.misses(output):
            stats.missed += 1
            stats.misses.append(GlossaryMiss(segment, lang, miss.source, miss.target))
        stats.found = stats.expected - stats.missed
