"""The engine is built in a background thread, so that loading the model (and vLLM's CUDA
graph capture) overlaps with reading the inputs and tokenizing the prompts.

What must happen on the main thread happens before the pipeline runs, never in a factory:
Ray is initialised there (`RayCluster.connect` in translate.py; a `ray.init()` from a thread
that then ends loses its GCS connection after a minute), and a `RayEngine` built here only
starts actors on the connected cluster."""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..engine.base import Engine


class EngineStart:
    def __init__(self, factory: Callable[[], Engine]) -> None:
        self._engine: Engine | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._build, args=(factory,), name="hymt-engine-start", daemon=True
        )
        self._thread.start()

    def _build(self, factory: Callable[[], Engine]) -> None:
        try:
            self._engine = factory()
        except BaseException as exc:  # handed to the thread that asks for the engine
            self._error = exc

    def done(self) -> bool:
        """Whether the build has ended (built or failed)."""
        return not self._thread.is_alive()

    def built(self) -> bool:
        """Whether the build has ended with an engine."""
        return self.done() and self._error is None and self._engine is not None

    def result(self) -> Engine:
        """The engine, once built; the factory's exception if it failed."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._engine is not None
        return self._engine

    def discard(self) -> None:
        """The run ended early: close the engine if it is already built (a daemon thread
        still building one is left to the end of the process)."""
        if not self._thread.is_alive() and self._engine is not None:
            self._engine.close()


class EngineHolder:
    """The run's one engine: started in the background on demand, built on first use,
    closed at the end of the run."""

    def __init__(self, factory: Callable[[], Engine], *, enabled: bool = True) -> None:
        self._factory = factory
        self._enabled = enabled
        self._start: EngineStart | None = None
        self._engine: Engine | None = None

    @property
    def started(self) -> bool:
        return self._start is not None or self._engine is not None

    def start(self) -> None:
        if self._enabled and self._start is None and self._engine is None:
            self._start = EngineStart(self._factory)

    def get(self) -> Engine:
        if self._engine is None:
            # `_start` is dropped only once its engine is held: a signal while waiting for it
            # must leave the engine to `close`, not to the end of the process.
            self._engine = self._start.result() if self._start is not None else self._factory()
            self._start = None
        return self._engine

    def ready(self) -> Engine | None:
        """The engine if it is built already (None while it starts, or if its start failed:
        `get` says why), without waiting."""
        if self._engine is None and self._start is not None and self._start.built():
            return self.get()
        return self._engine

    def close(self, *, failed: bool) -> None:
        """Close the engine. After a failure, one still starting is discarded; after a normal
        end, an engine started but never used is waited for (its failure is not the run's)."""
        start, self._start = self._start, None
        if start is not None:
            if failed:
                start.discard()
            else:
                try:
                    self._engine = start.result()
                except Exception:  # nothing needed it
                    pass
        if self._engine is not None:
            self._engine.close()
            self._engine = None
