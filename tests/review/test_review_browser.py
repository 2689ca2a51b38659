"""The review page in a real browser (Debian's Chromium through Playwright): content, filters,
search, keyboard, right-to-left text, no console errors, no requests; screenshots in out/review/."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from review_runs import ROOT, Opened, open_page, sample_run, wait_until

from hymt_cli.engine.base import BatchEngine, Generation, GenerationRequest

pytestmark = pytest.mark.browser

ARABIC = "مرحبا بالعالم، هذه ترجمة تجريبية."


def rows(opened: Opened) -> list[str]:
    return opened.page.locator("#list .seg").all_inner_texts()


def summary(opened: Opened) -> str:
    return opened.page.inner_text("#summary")


def page_data(path: Path) -> list[list[dict[str, object]]]:
    """The page's segment records, read from the file (what the page's filters work on)."""
    html = path.read_text(encoding="utf-8")
    blocks = re.findall(
        r'<script type="application/json" class="hymt-segments">(.*?)</script>', html, re.DOTALL
    )
    return [output for block in blocks for output in json.loads(block)]


def clean(opened: Opened) -> None:
    assert opened.console == []
    assert opened.requests == [opened.requests[0]] and opened.requests[0].startswith("file://")


@pytest.fixture(scope="module")
def samples_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("samples")
    sample_run(tmp, tmp / "review.html")
    return tmp / "review.html"


def test_the_page_shows_the_run_side_by_side(browser, samples_page: Path, artifacts: Path) -> None:
    opened = open_page(browser, samples_page)
    page = opened.page
    assert page.title() == "hymt review: 775 segments"
    stats = list(
        zip(
            page.locator("#stats .stat .k").all_inner_texts(),
            page.locator("#stats .stat .n").all_inner_texts(),
        )
    )
    assert stats == [
        ("All segments", "775"),
        ("Needs a look", "10"),
        ("Untranslated", "3"),
        ("Retried", "4"),
        ("Repaired", "1"),
        ("From memory", "1"),
        ("Translated", "764"),
        ("As is", "2"),
    ]
    assert len(rows(opened)) == 100 and summary(opened) == "1–100 of 775 segments"
    assert page.inner_text(".file-head .path") == "samples/docs/guide.md"
    first = page.locator("#list .seg").first
    assert first.locator(".src").inner_text() == "Getting started with hymt"
    assert first.locator(".role").inner_text() == "key title"
    # The structure is recognisable: heading levels, table cells, list items.
    heading = page.locator("#list .seg.k-heading.l1").first
    assert heading.locator(".role").inner_text() == "H1"
    assert heading.locator(".src").inner_text() == "Getting started with <s1>hymt</s1> <s2/>"
    assert heading.locator(".src .tag").all_inner_texts() == ["<s1>", "</s1>", "<s2/>"]
    assert page.locator("#list .seg.k-cell").count() >= 4 and page.locator("#list .seg.k-list").count() >= 5
    # Glossary terms are marked on both sides (a do-not-translate term is the same on both).
    assert "GPU memory" in page.locator("#list .src mark.term").all_inner_texts()
    assert "vLLM" in page.locator("#list .tgt mark.term").all_inner_texts()
    page.screenshot(path=str(artifacts / "samples-all.png"))
    clean(opened)


def test_filters_by_status_check_file_and_text(browser, samples_page: Path, artifacts: Path) -> None:
    opened = open_page(browser, samples_page)
    page = opened.page
    page.click("#stats button[data-status=attention]")
    assert summary(opened) == "1–10 of 10 segments"
    # each one retried, repaired or untranslated, or flagged (a QA warning on a kept translation)
    for row in page.locator("#list .seg").all():
        assert row.locator(".badge").count() or row.locator(".note.warning").count()
    assert page.locator(".file-head .path").all_inner_texts() == [
        "samples/docs/guide.md",
        "samples/site/index.html",
        "samples/txt/release-notes.txt",
        "samples/catalog/products.parquet",
    ]
    checks = ["brackets", "echo", "empty", "glossary", "inconsistent", "loop", "number", "sku", "tags"]
    assert page.locator("#checks .check").all_inner_texts() == checks
    severities = ["warning", "info", "error", "warning", "warning", "error", "error", "warning", "info"]
    assert page.locator("#checks .dot").evaluate_all("dots => dots.map(d => d.className)") == [
        "dot " + severity for severity in severities
    ]
    page.click("#checks button[data-check=empty]")
    assert summary(opened) == "1–1 of 1 segment"
    (row,) = page.locator("#list .seg").all()
    assert row.locator(".badge").inner_text() == "Untranslated"
    assert row.locator(".tgt").get_attribute("data-note") == "source kept"
    assert (
        row.locator(".tgt").inner_text()
        == "Line one with a hard break\nline two after it.\nLine three after a backslash break."
    )
    assert row.locator(".note.error").inner_text().split() == ["ERROR", "empty", "empty", "output"]
    page.screenshot(path=str(artifacts / "samples-untranslated.png"))
    assert page.inner_text("#filters") == "Needs a look\ncheck: empty"
    page.click("#filters .chip >> nth=1")  # remove the check filter
    page.click("#filters .chip")  # and the status
    assert summary(opened) == "1–100 of 775 segments"
    page.click("#checks button[data-check=tags]")  # retried or repaired for their tags
    texts = rows(opened)
    assert len(texts) == 2 and all("tags" in text for text in texts)
    page.click("#checks button[data-check=tags]")
    page.click("#files button[data-file='4']")
    assert summary(opened) == "1–100 of 695 segments"
    assert set(page.locator(".file-head .path").all_inner_texts()) == {"samples/catalog/products.parquet"}
    assert page.locator("#list .seg .role").first.inner_text().startswith("column ")
    segments = page_data(samples_page)
    in_catalog = sum("merino" in (r["source"] + r["translation"]).lower() for r in segments[4])
    everywhere = sum(
        "merino" in (r["source"] + r["translation"]).lower() for output in segments for r in output
    )
    assert 1 < in_catalog <= everywhere < 100
    page.fill("#search", "MERINO")
    wait_until(
        page, f"document.getElementById('summary').textContent == '1–{in_catalog} of {in_catalog} segments'"
    )
    hits = page.locator("#list mark.hit").all_inner_texts()
    assert hits and all(hit.lower() == "merino" for hit in hits)
    assert all("merino" in text.lower() for text in rows(opened))
    page.click("#files button[data-file='-1']")
    assert summary(opened) == f"1–{everywhere} of {everywhere} segments"
    assert all("merino" in text.lower() for text in rows(opened))
    clean(opened)


def test_the_keyboard_does_what_the_page_says(browser, samples_page: Path) -> None:
    opened = open_page(browser, samples_page)
    page = opened.page
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "search"
    page.keyboard.type("progress bar")
    wait_until(
        page,
        "document.getElementById('summary').textContent.startsWith('1–')"
        " && !document.getElementById('summary').textContent.endsWith('775 segments')",
    )
    assert all("progress bar" in text.lower() for text in rows(opened))
    page.keyboard.press("Escape")
    assert summary(opened) == "1–100 of 775 segments"
    page.keyboard.press("Escape")  # a second Escape leaves the field
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.dataset.position") == "0"
    page.keyboard.press("j")
    assert page.evaluate("document.activeElement.dataset.position") == "1"
    page.keyboard.press("]")
    assert summary(opened) == "101–200 of 775 segments"
    assert page.evaluate("document.activeElement.dataset.position") == "100"
    page.keyboard.press("k")  # before the first segment of a page: the page before, its last segment
    assert page.evaluate("document.activeElement.dataset.position") == "99"
    page.keyboard.press("[")
    assert summary(opened) == "1–100 of 775 segments"
    clean(opened)


class Arabic(BatchEngine):
    """Answers in Arabic whatever it is asked (the tags kept)."""

    name = "arabic"

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        return [
            Generation(
                ARABIC
                + "".join(re.findall(r"<s\d+/>", r.source_text))
                + " "
                + "".join(re.findall(r"<s\d+>", r.source_text))
                + "ترجمة"
                + "".join(re.findall(r"</s\d+>", r.source_text)),
                "stop",
                8,
            )
            for r in requests
        ]


def test_right_to_left_and_chinese_text(browser, tmp_path: Path, artifacts: Path) -> None:
    page_file = tmp_path / "review.html"
    sample_run(
        tmp_path,
        page_file,
        targets=("ar", "fr"),
        engine=Arabic(),
        inputs=["samples/docs/zh-intro.md", "samples/txt/faq-ja.txt"],
    )
    opened = open_page(browser, page_file)
    page = opened.page
    page.click("#langs button[data-lang=ar]")
    target = page.locator("#list .seg .tgt").first
    assert target.get_attribute("lang") == "ar"
    assert target.evaluate("e => getComputedStyle(e).direction") == "rtl"
    assert target.inner_text().startswith(ARABIC)
    source = page.locator("#list .seg .src").first
    assert source.evaluate("e => getComputedStyle(e).direction") == "ltr"
    assert re.search(r"[\u4e00-\u9fff]", source.inner_text())
    assert set(page.locator(".file-head .lang").all_inner_texts()) == {"ar"}
    page.screenshot(path=str(artifacts / "rtl-cjk.png"))
    clean(opened)


def test_docs_screenshot(browser, tmp_path: Path, artifacts: Path) -> None:
    """The README's screenshot: the samples through the pseudo engine, a few segments flagged.
    Regenerate docs/review.png with HYMT_UPDATE_SCREENSHOT=1 pytest tests/review -k docs_screenshot."""
    import os
    import shutil

    page_file = tmp_path / "review.html"
    sample_run(tmp_path, page_file)
    opened = open_page(browser, page_file, width=1360, height=1500)
    page = opened.page
    page.click("#stats button[data-status=attention]")
    shot = artifacts / "docs-review.png"
    page.screenshot(path=str(shot))
    clean(opened)
    if os.environ.get("HYMT_UPDATE_SCREENSHOT"):
        shutil.copyfile(shot, ROOT / "docs" / "review.png")
    assert (ROOT / "docs" / "review.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_run_with_failed_and_skipped_files(browser, tmp_path: Path) -> None:
    from hymt_cli.reporting.report import FileReport, RunReport
    from hymt_cli.review import RecordSpool, SegmentRecord, write_page

    report = RunReport(engine="vllm", model="tencent/HY-MT1.5-1.8B", status="interrupted")
    report.files = [
        FileReport("docs/a.md", "out/fr/a.md", "fr", format="md"),
        FileReport("docs/broken.html", None, None, "failed", "docs/broken.html: not valid UTF-8 at byte 12"),
        FileReport("docs/b.md", "docs/b.fr.md", "fr", "skipped", warning="docs/b.fr.md: not written by hymt"),
    ]
    page_file = tmp_path / "review.html"
    with RecordSpool() as spool:
        spool.add(
            report.files[0], 0, [SegmentRecord(0, 0, "Hello", "Bonjour", "translated", role="heading 1")]
        )
        write_page(page_file, report, spool, started="2026-05-01 10:00 UTC")
    opened = open_page(browser, page_file)
    page = opened.page
    assert page.inner_text(".run-state") == "run interrupted"
    assert page.inner_text("#run-note") == "1 output failed: see the files marked in red."
    assert page.locator("#files .pick").all_inner_texts() == [
        "All files\n1",
        "a.md\nfr\n1",
        "broken.html\nfailed",
        "b.md\nfr\nskipped",
    ]
    assert page.locator("#files .pick.failed .name").inner_text() == "broken.html"
    page.click("#files button[data-file='1']")
    assert page.inner_text(".file-head .problem") == "docs/broken.html: not valid UTF-8 at byte 12"
    assert page.inner_text("#list .empty") == "No segment matches these filters."
    page.click("#files button[data-file='2']")
    assert page.inner_text(".file-head .problem.warn") == "docs/b.fr.md: not written by hymt"
    page.click("#files button[data-file='2']")  # again: every file
    assert rows(opened) and summary(opened) == "1–1 of 1 segment"
    clean(opened)
