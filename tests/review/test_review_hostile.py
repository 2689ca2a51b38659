"""Hostile text in inputs, file names, answers, check messages and contexts: the page shows it
literally, and nothing in it runs (proved in the browser: the handlers would set a global and the
title)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from pipelines import run_pipeline
from review_runs import STARTED, open_page

from hymt_cli.engine.base import BatchEngine, Generation, GenerationRequest
from hymt_cli.formats import TextOptions
from hymt_cli.options import OptionSet
from hymt_cli.review import RecordSpool, write_page

pytestmark = pytest.mark.browser

PWN = "window.__pwned=(window.__pwned||0)+1;document.title='pwned'"
LINES = [
    f'<img src=x onerror="{PWN}"> look at this picture',
    f"</script><script>{PWN}</script> closes the data block",
    f"<!-- <script>{PWN}</script> opens a comment",
    f'[click me](javascript:{PWN}) and <a href="javascript:{PWN}">this link</a>',
    f'<svg onload="{PWN}"></svg> an svg and <iframe srcdoc="<script>{PWN}</script>"></iframe>',
    f"<style>body{{display:none}}</style> a style, and {{{{constructor.constructor('{PWN}')()}}}}",
    '<b onmouseover="' + PWN + '">hover me</b> says the loop',
]
NAME = f'<img src=x onerror="{PWN}">.txt'


class Hostile(BatchEngine):
    """Answers with markup of its own, and loops on one line (the loop check's message then quotes
    the answer)."""

    name = "hostile"

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        out = []
        for r in requests:
            if "says the loop" in r.source_text:
                text = "<b onmouseover=x>" * 20
            else:
                text = f'<img src=y onerror="{PWN}"></script><!-- ' + r.source_text
            out.append(Generation(text, "stop", 5))
        return out


def test_hostile_text_is_shown_as_text_and_never_runs(browser, tmp_path: Path, artifacts: Path) -> None:
    source = tmp_path / NAME
    source.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    page_file = tmp_path / "review.html"
    with RecordSpool() as spool:
        report = run_pipeline(
            [source],
            Hostile(),
            options=OptionSet([TextOptions(segment_by="line")]),
            out_dir=tmp_path / "out",
            engine_name="hostile",
            review=spool,
        )
        write_page(page_file, report, spool, started=STARTED)
    assert report.files[0].untranslated == 1
    opened = open_page(browser, page_file)
    page = opened.page
    page.click("#files button[data-file='0']")
    page.click("#stats button[data-status=attention]")  # the loop's message
    page.click("#stats button[data-status=attention]")
    page.hover("#list .seg >> nth=6")
    # Nothing ran: no handler, no script, no link; the title is the page's own.
    assert page.evaluate("window.__pwned") is None
    assert page.title() == "hymt review: 7 segments"
    assert (
        page.evaluate("document.querySelectorAll('img, svg, iframe, a, style:not(head style)').length") == 0
    )
    assert page.evaluate("document.scripts.length") == 4  # the page's own: its script and three data blocks
    # Every line is shown literally, on both sides.
    assert page.locator("#list .seg .src").all_inner_texts() == LINES
    targets = page.locator("#list .seg .tgt").all_inner_texts()
    assert targets[:6] == [f'<img src=y onerror="{PWN}"></script><!-- ' + line for line in LINES[:6]]
    assert targets[6] == LINES[6]  # the loop was not accepted: the source is kept
    assert page.locator("#list .note.error .msg").inner_text() == "repetition loop ('<b onmouseov' repeated)"
    assert page.inner_text(".file-head .path") == str(source)
    assert NAME in page.inner_text("#files")
    page.fill("#search", "</script><script>")
    page.wait_for_timeout(400)
    assert page.locator("#list .seg .src").all_inner_texts() == [LINES[1]]
    assert page.locator("#list mark.hit").all_inner_texts() == ["</script><script>"] * 2
    page.fill("#search", "</SCRIPT>")
    page.wait_for_timeout(400)
    assert page.inner_text("#summary") == "1–6 of 6 segments"  # every answer, and the sources that have it
    assert page.evaluate("window.__pwned") is None
    page.screenshot(path=str(artifacts / "hostile.png"))
    assert opened.console == []
    assert len(opened.requests) == 1  # the page itself: no image, no frame, nothing


def test_hostile_contexts_are_shown_as_text_and_never_run(browser, tmp_path: Path) -> None:
    """A UI string's key and its description are told to the model and shown under the source:
    from the input, so untrusted."""
    strings = {
        "greeting": "Hello there",
        "@greeting": {"description": LINES[0]},
        f'<svg onload="{PWN}">': "Save the note",
        f'@<svg onload="{PWN}">': {"description": LINES[1] + "\n" + LINES[3]},
    }
    source = tmp_path / "app_en.arb"
    source.write_text(json.dumps(strings, indent=2), encoding="utf-8")
    page_file = tmp_path / "review.html"
    with RecordSpool() as spool:
        report = run_pipeline([source], Hostile(), out_dir=tmp_path / "out", review=spool)
        write_page(page_file, report, spool, started=STARTED)
    opened = open_page(browser, page_file)
    page = opened.page
    assert page.locator("#list .seg .ctx .said").all_inner_texts() == [
        f"Key: greeting\n{LINES[0]}",
        f'Key: <svg onload="{PWN}">\n{LINES[1]}\n{LINES[3]}',
    ]
    page.hover("#list .seg .ctx >> nth=0")
    page.hover("#list .seg .ctx >> nth=1")
    assert page.evaluate("window.__pwned") is None and page.title() == "hymt review: 2 segments"
    assert (
        page.evaluate("document.querySelectorAll('img, svg, iframe, a, style:not(head style)').length") == 0
    )
    assert page.evaluate("document.scripts.length") == 4
    assert opened.console == [] and len(opened.requests) == 1
