"""Formats: each one a module, registered below by name and suffixes with its own options.

Every format is an `InputFormat` (base.py): the pipeline opens an input with it and gets
units to translate and writers for the outputs. A document format (`DocumentFormat` +
`SplicingFormat`, document.py) only decodes and parses; a table format (parquet) reads and
writes batches of rows. A new format is one module and one `register` call here.
"""
from __future__ import annotations

from ..errors import UsageError
from ..options import OptionSet
from .base import (Decoded, DocumentDecodeError, DocumentFormat, FormatError, InputFormat, InputReader,
                   InputSource, ParsedDocument, Unit, UnitWriter)
from .document import SplicingFormat
from .html import HtmlFormat
from .markdown import MarkdownFormat
from .parquet import ParquetFormat, ParquetOptions
from .registry import (FORMATS, FormatSpec, document_format, format_for_path, format_named, register, suffixes,
                       text_format_names, unregister)
from .text import TextFormat, TextOptions


def _parquet(options: OptionSet) -> ParquetFormat:
    table = options.of(ParquetOptions)
    try:
        cells = document_format(table.cell_format, options)
    except KeyError:
        raise UsageError(f"--cell-format must be one of {', '.join(text_format_names())}, "
                         f"not {table.cell_format!r}") from None
    return ParquetFormat(table, cells)


register(FormatSpec(TextFormat.name, TextFormat.suffixes, lambda o: TextFormat(o.of(TextOptions)), TextOptions))
register(FormatSpec(MarkdownFormat.name, MarkdownFormat.suffixes, lambda o: MarkdownFormat()))
register(FormatSpec(HtmlFormat.name, HtmlFormat.suffixes, lambda o: HtmlFormat()))
register(FormatSpec(ParquetFormat.name, ParquetFormat.suffixes, _parquet, ParquetOptions, document=False))

__all__ = ["Decoded", "DocumentDecodeError", "DocumentFormat", "FormatError", "InputFormat", "InputReader",
           "InputSource", "ParsedDocument", "Unit", "UnitWriter", "FORMATS", "FormatSpec", "ParquetOptions",
           "SplicingFormat", "TextOptions", "document_format", "format_named", "format_for_path", "register",
           "suffixes", "text_format_names", "unregister"]
