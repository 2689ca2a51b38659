"""Formats: each one a module, registered below by name and suffixes with its own options.

Every format is an `InputFormat` (base.py): the pipeline opens an input with it and gets
units to translate and writers for the outputs. A document format (`DocumentFormat` +
`SplicingFormat`, document.py) only decodes and parses; a table format (parquet) reads and
writes batches of rows. A new format is one module and one `register` call here.
"""
from __future__ import annotations

from ..errors import UsageError
from collections.abc import Callable
from typing import Any

from ..options import OptionSet, Options
from .base import (Decoded, DocumentDecodeError, DocumentFormat, FormatError, InputFormat, InputReader,
                   InputSource, ParsedDocument, Unit, UnitWriter)
from .android import AndroidFormat
from .apple import AppleStringsFormat, StringsDictFormat
from .document import SplicingFormat
from .html import HtmlFormat
from .json_strings import ArbFormat, JsonOptions, JsonStringsFormat
from .layout import Layout, Marked, marked
from .markdown import MarkdownFormat
from .parquet import ParquetFormat, ParquetOptions
from .registry import (FORMATS, FormatSpec, document_format, format_for_path, format_named, path_marked, register,
                       suffixes,
                       text_format_names, unregister, walk_refusal)
from .po import PoFormat, PoOptions
from .strings import StringsFormat
from .properties import PropertiesFormat
from .toml_strings import TomlStringsFormat
from .yaml_strings import YamlStringsFormat
from .text import TextFormat, TextOptions
from .xliff import XliffFormat, XliffOptions
from .xml_kind import xml_format_name


def _parquet(options: OptionSet) -> ParquetFormat:
    table = options.of(ParquetOptions)
    try:
        cells = document_format(table.cell_format, options)
    except KeyError:
        raise UsageError(f"--cell-format must be one of {', '.join(text_format_names())}, "
                         f"not {table.cell_format!r}") from None
    return ParquetFormat(table, cells)


register(FormatSpec(TextFormat.name, TextFormat.suffixes, lambda o: TextFormat(o.of(TextOptions)), TextOptions,
                    cell=True))
register(FormatSpec(MarkdownFormat.name, MarkdownFormat.suffixes, lambda o: MarkdownFormat(), cell=True))
register(FormatSpec(HtmlFormat.name, HtmlFormat.suffixes, lambda o: HtmlFormat(), cell=True))
register(FormatSpec(ParquetFormat.name, ParquetFormat.suffixes, _parquet, ParquetOptions, document=False))


def _strings(fmt: type[StringsFormat], build: Callable[[OptionSet], StringsFormat],
             options: type[Options] | None = None, **more: Any) -> None:
    """A software-strings format: its keys and comments are short, telling context; its path
    may name its language (layouts); a shared suffix is taken in folders only where the path
    shows strings (walk_refusal)."""
    register(FormatSpec(fmt.name, fmt.suffixes, build, options, context_by_default=True, layouts=fmt.layouts,
                        walk_refusal=fmt.walk_refusal, **more))


_strings(JsonStringsFormat, lambda o: JsonStringsFormat(o.of(JsonOptions)), JsonOptions)
_strings(ArbFormat, lambda o: ArbFormat())
_strings(YamlStringsFormat, lambda o: YamlStringsFormat())
_strings(TomlStringsFormat, lambda o: TomlStringsFormat())
_strings(PropertiesFormat, lambda o: PropertiesFormat())
_strings(PoFormat, lambda o: PoFormat(o.of(PoOptions)), PoOptions)
# `.xml` is every kind of XML: the root element says whether a file is XLIFF or Android strings.
_strings(XliffFormat, lambda o: XliffFormat(o.of(XliffOptions)), XliffOptions, by_content=(".xml",),
         claims=lambda path: xml_format_name(path) == "xliff")
_strings(AndroidFormat, lambda o: AndroidFormat(), by_content=(".xml",),
         claims=lambda path: xml_format_name(path) == "android")
_strings(AppleStringsFormat, lambda o: AppleStringsFormat())
_strings(StringsDictFormat, lambda o: StringsDictFormat())

__all__ = ["Decoded", "DocumentDecodeError", "DocumentFormat", "FormatError", "InputFormat", "InputReader",
           "InputSource", "ParsedDocument", "Unit", "UnitWriter", "FORMATS", "FormatSpec", "ParquetOptions",
           "SplicingFormat", "TextOptions", "document_format", "format_named", "format_for_path", "register",
           "suffixes", "text_format_names", "unregister", "JsonOptions", "path_marked", "walk_refusal", "Layout",
           "Marked", "marked", "StringsFormat", "PoOptions", "XliffOptions"]
