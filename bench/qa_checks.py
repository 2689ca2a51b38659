"""What the QA checks cost: a whole pipeline run over a generated catalog and over the samples'
documents, with the pseudo engine, with and without QA (every check on), and the checks alone
per answer.

    PYTHONPATH=. python bench/qa_checks.py [--rows 20000] [--repeat 3]

Times are CPU seconds of this process (other work on the machine does not count). The pseudo
engine answers in microseconds, so the pipeline figures are the pipeline's own cost:
with a model, the engine's time dwarfs both.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

from bench.catalog_gen import write_catalog
from hymt_cli.engine.pseudo import PseudoEngine, pseudo_localize
from hymt_cli.formats import FORMATS
from hymt_cli.formats.parquet import ParquetOptions
from hymt_cli.inputs.discovery import discover
from hymt_cli.model.tokenizer import EstimatingTokenizer
from hymt_cli.options import OptionSet
from hymt_cli.pipeline import Pipeline, RunPlan
from hymt_cli.qa import QaSuite
from hymt_cli.text.languages import language

SUFFIXES = {suffix: name for name, spec in FORMATS.items() for suffix in spec.suffixes}
ROOT = Path(__file__).resolve().parent.parent
COLUMNS = ("title", "body_html", "option1_value", "tags", "seo_description")


def pipeline_seconds(
    paths: list[Path], out: Path, *, qa: bool, columns: tuple[str, ...] = ()
) -> tuple[float, int]:
    settings = OptionSet([ParquetOptions(columns=columns)]) if columns else None
    sources, problems = discover([str(p) for p in paths], format_name=None, options=settings)
    assert not problems, problems
    options = RunPlan(targets=(language("de"),), out_dir=out, overwrite=True)
    pipeline = Pipeline(options, EstimatingTokenizer(), PseudoEngine, qa=QaSuite() if qa else None)
    started = time.process_time()
    report = pipeline.run(sources)
    assert not report.flag_counts, report.flag_counts
    return time.process_time() - started, report.unique_segments


def checks_per_answer(texts: list[str]) -> float:
    """Microseconds for every check on one (source, pseudo answer) pair."""
    suite = QaSuite()
    answers = [pseudo_localize(t) for t in texts]
    started = time.process_time()
    for text, answer in zip(texts, answers, strict=True):
        suite.check(text, answer, "de")
    return (time.process_time() - started) / len(texts) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        catalog = write_catalog(folder / "catalog.parquet", args.rows)
        docs = [
            p
            for p in sorted((ROOT / "samples").rglob("*"))
            if p.suffix in SUFFIXES and p.suffix != ".parquet"
        ]
        table = pq.read_table(catalog, columns=list(COLUMNS))
        texts = sorted(
            {v for c in table.columns for v in c.to_pylist() if v and any(ch.isalpha() for ch in v)}
        )
        print(
            f"checks alone: {checks_per_answer(texts):.0f} µs per answer ({len(texts):,} unique catalog "
            f"values)"
        )
        for name, paths, columns in (("catalog", [catalog], COLUMNS), ("samples", docs, ())):
            for qa in (False, True):
                runs = [
                    pipeline_seconds(paths, folder / f"out-{name}-{qa}-{i}", qa=qa, columns=columns)
                    for i in range(args.repeat)
                ]
                seconds = statistics.median(s for s, _ in runs)
                print(
                    f"{name}: pipeline {'with' if qa else 'without'} QA: {seconds:.2f} s "
                    f"({runs[0][1]:,} unique requests; median of {args.repeat})"
                )


if __name__ == "__main__":
    main()
