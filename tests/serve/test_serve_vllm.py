"""`hymt serve` with the real vLLM CPU engine and the tiny answering model, as a user runs it: the
server starts in the background, a shell pipeline's translation goes through it (one line says
so), another user is refused, and it stops by itself once idle. One engine start (tens of
seconds on CPU)."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import hymt
from serve_helpers import as_other_user, can_switch_user, env_of, records, serve_cache, wait_gone

pytestmark = pytest.mark.vllm
ENGINE = ("--model", "{model}", "--dtype", "float32", "--enforce-eager", "--max-model-len", "512")


def test_a_pipeline_goes_through_the_served_engine_until_it_is_idle(answering_model_dir: Path) -> None:
    pytest.importorskip("vllm")
    engine = [flag.format(model=answering_model_dir) for flag in ENGINE]
    with serve_cache() as cache:
        started = hymt("serve", *engine, "--serve-idle", "0.5", env=env_of(cache), text=True, timeout=600)
        assert started.returncode == 0, started.stderr
        assert f"serving vllm ({answering_model_dir}), pid " in started.stderr
        (record,) = records(cache)

        for text in (b"Hello\n", b"Good morning\n"):
            run = hymt(
                "translate", "-", "--format", "txt", "--to", "de", *engine, stdin=text, env=env_of(cache)
            )
            stderr = run.stderr.decode()
            assert run.returncode == 0, stderr
            assert stderr.startswith(f"hymt: using the engine of hymt serve (pid {record['pid']}"), stderr
            assert run.stdout.strip() and run.stdout != text  # the model's answer, not the source kept
            assert "importing vLLM" not in stderr  # no engine of its own

        if can_switch_user():
            assert as_other_user(record) == {"connect": "PermissionError"}

        # 30 s without a request: the server stops, its engine processes with it
        assert wait_gone(record["pid"], timeout=240), "the idle server still runs"
        assert records(cache) == [] and not Path(record["socket"]).exists()
