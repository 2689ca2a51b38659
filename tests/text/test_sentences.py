from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hymt_cli.text.sentences import split_long


def words(text: str) -> int:
    return max(1, len(text.split()))


def test_short_text_is_one_piece() -> None:
    assert split_long("One. Two.", 100, words) == ["One. Two."]


def test_splits_at_sentence_ends_and_rejoins_exactly() -> None:
    text = "First sentence here. Second one follows! Third? Fourth and last."
    pieces = split_long(text, 4, words)
    assert "".join(pieces) == text
    assert pieces[0] == "First sentence here. "
    assert all(words(p) <= 4 for p in pieces)


def test_cjk_sentences_split_after_full_width_punctuation() -> None:
    text = "第一句话很长。第二句话也很长！第三句？"
    pieces = split_long(text, 7, len)
    assert "".join(pieces) == text
    assert pieces[0] == "第一句话很长。"


def test_no_punctuation_falls_back_to_spaces_then_characters() -> None:
    text = "word " * 30
    assert all(words(p) <= 5 for p in split_long(text, 5, words))
    blob = "x" * 100
    pieces = split_long(blob, 10, len)
    assert "".join(pieces) == blob and all(len(p) <= 10 for p in pieces)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab .!?。\n ")), max_size=300), st.integers(1, 20))
def test_pieces_always_rejoin_to_the_text(text: str, limit: int) -> None:
    pieces = split_long(text, limit, len)
    assert "".join(pieces) == text
    assert all(len(p) <= limit for p in pieces) or len(text) <= limit
