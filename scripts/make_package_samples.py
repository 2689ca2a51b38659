"""Write the package samples (samples/office/*.odt|odp|ods, samples/books/*.epub) from the XML
below: small documents that hold what the ODF and EPUB readers must handle (a sentence split by
revision-id spans, bold and links inside it, a footnote, a comment, a tracked deletion, a header
and footer, a text box, a table with numbers and a formula, speaker notes, a master page's
placeholder, sheet names, ruby, a navigation document and an NCX). Deterministic: the same bytes
on every run (fixed dates, a fixed member order, `mimetype` first and stored).

    python scripts/make_package_samples.py
"""

from __future__ import annotations

import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATE = (2024, 5, 1, 12, 0, 0)

NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
    'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'xmlns:officeooo="http://openoffice.org/2009/office" '
    'office:version="1.3"'
)
DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


def _manifest(media_type: str, *files: str) -> str:
    entries = "".join(
        f' <manifest:file-entry manifest:full-path="{name}" manifest:media-type="text/xml"/>\n'
        for name in files
    )
    return (
        DECLARATION
        + '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
        'manifest:version="1.3">\n'
        ' <manifest:file-entry manifest:full-path="/" manifest:version="1.3"'
        f' manifest:media-type="{media_type}"/>\n'
        f"{entries}</manifest:manifest>\n"
    )


def _meta(title: str, description: str) -> str:
    return (
        f"{DECLARATION}<office:document-meta {NS}><office:meta>"
        "<meta:generator>hymt samples</meta:generator>"
        f"<dc:title>{title}</dc:title><dc:description>{description}</dc:description>"
        "<dc:language>en-US</dc:language>"
        "</office:meta></office:document-meta>\n"
    )


def _styles(master: str, extra_styles: str = "") -> str:
    return (
        f"{DECLARATION}<office:document-styles {NS}>\n"
        "<office:styles>\n"
        ' <style:default-style style:family="paragraph">\n'
        '  <style:paragraph-properties style:writing-mode="page"/>\n'
        '  <style:text-properties style:font-name="Liberation Serif" fo:font-size="12pt" '
        'fo:language="en" fo:country="US" style:language-asian="zh" style:country-asian="CN" '
        'style:language-complex="hi" style:country-complex="IN"/>\n'
        " </style:default-style>\n"
        ' <style:style style:name="Standard" style:family="paragraph"/>\n'
        ' <style:style style:name="Strong_20_Emphasis" style:display-name="Strong Emphasis"'
        ' style:family="text">\n'
        '  <style:text-properties fo:font-weight="bold"/>\n'
        " </style:style>\n"
        f"{extra_styles}"
        "</office:styles>\n"
        '<office:automatic-styles><style:page-layout style:name="pm1">'
        '<style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm"'
        ' style:writing-mode="lr-tb"/>'
        "</style:page-layout></office:automatic-styles>\n"
        f"<office:master-styles>{master}</office:master-styles>\n"
        "</office:document-styles>\n"
    )


ODT_CONTENT = f"""{DECLARATION}<office:document-content {NS}>
<office:automatic-styles>
 <style:style style:name="P1" style:family="paragraph" style:parent-style-name="Standard">
  <style:paragraph-properties fo:text-align="start" style:writing-mode="lr-tb"/>
 </style:style>
 <style:style style:name="T1" style:family="text"><style:text-properties \
officeooo:rsid="0012a4b2"/></style:style>
 <style:style style:name="T2" style:family="text"><style:text-properties fo:language="en" \
fo:country="GB"/></style:style>
 <style:style style:name="T3" style:family="text"><style:text-properties fo:font-style="italic"/>\
</style:style>
</office:automatic-styles>
<office:body><office:text>
<text:tracked-changes>
 <text:changed-region text:id="ct1"><text:deletion><office:change-info><dc:creator>Mara Lind</dc:creator>
 <dc:date>2024-04-30T09:00:00</dc:date></office:change-info><text:p>Deleted draft sentence.\
</text:p></text:deletion>
 </text:changed-region>
</text:tracked-changes>
<text:h text:style-name="Heading_20_1" text:outline-level="1">Quarterly report</text:h>
<text:p text:style-name="P1">Our team <text:span text:style-name="T1">shipped the new </text:span>\
<text:span \
text:style-name="T2">offline mode</text:span> in March and <text:span \
text:style-name="Strong_20_Emphasis">doubled</text:span> \
the number of <text:a xlink:type="simple" xlink:href="https://example.com/users">active users\
</text:a>.<text:note \
text:id="ftn1" text:note-class="footnote"><text:note-citation>1</text:note-citation>\
<text:note-body><text:p>Counted \
over the last <text:span text:style-name="T3">thirty</text:span> days.</text:p></text:note-body>\
</text:note></text:p>
<text:p text:style-name="P1">The report was written on <text:date text:date-value="2024-05-01">May \
1, 2024</text:date>\
<text:change text:change-id="ct1"/> and reviewed<office:annotation><dc:creator>Mara Lind</dc:creator>\
<dc:date>2024-04-30T10:00:00</dc:date><text:p>Please check the figures again.</text:p>\
</office:annotation> twice.</text:p>
<text:list><text:list-item><text:p>Faster search</text:p></text:list-item><text:list-item><text:p>Dark \
<text:s text:c="2"/>mode<text:tab/>(beta)</text:p></text:list-item></text:list>
<table:table table:name="Figures"><table:table-column table:number-columns-repeated="2"/>
<table:table-row><table:table-cell office:value-type="string"><text:p>Region</text:p></table:table-cell>\
<table:table-cell office:value-type="string"><text:p>Users</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>North</text:p></table:table-cell>\
<table:table-cell office:value-type="float" office:value="1250"><text:p>1,250</text:p>\
</table:table-cell></table:table-row>
</table:table>
<text:p text:style-name="P1"><draw:frame draw:name="Box1" text:anchor-type="paragraph" svg:width="6cm" \
svg:height="2cm"><draw:text-box><text:p>A note in a box</text:p></draw:text-box><svg:title>Callout\
</svg:title>\
</draw:frame>See the box on the right.</text:p>
</office:text></office:body></office:document-content>
"""

ODT_MASTER = (
    '<style:master-page style:name="Standard" style:page-layout-name="pm1">'
    "<style:header><text:p>Orbit Desk "
    '<text:span text:style-name="Strong_20_Emphasis">confidential</text:span>'
    "</text:p></style:header>"
    '<style:footer><text:p>Page <text:page-number text:select-page="current">1</text:page-number> of '
    "<text:page-count>2</text:page-count></text:p></style:footer>"
    "</style:master-page>"
)

ODP_CONTENT = f"""{DECLARATION}<office:document-content {NS}>
<office:automatic-styles/>
<office:body><office:presentation>
<presentation:footer-decl presentation:name="ftr1">Orbit Desk launch, May 2024</presentation:footer-decl>
<draw:page draw:name="Welcome" draw:master-page-name="Default" presentation:use-footer-name="ftr1">
 <draw:frame presentation:class="title" svg:width="20cm" svg:height="3cm"><draw:text-box>\
<text:p>Welcome to \
Orbit Desk</text:p></draw:text-box></draw:frame>
 <draw:frame presentation:class="outline" svg:width="20cm" svg:height="10cm"><draw:text-box><text:list>\
<text:list-item><text:p>Offline sync</text:p></text:list-item><text:list-item><text:p>A faster search \
index</text:p></text:list-item></text:list></draw:text-box></draw:frame>
 <presentation:notes><draw:frame presentation:class="notes"><draw:text-box><text:p>Start with the \
customer story.</text:p></draw:text-box></draw:frame></presentation:notes>
</draw:page>
<draw:page draw:name="Numbers" draw:master-page-name="Default">
 <draw:custom-shape svg:width="8cm" svg:height="4cm"><text:p>Users doubled in one quarter</text:p>\
<draw:enhanced-geometry draw:type="rectangle"/></draw:custom-shape>
</draw:page>
</office:presentation></office:body></office:document-content>
"""

ODP_MASTER = (
    '<style:master-page style:name="Default" style:page-layout-name="pm1">'
    '<draw:frame presentation:class="title" presentation:placeholder="true"><draw:text-box>'
    "<text:p>Click to edit the title text format</text:p></draw:text-box></draw:frame>"
    '<draw:frame svg:width="6cm" svg:height="1cm"><draw:text-box><text:p>Internal use only</text:p>'
    "</draw:text-box></draw:frame></style:master-page>"
)

ODS_CONTENT = f"""{DECLARATION}<office:document-content {NS}>
<office:automatic-styles>
 <style:style style:name="ta1" style:family="table"><style:table-properties table:display="true" \
style:writing-mode="lr-tb"/></style:style>
</office:automatic-styles>
<office:body><office:spreadsheet>
<table:table table:name="Budget" table:style-name="ta1">
<table:table-column table:number-columns-repeated="3"/>
<table:table-row><table:table-cell office:value-type="string"><text:p>Item</text:p></table:table-cell>\
<table:table-cell office:value-type="string"><text:p>Cost</text:p></table:table-cell>\
<table:table-cell office:value-type="string"><text:p>Note</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>Laptops for the new team</text:p>\
</table:table-cell><table:table-cell office:value-type="currency" office:currency="EUR" \
office:value="4200">\
<text:p>4,200.00 €</text:p></table:table-cell><table:table-cell office:value-type="string">\
<office:annotation>\
<dc:creator>Mara Lind</dc:creator><text:p>Ask for a discount.</text:p></office:annotation>\
<text:p>Ordered in \
April</text:p></table:table-cell></table:table-row>
<table:table-row table:number-rows-repeated="2"><table:table-cell \
table:number-columns-repeated="3"/></table:table-row>
<table:table-row><table:table-cell office:value-type="string"><text:p>Total</text:p></table:table-cell>\
<table:table-cell table:formula="of:=SUM([.B2:.B4])" office:value-type="float" office:value="4200">\
<text:p>4200\
</text:p></table:table-cell><table:table-cell \
table:formula="of:=IF([.B5]&gt;4000;&quot;Over&quot;;&quot;OK&quot;)" \
office:value-type="string" office:string-value="Over"><text:p>Over</text:p></table:table-cell>\
</table:table-row>
</table:table>
<table:table table:name="Notes"><table:table-row><table:table-cell office:value-type="string">\
<text:p>Prices \
include <text:span text:style-name="Strong_20_Emphasis">shipping</text:span>.</text:p></table:table-cell>\
<table:table-cell office:value-type="date" office:date-value="2024-05-01"><text:p>05/01/24</text:p>\
</table:table-cell>\
</table:table-row></table:table>
</office:spreadsheet></office:body></office:document-content>
"""

ODS_MASTER = (
    '<style:master-page style:name="Default" style:page-layout-name="pm1">'
    "<style:header><style:region-center><text:p>Budget for <text:sheet-name>???</text:sheet-name></text:p>"
    "</style:region-center></style:header></style:master-page>"
)


def _odf(path: Path, media_type: str, content: str, master: str, title: str, description: str) -> None:
    members = [
        ("mimetype", media_type, zipfile.ZIP_STORED),
        ("content.xml", content, zipfile.ZIP_DEFLATED),
        ("styles.xml", _styles(master), zipfile.ZIP_DEFLATED),
        ("meta.xml", _meta(title, description), zipfile.ZIP_DEFLATED),
        (
            "META-INF/manifest.xml",
            _manifest(media_type, "content.xml", "styles.xml", "meta.xml"),
            zipfile.ZIP_DEFLATED,
        ),
    ]
    _write(path, members)


def _write(path: Path, members: list[tuple[str, str | bytes, int]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data, method in members:
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = method
            info.external_attr = 0o644 << 16
            archive.writestr(info, data.encode("utf-8") if isinstance(data, str) else data)


XHTML_HEAD = (
    '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n'
    '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" '
    'xml:lang="en" lang="en">\n'
)

CHAPTER = f"""{XHTML_HEAD}<head><meta charset="utf-8"/><title>The Lighthouse</title>
<link rel="stylesheet" type="text/css" href="style.css"/></head>
<body>
<section epub:type="chapter">
<h1 id="c1">Chapter 1: The Lighthouse</h1>
<p>The keeper climbed the <em>hundred and twelve</em> steps every night &amp; lit the lamp before dark.<br/>
Nobody in the village knew <a href="notes.xhtml#n1" epub:type="noteref">why</a>.</p>
<p>She called the old machine <ruby>灯台<rp>(</rp><rt>とうだい</rt><rp>)</rp></ruby>, the word her mother \
used.</p>
<figure><img src="lamp.png" alt="The lamp at dusk"/><figcaption>The lamp at dusk</figcaption></figure>
<p lang="la" xml:lang="la">Lux in tenebris.</p>
<pre>log: 21:04 lamp on</pre>
</section>
</body>
</html>
"""

NOTES = f"""{XHTML_HEAD}<head><meta charset="utf-8"/><title>Notes</title></head>
<body>
<aside epub:type="footnote" id="n1"><p>The keeper never wrote down her reasons.</p></aside>
</body>
</html>
"""

NAV = f"""{XHTML_HEAD}<head><meta charset="utf-8"/><title>Contents</title></head>
<body>
<nav epub:type="toc" id="toc"><h1>Contents</h1>
<ol><li><a href="chapter1.xhtml">Chapter 1: The Lighthouse</a></li><li><a href="notes.xhtml">Notes\
</a></li></ol>
</nav>
<nav epub:type="page-list" hidden=""><ol><li><a href="chapter1.xhtml#c1">xii</a></li></ol></nav>
</body>
</html>
"""

NCX_TEXT = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd">
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1" xml:lang="en">
<head><meta name="dtb:uid" content="urn:uuid:6f1c1c9e-4c43-4b8e-9a49-2f7d0a0f1e11"/></head>
<docTitle><text>The Lighthouse Keeper</text></docTitle>
<docAuthor><text>Ana Ferreira</text></docAuthor>
<navMap>
<navPoint id="np1" playOrder="1"><navLabel><text>Chapter 1: The Lighthouse</text></navLabel>\
<content src="chapter1.xhtml"/></navPoint>
<navPoint id="np2" playOrder="2"><navLabel><text>Notes</text></navLabel><content \
src="notes.xhtml"/></navPoint>
</navMap>
</ncx>
"""

OPF = """<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="en">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="uid">urn:uuid:6f1c1c9e-4c43-4b8e-9a49-2f7d0a0f1e11</dc:identifier>
<dc:title id="title">The Lighthouse Keeper</dc:title>
<dc:creator>Ana Ferreira</dc:creator>
<dc:language>en</dc:language>
<dc:description>&lt;p&gt;A short story about a keeper, a lamp &amp;amp; a village.&lt;/p&gt;\
</dc:description>
<meta property="dcterms:modified">2024-05-01T12:00:00Z</meta>
</metadata>
<manifest>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
<item id="chapter1" href="chapter1.xhtml" media-type="application/xhtml+xml"/>
<item id="notes" href="notes.xhtml" media-type="application/xhtml+xml"/>
<item id="css" href="style.css" media-type="text/css"/>
<item id="lamp" href="lamp.png" media-type="image/png"/>
</manifest>
<spine toc="ncx"><itemref idref="chapter1"/><itemref idref="notes" linear="no"/></spine>
</package>
"""

CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
"""

# A 1x1 PNG: the book's image, copied byte for byte.
LAMP = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201"
    "a5f1e7e60000000049454e44ae426082"
)


def main() -> None:
    office = ROOT / "samples" / "office"
    _odf(
        office / "quarterly-report.odt",
        "application/vnd.oasis.opendocument.text",
        ODT_CONTENT,
        ODT_MASTER,
        "Quarterly report",
        "What the team shipped this quarter.",
    )
    _odf(
        office / "launch-slides.odp",
        "application/vnd.oasis.opendocument.presentation",
        ODP_CONTENT,
        ODP_MASTER,
        "Launch slides",
        "The slides of the Orbit Desk launch.",
    )
    _odf(
        office / "team-budget.ods",
        "application/vnd.oasis.opendocument.spreadsheet",
        ODS_CONTENT,
        ODS_MASTER,
        "Team budget",
        "Costs of the new team.",
    )
    _write(
        ROOT / "samples" / "books" / "lighthouse-keeper.epub",
        [
            ("mimetype", "application/epub+zip", zipfile.ZIP_STORED),
            ("META-INF/container.xml", CONTAINER, zipfile.ZIP_DEFLATED),
            ("OEBPS/content.opf", OPF, zipfile.ZIP_DEFLATED),
            ("OEBPS/nav.xhtml", NAV, zipfile.ZIP_DEFLATED),
            ("OEBPS/toc.ncx", NCX_TEXT, zipfile.ZIP_DEFLATED),
            ("OEBPS/chapter1.xhtml", CHAPTER, zipfile.ZIP_DEFLATED),
            ("OEBPS/notes.xhtml", NOTES, zipfile.ZIP_DEFLATED),
            (
                "OEBPS/style.css",
                "body { font-family: serif; }\nruby rt { font-size: 50%; }\n",
                zipfile.ZIP_DEFLATED,
            ),
            ("OEBPS/lamp.png", LAMP, zipfile.ZIP_STORED),
        ],
    )


if __name__ == "__main__":
    main()
