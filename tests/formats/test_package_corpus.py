"""Real ODF documents and EPUB books (tests/corpus/SOURCES, gathered into shared/corpus/ by
scripts/gather_corpus.py). For each: the identity engine gives every member back (an untouched
one as its very record; the others differ in their language attributes only); the pseudo engine
changes the text of every paragraph a reader sees (body, notes, comments, text boxes, headers
and footers, master-page shapes, charts, speaker notes, text cells, titles; every page, the
navigation, the NCX labels) and nothing that must stay (tracked deletions, value and formula
cells, sheet names, fields, link targets, bookmarks; identifiers, manifest, spine, hrefs); and
the output parses: every XML member with expat, an ODF file with odfpy, an EPUB's `mimetype`
first and stored."""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import pytest
from odf.opendocument import load
from package_checks import all_text, assert_identity, parsed
from pipelines import translate_files

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "shared" / "corpus"
ODF = sorted((CORPUS / "odf").glob("*.od?"))
EPUB = sorted((CORPUS / "epub").glob("*.epub"))
pytestmark = pytest.mark.skipif(
    not ODF or not EPUB, reason=f"no corpus in {CORPUS}: run scripts/gather_corpus.py"
)

TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
PRESENTATION = "{urn:oasis:names:tc:opendocument:xmlns:presentation:1.0}"
XLINK = "{http://www.w3.org/1999/xlink}"
LETTER = re.compile(r"[^\W\d_]")
# Inline elements whose text is the paragraph's own (the rest is kept whole, or read on its own).
_OWN = {f"{TEXT}span", f"{TEXT}a", f"{TEXT}meta", f"{TEXT}ruby", f"{TEXT}ruby-base"}


def test_the_corpus_holds_15_real_files_of_each_family() -> None:
    assert len(ODF) >= 15 and len(EPUB) >= 10
    assert {p.suffix for p in ODF} == {".odt", ".odp", ".ods"}


def _run(path: Path, tmp_path: Path, engine: object, lang: str) -> Path:
    report, outputs = translate_files([path], engine, tmp_path / lang, lang=lang)  # type: ignore[arg-type]
    assert report.files_failed == 0, [f.error for f in report.files]
    return outputs[path]


@pytest.mark.parametrize("path", ODF + EPUB, ids=lambda p: p.name)
def test_identity_gives_every_member_back(path: Path, tmp_path: Path) -> None:
    assert_identity(path, _run(path, tmp_path, IdentityEngine(), "fr"))


def _own_text(paragraph: ET.Element) -> str:
    out = [paragraph.text or ""]
    for child in paragraph:
        if child.tag in _OWN:
            out.append(_own_text(child))
        out.append(child.tail or "")
    return "".join(out)


def _paragraphs(
    element: ET.Element, fixed: bool = False, styles: bool = False
) -> Iterator[tuple[ET.Element, bool]]:
    """Every paragraph and heading in document order, and whether its text must stay."""
    tag = element.tag
    if tag in (f"{TEXT}tracked-changes", f"{TABLE}tracked-changes"):
        fixed = True
    if tag == f"{TABLE}table-cell" and (
        element.get(f"{TABLE}formula") is not None or element.get(f"{OFFICE}value-type", "string") != "string"
    ):
        fixed = True
    if styles and element.get(f"{PRESENTATION}class") is not None:
        fixed = True  # a master page's placeholder: its prompt text is no slide's
    if tag in (f"{TEXT}p", f"{TEXT}h"):
        yield element, fixed
    for child in element:
        inside = fixed and not (tag == f"{TABLE}table-cell" and child.tag == f"{OFFICE}annotation")
        yield from _paragraphs(child, inside, styles)


def _kept(root: ET.Element) -> list[object]:
    """What an ODF translation never changes: sheet names, link targets, bookmarks, fields."""
    fields = (
        "date",
        "time",
        "page-number",
        "page-count",
        "sequence",
        "note-citation",
        "sheet-name",
        "file-name",
    )
    return [
        [t.get(f"{TABLE}name") for t in root.iter(f"{TABLE}table")],
        [e.get(f"{XLINK}href") for e in root.iter() if e.get(f"{XLINK}href")],
        [e.get(f"{TEXT}name") for e in root.iter() if e.tag.startswith(f"{TEXT}bookmark")],
        [all_text(e) for name in fields for e in root.iter(f"{TEXT}{name}")],
    ]


@pytest.mark.parametrize("path", ODF, ids=lambda p: p.name)
def test_odf_pseudo_changes_every_paragraph_a_reader_sees_and_nothing_that_stays(
    path: Path, tmp_path: Path
) -> None:
    output = _run(path, tmp_path, PseudoEngine(), "de")
    load(str(output))  # odfpy opens it
    before, after = parsed(path), parsed(output)
    assert list(after) == list(before)
    changed = 0
    for name, root in before.items():
        if not name.endswith(("content.xml", "styles.xml", "meta.xml")) or root.tag == "manifest":
            continue
        old = list(_paragraphs(root, styles=name.endswith("styles.xml")))
        new = [p for p, _ in _paragraphs(after[name])]
        assert len(new) == len(old), name
        for (source, fixed), translated in zip(old, new):
            text, result = _own_text(source), _own_text(translated)
            if fixed:
                assert all_text(translated) == all_text(source), (name, text)
            elif LETTER.search(text):
                assert "⟦" in result, (name, text)
                changed += 1
        assert _kept(after[name]) == _kept(root), name
    assert changed > 0


OPF_NS = "{http://www.idpf.org/2007/opf}"
DC = "{http://purl.org/dc/elements/1.1/}"
NCX = "{http://www.daisy.org/z3986/2005/ncx/}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def _book_kept(parts: dict[str, ET.Element]) -> list[object]:
    """What an EPUB translation never changes: identifiers, manifest, spine, links and sources."""
    kept: list[object] = []
    for name, root in parts.items():
        kept.append(name)
        kept.append([e.text for e in root.iter(f"{DC}identifier")])
        kept.append(
            [sorted(e.attrib.items()) for e in root.iter() if e.tag in (f"{OPF_NS}item", f"{OPF_NS}itemref")]
        )
        kept.append([e.get(a) for e in root.iter() for a in ("href", "src", "id") if e.get(a)])
    return kept


def _pages(parts: dict[str, ET.Element]) -> set[str]:
    """The members the package document's manifest lists as XHTML pages."""
    found = set()
    for name, root in parts.items():
        if root.tag == f"{OPF_NS}package":
            for item in root.iter(f"{OPF_NS}item"):
                if item.get("media-type") == "application/xhtml+xml":
                    href = unquote((item.get("href") or "").partition("#")[0])
                    found.add(posixpath.normpath(posixpath.join(posixpath.dirname(name), href)))
    return found


@pytest.mark.parametrize("path", EPUB, ids=lambda p: p.name)
def test_epub_pseudo_changes_every_page_and_label_and_nothing_that_stays(path: Path, tmp_path: Path) -> None:
    output = _run(path, tmp_path, PseudoEngine(), "ar")
    with zipfile.ZipFile(output) as archive:
        first = archive.infolist()[0]
    assert (first.filename, first.compress_type) == ("mimetype", zipfile.ZIP_STORED)
    before, after = parsed(path), parsed(output)  # container.xml, the OPF, NCX and pages parse
    assert _book_kept(after) == _book_kept(before)
    pages = _pages(before)
    for name, root in before.items():
        if root.tag == f"{OPF_NS}package":
            titles = [e.text or "" for e in after[name].iter(f"{DC}title")]
            assert titles and all("⟦" in t for t in titles if LETTER.search(t)), titles
            assert next(after[name].iter(f"{DC}language")).text == "ar"
        elif root.tag == f"{NCX}ncx":
            for label in after[name].iter(f"{NCX}navLabel"):
                assert "⟦" in all_text(label) or not LETTER.search(all_text(label)), all_text(label)
        elif root.tag == f"{XHTML}html" and name in pages:
            body = root.find(f"{XHTML}body")
            translated = after[name].find(f"{XHTML}body")
            blocks = (
                [all_text(e) for e in body.iter() if e.tag in {f"{XHTML}p", f"{XHTML}h1", f"{XHTML}h2"}]
                if body is not None
                else []
            )
            if any(LETTER.search(b) for b in blocks):
                assert translated is not None and "⟦" in all_text(translated), name
            assert after[name].get("dir") == "rtl", name  # a right-to-left target's page
