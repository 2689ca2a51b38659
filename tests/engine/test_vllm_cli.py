"""Issue 11 with the real vLLM CPU engine on the tiny random models, as a user runs hymt: quiet
means hymt's own lines only (vLLM, torch and the engine-core process write to the log file),
progress in phases with JSON events, Ctrl-C mid-translation ends in one line and a report.

Three runs, each starting its own engine (tens of seconds on CPU): kept few on purpose."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from clirun import ROOT, hymt, start_hymt

from hymt_cli.errors import ExitCode

pytestmark = pytest.mark.vllm
ENGINE = ("--dtype", "float32", "--enforce-eager", "--max-model-len", "512", "--no-cache")
HYMTS_OWN = ("hymt: ", "warning: ", "error: ", "  hint: ", "  engine: ", '{"event": ')


@pytest.fixture(autouse=True)
def _needs_vllm() -> None:
    pytest.importorskip("vllm")


def _no_engine_noise(stderr: str) -> None:
    """Every line is one of hymt's (a progress line may quote the engine's latest step)."""
    for line in stderr.splitlines():
        assert line.startswith(HYMTS_OWN), f"engine output leaked to stderr: {line!r}\n{stderr}"


def test_quiet_run_prints_hymts_lines_only_and_a_run_translating_nothing_fails(
    tiny_model_dir: Path, tmp_path: Path
) -> None:
    doc = tmp_path / "notes.txt"
    shutil.copy(ROOT / "samples" / "txt" / "release-notes.txt", doc)
    log = tmp_path / "engine.log"
    result = hymt(
        "translate",
        str(doc),
        "--to",
        "fr",
        "--model",
        str(tiny_model_dir),
        *ENGINE,
        "-q",
        "--log-file",
        str(log),
        text=True,
    )
    # the noise model's answers all fail validation: not a silent success, and -q still says why
    assert result.returncode == ExitCode.QUALITY_CHECK_FAILED, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 2, result.stderr
    assert lines[0].startswith("warning: ") and "random-weight test model" in lines[0]
    assert lines[1].startswith("error: not one of the ") and "was translated" in lines[1]
    _no_engine_noise(result.stderr)
    assert result.stdout == ""
    # the engine's lines went to its log (the engine-core process's loading bar, whatever the log level)
    assert "Loading safetensors checkpoint shards" in log.read_text(errors="replace")


def test_progress_json_events_and_the_log_path_with_v(answering_model_dir: Path, tmp_path: Path) -> None:
    doc = tmp_path / "notes.txt"
    shutil.copy(ROOT / "samples" / "txt" / "release-notes.txt", doc)
    result = hymt(
        "translate",
        str(doc),
        "--to",
        "fr,de",
        "--model",
        str(answering_model_dir),
        *ENGINE,
        "--progress",
        "json",
        "-v",
        "--report",
        str(tmp_path / "r.json"),
        text=True,
    )
    assert result.returncode == 0, result.stderr
    _no_engine_noise(result.stderr)
    events, other = [], []
    for line in result.stderr.splitlines():
        (events if line.startswith("{") else other).append(line)
    logs = [line for line in other if line.startswith("hymt: engine log: ")]
    assert len(logs) == 1 and Path(logs[0].split(": ", 2)[2]).is_file()
    assert all(line.startswith(("hymt: engine log", "warning: ")) for line in other), other
    decoded = [json.loads(line) for line in events]
    names = [e["event"] for e in decoded if e["event"] != "progress"]
    # the engine's events come from the thread that starts it: after or before "planned"
    assert names[-1] == "finished" and names.count("engine_starting") == 1
    assert names.index("engine_starting") < names.index("engine_ready")
    assert names.count("file_written") == 2 and "planned" in names
    assert names.index("engine_ready") < names.index("file_written")
    planned = next(e for e in decoded if e["event"] == "planned")
    assert planned["files"] == 2 and planned["requests"] > 0 and planned["prompt_tokens"] > 0
    assert {e["path"] for e in decoded if e["event"] == "file_written"} == {
        str(tmp_path / "notes.fr.txt"),
        str(tmp_path / "notes.de.txt"),
    }
    finished = decoded[-1]
    assert finished["status"] == "ok" and finished["exit_code"] == 0 and finished["files_ok"] == 2


def test_plain_progress_phases_then_ctrl_c_mid_translation(tiny_model_dir: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "samples" / "txt", docs)
    report = tmp_path / "r.json"
    proc = start_hymt(
        "translate",
        str(docs),
        "--to",
        "fr,de",
        "--model",
        str(tiny_model_dir),
        *ENGINE,
        "--report",
        str(report),
        "--log-file",
        str(tmp_path / "engine.log"),
        stdout=subprocess.DEVNULL,
    )
    assert proc.stderr is not None
    before: list[str] = []
    while True:  # the run's own progress lines, until the engine is ready and translating
        line = proc.stderr.readline().decode()
        assert line, "the run ended before translating:\n" + "".join(before)
        before.append(line)
        if line.startswith("hymt: engine ready in "):
            break
    proc.send_signal(signal.SIGINT)
    rest = proc.communicate(timeout=300)[1].decode()
    shown = "".join(before)
    assert "hymt: starting the engine (vllm, " in shown and "hymt: planned " in shown
    assert proc.returncode == ExitCode.INTERRUPTED, shown + rest
    _no_engine_noise(shown + rest)
    interrupted = [line for line in rest.splitlines() if line.startswith("hymt: interrupted (SIGINT): ")]
    assert len(interrupted) == 1, rest
    assert all(line.startswith(("hymt: ", "warning: ")) for line in rest.splitlines()), rest
    data = json.loads(report.read_text())
    assert data["status"] == "interrupted" and data["signal"] == "SIGINT" and data["exit_code"] == 130
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".hymt-tmp")]
