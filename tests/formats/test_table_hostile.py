"""The model's answers are untrusted: whatever it answers for the CSV, TSV and JSON Lines samples,
every output reads back (csv module, pyarrow, json) as the same rows and columns, cells that
were not sent are unchanged, one-line cells stay one line, and an unusable answer is reported
and never written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from engines import ATTACKS, UNUSABLE, Adversary
from markup_helpers import html_skeleton
from table_helpers import arrow_columns, csv_rows, json_lines, run_files

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "samples" / "catalog"
PATHS = {
    "products.csv": CATALOG / "csv" / "products.csv",
    "ui-strings.tsv": CATALOG / "tsv" / "ui-strings.tsv",
    "reviews.jsonl": CATALOG / "jsonl" / "reviews.jsonl",
}
SAMPLES = {  # sample: (columns, delimiter or None for JSON Lines)
    "products.csv": (("Title", "Body (HTML)", "Option1 Value", "SEO Description"), ","),
    "ui-strings.tsv": (("en",), "\t"),
    "reviews.jsonl": (("title", "body", "reply.text", "tags"), None),
}
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _run(attack: str, cell_format: str, tmp_path: Path, add_columns: bool = False) -> dict[str, bytes]:
    outputs = {}
    for name, (columns, _) in SAMPLES.items():
        report = run_files(
            [PATHS[name]],
            lambda: Adversary(attack),
            to="fr",
            out=tmp_path / "out",
            columns=columns,
            cell_format=cell_format,
            add_columns=add_columns,
            rows_per_batch=7,
        )
        assert report.files_failed == 0, [f.error for f in report.files]
        for file in report.files:
            assert file.translated + file.untranslated == file.segments > 0
            assert file.untranslated == 0 or file.problems
            if attack in UNUSABLE:
                assert file.translated == 0
        outputs[name] = (tmp_path / "out" / "fr" / name).read_bytes()
    return outputs


def _check_cell(before: str, after: str, attack: str, cell_format: str) -> None:
    if attack in UNUSABLE:
        assert after == before
    assert not CONTROL.search(after) or CONTROL.search(before)
    if "\n" not in before and "\r" not in before and cell_format == "txt":
        assert "\n" not in after and "\r" not in after  # a one-line cell stays one line
    if cell_format == "html":
        assert html_skeleton(after) == html_skeleton(before)


@pytest.mark.parametrize("cell_format", ["txt", "html"])
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_csv_and_tsv_keep_rows_columns_and_other_cells(attack: str, cell_format: str, tmp_path: Path) -> None:
    outputs = _run(attack, cell_format, tmp_path)
    for name in ("products.csv", "ui-strings.tsv"):
        columns, delimiter = SAMPLES[name]
        assert delimiter is not None
        source = (PATHS[name]).read_bytes()
        before, after = csv_rows(source, delimiter), csv_rows(outputs[name], delimiter)
        assert after[0] == before[0] and len(after) == len(before)
        picked = {before[0].index(c) for c in columns}
        for old, new in zip(before[1:], after[1:]):
            assert len(new) == len(old)
            for i, (a, b) in enumerate(zip(old, new)):
                if i in picked:
                    _check_cell(a, b, attack, cell_format)
                else:
                    assert a == b
        arrow = arrow_columns(outputs[name], delimiter)
        assert [list(row) for row in zip(*arrow.values())] == after[1:]
        if attack in UNUSABLE:
            assert outputs[name] == source


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_json_lines_keep_their_shape_and_other_values(attack: str, tmp_path: Path) -> None:
    outputs = _run(attack, "txt", tmp_path)
    source = (PATHS["reviews.jsonl"]).read_bytes()
    before, after = json_lines(source), json_lines(outputs["reviews.jsonl"])
    assert len(after) == len(before) and outputs["reviews.jsonl"].count(b"\n") == source.count(b"\n")
    for a, b in zip(before, after):
        assert isinstance(a, dict) and isinstance(b, dict) and list(a) == list(b)
        for key in a:
            if key in ("title", "body"):
                _check_cell(a[key], b[key], attack, "txt")
            elif key == "tags":
                assert len(a[key]) == len(b[key])
            elif key == "reply" and a[key] is not None:
                assert a[key]["author"] == b[key]["author"]
                _check_cell(a[key]["text"], b[key]["text"], attack, "txt")
            else:
                assert a[key] == b[key]
    if attack in UNUSABLE:
        assert outputs["reviews.jsonl"] == source


@pytest.mark.parametrize("attack", ["separators", "markdown", "html"])
def test_added_columns_hold_the_answers_and_leave_the_source_columns(attack: str, tmp_path: Path) -> None:
    outputs = _run(attack, "txt", tmp_path, add_columns=True)
    columns, _ = SAMPLES["products.csv"]
    before = csv_rows((PATHS["products.csv"]).read_bytes(), ",")
    after = csv_rows(outputs["products.csv"], ",")
    width = len(before[0])
    assert [row[:width] for row in after] == before
    assert after[0][width:] == [f"{c}_fr" for c in columns]
    records = json_lines(outputs["reviews.jsonl"])
    assert all(isinstance(r, dict) and "title_fr" in r and "tags_fr" in r for r in records)


def test_the_samples_come_back_byte_for_byte_through_the_identity_engine(tmp_path: Path) -> None:
    from hymt_cli.engine.identity import IdentityEngine

    for name, (columns, _) in SAMPLES.items():
        report = run_files([PATHS[name]], IdentityEngine, to="fr,ja", out=tmp_path, columns=columns)
        assert report.files_ok == 2 and report.untranslated == 0 and report.files[0].segments > 10
        for lang in ("fr", "ja"):
            assert (tmp_path / lang / name).read_bytes() == (PATHS[name]).read_bytes()
