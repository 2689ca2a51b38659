"""EPUB books through the pipeline: images, styles and fonts copied byte for byte, `mimetype`
first and stored, every page, the navigation document, the NCX and the package's title and
description translated, identifiers, manifest and spine never; the book says the target
(dc:language, lang/xml:lang, dir and page progression for a right-to-left target); ruby keeps
its base text; every XML member parses after whatever the model answers; DRM and entity
declarations are refused."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from package_checks import all_text, assert_identity, members, parsed, records
from pipelines import translate_files, write

from hymt_cli.engine.base import BatchEngine, Generation, GenerationRequest
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "samples" / "books" / "lighthouse-keeper.epub"
XHTML = "{http://www.w3.org/1999/xhtml}"
OPF = "{http://www.idpf.org/2007/opf}"
NCX = "{http://www.daisy.org/z3986/2005/ncx/}"
DC = "{http://purl.org/dc/elements/1.1/}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _translated(book: Path, tmp_path: Path, lang: str = "de", engine: BatchEngine | None = None) -> Path:
    report, outputs = translate_files([book], engine or PseudoEngine(), tmp_path / "out", lang=lang)
    assert report.files_failed == 0, [f.error for f in report.files]
    return outputs[book]


def test_identity_copies_every_member_and_says_the_target(tmp_path: Path) -> None:
    output = _translated(BOOK, tmp_path, "fr", IdentityEngine())
    assert_identity(BOOK, output)
    opf = parsed(output)["OEBPS/content.opf"]
    assert [e.text for e in opf.iter(f"{DC}language")] == ["fr"] and opf.get(XML_LANG) == "fr"


def test_every_part_is_translated_and_what_identifies_the_book_is_not(tmp_path: Path) -> None:
    output = _translated(BOOK, tmp_path)
    before, after = parsed(BOOK), parsed(output)
    assert records(output)["OEBPS/lamp.png"] == records(BOOK)["OEBPS/lamp.png"]
    assert records(output)["OEBPS/style.css"] == records(BOOK)["OEBPS/style.css"]
    opf = after["OEBPS/content.opf"]
    assert all("⟦" in (opf.find(f".//{DC}{name}").text or "") for name in ("title", "description"))  # type: ignore[union-attr]
    for name in ("identifier", "creator"):
        assert [e.text for e in opf.iter(f"{DC}{name}")] == [
            e.text for e in before["OEBPS/content.opf"].iter(f"{DC}{name}")
        ]
    for kind in ("item", "itemref"):
        old = [e.attrib for e in before["OEBPS/content.opf"].iter(f"{OPF}{kind}")]
        assert [e.attrib for e in opf.iter(f"{OPF}{kind}")] == old
    labels = [all_text(t) for t in after["OEBPS/toc.ncx"].iter(f"{NCX}text")]
    assert labels[1] == "Ana Ferreira" and all("⟦" in t for t in labels[:1] + labels[2:])
    nav = after["OEBPS/nav.xhtml"]
    links = [(a.get("href"), all_text(a)) for a in nav.iter(f"{XHTML}a")]
    assert links[-1] == ("chapter1.xhtml#c1", "xii")  # the page list is left alone
    assert all("⟦" in text for _, text in links[:-1])
    chapter = after["OEBPS/chapter1.xhtml"]
    paragraphs = [all_text(p) for p in chapter.iter(f"{XHTML}p")]
    assert all("⟦" in p for p in paragraphs)
    assert [all_text(p) for p in chapter.iter(f"{XHTML}pre")] == ["log: 21:04 lamp on"]
    image = next(chapter.iter(f"{XHTML}img"))
    assert image.get("src") == "lamp.png" and "⟦" in (image.get("alt") or "")
    note = next(chapter.iter(f"{XHTML}a"))
    assert note.get("href") == "notes.xhtml#n1"


def test_ruby_keeps_its_base_text_and_drops_the_reading_once_translated(tmp_path: Path) -> None:
    source = members(BOOK)["OEBPS/chapter1.xhtml"].decode()
    assert "<rt>とうだい</rt>" in source
    output = members(_translated(BOOK, tmp_path))["OEBPS/chapter1.xhtml"].decode()
    assert "<ruby>" not in output and "とうだい" not in output and "灯台" in output


def test_a_right_to_left_target_runs_the_book_right_to_left(tmp_path: Path) -> None:
    after = parsed(_translated(BOOK, tmp_path, "ar"))
    opf = after["OEBPS/content.opf"]
    assert next(opf.iter(f"{OPF}spine")).get("page-progression-direction") == "rtl"
    assert [e.text for e in opf.iter(f"{DC}language")] == ["ar"]
    chapter = after["OEBPS/chapter1.xhtml"]
    assert (chapter.get("dir"), chapter.get("lang"), chapter.get(XML_LANG)) == ("rtl", "ar", "ar")
    latin = [p for p in chapter.iter(f"{XHTML}p") if p.get("lang")]
    assert [(p.get("lang"), p.get(XML_LANG)) for p in latin] == [("la", "la")]  # another language stays
    assert after["OEBPS/toc.ncx"].get(XML_LANG) == "ar"


class _Hostile(BatchEngine):
    """Answers full of what XML must escape."""

    def generate(self, requests: list[GenerationRequest]) -> list[Generation]:  # type: ignore[override]
        return [Generation(r.source_text + " & <x>y</x> \"'&amp; ]]>", "stop", 5) for r in requests]


def test_every_xml_member_parses_whatever_the_model_answers(tmp_path: Path) -> None:
    output = _translated(BOOK, tmp_path, "de", _Hostile())
    after = parsed(output)  # expat: every XHTML page, the OPF, the NCX, container.xml
    chapter = all_text(after["OEBPS/chapter1.xhtml"])
    answer = "& <x>y</x> \"'&amp; ]]>"
    assert chapter.count(answer) == 6  # the title, the heading, three paragraphs, the caption
    assert answer in (next(after["OEBPS/chapter1.xhtml"].iter(f"{XHTML}img")).get("alt") or "")
    with zipfile.ZipFile(output) as archive:
        first = archive.infolist()[0]
    assert (first.filename, first.compress_type) == ("mimetype", zipfile.ZIP_STORED)


EPUB2_PAGE = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head>
<body xml:lang="en-GB"><p>It was a bright&nbsp;cold day.</p></body></html>
"""
EPUB2_OPF = b"""<?xml version="1.0"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Old Book</dc:title>
<dc:title xml:lang="ja">&#x53e4;&#x3044;&#x672c;</dc:title>
<dc:identifier id="id">x</dc:identifier><dc:language>en</dc:language></metadata>
<manifest><item id="p" href="Text/one%20page.xhtml" media-type="application/xhtml+xml"/></manifest>
<spine><itemref idref="p"/></spine></package>
"""
CONTAINER = b"""<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>
<rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/>
</rootfiles></container>
"""


def _book(extra: list[tuple[str, bytes]] = (), page: bytes = EPUB2_PAGE) -> bytes:  # type: ignore[assignment]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype", (2024, 1, 1, 0, 0, 0)), b"application/epub+zip")
        for name, data in [
            ("META-INF/container.xml", CONTAINER),
            ("OPS/book.opf", EPUB2_OPF),
            ("OPS/Text/one page.xhtml", page),
            *extra,
        ]:
            archive.writestr(zipfile.ZipInfo(name, (2024, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def test_an_epub2_book_with_doctypes_and_encoded_hrefs(tmp_path: Path) -> None:
    book = write(tmp_path, "old.epub", _book())
    output = _translated(book, tmp_path, "de")
    page = members(output)["OPS/Text/one page.xhtml"].decode()
    assert page.startswith(EPUB2_PAGE.decode()[:150])  # the DOCTYPE as it was
    assert '<body xml:lang="de">' in page and "⟦" in page
    assert '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="de">' in page  # (EPUB 2: no lang)
    assert (
        "page-progression-direction"
        not in members(_translated(book, tmp_path / "ar", "ar"))["OPS/book.opf"].decode()
    )


def test_drm_and_entity_declarations_are_refused_fonts_obfuscation_is_not(tmp_path: Path) -> None:
    def encryption(algorithm: str) -> tuple[str, bytes]:
        return (
            "META-INF/encryption.xml",
            b'<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" '
            b'xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod '
            b'Algorithm="'
            + algorithm.encode()
            + b'"/><enc:CipherData><enc:CipherReference URI="OPS/font.otf"/>'
            b"</enc:CipherData></enc:EncryptedData></encryption>",
        )

    folder = tmp_path / "books"
    write(
        folder,
        "fonts.epub",
        _book([encryption("http://www.idpf.org/2008/embedding"), ("OPS/font.otf", b"\0" * 64)]),
    )
    write(folder, "drm.epub", _book([encryption("http://www.w3.org/2001/04/xmlenc#aes128-cbc")]))
    laughs = b'<?xml version="1.0"?><!DOCTYPE html [<!ENTITY a "lol">]><html><body><p>&a;</p></body></html>'
    write(folder, "entities.epub", _book(page=laughs))
    write(folder, "nobook.epub", _book()[:10] + b"")
    report, _ = translate_files(sorted(folder.iterdir()), PseudoEngine(), tmp_path / "out", lang="de")
    errors = {Path(f.input).name: f.error or "" for f in report.files}
    assert errors["fonts.epub"] == ""
    assert "DRM" in errors["drm.epub"] and "DTD" in errors["entities.epub"]
    assert "zip" in errors["nobook.epub"]
    written = sorted(p.name for p in (tmp_path / "out").rglob("*.epub"))
    assert written == ["fonts.epub"]
