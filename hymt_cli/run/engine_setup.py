"""Building a run's engine: in the pipeline's engine-start thread, with the engine's noise in its
log file and its start-up phases told to the progress listener; taking it from a running
`hymt serve` of the run's settings instead, where there is one; and keeping one engine across
the runs of a `Translator` (api.py), so that a notebook or a service loads the model once."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine import Engine, Prepared
from ..engine.base import BatchLimits, Generation, GenerationRequest, StartGate
from ..pipeline.engine_start import EngineStart
from ..reporting.progress import ProgressEvents
from .config import EngineChoice
from .serve_key import find_server

if TYPE_CHECKING:
    from ..serve.records import ServeRecord
    from .engine_log import EngineLog


class EngineFactory:
    """Builds the engine a run chose; what its `prepare` hook made on the main thread (a Ray
    connection) is handed to it. The log file (engines that load a model) holds descriptors 1
    and 2 from the start of the build until `stop_log`."""

    def __init__(
        self,
        engine: EngineChoice,
        progress: ProgressEvents,
        *,
        verbose: bool,
        log_file: Path | None,
        prepared: Prepared | None = None,
        gate: StartGate | None = None,
    ) -> None:
        self.engine = engine
        self.gate = gate
        self.progress = progress
        self.verbose = verbose
        self.prepared = prepared
        self.log: EngineLog | None = None
        self._log_file = log_file

    def __call__(self) -> Engine:
        """Runs in the engine-start thread."""
        choice = self.engine
        if choice.runs.needs_model:
            from .engine_log import EngineLog, new_log_path  # an engine of a model's only

            self.log = EngineLog(self._log_file or new_log_path())
            if self.verbose:
                self.progress.notice("info", f"engine log: {self.log.path}")
            self.log.start()
        self.progress.engine_starting(
            choice.runs.name, choice.reported_model, self.log.activity if self.log is not None else None
        )
        setup = choice.setup(
            verbose=self.verbose, on_phase=self.progress.engine_phase, prepared=self.prepared, gate=self.gate
        )
        engine = choice.spec.build(setup)
        self.progress.engine_ready()
        return engine

    def stop_log(self) -> None:
        """After a failure or a signal the engine's processes may still be ending: their last
        words go to the log too, so this comes once the pipeline is done."""
        if self.log is not None:
            self.log.stop()

    def failure_notices(self) -> None:
        """The log's lines that look like the reason an engine failed, and where the log is."""
        if self.log is None:
            return
        for line in self.log.problems():
            self.progress.notice("engine", line)
        self.progress.notice("hint", f"the engine's log: {self.log.path}")


class EarlyStart:
    """The run's engine, started as the run begins, before the model's tokenizer is loaded and
    any input is read (EngineSpec.starts_early): on a fresh GPU machine the engine's start (~30 s
    and more) then overlaps hymt's own (imports, tokenizer, the first catalog batch: 23 s
    measured). The pipeline `take`s it when it has work for it; a run that ends without
    (everything remembered or skipped) abandons it, and its processes stop at once."""

    def __init__(self, factory: EngineFactory) -> None:
        assert factory.gate is not None, "an early start needs a gate"
        self.factory = factory
        self._gate = factory.gate
        self._start = EngineStart(factory)
        self._taken = self._closed = False

    def take(self) -> Engine:
        self._gate.want()
        self._taken = True
        return self._start.result()

    def close(self) -> None:
        """The run ends. An engine the pipeline took, built, is the pipeline's to close; a start
        nothing took, or one still going when the run ends early (a failure, a signal), is
        stopped, and an engine it finished meanwhile is closed."""
        if self._closed or (self._taken and self._start.done()):
            return
        self._closed = True
        self._gate.abandon(even_if_wanted=True)
        try:
            engine = self._start.result()
        except Exception:  # abandoned, or failed: nothing needs it now
            return
        engine.close()


class ServedStart:
    """The run's engine from a running `hymt serve` of the run's settings (serve_key.py): the
    same engine, already started. Connected in the engine-start thread; where the server cannot
    serve the run, or goes away during it, the run's own engine is built (`factory`)."""

    def __init__(self, record: ServeRecord, factory: EngineFactory) -> None:
        self.record = record
        self.factory = factory

    @classmethod
    def find(cls, factory: EngineFactory, *, quiet: bool) -> ServedStart | None:
        """A server of the run's settings (the run says so: one line, unless `quiet`)."""
        record, others = find_server(factory.engine)
        if record is None:
            if others and not quiet:  # on a GPU it holds memory the run's own engine will want
                pids = ", ".join(str(r.pid) for r in others)
                factory.progress.notice("note", f"hymt serve (pid {pids}) serves other settings: not used")
            return None
        if not quiet:
            factory.progress.notice(
                "info", f"using the engine of hymt serve (pid {record.pid}, {record.socket})"
            )
        return cls(record, factory)

    def __call__(self) -> Engine:
        progress, choice = self.factory.progress, self.factory.engine
        progress.engine_starting(choice.runs.name, choice.reported_model)
        from ..serve.client import ServedEngine, ServedUnreachable  # where a server was found

        engine = ServedEngine(
            self.record, self.factory, on_fallback=lambda line: progress.notice("note", line)
        )
        try:
            engine.connect(
                on_wait=lambda: progress.engine_phase("waiting for the engine of hymt serve to start")
            )
        except ServedUnreachable as exc:
            progress.notice(
                "note",
                f"hymt serve (pid {self.record.pid}) cannot serve this run ({exc}): starting its own engine",
            )
            return self.factory()
        progress.engine_ready()
        return engine


class EngineKeeper:
    """One engine kept across runs while their engine choice stays the same; a run gets it
    `lent` (its `close` does nothing) and `close` ends it."""

    def __init__(self) -> None:
        self._choice: EngineChoice | None = None
        self._engine: Engine | None = None
        self._log: Path | None = None  # the log the engine wrote while it started and ran

    def lend(self, choice: EngineChoice, build: EngineFactory) -> Engine:
        if self._engine is None or self._choice != choice:
            self.close()
            self._engine, self._choice = build(), choice
            self._log = build.log.path if build.log is not None else None
        return _Lent(self._engine)

    def close(self) -> None:
        """End the kept engine; what its processes say as they end goes to its log, as everything
        they said before (the caller's terminal gets nothing)."""
        engine, self._engine, self._choice = self._engine, None, None
        if engine is None:
            return
        log: EngineLog | None = None
        if self._log is not None:
            from .engine_log import EngineLog

            log = EngineLog(self._log)
            log.start()
        try:
            engine.close()
        finally:
            if log is not None:
                log.stop()


class _Lent:
    """A kept engine as one run sees it: everything but `close`."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self.name = engine.name

    @property
    def limits(self) -> BatchLimits:
        return self._engine.limits

    @property
    def retries(self) -> int:
        return self._engine.retries

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        return self._engine.generate(requests)

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[tuple[int, Generation]]:
        return self._engine.generate_stream(requests)

    def close(self) -> None:
        pass
