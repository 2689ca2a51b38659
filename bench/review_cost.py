"""Benchmark: what the review page costs a run. A generated catalog through the pipeline with the
pseudo engine, without and with the per-segment records, each in a child process; prints the
run's time and peak memory, the page's writing time and size.

    PYTHONPATH=. python bench/review_cost.py --rows 200000

The records are spooled to a temporary file as units finish: the peak memory should not grow
with them (compare the two lines).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from catalog_gen import write_catalog

COLUMNS = ("title", "body_html", "option1_value", "option2_value", "category")


def child(src: Path, out: Path, review: bool) -> dict[str, float]:
    """One run in this process: seconds, segments, and the page's seconds and bytes."""
    from hymt_cli.engine.pseudo import PseudoEngine
    from hymt_cli.formats import ParquetOptions
    from hymt_cli.inputs.discovery import discover
    from hymt_cli.model.tokenizer import EstimatingTokenizer
    from hymt_cli.options import OptionSet
    from hymt_cli.pipeline import Pipeline, RunPlan
    from hymt_cli.review import RecordSpool, write_page
    from hymt_cli.text.languages import language

    settings = OptionSet([ParquetOptions(columns=COLUMNS, cell_format="html")])
    sources, problems = discover([str(src)], format_name=None, options=settings)
    assert not problems, problems
    options = RunPlan(targets=(language("fr"),), out_dir=out)
    spool = RecordSpool() if review else None
    t0 = time.monotonic()
    report = Pipeline(options, EstimatingTokenizer(), PseudoEngine, review=spool).run(sources)
    figures = {"run_s": time.monotonic() - t0, "segments": report.segments, "unique": report.unique_segments}
    if spool is not None:
        page = out / "review.html"
        t0 = time.monotonic()
        write_page(page, report, spool, started="bench")
        figures.update(
            page_s=time.monotonic() - t0,
            page_mb=page.stat().st_size / 1e6,
            records=sum(spool.counts(f).segments for f in report.files),
        )
        spool.close()
    figures["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "hymt-bench")
    parser.add_argument("--child", choices=("with", "without"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    src = args.workdir / f"catalog-{args.rows}.parquet"
    if args.child:
        print(json.dumps(child(src, args.workdir / f"out-{args.child}", args.child == "with")))
        return
    args.workdir.mkdir(parents=True, exist_ok=True)
    if not src.exists():
        write_catalog(src, args.rows)
    for variant in ("without", "with"):
        done = subprocess.run(
            [
                sys.executable,
                __file__,
                "--rows",
                str(args.rows),
                "--workdir",
                str(args.workdir),
                "--child",
                variant,
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        figures = json.loads(done.stdout.splitlines()[-1])
        line = (
            f"{variant:>7} records: {args.rows:,} rows, {figures['unique']:,} unique segments, "
            f"run {figures['run_s']:.1f} s, peak RSS {figures['peak_mib']:.0f} MiB"
        )
        if variant == "with":
            line += (
                f"; {figures['records']:,} records, page written in {figures['page_s']:.1f} s, "
                f"{figures['page_mb']:.1f} MB"
            )
        print(line)


if __name__ == "__main__":
    main()
