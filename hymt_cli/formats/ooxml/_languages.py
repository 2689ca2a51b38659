"""The target language in OOXML: language attributes, direction and the East-Asian font slot.

- WordprocessingML: every `w:lang` (and `w:themeFontLang`) says the target: `w:val` always,
  `w:eastAsia` for an East-Asian target, `w:bidi` for a right-to-left one. A translated run of a
  right-to-left target gets `w:rtl`; of an East-Asian target, an `w:eastAsia` font where its
  `w:rFonts` names fonts but none for East-Asian text (a font without those glyphs shows boxes).
- DrawingML: the `lang` of every `a:rPr`, `a:endParaRPr` and `a:defRPr` (a translated run gets
  one where it had none); an East-Asian target's translated run gets an `a:ea` font where it
  names none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..package import Target
from ._properties import RUN_PROPERTIES, TEXT_RUN_PROPERTIES, get_attribute, set_attribute, with_child
from ._sentence import Adapt

W_URIS = (
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "http://purl.oclc.org/ooxml/wordprocessingml/main",
)
A_URIS = (
    "http://schemas.openxmlformats.org/drawingml/2006/main",
    "http://purl.oclc.org/ooxml/drawingml/main",
)


def declared_prefixes(text: str, uris: Sequence[str]) -> tuple[str, ...]:
    """The prefixes (with their colon; "" for a default namespace) `text` declares for `uris`."""
    found = {
        (m.group(1) + ":") if m.group(1) else ""
        for m in re.finditer(r"""xmlns(?::([\w.-]+))?\s*=\s*["']([^"']*)["']""", text)
        if m.group(2) in uris
    }
    return tuple(sorted(found))


def word_languages(text: str, prefixes: Sequence[str], target: Target) -> str:
    """`text` with every `w:lang` and `w:themeFontLang` saying the target."""
    for p in prefixes:
        if f"<{p}lang" not in text and f"<{p}themeFontLang" not in text:
            continue

        def relabel(match: re.Match[str], p: str = p) -> str:
            tag = set_attribute(match.group(0), f"{p}val", target.tag)
            if target.east_asian:
                tag = set_attribute(tag, f"{p}eastAsia", target.tag)
            if target.rtl:
                tag = set_attribute(tag, f"{p}bidi", target.tag)
            return tag

        text = re.sub(rf"<{re.escape(p)}(?:lang|themeFontLang)\b[^>]*>", relabel, text)
    return text


def drawing_languages(text: str, prefixes: Sequence[str], target: Target) -> str:
    """`text` with the `lang` of every DrawingML run property element saying the target."""
    for p in prefixes:
        if "lang=" not in text:
            break

        def relabel(match: re.Match[str]) -> str:
            tag = match.group(0)
            return set_attribute(tag, "lang", target.tag) if re.search(r"\slang\s*=", tag) else tag

        text = re.sub(rf"<{re.escape(p)}(?:rPr|endParaRPr|defRPr)\b[^>]*>", relabel, text)
    return text


def word_adapt(target: Target | None, prefix: str) -> Adapt:
    """How a translated Word run's properties change for the target."""

    def adapt(props: str | None) -> str | None:
        if target is None or not (target.rtl or (target.east_asian and target.east_asian_font)):
            return props
        out = props if props is not None else f"<{prefix}rPr></{prefix}rPr>"
        if target.rtl:
            out = with_child(out, f"<{prefix}rtl/>", "rtl", RUN_PROPERTIES)
        if target.east_asian and target.east_asian_font:
            out = _east_asian_font(out, prefix, target.east_asian_font)
        return out if out != f"<{prefix}rPr></{prefix}rPr>" else props

    return adapt


def _east_asian_font(props: str, prefix: str, font: str) -> str:
    fonts = re.search(rf"<{re.escape(prefix)}rFonts\b[^>]*>", props)
    if fonts is None:
        return props
    tag = fonts.group(0)
    if (
        get_attribute(tag, f"{prefix}eastAsia") is not None
        or get_attribute(tag, f"{prefix}eastAsiaTheme") is not None
    ):
        return props
    return props[: fonts.start()] + set_attribute(tag, f"{prefix}eastAsia", font) + props[fonts.end() :]


def default_east_asian_font(styles: str, prefix: str, target: Target) -> str:
    """styles.xml with the document default's fonts naming an East-Asian font where they name none."""
    if not (target.east_asian and target.east_asian_font):
        return styles
    found = re.search(
        rf"<{re.escape(prefix)}rPrDefault\b.*?</{re.escape(prefix)}rPrDefault>", styles, re.DOTALL
    )
    if found is None:
        return styles
    block = found.group(0)
    props = re.search(rf"<{re.escape(prefix)}rPr\b(?:[^>]*/>|.*?</{re.escape(prefix)}rPr>)", block, re.DOTALL)
    if props is None:
        return styles
    old = props.group(0)
    if re.search(rf"<{re.escape(prefix)}rFonts\b", old):
        new = _east_asian_font(old, prefix, target.east_asian_font)
    else:
        font = f'<{prefix}rFonts {prefix}eastAsia="{target.east_asian_font}"/>'
        new = with_child(old, font, "rFonts", RUN_PROPERTIES)
    block = block[: props.start()] + new + block[props.end() :]
    return styles[: found.start()] + block + styles[found.end() :]


def drawing_adapt(target: Target | None, prefix: str) -> Adapt:
    """How a translated DrawingML run's properties change: it says the target's language, and an
    East-Asian target's names an East-Asian font where it names none."""

    def adapt(props: str | None) -> str | None:
        if target is None:
            return props
        out = props if props is not None else f"<{prefix}rPr/>"
        start = out[: out.index(">") + 1]
        out = set_attribute(start, "lang", target.tag) + out[len(start) :]
        if target.east_asian and target.east_asian_font:
            font = f'<{prefix}ea typeface="{target.east_asian_font}"/>'
            out = with_child(out, font, "ea", TEXT_RUN_PROPERTIES)
        return out

    return adapt
