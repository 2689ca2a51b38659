"""The run report: per-file outcomes and totals, written as JSON with --report."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .atomic import write_atomically

SCHEMA = "hymt.report/1"


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
class GlossaryStats:
    """Glossary adherence: terms expected in translated segments, found in the output, missed."""

    expected: int = 0
    found: int = 0
    missed: int = 0
    misses: list[GlossaryMiss] = field(default_factory=list)


@dataclass(slots=True)
class FileReport:
    input: str
    output: str | None
    lang: str | None
    status: str = "ok"  # ok | failed | skipped
    error: str | None = None  # why it failed
    warning: str | None = None  # why it was skipped, or what went wrong besides
    format: str | None = None
    segments: int = 0
    translated: int = 0
    retried: int = 0
    repaired: int = 0  # tags kept by translating inline runs separately
    untranslated: int = 0
    problems: list[SegmentProblem] = field(default_factory=list)
    problems_omitted: int = 0  # beyond the first 100 problems of a file
    glossary: GlossaryStats | None = None  # None: no glossary in this run


@dataclass(slots=True)
class RunReport:
    engine: str
    model: str | None
    dry_run: bool = False
    files: list[FileReport] = field(default_factory=list)
    segments: int = 0
    unique_segments: int = 0
    engine_requests: int = 0
    cache_hits: int = 0  # unique requests answered by the translation memory
    cache_hit_tokens: int = 0  # their prompt tokens (not sent)
    retried: int = 0
    engine_retries: int = 0  # requests a served engine sent again (connection error, timeout, 429, 5xx)
    prompt_tokens: int = 0
    output_tokens: int = 0
    estimated_tokens: bool = False
    seconds: float = 0.0
    engine_seconds: float = 0.0

    @property
    def files_ok(self) -> int:
        return sum(f.status == "ok" for f in self.files)

    @property
    def files_failed(self) -> int:
        return sum(f.status == "failed" for f in self.files)

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

    def to_json(self) -> dict:
        data = asdict(self)
        data = {"schema": SCHEMA, **data}
        data.update(files_ok=self.files_ok, files_failed=self.files_failed,
                    untranslated=self.untranslated, repaired=self.repaired)
        glossary = self.glossary
        if glossary is not None:
            data["glossary"] = {"expected": glossary.expected, "found": glossary.found,
                                "missed": glossary.missed}
        return data

    def write(self, path: Path) -> None:
        text = json.dumps(self.to_json(), ensure_ascii=False, indent=2) + "\n"
        write_atomically(path, text.encode("utf-8"))
