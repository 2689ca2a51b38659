"""Formats: each one a module, registered below by name and suffixes with its own options.

Every format is an `InputFormat` (base.py): the pipeline opens an input with it and gets
units to translate and writers for the outputs. A document format (`DocumentFormat` +
`SplicingFormat`, document.py) only decodes and parses; a table format (parquet) reads and
writes batches of rows. A new format is one module and one `register` call here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..options import Options, OptionSet
from .android import AndroidFormat
from .apple import AppleStringsFormat, StringsDictFormat
from .base import (
    Decoded,
    DocumentDecodeError,
    DocumentFormat,
    EncodedOutput,
    Finding,
    FormatError,
    InputFormat,
    InputReader,
    InputSource,
    ParsedDocument,
    Unit,
    UnitWriter,
)
from .delimited import CsvFormat, DelimitedOptions, TsvFormat
from .delimited.magento import dictionary_path
from .document import SplicingFormat
from .encodings import EncodingOptions
from .epub import EpubFormat
from .html import HtmlFormat
from .json_strings import ArbFormat, JsonOptions, JsonStringsFormat
from .jsonlines import JsonLinesFormat
from .layout import Layout, Marked, file_named_by_language, magento_dictionary, marked
from .markdown import MarkdownFormat
from .odf import OdfFormat, OdpFormat, OdsFormat, OdtFormat
from .ooxml import DocxFormat, OfficeOptions, PptxFormat, XlsxFormat
from .parquet import ParquetFormat, ParquetOptions
from .po import PoFormat, PoOptions
from .properties import PropertiesFormat
from .provenance import output_provenance
from .registry import (
    FORMATS,
    FormatSpec,
    declared_locale,
    described,
    document_format,
    format_for_path,
    format_named,
    format_needs,
    not_translated,
    path_marked,
    register,
    suffixes,
    unregister,
    walk_refusal,
)
from .row_context import ContextMode, RunContext
from .strings import MergeCounts, MergeResult, RecordingWriter, StringsFormat, StringsReader
from .subtitles import AssFormat, SrtFormat, SubtitleFormat, SubtitleOptions, VttFormat
from .table_cells import TableOptions, text_format_names
from .text import TextFormat, TextOptions
from .toml_strings import TomlStringsFormat
from .xliff import XliffFormat, XliffOptions
from .xml_kind import xml_format_name
from .yaml_strings import YamlStringsFormat


def _cells(options: OptionSet) -> SplicingFormat:
    """The document format a table's cells are parsed with (--cell-format: its declaration says
    which formats a cell may be)."""
    return document_format(options.of(TableOptions).cell_format, options)


def _columns_needed(options: OptionSet, path: Path | None) -> str | None:
    """A table's columns, unless given; a Magento dictionary (`i18n/en_US.csv`) is read the way
    Magento reads it (delimited/magento.py)."""
    if options.of(TableOptions).columns or (path is not None and dictionary_path(path)):
        return None
    return "--columns (or columns in a [[files]] entry)"


def _table(
    name: str,
    suffixes: tuple[str, ...],
    build: Callable[[OptionSet], InputFormat],
    *options: type[Options],
    layouts: tuple[Layout, ...] = (),
) -> None:
    """A table format: rows read and written a batch at a time, its cells parsed as documents;
    its --context-columns are asked for, so their context goes to the model by default; a folder
    walk takes a table only when its columns are named."""
    register(
        FormatSpec(
            name,
            suffixes,
            build,
            (TableOptions, *options),
            document=False,
            context_by_default=True,
            needs=_columns_needed,
            layouts=layouts,
        )
    )


register(
    FormatSpec(
        TextFormat.name,
        TextFormat.suffixes,
        lambda o: TextFormat(o.of(TextOptions)).with_encodings(o.of(EncodingOptions)),
        (TextOptions, EncodingOptions),
    )
)
register(
    FormatSpec(
        MarkdownFormat.name,
        MarkdownFormat.suffixes,
        lambda o: MarkdownFormat().with_encodings(o.of(EncodingOptions)),
        (EncodingOptions,),
    )
)
register(
    FormatSpec(
        HtmlFormat.name,
        HtmlFormat.suffixes,
        lambda o: HtmlFormat().with_encodings(o.of(EncodingOptions)),
        (EncodingOptions,),
    )
)
# Office Open XML packages (formats/ooxml): the package is the unit of work, never a table cell.
register(
    FormatSpec(
        DocxFormat.name,
        DocxFormat.suffixes,
        lambda o: DocxFormat(o.of(OfficeOptions)),
        (OfficeOptions,),
        document=False,
    )
)
register(
    FormatSpec(
        PptxFormat.name,
        PptxFormat.suffixes,
        lambda o: PptxFormat(o.of(OfficeOptions)),
        (OfficeOptions,),
        document=False,
    )
)
register(
    FormatSpec(
        XlsxFormat.name,
        XlsxFormat.suffixes,
        lambda o: XlsxFormat(o.of(OfficeOptions)),
        (OfficeOptions,),
        document=False,
    )
)


def _odf(fmt: type[OdfFormat]) -> None:
    """An OpenDocument format (formats/odf): a package of XML parts, never a table cell."""
    register(
        FormatSpec(
            fmt.name, fmt.suffixes, lambda o: fmt(o.of(OfficeOptions)), (OfficeOptions,), document=False
        )
    )


for _fmt in (OdtFormat, OdpFormat, OdsFormat):
    _odf(_fmt)
register(FormatSpec(EpubFormat.name, EpubFormat.suffixes, lambda o: EpubFormat(), document=False))
_table(
    ParquetFormat.name,
    ParquetFormat.suffixes,
    lambda o: ParquetFormat(o.of(TableOptions), _cells(o), o.of(RunContext).mode),
)
_table(
    CsvFormat.name,
    CsvFormat.suffixes,
    lambda o: CsvFormat(
        o.of(TableOptions), o.of(DelimitedOptions), _cells(o), o.of(RunContext).mode, o.of(EncodingOptions)
    ),
    DelimitedOptions,
    EncodingOptions,
    # Magento's translation dictionaries: i18n/en_US.csv -> de_DE.csv (layout.magento_dictionary)
    layouts=(magento_dictionary, file_named_by_language),
)
_table(
    TsvFormat.name,
    TsvFormat.suffixes,
    lambda o: TsvFormat(
        o.of(TableOptions), o.of(DelimitedOptions), _cells(o), o.of(RunContext).mode, o.of(EncodingOptions)
    ),
    DelimitedOptions,
    EncodingOptions,
)
_table(
    JsonLinesFormat.name,
    JsonLinesFormat.suffixes,
    lambda o: JsonLinesFormat(o.of(TableOptions), _cells(o), o.of(RunContext).mode),
)


def _strings(
    fmt: type[StringsFormat],
    build: Callable[[OptionSet], StringsFormat],
    options: type[Options] | None = None,
    **more: Any,
) -> None:
    """A software-strings format: its keys and comments are short, telling context; its path
    may name its language (layouts); a shared suffix is taken in folders only where the path
    shows strings (walk_refusal)."""
    register(
        FormatSpec(
            fmt.name,
            fmt.suffixes,
            build,
            (options,) if options else (),
            context_by_default=True,
            layouts=fmt.layouts,
            walk_refusal=fmt.walk_refusal,
            not_translated=fmt.not_translated,
            declared_locale=fmt.declared_locale,
            **more,
        )
    )


_strings(JsonStringsFormat, lambda o: JsonStringsFormat(o.of(JsonOptions)), JsonOptions)
_strings(ArbFormat, lambda o: ArbFormat())
_strings(YamlStringsFormat, lambda o: YamlStringsFormat())
_strings(TomlStringsFormat, lambda o: TomlStringsFormat())
_strings(PropertiesFormat, lambda o: PropertiesFormat())
_strings(PoFormat, lambda o: PoFormat(o.of(PoOptions)), PoOptions)
# `.xml` is every kind of XML: the root element says whether a file is XLIFF or Android strings.
_strings(
    XliffFormat,
    lambda o: XliffFormat(o.of(XliffOptions)),
    XliffOptions,
    by_content=(".xml",),
    claims=lambda path: xml_format_name(path) == "xliff",
)
_strings(
    AndroidFormat,
    lambda o: AndroidFormat(),
    by_content=(".xml",),
    claims=lambda path: xml_format_name(path) == "android",
)
_strings(AppleStringsFormat, lambda o: AppleStringsFormat())
_strings(StringsDictFormat, lambda o: StringsDictFormat())


def _subtitles(fmt: type[SubtitleFormat]) -> None:
    """A subtitle format: a cue's neighbouring cues are its context, given to the model by default
    (a sentence often runs over several cues)."""
    register(
        FormatSpec(
            fmt.name,
            fmt.suffixes,
            lambda o: fmt(o.of(SubtitleOptions)).with_encodings(o.of(EncodingOptions)),
            (SubtitleOptions, EncodingOptions),
            context_by_default=True,
        )
    )


_subtitles(SrtFormat)
_subtitles(VttFormat)
_subtitles(AssFormat)

__all__ = [
    "Decoded",
    "EncodedOutput",
    "DocumentDecodeError",
    "DocumentFormat",
    "Finding",
    "FormatError",
    "InputFormat",
    "InputReader",
    "InputSource",
    "ParsedDocument",
    "Unit",
    "UnitWriter",
    "FORMATS",
    "FormatSpec",
    "described",
    "ParquetOptions",
    "SplicingFormat",
    "TextOptions",
    "document_format",
    "format_named",
    "format_for_path",
    "format_needs",
    "register",
    "suffixes",
    "text_format_names",
    "unregister",
    "JsonOptions",
    "path_marked",
    "walk_refusal",
    "not_translated",
    "declared_locale",
    "Layout",
    "Marked",
    "marked",
    "StringsFormat",
    "StringsReader",
    "MergeCounts",
    "MergeResult",
    "RecordingWriter",
    "PoOptions",
    "XliffOptions",
    "TableOptions",
    "ContextMode",
    "RunContext",
    "DelimitedOptions",
    "EncodingOptions",
    "output_provenance",
]
