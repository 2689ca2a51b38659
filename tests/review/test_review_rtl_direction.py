"""A right-to-left text that starts with a Latin word or a number (`iPhone 15 متوفر الآن.`,
product text's usual start) is laid out right to left, as its document shows it. The page gave
texts `unicode-bidi: plaintext`, which takes each paragraph's direction from its first strong
letter and ignores `dir`: such an Arabic answer was laid out left to right, its full stop at
the wrong end. Measured in the browser: where the first and the last character are drawn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from review_runs import STARTED, open_page

from hymt_cli.reporting.report import FileReport, RunReport
from hymt_cli.review import Flag, RecordSpool, SegmentRecord, write_page
from hymt_cli.review.records import Status

pytestmark = pytest.mark.browser

ARABIC = "iPhone 15 متوفر الآن."
HEBREW = "15 דגמים זמינים עכשיו."
ENGLISH = "iPhone 15 available now."
# The first character's and the last one's left edges in a text cell: right to left, the full
# stop (last in memory) is drawn left of the first letter.
EDGES = """e => {
  const node = e.firstChild, r = document.createRange();
  r.setStart(node, 0); r.setEnd(node, 1); const first = r.getBoundingClientRect().left;
  r.setStart(node, node.length - 1); r.setEnd(node, node.length); const last = r.getBoundingClientRect().left;
  return [first, last];
}"""


def _page(path: Path, source_lang: str, rows: list[tuple[str, str, str, Status]]) -> None:
    """One output per (source, translation, target, status)."""
    report = RunReport(engine="vllm", model="tencent/HY-MT1.5-1.8B")
    with RecordSpool() as spool:
        for i, (source, translation, lang, status) in enumerate(rows):
            output = FileReport(f"in/{i}.txt", f"out/{lang}/{i}.txt", lang, format="txt")
            report.files.append(output)
            flags = (Flag("empty", "error", "empty output"),) if status == "untranslated" else ()
            spool.add(output, 0, [SegmentRecord(0, 0, source, translation, status, flags=flags)])
            output.segments = 1
        write_page(path, report, spool, started=STARTED, source=source_lang)


def _drawn_right_to_left(cell: Any) -> bool:
    first, last = cell.evaluate(EDGES)
    return bool(last < first)


def test_right_to_left_answers_and_sources_that_start_with_latin_letters(browser, tmp_path: Path) -> None:
    page_file = tmp_path / "review.html"
    _page(
        page_file,
        "en",
        [
            (ENGLISH, ARABIC, "ar", "translated"),
            (ENGLISH, HEBREW, "he", "translated"),
            (ENGLISH, ENGLISH, "ar", "untranslated"),  # the English source kept: left to right
        ],
    )
    opened = open_page(browser, page_file)
    rows = opened.page.locator("#list .seg")
    assert _drawn_right_to_left(rows.nth(0).locator(".tgt"))
    assert _drawn_right_to_left(rows.nth(1).locator(".tgt"))
    assert not _drawn_right_to_left(rows.nth(2).locator(".tgt"))
    assert not _drawn_right_to_left(rows.nth(0).locator(".src"))
    assert opened.console == []

    from_arabic = tmp_path / "from-arabic.html"
    _page(from_arabic, "ar", [(ARABIC, ENGLISH, "en", "translated"), (ARABIC, ARABIC, "en", "untranslated")])
    opened = open_page(browser, from_arabic)
    rows = opened.page.locator("#list .seg")
    assert _drawn_right_to_left(rows.nth(0).locator(".src"))
    assert not _drawn_right_to_left(rows.nth(0).locator(".tgt"))
    assert _drawn_right_to_left(rows.nth(1).locator(".tgt"))  # the Arabic source kept
    assert opened.console == []
