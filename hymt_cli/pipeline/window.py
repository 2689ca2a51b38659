"""A window: the units planned and translated together, and the order their requests go in."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..formats import Unit
from ._jobs import Job
from ._outcomes import AnswerCheck, Outcomes
from ._output_encoding import unwritable_answer
from .planning import Piece, PlannedRequest, Planner, RequestKey


def smallest_units_first(requests: list[PlannedRequest], window: Window) -> list[PlannedRequest]:
    """`requests` in the order of the units waiting for them, the units with the fewest requests
    first (stable: documents of a size in their order). A file is written once its last
    request is answered: small documents then come out early, and a catalog batch of
    thousands of requests, whose end comes late anyway, does not hold them back."""

    def size(request: PlannedRequest) -> int:
        return min((w.pending for w in window.waiting.get(request.key, ())), default=0)

    return sorted(requests, key=size)


@dataclass(eq=False)
class UnitWork:
    """One unit into one language: its pieces, and how many requests it still waits for."""

    job: Job
    unit: Unit
    pieces: dict[int, list[Piece]]
    pending: int = 0


@dataclass(eq=False)
class Window:
    """Units planned together: one planner (dedupe across them), one set of outcomes."""

    planner: Planner
    outcomes: Outcomes
    works: list[UnitWork] = field(default_factory=list)
    waiting: defaultdict[RequestKey, list[UnitWork]] = field(default_factory=lambda: defaultdict(list))
    checked: int = 0  # asks looked up in the memory before the engine started (`_needs_engine`)
    looked_up: dict[RequestKey, str | None] = field(default_factory=dict)  # what they found (None: not)
    segments: int = 0
    new_jobs: int = 0
    early_seen: int = 0  # asks the early sends have looked at (`Pipeline._send_early`)
    early_closed: bool = False  # no more early requests: the engine takes none, or has no room
    recalled: set[RequestKey] = field(default_factory=set)  # answered by the memory (`Pipeline._plan`)
    to_send: list[RequestKey] = field(
        default_factory=list
    )  # the rest, for the engine (`Pipeline._translate`)

    @classmethod
    def checked_by(cls, planner: Planner, checks: Sequence[AnswerCheck]) -> Window:
        """A window whose answers go through `checks`, and through what the legacy encodings of
        the outputs each serves cannot write (_output_encoding.py: a request may serve several)."""
        waiting: defaultdict[RequestKey, list[UnitWork]] = defaultdict(list)

        def codecs_of(key: RequestKey) -> list[str]:
            return [w.job.encoding.codec for w in waiting.get(key, ()) if w.job.encoding is not None]

        return cls(planner, Outcomes((*checks, unwritable_answer(codecs_of))), waiting=waiting)
