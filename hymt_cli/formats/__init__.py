"""Format registry: each format by name and file suffixes, with its own options dataclass.

Every format is an `InputFormat` (base.py): the pipeline opens an input with it and gets
units to translate and writers for the outputs. A document format (`DocumentFormat` +
`SplicingFormat`, document.py) only decodes and parses; a table format (parquet, csv, tsv, jsonl)
reads and writes batches of rows, and parses its cells with a document format. A new format
is one module and one entry below.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

from .base import (Decoded, DocumentDecodeError, DocumentFormat, FormatError, InputFormat, InputReader,
                   InputSource, ParsedDocument, Unit, UnitWriter)
from .document import SplicingFormat
from .html import HtmlFormat
from .json_strings import ArbFormat, JsonOptions, JsonStringsFormat
from .layout import Layout, Marked, marked
from .markdown import MarkdownFormat
from .delimited import CsvFormat, DelimitedOptions, TsvFormat
from .jsonlines import JsonLinesFormat
from .parquet import ParquetFormat, ParquetOptions
from .strings import StringsFormat
from .properties import PropertiesFormat
from .table_cells import TableOptions
from .toml_strings import TomlStringsFormat
from .yaml_strings import YamlStringsFormat
from .text import TextFormat, TextOptions

# Options of each format, by format name; a format missing here gets its defaults.
FormatSettings = Mapping[str, object]
_Options = TypeVar("_Options")


def _options(settings: FormatSettings | None, name: str, kind: type[_Options]) -> _Options:
    options = (settings or {}).get(name)
    if options is None:
        return kind()
    if not isinstance(options, kind):
        raise TypeError(f"{name} options must be {kind.__name__}, not {type(options).__name__}")
    return options


_DOCUMENTS: dict[str, tuple[tuple[str, ...], Callable[[FormatSettings | None], SplicingFormat]]] = {
    TextFormat.name: (TextFormat.suffixes, lambda s: TextFormat(_options(s, TextFormat.name, TextOptions))),
    MarkdownFormat.name: (MarkdownFormat.suffixes, lambda s: MarkdownFormat()),
    HtmlFormat.name: (HtmlFormat.suffixes, lambda s: HtmlFormat()),
    JsonStringsFormat.name: (JsonStringsFormat.suffixes,
                             lambda s: JsonStringsFormat(_options(s, JsonStringsFormat.name, JsonOptions))),
    ArbFormat.name: (ArbFormat.suffixes, lambda s: ArbFormat()),
    YamlStringsFormat.name: (YamlStringsFormat.suffixes, lambda s: YamlStringsFormat()),
    TomlStringsFormat.name: (TomlStringsFormat.suffixes, lambda s: TomlStringsFormat()),
    PropertiesFormat.name: (PropertiesFormat.suffixes, lambda s: PropertiesFormat()),
}
# String-file formats: where a path names its language (layout.py), and which files a folder
# walk takes (a shared suffix such as .json: only where the path shows strings).
_STRINGS: tuple[type[StringsFormat], ...] = (JsonStringsFormat, ArbFormat, YamlStringsFormat,
                                                 TomlStringsFormat, PropertiesFormat)
LAYOUTS: dict[str, tuple[Layout, ...]] = {cls.name: cls.layouts for cls in _STRINGS}
_WALK_GATES: dict[str, Callable[[Path], str | None]] = {cls.name: cls.walk_refusal for cls in _STRINGS}
# Table formats: built from the table options every table shares (key "table"; settings.py
# still names them "parquet", read as well until the lead renames it), their own options, and
# the document format their cells are parsed with.
TABLE_OPTIONS = "table"
_TABLES: dict[str, tuple[tuple[str, ...], Callable[[FormatSettings | None, TableOptions, SplicingFormat],
                                                  InputFormat]]] = {
    ParquetFormat.name: (ParquetFormat.suffixes, lambda s, table, cells: ParquetFormat(table, cells)),
    CsvFormat.name: (CsvFormat.suffixes, lambda s, table, cells: CsvFormat(
        table, _options(s, CsvFormat.name, DelimitedOptions), cells)),
    TsvFormat.name: (TsvFormat.suffixes, lambda s, table, cells: TsvFormat(
        table, _options(s, TsvFormat.name, DelimitedOptions), cells)),
    JsonLinesFormat.name: (JsonLinesFormat.suffixes, lambda s, table, cells: JsonLinesFormat(table, cells)),
}
FORMAT_NAMES: tuple[str, ...] = (*_DOCUMENTS, *_TABLES)
SUFFIXES: dict[str, str] = {
    suffix: name for entries in (_DOCUMENTS, _TABLES) for name, (suffixes, _) in entries.items()
    for suffix in suffixes}


def table_options(settings: FormatSettings | None) -> TableOptions:
    """The options every table format takes."""
    key = TABLE_OPTIONS if settings and TABLE_OPTIONS in settings else ParquetFormat.name
    return _options(settings, key, TableOptions)


def path_marked(name: str, path: Path) -> Marked | None:
    """Where `path` names its language in the layout of format `name` (None: no layout)."""
    return marked(path, LAYOUTS.get(name, ()))


def walk_refusal(name: str, path: Path) -> str | None:
    """Why a file of format `name` found in a folder walk is no input, or None."""
    gate = _WALK_GATES.get(name)
    return gate(path) if gate is not None else None


def text_format_names() -> tuple[str, ...]:
    """The document formats (what a table cell can be parsed as)."""
    return tuple(_DOCUMENTS)


def document_format(name: str, settings: FormatSettings | None = None) -> SplicingFormat:
    """The document format called `name`; KeyError when there is none."""
    return _DOCUMENTS[name][1](settings)


def format_named(name: str, settings: FormatSettings | None = None) -> InputFormat:
    """The format called `name`, built with its own options from `settings`; KeyError when none."""
    if name not in _TABLES:
        return document_format(name, settings)
    options = table_options(settings)
    if options.cell_format not in _DOCUMENTS:
        raise ValueError(f"--cell-format must be a text format ({', '.join(_DOCUMENTS)}), "
                         f"not {options.cell_format!r}")
    return _TABLES[name][1](settings, options, document_format(options.cell_format, settings))


def format_for_path(path: Path, settings: FormatSettings | None = None) -> InputFormat | None:
    """The format for a file's suffix, or None when hymt does not read such files."""
    name = SUFFIXES.get(path.suffix.lower())
    return format_named(name, settings) if name is not None else None


__all__ = ["Decoded", "DocumentDecodeError", "DocumentFormat", "FormatError", "InputFormat", "InputReader",
           "InputSource", "ParsedDocument", "Unit", "UnitWriter", "FORMAT_NAMES", "SUFFIXES",
           "FormatSettings", "TextOptions", "ParquetOptions", "TableOptions", "DelimitedOptions", "TABLE_OPTIONS",
           "SplicingFormat", "document_format", "format_named", "format_for_path", "table_options",
           "text_format_names", "JsonOptions", "LAYOUTS", "path_marked", "walk_refusal"]
