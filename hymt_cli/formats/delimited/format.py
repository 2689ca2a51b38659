"""CSV and TSV, the formats the registry builds (formats/__init__.py): the reading and splicing
are in _reader.py, the record scanner with offsets in scanner.py, the dialects (delimiter,
quoting, escapes) in dialect.py and fields.py.
"""

from __future__ import annotations

from typing import ClassVar

from ..base import READ_SIZES, DocumentFormat, InputSource, ReadSizes
from ..encodings import EncodingOptions
from ..row_context import ContextColumns, ContextMode
from ..table_cells import TableOptions
from ._reader import DelimitedReader
from .dialect import DelimitedOptions, Dialect
from .scanner import sniff_delimiter


class DelimitedFormat:
    name: ClassVar[str]
    suffixes: ClassVar[tuple[str, ...]]
    default_delimiter: ClassVar[str]  # "": found from the file's first lines

    catalog: None = None  # no file of strings (formats/base.Catalog)

    def __init__(
        self,
        table: TableOptions,
        options: DelimitedOptions,
        cell_format: DocumentFormat,
        context: ContextMode = "auto",
        encodings: EncodingOptions | None = None,
    ) -> None:
        self.encodings = encodings or EncodingOptions()
        self.table = table
        self.options = options
        self.cell_format = cell_format
        self.context = ContextColumns.of(table.context_columns, context)

    def open(self, source: InputSource, sizes: ReadSizes = READ_SIZES) -> DelimitedReader:
        return DelimitedReader(
            self.name,
            self.table,
            self.options,
            self.default_delimiter,
            self.cell_format,
            source,
            self.context,
            self.encodings,
        )


class CsvFormat(DelimitedFormat):
    """Comma-separated values (or `;`, tab, `|`: found from the file's first lines)."""

    name = "csv"
    suffixes = (".csv",)
    default_delimiter = ""


class TsvFormat(DelimitedFormat):
    """Tab-separated values."""

    name = "tsv"
    suffixes = (".tsv",)
    default_delimiter = "\t"


__all__ = ["CsvFormat", "DelimitedFormat", "DelimitedOptions", "Dialect", "TsvFormat", "sniff_delimiter"]
