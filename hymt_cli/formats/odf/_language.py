"""Styles that say the target: its language in the slot a script's text takes (Western, Asian
or complex: Chinese text is spell-checked and laid out by the Asian slot's language), its
direction (a right-to-left target's paragraphs, pages and sheets run right to left, a
left-to-right target's no longer do), and a font for an East-Asian target's glyphs where the
document's default style names none.

Every `style:text-properties` that names a language in the target's slot names the target
instead ("zxx", no language, stays: it marks text that is no language, such as code); the
default styles (`style:default-style`) gain the target's language where they lack it. Every
`style:writing-mode` that runs the other way is turned; the default paragraph style gains one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..package import Edit, Node, Rendering, Source, Target
from ..start_tags import prefix_of, rewritten
from ._names import FO, STYLE

# Scripts LibreOffice lays out as complex text (CTL): their language goes in the complex slot.
COMPLEX_SCRIPTS = frozenset(
    (
        "Arab Hebr Syrc Thaa Nkoo Thai Laoo Khmr Mymr Tibt Deva Beng Guru Gujr Orya Taml Telu Knda Mlym Sinh"
    ).split()
)
NO_LANGUAGE = frozenset({"zxx", "none"})
_DIRECTED = frozenset(
    {
        "style:paragraph-properties",
        "style:page-layout-properties",
        "style:table-properties",
        "style:graphic-properties",
    }
)


def slot(target: Target) -> str:
    """The suffix of the attributes the target's language goes in: "", "-asian", "-complex"."""
    if target.east_asian:
        return "-asian"
    return "-complex" if target.script in COMPLEX_SCRIPTS else ""


def _names(suffix: str) -> tuple[str, str, str, str]:
    if not suffix:
        return "fo:language", "fo:country", "fo:script", "style:rfc-language-tag"
    return (
        f"style:language{suffix}",
        f"style:country{suffix}",
        f"style:script{suffix}",
        f"style:rfc-language-tag{suffix}",
    )


def _qualified(node: Node, name: str) -> str | None:
    """`name` (resolved: `fo:language`) as `node`'s scope writes it, or None where its namespace
    has no prefix there."""
    prefix, _, local = name.partition(":")
    found = prefix_of(node, FO if prefix == "fo" else STYLE)
    return f"{found}:{local}" if found else None


def text_properties(node: Node, tag: str, target: Target, *, default: bool) -> str:
    """A `style:text-properties` start tag saying the target's language (`default`: added where
    missing), and, in a default style, a font of an East-Asian target's script where none is named."""
    attrs = node.attrs()
    language, country, script, rfc = _names(slot(target))
    values: dict[str, str] = {}
    added: dict[str, str] = {}
    current = attrs.get(language)
    if current is not None and current.lower() not in NO_LANGUAGE:
        values[language] = target.language
        if country in attrs:
            values[country] = target.region or "none"
        if script in attrs and target.script:
            values[script] = target.script
    elif current is None and default:
        for name, value in ((language, target.language), (country, target.region or "")):
            written = _qualified(node, name)
            if written and value:
                added[written] = value
    if rfc in attrs and (current is None or current.lower() not in NO_LANGUAGE):
        values[rfc] = target.tag
    if default and target.east_asian and target.east_asian_font:
        if "style:font-name-asian" not in attrs and "style:font-family-asian" not in attrs:
            written = _qualified(node, "style:font-family-asian")
            if written:
                added[written] = f"'{target.east_asian_font}'"
    return rewritten(tag, node, values, added)


def directed(node: Node, tag: str, target: Target, *, default: bool) -> str:
    """A properties start tag whose `style:writing-mode` runs the target's way (`default`: added)."""
    mode = node.get("style:writing-mode")
    want = "rl-tb" if target.rtl else "lr-tb"
    if mode in ("lr-tb", "lr", "rl-tb", "rl") and mode[:2] != want[:2]:
        return rewritten(tag, node, {"style:writing-mode": want})
    if mode is None and default and target.rtl and node.name == "style:paragraph-properties":
        written = _qualified(node, "style:writing-mode")
        if written:
            return rewritten(tag, node, {}, {written: want})
    return tag


def style_edits(style: Node) -> Iterator[Edit]:
    """The edits that make a style (`style:style`, `style:default-style`, `style:page-layout`)
    say the target: its properties' start tags, and what a default paragraph style lacks."""
    default = style.name == "style:default-style"
    for child in style.elements():
        if child.name == "style:text-properties":
            yield _tag_edit(child, lambda n, t, target: text_properties(n, t, target, default=default))
        elif child.name in _DIRECTED:
            yield _tag_edit(child, lambda n, t, target: directed(n, t, target, default=default))
    if default and style.get("style:family") == "paragraph" and style.inner != style.end:
        yield Edit(style.start, style.inner, _missing_properties(style))


Rewrite = Callable[[Node, str, Target], str]


def _tag_edit(node: Node, rewrite: Rewrite) -> Edit:
    def render(context: Rendering, source: Source) -> str | None:
        if context.target is None:
            return None
        tag = source(node.start, node.inner)
        made = rewrite(node, tag, context.target)
        return None if made == tag else made

    return Edit(node.start, node.inner, render)


def _missing_properties(style: Node) -> Callable[[Rendering, Source], str | None]:
    """After a default paragraph style's start tag: the properties it lacks, saying the target."""
    names = {child.name for child in style.elements()}
    style_prefix = prefix_of(style, STYLE)

    def render(context: Rendering, source: Source) -> str | None:
        target = context.target
        if target is None or style_prefix is None:
            return None
        extra = ""
        if target.rtl and "style:paragraph-properties" not in names:
            extra += f'<{style_prefix}:paragraph-properties {style_prefix}:writing-mode="rl-tb"/>'
        if "style:text-properties" not in names:
            language, country, _, _ = _names(slot(target))
            written = [
                (_qualified(style, language), target.language),
                (_qualified(style, country), target.region),
            ]
            attrs = "".join(f' {name}="{value}"' for name, value in written if name and value)
            if attrs:
                extra += f"<{style_prefix}:text-properties{attrs}/>"
        return source(style.start, style.inner) + extra if extra else None

    return render
