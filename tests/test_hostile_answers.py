"""The model's output is untrusted input: whatever it answers, every format's output keeps the
source's structure, gets no live markup of its own, and every answer that could not be used
is reported. One adversarial engine (engines.Adversary), every attack, every format."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from engines import ATTACKS, UNUSABLE, Adversary
from markup_helpers import assert_html_structure_kept, assert_md_structure_kept, html_skeleton

from hymt_cli.inputs.discovery import discover
from hymt_cli.formats import ParquetOptions, TextOptions
from hymt_cli.text.languages import language
from hymt_cli.pipeline import Pipeline, RunOptions, target_script
from hymt_cli.reporting.report import RunReport
from hymt_cli.model.tokenizer import EstimatingTokenizer

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = {
    "txt": sorted((ROOT / "samples" / "txt").glob("*.txt")),
    "md": sorted((ROOT / "samples" / "docs").glob("*.md")),
    "html": sorted((ROOT / "samples" / "site").glob("*.html")),
    "parquet": [ROOT / "samples" / "catalog" / "products.parquet"],
}
COLUMNS = ("title", "body_html", "option1_value", "seo_description")
_LANG = re.compile(r"""(<html\b[^>]*\blang=["']?)[^"'\s>]*(["']?)""", re.IGNORECASE)
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _translate(fmt: str, attack: str, tmp_path: Path, *, segment_by: str = "paragraph",
               cell_format: str = "txt") -> tuple[RunReport, dict[Path, Path]]:
    settings = {"txt": TextOptions(segment_by=segment_by),
                "parquet": ParquetOptions(columns=COLUMNS, cell_format=cell_format, rows_per_batch=64)}
    sources, problems = discover([str(p) for p in SAMPLES[fmt]], format_name=None, options=settings)
    assert not problems
    out = tmp_path / "out"
    report = Pipeline(RunOptions(targets=(language("fr"),), out_dir=out), EstimatingTokenizer(),
                      lambda: Adversary(attack)).run(sources)
    assert report.files_failed == 0, [f.error for f in report.files]
    return report, {s.path: out / "fr" / s.relative for s in sources if s.path is not None}


def _reported(report: RunReport, attack: str) -> None:
    """Every segment is either translated or reported; an unusable answer is never written.
    (A table's segments count the rows holding a value; its problems, the values.)"""
    for file in report.files:
        assert file.translated + file.untranslated == file.segments
        assert file.untranslated == 0 or file.problems, file
        if attack in UNUSABLE:
            assert file.untranslated == file.segments and file.translated == 0
            if file.format != "parquet":
                assert len(file.problems) + file.problems_omitted == file.segments


def _paragraphs(text: str) -> list[int]:
    """Lines per blank-line separated paragraph."""
    return [len(block.splitlines()) for block in re.split(r"\n[ \t\u3000]*\n", text.strip("\n")) if block.strip()]


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_markdown_keeps_its_structure(attack: str, tmp_path: Path) -> None:
    report, outputs = _translate("md", attack, tmp_path)
    _reported(report, attack)
    for src, out in outputs.items():
        before, after = src.read_text(encoding="utf-8"), out.read_text(encoding="utf-8")
        assert_md_structure_kept(before, after)
        assert not CONTROL.search(after) or CONTROL.search(before)
        if attack in UNUSABLE:
            assert after == before


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_html_keeps_its_structure(attack: str, tmp_path: Path) -> None:
    from hymt_cli.formats.html import HtmlFormat

    report, outputs = _translate("html", attack, tmp_path)
    _reported(report, attack)
    for src, out in outputs.items():
        decode = HtmlFormat().decode
        before, after = decode(src.read_bytes()).text, decode(out.read_bytes()).text
        before = _LANG.sub(r"\1x\2", before, count=1)  # the page's language is the target's now
        after = _LANG.sub(r"\1x\2", after, count=1)
        assert_html_structure_kept(before, after)
        assert not CONTROL.search(after) or CONTROL.search(before)
        if attack in UNUSABLE:
            assert after == before


@pytest.mark.parametrize("segment_by", ["paragraph", "line"])
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_text_keeps_its_paragraphs_and_lines(attack: str, segment_by: str, tmp_path: Path) -> None:
    report, outputs = _translate("txt", attack, tmp_path, segment_by=segment_by)
    _reported(report, attack)
    for src, out in outputs.items():
        before, after = src.read_text(encoding="utf-8"), out.read_text(encoding="utf-8")
        if segment_by == "line":
            assert len(after.splitlines()) == len(before.splitlines())
        else:
            assert len(_paragraphs(after)) == len(_paragraphs(before))
        assert not CONTROL.search(after)
        if attack in UNUSABLE:
            assert after == before


@pytest.mark.parametrize("cell_format", ["txt", "html"])
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_tables_keep_rows_columns_and_cells(attack: str, cell_format: str, tmp_path: Path) -> None:
    report, outputs = _translate("parquet", attack, tmp_path, cell_format=cell_format)
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
    sources, _ = discover([str(docs / "release-notes.txt")], format_name=None, options=None)
    report = Pipeline(RunOptions(targets=(language("ru"),), out_dir=tmp_path / "out"), EstimatingTokenizer(),
                      lambda: Adversary("link"), validators=(target_script,)).run(sources)
    [file] = report.files
    judged = [p for p in file.problems if "wrong script" in p.problem]
    assert judged and file.untranslated >= len(judged)
    out = (tmp_path / "out" / "ru" / "release-notes.txt").read_text(encoding="utf-8")
    assert "evil.example" not in out  # long segments were judged and kept their source
