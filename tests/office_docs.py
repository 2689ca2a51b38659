"""Small Office files written by hand, part by part, for the OOXML tests (and the samples):
a Word document from its body's XML and optional parts, the way Word lays them out."""

from __future__ import annotations

import io
import zipfile

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
_NS = (
    f'xmlns:w="{W_NS}" xmlns:r="{R_NS}" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:v="urn:schemas-microsoft-com:vml" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"'
)
_WORD = "application/vnd.openxmlformats-officedocument.wordprocessingml"


def docx(
    body: str,
    *,
    footnotes: str = "",
    header: str = "",
    comments: str = "",
    styles: str = "",
    extra: dict[str, bytes] | None = None,
    main_type: str = f"{_WORD}.document.main+xml",
) -> bytes:
    """A .docx whose body is `body` (paragraphs' XML); `footnotes` (w:footnote elements),
    `header` (its paragraphs), `comments` (w:comment elements) and `styles` (w:styles content)
    add those parts."""
    overrides = {"/word/document.xml": main_type}
    rels = []
    parts: dict[str, str] = {
        "word/document.xml": f"{_DECL}<w:document {_NS}><w:body>{body}<w:sectPr/></w:body></w:document>"
    }
    if footnotes:
        parts["word/footnotes.xml"] = f"{_DECL}<w:footnotes {_NS}>{footnotes}</w:footnotes>"
        overrides["/word/footnotes.xml"] = f"{_WORD}.footnotes+xml"
        rels.append(("rIdF", "footnotes", "footnotes.xml"))
    if header:
        parts["word/header1.xml"] = f"{_DECL}<w:hdr {_NS}>{header}</w:hdr>"
        overrides["/word/header1.xml"] = f"{_WORD}.header+xml"
        rels.append(("rIdH", "header", "header1.xml"))
    if comments:
        parts["word/comments.xml"] = f"{_DECL}<w:comments {_NS}>{comments}</w:comments>"
        overrides["/word/comments.xml"] = f"{_WORD}.comments+xml"
        rels.append(("rIdC", "comments", "comments.xml"))
    if styles:
        parts["word/styles.xml"] = f"{_DECL}<w:styles {_NS}>{styles}</w:styles>"
        overrides["/word/styles.xml"] = f"{_WORD}.styles+xml"
        rels.append(("rIdS", "styles", "styles.xml"))
    types = "".join(f'<Override PartName="{n}" ContentType="{t}"/>' for n, t in overrides.items())
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(
            "[Content_Types].xml",
            f'{_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            f'<Default Extension="xml" ContentType="application/xml"/>{types}</Types>',
        )
        zf.writestr(
            "_rels/.rels",
            f'{_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/officeDocument" Target="word/document.xml"/></Relationships>',
        )
        zf.writestr(
            "word/_rels/document.xml.rels",
            f'{_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + "".join(
                f'<Relationship Id="{i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                f'relationships/{t}" Target="{target}"/>'
                for i, t, target in rels
            )
            + '<Relationship Id="rIdL" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            'relationships/hyperlink" Target="https://example.com/" TargetMode="External"/>'
            "</Relationships>",
        )
        for name, text in parts.items():
            zf.writestr(name, text.encode("utf-8"))
        for name, data in (extra or {}).items():
            zf.writestr(name, data)
    return out.getvalue()


def para(*runs: str, props: str = "") -> str:
    return f'<w:p w:rsidR="00AB12CD">{props}{"".join(runs)}</w:p>'


def run(text: str, props: str = "", rsid: str = "") -> str:
    attrs = f' w:rsidRPr="{rsid}"' if rsid else ""
    rpr = f"<w:rPr>{props}</w:rPr>" if props else ""
    return f'<w:r{attrs}>{rpr}<w:t xml:space="preserve">{text}</w:t></w:r>'


def text_box(*paragraphs: str) -> str:
    """A run holding a text box, as Word writes it: DrawingML with a VML fallback, same text."""
    inner = "".join(paragraphs)
    return (
        '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><a:graphic>'
        "<a:graphicData><wps:wsp><wps:txbx><w:txbxContent>"
        f"{inner}</w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor>"
        "</w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent>"
        f"{inner}</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>"
    )


_SHEET_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_SML = "application/vnd.openxmlformats-officedocument.spreadsheetml"


def xlsx(
    sheets: dict[str, str],
    strings: list[str],
    *,
    comments: dict[str, str] | None = None,
    tables: dict[str, tuple[str, list[str]]] | None = None,
) -> bytes:
    """A workbook: `sheets` maps a sheet name to its `sheetData` XML, `strings` are the shared
    strings' `si` contents; `comments` maps a sheet name to its comment elements, `tables` a
    sheet name to a table's ref and column names (its first row the header)."""
    comments, tables = comments or {}, tables or {}
    types = [
        ("/xl/workbook.xml", f"{_SML}.sheet.main+xml"),
        ("/xl/sharedStrings.xml", f"{_SML}.sharedStrings+xml"),
    ]
    files: dict[str, str] = {}
    book_rels = []
    sheet_list = []
    for n, (name, data) in enumerate(sheets.items(), 1):
        types.append((f"/xl/worksheets/sheet{n}.xml", f"{_SML}.worksheet+xml"))
        book_rels.append((f"rId{n}", "worksheet", f"worksheets/sheet{n}.xml"))
        sheet_list.append(f'<sheet name="{name}" sheetId="{n}" r:id="rId{n}"/>')
        parts = []
        rels = []
        if name in tables:
            types.append((f"/xl/tables/table{n}.xml", f"{_SML}.table+xml"))
            rels.append(("rT", "table", f"../tables/table{n}.xml"))
            ref, names = tables[name]
            columns = "".join(f'<tableColumn id="{i}" name="{c}"/>' for i, c in enumerate(names, 1))
            files[f"xl/tables/table{n}.xml"] = (
                f'{_DECL}<table xmlns="{_SHEET_NS}" id="{n}" name="Table{n}" displayName="Table{n}" '
                f'ref="{ref}"><autoFilter ref="{ref}"/><tableColumns count="{len(names)}">{columns}'
                "</tableColumns></table>"
            )
            parts.append('<tableParts count="1"><tablePart r:id="rT"/></tableParts>')
        if name in comments:
            types.append((f"/xl/comments{n}.xml", f"{_SML}.comments+xml"))
            rels.append(("rC", "comments", f"../comments{n}.xml"))
            files[f"xl/comments{n}.xml"] = (
                f'{_DECL}<comments xmlns="{_SHEET_NS}"><authors><author>Ann</author></authors>'
                f"<commentList>{comments[name]}</commentList></comments>"
            )
        files[f"xl/worksheets/sheet{n}.xml"] = (
            f'{_DECL}<worksheet xmlns="{_SHEET_NS}" xmlns:r="{R_NS}"><sheetData>{data}</sheetData>'
            f"{''.join(parts)}</worksheet>"
        )
        if rels:
            files[f"xl/worksheets/_rels/sheet{n}.xml.rels"] = _rels(rels)
    book_rels.append(("rIdS", "sharedStrings", "sharedStrings.xml"))
    files["xl/workbook.xml"] = (
        f'{_DECL}<workbook xmlns="{_SHEET_NS}" xmlns:r="{R_NS}"><sheets>{"".join(sheet_list)}</sheets>'
        '<definedNames><definedName name="Total">Sheet1!$B$2</definedName></definedNames></workbook>'
    )
    files["xl/_rels/workbook.xml.rels"] = _rels(book_rels)
    files["xl/sharedStrings.xml"] = (
        f'{_DECL}<sst xmlns="{_SHEET_NS}" count="{len(strings)}" uniqueCount="{len(strings)}">'
        + "".join(f"<si>{s}</si>" for s in strings)
        + "</sst>"
    )
    overrides = "".join(f'<Override PartName="{n}" ContentType="{t}"/>' for n, t in types)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(
            "[Content_Types].xml",
            f'{_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            f'<Default Extension="xml" ContentType="application/xml"/>{overrides}</Types>',
        )
        zf.writestr("_rels/.rels", _rels([("rId1", "officeDocument", "xl/workbook.xml")]))
        for name, text in files.items():
            zf.writestr(name, text.encode("utf-8"))
    return out.getvalue()


def _rels(items: list[tuple[str, str, str]]) -> str:
    return (
        f'{_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        + "".join(
            f'<Relationship Id="{i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            f'relationships/{t}" Target="{target}"/>'
            for i, t, target in items
        )
        + "</Relationships>"
    )
