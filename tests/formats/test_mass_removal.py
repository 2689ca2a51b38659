"""A merge that would remove most of the values people wrote in a target, or whose source has no
keys at all, leaves the target as it is: one line names it and `--allow-mass-removal`, nothing is
sent for it, nothing is recorded (the manifest archives no value with an empty source), and
`--check` fails on it with the same line. Issue 34, item 2 (and the removal of item 1)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from clirun import hymt, pseudo_run
from pipelines import write

from hymt_cli.formats.strings.merge import MASS_REMOVAL_LEAST

TREES = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "trees"


def _android(values: dict[str, str]) -> str:
    rows = "".join(f'    <string name="{k}">{v}</string>\n' for k, v in values.items())
    return f'<?xml version="1.0" encoding="utf-8"?>\n<resources>\n{rows}</resources>\n'


def test_an_empty_source_empties_no_translation(tmp_path: Path) -> None:
    """Xcode's empty `Base.lproj/InfoPlist.strings` named as the source of `de.lproj`'s."""
    base = write(tmp_path, "Base.lproj/InfoPlist.strings", "\n")
    german = write(tmp_path, "de.lproj/InfoPlist.strings", '"CFBundleName" = "Spieler";\n')
    code, stderr, report = pseudo_run(tmp_path, str(base.relative_to(tmp_path)), "--to", "de")
    assert code == 0, stderr
    assert german.read_text() == '"CFBundleName" = "Spieler";\n'
    [line] = [ln for ln in stderr.splitlines() if "left as it is" in ln]
    assert "de.lproj/InfoPlist.strings" in line and "no keys" in line and "--allow-mass-removal" in line
    [file] = report["files"]  # type: ignore[index]
    assert file["status"] == "skipped" and file["segments"] == 0
    assert not (tmp_path / "de.lproj/.hymt-manifest.json").exists()
    check = hymt(
        "translate", "Base.lproj/InfoPlist.strings", "--to", "de", "--check", cwd=tmp_path, text=True
    )
    assert check.returncode == 5 and "left as it is" in check.stdout + check.stderr


def test_a_source_that_lost_most_keys_removes_nothing_until_allowed(tmp_path: Path) -> None:
    keys = {f"k{i}": f"Text {i}" for i in range(10)}
    write(tmp_path, "res/values/strings.xml", _android({"k0": "Text 0"}))
    german = write(tmp_path, "res/values-de/strings.xml", _android({k: f"{v} (de)" for k, v in keys.items()}))
    before = german.read_bytes()
    code, stderr, _ = pseudo_run(tmp_path, "res/values/strings.xml", "--to", "de")
    assert code == 0 and german.read_bytes() == before
    assert "merging would remove 9 of the 10 values people wrote there" in stderr
    code, stderr, report = pseudo_run(
        tmp_path, "res/values/strings.xml", "--to", "de", "--allow-mass-removal"
    )
    assert code == 0, stderr
    assert report["files"][0]["keys"]["removed"] == 9  # type: ignore[index]
    assert "k1" not in german.read_text() and "Text 0 (de)" in german.read_text()


def test_a_few_keys_the_source_lost_are_removed_as_before(tmp_path: Path) -> None:
    keys = {f"k{i}": f"Text {i}" for i in range(10)}
    write(tmp_path, "res/values/strings.xml", _android(dict(list(keys.items())[: 10 - MASS_REMOVAL_LEAST])))
    german = write(tmp_path, "res/values-de/strings.xml", _android({k: f"{v} (de)" for k, v in keys.items()}))
    code, stderr, report = pseudo_run(tmp_path, "res/values/strings.xml", "--to", "de")
    assert code == 0, stderr
    assert report["files"][0]["keys"]["removed"] == MASS_REMOVAL_LEAST  # type: ignore[index]
    assert "k9" not in german.read_text()


def test_a_variant_named_alone_removes_nothing_from_the_real_german_file(tmp_path: Path) -> None:
    """Clock's `values-en-rAU/strings.xml` (a handful of Australian strings) named as a source:
    merging it into `values-de/` would remove most of the German values; it is left as it is."""
    if not (TREES / "android-clock").is_dir():
        pytest.skip("corpus trees missing (python scripts/gather_corpus.py)")
    shutil.copytree(TREES / "android-clock", tmp_path / "clock")
    res = tmp_path / "clock/app/src/main/res"
    before = (res / "values-de/strings.xml").read_bytes()
    code, stderr, _ = pseudo_run(res, "values-en-rAU/strings.xml", "--to", "de")
    assert code == 0 and (res / "values-de/strings.xml").read_bytes() == before
    assert "values-de/strings.xml: left as it is" in stderr
    manifest = res / "values-de/.hymt-manifest.json"
    assert not manifest.exists() or "removed" not in manifest.read_text()
