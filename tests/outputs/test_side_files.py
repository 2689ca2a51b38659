"""A report, review page, prompt file, log or memory named where the run reads or writes a
translation is refused before anything is written: `--report a.txt` used to replace the input
a.txt with the JSON report (inputs are never overwritten)."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import hymt

import hymt_cli as api
from hymt_cli.errors import ExitCode, UsageError


def _doc(tmp_path: Path) -> Path:
    doc = tmp_path / "a.txt"
    doc.write_text("Hello world.\n\nA second paragraph.\n", encoding="utf-8")
    return doc


@pytest.mark.parametrize(
    ("flag", "name", "problem"),
    [
        ("--report", "a.txt", "is an input of this run"),
        ("--review", "a.txt", "is an input of this run"),
        ("--prompts-out", "a.txt", "is an input of this run"),
        ("--log-file", "a.txt", "is an input of this run"),
        ("--cache", "a.txt", "is an input of this run"),
        ("--report", "a.de.txt", "is the output of"),
        ("--review", "./sub/../a.de.txt", "is the output of"),
    ],
)
def test_a_side_file_on_an_input_or_output_is_refused(
    tmp_path: Path, flag: str, name: str, problem: str
) -> None:
    doc = _doc(tmp_path)
    (tmp_path / "sub").mkdir()
    before = doc.read_bytes()
    result = hymt(
        "translate", "a.txt", "--to", "de", "--engine", "pseudo", flag, name, cwd=tmp_path, text=True
    )
    assert result.returncode == ExitCode.USAGE, result.stderr
    assert doc.read_bytes() == before
    assert not (tmp_path / "a.de.txt").exists()  # nothing was started
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and flag in errors[0] and problem in errors[0], result.stderr


def test_two_side_files_on_one_path_and_an_api_run(tmp_path: Path) -> None:
    doc = _doc(tmp_path)
    result = hymt(
        "translate", "a.txt", "--to", "de", "--engine", "pseudo", "--report", "x", "--review", "x",
        cwd=tmp_path, text=True,
    )  # fmt: skip
    assert result.returncode == ExitCode.USAGE and "is also --report" in result.stderr
    with pytest.raises(UsageError, match="is an input of this run"):
        api.Translator(engine="pseudo", to="de", no_cache=True).files([str(doc)], report=str(doc))
    assert doc.read_text(encoding="utf-8") == "Hello world.\n\nA second paragraph.\n"
    ok = hymt("translate", "a.txt", "--to", "de", "--engine", "pseudo", "--no-cache", "--report", "r.json",
              cwd=tmp_path, text=True)  # fmt: skip
    assert ok.returncode == ExitCode.OK, ok.stderr  # a report elsewhere is fine
