"""`--check --report FILE` writes its report (issue 34): every output looked at, with its state
and why, a catalog's key counts, and the exit code; nothing else is written."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from clirun import ROOT, hymt

ARGS = ("translate", "locales/en", "--to", "de,fr,ja", "--engine", "pseudo", "--no-cache")


def test_check_writes_its_report_with_each_outputs_state(tmp_path: Path) -> None:
    source = tmp_path / "locales/en/app.json"
    source.parent.mkdir(parents=True)
    source.write_text(json.dumps({"title": "Welcome", "save": "Save the file"}, indent=2) + "\n")
    de = tmp_path / "locales/de/app.json"
    de.parent.mkdir(parents=True)
    de.write_text('{\n  "title": "Willkommen"\n}\n')  # a person's start
    assert hymt(*ARGS[:3], "de,ja", *ARGS[4:], cwd=tmp_path, text=True).returncode == 0
    source.write_text(json.dumps({"title": "Welcome", "save": "Save", "new": "A new key"}, indent=2) + "\n")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))

    check = hymt(*ARGS, "--check", "--report", "check.json", cwd=tmp_path, text=True)

    assert check.returncode == 5, check.stderr
    report = json.loads((tmp_path / "check.json").read_text())
    jsonschema.validate(report, json.loads((ROOT / "schemas" / "report-3.schema.json").read_text()))
    assert report["schema"] == "hymt.report/3" and report["check"] is True
    assert report["exit_code"] == 5 and report["status"] == "failed"
    assert report["engine_requests"] == 0
    files = {Path(f["output"]).parts[-2]: f for f in report["files"]}
    assert set(files) == {"de", "fr", "ja"}
    assert files["fr"]["check"] == "missing"
    assert files["de"]["check"] == "stale" and files["de"]["reason"] == "keys: 1 missing, 1 stale"
    assert files["de"]["keys"]["kept"] == 1 and files["de"]["keys"]["added"] == 1
    assert files["ja"]["check"] == "stale"
    after = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    assert after == sorted([*before, Path("check.json")])  # the report, nothing else

    assert hymt(*ARGS[:3], "de,fr,ja", *ARGS[4:], cwd=tmp_path, text=True).returncode == 0
    clean = hymt(*ARGS, "--check", "--report", "check.json", cwd=tmp_path, text=True)
    assert clean.returncode == 0, clean.stderr
    report = json.loads((tmp_path / "check.json").read_text())
    assert report["exit_code"] == 0 and report["status"] == "ok"
    assert {f["check"] for f in report["files"]} == {"up-to-date"}
    assert len(report["files"]) == 3
