"""One text as the checks read it, each view computed once: without markup, its addresses, its
codes, its numbers, and its prose (the text with addresses and codes blanked out)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

from ._codes import Code, find_codes, find_dimensions, spaced_form
from ._numbers import NumberToken, find_numbers, has_numbers
from .addresses import Address, find_addresses
from .markup import halfwidth, positions, without_tags

T = TypeVar("T")

_DIGIT = re.compile(r"\d")
_FULLWIDTH = re.compile("[\uff01-\uff5e]")


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each span replaced by as many spaces (positions stay where they were)."""
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


class cached_property(Generic[T]):
    """functools.cached_property without its lock (Python 3.11 takes one at every first read:
    a tenth of the QA checks' time on a short answer): the value goes into the instance's dict,
    where every later read finds it first."""

    def __init__(self, compute: Callable[[Any], T]) -> None:
        self._compute = compute
        self._name = compute.__name__

    @overload
    def __get__(self, view: None, owner: type) -> cached_property[T]: ...
    @overload
    def __get__(self, view: object, owner: type) -> T: ...
    def __get__(self, view: object | None, owner: type) -> T | cached_property[T]:
        if view is None:
            return self
        value = view.__dict__[self._name] = self._compute(view)
        return value


class TextView:
    """A source or an answer. `plain` keeps every character of the text but its tags; the
    other views keep `plain`'s positions."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def plain(self) -> str:
        return without_tags(self.text)

    @cached_property
    def _ascii(self) -> str:
        plain = self.plain
        return plain if plain.isascii() or not _FULLWIDTH.search(plain) else halfwidth(plain)

    @cached_property
    def addresses(self) -> list[Address]:
        """Found in full-width forms too, but kept as written: a full-width URL is no link."""
        text, plain = self._ascii, self.plain
        found = find_addresses(text)
        if text is plain:
            return found
        return [Address(a.kind, plain[a.start : a.end], a.start, a.end) for a in found]

    @cached_property
    def codes(self) -> list[Code]:
        text = _blank(self._ascii, [(a.start, a.end) for a in self.addresses])
        return find_codes(text) if _DIGIT.search(text) else []

    def unjoin(self, other: TextView) -> None:
        """Read as prose the codes written in `other` as words and numbers (`USB-3.0` here,
        `USB 3.0` there): a hyphenated compound is no other model. Before `prose` is read."""
        theirs = {c.text for c in other.codes}
        kept = [c for c in self.codes if c.text in theirs or not _spaced_in(c, other.plain)]
        if len(kept) != len(self.codes):
            self.__dict__["codes"] = kept

    @cached_property
    def prose(self) -> str:
        """`plain` without its addresses and codes: the words and numbers of the text."""
        spans = [(a.start, a.end) for a in self.addresses] + [(c.start, c.end) for c in self.codes]
        return _blank(self.plain, spans)

    @cached_property
    def numbers(self) -> list[NumberToken]:
        text = self.prose
        return find_numbers(text) if has_numbers(text) else []


def _spaced_in(code: Code, text: str) -> bool:
    spaced = spaced_form(code)
    return (
        spaced is not None and re.search(rf"(?<![\w.-]){re.escape(spaced)}(?![\w-]|\.\d)", text) is not None
    )


def kept_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` holds what a translation keeps as it is (addresses, codes, dimensions), found as the
    checks find them (through its tags), as spans of `text` itself: for engines that imitate a
    translation (pseudo-localization)."""
    view = TextView(text)
    where = positions(text)
    spans = [(a.start, a.end) for a in view.addresses] + [(c.start, c.end) for c in view.codes]
    spans += find_dimensions(view.prose)
    return [(where[start], where[end - 1] + 1) for start, end in spans]
