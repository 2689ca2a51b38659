"""Engines for tests: a recorder around a real engine, and fault injection."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from hymt_cli.engine.base import Engine, Generation, GenerationRequest


class Recording:
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

    def close(self) -> None:
        pass


class Faulty:
    """Fault injection: `fault(request) -> Generation | None` (None: answer like identity)."""

    name = "faulty"

    def __init__(self, fault: Callable[[GenerationRequest], Generation | None]) -> None:
        self.fault = fault
        self.requests: list[GenerationRequest] = []

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        self.requests.extend(requests)
        return [self.fault(r) or Generation(r.source_text, "stop", 1) for r in requests]

    def close(self) -> None:
        pass
