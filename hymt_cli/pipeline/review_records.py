"""A finished unit's segments as review records (review.records): what each segment became, and
why, read from the outcomes of its requests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..checks.answers import Problem
from ..formats import Unit
from ..review import Flag, Retry, SegmentRecord, Status, worst
from .outcomes import Outcome, Outcomes
from .planning import Piece, PlannedRequest, RequestKey


def segment_records(
    unit: Unit,
    pieces: Mapping[int, Sequence[Piece]],
    translated: Mapping[int, str],
    outcomes: Outcomes,
    planned: Mapping[RequestKey, PlannedRequest],
) -> list[SegmentRecord]:
    """One record per segment of the unit, in segment order. `translated`: what the unit's
    writer got (a segment missing there keeps its source)."""
    records = []
    for segment in unit.segments:
        keys = [p.key for p in pieces.get(segment.id, ()) if p.key is not None]
        statuses: list[Status] = []
        flags: dict[Flag, None] = {}  # in order, once each
        retry: Retry | None = None
        terms: dict[tuple[str, str], None] = {}
        for key in keys:
            outcome = outcomes[key]
            statuses.append(_status(outcome))
            for flag in _flags(outcome):
                flags[flag] = None
            if (
                retry is None
                and (outcome.attempts > 1 or outcome.repaired)
                and outcome.first_problem is not None
            ):
                retry = Retry(_check(outcome.first_problem), outcome.first_problem.message)
            use = planned[key].glossary if key in planned else None
            for expected in use.expected if use is not None else ():
                terms[(expected.source, expected.target)] = None
        records.append(
            SegmentRecord(
                unit.index,
                segment.id,
                segment.text,
                translated.get(segment.id, segment.text),
                worst(statuses),
                role=segment.role,
                flags=tuple(flags),
                retry=retry,
                terms=tuple(terms),
                weight=unit.weight(segment.id),
                label=unit.labels.get(segment.id, ""),
            )
        )
    return records


def _status(outcome: Outcome) -> Status:
    if outcome.translation is None:
        return "untranslated"
    if outcome.repaired:
        return "repaired"
    if outcome.attempts > 1:
        return "retried"
    return "memory" if outcome.recalled else "translated"


def _flags(outcome: Outcome) -> list[Flag]:
    """Problems with what was written: the reason a request kept its source (an error), and a
    soft problem of the answer that was kept (a warning)."""
    if outcome.translation is None:
        problem = outcome.problem
        return [
            Flag(
                _check(problem) if problem else "untranslated",
                "error",
                problem.message if problem else "not translated",
            )
        ]
    if outcome.accepted is not None:
        return [Flag(_check(outcome.accepted), "warning", outcome.accepted.message)]
    return []


def _check(problem: Problem) -> str:
    return problem.check or "output"
