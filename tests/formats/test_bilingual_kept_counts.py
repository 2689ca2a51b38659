"""A bilingual file that already holds translations (XLIFF targets reviewed, final or approved; PO
msgstrs), written as a filled copy, counts them as kept and records them as a person's, not as
values hymt added (issue 34, item 12): the next run must never take them for its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import hymt
from merge_helpers import CORPUS

XLIFF_20 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">
  <file id="f1">
    <unit id="a"><segment state="final"><source>Hello</source><target>Hallo</target></segment></unit>
    <unit id="b"><segment state="reviewed"><source>Goodbye</source><target>Tschüss</target></segment></unit>
    <unit id="c"><segment state="translated"><source>Save</source><target>Speichern</target></segment></unit>
    <unit id="d"><segment state="initial"><source>Open</source><target>Open</target></segment></unit>
    <unit id="e"><segment><source>Close the window</source></segment></unit>
  </file>
</xliff>
"""

XLIFF_12 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" target-language="de" datatype="plaintext" original="x">
    <body>
      <trans-unit id="a" approved="yes"><source>Hello</source><target>Hallo</target></trans-unit>
      <trans-unit id="b"><source>Goodbye</source><target state="final">Tschüss</target></trans-unit>
      <trans-unit id="c"><source>Save</source><target state="signed-off">Speichern</target></trans-unit>
      <trans-unit id="d"><source>Open</source><target state="new">Open</target></trans-unit>
      <trans-unit id="e"><source>Close the window</source></trans-unit>
    </body>
  </file>
</xliff>
"""


def _entries(folder: Path, name: str) -> dict[str, str]:
    manifest = json.loads((folder / ".hymt-manifest.json").read_text())
    entries: dict[str, str] = manifest["files"][name]["entries"]
    return entries


@pytest.mark.parametrize("text", [XLIFF_20, XLIFF_12], ids=["xliff-2.0", "xliff-1.2"])
def test_reviewed_and_final_targets_of_a_filled_copy_are_kept(tmp_path: Path, text: str) -> None:
    (tmp_path / "app.xlf").write_text(text, encoding="utf-8")
    args = ("translate", "app.xlf", "--to", "de", "--engine", "pseudo", "--no-cache", "-o", "out")
    run = hymt(*args, "--report", "r.json", cwd=tmp_path, text=True)
    assert run.returncode == 0, run.stderr
    reported = json.loads((tmp_path / "r.json").read_text())["files"][0]
    keys = reported["keys"]
    assert keys["kept"] == 3 and keys["added"] == 2, keys
    output = tmp_path / reported["output"]  # (out/app.de.xlf: the layout names the language)
    entries = _entries(output.parent, output.name)
    assert sum(value.endswith(" person") for value in entries.values()) == 3
    written = output.read_text(encoding="utf-8")
    assert "<target>Hallo</target>" in written and "Tschüss" in written and "Speichern" in written

    again = hymt(*args, cwd=tmp_path, text=True)
    assert "0 added, 3 kept (a person's)" in again.stderr, again.stderr


def test_a_po_catalog_filled_as_a_copy_counts_its_translations_as_kept(tmp_path: Path) -> None:
    real = CORPUS / "po/sphinx-ru.po"
    if not real.is_file():
        pytest.skip("the corpus is not gathered (python3 scripts/gather_corpus.py)")
    import polib

    catalog = polib.pofile(str(real))
    translated = len(catalog.translated_entries())
    (tmp_path / "ru.po").write_bytes(real.read_bytes())
    run = hymt(
        "translate", "ru.po", "--to", "ru", "--engine", "pseudo", "--no-cache", "-o", "out",
        "--report", "r.json", cwd=tmp_path, text=True,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    keys = json.loads((tmp_path / "r.json").read_text())["files"][0]["keys"]
    assert keys["kept"] == translated == 767
    assert keys["added"] == len(catalog) - translated
