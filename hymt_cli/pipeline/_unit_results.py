"""A unit whose requests are all settled: its translated segments assembled from their pieces,
counted and flagged, its records spooled for the review page, the unit handed to its job."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..acceptance.answers import Problem
from ..qa import Flag
from ._outcomes import Outcomes
from .flagging import Flagger
from .planning import Piece
from .window import UnitWork, Window

if TYPE_CHECKING:
    from ..review import RecordSpool


def finish_unit(
    window: Window, work: UnitWork, input_order: int, *, flagger: Flagger | None, review: RecordSpool | None
) -> None:
    """Count the unit's segments into its file's report, flag them (QA), hand their records to
    the review spool and the translated unit to its job (`input_order`: the input's place in
    the run, for the order of QA findings)."""
    outcomes, unit, report = window.outcomes, work.unit, work.job.report
    encoding = work.job.encoding  # (None: the output writes any character)
    translated: dict[int, str] = {}
    warnings: dict[int, tuple[Flag, ...]] = {}  # QA warnings on what segments kept: for the review
    unwritable: dict[int, str] = {}  # segments whose translation the output's encoding cannot write
    weights = unit.weights
    for segment_id, pieces in work.pieces.items():
        keys = [p.key for p in pieces if p.key is not None]
        found = [outcomes[k] for k in keys]
        weight = weights.get(segment_id, 1)
        retried = repaired = False
        failed: list[Problem | None] = []
        for o in found:  # (one loop: it runs for every segment of a run)
            retried = retried or o.attempts > 1
            repaired = repaired or o.repaired
            if o.translation is None:
                failed.append(o.problem)
        if retried:
            report.retried += weight
        if repaired:
            report.repaired += weight
        if failed:
            report.untranslated += weight
            report.add_problem(
                segment_id,
                failed[0].message if failed[0] else "not translated",
                unit.labels.get(segment_id),
            )
            _flag(flagger, work, input_order, segment_id, pieces, outcomes, kept_source=True)
            continue
        if len(pieces) == 1 and found:  # one piece, translated: most segments
            piece = pieces[0]
            text = piece.lead + (found[0].translation or "") + piece.trail
        else:
            text = "".join(
                p.lead + (p.core if p.key is None else outcomes[p.key].translation or "") + p.trail
                for p in pieces
            )
        if encoding is not None:  # a legacy encoding: what it lacks as substitutes, or the source
            fitted = encoding.written(text, weight)
            if fitted.lacking is not None:
                unwritable[segment_id] = encoding.kept_source(fitted.lacking)
                report.untranslated += weight
                report.add_problem(segment_id, unwritable[segment_id], unit.labels.get(segment_id))
                continue
            text = fitted.text
        translated[segment_id] = text
        report.translated += weight
        warnings[segment_id] = _flag(
            flagger, work, input_order, segment_id, pieces, outcomes, kept_source=False
        )
        if flagger is not None and unit.check is not None:  # the format's own (a cue read too fast)
            source = "".join(p.lead + p.core + p.trail for p in pieces)
            warnings[segment_id] += flagger.by_format(
                report, unit, segment_id, source, translated[segment_id], work.job.lang.code
            )
        if report.glossary is not None:
            from ..glossary import tally  # a run without a glossary never imports it

            uses = [
                (g, outcomes[k].translation or "")
                for k in keys
                if (g := window.planner.planned[k].glossary) is not None
            ]
            tally(report.glossary, segment_id, work.job.lang.code, uses)
    if review is not None:
        from ._review_records import segment_records  # a run without a review page never imports it

        review.add(
            report,
            unit.index,
            segment_records(
                unit, work.pieces, translated, outcomes, window.planner.planned, warnings, unwritable
            ),
        )
    work.job.deliver(unit, translated)


def _flag(
    flagger: Flagger | None,
    work: UnitWork,
    input_order: int,
    segment_id: int,
    pieces: list[Piece],
    outcomes: Outcomes,
    *,
    kept_source: bool,
) -> tuple[Flag, ...]:
    """The QA flags of a finished segment into its file's report; returns its warnings."""
    if flagger is None:
        return ()
    order = (input_order, work.unit.index, segment_id)
    return flagger.segment(
        work.job.report,
        work.unit,
        segment_id,
        pieces,
        outcomes,
        work.job.lang.code,
        order,
        kept_source=kept_source,
    )
