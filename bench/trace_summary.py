"""Batch size over time, from the step traces of vLLM engines (hymt_cli/engine/vllm_trace.py).

Every engine process of a contender writes `steps-<pid>.jsonl` (one line per engine step:
wall time, requests in the step, requests finished, the front end's wait and processing
times). For one measured pass (its start and end on the wall clock) this gives, per second,
the requests all engines carried together, and the shape of the job's end: how long the
engines ran below half of their peak batch (the tail), and how many output tokens that tail
produced.
"""

from __future__ import annotations

import json
from pathlib import Path


def read_steps(folder: Path) -> dict[str, list[dict]]:
    """Steps by engine process (file name)."""
    steps: dict[str, list[dict]] = {}
    for path in sorted(folder.glob("steps-*.jsonl")):
        rows = []
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rows.append(json.loads(line))
            except ValueError:  # a line cut by a kill
                continue
        steps[path.stem] = rows
    return steps


def profile(folder: Path, start: float, end: float, *, bucket_s: float = 1.0) -> dict:
    """The pass between `start` and `end` (wall clock): per-bucket batch sizes, tail figures."""
    by_engine = {
        name: [s for s in rows if start <= s["t"] <= end + 1.0] for name, rows in read_steps(folder).items()
    }
    by_engine = {name: rows for name, rows in by_engine.items() if rows}
    if not by_engine:
        return {}
    buckets = max(1, int((end - start) / bucket_s) + 1)
    batch = [0.0] * buckets  # mean requests per step, summed over engines
    tokens = [0] * buckets  # tokens generated (one per request per step)
    steps = [0] * buckets
    engines = {}
    for name, rows in by_engine.items():
        per = [[0, 0] for _ in range(buckets)]  # steps, requests
        for s in rows:
            i = min(buckets - 1, int((s["t"] - start) / bucket_s))
            per[i][0] += 1
            per[i][1] += s["n"]
            tokens[i] += s["n"]
            steps[i] += 1
        for i, (count, requests) in enumerate(per):
            if count:
                batch[i] += requests / count
        waits = [s["wait"] for s in rows]
        procs = [s["proc"] for s in rows]
        last_full = max((s["t"] for s in rows if s["n"] >= 0.5 * max(r["n"] for r in rows)), default=start)
        engines[name] = dict(
            steps=len(rows),
            peak=max(s["n"] for s in rows),
            mean_batch=round(sum(s["n"] for s in rows) / len(rows), 1),
            step_ms=round(1000 * (rows[-1]["t"] - rows[0]["t"]) / max(1, len(rows) - 1), 2),
            front_end_busy=round(sum(procs) / max(1e-9, sum(waits) + sum(procs)), 3),
            first_s=round(rows[0]["t"] - start, 2),
            last_s=round(rows[-1]["t"] - start, 2),
            below_half_after_s=round(last_full - start, 2),
        )
    peak = max(batch)
    below = [i for i, b in enumerate(batch) if b < 0.5 * peak and tokens[i]]
    last_high = max((i for i, b in enumerate(batch) if b >= 0.5 * peak), default=0)
    tail = range(last_high + 1, buckets)
    total = sum(tokens)
    return dict(
        bucket_s=bucket_s,
        batch=[round(b) for b in batch],
        tokens=tokens,
        peak_batch=round(peak),
        engines=engines,
        tail_s=round(len(tail) * bucket_s, 1),
        tail_tokens_share=round(sum(tokens[i] for i in tail) / max(1, total), 4),
        seconds_below_half=round(len(below) * bucket_s, 1),
    )


def describe(name: str, prof: dict) -> str:
    """Two lines for the log: the batch profile in tenths of the pass, and the tail."""
    if not prof:
        return f"{name}: no trace"
    batch = prof["batch"]
    tenth = max(1, len(batch) // 10)
    shape = " ".join(
        str(round(sum(batch[i : i + tenth]) / len(batch[i : i + tenth]))) for i in range(0, len(batch), tenth)
    )
    engines = "; ".join(
        f"{e['steps']} steps, {e['step_ms']} ms/step, mean batch {e['mean_batch']}, peak {e['peak']}, "
        f"front end busy {e['front_end_busy']:.0%}, last step at {e['last_s']} s"
        for e in prof["engines"].values()
    )
    return (
        f"{name}: batch (all engines) per tenth of the pass: {shape}; peak {prof['peak_batch']}; "
        f"tail below half the peak: {prof['tail_s']} s, {prof['tail_tokens_share']:.1%} of the tokens\n"
        f"  engines: {engines}"
    )
