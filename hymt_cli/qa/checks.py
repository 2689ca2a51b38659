"""The QA checks: each has an id, a default severity and a pure function over a source
segment, its answer, the target language and the source language when known. A function
returns a message when the answer fails the check, None when it passes.

Inline tags and glossary placeholders are looked through (markup.py); addresses and codes
are found first, so that the digits of a URL or a SKU are never read as numbers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from .addresses import AddressKind
from .flags import Severity
from .locales import conventions
from .numbers import compare_numbers
from .punctuation import bracket_problem, end_punctuation_problem, quote_problem, whitespace_problem
from .spelled import spelled_values
from .views import TextView
from .words import doubled_word_problem, untranslated_problem


class Pair:
    """A source segment and its answer, each read once (views.py)."""

    def __init__(self, source: str, answer: str, target: str, source_lang: str | None = None) -> None:
        self.source, self.answer = TextView(source), TextView(answer)
        if "-" in source or "-" in answer:  # a code hyphenated on one side only (USB 3.0, USB-3.0-Kabel)
            self.source.unjoin(self.answer)
            self.answer.unjoin(self.source)
        self.target, self.source_lang = target, source_lang


@dataclass(frozen=True, slots=True)
class QaCheck:
    """`translating_only`: judged only for engines that translate (the identity engine's answer
    is the source by design). `per_run`: found across a run, never on one answer alone.
    `flags_the_source`: may flag an answer that is its source word for word; every other check
    compares the answer with its source and passes it (tests/qa/test_qa_properties.py), so it
    is not run on one. `by_format`: found by the input's format on a finished segment, with what
    only the format knows (a subtitle cue's time on screen: `Unit.check`)."""

    id: str
    default: Severity
    description: str
    run: Callable[[Pair], str | None] | None
    translating_only: bool = False
    per_run: bool = False
    flags_the_source: bool = False
    by_format: bool = False

    @property
    def reported_only(self) -> bool:
        """Found once the answers are kept (across the run, or by the format): it can only be
        reported, never reject an answer, so it is a warning at most."""
        return self.per_run or self.by_format


def _numbers(pair: Pair) -> str | None:
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


def _skus(pair: Pair) -> str | None:
    if not pair.source.codes and not pair.answer.codes:
        return None
    want = Counter(c.text for c in pair.source.codes if c.sku)
    got = Counter(c.text for c in pair.answer.codes if c.sku)
    if want == got:
        return None
    return _changed("model or SKU", list((want - got).elements()), list((got - want).elements()))


CHECKS: tuple[QaCheck, ...] = (
    QaCheck("number", "error", "the answer has the source's numbers (locale formats allowed)", _numbers),
    QaCheck("url", "error", "URLs kept", _kept("url", "URL")),
    QaCheck(
        "email",
        "error",
        "email addresses kept (an address a reader writes to, as a mailto: URL)",
        _kept("email", "email address"),
    ),
    QaCheck("path", "warning", "file paths kept", _kept("path", "file path")),
    QaCheck("handle", "warning", "@handles kept", _kept("handle", "@handle")),
    QaCheck("hashtag", "warning", "#hashtags kept", _kept("hashtag", "#hashtag")),
    QaCheck("sku", "warning", "SKU and model tokens (XR-2000, A4) kept", _skus),
    QaCheck(
        "brackets",
        "warning",
        "brackets as balanced as in the source",
        lambda p: bracket_problem(p.source.prose, p.answer.prose),
    ),
    QaCheck(
        "quotes",
        "warning",
        "double quotes paired where the source pairs them",
        lambda p: quote_problem(p.source.prose, p.answer.prose),
    ),
    QaCheck(
        "whitespace",
        "warning",
        "leading and trailing whitespace kept",
        lambda p: whitespace_problem(p.source.text, p.answer.text),
    ),
    QaCheck(
        "end-punctuation",
        "warning",
        "the source's end punctuation, in the target's own marks",
        lambda p: end_punctuation_problem(p.source.plain, p.answer.plain, p.target, p.source_lang),
    ),
    QaCheck(
        "doubled-word",
        "warning",
        "no word written twice in a row that the source does not double",
        lambda p: doubled_word_problem(p.source.prose, p.answer.prose, p.target, p.source_lang),
    ),
    QaCheck(
        "untranslated",
        "warning",
        "the answer is not the source again (where the source is prose)",
        lambda p: untranslated_problem(
            p.source.prose, p.source.plain, p.answer.plain, p.target, p.source_lang
        ),
        translating_only=True,
        flags_the_source=True,
    ),
    QaCheck(
        "inconsistent",
        "warning",
        "the same source text translated one way throughout the run",
        None,
        per_run=True,
    ),
    QaCheck(
        "reading-speed",
        "warning",
        "a subtitle cue's translation can be read in its time on screen (17 characters a second)",
        None,
        by_format=True,
    ),
    QaCheck(
        "line-length",
        "warning",
        "a subtitle cue's translation fits its lines (two of 42 characters; 16 in Chinese, Japanese, Korean)",
        None,
        by_format=True,
    ),
)
CHECK_IDS: tuple[str, ...] = tuple(check.id for check in CHECKS)
BY_ID: dict[str, QaCheck] = {check.id: check for check in CHECKS}
