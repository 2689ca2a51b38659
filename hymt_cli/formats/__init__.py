"""Format registry: each format by name and file suffixes, with its own options dataclass.

Every format is an `InputFormat` (base.py): the pipeline opens an input with it and gets
units to translate and writers for the outputs. A document format (`DocumentFormat` +
`SplicingFormat`, document.py) only decodes and parses; a table format (parquet) reads and
writes batches of rows. A new format is one module and one entry below.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

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
from .po import PoFormat, PoOptions
from .strings import StringsFormat
from .properties import PropertiesFormat
from .toml_strings import TomlStringsFormat
from .yaml_strings import YamlStringsFormat
from .text import TextFormat, TextOptions
from .xliff import XliffFormat, XliffOptions
from .xml_kind import xml_format_name

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
    PoFormat.name: (PoFormat.suffixes, lambda s: PoFormat(_options(s, PoFormat.name, PoOptions))),
    XliffFormat.name: (XliffFormat.suffixes, lambda s: XliffFormat(_options(s, XliffFormat.name, XliffOptions))),
    AndroidFormat.name: (AndroidFormat.suffixes, lambda s: AndroidFormat()),
    AppleStringsFormat.name: (AppleStringsFormat.suffixes, lambda s: AppleStringsFormat()),
    StringsDictFormat.name: (StringsDictFormat.suffixes, lambda s: StringsDictFormat()),
}
# A suffix several formats share: the file's content says which (an `.xml` file: Android or XLIFF).
_BY_CONTENT: dict[str, Callable[[Path], str | None]] = {".xml": xml_format_name}
# String-file formats: where a path names its language (layout.py), and which files a folder
# walk takes (a shared suffix such as .json: only where the path shows strings).
_STRINGS: tuple[type[StringsFormat], ...] = (JsonStringsFormat, ArbFormat, YamlStringsFormat, TomlStringsFormat,
                                              PropertiesFormat, PoFormat, XliffFormat, AndroidFormat,
                                              AppleStringsFormat, StringsDictFormat)
LAYOUTS: dict[str, tuple[Layout, ...]] = {cls.name: cls.layouts for cls in _STRINGS}
_WALK_GATES: dict[str, Callable[[Path], str | None]] = {cls.name: cls.walk_refusal for cls in _STRINGS}
FORMAT_NAMES: tuple[str, ...] = (*_DOCUMENTS, ParquetFormat.name)
SUFFIXES: dict[str, str] = {
    **{suffix: name for name, (suffixes, _) in _DOCUMENTS.items() for suffix in suffixes},
    **{suffix: ParquetFormat.name for suffix in ParquetFormat.suffixes}}


def path_marked(name: str, path: Path) -> Marked | None:
    """Where `path` names its language in the layout of format `name` (None: no layout)."""
    return marked(path, LAYOUTS.get(name, ()))


def walk_refusal(name: str, path: Path) -> str | None:
    """Why a file of format `name` found in a folder walk is no input, or None."""
    gate = _WALK_GATES.get(name)
    return gate(path) if gate is not None else None


def text_format_names() -> tuple[str, ...]:
    """The document formats a table cell can be parsed as (not a string file: a cell is no PO
    catalog or Android resource file)."""
    return tuple(name for name in _DOCUMENTS if name not in LAYOUTS)


def document_format(name: str, settings: FormatSettings | None = None) -> SplicingFormat:
    """The document format called `name`; KeyError when there is none."""
    return _DOCUMENTS[name][1](settings)


def format_named(name: str, settings: FormatSettings | None = None) -> InputFormat:
    """The format called `name`, built with its own options from `settings`; KeyError when none."""
    if name != ParquetFormat.name:
        return document_format(name, settings)
    options = _options(settings, name, ParquetOptions)
    if options.cell_format not in _DOCUMENTS:
        raise ValueError(f"--cell-format must be a text format ({', '.join(_DOCUMENTS)}), "
                         f"not {options.cell_format!r}")
    return ParquetFormat(options, document_format(options.cell_format, settings))


def format_for_path(path: Path, settings: FormatSettings | None = None) -> InputFormat | None:
    """The format for a file's suffix (or content, where formats share the suffix), or None
    when hymt does not read such files."""
    suffix = path.suffix.lower()
    name = SUFFIXES.get(suffix)
    if name is None and suffix in _BY_CONTENT:
        name = _BY_CONTENT[suffix](path)
    return format_named(name, settings) if name is not None else None


__all__ = ["Decoded", "DocumentDecodeError", "DocumentFormat", "FormatError", "InputFormat", "InputReader",
           "InputSource", "ParsedDocument", "Unit", "UnitWriter", "FORMAT_NAMES", "SUFFIXES",
           "FormatSettings", "TextOptions", "ParquetOptions", "SplicingFormat", "document_format",
           "format_named", "format_for_path", "text_format_names", "JsonOptions", "LAYOUTS", "path_marked",
           "walk_refusal", "PoOptions", "XliffOptions"]
