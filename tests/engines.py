"""Engines for tests: recorders around real engines, and fault injection.

They follow the real engine contract (`hymt_cli.engine.base.Engine`): engines that answer a
batch at once subclass `BatchEngine`, which streams the batch back in order.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from hymt_cli.engine.base import BatchEngine, Engine, Generation, GenerationRequest


class Recording(BatchEngine):
    """Wraps a real engine, records every request; `close` is left to the owner (shared engines)."""

    def __init__(self, inner: Engine) -> None:
        self.inner = inner
        self.name = inner.name
        self.requests: list[GenerationRequest] = []
        self.calls = 0

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        self.calls += 1
        self.requests.extend(requests)
        return self.inner.generate(requests)


class Faulty(BatchEngine):
    """Fault injection: `fault(request) -> Generation | None` (None: answer like identity)."""

    name = "faulty"

    def __init__(self, fault: Callable[[GenerationRequest], Generation | None]) -> None:
        self.fault = fault
        self.requests: list[GenerationRequest] = []

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        self.requests.extend(requests)
        return [self.fault(r) or Generation(r.source_text, "stop", 1) for r in requests]


class CountingEngine(BatchEngine):
    """Wraps an engine and records every source text it was asked for."""

    def __init__(self, inner: Engine) -> None:
        self.inner = inner
        self.name = inner.name
        self.requested: list[str] = []

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        self.requested.extend(r.source_text for r in requests)
        return self.inner.generate(requests)

    def close(self) -> None:
        self.inner.close()


class FailingEngine(CountingEngine):
    """Returns an empty output (fails validation) for texts containing `marker`."""

    def __init__(self, inner: Engine, marker: str) -> None:
        super().__init__(inner)
        self.marker = marker

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        out = super().generate(requests)
        return [Generation("", "stop", 0) if self.marker in r.source_text else g for r, g in zip(requests, out)]


# -- replica builders: module-level, so that a replica process (spawned) can unpickle them ------
def identity_replica(on_phase: Callable[[str], None]) -> Engine:
    """An identity engine in a replica process. Environment (the replica slot's):
    HYMT_TEST_DIE_AFTER=N: the process exits hard after answering N requests;
    HYMT_TEST_FAIL_START=1: building fails; HYMT_TEST_LOG=DIR: writes DIR/<pid>.start and
    DIR/<pid>.ready with the time, so that tests can see the start order."""
    import os
    import time
    from pathlib import Path

    from hymt_cli.engine.identity import IdentityEngine

    log = os.environ.get("HYMT_TEST_LOG")
    if log:
        Path(log, f"{os.environ.get('HYMT_TEST_NAME', os.getpid())}.start").write_text(repr(time.time()))
    on_phase("building")
    if os.environ.get("HYMT_TEST_FAIL_START"):
        raise RuntimeError("this replica cannot start")
    time.sleep(float(os.environ.get("HYMT_TEST_START_S", "0")))
    if log:
        Path(log, f"{os.environ.get('HYMT_TEST_NAME', os.getpid())}.ready").write_text(repr(time.time()))
    die_after = int(os.environ.get("HYMT_TEST_DIE_AFTER", "0"))
    return _Dying(IdentityEngine(), die_after) if die_after else IdentityEngine()


class _Dying(BatchEngine):
    name = "dying"

    def __init__(self, inner: Engine, after: int) -> None:
        self.inner, self.left = inner, after

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        import os

        self.left -= len(requests)
        if self.left < 0:
            os._exit(3)
        return self.inner.generate(requests)
