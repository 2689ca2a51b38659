"""Batch size over time, from the step traces of vLLM engines (hymt_cli/engine/vllm_trace.py).

Every engine process of a contender writes `steps-<pid>.jsonl` (one line per engine step:
wall time, requests in the step, requests finished, the front end's wait and processing
times). For one measured pass (its start and end on the wall clock) this gives, per second,
the requests all engines carried together, and the shape of the job's end: how long the
engines ran below half of their peak batch (the tail), and how many output tokens that tail
produced.

Every engine core writes `core-<pid>.jsonl` (one line per step of vLLM's engine-core loop: the
seconds spent scheduling, launching the forward pass and the sampler, taking the tokens in, and in
all). `core_profile` says where a pass's steps went: the host's phases, waiting for the GPU, and
decode-only steps against steps that also prefill. `gpu_busy` reads the GPU's utilization samples
(nvidia-smi's share of time a kernel ran) for the same window.
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


def read_core(folder: Path) -> dict[str, list[dict]]:
    """Engine-core steps by process (file name)."""
    steps: dict[str, list[dict]] = {}
    for path in sorted(folder.glob("core-*.jsonl")):
        rows = []
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rows.append(json.loads(line))
            except ValueError:
                continue
        steps[path.stem] = rows
    return steps


_PHASES = ("sched", "exec", "sample", "update")


def _phase_means(rows: list[dict]) -> dict:
    n = max(1, len(rows))
    means = {p: round(1000 * sum(r.get(p, 0.0) for r in rows) / n, 3) for p in _PHASES}
    step = sum(r["step"] for r in rows) / n
    host = sum(means.values()) / 1000
    return dict(
        steps=len(rows),
        step_ms=round(1000 * step, 3),
        **{f"{p}_ms": v for p, v in means.items()},
        other_ms=round(1000 * max(0.0, step - host), 3),
        reqs=round(sum(r.get("reqs", 0) for r in rows) / n, 1),
        tokens=round(sum(r.get("tokens", 0) for r in rows) / n, 1),
    )


def core_profile(folder: Path, start: float, end: float) -> dict:
    """Per engine core, for the steps between `start` and `end` (wall clock): the mean step and its
    phases (ms), for all steps, for decode-only steps (as many tokens as requests) and for mixed
    ones (prefill too); the share of steps that are mixed; and the busy loop's own share of the
    wall time (the rest: the core waited for requests)."""
    out = {}
    for name, rows in read_core(folder).items():
        rows = [r for r in rows if start <= r["t"] <= end and r.get("reqs", 0) > 0]
        if not rows:
            continue
        decode = [r for r in rows if r.get("tokens", 0) <= r.get("reqs", 0)]
        mixed = [r for r in rows if r.get("tokens", 0) > r.get("reqs", 0)]
        span = max(1e-9, rows[-1]["t"] - rows[0]["t"])
        out[name] = dict(
            all=_phase_means(rows),
            decode=_phase_means(decode),
            mixed=_phase_means(mixed),
            mixed_share=round(len(mixed) / len(rows), 3),
            loop_busy=round(sum(r["step"] for r in rows) / span, 3),
            tokens_per_s=round(sum(r.get("reqs", 0) for r in rows) / span),
        )
    return out


def describe_core(name: str, prof: dict) -> str:
    if not prof:
        return f"{name}: no engine-core trace"
    lines = [f"{name}: engine core, ms per step (sched/exec/sample/update/rest=GPU wait):"]
    for core, p in prof.items():
        for kind in ("all", "decode", "mixed"):
            q = p[kind]
            lines.append(
                f"  {core} {kind:<6} {q['steps']:>5} steps {q['step_ms']:>7} ms = {q['sched_ms']} / "
                f"{q['exec_ms']} / {q['sample_ms']} / {q['update_ms']} / {q['other_ms']}, "
                f"{q['reqs']} reqs, {q['tokens']} tokens"
            )
        lines.append(
            f"  {core} mixed steps {p['mixed_share']:.0%}, loop busy {p['loop_busy']:.0%}, "
            f"{p['tokens_per_s']} decode tokens/s"
        )
    return "\n".join(lines)


def gpu_busy(samples: Path, start: float, end: float) -> dict:
    """The GPU's utilization over the window, from `gpu_sampler.py`'s CSV (unix time, percent)."""
    values = []
    try:
        text = samples.read_text(encoding="utf-8")
    except OSError:
        return {}
    for line in text.splitlines():
        parts = line.split(",")
        try:
            t, util = float(parts[0]), float(parts[1])
        except (ValueError, IndexError):
            continue
        if start <= t <= end:
            values.append(util)
    if not values:
        return {}
    values.sort()
    return dict(
        samples=len(values),
        mean=round(sum(values) / len(values), 1),
        p10=values[len(values) // 10],
        p50=values[len(values) // 2],
    )
