"""One `hymt translate` run: settings -> inputs, glossary, tokenizer, memory, engine ->
pipeline -> report, summary and exit code. The CLI calls `translate` and prints nothing else."""
from __future__ import annotations

import os
from pathlib import Path

from rich.console import Console

from .cache import MemoryContext, PipelineMemory, TranslationMemory, build_context, default_cache_path
from .discovery import discover
from .engine import Engine, EngineSetup
from .errors import EngineUnavailable, ExitCode
from .glossary import Glossary, load_glossaries
from .model_files import has_random_weights
from .output import StdoutGuard
from .pipeline import Pipeline, RunOptions, target_script
from .progress import LiveProgress, PlainProgress
from .prompts import TEMPLATE_VERSION
from .report import FileReport, RunReport
from .settings import TranslateSettings
from .sources import SourceFile
from .summary import summarize
from .tokenizer import ChatTemplateTokenizer, EstimatingTokenizer, PromptTokenizer


def translate(settings: TranslateSettings, console: Console) -> ExitCode:
    settings.check()
    if not settings.verbose:
        for variable in ("TRANSFORMERS_VERBOSITY", "HF_HUB_VERBOSITY"):
            os.environ.setdefault(variable, "error")
    sources, problems = discover(list(settings.inputs), format_name=settings.format_name,
                                 options=settings.format_settings())
    if not sources:
        for problem in problems:
            console.print(f"[red]error:[/] {problem.input}: {problem.message}")
        return ExitCode.SOME_INPUTS_FAILED
    glossary = load_glossaries(list(settings.glossary), source=settings.source()) if settings.glossary else None
    tokenizer = _tokenizer(settings, console)
    if settings.uses_model() and has_random_weights(settings.model_name):
        console.print(f"[yellow]warning:[/] {settings.model_name} is a random-weight test model: "
                      "its output is NOT a real translation (untranslatable output keeps the source)")
    result = _run_pipeline(settings, sources, tokenizer, glossary, console)
    for problem in problems:
        result.files.insert(0, FileReport(problem.input, None, None, "failed", f"{problem.input}: {problem.message}"))
    if settings.report is not None:
        result.write(settings.report)
    summarize(result, console, dry_run=settings.dry_run, quiet=settings.quiet)
    return exit_code(result, settings)


def exit_code(result: RunReport, settings: TranslateSettings) -> ExitCode:
    if result.files_failed:
        return ExitCode.SOME_INPUTS_FAILED
    if settings.strict and not settings.dry_run and (
            result.untranslated or (result.glossary is not None and result.glossary.missed)):
        return ExitCode.QUALITY_CHECK_FAILED
    return ExitCode.OK


def _run_pipeline(settings: TranslateSettings, sources: list[SourceFile], tokenizer: PromptTokenizer,
                  glossary: Glossary | None, console: Console) -> RunReport:
    spec = settings.spec()
    setup = EngineSetup(settings.engine_options(), settings.sampling(), verbose=settings.verbose)

    def build_engine() -> Engine:
        return spec.build(setup)

    options = RunOptions(targets=settings.targets(), source=settings.source(), out_dir=settings.out,
                         context_tokens=settings.max_model_len or 8192, batch_tokens=settings.batch_tokens,
                         dry_run=settings.dry_run, prompts_out=settings.prompts_out,
                         overwrite=settings.overwrite, provenance=_context(settings, glossary).key)
    memory = None if settings.no_cache else _open_memory(settings, glossary)
    progress = None if (settings.quiet or settings.dry_run) else (
        LiveProgress(console) if console.is_terminal else PlainProgress(console))
    try:
        with StdoutGuard() as stdout:
            pipeline = Pipeline(options, tokenizer, build_engine, progress=progress, write_stdout=stdout.write,
                                engine_name=spec.name, model=settings.model_name if settings.uses_model() else None,
                                validators=(target_script,) if spec.translates else (),
                                glossary=glossary, memory=memory)
            result = pipeline.run(sources)
    finally:
        if progress is not None:
            progress.close()
        if memory is not None:
            memory.close()
    if memory is not None and memory.store_error:
        console.print(f"[yellow]warning:[/] {memory.store_error}")
    return result


def _tokenizer(settings: TranslateSettings, console: Console) -> PromptTokenizer:
    """The model's tokenizer; an estimate where no model is needed or only a plan is wanted."""
    if not settings.uses_model():
        return EstimatingTokenizer()
    try:
        return ChatTemplateTokenizer.load(settings.model_name, revision=settings.revision,
                                          trust_remote_code=settings.trust_remote_code)
    except EngineUnavailable as exc:
        if not settings.spec().needs_model or settings.dry_run:
            console.print(f"[yellow]warning:[/] {exc.message}; token counts are estimates")
            return EstimatingTokenizer()
        raise


def _open_memory(settings: TranslateSettings, glossary: Glossary | None) -> PipelineMemory:
    """The translation memory bound to this run's context (a dry run only reads it)."""
    path: Path = settings.cache or default_cache_path()
    memory = TranslationMemory.open(path, readonly=settings.dry_run)
    source = settings.source()
    return PipelineMemory(memory, _context(settings, glossary), source.code if source is not None else None)


def _context(settings: TranslateSettings, glossary: Glossary | None) -> MemoryContext:
    """What decides a translation besides its text: the memory's key, the manifest's provenance."""
    spec = settings.spec()
    return build_context(engine=spec.name, model=settings.model_name, revision=settings.revision,
                         sampling=settings.sampling(), template_version=TEMPLATE_VERSION,
                         glossary_digest=glossary.digest if glossary else "", model_free=not spec.needs_model)
