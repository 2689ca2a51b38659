"""An output written in a legacy encoding (a Latin-1 PO catalog, a GBK CSV, a KOI8-R text) and
what the model writes that the encoding lacks, the answer being untrusted: each such character
is written as its conventional substitute (text/substitutes.py: ’ → ', … → ..., œ → oe) and
counted, for one warning per output and its line of the report; a segment holding a character
with no substitute keeps its source text, counted as untranslated with a problem naming the
character, and the rest of the file is written.

Before that, an answer check finds such a character while a retry can still help: a soft
problem, so the answer is retried once, and kept (the least bad) where the retry has one too,
since a request may serve several outputs, and one in UTF-8 writes what one in GBK cannot: each
output decides for itself when its unit is finished (`OutputEncoding.written`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..acceptance.answers import Problem
from ..reporting.report import Substitution
from .planning import PlannedRequest, RequestKey

if TYPE_CHECKING:
    from ..text.substitutes import Fitted

CHECK = "encoding"  # the check id of the answer check, the review page's flags and problems
# Soft problems keep the least severe answer: a glossary term missed (severity: the terms
# missed) is better than a segment that an output cannot write at all.
SEVERITY = 1000
_NAMED = 6  # substitutions a warning names


def unwritable_answer(
    codecs_of: Callable[[RequestKey], Iterable[str]],
) -> Callable[[PlannedRequest, str], Problem | None]:
    """The answer check: an answer holding a character that the legacy encoding of an output it
    serves (`codecs_of` its request) cannot write, not even as a substitute."""

    def check(request: PlannedRequest, output: str) -> Problem | None:
        for codec in sorted(set(codecs_of(request.key))):  # (none, nearly always: no legacy output)
            from ..text.substitutes import fit, writes_all  # a legacy output's only

            if writes_all(output, codec):
                continue
            lacking = fit(output, codec).lacking
            if lacking is not None:
                return Problem(
                    f"holds {_named(lacking)}, which {codec} (an output's encoding) cannot write, "
                    "not even as a substitute",
                    soft=True,
                    severity=SEVERITY,
                    check=CHECK,
                )
        return None

    return check


@dataclass(eq=False)
class OutputEncoding:
    """The legacy encoding of one output, and the substitutes written in it so far: (character,
    substitute) -> occurrences (a table's value counts once for each row it stands for)."""

    codec: str
    substituted: Counter[tuple[str, str]] = field(default_factory=Counter)

    def written(self, text: str, weight: int = 1) -> Fitted:
        """A segment's translation as the output writes it; `lacking` set: it cannot (the
        segment keeps its source), and nothing is counted."""
        from ..text.substitutes import fit

        fitted = fit(text, self.codec)
        if fitted.lacking is None:
            for pair in fitted.substituted:
                self.substituted[pair] += weight
        return fitted

    def kept_source(self, lacking: str) -> str:
        """Why a segment keeps its source text (a problem's message, a review flag's)."""
        return (
            f"the translation holds {_named(lacking)}, which {self.codec} (the output's encoding) cannot "
            "write, not even as a substitute: kept as in the source"
        )

    def report(self) -> list[Substitution]:
        """The substitutions made, the most frequent first."""
        return [Substitution(c, s, n) for (c, s), n in self._ranked()]

    def warning(self, name: str) -> str | None:
        """One line naming how many characters were written as substitutes, and which (None:
        none was)."""
        if not self.substituted:
            return None
        ranked = self._ranked()
        from ..text.substitutes import shown

        named = ", ".join(f"{shown(c)}→{shown(s)} ×{n}" for (c, s), n in ranked[:_NAMED])
        more = f" and {len(ranked) - _NAMED} more" if len(ranked) > _NAMED else ""
        total = sum(self.substituted.values())
        return f"{name}: {total} character(s) {self.codec} lacks were written as substitutes: {named}{more}"

    def _ranked(self) -> list[tuple[tuple[str, str], int]]:
        return sorted(self.substituted.items(), key=lambda item: (-item[1], item[0]))


def _named(character: str) -> str:
    return f"{character!r} (U+{ord(character[0]):04X})"
