"""The three ways Office Open XML writes a paragraph of runs: WordprocessingML (`w:p`),
DrawingML (`a:p`: slides, shapes, charts, SmartArt) and SpreadsheetML rich text (`si`, `is`,
a comment's `text`). A `Dialect` names, for one of them, what a run is, where its text lies,
what reads as a line break, what wraps runs (a hyperlink, an insertion, a content control),
what is dropped (proofing marks), and which differences between two runs' properties are no
formatting (revision ids, language hints): runs that differ only so are one run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# Namespaces by URI -> the prefix names are resolved to (transitional and strict OOXML alike).
NAMESPACES: Mapping[str, str] = {
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main": "w",
    "http://purl.oclc.org/ooxml/wordprocessingml/main": "w",
    "http://schemas.openxmlformats.org/drawingml/2006/main": "a",
    "http://purl.oclc.org/ooxml/drawingml/main": "a",
    "http://schemas.openxmlformats.org/presentationml/2006/main": "p",
    "http://purl.oclc.org/ooxml/presentationml/main": "p",
    "http://schemas.openxmlformats.org/spreadsheetml/2006/main": "x",
    "http://purl.oclc.org/ooxml/spreadsheetml/main": "x",
    "http://schemas.openxmlformats.org/drawingml/2006/chart": "c",
    "http://purl.oclc.org/ooxml/drawingml/chart": "c",
    "http://schemas.openxmlformats.org/drawingml/2006/diagram": "dgm",
    "http://purl.oclc.org/ooxml/drawingml/diagram": "dgm",
    "http://schemas.microsoft.com/office/drawing/2008/diagram": "dsp",
    "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing": "xdr",
    "http://purl.oclc.org/ooxml/drawingml/spreadsheetDrawing": "xdr",
    "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing": "wp",
    "http://schemas.openxmlformats.org/markup-compatibility/2006": "mc",
    "http://schemas.openxmlformats.org/officeDocument/2006/math": "m",
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships": "r",
    "http://purl.oclc.org/ooxml/officeDocument/relationships": "r",
    "http://schemas.microsoft.com/office/word/2010/wordprocessingShape": "wps",
    "http://schemas.microsoft.com/office/word/2010/wordml": "w14",
    "http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments": "tc",
    "http://schemas.microsoft.com/office/powerpoint/2018/8/main": "p188",
    "urn:schemas-microsoft-com:vml": "v",
    "urn:schemas-microsoft-com:office:office": "o",
    "http://schemas.openxmlformats.org/package/2006/content-types": "ct",
    "http://schemas.openxmlformats.org/package/2006/relationships": "rel",
}


@dataclass(frozen=True, slots=True)
class Wrapping:
    """An element around runs: `content` names the child its runs are in (a content control's
    `sdtContent`; None: the element itself); `props`, children that belong to its opening."""

    content: str | None = None
    props: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Dialect:
    run: str
    run_props: str
    texts: frozenset[str]
    # Paragraph children that are never text and stay where they are (its properties).
    para_props: frozenset[str]
    # In a run: elements that read as a line break (a page break is no line: a placeholder).
    breaks: frozenset[str] = frozenset()
    # Paragraph children that read as a line break (DrawingML's `a:br`).
    para_breaks: frozenset[str] = frozenset()
    # Elements read as characters (`w:noBreakHyphen`: U+2011; a soft hyphen: nothing).
    shown: Mapping[str, str] = field(default_factory=dict)
    # Elements dropped where the run is written anew (proofing marks, cached page breaks).
    ignored: frozenset[str] = frozenset()
    wrappers: Mapping[str, Wrapping] = field(default_factory=dict)
    # Run properties that are no formatting: attributes and elements left out of the run's key.
    key_ignored: frozenset[str] = frozenset()
    # A line break in translated text: a `<br/>` element of this name, or "" (kept in the text).
    newline_element: str = ""
    newline_in_run: bool = True  # the break is written inside a run (`w:br`) or beside (`a:br`)
    preserve_space: bool = False  # text elements written with xml:space="preserve"
    text_element: str = "t"  # the local name of a run's text element

    def is_text(self, name: str) -> bool:
        return name in self.texts


_W_WRAPPERS = {
    "w:hyperlink": Wrapping(),
    "w:ins": Wrapping(),
    "w:moveTo": Wrapping(),
    "w:smartTag": Wrapping(props=frozenset({"w:smartTagPr"})),
    "w:customXml": Wrapping(props=frozenset({"w:customXmlPr"})),
    "w:sdt": Wrapping("w:sdtContent"),
    "w:fldSimple": Wrapping(props=frozenset({"w:fldData"})),
    "w:dir": Wrapping(),
    "w:bdo": Wrapping(),
}

WORD = Dialect(
    run="w:r",
    run_props="w:rPr",
    texts=frozenset({"w:t"}),
    para_props=frozenset({"w:pPr"}),
    breaks=frozenset({"w:br", "w:cr"}),
    shown={"w:noBreakHyphen": "\u2011", "w:softHyphen": ""},
    ignored=frozenset({"w:proofErr", "w:lastRenderedPageBreak"}),
    wrappers=_W_WRAPPERS,
    key_ignored=frozenset(
        {"w:lang", "w:noProof", "w:hint", "w:bCs", "w:iCs", "w:szCs", "w:rsidRPr", "w:rsidR", "w:rsidDel"}
    ),
    newline_element="br",
    preserve_space=True,
)

DRAWING = Dialect(
    run="a:r",
    run_props="a:rPr",
    texts=frozenset({"a:t"}),
    para_props=frozenset({"a:pPr", "a:endParaRPr"}),
    para_breaks=frozenset({"a:br"}),
    key_ignored=frozenset({"lang", "altLang", "dirty", "err", "noProof", "smtClean", "smtId", "bmk"}),
    newline_element="br",
    newline_in_run=False,
)

SHEET = Dialect(
    run="x:r",
    run_props="x:rPr",
    texts=frozenset({"x:t"}),
    para_props=frozenset({"x:rPh", "x:phoneticPr"}),
    preserve_space=True,
)
