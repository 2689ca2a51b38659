"""Magento translation dictionaries: CSV files of `"phrase","translation"` rows.

Magento 2 keeps one per module, theme or language pack, named by its locale in an `i18n`
folder (`app/code/Vendor/Module/i18n/en_US.csv`; a language pack adds two columns, the type
and name of the module); Magento 1 and OpenMage keep them per locale folder
(`app/locale/en_US/Mage_Customer.csv`). Such a file has no header: the first column is the
phrase the code looks up, the second what is shown. A file found there (and whose first record
has two or four fields) is read without `--columns` as Magento reads it: the second column is
translated, the phrase stays the key. Its cells are phrases: Magento 2's `%1` and `%name`,
Magento 1's sprintf `%s` `%1$s` (with `%%`), Zend_Validate's `%value%` and HTML are
placeholders the model never sees as text (conventions.MAGENTO).
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import ClassVar

from ..strings import Convention, Entry, StringsDocument, active, parse_value
from ..strings.shape import is_text

TRANSLATED_COLUMN = "2"
_LOCALE = re.compile(r"[a-z]{2,3}_[A-Z][a-z]{3}_[A-Z]{2}|[a-z]{2,3}_[A-Z]{2}")
_FIELDS = (2, 4)  # phrase, translation [, type, module name] (a Magento 2 language pack)


def is_dictionary(display: str, first_record_fields: int) -> bool:
    """`display` (an input's path) is where Magento keeps a translation dictionary, and its first
    record has the fields of one."""
    return first_record_fields in _FIELDS and dictionary_path(PurePath(display))


def dictionary_path(path: PurePath) -> bool:
    """`path` is where Magento keeps a translation dictionary (`i18n/en_US.csv`,
    `app/locale/en_US/Mage_Customer.csv`)."""
    if path.suffix.lower() != ".csv":
        return False
    if path.parent.name == "i18n" and _LOCALE.fullmatch(path.stem):
        return True  # Magento 2
    return _LOCALE.fullmatch(path.parent.name) is not None and path.parent.parent.name == "locale"


class PhraseCells:
    """Parses a cell as a Magento phrase: its placeholders and HTML become tags."""

    name: ClassVar[str] = "magento"

    def parse(self, text: str) -> StringsDocument:
        if not text.strip() or not is_text(text):
            return StringsDocument(text, ())
        # HTML always: Magento templates print many phrases unescaped, so no tag the model writes
        # may become live (a bare `&` or `>` stays bare).
        value = parse_value(text, active(text, (Convention.PRINTF,), {Convention.MAGENTO, Convention.HTML}))
        return StringsDocument(text, (Entry(0, len(text), value, _as_written),) if value.segments else ())


def _as_written(text: str) -> str:
    return text  # the field's quoting is the CSV writer's
