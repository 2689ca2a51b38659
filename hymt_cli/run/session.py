"""One translation run: inputs -> memory, model, glossary, tokenizer, engine -> pipeline -> report.

Nothing here prints: what a person should read goes to the progress listener (`notice`), a run
that cannot start raises a domain error, and the result is the report. Everything that can fail
without an engine fails first, in seconds: the settings (RunConfig), every output location, the
model's reachability. A signal (signals.Interrupted, installed by the command line) ends the run
cleanly: temp files removed, finished translations kept in the memory, the report written with
the interrupted status; the exception goes on to the caller with the report attached.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..engine import Engine, Prepared, ServedModel, StartGate
from ..errors import EngineUnavailable, ExitCode
from ..inputs.discovery import Discovered, find_inputs
from ..memory import PipelineMemory, TranslationMemory, default_memory_path
from ..model.files import check_model_reachable, has_random_weights
from ..model.prompts import CONTEXT_TOKENS
from ..model.tokenizer import PromptTokenizer
from ..outputs.locations import check_locations, check_side_files
from ..pipeline import Pipeline
from ..qa import QaOptions, QaSuite
from ..reporting.outcome import exit_code
from ..reporting.progress import ProgressEvents
from ..reporting.report import FileReport, RunReport
from ..signals import Interrupted, as_interrupted
from .config import EngineChoice, RunConfig
from .engine_setup import EarlyStart, EngineFactory, EngineKeeper, ServedStart
from .provenance import connect_served, memory_context, provenance
from .tokenizers import choose_tokenizer

if TYPE_CHECKING:
    from ..glossary import Glossary
    from ..review import RecordSpool


@dataclass(frozen=True, slots=True)
class Extras:
    """What a run may get besides its settings: standard input's bytes and a writer for standard
    output (`-` inputs: the Python API's text and tables) and a keeper that lends one engine to
    many runs (its `Translator`)."""

    stdout: Callable[[bytes], None] | None = None
    keeper: EngineKeeper | None = None
    stdin: bytes | None = None  # what standard input (`-`) holds, given from memory
    stdin_name: str = "<stdin>"  # how messages and the report name it
    served: bool = False  # take the engine from a running `hymt serve` of the run's settings


class Session:
    def __init__(
        self,
        config: RunConfig,
        progress: ProgressEvents,
        served: ServedModel | None,
        extras: Extras = Extras(),
    ) -> None:
        self.config = config
        self.settings = config.settings
        self.progress = progress
        self.served = served
        self.extras = extras
        self.report = RunReport(
            engine=config.engine.runs.name,
            model=config.engine.reported_model,
            dry_run=self.settings.reporting.dry_run,
        )
        self.found = Discovered()
        self.pipeline: Pipeline | None = None
        self.memory_file: TranslationMemory | None = None
        self.memory: PipelineMemory | None = None
        # The review page's records, and when the run started (the one time the page shows).
        self.review: RecordSpool | None = None
        if self.settings.reporting.review is not None:
            from ..review import RecordSpool  # the review page's code: only where one is asked for

            self.review = RecordSpool()
        self.started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        self.early: EarlyStart | None = None  # the engine, started as the run began (`_start_early`)
        self.from_server: ServedStart | None = None  # a running `hymt serve`'s engine (`_from_server`)

    # -- the run --------------------------------------------------------------------------------
    def execute(self) -> RunReport:
        settings, engine, out = self.settings, self.config.engine, self.settings.output
        dry_run = settings.reporting.dry_run
        self.found = find_inputs(list(settings.inputs.inputs), self.config.discovery)
        side = [(flag, path) for flag, path, folder in self.config.written_places(memory=True) if not folder]
        check_side_files(side, self.found.sources, self.config.targets, out.out, out.exact_locales)
        if self.extras.stdin is not None:
            self.found.sources = [
                replace(s, data=self.extras.stdin, stdin_name=self.extras.stdin_name) if s.path is None else s
                for s in self.found.sources
            ]
        if not self.found.sources:
            self.report.files = [
                FileReport(p.input, None, None, "failed", f"{p.input}: {p.message}", hint=p.hint)
                for p in self.found.problems
            ]
            return self._finish(ExitCode.SOME_INPUTS_FAILED)
        if not settings.memory.no_cache:
            self.memory_file = TranslationMemory.open(
                settings.memory.cache or default_memory_path(), readonly=dry_run
            )
        fatal_check = engine.uses_model and not dry_run and not engine.runs.served
        if fatal_check:
            check_model_reachable(engine.model, engine.options.revision)
        self.from_server = self._from_server(engine)
        self.early = self._start_early(engine) if self.from_server is None else None
        glossary: Glossary | None = None
        if settings.memory.glossary:
            from ..glossary import load_glossaries  # its loaders and matching: only where asked for

            glossary = load_glossaries(list(settings.memory.glossary), source=self.config.source)
        tokenizer, tokenizer_source = choose_tokenizer(
            engine,
            self.served,
            self.progress,
            dry_run=dry_run,
            quiet=settings.reporting.quiet,
            reachable_checked=fatal_check,
        )
        if engine.server is not None:
            engine = replace(
                engine, server=replace(engine.server, model=settings.model.model, tokenizer=tokenizer_source)
            )
        if engine.uses_model and has_random_weights(engine.model):
            self.progress.notice(
                "warning",
                f"{engine.model} is a random-weight test model: its output is NOT a "
                "real translation (untranslatable output keeps the source)",
            )
        self._run_pipeline(engine, tokenizer, glossary)
        return self._finish(exit_code(self.report, strict=settings.reporting.strict, dry_run=dry_run))

    def _run_pipeline(
        self, engine: EngineChoice, tokenizer: PromptTokenizer, glossary: Glossary | None
    ) -> None:
        settings, config = self.settings, self.config
        context = memory_context(engine, glossary, self.config.remapped)
        plan = config.plan(
            context_tokens=self._context_tokens(),
            provenance=provenance(config, context),
            glossary=glossary,
        )
        memory = self.memory = (
            PipelineMemory(self.memory_file, context, config.source.memory_code if config.source else None)
            if self.memory_file is not None
            else None
        )
        prepared: Prepared | None = None
        started = self.early or self.from_server
        factory: EngineFactory | None = started.factory if started is not None else None
        try:
            if factory is None:
                if engine.spec.prepare is not None and not settings.reporting.dry_run:  # on the main thread
                    prepared = engine.spec.prepare(engine.setup(verbose=settings.reporting.verbose))
                factory = self._factory(engine, prepared=prepared)
            self.pipeline = Pipeline(
                plan,
                tokenizer,
                self._engine_source(engine, factory),
                memory=memory,
                qa=QaSuite(
                    settings.of(QaOptions), translating=engine.runs.translates, source_lang=config.source_code
                ),
                progress=self.progress,
                write_stdout=self.extras.stdout,
                review=self.review,
            )
            self.report = self.pipeline.report
            self.report = self.pipeline.run(self.found.sources)
        except (EngineUnavailable, RuntimeError, OSError):
            if factory is not None:
                self._stop_engine_log(factory)
                factory.failure_notices()
            raise
        finally:
            self.close_memory()
            if factory is not None:
                self._stop_engine_log(factory)
            if prepared is not None:
                prepared.close()
        if memory is not None and memory.store_error:
            self.progress.notice("warning", memory.store_error)

    def _stop_engine_log(self, factory: EngineFactory) -> None:
        """An early start nothing took is stopped first: its processes' last words go to the log."""
        if self.early is not None:
            self.early.close()
        factory.stop_log()

    def _factory(
        self, engine: EngineChoice, *, prepared: Prepared | None = None, gate: StartGate | None = None
    ) -> EngineFactory:
        reporting = self.settings.reporting
        return EngineFactory(
            engine,
            self.progress,
            verbose=reporting.verbose,
            log_file=reporting.log_file,
            prepared=prepared,
            gate=gate,
        )

    def _start_early(self, engine: EngineChoice) -> EarlyStart | None:
        """Start the engine now, before the tokenizer and the inputs, where its spec says so
        (EngineSpec.starts_early): a CLI run that will translate; not a dry run, and not an API
        session, whose kept engine outlives the run."""
        starts_early = engine.spec.starts_early
        if (
            starts_early is None
            or self.settings.reporting.dry_run
            or self.extras.keeper is not None
            or not starts_early(engine.options)
        ):
            return None
        return EarlyStart(self._factory(engine, gate=StartGate()))

    def _from_server(self, engine: EngineChoice) -> ServedStart | None:
        """A running `hymt serve` of the run's settings, for a command-line run that will translate."""
        if not self.extras.served or self.settings.reporting.dry_run or self.extras.keeper is not None:
            return None
        return ServedStart.find(self._factory(engine), quiet=self.settings.reporting.quiet)

    def _engine_source(self, engine: EngineChoice, factory: EngineFactory) -> Callable[[], Engine]:
        if self.early is not None:
            return self.early.take
        if self.from_server is not None:
            return self.from_server
        keeper = self.extras.keeper
        if keeper is None:
            return factory
        return lambda: keeper.lend(engine, factory)

    def _context_tokens(self) -> int:
        """Prompt + output per request: --max-model-len, else CONTEXT_TOKENS or a server's shorter window."""
        max_model_len = self.settings.model.max_model_len
        if max_model_len:
            return max_model_len
        if self.served is not None and self.served.max_model_len:
            return min(CONTEXT_TOKENS, self.served.max_model_len)
        return CONTEXT_TOKENS

    # -- the end --------------------------------------------------------------------------------
    def _finish(self, code: ExitCode) -> RunReport:
        report = self.report
        report.skipped = list(self.found.skipped)
        for problem in self.found.problems if self.found.sources else ():
            report.files.insert(
                0,
                FileReport(
                    problem.input,
                    None,
                    None,
                    "failed",
                    f"{problem.input}: {problem.message}",
                    hint=problem.hint,
                ),
            )
        if code == ExitCode.OK and report.files_failed:
            code = ExitCode.SOME_INPUTS_FAILED
        report.exit_code = int(code)
        report.status = "ok" if code == ExitCode.OK else "failed"
        report.memory_stored = self.memory.stored if self.memory is not None else 0
        self.progress.finished(
            status=report.status,
            exit_code=report.exit_code,
            files_ok=report.files_ok,
            files_failed=report.files_failed,
            untranslated=report.untranslated,
            seconds=report.seconds,
        )
        self.progress.close()
        self._write(report)
        return report

    def interrupted(self, exc: Interrupted) -> RunReport:
        """The report of a run stopped by a signal, written where --report says."""
        if self.pipeline is not None:
            self.report = self.pipeline.report
        report = self.report
        report.status, report.signal, report.exit_code = "interrupted", exc.name, int(exc.exit_code)
        report.skipped = list(self.found.skipped)
        report.memory_stored = self.memory.stored if self.memory is not None else 0
        self.progress.interrupted(exc.name, files_ok=report.files_ok, kept_in_memory=report.memory_stored)
        self.progress.close()
        self._write(report)
        return report

    def _write(self, report: RunReport) -> None:
        """The report and the review page, where the settings ask for them."""
        reporting = self.settings.reporting
        if reporting.report is not None:
            report.write(reporting.report)
        if self.review is not None:
            assert reporting.review is not None
            from ..review import write_page

            try:
                write_page(
                    reporting.review,
                    report,
                    self.review,
                    started=self.started,
                    source=self.config.source_code,
                )
            finally:
                self.review.close()
                self.review = None

    def stop_early_start(self) -> None:
        """The run ends (also before its pipeline, on an error): an early start nothing took stops."""
        if self.early is not None:
            self._stop_engine_log(self.early.factory)

    def close_memory(self) -> None:
        memory, self.memory_file = self.memory_file, None
        if memory is not None:
            memory.close()


def run_translation(config: RunConfig, progress: ProgressEvents, extras: Extras = Extras()) -> RunReport:
    """Translate what `config` names; the report. Domain errors (UsageError, EngineUnavailable...)
    when the run cannot start; `Interrupted` (with `.report`) when a signal stopped it."""
    config, served = connect_served(config, lambda line: progress.notice("note", line))
    if not config.settings.reporting.verbose:
        for variable in ("TRANSFORMERS_VERBOSITY", "HF_HUB_VERBOSITY"):
            os.environ.setdefault(variable, "error")
    check_locations(config.written_places())
    session = Session(config, progress, served, extras)
    try:
        return session.execute()
    except KeyboardInterrupt as exc:  # a signal; or raised in the run (a listener's), as SIGINT
        stopped = as_interrupted(exc)
        stopped.report = session.interrupted(stopped)
        if stopped is exc:
            raise
        raise stopped from exc
    finally:
        session.stop_early_start()
        progress.close()  # before an error's line (idempotent)
        session.close_memory()
