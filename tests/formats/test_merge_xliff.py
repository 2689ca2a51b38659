"""Merging a source XLIFF into the target file that exists (issue 26): units keyed by file and
id; a unit the target lacks is copied in with its target, after its predecessor, indented as
the target indents; a person's target is kept byte for byte (whatever its state: Angular teams
leave translated units `new`), a placeholder target (a state that still needs translating and
the source repeated) is translated; hymt's target whose source changed is translated again and
takes the new `<source>`; a unit the source lost leaves (kept with keep_removed). ElementTree
reads every result."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from engines import CountingEngine
from merge_helpers import translate
from pipelines import make_pipeline, sources_of
from strings_helpers import read_pairs

from hymt_cli.engine.pseudo import PseudoEngine

SOURCE12 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="open" datatype="html">
        <source>Open the file</source>
        <context-group purpose="location">
          <context context-type="sourcefile">app.html</context>
        </context-group>
      </trans-unit>
      <trans-unit id="save" datatype="html">
        <source>Save <x id="INTERPOLATION" equiv-text="{{ name }}"/> now</source>
      </trans-unit>
      <trans-unit id="close" datatype="html">
        <source>Close the window</source>
      </trans-unit>
      <trans-unit id="code" datatype="html">
        <source><x id="INTERPOLATION"/></source>
      </trans-unit>
    </body>
  </file>
</xliff>
"""

PERSON_UNIT = """<trans-unit id="open" datatype="html">
          <source>Open the file</source>
          <target state="new">Die Datei öffnen</target>
          <note from="translator">Checked.</note>
        </trans-unit>"""

TARGET12 = f"""<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
    <file source-language="en" target-language="de" datatype="plaintext" original="ng2.template">
      <body>
        {PERSON_UNIT}
        <trans-unit id="close" datatype="html">
          <source>Close the window</source>
          <target state="new">Close the window</target>
        </trans-unit>
        <trans-unit id="gone" datatype="html">
          <source>Gone</source>
          <target>Weg</target>
        </trans-unit>
      </body>
    </file>
</xliff>
"""


def _project(tmp_path: Path, source: str = SOURCE12, target: str | None = TARGET12) -> tuple[Path, Path]:
    folder = tmp_path / "i18n"
    folder.mkdir()
    src, out = folder / "messages.xlf", folder / "messages.de.xlf"
    src.write_text(source, encoding="utf-8")
    if target is not None:
        out.write_text(target, encoding="utf-8")
    return src, out


def _pairs(path: Path) -> dict[str, object]:
    return dict(read_pairs("xliff", path.read_bytes()))


def _units(path: Path) -> list[str]:
    root = ET.fromstring(path.read_bytes())
    return [u.get("id", "") for u in root.iter() if u.tag.endswith("}trans-unit") or u.tag.endswith("}unit")]


def test_units_merge_into_a_person_s_file(tmp_path: Path) -> None:
    src, out = _project(tmp_path)
    run = translate(src, "de", pseudo=True)
    text = out.read_text(encoding="utf-8")
    assert _units(out) == ["open", "save", "close", "code"]  # the source's order; `gone` left
    assert PERSON_UNIT in text  # a person's unit, state `new` and note, byte for byte
    pairs = _pairs(out)
    assert pairs["/open"] == "Die Datei öffnen"
    assert pairs["/close"] not in ("", "Close the window")  # a placeholder: translated
    save = next(u for u in ET.fromstring(out.read_bytes()).iter() if u.get("id") == "save")
    target = next(c for c in save if c.tag.endswith("}target"))
    assert target.get("state") == "translated" and target.find("{*}x") is not None
    # a new unit is indented as the target indents, after the unit before it in the source
    assert '        </trans-unit>\n        <trans-unit id="save" datatype="html">\n          <source>' in text
    assert text.startswith(TARGET12[: TARGET12.index("<body>")])  # the rest of the file stays
    assert run.report.keys is not None
    assert {k: run.report.keys[k] for k in ("added", "kept", "removed")} == {
        "added": 3,
        "kept": 1,
        "removed": 1,
    }
    assert sorted(run.requested) == ["Close the window", "Save <s1/> now"]
    again = translate(src, "de", pseudo=True)
    assert again.requested == [] and out.read_text(encoding="utf-8") == text


def test_keep_removed_leaves_a_lost_unit(tmp_path: Path) -> None:
    src, out = _project(tmp_path)
    translate(src, "de", pseudo=True, keep_removed=True)
    assert _units(out) == ["open", "save", "close", "code", "gone"] and _pairs(out)["/gone"] == "Weg"


def test_a_changed_source_sends_hymt_s_unit_again_with_its_new_source(tmp_path: Path) -> None:
    src, out = _project(tmp_path, target=None)
    translate(src, "de", pseudo=True)
    src.write_text(SOURCE12.replace("Close the window", "Close every window"), encoding="utf-8")
    run = translate(src, "de", pseudo=True)
    assert run.requested == ["Close every window"]
    assert run.report.keys is not None and run.report.keys["updated"] == 1
    close = next(u for u in ET.fromstring(out.read_bytes()).iter() if u.get("id") == "close")
    assert "".join(close.find("{*}source").itertext()) == "Close every window"  # type: ignore[union-attr]
    assert "ŵíñđóŵ" in "".join(close.find("{*}target").itertext())  # type: ignore[union-attr]


SOURCE20 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">
 <file id="f1">
  <unit id="u1">
   <segment>
    <source>Hello world</source>
   </segment>
  </unit>
  <unit id="u2">
   <segment id="s1">
    <source>First sentence.</source>
   </segment>
   <ignorable>
    <source> </source>
   </ignorable>
   <segment id="s2">
    <source>Second sentence.</source>
   </segment>
  </unit>
  <unit id="u3">
   <segment>
    <source>New text</source>
   </segment>
  </unit>
 </file>
</xliff>
"""

TARGET20 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">
 <file id="f1">
  <unit id="u1">
   <segment state="final">
    <source>Hello world</source>
    <target>Hallo Welt</target>
   </segment>
  </unit>
  <unit id="u2">
   <segment id="s1" state="translated">
    <source>First sentence.</source>
    <target>Erster Satz.</target>
   </segment>
   <ignorable>
    <source> </source>
   </ignorable>
   <segment id="s2" state="initial">
    <source>Second sentence.</source>
   </segment>
  </unit>
 </file>
</xliff>
"""


def test_xliff_2_units_and_segments_merge(tmp_path: Path) -> None:
    src, out = _project(tmp_path, SOURCE20, TARGET20)
    run = translate(src, "de", pseudo=True)
    assert sorted(run.requested) == ["New text", "Second sentence."]
    assert _units(out) == ["u1", "u2", "u3"]
    pairs = _pairs(out)
    assert pairs["/u1"] == "Hallo Welt" and pairs["/u2/s1"] == "Erster Satz."
    assert pairs["/u2/s2"] and pairs["/u3"]
    segment = next(s for s in ET.fromstring(out.read_bytes()).iter() if s.get("id") == "s2")
    assert segment.get("state") == "translated"
    assert out.read_text(encoding="utf-8").startswith(TARGET20[: TARGET20.index("<unit")])


def test_a_target_with_an_empty_body_gets_its_units(tmp_path: Path) -> None:
    empty = TARGET12[: TARGET12.index("<body>")] + "<body/>\n    </file>\n</xliff>\n"
    src, out = _project(tmp_path, target=empty)
    translate(src, "de", pseudo=True)
    assert _units(out) == ["open", "save", "close", "code"]
    assert all(_pairs(out)[f"/{u}"] for u in ("open", "save", "close"))


@pytest.mark.parametrize(
    "target",
    [
        TARGET12.replace("</body>", "</bdy>"),
        TARGET12.replace("<xliff", "<xlf", 1).replace("</xliff>", "</xlf>"),
    ],
    ids=["malformed XML", "no XLIFF"],
)
def test_a_target_that_does_not_read_is_named_and_left_as_it_is(tmp_path: Path, target: str) -> None:
    src, out = _project(tmp_path, target=target)
    engine = CountingEngine(PseudoEngine())
    report = make_pipeline(engine, to="de").run(sources_of([src]))
    [file] = report.files
    assert file.status == "failed" and file.error is not None and str(out) in file.error
    assert out.read_text(encoding="utf-8") == target and engine.requested == []
