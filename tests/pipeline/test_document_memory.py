"""A long text document goes through the pipeline in bounded memory, as a table's rows do: the
memory allocated while it is read, translated and written stays flat as its lines grow fourfold
(each window's parts are freed before the next are read), and the CLI's peak RSS over 200,000
lines stays below what the whole file would take. bench/RESULTS.md has the figures at a million
lines and more; speed is measured there, not here."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import tracemalloc
from collections.abc import Sequence
from pathlib import Path

import pytest
from pipelines import run_pipeline

from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.formats import ReadSizes, TextOptions
from hymt_cli.options import OptionSet

RequestKey = tuple[str, str, str]
ROOT = Path(__file__).resolve().parents[2]  # this checkout's hymt_cli, in the child too
LINES = 4_000


class PeakProbe:
    """A translation memory that knows nothing and keeps nothing: the pipeline asks it as each
    window fills and tells it the answers as they come, and it notes the peak of memory allocated
    since its last call (tracemalloc)."""

    def __init__(self) -> None:
        self.peaks: list[int] = []

    def _note(self) -> None:
        self.peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.reset_peak()

    @property
    def peak(self) -> int:
        """The peak while windows were read and translated: not the last stretch, where the
        output is committed and its digest taken (a MiB at a time: as much as the file here)."""
        return max(self.peaks[:-1])

    def recall(self, keys: Sequence[RequestKey]) -> list[str | None]:
        self._note()
        return [None] * len(keys)

    def remember(self, items: Sequence[tuple[RequestKey, str]]) -> None:
        self._note()


def peak_of_a_run(tmp_path: Path, lines: int) -> int:
    """Peak bytes allocated while `lines` short lines (each its own text) go through the pipeline."""
    src = tmp_path / f"lines-{lines}.txt"
    src.write_text("".join(f"Line number {i} of the file.\n" for i in range(lines)))
    out = tmp_path / f"out-{lines}"
    probe = PeakProbe()
    gc.collect()
    tracemalloc.start()
    try:
        report = run_pipeline(
            [src],
            IdentityEngine,
            options=OptionSet([TextOptions(segment_by="line")]),
            out_dir=out,
            window_segments=512,
            memory=probe,
            read_sizes=ReadSizes(part_bytes=4096),  # parts of about 140 lines
            max_held=1024,  # answers held for the memory: as scaled down
        )
    finally:
        tracemalloc.stop()
    assert report.files_ok == 1 and report.segments == lines
    assert (out / "fr" / src.name).read_bytes() == src.read_bytes()
    return probe.peak


def test_a_long_text_runs_in_the_memory_of_a_short_one(tmp_path: Path) -> None:
    small = peak_of_a_run(tmp_path, LINES)
    large = peak_of_a_run(tmp_path, 4 * LINES)
    assert large < 1.2 * small, (
        f"peak {small / 2**20:.2f} MiB at {LINES} lines, {large / 2**20:.2f} MiB at 4x"
    )


def peak_rss_of_cli(src: Path, *options: str) -> int:
    """Peak RSS in bytes of `hymt translate src` with the identity engine, in a child process of
    its own (`wait4`: that child alone); its output must be its input."""
    out = src.parent / f"rss-out-{src.stem}"
    argv = [sys.executable, "-m", "hymt_cli", "translate", str(src), "--to", "de", *options]
    argv += ["--engine", "identity", "--no-cache", "-q", "-o", str(out)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    assert child.returncode == 0, errors.decode(errors="replace")
    assert (out / "de" / src.name).read_bytes() == src.read_bytes()
    return usage.ru_maxrss * 1024  # KiB on Linux


def lines_file(tmp_path: Path, lines: int) -> Path:
    src = tmp_path / f"rss-{lines}.txt"
    src.write_text("".join(f"Line {i} of a long file.\n" for i in range(lines)))
    return src


def markdown_file(tmp_path: Path, paragraphs: int) -> Path:
    """A guide of `paragraphs` paragraphs, under a heading every 50, then as many items of one
    list; its links and footnotes are defined at its end (so the whole guide is read once for its
    definitions, then in parts)."""
    src = tmp_path / f"rss-{paragraphs}.md"
    with src.open("w", encoding="utf-8") as out:
        out.write("# A long guide\n\n")
        for i in range(paragraphs):
            if i % 50 == 0:
                out.write(f"## Section {i // 50}\n\n")
            link, note = f"[link][p{i % 100}]", f"[^n{i % 7}]"
            out.write(f"Paragraph {i} with *emphasis*, `code`, a {link} and a note{note}.\n\n")
        out.write("## The list\n\n")
        out.write(
            "".join(f"- Item {i} with *emphasis* and a [link][p{i % 100}].\n" for i in range(paragraphs))
        )
        out.write("\n")
        out.write("".join(f'[p{i}]: /p/{i} "Page {i}"\n' for i in range(100)))
        out.write("".join(f"\n[^n{i}]: Note {i}.\n" for i in range(7)))
    return src


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB, and RSS as Linux counts it")
def test_the_cli_holds_a_window_of_lines_not_the_file(tmp_path: Path) -> None:
    """200,000 lines through the CLI: peak RSS grows by less than the whole file would take as
    Python objects (+472 MB over a 1,000-line run when a document was one unit, +183 MB in
    windows of 65,536 segments, the consistency check's 100,000 texts included)."""
    base = peak_rss_of_cli(lines_file(tmp_path, 1_000), "--segment-by", "line")
    grown = peak_rss_of_cli(lines_file(tmp_path, 200_000), "--segment-by", "line") - base
    assert grown < 300 * 2**20, (
        f"peak RSS {base / 2**20:.0f} MiB at 1,000 lines, +{grown / 2**20:.0f} MiB at 200,000"
    )


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB, and RSS as Linux counts it")
def test_the_cli_holds_a_window_of_markdown_paragraphs_not_the_file(tmp_path: Path) -> None:
    """200,000 Markdown paragraphs and 200,000 list items (24 MB) through the CLI: read in
    parts, peak RSS grows by far less than the whole document's parse takes (+1,446 MiB over
    1,000 paragraphs when 200,000 paragraphs were parsed whole, +353 MiB in parts, the same at
    400,000: a window's 65,536 segments and their parts)."""
    base = peak_rss_of_cli(markdown_file(tmp_path, 1_000))
    grown = peak_rss_of_cli(markdown_file(tmp_path, 200_000)) - base
    assert grown < 450 * 2**20, (
        f"peak RSS {base / 2**20:.0f} MiB at 1,000 paragraphs, +{grown / 2**20:.0f} MiB at 200,000"
    )
