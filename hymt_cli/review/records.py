"""Per-segment records: what happened to each segment of each output, for people reviewing a run.

A record is one segment of one output (an input file in one target language): where it sits
(unit, segment id, role), what the model was told besides the text (its context), the source and
what the output holds for it, its status, why it was retried, and its flags (problems with what
was written, each with the id of the check that found it and a severity: the output checks', the
QA checks', the glossary's). The output's own fields (input, output, language, format) travel
once per output, not per segment (`review.spool`).

Records are encoded as one JSON object per line, with `<`, `>` and `&` written as `\\u003c`,
`\\u003e`, `\\u0026`, so that a line can be embedded in an HTML `<script>` element as it is:
no text (`</script>`, `<!--`) can end the element early.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, cast

from ..qa.flags import Flag as Flag
from ..reporting.report import Severity as Severity
from ..reporting.report import unicode_text

# translated: the model's answer, accepted at once; memory: from the translation memory;
# retried: accepted on the second, deterministic try; repaired: its inline runs translated one
# by one to keep the tags; untranslated: kept in the source language (a flag says why);
# as-is: nothing to translate (no letters: numbers, symbols), written as in the source.
Status = Literal["translated", "memory", "retried", "repaired", "untranslated", "as-is"]
STATUSES: tuple[Status, ...] = ("translated", "memory", "retried", "repaired", "untranslated", "as-is")
# Which status wins when a segment's pieces (a long paragraph split at sentences) differ.
_RANK: dict[Status, int] = {
    "as-is": 0,
    "memory": 1,
    "translated": 2,
    "retried": 3,
    "repaired": 4,
    "untranslated": 5,
}


def worst(statuses: list[Status]) -> Status:
    """The status of a segment made of pieces: the most eventful one."""
    return max(statuses, key=_RANK.__getitem__) if statuses else "as-is"


@dataclass(frozen=True, slots=True)
class Retry:
    """Why the first answer was rejected (the check and its message): the reason for a retry."""

    check: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"check": self.check, "message": self.message}

    @classmethod
    def from_json(cls, data: Mapping[str, str]) -> Retry:
        return cls(data["check"], data["message"])


@dataclass(frozen=True, slots=True)
class SegmentRecord:
    """One segment of one output. `translation` is what the output holds for it: the
    translation, or the source itself (untranslated, as-is). Both texts are as the model saw
    them: inline markup as HY-MT's `<sN>` tags. `terms`: the glossary's (source, target) pairs
    matched in the segment. `weight`: how many occurrences it stands for (table rows sharing
    the value). `label`: how the report names it, where not by id (a table's column and value).
    `retry`: why the first answer was rejected, a reason per check (one answer can fail several
    QA checks). `context`: what the model was told besides the text (a UI string's key and
    comment, a paragraph's title and heading); "" when it was told nothing."""

    unit: int
    segment: int
    source: str
    translation: str
    status: Status
    role: str = ""
    flags: tuple[Flag, ...] = ()
    retry: tuple[Retry, ...] = ()
    terms: tuple[tuple[str, str], ...] = ()
    weight: int = 1
    label: str = ""
    context: str = ""

    def checks(self) -> set[str]:
        """The ids of the checks that fired on this segment (flags and the retry's reasons)."""
        return {flag.check for flag in self.flags} | {reason.check for reason in self.retry}

    def needs_a_look(self) -> bool:
        return bool(self.flags or self.retry) or self.status in ("retried", "repaired", "untranslated")

    def to_json(self) -> dict[str, object]:
        """The record as JSON data; empty and default fields are left out (a run can have
        millions of records)."""
        # unit and segment first: the spool finds a record by the start of its line
        data: dict[str, object] = {"unit": self.unit, "segment": self.segment, "status": self.status}
        if self.role:
            data["role"] = self.role
        if self.label:
            data["label"] = self.label
        if self.context:
            data["context"] = self.context
        data["source"] = self.source
        data["translation"] = self.translation
        if self.flags:
            data["flags"] = [flag.to_json() for flag in self.flags]
        if self.retry:
            data["retry"] = [reason.to_json() for reason in self.retry]
        if self.terms:
            data["terms"] = [list(pair) for pair in self.terms]
        if self.weight != 1:
            data["weight"] = self.weight
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> SegmentRecord:
        """A record read back from its JSON (`to_json`): the spool adds flags found late."""
        status = str(data["status"])
        if status not in STATUSES:
            raise ValueError(f"not a segment's status: {status!r}")
        return cls(
            _int(data["unit"]),
            _int(data["segment"]),
            str(data["source"]),
            str(data["translation"]),
            status,
            role=str(data.get("role", "")),
            flags=tuple(Flag.from_json(f) for f in _dicts(data.get("flags"))),
            retry=tuple(Retry.from_json(r) for r in _dicts(data.get("retry"))),
            terms=tuple(
                (str(p[0]), str(p[1])) for p in cast(Sequence[Sequence[object]], data.get("terms", ()))
            ),
            weight=_int(data.get("weight", 1)),
            label=str(data.get("label", "")),
            context=str(data.get("context", "")),
        )


def _int(value: object) -> int:
    if not isinstance(value, int):
        raise ValueError(f"not a whole number: {value!r}")
    return value


def _dicts(value: object) -> list[Mapping[str, str]]:
    return cast(list[Mapping[str, str]], value or [])


def script_safe_json(data: object) -> str:
    """Compact JSON that can sit inside an HTML `<script>` element: `<`, `>`, `&` escaped (no
    `</script>` or `<!--` can appear) and valid Unicode throughout (a lone surrogate, from a
    file name that is not UTF-8, written out as report.unicode_text does)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(_unicode(data), ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _unicode(value: object) -> object:
    if isinstance(value, str):
        return unicode_text(value)
    if isinstance(value, dict):
        return {unicode_text(str(k)): _unicode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_unicode(v) for v in value]
    return value
