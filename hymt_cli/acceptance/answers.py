"""Checks on each model output. A failed check means: keep the source, count it untranslated."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..engine.base import Generation
from ..model.prompts import INSTRUCTION_MARKERS
from ..text.segments import LONE_SURROGATE

_TARGET_WRAPPER = re.compile(r"^\s*<target>(.*)</target>\s*$", re.DOTALL)
# The same 1-30 characters ten or more times in a row: a decoding loop ("!!!!!!!!", "la la la ...").
LOOP = re.compile(r"(.{1,30}?)\1{9,}", re.DOTALL)  # the definition; find_loop is the fast equivalent
LOOP_UNIT, LOOP_REPEATS = 30, 10
# C0 and C1 controls but tab and line breaks, and DEL: never text a document should get from a model.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def clean_output(text: str, sent: str = "") -> str:
    """Strip surrounding whitespace and the `<target>` wrapper HY-MT may add: only the layers
    the model added (a source that really reads `<target>…</target>` keeps its own)."""
    cleaned = text.strip()
    if "<target>" not in cleaned:
        return cleaned  # (most answers: no wrapper to look for)
    own = _wrappers(sent)
    while _wrappers(cleaned) > own:
        match = _TARGET_WRAPPER.match(cleaned)
        assert match is not None
        cleaned = match.group(1).strip()
    return cleaned


def _wrappers(text: str) -> int:
    """How many `<target>` layers wrap the whole of `text`."""
    layers = 0
    while (match := _TARGET_WRAPPER.match(text)) is not None:
        layers += 1
        text = match.group(1)
    return layers


@dataclass(frozen=True, slots=True)
class Problem:
    """Why an output was rejected. `retryable`: a deterministic second try may well succeed
    (a run cut off at max_tokens or looping would most likely do the same again).

    `soft`: the output is still a usable translation (e.g. a glossary term missed): after the
    last attempt the least bad soft output (lowest `severity`) is kept and the problem recorded,
    instead of falling back to the source.

    `check`: the id of the check that found it ("empty", "tags", "glossary" ...), for people
    filtering a review page or a report by check."""

    message: str
    retryable: bool = True
    soft: bool = False
    severity: int = 1
    check: str = ""


def problem_with(generation: Generation, source: str, cleaned: str) -> Problem | None:
    """Why this output is not an acceptable translation of `source`, or None if it is."""
    if generation.finish_reason == "length":
        return Problem(
            f"output cut off at max_tokens ({generation.output_tokens} tokens)",
            retryable=False,
            check="cut-off",
        )
    if generation.finish_reason != "stop":
        return Problem(
            f"generation ended with {generation.finish_reason!r}", retryable=False, check="stopped"
        )
    if not cleaned:
        return Problem("empty output", check="empty")
    if cleaned == source:
        return None  # every check below looks for what the source itself lacks
    # No Unicode text holds a lone surrogate, yet a served model's JSON may ("\\ud800"): no file
    # can be written with it, and every check that encodes the text would fail on it.
    surrogate = LONE_SURROGATE.search(cleaned)
    if surrogate and surrogate.group(0) not in source:
        return Problem(
            f"output contains a lone surrogate U+{ord(surrogate.group(0)):04X} (not valid Unicode)",
            check="control",
        )
    control = _CONTROL.search(cleaned)
    if control and control.group(0) not in source:
        return Problem(
            f"output contains the control character U+{ord(control.group(0)):04X}", check="control"
        )
    for marker in INSTRUCTION_MARKERS:
        if marker in cleaned and marker not in source:
            return Problem("output echoes the instruction", check="echo")
    unit = new_loop(cleaned, source)
    if unit is not None:
        return Problem(f"repetition loop ({unit[:12]!r} repeated)", retryable=False, check="loop")
    if len(cleaned) > 4 * len(source) + 40:
        return Problem(
            f"output far longer than the source ({len(cleaned)} vs {len(source)} characters)", check="length"
        )
    return None


def new_loop(text: str, source: str) -> str | None:
    """The repeated unit of the first loop in `text` that `source` does not hold. A run the
    source has (a format example's `eeeeeeeeeeee`) is no loop of the model's, but every run
    after it is looked at too: it must not hide a loop the model added later in the answer."""
    rest = text
    while (found := find_loop(rest)) is not None:
        run, unit = found
        if run not in source:
            return unit
        rest = rest[rest.index(run) + len(run) :]
    return None


def find_loop(text: str) -> tuple[str, str] | None:
    """What `LOOP.search(text)` finds, as (the whole run, the repeated unit), or None.

    The regex tries 30 unit lengths at every position (~1 µs a character: a third of the
    pipeline's time on a catalog). Here, for each unit length p, one big-integer XOR of the
    text against itself shifted by p characters marks where text[i] == text[i + p]; a loop
    is a run of 9p such positions, found by a byte search. Leftmost run first, then the
    shortest unit, as the lazy regex."""
    n = len(text)
    if n < LOOP_REPEATS:
        return None
    if n <= 256 and max(map(text.count, set(text))) < LOOP_REPEATS:
        return None  # each character of a loop's unit is there LOOP_REPEATS times (a short text, quick)
    wide = int.from_bytes(text.encode("utf-32-le"), "little")  # 4 bytes a character
    best: tuple[int, int] | None = None  # (start, unit)
    for unit in range(1, LOOP_UNIT + 1):
        need = (LOOP_REPEATS - 1) * unit  # positions where a character equals the one a unit later
        if n - unit < need or (best is not None and best[0] == 0):
            break
        same = (wide ^ (wide >> (32 * unit))).to_bytes(4 * n, "little")[: 4 * (n - unit)]
        zeros = bytes(4 * need)
        at = same.find(zeros)
        while at >= 0 and at % 4 and same[at + 4 - at % 4 : at + 4 - at % 4 + 4 * need] != zeros:
            at = same.find(zeros, at + 1)
        if at < 0:
            continue
        start = -(-at // 4)
        if best is None or start < best[0]:
            best = (start, unit)
    if best is None:
        return None
    start, unit = best
    end = start + (LOOP_REPEATS - 1) * unit
    while end + unit < n and text[end] == text[end + unit]:
        end += 1
    repeats = 1 + (end - start) // unit
    return text[start : start + repeats * unit], text[start : start + unit]
