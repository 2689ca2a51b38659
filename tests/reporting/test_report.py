"""The --report file is valid UTF-8 JSON for any file name, and keeps non-UTF-8 names losslessly."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import unquote_to_bytes

import pytest
from clirun import hymt

from hymt_cli.reporting.report import FileReport, RunReport, SegmentProblem, unicode_text


def _non_utf8_file(folder: Path, name: bytes, content: bytes) -> Path:
    raw = os.path.join(os.fsencode(folder), name)
    try:
        with open(raw, "wb") as handle:
            handle.write(content)
    except OSError as exc:  # e.g. a file system that only takes UTF-8 names
        pytest.skip(f"this file system refuses the name {name!r}: {exc}")
    return Path(os.fsdecode(raw))


def test_report_of_a_file_whose_name_is_not_utf8(tmp_path: Path) -> None:
    doc = _non_utf8_file(tmp_path, b"caf\xff 100%.txt", b"Hello world.\n\nSecond paragraph.\n")
    report = tmp_path / "report.json"
    result = hymt(
        "translate", str(doc), "--to", "fr", "--engine", "identity", "--no-cache", "--report", str(report)
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(report.read_bytes().decode("utf-8"))  # strict UTF-8, then strict JSON
    [file] = data["files"]
    assert file["status"] == "ok" and file["segments"] == 2
    assert file["input"] == os.fsdecode(os.fsencode(doc)).replace("\udcff", "\\xff")
    assert unquote_to_bytes(file["input_raw"]) == os.fsencode(doc)
    output = os.fsencode(tmp_path) + b"/caf\xff 100%.fr.txt"
    assert unquote_to_bytes(file["output_raw"]) == output
    assert Path(os.fsdecode(output)).read_bytes() == b"Hello world.\n\nSecond paragraph.\n"


def test_valid_names_are_written_as_they_are() -> None:
    report = RunReport("identity", None, files=[FileReport("docs/100% é.txt", "out/fr/100% é.txt", "fr")])
    [file] = report.to_json()["files"]
    assert file["input"] == "docs/100% é.txt" and file["output"] == "out/fr/100% é.txt"
    assert "input_raw" not in file and "output_raw" not in file


def test_every_string_of_the_report_is_unicode(tmp_path: Path) -> None:
    name = os.fsdecode(b"dir\xe9/f\xff.txt")
    failed = FileReport(
        name, None, None, "failed", f"{name}: cannot read", problems=[SegmentProblem(3, "odd \udc80 byte")]
    )
    report = RunReport("identity", None, files=[failed])
    path = tmp_path / "r.json"
    report.write(path)
    data = json.loads(path.read_bytes().decode("utf-8"))
    [file] = data["files"]
    assert file["input"] == "dir\\xe9/f\\xff.txt" and file["error"] == "dir\\xe9/f\\xff.txt: cannot read"
    assert file["problems"] == [{"segment": 3, "problem": "odd \\x80 byte"}]
    assert unquote_to_bytes(file["input_raw"]) == b"dir\xe9/f\xff.txt" and "output_raw" not in file


def test_unicode_text_spells_out_lone_surrogates_only() -> None:
    assert unicode_text("plain ✓ text") == "plain ✓ text"
    assert unicode_text("a\udcffb\ud800") == "a\\xffb\\ud800"
