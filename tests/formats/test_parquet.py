"""Parquet catalogs: identity round-trip, memory reuse, columns, nulls, bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from catalog_gen import write_catalog
from clirun import hymt
from hypothesis import given, settings
from hypothesis import strategies as st
from tm_helpers import CountingEngine, FailingEngine, engine_named, run

from hymt_cli.engine.pseudo import pseudo_localize
from hymt_cli.errors import ExitCode

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = ("title", "body_html", "option1_value", "category", "seo_description")
ROWS = 10_500


@pytest.fixture(scope="module")
def catalog(tmp_path_factory) -> Path:
    return write_catalog(tmp_path_factory.mktemp("catalog") / "catalog.parquet", ROWS, row_group_rows=4000)


def _copy(catalog: Path, tmp_path: Path) -> Path:
    target = tmp_path / "catalog.parquet"
    target.write_bytes(catalog.read_bytes())
    return target


def _unique_texts(table: pa.Table, columns=COLUMNS) -> set[str]:
    texts = set()
    for name in columns:
        column = table.column(name)
        if pa.types.is_dictionary(column.type):
            column = column.cast(column.type.value_type)
        texts.update(v.strip() for v in column.to_pylist() if v and any(ch.isalpha() for ch in v))
    return texts


def test_identity_round_trip_equals_input_with_schema_and_metadata(catalog, tmp_path):
    src = _copy(catalog, tmp_path)
    report = run(
        [src],
        "fr,de",
        engine_named("identity"),
        cache=tmp_path / "tm.db",
        out=tmp_path / "out",
        columns=COLUMNS,
        rows_per_batch=3000,
    )
    assert report.files_ok == 2 and report.files_failed == 0 and report.untranslated == 0
    source = pq.read_table(src)
    assert any("<li>" in v for v in source.column("body_html").to_pylist()[:20])  # HTML cells
    assert source.num_rows == ROWS and source.column("seo_description").null_count > 0
    for lang in ("fr", "de"):
        out = pq.read_table(tmp_path / "out" / lang / "catalog.parquet")
        assert out.equals(source)
        assert out.schema.equals(source.schema, check_metadata=True)
        assert out.schema.metadata == source.schema.metadata
    assert not list((tmp_path / "out" / "fr").glob(".*hymt-tmp"))


def test_pseudo_translates_selected_columns_keeps_the_rest(catalog, tmp_path):
    src = _copy(catalog, tmp_path)
    run([src], "fr", engine_named("pseudo"), cache=None, columns=("title", "category", "seo_description"))
    source, out = pq.read_table(src), pq.read_table(tmp_path / "catalog.fr.parquet")  # default: beside
    assert out.schema.equals(source.schema, check_metadata=True) and out.num_rows == source.num_rows
    for name in source.column_names:
        if name in ("title", "category", "seo_description"):
            continue
        assert out.column(name).equals(source.column(name)), name
    titles = zip(source.column("title").to_pylist(), out.column("title").to_pylist())
    assert all(t == pseudo_localize(s) for s, t in titles)
    seo_in, seo_out = source.column("seo_description").to_pylist(), out.column("seo_description").to_pylist()
    assert [v is None for v in seo_in] == [v is None for v in seo_out]  # nulls stay null
    assert all(o == "" for i, o in zip(seo_in, seo_out) if i == "")  # empty stays empty
    assert "" in seo_in
    cat_in = source.column("category").cast(pa.string()).to_pylist()
    cat_out = out.column("category").cast(pa.string()).to_pylist()
    assert all(o == pseudo_localize(i) for i, o in zip(cat_in, cat_out))
    assert pa.types.is_dictionary(out.schema.field("category").type)


def test_second_run_sends_nothing_and_ten_changed_rows_send_only_their_texts(catalog, tmp_path):
    src, cache = _copy(catalog, tmp_path), tmp_path / "tm.db"
    first = CountingEngine(engine_named("pseudo"))
    run([src], "fr,de", first, cache=cache, out=tmp_path / "a", columns=COLUMNS)
    # Once per language, even for colors repeated in every batch: later batches hit the memory.
    from collections import Counter

    assert set(Counter(first.requested).values()) == {2}
    assert set(first.requested) == _unique_texts(pq.read_table(src))
    second = CountingEngine(engine_named("pseudo"))
    report = run([src], "fr,de", second, cache=cache, out=tmp_path / "b", columns=COLUMNS)
    assert second.requested == [] and report.engine_requests == 0 and report.cache_hits > 0
    for lang in ("fr", "de"):
        assert pq.read_table(tmp_path / "b" / lang / "catalog.parquet").equals(
            pq.read_table(tmp_path / "a" / lang / "catalog.parquet")
        )

    table = pq.read_table(src)
    rows = [5, 17, 999, 2500, 4001, 6000, 7777, 9000, 10_001, 10_499]
    titles = table.column("title").to_pylist()
    for i in rows:
        titles[i] = f"Changed product title {i}"
    table = table.set_column(
        table.schema.get_field_index("title"), table.schema.field("title"), pa.array(titles, pa.string())
    )
    pq.write_table(table, src)
    third = CountingEngine(engine_named("pseudo"))
    run([src], "fr,de", third, cache=cache, out=tmp_path / "c", columns=COLUMNS)
    expected = sorted([f"Changed product title {i}" for i in rows] * 2)
    assert sorted(third.requested) == expected


def test_add_columns_keeps_source_and_appends_per_language(catalog, tmp_path):
    src = _copy(catalog, tmp_path)
    report = run(
        [src],
        "fr",
        engine_named("pseudo"),
        cache=None,
        out=tmp_path / "out",
        columns=("title", "option1_value"),
        add_columns=True,
    )
    assert report.files_ok == 1
    source, out = pq.read_table(src), pq.read_table(tmp_path / "out" / "fr" / "catalog.parquet")
    assert out.column_names == source.column_names + ["title_fr", "option1_value_fr"]
    assert out.select(source.column_names).equals(source)
    assert out.schema.metadata == source.schema.metadata
    assert out.column("option1_value_fr").to_pylist()[:50] == [
        pseudo_localize(v) for v in source.column("option1_value").to_pylist()[:50]
    ]


def test_failed_cells_keep_source_counted_untranslated_and_not_cached(tmp_path):
    src = tmp_path / "small.parquet"
    pq.write_table(
        pa.table({"name": ["Red shirt", "Blue shirt", None, "Red shirt", "", "  Green hat "]}), src
    )
    engine = FailingEngine(engine_named("pseudo"), marker="Blue")
    report = run([src], "fr", engine, cache=tmp_path / "tm.db", columns=("name",))
    out = pq.read_table(tmp_path / "small.fr.parquet").column("name").to_pylist()
    assert out == [
        pseudo_localize("Red shirt"),
        "Blue shirt",
        None,
        pseudo_localize("Red shirt"),
        "",
        "  " + pseudo_localize("Green hat") + " ",
    ]
    assert report.untranslated == 1 and report.files[0].translated == 3
    again = CountingEngine(engine_named("pseudo"))
    run([src], "fr", again, cache=tmp_path / "tm.db", columns=("name",))
    assert again.requested == ["Blue shirt"]


def test_multiline_cells_go_through_the_cell_format(tmp_path):
    src = tmp_path / "ml.parquet"
    value = "First paragraph.\r\n\r\nSecond paragraph\nwith a second line.\r\n"
    pq.write_table(pa.table({"d": [value]}), src)
    engine = CountingEngine(engine_named("identity"))
    run([src], "fr", engine, cache=None, columns=("d",))
    assert sorted(engine.requested) == ["First paragraph.", "Second paragraph\nwith a second line."]
    assert pq.read_table(tmp_path / "ml.fr.parquet").column("d").to_pylist() == [value]


def test_dry_run_counts_and_writes_nothing(catalog, tmp_path):
    src, cache = _copy(catalog, tmp_path), tmp_path / "tm.db"
    run([src], "fr", engine_named("identity"), cache=cache, columns=("title",))
    (tmp_path / "catalog.fr.parquet").unlink()
    report = run(
        [src],
        "fr,de",
        CountingEngine(engine_named("identity")),
        cache=cache,
        dry_run=True,
        columns=("title",),
    )
    assert report.unique_segments > 0 and report.cache_hits * 2 == report.unique_segments
    assert report.engine_requests == 0
    assert not list(tmp_path.glob("catalog.*.parquet"))


# -- bad input through the CLI --------------------------------------------------------------


def _cli(*args: str, cwd: Path):
    return hymt("translate", *args, cwd=cwd, text=True)


def _no_outputs(folder: Path) -> bool:
    return not [
        p
        for p in folder.rglob("*")
        if p.is_file()
        and p.suffix != ".db"
        and "good" not in p.name
        and p.name not in ("bad.parquet", "catalog.parquet", "notes.parquet", "r.json")
        and not p.name.startswith("tm.db")
    ]


@pytest.mark.parametrize("case", ["truncated", "garbage", "missing_column", "non_string", "no_columns"])
def test_bad_input_is_one_line_error_exit_1_other_files_still_done(case, catalog, tmp_path):
    bad = tmp_path / "bad.parquet"
    columns = "title"
    if case == "truncated":
        data = catalog.read_bytes()
        bad.write_bytes(data[: len(data) // 2])
    elif case == "garbage":
        bad.write_text("id,title\n1,Red shirt\n")
    else:
        bad.write_bytes(catalog.read_bytes())
        columns = {"missing_column": "title,nope", "non_string": "price", "no_columns": ""}[case]
    good = tmp_path / "good.txt"
    good.write_text("Hello there.\n")
    result = _cli(
        str(bad),
        str(good),
        "--to",
        "fr",
        "--engine",
        "identity",
        "--no-cache",
        *(["--columns", columns] if columns else []),
        "--report",
        str(tmp_path / "r.json"),
        cwd=tmp_path,
    )
    assert result.returncode == ExitCode.SOME_INPUTS_FAILED, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and str(bad) in errors[0], result.stderr
    expected = {
        "truncated": "not a readable parquet file",
        "garbage": "not a readable parquet file",
        "missing_column": "no column 'nope'; string columns: handle, title, body_html",
        "non_string": "column 'price' is double, not a string column; string columns: handle",
        "no_columns": "parquet needs --columns; string columns: handle, title",
    }[case]
    assert expected in errors[0]
    assert (tmp_path / "good.fr.txt").read_text() == "Hello there.\n"
    assert not (tmp_path / "bad.fr.parquet").exists()
    assert not list(tmp_path.glob(".*hymt-tmp"))
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["files_failed"] == 1 and report["files_ok"] == 1


def test_corrupt_row_group_mid_file_leaves_nothing(catalog, tmp_path):
    """Footer intact, data pages of a later row group damaged: fails mid-stream, no output."""
    data = bytearray(catalog.read_bytes())
    meta = pq.ParquetFile(catalog).metadata
    start = meta.row_group(2).column(2).data_page_offset
    data[start + 20 : start + 4000] = b"\xff" * 3980
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(bytes(data))
    result = _cli(
        str(bad),
        "--to",
        "fr,de",
        "--engine",
        "identity",
        "--no-cache",
        "--columns",
        "title,body_html",
        "-o",
        str(tmp_path / "out"),
        cwd=tmp_path,
    )
    assert result.returncode == ExitCode.SOME_INPUTS_FAILED, result.stderr
    assert f"{bad}: " in result.stderr and "parquet" in result.stderr
    assert (
        not [p for p in (tmp_path / "out").rglob("*") if p.is_file()] if (tmp_path / "out").exists() else True
    )


def test_unwritable_output_location_fails_cleanly(catalog, tmp_path):
    src = _copy(catalog, tmp_path)
    blocker = tmp_path / "out"
    blocker.write_text("a file where the output folder should be")
    result = _cli(
        str(src),
        "--to",
        "fr",
        "--engine",
        "identity",
        "--no-cache",
        "--columns",
        "title",
        "-o",
        str(blocker),
        cwd=tmp_path,
    )
    # found before anything is read or started (issue 13): a usage error
    assert result.returncode == ExitCode.USAGE
    assert f"-o/--out {blocker}: is a file, not a folder" in result.stderr
    assert blocker.read_text() == "a file where the output folder should be"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_output_dir_fails_cleanly(catalog, tmp_path):
    src = _copy(catalog, tmp_path)
    out = tmp_path / "out" / "fr"
    out.mkdir(parents=True)
    out.chmod(0o555)
    try:
        result = _cli(
            str(src),
            "--to",
            "fr",
            "--engine",
            "identity",
            "--no-cache",
            "--columns",
            "title",
            "-o",
            str(tmp_path / "out"),
            cwd=tmp_path,
        )
        assert result.returncode == ExitCode.SOME_INPUTS_FAILED
        assert "cannot write" in result.stderr and "Permission denied" in result.stderr
        assert list(out.iterdir()) == []
    finally:
        out.chmod(0o755)


def test_cache_that_is_not_a_database_is_exit_2_nothing_written(catalog, tmp_path):
    src = _copy(catalog, tmp_path)
    bad = tmp_path / "tm.db"
    bad.write_bytes(b"\x00garbage" * 1000)
    result = _cli(
        str(src),
        "--to",
        "fr",
        "--engine",
        "identity",
        "--cache",
        str(bad),
        "--columns",
        "title",
        cwd=tmp_path,
    )
    assert result.returncode == ExitCode.USAGE
    assert "not a hymt translation memory" in result.stderr
    assert not (tmp_path / "catalog.fr.parquet").exists()


def test_invalid_utf8_in_a_string_column_is_one_line_other_files_done(tmp_path):
    bad = tmp_path / "bad.parquet"
    titles = pa.array([b"Red shirt", b"Bad \xff byte", b"Blue"], pa.binary()).view(pa.string())
    pq.write_table(pa.table({"title": titles, "n": [1, 2, 3]}), bad)
    good = tmp_path / "good.txt"
    good.write_text("Hello there.\n")
    result = _cli(
        str(bad),
        str(good),
        "--to",
        "fr",
        "--engine",
        "identity",
        "--no-cache",
        "--columns",
        "title",
        cwd=tmp_path,
    )
    assert result.returncode == ExitCode.SOME_INPUTS_FAILED, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        f"error: {bad}: column 'title' holds text that is not valid UTF-8 (rows 0-2: "
        "Invalid UTF8 sequence at string index 1)"
    ]
    assert "Traceback" not in result.stderr
    assert (tmp_path / "good.fr.txt").read_text() == "Hello there.\n"
    assert not (tmp_path / "bad.fr.parquet").exists() and not list(tmp_path.glob(".*hymt-tmp"))


_CELL_TEXT = st.text(
    alphabet=st.sampled_from(list("ab é漢 \t\n\r<>&*[]#|-\u00a0🙂\u0301\ufeff")), max_size=24
)


@settings(max_examples=25, deadline=None)
@given(
    titles=st.lists(st.one_of(st.none(), _CELL_TEXT), min_size=0, max_size=30),
    dictionary=st.booleans(),
    large=st.booleans(),
    rows_per_batch=st.integers(1, 8),
    cell_format=st.sampled_from(["txt", "md", "html"]),
)
def test_identity_round_trip_of_generated_tables(titles, dictionary, large, rows_per_batch, cell_format):
    import tempfile

    string = pa.large_string() if large else pa.string()
    column = pa.array(titles, type=string)
    if dictionary:
        column = column.dictionary_encode()
    table = pa.table({"title": column, "n": list(range(len(titles)))}).replace_schema_metadata({"k": "v"})
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "t.parquet"
        pq.write_table(table, src)
        report = run(
            [src],
            "fr",
            engine_named("identity"),
            cache=None,
            out=Path(tmp) / "out",
            columns=("title",),
            rows_per_batch=rows_per_batch,
            cell_format=cell_format,
        )
        assert report.files_ok == 1 and report.untranslated == 0
        out = pq.read_table(Path(tmp) / "out" / "fr" / "t.parquet")
        source = pq.read_table(src)
        assert out.equals(source) and out.schema.equals(source.schema, check_metadata=True)
