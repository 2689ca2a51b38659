"""What a QA check says about one answer: a flag with the check's id, its severity and a message.

`error`: the answer is rejected (retried once, then the segment keeps its source, as every
other output check does). `warning`: the answer is kept and the flag goes into the report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..reporting.report import Severity as Severity

Level = Literal["error", "warning", "off"]  # what the options may set a check to
LEVELS: tuple[Level, ...] = ("error", "warning", "off")
EXCERPT_CHARS = 160  # how much of a source or an answer a report keeps around a flag


@dataclass(frozen=True, slots=True)
class Flag:
    """One check's finding on one answer. `check` is the check's id (`number`, `url` ...)."""

    check: str
    severity: Severity
    message: str


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """`text` cut to `limit` characters (an ellipsis marks the cut), whitespace runs kept."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
