"""`--strict` and the QA checks: an error keeps the source (the segment is untranslated), so it
fails the run; a warning keeps the answer and never does; a warning check made an error does."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import pytest
from engines import QA_PRODUCT, QaFaultEngine
from pipelines import run_pipeline
from rich.console import Console

from hymt_cli.cli.summary import summarize
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.errors import ExitCode
from hymt_cli.qa import QaOptions, QaSuite
from hymt_cli.reporting.exit_codes import exit_code
from hymt_cli.reporting.report import RunReport


def run(tmp_path: Path, faults: Sequence[str], qa: str = "") -> RunReport:
    path = tmp_path / "product.txt"
    path.write_text(QA_PRODUCT, encoding="utf-8")
    return run_pipeline(
        [path],
        QaFaultEngine(PseudoEngine(), faults),
        to="de",
        out_dir=tmp_path / "out",
        qa=QaSuite(QaOptions.parse(qa) if qa else None),
    )


@pytest.mark.parametrize(
    ("faults", "qa", "strict_code"),
    [
        (["number"], "", ExitCode.QUALITY_CHECK_FAILED),  # an error: two sources kept
        (["url", "email"], "", ExitCode.QUALITY_CHECK_FAILED),
        (["sku", "bracket"], "", ExitCode.OK),  # warnings: the answers kept, flagged
        (["sku"], "sku=error", ExitCode.QUALITY_CHECK_FAILED),  # a warning check made an error
        (["number"], "number=warning", ExitCode.OK),
    ],
)
def test_qa_errors_fail_strict_and_warnings_do_not(
    tmp_path: Path, faults: list[str], qa: str, strict_code: ExitCode
) -> None:
    report = run(tmp_path, faults, qa)
    assert report.flag_counts  # every case raised a flag
    assert exit_code(report, strict=False, dry_run=False) == ExitCode.OK
    assert exit_code(report, strict=True, dry_run=False) == strict_code
    assert (report.untranslated > 0) == (strict_code == ExitCode.QUALITY_CHECK_FAILED)
    if strict_code == ExitCode.QUALITY_CHECK_FAILED:
        out = io.StringIO()
        summarize(
            report,
            Console(file=out, width=300, color_system=None),
            dry_run=False,
            quiet=False,
            strict=True,
            code=strict_code,
        )
        assert f"error: --strict: {report.untranslated} segment(s) stayed untranslated" in out.getvalue()
