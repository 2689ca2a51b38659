"""A translation that reads like a database's null marker (`NULL`, `null`, `\\N`) is written so that
it reads back as that text, not as a null: quoted in a quoted CSV, escaped in a backslash TSV."""

from __future__ import annotations

import pytest
from table_helpers import translate_bytes

from hymt_cli.formats.delimited.dialect import Dialect
from hymt_cli.formats.delimited.fields import field_value

SOURCE = b"id,title\n1,Nothing\n2,Nobody\n"


@pytest.mark.parametrize("marker", ["NULL", "null", "\\N"])
def test_an_answer_that_reads_like_null_stays_text(marker: str) -> None:
    out = translate_bytes("csv", SOURCE, lambda t: marker if t == "Nothing" else None, columns=("title",))
    assert out.split(b"\n")[1] == b'1,"' + marker.encode() + b'"'
    raw = out.split(b"\n")[1].split(b",", 1)[1].decode()
    assert field_value(raw, Dialect(",", "quotes")) == marker
    again = translate_bytes("csv", out, lambda t: f"<{t}>", columns=("title",))  # text, sent again
    assert again.split(b"\n")[1:3] == [b'1,"<' + marker.encode() + b'>"', b"2,<Nobody>"]


def test_a_backslash_tsv_escapes_the_null_marker() -> None:
    out = translate_bytes(
        "tsv", b"id\ttitle\n1\tNothing\n", lambda t: "\\N", columns=("title",), escaping="backslash"
    )
    assert out == b"id\ttitle\n1\t\\\\N\n"
    assert field_value("\\\\N", Dialect("\t", "backslash")) == "\\N"
