"""gettext PO and POT files: the empty msgstr of each message is translated from its msgid.

What is sent: the msgid (and msgid_plural) of every entry whose msgstr is empty, with its
msgctxt and extracted comments (`#.`) as context. Never touched: msgid, msgctxt, references,
flags, comments, entries that already have a translation (a person's work, fuzzy or not) and
obsolete `#~` entries. Placeholders follow the entry's flags (`c-format`: printf,
`python-format`: `%(name)s`, `python-brace-format`: `{name}` ...) or, without a flag, what the
msgid contains. A plural entry gets every `msgstr[i]` the target needs (_messages.py).

Edits every target file carries (_header.py): `Language`, `Plural-Forms`, a template's
`charset=CHARSET` (and its header's `fuzzy` flag, as msginit does). A file is read and written
in the charset its header declares, a UTF-8 byte order mark kept (_charset.py). A file whose header names
another language than the target (a `de.po` translated into French) has translations that are
not the target's: those msgstr are emptied, only the empty ones are filled. With
`PoOptions(fuzzy=True)` every machine translation is flagged `#, fuzzy` for review.

A translation identical to the msgid is not written (the entry stays untranslated, and gettext
shows the msgid), so the identity engine gives the source back with the header edits only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

from ..base import Decoded, FormatError
from ..ecosystems.linguas_join import Linguas, linguas_listing
from ..layout import Layout, folder_per_language, gettext_catalog
from ..strings import (
    Convention,
    Conventions,
    Edit,
    Entry,
    Item,
    PluralLanguages,
    StringsFormat,
    Value,
    active,
    looks_like_printf,
    parse_value,
)
from ..strings.outline import Outline
from ..strings.shape import is_text
from . import PoOptions
from ._charset import decode_po
from ._header import HeaderInfo, edited_header, new_header
from ._messages import PluralMessage, PluralTable, empty_block, flagged_write, msgstr_lines, value_start
from ._outline import po_outline
from .entries import Entry as PoEntry
from .entries import read_entries

# Format flags (`#, c-format`) -> the placeholder conventions of the message.
_FLAGS: dict[str, Convention] = {
    "c-format": Convention.PRINTF,
    "objc-format": Convention.PRINTF,
    "java-printf-format": Convention.PRINTF,
    "php-format": Convention.PRINTF,
    "javascript-format": Convention.PRINTF,
    "gcc-internal-format": Convention.PRINTF,
    "gfc-internal-format": Convention.PRINTF,
    "boost-format": Convention.PRINTF,
    "lua-format": Convention.PRINTF,
    "python-format": Convention.PYTHON_PERCENT,
    "python-brace-format": Convention.PYTHON_BRACE,
    "csharp-format": Convention.PYTHON_BRACE,
    "perl-brace-format": Convention.PYTHON_BRACE,
    "java-format": Convention.JAVA_MESSAGE,
    "ruby-format": Convention.RUBY,
}
# Without a format flag: what the msgid itself shows (HTML in templates, printf in C code).
_DETECTED = (Convention.PRINTF, Convention.PYTHON_PERCENT, Convention.HTML, Convention.TEMPLATE)


def conventions_of(flags: list[str], msgid: str) -> Conventions:
    flagged = {_FLAGS[f] for f in flags if f in _FLAGS}
    refused = {_FLAGS[f[3:]] for f in flags if f.startswith("no-") and f[3:] in _FLAGS}
    candidates = [c for c in _DETECTED if c not in refused]
    if not flagged and Convention.PRINTF not in refused and looks_like_printf(msgid):
        flagged.add(Convention.PRINTF)  # `%0dm`: a catalog without flags still formats its messages
    return active(msgid, candidates, flagged)


class PoFormat(StringsFormat):
    name = "po"
    suffixes = (".po", ".pot")
    layouts: ClassVar[tuple[Layout, ...]] = (gettext_catalog, folder_per_language)

    def __init__(self, options: PoOptions | None = None) -> None:
        self.fuzzy = (options or PoOptions()).fuzzy

    @classmethod
    def walk_refusal(cls, path: Path) -> str | None:
        return None  # a .po or .pot file is strings wherever it lies

    def decode(self, data: bytes) -> Decoded:
        return decode_po(data)

    def listing(self, target: Path) -> Linguas | None:
        """A new `po/ja.po` joins the `LINGUAS` beside it (meson and autotools build only the
        catalogs it lists), in its style (ecosystems/linguas_join.py)."""
        return linguas_listing(target)

    def scan(self, text: str, languages: PluralLanguages = None) -> Iterator[Item]:
        return _Scan(text, self.fuzzy, None, languages).items()

    def scan_wanted(
        self, text: str, wanted: Callable[[int, int], bool], languages: PluralLanguages = None
    ) -> Iterator[Item]:
        return _Scan(text, self.fuzzy, wanted, languages).items()

    def outline(self, text: str) -> Outline:
        return po_outline(text, fuzzy=self.fuzzy)


def _newline(text: str) -> str:
    match = re.search(r"\r\n|\n|\r", text)
    return match.group(0) if match else "\n"


class _Scan:
    def __init__(
        self,
        text: str,
        fuzzy: bool,
        wanted: Callable[[int, int], bool] | None = None,
        languages: PluralLanguages = None,
    ) -> None:
        self.text = text
        self.fuzzy = fuzzy
        self.wanted = wanted  # the entry spans that must be read (a merge needs few); None: all
        self.languages = languages  # those an ICU plural gets new forms for (None: every language)
        self.newline = _newline(text)
        self.header = HeaderInfo()
        self._table: PluralTable | None = None

    @property
    def table(self) -> PluralTable:
        """Every target's plural forms, once the header is read (the first plural entry asks)."""
        if self._table is None:
            self._table = PluralTable(self.header.plurals)
        return self._table

    def items(self) -> Iterator[Item]:
        entries = read_entries(self.text)
        first = next(entries, None)
        if first is None:
            return
        if first.is_header:
            self.header = HeaderInfo.read(first.msgstr[0].value)
            yield from self._header_edits(first)
        else:
            at = 1 if self.text.startswith("\ufeff") else 0  # after a byte order mark
            yield Edit(at, at, lambda lang: new_header(lang, self.newline))
            yield from self._entry(first)
        for entry in entries:
            yield from self._entry(entry)

    def _header_edits(self, entry: PoEntry) -> Iterator[Item]:
        header, text, newline = self.header, self.text, self.newline
        if "fuzzy" in entry.flags and entry.flags_line is not None and not header.language:
            start, end = entry.flags_line
            yield Edit(
                start,
                end + len(newline) if text.startswith(newline, end) else end,
                lambda lang: _without_fuzzy(text[start:end], newline),
            )
        field = entry.msgstr[0]

        def header_for(lang: str) -> str | None:
            changes = header.changes(lang)
            return edited_header(text, field, changes, newline) if changes else None

        yield Edit(field.start, field.end, header_for)

    def _entry(self, entry: PoEntry) -> Iterator[Item]:
        if entry.msgid is None or not entry.msgstr:
            return
        block_start, block_end = entry.msgstr[0].start, entry.msgstr[-1].end
        plural = entry.msgid_plural is not None
        if entry.translated:
            if self.header.says_language:  # emptied where the file's language is not the target's
                yield Edit(
                    block_start,
                    block_end,
                    lambda lang: (
                        None
                        if self.header.names(lang)
                        else empty_block(plural, lang, self.header.plurals, self.newline)
                    ),
                )
            return
        if not is_text(entry.msgid.value):  # a URL, a path, an address: gettext shows the msgid
            return
        flagged = self.fuzzy and "fuzzy" not in entry.flags
        start = value_start(self.text, entry, fuzzy=self.fuzzy)
        if self.wanted is not None and not self.wanted(start, block_end):
            return
        conventions = conventions_of(entry.flags, entry.msgid.value)
        context = [f"Context: {entry.msgctxt.value}"] if entry.msgctxt is not None else []
        note = "\n".join(line for line in [*context, *entry.extracted] if line)
        write: Callable[[str], str]
        value: Value
        if plural:
            assert entry.msgid_plural is not None
            value = PluralMessage(
                self.text[block_start:block_end],
                entry.msgid.value,
                entry.msgid_plural.value,
                conventions,
                self.table,
                self.newline,
                self.languages,
            )
            write = _as_written
        else:
            value = parse_value(entry.msgid.value, conventions, plural_languages=self.languages)
            write = functools.partial(msgstr_lines, "msgstr", newline=self.newline)
        if flagged:
            write = flagged_write(self.text, entry, write, self.newline)
        yield Entry(start, block_end, value, write, note=note, role=_role(entry))


def _role(entry: PoEntry) -> str:
    """`msgctxt "button" msgid "Save"`: how people find the message (line numbers change)."""
    assert entry.msgid is not None
    msgid = entry.msgid.value if len(entry.msgid.value) <= 60 else entry.msgid.value[:57] + "..."
    context = f'msgctxt "{entry.msgctxt.value}" ' if entry.msgctxt is not None else ""
    return f'{context}msgid "{msgid}"'.replace("\n", "\\n")


def _without_fuzzy(line: str, newline: str) -> str:
    flags = [f.strip() for f in line[2:].split(",") if f.strip() and f.strip() != "fuzzy"]
    return "#, " + ", ".join(flags) + newline if flags else ""


__all__ = ["FormatError", "PoFormat", "PoOptions"]


def _as_written(text: str) -> str:
    """A plural entry's msgstr lines come written by its value (PluralMessage)."""
    return text
