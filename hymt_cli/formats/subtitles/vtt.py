"""WebVTT (`.vtt`): the `WEBVTT` header, then cues (an optional identifier, a timing line with its
settings, text until a blank line), NOTE comments, STYLE and REGION blocks.

Read as the W3C parser reads it: a cue's text also ends at a line with `-->` (the next cue's
timing, as YouTube's files have it), and a block whose second line has `-->` is a cue whose
first line is its identifier. Inline markup becomes tags: `<c.class>`, `<i>`, `<b>`, `<u>`,
`<v Speaker>`, `<lang xx>`, `<ruby>` paired; a timestamp (`<00:01.500>`, karaoke) and a ruby
annotation (`<rt>...</rt>`, a reading of its base) whole. Character references (`&amp;`,
`&lt;`, `&nbsp;`) are shown as characters and a translation's `&`, `<` and `>` written as
references. Refused, with the line: a file without the `WEBVTT` signature, a timing line that
cannot be read. A block that is no cue, NOTE, STYLE or REGION is left as it is (players skip it)
and the file's warning names its line.

The header, NOTE, STYLE and REGION blocks, identifiers, timings and settings are the source's;
a `Language:` header line (YouTube's) says the target language.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from ..spans import Span, locate
from ._subtitle import SubtitleFormat, line_error, lines_of
from ._timing import ARROW, TimingError, timing_line
from .cues import Cue, SubtitleDocument, inner_parts, line_parts

_SIGNATURE = re.compile(r"\A\ufeff?WEBVTT(?:[ \t\r\n]|\Z)")
_TOKEN = re.compile(r"<(/?)([^\s<>./]*)([^<>\r\n]*)>|&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9A-Fa-f]+);")
_PAIRED = frozenset({"c", "i", "b", "u", "v", "lang", "ruby"})
_RT_END = re.compile(r"</rt\s*>|(?=</ruby\s*>)", re.IGNORECASE)
_BLOCKS = re.compile(r"\A(?:NOTE|STYLE|REGION)(?:[ \t]|\Z)")
_LANGUAGE = re.compile(r"\ALanguage:[ \t]*([^ \t]*)", re.IGNORECASE)


def vtt_parts(src: str, start: int, end: int) -> list[Span]:
    """A cue's text src[start:end] as parts (see the module's docstring), read over the whole cue
    as the W3C parser reads it: `<rt>` is an annotation only inside an open `<ruby>`, and runs,
    across lines, to its `</rt>`, the ruby's `</ruby>` or the cue's end; elsewhere it is a tag of
    its own and the text after it is text. (Read line by line, a translation laid out on other
    lines would move text into, or out of, an annotation.)"""
    parts: list[Span] = []
    pos = start
    ruby = 0  # rubies open here
    for match in _TOKEN.finditer(src, start, end):
        if match.start() < pos:
            continue  # (inside an annotation already taken whole)
        parts.extend(line_parts(src, pos, match.start()))
        token, name = match.group(0), (match.group(2) or "").lower()
        stop = match.end()
        closing = bool(match.group(1))
        if token.startswith("&"):
            shown = html.unescape(token)
            parts.append(Span(match.start(), stop, "text", shown=shown if shown != token else None))
        elif name == "rt" and not closing and ruby:  # an annotation: kept whole with its text
            found = _RT_END.search(src, stop, end)
            stop = found.end() if found is not None else end
            parts.append(Span(match.start(), stop, "self"))
        elif name in _PAIRED:
            if name == "ruby":
                ruby = max(0, ruby + (-1 if closing else 1))
            parts.append(Span(match.start(), stop, "close" if closing else "open", key=name))
        else:  # a timestamp, an unknown tag, an `<rt>` outside a ruby, a stray `</rt>`
            parts.append(Span(match.start(), stop, "self"))
        pos = stop
    parts.extend(line_parts(src, pos, end))
    return parts


def vtt_escape(text: str) -> str:
    """Translated text as WebVTT cue text: `&`, `<`, `>` (and so `-->`) as references."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class VttFormat(SubtitleFormat):
    name = "vtt"
    suffixes = (".vtt",)

    def cues_of(self, text: str) -> SubtitleDocument:
        if _SIGNATURE.match(text) is None:
            raise line_error(1, "not a WebVTT file: it does not begin with WEBVTT")
        lines = lines_of(text)

        def content(k: int) -> str:
            return text[lines[k].start : lines[k].end]

        def blank(k: int) -> bool:
            return not content(k).strip()

        count = len(lines)
        k = 1
        edits: dict[tuple[int, int], Callable[[str], str]] = {}
        ignored: list[int] = []  # lines of blocks that are no cue, NOTE, STYLE or REGION
        while k < count and not blank(k):  # the header
            language = _LANGUAGE.match(content(k))
            if language is not None:
                span = (lines[k].start + language.start(1), lines[k].start + language.end(1))
                edits[span] = _target
            k += 1
        cues: list[Cue] = []
        while k < count:
            if blank(k):
                k += 1
                continue
            timing_at = k if ARROW in content(k) else k + 1
            if timing_at == k + 1 and not (k + 1 < count and ARROW in content(k + 1)):
                if _BLOCKS.match(content(k)) is None:
                    ignored.append(k + 1)
                while k < count and not blank(k):
                    k += 1
                continue
            try:
                found = timing_line(content(timing_at))
            except TimingError as exc:
                raise line_error(timing_at + 1, str(exc)) from None
            assert found is not None
            k = timing_at + 1
            while k < count and not blank(k) and ARROW not in content(k):
                k += 1
            located = None
            if k > timing_at + 1:
                start, end = lines[timing_at + 1].start, lines[k - 1].end
                newline = text[lines[timing_at].end : lines[timing_at].next] or "\n"
                parts = inner_parts(text, vtt_parts(text, start, end))
                located = locate(text, parts, newline=newline, escape=vtt_escape, peel=False)
            cues.append(Cue(len(cues) + 1, timing_at + 1, found[0], located))
        warning = ""
        if ignored:
            lines_named = ", ".join(map(str, ignored[:5])) + (" ..." if len(ignored) > 5 else "")
            warning = f"blocks that are no cue, NOTE, STYLE or REGION (line {lines_named}): left as they are"
        return SubtitleDocument(text, cues, self.options, edits, warning=warning)


def _target(code: str) -> str:
    return code
