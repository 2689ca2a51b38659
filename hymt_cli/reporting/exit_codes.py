"""What a run's report means as an exit code (the command line exits with it; the JSON report
records it): 1 an input failed; 4 `--strict` and a segment untranslated or a term missed, or
(always) a run where not one segment was translated."""

from __future__ import annotations

from ..errors import ExitCode
from .report import RunReport


def exit_code(report: RunReport, *, strict: bool, dry_run: bool) -> ExitCode:
    if report.files_failed:
        return ExitCode.SOME_INPUTS_FAILED
    if dry_run:
        return ExitCode.OK
    translated = sum(f.translated for f in report.files)
    if report.untranslated and not translated:
        return ExitCode.QUALITY_CHECK_FAILED
    if strict and (report.untranslated or (report.glossary is not None and report.glossary.missed)):
        return ExitCode.QUALITY_CHECK_FAILED
    return ExitCode.OK
