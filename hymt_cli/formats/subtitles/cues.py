"""A subtitle file's cues, each one segment, and their translations spliced back cue by cue.

What every subtitle format shares once it has found its cues: a cue's text as a located segment
(spans.py: inline markup as `<sN>` tags, the lines' breaks as "\\n"), its neighbours as the model's
context (a sentence often runs over several cues), its place for a report ("cue 12"), and, once
translated, its lines laid out again (_layout.py) and measured (reading speed, line length).
Everything outside a cue's text (numbering, timings, settings, headers, styles, blank lines, the
byte order mark) is the source's, byte for byte; so is a cue whose translation is its source.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ...qa.flags import Flag
from ...text.segments import Segment
from ...text.tags import TAG
from ..spans import Located, Span, segment_text, splice_translation
from ._layout import Shape, embedded, lay_out, line_wise, rtl_marks, source_lines, width
from ._timing import Timing
from .options import UNSPACED, SubtitleOptions, primary

# A line break inside a cue's text, with any blank lines after it (SubRip text may have them).
LINE_BREAK = re.compile(r"(?:\r\n|\r|\n)(?:[ \t]*(?:\r\n|\r|\n))*")
_PLAIN_SPACE = re.compile(r"\s+")
BEFORE, AFTER = 2, 1  # neighbouring cues the model reads: two before, one after
CONTEXT_CUE_CHARS = 150  # a neighbour longer than this is cut: context, not content

# Inline parts of one line of a cue's text: (source, line start, line end) -> parts.
InlineParts = Callable[[str, int, int], list[Span]]


@dataclass(frozen=True, slots=True)
class Cue:
    """A cue found in the source: its place among the file's cues (`number`, from 1), the line of
    its timing (from 1), when it is shown, and its text as a segment (None: nothing to translate)."""

    number: int
    line: int
    timing: Timing
    located: Located | None
    # Its lines are placed by hand (ASS `\pos`, `\move`: a sign): a translation keeps its lines
    # where it gives no more than the source has, rather than being laid out again.
    placed: bool = False

    @property
    def label(self) -> str:
        return f"cue {self.number} (line {self.line})"


def cue_parts(src: str, start: int, end: int, inline: InlineParts) -> list[Span]:
    """The parts of a cue's text src[start:end]: each line's inline parts, a break between lines;
    markup at either end that opens or closes nothing inside (`{\\an8}`, `<v Speaker>` never
    closed) stays out of the segment."""
    parts: list[Span] = []
    pos = start
    for match in LINE_BREAK.finditer(src, start, end):
        parts.extend(inline(src, pos, match.start()))
        parts.append(Span(match.start(), match.end(), "break"))
        pos = match.end()
    parts.extend(inline(src, pos, end))
    return inner_parts(src, parts)


def line_parts(src: str, start: int, end: int) -> list[Span]:
    """Plain text src[start:end] as text parts and the breaks between its lines."""
    parts: list[Span] = []
    pos = start
    for match in LINE_BREAK.finditer(src, start, end):
        if match.start() > pos:
            parts.append(Span(pos, match.start(), "text"))
        parts.append(Span(match.start(), match.end(), "break"))
        pos = match.end()
    if end > pos:
        parts.append(Span(pos, end, "text"))
    return parts


def inner_parts(src: str, parts: list[Span]) -> list[Span]:
    """`parts` without the markup, breaks and blank text at either end that pair with nothing
    left inside."""
    closes: dict[int, int] = {}
    stack: list[int] = []
    for i, part in enumerate(parts):
        if part.kind == "open":
            stack.append(i)
        elif part.kind == "close" and stack and parts[stack[-1]].key == part.key:
            closes[stack.pop()] = i
    opens = {close: open_ for open_, close in closes.items()}
    lo, hi = 0, len(parts) - 1
    while lo <= hi and _loose(src, parts[lo], lo, closes.get(lo, len(parts)) > hi):
        lo += 1
    while hi >= lo and _loose(src, parts[hi], hi, opens.get(hi, -1) < lo):
        hi -= 1
    return parts[lo : hi + 1]


def _loose(src: str, part: Span, index: int, unpaired: bool) -> bool:
    if part.kind == "text":
        return not src[part.start : part.end].strip()
    return part.kind in ("break", "self") or unpaired


class SubtitleDocument:
    """A subtitle file parsed: its cues' segments, and their translations spliced back. `edits`:
    other spans a translation rewrites, (start, end) -> the text for a target (WebVTT's
    `Language:` header); `warning`: what a person should know of the file (text left alone)."""

    def __init__(
        self,
        src: str,
        cues: Sequence[Cue],
        options: SubtitleOptions,
        edits: Mapping[tuple[int, int], Callable[[str], str]] | None = None,
        marks: tuple[str, str] | None = None,
        *,
        warning: str = "",
    ) -> None:
        self.src = src
        self.cues = cues
        self.options = options
        self.edits = dict(edits or {})
        self.warning = warning
        self.marks = marks if marks is not None else rtl_marks("utf-8")
        self.translatable = [cue for cue in cues if cue.located is not None]
        self.texts = [segment_text(src, cue.located) for cue in self.translatable if cue.located is not None]
        self.segments = [
            Segment(i, text, context, role=f"cue {cue.number}")
            for i, (cue, text, context) in enumerate(zip(self.translatable, self.texts, self._contexts()))
        ]

    def written_in(self, codec: str) -> SubtitleDocument:
        """This document, to be written in `codec`: its right-to-left marks are ones it can hold."""
        marks = rtl_marks(codec) or ("", "")
        return SubtitleDocument(self.src, self.cues, self.options, self.edits, marks, warning=self.warning)

    @property
    def labels(self) -> dict[int, str]:
        return {i: cue.label for i, cue in enumerate(self.translatable)}

    def _contexts(self) -> list[str]:
        """Each cue's neighbours in time (two before, one after): what the model reads with it."""
        plain = [_plain(text) for text in self.texts]
        order = sorted(range(len(self.translatable)), key=lambda i: self.translatable[i].timing.start)
        contexts = [""] * len(order)
        for place, i in enumerate(order):
            near = order[max(0, place - BEFORE) : place] + order[place + 1 : place + 1 + AFTER]
            lines = [plain[j] for j in near if plain[j] and plain[j] != plain[i]]
            contexts[i] = "\n".join(lines)
        return contexts

    def _shape(self, segment_id: int, target: str) -> Shape:
        text = self.texts[segment_id]
        return Shape(
            self.options.width(target),
            self.options.lines,
            len(source_lines(text)),
            line_wise(text),
            primary(target) in UNSPACED,
            self.translatable[segment_id].placed,
        )

    def lines(self, segment_id: int, translation: str, target: str) -> list[str]:
        """The translation of a segment laid out as the cue's lines (right-to-left marks aside)."""
        return lay_out(translation, self._shape(segment_id, target))

    def reassemble(self, translated: Mapping[int, str], *, target_language: str | None = None) -> str:
        target = target_language or ""
        marks = self.marks if self.options.marks(target) else None
        replacements: list[tuple[int, int, str]] = [
            (start, end, edit(target)) for (start, end), edit in self.edits.items() if target
        ]
        for i, cue in enumerate(self.translatable):
            translation = translated.get(i)
            if translation is None or translation == self.texts[i] or cue.located is None:
                continue  # (untouched: the source, byte for byte)
            lines = self.lines(i, translation, target)
            spliced = splice_translation(
                self.src, cue.located, "\n".join(embedded(lines, marks) if marks else lines)
            )
            if spliced is not None:
                replacements.append((cue.located.start, cue.located.end, spliced))
        replacements.sort()
        out: list[str] = []
        pos = 0
        for start, end, text in replacements:
            out.append(self.src[pos:start])
            out.append(text)
            pos = end
        out.append(self.src[pos:])
        return "".join(out)

    def findings(self, segment_id: int, translation: str, target: str) -> list[Flag]:
        """The reading speed and the lines of a cue's translation, as the format lays it out."""
        if translation == self.texts[segment_id]:
            return []
        lines = self.lines(segment_id, translation, target)
        flags: list[Flag] = []
        limit = self.options.width(target)
        longest = max((width(line) for line in lines), default=0)
        if longest > limit:
            flags.append(Flag("line-length", "warning", f"a line of {longest} characters ({limit} at most)"))
        if len(lines) > self.options.lines:
            flags.append(Flag("line-length", "warning", f"{len(lines)} lines ({self.options.lines} at most)"))
        seconds = self.translatable[segment_id].timing.seconds
        characters = sum(width(line) for line in lines)
        if seconds > 0 and characters / seconds > self.options.reading_speed:
            flags.append(
                Flag(
                    "reading-speed",
                    "warning",
                    f"{characters / seconds:.1f} characters a second ({self.options.reading_speed:g} at "
                    f"most): {characters} characters in {seconds:.2f} s",
                )
            )
        return flags


def _plain(text: str) -> str:
    """A cue's text as context: its words, without tags, on one line."""
    return _PLAIN_SPACE.sub(" ", TAG.sub("", text)).strip()[:CONTEXT_CUE_CHARS]
