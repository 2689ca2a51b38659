"""CSV and TSV in every dialect real files use: tables written by Python's csv module (any
delimiter, quoting style, line ending, BOM, encoding) come back byte for byte; translations
holding delimiters, quotes, line breaks and backslashes are written so that the csv module and
pyarrow read the same rows, and no other cell changes."""

from __future__ import annotations

import csv
import io
import string

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from table_helpers import arrow_columns, csv_rows, translate_bytes

from hymt_cli.formats import decoded_stream
from hymt_cli.formats.delimited.dialect import Dialect
from hymt_cli.formats.delimited.scanner import sniff_delimiter
from hymt_cli.formats.text import fit_line_breaks

CELL = st.text(
    alphabet=st.sampled_from(list(string.ascii_letters[:8]) + list(" ,;\t|\"'\\\r\n\u00e9\u4e2d\U0001f600")),
    max_size=12,
)
HEADER = ["id", "title", "note"]


@st.composite
def tables(draw: st.DrawFn) -> tuple[bytes, str, list[list[str]], str]:
    """(bytes, delimiter, rows incl. header, encoding) as the csv module writes them."""
    delimiter = draw(st.sampled_from([",", ";", "\t", "|"]))
    quoting = draw(st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC]))
    terminator = draw(st.sampled_from(["\r\n", "\n"]))
    rows = [HEADER] + [[str(i), draw(CELL), draw(CELL)] for i in range(draw(st.integers(0, 8)))]
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter=delimiter, quoting=quoting, lineterminator=terminator).writerows(rows)
    text = buffer.getvalue()
    # (the csv module does not quote a lone CR when its line ending is LF: a file its own
    # reader reads otherwise, which is not what these tests are about)
    assume(list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)) == rows)
    if draw(st.booleans()):
        text = text.removesuffix(terminator)  # no final line ending
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]))
    return text.encode(encoding, "surrogatepass"), delimiter, rows, encoding


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.sampled_from([1, 2, 3, 8192]), st.sampled_from([1, 5, 1 << 20]))
def test_tables_the_csv_module_writes_come_back_byte_for_byte(
    table,
    rows_per_batch,
    block,
) -> None:
    data, delimiter, _, _ = table
    fmt = "tsv" if delimiter == "\t" else "csv"
    old = decoded_stream.BLOCK_BYTES
    decoded_stream.BLOCK_BYTES = block  # tiny blocks: records, CR LF and characters split between reads
    try:
        for translate in (lambda t: t, lambda t: None):
            out = translate_bytes(
                fmt,
                data,
                translate,
                columns=("title", "note"),
                rows_per_batch=rows_per_batch,
                delimiter=delimiter,
            )
            assert out == data
    finally:
        decoded_stream.BLOCK_BYTES = old


HOSTILE = [
    ", comma",
    "; semi",
    "\ttab",
    "| pipe",
    ' "quoted" ',
    '""',
    '"',
    "back\\slash\\",
    "\\n\\t",
    "line\nbreak",
    "cr\rlf\r\n",
    "\u2028sep",
    "\ufeffbom",
    "=1+2",
    " lead",
    "trail ",
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.sampled_from(HOSTILE), st.booleans())
def test_hostile_translations_keep_rows_columns_and_other_cells(table, attack, add_columns) -> None:
    data, delimiter, _, _ = table
    fmt = "tsv" if delimiter == "\t" else "csv"

    def translate(text: str) -> str:
        return attack + text + attack

    out = translate_bytes(
        fmt, data, translate, columns=("title",), delimiter=delimiter, add_columns=add_columns
    )
    before, after = csv_rows(data, delimiter), csv_rows(out, delimiter)
    assert len(after) == len(before)
    expected_header = HEADER + ["title_de"] if add_columns else HEADER
    if before:
        assert after[0] == expected_header
    for old, new in zip(before[1:], after[1:]):
        title = old[1]
        translated = fit_line_breaks(title, translate(title)) if title else title
        if "\n" in title or "\r" in title:
            translated = new[3 if add_columns else 1]  # a multi-line cell goes through the cell format
            assert translated.count("\n") + translated.count("\r") >= 1
        assert new == (old + [translated] if add_columns else [old[0], translated, old[2]])
    if len(before) > 1:  # pyarrow reads the same table
        arrow = arrow_columns(out.decode(_encoding(out)).encode(), delimiter)
        assert list(arrow) == expected_header
        assert [list(r) for r in zip(*arrow.values())] == after[1:]


def _encoding(data: bytes) -> str:
    return "utf-16" if data.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-8-sig"


def test_a_quoted_field_stays_quoted_and_an_unquoted_one_is_quoted_only_when_it_must() -> None:
    data = b'id,a,b\r\n1,"plain",plain\r\n2,"x",y\r\n'
    out = translate_bytes(
        "csv", data, lambda t: {"plain": "simple", "x": 'say "hi"', "y": "a,b"}.get(t), columns=("a", "b")
    )
    assert out == b'id,a,b\r\n1,"simple",simple\r\n2,"say ""hi""","a,b"\r\n'


def test_a_quote_inside_an_unquoted_field_is_a_character_as_every_reader_reads_it() -> None:
    data = b'size,name\n13" laptop,Sleeve for 13" laptops\n'
    assert translate_bytes("csv", data, lambda t: t, columns=("name",)) == data
    out = translate_bytes("csv", data, lambda t: t.replace("Sleeve", "H\u00fclle"), columns=("name",))
    assert out == 'size,name\n13" laptop,"H\u00fclle for 13"" laptops"\n'.encode()
    assert csv_rows(out, ",")[1] == ['13" laptop', 'H\u00fclle for 13" laptops']


def test_text_after_a_closing_quote_reads_on_into_the_field_as_csv_and_pyarrow_do() -> None:
    data = b'k,v\n1,"ab"cd\n'
    assert list(csv.reader(io.StringIO(data.decode())))[1] == ["1", "abcd"]  # (not in strict mode)
    assert arrow_columns(data, ",")["v"] == ["abcd"]
    seen: list[str] = []
    assert translate_bytes("csv", data, lambda t: seen.append(t) or t, columns=("v",)) == data
    assert seen == ["abcd"]


def test_blank_lines_are_kept_and_never_translated() -> None:
    data = b"k,v\n\n1,one\n\n\n2,two\n\n"
    out = translate_bytes("csv", data, str.upper, columns=("v",))
    assert out == b"k,v\n\n1,ONE\n\n\n2,TWO\n\n"


def test_null_markers_and_empty_fields_are_not_sent() -> None:
    data = b'k,v\n1,\n2,""\n3,NULL\n4,\\N\n5,"NULL"\n'
    seen: list[str] = []
    out = translate_bytes("csv", data, lambda t: seen.append(t) or t.lower(), columns=("v",))
    assert seen == ["NULL"]  # a quoted NULL is text; unquoted NULL and \N are a database's nulls
    assert out == b'k,v\n1,\n2,""\n3,NULL\n4,\\N\n5,"null"\n'


@pytest.mark.parametrize("delimiter", [";", "\t", "|", ","])
def test_the_delimiter_is_sniffed_from_the_first_lines(delimiter: str) -> None:
    rows = [
        ["Artikel", "Beschreibung, kurz", "Preis"],
        ["1", "Tasse; blau", "3,50"],
        ["2", 'Teller "flach"', "4,00"],
    ]
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    assert sniff_delimiter(buffer.getvalue()) == delimiter
    data = buffer.getvalue().encode("utf-8-sig")
    out = translate_bytes("csv", data, str.upper, columns=("Beschreibung, kurz",))
    assert [r[1] for r in csv_rows(out, delimiter)[1:]] == ["TASSE; BLAU", 'TELLER "FLACH"']


def test_a_one_column_file_sniffs_the_default_delimiter() -> None:
    assert sniff_delimiter("title\nHello, world\nGood; morning\n") == ","


def test_backslash_escaped_tsv_reads_and_writes_escapes() -> None:
    data = b"id\ttext\tnote\n1\tline one\\nline two\t\\N\n2\ttab\\there \\\\ back\tx\n3\t\\N\ty\n"
    seen: list[str] = []
    identity = translate_bytes(
        "tsv", data, lambda t: seen.append(t) or t, columns=("text", "note"), escaping="backslash"
    )
    assert identity == data
    assert seen == ["line one\nline two", "tab\there \\ back", "x", "y"]  # \N is NULL: not sent
    out = translate_bytes("tsv", data, lambda t: t + '\t\\ "', columns=("text",), escaping="backslash")
    lines = out.decode().split("\n")
    assert lines[2] == '2\ttab\\there \\\\ back\\t\\\\ "\tx'
    assert lines[3] == "3\t\\N\ty"
    assert all(line.count("\t") == 2 for line in lines if line)


def test_tsv_without_escapes_turns_what_a_field_cannot_hold_into_spaces() -> None:
    data = b'id\ttext\n1\t"quoted" start\n'
    assert translate_bytes("tsv", data, lambda t: t, columns=("text",), escaping="none") == data
    out = translate_bytes("tsv", data, lambda t: t + "\tand\nmore", columns=("text",), escaping="none")
    assert out == b'id\ttext\n1\t"quoted" start and more\n'


def test_utf16_with_bom_is_read_and_written_in_utf16() -> None:
    text = "id\tname\r\n1\tTasse\r\n2\tTeller \u00e9\r\n"
    for encoding in ("utf-16-le", "utf-16-be"):
        data = ("\ufeff" + text).encode(encoding)
        assert translate_bytes("tsv", data, lambda t: t, columns=("name",)) == data
        out = translate_bytes("tsv", data, str.upper, columns=("name",))
        assert out == (
            "\ufeff" + text.replace("Tasse", "TASSE").replace("Teller \u00e9", "TELLER \u00c9")
        ).encode(encoding)


def test_no_header_names_columns_by_number_and_adds_no_header() -> None:
    data = b'"Orders","Bestellungen"\n"Refund","Erstattung"\n'
    out = translate_bytes("csv", data, str.upper, columns=("1",), header=False, add_columns=True)
    assert out == b'"Orders","Bestellungen","ORDERS"\n"Refund","Erstattung","REFUND"\n'


def test_a_huge_quoted_field_is_read_in_linear_passes() -> None:
    value = ("word, " * 200_000).strip()
    data = f'k,v\n1,"{value}"\n2,short\n'.encode()
    old = decoded_stream.BLOCK_BYTES
    decoded_stream.BLOCK_BYTES = 4096
    try:
        assert translate_bytes("csv", data, lambda t: t, columns=("v",)) == data
    finally:
        decoded_stream.BLOCK_BYTES = old


def test_dialect_options_are_checked() -> None:
    from hymt_cli.errors import UsageError
    from hymt_cli.formats.delimited.dialect import DelimitedOptions

    for bad in ('"', "\\", "\n", ";;"):
        with pytest.raises(UsageError, match="--delimiter must be one character"):
            DelimitedOptions(delimiter=bad)
    with pytest.raises(UsageError, match="--escaping must be one of quotes, backslash, none"):
        DelimitedOptions(escaping="sometimes")  # type: ignore[arg-type]
    assert Dialect(";", "quotes").delimiter == ";"


def test_excel_s_sep_line_names_the_delimiter_and_is_kept() -> None:
    data = "\ufeffsep=;\r\nid;title\r\n1;Tasse, blau\r\n".encode()
    assert translate_bytes("csv", data, lambda t: t, columns=("title",)) == data
    out = translate_bytes("csv", data, str.upper, columns=("title",), add_columns=True)
    assert out == "\ufeffsep=;\r\nid;title;title_de\r\n1;Tasse, blau;TASSE, BLAU\r\n".encode()


def test_a_missing_column_lists_the_header_with_odd_names_quoted(tmp_path) -> None:
    from table_helpers import run_files

    from hymt_cli.engine.identity import IdentityEngine

    src = tmp_path / "odd.csv"
    src.write_bytes(b",en,title \n1,a,b\n")
    report = run_files([src], IdentityEngine, columns=("title",))
    assert report.files[0].error is not None
    assert report.files[0].error.endswith("no column 'title'; columns: '', en, 'title '")
