"""SubRip, WebVTT and ASS/SSA (hymt_cli/formats/subtitles): one segment a cue with its inline
markup as tags and its neighbours as context; a translated cue's lines laid out again (width,
balance, kinsoku, dialogue turns, signs, right-to-left embeddings); what a translation may not
bring in; the `Language:` header; the reading-speed and line-length findings; bad input."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hymt_cli.engine.pseudo import pseudo_localize
from hymt_cli.formats import FormatError
from hymt_cli.formats.subtitles import SubtitleOptions
from hymt_cli.formats.subtitles.ass import AssFormat
from hymt_cli.formats.subtitles.cues import SubtitleDocument
from hymt_cli.formats.subtitles.srt import SrtFormat
from hymt_cli.formats.subtitles.vtt import VttFormat
from hymt_cli.text.segments import is_translatable

SRT = (
    '1\r\n00:00:01,000 --> 00:00:03,000\r\n{\\an8}<i>Hello</i> <font color="red">world</font>\r\n\r\n'
    "2\r\n00:00:03,500 --> 00:00:06,000\r\n"
    "The harbour opens at six,\r\nbut the ferry leaves at seven.\r\n\r\n"
    "3\r\n00:00:06,000 --> 00:00:08,000\r\n- Did you bring the map?\r\n- It's in the bag.\r\n"
)
VTT = (
    "WEBVTT\nKind: captions\nLanguage: en\n\nNOTE a note\n\nSTYLE\n::cue(.t) { color: red }\n\n"
    "id-1\n00:00.500 --> 00:02.000 align:start\n<v Ana>Look at <c.t>the tide</c>.\n\n"
    "00:02.000 --> 00:04.000\n<00:02.500>In Japanese: <ruby>潮<rt>しお</rt></ruby> &amp; more\n"
)
ASS = (
    "[Script Info]\nScriptType: v4.00+\n\n[Events]\n"
    "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
    "Comment: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,a comment\n"
    "Dialogue: 0,0:00:01.00,0:00:04.00,Default,Mei,0,0,0,,"
    "{\\an8}They stay {\\i1}open{\\i0}\\Nlate,\\hright?\n"
    "Dialogue: 0,0:00:04.00,0:00:06.00,Sign,,0,0,0,,{\\pos(10,10)}FRESH NOODLES\\NOPEN LATE\n"
    "Dialogue: 2,0:00:05.00,0:00:06.00,Sign,,0,0,0,,{\\p1}m 0 0 l 100 0 100 100{\\p0}\n"
)


def _parse(fmt: SrtFormat | VttFormat | AssFormat, text: str) -> SubtitleDocument:
    return fmt.parse(text)


# -- cues as segments --------------------------------------------------------------------------
def test_a_subrip_cue_is_one_segment_with_its_formatting_as_tags() -> None:
    doc = _parse(SrtFormat(), SRT)
    assert [s.text for s in doc.segments] == [
        "<s1>Hello</s1> <s2>world</s2>",  # ({\an8} wraps nothing: outside the segment)
        "The harbour opens at six,\nbut the ferry leaves at seven.",
        "- Did you bring the map?\n- It's in the bag.",
    ]
    assert [s.role for s in doc.segments] == ["cue 1", "cue 2", "cue 3"]
    assert doc.labels == {0: "cue 1 (line 2)", 1: "cue 2 (line 6)", 2: "cue 3 (line 11)"}
    assert doc.reassemble({s.id: s.text for s in doc.segments}) == SRT


def test_webvtt_voices_classes_ruby_timestamps_and_references() -> None:
    doc = _parse(VttFormat(), VTT)
    assert [s.text for s in doc.segments] == [
        "Look at <s1>the tide</s1>.",  # (the voice is never closed: it stays outside)
        "In Japanese: <s1>潮<s2/></s1> & more",  # a reading (<rt>) whole; `&amp;` shown as `&`
    ]
    translated = doc.reassemble({0: "Regarde <s1>la marée</s1>.", 1: "En japonais : <s1>潮<s2/></s1> & plus"})
    assert "<v Ana>Regarde <c.t>la marée</c>." in translated
    assert "<00:02.500>En japonais : <ruby>潮<rt>しお</rt></ruby> &amp; plus" in translated


def test_a_ruby_annotation_runs_over_lines_and_an_rt_outside_a_ruby_is_a_tag() -> None:
    """As the W3C parser reads a cue: the annotation's text is never translated, wherever its
    lines break, and an `<rt>` outside a ruby annotates nothing (the text after it is text)."""
    head = "WEBVTT\n\n00:01.000 --> 00:02.000\n"
    ruby = _parse(VttFormat(), head + "<ruby>\u6f6e<rt>shi\no</rt></ruby> is the tide\n")
    assert [s.text for s in ruby.segments] == ["<s1>\u6f6e<s2/></s1> is the tide"]
    stray = _parse(VttFormat(), head + "<i><rt>\nthe tide</i>\n")
    assert "the tide" in stray.segments[0].text
    out = stray.reassemble({0: stray.segments[0].text.replace("\n", " ")}, target_language="de")
    assert [s.text for s in VttFormat().parse(out).segments] == [stray.segments[0].text.replace("\n", " ")]


def test_ass_override_blocks_toggles_line_breaks_hard_spaces_signs_and_drawings() -> None:
    doc = _parse(AssFormat(), ASS)
    assert [s.text for s in doc.segments] == [
        "They stay <s1>open</s1>\nlate,\u00a0right?",
        "FRESH NOODLES\nOPEN LATE",
    ]  # the comment and the drawing are never sent
    out = doc.reassemble(
        {0: "Ils restent <s1>ouverts</s1> tard,\u00a0d'accord ?", 1: "NOUILLES\nOUVERT TARD"}
    )
    assert "{\\an8}Ils restent {\\i1}ouverts{\\i0} tard,\\hd'accord ?\n" in out
    assert "{\\pos(10,10)}NOUILLES\\NOUVERT TARD\n" in out  # a sign keeps its lines
    assert "Comment: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,a comment\n" in out
    assert "{\\p1}m 0 0 l 100 0 100 100{\\p0}" in out


def test_the_neighbouring_cues_in_time_are_the_context() -> None:
    cues = "".join(
        f"{i + 1}\n00:00:{start:02d},000 --> 00:00:{start + 1:02d},000\n{text}\n\n"
        for i, (start, text) in enumerate([(1, "One"), (2, "<i>Two</i>"), (9, "Four"), (3, "Three")])
    )
    doc = _parse(SrtFormat(), cues)
    contexts = {s.text: s.context for s in doc.segments}
    assert contexts["One"] == "Two"  # the cue after it, no tags
    assert contexts["Two"] == "One\nThree"  # (italics around all of it: outside the segment)
    assert contexts["Four"] == "Two\nThree"  # by start time, not file order


# -- lines laid out again ----------------------------------------------------------------------
def _lines(text: str, translation: str, target: str = "fr", **options: object) -> list[str]:
    doc = _parse(SrtFormat(SubtitleOptions(**options)), f"1\n00:00:01,000 --> 00:00:09,000\n{text}\n")  # type: ignore[arg-type]
    out = doc.reassemble({0: translation}, target_language=target)
    return out.split("\n")[2:-1]


def test_a_translation_is_one_line_where_it_fits_else_two_even_lines() -> None:
    assert _lines("Short\nline.", "Une ligne\ncourte.") == ["Une ligne courte."]
    long = "Le port ouvre à six heures, mais le ferry part à sept heures."
    lines = _lines("The harbour opens at six,\nbut the ferry leaves at seven.", long)
    assert lines == ["Le port ouvre à six heures,", "mais le ferry part à sept heures."]
    assert all(len(line) <= 42 for line in lines)
    assert _lines("x", "un deux trois quatre cinq six sept huit neuf", line_length=20) == [
        "un deux trois quatre",
        "cinq six sept huit neuf",
    ]


def test_a_break_prefers_punctuation_and_never_strands_a_french_mark() -> None:
    lines = _lines("x", "Vraiment, tu crois que le bateau partira à l'heure ce soir ?")
    assert lines == ["Vraiment, tu crois que le bateau", "partira à l'heure ce soir ?"]
    assert not any(line.startswith(("?", "!", ":", "»")) for line in lines)


def test_chinese_and_japanese_lines_hold_sixteen_characters_and_keep_kinsoku() -> None:
    text = "我们明天早上六点在码头见面，然后一起坐船去岛上。"
    lines = _lines("x", text, "zh")
    assert "".join(lines) == text and len(lines) == 2
    assert all(len(line) <= 16 for line in lines)
    assert not any(line[0] in "，。、！？」" for line in lines)
    japanese = _lines("x", "「明日の朝、港で会いましょう。」と彼女は言った。", "ja")
    assert all(len(line) <= 16 for line in japanese) and not any(line[0] in "、。」" for line in japanese)


def test_dialogue_turns_keep_one_line_a_speaker() -> None:
    source = "- Did you bring the map?\n- It's in the bag."
    assert _lines(source, "- Tu as la carte ?\n- Dans le sac.") == ["- Tu as la carte ?", "- Dans le sac."]
    assert _lines(source, "- Tu as la carte ? - Dans le sac.") == ["- Tu as la carte ?", "- Dans le sac."]


def test_tags_keep_their_order_across_a_break() -> None:
    lines = _lines(
        "<i>If the wind turns, we wait\nuntil the tide is high again.</i>",
        "<s1>Si le vent tourne, nous attendrons que la marée soit de nouveau haute.</s1>",
    )
    joined = "\n".join(lines)
    assert joined.startswith("<i>") and joined.endswith("</i>") and joined.count("<i>") == 1
    assert len(lines) == 2 and all(len(re.sub("<[^>]+>", "", line)) <= 42 for line in lines)


def test_a_text_too_long_for_two_lines_keeps_the_lines_the_source_had() -> None:
    words = " ".join(["mot"] * 40)  # 159 characters
    assert len(_lines("one\ntwo\nthree", words)) == 3
    assert len(_lines("one line", words)) == 2


def test_an_untouched_cue_is_the_source_however_long() -> None:
    text = "A line much longer than forty-two characters stays as the source wrote it."
    assert _lines(text, text) == [text]


# -- what a translation may not bring in -------------------------------------------------------
HOSTILE = "<b>x</b> {\\pos(1,1)}\\N a --> b &amp;\n\n2\n00:00:01,000 --> 00:00:02,000\nevil"


@pytest.mark.parametrize(
    ("fmt", "text", "written"),
    [
        (
            SrtFormat(),
            SRT,
            ("＜b>x＜/b> ｛\\pos(1,1)}＼N a -- > b &amp;", "2 00:00:01,000 -- > 00:00:02,000"),
        ),
        (
            VttFormat(),
            VTT,
            ("&lt;b&gt;x&lt;/b&gt;", "a --&gt; b &amp;amp;", "2 00:00:01,000 --&gt; 00:00:02,000"),
        ),
        (AssFormat(), ASS, ("<b>x</b> (\\pos(1,1))＼N a --> b &amp;",)),
    ],
    ids=["srt", "vtt", "ass"],
)
def test_a_translation_cannot_open_markup_or_a_cue(
    fmt: SrtFormat, text: str, written: tuple[str, ...]
) -> None:
    doc = _parse(fmt, text)
    answers = {s.id: "".join(re.findall(r"</?s\d+/?>", s.text)) + HOSTILE for s in doc.segments}
    out = doc.reassemble(answers)
    again = _parse(fmt, out)
    assert [c.timing for c in again.cues] == [c.timing for c in doc.cues]  # no cue more, none less
    for before, after in zip(doc.segments, again.segments):  # no markup more: the source's tags
        assert re.findall(r"</?s\d+/?>", after.text) == re.findall(r"</?s\d+/?>", before.text)
    for piece in written:
        assert piece in out.replace("\r\n", "\n").replace("\n", " "), piece


def test_webvtt_writes_markup_characters_as_references() -> None:
    doc = _parse(VttFormat(), VTT)
    out = doc.reassemble({0: "a <b> & c --> d <s1>x</s1>", 1: "x <s1>y<s2/></s1>"})
    assert "<v Ana>a &lt;b&gt; &amp; c --&gt; d <c.t>x</c>" in out


# -- right to left -------------------------------------------------------------------------------
def test_right_to_left_lines_are_embedded_where_they_hold_right_to_left_text() -> None:
    doc = _parse(SrtFormat(), SRT)
    arabic = "الميناء يفتح في السادسة صباحا، لكن العبارة لا تغادر قبل السابعة."
    out = doc.reassemble({1: arabic, 2: "- iPhone؟\n- OK."}, target_language="ar")
    lines = out.split("\r\n")
    cue = lines[lines.index("00:00:03,500 --> 00:00:06,000") + 1 :][:2]
    assert all(line.startswith("\u202b") and line.endswith("\u202c") for line in cue), cue
    assert "".join(cue).replace("\u202b", "").replace("\u202c", " ").strip() == arabic
    assert "\u202b- iPhone؟\u202c\r\n- OK.\r\n" in out  # a line without right-to-left text: as it is
    plain = (
        SrtFormat(SubtitleOptions(rtl_marks=False)).parse(SRT).reassemble({1: "مرحبا"}, target_language="ar")
    )
    assert "\u202b" not in plain and "مرحبا" in plain
    assert "\u202b" not in doc.reassemble({1: "مرحبا"}, target_language="de")


def test_an_encoding_without_embeddings_gets_right_to_left_marks() -> None:
    doc = _parse(SrtFormat(), SRT).written_in("cp1256")
    out = doc.reassemble({1: "مرحبا بكم."}, target_language="fa")
    assert "\u200fمرحبا بكم.\u200f" in out
    out.encode("cp1256")


# -- the WebVTT Language header --------------------------------------------------------------
def test_the_webvtt_language_header_names_the_target() -> None:
    doc = _parse(VttFormat(), VTT)
    assert "\nLanguage: pt-BR\n" in doc.reassemble({}, target_language="pt-BR")
    assert doc.reassemble({}) == VTT


# -- findings ----------------------------------------------------------------------------------
def test_reading_speed_and_line_length_are_measured_on_the_laid_out_cue() -> None:
    doc = _parse(SrtFormat(), SRT)  # cue 2 is on screen 2.5 s
    assert doc.findings(1, doc.segments[1].text, "fr") == []  # the source: never judged
    short = doc.findings(1, "Le port ouvre à six heures.", "fr")
    assert short == []  # 27 characters in 2.5 s: 10.8 a second
    fast = doc.findings(1, "Le port ouvre à six heures, mais le ferry ne part qu'à sept heures.", "fr")
    assert [f.check for f in fast] == ["reading-speed"]  # 66 characters (the break aside) in 2.5 s
    assert fast[0].message == "26.4 characters a second (17 at most): 66 characters in 2.50 s"
    long = doc.findings(1, " ".join(["mot"] * 40), "fr")
    assert {f.check for f in long} == {"reading-speed", "line-length"}


# -- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("fmt", "text", "message"),
    [
        (SrtFormat(), "1\n00:00:01,000 --> 00:00:0x,000\nHi\n", "line 2: bad timing line"),
        (SrtFormat(), "1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\n", "line 5: cue 2 has no timing line"),
        (
            SrtFormat(),
            "1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\nHello\n",
            "line 5: cue 2 has no timing line",
        ),
        (
            SrtFormat(),
            "Hello there\n\n1\n00:00:01,000 --> 00:00:02,000\nHi\n",
            "line 1: 'Hello there' begins no cue",
        ),
        (SrtFormat(), "1\n00:00:01,000 --> 00:00:61,000\nHi\n", "line 2: bad timing line"),
        (SrtFormat(), "1\n00:00:01,000 --> 00:00:02,000\nH\x00i\n", "a NUL character on line 3"),
        (VttFormat(), "WEBVTX\n\n00:01.000 --> 00:02.000\nHi\n", "line 1: not a WebVTT file"),
        (VttFormat(), "WEBVTT\n\n00:01.000 --> 00:0x.000\nHi\n", "line 3: bad timing line"),
        (
            AssFormat(),
            "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Hi\n",
            "line 1: not an ASS or SSA script",
        ),
        (AssFormat(), ASS.replace("0:00:04.00,Default", "0:00:4x.00,Default"), "line 7: bad timestamp"),
        (
            AssFormat(),
            "[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,Default\n",
            "line 2: a Dialogue line with 4 of the 10",
        ),
        (AssFormat(), "[Events]\nFormat: Layer, Start, End, Text, Style\n", "line 2: the [Events] Format"),
    ],
)
def test_bad_input_is_refused_with_its_line(fmt: SrtFormat, text: str, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        fmt.parse(text)
    assert str(caught.value).startswith(message), str(caught.value)


def test_files_as_players_read_them() -> None:
    """No numbers, `.` and no fraction in timestamps, no blank line between cues, CR line ends,
    text after a blank line inside a cue, an empty file."""
    lenient = "00:00:01.5 --> 00:00:02\rOne\r00:00:03,000 --> 00:00:04,000\rTwo\r\rmore of two\r"
    doc = _parse(SrtFormat(), lenient)
    assert [s.text for s in doc.segments] == ["One", "Two\nmore of two"]
    assert doc.cues[0].timing.start == 1.5 and doc.cues[0].timing.end == 2.0
    assert doc.reassemble({s.id: s.text for s in doc.segments}) == lenient
    assert _parse(SrtFormat(), "").segments == []
    odd = _parse(VttFormat(), "WEBVTT\n\nRegion: id=x width=40%\n\n00:01.000 --> 00:02.000\nHi\n")
    assert [s.text for s in odd.segments] == ["Hi"] and "line 3" in odd.warning


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_a_byte_order_mark_is_read_and_kept(codec: str) -> None:
    fmt = SrtFormat()
    data = SRT.encode(codec) if codec.endswith("-sig") else ("\ufeff" + SRT).encode(codec)
    decoded = fmt.decode(data)
    assert decoded.text.startswith("\ufeff") and decoded.encode(decoded.text) == data
    assert len(fmt.parse(decoded.text).segments) == 3


# -- generated files -------------------------------------------------------------------------
_PIECES = [
    *"aé中 -?.,!'\"<>{}\\&",
    "Word ",
    "😀",
    "\u00a0",
    "\t",
    "<i>",
    "</i>",
    "<b>",
    "</b>",
    '<font color="red">',
    "</font>",
    "<c.x>",
    "</c>",
    "<v Ana>",
    "<00:00:01.500>",
    "<ruby>",
    "<rt>",
    "</rt>",
    "{\\an8}",
    "{\\i1}",
    "{\\i0}",
    "{\\pos(1,2)}",
    "{\\p1}m 0 0 l 1 1{\\p0}",
    "{comment}",
    "\\N",
    "\\n",
    "\\h",
    "&amp;",
    "&lt;",
    "&nbsp;",
    "<s1>",
    "e\u0301",
    "- ",
    "\u202b",
]
_LINE = st.lists(st.sampled_from(_PIECES), max_size=10).map("".join)
_CUES = st.lists(st.lists(_LINE, min_size=1, max_size=3), max_size=5)
_NEWLINE = st.sampled_from(["\n", "\r\n", "\r"])


def _generated(fmt: SrtFormat | VttFormat | AssFormat, cues: list[list[str]], newline: str) -> str:
    if fmt.name == "ass":
        break_ = "\\N"
        events = "".join(
            f"Dialogue: 0,0:00:{i:02d}.00,0:00:{i:02d}.90,Default,,0,0,0,,{break_.join(lines)}\n"
            for i, lines in enumerate(cues)
        )
        text = "[Script Info]\nScriptType: v4.00+\n\n[Events]\n" + events
    else:
        blocks = [
            f"{i + 1}\n00:00:{i:02d}.000 --> 00:00:{i:02d}.900\n"
            + "\n".join(line.replace("-->", "") for line in lines)
            for i, lines in enumerate(cues)
        ]
        text = ("WEBVTT\n\n" if fmt.name == "vtt" else "") + "\n\n".join(blocks) + "\n"
    return text.replace("\n", newline)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([SrtFormat(), VttFormat(), AssFormat()]), _CUES, _NEWLINE, st.booleans())
def test_generated_files_splice_back_and_keep_their_cues_whatever_the_answer(
    fmt: SrtFormat, cues: list[list[str]], newline: str, bom: bool
) -> None:
    src = ("\ufeff" if bom else "") + _generated(fmt, cues, newline)
    doc = fmt.parse(src)
    assert doc.reassemble({s.id: s.text for s in doc.segments}) == src
    sent = [s for s in doc.segments if is_translatable(s.text)]  # (what the pipeline sends)
    for answer in (pseudo_localize, lambda t: t + " " + HOSTILE, lambda t: "\n\n".join(t.split())):
        out = doc.reassemble({s.id: answer(s.text) for s in sent}, target_language="ar")
        again = fmt.parse(out)
        assert [c.timing for c in again.cues] == [c.timing for c in doc.cues]
        assert len(again.segments) == len(doc.segments)
