"""YAML string files: Rails locales (`en:` root, `%{x}`), Jekyll/Hugo data, i18n YAML.

String scalars are spliced in place (ruamel.yaml's parser gives their offsets; the tree is never
re-serialised): keys, anchors, aliases, merge keys, comments, tags, indentation and the quoting
style of every value stay as written. What is sent: walk.py; how a new value is written (a
plain scalar that cannot hold the translation becomes a double-quoted one): _scalars.py.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

from ..base import Decoded, DocumentDecodeError, FormatError, decode_utf8
from ..layout import Layout, file_named_by_language, folder_per_language
from ..strings import Item, PluralLanguages, SkippingStringsFormat
from ..strings.outline import Outline
from ._outline import yaml_outline
from ._roots import root_of
from .walk import Walk


def decode_yaml(data: bytes) -> Decoded:
    """UTF-8 (a BOM kept), or UTF-16 with its BOM (YAML allows both)."""
    for bom, encoding in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            try:
                return Decoded(data.decode(encoding), encoding)
            except UnicodeDecodeError as exc:
                raise DocumentDecodeError(f"not valid UTF-16 ({exc.reason})", exc.start) from None
    return decode_utf8(data)


_HEAD = 1 << 16  # a Rails file's root key is on its first lines


class YamlStringsFormat(SkippingStringsFormat):
    name = "yaml"
    suffixes = (".yml", ".yaml")
    layouts: ClassVar[tuple[Layout, ...]] = (folder_per_language, file_named_by_language)

    def decode(self, data: bytes) -> Decoded:
        return decode_yaml(data)

    @classmethod
    def declared_locale(cls, path: Path) -> str | None:
        """A Rails locale file's one root key (`en:`, `en_pirate:`, `de_formal:`): Ruby I18n
        loads the file as that locale, whatever its name says."""
        try:
            with path.open("rb") as handle:
                head = handle.read(_HEAD)
        except OSError:
            return None
        try:
            text = decode_yaml(head).text
        except DocumentDecodeError:  # (a character cut at the end of the head, or UTF-16)
            text = head.decode("utf-8-sig", "replace")
        root = root_of(text)
        return root.key if root is not None and root.kind == "rails" else None

    def _scan(
        self, text: str, wanted: Callable[[int, int], bool] | None, languages: PluralLanguages
    ) -> Iterator[Item]:
        from ruamel.yaml.error import YAMLError

        try:
            yield from Walk(text, wanted, languages).items()
        except YAMLError as exc:
            raise _format_error(exc) from None

    def outline(self, text: str) -> Outline:
        return self.target_outline(text, None)

    def target_outline(self, text: str, lang: str | None) -> Outline:
        from ruamel.yaml.error import YAMLError

        try:
            return yaml_outline(text, lang)
        except YAMLError as exc:
            raise _format_error(exc) from None

    def starts_from_source(self, text: str) -> bool:
        """A file of several locales (_roots.py): its translation is the output file's subtree of
        the target language, and an output that does not exist yet starts as the source."""
        root = root_of(text)
        return root is not None and root.kind == "locales"


def _format_error(exc: Exception) -> FormatError:
    """ruamel.yaml's error as one line, with its line and column."""
    from ruamel.yaml.error import MarkedYAMLError

    if isinstance(exc, MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        return FormatError(f"not valid YAML: {exc.problem or exc.context}{where}")
    return FormatError(f"not valid YAML: {str(exc).splitlines()[0]}")
