"""Shared by the CSV/TSV/JSON Lines tests: inputs from bytes, a format's output for a translation
function (reader and writer driven directly), runs through the pipeline, the real parsers, and
the table corpus (tests/corpus/SOURCES, gathered into shared/corpus/)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from pipelines import run_pipeline

from hymt_cli.formats import DelimitedOptions, TableOptions, format_named
from hymt_cli.options import OptionSet
from hymt_cli.reporting.report import RunReport

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "shared" / "corpus"
SOURCES = ROOT / "tests" / "corpus" / "SOURCES"
TABLE_KINDS = ("csv", "tsv", "jsonl")


@dataclass(frozen=True)
class BytesSource:
    """An input whose bytes are in memory (an `InputSource`)."""

    data: bytes
    display: str = "<bytes>"

    def read_bytes(self) -> bytes:
        return self.data

    def open_binary(self) -> io.BytesIO:
        return io.BytesIO(self.data)


def settings(
    columns: Sequence[str],
    *,
    add_columns: bool = False,
    rows_per_batch: int = 8192,
    cell_format: str = "txt",
    **delimited: object,
) -> OptionSet:
    table = TableOptions(
        columns=tuple(columns),
        add_columns=add_columns,
        rows_per_batch=rows_per_batch,
        cell_format=cell_format,
    )
    return OptionSet([table, DelimitedOptions(**delimited)])  # type: ignore[arg-type]


def translate_bytes(
    fmt: str, data: bytes, translate: Callable[[str], str | None], *, lang: str = "de", **options: object
) -> bytes:
    """The format's output for `data` when each segment's translation is `translate(text)` (None:
    not translated), read and written unit by unit as the pipeline does."""
    columns = options.pop("columns")
    reader = format_named(fmt, settings(columns, **options)).open(BytesSource(data))  # type: ignore[arg-type]
    out = io.BytesIO()
    writer = None
    for unit in reader.units():
        if writer is None:
            writer = reader.writer(lang, out)
        translated = {s.id: t for s in unit.segments if (t := translate(s.text)) is not None}
        writer.write(unit, translated)
    if writer is None:
        writer = reader.writer(lang, out)
    writer.close()
    return out.getvalue()


def run_files(
    paths: Sequence[Path],
    engine_factory: Callable[[], object],
    *,
    to: str = "de",
    out: Path | None = None,
    columns: Sequence[str] = (),
    **options: object,
) -> RunReport:
    """One in-process run of the pipeline over `paths` (outputs under `out/<lang>/`)."""
    return run_pipeline(
        paths,
        engine_factory,
        options=settings(columns, **options),
        to=to,  # type: ignore[arg-type]
        out_dir=out,
    )


def csv_rows(data: bytes, delimiter: str) -> list[list[str]]:
    """Rows as Python's csv module reads them (blank lines dropped, as pyarrow drops them)."""
    text = (
        data.decode("utf-8-sig") if not data.startswith((b"\xff\xfe", b"\xfe\xff")) else data.decode("utf-16")
    )
    return [row for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True) if row]


def arrow_columns(data: bytes, delimiter: str, header: bool = True) -> dict[str, list[str | None]]:
    """Columns as pyarrow's CSV reader reads them (every column a string)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    names = None
    if not header:
        first = csv_rows(data, delimiter)[0]
        names = [str(i) for i in range(1, len(first) + 1)]
    read = pacsv.ReadOptions(column_names=names, block_size=1 << 20)
    parse = pacsv.ParseOptions(delimiter=delimiter, newlines_in_values=True)
    probe = pacsv.read_csv(io.BytesIO(data), read_options=read, parse_options=parse)
    convert = pacsv.ConvertOptions(
        column_types={n: pa.string() for n in probe.column_names},
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )
    table = pacsv.read_csv(io.BytesIO(data), read_options=read, parse_options=parse, convert_options=convert)
    return {name: table.column(name).to_pylist() for name in table.column_names}


def json_lines(data: bytes) -> list[object]:
    return [json.loads(line) for line in data.decode("utf-8-sig").split("\n") if line.strip()]


@dataclass(frozen=True)
class CorpusFile:
    name: str  # under shared/corpus/
    repo: str
    license: str

    @property
    def path(self) -> Path:
        return CORPUS / self.name

    @property
    def kind(self) -> str:
        return self.name.split("/", 1)[0]


def table_corpus() -> list[CorpusFile]:
    """The CSV, TSV and JSON Lines files that tests/corpus/SOURCES lists."""
    files = []
    for line in SOURCES.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if line.startswith("#") or len(fields) != 6 or fields[0].split("/", 1)[0] not in TABLE_KINDS:
            continue
        files.append(CorpusFile(fields[0], fields[1], fields[4]))
    return files


def corpus_bytes(item: CorpusFile) -> bytes:
    if not item.path.is_file():
        pytest.skip(f"{item.name} is not gathered: run scripts/gather_corpus.py (needs the fetch mirrors)")
    return item.path.read_bytes()


# What is translated in each file: its columns (fields), and whether the first line is a header.
COLUMNS: dict[str, tuple[tuple[str, ...], bool]] = {
    "csv/country-codes.csv": (("official_name_en", "UNTERM English Formal", "Capital", "Region Name"), True),
    "csv/unsd-m49-en.csv": (("Country or Area", "Region Name", "Sub-region Name"), True),
    "csv/unsd-m49-ru.csv": (("Country or Area", "Region Name", "Sub-region Name"), True),
    "csv/godot-translation-demo.csv": (("en",), True),
    "csv/multisafepay-magento-de_DE.csv": (("2",), False),
    "csv/elasticsuite-core-en_US.csv": (("2",), False),
    "csv/openmage-Mage_Customer.csv": (("2",), False),
    "tsv/gap-validation.tsv": (("Text", "A", "B"), True),
    "tsv/language-resources-jvf-prompts.tsv": (("2",), False),
    "tsv/cldr-country-names-en.tsv": (("2",), False),
    "jsonl/gsm8k-test.jsonl": (("question", "answer"), True),
    "jsonl/self-instruct-seed-tasks.jsonl": (("instruction", "instances.input", "instances.output"), True),
    "jsonl/mt-bench-questions.jsonl": (("turns", "reference"), True),
    "jsonl/llm-judge-prompts.jsonl": (("system_prompt", "prompt_template"), True),
}
