"""A translated cue's lines: laid out again, as a subtitler would, within a line's width.

A translation is one line where it fits, else lines of about equal width (a break after
punctuation, and outside inline markup, is preferred, one after a word of three letters or fewer
avoided; the lower line may be the longer), at most
`lines` of them, more only where the text cannot fit. A break goes at a space, or in Chinese and
Japanese between two characters where kinsoku allows (never before a closing mark, never after
an opening one). Tags (`<s1>`, `</s1>`, `<s2/>`) take no width and keep their order, so pairs
stay pairs. A cue whose lines are turns of a dialogue (each begins with a dash, or with markup
such as WebVTT's `<v Speaker>`) keeps the translation's lines where it gives as many, and so
does a sign whose lines are placed by hand (ASS `\\pos`).

Width is counted in characters as they are seen: combining marks, format characters (bidi
marks, zero-width spaces) and tags count nothing.

A right-to-left translation's lines are each put in a right-to-left embedding (RLE ... PDF), or
between right-to-left marks where the output's encoding has no RLE: players that lay every line
out left to right (libass and VSFilter for ASS, some for SRT) then still put a sentence's final
punctuation, and a Latin word at its start, where a reader of Arabic or Hebrew expects them.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ...text.tags import TAG

_SPACES = re.compile(r"[ \t\r\n\f\v\u2028\u2029]+")
_DASH = re.compile(r"\A(?:<s\d+/?>|\s)*[-\u2010-\u2015]")
_LEADING_TAG = re.compile(r"\A\s*<s\d+/?>")
# Where a dialogue's next turn begins in a translation given as one line: a dash after a sentence.
_TURN = re.compile(r"(?<=[.!?…。！？\"”»)\]]) (?=(?:<s\d+/?>)*[-\u2010-\u2015] )")
_PUNCTUATION = frozenset(".,;:!?…)]}\"'»”’、。，．！？；：」』）】〉》")
# Kinsoku: never at a line's start, never at a line's end.
_NO_START = frozenset(
    "、。，．！？；：」』）】〉》〕］｝・ー〜…‥々ゝゞぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
)
_NO_END = frozenset("「『（【〈《〔［｛")
# Around a space: French puts one before `?` and after `«`; neither space may become a break.
_NOT_AFTER_BREAK = frozenset("?!:;»)]}…%")
_NOT_BEFORE_BREAK = frozenset("«¿¡([{")
_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
RLE, PDF, RLM = "\u202b", "\u202c", "\u200f"


def width(text: str) -> int:
    """Characters of `text` a reader sees (tags, combining marks and format characters: none)."""
    visible = TAG.sub("", text) if "<" in text else text
    if visible.isascii():
        return len(visible)
    return sum(_char_width(c) for c in visible)


def _char_width(char: str) -> int:
    return 1 if char.isascii() or unicodedata.category(char) not in ("Mn", "Me", "Cf") else 0


def source_lines(segment_text: str) -> list[str]:
    return [line for line in segment_text.split("\n") if line.strip()]


def line_wise(segment_text: str) -> bool:
    """A cue whose lines are turns (dialogue dashes, a speaker's markup at each line's start)."""
    lines = source_lines(segment_text)
    if len(lines) < 2:
        return False
    return all(_DASH.match(line) for line in lines) or all(_LEADING_TAG.match(line) for line in lines)


@dataclass(frozen=True, slots=True)
class Shape:
    """How a cue's lines are laid out: `width` characters a line (the target's), at most `lines`
    lines; the source's lines (`source`) and whether they are turns of a dialogue."""

    width: int
    lines: int
    source: int = 1
    turns: bool = False
    unspaced: bool = False  # Chinese, Japanese: a line may break between any two characters
    placed: bool = False  # lines placed by hand (a sign): the translation's kept where it can be


def lay_out(text: str, shape: Shape) -> list[str]:
    """The translation `text` as lines."""
    given = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    given = [line for line in given if line]
    flat = _SPACES.sub(" ", text).strip()
    if shape.placed and 0 < len(given) <= shape.source:
        return given
    if shape.turns:
        turns = given if len(given) > 1 else [t.strip() for t in _TURN.split(flat)]
        if 1 < len(turns) <= max(shape.lines, shape.source):
            return turns
    if width(flat) <= shape.width:
        return [flat] if flat else []
    breaks = _Breaks(flat, shape.unspaced)
    if shape.lines >= 2:
        two = breaks.best_pair(shape.width)
        if two is not None:
            return two
    count = max(shape.lines, shape.source, 1)
    return breaks.balanced(count)


class _Breaks:
    """Where a line of text may break: at a space (the space goes), or between two characters of
    unspaced text (`unspaced`); each with the width before it."""

    def __init__(self, text: str, unspaced: bool) -> None:
        self.text = text
        self.total = width(text)
        self.at: list[tuple[int, int, int, float]] = []  # (cut, resume, width before, penalty)
        seen = 0  # width so far
        depth = 0  # open pairs around the position
        pos = 0
        previous = ""
        word = 0  # letters of the word before the position
        for match in [*TAG.finditer(text), None]:
            stop = match.start() if match is not None else len(text)
            for i in range(pos, stop):
                char = text[i]
                if char == " ":
                    following = text[i + 1] if i + 1 < len(text) else ""
                    if following not in _NOT_AFTER_BREAK and previous not in _NOT_BEFORE_BREAK:
                        # (a line that ends with a short word, `the`, `à`, ends on an article or a
                        # preposition more often than not)
                        self._add(i, i + 1, seen, previous, depth, 0 < word <= 3)
                elif unspaced and previous and previous != " " and _may_break(previous, char):
                    self._add(i, i, seen, previous, depth, False)
                word = word + 1 if char.isalpha() else 0
                seen += _char_width(char)
                previous = char
            if match is None:
                break
            closing, _, selfclosing = match.groups()
            if not selfclosing:
                depth += -1 if closing else 1
            pos = match.end()

    def _add(self, cut: int, resume: int, before: int, previous: str, depth: int, short: bool) -> None:
        penalty = (0.0 if previous in _PUNCTUATION else 8.0) + (1.5 if depth > 0 else 0.0)
        self.at.append((cut, resume, before, penalty + (3.0 if short else 0.0)))

    def best_pair(self, limit: int) -> list[str] | None:
        """Two lines, as even as punctuation allows, both within `limit`; None if none fit."""
        best: tuple[float, int] | None = None
        for index, (cut, resume, before, penalty) in enumerate(self.at):
            upper, lower = before, self.total - before - (resume - cut)
            if max(upper, lower) > limit or not upper or not lower:
                continue
            cost = max(upper, lower) + penalty + (0.5 if upper > lower else 0.0)
            if best is None or cost < best[0]:
                best = (cost, index)
        return None if best is None else self._cut([best[1]])

    def balanced(self, count: int) -> list[str]:
        """`count` lines (fewer where there are fewer places to break) of about equal width."""
        chosen: list[int] = []
        start_width = 0
        first = 0
        for line in range(count - 1):
            remaining = self.total - start_width
            target = start_width + remaining / (count - line)
            options = [i for i in range(first, len(self.at)) if self.at[i][2] > start_width]
            if not options:
                break
            index = min(options, key=lambda i: abs(self.at[i][2] - target) + self.at[i][3])
            chosen.append(index)
            cut, resume, before, _ = self.at[index]
            start_width = before + (resume - cut)
            first = index + 1
        return self._cut(chosen)

    def _cut(self, chosen: list[int]) -> list[str]:
        lines: list[str] = []
        pos = 0
        for index in chosen:
            cut, resume, _, _ = self.at[index]
            lines.append(self.text[pos:cut].strip())
            pos = resume
        lines.append(self.text[pos:].strip())
        return [line for line in lines if line]


def _may_break(previous: str, char: str) -> bool:
    return char not in _NO_START and previous not in _NO_END and not char.isspace()


def embedded(lines: list[str], marks: tuple[str, str]) -> list[str]:
    """Lines with right-to-left text in `marks` (RLE and PDF, or RLM twice)."""
    start, end = marks
    return [start + line + end if _RTL.search(line) else line for line in lines]


def rtl_marks(codec: str) -> tuple[str, str] | None:
    """The marks that put a line right to left in text written in `codec` (None: it has none)."""
    for marks in ((RLE, PDF), (RLM, RLM)):
        try:
            "".join(marks).encode(codec)
        except (UnicodeEncodeError, LookupError):
            continue
        return marks
    return None
