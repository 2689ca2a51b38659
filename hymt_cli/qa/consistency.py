"""The same source text translated two different ways in one run: a report item, found across
the run's answers (it never rejects one: by the time the second answer comes, the first may
be written).

Texts are compared without their inline tags and whitespace, so `Save <s1>now</s1>` and
`Save now` are the same source, and translations that differ only there are the same. Which translation is "the first" is
decided by document order (input, unit, segment), not by the order answers arrive, so the
same run reports the same items. Memory is bounded: a digest per source text, and beyond
MAX_TEXTS texts new ones are no longer followed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .flags import excerpt
from .markup import compact

Where = TypeVar("Where")  # what a finding points back to (the pipeline: a file's report and a segment)
Order = tuple[int, ...]
MAX_TEXTS = 1_000_000


@dataclass(slots=True)
class _Use(Generic[Where]):
    """The first occurrence (in document order) of one translation of a source text."""

    order: Order
    where: Where
    source: str  # excerpts
    answer: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class Inconsistency(Generic[Where]):
    where: Where
    order: Order
    message: str
    source: str
    answer: str


@dataclass(slots=True)
class ConsistencyTracker(Generic[Where]):
    max_texts: int = MAX_TEXTS
    # source digest -> (answer digest, first use) while a text has one translation
    _first: dict[bytes, tuple[bytes, _Use[Where]]] = field(default_factory=dict)
    # source digest -> answer digest -> first use, once a text has two or more
    _several: dict[bytes, dict[bytes, _Use[Where]]] = field(default_factory=dict)

    def add(self, lang: str, source: str, answer: str, order: Order, where: Where) -> None:
        key = _digest(lang + "\0" + _normal(source))
        translation = _digest(_normal(answer))
        several = self._several.get(key)
        if several is None:
            first = self._first.get(key)
            if first is None:
                if len(self._first) < self.max_texts:
                    self._first[key] = (translation, _Use(order, where, excerpt(source), excerpt(answer)))
                return
            if first[0] == translation:
                _seen(first[1], order, where)
                return
            several = self._several[key] = {first[0]: first[1]}
            del self._first[key]
        use = several.get(translation)
        if use is None:
            several[translation] = _Use(order, where, excerpt(source), excerpt(answer))
        else:
            _seen(use, order, where)

    def findings(self) -> Iterator[Inconsistency[Where]]:
        """One item per translation that differs from the text's first one (document order)."""
        for uses in self._several.values():
            first, *others = sorted(uses.values(), key=lambda u: u.order)
            for use in others:
                more = f" ({use.count} times)" if use.count > 1 else ""
                yield Inconsistency(
                    use.where,
                    use.order,
                    f"translated differently elsewhere in this run{more}: first as {first.answer!r}",
                    use.source,
                    use.answer,
                )


def _seen(use: _Use[Where], order: Order, where: Where) -> None:
    use.count += 1
    if order < use.order:
        use.order, use.where = order, where


def _normal(text: str) -> str:
    return compact(text)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
