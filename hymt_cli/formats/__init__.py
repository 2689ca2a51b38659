"""Format registry: each format by name and file suffixes, with its own options dataclass.

Every format is an `InputFormat` (base.py): the pipeline opens an input with it and gets
units to translate and writers for the outputs. A document format (`DocumentFormat` +
`SplicingFormat`, document.py) only decodes and parses; a table format (parquet) reads and
writes batches of rows. A new format is one module, listed in `_FORMATS` with its options
type (None when it has none).
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .base import (Decoded, DocumentDecodeError, DocumentFormat, FormatError, InputFormat, InputReader,
                   InputSource, ParsedDocument, Unit, UnitWriter)
from .html import HtmlFormat
from .markdown import MarkdownFormat
from .parquet import ParquetFormat, ParquetOptions
from .text import TextFormat, TextOptions

# name -> (class, options type); classes take their options (or nothing) when built.
_FORMATS: dict[str, tuple[type, type | None]] = {
    TextFormat.name: (TextFormat, TextOptions),
    MarkdownFormat.name: (MarkdownFormat, None),
    HtmlFormat.name: (HtmlFormat, None),
    ParquetFormat.name: (ParquetFormat, ParquetOptions),
}

FORMAT_NAMES: tuple[str, ...] = tuple(_FORMATS)
SUFFIXES: dict[str, str] = {suffix: name for name, (cls, _) in _FORMATS.items() for suffix in cls.suffixes}

# Options of each format by format name; a format missing here gets its defaults.
FormatSettings = Mapping[str, Any]


def format_named(name: str, settings: FormatSettings | None = None) -> Any:
    """The format called `name`, built with its own options from `settings`."""
    cls, options_type = _FORMATS[name]
    if options_type is None:
        return cls()
    options = (settings or {}).get(name) or options_type()
    if not isinstance(options, options_type):
        raise TypeError(f"{name} options must be {options_type.__name__}, not {type(options).__name__}")
    if cls is ParquetFormat:  # a cell is parsed by a document format
        cell = options.cell_format
        if cell not in _FORMATS or cell == ParquetFormat.name:
            raise ValueError(f"--cell-format must be a text format ({', '.join(text_format_names())}), "
                             f"not {cell!r}")
        return cls(options, format_named(cell, settings))
    return cls(options)


def text_format_names() -> tuple[str, ...]:
    return tuple(name for name in _FORMATS if name != ParquetFormat.name)


def format_for_path(path: Path, settings: FormatSettings | None = None) -> Any | None:
    """The format for a file's suffix, or None when hymt does not read such files."""
    name = SUFFIXES.get(path.suffix.lower())
    return format_named(name, settings) if name is not None else None


__all__ = ["Decoded", "DocumentDecodeError", "DocumentFormat", "FormatError", "InputFormat", "InputReader",
           "InputSource", "ParsedDocument", "Unit", "UnitWriter", "FORMAT_NAMES", "SUFFIXES",
           "FormatSettings", "TextOptions", "ParquetOptions", "format_named", "format_for_path",
           "text_format_names"]
