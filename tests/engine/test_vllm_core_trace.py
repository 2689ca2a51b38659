"""The benchmarks' engine-core trace (vllm_trace.core_trace_installed): with HYMT_VLLM_TRACE set,
vLLM's engine core records each step's phases, and bench/trace_summary.py splits them into
decode-only and mixed steps. The core runs in the engine's own process here
(VLLM_ENABLE_V1_MULTIPROCESSING=0): on a CPU vLLM spawns its core, which the trace does not reach
(on a GPU it forks it, and the core inherits the trace)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("vllm")

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.vllm
def test_the_engine_core_records_its_steps(tiny_model_dir: Path, tmp_path: Path) -> None:
    code = textwrap.dedent(
        f"""
        from hymt_cli.engine.base import EngineOptions, GenerationRequest, Sampling
        from hymt_cli.engine.vllm_engine import VllmEngine
        from hymt_cli.engine.vllm_options import VllmOptions
        if __name__ == "__main__":
            options = EngineOptions(model={str(tiny_model_dir)!r}, dtype="float32",
                                    vllm=VllmOptions(enforce_eager=True), extra={{"max_num_seqs": 8}})
            engine = VllmEngine(options, Sampling(), ignore_eos=True)
            requests = [GenerationRequest("", tuple(range(5, 9 + i)), 4 + i % 5) for i in range(24)]
            assert [g.output_tokens for g in engine.generate(requests)] == [r.max_tokens for r in requests]
            engine.close()
        """
    )
    env = dict(os.environ, HYMT_VLLM_TRACE=str(tmp_path / "trace"), VLLM_ENABLE_V1_MULTIPROCESSING="0")
    env["PYTHONPATH"] = str(REPO)
    subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, check=True, timeout=600)
    files = list((tmp_path / "trace").glob("core-*.jsonl"))
    assert len(files) == 1
    rows = [json.loads(line) for line in files[0].read_text().splitlines()]
    assert rows and all(r["step"] >= r.get("sched", 0) for r in rows)
    assert {"sched", "exec", "update", "reqs", "tokens", "new"} <= set().union(*rows)
    assert max(r["reqs"] for r in rows) == 8  # max_num_seqs
    assert sum(r["new"] for r in rows) >= 24  # every request started once (warm-up ones too)
    from trace_summary import core_profile

    profile = core_profile(tmp_path / "trace", rows[0]["t"] - 1, rows[-1]["t"] + 1)[files[0].stem]
    assert profile["all"]["steps"] == len([r for r in rows if r["reqs"] > 0])
    assert profile["mixed"]["steps"] >= 1 and profile["decode"]["steps"] >= 1
    assert 0 < profile["mixed_share"] < 1
    # the engine's sampler says which path sampled its steps (hymt's, on a CPU)
    (note,) = (tmp_path / "trace").glob("sampler-*.json")
    counts = json.loads(note.read_text())
    assert counts["topk_first"] >= 8 and counts["topk_first"] > counts["vllm"]
