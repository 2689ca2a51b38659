"""A run's QA: the checks its options turn on, split into those that reject an answer (errors)
and those that flag it (warnings), and the run-wide consistency tracker."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ._consistency import ConsistencyTracker
from ._options import QaOptions
from .flags import Flag, Severity
from .judgements import Pair
from .table import CHECKS, QaCheck

# A check and the function that judges one answer for it.
_Judged = tuple[QaCheck, Callable[[Pair], str | None]]


class QaSuite:
    """`translating`: the engine translates (the identity and pseudo engines do not: their
    answers are the source, or the source disguised, by design; `untranslated` is off for
    them). `source_lang`: the source language code when the run knows it."""

    def __init__(
        self, options: QaOptions | None = None, *, translating: bool = True, source_lang: str | None = None
    ) -> None:
        self.options = options or QaOptions()
        self.translating = translating
        self.source_lang = source_lang
        self.levels = self.options.resolved()
        active: list[_Judged] = [
            (c, run)
            for c in CHECKS
            if self.levels[c.id] != "off"
            and (run := c.run) is not None
            and (translating or not c.translating_only)
        ]
        self._errors = tuple(j for j in active if self.levels[j[0].id] == "error")
        self._warnings = tuple(j for j in active if self.levels[j[0].id] == "warning")
        # An answer that is its source word for word (the identity engine's, a name's): only these.
        self._errors_of_source = tuple(j for j in self._errors if j[0].flags_the_source)
        self._warnings_of_source = tuple(j for j in self._warnings if j[0].flags_the_source)
        self.consistency: ConsistencyTracker[object] | None = (
            ConsistencyTracker() if self.levels["inconsistent"] != "off" else None
        )

    def errors(self, source: str, answer: str, target: str) -> tuple[Flag, ...]:
        """What rejects this answer (empty: nothing)."""
        checks = self._errors if answer != source else self._errors_of_source
        return _run(checks, "error", Pair(source, answer, target, self.source_lang)) if checks else ()

    def warnings(self, source: str, answer: str, target: str) -> tuple[Flag, ...]:
        """What to flag about this kept answer."""
        checks = self._warnings if answer != source else self._warnings_of_source
        return _run(checks, "warning", Pair(source, answer, target, self.source_lang)) if checks else ()

    @property
    def has_checks(self) -> bool:
        """Some check runs on each answer (not only the run-wide one)."""
        return bool(self._errors or self._warnings)

    def judge(self, source: str, answer: str, target: str) -> tuple[tuple[Flag, ...], tuple[Flag, ...]]:
        """(errors, warnings) of one answer, its texts read once."""
        errors, warnings = (
            (self._errors, self._warnings)
            if answer != source
            else (self._errors_of_source, self._warnings_of_source)
        )
        if not errors and not warnings:
            return (), ()
        pair = Pair(source, answer, target, self.source_lang)
        return _run(errors, "error", pair), _run(warnings, "warning", pair)

    def check(self, source: str, answer: str, target: str) -> tuple[Flag, ...]:
        """Every enabled per-answer check, errors first."""
        errors, warnings = self.judge(source, answer, target)
        return errors + warnings


def _run(checks: Sequence[_Judged], severity: Severity, pair: Pair) -> tuple[Flag, ...]:
    flags = []
    for check, run in checks:
        message = run(pair)
        if message is not None:
            flags.append(Flag(check.id, severity, message))
    return tuple(flags)


def check_answer(
    source: str,
    answer: str,
    target: str,
    source_lang: str | None = None,
    *,
    options: QaOptions | None = None,
    translating: bool = True,
) -> tuple[Flag, ...]:
    """The flags of one answer (every check at its level): the checks as one pure function."""
    return QaSuite(options, translating=translating, source_lang=source_lang).check(source, answer, target)
