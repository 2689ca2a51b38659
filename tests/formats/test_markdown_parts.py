"""A long Markdown document is read, translated and written a part at a time (formats/markdown/
cuts.py): whatever the blocks and wherever the reads end, the parts' segments are the whole
document's (text and role, in order) and their outputs, one after the other, are the whole
document's output, byte for byte. A long list is cut between its items; link reference and
footnote definitions reach every part; the title and nearest heading reach later parts' context."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markup_helpers import MD_FILES
from parts_helpers import read_in_parts, written

from hymt_cli.engine.pseudo import pseudo_localize
from hymt_cli.formats.markdown import MarkdownFormat
from hymt_cli.formats.markdown.cuts import NO_DEFINITIONS, last_cut, survey

MD = MarkdownFormat()

# Blocks, and pieces of blocks, that open or close something a cut must not fall into.
BLOCKS = [
    "A plain paragraph with *emphasis* and `code`.",
    "Second line of a paragraph",
    "# A heading",
    "## Heading *two*",
    "Setext heading\n===",
    "Underlined\n---",
    "---",
    "+++",
    "+++ not front matter",
    "- item one\n- item two",
    "- item\n\n  continued in the item",
    "1. first\n2. second",
    "10) numbered",
    "* starred",
    "> quoted *text*\n> more",
    "> lazy\ncontinuation",
    "```\ncode\n\nstill code\n```",
    "```python",
    "~~~~\nfenced\n\nParagraph inside a fence",
    "    indented code\n\n    more code",
    "<!-- a comment\n\nParagraph inside the comment",
    "-->",
    "<script>\nvar x = 1;\n\nParagraph inside the script",
    "</script>",
    "<div>\n<p>Some <b>html</b></p>\n</div>",
    "<div>",
    "$$\nx^2\n\nParagraph inside math",
    "$$",
    '!!! note "Title"\n    body text\n\n    more body',
    "| a | b |\n|---|---|\n| cell | cell |",
    "| not | a table",
    "|---|---|",
    "Text with an inline footnote^[a *note*] here.",
    "\ufeffZero-width start",
    "Trailing spaces   ",
    "- item\n  ```\n  code in an item",
    "> ```\n> quoted fence",
    "> $$\n> quoted math",
    "- $$\n  math in an item",
    "$$x$$",
    "$$\nx\n$$ (1)",
    "<pre>\n\nPreformatted",
    "</pre>",
    "<?php echo 1;\n\nStill php",
    "?>",
    "<![CDATA[\n\nData",
    "]]>",
    "<custom-tag>\ntext",
    "#hashtag, not a heading",
    "2024 was a year",
    "a | b\n--|--\nc | d",
    "[a link](/url) starts this",
    '[foo]: /url "Foo *title*"',
    "[Foo]: /duplicate 'Second title'",
    "[bar]:\n  /multi-line 'title'",
    "Uses [foo], [bar][], [x][foo] and [undefined].",
    "> [quoted]: /q 'Quoted title'",
    "See [quoted] and [FOO].",
    "[^1]: A footnote.",
    "Refers to [^1] and [^note], not [^none].",
    "[^note]: A *longer* note\n\n    in two paragraphs.",
    "[^1]: A second definition of one.",
    "> [^quoted]: A quoted note.",
    "Names [^quoted] and ^[an inline note].",
    "| cell \\| with [^1] | [foo] |\n|---|---|\n| x [^note] \\| y | z |",
    "- tight\n- list\n- of items",
    "- item *one*\n  - nested\n  - more\n- item two\nlazy line",
    "1. one\n2. two\n3) other marker",
    "* star\n+ plus\n- dash",
    "- \n  empty first line\n-\n- [ ] task",
    "- ```\n  fence in an item\n- next",
    "- <div>\n- html in an item",
    "- | a |\n  |---|\n  | b |",
    "-- not an item",
    "- ---",
    "\t",
    "",
]
SEPARATORS = ["\n", "\n\n", "\r\n", "\r\n\r\n", "\r", "\n\n\n"]
HEADS = ["", "\ufeff", "---\ntitle: Front *matter*\n---\n", '+++\ntitle = "TOML title"\n+++\n', "\ufeff---\n"]

DOCUMENTS = st.builds(
    lambda head, blocks, ends: head + "".join(b + e for b, e in zip(blocks, ends)),
    st.sampled_from(HEADS),
    st.lists(st.sampled_from(BLOCKS), max_size=14),
    st.lists(st.sampled_from(SEPARATORS), min_size=14, max_size=14),
)


def assert_parts_read_as_the_whole(src: str, part_bytes: int) -> int:
    """The parts' segments and output are the whole document's; how many parts there were."""
    whole = MD.parse(src)
    units = read_in_parts(MD, src.encode(), part_bytes)
    assert [u.index for u in units] == list(range(len(units)))
    assert [(s.text, s.role) for u in units for s in u.segments] == [(s.text, s.role) for s in whole.segments]
    expected = whole.reassemble({s.id: pseudo_localize(s.text) for s in whole.segments}).encode()
    assert written(units) == expected
    return len(units)


@settings(max_examples=500, deadline=None)
@given(DOCUMENTS, st.integers(min_value=1, max_value=40))
def test_parts_give_the_whole_documents_segments_and_output(src: str, part_bytes: int) -> None:
    assert_parts_read_as_the_whole(src, part_bytes)


@pytest.mark.parametrize("path", MD_FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("part_bytes", [1, 97, 1024])
def test_real_documents_read_in_parts_as_whole(path: Path, part_bytes: int) -> None:
    src = path.read_bytes().decode("utf-8")
    assert_parts_read_as_the_whole(src, part_bytes)


def test_a_long_document_comes_in_parts_a_short_one_whole() -> None:
    src = "# Guide\n\n" + "".join(f"## Step {i}\n\nDo *thing* {i}.\n\n- a\n- b\n\n" for i in range(300))
    assert assert_parts_read_as_the_whole(src, 512) > 20
    assert len(read_in_parts(MD, src.encode(), len(src.encode()) + 1)) == 1


def test_a_document_that_is_one_long_list_comes_in_parts() -> None:
    src = "# Changes\n\n" + "".join(f"- Fixed *bug* {i}\n  in two lines\n" for i in range(400)) + "1. x\n"
    assert assert_parts_read_as_the_whole(src, 256) > 20


def test_later_parts_keep_the_title_and_nearest_heading_in_their_context() -> None:
    src = "---\ntitle: The guide\n---\n\n# Intro\n\n" + "".join(
        f"## Section {i}\n\nParagraph {i}.\n\nMore of {i}.\n\n" for i in range(50)
    )
    whole = [(s.text, s.context) for s in MD.parse(src).segments]
    units = read_in_parts(MD, src.encode(), 64)
    assert len(units) > 20
    assert [(s.text, s.context) for u in units for s in u.segments] == whole
    assert whole[-1] == ("More of 49.", "The guide\nSection 49")


@pytest.mark.parametrize(
    "definition",
    ["[foo]: /url 'Title'", "> [Foo]: /url 'title'", "[multi\nline]: /u", "[foo]:\n  /u\n  'Two lines'"],
)
def test_a_definition_at_the_end_reaches_every_part(definition: str) -> None:
    src = "".join(f"Paragraph {i} with [foo] and [multi line].\n\n" for i in range(200)) + definition + "\n"
    assert assert_parts_read_as_the_whole(src, 64) > 20
    links = [s for s in MD.parse(src).segments if "<s1>" in s.text]
    assert len(links) >= 200  # the links are links, in every part


def test_footnote_definitions_reach_every_part_and_each_is_translated_where_it_is() -> None:
    src = (
        "".join(f"Paragraph {i} with a note[^1] and[^two].\n\n" for i in range(200))
        + "[^1]: The note.\n\n[^two]: Another *note*.\n\n    Its second paragraph.\n\n"
        + "[^unused]: Named by no reference.\n\n[^1]: A second definition.\n"
    )
    assert assert_parts_read_as_the_whole(src, 64) > 20
    segments = MD.parse(src).segments
    assert all(s.text == f"Paragraph {i} with a note<s1/> and<s2/>." for i, s in enumerate(segments[:200]))
    notes = [(s.text, s.role) for s in segments[200:]]
    assert notes == [
        ("The note.", "footnote"),
        ("Another <s1>note</s1>.", "footnote"),
        ("Its second paragraph.", "footnote"),
        ("Named by no reference.", "footnote"),
        ("A second definition.", "footnote"),
    ]


def test_a_table_cell_parsed_again_keeps_its_links_and_footnotes() -> None:
    src = "| a \\| b[^1] see [x] |\n|---|\n| c |\n\n[^1]: Note.\n\n[x]: /u\n"
    assert [s.text for s in MD.parse(src).segments] == ["a | b<s1/> see <s2>x</s2>", "c", "Note."]


@pytest.mark.parametrize("block_bytes", [1, 2, 3, 4096, 1 << 20])
def test_the_survey_finds_marks_across_reads_and_rewinds(
    monkeypatch: pytest.MonkeyPatch, block_bytes: int
) -> None:
    from hymt_cli.formats.markdown import cuts

    monkeypatch.setattr(cuts, "_SCAN_BYTES", block_bytes)
    for data, links, footnotes in (
        (b"a\n\n[^x]: note", 0, 1),
        (b"x\n\n[^" + b"y" * 70_000 + b"]: long", 0, 1),
        (b"ab\n\n[ab]: /c", 1, 0),
        (b"a]b:c] [^ x]:", 0, 0),
        (b"]", 0, 0),
        (b"", 0, 0),
    ):
        binary = io.BytesIO(data)
        found = survey(binary, 8)
        assert binary.tell() == 0
        part = found.in_part(1, data.count(b"\n") + 1)
        assert (len(part.own), len(part.footnote_labels)) == (links, footnotes)
        assert (found is NO_DEFINITIONS) == (b"]:" not in data)


@pytest.mark.parametrize(
    ("src", "cut_before"),
    [
        ("Para one.\n\nPara two.\n\nPara three.\n", "Para three."),  # the last whole line
        ("Para one.\n\nPara two.\n\nPartial", "Para two."),
        ("- item\n\nlazy?\n\nText\n", "Text"),
        ("```\n\nInside\n\nfence\n", ""),  # an unclosed fence runs to the end
        ("<!--\n\nInside\n\n-->\n\nAfter\n\nEnd\n", "End"),
        ("Text\n\n  Indented start\n\n-dash\n\n+plus\n\n\ufeffbom\n\nx\n", "x"),
        # indented, `-`, `+`, U+FEFF: no place to cut
        ("Text\n\n  Indented start\n\n-dash\n\n+plus\n\n\ufeffbom\n", ""),
        ("\ufeff+++\ntitle = 'x'\n\nInside\n+++\n\nAfter\n\nEnd\n", "End"),
        ("Text\n\nMore\n\n1", "More"),  # a partial `1` may be the start of `1. item`
        ("- a\n- b\n  - nested\n  more\n- c\n", "- c"),  # a top-level list's items
        ("- a\n- b\n  - nested\n  - nested two\n", "- b"),  # not a nested list's
        ("> - a\n> - b\n> - c\n", ""),  # nor a quoted list's
        ("1. a\n2. b\n3. c", "2. b"),
    ],
)
def test_where_a_cut_falls(src: str, cut_before: str) -> None:
    cut = last_cut(src, first=True)
    assert (src[cut:].startswith(cut_before) and cut > 0) if cut_before else cut == 0
