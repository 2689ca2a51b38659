"""The review page as a file: self-contained, a strict Content-Security-Policy that allows exactly its
own style and script, data that no text can break out of, the same bytes for the same run."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from review_runs import Flawed, sample_run

from hymt_cli.engine.base import Generation, GenerationRequest
from hymt_cli.reporting.report import FileReport, RunReport
from hymt_cli.review import RecordSpool, SegmentRecord, write_page

_SCRIPT = re.compile(r"<script([^>]*)>(.*?)</script>", re.DOTALL)
_STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)


def parts(html: str) -> tuple[dict[str, str], str, str, str]:
    """The page's JSON blocks by id (the segment blocks joined as one: "hymt-segments"), its
    script, its style, and everything else (the markup)."""
    blocks, scripts, segments = {}, [], []
    for attrs, body in _SCRIPT.findall(html):
        if 'class="hymt-segments"' in attrs:
            segments.extend(json.loads(body))
        elif 'type="application/json"' in attrs:
            blocks[re.search(r'id="([^"]+)"', attrs).group(1)] = body
        else:
            scripts.append(body)
    blocks["hymt-segments"] = json.dumps(segments)
    (script,) = scripts
    (style,) = _STYLE.findall(html)
    markup = _STYLE.sub("", _SCRIPT.sub("", html))
    return blocks, script, style, markup


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_the_page_holds_the_whole_run_and_asks_for_nothing(tmp_path: Path) -> None:
    page = tmp_path / "review.html"
    report = sample_run(tmp_path, page)
    html = page.read_text(encoding="utf-8")
    blocks, script, style, markup = parts(html)
    assert html.count("<script") == 4 and set(blocks) == {"hymt-run", "hymt-first", "hymt-segments"}
    run, segments = json.loads(blocks["hymt-run"]), json.loads(blocks["hymt-segments"])
    first = json.loads(blocks["hymt-first"])  # the first page, shown while the rest is read
    assert [r for output in first for r in output] == [r for output in segments for r in output][:100]
    assert len(first) == len(segments)
    assert run["schema"] == "hymt.review/2" and run["started"] == "2026-05-01 09:30 UTC"
    assert [f["input"] for f in run["files"]] == [f.input for f in report.files]
    assert [len(s) for s in segments] == [f["counts"]["segments"] for f in run["files"]]
    assert run["totals"]["segments"] == sum(len(s) for s in segments) > 700
    assert run["totals"]["statuses"] == {
        "as-is": 2,
        "memory": 1,
        "repaired": 1,
        "retried": 4,
        "translated": 764,
        "untranslated": 3,
    }
    assert run["checks"] == {
        "brackets": "warning",
        "echo": "info",
        "empty": "error",
        "glossary": "warning",
        "inconsistent": "warning",
        "loop": "error",
        "number": "error",
        "sku": "warning",
        "tags": "info",
    }
    # What each QA check checks, for the page's tooltips (the other checks have none).
    assert set(run["about"]) == {"brackets", "inconsistent", "number", "sku"}
    assert run["about"]["sku"] == "SKU and model tokens (XR-2000, A4) kept"
    # Nothing outside the data refers to anything: no URL, no source, no link, no import.
    for code in (script, style, markup):
        assert not re.search(r"https?:|//[a-z]|\bsrc=|\bhref=|url\(|@import|fetch\(|XMLHttpRequest", code), (
            code[:200]
        )
    # A strict policy that allows exactly this script and this style.
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', markup).group(1)
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives == {
        "default-src": "'none'",
        "script-src": sha256(script),
        "style-src": sha256(style),
        "base-uri": "'none'",
        "form-action": "'none'",
    }
    assert not re.search(r"\son[a-z]+=", markup)  # no inline event handler


class Backwards(Flawed):
    """The same answers, each batch last request first."""

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[tuple[int, Generation]]:
        yield from reversed(list(enumerate(self.generate(requests))))


def test_the_same_run_gives_the_same_bytes(tmp_path: Path) -> None:
    pages = []
    for name, engine in (("a", Flawed()), ("b", Backwards())):
        (tmp_path / name).mkdir()
        page = tmp_path / name / "review.html"
        sample_run(tmp_path / name, page, engine=engine, targets=("fr", "ja"))
        pages.append(page.read_bytes())
    assert pages[0] == pages[1]
    assert (
        len(re.findall(rb"\d{4}-\d\d-\d\d", pages[0].split(b'class="hymt-segments"')[0])) == 1
    )  # the start only


def test_names_that_are_not_utf8_still_make_a_valid_page(tmp_path: Path) -> None:
    name = os.fsdecode(b"caf\xe9 </script>.txt")  # Latin-1 bytes: a lone surrogate in Python
    report = RunReport(
        engine="pseudo",
        model=None,
        files=[
            FileReport(name, name + ".fr", "fr"),
            FileReport("gone.txt", None, None, "failed", "gone.txt: no such file"),
        ],
    )
    page = tmp_path / "review.html"
    with RecordSpool() as spool:
        spool.add(report.files[0], 0, [SegmentRecord(0, 0, "Hi", "Salut", "translated")])
        write_page(page, report, spool)
    blocks, *_ = parts(page.read_bytes().decode("utf-8"))  # valid UTF-8
    files = json.loads(blocks["hymt-run"])["files"]
    assert files[0]["input"] == "caf\\xe9 </script>.txt"
    assert files[1]["status"] == "failed" and files[1]["counts"]["segments"] == 0
    assert (
        json.loads(blocks["hymt-segments"])
        == json.loads(blocks["hymt-first"])
        == [[{"unit": 0, "segment": 0, "status": "translated", "source": "Hi", "translation": "Salut"}], []]
    )


def test_big_runs_come_in_blocks_that_join_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hymt_cli.review import page as review_page

    monkeypatch.setattr(review_page, "BLOCK_BYTES", 200)
    report = RunReport(
        engine="pseudo", model=None, files=[FileReport(f"f{i}.txt", f"f{i}.fr.txt", "fr") for i in range(6)]
    )
    records = {
        i: [SegmentRecord(0, s, f"Text {i}.{s} " * 3, "Texte", "translated") for s in range(i)]
        for i in range(6)
    }
    page = tmp_path / "review.html"
    with RecordSpool() as spool:
        for i, file in enumerate(report.files):
            spool.add(file, 0, records[i])
        write_page(page, report, spool)
    html = page.read_text(encoding="utf-8")
    assert html.count('class="hymt-segments"') > 2
    blocks, *_ = parts(html)
    joined = json.loads(blocks["hymt-segments"])
    assert [[r["source"] for r in output] for output in joined] == [
        [r.source for r in records[i]] for i in range(6)
    ]


def test_the_command_line_writes_the_page_with_the_report(tmp_path: Path) -> None:
    """`--review FILE` beside `--report FILE`: one page for the run, written once the run ends."""
    from clirun import ROOT, hymt

    page, report = tmp_path / "review.html", tmp_path / "report.json"
    result = hymt(
        "translate",
        str(ROOT / "samples" / "docs"),
        "--to",
        "de",
        "--engine",
        "pseudo",
        "--no-cache",
        "-o",
        str(tmp_path / "out"),
        "--review",
        str(page),
        "--report",
        str(report),
        text=True,
    )
    assert result.returncode == 0, result.stderr
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in html
    for doc in (ROOT / "samples" / "docs").glob("*.md"):
        assert doc.name in html
    unwritable = hymt(
        "translate",
        str(ROOT / "samples" / "docs"),
        "--to",
        "de",
        "--engine",
        "pseudo",
        "--review",
        str(tmp_path / "out"),
        text=True,
    )  # a folder: refused before anything runs
    assert unwritable.returncode == 2 and "--review" in unwritable.stderr
