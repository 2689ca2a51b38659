"""The records of a run, spooled to a temporary file as units finish, so that memory does not
grow with the input (a run can have millions of segments).

Units finish in whatever order the engine answers; the spool keeps where each unit's lines are
(one entry per unit, not per segment) and the counts of each output, and reads the lines back
per output in unit order: the same run gives the same page whatever the order of the answers.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Self

from ..reporting.report import FileReport
from .records import SegmentRecord, script_safe_json


@dataclass(slots=True)
class OutputCounts:
    """What one output's records hold: segments by status, and by check (segments a check fired
    on, as a flag or as the reason of a retry), and flags by severity."""

    segments: int = 0
    attention: int = 0  # segments with a flag, or retried, repaired or untranslated
    statuses: Counter[str] = field(default_factory=Counter)
    checks: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    warnings: int = 0

    def add(self, record: SegmentRecord) -> None:
        self.segments += 1
        self.attention += record.needs_a_look()
        self.statuses[record.status] += 1
        self.checks.update(record.checks())
        for flag in record.flags:
            if flag.severity == "error":
                self.errors += 1
            else:
                self.warnings += 1

    def merge(self, other: OutputCounts) -> None:
        self.segments += other.segments
        self.attention += other.attention
        self.statuses.update(other.statuses)
        self.checks.update(other.checks)
        self.errors += other.errors
        self.warnings += other.warnings

    def to_json(self) -> dict[str, object]:
        return {
            "segments": self.segments,
            "attention": self.attention,
            "statuses": dict(sorted(self.statuses.items())),
            "checks": dict(sorted(self.checks.items())),
            "errors": self.errors,
            "warnings": self.warnings,
        }


@dataclass(slots=True)
class _Output:
    report: FileReport
    counts: OutputCounts = field(default_factory=OutputCounts)
    chunks: list[tuple[int, int, int]] = field(default_factory=list)  # (unit index, offset, length)


class RecordSpool:
    """Records by output (a `FileReport`: one input in one language), in a temporary file that
    is gone when the spool is closed (or the process ends)."""

    def __init__(self, directory: Path | None = None) -> None:
        # Open for the spool's life: closed by close() (or `with`), deleted by the system then.
        self._file: BinaryIO = tempfile.TemporaryFile(prefix="hymt-review-", dir=directory)  # noqa: SIM115
        self._outputs: dict[int, _Output] = {}  # by id() of the FileReport (kept alive here)
        self._end = 0
        # The checks that fired in the run, each with its worst severity ("info": only ever
        # the reason of a retry that then succeeded).
        self.check_severity: dict[str, str] = {}

    def add(self, output: FileReport, unit: int, records: Sequence[SegmentRecord]) -> None:
        """The records of one finished unit of `output`."""
        entry = self._outputs.get(id(output))
        if entry is None:
            entry = self._outputs[id(output)] = _Output(output)
        data = b"".join(script_safe_json(r.to_json()).encode("utf-8") + b"\n" for r in records)
        for record in records:
            entry.counts.add(record)
            self._note_checks(record)
        self._file.seek(self._end)
        self._file.write(data)
        entry.chunks.append((unit, self._end, len(data)))
        self._end += len(data)

    def _note_checks(self, record: SegmentRecord) -> None:
        rank = {"info": 0, "warning": 1, "error": 2}
        seen: list[tuple[str, str]] = [(flag.check, flag.severity) for flag in record.flags]
        if record.retry is not None:
            seen.append((record.retry.check, "info"))
        for check, severity in seen:
            if rank[severity] > rank.get(self.check_severity.get(check, ""), -1):
                self.check_severity[check] = severity

    def counts(self, output: FileReport) -> OutputCounts:
        entry = self._outputs.get(id(output))
        return entry.counts if entry is not None else OutputCounts()

    def lines(self, output: FileReport) -> Iterator[bytes]:
        """The output's records, one script-safe JSON line each (no newline), in unit order and
        segment order within a unit."""
        entry = self._outputs.get(id(output))
        if entry is None:
            return
        for _, offset, length in sorted(entry.chunks):
            self._file.seek(offset)
            chunk = self._file.read(length)
            yield from chunk.splitlines()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
