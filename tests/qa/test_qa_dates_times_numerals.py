"""Correct translations that write a source's number another way, which the number check (an
error: retry, then the source is kept) threw away: a month name as a number (`March 5, 2024` ->
`2024年3月5日`, and back), a time's zero minutes left out (`3:00 PM` -> `15 Uhr`), Chinese and
Japanese numerals (`24 months` -> `二十四个月`), and full-width digits with full-width separators
(`１，２９９．００`). Each comes with a wrong answer the check must still catch."""

from __future__ import annotations

import pytest

from hymt_cli.qa import check_answer
from hymt_cli.qa.spelled import cjk_value, spelled_values

# (source, good answer, wrong answer, target, source language)
CASES = [
    ("Delivered on March 5, 2024", "2024年3月5日にお届け", "2024年4月5日にお届け", "ja", "en"),
    ("Available from March 5", "3月5日起发售", "3月6日起发售", "zh", "en"),
    ("Sale ends May 31", "세일은 5월 31일에 끝납니다", "세일은 6월 31일에 끝납니다", "ko", "en"),
    ("2024年3月5日発売", "Released on March 5, 2024", "Released on April 5, 2024", "en", "ja"),
    ("Delivered 2024-03-05", "Livré le 5 mars 2024", "Livré le 5 avril 2024", "fr", "en"),
    ("Lieferung am 05.03.2024", "Доставка 5 марта 2024", "Доставка 5 апреля 2024", "ru", "de"),
    ("Opens at 3:00 PM", "Öffnet um 15 Uhr", "Öffnet um 16 Uhr", "de", "en"),
    ("Open 9:00–17:30", "Geöffnet 9–17.30 Uhr", "Geöffnet 9–17.45 Uhr", "de", "en"),
    ("Ouvert de 9 h à 18 h", "Open from 9:00 to 18:00", "Open from 9:30 to 18:00", "en", "fr"),
    ("24 months warranty", "二十四个月保修", "十二个月保修", "zh", "en"),
    ("Pack of 3", "三件装", "两件装", "zh", "en"),
    ("Price: $1,299.00", "価格：＄１，２９９．００", "価格：＄１，２９８．００", "ja", "en"),
    (
        "売価：３，９８０円（税込）",
        "Price: ¥3,980 (tax included)",
        "Price: ¥3,890 (tax included)",
        "en",
        "ja",
    ),
]


@pytest.mark.parametrize(("source", "good", "wrong", "target", "source_lang"), CASES)
def test_another_way_to_write_the_number_passes_and_a_wrong_number_is_caught(
    source: str, good: str, wrong: str, target: str, source_lang: str
) -> None:
    assert [f.check for f in check_answer(source, good, target, source_lang)] == []
    assert "number" in {f.check for f in check_answer(source, wrong, target, source_lang)}


def test_the_run_need_not_know_the_source_language() -> None:
    """English month names are read whatever the run's source language (most sources)."""
    assert check_answer("Delivered on March 5, 2024", "2024年3月5日にお届け", "ja") == ()


def test_a_word_never_stands_for_a_number_the_other_side_must_have() -> None:
    """`May` and `一` are also ordinary words: they excuse digits, never demand them."""
    assert check_answer("May I help you?", "Kann ich Ihnen helfen?", "de", "en") == ()
    assert check_answer("一起购买", "Buy together", "en", "zh") == ()
    flags = check_answer("You may add 2 items", "Vous pouvez ajouter 3 articles", "fr", "en")
    assert [f.check for f in flags] == ["number"]


def test_digits_before_a_myriad_are_that_number_not_a_numeral() -> None:
    assert check_answer("Over 10,000 customers", "超过1万名客户", "zh", "en") == ()
    assert spelled_values("1万", ["zh"]) == {}


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("三", 3),
        ("十五", 15),
        ("二十四", 24),
        ("一百零五", 105),
        ("两千", 2000),
        ("三万五千", 35000),
        ("二〇二四", 2024),
    ],
)
def test_chinese_numerals(numeral: str, value: int) -> None:
    assert cjk_value(numeral) == value
