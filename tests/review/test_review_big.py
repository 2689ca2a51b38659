"""A run of 100,000 segments: the page opens, pages through them and filters them all. The time to
first paint and the times of the filters are measured and reported (out/review/big-run.json),
never asserted."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from review_runs import STARTED, open_page, wait_until

from hymt_cli.engine.pseudo import pseudo_localize
from hymt_cli.reporting.report import FileReport, RunReport
from hymt_cli.review import Flag, RecordSpool, Retry, SegmentRecord, write_page

pytestmark = pytest.mark.browser

SEGMENTS = 100_000
FILES = 50  # x 2 languages = 100 outputs of 1,000 segments
SENTENCE = (
    "the offline sync keeps notes boards and attachments available on the train while the search index "
    "updates results as you type dark mode follows your system setting exporting a board to PDF"
)
WORDS = SENTENCE.split(" ")
ROLES = ("", "", "", "heading 2", "list item", "table cell", "blockquote", "attribute alt")


def big_page(path: Path) -> tuple[RunReport, int, int]:
    """The page of a 100k-segment run; returns the report, the segments that need a look and those
    that hold the word `attachments`."""
    rng = random.Random(19)
    report = RunReport(engine="vllm", model="tencent/HY-MT1.5-1.8B")
    attention = attachments = 0
    with RecordSpool() as spool:
        for f in range(FILES):
            for lang in ("fr", "ja"):
                output = FileReport(
                    f"docs/section-{f // 10}/page-{f:03}.md", f"out/{lang}/page-{f:03}.md", lang, format="md"
                )
                report.files.append(output)
                records = []
                for s in range(SEGMENTS // FILES // 2):
                    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 40))).capitalize() + "."
                    status, flags, retry = "translated", (), ()
                    if s % 97 == 5:
                        status, flags = "untranslated", (Flag("empty", "error", "empty output"),)
                    elif s % 41 == 3:
                        status, retry = "retried", (Retry("tags", "inline tags broken: tag <s1> missing"),)
                    elif s % 53 == 7:
                        flags = (
                            Flag("glossary", "warning", "glossary: 1 term(s) missed: 'board' -> 'tableau'"),
                        )
                    translation = text if status == "untranslated" else pseudo_localize(text)
                    record = SegmentRecord(
                        0, s, text, translation, status, role=ROLES[s % len(ROLES)], flags=flags, retry=retry
                    )
                    attention += record.needs_a_look()
                    attachments += "attachments" in text.lower()
                    records.append(record)
                output.segments = len(records)
                spool.add(output, 0, records)
        write_page(path, report, spool, started=STARTED)
    return report, attention, attachments


def test_a_100k_segment_run_opens_and_stays_responsive(browser, tmp_path: Path, artifacts: Path) -> None:
    page_file = tmp_path / "review.html"
    started = time.monotonic()
    _, attention, attachments = big_page(page_file)
    write_seconds = time.monotonic() - started
    opened = open_page(browser, page_file)
    page = opened.page
    timings = page.evaluate("""() => Object.fromEntries(
        performance.getEntriesByType('paint').concat(performance.getEntriesByType('mark'))
            .map(e => [e.name, Math.round(e.startTime)]))""")
    assert page.evaluate("document.querySelectorAll('script.hymt-segments').length") > 40  # ~1 MiB each
    assert page.locator("#list .seg").count() == 100  # one page in the document, never the run
    assert page.inner_text("#summary") == "1–100 of 100,000 segments"
    assert page.inner_text("#page-of") == "page 1 of 1,000"

    def timed(action, expected: str) -> float:
        """Milliseconds from the action to the summary showing `expected`, measured in the page."""
        page.evaluate("window.__t0 = performance.now()")
        action()
        wait_until(page, f"document.getElementById('summary').textContent == {json.dumps(expected)}")
        return round(page.evaluate("performance.now() - window.__t0"))

    def attention_count(n: int) -> str:
        return f"1–100 of {n:,} segments"

    timings["filter needs a look (ms)"] = timed(
        lambda: page.click("#stats button[data-status=attention]"), attention_count(attention)
    )
    timings["next page (ms)"] = timed(lambda: page.keyboard.press("]"), f"101–200 of {attention:,} segments")
    timings["all again (ms)"] = timed(
        lambda: page.click("#stats button[data-status=all]"), "1–100 of 100,000 segments"
    )
    # The search waits 150 ms for the typing to stop: that is in the figure.
    timings["search, debounce included (ms)"] = timed(
        lambda: page.fill("#search", "attachments"), f"1–100 of {attachments:,} segments"
    )
    timings["search again, cached (ms)"] = timed(
        lambda: page.fill("#search", "attachment"), f"1–100 of {attachments:,} segments"
    )
    timings["page bytes"] = page_file.stat().st_size
    timings["page written (s)"] = round(write_seconds, 2)
    (artifacts / "big-run.json").write_text(json.dumps(timings, indent=2) + "\n")
    print("100k-segment review page:", json.dumps(timings))
    assert "first-contentful-paint" in timings
    page.screenshot(path=str(artifacts / "big-run.png"))
    assert opened.console == []
