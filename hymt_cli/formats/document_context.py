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

from ..text.segments import Segment
from ..text.tags import TAG

_TITLES = ("document title", "key title")
_SPACE = re.compile(r"\s+")
MAX_CONTEXT_CHARS = 300  # a title or heading longer than this is cut: context, not content


def with_document_context(segments: Sequence[Segment]) -> list[Segment]:
    title = next((_plain(s.text) for s in segments if s.role in _TITLES), "") or next(
        (_plain(s.text) for s in segments if s.role == "heading 1"), ""
    )
    heading = ""
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


def _plain(text: str) -> str:
    return _SPACE.sub(" ", TAG.sub("", text)).strip()[:MAX_CONTEXT_CHARS]
