"""JSON string files: nested/flat JSON, i18next, ICU (FormatJS), Flutter ARB, WebExtension.

Each string value is spliced in place (jsontext gives its offsets): keys, numbers, booleans,
nulls, key order, indentation and the escapes of every untouched value stay as written; a new
value is escaped the way the file writes strings (jsontext.JsonStyle). What is sent and how
plural keys are added: _walk.py; which kind of file: flavor.py.

Target edits (the only changes identity makes): ARB `@@locale` becomes the target (`zh_Hant`),
and i18next plural keys a target needs are added (Russian `_few`, `_many`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from ..base import Decoded, FormatError, decode_utf8
from ..jsontext import JsonSyntaxError
from ..layout import Layout, Marked, arb_file, file_named_by_language, folder_per_language
from ..strings import Item, PluralLanguages, StringsFormat, Wanted
from ..strings.outline import Outline
from . import Flavor, JsonOptions
from ._walk import Walk, arb_descriptions
from .flavor import detect
from .outline import json_outline

# Chrome's _locales folders: `_` separators and its own names for some languages.
_WEBEXT_NAMES = {"zh": "zh_CN", "zh-Hant": "zh_TW", "tl": "fil"}


def webextension_locales(path: Path) -> Marked | None:
    """`_locales/en/messages.json` -> `_locales/zh_TW/messages.json`."""
    parts = path.parts
    if len(parts) < 3 or parts[-3] != "_locales":
        return None
    return Marked(
        parts[-2], lambda lang: Path(*parts[:-2], _WEBEXT_NAMES.get(lang, lang.replace("-", "_")), parts[-1])
    )


class JsonStringsFormat(StringsFormat):
    name = "json"
    suffixes = (".json",)
    layouts: ClassVar[tuple[Layout, ...]] = (
        webextension_locales,
        folder_per_language,
        file_named_by_language,
    )

    def __init__(self, options: JsonOptions | None = None) -> None:
        self.flavor: Flavor = (options or JsonOptions()).flavor

    def decode(self, data: bytes) -> Decoded:
        return decode_utf8(data)

    def _flavor(self, text: str) -> Flavor:
        return detect(text) if self.flavor == "auto" else self.flavor

    def scan(self, text: str, languages: PluralLanguages = None) -> Iterator[Item]:
        return self._scan(text, None, languages)

    def scan_wanted(self, text: str, wanted: Wanted, languages: PluralLanguages = None) -> Iterator[Item]:
        return self._scan(text, wanted, languages)

    def _scan(self, text: str, wanted: Wanted | None, languages: PluralLanguages) -> Iterator[Item]:
        flavor = self._flavor(text)
        try:
            descriptions = arb_descriptions(text) if flavor == "arb" else None
            skip = wanted.skippable if wanted is not None else None
            yield from Walk(text, flavor, descriptions, wanted, skip, languages).items()
        except JsonSyntaxError as exc:
            raise FormatError(f"not valid JSON: {exc}") from None

    def outline(self, text: str) -> Outline:
        try:
            return json_outline(text, arb=self._flavor(text) == "arb")
        except JsonSyntaxError as exc:
            raise FormatError(f"not valid JSON: {exc}") from None


class ArbFormat(JsonStringsFormat):
    name = "arb"
    suffixes = (".arb",)
    layouts: ClassVar[tuple[Layout, ...]] = (arb_file,)

    def _flavor(self, text: str) -> Flavor:
        return "arb"
