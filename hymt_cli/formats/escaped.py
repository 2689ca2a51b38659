"""Text as a file writes it (escapes, entities, quoting) beside the text it stands for.

A string value in a resource file is written with its format's escapes (`\\'` in Android,
`&amp;` in XML, `\\n` in a C string). The placeholder grammar and the model work on the
decoded text; splicing works on the source. An `EscapedRun` holds both, chunk by chunk:
a chunk is a span of the source and the text it decodes to. `parts()` turns parts found in
the decoded text (placeholders, tags, breaks, text) into parts of the source, so that
placeholders and markup are copied byte for byte and only the text the model wrote is
escaped again.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from .spans import Span


@dataclass(frozen=True, slots=True)
class Chunk:
    """`src[start:end]` reads as `text`. `plain`: the source is the text itself, character for
    character (offsets inside it map one to one)."""

    start: int
    end: int
    text: str
    plain: bool


class EscapedRun:
    """Contiguous chunks of a source: the raw span [start, end) and its decoded text."""

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        self.chunks = _without_empty(chunks)
        self.decoded = "".join(c.text for c in self.chunks)
        starts: list[int] = []
        pos = 0
        for chunk in self.chunks:
            starts.append(pos)
            pos += len(chunk.text)
        self._starts = starts  # decoded offset of each chunk

    @classmethod
    def plain(cls, start: int, text: str) -> EscapedRun:
        return cls([Chunk(start, start + len(text), text, True)] if text else [])

    @property
    def start(self) -> int:
        return self.chunks[0].start if self.chunks else 0

    @property
    def end(self) -> int:
        return self.chunks[-1].end if self.chunks else 0

    def raw(self, offset: int, *, end: bool) -> int:
        """The source offset of a decoded offset; inside an escape, its start (`end=False`) or
        its end (`end=True`), so that a span never cuts an escape in two."""
        if not self.chunks:
            return 0
        if offset >= len(self.decoded):
            return self.chunks[-1].end
        i = bisect.bisect_right(self._starts, offset) - 1
        chunk = self.chunks[i]
        inside = offset - self._starts[i]
        if inside == 0:
            return chunk.start
        if chunk.plain:
            return chunk.start + inside
        return chunk.end if end else chunk.start

    def parts(self, src: str, decoded_parts: Sequence[Span]) -> list[Span]:
        """Parts of `self.decoded` (offsets into it) as parts of the source. A text part whose
        source differs from what it reads as is *shown* as the decoded text."""
        out: list[Span] = []
        for part in decoded_parts:
            a = self.raw(part.start, end=False)
            b = self.raw(part.end, end=True)
            if out and a < out[-1].end:  # an escape shared by two parts: the first one keeps it
                a = out[-1].end
            if b <= a:
                continue
            if part.kind == "text":
                shown = part.shown if part.shown is not None else self.decoded[part.start : part.end]
                out.append(Span(a, b, "text", shown=None if src[a:b] == shown else shown))
            else:
                out.append(replace(part, start=a, end=b))
        return out


def _without_empty(chunks: Sequence[Chunk]) -> tuple[Chunk, ...]:
    """Chunks that read as nothing (a quote that only changes how the rest reads) joined to the
    first character after them (the last ones: to the character before), so that every chunk
    reads as something and plain chunks stay plain."""
    out: list[Chunk] = []
    pending: int | None = None  # start of empty chunks waiting for the next chunk
    for chunk in chunks:
        if not chunk.text:
            pending = chunk.start if pending is None else pending
            continue
        if pending is not None:
            if chunk.plain and len(chunk.text) > 1:
                out.append(Chunk(pending, chunk.start + 1, chunk.text[0], False))
                chunk = Chunk(chunk.start + 1, chunk.end, chunk.text[1:], True)
            else:
                chunk = Chunk(pending, chunk.end, chunk.text, False)
            pending = None
        out.append(chunk)
    if pending is not None and out:
        last = out.pop()
        end = max(last.end, chunks[-1].end)
        if last.plain and len(last.text) > 1:
            out.append(Chunk(last.start, last.end - 1, last.text[:-1], True))
            out.append(Chunk(last.end - 1, end, last.text[-1], False))
        else:
            out.append(Chunk(last.start, end, last.text, False))
    return tuple(out)


def refine(run: EscapedRun, pattern: re.Pattern[str], decode: Callable[[re.Match[str]], str]) -> EscapedRun:
    """A second level of escapes over a run's decoded text (Android's `\\'` inside XML text): every
    match of `pattern` in the decoded text becomes one chunk that reads as `decode(match)`.
    Linear: matches and chunks are walked together."""
    out: list[Chunk] = []
    chunks, starts = run.chunks, run._starts
    i = 0  # the chunk holding decoded offset `pos`
    pos = 0

    def copy_until(limit: int) -> None:
        nonlocal i, pos
        while pos < limit:
            while starts[i] + len(chunks[i].text) <= pos:
                i += 1
            chunk, start = chunks[i], starts[i]
            hi = min(limit, start + len(chunk.text))
            if chunk.plain:
                out.append(
                    Chunk(
                        chunk.start + pos - start,
                        chunk.start + hi - start,
                        chunk.text[pos - start : hi - start],
                        True,
                    )
                )
            elif pos == start and hi == start + len(chunk.text):
                out.append(chunk)
            else:  # part of an escape: the whole escape, reading as the part (never in practice)
                out.append(Chunk(chunk.start, chunk.end, chunk.text[pos - start : hi - start], False))
            pos = hi

    for match in pattern.finditer(run.decoded):
        a, b = match.span()
        if a == b:
            continue
        copy_until(a)
        out.append(Chunk(run.raw(a, end=False), run.raw(b, end=True), decode(match), False))
        pos = b
    copy_until(len(run.decoded))
    return EscapedRun(out)
