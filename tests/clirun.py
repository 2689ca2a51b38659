"""Run the real `hymt` command in a subprocess (stdout and stderr kept apart)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def hymt(*args: str, stdin: bytes | None = None, cwd: Path | None = None, env: dict | None = None,
         timeout: float = 300) -> subprocess.CompletedProcess[bytes]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "HF_HUB_OFFLINE": "1",
                   **(env or {})}
    return subprocess.run([sys.executable, "-m", "hymt_cli", *args], input=stdin, capture_output=True,
                          cwd=cwd, env=environment, timeout=timeout)
