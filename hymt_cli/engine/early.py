"""The bookkeeping of requests an engine starts before the call that wants their answers
(base.TakesEarlyRequests): each gets a negative tag of its own (a call's tags are never negative),
the call that asks for an equal request adopts it, and an answer that comes before it is asked
for waits here."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from .base import Generation, GenerationRequest, early_key

_Key = tuple[tuple[int, ...], int, bool]


class EarlyRequests:
    def __init__(self) -> None:
        self._by_key: dict[_Key, deque[int]] = {}
        self._keys: dict[int, _Key] = {}  # tags not adopted yet
        self._done: dict[int, Generation] = {}
        self._next = -1

    def __len__(self) -> int:
        """Requests sent early and not adopted yet."""
        return len(self._keys)

    def add(self, request: GenerationRequest) -> int:
        """A new early request: its tag."""
        tag, self._next = self._next, self._next - 1
        key = early_key(request)
        self._by_key.setdefault(key, deque()).append(tag)
        self._keys[tag] = key
        return tag

    def adopt(
        self, requests: Sequence[GenerationRequest]
    ) -> tuple[dict[int, int], list[tuple[int, Generation]]]:
        """For a call's `requests`: {early tag: index} of those still running, and (index,
        Generation) of those already answered."""
        running: dict[int, int] = {}
        answered: list[tuple[int, Generation]] = []
        if not self._keys:
            return running, answered
        for index, request in enumerate(requests):
            key = early_key(request)
            tags = self._by_key.get(key)
            if not tags:
                continue
            tag = tags.popleft()
            if not tags:
                del self._by_key[key]
            del self._keys[tag]
            done = self._done.pop(tag, None)
            if done is None:
                running[tag] = index
            else:
                answered.append((index, done))
        return running, answered

    def answered(self, tag: int, generation: Generation) -> None:
        """An early request's answer, before any call asked for it."""
        if tag in self._keys:
            self._done[tag] = generation

    def forget(self, tag: int) -> None:
        """An early request that will never be answered (its engine stopped)."""
        key = self._keys.pop(tag, None)
        if key is not None:
            tags = self._by_key[key]
            tags.remove(tag)
            if not tags:
                del self._by_key[key]
        self._done.pop(tag, None)

    def clear(self) -> None:
        """Every early request dropped (the engine aborted them)."""
        self._by_key.clear()
        self._keys.clear()
        self._done.clear()


def is_early(tag: int) -> bool:
    return tag < 0
