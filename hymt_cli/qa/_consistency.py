"""The same source text translated two different ways in one run: a report item, found across
the run's answers (it never rejects one: by the time the second answer comes, the first may
be written).

Texts are compared without their inline tags and whitespace, so `Save <s1>now</s1>` and
`Save now` are the same source, and translations that differ only there are the same. Which
translation is "the first" is decided by document order (input, unit, segment), not by the
order answers arrive, so the same run reports the same items.

Memory is bounded: per source text a digest, the first translation's digest, where it is and
short excerpts (about 0.75 KB a text); beyond MAX_TEXTS source texts new ones are not followed.
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
MAX_TEXTS = 100_000  # about 75 MB at most; the texts met first (labels, colours) are followed
QUOTED_CHARS = 80  # of each translation kept (findings quote them)


@dataclass(slots=True)
class _Use(Generic[Where]):
    """The first occurrence (in document order) of one translation of a source text."""

    order: Order
    where: Where
    source: str  # excerpts, of this occurrence
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

    def add(self, lang: str, source: str, answer: str, order: Order, where: Where, context: str = "") -> None:
        """`context`: what the model was told besides the text; one text in two contexts may
        rightly have two translations ("Save" the button, "Save" the verb in a sentence)."""
        compact_source = compact(source)
        key = _digest(lang + "\0" + context + "\0" + compact_source)
        translation = _digest(compact_source if answer == source else compact(answer))
        several = self._several.get(key)
        if several is None:
            first = self._first.get(key)
            if first is None:
                if len(self._first) < self.max_texts:
                    self._first[key] = (translation, _use(order, where, source, answer))
                return
            if first[0] == translation:
                _seen(first[1], order, where, source, answer)
                return
            several = self._several[key] = {first[0]: first[1]}
            del self._first[key]
        use = several.get(translation)
        if use is None:
            several[translation] = _use(order, where, source, answer)
        else:
            _seen(use, order, where, source, answer)

    def findings(self) -> Iterator[Inconsistency[Where]]:
        """One item per translation that differs from the text's first one (document order)."""
        for uses in self._several.values():
            first, *others = sorted(uses.values(), key=lambda u: u.order)
            for use in others:
                more = f" ({use.count} times)" if use.count > 1 else ""
                message = f"translated differently elsewhere in this run{more}: first as {first.answer!r}"
                yield Inconsistency(use.where, use.order, message, use.source, use.answer)


def _use(order: Order, where: Where, source: str, answer: str) -> _Use[Where]:
    return _Use(order, where, excerpt(source, QUOTED_CHARS), excerpt(answer, QUOTED_CHARS))


def _seen(use: _Use[Where], order: Order, where: Where, source: str, answer: str) -> None:
    """Another occurrence of a translation; the first in document order is the one kept."""
    use.count += 1
    if order < use.order:
        use.order, use.where = order, where
        use.source, use.answer = excerpt(source, QUOTED_CHARS), excerpt(answer, QUOTED_CHARS)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
