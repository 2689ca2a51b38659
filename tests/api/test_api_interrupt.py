"""Ctrl-C in a notebook (SIGINT in the main thread) or a scheduler's SIGTERM stops an API run as
it stops the command line: `hymt.Interrupted` (a KeyboardInterrupt) carrying the report, the
report file and the review page written, no temp file left, the caller's handler back in
place; and the next run in the same process is stopped by its own first signal. (The API used
to let the default KeyboardInterrupt through: no report, no page, and steps that must not be
cut in half were not protected.) Also: a wrong type of text or table is a TypeError that says
what to pass."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

import hymt_cli as hymt


class StopAfter(hymt.ProgressEvents):
    """Sends this process SIGINT when the `files`-th file is written (as a user's Ctrl-C)."""

    def __init__(self, files: int) -> None:
        self.files, self.done = files, 0

    def file_done(self, output: str | None = None) -> None:
        self.done += 1
        if self.done == self.files:
            os.kill(os.getpid(), signal.SIGINT)


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(12):
        (folder / f"page-{i:02}.md").write_text(f"# Page {i}\n\nSome text for page {i}.\n", encoding="utf-8")
    return folder


def test_ctrl_c_ends_an_api_run_with_its_report_and_page(tmp_path: Path) -> None:
    folder, out = _folder(tmp_path), tmp_path / "out"
    before = signal.getsignal(signal.SIGINT)
    translator = hymt.Translator(engine="pseudo", to="de", out=str(out), no_cache=True, progress=StopAfter(3))
    for attempt in (1, 2):  # the second run is stopped by its own first signal too
        report_file, page = tmp_path / f"report-{attempt}.json", tmp_path / f"review-{attempt}.html"
        with pytest.raises(hymt.Interrupted) as caught:
            translator.files([str(folder)], report=str(report_file), review=str(page))
        assert isinstance(caught.value, KeyboardInterrupt)
        report = caught.value.report
        assert isinstance(report, hymt.RunReport) and report is translator.last_report
        assert report.status == "interrupted" and report.signal == "SIGINT" and report.files_ok >= 3
        assert json.loads(report_file.read_text(encoding="utf-8"))["status"] == "interrupted"
        assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
        written = sorted(p.name for p in (out / "de").iterdir() if p.name != ".hymt-manifest.json")
        assert len(written) == report.files_ok and all(p.endswith(".md") for p in written)  # no temp file
        translator.progress = StopAfter(3)
    translator.close()
    assert signal.getsignal(signal.SIGINT) is before


def test_wrong_types_are_type_errors_that_say_what_to_pass() -> None:
    with pytest.raises(TypeError, match=r"a str, not bytes \(decode the bytes first\)"):
        hymt.translate_text(b"Hello", to="de", engine="pseudo")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a str, not NoneType"):
        hymt.translate_text(None, to="de", engine="pseudo")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a pyarrow.Table, not dict"):
        hymt.translate_table({"title": ["x"]}, columns=["title"], to="de", engine="pseudo")  # type: ignore[arg-type]


def test_a_keyboard_interrupt_raised_in_the_run_ends_it_as_ctrl_c_does(tmp_path: Path) -> None:
    """A KeyboardInterrupt that no signal handler made (a listener's, a thread's stop) ends the run
    as SIGINT does: `hymt.Interrupted` with the report, the report file written, nothing half-written.
    (It went through bare: no report, no report file.)"""

    class Stop(hymt.ProgressEvents):
        def file_done(self, output: str | None = None) -> None:
            raise KeyboardInterrupt

    folder, report_file = _folder(tmp_path), tmp_path / "report.json"
    with pytest.raises(hymt.Interrupted) as caught:
        hymt.translate_files(
            folder,
            to="de",
            out=tmp_path / "out",
            engine="pseudo",
            no_cache=True,
            progress=Stop(),
            report=report_file,
        )
    report = caught.value.report
    assert isinstance(report, hymt.RunReport) and report.status == "interrupted" and report.signal == "SIGINT"
    assert json.loads(report_file.read_text(encoding="utf-8"))["files_ok"] == report.files_ok == 1
    assert [p.name for p in (tmp_path / "out" / "de").iterdir() if p.suffix == ".md"] == ["page-00.md"]
