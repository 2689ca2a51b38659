"""Word documents: sentences, not runs; what never changes; languages and direction; text boxes;
places; hostile packages (one error line, the rest of the folder translated)."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

from office_docs import docx, para, run, text_box
from ooxml_checks import members, same_members
from pipelines import translate_files

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats import format_for_path
from hymt_cli.formats.base import Unit
from hymt_cli.inputs.sources import SourceFile


def _units(path: Path) -> list[Unit]:
    fmt = format_for_path(path)
    assert fmt is not None
    return list(fmt.open(SourceFile(path, Path(path.name), fmt)).units())


def _segments(path: Path) -> list[str]:
    return [s.text for u in _units(path) for s in u.segments]


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_runs_split_by_revision_ids_proofing_and_language_are_one_sentence(tmp_path: Path) -> None:
    body = para(
        run("The quick ", '<w:lang w:val="en-US"/>', rsid="00A1"),
        '<w:proofErr w:type="spellStart"/>',
        run("brwn", rsid="00B2"),
        '<w:proofErr w:type="spellEnd"/>',
        run(" fox ", '<w:noProof/><w:lang w:val="en-GB"/>'),
        run("jumps", "<w:b/>"),
        run(" over the dog.", '<w:rFonts w:hint="eastAsia"/>'),
    )
    path = _write(tmp_path, "a.docx", docx(body))
    assert _segments(path) == ["The quick brwn fox <s1>jumps</s1> over the dog."]


def test_formatting_links_fields_and_notes_are_tags_and_never_change(tmp_path: Path) -> None:
    body = para(
        '<w:bookmarkStart w:id="0" w:name="intro"/>',
        run("See "),
        '<w:hyperlink r:id="rIdL"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr>'
        "<w:t>the site</w:t></w:r></w:hyperlink>",
        run(" on page "),
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r>'
        '<w:r><w:instrText xml:space="preserve"> PAGEREF intro </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>2</w:t></w:r>'
        '<w:r><w:fldChar w:fldCharType="end"/></w:r>',
        run(" and the note"),
        '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/></w:r>',
        run("."),
        '<w:del w:id="7" w:author="A"><w:r><w:delText>old words</w:delText></w:r></w:del>',
        '<w:ins w:id="8" w:author="A"><w:r><w:t xml:space="preserve"> New words.</w:t></w:r></w:ins>',
        '<w:bookmarkEnd w:id="0"/>',
    )
    notes = (
        '<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r>'
        '<w:r><w:t xml:space="preserve"> A note.</w:t></w:r></w:p></w:footnote>'
    )
    path = _write(tmp_path, "b.docx", docx(body, footnotes=notes))
    assert _segments(path) == [
        "See <s1>the site</s1> on page <s2>2</s2> and the note<s3/>.<s4/><s5> New words.</s5>",
        "A note.",
    ]
    labels = [label for u in _units(path) for label in u.labels.values()]
    assert labels == ["body", "footnote 1"]
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "out", lang="de")
    document = members(outputs[path])["word/document.xml"].decode()
    for fixed in (
        '<w:bookmarkStart w:id="0" w:name="intro"/>',
        '<w:hyperlink r:id="rIdL">',
        '<w:instrText xml:space="preserve"> PAGEREF intro </w:instrText>',
        "<w:delText>old words</w:delText>",
        '<w:footnoteReference w:id="1"/>',
        '<w:bookmarkEnd w:id="0"/>',
    ):
        assert fixed in document
    assert "New words" not in document and "Ñéŵ ŵóŕđš" in document  # inserted text is translated
    import docx as python_docx

    assert "⟦" in python_docx.Document(str(outputs[path])).paragraphs[0].text


def test_identity_is_byte_faithful_but_for_language_attributes(tmp_path: Path) -> None:
    body = para(run("Hello", '<w:lang w:val="en-US"/>'), run(" world", "<w:i/>"))
    path = _write(tmp_path, "c.docx", docx(body, extra={"word/media/image1.png": bytes(range(256)) * 8}))
    report, outputs = translate_files([path], IdentityEngine(), tmp_path / "out", lang="fr")
    assert same_members(path, outputs[path]) == []
    before, after = zipfile.ZipFile(path), zipfile.ZipFile(outputs[path])
    assert after.read("word/document.xml").decode().count('w:lang w:val="fr-FR"') == 1
    for name in ("[Content_Types].xml", "_rels/.rels", "word/media/image1.png"):  # copied as they were
        assert before.getinfo(name).CRC == after.getinfo(name).CRC


def test_a_right_to_left_target_reads_right_to_left(tmp_path: Path) -> None:
    body = para(
        run("Hello ", '<w:lang w:val="en-US"/>'),
        run("world", "<w:b/>"),
        props='<w:pPr><w:jc w:val="left"/></w:pPr>',
    )
    path = _write(tmp_path, "d.docx", docx(body))
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "out", lang="ar")
    document = members(outputs[path])["word/document.xml"].decode()
    assert '<w:pPr><w:bidi/><w:jc w:val="left"/></w:pPr>' in document  # in schema order
    assert re.search(r"<w:rPr><w:b/><w:rtl/></w:rPr>", document)
    assert 'w:val="ar-EG"' in document and 'w:bidi="ar-EG"' in document


def test_an_east_asian_target_gets_an_east_asian_font(tmp_path: Path) -> None:
    styles = (
        '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/>'
        '<w:lang w:val="en-US"/></w:rPr></w:rPrDefault></w:docDefaults>'
    )
    body = para(run("Hello ", '<w:rFonts w:ascii="Arial" w:hAnsi="Arial"/>'), run("world", "<w:b/>"))
    path = _write(tmp_path, "e.docx", docx(body, styles=styles))
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "out", lang="ja")
    parts = members(outputs[path])
    assert (
        '<w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="Yu Gothic"/>'
        in parts["word/styles.xml"].decode()
    )
    assert 'w:eastAsia="ja-JP"' in parts["word/styles.xml"].decode()
    assert 'w:eastAsia="Yu Gothic"' in parts["word/document.xml"].decode()


def test_both_copies_of_a_text_box_say_the_same(tmp_path: Path) -> None:
    box = text_box(para(run("Inside the box")), para(run("Second line", "<w:b/>")))
    path = _write(tmp_path, "f.docx", docx(para(run("Before "), box, run("after."))))
    segments = _segments(path)
    assert segments == ["Before <s1/>after.", "Inside the box", "<s1>Second line</s1>"] or segments == [
        "Before <s1/>after.",
        "Inside the box",
        "Second line",
    ]
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "out", lang="de")
    document = members(outputs[path])["word/document.xml"].decode()
    choice, fallback = document.split("<mc:Fallback>")
    assert re.findall(r"<w:t[^>]*>([^<]*)", choice)[1:3] == re.findall(r"<w:t[^>]*>([^<]*)", fallback)[:2]
    assert document.count("Ĩñšíđé") == 0 and document.count("Íñšíđé ţĥé ƀóẋ") == 2


def test_comments_are_translated_unless_left(tmp_path: Path) -> None:
    comments = '<w:comment w:id="3" w:author="Ann"><w:p><w:r><w:t>Check this.</w:t></w:r></w:p></w:comment>'
    path = _write(tmp_path, "g.docx", docx(para(run("Body text.")), comments=comments))
    assert [label for u in _units(path) for label in u.labels.values()] == ["body", "comment 3"]
    from hymt_cli.formats.ooxml import DocxFormat, OfficeOptions

    fmt = DocxFormat(OfficeOptions(comments=False))
    units = list(fmt.open(SourceFile(path, Path(path.name), fmt)).units())
    assert [s.text for u in units for s in u.segments] == ["Body text."]


def test_hostile_packages_fail_alone_with_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    good = _write(folder, "good.docx", docx(para(run("Fine text."))))
    laughs = b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><w:document/>'
    bad = {
        "bomb.docx": docx(para(run("x")), extra={"word/media/huge.bin": b"\0" * (40 << 20)}),
        "dtd.docx": docx(para(run("x")), extra={"customXml/item1.xml": laughs}),
        "climb.docx": docx(para(run("x")), extra={"../../evil.xml": b"<x/>"}),
        "encrypted.docx": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
        + b"\0" * 600
        + "EncryptedPackage".encode("utf-16-le"),
        "truncated.docx": docx(para(run("x")))[:900],
        "notword.docx": b"just some text",
    }
    for name, data in bad.items():
        _write(folder, name, data)
    report, outputs = translate_files([folder], PseudoEngine(), tmp_path / "out", lang="de")
    by_name = {Path(f.input).name: f for f in report.files}
    assert by_name["good.docx"].status == "ok"
    assert outputs[good].is_file()
    expected = {
        "bomb.docx": "zip bomb",
        "dtd.docx": "DTD",
        "climb.docx": "outside the package",
        "encrypted.docx": "encrypted",
        "truncated.docx": "truncated",
        "notword.docx": "not a zip package",
    }
    for name, words in expected.items():
        error = by_name[name].error or ""
        assert by_name[name].status == "failed" and words in error and "\n" not in error, (name, error)
        assert name in error  # the line names the file
    written = {p.name for p in (tmp_path / "out").rglob("*") if p.is_file()}
    assert written <= {"good.docx", ".hymt-manifest.json", "hymt-manifest.json"} | {
        n for n in written if n.startswith(".")
    }
    assert not any(n in written for n in expected)


def test_a_long_document_is_read_in_pieces(tmp_path: Path) -> None:
    body = "".join(
        para(run(f"Paragraph number {i} says "), run("something", "<w:b/>"), run(".")) for i in range(4000)
    )
    path = _write(tmp_path, "h.docx", docx(body))
    units = _units(path)
    assert len(units) > 2 and sum(len(u.segments) for u in units) == 4000
    report, outputs = translate_files([path], IdentityEngine(), tmp_path / "out", lang="fr")
    assert same_members(path, outputs[path]) == []


def test_a_row_of_exact_height_whose_text_grows_is_a_finding(tmp_path: Path) -> None:
    row = (
        '<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:trPr><w:trHeight w:val="300" '
        'w:hRule="exact"/></w:trPr><w:tc><w:p><w:r><w:t>Total sales</w:t></w:r></w:p></w:tc></w:tr>'
        "<w:tr><w:tc><w:p><w:r><w:t>Free height</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    )
    path = _write(tmp_path, "i.docx", docx(row + para(run("After."))))
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "out", lang="de")
    flags = [f for f in report.files[0].flags if f.check == "overflow"]
    assert [(f.label, f.source) for f in flags] == [("table", "Total sales")]
    assert "exact height" in flags[0].message


def test_a_macro_enabled_document_keeps_its_macros_as_they_were(tmp_path: Path) -> None:
    macros = bytes(range(256)) * 64
    data = docx(
        para(run("Run the macro.")),
        extra={"word/vbaProject.bin": macros},
        main_type="application/vnd.ms-word.document.macroEnabled.main+xml",
    )
    path = _write(tmp_path, "m.docm", data)
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "out", lang="de")
    assert outputs[path].name == "m.docm" and outputs[path].parent.name == "de"
    before, after = zipfile.ZipFile(path), zipfile.ZipFile(outputs[path])
    assert after.read("word/vbaProject.bin") == macros
    for name in ("word/vbaProject.bin", "[Content_Types].xml"):  # the same packed bytes and header
        assert before.getinfo(name).header_offset is not None
        old, new = before.getinfo(name), after.getinfo(name)
        assert (old.CRC, old.compress_size, old.compress_type) == (
            new.CRC,
            new.compress_size,
            new.compress_type,
        )
    assert "Ŕúñ" in after.read("word/document.xml").decode()


def test_headings_are_the_context_of_the_paragraphs_below_them(tmp_path: Path) -> None:
    styles = (
        '<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Titel"><w:name w:val="Title"/></w:style>'
    )
    body = (
        para(run("Annual report"), props='<w:pPr><w:pStyle w:val="Titel"/></w:pPr>')
        + para(run("Sales"), props='<w:pPr><w:pStyle w:val="berschrift1"/></w:pPr>')
        + para(run("Sales grew."))
    )
    path = _write(tmp_path, "j.docx", docx(body, styles=styles))
    segments = [s for u in _units(path) for s in u.segments]
    assert [s.role for s in segments] == ["document title", "heading 1", "body"]
    assert segments[2].context == "Annual report\nSales"
