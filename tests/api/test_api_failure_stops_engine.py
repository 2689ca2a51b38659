"""A run that ends with an exception stops its engine's processes (issue 28.4): a script whose
code raises, inside a `with Translator(...)` block or with a translator it never closed, exits
with its traceback, and the vLLM engine processes it started are gone, not left running until
a timeout kills them. The real CPU engine on the tiny model, in a script of its own (vLLM
spawns its engine core as a child process)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clirun import environment
from engines import process_running

SCRIPT = """\
import json, sys
import psutil
import hymt_cli as hymt


def engine_processes():
    return [p.pid for p in psutil.Process().children(recursive=True)]


if __name__ == "__main__":
    model, record, how = sys.argv[1:4]
    options = dict(engine="vllm", model=model, no_cache=True, dtype="float32", enforce_eager=True,
                   max_model_len=512)
    if how == "replicas":  # engines in processes of hymt's own (tuning.py), never closed
        options["replicas"] = 2
    if how == "with":
        with hymt.Translator(**options) as translator:
            translator.text("Hello world.", to="de")
            json.dump(engine_processes(), open(record, "w"))
            raise RuntimeError("the caller's own code failed")
    translator = hymt.Translator(**options)  # never closed
    translator.text("Hello world.", to="de")
    json.dump(engine_processes(), open(record, "w"))
    raise RuntimeError("the caller's own code failed")
"""


@pytest.mark.vllm
@pytest.mark.parametrize("how", ["with", "never-closed", "replicas"])
def test_an_exception_in_the_callers_code_stops_the_engine_processes(
    how: str, answering_model_dir: Path, tmp_path: Path
) -> None:
    pytest.importorskip("vllm")
    script, record = tmp_path / "use.py", tmp_path / "pids.json"
    script.write_text(SCRIPT, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(script), str(answering_model_dir), str(record), how],
        capture_output=True,
        text=True,
        env=environment(),
        timeout=400,  # (a start of ~60 s on a loaded CPU; a hang is what this test catches)
    )
    assert result.returncode == 1 and "RuntimeError: the caller's own code failed" in result.stderr
    started = json.loads(record.read_text())
    assert started, "the engine ran in processes of its own"
    deadline = time.monotonic() + 15
    alive = started
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in started if process_running(pid)]
        time.sleep(0.5)
    assert alive == [], f"engine processes left running after the script ended: {alive}"
