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
