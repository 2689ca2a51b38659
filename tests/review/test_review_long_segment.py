"""A huge segment (a 1 MB line, a table cell holding a whole document): the page shows its
start and a button for the rest. Laid out whole, as bidirectional text, a 1 MB segment kept the
page blank for half a minute (its source and its translation, relaid out while the browser
read the data). The whole text is still searched, and shown on demand."""

from __future__ import annotations

from pathlib import Path

import pytest
from review_runs import STARTED, open_page, wait_until

from hymt_cli.reporting.report import FileReport, RunReport
from hymt_cli.review import RecordSpool, SegmentRecord, write_page

pytestmark = pytest.mark.browser

LONG = 20000  # assets/segment.js
HUGE = "word " * 200_000 + "needle"  # 1 MB
# a surrogate pair (in JavaScript's UTF-16) right across the cut: never split
ACROSS = "x" * (LONG - 1) + "😀" + "y" * 50


def test_a_huge_segment_shows_its_start_and_the_rest_on_demand(browser, tmp_path: Path) -> None:
    page_file = tmp_path / "review.html"
    report = RunReport(engine="pseudo", model=None)
    output = FileReport("big.txt", "out/fr/big.txt", "fr", format="txt")
    report.files.append(output)
    records = [
        SegmentRecord(0, 1, "Short one.", "Court.", "translated"),
        SegmentRecord(0, 2, HUGE, HUGE.upper(), "translated"),
        SegmentRecord(0, 3, ACROSS, ACROSS, "as-is"),
    ]
    output.segments = len(records)
    with RecordSpool() as spool:
        spool.add(output, 0, records)
        write_page(page_file, report, spool, started=STARTED)
    opened = open_page(browser, page_file)
    page = opened.page
    lengths = page.evaluate(
        "Array.from(document.querySelectorAll('#list .seg .text'), c => c.firstChild ? "
        "Array.from(c.childNodes).filter(n => n.nodeType === 3).map(n => n.data).join('').length : 0)"
    )
    assert lengths[:2] == [len("Short one."), len("Court.")]
    assert lengths[2] == lengths[3] == LONG + 2  # the start, then "… " before the button
    assert lengths[4] == LONG - 1 + 2  # cut before the pair
    assert page.locator("#list .seg .text button.cut").count() == 4
    assert page.locator("#list .seg >> nth=1").locator(".src button").inner_text() == (
        f"show all {len(HUGE):,} characters"
    )
    # the whole text is searched
    page.fill("#search", "needle")
    wait_until(page, "document.getElementById('summary').textContent == '1–1 of 1 segment'")
    page.click("#list .seg .src button.cut")
    assert len(page.inner_text("#list .seg .src")) == len(HUGE)
    assert page.locator("#list .seg .src mark.hit").all_inner_texts() == ["needle"]
    assert page.locator("#list .seg .tgt button.cut").count() == 1  # the other side stays cut
    assert opened.console == []
