"""TOML string files: Hugo `i18n/en.toml` (`[key]` tables with `other = "..."`, plural keys), and
any TOML whose string values are text.

tomllib (the standard library) checks the document first, so a broken file gets its error with
line and column; _tomltext.py then finds every string's offsets, and each decoded value is
checked against tomllib's before it is used. Values are spliced in place: keys, tables,
comments, numbers, booleans, dates and each string's style (`"`, `'`, `\"\"\"`, `'''`) stay. A
new value that a literal string cannot hold (a `'`, a line break) becomes a basic string.

A table whose keys are plural categories (`one`, `other`: go-i18n, Hugo) gets the categories
a target needs (`few`, `many` for Russian) after its last key, translated from `other`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from ..base import Decoded, FormatError, decode_utf8
from ..layout import Layout, file_named_by_language, folder_per_language
from ..strings import (
    Entry,
    Item,
    PluralLanguages,
    SkippingStringsFormat,
    active,
    category_note,
    missing_categories,
    parse_value,
)
from ..strings.conventions import Convention
from ..strings.outline import Outline
from ..strings.plurals import CATEGORIES, nearest_form
from ..strings.shape import is_text
from ._outline import toml_outline
from ._tomltext import Table, TomlString, encode, scan

CANDIDATES = frozenset({Convention.TEMPLATE, Convention.PRINTF, Convention.BRACE, Convention.HTML})
_KEY = re.compile(r"""^(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)""")


def _lookup(data: Any, path: tuple[str, ...]) -> Any:
    for part in path:
        if isinstance(data, list):
            if not part.isdigit() or int(part) >= len(data):
                return None
            data = data[int(part)]
        elif isinstance(data, dict):
            data = data.get(part)
        else:
            return None
    return data


def reads_back(raw: str, value: str) -> bool:
    try:
        return tomllib.loads(f"x = {raw}\n").get("x") == value
    except tomllib.TOMLDecodeError:
        return False


def _writer(raw: str, style: str) -> Callable[[str], str]:
    def write(text: str) -> str:
        for candidate_style in (style, '"'):
            candidate = encode(text, candidate_style, raw)
            if candidate is not None and reads_back(candidate, text):
                return candidate
        return encode(text, '"') or '""'

    return write


class TomlStringsFormat(SkippingStringsFormat):
    name = "toml"
    suffixes = (".toml",)
    layouts: ClassVar[tuple[Layout, ...]] = (folder_per_language, file_named_by_language)

    def decode(self, data: bytes) -> Decoded:
        return decode_utf8(data)

    def _scan(
        self, text: str, wanted: Callable[[int, int], bool] | None, languages: PluralLanguages
    ) -> Iterator[Item]:
        data = _loaded(text)
        strings, tables = scan(text)
        plural = _plural_tables(strings, tables)
        for string in strings:
            group = plural.get(string.path[:-1])
            if wanted is None or group is not None or wanted(string.start, string.end):
                entry = self._entry(text, string, data, languages)
                if entry is not None:
                    yield entry
            if group is not None and group[-1] is string:
                yield from self._new_forms(text, group, data, languages)

    def outline(self, text: str) -> Outline:
        _loaded(text)
        return toml_outline(text, _writer)

    def _entry(self, text: str, string: TomlString, data: Any, languages: PluralLanguages) -> Entry | None:
        value = string.value
        if _lookup(data, string.path) != value or not value.strip() or not is_text(value):
            return None  # (a value the scan read otherwise than tomllib is left alone)
        parsed = parse_value(value, active(value, CANDIDATES), plural_languages=languages)
        if not parsed.segments:
            return None
        raw = text[string.start : string.end]
        return Entry(
            string.start,
            string.end,
            parsed,
            _writer(raw, string.style),
            ".".join(string.path),
            _comment_above(text, string.key_start),
        )

    def _new_forms(
        self, text: str, group: list[TomlString], data: Any, languages: PluralLanguages
    ) -> Iterator[Entry]:
        categories = [s.path[-1] for s in group]
        base_name = nearest_form(categories)
        if base_name is None:
            return
        base = group[categories.index(base_name)]
        entry = self._entry(text, base, data, languages)
        if entry is None:
            return
        last = group[-1]
        line_start = text.rfind("\n", 0, last.key_start) + 1
        indent = text[line_start : last.key_start]
        separator = text[last.key_start : last.start]
        at = text.find("\n", last.end)
        at = len(text) if at < 0 else at
        prefix = ".".join(base.path[:-1])
        newline = "\r\n" if text[at - 1 : at + 1] == "\r\n" or "\r\n" in text[:4096] else "\n"
        if text[at - 1 : at] == "\r":
            at -= 1  # before the line's CR LF
        for lang, missing in sorted(missing_categories(categories, languages=languages).items()):
            for category in missing:
                head = newline + indent + _KEY.sub(category, separator)
                yield Entry(
                    at,
                    at,
                    entry.value.for_targets(frozenset({lang}), category_note(lang, category)),
                    _prefixed(head, _writer('""', '"')),
                    f"{prefix}.{category}",
                    entry.note,
                    frozenset({lang}),
                    entry,
                    path=(*base.path[:-1], category),
                )


def _loaded(text: str) -> Any:
    """The document as tomllib reads it (a FormatError with line and column where it is no TOML)."""
    try:
        return tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise FormatError(f"not valid TOML: {exc}") from None


def _prefixed(head: str, write: Callable[[str], str]) -> Callable[[str], str]:
    return lambda text: head + write(text)


def _plural_tables(strings: list[TomlString], tables: list[Table]) -> dict[tuple[str, ...], list[TomlString]]:
    """Tables whose keys are all plural categories (two or more, `other` among them), each with
    its strings in order."""
    wanted = {
        table.path: len(table.keys)
        for table in tables
        if len(table.keys) >= 2
        and "other" in table.keys
        and set(table.keys) <= set(CATEGORIES)
        and len(set(table.keys)) == len(table.keys)
    }
    found: dict[tuple[str, ...], list[TomlString]] = {}
    for string in strings:
        parent = string.path[:-1]
        if parent in wanted and string.key_start >= 0 and not string.in_inline:
            found.setdefault(parent, []).append(string)
    return {path: members for path, members in found.items() if len(members) == wanted[path]}


def _comment_above(text: str, key_start: int) -> str:
    if key_start < 0:
        return ""
    lines: list[str] = []
    start = text.rfind("\n", 0, key_start) + 1
    while start > 0 and len(lines) < 5:
        previous = text.rfind("\n", 0, start - 1) + 1
        line = text[previous : start - 1].strip()
        if not line.startswith("#") or line.startswith("# ==="):
            break
        lines.append(line.lstrip("#").strip())
        start = previous
    return "\n".join(reversed([line for line in lines if line]))
