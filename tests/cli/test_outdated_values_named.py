"""A person's values whose source changed since are named, not only counted (issue 34, item 8):
key, the source they were written for, the source now and the value kept, with -v, in the JSON
report (run and --check) and on the review page; a placeholder change (`%@x` in the source then,
`%.2fx` now, `%@x` still in the translation) is flagged as such, also without -v.

On iina's real Localizable.strings (Base and a person's de)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from clirun import hymt
from merge_helpers import CORPUS

SOURCE = "iina/Base.lproj/Localizable.strings"
ARGS = ("translate", SOURCE, "--to", "de", "--engine", "pseudo", "--no-cache")


def _project(tmp_path: Path) -> Path:
    base = CORPUS / "strings/iina-Base-Localizable.strings"
    de = CORPUS / "strings/iina-de-Localizable.strings"
    if not (base.is_file() and de.is_file()):
        pytest.skip("the corpus is not gathered (python3 scripts/gather_corpus.py)")
    for real, at in ((base, SOURCE), (de, "iina/de.lproj/Localizable.strings")):
        (tmp_path / at).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(real, tmp_path / at)
    first = hymt(*ARGS, cwd=tmp_path, text=True)  # the person's values, first seen
    assert first.returncode == 0, first.stderr
    source = tmp_path / SOURCE
    text = source.read_text(encoding="utf-8")
    text = text.replace('"osd.speed" = "Speed: %@x";', '"osd.speed" = "Speed: %.2fx";')
    text = text.replace('"osd.aspect" = "Aspect Ratio: %@";', '"osd.aspect" = "Aspect ratio: %@";')
    source.write_text(text, encoding="utf-8")
    return tmp_path


def _named(outdated: list[dict[str, object]]) -> dict[object, dict[str, object]]:
    return {value["key"]: value for value in outdated}


def test_outdated_values_are_named_in_check_run_report_and_review(tmp_path: Path) -> None:
    project = _project(tmp_path)

    check = hymt(*ARGS, "--check", cwd=project, text=True)
    assert check.returncode == 0, check.stderr  # kept values are notes, not staleness
    assert "2 value(s) a person wrote whose source changed since (kept) (-v names them)" in check.stderr
    assert re.search(r"warning: .*/osd\.speed: placeholders differ: the source has %\.2f", check.stderr)
    assert "osd.aspect" not in check.stderr  # named with -v only

    check = hymt(*ARGS, "--check", "-v", "--report", "check.json", cwd=project, text=True)
    assert (
        '  outdated /osd.aspect: the source was "Aspect Ratio: %@", is now "Aspect ratio: %@"; '
        'kept "Seitenverhältnis: %@"' in check.stderr
    ), check.stderr
    report = json.loads((project / "check.json").read_text())
    named = _named(report["files"][0]["outdated"])
    assert named["/osd.speed"] == {
        "key": "/osd.speed",
        "old_source": "Speed: %@x",
        "source": "Speed: %.2fx",
        "value": "Speed: %@x",
        "format_change": "placeholders differ: the source has %.2f; the translation has %@",
    }
    assert named["/osd.aspect"]["format_change"] is None

    run = hymt(*ARGS, "-v", "--report", "run.json", "--review", "review.html", cwd=project, text=True)
    assert run.returncode == 0, run.stderr
    assert "; 2 kept whose source changed since" in run.stderr
    assert '  outdated /osd.speed: the source was "Speed: %@x", is now "Speed: %.2fx"' in run.stderr
    file = json.loads((project / "run.json").read_text())["files"][0]
    assert file["keys"]["outdated"] == 2 and set(_named(file["outdated"])) == {"/osd.speed", "/osd.aspect"}
    page = (project / "review.html").read_text(encoding="utf-8")
    data = json.loads(
        re.search(r'<script type="application/json" id="hymt-run">(.*?)</script>', page, re.S)[1]
    )
    assert set(_named(data["files"][0]["outdated"])) == {"/osd.speed", "/osd.aspect"}
    assert 'id="outdated"' in page


def test_the_source_a_value_was_first_seen_with_is_kept_while_it_stays_outdated(tmp_path: Path) -> None:
    project = _project(tmp_path)
    for _ in range(2):  # runs in between keep the source the person's value was written for
        assert hymt(*ARGS, cwd=project, text=True).returncode == 0
    report = hymt(*ARGS, "--check", "--report", "check.json", cwd=project, text=True)
    assert report.returncode == 0
    named = _named(json.loads((project / "check.json").read_text())["files"][0]["outdated"])
    assert named["/osd.speed"]["old_source"] == "Speed: %@x"
