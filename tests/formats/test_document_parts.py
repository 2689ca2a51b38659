"""A long text document is read, translated and written a part at a time (formats/document.py):
the parts' segments are the whole document's (text and role, in order), and their outputs, one
after the other, are the whole document's output, byte for byte."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from parts_helpers import read_in_parts, written
from text_helpers import TEXTS

from hymt_cli.engine.pseudo import pseudo_localize
from hymt_cli.formats import DocumentDecodeError, FormatError, TextOptions
from hymt_cli.formats.base import decode_utf8
from hymt_cli.formats.text import TextFormat

FORMATS = [TextFormat(TextOptions(segment_by="paragraph")), TextFormat(TextOptions(segment_by="line"))]


@settings(max_examples=400, deadline=None)
@given(TEXTS, st.sampled_from(FORMATS), st.integers(min_value=1, max_value=24))
def test_parts_give_the_whole_documents_segments_and_output(
    src: str, fmt: TextFormat, part_bytes: int
) -> None:
    whole = fmt.parse(src)
    units = read_in_parts(fmt, src.encode(), part_bytes)
    assert [u.index for u in units] == list(range(len(units)))
    assert [(s.text, s.role) for u in units for s in u.segments] == [(s.text, s.role) for s in whole.segments]
    expected = whole.reassemble({s.id: pseudo_localize(s.text) for s in whole.segments}).encode()
    assert written(units) == expected


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.segment_by)
def test_a_long_document_comes_in_parts_a_short_one_whole(fmt: TextFormat) -> None:
    src = "\ufeffFirst line\r\n\r\n" + "".join(f"Line {i}\r\n\r\n" for i in range(400)) + "Last, no newline"
    long_units = read_in_parts(fmt, src.encode(), 256)
    assert len(long_units) > 10
    assert long_units[-1].segments[-1].role == "line 803"
    assert (
        written(long_units)
        == fmt.parse(src)
        .reassemble({s.id: pseudo_localize(s.text) for s in fmt.parse(src).segments})
        .encode()
    )
    assert len(read_in_parts(fmt, src.encode(), len(src.encode()) + 1)) == 1


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf"])
def test_an_empty_document_is_one_unit(data: bytes) -> None:
    units = read_in_parts(FORMATS[1], data, 1)
    assert len(units) == 1 and written(units) == data


@pytest.mark.parametrize("bad_at", [3, 5_000, 9_999])
def test_bytes_that_do_not_decode_are_named_by_their_offset_in_the_file(bad_at: int) -> None:
    data = bytearray(b"word\n" * 2_000)
    data[bad_at] = 0xFF
    with pytest.raises(DocumentDecodeError) as whole:
        decode_utf8(bytes(data))
    with pytest.raises(FormatError) as parted:
        read_in_parts(FORMATS[1], bytes(data), 512)
    assert (
        str(parted.value)
        == str(whole.value)
        == f"not valid UTF-8 (invalid start byte; --encoding names the encoding of a file in another) "
        f"at byte offset {bad_at}"
    )


def test_a_character_cut_by_a_block_is_decoded_whole() -> None:
    src = "".join(f"é中😀 {i}\n" for i in range(300))
    for part_bytes in (1, 2, 3, 7, 64):
        units = read_in_parts(FORMATS[1], src.encode(), part_bytes)
        assert "".join(s.text + "\n" for u in units for s in u.segments) == src
