"""QA in the pipeline: error checks reject an answer (through the outcomes' checks: retried once,
then the segment keeps its source), warning checks flag the answer kept, and the run-wide
consistency check reports the same source translated two ways. Every flag is recorded per
segment in the file's report (bounded like its problems), and counted per check; the review page
gets them all (a segment's warnings with its records, the run-wide findings late, through the
spool)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..acceptance.answers import Problem
from ..formats import Unit
from ..qa import Flag, QaSuite, excerpt
from ..reporting.report import FileReport, ReportedFlag
from ._outcomes import AnswerCheck, Outcomes
from .planning import Piece, PlannedRequest, RequestKey

if TYPE_CHECKING:
    from ..review import RecordSpool

MAX_FLAGS = 100  # per output file: the report must not grow with the input


@dataclass(frozen=True, slots=True)
class QaProblem(Problem):
    """An answer an error-severity QA check rejected: the flags and the answer go to the report
    and the review page (each flag under its own check; `check` names the first)."""

    flags: tuple[Flag, ...] = ()
    answer: str = ""

    @classmethod
    def of(cls, errors: tuple[Flag, ...], answer: str) -> QaProblem:
        message = "; ".join(f.message for f in errors)
        return cls(message, check=errors[0].check, flags=errors, answer=answer)


@dataclass(frozen=True, slots=True)
class Where:
    """A segment, as a flag names it: its file's report, its unit and id, the format's label
    for it, and how many occurrences it stands for (never the unit itself: a table's rows)."""

    report: FileReport
    unit: int
    segment: int
    label: str | None = None
    weight: int = 1

    @classmethod
    def of(cls, report: FileReport, unit: Unit, segment: int) -> Where:
        return cls(report, unit.index, segment, unit.labels.get(segment), unit.weight(segment))


@dataclass(eq=False)
class Flagger:
    """`review`: the review page's spool, which gets the run-wide findings once the run is done
    (a segment's own flags reach its records when its unit finishes: `segment` returns them)."""

    suite: QaSuite
    review: RecordSpool | None = None
    # Warnings per request, computed once however often its text recurs (a catalog's values).
    _warnings: dict[tuple[RequestKey, str], tuple[Flag, ...]] = field(default_factory=dict)

    def checks(self) -> tuple[AnswerCheck, ...]:
        """The outcomes' check: rejects an answer on error-severity flags, and notes its
        warnings for when its segments are finished (each answer read once)."""
        suite, noted = self.suite, self._warnings
        if not suite.has_checks:
            return ()

        def qa(request: PlannedRequest, output: str) -> Problem | None:
            errors, noted[(request.key, output)] = suite.judge(request.core, output, request.lang.code)
            if not errors:
                return None
            return QaProblem.of(errors, output)

        return (qa,)

    def new_window(self) -> None:
        self._warnings.clear()  # what the last window noted: its segments are finished

    def segment(
        self,
        report: FileReport,
        unit: Unit,
        segment_id: int,
        pieces: Sequence[Piece],
        outcomes: Outcomes,
        lang: str,
        order: tuple[int, ...],
        *,
        kept_source: bool,
    ) -> tuple[Flag, ...]:
        """Flag one finished segment: the QA errors that made it keep its source, or else the
        warnings on its translation; and note its translations for the consistency check.
        Returns the warnings (the errors are in the outcomes' problems), for the review page."""
        where = Where.of(report, unit, segment_id)
        found: dict[Flag, None] = {}  # in order, once each (a segment's pieces may share a flag)
        for piece in pieces:
            if piece.key is None:
                continue
            outcome = outcomes[piece.key]
            if kept_source:
                if outcome.translation is None and isinstance(outcome.problem, QaProblem):
                    for flag in outcome.problem.flags:
                        record(where, flag, piece.core, outcome.problem.answer)
                continue
            translation = outcome.translation
            assert translation is not None
            cache_key = (piece.key, translation)
            flags = self._warnings.get(cache_key)
            if flags is None:
                flags = self._warnings[cache_key] = self.suite.warnings(piece.core, translation, lang)
            for flag in flags:
                record(where, flag, piece.core, translation)
                found[flag] = None
            if self.suite.consistency is not None:
                self.suite.consistency.add(lang, piece.core, translation, order, where, context=piece.key[2])
        return tuple(found)

    def by_format(
        self, report: FileReport, unit: Unit, segment_id: int, source: str, translation: str, lang: str
    ) -> tuple[Flag, ...]:
        """What the input's format finds in a finished segment's translation (`Unit.check`: a
        subtitle cue read too fast), for the checks the run has on: warnings, recorded like the
        others; returned for the review page."""
        if unit.check is None:
            return ()
        levels = self.suite.levels
        found = tuple(
            Flag(flag.check, "warning", flag.message)
            for flag in unit.check(segment_id, translation, lang)
            if levels.get(flag.check, "off") != "off"
        )
        where = Where.of(report, unit, segment_id)
        for flag in found:
            record(where, flag, source, translation)
        return found

    def finish(self) -> None:
        """The run is done: report the inconsistent translations, in document order."""
        if self.suite.consistency is None:
            return
        # Document order; a segment's pieces share one, so their texts decide (the same run lists
        # the same flags in the same order, whatever order the answers came in).
        findings = self.suite.consistency.findings()
        for item in sorted(findings, key=lambda i: (i.order, i.source, i.answer, i.message)):
            where = item.where
            assert isinstance(where, Where)
            record(where, Flag("inconsistent", "warning", item.message), item.source, item.answer)
            if self.review is not None:
                self.review.flag_later(
                    where.report,
                    where.unit,
                    where.segment,
                    Flag("inconsistent", "warning", item.message),
                )


def record(where: Where, flag: Flag, source: str, answer: str) -> None:
    """Count a flag, and keep it in the file's report (the first MAX_FLAGS of a file)."""
    report = where.report
    report.flag_counts[flag.check] = report.flag_counts.get(flag.check, 0) + where.weight
    if len(report.flags) >= MAX_FLAGS:
        report.flags_omitted += 1
        return
    report.flags.append(
        ReportedFlag(
            segment=where.segment,
            unit=where.unit,
            label=where.label,
            check=flag.check,
            severity=flag.severity,
            message=flag.message,
            source=excerpt(source),
            answer=excerpt(answer),
            occurrences=where.weight,
        )
    )
