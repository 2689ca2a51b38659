"""A number written out in words in a translation is that number: the number check (an error:
the answer is rejected, then the source kept) must not throw away `Nur noch drei übrig` for
`Only 3 left`, and must still catch a wrong number, written either way."""

from __future__ import annotations

import pytest

from hymt_cli.qa import check_answer

# (source, good answer, wrong answer, target, source language)
CASES = [
    ("Only 3 left", "Nur noch drei übrig", "Nur noch vier übrig", "de", "en"),
    ("Pack of 2", "Lot de deux", "Lot de trois", "fr", "en"),
    ("1 million users", "un million d'utilisateurs", "deux millions d'utilisateurs", "fr", "en"),
    ("24 months warranty", "Garantie de vingt-quatre mois", "Garantie de vingt-cinq mois", "fr", "en"),
    ("24 months warranty", "Garantía de veinticuatro meses", "Garantía de doce meses", "es", "en"),
    ("24 months warranty", "Гарантия двадцать четыре месяца", "Гарантия двенадцать месяцев", "ru", "en"),
    ("Set of 3", "Conjunto de tres", "Conjunto de 4", "es", "en"),
    ("Only 1 left", "Solo queda uno", "Solo quedan dos", "es", "en"),
    ("Drei Artikel", "3 items", "4 items", "en", "de"),
    ("three items", "3 Artikel", "4 Artikel", "de", "en"),
]


@pytest.mark.parametrize(("source", "good", "wrong", "target", "source_lang"), CASES)
def test_a_number_in_words_is_that_number(
    source: str, good: str, wrong: str, target: str, source_lang: str
) -> None:
    assert [f.check for f in check_answer(source, good, target, source_lang)] == []
    assert "number" in [f.check for f in check_answer(source, wrong, target, source_lang)]


@pytest.mark.parametrize(
    ("source", "answer", "target"),
    [
        ("Pack of 2", "이 제품은 팩입니다", "ko"),  # 이 is "two" and a particle: no evidence of 2
        ("Pack of 3", "ชุดนี้สามารถใช้ได้", "th"),  # สามารถ "can" begins with สาม "three"
        ("Pack of 3", "Packung", "de"),  # dropped, no word for it either
    ],
)
def test_a_word_that_only_looks_like_a_number_accounts_for_nothing(
    source: str, answer: str, target: str
) -> None:
    assert "number" in [f.check for f in check_answer(source, answer, target, "en")]
