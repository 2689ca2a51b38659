"""The one way tests build and run a `Pipeline` in-process (and write their input files).

`make_pipeline(engine, to="fr", ...)` takes an engine or an engine factory, target codes, and any
`RunPlan` field or `Pipeline` keyword; `run_pipeline(paths, engine, ...)` discovers the inputs
and runs; `translate_files(...)` also maps each input to its output under `out_dir/<lang>/`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from hymt_cli.engine import Engine
from hymt_cli.formats import ContextOptions
from hymt_cli.inputs.discovery import discover
from hymt_cli.inputs.sources import SourceFile
from hymt_cli.model.tokenizer import EstimatingTokenizer, PromptTokenizer
from hymt_cli.options import OptionSet
from hymt_cli.outputs.paths import output_path
from hymt_cli.pipeline import Pipeline, RunPlan
from hymt_cli.pipeline.engine_start import EngineLease
from hymt_cli.reporting.report import RunReport
from hymt_cli.text.languages import parse_language_list

_PLAN_FIELDS = {f.name for f in fields(RunPlan)}


def make_pipeline(
    engine: Engine | Callable[[], Engine],
    *,
    to: str | Sequence[str] = "fr",
    tokenizer: PromptTokenizer | None = None,
    **given: Any,
) -> Pipeline:
    """A pipeline into the languages `to` (codes, comma-separated or a sequence); `given` holds
    `RunPlan` fields (out_dir, dry_run, batch_tokens, glossary, validators, engine_name ...) and
    `Pipeline` keywords (progress, memory, qa, review ...)."""
    codes = ",".join(to) if not isinstance(to, str) else to
    asked = {k: v for k, v in given.items() if k in _PLAN_FIELDS}
    asked.setdefault("engine_name", getattr(engine, "name", "test"))
    plan = RunPlan(targets=tuple(parse_language_list(codes)), **asked)
    factory = (
        engine if isinstance(engine, type) or not hasattr(engine, "generate_stream") else (lambda: engine)
    )
    extra = {k: v for k, v in given.items() if k not in _PLAN_FIELDS}
    lease = EngineLease(factory, enabled=not plan.dry_run)  # type: ignore[arg-type]
    return Pipeline(plan, tokenizer or EstimatingTokenizer(), lease, **extra)


def sources_of(
    paths: Sequence[Path | str], *, options: OptionSet | None = None, format_name: str | None = None
) -> list[SourceFile]:
    sources, problems = discover([str(p) for p in paths], format_name=format_name, options=options)
    assert not problems, problems
    return sources


def run_pipeline(
    paths: Sequence[Path | str],
    engine: Engine | Callable[[], Engine],
    *,
    options: OptionSet | None = None,
    format_name: str | None = None,
    **given: Any,
) -> RunReport:
    options = _told_context(options, given)
    return make_pipeline(engine, **given).run(sources_of(paths, options=options, format_name=format_name))


def translate_files(
    paths: Sequence[Path],
    engine: Engine | Callable[[], Engine],
    out_dir: Path,
    *,
    lang: str = "fr",
    options: OptionSet | None = None,
    **given: Any,
) -> tuple[RunReport, dict[Path, Path]]:
    """Run into `out_dir` (`<lang>/...`, or where the file's layout puts it); the report and each
    input's output path."""
    sources = sources_of(paths, options=_told_context(options, given))
    report = make_pipeline(engine, to=lang, out_dir=out_dir, **given).run(sources)
    language = parse_language_list(lang)[0]
    return report, {s.path: output_path(s, language, out_dir) for s in sources if s.path is not None}


def _told_context(options: OptionSet | None, given: dict[str, Any]) -> OptionSet | None:
    """The formats see the run's `context` too, as a run gives it to them (run/config.py)."""
    if "context" not in given:
        return options
    return (options or OptionSet()).with_records(ContextOptions(given["context"]))


def write(folder: Path, name: str, content: str | bytes) -> Path:
    """`content` into `folder/name` (text as UTF-8); the path."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def segment_texts(path: Path, options: OptionSet | None = None) -> list[str]:
    """The texts of the segments that reading `path` (one input) gives: what a run would send."""
    [source] = sources_of([path], options=options)
    return [s.text for unit in source.format.open(source).units() for s in unit.segments]
