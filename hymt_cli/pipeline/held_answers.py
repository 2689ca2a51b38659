"""Accepted answers on their way to the translation memory: held across windows, committed when
a commit is worth its cost.

A commit writes every page its keys land on (they are digests: anywhere in the file), so in a
memory larger than sqlite's cache one costs about as much for a thousand answers as for a
hundred thousand. Committing each window's answers as it ended made a long file's commits grow
with the memory, window after window. Answers are now held until `MEMORY_SECONDS` have passed
and ten times the last commit's time, or `MAX_HELD` are waiting, or a later window asks for a
held text: they are committed first, and the memory answers as it did when every window's
answers were committed as it ended.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ..signals import deferred
from .dispatch import MEMORY_CHUNK, Memory
from .planning import RequestKey

# Commits a second apart at least (a killed run loses a second of work, or ten times what the
# last commit took: commits take a tenth of the run at most), MAX_HELD answers held at most
# (about 20 MB of short texts).
MEMORY_SECONDS = 1.0
MEMORY_COMMIT_SHARE = 10
MAX_HELD = 2 * 65_536


class HeldAnswers:
    """The run's memory hook (`Memory`), holding what is remembered until a commit is due.
    `flush` commits what is held: the run calls it as it ends, also on an error or a signal.
    `clock` tells the time in seconds (tests give a fake one); `max_held`: MAX_HELD."""

    def __init__(
        self, memory: Memory, *, clock: Callable[[], float] = time.monotonic, max_held: int = MAX_HELD
    ) -> None:
        self.memory = memory
        self.max_held = max_held
        self._clock = clock
        self._held: dict[RequestKey, str] = {}
        self._committed = clock()
        self._gap = MEMORY_SECONDS

    def recall(self, keys: Sequence[RequestKey]) -> list[str | None]:
        held = self._held
        if held and any(k in held for k in keys):
            self.flush()  # a text met again: the memory decides what it recalls, as before
        return self.memory.recall(keys)

    def remember(self, items: Sequence[tuple[RequestKey, str]]) -> None:
        self._held.update(items)
        waited = self._clock() - self._committed
        if len(self._held) >= self.max_held or (len(self._held) >= MEMORY_CHUNK and waited >= self._gap):
            self.flush()

    def flush(self) -> None:
        """Commit every held answer; a signal never cuts a commit in half (deferred)."""
        if not self._held:
            return
        items, self._held = list(self._held.items()), {}
        started = self._clock()
        with deferred():
            self.memory.remember(items)
        self._committed = self._clock()
        self._gap = max(MEMORY_SECONDS, MEMORY_COMMIT_SHARE * (self._committed - started))
