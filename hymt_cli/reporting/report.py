"""The run report: per-file outcomes and totals, written as JSON with --report.

The report is always valid UTF-8 JSON, whatever the file names. A POSIX file name is bytes;
one that is not valid UTF-8 reaches Python with each undecodable byte as a lone surrogate
(surrogateescape), which no UTF-8 text can hold. In the report such a byte is written as
the four characters `\\xNN` (its hex value, as Python prints it), in every string; and the
path fields `input` and `output` of such a file get a lossless twin, `input_raw` /
`output_raw`: the path's bytes percent-encoded (RFC 3986: unreserved characters and `/`
kept, every other byte `%XX`), so `urllib.parse.unquote_to_bytes(record["input_raw"])`
gives the exact name. The twins appear only for such names.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import quote_from_bytes

from ..outputs.atomic import write_atomically
from ..signals import SignalName

FileStatus = Literal["ok", "failed", "skipped", "interrupted"]
RunStatus = Literal["ok", "failed", "interrupted"]
Severity = Literal["error", "warning"]  # a QA flag's: the answer rejected, or kept
# The report's JSON Schema: schemas/report-3.schema.json (a new number for any incompatible change;
# report-2.schema.json stays for the reports written before QA flags).
SCHEMA = "hymt.report/3"


@dataclass(slots=True)
class SegmentProblem:
    segment: int
    problem: str


@dataclass(slots=True)
class GlossaryMiss:
    segment: int
    lang: str
    term: str
    expected: str  # the target term (or the do-not-translate term itself)


@dataclass(slots=True)
class ReportedFlag:
    """A QA check's finding on one segment (hymt_cli/qa). `severity` error: the answer was
    rejected and the segment kept its source; warning: the answer was kept. `source` and
    `answer` are excerpts of the texts the check read (the answer: the rejected one for an
    error). `occurrences`: the segments it stands for (a table's rows sharing the value)."""

    segment: int
    unit: int
    label: str | None  # how the format names the segment (a table cell), else None
    check: str
    severity: Severity
    message: str
    source: str
    answer: str
    occurrences: int = 1


@dataclass(slots=True)
class GlossaryStats:
    """Glossary adherence: terms expected in translated segments, found in the output, missed."""

    expected: int = 0
    found: int = 0
    missed: int = 0
    misses: list[GlossaryMiss] = field(default_factory=list)


@dataclass(slots=True)
class OutdatedValue:
    """A person's value kept whose source text changed since (formats/strings/_outdated.py): its
    key (a JSON Pointer), the source text it was written for (None: not recorded), the source
    text now, the value, and how their placeholders differ (None: they agree)."""

    key: str
    old_source: str | None
    source: str
    value: str
    format_change: str | None = None


@dataclass(slots=True)
class Substitution:
    """A character that an output's legacy encoding lacks, written as its conventional
    substitute (text/substitutes.py: œ as oe in ISO-8859-1), and how many times."""

    character: str
    written: str
    count: int


MAX_PROBLEMS = 100  # per output file
MAX_OUTDATED = 1000  # per output file, in the report


@dataclass(slots=True)
class FileReport:
    input: str
    output: str | None
    lang: str | None
    # skipped: a dry run, or someone else's file is there; interrupted: the run stopped before
    # it was written
    status: FileStatus = "ok"
    error: str | None = None  # why it failed
    hint: str | None = None  # what to do about it, where hymt knows
    warning: str | None = None  # why it was skipped, or what went wrong besides
    format: str | None = None
    segments: int = 0
    translated: int = 0
    retried: int = 0
    repaired: int = 0  # tags kept by translating inline runs separately
    untranslated: int = 0
    problems: list[SegmentProblem] = field(default_factory=list)
    problems_omitted: int = 0  # beyond the first MAX_PROBLEMS problems of a file
    glossary: GlossaryStats | None = None  # None: no glossary in this run
    flags: list[ReportedFlag] = field(default_factory=list)  # QA flags, the first 100 of the file
    flags_omitted: int = 0
    flag_counts: dict[str, int] = field(default_factory=dict)  # every flag (omitted ones too) per check
    # A file of strings: its keys by what the run did with them (added, kept: a person's,
    # updated, removed, unchanged; outdated: kept ones whose source changed since). None: a
    # document, a table.
    keys: dict[str, int] | None = None
    up_to_date: bool = False  # a file merged into that needed no change: not written again
    # --check: the output's state (up-to-date, missing, stale, edited) and why; None in a run
    check: str | None = None
    reason: str | None = None
    # a file of strings: the person's values kept whose source changed since (keys.outdated of them)
    outdated: list[OutdatedValue] = field(default_factory=list)
    # an output in a legacy encoding: the characters of translations it lacks, written as substitutes
    substituted: list[Substitution] = field(default_factory=list)

    def add_problem(self, segment_id: int, message: str, label: str | None = None) -> None:
        """A segment that kept its source, and why; past MAX_PROBLEMS only counted (the report
        must not grow with the input). A labelled segment (a key, a cell) is named by its label."""
        if len(self.problems) >= MAX_PROBLEMS:
            self.problems_omitted += 1
        elif label is not None:
            self.problems.append(SegmentProblem(-1, f"{label}: {message}"))
        else:
            self.problems.append(SegmentProblem(segment_id, message))


@dataclass(slots=True)
class SkippedInput:
    """A file found in an input folder and left alone, and why (a translation, a symlink...)."""

    path: str
    reason: str


@dataclass(slots=True)
class RunReport:
    engine: str
    model: str | None
    dry_run: bool = False
    status: RunStatus = "ok"  # failed: the exit code is not 0; interrupted: SIGINT/SIGTERM
    exit_code: int = 0
    signal: SignalName | None = None  # when interrupted
    files: list[FileReport] = field(default_factory=list)
    skipped: list[SkippedInput] = field(default_factory=list)
    segments: int = 0
    unique_segments: int = 0
    engine_requests: int = 0
    cache_hits: int = 0  # unique requests answered by the translation memory
    cache_hit_tokens: int = 0  # their prompt tokens (not sent)
    memory_stored: int = 0  # new translations this run committed to the memory
    retried: int = 0
    engine_retries: int = 0  # requests a served engine sent again (connection error, timeout, 429, 5xx)
    prompt_tokens: int = 0
    output_tokens: int = 0
    estimated_tokens: bool = False
    seconds: float = 0.0
    engine_seconds: float = 0.0
    qa_levels: dict[str, str] | None = None  # each QA check's level in this run; None: no QA
    check: bool = False  # the report of `--check` (no engine ran: files[].check says each output's state)

    def flagged(self, severity: Severity) -> int:
        """QA flags of that severity (`error`: answers rejected, sources kept; `warning`: kept)."""
        levels = self.qa_levels or {}
        return sum(n for check, n in self.flag_counts.items() if levels.get(check) == severity)

    @property
    def flag_counts(self) -> dict[str, int]:
        """QA flags per check over the files (checks that flagged nothing are left out)."""
        total: dict[str, int] = {}
        for file in self.files:
            for check, count in file.flag_counts.items():
                total[check] = total.get(check, 0) + count
        return total

    @property
    def files_ok(self) -> int:
        return sum(f.status == "ok" for f in self.files)

    @property
    def files_failed(self) -> int:
        return sum(f.status == "failed" for f in self.files)

    @property
    def files_interrupted(self) -> int:
        return sum(f.status == "interrupted" for f in self.files)

    @property
    def untranslated(self) -> int:
        return sum(f.untranslated for f in self.files)

    @property
    def glossary(self) -> GlossaryStats | None:
        """Totals over the files; None when the run had no glossary."""
        stats = [f.glossary for f in self.files if f.glossary is not None]
        if not stats:
            return None
        total = GlossaryStats()
        for s in stats:
            total.expected += s.expected
            total.found += s.found
            total.missed += s.missed
            total.misses.extend(s.misses)
        return total

    @property
    def repaired(self) -> int:
        return sum(f.repaired for f in self.files)

    def to_json(self) -> dict[str, object]:
        """The report as JSON data: valid Unicode throughout (module docstring)."""
        data: dict[str, object] = {"schema": SCHEMA, **asdict(self)}
        data["files"] = [_file_json(f) for f in self.files]
        data.update(
            files_ok=self.files_ok,
            files_failed=self.files_failed,
            files_interrupted=self.files_interrupted,
            files_skipped=len(self.skipped),
            untranslated=self.untranslated,
            repaired=self.repaired,
        )
        del data["qa_levels"]
        data["qa"] = (
            None
            if self.qa_levels is None
            else {
                "levels": self.qa_levels,
                "flags": self.flag_counts,
                "errors": self.flagged("error"),
                "warnings": self.flagged("warning"),
            }
        )
        glossary = self.glossary  # null: the run had no glossary
        data["glossary"] = (
            None
            if glossary is None
            else {"expected": glossary.expected, "found": glossary.found, "missed": glossary.missed}
        )
        return _unicode_json(data)

    def write(self, path: Path) -> None:
        text = json.dumps(self.to_json(), ensure_ascii=False, indent=2) + "\n"
        write_atomically(path, text.encode("utf-8"))


_SURROGATE = re.compile("[\ud800-\udfff]")


def unicode_text(text: str) -> str:
    """`text` with each lone surrogate written out: an undecodable byte kept by surrogateescape
    (U+DC80..U+DCFF) as `\\xNN`, any other as `\\uNNNN`. Valid text is returned as it is."""
    if _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(
        lambda m: (
            f"\\x{ord(m.group()) - 0xDC00:02x}"
            if 0xDC80 <= ord(m.group()) <= 0xDCFF
            else f"\\u{ord(m.group()):04x}"
        ),
        text,
    )


def raw_path(path: str) -> str:
    """A path's bytes, percent-encoded: lossless, and valid Unicode whatever the bytes."""
    return quote_from_bytes(os.fsencode(path), safe="/")


def _file_json(report: FileReport) -> dict[str, object]:
    data = asdict(report)
    for key in ("input", "output"):
        value = data[key]
        if isinstance(value, str) and _SURROGATE.search(value):
            data[f"{key}_raw"] = raw_path(value)
    return data


def _unicode_json(value: object) -> dict[str, object]:
    cleaned = _clean(value)
    assert isinstance(cleaned, dict)
    return cleaned


def _clean(value: object) -> object:
    if isinstance(value, str):
        return unicode_text(value)
    if isinstance(value, dict):
        return {unicode_text(str(k)): _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value
