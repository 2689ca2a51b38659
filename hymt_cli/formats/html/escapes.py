"""Translated text written back as HTML: in element text and in attribute values."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

Escape = Callable[[str], str]

_ATTR = re.compile(r"""([^\s/>"'=][^\s/>=]*)(?:\s*=\s*('[^']*'|"[^"]*"|(?!['"])[^\s>]+))?""")
_TAG_NAME = re.compile(r"<[^\s/>]+")
_TAG_START = re.compile(r"<[A-Za-z/!?]")
_SIGNIFICANT = "<>&\"'"
_REFERENCE_START = re.compile(r"&(?=[A-Za-z#])")
_REFERENCE = re.compile(r"&#?[A-Za-z0-9]+;?")


def attribute_spans(src: str, start: int, end: int) -> list[tuple[str, int, int, str]]:
    """(name, value start, value end, quote) for each attribute of the start tag src[start:end]."""
    tag = _TAG_NAME.match(src, start, end)
    if tag is None:
        return []
    out = []
    for match in _ATTR.finditer(src, tag.end(), end):
        name, value = match.group(1), match.group(2)
        if value is None:
            continue
        quote = value[0] if value[0] in "'\"" else ""
        vstart = match.start(2) + (1 if quote else 0)
        vend = match.end(2) - (1 if quote else 0)
        out.append((name.lower(), vstart, vend, quote))
    return out


def spelled(raw: str) -> frozenset[str]:
    """Markup-significant characters that `raw` writes as references (`&lt;` -> "<")."""
    found = (html.unescape(m.group(0)) for m in _REFERENCE.finditer(raw))
    return frozenset(c for c in found if c in _SIGNIFICANT)


def escape_markup(text: str, spelled: frozenset[str]) -> str:
    """Translated text as HTML: what the source spelled as a reference is spelled so again;
    `&` that would start a reference and `<` that would start a tag always are."""
    text = text.replace("&", "&amp;") if "&" in spelled else _REFERENCE_START.sub("&amp;", text)
    text = (
        text.replace("<", "&lt;")
        if "<" in spelled
        else _TAG_START.sub(lambda m: "&lt;" + m.group(0)[1:], text)
    )
    if ">" in spelled:
        text = text.replace(">", "&gt;")
    if '"' in spelled:
        text = text.replace('"', "&quot;")
    return text.replace("'", "&#39;") if "'" in spelled else text


def attribute_escape(quote: str, spelled: frozenset[str] = frozenset()) -> Escape:
    """Escape for an attribute value written between `quote`s ("" when unquoted: the value
    is then quoted, as a translation may hold spaces)."""
    if quote == '"':
        return lambda s: escape_markup(s, spelled).replace('"', "&quot;")
    if quote == "'":
        return lambda s: escape_markup(s, spelled).replace("'", "&#39;")
    return lambda s: '"' + escape_markup(s, spelled).replace('"', "&quot;") + '"'


def text_escape(spelled: frozenset[str] = frozenset()) -> Escape:
    return lambda text: escape_markup(text, spelled)
