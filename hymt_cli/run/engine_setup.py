"""Building a run's engine: in its EngineLease's (pipeline/engine_start.py) background thread, with
the engine's noise in its log file and its start-up phases told to the progress listener; taking
it from a running `hymt serve` of the run's settings instead, where there is one; and keeping one
engine across the runs of a `Translator` (api.py), so that a notebook or a service loads the
model once."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..engine import Engine, Prepared
from ..engine.base import StartGate
from ..errors import UsageError
from ..reporting.progress import ProgressEvents
from ..serve.records import ServeRecord, live_records, serve_folder
from .config import EngineChoice

if TYPE_CHECKING:
    from ._engine_log import EngineLog


def find_server(choice: EngineChoice) -> tuple[ServeRecord | None, list[ServeRecord]]:
    """A running server of this user with the run's settings (None: none runs, or the serve
    folder cannot be trusted: the run then builds its own engine), and the user's servers of
    other settings. The settings' key (serve_key.py, a digest of the model's files among them)
    is made only where a server runs."""
    if choice.runs.served or choice.inner is not None or choice.spec.wraps:
        return None, []
    try:
        records = live_records(serve_folder(create=False))
    except (OSError, UsageError):
        return None, []
    if not records:
        return None, []
    from .serve_key import settings_key

    key = settings_key(choice)
    found = next((r for r in reversed(records) if r.settings == key), None)
    return found, [r for r in records if r is not found]


class EngineFactory:
    """Builds the engine a run chose (an EngineLease runs it in its background thread); what its
    `prepare` hook made on the main thread (a Ray connection) is handed to it. The log file
    (engines that load a model) holds descriptors 1 and 2 from the start of the build until
    `stop_log`. With a `server` (`find_server`), the engine is that of a running `hymt serve` of
    the run's settings (serve_key.py): the same engine, already started, connected in the
    build; where the server cannot serve the run, or goes away during it, the run's own engine
    is built."""

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
        self.server: ServeRecord | None = None

    def find_server(self, *, quiet: bool) -> bool:
        """Whether a server of the run's settings runs: its engine is then the run's (the run
        says so: one line, unless `quiet`)."""
        record, others = find_server(self.engine)
        if record is None:
            if others and not quiet:  # on a GPU it holds memory the run's own engine will want
                pids = ", ".join(str(r.pid) for r in others)
                self.progress.notice("note", f"hymt serve (pid {pids}) serves other settings: not used")
            return False
        if not quiet:
            self.progress.notice(
                "info", f"using the engine of hymt serve (pid {record.pid}, {record.socket})"
            )
        self.server = record
        return True

    def __call__(self) -> Engine:
        """Runs in the engine-start thread."""
        return self._own() if self.server is None else self._served(self.server)

    def _served(self, record: ServeRecord) -> Engine:
        progress, choice = self.progress, self.engine
        progress.engine_starting(choice.runs.name, choice.reported_model)
        from ..serve.client import ServedEngine, ServedUnreachable  # where a server was found

        engine = ServedEngine(record, self._own, on_fallback=lambda line: progress.notice("note", line))
        try:
            engine.connect(
                on_wait=lambda: progress.engine_phase("waiting for the engine of hymt serve to start")
            )
        except ServedUnreachable as exc:
            progress.notice(
                "note",
                f"hymt serve (pid {record.pid}) cannot serve this run ({exc}): starting its own engine",
            )
            return self._own()
        progress.engine_ready()
        return engine

    def _own(self) -> Engine:
        choice = self.engine
        if choice.runs.needs_model:
            from ._engine_log import EngineLog, new_log_path  # an engine of a model's only

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


class EngineKeeper:
    """One engine kept across runs while their engine choice stays the same; a run gets it
    `lend`ed (its EngineLease is `kept`: it never closes it) and `close` ends it."""

    def __init__(self) -> None:
        self._choice: EngineChoice | None = None
        self._engine: Engine | None = None
        self._log: Path | None = None  # the log the engine wrote while it started and ran

    def lend(self, choice: EngineChoice, build: EngineFactory) -> Engine:
        if self._engine is None or self._choice != choice:
            self.close()
            self._engine, self._choice = build(), choice
            self._log = build.log.path if build.log is not None else None
        return self._engine

    def close(self) -> None:
        """End the kept engine; what its processes say as they end goes to its log, as everything
        they said before (the caller's terminal gets nothing)."""
        engine, self._engine, self._choice = self._engine, None, None
        if engine is None:
            return
        log: EngineLog | None = None
        if self._log is not None:
            from ._engine_log import EngineLog

            log = EngineLog(self._log)
            log.start()
        try:
            engine.close()
        finally:
            if log is not None:
                log.stop()
