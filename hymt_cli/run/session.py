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

from ..engine import Prepared, ServedModel, StartGate
from ..errors import EngineUnavailable, ExitCode
from ..inputs.discovery import Discovered, find_inputs
from ..memory import PipelineMemory, TranslationMemory, default_memory_path
from ..model.files import check_model_reachable, has_random_weights
from ..model.prompts import CONTEXT_TOKENS
from ..model.tokenizer import PromptTokenizer
from ..outputs.locations import check_locations, check_side_files
from ..pipeline import Pipeline
from ..pipeline.engine_start import EngineLease
from ..qa import QaOptions, QaSuite
from ..reporting.exit_codes import exit_code
from ..reporting.progress import ProgressEvents
from ..reporting.report import FileReport, RunReport
from ..signals import Interrupted, as_interrupted
from ._provenance import connect_served, provenance, run_fingerprint
from ._tokenizers import choose_tokenizer
from .config import EngineChoice, RunConfig
from .engine_setup import EngineFactory, EngineKeeper

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
        self.factory: EngineFactory | None = None  # how the run's engine is built (`_lease`)

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
        with self._lease(engine) as lease:  # the engine's life, from its (early) start to its close
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
                    engine,
                    server=replace(engine.server, model=settings.model.model, tokenizer=tokenizer_source),
                )
            if engine.uses_model and has_random_weights(engine.model):
                self.progress.notice(
                    "warning",
                    f"{engine.model} is a random-weight test model: its output is NOT a "
                    "real translation (untranslatable output keeps the source)",
                )
            self._run_pipeline(engine, tokenizer, glossary, lease)
        return self._finish(exit_code(self.report, strict=settings.reporting.strict, dry_run=dry_run))

    def _run_pipeline(
        self, engine: EngineChoice, tokenizer: PromptTokenizer, glossary: Glossary | None, lease: EngineLease
    ) -> None:
        settings, config = self.settings, self.config
        context = run_fingerprint(engine, glossary, self.config.remapped)
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
        factory = self.factory
        assert factory is not None, "the lease made it"
        try:
            if factory.gate is None and factory.server is None:  # not started already: built as chosen now
                if engine.spec.prepare is not None and not settings.reporting.dry_run:  # on the main thread
                    prepared = engine.spec.prepare(engine.setup(verbose=settings.reporting.verbose))
                factory.engine, factory.prepared = engine, prepared
            self.pipeline = Pipeline(
                plan,
                tokenizer,
                lease,
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
            lease.end()  # an early start nothing took stops first: its last words go to the log
            factory.failure_notices()
            raise
        finally:
            self.close_memory()
            lease.end()
            if prepared is not None:
                prepared.close()
        if memory is not None and memory.store_error:
            self.progress.notice("warning", memory.store_error)

    def _lease(self, engine: EngineChoice) -> EngineLease:
        """The run's engine, to be built by the run's EngineFactory: the engine of a running
        `hymt serve` of the run's settings (`Extras.served`), else one started now, before the
        tokenizer and the inputs, where its spec says so (EngineSpec.starts_early), else one the
        pipeline starts when it has work for it (an API session's: lent by its keeper, which
        keeps it across runs). Neither a server's nor an early start for a dry run or an API
        session."""
        reporting, keeper = self.settings.reporting, self.extras.keeper
        factory = self.factory = EngineFactory(
            engine, self.progress, verbose=reporting.verbose, log_file=reporting.log_file
        )
        own_run = not reporting.dry_run and keeper is None  # a command-line run that will translate
        if own_run and self.extras.served and factory.find_server(quiet=reporting.quiet):
            return EngineLease(factory, on_end=factory.stop_log)
        starts_early = engine.spec.starts_early
        if own_run and starts_early is not None and starts_early(engine.options):
            factory.gate = StartGate()
            return EngineLease(factory, gate=factory.gate, on_end=factory.stop_log)
        if keeper is None:
            return EngineLease(factory, enabled=not reporting.dry_run, on_end=factory.stop_log)
        return EngineLease(
            lambda: keeper.lend(factory.engine, factory),
            kept=True,
            enabled=not reporting.dry_run,
            on_end=factory.stop_log,
        )

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
        progress.close()  # before an error's line (idempotent)
        session.close_memory()
