"""Ray's overhead per unique request: the same catalog through the local identity engine and
through `--ray` (identity engines on Ray workers of a local instance), side by side.

The identity engine does no work, so what the Ray path adds is all there is to see: shipping
requests to the workers and answers back (pickling, the object store, scheduling). Figures are
hymt end to end (planning, checks, writing) and the engine's own share (`engine_seconds` of the
report), with warm workers (their start is reported apart).

    python bench/ray_overhead.py --rows 20000          # on the 2-core machine: ~2 minutes
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

COLUMNS = ("title", "body_html", "option1_value")


class Kept:
    """The engine stays up across runs (the pipeline closes its engine at the end of a run)."""

    def __init__(self, inner) -> None:
        self.inner, self.name, self.limits, self.retries = inner, inner.name, inner.limits, 0

    def generate(self, requests):
        return self.inner.generate(requests)

    def generate_stream(self, requests):
        return self.inner.generate_stream(requests)

    def close(self) -> None:
        pass


def run(src: Path, out: Path, engine) -> dict:
    from hymt_cli.formats import ParquetOptions
    from hymt_cli.inputs.discovery import discover
    from hymt_cli.model.tokenizer import EstimatingTokenizer
    from hymt_cli.options import OptionSet
    from hymt_cli.pipeline import Pipeline, RunPlan
    from hymt_cli.text.languages import parse_language_list

    sources, problems = discover(
        [str(src)], format_name=None, options=OptionSet([ParquetOptions(columns=COLUMNS)])
    )
    assert not problems
    options = RunPlan(targets=tuple(parse_language_list("fr,de")), out_dir=out, engine_name="identity")
    t0 = time.monotonic()
    report = Pipeline(options, EstimatingTokenizer(), lambda: engine).run(sources)
    wall = time.monotonic() - t0
    assert report.files_ok == 2 and report.engine_requests == report.unique_segments
    return dict(
        wall_s=round(wall, 3), engine_s=round(report.engine_seconds, 3), unique=report.unique_segments
    )


def engine_only(engine, requests, repeat: int) -> float:
    """Seconds to stream every answer back, the pipeline left out (best of `repeat`)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.monotonic()
        got = sum(1 for _ in engine.generate_stream(requests))
        best = min(best, time.monotonic() - t0)
        assert got == len(requests)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--workers", default="1,2", help="Ray worker counts to measure")
    parser.add_argument("--chunk", type=int, default=256, help="requests per worker call")
    parser.add_argument("--repeat", type=int, default=2, help="runs per contender (the best is kept)")
    args = parser.parse_args()
    from catalog_gen import write_catalog

    from hymt_cli.engine import ENGINES, EngineOptions, EngineSetup, Sampling
    from hymt_cli.engine.identity import IdentityEngine
    from hymt_cli.engine.ray_engine import RayCluster, RayEngine, RayOptions

    work = Path(tempfile.mkdtemp(prefix="hymt-ray-bench-"))
    src = write_catalog(work / "catalog.parquet", args.rows, row_group_rows=8192)
    import pyarrow.parquet as pq

    from hymt_cli.engine.base import GenerationRequest

    table = pq.read_table(src, columns=list(COLUMNS))
    texts = sorted({v for c in COLUMNS for v in table.column(c).to_pylist() if v and v.strip()})
    requests = [GenerationRequest(t, (), 64) for t in texts for _ in ("fr", "de")]
    bare: list[tuple[str, float]] = [("local identity", engine_only(IdentityEngine(), requests, args.repeat))]
    rows: list[tuple[str, dict]] = []
    local = min(
        (run(src, work / f"local{i}", Kept(IdentityEngine())) for i in range(args.repeat)),
        key=lambda r: r["wall_s"],
    )
    rows.append(("local identity", local))
    t0 = time.monotonic()
    cluster = RayCluster.connect("")
    init_s = round(time.monotonic() - t0, 1)
    setup = EngineSetup(EngineOptions(model="none"), Sampling.deterministic())
    try:
        for workers in (int(w) for w in args.workers.split(",")):
            t0 = time.monotonic()
            engine = RayEngine(
                cluster,
                ENGINES["identity"].build,
                setup,
                RayOptions(workers=workers, cpus_per_worker=0.5, chunk_requests=args.chunk),
                name="identity",
            )
            start_s = round(time.monotonic() - t0, 1)
            try:
                bare.append((f"ray, {workers} worker(s)", engine_only(engine, requests, args.repeat)))
                best = min(
                    (run(src, work / f"ray{workers}-{i}", Kept(engine)) for i in range(args.repeat)),
                    key=lambda r: r["wall_s"],
                )
            finally:
                engine.close()
            rows.append((f"ray, {workers} worker(s)", dict(best, workers_start_s=start_s)))
    finally:
        cluster.close()

    print(f"engine calls alone: {len(requests)} requests (the catalog's texts x 2 languages), one call each")
    print(f"{'path':<22} {'seconds':>8} {'us/request':>11} {'overhead us/req':>16} {'ratio':>7}")
    for name, seconds in bare:
        print(
            f"{name:<22} {seconds:>8.3f} {1e6 * seconds / len(requests):>11.1f} "
            f"{1e6 * (seconds - bare[0][1]) / len(requests):>16.1f} {seconds / bare[0][1]:>7.1f}"
        )
    print()
    unique = local["unique"]
    print(
        f"catalog: {args.rows} rows x 2 languages, {unique} unique requests, chunks of {args.chunk}; "
        f"ray.init {init_s} s"
    )
    print(
        f"{'path':<22} {'wall s':>8} {'engine s':>9} {'us/request':>11} {'overhead us/req':>16} "
        f"{'wall ratio':>11} {'engine ratio':>13} {'workers start s':>16}"
    )
    for name, r in rows:
        per = 1e6 * r["engine_s"] / unique
        over = 1e6 * (r["engine_s"] - local["engine_s"]) / unique
        print(
            f"{name:<22} {r['wall_s']:>8} {r['engine_s']:>9} {per:>11.1f} {over:>16.1f} "
            f"{r['wall_s'] / local['wall_s']:>11.2f} {r['engine_s'] / max(local['engine_s'], 1e-9):>13.1f} "
            f"{r.get('workers_start_s', '-')!s:>16}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
