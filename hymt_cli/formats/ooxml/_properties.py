"""Small edits of property elements as text: an attribute set, a child added in schema order.

Office validates the order of a properties element's children (`w:rPr`: rFonts before b before
... lang ...): a child is inserted after the last child that comes before it in the schema, so
a file stays valid. Properties elements are short; they are read with a regex, never parsed
into a tree and written back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..package import escape_attribute

# The children of w:rPr and w:pPr in schema order (ECMA-376 CT_RPr, CT_PPrBase + CT_PPr).
RUN_PROPERTIES = (
    "rStyle rFonts b bCs i iCs caps smallCaps strike dstrike outline shadow emboss imprint noProof "
    "snapToGrid vanish webHidden color spacing w kern position sz szCs highlight u effect bdr shd "
    "fitText vertAlign rtl cs em lang eastAsianLayout specVanish oMath rPrChange"
).split()
PARAGRAPH_PROPERTIES = (
    "pStyle keepNext keepLines pageBreakBefore framePr widowControl numPr suppressLineNumbers pBdr "
    "shd tabs suppressAutoHyphens kinsoku wordWrap overflowPunct topLinePunct autoSpaceDE autoSpaceDN "
    "bidi adjustRightInd snapToGrid spacing ind contextualSpacing mirrorIndents suppressOverlap jc "
    "textDirection textAlignment textboxTightWrap outlineLvl divId cnfStyle rPr sectPr pPrChange"
).split()
# DrawingML's a:rPr (CT_TextCharacterProperties) children.
TEXT_RUN_PROPERTIES = (
    "ln noFill solidFill gradFill blipFill pattFill grpFill effectLst effectDag highlight uLnTx uLn "
    "uFillTx uFill latin ea cs sym hlinkClick hlinkMouseOver rtl extLst"
).split()

_ATTRIBUTE = r"""(\s{name}\s*=\s*)(?:"[^"]*"|'[^']*')"""
_CHILD = re.compile(r"<(/?)([\w.-]+:)?([\w.-]+)[^>]*?(/?)>")


def set_attribute(tag: str, qname: str, value: str) -> str:
    """A start tag (`<w:lang w:val="en-US"/>`) with `qname` set to `value` (added before the end)."""
    pattern = re.compile(_ATTRIBUTE.format(name=re.escape(qname)))
    quoted = f'"{escape_attribute(value)}"'
    if pattern.search(tag):
        return pattern.sub(lambda m: m.group(1) + quoted, tag, count=1)
    end = len(tag) - (2 if tag.endswith("/>") else 1)
    return f"{tag[:end].rstrip()} {qname}={quoted}{tag[end:]}"


def get_attribute(tag: str, qname: str) -> str | None:
    found = re.search(_ATTRIBUTE.format(name=re.escape(qname)) + "", tag)
    if found is None:
        return None
    value = tag[found.end(1) : found.end()]
    return value[1:-1]


def children(props: str) -> list[tuple[str, int, int]]:
    """The top-level children of a properties element: (local name, start, end)."""
    out: list[tuple[str, int, int]] = []
    depth = 0
    start = 0
    name = ""
    for match in _CHILD.finditer(props):
        closing, _, local, empty = match.groups()
        if closing:
            depth -= 1
            if depth == 1:
                out.append((name, start, match.end()))
            continue
        depth += 1
        if depth == 2:
            name, start = local, match.start()
        if empty:
            depth -= 1
            if depth == 1:
                out.append((name, start, match.end()))
    return out


def with_child(props: str, child: str, local: str, order: Sequence[str]) -> str:
    """`props` (a whole properties element) with `child` added where the schema puts `local`;
    a self-closing `<x:rPr/>` is opened first. A child already there is left as it is."""
    if props.endswith("/>"):
        head = props[:-2].rstrip()
        element = re.match(r"<([\w.:-]+)", props)
        assert element is not None
        props = f"{head}></{element.group(1)}>"
    found = children(props)
    if any(name == local for name, _, _ in found):
        return props
    rank = order.index(local) if local in order else len(order)
    at = props.index(">") + 1
    for name, _, end in found:
        if name in order and order.index(name) < rank:
            at = end
    return props[:at] + child + props[at:]


def child_tag(props: str, local: str) -> tuple[int, int] | None:
    """The span of the start tag of `props`' top-level child `local`, if any."""
    for name, start, _ in children(props):
        if name == local:
            return start, props.index(">", start) + 1
    return None
