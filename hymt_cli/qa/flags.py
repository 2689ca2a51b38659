"""What a QA check says about one answer: a flag with the check's id, its severity and a message.

`error`: the answer is rejected (retried once, then the segment keeps its source, as every
other output check does). `warning`: the answer is kept and the flag goes into the report.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, cast

from ..reporting.report import Severity as Severity

Level = Literal["error", "warning", "off"]  # what the options may set a check to
LEVELS: tuple[Level, ...] = ("error", "warning", "off")
EXCERPT_CHARS = 160  # how much of a source or an answer a report keeps around a flag


@dataclass(frozen=True, slots=True)
class Flag:
    """What a check says of one answer: the check's id (`number`, `url`, `tags`, `glossary`,
    `empty` ...), `error` (the answer was rejected: the segment kept its source) or `warning`
    (the answer was kept, flagged), and the check's message. The report keeps it with where it
    was found (`ReportedFlag`); the review page with its segment's record (`review.records`)."""

    check: str
    severity: Severity
    message: str

    def to_json(self) -> dict[str, str]:
        return {"check": self.check, "severity": self.severity, "message": self.message}

    @classmethod
    def from_json(cls, data: Mapping[str, str]) -> Flag:
        severity = data["severity"]
        if severity not in ("error", "warning"):
            raise ValueError(f"not a flag's severity: {severity!r}")
        return cls(data["check"], cast(Severity, severity), data["message"])


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """`text` cut to `limit` characters (an ellipsis marks the cut), whitespace runs kept."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
