"""Codes: tokens that mix letters and digits. A SKU or model name (`XR-2000`, `A4`, `RTX4090`,
`ISO-9001`) must come back as it is; a number with a unit (`5kg`, `128GB`, `2nd`, `4K`) is a
number, and so are dimensions (`10x20`); a lowercase code (`x86`, `m2`, `v2`) is neither
checked as a code nor read as numbers.

A code is a run of alphanumeric parts joined by `-` or `_` (or a `.` between digits). Its
parts that read as words (`Player` in `MP3-Player`, `Papier` in `A4-Papier`) are not part of
the code: translations reorder and translate them. Letters are Latin, Greek or Cyrillic ones:
digits next to Chinese or Japanese characters (`第3章`, `5个`) are numbers."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._scripts import LETTERS

_L = LETTERS
_PART = rf"[{_L}0-9]+"
_CODE = re.compile(
    # a token with a digit somewhere (the lookahead runs in the regex engine: words are skipped fast)
    rf"(?<![{_L}0-9])(?=[{_L}0-9._-]*[0-9])"
    rf"({_PART}(?:(?:[-_]{_PART})|(?:(?<=[0-9])\.(?=[0-9])[0-9]+))*)(?![{_L}0-9])"
)
_SEPARATOR = re.compile(r"[-_]")
_ASCII_DIGIT = re.compile("[0-9]")
_CODE_CHAR = re.compile(rf"[{_L}0-9._-]+")
_HAS_LETTER = re.compile(rf"[{_L}]")
_NUMBER_WITH_UNIT = re.compile(rf"[0-9]+(?:\.[0-9]+)?[{_L}]{{1,4}}")
_DIGITS = re.compile(r"[0-9]+(?:\.[0-9]+)*")
# 10x20, 1920x1080: numbers (10 × 20 in a translation); 0x00 is a hexadecimal code
_DIMENSIONS = re.compile(r"(?!0[xX])[0-9]+(?:[xX][0-9]+)+")
_DIMENSIONS_IN_TEXT = re.compile(rf"(?<![{_L}0-9_.]){_DIMENSIONS.pattern}(?![{_L}0-9_])")


@dataclass(frozen=True, slots=True)
class Code:
    text: str
    start: int
    end: int
    sku: bool  # has an uppercase letter: kept as is (lowercase codes are only kept out of numbers)


def _kind(part: str) -> str:
    """word | upper (letters, all capitals) | number | unit (a number with a unit) | mixed."""
    if _DIGITS.fullmatch(part):
        return "number"
    if not any(ch.isdigit() for ch in part):
        return "upper" if part.isupper() else "word"
    return "unit" if _NUMBER_WITH_UNIT.fullmatch(part) or _DIMENSIONS.fullmatch(part) else "mixed"


def find_codes(text: str) -> list[Code]:
    """The codes of `text` (ASCII digits: read full-width forms as ASCII first). Only the runs of
    code characters around a digit are read: most words hold none."""
    found: list[Code] = []
    end = 0
    for digit in _ASCII_DIGIT.finditer(text):
        if digit.start() < end:
            continue  # in the run just read
        start = digit.start()
        while start and _CODE_CHAR.match(text, start - 1):
            start -= 1
        run = _CODE_CHAR.match(text, digit.start())
        end = run.end() if run else digit.end()
        for match in _CODE.finditer(text, start, end):
            found.extend(_token(text, match))
    return found


def _token(text: str, match: re.Match[str]) -> list[Code]:
    token = match.group(1)
    if not _HAS_LETTER.search(token) or not any(ch.isdigit() for ch in token):
        return []
    pos = match.start()
    parts: list[tuple[int, int, str]] = []  # (start, end, kind) of each part
    for piece in _SEPARATOR.split(token):
        start = text.index(piece, pos)
        parts.append((start, start + len(piece), _kind(piece)))
        pos = start + len(piece)
    return _runs(text, parts)


def _runs(text: str, parts: list[tuple[int, int, str]]) -> list[Code]:
    """The code-like runs of one token: adjacent upper, number and mixed parts holding at least
    one mixed part, or capitals with a number (`XR-2000`); words and units break runs."""
    runs: list[Code] = []
    run: list[tuple[int, int, str]] = []
    for part in [*parts, (0, 0, "word")]:
        if part[2] in ("upper", "number", "mixed"):
            run.append(part)
            continue
        kinds = {kind for _, _, kind in run}
        if "mixed" in kinds or {"upper", "number"} <= kinds:
            start, end = run[0][0], run[-1][1]
            snippet = text[start:end]
            runs.append(Code(snippet, start, end, sku=any(ch.isupper() for ch in snippet)))
        run = []
    return runs


def spaced_form(code: Code) -> str | None:
    """`USB-3.0` as prose writes it, `USB 3.0`, for a code of capitals and numbers joined by
    hyphens (German and Dutch hyphenate such a pair into a compound: `USB-3.0-Anschluss`); None
    for any other code."""
    parts = code.text.split("-")
    if len(parts) < 2 or any(_kind(part) not in ("upper", "number") for part in parts):
        return None
    return " ".join(parts)


def find_dimensions(text: str) -> list[tuple[int, int]]:
    """Where `text` writes dimensions (`10x20`): numbers, yet written as a translation keeps them."""
    return [m.span() for m in _DIMENSIONS_IN_TEXT.finditer(text)] if "x" in text or "X" in text else []
