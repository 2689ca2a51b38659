"""PowerPoint: slides, notes and tables translated and placed; a text box that does not fit its
text gets a font scale; layouts' prompts stay; right-to-left and East-Asian targets. The inputs
are made with python-pptx (an oracle here: hymt never writes with it)."""

from __future__ import annotations

import re
from pathlib import Path

import pptx
from ooxml_checks import members, same_members, without_languages
from pipelines import translate_files
from pptx.util import Inches

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats import format_for_path
from hymt_cli.inputs.sources import SourceFile


def _deck(path: Path) -> Path:
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Results of the year"
    body = slide.placeholders[1].text_frame
    body.text = "Revenue grew in every region"
    run = body.paragraphs[0].add_run()
    run.text = " and costs fell"
    run.font.bold = True
    box = slide.shapes.add_textbox(Inches(1), Inches(5), Inches(3), Inches(0.5))
    box.text_frame.text = "A box whose text must fit"
    table = slide.shapes.add_table(2, 2, Inches(1), Inches(6), Inches(4), Inches(1)).table
    table.cell(0, 0).text = "Region"
    table.cell(1, 0).text = "North"
    slide.notes_slide.notes_text_frame.text = "Say thank you to the team."
    deck.save(str(path))
    return path


def _placed(path: Path) -> dict[str, str]:
    fmt = format_for_path(path)
    assert fmt is not None
    units = fmt.open(SourceFile(path, Path(path.name), fmt)).units()
    return {s.text: u.labels[s.id] for u in units for s in u.segments}


def test_slides_notes_and_tables_are_segments_with_their_places(tmp_path: Path) -> None:
    placed = _placed(_deck(tmp_path / "deck.pptx"))
    assert placed["Results of the year"] == "slide 1"
    assert placed["Revenue grew in every region<s1> and costs fell</s1>"] == "slide 1"
    assert placed["Region"] == placed["North"] == "slide 1 table"
    assert placed["Say thank you to the team."] == "slide 1 notes"
    assert not any("Click to edit" in text for text in placed)  # a layout's prompts are never shown


def test_pseudo_output_opens_and_a_box_that_does_not_fit_gets_a_font_scale(tmp_path: Path) -> None:
    path = _deck(tmp_path / "deck.pptx")
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "out", lang="de")
    deck = pptx.Presentation(str(outputs[path]))
    slide = deck.slides[0]
    assert slide.shapes.title.text.startswith("⟦Ŕéšúĺţš")
    assert slide.notes_slide.notes_text_frame.text.startswith("⟦Šáý")
    xml = members(outputs[path])["ppt/slides/slide1.xml"].decode()
    scales = re.findall(r'<a:normAutofit fontScale="(\d+)"/>', xml)
    assert scales and all(25000 <= int(s) < 100000 for s in scales)
    assert 'lang="de-DE"' in xml and 'lang="en-US"' not in xml
    layouts = [n for n in members(outputs[path]) if "slideLayouts/slideLayout" in n and n.endswith(".xml")]
    for name in layouts:  # (the prompts of placeholders stay)
        assert without_languages(members(outputs[path])[name]) == without_languages(members(path)[name])


def test_identity_writes_the_deck_back(tmp_path: Path) -> None:
    path = _deck(tmp_path / "deck.pptx")
    report, outputs = translate_files([path], IdentityEngine(), tmp_path / "out", lang="fr")
    assert same_members(path, outputs[path]) == []


def test_right_to_left_and_east_asian_targets(tmp_path: Path) -> None:
    path = _deck(tmp_path / "deck.pptx")
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "ar", lang="he")
    xml = members(outputs[path])["ppt/slides/slide1.xml"].decode()
    assert 'rtl="1"' in xml and 'lang="he-IL"' in xml
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "ko", lang="ko")
    xml = members(outputs[path])["ppt/slides/slide1.xml"].decode()
    assert '<a:ea typeface="Malgun Gothic"/>' in xml


def test_a_table_cell_that_grows_much_is_a_finding_named_by_its_place(tmp_path: Path) -> None:
    path = _deck(tmp_path / "deck.pptx")
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "out", lang="de")
    found = [(f.check, f.label) for f in report.files[0].flags]
    assert ("overflow", "slide 1 table") in found  # "Region" grows past 130% in a pseudo answer
    assert all(f.message.startswith("slide 1") for f in report.files[0].flags if f.check == "overflow")


def test_a_slide_title_is_the_context_of_the_slide(tmp_path: Path) -> None:
    path = _deck(tmp_path / "deck.pptx")
    fmt = format_for_path(path)
    assert fmt is not None
    segments = {
        s.text: s for u in fmt.open(SourceFile(path, Path(path.name), fmt)).units() for s in u.segments
    }
    assert segments["Results of the year"].role == "heading 2"
    assert segments["North"].context == "Results of the year"
