"""ODF documents (.odt, .odp, .ods) through the pipeline: untouched members copied as they were,
every part a reader sees translated (body, notes, comments, text boxes, headers and footers,
master-page shapes, speaker notes, text cells, the title), nothing that must stay changed
(tracked deletions, numbers, dates and formulas in cells, sheet names, fields, link targets),
one sentence whatever spans split it, and the styles saying the target. odfpy, an independent
reader, opens every output."""

from __future__ import annotations

import io
import re
import shutil
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from odf.opendocument import load
from package_checks import all_text, assert_identity, members, parsed
from pipelines import translate_files, write

from hymt_cli.engine.base import BatchEngine, Generation, GenerationRequest
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats.package import OfficeOptions
from hymt_cli.options import OptionSet

ROOT = Path(__file__).resolve().parents[2]
OFFICE = ROOT / "samples" / "office"
SAMPLES = sorted(OFFICE.glob("*.od?"))
TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
OFFICE_NS = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
FO = "{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}"
DC = "{http://purl.org/dc/elements/1.1/}"
XLINK = "{http://www.w3.org/1999/xlink}"
PRESENTATION = "{urn:oasis:names:tc:opendocument:xmlns:presentation:1.0}"


def _translated(
    sample: Path, tmp_path: Path, lang: str = "de", engine: object = None, **options: object
) -> Path:
    report, outputs = translate_files(
        [sample],
        engine or PseudoEngine(),  # type: ignore[arg-type]
        tmp_path / "out",
        lang=lang,
        options=OptionSet([OfficeOptions(**options)]) if options else None,  # type: ignore[arg-type]
    )
    assert report.files_failed == 0, [f.error for f in report.files]
    return outputs[sample]


def _pseudo(text: str) -> bool:
    return "⟦" in text


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_identity_copies_every_member_and_says_the_target(sample: Path, tmp_path: Path) -> None:
    output = _translated(sample, tmp_path, "fr", IdentityEngine())
    assert_identity(sample, output)
    assert b'fo:language="fr" fo:country="FR"' in members(output)["styles.xml"]
    assert b"<dc:language>fr-FR</dc:language>" in members(output)["meta.xml"]


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("lang", ["de", "ar", "zh", "ja"])
def test_every_output_opens_in_odfpy(sample: Path, lang: str, tmp_path: Path) -> None:
    output = _translated(sample, tmp_path, lang)
    document = load(str(output))
    assert document.mimetype == members(sample)["mimetype"].decode()
    parsed(output)  # every XML member is well-formed


def test_a_text_document_is_translated_in_every_part_and_keeps_what_must_stay(tmp_path: Path) -> None:
    output = _translated(OFFICE / "quarterly-report.odt", tmp_path)
    parts = parsed(output)
    content, styles, meta = parts["content.xml"], parts["styles.xml"], parts["meta.xml"]
    body = content.find(f"{OFFICE_NS}body")
    assert body is not None
    for paragraph in body.iter(f"{TEXT}p"):
        inside_deletion = paragraph.text == "Deleted draft sentence."
        numbers = all_text(paragraph) == "1,250"
        assert _pseudo(all_text(paragraph)) != (inside_deletion or numbers), all_text(paragraph)
    headers = [all_text(p) for tag in ("header", "footer") for p in styles.iter(f"{STYLE}{tag}")]
    assert len(headers) == 2 and all(_pseudo(text) for text in headers)
    assert all(_pseudo(e.text or "") for e in meta.iter() if e.tag in (f"{DC}title", f"{DC}description"))
    title = next(content.iter("{urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0}title"))
    assert _pseudo(title.text or "")
    # Fields keep their computed values, links their targets, comments their authors.
    assert [all_text(e) for e in content.iter(f"{TEXT}date")] == ["May 1, 2024"]
    assert [all_text(e) for e in styles.iter(f"{TEXT}page-number")] == ["1"]
    assert [e.get(f"{XLINK}href") for e in content.iter(f"{TEXT}a")] == ["https://example.com/users"]
    assert [e.text for e in content.iter(f"{DC}creator")] == ["Mara Lind", "Mara Lind"]
    assert [all_text(e) for e in content.iter(f"{TEXT}note-citation")] == ["1"]


def test_spans_that_are_only_revision_ids_or_language_hints_are_no_tags(tmp_path: Path) -> None:
    """`shipped the new` (an rsid span) and `offline mode` (a language hint) are the sentence's
    text; `doubled` (a bold character style) and the link are tags. A translated paragraph drops
    the spans that were no formatting and keeps the others."""
    report, outputs = translate_files(
        [OFFICE / "quarterly-report.odt"], PseudoEngine(), tmp_path / "out", lang="de"
    )
    output = members(outputs[OFFICE / "quarterly-report.odt"])["content.xml"].decode()
    sentence = next(
        p for p in re.findall(r"<text:p text:style-name=\"P1\">.*?</text:p>", output) if "Strong" in p
    )
    assert 'text:style-name="T1"' not in sentence and 'text:style-name="T2"' not in sentence
    assert re.search(r'<text:span text:style-name="Strong_20_Emphasis">[^<]+</text:span>', sentence)
    assert re.search(
        r'<text:a xlink:type="simple" xlink:href="https://example.com/users">[^<]+</text:a>', sentence
    )
    assert "⟦" in sentence and "<text:note " in sentence  # the footnote stays where it was


def test_a_span_with_class_styles_is_formatting(tmp_path: Path) -> None:
    """`text:class-names` adds character styles to a span whose own style is no formatting."""
    content = members(OFFICE / "quarterly-report.odt")["content.xml"].replace(
        b'<text:span text:style-name="T1">shipped',
        b'<text:span text:style-name="T1" text:class-names="Emphasis">shipped',
    )
    source = _sample_members(OFFICE / "quarterly-report.odt")
    document = write(
        tmp_path, "classes.odt", _package([(n, content if n == "content.xml" else d) for n, d in source])
    )
    output = members(_translated(document, tmp_path))["content.xml"].decode()
    sentence = re.search(r"<text:p[^>]*>[^<]*<text:span text:style-name=\"T1\".*?</text:p>", output)
    assert sentence is not None and 'text:class-names="Emphasis">' in sentence.group()
    assert 'text:style-name="T2"' not in sentence.group()  # the language hint: gone


def test_a_presentation_translates_slides_notes_and_master_shapes_not_prompts(tmp_path: Path) -> None:
    output = _translated(OFFICE / "launch-slides.odp", tmp_path)
    parts = parsed(output)
    slides = "".join(all_text(p) for p in parts["content.xml"].iter(f"{TEXT}p"))
    assert slides.count("⟦") == 5  # title, two list items, the notes, the shape's text
    footer = next(parts["content.xml"].iter(f"{PRESENTATION}footer-decl"))
    assert _pseudo(footer.text or "") and footer.get(f"{PRESENTATION}name") == "ftr1"
    master = [all_text(p) for p in parts["styles.xml"].iter(f"{TEXT}p")]
    assert master[0] == "Click to edit the title text format" and _pseudo(master[1])
    names = [
        p.get("{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}name") for p in parts["content.xml"].iter()
    ]
    assert [n for n in names if n] == ["Welcome", "Numbers"]


def test_a_spreadsheet_translates_text_cells_only(tmp_path: Path) -> None:
    output = _translated(OFFICE / "team-budget.ods", tmp_path)
    content = parsed(output)["content.xml"]
    assert [t.get(f"{TABLE}name") for t in content.iter(f"{TABLE}table")] == ["Budget", "Notes"]
    for cell in content.iter(f"{TABLE}table-cell"):
        paragraphs = [all_text(p) for p in cell.findall(f"{TEXT}p")]
        value_type = cell.get(f"{OFFICE_NS}value-type")
        if cell.get(f"{TABLE}formula") is not None or value_type not in (None, "string"):
            assert paragraphs in (["4,200.00 €"], ["4200"], ["Over"], ["05/01/24"])
        elif paragraphs:
            assert all(_pseudo(p) for p in paragraphs), paragraphs
    formula = [
        c.get(f"{TABLE}formula") for c in content.iter(f"{TABLE}table-cell") if c.get(f"{TABLE}formula")
    ]
    assert formula == ["of:=SUM([.B2:.B4])", 'of:=IF([.B5]>4000;"Over";"OK")']
    comment = next(content.iter(f"{OFFICE_NS}annotation"))
    assert _pseudo(all_text(comment.find(f"{TEXT}p")))  # type: ignore[arg-type]
    assert [c.get(f"{OFFICE_NS}string-value") for c in content.iter(f"{TABLE}table-cell")].count("Over") == 1


def test_a_text_cells_string_value_is_translated_with_its_paragraph(tmp_path: Path) -> None:
    """LibreOffice shows `office:string-value` where a producer wrote it beside the paragraph."""
    content = (
        '<?xml version="1.0"?><office:document-content'
        ' xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
        ' xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
        ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
        '<table:table table:name="S"><table:table-row><table:table-cell office:value-type="string"'
        ' office:string-value="Fish &amp; chips"><text:p>Fish &amp; chips</text:p></table:table-cell>'
        "</table:table-row></table:table></office:spreadsheet></office:body></office:document-content>"
    )
    sheet = write(
        tmp_path,
        "menu.ods",
        _package(
            [
                ("mimetype", b"application/vnd.oasis.opendocument.spreadsheet"),
                ("content.xml", content.encode()),
            ]
        ),
    )
    cell = next(parsed(_translated(sheet, tmp_path))["content.xml"].iter(f"{TABLE}table-cell"))
    assert _pseudo(cell.get(f"{OFFICE_NS}string-value") or "") and _pseudo(all_text(cell))


def test_comments_are_left_alone_with_no_comments(tmp_path: Path) -> None:
    output = _translated(OFFICE / "team-budget.ods", tmp_path, comments=False)
    comment = next(parsed(output)["content.xml"].iter(f"{OFFICE_NS}annotation"))
    assert all_text(comment.find(f"{TEXT}p")) == "Ask for a discount."  # type: ignore[arg-type]


def _default_text_properties(output: Path) -> ET.Element:
    styles = parsed(output)["styles.xml"]
    default = next(styles.iter(f"{STYLE}default-style"))
    found = default.find(f"{STYLE}text-properties")
    assert found is not None
    return found


def test_the_styles_say_the_target_in_its_script_slot(tmp_path: Path) -> None:
    german = _default_text_properties(_translated(OFFICE / "quarterly-report.odt", tmp_path / "de", "de"))
    assert (german.get(f"{FO}language"), german.get(f"{FO}country")) == ("de", "DE")
    assert german.get(f"{STYLE}language-asian") == "zh"  # the other slots are the source's
    chinese = _default_text_properties(_translated(OFFICE / "quarterly-report.odt", tmp_path / "zh", "zh-TW"))
    assert (chinese.get(f"{STYLE}language-asian"), chinese.get(f"{STYLE}country-asian")) == ("zh", "TW")
    assert chinese.get(f"{FO}language") == "en"
    assert chinese.get(f"{STYLE}font-family-asian") == "'Microsoft JhengHei'"  # the source names none
    font = _translated(
        OFFICE / "quarterly-report.odt", tmp_path / "ja", "ja", east_asian_font="Noto Sans CJK JP"
    )
    assert _default_text_properties(font).get(f"{STYLE}font-family-asian") == "'Noto Sans CJK JP'"


def test_a_right_to_left_target_turns_pages_paragraphs_and_sheets(tmp_path: Path) -> None:
    arabic = _translated(OFFICE / "quarterly-report.odt", tmp_path / "ar", "ar")
    parts = members(arabic)
    assert b'style:writing-mode="lr-tb"' not in parts["content.xml"] + parts["styles.xml"]
    assert parts["content.xml"].count(b'style:writing-mode="rl-tb"') == 1  # P1
    assert b'style:language-complex="ar" style:country-complex="EG"' in parts["styles.xml"]
    sheet = members(_translated(OFFICE / "team-budget.ods", tmp_path / "he", "he"))["content.xml"]
    assert b'style:writing-mode="rl-tb"' in sheet and b'style:writing-mode="lr-tb"' not in sheet


def test_a_paragraph_translation_writes_spaces_tabs_and_breaks_as_odf_markup(tmp_path: Path) -> None:
    class Spacious(BatchEngine):
        def generate(self, requests: list[GenerationRequest]) -> list[Generation]:
            answers = [r.source_text.replace(" ", "   ", 1) + "\tend\nnext & <more>" for r in requests]
            return [Generation(text, "stop", 3) for text in answers]

    output = members(_translated(OFFICE / "quarterly-report.odt", tmp_path, "de", Spacious()))["content.xml"]
    root = ET.fromstring(output)
    heading = next(root.iter(f"{TEXT}h"))
    assert [child.tag.rpartition("}")[2] for child in heading] == ["s", "tab", "line-break"]
    assert heading.find(f"{TEXT}s").get(f"{TEXT}c") == "2"  # type: ignore[union-attr]
    assert all_text(heading).endswith("next & <more>")


# -- bad input ----------------------------------------------------------------------------------


def _package(members_: list[tuple[str, bytes]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members_:
            archive.writestr(zipfile.ZipInfo(name, (2024, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _sample_members(sample: Path) -> list[tuple[str, bytes]]:
    return list(members(sample).items())


def test_bad_inputs_fail_alone_with_one_line_and_leave_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(OFFICE / "quarterly-report.odt", folder / "good.odt")
    good = _sample_members(OFFICE / "quarterly-report.odt")
    manifest = dict(good)["META-INF/manifest.xml"].replace(
        b'manifest:media-type="text/xml"/>',
        b'manifest:media-type="text/xml">'
        b'<manifest:encryption-data manifest:checksum="x"/></manifest:file-entry>',
        1,
    )
    laughs = b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "lol"><!ENTITY b "&a;&a;">]><d>&b;</d>'
    whole = (OFFICE / "quarterly-report.odt").read_bytes()
    bad = {
        "encrypted.odt": _package([(n, manifest if n == "META-INF/manifest.xml" else d) for n, d in good]),
        "entities.odt": _package([(n, laughs if n == "content.xml" else d) for n, d in good]),
        "escape.ods": _package([*good, ("../../evil.xml", b"<x/>")]),
        "bomb.odp": _package([*good, ("big.xml", b"<x>" + b" " * (40 << 20) + b"</x>")]),
        "truncated.odt": whole[: len(whole) // 2],
    }
    for name, data in bad.items():
        write(folder, name, data)
    report, outputs = translate_files(sorted(folder.iterdir()), PseudoEngine(), tmp_path / "out", lang="de")
    errors = {Path(f.input).name: f.error for f in report.files if f.error}
    assert sorted(errors) == sorted(bad)
    assert "encrypted" in errors["encrypted.odt"] and "DTD" in errors["entities.odt"]
    assert "outside the package" in errors["escape.ods"] and "zip bomb" in errors["bomb.odp"]
    assert "truncated" in errors["truncated.odt"]
    assert all("\n" not in e for e in errors.values())
    written = sorted(
        p.name for p in (tmp_path / "out").rglob("*") if p.is_file() and p.name != ".hymt-manifest.json"
    )
    assert written == ["good.odt"], written
    load(str(outputs[folder / "good.odt"]))
