"""What context costs (issue 19): the repository's samples and a generated catalog planned with
`--context off`, `auto` and `on` (dry runs: no engine, no memory), side by side: segments, unique
requests and prompt tokens, each with its extra share over `off`.

    PYTHONPATH=. python bench/context_cost.py --rows 5000
    PYTHONPATH=. python bench/context_cost.py --rows 5000 --model /tmp/tiny --json out.json

Source tokens are the texts' own (from each prompt's output budget): the answers' length follows
them, and decoding the answers, not reading the prompts, is most of a GPU's work. Prompt tokens
are counted twice: with a real chat-template tokenizer (the tiny model's, `python -m
hymt_cli.model.tiny DIR`, built here when `--model` is not given: HY-MT1.5-1.8B's chat template,
but a BPE trained on synthetic text, so its counts are indicative, not HY-MT's), and with hymt's
EstimatingTokenizer (one token per 3 UTF-8 bytes, what a plan without a model counts).

Groups: documents (samples/docs, samples/site, samples/txt: Markdown, HTML, text), strings (the
string files of samples/app: JSON, ARB, YAML, TOML, properties, PO, XLIFF, Android, Apple), and
a catalog (bench/catalog_gen.py, `--rows` rows, columns title, body_html, option1_value and
seo_description as HTML cells; `--context-columns title,category` as a fourth line).
Not a test: seconds to a minute.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from catalog_gen import write_catalog  # noqa: E402

from hymt_cli.api import translate_files  # noqa: E402
from hymt_cli.formats import FORMATS, format_for_path  # noqa: E402

DOCUMENTS = ("samples/docs", "samples/site", "samples/txt")
STRINGS = "samples/app"
CATALOG = {
    "columns": ("title", "body_html", "option1_value", "seo_description"),
    "cell_format": "html",
}
TARGET = "de"


@dataclass(frozen=True)
class Case:
    group: str
    label: str  # the flags that differ
    files: tuple[str, ...]
    settings: dict[str, Any]


@dataclass(frozen=True)
class Plan:
    segments: int
    requests: int
    tokens: int  # prompt tokens, the tiny model's chat template
    source: int  # the texts' own tokens: what the answers' length follows (the decoding work)
    estimate: int  # prompt tokens, EstimatingTokenizer


def _files(folders: tuple[str, ...], keep: Any) -> tuple[str, ...]:
    found = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*")):
            fmt = format_for_path(path) if path.is_file() else None
            if fmt is not None and keep(FORMATS[fmt.name]):
                found.append(str(path))
    return tuple(found)


def cases(catalog: Path) -> list[Case]:
    documents = _files(DOCUMENTS, lambda spec: spec.document and not spec.context_by_default)
    strings = _files((STRINGS,), lambda spec: spec.document and spec.context_by_default)
    out = [Case("documents", f"--context {mode}", documents, {"context": mode}) for mode in ("off", "on")]
    out += [
        Case("strings", f"--context {mode}", strings, {"context": mode}) for mode in ("off", "auto", "on")
    ]
    table = (str(catalog),)
    out += [
        Case("catalog", f"--context {mode}", table, {**CATALOG, "context": mode}) for mode in ("off", "auto")
    ]
    out.append(Case("catalog", "--context on (title)", table, {**CATALOG, "context": "on"}))
    out.append(
        Case(
            "catalog",
            "--context-columns title,category",
            table,
            {**CATALOG, "context": "auto", "context_columns": ("title", "category")},
        )
    )
    return out


def plan(case: Case, model: Path | None, prompts: Path) -> tuple[int, int, int, int]:
    """(segments, unique requests, prompt tokens, source tokens) of a dry run: the tiny model's
    tokenizer with `model`, else the estimate (an engine that needs no model). Source tokens come
    from each prompt's output budget in `--prompts-out` (max_tokens = 3 x source + 32)."""
    engine = {"model": str(model)} if model is not None else {"engine": "identity"}
    report = translate_files(
        list(case.files),
        to=TARGET,
        dry_run=True,
        no_cache=True,
        quiet=True,
        prompts_out=prompts,
        **engine,
        **case.settings,
    )
    failed = [f.error for f in report.files if f.status == "failed"]
    if failed:
        raise SystemExit(f"{case.group} {case.label}: {failed[0]}")
    with prompts.open(encoding="utf-8") as lines:
        source = sum((json.loads(line)["max_tokens"] - 32) // 3 for line in lines)
    return report.segments, report.unique_segments, report.prompt_tokens, source


def _share(value: int, base: int) -> str:
    return f"{(value - base) / base:+.1%}" if base else "n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=5000, help="rows of the generated catalog")
    parser.add_argument("--model", type=Path, help="a tiny model's folder (built when not given)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        model = args.model
        if model is None:
            from hymt_cli.model.tiny import build_tiny_model

            model = build_tiny_model(Path(tmp) / "tiny")
        catalog = write_catalog(Path(tmp) / "catalog.parquet", args.rows)
        rows: list[tuple[Case, Plan]] = []
        for case in cases(catalog):
            prompts = Path(tmp) / "prompts.jsonl"
            segments, requests, tokens, source = plan(case, model, prompts)
            _, estimated_requests, estimate, _ = plan(case, None, prompts)
            assert estimated_requests == requests, "the same plan whatever the tokenizer"
            rows.append((case, Plan(segments, requests, tokens, source, estimate)))
    base = {case.group: figures for case, figures in rows if case.label == "--context off"}
    print(
        f"{'group':10} {'setting':33} {'segments':>8} {'requests':>8} {'extra':>7} {'prompt tok':>10} "
        f"{'extra':>7} {'per req':>7} {'source tok':>10} {'extra':>7} {'estimate':>9} {'extra':>7}"
    )
    for case, p in rows:
        b = base[case.group]
        print(
            f"{case.group:10} {case.label:33} {p.segments:>8,} {p.requests:>8,} "
            f"{_share(p.requests, b.requests):>7} {p.tokens:>10,} {_share(p.tokens, b.tokens):>7} "
            f"{p.tokens / max(1, p.requests):>7.1f} {p.source:>10,} {_share(p.source, b.source):>7} "
            f"{p.estimate:>9,} {_share(p.estimate, b.estimate):>7}"
        )
    files = {case.group: len(case.files) for case, _ in rows}
    print(f"files: {files}; catalog rows: {args.rows:,}; into {TARGET}")
    if args.json is not None:
        args.json.write_text(
            json.dumps(
                {
                    "rows": args.rows,
                    "target": TARGET,
                    "files": files,
                    "plans": [{"group": c.group, "setting": c.label, **p.__dict__} for c, p in rows],
                },
                indent=1,
            )
            + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
