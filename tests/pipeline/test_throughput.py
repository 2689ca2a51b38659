"""What makes hymt fast: batch tokenization, the engine started in the background, answers
streamed back (documents written as they settle), GPU engine defaults."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from engines import with_vllm
from pipelines import make_pipeline, run_pipeline, sources_of

from hymt_cli.engine.base import BatchLimits, Generation, GenerationRequest, Sampling
from hymt_cli.engine.identity import IdentityEngine
from hymt_cli.formats.text import TextFormat
from hymt_cli.model.prompts import build_prompt
from hymt_cli.pipeline import Planner
from hymt_cli.text.languages import language

MESSAGES = [
    "Translate the following segment into Chinese, without additional explanation.\n\nThe cat sat.",
    "将以下文本翻译为英语，注意只需要输出翻译后的结果，不要额外解释：\n\n你好，世界",
    build_prompt("Hello <s1>world</s1> — naïve café", language("de"), chinese_source=False, formatted=True),
    "  leading and trailing spaces \n\n",
    "x",
    "",
    "emoji 👩‍💻 and combining é and NBSP\u00a0here\r\nCRLF",
]


def test_batch_tokenization_gives_the_per_prompt_ids(tiny_tokenizer) -> None:
    assert tiny_tokenizer.prompt_ids_batch(MESSAGES) == [tiny_tokenizer.prompt_ids(m) for m in MESSAGES]
    assert tiny_tokenizer.prompt_ids_batch([]) == []


def sources_in(tmp_path: Path, count: int = 4):
    for i in range(count):
        (tmp_path / f"doc{i}.txt").write_text(
            f"Paragraph {i} one.\n\nShared paragraph.\n\nEnd {i} here.\n", encoding="utf-8"
        )
    return sources_of([tmp_path])


def test_planned_requests_carry_the_ids_of_the_per_prompt_path(tmp_path: Path, tiny_tokenizer) -> None:
    found = sources_in(tmp_path)
    report = make_pipeline(IdentityEngine(), to="de,zh", tokenizer=tiny_tokenizer, dry_run=True).run(found)
    planner = Planner(tiny_tokenizer, context_tokens=8192, source=None)
    for source in found:
        for segment in TextFormat().segments(source.path.read_text(encoding="utf-8")):
            for lang in (language("de"), language("zh")):
                planner.pieces_for(segment.text, lang, (source.display, segment.id))
    requests = planner.finish()  # one batch call of the tokenizer
    assert requests and report.prompt_tokens == sum(len(r.prompt_ids) for r in requests)
    assert report.unique_segments == len(requests)
    for request in requests:
        assert request.prompt_ids == tiny_tokenizer.prompt_ids(request.prompt)
        assert (
            request.prompt_tokens == len(request.prompt_ids)
            and request.max_tokens > request.source_tokens > 0
        )


class SlowStart:
    """An engine factory that records its thread and takes a while, like vLLM's start."""

    def __init__(self, engine=None, delay: float = 0.3, error: Exception | None = None) -> None:
        self.engine = engine or IdentityEngine()
        self.delay, self.error = delay, error
        self.thread: threading.Thread | None = None
        self.started_at: float | None = None

    def __call__(self):
        self.thread = threading.current_thread()
        self.started_at = time.monotonic()
        time.sleep(self.delay)
        if self.error is not None:
            raise self.error
        return self.engine


def test_the_engine_starts_in_the_background_while_planning(tmp_path: Path) -> None:
    factory = SlowStart()
    planned_at: list[float] = []
    # a window's plan is handed on once its planning is over
    pipeline = make_pipeline(factory, on_planned=lambda requests: planned_at.append(time.monotonic()))
    report = pipeline.run(sources_in(tmp_path))
    assert report.files_ok == 4 and report.files_failed == 0
    assert factory.thread is not None and factory.thread is not threading.main_thread()
    assert factory.started_at < planned_at[0]  # started before planning ended


def test_an_engine_that_fails_to_start_fails_the_run_with_its_error(tmp_path: Path) -> None:
    from hymt_cli.errors import EngineUnavailable

    factory = SlowStart(delay=0.0, error=EngineUnavailable("no model here"))
    pipeline = make_pipeline(factory)
    with pytest.raises(EngineUnavailable, match="no model here"):
        pipeline.run(sources_in(tmp_path))


def test_no_engine_for_a_dry_run_or_nothing_to_translate(tmp_path: Path) -> None:
    factory = SlowStart()
    make_pipeline(factory, dry_run=True).run(sources_in(tmp_path))
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "n.txt").write_text("42\n\n3.14\n", encoding="utf-8")
    run_pipeline([tmp_path / "empty"], factory)
    assert factory.thread is None


class Streaming:
    """Answers like identity, one at a time and in reverse order, recording which documents
    existed on disk when each answer was handed back."""

    name = "streaming"
    limits = BatchLimits(10**9, 10**6)
    retries = 0

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.calls = 0
        self.files_seen: list[int] = []

    def generate_stream(self, requests: Sequence[GenerationRequest]):
        self.calls += 1
        for index in reversed(range(len(requests))):
            self.files_seen.append(len(list(self.out_dir.rglob("*.txt"))))
            yield index, Generation(requests[index].source_text, "stop", 3)

    def generate(self, requests):
        raise AssertionError("a streaming engine is asked through generate_stream")

    def close(self) -> None:
        pass


def test_documents_are_written_as_their_answers_arrive(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    found = sources_in(docs, count=6)
    out = tmp_path / "out"
    engine = Streaming(out)
    report = make_pipeline(engine, out_dir=out).run(found)
    assert (
        report.files_ok == 6
        and report.untranslated == 0
        and report.output_tokens == 3 * report.engine_requests
    )
    assert engine.calls == 1  # the engine's own budget: the whole job in one call
    assert engine.files_seen[0] == 0 and engine.files_seen[-1] > 0  # written before the last answer
    for source in found:
        assert (out / "fr" / source.path.name).read_bytes() == source.path.read_bytes()


def test_an_engine_that_loses_answers_is_an_error(tmp_path: Path) -> None:
    class Lossy(Streaming):
        def generate_stream(self, requests):
            yield 0, Generation(requests[0].source_text, "stop", 1)

    with pytest.raises(RuntimeError, match="answered 1 of"):
        make_pipeline(Lossy(tmp_path), out_dir=tmp_path / "o").run(sources_in(tmp_path))


def test_gpu_settings_come_from_the_tuning_and_yield_to_the_user(tiny_engine_options) -> None:
    from dataclasses import replace

    from hymt_cli.engine.tuning import Tuning
    from hymt_cli.engine.vllm_arguments import llm_kwargs

    tuning = Tuning(
        max_num_seqs=2048,
        max_num_batched_tokens=32768,
        cudagraph_capture_size=2048,
        gpu_memory_utilization=0.45,
        replicas_per_gpu=2,
    )
    plain = with_vllm(tiny_engine_options, enforce_eager=False)
    cuda = llm_kwargs(plain, Sampling(), on_cpu=False, tuning=tuning)
    graphs = cuda["compilation_config"]
    assert (graphs["mode"], graphs["cudagraph_mode"], graphs["max_cudagraph_capture_size"]) == (
        3,
        "FULL_AND_PIECEWISE",
        2048,
    )
    assert cuda["enable_prefix_caching"] is True and cuda["gpu_memory_utilization"] == 0.45
    assert cuda["max_num_seqs"] == 2048 and cuda["max_num_batched_tokens"] == 32768
    chosen = replace(
        with_vllm(
            tiny_engine_options,
            enforce_eager=True,
            quantization="fp8",
            tensor_parallel_size=2,
            gpu_memory_utilization=0.5,
        ),
        max_model_len=2048,
        dtype="bfloat16",
        extra={"max_num_seqs": 64},
    )
    kwargs = llm_kwargs(chosen, Sampling(), on_cpu=False, tuning=tuning)
    assert "compilation_config" not in kwargs and kwargs["max_num_seqs"] == 64
    assert (
        kwargs["quantization"],
        kwargs["tensor_parallel_size"],
        kwargs["gpu_memory_utilization"],
        kwargs["max_model_len"],
        kwargs["dtype"],
    ) == ("fp8", 2, 0.5, 2048, "bfloat16")
    cpu = llm_kwargs(plain, Sampling(), on_cpu=True)
    assert "compilation_config" not in cpu and "max_num_seqs" not in cpu


@pytest.mark.vllm
def test_streamed_answers_match_generate(vllm_engine, tiny_tokenizer) -> None:
    requests = [
        GenerationRequest(m, tiny_tokenizer.prompt_ids(m), n) for m, n in zip(MESSAGES, [1, 16, 2, 8, 4])
    ]
    streamed = dict(vllm_engine.generate_stream(requests))
    assert sorted(streamed) == list(range(len(requests)))
    assert [streamed[i] for i in range(len(requests))] == vllm_engine.generate(requests)
    # stopping early aborts the rest: the next call sees only its own requests
    stream = vllm_engine.generate_stream(requests)
    next(stream)
    stream.close()
    assert len(vllm_engine.generate(requests[:2])) == 2
    # the engine keeps `in_flight` requests in vLLM, topped up as answers come back
    saved, vllm_engine.in_flight = vllm_engine.in_flight, 2
    try:
        queued = [vllm_engine.pending for _ in vllm_engine.generate_stream(requests)]
        assert len(queued) == len(requests) and max(queued) <= 2 and vllm_engine.pending == 0
    finally:
        vllm_engine.in_flight = saved


class InOrder(IdentityEngine):
    """Answers one request at a time, in the order given, noting which outputs exist by then."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.asked: list[str] = []
        self.written: list[set[str]] = []

    def generate_stream(self, requests: Sequence[GenerationRequest]):
        for i, request in enumerate(requests):
            self.asked.append(request.source_text)
            self.written.append({p.name for p in self.out.glob("*.txt")})
            yield i, Generation(request.source_text, "stop", 1)


@pytest.mark.parametrize("bucket", [3, None])
def test_documents_are_submitted_in_order_and_the_first_is_written_first(tmp_path: Path, bucket) -> None:
    """Document order with length buckets: the first document's requests go first and it is
    written before the last request is answered. Sorting the whole job by length instead
    would send its long paragraph last, to wait for everything: the longest requests lead
    either way (batching.LONG_LEAD_FACTOR), then the others, shortest first."""
    docs = tmp_path / "in"
    docs.mkdir()
    (docs / "a.txt").write_text("Short a.\n\n" + "A very long paragraph. " * 40 + "\n", encoding="utf-8")
    for name in "bcdef":
        (docs / f"{name}.txt").write_text(f"Short {name}.\n\nAnother {name} line.\n", encoding="utf-8")
    engine = InOrder(tmp_path / "out" / "fr")
    run_pipeline([docs], engine, out_dir=tmp_path / "out", submit_bucket=bucket)
    first_with_a = next(
        (i for i, names in enumerate(engine.written) if "a.txt" in names), len(engine.written)
    )
    if bucket is not None:
        assert {"Short a.", "A very long paragraph. " * 39 + "A very long paragraph."} <= set(
            engine.asked[:3]
        )
        assert first_with_a <= 3 < len(engine.asked) - 1  # written long before the job ends
    else:
        rest = [len(text) for text in engine.asked[1:]]
        assert engine.asked[0].startswith("A very long") and rest == sorted(rest)


def test_submission_order_sorts_within_buckets_only() -> None:
    from hymt_cli.pipeline.batching import budget_batches, submission_order

    items = [5, 1, 4, 9, 2, 8, 3]
    assert submission_order(items, lambda x: x, bucket=3) == [1, 4, 5, 2, 8, 9, 3]
    assert submission_order(items, lambda x: x, bucket=None) == sorted(items)
    assert budget_batches([1, 4, 5, 2, 8, 9, 3], lambda x: x, token_budget=10, max_items=2) == [
        [1, 4],
        [5, 2],
        [8],
        [9],
        [3],
    ]
