"""Sending planned requests to the engine: one pass, one greedy retry for the answers a re-run
may fix, then tag repair for what still breaks its tags.

Answers are handed on as they arrive (`on_final`), so documents are written while the engine
keeps generating, and committed to the memory in chunks, so a killed run resumes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from ..engine.base import Engine, GenerationRequest
from ..reporting.progress import ProgressEvents
from ..reporting.report import RunReport
from ..signals import deferred
from ._outcomes import Outcomes
from .batching import budget_batches, quick_head, submission_order
from .planning import PlannedRequest, Planner, RequestKey

if TYPE_CHECKING:  # (_run_plan.py takes SUBMIT_BUCKET from here)
    from ._run_plan import RunPlan

DEFAULT_BATCH_TOKENS = 262_144
DEFAULT_BATCH_REQUESTS = 4096
# Requests go to the engine in document order, sorted by length within runs of this many: the
# engine works through them in order (a streaming engine keeps the next ones queued), so the
# first documents are written first instead of every document waiting for the whole job.
SUBMIT_BUCKET = 1024
# Answers are handed to the memory this many at a time (it commits them when a commit is due:
# held_answers.py), and as a pass ends.
MEMORY_CHUNK = 1024
PROGRESS_EVERY = 0.2  # seconds between progress updates (answers are counted one by one)


def engine_request(request: PlannedRequest, *, deterministic: bool = False) -> GenerationRequest:
    """What the engine is asked for a planned request (the same whenever it is sent)."""
    return GenerationRequest(request.model_text, request.prompt_ids, request.max_tokens, deterministic)


class Memory(Protocol):
    """Translation memory hook (memory.PipelineMemory), keyed like requests: (target language,
    source text, context)."""

    def recall(self, keys: Sequence[RequestKey]) -> list[str | None]: ...
    def remember(self, items: Sequence[tuple[RequestKey, str]]) -> None: ...


class Dispatcher:
    def __init__(
        self,
        plan: RunPlan,
        engine: Callable[[], Engine],
        outcomes: Outcomes,
        planner: Planner,
        *,
        report: RunReport,
        progress: ProgressEvents,
        memory: Memory | None,
        on_final: Callable[[RequestKey], None],
    ) -> None:
        """The plan's batch limits and order: `submit_bucket` (SUBMIT_BUCKET; None sorts each pass
        as a whole by length), `long_first` (the longest requests lead: batching.LONG_LEAD_FACTOR),
        `batch_tokens` and `batch_requests` (None: the engine's limits, else the defaults here)."""
        self.plan = plan
        self._engine = engine
        self.outcomes = outcomes
        self.planner = planner
        self.report = report
        self.progress = progress
        self.memory = memory
        self.on_final = on_final

    def dispatch(self, requests: list[PlannedRequest]) -> None:
        """Engine pass, then one deterministic second try for outputs that failed a check."""
        if not requests:
            return
        engine = self._engine()
        self._run_pass(engine, requests, deterministic=False)
        retry = [r for r in requests if self.outcomes.retryable(r.key)]
        if retry:
            self.report.retried += len(retry)
            self._run_pass(engine, retry, deterministic=True)
            self._repair(engine, [r for r in retry if self.outcomes.wants_repair(r)])

    def _run_pass(self, engine: Engine, requests: list[PlannedRequest], *, deterministic: bool) -> None:
        def cost(r: PlannedRequest) -> int:
            return r.prompt_tokens + r.max_tokens

        plan = self.plan
        batches = budget_batches(
            submission_order(
                requests,
                cost,
                bucket=plan.submit_bucket,
                length=(lambda r: r.max_tokens) if plan.long_first else None,
                head=quick_head(len(requests)) if plan.long_first and not deterministic else 0,
            ),
            cost,
            token_budget=plan.batch_tokens or engine.limits.tokens or DEFAULT_BATCH_TOKENS,
            max_items=plan.batch_requests or engine.limits.requests or DEFAULT_BATCH_REQUESTS,
        )
        answered: list[PlannedRequest] = []  # not handed to the memory yet
        try:
            for batch in batches:
                started, retries = time.monotonic(), engine.retries
                asked = [engine_request(r, deterministic=deterministic) for r in batch]
                self.report.engine_requests += len(batch)
                done = 0
                counter = _Counter(self.progress, enabled=not deterministic)
                try:
                    for index, generation in engine.generate_stream(asked):
                        done += 1
                        self.report.output_tokens += generation.output_tokens
                        request = batch[index]
                        answered.append(request)
                        counter.add(request.prompt_tokens, generation.output_tokens)
                        if self.outcomes.answered(request, generation, deterministic=deterministic):
                            self.on_final(request.key)
                        if len(answered) >= MEMORY_CHUNK:
                            self._remember(answered)
                            answered = []
                finally:
                    counter.flush()
                    self.report.engine_retries += engine.retries - retries
                self.report.engine_seconds += time.monotonic() - started
                if done != len(batch):
                    raise RuntimeError(f"engine {engine.name!r} answered {done} of {len(batch)} requests")
        finally:  # the last answers too, also when a signal or an error stops the run
            self._remember(answered)

    def _remember(self, answered: list[PlannedRequest]) -> None:
        """Hand accepted answers to the memory in chunks: a killed run resumes from it. A signal
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
        from ._repair import Repair  # tags still broken: rare

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
