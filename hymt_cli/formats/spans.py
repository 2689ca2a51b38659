"""Located segments: what markup formats (Markdown, HTML) share.

A format finds each segment as a run of contiguous *parts* of the source: text, markup
that becomes a tag (`open`/`close` pairs, `self` placeholders) and line `break`s (a
newline plus the next line's container prefix). The segment text the model sees is the
parts with markup replaced by HY-MT tags and breaks by "\\n"; splicing a translation
maps every tag back to the exact markup it stands for. Every byte outside a segment, and
every byte of markup inside one, is copied from the source.

Reassembly never trusts a translation's tags: if they do not match the source (the
pipeline's validator should have caught it), the segment keeps its source text.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..text.tags import TAG, close_tag, looks_like_tag, open_tag, self_tag

# Templating in prose (Jinja, Liquid, Hugo, Handlebars: `{{ x }}`, `{% x %}`, `{# x #}`), kept
# as placeholders by the markup formats. Each stops at the first close and never runs over
# another opening (an unclosed `{{` costs the text up to the next one, not the rest of the
# document: `.*?` there was quadratic in unclosed openings).
TEMPLATING = (
    r"\{\{(?:[^{}]|\{(?!\{)|\}(?!\}))*\}\}"
    r"|\{%(?:[^{%]|\{(?!%)|%(?!\}))*%\}"
    r"|\{#(?:[^{#]|\{(?!#)|#(?!\}))*#\}"
)


SpanKind = Literal["text", "open", "close", "self", "break"]


@dataclass(frozen=True, slots=True)
class Span:
    """A span of the source inside a segment.

    `key` pairs an open with its close
    while the format builds the segment (e.g. "em", "html:b"); numbering happens later.
    """

    start: int
    end: int
    kind: SpanKind
    key: str = ""
    shown: str | None = None  # what the model sees for a text part, if not the source (`&amp;` -> `&`)
    # What a markup part becomes when its segment is translated, if not the source: a
    # shortcut reference link's `]` becomes `][label]`, so that it resolves whatever its text.
    written: str | None = None


@dataclass(frozen=True, slots=True)
class Located:
    """A segment found in the source: parts (contiguous), tag numbers, and how to write
    translated text back (`newline`: what an extra line break becomes; `escape`: makes
    translated text safe in its context)."""

    parts: tuple[Span, ...]
    numbers: tuple[int, ...]  # tag number per part (0 for text and breaks)
    newline: str = " "
    escape: Callable[[str], str] | None = None
    peel: bool = True  # move spaces just inside paired tags outside (Markdown emphasis)
    # Makes translated text that begins a line safe there (Markdown: `# `, `- `, `>` ... must
    # not open a block the source did not have). Set when the segment starts a line: then its
    # first text and the text after every line break go through it.
    line_start: Callable[[str], str] | None = None
    blank_lines: bool = True  # False: a blank line would end the block (Markdown): dropped
    # (text written so far, markup about to be written) -> that text made safe before it
    # (Markdown: a `!` right before a link's `[` would make the link an image).
    before_markup: Callable[[str, str], str] | None = None
    role: str = ""  # Segment.role: where the segment sits in the document ("heading 2", "list item")

    @property
    def start(self) -> int:
        return self.parts[0].start

    @property
    def end(self) -> int:
        return self.parts[-1].end


def with_role(located: Sequence[Located], role: str) -> list[Located]:
    """`located` with `role` given to each that has none yet (a block's own segment, not the alt
    text or title nested in it, which has its own)."""
    if not role:
        return list(located)
    return [loc if loc.role else dataclasses.replace(loc, role=role) for loc in located]


def _pairs(parts: Sequence[Span]) -> dict[int, int]:
    """open index -> close index for opens whose close is found (innermost-first matching)."""
    stack: list[int] = []
    pair: dict[int, int] = {}
    for i, part in enumerate(parts):
        if part.kind == "open":
            stack.append(i)
        elif part.kind == "close" and stack and parts[stack[-1]].key == part.key:
            pair[stack.pop()] = i
    return pair


def _is_blank(src: str, part: Span) -> bool:
    return part.kind == "break" or (part.kind == "text" and not src[part.start : part.end].strip())


_HARD_BREAK = re.compile(r"\A(?:\\|[ \t]{2,})(?=\r\n|\r|\n)")


def locate(
    src: str,
    parts: Sequence[Span],
    *,
    newline: str | None = None,
    escape: Callable[[str], str] | None = None,
    peel: bool = True,
    line_start: Callable[[str], str] | None = None,
    blank_lines: bool = True,
    before_markup: Callable[[str, str], str] | None = None,
) -> Located | None:
    """Number the tags of `parts` (unmatched opens/closes become placeholders, so tags always
    nest); blank edges and markup wrapping the whole segment stay outside it. None if the
    segment has no text."""
    items = [p for p in parts if p.end > p.start]
    for a, b in zip(items, items[1:]):
        if a.end != b.start:
            raise ValueError(f"segment parts are not contiguous at {a.end}..{b.start}")
    protected = _protect_tag_like_text(src, items)
    if _stray_tags(src, protected):  # e.g. `&lt;s1&gt;` shown as "<s1>": show the references
        protected = _protect_tag_like_text(src, _as_written(items))
        if _stray_tags(src, protected):
            return None
    if newline is None:
        first_break = next((p for p in protected if p.kind == "break"), None)
        # An extra line break is a plain one: never a copy of a hard break (`  ` or `\\` before it).
        newline = (
            _HARD_BREAK.sub("", src[first_break.start : first_break.end]) if first_break is not None else " "
        )
    trimmed = _trim(src, protected)
    if trimmed is None:
        return None
    final, numbers = _number(trimmed)
    return Located(final, numbers, newline, escape, peel, line_start, blank_lines, before_markup)


def _as_written(items: list[Span]) -> list[Span]:
    """The parts with every text shown as the source writes it (`\\<`, `&lt;`), adjacent
    text parts joined: what reads as a tag there is found whole."""
    out: list[Span] = []
    for p in items:
        if p.kind == "text" and out and out[-1].kind == "text":
            out[-1] = Span(out[-1].start, p.end, "text")
        else:
            out.append(p if p.shown is None else dataclasses.replace(p, shown=None))
    return out


def _trim(src: str, items: list[Span]) -> list[Span] | None:
    """`items` without blank edges and without markup wrapping all the rest; the edge text
    parts without their outer whitespace. None when no text is left."""
    pair = _pairs(items)  # unwrapping a pair leaves the pairs inside it as they are
    lo, hi = 0, len(items) - 1
    while True:
        while lo <= hi and _is_blank(src, items[lo]):
            lo += 1
        while hi >= lo and _is_blank(src, items[hi]):
            hi -= 1
        # (markup rewritten on translation, `]` -> `][label]`, must stay in the segment)
        if hi - lo >= 1 and items[lo].kind == "open" and pair.get(lo) == hi and items[hi].written is None:
            lo, hi = lo + 1, hi - 1
            continue
        break
    kept = items[lo : hi + 1]
    if not any(p.kind == "text" and src[p.start : p.end].strip() for p in kept):
        return None
    first = kept[0]  # whitespace at the edges stays outside the segment
    if first.kind == "text" and first.shown is None:
        text = src[first.start : first.end]
        kept[0] = Span(first.start + len(text) - len(text.lstrip()), first.end, "text")
    last = kept[-1]
    if last.kind == "text" and last.shown is None:
        text = src[last.start : last.end]
        kept[-1] = Span(last.start, last.end - len(text) + len(text.rstrip()), "text")
    return kept


def _number(items: list[Span]) -> tuple[tuple[Span, ...], tuple[int, ...]]:
    """Unmatched opens and closes become placeholders; tags numbered in order from 1."""
    pair = _pairs(items)
    closes = set(pair.values())
    kinds = [p.kind for p in items]
    for i, part in enumerate(items):
        if (part.kind == "open" and i not in pair) or (part.kind == "close" and i not in closes):
            kinds[i] = "self"
    numbers = [0] * len(items)
    n = 0
    for i, kind in enumerate(kinds):
        if kind in ("open", "self"):
            n += 1
            numbers[i] = n
            if kind == "open":
                numbers[pair[i]] = n
    final = tuple(p if p.kind == k else dataclasses.replace(p, kind=k) for p, k in zip(items, kinds))
    return final, tuple(numbers)


def _stray_tags(src: str, parts: Sequence[Span]) -> bool:
    """Text parts that together read as one of our tags (`<`, `s1`, `>` from references)."""
    text = "".join(
        (src[p.start : p.end] if p.shown is None else p.shown) if p.kind == "text" else "\0" for p in parts
    )
    return looks_like_tag(text)


def _protect_tag_like_text(src: str, parts: list[Span]) -> list[Span]:
    """Source text that looks like one of our tags (`<s1>` written literally) is kept as a
    placeholder, so that the model's tags and the document's text cannot be confused."""
    out: list[Span] = []
    for part in parts:
        text = src[part.start : part.end] if part.shown is None else part.shown
        if part.kind == "text" and part.shown is not None and looks_like_tag(text):
            out.append(Span(part.start, part.end, "self"))
            continue
        if part.kind != "text" or not looks_like_tag(text):
            out.append(part)
            continue
        pos = part.start
        for match in re.finditer(r"<[^<>]*>?", text):
            if not looks_like_tag(match.group(0)):
                continue
            a, b = part.start + match.start(), part.start + match.end()
            if a > pos:
                out.append(Span(pos, a, "text"))
            out.append(Span(a, b, "self"))
            pos = b
        if pos < part.end:
            out.append(Span(pos, part.end, "text"))
    return out


def segment_text(src: str, located: Located) -> str:
    out: list[str] = []
    for part, n in zip(located.parts, located.numbers):
        if part.kind == "text":
            out.append(src[part.start : part.end] if part.shown is None else part.shown)
        elif part.kind == "break":
            out.append("\n")
        elif part.kind == "open":
            out.append(open_tag(n))
        elif part.kind == "close":
            out.append(close_tag(n))
        else:
            out.append(self_tag(n))
    return "".join(out)


_SPACE_AFTER_OPEN = re.compile(r"(<s\d+>)([ \t\u3000]+)")
_SPACE_BEFORE_CLOSE = re.compile(r"([ \t\u3000]+)(</s\d+>)")
_BLANK_LINES = re.compile(r"\n(?:[ \t\u3000]*\n)+")

Source = Callable[[int, int], str]  # (start, end) -> the source text there (nested segments patched)


def splice_translation(
    src: str, located: Located, translation: str, source: Source | None = None
) -> str | None:
    """The source text for `translation`: tags back to their markup, line breaks back to
    the source's breaks; None when the translation's tags do not match the segment's.
    `source(start, end)` gives the (possibly patched: nested segments) source text."""
    if source is None:
        source = lambda a, b: src[a:b]  # noqa: E731
    if translation == segment_text(src, located):  # untouched: the source, byte for byte
        return source(located.start, located.end)
    # The model's CR LF and CR are line breaks like its LF (each a line ending in the markup)
    translation = translation.replace("\r\n", "\n").replace("\r", "\n")
    if not located.blank_lines:
        translation = _BLANK_LINES.sub("\n", translation).strip("\n")
    if located.peel:
        translation = _SPACE_AFTER_OPEN.sub(r"\2\1", translation)
        translation = _SPACE_BEFORE_CLOSE.sub(r"\2\1", translation)
    markup = _markup_by_tag(located)
    breaks = [src[p.start : p.end] for p in located.parts if p.kind == "break"]
    newlines_in_text = sum(chunk.count("\n") for chunk in TAG.split(translation)[::4])
    writer = _TextWriter(located, breaks, exact=newlines_in_text == len(breaks))
    seen: set[str] = set()
    pos = 0
    for match in TAG.finditer(translation):
        writer.text(translation[pos : match.start()])
        tag = match.group(0)
        if tag not in markup or tag in seen:
            return None
        seen.add(tag)
        part = markup[tag]
        writer.markup(source(part.start, part.end) if part.written is None else part.written)
        pos = match.end()
    writer.text(translation[pos:])
    if len(seen) != len(markup):
        return None
    return "".join(writer.out)


def _markup_by_tag(located: Located) -> dict[str, Span]:
    markup: dict[str, Span] = {}
    for part, n in zip(located.parts, located.numbers):
        if part.kind == "open":
            markup[open_tag(n)] = part
        elif part.kind == "close":
            markup[close_tag(n)] = part
        elif part.kind == "self":
            markup[self_tag(n)] = part
    return markup


class _TextWriter:
    """Writes a translation's text between its tags: escaped for its context, each line
    break as the source's break (`breaks`, in order; a hard break stays a hard break), and a
    line break beyond the source's as the segment's plain `newline` (`exact`: the translation
    has as many breaks as the source); a line's start guarded where needed."""

    def __init__(self, located: Located, breaks: list[str], *, exact: bool) -> None:
        self.located = located
        self.breaks = breaks
        self.exact = exact
        self.next_break = 0
        self.at_line_start = located.line_start is not None
        self.out: list[str] = []
        self.last_is_text = False

    def markup(self, text: str) -> None:
        guard = self.located.before_markup
        if guard is not None and self.last_is_text:
            self.out[-1] = guard(self.out[-1], text)
        self.out.append(text)
        self.last_is_text = False
        self.at_line_start = False

    def text(self, text: str) -> None:
        located = self.located
        newline = located.newline
        # One line: escape it as a whole. A line break that is an escape sequence itself (Android's
        # `\n`) must not be escaped again: it is written between the escaped lines instead.
        if not self.exact and "\n" not in newline and (not newline.strip() or located.escape is None):
            text = text.replace("\n", newline)
        for i, line in enumerate(text.split("\n")):
            if i:
                self._line_break()
            if located.escape:
                line = located.escape(line)
            if self.at_line_start and located.line_start is not None:
                line = located.line_start(line)
            if line:
                self.out.append(line)
                self.at_line_start = False
                self.last_is_text = True

    def _line_break(self) -> None:
        if self.last_is_text:  # trailing spaces before a break would make it a hard break (Markdown)
            self.out[-1] = self.out[-1].rstrip(" \t")
        if self.next_break < len(self.breaks):
            self.out.append(self.breaks[self.next_break])
            self.next_break += 1
        else:
            self.out.append(self.located.newline)
        self.last_is_text = False
        self.at_line_start = self.located.line_start is not None
