"""The stack of open elements, with every question the segmenter asks of it in O(1).

A page of 100k unclosed `<div>`s must not cost 100k x 100k: whether anything open is
skipped, where the innermost element of a tag is, and where the innermost block element is
are kept up to date as elements open and close (each element is added and removed once).
An element closed from the middle of the stack (an inline element with a block opened
inside it) leaves a hole (None) that nothing reads again.
"""

from __future__ import annotations

from collections.abc import Mapping

from .elements import OPAQUE_INLINE, is_inline


class OpenElements:
    def __init__(self) -> None:
        self._items: list[tuple[str, bool] | None] = []  # (tag, skip subtree), innermost last
        self._skips = 0
        self._by_tag: dict[str, list[int]] = {}  # open indices of each tag, ascending
        self._blocks: list[int] = []  # open indices of block (not inline) elements, ascending
        # Indices of elements that are not code/kbd/samp, ascending; holes are skipped lazily.
        self._others: list[int] = []

    @property
    def skipping(self) -> bool:
        """Is any open element one whose subtree is never translated?"""
        return self._skips > 0

    def push(self, tag: str, skip: bool) -> None:
        i = len(self._items)
        self._items.append((tag, skip))
        self._skips += skip
        self._by_tag.setdefault(tag, []).append(i)
        if not is_inline(tag):
            self._blocks.append(i)
        if tag not in OPAQUE_INLINE:
            self._others.append(i)

    def extend_skipped(self, tags: list[str]) -> None:
        for tag in tags:
            self.push(tag, True)

    def innermost_block(self, wanted: Mapping[str, str], depth: int = 8) -> str:
        """`wanted[tag]` of the innermost open block element whose tag is in `wanted`, looking
        at most `depth` blocks out (bounded: a page may leave thousands open); "" when none."""
        for i in reversed(self._blocks[-depth:]):
            item = self._items[i]
            if item is not None and item[0] in wanted:
                return wanted[item[0]]
        return ""

    def top(self) -> str | None:
        return self._items[-1][0] if self._items and self._items[-1] is not None else None

    def pop(self) -> None:
        self._remove(len(self._items) - 1)
        self._trim()

    def is_open(self, tag: str) -> bool:
        return bool(self._by_tag.get(tag))

    def close(self, tag: str) -> bool:
        """Close the innermost open `tag`; False when none is open.

        An inline end tag never closes a block opened inside the element (`<b><pre></b>x`:
        x is still in the pre, browsers reparent the pre): only the element goes. Otherwise
        everything opened inside it goes too, except code, kbd and samp: code is reopened
        by browsers, and html.parser sees all three open until their own end tags, so they
        stay open (and skipped: they always are)."""
        indices = self._by_tag.get(tag)
        if not indices:
            return False
        i = indices[-1]
        if is_inline(tag) and self._blocks and self._blocks[-1] > i:
            self._remove(i)
            return True
        while self._others and self._others[-1] >= i:
            j = self._others.pop()
            if self._items[j] is not None:
                self._remove(j)
        if self._items[i] is not None:  # code, kbd, samp itself
            self._remove(i)
        self._trim()
        return True

    def close_paragraph(self) -> None:
        """A block start closes an open p, through the inline elements in it (`<p><b><pre></p>x`:
        the pre is no child of the p, x is in the pre)."""
        if not self._blocks:
            return
        i = self._blocks[-1]
        item = self._items[i]
        if item is not None and item[0] == "p":
            for j in range(len(self._items) - 1, i - 1, -1):
                if self._items[j] is not None:
                    self._remove(j)
            self._trim()

    def _remove(self, i: int) -> None:
        """Close the element at i: it is the innermost of its tag (and, if it is a block,
        the innermost block)."""
        item = self._items[i]
        assert item is not None
        tag, skip = item
        self._items[i] = None
        self._skips -= skip
        self._by_tag[tag].pop()
        if self._blocks and self._blocks[-1] == i:
            self._blocks.pop()

    def _trim(self) -> None:
        while self._items and self._items[-1] is None:
            self._items.pop()
        while self._others and self._others[-1] >= len(self._items):
            self._others.pop()
