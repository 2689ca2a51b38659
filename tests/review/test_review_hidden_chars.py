"""Invisible characters that can mislead a reviewer, in a real browser: a file name with a bidi
override or another invisible character shows it as an escape (never spoofing another name), and
a segment that holds such characters says so (its text stays as it renders, in its own box)."""

from __future__ import annotations

from pathlib import Path

import pytest
from review_runs import lines_page, open_page

pytestmark = pytest.mark.browser

RLO, ZWSP, ZWNJ = "\u202e", "\u200b", "\u200c"
SPOOF = f"invoice{RLO}fdp.txt"  # shows as "invoicetxt.pdf" where the override works


def test_a_file_name_cannot_spoof_another_and_segments_say_what_hides_in_them(
    browser, tmp_path: Path, artifacts: Path
) -> None:
    lines = [
        f"Pay the amount to account {RLO}1234{chr(0x202C)} today",
        f"A zero{ZWSP}width space sits in here",
        f"Persian needs its joiner: می{ZWNJ}خواهم",
        "Nothing hidden in this one",
    ]
    opened = open_page(browser, lines_page(tmp_path, SPOOF, lines))
    page = opened.page
    shown = SPOOF.replace(RLO, "\\u202E")
    # The side bar, the file's header, the tooltip and the filter chip: the escape, marked.
    assert shown in page.inner_text("#files") and RLO not in page.inner_text("#files")
    assert page.inner_text(".file-head .path").endswith(shown)
    assert RLO not in page.inner_text(".file-head")
    assert page.locator("#files .hidden-char").all_inner_texts() == ["\\u202E"]
    assert page.locator(".file-head .hidden-char").all_inner_texts() == ["\\u202E", "\\u202E"]  # in and out
    button = page.locator("#files button[data-file='0']")
    assert RLO not in (button.get_attribute("title") or "") and shown in (button.get_attribute("title") or "")
    button.click()
    assert page.inner_text("#filters").startswith("file: ") and RLO not in page.inner_text("#filters")
    # Segments keep their text as it renders, and say what hides in it.
    rows = page.locator("#list .seg")
    assert rows.nth(0).locator(".src").inner_text() == lines[0]
    notes = [rows.nth(i).locator(".note.invisible").all_inner_texts() for i in range(4)]
    assert [len(n) for n in notes] == [1, 1, 0, 0]
    assert (
        "U+202E right-to-left override" in notes[0][0] and "U+202C pop directional formatting" in notes[0][0]
    )
    assert "the source:" in notes[0][0] and "the translation:" in notes[0][0]
    assert "U+200B zero width space" in notes[1][0]
    page.screenshot(path=str(artifacts / "unicode-names.png"))
    assert opened.console == []
