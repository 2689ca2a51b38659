"""OpenDocument's namespaces, by the prefixes element names are resolved to, and which of its
elements are what to a translator: text containers, inline formatting, what is kept whole."""

from __future__ import annotations

from collections.abc import Mapping

OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
FO = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"

# Namespace URI -> the prefix names are resolved to (whatever prefix a producer chose).
NAMESPACES: Mapping[str, str] = {
    OFFICE: "office",
    STYLE: "style",
    TEXT: "text",
    FO: "fo",
    "urn:oasis:names:tc:opendocument:xmlns:table:1.0": "table",
    "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0": "draw",
    "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0": "presentation",
    "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0": "svg",
    "urn:oasis:names:tc:opendocument:xmlns:chart:1.0": "chart",
    "urn:oasis:names:tc:opendocument:xmlns:meta:1.0": "meta",
    "urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0": "number",
    "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0": "manifest",
    "urn:oasis:names:tc:opendocument:xmlns:form:1.0": "form",
    "http://purl.org/dc/elements/1.1/": "dc",
    "http://www.w3.org/1999/xlink": "xlink",
    "http://openoffice.org/2009/office": "officeooo",
    "urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0": "loext",
    "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0": "calcext",
}

PARAGRAPHS = frozenset({"text:p", "text:h"})
# Comments: ODF's annotations, and LibreOffice's on slides.
ANNOTATIONS = frozenset({"office:annotation", "officeooo:annotation", "loext:annotation"})
# Where text is never translated: deleted text of tracked changes (and a sheet's change log,
# which keeps cells' earlier content).
NEVER = frozenset({"text:tracked-changes", "table:tracked-changes"})
# Text elements of their own (no paragraphs): a drawing's title and description (its alt text),
# a presentation's header and footer text, the title a regenerated index gets.
OWN_TEXT = frozenset(
    {
        "svg:title",
        "svg:desc",
        "presentation:header-decl",
        "presentation:footer-decl",
        "text:index-title-template",
    }
)
# Inline elements that wrap text whose formatting they are: a tag pair for the model.
WRAPPERS = frozenset({"text:span", "text:a", "text:meta"})
CELLS = frozenset({"table:table-cell", "table:covered-table-cell"})
