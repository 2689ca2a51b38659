"""Run the real `hymt` command in a subprocess (stdout and stderr kept apart): the one CLI
runner of the tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def environment(env: dict[str, str | None] | None = None) -> dict[str, str]:
    """The tests' environment; a variable given as None is removed."""
    merged: dict[str, str | None] = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "NO_COLOR": "1",
        "HF_HUB_OFFLINE": "1",
        **(env or {}),
    }
    return {key: value for key, value in merged.items() if value is not None}


def hymt(
    *args: str,
    stdin: bytes | None = None,
    cwd: Path | None = None,
    env: dict[str, str | None] | None = None,
    timeout: float = 300,
    text: bool = False,
) -> subprocess.CompletedProcess[Any]:
    """`hymt ARGS...` to completion; `text` decodes stdout/stderr (then `stdin` must be None)."""
    return subprocess.run(
        [sys.executable, "-m", "hymt_cli", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env=environment(env),
        timeout=timeout,
        text=text,
    )


def start_hymt(
    *args: str,
    cwd: Path | None = None,
    env: dict[str, str | None] | None = None,
    stdin: int | None = None,
    stdout: int | None = subprocess.PIPE,
) -> subprocess.Popen[bytes]:
    """`hymt ARGS...` in the background (for signals); stderr is piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "hymt_cli", *args],
        cwd=cwd,
        env=environment(env),
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
    )


def pseudo_run(cwd: Path, *args: str) -> tuple[int, str, dict[str, Any]]:
    """`hymt translate ARGS... --engine pseudo --no-cache` in `cwd`: its exit code, stderr and
    JSON report ({} where it wrote none)."""
    report = cwd / "report.json"
    done = hymt(
        "translate", *args, "--engine", "pseudo", "--no-cache", "--report", str(report), cwd=cwd, text=True
    )
    data = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else {}
    report.unlink(missing_ok=True)
    return done.returncode, done.stderr, data
