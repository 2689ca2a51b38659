"""bench/summary.py's closing table: the GPU's busy share and its busy time per output token beside
each contender's speed, read from the GPU sampler's CSV over the pass's window (trace_summary)."""

from __future__ import annotations

from pathlib import Path

from summary import rows_of, table_text
from trace_summary import gpu_busy


def _figures(wall_s: float, output_tokens: int) -> dict:
    return dict(
        wall_s=wall_s,
        requests=100,
        prompt_tokens=2 * output_tokens,
        output_tokens=output_tokens,
        req_per_s=round(100 / wall_s, 2),
        prompt_tok_per_s=round(2 * output_tokens / wall_s),
        out_tok_per_s=round(output_tokens / wall_s),
    )


def test_the_table_shows_each_passes_gpu_share_and_time_per_token(tmp_path: Path) -> None:
    samples = tmp_path / "gpu-util.csv"
    # hymt's pass (t 100-110) keeps the GPU 90% busy, vLLM out of the box's (t 200-220) 45%
    rows = [f"{100 + t / 5:.1f},90,0" for t in range(51)]
    rows += [f"{200 + t / 5:.1f},45,0" for t in range(101)]
    rows.append("not,a,sample")
    samples.write_text("\n".join(rows) + "\n", encoding="utf-8")
    results = {
        "hymt": {
            "to-de:warm": _figures(10.0, 400_000),
            "gpu_busy": {"to-de:warm": gpu_busy(samples, 100.0, 110.0)},
            "engine_init_s": 20.0,
        },
        "vllm-oob": {
            "to-de": _figures(20.0, 400_000),
            "gpu_busy": {"to-de": gpu_busy(samples, 200.0, 220.0)},
            "engine_init_s": 60.0,
        },
        "hymt-cut": {"rc": "timeout", "gpu_busy": {}},
        "hymt-untraced": {"to-de:warm": _figures(10.0, 400_000)},
    }
    text = table_text(rows_of(results, "to-de"), None, 20_000)
    lines = {line[:34].strip(): line[34:].split() for line in text.splitlines()[2:]}
    hymt, oob = lines["hymt warm"], lines["vllm-oob"]
    # 90% of 10 s over 400,000 tokens: 22.5 us a token; 45% of 20 s: the same 22.5 us
    assert hymt[-2:] == ["90.0%", "22.5"]
    assert oob[-2:] == ["45.0%", "22.5"]
    assert hymt[4] == "2.00"  # twice as fast: the ratio of the busy shares, at equal GPU time a token
    assert lines["hymt-cut"] == ["(no", "figure:", "rc=timeout)"]
    assert lines["hymt-untraced warm"][-2:] == ["-", "-"]  # no samples: no share, no invented figure
