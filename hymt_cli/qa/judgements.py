"""What each QA check (table.py) judges: a pure function over a source segment, its answer,
the target language and the source language when known (a `Pair`). A function returns a
message when the answer fails the check, None when it passes.

Inline tags and glossary placeholders are looked through (markup.py); addresses and codes
are found first, so that the digits of a URL or a SKU are never read as numbers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from decimal import Decimal

from ._locales import conventions
from ._numbers import compare_numbers
from ._views import TextView
from ._words import doubled_word_problem, untranslated_problem
from .addresses import AddressKind
from .punctuation import bracket_problem, end_punctuation_problem, quote_problem, whitespace_problem
from .spelled import spelled_values


class Pair:
    """A source segment and its answer, each read once (_views.py)."""

    def __init__(self, source: str, answer: str, target: str, source_lang: str | None = None) -> None:
        self.source, self.answer = TextView(source), TextView(answer)
        if "-" in source or "-" in answer:  # a code hyphenated on one side only (USB 3.0, USB-3.0-Kabel)
            self.source.unjoin(self.answer)
            self.answer.unjoin(self.source)
        self.target, self.source_lang = target, source_lang


def numbers(pair: Pair) -> str | None:
    langs = ("en", pair.target, pair.source_lang or "")

    def spelled() -> tuple[Counter[Decimal], Counter[Decimal]]:
        return spelled_values(pair.source.prose, langs), spelled_values(pair.answer.prose, langs)

    diff = compare_numbers(pair.source.numbers, pair.answer.numbers, conventions(pair.target), spelled)
    if diff is None:
        return None
    return _changed("number", list(diff.missing), list(diff.added))


def _changed(what: str, missing: Sequence[str], added: Sequence[str]) -> str:
    if missing and added:
        return f"{what} changed: {', '.join(missing)} → {', '.join(added)}"
    if missing:
        return f"{what} missing: {', '.join(missing)}"
    return f"{what} added: {', '.join(added)}"


def _kept(kind: AddressKind, label: str) -> Callable[[Pair], str | None]:
    def check(pair: Pair) -> str | None:
        if not pair.source.addresses and not pair.answer.addresses:
            return None  # (most texts: no Counter to build)
        want = Counter(a.key for a in pair.source.addresses if a.kind == kind)
        got = Counter(a.key for a in pair.answer.addresses if a.kind == kind)
        if want == got:
            return None
        text = {a.key: a.text for view in (pair.answer, pair.source) for a in view.addresses}
        return _changed(
            label, [text[k] for k in (want - got).elements()], [text[k] for k in (got - want).elements()]
        )

    return check


def skus(pair: Pair) -> str | None:
    if not pair.source.codes and not pair.answer.codes:
        return None
    want = Counter(c.text for c in pair.source.codes if c.sku)
    got = Counter(c.text for c in pair.answer.codes if c.sku)
    if want == got:
        return None
    return _changed("model or SKU", list((want - got).elements()), list((got - want).elements()))


urls = _kept("url", "URL")
emails = _kept("email", "email address")
paths = _kept("path", "file path")
handles = _kept("handle", "@handle")
hashtags = _kept("hashtag", "#hashtag")


def brackets(p: Pair) -> str | None:
    return bracket_problem(p.source.prose, p.answer.prose)


def quotes(p: Pair) -> str | None:
    return quote_problem(p.source.prose, p.answer.prose)


def whitespace(p: Pair) -> str | None:
    return whitespace_problem(p.source.text, p.answer.text)


def end_punctuation(p: Pair) -> str | None:
    return end_punctuation_problem(p.source.plain, p.answer.plain, p.target, p.source_lang)


def doubled_word(p: Pair) -> str | None:
    return doubled_word_problem(p.source.prose, p.answer.prose, p.target, p.source_lang)


def untranslated(p: Pair) -> str | None:
    return untranslated_problem(p.source.prose, p.source.plain, p.answer.plain, p.target, p.source_lang)
