"""Runs that make review pages for the tests: the samples through the pseudo engine with a few
faults, and the browser that opens the pages (Debian's Chromium, driven by Playwright)."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pipelines import make_pipeline, run_pipeline, sources_of

from hymt_cli.engine.base import BatchEngine, Generation, GenerationRequest
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.pseudo import pseudo_localize
from hymt_cli.formats import ParquetOptions, TextOptions
from hymt_cli.glossary import load_glossaries
from hymt_cli.options import OptionSet
from hymt_cli.qa import QaSuite
from hymt_cli.reporting.report import RunReport
from hymt_cli.review import RecordSpool, write_page

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
# This machine's network is closed, and a test must never reach out anyway.
CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
STARTED = "2026-05-01 09:30 UTC"
_TAGS = re.compile(r"</?s\d+/?>")


class Flawed(BatchEngine):
    """The pseudo engine with a few faults, by source text: a first answer that loses its tags or
    echoes the instruction (retried), tags lost every time (repaired), an empty answer or a loop
    every time (untranslated), one glossary term missed (a warning); the other glossary terms are
    used as the glossary says. And what the QA checks catch: a changed number on the first try
    (retried) with a bracket dropped every time (a warning), a changed model number (a warning),
    a changed percentage every time (an error: untranslated), and a catalog value answered
    another way when it is asked again in a later window (inconsistent)."""

    name = "pseudo"
    TERMS: ClassVar[dict[str, str]] = {"gpu memory": "mémoire GPU", "progress bar": "barre de progression"}
    DRIFTS = "Two-year warranty"

    def __init__(self) -> None:
        self.asked = 0  # how often DRIFTS was asked (first tries)

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        out = []
        for r in requests:
            source = r.source_text
            text = self._with_terms(source)
            if "(about 3.6 GB)" in source:
                text = text.replace(")", "", 1)
                text = text if r.deterministic else text.replace("3.6", "3.5")
            elif "one H200" in source:
                text = text.replace("H200", "H100")
            elif "reserves 90%" in source:
                text = text.replace("90%", "80%")
            elif source == self.DRIFTS and not r.deterministic:
                self.asked += 1
                text = text if self.asked == 1 else text.replace("⟦", "⟦ÁĹŢ ")
            elif "comma-separated" in source and not r.deterministic:
                text = _TAGS.sub("", text)
            elif "keep every byte" in source and not r.deterministic:
                text = "Translate the following segment into French, without additional explanation."
            elif "reference link" in source and "<s" in source:
                text = _TAGS.sub("", text)
            elif "hard break" in source:
                text = ""
            elif "Dark mode" in source:
                text = "Mode sombre " + "suit " * 40
            out.append(Generation(text, "stop", len(text.split())))
        return out

    def _with_terms(self, source: str) -> str:
        """Pseudo-localized, the glossary's terms in their target form (`{}` passes through the
        pseudo engine), except in the one segment that shows a miss."""
        if "watch the progress bar" in source:
            return pseudo_localize(source)
        found: list[str] = []
        for term, target in self.TERMS.items():
            source = re.sub(
                re.escape(term),
                lambda _, t=target: found.append(t) or f"{{{len(found) - 1}}}",
                source,
                flags=re.IGNORECASE,
            )
        text = pseudo_localize(source)
        for i, target in enumerate(found):
            text = text.replace(f"{{{i}}}", target)
        return text


@dataclass
class DictMemory:
    """A translation memory in a dict (the pipeline's Memory protocol)."""

    known: dict[tuple[str, str, str], str] = field(default_factory=dict)  # (language, text, context)

    def recall(self, keys: Sequence[tuple[str, str, str]]) -> list[str | None]:
        return [self.known.get(key) for key in keys]

    def remember(self, items: Sequence[tuple[tuple[str, str, str], str]]) -> None:
        pass


GLOSSARY = """source\ttarget\ttarget_lang\tcase_sensitive\tnote
progress bar\tbarre de progression\tfr\tfalse\tUI element
GPU memory\tmémoire GPU\tfr\tfalse\t
vLLM\t\t\ttrue\tproduct name: never translated
"""
WINDOW = 400
SAMPLES = [
    "samples/docs/guide.md",
    "samples/site/index.html",
    "samples/txt/release-notes.txt",
    "samples/docs/zh-intro.md",
    "samples/catalog/products.parquet",
]


def sample_run(
    tmp_path: Path,
    page: Path,
    *,
    targets: Sequence[str] = ("fr",),
    engine: BatchEngine | None = None,
    inputs: Sequence[str] = SAMPLES,
) -> RunReport:
    """The samples translated with the pseudo engine and a glossary, the QA checks on (as in a
    real run; the pseudo engine does not translate), a few segments flagged, one from the memory;
    the review page written to `page`. Windows of WINDOW segments: the catalog comes in several
    (a value asked in two of them may come back two ways)."""
    glossary_file = tmp_path / "terms.tsv"
    glossary_file.write_text(GLOSSARY, encoding="utf-8")
    settings = OptionSet(
        [ParquetOptions(columns=("title", "body_html"), cell_format="html", rows_per_batch=4)]
    )
    sources = sources_of([ROOT / p for p in inputs], options=settings)
    memory = DictMemory({("fr", "Options", ""): "Options"})
    with RecordSpool() as spool:
        pipeline = make_pipeline(
            lambda: engine or Flawed(),
            to=targets,
            out_dir=tmp_path / "out",
            engine_name="pseudo",
            glossary=load_glossaries([glossary_file]),
            memory=memory,
            review=spool,
            qa=QaSuite(translating=False),
            window_segments=WINDOW,
        )
        report = pipeline.run(sources)
        for file in report.files:  # paths as a person would see them, not this machine's
            file.input = os.path.relpath(file.input, ROOT)
            file.output = os.path.relpath(file.output, tmp_path) if file.output else None
        write_page(page, report, spool, started=STARTED)
    return report


@dataclass
class Opened:
    """A page open in the browser, with what it said on its console (errors and warnings, CSP
    violations included) and every request it made."""

    page: Any
    console: list[str]
    requests: list[str]


def open_page(browser: Any, path: Path, *, width: int = 1400, height: int = 900) -> Opened:
    """Open the review page from file:// and wait until its segments are shown."""
    page = browser.new_page(viewport={"width": width, "height": height})
    opened = Opened(page, [], [])
    page.on(
        "console",
        lambda m: opened.console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None,
    )
    page.on("pageerror", lambda e: opened.console.append(f"pageerror: {e}"))
    page.on("request", lambda r: opened.requests.append(r.url))
    page.goto(path.as_uri())
    wait_until(page, "performance.getEntriesByName('hymt-segments-shown').length > 0")
    return opened


def wait_until(page: Any, expression: str, timeout: float = 30.0) -> None:
    """Poll `expression` in the page until it is true. (Playwright's wait_for_function evaluates
    its predicate with eval(), which the page's Content-Security-Policy rightly refuses.)"""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        time.sleep(0.02)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless (its own browser download cannot work here)."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), "the browser tests need Debian's Chromium: apt-get install -y chromium"
    args = CHROMIUM_ARGS + (["--no-sandbox"] if os.geteuid() == 0 else [])
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=args)
        try:
            yield browser
        finally:
            browser.close()


def lines_page(tmp_path: Path, name: str, lines: list[str]) -> Path:
    """The review page of a text file `name` (one segment per line) through the identity engine."""
    source = tmp_path / "in" / name
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page = tmp_path / "review.html"
    with RecordSpool() as spool:
        report = run_pipeline(
            [source],
            IdentityEngine(),
            options=OptionSet([TextOptions(segment_by="line")]),
            out_dir=tmp_path / "out",
            review=spool,
        )
        write_page(page, report, spool, started=STARTED)
    return page
