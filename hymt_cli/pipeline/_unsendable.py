"""Segments that have words but cannot be sent: a value holding a lone surrogate.

A `\\ud800` escape in a JSON, YAML, Android or `.strings` value reads as a surrogate code point
on its own: no Unicode text holds one, so it cannot be encoded, tokenized or sent, and the value
keeps its source text (is_translatable refuses it). That is never silent: each such segment is
counted as untranslated, listed among its file's problems (by its key), and its file gets a
warning (the report's, and the line the run ends with on stderr).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..formats import Unit
from ..text.segments import LONE_SURROGATE, Segment, is_translatable
from ._jobs import Job

_SHOWN = 3  # segments a file's warning names
CHECK = "lone-surrogate"  # the check id the review page shows such a segment with


def unsendable(segments: Sequence[Segment]) -> list[Segment]:
    """The segments with words that are refused only for a lone surrogate."""
    return [
        s
        for s in segments
        if LONE_SURROGATE.search(s.text) is not None
        and not is_translatable(s.text)
        and is_translatable(LONE_SURROGATE.sub("", s.text))
    ]


def reason(text: str) -> str:
    """Why an unsendable segment keeps its source (a problem's message, a review flag's)."""
    found = LONE_SURROGATE.search(text)
    assert found is not None
    return f"holds a lone surrogate U+{ord(found.group(0)):04X} (no Unicode text): kept as in the source"


def note_unsendable(job: Job, unit: Unit, segments: Sequence[Segment]) -> None:
    """Count the unit's unsendable segments into the job's report, with a problem each and the
    file's warning (naming the first few)."""
    report = job.report
    for segment in segments:
        if not segment.is_for(job.lang.code):
            continue
        weight = unit.weight(segment.id)
        label = unit.labels.get(segment.id)
        report.segments += weight
        report.untranslated += weight
        report.add_problem(segment.id, reason(segment.text), label)
        job.unsendable += 1
        if len(job.unsendable_names) < _SHOWN:
            job.unsendable_names.append(label or f"segment {segment.id}")
    if job.unsendable:
        named = ", ".join(job.unsendable_names) + (", ..." if job.unsendable > _SHOWN else "")
        report.warning = (
            f"{report.input}: {job.unsendable} segment(s) hold a lone surrogate (a \\ud800-style escape, "
            f"no Unicode text) and keep their source text: {named}"
        )
