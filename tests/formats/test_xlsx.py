"""Excel workbooks: shared, rich and inline strings translated and placed (`Sheet1!B4`); formulas,
cached results, numbers, dates, sheet names and tables' header cells never change; comments;
a long shared-strings part read in pieces."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from office_docs import xlsx
from ooxml_checks import members, same_members
from pipelines import translate_files

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats import format_for_path
from hymt_cli.formats.base import Unit
from hymt_cli.inputs.sources import SourceFile

_SHEET = (
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
    '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>1234.5</v></c>'
    '<c r="C2" t="str"><f>CONCATENATE("Total ",A2)</f><v>Total Apples</v></c>'
    '<c r="D2"><v>45000</v></c><c r="E2" t="b"><v>1</v></c></row>'
    '<row r="3"><c r="A3" t="inlineStr"><is><t>Inline words here</t></is></c>'
    '<c r="B3" t="s"><v>3</v></c><c r="C3" t="s"><v>2</v></c></row>'
)
_STRINGS = [
    "<t>Name</t>",
    "<t>Price</t>",
    "<t>Apples</t>",
    '<r><rPr><b/><sz val="11"/></rPr><t>Fresh</t></r>'
    '<r><rPr><sz val="11"/></rPr><t xml:space="preserve"> fruit today</t></r>',
]


def _units(path: Path) -> list[Unit]:
    fmt = format_for_path(path)
    assert fmt is not None
    return list(fmt.open(SourceFile(path, Path(path.name), fmt)).units())


def _book(tmp_path: Path, **more: object) -> Path:
    path = tmp_path / "book.xlsx"
    path.write_bytes(xlsx({"Fruit": _SHEET}, _STRINGS, **more))  # type: ignore[arg-type]
    return path


def test_strings_are_segments_named_by_their_first_cell(tmp_path: Path) -> None:
    comment = '<comment ref="B2" authorId="0"><text><r><t>Check the price.</t></r></text></comment>'
    path = _book(tmp_path, comments={"Fruit": comment})
    placed = {s.text: u.labels[s.id] for u in _units(path) for s in u.segments}
    assert placed == {
        "Name": "Fruit!A1",
        "Price": "Fruit!B1",
        "Apples": "Fruit!A2",
        "<s1>Fresh</s1> fruit today": "Fruit!B3",
        "Inline words here": "Fruit!A3",
        "Check the price.": "Fruit!B2 comment",
    }


def test_pseudo_changes_strings_and_nothing_else(tmp_path: Path) -> None:
    path = _book(tmp_path)
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "out", lang="de")
    book = openpyxl.load_workbook(str(outputs[path]))
    sheet = book["Fruit"]  # the sheet's name never changes
    assert sheet["A2"].value.startswith("⟦Áþþĺéš") and sheet["C3"].value == sheet["A2"].value
    assert sheet["A3"].value.startswith("⟦Íñĺíñé")
    assert sheet["B2"].value == 1234.5 and sheet["E2"].value is True
    assert sheet["C2"].value == '=CONCATENATE("Total ",A2)'
    assert "defined" not in book.defined_names or book.defined_names["Total"].value == "Sheet1!$B$2"
    parts = members(outputs[path])
    assert "<v>Total Apples</v>" in parts["xl/worksheets/sheet1.xml"].decode()  # a formula's cached result
    strings = parts["xl/sharedStrings.xml"].decode()
    assert '<r><rPr><b/><sz val="11"/></rPr><t xml:space="preserve">Ƒŕéšĥ</t></r>' in strings


def test_table_header_cells_stay_the_column_names(tmp_path: Path) -> None:
    path = _book(tmp_path, tables={"Fruit": ("A1:A3", ["Name"])})
    texts = [s.text for u in _units(path) for s in u.segments]
    assert "Name" not in texts and "Price" in texts  # A1 heads the table, B1 does not
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "out", lang="de")
    sheet = openpyxl.load_workbook(str(outputs[path]))["Fruit"]
    assert sheet["A1"].value == "Name" == sheet.tables["Table1"].tableColumns[0].name


def test_identity_copies_a_sheet_without_inline_strings_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "plain.xlsx"
    path.write_bytes(xlsx({"S": '<row r="1"><c r="A1" t="s"><v>0</v></c></row>'}, ["<t>Hello</t>"]))
    report, outputs = translate_files([path], IdentityEngine(), tmp_path / "out", lang="fr")
    assert same_members(path, outputs[path]) == []
    assert members(outputs[path])["xl/worksheets/sheet1.xml"] == members(path)["xl/worksheets/sheet1.xml"]


def test_many_shared_strings_are_read_in_pieces(tmp_path: Path) -> None:
    count = 30_000
    rows = "".join(f'<row r="{i + 1}"><c r="A{i + 1}" t="s"><v>{i}</v></c></row>' for i in range(count))
    path = tmp_path / "big.xlsx"
    path.write_bytes(xlsx({"Big": rows}, [f"<t>Item number {i} in stock</t>" for i in range(count)]))
    units = _units(path)
    assert len(units) > 3 and sum(len(u.segments) for u in units) == count
    assert units[-1].labels[len(units[-1].segments) - 1] == f"Big!A{count}"
    report, outputs = translate_files([path], PseudoEngine(), tmp_path / "out", lang="de")
    sheet = openpyxl.load_workbook(str(outputs[path]), read_only=True)["Big"]
    values = [row[0].value for row in sheet.iter_rows(min_row=count - 1, max_row=count)]
    assert all(v.startswith("⟦Íţéɱ") for v in values)
