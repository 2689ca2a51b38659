"""A window's first requests go to an engine that is already running while the rest is read and
planned (Pipeline._send_early): the outputs are those of a run without, and no request is asked
for twice."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from engines import identity_replica
from pipelines import run_pipeline, write

from hymt_cli.engine.base import Generation, GenerationRequest
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.engine.replicas import ReplicaEngine, ReplicaSlot
from hymt_cli.pipeline.driver import EARLY_CHUNK


class Spy:
    """Passes everything to `inner`, counting what is sent early and asked for in calls."""

    name = "spy"

    def __init__(self, inner: ReplicaEngine) -> None:
        self.inner = inner
        self.limits = inner.limits
        self.retries = 0
        self.early: list[GenerationRequest] = []
        self.asked: list[GenerationRequest] = []

    def early_room(self) -> int:
        return self.inner.early_room()

    def send_early(self, requests: Sequence[GenerationRequest]) -> None:
        self.early.extend(requests)
        self.inner.send_early(requests)

    def generate(self, requests: Sequence[GenerationRequest]) -> list[Generation]:
        return self.inner.generate(requests)

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[tuple[int, Generation]]:
        self.asked.extend(requests)
        return self.inner.generate_stream(requests)

    def close(self) -> None:
        pass


def test_an_engine_already_running_gets_the_first_requests_while_the_rest_is_read(tmp_path: Path) -> None:
    lines = [f"Line number {i} of the catalog." for i in range(3 * EARLY_CHUNK)]
    for part in range(3):  # three files: the early sends happen between them
        write(tmp_path / "in", f"part{part}.txt", "\n\n".join(lines[part::3]) + "\n")
    plain = run_pipeline([tmp_path / "in"], IdentityEngine(), out_dir=tmp_path / "plain", to="de")
    slots = [ReplicaSlot("r1", {"HYMT_TEST_TRICKLE": "8"}), ReplicaSlot("r2", {"HYMT_TEST_TRICKLE": "8"})]
    with ReplicaEngine(identity_replica, slots) as replicas:
        assert replicas.wait_started() == 2
        spy = Spy(replicas)
        report = run_pipeline([tmp_path / "in"], spy, out_dir=tmp_path / "early", to="de")
        served = sum(replicas.served.values())
    assert report.files_ok == plain.files_ok == 3
    for part in range(3):
        name = f"de/part{part}.txt"
        assert (tmp_path / "early" / name).read_text() == (tmp_path / "plain" / name).read_text()
    assert len(spy.early) >= EARLY_CHUNK  # sent while the later files were read
    assert {r.prompt_token_ids for r in spy.early} <= {r.prompt_token_ids for r in spy.asked}
    assert served == len(spy.asked) == report.unique_segments  # each request answered once


def test_an_engine_that_takes_no_early_requests_is_offered_a_window_s_requests_once(
    tmp_path: Path, monkeypatch
) -> None:
    """The check costs a copy of the window's requests so far: made after every unit, it grew with
    the square of a window's units (a 2,000-file run spent a second in it)."""
    from hymt_cli.pipeline.planning import Planner

    offered: list[int] = []
    registered_since = Planner.registered_since

    def counting(planner: Planner, count: int) -> list:
        asks = registered_since(planner, count)
        if len(asks) >= EARLY_CHUNK:
            offered.append(len(asks))
        return asks

    monkeypatch.setattr(Planner, "registered_since", counting)
    for part in range(12):  # units planned one after another in one window
        write(tmp_path / "in", f"part{part}.txt", "\n\n".join(f"Line {part}.{i}." for i in range(60)) + "\n")
    report = run_pipeline([tmp_path / "in"], IdentityEngine(), out_dir=tmp_path / "out", to="de")
    assert report.files_ok == 12
    assert len(offered) <= 1, offered


def test_an_engine_that_becomes_ready_while_a_window_is_read_gets_its_requests_early(
    tmp_path: Path, monkeypatch
) -> None:
    """The lease builds the engine in the background: a unit planned before the build ended found
    no engine yet, and that closed the window's early sends for good (an H100's warm pass then
    idled 3.6 s, its whole first window). Now the next unit asks again."""
    import threading
    import time

    from hymt_cli.pipeline.engine_start import EngineLease

    built = threading.Event()
    units = []
    ready = EngineLease.ready

    def counting(lease: EngineLease):
        units.append(lease)
        if len(units) == 3:  # the third unit asks: the engine's build may end now
            built.set()
            time.sleep(0.3)
        return ready(lease)

    monkeypatch.setattr(EngineLease, "ready", counting)
    for part in range(10):
        write(
            tmp_path / "in",
            f"part{part}.txt",
            "\n\n".join(f"Line {part}.{i}." for i in range(EARLY_CHUNK)) + "\n",
        )
    slots = [ReplicaSlot("r1", {"HYMT_TEST_TRICKLE": "8"})]
    with ReplicaEngine(identity_replica, slots) as replicas:
        assert replicas.wait_started() == 1
        spy = Spy(replicas)

        def build() -> Spy:
            built.wait(timeout=60)
            return spy

        report = run_pipeline([tmp_path / "in"], build, out_dir=tmp_path / "out", to="de")
        served = sum(replicas.served.values())
    assert report.files_ok == 10
    assert len(units) >= 3  # units planned before and after the build ended
    assert len(spy.early) >= EARLY_CHUNK  # sent once it was ready, in the same window
    assert served == len(spy.asked) == report.unique_segments  # each request answered once
