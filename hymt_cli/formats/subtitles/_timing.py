"""Subtitle timestamps, read to measure how long a cue is shown and to refuse a file whose timings
are broken; never written (an output's timings are the source's bytes).

Read as players read them, not only as the specifications write them: SubRip's `00:01:02,500`
and the `00:01:02.500` many files have, WebVTT's `01:02.500` without hours, a fraction of one to
three digits or none (`00:01:39`), ASS's `0:01:02.50`. Minutes and seconds are below 60.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TIME = r"(\d+):(\d{1,2})(?::(\d{1,2}))?(?:[.,](\d{1,3}))?"
TIMESTAMP = re.compile(rf"\A{_TIME}\Z")
# A timing line: two timestamps around `-->`, then WebVTT's cue settings or SubRip's coordinates.
TIMING = re.compile(rf"\A[ \t]*({_TIME})[ \t]*-->[ \t]*({_TIME})(?=[ \t]|\Z)(.*)\Z", re.DOTALL)
ARROW = "-->"


class TimingError(ValueError):
    """A timestamp or timing line that cannot be read (the message says which)."""


@dataclass(frozen=True, slots=True)
class Timing:
    """When a cue is shown, in seconds."""

    start: float
    end: float

    @property
    def seconds(self) -> float:
        return self.end - self.start


def seconds(text: str) -> float:
    """A timestamp's seconds; TimingError when it is none."""
    match = TIMESTAMP.match(text.strip())
    if match is None:
        raise TimingError(f"bad timestamp {text.strip()!r}")
    return _seconds(match.groups())


def _seconds(groups: tuple[str | None, ...]) -> float:
    first, second, third, fraction = groups
    assert first is not None and second is not None
    if third is None:  # minutes:seconds (WebVTT without hours)
        hours, minutes, secs = 0, int(first), int(second)
    else:
        hours, minutes, secs = int(first), int(second), int(third)
    if (third is not None and minutes > 59) or secs > 59:
        raise TimingError("minutes and seconds are below 60")
    part = int(fraction) / 10 ** len(fraction) if fraction else 0.0
    return hours * 3600 + minutes * 60 + secs + part


def timing_line(line: str) -> tuple[Timing, str] | None:
    """(the timing, what follows the end time: settings) of a line with `-->`; None for a line
    without one; TimingError for one whose timestamps cannot be read."""
    if ARROW not in line:
        return None
    match = TIMING.match(line)
    if match is None:
        raise TimingError(f"bad timing line {_shown(line)}")
    groups = match.groups()
    try:
        return Timing(_seconds(groups[1:5]), _seconds(groups[6:10])), groups[10]
    except TimingError as exc:
        raise TimingError(f"bad timing line {_shown(line)}: {exc}") from None


def _shown(line: str) -> str:
    return repr(line if len(line) <= 80 else line[:79] + "…")
