"""Outcomes: what came back for each request, recorded in one place.

A request is answered by the memory, or by the engine (validated by the checks, retried once
greedily when a re-run may help), or repaired (its tag runs translated one by one). Only
`Outcomes` writes an `Outcome`; everything else reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..acceptance.answers import Problem, clean_output, problem_with
from ..engine.base import Generation
from .planning import PlannedRequest, RequestKey

# An output check a feature adds (inline tags kept, glossary terms used): None when fine.
AnswerCheck = Callable[[PlannedRequest, str], "Problem | None"]


@dataclass(slots=True)
class Outcome:
    translation: str | None = None  # the accepted translation (None: none yet, or failed)
    problem: Problem | None = None  # why the last answer was not accepted
    attempts: int = 0  # engine answers received
    recalled: bool = False  # answered by the translation memory
    repaired: bool = False  # tags kept by translating the inline runs separately
    # The least bad usable output so far (soft problem), and the soft problem of the output
    # finally kept.
    kept: tuple[str, Problem] | None = None
    accepted: Problem | None = None
    first_problem: Problem | None = None  # why the first answer was rejected (a retry's reason)


class Outcomes:
    def __init__(self, checks: Sequence[AnswerCheck]) -> None:
        self.checks = tuple(checks)
        self._by_key: dict[RequestKey, Outcome] = {}

    def __getitem__(self, key: RequestKey) -> Outcome:
        outcome = self._by_key.get(key)
        if outcome is None:
            outcome = self._by_key[key] = Outcome()
        return outcome

    def recalled(self, key: RequestKey, translation: str) -> None:
        outcome = self[key]
        outcome.translation, outcome.problem, outcome.recalled = translation, None, True

    def answered(self, request: PlannedRequest, generation: Generation, *, deterministic: bool) -> bool:
        """Validate one answer and record it; True when the outcome is final (no retry will
        follow): accepted, failed for good, or the least bad usable output kept."""
        outcome = self[request.key]
        outcome.attempts += 1
        cleaned = clean_output(generation.text, request.model_text)
        if request.glossary is not None:
            cleaned = request.glossary.restore(cleaned)
        # A hard problem (output unusable) outranks a soft one (output usable, imperfect): the
        # first hard one, else the first soft one (a loop, not min(): it runs for every answer).
        problem = problem_with(generation, request.core, cleaned)
        if problem is None:
            for check in self.checks:
                found = check(request, cleaned)
                if found is not None and (problem is None or (problem.soft and not found.soft)):
                    problem = found
        outcome.problem = problem
        if outcome.attempts == 1:
            outcome.first_problem = problem
        if (
            problem is not None
            and problem.soft
            and (outcome.kept is None or problem.severity <= outcome.kept[1].severity)
        ):
            outcome.kept = (cleaned, problem)
        outcome.translation = None if problem else cleaned
        final = problem is None or not problem.retryable or (deterministic and not self.wants_repair(request))
        if final and problem is not None and outcome.kept is not None:
            outcome.translation, outcome.accepted = outcome.kept
            outcome.problem = None
        return final

    def retryable(self, key: RequestKey) -> bool:
        problem = self[key].problem
        return problem is not None and problem.retryable

    def wants_repair(self, request: PlannedRequest) -> bool:
        """A formatted request whose output was rejected for a reason a re-run might fix.

        Soft problems (a glossary term missed) keep the output instead, and so does a request
        that already has a usable (soft-problem) output from an earlier attempt."""
        outcome = self[request.key]
        problem = outcome.problem
        return (
            request.formatted
            and problem is not None
            and problem.retryable
            and not problem.soft
            and outcome.kept is None
            and not outcome.repaired
        )

    def repaired(self, key: RequestKey, translation: str) -> None:
        outcome = self[key]
        outcome.translation, outcome.problem, outcome.repaired = translation, None, True
