"""Requests sent to an engine before the call that wants their answers (TakesEarlyRequests): the
call takes them as its own, every request is answered once and right, and those never asked for
are dropped. Identity replicas (cheap processes) and the session's vLLM CPU engine."""

from __future__ import annotations

import pytest
from engines import identity_replica

from hymt_cli.engine.base import Generation, GenerationRequest, TakesEarlyRequests
from hymt_cli.engine.early import EarlyRequests
from hymt_cli.engine.replicas import ReplicaEngine, ReplicaSlot


def asks(n: int, start: int = 0) -> list[GenerationRequest]:
    return [GenerationRequest(f"segment {i}", (1, 2, i + 3), 8) for i in range(start, start + n)]


def test_the_bookkeeping_adopts_each_early_request_once() -> None:
    early = EarlyRequests()
    requests = asks(4)
    tags = [early.add(r) for r in requests[:3]]
    assert all(t < 0 for t in tags) and len(set(tags)) == 3
    early.answered(tags[1], Generation("one", "stop", 1))
    early.forget(tags[2])  # its engine stopped: asked for again, not waited for
    running, answered = early.adopt(requests)
    assert running == {tags[0]: 0}
    assert answered == [(1, Generation("one", "stop", 1))]
    assert len(early) == 0 and early.adopt(requests) == ({}, [])
    # a deterministic retry of the same prompt is another request
    early.add(requests[0])
    assert early.adopt([GenerationRequest("segment 0", (1, 2, 3), 8, deterministic=True)]) == ({}, [])


def trickle(n: int) -> list[ReplicaSlot]:
    return [ReplicaSlot(f"r{i}", {"HYMT_TEST_TRICKLE": "16"}) for i in range(n)]


def test_replicas_answer_early_requests_in_the_call_that_asks_for_them() -> None:
    with ReplicaEngine(identity_replica, trickle(2)) as engine:
        assert engine.wait_started() == 2
        assert isinstance(engine, TakesEarlyRequests)
        room = engine.early_room()
        assert room == 2 * 256  # every ready replica's queue
        requests = asks(1200)
        engine.send_early(requests[100:700])  # more than there is room for: the rest waits
        assert engine.early_room() == 0
        answers = list(engine.generate_stream(requests))
        assert sorted(i for i, _ in answers) == list(range(1200))
        assert all(g.text == requests[i].source_text for i, g in answers)
        assert sum(engine.served.values()) == 1200  # none asked twice
        # early requests no call asks for are dropped with the next call; the engine goes on
        engine.send_early(asks(40, start=5000))
        assert [g.text for g in engine.generate(requests[:3])] == ["segment 0", "segment 1", "segment 2"]
        later = asks(40, start=5000)
        assert [g.text for g in engine.generate(later)] == [r.source_text for r in later]


@pytest.mark.vllm
def test_vllm_takes_early_requests_as_the_calls_own(vllm_engine, tiny_tokenizer) -> None:
    texts = [f"Translate the following segment into German.\n\nLine {i}" for i in range(12)]
    requests = [GenerationRequest(t, tiny_tokenizer.prompt_ids(t), 6 + i % 5) for i, t in enumerate(texts)]
    expected = vllm_engine.generate(requests)
    vllm_engine.send_early(requests[3:9])
    assert vllm_engine.pending == 6
    assert vllm_engine.generate(requests) == expected  # greedy: the same answers, each once
    assert vllm_engine.pending == 0
    vllm_engine.send_early(requests[:4])  # never asked for: aborted with the next call
    assert vllm_engine.generate(requests[8:]) == expected[8:]
    assert vllm_engine.pending == 0
