"""The doubled-word check when the run knows its source language (`--source-lang`): a source's
own doubled words are never the answer's fault. A source language's grammatical doubles (`that
that`, `die die`, `nous nous`) used to be left out of the source's count but not of the answer's,
so the identity answer, and any answer keeping such a double, was flagged."""

from __future__ import annotations

import pytest

from hymt_cli.qa import check_answer

GRAMMAR = [
    ("I know that that is true.", "en", "de"),
    ("Die Frau, die die Katze sah.", "de", "en"),
    ("Nous nous sommes lavés.", "fr", "ja"),
    ("Lo que que dices.", "es", "fr"),
]


@pytest.mark.parametrize(("source", "source_lang", "target"), GRAMMAR)
def test_the_identity_answer_is_never_flagged(source: str, source_lang: str, target: str) -> None:
    assert check_answer(source, source, target, source_lang, translating=False) == ()


def test_a_double_the_source_does_not_account_for_is_flagged() -> None:
    # a grammatical double of the source language rendered as a stutter in the target
    flags = check_answer("Die Frau, die die Katze sah.", "The woman who the the cat saw.", "en", "de")
    assert [(f.check, f.message) for f in flags] == [("doubled-word", "doubled word: 'the'")]
    # an emphatic double may be rendered by another one; a new one on top of it is flagged
    assert check_answer("It is very very good.", "Es ist sehr sehr gut.", "de", "en") == ()
    flags = check_answer("It is very very good.", "Es ist sehr sehr gut gut.", "de", "en")
    assert [f.check for f in flags] == ["doubled-word"] and "'gut'" in flags[0].message
