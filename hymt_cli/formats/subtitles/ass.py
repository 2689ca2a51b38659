"""Advanced SubStation Alpha and SubStation Alpha (`.ass`, `.ssa`): sections of `Key: value` lines,
the translated ones the Text fields of the `[Events]` section's `Dialogue:` lines.

A Dialogue line's fields are those the section's `Format:` line names (SSA's and ASS's ten by
default), Text the last: only the text after its comma is translated; Layer or Marked, the times,
Style, Name, the margins and Effect are the source's, and so are `[Script Info]`, the styles,
`[Fonts]`, `[Graphics]`, Comment lines and every other line. In the text, an override block
(`{\\pos(400,570)\\fad(200,200)}`, a `{comment}`) becomes a tag kept in place, a block toggling
italics, bold, underline or strikeout alone (`{\\i1}` ... `{\\i0}`) a pair of tags around its
words; `\\N` and `\\n` are line breaks and `\\h` a no-break space; a drawing (`{\\p1}m 0 0 l ...`)
is kept whole. Refused, with the line: a Dialogue line with fewer fields than its Format names,
times that cannot be read, a Format without Text last, a file with no section at all.

A translation's lines are joined by `\\N`; braces it brings become parentheses and a backslash
that would begin an escape (`\\N`) a full-width one. Right to left: the style's Encoding field
(a font charset only VSFilter reads) is left as it is; see the README.
"""

from __future__ import annotations

import re

from ..spans import Span, SpanKind, locate
from ._subtitle import Line, SubtitleFormat, line_error, lines_of
from ._timing import Timing, TimingError, seconds
from .cues import Cue, SubtitleDocument, cue_parts

_SECTION = re.compile(r"\A[ \t]*\[([^\]]*)\][ \t]*\Z")
_TOKEN = re.compile(r"\{[^}]*\}|\{[^}]*\Z|\\[Nnh]")
_TOGGLE = re.compile(r"\A\{\\([ibus])(\d*)\}\Z")
_DRAWING = re.compile(r"\\p(\d+)")
_ESCAPE = re.compile(r"\\(?=[Nnh{}])")
_PLACED = re.compile(r"\\(?:pos|move)\(|\\p[1-9]")  # a sign placed by hand, a drawing
DEFAULT_FORMAT: tuple[str, ...] = (
    "layer",
    "start",
    "end",
    "style",
    "name",
    "marginl",
    "marginr",
    "marginv",
    "effect",
    "text",
)


def ass_inline(src: str, start: int, end: int) -> list[Span]:
    """A Dialogue's text as parts (see the module's docstring)."""
    parts: list[Span] = []
    pos = start
    drawing = False
    for match in _TOKEN.finditer(src, start, end):
        if match.start() > pos:
            _add(parts, Span(pos, match.start(), "self" if drawing else "text"), drawing)
        token = match.group(0)
        if token.startswith("{"):
            scale = _DRAWING.findall(token)
            toggle = _TOGGLE.match(token)
            if toggle is not None and not drawing:
                kind: SpanKind = "open" if toggle.group(2) not in ("", "0") else "close"
                parts.append(Span(match.start(), match.end(), kind, key=toggle.group(1)))
            else:
                _add(parts, Span(match.start(), match.end(), "self"), drawing)
            if scale:
                drawing = int(scale[-1]) > 0
        elif drawing:
            _add(parts, Span(match.start(), match.end(), "self"), drawing)
        elif token[1] == "h":
            parts.append(Span(match.start(), match.end(), "text", shown="\u00a0"))
        else:
            parts.append(Span(match.start(), match.end(), "break"))
        pos = match.end()
    if pos < end:
        _add(parts, Span(pos, end, "self" if drawing else "text"), drawing)
    return parts


def _add(parts: list[Span], part: Span, drawing: bool) -> None:
    """Append `part`; in a drawing, joined to the placeholder before it (one for the drawing)."""
    if drawing and parts and parts[-1].kind == "self" and parts[-1].end == part.start:
        parts[-1] = Span(parts[-1].start, part.end, "self")
    else:
        parts.append(part)


def ass_escape(text: str) -> str:
    """Translated text as ASS text: no override block or escape of its own; a no-break space `\\h`."""
    text = _ESCAPE.sub("＼", text).replace("{", "(").replace("}", ")")
    return text.replace("\u00a0", "\\h")


class AssFormat(SubtitleFormat):
    name = "ass"
    suffixes = (".ass", ".ssa")

    def cues_of(self, text: str) -> SubtitleDocument:
        lines = lines_of(text)
        section: str | None = None
        fields = DEFAULT_FORMAT
        cues: list[Cue] = []
        for k, line in enumerate(lines):
            content = text[line.start : line.end]
            header = _SECTION.match(content)
            if header is not None:
                section = header.group(1).strip().lower()
                continue
            if section != "events":
                continue
            key, colon, value = content.partition(":")
            if not colon:
                continue
            key = key.strip().lower()
            if key == "format":
                fields = tuple(name.strip().lower() for name in value.split(","))
                if fields[-1] != "text" or "start" not in fields or "end" not in fields:
                    raise line_error(k + 1, "the [Events] Format names no Start and End, or not Text last")
            elif key == "dialogue":
                cues.append(self._dialogue(text, line, k, len(cues) + 1, fields))
        if section is None:
            raise line_error(1, "not an ASS or SSA script: no [Script Info] or other section")
        return SubtitleDocument(text, cues, self.options)

    def _dialogue(self, text: str, line: Line, k: int, number: int, fields: tuple[str, ...]) -> Cue:
        start = text.index(":", line.start) + 1
        values = text[start : line.end].split(",", len(fields) - 1)
        if len(values) < len(fields):
            raise line_error(
                k + 1, f"a Dialogue line with {len(values)} of the {len(fields)} fields its Format names"
            )
        try:
            timing = (seconds(values[fields.index("start")]), seconds(values[fields.index("end")]))
        except TimingError as exc:
            raise line_error(k + 1, str(exc)) from None
        text_start = line.end - len(values[-1])
        parts = cue_parts(text, text_start, line.end, ass_inline)
        located = locate(text, parts, newline="\\N", escape=ass_escape, peel=False)
        placed = _PLACED.search(text, text_start, line.end) is not None
        return Cue(number, k + 1, Timing(*timing), located, placed)
