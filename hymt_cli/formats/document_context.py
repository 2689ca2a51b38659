"""What tells the model where a paragraph of a document stands (`Segment.context`, given to HY-MT's
context prompt when the run asks for it): the document's title and the nearest heading above.

A generic pass over a document's segments in order, by their roles: the title is the document's
title (`<title>`, a front matter `title`) or else its first level-1 heading; a heading's context is
the title, any other segment's the title and the nearest heading (each once). Tags are markup, not
words: the context is the text between them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.segments import Segment
from ..text.tags import TAG

_TITLES = ("document title", "key title")
_SPACE = re.compile(r"\s+")
MAX_CONTEXT_CHARS = 300  # a title or heading longer than this is cut: context, not content


@dataclass(frozen=True, slots=True)
class Surroundings:
    """What a document read in parts has seen by the end of a part: its title and the nearest
    heading, carried into the next part's context."""

    title: str = ""
    heading: str = ""


NOTHING_BEFORE = Surroundings()  # a whole document, or its first part


def with_document_context(
    segments: Sequence[Segment], before: Surroundings = NOTHING_BEFORE
) -> list[Segment]:
    """`before`: a part's (of a document read in parts) earlier parts; its title, where it has one,
    is the document's (a level-1 heading after the first part does not become the title there)."""
    title = before.title or _title(segments)
    heading = before.heading
    out = []
    for segment in segments:
        if segment.role.startswith("heading "):
            lines = [title]
            heading = _plain(segment.text)
        else:
            lines = [title, heading]
        context = "\n".join(dict.fromkeys(line for line in lines if line and line != _plain(segment.text)))
        out.append(dataclasses.replace(segment, context=context) if context else segment)
    return out


def surroundings_after(segments: Sequence[Segment], before: Surroundings) -> Surroundings:
    """The title and nearest heading after a part's `segments`."""
    heading = next((_plain(s.text) for s in reversed(segments) if s.role.startswith("heading ")), None)
    return Surroundings(before.title or _title(segments), before.heading if heading is None else heading)


def _title(segments: Sequence[Segment]) -> str:
    return next((_plain(s.text) for s in segments if s.role in _TITLES), "") or next(
        (_plain(s.text) for s in segments if s.role == "heading 1"), ""
    )


def _plain(text: str) -> str:
    return _SPACE.sub(" ", TAG.sub("", text)).strip()[:MAX_CONTEXT_CHARS]
