"""Making translated text safe where it is spliced into Markdown.

The model saw characters; what it writes back is text, never markup: each function here
escapes what would otherwise open a construct the source did not have in that context
(prose, a table cell, image alt text, a link title, a YAML or TOML value) or start a block
at the beginning of a line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

Escape = Callable[[str], str]

_ENTITY_LIKE = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
# Markdown syntax in translated prose is escaped: a model's `*x*`, `[x](u)`, `` `x` ``,
# `~~x~~`, `$x$` or a backslash escape must not become markup the source did not have.
_PROSE_SPECIAL = re.compile(r"[\\`*~\[\]$]|(?<![^\W_])_|_(?![^\W_])")
_BRACKET = re.compile(r"(?<!\\)([\[\]])")
_ORDERED_START = re.compile(r"(\d{1,9})([.)])(?=[ \t]|\Z)")
_BLOCK_START = re.compile(
    r"#{1,6}(?:[ \t]|\Z)"  # ATX heading
    r"|[>|]"  # block quote; table row
    r"|[-+*](?:[ \t]|\Z)"  # bullet list item
    r"|(?:[-*_][ \t]*){3,}\Z|=+[ \t]*\Z"  # thematic break; setext underline
    r"|`{3}|~{3}|\$\$|!!!|\?\?\?"  # fence; math block; admonition
    r"|:?-+:?[ \t]*\|"  # table delimiter row
    r"|\[[^\]]*\]:"
)  # reference or footnote definition
_YAML_PLAIN_UNSAFE = re.compile(r":(\s|\Z)|\s#|\A[\s\-?:,\[\]{}#&*!|>'\"%@`]|\s\Z")


def escape_tag_start(text: str) -> str:
    return _TAG_START.sub("&lt;", text)


def escape_text(text: str) -> str:
    """Translated prose is text, never markup: what would open an HTML tag, an entity, a
    code span, math, emphasis, strikethrough, a link or an image, or escape the next
    character is escaped (`*` -> `\\*`; `_` inside a word cannot open emphasis: kept)."""
    text = _ENTITY_LIKE.sub("&amp;", text)  # the model saw characters: `&copy;` is text
    return escape_tag_start(_PROSE_SPECIAL.sub(lambda m: "\\" + m.group(0), text))


def guard_bang(text: str, markup: str) -> str:
    """Translated text ending in `!` right before a link's `[` would turn the link into an
    image: the `!` is escaped."""
    if markup.startswith("[") and text.endswith("!") and not text.endswith("\\!"):
        return text[:-1] + "\\!"
    return text


def escape_admonition_title(text: str) -> str:
    """An admonition title sits between double quotes: a quote in it would end the title."""
    return escape_text(text).replace('"', "\u201d")


def guard_line_start(text: str) -> str:
    """Translated text that begins a line of a paragraph must not start a block there: the
    output keeps the source's block structure (`- x` -> `\\- x`, `1. x` -> `1\\. x`)."""
    text = text.lstrip(" \t")  # 4 spaces at a paragraph's start would open a code block
    ordered = _ORDERED_START.match(text)
    if ordered:
        return ordered.group(1) + "\\" + text[ordered.end(1) :]
    if _BLOCK_START.match(text):
        return "\\" + text
    return text


def escape_inline_footnote(text: str) -> str:
    """Prose inside `^[...]`: as any prose, and brackets escaped."""
    return _BRACKET.sub(r"\\\1", escape_text(text))


def escape_alt_text(chars: str) -> str:
    """Text inside `[...]` (image alt): brackets and what could swallow them are escaped."""
    out = escape_tag_start(_ENTITY_LIKE.sub("&amp;", chars.replace("\\", "\\\\")))
    return re.sub(r"([\[\]`$])", r"\\\1", out)


def title_escape(delimiter: str) -> Escape:
    """Escape for a link title written between `delimiter`s (`"`, `'` or `(`)."""
    specials = {'"': '"', "'": "'", "(": "()"}[delimiter]

    def escape(text: str) -> str:
        out = _ENTITY_LIKE.sub("&amp;", text.replace("\\", "\\\\"))
        return "".join("\\" + ch if ch in specials else ch for ch in out)

    return escape


def escape_pipes(text: str) -> str:
    """A `|` inside a table cell would end the cell (applied after the other escapes, which
    double every backslash: so every pipe here is the text's own)."""
    return text.replace("|", "\\|")


def escape_table_cell(text: str) -> str:
    return escape_pipes(escape_text(text))


def in_table(escape: Escape) -> Escape:
    """`escape`, then pipes escaped: for text nested in a table cell (alt text, titles)."""
    return lambda text: escape_pipes(escape(text))


def yaml_plain(text: str) -> str:
    return json.dumps(text, ensure_ascii=False) if _YAML_PLAIN_UNSAFE.search(text) else text


def yaml_double(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def yaml_single(text: str) -> str:
    return text.replace("'", "''")


# TOML front matter is no front matter to CommonMark: a Markdown viewer shows it as a paragraph,
# so what would open markup there (a tag, a link, an image, code, emphasis, math) must not: a
# basic string writes those characters as `\uXXXX` escapes (Hugo reads the same value), a literal
# string, which has no escapes, as their fullwidth look-alikes.
_TOML_MARKUP = re.compile(r"<(?=[A-Za-z/!?])|[\[\]`*_~$!&]")


def toml_basic(text: str) -> str:
    """A TOML basic string escapes `\\` and `"` as YAML's double quotes do, markup as `\\uXXXX`."""
    return _TOML_MARKUP.sub(lambda m: f"\\u{ord(m.group(0)):04X}", yaml_double(text))


def toml_literal(text: str) -> str:
    """A TOML literal string has no escapes: a `'` becomes a typographic apostrophe, markup
    characters their fullwidth forms (`[` -> `［`)."""
    return _TOML_MARKUP.sub(lambda m: chr(ord(m.group(0)) + 0xFEE0), text.replace("'", "\u2019"))
