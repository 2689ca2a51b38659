"""An engine whose spec says so (vLLM on a GPU machine) starts as the run begins, before the
tokenizer is loaded and any input is read; a run that needs no engine stops it at once.

The engine here: two identity replica processes (engine processes, as vLLM's on a GPU) that take
HYMT_TEST_START_S seconds to start, behind a registry entry that starts early."""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from engines import identity_replica

from hymt_cli.engine import ENGINES, EngineSetup, EngineSpec, StartGate
from hymt_cli.engine.replicas import ReplicaEngine, ReplicaSlot
from hymt_cli.errors import EngineUnavailable
from hymt_cli.reporting.progress import ProgressEvents
from hymt_cli.run.config import RunConfig
from hymt_cli.run.session import run_translation
from hymt_cli.settings import Settings


class Events(ProgressEvents):
    def __init__(self) -> None:
        self.log: list[tuple[float, str]] = []

    def _at(self, name: str) -> None:
        self.log.append((time.monotonic(), name))

    def engine_starting(self, engine: str, model: str | None, activity: object = None) -> None:
        self._at("engine_starting")

    def engine_ready(self) -> None:
        self._at("engine_ready")

    def phase(self, name: str) -> None:
        self._at(name)

    def names(self) -> list[str]:
        return [name for _, name in self.log]


def slow_replicas(start_s: float) -> Callable[[EngineSetup], ReplicaEngine]:
    def build(setup: EngineSetup) -> ReplicaEngine:
        slots = [ReplicaSlot(f"r{i}", {"HYMT_TEST_START_S": str(start_s)}) for i in range(2)]
        return ReplicaEngine(identity_replica, slots, gate=setup.gate)

    return build


@pytest.fixture
def early_engine(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    def register(start_s: float) -> None:
        spec = EngineSpec(
            "early",
            "identity replicas that start early",
            slow_replicas(start_s),
            needs_model=False,
            translates=False,
            takes_engine_args=False,
            starts_early=lambda options: True,
        )
        monkeypatch.setitem(ENGINES, "early", spec)

    return register


def translate(folder: Path, out: Path, memory: Path) -> tuple[float, Events, int]:
    settings = Settings.build(inputs=(str(folder),), to="de", engine="early", out=out, cache=memory)
    events = Events()
    began = time.monotonic()
    report = run_translation(RunConfig.of(settings), events)
    return began, events, report.engine_requests


def test_the_engine_starts_before_the_inputs_are_read(
    tmp_path: Path, early_engine: Callable[[float], None]
) -> None:
    early_engine(1.0)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("One paragraph.\n\nAnother one.\n", encoding="utf-8")
    _, events, requests = translate(tmp_path / "docs", tmp_path / "out", tmp_path / "tm.sqlite3")
    names = events.names()
    assert names.index("engine_starting") < names.index("reading"), names
    assert (
        requests == 2
        and (tmp_path / "out" / "de" / "a.txt").read_bytes() == (tmp_path / "docs" / "a.txt").read_bytes()
    )


def test_a_run_that_needs_no_engine_stops_the_early_start_at_once(
    tmp_path: Path, early_engine: Callable[[float], None]
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("Remembered paragraph.\n", encoding="utf-8")
    early_engine(0.0)
    translate(tmp_path / "docs", tmp_path / "out1", tmp_path / "tm.sqlite3")  # fills the memory
    early_engine(60.0)  # an engine that would take a minute to start
    began, events, requests = translate(tmp_path / "docs", tmp_path / "out2", tmp_path / "tm.sqlite3")
    assert requests == 0 and "engine_starting" in events.names() and "engine_ready" not in events.names()
    assert time.monotonic() - began < 20  # not the engine's minute
    assert (tmp_path / "out2" / "de" / "a.txt").read_bytes() == b"Remembered paragraph.\n"
    assert not [p for p in multiprocessing.active_children() if p.name.startswith("hymt-replica")]


def test_an_abandoned_gate_stops_replicas_that_are_starting() -> None:
    gate = StartGate()
    threading.Timer(0.5, gate.abandon).start()
    began = time.monotonic()
    slots = [ReplicaSlot(f"r{i}", {"HYMT_TEST_START_S": "60"}) for i in range(2)]
    with pytest.raises(EngineUnavailable, match="not needed"):
        ReplicaEngine(identity_replica, slots, gate=gate)
    assert time.monotonic() - began < 15
    assert not [p for p in multiprocessing.active_children() if p.name.startswith("hymt-replica")]
    wanted = StartGate()
    wanted.want()
    wanted.abandon()  # too late: the run took the engine
    assert not wanted.abandoned and wanted.wait()


def test_a_run_that_ends_while_its_engine_is_starting_stops_the_start(
    tmp_path: Path, early_engine: Callable[[float], None]
) -> None:
    """A failure or a signal while the pipeline waits for the engine it took: the start stops
    too (else the engine processes, not daemons, would hold the process at its exit)."""
    from hymt_cli.pipeline.engine_start import EngineLease
    from hymt_cli.run.engine_setup import EngineFactory

    early_engine(60.0)
    settings = Settings.build(inputs=(str(tmp_path),), to="de", engine="early")
    factory = EngineFactory(
        RunConfig.of(settings).engine, ProgressEvents(), verbose=False, log_file=None, gate=StartGate()
    )
    assert factory.gate is not None
    lease = EngineLease(factory, gate=factory.gate)
    outcome: list[BaseException] = []

    def pipeline_waits() -> None:
        try:
            lease.get()
        except BaseException as exc:
            outcome.append(exc)

    waiting = threading.Thread(target=pipeline_waits)
    waiting.start()
    time.sleep(1.0)
    began = time.monotonic()
    lease.end()
    waiting.join(timeout=30)
    assert time.monotonic() - began < 20 and not waiting.is_alive()
    assert outcome and isinstance(outcome[0], EngineUnavailable)
    assert not [p for p in multiprocessing.active_children() if p.name.startswith("hymt-replica")]
