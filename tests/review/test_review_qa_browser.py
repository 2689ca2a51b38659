"""The QA checks' findings on the review page, in a real browser: each on its segment with its
check, severity and message, counted per check and per file, a filter by check that shows exactly
those segments, the run's inconsistent translations; a segment's context as a quiet line."""

from __future__ import annotations

from pathlib import Path

import pytest
from engines import QA_EXPECTED, QA_PRODUCT, Drifting, QaFaultEngine
from pipelines import run_pipeline
from review_runs import STARTED, Opened, open_page

from hymt_cli.qa import BY_ID, QaSuite
from hymt_cli.reporting.report import RunReport
from hymt_cli.review import RecordSpool, write_page

pytestmark = pytest.mark.browser

REPEATED = "Add to cart.\n\nIn stock.\n"


@pytest.fixture(scope="module")
def qa_page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RunReport]:
    """The product text through every QA fault, and two documents whose texts come back another
    way the second time (a window per document): one page."""
    tmp = tmp_path_factory.mktemp("qa")
    (tmp / "product.txt").write_text(QA_PRODUCT, encoding="utf-8")
    (tmp / "a.txt").write_text(REPEATED, encoding="utf-8")
    (tmp / "b.txt").write_text(REPEATED, encoding="utf-8")
    page = tmp / "review.html"
    with RecordSpool() as spool:
        report = run_pipeline(
            [tmp / name for name in ("product.txt", "a.txt", "b.txt")],
            QaFaultEngine(Drifting()),
            to="de",
            out_dir=tmp / "out",
            window_segments=1,
            qa=QaSuite(),
            review=spool,
        )
        write_page(page, report, spool, started=STARTED)
    return page, report


def shown(opened: Opened) -> list[tuple[str, str]]:
    """The segments on the page now: (file name, segment id)."""
    found = opened.page.evaluate(
        """() => {
          const out = [];
          let file = "";
          for (const node of document.querySelectorAll("#list .file-head, #list .seg")) {
            if (node.classList.contains("file-head")) file = node.querySelector(".path").textContent;
            else out.push([file.split("/").pop(), node.querySelector(".sid").textContent]);
          }
          return out;
        }"""
    )
    return [(file, sid) for file, sid in found]


def notes(opened: Opened, index: int) -> list[tuple[str, str, str]]:
    """The notes of the index-th segment shown: (kind, check, message)."""
    row = opened.page.locator("#list .seg").nth(index)
    return [
        (
            note.get_attribute("class").split()[-1],
            note.locator(".check").inner_text(),
            note.locator(".msg").inner_text(),
        )
        for note in row.locator(".note").all()
    ]


def test_each_finding_is_on_its_segment_counted_and_filtered(browser, qa_page, artifacts: Path) -> None:
    page_file, report = qa_page
    product, a, b = report.files
    found = {("product.txt", f"#{f.segment}"): (f.check, f.severity, f.message) for f in product.flags}
    found |= {("b.txt", f"#{f.segment}"): (f.check, f.severity, f.message) for f in b.flags}
    assert {key[1]: value[:2] for key, value in found.items() if key[0] == "product.txt"} == {
        f"#{segment}": expected for segment, expected in QA_EXPECTED.items()
    }
    assert not a.flags and [f.check for f in b.flags] == ["inconsistent", "inconsistent"]
    opened = open_page(browser, page_file)
    page = opened.page
    # Per check: how many segments it fired on, and its worst severity.
    by_check: dict[str, list[tuple[str, str]]] = {}
    for key, (check, _, _) in found.items():
        by_check.setdefault(check, []).append(key)
    checks = page.locator("#checks .pick")
    assert checks.evaluate_all(
        "buttons => buttons.map(b => [b.dataset.check, b.querySelector('.dot').className,"
        " b.querySelector('.count').textContent])"
    ) == [
        ["brackets", "dot warning", "1"],
        ["email", "dot error", "1"],
        ["inconsistent", "dot warning", "2"],
        ["number", "dot error", "2"],
        ["sku", "dot warning", "1"],
        ["url", "dot error", "1"],
    ]
    assert page.get_attribute("#checks button[data-check=sku]", "title") == "sku: " + BY_ID["sku"].description
    assert page.inner_text("#stats button[data-status=attention] .n") == "8"  # every finding needs a look
    # A filter by check shows exactly the segments it fired on, each with its note.
    for check, keys in sorted(by_check.items()):
        page.click(f"#checks button[data-check={check}]")
        assert shown(opened) == sorted(keys, key=lambda k: (k[0] != "product.txt", k)), check
        for index, key in enumerate(shown(opened)):
            _, severity, message = found[key]
            assert (severity, check, message) in notes(opened, index)
            row = page.locator("#list .seg").nth(index)
            assert row.get_attribute("class").split().count("err" if severity == "error" else "warn") == 1
            if severity == "error":  # rejected: the source kept
                assert row.locator(".badge").inner_text() == "Untranslated"
                assert row.locator(".tgt").get_attribute("data-note") == "source kept"
        page.click(f"#checks button[data-check={check}]")
    # The inconsistent finding: on b.txt, quoting the first translation.
    page.click("#checks button[data-check=inconsistent]")
    assert notes(opened, 0) == [("warning", "inconsistent", found[("b.txt", "#0")][2])]
    assert "first as '⟦Áđđ ţó çáŕţ" in found[("b.txt", "#0")][2]
    page.screenshot(path=str(artifacts / "qa-inconsistent.png"))
    page.click("#checks button[data-check=inconsistent]")
    # Counts per file: the checks' counts follow the file chosen.
    page.click("#files button[data-file='0']")
    counts = dict(
        zip(
            checks.evaluate_all("bs => bs.map(b => b.dataset.check)"),
            page.locator("#checks .count").all_inner_texts(),
        )
    )
    assert counts == {
        "brackets": "1",
        "email": "1",
        "inconsistent": "0",
        "number": "2",
        "sku": "1",
        "url": "1",
    }
    page.click("#files button[data-file='2']")
    assert page.inner_text("#checks button[data-check=inconsistent] .count") == "2"
    assert page.inner_text("#checks button[data-check=number] .count") == "0"
    page.click("#files button[data-file='2']")
    page.click("#stats button[data-status=attention]")
    assert len(shown(opened)) == 8
    page.screenshot(path=str(artifacts / "qa-attention.png"), full_page=True)
    assert opened.console == []
    assert len(opened.requests) == 1  # the page itself


def test_a_segment_shows_its_context_under_the_source(browser, tmp_path: Path, artifacts: Path) -> None:
    from hymt_cli.engine.pseudo import PseudoEngine

    root = Path(__file__).resolve().parents[2]
    page_file = tmp_path / "review.html"
    with RecordSpool() as spool:
        report = run_pipeline(
            [root / "samples/app/lib/l10n/app_en.arb"], PseudoEngine(), out_dir=tmp_path / "out", review=spool
        )
        write_page(page_file, report, spool, started=STARTED)
    opened = open_page(browser, page_file)
    page = opened.page
    row = page.locator("#list .seg").first
    assert row.locator(".src").inner_text() == "Acme Notes"  # the context is not part of the source
    assert (
        row.locator(".ctx .said").inner_text() == "Key: appTitle\nThe application name shown in the title bar"
    )
    # A quiet line: under the source (same column, below it), smaller and fainter than the text.
    box = {
        name: row.locator(selector).bounding_box() for name, selector in (("src", ".src"), ("ctx", ".ctx"))
    }
    assert (
        abs(box["ctx"]["x"] - box["src"]["x"]) < 1
        and box["ctx"]["y"] >= box["src"]["y"] + box["src"]["height"]
    )
    sizes = row.evaluate("r => ['.src', '.ctx'].map(s => getComputedStyle(r.querySelector(s)).fontSize)")
    assert float(sizes[1].removesuffix("px")) < float(sizes[0].removesuffix("px"))
    page.screenshot(path=str(artifacts / "contexts.png"))
    assert opened.console == []
