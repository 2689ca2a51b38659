"""A finished unit's segments as review records (review.records): what each segment became, and
why, read from the outcomes of its requests, with the QA warnings found on what was kept."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..acceptance.answers import Problem
from ..formats import Unit
from ..review import Flag, Retry, SegmentRecord, Status, worst
from ._outcomes import Outcome, Outcomes
from ._output_encoding import CHECK as ENCODING_CHECK
from ._unsendable import CHECK, unsendable
from ._unsendable import reason as kept_reason
from .flagging import QaProblem
from .planning import Piece, PlannedRequest, RequestKey


def segment_records(
    unit: Unit,
    pieces: Mapping[int, Sequence[Piece]],
    translated: Mapping[int, str],
    outcomes: Outcomes,
    planned: Mapping[RequestKey, PlannedRequest],
    qa_warnings: Mapping[int, Sequence[Flag]] | None = None,
    unwritable: Mapping[int, str] | None = None,
) -> list[SegmentRecord]:
    """One record per segment of the unit, in segment order. `translated`: what the unit's
    writer got (a segment missing there keeps its source). `qa_warnings`: by segment id, the QA
    warnings on the translation it kept (flagging.Flagger.segment). `unwritable`: by segment id,
    why the output's legacy encoding could not write its translation (_output_encoding.py)."""
    records = []
    refused = {s.id for s in unsendable(unit.segments)}
    for segment in unit.segments:
        keys = [p.key for p in pieces.get(segment.id, ()) if p.key is not None]
        statuses: list[Status] = []
        flags: dict[Flag, None] = {}  # in order, once each
        retry: dict[Retry, None] = {}
        terms: dict[tuple[str, str], None] = {}
        for key in keys:
            outcome = outcomes[key]
            statuses.append(_status(outcome))
            for flag in _flags(outcome):
                flags[flag] = None
            if (outcome.attempts > 1 or outcome.repaired) and outcome.first_problem is not None:
                for reason in _reasons(outcome.first_problem):
                    retry[reason] = None
            use = planned[key].glossary if key in planned else None
            for expected in use.expected if use is not None else ():
                terms[(expected.source, expected.target)] = None
        if segment.id in refused:  # never sent: kept, and shown as such
            statuses.append("untranslated")
            flags[Flag(CHECK, "error", kept_reason(segment.text))] = None
        if unwritable and segment.id in unwritable:  # translated, not written: the error says it all
            statuses.append("untranslated")
            flags = {f: None for f in flags if f.check != ENCODING_CHECK}
            flags[Flag(ENCODING_CHECK, "error", unwritable[segment.id])] = None
        for warning in (qa_warnings or {}).get(segment.id, ()):
            flags[Flag(warning.check, warning.severity, warning.message)] = None
        records.append(
            SegmentRecord(
                unit.index,
                segment.id,
                segment.text,
                translated.get(segment.id, segment.text),
                worst(statuses),
                role=segment.role,
                flags=tuple(flags),
                retry=tuple(retry),
                terms=tuple(terms),
                weight=unit.weight(segment.id),
                label=unit.labels.get(segment.id, ""),
                # What the model was told besides the text: its requests' context (all one; "" when
                # the run told it nothing, or nothing was asked).
                context=keys[0][2] if keys else "",
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
    """Problems with what was written: the reason a request kept its source (an error: each QA
    check that rejected the answer, on its own), and a soft problem of the answer that was kept
    (a warning)."""
    if outcome.translation is None:
        problem = outcome.problem
        if isinstance(problem, QaProblem):
            return [Flag(f.check, "error", f.message) for f in problem.flags]
        return [
            Flag(
                _check(problem) if problem else "output",
                "error",
                problem.message if problem else "not translated",
            )
        ]
    if outcome.accepted is not None:
        return [Flag(_check(outcome.accepted), "warning", outcome.accepted.message)]
    return []


def _reasons(problem: Problem) -> list[Retry]:
    """Why an answer was rejected, a reason per check (an answer may fail several QA checks)."""
    if isinstance(problem, QaProblem):
        return [Retry(f.check, f.message) for f in problem.flags]
    return [Retry(_check(problem), problem.message)]


def _check(problem: Problem) -> str:
    return problem.check or "output"
