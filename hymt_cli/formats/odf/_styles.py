"""A part's automatic styles, read before the text that uses them: which `text:span` styles are
formatting a reader sees, and which are only language hints and revision ids (LibreOffice gives
each edit's text an automatic style of its own, `officeooo:rsid`; a spell-check language makes
another): spans of those are no tag for the model, and their text joins the sentence."""

from __future__ import annotations

from ..package import Node

# Text properties that are no visible formatting: revision ids, languages (and so hyphenation).
HINTS = frozenset(
    {
        "officeooo:rsid",
        "officeooo:paragraph-rsid",
        "fo:language",
        "fo:country",
        "fo:script",
        "fo:hyphenate",
        "style:rfc-language-tag",
        "style:language-asian",
        "style:country-asian",
        "style:script-asian",
        "style:rfc-language-tag-asian",
        "style:language-complex",
        "style:country-complex",
        "style:script-complex",
        "style:rfc-language-tag-complex",
    }
)
PLAIN = ()  # the key of a style that is no formatting


class StyleBook:
    """The automatic text styles of one part (content.xml's or styles.xml's), by name."""

    def __init__(self) -> None:
        self._keys: dict[str, object] = {}

    def record(self, style: Node) -> None:
        """An automatic `style:style`; only text styles matter."""
        name = style.get("style:name")
        if name is None or style.get("style:family") != "text":
            return
        self._keys[name] = _formatting(style)

    def key(self, name: str | None) -> object:
        """What a span of style `name` looks like: PLAIN for no formatting; a style that is no
        automatic one of this part (a named character style: Emphasis) is formatting."""
        if not name:
            return PLAIN
        return self._keys.get(name, ("named", name))


def _formatting(style: Node) -> object:
    parent = style.get("style:parent-style-name")
    found: list[tuple[str, str]] = [("parent", parent)] if parent else []
    for child in style.elements():
        if child.name != "style:text-properties":
            found.append((child.name, child.attrs_raw))
            continue
        found.extend(sorted((k, v) for k, v in child.attrs().items() if k not in HINTS))
        if any(True for _ in child.elements()):
            found.append(("children", child.name))
    return tuple(found) if found else PLAIN
