"""A run killed with SIGKILL mid-way, then restarted: finishes, same output, no repeated work."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pyarrow.parquet as pq
from catalog_gen import write_catalog
from clirun import start_hymt
from tm_helpers import CountingEngine, engine_named, run

ROOT = Path(__file__).resolve().parents[2]
COLUMNS = "title,body_html,option1_value"


def _translate(src: Path, out: Path, cache: Path) -> subprocess.Popen:
    # A tiny token budget: hundreds of small engine batches, each committed to the memory.
    return start_hymt(
        "translate",
        str(src),
        "--to",
        "fr,de",
        "--engine",
        "pseudo",
        "--columns",
        COLUMNS,
        "--batch-tokens",
        "60",
        "--cache",
        str(cache),
        "-o",
        str(out),
        "-q",
        cwd=ROOT,
        stdout=None,
    )


def _stored(cache: Path) -> int:
    try:
        with sqlite3.connect(f"file:{cache}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT count(*) FROM segments").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_sigkill_mid_run_then_restart(tmp_path):
    src = write_catalog(tmp_path / "catalog.parquet", 10_000, row_group_rows=2500)
    reference = tmp_path / "reference"
    run([src], "fr,de", engine_named("pseudo"), cache=None, out=reference, columns=tuple(COLUMNS.split(",")))

    cache, out = tmp_path / "tm.db", tmp_path / "out"
    proc = _translate(src, out, cache)
    deadline = time.monotonic() + 120
    while _stored(cache) < 500 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert proc.poll() is None, "the run finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    committed = _stored(cache)
    assert committed >= 500
    # Nothing half-written under the final names (a temp file of the dead run may remain).
    assert not list(out.rglob("catalog.parquet"))

    with sqlite3.connect(cache) as db:  # what the killed run had finished
        finished = {(lang, text) for lang, text in db.execute("SELECT tgt_lang, source FROM segments")}

    engine = CountingEngine(engine_named("pseudo"))
    report = run([src], "fr,de", engine, cache=cache, out=out, columns=tuple(COLUMNS.split(",")))
    assert report.files_ok == 2 and report.cache_hits >= len(finished) > 0
    requested = set(engine.requested)
    assert len(engine.requested) == report.unique_segments - report.cache_hits  # the rest: memory
    finished_texts_both = {t for (_, t) in finished if ("fr", t) in finished and ("de", t) in finished}
    assert not requested & finished_texts_both  # finished segments were not requested again
    for lang in ("fr", "de"):
        got = pq.read_table(out / lang / "catalog.parquet")
        assert got.equals(pq.read_table(reference / lang / "catalog.parquet"))
        assert got.schema.equals(pq.read_table(src).schema, check_metadata=True)
    assert not list(out.rglob(".*hymt-tmp"))  # the killed run's temp files were cleaned up


def test_sigkill_then_cli_restart_gives_identical_output(tmp_path):
    src = write_catalog(tmp_path / "catalog.parquet", 10_000, row_group_rows=2500)
    cache, out = tmp_path / "tm.db", tmp_path / "out"
    proc = _translate(src, out, cache)
    while _stored(cache) < 300 and proc.poll() is None:
        time.sleep(0.01)
    proc.kill()
    proc.wait(timeout=30)
    before = _stored(cache)
    restart = _translate(src, out, cache)
    assert restart.wait(timeout=300) == 0, restart.stderr.read().decode()
    uninterrupted = _translate(src, tmp_path / "clean", tmp_path / "other.db")
    assert uninterrupted.wait(timeout=300) == 0
    for lang in ("fr", "de"):
        assert pq.read_table(out / lang / "catalog.parquet").equals(
            pq.read_table(tmp_path / "clean" / lang / "catalog.parquet")
        )
    assert _stored(cache) == _stored(tmp_path / "other.db") > before
