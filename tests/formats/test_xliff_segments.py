"""XLIFF 1.2 `<mrk>` in targets: a unit whose `<seg-source>` cuts the source into
`<mrk mtype="seg" mid="n">` segments (what Okapi and Trados write) gets a target with the same
segments, each `mid` around its translation, as the specification asks; inline `<mrk>`
(`term`, `protected`) stays in the target as in the source."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from engines import STRING_ATTACKS, StringAttack
from pipelines import write
from resource_checks import CORPUS, translate

NS = "{urn:oasis:names:tc:xliff:document:1.2}"
SAP = CORPUS / "xliff" / "sap-almost-everything-1.2-strict.xlf"
OKAPI = """\
<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="help.html" datatype="html" source-language="en" target-language="de">
    <body>
      <trans-unit id="1">
        <source>Open the <mrk mtype="term">print queue</mrk>. Then press <g id="1">Start</g>.</source>
        <seg-source><mrk mtype="seg" mid="0">Open the <mrk mtype="term">print queue</mrk>.</mrk> \
<mrk mtype="seg" mid="1">Then press <g id="1">Start</g>.</mrk></seg-source>
      </trans-unit>
      <trans-unit id="2">
        <source>Hello <mrk mtype="protected">ACME</mrk> world</source>
      </trans-unit>
    </body>
  </file>
</xliff>
"""


def _letters(path: Path, out: Path) -> tuple[ET.Element, str]:
    report, outputs = translate([path], StringAttack(STRING_ATTACKS["letters"]), out, "de")
    assert report.files_failed == 0, [f.error for f in report.files]
    return ET.parse(outputs[path]).getroot(), outputs[path].read_text(encoding="utf-8")


def _unit(root: ET.Element, unit_id: str) -> ET.Element:
    [unit] = [u for u in root.iter(f"{NS}trans-unit") if u.get("id") == unit_id]
    return unit


def _segments(element: ET.Element) -> list[tuple[str | None, str]]:
    return [
        (m.get("mid"), "".join(m.itertext())) for m in element.iter(f"{NS}mrk") if m.get("mtype") == "seg"
    ]


def test_targets_repeat_the_seg_source_segments_and_inline_marks(tmp_path: Path) -> None:
    path = write(tmp_path, "help.de.xlf", OKAPI)
    root, _ = _letters(path, tmp_path / "out")
    target = _unit(root, "1").find(f"{NS}target")
    assert target is not None
    assert _segments(target) == [("0", "Bcra gur cevag dhrhr."), ("1", "Gura cerff Fgneg.")]
    assert [m.get("mtype") for m in target.iter(f"{NS}mrk")] == ["seg", "term", "seg"]
    assert [g.get("id") for g in target.iter(f"{NS}g")] == ["1"]
    protected = _unit(root, "2").find(f"{NS}target")
    assert protected is not None
    assert ET.tostring(protected, encoding="unicode").count('<ns0:mrk mtype="protected">ACME</ns0:mrk>') == 1


@pytest.mark.skipif(not SAP.is_file(), reason="run scripts/gather_corpus.py")
def test_sap_segmented_units_get_segmented_targets(tmp_path: Path) -> None:
    root, text = _letters(SAP, tmp_path / "out")
    for unit_id in ("_1_ski_355", "_1_ski_401"):
        target = _unit(root, unit_id).find(f"{NS}target")
        assert target is not None
        assert _segments(target) == [("1", "Svefg fragrapr."), ("2", "Frpbaq  fragrapr.")]
    assert len(re.findall(r'<mrk mtype="seg" mid="1">', text)) == 2 + 6  # 6 in the source
