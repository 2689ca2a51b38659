"""The model's output is untrusted input: whatever it answers, every format's output keeps the
source's structure, gets no live markup of its own, and every answer that could not be used
is reported. One adversarial engine (engines.Adversary), every attack, every format."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from engines import ATTACKS, UNUSABLE, Adversary, assert_reported
from markup_helpers import assert_html_structure_kept, assert_md_structure_kept, html_skeleton
from package_checks import assert_structure_kept
from pipelines import run_pipeline, sources_of, translate_files
from subtitle_checks import decoded, skeleton

from hymt_cli.formats import FORMATS, ParquetOptions, TextOptions, document_format
from hymt_cli.options import OptionSet
from hymt_cli.pipeline import target_script
from hymt_cli.reporting.report import RunReport
from samples import samples_of, unchanged

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = ("title", "body_html", "option1_value", "seo_description")
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _translate(
    paths: list[Path], attack: str, tmp_path: Path, options: OptionSet, lang: str = "fr"
) -> tuple[RunReport, dict[Path, Path]]:
    report, outputs = translate_files(paths, Adversary(attack), tmp_path / "out", options=options, lang=lang)
    assert report.files_failed == 0, [f.error for f in report.files]
    return report, outputs


def _reported(report: RunReport, attack: str) -> None:
    """Every segment is either translated or reported; an unusable answer is never written.
    (A table's segments count the rows holding a value; its problems, the values.)"""
    assert_reported(report, attack)
    for file in report.files:
        if attack in UNUSABLE and FORMATS[file.format or ""].document:
            assert len(file.problems) + file.problems_omitted == file.segments


def _paragraphs(text: str) -> list[int]:
    """Lines per blank-line separated paragraph."""
    return [
        len(block.splitlines()) for block in re.split(r"\n[ \t\u3000]*\n", text.strip("\n")) if block.strip()
    ]


def _text_of(fmt: str, path: Path) -> str:
    return document_format(fmt).decode(path.read_bytes()).text


def _md_kept(before: Path, after: Path) -> None:
    assert_md_structure_kept(_text_of("md", before), _text_of("md", after))


def _html_kept(before: Path, after: Path) -> None:
    """The page's language is the target's now: the `lang` values are not compared."""
    assert_html_structure_kept(
        _LANG.sub(r"\1x\2", _text_of("html", before), count=1),
        _LANG.sub(r"\1x\2", _text_of("html", after), count=1),
    )


def _paragraphs_kept(before: Path, after: Path) -> None:
    assert len(_paragraphs(_text_of("txt", after))) == len(_paragraphs(_text_of("txt", before)))


def _cues_kept(before: Path, after: Path) -> None:
    """A subtitle file keeps every cue, timing, number, setting and style, as an independent parser
    (pysubs2, webvtt-py) reads them."""
    old, new = decoded(before.read_bytes()), decoded(after.read_bytes())
    assert skeleton(before.suffix, new) == skeleton(before.suffix, old), before.name


_LANG = re.compile(r"""(<html\b[^>]*\blang=["']?)[^"'\s>]*(["']?)""", re.IGNORECASE)
# What each format keeps besides parsing again: a document format without an entry must give as
# many segments as its source (an entry's own check is stronger: Markdown may not locate an
# escaped alt text again, and leaves it alone, which is fine).
STRUCTURE: dict[str, Callable[[Path, Path], None]] = {
    "md": _md_kept,
    "html": _html_kept,
    "txt": _paragraphs_kept,
    "srt": _cues_kept,
    "vtt": _cues_kept,
    "ass": _cues_kept,
    # Packages (ODF, EPUB): every XML member parses and keeps its elements.
    **dict.fromkeys(("odt", "odp", "ods", "epub"), assert_structure_kept),
}


def _segments(fmt: str, path: Path, options: OptionSet) -> int:
    """How many segments the format finds in the file (the output must parse)."""
    source = sources_of([path], options=options)[0]
    return sum(len(unit.segments) for unit in source.format.open(source).units())


@pytest.mark.parametrize("attack", sorted(ATTACKS))
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_keeps_its_structure_whatever_the_model_answers(
    fmt: str, attack: str, tmp_path: Path
) -> None:
    chosen = samples_of(fmt)
    if not chosen:
        pytest.fail(f"format {fmt!r} has no sample")
    # Into each sample's own language: the edits a target file carries are then none, and an
    # unusable answer must leave the file as it was.
    for options, lang in {(s.options, s.identity_target) for s in chosen}:
        group = [s for s in chosen if s.options == options and s.identity_target == lang]
        report, outputs = _translate([s.path for s in group], attack, tmp_path / lang, options, lang)
        _reported(report, attack)
        for sample in group:
            out = outputs[sample.path]
            parsed = _segments(fmt, out, options)  # the output parses
            if fmt in STRUCTURE:
                STRUCTURE[fmt](sample.path, out)
            elif FORMATS[fmt].document and not FORMATS[fmt].context_by_default:
                # A string file's segments are what is left to translate (a PO entry with a
                # msgstr is none): its structure is checked format by format (test_string_hostile,
                # test_resource_hostile); here it parses.
                assert parsed == _segments(fmt, sample.path, options), sample.name
            if FORMATS[fmt].document:
                assert not CONTROL.search(_text_of(fmt, out)) or CONTROL.search(_text_of(fmt, sample.path))
            if attack in UNUSABLE:
                assert unchanged(sample, out), sample.name


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_text_by_lines_keeps_its_lines(attack: str, tmp_path: Path) -> None:
    paths = [s.path for s in samples_of("txt")]
    report, outputs = _translate(paths, attack, tmp_path, OptionSet([TextOptions(segment_by="line")]))
    _reported(report, attack)
    for src, out in outputs.items():
        before, after = src.read_text(encoding="utf-8"), out.read_text(encoding="utf-8")
        assert len(after.splitlines()) == len(before.splitlines())
        assert not CONTROL.search(after)
        if attack in UNUSABLE:
            assert after == before


@pytest.mark.parametrize("cell_format", ["txt", "html"])
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_tables_keep_rows_columns_and_cells(attack: str, cell_format: str, tmp_path: Path) -> None:
    options = OptionSet([ParquetOptions(columns=COLUMNS, cell_format=cell_format, rows_per_batch=64)])
    report, outputs = _translate(
        [ROOT / "samples" / "catalog" / "products.parquet"], attack, tmp_path, options
    )
    _reported(report, attack)
    [(src, out)] = outputs.items()
    before, after = pq.read_table(src), pq.read_table(out)
    assert after.schema.equals(before.schema, check_metadata=True) and after.num_rows == before.num_rows
    for name in before.column_names:
        old, new = before.column(name), after.column(name)
        if name not in COLUMNS:
            assert new.equals(old), name
            continue
        if pa.types.is_dictionary(old.type):
            old, new = old.cast(old.type.value_type), new.cast(new.type.value_type)
        for a, b in zip(old.to_pylist(), new.to_pylist()):
            assert (a is None) == (b is None) and (a == "") == (b == "")
            if a is None:
                continue
            assert not CONTROL.search(b)
            if "\n" not in a and "\r" not in a and cell_format == "txt":
                assert "\n" not in b and "\r" not in b  # a one-line cell stays one line
            if cell_format == "html":
                assert html_skeleton(b) == html_skeleton(a)
            if attack in UNUSABLE:
                assert a == b


def test_output_in_the_wrong_script_is_reported_not_written(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "samples" / "txt", docs)
    report = run_pipeline(
        [docs / "release-notes.txt"],
        Adversary("link"),
        to="ru",
        out_dir=tmp_path / "out",
        validators=(target_script,),
    )
    [file] = report.files
    judged = [p for p in file.problems if "wrong script" in p.problem]
    assert judged and file.untranslated >= len(judged)
    out = (tmp_path / "out" / "ru" / "release-notes.txt").read_text(encoding="utf-8")
    assert "evil.example" not in out  # long segments were judged and kept their source
