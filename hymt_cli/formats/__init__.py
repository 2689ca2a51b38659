"""Formats: each one a module, registered below by name and suffixes with its own options.

Every format is an `InputFormat` (base.py): the pipeline opens an input with it and gets units
to translate and writers for the outputs; what only some formats do, it asks of their
capabilities (`catalog`, a reader's `merge` and `encoded`, a writer's `recorded`). A document
format (`DocumentFormat` + `SplicingFormat`, document.py) only decodes and parses; a table
format (parquet) reads and writes batches of rows. A new format is one module and one `register`
call here, its code named with `lazy(...)` so that it is imported only when a file of it is
opened; what is imported here (the options dataclasses, the registry) is what every command pays
for at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..later import Deferred, exports, lazy
from ..options import Options, OptionSet
from .base import (
    Catalog,
    ContextMode,
    Decoded,
    DocumentDecodeError,
    DocumentFormat,
    EncodedOutput,
    Finding,
    FormatError,
    InputFormat,
    InputReader,
    InputSource,
    KeptFile,
    ParsedDocument,
    ReadSizes,
    TargetMerge,
    Unit,
    UnitWriter,
)
from .document import SplicingFormat
from .encodings import EncodingOptions
from .registry import (
    FORMATS,
    TABLE_OPTIONS,
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
from .text import TextFormat, TextOptions
from .xml_kind import xml_format_name

# The options of the formats other than txt: imported when a run or a command asks for them (a
# txt run's settings leave them out: settings/schema.py), as the names below are.
_CONTEXT = lazy("hymt_cli.formats.row_context:ContextOptions")
_DELIMITED = lazy("hymt_cli.formats.delimited.dialect:DelimitedOptions")
_SUBTITLES = lazy("hymt_cli.formats.subtitles.options:SubtitleOptions")
_OFFICE = lazy("hymt_cli.formats.office_options:OfficeOptions")

# Imported when first asked for (`from ..formats import StringsFormat`): the strings core is the
# heaviest part of the formats, and most commands never open a file of strings.
_LATER = {
    "StringsFormat": "strings",
    "MergeCounts": "strings",
    "MergeResult": "strings",
    "output_provenance": "_provenance",
    "ContextOptions": "row_context",
    "DelimitedOptions": "delimited.dialect",
    "JsonOptions": "json_strings",
    "OfficeOptions": "office_options",
    "ParquetOptions": "table_cells",
    "PoOptions": "po",
    "SubtitleOptions": "subtitles",
    "TableOptions": "table_cells",
    "XliffOptions": "xliff",
    "text_format_names": "table_cells",
    # where a path names its language: read by the formats whose paths do (strings, tables)
    "Layout": "layout",
    "Marked": "layout",
    "marked": "layout",
}

if TYPE_CHECKING:
    from ._provenance import output_provenance as output_provenance
    from .delimited.dialect import DelimitedOptions as DelimitedOptions
    from .json_strings import JsonOptions as JsonOptions
    from .layout import Layout as Layout
    from .layout import Marked as Marked
    from .layout import marked as marked
    from .office_options import OfficeOptions as OfficeOptions
    from .po import PoOptions as PoOptions
    from .row_context import ContextOptions as ContextOptions
    from .strings import MergeCounts as MergeCounts
    from .strings import MergeResult as MergeResult
    from .strings import StringsFormat as StringsFormat
    from .subtitles import SubtitleOptions as SubtitleOptions
    from .table_cells import ParquetOptions as ParquetOptions
    from .table_cells import TableOptions as TableOptions
    from .table_cells import text_format_names as text_format_names
    from .xliff import XliffOptions as XliffOptions


__getattr__ = exports(__name__, _LATER)


def _cells(options: OptionSet) -> SplicingFormat:
    """The document format a table's cells are parsed with (--cell-format: its declaration says
    which formats a cell may be)."""
    return document_format(options.of(TABLE_OPTIONS).cell_format, options)


_MAGENTO_DICTIONARY = lazy("hymt_cli.formats.delimited.magento:dictionary_path")


def _columns_needed(options: OptionSet, path: Path | None) -> str | None:
    """A table's columns, unless given; a Magento dictionary (`i18n/en_US.csv`) is read the way
    Magento reads it (delimited/magento.py)."""
    if options.of(TABLE_OPTIONS).columns or (path is not None and _MAGENTO_DICTIONARY(path)):
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
            (TABLE_OPTIONS, *options),
            document=False,
            context_by_default=True,
            needs=_columns_needed,
            layouts=layouts,
        )
    )


# Documents. (txt's code is light, and imported for its options anyway.)
register(
    FormatSpec(
        TextFormat.name,
        TextFormat.suffixes,
        lambda o: TextFormat(o.of(TextOptions)).with_encodings(o.of(EncodingOptions)),
        (TextOptions, EncodingOptions),
    )
)
_MARKDOWN = lazy("hymt_cli.formats.markdown:MarkdownFormat")
register(
    FormatSpec(
        "md",
        (".md", ".markdown"),
        lambda o: _MARKDOWN().with_encodings(o.of(EncodingOptions)),
        (EncodingOptions,),
    )
)
_HTML = lazy("hymt_cli.formats.html:HtmlFormat")
register(
    FormatSpec(
        "html",
        (".html", ".htm"),
        lambda o: _HTML().with_encodings(o.of(EncodingOptions)),
        (EncodingOptions,),
    )
)


def _subtitles(name: str, suffixes: tuple[str, ...], target: str) -> None:
    """A subtitle format: a cue's neighbouring cues are its context, given to the model by default
    (a sentence often runs over several cues)."""
    fmt = lazy(target)
    register(
        FormatSpec(
            name,
            suffixes,
            lambda o: fmt(o.of(_SUBTITLES)).with_encodings(o.of(EncodingOptions)),
            (_SUBTITLES, EncodingOptions),
            context_by_default=True,
        )
    )


_subtitles("srt", (".srt",), "hymt_cli.formats.subtitles.srt:SrtFormat")
_subtitles("vtt", (".vtt",), "hymt_cli.formats.subtitles.vtt:VttFormat")
_subtitles("ass", (".ass", ".ssa"), "hymt_cli.formats.subtitles.ass:AssFormat")


def _office(name: str, suffixes: tuple[str, ...], target: str) -> None:
    """A package of XML parts (Office Open XML, OpenDocument, EPUB: formats/package): the package is
    the unit of work, never a table cell; the office families share their options."""
    fmt = lazy(target)
    register(FormatSpec(name, suffixes, lambda o: fmt(o.of(_OFFICE)), (_OFFICE,), document=False))


_office("docx", (".docx", ".docm", ".dotx", ".dotm"), "hymt_cli.formats.ooxml.docx:DocxFormat")
_office(
    "pptx", (".pptx", ".pptm", ".ppsx", ".ppsm", ".potx", ".potm"), "hymt_cli.formats.ooxml.pptx:PptxFormat"
)
_office("xlsx", (".xlsx", ".xlsm", ".xltx", ".xltm"), "hymt_cli.formats.ooxml.xlsx:XlsxFormat")
_office("odt", (".odt",), "hymt_cli.formats.odf:OdtFormat")
_office("odp", (".odp",), "hymt_cli.formats.odf:OdpFormat")
_office("ods", (".ods",), "hymt_cli.formats.odf:OdsFormat")
_EPUB = lazy("hymt_cli.formats.epub:EpubFormat")
register(FormatSpec("epub", (".epub",), lambda o: _EPUB(), document=False))

# Tables.
_PARQUET = lazy("hymt_cli.formats.parquet:ParquetFormat")
_table(
    "parquet",
    (".parquet",),
    lambda o: _PARQUET(o.of(TABLE_OPTIONS), _cells(o), o.of(_CONTEXT).mode),
)
_CSV = lazy("hymt_cli.formats.delimited.format:CsvFormat")
_table(
    "csv",
    (".csv",),
    lambda o: _CSV(
        o.of(TABLE_OPTIONS),
        o.of(_DELIMITED),
        _cells(o),
        o.of(_CONTEXT).mode,
        o.of(EncodingOptions),
    ),
    _DELIMITED,
    EncodingOptions,
    # Magento's translation dictionaries: i18n/en_US.csv -> de_DE.csv (layout.magento_dictionary)
    layouts=(
        lazy("hymt_cli.formats.layout:magento_dictionary"),
        lazy("hymt_cli.formats.layout:file_named_by_language"),
    ),
)
_TSV = lazy("hymt_cli.formats.delimited.format:TsvFormat")
_table(
    "tsv",
    (".tsv",),
    lambda o: _TSV(
        o.of(TABLE_OPTIONS),
        o.of(_DELIMITED),
        _cells(o),
        o.of(_CONTEXT).mode,
        o.of(EncodingOptions),
    ),
    _DELIMITED,
    EncodingOptions,
)
_JSONL = lazy("hymt_cli.formats.jsonlines:JsonLinesFormat")
_table(
    "jsonl",
    (".jsonl", ".ndjson"),
    lambda o: _JSONL(o.of(TABLE_OPTIONS), _cells(o), o.of(_CONTEXT).mode),
)


def _strings(
    name: str,
    suffixes: tuple[str, ...],
    target: str,
    options: type[Options] | None = None,
    **more: Any,
) -> None:
    """A software-strings format, its `StringsFormat` class named by `target` (built with its
    options record, if it has one): its keys and comments are short, telling context; its path
    may name its language (the class's `layouts`); a shared suffix is taken in folders only
    where the path shows strings (the class's `walk_refusal`)."""
    fmt = lazy(target)
    register(
        FormatSpec(
            name,
            suffixes,
            (lambda o: fmt(o.of(options))) if options is not None else (lambda o: fmt()),
            (options,) if options is not None else (),
            context_by_default=True,
            layouts=lazy(f"{target}.layouts"),
            walk_refusal=lazy(f"{target}.walk_refusal"),
            not_translated=lazy(f"{target}.not_translated"),
            declared_locale=lazy(f"{target}.declared_locale"),
            **more,
        )
    )


_strings(
    "json",
    (".json",),
    "hymt_cli.formats.json_strings.format:JsonStringsFormat",
    lazy("hymt_cli.formats.json_strings:JsonOptions"),
)
_strings("arb", (".arb",), "hymt_cli.formats.json_strings.format:ArbFormat")
_strings("yaml", (".yml", ".yaml"), "hymt_cli.formats.yaml_strings:YamlStringsFormat")
_strings("toml", (".toml",), "hymt_cli.formats.toml_strings:TomlStringsFormat")
_strings("properties", (".properties",), "hymt_cli.formats.properties:PropertiesFormat")
_strings("po", (".po", ".pot"), "hymt_cli.formats.po.format:PoFormat", lazy("hymt_cli.formats.po:PoOptions"))
# `.xml` is every kind of XML: the root element says whether a file is XLIFF or Android strings.
_strings(
    "xliff",
    (".xlf", ".xliff"),
    "hymt_cli.formats.xliff.format:XliffFormat",
    lazy("hymt_cli.formats.xliff:XliffOptions"),
    by_content=(".xml",),
    claims=lambda path: xml_format_name(path) == "xliff",
)
_strings(
    "android",
    (),
    "hymt_cli.formats.android:AndroidFormat",
    by_content=(".xml",),
    claims=lambda path: xml_format_name(path) == "android",
)
_strings("strings", (".strings",), "hymt_cli.formats.apple:AppleStringsFormat")
_strings("stringsdict", (".stringsdict",), "hymt_cli.formats.apple:StringsDictFormat")

__all__ = [
    "Catalog",
    "Decoded",
    "EncodedOutput",
    "KeptFile",
    "TargetMerge",
    "Finding",
    "OfficeOptions",
    "SubtitleOptions",
    "declared_locale",
    "described",
    "not_translated",
    "DocumentDecodeError",
    "DocumentFormat",
    "FormatError",
    "InputFormat",
    "ReadSizes",
    "InputReader",
    "InputSource",
    "ParsedDocument",
    "Unit",
    "UnitWriter",
    "FORMATS",
    "FormatSpec",
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
    "Layout",
    "Marked",
    "marked",
    "StringsFormat",
    "MergeCounts",
    "MergeResult",
    "PoOptions",
    "XliffOptions",
    "TableOptions",
    "ContextMode",
    "ContextOptions",
    "DelimitedOptions",
    "EncodingOptions",
    "output_provenance",
    "Deferred",
    "lazy",
]
