"""The review page's search, in a real browser: it finds and highlights by one rule, whatever the
case mapping of the script (Turkish İ/ı, German ß, Greek final sigma, a zero-width space)."""

from __future__ import annotations

from pathlib import Path

import pytest
from review_runs import lines_page, open_page

pytestmark = pytest.mark.browser

ZWSP = "\u200b"


CASES = [
    "İstanbul is a big city",
    "ISTANBUL IN CAPITALS",
    "Die Straße ist lang",
    "DIE STRASSE IST LANG",
    "Das ist das ΤΕΛΟΣ",
    "και το τέλος",
    f"Your invo{ZWSP}ice is due",
    "Nothing to see here",
]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("istanbul", [0, 1]),
        ("ıstanbul", [0, 1]),  # typed on a Turkish keyboard
        ("İSTANBUL", [0, 1]),
        ("strasse", [2, 3]),
        ("straße", [2, 3]),
        ("λοσ", [4, 5]),  # a sigma typed mid-word matches a final one
        ("τέλος", [5]),
        ("invoice", [6]),  # a zero-width space does not hide a word
    ],
)
def test_every_segment_shown_by_the_search_is_highlighted_and_the_reverse(
    browser, tmp_path: Path, query: str, expected: list[int]
) -> None:
    opened = open_page(browser, lines_page(tmp_path, "cases.txt", CASES))
    page = opened.page
    page.fill("#search", query)
    page.wait_for_timeout(400)
    sources = page.locator("#list .seg .src").all_inner_texts()
    assert sources == [CASES[i] for i in expected], query
    for i in range(len(expected)):
        row = page.locator("#list .seg").nth(i)
        assert row.locator(".src mark.hit").count() >= 1 and row.locator(".tgt mark.hit").count() >= 1, query
    # What is highlighted is the match: the whole word, and no more.
    marks = page.locator("#list .src mark.hit").all_inner_texts()
    assert all(len(mark) <= len(query) + 1 for mark in marks) and len(marks) == len(expected), marks
    assert opened.console == []
