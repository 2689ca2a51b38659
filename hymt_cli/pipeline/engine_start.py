"""A run's engine, owned from its start to its close by one object, `EngineLease`.

The engine is built in a background thread, so that loading the model (and vLLM's CUDA graph
capture) overlaps with reading the inputs and tokenizing the prompts.

What must happen on the main thread happens before the lease starts its build, never in the
build: Ray is initialised there (`EngineSpec.prepare`, in run/session.py; a `ray.init()` from a
thread that then ends loses its GCS connection after a minute), and a `RayEngine` built here only
starts actors on the connected cluster."""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import TracebackType

from ..engine.base import Engine, StartGate


class EngineLease:
    """The one owner of a run's engine: it starts the engine (in the background), lends it to the
    pipeline and closes it on every way out of `with EngineLease(build) as engine:` (success,
    error, a signal, a start nothing took), then calls `on_end` (run/engine_setup.EngineFactory
    stops the engine's log there: the last words of its processes go to the log too).

    `build` makes the engine (EngineFactory: a running `hymt serve`'s engine, or the run's own).
    The pipeline `start`s it once it has work for it, `get`s it when it needs the answers (built
    on the spot if nothing started it), asks whether it is `ready` without waiting, and `close`s
    it when its run ends (`failed`: an engine still starting is not waited for).

    `gate` (engine.base.StartGate): the build begins at once, as the run begins, before the run
    knows it needs an engine (EngineSpec.starts_early); `start` and `get` say it is wanted. A
    start nothing wanted, or one still going when the run ends (a failure, a signal), is
    abandoned (its processes stop at once) and an engine it finished meanwhile is closed.
    `kept`: the engine belongs to an EngineKeeper that lends it to many runs (api.Translator):
    never closed here, and, as before, given no requests early.
    `enabled=False` (a dry run): `start` starts nothing."""

    def __init__(
        self,
        build: Callable[[], Engine],
        *,
        gate: StartGate | None = None,
        kept: bool = False,
        enabled: bool = True,
        on_end: Callable[[], None] | None = None,
    ) -> None:
        self._build = build
        self._gate = gate
        self._kept = kept
        self._enabled = enabled
        self._on_end = on_end
        self._thread: threading.Thread | None = None  # the background build
        self._built: Engine | None = None  # what it built ...
        self._error: BaseException | None = None  # ... or why it failed
        self._engine: Engine | None = None  # the engine lent to the pipeline
        self._wanted = False  # the pipeline started (or got) it, until it closed it
        self._taken = False  # the pipeline wanted the build (with a gate: the start is its own)
        self._ended = False
        if gate is not None:
            self._begin()

    # -- the context manager ---------------------------------------------------------------------
    def __enter__(self) -> EngineLease:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.end()

    def end(self) -> None:
        """The run ends (on any path; once): an early start nothing took, or one still going, is
        stopped, an engine it finished meanwhile closed; an engine still lent is closed."""
        if self._ended:
            return
        self._ended = True
        try:
            thread = self._thread
            if self._gate is not None and thread is not None and not (self._taken and not thread.is_alive()):
                self._gate.abandon(even_if_wanted=True)
                try:
                    engine = self._result()
                except Exception:  # abandoned, or failed: nothing needs it now
                    engine = None
                if engine is not None and engine is not self._engine:
                    engine.close()
            self.close(failed=True)
        finally:
            if self._on_end is not None:
                self._on_end()

    # -- what the pipeline uses -------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self._wanted or self._engine is not None

    def start(self) -> None:
        if not self._enabled or self.started:
            return
        self._want()
        if self._thread is None:
            self._begin()

    def get(self) -> Engine:
        if self._engine is None:
            self._want()
            # the build's thread is dropped only once its engine is held: a signal while waiting
            # for it must leave the engine to `close`, not to the end of the process
            self._engine = self._result() if self._thread is not None else self._build()
            if self._gate is None:
                self._thread = None
        return self._engine

    def ready(self) -> Engine | None:
        """The engine if it is built already (None while it starts, or if its start failed: `get`
        says why), without waiting."""
        if self._kept:
            return None  # a kept engine is lent as a plain Engine (it takes no early requests)
        thread = self._thread
        if self._engine is None and self._wanted and thread is not None and not thread.is_alive():
            if self._error is None and self._built is not None:
                return self.get()
        return self._engine

    def close(self, *, failed: bool) -> None:
        """The pipeline's run ends: close its engine (a kept one stays with its keeper). After a
        failure, one still starting is left (to `end`, or to the end of the process); after a
        normal end, one started but never used is waited for (its failure is not the run's)."""
        thread = self._thread
        if self._engine is None and self._wanted and thread is not None:
            if not failed:
                try:
                    self._engine = self._result()
                except Exception:  # nothing needed it
                    pass
            elif not thread.is_alive():
                self._engine = self._built
        engine, self._engine, self._wanted = self._engine, None, False
        if self._gate is None:
            self._thread = None
        if engine is not None and not self._kept:
            engine.close()

    # -- the build ---------------------------------------------------------------------------------
    def _want(self) -> None:
        self._wanted = self._taken = True
        if self._gate is not None:
            self._gate.want()

    def _begin(self) -> None:
        self._built, self._error = None, None
        self._thread = threading.Thread(target=self._run_build, name="hymt-engine-start", daemon=True)
        self._thread.start()

    def _run_build(self) -> None:
        try:
            self._built = self._build()
        except BaseException as exc:  # handed to the thread that asks for the engine
            self._error = exc

    def _result(self) -> Engine:
        """The built engine, once built; the build's exception if it failed."""
        assert self._thread is not None
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._built is not None
        return self._built
