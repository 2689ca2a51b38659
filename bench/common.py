"""What bench/run.py, bench/contenders.py and bench/served.py share: the job's plan (hymt's own
prompts), the sources, the pipeline, the engine wrapper that fixes output lengths, figures."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

GENERATED_COLUMNS = ("title", "body_html")  # catalog_gen.py's catalog
GLOSSARIES = ["glossaries/brand.json", "glossaries/product-terms.tsv", "glossaries/ui-labels.csv"]
OUTPUT_FACTOR = 1.1  # a translation about as long as its source


def fixed_output_tokens(source_tokens: int) -> int:
    return max(1, round(OUTPUT_FACTOR * source_tokens))


def plan(spec: dict) -> dict:
    """hymt's own plan of the job (dry run): the prompts every contender gets."""
    t0 = time.monotonic()
    requests: list = []
    pipeline = make_pipeline(
        spec,
        out_dir=Path(spec["work"]) / f"dry-{spec.get('job', 'job')}",
        engine_factory=None,
        dry_run=True,
        on_planned=requests.extend,
    )
    report = pipeline.run(sources(spec))
    table = [
        dict(ids=r.prompt_ids, out=fixed_output_tokens(r.source_tokens), answer=well_formed_answer(r))
        for r in requests
    ]
    outs = sorted(t["out"] for t in table)
    return dict(
        table=table,
        segments=report.segments,
        unique=len(requests),
        files=len({f.input for f in report.files}),
        plan_s=round(time.monotonic() - t0, 3),
        prompt_tokens=sum(len(t["ids"]) for t in table),
        output_tokens=sum(outs),
        output_tokens_p50_p90_p99_max=[
            outs[len(outs) // 2],
            outs[int(0.9 * len(outs))],
            outs[int(0.99 * len(outs))],
            outs[-1],
        ]
        if outs
        else [],
    )


def well_formed_answer(request) -> str:
    """What a working model would answer, as far as the checks can tell: the segment with its
    tags and do-not-translate placeholders, and every glossary target term."""
    text = request.model_text
    if request.glossary is not None:
        extra = [e.target for e in request.glossary.expected if not e.dnt]
        if extra:
            text = text + " " + " ".join(extra)
    return text


def sources(spec: dict):
    from hymt_cli.formats import ParquetOptions, TextOptions
    from hymt_cli.inputs.discovery import discover
    from hymt_cli.options import OptionSet

    columns = tuple(spec.get("columns") or GENERATED_COLUMNS)
    options = OptionSet([TextOptions(), ParquetOptions(columns=columns, cell_format="html")])
    found, problems = discover([spec["docs_dir"]], format_name=None, options=options)
    assert not problems, problems
    return found


def make_pipeline(
    spec: dict,
    *,
    out_dir: Path,
    engine_factory,
    dry_run: bool = False,
    progress=None,
    on_planned=None,
    submit_bucket="default",
    long_first: bool = True,
):
    from hymt_cli.glossary import load_glossaries
    from hymt_cli.model.tokenizer import ChatTemplateTokenizer
    from hymt_cli.pipeline import Pipeline, RunPlan
    from hymt_cli.pipeline.engine_start import EngineLease
    from hymt_cli.text.languages import parse_language_list

    tokenizer = spec.get("_tokenizer") or ChatTemplateTokenizer.load(spec["model"])
    spec["_tokenizer"] = tokenizer
    options = RunPlan(
        targets=tuple(parse_language_list(spec["targets"])),
        out_dir=out_dir,
        dry_run=dry_run,
        long_first=long_first,
        engine_name="vllm",
        model=spec["model"],
        glossary=load_glossaries([REPO / g for g in GLOSSARIES]),
    )
    if submit_bucket != "default":
        options = replace(options, submit_bucket=submit_bucket)
    return Pipeline(
        options,
        tokenizer,
        EngineLease(engine_factory, enabled=not dry_run),
        progress=progress,
        on_planned=on_planned,
    )


class BenchEngine:
    """Wraps hymt's engine: fixed output lengths, well-formed answers (see run.py's doc)."""

    name = "vllm"

    def __init__(self, inner, table: list[dict]) -> None:
        self.inner = inner
        self.by_ids = {tuple(t["ids"]): t for t in table}
        self.limits = inner.limits
        self.requests = 0
        self.first_answer: float | None = None

    @property
    def retries(self) -> int:
        return self.inner.retries

    def _fixed(self, requests):
        from hymt_cli.engine.base import GenerationRequest

        rows = [self.by_ids[tuple(r.prompt_token_ids)] for r in requests]
        return rows, [
            GenerationRequest(r.source_text, r.prompt_token_ids, row["out"], r.deterministic)
            for r, row in zip(requests, rows)
        ]

    def _answer(self, row, generation):
        from hymt_cli.engine.base import Generation

        assert generation.output_tokens == row["out"], (generation.output_tokens, row["out"])
        if self.first_answer is None:
            self.first_answer = time.time()
        return Generation(row["answer"], "stop", generation.output_tokens)

    def early_room(self) -> int:
        inner = getattr(self.inner, "early_room", None)
        return inner() if inner is not None else 0

    def send_early(self, requests) -> None:  # as hymt's own engine takes them, lengths fixed
        if hasattr(self.inner, "send_early"):
            self.inner.send_early(self._fixed(requests)[1])

    def generate_stream(self, requests):
        rows, fixed = self._fixed(requests)
        self.requests += len(requests)
        for index, generation in self.inner.generate_stream(fixed):
            yield index, self._answer(rows[index], generation)

    def generate(self, requests):
        rows, fixed = self._fixed(requests)
        self.requests += len(requests)
        return [self._answer(row, g) for row, g in zip(rows, self.inner.generate(fixed))]

    def close(self) -> None:  # the worker closes the real engine at its end
        pass


class FileClock:
    """Progress sink recording when the first and the last document were written."""

    def __init__(self) -> None:
        self.first: float | None = None
        self.last: float | None = None
        self.files = 0

    def planned(self, **_: int) -> None: ...
    def advanced(self, **_: int) -> None: ...
    def phase(self, name: str) -> None: ...

    def file_done(self, output: str | None = None) -> None:
        now = time.time()
        self.first = self.first or now
        self.last = now
        self.files += 1


def figures(wall: float, table, out_tokens: int, **extra) -> dict:
    prompt_tokens = sum(len(t["ids"]) for t in table)
    return dict(
        wall_s=round(wall, 3),
        requests=len(table),
        prompt_tokens=prompt_tokens,
        output_tokens=out_tokens,
        req_per_s=round(len(table) / wall, 2),
        prompt_tok_per_s=round(prompt_tokens / wall),
        out_tok_per_s=round(out_tokens / wall),
        **extra,
    )


def gpu_memory_mib() -> int | None:
    try:
        done = subprocess.run(
            ["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
        return int(done.stdout.split()[0])
    except (OSError, ValueError, IndexError, subprocess.SubprocessError):
        return None


def save(spec: dict, result: dict) -> None:
    """After each phase: a worker stopped at its time limit still leaves what it measured."""
    Path(spec["result"]).write_text(json.dumps(result, indent=1, default=str))
