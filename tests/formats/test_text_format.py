"""txt format: byte-exact identity round-trip, segmentation rules, line-ending restoration."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from text_helpers import TEXTS

from hymt_cli.engine.pseudo import pseudo_localize
from hymt_cli.formats import TextOptions, format_named
from hymt_cli.formats.text import TextFormat

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").rglob("*.txt"))
PARAGRAPH, LINE = TextFormat(TextOptions(segment_by="paragraph")), TextFormat(TextOptions(segment_by="line"))


def identity(fmt: TextFormat, src: str) -> str:
    return fmt.reassemble(src, {s.id: s.text for s in fmt.segments(src)})


def test_samples_exist() -> None:
    assert len(SAMPLES) >= 5


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("fmt", [PARAGRAPH, LINE], ids=["paragraph", "line"])
def test_identity_round_trip_on_samples(path: Path, fmt: TextFormat) -> None:
    data = path.read_bytes()
    decoded = fmt.decode(data)
    assert decoded.encode(identity(fmt, decoded.text)) == data


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_identity_round_trip_on_generated_text(src: str) -> None:
    assert identity(PARAGRAPH, src) == src
    assert identity(LINE, src) == src


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_pseudo_changes_every_paragraph_and_nothing_else(src: str) -> None:
    segments = PARAGRAPH.segments(src)
    out = PARAGRAPH.reassemble(src, {s.id: pseudo_localize(s.text) for s in segments})
    # Outside the segments nothing moved: removing every translation gives back the gaps.
    spans = PARAGRAPH.spans_of(src)
    gaps_src = [
        src[(spans[i - 1].end if i else 0) : (spans[i].start if i < len(spans) else len(src))]
        for i in range(len(spans) + 1)
    ]
    for gap in gaps_src:
        assert gap in out
    for segment in segments:
        assert pseudo_localize(segment.text).replace("\n", "") in out.replace("\r", "").replace("\n", "")
    assert out.count("⟦") == len(segments)


def test_paragraphs_are_blank_line_separated_and_trimmed() -> None:
    src = "\ufeff  First para\nstill first.\n\n\n\tSecond para  \n \n"
    assert [s.text for s in PARAGRAPH.segments(src)] == ["First para\nstill first.", "Second para"]


def test_line_mode_keeps_every_nonempty_line_a_segment() -> None:
    src = "one\r\ntwo\r\n\r\n  three\n"
    assert [s.text for s in LINE.segments(src)] == ["one", "two", "three"]
    out = LINE.reassemble(src, {0: "uno", 1: "dos", 2: "tres"})
    assert out == "uno\r\ndos\r\n\r\n  tres\n"


def test_translation_gets_the_paragraphs_line_endings_back() -> None:
    src = "a line\r\nanother line\r\n\r\nend\r\n"
    out = PARAGRAPH.reassemble(src, {0: "une ligne\nune autre ligne", 1: "fin"})
    assert out == "une ligne\r\nune autre ligne\r\n\r\nfin\r\n"
    # a different line count falls back to the paragraph's first line-break style
    out = PARAGRAPH.reassemble(src, {0: "une\nseule\nligne\nde plus"})
    assert out == "une\r\nseule\r\nligne\r\nde plus\r\n\r\nend\r\n"


def test_missing_ids_keep_the_source() -> None:
    src = "alpha\n\nbeta\n"
    assert PARAGRAPH.reassemble(src, {1: "BETA"}) == "alpha\n\nBETA\n"


def test_decode_reports_the_offset_of_bad_bytes() -> None:
    fmt = format_named("txt")
    with pytest.raises(ValueError, match="not valid UTF-8.*byte offset 6"):
        fmt.decode(b"hello \xff world")


def test_bom_survives_encode() -> None:
    data = "\ufeffhi\n".encode()
    decoded = PARAGRAPH.decode(data)
    assert decoded.encode(decoded.text) == data
    assert PARAGRAPH.segments(decoded.text)[0].text == "hi"
