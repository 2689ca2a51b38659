"""Apple `.strings` and `.stringsdict` files (iOS, macOS): values translated in place.

`.strings`: the value of each `"key" = "value";` pair is sent, with the comment just before the
pair as context; keys, comments and layout are kept, and so are the encoding and its byte
order mark (UTF-8, or UTF-16 as `genstrings` writes it). `%@ %1$@ %d %lu %#@var@` are tags;
a new value is quoted with the file's escapes (`\\"`, `\\\\`, `\\n`).

`.stringsdict` (_stringsdict.py): the text of `NSStringLocalizedFormatKey` (its `%#@var@`
variables are tags) and the strings of each rule dictionary; plural rules get the target's
categories.

Outputs follow the `.lproj` layout (layout.apple_lproj): `en.lproj/Localizable.strings` ->
`de.lproj/Localizable.strings` (`Base.lproj` too).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

from ..base import Decoded, DocumentDecodeError
from ..layout import Layout, apple_lproj
from ..strings import (
    Convention,
    Entry,
    Item,
    PluralLanguages,
    SkippingStringsFormat,
    StringsFormat,
    active,
    looks_like_printf,
    parse_value,
)
from ..strings.outline import Outline
from ..strings.shape import is_text
from ..xmlscan import decode_xml
from ._strings_outline import strings_outline
from ._stringsdict import stringsdict_items
from ._stringsdict_outline import stringsdict_outline
from .lexer import pairs, quote


def decode_strings(data: bytes) -> Decoded:
    """UTF-16 (with its byte order mark, or without one, told by its zero bytes) or UTF-8; the
    BOM stays in the text so that encoding gives back the same bytes."""
    if data.startswith(codecs.BOM_UTF16_LE):
        encoding = "utf-16-le"
    elif data.startswith(codecs.BOM_UTF16_BE):
        encoding = "utf-16-be"
    elif len(data) >= 2 and data[1] == 0 and data[0] != 0:
        encoding = "utf-16-le"
    elif len(data) >= 2 and data[0] == 0 and data[1] != 0:
        encoding = "utf-16-be"
    else:
        encoding = "utf-8"
    try:
        return Decoded(data.decode(encoding), encoding)
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(f"not valid {encoding.upper()} ({exc.reason})", exc.start) from None


class AppleStringsFormat(SkippingStringsFormat):
    name = "strings"
    suffixes = (".strings",)
    layouts: ClassVar[tuple[Layout, ...]] = (apple_lproj,)

    @classmethod
    def walk_refusal(cls, path: Path) -> str | None:
        return None  # .strings files are strings wherever they lie

    def decode(self, data: bytes) -> Decoded:
        return decode_strings(data)

    def outline(self, text: str) -> Outline:
        return strings_outline(text)

    def _scan(
        self, text: str, wanted: Callable[[int, int], bool] | None, languages: PluralLanguages
    ) -> Iterator[Item]:
        for pair in pairs(text):
            if pair.value is None or not is_text(pair.value.value):
                continue
            if wanted is not None and not wanted(pair.value.start, pair.value.end):
                continue
            said = pair.value.value
            always = {Convention.PRINTF} if looks_like_printf(said) else set()
            conventions = active(said, (Convention.PRINTF, Convention.HTML), always)
            value = parse_value(said, conventions, plural_languages=languages)
            if value.segments:
                yield Entry(
                    pair.value.start, pair.value.end, value, quote, key=pair.key.value, note=pair.comment
                )


class StringsDictFormat(StringsFormat):
    name = "stringsdict"
    suffixes = (".stringsdict",)
    layouts: ClassVar[tuple[Layout, ...]] = (apple_lproj,)

    @classmethod
    def walk_refusal(cls, path: Path) -> str | None:
        return None  # .stringsdict files are strings wherever they lie

    def decode(self, data: bytes) -> Decoded:
        return decode_xml(data)

    def scan(self, text: str, languages: PluralLanguages = None) -> Iterator[Item]:
        # (its plurals get every language's forms: a .stringsdict lists each language's rules)
        return iter(stringsdict_items(text))

    def outline(self, text: str) -> Outline:
        return stringsdict_outline(text)


__all__ = ["AppleStringsFormat", "StringsDictFormat"]
