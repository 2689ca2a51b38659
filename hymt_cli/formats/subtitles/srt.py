"""SubRip (`.srt`): numbered cues, a `start --> end` timing line each, their text until a blank line.

Read as players read real files: a cue's number may be missing, a timestamp may have a `.` or no
fraction, a cue may follow the last one's text without a blank line, and text after a blank line
that starts no cue is still the last cue's. A cue's inline markup is kept as tags: `<i>`, `<b>`,
`<u>`, `<s>`, `<font color=...>` paired, any other `<tag>` whole, and what players read in
SubRip as ASS has it: override blocks (`{\\an8}`) and the `\\N` line break whole, `\\h` shown as a
no-break space. Character references some files use (`&amp;`, `&nbsp;`) are shown to the model
as the characters, and written again so. Refused, with the line: a timing line that cannot be
read, a cue number without a timing line (a file cut short), text before the first cue.

What a translation may not bring in is made harmless: markup (`<b>` becomes `＜b>`, `{\\` `｛\\`,
`\\N` `＼N`) and `-->` (`-- >`), which would end the cue.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from ..html.escapes import escape_markup, spelled
from ..spans import Span, SpanKind, locate
from ._subtitle import Line, SubtitleFormat, line_error, lines_of
from ._timing import ARROW, Timing, TimingError, timing_line
from .cues import Cue, SubtitleDocument, cue_parts

_TOKEN = re.compile(
    r"<(/?)([A-Za-z][A-Za-z0-9_]*)\b[^<>]*>|\{\\[^{}]*\}|\\[Nh]|&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);"
)
FORMATTING = frozenset({"b", "i", "u", "s", "font"})
_NUMBER = re.compile(r"\A[ \t]*\d+[ \t]*\Z")
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
_ESCAPE_LIKE = re.compile(r"\\(?=[Nh])")


def srt_inline(src: str, start: int, end: int) -> list[Span]:
    """One line of a cue's text as parts: formatting tags paired, other markup kept whole."""
    parts: list[Span] = []
    pos = start
    for match in _TOKEN.finditer(src, start, end):
        if match.start() > pos:
            parts.append(Span(pos, match.start(), "text"))
        token = match.group(0)
        if token == "\\h":  # ASS's no-break space, which players read in SubRip too
            parts.append(Span(match.start(), match.end(), "text", shown="\u00a0"))
        elif token.startswith("&"):
            shown = html.unescape(token)
            parts.append(Span(match.start(), match.end(), "text", shown=shown if shown != token else None))
        elif token[0] in "{\\" or match.group(2).lower() not in FORMATTING:
            parts.append(Span(match.start(), match.end(), "self"))
        else:
            kind: SpanKind = "close" if match.group(1) else "open"
            parts.append(Span(match.start(), match.end(), kind, key=match.group(2).lower()))
        pos = match.end()
    if pos < end:
        parts.append(Span(pos, end, "text"))
    return parts


def srt_escape(spelled_here: frozenset[str]) -> Callable[[str], str]:
    """Translated text as SubRip text: no markup of its own, no `-->`; written with references
    where the source wrote them (`spelled_here`: the characters it spelled so)."""

    def escape(text: str) -> str:
        if spelled_here:
            text = escape_markup(text, spelled_here)
        else:
            text = _TAG_START.sub("＜", text)
        text = _ESCAPE_LIKE.sub("＼", text)  # (`\\N` would be a line break, `\\h` a space)
        return text.replace("{\\", "｛\\").replace(ARROW, "-- >")

    return escape


class SrtFormat(SubtitleFormat):
    name = "srt"
    suffixes = (".srt",)

    def cues_of(self, text: str) -> SubtitleDocument:
        return SubtitleDocument(text, _Scan(text).cues(), self.options)


class _Scan:
    """The cues of a SubRip file, line by line."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = lines_of(text)

    def content(self, k: int) -> str:
        line = self.lines[k]
        return self.text[line.start : line.end]

    def blank(self, k: int) -> bool:
        return not self.content(k).strip()

    def timing(self, k: int, *, strict: bool) -> Timing | None:
        """The timing on line k; None if it has none (or, not `strict`, one that cannot be read)."""
        try:
            found = timing_line(self.content(k))
        except TimingError as exc:
            if strict:
                raise line_error(k + 1, str(exc)) from None
            return None
        return None if found is None else found[0]

    def start(self, k: int, *, strict: bool) -> tuple[int, Timing] | None:
        """(timing line, timing) of a cue starting at line k (its number, or its timing), or None.
        `strict`: line k begins a block, so a broken timing there is an error, not text."""
        timing = self.timing(k, strict=strict)
        if timing is not None:
            return k, timing
        if _NUMBER.match(self.content(k)) and k + 1 < len(self.lines):
            after = self.timing(k + 1, strict=strict)
            if after is not None:
                return k + 1, after
        return None

    def cues(self) -> list[Cue]:
        cues: list[Cue] = []
        k, count = 0, len(self.lines)
        while k < count and self.blank(k):
            k += 1
        while k < count:
            found = self.start(k, strict=True)
            if found is None:
                if _NUMBER.match(self.content(k)):
                    raise line_error(
                        k + 1, f"cue {self.content(k).strip()} has no timing line (a file cut short?)"
                    )
                raise line_error(
                    k + 1, f"{_shown(self.content(k))} begins no cue (a number, then start --> end)"
                )
            timing_at, timing = found
            k = self._text_end(timing_at + 1)
            cues.append(self._cue(len(cues) + 1, timing_at, timing, k))
        return cues

    def _text_end(self, k: int) -> int:
        """The line after a cue's text that begins at line k: the next cue's first line, or the end."""
        count = len(self.lines)
        after_blank = False
        while k < count:
            if self.blank(k):
                after_blank = True
            elif self.start(k, strict=after_blank) is not None:
                return k
            elif after_blank and _NUMBER.match(self.content(k)):
                raise line_error(
                    k + 1, f"cue {self.content(k).strip()} has no timing line (a file cut short?)"
                )
            else:
                after_blank = False
            k += 1
        return count

    def _cue(self, number: int, timing_at: int, timing: Timing, stop: int) -> Cue:
        """The cue whose timing is on line `timing_at` and whose text lines end before `stop`."""
        first, last = timing_at + 1, stop - 1
        while last >= first and self.blank(last):
            last -= 1
        located = None
        if last >= first:
            start, end = self.lines[first].start, self.lines[last].end
            parts = cue_parts(self.text, start, end, srt_inline)
            found = frozenset[str]().union(
                *(spelled(self.text[p.start : p.end]) for p in parts if p.shown is not None)
            )
            newline = _newline(self.text, self.lines[timing_at])
            located = locate(self.text, parts, newline=newline, escape=srt_escape(found), peel=False)
        return Cue(number, timing_at + 1, timing, located)


def _newline(text: str, line: Line) -> str:
    return text[line.end : line.next] or "\n"


def _shown(line: str) -> str:
    return repr(line.strip() if len(line) <= 60 else line.strip()[:59] + "…")
