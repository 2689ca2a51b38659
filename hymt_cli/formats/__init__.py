"""Format registry: a document format per name and per file suffix.

A new format is one module with a class following `DocumentFormat`, listed in `_FORMATS`.
"""
from __future__ import annotations

from pathlib import Path

from .base import DocumentDecodeError, DocumentFormat, FormatOptions
from .html import HtmlFormat
from .markdown import MarkdownFormat
from .parquet import ParquetFormat
from .text import TextFormat

_FORMATS: tuple[type, ...] = (TextFormat, MarkdownFormat, HtmlFormat, ParquetFormat)

FORMAT_NAMES: tuple[str, ...] = tuple(cls.name for cls in _FORMATS)
SUFFIXES: dict[str, type] = {suffix: cls for cls in _FORMATS for suffix in cls.suffixes}


def format_named(name: str, options: FormatOptions | None = None) -> DocumentFormat:
    for cls in _FORMATS:
        if cls.name == name:
            return cls(options)
    raise KeyError(name)


def format_for_path(path: Path, options: FormatOptions | None = None) -> DocumentFormat | None:
    """The format for a file's suffix, or None when hymt does not read such files."""
    cls = SUFFIXES.get(path.suffix.lower())
    return cls(options) if cls is not None else None


__all__ = ["DocumentDecodeError", "DocumentFormat", "FormatOptions", "FORMAT_NAMES", "SUFFIXES",
           "format_named", "format_for_path"]
