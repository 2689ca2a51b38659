"""Real Office files from public projects' test data (tests/corpus/SOURCES, gathered into
shared/corpus/ooxml/): the identity engine writes each back member by member (language
attributes aside); the pseudo engine changes the text of every part a reader sees and nothing
that must never change, and python-docx / python-pptx / openpyxl open what it wrote."""

from __future__ import annotations

from pathlib import Path

import pytest
from ooxml_checks import A, W, X, fixed_things, same_members, untranslated
from pipelines import translate_files

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "ooxml"
FILES = sorted(p for kind in ("docx", "pptx", "xlsx") for p in (CORPUS / kind).glob("*") if p.is_file())

# The parts whose every paragraph a reader sees: name pattern -> (text element, paragraph element).
WORD_PARTS = {
    r"word/(document|header\d*|footer\d*|footnotes|endnotes|comments)\.xml": (W + "t", W + "p"),
    r"word/(charts/chart\d+|diagrams/data\d+|diagrams/drawing\d+)\.xml": (A + "t", A + "p"),
}
SLIDE_PARTS = {
    r"ppt/(slides/slide|notesSlides/notesSlide|charts/chart|diagrams/data|diagrams/drawing)\d+\.xml": (
        A + "t",
        A + "p",
    ),
}
SHEET_PARTS = {
    r"xl/(sharedStrings|comments\d*)\.xml": (X + "t", X + "si"),
    r"xl/(drawings/drawing|charts/chart)\d+\.xml": (A + "t", A + "p"),
}
PARTS = {".docx": WORD_PARTS, ".pptx": SLIDE_PARTS, ".xlsx": SHEET_PARTS, ".xlsm": SHEET_PARTS}

pytestmark = pytest.mark.skipif(not FILES, reason="the corpus is not gathered (scripts/gather_corpus.py)")


def _id(path: Path) -> str:
    return path.name


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_identity_writes_every_member_back(path: Path, tmp_path: Path) -> None:
    report, outputs = translate_files([path], IdentityEngine(), tmp_path, lang="fr")
    assert report.files_failed == 0, [f.error for f in report.files]
    assert same_members(path, outputs[path]) == []


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_pseudo_translates_every_part_and_keeps_what_is_fixed(path: Path, tmp_path: Path) -> None:
    report, outputs = translate_files([path], PseudoEngine(), tmp_path, lang="de")
    assert report.files_failed == 0, [f.error for f in report.files]
    output = outputs[path]
    kept = _table_headers(path) if path.suffix in (".xlsx", ".xlsm") else set()
    readable = [t for t in untranslated(path, PARTS[path.suffix]) if t.partition(": ")[2] not in kept]
    assert report.segments > 0 or not readable
    assert [t for t in untranslated(output, PARTS[path.suffix]) if t.partition(": ")[2] not in kept] == []
    assert fixed_things(output) == fixed_things(path)
    _opens(output)


def _table_headers(path: Path) -> set[str]:
    """The header cells' texts of the workbook's tables (as repr: `untranslated` quotes them):
    kept, so that they stay the tables' column names."""
    import openpyxl

    book = openpyxl.load_workbook(str(path))
    found: set[str] = set()
    for sheet in book.worksheets:
        for table in sheet.tables.values():
            header = table.ref.split(":")[0]
            row = sheet[header].row
            for cell in sheet[table.ref][0] if row else ():
                found.add(repr(str(cell.value)))
                assert str(cell.value) in [c.name for c in table.tableColumns]
    return found


def _opens(output: Path) -> None:
    """The oracle of the output's kind reads it, and its text is the translation."""
    if output.suffix in (".docx", ".docm"):
        import docx

        document = docx.Document(str(output))
        texts = [p.text for p in document.paragraphs if p.text.strip()]
    elif output.suffix == ".pptx":
        import pptx

        deck = pptx.Presentation(str(output))
        texts = [s.text_frame.text for slide in deck.slides for s in slide.shapes if s.has_text_frame]
    else:
        import openpyxl

        book = openpyxl.load_workbook(str(output))
        texts = [
            str(c.value)
            for ws in book.worksheets
            for row in ws.iter_rows()
            for c in row
            if isinstance(c.value, str)
        ]
    assert all("\ufffd" not in t for t in texts)


HOSTILE = {
    "poi-password-is-pass.docx": "encrypted",
    "poi-protect.xlsx": "encrypted",
    "poi-xmlbomb.xlsx": "DTD",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_real_files_fail_with_one_line_naming_them(name: str, tmp_path: Path) -> None:
    path = CORPUS / "hostile" / name
    if not path.is_file():
        pytest.skip("the corpus is not gathered")
    report, outputs = translate_files([path], PseudoEngine(), tmp_path, lang="de")
    error = report.files[0].error or ""
    assert report.files_failed == 1 and HOSTILE[name] in error and name in error and "\n" not in error
    assert not any(tmp_path.rglob(f"*{path.suffix}"))  # nothing half-written
