"""Sending planned requests to the engine: one pass, one greedy retry for the answers a re-run
may fix, then tag repair for what still breaks its tags.

Answers are handed on as they arrive (`on_final`), so documents are written while the engine
keeps generating, and committed to the memory in chunks, so a killed run resumes. An engine
that takes requests while it works (base.open_stream) gets the first pass in parts, the first
ones while the pipeline still reads and plans the window (`send_ahead`): planning a large
window takes seconds that the engine would otherwise wait.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from ..engine.base import Engine, Generation, GenerationRequest, RequestStream, open_stream
from ..reporting.progress import ProgressEvents
from ..reporting.report import RunReport
from ..signals import deferred
from .batching import budget_batches, lead_and_rest, submission_order
from .outcomes import Outcomes
from .planning import PlannedRequest, Planner, RequestKey
from .repair import Repair

DEFAULT_BATCH_TOKENS = 262_144
DEFAULT_BATCH_REQUESTS = 4096
# Requests go to the engine in document order, sorted by length within runs of this many: the
# engine works through them in order (a streaming engine keeps the next ones queued), so the
# first documents are written first instead of every document waiting for the whole job.
SUBMIT_BUCKET = 1024
# Requests planned before a part of the window goes to an engine that takes requests while it
# works: enough to keep a GPU's engines busy while the next part is read, in few tokenizer calls.
SEND_AHEAD = 2048
MEMORY_CHUNK = 1024  # answers committed to the memory at a time
PROGRESS_EVERY = 0.2  # seconds between progress updates (answers are counted one by one)


class Memory(Protocol):
    """Translation memory hook (memory.PipelineMemory), keyed like requests: (target language,
    source text, context)."""

    def recall(self, keys: Sequence[RequestKey]) -> list[str | None]: ...
    def remember(self, items: Sequence[tuple[RequestKey, str]]) -> None: ...


class Dispatcher:
    def __init__(
        self,
        engine: Callable[[], Engine],
        outcomes: Outcomes,
        planner: Planner,
        *,
        report: RunReport,
        progress: ProgressEvents,
        memory: Memory | None,
        batch_tokens: int | None,
        batch_requests: int | None,
        on_final: Callable[[RequestKey], None],
        submit_bucket: int | None = SUBMIT_BUCKET,
        long_first: bool = True,
    ) -> None:
        """`submit_bucket`: see SUBMIT_BUCKET; None sorts each pass as a whole by length.
        `long_first`: the longest requests lead (batching.LONG_LEAD_FACTOR)."""
        self._engine = engine
        self.outcomes = outcomes
        self.planner = planner
        self.report = report
        self.progress = progress
        self.memory = memory
        self.batch_tokens = batch_tokens
        self.batch_requests = batch_requests
        self.on_final = on_final
        self.submit_bucket = submit_bucket
        self.long_first = long_first
        self._stream: RequestStream | None = None
        self._streamless = False  # the engine has no streams: no pass starts early
        self._stream_engine: Engine | None = None
        self._stream_opened = 0.0
        self._sent: list[PlannedRequest] = []  # what the stream has, in the order it was added

    def can_send_ahead(self, engine: Engine) -> bool:
        """Whether the pass can start before the window is planned: `engine` takes requests
        while it works (base.open_stream). Opens the pass's stream on the first yes."""
        if self._stream is None and not self._streamless:
            self._stream = open_stream(engine)
            self._streamless = self._stream is None
            self._stream_engine, self._stream_opened = engine, time.monotonic()
        return self._stream is not None

    def send_ahead(self, requests: list[PlannedRequest]) -> None:
        """Send a part of the first pass now (`can_send_ahead` said yes), in submission order:
        its longest requests go ahead of all that were sent before and are still waiting."""
        assert self._stream is not None
        lead, rest = lead_and_rest(
            requests,
            _cost,
            bucket=self.submit_bucket,
            length=(lambda r: r.max_tokens) if self.long_first else None,
        )
        self._stream.add([_asked(r, deterministic=False) for r in lead + rest], lead=len(lead))
        self._sent.extend(lead + rest)

    def dispatch(self, requests: list[PlannedRequest]) -> None:
        """Engine pass (what was sent ahead, then `requests`), then one deterministic second try
        for outputs that failed a check."""
        engine: Engine
        if self._stream is not None and self._stream_engine is not None:
            engine = self._stream_engine
            self.send_ahead(requests)
            requests, stream, self._stream = self._sent, self._stream, None
            try:
                self._collect(
                    engine, requests, stream.answers(), deterministic=False, started=self._stream_opened
                )
            finally:
                stream.stop()
        elif requests:
            engine = self._engine()
            self._run_pass(engine, requests, deterministic=False)
        else:
            return
        retry = [r for r in requests if self.outcomes.retryable(r.key)]
        if retry:
            self.report.retried += len(retry)
            self._run_pass(engine, retry, deterministic=True)
            self._repair(engine, [r for r in retry if self.outcomes.wants_repair(r)])

    def stop(self) -> None:
        """The run ends early: a stream still open stops (its engine drops what it still has)."""
        stream, self._stream = self._stream, None
        if stream is not None:
            stream.stop()

    def _run_pass(self, engine: Engine, requests: list[PlannedRequest], *, deterministic: bool) -> None:
        batches = budget_batches(
            submission_order(
                requests,
                _cost,
                bucket=self.submit_bucket,
                length=(lambda r: r.max_tokens) if self.long_first else None,
            ),
            _cost,
            token_budget=self.batch_tokens or engine.limits.tokens or DEFAULT_BATCH_TOKENS,
            max_items=self.batch_requests or engine.limits.requests or DEFAULT_BATCH_REQUESTS,
        )
        for batch in batches:
            asked = [_asked(r, deterministic) for r in batch]
            self._collect(
                engine,
                batch,
                engine.generate_stream(asked),
                deterministic=deterministic,
                started=time.monotonic(),
            )

    def _collect(
        self,
        engine: Engine,
        batch: list[PlannedRequest],
        answers: Iterator[tuple[int, Generation]],
        *,
        deterministic: bool,
        started: float,
    ) -> None:
        """Take the answers to `batch` as they come: check them, hand on the final ones, commit
        the accepted ones to the memory in chunks."""
        retries = engine.retries
        self.report.engine_requests += len(batch)
        done = 0
        answered: list[PlannedRequest] = []
        counter = _Counter(self.progress, enabled=not deterministic)
        try:
            for index, generation in answers:
                done += 1
                self.report.output_tokens += generation.output_tokens
                request = batch[index]
                answered.append(request)
                counter.add(request.prompt_tokens, generation.output_tokens)
                if self.outcomes.answered(request, generation, deterministic=deterministic):
                    self.on_final(request.key)
                if len(answered) == MEMORY_CHUNK:
                    self._remember(answered)
                    answered = []
        finally:  # the last chunk too, also when a signal or an error stops the run
            self._remember(answered)
            counter.flush()
            self.report.engine_retries += engine.retries - retries
        self.report.engine_seconds += time.monotonic() - started
        if done != len(batch):
            raise RuntimeError(f"engine {engine.name!r} answered {done} of {len(batch)} requests")

    def _remember(self, answered: list[PlannedRequest]) -> None:
        """Commit accepted answers in chunks: a killed run resumes from the memory. A signal
        never cuts a commit in half (deferred)."""
        if self.memory is None or not answered:
            return
        accepted = [
            (r.key, outcome.translation)
            for r in answered
            if (outcome := self.outcomes[r.key]).translation is not None and outcome.problem is None
        ]
        with deferred():
            self.memory.remember(accepted)

    def _run_planner(self, request: PlannedRequest) -> Callable[[str], PlannedRequest]:
        """Plans the plain requests of a broken request's text runs (same language, same place)."""
        return lambda text: self.planner.plan_now(text, request.lang, request.first_use, request.context)

    def _repair(self, engine: Engine, broken: list[PlannedRequest]) -> None:
        """Tags still broken after the retry: translate each inline run on its own."""
        if not broken:
            return
        repairs = [Repair.plan(r, self._run_planner(r)) for r in broken]
        fresh = {
            key: self.planner.planned[key]
            for rep in repairs
            for key in rep.run_keys()
            if self.outcomes[key].attempts == 0 and self.outcomes[key].translation is None
        }
        if fresh:
            self._run_pass(engine, list(fresh.values()), deterministic=True)
        for rep in repairs:
            translation = rep.translation(self.outcomes)
            if translation is not None:
                self.outcomes.repaired(rep.request.key, translation)
            self.on_final(rep.request.key)


def _cost(request: PlannedRequest) -> int:
    return request.prompt_tokens + request.max_tokens


def _asked(request: PlannedRequest, deterministic: bool) -> GenerationRequest:
    return GenerationRequest(request.model_text, request.prompt_ids, request.max_tokens, deterministic)


class _Counter:
    """Answers counted one by one, reported to progress a few times a second."""

    def __init__(self, progress: ProgressEvents, *, enabled: bool) -> None:
        self._progress = progress
        self._enabled = enabled
        self._requests = self._prompt_tokens = self._output_tokens = 0
        self._last = time.monotonic()

    def add(self, prompt_tokens: int, output_tokens: int) -> None:
        self._requests += 1
        self._prompt_tokens += prompt_tokens
        self._output_tokens += output_tokens
        if time.monotonic() - self._last >= PROGRESS_EVERY:
            self.flush()

    def flush(self) -> None:
        if self._enabled and self._requests:
            self._progress.advanced(
                requests=self._requests, output_tokens=self._output_tokens, prompt_tokens=self._prompt_tokens
            )
        self._requests = self._prompt_tokens = self._output_tokens = 0
        self._last = time.monotonic()
