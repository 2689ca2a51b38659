"""Legacy encodings decode as browsers do (the WHATWG Encoding Standard's indexes), where
Python's codecs refuse bytes or read them otherwise, and write back byte for byte."""

from __future__ import annotations

import codecs
import json
import subprocess
import sys
from pathlib import Path

import pytest

from hymt_cli.formats.base import DocumentDecodeError
from hymt_cli.formats.html import HtmlFormat
from hymt_cli.formats.html.charset import decode_html
from hymt_cli.formats.html.whatwg_codecs import codec_name
from hymt_cli.formats.html.whatwg_tables import DIFFERENCES

ROOT = Path(__file__).resolve().parents[2]
MIRROR = Path("/work/.mirror/whatwg+encoding/repo")  # `fetch github:whatwg/encoding`

KNOWN = [  # (WHATWG encoding, bytes, what browsers show, what is written for it) where Python's
    # codec refuses or differs; the written bytes differ where a character has two spellings
    ("big5", b"\xa3\xe1", "\u20ac", None),  # the euro sign
    ("big5", b"\x88\x62", "\u00ca\u0304", None),  # one pair, two code points
    ("big5", b"\xa1\x41", "\uff0c", None),
    ("big5", b"\xf9\xf9", "\u2550", None),  # the standard writes the last of its two spellings
    ("windows-1252", b"\x81\x8d", "\x81\x8d", None),
    ("windows-1250", b"\x83", "\x83", None),
    ("koi8-u", b"\xae\xbe", "\u045e\u040e", None),
    ("euc-jp", b"\xad\xa1", "\u2460", None),  # NEC row 13: circled digit one
    ("iso-2022-jp", b"\x1b(I1\x1b(B", "\uff71", None),  # half-width katakana
    ("iso-2022-jp", b"\x1b$B!A\x1b(B", "\uff5e", None),  # fullwidth tilde, where Python reads a wave dash
    ("iso-2022-jp", b"\x1b(J\\~\x1b(B", "\u00a5\u203e", None),
    ("gb18030", b"\x80", "\u20ac", b"\xa2\xe3"),  # the euro sign: gb18030 writes A2E3
    ("gbk", b"\x80", "\u20ac", None),  # and a GBK writer 0x80
    ("gb18030", b"\xa6\xd9", "\ufe10", None),
    ("gb18030", b"\x81\x35\xf4\x37", "\ue7c7", None),
    ("gbk", b"\x81\x30\x81\x30", "\u0080", b"&#128;"),  # read as gb18030 does; GBK has no 4-byte
]


def _codec(whatwg: str) -> str:
    import webencodings  # type: ignore[import-untyped]

    return codec_name(whatwg, webencodings.lookup(whatwg).codec_info.name)


@pytest.mark.parametrize("whatwg, data, text, written", KNOWN, ids=[f"{k[0]}-{k[1].hex()}" for k in KNOWN])
def test_what_browsers_show_is_decoded_and_written_back(
    whatwg: str, data: bytes, text: str, written: bytes | None
) -> None:
    codec = _codec(whatwg)
    assert codec.startswith("hymt-")
    assert data.decode(codec) == text
    assert text.encode(codec, "xmlcharrefreplace") == (written or data)


def test_every_difference_in_the_table_decodes_as_the_standard_says() -> None:
    for whatwg, (_base, table) in DIFFERENCES.items():
        codec = _codec(whatwg)
        for key, text in table.items():
            seq = bytes.fromhex(key)
            if whatwg == "iso-2022-jp":
                seq = b"\x1b$B" + seq + b"\x1b(B"
            if not text:
                with pytest.raises(UnicodeDecodeError):
                    seq.decode(codec)
                continue
            assert seq.decode(codec) == text, (whatwg, key)
            assert text.encode(codec).decode(codec) == text  # encodable, in some spelling
            assert seq.decode(_codec("gbk")) == text if whatwg == "gb18030" else True


def test_a_page_of_many_characters_decodes_in_one_pass_and_writes_back() -> None:
    """Characters cut at the right places in a long run: every two-byte pair of the encoding that
    decodes, one after the other, with ASCII between some of them."""
    for whatwg, leads, trails in [
        ("big5", range(0x81, 0xFF), [*range(0x40, 0x7F), *range(0xA1, 0xFF)]),
        ("euc-jp", range(0xA1, 0xFF), range(0xA1, 0xFF)),
        ("gb18030", range(0x81, 0xFF), [*range(0x40, 0x7F), *range(0x80, 0xFF)]),
    ]:
        codec = _codec(whatwg)
        pieces: list[bytes] = []
        second_spellings = 0
        for lead in leads:
            for trail in trails:
                pair = bytes([lead, trail])
                try:
                    text = pair.decode(codec)
                except UnicodeDecodeError:
                    continue
                if text.encode(codec) != pair:  # a character with two spellings: one is written
                    second_spellings += 1
                    assert text.encode(codec).decode(codec) == text
                    continue
                pieces.append(pair + (b"a" if trail % 7 == 0 else b""))
        data = b"".join(pieces)
        text = data.decode(codec)
        assert text.encode(codec) == data, whatwg
        assert len(pieces) > 5_000 and second_spellings < len(pieces) // 20, (whatwg, second_spellings)


def test_characters_the_encoding_lacks_become_references_in_a_page() -> None:
    page = '<meta charset="big5"><p>Price: 5\u20ac</p>'.encode("ascii", "xmlcharrefreplace").replace(
        b"&#8364;", b"\xa3\xe1"
    )
    decoded = HtmlFormat().decode(page)
    assert "5\u20ac" in decoded.text and decoded.encode(decoded.text) == page
    assert decoded.encode("\u20ac \u0e01 \U0001f600") == b"\xa3\xe1 &#3585; &#128512;"


def test_a_page_with_two_spellings_of_one_character_is_refused_with_the_offset() -> None:
    # gb18030 reads both 0x80 and A2E3 as the euro sign: only one can be written back
    page = b'<meta charset="gb18030"><p>\x80 and \xa2\xe3</p>'
    with pytest.raises(DocumentDecodeError) as caught:
        decode_html(page)
    assert "write these bytes back" in str(caught.value) and caught.value.offset is not None


def test_big5_page_with_the_euro_sign_translates_through_the_pipeline(tmp_path: Path) -> None:
    from table_helpers import run_files

    from hymt_cli.engine.pseudo import PseudoEngine

    page = tmp_path / "price.html"
    page.write_bytes(
        '<html><head><meta charset="big5"></head><body><p>價格 Price 5€</p></body></html>'.encode(
            "big5hkscs", "xmlcharrefreplace"
        ).replace(b"&#8364;", b"\xa3\xe1")
    )
    report = run_files([page], PseudoEngine, to="fr", out=tmp_path / "out")
    assert report.files_ok == 1, [f.error for f in report.files]
    out = (tmp_path / "out" / "fr" / "price.html").read_bytes()
    # translated (pseudo's letters are not in Big5: references), the euro sign still Big5's
    assert b"\xa3\xe1" in out and b"&#10214;" in out and "價格".encode("big5") in out
    assert decode_html(out).text.count("\u20ac") == 1


def test_iso_2022_jp_errors_as_the_standard_says() -> None:
    codec = _codec("iso-2022-jp")
    for bad in (b"\x1b(B\x1b$Babc", b"\x1b$B\n\x1b(B", b"\x1b(Z", b"\x0e", b"\x1b(I\x60"):
        with pytest.raises(UnicodeDecodeError):
            bad.decode(codec)
    assert "x\uff71y\u3042".encode(codec) == b'x\x1b(I1\x1b(By\x1b$B$"\x1b(B'


@pytest.mark.skipif(
    not MIRROR.is_dir(), reason="the WHATWG encoding mirror is not here (fetch github:whatwg/encoding)"
)
def test_every_sequence_of_every_index_decodes_as_browsers_do() -> None:
    """The whole standard, not only the table: every byte sequence each decoder reads as one
    character decodes to the index's code point (or is an error where the index has none)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import whatwg_encodings

    for name, _base, whatwg in whatwg_encodings.encodings(MIRROR):
        codec = _codec(name)
        wrong = []
        for seq, text in whatwg.items():
            try:
                got: str | None = seq.decode(codec)
            except UnicodeDecodeError:
                got = None
            if got != text:
                wrong.append(seq.hex())
        assert not wrong, (name, wrong[:10])
    gbk = [(seq, text) for seq, text in whatwg_encodings.gb18030(MIRROR).items() if len(seq) <= 2]
    assert all(seq.decode(_codec("gbk")) == text for seq, text in gbk if text)


@pytest.mark.skipif(not MIRROR.is_dir(), reason="the WHATWG encoding mirror is not here")
def test_the_generated_table_is_what_the_script_writes(tmp_path: Path) -> None:

    out = tmp_path / "differences.json"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "whatwg_encodings.py"),
            "--indexes",
            str(MIRROR),
            "--write",
            "--out",
            str(out),
        ],
        check=True,
        capture_output=True,
    )
    document = json.loads(out.read_text(encoding="ascii"))
    assert document["source"].startswith("https://github.com/whatwg/encoding, commit ")
    generated = {name: (codec, table) for name, (codec, table) in document["encodings"].items()}
    assert generated == DIFFERENCES


def test_codecs_are_found_by_name_in_either_spelling() -> None:
    assert codecs.lookup("hymt-big5").name == "hymt-big5"
    assert codecs.lookup("hymt_windows_1252").name == "hymt-windows-1252"
