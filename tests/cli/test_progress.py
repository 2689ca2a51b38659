"""Progress in-process: answers are counted as they stream (several updates a second, not jumps
of 1024), while the memory still commits them in chunks; the ETA follows the text done, not
request counts; the JSON display writes one object per line."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from pipelines import run_pipeline

from hymt_cli.cli.displays import JsonProgress
from hymt_cli.engine.base import BatchEngine, Generation, GenerationRequest
from hymt_cli.pipeline.dispatch import MEMORY_CHUNK
from hymt_cli.reporting.progress import ProgressEvents, ProgressTracker, RunState


class SlowStream(BatchEngine):
    """Answers one request every `delay` seconds, as a streaming engine does."""

    name = "slow-stream"

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def generate_stream(self, requests: Sequence[GenerationRequest]) -> Iterator[tuple[int, Generation]]:
        for i, request in enumerate(requests):
            time.sleep(self.delay)
            yield i, Generation(request.source_text, "stop", 3)


class Sink(ProgressEvents):
    def __init__(self) -> None:
        self.advances: list[int] = []
        self.files: list[str | None] = []
        self.phases: list[str] = []

    def planned(self, *, files: int, requests: int, prompt_tokens: int) -> None: ...

    def advanced(self, *, requests: int, output_tokens: int, prompt_tokens: int = 0) -> None:
        self.advances.append(requests)

    def file_done(self, output: str | None = None) -> None:
        self.files.append(output)

    def phase(self, name: str) -> None:
        self.phases.append(name)


class Memory:
    def __init__(self) -> None:
        self.chunks: list[int] = []

    def recall(self, keys: Sequence[tuple[str, str, str]]) -> list[str | None]:
        return [None] * len(keys)

    def remember(self, items: Sequence[tuple[tuple[str, str, str], str]]) -> None:
        self.chunks.append(len(items))


def test_answers_are_counted_as_they_stream_and_committed_in_chunks(tmp_path: Path) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text("".join(f"Paragraph number {i}.\n\n" for i in range(1500)))
    sink, memory = Sink(), Memory()
    run_pipeline([doc], SlowStream(0.001), progress=sink, memory=memory)
    assert sum(sink.advances) == 1500
    assert len(sink.advances) >= 5 and max(sink.advances) < MEMORY_CHUNK  # no jumps of a whole chunk
    assert memory.chunks == [MEMORY_CHUNK, 1500 - MEMORY_CHUNK]  # the memory still commits by chunk
    assert sink.files == [str(tmp_path / "a.fr.txt")] and sink.phases[:2] == ["reading", "planning"]


def test_the_eta_follows_the_text_not_the_request_count() -> None:
    state = RunState(requests_total=100, tokens_total=10_000, translating_since=time.monotonic() - 10)
    state.requests_done, state.tokens_done = 50, 1_000  # half the requests, a tenth of the text
    eta = state.eta_seconds()
    assert eta is not None and 85 <= eta <= 95


def test_json_events_are_one_object_per_line() -> None:
    lines: list[str] = []
    progress = ProgressTracker(JsonProgress(lines.append))
    progress.engine_starting("vllm", "m")
    progress.planned(files=2, requests=10, prompt_tokens=500)
    progress.engine_ready()
    progress.file_done("a.fr.txt")
    progress.finished(status="ok", exit_code=0)
    progress.close()
    events = [json.loads(line) for line in lines]
    assert [e["event"] for e in events] == [
        "engine_starting",
        "planned",
        "engine_ready",
        "file_written",
        "finished",
    ]
    assert events[3]["path"] == "a.fr.txt" and all(isinstance(e["time"], float) for e in events)
