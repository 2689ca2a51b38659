"""No false alarms on real text: every QA check, run through the pipeline with the identity and
the pseudo engines over the whole test corpus and every format, flags nothing. The identity
engine's answer is the source itself; the pseudo engine's changes every letter and keeps what
a translation keeps. A check that flags either is wrong about real text.

The corpus is found by globbing, so that new corpora count as they land: every file of a
registered format under samples/, tests/fixtures/ (but the corpora records) and shared/corpus/ (gathered),
plus each record of the CommonMark, markdown-it and html5lib corpora as a document of its own.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from corpora import html_corpus, markdown_corpus
from pipelines import run_pipeline, sources_of
from table_helpers import COLUMNS

from hymt_cli.engine.base import Engine
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import PseudoEngine
from hymt_cli.formats import FORMATS, DelimitedOptions, EncodingOptions, format_needs
from hymt_cli.formats.parquet import ParquetOptions
from hymt_cli.options import OptionSet
from hymt_cli.outputs.paths import output_path
from hymt_cli.qa import CHECK_IDS, QaOptions, QaSuite
from hymt_cli.reporting.report import RunReport
from hymt_cli.text.languages import language
from samples import corpus_encoding

SUFFIXES = {suffix: name for name, spec in FORMATS.items() for suffix in spec.suffixes}
ROOT = Path(__file__).resolve().parents[2]
CORPUS_FOLDERS = ("samples", "tests/fixtures", "shared/corpus")
# The corpus files into a comma-decimal, a CJK and a right-to-left language; the corpus records
# (thousands of small documents) into German only: the checks are strictest there (doubled
# words are not judged in Japanese, end punctuation is looser).
TARGETS = ("de", "ja", "ar")
RECORD_TARGETS = ("de",)
# An error rejects: the strictest reading. What the subtitle formats measure on a translated cue
# (reading speed, line length) is no answer check: the pseudo engine's longer answers are too long.
EVERY_CHECK_AN_ERROR = QaOptions.parse("all=error,reading-speed=off,line-length=off")


def corpus_files() -> list[Path]:
    """Files of a registered format under the corpus folders (hidden and record files aside)."""
    found = []
    for folder in CORPUS_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            parts = path.relative_to(ROOT).parts
            if (
                path.is_file()
                and path.name != "hymt.toml"  # hymt's own settings for the folder, no sample
                and path.suffix.lower() in SUFFIXES
                and "corpora" not in parts
                and "hostile" not in parts  # files that must be refused (encrypted, bombs): no sources
                # catalogs in a legacy charset write only some languages, not de, ja and ar at once
                # (tests/formats/test_encoding_substitutes.py)
                and parts[:3] != ("shared", "corpus", "legacy")
                and not any(p.startswith(".") for p in parts)
            ):
                found.append(path)
    return found


def corpus_records(folder: Path) -> Path:
    """Each corpus record written as a document of its format under `folder`, a hundred to a
    subfolder (the outputs mirror them: a folder's manifest is rewritten with every file
    written to it)."""
    for suffix, texts in ((".md", markdown_corpus()), (".html", html_corpus())):
        for i, text in enumerate(texts):
            sub = folder / f"{suffix[1:]}-{i // 100:03d}"
            sub.mkdir(exist_ok=True)
            (sub / f"record-{i:05d}{suffix}").write_bytes(text.encode("utf-8", "surrogatepass"))
    return folder


def _table_columns(path: Path) -> dict[str, object]:
    """What to translate in a table: a Parquet file's string columns; a corpus table's columns
    (table_helpers.COLUMNS); a sample's, from its folder's hymt.toml."""
    if path.suffix == ".parquet":
        return {"columns": string_columns(path)}
    listed = COLUMNS.get(f"{path.parent.name}/{path.name}")
    if listed is not None:
        return {"columns": listed[0], "header": listed[1]}
    config = tomllib.loads((path.parent / "hymt.toml").read_text())
    return {"columns": tuple(config["columns"]), "header": config.get("header", True)}


def string_columns(path: Path) -> tuple[str, ...]:
    schema = pq.read_schema(path)
    return tuple(
        f.name
        for f in schema
        if pa.types.is_string(f.type)
        or pa.types.is_large_string(f.type)
        or (pa.types.is_dictionary(f.type) and pa.types.is_string(f.type.value_type))
    )


def run(
    paths: list[Path],
    engine: Engine,
    out: Path,
    *,
    translating: bool,
    targets: tuple[str, ...],
    columns: tuple[str, ...] = (),
    header: bool = True,
    encoding: str | None = None,
) -> RunReport:
    settings = (
        OptionSet([ParquetOptions(columns=columns), DelimitedOptions(header=header)]) if columns else None
    )
    if encoding is not None:  # a file in a legacy encoding it does not declare; its answers as UTF-8
        settings = OptionSet([EncodingOptions(encoding=encoding, output_encoding="utf-8")])
    suite = QaSuite(EVERY_CHECK_AN_ERROR, translating=translating)
    return run_pipeline(paths, engine, options=settings, to=targets, out_dir=out, qa=suite)


# What writing a document finds of its layout (Office: text too long for its box) is what the
# pseudo engine's longer text is meant to show: no check of the answer, no false alarm.
LAYOUT_FINDINGS = frozenset({"overflow"})


def flags_of(report: RunReport) -> list[str]:
    return [
        f"{file.input} ({file.lang}) segment {flag.segment}: {flag.check}: {flag.message}\n"
        f"  source: {flag.source!r}\n  answer: {flag.answer!r}"
        for file in report.files
        for flag in file.flags
        if flag.check not in LAYOUT_FINDINGS
    ]


def _collides(path: Path, files: list[Path], shared: set[Path]) -> bool:
    """Another file of the same folder and suffix (possibly the same strings in another language),
    or one whose translation would be written where this file's is (two gettext templates of
    different trees both write `<out>/de.po`)."""
    if any(p != path and p.parent == path.parent and p.suffix == path.suffix for p in files):
        return True
    return path in shared


def _shared_outputs(files: list[Path], out: Path) -> set[Path]:
    """Those of `files`, named together in one run into `out`, that would write the same output."""
    german = language("de")
    written: dict[Path, list[Path]] = {}
    for path in files:
        try:
            [source] = sources_of([path])
        except AssertionError:  # (no source of its own: a translation; the run says why)
            continue
        target = output_path(source, german, out)
        if target is not None:
            written.setdefault(target, []).append(path)
    return {p for same in written.values() if len(same) > 1 for p in same}


def test_the_corpus_is_there_and_covers_every_format() -> None:
    files = corpus_files()
    assert len(files) >= 20
    formats = {SUFFIXES[p.suffix.lower()] for p in files}
    assert formats == set(SUFFIXES.values()), f"no corpus file for {set(SUFFIXES.values()) - formats}"


@pytest.mark.parametrize(
    ("engine", "translating"), [(IdentityEngine, False), (PseudoEngine, True)], ids=["identity", "pseudo"]
)
def test_no_check_flags_an_untouched_source(engine: type[Engine], translating: bool, tmp_path: Path) -> None:
    """`translating` for pseudo: its answers are never the source, so `untranslated` runs too."""
    records = tmp_path / "records"
    records.mkdir()
    files = corpus_files()
    # each with its columns (a table's format needs them; an Office package is no table)
    tables = [p for p in files if format_needs(SUFFIXES[p.suffix.lower()], OptionSet(), p) is not None]
    legacy = [p for p in files if corpus_encoding(p) is not None]  # each with its encoding
    files = [p for p in files if p not in legacy]
    shared = _shared_outputs([p for p in files if p not in tables], tmp_path / "out")
    reports = [
        *(  # one run per folder of files, one output folder per file (a corpus folder may hold the
            # same strings in several languages: their outputs into one language would coincide)
            run([p], engine(), tmp_path / f"out-{i}", translating=translating, targets=TARGETS)
            for i, p in enumerate(p for p in files if p not in tables and _collides(p, files, shared))
        ),
        run(
            [p for p in files if p not in tables and not _collides(p, files, shared)],
            engine(),
            tmp_path / "out",
            translating=translating,
            targets=TARGETS,
        ),
        *(
            run(
                [table],
                engine(),
                tmp_path / f"table-{i}",
                translating=translating,
                targets=TARGETS,
                **_table_columns(table),
            )
            for i, table in enumerate(tables)
        ),
        *(
            run(
                [path],
                engine(),
                tmp_path / f"legacy-{i}",
                translating=translating,
                targets=TARGETS,
                encoding=corpus_encoding(path),
            )
            for i, path in enumerate(legacy)
        ),
        run(
            [corpus_records(records)],
            engine(),
            tmp_path / "records-out",
            translating=translating,
            targets=RECORD_TARGETS,
        ),
    ]
    for report in reports:
        assert report.qa_levels == dict.fromkeys(CHECK_IDS, "error") | {
            "inconsistent": "warning",
            "reading-speed": "off",
            "line-length": "off",
        }
        assert not report.files_failed, [f.error for f in report.files if f.status == "failed"]
    translated = sum(f.translated for report in reports for f in report.files)
    assert translated > 2000, translated  # the corpus really went through the checks
    flagged = [line for report in reports for line in flags_of(report)]
    assert not flagged, f"{len(flagged)} false alarm(s):\n" + "\n".join(flagged[:40])
    assert all(set(report.flag_counts) <= LAYOUT_FINDINGS for report in reports)
