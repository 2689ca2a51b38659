"""One `hymt translate` run: settings -> checks -> inputs, glossary, tokenizer, memory, engine ->
pipeline -> report, manifest, summary and exit code. The CLI calls `translate` and prints
nothing else.

Everything that can fail without an engine fails first, in seconds: the settings, every output
location, the model's reachability. SIGINT and SIGTERM stop the run cleanly (signals.py): temp
files removed, finished translations kept in the memory, the report written with the
interrupted status, one line on stderr, exit 130 or 143.
"""
from __future__ import annotations

import os
from pathlib import Path

from rich.console import Console

from .cache import MemoryContext, PipelineMemory, TranslationMemory, build_context, default_cache_path
from .checking import check_locations, stale_outputs
from .discovery import Discovered, DiscoveryRules, find_inputs
from .engine import Engine, EngineSetup
from .engine_logs import EngineLog, new_log_path
from .errors import EngineUnavailable, ExitCode, HymtError
from .glossary import Glossary, load_glossaries
from .model_files import check_model_reachable, has_random_weights
from .output import StdoutGuard, message_stream
from .pipeline import Pipeline, RunOptions, target_script
from .progress import JsonProgress, LiveProgress, NoDisplay, PlainProgress, Progress
from .prompts import TEMPLATE_VERSION
from .report import FileReport, RunReport
from .settings import TranslateSettings
from . import signals
from .signals import Interrupted, handling_signals
from .summary import summarize, summarize_check, summarize_interrupted
from .tokenizer import ChatTemplateTokenizer, EstimatingTokenizer, PromptTokenizer


def translate(settings: TranslateSettings, console: Console) -> ExitCode:
    settings.check()
    if not settings.verbose:
        for variable in ("TRANSFORMERS_VERBOSITY", "HF_HUB_VERBOSITY"):
            os.environ.setdefault(variable, "error")
    check_locations(_locations(settings))
    with handling_signals():
        run = _Run(settings, console)
        try:
            return run.execute()
        except Interrupted as exc:
            return run.interrupted(exc)
        finally:
            run.progress.close()  # before an error's line (idempotent)
            run.close_memory()


def _locations(settings: TranslateSettings) -> list[tuple[str, Path, bool]]:
    """Every place the run writes to, besides the outputs beside their inputs."""
    places: list[tuple[str, Path, bool]] = []
    if settings.out is not None and not settings.check_only:
        places.append(("-o/--out", settings.out, True))
    for flag, path in (("--report", settings.report), ("--prompts-out", settings.prompts_out),
                       ("--log-file", settings.log_file)):
        if path is not None:
            places.append((flag, path, False))
    return places  # the translation memory is opened (and judged) before the model is looked for


def _rules(settings: TranslateSettings) -> DiscoveryRules:
    outputs = tuple(settings.out / lang.code for lang in settings.targets()) if settings.out else ()
    return DiscoveryRules(settings.format_name, settings.format_settings(), settings.discovery_suffix(),
                          settings.follow_symlinks, outputs)


class _Run:
    def __init__(self, settings: TranslateSettings, console: Console) -> None:
        self.settings = settings
        self.console = console
        spec = settings.spec()
        self.spec = spec
        self.report = RunReport(engine=spec.name, model=settings.model_name if settings.uses_model() else None,
                                dry_run=settings.dry_run)
        self.found = Discovered()
        self.pipeline: Pipeline | None = None
        self.memory_file: TranslationMemory | None = None
        self.memory: PipelineMemory | None = None
        self.log: EngineLog | None = None
        self.glossary: Glossary | None = None
        self.progress = self._progress()

    # -- the run --------------------------------------------------------------------------------
    def execute(self) -> ExitCode:
        settings, console = self.settings, self.console
        self.found = find_inputs(list(settings.inputs), _rules(settings))
        if settings.check_only:
            return self._check()
        if not self.found.sources:
            self.report.files = [FileReport(p.input, None, None, "failed", f"{p.input}: {p.message}")
                                 for p in self.found.problems]
            for problem in self.found.problems:
                self.console.print(f"[red]error:[/] {problem.input}: {problem.message}")
                if problem.hint:
                    self.console.print(f"  hint: {problem.hint}")
            return self._finish(ExitCode.SOME_INPUTS_FAILED)
        if not settings.no_cache:
            self.memory_file = TranslationMemory.open(settings.cache or default_cache_path(),
                                                      readonly=settings.dry_run)
        if settings.uses_model() and not settings.dry_run:
            check_model_reachable(settings.model_name, settings.revision)
        glossary = load_glossaries(list(settings.glossary), source=settings.source()) if settings.glossary else None
        self.glossary = glossary
        tokenizer = self._tokenizer()
        if settings.uses_model() and has_random_weights(settings.model_name):
            console.print(f"[yellow]warning:[/] {settings.model_name} is a random-weight test model: "
                          "its output is NOT a real translation (untranslatable output keeps the source)")
        self._run_pipeline(tokenizer, glossary)
        return self._finish(exit_code(self.report, settings))

    def _run_pipeline(self, tokenizer: PromptTokenizer, glossary: Glossary | None) -> None:
        settings = self.settings
        options = RunOptions(targets=settings.targets(), source=settings.source(), out_dir=settings.out,
                             context_tokens=settings.max_model_len or 8192, batch_tokens=settings.batch_tokens,
                             dry_run=settings.dry_run, prompts_out=settings.prompts_out,
                             overwrite=settings.overwrite, provenance=context_of(settings, glossary).key)
        if self.memory_file is not None:
            source = settings.source()
            self.memory = PipelineMemory(self.memory_file, context_of(settings, glossary),
                                         source.code if source is not None else None)
        try:
            with StdoutGuard() as stdout:
                self.pipeline = Pipeline(
                    options, tokenizer, self._build_engine, progress=self.progress, write_stdout=stdout.write,
                    engine_name=self.spec.name, model=self.report.model,
                    validators=(target_script,) if self.spec.translates else (), glossary=glossary,
                    memory=self.memory)
                self.report = self.pipeline.report
                self.report = self.pipeline.run(self.found.sources)
                if self.log is not None:  # after a failure or a signal, the engine's processes may
                    self.log.stop()       # still be ending: their last words go to the log too
        except (EngineUnavailable, RuntimeError, OSError):
            self._show_log()
            raise
        finally:
            self.close_memory()
        if self.memory is not None and self.memory.store_error:
            self.console.print(f"[yellow]warning:[/] {self.memory.store_error}")

    def _build_engine(self) -> Engine:
        """Runs in the engine-start thread: the engine's noise goes to its log file."""
        setup = EngineSetup(self.settings.engine_options(), self.settings.sampling(), verbose=self.settings.verbose)
        if self.log is not None:
            self.log.start()
        self.progress.engine_starting(self.spec.name, self.report.model)
        engine = self.spec.build(setup)
        self.progress.engine_ready()
        return engine

    def _show_log(self) -> None:
        if self.log is None:
            return
        for line in self.log.problems():
            self.console.print(f"  engine: {line}", markup=False)
        self.console.print(f"  hint: the engine's log: {self.log.path}", markup=False)

    # -- the end --------------------------------------------------------------------------------
    def _finish(self, code: ExitCode) -> ExitCode:
        report = self.report
        report.skipped = list(self.found.skipped)
        for problem in self.found.problems if self.found.sources else ():
            report.files.insert(0, FileReport(problem.input, None, None, "failed",
                                              f"{problem.input}: {problem.message}"))
        if code == ExitCode.OK and report.files_failed:
            code = ExitCode.SOME_INPUTS_FAILED
        report.exit_code = int(code)
        report.status = "ok" if code == ExitCode.OK else "failed"
        self.progress.finished(status=report.status, exit_code=report.exit_code, files_ok=report.files_ok,
                               files_failed=report.files_failed, untranslated=report.untranslated,
                               seconds=report.seconds)
        self.progress.close()
        if self.settings.report is not None:
            report.write(self.settings.report)
        # With --progress json, the `finished` event has the totals: no second summary.
        summarize(report, self.console, dry_run=self.settings.dry_run,
                  quiet=self.settings.quiet or self.settings.progress == "json",
                  verbose=self.settings.verbose, strict=self.settings.strict, code=code)
        return code

    def interrupted(self, exc: Interrupted) -> ExitCode:
        if self.pipeline is not None:
            self.report = self.pipeline.report
        report = self.report
        report.status, report.signal, report.exit_code = "interrupted", exc.name, int(exc.exit_code)
        report.skipped = list(self.found.skipped)
        kept = self.memory.stored if self.memory is not None else 0
        self.progress.interrupted(exc.name, files_ok=report.files_ok, kept_in_memory=kept)
        self.progress.close()
        if self.settings.report is not None:
            report.write(self.settings.report)
        signals.reported(True)
        summarize_interrupted(report, self.console, exc.name, kept=kept, report_path=self.settings.report)
        return exc.exit_code

    def _check(self) -> ExitCode:
        """--check: missing or stale outputs, listed; exit 5 when there is any."""
        for problem in self.found.problems:
            self.console.print(f"[red]error:[/] {problem.input}: {problem.message}")
        glossary = (load_glossaries(list(self.settings.glossary), source=self.settings.source())
                    if self.settings.glossary else None)
        stale, edited = stale_outputs([s for s in self.found.sources if s.path is not None],
                                      self.settings.targets(), self.settings.out,
                                      context_of(self.settings, glossary).key)
        code = summarize_check(stale, edited, self.console, checked=len(self.found.sources) * len(
            self.settings.targets()), quiet=self.settings.quiet)
        if self.found.problems and code == ExitCode.OK:
            code = ExitCode.SOME_INPUTS_FAILED
        self.progress.close()
        return code

    # -- parts ----------------------------------------------------------------------------------
    def _progress(self) -> Progress:
        settings = self.settings
        mode = settings.progress
        if mode == "auto":
            mode = "none" if settings.quiet or settings.dry_run or settings.check_only else (
                "bar" if self.console.is_terminal else "plain")
        if self.spec.needs_model and not (settings.dry_run or settings.check_only):
            self.log = EngineLog(settings.log_file or new_log_path())
            if settings.verbose:
                self.console.print(f"hymt: engine log: {self.log.path}", markup=False)
        activity = self.log.activity if self.log is not None else None
        if mode == "json":
            stream = message_stream()
            return Progress(JsonProgress(lambda line: print(line, file=stream, flush=True)), tick=0.5)
        if mode == "bar":
            return Progress(LiveProgress(self.console, activity), tick=0.5, activity=activity)
        if mode == "plain":
            return Progress(PlainProgress(self.console, activity=activity), tick=1.0, activity=activity)
        return Progress(NoDisplay())

    def _tokenizer(self) -> PromptTokenizer:
        """The model's tokenizer; an estimate where no model is needed or only a plan is wanted."""
        settings = self.settings
        if not settings.uses_model():
            return EstimatingTokenizer()
        try:
            if settings.dry_run or not self.spec.needs_model:
                check_model_reachable(settings.model_name, settings.revision)
            return ChatTemplateTokenizer.load(settings.model_name, revision=settings.revision,
                                              trust_remote_code=settings.trust_remote_code)
        except EngineUnavailable as exc:
            if not self.spec.needs_model or settings.dry_run:
                self.console.print(f"[yellow]warning:[/] {exc.message}; token counts are estimates")
                return EstimatingTokenizer()
            raise

    def close_memory(self) -> None:
        memory, self.memory_file = self.memory_file, None
        if memory is not None:
            memory.close()


def exit_code(result: RunReport, settings: TranslateSettings) -> ExitCode:
    """1: an input failed; 4: --strict and a segment untranslated or a term missed, or (always)
    a run where not one segment was translated."""
    if result.files_failed:
        return ExitCode.SOME_INPUTS_FAILED
    if settings.dry_run:
        return ExitCode.OK
    translated = sum(f.translated for f in result.files)
    if result.untranslated and not translated:
        return ExitCode.QUALITY_CHECK_FAILED
    if settings.strict and (result.untranslated or (result.glossary is not None and result.glossary.missed)):
        return ExitCode.QUALITY_CHECK_FAILED
    return ExitCode.OK


def context_of(settings: TranslateSettings, glossary: Glossary | None) -> MemoryContext:
    """What decides a translation besides its text: the memory's key, the manifest's provenance."""
    spec = settings.spec()
    return build_context(engine=spec.name, model=settings.model_name, revision=settings.revision,
                         sampling=settings.sampling(), template_version=TEMPLATE_VERSION,
                         glossary_digest=glossary.digest if glossary else "", model_free=not spec.needs_model)
