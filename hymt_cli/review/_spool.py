"""The records of a run, spooled to a temporary file as units finish, so that memory does not
grow with the input (a run can have millions of segments).

Units finish in whatever order the engine answers; the spool keeps where each unit's lines are
(one entry per unit, not per segment) and the counts of each output, and reads the lines back
per output in unit order: the same run gives the same page whatever the order of the answers.

A flag found after its unit was spooled (the run-wide consistency check, at the end of the run)
is held until the records are next read; then each unit it concerns is written once more, with
the flag in its segment's record, and the counts follow.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO, Self

from ..reporting.report import FileReport
from .records import Flag, SegmentRecord, script_safe_json

_RANK = {"info": 0, "warning": 1, "error": 2}


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

    def add(self, record: SegmentRecord, times: int = 1) -> None:
        """Count `record` (`times` -1: take it back)."""
        self.segments += times
        self.attention += times * record.needs_a_look()
        self.statuses[record.status] += times
        for check in record.checks():
            self.checks[check] += times
        for flag in record.flags:
            if flag.severity == "error":
                self.errors += times
            else:
                self.warnings += times
        if times < 0:
            for counter in (self.statuses, self.checks):
                for key in [k for k, n in counter.items() if n == 0]:
                    del counter[key]

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
    chunks: dict[int, tuple[int, int]] = field(default_factory=dict)  # unit index: (offset, length)


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
        self._check_severity: dict[str, str] = {}
        # Flags found after their unit was spooled: (id of the output, unit) -> segment -> flags.
        self._late: dict[tuple[int, int], dict[int, list[Flag]]] = {}

    def add(self, output: FileReport, unit: int, records: Sequence[SegmentRecord]) -> None:
        """The records of one finished unit of `output`."""
        entry = self._outputs.get(id(output))
        if entry is None:
            entry = self._outputs[id(output)] = _Output(output)
        for record in records:
            entry.counts.add(record)
            self._note_checks(record)
        entry.chunks[unit] = self._write(b"".join(_line(r) + b"\n" for r in records))

    def flag_later(self, output: FileReport, unit: int, segment: int, flag: Flag) -> None:
        """A flag on a segment whose unit is spooled already (found once the run was done):
        it joins the segment's record before the records are read. A segment the spool never
        got (its output failed before the unit was written) is left alone."""
        self._late.setdefault((id(output), unit), {}).setdefault(segment, []).append(flag)

    @property
    def check_severity(self) -> dict[str, str]:
        """The checks that fired in the run: {check id: its worst severity}, "info" where it was
        only ever the reason of a retry that then succeeded."""
        self._settle()
        return self._check_severity

    def counts(self, output: FileReport) -> OutputCounts:
        self._settle()
        entry = self._outputs.get(id(output))
        return entry.counts if entry is not None else OutputCounts()

    def spooled_units(self, output: FileReport) -> int:
        """How many units of `output` were spooled (one index entry each, whatever their size)."""
        entry = self._outputs.get(id(output))
        return len(entry.chunks) if entry is not None else 0

    def lines(self, output: FileReport) -> Iterator[bytes]:
        """The output's records, one script-safe JSON line each (no newline), in unit order and
        segment order within a unit."""
        self._settle()
        entry = self._outputs.get(id(output))
        if entry is None:
            return
        for _, (offset, length) in sorted(entry.chunks.items()):
            yield from self._read(offset, length).splitlines()

    def _note_checks(self, record: SegmentRecord) -> None:
        seen: list[tuple[str, str]] = [(flag.check, flag.severity) for flag in record.flags]
        seen += [(reason.check, "info") for reason in record.retry]
        for check, severity in seen:
            if _RANK[severity] > _RANK.get(self._check_severity.get(check, ""), -1):
                self._check_severity[check] = severity

    def _settle(self) -> None:
        """Write the late flags into their records: each unit concerned is written again once
        (its old lines stay in the file, unread), its counts taken back and counted again."""
        late, self._late = self._late, {}
        for (output, unit), by_segment in late.items():
            entry = self._outputs.get(output)
            chunk = entry.chunks.get(unit) if entry is not None else None
            if entry is None or chunk is None:
                continue
            # A line starts with its unit and segment (SegmentRecord.to_json): only those flagged are read.
            wanted = {b'{"unit":%d,"segment":%d,' % (unit, segment) for segment in by_segment}
            lines = self._read(*chunk).splitlines()
            for index, line in enumerate(lines):
                if line[: line.find(b",", line.find(b'"segment"')) + 1] not in wanted:
                    continue
                record = SegmentRecord.from_json(json.loads(line))
                flags = by_segment[record.segment]
                added = replace(record, flags=tuple(dict.fromkeys(record.flags + tuple(flags))))
                entry.counts.add(record, -1)
                entry.counts.add(added)
                self._note_checks(added)
                lines[index] = _line(added)
            entry.chunks[unit] = self._write(b"".join(line + b"\n" for line in lines))

    def _write(self, data: bytes) -> tuple[int, int]:
        self._file.seek(self._end)
        self._file.write(data)
        at, self._end = self._end, self._end + len(data)
        return at, len(data)

    def _read(self, offset: int, length: int) -> bytes:
        self._file.seek(offset)
        return self._file.read(length)

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _line(record: SegmentRecord) -> bytes:
    return script_safe_json(record.to_json()).encode("utf-8")
