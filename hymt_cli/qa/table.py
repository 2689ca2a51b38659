"""The QA checks, each declared once: an id, a default severity, what it checks, and the function
in judgements.py that judges one answer (a pure function over a source segment, its answer, the
target language and the source language when known; a message when the answer fails, None
when it passes). The table is light: every command reads it (`--qa`'s help and values); the
judgements, with their patterns and number formats, are imported when a run first uses one.

Inline tags and glossary placeholders are looked through (markup.py); addresses and codes
are found first, so that the digits of a URL or a SKU are never read as numbers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .flags import Severity

if TYPE_CHECKING:
    from .judgements import Pair


@dataclass(frozen=True, slots=True)
class QaCheck:
    """`judge`: the name of its function in judgements.py (None: a run-wide check).
    `translating_only`: judged only for engines that translate (the identity engine's answer
    is the source by design). `per_run`: found across a run, never on one answer alone.
    `flags_the_source`: may flag an answer that is its source word for word; every other check
    compares the answer with its source and passes it (tests/qa/test_qa_properties.py), so it
    is not run on one. `by_format`: found by the input's format on a finished segment, with what
    only the format knows (a subtitle cue's time on screen: `Unit.check`)."""

    id: str
    default: Severity
    description: str
    judge: str | None
    translating_only: bool = False
    per_run: bool = False
    flags_the_source: bool = False
    by_format: bool = False

    @property
    def reported_only(self) -> bool:
        """Found once the answers are kept (across the run, or by the format): it can only be
        reported, never reject an answer, so it is a warning at most."""
        return self.per_run or self.by_format

    @property
    def run(self) -> Callable[[Pair], str | None] | None:
        """The function that judges one answer (None: a run-wide check)."""
        if self.judge is None:
            return None
        from . import judgements

        found: Callable[[Pair], str | None] = getattr(judgements, self.judge)
        return found


CHECKS: tuple[QaCheck, ...] = (
    QaCheck("number", "error", "the answer has the source's numbers (locale formats allowed)", "numbers"),
    QaCheck("url", "error", "URLs kept", "urls"),
    QaCheck(
        "email",
        "error",
        "email addresses kept (an address a reader writes to, as a mailto: URL)",
        "emails",
    ),
    QaCheck("path", "warning", "file paths kept", "paths"),
    QaCheck("handle", "warning", "@handles kept", "handles"),
    QaCheck("hashtag", "warning", "#hashtags kept", "hashtags"),
    QaCheck("sku", "warning", "SKU and model tokens (XR-2000, A4) kept", "skus"),
    QaCheck(
        "brackets",
        "warning",
        "brackets as balanced as in the source",
        "brackets",
    ),
    QaCheck(
        "quotes",
        "warning",
        "double quotes paired where the source pairs them",
        "quotes",
    ),
    QaCheck(
        "whitespace",
        "warning",
        "leading and trailing whitespace kept",
        "whitespace",
    ),
    QaCheck(
        "end-punctuation",
        "warning",
        "the source's end punctuation, in the target's own marks",
        "end_punctuation",
    ),
    QaCheck(
        "doubled-word",
        "warning",
        "no word written twice in a row that the source does not double",
        "doubled_word",
    ),
    QaCheck(
        "untranslated",
        "warning",
        "the answer is not the source again (where the source is prose)",
        "untranslated",
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
