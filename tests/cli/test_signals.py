"""Signals (issues 11 and 13): real runs killed at random moments with SIGINT, SIGTERM and SIGKILL,
then run again. Each interrupted run ends cleanly (exit 130/143, one line, a report with the
interrupted status, no temp file); after the rerun the outputs are byte for byte those of a run
never interrupted, no temp file is left anywhere, and the rerun sends the engine only what the
memory does not hold (no repeated engine work)."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import jsonschema
import pytest
from clirun import ROOT, hymt, start_hymt

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho".split()


def _corpus(folder: Path, files: int = 2, paragraphs: int = 2500) -> Path:
    rng = random.Random(7)
    folder.mkdir(parents=True)
    for f in range(files):
        text = "".join(
            " ".join(rng.choice(WORDS) for _ in range(10)).capitalize() + f" {f}-{i}.\n\n"
            for i in range(paragraphs)
        )
        (folder / f"doc{f}.txt").write_text(text)
    return folder


def _outputs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.*.txt"))}


def _temps(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.endswith(".hymt-tmp")]


def _memory_size(path: Path) -> int:
    if not path.exists():
        return 0
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT count(*) FROM segments").fetchone()[0])


RUN = ("--to", "de,fr", "--engine", "pseudo", "--progress", "plain")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    docs = _corpus(tmp_path_factory.mktemp("reference") / "docs")
    result = hymt("translate", str(docs), *RUN, "--no-cache")
    assert result.returncode == 0, result.stderr
    return _outputs(docs)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_killed_at_random_moments_then_rerun(
    tmp_path: Path, reference: dict[str, bytes], signum: int
) -> None:
    rng = random.Random(int(signum))
    docs = _corpus(tmp_path / "docs")
    memory = tmp_path / "memory.sqlite3"
    for attempt in range(2):
        report = tmp_path / f"report-{attempt}.json"
        proc = start_hymt("translate", str(docs), *RUN, "--cache", str(memory), "--report", str(report))
        time.sleep(rng.uniform(0.5, 6.0))
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=120)
        stderr = err.decode()
        assert "Traceback" not in stderr
        if proc.returncode == 0:  # it finished first: nothing to check about the signal
            continue
        if signum != signal.SIGKILL and proc.returncode == -signum:
            # the run had ended and given the signal back to its default action, which stopped the
            # interpreter's exit (a shell sees 128 + signal, as for a handled one): all was written
            assert json.loads(report.read_text())["status"] != "interrupted", stderr
            continue
        if signum == signal.SIGKILL:
            assert proc.returncode == -signal.SIGKILL
        else:
            assert proc.returncode == (130 if signum == signal.SIGINT else 143), stderr
            name = signal.Signals(signum).name
            last = [line for line in stderr.splitlines() if line.startswith("hymt: interrupted")]
            assert len(last) == 1, stderr
            assert not _temps(tmp_path), "an interrupted run left temp files"
            if last[0] == f"hymt: interrupted ({name}) while starting; nothing was done":
                assert not report.exists()
                continue
            assert last[0].startswith(f"hymt: interrupted ({name}): ")
            data = json.loads(report.read_text())
            jsonschema.validate(data, json.loads((ROOT / "schemas" / "report-3.schema.json").read_text()))
            assert data["status"] == "interrupted" and data["signal"] == name
            assert data["exit_code"] == proc.returncode
            assert {f["status"] for f in data["files"]} <= {"ok", "interrupted"}
        held = _memory_size(memory)
        rerun_report = tmp_path / "rerun.json"
        rerun = hymt("translate", str(docs), *RUN, "--cache", str(memory), "--report", str(rerun_report))
        assert rerun.returncode == 0, rerun.stderr
        data = json.loads(rerun_report.read_text())
        assert data["cache_hits"] == held, "the rerun did not reuse every translation the memory held"
        assert data["engine_requests"] == data["unique_segments"] - held, "engine work was repeated"
        assert _outputs(docs) == reference
        assert not _temps(tmp_path)
        for output in docs.glob("*.*.txt"):
            output.unlink()


def test_sigint_while_reading_standard_input(tmp_path: Path) -> None:
    proc = start_hymt(
        "translate",
        "-",
        "--format",
        "txt",
        "--to",
        "en",
        "--engine",
        "pseudo",
        "--report",
        str(tmp_path / "r.json"),
        stdin=subprocess.PIPE,
        cwd=tmp_path,
    )
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143
    assert out == b""
    assert (
        err.decode().splitlines()[-1].startswith("hymt: interrupted (SIGTERM): 0 of 1 output file(s) written")
    )
    assert json.loads((tmp_path / "r.json").read_text())["status"] == "interrupted"
