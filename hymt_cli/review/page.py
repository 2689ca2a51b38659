"""The review page: one self-contained HTML file that shows a run segment by segment.

The page makes no request of any kind (no CDN, no web fonts, no images): it opens offline
from `file://`. Its style and script are inline, allowed by their SHA-256 hashes in a strict
Content-Security-Policy (`default-src 'none'`), so no other script can run in it, and the
script puts every string of the run in the page as text, never as markup. The data are two
JSON blocks (`<script type="application/json">`, which browsers never run), escaped so that no
text can end them (records.script_safe_json):

- `hymt-run`: the run (`schema`, `started`, `engine`, `model`, `source`, `source_dir` ("rtl" or
  "ltr": how the source language is written, "ltr" when the run does not name it), `targets`,
  `status`, `dry_run`), `checks` ({check id: "error" | "warning" | "info" (only ever a retry's reason)}),
  `about` ({check id: what it checks}, for the QA checks among them), `totals` and `files` (per
  output: `input`, `output`, `lang`, `lang_name`, `dir`, `format`, `status`, `error`, `warning`,
  `counts`, `outdated`: a person's values kept whose source changed since); counts are
  `segments`, `attention`, `statuses`, `checks` (segments a check fired
  on: as a flag, or as a retry's reason), `errors`, `warnings` (flags) (spool.OutputCounts);
- `hymt-segments` (class; one block or more, each of about 1 MiB): each block an array of per-output
  arrays of records (records.SegmentRecord); the blocks joined give one array per output, in the
  order of `files`;
- `hymt-first` (id): one array per output like the above, cut after the run's first 100 records
  (shown before the rest is read).

The same run gives the same bytes: no time in it but the run's own (`started`, passed in).
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator
from dataclasses import asdict
from functools import cache
from importlib import resources
from pathlib import Path

from ..outputs.atomic import open_atomically
from ..qa import BY_ID
from ..reporting.report import FileReport, RunReport
from ..text.languages import LANGUAGES
from ..text.locales import english_name
from ..text.writing_systems import right_to_left
from ._spool import OutputCounts, RecordSpool
from .records import script_safe_json

SCHEMA = "hymt.review/2"  # 2: a record's `retry` is a list (a reason per check), `context`
BLOCK_BYTES = 1 << 20  # records per JSON block, about
FIRST_PAGE = 100  # segments a page shows (PAGE in assets/state.js): shown before the rest is read


SCRIPTS = ("state.js", "segment.js", "panels.js", "app.js")  # one script, in this order


@cache
def _asset(name: str) -> str:
    return resources.files("hymt_cli.review").joinpath("assets", name).read_text(encoding="utf-8")


@cache
def _script() -> str:
    """The page's one script: the assets in one strict function scope (nothing global)."""
    return '"use strict";\n(() => {\n' + "\n".join(_asset(name) for name in SCRIPTS) + "})();\n"


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _head(style: str, script: str) -> str:
    policy = (
        f"default-src 'none'; script-src {_digest(script)}; style-src {_digest(style)}; "
        "base-uri 'none'; form-action 'none'"
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="hymt">
<title>hymt review</title>
<style>{style}</style>
</head>
<body>
<header class="top">
<div class="top-line"><h1 class="brand">hymt <span>review</span></h1>
<div class="run-meta" id="run-meta"></div></div>
<p class="run-note" id="run-note" hidden></p>
<div class="stats" id="stats" role="group" aria-label="Segments by status"></div>
</header>
<div class="main">
<nav class="side" aria-label="Filters">
<h2 id="langs-title" hidden>Languages</h2>
<div id="langs" hidden></div>
<h2>Files</h2>
<div id="files"></div>
<h2>Checks</h2>
<div id="checks"></div>
<details class="keys"><summary>Keyboard</summary><dl>
<dt><kbd>/</kbd></dt><dd>search the text</dd>
<dt><kbd>Esc</kbd></dt><dd>clear the search</dd>
<dt><kbd>j</kbd> <kbd>k</kbd></dt><dd>next, previous segment</dd>
<dt><kbd>]</kbd> <kbd>[</kbd></dt><dd>next, previous page</dd>
</dl></details>
</nav>
<main class="content">
<div class="toolbar">
<label class="search"><span class="visually-hidden">Search sources and translations</span>
<input id="search" type="search" placeholder="Search sources and translations" autocomplete="off"
 spellcheck="false">
<kbd>/</kbd></label>
<span class="summary" id="summary" aria-live="polite"></span>
<span class="pager"><button type="button" id="prev" aria-label="Previous page">&lsaquo;</button>
<span class="summary" id="page-of"></span>
<button type="button" id="next" aria-label="Next page">&rsaquo;</button></span>
<div class="filters" id="filters" hidden></div>
</div>
<section class="outdated" id="outdated" hidden aria-labelledby="outdated-title">
<h2 id="outdated-title">A person's values kept, their source changed since</h2>
<div id="outdated-list"></div></section>
<div class="list" id="list"></div>
<div class="foot pager"><button type="button" id="prev2">&lsaquo; Previous</button>
<button type="button" id="next2">Next &rsaquo;</button></div>
</main>
</div>
<noscript><p class="empty">This page shows the segments with JavaScript; the data are in the page's JSON
blocks.</p></noscript>
"""


def _direction(lang: str | None) -> str:
    """How `lang` is written: "rtl" or "ltr" (also for a language the run does not name)."""
    return "rtl" if right_to_left(lang) else "ltr"


def _name(lang: str | None) -> str | None:
    """A target's English name: HY-MT's for its languages (`Traditional Chinese`), CLDR's for a
    locale (`Portuguese (Brazil)`)."""
    if lang is None:
        return None
    return LANGUAGES[lang].english if lang in LANGUAGES else english_name(lang)


def _file_json(report: FileReport, counts: OutputCounts) -> dict[str, object]:
    lang = report.lang
    return {
        "input": report.input,
        "output": report.output,
        "lang": lang,
        "lang_name": _name(lang),
        "dir": _direction(lang),
        "format": report.format,
        "status": report.status,
        "error": report.error,
        "warning": report.warning,
        "counts": counts.to_json(),
        # a file of strings: a person's values kept whose source changed since (key, the source
        # then, now, the value, a placeholder change)
        "outdated": [asdict(value) for value in report.outdated],
    }


def _run_json(report: RunReport, spool: RecordSpool, started: str, source: str | None) -> dict[str, object]:
    totals = OutputCounts()
    files = []
    for file in report.files:
        counts = spool.counts(file)
        totals.merge(counts)
        files.append(_file_json(file, counts))
    targets = sorted({f.lang for f in report.files if f.lang is not None})
    return {
        "schema": SCHEMA,
        "started": started,
        "engine": report.engine,
        "model": report.model,
        "source": source,
        "source_dir": _direction(source),
        "targets": targets,
        "status": report.status,
        "dry_run": report.dry_run,
        "checks": dict(sorted(spool.check_severity.items())),
        "about": {c: BY_ID[c].description for c in sorted(spool.check_severity) if c in BY_ID},
        "totals": totals.to_json(),
        "files": files,
    }


def render(
    report: RunReport, spool: RecordSpool, *, started: str = "", source: str | None = None
) -> Iterator[bytes]:
    """The page, in pieces (the segments are streamed from the spool, never held whole).
    `started`: the run's own start time, as it should be shown; `source`: the source language
    code when the run names one."""
    style, script = _asset("review.css"), _script()
    yield _head(style, script).encode("utf-8")
    yield b'<script type="application/json" id="hymt-run">'
    yield script_safe_json(_run_json(report, spool, started, source)).encode("utf-8")
    # The first page of segments and the script come before the rest: the header, the counts and
    # the first page are shown while the browser still reads a big run's segments.
    yield b'</script>\n<script type="application/json" id="hymt-first">'
    yield from _segments(report, spool, limit=FIRST_PAGE)
    yield f"</script>\n<script>{script}</script>\n".encode()
    yield from _segment_blocks(report, spool)
    yield b"</body>\n</html>\n"


def _segment_blocks(report: RunReport, spool: RecordSpool) -> Iterator[bytes]:
    """Every record, in blocks of about BLOCK_BYTES (a block ends between two outputs): the
    browser paints between blocks while it reads a big run, instead of after one huge block."""
    size, opened = 0, False
    for file in report.files:
        if not opened:
            yield b'<script type="application/json" class="hymt-segments">[['
            opened = True
        else:
            yield b",\n["
        for line_number, line in enumerate(spool.lines(file)):
            yield line if line_number == 0 else b"," + line
            size += len(line) + 1
        yield b"]"
        if size >= BLOCK_BYTES:
            yield b"]</script>\n"
            size, opened = 0, False
    if opened:
        yield b"]</script>\n"
    elif not report.files:
        yield b'<script type="application/json" class="hymt-segments">[]</script>\n'


def _segments(report: RunReport, spool: RecordSpool, limit: int | None = None) -> Iterator[bytes]:
    """Per output, in report order, its records as a JSON array (at most `limit` in all)."""
    left = limit
    yield b"["
    for index, file in enumerate(report.files):
        yield b"[" if index == 0 else b",\n["
        for line_number, line in enumerate(spool.lines(file) if left is None or left > 0 else ()):
            if left is not None:
                if left == 0:
                    break
                left -= 1
            yield line if line_number == 0 else b"," + line
        yield b"]"
    yield b"]"


def write_page(
    path: Path, report: RunReport, spool: RecordSpool, *, started: str = "", source: str | None = None
) -> None:
    """Write the page to `path` atomically (a reader never sees half of it)."""
    with open_atomically(path) as handle:
        for piece in render(report, spool, started=started, source=source):
            handle.write(piece)
