"""What each HTML element is to the segmenter: inline, void, kept whole, never translated."""

from __future__ import annotations

INLINE = frozenset(
    "a abbr b bdi bdo big cite data del dfn em font i ins mark nobr q rp rt ruby s small span "
    "strike strong sub sup time tt u var".split()
)
VOID_INLINE = frozenset("br img wbr input".split())
VOID = frozenset("area base br col embed hr img input link meta param source track wbr keygen".split())
OPAQUE_INLINE = frozenset("code kbd samp".split())  # kept whole, as one placeholder
OPAQUE_BLOCK = frozenset("script style pre textarea svg math template noembed object iframe".split())
# Browsers read these as raw text up to their own end tag (html.parser only does so for
# script and style): no tag inside them opens or closes anything.
RAW_TEXT = frozenset("textarea noembed iframe".split())
TRANSLATABLE_ATTRS = frozenset({"alt", "title", "placeholder", "aria-label"})
META_NAMES = frozenset({"description", "og:title", "og:description", "twitter:title", "twitter:description"})
# What a segment in each element is to a reader (Segment.role); text in other elements takes the
# role of the nearest of these it sits in (a `p` in an `li` is a list item), or none.
ROLES: dict[str, str] = {
    **{f"h{n}": f"heading {n}" for n in range(1, 7)},
    "li": "list item",
    "td": "table cell",
    "th": "table header",
    "blockquote": "blockquote",
    "caption": "caption",
    "figcaption": "caption",
    "dt": "term",
    "dd": "definition",
    "title": "document title",
    "button": "button",
    "label": "label",
    "option": "option",
    "summary": "summary",
    "legend": "legend",
}
# Start tags that close an open element of the same family (HTML's implied end tags).
CLOSES: dict[str, frozenset[str]] = {
    "li": frozenset({"li"}),
    "dt": frozenset({"dt", "dd"}),
    "dd": frozenset({"dt", "dd"}),
    "tr": frozenset({"tr", "td", "th"}),
    "td": frozenset({"td", "th"}),
    "th": frozenset({"td", "th"}),
    "option": frozenset({"option"}),
    "p": frozenset({"p"}),
}

Attrs = tuple[tuple[str, "str | None"], ...]


def is_inline(tag: str) -> bool:
    return tag in INLINE or tag in VOID_INLINE or tag in OPAQUE_INLINE


def skips_subtree(attrs: Attrs) -> bool:
    """`translate="no"` or class `notranslate`: the element and everything in it are kept."""
    values = {name.lower(): (value or "") for name, value in attrs}
    return (
        values.get("translate", "").strip().lower() == "no"
        or "notranslate" in values.get("class", "").split()
    )
