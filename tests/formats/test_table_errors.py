"""Malformed CSV, TSV and JSON Lines: one line naming the file, the line and (where known) the
column; the other files are still translated; nothing of the bad file is written, even when the
problem is found after the first batches were written."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import hymt
from table_helpers import run_files

from hymt_cli.engine.pseudo import PseudoEngine

GOOD_CSV = b"id,title\n1,Red shirt\n2,Blue hat\n"
CASES = [
    (
        "unterminated.csv",
        b'id,title\n1,Red shirt\n2,"Blue hat\n3,Green\n',
        ("title",),
        "line 3, column 3: unterminated quoted field",
    ),
    (
        "fields.csv",
        b"id,title\n1,Red shirt\n2,Blue,hat\n",
        ("title",),
        "line 3: 3 fields, but the header has 2",
    ),
    (
        "latin1.csv",
        "id,title\n1,Red shirt\n2,Caf\u00e9 cr\u00e8me\n".encode("latin-1"),
        ("title",),
        "line 3, column 6: not valid UTF-8 (byte offset 26: invalid continuation byte)",
    ),
    ("missing.csv", GOOD_CSV, ("name",), "no column 'name'; columns: id, title"),
    ("empty.csv", b"", ("title",), None),  # nothing to translate: written as it is
    ("blank.csv", b"\xef\xbb\xbf\r\n\r\n", ("title",), None),
    ("dup.csv", b"id,title,title\n1,a,b\n", ("title",), "line 1: column 'title' appears more than once"),
    ("fields.tsv", b"id\ttitle\n1\tRed\tshirt\n", ("title",), "line 2: 3 fields, but the header has 2"),
    ("backslash.tsv", b"id\ttitle\n1\tRed\\", ("title",), None),  # (quotes: a backslash is a character)
    (
        "bad.jsonl",
        b'{"title": "Red shirt"}\n{"title": "Blue hat",}\n',
        ("title",),
        "line 2, column 22: not JSON (expected a key in double quotes)",
    ),
    (
        "number.jsonl",
        b'{"title": "Red shirt"}\n\n{"id": 3, "title": 42}\n',
        ("title",),
        "line 3, column 20: field 'title' holds a number, not a string",
    ),
    (
        "object.jsonl",
        b'{"seo": {"title": "Red"}}\n',
        ("seo",),
        "line 1, column 9: field 'seo' holds an object",
    ),
    (
        "nofield.jsonl",
        b'{"title": "Red shirt", "body": "Soft"}\n',
        ("name",),
        "no line has the field 'name'; fields of the first line: title, body",
    ),
    ("utf16odd.jsonl", b"\xff\xfe{\x00}", ("title",), "not valid UTF-16 (little-endian)"),
    (  # a field that merely starts with a quote: its lines would be merged into one record
        "merged.tsv",
        b'id\ttitle\n1\t"Hello" world\n2\t"Red shirt\n3\tBlue hat\n4\tGreen "x" cap\n',
        ("title",),
        "line 3, column 3: a quoted field runs over 3 lines and its closing quote is followed by 'x': "
        "those lines would be merged into one record; if the file's quotes are part of the text, pass "
        "--escaping none",
    ),
    (
        "merged.csv",
        b'id,title\n1,"Red shirt\n2,Blue "hat"\n',
        ("title",),
        "line 2, column 3: a quoted field runs over 2 lines and its closing quote is followed by 'h'",
    ),
    ("nocolumns.jsonl", b'{"title": "Red"}\n', (), "jsonl needs --columns"),
]


@pytest.mark.parametrize("name, data, columns, message", CASES, ids=[c[0] for c in CASES])
def test_a_malformed_file_fails_alone_with_one_line(
    name: str, data: bytes, columns: tuple[str, ...], message: str | None, tmp_path: Path
) -> None:
    bad = tmp_path / name
    bad.write_bytes(data)
    good = tmp_path / "good.csv"
    good.write_bytes(GOOD_CSV)
    report = run_files(
        [bad, good],
        PseudoEngine,
        out=tmp_path / "out",
        columns=columns or ("title",) if name != "nocolumns.jsonl" else (),
    )
    by_input = {Path(f.input).name: f for f in report.files}
    if message is None:
        assert by_input[name].status == "ok"
        if not data.strip(b"\xef\xbb\xbf\r\n"):
            assert (tmp_path / "out" / "de" / name).read_bytes() == data
        return
    failed = by_input[name]
    assert failed.status == "failed" and failed.error is not None
    assert failed.error.startswith(f"{bad}: ") and message in failed.error, failed.error
    assert "\n" not in failed.error
    assert not (tmp_path / "out" / "de" / name).exists()
    assert not list((tmp_path / "out").rglob("*hymt-tmp*"))
    if "title" in columns:  # the other file is translated all the same
        assert by_input["good.csv"].status == "ok"
        assert (tmp_path / "out" / "de" / "good.csv").read_bytes() != GOOD_CSV


def test_a_problem_found_after_many_batches_leaves_nothing_written(tmp_path: Path) -> None:
    rows = "".join(f"{i},Product number {i}\n" for i in range(5000))
    bad = tmp_path / "late.csv"
    bad.write_bytes(f'id,title\n{rows}5000,"never closed\n'.encode())
    late_json = tmp_path / "late.jsonl"
    late_json.write_bytes("".join(f'{{"title": "Item {i}"}}\n' for i in range(5000)).encode() + b"{oops}\n")
    report = run_files(
        [bad, late_json], PseudoEngine, out=tmp_path / "out", columns=("title",), rows_per_batch=100
    )
    errors = sorted(f.error or "" for f in report.files)
    assert report.files_failed == 2
    assert "line 5002, column 6: unterminated quoted field" in errors[0]
    assert "line 5001, column 2: not JSON" in errors[1]
    assert not any((tmp_path / "out").rglob("*.*sv")) and not any((tmp_path / "out").rglob("*.jsonl"))
    assert not list((tmp_path / "out").rglob("*hymt-tmp*"))


def test_add_columns_refuses_a_column_that_exists(tmp_path: Path) -> None:
    src = tmp_path / "cat.csv"
    src.write_bytes(b"title,title_de\nRed,Rot\n")
    jsonl = tmp_path / "cat.jsonl"
    jsonl.write_bytes(b'{"title": "Red", "title_de": "Rot"}\n')
    report = run_files([src, jsonl], PseudoEngine, out=tmp_path / "out", columns=("title",), add_columns=True)
    errors = sorted(f.error or "" for f in report.files)
    assert "column 'title_de' exists already (--add-columns)" in errors[0]
    assert "field 'title_de' exists already (--add-columns)" in errors[1]
    assert not list((tmp_path / "out").rglob("cat.*"))


def test_cli_prints_one_error_line_per_bad_file_and_exits_1(tmp_path: Path) -> None:
    (tmp_path / "bad.csv").write_bytes(b'id,title\n1,"Red\n')
    (tmp_path / "good.csv").write_bytes(GOOD_CSV)
    (tmp_path / "good.jsonl").write_bytes(b'{"title": "Red shirt", "n": 1}\n')
    result = hymt(
        "translate",
        str(tmp_path / "bad.csv"),
        str(tmp_path / "good.csv"),
        str(tmp_path / "good.jsonl"),
        "--to",
        "de",
        "--engine",
        "pseudo",
        "--columns",
        "title",
        "-o",
        str(tmp_path / "out"),
        text=True,
    )
    assert result.returncode == 1, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "bad.csv: line 2, column 3: unterminated quoted field" in errors[0], (
        result.stderr
    )
    assert result.stdout == ""
    assert (tmp_path / "out" / "de" / "good.csv").read_text(encoding="utf-8").startswith("id,title\n1,⟦")
    assert (tmp_path / "out" / "de" / "good.jsonl").read_text(encoding="utf-8").startswith('{"title": "⟦')
    assert not (tmp_path / "out" / "de" / "bad.csv").exists()


MERGED_TSV = b'id\ttitle\n1\t"Red shirt\n2\tBlue hat\n3\tGreen cap"\n4\tPlain\n'


def test_lines_a_quoted_tsv_field_would_merge_are_a_warning_naming_the_line(tmp_path: Path) -> None:
    """A closing quote at a field's end is valid RFC 4180: the field holds the lines and tabs
    between (Python's csv module writes such fields), so it is read so, with a warning."""
    path = tmp_path / "ui.tsv"
    path.write_bytes(MERGED_TSV)
    report = run_files([path], PseudoEngine, out=tmp_path / "out", columns=("title",), to="de,fr")
    assert report.files_failed == 0
    for file in report.files:
        assert file.warning == (
            f"{path}: line 2, column 3: a quoted field runs over 3 lines that hold tabs, read as one "
            "field (RFC 4180); if they are records of their own and the quotes part of the text, pass "
            "--escaping none"
        )
    result = hymt(
        "translate", str(path), "--to", "de,fr", "--engine", "pseudo", "--columns", "title",
        "-o", str(tmp_path / "cli"), text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if line.startswith("warning:")] == [
        f"warning: {report.files[0].warning}"  # once, whatever the number of languages
    ]
    as_text = run_files(
        [path], PseudoEngine, out=tmp_path / "none", columns=("title",), escaping="none"
    ).files[0]
    assert as_text.warning is None and as_text.segments == 4


def test_quoted_fields_over_several_lines_without_tabs_are_no_doubt(tmp_path: Path) -> None:
    path = tmp_path / "notes.tsv"
    path.write_bytes(b'id\tnote\n1\t"First line\nsecond line"\n2\t"a ""quoted"" word"\n')
    [file] = run_files([path], PseudoEngine, out=tmp_path / "out", columns=("note",)).files
    assert file.status == "ok" and file.warning is None and file.segments == 2
