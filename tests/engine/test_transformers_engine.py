"""TransformersEngine on the tiny random models, plus its bucketing and trimming rules.

`engine` runs the noise model (answers run to max_tokens); `answering` the model that
answers one word piece, then EOS.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hymt_cli.engine.base import EngineOptions, GenerationRequest, Sampling
from hymt_cli.engine.transformers_engine import TransformersEngine, length_buckets, trim_answer
from hymt_cli.errors import EngineUnavailable

MESSAGES = [
    "Translate the following segment into German, without additional explanation.\n\nHi.",
    "你好，世界",
    "Привет",
    "a",
    "<s1>b</s1> c d e f g h i j k l m n o p",
]


@pytest.fixture(scope="module")
def engine(tiny_engine_options: EngineOptions):
    pytest.importorskip("transformers")
    with TransformersEngine(tiny_engine_options, Sampling.deterministic()) as engine:
        yield engine


@pytest.fixture(scope="module")
def answering(answering_model_dir: Path, tiny_engine_options: EngineOptions):
    options = replace(tiny_engine_options, model=str(answering_model_dir))
    with TransformersEngine(options, Sampling.deterministic()) as engine:
        yield engine


def requests_for(tokenizer, max_tokens: list[int], messages=MESSAGES) -> list[GenerationRequest]:
    return [GenerationRequest(m, tokenizer.prompt_ids(m), n) for m, n in zip(messages, max_tokens)]


def test_one_generation_per_request_in_order(engine, tiny_tokenizer) -> None:
    requests = requests_for(tiny_tokenizer, [8] * len(MESSAGES))
    forward = engine.generate(requests)
    assert len(forward) == len(requests)
    assert engine.generate(requests[::-1]) == forward[::-1]
    # a row's answer does not depend on the other rows of its bucket (left padding works)
    assert [engine.generate([r])[0] for r in requests] == forward


def test_each_request_keeps_its_own_max_tokens(engine, tiny_tokenizer) -> None:
    requests = requests_for(tiny_tokenizer, [1, 16, 3, 2, 40])
    for request, result in zip(requests, engine.generate(requests)):
        # noise never stops: each row is cut at its own budget, not the bucket's largest
        assert (result.finish_reason, result.output_tokens) == ("length", request.max_tokens)
        assert result.text and "<｜" not in result.text and "\ufffd" not in result.text


def test_a_row_stops_at_its_eos(answering, tiny_tokenizer) -> None:
    requests = requests_for(tiny_tokenizer, [1, 16, 1, 2, 64])
    for request, result in zip(requests, answering.generate(requests)):
        if request.max_tokens == 1:
            assert (result.finish_reason, result.output_tokens) == ("length", 1)
        else:  # one word piece, then EOS (counted as vLLM does, not decoded)
            assert (result.finish_reason, result.output_tokens) == ("stop", 2)
        assert result.text.strip() and "<｜" not in result.text


def test_more_requests_than_one_bucket_holds(answering, tiny_tokenizer) -> None:
    messages = [f"{i} " * (i % 7 + 1) for i in range(40)]
    requests = requests_for(tiny_tokenizer, [1 + i % 3 for i in range(40)], messages)
    results = answering.generate(requests)
    assert len(results) == 40
    assert [r.finish_reason for r in results] == ["length" if q.max_tokens == 1 else "stop" for q in requests]


def test_greedy_is_deterministic(engine, tiny_tokenizer) -> None:
    request = requests_for(tiny_tokenizer, [8])[0]
    first = engine.generate([request, request])
    assert first[0] == first[1] == engine.generate([request])[0]


def test_seeded_sampling_is_reproducible(tiny_engine_options, tiny_tokenizer) -> None:
    requests = requests_for(tiny_tokenizer, [6] * len(MESSAGES))
    runs = []
    for _ in range(2):
        with TransformersEngine(tiny_engine_options, Sampling(seed=11)) as sampler:
            runs.append(sampler.generate(requests))
    assert runs[0] == runs[1]
    assert all(g.output_tokens <= 6 for g in runs[0])


def test_no_requests_no_work(engine) -> None:
    assert engine.generate([]) == []


def test_load_errors_are_engine_unavailable(tmp_path: Path, tiny_engine_options) -> None:
    with pytest.raises(EngineUnavailable, match="does not exist"):
        TransformersEngine(EngineOptions(model=str(tmp_path / "nope")), Sampling())
    (tmp_path / "config.json").write_text('{"model_type": "no_such_model"}', encoding="utf-8")
    with pytest.raises(EngineUnavailable, match="could not load") as info:
        TransformersEngine(EngineOptions(model=str(tmp_path)), Sampling())
    assert "\n" not in info.value.message
    with pytest.raises(EngineUnavailable, match="unknown dtype"):
        TransformersEngine(replace(tiny_engine_options, dtype="float7"), Sampling())


EOS = frozenset({1, 9})


@pytest.mark.parametrize(
    "new_ids, max_tokens, expected",
    [
        ([5, 6, 1, 2, 2], 8, ([5, 6], 3, "stop")),  # EOS, then the bucket's padding
        ([5, 9, 7, 7], 8, ([5], 2, "stop")),  # any of several EOS ids
        ([5, 6, 7, 8], 4, ([5, 6, 7, 8], 4, "length")),  # full budget, no EOS
        ([5, 6, 7, 1], 2, ([5, 6], 2, "length")),  # EOS past this row's own max
        ([1], 4, ([], 1, "stop")),  # an empty answer
    ],
)
def test_trim_answer(new_ids, max_tokens, expected) -> None:
    assert trim_answer(new_ids, max_tokens, EOS) == expected


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 300), st.integers(1, 300)), max_size=80),
    st.integers(1, 8),
    st.integers(64, 4000),
)
def test_length_buckets(shapes, max_rows, max_tokens) -> None:
    requests = [GenerationRequest("", (0,) * p, n) for p, n in shapes]
    buckets = length_buckets(requests, max_rows=max_rows, max_tokens=max_tokens)
    assert sorted(i for b in buckets for i in b) == list(range(len(requests)))
    lengths = [len(requests[i].prompt_token_ids) for b in buckets for i in b]
    assert lengths == sorted(lengths)
    for bucket in buckets:
        assert 1 <= len(bucket) <= max_rows
        width = max(len(requests[i].prompt_token_ids) for i in bucket)
        new = max(requests[i].max_tokens for i in bucket)
        assert len(bucket) == 1 or len(bucket) * (width + new) <= max_tokens


def test_deterministic_requests_are_greedy_under_sampling(
    engine, tiny_engine_options, tiny_tokenizer
) -> None:
    """A retry (deterministic request) decodes greedily even when the run samples."""
    greedy = [replace(r, deterministic=True) for r in requests_for(tiny_tokenizer, [6] * len(MESSAGES))]
    with TransformersEngine(tiny_engine_options, Sampling(temperature=5.0, top_p=1.0, top_k=-1)) as sampler:
        mixed = sampler.generate([greedy[0], *requests_for(tiny_tokenizer, [6]), *greedy[1:]])
    expected = engine.generate(greedy)  # the greedy engine's answers
    assert [mixed[0], *mixed[2:]] == expected
