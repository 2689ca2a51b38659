"""bench/run.py's closing report: one table per job, start-up, and the last line of ratios."""

from __future__ import annotations

import json
from pathlib import Path

from common import OUTPUT_FACTOR

_META = ("jobs", "preset", "model", "date", "python", "vllm_version", "argv", "ratios", "tables")


def pick(result: dict, key: str) -> dict | None:
    value = result.get(key)
    return value if isinstance(value, dict) and "out_tok_per_s" in value else None


Row = tuple[str, dict | None, dict, str]  # label, figures, contender result, its key (job or job:pass)


def rows_of(results: dict, job: str) -> list[Row]:
    """(label, figures, contender result, key) for every contender's passes of `job`."""
    rows: list[Row] = []
    for name, result in results.items():
        if name in _META or not isinstance(result, dict) or result.get("rc") == "skipped":
            continue
        passes = [k for k in result if k.startswith(f"{job}:")]
        if passes:
            rows += [(f"{name} {k.split(':', 1)[1]}", pick(result, k), result, k) for k in passes]
        else:
            rows.append((name, pick(result, job), result, job))
    return rows


def gpu_share(meta: dict, key: str, run: dict) -> tuple[str, str]:
    """The GPU's busy share over the pass and its busy microseconds per output token (run.py's
    --trace with bench/gpu_sampler.py): where two set-ups need the same GPU time per token, their
    speed ratio is the ratio of their busy shares, i.e. the host's (bench/RESULTS.md, issue 37)."""
    busy = (meta.get("gpu_busy") or {}).get(key) or {}
    mean = busy.get("mean") if isinstance(busy, dict) else None
    if not isinstance(mean, (int, float)) or not run.get("output_tokens"):
        return "-", "-"
    per_token = mean / 100 * run["wall_s"] / run["output_tokens"] * 1e6
    return f"{mean:.1f}%", f"{per_token:.1f}"


def table_text(rows: list[Row], bare: float | None, oob: float | None) -> str:
    head = (
        f"{'contender (fixed output lengths)':<34} {'req/s':>8} {'prompt tok/s':>12} {'out tok/s':>10} "
        f"{'vs bare':>8} {'vs oob':>7} {'start s':>8} {'GPU MiB':>8} {'GPU busy':>8} {'GPU us/tok':>10}"
    )
    out = [head, "-" * len(head)]
    for label, run, meta, key in rows:
        if run is None:
            out.append(f"{label:<34} (no figure: rc={meta.get('rc')})")
            continue
        vs_bare = f"{run['out_tok_per_s'] / bare:.3f}" if bare else "-"
        vs_oob = f"{run['out_tok_per_s'] / oob:.2f}" if oob else "-"
        start = meta.get("engine_init_s", meta.get("load_s", "-"))
        busy, per_token = gpu_share(meta, key, run)
        out.append(
            f"{label:<34} {run['req_per_s']:>8} {run['prompt_tok_per_s']:>12} {run['out_tok_per_s']:>10} "
            f"{vs_bare:>8} {vs_oob:>7} {start!s:>8} {meta.get('gpu_mem_mib') or '-'!s:>8} "
            f"{busy:>8} {per_token:>10}"
        )
    return "\n".join(out)


def summarize(results: dict, jobs: list[dict], base: dict, json_path: Path | None) -> None:
    """Print the tables, start-up lines and the last line of ratios; write the JSON."""
    tables = {}
    for job in jobs:
        name, s = job["name"], job["summary"]
        bare = pick(results.get("vllm", {}), name)
        oob = pick(results.get("vllm-oob", {}), name)
        rows = rows_of(results, name)
        text = table_text(
            rows, bare["out_tok_per_s"] if bare else None, oob["out_tok_per_s"] if oob else None
        )
        tables[name] = text
        print()
        size = ", ".join(f"{k} {s[k]}" for k in ("docs", "products", "catalog_rows") if k in s)
        print(
            f"job {name} ({s['job']}: {size} -> {s['targets']}): {s['segments']} segments, "
            f"{s['unique']} unique "
            f"requests, {s['prompt_tokens']:,} prompt tokens, {s['output_tokens']:,} output tokens (fixed, "
            f"{OUTPUT_FACTOR}x source, ignore_eos; p50/p90/p99/max per request "
            f"{s.get('output_tokens_p50_p90_p99_max')})"
        )
        print(text)
    results["tables"] = tables
    hymt = results.get("hymt", {})
    cold = hymt.get("cold")
    if cold:
        print(
            f"cold start (hymt, {hymt.get('engines', '?')} engine(s)): first engine ready "
            f"{cold['ready_from_launch_s']} s "
            f"after launch, first answer {cold['first_answer_from_launch_s']} s, first file "
            f"{cold['first_file_from_launch_s']} s, last file {cold['launch_to_last_file_s']} s; "
            "all engines ready "
            f"{hymt.get('all_ready_s', '-')} s"
        )
    for phase_time, name in hymt.get("phases", []):
        print(f"  phase at {phase_time:>7.2f} s: {name}")
    for name, result in results.items():
        if name in _META or name == "hymt" or not isinstance(result, dict):
            continue
        if result.get("cold"):
            c = result["cold"]
            print(
                f"cold start ({name}): ready {c['ready_from_launch_s']} s, "
                f"first file {c['first_file_from_launch_s']} s, "
                f"last file {c['launch_to_last_file_s']} s after launch"
            )
        elif "engine_init_s" in result:
            print(
                f"start-up ({name}): engine {result['engine_init_s']} s, "
                f"ready {result.get('ready_from_launch_s', '-')} s "
                f"after launch"
            )

    def ratio(a: dict | None, b: dict | None) -> float:
        return a["out_tok_per_s"] / b["out_tok_per_s"] if a and b else float("nan")

    first = jobs[0]["name"]
    warm = pick(hymt, f"{first}:warm")
    bare, oob, hf = (pick(results.get(n, {}), first) for n in ("vllm", "vllm-oob", "hf"))
    one = pick(results.get("hymt-1", {}), f"{first}:warm")
    ratios = dict(
        hymt_vllm=ratio(warm, bare),
        vllm_transformers=ratio(bare, hf),
        hymt_vllm_oob=ratio(warm, oob),
        gpus2_gpus1=ratio(warm, one),
        real_vllm_oob=ratio(pick(hymt, f"{first}:real"), oob),
    )
    for job in jobs:
        ratios[f"{job['name']}_hymt_oob"] = ratio(
            pick(hymt, f"{job['name']}:warm"), pick(results.get("vllm-oob", {}), job["name"])
        )
    if cold and "vllm-oob" in results:
        o = results["vllm-oob"]
        if o.get("ready_from_launch_s") and o.get(first):
            ratios["cold_job_s_hymt_oob"] = [
                cold["launch_to_last_file_s"],
                round(o["ready_from_launch_s"] + o[first]["wall_s"], 2),
            ]
    results["ratios"] = ratios
    print(
        "ratios: "
        + ", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in ratios.items())
    )
    if json_path:
        json_path.write_text(json.dumps(results, indent=1, default=str))
    print(
        f"ratio hymt/vllm={ratios['hymt_vllm']:.3f} vllm/transformers={ratios['vllm_transformers']:.1f} "
        f"hymt/vllm-oob={ratios['hymt_vllm_oob']:.3f} gpus2/gpus1={ratios['gpus2_gpus1']:.3f}"
    )
